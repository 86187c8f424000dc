#!/usr/bin/env bash
# Stops every process of the local cluster started by start-cluster.sh (TaskManagers first),
# politely, then with SIGKILL after 15 s. Only pids recorded in pids/ that still belong to this
# cluster are signalled.
set -uo pipefail
source "$(dirname "$0")/common.sh"

shopt -s nullglob
for pid_file in "$PID_DIR"/taskmanager-*.pid "$PID_DIR"/jobmanager.pid; do
  if is_running "$pid_file"; then
    kill "$(cat "$pid_file")" 2>/dev/null || true
  fi
done
for _ in $(seq 1 30); do
  alive=0
  for pid_file in "$PID_DIR"/*.pid; do
    is_running "$pid_file" && alive=1
  done
  [[ $alive -eq 0 ]] && break
  sleep 0.5
done
for pid_file in "$PID_DIR"/*.pid; do
  if is_running "$pid_file"; then
    echo "$(basename "$pid_file" .pid) did not stop; killing it" >&2
    kill -9 "$(cat "$pid_file")" 2>/dev/null || true
  fi
  rm -f "$pid_file"
done
echo "Flink session cluster in $FLINK_CLUSTER_DIR stopped"
