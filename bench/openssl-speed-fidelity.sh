#!/bin/sh
# openssl-speed-fidelity.sh: do gmpbench's OpenSSL RSA tests measure what
# `openssl speed` measures?
#
# For each RSA size, alternates ROUNDS times between `openssl speed
# -seconds SECS -mr rsaBITS` and `gmpbench run --only openssl.rsa.*.BITS
# --time-per-test SECS`, so that both see the same machine state, and
# prints the median ratio of gmpbench's sign/s and verify/s to openssl
# speed's.  On an idle machine both should agree within 5%;
# docs/comparisons.md explains the expected differences.
#
# usage: bench/openssl-speed-fidelity.sh [-s SECS] [-r ROUNDS] [-g GMPBENCH] [BITS...]
#   defaults: -s 3 -r 3, ./gmpbench, sizes 512 1024 2048 3072 4096

secs=3 rounds=3 gb=./gmpbench
while getopts s:r:g: opt; do
  case $opt in
    s) secs=$OPTARG ;;
    r) rounds=$OPTARG ;;
    g) gb=$OPTARG ;;
    *) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 512 1024 2048 3072 4096
command -v openssl > /dev/null || { echo "openssl: not found" >&2; exit 1; }
[ -x "$gb" ] || { echo "$gb: not an executable (use -g)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# openssl speed's sign/s and verify/s for BITS, from its -mr line
#   +F2:index:bits:sign_per_sec:verify_per_sec
speed_rates () {
  openssl speed -seconds "$secs" -mr "rsa$1" 2> /dev/null \
    | awk -F: '/^\+F2:/ { print $4, $5 }'
}

# gmpbench's ops/s for openssl.rsa.sign.BITS and openssl.rsa.verify.BITS
gmpbench_rates () {
  "$gb" run --only "openssl.rsa.sign.$1" --only "openssl.rsa.verify.$1" \
    --time-per-test "$secs" -q --format json > "$tmp/run.json" 2> "$tmp/run.err" || return 1
  awk -v bits="$1" '
    /"name":/ { name = $0; sub (/.*"name":[[:space:]]*"/, "", name); sub (/".*/, "", name) }
    /"ops_per_sec":/ { v = $0; sub (/.*:[[:space:]]*/, "", v); sub (/,.*/, "", v); ops[name] = v }
    END { print ops["openssl.rsa.sign." bits], ops["openssl.rsa.verify." bits] }' "$tmp/run.json"
}

median () {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-6s %12s %12s %12s %12s %8s %8s\n' bits "speed sign/s" "ours sign/s" "speed ver/s" "ours ver/s" "sign" "verify"
for bits in "$@"; do
  : > "$tmp/sign" && : > "$tmp/verify" && : > "$tmp/rates"
  i=0
  while [ "$i" -lt "$rounds" ]; do
    set -- $(speed_rates "$bits")
    s_sign=$1 s_ver=$2
    set -- $(gmpbench_rates "$bits") || { cat "$tmp/run.err" >&2; exit 1; }
    g_sign=$1 g_ver=$2
    if [ -z "$s_sign" ] || [ -z "$g_sign" ]; then
      echo "$bits: no result (openssl speed rsa$bits or gmpbench failed)" >&2
      break
    fi
    echo "$s_sign $g_sign $s_ver $g_ver" >> "$tmp/rates"
    awk -v a="$g_sign" -v b="$s_sign" 'BEGIN { print a / b }' >> "$tmp/sign"
    awk -v a="$g_ver" -v b="$s_ver" 'BEGIN { print a / b }' >> "$tmp/verify"
    i=$((i + 1))
  done
  [ -s "$tmp/rates" ] || continue
  printf '%-6s %12.1f %12.1f %12.1f %12.1f %8.3f %8.3f\n' "$bits" \
    "$(cut -d' ' -f1 "$tmp/rates" | median)" "$(cut -d' ' -f2 "$tmp/rates" | median)" \
    "$(cut -d' ' -f3 "$tmp/rates" | median)" "$(cut -d' ' -f4 "$tmp/rates" | median)" \
    "$(median < "$tmp/sign")" "$(median < "$tmp/verify")"
done
