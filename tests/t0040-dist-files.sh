# t0040-dist-files.sh: `make dist` ships what git tracks (or, in an
# unpacked tarball, its MANIFEST), so nothing stray may be tracked: the
# top level holds only the project's own files and directories (a
# profile, a scratch note or a pid file committed by accident would ship
# in every tarball).
. "$SRCDIR/tests/lib.sh"

if [ -e "$SRCDIR/.git" ] && command -v git > /dev/null; then
  git -C "$SRCDIR" ls-files > files.txt
elif [ -f "$SRCDIR/MANIFEST" ]; then
  cp "$SRCDIR/MANIFEST" files.txt
else
  skip "the files make dist ships (no git checkout and no MANIFEST)"
  exit 0
fi
ALLOWED=" .gitignore .ci COPYING CONTRIBUTING.md MANIFEST Makefile.in README.md bench client \
common configure configure.ac contrib docs engine model scripts server submit suites sysinfo \
tests windows "
stray=
for top in $(cut -d/ -f1 files.txt | sort -u); do
  case "$ALLOWED" in *" $top "*) ;; *) stray="$stray $top" ;; esac
done
check "make dist ships no stray top-level file${stray:+:$stray}" [ -z "$stray" ]
check "none of the scratch files once committed by accident is tracked" \
  sh -c "! grep -Eq '(^|/)(perf\.data|spid|up\.txt)\$' files.txt"
