/* reference_previous.c: the reference digests of the previous registry
 * (definitions generation 1, registry 2b9fafb1342435ad) where they differ
 * from reference.c's: the tests whose operands changed with generation 2
 * (the compatible multiply, divide, gcd and gcdext tests, which now draw
 * GMPbench's own operands, and the OpenSSL tests that mirror them).  The
 * server checks the documents it still accepts from that registry against
 * these.  Frozen: taken once from reference.c as generation 1 left it. */
#include "model/reference.h"

#include <string.h>
#include "common/util.h"

static const struct
{
  const char *name;
  const char *digest;
} previous[] = {
  { "gmpbench.base.divide.131072,65536",
    "a441822d0a5991d2c88e7ebcf34068ebc42bf71054bab8de651f2e77d575275a" },
  { "gmpbench.base.divide.16777216,262144",
    "04408324215f887109a39c6b57ef376a31f1148a39777bc2cdf98ddce5dead85" },
  { "gmpbench.base.divide.8192,128",
    "fd45ec91fdabcc052f991457837659689bac6d40b13b103c9b9664daf32bf4cc" },
  { "gmpbench.base.divide.8192,32",
    "7f807f1cee177da242dc2174ce168941c94c92c0582d003dffb70e7704db54c1" },
  { "gmpbench.base.divide.8192,4096",
    "0f7ba1ebb45474c91a2b4c9b051b100b0ca1f93a96a04378a4b9ec141645a43b" },
  { "gmpbench.base.divide.8192,64",
    "3e54adb1d6b6167ad4f41156223d88c552229cf55a0d2fe0fcdcba18b34b4bbf" },
  { "gmpbench.base.divide.8192,8064",
    "0396e56d7cca11a5b9103dddca1ab1e17146ff33b54741a8bd215057c2cb9c6c" },
  { "gmpbench.base.divide.8388608,4194304",
    "2280ed2d8327abe442bf2e89ae76799da7fdc3a930eff2c49a71a8455b795f54" },
  { "gmpbench.base.gcd.128,128",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "gmpbench.base.gcd.512,512",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "gmpbench.base.gcd.8192,8192",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "gmpbench.base.gcdext.1048576,1048576",
    "193d0bfe6b4e68216a17cc956131db765447d3de15579f8712c56f2ec81f397c" },
  { "gmpbench.base.gcdext.128,128",
    "4177e5a79db35f1e6e273b5c75c0416c0de3d0937b81bfb4506489df6e0b02b1" },
  { "gmpbench.base.gcdext.131072,131072",
    "49e0c3e118b323bf6624a3ff1a55063498eb36be50e6089420e96501afaa795d" },
  { "gmpbench.base.gcdext.512,512",
    "bfb2a09a0c2041643e92d46e4f0940b603940a91d7b188a642e45be6c6f1b3c3" },
  { "gmpbench.base.gcdext.8192,8192",
    "51d317bb7e84f0ebb6bbfcb409a494f5a72c370665a7ea64a8ce7d8c421f6ae8" },
  { "gmpbench.base.multiply.128",
    "3389bf3477316c5ae374a93bcde61b3986cace1df37c0fb0f96b0f8eb1c719b5" },
  { "gmpbench.base.multiply.128,128",
    "ec969c210482466c21ba0f71b90cdef4578ef687dc2932dbd51bb1acd8af6223" },
  { "gmpbench.base.multiply.131072",
    "e97ae6ed88a83a21b8a77bd4d623f24ccc87bdbce677da8a85d180673a68811c" },
  { "gmpbench.base.multiply.131072,131072",
    "ddef8e62fb6d386b0bd814aa52767135bb8c70570390a85f7251e049c1b50d62" },
  { "gmpbench.base.multiply.15000,10000",
    "af8093c7bfc945f49397bbc77318e0f8e77a1c087a9e828c65624e566844592b" },
  { "gmpbench.base.multiply.16777216,262144",
    "27fe87497c751b360c44f2deb97d643c1ce5fdb80bc2561456fb1b8516678383" },
  { "gmpbench.base.multiply.16777216,512",
    "5555d2311d6ae75e87a626ba8b3e04ea84107b051027a47d67480b93c2ff4ad7" },
  { "gmpbench.base.multiply.20000,10000",
    "adedb3943d006d4faf7c57099a6b548cae70f23b4d88268849e1f7155f55108a" },
  { "gmpbench.base.multiply.2097152",
    "a61654308172d3f7cc18a4ea81a5166931f62c4538f3aa24a28922fbfc96d13a" },
  { "gmpbench.base.multiply.2097152,2097152",
    "d08a89c9fba2e8da07b07c2bcd85be613cfb655e70e013be8311510bafa6ac16" },
  { "gmpbench.base.multiply.30000,10000",
    "e1d331988ca110c203d6bd1720a48bd9690fd335af84d4fcbd7dd81c1db649bb" },
  { "gmpbench.base.multiply.512",
    "351894b8efd6d2633dffaf2940b5ab8650fbe16a8a3c1a15544385142b48b5b5" },
  { "gmpbench.base.multiply.512,512",
    "b4041938b75c394cc3f9761259598ae0c28164e6107376244a94e742d204dcd5" },
  { "gmpbench.base.multiply.8192",
    "4693c96a9dfd4dfa1e85ff9982e833a9967fbd1d3d45e6e75da715ebc60907f4" },
  { "gmpbench.base.multiply.8192,8192",
    "49592481c8e6d9217dcf6f7e46bb6418ce5d8166c367f561a210689707a4b267" },
  { "openssl.base.divide.131072,65536",
    "a441822d0a5991d2c88e7ebcf34068ebc42bf71054bab8de651f2e77d575275a" },
  { "openssl.base.divide.16777216,262144",
    "04408324215f887109a39c6b57ef376a31f1148a39777bc2cdf98ddce5dead85" },
  { "openssl.base.divide.8192,128",
    "fd45ec91fdabcc052f991457837659689bac6d40b13b103c9b9664daf32bf4cc" },
  { "openssl.base.divide.8192,32",
    "7f807f1cee177da242dc2174ce168941c94c92c0582d003dffb70e7704db54c1" },
  { "openssl.base.divide.8192,4096",
    "0f7ba1ebb45474c91a2b4c9b051b100b0ca1f93a96a04378a4b9ec141645a43b" },
  { "openssl.base.divide.8192,64",
    "3e54adb1d6b6167ad4f41156223d88c552229cf55a0d2fe0fcdcba18b34b4bbf" },
  { "openssl.base.divide.8192,8064",
    "0396e56d7cca11a5b9103dddca1ab1e17146ff33b54741a8bd215057c2cb9c6c" },
  { "openssl.base.gcd.128,128",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "openssl.base.gcd.512,512",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "openssl.base.gcd.8192,8192",
    "3529e43060694f80de1d32222fab163a53fb784d047aca9144811ad4bd34ee2b" },
  { "openssl.base.multiply.128",
    "3389bf3477316c5ae374a93bcde61b3986cace1df37c0fb0f96b0f8eb1c719b5" },
  { "openssl.base.multiply.128,128",
    "ec969c210482466c21ba0f71b90cdef4578ef687dc2932dbd51bb1acd8af6223" },
  { "openssl.base.multiply.131072",
    "e97ae6ed88a83a21b8a77bd4d623f24ccc87bdbce677da8a85d180673a68811c" },
  { "openssl.base.multiply.131072,131072",
    "ddef8e62fb6d386b0bd814aa52767135bb8c70570390a85f7251e049c1b50d62" },
  { "openssl.base.multiply.15000,10000",
    "af8093c7bfc945f49397bbc77318e0f8e77a1c087a9e828c65624e566844592b" },
  { "openssl.base.multiply.16777216,262144",
    "27fe87497c751b360c44f2deb97d643c1ce5fdb80bc2561456fb1b8516678383" },
  { "openssl.base.multiply.16777216,512",
    "5555d2311d6ae75e87a626ba8b3e04ea84107b051027a47d67480b93c2ff4ad7" },
  { "openssl.base.multiply.20000,10000",
    "adedb3943d006d4faf7c57099a6b548cae70f23b4d88268849e1f7155f55108a" },
  { "openssl.base.multiply.2097152",
    "a61654308172d3f7cc18a4ea81a5166931f62c4538f3aa24a28922fbfc96d13a" },
  { "openssl.base.multiply.2097152,2097152",
    "d08a89c9fba2e8da07b07c2bcd85be613cfb655e70e013be8311510bafa6ac16" },
  { "openssl.base.multiply.30000,10000",
    "e1d331988ca110c203d6bd1720a48bd9690fd335af84d4fcbd7dd81c1db649bb" },
  { "openssl.base.multiply.512",
    "351894b8efd6d2633dffaf2940b5ab8650fbe16a8a3c1a15544385142b48b5b5" },
  { "openssl.base.multiply.512,512",
    "b4041938b75c394cc3f9761259598ae0c28164e6107376244a94e742d204dcd5" },
  { "openssl.base.multiply.8192",
    "4693c96a9dfd4dfa1e85ff9982e833a9967fbd1d3d45e6e75da715ebc60907f4" },
  { "openssl.base.multiply.8192,8192",
    "49592481c8e6d9217dcf6f7e46bb6418ce5d8166c367f561a210689707a4b267" },
};

const char *
reference_previous_digest (const char *test_name)
{
  size_t lo = 0, hi = GB_ARRAY_SIZE (previous);
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = strcmp (test_name, previous[mid].name);
      if (c == 0)
        return previous[mid].digest;
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return NULL;
}
