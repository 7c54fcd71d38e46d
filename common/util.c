/* util.c: checked allocation, hex encoding, SHA-256 and clocks (see util.h). */
#define _GNU_SOURCE             /* RUSAGE_THREAD */
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef _WIN32
#include <sys/resource.h>
#endif
#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <openssl/evp.h>

static void
out_of_memory (size_t n)
{
  fprintf (stderr, "gmpbench: out of memory (allocating %zu bytes)\n", n);
  abort ();
}

void *
gb_xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    out_of_memory (n);
  return p;
}

void *
gb_xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory (n * size);
  return p;
}

void *
gb_xrealloc (void *p, size_t n)
{
  void *q = realloc (p, n ? n : 1);
  if (!q)
    out_of_memory (n);
  return q;
}

char *
gb_xstrdup (const char *s)
{
  size_t n = strlen (s) + 1;
  return memcpy (gb_xmalloc (n), s, n);
}

uint64_t
gb_hash_string (const char *s)
{
  uint64_t h = 14695981039346656037u;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211u;
  return h;
}

void
gb_hex (const unsigned char *in, size_t len, char *out)
{
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < len; i++)
    {
      out[2 * i] = digits[in[i] >> 4];
      out[2 * i + 1] = digits[in[i] & 15];
    }
  out[2 * len] = '\0';
}

void
gb_sha256_init (struct gb_sha256 *h)
{
  EVP_MD_CTX *ctx = EVP_MD_CTX_new ();
  if (!ctx || EVP_DigestInit_ex (ctx, EVP_sha256 (), NULL) != 1)
    out_of_memory (sizeof *h);
  h->ctx = ctx;
}

void
gb_sha256_update (struct gb_sha256 *h, const void *data, size_t len)
{
  EVP_DigestUpdate (h->ctx, data, len);
}

void
gb_sha256_final (struct gb_sha256 *h, unsigned char out[32])
{
  unsigned int n = 32;
  EVP_DigestFinal_ex (h->ctx, out, &n);
  EVP_MD_CTX_free (h->ctx);
  h->ctx = NULL;
}

void
gb_sha256_hex (const void *data, size_t len, char out[65])
{
  struct gb_sha256 h;
  unsigned char md[32];
  gb_sha256_init (&h);
  gb_sha256_update (&h, data, len);
  gb_sha256_final (&h, md);
  gb_hex (md, 32, out);
}

int
gb_sha256_file (const char *path, char out[65])
{
  FILE *f = fopen (path, "rb");
  struct gb_sha256 h;
  unsigned char buf[65536], md[32];
  size_t got;
  if (f == NULL)
    return -1;
  gb_sha256_init (&h);
  while ((got = fread (buf, 1, sizeof buf, f)) > 0)
    gb_sha256_update (&h, buf, got);
  gb_sha256_final (&h, md);
  int bad = ferror (f);
  fclose (f);
  if (bad)
    return -1;
  gb_hex (md, 32, out);
  return 0;
}

double
gb_wall_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double
gb_thread_cpu_seconds (void)
{
  struct timespec ts;
#ifdef CLOCK_THREAD_CPUTIME_ID
  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return ts.tv_sec + ts.tv_nsec * 1e-9;
#endif
  return (double) clock () / CLOCKS_PER_SEC;
}

double
gb_thread_kernel_seconds (void)
{
#ifdef RUSAGE_THREAD
  struct rusage u;
  if (getrusage (RUSAGE_THREAD, &u) == 0)
    return u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
#endif
  return 0;
}

void
gb_thread_lower_priority (int nice)
{
#ifdef __linux__
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), nice);
#else
  (void) nice;
#endif
}

int
gb_thread_cpu_coarse (void)
{
#if defined _WIN32
  return 1;
#elif defined CLOCK_THREAD_CPUTIME_ID
  struct timespec res;
  return clock_getres (CLOCK_THREAD_CPUTIME_ID, &res) != 0 || res.tv_sec > 0
    || res.tv_nsec > 100000;
#else
  return 1;
#endif
}
