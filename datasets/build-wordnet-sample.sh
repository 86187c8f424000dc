#!/usr/bin/env bash
# Builds the small, committed sample datasets/sample/wordnet-sample.jsonl
# (+ datasets/sample/LICENSE-WordNet.txt) from the Debian package wordnet-base
# (WordNet 3.0, Princeton WordNet licence: permissive, redistribution allowed
# with the copyright notice). Work files go to the git-ignored datasets/build/.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$HERE/build/wordnet"
SAMPLE_DIR="$HERE/sample"
OUT="$SAMPLE_DIR/wordnet-sample.jsonl"
LICENSE_OUT="$SAMPLE_DIR/LICENSE-WordNet.txt"
TOTAL="${TOTAL:-2000}"
mkdir -p "$WORK" "$SAMPLE_DIR"
cd "$WORK"

shopt -s nullglob
debs=(wordnet-base_*.deb)
if (( ${#debs[@]} == 0 )); then
  echo "Downloading wordnet-base .deb into $WORK" >&2
  if ! apt-get download wordnet-base; then
    echo "apt-get download failed; running apt-get update and retrying" >&2
    apt-get update
    apt-get download wordnet-base
  fi
  debs=(wordnet-base_*.deb)
else
  echo "Using existing ${debs[0]}" >&2
fi
DEB="${debs[0]}"
VERSION="$(dpkg-deb -f "$DEB" Version)"

rm -rf extracted
dpkg -x "$DEB" extracted

DATA_NOUN="$(find extracted -type f -name data.noun | head -n1)"
COPYRIGHT="$(find extracted -type f -path '*/doc/wordnet-base/copyright' | head -n1)"
if [[ -z "$DATA_NOUN" || -z "$COPYRIGHT" ]]; then
  echo "could not locate data.noun / copyright inside $DEB" >&2
  exit 1
fi
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
