#!/usr/bin/env bash
# make bench: Cellar against the peers of ../shared/peers, side by side (wrk, pinned cores, a
# ratio table per run), ROUNDS times; then the medians of the per-run ratios and issue #6's bar
# (Benchmarks/ratios.py); then Cellar against its own responses written in C
# (Benchmarks/tools/ceiling.sh); then the in-process render benchmarks (ns and mallocs per page;
# see BENCHMARKS.md).
#   PEERS="cellar c-mhd" Benchmarks/run.sh     # a subset of peers
#   ROUNDS=1 Benchmarks/run.sh                 # one side-by-side run (default 3)
#   NO_CEILING=1 Benchmarks/run.sh             # without the ceiling comparison
#   NO_PEERS=1 NO_CEILING=1 Benchmarks/run.sh  # only the in-process benchmarks
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
peers_script=${PEERS_SCRIPT:-$root/../shared/peers/run.sh}

swift build -c release --product cellar
if [ -z "${NO_PEERS:-}" ]; then
    if [ -x "$peers_script" ]; then
        rounds=${ROUNDS:-3}
        case $rounds in '' | *[!0-9]* | 0) echo "ROUNDS must be a positive number, not '$rounds'" >&2; exit 2 ;; esac
        results=()
        for round in $(seq "$rounds"); do
            echo "== side-by-side run $round of $rounds"
            log=$(mktemp)
            PEERS=${PEERS:-"cellar c-mhd nginx hummingbird-mustache"} CELLAR_BIN="$root/.build/release/cellar" "$peers_script" 2>&1 | tee "$log"
            saved=$(sed -n 's/^.*saved: \([^ ]*\.md\) (raw:.*$/\1/p' "$log" | tail -1)
            rm -f "$log"
            if [ -n "$saved" ]; then results+=("$saved"); fi
        done
        if [ ${#results[@]} -gt 0 ]; then
            summary="$(dirname "${results[0]}")/medians-$(date -u +%Y-%m-%d-%H%M%S).md"
            python3 "$root/Benchmarks/ratios.py" "${results[@]}" | tee "$summary"
            echo "saved: $summary"
        fi
    else
        echo "no peers script at $peers_script (set PEERS_SCRIPT): skipping the side-by-side run"
    fi
fi
if [ -z "${NO_CEILING:-}" ]; then
    if [ -d "${PEERS_DIR:-$root/../shared/peers/peers}/c-mhd" ]; then
        echo "== Cellar against the same responses written in C (Benchmarks/tools/ceiling.sh)"
        Benchmarks/tools/ceiling.sh .build/release/cellar "${ROUNDS:-3}"
    else
        echo "no c-mhd peer to build (set PEERS_DIR): skipping the ceiling comparison"
    fi
fi
swift package --package-path Benchmarks benchmark --no-progress "$@"
