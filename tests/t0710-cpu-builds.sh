# t0710-cpu-builds.sh: the CPU page answers "this CPU, distribution GMP
# against native GMP" (issue 19, server/web/web_cpu_builds.c): with results of
# two GMP build kinds, a section shows both kinds' node medians side by
# side, each kind's count, and the native build's ratio to the
# distribution's; a CPU with one kind has no such section.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

make_key alice > /dev/null
start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0

CPU='x86:AuthenticAMD:family=25:model=97:stepping=2'
ONE='x86:AuthenticAMD:family=25:model=33:stepping=0'

# upload NAME IDENTITY KIND SCALE: a gmpbench.base result of that GMP build
# kind, every ops/s and score times SCALE; prints the status.
upload () {
  make_doc "$1.json" alice --name "$1" --identity "$2" --base --scale "$4" \
    --set 'system.cpu.name="AMD Ryzen 9 7950X 16-Core Processor"' \
    --set "system.build.gmp.build=\"$3\"" && post "$1.json" "$(sign "$1.json" alice)"
}

ok=0
for x in d1:distribution:1 d2:distribution:1.01 d3:distribution:0.99 n1:native:1.2 n2:native:1.21 \
  o1:distribution:1; do
  name=${x%%:*} rest=${x#*:}
  id=$CPU
  [ "$name" = o1 ] && id=$ONE
  [ "$(upload "$name" "$id" "${rest%%:*}" "${rest#*:}")" = 201 ] && ok=$((ok + 1))
done
check "six results upload (three distribution builds and two native on one CPU, one elsewhere)" [ $ok = 6 ]

status=$(curl -sS -o page.html -w '%{http_code}' "$URL/cpu?cpu=$CPU")
check "the CPU page has a section by GMP build kind, the distribution build first, with counts" \
  sh -c "[ $status = 200 ] && grep -q '<h2 id=\"by-build-kind\">By GMP build kind</h2>' page.html \
    && grep -q 'distribution (3)</th><th class=\"num\" scope=\"col\">native (2)</th><th class=\"num\" scope=\"col\">native / distribution</th>' page.html"
row=$(sed -n 's|.*<td class="test depth1">gmpbench.base</td>\(.*\)</tr>.*|\1|p' page.html | head -1)
check "... a node's medians side by side and the native build's ratio to the distribution's" \
  $PY -c "
import re, sys
cells = re.findall(r'<td class=\"num\" data-label=\"([^\"]*)\">([^<]*)</td>', sys.argv[1])
labels = [c[0] for c in cells]
assert labels == ['distribution', 'native', 'native / distribution'], cells
dist, native, ratio = (float(c[1]) for c in cells)
assert abs(native / dist - 1.205) < 0.002 and ratio == 1.205, cells
" "$row"
check "... every node of the compatible hierarchy, and none of the others" \
  sh -c "grep -q '<td class=\"test depth2\">gmpbench.base.gcdext</td>' page.html \
    && ! grep -q '<td class=\"test depth[0-9]\">openssl' page.html"
curl -sS -o page.html "$URL/cpu?cpu=$ONE"
check "a CPU with results of one build kind has no such section" \
  sh -c "grep -q 'matching result' page.html && ! grep -q 'by-build-kind' page.html"
