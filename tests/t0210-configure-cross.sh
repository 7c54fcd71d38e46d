# t0210-configure-cross.sh: configure --host picks the pkg-config of a
# cross build: HOST-pkg-config when there is one; else the build
# machine's, pointed at /usr/lib/HOST/pkgconfig so that it cannot hand out
# the build machine's paths; and a PKG_CONFIG_LIBDIR the user set is kept.
# The cross compiler is the native one under a made-up host name, so this
# runs on any machine that builds gmpbench.
. "$SRCDIR/tests/lib.sh"

HOST=gbtest-linux-gnu
mkdir -p bin
# A HOST-pkg-config that answers like the real one, with a marker flag.
cat > "bin/$HOST-pkg-config" <<'EOF'
#!/bin/sh
case " $* " in
  *" --cflags "*) echo "$(pkg-config "$@") -DGB_HOST_PKG_CONFIG" ;;
  *) exec pkg-config "$@" ;;
esac
EOF
chmod +x "bin/$HOST-pkg-config"

# configure_in DIR [ENV...]: configures out of tree in DIR, output in DIR/log.
configure_in () {
  dir=$1
  shift
  mkdir -p "$dir"
  (cd "$dir" && env "$@" "$SRCDIR/configure" --host="$HOST" --disable-server CC="${CC:-cc}" > log 2>&1)
}

configure_in with-tool PATH="$PWD/bin:$PATH"
check "configure --host uses HOST-pkg-config from the PATH" \
  grep -q '^GMP_CFLAGS = .*-DGB_HOST_PKG_CONFIG' with-tool/Makefile

configure_in without-tool
check "without HOST-pkg-config, the build's pkg-config reads /usr/lib/HOST/pkgconfig" \
  grep -q "PKG_CONFIG_LIBDIR=/usr/lib/$HOST/pkgconfig" without-tool/log
check "... and finds nothing there, so GMP comes from the compiler's own search path" \
  grep -q '^checking for gmp... yes (-lgmp)' without-tool/log

configure_in user-libdir PKG_CONFIG_LIBDIR=/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig
check "a PKG_CONFIG_LIBDIR set by the user is kept" \
  sh -c "! grep -q 'cross build with' user-libdir/log && [ -f user-libdir/Makefile ]"
