/* gcrypt_convert.h: libgcrypt's one-time initialisation, and moving
 * numbers between GMP and libgcrypt's MPIs (unsigned big-endian bytes,
 * the format both read and write).  libgcrypt has its own big-number code,
 * so its results are checked against GMP's like OpenSSL's. */
#ifndef GB_GCRYPT_CONVERT_H
#define GB_GCRYPT_CONVERT_H

#include <gcrypt.h>
#include <gmp.h>
#include "engine/bench.h"

/* Initialises libgcrypt once per process (thread-safe), for a program's
 * setup; 0, or -1 with the test skipped in ERR if the library is older
 * than the headers the program was built with. */
int gcrypt_init (struct bench_error *err);

/* A new MPI equal to Z >= 0, or NULL. */
gcry_mpi_t gcrypt_mpi_from_mpz (const mpz_t z);

/* Sets Z to M >= 0; 0, or -1 if libgcrypt could not print it. */
int gcrypt_mpi_to_mpz (mpz_t z, gcry_mpi_t m);

#endif
