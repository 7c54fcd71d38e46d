/* web_machine.c: the machine a result ran in (system.machine,
 * docs/sysinfo.md: the board or system model and a device tree board's
 * SoC) as the pages show it, and the machine a CPU's newest unflagged
 * results agree on, for the CPU page.  The snapshot does not hold it, so
 * the CPU page reads the documents of the newest AGREEING results of its
 * view (a few lookups by id), and names a machine only when every one of
 * them names the same.  What it found is kept with the snapshot's entries
 * of the CPU (board_cpu_memo) rather than read on every view: each
 * document is decompressed and parsed whole (a whole run's is 176 KB).
 * What each result's document says is kept too, by seq (machine_of):
 * when a result of the CPU arrives, the page made again reads only the
 * new document (reading five took about half of a CPU page's 40-60 ms at
 * 10,000 results, made again after every upload of its CPU). */
#include "server/web/web_page.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/doc_schema.h"
#include "server/web/web_nodes.h"

#define AGREEING 5
#define KNOWN_SLOTS 1024        /* results whose machine is kept: 0.5 MB at most */

void
web_machine_text (FILE *f, const char *model, const char *soc)
{
  if (*model)
    {
      fputs (" in <span id=\"machine-model\">", f);
      web_text (f, model);
      fputs ("</span>", f);
    }
  if (*soc)
    {
      fputs (" (SoC ", f);
      web_text (f, soc);
      fputs (")", f);
    }
}

/* The ids and seqs of the newest results. */
struct newest
{
  char id[AGREEING][65];
  int64_t seq[AGREEING];
  size_t n;
};

static int
take_id (void *ctx, const struct store_row *row, double score)
{
  struct newest *w = ctx;
  (void) score;
  if (w->n < AGREEING)
    {
      w->seq[w->n] = row->seq;
      snprintf (w->id[w->n++], sizeof w->id[0], "%s", row->id);
    }
  return 0;
}

/* The machines of results already read, by seq: a slot per seq modulo
 * KNOWN_SLOTS, the newest read taking it.  A document never changes. */
static struct known
{
  int64_t seq;
  struct web_machine *m;        /* NULL: empty */
} known[KNOWN_SLOTS];
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static int
known_machine (int64_t seq, struct web_machine *out)
{
  struct known *slot = &known[(uint64_t) seq % KNOWN_SLOTS];
  int found = 0;
  pthread_mutex_lock (&known_lock);
  if (slot->m && slot->seq == seq)
    {
      *out = *slot->m;
      found = 1;
    }
  pthread_mutex_unlock (&known_lock);
  return found;
}

static void
know_machine (int64_t seq, const struct web_machine *m)
{
  struct known *slot = &known[(uint64_t) seq % KNOWN_SLOTS];
  pthread_mutex_lock (&known_lock);
  if (!slot->m)
    slot->m = gb_xmalloc (sizeof *slot->m);
  slot->seq = seq;
  *slot->m = *m;
  pthread_mutex_unlock (&known_lock);
}

static void
copy_member (const cJSON *system, const char *path, char *out, size_t size)
{
  const cJSON *v = schema_get (system, path);
  snprintf (out, size, "%s", cJSON_IsString (v) ? v->valuestring : "");
}

/* The machine one result's document names. */
static int
take_document (void *ctx, const struct store_row *row)
{
  struct web_machine *here = ctx;
  cJSON *doc = row->body ? cJSON_ParseWithLength (row->body, row->body_len) : NULL;
  const cJSON *system = cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM);

  copy_member (system, DOC_MACHINE_MODEL, here->model, sizeof here->model);
  copy_member (system, DOC_MACHINE_SOC, here->soc, sizeof here->soc);
  cJSON_Delete (doc);
  return 1;
}

/* Where agreed reads: the store, and the filter. */
struct machine_source
{
  struct store *st;
  struct store_filter sf;
};

/* The machine the results of the store filter CTX agree on (empty when
 * none), malloc'ed (*BYTES: its size); NULL when the store fails. */
static void *
agreed (void *ctx, size_t *bytes)
{
  const struct machine_source *from = ctx;
  struct newest w = { .n = 0 };
  struct web_machine *m = gb_xcalloc (1, sizeof *m);
  int agree = 1;

  if (store_list (from->st, &from->sf, take_id, &w) != STORE_OK)
    {
      free (m);
      return NULL;
    }
  for (size_t i = 0; i < w.n && agree; i++)
    {
      struct web_machine here;
      if (!known_machine (w.seq[i], &here))
        switch (store_get (from->st, w.id[i], take_document, &here))
          {
          case STORE_OK:
            know_machine (w.seq[i], &here);
            break;
          case STORE_ERROR:
            free (m);
            return NULL;
          default:              /* retracted meanwhile, or damaged */
            agree = 0;
            continue;
          }
      if (i == 0)
        *m = here;
      else if (strcmp (m->model, here.model) != 0 || strcmp (m->soc, here.soc) != 0)
        agree = 0;
    }
  if (w.n == 0 || !agree || !*m->model)
    memset (m, 0, sizeof *m);
  *bytes = sizeof *m;
  return m;
}

int
web_machine_agreed (struct board *b, struct store *st, const struct board_filter *f,
                    struct web_machine *m)
{
  struct machine_source from = { st, { 0 } };
  char *key = node_memo_key ("machine", f);
  int owned = 1;
  struct web_machine *kept = NULL;

  memset (m, 0, sizeof *m);
  node_store_filter (b, f, &from.sf);
  from.sf.unflagged_only = 1;
  from.sf.limit = AGREEING;
  if (key && f->value[BF_CPU])
    kept = board_cpu_memo (b, f->value[BF_CPU], key, agreed, &from, free, &owned);
  free (key);
  if (!kept)
    return -1;
  *m = *kept;
  if (owned)
    free (kept);
  return *m->model != '\0';
}
