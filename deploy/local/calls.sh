#!/usr/bin/env bash
# ./toolonce calls list [--tenant T] [--tool T] [--operation O] [--state S] [--task ID] [--since ISO] [--until ISO]
#                       [--key-prefix P] [--limit N] [--cursor C] [--json]
# ./toolonce calls show <id> [--json]
# ./toolonce calls resolve <id> commit <externalId> | retry | fail | compensate  --reason TEXT
# The executor's operator API v1 (/api/v1/calls): calls of your token's tenants, newest first, one call's history, and
# the resolution of a call in review (role operator; the reason is required and audited under your token's principal).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,7p' "$0" | sed 's/^# //'; exit 2; }
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
  resolve)
    [[ $# -ge 3 ]] || usage
    id=$2 action=$3 ext="" reason=""
    shift 3
    if [[ $action == commit ]]; then [[ $# -ge 1 && $1 != --* ]] || usage; ext=$1; shift; fi
    while [[ $# -gt 0 ]]; do
      case "$1" in --reason) [[ $# -ge 2 ]] || usage; reason=$2; shift 2 ;; *) usage ;; esac
    done
    [[ -n "$reason" ]] || { echo "--reason is required: say why this resolution is right" >&2; exit 2; }
    external=null; [[ -n "$ext" ]] && external="$(json_str "$ext")"
    api POST "$URL/api/v1/calls/$(urlenc "$id")/resolution" \
      "{\"action\":$(json_str "$action"),\"externalId\":$external,\"reason\":$(json_str "$reason")}" ;;
  *) usage ;;
esac
