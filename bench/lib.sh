# lib.sh: what the benchmark scripts of bench/ share, sourced first of all
# (. "$(dirname "$0")/lib.sh"): where the source tree is (src), their usage
# message, their options, and the programs they measure.

src=$(cd "$(dirname "$0")/.." && pwd)

# usage: the script's "# usage:" comment and the comment lines indented
# below it (continuation, defaults, options) on stderr; exits 2.
usage () {
  awk '/^# usage: / { sub(/^# /, ""); print; below = 1; next }
       below && /^#  / { sub(/^# /, ""); print; next }
       { below = 0 }' "$0" >&2
  exit 2
}

# options SPEC ARGS...: parses the options at the front of ARGS (getopts)
# by SPEC, words LETTER:NAME (an option taking an argument, stored in the
# variable NAME) and LETTER=NAME (an option alone, which sets NAME to yes);
# an option SPEC lacks is a usage error.  The caller then drops the options
# with shift $((OPTIND - 1)).
options () {
  spec=$1 letters=
  shift
  for word in $spec; do
    case $word in
      ?:*) letters="$letters${word%%:*}:" ;;
      ?=*) letters="$letters${word%%=*}" ;;
      *) echo "lib.sh: bad option spec word: $word" >&2; exit 2 ;;
    esac
  done
  OPTIND=1
  while getopts "$letters" opt; do
    known=
    for word in $spec; do
      case $word in
        "$opt:"*) eval "${word#??}=\$OPTARG"; known=yes ;;
        "$opt="*) eval "${word#??}=yes"; known=yes ;;
      esac
    done
    [ -n "$known" ] || usage
  done
}

# executable FILE OPTION: the absolute path of FILE when it is an
# executable; else a message that OPTION names another, and failure.
executable () {
  [ -f "$1" ] && [ -x "$1" ] || { echo "$1: not an executable (use $2)" >&2; return 1; }
  echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

# built_server BUILDDIR: the absolute path of the build directory's
# gmpbench-server; a message and failure when it is not built.
built_server () {
  [ -x "$1/gmpbench-server" ] || { echo "$1/gmpbench-server: not built (make gmpbench-server)" >&2; return 1; }
  echo "$(cd "$1" && pwd)/gmpbench-server"
}

# official_build OFFICIAL_DIR BINDIR [PROGRAM...]: builds GMPbench 0.2's
# programs (all six by default) from the unpacked OFFICIAL_DIR into BINDIR
# as its runbench does, $CC $CFLAGS prog.c -o prog $LIBS (runbench's
# defaults gcc, "-O3 -fomit-frame-pointer", "-static -lgmp"; -lm for
# all), with their cputime () reading getrusage's user time as released:
# a copy whose cputime reads clock () instead (the process's user and
# system time; the Windows port's does) gets clock () mapped to the user
# time by a header of ours given with -include, which changes nothing in
# a copy that does not call clock ().  Prints the command line; a message
# and failure when a program does not build.
official_build () {
  ob_src=$1 ob_bin=$2
  shift 2
  [ $# -gt 0 ] || set -- multiply divide gcd gcdext rsa pi
  CC=${CC:-gcc}
  CFLAGS=${CFLAGS:--O3 -fomit-frame-pointer}
  LIBS=${LIBS:--static -lgmp}
  mkdir -p "$ob_bin" || return 1
  cat > "$ob_bin/gb_user_time.h" << 'EOH'
/* gb_user_time.h (bench/lib.sh): clock () as user CPU time in
   CLOCKS_PER_SEC units, from getrusage, GMPbench's own cputime source. */
#include <time.h>
#include <sys/resource.h>
static __attribute__ ((unused)) clock_t
gb_user_clock (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return (clock_t) ((double) ru.ru_utime.tv_sec * CLOCKS_PER_SEC
                    + (double) ru.ru_utime.tv_usec * CLOCKS_PER_SEC / 1e6);
}
#define clock() gb_user_clock ()
EOH
  echo "building GMPbench's programs: $CC $CFLAGS prog.c -o prog $LIBS -lm (cputime: getrusage user time)"
  cp "$ob_src"/*.c "$ob_src"/timing.h "$ob_bin/" || return 1
  for ob_p in "$@"; do
    # shellcheck disable=SC2086
    (cd "$ob_bin" && $CC $CFLAGS -include gb_user_time.h $ob_p.c -o $ob_p $LIBS -lm) \
      || { echo "building $ob_p failed" >&2; return 1; }
  done
}

# pin_prefix CPU: the command prefix that runs a command on CPU alone
# (taskset -c CPU), nothing for CPU "none", the first CPU this process may
# use for CPU "first"; a message and failure when taskset is missing or
# CPU is no CPU this process may use.
pin_prefix () {
  case $1 in
    none) return 0 ;;
    first) set -- "$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')" || return 1 ;;
  esac
  command -v taskset > /dev/null || { echo "taskset is not installed (util-linux); use -c none" >&2; return 1; }
  taskset -c "$1" true 2> /dev/null || { echo "CPU $1: not a CPU this process may use" >&2; return 1; }
  echo "taskset -c $1"
}

# runbench_tests OFFICIAL PATTERN OUT: the tests of the runbench of the
# unpacked GMPbench 0.2 at OFFICIAL whose names (gmpbench.CATEGORY.
# PROGRAM.ARGS) match the shell PATTERN, one line a test in OUT:
# CATEGORY PROGRAM WEIGHT ARGS.  Of runbench it reads (and sets in this
# shell) its variable assignments of test lists and weights only, copied
# to OUT.lists.  Returns 1 when runbench has none or no test matches
# (said).
runbench_tests () {
  grep -E '^[a-z]+_(args|weight|tests)=' "$1/runbench" > "$3.lists" || return 1
  . "$3.lists"
  : > "$3"
  for rt_cat in base app; do
    eval rt_progs=\$${rt_cat}_tests
    for rt_p in $rt_progs; do
      eval rt_args=\$${rt_p}_args rt_weight=\$${rt_p}_weight
      for rt_a in $rt_args; do
        case "gmpbench.$rt_cat.$rt_p.$rt_a" in
          $2) echo "$rt_cat $rt_p $rt_weight $rt_a" >> "$3" ;;
        esac
      done
    done
  done
  [ -s "$3" ] || { echo "no test matches $2" >&2; return 1; }
}
