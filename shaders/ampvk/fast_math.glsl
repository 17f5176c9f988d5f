// ampvk kernel library: fast_math, C++ AMP's Concurrency::fast_math in a kernel.
// fast_math::log10(x) is fast_math_log10(x). Float and float vectors (vec2, vec3,
// vec4 = float_2 ... float_4), the GLSL built-ins where they exist: fast, and only as
// accurate as Vulkan requires of them (docs/math.md has the table), which differs
// between devices. The runtime compiles this file into a kernel only when the
// kernel's text names fast_math_ (or defines AMP_WITH_FAST_MATH).
//
// Differences from C: isfinite, isinf, isnan and signbit return bool (bvecN for
// vectors), so that they can stand in an if; frexp and modf return the second
// result through an out parameter, as GLSL's; sincos(x, out s, out c).
#ifndef AMPVK_FAST_MATH_GLSL
#define AMPVK_FAST_MATH_GLSL

// One function for float and each float vector: T is the type, B the bool type.
#define AMP_FM_1(name, expr)                                                                       \
    float name(float x) { return expr; }                                                           \
    vec2 name(vec2 x) { return expr; }                                                             \
    vec3 name(vec3 x) { return expr; }                                                             \
    vec4 name(vec4 x) { return expr; }
#define AMP_FM_2(name, expr)                                                                       \
    float name(float x, float y) { return expr; }                                                  \
    vec2 name(vec2 x, vec2 y) { return expr; }                                                     \
    vec3 name(vec3 x, vec3 y) { return expr; }                                                     \
    vec4 name(vec4 x, vec4 y) { return expr; }
#define AMP_FM_B(name, expr)                                                                       \
    bool name(float x) { return expr; }                                                            \
    bvec2 name(vec2 x) { return expr; }                                                            \
    bvec3 name(vec3 x) { return expr; }                                                            \
    bvec4 name(vec4 x) { return expr; }

AMP_FM_1(fast_math_acos, acos(x))
AMP_FM_1(fast_math_asin, asin(x))
AMP_FM_1(fast_math_atan, atan(x))
AMP_FM_2(fast_math_atan2, atan(x, y))
AMP_FM_1(fast_math_ceil, ceil(x))
AMP_FM_1(fast_math_cos, cos(x))
AMP_FM_1(fast_math_cosh, cosh(x))
AMP_FM_1(fast_math_exp, exp(x))
AMP_FM_1(fast_math_exp2, exp2(x))
AMP_FM_1(fast_math_fabs, abs(x))
AMP_FM_1(fast_math_floor, floor(x))
AMP_FM_2(fast_math_fmax, max(x, y))
AMP_FM_2(fast_math_fmin, min(x, y))
// C's fmod: the sign of x, x - trunc(x / y) * y (GLSL's mod floors instead)
AMP_FM_2(fast_math_fmod, x - y * trunc(x / y))
AMP_FM_B(fast_math_isinf, isinf(x))
AMP_FM_B(fast_math_isnan, isnan(x))
AMP_FM_1(fast_math_log, log(x))
// log10 through log2: one multiply by log10(2)
AMP_FM_1(fast_math_log10, log2(x) * 0.30102999566398120)
AMP_FM_1(fast_math_log2, log2(x))
AMP_FM_2(fast_math_pow, pow(x, y))
AMP_FM_1(fast_math_rsqrt, inversesqrt(x))
AMP_FM_1(fast_math_sin, sin(x))
AMP_FM_1(fast_math_sinh, sinh(x))
AMP_FM_1(fast_math_sqrt, sqrt(x))
AMP_FM_1(fast_math_tan, tan(x))
AMP_FM_1(fast_math_tanh, tanh(x))
AMP_FM_1(fast_math_trunc, trunc(x))

// isfinite: |x| at most the largest float (false for infinities and NaN)
bool fast_math_isfinite(float x) { return abs(x) <= 3.40282347e38; }
bvec2 fast_math_isfinite(vec2 x) { return lessThanEqual(abs(x), vec2(3.40282347e38)); }
bvec3 fast_math_isfinite(vec3 x) { return lessThanEqual(abs(x), vec3(3.40282347e38)); }
bvec4 fast_math_isfinite(vec4 x) { return lessThanEqual(abs(x), vec4(3.40282347e38)); }

// signbit: the sign bit itself (-0.0 and negative NaNs included)
bool fast_math_signbit(float x) { return (floatBitsToUint(x) >> 31) != 0u; }
bvec2 fast_math_signbit(vec2 x) { return notEqual(floatBitsToUint(x) >> 31, uvec2(0u)); }
bvec3 fast_math_signbit(vec3 x) { return notEqual(floatBitsToUint(x) >> 31, uvec3(0u)); }
bvec4 fast_math_signbit(vec4 x) { return notEqual(floatBitsToUint(x) >> 31, uvec4(0u)); }

// frexp: x = m * 2^e with 0.5 <= |m| < 1 (GLSL's); ldexp: x * 2^e
float fast_math_frexp(float x, out int e) { return frexp(x, e); }
vec2 fast_math_frexp(vec2 x, out ivec2 e) { return frexp(x, e); }
vec3 fast_math_frexp(vec3 x, out ivec3 e) { return frexp(x, e); }
vec4 fast_math_frexp(vec4 x, out ivec4 e) { return frexp(x, e); }
float fast_math_ldexp(float x, int e) { return ldexp(x, e); }
vec2 fast_math_ldexp(vec2 x, ivec2 e) { return ldexp(x, e); }
vec3 fast_math_ldexp(vec3 x, ivec3 e) { return ldexp(x, e); }
vec4 fast_math_ldexp(vec4 x, ivec4 e) { return ldexp(x, e); }

// C's round: halfway cases away from zero (GLSL's round may go either way); the
// select keeps -0.0
float fast_math_round(float x) { float t = trunc(x); return abs(x - t) >= 0.5 ? t + sign(x) : t; }
vec2 fast_math_round(vec2 x) { vec2 t = trunc(x); return mix(t, t + sign(x), greaterThanEqual(abs(x - t), vec2(0.5))); }
vec3 fast_math_round(vec3 x) { vec3 t = trunc(x); return mix(t, t + sign(x), greaterThanEqual(abs(x - t), vec3(0.5))); }
vec4 fast_math_round(vec4 x) { vec4 t = trunc(x); return mix(t, t + sign(x), greaterThanEqual(abs(x - t), vec4(0.5))); }

// modf as C's: the fraction and the whole part (through ip) both carry x's sign (-0.0
// included), and an infinity's fraction is 0
#define AMP_FM_MODF(T, U, M)                                                                         \
    T fast_math_modf(T x, out T ip)                                                                  \
    {                                                                                                \
        ip = trunc(x);                                                                               \
        T f = mix(x - ip, T(0.0), isinf(x));                                                         \
        return uintBitsToFloat((floatBitsToUint(f) & U(0x7fffffffu)) | (floatBitsToUint(x) & U(M))); \
    }
AMP_FM_MODF(float, uint, 0x80000000u)
AMP_FM_MODF(vec2, uvec2, 0x80000000u)
AMP_FM_MODF(vec3, uvec3, 0x80000000u)
AMP_FM_MODF(vec4, uvec4, 0x80000000u)
#undef AMP_FM_MODF

// sincos: both at once
void fast_math_sincos(float x, out float s, out float c) { s = sin(x); c = cos(x); }
void fast_math_sincos(vec2 x, out vec2 s, out vec2 c) { s = sin(x); c = cos(x); }
void fast_math_sincos(vec3 x, out vec3 s, out vec3 c) { s = sin(x); c = cos(x); }
void fast_math_sincos(vec4 x, out vec4 s, out vec4 c) { s = sin(x); c = cos(x); }

#undef AMP_FM_1
#undef AMP_FM_2
#undef AMP_FM_B
#endif
