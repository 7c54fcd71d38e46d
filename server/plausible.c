/* plausible.c: the plausibility flags (see plausible.h).
 *
 * The outlier test reads the newest PLAUSIBLE_MAX_PEERS scores of the
 * document's CPU for each headline node.  For a CPU with that many results
 * already, the median and MAD of the newest window move by a fraction of a
 * percent per upload, so they are kept in a small cache (one slot per hash
 * of CPU and node, the newer entry winning a collision) and read again only
 * after PEER_REUSES uploads or PEER_TTL seconds.  A CPU with fewer peers is
 * read on every upload: there each new result moves the median. */
#include "server/plausible.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/order_stats.h"

static void
add_flag (char *out, size_t size, const char *flag)
{
  size_t len = strlen (out);
  if (strstr (out, flag))
    return;
  snprintf (out + len, size - len, "%s%s", len ? "," : "", flag);
}

#define PEER_SLOTS 1024
#define PEER_REUSES 200
#define PEER_TTL 60

/* The median and scaled MAD of a saturated window of peers. */
struct peer_slot
{
  const struct store *store;
  char *key;                    /* "CPU\nNODE" */
  double median, scale;
  int uses;
  time_t taken;
};

static struct peer_slot peer_cache[PEER_SLOTS];
static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;

/* The median of V and its deviation scale (1.4826 MAD, at least 1% of the
 * median); V (N > 0 values) is sorted in place.  -1 when out of memory. */
static int
peer_stats (double *v, size_t n, double *median, double *scale)
{
  stats_sort (v, n);
  *median = stats_median_sorted (v, n);
  double *dev = malloc (n * sizeof *dev);
  if (!dev)
    return -1;
  for (size_t i = 0; i < n; i++)
    dev[i] = fabs (v[i] - *median);
  stats_sort (dev, n);
  double mad = stats_median_sorted (dev, n);
  free (dev);
  *scale = fmax (1.4826 * mad, 0.01 * *median);
  return 0;
}

int
plausible_outlier (double x, double *v, size_t n)
{
  double median, scale;
  if (n < PLAUSIBLE_MIN_PEERS || peer_stats (v, n, &median, &scale) < 0)
    return 0;
  return fabs (x - median) > PLAUSIBLE_K * scale;
}

static struct peer_slot *
peer_slot (const struct store *st, const char *key)
{
  uint64_t h = 1469598103934665603u;   /* FNV-1a */
  for (const char *c = key; *c; c++)
    h = (h ^ (unsigned char) *c) * 1099511628211u;
  h ^= (uint64_t) (uintptr_t) st;
  return &peer_cache[h % PEER_SLOTS];
}

/* The cached statistics of KEY into MEDIAN and SCALE: 1 when there. */
static int
peer_cached (const struct store *st, const char *key, double *median, double *scale)
{
  int hit = 0;
  pthread_mutex_lock (&peer_lock);
  struct peer_slot *s = peer_slot (st, key);
  if (s->key && s->store == st && strcmp (s->key, key) == 0
      && s->uses < PEER_REUSES && time (NULL) - s->taken < PEER_TTL)
    {
      s->uses++;
      *median = s->median;
      *scale = s->scale;
      hit = 1;
    }
  pthread_mutex_unlock (&peer_lock);
  return hit;
}

static void
peer_keep (const struct store *st, const char *key, double median, double scale)
{
  char *copy = strdup (key);
  if (!copy)
    return;
  pthread_mutex_lock (&peer_lock);
  struct peer_slot *s = peer_slot (st, key);
  free (s->key);
  *s = (struct peer_slot) { st, copy, median, scale, 0, time (NULL) };
  pthread_mutex_unlock (&peer_lock);
}

/* Whether SCORE of NODE is an outlier among the CPU's peers: 1 or 0, -1
 * when the database fails. */
static int
outlier (struct store *st, const char *cpu, const char *node, double score)
{
  char key[512];
  double median, scale, *peers;
  size_t n;

  snprintf (key, sizeof key, "%s\n%s", cpu, node);
  if (peer_cached (st, key, &median, &scale))
    return fabs (score - median) > PLAUSIBLE_K * scale;
  if (store_cpu_scores (st, cpu, node, PLAUSIBLE_MAX_PEERS, &peers, &n) != STORE_OK)
    {
      free (peers);
      return -1;
    }
  int out = 0;
  if (n >= PLAUSIBLE_MIN_PEERS && peer_stats (peers, n, &median, &scale) == 0)
    {
      out = fabs (score - median) > PLAUSIBLE_K * scale;
      if (n == PLAUSIBLE_MAX_PEERS)
        peer_keep (st, key, median, scale);
    }
  free (peers);
  return out;
}

static int
contains_word (const char *haystack, const char *word)
{
  return haystack && strstr (haystack, word) != NULL;
}

/* The maker a CPU identity or vendor string names: "Intel", "AMD" or NULL. */
static const char *
maker (const char *s)
{
  if (contains_word (s, "GenuineIntel") || (s && strcmp (s, "Intel") == 0))
    return "Intel";
  if (contains_word (s, "AuthenticAMD") || (s && strcmp (s, "AMD") == 0))
    return "AMD";
  return NULL;
}

int
plausible_brand_fits (const char *identity, const char *vendor, const char *brand)
{
  const char *by_identity = maker (identity), *by_vendor = maker (vendor);
  if (!brand || !*brand)
    return 0;
  return (!by_identity || contains_word (brand, by_identity))
    && (!by_vendor || contains_word (brand, by_vendor));
}

void
plausible_document (const struct doc_summary *doc, char *out, size_t size)
{
  if (doc->cpu_name && *doc->cpu_name
      && !plausible_brand_fits (doc->cpu, doc->cpu_vendor, doc->cpu_name))
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
      if (doc->scores[i].depth > 1)
        continue;
      int o = outlier (st, doc->cpu, doc->scores[i].name, doc->scores[i].score);
      if (o < 0)
        return STORE_ERROR;
      if (o)
        add_flag (out, size, "score-outlier");
    }
  return STORE_OK;
}
