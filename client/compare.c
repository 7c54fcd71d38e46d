/* compare.c: the comparison table (see compare.h).  Built from the
 * results into cJSON, and printed from cJSON alone, so a document read
 * back from disk prints the same tables. */
#include "client/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/doc_read.h"
#include "model/doc_schema.h"
#include "model/test_pairing.h"

#define MIB (1024.0 * 1024.0)


/* The public-key table: per algorithm, the operation of each column
 * (NULL where no library has one). */
#define PUBKEY_COLUMNS 3
static const char *const pubkey_columns[PUBKEY_COLUMNS] = { "generate", "private", "public" };
static const struct
{
  const char *display, *ops[PUBKEY_COLUMNS];
} pubkey_algorithms[] = {
  { "RSA", { "rsa.keygen", "rsa.sign", "rsa.verify" } },
  { "DSA", { NULL, "dsa.sign", "dsa.verify" } },
  { "DH", { NULL, "dh.derive", NULL } },
};


/* The row of ROWS for K, created at the end if there is none yet. */
static cJSON *
row_for (cJSON *rows, const struct test_pair_key *k)
{
  cJSON *row;
  cJSON_ArrayForEach (row, rows)
    if (strcmp (doc_string (row, "operation"), k->operation) == 0
        && strcmp (doc_string (row, "size"), k->size) == 0)
      return row;
  row = cJSON_CreateObject ();
  cJSON_AddStringToObject (row, "operation", k->operation);
  cJSON_AddStringToObject (row, "size", k->size);
  cJSON_AddItemToObject (row, "entries", cJSON_CreateArray ());
  cJSON_AddItemToArray (rows, row);
  return row;
}

static cJSON *
entry_json (const struct test_pair_key *k, const struct test_result *r)
{
  cJSON *e = cJSON_CreateObject ();
  cJSON_AddStringToObject (e, "library", k->library);
  cJSON_AddStringToObject (e, "variant", k->variant);
  cJSON_AddStringToObject (e, "test", r->test->name);
  cJSON_AddNumberToObject (e, DOC_RESULT_OPS_PER_SEC, r->m.ops_per_sec);
  cJSON_AddNumberToObject (e, DOC_RESULT_SECONDS_PER_OP, r->m.seconds_per_op);
  cJSON_AddNumberToObject (e, DOC_RESULT_SPREAD, r->m.spread);
  if (strcmp (k->operation, "rng") == 0)
    cJSON_AddNumberToObject (e, "mib_per_sec", r->m.ops_per_sec * (double) r->test->a / MIB);
  else
    cJSON_AddBoolToObject (e, "constant_time", test_pairing_constant_time (k));
  return e;
}

static int
is_gmp (const cJSON *entry)
{
  return strcmp (doc_string (entry, "library"), "gmp") == 0;
}

/* The GMP entry of ENTRIES to hold OTHER against: the first whose
 * constant-time property matches, else the first GMP entry; NULL if GMP
 * has none. */
static const cJSON *
fair_gmp (const cJSON *entries, const cJSON *other)
{
  const cJSON *e, *first = NULL;
  int ct = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (other, "constant_time"));
  cJSON_ArrayForEach (e, entries)
    if (is_gmp (e))
      {
        if (ct == cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (e, "constant_time")))
          return e;
        if (!first)
          first = e;
      }
  return first;
}

/* Adds ratios to the other libraries' entries of ROW; returns how many
 * entries got one (0: the row compares nothing). */
static int
add_ratios (cJSON *row)
{
  cJSON *entries = cJSON_GetObjectItemCaseSensitive (row, "entries");
  cJSON *e;
  int n = 0;
  cJSON_ArrayForEach (e, entries)
    {
      const cJSON *g = is_gmp (e) ? NULL : fair_gmp (entries, e);
      if (!g)
        continue;
      double ratio = doc_number (g, DOC_RESULT_OPS_PER_SEC, NAN)
        / doc_number (e, DOC_RESULT_OPS_PER_SEC, NAN);
      double noise = doc_number (g, DOC_RESULT_SPREAD, NAN)
        + doc_number (e, DOC_RESULT_SPREAD, NAN);
      cJSON_AddStringToObject (e, "gmp_test", doc_string (g, "test"));
      cJSON_AddNumberToObject (e, "ratio", ratio);
      cJSON_AddBoolToObject (e, "within_spread", fabs (ratio - 1) <= noise);
      n++;
    }
  return n;
}

/* The public-key table's column of OPERATION, or NULL. */
static const char *
pubkey_column (const char *operation)
{
  for (size_t a = 0; a < GB_ARRAY_SIZE (pubkey_algorithms); a++)
    for (int c = 0; c < PUBKEY_COLUMNS; c++)
      if (pubkey_algorithms[a].ops[c] && strcmp (operation, pubkey_algorithms[a].ops[c]) == 0)
        return pubkey_columns[c];
  return NULL;
}

/* Marks the rows of the public-key table with their column. */
static void
mark_pubkey (cJSON *rows)
{
  cJSON *row;
  cJSON_ArrayForEach (row, rows)
    {
      const char *column = pubkey_column (doc_string (row, "operation"));
      if (column)
        cJSON_AddStringToObject (row, "pubkey", column);
    }
}

cJSON *
compare_build (const struct test_result *results, size_t n)
{
  cJSON *rows = cJSON_CreateArray ();
  struct test_pair_key k;
  for (size_t i = 0; i < n; i++)
    {
      const struct test_result *r = &results[i];
      if (r->outcome != BENCH_OK || test_pairing_parse (r->test->name, &k) != 0)
        continue;
      if (strcmp (k.operation, "rng") == 0)
        snprintf (k.size, sizeof k.size, "%ld", r->test->a);
      cJSON *row = row_for (rows, &k);
      cJSON_AddItemToArray (cJSON_GetObjectItemCaseSensitive (row, "entries"), entry_json (&k, r));
    }
  for (cJSON *row = rows->child, *next; row; row = next)
    {
      next = row->next;
      if (strcmp (doc_string (row, "operation"), "rng") != 0 && add_ratios (row) == 0)
        cJSON_Delete (cJSON_DetachItemViaPointer (rows, row));
    }
  mark_pubkey (rows);
  return rows;
}

void
compare_add_cycles (cJSON *comparisons, double cpu_ghz)
{
  cJSON *row, *e;
  if (!(cpu_ghz > 0))
    return;
  cJSON_ArrayForEach (row, comparisons)
    if (strcmp (doc_string (row, "operation"), "rng") == 0)
      cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
        {
          double bytes_per_sec = doc_number (e, "mib_per_sec", NAN) * MIB;
          cJSON_DeleteItemFromObjectCaseSensitive (e, "cycles_per_byte");
          if (bytes_per_sec > 0)
            cJSON_AddNumberToObject (e, "cycles_per_byte", cpu_ghz * 1e9 / bytes_per_sec);
        }
}

/* Text output. */

static const struct
{
  const char *id, *display;
} library_names[] = {
  { "gmp", "GMP" }, { "openssl", "OpenSSL" }, { "gcrypt", "libgcrypt" }, { "nettle", "Nettle" },
};

/* "OpenSSL", "GMP sec": the library's display name and the variant. */
static void
entry_label (const cJSON *e, char *out, size_t len)
{
  const char *lib = doc_string (e, "library"), *variant = doc_string (e, "variant");
  for (size_t i = 0; i < GB_ARRAY_SIZE (library_names); i++)
    if (strcmp (lib, library_names[i].id) == 0)
      lib = library_names[i].display;
  snprintf (out, len, "%s%s%s", lib, *variant ? " " : "", variant);
}

/* The order of the libraries in every table; others come after them. */
static size_t
library_rank (const cJSON *e)
{
  const char *lib = doc_string (e, "library");
  size_t i = 0;
  while (i < GB_ARRAY_SIZE (library_names) && strcmp (lib, library_names[i].id) != 0)
    i++;
  return i;
}

/* Entries in table order: by library, then the plain variant before the
 * others, by name (GMP, GMP sec, OpenSSL, OpenSSL sec, libgcrypt,
 * libgcrypt noblind, Nettle, Nettle tr). */
static int
label_order (const void *x, const void *y)
{
  const cJSON *a = *(const cJSON *const *) x, *b = *(const cJSON *const *) y;
  size_t ra = library_rank (a), rb = library_rank (b);
  if (ra != rb)
    return ra < rb ? -1 : 1;
  int c = strcmp (doc_string (a, "library"), doc_string (b, "library"));
  return c ? c : strcmp (doc_string (a, "variant"), doc_string (b, "variant"));
}

/* Sizes in numeric order ("512" before "1024"), ties by text. */
static int
size_order (const void *x, const void *y)
{
  const char *a = *(const char *const *) x, *b = *(const char *const *) y;
  long na = strtol (a, NULL, 10), nb = strtol (b, NULL, 10);
  return na != nb ? (na < nb ? -1 : 1) : strcmp (a, b);
}

/* The entries of ROW in table order, into a new array; *N their count. */
static const cJSON **
sorted_entries (const cJSON *row, size_t *n)
{
  const cJSON *entries = cJSON_GetObjectItemCaseSensitive (row, "entries"), *e;
  const cJSON **out = gb_xmalloc ((size_t) cJSON_GetArraySize (entries) * sizeof *out);
  *n = 0;
  cJSON_ArrayForEach (e, entries)
    out[(*n)++] = e;
  qsort (out, *n, sizeof *out, label_order);
  return out;
}

static int
is_rng (const cJSON *row)
{
  return strcmp (doc_string (row, "operation"), "rng") == 0;
}

static void
print_entry (FILE *f, const cJSON *row, const cJSON *e, int first)
{
  char label[2 * TEST_PAIR_FIELD];
  entry_label (e, label, sizeof label);
  fprintf (f, "%-14s %-16s %-18s %11.4g %12.6g %6.1f%%",
           first ? doc_string (row, "operation") : "", first ? doc_string (row, "size") : "",
           label, doc_number (e, DOC_RESULT_SECONDS_PER_OP, NAN),
           doc_number (e, DOC_RESULT_OPS_PER_SEC, NAN),
           100 * doc_number (e, DOC_RESULT_SPREAD, NAN));
  double ratio = doc_number (e, "ratio", NAN);
  if (!isnan (ratio))
    fprintf (f, " %8.3f%s", ratio,
             cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (e, "within_spread")) ? " ~" : "");
  fputc ('\n', f);
}

static void
print_general (FILE *f, const cJSON *comparisons)
{
  const cJSON *row;
  fputs ("GMP and other libraries: ratio = GMP ops/s / library ops/s (above 1: GMP faster),\n"
         "against GMP's constant-time variant for constant-time operations; ~ = within the spreads\n", f);
  fprintf (f, "%-14s %-16s %-18s %11s %12s %7s %8s\n",
           "operation", "size", "library", "s/op", "ops/s", DOC_RESULT_SPREAD, "ratio");
  cJSON_ArrayForEach (row, comparisons)
    if (!is_rng (row))
      {
        size_t n;
        const cJSON **e = sorted_entries (row, &n);
        for (size_t i = 0; i < n; i++)
          print_entry (f, row, e[i], i == 0);
        free (e);
      }
}

static const cJSON *
find_row (const cJSON *comparisons, const char *operation, const char *size)
{
  const cJSON *row;
  cJSON_ArrayForEach (row, comparisons)
    if (strcmp (doc_string (row, "operation"), operation) == 0
        && strcmp (doc_string (row, "size"), size) == 0)
      return row;
  return NULL;
}

/* The entry of ROW from LIBRARY with VARIANT, or NULL. */
static const cJSON *
find_variant (const cJSON *row, const char *library, const char *variant)
{
  const cJSON *e;
  cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
    if (strcmp (doc_string (e, "library"), library) == 0
        && strcmp (doc_string (e, "variant"), variant) == 0)
      return e;
  return NULL;
}

/* The first entry of ROW from LIBRARY, or NULL. */
static const cJSON *
find_entry (const cJSON *row, const char *library)
{
  const cJSON *e;
  cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
    if (strcmp (doc_string (e, "library"), library) == 0)
      return e;
  return NULL;
}

/* One line per library and variant that signs at this size, with the
 * library's verification beside it, as the classic GMP-vs-OpenSSL table. */
static void
print_rsa_size (FILE *f, const cJSON *sign_row, const cJSON *verify_row)
{
  size_t n;
  const cJSON **signs = sorted_entries (sign_row, &n);
  for (size_t i = 0; i < n; i++)
    {
      char label[2 * TEST_PAIR_FIELD];
      const cJSON *s = signs[i];
      const cJSON *v = verify_row ? find_entry (verify_row, doc_string (s, "library")) : NULL;
      entry_label (s, label, sizeof label);
      fprintf (f, "  %-18s rsa %5s bits %10.3gs", label, doc_string (sign_row, "size"),
               doc_number (s, DOC_RESULT_SECONDS_PER_OP, NAN));
      if (v)
        fprintf (f, " %10.3gs %10.1f %10.1f\n", doc_number (v, DOC_RESULT_SECONDS_PER_OP, NAN),
                 doc_number (s, DOC_RESULT_OPS_PER_SEC, NAN),
                 doc_number (v, DOC_RESULT_OPS_PER_SEC, NAN));
      else
        fprintf (f, " %11s %10.1f %10s\n", "-", doc_number (s, DOC_RESULT_OPS_PER_SEC, NAN), "-");
    }
  free (signs);
}

/* The distinct sizes of the rows whose operation is one of OPS (N of
 * them, NULL ones skipped), in numeric order, into a new array; *COUNT
 * their number. */
static const char **
sizes_of (const cJSON *comparisons, const char *const *ops, size_t n, size_t *count)
{
  const cJSON *row;
  const char **sizes = gb_xmalloc ((size_t) cJSON_GetArraySize (comparisons) * sizeof *sizes);
  *count = 0;
  cJSON_ArrayForEach (row, comparisons)
    {
      const char *size = doc_string (row, "size");
      int member = 0, seen = 0;
      for (size_t i = 0; i < n; i++)
        member |= ops[i] && strcmp (doc_string (row, "operation"), ops[i]) == 0;
      for (size_t i = 0; i < *count; i++)
        seen |= strcmp (sizes[i], size) == 0;
      if (member && !seen)
        sizes[(*count)++] = size;
    }
  qsort (sizes, *count, sizeof *sizes, size_order);
  return sizes;
}

static void
print_rsa (FILE *f, const cJSON *comparisons)
{
  static const char *const sign[] = { "rsa.sign" };
  size_t n;
  const char **sizes = sizes_of (comparisons, sign, 1, &n);
  if (n > 0)
    fprintf (f, "\nRSA, as `openssl speed` shows it %16s %11s %10s %10s\n",
             "sign", "verify", "sign/s", "verify/s");
  for (size_t i = 0; i < n; i++)
    print_rsa_size (f, find_row (comparisons, "rsa.sign", sizes[i]),
                    find_row (comparisons, "rsa.verify", sizes[i]));
  free (sizes);
}

/* The rows of algorithm A at SIZE, one per column (NULL if absent). */
static void
pubkey_rows (const cJSON *comparisons, size_t a, const char *size,
             const cJSON *rows[PUBKEY_COLUMNS])
{
  for (int c = 0; c < PUBKEY_COLUMNS; c++)
    rows[c] = pubkey_algorithms[a].ops[c]
      ? find_row (comparisons, pubkey_algorithms[a].ops[c], size) : NULL;
}

/* Whether E, in column C of ROWS, is the first entry of its library and
 * variant in the columns (each library and variant gets one line). */
static int
first_of_label (const cJSON *rows[PUBKEY_COLUMNS], int c, const cJSON *e)
{
  for (int i = 0; i <= c; i++)
    if (rows[i])
      {
        const cJSON *first = find_variant (rows[i], doc_string (e, "library"),
                                           doc_string (e, "variant"));
        if (first)
          return first == e;
      }
  return 0;
}

/* The line of E's library and variant: s/op in each column, or a dash. */
static void
print_pubkey_line (FILE *f, const char *title, const cJSON *rows[PUBKEY_COLUMNS], const cJSON *e)
{
  char label[2 * TEST_PAIR_FIELD];
  entry_label (e, label, sizeof label);
  fprintf (f, "  %-16s %-18s", title, label);
  for (int c = 0; c < PUBKEY_COLUMNS; c++)
    {
      const cJSON *x = rows[c]
        ? find_variant (rows[c], doc_string (e, "library"), doc_string (e, "variant")) : NULL;
      if (x)
        fprintf (f, " %10.3gs", doc_number (x, DOC_RESULT_SECONDS_PER_OP, NAN));
      else
        fprintf (f, " %11s", "-");
    }
  fputc ('\n', f);
}

/* One line per library and variant of the block, in table order. */
static void
print_pubkey_size (FILE *f, size_t a, const char *size, const cJSON *rows[PUBKEY_COLUMNS])
{
  char title[TEST_PAIR_FIELD + 16];
  const cJSON *e, **lines;
  size_t total = 0, n = 0;
  for (int c = 0; c < PUBKEY_COLUMNS; c++)
    if (rows[c])
      total += (size_t) cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (rows[c], "entries"));
  lines = gb_xmalloc (total * sizeof *lines);
  for (int c = 0; c < PUBKEY_COLUMNS; c++)
    if (rows[c])
      cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (rows[c], "entries"))
        if (first_of_label (rows, c, e))
          lines[n++] = e;
  qsort (lines, n, sizeof *lines, label_order);
  snprintf (title, sizeof title, "%s %s bit", pubkey_algorithms[a].display, size);
  for (size_t i = 0; i < n; i++)
    {
      print_pubkey_line (f, title, rows, lines[i]);
      title[0] = '\0';
    }
  free (lines);
}

/* One block per algorithm (RSA, DSA, DH) and size, sizes in numeric
 * order, whatever the order of the rows. */
static void
print_pubkey (FILE *f, const cJSON *comparisons)
{
  const cJSON *rows[PUBKEY_COLUMNS];
  int header = 0;
  for (size_t a = 0; a < GB_ARRAY_SIZE (pubkey_algorithms); a++)
    {
      size_t n;
      const char **sizes = sizes_of (comparisons, pubkey_algorithms[a].ops, PUBKEY_COLUMNS, &n);
      for (size_t i = 0; i < n; i++)
        {
          if (!header)
            fprintf (f, "\nPublic-key operations, s/op, as libgcrypt's `benchmark pubkey`\n"
                     "  %-16s %-18s %11s %11s %11s\n", "algorithm", "library",
                     pubkey_columns[0], pubkey_columns[1], pubkey_columns[2]);
          header = 1;
          pubkey_rows (comparisons, a, sizes[i], rows);
          print_pubkey_size (f, a, sizes[i], rows);
        }
      free (sizes);
    }
}

static void
print_rng (FILE *f, const cJSON *row)
{
  const cJSON *e;
  fprintf (f, "\nRandom generators, blocks of %s bytes %8s %12s %7s\n",
           doc_string (row, "size"), "MiB/s", "cycles/byte", DOC_RESULT_SPREAD);
  cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
    {
      double cpb = doc_number (e, "cycles_per_byte", NAN);
      fprintf (f, "  %-34s %10.1f", doc_string (e, "library"), doc_number (e, "mib_per_sec", NAN));
      if (isnan (cpb))
        fprintf (f, " %12s", "-");
      else
        fprintf (f, " %12.2f", cpb);
      fprintf (f, " %6.1f%%\n", 100 * doc_number (e, DOC_RESULT_SPREAD, NAN));
    }
}

void
compare_print_text (FILE *f, const cJSON *comparisons)
{
  const cJSON *row;
  int general = 0;
  cJSON_ArrayForEach (row, comparisons)
    general |= !is_rng (row);
  if (general)
    {
      print_general (f, comparisons);
      print_rsa (f, comparisons);
      print_pubkey (f, comparisons);
    }
  cJSON_ArrayForEach (row, comparisons)
    if (is_rng (row))
      print_rng (f, row);
}
