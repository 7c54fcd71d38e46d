/* registry_id.h: the identity of the test registry.
 *
 * Every result document carries it ("registry", docs/result-format.md),
 * and the server refuses a document whose registry differs from its own
 * (docs/protocol.md), since it could neither recognise all the tests nor
 * recompute the same scores.  It is the first 16 hex digits of a SHA-256
 * over what scoring depends on: every test's name, its flags, and the
 * weight of each node on its path.  The suites only some builds have (the
 * optional libraries, registry_libs.c) are left out, so that builds with
 * and without them agree; their tests live in hierarchies of their own.
 */
#ifndef GB_REGISTRY_ID_H
#define GB_REGISTRY_ID_H

#define REGISTRY_ID_LEN 16

/* 16 lower-case hex digits, computed once. */
const char *registry_id (void);

#endif
