# client/: the gmpbench command line, one subcommand per file.
CLIENT_SRCS += \
	client/cmd_list.c \
	client/cmd_run.c \
	client/cmd_sysinfo.c \
	client/main.c \
	client/output_text.c \
	client/progress.c \
	client/selection.c
