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
