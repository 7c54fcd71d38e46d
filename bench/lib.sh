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
