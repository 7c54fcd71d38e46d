# server/: gmpbench-server, the results server (docs/protocol.md,
# docs/server.md).  main.c alone goes into the program; everything else
# into libgbserver.a, which the unit tests link as well, with the CPU
# name tables of sysinfo/ (cpu_names.h: pure tables, no reader).
SERVER_SRCS += server/main.c
SERVER_LIB_SRCS += \
	server/api.c \
	server/api_results.c \
	server/api_stats.c \
	server/api_stream.c \
	server/api_upload.c \
	server/board.c \
	server/http.c \
	server/http_daemon.c \
	server/http_request.c \
	server/log.c \
	server/plausible.c \
	server/plausible_steady.c \
	server/route.c \
	server/ratelimit.c \
	server/stmt_cache.c \
	server/store.c \
	server/store_body.c \
	server/store_dict.c \
	server/store_names.c \
	server/store_pg.c \
	server/store_sqlite.c \
	server/web.c \
	server/web_about.c \
	server/web_bars.c \
	server/web_compare.c \
	server/web_compare_cpus.c \
	server/web_cpu.c \
	server/web_cpu_builds.c \
	server/web_cpu_node.c \
	server/web_home.c \
	server/web_home_data.c \
	server/web_home_rows.c \
	server/web_machine.c \
	server/web_names.c \
	server/web_nodes.c \
	server/web_result.c \
	server/web_strip.c \
	server/web_style.c \
	server/web_submitter.c \
	sysinfo/arm_midr.c \
	sysinfo/x86_models.c

# Unit tests of the server's pure parts (tests/unit-server.c), linked
# like the server.
CHECK_PROGRAMS += tests/unit-server
SERVER_CHECK_PROGRAMS += tests/unit-server
