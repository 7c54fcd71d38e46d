/* openssl_pkey.c: OpenSSL keys from GMP's numbers (see openssl_pkey.h). */
#include "suites/openssl_pkey.h"

#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include "engine/bn_convert.h"

EVP_PKEY *
openssl_pkey_from (const char *type, const char *group, int selection, int n,
                   const char *const names[], const mpz_srcptr values[])
{
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new ();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name (NULL, type, NULL);
  EVP_PKEY *pkey = NULL;
  BIGNUM *bn[OPENSSL_PKEY_MAX_PARAMS] = { NULL };
  int ok = bld && ctx && n <= OPENSSL_PKEY_MAX_PARAMS
    && (!group || OSSL_PARAM_BLD_push_utf8_string (bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0));
  for (int i = 0; i < n && ok; i++)
    ok = (bn[i] = bn_from_mpz (values[i])) != NULL && OSSL_PARAM_BLD_push_BN (bld, names[i], bn[i]);
  ok = ok && (params = OSSL_PARAM_BLD_to_param (bld)) != NULL
    && EVP_PKEY_fromdata_init (ctx) > 0
    && EVP_PKEY_fromdata (ctx, &pkey, selection, params) > 0;
  if (!ok)
    {
      EVP_PKEY_free (pkey);
      pkey = NULL;
    }
  OSSL_PARAM_free (params);
  OSSL_PARAM_BLD_free (bld);
  EVP_PKEY_CTX_free (ctx);
  for (int i = 0; i < OPENSSL_PKEY_MAX_PARAMS; i++)
    BN_free (bn[i]);
  return pkey;
}
