# t0200-sysinfo.sh: the `gmpbench sysinfo` command: options, errors, the
# text summary, the JSON "system" object, snapshots via --root, and that
# nothing private (host name, user name, MAC addresses) is printed.
. "$SRCDIR/tests/lib.sh"
FIX="$SRCDIR/tests/fixtures/sysinfo"

# json_ok FILE EXPR: succeeds when the Python expression EXPR holds for the
# JSON document d in FILE.
json_ok () {
  json_get "$1" "bool($2) or sys.exit(1)" > /dev/null
}

run_status "$GMPBENCH" sysinfo --help
check "sysinfo --help prints usage" sh -c "[ $status -eq 0 ] && grep -q 'usage: gmpbench sysinfo' out.txt"

for bad in "--format xml" "--frobnicate" "--root" "--root /nonexistent-root"; do
  run_status "$GMPBENCH" sysinfo $bad
  check "sysinfo $bad exits 2 with one 'gmpbench sysinfo:' line" \
    sh -c "[ $status -eq 2 ] && grep -q '^gmpbench sysinfo: ' err.txt && [ \$(wc -l < err.txt) -eq 1 ]"
done

run_status "$GMPBENCH" sysinfo --format json --no-clock
check "sysinfo --format json --no-clock succeeds" [ "$status" -eq 0 ]
cp out.txt noclock.json
check "the loaded GMP's build kind is one of four, learnt from the library" json_ok noclock.json "
  d['build']['gmp']['build'] in ('fat', 'distribution', 'native', 'unknown')"
check "a system directory's libgmp without CPU dispatch is a distribution's build" json_ok noclock.json "
  not d['build']['gmp']['library'].get('path', '').startswith(('/lib/', '/usr/lib/'))
  or d['build']['gmp']['build'] in ('fat', 'distribution')"
if [ "$(uname -m)" = x86_64 ]; then
  check "on x86-64 the mulx and adcx/adox in the loaded code are counted" json_ok noclock.json "
    d['build']['gmp']['code']['mulx'] >= 0 and d['build']['gmp']['code']['adcx_adox'] >= 0"
fi
check "the JSON has every member the server relies on" json_ok noclock.json "all([
  isinstance(d['cpu']['arch'], str), 'identity' in d['cpu'], 'name' in d['cpu'],
  'vendor' in d['cpu'], 'microarchitecture' in d['cpu'], 'hypervisor' in d['cpu'],
  isinstance(d['cpu']['emulated'], bool),
  d['cores']['logical'] >= 1, d['cores']['physical'] >= 1, d['cores']['usable'] >= 1,
  'nominal_mhz' in d['clock'], 'max_mhz' in d['clock'], d['clock']['measured'] is None,
  'name' in d['os'], 'version' in d['os'], 'kernel' in d['os'],
  isinstance(d['build']['compiler']['name'], str), isinstance(d['build']['gmp']['version'], str),
  isinstance(d['build']['openssl']['version'], str)])"

run_status "$GMPBENCH" sysinfo --format=json
check "sysinfo --format=json measures the clock" \
  json_ok out.txt "(d['clock']['measured']['mhz'] or 0) > 0 or d['clock']['measured']['valid'] is False"
check "the measured clock is valid, or says why not" \
  json_ok out.txt "d['clock']['measured']['valid'] is True and 'reason' not in d['clock']['measured']
  or isinstance(d['clock']['measured']['reason'], str)"

run_status "$GMPBENCH" sysinfo
check "sysinfo text output starts with the six summary lines" \
  sh -c "[ $status -eq 0 ] && head -6 out.txt | cut -c1-8 | tr -d ' ' | tr '\n' , | grep -qx 'CPU:,Clock:,Cores:,OS:,GMP:,OpenSSL:,'"
check "sysinfo text output lists members with their sources" grep -q '^cpu.identity: .*\[' out.txt

host=$(uname -n)
user=$(id -un 2>/dev/null)
private_ok=yes
if [ ${#host} -ge 4 ] && grep -qw -- "$host" out.txt noclock.json; then private_ok=no; fi
if [ ${#user} -ge 4 ] && grep -qw -- "$user" out.txt noclock.json; then private_ok=no; fi
if grep -qiE '([0-9a-f]{2}:){5}[0-9a-f]{2}' out.txt noclock.json; then private_ok=no; fi
check "no host name, user name or MAC address is printed" [ "$private_ok" = yes ]

# The host name here may be too short to test ("vm"): give a long one in a
# UTS namespace of its own, where root can.
long_host=gmpbench-private-host-4721
if [ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null && command -v hostname > /dev/null \
   && unshare -u true 2> /dev/null; then
  unshare -u sh -c 'hostname "$1" && [ "$(uname -n)" = "$1" ] && "$2" sysinfo --no-clock > long.txt \
    && "$2" sysinfo --format json --no-clock > long.json' sh "$long_host" "$GMPBENCH"
  check "sysinfo runs under a long host name" [ $? -eq 0 ]
  check "a long host name is not printed" sh -c "! grep -q -- $long_host long.txt long.json"
else
  skip "a long host name is not printed (needs root and unshare -u)"
fi

run_status "$GMPBENCH" sysinfo --root "$FIX/apple-m1-asahi" --format json
check "sysinfo --root reads a snapshot (Apple M1 under Asahi)" \
  json_ok out.txt "d['cpu']['identity'] == 'arm:0x61:0x023:r1p1' and d['cpu']['arch'] == 'aarch64' and d['clock']['measured'] is None and len(d['cpu']['kinds']) == 2"
run_status "$GMPBENCH" sysinfo --root "$FIX/container-quota"
check "the summary shows the usable CPUs of a container" grep -q '^Cores: *16 logical, 8 physical, 2 usable' out.txt
