/* precise_math cases: the special family (shaders/ampvk/precise_special.glsl). */
#include "precise/harness.h"

static long double pm_ref_erf(const long double *x, int k) { (void)k; return erfl(x[0]); }
static long double pm_ref_erfc(const long double *x, int k) { (void)k; return erfcl(x[0]); }
/* The inverses by bisection, then Newton's steps in long double: on erfl for x <= 1/2, on
 * log(erfcl) for c <= 1/2 (well conditioned down to the tiniest c). */
static long double pm_inv_erf(long double x)
{
    if (x < 1e-12L) return 0.886226925452758013649083741670572591L * x; /* + O(x^3) */
    long double lo = 0, hi = 1, y;
    for (int i = 0; i < 30; i++) {
        y = 0.5L * (lo + hi);
        if (erfl(y) < x) lo = y; else hi = y;
    }
    y = 0.5L * (lo + hi);
    for (int i = 0; i < 4; i++) y -= (erfl(y) - x) / (1.1283791670955125738961589L * expl(-y * y));
    return y;
}
static long double pm_inv_erfc_pos(long double c) /* c in (0, 1/2] */
{
    long double lo = 0, hi = 40, y, lc = logl(c);
    for (int i = 0; i < 40; i++) {
        y = 0.5L * (lo + hi);
        if (erfcl(y) > c) lo = y; else hi = y;
    }
    y = 0.5L * (lo + hi);
    for (int i = 0; i < 4; i++) {
        long double ec = erfcl(y);
        y += (logl(ec) - lc) * ec / (1.1283791670955125738961589L * expl(-y * y));
    }
    return y;
}
static long double pm_inv_erfc(long double c)
{
    if (c > 1) return -pm_inv_erfc(2 - c);
    return c <= 0.5L ? pm_inv_erfc_pos(c) : pm_inv_erf(1 - c);
}
static long double pm_ref_erfinv(const long double *x, int k)
{
    (void)k;
    long double a = fabsl(x[0]);
    if (a >= 1) return a == 1 ? copysignl(INFINITY, x[0]) : NAN;
    return copysignl(a <= 0.5L ? pm_inv_erf(a) : pm_inv_erfc_pos(1 - a), x[0]);
}
static long double pm_ref_erfcinv(const long double *x, int k)
{
    (void)k;
    if (!(x[0] > 0 && x[0] < 2)) return x[0] == 0 ? INFINITY : x[0] == 2 ? -INFINITY : NAN;
    return pm_inv_erfc(x[0]);
}
static long double pm_ref_probit(const long double *x, int k)
{
    (void)k;
    if (!(x[0] > 0 && x[0] < 1)) return x[0] == 0 ? -INFINITY : x[0] == 1 ? INFINITY : NAN;
    return x[0] == 0.5L ? 0 : -sqrtl(2.0L) * pm_inv_erfc(2 * x[0]);
}
static long double pm_ref_tgamma(const long double *x, int k) { (void)k; return tgammal(x[0]); }
static long double pm_ref_lgamma(const long double *x, int k) { (void)k; return lgammal(x[0]); }
/* CUDA bounds lgamma outside (-23.0001, -2.2637) in double and (-10.001, -2.264) in float,
 * where the reflection's difference cancels near the negative zeros; so does ampvk. */
static bool pm_skip_lgamma(const long double *x, int k, bool is_float)
{
    (void)k;
    return is_float ? x[0] > -10.001L && x[0] < -2.264L : x[0] > -23.0001L && x[0] < -2.2637L;
}
static long double pm_ref_phi(const long double *x, int k) { (void)k; return 0.5L * erfcl(-x[0] / sqrtl(2.0L)); }

static const pm_case pm_cases_special[] = {
    {.name = "tgamma", .body = "r = precise_math_tgamma(a);", .ref = pm_ref_tgamma, .args = 1, .lo = -20, .hi = 172,
     .ulp = {5, 10}, .types = PM_DOUBLE, PM_SPECIAL(171.62, 171.63, 0.5, -0.5, 1, 2, 3, 10, 9.999999999999998, -1.5,
                                                    -19.5, -20.5, -100.5, -170.5, -180.5, -190.5, 1e-17, -1e-17, 1e-300,
                                                    -2.0000000000000004, -1.9999999999999998)},
    {.name = "tgamma", .body = "r = precise_math_tgamma(a);", .ref = pm_ref_tgamma, .args = 1, .lo = -10, .hi = 35,
     .ulp = {5, 10}, .types = PM_FLOAT, PM_SPECIAL(35.04, 35.05, 0.5, -0.5, 1, 2, 3, 10, 9.999999, -1.5, -9.5, -10.5,
                                                   -20.5, -30.5, -40.5, 1e-8, -1e-8, 1e-30, -2.0000002, -1.9999999)},
    {.name = "lgamma", .body = "r = precise_math_lgamma(a);", .ref = pm_ref_lgamma, .args = 1, .lo = -30, .hi = 30,
     .ulp = {6, 4}, .skip = pm_skip_lgamma,
     PM_SPECIAL(0.5, 0.75, 1.25, 1.75, 2.25, 2.75, 0.7499999, 1.2499999, 2.7499999, 1.0000001, 0.9999999, 1.9999999,
                2.0000002, 1.4616321, 9.999999, 1e-9, 1e-19, 1e-30, 1e-310, 1.1e9, 1.2e18, 4.08e36, 2.55e305,
                2.6e305, -0.5, -1.5, -2.2, -2.26, -1e-10, -1e-20, -0.9999999, -1.0000001, -23.5, -10.5, -100.5,
                -4503599627370495.5, -8388607.5, 1e300, 3e38)},
    {.name = "lgamma [0.5, 3]", .body = "r = precise_math_lgamma(a);", .ref = pm_ref_lgamma, .args = 1, .lo = 0.5,
     .hi = 3, .ulp = {6, 4}, .skip = pm_skip_lgamma},
    {.name = "lgamma [2.75, 10]", .body = "r = precise_math_lgamma(a);", .ref = pm_ref_lgamma, .args = 1, .lo = 2.75,
     .hi = 10, .ulp = {6, 4}, .skip = pm_skip_lgamma},
    {.name = "lgamma (-2.26, 0)", .body = "r = precise_math_lgamma(a);", .ref = pm_ref_lgamma, .args = 1,
     .lo = -2.2637, .hi = 0, .ulp = {6, 4}, .skip = pm_skip_lgamma},
    {.name = "erf", .body = "r = precise_math_erf(a);", .ref = pm_ref_erf, .args = 1, .lo = -6, .hi = 27,
     .ulp = {1, 1}, PM_SPECIAL(0.84375, 0.84374999, 1.25, 1.2499999, 2.857142857142857, 4, 6, 5.9, 1e-30, 1e-310,
                               -1e-40, 0.5, -0.5, 3.9)},
    {.name = "erfc", .body = "r = precise_math_erfc(a);", .ref = pm_ref_erfc, .args = 1, .lo = -6, .hi = 27,
     .ulp = {4, 5}, PM_SPECIAL(0.84375, 0.84374999, -0.84375, 0.25, 0.2499999, 1.25, -1.25, 2.857142857142857, 4, 6,
                               -6, -4, 10, 10.05, 10.06, 26.5, 26.6, 27.2, 27.3, 1e-30, -1e-40, 9.19, 9.2)},
    {.name = "phi", .body = "r = precise_math_phi(a);", .ref = pm_ref_phi, .args = 1, .lo = -40, .hi = 9,
     .ulp = {5, 5}, PM_SPECIAL(-1.1932426, 1.1932426, -1.7677669, 1.7677669, -0.35355339, -38.4, -38.5, -38.6,
                               -14.2, -14.3, -13.5, 8.5, 5.6, -1e-30)},
    {.name = "erfinv", .body = "r = precise_math_erfinv(a);", .ref = pm_ref_erfinv, .args = 1, .lo = -1, .hi = 1,
     .ulp = {2, 5}, PM_SPECIAL(0.75, 0.7500001, -0.75, 0.5, 0.99999994, -0.99999994, 0.9999999999999999, 0.999999,
                               0.99, -0.999, 1e-30, 1e-310, 0.9, 0.92, 0.3)},
    {.name = "erfinv near 1", .body = "r = precise_math_erfinv(a);", .ref = pm_ref_erfinv, .args = 1, .lo = 0.99,
     .hi = 1, .ulp = {2, 5}},
    {.name = "erfcinv", .body = "r = precise_math_erfcinv(a);", .ref = pm_ref_erfcinv, .args = 1, .lo = 0, .hi = 2,
     .ulp = {4, 6}, PM_SPECIAL(1e-300, 1e-310, 4.9e-324, 1e-40, 1e-45, 1.4e-45, 1e-38, 0.25, 1.75, 0.2499999, 1.7500001,
                               1.9999999, 1.9999999999999998, 0.077, 0.0769, 1e-16, 1e-10, 1.5, 0.5)},
    {.name = "erfcinv tiny", .body = "r = precise_math_erfcinv(a);", .ref = pm_ref_erfcinv, .args = 1, .lo = 0,
     .hi = 1e-5, .ulp = {4, 6}},
    {.name = "erfcinv sub", .body = "r = precise_math_erfcinv(a);", .ref = pm_ref_erfcinv, .args = 1, .lo = 1e-44,
     .hi = 1e-38, .ulp = {4, 6}, .types = PM_FLOAT},
    {.name = "probit", .body = "r = precise_math_probit(a);", .ref = pm_ref_probit, .args = 1, .lo = 0, .hi = 1,
     .ulp = {5, 8}, PM_SPECIAL(1e-300, 1e-310, 4.9e-324, 1e-40, 1e-45, 0.5, 0.125, 0.875, 0.12499999, 0.99999994,
                               0.9999999999999999, 1e-10, 0.975, 0.025)},
    {.name = "probit tiny", .body = "r = precise_math_probit(a);", .ref = pm_ref_probit, .args = 1, .lo = 0,
     .hi = 1e-5, .ulp = {5, 8}},
};
