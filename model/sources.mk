# model/: what the client and the server must agree on (the registry of
# tests, scoring, reference digests, the validation of a result document,
# base64 and Ed25519 verification, protocol constants, the escaping and
# charts of the reports and pages); it depends on common/, cJSON and
# libcrypto only, so the server links it without the benchmark code.
MODEL_SRCS += \
	model/arm_midr.c \
	model/b64.c \
	model/cpu_brand.c \
	model/cpu_clocks.c \
	model/doc_read.c \
	model/doc_schema.c \
	model/escape.c \
	model/json_check.c \
	model/machine_kind.c \
	model/measurements.c \
	model/order_stats.c \
	model/reference.c \
	model/reference_previous.c \
	model/reference_superseded.c \
	model/registry.c \
	model/registry_table.c \
	model/schema.c \
	model/score.c \
	model/si_format.c \
	model/sig.c \
	model/svg_chart.c \
	model/test_pairing.c \
	model/validate.c \
	model/validate_error.c \
	model/x86_models.c
