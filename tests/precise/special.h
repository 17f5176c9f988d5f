/* precise_math cases: the special family (shaders/ampvk/precise_special.glsl). */
#include "precise/harness.h"

static long double pm_ref_erf(const long double *x, int k) { (void)k; return erfl(x[0]); }
static long double pm_ref_erfc(const long double *x, int k) { (void)k; return erfcl(x[0]); }
static long double pm_ref_phi(const long double *x, int k) { (void)k; return 0.5L * erfcl(-x[0] / sqrtl(2.0L)); }

static const pm_case pm_cases_special[] = {
    {.name = "erf", .body = "r = precise_math_erf(a);", .ref = pm_ref_erf, .args = 1, .lo = -6, .hi = 27,
     .ulp = {1, 1}, PM_SPECIAL(0.84375, 0.84374999, 1.25, 1.2499999, 2.857142857142857, 4, 6, 5.9, 1e-30, 1e-310,
                               -1e-40, 0.5, -0.5, 3.9)},
    {.name = "erfc", .body = "r = precise_math_erfc(a);", .ref = pm_ref_erfc, .args = 1, .lo = -6, .hi = 27,
     .ulp = {4, 5}, PM_SPECIAL(0.84375, 0.84374999, -0.84375, 0.25, 0.2499999, 1.25, -1.25, 2.857142857142857, 4, 6,
                               -6, -4, 10, 10.05, 10.06, 26.5, 26.6, 27.2, 27.3, 1e-30, -1e-40, 9.19, 9.2)},
    {.name = "phi", .body = "r = precise_math_phi(a);", .ref = pm_ref_phi, .args = 1, .lo = -40, .hi = 9,
     .ulp = {5, 5}, PM_SPECIAL(-1.1932426, 1.1932426, -1.7677669, 1.7677669, -0.35355339, -38.4, -38.5, -38.6,
                               -14.2, -14.3, -13.5, 8.5, 5.6, -1e-30)},
};
