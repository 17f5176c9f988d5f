// ampvk kernel library: trunc, round and roundEven of doubles on a device whose own are
// wrong. lavapipe (Mesa 22.3, Debian 12) returns x unchanged for |x| >= 2^24 on some
// hosts (an AMD EPYC with AVX2: its double rounding takes float's threshold), while its
// floor and the arithmetic are exact. The runtime defines AMP_DOUBLE_ROUNDING_FIX on CPU
// devices with doubles; this file then rebuilds the three from exact operations and
// redirects the built-in names to them for the rest of the kernel (the library and the
// user's code alike). float and its vectors keep the built-ins.
#ifndef AMPVK_ROUNDING_GLSL
#define AMPVK_ROUNDING_GLSL

// trunc: floor of |x| with x's sign (-0 for x in (-1, -0]; NaN and infinities kept).
double amp_rounding_trunc(double x) { return x < 0.0lf ? -floor(-x) : floor(x); }
// roundEven: |x| + 2^52 rounds to an integer, ties to even, and the subtraction is exact;
// x's sign put back; from 2^52 up every double is an integer (zeros, NaN and infinities
// are kept too).
double amp_rounding_even(double x)
{
    precise double a = abs(x), r = (a + 4503599627370496.0lf) - 4503599627370496.0lf;
    return a < 4503599627370496.0lf && x != 0.0lf ? (x < 0.0lf ? -r : r) : x;
}
// round: GLSL leaves the direction of a tie to the implementation; here, to even.
double amp_rounding_round(double x) { return amp_rounding_even(x); }

// The vector forms of the doubles, and the float forms (the built-ins), for F.
#define AMP_ROUNDING_FORMS(F, B)                                                                   \
    dvec2 F(dvec2 x) { return dvec2(F(x.x), F(x.y)); }                                             \
    dvec3 F(dvec3 x) { return dvec3(F(x.x), F(x.y), F(x.z)); }                                     \
    dvec4 F(dvec4 x) { return dvec4(F(x.x), F(x.y), F(x.z), F(x.w)); }                             \
    float F(float x) { return B(x); }                                                              \
    vec2 F(vec2 x) { return B(x); }                                                                \
    vec3 F(vec3 x) { return B(x); }                                                                \
    vec4 F(vec4 x) { return B(x); }
AMP_ROUNDING_FORMS(amp_rounding_trunc, trunc)
AMP_ROUNDING_FORMS(amp_rounding_even, roundEven)
AMP_ROUNDING_FORMS(amp_rounding_round, round)
#undef AMP_ROUNDING_FORMS

#define trunc(x) amp_rounding_trunc(x)
#define round(x) amp_rounding_round(x)
#define roundEven(x) amp_rounding_even(x)
#endif
