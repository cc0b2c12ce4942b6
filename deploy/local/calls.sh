#!/usr/bin/env bash
# ./toolonce calls list [--tenant T] [--tool T] [--operation O] [--state S] [--task ID] [--since ISO] [--until ISO]
#                       [--key-prefix P] [--limit N] [--cursor C] [--json]
# ./toolonce calls show <id> [--json]
# The executor's operator API v1 (GET /api/v1/calls): calls of your token's tenants, newest first, and one call's history.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,5p' "$0" | sed 's/^# //'; exit 2; }
want_json=0

case "${1:-}" in
  list)
    shift
    query=""
    while [[ $# -gt 0 ]]; do
      case "$1" in
        --json) want_json=1; shift ;;
        --tenant|--tool|--operation|--state|--task|--since|--until|--key-prefix|--limit|--cursor)
          [[ $# -ge 2 ]] || usage
          name=${1#--}; [[ $name == key-prefix ]] && name=keyPrefix
          query+="&$name=$(urlenc "$2")"; shift 2 ;;
        *) usage ;;
      esac
    done
    body="$(api GET "$URL/api/v1/calls?${query#&}")"
    if [[ $want_json == 1 ]] || ! command -v jq >/dev/null; then echo "$body"; exit 0; fi
    jq -r '(["ID","SCOPE","STATE","ATTEMPTS","CREATED","ERROR"] | @tsv),
        (.items[] | [.id, .scope, .state, .attempts, .createdAt, (.errorCode // "-")] | @tsv)' <<<"$body" \
      | column -t -s $'\t'
    jq -r 'if .nextCursor then "more: --cursor \(.nextCursor)" else empty end' <<<"$body" ;;
  show)
    [[ $# -ge 2 ]] || usage
    body="$(api GET "$URL/api/v1/calls/$(urlenc "$2")")"
    if [[ "${3:-}" == --json ]] || ! command -v jq >/dev/null; then echo "$body"; exit 0; fi
    jq -r '"\(.scope)  \(.state)  fence \(.fence)  attempts \(.attempts)  external \(.externalObjectId // "-")",
        (.timeline[] | "  \(.at)  \(.fromState // "-") -> \(.toState)  fence \(.fence)  \(.detail // "")"),
        (.resolutions[] | "  resolved: \(.action) by \(.operator) at \(.at): \(.note // "")")' <<<"$body" ;;
  *) usage ;;
esac
