#!/usr/bin/env bash
# The user and system CPU time a running server spends per request, from /proc over one wrk run.
#   Benchmarks/tools/cpu-per-request.sh PID URL [SECONDS]
# wrk runs pinned to core 0 (`taskset -c 0 wrk -t1 -c32`); pin the server to another core.
# Prints: URL, req/s, user and system microseconds per request. Run it for two servers in the
# same minute and compare those, not numbers from another time: the machine is shared.
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '2,6p' "$0" >&2; exit 2; fi
pid=$1 url=$2 seconds=${3:-5}
[ -r "/proc/$pid/stat" ] || { echo "no process $pid" >&2; exit 1; }
ticks=$(getconf CLK_TCK)
# Fields 14 and 15 of /proc/PID/stat (utime, stime), counted after the command name's closing parenthesis.
times() { sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12, $13}'; }
read -r user0 system0 < <(times)
out=$(taskset -c 0 wrk -t1 -c32 -d"${seconds}s" "$url")
read -r user1 system1 < <(times)
requests=$(awk '/requests in/ {print $1}' <<<"$out")
rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
[ -n "$requests" ] && [ "$requests" -gt 0 ] || { echo "wrk made no requests:" >&2; echo "$out" >&2; exit 1; }
awk -v url="$url" -v rps="$rps" -v n="$requests" -v hz="$ticks" -v u=$((user1 - user0)) -v s=$((system1 - system0)) \
    'BEGIN { printf "%s  %9.0f req/s  user %7.2f µs  sys %7.2f µs per request\n", url, rps, u / hz / n * 1e6, s / hz / n * 1e6 }'
