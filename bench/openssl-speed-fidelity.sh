#!/bin/sh
# openssl-speed-fidelity.sh: do gmpbench's OpenSSL RSA tests measure what
# `openssl speed` measures?
#
# For each RSA size, alternates ROUNDS times between `openssl speed
# -seconds SECS -mr rsaBITS` and `gmpbench run --only openssl.rsa.*.BITS
# --time-per-test SECS`, so that both see the same machine state, and
# prints the median ratio of gmpbench's sign/s and verify/s to openssl
# speed's: with gmpbench's estimate (the fast end of its samples) and, in
# the last two columns, with the median of all its samples
# (median_ops_per_sec), which like speed's mean includes the slow ones.
# On an idle machine both should agree within 5%; docs/comparisons.md
# explains the expected differences.  It says which OpenSSL each side
# uses, and warns when the 1-minute load average is above 0.5 (before and
# after), since other load lowers speed's figure more than ours.
#
# usage: bench/openssl-speed-fidelity.sh [-s SECS] [-r ROUNDS] [-g GMPBENCH] [BITS...]
#   defaults: -s 3 -r 3, ./gmpbench, sizes 512 1024 2048 3072 4096

. "$(dirname "$0")/lib.sh"
secs=3 rounds=3 gb=./gmpbench
options 's:secs r:rounds g:gb' "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 512 1024 2048 3072 4096
command -v openssl > /dev/null || { echo "openssl: not found" >&2; exit 1; }
command -v python3 > /dev/null || { echo "python3: not found (reads gmpbench's JSON)" >&2; exit 1; }
gb=$(executable "$gb" -g) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# Warns on stderr when the 1-minute load average is above 0.5.
check_load () {  # WHEN
  [ -r /proc/loadavg ] || return 0
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
    echo "warning: load average $load $1 (above 0.5): other work lowers openssl speed's" \
      "mean more than gmpbench's estimate; the ratios are not an idle machine's" >&2
  fi
}

# openssl speed's sign/s and verify/s for BITS, from its -mr line
#   +F2:index:bits:sign_per_sec:verify_per_sec
speed_rates () {
  openssl speed -seconds "$secs" -mr "rsa$1" 2> /dev/null \
    | awk -F: '/^\+F2:/ { print $4, $5 }'
}

# gmpbench's sign/s and verify/s for BITS: the estimates, then the medians
# of all samples ("-" where the result has none); the document stays in
# $tmp/run.json.
gmpbench_rates () {
  "$gb" run --only "openssl.rsa.sign.$1" --only "openssl.rsa.verify.$1" \
    --time-per-test "$secs" -q --format json > "$tmp/run.json" 2> "$tmp/run.err" || return 1
  python3 - "$tmp/run.json" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d.get("results", [])}
s, v = (r.get("openssl.rsa.%s.%s" % (op, sys.argv[2]), {}) for op in ("sign", "verify"))
print(*(x.get(k, "-") for k in ("ops_per_sec", "median_ops_per_sec") for x in (s, v)))
EOF
}

# Which OpenSSL each side uses: `openssl version` (the command and its
# libcrypto), and the libcrypto gmpbench ran with, from its document.
print_versions () {
  echo "openssl speed: $(openssl version)"
  python3 - "$tmp/run.json" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1])).get("system", {}).get("build", {}).get("openssl", {})
print("gmpbench:      %s, %s" % (o.get("version", "unknown"),
                                 o.get("library", {}).get("path", "libcrypto path unknown")))
EOF
}

median () {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The ratio A / B, or "-" where A is missing.
ratio () {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-") print "-"; else print a / b }'
}

check_load "at the start"
printf '%-6s %12s %12s %12s %12s %8s %8s %8s %8s\n' bits "speed sign/s" "ours sign/s" \
  "speed ver/s" "ours ver/s" "sign" "verify" "sign~" "verify~"
versions=
for bits in "$@"; do
  for f in sign verify msign mverify rates; do : > "$tmp/$f"; done
  i=0
  while [ "$i" -lt "$rounds" ]; do
    set -- $(speed_rates "$bits")
    s_sign=$1 s_ver=$2
    rates=$(gmpbench_rates "$bits") || { cat "$tmp/run.err" >&2; exit 1; }
    set -- $rates
    g_sign=$1 g_ver=$2 m_sign=$3 m_ver=$4
    if [ -z "$s_sign" ] || [ -z "$g_sign" ] || [ "$g_sign" = - ] || [ "$g_ver" = - ]; then
      echo "$bits: no result (openssl speed rsa$bits or gmpbench failed)" >&2
      break
    fi
    [ -n "$versions" ] || versions=$(print_versions)
    echo "$s_sign $g_sign $s_ver $g_ver" >> "$tmp/rates"
    ratio "$g_sign" "$s_sign" >> "$tmp/sign"
    ratio "$g_ver" "$s_ver" >> "$tmp/verify"
    ratio "$m_sign" "$s_sign" >> "$tmp/msign"
    ratio "$m_ver" "$s_ver" >> "$tmp/mverify"
    i=$((i + 1))
  done
  [ -s "$tmp/rates" ] || continue
  printf '%-6s %12.1f %12.1f %12.1f %12.1f %8.3f %8.3f %8s %8s\n' "$bits" \
    "$(cut -d' ' -f1 "$tmp/rates" | median)" "$(cut -d' ' -f2 "$tmp/rates" | median)" \
    "$(cut -d' ' -f3 "$tmp/rates" | median)" "$(cut -d' ' -f4 "$tmp/rates" | median)" \
    "$(median < "$tmp/sign")" "$(median < "$tmp/verify")" \
    "$(grep -v '^-' "$tmp/msign" | median | awk 'NF { printf "%.3f", $1 }')" \
    "$(grep -v '^-' "$tmp/mverify" | median | awk 'NF { printf "%.3f", $1 }')"
done
echo "sign, verify: gmpbench's estimate over speed's; sign~, verify~: the median of all gmpbench's samples over speed's"
[ -n "$versions" ] && echo "$versions"
check_load "at the end"
