#!/usr/bin/env bash
# Instructions one single-row write through the JSON write API costs Cellar, under callgrind
# (repeatable on a shared machine, where writes a second are not):
#   Benchmarks/write/instructions.sh [BINARY] [REQUESTS]
# An insert (`POST /items/-/insert`, {"row": {…}}), then an update of one row
# (`POST /items/7/-/update`, {"update": {…}}), each by Benchmarks/tools/instructions-per-request.sh
# on a fresh copy of run.sh's file (10,000 rows, WAL) with a bearer token, as run.sh sends them.
# KEEP=DIR keeps the callgrind outputs and lists the functions that cost the most (the tool's).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$root/.build/release/cellar}
requests=${2:-300}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CELLAR_SECRET=write-bench-secret-0123456789abcdef0123456789
python3 - "$work/template.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER)")
db.executemany("INSERT INTO items(name, n) VALUES (?, ?)", (("a bottle", i) for i in range(10000)))
db.commit()
EOF
hash=$(printf '%s' 'bench-password' | "$binary" account hash)
cat >"$work/cellar.yaml" <<EOF
accounts:
  bench: {password: "$hash"}
permissions:
  "*": {insert: [bench], update: [bench]}
EOF
token=$("$binary" token create --actor bench --allow view --allow insert --allow update 2>/dev/null)
export HEADER="Authorization: Bearer $token"
export SERVE_ARGS="--database $work/items.db --config $work/cellar.yaml --writable --log-level error"
export BEFORE_RUN="rm -f $work/items.db*; cp $work/template.db $work/items.db"
export METHOD=POST
keep=${KEEP:-}
for write in insert update; do
    case $write in
        insert) path=/items/-/insert BODY='{"row": {"name": "a bottle", "n": 1}}' ;;
        update) path=/items/7/-/update BODY='{"update": {"n": 2}}' ;;
    esac
    export BODY
    KEEP=${keep:+$keep/$write} "$root/Benchmarks/tools/instructions-per-request.sh" "$binary" "$path" "$requests"
done
