/* reference_superseded.c: the digests the tests of the current registry
 * had before their digests covered the work (issue 14): the gcd tests
 * then hashed the gcd alone (nearly always 1 or another small number, the
 * same for several sizes), GMP's RSA key generation a fixed text, and
 * OpenSSL's DSA signing the messages alone; now the gcd tests add their
 * witness, key generation the stream's first key, DSA signing the public
 * key (docs/timing.md).  The timed operations did not change, so neither
 * did the registry: the server still accepts these digests from the
 * clients that compute them (model/validate.c), and a client never
 * computes one in place of the other, as they hash different things.
 * Frozen: taken once from reference.c as it was before the change. */
#include "model/reference.h"

#include "common/util.h"

static const struct reference_entry superseded[] = {
  { "ext.rsa.keygen.1024",
    "2867098bc6130cc18381ef5ce362a476f8c100d4df50e50e714aab0a1883083a" },
  { "ext.rsa.keygen.2048",
    "1a698c4afe57588dae1ddf14e55abeb6e843f943e380af202f9423752b46dc12" },
  { "ext.rsa.keygen.3072",
    "78602bc936cf5f1c4617a1b2fa234d40f78931847f209ec096443ff89802a65a" },
  { "ext.rsa.keygen.4096",
    "27f900d7346539b468373c4360172f2141ea66dc69bb2bd10e6657d9b995cff9" },
  { "gmpbench.base.gcd.1048576,1048576",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "gmpbench.base.gcd.128,128",
    "f609a0fff70acfd2f1abd954212bd04fbf7af38231187a3a2ce7b3142f015ba9" },
  { "gmpbench.base.gcd.131072,131072",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "gmpbench.base.gcd.512,512",
    "6d86e9b94fed5a4af8415b63b40da2a5cdead84e01d8e6aba4eddbd6a9215145" },
  { "gmpbench.base.gcd.8192,8192",
    "f609a0fff70acfd2f1abd954212bd04fbf7af38231187a3a2ce7b3142f015ba9" },
  { "openssl.base.gcd.128,128",
    "f609a0fff70acfd2f1abd954212bd04fbf7af38231187a3a2ce7b3142f015ba9" },
  { "openssl.base.gcd.131072,131072",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "openssl.base.gcd.512,512",
    "6d86e9b94fed5a4af8415b63b40da2a5cdead84e01d8e6aba4eddbd6a9215145" },
  { "openssl.base.gcd.8192,8192",
    "f609a0fff70acfd2f1abd954212bd04fbf7af38231187a3a2ce7b3142f015ba9" },
  { "openssl.dsa.sign.1024",
    "10824547ba1757f4565376ea936123d3525e0703a80ad02b074c3ca669217179" },
  { "openssl.dsa.sign.2048",
    "96c498db91adc0a45ab32646f043a88271a0021db509d517f2f092e1badb492f" },
  { "openssl.dsa.sign.3072",
    "96c498db91adc0a45ab32646f043a88271a0021db509d517f2f092e1badb492f" },
};

const char *
reference_superseded_digest (const char *test_name)
{
  return reference_lookup (superseded, GB_ARRAY_SIZE (superseded), test_name);
}
