#!/usr/bin/env bash
# Checks that the C ceiling server (Benchmarks/ceiling) answers the benchmark URLs with Cellar's
# exact response: builds it, starts it and a Cellar binary side by side, and for each path compares
# the bodies byte for byte and the status and header lines in order: without Date, and without
# the values of X-Request-ID and ETag, which must only be 16 lowercase hex digits (quoted, for the
# ETag: Cellar derives listbench's from a seed that depends on its binary). One line a path; exits
# 1 on any difference. Ports: CELLAR_PORT (9211) and CEILING_PORT (9212).
#   Benchmarks/tools/ceiling-check.sh [CELLAR_BINARY]     (default .build/release/cellar)
set -euo pipefail
if [ $# -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then sed -n '2,7p' "$0" >&2; exit 2; fi
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cellar=${1:-.build/release/cellar}
[ -x "$cellar" ] || { echo "no Cellar binary at $cellar" >&2; exit 2; }
cellar_port=${CELLAR_PORT:-9211}
ceiling_port=${CEILING_PORT:-9212}
paths=(
    '/listbench?limit=100'
    '/listbench?limit=10000'
    '/listbench?offset=99990&limit=50'
    '/listbench?limit=1'
    '/listbench?offset=5&limit=3'
    '/listbench.json?limit=100'
    '/listbench.json?limit=10000'
    '/listbench.json?offset=99990&limit=50'
    '/healthz'
)

make -s -C Benchmarks/ceiling >&2

work=$(mktemp -d)
servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# start NAME PORT COMMAND...: starts a server on a free port and waits for /healthz.
start() {
    local name=$1 port=$2
    shift 2
    if curl -s -o /dev/null "http://127.0.0.1:$port/"; then echo "port $port is already in use" >&2; exit 2; fi
    HOST=127.0.0.1 PORT=$port "$@" >"$work/$name.log" 2>&1 &
    local pid=$!
    servers+=("$pid")
    for _ in $(seq 100); do
        curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "$name did not start on port $port:" >&2
    cat "$work/$name.log" >&2
    exit 2
}
start cellar "$cellar_port" "$cellar" serve
start ceiling "$ceiling_port" Benchmarks/ceiling/ceiling

# headers FILE: the status line and header lines, without Date, with X-Request-ID's value checked and dropped.
headers() {
    tr -d '\r' <"$1" | sed '/^$/d' | grep -v -i '^Date:' |
        sed -E -e 's/^(X-Request-ID): [0-9a-f]{16}$/\1: (16 hex digits)/I' -e 's/^(ETag): "[0-9a-f]{16}"$/\1: "(16 hex digits)"/I'
}
etag() { tr -d '\r' <"$1" | sed -n -E 's/^ETag: //Ip'; }  # printed with the path

status=0
for path in "${paths[@]}"; do
    curl -s -D "$work/a.head" -o "$work/a.body" "http://127.0.0.1:$cellar_port$path"
    curl -s -D "$work/b.head" -o "$work/b.body" "http://127.0.0.1:$ceiling_port$path"
    problems=()
    cmp -s "$work/a.body" "$work/b.body" || problems+=("body ($(wc -c <"$work/a.body") vs $(wc -c <"$work/b.body") bytes)")
    # The header lines include the ETag's value.
    diff -q <(headers "$work/a.head") <(headers "$work/b.head") >/dev/null || problems+=(headers)
    if [ ${#problems[@]} -eq 0 ]; then
        printf 'same       %-40s %8d bytes %s\n' "$path" "$(wc -c <"$work/b.body")" "$(etag "$work/b.head")"
    else
        printf 'different  %-40s %s\n' "$path" "${problems[*]}"
        diff <(headers "$work/a.head") <(headers "$work/b.head") | sed 's/^/    /' || true
        status=1
    fi
done
exit $status
