# t0500-keys.sh: the signing identity: created once with mode 0600, shown,
# named, exported and imported; broken key files are errors, never a new
# identity.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

KEY="$XDG_CONFIG_HOME/gmpbench/key.pem"

run_status "$GMPBENCH" status
check "status before any key says there is none yet" grep -q '^identity *none yet' out.txt
run_status "$GMPBENCH" key show
check "key show creates the key on first use" \
  sh -c "[ $status -eq 0 ] && [ -f '$KEY' ] && grep -q 'created now' out.txt"
check "the key file has mode 0600" sh -c "ls -l '$KEY' | grep -q '^-rw-------'"
fp=$(sed -n 's/^fingerprint  *//p' out.txt)
pub=$(sed -n 's/^public key  *//p' out.txt)
check "the fingerprint is 64 hex digits" sh -c "echo '$fp' | grep -Eq '^[0-9a-f]{64}$'"
check "the private key is not printed by show" sh -c "! grep -q PRIVATE out.txt"
if command -v openssl > /dev/null; then
  ofp=$(openssl pkey -in "$KEY" -pubout -outform DER | tail -c 32 | sha256sum | cut -d' ' -f1)
  check "the fingerprint is the SHA-256 of the raw public key (openssl)" [ "$ofp" = "$fp" ]
else
  skip "fingerprint against openssl (no openssl command)"
fi
run_status "$GMPBENCH" key
check "key again shows the same identity, creating nothing" \
  sh -c "[ $status -eq 0 ] && grep -q '$fp' out.txt && ! grep -q 'created now' out.txt"

run_status "$GMPBENCH" key --name "ACME Labs"
check "--name sets the display name" sh -c "[ $status -eq 0 ] && grep -q '^name  *ACME Labs' out.txt"
run_status "$GMPBENCH" status
check "status shows the fingerprint and the name" grep -q "$fp (ACME Labs)" out.txt

run_status "$GMPBENCH" key export exported.pem
check "export writes the private key to a 0600 file" \
  sh -c "[ $status -eq 0 ] && grep -q 'BEGIN PRIVATE KEY' exported.pem && ls -l exported.pem | grep -q '^-rw-------'"
run_status "$GMPBENCH" key export exported.pem
check_fails "export does not overwrite an existing file" [ "$status" -eq 0 ]

# Another machine: import the exported key, get the same identity.
(
  HOME="$TEST_TMP/other" XDG_CONFIG_HOME="$TEST_TMP/other/config"
  mkdir -p "$XDG_CONFIG_HOME"
  export HOME XDG_CONFIG_HOME
  "$GMPBENCH" key import exported.pem > other.txt 2>&1
)
check "import on another machine gives the same fingerprint" grep -q "$fp" other.txt
if command -v openssl > /dev/null && openssl genpkey -algorithm ed25519 -out ossl.pem 2> /dev/null; then
  run_status "$GMPBENCH" key import ossl.pem
  check "import refuses to replace a different key without --force" \
    sh -c "[ $status -eq 1 ] && grep -q -- '--force' err.txt"
  run_status "$GMPBENCH" key
  check "the refused import left the identity alone" grep -q "$fp" out.txt
else
  skip "import of an openssl-made key (no openssl command)"
fi

chmod 644 "$KEY"
run_status "$GMPBENCH" key
check "a key readable by others is an error naming the file and the fix" \
  sh -c "[ $status -eq 1 ] && grep -q 'chmod 600' err.txt && [ \$(wc -l < err.txt) -eq 1 ]"
chmod 600 "$KEY"
cp "$KEY" saved.pem
echo 'not a key' > "$KEY"
run_status "$GMPBENCH" key
check "a corrupt key is an error, not a new identity" \
  sh -c "[ $status -eq 1 ] && grep -q 'not an unencrypted PEM private key' err.txt && grep -q 'not a key' '$KEY'"
cp saved.pem "$KEY"
run_status "$GMPBENCH" key --key "$TEST_TMP/missing/dir/key.pem"
check "--key in a missing directory is an error naming it" \
  sh -c "[ $status -eq 1 ] && grep -q 'missing/dir/key.pem' err.txt && [ ! -d '$TEST_TMP/missing' ]"
run_status env HOME= XDG_CONFIG_HOME= "$GMPBENCH" key
check "no HOME and no XDG_CONFIG_HOME is a clear error" \
  sh -c "[ $status -eq 1 ] && grep -q 'set HOME or XDG_CONFIG_HOME' err.txt"
run_status "$GMPBENCH" key frobnicate
check "an unknown key action is a usage error" [ "$status" -eq 2 ]
