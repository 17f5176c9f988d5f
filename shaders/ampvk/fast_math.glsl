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

// The rest once for float and each float vector (T), with its int (I), bool (B) and
// uint (U) types.
#define AMP_FM_TYPES(M)                                                                            \
    M(float, int, bool, uint) M(vec2, ivec2, bvec2, uvec2) M(vec3, ivec3, bvec3, uvec3)            \
    M(vec4, ivec4, bvec4, uvec4)
#define AMP_FM_TYPED(T, I, B, U)                                                                   \
    /* |a| with b's sign bit (-0.0 and NaN included) */                                          \
    T amp_fm_copysign(T a, T b)                                                                    \
    {                                                                                              \
        return uintBitsToFloat((floatBitsToUint(a) & U(0x7fffffffu)) | (floatBitsToUint(b) & U(0x80000000u))); \
    }                                                                                              \
    /* isfinite: the exponent is not all ones; signbit: the sign bit itself */                   \
    B fast_math_isfinite(T x) { return B((floatBitsToUint(x) & U(0x7f800000u)) ^ U(0x7f800000u)); } \
    B fast_math_signbit(T x) { return B(floatBitsToUint(x) >> 31); }                               \
    /* C's round: halfway cases away from zero (GLSL's round may go either way), signed zeros */ \
    T fast_math_round(T x)                                                                         \
    {                                                                                              \
        T t = trunc(x);                                                                            \
        return amp_fm_copysign(abs(t) + step(0.5, abs(x - t)), x);                                 \
    }                                                                                              \
    /* C's modf: fraction and whole part (ip) with x's sign, an infinity's fraction 0 */          \
    T fast_math_modf(T x, out T ip)                                                                \
    {                                                                                              \
        ip = trunc(x);                                                                             \
        return amp_fm_copysign(mix(x - ip, T(0.0), isinf(x)), x);                                  \
    }                                                                                              \
    /* frexp: x = m * 2^e with 0.5 <= |m| < 1 (GLSL's); ldexp: x * 2^e; sincos: both at once */   \
    T fast_math_frexp(T x, out I e) { return frexp(x, e); }                                        \
    T fast_math_ldexp(T x, I e) { return ldexp(x, e); }                                            \
    void fast_math_sincos(T x, out T s, out T c)                                                   \
    {                                                                                              \
        s = sin(x);                                                                                \
        c = cos(x);                                                                                \
    }
AMP_FM_TYPES(AMP_FM_TYPED)

#undef AMP_FM_TYPES
#undef AMP_FM_TYPED
#undef AMP_FM_1
#undef AMP_FM_2
#undef AMP_FM_B
#endif
