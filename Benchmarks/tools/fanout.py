#!/usr/bin/env python3
"""The live lists' fan-out benchmark: WATCHERS Server-Sent Events clients (fanout_client.c, one
epoll loop in C) spread over WINDOWS windows of LiveFanout's /ticks (`?limit=10`, `?limit=11`, …,
each holding the row that changes), while the server publishes a change every INTERVAL_MS through
the Swift API. This script drives them: it builds the client, starts the changes, measures the
server's memory and the page's throughput, and sums up.

    PORT=8460 EVENT_STREAMS=6000 taskset -c 0 Benchmarks/.build/release/LiveFanout &
    taskset -c 1 python3 Benchmarks/tools/fanout.py --port 8460 --pid $! --watchers 1000 --seconds 30 --wrk 5

Reports: whether every watcher received every batch in order and never a refresh; the time from
publish (the change's CLOCK_MONOTONIC time, written into the row) to the client reading the
event, p50/p99/max; the server's RSS growth per watcher after the first batch (VmRSS, /proc);
and, with --wrk, the page's throughput (wrk -t1 -c32, median of 3 runs) without and with the
watchers. The client and wrk share the core the script runs on.
"""
import argparse
import os
import re
import subprocess
import urllib.request

TOOLS = os.path.dirname(os.path.abspath(__file__))


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def build_client() -> str:
    source = os.path.join(TOOLS, "fanout_client.c")
    binary = os.path.join(TOOLS, "..", ".build", "fanout_client")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        os.makedirs(os.path.dirname(binary), exist_ok=True)
        subprocess.run(["cc", "-O2", "-Wall", "-o", binary, source], check=True)
    return binary


def wrk(port: int, seconds: int) -> float:
    output = subprocess.run(["wrk", "-t1", "-c32", f"-d{seconds}s", f"http://127.0.0.1:{port}/ticks?limit=20"],
                            capture_output=True, text=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def median3(port: int, seconds: int) -> float:
    return sorted(wrk(port, seconds) for _ in range(3))[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8460)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--windows", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--wrk", type=int, default=0, help="seconds of each wrk run (0: no throughput runs)")
    args = parser.parse_args()
    base = f"http://127.0.0.1:{args.port}"

    baseline_rps = median3(args.port, args.wrk) if args.wrk else None
    rss_before = rss_kib(args.pid)
    client = subprocess.Popen([build_client(), str(args.port), str(args.watchers), str(args.windows), str(args.seconds)],
                              stdout=subprocess.PIPE, text=True)
    greeted = int(client.stdout.readline().split()[1])
    urllib.request.urlopen(f"{base}/start?seconds={args.seconds}").read()
    first = int(client.stdout.readline().split()[1])
    rss_after = rss_kib(args.pid)
    throughput = median3(args.port, args.wrk) if args.wrk else None
    lines = client.communicate()[0].splitlines()
    published = int(urllib.request.urlopen(f"{base}/published").read())

    watchers = [tuple(int(field) for field in line.split()[1:]) for line in lines if line.startswith("watcher ")]
    complete = sum(1 for events, in_order, refreshes in watchers if events == published and in_order and not refreshes)
    refreshes = sum(watcher[2] for watcher in watchers)
    p50, p99, most, count = next(line.split()[1:] for line in lines if line.startswith("latency_ms "))

    print(f"watchers {args.watchers} over {args.windows} windows, greeted {greeted}, first batch {first}; published {published} changes")
    print(f"every batch in order, no refresh: {complete}/{args.watchers}; refreshes {refreshes}; events {count}")
    print(f"publish→client ms: p50 {p50}  p99 {p99}  max {most}")
    print(f"server RSS {rss_before} KiB → {rss_after} KiB after the first batch: {(rss_after - rss_before) / args.watchers:.1f} KiB a watcher")
    if args.wrk:
        print(f"page throughput (wrk -t1 -c32 {args.wrk}s, median of 3): {baseline_rps:.0f} req/s without watchers, {throughput:.0f} with")


if __name__ == "__main__":
    main()
