#!/bin/sh
# flag-orders.sh: how often does the server flag honest results?
#
# Uploads the signed result documents FILE... (each with its signature in
# FILE.sig, as `gmpbench run --output FILE` writes them) to a fresh
# gmpbench-server on 127.0.0.1, one after another, each as from a
# network of its own (X-Forwarded-For under --trust-proxy, documentation
# addresses 2001:db8:N::1: a source each, docs/protocol.md, "Sources"),
# as volunteers' results come, and reads every
# result's flags after each upload: a flag can come and go as the
# category's peers arrive (docs/protocol.md, "Plausibility").  Does so in
# the order given and in N-1 shuffled orders (seeded 1 to N-1, so a run
# repeats), and prints per order which results were flagged at some
# point, why, and how many remained flagged at the end.  Feed it repeated
# honest runs of one machine, busy and quiet: every flag it prints is a
# false positive.
#
# usage: bench/flag-orders.sh [-n ORDERS] [-s SERVER] FILE...

. "$(dirname "$0")/lib.sh"
orders=4 server=./gmpbench-server
options 'n:orders s:server' "$@"
shift $((OPTIND - 1))
server=$(executable "$server" -s) || exit 1
[ $# -ge 6 ] || { echo "give at least 6 documents: a result needs 5 peers to be judged" >&2; exit 2; }
for f in "$@"; do
  [ -r "$f" ] && [ -r "$f.sig" ] || { echo "$f: no such document, or no $f.sig beside it" >&2; exit 1; }
done
command -v python3 > /dev/null || { echo "python3: not found (reads the server's JSON)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
pid=
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; rm -rf "$tmp"' EXIT INT TERM

# judge FILE...: uploads FILE... in order to a fresh server; writes
# "ever NAME: NOTES" for each result flagged at some point and
# "end N" for the number flagged after the last upload.
judge () {
  rm -f "$tmp/r.db"*
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$server" --listen "127.0.0.1:$port" --database "$tmp/r.db" --key-rate 0 --aggregate-ttl 0 \
    --trust-proxy 2> "$tmp/server.log" &
  pid=$!
  url=http://127.0.0.1:$port
  tries=0
  until curl -sf "$url/healthz" > /dev/null 2>&1; do
    tries=$((tries + 1))
    [ $tries -lt 50 ] || { echo "the server did not start:" >&2; cat "$tmp/server.log" >&2; exit 1; }
    sleep 0.1
  done
  : > "$tmp/seen"
  source=0
  for f in "$@"; do
    source=$((source + 1))
    code=$(curl -sS -o "$tmp/resp.json" -w '%{http_code}' -X POST --data-binary "@$f" \
      -H 'Content-Type: application/json' -H "Gmpbench-Signature: $(cat "$f.sig")" \
      -H "X-Forwarded-For: $(printf '2001:db8:%x::1' $source)" "$url/api/v1/results")
    [ "$code" = 201 ] || { echo "$f: upload answered $code: $(cat "$tmp/resp.json")" >&2; exit 1; }
    echo "$f $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/resp.json")" \
      >> "$tmp/ids"
    curl -sS "$url/api/v1/results?flagged=1&limit=100" -o "$tmp/list.json"
    python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["flags"]:
        print(r["id"], "|", " / ".join(r["flag_notes"]))' "$tmp/list.json" >> "$tmp/seen"
  done
  python3 - "$tmp/ids" "$tmp/seen" "$tmp/list.json" <<'EOP'
import json, sys
ids = dict(line.split()[::-1] for line in open(sys.argv[1]))
first = {}
for line in open(sys.argv[2]):
    first.setdefault(line.split(" | ")[0], line.split(" | ", 1)[1].strip())
for i, notes in first.items():
    print(f"  ever {ids[i]}: {notes}")
print(f"  end {sum(1 for r in json.load(open(sys.argv[3]))['results'] if r['flags'])}")
EOP
  kill "$pid"
  wait "$pid" 2> /dev/null
  pid=
  rm -f "$tmp/ids"
}

total=0 clean=0 seed=0
while [ $seed -lt "$orders" ]; do
  files=$(python3 -c 'import random, sys
f = sys.argv[2:]
if int(sys.argv[1]):
    random.Random(int(sys.argv[1])).shuffle(f)
print(" ".join(f))' $seed "$@")
  judge $files > "$tmp/order" || exit 1
  n=$(grep -c '^  ever ' "$tmp/order")
  echo "order $seed: $n of $# flagged at some point, $(sed -n 's/^  end //p' "$tmp/order") at the end"
  grep '^  ever ' "$tmp/order"
  total=$((total + n))
  [ "$n" -eq 0 ] && clean=$((clean + 1))
  seed=$((seed + 1))
done
echo "$total flaggings in $orders orders of $# results; $clean orders with none"
