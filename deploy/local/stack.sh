#!/usr/bin/env bash
# Local ToolOnce stack: a private PostgreSQL 15 cluster, a single-node KRaft Kafka broker and
# the services (and the MCP gateway), each a separate background process. Everything lives under $TOOLONCE_HOME.
#
#   stack.sh infra-up | up | down [--purge] | infra-down | services-down | status | env | credentials | kafka-classpath | topics
#
# topics creates the topics every stack has on the broker at 127.0.0.1:$KAFKA_PORT, those missing (infra-up does it;
# the images' stack, deploy/compose, calls it for its broker container).
# kafka-classpath prints the broker's classpath (resolved once per checkout) for test support that runs a broker
# of its own (test-support SecureKafka: SASL_SSL, ACLs).
#
# Processes are tracked by $TOOLONCE_HOME/run/<name>.pid (+ <name>.port) and stopped by PID only.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLONCE_HOME="${TOOLONCE_HOME:-$REPO_ROOT/.local}"
mkdir -p "$TOOLONCE_HOME"
TOOLONCE_HOME="$(cd "$TOOLONCE_HOME" && pwd -P)"
RUN="$TOOLONCE_HOME/run"
LOGS="$TOOLONCE_HOME/logs"
KAFKA_DIR="$TOOLONCE_HOME/kafka"
# API tokens (docs/security.md): the services read the hashes in TOKENS; the admin token of the local stack, created
# at the first 'up', is ADMIN_TOKEN (owner-only), which the CLIs and the demo use unless TOOLONCE_TOKEN(_FILE) is set.
TOKENS="$TOOLONCE_HOME/tokens"
# Record signing keys (docs/security.md §6b): the local stack's agents' key and its executor's result key, created once.
KEYRING="$TOOLONCE_HOME/keyring"
ADMIN_TOKEN="$TOOLONCE_HOME/admin.token"
GATEWAY_TOKEN="$TOOLONCE_HOME/gateway.token"
PG_BIN=/usr/lib/postgresql/15/bin
VERSION=0.1.0-SNAPSHOT

# Ports: explicit environment first, then the ports of the last run, then the defaults.
declare -A DEFAULT_PORT=([PG_PORT]=25432 [KAFKA_PORT]=29092 [KAFKA_CONTROLLER_PORT]=29093
  [SANDBOX_PORT]=18080 [EXECUTOR_PORT]=18081 [RELAY_PORT]=18082 [CONSUMER_PORT]=18083 [GATEWAY_PORT]=18085)
for var in "${!DEFAULT_PORT[@]}"; do
  if [[ -z "${!var:-}" && -f "$TOOLONCE_HOME/ports.env" ]]; then
    value="$(sed -n "s/^$var=//p" "$TOOLONCE_HOME/ports.env" | tail -1)"
    [[ -n "$value" ]] && printf -v "$var" '%s' "$value"
  fi
  [[ -n "${!var:-}" ]] || printf -v "$var" '%s' "${DEFAULT_PORT[$var]}"
done

# Services in start order: name, port variable, readiness path.
# mcp-gateway comes last: it reads the executor's catalogue at start-up.
SERVICES=(sandbox-tools tool-executor inbox-consumer outbox-relay mcp-gateway)
declare -A SERVICE_PORT_VAR=([sandbox-tools]=SANDBOX_PORT [tool-executor]=EXECUTOR_PORT
  [inbox-consumer]=CONSUMER_PORT [outbox-relay]=RELAY_PORT [mcp-gateway]=GATEWAY_PORT)

log() { echo "[stack] $*"; }
die() { echo "[stack] ERROR: $*" >&2; exit 1; }

# ---------------------------------------------------------------- process bookkeeping
pid_of() { [[ -f "$RUN/$1.pid" ]] && cat "$RUN/$1.pid" || true; }
port_of() { [[ -f "$RUN/$1.port" ]] && cat "$RUN/$1.port" || true; }

# running PID: a process this script started is still there (not exited, not a zombie). While it starts, `alive`
# would not do: right after the fork the child may not have exec'd java yet, and its command line is still this
# shell's (a loaded machine once failed a broker start as "exited during startup" so).
running() { [[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" =~ ^[^Z]$ ]]; }

# alive NAME MARKER: the PID file names a live process whose command line contains MARKER
# (guards against a recycled PID).
alive() {
  local pid; pid="$(pid_of "$1")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # read whole, then matched: `tr | grep -q` fails under pipefail when grep exits before tr has written (SIGPIPE)
  local cmdline; cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" == *"$2"* ]]
}

# stop_pid NAME MARKER: SIGTERM, wait up to 20 s, then SIGKILL.
stop_pid() {
  local name=$1 marker=$2 pid
  if ! alive "$name" "$marker"; then rm -f "$RUN/$name.pid"; return 0; fi
  pid="$(pid_of "$name")"
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  # exited is enough: a zombie holds no port and no lock, and PID 1 may reap it seconds later
  for _ in $(seq 1 200); do running "$pid" || break; sleep 0.1; done
  if running "$pid"; then
    log "$name did not stop within 20 s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do running "$pid" || break; sleep 0.1; done
  fi
  rm -f "$RUN/$name.pid"
}

# listening PORT: something listens on 127.0.0.1:PORT. Asks the kernel (ss) instead of
# connecting: the default ports lie in the ephemeral range, where a connect() to a port nobody
# listens on can succeed by connecting the socket to itself.
listening() {
  if command -v ss >/dev/null; then [[ -n "$(ss -Hltn "sport = :$1")" ]]; return; fi
  local hex; hex="$(printf ':%04X' "$1")"  # no ss: read the kernel's table (state 0A = LISTEN)
  awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

wait_port_free() { # PORT NAME: fail early if something else listens there
  if listening "$1"; then
    die "port $1 for $2 is already in use by another process (set a different port variable)"
  fi
}

write_ports_env() {
  {
    for var in PG_PORT KAFKA_PORT KAFKA_CONTROLLER_PORT SANDBOX_PORT EXECUTOR_PORT RELAY_PORT CONSUMER_PORT \
      GATEWAY_PORT; do
      echo "$var=${!var}"
    done
  } >"$TOOLONCE_HOME/ports.env"
}

# ---------------------------------------------------------------- PostgreSQL
as_pg() { if [[ $EUID -eq 0 ]]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
home_hash() { printf '%s' "$TOOLONCE_HOME" | md5sum | cut -c1-10; }

# The cluster lives in $TOOLONCE_HOME/pg. When running as root and the postgres OS user cannot
# reach that path (e.g. a checkout under /root), it lives in /tmp and pg is a symlink to it.
pg_dir() {
  if [[ -L "$TOOLONCE_HOME/pg" || -d "$TOOLONCE_HOME/pg" ]]; then readlink -f "$TOOLONCE_HOME/pg"; return; fi
  if [[ $EUID -eq 0 ]] && ! runuser -u postgres -- test -x "$TOOLONCE_HOME"; then
    local dir="/tmp/toolonce-pg-$(home_hash)"
    mkdir -p "$dir" && ln -s "$dir" "$TOOLONCE_HOME/pg"
    echo "$dir"; return
  fi
  mkdir -p "$TOOLONCE_HOME/pg"; echo "$TOOLONCE_HOME/pg"
}

# Unix socket paths are limited to ~107 bytes including "/.s.PGSQL.NNNNN".
pg_socket_dir() {
  local dir="$RUN/pgsock"
  if (( ${#dir} > 90 )) || { [[ $EUID -eq 0 ]] && ! runuser -u postgres -- test -x "$RUN"; }; then
    dir="/tmp/toolonce-sock-$(home_hash)"
  fi
  echo "$dir"
}

# The postmaster's command line names its data directory: a stricter liveness marker than "postgres".
pg_marker() { echo "postgres -D $(readlink -f "$TOOLONCE_HOME/pg" 2>/dev/null)/data"; }

pg_refresh_pid() { # copies the postmaster PID (first line of postmaster.pid) to run/postgres.pid
  local data="$1/data"
  if [[ -f "$data/postmaster.pid" ]]; then head -1 "$data/postmaster.pid" >"$RUN/postgres.pid"; fi
}

# pg_launch DIR: starts the postmaster under a shell that waits for it, and waits until it accepts connections (after
# crash recovery, if it needs one). `pg_ctl start` would leave the postmaster to PID 1, and one killed with SIGKILL
# then stays a zombie until PID 1 reaps it, 1.8-1.9 s on these machines, while a new postmaster refuses to start as
# long as the PID in its lock file exists, zombie or not. Its own parent reaps it at once, as a service manager (systemd,
# a container runtime) would. `pg_ctl status` and `pg_ctl stop` work as before: they read the lock file.
pg_launch() {
  local dir=$1 deadline=$((SECONDS + 60)) launcher
  # the log is opened by the postgres user, as `pg_ctl -l` (which the fault experiment's pg-restart runs) opens it
  (cd / && as_pg setsid bash -c 'exec </dev/null >>"$2" 2>&1; "$0" -D "$1" & wait' \
    "$PG_BIN/postgres" "$dir/data" "$dir/postgres.log") </dev/null >/dev/null 2>&1 &
  launcher=$!
  until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; do
    running "$launcher" || { tail -n 40 "$dir/postgres.log" >&2; die "postgres did not start"; }
    (( SECONDS < deadline )) || { tail -n 40 "$dir/postgres.log" >&2; die "postgres did not start within 60 s"; }
    sleep 0.1
  done
}

pg_up() {
  [[ -x "$PG_BIN/initdb" && -x "$PG_BIN/pg_ctl" ]] ||
    die "PostgreSQL 15 binaries not found in $PG_BIN: install them with 'apt-get install postgresql' (Debian/Ubuntu)"
  local dir data sock
  dir="$(pg_dir)"; data="$dir/data"; sock="$(pg_socket_dir)"
  pg_refresh_pid "$dir"
  if alive postgres "$(pg_marker)" && as_pg "$PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    PG_PORT="$(sed -n 4p "$data/postmaster.pid")"
    log "postgres already running (pid $(pid_of postgres), port $PG_PORT)"
  else
    wait_port_free "$PG_PORT" postgres
    mkdir -p "$sock"
    if [[ $EUID -eq 0 ]]; then chown postgres: "$dir" "$sock"; fi
    if [[ ! -f "$data/PG_VERSION" ]]; then
      log "initdb $data"
      as_pg "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
      echo "include_if_exists = 'toolonce.conf'" >>"$data/postgresql.conf"
    fi
    cat >"$data/toolonce.conf" <<EOF
# Written by deploy/local/stack.sh on every start.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$sock'
wal_level = logical
max_replication_slots = 16
max_wal_senders = 16
max_connections = 300
shared_buffers = 256MB
max_slot_wal_keep_size = 2GB
# statement counts per call for './toolonce bench' and for operators (view pg_stat_statements)
shared_preload_libraries = 'pg_stat_statements'
EOF
    if [[ $EUID -eq 0 ]]; then chown postgres: "$data/toolonce.conf"; fi
    ln -sfn "$dir/postgres.log" "$LOGS/postgres.log"
    log "starting postgres on port $PG_PORT"
    pg_launch "$dir"
    pg_refresh_pid "$dir"
  fi
  echo "$PG_PORT" >"$RUN/postgres.port"
  if [[ "$("$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -tAc \
        "select 1 from pg_database where datname = 'toolonce'")" != 1 ]]; then
    log "creating database toolonce"
    "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -qc "create database toolonce" >/dev/null
  fi
}

pg_down() {
  [[ -e "$TOOLONCE_HOME/pg" ]] || { rm -f "$RUN/postgres.pid"; return 0; }
  local data; data="$(readlink -f "$TOOLONCE_HOME/pg")/data"
  if [[ -f "$data/postmaster.pid" ]] && as_pg "$PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    log "stopping postgres (pid $(head -1 "$data/postmaster.pid"))"
    as_pg "$PG_BIN/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  fi
  rm -f "$RUN/postgres.pid"
}

# ---------------------------------------------------------------- Kafka
classpath_ok() { # FILE: a non-empty classpath whose every jar exists
  [[ -s "$1" ]] || return 1
  local jar jars; IFS=: read -ra jars <"$1"
  for jar in "${jars[@]}"; do [[ -f "$jar" ]] || return 1; done
}

# The broker classpath, resolved once per checkout (deploy/local/kafka/target, shared by every
# TOOLONCE_HOME, including the test stacks) and cached in $KAFKA_DIR/classpath.txt.
kafka_classpath() {
  local cpfile="$KAFKA_DIR/classpath.txt" pom="$REPO_ROOT/deploy/local/kafka/pom.xml"
  local shared="$REPO_ROOT/deploy/local/kafka/target/classpath.txt" lib="$REPO_ROOT/deploy/local/kafka/target/lib"
  if ! classpath_ok "$cpfile"; then
    if ! classpath_ok "$shared"; then
      log "resolving the Kafka broker classpath with Maven" >&2
      # the class archive was written for the classpath this replaces; a new one may be tried again
      rm -f "$REPO_ROOT/deploy/local/kafka/target/broker-classes.jsa" "$KAFKA_DIR/class-archive-failed"
      mkdir -p "$lib"
      mvn -q -B -Dstyle.color=never -f "$pom" dependency:build-classpath -Dmdep.outputFile="$shared.$$" \
        >"$LOGS/maven-kafka.log" 2>&1 || { cat "$LOGS/maven-kafka.log" >&2; die "could not resolve the Kafka classpath"; }
      # kafka_2.13 drags in slf4j-api 1.7, which cannot see slf4j-simple 2.x (the broker would
      # log nothing): put slf4j-api 2.0.17 in its place.
      if grep -q '/slf4j-api-1\.' "$shared.$$"; then
        mvn -q -B -Dstyle.color=never -f "$pom" dependency:copy -Dartifact=org.slf4j:slf4j-api:2.0.17 \
          -DoutputDirectory="$lib" >"$LOGS/maven-kafka.log" 2>&1 ||
          { cat "$LOGS/maven-kafka.log" >&2; die "could not resolve slf4j-api 2.0.17"; }
        sed -i "s#[^:]*/slf4j-api-1\.[^:]*\.jar#$lib/slf4j-api-2.0.17.jar#" "$shared.$$"
      fi
      mv -f "$shared.$$" "$shared"
    fi
    cp "$shared" "$cpfile"
  fi
  cat "$cpfile"
}

kafka_tool() { # runs a Kafka CLI class on the broker classpath, quietly, at the lowest CPU priority (it would
  # otherwise take a core for a second beside a broker restarting under load: the topic check after a restart)
  timeout 60 nice -n 19 java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" "$@"
}

kafka_up() {
  mkdir -p "$KAFKA_DIR/data"
  if alive kafka kafka.Kafka; then
    KAFKA_PORT="$(port_of kafka)"
    KAFKA_CONTROLLER_PORT="$(sed -n 's/^controller.quorum.voters=1@127.0.0.1://p' "$KAFKA_DIR/server.properties")"
    log "kafka already running (pid $(pid_of kafka), port $KAFKA_PORT)"
    return 0
  fi
  wait_port_free "$KAFKA_PORT" kafka
  wait_port_free "$KAFKA_CONTROLLER_PORT" "kafka controller"
  CP="$(kafka_classpath)"
  cat >"$KAFKA_DIR/server.properties" <<EOF
# Written by deploy/local/stack.sh on every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$KAFKA_DIR/data
EOF
  cat "$REPO_ROOT/deploy/local/kafka/broker.properties" >>"$KAFKA_DIR/server.properties"
  if [[ ! -f "$KAFKA_DIR/data/meta.properties" ]]; then
    local id=-  # a random 16-byte id in Kafka's base64url form, not starting with '-'
    while [[ $id == -* ]]; do id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)"; done
    log "formatting kafka storage (cluster id $id)"
    kafka_tool kafka.tools.StorageTool format -t "$id" -c "$KAFKA_DIR/server.properties" >/dev/null
  fi
  local archive="$REPO_ROOT/deploy/local/kafka/target/broker-classes.jsa" tried="$KAFKA_DIR/class-archive-failed"
  if [[ ! -s "$archive" && ! -e "$tried" ]]; then
    # Class data sharing: the classes a broker loads while it starts and stops, archived once per checkout by a
    # broker that starts and stops cleanly now (the JVM writes the archive as it exits), then mapped by every later
    # start, which reaches "Kafka Server started" about half a second sooner (3.3 s after a SIGKILL on the dev
    # stack without it, 2.8 s with it: docs/performance.md, fourteenth round). The JVM ignores a stale archive (the
    # classpath or the JDK changed) with a warning; kafka_classpath removes it on a new resolution. A JVM that
    # writes none is not asked again by this stack ($tried), so that no later start, a restart after a kill
    # included, pays for a second broker start.
    log "archiving the broker's classes for quicker restarts (once per checkout)"
    kafka_launch "-XX:ArchiveClassesAtExit=$archive.$$"
    stop_pid kafka kafka.Kafka
    if [[ -s "$archive.$$" ]]; then
      mv -f "$archive.$$" "$archive"
    else
      rm -f "$archive.$$"; : >"$tried"; log "the JVM wrote no class archive: the broker starts without one"
    fi
  fi
  if [[ -s "$archive" ]]; then kafka_launch "-XX:SharedArchiveFile=$archive"; else kafka_launch; fi
}

# rotate_log FILE KEEP: FILE becomes FILE.1, FILE.1 becomes FILE.2 and so on; the oldest beyond KEEP goes.
rotate_log() {
  local f=$1 keep=$2 i
  [[ -s "$f" ]] || return 0
  rm -f "$f.$keep"
  for ((i = keep - 1; i >= 1; i--)); do
    if [[ -e "$f.$i" ]]; then mv -f "$f.$i" "$f.$((i + 1))"; fi
  done
  mv -f "$f" "$f.1"
}

# kafka_launch [JVM_OPTION...]: starts the broker of server.properties and waits until it has started.
kafka_launch() {
  log "starting kafka on port $KAFKA_PORT (controller $KAFKA_CONTROLLER_PORT)"
  # Each start writes a log of its own (readiness is read from it below); the ten before it are kept, so that a
  # broker killed and restarted (the fault experiment's kafka-kill) can still be read start by start afterwards.
  rotate_log "$LOGS/kafka.log" 10
  # Started from this shell (not a subshell) so that $! is the JVM's own PID. Heap and collector (docs/performance.md,
  # thirteenth round): G1 at 512 MiB kept 50 MiB of its own beside the heap. The parallel collector at 320 MiB, with
  # the log cleaner's map cut to 16 MiB (broker.properties), in a clean clone's bench against the run before: peak
  # RSS 329 MiB (506), 0.047 CPU-ms per call in the burst (0.060), the relay alone at 1,000 events/s p99 7.1 ms (9.3).
  # Alternated on the dev stack, that relay p99 was 8.8 ms against 11.9 with G1 at 512 MiB and 14.7-20.7 at 256 MiB.
  nohup java -Xms128m -Xmx320m -XX:+UseParallelGC "$@" -Dorg.slf4j.simpleLogger.showDateTime=true \
    -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS -cp "$CP" kafka.Kafka "$KAFKA_DIR/server.properties" \
    </dev/null >"$LOGS/kafka.log" 2>&1 &
  local pid=$! deadline=$((SECONDS + 90))
  rm -f "$RUN/kafka.topics"
  echo "$pid" >"$RUN/kafka.pid"
  echo "$KAFKA_PORT" >"$RUN/kafka.port"
  # Ready when the broker says so (listening, registered with its controller and unfenced): its own log line, read
  # from the log this start truncated, costs nothing, where a CLI JVM per attempt took a core for a second beside a
  # broker still recovering. kafka_topics then lists the topics through the broker: its answer is checked there.
  until grep -q 'Kafka Server started' "$LOGS/kafka.log"; do
    running "$pid" || { tail -n 40 "$LOGS/kafka.log" >&2; die "kafka exited during startup"; }
    (( SECONDS < deadline )) || { tail -n 40 "$LOGS/kafka.log" >&2; die "kafka did not start within 90 s"; }
    sleep 0.1
  done
}

# kafka_topics: creates the topics the broker lacks, and notes that this broker (its PID) has them all. infra-up checks
# once per broker start: a check costs a CLI JVM, a core for a second beside services that a database restart (the
# fault experiment's pg-kill runs infra-up) has just sent reconnecting. `stack.sh topics` always checks.
kafka_topics() {
  CP="${CP:-$(kafka_classpath)}"
  local existing; existing="$(kafka_tool org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "127.0.0.1:$KAFKA_PORT" --list)"
  local spec topic parts pids=() pid
  for spec in toolonce.tool-intents:12 toolonce.tool-results:12 toolonce.tool-intents.dlq:3 \
      toolonce.tool-results.dlq:3 toolonce.relay.dlq:3 toolonce.agent-tasks:12 toolonce.agent-tasks.dlq:3; do
    topic="${spec%:*}"; parts="${spec##*:}"
    grep -qxF "$topic" <<<"$existing" && continue
    log "creating topic $topic ($parts partitions)"
    kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$KAFKA_PORT" \
      --create --if-not-exists --topic "$topic" --partitions "$parts" --replication-factor 1 >/dev/null &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || die "topic creation failed"; done
  pid_of kafka >"$RUN/kafka.topics"
}

topics_checked() { [[ -s "$RUN/kafka.topics" && "$(cat "$RUN/kafka.topics")" == "$(pid_of kafka)" ]]; }

kafka_down() { stop_pid kafka kafka.Kafka; }

# ---------------------------------------------------------------- services
jar_of() { echo "$REPO_ROOT/$1/target/$1-$VERSION-exec.jar"; }
SECURITY_JAR="$REPO_ROOT/security/target/security-$VERSION.jar"
SCHEMAS_JAR="$REPO_ROOT/schemas/target/schemas-$VERSION.jar"
tokens_cli() { java -cp "$SECURITY_JAR:$SCHEMAS_JAR" dev.toolonce.security.token.TokensMain "$@"; }
keys_cli() { java -cp "$SCHEMAS_JAR" dev.toolonce.schemas.signing.KeysMain "$@"; }

# local_keys: the keyring holds a key named local-agents (intent, compensate, task) and one named local-executor
# (result), for every tenant; created once and kept across restarts, like the admin token.
local_keys() {
  local listed
  listed="$(keys_cli list --file "$KEYRING" 2>/dev/null || true)"
  if [[ "$listed" != *" local-agents"* ]]; then
    log "creating the local stack's agents' signing key in $KEYRING (./toolonce keys create makes others)"
    keys_cli create --file "$KEYRING" --power intent --power compensate --power task --tenant '*' \
      --name local-agents >/dev/null 2>&1 || die "cannot create the agents' signing key"
  fi
  if [[ "$listed" != *" local-executor"* ]]; then
    log "creating the local stack's executor signing key in $KEYRING"
    keys_cli create --file "$KEYRING" --power result --tenant '*' --name local-executor >/dev/null 2>&1 \
      || die "cannot create the executor's signing key"
  fi
}

# gateway_token: the MCP gateway's viewer token, with which it reads the executor's catalogue (created once).
gateway_token() {
  local token="" id
  [[ -s "$GATEWAY_TOKEN" ]] && token="$(<"$GATEWAY_TOKEN")"
  id="${token#tot_}"; id="${id%%_*}"
  if [[ -n "$token" && -f "$TOKENS" ]] && grep -q "^$id:" "$TOKENS"; then return 0; fi
  (umask 077 && tokens_cli create --file "$TOKENS" --role viewer --tenant '*' --name local-mcp-gateway \
    >"$GATEWAY_TOKEN") || die "cannot create the gateway's catalogue token"
}

# local_tokens: the local stack's admin token exists and is in the token file (created once, kept across restarts).
local_tokens() {
  local token="" id
  [[ -s "$ADMIN_TOKEN" ]] && token="$(<"$ADMIN_TOKEN")"
  id="${token#tot_}"; id="${id%%_*}"
  if [[ -n "$token" && -f "$TOKENS" ]] && grep -q "^$id:" "$TOKENS"; then return 0; fi
  log "creating the local stack's admin token in $ADMIN_TOKEN (./toolonce tokens create makes others)"
  (umask 077 && tokens_cli create --file "$TOKENS" --role admin --tenant '*' --name local-admin >"$ADMIN_TOKEN") \
    || die "cannot create the admin token"
}

service_up() {
  local name=$1 portvar=${SERVICE_PORT_VAR[$1]} jar; jar="$(jar_of "$1")"
  if alive "$name" "$jar"; then
    printf -v "$portvar" '%s' "$(port_of "$name")"
    log "$name already running (pid $(pid_of "$name"), port ${!portvar})"
    return 0
  fi
  local port=${!portvar}
  wait_port_free "$port" "$name"
  log "starting $name on port $port"
  TOOLONCE_PG_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/toolonce" \
  KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT" \
  SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" \
  EXECUTOR_URL="http://127.0.0.1:$EXECUTOR_PORT" \
  TOOLONCE_TASKS_URL="http://127.0.0.1:$CONSUMER_PORT" \
  TOOLONCE_GATEWAY_CATALOGUETOKENFILE="$( [[ $name == mcp-gateway ]] && echo "$GATEWAY_TOKEN" )" \
  SERVER_PORT="$port" \
    nohup java -Xms64m -Xmx256m -XX:+UseSerialGC -jar "$jar" --toolonce.security.tokens-file="$TOKENS" \
      --toolonce.signing.keyring-file="$KEYRING" \
      </dev/null >"$LOGS/$name.log" 2>&1 &
  local pid=$!
  echo "$pid" >"$RUN/$name.pid"
  echo "$port" >"$RUN/$name.port"
  local url="http://127.0.0.1:$port/ready" deadline=$((SECONDS + 90))
  until [[ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$url" || true)" == 200 ]]; do
    if ! running "$pid" || (( SECONDS >= deadline )); then
      tail -n 40 "$LOGS/$name.log" >&2
      running "$pid" && die "$name not ready at $url within 90 s"
      die "$name exited during startup"
    fi
    sleep 0.5
  done
  log "$name ready"
}

services_up() {
  command -v curl >/dev/null || die "curl is required to check service readiness"
  local name missing=0
  for name in "${SERVICES[@]}"; do [[ -f "$(jar_of "$name")" ]] || missing=1; done
  [[ -f "$SECURITY_JAR" && -f "$SCHEMAS_JAR" ]] || missing=1
  if (( missing )); then
    log "building the service jars (mvn -q -B -DskipTests package)"
    (cd "$REPO_ROOT" && mvn -q -B -DskipTests package) || die "build failed"
  fi
  local_tokens
  gateway_token
  local_keys
  for name in "${SERVICES[@]}"; do service_up "$name"; done
}

services_down() {
  local i
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do stop_pid "${SERVICES[$i]}" "$(jar_of "${SERVICES[$i]}")"; done
}

# ---------------------------------------------------------------- commands
infra_up() {
  local start=$SECONDS
  pg_up
  kafka_up
  topics_checked || kafka_topics
  write_ports_env
  log "infra up in $((SECONDS - start)) s: postgres 127.0.0.1:$PG_PORT, kafka 127.0.0.1:$KAFKA_PORT"
}

status() {
  local name marker
  for name in postgres kafka "${SERVICES[@]}"; do
    case $name in postgres) marker="$(pg_marker)" ;; kafka) marker=kafka.Kafka ;; *) marker="$(jar_of "$name")" ;; esac
    if alive "$name" "$marker"; then
      printf '%-15s %-8s pid=%-8s port=%s\n' "$name" running "$(pid_of "$name")" "$(port_of "$name")"
    else
      printf '%-15s %-8s pid=%-8s port=%s\n' "$name" stopped - -
    fi
  done
}

env_lines() {
  if alive postgres "$(pg_marker)"; then
    echo "PG_PORT=$(port_of postgres)"
    echo "PG_URL=jdbc:postgresql://127.0.0.1:$(port_of postgres)/toolonce"
  fi
  alive kafka kafka.Kafka && echo "KAFKA_BOOTSTRAP=127.0.0.1:$(port_of kafka)"
  local name var
  for name in "${SERVICES[@]}"; do
    alive "$name" "$(jar_of "$name")" || continue
    case $name in
      sandbox-tools) var=SANDBOX_URL ;;
      tool-executor) var=EXECUTOR_URL; echo "CONSOLE_URL=http://127.0.0.1:$(port_of "$name")/console/" ;;
      inbox-consumer) var=CONSUMER_URL ;; outbox-relay) var=RELAY_URL ;;
      mcp-gateway) echo "MCP_URL=http://127.0.0.1:$(port_of "$name")/mcp"; continue ;;
    esac
    echo "$var=http://127.0.0.1:$(port_of "$name")"
  done
  [[ -f "$TOKENS" ]] && echo "TOOLONCE_TOKENS_FILE=$TOKENS"
  [[ -s "$ADMIN_TOKEN" ]] && echo "TOOLONCE_TOKEN_FILE=$ADMIN_TOKEN"
  [[ -f "$KEYRING" ]] && echo "TOOLONCE_SIGNING_KEYRINGFILE=$KEYRING"
  return 0
}

# purge (down --purge): the stack's data, so that the next 'up' starts empty: the PostgreSQL cluster, Kafka's log
# directory and the services' logs. The credentials (tokens, keyring) and the Kafka classpath cache stay.
purge() {
  local pg; pg="$(readlink -f "$TOOLONCE_HOME/pg" 2>/dev/null || true)"
  [[ -n "$pg" && -d "$pg" ]] && { rm -rf "$pg"; log "removed the PostgreSQL cluster ($pg)"; }
  rm -f "$TOOLONCE_HOME/pg"
  rm -rf "$KAFKA_DIR/data" "$KAFKA_DIR/server.properties" "$LOGS"
  log "removed Kafka's data ($KAFKA_DIR/data) and the logs ($LOGS)"
}

mkdir -p "$RUN" "$LOGS" "$KAFKA_DIR"
case "${1:-}" in
  infra-up) infra_up ;;
  up) infra_up; services_up; write_ports_env ;;
  infra-down) kafka_down; pg_down ;;
  services-down) services_down ;;
  restart) # restart SERVICE: stop one service and start it again from its (possibly rebuilt) jar
    [[ -n "${SERVICE_PORT_VAR[${2:-}]:-}" ]] || die "usage: restart ${SERVICES[*]// /|}"
    stop_pid "$2" "$(jar_of "$2")"; service_up "$2" ;;
  down)
    [[ -z "${2:-}" || "$2" == --purge ]] || die "usage: down [--purge]"
    services_down; kafka_down; pg_down; [[ "${2:-}" == --purge ]] && purge; true ;;
  status) status ;;
  env) env_lines ;;
  credentials) local_tokens; local_keys; gateway_token ;;   # the admin token, the keyring and the gateway's token, for the images' stack (deploy/compose)
  kafka-classpath) kafka_classpath ;;
  topics) kafka_topics ;;
  *) echo "usage: $0 infra-up|up|down|infra-down|services-down|status|env|credentials|kafka-classpath|topics" >&2; exit 2 ;;
esac
