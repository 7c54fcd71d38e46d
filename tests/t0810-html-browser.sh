# t0810-html-browser.sh: the HTML report in a real browser (headless
# Chromium): it renders without console errors (a Content-Security-Policy
# violation would be one), hostile strings stay text, the charts are in the
# DOM, and screenshots are kept in $BUILDDIR/tests/artifacts/ for people.
. "$SRCDIR/tests/lib.sh"

if ! find_chromium; then
  skip "the HTML report in a browser (no chromium)"
  exit 0
fi

# browser ARGS...: headless Chromium with a throwaway profile and no network
# chatter; stdout in dom.txt, stderr in console.txt.
browser () {
  profile=$(mktemp -d "$TEST_TMP/chromium.XXXXXX")
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --user-data-dir="$profile" "$@" > dom.txt 2> console.txt
}

"$GMPBENCH" run -q --only 'gmpbench.base.gcd.*' --only 'openssl.base.gcd.*' \
  --only 'gmpbench.base.multiply.*' --only 'openssl.base.multiply.*' --only 'rng.*' \
  --time-per-test 0.03 -o r.json > /dev/null 2>&1
check "a small run for the page exits 0" test -s r.json
python3 "$SRCDIR/tests/report-hostile.py" r.json hostile.json
"$GMPBENCH" show --format html r.json > report.html
"$GMPBENCH" show --format html hostile.json > hostile.html

browser --enable-logging=stderr --v=0 --dump-dom "file://$TEST_TMP/report.html"
check "the page renders in Chromium" grep -q '</html>' dom.txt
check "with no console message (no CSP violation, no error)" \
  sh -c "! grep -q ':CONSOLE' console.txt"
check "the charts are in the DOM" sh -c "[ \$(grep -o '<svg' dom.txt | wc -l) -ge 5 ]"

browser --enable-logging=stderr --v=0 --dump-dom "file://$TEST_TMP/hostile.html"
check "the hostile page renders with no console message" \
  sh -c "grep -q '</html>' dom.txt && ! grep -q ':CONSOLE' console.txt"
check "no hostile string became an element" python3 "$SRCDIR/tests/dom-inert.py" dom.txt
check "and it shows as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' dom.txt

browser --screenshot="$ARTIFACTS/t0810-report.png" --window-size=1200,2400 \
  "file://$TEST_TMP/report.html"
check "a screenshot of the page is kept in tests/artifacts" \
  sh -c "[ \$(wc -c < '$ARTIFACTS/t0810-report.png') -gt 50000 ]"
browser --screenshot="$ARTIFACTS/t0810-hostile.png" --window-size=1200,1400 \
  "file://$TEST_TMP/hostile.html"
check "a screenshot of the hostile page is kept in tests/artifacts" \
  test -s "$ARTIFACTS/t0810-hostile.png"
cp report.html "$ARTIFACTS/t0810-report.html"
