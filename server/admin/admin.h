/* admin.h: `gmpbench-server admin`, what the site's operators do to keys
 * and results through the database (docs/server.md, "Administration"):
 *
 *   admin ban|unban|unverify FINGERPRINT
 *   admin verify FINGERPRINT --name NAME
 *   admin hide ID --reason TEXT
 *   admin unhide ID
 *   admin rejudge CPU [--mode MODE] [--build BUILD]
 *   admin log [-n N]
 *
 * each with [--database DB] [--actor NAME] [--reason TEXT].  Every
 * action is written with its audit row (who, when, why) in one
 * transaction of the store, and announced to running servers as their
 * own changes are.  `key verify` and `key ban` are the same actions
 * (server/main.c hands them here).
 */
#ifndef GB_SERVER_ADMIN_H
#define GB_SERVER_ADMIN_H

#include <stdio.h>

/* Runs the verb ARGV[0] with its arguments and options: 0 when done, 1
 * when it failed or changed nothing (an unknown target, a target already
 * so, the database), 2 for a usage error; messages on standard error. */
int admin_main (int argc, char **argv);

/* The lines of `gmpbench-server --help` about administration: its
 * forms, for the synopsis, and its options. */
void admin_usage_forms (FILE *out);
void admin_usage_options (FILE *out);

#endif
