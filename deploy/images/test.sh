#!/usr/bin/env bash
# ./toolonce images --test: the images, run for real. Builds them (unless --no-build), starts a private PostgreSQL and
# Kafka broker (deploy/local/stack.sh infra-up in a TOOLONCE_HOME of its own, ports IMAGES_IT_PORT..+6, default
# 23480..23488), runs the five images under podman with host networking and the configuration mounted at
# /etc/toolonce, and checks:
#   - every container runs as uid 10001 (PID 1's real uid, and the image's USER), becomes ready on /ready and
#     healthy by its own HEALTHCHECK, and carries the OCI labels of this revision; loopback unless SERVER_ADDRESS;
#   - anonymous requests are refused with 401 (executor, relay, consumer, the gateway's MCP endpoint, which names its
#     protected resource metadata); a token of the mounted tokens file is
#     accepted, a token of another file is not, and a token added to the mounted file afterwards is accepted;
#   - the executor's heap follows the container's memory limit (-XX:MaxRAMPercentage=60 of --memory 512m);
#   - the executor reads the mounted tool YAML (a tool of its own, its credential from the environment, the secret in
#     no log line), refuses to start with a broken one naming the tool, and refuses to start without the keyring;
#     the gateway ends (exit 1) when the executor refuses its catalogue token;
#   - the demo workload, signed with the mounted keyring, runs through the containers:
#     duplicate_side_effects=0 lost=0 stuck=0;
#   - an MCP client (curl, JSON-RPC over Streamable HTTP) lists the gateway's tools and calls payments_charge twice
#     with one idempotency key: both answers COMMITTED with one charge id, the second replayed, one charge made;
#   - the executor stops on SIGTERM (podman stop) by itself, within its grace period.
# Prints one line per check and 'N passed, N failed'; exits 1 if any failed. Removes its containers and stops its
# PostgreSQL and Kafka (--keep leaves them, and prints how to remove them). Takes a few minutes on 2 cores.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO_ROOT/deploy/images"
WORK="$HERE/target"
# shellcheck source=deploy/images/lib.sh
source "$HERE/lib.sh"

BUILD=1 KEEP=0
for arg in "$@"; do
  case "$arg" in
    --no-build) BUILD=0 ;;
    --keep) KEEP=1 ;;
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

log() { echo "[images-test] $*"; }
die() { echo "[images-test] ERROR: $*" >&2; exit 1; }

base=${IMAGES_IT_PORT:-23480}
export PG_PORT=$base KAFKA_PORT=$((base + 1)) KAFKA_CONTROLLER_PORT=$((base + 2))
SANDBOX_PORT=$((base + 3)) EXECUTOR_PORT=$((base + 4)) RELAY_PORT=$((base + 5)) CONSUMER_PORT=$((base + 6))
GATEWAY_PORT=$((base + 7)) REFUSED_PORT=$((base + 8))
declare -A SVC_PORT=([sandbox-tools]=$SANDBOX_PORT [tool-executor]=$EXECUTOR_PORT [outbox-relay]=$RELAY_PORT
  [inbox-consumer]=$CONSUMER_PORT [mcp-gateway]=$GATEWAY_PORT)
# the local stack.sh, pointed at a home and ports of this test's own
export TOOLONCE_HOME="$WORK/it-home"
STACK="$REPO_ROOT/deploy/local/stack.sh"
IT="$WORK/it"
ETC="$IT/etc"               # mounted read-only at /etc/toolonce
RUN_ID="it$$"
CONTAINERS=()
PASSED=0 FAILED=0

ok() { PASSED=$((PASSED + 1)); echo "ok   - $*"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL - $*"; }
check() { # DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1; shift
  if "$@"; then ok "$what"; else fail "$what"; fi
}

cleanup() {
  local c rc=$?
  mkdir -p "$IT/logs"
  for c in "${CONTAINERS[@]}"; do podman logs "$c" >"$IT/logs/$c.log" 2>&1 || true; done
  if (( KEEP )); then
    log "kept: containers ${CONTAINERS[*]} (podman rm -f ...), infra (TOOLONCE_HOME=$TOOLONCE_HOME $STACK infra-down)"
    return "$rc"
  fi
  for c in "${CONTAINERS[@]}"; do podman rm -f -t 5 "$c" >/dev/null 2>&1 || true; done
  "$STACK" infra-down >/dev/null 2>&1 || true
  rm -rf "$TOOLONCE_HOME"      # the PostgreSQL cluster and Kafka log of this run
  # the signing keys, tokens and token hashes of this run; the logs stay
  rm -rf "$ETC" "$IT/other" "$IT/etc-nokeyring" "$IT/etc-badtool" "$IT"/*.token
  log "container logs: $IT/logs"
  return "$rc"
}

http_code() { # URL [TOKEN]
  local auth=()
  [[ -n "${2:-}" ]] && auth=(-H "Authorization: Bearer $2")
  curl -s -o /dev/null -m 5 -w '%{http_code}' "${auth[@]}" "$1" || true
}

# run_container SERVICE NAME [podman run options...] -- [service arguments...]: detached, host network, /etc/toolonce
run_container() {
  local svc=$1 name=$2; shift 2
  local opts=() args=()
  while (( $# )) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
  (( $# )) && shift
  args=("$@")
  CONTAINERS+=("$name")
  podman run -d --name "$name" --network host --memory 512m \
    -e TOOLONCE_PG_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/toolonce" -e KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT" \
    -e SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" -e SERVER_PORT="${SVC_PORT[$svc]}" \
    -v "$ETC:/etc/toolonce:ro" "${opts[@]}" "localhost/toolonce/$svc:$VERSION" "${args[@]}" >/dev/null 2>>"$IT/podman.log"
}

wait_ready() { # SERVICE NAME
  local url="http://127.0.0.1:${SVC_PORT[$1]}/ready" deadline=$((SECONDS + 150)) start=$SECONDS
  until [[ "$(http_code "$url")" == 200 ]]; do
    if [[ "$(podman inspect --format '{{.State.Running}}' "$2")" != true ]] || (( SECONDS >= deadline )); then
      podman logs --tail 40 "$2" >&2 || true
      fail "$1 ready at /ready"
      return 1
    fi
    sleep 1
  done
  ok "$1 ready at $url after $((SECONDS - start)) s"
}

# refused_start SERVICE ETC_DIR TEXT [podman options...]: the container exits non-zero by itself, its log naming TEXT
refused_start() {
  local svc=$1 etc=$2 text=$3; shift 3
  local name="toolonce-$RUN_ID-refused-$svc-$RANDOM" rc out
  CONTAINERS+=("$name")
  podman run --name "$name" --network host --no-healthcheck --memory 512m \
    -e TOOLONCE_PG_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/toolonce" -e KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT" \
    -e SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" -e SERVER_PORT="$REFUSED_PORT" \
    -v "$etc:/etc/toolonce:ro" "$@" "localhost/toolonce/$svc:$VERSION" >/dev/null 2>&1 &
  local pid=$! deadline=$((SECONDS + 150))
  while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then podman rm -f -t 1 "$name" >/dev/null 2>&1 || true; fi
  wait "$pid" 2>/dev/null && rc=0 || rc=$?
  out="$(podman logs "$name" 2>&1 || true)"
  if (( rc != 0 )) && [[ "$out" == *"$text"* ]]; then
    ok "$svc refuses to start (exit $rc): …${text}…"
  else
    fail "$svc should refuse to start naming '$text' (exit $rc)"; tail -n 20 <<<"$out" >&2
  fi
}

tokens_cli() { java -cp "$REPO_ROOT/security/target/security-$VERSION.jar:$REPO_ROOT/schemas/target/schemas-$VERSION.jar" \
  dev.toolonce.security.token.TokensMain "$@"; }
keys_cli() { java -cp "$REPO_ROOT/schemas/target/schemas-$VERSION.jar" dev.toolonce.schemas.signing.KeysMain "$@"; }

# ---------------------------------------------------------------- set-up
started=$SECONDS
if (( BUILD )); then "$HERE/build.sh"; fi
command -v podman >/dev/null || die "podman is missing: apt-get install podman runc (or run ./toolonce images first)"
command -v curl >/dev/null || die "curl is required"
containers_conf "$WORK"
for svc in "${IMAGE_SERVICES[@]}"; do
  podman image exists "localhost/toolonce/$svc:$VERSION" || die "no image localhost/toolonce/$svc:$VERSION: run ./toolonce images"
done
for port in $PG_PORT $KAFKA_PORT $KAFKA_CONTROLLER_PORT "${SVC_PORT[@]}" $REFUSED_PORT; do
  [[ -z "$(ss -Hltn "sport = :$port" 2>/dev/null)" ]] || die "port $port is in use: set IMAGES_IT_PORT to a free range of 9"
done
trap cleanup EXIT

rm -rf "$TOOLONCE_HOME" "$IT"
mkdir -p "$ETC" "$IT/other" "$IT/logs"
log "PostgreSQL on $PG_PORT and Kafka on $KAFKA_PORT (TOOLONCE_HOME=$TOOLONCE_HOME)"
"$STACK" infra-up >"$IT/infra.log" 2>&1 || { cat "$IT/infra.log" >&2; die "infra-up failed"; }

# The configuration an operator mounts: token hashes, signing keys, the executor's tool YAML.
(umask 077
 tokens_cli create --file "$ETC/tokens" --role admin --tenant '*' --name images-it-admin >"$IT/admin.token" 2>/dev/null
 tokens_cli create --file "$ETC/tokens" --role viewer --tenant acme --name images-it-viewer >"$IT/viewer.token" 2>/dev/null
 # the gateway reads the executor's catalogue with a viewer token; MCP clients call tools with an operator's
 tokens_cli create --file "$ETC/tokens" --role viewer --tenant '*' --name images-it-gateway >"$ETC/catalogue.token" 2>/dev/null
 tokens_cli create --file "$ETC/tokens" --role operator --tenant acme --name images-it-mcp >"$IT/mcp.token" 2>/dev/null
 tokens_cli create --file "$IT/other/tokens" --role admin --tenant '*' --name not-mounted >"$IT/other.token" 2>/dev/null
 keys_cli create --file "$ETC/keyring" --power intent --power compensate --power task --tenant '*' --name images-it-agents >/dev/null 2>&1
 keys_cli create --file "$ETC/keyring" --power result --tenant '*' --name images-it-executor >/dev/null 2>&1)
IMAGECHECK_SECRET="imagecheck-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
cat >"$ETC/toolonce-executor.yml" <<'EOF'
# mounted tool YAML: one more tool, beside the packaged ones; its credential comes from the environment
toolonce:
  executor:
    tools:
      imagecheck:
        base-url: ${SANDBOX_URL}
        credentials: { header: Authorization, env: IMAGECHECK_API_KEY, prefix: "Bearer " }
        operations:
          apply: { method: POST, path: /counter/apply, external-id-pointer: /id }
EOF
cp -r "$ETC" "$IT/etc-nokeyring"; rm -f "$IT/etc-nokeyring/keyring"
cp -r "$ETC" "$IT/etc-badtool"
sed -i 's/^        operations:/        capabilities: [EXACTLY_ONCE]\n        operations:/' "$IT/etc-badtool/toolonce-executor.yml"
# The services run as uid 10001: the mounted files must be readable by it, and stay owner-only.
chown -R 10001:10001 "$ETC" "$IT/etc-nokeyring" "$IT/etc-badtool"
chmod 0700 "$ETC"

# ---------------------------------------------------------------- the five services from their images
declare -A NAME
# stack.sh's order: schemas before the relay, the gateway last (it reads the executor's catalogue when it starts)
for svc in sandbox-tools tool-executor inbox-consumer outbox-relay mcp-gateway; do
  NAME[$svc]="toolonce-$RUN_ID-$svc"
  if [[ $svc == tool-executor ]]; then
    run_container "$svc" "${NAME[$svc]}" -e IMAGECHECK_API_KEY="$IMAGECHECK_SECRET"
  elif [[ $svc == inbox-consumer ]]; then   # what docs/operations.md §6 says to set on a bridge network or in a pod
    run_container "$svc" "${NAME[$svc]}" -e SERVER_ADDRESS=0.0.0.0
  elif [[ $svc == mcp-gateway ]]; then
    run_container "$svc" "${NAME[$svc]}" -e EXECUTOR_URL="http://127.0.0.1:$EXECUTOR_PORT" \
      -e TOOLONCE_GATEWAY_CATALOGUETOKENFILE=/etc/toolonce/catalogue.token
  else
    run_container "$svc" "${NAME[$svc]}"
  fi
  wait_ready "$svc" "${NAME[$svc]}" || die "$svc did not become ready (logs above)"
done

revision="$(git -C "$REPO_ROOT" rev-parse HEAD)"
[[ -n "$(git -C "$REPO_ROOT" status --porcelain --untracked-files=no)" ]] && revision="$revision-dirty"
for svc in "${IMAGE_SERVICES[@]}"; do
  c="${NAME[$svc]}"
  uid="$(podman exec "$c" grep '^Uid:' /proc/1/status | awk '{ print $2 }')"   # real uid of PID 1, the JVM
  check "$svc: PID 1 runs as uid 10001 (got $uid), image USER $(podman inspect --format '{{.Config.User}}' "$c")" \
    test "$uid" = 10001 -a "$(podman inspect --format '{{.Config.User}}' "$c")" = 10001
  check "$svc: HEALTHCHECK passes (podman healthcheck run)" podman healthcheck run "$c"
  labels="$(podman image inspect "localhost/toolonce/$svc:$VERSION" --format \
    '{{index .Config.Labels "org.opencontainers.image.version"}} {{index .Config.Labels "org.opencontainers.image.revision"}}')"
  check "$svc: labels version and revision = $labels" test "$labels" = "$VERSION $revision"
done

listen_exec="$(ss -Hltn "sport = :$EXECUTOR_PORT" | awk '{ print $4 }')"
listen_cons="$(ss -Hltn "sport = :$CONSUMER_PORT" | awk '{ print $4 }')"
check "executor listens on loopback only by default ($listen_exec)" \
  test "$listen_exec" = "127.0.0.1:$EXECUTOR_PORT" -o "$listen_exec" = "[::ffff:127.0.0.1]:$EXECUTOR_PORT"
check "consumer listens on every interface with SERVER_ADDRESS=0.0.0.0 ($listen_cons)" \
  test "$listen_cons" = "0.0.0.0:$CONSUMER_PORT" -o "$listen_cons" = "*:$CONSUMER_PORT"

# ---------------------------------------------------------------- credentials
executor="http://127.0.0.1:$EXECUTOR_PORT"
check "executor: anonymous GET /review is 401" test "$(http_code "$executor/review")" = 401
check "relay: anonymous GET /relay/stats is 401" test "$(http_code "http://127.0.0.1:$RELAY_PORT/relay/stats")" = 401
check "consumer: anonymous GET /tasks is 401" test "$(http_code "http://127.0.0.1:$CONSUMER_PORT/tasks")" = 401
gateway="http://127.0.0.1:$GATEWAY_PORT"
anonymous="$(curl -s -o /dev/null -D - -m 5 -X POST -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' --data '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
  "$gateway/mcp" | tr -d '\r' || true)"
check "gateway: anonymous POST /mcp is 401 naming its resource metadata ($(head -1 <<<"$anonymous"))" \
  grep -qE "^HTTP/[0-9.]+ 401" <<<"$(head -1 <<<"$anonymous")"
check "gateway: its 401 names the resource metadata in WWW-Authenticate" \
  grep -q "^WWW-Authenticate: Bearer resource_metadata=\"$gateway/.well-known/oauth-protected-resource\"" <<<"$anonymous"
check "gateway: its catalogue token is in no container's environment (podman inspect)" \
  test "$(podman inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "${NAME[mcp-gateway]}" \
    | grep -cF "$(<"$ETC/catalogue.token")" || true)" = 0
check "gateway: anonymous GET /actuator/prometheus is 401" test "$(http_code "$gateway/actuator/prometheus")" = 401
check "gateway: the admin token reads /actuator/prometheus (200)" \
  test "$(http_code "$gateway/actuator/prometheus" "$(<"$IT/admin.token")")" = 200
check "executor: a viewer token of the mounted tokens file reads /review (200)" \
  test "$(http_code "$executor/review" "$(<"$IT/viewer.token")")" = 200
check "executor: a token of another file is refused (401)" test "$(http_code "$executor/review" "$(<"$IT/other.token")")" = 401
# the services re-read the token file when it changes: the mounted one, not a copy taken at start
late="$( (umask 077; tokens_cli create --file "$ETC/tokens" --role viewer --tenant acme --name images-it-late 2>/dev/null) )"
chown 10001:10001 "$ETC/tokens"
code=401
for _ in $(seq 1 20); do code="$(http_code "$executor/review" "$late")"; [[ $code == 200 ]] && break; sleep 0.5; done
check "executor: a token added to the mounted file after the start is accepted ($code)" test "$code" = 200

# ---------------------------------------------------------------- JVM, tool YAML, keyring
heap="$(curl -s -m 5 -H "Authorization: Bearer $(<"$IT/admin.token")" \
  "$executor/actuator/metrics/jvm.memory.max?tag=area:heap" | sed -n 's/.*"value":\([0-9.E+]*\).*/\1/p')"
heap_mib="$(awk -v v="$heap" 'BEGIN { printf "%d", v / 1048576 }')"
host_mib="$(free -m | awk '/^Mem:/ { print $2 }')"
check "executor: heap max ${heap_mib} MiB under --memory 512m (60 % = 307 MiB; host RAM $host_mib MiB)" \
  test "$heap_mib" -ge 280 -a "$heap_mib" -le 320
exec_log="$(podman logs "${NAME[tool-executor]}" 2>&1)"
check "executor: the mounted tool YAML's tool is ready (log: tool ready: HttpToolAdapter[imagecheck, …])" \
  grep -q 'tool ready: HttpToolAdapter\[imagecheck' <<<"$exec_log"
check "executor: the packaged tools are still there (payments ready)" grep -q 'tool ready: HttpToolAdapter\[payments' <<<"$exec_log"
check "executor: the tool credential from the environment appears in no log line" \
  test "$(grep -c "$IMAGECHECK_SECRET" <<<"$exec_log" || true)" = 0
refused_start tool-executor "$IT/etc-badtool" "tool 'imagecheck'" -e IMAGECHECK_API_KEY=x
refused_start tool-executor "$IT/etc-nokeyring" "toolonce.signing.keyring-file=/etc/toolonce/keyring: no such file" \
  -e IMAGECHECK_API_KEY=x
# a start that fails ends the gateway's process (its MCP server's threads once kept a failed JVM alive)
refused_start mcp-gateway "$ETC" "answered 401 (needs a viewer token)" -e EXECUTOR_URL="$executor" \
  -e TOOLONCE_GATEWAY_CATALOGUE_TOKEN=tot_not_a_token

# ---------------------------------------------------------------- the demo through the containers
demo_jar="$REPO_ROOT/demo/target/demo-$VERSION-exec.jar"
if [[ -f "$demo_jar" ]]; then
  log "demo workload through the containers (DEMO_OPERATIONS=${DEMO_OPERATIONS:-40}, DEMO_SAGAS=${DEMO_SAGAS:-4})"
  demo_start=$SECONDS
  KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT" PG_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/toolonce" \
  SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" RELAY_URL="http://127.0.0.1:$RELAY_PORT" EXECUTOR_URL="$executor" \
  TOOLONCE_TOKEN_FILE="$IT/admin.token" TOOLONCE_SIGNING_KEYRINGFILE="$ETC/keyring" \
  DEMO_OPERATIONS="${DEMO_OPERATIONS:-40}" DEMO_SAGAS="${DEMO_SAGAS:-4}" DEMO_TIMEOUT_SECONDS=180 \
    java -Xmx256m -XX:+UseSerialGC -jar "$demo_jar" >"$IT/demo.log" 2>&1 && demo_rc=0 || demo_rc=$?
  summary="$(grep -E '^intents=' "$IT/demo.log" | tail -1 || true)"
  echo "  demo ($((SECONDS - demo_start)) s): ${summary:-no summary line, see $IT/demo.log}"
  check "demo through the images: exit 0 and duplicate_side_effects=0 lost=0 stuck=0" \
    test "$demo_rc" = 0 -a -n "$(grep -E 'duplicate_side_effects=0 lost=0 .*stuck=0' <<<"$summary" || true)"
else
  fail "demo: no $demo_jar (mvn -DskipTests package builds it)"
fi

# ---------------------------------------------------------------- MCP through the gateway's image
# mcp METHOD PARAMS: one JSON-RPC request of the session in MCP_SESSION, the operator's token; prints the JSON answer
# (Streamable HTTP answers either plain JSON or an event stream whose data lines hold it)
MCP_SESSION="" MCP_ID=0
mcp() {
  local session=() body
  MCP_ID=$((MCP_ID + 1))
  [[ -n "$MCP_SESSION" ]] && session=(-H "Mcp-Session-Id: $MCP_SESSION")
  body="$(curl -s -m 60 -D "$IT/mcp.headers" -H "Authorization: Bearer $(<"$IT/mcp.token")" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "${session[@]}" \
    --data "{\"jsonrpc\":\"2.0\",\"id\":$MCP_ID,\"method\":\"$1\",\"params\":$2}" "$gateway/mcp" || true)"
  sed -n 's/^data: *//p; /^{/p' <<<"$body" | grep -F "\"id\":$MCP_ID" | tail -n 1 || true
}
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1], {"d": d}))' "$1"; }
mcp initialize '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"images-test","version":"1"}}' \
  >"$IT/mcp-initialize.json"
MCP_SESSION="$(tr -d '\r' <"$IT/mcp.headers" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: *//p')"
curl -s -o /dev/null -m 5 -H "Authorization: Bearer $(<"$IT/mcp.token")" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' -H "Mcp-Session-Id: $MCP_SESSION" \
  --data '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$gateway/mcp" || true
tools="$(mcp tools/list '{}' | json '" ".join(sorted(t["name"] for t in d["result"]["tools"]))' 2>/dev/null || true)"
check "gateway: an MCP session (${MCP_SESSION:0:8}…) lists the catalogue: $tools" grep -qw payments_charge <<<"$tools"
charge='{"name":"payments_charge","arguments":{"amount":1250,"currency":"EUR","opId":"acme:images-mcp"},"_meta":{"dev.toolonce/idempotency-key":"images-mcp-1"}}'
first="$(mcp tools/call "$charge" | json 'd["result"]["structuredContent"]' 2>/dev/null || true)"
second="$(mcp tools/call "$charge" | json 'd["result"]["structuredContent"]' 2>/dev/null || true)"
echo "  MCP tools/call #1 -> $first"
echo "  MCP tools/call #2 -> $second"
charges="$(curl -s -m 5 "http://127.0.0.1:$SANDBOX_PORT/_ledger?tool=payments" \
  | json 'sum(e.get("count", 0) for e in d["effects"] if e.get("opId") == "acme:images-mcp")' 2>/dev/null || true)"
same="$(python3 -c 'import ast, sys; a, b = (ast.literal_eval(x) for x in sys.argv[1:]); print(
  a["status"] == b["status"] == "COMMITTED" and a["replayed"] is False and b["replayed"] is True
  and a["externalObjectId"] == b["externalObjectId"] is not None)' "$first" "$second" 2>/dev/null || true)"
check "gateway: the same MCP call twice is COMMITTED, one charge id, the second replayed" test "$same" = True
check "gateway: one charge made by the two MCP calls (sandbox ledger: $charges)" test "$charges" = 1

# ---------------------------------------------------------------- SIGTERM
stop_start=$SECONDS
podman stop -t 30 "${NAME[tool-executor]}" >/dev/null 2>>"$IT/podman.log"
code="$(podman inspect --format '{{.State.ExitCode}}' "${NAME[tool-executor]}")"
check "executor: stops on SIGTERM by itself in $((SECONDS - stop_start)) s (exit $code: 143 or 0, not 137 = killed)" \
  test "$code" = 143 -o "$code" = 0

echo "images test: $((SECONDS - started)) s"
echo "$PASSED passed, $FAILED failed"
(( FAILED == 0 ))
