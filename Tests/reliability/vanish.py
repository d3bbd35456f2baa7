#!/usr/bin/env python3
"""Clients that vanish mid-stream: open /big (a million streamed rows), read a little, go.

    vanish.py --port P --pid PID [--count 1000] [--parallel 16] [--seed 1]

Each client requests /big (or /big.json, or the rows fragment), reads a random small amount
(0 to 256 KiB) and closes the socket: half of them with a reset (SO_LINGER 0, as a killed
browser tab), half with a normal close. They run in parallel batches. Before (after a warm-up)
and after, the server's VmRSS (/proc/PID/status) and open descriptors (/proc/PID/fd) are read;
the run fails if the server died, stops answering, still holds connections to the vanished
clients, or grew by more than --max-rss-growth-mib (32) or --max-fd-growth (50).
"""
import argparse
import concurrent.futures
import http.client
import os
import random
import socket
import struct
import sys
import time

SERVER = "127.0.0.1"
PATHS = ["/big", "/big", "/big.json", "/big?fragment=rows"]


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def established_to(port):
    """Connections the server side holds ESTABLISHED on `port` (from /proc/net/tcp)."""
    count = 0
    with open("/proc/net/tcp") as table:
        next(table)
        for line in table:
            fields = line.split()
            if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
                count += 1
    return count


def vanish(port, seed):
    rng = random.Random(seed)
    path = rng.choice(PATHS)
    wanted = rng.choice([0, 1, 100, 4096, 65536, rng.randrange(1, 256 * 1024)])
    sock = socket.create_connection((SERVER, port), timeout=10)
    try:
        sock.sendall(("GET %s HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n" % path).encode())
        received = 0
        while received < wanted:
            chunk = sock.recv(min(65536, wanted - received))
            if not chunk:
                return "server closed early"
            received += len(chunk)
        if rng.random() < 0.5:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return None
    finally:
        sock.close()


def get(port, path, timeout=30):
    connection = http.client.HTTPConnection(SERVER, port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def settle(pid, port, target_fds, seconds=10):
    """Waits until the server holds no connection and its descriptors are back (or time runs out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if established_to(port) == 0 and fd_count(pid) <= target_fds:
            return
        time.sleep(0.2)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=64)
    parser.add_argument("--max-rss-growth-mib", type=float, default=32)
    parser.add_argument("--max-fd-growth", type=int, default=50)
    args = parser.parse_args()
    failures = []

    def batch(count, first_seed):
        problems = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
            for result in pool.map(lambda seed: vanish(args.port, seed), range(first_seed, first_seed + count)):
                if result:
                    problems.append(result)
        return problems

    initial_rss, initial_fds = rss_kib(args.pid), fd_count(args.pid)
    batch(args.warmup, args.seed * 1_000_000)
    settle(args.pid, args.port, initial_fds)
    start_rss, start_fds = rss_kib(args.pid), fd_count(args.pid)
    print("vanish: server pid %d: at start VmRSS %.1f MiB, %d fds; after %d warm-up clients VmRSS %.1f MiB, %d fds" % (
        args.pid, initial_rss / 1024, initial_fds, args.warmup, start_rss / 1024, start_fds))

    started = time.monotonic()
    problems = []
    peak_rss = start_rss
    done = 0
    while done < args.count:
        size = min(args.parallel * 10, args.count - done)
        problems += batch(size, args.seed * 1_000_000 + args.warmup + done)
        done += size
        peak_rss = max(peak_rss, rss_kib(args.pid))
        try:
            os.kill(args.pid, 0)
        except ProcessLookupError:
            failures.append("the server died after %d vanishing clients" % done)
            break
    elapsed = time.monotonic() - started
    if problems:
        failures.append("%d clients saw the server close before they had read what they wanted" % len(problems))
    settle(args.pid, args.port, start_fds)
    end_rss, end_fds, held = rss_kib(args.pid), fd_count(args.pid), established_to(args.port)
    print("vanish: %d clients vanished mid-stream in %.1f s (%d in parallel); peak VmRSS %.1f MiB" % (
        done, elapsed, args.parallel, peak_rss / 1024))
    print("vanish: after: VmRSS %.1f MiB (%+.1f MiB), %d fds (%+d), %d connections still held by the server" % (
        end_rss / 1024, (end_rss - start_rss) / 1024, end_fds, end_fds - start_fds, held))
    if (end_rss - start_rss) / 1024 > args.max_rss_growth_mib:
        failures.append("VmRSS grew by %.1f MiB (limit %g)" % ((end_rss - start_rss) / 1024, args.max_rss_growth_mib))
    if end_fds - start_fds > args.max_fd_growth:
        failures.append("open descriptors grew by %d (limit %d)" % (end_fds - start_fds, args.max_fd_growth))
    if held:
        failures.append("the server still holds %d connections" % held)
    try:
        for path in ["/healthz", "/people", "/big?limit=1000"]:
            status, body = get(args.port, path)
            if status != 200 or not body:
                failures.append("GET %s after the run: %d" % (path, status))
        status, body = get(args.port, "/big", timeout=120)
        print("vanish: a full GET /big afterwards: status %d, %.1f MB" % (status, len(body) / 1e6))
        if status != 200 or not body.rstrip().endswith(b"</html>"):
            failures.append("a full GET /big afterwards did not complete (status %d, %d bytes)" % (status, len(body)))
    except OSError as error:
        failures.append("the server does not answer after the run: %s" % error)
    if failures:
        print("FAILED:")
        for failure in failures:
            print("  " + failure)
        return 1
    print("vanish: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
