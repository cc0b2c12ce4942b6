#!/usr/bin/env bash
# ./toolonce k8s: the Kubernetes manifests of deploy/k8s (README there).
#
#   k8s.sh render [OVERLAY]   kubectl kustomize deploy/k8s/overlays/OVERLAY (default production) to stdout
#   k8s.sh test               render base and every overlay, validate every object (test/validate.mjs: the Kubernetes
#                             API schemas, references, probes, limits, relay replicas, metric names in the code), and
#                             check that the validator refuses a broken copy. Seconds; no podman, no cluster
#   k8s.sh play [--keep]      podman kube play of the executor, result consumer and MCP gateway Deployments
#                             (overlays/podman) against the running local stack (./toolonce up, or up --images): waits until each answers 200 on
#                             /actuator/health/readiness, prints the pods, then removes them (--keep leaves them)
#
# Needs kubectl (for its built-in kustomize: `kubectl kustomize` works without a cluster) and, for test, node and
# npm (the schemas come from the npm packages in test/package.json, installed into test/node_modules once).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO_ROOT/deploy/k8s"
OUT="$HERE/target"
PLAYED=(tool-executor inbox-consumer mcp-gateway)   # the Deployments 'play' runs (the relay needs a replication slot per replica)
log() { echo "[k8s] $*"; }
die() { echo "[k8s] ERROR: $*" >&2; exit 1; }

kustomize() { # DIR
  command -v kubectl >/dev/null || die "kubectl is required for 'kubectl kustomize' (Debian: apt-get install kubernetes-client)"
  kubectl kustomize "$1"
}

render_all() {
  mkdir -p "$OUT/rendered"
  local d
  kustomize "$HERE/base" >"$OUT/rendered/base.yaml"
  for d in "$HERE"/overlays/*/; do kustomize "$d" >"$OUT/rendered/$(basename "$d").yaml"; done
}

node_deps() {
  command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are required for the schema validation"
  if [[ ! -d "$HERE/test/node_modules/kubernetes-models" ]]; then
    log "installing the schema packages (npm ci in deploy/k8s/test)"
    (cd "$HERE/test" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed"
  fi
}

cmd_test() {
  local started=$SECONDS
  render_all
  node_deps
  node "$HERE/test/validate.mjs" "$REPO_ROOT" "$OUT"/rendered/*.yaml
  # the validator must refuse what it is there to refuse: a relay of three replicas, a Deployment without selector,
  # a probe on a path that is no actuator group, a memory limit of 1 GiB, a metric the code does not register, and
  # gateways whose Service would send a session's requests to any pod
  (cd "$HERE/test" && node --input-type=module -e '
    import fs from "node:fs"; import yaml from "js-yaml";
    const docs = yaml.loadAll(fs.readFileSync(process.argv[1], "utf8"));
    const dep = (n) => docs.find((d) => d.kind === "Deployment" && d.metadata.name === n);
    dep("outbox-relay").spec.replicas = 3;
    dep("tool-executor").spec.template.spec.containers[0].readinessProbe.httpGet.path = "/health";
    dep("tool-executor").spec.template.spec.containers[0].resources.limits.memory = "1Gi";
    delete dep("inbox-consumer").spec.selector;
    delete docs.find((d) => d.kind === "Service" && d.metadata.name === "mcp-gateway").spec.sessionAffinity;
    const rule = docs.find((d) => d.kind === "PrometheusRule").spec.groups[0].rules[1];
    rule.expr = rule.expr.replace("toolonce_review_backlog", "toolonce_review_backlog_total");
    fs.writeFileSync(process.argv[2], docs.map((d) => yaml.dump(d)).join("---\n"));' \
    "$OUT/rendered/production.yaml" "$OUT/broken.yaml")
  local out rc=0
  out="$(node "$HERE/test/validate.mjs" "$REPO_ROOT" "$OUT/broken.yaml" 2>&1)" || rc=$?
  local expect missing=0
  for expect in "outbox-relay has 3 replicas" "not /actuator/health/readiness" "is not at most 512Mi" \
      "toolonce_review_backlog_total is registered by no meter" "must have required property selector" \
      "its Service has no sessionAffinity: ClientIP"; do
    [[ "$out" == *"$expect"* ]] || { echo "FAIL the validator let a broken copy through: no '$expect'"; missing=1; }
  done
  (( rc != 0 && missing == 0 )) || { echo "$out"; die "the validator's self-check failed"; }
  echo "validator self-check: a broken copy is refused ($(grep -c '^FAIL' <<<"$out") failures found)"
  log "k8s test passed in $((SECONDS - started)) s"
}

cmd_play() {
  local keep=0; [[ "${1:-}" == --keep ]] && keep=1
  command -v podman >/dev/null || die "podman is missing: apt-get install podman runc"
  # shellcheck source=deploy/images/lib.sh
  source "$REPO_ROOT/deploy/images/lib.sh"
  containers_conf "$OUT"
  local svc
  for svc in "${PLAYED[@]}"; do
    podman image exists "localhost/toolonce/$svc:$VERSION" || die "no image localhost/toolonce/$svc:$VERSION: ./toolonce images"
  done
  # the local stack's PostgreSQL and Kafka: processes (./toolonce up) or containers (./toolonce up --images)
  local env; env="$("$REPO_ROOT/deploy/local/stack.sh" env)"
  if [[ "$env" != *PG_URL=* ]] && [[ "$(podman inspect --format '{{.State.Running}}' toolonce-postgres 2>/dev/null)" == true ]]; then
    env="$("$REPO_ROOT/deploy/compose/stack.sh" env)"
  fi
  local pg kafka sandbox tokens keyring
  pg="$(sed -n 's/^PG_URL=//p' <<<"$env")"; kafka="$(sed -n 's/^KAFKA_BOOTSTRAP=//p' <<<"$env")"
  sandbox="$(sed -n 's/^SANDBOX_URL=//p' <<<"$env")"
  tokens="$(sed -n 's/^TOOLONCE_TOKENS_FILE=//p' <<<"$env")"; keyring="$(sed -n 's/^TOOLONCE_SIGNING_KEYRINGFILE=//p' <<<"$env")"
  [[ -n "$pg" && -n "$kafka" && -n "$tokens" && -n "$keyring" ]] || die "the local stack is not up: ./toolonce up (or ./toolonce up --images)"
  local etc="$OUT/play/etc"
  rm -rf "$OUT/play"; mkdir -p "$etc"
  # the gateway's catalogue token: the local stack's (made once; first, so that its hash is in the tokens copied)
  "$REPO_ROOT/deploy/local/stack.sh" credentials >/dev/null
  cp "$tokens" "$etc/tokens"; cp "$keyring" "$etc/keyring"; cp "$HERE/base/config/toolonce-executor.yml" "$etc/"
  cp "${TOOLONCE_HOME:-$REPO_ROOT/.local}/gateway.token" "$etc/catalogue.token"
  chown -R 10001:10001 "$etc"; chmod 0750 "$etc"; chmod 0440 "$etc"/*
  kustomize "$HERE/overlays/podman" | sed -e "s#PLAY_ETC#$etc#g" -e "s#PLAY_PG_URL#$pg#g" -e "s#PLAY_KAFKA#$kafka#g" \
    -e "s#PLAY_SANDBOX#${sandbox:-http://127.0.0.1:18080}#g" >"$OUT/play/all.yaml"
  node_deps
  # podman kube play takes Pods and Deployments (and a few more kinds): the three Deployments alone
  (cd "$HERE/test" && node --input-type=module -e '
    import fs from "node:fs"; import yaml from "js-yaml";
    const docs = yaml.loadAll(fs.readFileSync(process.argv[1], "utf8"))
      .filter((d) => d?.kind === "Deployment" && process.argv[3].split(" ").includes(d.metadata.name));
    fs.writeFileSync(process.argv[2], docs.map((d) => yaml.dump(d, { lineWidth: -1 })).join("---\n"));' \
    "$OUT/play/all.yaml" "$OUT/play/deployments.yaml" "${PLAYED[*]}")
  log "podman kube play $OUT/play/deployments.yaml (executor on 18091, result consumer on 18093, gateway on 18095)"
  podman kube down "$OUT/play/deployments.yaml" >/dev/null 2>&1 || true
  podman kube play "$OUT/play/deployments.yaml" || die "podman kube play failed"
  local started=$SECONDS port code ok=1 deadline=$((SECONDS + ${PLAY_READY_TIMEOUT:-420}))
  # in this order: the gateway reads the played executor's catalogue when it starts (it restarts until it can)
  for port in 18091 18093 18095; do
    code=000
    until [[ "$code" == 200 ]] || (( SECONDS > deadline )); do
      code="$(curl -s -o /dev/null -m 3 -w '%{http_code}' "http://127.0.0.1:$port/actuator/health/readiness" || true)"
      [[ "$code" == 200 ]] || sleep 2
    done
    if [[ "$code" == 200 ]]; then log "ready: 127.0.0.1:$port/actuator/health/readiness 200 after $((SECONDS - started)) s"
    else log "NOT ready: 127.0.0.1:$port/actuator/health/readiness answered $code"; ok=0; fi
  done
  local pods=() svc
  for svc in "${PLAYED[@]}"; do pods+=(--filter "pod=$svc-pod-0"); done
  podman pod ps --filter name=tool-executor --filter name=inbox-consumer --filter name=mcp-gateway
  podman ps "${pods[@]}" --format '{{.Names}} {{.Status}}'
  mkdir -p "$OUT/play/logs"
  local c
  for c in $(podman ps -a "${pods[@]}" --format '{{.Names}}'); do
    podman logs "$c" >"$OUT/play/logs/$c.log" 2>&1 || true
  done
  if (( keep )); then log "kept: podman kube down $OUT/play/deployments.yaml removes them"
  else podman kube down "$OUT/play/deployments.yaml" >/dev/null; log "removed (logs: $OUT/play/logs)"; fi
  (( ok ))
}

case "${1:-}" in
  render) kustomize "$HERE/overlays/${2:-production}" ;;
  test) cmd_test ;;
  play) shift; cmd_play "$@" ;;
  -h|--help|"") sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command $1 (render | test | play)" ;;
esac
