# client/: the gmpbench command line, one subcommand per file, and the
# report renderers (report.h) that run, show and compare share.
CLIENT_SRCS += \
	client/cmd_compare.c \
	client/cmd_key.c \
	client/cmd_list.c \
	client/cmd_retract.c \
	client/cmd_run.c \
	client/cmd_show.c \
	client/cmd_status.c \
	client/cmd_submit.c \
	client/cmd_sysinfo.c \
	client/cmd_verify.c \
	client/color.c \
	client/compare.c \
	client/compare_html.c \
	client/compare_server.c \
	client/gmp_pin.c \
	client/gmp_proto.c \
	client/gmp_side.c \
	client/gmp_worker.c \
	client/html_charts.c \
	client/interrupt.c \
	client/main.c \
	client/options.c \
	client/output_csv.c \
	client/output_html.c \
	client/output_markdown.c \
	client/output_text.c \
	client/pairs.c \
	client/progress.c \
	client/report.c \
	client/report_format.c \
	client/report_tables.c \
	client/selection.c \
	client/tree.c
