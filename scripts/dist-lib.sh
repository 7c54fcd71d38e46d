# dist-lib.sh: what scripts/dist-windows and scripts/dist-linux share,
# sourced by them: Debian source packages fetched, checked and unpacked,
# and GMP (fat), OpenSSL's libcrypto and cJSON built static from them
# into a prefix, each marked done by a stamp naming its Debian version.
#
# The sourcing script sets SRCDIR, W (the cache: apt state, sources,
# builds), P (the prefix, under W), TAG (its name, for messages), SOURCES
# (the source packages), and for the builds CC and AR (the C compiler and
# archiver of the target, CC possibly with options), GMP_ARGS (configure
# arguments for the target, e.g. --host), OPENSSL_ARGS (Configure's
# target and its options) and OPENSSL_CC (a compiler for Configure, when
# its target does not name it); JOBS is make's -j.

die () {
  echo "$TAG: $*" >&2
  exit 1
}

# need PROGRAM DEBIAN-PACKAGE
need () {
  command -v "$1" > /dev/null || die "$1 not found: install the Debian package $2 (apt-get install $2)"
}

# stamp NAME: the stamp file of the source package NAME, "" before it was
# fetched (its version is that of the .dsc in $W/src).
stamp () {
  dsc=$(ls "$W/src/$1"_*.dsc 2> /dev/null | head -1)
  [ -n "$dsc" ] && echo "$P/.built-$(basename "$dsc" .dsc)"
}

built () {
  built_stamp=$(stamp "$1")
  [ -n "$built_stamp" ] && [ -f "$built_stamp" ]
}

# ---------------------------------------------------------------- sources

# fetch_sources: the source packages not yet built, downloaded (and checked
# by apt) and unpacked with their Debian patches applied.
fetch_sources () {
  missing=
  for s in $SOURCES; do
    built "$s" || missing="$missing $s"
  done
  [ -n "$missing" ] || return 0
  need apt-get apt
  need dpkg-source dpkg-dev
  [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
    die "no Debian archive keyring: install the Debian package debian-archive-keyring"
  release=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  sh "$SRCDIR/tests/cross/cross-apt.sh" "$W/apt" deb-src "$release" "$(dpkg --print-architecture)" ||
    die "cannot read the source package lists of Debian $release (see $W/apt/update.log)"
  mkdir -p "$W/src" || exit 1
  for s in $missing; do
    echo "$TAG: fetching Debian's source package $s"
    ( cd "$W/src" && APT_CONFIG="$W/apt/apt.conf" apt-get source -q --download-only "$s" ) \
      > "$W/src/$s.fetch.log" 2>&1 ||
      die "Debian $release has no source package $s to be had (see $W/src/$s.fetch.log)"
    dsc=$(ls "$W/src/$s"_*.dsc | head -1)
    dir="$W/src/$s"
    rm -rf "$dir"
    # The .dsc's own signature is a maintainer's, whose key is not on the
    # machine; apt has checked it against the signed Sources index.
    dpkg-source -x "$dsc" "$dir" > "$W/src/$s.unpack.log" 2>&1 ||
      die "cannot unpack $dsc (see $W/src/$s.unpack.log)"
  done
}

# ---------------------------------------------------------------- libraries

# step NAME LOG COMMAND...: runs COMMAND niced with its output in LOG.
step () {
  what=$1 log=$2
  shift 2
  nice "$@" > "$log" 2>&1 || die "$what failed (see $log)"
}

# gmp_doc_stub DIR: Debian's +dfsg source of GMP in DIR has no manual, and
# its patch drops doc/ from configure.ac, which is applied when Debian runs
# autoreconf; without automake here, an empty doc/Makefile.in stands in for
# the manual's.
gmp_doc_stub () {
  [ -f "$1/doc/Makefile.in" ] ||
    { mkdir -p "$1/doc" && printf '.DEFAULT: ;\nall:\n' > "$1/doc/Makefile.in"; }
}

build_gmp () {
  b="$W/build-gmp"
  rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 1
  gmp_doc_stub "$W/src/gmp" || exit 1
  # shellcheck disable=SC2086
  step "GMP configure" configure.log "$W/src/gmp/configure" $GMP_ARGS CC="$CC" --prefix="$P" \
    --enable-fat --enable-static --disable-shared
  step "GMP build" make.log make $JOBS
  step "GMP install" install.log make install
}

# OpenSSL's libcrypto alone, with its assembler, no modules or engines.
build_openssl () {
  b="$W/build-openssl"
  rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 1
  # Configure takes the compiler from CC in the environment (OPENSSL_CC,
  # for a compiler with options) or from its target and prefix.
  # shellcheck disable=SC2086
  ( if [ -n "${OPENSSL_CC:-}" ]; then CC=$OPENSSL_CC; export CC; fi
    step "OpenSSL configure" configure.log perl "$W/src/openssl/Configure" $OPENSSL_ARGS \
      --prefix="$P" --libdir=lib no-shared no-module no-engine no-dso no-tests ) || exit 1
  step "OpenSSL build" make.log make $JOBS build_generated
  # libcrypto.pc depends on libssl.a too, which is not wanted (-o).
  step "OpenSSL build" make-lib.log make $JOBS -o libssl.a libcrypto.a libcrypto.pc
  mkdir -p "$P/include/openssl" &&
    cp "$W/src/openssl/include/openssl/"*.h include/openssl/*.h "$P/include/openssl/" &&
    cp libcrypto.a "$P/lib/" && cp libcrypto.pc "$P/lib/pkgconfig/" || die "OpenSSL install failed"
}

build_cjson () {
  b="$W/build-cjson"
  rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 1
  step "cJSON build" build.log $CC -std=c89 -O2 -c -o cJSON.o "$W/src/cjson/cJSON.c"
  step "cJSON build" ar.log $AR rcs libcjson.a cJSON.o
  version=$(sed -n 's/^Version: *\([0-9.]*\).*/\1/p' "$(ls "$W/src/cjson"_*.dsc | head -1)")
  mkdir -p "$P/include/cjson" && cp "$W/src/cjson/cJSON.h" "$P/include/cjson/" &&
    cp libcjson.a "$P/lib/" &&
    printf 'prefix=%s\nName: libcjson\nDescription: cJSON\nVersion: %s\nCflags: -I${prefix}/include\nLibs: -L${prefix}/lib -lcjson\n' \
      "$P" "$version" > "$P/lib/pkgconfig/libcjson.pc" || die "cJSON install failed"
}

# build_libraries: fetches what is missing and builds every one of
# SOURCES not yet built (build_NAME), timing each.
build_libraries () {
  mkdir -p "$W" "$P/lib/pkgconfig" "$P/include" || exit 1
  fetch_sources
  for s in $SOURCES; do
    built "$s" && continue
    echo "$TAG: building $s (log in $W/build-$s)"
    start=$(date +%s)
    "build_$s"
    touch "$(stamp "$s")"
    echo "$TAG: $s built in $(($(date +%s) - start))s"
  done
}

# version_of NAME: the Debian version of the source package NAME.
version_of () {
  basename "$(ls "$W/src/$1"_*.dsc | head -1)" .dsc | sed 's/^[^_]*_//'
}
