# t0330-server-registry.sh: the test registry's identity.  A document
# names the registry it was made with ("registry"); the server accepts its
# own, and refuses another with a 422 that says plainly that client and
# server have different registries and which side to upgrade, which
# `gmpbench submit` shows in one line.  Documents from before registry
# ids (no member) are checked test by test as before.  Documents of the
# previous registry (model/registry.h), and those from before registry ids,
# were measured with the previous definitions of some tests: they are
# accepted against the previous digests and flagged previous-definitions,
# which keeps them out of the aggregates.  Documents of the registry before
# the digests covered a witness of the work are accepted with those digests.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

make_key alice > /dev/null
start_test_server "$PWD/results.db" --key-rate 0

get /healthz > /dev/null
registry=$(field "d['registry']")
version=$(field "d['version']")
check "/healthz names the server's registry (16 hex digits) and version" \
  sh -c "echo '$registry' | grep -Eqx '[0-9a-f]{16}' && [ -n '$version' ]"

# upload NAME [server-doc.py options]: a signed document; prints the status.
upload () {
  name=$1
  shift
  make_doc "$name.json" alice --name "$name" "$@" && post "$name.json" "$(sign "$name.json" alice)"
}

# The digest of gmpbench.base.multiply.128 under the previous definitions.
PREVIOUS_DIGEST=3389bf3477316c5ae374a93bcde61b3986cace1df37c0fb0f96b0f8eb1c719b5
PREVIOUS_REGISTRY=2b9fafb1342435ad

flags () {
  field "','.join(d['flags'])"
}

expect_status "a document without a registry (an older client) is accepted" 201 \
  "$(upload old --drop registry --set "results.0.digest=\"$PREVIOUS_DIGEST\"")"
check "... flagged as measured with the previous definitions" \
  sh -c "echo '$(flags)' | grep -q previous-definitions"
expect_status "a document with the server's registry is accepted" 201 \
  "$(upload same --set "registry=\"$registry\"")"
check "... and not flagged previous-definitions" \
  sh -c "! echo '$(flags)' | grep -q previous-definitions"
expect_status "a document of the previous registry, with its digests, is accepted" 201 \
  "$(upload previous --set "registry=\"$PREVIOUS_REGISTRY\"" \
     --set "results.0.digest=\"$PREVIOUS_DIGEST\"")"
check "... flagged previous-definitions" sh -c "echo '$(flags)' | grep -q previous-definitions"
st=$(upload mixed --set "registry=\"$registry\"" --set "results.0.digest=\"$PREVIOUS_DIGEST\"")
expect_rule "the current registry with a previous digest: 422 digest-mismatch" 422 \
  digest-mismatch "$st"

# The registry with the current definitions and the digests of before
# digests generation 2 (model/registry.h): its documents measured what the
# current ones measure and carry the digests the tests had before they
# covered a witness of the work (model/reference_superseded.c); they are
# accepted with those and not flagged.  The current registry must carry
# the current digests.  The gcd tests hashed the gcd alone then: the same
# digest for 128 and 8192 bits, the digest of the gcd 1 for the largest.
PREVIOUS_DIGESTS_REGISTRY=74fb001f7eeaca50
superseded_gcd () {
  grep '^gmpbench\.base\.' "$SRCDIR/tests/fixtures/server-digests.txt" | awk '{ print NR - 1, $1 }' |
    while read -r i name; do
      case $name in
        gmpbench.base.gcd.128,128|gmpbench.base.gcd.8192,8192)
          d=f609a0fff70acfd2f1abd954212bd04fbf7af38231187a3a2ce7b3142f015ba9 ;;
        gmpbench.base.gcd.512,512)
          d=6d86e9b94fed5a4af8415b63b40da2a5cdead84e01d8e6aba4eddbd6a9215145 ;;
        gmpbench.base.gcd.*)
          d=3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b ;;
        *) continue ;;
      esac
      printf ' --set results.%s.digest="%s"' "$i" "$d"
    done
}
# shellcheck disable=SC2046 # the --set options are words
expect_status "the registry of the previous digests, with its gcd digests, is accepted" 201 \
  "$(upload superseded --base --set "registry=\"$PREVIOUS_DIGESTS_REGISTRY\"" $(superseded_gcd))"
check "... and not flagged previous-definitions" \
  sh -c "! echo '$(flags)' | grep -q previous-definitions"
# shellcheck disable=SC2046
st=$(upload witnessless --base --set "registry=\"$registry\"" $(superseded_gcd))
expect_rule "the current registry with the gcd digests of before: 422 digest-mismatch" 422 \
  digest-mismatch "$st"
st=$(upload current --base --set "registry=\"$PREVIOUS_DIGESTS_REGISTRY\"")
expect_rule "the registry of the previous digests with the current gcd digests: 422" 422 \
  digest-mismatch "$st"

# other_registry NAME VERSION CLIENT SAYS PATTERN: a document of another
# registry from a client of VERSION (an older, a newer one or the same) is
# refused 422 registry-mismatch, and its field and error (field: error)
# match the grep PATTERN, which SAYS describes.
other_registry () {
  st=$(upload "$1" --set 'registry="0123456789abcdef"' --set "client.version=\"$2\"")
  expect_rule "another registry from $3: 422 registry-mismatch" 422 registry-mismatch "$st"
  said=$(field "d['field'] + ': ' + d['error']")
  check "... the error says $4" sh -c "echo '$said' | grep -q '$5'"
}
other_registry older 0.0.1 "an older client" "the registries differ and to upgrade gmpbench" \
  '^registry: client and server have different test registries: upgrade gmpbench'
other_registry newer 999.0.0 "a newer client" "the server must be upgraded" \
  "different test registries: the server ($version) is older than this client (999.0.0) and must be upgraded"
other_registry modified "$version" "a client of the same version" \
  "one side was built from modified sources" \
  "though both are version $version: one was built from modified sources"

st=$(upload upper --set 'registry="0123456789ABCDEF"')
expect_rule "a registry in upper case: 422 format" 422 format "$st"
st=$(upload short --set 'registry="0123"')
expect_rule "a registry of 4 digits: 422 range" 422 range "$st"
st=$(upload number --set 'registry=12345')
expect_rule "a registry that is a number: 422 type" 422 type "$st"
st=$(upload unknown --set 'registry="0123456789abcdef"' --set 'results.0.name="gmpbench.base.multiply.1"')
expect_rule "a different registry is reported before the unknown test it explains" 422 \
  registry-mismatch "$st"

# The real client: its documents carry the server's registry, and a
# refusal is one line on standard error.
run_status "$GMPBENCH" run --only gmpbench.base.multiply.128 --time-per-test 0.05 -q -o r.json
written=$(field "d['registry']" r.json)
check "gmpbench run writes the registry of this build" \
  sh -c "[ $status -eq 0 ] && [ '$written' = '$registry' ]"
run_status "$GMPBENCH" submit r.json --server "$URL" -q --yes
check "... and the server accepts it (status $status$(head -c 400 err.txt | tr '\n' ' '))" \
  sh -c "[ $status -eq 0 ]"
sed "s/$registry/0123456789abcdef/" r.json > other.json
rm -f other.json.sig
run_status "$GMPBENCH" submit other.json --server "$URL" -q --yes
check "a client with another registry: submit fails and says why in one line" \
  sh -c "[ $status -ne 0 ] && grep -c 'different test registries' err.txt | grep -qx 1 \
    && [ \$(grep -c 'registr' err.txt) -eq 1 ]"
