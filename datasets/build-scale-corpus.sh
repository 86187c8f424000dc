#!/usr/bin/env bash
# Builds datasets/build/scale-<N>.jsonl: N unique records (id, text) for scale runs, made of
# sentences of GCIDE (dict-gcide, GPL-3+) and WordNet 3.0 (wordnet-base), see scale_corpus.py.
# A LOCAL build artefact like gcide.jsonl: derived from GCIDE, never committed.
# Usage: datasets/build-scale-corpus.sh RECORDS   e.g. 10000000 (10M: about 1.5 GB)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=datasets/lib.sh
source "$HERE/lib.sh"
RECORDS="${1:?usage: build-scale-corpus.sh RECORDS}"
CORPUS="$HERE/build/scale-$RECORDS.jsonl"
[ -f "$HERE/build/gcide.jsonl" ] || "$HERE/build-gcide.sh" >&2
WORK="$HERE/build/wordnet"
mkdir -p "$WORK"
WN_DIR="$WORK/extracted/usr/share/wordnet"
if [ ! -f "$WN_DIR/data.noun" ]; then
  (cd "$WORK" && fetch_deb wordnet-base && extract_deb)
fi
COUNT="$(python3 "$HERE/scale_corpus.py" "$CORPUS" --records "$RECORDS" \
  --gcide "$HERE/build/gcide.jsonl" --wordnet "$WN_DIR")"
echo "records: $COUNT"
echo "output:  $CORPUS ($(du -h "$CORPUS" | cut -f1))"
