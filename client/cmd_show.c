/* cmd_show.c: `gmpbench show FILE`, a saved result document rendered
 * again, in any format `gmpbench run` prints.  The renderers are the same
 * (report.h), so a result shows as it did when it was made; nothing is
 * measured, and the signature is not checked ('gmpbench verify' does). */
#include <stdlib.h>
#include <string.h>
#include "client/color.h"
#include "client/gmpbench.h"
#include "client/report.h"

static const char show_usage[] =
  "usage: gmpbench show [options] FILE\n"
  "\n"
  "Print a saved result document (from 'gmpbench run -o FILE') again.\n";

static const char show_epilogue[] =
  "\n"
  "Exit status: 0 success, 1 FILE cannot be read or is not a result\n"
  "document, 2 usage error.\n";

struct show_options
{
  enum report_format format;
  const char *output;
  const char *file;
};

static enum option_result
parse_options (int argc, char **argv, struct show_options *o)
{
  const struct gb_option options[] = {
    OPT_CALLBACK (0, "format", "FORMAT", &o->format, report_format_option,
                  "text (default), json (the file's exact bytes),\n"
                  "html (a self-contained page with charts), csv or\n"
                  "markdown"),
    OPT_STRING ('o', "output", "OUT", &o->output, "write to OUT instead of standard output"),
    OPT_END
  };
  const struct option_table table = { "show", show_usage, show_epilogue, options, 1, "FILE" };
  int file;
  enum option_result rc = options_parse (&table, argc, argv, &file);
  if (rc == OPTIONS_OK)
    o->file = argv[file];
  return rc;
}

/* Renders DOC into OUT (stdout when NULL); 0 or 1. */
static int
render (const struct show_options *o, const cJSON *doc, const char *bytes)
{
  struct report r;
  char err[256];
  if (report_open (&r, doc, err, sizeof err) != 0)
    {
      gb_error ("show", "%s: %s", o->file, err);
      return 1;
    }
  r.bytes = bytes;
  r.command = "show";
  FILE *f = o->output ? fopen (o->output, "w") : stdout;
  if (!f)
    {
      gb_error ("show", "cannot write '%s': %m", o->output);
      report_close (&r);
      return 1;
    }
  report_write (f, &r, o->format, !o->output && color_wanted (stdout));
  report_close (&r);
  int failed = fflush (f) != 0 || ferror (f);
  if (o->output)
    failed |= fclose (f) != 0;
  if (failed)
    {
      gb_error ("show", "cannot write '%s': %m", o->output ? o->output : "standard output");
      return 1;
    }
  return 0;
}

int
cmd_show (int argc, char **argv)
{
  struct show_options o;
  memset (&o, 0, sizeof o);
  int status = parse_options (argc, argv, &o);
  if (status != 0)
    return status > 0 ? 0 : EXIT_USAGE;

  char err[512], *bytes;
  cJSON *doc;
  if (report_load_file (o.file, &doc, &bytes, err, sizeof err) != 0)
    {
      gb_error ("show", "%s", err);
      return 1;
    }
  status = render (&o, doc, bytes);
  cJSON_Delete (doc);
  free (bytes);
  return status;
}
