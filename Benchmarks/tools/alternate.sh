#!/usr/bin/env bash
# Two builds of the server, A and B, measured in alternation on one path: a fresh server each
# time (pinned to core 1), a short warm-up, then `wrk -t1 -c32` on core 0. Alternating rounds
# spread the machine's drift over both; compare the medians it prints, not single rounds.
#   Benchmarks/tools/alternate.sh BINARY_A BINARY_B PATH [ROUNDS] [SECONDS]
set -euo pipefail
if [ $# -lt 3 ]; then sed -n '2,5p' "$0" >&2; exit 2; fi
a=$1 b=$2 path=$3 rounds=${4:-3} seconds=${5:-6}
port=${PORT:-8097}
declare -A results
for _ in $(seq "$rounds"); do
    for name in A B; do
        binary=$a
        [ "$name" = B ] && binary=$b
        HOST=127.0.0.1 PORT=$port taskset -c 1 "$binary" serve >/dev/null 2>&1 &
        server=$!
        for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
        taskset -c 0 wrk -t1 -c4 -d2s "http://127.0.0.1:$port$path" >/dev/null
        rps=$(taskset -c 0 wrk -t1 -c32 -d"${seconds}s" "http://127.0.0.1:$port$path" | awk '/Requests\/sec/ {print $2}')
        kill "$server"
        wait "$server" 2>/dev/null || true
        echo "$name $rps"
        results[$name]="${results[$name]:-} $rps"
    done
done
for name in A B; do
    echo "$name:${results[$name]}  median $(tr ' ' '\n' <<<"${results[$name]}" | sed '/^$/d' | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')"
done
