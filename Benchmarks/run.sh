#!/usr/bin/env bash
# make bench: Cellar against the peers of ../shared/peers in one run (wrk, pinned cores, a ratio
# table), then the in-process render benchmarks (ns and mallocs per page; see BENCHMARKS.md).
#   PEERS="cellar c-mhd" Benchmarks/run.sh     # a subset of peers
#   NO_PEERS=1 Benchmarks/run.sh               # only the in-process benchmarks
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
peers_script=${PEERS_SCRIPT:-$root/../shared/peers/run.sh}

swift build -c release --product cellar
if [ -z "${NO_PEERS:-}" ]; then
    if [ -x "$peers_script" ]; then
        PEERS=${PEERS:-"cellar c-mhd nginx hummingbird-mustache"} CELLAR_BIN="$root/.build/release/cellar" "$peers_script"
    else
        echo "no peers script at $peers_script (set PEERS_SCRIPT): skipping the side-by-side run"
    fi
fi
swift package --package-path Benchmarks benchmark --no-progress "$@"
