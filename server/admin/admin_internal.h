/* admin_internal.h: what the files of server/admin/ share: an operator's
 * request once its command line was checked (admin.c), and the function
 * that carries it out against the store (admin_verbs.c).
 */
#ifndef GB_SERVER_ADMIN_INTERNAL_H
#define GB_SERVER_ADMIN_INTERNAL_H

#include "server/admin/admin.h"

/* The exit statuses of admin_main. */
#define ADMIN_DONE 0
#define ADMIN_FAILED 1
#define ADMIN_USAGE 2

/* A checked request: the verb, its target (a fingerprint, a result id,
 * a CPU identity; NULL for log), and the options it takes (NULL when not
 * given).  ACTOR is always set. */
struct admin_request
{
  const char *database, *verb, *target, *actor, *reason, *name, *mode, *build;
  int limit;                    /* log's -n */
};

/* Opens the store and carries RQ out: ADMIN_DONE or ADMIN_FAILED. */
int admin_run (const struct admin_request *rq);

#endif
