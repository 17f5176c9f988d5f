/* precise_math cases: the exact family and the roots (shaders/ampvk/precise_exact.glsl). */
#include "precise/harness.h"

static long double pm_ref_fabs(const long double *x, int k) { (void)k; return fabsl(x[0]); }
static long double pm_ref_sqrt(const long double *x, int k) { (void)k; return sqrtl(x[0]); }

static const pm_case pm_cases_exact[] = {
    {.name = "fabs", .body = "r = precise_math_fabs(a);", .ref = pm_ref_fabs, .args = 1},
    {.name = "sqrt", .body = "r = precise_math_sqrt(a);", .ref = pm_ref_sqrt, .args = 1, .lo = 0, .hi = 1e30,
     .ulp = {0.5, 0.5}},
};
