#!/usr/bin/env bash
# Builds every libFuzzer target into .build-fuzz/ and runs each for SECONDS.
#   Tests/Fuzz/run.sh SECONDS [TARGET...]
# Targets: query (QueryItems(parsing:)), static_path (StaticFiles.resolve), prototype_template
# (PrototypeTemplate), html_writer (HTMLWriter text, attributes, urlAttribute, pathSegment), cursor
# (a database list's ListCursor read from a URL), json_reader (JSONReader, the write API's bodies).
# Each is one harness in Harnesses/ compiled together with the module sources it needs, with
# `swiftc -sanitize=fuzzer,address` (libFuzzer ships with the Swift toolchain: nothing to install).
# ByteWriters, which those sources import, is built first as a module and library of its own
# (.build-fuzz/ByteWriters/); html_writer compiles its sources into the target instead.
# The seed corpus in corpus/<target>/ is read, never written; new inputs go to
# .build-fuzz/corpus/<target>/; crashes go to Tests/artifacts/fuzz/ and fail the run.
# AddressSanitizer and LeakSanitizer are on (ASAN_OPTIONS=detect_leaks=1 unless set); Swift's own
# crash backtracer is off (SWIFT_BACKTRACE=enable=no) as it trips ASan while reporting a crash.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:?usage: run.sh SECONDS [TARGET...]}
shift
cd "$root"
out=.build-fuzz
artifacts=${FUZZ_ARTIFACTS:-Tests/artifacts/fuzz}
swiftc=${SWIFTC:-swiftc}
mkdir -p "$out" "$artifacts"

micro=Sources/MicroHTTP
query_sources=("$micro/QueryItems.swift" "$micro/HTTPError.swift" "$micro/HTTPStatus.swift" "$micro/HTTPHeaders.swift" "$micro/HTTPMethod.swift")
# StaticFiles.swift also serves responses, so it brings Request/Response and their helpers, and
# a response can be an event stream, whose connection side suspends and resumes through
# libmicrohttpd (linked); none needs swift-log (Server.swift and the rest of Internal/ are left out).
static_sources=("${query_sources[@]}" "$micro/StaticFiles.swift" "$micro/Request.swift" "$micro/RouteParameters.swift" "$micro/Response.swift"
    "$micro/ResponseBody.swift" "$micro/ResponseBodyProducer.swift" "$micro/HTTPDate.swift" "$micro/MIMEType.swift"
    "$micro/RequestID.swift" "$micro/EntityTag.swift" "$micro/EventStream.swift" "$micro/ServerSentEvent.swift"
    "$micro/Internal/EventStream+Connection.swift" "$micro/Internal/ContentReadResult.swift")
tablekit_sources=(Sources/TableKit/*.swift Sources/TableKit/Prototypes/*.swift Sources/TableKit/Editing/*.swift Sources/TableKit/Forms/*.swift)
byte_sources=(Sources/ByteWriters/*.swift)

database_sources=(Sources/CellarDatabase/ListCursor.swift Sources/CellarDatabase/SQLite/DatabaseValue.swift)

all_targets=(query static_path prototype_template html_writer cursor json_reader)
targets=("${@:-${all_targets[@]}}")

sources_for() {
    case "$1" in
        query) echo "$here/Harnesses/FuzzQuery.swift" "${query_sources[@]}" ;;
        static_path) echo "$here/Harnesses/FuzzStaticPath.swift" "${static_sources[@]}" ;;
        prototype_template) echo "$here/Harnesses/FuzzPrototypeTemplate.swift" "${tablekit_sources[@]}" ;;
        html_writer) echo "$here/Harnesses/FuzzHTMLWriter.swift" "${byte_sources[@]}" ;;
        cursor) echo "$here/Harnesses/FuzzCursor.swift" "${database_sources[@]}" ;;
        json_reader) echo "$here/Harnesses/FuzzJSONReader.swift" ;;
        *) echo "unknown fuzz target: $1" >&2; return 1 ;;
    esac
}

# ByteWriters as a module and a static library, for the targets whose sources import it.
bytes=$out/ByteWriters
build_byte_writers() {
    mkdir -p "$bytes"
    local -a command=("$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -suppress-warnings -package-name cellar
        -I Sources/CByteScan/include -module-name ByteWriters -emit-module -emit-module-path "$bytes/ByteWriters.swiftmodule"
        -emit-library -static -o "$bytes/libByteWriters.a" "${byte_sources[@]}")
    if [ -f "$bytes/libByteWriters.a" ] && [ "$(cat "$bytes/command" 2>/dev/null)" = "${command[*]}" ] \
        && [ -z "$(find "${byte_sources[@]}" Sources/CByteScan/include "$here/run.sh" -newer "$bytes/libByteWriters.a" 2>/dev/null)" ]; then
        return 0
    fi
    echo "== building ByteWriters"
    rm -f "$bytes/libByteWriters.a"
    if ! "${command[@]}" 2>"$bytes/err"; then
        grep -v "Cannot export local symbol" "$bytes/err" | head -40 >&2
        return 1
    fi
    echo "${command[*]}" >"$bytes/command"
}

build() {
    local target=$1 binary=$out/$1
    local -a files
    read -r -a files <<<"$(sources_for "$target") $here/Harnesses/Support.swift"
    # `-package-name`: the sources use `package` access (shared between the package's modules).
    # `-I`: ByteWriters imports CByteScan, a header-only C module of inline vector tests.
    local -a command=("$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -suppress-warnings -package-name cellar
        -I Sources/CByteScan/include -I Sources/CMicroHTTPD -lmicrohttpd -I "$bytes" -L "$bytes" -lByteWriters -module-name "Fuzz_$target" -o "$binary" "${files[@]}")
    # Rebuild only when a source, the script or the command changed.
    if [ -x "$binary" ] && [ "$(cat "$binary.cmd" 2>/dev/null)" = "${command[*]}" ] \
        && [ -z "$(find "${files[@]}" "$bytes/libByteWriters.a" Sources/CByteScan/include "$here/run.sh" -newer "$binary" 2>/dev/null)" ]; then
        echo "== $target: up to date ($binary)"
        return 0
    fi
    echo "== building $target"
    local started=$SECONDS
    # ld.gold warns "Cannot export local symbol" for the sanitizer runtimes: harmless. A source
    # edited while it compiles ("was modified during the build") gets two more tries.
    local attempt
    for attempt in 1 2 3; do
        rm -f "$binary"
        if "${command[@]}" 2>"$binary.err"; then
            grep -v "Cannot export local symbol" "$binary.err" | head -20 >&2 || true
            break
        fi
        if grep -q "modified during the build" "$binary.err" && [ "$attempt" -lt 3 ]; then
            echo "   a source changed while compiling; again in 10 s"
            sleep 10
            continue
        fi
        grep -v "Cannot export local symbol" "$binary.err" | head -40 >&2
        echo "   build of $target FAILED"
        return 1
    done
    echo "${command[*]}" >"$binary.cmd"
    echo "   built in $((SECONDS - started)) s"
}

failures=()
build_byte_writers || failures+=("ByteWriters (build)")
for target in "${targets[@]}"; do
    build "$target" || failures+=("$target (build)")
done
[ ${#failures[@]} -eq 0 ] || { echo "fuzz: build failed: ${failures[*]}"; exit 1; }

for target in "${targets[@]}"; do
    work="$out/corpus/$target"
    mkdir -p "$work"
    log="$artifacts/$target.log"
    dict=()
    [ -f "$here/dict/$target.dict" ] && dict=(-dict="$here/dict/$target.dict")
    echo "== fuzzing $target for $seconds s (log: $log)"
    status=0
    # The first corpus folder receives new inputs; the seeds in the repository are only read.
    SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no} ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$out/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$target-" "${dict[@]}" \
        "$work" "$here/corpus/$target" >"$log" 2>&1 || status=$?
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || true)
    speed=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || true)
    coverage=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 || true)
    echo "   $target: ${runs:-?} runs (${speed:-?}/s), $coverage, exit $status"
    if [ "$status" -ne 0 ]; then
        echo "   $target FAILED — last lines of $log:"
        grep -E "property violated|Fatal error|ERROR: libFuzzer|ERROR: AddressSanitizer|SUMMARY|Test unit written|Base64" "$log" | head -20 | sed 's/^/     /'
        failures+=("$target")
    fi
done

if [ ${#failures[@]} -ne 0 ]; then
    echo "fuzz: FAILED: ${failures[*]} (reproduce: $out/<target> $artifacts/<target>-crash-…; add the input to Tests/Fuzz/corpus/<target>/)"
    exit 1
fi
echo "fuzz: ${#targets[@]} target(s) ran $seconds s each without a crash"
