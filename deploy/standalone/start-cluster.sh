#!/usr/bin/env bash
# Starts a local Flink session cluster of separate JVMs from Maven artifacts alone: one
# JobManager (StandaloneSessionClusterEntrypoint) and N TaskManagers (TaskManagerRunner), with
# memory flags computed by Flink's BashJavaUtils exactly as taskmanager.sh does.
#
#   start-cluster.sh [-n TASKMANAGERS] [-s SLOTS] [--gpus AMOUNT [--gpu-discovery SCRIPT]]
#                    [-D key=value]... [--application JOB_JAR -- JOB ARGUMENTS...]
#
# -n   TaskManagers to start (default 2)          -s  slots per TaskManager (default 1)
# -D   any Flink option, written to the cluster's conf/config.yaml
# --gpus AMOUNT   installs Flink's GPU plugin and reports AMOUNT GPUs per TaskManager, found by
#                 --gpu-discovery SCRIPT (default: the plugin's nvidia-gpu-discovery.sh)
# --s3            installs Flink's S3 file system (flink-s3-fs-hadoop) under plugins/s3-fs-hadoop/,
#                 as in a distribution; its endpoint and keys come as -D s3.… options
# --application  application mode: the JobManager (StandaloneApplicationClusterEntryPoint)
#                runs the job's main() itself with JOB ARGUMENTS (e.g. embed --input ...), so the
#                driver's verdicts and _SUCCESS need no client; the cluster stops when it ends
#                (its JobManager log says with which status).
# Environment: see common.sh (FLINK_CLUSTER_DIR, FLINK_REST_PORT, FLINK_RPC_PORT, MVN_ARGS).
# Then: submit.sh <job jar> <args>; stop-cluster.sh. Logs are in $FLINK_CLUSTER_DIR/log.
set -euo pipefail
source "$(dirname "$0")/common.sh"

taskmanagers=2
slots=1
s3=false
gpus=0
gpu_discovery=""
application=""
declare -a options=()
declare -a job_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) taskmanagers=$2; shift 2 ;;
    -s) slots=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --gpu-discovery) gpu_discovery=$2; shift 2 ;;
    --s3) s3=true; shift ;;
    -D) options+=("$2"); shift 2 ;;
    -D*) options+=("${1#-D}"); shift ;;
    --application) application=$2; shift 2 ;;
    --) shift; job_args=("$@"); break ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done

is_running "$PID_DIR/jobmanager.pid" && die "a cluster is already running in $FLINK_CLUSTER_DIR"
rm -rf "$CONF_DIR" "$PID_DIR" "$PLUGINS_DIR" "$FLINK_CLUSTER_DIR/usrlib"
mkdir -p "$CONF_DIR" "$LOG_DIR" "$PID_DIR" "$PLUGINS_DIR" "$FLINK_CLUSTER_DIR/tmp"
cp "$STANDALONE_DIR"/conf/* "$CONF_DIR/"

# Sets a top-level key of the cluster's config.yaml (flat keys, as in the template).
set_option() {
  local key=${1%%=*} value=${1#*=}
  local file="$CONF_DIR/config.yaml"
  grep -v "^$(sed 's/[.]/[.]/g' <<<"$key"):" "$file" >"$file.tmp" || true
  echo "$key: $value" >>"$file.tmp"
  mv "$file.tmp" "$file"
}

set_option "jobmanager.rpc.port=$FLINK_RPC_PORT"
set_option "rest.port=$FLINK_REST_PORT"
set_option "taskmanager.numberOfTaskSlots=$slots"
set_option "io.tmp.dirs=$FLINK_CLUSTER_DIR/tmp"

if [[ "$gpus" -gt 0 ]]; then
  plugin="$PLUGINS_DIR/external-resource-gpu"
  mkdir -p "$plugin"
  # The plugin's parent POM is not in every registry: copy the jar alone, not as a dependency.
  "$MVN" -B -q -Dstyle.color=never -f "$STANDALONE_DIR/pom.xml" dependency:copy -Dartifact=org.apache.flink:flink-external-resource-gpu:2.3.0 \
    -DoutputDirectory="$plugin" >&2 || die "could not fetch flink-external-resource-gpu"
  (cd "$plugin" && unzip -q -o ./*.jar '*.sh' && chmod +x ./*.sh)
  set_option "external-resources=gpu"
  set_option "external-resource.gpu.amount=$gpus"
  set_option "external-resource.gpu.driver-factory.class=org.apache.flink.externalresource.gpu.GPUDriverFactory"
  set_option "external-resource.gpu.param.discovery-script.path=${gpu_discovery:-$plugin/nvidia-gpu-discovery.sh}"
fi
if [[ "$s3" == true ]]; then
  # Its own folder and class loader: the jar bundles Hadoop, the AWS SDK, Jackson and Guava.
  "$MVN" -B -q -Dstyle.color=never -f "$STANDALONE_DIR/pom.xml" dependency:copy -Dartifact=org.apache.flink:flink-s3-fs-hadoop:2.3.0 \
    -DoutputDirectory="$PLUGINS_DIR/s3-fs-hadoop" >&2 || die "could not fetch flink-s3-fs-hadoop"
fi
for option in "${options[@]+"${options[@]}"}"; do
  set_option "$option"
done

classpath=$(flink_classpath)
params=$(resource_params GET_JM_RESOURCE_PARAMS "$classpath")
if [[ -n "$application" ]]; then
  # As in Flink's images: the job jar in usrlib/, loaded by the user-code class loader.
  mkdir -p "$FLINK_CLUSTER_DIR/usrlib"
  mkdir -p "$FLINK_CLUSTER_DIR/lib"   # usrlib/ is found beside $FLINK_LIB_DIR
  cp "$application" "$FLINK_CLUSTER_DIR/usrlib/"
  start_flink_process jobmanager org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint \
    "$(head -n1 <<<"$params")" "$(tail -n1 <<<"$params")" "$classpath" \
    --job-classname io.github.flinkinfer.jobs.cli.Main "${job_args[@]+"${job_args[@]}"}"
else
  start_flink_process jobmanager org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
    "$(head -n1 <<<"$params")" "$(tail -n1 <<<"$params")" "$classpath"
fi

params=$(resource_params GET_TM_RESOURCE_PARAMS "$classpath")
for n in $(seq 1 "$taskmanagers"); do
  start_taskmanager "$n" "$params" "$classpath"
done

# Ready when the REST API answers and every TaskManager has registered.
for _ in $(seq 1 180); do
  if ! is_running "$PID_DIR/jobmanager.pid"; then
    [[ -n "$application" ]] && { echo "The application already ended; see $LOG_DIR/jobmanager.log"; exit 0; }
    die "the JobManager exited; see $LOG_DIR/jobmanager.log"
  fi
  registered=$(rest_get /taskmanagers 2>/dev/null | grep -o '"slotsNumber"' | wc -l || true)
  if [[ "$registered" -ge "$taskmanagers" ]]; then
    echo "Flink $([[ -n "$application" ]] && echo application || echo session) cluster up: $taskmanagers TaskManager(s) x $slots slot(s), REST http://localhost:$FLINK_REST_PORT, logs $LOG_DIR"
    exit 0
  fi
  sleep 1
done
die "the cluster did not come up within 180 s; see $LOG_DIR"
