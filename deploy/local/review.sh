#!/usr/bin/env bash
# ./toolonce review list
# ./toolonce review resolve <scope> commit <externalId> | retry | fail | compensate [externalId]  [--note TEXT] [--operator NAME]
# Talks to the running executor's operator API; every resolution is audited and emits a result event.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
eval "$("$ROOT/deploy/local/stack.sh" env)"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,4p' "$0" | sed 's/^# //'; exit 2; }
json_escape() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }

case "${1:-}" in
  list)
    body="$(curl -fsS "$URL/review")"
    if command -v jq >/dev/null; then jq -r '(["SCOPE","ERROR","ATTEMPTS","MESSAGE"] | @tsv),
        (.[] | [.scope, (.errorCode // "-"), .attempts, (.errorMessage // "-")] | @tsv)' <<<"$body" | column -t -s $'\t'
    else echo "$body"; fi ;;
  resolve)
    [[ $# -ge 3 ]] || usage
    scope=$2 action=$3 ext="" note="" operator="${USER:-operator}"
    shift 3
    if [[ $action == commit ]]; then [[ $# -ge 1 ]] || usage; ext=$1; shift; fi
    if [[ $action == compensate && $# -ge 1 && $1 != --* ]]; then ext=$1; shift; fi
    while [[ $# -gt 0 ]]; do
      case "$1" in --note) note=$2; shift 2 ;; --operator) operator=$2; shift 2 ;; *) usage ;; esac
    done
    payload="{\"scope\":$(json_escape "$scope"),\"action\":$(json_escape "$action"),\"externalId\":$(json_escape "$ext"),\"operator\":$(json_escape "$operator"),\"note\":$(json_escape "$note")}"
    curl -sS -X POST -H 'Content-Type: application/json' --data "$payload" "$URL/review/resolve" -w '\n' ;;
  *) usage ;;
esac
