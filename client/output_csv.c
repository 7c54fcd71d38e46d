/* output_csv.c: a result document as one CSV table for spreadsheets.
 *
 * One header line, then one record per test (measured or skipped) and one
 * per scored node, so that the whole run sorts and filters as one sheet:
 *
 *   kind,name,ops_per_sec,seconds_per_op,spread,samples,flags,score,
 *   gmp_ratio,within_spread,mib_per_sec,cycles_per_byte,reason
 *
 * kind is test, skipped or node.  gmp_ratio and within_spread come from
 * the comparisons (GMP's ops/s over this library's), mib_per_sec and
 * cycles_per_byte for random generators.  Numbers are printed with 17
 * significant digits (%.17g, exact round trip); an empty field is unknown.
 * Text fields go through escape_csv(). */
#include <math.h>
#include "model/escape.h"
#include "client/report.h"
#include "model/doc_schema.h"

static void
number (FILE *f, double v)
{
  if (!isnan (v))
    fprintf (f, "%.17g", v);
  fputc (',', f);
}

static void
text (FILE *f, const char *s, int last)
{
  escape_csv (f, s);
  fputc (last ? '\n' : ',', f);
}

static void
flags (FILE *f, const cJSON *result)
{
  const cJSON *flag;
  const char *sep = "";
  cJSON_ArrayForEach (flag, cJSON_GetObjectItemCaseSensitive (result, "flags"))
    if (cJSON_IsString (flag))
      {
        fputs (sep, f);
        escape_csv (f, flag->valuestring);
        sep = " ";
      }
  fputc (',', f);
}

static void
test_record (FILE *f, const struct report *r, const struct report_row *row)
{
  const cJSON *res = row->result;
  const cJSON *cmp = report_comparison_entry (r->comparisons, row->name);
  const cJSON *within = cJSON_GetObjectItemCaseSensitive (cmp, "within_spread");
  text (f, res ? "test" : "skipped", 0);
  text (f, row->name, 0);
  number (f, report_num (res, DOC_RESULT_OPS_PER_SEC));
  number (f, report_num (res, DOC_RESULT_SECONDS_PER_OP));
  number (f, report_num (res, DOC_RESULT_SPREAD));
  number (f, report_num (res, DOC_RESULT_SAMPLES));
  flags (f, res);
  fputc (',', f);               /* score */
  number (f, report_num (cmp, "ratio"));
  text (f, cJSON_IsBool (within) ? (cJSON_IsTrue (within) ? "true" : "false") : "", 0);
  number (f, report_num (cmp, "mib_per_sec"));
  number (f, report_num (cmp, "cycles_per_byte"));
  text (f, row->reason ? row->reason : "", 1);
}

void
report_csv (FILE *f, const struct report *r)
{
  const cJSON *s;
  fputs ("kind,name,ops_per_sec,seconds_per_op,spread,samples,flags,score,"
         "gmp_ratio,within_spread,mib_per_sec,cycles_per_byte,reason\n", f);
  for (size_t i = 0; i < r->nrows; i++)
    test_record (f, r, &r->rows[i]);
  cJSON_ArrayForEach (s, r->scores)
    if (s->string && cJSON_IsNumber (s))
      {
        text (f, "node", 0);
        text (f, s->string, 0);
        fputs (",,,,,", f);
        number (f, s->valuedouble);
        fputs (",,,,\n", f);
      }
}
