#!/usr/bin/env python3
"""HTTP probes for Benchmarks/database/run.sh (standard library only).

    probe.py deep BASE PATH HOPS LIMIT
        Follows Cellar's JSON `links.next` HOPS times from PATH (e.g. /items.json?limit=1000)
        and prints the path it ends on with its `limit` set to LIMIT: the page after row
        HOPS x 1000, reached the way a client pages, by cursor. Exit 1 if a page is not
        200 JSON or has no `links.next` before the last hop.
    probe.py check BASE PATH FIRST_ID ROWS
        Fetches PATH and prints "STATUS BYTES rows=N first=yes|no" (or "HTTP STATUS, N bytes: text"). The rows are counted by the
        distinct SKU-nnnnnnn values in the body (every items row has one, HTML or JSON, Cellar's
        shape or Datasette's); first=yes when FIRST_ID's SKU is among them. Exit 1 when the
        server does not answer 200; a row count or first row that differ only print.
    probe.py expect DB
        Prints the id of the first row sorted by price (ties by id), for `check`.
    probe.py --self-test
"""

import json
import re
import sqlite3
import sys
import urllib.error
import urllib.parse
import urllib.request

SKU = re.compile(rb"SKU-(\d{7})")


def get(url, timeout=120):
    """(status, body); status 0 and the reason as body when the server does not answer."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except (urllib.error.URLError, OSError) as error:
        return 0, str(error).encode()


def with_limit(path, limit):
    """PATH with its limit set to LIMIT; the other parameters keep their bytes (a cursor is opaque)."""
    parts = urllib.parse.urlsplit(path)
    query = [p for p in parts.query.split("&") if p and p.split("=", 1)[0] != "limit"]
    query.append(f"limit={limit}")
    return urllib.parse.urlunsplit(("", "", parts.path, "&".join(query), ""))


def deep(base, path, hops, limit):
    for hop in range(hops):
        status, body = get(base + path)
        if status != 200:
            print(f"hop {hop}: {path} answered {status or 'nothing'}: {body[:200]!r}", file=sys.stderr)
            return 1
        try:
            nxt = json.loads(body)["links"]["next"]
        except (ValueError, KeyError, TypeError) as error:
            print(f"hop {hop}: {path}: no links.next in the JSON ({error!r})", file=sys.stderr)
            return 1
        if not nxt:
            print(f"hop {hop}: {path}: links.next is null before hop {hops}", file=sys.stderr)
            return 1
        # Path-absolute as Cellar writes them; an absolute URL is cut to its path and query.
        parts = urllib.parse.urlsplit(nxt)
        path = urllib.parse.urlunsplit(("", "", parts.path, parts.query, ""))
    print(with_limit(path, limit))
    return 0


def check(base, path, first_id, rows):
    status, body = get(base + path)
    if status == 0:
        print(f"no answer: {body.decode()}")
        return 1
    if status != 200:
        text = re.sub(r"<(script|style)\b.*?</\1>|<[^>]*>", " ", body[:4000].decode("utf-8", "replace"), flags=re.S)
        snippet = " ".join(text.split())[:100].replace("|", "/")
        print(f"HTTP {status}, {len(body)} bytes: {snippet}")
        return 1
    skus = set(SKU.findall(body))
    first = b"%07d" % first_id in skus
    print(f"{status} {len(body)} rows={len(skus)} first={'yes' if first else 'no'}"
          + ("" if len(skus) == rows and first else f" (expected rows={rows} first={first_id})"))
    return 0


def expect(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    print(con.execute("SELECT id FROM items ORDER BY price, id LIMIT 1").fetchone()[0])
    return 0


def self_test():
    assert with_limit("/items.json?limit=1000&cursor=abc%3D", 100) == "/items.json?cursor=abc%3D&limit=100"
    assert with_limit("/items.json", 100) == "/items.json?limit=100"
    assert SKU.findall(b'<td>SKU-0000001-AB</td>"SKU-0300001-XY"') == [b"0000001", b"0300001"]
    print("probe.py: self-test passed")
    return 0


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return self_test()
    if len(argv) == 6 and argv[1] == "deep":
        return deep(argv[2], argv[3], int(argv[4]), int(argv[5]))
    if len(argv) == 6 and argv[1] == "check":
        return check(argv[2], argv[3], int(argv[4]), int(argv[5]))
    if len(argv) == 3 and argv[1] == "expect":
        return expect(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
