/* unit-compare.c: the comparison table (client/compare.h) on made-up
 * results: which names pair with which, the fair GMP entry and ratio of
 * each library, the spreads, the random generators' units, the public-key
 * table's columns, and the text tables, whose blocks and lines come in a
 * fixed order whatever the order of the results.  Prints PASS/FAIL lines
 * for tests/run-tests.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/compare.h"
#include "tests/check.h"

static void
test_parse (void)
{
  static const struct
  {
    const char *name, *operation, *size, *library, *variant;
  } cases[] = {
    { "gmpbench.base.multiply.8192,8192", "multiply", "8192,8192", "gmp", "" },
    { "openssl.base.multiply.8192", "multiply", "8192", "openssl", "" },
    { "gmpbench.app.rsa.2048", "rsa.sign", "2048", "gmp", "" },
    { "ext.rsa.sign-sec.2048", "rsa.sign", "2048", "gmp", "sec" },
    { "openssl.rsa.verify.15360", "rsa.verify", "15360", "openssl", "" },
    { "gcrypt.rsa.sign-noblind.1024", "rsa.sign", "1024", "gcrypt", "noblind" },
    { "nettle.rsa.sign-tr.4096", "rsa.sign", "4096", "nettle", "tr" },
    { "ext.powm-sec.512", "powm", "512", "gmp", "sec" },
    { "openssl.ext.invert.8192", "invert", "8192", "openssl", "" },
    { "ext.dh.derive-sec.3072", "dh.derive", "3072", "gmp", "sec" },
    { "rng.rdseed", "rng", "", "rdseed", "" },
    { "ext.rsa.keygen.2048", "rsa.keygen", "2048", "gmp", "" },
    { "gcrypt.rsa.keygen.4096", "rsa.keygen", "4096", "gcrypt", "" },
    { "gcrypt.ext.mulm.512", "mulm", "512", "gcrypt", "" },
    { "ext.mulm.8192", "mulm", "8192", "gmp", "" },
  };
  static const char *const rejected[] = {
    "gmpbench.app.pi.10000", "ext.prime.random.512", "gmpbench", "other.rsa.sign.2048",
    "gmpbench.base.multiply", "rng.a.b",
  };
  int ok = 1;
  struct test_pair_key k;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (test_pairing_parse (cases[i].name, &k) != 0
        || strcmp (k.operation, cases[i].operation) || strcmp (k.size, cases[i].size)
        || strcmp (k.library, cases[i].library) || strcmp (k.variant, cases[i].variant))
      {
        printf ("  %s parsed as %s / %s / %s / %s\n", cases[i].name, k.operation, k.size,
                k.library, k.variant);
        ok = 0;
      }
  check (ok, "test names parse into operation, size, library and variant");
  ok = 1;
  for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++)
    ok &= test_pairing_parse (rejected[i], &k) != 0;
  check (ok, "names outside the comparisons are not parsed");
  struct test_pair_key gmp, sec, ossl;
  check (test_pairing_parse (TEST_PAIR_RSA_GMP, &gmp) == 0
         && test_pairing_parse (TEST_PAIR_RSA_GMP_SEC, &sec) == 0
         && test_pairing_parse (TEST_PAIR_RSA_OPENSSL, &ossl) == 0
         && !strcmp (gmp.operation, sec.operation) && !strcmp (gmp.operation, ossl.operation)
         && !strcmp (gmp.size, sec.size) && !strcmp (gmp.size, ossl.size)
         && test_pairing_constant_time (&sec) && test_pairing_constant_time (&ossl)
         && !test_pairing_constant_time (&gmp),
         "the leaderboard's RSA columns are one comparison, constant-time against constant-time");
}

/* Made-up results: name, ops/s, spread; a negative spread marks a skip. */
static const struct
{
  const char *name;
  double ops, spread;
  long a;
} fake[] = {
  { "gmpbench.base.multiply.8192,8192", 100000, 0.01, 8192 },
  { "gmpbench.base.gcdext.512,512", 5000, 0.01, 512 },
  { "gmpbench.app.rsa.2048", 1000, 0.01, 2048 },
  { "ext.rsa.sign-sec.2048", 800, 0.01, 2048 },
  { "ext.rsa.verify.2048", 30000, 0.02, 2048 },
  { "openssl.base.multiply.8192,8192", 50000, 0.01, 8192 },
  { "openssl.rsa.sign.2048", 1000, 0.02, 2048 },
  { "openssl.rsa.verify.2048", 29500, 0.01, 2048 },
  { "nettle.rsa.sign.2048", 400, 0.01, 2048 },
  { "gcrypt.rsa.sign.2048", 700, -1, 2048 },
  { "ext.powm.4096", 20, 0.001, 4096 },
  { "rng.os", 1000, 0.01, 4096 },
  { "rng.rdrand", 4000, 0.01, 4096 },
  { "ext.rsa.keygen.2048", 10, 0.1, 2048 },
  { "openssl.rsa.keygen.2048", 5, 0.2, 2048 },
  { "ext.mulm.512", 1000000, 0.01, 512 },
  { "gcrypt.ext.mulm.512", 500000, 0.01, 512 },
};
#define NFAKE (sizeof fake / sizeof fake[0])

static struct bench_test tests[NFAKE];
static struct test_result results[NFAKE];

static void
make_results (void)
{
  for (size_t i = 0; i < NFAKE; i++)
    {
      tests[i].name = fake[i].name;
      tests[i].a = fake[i].a;
      results[i].test = &tests[i];
      results[i].outcome = fake[i].spread < 0 ? BENCH_SKIPPED : BENCH_OK;
      results[i].m.ops_per_sec = fake[i].ops;
      results[i].m.seconds_per_op = 1 / fake[i].ops;
      results[i].m.spread = fake[i].spread < 0 ? 0 : fake[i].spread;
    }
}

static const cJSON *
row (const cJSON *c, const char *operation, const char *size)
{
  const cJSON *r;
  cJSON_ArrayForEach (r, c)
    if (!strcmp (cJSON_GetObjectItem (r, "operation")->valuestring, operation)
        && !strcmp (cJSON_GetObjectItem (r, "size")->valuestring, size))
      return r;
  return NULL;
}

static const cJSON *
entry (const cJSON *r, const char *test)
{
  const cJSON *e;
  if (!r)
    return NULL;
  cJSON_ArrayForEach (e, cJSON_GetObjectItem (r, "entries"))
    if (!strcmp (cJSON_GetObjectItem (e, "test")->valuestring, test))
      return e;
  return NULL;
}

static double
num (const cJSON *e, const char *key)
{
  const cJSON *v = e ? cJSON_GetObjectItem (e, key) : NULL;
  return cJSON_IsNumber (v) ? v->valuedouble : NAN;
}

static const char *
str (const cJSON *e, const char *key)
{
  const cJSON *v = e ? cJSON_GetObjectItem (e, key) : NULL;
  return cJSON_IsString (v) ? v->valuestring : "";
}

static void
test_build (cJSON *c)
{
  check (cJSON_GetArraySize (c) == 6,
         "rows: multiply, rsa.sign, rsa.verify, rng, rsa.keygen and mulm (unpaired tests left out)");
  check (!row (c, "gcdext", "512,512") && !row (c, "powm", "4096"),
         "a GMP test without a counterpart makes no row");
  const cJSON *sign = row (c, "rsa.sign", "2048");
  const cJSON *o = entry (sign, "openssl.rsa.sign.2048");
  check (!strcmp (str (o, "gmp_test"), "ext.rsa.sign-sec.2048") && fabs (num (o, "ratio") - 0.8) < 1e-12,
         "OpenSSL's signing is held against mpz_powm_sec (ratio 0.8)");
  check (o && cJSON_IsFalse (cJSON_GetObjectItem (o, "within_spread")),
         "a 20%% difference is outside spreads of 1%% and 2%%");
  const cJSON *n = entry (sign, "nettle.rsa.sign.2048");
  check (n && fabs (num (n, "ratio") - 2) < 1e-12, "Nettle's entry has its own ratio");
  check (!entry (sign, "gcrypt.rsa.sign.2048"), "skipped results are left out");
  check (isnan (num (entry (sign, "gmpbench.app.rsa.2048"), "ratio")), "GMP's entries carry no ratio");
  const cJSON *v = entry (row (c, "rsa.verify", "2048"), "openssl.rsa.verify.2048");
  check (v && cJSON_IsTrue (cJSON_GetObjectItem (v, "within_spread"))
         && !strcmp (str (v, "gmp_test"), "ext.rsa.verify.2048"),
         "a 1.7%% difference is within spreads of 2%% and 1%%");
  const cJSON *m = entry (row (c, "multiply", "8192,8192"), "openssl.base.multiply.8192,8192");
  check (m && fabs (num (m, "ratio") - 2) < 1e-12, "multiply: GMP twice as fast gives ratio 2");
  const cJSON *g = entry (row (c, "mulm", "512"), "gcrypt.ext.mulm.512");
  check (g && !strcmp (str (g, "gmp_test"), "ext.mulm.512") && fabs (num (g, "ratio") - 2) < 1e-12,
         "libgcrypt's mulm is held against GMP's ext.mulm");
  const cJSON *kg = entry (row (c, "rsa.keygen", "2048"), "openssl.rsa.keygen.2048");
  check (kg && !strcmp (str (kg, "gmp_test"), "ext.rsa.keygen.2048") && fabs (num (kg, "ratio") - 2) < 1e-12,
         "OpenSSL's key generation is held against GMP's");
  check (!strcmp (str (row (c, "rsa.keygen", "2048"), "pubkey"), "generate")
         && !strcmp (str (row (c, "rsa.sign", "2048"), "pubkey"), "private")
         && !strcmp (str (row (c, "rsa.verify", "2048"), "pubkey"), "public")
         && !cJSON_GetObjectItem (row (c, "mulm", "512"), "pubkey"),
         "the public-key rows carry their column in JSON, the others none");
  const cJSON *rd = entry (row (c, "rng", "4096"), "rng.rdrand");
  check (rd && fabs (num (rd, "mib_per_sec") - 4000 * 4096 / 1048576.0) < 1e-9,
         "random generators are given in MiB/s");
  compare_add_cycles (c, 2.0);
  check (rd && fabs (num (rd, "cycles_per_byte") - 2e9 / (4000 * 4096.0)) < 1e-9,
         "cycles per byte from the clock");
}

static char *
render (const cJSON *c)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  compare_print_text (f, c);
  fclose (f);
  return buf;
}

static void
test_text (const cJSON *c)
{
  char *text = render (c);
  fputs (text, stdout);
  check (strstr (text, "rsa.sign       2048") != NULL, "the general table names operation and size");
  check (strstr (text, "GMP sec") != NULL && strstr (text, "   0.800\n") != NULL,
         "the general table shows variants and ratios");
  check (strstr (text, "1.017 ~") != NULL, "a ratio within the spreads is marked ~");
  check (strstr (text, "  OpenSSL            rsa  2048 bits") != NULL
         && strstr (text, "    1000.0    29500.0") != NULL,
         "the RSA table puts sign/s and verify/s side by side");
  check (strstr (text, "  Nettle             rsa  2048 bits") != NULL
         && strstr (text, "         -      400.0          -") != NULL,
         "a library without verification shows a dash");
  check (strstr (text, "  RSA 2048 bit     GMP                       0.1s      0.001s   3.33e-05s\n") != NULL,
         "the public-key table gives generate, private and public s/op per library");
  check (strstr (text, "                   OpenSSL                   0.2s      0.001s   3.39e-05s\n") != NULL,
         "each library of an algorithm and size has its line");
  check (strstr (text, "                   GMP sec                      -    0.00125s           -\n") != NULL,
         "a variant without key generation or public operation shows dashes");
  check (strstr (text, "  rdrand") != NULL && strstr (text, "122.07") != NULL,
         "the random generators' table shows MiB/s and cycles/byte");
  free (text);
  cJSON *empty = cJSON_CreateArray ();
  text = render (empty);
  check (text[0] == '\0', "no comparisons, no output");
  free (text);
  cJSON_Delete (empty);
}

/* Results in a scrambled order, for the tables' fixed order. */
static const char *const scrambled[] = {
  "openssl.rsa.sign.4096", "ext.rsa.sign-sec.4096", "gmpbench.app.rsa.512",
  "openssl.rsa.sign.512", "nettle.rsa.sign-tr.3072", "gcrypt.rsa.sign-noblind.3072",
  "openssl.dh.derive.2048", "ext.dh.derive-sec.2048", "openssl.rsa.sign.3072",
  "ext.rsa.sign-sec.3072", "gcrypt.rsa.sign.3072", "nettle.rsa.sign.3072", "ext.rsa.sign.3072",
  "openssl.dsa.sign.1024", "ext.dsa.sign.1024", "openssl.rsa.keygen.2048", "ext.rsa.keygen.2048",
  "openssl.rsa.verify.1024", "ext.rsa.sign-sec.1024", "ext.rsa.verify.1024",
  "openssl.rsa.sign.1024", "gmpbench.app.rsa.1024",
};
#define NSCRAMBLED (sizeof scrambled / sizeof scrambled[0])

/* Whether each of the N needles occurs exactly once in TEXT[FROM, UNTIL),
 * in the order given. */
static int
in_order (const char *from, const char *until, const char *const *needles, size_t n)
{
  const char *at = from;
  for (size_t i = 0; i < n && from && until; i++)
    {
      const char *hit = strstr (from, needles[i]);
      if (!hit || hit + strlen (needles[i]) > until || hit < at)
        return 0;
      const char *again = strstr (hit + 1, needles[i]);
      if (again && again < until)
        return 0;
      at = hit;
    }
  return from && until;
}

/* The end of the lines starting at FROM that go on a block: those that
 * start with INDENT spaces. */
static const char *
block_end (const char *from, int indent)
{
  const char *line = from ? strchr (from, '\n') : NULL;
  while (line && strspn (line + 1, " ") >= (size_t) indent && line[1] != '\0')
    line = strchr (line + 1, '\n');
  return line;
}

static void
test_order (void)
{
  static struct bench_test t[NSCRAMBLED];
  static struct test_result r[NSCRAMBLED];
  for (size_t i = 0; i < NSCRAMBLED; i++)
    {
      t[i].name = scrambled[i];
      t[i].a = atol (strrchr (scrambled[i], '.') + 1);
      r[i].test = &t[i];
      r[i].m.ops_per_sec = 100 + (double) i;
      r[i].m.seconds_per_op = 1 / r[i].m.ops_per_sec;
      r[i].m.spread = 0.01;
    }
  cJSON *c = compare_build (r, NSCRAMBLED);
  char *text = render (c);
  const char *pk = strstr (text, "\nPublic-key operations");
  static const char *const blocks[] = {
    "  RSA 512 bit ", "  RSA 1024 bit ", "  RSA 2048 bit ", "  RSA 3072 bit ", "  RSA 4096 bit ",
    "  DSA 1024 bit ", "  DH 2048 bit ",
  };
  check (in_order (pk, text + strlen (text), blocks, GB_ARRAY_SIZE (blocks)),
         "public-key blocks: RSA, DSA, DH, each by size in numeric order");
  static const char *const libraries[] = {
    " GMP                ", " GMP sec            ", " OpenSSL            ",
    " libgcrypt          ", " libgcrypt noblind  ", " Nettle             ",
    " Nettle tr          ",
  };
  const char *rsa3072 = pk ? strstr (pk, "  RSA 3072 bit ") : NULL;
  check (in_order (rsa3072, block_end (rsa3072, 3), libraries, GB_ARRAY_SIZE (libraries)),
         "public-key lines: GMP, GMP sec, OpenSSL, libgcrypt, noblind, Nettle, Nettle tr");
  const char *gen = strstr (text, "\nrsa.sign       3072");
  check (in_order (gen, block_end (gen ? gen + 1 : NULL, 1), libraries, GB_ARRAY_SIZE (libraries)),
         "the general table's entries come in the same order");
  static const char *const speed[] = {
    "  GMP                rsa   512 bits", "  OpenSSL            rsa   512 bits",
    "  GMP                rsa  1024 bits", "  GMP sec            rsa  1024 bits",
    "  OpenSSL            rsa  1024 bits", "  GMP                rsa  3072 bits",
    "  GMP sec            rsa  3072 bits", "  OpenSSL            rsa  3072 bits",
    "  libgcrypt          rsa  3072 bits", "  libgcrypt noblind  rsa  3072 bits",
    "  Nettle             rsa  3072 bits", "  Nettle tr          rsa  3072 bits",
    "  GMP sec            rsa  4096 bits", "  OpenSSL            rsa  4096 bits",
  };
  check (in_order (strstr (text, "\nRSA, as"), pk, speed, GB_ARRAY_SIZE (speed)),
         "the RSA table: sizes in numeric order, libraries in the same order");
  free (text);
  cJSON_Delete (c);
}

int
main (void)
{
  test_parse ();
  make_results ();
  cJSON *c = compare_build (results, NFAKE);
  test_build (c);
  test_text (c);
  cJSON_Delete (c);
  test_order ();
  return check_exit_status ();
}
