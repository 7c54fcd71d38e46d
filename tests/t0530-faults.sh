# t0530-faults.sh: upload faults against a scripted responder
# (tests/helper-httpd.c), each with nothing lost: 503 twice then 201
# (retried), 429 with Retry-After (honoured), a dropped connection
# (retried), a 4xx (shown, not retried, not queued), a stalled server
# (timeout, queued), a spool that cannot be written (the result stays
# where it is and the message says so: its parent a file, a full tmpfs, a
# read-only bind mount, a file size limit), a proxy (http_proxy), a
# server that redirects (queued, with the URL to use; --pending goes on
# past it), and kill -9 while queueing (tests/unit-submit-crash.c does
# that thoroughly).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

trap 'stop_fake' EXIT
make_result r.json
sig=$(cat r.json.sig)
len=$(wc -c < r.json)

start_fake 503 503 201
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "503 twice then 201: uploaded after three attempts" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: ' out.txt && [ \$(wc -l < fake.log) -eq 3 ]"
check "each retry is announced with its delay" \
  sh -c "[ \$(grep -c 'retrying in' err.txt) -eq 2 ]"
check "every attempt sent the same bytes and signature" \
  sh -c "[ \$(grep -c 'POST /api/v1/results $len $sig\$' fake.log) -eq 3 ]"
stop_fake

start_fake 429:1 201
t0=$(date +%s)
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
t1=$(date +%s)
check "429 with Retry-After: 1 is retried after the delay it asks for" \
  sh -c "[ $status -eq 0 ] && grep -q 'retrying in 1.0 s' err.txt && [ $((t1 - t0)) -ge 1 ]"
stop_fake

start_fake 429:3600
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a Retry-After of an hour is not waited for: queued at once" \
  sh -c "[ $status -eq 75 ] && [ \$(wc -l < fake.log) -eq 1 ] && [ $(spool_count) -eq 1 ]"
rm -rf "$SPOOL"
stop_fake

start_fake close 201
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a connection closed without an answer is retried" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < fake.log) -eq 2 ]"
stop_fake

start_fake 422
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a 422 is not retried" [ "$(attempts)" -eq 1 ]
check "the 422's JSON error is shown in one line with its rule and field" \
  sh -c "[ $status -eq 1 ] && [ \$(wc -l < err.txt) -eq 1 ] && grep -q 'scripted failure 422 (422, rule scripted, field results\[0\].digest)' err.txt"
check "a rejected result is not queued" [ "$(spool_count)" -eq 0 ]
stop_fake

start_fake 400 201
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a 400 is not retried either" sh -c "[ $status -eq 1 ] && [ \$(wc -l < fake.log) -eq 1 ]"
stop_fake

start_fake stall
t0=$(date +%s)
run_status "$GMPBENCH" submit --server "$FAKE_URL" --timeout 1 --retries 1 r.json
t1=$(date +%s)
check "a stalled server times out on each attempt and the result is queued" \
  sh -c "[ $status -eq 75 ] && [ \$(wc -l < fake.log) -eq 2 ] && grep -q 'timed out' err.txt && [ $((t1 - t0)) -le 6 ]"
check "the queued entry holds the exact bytes" \
  sh -c "[ $(spool_count) -eq 1 ] && tail -c $len '$SPOOL'/*.spool | cmp -s - r.json"
stop_fake

start_fake 201
run_status "$GMPBENCH" submit --pending --server "$FAKE_URL"
check "--pending --server sends the queued result to the given server and empties the queue" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < fake.log) -eq 1 ] && [ $(spool_count) -eq 0 ]"
stop_fake

start_fake 503
run_status "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 --unlisted r.json
stop_fake
start_fake 422
run_status "$GMPBENCH" submit --pending --server "$FAKE_URL"
check "an entry the server rejects is set aside as .rejected, not deleted" \
  sh -c "[ $status -eq 1 ] && [ $(spool_count) -eq 0 ] && ls '$SPOOL' | grep -q '\.rejected$'"
check "the unlisted flag travelled through the queue" grep -q 'POST /api/v1/results?unlisted=1 ' fake.log
stop_fake
rm -rf "$SPOOL"

# The spool cannot be written: its parent is a file.
mkdir -p "$TEST_TMP/ro"
: > "$TEST_TMP/ro/gmpbench"
start_fake 503
cp r.json keep.json && cp r.json.sig keep.json.sig
run_status env XDG_DATA_HOME="$TEST_TMP/ro" "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 keep.json
check "an unwritable spool: exit 1, the message says the result stays in its file" \
  sh -c "[ $status -eq 1 ] && grep -q 'not queued' err.txt && grep -q 'stays in keep.json' err.txt && cmp -s keep.json r.json"

# A full disk (a tmpfs filled up: ENOSPC) and a read-only spool (a
# read-only bind mount: EROFS), each holding an entry queued earlier.  As
# root the mounts are made here; otherwise in a user and mount namespace
# (unshare -rm).  Skipped only when mounting is refused.
make_result old.json
stop_fake
start_fake 503
"$GMPBENCH" submit --server "$FAKE_URL" --retries 0 old.json > /dev/null 2>&1
OLD=$(cd "$SPOOL" && ls)
cp "$SPOOL/$OLD" old.spool
rm -rf "$SPOOL"
cat > fs-case.sh <<'EOF'
# fs-case.sh enospc|erofs|runfull: queues keep.json into a spool that
# cannot take it (runfull: runs a test with -o on a full disk) and records
# the outcome in CASE.*; unmounts whatever it mounted.
c=$1 d=$TEST_TMP/$1
trap 'umount "$d/gmpbench/spool" 2> /dev/null; umount "$d" 2> /dev/null' EXIT
mkdir -p "$d"
if [ "$c" = runfull ]; then
  mount -t tmpfs -o size=64k tmpfs "$d" 2> /dev/null || exit 0
  dd if=/dev/zero of="$d/fill" bs=1k 2> /dev/null
  : > "$c.mounted"
  "$GMPBENCH" run --only gmpbench.base.multiply.128 --time-per-test 0.01 -q -o "$d/r.json" \
    > "$c.out" 2> "$c.err"
  echo $? > "$c.status"
  exit 0
elif [ "$c" = enospc ]; then
  mount -t tmpfs -o size=64k tmpfs "$d" 2> /dev/null || exit 0
  mkdir -p "$d/gmpbench/spool" && cp old.spool "$d/gmpbench/spool/$OLD" || exit 1
  dd if=/dev/zero of="$d/fill" bs=1k 2> /dev/null
else
  mkdir -p "$d/gmpbench/spool" && cp old.spool "$d/gmpbench/spool/$OLD" || exit 1
  mount --bind "$d/gmpbench/spool" "$d/gmpbench/spool" 2> /dev/null || exit 0
  mount -o remount,bind,ro "$d/gmpbench/spool" 2> /dev/null || exit 0
fi
: > "$c.mounted"
XDG_DATA_HOME=$d "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 keep.json \
  > "$c.out" 2> "$c.err"
echo $? > "$c.status"
ls -a "$d/gmpbench/spool" | grep -v '^\.\.\?$' > "$c.ls"
cmp -s "$d/gmpbench/spool/$OLD" old.spool && : > "$c.intact"
EOF
export GMPBENCH FAKE_URL OLD
for c in enospc erofs; do
  if [ "$(id -u)" = 0 ]; then
    sh fs-case.sh $c
  else
    unshare -rm sh fs-case.sh $c 2> /dev/null
  fi
  case $c in
    enospc) what="a full disk while queueing"; errno="No space left on device" ;;
    erofs) what="a read-only spool"; errno="Read-only file system" ;;
  esac
  if [ ! -e $c.mounted ]; then
    skip "$what (mounting is not allowed here)"
    continue
  fi
  check "$what: exit 1, the message gives the reason and says the result stays in its file" \
    sh -c "[ \$(cat $c.status) -eq 1 ] && grep -q '$errno' $c.err && grep -q 'stays in keep.json' $c.err"
  check "$what: the entry queued earlier is intact, and nothing else is left in the spool" \
    sh -c "[ -e $c.intact ] && [ \"\$(cat $c.ls)\" = $OLD ]"
done
if [ "$(id -u)" = 0 ]; then
  sh fs-case.sh runfull
else
  unshare -rm sh fs-case.sh runfull 2> /dev/null
fi
if [ -e runfull.mounted ]; then
  saved=$(sed -n 's/.*the result was saved as \(gmpbench-result-[0-9a-f]*\.json\).*/\1/p' runfull.err)
  check "run -o onto a full disk: exit 1, the result saved in the current directory instead" \
    sh -c "[ \$(cat runfull.status) -eq 1 ] && grep -q 'No space left on device' runfull.err &&
      [ -n '$saved' ] && '$GMPBENCH' verify -q '$saved'"
else
  skip "run -o onto a full disk (mounting is not allowed here)"
fi
check "the mounts are gone" sh -c "! grep -q '$TEST_TMP' /proc/self/mounts"
# A file size limit: writes fail with EFBIG past it.
(
  trap '' XFSZ
  ulimit -f 4
  "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 keep.json > full.out 2> full.err
  echo $? > full.status
)
check "a file size limit while queueing: exit 1, the result stays in its file, no partial entry" \
  sh -c "[ \$(cat full.status) -eq 1 ] && grep -q 'stays in keep.json' full.err && [ $(spool_count) -eq 0 ]"
stop_fake
rm -rf "$SPOOL"

# A proxy from http_proxy: the fake plays the proxy for an address that is
# never reached, and sees the absolute URL a proxy is sent.
start_fake 201
run_status env http_proxy="$FAKE_URL" "$GMPBENCH" submit --server http://192.0.2.1:1 \
  --retries 0 r.json
check "http_proxy is used: the request went through the proxy" \
  sh -c "[ $status -eq 0 ] && grep -q '^1 POST http://192.0.2.1:1/api/v1/results ' fake.log"
stop_fake

# A server that redirects: the result is fine, the URL is not.
start_fake 301:http://127.0.0.1:9/new/api/v1/results
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a 301 is neither followed nor retried; the result is queued (exit 75)" \
  sh -c "[ $status -eq 75 ] && [ \$(wc -l < fake.log) -eq 1 ] && [ $(spool_count) -eq 1 ]"
check "the message says where the server redirects and which --server to use" \
  sh -c "grep -q 'redirects to http://127.0.0.1:9/new/api/v1/results (301)' err.txt \
         && grep -q -- \"--pending --server http://127.0.0.1:9/new' sends it there\" err.txt"
run_status "$GMPBENCH" retract --server "$FAKE_URL" "$(sha256sum r.json | cut -c1-16)"
check "a retraction answered with a 301 is not followed: exit 1, the message says where it points" \
  sh -c "[ $status -eq 1 ] && [ \$(wc -l < fake.log) -eq 2 ] \
         && grep -q 'did not retract it: the server redirects to http://127.0.0.1:9/new' err.txt"
stop_fake
start_fake 503
"$GMPBENCH" submit --server "$FAKE_URL" --retries 0 old.json > /dev/null 2>&1
stop_fake
start_fake 301:http://127.0.0.1:9/new/api/v1/results 201
run_status "$GMPBENCH" submit --pending --server "$FAKE_URL"
check "--pending goes on past an entry whose server redirects, and says it stays queued" \
  sh -c "[ $status -eq 75 ] && [ \$(wc -l < fake.log) -eq 2 ] && [ $(spool_count) -eq 1 ] \
         && grep -q 'redirects to .*; it stays queued' err.txt && grep -q '^uploaded: ' out.txt"
stop_fake
rm -rf "$SPOOL"

# kill -9 of `gmpbench submit` while it queues, at 20 to 60 ms (where the
# write falls here): the spool holds the whole entry or none, and the next
# --pending clears what the killed ones left.  unit-submit-crash is the
# thorough version.
start_fake 503
for ms in $(seq 20 2 60); do
  "$GMPBENCH" submit -q --server "$FAKE_URL" --retries 0 r.json > /dev/null 2>&1 &
  sleep 0.0$ms
  kill -9 $! 2> /dev/null
  wait $! 2> /dev/null
done
check "after kill -9 while queueing, at most the one whole entry is queued" \
  sh -c "[ $(spool_count) -le 1 ] && for e in '$SPOOL'/*.spool; do
           [ -e \"\$e\" ] || continue; tail -c $len \"\$e\" | cmp -s - r.json || exit 1; done"
stop_fake
"$GMPBENCH" submit --server "$FAKE_URL" --retries 0 r.json > /dev/null 2>&1
start_fake 201
run_status "$GMPBENCH" submit --pending --server "$FAKE_URL"
check "the next --pending uploads it and leaves no temporary file behind" \
  sh -c "[ $status -eq 0 ] && [ -z \"\$(ls -A '$SPOOL')\" ]"
stop_fake
