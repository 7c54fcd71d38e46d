# submit/: the result document, its signature, upload and the spool (the
# client commands built on them are client/cmd_*.c).
SUBMIT_SRCS += \
	submit/config.c \
	submit/consent.c \
	submit/document.c \
	submit/identity.c \
	submit/redact.c \
	submit/result_file.c \
	submit/sign.c \
	submit/spool.c \
	submit/standing.c \
	submit/submit.c \
	submit/upload.c
