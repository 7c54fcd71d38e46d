# t0820-docs.sh: the documentation stays complete: every subcommand has
# --help, and every option its --help names is in the man page
# docs/gmpbench.1 and in the bash completion, which loads and completes.
. "$SRCDIR/tests/lib.sh"

MAN="$SRCDIR/docs/gmpbench.1"
COMPLETION="$SRCDIR/contrib/bash-completion/gmpbench"
COMMANDS="run show compare list sysinfo verify submit retract key status"

run_status "$GMPBENCH" --help
check "gmpbench --help lists every command" \
  sh -c "for c in $COMMANDS; do grep -q \"^  \$c \" out.txt || exit 1; done"
for cmd in $COMMANDS; do
  run_status "$GMPBENCH" $cmd --help
  cp out.txt help-$cmd.txt
  check "gmpbench $cmd --help prints its usage" \
    sh -c "[ $status -eq 0 ] && grep -q '^usage: gmpbench $cmd' out.txt"
  # The man page's section of this command: from its .SS line to the next.
  sed -n "/^\\.SS \"gmpbench $cmd\"/,/^\\.S[SH] /p" "$MAN" | sed 's/\\-/-/g' > man-$cmd.txt
  missing=
  for opt in $(grep -o -- '--[a-z][a-z-]*' help-$cmd.txt | sort -u); do
    case $opt in --help) continue ;; esac
    grep -q -- "$opt" man-$cmd.txt || missing="$missing $opt"
  done
  check "every option of '$cmd --help' is in gmpbench.1 ($cmd)${missing:+, missing:$missing}" \
    [ -z "$missing" ]
  missing=
  for opt in $(grep -o -- '--[a-z][a-z-]*' help-$cmd.txt | sort -u); do
    bash -c ". '$COMPLETION'; _gmpbench_options $cmd" | grep -q -- "$opt" || missing="$missing $opt"
  done
  check "every option of '$cmd --help' completes${missing:+, missing:$missing}" [ -z "$missing" ]
done

if command -v groff > /dev/null; then
  check "gmpbench.1 formats without warnings" \
    sh -c "[ -z \"\$(groff -man -Tutf8 -ww -z '$MAN' 2>&1)\" ]"
else
  skip "formatting gmpbench.1 (no groff)"
fi

check "the completion script is valid bash" bash -n "$COMPLETION"
check "it completes commands, formats and suites" \
  bash -c ". '$COMPLETION'
COMP_WORDS=(\"$GMPBENCH\" co); COMP_CWORD=1; _gmpbench; [ \"\${COMPREPLY[*]}\" = compare ] || exit 1
COMP_WORDS=(\"$GMPBENCH\" show --format h); COMP_CWORD=3; _gmpbench; [ \"\${COMPREPLY[*]}\" = html ] || exit 1
COMP_WORDS=(\"$GMPBENCH\" run --suite ba); COMP_CWORD=3; _gmpbench; [ \"\${COMPREPLY[*]}\" = base ]"
