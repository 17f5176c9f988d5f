/* precise_math cases: the trig family (shaders/ampvk/precise_trig.glsl). */
#include "precise/harness.h"

/* x mod 2 exactly (fmodl is exact), then the function of pi r with care near the zeros:
 * sinpi through the distance to the nearest integer, cospi through the distance to the
 * nearest half-integer. */
static long double pm_pi_reduce(long double x, long double *r) { *r = fmodl(x, 2.0L); return *r; }
static long double pm_ref_sinpi(const long double *x, int k)
{
    (void)k;
    long double r, a = x[0];
    if (isinf(a) || isnan(a)) return NAN;
    if (a == truncl(a)) return copysignl(0, a);
    pm_pi_reduce(a, &r);
    long double n = roundl(r), d = r - n; /* r = n + d, |d| <= 1/2 */
    long double v = sinl(M_PIl * d);
    return fmodl(n, 2.0L) != 0 ? -v : v;
}
static long double pm_ref_cospi(const long double *x, int k)
{
    (void)k;
    long double r, a = x[0];
    if (isinf(a) || isnan(a)) return NAN;
    pm_pi_reduce(fabsl(a), &r);
    long double h = r - 0.5L, n = roundl(h), d = h - n; /* r = 1/2 + n + d */
    if (d == 0) return 0.0L;
    long double v = -sinl(M_PIl * d);
    return fmodl(n, 2.0L) != 0 ? -v : v;
}
static long double pm_ref_tanpi(const long double *x, int k)
{
    long double a = x[0];
    if (isinf(a) || isnan(a)) return NAN;
    if (a == truncl(a)) {
        bool odd = fmodl(fabsl(a), 2.0L) == 1;
        return a == 0 ? a : copysignl(0, (a > 0) == odd ? -1.0L : 1.0L);
    }
    long double h = a - 0.5L;
    if (h == truncl(h)) return fmodl(fabsl(h), 2.0L) == 0 ? INFINITY : -INFINITY;
    return pm_ref_sinpi(x, k) / pm_ref_cospi(x, k);
}
static long double pm_ref_sin(const long double *x, int k) { (void)k; return sinl(x[0]); }
static long double pm_ref_cos(const long double *x, int k) { (void)k; return cosl(x[0]); }
static long double pm_ref_tan(const long double *x, int k) { (void)k; return tanl(x[0]); }

#define PM_TRIG_HARD                                                                               \
    PM_SPECIAL(0x1.921fb54442d18p+0, 0x1.921fb6p+0, 355, 103993, 0x1.6ac5b262ca1ffp+849, 1e22, 1e300, 0x1.fffffep127, \
               3.14159265358979, 6.283185307179586, 1e6, 1647098.9, 6432.9, 6433.1, 1e15, 0x1p1023, 0.785398163, \
               -0.785398164, 2.356194490192345, 1e-20, -1e-300, 0x1.2d97c8p+4, 0x1.f9cbe2p+7, 0x1.17cc5p+14,     \
               0x1.9a48dep+15, 0x1.9a48dep+16, 99999.99, 1e5, -1e5, 99999999.99999999, 1e8, 0x1.4ac55cp+21, 0x1p-149)
static const pm_case pm_cases_trig[] = {
    {.name = "sin", .body = "r = precise_math_sin(a);", .ref = pm_ref_sin, .args = 1, .lo = -10, .hi = 10,
     .ulp = {1, 1}, PM_TRIG_HARD},
    {.name = "cos", .body = "r = precise_math_cos(a);", .ref = pm_ref_cos, .args = 1, .lo = -10, .hi = 10,
     .ulp = {1, 1}, PM_TRIG_HARD},
    {.name = "tan", .body = "r = precise_math_tan(a);", .ref = pm_ref_tan, .args = 1, .lo = -10, .hi = 10,
     .ulp = {1, 1}, PM_TRIG_HARD},
    {.name = "sincos sin", .body = "T sv, cv; precise_math_sincos(a, sv, cv); r = sv;", .ref = pm_ref_sin, .args = 1,
     .lo = -1e6, .hi = 1e6, .ulp = {1, 1}},
    {.name = "sincos cos", .body = "T sv, cv; precise_math_sincos(a, sv, cv); r = cv;", .ref = pm_ref_cos, .args = 1,
     .lo = -1e6, .hi = 1e6, .ulp = {1, 1}},
    {.name = "sinpi", .body = "r = precise_math_sinpi(a);", .ref = pm_ref_sinpi, .args = 1, .lo = -4, .hi = 4,
     .ulp = {1, 1}, PM_SPECIAL(0.5, -0.5, 1, -1, 2.5, 1e10, 4503599627370495.5, 0.25, 1e-30, 3)},
    {.name = "cospi", .body = "r = precise_math_cospi(a);", .ref = pm_ref_cospi, .args = 1, .lo = -4, .hi = 4,
     .ulp = {1, 1}, PM_SPECIAL(0.5, -0.5, 1, -1, 2.5, 1e10, 4503599627370495.5, 0.25, 1e-30, 3)},
    {.name = "tanpi", .body = "r = precise_math_tanpi(a);", .ref = pm_ref_tanpi, .args = 1, .lo = -4, .hi = 4,
     .ulp = {1, 1}, PM_SPECIAL(0.5, -0.5, 1, -1, 2.5, 1.5, -1.5, 1e10, 4503599627370495.5, 0.25, 0.2499999, 3, -2)},
};
