# t0375-server-sources.sh: what one person with free keys and one network
# cannot do to the leaderboard (store.h, "Sources"): a source is a
# network (IPv4 /24, IPv6 /48) or a verified publisher, and every
# aggregate counts sources, not keys or results.  Twelve keys from one
# network do not move a CPU's median, while the same twelve documents
# from twelve networks count as twelve sources; a CPU row is confirmed by
# three sources or a verified publisher, and no fake from one source,
# however fast, ranks above a confirmed row or raises the bar across
# CPUs; one network's keys cannot rename a CPU; uploads are limited per
# source too; and the source is never shown or dumped.
#
# The server runs under --trust-proxy and the uploads say where they come
# from in X-Forwarded-For, with addresses of the documentation ranges
# (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32); every
# connection is to 127.0.0.1.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0 --trust-proxy

# upload NAME FROM [server-doc.py options]: a document signed by a key of
# its own (NAME), sent as forwarded for FROM; prints the status.
upload () {
  name=$1 FROM=$2
  shift 2
  make_key "$name" > /dev/null
  make_doc "$name.json" "$name" --name "$name" "$@" && post "$name.json" "$(sign "$name.json" "$name")"
}

# cpu_row CPU EXPR: EXPR over CPU's row (r) of /api/v1/cpus.
cpu_row () {
  get /api/v1/cpus > /dev/null
  field "[$2 for r in d['cpus'] if r['cpu'] == '$1'][0]"
}

# honest_five KEYS NETWORK CPU [server-doc.py options]: five honest
# results of CPU, their scores within 2% of each other, from five networks
# (NETWORK1::7 to NETWORK5::7), by the keys KEYS1 to KEYS5.
honest_five () {
  keys=$1 network=$2 cpu=$3
  shift 3
  n=0
  for scale in 1 1.01 0.99 1.02 0.98; do
    n=$((n + 1))
    upload "$keys$n" "$network$n::7" --identity "$cpu" --base --scale $scale "$@" > /dev/null
  done
}

# ------------------------------------------------------------ Sybils

# node_table CPU OUT: the node table of CPU's page, flagged results
# included, as "node sources results median" lines in OUT.
node_table () {
  get "/cpu?cpu=$1&flagged=1" > /dev/null
  $PY -c "import re, sys
html = open('resp.json').read()
rows = re.findall(r'<td class=\"test depth\d\"><a [^>]*>([^<]+)</a></td><td class=\"num\" '
                  r'data-label=\"Sources\">(\d+)</td><td class=\"num\" data-label=\"Results\">'
                  r'(\d+)</td><td class=\"num\" data-label=\"Median\">([^<]+)</td>', html)
for r in rows:
    print(*r)" > "$2"
}

# table_counts FILE SOURCES RESULTS: every row of the node table FILE
# counts SOURCES sources of RESULTS results.
table_counts () {
  $PY -c "import sys
rows = [l.split() for l in open('$1')]
sys.exit(not rows or any(r[1:3] != ['$2', '$3'] for r in rows))"
}

# medians_kept BEFORE AFTER: the node tables BEFORE and AFTER have the
# same nodes, whose medians differ by less than 1% (prints the largest
# difference).
medians_kept () {
  $PY -c "import sys
before = {l.split()[0]: float(l.split()[3]) for l in open('$1')}
after = {l.split()[0]: float(l.split()[3]) for l in open('$2')}
moved = {k: after[k] / before[k] - 1 for k in before}
print(max(moved.values(), key=abs))
sys.exit(not before or before.keys() != after.keys() or any(abs(m) >= 0.01 for m in moved.values()))"
}

SYBIL='x86:AuthenticAMD:family=25:model=17:stepping=1'
honest_five honest 2001:db8:100 "$SYBIL"
node_table "$SYBIL" nodes-before.txt
before=$(cpu_row "$SYBIL" "r['scores']['gmpbench.base']['median']")
check "five honest results from five networks: five sources, confirmed" \
  [ "$(cpu_row "$SYBIL" "(r['sources'], r['confirmed'])")" = "(5, True)" ]
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
  upload "sybil$k" "198.51.100.$k" --identity "$SYBIL" --base --scale 1.3 > /dev/null
done
after=$(cpu_row "$SYBIL" "r['scores']['gmpbench.base']['median']")
get "/api/v1/cpus?flagged=1" > /dev/null
check "twelve keys at +30% from one network (a /24) are one source more" \
  [ "$(field "[(r['n'], r['sources']) for r in d['cpus'] if r['cpu'] == '$SYBIL'][0]")" = "(17, 6)" ]
check "... and move the CPU's median by less than 1% ($before -> $after)" \
  $PY -c "import sys; sys.exit(abs($after / $before - 1) >= 0.01)"
get "/api/v1/leaderboard?sort=gmpbench.base" > /dev/null
board=$(field "[r['node'] for r in d['rows'] if r['cpu'] == '$SYBIL'][0]")
check "... on the leaderboard too ($board)" \
  $PY -c "import sys; sys.exit(abs($board / $before - 1) >= 0.01)"
node_table "$SYBIL" nodes-after.txt
check "the CPU page's node table, flagged results included, counts 6 sources of 17 results" \
  table_counts nodes-after.txt 6 17
check "... and its medians, each source counted once, move by less than 1%" \
  medians_kept nodes-before.txt nodes-after.txt
get "/cpu?cpu=$SYBIL&flagged=1&node=gmpbench.base" > /dev/null
check "... and the node's own page counts the sources too" \
  grep -q '17 of the newest 200 matching results have it, from 6 independent sources' resp.json
check "... and its strip plot's box is by the sources' medians: 17 results from 6 sources" \
  sh -c "grep -q '>17 results from 6 sources: each point one result' resp.json \
    && grep -q 'id=\"box-by-source\"' resp.json"
get "/api/v1/results?cpu=$SYBIL&limit=100" > /dev/null
flagged=$(field "sum(1 for r in d['results'] if 'outlier' in r['flags'])")
check "... and each of the twelve is flagged outlier against the six sources' medians" [ "$flagged" = 12 ]
# A server started afresh has parsed nothing: the node medians read the
# newest results from the
# store at once, their sources from the snapshot.
stop_server
start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0 --trust-proxy
node_table "$SYBIL" nodes-restart.txt
check "after the restart, the node table read from the store still counts 6 sources of 17 results" \
  table_counts nodes-restart.txt 6 17
check "... and its medians still move by less than 1%" \
  medians_kept nodes-before.txt nodes-restart.txt

SPREAD='x86:AuthenticAMD:family=25:model=17:stepping=2'
honest_five spread 2001:db8:200 "$SPREAD"
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
  upload "many$k" "2001:db8:30$k::7" --identity "$SPREAD" --base --scale 1.3 > /dev/null
done
check "the same twelve documents from twelve networks count as twelve sources" \
  [ "$(cpu_row "$SPREAD" "(r['n'], r['sources'])")" = "(17, 17)" ]

# ------------------------------------------------------------ the ratchet

st=$(upload ratchet2 "203.0.113.2" --identity 'x86:AuthenticAMD:family=25:model=201:stepping=0' \
  --base --scale 1.95)
check "a fake 1.95 times as fast on a new identity, one source, is stored ($st)" [ "$st" = 201 ]
m=0
for scale in 3.8 7.4 10; do
  m=$((m + 1))
  st=$(upload "ratchet$scale" "2001:db8:900$m::1" \
    --identity "x86:AuthenticAMD:family=25:model=20$((m + 1)):stepping=0" --base --scale $scale)
  check "a fake $scale times as fast on another new identity is flagged impossible: the bar is the confirmed rows'" \
    sh -c "[ '$st' = 201 ] && [ '$(field "','.join(d['flags'])")' = impossible ]"
done
get /api/v1/leaderboard > /dev/null
check "the leaderboard ranks every confirmed row above every unconfirmed one" \
  $PY -c "import json, sys
rows = json.load(open('resp.json'))['rows']
flags = [r['confirmed'] for r in rows]
sys.exit(not (flags == sorted(flags, reverse=True) and flags[0] and not flags[-1]))"
check "... and the unflagged 1.95x fake is there, marked unconfirmed with its one source" \
  [ "$(field "[(r['confirmed'], r['sources']) for r in d['rows'] if r['cpu'].endswith('model=201:stepping=0')][0]")" \
    = "(False, 1)" ]
get / > /dev/null
check "... as the page shows it" grep -q 'unconfirmed, 1 source<' resp.json

# ------------------------------------------------------------ names

NAMED='x86:AuthenticAMD:family=25:model=1:stepping=0'
honest_five named 2001:db8:400 "$NAMED" --set 'system.cpu.name="AMD EPYC 7763 64-Core Processor"'
for k in 1 2 3 4 5 6; do
  upload "renamer$k" "192.0.2.$k" --identity "$NAMED" --base \
    --set 'system.cpu.name="AMD EPYC 7763 tuned by renamer"' > /dev/null
done
check "six keys from one network do not rename a CPU that five sources name" \
  [ "$(cpu_row "$NAMED" "r['cpu_name']")" = "AMD EPYC 7763 64-Core Processor" ]
get "/cpu?cpu=$NAMED" > /dev/null
check "... on its page either, which says how many sources stand behind its median" \
  sh -c "grep -q '<title>AMD EPYC 7763 64-Core Processor' resp.json \
    && grep -q 'From 6 independent sources' resp.json"

# ------------------------------------------------------------ a verified publisher

PUBLISHED='x86:GenuineIntel:family=6:model=183:stepping=1'
make_key vendor > /dev/null
"$SERVER" key verify "$(fingerprint vendor)" --name 'Intel' --database results.db 2>> server.log
FROM=203.0.113.50
make_doc vendor.json vendor --name vendor --identity "$PUBLISHED" --base \
  --set 'system.cpu.name="Intel Core i9-13900K"' --set 'system.cpu.vendor="GenuineIntel"'
st=$(post vendor.json "$(sign vendor.json vendor)")
check "a verified publisher's one result confirms its CPU row ($st)" \
  [ "$(cpu_row "$PUBLISHED" "(r['sources'], r['confirmed'])")" = "(1, True)" ]

# ------------------------------------------------------------ never shown

get /api/v1/dump > /dev/null
cp resp.json dump.ndjson
hashes=$(sqlite3 results.db "SELECT source FROM results" 2> /dev/null)
leaked=0
for h in $hashes; do
  grep -q "$h" dump.ndjson && leaked=1
done
get "/api/v1/results?cpu=$SYBIL" > /dev/null
for h in $hashes; do
  grep -q "$h" resp.json && leaked=1
done
if command -v sqlite3 > /dev/null; then
  check "sources are stored ($(echo "$hashes" | sort -u | wc -l) distinct) but neither dumped nor listed" \
    sh -c "[ -n '$(echo $hashes | cut -c1-32)' ] && [ $leaked = 0 ]"
else
  skip "sources never dumped (sqlite3 is not installed)"
fi

# ------------------------------------------------------------ rates

stop_server
start_server "$PWD/rates.db" --key-rate 0 --source-rate 0.001 --source-burst 2 --trust-proxy \
  || { fail "a server with --source-rate starts"; exit 1; }
RATED='x86:AuthenticAMD:family=25:model=97:stepping=2'
codes=
for k in 1 2 3; do
  codes="$codes $(upload "rated$k" "198.51.100.$((k + 20))" --identity "$RATED" --base)"
done
check "three keys from one network: the third upload is refused by the limit per source" \
  sh -c "[ '$codes' = ' 201 201 429' ] && grep -q 'from this network' resp.json"
st=$(upload rated4 "198.51.101.1" --identity "$RATED" --base)
check "... while another network's upload is taken" [ "$st" = 201 ]
