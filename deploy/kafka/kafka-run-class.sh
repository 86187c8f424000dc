#!/usr/bin/env bash
# Runs a Kafka tool class on the classpath start-broker.sh resolved, like Kafka's own
# bin/kafka-run-class.sh. Examples (docs/kafka.md):
#   deploy/kafka/kafka-run-class.sh org.apache.kafka.tools.ConsoleProducer --bootstrap-server localhost:9092 --topic corpus < corpus.jsonl
#   deploy/kafka/kafka-run-class.sh org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server localhost:9092 --topic embeddings --from-beginning
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${KAFKA_DATA_DIR:-$(cd "$here/../.." && pwd)/runs/kafka}"
mkdir -p "$data"
if [[ ! -s "$data/classpath.txt" ]]; then
  mvn -B -q -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$data/classpath.txt"
fi
exec java -Xmx256m -Dlog4j2.level=WARN -cp "$(cat "$data/classpath.txt")" "$@"
