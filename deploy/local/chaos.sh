#!/usr/bin/env bash
# ./toolonce chaos [options]: build the service jars and the chaos jar if stale, then run the fault experiment
# (issue 11) on a stack of its own that it starts and stops itself: TOOLONCE_HOME=$CHAOS_HOME (default
# .local/chaos), ports from --port-base (default 22400..22407), so it never touches the stack of ./toolonce up.
# Options go to the experiment: ./toolonce chaos --help.
# MVN overrides the build command (e.g. MVN="flock /tmp/build.lock mvn -o" on a shared machine).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSION=0.1.0-SNAPSHOT
MVN="${MVN:-mvn}"
CHAOS_HOME="${CHAOS_HOME:-$ROOT/.local/chaos}"

# stale MODULE: its jar is missing, or a source or pom of any module is newer.
stale() {
  local jar="$ROOT/$1/target/$1-$VERSION-exec.jar"
  [[ ! -f "$jar" ]] || [[ -n "$(find "$ROOT" -path "$ROOT/.local" -prune -o \( -path '*/src/*' -o -name pom.xml \) \
      -type f -newer "$jar" -print -quit)" ]]
}

for m in sandbox-tools tool-executor inbox-consumer outbox-relay mcp-gateway chaos; do
  if stale "$m"; then
    echo "[chaos] building: $MVN -q -B -DskipTests install"
    (cd "$ROOT" && $MVN -q -B -DskipTests install)
    break
  fi
done
export TOOLONCE_ROOT="$ROOT"
exec java -Xms128m -Xmx512m -XX:+UseSerialGC -jar "$ROOT/chaos/target/chaos-$VERSION-exec.jar" --home "$CHAOS_HOME" "$@"
