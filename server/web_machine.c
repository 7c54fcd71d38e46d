/* web_machine.c: the machine a result ran in (system.machine,
 * docs/sysinfo.md: the board or system model and a device tree board's
 * SoC) as the pages show it, and the machine a CPU's newest unflagged
 * results agree on, for the CPU page.  The snapshot does not hold it, so
 * the CPU page reads the documents of the newest AGREEING results of its
 * view (a few lookups by id), and names a machine only when every one of
 * them names the same.  What it found is kept with the snapshot's entries
 * of the CPU (board_cpu_memo) rather than read on every view: each
 * document is decompressed and parsed whole (a whole run's is 176 KB). */
#include "server/web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/doc_schema.h"
#include "server/web_nodes.h"

#define AGREEING 5

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

/* The ids of the newest results. */
struct newest
{
  char id[AGREEING][65];
  size_t n;
};

static int
take_id (void *ctx, const struct store_row *row, double score)
{
  struct newest *w = ctx;
  (void) score;
  if (w->n < AGREEING)
    snprintf (w->id[w->n++], sizeof w->id[0], "%s", row->id);
  return 0;
}

/* What one result's document says, and whether it agrees with the
 * results before it. */
struct agreement
{
  struct web_machine *m;
  int first, agree;
};

static void
copy_member (const cJSON *system, const char *path, char *out, size_t size)
{
  const cJSON *v = schema_get (system, path);
  snprintf (out, size, "%s", cJSON_IsString (v) ? v->valuestring : "");
}

static int
take_document (void *ctx, const struct store_row *row)
{
  struct agreement *a = ctx;
  struct web_machine here;
  cJSON *doc = row->body ? cJSON_ParseWithLength (row->body, row->body_len) : NULL;
  const cJSON *system = cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM);

  copy_member (system, DOC_MACHINE_MODEL, here.model, sizeof here.model);
  copy_member (system, DOC_MACHINE_SOC, here.soc, sizeof here.soc);
  cJSON_Delete (doc);
  if (a->first)
    *a->m = here;
  else if (strcmp (a->m->model, here.model) != 0 || strcmp (a->m->soc, here.soc) != 0)
    a->agree = 0;
  a->first = 0;
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
  struct agreement a = { m, 1, 1 };

  if (store_list (from->st, &from->sf, take_id, &w) != STORE_OK)
    {
      free (m);
      return NULL;
    }
  for (size_t i = 0; i < w.n && a.agree; i++)
    switch (store_get (from->st, w.id[i], take_document, &a))
      {
      case STORE_OK:
        break;
      case STORE_ERROR:
        free (m);
        return NULL;
      default:                  /* retracted meanwhile, or damaged */
        a.agree = 0;
      }
  if (w.n == 0 || !a.agree || !*m->model)
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
