COMMON_SRCS += common/util.c
