#!/usr/bin/env bash
# make bench-write: single-row writes through Cellar's JSON write API (`cellar serve --database
# FILE --writable`, a bearer token) against Datasette 1.0a41's insert and update API (a token for
# root) on the same kind of file, and against SQLite's own single-writer rate (commit-loop.c: one
# row a transaction, WAL, the same durability).
#   Benchmarks/write/run.sh                      # ROUNDS=3 DURATION=5s CONNS=16
#   ROUNDS=1 DURATION=3s Benchmarks/write/run.sh # a quick look
# Then, on Cellar's server, the change-to-watcher latency (watch-latency.py): WATCHERS=100 event
# streams on one list, CHANGES=200 updates through the API, p50/p99 from each acknowledgement to
# each watcher's patch (bar: p99 < 50 ms).
# Each server runs alone on core $SERVER_CPU (`taskset -c`), wrk on core $CLIENT_CPU
# (`wrk -t1 -c$CONNS -d$DURATION`, a Lua script for the POST bodies); each server gets a fresh
# copy of a file of 10,000 rows in WAL mode. The C loop runs on $SERVER_CPU too, with
# synchronous=NORMAL (Cellar's) and, for information, FULL. Medians over the rounds; the ratios
# Cellar ÷ Datasette and Cellar ÷ C are taken within a round, then their median.
# Bars (issue #38): ≥ 10× Datasette, ≥ 1/3 of the C loop with the same durability.
# Results: stdout and .build/writebench/results-<date>.md. Then, for information, the same writes
# over PostgreSQL (postgres.sh), when its binaries are there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/Benchmarks/write
cd "$root"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-16}
WATCHERS=${WATCHERS:-100}
CHANGES=${CHANGES:-200}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
BASE_PORT=${BASE_PORT:-18300}
VENV=${VENV:-$root/.build-bench-venv-1}
CELLAR_BIN=${CELLAR_BIN:-$root/.build/release/cellar}
SECRET=write-bench-secret-0123456789abcdef0123456789

log() { printf '%s\n' "$*" >&2; }
die() { log "run.sh: $*"; exit 2; }

exec 9>"${TMPDIR:-/tmp}/listbench-run.lock"
if ! flock -n 9; then
    log "== another benchmark run holds ${TMPDIR:-/tmp}/listbench-run.lock; waiting"
    flock -w "${LOCK_WAIT:-1800}" 9 || die "gave up waiting for the other benchmark run"
fi

for tool in wrk taskset curl cc python3; do command -v $tool >/dev/null || die "$tool is needed"; done
[ -x "$CELLAR_BIN" ] || die "no $CELLAR_BIN: make release"
if [ ! -x "$VENV/bin/datasette" ]; then
    log "== installing Datasette 1.0a41 into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check datasette==1.0a41
fi

work=$root/.build/writebench
mkdir -p "$work"
stamp=$(date +%Y-%m-%d-%H%M%S)
results=$work/results-$stamp.md
cc -O2 -o "$work/commit-loop" "$here/commit-loop.c" -lsqlite3

fresh_db() {
    rm -f "$1" "$1-wal" "$1-shm"
    python3 - "$1" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER)")
db.executemany("INSERT INTO items(name, n) VALUES (?, ?)", (("a bottle", i) for i in range(10000)))
db.commit()
EOF
}

wait_up() {
    for _ in $(seq 1 200); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
    die "no answer from $1"
}

# The CPU time (user + system, in clock ticks) the server has used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }

# wrk's requests a second, from its summary, and the server's CPU µs a request (the steadier
# number on a shared machine); non-2xx answers make the run fail.
run_wrk() {
    local script=$1 base=$2 out before after requests
    before=$(cpu_ticks)
    out=$(taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"$DURATION" --timeout 30s -s "$script" "$base")
    after=$(cpu_ticks)
    echo "$out" >>"$work/raw-$stamp.txt"
    if echo "$out" | grep -q "Non-2xx"; then
        echo "$out" >&2
        die "non-2xx answers from $base"
    fi
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    echo "$out" | awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        '/^Requests\/sec/ {printf "%.0f %.1f", $2, ticks * 1e6 / hz / n}'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

pid=
stop() {
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
    pid=
}
trap stop EXIT

hash=$(printf '%s' 'bench-password' | "$CELLAR_BIN" account hash)
cat >"$work/cellar.yaml" <<EOF
accounts:
  bench: {password: "$hash"}
permissions:
  "*": {insert: [bench], update: [bench]}
EOF
cellar_token=$(CELLAR_SECRET=$SECRET "$CELLAR_BIN" token create --actor bench --allow view --allow insert --allow update 2>/dev/null)

declare -A got cpu
watch50=
watch99=
# `record NAME "RATE CPU-µs"`: one round's measurement.
record() {
    got[$1]+="${2% *} "
    cpu[$1]+="${2#* } "
}
for round in $(seq 1 "$ROUNDS"); do
    log "== round $round"
    # Cellar
    fresh_db "$work/cellar.db"
    port=$((BASE_PORT + 1))
    CELLAR_SECRET=$SECRET taskset -c "$SERVER_CPU" "$CELLAR_BIN" serve --database "$work/cellar.db" --config "$work/cellar.yaml" \
        --writable --port $port --log-level error --max-watchers-per-ip $((WATCHERS + 16)) >/dev/null 2>&1 &
    pid=$!
    wait_up "http://127.0.0.1:$port/healthz"
    record cellar-insert "$(TOKEN=$cellar_token TARGET=/items/-/insert run_wrk "$here/insert.lua" "http://127.0.0.1:$port")"
    record cellar-update "$(TOKEN=$cellar_token PREFIX=/items run_wrk "$here/update.lua" "http://127.0.0.1:$port")"
    # Change-to-watcher latency: $WATCHERS event streams on the list, changes through the API.
    read -r p50 p99 worst missed < <(taskset -c "$CLIENT_CPU" python3 "$here/watch-latency.py" "http://127.0.0.1:$port" "$cellar_token" \
        --watchers "$WATCHERS" --changes "$CHANGES")
    [ "$missed" = 0 ] || die "$missed patches never reached their watcher"
    watch50+="$p50 "
    watch99+="$p99 "
    stop
    [ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$work/cellar.db")" = ok ] ||
        die "integrity_check failed on Cellar's file"
    # Datasette
    fresh_db "$work/write.db"
    port=$((BASE_PORT + 2))
    ds_token=$("$VENV/bin/datasette" create-token root --secret "$SECRET")
    taskset -c "$SERVER_CPU" "$VENV/bin/datasette" serve "$work/write.db" --port $port --secret "$SECRET" --root \
        --setting num_sql_threads 3 >/dev/null 2>&1 &
    pid=$!
    wait_up "http://127.0.0.1:$port/-/versions.json"
    record datasette-insert "$(TOKEN=$ds_token TARGET=/write/items/-/insert run_wrk "$here/insert.lua" "http://127.0.0.1:$port")"
    record datasette-update "$(TOKEN=$ds_token PREFIX=/write/items run_wrk "$here/update.lua" "http://127.0.0.1:$port")"
    stop
    # SQLite's own rate, with Cellar's durability and with FULL
    secs=${DURATION%s}
    for mode in insert update; do
        fresh_db "$work/c.db"
        record c-$mode "$(taskset -c "$SERVER_CPU" "$work/commit-loop" "$work/c.db" $mode NORMAL "$secs")"
        fresh_db "$work/c.db"
        record cfull-$mode "$(taskset -c "$SERVER_CPU" "$work/commit-loop" "$work/c.db" $mode FULL "$secs")"
    done
    fresh_db "$work/c.db"
    record crandom-update "$(taskset -c "$SERVER_CPU" "$work/commit-loop" "$work/c.db" update-random NORMAL "$secs")"
done

{
    echo "# make bench-write, $stamp: ROUNDS=$ROUNDS DURATION=$DURATION CONNS=$CONNS, server on core $SERVER_CPU, wrk on core $CLIENT_CPU"
    echo
    echo "Writes a second (medians), then the ratios within each round (medians); in brackets the CPU µs one write took."
    echo
    echo "| write | Cellar | Datasette 1.0a41 | C loop, NORMAL | C loop, FULL | Cellar ÷ Datasette (bar 10) | Cellar ÷ C NORMAL (bar 0.33) | the same by CPU µs |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for mode in insert update; do
        m() { echo ${got[$1-$mode]} | tr ' ' '\n' | median; }
        u() { echo ${cpu[$1-$mode]} | tr ' ' '\n' | median; }
        per_round() { paste <(echo ${got[$1]} | tr ' ' '\n') <(echo ${got[$2]} | tr ' ' '\n') | awk '$2 > 0 {printf "%.3f\n", $1 / $2}' | median; }
        by_cpu=$(paste <(echo ${cpu[c-$mode]} | tr ' ' '\n') <(echo ${cpu[cellar-$mode]} | tr ' ' '\n') | awk '$2 > 0 {printf "%.3f\n", $1 / $2}' | median)
        echo "| $mode | $(m cellar)/s ($(u cellar) µs) | $(m datasette)/s ($(u datasette) µs) | $(m c)/s ($(u c) µs) | $(m cfull)/s ($(u cfull) µs) | $(per_round cellar-$mode datasette-$mode)× | $(per_round cellar-$mode c-$mode) | $by_cpu |"
    done
    echo
    random_ratio=$(paste <(echo ${got[cellar-update]} | tr ' ' '\n') <(echo ${got[crandom-update]} | tr ' ' '\n') | awk '$2 > 0 {printf "%.3f\n", $1 / $2}' | median)
    echo "For information, the C loop updating rows at random as update.lua does (the bar's loop goes in id order): $(echo ${got[crandom-update]} | tr ' ' '\n' | median)/s ($(echo ${cpu[crandom-update]} | tr ' ' '\n' | median) µs); Cellar's updates ÷ it: $random_ratio"
    echo
    echo "Change to watcher ($WATCHERS event streams on /items.json?limit=20, $CHANGES updates through the API 20 ms apart, watch-latency.py's monotonic clock from each write's acknowledgement to each watcher's patch): p50 $(echo $watch50 | tr ' ' '\n' | median) ms, p99 $(echo $watch99 | tr ' ' '\n' | median) ms (medians over the rounds; bar p99 < 50 ms)"
    echo
    echo "Each round: $(for k in "${!got[@]}"; do printf '%s=[%s| %s] ' "$k" "${got[$k]}" "${cpu[$k]}"; done)"
} | tee "$results"

# For information: the same writes over PostgreSQL, when it is installed (POSTGRES=0 skips them).
if [ "${POSTGRES:-1}" != 0 ]; then
    WRITEBENCH_LOCKED=1 ROUNDS=$ROUNDS DURATION=$DURATION CONNS=$CONNS "$here/postgres.sh" | tee -a "$results"
fi
