/* bench-doc.h: result documents for the server benchmarks
 * (bench/server-load.c, bench/server-fill.c): a fixture read from a file,
 * and copies of it whose measurements are scaled, so that they land at
 * different places in the server's ranked indexes as real results do. */
#ifndef GB_BENCH_DOC_H
#define GB_BENCH_DOC_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* The file at PATH (at most 1 MiB, NUL-terminated), *LEN its length;
 * exits with a message when it cannot be read. */
char *bench_read_file (const char *path, size_t *len);

/* FIXTURE parsed, with its "submitter" member removed (the benchmarks
 * add their own); exits with a message when it is not JSON. */
cJSON *bench_load_fixture (const char *path);

/* FIXTURE with every test's ops/s (its median and fastest sample's too)
 * and every score multiplied by F (a
 * score is a weighted geometric mean of ops/s, so it scales by F too and
 * the server's recomputation still agrees), printed as the client prints
 * documents; *LEN its length without the final '}'. */
char *bench_scaled_document (cJSON *fixture, double f, size_t *len);

#endif
