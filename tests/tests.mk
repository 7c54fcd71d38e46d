# tests/: unit test programs of the lead's modules (each tests/NAME.c is
# linked against the library archives); the scripts tests/tNNNN-*.sh need
# no build.
CHECK_PROGRAMS += \
	tests/unit-stats \
	tests/unit-operand \
	tests/unit-score \
	tests/unit-checks \
	tests/unit-rsa-key \
	tests/unit-reference \
	tests/unit-runner \
	tests/unit-harness \
	tests/unit-options

# A deliberately wrong GMP, preloaded by tests/t0120-wrong-results.sh.
CHECK_LIBS += tests/libwronggmp.so
tests/libwronggmp.so: tests/wrong-gmp.c
	@$(MKDIR_P) $(@D)
	$(CC) -shared -fPIC -O1 $(GB_CPPFLAGS) $(WARN_CFLAGS) -o $@ $< -ldl

# The leaderboard snapshot (server/board/), on a SQLite store.
ifeq ($(BUILD_SERVER),yes)
CHECK_PROGRAMS += tests/unit-board
SERVER_CHECK_PROGRAMS += tests/unit-board
endif
