/* rng_hw.c: RDRAND, RDSEED and RNDR (see rng_hw.h).  Presence comes from
 * CPUID on x86 (leaf 1 ECX bit 30, leaf 7 EBX bit 18) and from the
 * kernel's HWCAP2_RNG on Arm Linux; the instructions are issued with
 * inline assembly so that no special compiler flag is needed. */
#include "suites/rng_hw.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HW_X86 1
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP2_RNG
#define HWCAP2_RNG (1ul << 16)
#endif
#define HW_ARM64 1
#endif

#define RDRAND_RETRIES 10
#define RDSEED_RETRIES 100000

static const char *const hw_names[] = { "RDRAND", "RDSEED", "RNDR" };
static const char *const hw_needs[] = { "an x86 CPU", "an x86 CPU", "a 64-bit Arm CPU running Linux" };

#ifdef HW_X86
static int
cpu_has (enum rng_hw which)
{
  unsigned a, b, c, d;
  if (which == RNG_HW_RDRAND)
    return __get_cpuid (1, &a, &b, &c, &d) && (c >> 30) & 1;
  if (which == RNG_HW_RDSEED)
    return __get_cpuid_max (0, NULL) >= 7 && __get_cpuid_count (7, 0, &a, &b, &c, &d)
      && (b >> 18) & 1;
  return 0;
}

static int
step (enum rng_hw which, unsigned long *v)
{
  unsigned char ok;
  if (which == RNG_HW_RDRAND)
    __asm__ volatile ("rdrand %0; setc %1" : "=r" (*v), "=qm" (ok) : : "cc");
  else
    __asm__ volatile ("rdseed %0; setc %1" : "=r" (*v), "=qm" (ok) : : "cc");
  return ok;
}

static void
relax (void)
{
  __asm__ volatile ("pause");
}
#elif defined(HW_ARM64)
static int
cpu_has (enum rng_hw which)
{
  return which == RNG_HW_RNDR && (getauxval (AT_HWCAP2) & HWCAP2_RNG) != 0;
}

static int
step (enum rng_hw which, unsigned long *v)
{
  int ok;
  (void) which;
  /* RNDR is s3_3_c2_c4_0; NZCV is 0b0000 on success, 0b0100 on failure. */
  __asm__ volatile ("mrs %0, s3_3_c2_c4_0\n\tcset %w1, ne" : "=r" (*v), "=r" (ok) : : "cc");
  return ok;
}

static void
relax (void)
{
  __asm__ volatile ("yield");
}
#endif

#if defined(HW_X86) || defined(HW_ARM64)
static int word (enum rng_hw which, unsigned long *v);

/* Whether the instruction is present but broken: some AMD CPUs with old
 * firmware return all ones with the success flag set after a suspend, and
 * Linux disables RDRAND for itself when eight draws come out equal.  The
 * same test here, so such a CPU gets a skip with the reason, not a failed
 * run. */
static int
stuck (enum rng_hw which, char *why, size_t whylen)
{
  unsigned long first, v;
  if (word (which, &first) != 0)
    {
      snprintf (why, whylen, "%s is present but kept failing", hw_names[which]);
      return 1;
    }
  for (int i = 1; i < 8; i++)
    if (word (which, &v) != 0 || v != first)
      return 0;
  snprintf (why, whylen, "%s is present but returns the same value (%#lx) every time,"
            " a known firmware bug: update the BIOS", hw_names[which], first);
  return 1;
}
#endif

int
rng_hw_available (enum rng_hw which, char *why, size_t whylen)
{
#if defined(HW_X86)
  int native = which != RNG_HW_RNDR;
#elif defined(HW_ARM64)
  int native = which == RNG_HW_RNDR;
#else
  int native = 0;
#endif
#if defined(HW_X86) || defined(HW_ARM64)
  if (native && cpu_has (which))
    return stuck (which, why, whylen) ? 0 : 1;
#endif
  if (native)
    snprintf (why, whylen, "this CPU does not have %s", hw_names[which]);
  else
    snprintf (why, whylen, "%s needs %s", hw_names[which], hw_needs[which]);
  return 0;
}

#if defined(HW_X86) || defined(HW_ARM64)
static int
word (enum rng_hw which, unsigned long *v)
{
  int tries = which == RNG_HW_RDSEED ? RDSEED_RETRIES : RDRAND_RETRIES;
  for (int i = 0; i < tries; i++)
    {
      if (step (which, v))
        return 0;
      relax ();
    }
  return -1;
}

int
rng_hw_fill (enum rng_hw which, unsigned char *buf, size_t len)
{
  unsigned long v;
  while (len >= sizeof v)
    {
      if (word (which, &v) != 0)
        return -1;
      memcpy (buf, &v, sizeof v);
      buf += sizeof v;
      len -= sizeof v;
    }
  if (len && word (which, &v) != 0)
    return -1;
  memcpy (buf, &v, len);
  return 0;
}
#else
int
rng_hw_fill (enum rng_hw which, unsigned char *buf, size_t len)
{
  (void) which;
  (void) buf;
  (void) len;
  return -1;
}
#endif
