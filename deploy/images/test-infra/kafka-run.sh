#!/bin/bash
# /etc/kafka/docker/run of localhost/toolonce/test-kafka (deploy/images/test-infra.sh), the image's command: a
# single-node KRaft Kafka 4.1.2 broker from the jars of deploy/local/kafka/pom.xml. The path and the environment are
# those of the apache/kafka image, so that Testcontainers' KafkaContainer runs this image as a compatible substitute
# (its starter script exports KAFKA_ADVERTISED_LISTENERS with the mapped port and then runs this file).
#
#   KAFKA_<NAME>      sets the broker property <name>, lower-cased, '_' → '.', '__' → '_', '___' → '-' (as
#                     apache/kafka), over the defaults: listening on 0.0.0.0:9092 (PLAINTEXT) and :9093
#                     (CONTROLLER), advertised as localhost:9092, then deploy/local/kafka/broker.properties (the
#                     settings of stack.sh's broker too), copied to /etc/kafka/docker/broker.properties
#   CLUSTER_ID        the cluster id the storage is formatted with at the first start (default: a random one)
#   KAFKA_HEAP_OPTS   the broker's heap and collector (default -Xms128m -Xmx320m -XX:+UseParallelGC, as stack.sh's
#                     broker: docs/performance.md, thirteenth round); KAFKA_OPTS: more JVM options
set -euo pipefail
DATA=/var/lib/kafka/data
CONF=/var/lib/kafka/server.properties
# not broker properties: the JVM's options, as apache/kafka's scripts read them
NOT_PROPERTIES=" KAFKA_HEAP_OPTS KAFKA_OPTS KAFKA_VERSION KAFKA_JMX_OPTS KAFKA_JMX_PORT KAFKA_JMX_HOSTNAME \
KAFKA_LOG4J_OPTS KAFKA_JVM_PERFORMANCE_OPTS KAFKA_GC_LOG_OPTS KAFKA_LOG4J_ROOT_LOGLEVEL KAFKA_LOG4J_LOGGERS "
{
  cat <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:9093
listeners=PLAINTEXT://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093
advertised.listeners=PLAINTEXT://localhost:9092
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$DATA
PROPS
  cat /etc/kafka/docker/broker.properties
  # later lines win: the environment overrides the defaults
  for var in "${!KAFKA_@}"; do
    [[ "$NOT_PROPERTIES" == *" $var "* ]] && continue
    name="${var#KAFKA_}"; name="${name,,}"; name="${name//___/-}"; name="${name//__/@}"; name="${name//_/.}"
    echo "${name//@/_}=${!var}"
  done
} >"$CONF"
CP=/opt/kafka/libs/*
if [[ ! -f "$DATA/meta.properties" ]]; then
  id=${CLUSTER_ID:--}   # a random 16-byte id in Kafka's base64url form, not starting with '-'
  while [[ $id == -* ]]; do id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)"; done
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
    kafka.tools.StorageTool format -t "$id" -c "$CONF" >/dev/null
fi
# shellcheck disable=SC2086 # the options are words, as in apache/kafka's scripts
exec java ${KAFKA_HEAP_OPTS:--Xms128m -Xmx320m -XX:+UseParallelGC} ${KAFKA_OPTS:-} -Dorg.slf4j.simpleLogger.showDateTime=true \
  -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS -cp "$CP" kafka.Kafka "$CONF"
