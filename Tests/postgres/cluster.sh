#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: Debian's PostgreSQL 15 in a folder of its own, on
# 127.0.0.1 and a unix socket in that folder, with a role that logs in by password, and TLS (a
# self-signed certificate for 127.0.0.1, its copy in DIR/root.crt for clients that verify it).
#
#   Tests/postgres/cluster.sh start DIR PORT   makes the cluster in DIR/data the first time, starts
#                                              it, and prints the test role's URL (password included:
#                                              a random one, kept in DIR/password)
#   Tests/postgres/cluster.sh stop DIR         stops it (pg_ctl -m fast); DIR stays, to be started again
#
# initdb refuses to run as root: as root, the cluster belongs to the `postgres` user (which Debian's
# package creates) and DIR is given to it, so DIR's parents must be searchable by it (/tmp is).
# Debian's own cluster (pg_ctlcluster, port 5432), when the package made and started one, is neither
# used nor touched. Environment: POSTGRES_BIN (/usr/lib/postgresql/15/bin).
set -euo pipefail
bin=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
role=cellar_test

usage() { echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 64; }

# as_owner COMMAND...: runs a PostgreSQL program as the cluster's owner, from DIR.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        (cd "$dir" && runuser -u postgres -- "$@")
    else
        (cd "$dir" && "$@")
    fi
}

start() {
    [ -x "$bin/initdb" ] || { echo "no PostgreSQL in $bin (apt-get install postgresql-15)" >&2; exit 69; }
    command -v openssl >/dev/null || { echo "no openssl to make the cluster's TLS certificate (apt-get install openssl)" >&2; exit 69; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" = 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "no postgres user to own the cluster (apt-get install postgresql-15 makes it)" >&2; exit 69; }
        chown postgres:postgres "$dir"
    fi
    chmod 700 "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        # The superuser logs in through the socket only (trust, for this script); TCP asks every
        # role for its password.
        as_owner "$bin/initdb" --pgdata="$dir/data" --username=postgres --locale=C --encoding=UTF8 \
            --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 40
shared_buffers = 32MB
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
ssl = on
CONF
        # TLS with a self-signed certificate for 127.0.0.1 (libpq's default sslmode=prefer uses it;
        # verify-full checks it against DIR/root.crt, a copy).
        openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
            -keyout "$dir/data/server.key" -out "$dir/data/server.crt" 2>"$dir/openssl.log" || { cat "$dir/openssl.log" >&2; exit 1; }
        chmod 600 "$dir/data/server.key"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir/data/server.key" "$dir/data/server.crt"
        cp "$dir/data/server.crt" "$dir/root.crt"
        chmod 644 "$dir/root.crt"
        head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$dir/password"
        chmod 644 "$dir/password"
        touch "$dir/new"
    fi
    # Started already: leave it running (the same URL).
    if ! as_owner "$bin/pg_ctl" --pgdata="$dir/data" status >/dev/null 2>&1; then
        as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 \
            --options="-p $port" start >/dev/null || { tail -20 "$dir/server.log" >&2; exit 1; }
    fi
    if [ -f "$dir/new" ]; then
        local password
        password=$(cat "$dir/password")
        as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d postgres \
            -c "CREATE ROLE $role LOGIN PASSWORD '$password'" -c "CREATE DATABASE $role OWNER $role" >/dev/null
        rm "$dir/new"
    fi
    echo "postgres://$role:$(cat "$dir/password")@127.0.0.1:$port/$role"
}

stop() {
    [ -f "$dir/data/postmaster.pid" ] || return 0
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait --timeout=60 stop >/dev/null
}

command=${1:-}
dir=${2:-}
[ -n "$dir" ] || usage
case "$command" in
    start)
        port=${3:-}
        [[ "$port" =~ ^[0-9]+$ ]] || usage
        start
        ;;
    stop) stop ;;
    *) usage ;;
esac
