# windows/sources.mk: what a MinGW-w64 build (./configure --host=*-mingw32)
# adds: the POSIX names the sources use (windows/compat.h, included before
# every file, and the headers of windows/include, with windows/compat.c),
# and a static link, so gmpbench.exe needs no DLL beside it
# (scripts/dist-windows).
#
# GCC checks the format strings of functions declared with
# format (printf) against msvcrt's printf, which lacks %zu and %m; the
# build uses MinGW's own C99 printf instead (__USE_MINGW_ANSI_STDIO in
# compat.h), so those warnings are false and -Wno-format drops them.  The
# Linux build checks the same format strings.

WINDOWS_TARGET := $(findstring mingw,$(shell $(CC) -dumpmachine 2>/dev/null))
ifneq ($(WINDOWS_TARGET),)
COMMON_SRCS += windows/compat.c
FEATURE_DEFS += -include $(srcdir)/windows/compat.h -I$(srcdir)/windows/include
WARN_CFLAGS += -Wno-format
LIBS += -static
endif
