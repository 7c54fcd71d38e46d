/* util.h: small helpers shared by the client, the server and the tests:
 * checked allocation, a string hash, hex encoding and SHA-256 over
 * OpenSSL's EVP API. */
#ifndef GB_UTIL_H
#define GB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define GB_ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))

/* Allocation that never returns NULL: out of memory ends the program with
 * a message, since no caller can do anything useful without the memory. */
void *gb_xmalloc (size_t n);
void *gb_xcalloc (size_t n, size_t size);
void *gb_xrealloc (void *p, size_t n);
char *gb_xstrdup (const char *s);

/* FNV-1a of the string S: for hash tables, not for security. */
uint64_t gb_hash_string (const char *s);

/* Lower-case hex of LEN bytes into OUT, which holds 2*LEN+1 chars. */
void gb_hex (const unsigned char *in, size_t len, char *out);

/* Incremental SHA-256. */
struct gb_sha256
{
  void *ctx;                    /* EVP_MD_CTX */
};
void gb_sha256_init (struct gb_sha256 *h);
void gb_sha256_update (struct gb_sha256 *h, const void *data, size_t len);
void gb_sha256_final (struct gb_sha256 *h, unsigned char out[32]);
void gb_sha256_hex (const void *data, size_t len, char out[65]);
/* The SHA-256 of the file PATH as hex; 0, or -1 (errno set). */
int gb_sha256_file (const char *path, char out[65]);

/* Monotonic wall time and CPU time of the calling thread, in seconds. */
double gb_wall_seconds (void);
double gb_thread_cpu_seconds (void);
/* The part of the calling thread's CPU time spent in the kernel (page
 * faults, system calls), as the kernel divides it from user time
 * (getrusage RUSAGE_THREAD: in proportion to the clock ticks that found
 * the thread in each mode); 0 where the system does not tell. */
double gb_thread_kernel_seconds (void);
/* Whether gb_thread_cpu_seconds moves in steps too coarse to time a short
 * sample: Windows counts thread time in scheduler ticks (15.625 ms; Wine
 * 10 ms), where a sample of microseconds reads 0 or a whole tick. */
int gb_thread_cpu_coarse (void);
/* Runs the calling thread at NICE, below the others, for work that may
 * wait for theirs (Linux, where a thread has a priority of its own;
 * elsewhere nothing). */
void gb_thread_lower_priority (int nice);

#endif
