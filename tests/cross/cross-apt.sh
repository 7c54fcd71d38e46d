#!/bin/sh
# cross-apt.sh: a private apt state in DIR for check-cross.sh, holding the
# package lists of one Debian release and architecture (Debian 13's
# riscv64 port, which Debian 12 lacks) or its sources (cJSON's, for the
# MinGW build), fetched from the mirror the machine's own apt uses.  The
# machine's apt configuration and package lists are left alone, and root
# is not needed.  Once this succeeded, `APT_CONFIG=DIR/apt.conf apt-get
# download ...`, `apt-get source --download-only ...` and `apt-cache ...`
# work on that release alone.
#
#   sh tests/cross/cross-apt.sh DIR deb|deb-src SUITE ARCH
#
# CROSS_MIRROR overrides the mirror (default: the first Debian archive in
# /etc/apt/sources.list*, else http://deb.debian.org/debian).

DIR=${1:?usage: cross-apt.sh DIR deb|deb-src SUITE ARCH}
TYPE=${2:?usage: cross-apt.sh DIR deb|deb-src SUITE ARCH}
SUITE=${3:?usage: cross-apt.sh DIR deb|deb-src SUITE ARCH}
ARCH=${4:?usage: cross-apt.sh DIR deb|deb-src SUITE ARCH}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# The Debian archive the machine's apt uses (not debian-security).
mirror () {
  if [ -n "${CROSS_MIRROR:-}" ]; then
    echo "$CROSS_MIRROR"
    return
  fi
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
        2> /dev/null | grep -v '^[[:space:]]*#' | grep -o 'https\?://[^[:space:]]*/debian/\?\([[:space:]]\|$\)' |
        head -1 | tr -d '[:space:]')
  echo "${m:-http://deb.debian.org/debian}"
}

mkdir -p "$DIR/lists/partial" "$DIR/archives/partial" "$DIR/preferences.d" || exit 1
: > "$DIR/status"
echo "$TYPE [arch=$ARCH signed-by=$KEYRING] $(mirror) $SUITE main" > "$DIR/sources.list"
cat > "$DIR/apt.conf" << EOF
Dir::Etc::SourceList "$DIR/sources.list";
Dir::Etc::SourceParts "$DIR/sources.list.d";
Dir::Etc::Preferences "$DIR/preferences";
Dir::Etc::PreferencesParts "$DIR/preferences.d";
Dir::State "$DIR";
Dir::State::Lists "$DIR/lists";
Dir::State::status "$DIR/status";
Dir::Cache "$DIR";
Dir::Cache::Archives "$DIR/archives";
APT::Architecture "$ARCH";
APT::Architectures { "$ARCH"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
EOF
APT_CONFIG="$DIR/apt.conf" apt-get update -q > "$DIR/update.log" 2>&1 &&
  ! grep -q '^E:\|^W: Failed to fetch' "$DIR/update.log" || {
  echo "cross-apt.sh: apt-get update of $SUITE ($TYPE, $ARCH) failed (see $DIR/update.log)" >&2
  exit 1
}
