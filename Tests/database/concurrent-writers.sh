#!/usr/bin/env bash
# Concurrent writers on one SQLite file (issue #38), for DURATION seconds (60 unless set):
#   Tests/database/concurrent-writers.sh BINARY [ARTIFACTS_DIR]
# Two `cellar serve --writable` processes on the file; on each, wrk (concurrent-writers.lua, one
# connection a thread) inserting rows and adding one to a shared counter with If-Match; this
# suite's own client (concurrent-writers.py) doing the same turn by turn over both servers and
# setting slots to values never used before; and the `sqlite3` command line inserting a row and
# adding one to the same counter in one transaction, in a loop. Then: every acknowledged insert
# is in the file, the counter holds every acknowledged increment (no update lost, though each
# writer read it before writing), each slot its last acknowledged value, `PRAGMA
# integrity_check` is ok, and both servers stop cleanly. The checks are rows and counts, never
# times. `make test-concurrent-writers` (a minute); `make test-database` runs it for 15 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?usage: concurrent-writers.sh BINARY [ARTIFACTS_DIR]}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
artifacts=${2:-$root/Tests/artifacts}
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
python=${PYTHON:-python3}
duration=${DURATION:-60}
connections=${CONNECTIONS:-2}
# shellcheck source=../support/checks.sh
. "$root/Tests/support/checks.sh"
for tool in wrk sqlite3 curl; do command -v $tool >/dev/null || { echo "concurrent-writers.sh: $tool is needed"; exit 2; }; done
work=$(mktemp -d)
servers=()
clients=()
cleanup() {
    for pid in "${clients[@]}" "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
export CELLAR_SECRET=concurrent-writers-secret-0123456789abcdef

section "concurrent writers on one SQLite file for $duration s"
"$python" - "$work/shared.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=WAL")
db.executescript("""
    CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER);
    CREATE TABLE counters(name TEXT PRIMARY KEY, n INTEGER NOT NULL);
    CREATE TABLE slots(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
    INSERT INTO counters VALUES ('shared', 0);
""")
db.executemany("INSERT INTO slots VALUES (?, 0)", ((i,) for i in range(1, 9)))
db.executemany("INSERT INTO items(name, n) VALUES (?, ?)", ((f"seed-{i}", i) for i in range(1000)))
db.commit()
EOF
hash=$(printf '%s' 'writer-password' | "$binary" account hash)
cat >"$work/cellar.yaml" <<EOF
accounts:
  writer: {password: "$hash"}
permissions:
  "*": {insert: [writer], update: [writer]}
EOF
token=$("$binary" token create --actor writer --allow view --allow insert --allow update 2>/dev/null)

bases=()
for server in a b; do
    port=$(free_port)
    (cd "$root" && HOST=127.0.0.1 PORT=$port exec "$binary" serve --database "$work/shared.db" --config "$work/cellar.yaml" \
        --writable --log-level warning >"$artifacts/concurrent-writers-$server.log" 2>&1) &
    servers+=($!)
    bases+=("http://127.0.0.1:$port")
done
for base in "${bases[@]}"; do
    for _ in $(seq 1 200); do curl -fsS "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
    curl -fsS "$base/healthz" >/dev/null || { echo "a server did not start:"; cat "$artifacts"/concurrent-writers-*.log; exit 1; }
done
pass "two servers --writable on one file: ${bases[*]}"

t0=$(now)
for index in 0 1; do
    server=$([ $index = 0 ] && echo a || echo b)
    TOKEN=$token SERVER=$server LOG=$work/wrk-$server wrk -t"$connections" -c"$connections" -d"${duration}s" --timeout 60s \
        -s "$here/concurrent-writers.lua" "${bases[$index]}" >"$work/wrk-$server.out" 2>&1 &
    clients+=($!)
done
TOKEN=$token "$python" "$here/concurrent-writers.py" client "$duration" "$work/client.json" "${bases[@]}" &
clients+=($!)
(
    deadline=$((SECONDS + duration))
    i=0
    while [ $SECONDS -lt $deadline ]; do
        i=$((i + 1))
        if sqlite3 -bail "$work/shared.db" ".timeout 20000" \
            "BEGIN IMMEDIATE; INSERT INTO items(name, n) VALUES ('cli-$i', $i); UPDATE counters SET n = n + 1 WHERE name = 'shared'; COMMIT;" \
            >/dev/null 2>"$work/cli-error.txt"; then
            printf 'insert cli-%s\nincrement\n' "$i" >>"$work/cli.log"
        else
            echo "error sqlite3 $(head -c 200 "$work/cli-error.txt")" >>"$work/cli.log"
        fi
    done
) &
clients+=($!)
status=0
for pid in "${clients[@]}"; do wait "$pid" || status=$?; done
clients=()
[ $status = 0 ] && pass "the writers ran for $(elapsed "$t0" "$(now)") s" || fail "a writer exited with $status"
for server in a b; do
    sed -n '/Requests\/sec/p; /Non-2xx/p; /Socket errors/p' "$work/wrk-$server.out" | sed "s/^/  wrk on $server: /"
done

stopped=0
for pid in "${servers[@]}"; do
    kill -TERM "$pid"
    wait "$pid" && stopped=$((stopped + 1)) || true
done
servers=()
[ $stopped = 2 ] && pass "both servers stopped cleanly" || fail "a server did not stop cleanly"
if grep -q 'a write failed' "$artifacts"/concurrent-writers-*.log; then
    fail "a write failed inside a server: $(grep -h 'a write failed' "$artifacts"/concurrent-writers-*.log | head -3)"
fi

# Each wrk connection may have had one request done whose answer it never read.
slack=$((2 * connections))
check "every acknowledged change is in the file; no update lost; integrity_check ok" \
    "$python" "$here/concurrent-writers.py" check "$work/shared.db" "$slack" "$work/client.json" "$work"/wrk-*.log "$work/cli.log"

echo
echo "concurrent writers: $passed passed, $failed failed"
[ "$failed" = 0 ]
