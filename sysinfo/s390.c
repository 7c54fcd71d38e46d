/* s390.c: naming IBM Z machines from the machine type that /proc/cpuinfo
 * and /proc/sysinfo report ("machine = 8561").  The type is the identity
 * key; the serial-like "identification" and "Sequence Code" fields are
 * never recorded. */
#include "sysinfo/internal.h"
#include "common/util.h"

static const struct
{
  unsigned type;
  const char *name, *uarch;
} machines[] = {
  {2064, "z900", "z900"}, {2066, "z800", "z900"}, {2084, "z990", "z990"},
  {2086, "z890", "z990"}, {2094, "z9 EC", "z9"}, {2096, "z9 BC", "z9"},
  {2097, "z10 EC", "z10"}, {2098, "z10 BC", "z10"}, {2817, "z196", "z196"},
  {2818, "z114", "z196"}, {2827, "zEC12", "zEC12"}, {2828, "zBC12", "zEC12"},
  {2964, "z13", "z13"}, {2965, "z13s", "z13"}, {3906, "z14", "z14"},
  {3907, "z14 ZR1", "z14"}, {8561, "z15", "z15"}, {8562, "z15 T02", "z15"},
  {3931, "z16", "z16"}, {3932, "z16 A02", "z16"}, {9175, "z17", "z17"},
};

const char *
si_s390_machine_name (unsigned type)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (machines); i++)
    if (machines[i].type == type)
      return machines[i].name;
  return NULL;
}

const char *
si_s390_uarch (unsigned type)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (machines); i++)
    if (machines[i].type == type)
      return machines[i].uarch;
  return NULL;
}
