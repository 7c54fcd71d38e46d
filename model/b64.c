/* b64.c: strict base64 decoding and plain encoding (see b64.h). */
#include "model/b64.h"

#include "common/util.h"

static const char alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int
sextet (char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

long
b64_decode (const char *in, size_t inlen, unsigned char *out, size_t cap)
{
  size_t n = 0;

  if (inlen % 4 != 0)
    return -1;
  for (size_t i = 0; i < inlen; i += 4)
    {
      int last = i + 4 == inlen;
      int pad = (in[i + 3] == '=') + (in[i + 2] == '=' && in[i + 3] == '=');
      int v[4];
      if (pad && !last)
        return -1;
      for (int k = 0; k < 4 - pad; k++)
        if ((v[k] = sextet (in[i + k])) < 0)
          return -1;
      for (int k = 4 - pad; k < 4; k++)
        v[k] = 0;
      /* Bits below the last whole byte must be zero (canonical form). */
      if ((pad == 1 && (v[2] & 0x3)) || (pad == 2 && (v[1] & 0xf)))
        return -1;
      unsigned long group = (unsigned long) v[0] << 18 | (unsigned long) v[1] << 12
        | (unsigned long) v[2] << 6 | (unsigned long) v[3];
      size_t bytes = 3 - (size_t) pad;
      if (n + bytes > cap)
        return -1;
      for (size_t k = 0; k < bytes; k++)
        out[n++] = (unsigned char) (group >> (16 - 8 * k));
    }
  return (long) n;
}

char *
b64_encode (const unsigned char *in, size_t len)
{
  char *out = gb_xmalloc ((len + 2) / 3 * 4 + 1);
  char *o = out;

  for (size_t i = 0; i < len; i += 3)
    {
      size_t left = len - i;
      unsigned long group = (unsigned long) in[i] << 16
        | (left > 1 ? (unsigned long) in[i + 1] << 8 : 0)
        | (left > 2 ? (unsigned long) in[i + 2] : 0);
      *o++ = alphabet[group >> 18 & 63];
      *o++ = alphabet[group >> 12 & 63];
      *o++ = left > 1 ? alphabet[group >> 6 & 63] : '=';
      *o++ = left > 2 ? alphabet[group & 63] : '=';
    }
  *o = '\0';
  return out;
}
