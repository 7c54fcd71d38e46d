/* doc_system.h: the member names of the result document's `system`
 * object (docs/sysinfo.md), declared once, as doc_schema.h declares the
 * others.  The readers of sysinfo/ write every member through these names
 * (all platforms: Linux, the BSD sysctls, Windows, CPUID), and every
 * reader of a document (model/validate.c, the client's reports, the
 * server's pages) reads them through them too.
 *
 * The groups follow docs/sysinfo.md, one per object; a name is declared in
 * the group of the object it is a member of, as DOC_SYS_OBJECT_MEMBER, and
 * a member that holds an object gets a group of its own, named after it
 * (build.gmp's members are DOC_SYS_GMP_*).  An object whose members say
 * where they were read also holds a DOC_SYS_SOURCES object, under the
 * names of those members.  CPU feature names are declared like any
 * member; the tables that map an OS's own flag names ("abm", "sha_ni",
 * "asimd", "FEAT_PMULL") to them keep those flag names, which are the
 * OS's data, as they are.
 *
 * Values (a hypervisor's name, a core kind's "performance") and sources
 * ("/proc/cpuinfo") are data, not names, and stay where they are written. */
#ifndef GB_DOC_SYSTEM_H
#define GB_DOC_SYSTEM_H

/* A dotted path of two to six of these names (or doc_schema.h's), for
 * schema_get, joined at compile time: DOC_PATH (DOC_SYS_CPU,
 * DOC_SYS_CPU_ARCH) is "cpu.arch".  DOC_PATH_PICK takes the joiner that
 * the number of parts selects. */
#define DOC_PATH(...) \
  DOC_PATH_PICK (__VA_ARGS__, DOC_PATH_6, DOC_PATH_5, DOC_PATH_4, DOC_PATH_3, \
                 DOC_PATH_2, DOC_PATH_TOO_SHORT) (__VA_ARGS__)
#define DOC_PATH_PICK(a, b, c, d, e, f, joiner, ...) joiner
#define DOC_PATH_2(a, b) a "." b
#define DOC_PATH_3(a, b, c) a "." b "." c
#define DOC_PATH_4(a, b, c, d) a "." b "." c "." d
#define DOC_PATH_5(a, b, c, d, e) a "." b "." c "." d "." e
#define DOC_PATH_6(a, b, c, d, e, f) a "." b "." c "." d "." e "." f

/* The sections of system, and the sources object every section has. */
#define DOC_SYS_CPU "cpu"
#define DOC_SYS_CORES "cores"
#define DOC_SYS_CACHE "cache"
#define DOC_SYS_CACHES "caches"
#define DOC_SYS_CLOCK "clock"
#define DOC_SYS_MACHINE "machine"
#define DOC_SYS_OS "os"
#define DOC_SYS_BUILD "build"
#define DOC_SYS_SOURCES "sources"

/* cpu: what the processor is (the identity key from its numbers, names
 * from the decoding tables), its core kinds, features, hypervisor and
 * emulation. */
#define DOC_SYS_CPU_ARCH "arch"
#define DOC_SYS_CPU_IDENTITY "identity"
#define DOC_SYS_CPU_NAME "name"
#define DOC_SYS_CPU_BRAND "brand"
#define DOC_SYS_CPU_VENDOR "vendor"
#define DOC_SYS_CPU_MICROARCHITECTURE "microarchitecture"
#define DOC_SYS_CPU_CODENAME "codename"
/* x86: the CPUID numbers */
#define DOC_SYS_CPU_FAMILY "family"
#define DOC_SYS_CPU_MODEL "model"
#define DOC_SYS_CPU_STEPPING "stepping"
#define DOC_SYS_CPU_VENDOR_ID "vendor_id"
/* Arm: the MIDR of every online CPU (/proc/cpuinfo), or MIDR_EL1 read
 * live or from the Windows registry */
#define DOC_SYS_CPU_MIDR "midr"
#define DOC_SYS_CPU_MIDR_EL1 "midr_el1"
/* RISC-V: the machine ids and the ISA string */
#define DOC_SYS_CPU_MVENDORID "mvendorid"
#define DOC_SYS_CPU_MARCHID "marchid"
#define DOC_SYS_CPU_MIMPID "mimpid"
#define DOC_SYS_CPU_ISA "isa"
/* POWER */
#define DOC_SYS_CPU_PVR "pvr"
#define DOC_SYS_CPU_PLATFORM "platform"
/* IBM Z */
#define DOC_SYS_CPU_MACHINE_TYPE "machine_type"
/* macOS: hw.cpufamily */
#define DOC_SYS_CPU_CPUFAMILY "cpufamily"
#define DOC_SYS_CPU_KINDS "kinds"
#define DOC_SYS_CPU_HYBRID "hybrid"
#define DOC_SYS_CPU_FEATURES "features"
#define DOC_SYS_CPU_HYPERVISOR "hypervisor"
#define DOC_SYS_CPU_NESTED_VIRTUALIZATION "nested_virtualization"   /* IBM Z */
#define DOC_SYS_CPU_EMULATED "emulated"
#define DOC_SYS_CPU_EMULATOR "emulator"
/* The processor an emulator presents, an object with the members of cpu
 * that CPUID gives (identity, vendor_id, vendor, family, model, stepping,
 * microarchitecture, codename, brand, name) and cpufamily, under their
 * DOC_SYS_CPU_* names. */
#define DOC_SYS_CPU_EMULATED_CPU "emulated_cpu"
#define DOC_SYS_CPU_NATIVE_ARCH "native_arch"       /* Windows */

/* cpu.kinds[]: the core kinds, biggest first. */
#define DOC_SYS_KINDS_IDENTITY "identity"
#define DOC_SYS_KINDS_TYPE "type"
#define DOC_SYS_KINDS_NAME "name"
#define DOC_SYS_KINDS_MICROARCHITECTURE "microarchitecture"
#define DOC_SYS_KINDS_COUNT "count"
#define DOC_SYS_KINDS_CPUS "cpus"
#define DOC_SYS_KINDS_MAX_MHZ "max_mhz"
#define DOC_SYS_KINDS_CAPACITY "capacity"
#define DOC_SYS_KINDS_EFFICIENCY_CLASS "efficiency_class"   /* Windows */
#define DOC_SYS_KINDS_CORES "cores"                         /* Windows */
#define DOC_SYS_KINDS_L2_SIZE "l2_size"                     /* macOS */

/* cpu.features: booleans that matter to bignum code, named as docs/sysinfo.md
 * lists them per architecture (aes is x86's and Arm's). */
/* x86 */
#define DOC_SYS_FEATURES_BMI1 "bmi1"
#define DOC_SYS_FEATURES_BMI2 "bmi2"
#define DOC_SYS_FEATURES_ADX "adx"
#define DOC_SYS_FEATURES_POPCNT "popcnt"
#define DOC_SYS_FEATURES_LZCNT "lzcnt"
#define DOC_SYS_FEATURES_AVX "avx"
#define DOC_SYS_FEATURES_AVX2 "avx2"
#define DOC_SYS_FEATURES_AVX512F "avx512f"
#define DOC_SYS_FEATURES_AVX512DQ "avx512dq"
#define DOC_SYS_FEATURES_AVX512IFMA "avx512ifma"
#define DOC_SYS_FEATURES_AVX512VL "avx512vl"
#define DOC_SYS_FEATURES_AVX512BW "avx512bw"
#define DOC_SYS_FEATURES_SHA "sha"
#define DOC_SYS_FEATURES_AES "aes"
#define DOC_SYS_FEATURES_PCLMULQDQ "pclmulqdq"
#define DOC_SYS_FEATURES_VAES "vaes"
#define DOC_SYS_FEATURES_VPCLMULQDQ "vpclmulqdq"
#define DOC_SYS_FEATURES_AVX512_OS_SUPPORT "avx512_os_support"
/* Arm (and aes) */
#define DOC_SYS_FEATURES_NEON "neon"
#define DOC_SYS_FEATURES_SVE "sve"
#define DOC_SYS_FEATURES_SVE2 "sve2"
#define DOC_SYS_FEATURES_PMULL "pmull"
#define DOC_SYS_FEATURES_SHA2 "sha2"
#define DOC_SYS_FEATURES_SHA512 "sha512"
#define DOC_SYS_FEATURES_LSE "lse"
#define DOC_SYS_FEATURES_DOTPROD "dotprod"
#define DOC_SYS_FEATURES_I8MM "i8mm"
#define DOC_SYS_FEATURES_SVE_VECTOR_BITS "sve_vector_bits"  /* a number */
/* RISC-V: the names of the ISA string's letters and extensions */
#define DOC_SYS_FEATURES_M "m"
#define DOC_SYS_FEATURES_V "v"
#define DOC_SYS_FEATURES_ZBA "zba"
#define DOC_SYS_FEATURES_ZBB "zbb"
#define DOC_SYS_FEATURES_ZBC "zbc"
#define DOC_SYS_FEATURES_ZBS "zbs"
#define DOC_SYS_FEATURES_ZBKB "zbkb"
#define DOC_SYS_FEATURES_ZVBB "zvbb"
#define DOC_SYS_FEATURES_ZICOND "zicond"
/* POWER */
#define DOC_SYS_FEATURES_ALTIVEC "altivec"
/* IBM Z */
#define DOC_SYS_FEATURES_VX "vx"
#define DOC_SYS_FEATURES_VXE "vxe"
#define DOC_SYS_FEATURES_VXE2 "vxe2"
#define DOC_SYS_FEATURES_MSA "msa"
#define DOC_SYS_FEATURES_DFP "dfp"
/* LoongArch */
#define DOC_SYS_FEATURES_LSX "lsx"
#define DOC_SYS_FEATURES_LASX "lasx"

/* cores */
#define DOC_SYS_CORES_LOGICAL "logical"
#define DOC_SYS_CORES_PHYSICAL "physical"
#define DOC_SYS_CORES_PACKAGES "packages"
#define DOC_SYS_CORES_AFFINITY "affinity"
#define DOC_SYS_CORES_CGROUP_QUOTA "cgroup_quota"
#define DOC_SYS_CORES_USABLE "usable"
#define DOC_SYS_CORES_THREADS_PER_CORE "threads_per_core"   /* FreeBSD */

/* cache: the sizes one CPU of the biggest core kind sees (l1, a unified
 * first level, only where Windows reports one). */
#define DOC_SYS_CACHE_L1D "l1d"
#define DOC_SYS_CACHE_L1I "l1i"
#define DOC_SYS_CACHE_L1 "l1"
#define DOC_SYS_CACHE_L2 "l2"
#define DOC_SYS_CACHE_L3 "l3"
#define DOC_SYS_CACHE_L4 "l4"

/* caches[]: every distinct cache kind. */
#define DOC_SYS_CACHES_LEVEL "level"
#define DOC_SYS_CACHES_TYPE "type"
#define DOC_SYS_CACHES_SIZE "size"
#define DOC_SYS_CACHES_WAYS "ways"
#define DOC_SYS_CACHES_LINE "line"
#define DOC_SYS_CACHES_SHARED_BY "shared_by"
#define DOC_SYS_CACHES_INSTANCES "instances"

/* clock */
#define DOC_SYS_CLOCK_NOMINAL_MHZ "nominal_mhz"
#define DOC_SYS_CLOCK_MAX_MHZ "max_mhz"
#define DOC_SYS_CLOCK_SCALING_DRIVER "scaling_driver"
#define DOC_SYS_CLOCK_GOVERNOR "governor"
#define DOC_SYS_CLOCK_BOOST "boost"
#define DOC_SYS_CLOCK_TSC_MHZ "tsc_mhz"
#define DOC_SYS_CLOCK_TIMEBASE_MHZ "timebase_mhz"
#define DOC_SYS_CLOCK_MEASURED "measured"
#define DOC_SYS_CLOCK_MEASURED_AFTER "measured_after"

/* clock.measured and clock.measured_after: the clock measurement. */
#define DOC_SYS_MEASURED_MHZ "mhz"
#define DOC_SYS_MEASURED_METHOD "method"
#define DOC_SYS_MEASURED_SPREAD "spread"
#define DOC_SYS_MEASURED_TRIALS "trials"
#define DOC_SYS_MEASURED_CLEAN_TRIALS "clean_trials"
#define DOC_SYS_MEASURED_AGREEING_TRIALS "agreeing_trials"
#define DOC_SYS_MEASURED_PINNED "pinned"
#define DOC_SYS_MEASURED_CPU "cpu"
#define DOC_SYS_MEASURED_TSC_MHZ "tsc_mhz"
#define DOC_SYS_MEASURED_VALID "valid"
#define DOC_SYS_MEASURED_REASON "reason"

/* machine: the board or system model, the SoC of a device tree board. */
#define DOC_SYS_MACHINE_MODEL "model"
#define DOC_SYS_MACHINE_SOC "soc"

/* os */
#define DOC_SYS_OS_FAMILY "family"
#define DOC_SYS_OS_NAME "name"
#define DOC_SYS_OS_VERSION "version"
#define DOC_SYS_OS_PRETTY_NAME "pretty_name"
#define DOC_SYS_OS_KERNEL "kernel"
#define DOC_SYS_OS_BUILD "build"                    /* macOS */
#define DOC_SYS_OS_LIBC "libc"
#define DOC_SYS_OS_COMPAT_LAYER "compat_layer"      /* Windows */

/* build: this gmpbench's provenance. */
#define DOC_SYS_BUILD_GMPBENCH_VERSION "gmpbench_version"
#define DOC_SYS_BUILD_ARCH "arch"
#define DOC_SYS_BUILD_COMPILER "compiler"
#define DOC_SYS_BUILD_CONFIGURE "configure"
#define DOC_SYS_BUILD_ISA_MACROS "isa_macros"
#define DOC_SYS_BUILD_GMP "gmp"
#define DOC_SYS_BUILD_OPENSSL "openssl"
#define DOC_SYS_BUILD_EXECUTABLE_SHA256 "executable_sha256"

/* build.compiler */
#define DOC_SYS_COMPILER_NAME "name"
#define DOC_SYS_COMPILER_VERSION "version"
#define DOC_SYS_COMPILER_BANNER "banner"
#define DOC_SYS_COMPILER_RUNTIME "runtime"

/* build.configure: the flags configure passed */
#define DOC_SYS_CONFIGURE_CC "cc"
#define DOC_SYS_CONFIGURE_CFLAGS "cflags"
#define DOC_SYS_CONFIGURE_CPPFLAGS "cppflags"
#define DOC_SYS_CONFIGURE_LDFLAGS "ldflags"
#define DOC_SYS_CONFIGURE_LIBS "libs"
#define DOC_SYS_CONFIGURE_HOST "host"

/* build.gmp */
#define DOC_SYS_GMP_VERSION "version"
#define DOC_SYS_GMP_HEADER_VERSION "header_version"
#define DOC_SYS_GMP_VERSION_MISMATCH "version_mismatch"
#define DOC_SYS_GMP_CC "cc"
#define DOC_SYS_GMP_CFLAGS "cflags"
#define DOC_SYS_GMP_LIMB_BITS "limb_bits"
#define DOC_SYS_GMP_HEADER_LIMB_BITS "header_limb_bits"
#define DOC_SYS_GMP_FAT "fat"
/* DOC_SYS_LIBRARY below */
#define DOC_SYS_GMP_ENTRY_POINTS "entry_points"
#define DOC_SYS_GMP_BUILD "build"
#define DOC_SYS_GMP_CODE "code"                     /* x86-64 */

/* build.gmp.library and build.openssl.library: the loaded shared object,
 * or how it is linked when there is none. */
#define DOC_SYS_LIBRARY "library"
#define DOC_SYS_LIBRARY_PATH "path"
#define DOC_SYS_LIBRARY_SHA256 "sha256"
#define DOC_SYS_LIBRARY_LINKAGE "linkage"

/* build.gmp.entry_points: where GMP's timed functions resolve. */
#define DOC_SYS_ENTRY_POINTS_INTERPOSED "interposed"
#define DOC_SYS_ENTRY_POINTS_FOREIGN "foreign"

/* build.gmp.code: the counts of BMI2/ADX instructions in the loaded libgmp. */
#define DOC_SYS_CODE_MULX "mulx"
#define DOC_SYS_CODE_ADCX_ADOX "adcx_adox"

/* build.openssl (and DOC_SYS_LIBRARY above) */
#define DOC_SYS_OPENSSL_VERSION "version"
#define DOC_SYS_OPENSSL_HEADER_VERSION "header_version"
#define DOC_SYS_OPENSSL_CFLAGS "cflags"
#define DOC_SYS_OPENSSL_PLATFORM "platform"
#define DOC_SYS_OPENSSL_CPU_SETTINGS "cpu_settings"

#endif
