/* prefault.c: GMP's allocation functions wrapped to touch every page they
 * hand out (see prefault.h). */
#include "engine/prefault.h"

#include <stddef.h>
#include <gmp.h>

#define PREFAULT_PAGE 4096

static void *(*saved_alloc) (size_t);
static void *(*saved_realloc) (void *, size_t, size_t);
static void (*saved_free) (void *, size_t);

/* Writes a byte into every page of the bytes [FROM, TO) of P. */
static void
touch (void *p, size_t from, size_t to)
{
  volatile unsigned char *b = p;
  for (size_t i = from; i < to; i += PREFAULT_PAGE)
    b[i] = 0;
  if (to > from)
    b[to - 1] = 0;
}

static void *
touched_alloc (size_t n)
{
  void *p = saved_alloc (n);
  touch (p, 0, n);
  return p;
}

static void *
touched_realloc (void *old, size_t old_size, size_t new_size)
{
  void *p = saved_realloc (old, old_size, new_size);
  if (new_size > old_size)
    touch (p, old_size, new_size);
  return p;
}

void
prefault_begin (void)
{
  mp_get_memory_functions (&saved_alloc, &saved_realloc, &saved_free);
  mp_set_memory_functions (touched_alloc, touched_realloc, saved_free);
}

void
prefault_end (void)
{
  mp_set_memory_functions (saved_alloc, saved_realloc, saved_free);
}
