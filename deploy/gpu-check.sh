#!/usr/bin/env bash
# GPU check for a machine with an NVIDIA GPU, CUDA 12 and cuDNN 9 (what ONNX Runtime 1.23 GPU
# needs): builds with -Pgpu, proves the CUDA execution provider loads by embedding a few records
# with --device cuda (which fails instead of falling back), then runs the benchmark's bare loop
# and Flink contenders on the GPU and on the CPU and prints both.
#
#   deploy/gpu-check.sh                       # from the repository root, ~10-20 min
#
# Environment:
#   GPU_DEVICE     device for the GPU run (default cuda:0)
#   BENCH_CORPUS   JSONL corpus (default the bundled WordNet sample; datasets/build/gcide.jsonl
#                  is the published benchmark's corpus, built by datasets/build-gcide.sh)
#   BENCH_DOCS     documents per run (default 2000)     BENCH_REPEATS  rounds (default 3)
#   CONTENDERS     bench contenders (default bare-1x2,flink)
#   GPU_TOKENS     --max-batch-tokens on the GPU (default 32768; the CPU run uses the default, 2048)
#   OUT            where results go (default target/gpu-check)
#   MVN            maven command (default mvn)
#
# NOT RUN IN THIS REPOSITORY'S CI: it has no GPU, and this script has never been run on one by
# the project so far. Everything GPU-specific it exercises sits behind the device seam
# (OrtSessions.selectDevice), whose selection and fallback logic is unit-tested on CPU.
#
# Always build the runtime modules in the same reactor (-am): with `-pl jobs` alone, Maven reads
# model-runtime's installed POM without the gpu profile and puts the CPU onnxruntime on the
# classpath, so --device cuda fails with "Failed to find CUDA shared provider".
set -euo pipefail

cd "$(dirname "$0")/.."
MVN=${MVN:-mvn}
GPU_DEVICE=${GPU_DEVICE:-cuda:0}
BENCH_CORPUS=${BENCH_CORPUS:-datasets/sample/wordnet-sample.jsonl}
BENCH_DOCS=${BENCH_DOCS:-2000}
BENCH_REPEATS=${BENCH_REPEATS:-3}
CONTENDERS=${CONTENDERS:-bare-1x2,flink}
GPU_TOKENS=${GPU_TOKENS:-32768}
OUT=${OUT:-target/gpu-check}

fail() {
    echo "gpu-check: FAILED: $*" >&2
    exit 1
}

step() {
    echo
    echo "=== gpu-check: $* ==="
}

step "1/4 GPU visible"
command -v nvidia-smi >/dev/null || fail "nvidia-smi not found: no NVIDIA driver on this machine"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader \
    || fail "nvidia-smi cannot talk to the driver"

rm -rf "$OUT"
mkdir -p "$OUT"

step "2/4 build with -Pgpu (onnxruntime_gpu)"
"$MVN" -B -q -Pgpu -DskipTests install || fail "the -Pgpu build failed"
jar=$(ls jobs/target/jobs-*-job.jar | head -1)
unzip -l "$jar" | grep -q 'onnxruntime_providers_cuda' \
    || fail "$jar has no CUDA provider library: was onnxruntime_gpu used?"

step "3/4 CUDA provider loads (doctor, then --device $GPU_DEVICE, which fails instead of falling back)"
if ! bin/flink-inference doctor --device "$GPU_DEVICE" | tee "$OUT/doctor.txt"; then
    fail "doctor says the CUDA provider cannot load on $GPU_DEVICE (its verdict and fix above, $OUT/doctor.txt)"
fi
head -n 64 datasets/sample/wordnet-sample.jsonl > "$OUT/few.jsonl"
"$MVN" -B -q -Pgpu -Prun -DskipTests package -pl jobs -am \
    -Drun.args="embed --input $OUT/few.jsonl --output $OUT/provider --run-id gpucheck \
--device $GPU_DEVICE --parallelism 1 --progress-seconds 0" 2>&1 | tee "$OUT/provider.log" \
    || fail "embedding with --device $GPU_DEVICE failed; the cause (e.g. 'CUDA execution provider cannot be used') is in $OUT/provider.log"
expected=$GPU_DEVICE
[ "$expected" = cuda ] && expected=cuda:0
cat "$OUT"/provider/metrics/*.jsonl | grep -q "\"device\":\"$expected\"" \
    || fail "the metrics rows do not say device $expected (see $OUT/provider/metrics)"
echo "CUDA provider OK: $(grep -h -o '"device":"[^"]*"' "$OUT"/provider/metrics/*.jsonl | sort | uniq -c)"

step "4/4 benchmark: $CONTENDERS on $GPU_DEVICE and on cpu ($BENCH_DOCS docs x $BENCH_REPEATS rounds)"
common="--corpus $BENCH_CORPUS --docs $BENCH_DOCS --repeats $BENCH_REPEATS --contenders $CONTENDERS --memory-check=false"
"$MVN" -B -q -Pgpu -Pbench -DskipTests package -pl bench -am \
    -Dbench.args="$common --device $GPU_DEVICE --max-batch-tokens $GPU_TOKENS --out $OUT/bench-gpu" \
    > "$OUT/bench-gpu.log" 2>&1 || { tail -40 "$OUT/bench-gpu.log"; fail "GPU benchmark failed"; }
"$MVN" -B -q -Pgpu -Pbench -DskipTests package -pl bench -am \
    -Dbench.args="$common --device cpu --out $OUT/bench-cpu" \
    > "$OUT/bench-cpu.log" 2>&1 || { tail -40 "$OUT/bench-cpu.log"; fail "CPU benchmark failed"; }

for side in gpu cpu; do
    echo
    echo "----- $side ($( [ $side = gpu ] && echo "$GPU_DEVICE, $GPU_TOKENS tokens/batch" || echo "cpu, 2048 tokens/batch"))"
    cat "$OUT"/bench-$side/bench-*.md
done
echo
echo "gpu-check: OK. Results in $OUT/ (bench-gpu/, bench-cpu/, provider/)."
