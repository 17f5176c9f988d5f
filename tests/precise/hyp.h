/* precise_math cases: the hyp family (shaders/ampvk/precise_hyp.glsl). */
#include "precise/harness.h"

static long double pm_ref_asin(const long double *x, int k) { (void)k; return asinl(x[0]); }
static long double pm_ref_acos(const long double *x, int k) { (void)k; return acosl(x[0]); }
static long double pm_ref_atan(const long double *x, int k) { (void)k; return atanl(x[0]); }
static long double pm_ref_atan2(const long double *x, int k) { (void)k; return atan2l(x[0], x[1]); }
static long double pm_ref_sinh(const long double *x, int k) { (void)k; return sinhl(x[0]); }
static long double pm_ref_cosh(const long double *x, int k) { (void)k; return coshl(x[0]); }
static long double pm_ref_tanh(const long double *x, int k) { (void)k; return tanhl(x[0]); }
static long double pm_ref_asinh(const long double *x, int k) { (void)k; return asinhl(x[0]); }
static long double pm_ref_acosh(const long double *x, int k) { (void)k; return acoshl(x[0]); }
static long double pm_ref_atanh(const long double *x, int k) { (void)k; return atanhl(x[0]); }

static const pm_case pm_cases_hyp[] = {
    {.name = "asin", .body = "r = precise_math_asin(a);", .ref = pm_ref_asin, .args = 1, .lo = -1, .hi = 1,
     .ulp = {1, 1},
     PM_SPECIAL(0.4999999, 0.50000001, -0.49999999, 0.9999999, -0.9999999, 0.999999999999, 1e-8, -1e-20, 1.0000001,
                -1.5, 0.25, 0.75, 0x1p-60, 0x1.fffffep-2, 0x1.fffffffffffffp-1)},
    {.name = "acos", .body = "r = precise_math_acos(a);", .ref = pm_ref_acos, .args = 1, .lo = -1, .hi = 1,
     .ulp = {1, 1},
     PM_SPECIAL(0.4999999, 0.50000001, -0.49999999, 0.9999999, -0.9999999, 0.999999999999, -0.999999999999, 1e-8,
                -1e-20, 1.0000001, -1.5, 0.25, -0.75, 0x1p-60, 0x1.fffffep-2, -0x1.fffffffffffffp-1)},
    {.name = "atan", .body = "r = precise_math_atan(a);", .ref = pm_ref_atan, .args = 1, .lo = -100, .hi = 100,
     .ulp = {1, 1},
     PM_SPECIAL(0.4375, 0.43749999, 0.6875, 0.68749999, 1.1875, 1.18749999, 2.4375, 2.43749999, -2.4375001, 1e8,
                1e20, -1e300, 0x1p-30, 0x1p-60, 1e-300, 0.3, -0.7, 1.5)},
    {.name = "atan2", .body = "r = precise_math_atan2(a, b);", .ref = pm_ref_atan2, .args = 2, .lo = -10, .hi = 10,
     .ulp = {1, 1},
     PM_SPECIAL(0x1p-26, 0x1p-27, 0x1p30, 0x1p31, 0x1p60, 0x1p-54, 1e-300, 1e300, 1e-40, 1e38, 0.4375, 2.4375, -7,
                0x1p-149, -0x1p-1074, 0x1p-1022)},
    {.name = "sinh", .body = "r = precise_math_sinh(a);", .ref = pm_ref_sinh, .args = 1, .lo = -100, .hi = 100,
     .ulp = {1, 1},
     PM_SPECIAL(0.99999994, 1.0000001, -0.9999999999999999, 0x1p-12, 0x1p-28, 1e-8, 9, 12, 22, -21.9, 89.4159851,
                89.4159927, 710.4758600739439, 710.475860073944, -710.475860073944, 1e10)},
    {.name = "sinh near-overflow", .body = "r = precise_math_sinh(a);", .ref = pm_ref_sinh, .args = 1, .lo = 85,
     .hi = 90, .ulp = {1, 1}, .types = PM_FLOAT},
    {.name = "sinh near-overflow", .body = "r = precise_math_sinh(a);", .ref = pm_ref_sinh, .args = 1, .lo = 700,
     .hi = 711, .ulp = {1, 1}, .types = PM_DOUBLE},
    {.name = "cosh", .body = "r = precise_math_cosh(a);", .ref = pm_ref_cosh, .args = 1, .lo = -100, .hi = 100,
     .ulp = {1, 1},
     PM_SPECIAL(0.99999994, 1.0000001, 0x1p-12, 0x1p-28, 1e-8, 9, 12, 22, -21.9, 89.4159851, -89.4159927,
                710.4758600739439, -710.475860073944, 1e10)},
    {.name = "cosh near-overflow", .body = "r = precise_math_cosh(a);", .ref = pm_ref_cosh, .args = 1, .lo = -90,
     .hi = -85, .ulp = {1, 1}, .types = PM_FLOAT},
    {.name = "cosh near-overflow", .body = "r = precise_math_cosh(a);", .ref = pm_ref_cosh, .args = 1, .lo = 700,
     .hi = 711, .ulp = {1, 1}, .types = PM_DOUBLE},
    {.name = "tanh", .body = "r = precise_math_tanh(a);", .ref = pm_ref_tanh, .args = 1, .lo = -20, .hi = 20,
     .ulp = {1, 1},
     PM_SPECIAL(0.5, 0.49999997, -0.4999999999999999, 0x1p-12, 0x1p-28, 1e-8, 9, 9.01, 9.1, 22, -21.9, 19.06, 1e10)},
    {.name = "asinh", .body = "r = precise_math_asinh(a);", .ref = pm_ref_asinh, .args = 1, .lo = -1e6, .hi = 1e6,
     .ulp = {1, 1},
     PM_SPECIAL(0x1p-12, 0x1p-28, 1e-8, 0x1p12, 0x1p28, -0x1.fffffffffffffp27, 1e150, 1e300, 0.25, 1.5)},
    {.name = "acosh", .body = "r = precise_math_acosh(a);", .ref = pm_ref_acosh, .args = 1, .lo = 1, .hi = 1e6,
     .ulp = {1, 1},
     PM_SPECIAL(0x1.000002p0, 0x1.0000000000001p0, 1.0001, 0x1p12, 0x1p28, 0x1.fffffffffffffp27, 1e150, 1e300, 0.25,
                1.5, 0x1.fffffep-1)},
    {.name = "atanh", .body = "r = precise_math_atanh(a);", .ref = pm_ref_atanh, .args = 1, .lo = -1, .hi = 1,
     .ulp = {1, 1},
     PM_SPECIAL(0x1p-12, 0x1p-28, 1e-8, 0.25, -0.75, 0x1.fffffep-1, 0x1.fffffffffffffp-1, -0x1.fffffffffffffp-1,
                0.99999, 1.0000001)},
};
