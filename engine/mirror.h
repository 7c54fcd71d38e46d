/* mirror.h: the operands of GMP's tests, for the other libraries.
 *
 * A comparison is only meaningful on the same numbers, and a result can
 * only be checked against GMP's if GMP computed it from the same inputs.
 * These functions draw operands exactly as the GMP test named NAME draws
 * them (operand.h: same generator, same draws in the same order), so
 * openssl.base.multiply.8192,8192 multiplies the very numbers that
 * gmpbench.base.multiply.8192,8192 multiplies, and both produce the same
 * digest.  Each function initialises its outputs. */
#ifndef GB_MIRROR_H
#define GB_MIRROR_H

#include <gmp.h>

/* The operands of gmpbench.base.{multiply,divide,gcd,gcdext}.A[,B], which
 * are GMPbench's (operand.h): X of up to A bits; Y of up to B bits, or X
 * itself when B is 0 (a square).  The GMP tests draw theirs here too. */
void mirror_gmpbench_operands (unsigned stream, long a, long b, mpz_t x, mpz_t y);

/* ext.invert.BITS: an odd modulus M of BITS bits and X < M prime to it. */
void mirror_invert (const char *name, unsigned stream, long bits,
                    mpz_t x, mpz_t m);

/* ext.powm.BITS: an odd modulus M of BITS bits, a base X < M and an
 * exponent E of BITS bits. */
void mirror_powm (const char *name, unsigned stream, long bits,
                  mpz_t x, mpz_t e, mpz_t m);

#endif
