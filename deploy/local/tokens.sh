#!/usr/bin/env bash
# ./toolonce tokens create --role viewer|operator|admin|scrape --tenant TENANT [--tenant …] [--name NAME]
# ./toolonce tokens list | revoke <id>
# API tokens of the local stack ($TOOLONCE_HOME/tokens holds their hashes; the services re-read it within a second).
# create prints the token once, on standard output: keep it (TOOLONCE_TOKEN=… or a file in TOOLONCE_TOKEN_FILE).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLONCE_HOME="${TOOLONCE_HOME:-$ROOT/.local}"
JAR="$ROOT/security/target/security-0.1.0-SNAPSHOT.jar"
SCHEMAS_JAR="$ROOT/schemas/target/schemas-0.1.0-SNAPSHOT.jar" # the token file's format lives there (EntryFile)
[[ -f "$JAR" && -f "$SCHEMAS_JAR" ]] || (cd "$ROOT" && mvn -q -B -DskipTests package -pl schemas,security)
[[ $# -ge 1 ]] || { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }
cmd=$1; shift
java -cp "$JAR:$SCHEMAS_JAR" dev.toolonce.security.token.TokensMain "$cmd" --file "$TOOLONCE_HOME/tokens" "$@"

# the images' stack mounts a copy owned by its uid 10001: a new token must work there, a revoked one stop working
if [[ $cmd == create || $cmd == revoke ]]; then "$ROOT/deploy/compose/stack.sh" etc-sync tokens; fi
