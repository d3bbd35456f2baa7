#!/usr/bin/env bash
# The PostgreSQL phase of make bench-write, for information (issue #38 sets no bar): the same
# single-row inserts and updates (insert.lua, update.lua, wrk -t1 -c$CONNS) through Cellar's JSON
# write API, Cellar served --writable over a table of 10,000 rows in a throwaway PostgreSQL 15
# cluster (Tests/postgres/cluster.sh, on 127.0.0.1:$PG_PORT) as the cluster's test role. The test
# cluster's fsync, synchronous_commit and full_page_writes are turned back on first: PostgreSQL's
# default durability, each write acknowledged after its commit is flushed (DURABLE=0 leaves them
# off, to see what the flush costs).
#   Benchmarks/write/postgres.sh                      # ROUNDS=1 DURATION=5s CONNS=16
# run.sh runs it last when PostgreSQL's binaries are there (POSTGRES=0 skips it). Cellar runs on
# core $SERVER_CPU, wrk on $CLIENT_CPU; PostgreSQL's processes are not pinned.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/Benchmarks/write
cd "$root"

ROUNDS=${ROUNDS:-1}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-16}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
PG_PORT=${PG_PORT:-18310}
PORT=${PORT:-18311}
CELLAR_BIN=${CELLAR_BIN:-$root/.build/release/cellar}
pgbin=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
SECRET=write-bench-secret-0123456789abcdef0123456789

log() { printf '%s\n' "$*" >&2; }
die() { log "postgres.sh: $*"; exit 2; }

[ -x "$pgbin/initdb" ] || { log "== no PostgreSQL in $pgbin: the PostgreSQL phase is skipped"; exit 0; }
for tool in wrk taskset curl; do command -v $tool >/dev/null || die "$tool is needed"; done
[ -x "$CELLAR_BIN" ] || die "no $CELLAR_BIN: make release"
if [ -z "${WRITEBENCH_LOCKED:-}" ]; then
    exec 9>"${TMPDIR:-/tmp}/listbench-run.lock"
    flock -w "${LOCK_WAIT:-1800}" 9 || die "gave up waiting for the other benchmark run"
fi

work=$root/.build/writebench
mkdir -p "$work"
cluster=$(mktemp -d "${TMPDIR:-/tmp}/cellar-writebench-pg.XXXXXX")
chmod 755 "$cluster"
pid=
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    "$root/Tests/postgres/cluster.sh" stop "$cluster" || true
    rm -rf "$cluster"
}
trap cleanup EXIT

url=$("$root/Tests/postgres/cluster.sh" start "$cluster" "$PG_PORT")
# The password goes to libpq by PGPASSWORD, not on a command line.
export PGPASSWORD=${url#*://*:}
PGPASSWORD=${PGPASSWORD%%@*}
bare=postgres://cellar_test@127.0.0.1:$PG_PORT/cellar_test
superuser() {
    if [ "$(id -u)" = 0 ]; then
        (cd "$cluster" && runuser -u postgres -- "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -h "$cluster" -p "$PG_PORT" -U postgres -d postgres "$@")
    else
        "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -h "$cluster" -p "$PG_PORT" -U postgres -d postgres "$@"
    fi
}
durability="fsync and synchronous_commit off"
[ "${DURABLE:-1}" = 0 ] || durability="fsync and synchronous_commit on"
[ "${DURABLE:-1}" = 0 ] || superuser -c "ALTER SYSTEM SET fsync = on" -c "ALTER SYSTEM SET synchronous_commit = on" -c "ALTER SYSTEM SET full_page_writes = on" \
    -c "SELECT pg_reload_conf()" >/dev/null

hash=$(printf '%s' 'bench-password' | "$CELLAR_BIN" account hash)
cat >"$work/cellar-postgres.yaml" <<YAML
accounts:
  bench: {password: "$hash"}
permissions:
  "*": {insert: [bench], update: [bench]}
YAML
token=$(CELLAR_SECRET=$SECRET "$CELLAR_BIN" token create --actor bench --allow view --allow insert --allow update 2>/dev/null)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# wrk's requests a second and Cellar's CPU µs a request; non-2xx answers make the run fail.
run_wrk() {
    local script=$1 out before after requests
    before=$(cpu_ticks)
    out=$(taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"$DURATION" --timeout 30s -s "$script" "http://127.0.0.1:$PORT")
    after=$(cpu_ticks)
    if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; die "non-2xx answers"; fi
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    echo "$out" | awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        '/^Requests\/sec/ {printf "%.0f/s (%.1f µs Cellar CPU)", $2, ticks * 1e6 / hz / n}'
}

for round in $(seq 1 "$ROUNDS"); do
    log "== PostgreSQL round $round"
    "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 "$bare" -c "DROP TABLE IF EXISTS items" \
        -c "CREATE TABLE items(id bigserial PRIMARY KEY, name text NOT NULL, n int8)" \
        -c "INSERT INTO items(name, n) SELECT 'a bottle', i FROM generate_series(0, 9999) AS i" -c "VACUUM ANALYZE items"
    CELLAR_SECRET=$SECRET taskset -c "$SERVER_CPU" "$CELLAR_BIN" serve --database "$bare" --config "$work/cellar-postgres.yaml" \
        --writable --port "$PORT" --log-level error >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
    insert=$(TOKEN=$token TARGET=/items/-/insert run_wrk "$here/insert.lua")
    update=$(TOKEN=$token PREFIX=/items run_wrk "$here/update.lua")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    pid=
    echo "PostgreSQL 15 (round $round, DURATION=$DURATION CONNS=$CONNS, $durability): insert $insert, update $update"
done
