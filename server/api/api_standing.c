/* api_standing.c: the "standing" member of the answer to an upload
 * (docs/protocol.md, "Standing"): where the new result's GMPbench score
 * stands within its CPU row and its architecture, among the unflagged
 * listed results of its run mode and GMP build kind.
 *
 * It reads the leaderboard's snapshot once that has the upload in it
 * (board_acquire_recent: the update pages wait for too, never a full
 * build), so the numbers are those the CPU page shows right after; the
 * arithmetic is board_standing's (server/board/board_standing.c). */
#include "server/api/api_json.h"

#include <math.h>
#include <string.h>
#include "server/board/board.h"

/* The GMPbench score of DOC, or NAN when its run did not make one. */
static double
gmpbench_score (const struct doc_summary *doc)
{
  for (size_t i = 0; i < doc->ninner; i++)
    if (strcmp (doc->scores[i].name, BOARD_SCORE_NODE) == 0)
      return doc->scores[i].score;
  return NAN;
}

/* A percentile as sent: 0-100, to one decimal. */
static double
one_decimal (double p)
{
  return floor (p * 10 + 0.5) / 10;
}

cJSON *
api_standing (struct server *srv, const struct doc_summary *doc, const char *build,
              int counted)
{
  struct board_filter f = { { NULL }, 0, 0 };
  struct board_standing st;
  cJSON *obj = cJSON_CreateObject ();
  struct board *b = board_acquire_recent (srv);

  if (!b)
    return obj;
  f.value[BF_CPU] = doc->cpu;
  f.value[BF_ARCH] = doc->arch;
  f.value[BF_MODE] = doc->mode;
  f.value[BF_BUILD] = build;
  board_standing (b, &f, gmpbench_score (doc), counted, &st);
  board_release (b);
  if (st.has_cpu)
    {
      cJSON *cpu = cJSON_AddObjectToObject (obj, "cpu");
      cJSON_AddNumberToObject (cpu, "sources", (double) st.cpu_sources);
      cJSON_AddNumberToObject (cpu, "results", (double) st.cpu_results);
      cJSON_AddNumberToObject (cpu, "median", st.cpu_median);
      cJSON_AddNumberToObject (cpu, "percentile", one_decimal (st.cpu_percentile));
    }
  if (st.has_arch)
    {
      cJSON *arch = cJSON_AddObjectToObject (obj, "arch");
      cJSON_AddStringToObject (arch, "name", doc->arch);
      cJSON_AddStringToObject (arch, "mode", doc->mode);
      cJSON_AddNumberToObject (arch, "results", (double) st.arch_results);
      cJSON_AddNumberToObject (arch, "percentile", one_decimal (st.arch_percentile));
    }
  return obj;
}
