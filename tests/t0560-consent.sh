# t0560-consent.sh: no upload goes anywhere unasked.  Without a server set
# (no built-in one), --submit exits 2 before running and says how to set
# one, and `gmpbench status` says which server is used and why.  Before
# the first upload to a server the client says what becomes public and
# asks y/N on a terminal (a pseudo-terminal here, tests/pty-run.py): "n"
# uploads nothing, "y" uploads and is remembered for that server; without
# a terminal and without consent it exits 2; --yes and the config file's
# `consent = yes` serve scripts.  Uploads go to a real gmpbench-server on
# 127.0.0.1.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

PTY="python3 $SRCDIR/tests/pty-run.py"
tiny="--only gmpbench.base.multiply.128 --time-per-test 0.05 -q"
CONFIG="$XDG_CONFIG_HOME/gmpbench/config"
STATE="$TEST_TMP/state"
export XDG_STATE_HOME="$STATE/missing/parent"
trap 'stop_server' EXIT
: > "$CONFIG"       # no consent = yes: this test is about the question

# No server anywhere (the build names none unless configure was told).
default=$(sed -n 's/^#define GB_DEFAULT_SERVER "\(.*\)"$/\1/p' "$BUILDDIR/build_config.h")
if [ -z "$default" ]; then
  run_status env -u GMPBENCH_SERVER "$GMPBENCH" run $tiny --submit
  check "run --submit without a server set: exit 2, nothing run, says how to set one" \
    sh -c "[ $status -eq 2 ] && grep -q 'no results server is set' err.txt \
      && grep -q -- '--server URL' err.txt && grep -q 'GMPBENCH_SERVER' err.txt \
      && grep -q \"'server = URL' in $CONFIG\" err.txt && grep -q 'nothing was run' err.txt \
      && [ ! -s out.txt ]"
  make_result r0.json
  run_status env -u GMPBENCH_SERVER "$GMPBENCH" submit r0.json
  check "submit without a server set: exit 2, the same advice" \
    sh -c "[ $status -eq 2 ] && grep -q 'no results server is set' err.txt"
  run_status env -u GMPBENCH_SERVER "$GMPBENCH" status
  check "status says no server is set and how to set one (exit 0)" \
    sh -c "[ $status -eq 0 ] && grep -q '^server  *none set' out.txt"
else
  skip "no server set (this build has the default server $default)"
fi

run_status "$GMPBENCH" status
check "status names GMPBENCH_SERVER as the source of the server" \
  grep -q '^server  *http://127.0.0.1:9 (from the environment variable GMPBENCH_SERVER)' out.txt
echo 'server = http://127.0.0.1:10' > "$CONFIG"
run_status env -u GMPBENCH_SERVER "$GMPBENCH" status
check "status names the config file as the source of the server" \
  grep -q "^server  *http://127.0.0.1:10 (from the config file's 'server')" out.txt
run_status "$GMPBENCH" status --server http://127.0.0.1:11/
check "status names --server as the source of the server" \
  grep -q '^server  *http://127.0.0.1:11 (from --server)' out.txt
: > "$CONFIG"

if ! start_server; then
  skip "consent before uploads to gmpbench-server (no server built, or it did not start)"
  exit 0
fi
URL=$SERVER_URL
listed () {
  curl -s "$URL/api/v1/results" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["results"]))'
}
make_result r.json
fp=$("$GMPBENCH" key show | sed -n 's/^fingerprint *//p')

# No terminal, no consent: exit 2 before anything is sent or run.
run_status "$GMPBENCH" submit --server "$URL" r.json < /dev/null
check "submit without a terminal and without consent: exit 2, --yes and consent = yes named" \
  sh -c "[ $status -eq 2 ] && grep -q 'needs your consent' err.txt && grep -q -- '--yes' err.txt \
    && grep -q \"'consent = yes'\" err.txt && grep -q 'the result stays in r.json' err.txt"
run_status "$GMPBENCH" run $tiny --submit --server "$URL" < /dev/null
check "run --submit without a terminal and without consent: exit 2, nothing run" \
  sh -c "[ $status -eq 2 ] && grep -q 'needs your consent' err.txt \
    && grep -q 'nothing was run' err.txt && [ ! -s out.txt ]"
check "nothing reached the server" [ "$(listed)" -eq 0 ]

# On a terminal: the explanation, then "n".
$PTY n pty-no.txt "$GMPBENCH" submit --server "$URL" r.json
status=$? n=$(listed)
check "on a terminal the question shows what becomes public: the fields, the key's fingerprint and what it links, what retraction keeps" \
  sh -c "grep -q 'makes the result public' pty-no.txt && grep -q 'the machine: the CPU' pty-no.txt \
    && grep -q 'kernel' pty-no.txt && grep -q 'SHA-256' pty-no.txt && grep -q '$fp' pty-no.txt \
    && grep -q 'links all your results' pty-no.txt && grep -q 'keeps its bytes' pty-no.txt \
    && grep -q -- '--redact machine,kernel' pty-no.txt && grep -q '\[y/N\]' pty-no.txt"
check "answering n uploads nothing (exit 2, no consent)" \
  sh -c "[ $status -eq 2 ] && grep -q 'no consent' pty-no.txt && [ $n -eq 0 ]"
$PTY - pty-eof.txt "$GMPBENCH" submit --server "$URL" r.json
status=$? n=$(listed)
check "no answer at all (end of input) is a no" sh -c "[ $status -eq 2 ] && [ $n -eq 0 ]"
check "a no is not remembered" sh -c "! grep -qs '$URL' '$XDG_STATE_HOME/gmpbench/consent'"

# "y": uploaded and remembered, in a state directory made when missing.
$PTY y pty-yes.txt "$GMPBENCH" submit --server "$URL" r.json
status=$? n=$(listed)
check "answering y uploads the result" \
  sh -c "[ $status -eq 0 ] && grep -q 'uploaded: http' pty-yes.txt && [ $n -eq 1 ]"
check "the answer is remembered for that server in XDG_STATE_HOME, created 0700 with its parents" \
  sh -c "grep -q '^$URL	20' '$XDG_STATE_HOME/gmpbench/consent' \
    && ls -ld '$STATE/missing' '$XDG_STATE_HOME' | grep -vc '^drwx------' | grep -qx 0"
run_status "$GMPBENCH" status --server "$URL"
check "status shows the consent and when it was given" grep -q '^consent  *given on 20' out.txt
make_result r2.json
run_status "$GMPBENCH" submit --server "$URL" r2.json < /dev/null
check "the next upload to that server asks nothing, even without a terminal" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: ' out.txt && ! grep -q 'consent' err.txt"
run_status "$GMPBENCH" submit --server "http://localhost:$SERVER_PORT" r2.json < /dev/null
check "another server (another URL) is asked about again" \
  sh -c "[ $status -eq 2 ] && grep -q 'needs your consent' err.txt"

# Scripts: --yes (remembered too), and the config file's consent = yes.
rm -f "$XDG_STATE_HOME/gmpbench/consent"
run_status "$GMPBENCH" run $tiny --submit --yes --server "$URL" < /dev/null
check "run --submit --yes uploads without a terminal, and is remembered" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: ' out.txt \
    && grep -q '^$URL	' '$XDG_STATE_HOME/gmpbench/consent'"
check "--yes is an option of uploads only (submit takes it; run needs --submit)" \
  sh -c "'$GMPBENCH' run --yes > /dev/null 2> yes.err; [ \$? -eq 2 ] && grep -q -- '--submit' yes.err"
rm -f "$XDG_STATE_HOME/gmpbench/consent"
echo 'consent = yes' > "$CONFIG"
make_result r3.json
run_status "$GMPBENCH" submit --server "$URL" r3.json < /dev/null
check "the config file's consent = yes uploads without asking" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: ' out.txt"
run_status "$GMPBENCH" status --server "$URL"
check "status says the config file consents for every server" \
  grep -q "^consent  *given for every server (the config file's 'consent = yes')" out.txt
echo 'consent = sure' > "$CONFIG"
run_status "$GMPBENCH" submit --server "$URL" r3.json < /dev/null
check "a consent value other than yes or no is an error naming it (exit 2)" \
  sh -c "[ $status -eq 2 ] && grep -q \"'consent = sure' is neither yes nor no\" err.txt"
