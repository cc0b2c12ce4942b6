#!/usr/bin/env bash
# ./toolonce review list [limit] [--json] | audit [limit]
# ./toolonce review resolve <scope> commit <externalId> | retry | fail | compensate [externalId]  [--note TEXT]
# Talks to the executor's operator API with your API token; every resolution is audited under the token's principal.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,4p' "$0" | sed 's/^# //'; exit 2; }

case "${1:-}" in
  list)
    shift
    limit=100 want_json=0
    for a in "$@"; do
      if [[ $a == --json ]]; then want_json=1; elif [[ $a =~ ^[0-9]+$ ]]; then limit=$a; else usage; fi
    done
    body="$(api GET "$URL/api/v1/reviews?limit=$(urlenc "$limit")")"
    if [[ $want_json == 0 ]] && command -v jq >/dev/null; then jq -r '(["ID","SCOPE","ERROR","ATTEMPTS","MESSAGE"] | @tsv),
        (.items[] | [.id, .scope, (.errorCode // "-"), .attempts, (.errorMessage // "-")] | @tsv)' <<<"$body" \
        | column -t -s $'\t'
    else echo "$body"; fi ;;
  audit) api GET "$URL/api/v1/audit?limit=$(urlenc "${2:-100}")" ;;
  resolve)
    [[ $# -ge 3 ]] || usage
    scope=$2 action=$3 ext="" note=""
    shift 3
    if [[ $action == commit ]]; then [[ $# -ge 1 ]] || usage; ext=$1; shift; fi
    if [[ $action == compensate && $# -ge 1 && $1 != --* ]]; then ext=$1; shift; fi
    while [[ $# -gt 0 ]]; do
      case "$1" in --note) [[ $# -ge 2 ]] || usage; note=$2; shift 2 ;; *) usage ;; esac
    done
    api POST "$URL/review/resolve" "{\"scope\":$(json_str "$scope"),\"action\":$(json_str "$action"),\"externalId\":$(json_str "$ext"),\"note\":$(json_str "$note")}" ;;
  *) usage ;;
esac
