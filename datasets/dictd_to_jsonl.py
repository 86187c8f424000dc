#!/usr/bin/env python3
"""Convert a dictd dictionary (.index + .dict.dz) into JSONL records.

Usage: dictd_to_jsonl.py INDEX DICT_DZ OUT_JSONL [--prefix gcide]

.index lines are "headword<TAB>OFFSET<TAB>LENGTH" with OFFSET/LENGTH in dictd
base64 (alphabet A-Za-z0-9+/, most significant digit first). The .dict.dz is a
dictzip file, i.e. plain gzip: it is decompressed fully into memory and sliced
by byte offset/length (stray non-UTF-8 bytes are decoded as cp1252). Several headwords can point at the same article; each
distinct (offset, length) article is emitted once, in index order. The
"00-database-*" metadata entries (and aliases of the same
articles, e.g. "00-gcide-long") are skipped.

Output: one JSON object per line: {"id": "<prefix>-<n>", "text": "..."} where
n counts from 1 and text is the article with all whitespace collapsed.
Stdlib only.
"""
import argparse
import codecs
import gzip
import json
import os
import sys

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B64_VAL = {c: i for i, c in enumerate(B64)}


def _cp1252_fallback(err):
    """Codec error handler: a few GCIDE articles contain stray Windows-1252
    bytes (e.g. 0x92 for a right quote); map them via cp1252, else U+FFFD."""
    bad = err.object[err.start:err.end]
    return bad.decode("cp1252", errors="replace"), err.end


codecs.register_error("cp1252_fallback", _cp1252_fallback)


def b64_decode(s: str) -> int:
    n = 0
    for c in s:
        n = n * 64 + B64_VAL[c]
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index")
    ap.add_argument("dict_dz")
    ap.add_argument("out")
    ap.add_argument("--prefix", default="gcide")
    args = ap.parse_args()

    with gzip.open(args.dict_dz, "rb") as f:
        data = f.read()

    entries = []  # (lineno, headword, offset, length)
    with open(args.index, "r", encoding="utf-8") as idx:
        for lineno, line in enumerate(idx, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            if len(parts) < 3:
                print(f"warning: malformed index line {lineno}: {line!r}", file=sys.stderr)
                continue
            entries.append((lineno, parts[0], b64_decode(parts[1]), b64_decode(parts[2])))

    # Metadata articles: "00-database-*" plus any alias headword (e.g.
    # "00-gcide-long", "00-web1913-info") pointing at the same bytes.
    meta = {(off, ln) for _, head, off, ln in entries if head.startswith("00-database-")}

    seen = set()
    count = 0
    skipped_meta = 0
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        for lineno, head, off, ln in entries:
            key = (off, ln)
            if key in meta:
                skipped_meta += 1
                continue
            if key in seen:
                continue
            seen.add(key)
            if off + ln > len(data):
                print(f"warning: entry out of range at line {lineno}: {head!r}", file=sys.stderr)
                continue
            text = " ".join(data[off:off + ln].decode("utf-8", errors="cp1252_fallback").split())
            if not text:
                continue
            count += 1
            out.write(json.dumps({"id": f"{args.prefix}-{count}", "text": text},
                                 ensure_ascii=False) + "\n")
    os.replace(tmp, args.out)
    print(f"skipped {skipped_meta} metadata entries; wrote {count} records", file=sys.stderr)
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
