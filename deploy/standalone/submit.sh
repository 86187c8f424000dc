#!/usr/bin/env bash
# Submits a job jar to the local cluster as a user would, with Flink's CliFrontend (`flink run`):
#
#   submit.sh [flink run options] <job jar> [job arguments]
#   submit.sh jobs/target/jobs-0.1.0-SNAPSHOT-job.jar embed --input corpus.jsonl --output out
#
# Attached by default: waits for the job and prints the job's own output (the run summary).
# The client log goes to $FLINK_CLUSTER_DIR/log/client-<time>.log.
set -euo pipefail
source "$(dirname "$0")/common.sh"

[[ $# -ge 1 ]] || die "usage: submit.sh [flink run options] <job jar> [job arguments]"
is_running "$PID_DIR/jobmanager.pid" || die "no JobManager running in $FLINK_CLUSTER_DIR"
classpath=$(flink_classpath)
# shellcheck disable=SC2086
FLINK_CONF_DIR="$CONF_DIR" FLINK_PLUGINS_DIR="$PLUGINS_DIR" exec "$JAVA" $FLINK_JVM_OPENS -Xmx1g -Dai.djl.offline=true \
  -Dlog.file="$LOG_DIR/client-$(date +%Y%m%d-%H%M%S)-$$.log" \
  -Dlog4j.configurationFile="file:$CONF_DIR/log4j-cli.properties" \
  -classpath "$classpath" org.apache.flink.client.cli.CliFrontend run "$@"
