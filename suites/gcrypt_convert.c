/* gcrypt_convert.c: libgcrypt initialisation and GMP <-> MPI (see
 * gcrypt_convert.h). */
#include "suites/gcrypt_convert.h"

#include <pthread.h>
#include <stdlib.h>
#include "common/util.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_status;

static void
init_library (void)
{
  if (!gcry_check_version (GCRYPT_VERSION))
    {
      init_status = -1;
      return;
    }
  /* Keys are test data: no secure memory, no warnings about it. */
  gcry_control (GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
}

int
gcrypt_init (struct bench_error *err)
{
  pthread_once (&init_once, init_library);
  if (init_status != 0)
    bench_skip (err, "the libgcrypt library is older than its headers (%s)", GCRYPT_VERSION);
  return init_status;
}

gcry_mpi_t
gcrypt_mpi_from_mpz (const mpz_t z)
{
  size_t len = (mpz_sizeinbase (z, 2) + 7) / 8, written = 0;
  unsigned char *buf = gb_xmalloc (len ? len : 1);
  gcry_mpi_t m = NULL;
  if (mpz_sgn (z) != 0)
    mpz_export (buf, &written, 1, 1, 1, 0, z);
  if (gcry_mpi_scan (&m, GCRYMPI_FMT_USG, buf, written, NULL) != 0)
    m = NULL;
  free (buf);
  return m;
}

int
gcrypt_mpi_to_mpz (mpz_t z, gcry_mpi_t m)
{
  unsigned char *buf = NULL;
  size_t len = 0;
  if (gcry_mpi_aprint (GCRYMPI_FMT_USG, &buf, &len, m) != 0)
    return -1;
  mpz_import (z, len, 1, 1, 1, 0, buf);
  gcry_free (buf);
  return 0;
}
