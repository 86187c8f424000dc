#!/usr/bin/env bash
# The scale benchmark (issue 22): the full embed job over N million unique records with the
# benchmark fixture model (negligible model cost, so the host path and the driver show), at each
# size given, one after another on this machine. Per size it prints and collects: wall and
# items/s (job-wide, submission to the job's end as the ledger recorded it), time to the first
# batch after submission, the driver's work after the job (seconds to the report written, bytes
# its thread allocated, the JVM heap's peak meanwhile), the ledger's size, and bytes of metrics
# rows per million items (from the manifest's file list). Builds the corpus and the fixture on
# first use. Usage: bench/scale.sh [RECORDS ...]   (default: 1000000 3000000 10000000)
# Writes bench/build/scale/<records>.{out,json} and bench/build/scale/summary.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(1000000 3000000 10000000)
OUT="$ROOT/bench/build/scale"; mkdir -p "$OUT"
CARD="$ROOT/bench/build/fixture-model/card.json"
bench/fixture/build-fixture-model.sh >/dev/null
[ -x bin/flink-inference ] && [ -d jobs/target/launcher ] || mvn -B -q -DskipTests -Djob-jar.skip=true package
{
  echo "| records | wall s | items/s | first batch s | after the job s | driver allocated KiB | heap peak MiB | ledger bytes | metrics bytes per 1M items |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$OUT/summary.md"
for n in "${SIZES[@]}"; do
  corpus="$ROOT/datasets/build/scale-$n.jsonl"
  [ -f "$corpus" ] || datasets/build-scale-corpus.sh "$n" >/dev/null
  run="$ROOT/runs/scale-$n"
  bin/flink-inference embed --input "$corpus" --model "$CARD" --output "$run" --run-id "scale-$n" \
      --max-length 128 --parallelism 2 --progress-seconds 30 --overwrite | tee "$OUT/$n.out"
  python3 - "$n" "$run" "$OUT" <<'PY'
import json, os, re, sys
n, run, out = sys.argv[1], sys.argv[2], sys.argv[3]
rid = "scale-" + n
report = json.load(open(f"{run}/report-{rid}.json"))
manifest = json.load(open(f"{run}/_SUCCESS-{rid}"))
console = open(f"{out}/{n}.out").read()
m = re.search(r"after the job\s+([\d.]+) s to the report written, ([\d,]+) KiB allocated by the driver, heap peak ([\d,]+) MiB", console)
after, alloc, heap = (m.group(1), m.group(2).replace(",", ""), m.group(3).replace(",", "")) if m else ("?", "?", "?")
metrics = sum(f["bytes"] for f in manifest["files"].get("metrics", []))
ok = report["succeeded"]
row = dict(records=int(n), wallSeconds=report["wallSeconds"], itemsPerSecond=report["itemsPerSecond"],
           firstBatchSeconds=report["series"]["timeline"]["firstBatchSeconds"], afterJobSeconds=after,
           driverAllocatedKiB=alloc, heapPeakMiB=heap, ledgerBytes=os.path.getsize(f"{run}/ledger-{rid}.json"),
           metricsBytesPer1M=round(metrics / max(1, ok) * 1e6), reconciled=manifest["reconciliation"]["ok"])
json.dump(row, open(f"{out}/{n}.json", "w"), indent=1)
with open(f"{out}/summary.md", "a") as s:
    s.write("| {records:,} | {wallSeconds:.1f} | {itemsPerSecond:,.0f} | {firstBatchSeconds:.1f} | {afterJobSeconds} | {driverAllocatedKiB} | {heapPeakMiB} | {ledgerBytes:,} | {metricsBytesPer1M:,} |\n".format(**row))
print(json.dumps(row))
PY
done
cat "$OUT/summary.md"
