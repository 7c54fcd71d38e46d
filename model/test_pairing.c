/* test_pairing.c: reading test names as comparisons (see test_pairing.h).
 * A name is split at its dots; the first part says the library, the rest
 * the operation, its variant (after a dash) and the size. */
#include "model/test_pairing.h"

#include <stdio.h>
#include <string.h>
#include "common/util.h"

#define MAX_PARTS 6

static const char *const other_libraries[] = { "openssl", "gcrypt", "nettle" };
static const char *const pk_families[] = { "rsa", "dh", "dsa" };
static const char *const private_ops[] = { "rsa.sign", "dsa.sign", "dh.derive" };

static int
in_list (const char *s, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (s, list[i]) == 0)
      return 1;
  return 0;
}

/* Splits NAME at its dots into PARTS; the count, or -1 if there are too
 * many parts or one is too long. */
static int
split_name (const char *name, char parts[MAX_PARTS][TEST_PAIR_FIELD])
{
  int n = 0;
  for (const char *p = name;; n++)
    {
      const char *dot = strchr (p, '.');
      size_t len = dot ? (size_t) (dot - p) : strlen (p);
      if (n == MAX_PARTS || len >= TEST_PAIR_FIELD)
        return -1;
      memcpy (parts[n], p, len);
      parts[n][len] = '\0';
      if (!dot)
        return n + 1;
      p = dot + 1;
    }
}

/* OP-VARIANT (or OP) into K's operation, after PREFIX and a dot if
 * PREFIX is given, and its variant. */
static int
set_operation (struct test_pair_key *k, const char *prefix, const char *opv)
{
  const char *dash = strchr (opv, '-');
  size_t len = dash ? (size_t) (dash - opv) : strlen (opv);
  int w = prefix
    ? snprintf (k->operation, sizeof k->operation, "%s.%.*s", prefix, (int) len, opv)
    : snprintf (k->operation, sizeof k->operation, "%.*s", (int) len, opv);
  snprintf (k->variant, sizeof k->variant, "%s", dash ? dash + 1 : "");
  return w > 0 && (size_t) w < sizeof k->operation ? 0 : -1;
}

/* The part of a name after its library prefix: OPV.SIZE or
 * FAMILY.OPV.SIZE, as in ext.powm-sec.2048 or ext.rsa.sign-sec.2048. */
static int
parse_operation (char parts[][TEST_PAIR_FIELD], int n, struct test_pair_key *k)
{
  if (n == 2)
    {
      strcpy (k->size, parts[1]);
      return set_operation (k, NULL, parts[0]);
    }
  if (n == 3 && in_list (parts[0], pk_families, GB_ARRAY_SIZE (pk_families)))
    {
      strcpy (k->size, parts[2]);
      return set_operation (k, parts[0], parts[1]);
    }
  return -1;
}

int
test_pairing_parse (const char *name, struct test_pair_key *k)
{
  char parts[MAX_PARTS][TEST_PAIR_FIELD];
  int n = split_name (name, parts);
  memset (k, 0, sizeof *k);
  if (n < 2)
    return -1;
  if (strcmp (parts[0], "rng") == 0)
    {
      strcpy (k->operation, "rng");
      strcpy (k->library, parts[1]);
      return n == 2 ? 0 : -1;
    }
  if (strcmp (parts[0], "gmpbench") == 0)
    {
      strcpy (k->library, "gmp");
      if (n == 4 && strcmp (parts[1], "app") == 0 && strcmp (parts[2], "rsa") == 0)
        {
          strcpy (k->operation, "rsa.sign");
          strcpy (k->size, parts[3]);
          return 0;
        }
      return n == 4 && strcmp (parts[1], "base") == 0 ? parse_operation (parts + 2, 2, k) : -1;
    }
  if (strcmp (parts[0], "ext") == 0)
    {
      strcpy (k->library, "gmp");
      return parse_operation (parts + 1, n - 1, k);
    }
  if (!in_list (parts[0], other_libraries, GB_ARRAY_SIZE (other_libraries)))
    return -1;
  strcpy (k->library, parts[0]);
  if (strcmp (parts[1], "base") == 0 || strcmp (parts[1], "ext") == 0)
    return parse_operation (parts + 2, n - 2, k);
  return parse_operation (parts + 1, n - 1, k);
}

int
test_pairing_constant_time (const struct test_pair_key *k)
{
  if (strcmp (k->variant, "sec") == 0)
    return 1;
  return strcmp (k->library, "gmp") != 0
    && in_list (k->operation, private_ops, GB_ARRAY_SIZE (private_ops));
}
