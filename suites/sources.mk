# suites/: the benchmark programs (GMP's, OpenSSL's, libgcrypt's, Nettle's,
# the random generators) and their library helpers; programs.def lists
# them by name.  FEATURE_DEFS tells the C code which optional libraries
# configure found.
# Every C file here is compiled, so that a new program is its file and its
# row in programs.def; the files of an optional library (gcrypt_*.c,
# nettle_*.c) only when configure found it.
suites_files = $(patsubst $(srcdir)/%,%,$(wildcard $(srcdir)/suites/$(1)))
SUITES_SRCS += $(filter-out suites/gcrypt_% suites/nettle_%,$(call suites_files,*.c))
ifeq ($(HAVE_GCRYPT),yes)
FEATURE_DEFS += -DHAVE_GCRYPT=1
SUITES_SRCS += $(call suites_files,gcrypt_*.c)
endif
ifeq ($(HAVE_NETTLE),yes)
FEATURE_DEFS += -DHAVE_NETTLE=1
SUITES_SRCS += $(call suites_files,nettle_*.c)
endif
