# server/: gmpbench-server, the results server (docs/protocol.md,
# docs/server.md).  main.c alone goes into the program; everything else
# into libgbserver.a, which the unit tests link as well.
SERVER_SRCS += server/main.c
SERVER_LIB_SRCS += \
	server/api/api_json.c \
	server/api/api_results.c \
	server/api/api_routes.c \
	server/api/api_stats.c \
	server/api/api_stream.c \
	server/api/api_upload.c \
	server/api/ratelimit.c \
	server/board/board.c \
	server/board/board_build.c \
	server/board/board_column.c \
	server/board/board_derive.c \
	server/board/board_intern.c \
	server/board/board_journal.c \
	server/board/board_memo.c \
	server/board/board_query.c \
	server/board/board_rows.c \
	server/board/board_view.c \
	server/http/http.c \
	server/http/http_daemon.c \
	server/http/http_request.c \
	server/log.c \
	server/judge/plausible.c \
	server/judge/plausible_clock.c \
	server/judge/plausible_peers.c \
	server/judge/plausible_steady.c \
	server/http/route.c \
	server/store/stmt_cache.c \
	server/store/store.c \
	server/store/store_backfill.c \
	server/store/store_body.c \
	server/store/store_dict.c \
	server/store/store_dict_keeper.c \
	server/store/store_follow.c \
	server/store/store_insert.c \
	server/store/store_judge.c \
	server/store/store_keys.c \
	server/store/store_list.c \
	server/store/store_migrate.c \
	server/store/store_names.c \
	server/store/store_pages.c \
	server/store/store_pg.c \
	server/store/store_pool.c \
	server/store/store_read.c \
	server/store/store_sqlite.c \
	server/web/web_about.c \
	server/web/web_bars.c \
	server/web/web_compare.c \
	server/web/web_compare_cpus.c \
	server/web/web_cpu.c \
	server/web/web_cpu_builds.c \
	server/web/web_cpu_node.c \
	server/web/web_home.c \
	server/web/web_home_data.c \
	server/web/web_home_rows.c \
	server/web/web_machine.c \
	server/web/web_names.c \
	server/web/web_nodes.c \
	server/web/web_page.c \
	server/web/web_result.c \
	server/web/web_routes.c \
	server/web/web_strip.c \
	server/web/web_style.c \
	server/web/web_submitter.c
