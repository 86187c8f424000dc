#!/usr/bin/env bash
# Builds the small, committed sample datasets/sample/wordnet-sample.jsonl
# (+ datasets/sample/LICENSE-WordNet.txt) from the Debian package wordnet-base
# (WordNet 3.0, Princeton WordNet licence: permissive, redistribution allowed
# with the copyright notice). Work files go to the git-ignored datasets/build/.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=datasets/lib.sh
source "$HERE/lib.sh"
WORK="$HERE/build/wordnet"
SAMPLE_DIR="$HERE/sample"
OUT="$SAMPLE_DIR/wordnet-sample.jsonl"
LICENSE_OUT="$SAMPLE_DIR/LICENSE-WordNet.txt"
TOTAL="${TOTAL:-2000}"
mkdir -p "$WORK" "$SAMPLE_DIR"
cd "$WORK"

fetch_deb wordnet-base
VERSION="$(dpkg-deb -f "$DEB" Version)"

extract_deb
DATA_NOUN="$(find_extracted data.noun -name data.noun)"
COPYRIGHT="$(find_extracted copyright -path '*/doc/wordnet-base/copyright')"
WN_DIR="$(dirname "$DATA_NOUN")"

COUNT="$(python3 "$HERE/wordnet_to_jsonl.py" "$WN_DIR" "$OUT" --total "$TOTAL")"

# Licence: the "License: WordNet3.0" stanza of the Debian copyright file
# (DEP-5 format: strip the one-space indent, "." lines are blank lines).
{
  echo "WordNet 3.0 licence"
  echo "==================="
  echo
  echo "datasets/sample/wordnet-sample.jsonl is derived from WordNet 3.0"
  echo "(data.noun, data.verb, data.adj, data.adv), taken from the Debian package"
  echo "wordnet-base version $VERSION (file /usr/share/doc/wordnet-base/copyright)."
  echo "Upstream: https://wordnet.princeton.edu/"
  echo "Copyright: © 1996-2012 Cognitive Science Laboratory Princeton University"
  echo
  awk '
    /^License: WordNet3.0/ { on = 1; next }
    on && /^[^ ]/           { exit }
    on { sub(/^ /, ""); if ($0 == ".") $0 = ""; print }
  ' "$COPYRIGHT"
} > "$LICENSE_OUT"
if ! grep -q "WordNet 3.0 Copyright 2006 by Princeton University" "$LICENSE_OUT"; then
  echo "licence text not found in $COPYRIGHT" >&2
  exit 1
fi

echo "records: $COUNT"
echo "output:  $OUT ($(du -h "$OUT" | cut -f1))"
echo "licence: $LICENSE_OUT"
