#!/usr/bin/env python3
"""Build a deterministic sample of WordNet 3.0 synsets as JSONL.

Usage: wordnet_to_jsonl.py WORDNET_DIR OUT_JSONL [--total 2000] [--long-frac 0.1]

Reads data.noun, data.verb, data.adj, data.adv (WordNet "wndb" format: the
synset line is "offset lex_filenum ss_type w_cnt word lex_id ... | gloss").
Each record: {"id": "wn-<pos>-<offset>", "text": "<lemmas joined ', '>: <gloss>"}
with underscores in lemmas replaced by spaces and adjective markers such as
"(a)", "(p)", "(ip)" removed.

Selection (deterministic, no randomness): each file gets a fixed quota
(QUOTA_SHARE of --total). Within a file, the longest synsets by word count
(--long-frac of the quota; ties broken by offset) are taken first so the sample
contains texts well above 64 tokens; the rest of the quota is filled with every
k-th remaining synset in file order. Output is sorted by file then offset.
Stdlib only.
"""
import argparse
import json
import os
import re
import sys

FILES = [("noun", "data.noun"), ("verb", "data.verb"), ("adj", "data.adj"), ("adv", "data.adv")]
QUOTA_SHARE = {"noun": 0.50, "verb": 0.20, "adj": 0.20, "adv": 0.10}
ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


def parse(path, pos):
    recs = []
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            if line.startswith("  ") or not line.strip():
                continue  # licence header lines
            head, sep, gloss = line.partition(" | ")
            if not sep:
                continue
            fields = head.split()
            offset = fields[0]
            w_cnt = int(fields[3], 16)
            lemmas = []
            for i in range(w_cnt):
                w = ADJ_MARKER.sub("", fields[4 + 2 * i]).replace("_", " ")
                if w not in lemmas:
                    lemmas.append(w)
            gloss = " ".join(gloss.split())
            text = f"{', '.join(lemmas)}: {gloss}"
            recs.append({"id": f"wn-{pos}-{offset}", "text": text})
    return recs


def select(recs, quota, long_frac):
    if quota >= len(recs):
        return list(range(len(recs)))
    n_long = int(round(quota * long_frac))
    by_len = sorted(range(len(recs)), key=lambda i: (-len(recs[i]["text"].split()), i))
    chosen = set(by_len[:n_long])
    rest = [i for i in range(len(recs)) if i not in chosen]
    need = quota - len(chosen)
    k = len(rest) / need
    for j in range(need):
        chosen.add(rest[int(j * k)])
    return sorted(chosen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wordnet_dir")
    ap.add_argument("out")
    ap.add_argument("--total", type=int, default=2000)
    ap.add_argument("--long-frac", type=float, default=0.1)
    args = ap.parse_args()

    quotas = {pos: int(round(args.total * QUOTA_SHARE[pos])) for pos, _ in FILES}
    quotas["noun"] += args.total - sum(quotas.values())

    out_recs = []
    for pos, fname in FILES:
        recs = parse(os.path.join(args.wordnet_dir, fname), pos)
        idx = select(recs, quotas[pos], args.long_frac)
        print(f"{fname}: {len(recs)} synsets, selected {len(idx)}", file=sys.stderr)
        out_recs.extend(recs[i] for i in idx)

    ids = [r["id"] for r in out_recs]
    assert len(ids) == len(set(ids)), "duplicate ids"
    assert all(r["text"].strip() for r in out_recs), "empty text"

    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for r in out_recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    os.replace(tmp, args.out)
    print(len(out_recs))


if __name__ == "__main__":
    main()
