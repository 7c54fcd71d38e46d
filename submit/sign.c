/* sign.c: base64, fingerprints, Ed25519 verification and the FILE.sig
 * files (see sign.h).  Verification goes through OpenSSL's EVP one-shot
 * DigestVerify with no digest, which is pure Ed25519 (RFC 8032). */
#include "submit/sign.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "common/util.h"
#include "submit/document.h"

static const char b64_alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void
sign_b64_encode (const unsigned char *in, size_t len, char *out)
{
  EVP_EncodeBlock ((unsigned char *) out, in, (int) len);
}

static int
b64_value (char c)
{
  const char *p = c ? strchr (b64_alphabet, c) : NULL;
  return p ? (int) (p - b64_alphabet) : -1;
}

/* Decodes the group of 4 characters at IN into OUT; only the LAST group
 * may be padded ("xx==", "xxx=").  Returns the byte count (1 to 3), or -1
 * for a bad character, misplaced padding or non-zero unused bits. */
static int
decode_group (const char *in, int last, unsigned char out[3])
{
  int pad = last ? (in[3] == '=') + (in[3] == '=' && in[2] == '=') : 0;
  unsigned long group = 0;

  for (int j = 0; j < 4; j++)
    {
      int v = j < 4 - pad ? b64_value (in[j]) : 0;
      if (v < 0)
        return -1;
      group = group << 6 | (unsigned long) v;
    }
  out[0] = group >> 16 & 255;
  out[1] = group >> 8 & 255;
  out[2] = group & 255;
  if ((pad == 1 && out[2]) || (pad == 2 && out[1]))
    return -1;
  return 3 - pad;
}

int
sign_b64_decode (const char *in, unsigned char *out, size_t want)
{
  size_t inlen = strlen (in), o = 0;
  if (inlen != 4 * ((want + 2) / 3))
    return -1;
  for (size_t i = 0; i < inlen; i += 4)
    {
      unsigned char bytes[3];
      int n = decode_group (in + i, i + 4 == inlen, bytes);
      if (n < 0 || o + (size_t) n > want)
        return -1;
      memcpy (out + o, bytes, (size_t) n);
      o += (size_t) n;
    }
  return o == want ? 0 : -1;
}

void
sign_fingerprint (const unsigned char key[SIGN_KEY_BYTES], char out[65])
{
  gb_sha256_hex (key, SIGN_KEY_BYTES, out);
}

int
sign_verify (const char *key_b64, const void *data, size_t len,
             const char *sig_b64, char *err, size_t errlen)
{
  unsigned char key[SIGN_KEY_BYTES], sig[SIGN_BYTES];
  EVP_PKEY *pkey;
  EVP_MD_CTX *ctx;
  int ok;

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
  pkey = EVP_PKEY_new_raw_public_key (EVP_PKEY_ED25519, NULL, key, sizeof key);
  if (!pkey)
    {
      snprintf (err, errlen, "the public key is not a valid Ed25519 key");
      return -1;
    }
  ctx = EVP_MD_CTX_new ();
  ok = ctx && EVP_DigestVerifyInit (ctx, NULL, NULL, NULL, pkey) == 1
    && EVP_DigestVerify (ctx, sig, sizeof sig, data, len) == 1;
  EVP_MD_CTX_free (ctx);
  EVP_PKEY_free (pkey);
  if (!ok)
    snprintf (err, errlen, "the signature does not match the document");
  return ok ? 0 : -1;
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
  rc = document_write_atomic (path, line, n + 1);
  if (rc != 0)
    snprintf (err, errlen, "cannot write %s: %s", path, strerror (errno));
  free (line);
  free (path);
  return rc;
}
