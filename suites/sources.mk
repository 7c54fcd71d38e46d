# suites/: the timing harness, the scoring formula and the benchmark tests.
SUITES_SRCS += \
	suites/check.c \
	suites/gmp_divide.c \
	suites/gmp_ext.c \
	suites/gmp_gcd.c \
	suites/gmp_multiply.c \
	suites/gmp_pi.c \
	suites/gmp_rsa.c \
	suites/harness.c \
	suites/operand.c \
	suites/reference.c \
	suites/registry.c \
	suites/rsa_key.c \
	suites/rsa_key_table.c \
	suites/runner.c \
	suites/score.c \
	suites/stats.c
