#!/usr/bin/env bash
# The reliability scripts against a real server, each on a fresh process:
#   Tests/reliability/run.sh BINARY [ARTIFACTS_DIR]
# garbage.py (malformed and mutated request heads; --strict-rfc), slow_clients.py (slowloris while a
# normal client measures latency, --strict-slowloris: tricklers must be cut; per-IP limit), vanish.py (clients that leave /big mid-stream: leaks).
# Each server is started on a free loopback port, stopped with SIGTERM, and must exit 0.
# Sizes suit CI (about 2-3 minutes on 2 cores); the outputs go to ARTIFACTS/reliability-*.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?usage: run.sh BINARY [ARTIFACTS_DIR]}
artifacts=${2:-$root/Tests/artifacts}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
python=${PYTHON:-python3}
cd "$root"

server=
stop_server() { [ -n "$server" ] && kill "$server" 2>/dev/null || true; }
trap stop_server EXIT

failures=()
# run NAME "SERVER FLAGS" SCRIPT ARGS... — the script also gets --port and --pid (the server's).
run() {
    local name=$1 flags=$2 script=$3
    shift 3
    local port log out status=0 started=$SECONDS
    port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    log="$artifacts/reliability-$name-server.log"
    out="$artifacts/reliability-$name.txt"
    # shellcheck disable=SC2086 # the flags are words
    HOST=127.0.0.1 PORT=$port "$binary" serve --public "$root/Public" --shutdown-grace 5 $flags >"$log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
        "$python" -c 'import sys, urllib.request; urllib.request.urlopen("http://127.0.0.1:%s/healthz" % sys.argv[1], timeout=1)' "$port" 2>/dev/null && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.2
    done
    echo "== $name: $binary serve $flags (pid $server, port $port)"
    {
        echo "\$ $(basename "$script") --port $port --pid $server $* (server: cellar serve $flags)"
        "$python" "$script" --port "$port" --pid "$server" "$@"
    } 2>&1 | tee "$out" || status=$?
    if ! kill -0 "$server" 2>/dev/null; then
        echo "   the server is gone (log: $log)"; status=1
    fi
    kill -TERM "$server" 2>/dev/null || true
    local exit_status=0
    wait "$server" || exit_status=$?
    server=
    if [ "$exit_status" -ne 0 ]; then
        echo "   the server exited with status $exit_status after SIGTERM (log: $log)"; status=1
    fi
    if grep -qE "Fatal error|AddressSanitizer|ThreadSanitizer|level=critical" "$log"; then
        echo "   the server log reports a fault:"; grep -E "Fatal error|Sanitizer|level=critical" "$log" | head -5; status=1
    fi
    echo "   $name: $([ "$status" -eq 0 ] && echo ok || echo FAILED) in $((SECONDS - started)) s"
    [ "$status" -eq 0 ] || failures+=("$name")
}

run garbage "--timeout 3" "$here/garbage.py" --cases "${GARBAGE_CASES:-3000}" --strict-rfc
run slow_clients "--timeout 3 --header-timeout 3 --max-connections 1000 --max-connections-per-ip 50" "$here/slow_clients.py" \
    --slow "${SLOW_CLIENTS:-300}" --timeout 3 --per-ip-limit 50 --trickle-seconds 10 --strict-slowloris
run vanish "--timeout 10" "$here/vanish.py" --count "${VANISH_COUNT:-1000}"

if [ ${#failures[@]} -ne 0 ]; then
    echo "reliability: FAILED: ${failures[*]} (outputs in $artifacts/reliability-*)"
    exit 1
fi
echo "reliability: every script passed (outputs in $artifacts/reliability-*)"
