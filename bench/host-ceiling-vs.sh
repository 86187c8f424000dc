#!/usr/bin/env bash
# Host ceiling side by side (issue 23): the embed job with the benchmark fixture model on the same
# corpus, interleaved rounds of a base build and this checkout, each in its own JVM.
#
#   bench/host-ceiling-vs.sh BASE_WORKTREE [CORPUS] [ROUNDS] [EXTRA embed FLAGS...]
#
# BASE_WORKTREE: a checkout of the base commit (e.g. `git worktree add ../base ebd54ee`), built
# with `mvn -B -pl jobs -am -DskipTests compile dependency:build-classpath
# -Dmdep.outputFile=target/cp.txt`; this checkout built with `mvn -B -DskipTests package`.
# Both get this checkout's JVM options. Prints, per run: job-wide items/s and real tokens/s
# (the run summary's: submission to the job's end), process wall and user CPU seconds
# (/usr/bin/time: JVM start, embedded cluster and model load included), the tail after the last
# batch and the phase totals of the run report (tokenize, post-process, write: sums over items),
# the bound line; then main / base by job-wide items/s, per round (pairs run back to back) and as
# the ratio of the medians.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(cd "$1" && pwd)
corpus=$(realpath "${2:-$root/datasets/build/gcide.jsonl}")
rounds=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
card=$root/bench/build/fixture-model/card.json
bash "$root/bench/fixture/build-fixture-model.sh" >/dev/null
opts=$(cat "$root/jobs/target/launcher/jvm.options")
basecp=$base/jobs/target/classes:$(cat "$base/jobs/target/cp.txt")
basemain=io.github.flinkinfer.jobs.Main # before the packages by role (ebd54ee); later builds: jobs.cli.Main
[[ -f $base/jobs/target/classes/io/github/flinkinfer/jobs/cli/Main.class ]] && basemain=io.github.flinkinfer.jobs.cli.Main
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # name, command...
    local name=$1; shift
    rm -rf "$work/out"
    /usr/bin/time -f "process wall %e s, user CPU %U s" -o "$work/time" "$@" embed --input "$corpus" \
        --model "$card" --max-length 128 --parallelism 2 --output "$work/out" --run-id "$name" "${extra[@]}" \
        > "$work/log" 2>&1 || { tail -20 "$work/log"; exit 1; }
    printf '%-6s %s | %s | %s | %s\n' "$name" "$(grep -o 'job-wide .*' "$work/log")" "$(cat "$work/time")" \
        "$(phases "$work/out/report-$name.json" "$work/log")" \
        "$(grep -o 'bound .*' "$work/log" | cut -c1-120 || true)"
}
# the run's tail after its last batch and its phase totals (sums over items: less noisy than the
# wall for an A/B of one stage); "n/a" where a build's report has no such field
phases() { # report.json, log
    local tail
    tail=$(grep -o 'tail  *[0-9.]* s' "$2" | grep -o '[0-9.]* s' || echo "n/a")
    /usr/bin/python3 - "$1" "$tail" <<'PY'
import json, sys
try:
    p = json.load(open(sys.argv[1])).get("phaseTotalsMs") or {}
except OSError:
    p = {}
ms = lambda k: f"{p[k]:,.0f}" if k in p else "n/a"
print(f"tail {sys.argv[2]}, phase ms tokenize {ms('tokenizeMs')} postprocess {ms('postprocessMs')} write {ms('writeMs')}")
PY
}
extra=("$@")
echo "corpus $corpus ($(wc -l < "$corpus") docs), $rounds rounds, extra flags: ${extra[*]:-none}; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
    (cd "$base" && run "base$r" java $opts -cp "$basecp" "$basemain")
    run "main$r" "$root/bin/flink-inference"
done | tee "$work/rounds"
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
# main / base by job-wide items/s: each round's pair (base r, main r), and the medians' ratio
/usr/bin/python3 - "$work/rounds" <<'PY'
import re, statistics, sys
rate = {}
for line in open(sys.argv[1]):
    m = re.match(r'(base|main)(\d+)\s+job-wide\s+([\d.]+) items/s', line)
    if m:
        rate[(m.group(1), int(m.group(2)))] = float(m.group(3))
rounds = sorted(r for b, r in rate if b == "main" and ("base", r) in rate)
if rounds:
    per = ", ".join(f"{rate[('main', r)] / rate[('base', r)]:.2f}x" for r in rounds)
    med = statistics.median(rate[("main", r)] for r in rounds) / statistics.median(rate[("base", r)] for r in rounds)
    print(f"main / base (job-wide items/s): per round {per}; medians {med:.2f}x")
PY
