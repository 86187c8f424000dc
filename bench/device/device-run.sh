#!/usr/bin/env bash
# On a JDK-less many-core device: unpack the jlink'd JRE and the trimmed jars (make-pack.sh), build
# two corpora (N and K*N unique documents), then fixed_marginal.py over the builds given.
# Usage: OUT=dir [ROUNDS=r] [CDS=1] device-run.sh PACKDIR N K "BUILDS" "PARALLELISMS"
# CDS=1: each build's warm-up run writes a class-data archive its timed runs map, as
# bin/flink-inference does after the README's -Prun (fixed_marginal.py --cds).
# FIXTURE=pooled: the builds run the fixture whose output is already pooled (a GPU under
# --pool-on-device) instead of the token-state one; SCALE runs both, the pooled one to scale-N-pooled.
# THREADS=1: each run's CPU and minor page faults by thread name, beside its console (*.threads.json).
# A build NAME@APP runs APP's jars under NAME, with the embed flags in ARGS_NAME: "main own@main" with
# ARGS_own=--share-session=false compares one session per TaskManager against one per slot.
set -euo pipefail
P=$(cd "$1" && pwd); CARD=$P/fixture${FIXTURE:+-$FIXTURE}/card.json; SAMPLE=${SAMPLE:-$P/../../../datasets/sample/wordnet-sample.jsonl}; N=$2; K=$3; BUILDS=$4; PARS=$5
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd); W=/tmp/fi; mkdir -p $W; cd $W
[ -x jre/bin/java ] || xz -dc $P/jre.tar.xz | tar -xf -
[ -d deps ] || { xz -dc $P/deps.tar.xz | tar -xf - && cp $P/*.jar deps/; }
{ nproc; free -g | head -2; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | head -3; } > $OUT/machine.txt || true
# What memory touched for the first time costs here: Flink allocates a TaskManager's network memory
# as it starts (docs/benchmarks/segment-size-2026-12-06.md: ~3 ms per MiB on the 2-core development VM)
python3 -c 'import mmap,time; n=256<<20; m=mmap.mmap(-1,n); t=time.perf_counter(); [m.__setitem__(i,1) for i in range(0,n,4096)]; a=time.perf_counter()-t; t=time.perf_counter(); [m.__setitem__(i,2) for i in range(0,n,4096)]; print(f"first touch of fresh memory: {a*1e3/256:.2f} ms per MiB (touched again: {(time.perf_counter()-t)*1e3/256:.2f})")' >> $OUT/machine.txt || true
[ -f corpus-$N.jsonl ] || python3 $P/gen_corpus.py $SAMPLE $N corpus-$N.jsonl
[ -f corpus-$((K*N)).jsonl ] || python3 $P/gen_corpus.py $SAMPLE $((K*N)) corpus-$((K*N)).jsonl
mkdir -p conf-base
# 4220b9e cannot run P>4 on Flink's default 64 MiB of network memory (issue 38): give it 1 GiB
printf 'taskmanager.memory.network.min: 1gb\ntaskmanager.memory.network.max: 1gb\n' > conf-base/config.yaml
cps=(); confs=(); args=(); unpacked=" "
for b in $BUILDS; do
  name=${b%@*}; app=${b#*@}
  [[ "$unpacked" == *" $app "* ]] || { rm -rf app-$app; tar -xf $P/app-$app.tar; unpacked+="$app "; } # always this pack's jars
  cps+=("$name=$(ls $W/app-$app/*.jar $W/deps/*.jar | tr '\n' ':')")
  [ "$app" = base ] && confs+=("$name=$W/conf-base")
  flags=ARGS_$name; [ -z "${!flags:-}" ] || args+=("$name=${!flags}")
done
python3 $P/fixed_marginal.py --java $W/jre/bin/java --jvm-options $P/jvm.options --log4j $P/log4j2-local.properties \
  --classpath "${cps[@]}" --conf "${confs[@]}" --args "${args[@]}" --card $CARD \
  --corpus-n corpus-$N.jsonl --corpus-kn corpus-$((K*N)).jsonl --k $K --parallelism $PARS --out $OUT ${HEAP:+--heap $HEAP} \
  --rounds ${ROUNDS:-1} ${CDS:+--cds} ${THREADS:+--threads}
# The scale runs (issue 38 item 4): the last build alone at the widest parallelism, each size once
if [ -n "${SCALE:-}" ]; then
  last=${BUILDS##* }; last=${last#*@}; wide=${PARS##* }
  for n in $SCALE; do
    [ -f corpus-$n.jsonl ] || python3 $P/gen_corpus.py $SAMPLE $n corpus-$n.jsonl
    for kind in "" -pooled; do
      [ -f $P/fixture$kind/card.json ] || continue
      python3 $P/fixed_marginal.py --java $W/jre/bin/java --jvm-options $P/jvm.options --log4j $P/log4j2-local.properties \
        --classpath "$last=$(ls $W/app-$last/*.jar $W/deps/*.jar | tr '\n' ':')" --card $P/fixture$kind/card.json \
        --corpus-n corpus-$n.jsonl --corpus-kn corpus-$n.jsonl --k 1 --parallelism $wide --out $OUT/scale-$n$kind \
        --no-warmup --sizes n --timeout 420 ${HEAP:+--heap $HEAP} || true
      grep -E "job-wide|after the job|tail|cold start" $OUT/scale-$n$kind/*.out || true
    done
    rm -f corpus-$n.jsonl
  done
fi
