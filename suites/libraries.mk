# suites/libraries.mk: the comparison suites (OpenSSL, libgcrypt, Nettle,
# random generators).  FEATURE_DEFS tells the C code which optional
# libraries configure found.
SUITES_SRCS += \
	suites/bn_convert.c \
	suites/gmp_powm.c \
	suites/mirror.c \
	suites/openssl_bn.c \
	suites/registry_libs.c
ifeq ($(HAVE_GCRYPT),yes)
FEATURE_DEFS += -DHAVE_GCRYPT=1
endif
ifeq ($(HAVE_NETTLE),yes)
FEATURE_DEFS += -DHAVE_NETTLE=1
endif
