#!/usr/bin/env bash
# ./toolonce tools paused
# ./toolonce tools resume <tool>
# A tool is paused when it refuses the executor's credentials (401/403); its calls wait until it is resumed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
eval "$("$ROOT/deploy/local/stack.sh" env)"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }

case "${1:-}" in
  paused) curl -fsS "$URL/tools/paused" -w '\n' ;;
  resume)
    [[ $# -eq 2 && $2 =~ ^[A-Za-z0-9._-]{1,64}$ ]] || usage
    curl -sS -X POST "$URL/tools/$2/resume" -w '\n' ;;
  *) usage ;;
esac
