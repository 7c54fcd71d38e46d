# t0390-server-systemd.sh: contrib/systemd/gmpbench-server.service as
# systemd reads it: `systemd-analyze verify` finds nothing to say about
# it (its executable replaced by the one built here, which verify looks
# for), `systemd-analyze security` rates its exposure 2.0 or lower, and
# its ExecStart holds options this server accepts.  Skipped where
# systemd-analyze is not installed.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

UNIT="$SRCDIR/contrib/systemd/gmpbench-server.service"
if ! command -v systemd-analyze > /dev/null 2>&1; then
  skip "the systemd unit (systemd-analyze is not installed)"
  exit 0
fi
sed "s|/usr/local/bin/gmpbench-server|$SERVER|" "$UNIT" > gmpbench-server.service

# Documentation=man: is left unchecked, as the man page is not installed here.
run_status systemd-analyze verify --man=no "$PWD/gmpbench-server.service"
check "systemd-analyze verify passes the unit, and says nothing ($(head -c 300 err.txt))" \
  sh -c "[ $status -eq 0 ] && [ ! -s err.txt ]"
grep -q '^ProtectSystem=strict$' "$UNIT" && grep -q '^NoNewPrivileges=yes$' "$UNIT" &&
  grep -q '^DynamicUser=yes$' "$UNIT" && grep -q '^StateDirectory=gmpbench$' "$UNIT"
check "it runs as a dynamic user with a state directory, ProtectSystem=strict, NoNewPrivileges" \
  [ $? -eq 0 ]

if systemd-analyze security --help 2>&1 | grep -q -e '--offline'; then
  systemd-analyze security --offline=true "$PWD/gmpbench-server.service" > security.txt 2>&1
  level=$(sed -n 's/.*Overall exposure level for gmpbench-server.service: \([0-9.]*\).*/\1/p' \
    security.txt)
  check "systemd-analyze security rates its exposure at most 2.0 (${level:-none})" \
    $PY -c "import sys; sys.exit(not ('$level' and float('$level') <= 2.0))"
else
  skip "the unit's exposure (this systemd-analyze has no security --offline)"
fi

# The options of ExecStart (its continuation lines joined, the state
# directory's specifier made a path here) start a server.
options=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$UNIT" | tr -d '\\\n' |
  sed -e 's/^ExecStart=[^ ]*//' -e "s|%S/gmpbench|$PWD|g" -e 's/--listen [^ ]*//' | tr -s ' ')
# shellcheck disable=SC2086
start_server "$PWD/results.db" $options
check "the server starts with the unit's options ($options)" [ -n "$SRV_PID" ]
[ -n "$SRV_PID" ] && stop_server
