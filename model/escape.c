/* escape.c: untrusted strings into HTML, Markdown and CSV (see escape.h).
 * Each function walks the string once and writes it escaped; none
 * allocates. */
#include "model/escape.h"

#include <string.h>

/* Control characters (C0 and DEL) are written as a space everywhere. */
static int
is_control (unsigned char c)
{
  return c < 0x20 || c == 0x7f;
}

void
escape_text (FILE *f, const char *s)
{
  for (; *s; s++)
    fputc (is_control ((unsigned char) *s) && *s != '\n' ? ' ' : *s, f);
}

void
escape_html (FILE *f, const char *s)
{
  for (; *s; s++)
    switch (*s)
      {
      case '&': fputs ("&amp;", f); break;
      case '<': fputs ("&lt;", f); break;
      case '>': fputs ("&gt;", f); break;
      case '"': fputs ("&quot;", f); break;
      case '\'': fputs ("&#39;", f); break;
      default: fputc (is_control ((unsigned char) *s) ? ' ' : *s, f);
      }
}

void
escape_markdown (FILE *f, const char *s)
{
  for (; *s; s++)
    if (*s == '&')
      fputs ("&amp;", f);
    else if (*s == '<')
      fputs ("&lt;", f);
    else if (*s == '>')
      fputs ("&gt;", f);
    else if (strchr ("\\`*_[]|#!~", *s))
      fprintf (f, "\\%c", *s);
    else
      fputc (is_control ((unsigned char) *s) ? ' ' : *s, f);
}

void
escape_csv (FILE *f, const char *s)
{
  int quote = strpbrk (s, ",\"") != NULL;
  int formula = *s && strchr ("=+-@", *s) != NULL;
  if (quote)
    fputc ('"', f);
  if (formula)
    fputc ('\'', f);
  for (; *s; s++)
    if (*s == '"')
      fputs ("\"\"", f);
    else
      fputc (is_control ((unsigned char) *s) ? ' ' : *s, f);
  if (quote)
    fputc ('"', f);
}
