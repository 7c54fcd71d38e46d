/* plausible_clock.c: the clocks a document claims, judged against what
 * its CPU's family reaches (model/cpu_clocks.h) and against each other
 * (docs/protocol.md, "clock-beyond-family" and "clock-drift").
 *
 * A claimed clock divides a score into its score per GHz and raises the
 * physics floor of plausible_refuse, so a document cannot claim more than
 * its family's fastest part with PLAUSIBLE_CLOCK_MARGIN: no clock in
 * it (maximum, nominal, either valid measurement) may exceed that.  A
 * virtual CPU is held to its maker's fastest family (its hypervisor may
 * present an older model than the host's silicon), an emulated one and an
 * identity the table does not know to PLAUSIBLE_MAX_MHZ.  The clock and
 * the timestamp counter's rate the client measured before the run and
 * after it must agree: a run timed by a clock that slowed down reads a
 * faster clock, and a faster counter, after it.  Pure: the document in,
 * a verdict out. */
#include "server/judge/plausible.h"
#include "server/judge/plausible_internal.h"

#include <math.h>
#include "model/cpu_clocks.h"

double
plausible_family_mhz (const struct doc_summary *doc, int *known)
{
  double mhz = 0;
  if (!doc->emulated)
    mhz = doc->hypervisor && *doc->hypervisor ? cpu_clock_maker_mhz (doc->cpu)
      : cpu_clock_family_mhz (doc->cpu);
  *known = mhz > 0;
  return mhz > 0 ? mhz : PLAUSIBLE_MAX_MHZ;
}

double
plausible_clock_bound (const struct doc_summary *doc)
{
  int known;
  double mhz = plausible_family_mhz (doc, &known);
  return known ? fmin (PLAUSIBLE_CLOCK_MARGIN * mhz, PLAUSIBLE_MAX_MHZ) : mhz;
}

/* No clock DOC claims is above its bound: 0, or -1 with ERR set. */
static int
refuse_beyond_family (const struct doc_summary *doc, struct validate_error *err)
{
  const struct
  {
    const char *field;
    double mhz;
  } claim[] = {
    { "system.clock.max_mhz", doc->mhz_max },
    { "system.clock.nominal_mhz", doc->mhz_nominal },
    { "system.clock.measured.mhz", doc->mhz_measured },
    { "system.clock.measured_after.mhz", doc->mhz_measured_after },
  };
  int known;
  double family = plausible_family_mhz (doc, &known), bound = plausible_clock_bound (doc);

  for (size_t i = 0; i < sizeof claim / sizeof *claim; i++)
    {
      if (claim[i].mhz <= bound)
        continue;
      if (known)
        validate_fail (err, 422, "clock-beyond-family", claim[i].field,
                       "%s is %.6g MHz, above the %.0f MHz a %s reaches (its fastest part's "
                       "%.0f MHz + %.0f%%)", claim[i].field, claim[i].mhz, bound,
                       doc->hypervisor && *doc->hypervisor ? "virtual CPU of this maker"
                       : "CPU of this family", family, 100 * (PLAUSIBLE_CLOCK_MARGIN - 1));
      else
        validate_fail (err, 422, "clock-beyond-family", claim[i].field,
                       "%s is %.6g MHz, above the %.0f MHz no CPU runs at", claim[i].field,
                       claim[i].mhz, bound);
      return -1;
    }
  return 0;
}

/* The measurements before and after the run agree: 0, or -1 with ERR
 * set. */
static int
refuse_drift (const struct doc_summary *doc, struct validate_error *err)
{
  double before = doc->tsc_mhz_measured, after = doc->tsc_mhz_measured_after;

  if (before > 0 && after > 0 && fabs (after / before - 1) > PLAUSIBLE_TSC_DRIFT)
    {
      validate_fail (err, 422, "clock-drift", "system.clock.measured_after.tsc_mhz",
                     "the timestamp counter read %.0f MHz after the run and %.0f MHz before "
                     "it, more than %.0f%% apart: the clock that timed the run changed pace",
                     after, before, 100 * PLAUSIBLE_TSC_DRIFT);
      return -1;
    }
  before = doc->mhz_measured;
  after = doc->mhz_measured_after;
  if (before > 0 && after > before * (1 + PLAUSIBLE_CLOCK_DRIFT)
      && doc->spread_measured <= PLAUSIBLE_DRIFT_SPREAD
      && doc->spread_measured_after <= PLAUSIBLE_DRIFT_SPREAD)
    {
      validate_fail (err, 422, "clock-drift", "system.clock.measured_after.mhz",
                     "the clock measured %.0f MHz after the run, more than %.0f%% above the "
                     "%.0f MHz before it: the clock that timed the run slowed down", after,
                     100 * PLAUSIBLE_CLOCK_DRIFT, before);
      return -1;
    }
  return 0;
}

int
plausible_clock_refuse (const struct doc_summary *doc, struct validate_error *err)
{
  return refuse_beyond_family (doc, err) < 0 || refuse_drift (doc, err) < 0 ? -1 : 0;
}
