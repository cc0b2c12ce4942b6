#!/usr/bin/env bash
# ./toolonce tasks list [limit] [--json] | show <taskId> | approve <taskId> <stepId> [--key KEY] | resume <taskId>   [--tenant T]
# Talks to the agent side's task API (/tasks on inbox-consumer, or on any app with the agent starter: TASKS_URL).
# An approval names the step key it approves (--key, or the key the task shows now, printed before it is sent).
# A task is known by tenant and id: --tenant names the tenant when two of yours use the same task id.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${TASKS_URL:-${CONSUMER_URL:?inbox-consumer is not running (./toolonce up), or set TASKS_URL}}"

usage() { sed -n '2,5p' "$0" | sed 's/^# //'; exit 2; }

args=() key="" tenant="" want_json=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --key) [[ $# -ge 2 ]] || usage; key=$2; shift 2 ;;
    --tenant) [[ $# -ge 2 ]] || usage; tenant=$2; shift 2 ;;
    --json) want_json=1; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
set -- "${args[@]+"${args[@]}"}"
q="" # the tenant query parameter, when one was named
[[ -n "$tenant" ]] && q="?tenant=$(urlenc "$tenant")"

case "${1:-}" in
  list)
    body="$(api GET "$URL/api/v1/tasks?limit=$(urlenc "${2:-50}")")"
    if [[ $want_json == 0 ]] && command -v jq >/dev/null; then jq -r '(["TENANT","TASK","STATE","VERSION","STEPS"] | @tsv),
        (.[] | [.tenantId, .taskId, .state, .version, ([.steps[] | .stepId + ":" + .state] | join(" "))] | @tsv)' \
        <<<"$body" | column -t -s $'\t'
    else echo "$body"; fi ;;
  show)
    [[ $# -ge 2 ]] || usage
    body="$(api GET "$URL/api/v1/tasks/$(urlenc "$2")$q")"
    if command -v jq >/dev/null; then jq . <<<"$body"; else echo "$body"; fi ;;
  approve)
    [[ $# -ge 3 ]] || usage
    task=$2 step=$3
    if [[ -z "$key" ]]; then
      command -v jq >/dev/null || { echo "pass --key (the step's idempotencyKey, from 'tasks show')" >&2; exit 2; }
      key="$(api GET "$URL/api/v1/tasks/$(urlenc "$task")$q" \
        | jq -r --arg s "$step" '.steps[] | select(.stepId == $s) | .idempotencyKey')"
      [[ -n "$key" ]] || { echo "task $task has no step $step" >&2; exit 1; }
      echo "approving step $step of $task as it is now: $key" >&2
    fi
    api POST "$URL/api/v1/tasks/$(urlenc "$task")/steps/$(urlenc "$step")/approve$q" "{\"idempotencyKey\":$(json_str "$key")}" ;;
  resume)
    [[ $# -ge 2 ]] || usage
    api POST "$URL/api/v1/tasks/$(urlenc "$2")/resume$q" ;;
  *) usage ;;
esac
