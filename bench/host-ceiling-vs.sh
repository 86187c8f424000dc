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
# (/usr/bin/time: JVM start, embedded cluster and model load included), the bound line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(cd "$1" && pwd)
corpus=$(realpath "${2:-$root/datasets/build/gcide.jsonl}")
rounds=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
card=$root/bench/build/fixture-model/card.json
[[ -f $card ]] || bash "$root/bench/fixture/build-fixture-model.sh"
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
    printf '%-6s %s | %s | %s\n' "$name" "$(grep -o 'job-wide .*' "$work/log")" "$(cat "$work/time")" \
        "$(grep -o 'bound .*' "$work/log" | cut -c1-120 || true)"
}
extra=("$@")
echo "corpus $corpus ($(wc -l < "$corpus") docs), $rounds rounds, extra flags: ${extra[*]:-none}; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
    (cd "$base" && run "base$r" java $opts -cp "$basecp" "$basemain")
    run "main$r" "$root/bin/flink-inference"
done
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
