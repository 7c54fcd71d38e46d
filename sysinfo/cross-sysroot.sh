#!/bin/sh
# cross-sysroot.sh: a sysroot of Debian's GMP, OpenSSL, cJSON and libcurl
# for one foreign architecture, for check-cross.sh.  The packages are
# fetched with `apt-get download` and unpacked with `dpkg -x` into DIR
# instead of being installed as multiarch packages: installing needs the
# foreign libssl3 etc. at exactly the version of the build machine's, which
# the archive does not always have (security updates stop for some
# architectures before others).  The C library and libgcc come from the
# cross toolchain (/usr/TRIPLET), so they are left out.  DIR/.complete marks
# a finished sysroot, which is reused.
#
#   sh sysinfo/cross-sysroot.sh DEBARCH DIR
#
# Needs `dpkg --add-architecture DEBARCH` and `apt-get update` done once,
# as root; the download itself does not need root.

DEBARCH=${1:?usage: cross-sysroot.sh DEBARCH DIR}
DIR=${2:?usage: cross-sysroot.sh DEBARCH DIR}
DEV_PACKAGES="libgmp-dev libssl-dev libcjson-dev libcurl4-openssl-dev"
FROM_TOOLCHAIN="libc6 libgcc-s1 gcc-12-base libstdc++6"

[ -f "$DIR/.complete" ] && exit 0

# closure: the DEBARCH packages the -dev packages need, one per line.
closure () {
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances \
    $(for p in $DEV_PACKAGES; do printf '%s:%s ' "$p" "$DEBARCH"; done) 2> /dev/null |
    sed -n "s/^\([a-z0-9][a-z0-9.+-]*\):$DEBARCH\$/\1/p" | sort -u |
    grep -vxF "$(printf '%s\n' $FROM_TOOLCHAIN)"
}

pkgs=$(closure)
if [ -z "$pkgs" ]; then
  echo "cross-sysroot.sh: the archive has no $DEBARCH packages (dpkg --add-architecture $DEBARCH; apt-get update)" >&2
  exit 1
fi
rm -rf "$DIR" && mkdir -p "$DIR/debs" || exit 1
( cd "$DIR/debs" &&
  apt-get download -q $(for p in $pkgs; do printf '%s:%s ' "$p" "$DEBARCH"; done) ) \
  > "$DIR/download.log" 2>&1 || {
  echo "cross-sysroot.sh: apt-get download failed for $DEBARCH (see $DIR/download.log)" >&2
  exit 1
}
for deb in "$DIR"/debs/*.deb; do
  dpkg -x "$deb" "$DIR" || exit 1
done
rm -rf "$DIR/debs"
touch "$DIR/.complete"
