# submit/: the result document, its signature, upload and the spool.
SUBMIT_SRCS += \
	submit/document.c
