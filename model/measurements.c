/* measurements.c: the fingerprint of a document's measurements (see
 * measurements.h).
 *
 * The canonical text of a JSON value, written recursively: a number is
 * '#' and its value in %.*e with MEASUREMENTS_DIGITS significant digits
 * (zero without its sign); a string '"', its length, ':' and its bytes;
 * true, false and null 't', 'f' and 'n'; an object '{', then each member
 * as its name's length, ':', the name, '=', the value's text and ';', by
 * name, then '}'; an array '[', its elements' texts each followed by ','
 * in byte order, then ']'.  Lengths make the text unambiguous, so two
 * values have the same text only when they are the same up to order and
 * rounding.  The fingerprint is the text's SHA-256. */
#include "model/measurements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

/* A growing text. */
struct text
{
  char *s;
  size_t len, cap;
};

static void
put (struct text *t, const char *s, size_t len)
{
  if (t->len + len + 1 > t->cap)
    {
      t->cap = 2 * (t->len + len + 1);
      t->s = gb_xrealloc (t->s, t->cap);
    }
  memcpy (t->s + t->len, s, len);
  t->len += len;
  t->s[t->len] = '\0';
}

static void
put_str (struct text *t, const char *s)
{
  put (t, s, strlen (s));
}

/* LEN, ':' and the LEN bytes of S. */
static void
put_counted (struct text *t, const char *s)
{
  char count[32];
  snprintf (count, sizeof count, "%zu:", strlen (s));
  put_str (t, count);
  put_str (t, s);
}

static void canonical (struct text *t, const cJSON *v);

static int
by_name (const void *a, const void *b)
{
  const cJSON *x = *(const cJSON *const *) a, *y = *(const cJSON *const *) b;
  return strcmp (x->string, y->string);
}

static int
by_bytes (const void *a, const void *b)
{
  const struct text *x = a, *y = b;
  int c = memcmp (x->s, y->s, x->len < y->len ? x->len : y->len);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

static void
canonical_object (struct text *t, const cJSON *v)
{
  size_t n = (size_t) cJSON_GetArraySize (v), i = 0;
  const cJSON **member = gb_xmalloc ((n ? n : 1) * sizeof *member);

  for (const cJSON *m = v->child; m; m = m->next)
    member[i++] = m;
  qsort (member, n, sizeof *member, by_name);
  put_str (t, "{");
  for (i = 0; i < n; i++)
    {
      put_counted (t, member[i]->string);
      put_str (t, "=");
      canonical (t, member[i]);
      put_str (t, ";");
    }
  put_str (t, "}");
  free (member);
}

static void
canonical_array (struct text *t, const cJSON *v)
{
  size_t n = (size_t) cJSON_GetArraySize (v), i = 0;
  struct text *element = gb_xcalloc (n ? n : 1, sizeof *element);

  for (const cJSON *e = v->child; e; e = e->next)
    canonical (&element[i++], e);
  qsort (element, n, sizeof *element, by_bytes);
  put_str (t, "[");
  for (i = 0; i < n; i++)
    {
      put (t, element[i].s, element[i].len);
      put_str (t, ",");
      free (element[i].s);
    }
  put_str (t, "]");
  free (element);
}

static void
canonical (struct text *t, const cJSON *v)
{
  char number[64];

  if (cJSON_IsNumber (v))
    {
      snprintf (number, sizeof number, "#%.*e", MEASUREMENTS_DIGITS - 1,
                v->valuedouble == 0 ? 0.0 : v->valuedouble);
      put_str (t, number);
    }
  else if (cJSON_IsString (v))
    {
      put_str (t, "\"");
      put_counted (t, v->valuestring);
    }
  else if (cJSON_IsObject (v))
    canonical_object (t, v);
  else if (cJSON_IsArray (v))
    canonical_array (t, v);
  else
    put_str (t, cJSON_IsTrue (v) ? "t" : cJSON_IsFalse (v) ? "f" : "n");
}

void
measurements_fingerprint (const cJSON *results, char hex[65])
{
  struct text t = { NULL, 0, 0 };
  canonical (&t, results);
  gb_sha256_hex (t.s, t.len, hex);
  free (t.s);
}
