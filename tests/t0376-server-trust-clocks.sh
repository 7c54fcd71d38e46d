# t0376-server-trust-clocks.sh: clocks a document cannot inflate and
# measurements no key can upload twice (docs/protocol.md,
# "clock-beyond-family", "clock-drift", "duplicate-measurements"),
# against a real server, with documents changed and signed again as a
# forger with keys of their own makes them.  A claimed clock above what
# the CPU's family reaches (max_mhz 1e6 among them) is refused, a virtual
# CPU may run at its maker's fastest clock, a result without a valid
# measured clock is judged per GHz at its family's highest clock whatever
# it claims, a clock or counter that changed pace during the run is
# refused while the clocks of honest runs of this machine are not; the
# same measurements re-signed by another key, or under another name,
# retracted or not, are refused, on SQLite and PostgreSQL, and of
# concurrent copies one is stored.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

for key in alice bob mallory k1 k2 k3 k4 k5 k6; do
  make_key $key > /dev/null
done
trap 'stop_server' EXIT

# flags: the flags of the last answer, comma-separated.
flags () {
  field "','.join(d['flags'])"
}

ZEN5='x86:AuthenticAMD:family=26:model=2:stepping=1'
RAPTOR='x86:GenuineIntel:family=6:model=183:stepping=1'
# The fixture is a KVM guest's: these make a document bare metal's.
BARE='--set system.cpu.hypervisor=null'

# ------------------------------------------------------------ claimed clocks

start_server "$PWD/clocks.db" --key-rate 0 || { fail "the server starts"; exit 1; }

st=$(upload_doc mhz1e6 mallory --identity "$ZEN5" --multiply --set 'system.clock.max_mhz=1e6')
expect_rule "max_mhz 1e6 is refused as clock-beyond-family" 422 clock-beyond-family "$st"
check "... naming the member" [ "$(field "d['field']")" = system.clock.max_mhz ]
# raptor NAME KEY MHZ: a bare metal Raptor Lake claiming MHZ as its
# maximum; prints the status.
raptor () {
  upload_doc "$1" "$2" --identity "$RAPTOR" $BARE --multiply --set 'system.cpu.vendor="GenuineIntel"' \
    --set 'system.cpu.name="Intel Core i9-14900K"' --set "system.clock.max_mhz=$3"
}
st=$(raptor raptor7200 mallory 7200)
expect_rule "a Raptor Lake claiming 7200 MHz (its fastest part 6200 + 15% is 7130) is refused" \
  422 clock-beyond-family "$st"
st=$(raptor raptor6000 alice 6000)
check "... one claiming 6000 MHz is stored unflagged" sh -c "[ $st = 201 ] && [ -z '$(flags)' ]"
st=$(upload_doc measured20g mallory --identity "$ZEN5" $BARE --multiply \
  --set 'system.clock.measured.mhz=20000')
expect_rule "a valid measured clock of 20 GHz is refused" 422 clock-beyond-family "$st"
check "... naming it" [ "$(field "d['field']")" = system.clock.measured.mhz ]
st=$(upload_doc nominal mallory --identity "$ZEN5" $BARE --multiply \
  --set 'system.clock.nominal_mhz=7000')
expect_rule "so is a nominal clock beyond the family" 422 clock-beyond-family "$st"
st=$(upload_doc qemu64 alice --identity 'x86:AuthenticAMD:family=15:model=107:stepping=1' --multiply \
  --set 'system.cpu.name="QEMU Virtual CPU version 2.5+"' --set 'system.clock.measured.mhz=5000' \
  --set 'system.clock.measured_after.mhz=5000')
check "a KVM guest presented as a K8 (qemu64) measuring 5000 MHz is stored unflagged" \
  sh -c "[ $st = 201 ] && [ -z '$(flags)' ]"
st=$(upload_doc unknown mallory --identity 'riscv:0x489:0x8000000000000007:0x4210427' --multiply \
  --set 'system.clock.max_mhz=9500')
expect_rule "an identity the table does not know may claim no more than 9000 MHz" \
  422 clock-beyond-family "$st"

# ------------------------------------------------------------ drift

# clocks BEFORE AFTER TSC_BEFORE TSC_AFTER [SPREAD]: server-doc.py
# options for the clock measured before and after the run.
clocks () {
  echo "--set system.clock.measured.mhz=$1 --set system.clock.measured_after.mhz=$2" \
    "--set system.clock.measured.tsc_mhz=$3 --set system.clock.measured_after.tsc_mhz=$4" \
    "--set system.clock.measured.spread=${5:-0.02} --set system.clock.measured_after.spread=${5:-0.02}"
}
st=$(upload_doc slowed mallory --identity "$ZEN5" --multiply $(clocks 3470 7116 2096 4192))
check "the clocks of a run under a clock slowed to half (3470 -> 7116 MHz, counter 2096 -> 4192) are refused" \
  sh -c "[ $st = 422 ] && [ '$(field "d['rule'].startswith('clock-')")' = True ]"
st=$(upload_doc faster mallory --identity "$ZEN5" --multiply $(clocks 3000 6000 2096 2096))
expect_rule "a clock twice as fast after the run is refused as clock-drift" 422 clock-drift "$st"
check "... naming measured_after.mhz" [ "$(field "d['field']")" = system.clock.measured_after.mhz ]
st=$(upload_doc counter mallory --identity "$ZEN5" --multiply $(clocks 3500 3500 2096 4192))
expect_rule "a counter twice as fast after the run is refused as clock-drift" 422 clock-drift "$st"
check "... naming measured_after.tsc_mhz" \
  [ "$(field "d['field']")" = system.clock.measured_after.tsc_mhz ]
st=$(upload_doc hot alice --identity "$ZEN5" --multiply $(clocks 3500 2100 2096 2096))
check "a clock 40% slower after the run (a hot CPU) is stored" sh -c "[ $st = 201 ]"
st=$(upload_doc spread alice --identity "$ZEN5" --multiply $(clocks 1595 2948 2443 2444 0.43))
check "measurements whose trials spread 43% are not compared (an older client's)" \
  sh -c "[ $st = 201 ]"
# The clocks of 8 honest quick runs of a busy 2-vCPU VM (bhyve, Zen 5):
# before, after, the counter before and after, the larger spread.
n=0
fails=
while read -r before after tb ta spread; do
  n=$((n + 1))
  st=$(upload_doc "honest$n" alice --identity "$ZEN5" --multiply $(clocks $before $after $tb $ta $spread))
  [ "$st" = 201 ] || fails="$fails $n:$st"
done <<'RUNS'
3553 3451 2096 2096 0.0266
3433 2749 2096 2096 0.0299
3289 3558 2095 2096 0.0248
3564 3369 2096 2096 0.0252
3506 3629 2096 2096 0.0287
3523 3525 2094 2096 0.0152
3468 3348 2096 2095 0.019
3234 3391 2095 2096 0.0292
RUNS
check "the clocks of 8 honest quick runs of this machine are accepted (refused:$fails)" [ -z "$fails" ]
stop_server

# ------------------------------------------------------------ judged per GHz

# A fresh server: the best per GHz of other CPUs is that of one honest
# CPU row, confirmed by three sources (each upload from a network of its
# own: docs/protocol.md, "Sources").
start_server "$PWD/perghz.db" --key-rate 0 --aggregate-ttl 0 --trust-proxy \
  || { fail "the server starts"; exit 1; }
EACH_SOURCE=1
ROME='x86:AuthenticAMD:family=23:model=49:stepping=0'
for n in 1 2 3; do
  st=$(upload_doc "rome$n" alice --identity "$ROME" $BARE --multiply --set 'system.clock.max_mhz=4500')
  check "an honest result with its clock is stored unflagged (source $n)" \
    sh -c "[ $st = 201 ] && [ -z '$(flags)' ]"
done
INVALID='--set system.clock.measured.valid=false --set system.clock.measured_after.valid=false'
st=$(upload_doc invalid3 mallory --identity "$ZEN5" $BARE --multiply --scale 3 $INVALID)
check "a 3x result whose measured clock is marked invalid, claiming none, is judged at its family's 5700 MHz: flagged impossible" \
  sh -c "[ $st = 201 ] && [ '$(flags)' = impossible ]"
st=$(upload_doc claims3 mallory --identity "$ZEN5" $BARE --multiply --scale 3 $INVALID \
  --set 'system.clock.max_mhz=6500')
check "... also when it claims the most its family allows" \
  sh -c "[ $st = 201 ] && [ '$(flags)' = impossible ]"
st=$(upload_doc invalid10 mallory --identity "$ZEN5" $BARE --multiply --scale 10 $INVALID)
check "... and so is a 10x one" sh -c "[ $st = 201 ] && [ '$(flags)' = impossible ]"
stop_server

# ------------------------------------------------------------ copies

# retract ID KEY: retracts the result with KEY's signature; prints the status.
retract () {
  printf 'gmpbench-retract:%s' "$1" > retract.msg
  curl -sS -o resp.json -w '%{http_code}' -X POST \
    -H "Gmpbench-Signature: $(sign retract.msg "$2")" "$URL/api/v1/results/$1/retract"
}

copies () {
  engine=$1 db=$2
  start_server "$db" --key-rate 0 || { fail "$engine: the server starts"; return; }
  st=$(upload_doc orig alice --identity "$ZEN5" --base)
  ORIG=$(field "d['id']")
  check "$engine: an honest upload is stored unflagged" sh -c "[ $st = 201 ] && [ -z '$(flags)' ]"
  copy_doc orig.json copy-bob.json bob
  st=$(post copy-bob.json "$(sign copy-bob.json bob)")
  expect_rule "$engine: its measurements re-signed by another key are refused" \
    409 duplicate-measurements "$st"
  check "... naming results" [ "$(field "d['field']")" = results ]
  st=$(post orig.json "$(sign orig.json alice)")
  check "$engine: the original bytes sent again are answered as before (200, same id)" \
    sh -c "[ $st = 200 ] && [ '$(field "d['id']")' = $ORIG ]"
  copy_doc orig.json copy-name.json alice 'Alice at home'
  st=$(post copy-name.json "$(sign copy-name.json alice)")
  expect_rule "$engine: the same measurements with submitter.name changed are refused" \
    409 duplicate-measurements "$st"
  copy_doc orig.json copy-posing.json mallory orig
  st=$(post copy-posing.json "$(sign copy-posing.json mallory)" '?unlisted=1')
  expect_rule "$engine: ... and under the original's name by another key, unlisted" \
    409 duplicate-measurements "$st"
  st=$(retract "$ORIG" alice)
  check "$engine: the original is retracted" [ "$st" = 200 ]
  st=$(post copy-bob.json "$(sign copy-bob.json bob)")
  expect_rule "$engine: a retracted result's measurements are still taken" \
    409 duplicate-measurements "$st"
  for k in 1 2 3 4 5 6; do
    make_doc "burst$k.json" "k$k" --name burst --identity "$ZEN5" --base --scale 1.01
  done
  pids=
  for k in 1 2 3 4 5 6; do
    { post "burst$k.json" "$(sign "burst$k.json" "k$k")"; echo; } > "burst$k.status" &
    pids="$pids $!"
  done
  wait $pids
  won=$(cat burst*.status | grep -c 201)
  lost=$(cat burst*.status | grep -c 409)
  check "$engine: of 6 keys uploading the same new measurements at once, one is stored, 5 refused ($won, $lost)" \
    sh -c "[ $won = 1 ] && [ $lost = 5 ]"
  st=$(upload_doc other bob --identity "$ZEN5" --base --scale 0.99)
  check "$engine: other measurements are stored unflagged" sh -c "[ $st = 201 ] && [ -z '$(flags)' ]"
  stop_server
}

on_both_engines copies "copies on PostgreSQL"
