# t0370-server-plausible.sh: what a forger with a key of their own (a
# document changed and signed again) cannot do to the leaderboard, and
# what honest results never suffer: a CPU's name is not the last upload's,
# nor ever a brand that advertises (a domain, an e-mail address), even
# alone on its CPU or from several keys; results run in virtual machines
# are accepted unflagged, pooled with their CPU and marked virtual, and
# the leaderboard, CPU pages and listings filter bare metal from virtual;
# tests at odds with physics or with themselves are refused naming the
# test, an early outlier is flagged once peers arrive, five honest peers
# within 2% are never flagged, a run whose key generation (random by
# nature) was lucky is not while a 25% fake still is, run modes and GMP
# build kinds are judged and ranked apart, the result page and JSON say why a result is flagged and when
# that was decided, and a retraction judges its category again.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

make_key alice > /dev/null
make_key bob > /dev/null
# carol is never verified: her uploads from their own networks are as many
# sources, while bob, verified below, is one source whatever he sends.
make_key carol > /dev/null
make_key mallory > /dev/null
start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0 --trust-proxy
# Every upload (upload_doc) from a network of its own (the sources of
# uploads: t0375).
EACH_SOURCE=1

# page PATH: the page in page.html; prints the status.
page () {
  curl -sS -o page.html -w '%{http_code}' "$URL$1"
}

# ------------------------------------------------------------ names

RYZEN='x86:AuthenticAMD:family=25:model=33:stepping=0'
for n in 1 2; do
  upload_doc "ryzen$n" alice --identity "$RYZEN" --base --set 'system.cpu.name="AMD Ryzen 9 5950X"' > /dev/null
done
st=$(upload_doc spam mallory --identity "$RYZEN" --base \
  --set 'system.cpu.name="AMD EPYC 9999 - visit spam.example"')
SPAM=$(field "d['id']")
expect_status "a renaming upload (another brand string, signed again) is accepted" 201 "$st"
page "/cpu?cpu=$RYZEN" > /dev/null
check "... but the CPU page keeps the name most of its results give" \
  sh -c "grep -q '<title>AMD Ryzen 9 5950X' page.html && ! grep -q spam.example page.html"
page / > /dev/null
check "... and so does the leaderboard" \
  sh -c "grep -q 'AMD Ryzen 9 5950X' page.html && ! grep -q spam.example page.html"
page "/results/$SPAM" > /dev/null
check "... while the upload's own page shows the brand it gave" grep -q 'spam.example' page.html

for n in 1 2 3; do
  upload_doc "maker$n" mallory --identity "$RYZEN" --base --set 'system.cpu.name="Intel Xeon Platinum"' \
    > /dev/null
done
check "a brand naming another maker than the identity is flagged brand-mismatch" \
  sh -c "[ '$(field "','.join(d['flags'])")' = brand-mismatch ]"
page "/cpu?cpu=$RYZEN&flagged=1" > /dev/null
check "... and never names the CPU, even when it is the most common" \
  sh -c "grep -q '<title>AMD Ryzen 9 5950X' page.html && ! grep -q '<title>Intel' page.html"
get /api/v1/cpus > /dev/null
check "... in the API's CPU list too" \
  [ "$(field "[c['cpu_name'] for c in d['cpus'] if c['cpu'] == '$RYZEN'][0]")" = "AMD Ryzen 9 5950X" ]

# A brand that advertises names no CPU, even as the only brand its CPU
# has, given by every key: the CPU is shown by its identity.
ADVERT='x86:AuthenticAMD:family=25:model=116:stepping=1'
for key in mallory alice bob; do
  st=$(upload_doc "advert-$key" $key --identity "$ADVERT" --base \
    --set 'system.cpu.name="AMD EPYC 9999 - visit spam.example"')
done
ADVERT_ID=$(field "d['id']")
check "a brand holding a domain name is accepted unflagged (the result is not the spam)" \
  sh -c "[ $st = 201 ] && [ -z '$(flags_of "$ADVERT_ID")' ]"
page "/cpu?cpu=$ADVERT" > /dev/null
check "... but never names its CPU, alone on it from three keys: the CPU page says the identity" \
  sh -c "grep -q '<title>[^<]*family=25:model=116' page.html && ! grep -q spam.example page.html"
page / > /dev/null
check "... and the leaderboard lists the CPU by its identity, never by the spam" \
  sh -c "grep -q 'family=25:model=116' page.html && ! grep -q spam.example page.html"
get /api/v1/cpus > /dev/null
check "... and so does the API's CPU list" \
  [ "$(field "[c['cpu_name'] for c in d['cpus'] if c['cpu'] == '$ADVERT'][0]")" = "" ]
page "/results/$ADVERT_ID" > /dev/null
check "... while the upload's own page shows the brand it gave" \
  grep -q 'AMD EPYC 9999 - visit spam.example' page.html
NEOVERSE='arm:0x41:0xd0c:r3p1'
upload_doc mail1 mallory --identity "$NEOVERSE" --base --set 'system.cpu.arch="aarch64"' \
  --set 'system.cpu.vendor="ARM"' --set 'system.cpu.name="Neoverse-N1 <mail@spam.example>"' \
  > /dev/null
page "/cpu?cpu=$NEOVERSE" > /dev/null
check "an e-mail address in an Arm CPU's brand (no maker to name) names no CPU either" \
  sh -c "grep -q '<title>[^<]*0xd0c' page.html && ! grep -q spam.example page.html"
upload_doc mail2 alice --identity "$NEOVERSE" --base --set 'system.cpu.arch="aarch64"' \
  --set 'system.cpu.vendor="ARM"' --set 'system.cpu.name="Neoverse-N1"' > /dev/null
page "/cpu?cpu=$NEOVERSE" > /dev/null
check "... which the next honest brand names, outvoted by nothing" \
  grep -q '<title>Neoverse-N1' page.html

# Brands hypervisors give their guests, on the identities and vendors
# those guests report: bhyve on a Zen 5 host, QEMU's and KVM's default
# models (qemu64 says AuthenticAMD, kvm64 GenuineIntel), QEMU's named
# models.  None names another maker than its identity, so none is
# flagged; one naming no maker does not name its CPU.
n=0
while IFS='|' read -r identity vendor brand; do
  n=$((n + 1))
  st=$(upload_doc "guest$n" alice --identity "$identity" --base --set "system.cpu.vendor=\"$vendor\"" \
    --set "system.cpu.name=\"$brand\"" --set "system.cpu.brand=\"$brand\"" \
    --set 'system.cpu.hypervisor="KVM"')
  id=$(field "d['id']")
  check "the hypervisor's brand '$brand' ($vendor) is accepted unflagged, marked virtual" \
    sh -c "[ $st = 201 ] && [ -z '$(flags_of "$id")' ] && [ '$(field "d['virtual']")' = True ]"
  GUEST=$id
done <<'GUESTS'
x86:AuthenticAMD:family=26:model=2:stepping=1|AMD|Oxide Virtual Turin-like Processor
x86:AuthenticAMD:family=15:model=107:stepping=1|AMD|QEMU Virtual CPU version 2.5+
x86:AuthenticAMD:family=15:model=107:stepping=1|AMD|QEMU TCG CPU version 2.5+
x86:GenuineIntel:family=15:model=6:stepping=1|Intel|Common KVM processor
x86:GenuineIntel:family=6:model=6:stepping=3|Intel|Common 32-bit KVM processor
x86:GenuineIntel:family=6:model=106:stepping=6|Intel|Intel Xeon Processor (Icelake)
x86:AuthenticAMD:family=23:model=49:stepping=0|AMD|AMD EPYC-Rome Processor
GUESTS
OXIDE='x86:AuthenticAMD:family=26:model=2:stepping=1'
page "/cpu?cpu=$OXIDE" > /dev/null
check "a brand naming no maker does not name its CPU: the page says the identity" \
  sh -c "grep -q '<title>[^<]*family=26' page.html && ! grep -q '<title>Oxide' page.html"
get /api/v1/cpus > /dev/null
check "... the API's CPU list gives it no name, and its architecture" \
  [ "$(field "[(c['cpu_name'], c['arch']) for c in d['cpus'] if c['cpu'] == '$OXIDE'][0]")" \
    = "('', 'x86_64')" ]
page / > /dev/null
check "... and the leaderboard lists it" grep -q 'family=26' page.html
st=$(upload_doc guest-intel mallory --identity "$OXIDE" --set 'system.cpu.name="Intel Xeon Platinum"')
check "a brand naming Intel on that AMD guest is still flagged brand-mismatch" \
  sh -c "[ $st = 201 ] && [ '$(field "','.join(d['flags'])")' = brand-mismatch ]"

# ------------------------------------------------------------ virtual machines

# The fixture ran in a KVM guest, so every document so far names a
# hypervisor; one naming none ran on bare metal.  Both are pooled with
# their CPU identity (the guest on the Oxide identity, its first above).
OXIDE_GUEST=$(curl -sS "$URL/api/v1/results?cpu=$OXIDE&flagged=0" | $PY -c \
  "import json,sys; print(json.load(sys.stdin)['results'][0]['id'])")
st=$(upload_doc metal alice --identity "$OXIDE" --base --set 'system.cpu.hypervisor=null')
METAL=$(field "d['id']")
get "/api/v1/results/$METAL" > /dev/null
check "a result naming no hypervisor is accepted unflagged, marked bare metal" \
  sh -c "[ $st = 201 ] && [ '$(field "(d['virtual'], d['flags'])")' = '(False, [])' ]"
get "/api/v1/cpus" > /dev/null
check "... and pooled with the guest of its CPU identity in one row" \
  [ "$(field "[c['n'] for c in d['cpus'] if c['cpu'] == '$OXIDE']")" = "[2]" ]
page "/cpu?cpu=$OXIDE" > /dev/null
check "the CPU page lists both, the guest's row marked virtual" \
  sh -c "grep -q '2 matching results' page.html \
    && grep -q '$OXIDE_GUEST.*>virtual</span></td></tr>' page.html \
    && ! grep -q '$METAL.*>virtual</span>' page.html"
page "/cpu?cpu=$OXIDE&machine=bare-metal" > /dev/null
check "... and filters bare metal (machine=bare-metal) and says so" \
  sh -c "grep -q '1 matching result,' page.html && grep -q 'GMP builds on bare metal' page.html \
    && grep -q '$METAL' page.html && ! grep -q '$OXIDE_GUEST' page.html"
page "/cpu?cpu=$OXIDE&machine=virtual" > /dev/null
check "... and virtual machines (machine=virtual)" \
  sh -c "grep -q '1 matching result,' page.html && grep -q 'in virtual machines' page.html \
    && grep -q '$OXIDE_GUEST' page.html && ! grep -q '$METAL' page.html"
check "... and answers 400 to any other machine" [ "$(page "/cpu?cpu=$OXIDE&machine=vm")" = 400 ]
page "/?machine=bare-metal" > /dev/null
check "the leaderboard filters bare metal: only the CPU with a bare-metal result, said so" \
  sh -c "grep -q 'family=26' page.html && ! grep -q 'family=15:model=107' page.html \
    && grep -q 'GMP builds on bare metal' page.html \
    && grep -q '<option value=\"bare-metal\" selected>bare-metal (1)' page.html"
page "/?machine=virtual" > /dev/null
check "... and virtual machines, the guests' CPUs" \
  sh -c "grep -q 'family=26' page.html && grep -q 'family=15:model=107' page.html \
    && grep -q 'in virtual machines' page.html"
page "/?machine=all" > /dev/null
check "... and all of them (machine=all, the default), the form offering the three" \
  sh -c "grep -q 'family=15:model=107' page.html && grep -q '<select name=\"machine\">' page.html \
    && grep -q '<option value=\"virtual\">virtual (' page.html"
check "... and answers 400 to any other machine" [ "$(page "/?machine=metal")" = 400 ]
page / > /dev/null
check "the recent uploads mark the virtual ones, not the bare-metal one" \
  sh -c "sed -n '/id=\"recent\"/,\$p' page.html > recent.html \
    && grep -q '$GUEST.*>virtual</span>' recent.html && grep -q '$METAL' recent.html \
    && ! grep -q '$METAL.*>virtual</span>' recent.html"
page "/?machine=bare-metal" > /dev/null
check "... and follow the machine filter" \
  sh -c "sed -n '/id=\"recent\"/,\$p' page.html > recent.html \
    && grep -q '$METAL' recent.html && ! grep -q '$GUEST' recent.html"
page "/results/$GUEST" > /dev/null
check "a guest's result page marks it virtual and names the hypervisor" \
  sh -c "grep -q '>virtual</span>' page.html && grep -q 'virtual machine, hypervisor KVM' page.html"
page "/results/$METAL" > /dev/null
check "... and a bare-metal result's says bare metal, unmarked" \
  sh -c "grep -q 'bare metal (the document names no hypervisor)' page.html \
    && ! grep -q '>virtual</span>' page.html"
get "/api/v1/results?machine=bare-metal" > /dev/null
check "the API's listing filters bare metal (machine=bare-metal)" \
  [ "$(field "[(r['id'], r['virtual']) for r in d['results']]")" = "[('$METAL', False)]" ]
get "/api/v1/results?machine=virtual&limit=500" > /dev/null
check "... and virtual machines (machine=virtual), every one marked" \
  [ "$(field "len(d['results']) > 10 and all(r['virtual'] for r in d['results'])")" = True ]
get "/api/v1/results?machine=bare-metal&sort=gmpbench.base" > /dev/null
check "... also sorted by a node (from the store)" \
  [ "$(field "[r['id'] for r in d['results']]")" = "['$METAL']" ]
get "/api/v1/results?machine=bare-metal&sort=gmpbench.base.multiply.128" > /dev/null
check "... and by a test (ranked in the leaderboard's snapshot)" \
  [ "$(field "[r['id'] for r in d['results']]")" = "['$METAL']" ]
st=$(get "/api/v1/results?machine=vm")
check "... and answers 400 naming machine for any other value" \
  sh -c "[ $st = 400 ] && [ '$(field "d['field']")' = machine ]"
check "the CSV export filters by machine too" \
  [ "$(curl -sS "$URL/api/v1/export.csv?machine=bare-metal" | tail -n +2 | cut -d, -f1)" \
    = "$METAL" ]

TIED='x86:AuthenticAMD:family=25:model=80:stepping=0'
upload_doc tie1 alice --identity "$TIED" --set 'system.cpu.name="AMD Ryzen 7 5800U"' > /dev/null
upload_doc tie2 mallory --identity "$TIED" --set 'system.cpu.name="AMD Ryzen 7 5800U for sale"' > /dev/null
page "/cpu?cpu=$TIED" > /dev/null
check "between two names as common, the oldest names the CPU" \
  grep -q '<title>AMD Ryzen 7 5800U –' page.html
"$SERVER" key verify "$(fingerprint bob)" --name 'AMD' --database results.db 2>> server.log
upload_doc tie3 bob --identity "$TIED" --set 'system.cpu.name="AMD Ryzen 7 5800U with Radeon Graphics"' \
  > /dev/null
page "/cpu?cpu=$TIED" > /dev/null
check "a verified publisher's name for the CPU comes first" \
  grep -q '<title>AMD Ryzen 7 5800U with Radeon Graphics' page.html

# ------------------------------------------------------------ refusals

LONE='x86:AuthenticAMD:family=25:model=97:stepping=2'
st=$(upload_doc fast1000 mallory --identity "$LONE" --multiply --scale 1000)
expect_rule "multiply 1000 times faster, alone on its CPU, is refused" 422 impossible "$st"
check "... naming a multiply test" \
  sh -c "[ '$(field "d['tests'][0].rsplit('.', 1)[0]")' = gmpbench.base.multiply ]"
st=$(upload_doc square4ns mallory --identity "$LONE" --multiply \
  --scale-test gmpbench.base.multiply.2097152=81920)
expect_rule "a 2,097,152-bit squaring in 4 ns is refused" 422 impossible "$st"
check "... naming that test" [ "$(field "','.join(d['tests'])")" = gmpbench.base.multiply.2097152 ]
st=$(upload_doc contradict mallory --identity "$LONE" --multiply --set 'results.0.seconds_per_op=3e-7')
expect_rule "seconds_per_op three times 1 / ops_per_sec is refused" 422 inconsistent-test "$st"
check "... naming the test" [ "$(field "','.join(d['tests'])")" = gmpbench.base.multiply.128 ]
st=$(upload_doc median mallory --identity "$LONE" --multiply \
  --set 'results.1.median_ops_per_sec=1e9')
expect_rule "a median faster than the estimate is refused" 422 inconsistent-test "$st"
st=$(upload_doc unnoisy mallory --identity "$LONE" --multiply --set 'results.0.spread=0.2' \
  --set 'results.0.flags=[]')
expect_rule "a wide spread without the noisy flag is refused" 422 inconsistent-test "$st"

# ------------------------------------------------------------ peers

EPYC='x86:AuthenticAMD:family=25:model=1:stepping=1'
st=$(upload_doc early mallory --identity "$EPYC" --base --scale 1.2)
EARLY=$(field "d['id']")
check "a result 20% fast, first of its CPU, has no peers to be judged against" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ]"
PEERS=
for scale in 1 1.01 0.99 1.02 0.98; do
  upload_doc "peer$scale" carol --identity "$EPYC" --base --scale $scale > /dev/null
  PEERS="$PEERS $(field "d['id']")"
done
check "once five peers arrive, the early result is flagged outlier" \
  [ "$(flags_of "$EARLY")" = outlier ]
page "/results/$EARLY" > /dev/null
check "... and its page says why (the node, how far, the cutoff) and when it was decided" \
  sh -c "grep -q 'outlier: gmpbench[a-z.]* is [12][0-9]% above the median of its 5 peers' page.html \
    && grep -q 'id=\"decided\"' page.html"
get /api/v1/cpus > /dev/null
check "... and the CPU's aggregates count the five peers only" \
  [ "$(field "[c['scores']['gmpbench.base']['n'] for c in d['cpus'] if c['cpu'] == '$EPYC'][0]")" = 5 ]

st=$(upload_doc quick mallory --identity "$EPYC" --base --scale 1.25 --set 'run.mode="quick"')
check "a quick run is judged among quick runs only (alone, not flagged)" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ]"
QUICK=$(field "d['id']")
page '/?mode=quick' > /dev/null
check "the leaderboard shows the quick run under its own tab, and says so" \
  sh -c "grep -q '1 of [0-9]* listed results: quick runs of unknown GMP builds' page.html \
    && grep -q '$EPYC' page.html"
page / > /dev/null
check "... and by default the most common mode, here custom runs, without it" \
  grep -q 'listed results: custom runs of unknown GMP builds' page.html
page "/cpu?cpu=$EPYC&mode=quick" > /dev/null
check "... and so does the CPU page, its medians over the quick run alone" \
  sh -c "grep -q '1 matching result,' page.html && grep -q 'Medians over the newest [0-9]* matching' page.html \
    && [ \$(grep -o 'href=\"/results/[0-9a-f]*\"' page.html | sort -u | wc -l) = 1 ]"
page "/results/$QUICK" > /dev/null
check "the quick result's page links to its CPU among quick runs" \
  grep -q 'href="/cpu?cpu=[^"]*&amp;mode=quick&amp;build=unknown"' page.html
st=$(upload_doc later carol --identity "$EPYC" --base --scale 1.005)
check "a sixth honest peer is not flagged" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ]"
honest=0
for id in $PEERS; do
  [ -z "$(flags_of "$id")" ] && honest=$((honest + 1))
done
check "the five honest peers within 2% were never flagged" [ $honest = 5 ]
check "... and the early outlier stays flagged" [ "$(flags_of "$EARLY")" = outlier ]
get "/api/v1/results/$EARLY" > /dev/null
check "the result's JSON says why it is flagged and when that was decided" \
  sh -c "[ '$(field "d['flag_notes'][0].startswith('outlier: gmpbench')")' = True ] \
    && [ -n '$(field "d['flags_decided'] if d['flags_decided'].endswith('Z') else ''")' ]"

st=$(upload_doc native mallory --identity "$EPYC" --base --scale 1.3 \
  --set 'system.build.gmp.build="native"')
NATIVE=$(field "d['id']")
check "a GMP built for the CPU (system.build.gmp.build native) is judged among such builds only" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ]"
page '/?build=native' > /dev/null
check "... the leaderboard shows it under its own build tab, and says so" \
  sh -c "grep -q '1 of [0-9]* listed results: custom runs of native GMP builds' page.html \
    && grep -q 'href=\"/?build=unknown' page.html"
page "/cpu?cpu=$EPYC" > /dev/null
check "... and the CPU page by default shows the most common build kind, without it" \
  sh -c "grep -q '6 matching results' page.html && ! grep -q '$NATIVE' page.html"
page "/results/$NATIVE" > /dev/null
check "... and its page names its build kind" grep -q 'custom run, native GMP build' page.html
get "/api/v1/results?cpu=$EPYC&build=native" > /dev/null
check "the API's listing filters by build kind, and each result says its mode and kind" \
  [ "$(field "[(r['id'], r['summary']['mode'], r['summary']['build']) for r in d['results']]")" \
    = "[('$NATIVE', 'custom', 'native')]" ]
get "/api/v1/cpus" > /dev/null
check "/api/v1/cpus keeps run modes and build kinds apart, and says which each row is" \
  [ "$(field "sorted((c['mode'], c['build'], c['n']) for c in d['cpus'] if c['cpu'] == '$EPYC')")" \
    = "[('custom', 'native', 1), ('custom', 'unknown', 6), ('quick', 'unknown', 1)]" ]

# retract ID KEY: retracts the result with KEY's signature; prints the status.
retract () {
  printf 'gmpbench-retract:%s' "$1" > retract.msg
  curl -sS -o resp.json -w '%{http_code}' -X POST \
    -H "Gmpbench-Signature: $(sign retract.msg "$2")" "$URL/api/v1/results/$1/retract"
}
set -- $PEERS
retract "$1" carol > /dev/null
retract "$2" carol > /dev/null
check "a retraction judges the category again: with 4 peers left, the early result's flag falls" \
  [ -z "$(flags_of "$EARLY")" ]
get "/api/v1/results/$EARLY" > /dev/null
check "... and its JSON says so, with no reasons left" [ "$(field "len(d['flag_notes'])")" = 0 ]

st=$(upload_doc perghz mallory --identity "$LONE" --multiply --scale 20)
check "a multiply 20 times faster per GHz than any CPU so far is stored but flagged impossible" \
  sh -c "[ '$st' = 201 ] && [ '$(field "','.join(d['flags'])")' = impossible ]"

# A CPU's own results are its peers, not its bar: a starved first run
# (the only one with ext.pi here) must not make the next honest one
# "impossible"; another CPU is held to it.
SOLO='x86:AuthenticAMD:family=23:model=49:stepping=0'
CLOCK='system.clock.max_mhz=3000'
upload_doc starved alice --identity "$SOLO" --tree ext.pi --set "$CLOCK" --scale 0.4 > /dev/null
st=$(upload_doc rested alice --identity "$SOLO" --tree ext.pi --set "$CLOCK")
check "a CPU's next run, 2.5 times its own starved first per GHz, is not flagged impossible" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ]"
st=$(upload_doc beyond mallory --identity "$LONE" --tree ext.pi --set "$CLOCK" --scale 2.5)
check "... while another CPU 2.5 times faster per GHz than that CPU's best is" \
  sh -c "[ '$st' = 201 ] && [ '$(field "','.join(d['flags'])")' = impossible ]"

# ------------------------------------------------------------ key generation

# Key generation takes a random time (quick runs of this machine made
# OpenSSL's keys 1.9 times faster than the median of seven others, and
# up to 4.1 times among a category's first peers): its node and tests
# may be 5 times faster than their peers, the nodes above are judged
# without them.
KEYS='x86:AuthenticAMD:family=25:model=8:stepping=2'
# keygen X: server-doc.py options for key generation X times faster.
keygen () {
  for size in 1024 2048 3072 4096; do
    printf ' --scale-test openssl.rsa.keygen.%s=%s' $size "$1"
  done
}
for scale in 1 1.01 0.99 1.02 0.98; do
  upload_doc "rsa$scale" carol --identity "$KEYS" --tree openssl.rsa --scale $scale > /dev/null
done
st=$(upload_doc lucky carol --identity "$KEYS" --tree openssl.rsa $(keygen 2.2))
LUCKY=$(field "d['id']")
ratio=$(python3 -c "import json
s = lambda f: json.load(open(f))['scores']['openssl.rsa']
print(round(s('lucky.json') / s('rsa1.json'), 2))")
check "a run whose key generation was 2.2 times faster (openssl.rsa 30% above) is not flagged" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ] && [ '$ratio' = 1.3 ]"
st=$(upload_doc luckier carol --identity "$KEYS" --tree openssl.rsa $(keygen 4.5))
LUCKIER=$(field "d['id']")
check "... nor one whose key generation was 4.5 times faster" \
  sh -c "[ '$st' = 201 ] && [ '$(field "len(d['flags'])")' = 0 ]"
st=$(upload_doc fake25 mallory --identity "$KEYS" --tree openssl.rsa --scale 1.25)
check "a result 25% faster than five peers within 2% is still flagged outlier" \
  sh -c "[ '$st' = 201 ] && [ '$(field "','.join(d['flags'])")' = outlier ]"
st=$(upload_doc spread25 mallory --identity "$KEYS" --tree openssl.rsa --scale 1.25 --spread 1)
check "... also when every test claims a spread of 100%" \
  sh -c "[ '$st' = 201 ] && [ '$(field "','.join(d['flags'])")' = outlier ]"
st=$(upload_doc keyfake mallory --identity "$KEYS" --tree openssl.rsa $(keygen 1.6) --scale 1.25)
check "... and when its key generation is 2 times faster, the rest of openssl.rsa gives it away" \
  sh -c "[ '$st' = 201 ] && [ '$(field "','.join(d['flags'])")' = outlier ]"
check "... while the lucky honest runs stay unflagged" \
  sh -c "[ -z '$(flags_of "$LUCKY")' ] && [ -z '$(flags_of "$LUCKIER")' ]"

# ------------------------------------------------------------ freshness

stop_server
start_server "$PWD/fresh.db" --key-rate 0 || { fail "a server with the default --aggregate-ttl starts"; exit 1; }
page / > /dev/null
FRESH='x86:GenuineIntel:family=6:model=183:stepping=1'
upload_doc fresh1 alice --identity "$FRESH" --base --set 'system.cpu.name="Intel Core i9-13900K"' \
  --set 'system.cpu.vendor="GenuineIntel"' > /dev/null
page / > /dev/null
check "the leaderboard right after a 201 has the new result (no waiting out --aggregate-ttl)" \
  grep -q 'Intel Core i9-13900K' page.html
page "/cpu?cpu=$FRESH" > /dev/null      # what the page computes is kept with the snapshot
check "... and its CPU page" grep -q '1 matching result,' page.html
upload_doc fresh2 alice --identity "$FRESH" --base --scale 1.01 \
  --set 'system.cpu.name="Intel Core i9-13900K"' --set 'system.cpu.vendor="GenuineIntel"' > /dev/null
FRESH2=$(field "d['id']")
page "/cpu?cpu=$FRESH" > /dev/null
check "... and so has the CPU page, in its counts as in its list" \
  sh -c "grep -q '2 matching results' page.html && grep -q '$FRESH2' page.html"
get "/api/v1/results?cpu=$FRESH" > /dev/null
check "... and the API's listing" [ "$(field "d['results'][0]['id']")" = "$FRESH2" ]

# ------------------------------------------------------------ /api/v1/cpus past its TTL

stop_server
computed () {
  grep -c 'rows computed in the background' server.log
}
before=$(computed)
start_server "$PWD/fresh.db" --key-rate 0 --aggregate-ttl 1 \
  || { fail "a server with --aggregate-ttl 1 starts"; exit 1; }
fresh_n () {
  field "[c['scores']['gmpbench.base']['n'] for c in d['cpus'] if c['cpu'] == '$FRESH'][0]"
}
for _ in $(seq 100); do
  [ "$(computed)" -gt "$before" ] && break
  sleep 0.1
done
check "/api/v1/cpus is computed when the server starts, before any request" \
  [ "$(computed)" = $((before + 1)) ]
upload_doc fresh3 alice --identity "$FRESH" --base --scale 0.995 \
  --set 'system.cpu.name="Intel Core i9-13900K"' --set 'system.cpu.vendor="GenuineIntel"' > /dev/null
sleep 1.5
get /api/v1/cpus > /dev/null
check "... so its first request, older than --aggregate-ttl, is answered at once with those rows" \
  [ "$(fresh_n)" = 2 ]
for _ in $(seq 40); do
  get /api/v1/cpus > /dev/null
  [ "$(fresh_n)" = 3 ] && break
  sleep 0.25
done
check "... while a thread computes the next, which the requests after it get" [ "$(fresh_n)" = 3 ]
stop_server
check "the server stops cleanly with that thread" [ "$stop_status" = 0 ]
