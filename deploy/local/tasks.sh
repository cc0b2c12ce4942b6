#!/usr/bin/env bash
# ./toolonce tasks list [limit] | show <taskId> | approve <taskId> <stepId> [--operator NAME] | resume <taskId>
# Talks to the agent side's task API (/tasks on inbox-consumer, or on any app with the agent starter: TASKS_URL).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
eval "$("$ROOT/deploy/local/stack.sh" env)"
URL="${TASKS_URL:-${CONSUMER_URL:?inbox-consumer is not running (./toolonce up), or set TASKS_URL}}"

usage() { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }
json_escape() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }

case "${1:-}" in
  list)
    body="$(curl -fsS "$URL/tasks?limit=${2:-50}")"
    if command -v jq >/dev/null; then jq -r '(["TASK","STATE","VERSION","STEPS"] | @tsv),
        (.[] | [.taskId, .state, .version, ([.steps[] | .stepId + ":" + .state] | join(" "))] | @tsv)' <<<"$body" \
        | column -t -s $'\t'
    else echo "$body"; fi ;;
  show)
    [[ $# -ge 2 ]] || usage
    body="$(curl -fsS "$URL/tasks/$2")"
    if command -v jq >/dev/null; then jq . <<<"$body"; else echo "$body"; fi ;;
  approve)
    [[ $# -ge 3 ]] || usage
    task=$2 step=$3 operator="${USER:-operator}"
    shift 3
    while [[ $# -gt 0 ]]; do
      case "$1" in --operator) operator=$2; shift 2 ;; *) usage ;; esac
    done
    curl -sS -X POST -H 'Content-Type: application/json' --data "{\"operator\":$(json_escape "$operator")}" \
      "$URL/tasks/$task/steps/$step/approve" -w '\n' ;;
  resume)
    [[ $# -ge 2 ]] || usage
    curl -sS -X POST "$URL/tasks/$2/resume" -w '\n' ;;
  *) usage ;;
esac
