# Shared by deploy/images/build.sh and test.sh (sourced, not run).
# shellcheck shell=bash
VERSION=0.1.0-SNAPSHOT
IMAGE_SERVICES=(outbox-relay tool-executor inbox-consumer sandbox-tools mcp-gateway)
# The port each image listens on unless SERVER_PORT says otherwise: the local stack's (README, Configuration).
declare -A IMAGE_PORT=([sandbox-tools]=18080 [tool-executor]=18081 [outbox-relay]=18082 [inbox-consumer]=18083
  [mcp-gateway]=18085)

# podman's defaults do not work on these machines: crun fails on a hybrid cgroup hierarchy ('runc' works), and the
# default ulimits exceed what the VM lets a container set (no CAP_SYS_RESOURCE). Unless the caller names a
# configuration of their own (CONTAINERS_CONF), podman runs with this one: runc, and the host's own hard limits
# (open files at most 65536, processes at most kernel.pid_max). CONTAINERS_CONF replaces podman's other
# containers.conf files, for these commands only.
containers_conf() { # DIR
  if [[ -n "${CONTAINERS_CONF:-}" ]]; then return 0; fi
  mkdir -p "$1"
  local nofile nproc
  nofile="$(ulimit -Hn)"; [[ "$nofile" == unlimited ]] && nofile=65536
  nproc="$(ulimit -Hu)"; [[ "$nproc" == unlimited ]] && nproc=65536
  (( nofile > 65536 )) && nofile=65536
  # measured here: an nproc limit above kernel.pid_max (32768) is refused too, although the host's is 96363
  local pid_max; pid_max="$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)"
  (( nproc > pid_max )) && nproc=$pid_max
  cat >"$1/containers.conf" <<EOF
# Written by deploy/images (./toolonce images): podman's settings on a VM without CAP_SYS_RESOURCE.
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
EOF
  export CONTAINERS_CONF="$1/containers.conf"
}

# log and die are the calling script's (each names itself in its lines).

# require_podman_tools: podman, runc and mmdebstrap, installed from Debian only as root with CI=true (and said so);
# otherwise named with the packages that bring them.
require_podman_tools() {
  local pkgs=()
  command -v podman >/dev/null || pkgs+=(podman)
  command -v runc >/dev/null || pkgs+=(runc)
  command -v mmdebstrap >/dev/null || pkgs+=(mmdebstrap)
  (( ${#pkgs[@]} )) || return 0
  if [[ $EUID -eq 0 && "${CI:-}" == true ]]; then
    log "installing ${pkgs[*]} (CI=true, root): apt-get install -y ${pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null && apt-get install -y -q "${pkgs[@]}" >/dev/null
  else
    die "missing: ${pkgs[*]}. Install the Debian packages: apt-get install ${pkgs[*]}"
  fi
}

# mmdebstrap_base TAR LOG RECIPE_FILE: a Debian root file system as a tarball, from the caller's BASE_SUITE,
# BASE_PACKAGES, BASE_DPKG_EXCLUDES, BASE_ESSENTIAL_HOOK and BASE_HOOK. Every time stamp is the last commit of
# RECIPE_FILE (SOURCE_DATE_EPOCH), so the same packages give the same tarball; the copyright files stay (the
# licences of what the image ships). /usr is merged by mmdebstrap's merged-usr hook (usr-is-merged, not usrmerge,
# which would bring the whole of perl).
mmdebstrap_base() {
  local tar=$1 logfile=$2 recipe=$3 opts=() p epoch
  for p in "${BASE_DPKG_EXCLUDES[@]}"; do opts+=("--dpkgopt=path-exclude=$p"); done
  opts+=("--dpkgopt=path-include=/usr/share/doc/*/copyright")
  epoch="$(git -C "$(dirname "$recipe")" log -1 --format=%ct -- "$recipe" 2>/dev/null || true)"
  SOURCE_DATE_EPOCH="${epoch:-1767225600}" nice -n 10 mmdebstrap --verbose --format=tar --variant=essential \
      --include="$BASE_PACKAGES" --aptopt='Acquire::Check-Valid-Until "false"' \
      --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr "${opts[@]}" \
      --essential-hook="$BASE_ESSENTIAL_HOOK" --customize-hook="$BASE_HOOK" \
      "$BASE_SUITE" "$tar.tmp" >"$logfile" 2>&1 ||
    { rm -f "$tar.tmp"; tail -n 30 "$logfile" >&2; die "mmdebstrap failed (log: $logfile)"; }
  mv -f "$tar.tmp" "$tar"
}

human() { numfmt --to=iec-i --suffix=B --format='%.1f' "$1"; }

# size_table BASE IMAGE...: each image's size and what it adds to the base it shares
size_table() {
  local base=$1 image size base_size; shift
  base_size="$(podman image inspect --format '{{.Size}}' "$base")"
  printf '%-52s %10s %12s\n' IMAGE SIZE "ABOVE BASE"
  printf '%-52s %10s %12s\n' "$base" "$(human "$base_size")" -
  for image in "$@"; do
    size="$(podman image inspect --format '{{.Size}}' "$image")"
    printf '%-52s %10s %12s\n' "$image" "$(human "$size")" "$(human $((size - base_size)))"
  done
}

# tidy_images BASE LABEL: the bases of older recipes (the repository of BASE, other tags) and the images a rebuild
# untagged, only those carrying LABEL; podman refuses to remove one a container still uses, which is left alone.
tidy_images() {
  local base=$1 label=$2 ref
  while IFS= read -r ref; do
    [[ "$ref" == "$base" ]] || podman rmi "$ref" >/dev/null 2>&1 || true
  done < <(podman images --format '{{.Repository}}:{{.Tag}}' --filter reference="${base%:*}")
  podman image prune -f --filter "label=$label" >/dev/null 2>&1 || true
}
