# engine/: what runs any benchmark program: the timing harness and its
# estimator, the runner, the all-core threads, deterministic operands and
# keys, the GMP operands mirrored for the other libraries (and OpenSSL's
# numbers converted to GMP's), the checks of big-number results, the
# untimed pass that checks every repetition, the bounds on loops that
# a broken library could make endless, and the run's clock checked against
# the CPU's counter (with the kernel's clock asked by system call).
ENGINE_SRCS += \
	engine/bn_convert.c \
	engine/check.c \
	engine/clock_check.c \
	engine/counter.c \
	engine/dl_key.c \
	engine/fresh.c \
	engine/guard.c \
	engine/harness.c \
	engine/key_cache.c \
	engine/mirror.c \
	engine/operand.c \
	engine/prefault.c \
	engine/rsa_key.c \
	engine/rsa_key_table.c \
	engine/runner.c \
	engine/stats.c \
	engine/syscall_clock.c \
	engine/threads.c \
	engine/verify.c
