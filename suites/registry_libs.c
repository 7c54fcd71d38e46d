/* registry_libs.c: the suites of libraries other than GMP, in run order.
 * Optional libraries appear only when configure found them. */
#include "suites/suites.h"

const struct bench_suite *const library_suites[] = {
  NULL
};

const size_t library_suites_count = 0;
