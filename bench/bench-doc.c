/* bench-doc.c: result documents for the server benchmarks (bench-doc.h). */
#include "bench/bench-doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

char *
bench_read_file (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    {
      perror (path);
      exit (1);
    }
  char *text = gb_xmalloc (1 << 20);
  *len = fread (text, 1, (1 << 20) - 1, f);
  text[*len] = '\0';
  fclose (f);
  return text;
}

cJSON *
bench_load_fixture (const char *path)
{
  size_t len;
  char *text = bench_read_file (path, &len);
  cJSON *doc = cJSON_ParseWithLength (text, len);
  free (text);
  if (!doc)
    {
      fprintf (stderr, "%s: not JSON\n", path);
      exit (1);
    }
  cJSON_DeleteItemFromObjectCaseSensitive (doc, "submitter");
  return doc;
}

static void
scale_number (cJSON *obj, const char *name, double f)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, name);
  if (cJSON_IsNumber (item))
    cJSON_SetNumberValue (item, item->valuedouble * f);
}

char *
bench_scaled_document (cJSON *fixture, double f, size_t *len)
{
  cJSON *doc = cJSON_Duplicate (fixture, 1), *r;
  cJSON_ArrayForEach (r, cJSON_GetObjectItemCaseSensitive (doc, "results"))
    {
      scale_number (r, "ops_per_sec", f);
      scale_number (r, "median_ops_per_sec", f);
      scale_number (r, "fast_ops_per_sec", f);
      scale_number (r, "seconds_per_op", 1 / f);
    }
  cJSON_ArrayForEach (r, cJSON_GetObjectItemCaseSensitive (doc, "scores"))
    cJSON_SetNumberValue (r, r->valuedouble * f);
  char *text = cJSON_Print (doc);
  cJSON_Delete (doc);
  if (!text)
    {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
  *len = (size_t) (strrchr (text, '}') - text);
  return text;
}
