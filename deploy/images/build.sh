#!/usr/bin/env bash
# ./toolonce images: OCI images of the services, built here with podman from Debian packages and the exec jars.
#
#   build.sh [--rebuild-base] [--test] [SERVICE...]
#
# 1. base  localhost/toolonce/base:<recipe>  a Debian bookworm root file system made by mmdebstrap (Essential
#          packages, openjdk-17-jre-headless, ca-certificates, the user toolonce uid 10001; no apt, no docs), imported
#          with 'podman import'. No image registry is reachable from these machines, so nothing is pulled. Rebuilt
#          only when its recipe below changes, or with --rebuild-base (to take Debian's security updates).
# 2. one image per service, localhost/toolonce/<service>:<version> and :<git short sha>, from deploy/images/
#          Containerfile: the exec jar's Spring Boot layers as two image layers, USER 10001, /etc/toolonce for
#          mounted configuration, container-aware JVM flags, HEALTHCHECK on /ready, OCI labels. Skipped when an image of exactly these
#          inputs (jar digest, Containerfile, base, revision) exists.
#
# --test runs deploy/images/test.sh afterwards (the images under podman against a PostgreSQL and Kafka of its own).
# Installs nothing by itself: missing tools are named with the Debian packages that bring them; only as root with
# CI=true (like .ci/run for PostgreSQL) does it run 'apt-get install -y podman runc mmdebstrap', and says so.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO_ROOT/deploy/images"
WORK="$HERE/target"
# shellcheck source=deploy/images/lib.sh
source "$HERE/lib.sh"
SERVICES=("${IMAGE_SERVICES[@]}")

log() { echo "[images] $*"; }
die() { echo "[images] ERROR: $*" >&2; exit 1; }

usage() {
  cat <<USAGE
usage: ./toolonce images [--rebuild-base] [--test] [SERVICE...]
  builds localhost/toolonce/base and localhost/toolonce/<service>:$VERSION (+ :<git short sha>) for
  ${SERVICES[*]} (or the SERVICEs named), then prints their sizes.
  --rebuild-base  make the Debian base again even if its recipe is unchanged (security updates)
  --test          then run the image test (deploy/images/test.sh): containers against a private PostgreSQL and Kafka
USAGE
}

REBUILD_BASE=0 RUN_TEST=0 ONLY=()
for arg in "$@"; do
  case "$arg" in
    --rebuild-base) REBUILD_BASE=1 ;;
    --test) RUN_TEST=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; die "unknown option $arg" ;;
    *) [[ -n "${IMAGE_PORT[$arg]:-}" ]] || die "unknown service '$arg' (one of: ${SERVICES[*]})"; ONLY+=("$arg") ;;
  esac
done
(( ${#ONLY[@]} )) && SERVICES=("${ONLY[@]}")

# ---------------------------------------------------------------- tools
require_tools() {
  require_podman_tools
  command -v java >/dev/null || die "java (17) is required to extract the jars' layers"
}

# ---------------------------------------------------------------- the base image
# The recipe: everything that decides the base's content. Its digest names the base, so a change rebuilds it.
BASE_SUITE=bookworm
BASE_PACKAGES=openjdk-17-jre-headless,ca-certificates
BASE_DPKG_EXCLUDES=('/usr/share/man/*' '/usr/share/info/*' '/usr/share/locale/*' '/usr/share/doc/*'
  '/usr/share/lintian/*' '/usr/share/bash-completion/*')   # quoted: patterns for dpkg, not for this shell
# /usr is merged by mmdebstrap's merged-usr hook, which installs usr-is-merged instead of usrmerge: usrmerge would
# bring the whole of perl (47 MB) for a conversion that a new root file system does not need.
# Runs after the Essential packages are in, before the JRE: its post-installation script links the man pages of
# 'java' (update-alternatives) and fails when their directory, excluded above, is missing.
BASE_ESSENTIAL_HOOK='mkdir -p "$1/usr/share/man/man1"'
# Runs in mmdebstrap's customize phase with the root file system as $1: the user, its home, the mount point, and no
# file that only records when or where the build ran.
BASE_HOOK='set -e
echo "toolonce:x:10001:10001:ToolOnce:/home/toolonce:/usr/sbin/nologin" >>"$1/etc/passwd"
echo "toolonce:x:10001:" >>"$1/etc/group"
if [ -f "$1/etc/shadow" ]; then echo "toolonce:!:1::::::" >>"$1/etc/shadow"; fi
mkdir -p "$1/home/toolonce" "$1/etc/toolonce" "$1/opt/toolonce"
chown 10001:10001 "$1/home/toolonce"; chmod 0750 "$1/home/toolonce"
rm -rf "$1/usr/share/man" "$1"/var/log/* "$1"/var/cache/* "$1/var/cache/ldconfig/aux-cache" "$1"/tmp/* "$1"/var/lib/apt/lists/*
rm -f "$1/etc/machine-id" "$1/etc/hostname" "$1/etc/resolv.conf"'

base_recipe() {
  printf '%s\n' "suite=$BASE_SUITE" "variant=essential" "include=$BASE_PACKAGES" "excludes=${BASE_DPKG_EXCLUDES[*]}" \
    "merged-usr=hooks/merged-usr" "essential-hook=$BASE_ESSENTIAL_HOOK" "hook=$BASE_HOOK" \
    "changes=$(base_changes | tr '\n' ' ')"
}
base_changes() {
  printf '%s\n' "USER 10001" "WORKDIR /opt/toolonce" "ENV LANG=C.UTF-8" \
    "LABEL org.opencontainers.image.title=toolonce-base" \
    "LABEL org.opencontainers.image.description=\"Debian $BASE_SUITE: openjdk-17-jre-headless, ca-certificates, user toolonce 10001\""
}

build_base() {
  local key; key="$(base_recipe | sha256sum | cut -c1-12)"
  BASE="localhost/toolonce/base:$BASE_SUITE-jre17-$key"
  if (( ! REBUILD_BASE )) && podman image exists "$BASE"; then
    log "base $BASE: up to date"
    return 0
  fi
  mkdir -p "$WORK"
  local tar="$WORK/base-$key.tar" started=$SECONDS p changes=()
  log "base $BASE: mmdebstrap $BASE_SUITE (Essential packages + $BASE_PACKAGES), a minute or two"
  mmdebstrap_base "$tar" "$WORK/mmdebstrap.log" "$HERE/build.sh"
  while IFS= read -r p; do changes+=(--change "$p"); done < <(base_changes)
  podman import --quiet "${changes[@]}" --message "toolonce base: Debian $BASE_SUITE, $BASE_PACKAGES, user toolonce 10001" \
    "$tar" "$BASE" >/dev/null
  rm -f "$tar"
  log "base $BASE: built in $((SECONDS - started)) s"
}

# ---------------------------------------------------------------- the service images
jar_of() { echo "$REPO_ROOT/$1/target/$1-$VERSION-exec.jar"; }

# The jars are built when one is missing or older than a source or pom of the repository (as ./toolonce demo does).
ensure_jars() {
  local m stale=0 jar
  for m in "${SERVICES[@]}"; do
    jar="$(jar_of "$m")"
    if [[ ! -f "$jar" ]] || [[ -n "$(find "$REPO_ROOT" \( -path "$REPO_ROOT/.local" -o -path "$REPO_ROOT/.git" \) -prune \
          -o \( -path '*/src/main/*' -o -name pom.xml \) -type f -newer "$jar" -print -quit)" ]]; then
      stale=1; break
    fi
  done
  (( stale )) || return 0
  log "building the service jars: mvn -q -B -DskipTests package"
  (cd "$REPO_ROOT" && mvn -q -B -DskipTests package) || die "the Maven build failed"
}

# extract SERVICE: the jar's layers in $WORK/<service>/layers, again only when the jar changed.
extract() {
  local name=$1 jar dir digest; jar="$(jar_of "$1")"; dir="$WORK/$name"
  digest="$(sha256sum "$jar" | cut -d' ' -f1)"
  if [[ -f "$dir/jar.sha256" && "$(<"$dir/jar.sha256")" == "$digest" && -f "$dir/layers/application/app.jar" \
        && ! -e "$dir/layers/spring-boot-loader" ]]; then
    JAR_DIGEST=$digest; return 0
  fi
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && java -Djarmode=tools -jar "$jar" extract --layers --destination layers >"$dir/extract.log" 2>&1) ||
    { cat "$dir/extract.log" >&2; die "cannot extract the layers of $jar"; }
  local l
  for l in dependencies spring-boot-loader snapshot-dependencies application; do mkdir -p "$dir/layers/$l"; done
  # two layers in the image: what seldom changes, and what changes with the code (snapshot jars, loader, classes)
  cp -a "$dir/layers/snapshot-dependencies/." "$dir/layers/spring-boot-loader/." "$dir/layers/application/"
  rm -rf "$dir/layers/snapshot-dependencies" "$dir/layers/spring-boot-loader"
  mv "$dir/layers/application/$(basename "$jar")" "$dir/layers/application/app.jar"
  # every file owned by root, readable by all, writable by none but root: the service cannot change its own code
  chmod -R u=rwX,go=rX "$dir/layers"
  echo "$digest" >"$dir/jar.sha256"
  JAR_DIGEST=$digest
}

build_service() {
  local name=$1 image="localhost/toolonce/$1" started=$SECONDS inputs have
  extract "$name"
  inputs="$(printf '%s\n' "$JAR_DIGEST" "$(sha256sum "$HERE/Containerfile")" "$BASE" \
    "$(podman image inspect --format '{{.Id}}' "$BASE")" "$REVISION" "$CREATED" "${IMAGE_PORT[$name]}" \
    | sha256sum | cut -c1-16)"
  have="$(podman image inspect --format '{{index .Config.Labels "dev.toolonce.image.inputs"}}' "$image:$VERSION" \
    2>/dev/null || true)"
  if [[ "$have" == "$inputs" ]]; then
    podman tag "$image:$VERSION" "$image:$SHORT"
    log "$name: up to date ($image:$VERSION, :$SHORT)"
    return 0
  fi
  # --timestamp: every file and the image's creation time are the commit's, so the same inputs give the same layer
  # digests (the image ID still differs: buildah's history entries);
  # --format docker: the OCI format has no HEALTHCHECK (podman drops it); the labels are the same in both
  nice -n 10 podman build --quiet --format docker --layers --timestamp "$EPOCH" -f "$HERE/Containerfile" \
      --build-arg BASE="$BASE" --build-arg PORT="${IMAGE_PORT[$name]}" \
      --label org.opencontainers.image.title="toolonce-$name" \
      --label org.opencontainers.image.description="ToolOnce $name: effectively-once tool calls for AI agents" \
      --label org.opencontainers.image.vendor=ToolOnce --label org.opencontainers.image.version="$VERSION" \
      --label org.opencontainers.image.revision="$REVISION" --label org.opencontainers.image.created="$CREATED" \
      --label org.opencontainers.image.base.name="$BASE" --label dev.toolonce.service="$name" \
      --label dev.toolonce.config=/etc/toolonce \
      --label dev.toolonce.probes="/ready /actuator/health/readiness /actuator/health/liveness" \
      --label dev.toolonce.image.inputs="$inputs" -t "$image:$VERSION" -t "$image:$SHORT" "$WORK/$name/layers" \
      >"$WORK/$name/build.log" 2>&1 ||
    { cat "$WORK/$name/build.log" >&2; die "podman build of $name failed"; }
  log "$name: built $image:$VERSION (:$SHORT) in $((SECONDS - started)) s"
}

# ---------------------------------------------------------------- main
require_tools
containers_conf "$WORK"
started=$SECONDS
REVISION="$(git -C "$REPO_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
SHORT="$(git -C "$REPO_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
EPOCH="$(git -C "$REPO_ROOT" log -1 --format=%ct 2>/dev/null || echo 0)"
# a tree with changes is labelled as such: the image is not exactly that commit
if [[ -n "$(git -C "$REPO_ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  REVISION="$REVISION-dirty"; SHORT="$SHORT-dirty"
fi
CREATED="$(date -u -d "@$EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
ensure_jars
build_base
for svc in "${SERVICES[@]}"; do build_service "$svc"; done
tidy_images "$BASE" dev.toolonce.service
log "done in $((SECONDS - started)) s (revision $REVISION)"
images=(); for svc in "${SERVICES[@]}"; do images+=("localhost/toolonce/$svc:$VERSION"); done
size_table "$BASE" "${images[@]}"
if (( RUN_TEST )); then exec "$HERE/test.sh" --no-build; fi
