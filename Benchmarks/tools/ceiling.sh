#!/usr/bin/env bash
# How far Cellar is from the same responses written in C: c-mhd (the peers' yardstick, its own
# smaller page), Benchmarks/ceiling (plain C on libmicrohttpd writing Cellar's exact bytes and
# headers; see its server.c) and Cellar, one at a time on core 1, loaded by
# `wrk -t1 -c32` on core 0, the three alternating in every round.
#   Benchmarks/tools/ceiling.sh [CELLAR_BINARY] [ROUNDS] [SECONDS]
# Per endpoint it prints the medians of req/s and of the user and system CPU time a request
# (from /proc), and three ratios: Cellar ÷ c-mhd (issue #6's bar), ceiling ÷ c-mhd (what
# Cellar's page and headers alone cost) and Cellar ÷ ceiling (what Cellar's code costs).
# It builds the ceiling server (make -C Benchmarks/ceiling) and
# c-mhd (make -C ../shared/peers/peers/c-mhd) first, and measures nothing unless
# Benchmarks/tools/ceiling-check.sh finds the ceiling's responses equal to this Cellar's.
set -euo pipefail
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then sed -n '2,12p' "$0" >&2; exit 2; fi
cellar=${1:-.build/release/cellar} rounds=${2:-3} seconds=${3:-5}
case $cellar in /*) ;; *) cellar=$PWD/$cellar ;; esac
cd "$(dirname "$0")/../.."
port=${PORT:-8098}
peers=${PEERS_DIR:-../shared/peers/peers}
make -s -C Benchmarks/ceiling >/dev/null
make -s -C "$peers/c-mhd" >/dev/null
ceiling=Benchmarks/ceiling/ceiling cmhd=$peers/c-mhd/c-mhd
[ -x "$cellar" ] || { echo "no Cellar binary at $cellar (swift build -c release --product cellar)" >&2; exit 1; }
Benchmarks/tools/ceiling-check.sh "$cellar" >/dev/null || {
    echo "the ceiling server no longer writes this Cellar's responses (Benchmarks/tools/ceiling-check.sh $cellar): update Benchmarks/ceiling/server.c" >&2
    exit 1
}
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; true' EXIT

# endpoint name, c-mhd's path, the path on Cellar and on the ceiling
endpoints=(
    "healthz|/hello|/healthz"
    "html-100|/people?limit=100|/listbench?limit=100"
    "html-10000|/people?limit=10000|/listbench?limit=10000"
    "json-100|/api/people?limit=100|/listbench.json?limit=100"
    "json-10000|/api/people?limit=10000|/listbench.json?limit=10000"
)

# One measurement: starts $2 (a binary), warms it up, loads $3 (a path) for $seconds with
# cpu-per-request.sh, and prints "req/s user-µs system-µs".
measure() {
    local name=$1 binary=$2 path=$3 ready=/healthz result
    [ "$name" = c-mhd ] && ready=/hello
    HOST=127.0.0.1 PORT=$port taskset -c 1 "$binary" serve >/dev/null 2>&1 &
    server=$!
    for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port$ready" && break; sleep 0.1; done
    taskset -c 0 wrk -t1 -c4 -d1s "http://127.0.0.1:$port$path" >/dev/null
    # "URL  N req/s  user U µs  sys S µs per request"
    result=$(Benchmarks/tools/cpu-per-request.sh "$server" "http://127.0.0.1:$port$path" "$seconds" | awk '{print $2, $5, $8}')
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
    echo "$result"
}

declare -A binaries=([c-mhd]=$cmhd [ceiling]=$ceiling [cellar]=$cellar)
declare -A samples rps
for round in $(seq "$rounds"); do
    for entry in "${endpoints[@]}"; do
        IFS='|' read -r endpoint peer_path path <<<"$entry"
        for name in c-mhd ceiling cellar; do
            target=$path
            [ "$name" = c-mhd ] && target=$peer_path
            result=$(measure "$name" "${binaries[$name]}" "$target")
            echo "round $round  $endpoint  $name  $result" >&2
            samples[$endpoint/$name]="${samples[$endpoint/$name]:-}${result};"
        done
    done
done

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
column() { tr ';' '\n' | sed '/^$/d' | awk -v c="$1" '{print $c}' | tr '\n' ' '; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "—" }'; }
echo
echo "Medians of $rounds rounds, ${seconds} s each (req/s; user + system µs a request):"
echo
echo "| endpoint | c-mhd | ceiling (Cellar's bytes in C) | Cellar | Cellar ÷ c-mhd | ceiling ÷ c-mhd | Cellar ÷ ceiling |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for entry in "${endpoints[@]}"; do
    IFS='|' read -r endpoint _ _ <<<"$entry"
    row="| $endpoint"
    rps=()
    for name in c-mhd ceiling cellar; do
        s=${samples[$endpoint/$name]}
        rps[$name]=$(column 1 <<<"$s" | median)
        user=$(column 2 <<<"$s" | median)
        system=$(column 3 <<<"$s" | median)
        row="$row | ${rps[$name]} ($user + $system µs)"
    done
    echo "$row | $(ratio "${rps[cellar]}" "${rps[c-mhd]}") | $(ratio "${rps[ceiling]}" "${rps[c-mhd]}") | $(ratio "${rps[cellar]}" "${rps[ceiling]}") |"
done
