# model/: what the client and the server must agree on (the registry of
# tests, scoring, reference digests, protocol constants, the escaping and
# charts of the reports and pages); it depends on common/, cJSON and
# libcrypto only, so the server links it without the benchmark code.
MODEL_SRCS += \
	model/escape.c \
	model/order_stats.c \
	model/reference.c \
	model/registry.c \
	model/registry_table.c \
	model/score.c \
	model/si_format.c \
	model/svg_chart.c
