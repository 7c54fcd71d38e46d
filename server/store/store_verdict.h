/* store_verdict.h: the shapes in which the store hands a judge
 * (server/judge/plausible.h) what it judges and takes its verdict back:
 * a category's rows, fed through callbacks, the flags it decides, and a
 * node's best score per GHz.  Types alone, so that the judge knows them
 * without the store's functions (store.h includes this file).
 */
#ifndef GB_SERVER_STORE_VERDICT_H
#define GB_SERVER_STORE_VERDICT_H

#include <stddef.h>
#include <stdint.h>

/* A result of a category: its seq, id, source (store.h, "Sources"; a
 * result stored before sources were kept is a source of its own), flags
 * and flag notes.  Nonzero stops. */
typedef int (*store_flags_fn) (void *ctx, int64_t seq, const char *id, const char *source,
                               const char *flags, const char *notes);

/* A score of the result numbered SEQ at NODE (an inner node or a test).
 * Nonzero stops. */
typedef int (*store_value_fn) (void *ctx, int64_t seq, const char *node, double score);

/* New flags for a stored result. */
struct store_flags
{
  const char *id, *flags, *notes;
};

/* How a category is judged again inside the transaction that changed it
 * (store_insert, store_retract): RESULT_FN and VALUE_FN get its newest
 * LIMIT listed results, at most PER_SOURCE of them from any one source
 * (so that one source's flood cannot push the others out), newest
 * first, then every score of them in no useful order, read in that
 * transaction; then DECIDE judges the
 * category (CPU, MODE, BUILD), ID being the result the transaction
 * stored (NULL for a retraction), and returns the flags that change in
 * *CHANGES (owned by CTX, kept until the store's function returns),
 * which the store writes before it commits. */
struct store_rejudge
{
  int limit, per_source;
  store_flags_fn result_fn;
  store_value_fn value_fn;
  void (*decide) (void *ctx, const char *id, const char *cpu, const char *mode,
                  const char *build, const struct store_flags **changes, size_t *n);
  void *ctx;
};

/* The best score per GHz (score / clock in GHz) of an inner node among
 * its 1000 best unflagged listed scores, the CPU identity that reached
 * it, and the best of any other CPU: 0 (and "") when none has a clock. */
struct store_best
{
  double per_ghz;
  char cpu[256];
  double other_per_ghz;
};

#endif
