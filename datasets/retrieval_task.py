#!/usr/bin/env python3
"""Build a labelled retrieval task from two independent dictionaries (definition matching).

Usage: retrieval_task.py GCIDE_JSONL WORDNET_DIR OUT_DIR [--queries 500] [--docs 5000] [--seed 15]
                         [--max-relevant 5]

Queries are WordNet 3.0 glosses; the corpus is GCIDE articles; a query's relevant documents are
the GCIDE articles whose headword is the query's WordNet lemma. A reverse-dictionary search:
"the gloss of a word" -> "that word's dictionary entries".

Kept independent and unambiguous:
- GCIDE merged some WordNet 1.5/1.6 glosses into its articles; every article that mentions
  "WordNet" (about 8.5k of 126k) is left out, so queries never match their own text.
- A query comes from a synset with exactly one lemma (WordNet knows no synonym in that sense),
  its definition only (the quoted usage examples after '; "' are dropped: they contain the
  word), and the definition must not contain the lemma itself as a word.
- The lemma has 1..--max-relevant GCIDE articles (so recall@10 can reach 1), and one query per
  lemma.
Corpus = every relevant article of the chosen lemmas + distractor articles drawn from the other
headwords, up to --docs in all, shuffled. Everything is drawn with random.Random(--seed): the
same inputs and seed give byte-identical outputs.

Writes OUT_DIR/queries.jsonl and corpus.jsonl ({"id","text"}), qrels.tsv (BEIR layout:
query-id, corpus-id, score with a header line) and task.json (counts and settings). Stdlib only.
"""
import argparse
import collections
import json
import os
import random
import re
import sys

POS = [("noun", "data.noun"), ("verb", "data.verb"), ("adj", "data.adj"), ("adv", "data.adv")]
ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
HEADWORD = re.compile(r"^(.+?) \\")


def gcide_articles(path):
    """headword (lower case) -> [(id, text)] for articles without WordNet-derived text."""
    by_head = collections.defaultdict(list)
    skipped = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            m = HEADWORD.match(r["text"])
            if "WordNet" in r["text"] or not m:
                skipped += 1
                continue
            by_head[m.group(1).strip().lower()].append((r["id"], r["text"]))
    return by_head, skipped


def wordnet_queries(wn_dir):
    """lemma (lower case) -> [(id, definition)] from single-lemma synsets."""
    by_lemma = collections.defaultdict(list)
    for pos, name in POS:
        with open(os.path.join(wn_dir, name), encoding="utf-8") as f:
            for line in f:
                if line.startswith("  "):
                    continue  # licence header
                head, sep, gloss = line.partition(" | ")
                fields = head.split()
                if not sep or int(fields[3], 16) != 1:
                    continue
                lemma = ADJ_MARKER.sub("", fields[4]).replace("_", " ").lower()
                definition = " ".join(re.split(r';\s*"|^\s*"', gloss, maxsplit=1)[0].split()).strip(" ;")
                if len(definition.split()) < 3:
                    continue
                if re.search(r"\b" + re.escape(lemma) + r"\b", definition, re.IGNORECASE):
                    continue
                by_lemma[lemma].append((f"wn-{pos}-{fields[0]}", definition))
    return by_lemma


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for rid, text in rows:
            f.write(json.dumps({"id": rid, "text": text}, ensure_ascii=False) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gcide")
    ap.add_argument("wordnet_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--docs", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--max-relevant", type=int, default=5)
    a = ap.parse_args()
    rng = random.Random(a.seed)

    articles, skipped = gcide_articles(a.gcide)
    glosses = wordnet_queries(a.wordnet_dir)
    lemmas = sorted(l for l in glosses if 1 <= len(articles.get(l, ())) <= a.max_relevant)
    if len(lemmas) < a.queries:
        sys.exit(f"only {len(lemmas)} usable lemmas, fewer than --queries {a.queries}")
    chosen = sorted(rng.sample(lemmas, a.queries))
    queries, qrels, relevant_ids = [], [], []
    for lemma in chosen:
        qid, text = rng.choice(glosses[lemma])
        queries.append((qid, text))
        for did, _ in articles[lemma]:
            qrels.append((qid, did))
            relevant_ids.append(did)
    relevant = [doc for lemma in chosen for doc in articles[lemma]]
    if len(relevant) >= a.docs:
        sys.exit(f"{len(relevant)} relevant articles already fill --docs {a.docs}")
    taken = set(chosen)
    pool = [doc for head in sorted(articles) if head not in taken for doc in articles[head]]
    corpus = relevant + rng.sample(pool, a.docs - len(relevant))
    rng.shuffle(corpus)

    os.makedirs(a.out_dir, exist_ok=True)
    write_jsonl(os.path.join(a.out_dir, "queries.jsonl"), queries)
    write_jsonl(os.path.join(a.out_dir, "corpus.jsonl"), corpus)
    with open(os.path.join(a.out_dir, "qrels.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("query-id\tcorpus-id\tscore\n")
        for qid, did in qrels:
            f.write(f"{qid}\t{did}\t1\n")
    task = {"queries": len(queries), "documents": len(corpus), "relevantPairs": len(qrels),
            "distractors": len(corpus) - len(relevant), "seed": a.seed, "maxRelevant": a.max_relevant,
            "usableLemmas": len(lemmas), "gcideArticlesSkippedWordNetOrNoHeadword": skipped}
    with open(os.path.join(a.out_dir, "task.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(task, f, indent=2)
        f.write("\n")
    print(json.dumps(task))
    return 0


if __name__ == "__main__":
    sys.exit(main())
