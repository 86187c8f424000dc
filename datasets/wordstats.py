#!/usr/bin/env python3
"""Print record count, size and whitespace word-count stats of JSONL files.

Usage: wordstats.py FILE.jsonl [...]
Words = len(text.split()). Percentiles use the nearest-rank method.
"""
import json
import math
import os
import sys


def pct(sorted_vals, p):
    k = max(1, math.ceil(p / 100 * len(sorted_vals)))
    return sorted_vals[k - 1]


for path in sys.argv[1:]:
    counts = []
    ids = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            ids.add(rec["id"])
            counts.append(len(rec["text"].split()))
    counts.sort()
    n = len(counts)
    print(f"{path}: records={n} unique_ids={len(ids)} bytes={os.path.getsize(path)} "
          f"words min={counts[0]} median={pct(counts, 50)} p90={pct(counts, 90)} "
          f"p99={pct(counts, 99)} max={counts[-1]} mean={sum(counts) / n:.1f} "
          f">48w={sum(c > 48 for c in counts)} >100w={sum(c > 100 for c in counts)} "
          f">400w={sum(c > 400 for c in counts)}")
