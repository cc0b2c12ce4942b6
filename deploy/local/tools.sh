#!/usr/bin/env bash
# ./toolonce tools paused [--json]
# ./toolonce tools resume <tool> [--tenant T]   (default '*': the pause of every tenant, which needs an admin of every tenant)
# A tool is paused when it refuses the executor's credentials (401/403): for one tenant when that tenant's own credential
# was refused, for every tenant ('*') when the shared one was; the calls it holds wait until that pause is resumed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }

NAME='^[A-Za-z0-9._-]{1,64}$'
case "${1:-}" in
  paused)
    [[ $# -eq 1 || ( $# -eq 2 && $2 == --json ) ]] || usage
    body="$(api GET "$URL/api/v1/tools/paused")"
    if [[ $# -eq 1 ]] && command -v jq >/dev/null; then jq -r '(["TOOL","TENANT","PAUSED_AT","REASON"] | @tsv),
        (.[] | [.tool, .tenant_id, .paused_at, .reason] | @tsv)' <<<"$body" | column -t -s $'\t'
    else echo "$body"; fi ;;
  resume)
    [[ $# -eq 2 || $# -eq 4 ]] || usage
    tool=$2 tenant='*'
    [[ $tool =~ $NAME ]] || usage
    if [[ $# -eq 4 ]]; then
      [[ $3 == --tenant && ( $4 == '*' || $4 =~ $NAME ) ]] || usage
      tenant=$4
    fi
    api POST "$URL/api/v1/tools/$(urlenc "$tool")/resume?tenant=$(urlenc "$tenant")" ;;
  *) usage ;;
esac
