#!/usr/bin/env bash
# Starts a single-node Kafka 4.x broker (KRaft, broker + controller in one JVM) from Maven
# artifacts: no download of a Kafka distribution. Usage (from anywhere):
#
#   deploy/kafka/start-broker.sh [--port 9092] [--data-dir runs/kafka]
#   deploy/kafka/stop-broker.sh  [--data-dir runs/kafka]
#
# The broker runs in the background; its pid, logs and data are in the data directory. It is
# formatted once (StorageTool format) and restarted on the same data afterwards. See docs/kafka.md.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port=9092
data="$root/runs/kafka"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --data-dir) data="$2"; shift 2 ;;
    *) echo "unknown argument $1 (use --port N, --data-dir DIR)" >&2; exit 2 ;;
  esac
done
controller_port=$((port + 1))
mkdir -p "$data"
data="$(cd "$data" && pwd)"

if [[ -f "$data/broker.pid" ]] && kill -0 "$(cat "$data/broker.pid")" 2>/dev/null; then
  echo "a broker is already running (pid $(cat "$data/broker.pid")) on $data" >&2
  exit 1
fi

# Classpath of kafka_2.13 and its dependencies, resolved by Maven (cached after the first run).
if [[ ! -s "$data/classpath.txt" ]]; then
  mvn -B -q -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$data/classpath.txt"
fi
cp="$(cat "$data/classpath.txt")"

cat > "$data/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=localhost:$controller_port
listeners=PLAINTEXT://localhost:$port,CONTROLLER://localhost:$controller_port
advertised.listeners=PLAINTEXT://localhost:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$data/logs
num.partitions=2
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS

java_opts=(-Xmx512m "-Dkafka.logs.dir=$data" "-Dlog4j2.configurationFile=$here/log4j2.properties")
if [[ ! -f "$data/logs/meta.properties" ]]; then
  cluster_id="$(java -cp "$cp" "${java_opts[@]}" kafka.tools.StorageTool random-uuid)"
  java -cp "$cp" "${java_opts[@]}" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$data/server.properties" --standalone > "$data/format.log"
fi

nohup java -cp "$cp" "${java_opts[@]}" kafka.Kafka "$data/server.properties" \
  > "$data/broker.out" 2>&1 &
echo $! > "$data/broker.pid"

for _ in $(seq 1 120); do
  if (echo > "/dev/tcp/localhost/$port") 2>/dev/null; then
    echo "Kafka broker up: --kafka-bootstrap-servers localhost:$port (pid $(cat "$data/broker.pid"), logs $data/broker.log)"
    exit 0
  fi
  if ! kill -0 "$(cat "$data/broker.pid")" 2>/dev/null; then
    echo "the broker exited; see $data/broker.out and $data/broker.log" >&2
    exit 1
  fi
  sleep 0.5
done
echo "the broker did not open port $port within 60 s; see $data/broker.log" >&2
exit 1
