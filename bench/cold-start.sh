#!/usr/bin/env bash
# Cold start before vs after, side by side in one run: the README's sample run (2,000 items,
# default model, embedded cluster, the JVM flags `mvn -Prun` uses) ROUNDS times, each variant in a
# fresh JVM, interleaved A B C D A B C D ...:
#   before    the code of BEFORE (a source tree of an older commit; skipped when unset),
#   previous  the code of PREVIOUS (another older tree, e.g. the last release; skipped when unset),
#   off       this tree with the optimized-graph cache off (-Dflinkinfer.ort.graph-cache=off),
#   after     this tree with the cache filled by an uncounted first run.
# First the model load alone (cold vs cached, alternating in one JVM). Then prints per run and as
# medians: the JVM's launch to the first batch (a measure no change of the submission point can
# move), submission to the first batch (metrics rows and run-info), to the first subtask
# opening, the driver's wall time, the whole process, the slowest subtask's load phases, and
# where this tree's early embedded cluster was ready against submission.
# Usage: [BEFORE=/old/tree] [PREVIOUS=/other/tree] bench/cold-start.sh [rounds]   (repository root)
#   e.g. mkdir /tmp/before && git archive <commit> | tar -x -C /tmp/before
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
OUT=${OUT:-$PWD/target/cold-start}
mkdir -p "$OUT"
. bench/classpath.sh
CP_NOW=$(classpath "$PWD" now)
CP_BEFORE=${BEFORE:+$(classpath "$BEFORE" before)}
CP_PREVIOUS=${PREVIOUS:+$(classpath "$PREVIOUS" previous)}
OPENS=$(sed -n 's:.*<flink.jvm.opens>\(.*\)</flink.jvm.opens>.*:\1:p' pom.xml)
ARGS="--input datasets/sample/wordnet-sample.jsonl --overwrite --price-cpu-core-hour 0.0475 --reference-price-per-1m-tokens 0.02"

run() { # variant round classpath cache
    local out="$OUT/runs/$1-$2" start end
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    java $OPENS -Xmx4g -Dlog4j.configurationFile=jobs/src/main/local/log4j2-local.properties \
        -Dflinkinfer.ort.graph-cache="$4" -classpath "$3" io.github.flinkinfer.jobs.cli.Main \
        embed $ARGS --output "$out" --run-id cs >"$OUT/$1-$2.log" 2>&1
    end=$(date +%s%N)
    echo "$1 $out $(( (end - start) / 1000000 )) $(( start / 1000000 ))" >>"$OUT/runs.txt"
}

# 1. the model load alone, cold vs cached, alternating in one JVM (ColdStartRounds)
mvn -B -o -q -pl model-runtime test-compile >"$OUT/build-rounds.log" 2>&1
java -cp "$PWD/model-runtime/target/test-classes:$CP_NOW" io.github.flinkinfer.runtime.onnx.ColdStartRounds \
    all-minilm-l6-v2 "$((ROUNDS * 2))" 2>/dev/null | grep -E '^(round|median)'
echo

# 2. the whole sample run
rm -rf "$OUT/runs" "$OUT/runs.txt" "$OUT/graph-cache"
run warmup 0 "$CP_NOW" "$OUT/graph-cache"   # fills the cache (a miss); not counted
for i in $(seq 1 "$ROUNDS"); do
    [ -n "$CP_BEFORE" ] && run before "$i" "$CP_BEFORE" off
    [ -n "$CP_PREVIOUS" ] && run previous "$i" "$CP_PREVIOUS" "$OUT/graph-cache"
    run off "$i" "$CP_NOW" off
    run after "$i" "$CP_NOW" "$OUT/graph-cache"
done
python3 - "$OUT/runs.txt" <<'PY'
import glob, json, os, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    variant, out, process_ms, launched_ms = line.split()
    if variant == "warmup":
        continue
    metrics = [json.loads(l) for f in glob.glob(os.path.join(out, "metrics", "**", "*"), recursive=True)
               if os.path.isfile(f) and not os.path.basename(f).startswith(".") for l in open(f) if l.strip()]
    submitted = json.load(open(os.path.join(out, "run-info-cs.json")))["submittedAtMillis"]
    report = json.load(open(os.path.join(out, "report-cs.json")))
    first = (min(m["startedAtMillis"] for m in metrics) - submitted) / 1000
    load = max((m for m in metrics if m["modelLoadMs"] > 0), key=lambda m: m["modelLoadMs"])
    opened = (min(m["subtaskOpenedAtMillis"] for m in metrics) - submitted) / 1000
    from_launch = (min(m["startedAtMillis"] for m in metrics) - int(launched_ms)) / 1000
    rows.setdefault(variant, []).append([from_launch, first, opened, report["wallSeconds"], int(process_ms) / 1000,
        load["modelLoadMs"] / 1000, load.get("modelReadMs", float("nan")) / 1000,
        load.get("sessionCreateMs", float("nan")) / 1000,
        max(m.get("tokenizerLoadMs", float("nan")) for m in metrics) / 1000,
        (report.get("clusterStart") or {}).get("readyAfterSubmissionSeconds", float("nan"))])
cols = ["launch → first batch", "first batch", "subtask opens", "driver wall", "process", "model load", "read + sha256", "session",
        "tokenizer", "cluster ready"]
print("per run (s): " + ", ".join(cols))
for variant, runs in rows.items():
    for r in runs:
        print(variant, " ".join(f"{v:.2f}" for v in r))
print()
print("| variant (median of runs, s) | " + " | ".join(cols) + " |")
print("|---" * (len(cols) + 1) + "|")
for variant, runs in rows.items():
    med = [statistics.median(r[i] for r in runs) for i in range(len(cols))]
    print(f"| {variant} ({len(runs)}) | " + " | ".join("—" if m != m else f"{m:.2f}" for m in med) + " |")
PY
