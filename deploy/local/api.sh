# Sourced by the operator CLIs (review.sh, tasks.sh, tools.sh): calls to ToolOnce's HTTP APIs with a bearer token,
# JSON built safely, ids URL-encoded, and a non-zero exit on any refusal (docs/security.md).
#   token: TOOLONCE_TOKEN, else the file TOOLONCE_TOKEN_FILE, else $TOOLONCE_HOME/admin.token (the local stack's)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_user_token_file="${TOOLONCE_TOKEN_FILE:-}"
eval "$("$ROOT/deploy/local/stack.sh" env)"

api_token() {
  if [[ -n "${TOOLONCE_TOKEN:-}" ]]; then printf '%s' "$TOOLONCE_TOKEN"; return; fi
  local file="${_user_token_file:-${TOOLONCE_HOME:-$ROOT/.local}/admin.token}"
  [[ -r "$file" ]] || { echo "no API token: set TOOLONCE_TOKEN or TOOLONCE_TOKEN_FILE (./toolonce tokens create)" >&2; return 1; }
  tr -d '[:space:]' <"$file"
}

# api METHOD URL [JSON]: prints the answer; exits 1 (printing the problem's detail) on an HTTP status >= 400.
api() {
  local method=$1 url=$2 body=${3-} token out code
  token="$(api_token)" || exit 1
  out="$(mktemp)"
  local args=(-sS -X "$method" -o "$out" -w '%{http_code}' -H "Authorization: Bearer $token")
  [[ -n "$body" ]] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
  code="$(curl "${args[@]}" "$url")" || { rm -f "$out"; echo "cannot reach $url" >&2; exit 1; }
  if (( code >= 400 )); then
    echo "$method $url refused: HTTP $code" >&2
    cat "$out" >&2; echo >&2
    rm -f "$out"; exit 1
  fi
  cat "$out"; echo
  rm -f "$out"
}

# json_str TEXT: TEXT as a JSON string, every quote, backslash and control character escaped.
json_str() {
  local LC_ALL=C s=$1 out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      '"') out+='\"' ;;
      '\') out+='\\' ;;
      *) if [[ $c < ' ' || $c == $'\x7f' ]]; then printf -v c '\\u%04x' "'$c"; fi; out+=$c ;;
    esac
  done
  printf '"%s"' "$out"
}

# urlenc TEXT: TEXT for one path segment or query value (RFC 3986 unreserved characters kept, the rest %XX).
urlenc() {
  local LC_ALL=C s=$1 out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in [A-Za-z0-9._~-]) out+=$c ;; *) printf -v c '%%%02X' "'$c"; out+=$c ;; esac
  done
  printf '%s' "$out"
}
