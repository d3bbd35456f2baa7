#!/usr/bin/env python3
"""Slow clients (slowloris) while a normal client keeps making requests.

    slow_clients.py --port P [--slow 300] [--timeout 3] [--per-ip-limit 50] [--trickle-seconds 10] [--strict-slowloris]

Start the server with `--timeout 3 --header-timeout 3 --max-connections-per-ip 50` (and
--max-connections above --slow). Everything targets 127.0.0.1; the slow clients connect *from* other loopback addresses
(127.0.0.2, 127.0.0.3, ...: Linux routes all of 127/8 to lo), at most per-ip-limit - 5 per
address, so the normal client on 127.0.0.1 is never counted against their per-IP limit.

1. Baseline: the normal client makes sequential requests (a new connection each, alternating
   /people and /healthz); p50/p99 latency.
2. Slow phase: --slow connections, a third each of
   - tricklers: send a request head one byte per second for --trickle-seconds, then stop;
   - stallers: send a partial head once, then nothing;
   - non-readers: send GET /big (a million streamed rows) with a 4 KiB receive buffer and never read;
   while the normal client goes on. Every normal request must succeed; p50/p99 are compared.
   Stallers and non-readers must be cut by the server at timeout + margin (their server-side
   socket, read from /proc/net/tcp, is no longer ESTABLISHED); tricklers, with
   --strict-slowloris, at the same point while they still trickle (the server's --header-timeout
   must then be at most --timeout), and in any case at timeout + margin after their last byte.
3. Per-IP phase: per-ip-limit + 10 idle connections from one address: the server must hold at
   most per-ip-limit and close the rest at once, keep serving the normal client meanwhile, and
   cut the held ones at timeout + margin.

libmicrohttpd's timeout is an idle timeout: a client that trickles a byte more often than every
`timeout` seconds is not cut by it while it trickles. Cellar's --header-timeout cuts it. Without
--strict-slowloris a trickler still held is reported as a FINDING (for servers without a head
deadline); with it, it fails.
"""
import argparse
import http.client
import os
import socket
import sys
import threading
import time

SERVER = "127.0.0.1"
ESTABLISHED = "01"


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


def source_addresses(count):
    """Loopback source addresses other than 127.0.0.1, or ["127.0.0.1"] when binding them fails."""
    addresses = []
    for last in range(2, 2 + count):
        address = "127.0.0.%d" % last
        probe = socket.socket()
        try:
            probe.bind((address, 0))
            addresses.append(address)
        except OSError:
            return ["127.0.0.1"]
        finally:
            probe.close()
    return addresses


def server_side_states(port):
    """{(client ip, client port): tcp state} for the server's side of each connection to `port`."""
    states = {}
    with open("/proc/net/tcp") as table:
        next(table)
        for line in table:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            local_ip, local_port = local.split(":")
            if int(local_port, 16) != port:
                continue
            remote_ip, remote_port = remote.split(":")
            ip = ".".join(str(b) for b in reversed(bytes.fromhex(remote_ip)))
            states[(ip, int(remote_port, 16))] = state
    return states


def held_by_server(port, sockets):
    """How many of these client sockets the server still holds ESTABLISHED."""
    states = server_side_states(port)
    held = 0
    for sock in sockets:
        try:
            name = sock.getsockname()
        except OSError:
            continue
        if states.get((name[0], name[1])) == ESTABLISHED:
            held += 1
    return held


class NormalClient(threading.Thread):
    """Sequential requests, a new connection each, until stopped or `count` are done."""

    def __init__(self, port, count=None, pause=0.02):
        super().__init__(daemon=True)
        self.port, self.count, self.pause = port, count, pause
        self.latencies, self.failures = [], []
        self.stop = threading.Event()

    def run(self):
        paths = ["/people", "/healthz"]
        done = 0
        while not self.stop.is_set() and (self.count is None or done < self.count):
            path = paths[done % 2]
            started = time.monotonic()
            try:
                connection = http.client.HTTPConnection(SERVER, self.port, timeout=10)
                connection.request("GET", path)
                response = connection.getresponse()
                body = response.read()
                connection.close()
                elapsed = time.monotonic() - started
                if response.status != 200 or not body:
                    self.failures.append("%s: status %d" % (path, response.status))
                else:
                    self.latencies.append(elapsed * 1000)
            except OSError as error:
                self.failures.append("%s: %s" % (path, error))
            done += 1
            time.sleep(self.pause)

    def summary(self):
        return "%d ok, %d failed, p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
            len(self.latencies), len(self.failures), percentile(self.latencies, 0.5), percentile(self.latencies, 0.99),
            max(self.latencies) if self.latencies else float("nan"))


def connect_from(address, port, receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((address, 0))
    sock.settimeout(5)
    sock.connect((SERVER, port))
    sock.setblocking(False)
    return sock


def try_send(sock, data):
    try:
        sock.send(data)
        return True
    except (BlockingIOError, InterruptedError):
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, help="the server's process id: checked to stay alive, descriptors reported")
    parser.add_argument("--slow", type=int, default=300, help="slow connections in phase 2")
    parser.add_argument("--timeout", type=float, default=3, help="the server's --timeout")
    parser.add_argument("--margin", type=float, default=4, help="seconds allowed beyond the timeout (a loaded machine is slow to cut)")
    parser.add_argument("--per-ip-limit", type=int, default=50, help="the server's --max-connections-per-ip")
    parser.add_argument("--trickle-seconds", type=float, default=10)
    parser.add_argument("--baseline", type=int, default=200, help="requests in the baseline")
    parser.add_argument("--p99-factor", type=float, default=10.0,
                        help="fail when p99 under load exceeds this many times the baseline p99 (and half the timeout)")
    parser.add_argument("--strict-slowloris", action="store_true",
                        help="fail when a trickling client is not cut while it trickles")
    args = parser.parse_args()
    failures = []
    findings = []
    cut_after = args.timeout + args.margin

    # 1. Baseline.
    baseline = NormalClient(args.port, count=args.baseline)
    baseline.run()
    print("baseline:       %s" % baseline.summary())
    failures += ["baseline " + f for f in baseline.failures]

    # 2. Slow clients, with the normal client running.
    per_address = max(1, args.per_ip_limit - 5)
    addresses = source_addresses((args.slow + per_address - 1) // per_address + 1)
    shared = addresses == ["127.0.0.1"]
    if shared:
        print("note: cannot bind other loopback addresses; slow clients share 127.0.0.1 with the normal client")
        args.slow = min(args.slow, args.per_ip_limit - 5)
    slow_addresses = addresses[:-1] if not shared else addresses
    head = (b"GET /people?offset=10 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow_clients.py\r\nAccept: text/html\r\n"
            + b"X-Padding: " + b"p" * 200 + b"\r\n\r\n")
    kinds = {"trickler": [], "staller": [], "non-reader": []}
    refused = 0
    started = time.monotonic()
    for index in range(args.slow):
        kind = ("trickler", "staller", "non-reader")[index % 3]
        address = slow_addresses[index // per_address % len(slow_addresses)]
        try:
            sock = connect_from(address, args.port, receive_buffer=4096 if kind == "non-reader" else None)
        except OSError as error:
            refused += 1
            failures.append("slow connection %d from %s could not connect: %s" % (index, address, error))
            continue
        if kind == "trickler":
            try_send(sock, head[:1])
            kinds[kind].append([sock, 1])
        elif kind == "staller":
            try_send(sock, head[:40])
            kinds[kind].append([sock, 40])
        else:
            try_send(sock, b"GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n")
            kinds[kind].append([sock, 0])
    opened = time.monotonic() - started
    print("slow phase:     %d slow connections opened in %.1f s from %s (%d per address at most)" % (
        sum(len(v) for v in kinds.values()), opened, ", ".join(slow_addresses), per_address))
    time.sleep(0.5)
    all_slow = [entry[0] for entry in kinds["trickler"] + kinds["staller"] + kinds["non-reader"]]
    held_at_start = held_by_server(args.port, all_slow)
    print("                server holds %d of them after 0.5 s" % held_at_start)

    normal = NormalClient(args.port)
    normal.start()
    trickle_until = started + args.trickle_seconds
    checked_stalled = False
    stalled_report = None
    trickle_held_while_trickling = None
    next_trickle = time.monotonic() + 1.0
    while time.monotonic() < trickle_until + cut_after:
        now = time.monotonic()
        if now >= next_trickle and now < trickle_until:
            for entry in kinds["trickler"]:
                sock, sent = entry
                if sent < len(head) - 4 and try_send(sock, head[sent:sent + 1]):
                    entry[1] += 1
            next_trickle += 1.0
        if not checked_stalled and now >= started + opened + cut_after:
            checked_stalled = True
            stalled = held_by_server(args.port, [e[0] for e in kinds["staller"]])
            readers = held_by_server(args.port, [e[0] for e in kinds["non-reader"]])
            trickle_held_while_trickling = held_by_server(args.port, [e[0] for e in kinds["trickler"]])
            stalled_report = (now - started, stalled, readers, trickle_held_while_trickling)
        time.sleep(0.05)
    trickle_left = held_by_server(args.port, [e[0] for e in kinds["trickler"]])
    normal.stop.set()
    normal.join()
    elapsed = time.monotonic() - started
    print("under slow load: %s" % normal.summary())
    if stalled_report:
        at, stalled, readers, trickling = stalled_report
        print("at %.1f s (timeout %g + margin %g): server still holds %d/%d stallers, %d/%d non-readers of /big, %d/%d tricklers" % (
            at, args.timeout, args.margin, stalled, len(kinds["staller"]), readers, len(kinds["non-reader"]),
            trickling, len(kinds["trickler"])))
        if stalled:
            failures.append("%d stalled connections outlived the timeout" % stalled)
        if readers:
            failures.append("%d connections that never read /big outlived the timeout" % readers)
        if trickling:
            finding = ("%d/%d tricklers (1 byte/s) still held after %.1f s: the request-head deadline did not cut them "
                       "(is the server's --header-timeout at most --timeout?)" % (
                           trickling, len(kinds["trickler"]), at))
            findings.append(finding)
            if args.strict_slowloris:
                failures.append(finding)
    print("at %.1f s (%.1f s after the tricklers stopped): server still holds %d/%d tricklers" % (
        elapsed, elapsed - args.trickle_seconds, trickle_left, len(kinds["trickler"])))
    if trickle_left:
        failures.append("%d tricklers outlived the timeout after they stopped" % trickle_left)
    failures += ["under load " + f for f in normal.failures]
    # At least half the timeout: a normal client held up by the slow ones waits until the server cuts
    # them (the timeout), while a loaded machine (another build, a sanitizer) adds some hundreds of ms
    # to a few requests without any slow client.
    p99_limit = max(args.timeout * 1000 / 2, args.p99_factor * percentile(baseline.latencies, 0.99))
    if percentile(normal.latencies, 0.99) > p99_limit:
        failures.append("p99 under slow load %.1f ms > %.1f ms" % (percentile(normal.latencies, 0.99), p99_limit))
    for sock in all_slow:
        sock.close()

    # 3. Per-IP limit, from one address the normal client does not use.
    address = "127.0.0.1" if shared else addresses[-1]
    time.sleep(0.5)
    extra = 10
    held = []
    closed_at_once = 0
    first_connect = time.monotonic()
    for index in range(args.per_ip_limit + extra):
        try:
            held.append(connect_from(address, args.port))
        except OSError:
            closed_at_once += 1
    # The client side of a refused connection sees an end of file or a reset. Wait for the server to
    # close the ones over the limit, however loaded the machine, but only until the timeout could
    # close any of them: a close before then is the limit's.
    closed = set()
    limit_deadline = first_connect + args.timeout - 0.2
    while True:
        for sock in held:
            if sock in closed:
                continue
            try:
                if sock.recv(1) == b"":
                    closed.add(sock)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(sock)
        if closed_at_once + len(closed) >= extra or time.monotonic() >= limit_deadline:
            break
        time.sleep(0.05)
    still_open = held_by_server(args.port, held)
    closed_at_once += len(closed)
    isolation = NormalClient(args.port, count=20)
    if not shared:
        isolation.run()
    print("per-IP phase:   %d connections from %s with --max-connections-per-ip %d: server holds %d, closed %d at once%s" % (
        args.per_ip_limit + extra, address, args.per_ip_limit, still_open, closed_at_once,
        "" if shared else "; meanwhile from 127.0.0.1: " + isolation.summary()))
    if still_open > args.per_ip_limit:
        failures.append("the server holds %d connections from %s, above the per-IP limit %d" % (still_open, address, args.per_ip_limit))
    if closed_at_once < extra:
        failures.append("only %d of the %d connections over the per-IP limit were closed at once" % (closed_at_once, extra))
    failures += ["per-IP phase " + f for f in isolation.failures]
    time.sleep(cut_after)
    left = held_by_server(args.port, held)
    print("                after %.1f s the server holds %d of them" % (time.monotonic() - first_connect, left))
    if left:
        failures.append("%d idle connections outlived the timeout" % left)
    for sock in held:
        sock.close()

    after = NormalClient(args.port, count=10)
    after.run()
    failures += ["after " + f for f in after.failures]
    if args.pid:
        try:
            os.kill(args.pid, 0)
            print("server pid %d alive, %d open descriptors at the end" % (args.pid, len(os.listdir("/proc/%d/fd" % args.pid))))
        except ProcessLookupError:
            failures.append("the server process %d is gone" % args.pid)

    print("summary: baseline p50 %.1f ms p99 %.1f ms; with %d slow clients p50 %.1f ms p99 %.1f ms (%d requests, %d failed)" % (
        percentile(baseline.latencies, 0.5), percentile(baseline.latencies, 0.99), args.slow,
        percentile(normal.latencies, 0.5), percentile(normal.latencies, 0.99), len(normal.latencies) + len(normal.failures),
        len(normal.failures)))
    for finding in findings:
        print("FINDING: " + finding)
    if failures:
        print("FAILED:")
        for failure in failures[:30]:
            print("  " + failure)
        return 1
    print("slow clients: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
