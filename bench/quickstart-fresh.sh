#!/bin/sh
# quickstart-fresh.sh: how long does scripts/quickstart take, and how much
# does apt download, on a fresh Debian 12 machine with a C compiler
# (issue 34's targets: at most 90 s wall including apt, at most 60 MB)?
#
# The fresh machine is a chroot.  Its root is built once per package set
# and cached in CACHE: `debootstrap --variant=minbase bookworm` (the
# packages of priority required, and apt) plus gcc, make and libc6-dev
# (the C compiler) and EXTRA (default ca-certificates: priority standard,
# which a Debian install has unless told otherwise, and what the
# client's https uploads need), with the sources.list of a Debian 12
# cloud image (bookworm, bookworm-updates, bookworm-security) and apt's
# package lists and archive cache emptied, as such an image ships them.
# Nothing else: whatever else quickstart needs (pkg-config, the
# libraries) it must download, and that is counted.  A real image has
# more of priority important and standard; one of them changes the
# install's time, man-db, whose trigger indexes the manual pages the -dev
# packages bring: -i ca-certificates,man-db measures with it.
#
# Each measurement copies the base afresh, unpacks `git archive REV` of
# this checkout into it (what is committed, nothing else), binds /proc,
# /sys and /dev into it, runs scripts/quickstart there with chroot and a
# clean environment, and prints the quickstart's own time per step, the
# wall time around it, apt's time in parts (from the time of each output
# line: the package lists, resolving, downloading, unpacking and setting
# up), what apt downloaded (its "Fetched" lines: the package lists and the
# packages) and installed, and the load average before and after.  It
# asserts nothing.  On exit, failure or interrupt the local server
# quickstart left running in the chroot is stopped, everything mounted is
# unmounted and the copy removed (-k keeps it);
# quickstart's output stays in CACHE/logs.
#
# apt downloads from MIRROR over the network, so the install step's time
# depends on the mirror; it needs root (debootstrap, mount, chroot), and
# installs debootstrap with apt-get when it is missing.
#
# usage: bench/quickstart-fresh.sh [-c CACHE] [-i EXTRA] [-m MIRROR] [-r REV] [-p PORT] [-k]
#   defaults: -c /var/tmp/gmpbench-quickstart-fresh -i ca-certificates
#             -m http://deb.debian.org/debian -r HEAD -p 18080
#   -i EXTRA: packages (comma-separated) the fresh root has beside the compiler
#   -k keeps the copy (its path is printed)

. "$(dirname "$0")/lib.sh"
cache=/var/tmp/gmpbench-quickstart-fresh mirror=http://deb.debian.org/debian
rev=HEAD port=18080 keep='' extra=ca-certificates
options 'c:cache i:extra m:mirror r:rev p:port k=keep' "$@"
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[ "$(id -u)" -eq 0 ] || { echo "quickstart-fresh.sh: needs root (debootstrap, mount, chroot)" >&2; exit 1; }
git -C "$src" rev-parse --verify -q "$rev^{commit}" > /dev/null \
  || { echo "quickstart-fresh.sh: $rev: not a commit of $src" >&2; exit 1; }

# The compiler a "fresh Debian 12 machine with a C compiler" has: what
# `apt-get install gcc make` brings (libc6-dev comes with gcc as a
# Recommends; named here since install-deps takes no Recommends either).
compiler="gcc,make,libc6-dev"
case $extra in
  *[!a-z0-9.+,-]*) echo "quickstart-fresh.sh: -i $extra: not a comma-separated list of package names" >&2; exit 2 ;;
esac
base=$cache/base-$(echo "$compiler${extra:+,$extra}" | tr , +)

# build_base: $base, once; built in $base.partial and renamed only when
# complete, so an interrupted build is redone.
build_base () {
  [ -d "$base" ] && return 0
  if ! command -v debootstrap > /dev/null; then
    echo "installing debootstrap" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap > /dev/null || return 1
  fi
  mkdir -p "$cache" || return 1
  rm -rf "$base.partial"
  echo "building the fresh root in $base (debootstrap, once)" >&2
  debootstrap --variant=minbase --include="$compiler${extra:+,$extra}" bookworm "$base.partial" \
    "$mirror" > "$base.log" 2>&1 || { echo "debootstrap failed; see $base.log" >&2; return 1; }
  cat > "$base.partial/etc/apt/sources.list" << EOS
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOS
  rm -rf "$base.partial/var/lib/apt/lists"/* "$base.partial/var/cache/apt"/*.bin
  find "$base.partial/var/cache/apt/archives" -name '*.deb' -delete
  mv "$base.partial" "$base"
}

# cleanup: keeps the server's log beside quickstart's, stops the server,
# unmounts, removes the copy.
run_dir='' log=''
cleanup () {
  [ -n "$run_dir" ] || return 0
  [ -f "$run_dir/root/gmpbench/quickstart/server.log" ] && [ -n "$log" ] \
    && cp "$run_dir/root/gmpbench/quickstart/server.log" "${log%.log}.server.log"
  pidfile=$run_dir/root/gmpbench/quickstart/server.pid
  [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2> /dev/null && sleep 0.3
  for m in dev sys proc; do
    mountpoint -q "$run_dir/root/$m" && umount "$run_dir/root/$m"
  done
  if [ -n "$keep" ]; then
    echo "kept: $run_dir/root" >&2
  elif ! mountpoint -q "$run_dir/root/proc" && ! mountpoint -q "$run_dir/root/sys" \
       && ! mountpoint -q "$run_dir/root/dev"; then
    rm -rf "$run_dir"
  else
    echo "quickstart-fresh.sh: could not unmount under $run_dir/root; not removed" >&2
  fi
  run_dir=''
}
trap 'cleanup' EXIT
trap 'cleanup; exit 130' INT TERM

build_base || exit 1
run_dir=$(mktemp -d "$cache/run.XXXXXX") || exit 1
root=$run_dir/root
cp -a "$base" "$root" || exit 1
cp /etc/resolv.conf "$root/etc/resolv.conf" || exit 1
mkdir "$root/gmpbench"
git -C "$src" archive "$rev" | tar -x -C "$root/gmpbench" || exit 1
mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" \
  && mount --bind /dev "$root/dev" || exit 1

echo "commit: $(git -C "$src" rev-parse --short "$rev"); fresh root: $(basename "$base"); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$cache/logs"
log=$cache/logs/quickstart-$(date +%Y%m%d-%H%M%S).log
start=$(date +%s.%N)
status=0
# Each line of the output is logged with the seconds since the start, so
# that apt's time can be split into its parts below.  The logger stops at
# the line that says quickstart ended: the server it leaves running may
# hold the pipe open (quickstart before 2026-12-06 gave it its stdout).
{ status=0
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 /bin/sh -c "cd /gmpbench && scripts/quickstart --port $port" \
    2>&1 < /dev/null || status=$?
  echo "quickstart-fresh.sh: exit status $status"; } \
  | perl -MTime::HiRes=time -ne 'BEGIN { $| = 1; $t0 = time }
      printf "[%7.2f] %s", time - $t0, $_; exit 0 if /^quickstart-fresh.sh: exit status/' \
  > "$log"
end=$(date +%s.%N)
status=$(sed -n 's/^\[[ 0-9.]*\] quickstart-fresh.sh: exit status //p' "$log")
status=${status:-1}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$status" -eq 0 ] || { echo "scripts/quickstart FAILED (exit $status); its last lines:"; tail -n 20 "$log"; }

echo "quickstart's own times:"
sed -n 's/^\[[ 0-9.]*\] //; /^Time per step:/,$p' "$log" | tail -n +2
awk -v a="$start" -v b="$end" 'BEGIN { printf "wall time around the chroot: %.1f s\n", b - a }'
# apt's amounts: "Fetched 8,944 kB in 2s", "Need to get 15.2 MB of archives",
# "After this operation, 43.9 MB of additional disk space will be used".
awk '
  function mb(n, unit) { gsub(/,/, "", n)
    return unit == "B" ? n / 1e6 : unit == "kB" ? n / 1e3 : unit == "GB" ? n * 1e3 : n }
  # The line'"'"'s time, and the line without it.
  { t = substr($0, 2, 7) + 0; sub(/^\[[ 0-9.]*\] /, "") }
  /^Fetched / { fetched += mb($2, $3); fetches++ }
  /^Need to get / { archives = mb($4, $5) }
  / newly installed, / { installed = $0 }
  /^After this operation, / { disk = mb($4, $5) }
  # The parts of apt'"'"'s time, from the line times: its package lists
  # (apt-get update), reading them and resolving, downloading the
  # packages, unpacking and setting them up (up to configure'"'"'s first line).
  /^Fetched / && !lists { lists = t }
  /^Need to get / { resolved = t }
  /^Fetched / { downloaded = t }
  /^checking / && !configure { configure = t }
  END {
    printf "apt: lists %.1f s, reading them and resolving %.1f s, downloading %.1f s, unpacking and setting up %.1f s\n",
      lists, resolved - lists, downloaded - resolved, configure - downloaded
    printf "apt downloaded: %.1f MB in %d Fetched lines (lists and packages); archives alone %.1f MB\n",
      fetched, fetches, archives
    printf "apt installed: %s; %.1f MB of disk\n", installed, disk
  }' "$log"
echo "quickstart's output: $log"
