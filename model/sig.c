/* sig.c: Ed25519 through EVP_DigestVerify (see sig.h). */
#include "model/sig.h"

#include <openssl/evp.h>
#include "common/util.h"

int
sig_verify (const unsigned char key[SIG_KEY_BYTES], const void *msg, size_t len,
            const unsigned char sig[SIG_BYTES])
{
  EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key (EVP_PKEY_ED25519, NULL, key, SIG_KEY_BYTES);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new ();
  int ok = 0;

  if (pkey && ctx && EVP_DigestVerifyInit (ctx, NULL, NULL, NULL, pkey) == 1)
    ok = EVP_DigestVerify (ctx, sig, SIG_BYTES, msg, len) == 1;
  EVP_MD_CTX_free (ctx);
  EVP_PKEY_free (pkey);
  return ok;
}

void
sig_fingerprint (const unsigned char key[SIG_KEY_BYTES], char out[65])
{
  gb_sha256_hex (key, SIG_KEY_BYTES, out);
}
