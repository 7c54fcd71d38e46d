/* web_flags.c: the plausibility flags (server/judge/plausible.h) in
 * plain words, for the people whose results carry them: what each
 * means, in a few words and in full, and what the submitter can do about
 * it.  One table, so the home page's newest uploads, the CPU page's
 * newest results and the result page say the same thing; the result
 * page has the whole text, the lists a short mark linking to it.
 *
 * Only outlier is judged again later (at every upload to and retraction
 * from the result's CPU row); the others are decided once, at upload,
 * from the document alone, and stay with the result. */
#include "server/web/web_page.h"

#include <string.h>

static const struct
{
  const char *name, *brief, *reason, *remedy;
} flags[] = {
  { "outlier", "far from this CPU's other results",
    "a node or test lies far from the median of the other results of this CPU in the "
    "same run mode and GMP build",
    "Run again on an idle machine: other programs, power saving or a busy host under a "
    "virtual machine slow a run down.  This flag is decided again whenever a result of "
    "this CPU is added or retracted, so it lifts if later results agree with this one." },
  { "impossible", "faster per GHz than any CPU so far",
    "a node is more than twice as fast per GHz as any CPU has been",
    "Check that the clock the result reports is the CPU's (a virtual machine may report "
    "another) and that GMP did the work, then run again.  This flag is decided at upload "
    "and stays with this result." },
  { "brand-mismatch", "its CPU name names another maker",
    "the CPU's name (as the operating system reports it) names another maker than its "
    "identity or vendor",
    "The name comes from the operating system; an emulator or a virtual machine that "
    "gives its guest another maker's CPU name causes this.  Run on the machine itself, "
    "or in a virtual machine that passes the host's CPU name through.  This flag is "
    "decided at upload and stays with this result." },
  { "clock-implausible", "measured clock above the CPU's maximum",
    "the measured clock is well above the CPU's maximum",
    "Run again on an idle machine, outside a virtual machine if you can: the clock is "
    "measured by timing a loop, which a busy or virtual machine can mislead.  This flag "
    "is decided at upload and stays with this result." },
  { "previous-definitions", "measured by an older gmpbench",
    "measured with the previous definitions of the GMPbench tests (a gmpbench older than "
    "GMPbench 0.2's own operands, gcdext and rsa operations and pi algorithm): not "
    "comparable with current results, so kept out of their medians",
    "Update gmpbench to the current version and run again." },
  { "interposed", "GMP's functions came from another library",
    "GMP's timed functions ran from another library than the libgmp named",
    "Run without LD_PRELOAD or a wrapper library, so that the libgmp the result names "
    "does the work, and upload that run.  This flag is decided at upload and stays with "
    "this result." },
};

static int
find (const char *flag)
{
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (strcmp (flag, flags[i].name) == 0)
      return (int) i;
  return -1;
}

const char *
web_flag_reason (const char *flag)
{
  int i = find (flag);
  return i < 0 ? NULL : flags[i].reason;
}

const char *
web_flag_remedy (const char *flag)
{
  int i = find (flag);
  return i < 0 ? NULL : flags[i].remedy;
}

void
web_flag_mark (FILE *f, const char *id, const char *list)
{
  if (!list || !*list)
    return;
  fputs (" <span class=\"badge flag\">flagged</span> <span class=\"note\">", f);
  for (const char *s = list; *s;)
    {
      char name[64];
      size_t len = strcspn (s, ",");
      snprintf (name, sizeof name, "%.*s", (int) (len < sizeof name ? len : sizeof name - 1), s);
      int i = find (name);
      fputs (s == list ? "" : "; ", f);
      web_text (f, i < 0 ? name : flags[i].brief);
      s += len + (s[len] == ',');
    }
  fputs (", left out of the medians: <a href=\"/results/", f);
  web_text (f, id);
  fputs ("#flagged\">why, and what you can do</a></span>", f);
}
