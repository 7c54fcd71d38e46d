/* cmd_sysinfo.c: `gmpbench sysinfo`, which shows what gmpbench records
 * about this machine: the summary that opens a run's output, then every
 * member of the "system" object with its source (text), or the object
 * itself (--format json).  --root reads a Linux /proc + /sys snapshot
 * instead of the live system; --no-clock skips the clock measurement. */
#include "client/gmpbench.h"
#include "client/options.h"
#include "model/doc_system.h"
#include "sysinfo/sysinfo.h"

#include <stdlib.h>
#include <string.h>

static const char sysinfo_usage[] =
  "usage: gmpbench sysinfo [options]\n"
  "\n"
  "Show what gmpbench records about this machine.\n";

static const char sysinfo_epilogue[] =
  "\n"
  "Exit status: 0 success, 1 the output cannot be written, 2 usage error.\n";

/* One "path: value  [source]" line per scalar member, recursively. */
static void
print_details (FILE *out, const cJSON *node, const char *path)
{
  const cJSON *child, *sources = cJSON_GetObjectItemCaseSensitive (node, DOC_SYS_SOURCES);
  char sub[512];
  int idx = 0;

  cJSON_ArrayForEach (child, node)
    {
      const cJSON *src;
      char *text;

      if (child == sources)
        continue;
      if (cJSON_IsArray (node))
        snprintf (sub, sizeof sub, "%s[%d]", path, idx++);
      else
        snprintf (sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", child->string);
      if (cJSON_IsObject (child) || (cJSON_IsArray (child)
                                     && cJSON_IsObject (cJSON_GetArrayItem (child, 0))))
        {
          print_details (out, child, sub);
          continue;
        }
      text = cJSON_IsString (child) ? NULL : cJSON_PrintUnformatted (child);
      fprintf (out, "%s: %s", sub, text ? text : child->valuestring);
      free (text);
      src = child->string ? cJSON_GetObjectItemCaseSensitive (sources, child->string) : NULL;
      if (cJSON_IsString (src))
        fprintf (out, "  [%s]", src->valuestring);
      fputc ('\n', out);
    }
}

int
cmd_sysinfo (int argc, char **argv)
{
  struct sysinfo_options opt = { NULL, 1 };
  const char *format = "text";
  cJSON *system;
  int no_clock = 0;
  const struct gb_option options[] = {
    OPT_STRING (0, "format", "text|json", &format,
                "text (default) or json, the \"system\" object of a\n"
                "result"),
    OPT_STRING (0, "root", "DIR", &opt.root,
                "describe the Linux snapshot under DIR (DIR/proc,\n"
                "DIR/sys)"),
    OPT_FLAG (0, "no-clock", &no_clock, "do not measure the clock (saves about 0.1 s)"),
    OPT_END
  };
  const struct option_table table = { "sysinfo", sysinfo_usage, sysinfo_epilogue, options,
                                      0, NULL };

  enum option_result rc = options_parse (&table, argc, argv, NULL);
  if (rc != OPTIONS_OK)
    return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
  opt.measure_clock = !no_clock;
  if (strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    {
      gb_error ("sysinfo", "unknown format '%s' (text or json)", format);
      return EXIT_USAGE;
    }
  if (opt.root != NULL && strcmp (opt.root, "/") != 0)
    {
      FILE *probe;
      char path[4096];
      snprintf (path, sizeof path, "%s/proc/cpuinfo", opt.root);
      if ((probe = fopen (path, "r")) == NULL)
        {
          gb_error ("sysinfo", "no snapshot at '%s' (%s is unreadable)", opt.root, path);
          return EXIT_USAGE;
        }
      fclose (probe);
    }
  system = sysinfo_collect (&opt);
  if (strcmp (format, "json") == 0)
    {
      char *text = cJSON_Print (system);
      if (text == NULL)
        {
          gb_error ("sysinfo", "out of memory");
          cJSON_Delete (system);
          return 1;
        }
      printf ("%s\n", text);
      free (text);
    }
  else
    {
      sysinfo_print_summary (stdout, system);
      fputc ('\n', stdout);
      print_details (stdout, system, "");
    }
  cJSON_Delete (system);
  return fflush (stdout) == 0 ? 0 : 1;
}
