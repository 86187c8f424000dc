#!/usr/bin/env bash
# Time to first batch against corpus size, before vs after, side by side in one run: the embed
# job with the benchmark fixture model (bench/fixture, negligible cost) on the scale corpus of
# SMALL and 10x SMALL records (datasets/build-scale-corpus.sh), each run a fresh JVM with the
# JVM flags `mvn -Prun` uses, interleaved before-1x after-1x before-10x after-10x, ROUNDS times.
#   before  the code of BEFORE (a source tree of an older commit; skipped when unset),
#   after   this tree.
# First batch = the earliest batch start in the metrics rows minus run-info's submittedAtMillis
# (the driver's submission), as the run summary's "cold start" line reports it; "− ready" also
# subtracts the report's clusterStart.readyAfterSubmissionSeconds (the embedded cluster's start,
# which depends on the machine's load, not on the corpus). Runs at normal priority.
# Per-run rows and medians of several OUT dirs: python3 bench/first-batch-collect.py OUT...
# Usage: [BEFORE=/old/tree] [CARD=card.json] [CORPUS=big.jsonl] bench/first-batch.sh [small records] [rounds]
#   e.g. mkdir /tmp/before && git archive <commit> | tar -x -C /tmp/before
# CARD defaults to the fixture built by bench/fixture/build-fixture-model.sh; CORPUS (at least
# 10x small records) to datasets/build-scale-corpus.sh's; both corpora are its first lines.
set -euo pipefail
cd "$(dirname "$0")/.."
SMALL=${1:-100000}
ROUNDS=${2:-1}
OUT=${OUT:-$PWD/target/first-batch}
mkdir -p "$OUT"
. bench/classpath.sh
CP_AFTER=$(classpath "$PWD" after)
CP_BEFORE=${BEFORE:+$(classpath "$BEFORE" before)}
CARD=${CARD:-$(bench/fixture/build-fixture-model.sh)}
LARGE=$((SMALL * 10))
if [ -z "${CORPUS:-}" ]; then
    datasets/build-scale-corpus.sh "$LARGE" >&2
    CORPUS="datasets/build/scale-$LARGE.jsonl"
fi
mkdir -p "$OUT/corpus"
head -n "$LARGE" "$CORPUS" >"$OUT/corpus/$LARGE.jsonl"
head -n "$SMALL" "$CORPUS" >"$OUT/corpus/$SMALL.jsonl"
OPENS=$(sed -n 's:.*<flink.jvm.opens>\(.*\)</flink.jvm.opens>.*:\1:p' pom.xml)
rm -rf "$OUT/runs" "$OUT/runs.txt"
run() { # variant records round classpath
    local out="$OUT/runs/$1-$2-$3"
    # shellcheck disable=SC2086
    java $OPENS -Xmx6g -Dlog4j.configurationFile=jobs/src/main/local/log4j2-local.properties \
        -classpath "$4" io.github.flinkinfer.jobs.cli.Main embed --model "$CARD" \
        --input "$OUT/corpus/$2.jsonl" --output "$out" --run-id fb --overwrite >"$OUT/$1-$2-$3.log" 2>&1
    echo "$1 $2 $out" >>"$OUT/runs.txt"
}
for i in $(seq 1 "$ROUNDS"); do
    for n in "$SMALL" "$LARGE"; do
        [ -n "$CP_BEFORE" ] && run before "$n" "$i" "$CP_BEFORE"
        run after "$n" "$i" "$CP_AFTER"
    done
done
python3 - "$OUT/runs.txt" <<'PY'
import glob, json, os, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    variant, n, out = line.split()
    submitted = json.load(open(os.path.join(out, "run-info-fb.json")))["submittedAtMillis"]
    first = None
    for f in glob.glob(os.path.join(out, "metrics", "**", "*"), recursive=True):
        # the metrics rows' part files; not the hidden in-progress ones, not the commit receipts (_committed-*)
        if os.path.isfile(f) and not os.path.basename(f).startswith((".", "_")):
            for l in open(f):
                if l.strip():
                    t = json.loads(l)["startedAtMillis"]
                    first = t if first is None else min(first, t)
    report = json.load(open(os.path.join(out, "report-fb.json")))
    ready = (report.get("clusterStart") or {}).get("readyAfterSubmissionSeconds") or 0
    fb = (first - submitted) / 1000
    rows.setdefault((variant, int(n)), []).append((fb, fb - ready, report["wallSeconds"]))
print("| variant | records | runs | first batch after submission (s, median) | first batch − cluster ready (s, median) | wall (s, median) | items/s |")
print("|---|---|---|---|---|---|---|")
for (variant, n), runs in sorted(rows.items()):
    fb = statistics.median(r[0] for r in runs)
    net = statistics.median(r[1] for r in runs)
    wall = statistics.median(r[2] for r in runs)
    print(f"| {variant} | {n:,} | {len(runs)} | {fb:.2f} | {net:.2f} | {wall:.1f} | {n / wall:,.0f} |")
for variant in sorted({v for v, _ in rows}):
    sizes = sorted(n for v, n in rows if v == variant)
    if len(sizes) == 2:
        for col, name in ((0, "first batch"), (1, "first batch − ready")):
            a, b = (statistics.median(r[col] for r in rows[(variant, s)]) for s in sizes)
            print(f"{variant}: {name} at 10x / at 1x = {b / a:.2f}")
PY
