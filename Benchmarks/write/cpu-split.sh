#!/usr/bin/env bash
# Where a write's CPU goes, user and kernel, for Cellar and for the C server (c-server.c), each
# alone on core $SERVER_CPU with wrk on core $CLIENT_CPU: writes a second, user and system µs a
# write (`/proc/PID/stat`), TCP segments a write (`nstat`), minor faults and context switches a
# write; then the C server again spinning SPINS µs of user time a write (c-server.c's SPIN_US), to
# show what a slower server pays in the kernel to wake its client.
#   Benchmarks/write/cpu-split.sh                  # DURATION=4s SPINS="10 20 35"
# Needs .build/release/cellar (make release), wrk, nstat (iproute2), cc, libmicrohttpd-dev.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/Benchmarks/write
cd "$root"
DURATION=${DURATION:-4s}
CONNS=${CONNS:-16}
SPINS=${SPINS:-10 20 35}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
PORT=${PORT:-18390}
CELLAR_BIN=${CELLAR_BIN:-$root/.build/release/cellar}
SECRET=write-bench-secret-0123456789abcdef0123456789
for tool in wrk taskset curl cc nstat python3; do command -v $tool >/dev/null || { echo "cpu-split.sh: $tool is needed" >&2; exit 2; }; done
[ -x "$CELLAR_BIN" ] || { echo "cpu-split.sh: no $CELLAR_BIN: make release" >&2; exit 2; }
work=$(mktemp -d)
pid=
stop() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; pid=; }
trap 'stop; rm -rf "$work"' EXIT
cc -O2 -o "$work/c-server" "$here/c-server.c" -lmicrohttpd -lsqlite3 -lpthread

fresh_db() {
    python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER)")
db.executemany("INSERT INTO items(name, n) VALUES (?, ?)", (("a bottle", i) for i in range(10000)))
db.commit()
PY
}
hash=$(printf '%s' 'bench-password' | "$CELLAR_BIN" account hash)
printf 'accounts:\n  bench: {password: "%s"}\npermissions:\n  "*": {insert: [bench]}\n' "$hash" >"$work/cellar.yaml"
token=$(CELLAR_SECRET=$SECRET "$CELLAR_BIN" token create --actor bench --allow view --allow insert 2>/dev/null)

context_switches() { cat /proc/$pid/task/*/status | awk '/^voluntary_ctxt_switches/ {v += $2} /^nonvoluntary_ctxt_switches/ {v += $2} END {print v}'; }
# `measure NAME`: wrk against the server $pid on $PORT, one line of the table.
measure() {
    local name=$1 before after switches_before switches_after out requests segments
    for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.1; done
    read -r before < <(awk '{print $14, $15, $10}' /proc/$pid/stat | tr ' ' ,)
    switches_before=$(context_switches)
    nstat -n >/dev/null
    out=$(TOKEN=$token TARGET=/items/-/insert taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"$DURATION" -s "$here/insert.lua" "http://127.0.0.1:$PORT")
    segments=$(nstat | awk '$1 == "TcpInSegs" || $1 == "TcpOutSegs" {n += $2} END {print n + 0}')
    read -r after < <(awk '{print $14, $15, $10}' /proc/$pid/stat | tr ' ' ,)
    switches_after=$(context_switches)
    if echo "$out" | grep -q Non-2xx; then echo "$out" >&2; exit 1; fi
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    awk -v name="$name" -v n="$requests" -v b="$before" -v a="$after" -v s=$((switches_after - switches_before)) -v seg="$segments" \
        -v hz="$(getconf CLK_TCK)" -v d="${DURATION%s}" 'BEGIN {
            split(b, x, ","); split(a, y, ",")
            printf "| %s | %.0f | %.1f | %.1f | %.2f | %.3f | %.3f |\n", name, n / d, (y[1] - x[1]) * 1e6 / hz / n,
                (y[2] - x[2]) * 1e6 / hz / n, seg / n, (y[3] - x[3]) / n, s / n }'
}

echo "| server | writes/s | user µs | system µs | TCP segments in + out | minor faults | context switches |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
fresh_db "$work/c.db"
taskset -c "$SERVER_CPU" "$work/c-server" "$work/c.db" "$PORT" 1 >/dev/null 2>&1 &
pid=$!
measure "C server"
stop
rm -f "$work"/cellar.db*
fresh_db "$work/cellar.db"
CELLAR_SECRET=$SECRET taskset -c "$SERVER_CPU" "$CELLAR_BIN" serve --database "$work/cellar.db" --config "$work/cellar.yaml" \
    --writable --port "$PORT" --log-level error >/dev/null 2>&1 &
pid=$!
measure "Cellar"
stop
for spin in $SPINS; do
    rm -f "$work"/c.db*
    fresh_db "$work/c.db"
    taskset -c "$SERVER_CPU" "$work/c-server" "$work/c.db" "$PORT" 1 "$spin" >/dev/null 2>&1 &
    pid=$!
    measure "C server spinning $spin µs"
    stop
done
