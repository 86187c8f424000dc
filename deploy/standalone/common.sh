#!/usr/bin/env bash
# Shared by the standalone cluster scripts (sourced, not run). Settings, all optional:
#   FLINK_CLUSTER_DIR  where conf/, log/, pids/ and plugins/ of the cluster live
#                      (default: deploy/standalone/target/cluster)
#   FLINK_REST_PORT    REST port of the JobManager (default 8081)
#   FLINK_RPC_PORT     RPC port of the JobManager (default 6123)
#   MVN, MVN_ARGS      Maven command and extra arguments (e.g. MVN_ARGS=-Pgpu for onnxruntime_gpu)
#   JAVA_HOME          the Java 17+ to run Flink with (default: java on the PATH)

STANDALONE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLINK_CLUSTER_DIR="${FLINK_CLUSTER_DIR:-$STANDALONE_DIR/target/cluster}"
FLINK_REST_PORT="${FLINK_REST_PORT:-8081}"
FLINK_RPC_PORT="${FLINK_RPC_PORT:-6123}"
MVN="${MVN:-mvn}"
MVN_ARGS="${MVN_ARGS:-}"
if [[ -n "${JAVA_HOME:-}" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=java; fi

CONF_DIR="$FLINK_CLUSTER_DIR/conf"
LOG_DIR="$FLINK_CLUSTER_DIR/log"
PID_DIR="$FLINK_CLUSTER_DIR/pids"
PLUGINS_DIR="$FLINK_CLUSTER_DIR/plugins"

# What Flink's own scripts pass on Java 17 (env.java.opts.all; the root pom's flink.jvm.opens).
FLINK_JVM_OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED --add-opens=java.base/java.math=ALL-UNNAMED --add-opens=java.sql/java.sql=ALL-UNNAMED --add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED"

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

# The cluster classpath from pom.xml, resolved once and cached until the pom changes.
flink_classpath() {
  local cache="$STANDALONE_DIR/target/classpath${MVN_ARGS:+-$(echo "$MVN_ARGS" | tr -c 'A-Za-z0-9' '_')}.txt"
  if [[ ! -s "$cache" || "$STANDALONE_DIR/pom.xml" -nt "$cache" ]]; then
    mkdir -p "$STANDALONE_DIR/target"
    # shellcheck disable=SC2086
    "$MVN" -B -q -Dstyle.color=never -f "$STANDALONE_DIR/pom.xml" $MVN_ARGS dependency:build-classpath \
      -Dmdep.outputFile="$cache.tmp" >&2 || die "could not resolve the Flink classpath with Maven"
    mv "$cache.tmp" "$cache"
  fi
  cat "$cache"
}

# Memory flags and dynamic properties as Flink's jobmanager.sh / taskmanager.sh compute them:
# BashJavaUtils prints two result lines, JVM flags first, then `-D key=value` properties.
resource_params() {
  local command=$1 classpath=$2 output results
  output=$("$JAVA" -classpath "$classpath" -Dlog.file="$LOG_DIR/bash-java-utils.log" \
    -Dlog4j.configurationFile="file:$CONF_DIR/log4j-cli.properties" \
    org.apache.flink.runtime.util.bash.BashJavaUtils "$command" --configDir "$CONF_DIR" 2>&1)
  results=$(grep '^BASH_JAVA_UTILS_EXEC_RESULT:' <<<"$output" | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://')
  if [[ $(wc -l <<<"$results") -ne 2 ]]; then
    echo "$output" >&2
    die "BashJavaUtils $command failed"
  fi
  echo "$results"
}

# Starts a Flink process in the background; its pid goes to pids/<name>.pid. Arguments after
# the fifth go to the entry point after its dynamic properties (application mode's program).
start_flink_process() {
  local name=$1 main_class=$2 jvm_params=$3 dynamic_params=$4 classpath=$5
  shift 5
  mkdir -p "$LOG_DIR" "$PID_DIR"
  # shellcheck disable=SC2086
  FLINK_HOME="$FLINK_CLUSTER_DIR" FLINK_LIB_DIR="$FLINK_CLUSTER_DIR/lib" FLINK_CONF_DIR="$CONF_DIR" FLINK_PLUGINS_DIR="$PLUGINS_DIR" \
    nohup "$JAVA" $jvm_params $FLINK_JVM_OPENS -Dai.djl.offline=true \
    -Dlog.file="$LOG_DIR/$name.log" -Dlog4j.configurationFile="file:$CONF_DIR/log4j.properties" \
    -classpath "$classpath" "$main_class" --configDir "$CONF_DIR" $dynamic_params "$@" \
    >"$LOG_DIR/$name.out" 2>&1 </dev/null &
  echo $! >"$PID_DIR/$name.pid"
}

# Starts TaskManager number n (taskmanager-<n>); params as printed by resource_params.
start_taskmanager() {
  local n=$1 params=$2 classpath=$3
  start_flink_process "taskmanager-$n" org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
    "$(head -n1 <<<"$params")" "$(tail -n1 <<<"$params")" "$classpath"
}

# True when the pid file names a live process of this cluster (not a recycled pid).
is_running() {
  local pid_file=$1 pid
  [[ -f "$pid_file" ]] || return 1
  pid=$(cat "$pid_file")
  [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$CONF_DIR"
}

rest_get() {
  curl -fsS --max-time 5 "http://localhost:$FLINK_REST_PORT$1"
}
