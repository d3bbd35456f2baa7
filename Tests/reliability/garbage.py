#!/usr/bin/env python3
"""Garbage on the socket: thousands of malformed and mutated request heads, one per connection.

    garbage.py --port P [--pid PID] [--cases 3000] [--seed 1] [--workers 16]

Every case is sent on its own connection to 127.0.0.1. Most cases then half-close the socket
(so the server sees the end of the request at once); one in ten keeps it open and waits for
an answer. Each outcome is classified:

  - any 5xx fails, except a 505 when some request line (a pipelined one too) names a version
    other than HTTP/1.0 and HTTP/1.1: that is libmicrohttpd's answer, as RFC 9110 has it, to
    an unsupported version (counted on its own);
  - an answer that does not start with a status line fails;
  - a 2xx/3xx fails for cases whose framing is broken beyond doubt (they must get a 4xx or a
    close): bad Content-Length, bad chunked bodies, headers without a colon, NUL in a header
    name, HTTP/0.9, oversized heads, bare CR line ends, binary junk;
  - "lenient" cases are ones RFC 9112 says a server MUST reject (conflicting Content-Length,
    space before the colon, no Host, two Hosts, an empty header name) that libmicrohttpd 0.9.75
    accepts and the server refuses itself: a 2xx there is counted and listed, and fails only
    with --strict-rfc (run.sh passes it);
  - mutated valid requests may get anything but a 5xx.

The server must stay alive (--pid) and answer GET /healthz with 200 after every ~200 cases and
at the end. Prints counts by outcome and by category; exits 1 on any failure.
"""
import argparse
import collections
import concurrent.futures
import errno
import os
import random
import re
import socket
import sys
import time

HOST = "127.0.0.1"
STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3})[^\r\n]*\r?\n")
ANY_STATUS = re.compile(rb"(?:^|\n)HTTP/1\.[01] (\d{3}) ")

VALID = [
    b"GET /people?offset=20&limit=10 HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nUser-Agent: garbage.py\r\n\r\n",
    b"GET /people.json HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n",
    b"GET /static/app.css HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \"abc\"\r\n\r\n",
    b"GET /people?fragment=rows&offset=50 HTTP/1.1\r\nHost: localhost\r\nHX-Request: true\r\n\r\n",
    b"GET /catalog?q=wine HTTP/1.0\r\n\r\n",
    b"POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello",
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
]
HEALTH = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n"
TOKENS = [b"\r\n", b"\n", b"\r", b"\x00", b":", b" ", b"\t", b"%00", b"%", b"\xff", b"\xc0\xaf", b"/../", b"Content-Length: 99999\r\n",
          b"Transfer-Encoding: chunked\r\n", b"\r\n\r\n", b"HTTP/1.1", b"HTTP/2.0", b"?", b"&", b"#", b"\x7f", b"\x1b[2J"]


class Case:
    def __init__(self, category, data, expect, half_close=True):
        self.category = category
        self.data = data
        self.expect = expect  # "reject", "lenient" or "any"
        self.half_close = half_close


def fixed_cases():
    """The hand-written malformed heads: (category, bytes, expectation)."""
    h = HEALTH
    cases = []
    add = lambda category, data, expect="reject": cases.append((category, data, expect))
    # Request lines.
    for line in [b"GET\r\n\r\n", b"GET /\r\n\r\n", b"\r\n\r\n", b" / HTTP/1.1\r\n\r\n", b"GET HTTP/1.1\r\n\r\n",
                 b"GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n", b"GET / HTTX/1.1\r\nHost: x\r\n\r\n", b"GET / HTTP/\r\nHost: x\r\n\r\n",
                 b"GET / HTTP/1.\r\nHost: x\r\n\r\n", b"GET / http/1.1\r\nHost: x\r\n\r\n", b"GET\t/\tHTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET / HTTP/1.1\r\n: \r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(32),
                 b"SSH-2.0-OpenSSH_9.0\r\n", b"\x00\x00\x00\x00\r\n\r\n"]:
        add("bad-request-line", line, "any" if b"extra" in line or b"\t" in line or b": " in line else "reject")
    for line in [b"get / HTTP/1.1\r\nHost: x\r\n\r\n", b"FOO /people HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"DELETE /people HTTP/1.1\r\nHost: x\r\n\r\n", b"GET http://evil.example/healthz HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", b"CONNECT localhost:443 HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"TRACE / HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /static/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET /static/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", b"GET //////// HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET /people?offset=-1&limit=99999999999999999999 HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /people?%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET /healthz HTTP/1.9\r\nHost: x\r\n\r\n"]:
        add("odd-but-parseable", line, "any")
    # HTTP/0.9 and HTTP/2.
    add("http0.9", b"GET /\r\n")
    add("http0.9", b"GET /healthz\r\n\r\n")
    add("http2", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "any")
    add("http2", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x12\x04\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x64\x00\x04\x00\x10\x00\x00", "any")
    add("http2", b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", "any")
    add("http2", b"GET / HTTP/3.0\r\nHost: x\r\n\r\n", "any")
    add("http2", b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n", "any")
    # Heads over the 8 KiB Cellar reads (a quarter of the connection's memory), up to where
    # libmicrohttpd stops reading: Cellar's own 431, where the response head no longer fitted.
    for size in [8200, 15900, 16100]:
        add("large-header", h + b"Cookie: " + b"a" * size + b"\r\n\r\n")
    add("large-header", b"GET /listbench?limit=1&x=" + b"y" * 12000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    # Huge heads.
    for size in [65536, 70000]:
        add("huge-header", h + b"X-Big: " + b"a" * size + b"\r\n\r\n", "any")
    for size in [131072, 1 << 20]:
        add("huge-header", h + b"X-Big: " + b"a" * size + b"\r\n\r\n")
    add("huge-header", h + b"".join(b"X-%d: y\r\n" % i for i in range(5000)) + b"\r\n")
    add("huge-header", h + b"Cookie: " + b"c=" * 40000 + b"\r\n\r\n")
    add("huge-url", b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("huge-url", b"GET /static/" + b"a/" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("huge-url", b"GET /people?" + b"x=1&" * 30000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("long-method", b"A" * 10000 + b" / HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("long-method", b"G" * 200000 + b" / HTTP/1.1\r\nHost: x\r\n\r\n")
    # Header syntax.
    add("header-no-colon", h + b"NoColonHere\r\n\r\n")
    add("header-no-colon", h + b"X-Ok: 1\r\nJust some words\r\n\r\n")
    add("header-syntax", h + b"X\x00Y: a\r\n\r\n")
    add("header-syntax", h + b"X-Obs: a\r\n folded\r\n\r\n", "any")
    add("header-syntax", b"GET /healthz HTTP/1.1\r\n Host: x\r\n\r\n", "any")
    add("header-syntax", h + b"X-Ctl: a\x01\x02\x1b\x7fb\r\n\r\n", "any")
    add("header-syntax", h + b"X-Utf8: \xc3\xa9\xff\xfe\r\n\r\n", "any")
    add("rfc-lenient", h + b"Foo : bar\r\n\r\n", "lenient")
    add("rfc-lenient", b"GET /healthz HTTP/1.1\r\n\r\n", "lenient")
    add("rfc-lenient", h + b"Host: other\r\n\r\n", "lenient")
    add("rfc-lenient", b"GET /healthz HTTP/1.1\r\n: empty-name\r\nHost: x\r\n\r\n", "lenient")
    add("rfc-lenient", h + b"Foo\t: bar\r\n\r\n", "lenient")
    add("rfc-lenient", b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 40\r\n\r\nabcd", "lenient")
    # An empty name after another field never reaches the server: libmicrohttpd 0.9.75 zeroes the colon in
    # place, then reads the line as the empty line that ends the head, so the request is the one before it.
    add("header-syntax", h + b": empty-name\r\n\r\n", "any")
    add("rfc-lenient", h + b"Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", "lenient")
    # NULs.
    add("nul", b"GET /healthz\x00 HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("nul", b"GET /static/app.css\x00../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("nul", h + b"X: a\x00b\r\n\r\n", "any")
    add("nul", b"\x00" * 64 + b"\r\n\r\n")
    add("nul", b"G\x00ET / HTTP/1.1\r\n\r\n", "any")
    # Content-Length.
    for value in [b"-1", b"-0", b"abc", b"1, 2", b"0x10", b"99999999999999999999999", b"18446744073709551616",
                  b"18446744073709551615", b"9223372036854775807", b"1e3", b" ", b"+5", b"5 5"]:
        expect = "reject" if value not in (b"-0", b"+5") else "any"
        add("content-length", h + b"Content-Length: " + value + b"\r\n\r\nhello", expect)
    add("content-length", h + b"Content-Length: 100\r\n\r\nshort", "reject")
    add("content-length", b"POST /people HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n" + b"x" * 1000, "reject")
    # Chunked bodies.
    te = h + b"Transfer-Encoding: chunked\r\n\r\n"
    for body in [b"zz\r\nhello\r\n0\r\n\r\n", b"-5\r\nhello\r\n0\r\n\r\n", b"ffffffffffffffffffff\r\nx\r\n0\r\n\r\n",
                 b"5\r\nhelloXX\r\n0\r\n\r\n", b"5\r\nhel", b"5\nhello\n0\n\n", b"\r\n\r\n", b"5;ext=\x00\r\nhello\r\n0\r\n\r\n",
                 b"0x5\r\nhello\r\n0\r\n\r\n", b" 5\r\nhello\r\n0\r\n\r\n", b"5\r\nhello\r\n", b"100000000\r\n" + b"x" * 100]:
        expect = "any" if body in (b"5\nhello\n0\n\n", b"5;ext=\x00\r\nhello\r\n0\r\n\r\n", b" 5\r\nhello\r\n0\r\n\r\n") else "reject"
        add("chunked", te + body, expect)
    # Transfer-Encoding with Content-Length: the request-smuggling pair (RFC 9112 §6.3), refused with 400.
    add("rfc-lenient", h + b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "lenient")
    add("rfc-lenient", h + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "lenient")
    add("chunked", h + b"Transfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "any")
    add("chunked", h + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "any")
    add("chunked", h + b"Transfer-Encoding: identity\r\n\r\n", "any")
    add("chunked", h + b"Transfer-Encoding: chunked\r\n\r\n" + b"1\r\nx\r\n" * 5000 + b"0\r\n\r\n", "any")
    # Bare CR / LF.
    add("bare-cr-lf", b"GET /healthz HTTP/1.1\rHost: x\r\r")
    add("bare-cr-lf", b"GET /healthz HTTP/1.1\nHost: x\n\n", "any")
    add("bare-cr-lf", b"GET /healthz HTTP/1.1\r\nHost: x\n\r\n", "any")
    add("bare-cr-lf", b"GET /healthz HTTP/1.1\r\nX: a\rb\r\n\r\n", "any")
    add("bare-cr-lf", b"\n\n\n\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "any")
    add("bare-cr-lf", b"\r" * 1000)
    # Pipelined junk after a valid request.
    valid = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    for junk in [b"GARBAGE\r\n\r\n", b"\x00\xff" * 100, b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 3, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                 valid * 20, b"POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n", b"\r\n" * 100]:
        add("pipelined-junk", valid + junk, "any")
    return cases


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        pos = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(pos, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[pos:pos] = bytes([rng.randrange(256)])
        elif op == 2:
            data[pos:pos] = rng.choice(TOKENS)
        elif op == 3 and data:
            del data[pos:pos + rng.randint(1, 8)]
        elif op == 4 and data:
            end = min(len(data), pos + rng.randint(1, 16))
            data[pos:pos] = data[pos:end] * rng.randint(1, 50)
        elif op == 5 and data:
            data[min(pos, len(data) - 1)] = rng.choice(b"\r\n\x00: \t%/")
        else:
            del data[pos:]
    return bytes(data) or b"\r\n"


def make_cases(count, seed):
    rng = random.Random(seed)
    fixed = fixed_cases()
    cases = []
    # Every fixed case a few times (half-closed and left open), then mutations up to `count`.
    for round_ in range(3):
        for category, data, expect in fixed:
            cases.append(Case(category, data, expect, half_close=round_ != 1))
    while len(cases) < count:
        base = rng.choice(VALID + [c[1] for c in fixed if len(c[1]) < 4096])
        cases.append(Case("mutation", mutate(rng, base), "any", half_close=rng.random() >= 0.1))
    rng.shuffle(cases)
    return cases


def parse_statuses(data):
    """Status codes of the responses in `data`, whether the first one is complete, and whether
    `data` starts like an HTTP response at all."""
    first = STATUS_LINE.match(data)
    if not first:
        return [], False, False
    statuses = [int(m.group(1)) for m in ANY_STATUS.finditer(data)]
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return statuses, False, True
    head = data[:head_end].decode("latin-1").lower()
    body = len(data) - head_end - 4
    status = int(first.group(1))
    if status in (204, 304) or 100 <= status < 200:
        complete = True
    elif "transfer-encoding: chunked" in head:
        complete = data.endswith(b"0\r\n\r\n")
    else:
        m = re.search(r"content-length: *(\d+)", head)
        complete = bool(m) and body >= int(m.group(1))
    return statuses, complete, True


def run_case(case, port, timeout):
    """Sends one case; returns (outcome, statuses)."""
    try:
        sock = socket.create_connection((HOST, port), timeout=timeout)
    except OSError as error:
        return "connect-error:%s" % type(error).__name__, []
    sock.settimeout(timeout)
    received = bytearray()
    outcome = None
    try:
        try:
            sock.sendall(case.data)
            if case.half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # The server may answer and close before reading everything (EPIPE, ECONNRESET, ENOTCONN): read what it sent.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            statuses, complete, _ = parse_statuses(bytes(received))
            # A complete answer: wait a moment for pipelined ones, then stop.
            sock.settimeout(0.1 if complete else max(0.05, deadline - time.monotonic()))
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                if complete:
                    break
                continue
            if not chunk:
                outcome = "closed"
                break
            received += chunk
        else:
            outcome = "open"
    except ConnectionResetError:
        outcome = "reset"
    except OSError as error:
        outcome = "error:%s" % errno.errorcode.get(error.errno, type(error).__name__)
    finally:
        sock.close()
    statuses, _, looks_http = parse_statuses(bytes(received))
    if received and not looks_http:
        return "garbage-answer", []
    if statuses:
        return "answered", statuses
    return {"closed": "closed-without-answer", "reset": "reset-without-answer", "open": "kept-open-waiting", None: "kept-open-waiting"}.get(
        outcome, outcome), []


def names_other_version(data):
    """Whether some line names an HTTP version other than 1.0 and 1.1 (pipelined requests included)."""
    return re.search(rb"HTTP/(?!1\.[01]\r?\n)", data) is not None


def judge(case, outcome, statuses, strict_rfc):
    """(label, failure message or None)."""
    if outcome != "answered":
        if outcome in ("garbage-answer",) or outcome.startswith("connect-error"):
            return outcome, "%s for %s case" % (outcome, case.category)
        return outcome, None
    first = statuses[0]
    for status in statuses:
        if status == 505 and names_other_version(case.data):
            continue
        if status >= 500:
            return "5xx", "status %d for %s case" % (status, case.category)
    if first == 505:
        return "505-unsupported-version", None
    label = "%dxx" % (first // 100)
    if first < 400:
        if case.expect == "reject":
            return label, "status %d for a %s case, which must be refused" % (first, case.category)
        if case.expect == "lenient":
            return "accepted-lenient", ("status %d for a %s case (--strict-rfc)" % (first, case.category)) if strict_rfc else None
    return label, None


def healthy(port, pid):
    if pid:
        try:
            os.kill(pid, 0)
            with open("/proc/%d/status" % pid) as status:
                if "\nState:\tZ" in status.read():
                    return False, "the server process %d is a zombie" % pid
        except (ProcessLookupError, FileNotFoundError):
            return False, "the server process %d is gone" % pid
    for attempt in range(3):
        outcome, statuses = run_case(Case("health", HEALTH + b"\r\n", "any", half_close=False), port, 5.0)
        if statuses[:1] == [200]:
            return True, None
        time.sleep(0.5)
    return False, "GET /healthz did not answer 200 (%s %s)" % (outcome, statuses)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, help="the server's process id, checked to stay alive")
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--timeout", type=float, default=1.5, help="seconds to wait for an answer per case")
    parser.add_argument("--strict-rfc", action="store_true", help="also fail when a case RFC 9112 says to reject is accepted")
    args = parser.parse_args()

    cases = make_cases(args.cases, args.seed)
    outcomes = collections.Counter()
    by_category = collections.defaultdict(collections.Counter)
    failures = []
    lenient = collections.Counter()
    health_checks = 0
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.workers) as pool:
        for batch_start in range(0, len(cases), 200):
            batch = cases[batch_start:batch_start + 200]
            results = list(pool.map(lambda case: run_case(case, args.port, args.timeout), batch))
            for case, (outcome, statuses) in zip(batch, results):
                label, failure = judge(case, outcome, statuses, args.strict_rfc)
                outcomes[label] += 1
                by_category[case.category][label if label != "4xx" else str(statuses[0])] += 1
                if label == "accepted-lenient":
                    lenient[case.data[:70]] += 1
                if failure:
                    failures.append("%s: %r" % (failure, case.data[:120]))
            ok, problem = healthy(args.port, args.pid)
            health_checks += 1
            if not ok:
                failures.append("after case %d: %s" % (batch_start + len(batch), problem))
                break
    elapsed = time.monotonic() - started

    print("garbage: %d cases in %.1f s (%d workers, seed %d), %d health checks" % (
        sum(outcomes.values()), elapsed, args.workers, args.seed, health_checks))
    print("outcomes:")
    for label, count in sorted(outcomes.items(), key=lambda item: -item[1]):
        print("  %-26s %6d" % (label, count))
    print("by category (first status, or what the connection did):")
    for category in sorted(by_category):
        detail = ", ".join("%s %d" % item for item in sorted(by_category[category].items(), key=lambda item: -item[1]))
        print("  %-18s %s" % (category, detail))
    if lenient:
        print("accepted although RFC 9112 says to reject (libmicrohttpd 0.9.75 is lenient here):")
        for head, count in lenient.items():
            print("  %dx %r" % (count, head))
    if failures:
        print("FAILED: %d problem(s):" % len(failures))
        for failure in failures[:30]:
            print("  " + failure)
        return 1
    print("garbage: ok — no 5xx, no garbage answer, the server stayed up and answered /healthz after every batch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
