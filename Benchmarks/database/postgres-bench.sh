#!/usr/bin/env bash
# make bench-postgres: the same table served from PostgreSQL and from SQLite, side by side on one
# core — a 100-row page and a deep keyset page, HTML and JSON (8 cases) — as req/s and as CPU
# microseconds a request spent in Cellar and in PostgreSQL's processes.
#   Benchmarks/database/postgres-bench.sh                     # ROWS=200000 RUNS=3 DURATION=5s CONNS=8
#   RUNS=1 DURATION=3s Benchmarks/database/postgres-bench.sh  # a quick look
# The table is make-bench-db.py's `items` (ROWS rows, 15 columns, `price` indexed) in a SQLite file
# (.build-bench/postgres-bench-ROWS.db, made when missing or older than the generator) and copied
# into a throwaway PostgreSQL 15 cluster (Tests/postgres/cluster.sh in a temporary folder, on
# 127.0.0.1:PG_PORT, stopped and removed at the end) in the same types (int8, float8, text).
# Two `cellar serve` processes — `--database FILE` and `--database postgres://…` — and the
# cluster (postmaster and every backend) run on core SERVER_CPU; wrk on core CLIENT_CPU
# (`wrk -t1 -cCONNS -dDURATION` after a 1 s warm-up). Cellar's worker threads default to one per
# core it may use: one, so one pooled PostgreSQL connection. CPU a request: user + system ticks from
# /proc/PID/stat over the run, of the cellar process (all its threads) and of the postmaster and
# its children (the backends serving Cellar's connection; the background processes add a little;
# children that have exited count through the postmaster's cutime and cstime),
# divided by the requests wrk made. Each case runs RUNS times; the median is printed.
# The deep page: `links.next` followed DEEP_HOPS times from /items.json?limit=1000, then limit=100
# (a keyset page starting at row DEEP_HOPS × 1,000 + 1), each server its own cursor.
# Then where PostgreSQL's time goes: the statements a 100-row page sends, each alone under
# `pgbench -n -M prepared -c1` (on core CLIENT_CPU) for DURATION, PostgreSQL's CPU a statement
# measured the same way (NO_PGBENCH=1 skips it).
# Results: stdout and .build/pgbench/results-<date>.md. Not run by `make test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/Benchmarks/database
cd "$root"

ROWS=${ROWS:-200000}
RUNS=${RUNS:-3}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-8}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
PORT=${PORT:-19310}            # SQLite's Cellar; PostgreSQL's is PORT + 1
PG_PORT=${PG_PORT:-19356}
DEEP_HOPS=${DEEP_HOPS:-150}
CELLAR_BIN=${CELLAR_BIN:-$root/.build/release/cellar}
PG_BIN=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
DB=$root/.build-bench/postgres-bench-$ROWS.db
out=$root/.build/pgbench
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)

log() { printf '%s\n' "$*" >&2; }
die() { log "postgres-bench.sh: $*"; exit 2; }
[ -x "$CELLAR_BIN" ] || die "no executable at $CELLAR_BIN (swift build -c release --product cellar)"
[ "$DEEP_HOPS" -lt $((ROWS / 1000)) ] || die "DEEP_HOPS ($DEEP_HOPS) must stay below ROWS / 1000"
for tool in wrk taskset curl python3 "$PG_BIN/psql"; do command -v "$tool" >/dev/null || die "$tool is needed"; done

# The same lock as run.sh and ../shared/peers/run.sh: two benchmarks would share the two cores.
exec 9>"${TMPDIR:-/tmp}/listbench-run.lock"
if ! flock -n 9; then
    log "== another benchmark run holds ${TMPDIR:-/tmp}/listbench-run.lock; waiting (up to ${LOCK_WAIT:-1800} s)"
    flock -w "${LOCK_WAIT:-1800}" 9 || die "gave up waiting for the other benchmark run"
fi

mkdir -p "$out" "$(dirname "$DB")"
if [ ! -f "$DB" ] || [ "$here/make-bench-db.py" -nt "$DB" ]; then
    log "== building $DB ($ROWS rows)"
    python3 "$here/make-bench-db.py" "$DB" "$ROWS" >&2
fi

cluster=$(mktemp -d "${TMPDIR:-/tmp}/cellar-pgbench.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    "$root/Tests/postgres/cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
    rm -rf "$cluster"
}
trap cleanup EXIT INT TERM

# ---------------------------------------------------------------- PostgreSQL, loaded
log "== PostgreSQL cluster in $cluster on 127.0.0.1:$PG_PORT, pinned to core $SERVER_CPU"
url=$(taskset -c "$SERVER_CPU" "$root/Tests/postgres/cluster.sh" start "$cluster" "$PG_PORT")
postmaster=$(head -1 "$cluster/data/postmaster.pid")
# The processes started before the pinning took (none should be; taskset again to be sure).
for pid in $postmaster $(pgrep -P "$postmaster"); do taskset -a -p -c "$SERVER_CPU" "$pid" >/dev/null; done
# Through the socket (trust), as the role Cellar logs in as, so that it owns the tables.
psql_as_role() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$cluster" -p "$PG_PORT" -U cellar_test -d cellar_test "$@"; }
started=$(date +%s)
"$here/load-postgres.sh" "$DB" -h "$cluster" -p "$PG_PORT" -U cellar_test -d cellar_test
loaded=$(psql_as_role -At -c "SELECT count(*) FROM items")
[ "$loaded" = "$ROWS" ] || die "PostgreSQL holds $loaded rows, not $ROWS"
log "== $ROWS rows copied into PostgreSQL in $(($(date +%s) - started)) s"

# ---------------------------------------------------------------- the two Cellars
start_cellar() { # name database port
    taskset -c "$SERVER_CPU" "$CELLAR_BIN" serve --database "$2" --port "$3" >"$out/server-$1-$stamp.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 300); do
        curl -sf -o /dev/null "http://127.0.0.1:$3/healthz" && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || { tail -5 "$out/server-$1-$stamp.log" >&2; die "cellar ($1) exited at start-up"; }
        sleep 0.1
    done
    die "cellar ($1) did not answer /healthz within 30 s"
}
start_cellar sqlite "$DB" "$PORT"
sqlite_pid=${pids[-1]}
# Without TLS, which the test cluster offers (libpq would prefer it): a database on the same machine.
start_cellar postgres "$url?sslmode=disable" $((PORT + 1))
postgres_pid=${pids[-1]}

deep() { python3 "$here/probe.py" deep "http://127.0.0.1:$1" "/items.json?limit=1000" "$DEEP_HOPS" 100; }
sqlite_deep=$(deep "$PORT")
postgres_deep=$(deep $((PORT + 1)))
first_deep=$((DEEP_HOPS * 1000 + 1))
# engine|port|pid|name|path|first row's id
cases=(
    "SQLite|$PORT|$sqlite_pid|HTML, first 100 rows|/items?limit=100|1"
    "PostgreSQL|$((PORT + 1))|$postgres_pid|HTML, first 100 rows|/items?limit=100|1"
    "SQLite|$PORT|$sqlite_pid|JSON, first 100 rows|/items.json?limit=100|1"
    "PostgreSQL|$((PORT + 1))|$postgres_pid|JSON, first 100 rows|/items.json?limit=100|1"
    "SQLite|$PORT|$sqlite_pid|HTML, keyset page past row $((DEEP_HOPS * 1000))|${sqlite_deep/.json/}|$first_deep"
    "PostgreSQL|$((PORT + 1))|$postgres_pid|HTML, keyset page past row $((DEEP_HOPS * 1000))|${postgres_deep/.json/}|$first_deep"
    "SQLite|$PORT|$sqlite_pid|JSON, keyset page past row $((DEEP_HOPS * 1000))|$sqlite_deep|$first_deep"
    "PostgreSQL|$((PORT + 1))|$postgres_pid|JSON, keyset page past row $((DEEP_HOPS * 1000))|$postgres_deep|$first_deep"
)

# Both engines answer each page with the same bytes (the types match): checked once.
for path in "/items?limit=100" "/items.json?limit=100"; do
    a=$(curl -s "http://127.0.0.1:$PORT$path" | sha256sum)
    b=$(curl -s "http://127.0.0.1:$((PORT + 1))$path" | sha256sum)
    [ "$a" = "$b" ] && log "== $path: the same bytes from both" || log "!! $path: SQLite's and PostgreSQL's bodies differ"
done

ticks_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{print $12 + $13}' || echo 0; }
# The postmaster's own time, its children's that have exited (cutime + cstime: pgbench's backends),
# and its live children's (Cellar's pooled backends, the background processes).
postgres_ticks() {
    local total pid
    total=$(sed 's/^.*) //' "/proc/$postmaster/stat" | awk '{print $12 + $13 + $14 + $15}')
    for pid in $(pgrep -P "$postmaster"); do total=$((total + $(ticks_of "$pid"))); done
    echo "$total"
}
hz=$(getconf CLK_TCK)

# One wrk run: "req/s cellar-µs postgres-µs errors".
measure() { # port pid path
    local url="http://127.0.0.1:$1$3" c0 c1 p0 p1 report
    taskset -c "$CLIENT_CPU" wrk -t1 -c4 -d1s "$url" >/dev/null
    sleep 0.5
    c0=$(ticks_of "$2")
    p0=$(postgres_ticks)
    report=$(taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"$DURATION" --timeout 30s "$url")
    c1=$(ticks_of "$2")
    p1=$(postgres_ticks)
    awk -v hz="$hz" -v c=$((c1 - c0)) -v p=$((p1 - p0)) '
        / requests in / {n = $1}
        /Requests\/sec:/ {rps = $2}
        /Non-2xx or 3xx responses:/ {bad = $NF}
        /Socket errors:/ {gsub(",", ""); bad += $4 + $6 + $8 + $10}
        END {printf "%.0f %.1f %.1f %d\n", rps, c / hz / n * 1e6, p / hz / n * 1e6, bad}' <<<"$report"
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

log "== $RUNS runs a case: wrk -t1 -c$CONNS -d$DURATION on core $CLIENT_CPU; cellar and PostgreSQL on core $SERVER_CPU; load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A RPS=() CELLAR=() PG=() ERRORS=()
for run in $(seq "$RUNS"); do
    for entry in "${cases[@]}"; do
        IFS='|' read -r engine port pid name path first <<<"$entry"
        if [ "$run" = 1 ]; then
            check=$(python3 "$here/probe.py" check "http://127.0.0.1:$port" "$path" "$first" 100) || die "$engine $path: $check"
            case $check in *expected*) die "$engine $path: $check" ;; esac
        fi
        read -r rps cellar pg errors < <(measure "$port" "$pid" "$path")
        key="$engine|$name"
        RPS[$key]+="$rps "
        CELLAR[$key]+="$cellar "
        PG[$key]+="$pg "
        ERRORS[$key]=$((${ERRORS[$key]:-0} + errors))
        log "   run $run: $engine $name: $rps req/s, cellar $cellar µs, PostgreSQL $pg µs a request"
    done
done

{
    echo "PostgreSQL against SQLite, $ROWS rows, $(date -u '+%Y-%m-%d %H:%M UTC'); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "wrk -t1 -c$CONNS -d$DURATION on core $CLIENT_CPU; cellar (1 worker thread) and PostgreSQL on core $SERVER_CPU; median of $RUNS runs"
    echo
    echo "| case | engine | req/s | Cellar µs/request | PostgreSQL µs/request | together µs | errors |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    for entry in "${cases[@]}"; do
        IFS='|' read -r engine _ _ name _ _ <<<"$entry"
        key="$engine|$name"
        rps=$(tr ' ' '\n' <<<"${RPS[$key]}" | grep . | median)
        cellar=$(tr ' ' '\n' <<<"${CELLAR[$key]}" | grep . | median)
        pg=$(tr ' ' '\n' <<<"${PG[$key]}" | grep . | median)
        printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$engine" "$rps" "$cellar" "$pg" \
            "$(awk -v a="$cellar" -v b="$pg" 'BEGIN {printf "%.1f", a + b}')" "${ERRORS[$key]}"
    done
} | tee "$out/results-$stamp.md"

# ---------------------------------------------------------------- where PostgreSQL's time goes
[ -n "${NO_PGBENCH:-}" ] && exit 0
columns='"items"."id", "items"."sku", "items"."title", "items"."name", "items"."category_id", "items"."status", "items"."quantity", "items"."rank", "items"."price", "items"."weight", "items"."rating", "items"."created", "items"."discount", "items"."in_stock", "items"."description"'
# name|script (Cellar's own statements for /items.json?limit=100, as PostgresReader numbers them)
statements=(
    "the read's transaction alone|BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;
COMMIT;"
    "the page: 101 rows by the key|SELECT $columns FROM \"items\" ORDER BY \"items\".\"id\" ASC LIMIT 101;"
    "the total: count up to 10,001|SELECT count(*) FROM (SELECT 1 FROM \"items\" LIMIT 10001) AS counted;"
    "the labels of a page's categories|SELECT \"categories\".\"id\", \"categories\".\"name\" FROM \"categories\" WHERE \"categories\".\"id\" = ANY('{1,2,3,4,5,6,7,8,9,10,11,12}');"
)
{
    echo
    echo "Where PostgreSQL's time goes: each statement alone, pgbench -n -M prepared -c1 -T ${DURATION%s} on core $CLIENT_CPU, PostgreSQL on core $SERVER_CPU"
    echo
    echo "| statement | statements/s | PostgreSQL µs a statement |"
    echo "|---|---:|---:|"
    for entry in "${statements[@]}"; do
        name=${entry%%|*}
        printf '%s\n' "${entry#*|}" >"$cluster/statement.sql"
        p0=$(postgres_ticks)
        report=$(taskset -c "$CLIENT_CPU" "$PG_BIN/pgbench" -n -M prepared -c1 -T "${DURATION%s}" -f "$cluster/statement.sql" \
            -h "$cluster" -p "$PG_PORT" -U cellar_test cellar_test 2>&1)
        p1=$(postgres_ticks)
        awk -v name="$name" -v hz="$hz" -v p=$((p1 - p0)) '
            /number of transactions actually processed/ {split($0, a, ": "); split(a[2], b, "/"); n = b[1]}
            /^tps = / {tps = $3}
            END {printf "| %s | %.0f | %.1f |\n", name, tps, (n > 0 ? p / hz / n * 1e6 : 0)}' <<<"$report"
    done
} | tee -a "$out/results-$stamp.md"
