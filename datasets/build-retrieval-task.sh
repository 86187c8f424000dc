#!/usr/bin/env bash
# Builds the labelled retrieval task datasets/build/retrieval/{queries.jsonl,corpus.jsonl,qrels.tsv,task.json}
# from two independent Debian dictionaries (see retrieval_task.py): WordNet 3.0 glosses (wordnet-base,
# Princeton licence) as queries, GCIDE articles (dict-gcide, GPL-3+) as the corpus, the GCIDE articles
# of the gloss's word as relevant. Local only: datasets/build/ is git-ignored and the corpus is GCIDE
# text, which must never be committed. Deterministic: QUERIES, DOCS and SEED fix the output.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
QUERIES="${QUERIES:-500}"
DOCS="${DOCS:-5000}"
SEED="${SEED:-15}"

[[ -f "$HERE/build/gcide.jsonl" ]] || bash "$HERE/build-gcide.sh"

WN="$HERE/build/wordnet"
mkdir -p "$WN"
shopt -s nullglob
debs=("$WN"/wordnet-base_*.deb)
if (( ${#debs[@]} == 0 )); then
  echo "Downloading wordnet-base .deb into $WN" >&2
  (cd "$WN" && { apt-get download wordnet-base || { apt-get update && apt-get download wordnet-base; }; })
  debs=("$WN"/wordnet-base_*.deb)
fi
rm -rf "$WN/extracted"
dpkg -x "${debs[0]}" "$WN/extracted"
DATA_NOUN="$(find "$WN/extracted" -type f -name data.noun | head -n1)"
[[ -n "$DATA_NOUN" ]] || { echo "no data.noun inside ${debs[0]}" >&2; exit 1; }

python3 "$HERE/retrieval_task.py" "$HERE/build/gcide.jsonl" "$(dirname "$DATA_NOUN")" \
  "$HERE/build/retrieval" --queries "$QUERIES" --docs "$DOCS" --seed "$SEED"
echo "output: $HERE/build/retrieval"
