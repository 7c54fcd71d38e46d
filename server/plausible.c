/* plausible.c: the plausibility flags (see plausible.h). */
#include "server/plausible.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "suites/stats.h"

static void
add_flag (char *out, size_t size, const char *flag)
{
  size_t len = strlen (out);
  if (strstr (out, flag))
    return;
  snprintf (out + len, size - len, "%s%s", len ? "," : "", flag);
}

int
plausible_outlier (double x, double *v, size_t n)
{
  if (n < PLAUSIBLE_MIN_PEERS)
    return 0;
  stats_sort (v, n);
  double median = stats_median_sorted (v, n);
  double *dev = malloc (n * sizeof *dev);
  if (!dev)
    return 0;
  for (size_t i = 0; i < n; i++)
    dev[i] = fabs (v[i] - median);
  stats_sort (dev, n);
  double mad = stats_median_sorted (dev, n);
  free (dev);
  double scale = fmax (1.4826 * mad, 0.01 * median);
  return fabs (x - median) > PLAUSIBLE_K * scale;
}

static int
contains_word (const char *haystack, const char *word)
{
  return haystack && strstr (haystack, word) != NULL;
}

void
plausible_document (const struct doc_summary *doc, char *out, size_t size)
{
  const char *vendor = doc->cpu_vendor ? doc->cpu_vendor : "";
  int intel = strcmp (vendor, "Intel") == 0 || strcmp (vendor, "GenuineIntel") == 0;
  int amd = strcmp (vendor, "AMD") == 0 || strcmp (vendor, "AuthenticAMD") == 0;

  if ((intel && !contains_word (doc->cpu_name, "Intel"))
      || (amd && !contains_word (doc->cpu_name, "AMD")))
    add_flag (out, size, "brand-mismatch");
  if (doc->mhz_measured > 0
      && ((doc->mhz_max > 0 && doc->mhz_measured > 1.15 * doc->mhz_max)
          || (doc->mhz_max <= 0 && doc->mhz_nominal > 0
              && doc->mhz_measured > 2 * doc->mhz_nominal)))
    add_flag (out, size, "clock-implausible");
}

enum store_status
plausible_flags (struct store *st, const struct doc_summary *doc, char *out, size_t size)
{
  out[0] = '\0';
  plausible_document (doc, out, size);
  for (size_t i = 0; i < doc->ninner; i++)
    {
      double *peers;
      size_t n;
      if (doc->scores[i].depth > 1)
        continue;
      if (store_cpu_scores (st, doc->cpu, doc->scores[i].name, PLAUSIBLE_MAX_PEERS,
                            &peers, &n) != STORE_OK)
        {
          free (peers);
          return STORE_ERROR;
        }
      if (plausible_outlier (doc->scores[i].score, peers, n))
        add_flag (out, size, "score-outlier");
      free (peers);
    }
  return STORE_OK;
}
