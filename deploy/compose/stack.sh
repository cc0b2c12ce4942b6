#!/usr/bin/env bash
# ./toolonce up --images | down --images | status --images | demo --images: the local stack with every ToolOnce
# service from its image (compose.yaml beside this file, run by podman-compose): two executors, two relays (active
# + warm standby), the result consumer, the MCP gateway and the sandbox tools, with PostgreSQL and Kafka as
# containers too (the images of ./toolonce images --test-infra; their data in the volumes toolonce-pg, toolonce-kafka).
#
#   stack.sh up       stop the processes of the local stack of the same TOOLONCE_HOME (same ports), start PostgreSQL
#                     and Kafka and create the topics, make the mounted configuration ($TOOLONCE_HOME/images-etc: the
#                     local stack's tokens and keyring, copied for uid 10001, and deploy/k8s/base/config/
#                     toolonce-executor.yml), start the services in two steps (schemas first, then the relays and
#                     the gateway) and wait until each answers 200 on /ready
#   stack.sh down     remove the containers (the volumes stay: podman volume rm toolonce_toolonce-pg
#                     toolonce_toolonce-kafka removes the data)
#   stack.sh status   the containers and each /ready
#   stack.sh env      shell-sourceable variables for the demo and the CLIs (as deploy/local/stack.sh env)
#   stack.sh demo     the demo workload against the containers (DEMO_OPERATIONS, DEMO_SAGAS, DEMO_TIMEOUT_SECONDS)
#   stack.sh etc-sync tokens|keyring   when the mounted directory exists, replace its copy of $TOOLONCE_HOME's file
#                     (./toolonce tokens and keys call it: a token or key made, revoked or removed there takes effect
#                     in the containers too, which re-read the file as the local stack's services do)
#
# Ports: the local stack's (PG_PORT 25432, KAFKA_PORT 29092, KAFKA_CONTROLLER_PORT 29093, SANDBOX_PORT 18080,
# EXECUTOR_PORT 18081, RELAY_PORT 18082, CONSUMER_PORT 18083, GATEWAY_PORT 18085) and EXECUTOR2_PORT 18084,
# RELAY2_PORT 18086 for the second executor and relay.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO_ROOT/deploy/compose"
LOCAL="$REPO_ROOT/deploy/local/stack.sh"
# shellcheck source=deploy/images/lib.sh
source "$REPO_ROOT/deploy/images/lib.sh"
export TOOLONCE_HOME="${TOOLONCE_HOME:-$REPO_ROOT/.local}"
mkdir -p "$TOOLONCE_HOME"
export TOOLONCE_ETC="$TOOLONCE_HOME/images-etc"
export SANDBOX_PORT="${SANDBOX_PORT:-18080}" EXECUTOR_PORT="${EXECUTOR_PORT:-18081}" RELAY_PORT="${RELAY_PORT:-18082}"
export CONSUMER_PORT="${CONSUMER_PORT:-18083}" EXECUTOR2_PORT="${EXECUTOR2_PORT:-18084}" RELAY2_PORT="${RELAY2_PORT:-18086}"
export GATEWAY_PORT="${GATEWAY_PORT:-18085}" PG_PORT="${PG_PORT:-25432}" KAFKA_PORT="${KAFKA_PORT:-29092}"
export KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-29093}"
INFRA_IMAGES=(localhost/toolonce/test-postgres:15 localhost/toolonce/test-kafka:4.1.2)
declare -A PORT=([sandbox-tools]=$SANDBOX_PORT [tool-executor-1]=$EXECUTOR_PORT [tool-executor-2]=$EXECUTOR2_PORT
  [inbox-consumer]=$CONSUMER_PORT [outbox-relay-1]=$RELAY_PORT [outbox-relay-2]=$RELAY2_PORT [mcp-gateway]=$GATEWAY_PORT)
FIRST=(sandbox-tools tool-executor-1 tool-executor-2 inbox-consumer)
SECOND=(outbox-relay-1 outbox-relay-2 mcp-gateway)
log() { echo "[images-stack] $*"; }
die() { echo "[images-stack] ERROR: $*" >&2; exit 1; }

# Debian's podman-compose 1.0.3 adds '--net <project>_default' to every container even with network_mode: host, which
# podman refuses ("cannot set multiple networks without bridge network mode"; later podman-compose versions skip it).
# It is run with that one step skipped for a service that names its network_mode, and is otherwise unchanged.
compose() {
  containers_conf "$TOOLONCE_HOME/run"
  # the interpreter podman-compose itself runs with (Debian: /usr/bin/python3), not one first on PATH
  local python; python="$(sed -n '1s/^#! *//p' "$(command -v podman-compose)")"
  ${python:-/usr/bin/python3} -c '
import sys, podman_compose as pc
nets, assert_nets = pc.get_net_args, pc.assert_cnt_nets
pc.get_net_args = lambda c, cnt: [] if cnt.get("network_mode") else nets(c, cnt)
pc.assert_cnt_nets = lambda c, cnt: None if cnt.get("network_mode") else assert_nets(c, cnt)
sys.argv[0] = "podman-compose"
pc.main()' -p toolonce -f "$HERE/compose.yaml" "$@"
}

ready_code() { curl -s -o /dev/null -m 3 -w '%{http_code}' "http://127.0.0.1:$1/ready" || true; }

wait_ready() { # SERVICE...: each answers 200 on /ready before IMAGES_READY_TIMEOUT (600 s) has passed
  local svc deadline=$((SECONDS + ${IMAGES_READY_TIMEOUT:-600})) start=$SECONDS
  for svc in "$@"; do
    until [[ "$(ready_code "${PORT[$svc]}")" == 200 ]]; do
      # an exit is not the end: compose.yaml restarts a service that fails (restart: on-failure), as Kubernetes would
      if (( SECONDS >= deadline )); then
        podman logs --tail 30 "toolonce-$svc" >&2 || true
        die "$svc not ready on 127.0.0.1:${PORT[$svc]}/ready"
      fi
      sleep 2
    done
    log "$svc ready on 127.0.0.1:${PORT[$svc]} ($((SECONDS - start)) s)"
  done
}

etc_dir() {
  "$LOCAL" credentials >/dev/null
  rm -rf "$TOOLONCE_ETC"; mkdir -p "$TOOLONCE_ETC"
  cp "$TOOLONCE_HOME/tokens" "$TOOLONCE_HOME/keyring" "$REPO_ROOT/deploy/k8s/base/config/toolonce-executor.yml" "$TOOLONCE_ETC/"
  # the gateway's viewer token for the catalogue, as a file: in the environment, podman-compose's log of each
  # 'podman run' and 'podman inspect' would show it
  cp "$TOOLONCE_HOME/gateway.token" "$TOOLONCE_ETC/catalogue.token"
  # owner-only, owned by the services' uid: root can still read it, nobody else
  chown -R 10001:10001 "$TOOLONCE_ETC"; chmod 0700 "$TOOLONCE_ETC"; chmod 0400 "$TOOLONCE_ETC"/*
}

cmd_up() {
  local svc started=$SECONDS
  local image
  for svc in "${IMAGE_SERVICES[@]}"; do
    podman image exists "localhost/toolonce/$svc:$VERSION" || die "no image localhost/toolonce/$svc:$VERSION: ./toolonce images"
  done
  for image in "${INFRA_IMAGES[@]}"; do
    podman image exists "$image" || die "no image $image: ./toolonce images --test-infra"
  done
  "$LOCAL" down >/dev/null    # the processes of this TOOLONCE_HOME's local stack hold the same ports
  infra_up
  etc_dir
  log "starting ${FIRST[*]} (podman-compose, images $VERSION)"
  compose up -d "${FIRST[@]}" >>"$TOOLONCE_HOME/logs/compose-up.log" 2>&1 || { cat "$TOOLONCE_HOME/logs/compose-up.log" >&2; die "podman-compose up failed"; }
  wait_ready "${FIRST[@]}"
  log "starting ${SECOND[*]}"
  compose up -d "${SECOND[@]}" >>"$TOOLONCE_HOME/logs/compose-up.log" 2>&1 || { cat "$TOOLONCE_HOME/logs/compose-up.log" >&2; die "podman-compose up failed"; }
  wait_ready "${SECOND[@]}"
  cmd_env >"$TOOLONCE_HOME/images.env"
  log "up in $((SECONDS - started)) s"
  cmd_status
}

# infra_up: PostgreSQL and Kafka as containers, ready, with the topics every stack has (deploy/local/stack.sh topics,
# run against the container's broker until it answers)
infra_up() {
  mkdir -p "$TOOLONCE_HOME/logs"
  local started=$SECONDS deadline=$((SECONDS + 120))
  log "starting postgres (127.0.0.1:$PG_PORT) and kafka (127.0.0.1:$KAFKA_PORT)"
  compose up -d postgres kafka >"$TOOLONCE_HOME/logs/compose-up.log" 2>&1 || { cat "$TOOLONCE_HOME/logs/compose-up.log" >&2; die "podman-compose up failed"; }
  until podman exec toolonce-postgres /usr/lib/postgresql/15/bin/pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -d toolonce; do
    (( SECONDS < deadline )) || { podman logs --tail 30 toolonce-postgres >&2; die "postgres not ready"; }
    sleep 1
  done
  until "$LOCAL" topics >>"$TOOLONCE_HOME/logs/topics.log" 2>&1; do
    (( SECONDS < deadline )) ||
      { tail -n 20 "$TOOLONCE_HOME/logs/topics.log" >&2; podman logs --tail 30 toolonce-kafka >&2; die "kafka not ready"; }
    sleep 2
  done
  log "postgres and kafka ready, topics there, in $((SECONDS - started)) s"
}

cmd_down() { compose down -t 45 >/dev/null 2>&1 || true; log "containers removed (the data stays in the volumes toolonce_toolonce-pg and toolonce_toolonce-kafka)"; }

cmd_status() {
  local svc
  printf '%-16s %-30s port=%s\n' postgres "$(podman inspect --format '{{.State.Status}}' toolonce-postgres 2>/dev/null || echo absent)" "$PG_PORT"
  printf '%-16s %-30s port=%s\n' kafka "$(podman inspect --format '{{.State.Status}}' toolonce-kafka 2>/dev/null || echo absent)" "$KAFKA_PORT"
  for svc in "${FIRST[@]}" "${SECOND[@]}"; do
    printf '%-16s %-30s port=%-6s ready=%s\n' "$svc" \
      "$(podman inspect --format '{{.State.Status}} {{.Config.Image}}' "toolonce-$svc" 2>/dev/null | sed 's#localhost/toolonce/##' || echo absent)" \
      "${PORT[$svc]}" "$(ready_code "${PORT[$svc]}")"
  done
}

cmd_env() {
  echo "PG_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/toolonce"
  echo "KAFKA_BOOTSTRAP=127.0.0.1:$KAFKA_PORT"
  echo "SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT"
  echo "EXECUTOR_URL=http://127.0.0.1:$EXECUTOR_PORT"
  # the relay that publishes (the demo reads its commit -> ack latency from /relay/stats; the standby has none)
  local relay=$RELAY_PORT
  if [[ "$(curl -s -m 3 "http://127.0.0.1:$RELAY_PORT/ready" || true)" != *'"state":"RUNNING"'* ]] &&
     [[ "$(curl -s -m 3 "http://127.0.0.1:$RELAY2_PORT/ready" || true)" == *'"state":"RUNNING"'* ]]; then
    relay=$RELAY2_PORT
  fi
  echo "RELAY_URL=http://127.0.0.1:$relay"
  echo "CONSUMER_URL=http://127.0.0.1:$CONSUMER_PORT"
  echo "MCP_URL=http://127.0.0.1:$GATEWAY_PORT/mcp"
  echo "CONSOLE_URL=http://127.0.0.1:$EXECUTOR_PORT/console/"
  echo "TOOLONCE_TOKEN_FILE=$TOOLONCE_HOME/admin.token"
  echo "TOOLONCE_TOKENS_FILE=$TOOLONCE_HOME/tokens"
  echo "TOOLONCE_SIGNING_KEYRINGFILE=$TOOLONCE_HOME/keyring"
}

cmd_demo() {
  local jar="$REPO_ROOT/demo/target/demo-$VERSION-exec.jar" svc
  [[ -f "$jar" ]] || die "no $jar: mvn -q -B -DskipTests package"
  for svc in "${FIRST[@]}" "${SECOND[@]}"; do
    [[ "$(ready_code "${PORT[$svc]}")" == 200 ]] || die "$svc is not ready: ./toolonce up --images"
  done
  set -a; eval "$(cmd_env)"; set +a
  java -Xmx256m -XX:+UseSerialGC -jar "$jar"
}

# etc_sync NAME: the mounted copy of $TOOLONCE_HOME/NAME made the same again, owned by 10001, replaced whole (a new
# file renamed over the old, as the services expect); nothing when the images' stack was never set up here
etc_sync() {
  local name=$1
  [[ $name == tokens || $name == keyring ]] || die "etc-sync: tokens or keyring"
  [[ -d "$TOOLONCE_ETC" ]] || return 0
  if install -o 10001 -g 10001 -m 0400 "$TOOLONCE_HOME/$name" "$TOOLONCE_ETC/.$name.new" 2>/dev/null &&
     mv -f "$TOOLONCE_ETC/.$name.new" "$TOOLONCE_ETC/$name"; then
    log "the containers' copy $TOOLONCE_ETC/$name updated" >&2
  else
    die "could not update the containers' copy $TOOLONCE_ETC/$name (root can): until then they keep the old $name"
  fi
}

# Asked before any command that runs compose: compose's output goes to a log, so a die inside it would exit silently.
need_compose() {
  command -v podman-compose >/dev/null || die "podman-compose is missing: apt-get install podman-compose (Debian)"
}

case "${1:-}" in
  up) need_compose; cmd_up ;;
  etc-sync) etc_sync "${2:-}" ;;
  down) need_compose; cmd_down ;;
  status) cmd_status ;;
  env) cmd_env ;;
  demo) cmd_demo ;;
  *) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
