#!/usr/bin/env bash
# ./toolonce dlq list [TOPIC] [--code CODE] [--limit N] [--cursor C] [--json]
# ./toolonce dlq show <topic>/<partition>/<offset> [--json]
# ./toolonce dlq replay <topic>/<partition>/<offset>... --reason TEXT
# The executor's operator API v1 (/api/v1/dead-letters): the dead-letter topics and what they hold (your token's
# tenants), one dead letter with its original record, and the replay of one or several back to their topics (role
# operator; audited). A replayed record is checked again from scratch; one already applied is absorbed by the inbox.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
URL="${EXECUTOR_URL:?executor is not running (./toolonce up)}"

usage() { sed -n '2,7p' "$0" | sed 's/^# //'; exit 2; }
want_json=0
# the path of one dead letter: its topic, partition and offset, each as one URL path segment
letter_path() {
  local id=$1 topic partition offset
  offset=${id##*/}; id=${id%/*}; partition=${id##*/}; topic=${id%/*}
  [[ $topic != "$id" && $partition =~ ^[0-9]+$ && $offset =~ ^[0-9]+$ ]] \
    || { echo "a dead letter is named <topic>/<partition>/<offset> (was $1)" >&2; exit 2; }
  printf '%s/%s/%s' "$(urlenc "$topic")" "$partition" "$offset"
}

case "${1:-}" in
  list)
    shift
    topic="" query=""
    while [[ $# -gt 0 ]]; do
      case "$1" in
        --json) want_json=1; shift ;;
        --code|--limit|--cursor) [[ $# -ge 2 ]] || usage; query+="&${1#--}=$(urlenc "$2")"; shift 2 ;;
        --*) usage ;;
        *) [[ -z "$topic" ]] || usage; topic=$1; shift ;;
      esac
    done
    if [[ -z "$topic" && -n "$query" ]]; then
      echo "--code, --limit and --cursor list one topic: name it (./toolonce dlq list shows them)" >&2; exit 2
    fi
    if [[ -z "$topic" ]]; then
      body="$(api GET "$URL/api/v1/dead-letters")"
      if [[ $want_json == 1 ]] || ! command -v jq >/dev/null; then echo "$body"; exit 0; fi
      jq -r '(["TOPIC","PARTITIONS","RECORDS"] | @tsv), (.[] | [.topic, .partitions, .records] | @tsv)' <<<"$body" \
        | column -t -s $'\t'
      exit 0
    fi
    body="$(api GET "$URL/api/v1/dead-letters/$(urlenc "$topic")?${query#&}")"
    if [[ $want_json == 1 ]] || ! command -v jq >/dev/null; then echo "$body"; exit 0; fi
    jq -r '(["ID","CODE","TENANT","MESSAGE_ID","AT"] | @tsv),
        (.items[] | [.id, (.errorCode // "-"), (.tenantId // "-"), (.messageId // "-"), .deadLetteredAt] | @tsv)' \
      <<<"$body" | column -t -s $'\t'
    jq -r 'if .nextCursor then "more: --cursor \(.nextCursor)" else empty end' <<<"$body" ;;
  show)
    shift
    id=""
    while [[ $# -gt 0 ]]; do
      case "$1" in --json) want_json=1; shift ;; --*) usage ;; *) [[ -z "$id" ]] || usage; id=$1; shift ;; esac
    done
    [[ -n "$id" ]] || usage
    path="$(letter_path "$id")" # on its own line: a bad id stops here (exit 2), before any request
    body="$(api GET "$URL/api/v1/dead-letters/$path")"
    if [[ $want_json == 1 ]] || ! command -v jq >/dev/null; then echo "$body"; exit 0; fi
    jq -r '"\(.id)  \(.errorCode // "-"): \(.errorMessage // "")",
        "  tenant \(.tenantId // "none")  message \(.messageId // "-")  from \(.originalTopic // "-") \(.originalPartition // "-")/\(.originalOffset // "-")",
        (.headers | to_entries[] | "  header \(.key): \(.value // "")"),
        "  value (\(.value.encoding), \(.valueBytes) bytes): \(.value.text // "")",
        (.replays[] | "  replayed to \(.to_topic)/\(.to_partition)/\(.to_offset) by \(.principal) at \(.at): \(.reason)")' \
      <<<"$body" ;;
  replay)
    shift
    ids=() reason=""
    while [[ $# -gt 0 ]]; do
      case "$1" in
        --reason) [[ $# -ge 2 ]] || usage; reason=$2; shift 2 ;;
        --*) usage ;;
        *) letter_path "$1" >/dev/null; ids+=("$(json_str "$1")"); shift ;;
      esac
    done
    [[ ${#ids[@]} -gt 0 ]] || usage
    [[ -n "$reason" ]] || { echo "--reason is required: say why these records are sent again" >&2; exit 2; }
    body="$(api POST "$URL/api/v1/dead-letters/replay" \
      "{\"ids\":[$(IFS=,; echo "${ids[*]}")],\"reason\":$(json_str "$reason")}")"
    echo "$body"
    # a refusal of any one of them is a refusal: exit non-zero
    if command -v jq >/dev/null; then [[ "$(jq -r .refused <<<"$body")" == 0 ]] || exit 1
    else [[ "$body" == *'"refused":0'* ]] || exit 1; fi ;;
  *) usage ;;
esac
