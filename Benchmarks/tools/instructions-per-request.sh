#!/usr/bin/env bash
# Instructions a server binary spends per request, under callgrind (repeatable on a noisy machine):
#   Benchmarks/tools/instructions-per-request.sh BINARY PATH [REQUESTS]
# Runs the server twice under valgrind, answering REQUESTS (default 1000) and then twice as many
# keep-alive requests for PATH from one client, and prints the difference per request, counted
# in the worker threads only (`start_thread`, inclusive; collection is on only inside it). The
# program's total would also count start-up and the shutdown's freeing of the data sets, which
# differ from run to run.
# Run it from the project root (the server reads Public/ from there). PORT defaults to 8093;
# READY is the path polled until the server answers (default /healthz; /hello for c-mhd).
# HEADER='Name: value' adds a header field to every request (a session: HEADER="Cookie: cellar_session=…";
# the server reads CELLAR_CONFIG and CELLAR_SECRET from the environment).
# METHOD and BODY make the requests another method with a body (sent as application/json):
# METHOD=POST BODY='{"row": {"name": "a"}}' for the write API. SERVE_ARGS are added to `serve`
# (word-split: --database FILE --writable --config FILE); BEFORE_RUN is a shell command run before
# each of the two servers starts (a fresh copy of a database file).
# KEEP=DIR keeps both callgrind outputs there, and prints the functions whose own instructions
# grew the most per request (where the requests' instructions go).
# SIM=1 also simulates the caches and branch predictors (callgrind's models, not this CPU's) and
# prints their misses a request: instruction-cache misses show how much code a request walks
# through, which counts more than instructions when two servers' times differ more than their
# instructions do.
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '2,9p' "$0" >&2; exit 2; fi
simulate=()
[ -n "${SIM:-}" ] && simulate=(--cache-sim=yes --branch-sim=yes)
binary=$1 path=$2 requests=${3:-1000}
port=${PORT:-8093}
ready=${READY:-/healthz}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read Swift 6.3's DWARF: a copy without debug information.
strip --strip-debug "$binary" -o "$work/server"
client() {
    python3 - "$port" "$1" "$path" <<'PY'
import os, re, socket, sys
port, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
connection = socket.create_connection(("127.0.0.1", port))
extra = os.environ.get("HEADER", "")
method, body = os.environ.get("METHOD", "GET"), os.environ.get("BODY", "").encode()
if body:
    extra += ("\r\n" if extra else "") + f"Content-Type: application/json\r\nContent-Length: {len(body)}"
request = (f"{method} {path} HTTP/1.1\r\nHost: localhost\r\n" + (extra + "\r\n" if extra else "") + "\r\n").encode() + body
for _ in range(count):
    connection.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if not 200 <= status < 300:
        sys.exit(f"{path} answered {status}: {body[:300]!r}")
    length = re.search(rb"(?i)content-length: (\d+)", head)
    if not length:
        sys.exit(f"no Content-Length in the answer to {path} (a streamed page?)")
    while len(body) < int(length.group(1)):
        body += connection.recv(65536)
PY
}
run() {
    [ -n "${BEFORE_RUN:-}" ] && bash -c "$BEFORE_RUN"
    # shellcheck disable=SC2086
    HOST=127.0.0.1 PORT=$port valgrind --tool=callgrind "${simulate[@]}" --collect-atstart=no --toggle-collect=start_thread --callgrind-out-file="$work/$1.out" "$work/server" serve ${SERVE_ARGS:-} >"$work/$1.log" 2>&1 &
    local server=$!
    for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$port$ready" && break; sleep 0.5; done
    client "$1"
    kill -INT "$server"
    wait "$server" || true
    # Every event's count on start_thread's line (instructions first), without the percentages.
    callgrind_annotate --inclusive=yes --threshold=100 "$work/$1.out" |
        awk '/start_thread/ && !found { gsub(/\([^)]*\)/, ""); gsub(",", ""); NF--; print; found = 1 }'
}
read -r -a first <<<"$(run "$requests")"
read -r -a second <<<"$(run $((requests * 2)))"
echo "$path: $(( (second[0] - first[0]) / requests )) instructions a request (worker threads; $requests and $((requests * 2)) requests)"
if [ -n "${SIM:-}" ]; then
    # callgrind's event order with both simulations: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
    per() { echo $(( (second[$1] - first[$1]) / requests )); }
    echo "  a request: $(per 3) instruction-cache misses (L1), $(per 4) + $(per 5) data-cache misses (L1 read + write), $(per 10) of $(per 9) conditional and $(per 12) of $(per 11) indirect branches mispredicted"
fi
if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP"
    cp "$work/$requests.out" "$work/$((requests * 2)).out" "$KEEP/"
    python3 - "$KEEP/$requests.out" "$KEEP/$((requests * 2)).out" "$requests" <<'PY'
import re, subprocess, sys
def functions(path):
    text = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", path], capture_output=True, text=True).stdout
    costs = {}
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)", line)
        if match and "PROGRAM TOTALS" not in match.group(2):
            costs[match.group(2)] = costs.get(match.group(2), 0) + int(match.group(1).replace(",", ""))
    return costs
first, second, requests = functions(sys.argv[1]), functions(sys.argv[2]), int(sys.argv[3])
growth = sorted(((second.get(name, 0) - first.get(name, 0)) / requests, name) for name in set(first) | set(second))
for cost, name in reversed(growth[-40:]):
    print(f"{cost:10.1f}  {name[:160]}")
PY
fi
