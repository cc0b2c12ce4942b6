#!/usr/bin/env bash
# ./toolonce bench [options]: build the bench (and, when the stack must be started, the services) if stale,
# start the stack if it is not running, run the bench jar against it, and stop the stack afterwards only if
# this script started it. Options go to the bench: ./toolonce bench --help.
# MVN overrides the build command (e.g. MVN="flock /tmp/build.lock mvn -o" on a shared machine).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STACK="$ROOT/deploy/local/stack.sh"
VERSION=0.1.0-SNAPSHOT
MVN="${MVN:-mvn}"
export TOOLONCE_HOME="${TOOLONCE_HOME:-$ROOT/.local}"

for arg in "$@"; do
  if [[ "$arg" == --help || "$arg" == -h ]]; then
    echo "./toolonce bench: builds if needed, starts the stack if it is not running (and stops it afterwards)"
    BENCH_HELP=1
  fi
done

# stale MODULE: its jar is missing, or a source or pom of MODULE (or, with 'all', of any module) is newer.
stale() {
  local jar="$ROOT/$1/target/$1-$VERSION-exec.jar" scope="$ROOT/$1"
  [[ "${2:-}" == all ]] && scope="$ROOT"
  [[ ! -f "$jar" ]] || [[ -n "$(find "$scope" -path "$ROOT/.local" -prune -o \( -path '*/src/*' -o -name pom.xml \) \
      -type f -newer "$jar" -print -quit)" ]]
}

# The status is read whole before it is matched: under pipefail, `status | grep -q` fails whenever grep exits at
# its first match before status has written everything (SIGPIPE), and would report a stopped stack as running.
status="$("$STACK" status)"
running=0
[[ "$status" == *' stopped'* ]] || running=1
if [[ $running -eq 1 ]]; then
  # The services are already running their jars: rebuild only the bench, never the jars under them.
  if stale bench; then
    echo "[bench] building the bench: $MVN -q -B -DskipTests install -pl bench"
    (cd "$ROOT" && $MVN -q -B -DskipTests install -pl bench)
  fi
else
  for m in sandbox-tools tool-executor inbox-consumer outbox-relay mcp-gateway bench; do
    if stale "$m" all; then
      echo "[bench] building: $MVN -q -B -DskipTests install"
      (cd "$ROOT" && $MVN -q -B -DskipTests install)
      break
    fi
  done
fi
JAR="$ROOT/bench/target/bench-$VERSION-exec.jar"
if [[ -n "${BENCH_HELP:-}" ]]; then exec java -jar "$JAR" --help; fi

started_here=0
if [[ $running -eq 0 ]]; then
  if [[ "$status" == *' running'* ]]; then
    echo "[bench] part of the stack is running: starting the rest, and leaving all of it up afterwards"
  else
    started_here=1
  fi
  "$STACK" up
else
  echo "[bench] the stack is running: using it and leaving it up afterwards"
fi
stop_if_started() { if [[ $started_here -eq 1 ]]; then "$STACK" down; fi; }
trap stop_if_started EXIT

set -a
eval "$("$STACK" env)"
set +a
java -Xms256m -Xmx1g -XX:+UseSerialGC -jar "$JAR" "$@"
