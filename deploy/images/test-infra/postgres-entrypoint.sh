#!/bin/bash
# PID 1 of localhost/toolonce/test-postgres (deploy/images/test-infra.sh): a PostgreSQL 15 for integration tests with
# the settings of deploy/local/stack.sh (wal_level=logical, replication slots, pg_stat_statements) and a database
# 'toolonce'. Trust authentication from loopback and from the container's own networks ('samenet': the podman bridge a
# mapped port arrives through); there is no password. Runs as the image's user, postgres.
#
#   PG_PORT               the port to listen on (default 5432: the container's port when it has a network of its own)
#   PG_LISTEN_ADDRESSES   default '*'; with host networking set it to 127.0.0.1, or the trust rules reach the host's LAN
#   arguments             given to postgres as they are (e.g. -c fsync=off); a leading 'postgres' is dropped, as
#                         the Docker Hub image does, so that clients written for that image can pass theirs
set -euo pipefail
PGDATA=/var/lib/postgresql/data
BIN=/usr/lib/postgresql/15/bin
if [[ "${1:-}" == postgres ]]; then shift; fi
if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
  "$BIN/initdb" -D "$PGDATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/tmp/initdb.log 2>&1 ||
    { cat /tmp/initdb.log >&2; exit 1; }
  printf '%s\n' "host all all samenet trust" "host replication all samenet trust" >>"$PGDATA/pg_hba.conf"
  # single-user mode: the role and database exist before the server first listens (so 'ready' means ready), and
  # the server logs 'ready to accept connections' once, where the Docker Hub image logs it twice
  user=${POSTGRES_USER:-postgres} db=${POSTGRES_DB:-toolonce}
  [[ "$user$db" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "POSTGRES_USER and POSTGRES_DB: [a-z0-9_] only" >&2; exit 1; }
  {
    if [[ "$user" != postgres ]]; then echo "CREATE ROLE $user SUPERUSER LOGIN;"; fi
    if [[ "$db" != postgres ]]; then echo "CREATE DATABASE $db OWNER $user;"; fi
  } | "$BIN/postgres" --single -D "$PGDATA" postgres >/tmp/single.log 2>&1 || { cat /tmp/single.log >&2; exit 1; }
fi
exec "$BIN/postgres" -D "$PGDATA" \
  -c listen_addresses="${PG_LISTEN_ADDRESSES:-*}" -c port="${PG_PORT:-5432}" -c unix_socket_directories=/tmp \
  -c wal_level=logical -c max_replication_slots=16 -c max_wal_senders=16 -c max_connections=300 \
  -c shared_buffers=256MB -c max_slot_wal_keep_size=2GB -c shared_preload_libraries=pg_stat_statements -c jit=off \
  "$@"
