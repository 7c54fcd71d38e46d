#!/bin/sh
# cross-sysroot.sh: a sysroot of Debian's GMP, OpenSSL, cJSON and libcurl
# for one foreign architecture, for check-cross.sh.  The packages are
# fetched with `apt-get download` and unpacked with `dpkg -x` into DIR
# instead of being installed as multiarch packages: installing needs the
# foreign libssl3 etc. at exactly the version of the build machine's, which
# the archive does not always have (security updates stop for some
# architectures before others).  The C library and libgcc come from the
# cross toolchain (/usr/TRIPLET), so they are left out.
#
# An architecture the machine's archive has no packages for (riscv64:
# Debian 12 has no port of it) is taken from Debian 13 instead, through a
# private apt state in DIR.apt (cross-apt.sh).  Debian 13's libraries need
# its newer C library, so that comes too: DIR is then a whole sysroot,
# marked by DIR/.own-libc, to compile with --sysroot=DIR and to run with
# qemu -L DIR.  DIR/.complete marks a finished sysroot, which is reused.
#
#   sh tests/cross/cross-sysroot.sh DEBARCH DIR
#
# Needs `dpkg --add-architecture DEBARCH` and `apt-get update` done once,
# as root, for an architecture of the machine's archive; the rest does not
# need root.

DEBARCH=${1:?usage: cross-sysroot.sh DEBARCH DIR}
DIR=${2:?usage: cross-sysroot.sh DEBARCH DIR}
DEV_PACKAGES="libgmp-dev libssl-dev libcjson-dev libcurl4-openssl-dev"
FROM_TOOLCHAIN="libc6 libgcc-s1 gcc-12-base libstdc++6"
NEWER_SUITE=trixie

[ -f "$DIR/.complete" ] && exit 0

# closure SUFFIX [LEFT-OUT...]: the packages (named NAME$SUFFIX in apt) that
# the -dev packages need, one per line, without SUFFIX and LEFT-OUT.
closure () {
  suffix=$1
  shift
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances \
    $(for p in $DEV_PACKAGES; do printf '%s%s ' "$p" "$suffix"; done) 2> /dev/null |
    sed -n "s/^\([a-z0-9][a-z0-9.+-]*\)$suffix\$/\1/p" | sort -u |
    grep -vxF "$(printf '%s\n' "$@")"
}

suffix=":$DEBARCH" own_libc=
pkgs=$(closure "$suffix" $FROM_TOOLCHAIN)
if [ -z "$pkgs" ]; then
  echo "cross-sysroot.sh: no $DEBARCH packages in the machine's archive; taking Debian $NEWER_SUITE's"
  sh "$(dirname "$0")/cross-apt.sh" "$DIR.apt" deb "$NEWER_SUITE" "$DEBARCH" || exit 1
  APT_CONFIG="$DIR.apt/apt.conf"
  export APT_CONFIG
  DEV_PACKAGES="$DEV_PACKAGES libc6-dev"
  suffix= own_libc=yes
  pkgs=$(closure "")
fi
if [ -z "$pkgs" ]; then
  echo "cross-sysroot.sh: the archive has no $DEBARCH packages (dpkg --add-architecture $DEBARCH; apt-get update)" >&2
  exit 1
fi
rm -rf "$DIR" && mkdir -p "$DIR/debs" || exit 1
( cd "$DIR/debs" &&
  apt-get download -q $(for p in $pkgs; do printf '%s%s ' "$p" "$suffix"; done) ) \
  > "$DIR/download.log" 2>&1 || {
  echo "cross-sysroot.sh: apt-get download failed for $DEBARCH (see $DIR/download.log)" >&2
  exit 1
}
for deb in "$DIR"/debs/*.deb; do
  dpkg -x "$deb" "$DIR" || exit 1
done
rm -rf "$DIR/debs"
if [ -n "$own_libc" ]; then
  # The dynamic loader is /lib/ld-linux-*.so.1; Debian 13 ships it in /usr/lib.
  [ -e "$DIR/lib" ] || ln -s usr/lib "$DIR/lib"
  touch "$DIR/.own-libc"
fi
touch "$DIR/.complete"
