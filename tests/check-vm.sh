#!/bin/sh
# check-vm.sh: `make check-vm`, the tests that read the host run as if the
# host were a cloud VM of the kind that turned `make check` red: a 2-vCPU
# bhyve guest (AuthenticAMD family 26 model 2, Zen 5) whose CPUID brand
# names no maker ("Oxide Virtual Turin-like Processor"), with a hypervisor,
# no cache topology and no cpufreq data.  Whatever machine runs it, every
# command of these tests describes its CPU from that snapshot
# (GMPBENCH_TEST_SYSINFO_ROOT, sysinfo/collect.c) while measuring here.
#
# The snapshot is the shared dump ../shared/data/cpu-dumps/
# x86_64-bhyve-zen5-2vcpu-nocache.tar.gz (or $CPU_DUMPS/...), unpacked
# into a scratch directory; its /proc/cpuinfo gives the brand the guest's
# kernel read at boot ("AMD EPYC"), which is set here to the one CPUID
# gives in that guest, as the client reads it live.  The tests are those
# whose checks depend on what the client reads of the host: they run it
# and print, upload or judge what it describes.
#
#   SRCDIR=... BUILDDIR=... sh tests/check-vm.sh [TEST...]
: "${SRCDIR:?}" "${BUILDDIR:?}"

DUMP=${CPU_DUMPS:-$SRCDIR/../shared/data/cpu-dumps}/x86_64-bhyve-zen5-2vcpu-nocache.tar.gz
BRAND="Oxide Virtual Turin-like Processor"
HOST_TESTS="t0100-cli.sh t0120-wrong-results.sh t0125-two-gmp.sh t0200-sysinfo.sh
t0330-server-registry.sh t0510-verify.sh t0520-upload.sh t0530-faults.sh t0540-tls.sh
t0550-run-submit.sh t0800-report.sh t0810-html-browser.sh"

if [ ! -f "$DUMP" ]; then
  echo "SKIP: the tests as on a cloud VM (no snapshot $DUMP)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/gmpbench-vm.XXXXXX") || exit 1
trap 'rm -rf "$root"' EXIT
tar -xzf "$DUMP" -C "$root" || { echo "check-vm: cannot unpack $DUMP" >&2; exit 1; }
sed "s/^model name\t: .*/model name\t: $BRAND/" "$root/proc/cpuinfo" > "$root/cpuinfo" &&
  mv "$root/cpuinfo" "$root/proc/cpuinfo" || exit 1

# The snapshot must show what this stage is about, or it proves nothing.
GMPBENCH_TEST_SYSINFO_ROOT=$root "$BUILDDIR/gmpbench" sysinfo --format json --no-clock \
  > "$root/system.json" || exit 1
python3 - "$root/system.json" "$BRAND" <<'EOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
cpu = d["cpu"]
wrong = [what for what, ok in (
    ("the brand", cpu["name"] == sys.argv[2]),
    ("the identity", cpu["identity"].startswith("x86:AuthenticAMD:family=26:model=2:")),
    ("a hypervisor", cpu["hypervisor"] is not None),
    ("no cache topology", not d.get("caches")),
    ("no clock from cpufreq", d["clock"]["max_mhz"] is None)) if not ok]
if wrong:
    sys.exit("check-vm: the snapshot does not show " + ", ".join(wrong))
EOF

GMPBENCH_TEST_SYSINFO_ROOT=$root
export GMPBENCH_TEST_SYSINFO_ROOT
# shellcheck disable=SC2086
sh "$SRCDIR/tests/run-tests.sh" ${*:-$HOST_TESTS}
