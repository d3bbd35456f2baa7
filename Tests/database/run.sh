#!/usr/bin/env bash
# `cellar serve --database` at scale and under faults, on a real server over a million rows:
#   Tests/database/run.sh BINARY [ARTIFACTS_DIR]
# A page past row 300,000 by cursor; the whole table as CSV in bounded memory; a CSV client that
# reads slowly and one that leaves mid-stream; another process writing while pages and the CSV are
# read; the file replaced on disk while serving. Kept out of the sanitizer runs (a million rows).
# No wall-clock assertion: the checks are rows, bytes, statuses and memory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?usage: run.sh BINARY [ARTIFACTS_DIR]}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
artifacts=${2:-$root/Tests/artifacts}
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
python=${PYTHON:-python3}
# shellcheck source=../support/checks.sh
. "$root/Tests/support/checks.sh"
work=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

section "a million rows (Benchmarks/database/make-bench-db.py)"
t0=$(now)
"$python" "$root/Benchmarks/database/make-bench-db.py" "$work/shop.db" 1000000 | sed 's/^/    /'
pass "generated in $(elapsed "$t0" "$(now)") s"

port=$(free_port)
base="http://127.0.0.1:$port"
(cd "$root" && HOST=127.0.0.1 PORT=$port exec "$binary" serve --database "$work/shop.db" --query-time-limit 5 \
    >"$artifacts/database-server.log" 2>&1) &
server=$!
for _ in $(seq 1 200); do curl -fsS "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "$base/healthz" >/dev/null || { echo "the server did not start:"; cat "$artifacts/database-server.log"; exit 1; }

section "paging by cursor"
deep_page() { # follows links.next 300 times at 1,000 rows: the next page starts at row 300,001
    "$python" - "$base" <<'PY'
import json, sys, urllib.request
base = sys.argv[1]
url, seen = "/items.json?limit=1000", 0
for _ in range(300):
    page = json.load(urllib.request.urlopen(base + url))
    ids = [int(row["id"]) for section in page["sections"] for row in section["rows"]]
    assert ids == list(range(seen + 1, seen + 1001)), (url, ids[:3])
    seen += len(ids)
    url = page["links"]["next"]
    assert url.startswith("/items.json?") and "cursor=" in url, url
page = json.load(urllib.request.urlopen(base + url.replace("limit=1000", "limit=100")))
ids = [int(row["id"]) for section in page["sections"] for row in section["rows"]]
assert ids == list(range(300001, 300101)), ids[:3]
assert page["meta"]["offset"] == 300000, page["meta"]
print("    300 pages of 1,000 by links.next; the next page is rows 300,001-300,100")
PY
}
check "links.next visits rows 1-300,000 in order, and the page after starts at row 300,001" deep_page
sorted_pages() { # sort by the indexed price, descending: each page continues where the last ended
    "$python" - "$base" <<'PY'
import json, sys, urllib.request
base = sys.argv[1]
url, last, count = "/items.json?sort=-price&limit=1000", None, 0
for _ in range(50):
    page = json.load(urllib.request.urlopen(base + url))
    for row in (row for section in page["sections"] for row in section["rows"]):
        key = (-row["item"]["price"], int(row["id"]))
        assert last is None or key > last, (last, key)
        last, count = key, count + 1
    url = page["links"]["next"]
print("    %d rows sorted by -price, each after the last" % count)
PY
}
check "sort=-price pages continue where the last ended (50 pages)" sorted_pages

section "CSV: every row in bounded memory"
rss() { awk '/^'"$1"':/ {print $2}' "/proc/$server/status"; }
csv_memory() {
    local idle peak lines
    curl -fsS "$base/items?limit=100" >/dev/null
    sleep 1
    idle=$(rss VmRSS)
    echo 5 >"/proc/$server/clear_refs" 2>/dev/null || true
    lines=$(curl -fsS "$base/items.csv" | wc -l)
    peak=$(rss VmHWM)
    echo "    $lines lines; RSS idle $((idle / 1024)) MiB, peak $((peak / 1024)) MiB (+$(((peak - idle) / 1024)) MiB)"
    [ "$lines" = 1000001 ] || { echo "    expected 1,000,001 lines"; return 1; }
    [ $((peak - idle)) -le $((16 * 1024)) ] || { echo "    more than 16 MiB above idle"; return 1; }
}
check "/items.csv: 1,000,001 lines, peak RSS at most 16 MiB above idle" csv_memory
csv_filtered() { # the CSV holds what the same query's JSON pages hold
    "$python" - "$base" <<'PY'
import csv, io, json, sys, urllib.request
base = sys.argv[1]
rows = list(csv.reader(io.StringIO(urllib.request.urlopen(base + "/items.csv?category_id=3&sort=-price&limit=5").read().decode())))
header, rows = rows[0], rows[1:]
url, ids = "/items.json?category_id=3&sort=-price&limit=1000", []
while url:
    page = json.load(urllib.request.urlopen(base + url))
    ids += [row["id"] for section in page["sections"] for row in section["rows"]]
    url = page["links"]["next"]
assert [row[header.index("id")] for row in rows] == ids, (len(rows), len(ids))
print("    %d rows of category 3 by -price, in the JSON pages' order (limit ignored)" % len(ids))
PY
}
check "/items.csv?category_id=3&sort=-price holds the rows of the same query's pages, in order" csv_filtered
slow_and_gone() { # a client that reads slowly, one that leaves mid-stream: the server goes on
    timeout 3 curl -sS --limit-rate 200K -o /dev/null "$base/items.csv" || true
    "$python" - "$port" <<'PY'
import socket, sys
for _ in range(20):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"GET /items.csv HTTP/1.1\r\nHost: x\r\n\r\n")
    s.recv(65536)
    s.close()
PY
    curl -fsS "$base/items/5.json" | grep -q '"id":"5"' && kill -0 "$server"
}
check "a slow CSV reader and 20 that leave mid-stream: the server still answers" slow_and_gone

section "another process writes while the server reads"
writes_while_reading() {
    local etag before after
    etag=$(curl -fsS -D - -o /dev/null "$base/items.json?limit=10" | tr -d '\r' | awk 'tolower($1)=="etag:" {print $2}')
    [ "$(curl -sS -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$base/items.json?limit=10")" = 304 ] || { echo "    no 304 before the write"; return 1; }
    curl -fsS "$base/items.csv" >"$work/during.csv" &
    local reader=$!
    "$python" - "$work/shop.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
for i in range(20):
    db.execute("UPDATE items SET title = 'Rewritten ' || ? WHERE id = ?", (i, i + 1))
    db.commit()
db.execute("INSERT INTO items (id, sku, title, name, category_id, status, quantity, rank, price, weight, rating, created, discount, in_stock, description) SELECT 1000001, 'SKU-1000001', 'Newest', name, category_id, status, quantity, rank, price, weight, rating, created, discount, in_stock, description FROM items WHERE id = 1")
db.commit()
PY
    wait "$reader" || { echo "    the CSV read during the writes failed"; return 1; }
    before=$(wc -l <"$work/during.csv")
    after=$(curl -fsS -D "$work/headers" "$base/items.json?limit=10" | grep -o '"title":"Rewritten 0"' | head -1)
    [ "$(curl -sS -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$base/items.json?limit=10")" = 200 ] || { echo "    still 304 after the write"; return 1; }
    [ -n "$after" ] || { echo "    the page does not show the write"; return 1; }
    curl -fsS "$base/items/1000001.json" | grep -q Newest || { echo "    the inserted row is not found"; return 1; }
    echo "    CSV read during 21 commits: $before lines; the ETag changed, the page shows the write"
}
check "writes by another process: the CSV read across them completes, validators and pages follow them" writes_while_reading

section "the file replaced on disk"
replaced() {
    "$python" - "$work/next.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""CREATE TABLE items (id INTEGER PRIMARY KEY, sku TEXT, title TEXT, name TEXT, category_id INTEGER, status TEXT,
    quantity INTEGER, rank INTEGER, price REAL, weight REAL, rating REAL, created TEXT, discount REAL, in_stock INTEGER, description TEXT);
CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO items (id, sku, title) VALUES (1, 'SKU-0000001', 'From the new file');""")
db.commit()
PY
    mv "$work/next.db" "$work/shop.db"
    curl -fsS "$base/items/1.json" | grep -q "From the new file" || { echo "    the old file is still served"; return 1; }
    curl -fsS "$base/items.json" | grep -q '"total":1,' || { echo "    the list is not the new file's"; return 1; }
}
check "a new file moved into place with rename is served" replaced
check "the server is still up" kill -0 "$server"

kill -TERM "$server"
status=0
wait "$server" || status=$?
server=
check "SIGTERM: exit 0 (got $status)" test "$status" = 0
if grep -qE "Fatal error|level=critical" "$artifacts/database-server.log"; then fail "the server log reports a fault"; fi
echo
echo "database: $passed passed, $failed failed"
[ "$failed" = 0 ]
