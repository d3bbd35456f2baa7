#!/usr/bin/env bash
# Starts the cellar binary on a free loopback port and checks what it serves with tools we did
# not write: an HTML5 parser (html5lib), the Nu HTML Checker, Chromium with axe-core.
#   Tests/e2e/run.sh BINARY [ARTIFACTS_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?usage: run.sh BINARY [ARTIFACTS_DIR]}
artifacts=${2:-$root/Tests/artifacts}
mkdir -p "$artifacts"
python=${PYTHON:-python3}

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
log="$artifacts/e2e-server.log"

cd "$root"
CELLAR_HOSTILE_PAYLOADS="$here/xss_payloads.json" HOST=127.0.0.1 PORT=$port "$binary" serve --public "$root/Public" >"$log" 2>&1 &
server=$!
stop() { kill "$server" 2>/dev/null || true; }
trap stop EXIT
for _ in $(seq 1 120); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { echo "the server exited at start-up:"; cat "$log"; exit 1; }
    sleep 0.5
done
curl -fsS "$base/healthz" >/dev/null

failures=0
step() {
    echo "== $*"
    if "$@"; then echo "   ok"; else echo "   FAILED: $*"; failures=$((failures + 1)); fi
}

payload_count=$("$python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$here/xss_payloads.json")
step "$python" "$here/check_markup.py" --base-url "$base" / /people /settings /catalog '/catalog?q=zzqx' /reports /people/4 /catalog/sancerre \
    '/people?offset=50&limit=50&fragment=rows' '/big?limit=500'
step "$python" "$here/check_markup.py" --base-url "$base" "/xss?limit=$payload_count" "/xss?limit=$payload_count&fragment=rows" \
    --expect-text "$here/xss_payloads.json"
step "$python" "$here/check_markup.py" --base-url "$base" /xss/0-x /xss/1-x /xss/2-x /xss/3-x /xss/5-x /xss/8-x
step "$python" "$here/validate_html.py" --base-url "$base" / /people /settings /catalog '/catalog?q=zzqx' /reports /xss \
    '/people?offset=9990' /people/4 /settings/climate /catalog/sancerre /xss/1-x '/no-such-page#404' '/people?limit=abc#400'
step "$python" "$here/browser_test.py" --base-url "$base" --screenshots "$artifacts/screenshots"

kill -TERM "$server"
status=0
wait "$server" || status=$?
trap - EXIT
if [ "$status" -ne 0 ]; then
    echo "the server exited with status $status after SIGTERM"; failures=$((failures + 1))
fi
if [ "$failures" -ne 0 ]; then
    echo "e2e: $failures step(s) failed (server log: $log)"
    exit 1
fi
echo "e2e: every step passed"
