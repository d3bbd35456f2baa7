#!/usr/bin/env bash
# Soak (make soak; not in CI): wrk on a mix of list pages, fragments, JSON and static files
# (soak.lua) at 64 connections, twice — phase 1, then on until at least a million requests in
# all, then phase 2 — with the server's errors, VmRSS and open descriptors after each phase.
#   Tests/reliability/soak.sh [BINARY] [ARTIFACTS_DIR]
# Environment: SOAK_SECONDS (each phase, default 180), SOAK_CONNECTIONS (64), SOAK_THREADS (2),
# SOAK_TOTAL (1000000), SOAK_MAX_RSS_GROWTH_MIB (16), SOAK_MAX_FD_GROWTH (5).
# Fails on any non-2xx answer or socket error, a dead server, an unclean stop, or growth of RSS
# or descriptors between the end of phase 1 and the end of phase 2.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
"$root/.ci/install-apt" wrk
binary=${1:-$root/.build/release/cellar}
artifacts=${2:-$root/Tests/artifacts}
mkdir -p "$artifacts"
seconds=${SOAK_SECONDS:-180}
connections=${SOAK_CONNECTIONS:-64}
threads=${SOAK_THREADS:-2}
total_wanted=${SOAK_TOTAL:-1000000}
max_rss_growth_mib=${SOAK_MAX_RSS_GROWTH_MIB:-16}
max_fd_growth=${SOAK_MAX_FD_GROWTH:-5}
python=${PYTHON:-python3}
report="$artifacts/soak.txt"
log="$artifacts/soak-server.log"

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
cd "$root"
HOST=127.0.0.1 PORT=$port CELLAR_LOG_LEVEL=${CELLAR_LOG_LEVEL:-warning} "$binary" serve --public "$root/Public" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { echo "the server exited at start-up:"; cat "$log"; exit 1; }
    sleep 0.2
done

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$server/status"; }
fds() { ls "/proc/$server/fd" | wc -l; }
mib() { awk -v kib="$1" 'BEGIN { printf "%.1f", kib / 1024 }'; }
established() { "$python" - "$port" <<'PY'
import sys
port = int(sys.argv[1])
with open("/proc/net/tcp") as table:
    next(table)
    print(sum(1 for line in table if int(line.split()[1].split(":")[1], 16) == port and line.split()[3] == "01"))
PY
}
# After a run: wait until the server holds no connection, then read RSS and descriptors.
settle() {
    for _ in $(seq 1 50); do [ "$(established)" -eq 0 ] && break; sleep 0.2; done
    sleep 1
}

total=0
errors=0
# run_wrk LABEL SECONDS: one wrk run; adds to total and errors; prints a one-line summary.
run_wrk() {
    local label=$1 duration=$2 out
    out=$(wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout 5s --latency -s "$here/soak.lua" "$base" 2>&1) || {
        echo "$out"; echo "wrk failed"; exit 1; }
    echo "$out" >>"$artifacts/soak-wrk.txt"
    local requests non2xx socket_errors rps p50 p99
    requests=$(echo "$out" | awk '/requests in/ { print $1 }')
    non2xx=$(echo "$out" | awk -F': ' '/Non-2xx or 3xx responses/ { print $2 }')
    socket_errors=$(echo "$out" | awk '/Socket errors/ { gsub(",", ""); print $4 + $6 + $8 + $10 }')
    rps=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
    p50=$(echo "$out" | awk '$1 == "50%" { print $2 }')
    p99=$(echo "$out" | awk '$1 == "99%" { print $2 }')
    total=$((total + requests))
    errors=$((errors + ${non2xx:-0} + ${socket_errors:-0}))
    kill -0 "$server" 2>/dev/null || { echo "the server died during $label"; tail -20 "$log"; exit 1; }
    settle
    printf '%-10s %4ss  %9d requests  %9s req/s  p50 %7s  p99 %7s  non-2xx %s  socket errors %s  total %d  VmRSS %s MiB  fds %d\n' \
        "$label" "$duration" "$requests" "$rps" "$p50" "$p99" "${non2xx:-0}" "${socket_errors:-0}" "$total" \
        "$(mib "$(rss_kib)")" "$(fds)" | tee -a "$report"
}

: >"$artifacts/soak-wrk.txt"
{
    echo "soak $(date -u +%FT%TZ): $binary on $base, wrk -t$threads -c$connections, $seconds s per phase, mix: soak.lua"
    echo "start      VmRSS $(mib "$(rss_kib)") MiB  fds $(fds)"
} | tee "$report"
run_wrk warm-up 10
run_wrk phase-1 "$seconds"
rss1=$(rss_kib); fds1=$(fds)
rate=$((total / (seconds + 10) + 1))
for _ in $(seq 1 20); do
    [ "$total" -ge "$total_wanted" ] && break
    remaining=$((total_wanted - total))
    chunk=$((remaining / rate + 5))
    [ "$chunk" -gt 600 ] && chunk=600
    run_wrk middle "$chunk"
done
run_wrk phase-2 "$seconds"
rss2=$(rss_kib); fds2=$(fds)

kill -TERM "$server"
status=0
wait "$server" || status=$?
trap - EXIT

growth_kib=$((rss2 - rss1))
fd_growth=$((fds2 - fds1))
failures=()
[ "$errors" -eq 0 ] || failures+=("$errors errors (non-2xx answers or socket errors)")
[ "$total" -ge "$total_wanted" ] || failures+=("only $total requests")
[ "$growth_kib" -le $((max_rss_growth_mib * 1024)) ] || failures+=("VmRSS grew by $((growth_kib / 1024)) MiB between the phases")
[ "$fd_growth" -le "$max_fd_growth" ] || failures+=("open descriptors grew by $fd_growth between the phases")
[ "$status" -eq 0 ] || failures+=("the server exited with status $status after SIGTERM")
grep -qE "Fatal error|level=critical" "$log" && failures+=("the server log reports a fault ($log)")
{
    printf 'end        %d requests, %d errors; VmRSS phase 1 → phase 2: %s → %s MiB (%s MiB); fds %d → %d (%+d); exit status %d\n' \
        "$total" "$errors" "$(mib "$rss1")" "$(mib "$rss2")" "$(mib "$growth_kib")" "$fds1" "$fds2" "$fd_growth" "$status"
    if [ ${#failures[@]} -ne 0 ]; then echo "soak: FAILED: ${failures[*]}"; else echo "soak: ok"; fi
} | tee -a "$report"
[ ${#failures[@]} -eq 0 ]
