#!/bin/sh
# same-answers.sh: the proof that two builds of gmpbench-server answer
# the same, byte for byte (for a restructuring meant to change no
# behaviour; `make check-same BASE=REV` builds REV's server and runs this).
#
#   tests/same-answers.sh OLD_SERVER NEW_SERVER
#
# OLD builds a fixture database on 127.0.0.1 from signed uploads: four
# CPUs (an AMD EPYC with a multi-threaded run, an outlier, a retraction,
# quick runs and native and distribution GMP builds; an Intel Xeon with a
# brand naming AMD and a hostile upload of HTML; an Arm Neoverse-N1 with
# its machine; an AMD Ryzen of full runs with an unlisted upload), one
# key a verified publisher.  Then OLD and NEW each serve a copy of it, and
# every page reachable from / and /about (same-origin hrefs, GET only, at
# most $CAP URLs, 3,000 by default), the API of docs/protocol.md ("Reading") and
# docs/leaderboard.md (filters, sorts, cursors followed to the end, each
# result's JSON, raw bytes and signature, CSV, the dump, /healthz) and
# error answers (404, 400, 410) are fetched from both, OLD then NEW right
# after.  Status, headers (but Date) and body must be the same bytes.
# Prints one PASS/FAIL line per group of URLs, then "N passed, N failed";
# exits 1 on any difference, leaving both answers of each in the kept
# directory it names.  SRCDIR defaults to the tree this script is in.
: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${BUILDDIR:=$PWD}"
export SRCDIR BUILDDIR
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"

[ $# = 2 ] && [ -x "$1" ] && [ -x "$2" ] || {
  echo "usage: tests/same-answers.sh OLD_SERVER NEW_SERVER (two gmpbench-server binaries)" >&2
  exit 2
}
OLD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NEW=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/same-answers.XXXXXX") || exit 2
cd "$WORK" || exit 2
OLD_PID= NEW_PID=
trap 'kill $OLD_PID $NEW_PID 2> /dev/null' EXIT
begun=$(date +%s)

# ------------------------------------------------------------ the fixture

for k in alice bob carol mallory; do
  make_key $k > /dev/null && fingerprint $k >> keys.txt
done

# upload NAME KEY [server-doc.py options]: a signed document, uploaded
# with $QUERY; its id in ids.txt and NAME.id, its flags in NAME.flags.
QUERY=
upload () {
  name=$1 key=$2
  shift 2
  make_doc "$name.json" "$key" --name "$key" "$@" || exit 1
  st=$(post "$name.json" "$(sign "$name.json" "$key")" "$QUERY")
  if [ "$st" != 201 ]; then
    echo "FAIL: the fixture's upload $name ($st: $(head -c 300 resp.json))"
    exit 1
  fi
  field "d['id']" | tee "$name.id" >> ids.txt
  field "','.join(d['flags'])" > "$name.flags"
}

FULL="$SRCDIR/tests/fixtures/server-full.json"
EPYC='x86:AuthenticAMD:family=25:model=1:stepping=1' # the fixture's own CPU
XEON='x86:GenuineIntel:family=6:model=85:stepping=7'
ARM='arm:0x41:0xd0c:r3p1'
RYZEN='x86:AuthenticAMD:family=25:model=33:stepping=0'
HOSTILE='<script>alert(1)</script><img src=x onerror=alert(2)>'

SERVER=$OLD
: > server.log
# Every upload from a network of its own, as peers are (a build that
# counts sources judges them as one source each, an older one ignores it).
EACH_SOURCE=1
start_server "$WORK/fixture.db" --key-rate 0 --trust-proxy \
  || { echo "FAIL: OLD starts ($(tail -n 3 server.log))"; exit 1; }
OLD_PID=$SRV_PID

# EPYC, custom runs: five peers within 2%, a run on both CPUs, an outlier,
# one to retract; quick runs; native and distribution GMP builds.
for scale in 1 1.01 0.99 1.02 0.98; do
  upload "peer$scale" bob --from "$FULL" --scale $scale
done
upload threads alice --from "$FULL" --scale 1.005 --threads 2
upload outlier mallory --from "$FULL" --scale 1.3
upload gone bob --from "$FULL" --scale 1.015
upload quick1 alice --from "$FULL" --scale 0.9 --set 'run.mode="quick"'
upload quick2 carol --from "$FULL" --scale 0.92 --set 'run.mode="quick"'
upload native1 alice --from "$FULL" --scale 1.2 --set 'system.build.gmp.build="native"'
upload native2 carol --from "$FULL" --scale 1.21 --set 'system.build.gmp.build="native"'
upload distro alice --from "$FULL" --set 'system.build.gmp.build="distribution"'

# Xeon: three honest runs, one named as an AMD part, one full of HTML.
for scale in 0.5 0.51 0.49; do
  upload "xeon$scale" carol --from "$FULL" --scale $scale --set "system.cpu.identity=\"$XEON\"" \
    --set 'system.cpu.vendor="Intel"' --set 'system.cpu.name="Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz"'
done
upload mismatch bob --from "$FULL" --scale 0.52 --set "system.cpu.identity=\"$XEON\"" \
  --set 'system.cpu.vendor="Intel"' --set 'system.cpu.name="AMD Ryzen Pretender"'
upload hostile mallory --from "$FULL" --scale 0.48 --set "system.cpu.identity=\"$XEON\"" \
  --set 'system.cpu.vendor="Intel"' --set "system.cpu.name=\"Intel $HOSTILE Xeon\"" \
  --set "system.os.name=\"<i>Linux</i>$HOSTILE\"" --set "system.build.compiler.name=\"$HOSTILE gcc\"" \
  --name "$HOSTILE"

# Arm: a machine named, OpenSSL's RSA ten times faster; a run on 4 CPUs.
for x in arm1:1 arm2:1.02; do
  extra=
  [ "${x%%:*}" = arm2 ] && extra='--threads 4'
  upload "${x%%:*}" bob --from "$FULL" --scale "${x#*:}" $extra --scale-test openssl.rsa.sign.2048=10 \
    --set system.cpu.arch='"aarch64"' --set "system.cpu.identity=\"$ARM\"" --set system.cpu.vendor='"ARM"' \
    --set system.cpu.name='"Neoverse-N1"' --set system.os.name='"Ubuntu"' \
    --set system.machine='{"model": "Amazon EC2 m6g.xlarge", "soc": null}'
done

# Ryzen, full runs of gmpbench.base only, and one unlisted.
for scale in 1 1.01 0.99; do
  upload "ryzen$scale" alice --base --identity "$RYZEN" --scale $scale --set 'run.mode="full"' \
    --set 'system.cpu.name="AMD Ryzen 9 5950X 16-Core Processor"'
done
QUERY='?unlisted=1'
upload unlisted carol --base --identity "$RYZEN" --scale 1.005 --set 'run.mode="full"'
QUERY=

# bob becomes a verified publisher (a name with HTML), one upload retracted.
"$OLD" key verify "$(fingerprint bob)" --name 'ACME <Labs>' --database fixture.db \
  > /dev/null 2>> server.log || { echo "FAIL: key verify"; exit 1; }
GONE=$(cat gone.id)
printf 'gmpbench-retract:%s' "$GONE" > retract.msg
st=$(curl -sS -o resp.json -w '%{http_code}' -X POST \
  -H "Gmpbench-Signature: $(sign retract.msg bob)" "$URL/api/v1/results/$GONE/retract")
[ "$st" = 200 ] || { echo "FAIL: the retraction ($st)"; exit 1; }
# The fixture must have what it claims, else the comparison proves less.
flags="$(cat outlier.flags) $(cat mismatch.flags)"
[ "$flags" = "outlier brand-mismatch" ] || { echo "FAIL: the fixture's flags ($flags)"; exit 1; }
stop_server "$OLD_PID"
OLD_PID=
echo "fixture: $(wc -l < ids.txt) uploads by OLD, $(($(date +%s) - begun)) s"

# ------------------------------------------------------------ both servers

# Two copies, OLD on one and NEW on the other, with the same options:
# no rate limits, and an --aggregate-ttl of a day, so neither reads its
# snapshot or /api/v1/cpus again while the other is asked.
for side in old new; do
  mkdir $side && : > $side/server.log
  for f in fixture.db*; do cp "$f" "$side/results.db${f#fixture.db}"; done
done
OPTIONS='--key-rate 0 --address-rate 0 --aggregate-ttl 86400'
cd old && SERVER=$OLD && start_server "$WORK/old/results.db" $OPTIONS \
  || { echo "FAIL: OLD starts on the copy"; exit 1; }
OLD_PID=$SRV_PID OLD_URL=$URL
cd ../new && SERVER=$NEW && start_server "$WORK/new/results.db" $OPTIONS \
  || { echo "FAIL: NEW starts on the copy"; exit 1; }
NEW_PID=$SRV_PID NEW_URL=$URL
cd ..
# Snapshots ready: the first page waits for the first leaderboard
# snapshot, the first /api/v1/cpus for the rows computed at start (and
# with flagged=1, computed by its first request); ask each once.
for u in "$OLD_URL" "$NEW_URL"; do
  for p in / '/api/v1/cpus' '/api/v1/cpus?flagged=1'; do
    curl -sf -o /dev/null "$u$p" || { echo "FAIL: $u$p does not answer"; exit 1; }
  done
done

# ------------------------------------------------------------ fetch and compare

$PY - "$OLD_URL" "$NEW_URL" "$WORK" "$EPYC" "$XEON" "$ARM" "$RYZEN" "$GONE" <<'EOF'
import html, json, os, re, sys, urllib.error, urllib.parse, urllib.request
old, new, work, epyc, xeon, arm, ryzen, gone = sys.argv[1:9]
ids = open(os.path.join(work, "ids.txt")).read().split()
keys = open(os.path.join(work, "keys.txt")).read().split()
q = lambda s: urllib.parse.quote(s, safe="")
CAP = int(os.environ.get("CAP", 3000))

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None
opener = urllib.request.build_opener(NoRedirect)

def fetch(base, path):
    """Status, headers (in order; not Date, nor Content-Length: the body
    is compared) and body of GET base+path."""
    try:
        r = opener.open(base + path, timeout=120)
    except urllib.error.HTTPError as e:
        r = e
    heads = [(k.lower(), v) for k, v in r.headers.items()
             if k.lower() not in ("date", "content-length")]
    return r.getcode(), heads, r.read()

GROUPS = [(r"/api/v1/results/[^/?]+/", "api: a result's raw bytes and signature"),
          (r"/api/v1/results/", "api: a result's JSON"), (r"/\?(.*&)?format=", "page: leaderboard data"),
          (r"/(\?|$)", "page: leaderboard"), (r"/cpu\?(.*&)?node=", "page: CPU node"),
          (r"/cpu\?", "page: CPU"), (r"/results/", "page: result"), (r"/submitters/", "page: submitter")]
def group(path):
    for pattern, name in GROUPS:
        if re.match(pattern, path):
            return name
    p = path.split("?")[0]
    return ("api: " if p.startswith("/api/") or p == "/healthz" else "page: ") + p

# Seeds besides the crawl: the API's documented reads, views reached
# only through forms (filters, search, compare checkboxes), error answers.
listing = ["", "arch=x86_64", "arch=aarch64", "cpu=" + q(epyc), "cpu=" + q(xeon), "vendor=Intel",
           "os=Ubuntu", "gmp=6.2.1", "compiler=gcc", "mode=quick", "mode=full", "mode=custom",
           "build=native", "build=distribution", "build=unknown", "verified=1", "flagged=0",
           "sort=gmpbench", "sort=gmpbench.base.multiply", "sort=openssl.rsa.sign.2048",
           "sort=allcore.gmpbench", "limit=1", "limit=3&sort=gmpbench", "limit=2&flagged=0&arch=x86_64",
           "limit=500", "cpu=" + q(epyc) + "&build=native&verified=0"]
seeds = ["/", "/about", "/healthz", "/api/v1/dump", "/style.css"]
seeds += ["/api/v1/results?" + s for s in listing]
seeds += ["/api/v1/export.csv?" + s for s in listing if not s.startswith(("sort", "limit"))]
seeds += ["/api/v1/cpus?" + s for s in ["", "flagged=1", "arch=aarch64", "cpu=" + q(epyc),
                                        "mode=quick", "build=native", "limit=1", "limit=2&flagged=1",
                                        "mode=full&limit=1"]]
RESULT = ("/results/%s", "/api/v1/results/%s", "/api/v1/results/%s/raw", "/api/v1/results/%s/signature")
seeds += [p % i for i in ids for p in RESULT]
seeds += ["/submitters/" + k for k in keys]
seeds += ["/?" + s for s in ["vendor=Intel", "os=Ubuntu", "gmp=6.2.1", "compiler=gcc", "verified=1",
                             "flagged=1", "q=ryzen", "q=NEOVERSE", "q=zen+3", "q=nothing", "mode=full",
                             "mode=quick&flagged=1", "build=native", "sort=gmpbench.app.pi&cols=stats",
                             "sort=openssl.rsa.sign.2048.x", "flagged=1&format=json", "format=csv&q=xeon"]]
seeds += ["/cpu?cpu=%s&flagged=1" % q(c) for c in (epyc, xeon, arm, ryzen)]
seeds += ["/cpu?cpu=%s&node=gmpbench.base" % q(epyc), "/cpu?cpu=%s&node=openssl&flagged=1" % q(xeon),
          "/cpu?cpu=%s&build=native&verified=1" % q(epyc), "/cpu?cpu=%s&mode=full" % q(ryzen)]
seeds += ["/compare?id=%s&id=%s" % (ids[0], ids[1]),
          "/compare?id=%s&id=%s&id=%s" % (ids[5], ids[15], ids[-2]),
          "/compare?cpu=%s&cpu=%s" % (q(epyc), q(xeon)),
          "/compare?cpu=%s&cpu=%s&cpu=%s&flagged=1" % (q(epyc), q(arm), q(ryzen))]
errors = [("/nowhere", 404), ("/api/v1/nowhere", 404), ("/results/" + "0" * 16, 404),
          ("/api/v1/results/" + "0" * 16, 404), ("/results/not-an-id", 404),
          ("/api/v1/results/%s/nothing" % ids[0], 404), ("/submitters/xyz", 404),
          ("/cpu?cpu=no:such", 404), ("/compare?cpu=no:such&cpu=" + q(epyc), 404),
          ("/api/v1/results?limit=0", 400), ("/api/v1/results?limit=x", 400),
          ("/api/v1/results?cursor=garbage", 400), ("/api/v1/cpus?limit=501", 400),
          ("/api/v1/cpus?flagged=2", 400), ("/api/v1/cpus?cursor=%%%", 400),
          ("/api/v1/export.csv?verified=x", 400),
          ("/cpu?cpu=%s&node=gmpbench.base.multiply.128" % q(epyc), 400)]
errors += [(p % gone, 410) for p in RESULT]     # the retracted result

# A queue per group, taken in turn, so that the leaderboard's views
# (tabs x sorts x column sets x filters: more than 50,000) do not use up
# the cap before every result, CPU and node page is fetched.
queues = {}                     # group -> paths to fetch
def add(path, g=None):
    if path not in seen:
        seen.add(path)
        queues.setdefault(g or group(path), []).append(path)
seen = set()
for p, _ in errors:
    add(p, "errors")
for s in seeds:
    add(s)
want = dict(errors)
results = {}                    # group -> [fetched, [differing paths]]
os.makedirs(os.path.join(work, "diff"), exist_ok=True)
index = open(os.path.join(work, "diff", "index.txt"), "w")
ndiff = 0

def more(path, body):
    """The same-origin hrefs of an HTML page, the next page of a listing."""
    if body.startswith(b"{") and b'"next_cursor"' in body:
        cursor = json.loads(body).get("next_cursor")
        if cursor:
            base = re.sub(r"[?&]cursor=[^&]*", "", path)
            yield base + ("&" if "?" in base else "?") + "cursor=" + q(cursor)
        return
    if not body.startswith(b"<!DOCTYPE html>"):
        return
    for href in re.findall(rb'href="([^"]*)"', body):
        url = urllib.parse.urljoin(path, html.unescape(href.decode("utf-8", "replace")))
        url = url.split("#")[0]
        if url.startswith("/") and not url.startswith("//"):
            yield url

# Each URL is asked of OLD, then at once of NEW.  No answer depends on
# the clock (the times shown are stored ones: received, flags decided;
# the Date header is left out), so no field is normalised.  Should a page
# come to show the clock ("3 minutes ago"), normalise that one field here.
def compare(path, g):
    global ndiff
    a, b = fetch(old, path), fetch(new, path)
    r = results.setdefault(g, [0, []])
    r[0] += 1
    bad = [w for w, x, y in zip(("status", "headers", "body"), a, b) if x != y]
    if path in want and a[0] != want[path]:
        bad.append("OLD's status %d, not %d" % (a[0], want[path]))
    if bad:
        ndiff += 1
        r[1].append(path)
        index.write("%d %s: %s\n" % (ndiff, path, ", ".join(bad)))
        for side, ans in (("old", a), ("new", b)):
            with open(os.path.join(work, "diff", "%d.%s" % (ndiff, side)), "wb") as f:
                f.write(("%d\n" % ans[0]).encode() + b"".join(("%s: %s\n" % h).encode() for h in ans[1])
                        + b"\n" + ans[2])
    for body in {a[2], b[2]}:
        for url in more(path, body):
            add(url)

fetched = 0
while fetched < CAP and any(queues.values()):
    for g in [g for g in queues if queues[g]]:
        if fetched < CAP:
            compare(queues[g].pop(0), g)
            fetched += 1

index.close()
passed = failed = 0
for g in sorted(results):
    n, diffs = results[g]
    if diffs:
        failed += 1
        print("FAIL: %s: %d of %d URLs differ, e.g. %s" % (g, len(diffs), n, " ".join(diffs[:3])))
    else:
        passed += 1
        left = ", %d more left at the cap" % len(queues[g]) if queues[g] else ""
        print("PASS: %s (%d URLs%s)" % (g, n, left))
print("%d URLs fetched from each server%s" % (fetched, " (the cap)" if fetched >= CAP else ""))
if ndiff:
    print("the answers that differ, OLD's and NEW's: %s (index.txt)" % os.path.join(work, "diff"))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
status=$?
stop_server "$OLD_PID"
stop_server "$NEW_PID"
OLD_PID= NEW_PID=
echo "$(($(date +%s) - begun)) s in all"
if [ $status = 0 ] && [ -z "$KEEP" ]; then
  cd / && rm -rf "$WORK"
else
  echo "kept: $WORK (server logs in old/ and new/)"
fi
exit $status
