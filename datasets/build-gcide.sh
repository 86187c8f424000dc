#!/usr/bin/env bash
# Builds datasets/build/gcide.jsonl from the Debian package dict-gcide
# (GNU Collaborative International Dictionary of English, GPL-3+).
# The output is a LOCAL build artefact: datasets/build/ is git-ignored and
# GCIDE data must never be committed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=datasets/lib.sh
source "$HERE/lib.sh"
WORK="$HERE/build/gcide"
OUT="$HERE/build/gcide.jsonl"
mkdir -p "$WORK"
cd "$WORK"

fetch_deb dict-gcide

extract_deb
INDEX="$(find_extracted .index -name '*.index')"
DICT="$(find_extracted .dict.dz -name '*.dict.dz')"
echo "index: $INDEX" >&2
echo "dict:  $DICT" >&2

COUNT="$(python3 "$HERE/dictd_to_jsonl.py" "$INDEX" "$DICT" "$OUT" --prefix gcide)"
echo "records: $COUNT"
echo "output:  $OUT ($(du -h "$OUT" | cut -f1))"
