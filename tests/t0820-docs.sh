# t0820-docs.sh: the documentation stays complete: every subcommand has
# --help, every option its --help names is in the man page docs/gmpbench.1
# and in the bash completion (which loads and completes), and every option
# the man page gives a command is in that command's --help; the same both
# ways between gmpbench-server --help and docs/gmpbench-server.8.
. "$SRCDIR/tests/lib.sh"

MAN="$SRCDIR/docs/gmpbench.1"
SERVER_MAN="$SRCDIR/docs/gmpbench-server.8"
COMPLETION="$SRCDIR/contrib/bash-completion/gmpbench"
COMMANDS="run show compare list sysinfo verify submit retract key status"

# mentions FILE OPTION: whether FILE names OPTION as a whole word.
mentions () {
  grep -qE -- "(^|[^-a-zA-Z0-9])$2([^-a-zA-Z0-9]|\$)" "$1"
}

run_status "$GMPBENCH" --help
check "gmpbench --help lists every command" \
  sh -c "for c in $COMMANDS; do grep -q \"^  \$c \" out.txt || exit 1; done"
for cmd in $COMMANDS; do
  run_status "$GMPBENCH" $cmd --help
  cp out.txt help-$cmd.txt
  check "gmpbench $cmd --help prints its usage" \
    sh -c "[ $status -eq 0 ] && grep -q '^usage: gmpbench $cmd' out.txt"
  # The man page's section of this command: from its .SS line to the next.
  sed -n "/^\\.SS \"gmpbench $cmd\"/,/^\\.S[SH] /p" "$MAN" | sed 's/\\-/-/g; s/\\f[BIRP]//g' > man-$cmd.txt
  missing=
  for opt in $(grep -o -- '--[a-z][a-z-]*' help-$cmd.txt | sort -u); do
    case $opt in --help) continue ;; esac
    mentions man-$cmd.txt "$opt" || missing="$missing $opt"
  done
  check "every option of '$cmd --help' is in gmpbench.1 ($cmd)${missing:+, missing:$missing}" \
    [ -z "$missing" ]
  missing=
  for opt in $(grep -oE -- '(^|[^-a-zA-Z0-9])-(-[a-z][a-z-]*|[a-zA-Z])\b' man-$cmd.txt \
                 | grep -oE -- '-(-[a-z][a-z-]*|[a-zA-Z])' | sort -u); do
    mentions help-$cmd.txt "$opt" || missing="$missing $opt"
  done
  check "every option gmpbench.1 gives $cmd is in '$cmd --help'${missing:+, missing:$missing}" \
    [ -z "$missing" ]
  missing=
  for opt in $(grep -o -- '--[a-z][a-z-]*' help-$cmd.txt | sort -u); do
    bash -c ". '$COMPLETION'; _gmpbench_options $cmd" | grep -q -- "$opt" || missing="$missing $opt"
  done
  check "every option of '$cmd --help' completes${missing:+, missing:$missing}" [ -z "$missing" ]
done

if [ -x "$BUILDDIR/gmpbench-server" ]; then
  run_status "$BUILDDIR/gmpbench-server" --help
  cp out.txt help-server.txt
  sed 's/\\-/-/g; s/\\f[BIRP]//g' "$SERVER_MAN" > man-server.txt
  missing=
  for opt in $(grep -o -- '--[a-z][a-z-]*' help-server.txt | sort -u); do
    mentions man-server.txt "$opt" || missing="$missing $opt"
  done
  check "every option of 'gmpbench-server --help' is in gmpbench-server.8${missing:+, missing:$missing}" \
    sh -c "[ $status -eq 0 ] && [ -z '$missing' ]"
  missing=
  for opt in $(grep -o -- '--[a-z][a-z-]*' man-server.txt | sort -u); do
    mentions help-server.txt "$opt" || missing="$missing $opt"
  done
  check "every option in gmpbench-server.8 is in 'gmpbench-server --help'${missing:+, missing:$missing}" \
    [ -z "$missing" ]
  missing=
  for sub in $(sed -n 's/^ *\(Usage:\)\{0,1\} *gmpbench-server \(\(key\|admin\) [a-z|]*\).*/\2/p' help-server.txt | tr ' ' '_'); do
    grep -q "gmpbench-server $(echo $sub | tr '_' ' ')" man-server.txt || missing="$missing $sub"
  done
  check "every form of 'gmpbench-server --help' is in gmpbench-server.8${missing:+, missing:$missing}" \
    [ -z "$missing" ]
else
  skip "gmpbench-server --help against gmpbench-server.8 (no server built)"
fi

if command -v groff > /dev/null; then
  check "gmpbench.1 formats without warnings" \
    sh -c "[ -z \"\$(groff -man -Tutf8 -ww -z '$MAN' 2>&1)\" ]"
  check "gmpbench-server.8 formats without warnings" \
    sh -c "[ -z \"\$(groff -man -Tutf8 -ww -z '$SERVER_MAN' 2>&1)\" ]"
else
  skip "formatting gmpbench.1 and gmpbench-server.8 (no groff)"
fi

check "the completion script is valid bash" bash -n "$COMPLETION"
check "it completes commands, formats and suites" \
  bash -c ". '$COMPLETION'
COMP_WORDS=(\"$GMPBENCH\" co); COMP_CWORD=1; _gmpbench; [ \"\${COMPREPLY[*]}\" = compare ] || exit 1
COMP_WORDS=(\"$GMPBENCH\" show --format h); COMP_CWORD=3; _gmpbench; [ \"\${COMPREPLY[*]}\" = html ] || exit 1
COMP_WORDS=(\"$GMPBENCH\" run --suite ba); COMP_CWORD=3; _gmpbench; [ \"\${COMPREPLY[*]}\" = base ]"
