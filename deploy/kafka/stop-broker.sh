#!/usr/bin/env bash
# Stops the broker started by start-broker.sh (data stays; delete the data directory to reset).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="$(cd "$here/../.." && pwd)/runs/kafka"
[[ "${1:-}" == "--data-dir" ]] && data="$2"
pid_file="$data/broker.pid"
if [[ ! -f "$pid_file" ]] || ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
  echo "no broker running for $data"; exit 0
fi
pid="$(cat "$pid_file")"
kill "$pid"
for _ in $(seq 1 60); do
  kill -0 "$pid" 2>/dev/null || { rm -f "$pid_file"; echo "broker $pid stopped"; exit 0; }
  sleep 0.5
done
echo "broker $pid still running after 30 s" >&2
exit 1
