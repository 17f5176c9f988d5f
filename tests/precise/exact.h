/* precise_math cases: the exact family and the roots (shaders/ampvk/precise_exact.glsl).
 * Bit-exact (bound 0) but for the roots; the int and bool results are compared as
 * values of T. */
#include <float.h>
#include <limits.h>

#include "precise/harness.h"

#define PM_REF1(NAME, EXPR)                                                                        \
    static long double pm_ref_##NAME(const long double *x, int k)                                  \
    {                                                                                              \
        (void)k;                                                                                   \
        long double a = x[0], b = x[1], c = x[2];                                                  \
        (void)a, (void)b, (void)c;                                                                 \
        return EXPR;                                                                               \
    }
static long double pm_fmin(long double a, long double b)
{
    return isnan(a) ? b : isnan(b) ? a : a < b ? a : b < a ? b : signbit(a) ? a : b;
}
static long double pm_fmax(long double a, long double b)
{
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b > a ? b : signbit(a) ? b : a;
}
static long double pm_scalb(long double a, long double b)
{
    if (isnan(a) || isnan(b)) return a + b;
    if (isinf(b)) return (a == 0 && b > 0) || (isinf(a) && b < 0) ? NAN : b > 0 ? a * b : copysignl(0, a);
    if (b != truncl(b)) return NAN;
    return ldexpl(a, (int)fmaxl(fminl(b, 100000), -100000));
}
/* remquo's quotient is unspecified where the remainder is NaN (y zero, x infinite);
 * for y within 2^24 of the subnormals a device that flushes them loses the quotient's
 * low bits in the exact subtractions (docs/math.md), so those are not checked either */
static bool pm_skip_quotient(const long double *x, int k, bool is_float)
{
    (void)k;
    long double y = fabsl(x[1]);
    return !isfinite(x[0]) || isnan(x[1]) || y < (is_float ? 0x1p-102L : 0x1p-998L);
}
static long double pm_remquo_q(long double a, long double b)
{
    int q = 0;
    remquol(a, b, &q);
    return q < 0 ? -(-q & 7) : (q & 7);
}
PM_REF1(fabs, fabsl(a))
PM_REF1(copysign, copysignl(a, b))
PM_REF1(fmin, pm_fmin(a, b))
PM_REF1(fmax, pm_fmax(a, b))
PM_REF1(fdim, fdim((double)a, (double)b))
static long double pm_ref_fdim_f(const long double *x, int k) { (void)k; return fdimf((float)x[0], (float)x[1]); }
PM_REF1(floor, floorl(a))
PM_REF1(ceil, ceill(a))
PM_REF1(trunc, truncl(a))
PM_REF1(round, roundl(a))
PM_REF1(nearbyint, nearbyintl(a))
PM_REF1(isnan, isnan(a) ? 1 : 0)
PM_REF1(isinf, isinf(a) ? 1 : 0)
PM_REF1(isfinite, isfinite(a) ? 1 : 0)
PM_REF1(signbit, signbit(a) ? 1 : 0)
PM_REF1(frexp_m, ({ int e_; frexpl(a, &e_); }))
PM_REF1(frexp_e, ({ int e_; frexpl(a, &e_); (long double)(isfinite(a) ? e_ : 0); }))
PM_REF1(modf_f, ({ long double i_; modfl(a, &i_); }))
PM_REF1(modf_i, ({ long double i_; modfl(a, &i_); i_; }))
PM_REF1(logb, logbl(a))
PM_REF1(nextafter, nextafter((double)a, (double)b))
PM_REF1(fmod, fmodl(a, b))
PM_REF1(remainder, remainderl(a, b))
PM_REF1(remquo_q, pm_remquo_q(a, b))
PM_REF1(scalb, pm_scalb(a, b))
PM_REF1(fma, fma((double)a, (double)b, (double)c))
PM_REF1(sqrt, sqrtl(a))
PM_REF1(rsqrt, 1.0L / sqrtl(a))
PM_REF1(cbrt, cbrtl(a))
PM_REF1(rcbrt, 1.0L / cbrtl(a))
PM_REF1(hypot, hypotl(a, b))
static long double pm_ref_ldexp(const long double *x, int k) { return ldexpl(x[0], k); }
static long double pm_ref_ilogb(const long double *x, int k)
{
    (void)k;
    return x[0] == 0 || isnan(x[0]) ? INT_MIN : isinf(x[0]) ? INT_MAX : ilogbl(x[0]);
}
static long double pm_ref_ilogb_f(const long double *x, int k)
{
    (void)k;
    return x[0] == 0 || isnan(x[0]) ? INT_MIN : isinf(x[0]) ? INT_MAX : ilogbf((float)x[0]);
}
static long double pm_ref_isnormal_f(const long double *x, int k) { (void)k; return isnormal((float)x[0]) ? 1 : 0; }
static long double pm_ref_isnormal_d(const long double *x, int k) { (void)k; return isnormal((double)x[0]) ? 1 : 0; }
static long double pm_ref_fpclassify_f(const long double *x, int k) { (void)k; return fpclassify((float)x[0]); }
static long double pm_ref_fpclassify_d(const long double *x, int k) { (void)k; return fpclassify((double)x[0]); }
static long double pm_ref_nextafter_f(const long double *x, int k) { (void)k; return nextafterf((float)x[0], (float)x[1]); }
static long double pm_ref_fma_f(const long double *x, int k) { (void)k; return fmaf((float)x[0], (float)x[1], (float)x[2]); }

#define PM_ALL .lo = 0, .hi = 0
static const pm_case pm_cases_exact[] = {
    {.name = "fabs", .body = "r = precise_math_fabs(a);", .ref = pm_ref_fabs, .args = 1},
    {.name = "copysign", .body = "r = precise_math_copysign(a, b);", .ref = pm_ref_copysign, .args = 2},
    {.name = "fmin", .body = "r = precise_math_fmin(a, b);", .ref = pm_ref_fmin, .args = 2, .lo = -10, .hi = 10},
    {.name = "fmax", .body = "r = precise_math_fmax(a, b);", .ref = pm_ref_fmax, .args = 2, .lo = -10, .hi = 10},
    {.name = "fdim", .body = "r = precise_math_fdim(a, b);", .ref = pm_ref_fdim, .ref_f = pm_ref_fdim_f, .args = 2, .lo = -10, .hi = 10},
    {.name = "floor", .body = "r = precise_math_floor(a);", .ref = pm_ref_floor, .args = 1, .lo = -100, .hi = 100,
     PM_SPECIAL(-0.5, 0.5, -0.0, 1.5, -1.5, 8388607.5, -4503599627370495.5)},
    {.name = "ceil", .body = "r = precise_math_ceil(a);", .ref = pm_ref_ceil, .args = 1, .lo = -100, .hi = 100,
     PM_SPECIAL(-0.5, 0.5, -0.0, 1.5, -1.5, 8388607.5, -4503599627370495.5)},
    {.name = "trunc", .body = "r = precise_math_trunc(a);", .ref = pm_ref_trunc, .args = 1, .lo = -100, .hi = 100,
     PM_SPECIAL(-0.5, 0.5, -0.0, 1.5, -1.5)},
    {.name = "round", .body = "r = precise_math_round(a);", .ref = pm_ref_round, .args = 1, .lo = -100, .hi = 100,
     PM_SPECIAL(-0.5, 0.5, 2.5, -2.5, 0.49999997, 0.49999999999999994, 8388607.5, 4503599627370495.5)},
    {.name = "nearbyint", .body = "r = precise_math_nearbyint(a);", .ref = pm_ref_nearbyint, .args = 1, .lo = -100,
     .hi = 100, PM_SPECIAL(-0.5, 0.5, 2.5, -2.5, 1.5, 8388607.5, 4503599627370495.5)},
    {.name = "isnan", .body = "r = precise_math_isnan(a) ? T(1) : T(0);", .ref = pm_ref_isnan, .args = 1},
    {.name = "isinf", .body = "r = precise_math_isinf(a) ? T(1) : T(0);", .ref = pm_ref_isinf, .args = 1},
    {.name = "isfinite", .body = "r = precise_math_isfinite(a) ? T(1) : T(0);", .ref = pm_ref_isfinite, .args = 1},
    {.name = "isnormal", .body = "r = precise_math_isnormal(a) ? T(1) : T(0);", .ref = pm_ref_isnormal_d,
     .ref_f = pm_ref_isnormal_f, .args = 1},
    {.name = "signbit", .body = "r = precise_math_signbit(a) ? T(1) : T(0);", .ref = pm_ref_signbit, .args = 1},
    {.name = "fpclassify", .body = "r = T(precise_math_fpclassify(a));", .ref = pm_ref_fpclassify_d,
     .ref_f = pm_ref_fpclassify_f, .args = 1},
    {.name = "frexp", .body = "int e; r = precise_math_frexp(a, e);", .ref = pm_ref_frexp_m, .args = 1},
    {.name = "frexp exponent", .body = "int e; precise_math_frexp(a, e); r = T(e);", .ref = pm_ref_frexp_e, .args = 1},
    {.name = "modf", .body = "T ip; r = precise_math_modf(a, ip);", .ref = pm_ref_modf_f, .args = 1, .lo = -100,
     .hi = 100},
    {.name = "modf whole", .body = "T ip; precise_math_modf(a, ip); r = ip;", .ref = pm_ref_modf_i, .args = 1,
     .lo = -100, .hi = 100},
    {.name = "ldexp", .body = "r = precise_math_ldexp(a, k);", .ref = pm_ref_ldexp, .args = 1, .int_arg = true,
     .int_lo = -1200, .int_hi = 1200},
    {.name = "scalbn", .body = "r = precise_math_scalbn(a, k);", .ref = pm_ref_ldexp, .args = 1, .int_arg = true,
     .int_lo = -300, .int_hi = 300},
    {.name = "scalb", .body = "r = precise_math_scalb(a, b);", .ref = pm_ref_scalb, .args = 2, .lo = -100, .hi = 100,
     .lo_b = -200, .hi_b = 200, PM_SPECIAL(-2.5, 2.5, 150, -160, 1100, -1100)},
    {.name = "logb", .body = "r = precise_math_logb(a);", .ref = pm_ref_logb, .args = 1},
    {.name = "ilogb", .body = "r = T(precise_math_ilogb(a));", .ref = pm_ref_ilogb, .ref_f = pm_ref_ilogb_f, .args = 1},
    {.name = "nextafter", .body = "r = precise_math_nextafter(a, b);", .ref = pm_ref_nextafter,
     .ref_f = pm_ref_nextafter_f, .args = 2, .lo = -10, .hi = 10},
    {.name = "fmod", .body = "r = precise_math_fmod(a, b);", .ref = pm_ref_fmod, .args = 2, .lo = -1e6, .hi = 1e6,
     .lo_b = -10, .hi_b = 10, PM_SPECIAL(1e30, -1e30, 3e-30, 1e300, 7, -7, 0.1)},
    {.name = "remainder", .body = "r = precise_math_remainder(a, b);", .ref = pm_ref_remainder, .args = 2,
     .lo = -1e6, .hi = 1e6, .lo_b = -10, .hi_b = 10, PM_SPECIAL(1e30, -1e30, 3e-30, 1e300, 7, -7, 0.1, 1.5, 2.5)},
    {.name = "remquo", .body = "int q; r = precise_math_remquo(a, b, q);", .ref = pm_ref_remainder, .args = 2,
     .lo = -1e6, .hi = 1e6, .lo_b = -10, .hi_b = 10},
    {.name = "remquo quotient", .body = "int q; precise_math_remquo(a, b, q); r = T(q);", .ref = pm_ref_remquo_q,
     .args = 2, .lo = -1e4, .hi = 1e4, .lo_b = -10, .hi_b = 10, PM_SPECIAL(7, -7, 1.5, 2.5, 5, 10, 15),
     .skip = pm_skip_quotient},
    {.name = "fma", .body = "r = precise_math_fma(a, b, c);", .ref = pm_ref_fma, .ref_f = pm_ref_fma_f, .args = 3,
     .lo = -10, .hi = 10},
    {.name = "sqrt", .body = "r = precise_math_sqrt(a);", .ref = pm_ref_sqrt, .args = 1, .lo = 0, .hi = 1e30,
     .ulp = {0.5, 0.5}},
    {.name = "rsqrt", .body = "r = precise_math_rsqrt(a);", .ref = pm_ref_rsqrt, .args = 1, .lo = 0, .hi = 1e30,
     .ulp = {1, 1}},
    {.name = "cbrt", .body = "r = precise_math_cbrt(a);", .ref = pm_ref_cbrt, .args = 1, .lo = -1e30, .hi = 1e30,
     .ulp = {1, 1}, PM_SPECIAL(27, -27, 8, 0.125, 1e-300, 1e300)},
    {.name = "rcbrt", .body = "r = precise_math_rcbrt(a);", .ref = pm_ref_rcbrt, .args = 1, .lo = -1e30, .hi = 1e30,
     .ulp = {1, 1}, PM_SPECIAL(27, -27, 8, 0.125, 1e-300, 1e300)},
    {.name = "hypot", .body = "r = precise_math_hypot(a, b);", .ref = pm_ref_hypot, .args = 2, .lo = -1e6, .hi = 1e6,
     .ulp = {1, 1}, PM_SPECIAL(3, 4, 1e300, 1e-300, 3e38, 1e-40)},
};
