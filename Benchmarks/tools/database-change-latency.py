#!/usr/bin/env python3
"""Change-to-client time of a watched database list: the `sqlite3` command line updates a row of
`items` (Tests/e2e/live_test.py --make writes such a file), and one Server-Sent Events client of
`/items` notes when the batch arrives. The time includes the command's start (a process).

    Tests/e2e/live_test.py --make --database /tmp/items.db
    PORT=8461 .build/release/cellar serve --database /tmp/items.db &
    python3 Benchmarks/tools/database-change-latency.py --port 8461 --database /tmp/items.db --samples 40
"""
import argparse
import random
import socket
import subprocess
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8461)
    parser.add_argument("--database", required=True)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    sock = socket.create_connection(("127.0.0.1", args.port))
    sock.sendall(b"GET /items?limit=20 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    sock.settimeout(10)
    received = b""
    while b"watching from" not in received:
        received += sock.recv(65536)
    times = []
    for sample in range(args.samples):
        time.sleep(random.uniform(0.3, 0.6))  # lands anywhere in the poll interval
        marker = f"sample {sample} {random.random()}"
        started = time.monotonic()
        subprocess.run(["sqlite3", args.database, f"UPDATE items SET note = '{marker}' WHERE id = 10;"], check=True)
        received = b""
        while marker.encode() not in received:
            received += sock.recv(65536)
        times.append((time.monotonic() - started) * 1000)
    times.sort()
    print(f"change-to-client ms over {len(times)} writes: p50 {times[len(times) // 2]:.0f}  "
          f"p90 {times[int(len(times) * 0.9)]:.0f}  max {times[-1]:.0f}")


if __name__ == "__main__":
    main()
