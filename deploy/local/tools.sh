#!/usr/bin/env bash
# ./toolonce tools paused
# ./toolonce tools resume <tool>   (an admin token of every tenant: a pause holds every tenant's calls)
# A tool is paused when it refuses the executor's credentials (401/403); its calls wait until it is resumed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }

case "${1:-}" in
  paused) api GET "$URL/tools/paused" ;;
  resume)
    [[ $# -eq 2 && $2 =~ ^[A-Za-z0-9._-]{1,64}$ ]] || usage
    api POST "$URL/tools/$(urlenc "$2")/resume" ;;
  *) usage ;;
esac
