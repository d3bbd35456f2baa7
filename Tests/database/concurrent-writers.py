#!/usr/bin/env python3
"""The concurrent-writers run's own client and its final check (concurrent-writers.sh).

  TOKEN=… concurrent-writers.py client SECONDS LOG BASE_URL...
      Until SECONDS have passed, turn by turn over the servers: inserts a row of a name of its
      own, adds one to the shared counter (read, then If-Match, read again after a 412), and sets
      one of eight slots to a value never used before (a plain update, last writer wins: this
      client is the slots' only writer). Writes what was acknowledged to LOG (JSON).
  concurrent-writers.py check DATABASE SLACK LOG...
      Every acknowledged insert is in the file; the counter holds every acknowledged increment
      (and at most SLACK more: requests wrk sent whose answers it did not read when it stopped);
      each slot holds the last value acknowledged for it; PRAGMA integrity_check is ok. LOG: the
      client's JSON and wrk's and the command line's logs (lines "insert NAME", "increment",
      "refused", "error …").
"""
import http.client
import json
import os
import sqlite3
import sys
import time
import urllib.parse


def client(seconds, log, token, bases):
    connections = []
    for base in bases:
        url = urllib.parse.urlsplit(base)
        connections.append(http.client.HTTPConnection(url.hostname, url.port, timeout=60))
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    acknowledged = {"inserts": [], "increments": 0, "refused": 0, "slots": {}, "errors": [], "statuses": {}}

    def send(connection, method, path, body=None, extra=None):
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers={**headers, **(extra or {})})
        response = connection.getresponse()
        data = response.read()
        key = f"{method} {path.split('/')[1]} {response.status}"
        acknowledged["statuses"][key] = acknowledged["statuses"].get(key, 0) + 1
        return response.status, response.getheader("ETag"), data

    deadline = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < deadline:
        connection = connections[turn % len(connections)]
        turn += 1
        name = f"py-{turn}"
        status, _, data = send(connection, "POST", "/items/-/insert", {"row": {"name": name, "n": turn}})
        if status == 201:
            acknowledged["inserts"].append(name)
        else:
            acknowledged["errors"].append(f"insert {status} {data[:200]!r}")
        for _ in range(1000):
            status, etag, data = send(connection, "GET", "/counters/shared.json")
            if status != 200 or not etag:
                acknowledged["errors"].append(f"read {status} {data[:200]!r}")
                continue
            n = json.loads(data)["item"]["n"]
            status, _, data = send(connection, "POST", "/counters/shared/-/update", {"update": {"n": n + 1}}, {"If-Match": etag})
            if status == 200:
                acknowledged["increments"] += 1
                break
            if status == 412:
                acknowledged["refused"] += 1
            else:
                acknowledged["errors"].append(f"update {status} {data[:200]!r}")
        slot = turn % 8 + 1
        status, _, data = send(connection, "POST", f"/slots/{slot}/-/update", {"update": {"v": turn}})
        if status == 200:
            acknowledged["slots"][str(slot)] = turn
        else:
            acknowledged["errors"].append(f"slot {status} {data[:200]!r}")
    with open(log, "w") as out:
        json.dump(acknowledged, out)


def check(database, slack, logs):
    inserts, increments, refused, errors, slots = [], 0, 0, [], {}
    for path in logs:
        if path.endswith(".json"):
            with open(path) as log:
                acknowledged = json.load(log)
            inserts += acknowledged["inserts"]
            increments += acknowledged["increments"]
            refused += acknowledged["refused"]
            errors += acknowledged["errors"]
            slots.update(acknowledged["slots"])
            print(f"  {os.path.basename(path)}: answers {json.dumps(acknowledged['statuses'], sort_keys=True)}")
            continue
        counts = {"insert": 0, "increment": 0, "refused": 0, "error": 0}
        with open(path) as log:
            for line in log:
                word, _, rest = line.rstrip("\n").partition(" ")
                counts[word if word in counts else "error"] += 1
                if word == "insert":
                    inserts.append(rest)
                elif word == "increment":
                    increments += 1
                elif word == "refused":
                    refused += 1
                else:
                    errors.append(f"{path}: {line.strip()[:300]}")
        print(f"  {os.path.basename(path)}: {counts['insert']} inserts, {counts['increment']} increments, "
              f"{counts['refused']} refused (412), {counts['error']} errors")
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    stored = {name for (name,) in db.execute("SELECT name FROM items")}
    counter = db.execute("SELECT n FROM counters WHERE name = 'shared'").fetchone()[0]
    stored_slots = {str(slot): v for slot, v in db.execute("SELECT id, v FROM slots")}
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    missing = [name for name in inserts if name not in stored]
    wrong_slots = {slot: (value, stored_slots.get(slot)) for slot, value in slots.items() if stored_slots.get(slot) != value}
    print(f"  acknowledged: {len(inserts)} inserts, {increments} increments ({refused} refused by If-Match and tried again), "
          f"{len(slots)} slots; the file: {len(stored)} rows of items, counter {counter}, integrity_check {integrity}")
    failures = []
    if missing:
        failures.append(f"{len(missing)} acknowledged inserts are not in the file: {missing[:5]}")
    if not increments <= counter <= increments + slack:
        failures.append(f"the counter is {counter}; the acknowledged increments are {increments} (and at most {slack} unread)")
    if wrong_slots:
        failures.append(f"slots not as last acknowledged (acknowledged, stored): {wrong_slots}")
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    # A 503 (the file busy with another process past the busy timeout) acknowledges nothing and
    # loses nothing; anything else is a failure.
    busy = [error for error in errors if " 503 " in f" {error} "]
    if busy:
        print(f"  {len(busy)} answers were 503 (busy), e.g. {busy[0][:200]}")
    failures += [f"error: {error}" for error in errors if error not in busy][:10]
    if not inserts or not increments:
        failures.append("nothing was acknowledged")
    for failure in failures:
        print(f"  FAIL  {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "client":
        client(float(sys.argv[2]), sys.argv[3], os.environ["TOKEN"], sys.argv[4:])
    elif sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], int(sys.argv[3]), sys.argv[4:]))
    else:
        sys.exit(__doc__)
