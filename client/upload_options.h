/* upload_options.h: the options that `gmpbench run --submit`, `gmpbench
 * submit` and `gmpbench retract` share, declared once as rows of their
 * option tables (options.h); their values go into the command's struct
 * submit_options. */
#ifndef GB_CLIENT_UPLOAD_OPTIONS_H
#define GB_CLIENT_UPLOAD_OPTIONS_H

#include "client/options.h"
#include "submit/submit.h"

/* --server, --cacert, --dry-run, --timeout and --retries into SO; with
 * NEED not NULL, each is an error without the option NEED. */
#define UPLOAD_OPTIONS(so, need) \
  OPT_STRING (0, "server", "URL", &(so)->server, \
              "the results server (default: $GMPBENCH_SERVER, then\n" \
              "the config file's 'server'; 'gmpbench status' shows it)", \
              .needs = need), \
  OPT_STRING (0, "cacert", "FILE", &(so)->cacert, \
              "trust the certificate authorities in FILE (PEM)\n" \
              "instead of the system's, for a private server", .needs = need), \
  OPT_FLAG (0, "dry-run", &(so)->dry_run, \
            "print the requests that would be sent; send nothing", .needs = need), \
  OPT_SECONDS (0, "timeout", &(so)->timeout, \
               "give up an attempt after SECS (default 60)", .needs = need), \
  OPT_COUNT (0, "retries", "N", &(so)->retries, 0, SUBMIT_MAX_RETRIES, \
             "attempts after the first on network errors, 408,\n" \
             "429 and 5xx, with growing delays (default 4)", .needs = need)

/* --unlisted into SO, for uploads (a retraction has none). */
#define UPLOAD_UNLISTED_OPTION(so, need) \
  OPT_FLAG (0, "unlisted", &(so)->unlisted, \
            "reachable by its link only, never in listings", .needs = need)

/* --yes into SO, for uploads: consent to the server without being asked
 * (submit/consent.h). */
#define UPLOAD_CONSENT_OPTION(so, need) \
  OPT_FLAG (0, "yes", &(so)->yes, \
            "consent to making the result public on this server\n" \
            "without the question asked before the first upload\n" \
            "(remembered, as a \"y\" is)", .needs = need)

#endif
