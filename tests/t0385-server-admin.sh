# t0385-server-admin.sh: `gmpbench-server admin` against a running
# server, on SQLite and on a private PostgreSQL (server-lib.sh's
# on_both_engines), with --aggregate-ttl an hour so that what the pages
# show comes from the actions' announcements, not a periodic rebuild:
# - bad input (no verb, an unknown verb, a malformed fingerprint or id,
#   hide without --reason, an option the verb has no use for, a control
#   character, an unknown result or key, a missing database file) exits
#   non-zero with a message naming the fault, and writes nothing;
# - hide takes a result out of listings, the leaderboard and its
#   category's judgement (an outlier's flag falls with one peer fewer),
#   its page says when and why, its bytes are still served, the dump
#   gives a tombstone, moved after the dump's last place (a mirror reading
#   from there gets it); unhide undoes all of it, the document again at
#   the dump's end; hiding twice changes nothing;
# - rejudge writes the flags the judge decides (each document's own, and
#   its category's) over a CPU row whose stored flags were tampered with;
# - ban/unban and verify/unverify reach the running server's
#   leaderboard, and the `key` commands still work, audited;
# - every action is one audit row (time, actor, verb, target, reason),
#   `admin log` lists them newest first, and the table refuses UPDATE
#   and DELETE.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server
EACH_SOURCE=1
command -v sqlite3 > /dev/null || { skip "admin (the sqlite3 command is needed)"; exit 0; }

make_key mallory > /dev/null
make_key bob > /dev/null
make_key dave > /dev/null
DAVE=$(fingerprint dave)
CPU='x86:AuthenticAMD:family=25:model=17:stepping=0'

listed () {
  get "/api/v1/results?cpu=$CPU&limit=500" > /dev/null
  field "'$1' in [r['id'] for r in d['results']]"
}

# admin ARGS...: the admin command on $DB as the actor test-operator
# (run_status: out.txt, err.txt, $status).
admin () {
  run_status "$SERVER" admin "$@" --database "$DB" --actor test-operator
}

audit_rows () {
  $SQL <<EOF
SELECT COUNT(*) FROM audit;
EOF
}

# refused LABEL WANT_STATUS PATTERN ARGS...: the admin command fails with
# WANT_STATUS and a message matching PATTERN, and writes no audit row.
refused () {
  label=$1 want=$2 pattern=$3
  shift 3
  before=$(audit_rows)
  run_status "$SERVER" admin "$@"
  if [ "$status" = "$want" ] && grep -q -e "$pattern" err.txt && [ "$(audit_rows)" = "$before" ]; then
    pass "$ENGINE: $label"
  else
    fail "$ENGINE: $label (status $status, wanted $want; $(head -c 300 err.txt))"
  fi
}

bad_input () {
  refused "no verb: usage error" 2 "which verb" --database "$DB"
  refused "an unknown verb: usage error naming it" 2 "unknown verb 'frob'" frob x --database "$DB"
  refused "a malformed fingerprint" 2 "fingerprint is 64" ban abc --database "$DB"
  refused "a malformed result id" 2 "result id is 16" hide XYZ --reason r --database "$DB"
  refused "hide without --reason" 2 "hide needs --reason" hide "$early" --database "$DB"
  refused "hide with an empty reason" 2 "reason must be 1 to" hide "$early" --reason '' --database "$DB"
  refused "a reason with a control character" 2 "control character" \
    hide "$early" --reason "$(printf 'a\tb')" --database "$DB"
  refused "an option the verb has no use for" 2 "log has no use for --actor" \
    log --actor x --database "$DB"
  refused "verify without --name" 2 "verify needs --name" verify "$DAVE" --database "$DB"
  refused "an unknown result" 1 "no such result" \
    hide 0123456789abcdef0123 --reason spam --database "$DB"
  refused "unban of a key the database never met" 1 "knows no such key" \
    unban "$(printf '%064d' 7)" --database "$DB"
  refused "rejudge of a CPU without results" 1 "no listed result" \
    rejudge 'x86:GenuineIntel:family=6:model=1:stepping=1' --database "$DB"
  refused "a database file that does not exist" 1 "no such file" log --database "$PWD/none.db"
  check "$ENGINE: ... and no database file was made" [ ! -e "$PWD/none.db" ]
  check "$ENGINE: the early result is still an outlier after all of it" \
    [ "$(flags_of "$early")" = outlier ]
}

hiding () {
  set -- $peers
  hidden=$1
  mark=$(curl -sS "$URL/api/v1/dump" | last_place)
  admin hide "$hidden" --reason 'a copy of another run'
  check "$ENGINE: hide succeeds" [ "$status" = 0 ]
  check "$ENGINE: ... the result leaves the listing" [ "$(listed "$hidden")" = False ]
  check "$ENGINE: ... its category is judged again (the outlier's flag falls, four peers)" \
    [ -z "$(flags_of "$early")" ]
  st=$(get "/results/$hidden")
  check "$ENGINE: ... its page says when and why" sh -c "[ $st = 200 ] && grep -q \
\"hidden by the site's operators on $(date -u +%Y-%m-%d): a copy of another run\" resp.json"
  get "/api/v1/results/$hidden" > /dev/null
  check "$ENGINE: ... the API says so" \
    [ "$(field "d['hidden']['reason']")" = 'a copy of another run' ]
  curl -sS -o raw.out "$URL/api/v1/results/$hidden/raw"
  check "$ENGINE: ... its bytes are still served, as uploaded" cmp -s raw.out "peer1.json"
  curl -sS "$URL/api/v1/dump" > dump.out
  check "$ENGINE: ... the dump gives a tombstone" sh -c "grep -q '\"id\":\"$hidden\",\"hidden\":true}' dump.out"
  curl -sS "$URL/api/v1/dump?after=$mark" > moved.out
  check "$ENGINE: ... after the dump's last place before it: that tombstone alone" \
    sh -c "[ \$(wc -l < moved.out) = 1 ] && grep -q '\"id\":\"$hidden\",\"hidden\":true}' moved.out"
  mark=$(last_place < moved.out)
  admin hide "$hidden" --reason 'again'
  check "$ENGINE: hiding it again changes nothing (status 1)" \
    sh -c "[ $status = 1 ] && grep -q 'already hidden' err.txt"
  admin unhide "$hidden"
  check "$ENGINE: unhide succeeds" [ "$status" = 0 ]
  check "$ENGINE: ... the result is listed again" [ "$(listed "$hidden")" = True ]
  check "$ENGINE: ... and judged with its category (the outlier's flag is back)" \
    [ "$(flags_of "$early")" = outlier ]
  st=$(get "/results/$hidden")
  check "$ENGINE: ... its page no longer says it is hidden" \
    sh -c "[ $st = 200 ] && ! grep -q 'hidden by the site' resp.json"
  curl -sS "$URL/api/v1/dump?after=$mark" > shown.out
  check "$ENGINE: ... after the tombstone's place: its document again" \
    sh -c "[ \$(wc -l < shown.out) = 1 ] && grep -q '\"id\":\"$hidden\",\"received\"' shown.out"
}

# last_place: the seq of the last line of a dump on standard input.
last_place () {
  $PY -c "import json, sys; print(([0] + [json.loads(l)['seq'] for l in sys.stdin])[-1])"
}

rejudging () {
  set -- $peers
  $SQL <<EOF
UPDATE results SET flags = '', flagged = 0, flag_notes = '' WHERE id = '$early';
UPDATE results SET flags = 'brand-mismatch', flagged = 1,
  flag_notes = 'brand-mismatch: set by hand' WHERE id = '$2';
EOF
  check "$ENGINE: tampered rows: the outlier's flag is gone, a peer has one it never earned" \
    [ "$(flags_of "$early") $(flags_of "$2")" = " brand-mismatch" ]
  admin rejudge "$CPU"
  check "$ENGINE: rejudge succeeds and says what changed" \
    sh -c "[ $status = 0 ] && grep -q 'own flags of 6 results judged again, 1 changed; 6 judged with their category, 1 flag changed' out.txt && grep -q '$early: outlier' out.txt && grep -q '$2: no flags' out.txt"
  check "$ENGINE: ... the judge's flags are written back (the document's own, the category's)" \
    [ "$(flags_of "$early") $(flags_of "$2")" = "outlier " ]
  admin rejudge "$CPU" --mode nosuchmode
  check "$ENGINE: rejudge of a mode the CPU has no row of fails" [ "$status" = 1 ]
}

keys () {
  upload_doc daves dave --identity 'x86:AuthenticAMD:family=25:model=116:stepping=1' > /dev/null
  daves=$(field "d['id']")
  check "$ENGINE: the leaderboard shows dave's result" shows_soon "$URL/api/v1/leaderboard" model=116
  admin ban "$DAVE" --reason 'fake results'
  check "$ENGINE: ban succeeds" [ "$status" = 0 ]
  check "$ENGINE: ... and takes it off the running server's leaderboard" hides_soon "$URL/api/v1/leaderboard" model=116
  admin unban "$DAVE"
  check "$ENGINE: unban puts it back" shows_soon "$URL/api/v1/leaderboard" model=116
  admin unban "$DAVE"
  check "$ENGINE: unban of a key not banned changes nothing (status 1)" \
    sh -c "[ $status = 1 ] && grep -q 'not banned' err.txt"
  admin hide "$daves" --reason 'spam'
  check "$ENGINE: hide takes a CPU's only result off the leaderboard" hides_soon "$URL/api/v1/leaderboard" model=116
  admin unhide "$daves"
  check "$ENGINE: unhide puts it back" shows_soon "$URL/api/v1/leaderboard" model=116
  admin verify "$DAVE" --name 'Dave Labs'
  check "$ENGINE: verify reaches the verified leaderboard" shows_soon "$URL/api/v1/leaderboard?verified=1" model=116
  admin unverify "$DAVE"
  check "$ENGINE: unverify leaves it" hides_soon "$URL/api/v1/leaderboard?verified=1" model=116
  run_status "$SERVER" key verify "$DAVE" --name 'Dave Labs' --database "$DB"
  check "$ENGINE: key verify still works" sh -c "[ $status = 0 ] && grep -q 'verified as Dave Labs' out.txt"
  run_status "$SERVER" key ban "$DAVE" --database "$DB"
  check "$ENGINE: key ban still works" sh -c "[ $status = 0 ] && grep -q banned out.txt"
  check "$ENGINE: ... and takes the result off the leaderboard" hides_soon "$URL/api/v1/leaderboard" model=116
}

auditing () {
  rows=$($SQL <<EOF
SELECT verb || '|' || target || '|' || actor || '|' || COALESCE(reason, '-') FROM audit ORDER BY seq;
EOF
)
  echo "$rows" > audit.txt
  who=$(logname 2> /dev/null || id -un)
  want="hide|$hidden|test-operator|a copy of another run
unhide|$hidden|test-operator|-
rejudge|$CPU custom unknown|test-operator|-
ban|$DAVE|test-operator|fake results
unban|$DAVE|test-operator|-
hide|$daves|test-operator|spam
unhide|$daves|test-operator|-
verify|$DAVE|test-operator|-
unverify|$DAVE|test-operator|-"
  check "$ENGINE: one audit row per action, in order, with actor and reason" \
    [ "$(echo "$rows" | head -n 9)" = "$want" ]
  check "$ENGINE: the key commands are audited too, as the login name ($who)" \
    [ "$(echo "$rows" | tail -n 2 | cut -d'|' -f1,3 | tr '\n' ' ')" = "verify|$who ban|$who " ]
  run_status "$SERVER" admin log -n 3 --database "$DB"
  check "$ENGINE: admin log -n 3: the newest three, newest first" \
    sh -c "[ $status = 0 ] && [ \$(wc -l < out.txt) = 3 ] && head -n 1 out.txt | grep -q '	ban	$DAVE	-	'"
  check "$ENGINE: ... with the time of the action" \
    grep -q "^$(date -u +%Y-%m-%d)T[0-9:]*Z	test-operator	unverify	" out.txt
  for statement in "UPDATE audit SET actor = 'nobody'" "DELETE FROM audit"; do
    if echo "$statement;" | $SQL > /dev/null 2>&1; then
      fail "$ENGINE: the audit table refuses: $statement"
    else
      pass "$ENGINE: the audit table refuses: $statement"
    fi
  done
  check "$ENGINE: ... and its rows stay" [ "$(audit_rows)" = 11 ]
}

# engine ENGINE DB: every part above against a server on DB ($SQL runs
# SQL from its standard input there, one value a line).
engine () {
  ENGINE=$1 DB=$2
  case $DB in
    postgresql://*) SQL="$PGBIN/psql -X -A -t -q -v ON_ERROR_STOP=1 $DB" ;;
    *) SQL="sqlite3 $DB" ;;
  esac
  start_server "$DB" --key-rate 0 --aggregate-ttl 3600 --trust-proxy \
    || { fail "$ENGINE: the server starts"; return; }
  curl -s "$URL/" > /dev/null
  upload_doc early mallory --identity "$CPU" --base --scale 1.2 > /dev/null
  early=$(field "d['id']")
  peers=
  i=0
  for scale in 1 1.01 0.99 1.02 0.98; do
    i=$((i + 1))
    upload_doc "peer$i" bob --identity "$CPU" --base --scale $scale > /dev/null
    peers="$peers $(field "d['id']")"
  done
  check "$ENGINE: the early result is an outlier among five peers" [ "$(flags_of "$early")" = outlier ]
  bad_input
  hiding
  rejudging
  keys
  auditing
  stop_server
}

on_both_engines engine "admin on PostgreSQL"
