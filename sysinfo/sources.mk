# sysinfo/: the machine description (issue 3).  The Linux reader and the
# decoders are plain C and built everywhere (the tests feed them
# snapshots), and so are the Windows parsers (win_parse.c); the sysctl
# reader only where sysctlbyname exists, the Windows reader only for
# Windows.
SYSINFO_SRCS += \
	sysinfo/arm.c \
	sysinfo/arm_live.c \
	sysinfo/bsd_sysctl.c \
	sysinfo/build.c \
	sysinfo/clock.c \
	sysinfo/collect.c \
	sysinfo/entry_maps.c \
	sysinfo/exe_slots.c \
	sysinfo/gmp_build.c \
	sysinfo/json.c \
	sysinfo/linux.c \
	sysinfo/linux_cache.c \
	sysinfo/linux_cpuinfo.c \
	sysinfo/linux_kinds.c \
	sysinfo/linux_machine.c \
	sysinfo/linux_virt.c \
	sysinfo/os.c \
	sysinfo/power.c \
	sysinfo/riscv.c \
	sysinfo/riscv_live.c \
	sysinfo/rootfs.c \
	sysinfo/s390.c \
	sysinfo/self_maps.c \
	sysinfo/summary.c \
	sysinfo/win_parse.c \
	sysinfo/x86.c \
	sysinfo/x86_cpuid.c

SYSINFO_TARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(findstring darwin,$(SYSINFO_TARGET))$(findstring freebsd,$(SYSINFO_TARGET)),)
SYSINFO_SRCS += sysinfo/sysctl_live.c
endif
ifneq ($(findstring mingw,$(SYSINFO_TARGET)),)
SYSINFO_SRCS += sysinfo/windows.c
endif
