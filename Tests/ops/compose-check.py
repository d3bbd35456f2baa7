#!/usr/bin/env python3
"""Checks compose.yaml (over PostgreSQL) and compose.sqlite.yaml without a Docker engine, with the
files they mount.

    Tests/ops/compose-check.py [ROOT]          # prints one line a check; exits 1 on any failure
    Tests/ops/compose-check.py --self-test     # each check fails on a file broken on purpose

- each file is valid against the Compose Specification's JSON schema (Tests/ops/compose-spec.json,
  from compose-spec/compose-spec, schema/compose-spec.json at 170098ba, Apache-2.0);
- every replica: Cellar's image, healthy by `cellar healthcheck --ready`, its stop_grace_period
  above its CELLAR_SHUTDOWN_GRACE, and its database: the SQLite file on the shared volume, or a
  `postgres://` URL naming the file's PostgreSQL service, with no password in it, the password
  from an interpolated PGPASSWORD (never written in the file);
- PostgreSQL's service runs deploy/postgres/ when it makes its database (the reader role), with the
  reader's password from the same variable the replicas use, and is healthy by pg_isready;
- the proxy runs deploy/nginx/nginx.conf from the folder it mounts; each upstream line of
  deploy/nginx/upstreams.conf names a replica at the image's port, and each replica has one; the
  proxy publishes the port listen.conf names;
- deploy/nginx/nginx.conf has the directives the scale rehearsal depends on (retries of idempotent
  requests, but not of a 503, which every replica gives while the database is away; a 503 with
  Retry-After when no replica can be reached; keepalive to the replicas, HTTP/1.1 without
  `Connection: close`, a read timeout above the 15 s event-stream heartbeat).
Tests/scale/run.sh runs the same nginx.conf in front of real replicas.
"""

import copy
import json
import os
import re
import sys
import urllib.parse

import jsonschema
import yaml

HEARTBEAT_SECONDS = 15


def seconds(duration):
    """A Compose duration ("12s", "1m30s", "500ms") in seconds."""
    total, text = 0.0, str(duration)
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", text):
        total += float(number) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 0.000001}[unit]
    return total


def environment(service):
    value = service.get("environment", {})
    if isinstance(value, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in value)
    return {key: str(val) for key, val in value.items()}


def check(compose, files, schema, image_port):
    """Every failed check's message, for a parsed compose file and the nginx files' text."""
    failures = []
    try:
        jsonschema.Draft7Validator(schema).validate(compose)
    except jsonschema.ValidationError as error:
        failures.append("not valid Compose: %s at %s" % (error.message, "/".join(map(str, error.path))))
    services = compose.get("services", {})
    replicas = {name: s for name, s in services.items() if re.fullmatch(r"cellar-\d+", name)}
    if len(replicas) < 2:
        failures.append("fewer than two replicas (services cellar-N)")
    for name, service in sorted(replicas.items()):
        env = environment(service)
        test = " ".join(service.get("healthcheck", {}).get("test", []))
        if "/app/cellar healthcheck" not in test or "--ready" not in test:
            failures.append("%s: its healthcheck is not `cellar healthcheck --ready` (%r)" % (name, test))
        grace = float(env.get("CELLAR_SHUTDOWN_GRACE", 10))
        stop = seconds(service.get("stop_grace_period", "10s"))
        if not stop > grace:
            failures.append("%s: stop_grace_period %ss is not above CELLAR_SHUTDOWN_GRACE %ss" % (name, stop, grace))
        database = env.get("CELLAR_DATABASE", "")
        if database.startswith(("postgres://", "postgresql://")):
            url = urllib.parse.urlsplit(database)
            if url.password is not None:
                failures.append("%s: CELLAR_DATABASE has a password in it" % name)
            if url.hostname not in services:
                failures.append("%s: CELLAR_DATABASE names host %r, which is not a service" % (name, url.hostname))
            if not re.fullmatch(r"\$\{\w+(:?[?-][^}]*)?\}", env.get("PGPASSWORD", "")):
                failures.append("%s: PGPASSWORD is not taken from the environment (${VARIABLE})" % name)
            continue
        mounts = [v.split(":")[1] for v in service.get("volumes", []) if isinstance(v, str) and v.count(":") >= 1]
        if not any(database.startswith(mount.rstrip("/") + "/") for mount in mounts):
            failures.append("%s: CELLAR_DATABASE %r is not on a mounted volume %s" % (name, database, mounts))
    over_postgres = [n for n, s in replicas.items() if environment(s).get("CELLAR_DATABASE", "").startswith(("postgres://", "postgresql://"))]
    if over_postgres:
        hosts = {urllib.parse.urlsplit(environment(replicas[n])["CELLAR_DATABASE"]).hostname for n in over_postgres}
        for host in sorted(h for h in hosts if h in services):
            postgres = services[host]
            env = environment(postgres)
            mounts = {target.rstrip("/"): source for source, target, *_ in (v.split(":") for v in postgres.get("volumes", []))}
            if mounts.get("/docker-entrypoint-initdb.d") != "./deploy/postgres":
                failures.append("%s does not run deploy/postgres/ when it makes its database" % host)
            readers = {environment(replicas[n]).get("PGPASSWORD") for n in over_postgres}
            if readers != {env.get("CELLAR_READER_PASSWORD")}:
                failures.append("%s: CELLAR_READER_PASSWORD is not the replicas' PGPASSWORD" % host)
            if "pg_isready" not in " ".join(postgres.get("healthcheck", {}).get("test", [])):
                failures.append("%s: its healthcheck is not pg_isready" % host)
            if not re.fullmatch(r"\$\{\w+(:?[?-][^}]*)?\}", env.get("POSTGRES_PASSWORD", "")):
                failures.append("%s: POSTGRES_PASSWORD is written in the file" % host)
    else:
        volumes = {tuple(v.split(":")[:2]) for s in replicas.values() for v in s.get("volumes", [])}
        if len({source for source, _ in volumes}) != 1:
            failures.append("the replicas do not share one volume: %s" % sorted(volumes))

    proxy = services.get("proxy", {})
    command = proxy.get("command", [])
    config = command[command.index("-c") + 1] if "-c" in command else ""
    mounts = {target: source for source, target, *_ in (v.split(":") for v in proxy.get("volumes", []))}
    folder = os.path.dirname(config)
    if mounts.get(folder) != "./deploy/nginx" or os.path.basename(config) != "nginx.conf":
        failures.append("the proxy does not run deploy/nginx/nginx.conf from its mounted folder (-c %r, mounts %s)" % (config, mounts))
    upstreams = re.findall(r"^\s*server\s+([\w.-]+):(\d+)", files["upstreams.conf"], re.M)
    named = {host for host, _ in upstreams}
    for host, port in upstreams:
        if host not in replicas:
            failures.append("upstreams.conf names %s, which is not a replica" % host)
        if int(port) != image_port:
            failures.append("upstreams.conf sends %s to port %s, the image listens on %d" % (host, port, image_port))
    for name in sorted(set(replicas) - named):
        failures.append("%s has no upstream line in upstreams.conf" % name)
    if not all(re.search(r"\bmax_fails=\d+", line) and re.search(r"\bfail_timeout=\w+", line)
               for line in files["upstreams.conf"].splitlines() if line.strip().startswith("server")):
        failures.append("an upstream line has no passive health (max_fails, fail_timeout)")
    listen = re.search(r"^\s*listen\s+(?:[\d.]+:)?(\d+)", files["listen.conf"], re.M)
    published = [str(p).split(":")[-1] for p in proxy.get("ports", [])]
    if not listen or listen.group(1) not in published:
        failures.append("the proxy publishes %s, nginx listens on %s" % (published, listen and listen.group(1)))
    if set(proxy.get("depends_on", {})) != set(replicas) or any(
            d.get("condition") != "service_healthy" for d in proxy.get("depends_on", {}).values()):
        failures.append("the proxy does not wait for every replica to be healthy")

    # Directives only: comments name some of them too.
    conf = "\n".join(line.split("#", 1)[0] for line in files["nginx.conf"].splitlines())
    retried = re.search(r"^\s*proxy_next_upstream\s+([^;]+);", conf, re.M)
    if not retried or not {"error", "timeout", "http_502"} <= set(retried.group(1).split()):
        failures.append("nginx.conf: proxy_next_upstream lacks error timeout http_502")
    if retried and "http_503" in retried.group(1).split():
        failures.append("nginx.conf: proxy_next_upstream counts http_503, which takes every replica out while the shared database is away")
    unavailable = re.search(r"error_page\s+502\s+504\s+=\s+@(\w+);", conf)
    if not unavailable or not re.search(r"location\s+@%s\s*\{[^}]*Retry-After[^}]*return\s+503" % unavailable.group(1), conf):
        failures.append("nginx.conf: no replica reachable is not a 503 with Retry-After (error_page 502 504)")
    for directive in [r"proxy_next_upstream_tries\s+[2-9]", r"\bkeepalive\s+\d+", r"proxy_http_version\s+1\.1",
                      r'proxy_set_header\s+Connection\s+""', r"include\s+upstreams\.conf", r"include\s+listen\.conf"]:
        if not re.search(directive, conf):
            failures.append("nginx.conf: no %s" % directive.replace("\\", ""))
    timeout = re.search(r"proxy_read_timeout\s+(\w+);", conf)
    if not timeout or not seconds(timeout.group(1)) > HEARTBEAT_SECONDS:
        failures.append("nginx.conf: proxy_read_timeout is not above the %d s heartbeat" % HEARTBEAT_SECONDS)
    if re.search(r"^\s*(user|pid)\s", conf, re.M):
        failures.append("nginx.conf sets user or pid: it would not run from a temporary prefix as the rehearsal runs it")
    return failures


FILES = ["compose.yaml", "compose.sqlite.yaml"]


def load(root, name):
    with open(os.path.join(root, name)) as f:
        compose = yaml.safe_load(f)
    files = {}
    for name in ["nginx.conf", "upstreams.conf", "listen.conf"]:
        with open(os.path.join(root, "deploy", "nginx", name)) as f:
            files[name] = f.read()
    with open(os.path.join(root, "Tests", "ops", "compose-spec.json")) as f:
        schema = json.load(f)
    with open(os.path.join(root, "Dockerfile")) as f:
        image_port = int(re.search(r"\bPORT=(\d+)", f.read()).group(1))
    return compose, files, schema, image_port


def self_test(root):
    common = {
        "stop_grace_period": lambda c, f: c["services"]["cellar-2"].__setitem__("stop_grace_period", "5s"),
        "--ready": lambda c, f: c["services"]["cellar-1"]["healthcheck"].__setitem__("test", ["CMD", "/app/cellar", "healthcheck"]),
        "not valid Compose": lambda c, f: c["services"]["proxy"].__setitem__("ports", "8080"),
        "no upstream line": lambda c, f: f.__setitem__("upstreams.conf", f["upstreams.conf"].replace("server cellar-3:8080", "# gone")),
        "the image listens": lambda c, f: f.__setitem__("upstreams.conf", f["upstreams.conf"].replace("cellar-1:8080", "cellar-1:9090")),
        "counts http_503": lambda c, f: f.__setitem__("nginx.conf", f["nginx.conf"].replace("timeout http_502;", "timeout http_502 http_503;")),
        "error_page 502 504": lambda c, f: f.__setitem__("nginx.conf", f["nginx.conf"].replace("error_page 502 504", "# error_page")),
        "heartbeat": lambda c, f: f.__setitem__("nginx.conf", f["nginx.conf"].replace("proxy_read_timeout 60s", "proxy_read_timeout 10s")),
        "healthy": lambda c, f: c["services"]["proxy"]["depends_on"].pop("cellar-2"),
        "publishes": lambda c, f: f.__setitem__("listen.conf", "listen 9999;"),
    }
    def replica(name, key, value):
        return lambda c, f: c["services"][name]["environment"].__setitem__(key, value)
    per_file = {
        "compose.yaml": {
            "a password in it": replica("cellar-1", "CELLAR_DATABASE", "postgres://cellar_reader:hunter2@postgres:5432/cellar"),
            "not a service": replica("cellar-2", "CELLAR_DATABASE", "postgres://cellar_reader@db.example:5432/cellar"),
            "not taken from the environment": replica("cellar-3", "PGPASSWORD", "hunter2"),
            "deploy/postgres/": lambda c, f: c["services"]["postgres"].__setitem__("volumes", ["postgres:/var/lib/postgresql/data"]),
            "not the replicas' PGPASSWORD": lambda c, f: c["services"]["postgres"]["environment"].__setitem__("CELLAR_READER_PASSWORD", "${OTHER}"),
            "pg_isready": lambda c, f: c["services"]["postgres"]["healthcheck"].__setitem__("test", ["CMD", "true"]),
            "written in the file": lambda c, f: c["services"]["postgres"]["environment"].__setitem__("POSTGRES_PASSWORD", "hunter2"),
        },
        "compose.sqlite.yaml": {
            "not on a mounted volume": replica("cellar-1", "CELLAR_DATABASE", "/elsewhere/cellar.db"),
            "share one volume": lambda c, f: c["services"]["cellar-2"].__setitem__("volumes", ["other:/data"]),
        },
    }
    caught = 0
    for name in FILES:
        compose, files, schema, port = load(root, name)
        assert check(compose, files, schema, port) == [], (name, check(compose, files, schema, port))
        for expected, breakage in {**common, **per_file[name]}.items():
            # The anchors' services share one mapping: copy each service apart, as YAML's merge would.
            broken_compose = copy.deepcopy(compose)
            broken_compose["services"] = {k: copy.deepcopy(v) for k, v in broken_compose["services"].items()}
            broken_files = dict(files)
            breakage(broken_compose, broken_files)
            failures = check(broken_compose, broken_files, schema, port)
            assert any(expected in failure for failure in failures), (name, expected, failures)
            caught += 1
    print("compose-check self-test: %d breakages of %s each caught" % (caught, " and ".join(FILES)))


def main():
    if sys.argv[1:2] == ["--self-test"]:
        self_test(sys.argv[2] if len(sys.argv) > 2 else os.getcwd())
        return 0
    root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
    status = 0
    for name in FILES:
        compose, files, schema, port = load(root, name)
        failures = check(compose, files, schema, port)
        for failure in failures:
            print("  %s: %s" % (name, failure))
        if failures:
            status = 1
            continue
        replicas = sorted(service for service in compose["services"] if service.startswith("cellar-"))
        database = "PostgreSQL" if "postgres" in compose["services"] else "one SQLite file"
        print("  %s: valid Compose, %s over %s, healthy by /readyz; nginx runs deploy/nginx/nginx.conf" % (name, ", ".join(replicas), database))
    return status


if __name__ == "__main__":
    sys.exit(main())
