/* json_check.c: a recursive-descent recogniser for RFC 8259 JSON (see
 * json_check.h).  It builds nothing; it only walks the grammar, so its
 * cost is one pass over the bytes and its stack depth is bounded by the
 * nesting limit. */
#include "model/json_check.h"

#include <string.h>

struct scan
{
  const unsigned char *p, *end, *start;
  int depth, max_depth;
  struct json_check_error *err;
};

static int fail (struct scan *s, const char *rule, const char *what)
{
  s->err->rule = rule;
  s->err->offset = (size_t) (s->p - s->start);
  s->err->what = what;
  return -1;
}

/* Length of the UTF-8 sequence at P (1..4), or 0 when it is invalid. */
static size_t
utf8_sequence (const unsigned char *p, const unsigned char *end)
{
  unsigned c = p[0];
  size_t n;
  unsigned min, cp;

  if (c < 0x80)
    return c == 0 ? 0 : 1;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, min = 0x80, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, min = 0x800, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, min = 0x10000, cp = c & 0x07;
  else
    return 0;
  if ((size_t) (end - p) < n)
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

int
json_utf8_valid (const char *buf, size_t len)
{
  const unsigned char *p = (const unsigned char *) buf, *end = p + len;
  while (p < end)
    {
      size_t n = utf8_sequence (p, end);
      if (n == 0)
        return 0;
      p += n;
    }
  return 1;
}

static void
skip_ws (struct scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    s->p++;
}

static int
is_hex (unsigned char c)
{
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
scan_string (struct scan *s)
{
  s->p++;                       /* the opening quote */
  while (s->p < s->end)
    {
      unsigned char c = *s->p;
      if (c == '"')
        {
          s->p++;
          return 0;
        }
      if (c < 0x20)
        return fail (s, "json-syntax", "control character in a string");
      if (c == '\\')
        {
          if (s->end - s->p < 2)
            break;
          c = s->p[1];
          if (c == 'u')
            {
              if (s->end - s->p < 6)
                break;
              for (int i = 2; i < 6; i++)
                if (!is_hex (s->p[i]))
                  return fail (s, "json-syntax", "bad \\u escape");
              if (memcmp (s->p + 2, "0000", 4) == 0)
                return fail (s, "json-syntax", "\\u0000 is not allowed");
              s->p += 6;
            }
          else if (strchr ("\"\\/bfnrt", c) && c != '\0')
            s->p += 2;
          else
            return fail (s, "json-syntax", "bad escape");
          continue;
        }
      size_t n = utf8_sequence (s->p, s->end);
      if (n == 0)
        return fail (s, "utf8", "invalid UTF-8");
      s->p += n;
    }
  return fail (s, "json-syntax", "unterminated string");
}

static int
scan_digits (struct scan *s)
{
  const unsigned char *start = s->p;
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
    s->p++;
  return s->p > start ? 0 : fail (s, "json-syntax", "digit expected");
}

static int
scan_number (struct scan *s)
{
  if (*s->p == '-')
    s->p++;
  if (s->p < s->end && *s->p == '0')
    s->p++;
  else if (scan_digits (s) < 0)
    return -1;
  if (s->p < s->end && *s->p == '.')
    {
      s->p++;
      if (scan_digits (s) < 0)
        return -1;
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      s->p++;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        s->p++;
      if (scan_digits (s) < 0)
        return -1;
    }
  return 0;
}

static int
scan_literal (struct scan *s, const char *word)
{
  size_t n = strlen (word);
  if ((size_t) (s->end - s->p) < n || memcmp (s->p, word, n) != 0)
    return fail (s, "json-syntax", "unexpected character");
  s->p += n;
  return 0;
}

static int scan_value (struct scan *s);

/* An array or an object: OPEN was seen, members until CLOSE. */
static int
scan_container (struct scan *s, unsigned char close)
{
  if (++s->depth > s->max_depth)
    return fail (s, "too-deep", "nested too deeply");
  s->p++;
  skip_ws (s);
  if (s->p < s->end && *s->p == close)
    {
      s->p++;
      s->depth--;
      return 0;
    }
  for (;;)
    {
      skip_ws (s);
      if (close == '}')
        {
          if (s->p >= s->end || *s->p != '"')
            return fail (s, "json-syntax", "member name expected");
          if (scan_string (s) < 0)
            return -1;
          skip_ws (s);
          if (s->p >= s->end || *s->p != ':')
            return fail (s, "json-syntax", "':' expected");
          s->p++;
        }
      if (scan_value (s) < 0)
        return -1;
      skip_ws (s);
      if (s->p < s->end && *s->p == ',')
        {
          s->p++;
          continue;
        }
      if (s->p < s->end && *s->p == close)
        {
          s->p++;
          s->depth--;
          return 0;
        }
      return fail (s, "json-syntax", close == '}' ? "',' or '}' expected" : "',' or ']' expected");
    }
}

static int
scan_value (struct scan *s)
{
  skip_ws (s);
  if (s->p >= s->end)
    return fail (s, "json-syntax", "unexpected end of document");
  switch (*s->p)
    {
    case '{':
      return scan_container (s, '}');
    case '[':
      return scan_container (s, ']');
    case '"':
      return scan_string (s);
    case 't':
      return scan_literal (s, "true");
    case 'f':
      return scan_literal (s, "false");
    case 'n':
      return scan_literal (s, "null");
    default:
      if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
        return scan_number (s);
      return fail (s, "json-syntax", "unexpected character");
    }
}

int
json_check (const char *buf, size_t len, int max_depth, struct json_check_error *err)
{
  struct scan s;
  s.start = s.p = (const unsigned char *) buf;
  s.end = s.p + len;
  s.depth = 0;
  s.max_depth = max_depth;
  s.err = err;
  if (scan_value (&s) < 0)
    return -1;
  skip_ws (&s);
  if (s.p != s.end)
    return fail (&s, "json-syntax", "trailing data after the document");
  return 0;
}
