#!/usr/bin/env bash
# Two builds of Cellar, A and B, measured in alternation on single-row writes through the JSON
# write API, as run.sh sends them (insert.lua, update.lua; 16 connections): each round a fresh
# server of each on a fresh file of 10,000 rows (pinned to core 1, wrk to core 0). Prints each
# round's writes a second and the server's CPU µs a write (user + system over the run ÷ its
# requests), then the medians: on a shared machine compare those, the CPU µs above all.
#   Benchmarks/write/alternate.sh BINARY_A BINARY_B [ROUNDS] [SECONDS]
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '2,7p' "$0" >&2; exit 2; fi
a=$1 b=$2 rounds=${3:-3} seconds=${4:-4}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
export CELLAR_SECRET=write-bench-secret-0123456789abcdef0123456789
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$work/template.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER)")
db.executemany("INSERT INTO items(name, n) VALUES (?, ?)", (("a bottle", i) for i in range(10000)))
db.commit()
EOF
hash=$(printf '%s' 'bench-password' | "$a" account hash)
printf 'accounts:\n  bench: {password: "%s"}\npermissions:\n  "*": {insert: [bench], update: [bench]}\n' "$hash" >"$work/cellar.yaml"
export TOKEN
TOKEN=$("$a" token create --actor bench --allow view --allow insert --allow update 2>/dev/null)
cpu_ticks() { sed 's/^.*) //' "/proc/$server/stat" | awk '{print $12 + $13}'; }
declare -A results
for round in $(seq "$rounds"); do
    for name in A B; do
        binary=$a
        [ "$name" = B ] && binary=$b
        rm -f "$work"/items.db*
        cp "$work/template.db" "$work/items.db"
        taskset -c 1 "$binary" serve --database "$work/items.db" --config "$work/cellar.yaml" --writable --port "$port" --log-level error >/dev/null 2>&1 &
        server=$!
        for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
        line="round $round $name:"
        for write in insert update; do
            before=$(cpu_ticks)
            out=$(TARGET=/items/-/insert PREFIX=/items taskset -c 0 wrk -t1 -c16 -d"${seconds}s" -s "$here/$write.lua" "http://127.0.0.1:$port")
            after=$(cpu_ticks)
            if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; exit 1; fi
            read -r rps us < <(awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" \
                '/requests in/ {n = $1} /^Requests\/sec/ {rps = $2} END {printf "%.0f %.1f\n", rps, ticks * 1e6 / hz / n}' <<<"$out")
            results[$name-$write-rps]+="$rps "
            results[$name-$write-us]+="$us "
            line+=" $write $rps/s ($us µs)"
        done
        echo "$line"
        kill "$server"
        wait "$server" 2>/dev/null || true
        server=
    done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
for write in insert update; do
    for name in A B; do
        echo "median $name $write: $(median <<<"${results[$name-$write-rps]}")/s, $(median <<<"${results[$name-$write-us]}") µs CPU a write"
    done
done
