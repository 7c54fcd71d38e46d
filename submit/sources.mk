# submit/: the result document, its signature, upload and the spool, and
# the client commands built on them.
SUBMIT_SRCS += \
	client/cmd_key.c \
	client/cmd_retract.c \
	client/cmd_status.c \
	client/cmd_submit.c \
	client/cmd_verify.c \
	submit/config.c \
	submit/document.c \
	submit/identity.c \
	submit/result_file.c \
	submit/sign.c \
	submit/spool.c \
	submit/submit.c \
	submit/upload.c

# Test programs: unit-* run as tests; helper-* are tools the t5xx scripts use.
CHECK_PROGRAMS += \
	tests/helper-httpd \
	tests/helper-sign \
	tests/helper-tlsproxy \
	tests/unit-submit \
	tests/unit-submit-crash

# The TLS terminator of the TLS tests needs libssl besides libcrypto.
tests/helper-tlsproxy: CLIENT_LIBS += -lssl
