/* programs.h: the benchmark programs of this build, and the registry's
 * tests they can run.
 *
 * A program is the code of one kind of measurement (engine/bench.h: setup,
 * run, check, teardown), e.g. gmp.rsa.sign; the registry's rows
 * (model/registry.h) say which program runs each test with which sizes.
 * programs.c lists the programs by name.  A new program is one file
 * defining its bench_ops, declared here, and one row in that list; the
 * libraries configure did not find (libgcrypt, Nettle) leave theirs out,
 * and their tests are then not runnable here.
 */
#ifndef GB_PROGRAMS_H
#define GB_PROGRAMS_H

#include <stddef.h>
#include "engine/bench.h"

/* The program that runs T, or NULL when this build has none. */
const struct bench_ops *program_ops (const struct bench_test *t);

/* The registry's tests this build can run, in run order. */
size_t runnable_count (void);
const struct bench_test *runnable_test (size_t i);
/* The --suite name of runnable test I. */
const char *runnable_suite_name (size_t i);
/* The runnable test named NAME, or NULL. */
const struct bench_test *runnable_find (const char *name);

/* The programs, one file each (or a few sharing their code). */
extern const struct bench_ops gmp_multiply_ops, gmp_divide_ops, gmp_gcd_ops, gmp_gcdext_ops,
  gmp_gcdext_both_ops;
extern const struct bench_ops gmp_rsa_sign_ops, gmp_rsa_sign_sec_ops, gmp_rsa_verify_ops;
extern const struct bench_ops gmp_rsa_keygen_ops, gmp_pi_ops, gmp_pi_mpz_ops;
extern const struct bench_ops gmp_sqrt_ops, gmp_root_ops, gmp_invert_ops, gmp_fac_ops,
  gmp_prime_ops;
extern const struct bench_ops gmp_powm_ops, gmp_powm_sec_ops, gmp_mulm_ops;
extern const struct bench_ops gmp_dh_ops, gmp_dh_sec_ops, gmp_dsa_sign_ops,
  gmp_dsa_sign_sec_ops, gmp_dsa_verify_ops;
extern const struct bench_ops openssl_square_ops, openssl_multiply_ops, openssl_divide_ops,
  openssl_gcd_ops, openssl_invert_ops, openssl_powm_ops, openssl_powm_sec_ops;
extern const struct bench_ops openssl_rsa_sign_ops, openssl_rsa_verify_ops,
  openssl_rsa_keygen_ops;
extern const struct bench_ops openssl_dh_ops, openssl_dsa_sign_ops, openssl_dsa_verify_ops;
extern const struct bench_ops gcrypt_rsa_sign_ops, gcrypt_rsa_sign_noblind_ops,
  gcrypt_rsa_verify_ops, gcrypt_rsa_keygen_ops, gcrypt_mulm_ops, gcrypt_powm_ops;
extern const struct bench_ops nettle_rsa_sign_ops, nettle_rsa_sign_tr_ops,
  nettle_rsa_verify_ops, nettle_rsa_keygen_ops;
extern const struct bench_ops rng_gmp_ops, rng_openssl_ops, rng_os_ops, rng_instruction_ops;

#endif
