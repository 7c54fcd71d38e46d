/* identity.h: the submitter's signing identity, an Ed25519 key pair and an
 * optional display name.
 *
 * The default identity lives in the configuration directory (config.h) as
 * key.pem, a PKCS#8 PEM private key of mode 0600, created on first use.
 * `--key FILE` names another key file for one command; such a file is never
 * created behind the user's back.  A key file that others can read, that
 * is not a PEM Ed25519 key, or that sits in a missing directory is an
 * error with a message naming the file: the client never silently makes a
 * new identity in place of one it could not use.  The display name comes
 * from the config file's `name` setting. */
#ifndef GB_SUBMIT_IDENTITY_H
#define GB_SUBMIT_IDENTITY_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include <openssl/evp.h>
#include "submit/sign.h"

#define IDENTITY_KEY_FILE_NAME "key.pem"

struct gb_identity
{
  EVP_PKEY *key;
  char public_b64[SIGN_KEY_B64_LEN + 1];      /* submitter.public_key */
  char fingerprint[65];
  char *name;                   /* display name or NULL */
  char *path;                   /* the key file */
  int created;                  /* 1 when this call made the key */
};

/* malloc'ed path of the default key file, or NULL with a message. */
char *identity_default_path (char *err, size_t errlen);

/* Loads KEY_FILE, or with KEY_FILE NULL the default identity, which is
 * created first when it does not exist and CREATE is set.  0, or -1 with a
 * one-line message in ERR (ID is then empty and needs no identity_free). */
int identity_load (const char *key_file, int create, struct gb_identity *id,
                   char *err, size_t errlen);

void identity_free (struct gb_identity *id);

/* Replaces DOC's "submitter" with this identity's public key and name. */
void identity_add_to_document (const struct gb_identity *id, cJSON *doc);

/* Signs DATA[0..LEN) into SIG_B64.  0, or -1 (an OpenSSL failure). */
int identity_sign (const struct gb_identity *id, const void *data, size_t len,
                   char sig_b64[SIGN_B64_LEN + 1]);

/* What a signed run does: adds the submitter to DOC, serialises it with
 * document_serialize and signs those bytes.  Returns the bytes (malloc'ed,
 * NUL-terminated, *LEN of them) with their signature in SIG_B64, or NULL
 * when signing failed. */
char *identity_sign_document (const struct gb_identity *id, cJSON *doc, size_t *len,
                              char sig_b64[SIGN_B64_LEN + 1]);

/* Reads the PEM private key in SRC (must be Ed25519, any permissions) and
 * stores it as DEST with mode 0600, atomically.  Refuses to replace an
 * existing DEST holding a different key unless FORCE.  0, or -1 with a
 * message. */
int identity_import (const char *src, const char *dest, int force,
                     char *err, size_t errlen);

/* Writes ID's private key as PEM to F.  0, or -1. */
int identity_export (const struct gb_identity *id, FILE *f);

#endif
