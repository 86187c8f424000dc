#!/usr/bin/env bash
# The host ceiling's steady-state rate (issue 23), side by side: bench/host-ceiling-vs.sh on the
# corpus and on K copies of it (ids made unique, `<id>~<copy>`, so keep-first drops none), then
# per build the marginal rate: the K-times run's extra documents over its extra time.
#
#   bench/host-ceiling-marginal.sh BASE_WORKTREE [CORPUS] [ROUNDS] [K]
#
# A 2-core run of GCIDE (126k documents) is 20-35 s of which a fixed part does not grow with the
# corpus: JVM start, the embedded cluster (about 6 s with a 2,000-document corpus), and the JIT's
# compiling (C2 ran 20+ s of compiler-thread time per run, beside the job, on these 2 cores). The
# marginal rate takes that part out: it is what a long run (10^8 documents) sustains.
#
# Timers: T = documents / job-wide items/s (the run summary's: submission to the job's end);
# marginal items/s = (K-1) x N / (T_K - T_1); marginal CPU per document = (CPU_K - CPU_1) /
# ((K-1) x N), CPU being the process's user CPU (/usr/bin/time). Medians over the rounds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=$1
corpus=$(realpath "${2:-$root/datasets/build/gcide.jsonl}")
rounds=${3:-2}
k=${4:-3}
big=$(mktemp --suffix=.jsonl)
trap 'rm -f "$big"' EXIT
/usr/bin/python3 - "$corpus" "$big" "$k" <<'PY'
import json, sys
src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, encoding="utf-8") as f:
    lines = [l for l in f if l.strip()]
with open(dst, "w", encoding="utf-8") as o:
    for copy in range(k):
        for l in lines:
            d = json.loads(l)
            d["id"] = f"{d['id']}~{copy}"
            o.write(json.dumps(d, ensure_ascii=False) + "\n")
PY
n=$(grep -c . "$corpus")
one=$(bash "$root/bench/host-ceiling-vs.sh" "$base" "$corpus" "$rounds")
many=$(bash "$root/bench/host-ceiling-vs.sh" "$base" "$big" "$rounds")
printf '%s\n' "== 1x" "$one" "== ${k}x" "$many" | cut -c1-200
ONE=$one MANY=$many /usr/bin/python3 - "$n" "$k" <<'PY'
import os, re, statistics, sys
n, k = int(sys.argv[1]), int(sys.argv[2])
def runs(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r'(base|main)\d+\s+job-wide\s+([\d.]+) items/s.*user CPU ([\d.]+) s', line)
        if m:
            out.setdefault(m.group(1), []).append((float(m.group(2)), float(m.group(3))))
    return out
one, many = runs(os.environ["ONE"]), runs(os.environ["MANY"])
rates = {}
for b in ("base", "main"):
    t1 = statistics.median(n / r for r, _ in one[b]); tk = statistics.median(n * k / r for r, _ in many[b])
    c1 = statistics.median(c for _, c in one[b]); ck = statistics.median(c for _, c in many[b])
    extra = (k - 1) * n
    print(f"{b}: 1x {n / t1:,.0f} items/s ({t1:.1f} s), {k}x {n * k / tk:,.0f} items/s ({tk:.1f} s); "
          f"marginal {extra / (tk - t1):,.0f} items/s, {(ck - c1) / extra * 1e6:,.0f} µs user CPU per document")
    rates[b] = (n / t1, extra / (tk - t1))
print(f"main / base: 1x {rates['main'][0] / rates['base'][0]:.2f}x, marginal {rates['main'][1] / rates['base'][1]:.2f}x")
PY
