#!/usr/bin/env bash
# Fixed seconds and marginal CPU per document at several parallelisms, a base build and this
# checkout side by side, interleaved (issue 38 item 3), on this machine: the local twin of
# bench/device/device-run.sh, over the same script (bench/device/fixed_marginal.py).
#
#   bench/fixed-marginal.sh BASE_WORKTREE [N] [K] [ROUNDS] [PARALLELISMS] [OUT]
#   e.g. git worktree add ../base 4220b9e && bench/fixed-marginal.sh ../base 20000 3 2 "1 2 16"
#
# BASE_WORKTREE is built here (`compile dependency:build-classpath`), this checkout must be
# packaged (`mvn -B -DskipTests package`). Corpora: N and K*N unique documents of 1-4 WordNet
# glosses of the bundled sample (bench/device/gen_corpus.py, seed 7). The base gets 1 GiB of
# network memory (4220b9e cannot run P > 4 on Flink's default; BASE_NETWORK= for a later base);
# this checkout runs on its own defaults. Timers and formulas: bench/device/fixed_marginal.py.
# CDS=1: both builds run from jars (the base is packaged) and map a class-data archive their
# warm-up run wrote, as bin/flink-inference does after the README's -Prun (fixed_marginal.py --cds).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(cd "$1" && pwd)
n=${2:-20000}
k=${3:-3}
rounds=${4:-2}
pars=${5:-1 2 16}
out=${6:-$root/bench/target/fixed-marginal-$(date +%Y%m%d-%H%M)}
mkdir -p "$out"
card=$root/bench/build/fixture-model/card.json
bash "$root/bench/fixture/build-fixture-model.sh" >/dev/null
sample=$root/datasets/sample/wordnet-sample.jsonl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/device/gen_corpus.py" "$sample" "$n" "$work/n.jsonl"
python3 "$root/bench/device/gen_corpus.py" "$sample" $((k * n)) "$work/kn.jsonl"
# a checkout's class path as bin/flink-inference runs it: its jar, the launcher's class path,
# and Flink's RPC jar where the build made one
launcher_cp() {
    local l=$1/jobs/target/launcher rpc=""
    [[ -f $l/flink-rpc-akka.jar ]] && rpc=:$l/flink-rpc-akka.jar
    echo "$1/jobs/target/$(cat "$l/jobs-jar"):$(cat "$l/classpath-compile"):$(cat "$l/classpath-runtime")$rpc"
}
if [[ -n ${CDS:-} ]]; then # jars only: the JVM archives no class loaded from a directory
    [[ -f $base/jobs/target/launcher/jobs-jar ]] || (cd "$base" && mvn -B -o -q -DskipTests package)
    base_cp=$(launcher_cp "$base")
else
    [[ -f $base/jobs/target/cp.txt ]] || (cd "$base" && mvn -B -o -q -pl jobs -am -DskipTests compile \
        dependency:build-classpath -Dmdep.outputFile=target/cp.txt)
    base_cp="$base/jobs/target/classes:$(cat "$base/jobs/target/cp.txt")"
fi
# BASE_NETWORK= (empty) for a base that sizes its own network memory (any build after 4220b9e)
base_network=${BASE_NETWORK-1gb}
mkdir -p "$work/conf-base"
[[ -n $base_network ]] && printf 'taskmanager.memory.network.min: %s\ntaskmanager.memory.network.max: %s\n' \
    "$base_network" "$base_network" > "$work/conf-base/config.yaml"
launcher=$root/jobs/target/launcher
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
{ nproc; free -g | head -2; uptime; git -C "$base" rev-parse --short HEAD; git -C "$root" rev-parse --short HEAD; } \
    > "$out/machine.txt"
python3 "$root/bench/device/fixed_marginal.py" --java "$java" --jvm-options "$launcher/jvm.options" \
    --log4j "$root/jobs/src/main/local/log4j2-local.properties" \
    --classpath "base=$base_cp" \
    "main=$(launcher_cp "$root")" \
    ${base_network:+--conf "base=$work/conf-base"} --card "$card" --corpus-n "$work/n.jsonl" --corpus-kn "$work/kn.jsonl" \
    --k "$k" --parallelism $pars --rounds "$rounds" --heap "${HEAP:-4g}" --out "$out" ${CDS:+--cds}
echo "runs and summary: $out"
