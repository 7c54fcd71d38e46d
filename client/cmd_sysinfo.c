/* cmd_sysinfo.c: `gmpbench sysinfo`, which shows what gmpbench records
 * about this machine: the summary that opens a run's output, then every
 * member of the "system" object with its source (text), or the object
 * itself (--format json).  --root reads a Linux /proc + /sys snapshot
 * instead of the live system; --no-clock skips the clock measurement. */
#include "client/gmpbench.h"
#include "sysinfo/sysinfo.h"

#include <stdlib.h>
#include <string.h>

static void
usage (FILE *out)
{
  fputs ("usage: gmpbench sysinfo [options]\n"
         "\n"
         "Show what gmpbench records about this machine.\n"
         "  --format text|json      text (default) or json, the \"system\" object of a\n"
         "                          result\n"
         "  --root DIR              describe the Linux snapshot under DIR (DIR/proc,\n"
         "                          DIR/sys)\n"
         "  --no-clock              do not measure the clock (saves about 0.1 s)\n"
         "  -h, --help              this text\n"
         "\n"
         "Exit status: 0 success, 1 the output cannot be written, 2 usage error.\n",
         out);
}

/* The value of option NAME at argv[*i] ("--name VALUE" or "--name=VALUE"),
 * advancing *i; NULL when argv[*i] is not NAME.  *missing is set when the
 * value is absent. */
static const char *
option_value (int argc, char **argv, int *i, const char *name, int *missing)
{
  size_t n = strlen (name);

  if (strncmp (argv[*i], name, n) != 0)
    return NULL;
  if (argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (argv[*i][n] != '\0')
    return NULL;
  if (*i + 1 >= argc)
    {
      *missing = 1;
      return NULL;
    }
  return argv[++*i];
}

/* One "path: value  [source]" line per scalar member, recursively. */
static void
print_details (FILE *out, const cJSON *node, const char *path)
{
  const cJSON *child, *sources = cJSON_GetObjectItemCaseSensitive (node, "sources");
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
  const char *format = "text", *v;
  cJSON *system;
  int i, missing = 0;

  for (i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          usage (stdout);
          return 0;
        }
      else if (strcmp (argv[i], "--no-clock") == 0)
        opt.measure_clock = 0;
      else if ((v = option_value (argc, argv, &i, "--format", &missing)) != NULL)
        format = v;
      else if ((v = option_value (argc, argv, &i, "--root", &missing)) != NULL)
        opt.root = v;
      else
        {
          if (missing)
            gb_error ("sysinfo", "%s needs a value", argv[i]);
          else
            gb_error ("sysinfo", "unknown option '%s' (try --help)", argv[i]);
          return EXIT_USAGE;
        }
    }
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
