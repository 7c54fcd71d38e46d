# tests/: every test program, registered here and nowhere else.  Each
# tests/unit-NAME.c is linked against the library archives and run by
# `make check` (tests/run-tests.sh), as is every script tests/tNNNN-*.sh;
# the helper-* programs are tools the t05xx scripts use.

# The client's parts (libgbclient.a, libgbmodel.a).
CHECK_PROGRAMS += \
	tests/unit-checks \
	tests/unit-clock-check \
	tests/unit-compare \
	tests/unit-fresh \
	tests/unit-harness \
	tests/unit-operand \
	tests/unit-options \
	tests/unit-reference \
	tests/unit-report \
	tests/unit-rng-sanity \
	tests/unit-rsa-key \
	tests/unit-runner \
	tests/unit-score \
	tests/unit-self-maps \
	tests/unit-stats \
	tests/unit-submit \
	tests/unit-submit-crash \
	tests/unit-sysinfo \
	tests/unit-sysinfo-dumps \
	tests/unit-sysinfo-sysctl \
	tests/unit-sysinfo-windows \
	tests/unit-threads

# Tools of the upload tests: a scripted HTTP server, a signer, and a TLS
# terminator, which needs libssl besides libcrypto.
CHECK_PROGRAMS += \
	tests/helper-httpd \
	tests/helper-sign \
	tests/helper-tlsproxy
tests/helper-tlsproxy: CLIENT_LIBS += -lssl
# The two network helpers' listening socket, written once.
tests/helper-httpd tests/helper-tlsproxy: tests/helper-listen.c tests/helper-listen.h

# A deliberately wrong GMP, preloaded by tests/t0120-wrong-results.sh.
CHECK_LIBS += tests/libwronggmp.so
tests/libwronggmp.so: tests/wrong-gmp.c
	@$(MKDIR_P) $(@D)
	$(CC) -shared -fPIC -O1 $(GB_CPPFLAGS) $(WARN_CFLAGS) -o $@ $< -ldl

# A library that slows every clock the process reads, preloaded by
# tests/t0123-clock-counter.sh; the second one also wraps dladdr.
CHECK_LIBS += tests/libslowclock.so tests/libslowclock-dladdr.so
tests/libslowclock.so: tests/slow-clock.c
	@$(MKDIR_P) $(@D)
	$(CC) -shared -fPIC -O1 $(GB_CPPFLAGS) $(WARN_CFLAGS) -o $@ $< -ldl -lpthread
tests/libslowclock-dladdr.so: tests/slow-clock.c
	@$(MKDIR_P) $(@D)
	$(CC) -shared -fPIC -O1 -DWRAP_DLADDR $(GB_CPPFLAGS) $(WARN_CFLAGS) -o $@ $< -ldl -lpthread

# A GMP that skips or caches its work and hides from dladdr, preloaded by
# tests/t0130-stale-work.sh.
CHECK_LIBS += tests/libstalegmp.so
tests/libstalegmp.so: tests/stale-gmp.c
	@$(MKDIR_P) $(@D)
	$(CC) -shared -fPIC -O2 $(GB_CPPFLAGS) $(WARN_CFLAGS) -o $@ $< -ldl

# A library that rewrites the executable's PLT slot of mpz_mul, no symbol
# interposed, also preloaded by tests/t0130-stale-work.sh.
CHECK_LIBS += tests/libgotpatchgmp.so
tests/libgotpatchgmp.so: tests/got-patch-gmp.c
	@$(MKDIR_P) $(@D)
	$(CC) -shared -fPIC -O2 $(GB_CPPFLAGS) $(WARN_CFLAGS) -o $@ $< -ldl

# The server's parts (libgbserver.a, libgbmodel.a): its pure rules, and
# the leaderboard snapshot (server/board/) on a SQLite store.
ifeq ($(BUILD_SERVER),yes)
CHECK_PROGRAMS += tests/unit-board tests/unit-server
SERVER_CHECK_PROGRAMS += tests/unit-board tests/unit-server
endif

# What operators rely on (unit-ops.c): trusted proxies, metrics.
ifeq ($(BUILD_SERVER),yes)
CHECK_PROGRAMS += tests/unit-ops
SERVER_CHECK_PROGRAMS += tests/unit-ops
endif
