#!/usr/bin/env bash
# ./toolonce keys create --power intent|compensate|task|result --tenant TENANT [--tenant …] --name NAME
# ./toolonce keys list | remove <kid>
# Signing keys of the local stack ($TOOLONCE_HOME/keyring; the services re-read it within a second; docs/security.md §6b).
# create adds the key and prints its line once, on standard output: the signer's own keyring needs that line.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLONCE_HOME="${TOOLONCE_HOME:-$ROOT/.local}"
JAR="$ROOT/schemas/target/schemas-0.1.0-SNAPSHOT.jar"
[[ -f "$JAR" ]] || (cd "$ROOT" && mvn -q -B -DskipTests package -pl schemas)
[[ $# -ge 1 ]] || { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }
cmd=$1; shift
java -cp "$JAR" dev.toolonce.schemas.signing.KeysMain "$cmd" --file "$TOOLONCE_HOME/keyring" "$@"
# the images' stack mounts a copy owned by its uid 10001: a new key must verify there, a removed one stop verifying
if [[ $cmd == create || $cmd == remove ]]; then "$ROOT/deploy/compose/stack.sh" etc-sync keyring; fi
