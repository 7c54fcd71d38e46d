# suites/: the benchmark programs (GMP's, OpenSSL's, libgcrypt's, Nettle's,
# the random generators) and their library helpers; programs.c lists them
# by name.  FEATURE_DEFS tells the C code which optional libraries
# configure found.
SUITES_SRCS += \
	suites/dsa_math.c \
	suites/gmp_dh_dsa.c \
	suites/gmp_divide.c \
	suites/gmp_ext.c \
	suites/gmp_gcd.c \
	suites/gmp_keygen.c \
	suites/gmp_mulm.c \
	suites/gmp_multiply.c \
	suites/gmp_pi.c \
	suites/gmp_pi_mpz.c \
	suites/gmp_powm.c \
	suites/gmp_rsa.c \
	suites/openssl_bn.c \
	suites/openssl_dh_dsa.c \
	suites/openssl_keygen.c \
	suites/openssl_rsa.c \
	suites/pkcs1.c \
	suites/programs.c \
	suites/rng.c \
	suites/rng_hw.c \
	suites/rng_sanity.c
ifeq ($(HAVE_GCRYPT),yes)
FEATURE_DEFS += -DHAVE_GCRYPT=1
SUITES_SRCS += suites/gcrypt_convert.c suites/gcrypt_keygen.c suites/gcrypt_mpi.c \
	suites/gcrypt_rsa.c
endif
ifeq ($(HAVE_NETTLE),yes)
FEATURE_DEFS += -DHAVE_NETTLE=1
SUITES_SRCS += suites/nettle_keygen.c suites/nettle_rsa.c
endif
CHECK_PROGRAMS += tests/unit-compare
CHECK_PROGRAMS += tests/unit-compare-rng
CHECK_PROGRAMS += tests/unit-compare-threads
