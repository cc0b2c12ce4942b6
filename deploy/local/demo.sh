#!/usr/bin/env bash
# ./toolonce demo [--keep]: build what is missing, bring the stack up, run the mixed workload and print
# the summary. By default it stops again what it started; --keep leaves the stack running.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STACK="$ROOT/deploy/local/stack.sh"
VERSION=0.1.0-SNAPSHOT
KEEP=0
for arg in "$@"; do
  case "$arg" in
    --keep|--keep-stack) KEEP=1 ;;
    -h|--help) echo "usage: ./toolonce demo [--keep]   (DEMO_OPERATIONS=250 DEMO_TIMEOUT_SECONDS=180)"; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

# Build when a jar is missing or any source or pom is newer than it.
jars=(sandbox-tools tool-executor inbox-consumer outbox-relay mcp-gateway demo)
stale=0
for m in "${jars[@]}"; do
  jar="$ROOT/$m/target/$m-$VERSION-exec.jar"
  if [[ ! -f "$jar" ]] || [[ -n "$(find "$ROOT" -path "$ROOT/.local" -prune -o \( -path '*/src/*' -o -name pom.xml \) \
        -type f -newer "$jar" -print -quit)" ]]; then
    stale=1; break
  fi
done
if [[ $stale -eq 1 ]]; then
  echo "[demo] building: mvn -q -B -DskipTests install"
  (cd "$ROOT" && mvn -q -B -DskipTests install)
fi

started_here=1
status="$("$STACK" status)"  # read whole, then matched: a pipe into grep -q can fail under pipefail (SIGPIPE)
if [[ "$status" == *' running'* ]]; then
  started_here=0
  echo "[demo] a stack is already running: using it and leaving it up afterwards"
fi
stop_if_started() {
  if [[ $started_here -eq 1 && $KEEP -eq 0 ]]; then "$STACK" down; fi
}
trap stop_if_started EXIT

"$STACK" up
set -a
eval "$("$STACK" env)"
set +a
java -Xmx256m -XX:+UseSerialGC -jar "$ROOT/demo/target/demo-$VERSION-exec.jar"
