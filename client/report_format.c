/* report_format.c: the names of the report formats (and --format, which
 * takes them) and the dispatch to their renderers, one file each (see
 * report.h). */
#include "client/report.h"

#include <string.h>
#include "client/gmpbench.h"
#include "common/util.h"

static const struct
{
  const char *name;
  enum report_format fmt;
} formats[] = {
  { "text", REPORT_TEXT }, { "json", REPORT_JSON }, { "html", REPORT_HTML },
  { "csv", REPORT_CSV }, { "markdown", REPORT_MARKDOWN }, { "md", REPORT_MARKDOWN },
};

int
report_parse_format (const char *name, enum report_format *fmt)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (formats); i++)
    if (strcmp (name, formats[i].name) == 0)
      {
        *fmt = formats[i].fmt;
        return 0;
      }
  return -1;
}

enum option_result
report_format_option (const struct gb_option *opt, const char *cmd, const char *arg)
{
  if (report_parse_format (arg, opt->value) == 0)
    return OPTIONS_OK;
  gb_error (cmd, "unknown format '%s' (use " REPORT_FORMAT_NAMES ")", arg);
  return OPTIONS_BAD;
}

void
report_write (FILE *f, const struct report *r, enum report_format fmt, int color)
{
  switch (fmt)
    {
    case REPORT_HTML: report_html (f, r); break;
    case REPORT_CSV: report_csv (f, r); break;
    case REPORT_MARKDOWN: report_markdown (f, r); break;
    case REPORT_TEXT: report_text (f, r, color); break;
    case REPORT_JSON: fputs (r->bytes, f); break;
    }
}
