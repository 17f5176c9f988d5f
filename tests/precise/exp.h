/* precise_math cases: the exp family (shaders/ampvk/precise_exp.glsl). */
#include "precise/harness.h"

static long double pm_ref_exp(const long double *x, int k) { (void)k; return expl(x[0]); }
static long double pm_ref_exp2(const long double *x, int k) { (void)k; return exp2l(x[0]); }
static long double pm_ref_exp10(const long double *x, int k) { (void)k; return exp10l(x[0]); }
static long double pm_ref_expm1(const long double *x, int k) { (void)k; return expm1l(x[0]); }
static long double pm_ref_log(const long double *x, int k) { (void)k; return logl(x[0]); }
static long double pm_ref_log2(const long double *x, int k) { (void)k; return log2l(x[0]); }
static long double pm_ref_log10(const long double *x, int k) { (void)k; return log10l(x[0]); }
static long double pm_ref_log1p(const long double *x, int k) { (void)k; return log1pl(x[0]); }
static long double pm_ref_pow(const long double *x, int k) { (void)k; return powl(x[0], x[1]); }

static const pm_case pm_cases_exp[] = {
    {.name = "exp", .body = "r = precise_math_exp(a);", .ref = pm_ref_exp, .args = 1, .lo = -750, .hi = 710,
     .ulp = {1, 1}, PM_SPECIAL(88.72283935546875, 88.7228317, -87.3365479, -103.278931, 709.782712893384,
                               -708.3964185322641, -745.1332191019411, 7.09782712893383973096e+02, 1e-30, -1e-300,
                               /* float's lean GPU path once gave 1.035 ulp here */ -0x1.764062p+2)},
    {.name = "exp2", .body = "r = precise_math_exp2(a);", .ref = pm_ref_exp2, .args = 1, .lo = -1080, .hi = 1030,
     .ulp = {1, 1}, PM_SPECIAL(127.999992, -126.5, -149.0, -149.5, 1023.9999999999999, -1074.0, -1022.5, 0.5, -0.5)},
    {.name = "exp10", .body = "r = precise_math_exp10(a);", .ref = pm_ref_exp10, .args = 1, .lo = -330, .hi = 310,
     .ulp = {1, 1}, PM_SPECIAL(38.5318394, -45.1545, 308.25471555991675, -323.3062153431158, 1, 2, 22, -5)},
    {.name = "expm1", .body = "r = precise_math_expm1(a);", .ref = pm_ref_expm1, .args = 1, .lo = -40, .hi = 710,
     .ulp = {1, 1}, PM_SPECIAL(0.34657359, -0.34657359, 0.3465736, -0.3465736, 1e-8, -1e-8, 1e-20, 88.7, -17.4, 709.7,
                               /* float: 1.03 ulp on an H100 before the series was summed as r^3 c(r) */
                               0x1.63a2p-2, 0x1.638dp-2)},
    {.name = "log", .body = "r = precise_math_log(a);", .ref = pm_ref_log, .args = 1, .lo = 0, .hi = 1e308,
     .ulp = {1, 1}, PM_SPECIAL(0.70710678, 1.41421356, 0.99999994, 1.0000001, 0.9999999999999999, 1.0000000000000002)},
    {.name = "log2", .body = "r = precise_math_log2(a);", .ref = pm_ref_log2, .args = 1, .lo = 0, .hi = 1e308,
     .ulp = {1, 1}, PM_SPECIAL(0.70710678, 1.41421356, 0.99999994, 1.0000001, 1024, 0.125)},
    {.name = "log10", .body = "r = precise_math_log10(a);", .ref = pm_ref_log10, .args = 1, .lo = 0, .hi = 1e308,
     .ulp = {1, 1}, PM_SPECIAL(1e10, 1e-10, 1000, 0.001, 1e22, 0.99999994, 1.0000001)},
    {.name = "log1p", .body = "r = precise_math_log1p(a);", .ref = pm_ref_log1p, .args = 1, .lo = -1, .hi = 1e308,
     .ulp = {1, 1}, PM_SPECIAL(-0.29289322, 0.41421356, -0.9999999, 1e-8, -1e-8, 1e-30, 3, 1e10, -0.5)},
    /* x in (0, 10] with y in [-40, 40]; the specials crossed (negative x with integer y,
     * signed zeros, infinities, NaN, 1 and -1) */
    {.name = "pow", .body = "r = precise_math_pow(a, b);", .ref = pm_ref_pow, .args = 2, .lo = 0, .hi = 10,
     .lo_b = -40, .hi_b = 40, .ulp = {1, 1},
     PM_SPECIAL(-2, -3, 0.5, 5, -5, 1.0000001, 0.9999999, 1.0000000000000002, 0.9999999999999999, 1e10, 1e-10, 7,
                -7, 1e6, -1e6, 4294967296.0, 0.3333333333333333)},
    /* x near 1 with huge y: the exponent's error shows */
    {.name = "pow near 1", .body = "r = precise_math_pow(a, b);", .ref = pm_ref_pow, .args = 2, .lo = 0.999, .hi = 1.001,
     .lo_b = -300000, .hi_b = 300000, .ulp = {1, 1}},
};
