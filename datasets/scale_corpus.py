#!/usr/bin/env python3
"""Write a corpus of N unique records for scale runs, from sentences of GCIDE and WordNet.

Usage: scale_corpus.py OUT_JSONL --records N --gcide GCIDE_JSONL --wordnet WORDNET_DIR

The pool: every sentence of three words or more of every GCIDE article and every WordNet gloss
(text split at ". ", whitespace collapsed, trailing dots replaced by one "."), each kept once, in
first-seen order.
No sentence contains ". " and each ends with ".", so a text made of sentences joined by " "
splits back into exactly those sentences: distinct sentence sequences are distinct texts.

Record i (0-based) has id "scale-<i+1>" and text pool[a] + " " + pool[b] (+ " " + pool[c] for
one record in four, so lengths vary), with a = i mod P and b = (a * A + (i div P) * B + 1) mod P
for P sentences and primes A, B not dividing P. i -> (a, b) is one-to-one for N <= P * P, so
every id and every text is unique. Deterministic: re-runs are byte-identical. Streams to disk
(O(P) memory, not O(N)); stdlib only.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wordnet_to_jsonl  # noqa: E402  (its parse() reads the WordNet data files)

A = 7919
B = 104729
C = 15485863


def sentences(text):
    for part in " ".join(text.split()).split(". "):
        s = part.rstrip(". ").strip()
        if len(s.split()) >= 3:  # drops fragments such as "--Locke" and "[L"
            yield s + "."


def pool(gcide_jsonl, wordnet_dir):
    seen = {}
    with open(gcide_jsonl, encoding="utf-8") as f:
        for line in f:
            for s in sentences(json.loads(line)["text"]):
                seen.setdefault(s, None)
    for pos, name in wordnet_to_jsonl.FILES:
        for rec in wordnet_to_jsonl.parse(os.path.join(wordnet_dir, name), pos):
            for s in sentences(rec["text"]):
                seen.setdefault(s, None)
    # JSON-escaped once, so writing a record is string formatting only
    return [json.dumps(s, ensure_ascii=False)[1:-1] for s in seen]


def write(out, records, escaped):
    p = len(escaped)
    if records > p * p:
        sys.exit(f"at most {p * p} records from a pool of {p} sentences")
    for prime in (A, B, C):
        if p % prime == 0:
            sys.exit(f"pool size {p} is a multiple of {prime}; change the primes")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8", buffering=1 << 22) as f:
        lines = []
        for i in range(records):
            a = i % p
            b = (a * A + (i // p) * B + 1) % p
            text = escaped[a] + " " + escaped[b]
            if i % 4 == 3:
                text += " " + escaped[(i * C + 7) % p]
            lines.append('{"id": "scale-%d", "text": "%s"}\n' % (i + 1, text))
            if len(lines) == 65536:
                f.writelines(lines)
                lines.clear()
        f.writelines(lines)
    os.replace(tmp, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--records", type=int, required=True)
    ap.add_argument("--gcide", required=True)
    ap.add_argument("--wordnet", required=True)
    args = ap.parse_args()
    escaped = pool(args.gcide, args.wordnet)
    print(f"sentences: {len(escaped)}", file=sys.stderr)
    write(args.out, args.records, escaped)
    print(args.records)


if __name__ == "__main__":
    main()
