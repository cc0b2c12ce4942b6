#!/usr/bin/env bash
# ./toolonce images --test-infra: the images of the integration tests' PostgreSQL and Kafka, for test-support's
# ContainerStack (Testcontainers against podman's Docker API), built here with podman; nothing is pulled.
#
#   test-infra.sh [--rebuild-base]
#
# 1. a root file system of Debian bookworm made by mmdebstrap: Essential packages, postgresql-15 (its contrib modules:
#    test_decoding, pg_stat_statements) and openjdk-17-jre-headless; the user kafka (uid 10001); imported as
#    localhost/toolonce/test-infra-base:<recipe digest>. Rebuilt only when the recipe below changes, or with
#    --rebuild-base (Debian's security updates). Both images share it as their first layer.
# 2. localhost/toolonce/test-postgres:15      test-infra/postgres-entrypoint.sh: initdb at the first start, the
#                                             settings of deploy/local/stack.sh, a database 'toolonce'; usable as
#                                             the Docker Hub 'postgres' (POSTGRES_DB, POSTGRES_USER, arguments)
# 3. localhost/toolonce/test-kafka:4.1.2      the broker jars that deploy/local/kafka/pom.xml resolves (the same as
#                                             stack.sh's broker) and test-infra/kafka-run.sh: KRaft, storage
#                                             formatted at the first start, configured from KAFKA_* variables as
#                                             the apache/kafka image is
# Each image is skipped when one of exactly these inputs exists (label dev.toolonce.image.inputs). Prints the sizes.
# Installs nothing by itself, except as root with CI=true: 'apt-get install -y podman runc mmdebstrap', said so.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO_ROOT/deploy/images"
SRC="$HERE/test-infra"
WORK="$HERE/target/test-infra"
# shellcheck source=deploy/images/lib.sh
source "$HERE/lib.sh"

PG_IMAGE=localhost/toolonce/test-postgres:15
KAFKA_IMAGE=localhost/toolonce/test-kafka:4.1.2

log() { echo "[test-infra] $*"; }
die() { echo "[test-infra] ERROR: $*" >&2; exit 1; }

REBUILD_BASE=0
for arg in "$@"; do
  case "$arg" in
    --rebuild-base) REBUILD_BASE=1 ;;
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $arg (try --help)" ;;
  esac
done

require_tools() {
  require_podman_tools
  command -v mvn >/dev/null || die "mvn is required to resolve the Kafka broker's jars (deploy/local/kafka/pom.xml)"
}

# ---------------------------------------------------------------- the shared root file system
BASE_SUITE=bookworm
BASE_PACKAGES=postgresql-15,openjdk-17-jre-headless
BASE_DPKG_EXCLUDES=('/usr/share/man/*' '/usr/share/info/*' '/usr/share/locale/*' '/usr/share/doc/*'
  '/usr/share/lintian/*' '/usr/share/bash-completion/*'
  # PostgreSQL's JIT (llvmjit.so loads LLVM 14, which needs z3): 130 MB that a test's short queries do not use; the
  # entrypoint sets jit=off, and without its provider library PostgreSQL runs without JIT anyway
  '/usr/lib/postgresql/15/lib/llvmjit*' '/usr/lib/postgresql/15/lib/bitcode/*' '/usr/lib/*/libLLVM-*'
  '/usr/lib/*/libz3.so*')
# as in build.sh: the JRE's post-installation script links man pages into a directory the excludes leave out
BASE_ESSENTIAL_HOOK='mkdir -p "$1/usr/share/man/man1"'
# postgresql-common's post-installation script made a cluster 'main' that nothing uses (the entrypoint makes its own
# in /var/lib/postgresql/data, owned by postgres); kafka is uid 10001 with /var/lib/kafka; no file that only records
# when or where the build ran.
BASE_HOOK='set -e
rm -rf "$1/var/lib/postgresql/15" "$1/etc/postgresql/15"
mkdir -p "$1/var/lib/postgresql/data"; chroot "$1" chown postgres:postgres /var/lib/postgresql/data
chmod 0700 "$1/var/lib/postgresql/data"
echo "kafka:x:10001:10001:Kafka:/var/lib/kafka:/usr/sbin/nologin" >>"$1/etc/passwd"
echo "kafka:x:10001:" >>"$1/etc/group"
if [ -f "$1/etc/shadow" ]; then echo "kafka:!:1::::::" >>"$1/etc/shadow"; fi
mkdir -p "$1/var/lib/kafka/data" "$1/opt/kafka"; chown -R 10001:10001 "$1/var/lib/kafka"
rm -rf "$1/usr/share/man" "$1"/var/log/* "$1"/var/cache/* "$1"/tmp/* "$1"/var/lib/apt/lists/*
rm -f "$1/etc/machine-id" "$1/etc/hostname" "$1/etc/resolv.conf"'

base_recipe() {
  printf '%s\n' "suite=$BASE_SUITE" "variant=essential" "include=$BASE_PACKAGES" "excludes=${BASE_DPKG_EXCLUDES[*]}" \
    "merged-usr=hooks/merged-usr" "essential-hook=$BASE_ESSENTIAL_HOOK" "hook=$BASE_HOOK"
}

build_base() {
  local key; key="$(base_recipe | sha256sum | cut -c1-12)"
  BASE="localhost/toolonce/test-infra-base:$BASE_SUITE-$key"
  if (( ! REBUILD_BASE )) && podman image exists "$BASE"; then
    log "base $BASE: up to date"
    return 0
  fi
  mkdir -p "$WORK"
  local tar="$WORK/base-$key.tar" started=$SECONDS
  log "base $BASE: mmdebstrap $BASE_SUITE (Essential packages + $BASE_PACKAGES), a minute or two"
  mmdebstrap_base "$tar" "$WORK/mmdebstrap.log" "$HERE/test-infra.sh"
  podman import --quiet --change "ENV LANG=C.UTF-8" \
    --change "LABEL org.opencontainers.image.title=toolonce-test-infra-base" \
    --message "toolonce test infrastructure: Debian $BASE_SUITE, $BASE_PACKAGES" "$tar" "$BASE" >/dev/null
  rm -f "$tar"
  log "base $BASE: built in $((SECONDS - started)) s"
}

# ---------------------------------------------------------------- the two images
# build_image IMAGE CONTAINERFILE CONTEXT: skipped when the image's inputs label matches
build_image() {
  local image=$1 file=$2 context=$3 started=$SECONDS inputs have
  inputs="$( { podman image inspect --format '{{.Id}}' "$BASE"; sha256sum "$file";
    (cd "$context" && find . -type f -printf '%p %s\n' | sort; find . -maxdepth 1 -type f -exec sha256sum {} + | sort)
  } | sha256sum | cut -c1-16)"
  have="$(podman image inspect --format '{{index .Config.Labels "dev.toolonce.image.inputs"}}' "$image" \
    2>/dev/null || true)"
  if [[ "$have" == "$inputs" ]]; then
    log "$image: up to date"
    return 0
  fi
  nice -n 10 podman build --quiet --format docker --layers -f "$file" --build-arg BASE="$BASE" \
      --label org.opencontainers.image.base.name="$BASE" --label dev.toolonce.test-infra=true \
      --label dev.toolonce.image.inputs="$inputs" -t "$image" "$context" >"$WORK/build.log" 2>&1 ||
    { cat "$WORK/build.log" >&2; die "podman build of $image failed"; }
  log "$image: built in $((SECONDS - started)) s"
}

postgres_context() {
  rm -rf "$WORK/postgres"; mkdir -p "$WORK/postgres"
  cp "$SRC/postgres-entrypoint.sh" "$WORK/postgres/"
}

# The jars of stack.sh's broker (its kafka-classpath: resolved once per checkout), copied, not linked.
kafka_context() {
  local cp jar jars
  cp="$(TOOLONCE_HOME="$WORK/kafka-home" "$REPO_ROOT/deploy/local/stack.sh" kafka-classpath)" ||
    die "cannot resolve the Kafka broker's classpath (deploy/local/stack.sh kafka-classpath)"
  rm -rf "$WORK/kafka"; mkdir -p "$WORK/kafka/libs"
  IFS=: read -ra jars <<<"$cp"
  for jar in "${jars[@]}"; do cp "$jar" "$WORK/kafka/libs/"; done
  cp "$SRC/kafka-run.sh" "$REPO_ROOT/deploy/local/kafka/broker.properties" "$WORK/kafka/"
  chmod -R u=rwX,go=rX "$WORK/kafka"
}


require_tools
mkdir -p "$WORK"
containers_conf "$WORK"
started=$SECONDS
build_base
postgres_context
build_image "$PG_IMAGE" "$SRC/postgres.Containerfile" "$WORK/postgres"
kafka_context
build_image "$KAFKA_IMAGE" "$SRC/kafka.Containerfile" "$WORK/kafka"
tidy_images "$BASE" dev.toolonce.test-infra=true
log "done in $((SECONDS - started)) s"
size_table "$BASE" "$PG_IMAGE" "$KAFKA_IMAGE"
