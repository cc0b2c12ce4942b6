#!/usr/bin/env bash
# ./toolonce test: every test of the project, in four steps that stop at the first failure.
#
#   1. deploy/images/test-infra.sh     the PostgreSQL and Kafka images Testcontainers starts in ContainerStackIT
#                                      (built from Debian packages and the broker's jars; skipped when up to date)
#   2. mvn -B verify -Pcontainers      unit, integration, system and browser tests (ContainerStackIT among them)
#   3. deploy/k8s/k8s.sh test          the Kubernetes manifests against the API schemas, and the validator's self-check
#   4. deploy/images/build.sh --test   the services' images, built and run under podman: probes, uid, credentials,
#                                      the demo and an MCP session through the containers
#
# ./toolonce test ARGS... runs Maven alone with ARGS (e.g. -pl system-tests -Dit.test=RecoveryIT), for one part.
# Needs Java 17, Maven, PostgreSQL 15's binaries, Chromium with chromedriver, podman with runc, mmdebstrap, kubectl,
# node and npm (README, "Run the tests"); .ci/run installs the Debian ones on a clean machine.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REPO_ROOT"

if (( $# )); then exec mvn -B verify "$@"; fi

# What the later steps need and no script installs, checked before a Maven run of twenty minutes (podman, runc and
# mmdebstrap the image scripts install themselves as root with CI=true, or name the packages)
missing=()
for tool in kubectl node npm curl python3; do command -v "$tool" >/dev/null || missing+=("$tool"); done
(( ${#missing[@]} == 0 )) || { echo "[test] missing: ${missing[*]} (the manifests' and images' steps need them; README, The two commands)" >&2; exit 1; }

STEPS=()
step() { # NAME COMMAND...
  local name=$1 started=$SECONDS; shift
  echo "[test] ${name}: $*"
  "$@" || { echo "[test] FAILED: $name ($((SECONDS - started)) s)" >&2; exit 1; }
  STEPS+=("$(printf '%-16s %5d s' "$name" $((SECONDS - started)))")
}
started=$SECONDS
step test-infra deploy/images/test-infra.sh
step maven mvn -B verify -Pcontainers
step manifests deploy/k8s/k8s.sh test
step images deploy/images/build.sh --test
echo "[test] all passed in $((SECONDS - started)) s:"
printf '[test]   %s\n' "${STEPS[@]}"
