/* operand.h: deterministic operands, the same bits on every platform.
 *
 * The 39 GMPbench-compatible tests draw exactly GMPbench 0.2's operands:
 * GMP's Mersenne Twister (gmp_randinit_mt, which is what GMPbench's
 * gmp_randinit_default selects) left at its default seed, and
 * mpz_urandomb, so that an A-bit operand is uniform in [0, 2^A) with its
 * top bit random.  Their running times depend on the data (a 128-bit gcd
 * varies by up to 20% from one random pair to another), so the same
 * numbers are the only way to measure what GMPbench measures.  GMP keeps
 * that sequence the same across versions and word sizes;
 * tests/unit-operand pins it.
 *
 * Every other operand comes from SplitMix64 (Steele, Lea and Flood, 2014) seeded from
 * the fixed string GB_OPERAND_SEED, the test's dotted name and a stream
 * number.  SplitMix64 is defined on 64-bit words with wrap-around
 * arithmetic only, so it gives the same sequence on every compiler, word
 * size and endianness, and unlike gmp_randinit_default its output does not
 * depend on the GMP version.  Words are assembled into numbers least
 * significant word first.  docs/timing.md documents this; tests/unit-operand
 * pins known vectors.
 */
#ifndef GB_OPERAND_H
#define GB_OPERAND_H

#include <stdint.h>
#include <gmp.h>

#define GB_OPERAND_SEED "gmpbench operands v1"

struct gb_rng
{
  uint64_t state;
};

/* GMPbench's generator for STREAM: stream 0 is GMPbench's own sequence
 * (the default seed); stream i > 0, for the copies of a --threads run, is
 * seeded with i.  Free it with gmp_randclear. */
void gb_gmpbench_randinit (gmp_randstate_t rs, unsigned stream);

void gb_rng_init (struct gb_rng *r, const char *name, unsigned stream);
uint64_t gb_rng_next (struct gb_rng *r);

/* A random number of exactly BITS bits (the top bit is set). */
void gb_rng_mpz (mpz_t z, struct gb_rng *r, unsigned long bits);

/* A random number in [0, N), N > 0. */
void gb_rng_mpz_below (mpz_t z, struct gb_rng *r, const mpz_t n);

/* A random prime of exactly BITS bits with its two top bits set, so that
 * the product of two such primes has exactly 2*BITS bits.  If E is non-zero
 * the prime is also chosen so that gcd(E, p-1) = 1. */
void gb_rng_prime (mpz_t p, struct gb_rng *r, unsigned long bits, unsigned long e);

#endif
