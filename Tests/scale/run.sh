#!/usr/bin/env bash
# The scale rehearsal: three `cellar serve --database` replicas behind nginx, all on loopback, in a
# temporary folder removed after, over one of two shared databases of a million rows:
#   Tests/scale/run.sh BINARY [ARTIFACTS_DIR] [sqlite|postgres]
#   sqlite    one SQLite file in WAL mode, on the replicas' machine;
#   postgres  a throwaway PostgreSQL 15 cluster (Tests/postgres/cluster.sh), the tables loaded by
#             Benchmarks/database/load-postgres.sh, the replicas logging in as the read-only role
#             deploy/postgres/10-cellar-reader.sh makes (the script compose.yaml's PostgreSQL runs),
#             their password in PGPASSWORD, never on a command line.
# nginx runs deploy/nginx/nginx.conf, the file both compose files mount, unchanged; only its two
# includes are written here (deploy's upstream lines with loopback ports, and a loopback listen).
#   (b) every replica answers a page, its JSON and a cursor page (the cursor from another
#       replica) with the same bytes and ETag, and one replica's ETag is a 304 through the proxy;
#   (a) wrk through the proxy while one replica is killed with SIGKILL and restarted: no failed
#       request except responses already begun when it died (nginx's error log counts those),
#       and the restarted replica gets requests again;
#   (c) a write by the sqlite3 command line (or psql) reaches a watcher (Accept: text/event-stream,
#       through nginx, which gets `X-Accel-Buffering: no` and keeps it) on each of the three
#       replicas — each polling the file itself, or told by PostgreSQL's NOTIFY (the triggers
#       `cellar database install-triggers` installs); the time each event took is printed.
# Over PostgreSQL, also:
#   (s) the replicas start while PostgreSQL is down: alive, not ready, lists 503 with Retry-After;
#       ready and serving once it is up, without a restart;
#   (r) PostgreSQL restarted under wrk: 503s meanwhile (counted), then full service, same processes;
#   (f) PostgreSQL frozen with SIGSTOP for longer than the query time limit: lists answer 503 by
#       the limit (and the cancel's grace), /healthz still answers, and after SIGCONT every replica
#       serves again, same bytes, no restart.
# Environment: PYTHON (python3), SCALE_PORT_BASE (ports BASE..BASE+3 instead of free ones),
# SCALE_ROWS (1000000), SCALE_WRK_SECONDS (20). No wall-clock assertion with a margin under 10 s:
# the times are printed, the checks are statuses, bytes and counts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?usage: run.sh BINARY [ARTIFACTS_DIR] [sqlite|postgres]}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
artifacts=${2:-$root/Tests/artifacts}
database=${3:-sqlite}
case $database in sqlite | postgres) ;; *) echo "usage: run.sh BINARY [ARTIFACTS_DIR] [sqlite|postgres]" >&2; exit 64 ;; esac
mkdir -p "$artifacts/scale-$database"
artifacts=$(cd "$artifacts/scale-$database" && pwd)
python=${PYTHON:-python3}
rows=${SCALE_ROWS:-1000000}
wrk_seconds=${SCALE_WRK_SECONDS:-20}
# pass, fail, check, section, now, elapsed, free_port
. "$root/Tests/support/checks.sh"
started=$(now)

for tool in nginx wrk sqlite3 curl; do
    command -v "$tool" >/dev/null || { echo "scale: $tool is not installed (make test-deps installs it)"; exit 1; }
done
if [ "$database" = postgres ]; then
    command -v psql >/dev/null || { echo "scale: psql is not installed (make test-deps installs postgresql-15)"; exit 1; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cellar-scale.XXXXXX")
# nginx's workers run as another user when the master is root: they must reach its prefix.
chmod 755 "$work"
declare -a replica_pids=("" "" "")
nginx_pid=
cleanup() {
    local pid
    # A cluster frozen by a failed check is thawed, so that it can stop.
    [ -n "${frozen:-}" ] && kill -CONT $frozen 2>/dev/null || true
    for pid in "${replica_pids[@]}" "$nginx_pid"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    for pid in "${replica_pids[@]}" "$nginx_pid"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; done
    [ "$database" = postgres ] && "$root/Tests/postgres/cluster.sh" stop "$work/postgres" >/dev/null 2>&1 || true
    # What the replicas, the proxy and PostgreSQL said, for a failure's post-mortem.
    cp "$work"/*.log "$work"/nginx/*.log "$artifacts/" 2>/dev/null || true
    cp "$work"/postgres/server.log "$artifacts/postgres.log" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${SCALE_PORT_BASE:-}" ]; then
    proxy_port=$SCALE_PORT_BASE
    ports=($((SCALE_PORT_BASE + 1)) $((SCALE_PORT_BASE + 2)) $((SCALE_PORT_BASE + 3)))
    postgres_port=$((SCALE_PORT_BASE + 4))
else
    proxy_port=$(free_port)
    ports=($(free_port) $(free_port) $(free_port))
    postgres_port=$(free_port)
fi
proxy="http://127.0.0.1:$proxy_port"
db="$work/shop.db"

if [ "$database" = sqlite ]; then
    section "a million rows, in WAL mode"
    t0=$(now)
    "$python" "$root/Benchmarks/database/make-bench-db.py" "$db" "$rows" | sed 's/^/    /'
    # WAL: the sqlite3 writer below does not wait for the replicas' readers, nor they for it.
    [ "$(sqlite3 "$db" 'PRAGMA journal_mode = WAL')" = wal ]
    pass "$rows rows generated in $(elapsed "$t0" "$(now)") s"
    location=$db
    # A write by another process: this command and the SQL.
    writer=(sqlite3 "$db")
else
    section "PostgreSQL 15: a throwaway cluster, a million rows, a read-only role"
    t0=$(now)
    owner_url=$("$root/Tests/postgres/cluster.sh" start "$work/postgres" "$postgres_port")
    "$python" "$root/Benchmarks/database/make-bench-db.py" "$db" "$rows" | sed 's/^/    /'
    "$root/Benchmarks/database/load-postgres.sh" "$db" "$owner_url"
    reader_password=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
    # The script compose.yaml's PostgreSQL runs when it makes its database, as the superuser
    # (through the cluster's socket) for the tables' owner, the test role.
    PGHOST="$work/postgres" PGPORT=$postgres_port POSTGRES_USER=postgres POSTGRES_DB=cellar_test \
        CELLAR_READER_PASSWORD=$reader_password CELLAR_TABLES_OWNER=cellar_test \
        sh "$root/deploy/postgres/10-cellar-reader.sh" >/dev/null
    pass "cluster on port $postgres_port, $rows rows loaded, role cellar_reader made, in $(elapsed "$t0" "$(now)") s"
    # Installed by the tables' owner: every replica is then told of each write by NOTIFY.
    check "cellar database install-triggers (as the tables' owner)" \
        "$binary" database install-triggers --database "$owner_url"
    location="postgres://cellar_reader@127.0.0.1:$postgres_port/cellar_test"
    writer=(psql -X -q -v ON_ERROR_STOP=1 "$owner_url" -c)
    cluster() { "$root/Tests/postgres/cluster.sh" "$1" "$work/postgres" "$postgres_port" >/dev/null; }
fi

# start_replica N LOG: replica N (0-based) on its port, its access log in LOG. Over PostgreSQL the
# password comes from libpq's PGPASSWORD, not the command line.
start_replica() {
    local n=$1 log=$2
    (cd "$root" && HOST=127.0.0.1 PORT=${ports[$n]} PGPASSWORD=${reader_password:-} exec "$binary" serve --database "$location" >"$log" 2>&1) &
    replica_pids[n]=$!
}
# ready URL: waits up to 20 s for URL to answer 200.
ready() {
    local _
    for _ in $(seq 1 200); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done
    return 1
}

# status_of URL [HEADER]: the status of a GET, 000 when nothing answered within 15 s.
status_of() { curl -sS -o /dev/null -w '%{http_code}' --max-time 15 ${2:+-H "$2"} "$1" 2>/dev/null || true; }

if [ "$database" = postgres ]; then
    section "(s) the replicas start while PostgreSQL is down"
    cluster stop
fi
section "three replicas and nginx (deploy/nginx/nginx.conf)"
for n in 0 1 2; do start_replica "$n" "$work/replica-$((n + 1)).log"; done
if [ "$database" = postgres ]; then
    # alive_not_ready N: replica N answers /healthz, but not /readyz nor its lists, with a reason.
    alive_not_ready() {
        local base="http://127.0.0.1:${ports[$1]}" _ headers
        for _ in $(seq 1 200); do curl -fsS -o /dev/null "$base/healthz" 2>/dev/null && break; sleep 0.1; done
        headers=$(curl -sS -D - -o "$work/down.json" -H 'Accept: application/json' "$base/items?limit=5" | tr -d '\r')
        echo "    replica $(($1 + 1)): /healthz $(status_of "$base/healthz"), /readyz $(status_of "$base/readyz"), /items $(echo "$headers" | head -1 | cut -d' ' -f2) ($(echo "$headers" | grep -i '^retry-after:' || echo 'no Retry-After')): $(head -c 120 "$work/down.json")"
        [ "$(status_of "$base/healthz")" = 200 ] && [ "$(status_of "$base/readyz")" = 503 ] &&
            echo "$headers" | head -1 | grep -q ' 503' && echo "$headers" | grep -qi '^retry-after:' &&
            [ "$(status_of "$base/items")" = 503 ] && kill -0 "${replica_pids[$1]}"
    }
    for n in 0 1 2; do check "replica $((n + 1)), PostgreSQL down: alive (/healthz 200), not ready (/readyz 503), /items 503 with Retry-After" alive_not_ready "$n"; done
    postgres_started=$(now)
    cluster start
    pass "PostgreSQL started again"
fi
for n in 0 1 2; do
    ready "http://127.0.0.1:${ports[$n]}/readyz" || { echo "replica $((n + 1)) is not ready:"; cat "$work/replica-$((n + 1)).log"; exit 1; }
done
pass "replicas ready on ports ${ports[*]} (GET /readyz)${postgres_started:+, $(elapsed "$postgres_started" "$(now)") s after PostgreSQL started}"
same_processes() { local pid; for pid in "${replica_pids[@]}"; do kill -0 "$pid" || return 1; done; }
[ "$database" = postgres ] && check "the replicas that started while PostgreSQL was down are the ones serving" same_processes

mkdir "$work/nginx"
cp "$root/deploy/nginx/nginx.conf" "$work/nginx/nginx.conf"
# deploy's own upstream lines, each service name and port replaced by a loopback port.
sed -e "s/cellar-1:8080/127.0.0.1:${ports[0]}/" -e "s/cellar-2:8080/127.0.0.1:${ports[1]}/" -e "s/cellar-3:8080/127.0.0.1:${ports[2]}/" \
    "$root/deploy/nginx/upstreams.conf" >"$work/nginx/upstreams.conf"
echo "listen 127.0.0.1:$proxy_port;" >"$work/nginx/listen.conf"
nginx_args=(-p "$work/nginx/" -c "$work/nginx/nginx.conf" -e stderr -g "pid $work/nginx/nginx.pid; daemon off;")
same_config() {
    cmp -s "$root/deploy/nginx/nginx.conf" "$work/nginx/nginx.conf" &&
        [ "$(grep -c '^server ' "$work/nginx/upstreams.conf")" = 3 ] &&
        ! grep -q 'cellar-' "$work/nginx/upstreams.conf" &&
        nginx -t -q "${nginx_args[@]}" 2>"$work/nginx/test.log"
}
check "nginx -t accepts deploy/nginx/nginx.conf with loopback upstreams (the file unchanged)" same_config
nginx "${nginx_args[@]}" >"$work/nginx/access.log" 2>"$work/nginx/error.log" &
nginx_pid=$!
ready "$proxy/readyz" || { echo "nginx does not answer:"; cat "$work/nginx/error.log"; exit 1; }
pass "nginx $(nginx -v 2>&1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+') in front, on port $proxy_port"

# ------------------------------------------------------------------------------------ (b)
section "(b) every replica: the same bytes and ETag"
same_answers() {
    "$python" - "$proxy" "${ports[@]}" <<'PY'
import hashlib, json, sys, urllib.request
proxy, ports = sys.argv[1], sys.argv[2:]
def get(url, headers={}):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
replica = lambda n: "http://127.0.0.1:%s" % ports[n]
# A cursor page whose cursor comes from replica 1, deep in the table.
url = "/items.json?sort=-price&limit=100"
for _ in range(20):
    status, headers, body = get(replica(0) + url)
    url = json.loads(body)["links"]["next"]
assert "cursor=" in url, url
targets = ["/items?limit=50", "/items.json?limit=50", url, url.replace(".json", "", 1), "/items/123456.json", "/"]
ok = True
for target in targets:
    answers = [get(replica(n) + target) for n in range(3)]
    statuses = {a[0] for a in answers}
    tags = {a[1]["ETag"] for a in answers}
    digests = {hashlib.sha256(a[2]).hexdigest()[:16] for a in answers}
    same = statuses == {200} and len(tags) == 1 and len(digests) == 1
    # The validator of one replica is a 304 from whichever the proxy picks, three times over.
    # (A row's detail without a version has none: it is read anew each time.)
    tag = answers[0][1]["ETag"]
    if tag is None:
        proxied = "no ETag"
        same = same and "/items/" in target
    else:
        proxied = [get(proxy + target, {"If-None-Match": tag})[0] for _ in range(3)]
        same = same and proxied == [304] * 3
    ok = ok and same
    print("    %-4s %-60s %s, ETag %s, %d bytes, through nginx with If-None-Match: %s" % (
        "same" if same else "DIFF", target[:60], "/".join(sorted(digests)), "/".join(sorted(t or "none" for t in tags)), len(answers[0][2]), proxied))
sys.exit(0 if ok else 1)
PY
}
check "a page, its JSON, a cursor page (cursor from replica 1), a row, the index: same bytes and ETag on all three" same_answers

# ------------------------------------------------------------------------------------ (a)
section "(a) wrk through nginx; replica 2 killed with SIGKILL, then restarted"
cat >"$work/paths.lua" <<'EOF'
-- Three kinds of page, in turn: a short JSON page, an HTML page, a deeper offset page.
local paths = { "/items.json?limit=20", "/items?limit=20", "/items.json?limit=20&offset=5000" }
local i = 0
request = function()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
EOF
kill_and_restart() {
    local killed_at restarted_at
    wrk -t 2 -c 16 -d "${wrk_seconds}s" --timeout 10s --latency -s "$work/paths.lua" "$proxy" >"$work/wrk.txt" 2>&1 &
    local load=$! load_started
    load_started=$(date +%s.%N)
    sleep $((wrk_seconds / 4))
    kill -KILL "${replica_pids[1]}"
    wait "${replica_pids[1]}" 2>/dev/null || true
    killed_at=$(date +%s.%N)
    sleep 2
    start_replica 1 "$work/replica-2-restarted.log"
    ready "http://127.0.0.1:${ports[1]}/readyz" || { echo "    replica 2 did not come back"; kill "$load"; return 1; }
    restarted_at=$(date +%s.%N)
    wait "$load" || { cat "$work/wrk.txt"; return 1; }
    sed 's/^/    /' "$work/wrk.txt"
    echo "    replica 2 killed $(awk -v a="$load_started" -v b="$killed_at" 'BEGIN{printf "%.1f", b - a}') s into the run, ready again $(awk -v a="$killed_at" -v b="$restarted_at" 'BEGIN{printf "%.1f", b - a}') s later"
}
check "wrk ran ${wrk_seconds} s through nginx while replica 2 was killed and restarted" kill_and_restart
no_failed_requests() {
    local requests non2xx socket begun
    requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
    non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$work/wrk.txt")
    socket=$(awk '/Socket errors:/ {gsub(",", ""); print $4 + $6 + $8 + $10}' "$work/wrk.txt")
    # A response nginx had begun to send when its replica died cannot be retried: nginx says so.
    begun=$(grep -c 'upstream prematurely closed connection while reading upstream' "$work/nginx/error.log" || true)
    echo "    $requests requests: ${non2xx:-0} non-2xx, ${socket:-0} socket errors; responses begun when the replica died: $begun"
    echo "    nginx retried on another replica: $(grep -cE 'while (connecting to|reading response header from) upstream' "$work/nginx/error.log" || true) attempts"
    [ "${non2xx:-0}" = 0 ] && [ "${socket:-0}" -le "$begun" ] && [ "$requests" -gt 0 ]
}
check "no failed request but responses already begun when the replica died" no_failed_requests
rejoined() {
    local served
    # nginx tries a failed replica again after fail_timeout (5 s): its new process is sent requests.
    served=$(grep -c 'GET /items' "$work/replica-2-restarted.log" || true)
    echo "    the restarted replica 2 served $served of wrk's requests"
    [ "$served" -gt 0 ]
}
check "the restarted replica rejoined (its new access log has wrk's requests)" rejoined
all_three_serve() {
    # Through the proxy, request ids tell replicas apart: each process draws its prefix at start.
    local prefixes
    prefixes=$(for _ in $(seq 1 30); do curl -fsS -D - -o /dev/null "$proxy/items.json?limit=1"; done |
        tr -d '\r' | awk 'tolower($1)=="x-request-id:" {print substr($2, 1, 8)}' | sort -u | wc -l)
    echo "    30 requests through nginx reached $prefixes replicas (distinct X-Request-ID prefixes)"
    [ "$prefixes" = 3 ]
}
check "30 requests through nginx after the restart reach all three replicas" all_three_serve

# ------------------------------------------------------------------------------------ (c)
section "(c) a write by ${writer[0]} reaches watchers on all three replicas, through nginx"
watchers() {
    "$python" - "$proxy_port" "${ports[@]}" -- "${writer[@]}" <<'PY'
import socket, subprocess, sys, time, urllib.request
proxy_port, ports, writer = int(sys.argv[1]), sys.argv[2:sys.argv.index("--")], sys.argv[sys.argv.index("--") + 1:]
# Each replica's request-id prefix, asked directly.
prefix = {}
for n, port in enumerate(ports):
    with urllib.request.urlopen("http://127.0.0.1:%s/healthz" % port) as response:
        prefix[response.headers["X-Request-ID"][:8]] = n + 1
def watch(port=proxy_port):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"GET /items.json?limit=10 HTTP/1.1\r\nHost: scale\r\nAccept: text/event-stream\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk: raise SystemExit("the watch closed before its head")
        head += chunk
    head, rest = head.split(b"\r\n\r\n", 1)
    fields = dict(line.split(": ", 1) for line in head.decode().split("\r\n")[1:])
    assert head.startswith(b"HTTP/1.1 200"), head
    assert fields.get("Content-Type") == "text/event-stream", fields
    return s, prefix.get(fields.get("X-Request-ID", "")[:8]), rest, fields
# A replica asks a proxy not to buffer its event streams; nginx takes the header to itself.
s, _, _, fields = watch(int(ports[0]))
s.close()
assert fields.get("X-Accel-Buffering") == "no", fields
# nginx sends connections round-robin: open watches until each replica has one.
watches = {}
for _ in range(12):
    s, replica, rest, fields = watch()
    assert "X-Accel-Buffering" not in fields, "nginx passed X-Accel-Buffering on"
    if replica and replica not in watches: watches[replica] = (s, rest)
    else: s.close()
    if len(watches) == 3: break
print("    watchers through nginx on replicas %s" % sorted(watches))
assert len(watches) == 3, "not every replica got a watcher"
time.sleep(1)  # each replica's poller has seen the file once, or listens
written = time.monotonic()
subprocess.run(writer + ["UPDATE items SET title = 'Written by another process' WHERE id = 3"], check=True)
arrived = {}
for replica, (s, rest) in watches.items():
    s.settimeout(10)
    data = rest
    while b"Written by another process" not in data:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk: break
        data += chunk
    if b"Written by another process" in data: arrived[replica] = time.monotonic() - written
    s.close()
for replica in sorted(watches):
    print("    replica %d: %s" % (replica, "event after %.2f s" % arrived[replica] if replica in arrived else "no event within 10 s"))
sys.exit(0 if len(arrived) == 3 else 1)
PY
}
check "the UPDATE reaches a watcher on each replica through nginx (which took X-Accel-Buffering: no to itself)" watchers

if [ "$database" = postgres ]; then
    # ------------------------------------------------------------------------------------ (r)
    section "(r) PostgreSQL restarted under wrk through nginx"
    cat >"$work/statuses.lua" <<'EOF'
-- Counts responses by status, over wrk's threads; the paths as in paths.lua.
local paths = { "/items.json?limit=20", "/items?limit=20", "/items.json?limit=20&offset=5000" }
local i = 0
local threads = {}
counts = {}
function setup(thread) table.insert(threads, thread) end
request = function()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
function response(status) counts[status] = (counts[status] or 0) + 1 end
function done()
    local total = {}
    for _, thread in ipairs(threads) do
        for status, n in pairs(thread:get("counts")) do total[status] = (total[status] or 0) + n end
    end
    for status, n in pairs(total) do io.write(string.format("status %d %d\n", status, n)) end
end
EOF
    # same_pages: every replica answers /items?limit=50 with 200 and the bytes the first answered
    # before the faults (in $work/page.html), waiting up to 30 s for each.
    curl -fsS "http://127.0.0.1:${ports[0]}/items?limit=50" -o "$work/page.html"
    same_pages() {
        local n _ ok
        for n in 0 1 2; do
            ok=
            for _ in $(seq 1 300); do
                if curl -fsS -o "$work/again.html" "http://127.0.0.1:${ports[$n]}/items?limit=50" 2>/dev/null && cmp -s "$work/page.html" "$work/again.html"; then
                    ok=1
                    break
                fi
                sleep 0.1
            done
            [ -n "$ok" ] || { echo "    replica $((n + 1)) does not serve the page again"; return 1; }
        done
    }
    restart_under_load() {
        local restarted
        wrk -t 2 -c 16 -d "${wrk_seconds}s" --timeout 10s -s "$work/statuses.lua" "$proxy" >"$work/wrk-restart.txt" 2>&1 &
        local load=$!
        sleep $((wrk_seconds / 4))
        restarted=$(now)
        cluster stop
        sleep 2
        cluster start
        local up _
        up=$(now)
        echo "    PostgreSQL stopped (pg_ctl -m fast), down 2 s, up again after $(elapsed "$restarted" "$up") s"
        for _ in $(seq 1 300); do [ "$(status_of "http://127.0.0.1:${ports[0]}/items.json?limit=1")" = 200 ] && break; sleep 0.1; done
        echo "    replica 1 served a list again $(elapsed "$up" "$(now)") s after PostgreSQL was up (no restart of Cellar)"
        wait "$load" || { cat "$work/wrk-restart.txt"; return 1; }
        grep -E 'requests in|Socket errors|^status' "$work/wrk-restart.txt" | sort | sed 's/^/    /'
        # While the database was away: 200s and 503s, and nothing else.
        ! grep '^status' "$work/wrk-restart.txt" | grep -vqE '^status (200|503) ' &&
            grep -q '^status 200 ' "$work/wrk-restart.txt"
    }
    check "wrk through nginx while PostgreSQL restarted: only 200s and 503s" restart_under_load
    check "after the restart every replica serves the same page again, the same processes" eval 'same_pages && same_processes'

    # ------------------------------------------------------------------------------------ (f)
    section "(f) PostgreSQL frozen with SIGSTOP for 6 s, past the 1 s query time limit"
    frozen_answers() {
        "$python" - "${ports[@]}" <<'PY'
import concurrent.futures, sys, time, urllib.request
ports = sys.argv[1:]
def get(url):
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            status, retry = response.status, response.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        status, retry = error.code, error.headers.get("Retry-After")
    except Exception as error:
        status, retry = repr(error), None
    return status, retry, time.monotonic() - started
# Four list requests at once on each replica (more than its worker threads), then its /healthz.
with concurrent.futures.ThreadPoolExecutor(12) as pool:
    lists = list(pool.map(get, ["http://127.0.0.1:%s/items.json?limit=5&sort=-price&offset=%d" % (port, k) for port in ports for k in range(4)]))
health = [get("http://127.0.0.1:%s/healthz" % port) for port in ports]
for n, port in enumerate(ports):
    answers = lists[4 * n:4 * n + 4]
    print("    replica %d: lists %s in %s s; /healthz %s in %.2f s" % (
        n + 1, "/".join(str(a[0]) for a in answers), "/".join("%.1f" % a[2] for a in answers), health[n][0], health[n][2]))
ok = all(a[0] == 503 and a[1] for a in lists) and all(h[0] == 200 for h in health)
# Bounded by the limit, the cancel's grace and a connection's deadline: far below 20 s.
ok = ok and max(a[2] for a in lists + health) < 20
sys.exit(0 if ok else 1)
PY
    }
    freeze_and_thaw() {
        local postmaster stopped
        postmaster=$(head -1 "$work/postgres/data/postmaster.pid")
        frozen="$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
        kill -STOP $frozen
        stopped=$(now)
        frozen_answers || { kill -CONT $frozen; frozen=; return 1; }
        while [ $(($(now) - stopped)) -lt 6000000 ]; do sleep 0.2; done
        kill -CONT $frozen
        frozen=
        echo "    PostgreSQL's processes stopped for $(elapsed "$stopped" "$(now)") s, then continued"
    }
    check "while PostgreSQL is frozen: lists 503 with Retry-After by the deadline, /healthz 200" freeze_and_thaw
    check "after SIGCONT every replica serves the same page again, the same processes (no thread stuck)" eval 'same_pages && same_processes'
    no_password() {
        local found
        found=$(grep -l -F "$reader_password" "$work"/*.log "$work/nginx/"*.log 2>/dev/null || true)
        [ -z "$found" ] || { echo "    the password is in $found"; return 1; }
    }
    check "the reader's password is in no replica's or nginx's log" no_password
fi

section "summary"
echo "  (logs of the replicas and nginx: $artifacts)"
echo "  the rehearsal took $(elapsed "$started" "$(now)") s"
echo
echo "scale: $passed passed, $failed failed"
for failure in "${failures[@]+"${failures[@]}"}"; do echo "  failed: $failure"; done
[ "$failed" = 0 ]
