# Shared by the shell suites (Tests/ops/run.sh, Tests/examples/run.sh): counting checks, and a
# few small helpers. Sourced, not run: it defines functions and sets `passed`, `failed` and
# `failures`. Needs `python` set to a Python 3 for free_port.
passed=0
failed=0
failures=()
pass() { passed=$((passed + 1)); echo "  ok    $*"; }
fail() { failed=$((failed + 1)); failures+=("$*"); echo "  FAIL  $*"; }
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}
section() { echo; echo "== $*"; }
now() { echo "${EPOCHREALTIME/./}"; } # microseconds
elapsed() { local d=$(($2 - $1)); printf '%d.%02d' $((d / 1000000)) $((d % 1000000 / 10000)); }
free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
