// ampvk kernel library: precise_math, C++ AMP's Concurrency::precise_math in a kernel.
// precise_math::exp(x) is precise_math_exp(x), for float, double and their vectors
// (vec2..vec4, dvec2..dvec4 = float_2..float_4, double_2..double_4); the float form
// with an f (precise_math_expf) takes float and float vectors. C99's semantics and
// special values (Annex F); accuracy in docs/math.md, measured by
// tests/test_precise_math.c against the host's long double libm.
//
// Compiled in per function: the runtime defines AMP_PM_<name> for each
// precise_math_<name> (or <name>f) the kernel's text names. Each family file has two
// parts: under AMP_PM_NEEDS it defines AMP_PM_<x> for what its requested functions are
// built on (read first, from the highest family down, so a need reaches the family
// below); otherwise it defines the requested functions (read from the lowest family
// up, so what a function calls is already there).
//
// Rules of the implementation (Vulkan's float built-ins are loose, and GLSL has no
// double transcendental at all): only +, -, *, fma, comparisons, bit casts, floor,
// trunc, abs, frexp/ldexp and integer operations are trusted to be exact; division
// goes through amp_pm_div (Vulkan allows 2.5 ulp for OpFDiv), square roots through
// precise_math_sqrt. Float functions compute in float (they work without
// shaderFloat64); double ones in double, with 'lf' literals.
#ifndef AMPVK_PRECISE_MATH_GLSL
#define AMPVK_PRECISE_MATH_GLSL

// Vector forms of a scalar function F (S: the scalar type; V2..V4 its vectors).
#define AMP_PM_VEC1(F, V2, V3, V4)                                                                 \
    V2 F(V2 x) { return V2(F(x.x), F(x.y)); }                                                      \
    V3 F(V3 x) { return V3(F(x.x), F(x.y), F(x.z)); }                                              \
    V4 F(V4 x) { return V4(F(x.x), F(x.y), F(x.z), F(x.w)); }
#define AMP_PM_VEC2(F, V2, V3, V4)                                                                 \
    V2 F(V2 x, V2 y) { return V2(F(x.x, y.x), F(x.y, y.y)); }                                      \
    V3 F(V3 x, V3 y) { return V3(F(x.x, y.x), F(x.y, y.y), F(x.z, y.z)); }                         \
    V4 F(V4 x, V4 y) { return V4(F(x.x, y.x), F(x.y, y.y), F(x.z, y.z), F(x.w, y.w)); }
// Every form of precise_math_<name> once its float and double scalars exist: the
// vectors of both, and precise_math_<name>f for float and float vectors.
#define AMP_PM_FORMS1(name)                                                                        \
    AMP_PM_VEC1(precise_math_##name, vec2, vec3, vec4)                                             \
    AMP_PM_VEC1(precise_math_##name, dvec2, dvec3, dvec4)                                          \
    float precise_math_##name##f(float x) { return precise_math_##name(x); }                       \
    AMP_PM_VEC1(precise_math_##name##f, vec2, vec3, vec4)
#define AMP_PM_FORMS2(name)                                                                        \
    AMP_PM_VEC2(precise_math_##name, vec2, vec3, vec4)                                             \
    AMP_PM_VEC2(precise_math_##name, dvec2, dvec3, dvec4)                                          \
    float precise_math_##name##f(float x, float y) { return precise_math_##name(x, y); }           \
    AMP_PM_VEC2(precise_math_##name##f, vec2, vec3, vec4)

// The needs, from the highest family down.
#define AMP_PM_NEEDS 1
#include "precise_special.glsl"
#include "precise_hyp.glsl"
#include "precise_trig.glsl"
#include "precise_exp.glsl"
#include "precise_exact.glsl"
#undef AMP_PM_NEEDS

// Exact arithmetic every family may use (always compiled; unused functions cost
// nothing in the SPIR-V). Vulkan lets fma() round twice (lavapipe does): the runtime
// defines AMP_FMA_FUSED on devices that fuse it (GPUs), and only there may an exact
// result rest on fma; elsewhere fma is an ordinary multiply-add (fine in a polynomial).
//
// a * b = p + e exactly: fma where fused, else Veltkamp's split and Dekker's product.
void amp_pm_two_prod(float a, float b, out float p, out float e)
{
    precise float pp = a * b;
    p = pp;
#ifdef AMP_FMA_FUSED
    e = fma(a, b, -pp);
#else
    precise float ca = 4097.0 * a, cb = 4097.0 * b;
    precise float ah = ca - (ca - a), bh = cb - (cb - b), al = a - ah, bl = b - bh;
    precise float t = ((ah * bh - pp) + ah * bl + al * bh) + al * bl;
    e = t;
#endif
}
void amp_pm_two_prod(double a, double b, out double p, out double e)
{
    precise double pp = a * b;
    p = pp;
#ifdef AMP_FMA_FUSED
    e = fma(a, b, -pp);
#else
    precise double ca = 134217729.0lf * a, cb = 134217729.0lf * b;
    precise double ah = ca - (ca - a), bh = cb - (cb - b), al = a - ah, bl = b - bh;
    precise double t = ((ah * bh - pp) + ah * bl + al * bh) + al * bl;
    e = t;
#endif
}
// a + b = s + e exactly (any order of magnitudes).
// (precise throughout: NIR may otherwise simplify the error term to 0)
void amp_pm_two_sum(float a, float b, out float s, out float e)
{
    precise float ss = a + b, bb = ss - a, ee = (a - (ss - bb)) + (b - bb);
    s = ss;
    e = ee;
}
void amp_pm_two_sum(double a, double b, out double s, out double e)
{
    precise double ss = a + b, bb = ss - a, ee = (a - (ss - bb)) + (b - bb);
    s = ss;
    e = ee;
}
// a / b correctly rounded but in rare near-halfway cases (the device's quotient,
// Vulkan's 2.5 ulp, corrected once by its exact remainder a - b q) while a, b and q lie
// within 2^-100..2^100 (float) or 2^-900..2^900 (double), where the exact product
// cannot overflow or underflow; elsewhere, and for zeros, infinities and NaN, the
// device's quotient.
float amp_pm_div(float a, float b)
{
    float q = a / b;
    if (!(min(min(abs(a), abs(b)), abs(q)) > 7.9e-31 && max(max(abs(a), abs(b)), abs(q)) < 1.2e30)) return q;
    float p, e;
    amp_pm_two_prod(b, q, p, e);
    precise float r = q + ((a - p) - e) * (1.0 / b);
    return r;
}
double amp_pm_div(double a, double b)
{
    double q = a / b;
    if (!(min(min(abs(a), abs(b)), abs(q)) > 1.5e-271lf && max(max(abs(a), abs(b)), abs(q)) < 6.7e270lf)) return q;
    double p, e;
    amp_pm_two_prod(b, q, p, e);
    precise double r = q + ((a - p) - e) * (1.0lf / b);
    return r;
}

// The definitions, from the lowest family up.
#include "precise_exact.glsl"
#include "precise_exp.glsl"
#include "precise_trig.glsl"
#include "precise_hyp.glsl"
#include "precise_special.glsl"

#undef AMP_PM_VEC1
#undef AMP_PM_VEC2
#undef AMP_PM_FORMS1
#undef AMP_PM_FORMS2
#endif
