#!/bin/sh
# check-cross.sh: `make check-cross`, the proof that gmpbench and its
# machine description work beyond the build machine.
#   - Linux on aarch64, riscv64, ppc64le and s390x: gmpbench is
#     cross-compiled with Debian's cross compilers, out of tree under
#     BUILDROOT/TRIPLET, against Debian's GMP, OpenSSL, cJSON and libcurl of
#     that architecture: multiarch packages where they are installed, else
#     a sysroot of the same packages unpacked by cross-sysroot.sh (for
#     riscv64, which Debian 12 lacks, Debian 13's, C library included).
#     The sysinfo unit tests (the real CPU dumps unpacked once on the
#     build machine) then run under qemu-user, invoked explicitly (binfmt
#     is not assumed), and so does `gmpbench sysinfo`, which must say it is
#     emulated.  On aarch64 several -cpu models check MIDR decoding and SVE
#     detection, and a whole `gmpbench run --quick` must give correct
#     results; on riscv64 two -cpu models must give the V extension right
#     and not contradict Zba and Zbb.  Where the libraries cannot be had for an
#     architecture, its sysinfo sources are only compiled, and only the
#     test that needs the C library alone runs.
#   - Windows: the sysinfo sources, the Windows reader, the spool and the
#     thread engine compile with MinGW-w64 (64 and 32 bit); the test of the
#     Windows parsers and the Windows reader itself (tests/windows-sysinfo.c,
#     with cJSON built from Debian's source package) are built as Windows
#     executables and run under Wine.  Then the whole client: `make
#     dist-windows` (scripts/dist-windows) builds the zip, whose
#     gmpbench.exe runs under Wine: sysinfo, a quick run of the
#     GMPbench-compatible tests with the digests of the build tree's Linux
#     gmpbench, its key under %APPDATA%, verify of both programs' results
#     by both, and uploads to the build tree's gmpbench-server on
#     127.0.0.1, directly and through the spool.  GB_VERSION and
#     GB_BUILDDIR (set by `make check-cross`) name the version and the
#     build tree; DIST_WINDOWS_CACHE keeps the Windows libraries between
#     runs (scripts/dist-windows).
# One PASS/FAIL/SKIP line per check and a final "N passed, N failed, N
# skipped" line; the exit status is 1 when a check failed.
#
#   sh tests/cross/check-cross.sh SRCDIR BUILDROOT
#
# .ci/check-cross installs what this needs on Debian.

SRCDIR=${1:?usage: check-cross.sh SRCDIR BUILDROOT}
BUILDROOT=${2:?usage: check-cross.sh SRCDIR BUILDROOT}
export SRCDIR
mkdir -p "$BUILDROOT" && BUILDROOT=$(cd "$BUILDROOT" && pwd) || exit 1

# TRIPLET:QEMU-NAME:DEBIAN-ARCH
TARGETS="aarch64-linux-gnu:aarch64:arm64 riscv64-linux-gnu:riscv64:riscv64
powerpc64le-linux-gnu:ppc64le:ppc64el s390x-linux-gnu:s390x:s390x"
# A --quick run has taken about 5 minutes under qemu-aarch64 on 2 cores.
QUICK_TIMEOUT=2400

npass=0 nfail=0 nskip=0
pass () { echo "PASS: $*"; npass=$((npass + 1)); }
fail () { echo "FAIL: $*"; nfail=$((nfail + 1)); }
skip () { echo "SKIP: $*"; nskip=$((nskip + 1)); }
# verdict STATUS WHAT: PASS when STATUS is 0.
verdict () { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }

# json_ok FILE EXPR: the Python expression EXPR holds for the document d.
json_ok () {
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2" 2> /dev/null
}

# ---------------------------------------------------------------- building

# configure_for TRIPLET DEBARCH: configures the current directory, unless
# its Makefile is newer than configure.  Sets LIBPATH to the sysroot's
# library directories ("" for multiarch) and QEMU_PREFIX to qemu's -L
# directory (the sysroot when it brings its own C library).  Returns 2
# when there are no libraries for DEBARCH.
configure_for () {
  LIBPATH= QEMU_PREFIX=/usr/$1
  if [ -f "/usr/lib/$1/pkgconfig/gmp.pc" ] && [ -f "/usr/lib/$1/pkgconfig/libcrypto.pc" ] &&
     [ -f "/usr/lib/$1/pkgconfig/libcjson.pc" ] && [ -f "/usr/lib/$1/pkgconfig/libcurl.pc" ]; then
    [ Makefile -nt "$SRCDIR/configure" ] ||
      "$SRCDIR/configure" --host="$1" --disable-server > configure.log 2>&1
    return
  fi
  sr="$BUILDROOT/sysroot-$2"
  sh "$SRCDIR/tests/cross/cross-sysroot.sh" "$2" "$sr" > sysroot.log 2>&1 || return 2
  if [ -f "$sr/.own-libc" ]; then
    QEMU_PREFIX=$sr
    set -- "$1" "$2" "--sysroot=$sr -isystem $sr/usr/include/$1 -isystem $sr/usr/include" \
      "--sysroot=$sr -B$sr/usr/lib/$1/ -L$sr/usr/lib/$1 -Wl,-rpath-link,$sr/usr/lib/$1"
  else
    LIBPATH="$sr/usr/lib/$1:$sr/lib/$1"
    set -- "$1" "$2" "-I$sr/usr/include -I$sr/usr/include/$1" \
      "-L$sr/usr/lib/$1 -Wl,-rpath-link,$LIBPATH"
  fi
  [ Makefile -nt "$SRCDIR/configure" ] && return
  PKG_CONFIG_LIBDIR="$sr/usr/lib/$1/pkgconfig:$sr/usr/share/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$sr" \
    "$SRCDIR/configure" --host="$1" --disable-server CPPFLAGS="$3" LDFLAGS="$4" > configure.log 2>&1
}

# build TRIPLET DEBARCH: configures (once) and builds into
# $BUILDROOT/TRIPLET, which becomes the current directory.
build () {
  mkdir -p "$BUILDROOT/$1" && cd "$BUILDROOT/$1" || return 1
  configure_for "$1" "$2" || return
  make -j2 gmpbench tests/unit-sysinfo tests/unit-sysinfo-sysctl tests/unit-sysinfo-windows \
    tests/unit-sysinfo-dumps > make.log 2>&1
}

# compile_one CC FILE: compiles FILE with CC into nothing, counting
# files in n and failures in bad, messages in $log.  MinGW compilers get
# what windows/sources.mk gives the Windows build.
compile_one () {
  n=$((n + 1))
  case $1 in
    *mingw32-gcc) set -- "$1" "$2" -include "$SRCDIR/windows/compat.h" -I"$SRCDIR/windows/include" -Wno-format ;;
  esac
  cc=$1 file=$2
  shift 2
  "$cc" -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR" -I"$BUILDROOT/cjson-include" "$@" \
    -c -o /dev/null "$file" >> "$log" 2>&1 || bad=$((bad + 1))
}

# compile_only LABEL CC [FILE...]: the sysinfo sources and FILEs (paths
# under SRCDIR) compile cleanly with CC.  build.c needs the target's GMP
# and OpenSSL headers, sysctl_live.c is for macOS and FreeBSD and
# windows.c for Windows, so they are left out unless named.  cJSON's header is the build machine's.
compile_only () {
  label=$1 cc=$2
  shift 2
  mkdir -p "$BUILDROOT/cjson-include" && ln -sfn /usr/include/cjson "$BUILDROOT/cjson-include/cjson"
  log="$BUILDROOT/compile-$label.log"
  : > "$log"
  n=0 bad=0
  for f in "$SRCDIR"/sysinfo/*.c; do
    case $f in */build.c|*/sysctl_live.c|*/windows.c) ;; *) compile_one "$cc" "$f" ;; esac
  done
  named=
  for f in "$@"; do
    compile_one "$cc" "$f"
    named="$named ${f#"$SRCDIR"/}"
  done
  verdict $bad "$label: $n sources compile with $cc, -Wall -Wextra clean (sysinfo/*.c$named; see $log)"
}

# ---------------------------------------------------------------- under qemu

# qrun [QEMU-OPTIONS] PROGRAM ARGS: runs a program of the current target,
# stopped after QRUN_TIMEOUT seconds (default 600).
qrun () {
  [ -n "$LIBPATH" ] && set -- -E "LD_LIBRARY_PATH=$LIBPATH" "$@"
  timeout "${QRUN_TIMEOUT:-600}" "qemu-$QARCH" -L "$QEMU_PREFIX" "$@"
}

# unit_test PROGRAM: one verdict for a unit test program under qemu.
unit_test () {
  qrun "./tests/$1" > "$1.log" 2>&1
  rc=$?
  if grep -q '^SKIP' "$1.log" && ! grep -q '^PASS' "$1.log"; then
    skip "$TRIPLET: $1: $(grep -m1 '^SKIP' "$1.log" | cut -c7-)"
  elif [ $rc -eq 0 ] && ! grep -q '^FAIL' "$1.log"; then
    pass "$TRIPLET: $1 under qemu-$QARCH ($(grep -c '^PASS' "$1.log") checks)"
  else
    fail "$TRIPLET: $1 under qemu-$QARCH (see $PWD/$1.log)"
  fi
}

# expect_emulated ARCH: `gmpbench sysinfo` knows its architecture, that
# it is emulated and that its clock measurement means nothing.
expect_emulated () {
  qrun ./gmpbench sysinfo --format json > sysinfo.json 2> sysinfo.err
  json_ok sysinfo.json "d['cpu']['arch'] == '$1' and d['cpu']['emulated'] is True
    and d['clock']['measured']['valid'] is False and d['build']['gmp']['version']"
  verdict $? "$TRIPLET: gmpbench sysinfo says $1, emulated, clock not valid"
}

# expect_cpu MODEL IDENTITY SVE: gmpbench sysinfo under qemu -cpu MODEL.
expect_cpu () {
  qrun -cpu "$1" ./gmpbench sysinfo --format json > "sysinfo-$1.json" 2> "sysinfo-$1.err"
  json_ok "sysinfo-$1.json" "d['cpu']['identity'] == '$2'
    and d['cpu']['features']['sve'] == ('$3' == 'yes') and d['cpu']['emulated'] is True"
  verdict $? "$TRIPLET -cpu $1: identity $2, SVE $3 (see $PWD/sysinfo-$1.json)"
}

# expect_riscv MODEL WANT: under qemu -cpu MODEL, gmpbench sysinfo reads
# the vector extension right (v is WANT, True or False, from AT_HWCAP:
# sysinfo/riscv_live.c) and does not contradict zba and zbb (WANT or
# unknown: qemu-user 7.2 shows the host's /proc/cpuinfo and has no
# riscv_hwprobe, which would tell them).
expect_riscv () {
  qrun -cpu "$1" ./gmpbench sysinfo --format json > "sysinfo-$1.json" 2> "sysinfo-$1.err"
  json_ok "sysinfo-$1.json" "d['cpu']['arch'] == 'riscv64' and d['cpu']['emulated'] is True
    and d['cpu']['features']['v'] is $2
    and all(d['cpu']['features'].get(x) in (None, $2) for x in ('zba', 'zbb'))"
  verdict $? "$TRIPLET -cpu $1: v $2, zba and zbb $2 or unknown (see $PWD/sysinfo-$1.json)"
}

# quick_run: a whole `gmpbench run --quick`, whose result digests
# gmpbench checks itself (exit status 3 on a wrong result).
quick_run () {
  start=$(date +%s)
  mkdir -p home
  HOME="$PWD/home" QRUN_TIMEOUT=$QUICK_TIMEOUT \
    qrun ./gmpbench run --quick -q -o quick.json > quick.txt 2> quick.err
  rc=$? secs=$(($(date +%s) - start))
  if [ $rc -ne 0 ]; then
    fail "$TRIPLET: gmpbench run --quick exited $rc after ${secs}s (see $PWD/quick.err)"
    return
  fi
  json_ok quick.json "d['run']['quick'] and len(d['results']) >= 100
    and all(len(r['digest']) == 64 for r in d['results'])
    and d['system']['cpu']['emulated'] is True and d['system']['clock']['measured']['valid'] is False"
  verdict $? "$TRIPLET: gmpbench run --quick, every result correct, flagged emulated (${secs}s)"
}

# libc_only: on a target without GMP, OpenSSL and cJSON, the one sysinfo
# test that needs only the C library, in the current directory.
libc_only () {
  mkdir -p tests
  if "$TRIPLET-gcc" -std=gnu11 -Wall -Wextra -Werror -O2 -I"$SRCDIR" -o tests/unit-sysinfo-windows \
       "$SRCDIR/tests/unit-sysinfo-windows.c" "$SRCDIR/sysinfo/win_parse.c" > libc-only.log 2>&1; then
    unit_test unit-sysinfo-windows
  else
    fail "$TRIPLET: unit-sysinfo-windows builds with the C library alone (see $PWD/libc-only.log)"
  fi
}

# unpack_dumps: the real snapshots of ../shared/data/cpu-dumps, unpacked
# once here into $BUILDROOT/dumps/NAME for unit-sysinfo-dumps under every
# qemu (GB_DUMPS_UNPACKED): the test cannot run tar itself under
# qemu-aarch64 7.2, where the forked child of a dynamically linked program
# hangs before it reaches exec.  Without the folder the test skips.
unpack_dumps () {
  src="$SRCDIR/../shared/data/cpu-dumps"
  [ -d "$src" ] || return
  for t in "$src"/*.tar.gz; do
    d="$BUILDROOT/dumps/$(basename "$t" .tar.gz)"
    rm -rf "$d" && mkdir -p "$d" &&
      tar -xzf "$t" -C "$d" --exclude='*/cpuidle' --exclude='*/power' --exclude='*/stats' ||
      { fail "unpack $t (see unit-sysinfo-dumps under each qemu)"; return; }
  done
  GB_DUMPS_UNPACKED="$BUILDROOT/dumps"
  export GB_DUMPS_UNPACKED
}

check_target () {
  TRIPLET=${1%%:*} rest=${1#*:}
  QARCH=${rest%%:*} DEBARCH=${rest#*:}
  if ! command -v "$TRIPLET-gcc" > /dev/null || ! command -v "qemu-$QARCH" > /dev/null; then
    skip "$TRIPLET (no $TRIPLET-gcc or qemu-$QARCH)"
    return
  fi
  build "$TRIPLET" "$DEBARCH"
  case $? in
    0) ;;
    2) skip "$TRIPLET: no $DEBARCH GMP/OpenSSL/cJSON/libcurl packages to be had (see $BUILDROOT/$TRIPLET/sysroot.log)"
       compile_only "$TRIPLET" "$TRIPLET-gcc"
       libc_only
       return ;;
    *) fail "$TRIPLET: configure or build (see $BUILDROOT/$TRIPLET)"
       return ;;
  esac
  for prog in unit-sysinfo unit-sysinfo-sysctl unit-sysinfo-windows unit-sysinfo-dumps; do
    unit_test $prog
  done
  expect_emulated "$QARCH"
  if [ "$QARCH" = riscv64 ]; then
    expect_riscv rv64,v=true,zba=true,zbb=true True
    expect_riscv rv64,v=false,zba=false,zbb=false False
  fi
  if [ "$QARCH" = aarch64 ]; then
    expect_cpu neoverse-n1 arm:0x41:0xd0c:r4p1 no
    expect_cpu a64fx arm:0x46:0x001:r1p0 yes
    expect_cpu cortex-a53 arm:0x41:0xd03:r0p4 no
    expect_cpu cortex-a72 arm:0x41:0xd08:r0p3 no
    quick_run
  fi
}

# ---------------------------------------------------------------- Windows

# The sources of the Windows reader and what it calls, for
# windows-sysinfo.exe: the Linux readers and build.c (GMP, OpenSSL) are
# not linked.
WIN_READER="sysinfo/windows sysinfo/win_parse sysinfo/json sysinfo/arm sysinfo/arm_live sysinfo/x86
sysinfo/x86_cpuid sysinfo/os sysinfo/rootfs model/arm_midr model/x86_models"

# wine_run PROGRAM.exe: runs it under Wine (prefix $dir/wine) into PROGRAM.out.
wine_run () {
  WINEPREFIX="$dir/wine" WINEARCH=win64 WINEDEBUG=-all wine "./$1" > "${1%.exe}.out" 2>> wine.log
}

# win_parsers: unit-sysinfo-windows as a Windows executable, run under
# Wine (where $WINE is set), the live GetLogicalProcessorInformationEx
# buffer included.
win_parsers () {
  x86_64-w64-mingw32-gcc -std=gnu11 -Wall -Wextra -Werror -O2 -I"$SRCDIR" \
    -o unit-sysinfo-windows.exe "$SRCDIR/tests/unit-sysinfo-windows.c" \
    "$SRCDIR/sysinfo/win_parse.c" > build.log 2>&1
  verdict $? "mingw-w64: unit-sysinfo-windows.exe builds"
  [ -n "$WINE" ] || return
  wine_run unit-sysinfo-windows.exe
  rc=$?
  if [ $rc -eq 0 ] && ! grep -q '^FAIL' unit-sysinfo-windows.out && grep -q '^PASS: live:' unit-sysinfo-windows.out; then
    pass "unit-sysinfo-windows.exe under Wine ($(grep -c '^PASS' unit-sysinfo-windows.out) checks, live ones included)"
  else
    fail "unit-sysinfo-windows.exe under Wine (see $dir/unit-sysinfo-windows.out)"
  fi
}

# mingw_cjson: cJSON.c and cjson/cJSON.h, from Debian's source package of
# the build machine's release, in $dir/cjson (Debian has no MinGW cJSON).
mingw_cjson () {
  [ -f cjson/cJSON.c ] && return
  release=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  sh "$SRCDIR/tests/cross/cross-apt.sh" "$dir/apt-src" deb-src "$release" "$(dpkg --print-architecture)" &&
    mkdir -p cjson && ( cd cjson &&
    APT_CONFIG="$dir/apt-src/apt.conf" apt-get source -q --download-only cjson &&
    tar -xzf cjson_*.orig.tar.gz --strip-components=1 --wildcards '*/cJSON.c' '*/cJSON.h' &&
    mkdir -p cjson && cp cJSON.h cjson/ )
}

# win_reader: the Windows reader itself (windows-sysinfo.exe) under Wine:
# Windows with Wine's marker, as many logical CPUs as nproc, the caches the
# Linux reader finds.
win_reader () {
  if ! mingw_cjson > cjson.log 2>&1; then
    skip "windows-sysinfo.exe: no cJSON source package from the mirror (see $dir/cjson.log)"
    return
  fi
  x86_64-w64-mingw32-gcc -O2 -w -c -o cjson/cJSON.o cjson/cJSON.c > build-reader.log 2>&1 &&
    x86_64-w64-mingw32-gcc -std=gnu11 -Wall -Wextra -Werror -O2 -I"$SRCDIR" -Icjson \
      -o windows-sysinfo.exe "$SRCDIR/tests/windows-sysinfo.c" \
      $(for f in $WIN_READER; do printf '%s ' "$SRCDIR/$f.c"; done) cjson/cJSON.o >> build-reader.log 2>&1
  verdict $? "mingw-w64: windows-sysinfo.exe (the Windows reader, cJSON from Debian's source) builds"
  [ -n "$WINE" ] || return
  wine_run windows-sysinfo.exe
  out=windows-sysinfo.out
  json_ok $out "d['os']['family'] == 'Windows' and d['os']['compat_layer'].startswith('Wine ')
    and d['os']['kernel'].startswith('Windows NT ') and d['cpu']['arch'] == 'x86_64'
    and d['cpu']['identity'].startswith('x86:')"
  verdict $? "windows-sysinfo.exe under Wine: Windows, compat layer Wine, CPUID identity (see $dir/$out)"
  json_ok $out "d['cores']['logical'] == $(nproc) and 1 <= d['cores']['physical'] <= d['cores']['logical']"
  verdict $? "windows-sysinfo.exe under Wine: $(nproc) logical CPUs like nproc, physical cores in 1..logical"
  win_caches $out
}

# win_caches OUT: the caches the Windows reader printed in OUT under Wine
# are those the Linux reader finds on the same machine (Wine reads the same
# sysfs): the same levels, kinds, sizes and lines, none where the host
# shows none (a cloud VM may have no cpu*/cache directory at all).
win_caches () {
  if [ ! -x "$GB_BUILDDIR/gmpbench" ]; then
    skip "windows-sysinfo.exe under Wine: its caches against the Linux reader's (no gmpbench in $GB_BUILDDIR)"
    return
  fi
  "$GB_BUILDDIR/gmpbench" sysinfo --format json --no-clock > linux-sysinfo.json 2> linux-sysinfo.err
  python3 -c 'import json, sys
def caches(path):
    return sorted((c["level"], c["type"], c["size"], c["line"])
                  for c in json.load(open(path)).get("caches") or [])
win, linux = caches(sys.argv[1]), caches(sys.argv[2])
print("Windows reader under Wine:", win or "none")
print("Linux reader:", linux or "none")
sys.exit(0 if win == linux else 1)' "$1" linux-sysinfo.json > caches.txt 2>&1
  verdict $? "windows-sysinfo.exe under Wine: the caches the Linux reader finds here (see $dir/caches.txt)"
}

# ---------------------------------------------------------------- the Windows client

# wine_gb ARGS: the zip's gmpbench.exe under Wine, in the prefix $dir/wine,
# with none of the build machine's XDG variables (Wine would hand their
# Unix paths to the Windows program), so %APPDATA% is where it keeps
# everything.
wine_gb () {
  env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u GMPBENCH_SERVER WINEPREFIX="$dir/wine" \
    WINEARCH=win64 WINEDEBUG=-all timeout "${WINE_TIMEOUT:-600}" wine "$client/gmpbench.exe" "$@"
}

# win_dist: `make dist-windows` into $BUILDROOT/windows (its libraries
# cached in DIST_WINDOWS_CACHE when set), the zip unpacked into
# $dir/client.  Returns 1 when there is no gmpbench.exe to run.
win_dist () {
  start=$(date +%s)
  sh "$SRCDIR/scripts/dist-windows" "$SRCDIR" "$BUILDROOT/windows" "$GB_VERSION" > dist-windows.log 2>&1
  rc=$? secs=$(($(date +%s) - start))
  zip="$BUILDROOT/windows/gmpbench-$GB_VERSION-windows-x86_64.zip"
  [ $rc -eq 0 ] && [ -f "$zip" ]
  verdict $? "make dist-windows: $(basename "$zip") built in ${secs}s (see $dir/dist-windows.log)"
  [ -f "$zip" ] || return 1
  client="$dir/client/gmpbench-$GB_VERSION-windows-x86_64"
  rm -rf "$dir/client" && mkdir -p "$dir/client" && unzip -q "$zip" -d "$dir/client" || return 1
  ( cd "$client" && [ -f gmpbench.exe ] && [ -f README.txt ] && [ -f COPYING.txt ] &&
    for l in GMP-COPYING.LESSERv3 OpenSSL-LICENSE curl-COPYING cJSON-LICENSE MinGW-w64-runtime-copyright; do
      [ -s "licenses/$l.txt" ] || exit 1
    done )
  verdict $? "the zip holds gmpbench.exe, README.txt, COPYING.txt and the licences of what is linked in"
  dlls=$(x86_64-w64-mingw32-objdump -p "$client/gmpbench.exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '\n' ' ')
  echo "$dlls" | grep -qi 'gmp\|crypto\|curl\|cjson\|pthread\|gcc'
  verdict $((1 - $?)) "gmpbench.exe imports Windows' DLLs alone ($dlls)"
}

# win_linux_quick: the build machine's gmpbench runs the same quick tests
# into $dir/linux.json, for the digests and for verify; 1 when there is
# none.
win_linux_quick () {
  [ -x "$GB_BUILDDIR/gmpbench" ] || return 1
  mkdir -p linux-home &&
    HOME="$dir/linux-home" XDG_CONFIG_HOME= XDG_DATA_HOME= "$GB_BUILDDIR/gmpbench" run $WIN_QUICK \
      -q -o linux.json > linux-quick.txt 2>&1
}

# win_submit URL FILE...: gmpbench.exe submit, its exit status.
win_submit () {
  url=$1
  shift
  wine_gb submit --server "$url" --retries 0 --yes "$@" > submit.out 2>> submit.err
}

# win_upload: a gmpbench-server of the build tree on 127.0.0.1 takes the
# Windows client's result; with the server down it is queued under
# %APPDATA%\gmpbench\spool and `submit --pending` delivers it later.
win_upload () {
  server="$GB_BUILDDIR/gmpbench-server"
  if [ ! -x "$server" ]; then
    skip "upload from gmpbench.exe (no gmpbench-server in $GB_BUILDDIR: configure without --disable-server)"
    return
  fi
  port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
  url="http://127.0.0.1:$port"
  rm -f results.db*
  "$server" --listen "127.0.0.1:$port" --database "$dir/results.db" --threads 2 > server.log 2>&1 &
  srv=$!
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    curl -sf "$url/healthz" > /dev/null 2>&1 && break
    sleep 0.5
  done
  win_submit "$url" quick.json
  verdict $? "gmpbench.exe submit to gmpbench-server on 127.0.0.1: accepted (see $dir/submit.err, $dir/server.log)"
  wine_gb run --only gmpbench.base.multiply.128 --time-per-test 0.05 -q -o tiny.json \
    --submit --yes --server http://127.0.0.1:9 --retries 0 > tiny.out 2> tiny.err
  rc=$?
  spooled=$(ls "$appdata/gmpbench/spool" 2> /dev/null | grep -c '\.spool$')
  [ $rc -eq 75 ] && [ "$spooled" -ge 1 ]
  verdict $? "gmpbench.exe run --submit, server down: exit 75, queued in %APPDATA%\\gmpbench\\spool ($spooled file; see $dir/tiny.err)"
  wine_gb submit --pending --yes --server "$url" --retries 0 > pending.out 2> pending.err
  rc=$?
  [ $rc -eq 0 ] && [ "$(ls "$appdata/gmpbench/spool" 2> /dev/null | grep -c '\.spool$')" -eq 0 ]
  verdict $? "gmpbench.exe submit --pending delivers the queue and empties it (see $dir/pending.err)"
  n=$(curl -sf "$url/api/v1/results" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["results"]))' 2> /dev/null)
  [ "${n:-0}" -eq 2 ]
  verdict $? "the server lists both uploads of gmpbench.exe (${n:-none})"
  kill "$srv" 2> /dev/null
  wait "$srv" 2> /dev/null
}

# win_client: the whole client under Wine, as a volunteer on Windows runs
# it: sysinfo, a quick run of the GMPbench-compatible tests with the
# digests of the build machine's gmpbench, keys under %APPDATA%, verify
# both ways, and uploads.
WIN_QUICK="--quick --suite base --suite app"
win_client () {
  win_dist || return
  [ -n "$WINE" ] || return
  wine_gb sysinfo --format json > client-sysinfo.json 2> client-sysinfo.err
  json_ok client-sysinfo.json "d['os']['family'] == 'Windows' and d['os']['compat_layer'].startswith('Wine ')
    and d['cpu']['arch'] == 'x86_64' and d['cpu']['native_arch'] == 'x86_64' and d['cpu']['emulated'] is False
    and d['build']['gmp']['library']['linkage'] == 'static or not found' and d['build']['gmp']['fat'] is True"
  verdict $? "gmpbench.exe sysinfo under Wine: Windows, compat layer Wine, native x86_64, a fat GMP linked in (see $dir/client-sysinfo.json)"
  start=$(date +%s)
  wine_gb run $WIN_QUICK -q -o quick.json > quick.txt 2> quick.err
  rc=$? secs=$(($(date +%s) - start))
  json_ok quick.json "len(d['results']) >= 30 and all(len(r['digest']) == 64 for r in d['results'])
    and d['system']['os']['family'] == 'Windows'"
  verdict $((rc + $?)) "gmpbench.exe run $WIN_QUICK under Wine: every result correct (${secs}s; see $dir/quick.err)"
  appdata=$(find "$dir/wine/drive_c/users" -maxdepth 4 -type d -path '*/AppData/Roaming' 2> /dev/null | head -1)
  [ -s "$appdata/gmpbench/key.pem" ]
  verdict $? "gmpbench.exe keeps its key in %APPDATA%\\gmpbench ($appdata/gmpbench/key.pem)"
  wine_gb verify quick.json > verify-own.out 2>&1
  verdict $? "gmpbench.exe verify of its own result: good"
  if win_linux_quick; then
    python3 -c 'import json, sys
w = {r["name"]: r["digest"] for r in json.load(open("quick.json"))["results"]}
l = {r["name"]: r["digest"] for r in json.load(open("linux.json"))["results"]}
sys.exit(0 if w == l and w else 1)' 2> /dev/null
    verdict $? "gmpbench.exe and the Linux gmpbench: the same tests with the same digests"
    wine_gb verify linux.json > verify-linux.out 2>&1
    verdict $? "gmpbench.exe verify of the Linux gmpbench's result: good"
    "$GB_BUILDDIR/gmpbench" verify quick.json > verify-win.out 2>&1
    verdict $? "the Linux gmpbench verify of gmpbench.exe's result: good"
  else
    skip "digests and verify against the Linux gmpbench (none built in $GB_BUILDDIR)"
  fi
  win_upload
}

check_windows () {
  for cc in x86_64-w64-mingw32-gcc i686-w64-mingw32-gcc; do
    if command -v $cc > /dev/null; then
      compile_only "${cc%-gcc}" $cc "$SRCDIR/sysinfo/windows.c" "$SRCDIR/submit/spool.c" \
        "$SRCDIR/engine/threads.c" "$SRCDIR/windows/compat.c" "$SRCDIR/model/arm_midr.c" \
        "$SRCDIR/model/x86_models.c"
    else
      skip "$cc not installed (Debian package mingw-w64)"
    fi
  done
  command -v x86_64-w64-mingw32-gcc > /dev/null || return
  dir="$BUILDROOT/mingw64" && mkdir -p "$dir" && cd "$dir" || return
  WINE=$(command -v wine) || skip "Windows executables under Wine (Debian packages wine and wine64)"
  win_parsers
  win_reader
  win_client
  wine_stop
}

# wine_stop: ends the prefix's wineserver and waits for it, so nothing
# still writes below $dir/wine when the build directory is removed.
wine_stop () {
  [ -n "$WINE" ] || return
  server=$(command -v wineserver || command -v wineserver-stable) || return
  WINEPREFIX="$dir/wine" "$server" -k 2> /dev/null
  WINEPREFIX="$dir/wine" "$server" -w 2> /dev/null
  return 0
}

unpack_dumps
for t in $TARGETS; do
  check_target "$t"
done
rm -rf "$BUILDROOT/dumps"
check_windows
echo "$npass passed, $nfail failed, $nskip skipped"
[ $nfail -eq 0 ]
