#!/usr/bin/env python3
"""Change-to-watcher latency (issue #38): WATCHERS event streams on one list of a Cellar serving
a SQLite file --writable, changes made through the JSON write API, and the time from each write's
acknowledgement to each watcher's patch.

    watch-latency.py BASE_URL TOKEN [--watchers 100] [--changes 200] [--interval 0.02]

The watchers watch `/items.json?limit=20` (the first 20 rows) with
`Accept: text/event-stream`. Each change sets `n` of one of those rows to a value never used before
(an update through `POST /items/{id}/-/update`, with the bearer token), one change at a time,
`--interval` seconds apart. The clock is this process's monotonic clock (`time.monotonic_ns`),
read when the write's response has been read whole (the acknowledgement) and when a watcher's
socket delivered the event that holds the new value; one thread serves every socket through
`selectors`, so a time is when this process saw the bytes, a little after they arrived. A patch
that arrives before the acknowledgement (the server tells watchers after the commit and answers
the write after that, so it can) counts as 0 ms. Prints one line: p50, p99 and the largest
latency in ms over every (change, watcher) pair, and how many patches were missed.
"""
import argparse
import json
import re
import selectors
import socket
import sys
import time
import urllib.parse

VALUE = re.compile(rb'"n":(\d+)')


def connect(host, port):
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("token")
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.02)
    parser.add_argument("--path", default="/items.json?limit=20")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base)
    host, port = url.hostname, url.port or 80

    selector = selectors.DefaultSelector()
    seen = {}  # value -> list of monotonic ns, one per watcher that got it
    buffers = {}
    greeted = set()
    streams = []
    for _ in range(args.watchers):
        sock = connect(host, port)
        sock.sendall(
            f"GET {args.path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
            f"Authorization: Bearer {args.token}\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        buffers[sock] = b""
        streams.append(sock)

    def pump(timeout):
        for key, _ in selector.select(timeout):
            sock = key.fileobj
            now = time.monotonic_ns()
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            if not data:
                sys.exit("watch-latency.py: a watcher's stream ended")
            if data.startswith(b"HTTP/1.1 ") and not data.startswith(b"HTTP/1.1 200"):
                sys.exit("watch-latency.py: a watcher was refused: " + data.split(b"\r\n", 1)[0].decode())
            buffers[sock] += data
            # Whole events only (they end with a blank line); a value counts once per watcher.
            *events, buffers[sock] = buffers[sock].split(b"\n\n")
            if events:
                greeted.add(sock)
            for event in events:
                for match in VALUE.finditer(event):
                    seen.setdefault(int(match.group(1)), []).append(now)

    # Every stream's first event (its sequence) before the first change.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and len(greeted) < args.watchers:
        pump(0.1)
    if len(greeted) < args.watchers:
        sys.exit(f"watch-latency.py: {args.watchers - len(greeted)} watchers got no first event")

    writer = connect(host, port)
    acknowledged = {}
    base_value = 10_000_000 + int(time.time()) % 1_000_000 * 1000
    for change in range(args.changes):
        value = base_value + change
        row = change % 20 + 1
        body = json.dumps({"update": {"n": value}}).encode()
        writer.sendall(
            f"POST /items/{row}/-/update HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {args.token}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        response = b""
        while b"\r\n\r\n" not in response:
            response += writer.recv(65536)
        head, rest = response.split(b"\r\n\r\n", 1)
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        while len(rest) < length:
            rest += writer.recv(65536)
        acknowledged[value] = time.monotonic_ns()
        if not head.startswith(b"HTTP/1.1 200"):
            sys.exit("watch-latency.py: a write failed: " + head.split(b"\r\n", 1)[0].decode() + " " + rest.decode())
        until = time.monotonic() + args.interval
        while time.monotonic() < until:
            pump(max(0.0, until - time.monotonic()))
    until = time.monotonic() + 2
    while time.monotonic() < until:
        pump(0.1)

    latencies = []
    missed = 0
    for value, ack in acknowledged.items():
        times = seen.get(value, [])
        missed += args.watchers - len(times)
        latencies += [max(0, t - ack) / 1e6 for t in times]
    latencies.sort()
    if not latencies:
        sys.exit("watch-latency.py: no watcher saw any change")

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]

    print(f"{pct(50):.2f} {pct(99):.2f} {latencies[-1]:.2f} {missed}")
    for sock in streams:
        sock.close()


if __name__ == "__main__":
    main()
