#!/usr/bin/env python3
"""The live lists' fan-out benchmark: WATCHERS Server-Sent Events clients on one epoll loop,
spread over WINDOWS windows of LiveFanout's /ticks (`?limit=10`, `?limit=11`, …, each holding the
row that changes), while the server publishes a change every INTERVAL_MS through the Swift API.

    PORT=8460 EVENT_STREAMS=6000 Benchmarks/.build/release/LiveFanout &
    taskset -c 1 python3 Benchmarks/tools/fanout.py --port 8460 --pid $! --watchers 1000 --seconds 30

Reports: whether every watcher received every batch in order and never a refresh; the time from
publish (the change's CLOCK_MONOTONIC time, written into the row) to the client reading the
event, p50/p99/max; the server's RSS growth per watcher after the first batch (VmRSS, /proc);
and, with --wrk, the page's throughput (wrk -t1 -c32, median of 3 runs) without and with the
watchers. Clients bind to 127.1.x.y addresses, 50 to an address (the per-address cap is 64).
"""
import argparse
import re
import select
import socket
import subprocess
import sys
import time
import urllib.request

TICK = re.compile(rb"t=(\d+);n=(\d+)")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Watcher:
    __slots__ = ("sock", "buffer", "head_done", "chunk_left", "events", "last_n", "in_order", "refreshes", "greeted", "latencies",
                 "rest")

    def __init__(self, sock):
        self.sock, self.buffer, self.head_done, self.chunk_left = sock, b"", False, 0
        self.events, self.last_n, self.in_order, self.refreshes, self.greeted = 0, 0, True, 0, False
        self.latencies, self.rest = [], b""

    def feed(self, data: bytes, now: int):
        self.buffer += data
        if not self.head_done:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(self.buffer[:200])
            self.buffer, self.head_done = self.buffer[end + 4:], True
        # Chunked framing: keep the payload, drop the size lines. Events end with a blank line.
        payload = b""
        while self.buffer:
            if self.chunk_left == 0:
                line_end = self.buffer.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(self.buffer[:line_end].split(b";")[0] or b"0", 16)
                if size == 0 and line_end == 0:
                    self.buffer = self.buffer[2:]
                    continue
                self.buffer, self.chunk_left = self.buffer[line_end + 2:], size + 2
            take = min(self.chunk_left, len(self.buffer))
            payload += self.buffer[:take]
            self.buffer, self.chunk_left = self.buffer[take:], self.chunk_left - take
        self.parse(payload.replace(b"\r\n", b"\n"), now)

    def parse(self, payload: bytes, now: int):
        *events, self.rest = (self.rest + payload).split(b"\n\n")
        for event in events:
            if b"data:" not in event:
                continue
            if b"watching from" in event:
                self.greeted = True
                continue
            if b'action="refresh"' in event:
                self.refreshes += 1
                continue
            match = TICK.search(event)
            if not match:
                continue
            n = int(match.group(2))
            if n != self.last_n + 1:
                self.in_order = False
            self.last_n = n
            self.events += 1
            self.latencies.append(now - int(match.group(1)))


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
    epoll = select.epoll()
    watchers = {}
    for index in range(args.watchers):
        group = index // 50
        sock = socket.socket()
        sock.bind((f"127.1.{group // 250}.{group % 250 + 1}", 0))
        sock.connect(("127.0.0.1", args.port))
        target = f"/ticks?limit={10 + index % args.windows}"
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        watchers[sock.fileno()] = Watcher(sock)
        epoll.register(sock.fileno(), select.EPOLLIN)

    def pump(timeout: float):
        for fd, _ in epoll.poll(timeout):
            watcher = watchers[fd]
            try:
                data = watcher.sock.recv(65536)
            except BlockingIOError:
                continue
            if data:
                watcher.feed(data, time.monotonic_ns())

    deadline = time.monotonic() + 60
    while not all(w.greeted for w in watchers.values()) and time.monotonic() < deadline:
        pump(0.1)
    greeted = sum(w.greeted for w in watchers.values())
    urllib.request.urlopen(f"{base}/start?seconds={args.seconds}").read()
    deadline = time.monotonic() + 30
    while not all(w.events >= 1 for w in watchers.values()) and time.monotonic() < deadline:
        pump(0.1)
    rss_after = rss_kib(args.pid)
    throughput = None
    if args.wrk:
        runner = subprocess.Popen([sys.executable, "-c", f"""
import re, subprocess
r = []
for _ in range(3):
    o = subprocess.run(["wrk", "-t1", "-c32", "-d{args.wrk}s", "http://127.0.0.1:{args.port}/ticks?limit=20"], capture_output=True, text=True).stdout
    r.append(float(re.search(r"Requests/sec:\\s+([\\d.]+)", o).group(1)))
print(sorted(r)[1])
"""], stdout=subprocess.PIPE, text=True)
    end = time.monotonic() + args.seconds + 5
    while time.monotonic() < end:
        pump(0.05)
        if args.wrk and runner.poll() is not None and throughput is None:
            throughput = float(runner.stdout.read().strip())
    if args.wrk and throughput is None:
        throughput = float(runner.communicate()[0].strip())
    published = int(urllib.request.urlopen(f"{base}/published").read())
    latencies = sorted(l for w in watchers.values() for l in w.latencies)
    complete = sum(1 for w in watchers.values() if w.events == published and w.in_order and not w.refreshes)
    refreshes = sum(w.refreshes for w in watchers.values())

    def pct(p):
        return latencies[min(len(latencies) - 1, int(len(latencies) * p))] / 1e6 if latencies else float("nan")

    print(f"watchers {args.watchers} over {args.windows} windows, greeted {greeted}; published {published} changes")
    print(f"every batch in order, no refresh: {complete}/{args.watchers}; refreshes {refreshes}; events {len(latencies)}")
    print(f"publish→client ms: p50 {pct(0.5):.2f}  p99 {pct(0.99):.2f}  max {pct(1.0):.2f}")
    print(f"server RSS {rss_before} KiB → {rss_after} KiB after the first batch: {(rss_after - rss_before) / args.watchers:.1f} KiB a watcher")
    if args.wrk:
        print(f"page throughput (wrk -t1 -c32 {args.wrk}s, median of 3): {baseline_rps:.0f} req/s without watchers, {throughput:.0f} with")


if __name__ == "__main__":
    main()
