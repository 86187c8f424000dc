#!/usr/bin/env bash
# Builds datasets/build/gcide.jsonl from the Debian package dict-gcide
# (GNU Collaborative International Dictionary of English, GPL-3+).
# The output is a LOCAL build artefact: datasets/build/ is git-ignored and
# GCIDE data must never be committed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$HERE/build/gcide"
OUT="$HERE/build/gcide.jsonl"
mkdir -p "$WORK"
cd "$WORK"

shopt -s nullglob
debs=(dict-gcide_*.deb)
if (( ${#debs[@]} == 0 )); then
  echo "Downloading dict-gcide .deb into $WORK" >&2
  if ! apt-get download dict-gcide; then
    echo "apt-get download failed; running apt-get update and retrying" >&2
    apt-get update
    apt-get download dict-gcide
  fi
  debs=(dict-gcide_*.deb)
else
  echo "Using existing ${debs[0]}" >&2
fi
DEB="${debs[0]}"

rm -rf extracted
dpkg -x "$DEB" extracted

INDEX="$(find extracted -type f -name '*.index' | head -n1)"
DICT="$(find extracted -type f -name '*.dict.dz' | head -n1)"
if [[ -z "$INDEX" || -z "$DICT" ]]; then
  echo "could not locate .index / .dict.dz inside $DEB" >&2
  exit 1
fi
echo "index: $INDEX" >&2
echo "dict:  $DICT" >&2

COUNT="$(python3 "$HERE/dictd_to_jsonl.py" "$INDEX" "$DICT" "$OUT" --prefix gcide)"
echo "records: $COUNT"
echo "output:  $OUT ($(du -h "$OUT" | cut -f1))"
