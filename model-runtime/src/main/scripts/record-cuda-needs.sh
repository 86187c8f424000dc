#!/usr/bin/env bash
# Records what ONNX Runtime's bundled CUDA provider needs from a node, for `flink-inference doctor`
# (CudaDoctor), so the check needs no 370 MB library at run time: fetches the onnxruntime_gpu jar
# once (Maven), reads libonnxruntime_providers_cuda.so's DT_NEEDED sonames with model-runtime's
# ElfNeeded and writes them, with the jar's version and the library's sha256, to
# model-runtime/src/main/resources/node/onnxruntime-cuda-provider.properties.
# Run from the repository root after a build (model-runtime/target/classes), again on an ORT upgrade:
#
#   mvn -B -o -q -pl model-runtime -DskipTests compile
#   bash model-runtime/src/main/scripts/record-cuda-needs.sh [VERSION]   # default: the POM's
set -euo pipefail

version=${1:-$(mvn -B -q help:evaluate -Dexpression=onnxruntime.version -DforceStdout -N | sed "s/\x1b\[[0-9;]*m//g")}
out=model-runtime/src/main/resources/node/onnxruntime-cuda-provider.properties
library=ai/onnxruntime/native/linux-x64/libonnxruntime_providers_cuda.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mvn -B -q dependency:copy -Dartifact="com.microsoft.onnxruntime:onnxruntime_gpu:$version" -DoutputDirectory="$work"
unzip -q -o "$work/onnxruntime_gpu-$version.jar" "$library" -d "$work"
sha=$(sha256sum "$work/$library" | cut -d' ' -f1)
needed=$(java -cp model-runtime/target/classes io.github.flinkinfer.runtime.node.ElfNeeded "$work/$library" | paste -sd, -)

cat > "$out" <<PROPERTIES
# What ONNX Runtime's CUDA provider in the onnxruntime_gpu jar needs from a node (its DT_NEEDED
# sonames). Written by model-runtime/src/main/scripts/record-cuda-needs.sh; do not edit.
artifact=com.microsoft.onnxruntime:onnxruntime_gpu:$version
version=$version
library=$library
sha256=$sha
needed=$needed
PROPERTIES
echo "wrote $out: $needed"
