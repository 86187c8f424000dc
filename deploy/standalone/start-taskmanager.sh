#!/usr/bin/env bash
# Starts one more TaskManager for the running local cluster (see start-cluster.sh), e.g. to
# replace one that died. Prints its name; its pid is in pids/<name>.pid, its log in log/.
set -euo pipefail
source "$(dirname "$0")/common.sh"

is_running "$PID_DIR/jobmanager.pid" || die "no JobManager running in $FLINK_CLUSTER_DIR"
classpath=$(flink_classpath)
n=1
while [[ -e "$PID_DIR/taskmanager-$n.pid" ]]; do n=$((n + 1)); done
start_taskmanager "$n" "$(resource_params GET_TM_RESOURCE_PARAMS "$classpath")" "$classpath"
echo "taskmanager-$n"
