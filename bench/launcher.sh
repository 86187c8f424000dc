#!/usr/bin/env bash
# The launcher's own time (issue 24): bin/flink-inference as a user runs it, this tree against
# BEFORE (another checkout, built with `mvn -B -DskipTests package` or -Prun), interleaved
# A B A B ... ROUNDS times: `--help`, `models`, and the README's sample job (2,000 items, default
# model, embedded cluster). Timers: the process from just before the launcher starts to its exit
# (bash, ms); the job's own wall from the report (`wallSeconds`: submission, as run-info records
# it, to the job's end); "outside" = process - job wall, i.e. the JVM start, option parsing,
# environment, checks and build before submission plus the report and exit after the job.
# This tree runs as built: with the class-data archive when the -Prun run wrote one
# (jobs/target/launcher/classes.jsa), and NOCDS=1 adds a third variant that maps only the JDK's
# own archive (the same tree without ours).
# Usage: BEFORE=/old/tree bench/launcher.sh [rounds]   (repository root; BEFORE optional)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
OUT=${OUT:-$PWD/target/launcher-bench}
rm -rf "$OUT"; mkdir -p "$OUT"
jdk_archive=$(dirname "$(dirname "$(readlink -f "$(command -v "${JAVA_HOME:+$JAVA_HOME/bin/}java")")")")/lib/server/classes.jsa
variants=("after|$PWD|")
[ -n "${NOCDS:-}" ] && variants+=("after-no-cds|$PWD|-XX:SharedArchiveFile=$jdk_archive")
[ -n "${BEFORE:-}" ] && variants+=("before|$BEFORE|")

timed() { # name tree opts what args...
    local name=$1 tree=$2 opts=$3 what=$4 start end; shift 4
    start=$(date +%s%N)
    FLINK_INFERENCE_OPTS="$opts" "$tree/bin/flink-inference" "$@" >"$OUT/$name-$what.log" 2>&1
    end=$(date +%s%N)
    echo "$name $what $(( (end - start) / 1000000 ))" >>"$OUT/times.txt"
}

for i in $(seq 1 "$ROUNDS"); do
    for v in "${variants[@]}"; do
        IFS='|' read -r name tree opts <<<"$v"
        timed "$name" "$tree" "$opts" help --help
        timed "$name" "$tree" "$opts" models models
        timed "$name" "$tree" "$opts" job embed --input "$PWD/datasets/sample/wordnet-sample.jsonl" \
            --output "$OUT/runs/$name" --run-id s --overwrite
        python3 -c 'import json,sys; print(sys.argv[1], "wall", json.load(open(sys.argv[2]))["wallSeconds"])' \
            "$name" "$OUT/runs/$name/report-s.json" >>"$OUT/times.txt"
    done
done
python3 - "$OUT/times.txt" <<'PY'
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, what, v = line.split()
    t[(name, what)].append(float(v) / (1 if what == "wall" else 1000))
names = list(dict.fromkeys(k[0] for k in t))
print("median (min-max) over %d rounds, seconds" % len(t[(names[0], "job")]))
print("| variant | --help | models | sample job process | job wall | outside the job |")
print("|---|---:|---:|---:|---:|---:|")
for n in names:
    outside = [p - w for p, w in zip(t[(n, "job")], t[(n, "wall")])]
    cell = lambda xs: "%.2f (%.2f-%.2f)" % (statistics.median(xs), min(xs), max(xs))
    print("| %s | %s | %s | %s | %s | %s |" % (n, cell(t[(n, "help")]), cell(t[(n, "models")]),
          cell(t[(n, "job")]), cell(t[(n, "wall")]), cell(outside)))
PY
