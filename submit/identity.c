/* identity.c: creating, loading, importing and using the Ed25519 signing
 * key (see identity.h).
 *
 * A key file is written to a temporary file of mode 0600 in the same
 * directory, fsync'ed, and then put in place with link() when it must not
 * replace anything (two first runs racing both end up with the key that
 * won) or rename() when it may; the directory is fsync'ed last.  Loading
 * checks the file before trusting it: a regular file, owned by the user,
 * not readable by group or others, one unencrypted PEM Ed25519 key. */
#include "submit/identity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/pem.h>
#include "common/util.h"
#include "model/sig.h"
#include "submit/config.h"
#include "submit/document.h"

char *
identity_default_path (char *err, size_t errlen)
{
  return config_path_in ('c', 0, IDENTITY_KEY_FILE_NAME, err, errlen);
}

/* A passphrase callback that refuses: an encrypted key is reported as
 * unusable instead of prompting in the middle of a benchmark. */
static int
no_passphrase (char *buf, int size, int rwflag, void *u)
{
  (void) buf, (void) size, (void) rwflag, (void) u;
  return -1;
}

/* Reads one PEM Ed25519 private key from the open file F named PATH. */
static EVP_PKEY *
read_key (FILE *f, const char *path, char *err, size_t errlen)
{
  EVP_PKEY *key = PEM_read_PrivateKey (f, NULL, no_passphrase, NULL);
  if (!key)
    snprintf (err, errlen, "%s is not an unencrypted PEM private key "
              "(corrupt, or not a key file)", path);
  else if (!EVP_PKEY_is_a (key, "ED25519"))
    {
      snprintf (err, errlen, "%s holds a %s key; gmpbench signs with Ed25519 keys",
                path, EVP_PKEY_get0_type_name (key));
      EVP_PKEY_free (key);
      key = NULL;
    }
  return key;
}

/* Opens PATH for reading after checking that it is a private file of ours. */
static FILE *
open_private (const char *path, char *err, size_t errlen)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  FILE *f = NULL;

  if (fd < 0 && errno == ELOOP)
    snprintf (err, errlen, "the key file %s is a symbolic link; name the file itself", path);
  else if (fd < 0)
    snprintf (err, errlen, "cannot open the key file %s: %s", path, strerror (errno));
  else if (fstat (fd, &st) != 0)
    snprintf (err, errlen, "cannot stat the key file %s: %s", path, strerror (errno));
  else if (!S_ISREG (st.st_mode))
    snprintf (err, errlen, "the key file %s is not a regular file", path);
#ifndef _WIN32
  /* Windows' stat has no owner and repeats the owner's permission bits for
   * the group and others: there the key is kept private by the access
   * list of the user's profile, which %APPDATA% is part of. */
  else if (st.st_uid != geteuid ())
    snprintf (err, errlen, "the key file %s belongs to another user", path);
  else if (st.st_mode & 077)
    snprintf (err, errlen, "the key file %s is accessible by others (mode %04o); "
              "run 'chmod 600 %s' if it has not leaked", path,
              (unsigned) (st.st_mode & 07777), path);
#endif
  else if (!(f = fdopen (fd, "r")))
    snprintf (err, errlen, "cannot read the key file %s: %s", path, strerror (errno));
  if (!f && fd >= 0)
    close (fd);
  return f;
}

static void
fsync_parent (const char *path)
{
  char *dir = gb_xstrdup (path);
  char *slash = strrchr (dir, '/');
  int fd;
  if (slash == dir)
    slash[1] = '\0';
  else if (slash)
    *slash = '\0';
  else
    strcpy (dir, ".");
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
  free (dir);
}

/* Writes KEY to PATH with mode 0600.  With REPLACE an existing PATH is
 * replaced; without it an existing PATH is left alone and 1 is returned. */
static int
write_key (const char *path, EVP_PKEY *key, int replace, char *err, size_t errlen)
{
  size_t n = strlen (path) + 32;
  char *tmp = gb_xmalloc (n);
  int fd, rc = -1, saved;
  FILE *f;

  snprintf (tmp, n, "%s.tmp.%ld", path, (long) getpid ());
  fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  f = fd >= 0 ? fdopen (fd, "w") : NULL;
  if (!f)
    {
      saved = errno;
      if (fd >= 0)
        close (fd), unlink (tmp);
      snprintf (err, errlen, "cannot write %s: %s", tmp, strerror (saved));
      free (tmp);
      return -1;
    }
  errno = 0;
  if (PEM_write_PrivateKey (f, key, NULL, NULL, 0, NULL, NULL) != 1
      || fflush (f) != 0 || fsync (fileno (f)) != 0)
    snprintf (err, errlen, "cannot write %s: %s", tmp, errno ? strerror (errno) : "OpenSSL error");
  else if (replace ? rename (tmp, path) == 0 : link (tmp, path) == 0)
    rc = 0;
  else if (!replace && errno == EEXIST)
    rc = 1;
  else
    snprintf (err, errlen, "cannot create %s: %s", path, strerror (errno));
  if (fclose (f) != 0 && rc == 0)
    {
      snprintf (err, errlen, "cannot write %s: %s", tmp, strerror (errno));
      rc = -1;
    }
  unlink (tmp);
  if (rc == 0)
    fsync_parent (path);
  free (tmp);
  return rc;
}

/* Makes the default key at PATH unless it exists. */
static int
create_default (const char *path, char *err, size_t errlen)
{
  char *dir;
  EVP_PKEY *key;
  int rc;

  if (access (path, F_OK) == 0)
    return 0;
  if (errno != ENOENT)
    {
      snprintf (err, errlen, "cannot access the key file %s: %s", path, strerror (errno));
      return -1;
    }
  dir = config_make_dir ('c', err, errlen);
  if (!dir)
    return -1;
  free (dir);
  key = EVP_PKEY_Q_keygen (NULL, NULL, "ED25519");
  if (!key)
    {
      snprintf (err, errlen, "OpenSSL could not generate an Ed25519 key");
      return -1;
    }
  rc = write_key (path, key, 0, err, errlen);
  EVP_PKEY_free (key);
  return rc < 0 ? -1 : rc == 0 ? 1 : 0;
}

/* Fills the public parts of ID from ID->key. */
static int
describe (struct gb_identity *id, char *err, size_t errlen)
{
  unsigned char raw[SIGN_KEY_BYTES];
  size_t len = sizeof raw;
  if (EVP_PKEY_get_raw_public_key (id->key, raw, &len) != 1 || len != sizeof raw)
    {
      snprintf (err, errlen, "cannot get the public key of %s", id->path);
      return -1;
    }
  sign_b64_encode (raw, len, id->public_b64);
  sig_fingerprint (raw, id->fingerprint);
  return 0;
}

int
identity_load (const char *key_file, int create, struct gb_identity *id,
               char *err, size_t errlen)
{
  char *path = key_file ? gb_xstrdup (key_file) : identity_default_path (err, errlen);
  int made = 0;
  FILE *f;

  memset (id, 0, sizeof *id);
  if (!path)
    return -1;
  if (!key_file && create && (made = create_default (path, err, errlen)) < 0)
    {
      free (path);
      return -1;
    }
  f = open_private (path, err, errlen);
  if (f)
    {
      id->key = read_key (f, path, err, errlen);
      fclose (f);
    }
  id->path = path;
  id->created = made;
  if (!id->key || describe (id, err, errlen) != 0
      || config_get ("name", &id->name, err, errlen) != 0)
    {
      identity_free (id);
      return -1;
    }
  return 0;
}

void
identity_free (struct gb_identity *id)
{
  EVP_PKEY_free (id->key);
  free (id->name);
  free (id->path);
  memset (id, 0, sizeof *id);
}

void
identity_add_to_document (const struct gb_identity *id, cJSON *doc)
{
  cJSON *sub = cJSON_CreateObject ();
  cJSON_AddStringToObject (sub, "public_key", id->public_b64);
  if (id->name)
    cJSON_AddStringToObject (sub, "name", id->name);
  cJSON_DeleteItemFromObjectCaseSensitive (doc, "submitter");
  cJSON_AddItemToObject (doc, "submitter", sub);
}

int
identity_sign (const struct gb_identity *id, const void *data, size_t len,
               char sig_b64[SIGN_B64_LEN + 1])
{
  unsigned char sig[SIGN_BYTES];
  size_t siglen = sizeof sig;
  EVP_MD_CTX *ctx = EVP_MD_CTX_new ();
  int ok = ctx && EVP_DigestSignInit (ctx, NULL, NULL, NULL, id->key) == 1
    && EVP_DigestSign (ctx, sig, &siglen, data, len) == 1 && siglen == sizeof sig;
  EVP_MD_CTX_free (ctx);
  if (ok)
    sign_b64_encode (sig, sizeof sig, sig_b64);
  return ok ? 0 : -1;
}

char *
identity_sign_document (const struct gb_identity *id, cJSON *doc, size_t *len,
                        char sig_b64[SIGN_B64_LEN + 1])
{
  char *bytes;
  identity_add_to_document (id, doc);
  bytes = document_serialize (doc);
  *len = strlen (bytes);
  if (identity_sign (id, bytes, *len, sig_b64) != 0)
    {
      free (bytes);
      return NULL;
    }
  return bytes;
}

/* 1 when the key file DEST exists and holds the same key as KEY. */
static int
same_key (const char *dest, EVP_PKEY *key)
{
  FILE *f = fopen (dest, "r");
  EVP_PKEY *old = f ? PEM_read_PrivateKey (f, NULL, no_passphrase, NULL) : NULL;
  int same = old && EVP_PKEY_eq (old, key) == 1;
  if (f)
    fclose (f);
  EVP_PKEY_free (old);
  return same;
}

int
identity_import (const char *src, const char *dest, int force, char *err, size_t errlen)
{
  FILE *f = fopen (src, "r");
  EVP_PKEY *key;
  int rc = -1;

  if (!f)
    {
      snprintf (err, errlen, "cannot open %s: %s", src, strerror (errno));
      return -1;
    }
  key = read_key (f, src, err, errlen);
  fclose (f);
  if (!key)
    return -1;
  if (same_key (dest, key))
    rc = 0;
  else if (access (dest, F_OK) == 0 && !force)
    snprintf (err, errlen, "%s already holds a different key; --force replaces it "
              "(export it first if you may need it again)", dest);
  else
    rc = write_key (dest, key, 1, err, errlen);
  EVP_PKEY_free (key);
  return rc;
}

int
identity_export (const struct gb_identity *id, FILE *f)
{
  return PEM_write_PrivateKey (f, id->key, NULL, NULL, 0, NULL, NULL) == 1
    && fflush (f) == 0 ? 0 : -1;
}
