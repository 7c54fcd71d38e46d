/* store_dict.h: the zstd dictionaries that result documents are
 * compressed with, as the store keeps them in memory (table dicts:
 * migration 15).
 *
 * A dictionary is known by the id zstd writes in it and in every frame
 * compressed with it (ZSTD_getDictID_fromFrame); a frame of id 0 needs
 * none.  The newest dictionary known compresses new documents; every
 * dictionary known decompresses.  Dictionaries are added, never removed,
 * while the set lives: any thread may read while another adds.
 */
#ifndef GB_SERVER_STORE_DICT_H
#define GB_SERVER_STORE_DICT_H

#include <stddef.h>
#include <stdint.h>

struct store_dicts;

struct store_dicts *store_dicts_new (void);
void store_dicts_free (struct store_dicts *d);

/* Adds dictionary ID (CONTENT, LEN bytes, as stored), the newest when
 * NEWEST: 0, or -1 with ERR set when CONTENT is not a zstd dictionary
 * of that id (then nothing is added).  Adding a known id again changes
 * nothing but, with NEWEST, which one is the newest. */
int store_dicts_add (struct store_dicts *d, uint32_t id, const void *content, size_t len,
                     int newest, char *err, size_t errlen);
int store_dicts_known (struct store_dicts *d, uint32_t id);
/* The newest dictionary's id, 0 when there is none. */
uint32_t store_dicts_newest (struct store_dicts *d);

/* BODY (LEN bytes) compressed with the newest dictionary (none when
 * there is none) into a malloc'ed frame in *OUT, at the fast level of
 * uploads or, with REPACK, the slower and denser one of the repack; its
 * length, or 0 (nothing allocated) when zstd failed. */
size_t store_dicts_pack (struct store_dicts *d, const char *body, size_t len, int repack,
                         unsigned char **out);

/* The frame PACKED (PACKED_LEN bytes) decompressed into OUT (CAP bytes):
 * the length, or -1 with ERR set; -2 when the frame names a dictionary
 * not known here (*ID). */
long store_dicts_unpack (struct store_dicts *d, const void *packed, size_t packed_len,
                         char *out, size_t cap, uint32_t *id, char *err, size_t errlen);

/* A dictionary trained on the N documents SAMPLES (concatenated; SIZES
 * their lengths) into a malloc'ed *OUT: its length, or 0 (nothing
 * allocated) with ERR set when zstd cannot make one from them. */
size_t store_dict_train (const void *samples, const size_t *sizes, unsigned n,
                         unsigned char **out, char *err, size_t errlen);

#endif
