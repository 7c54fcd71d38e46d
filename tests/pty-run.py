#!/usr/bin/env python3
# pty-run.py: runs a command on a pseudo-terminal, as a volunteer at a
# terminal would, and answers its question.
#
#   pty-run.py ANSWER OUTFILE COMMAND [ARG]...
#
# COMMAND's standard input, output and error are the terminal.  When its
# output shows "[y/N]", ANSWER and a newline are typed (once); ANSWER "-"
# types nothing and closes the terminal's input instead (end of file).
# Everything COMMAND writes goes to OUTFILE; the exit status is
# COMMAND's (1 after 120 s, the command killed).
import os, pty, select, signal, sys, time

answer, outfile, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out = b""
asked = False
deadline = time.time() + 120
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.5)
    if not ready:
        if os.waitpid(pid, os.WNOHANG)[0]:
            break
        continue
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
    if not asked and b"[y/N]" in out:
        asked = True
        os.write(fd, b"\x04" if answer == "-" else answer.encode() + b"\n")
else:
    os.kill(pid, signal.SIGKILL)
with open(outfile, "wb") as f:
    f.write(out)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode")
         else (status >> 8))
