/* sign.c: base64 and Ed25519 verification as the client's commands use
 * them, over the model's (model/b64.h, model/sig.h, which the server uses
 * too), and the FILE.sig files (see sign.h). */
#include "submit/sign.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "common/util.h"
#include "model/b64.h"
#include "model/sig.h"
#include "submit/document.h"

void
sign_b64_encode (const unsigned char *in, size_t len, char *out)
{
  EVP_EncodeBlock ((unsigned char *) out, in, (int) len);
}

int
sign_b64_decode (const char *in, unsigned char *out, size_t want)
{
  return b64_decode (in, strlen (in), out, want) == (long) want ? 0 : -1;
}

int
sign_verify (const char *key_b64, const void *data, size_t len,
             const char *sig_b64, char *err, size_t errlen)
{
  unsigned char key[SIGN_KEY_BYTES], sig[SIGN_BYTES];

  if (sign_b64_decode (key_b64, key, sizeof key) != 0)
    {
      snprintf (err, errlen, "the public key is not base64 of 32 bytes");
      return -1;
    }
  if (sign_b64_decode (sig_b64, sig, sizeof sig) != 0)
    {
      snprintf (err, errlen, "the signature is not base64 of 64 bytes");
      return -1;
    }
  if (!sig_verify (key, data, len, sig))
    {
      snprintf (err, errlen, "the signature does not match the document");
      return -1;
    }
  return 0;
}

char *
sign_retract_message (const char *id)
{
  static const char prefix[] = PROTOCOL_RETRACT_PREFIX;
  size_t n = sizeof prefix + strlen (id);
  char *msg = gb_xmalloc (n);
  snprintf (msg, n, "%s%s", prefix, id);
  return msg;
}

char *
sign_file_path (const char *file)
{
  size_t n = strlen (file) + 5;
  char *path = gb_xmalloc (n);
  snprintf (path, n, "%s.sig", file);
  return path;
}

int
sign_read_file (const char *file, char sig_b64[SIGN_B64_LEN + 1], char *err, size_t errlen)
{
  char *path = sign_file_path (file);
  char buf[256];
  FILE *f = fopen (path, "r");
  int rc = -1;
  size_t n = 0;

  if (!f && errno == ENOENT)
    rc = 1;
  else if (!f)
    snprintf (err, errlen, "cannot read %s: %s", path, strerror (errno));
  else
    {
      n = fread (buf, 1, sizeof buf - 1, f);
      if (ferror (f))
        snprintf (err, errlen, "cannot read %s: %s", path, strerror (errno));
      else
        rc = 0;
      fclose (f);
    }
  if (rc == 0)
    {
      char *s = buf, *e = buf + n;
      while (s < e && isspace ((unsigned char) *s))
        s++;
      while (e > s && isspace ((unsigned char) e[-1]))
        e--;
      if (e - s != SIGN_B64_LEN)
        {
          snprintf (err, errlen, "%s does not hold a signature (one line of %d base64 "
                    "characters)", path, SIGN_B64_LEN);
          rc = -1;
        }
      else
        {
          memcpy (sig_b64, s, SIGN_B64_LEN);
          sig_b64[SIGN_B64_LEN] = '\0';
        }
    }
  free (path);
  return rc;
}

int
sign_write_file (const char *file, const char *sig_b64, char *err, size_t errlen)
{
  char *path = sign_file_path (file);
  size_t n = strlen (sig_b64);
  char *line = gb_xmalloc (n + 1);
  int rc;

  memcpy (line, sig_b64, n);
  line[n] = '\n';
  rc = document_save (path, line, n + 1, err, errlen);
  free (line);
  free (path);
  return rc;
}
