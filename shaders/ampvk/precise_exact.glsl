// ampvk kernel library, precise_math: fabs fmin fmax fdim copysign floor ceil trunc round nearbyint modf frexp ldexp scalbn scalb logb ilogb nextafter nan fma fmod remainder remquo fpclassify isfinite isinf isnan isnormal signbit sqrt rsqrt cbrt rcbrt hypot.
// Part of precise_math.glsl (read there how the parts fit); float and double.
#ifdef AMP_PM_NEEDS
// what the requested functions are built on
#if defined(AMP_PM_rsqrt) || defined(AMP_PM_hypot)
#define AMP_PM_sqrt 1
#endif
#if defined(AMP_PM_remainder) || defined(AMP_PM_remquo)
#define AMP_PM_EXACT_MOD 1
#endif
#if defined(AMP_PM_fmod) || defined(AMP_PM_EXACT_MOD) || defined(AMP_PM_scalb) || defined(AMP_PM_scalbn) || \
    defined(AMP_PM_ldexp) || defined(AMP_PM_frexp) || defined(AMP_PM_fma) || defined(AMP_PM_cbrt) ||           \
    defined(AMP_PM_rcbrt) || defined(AMP_PM_hypot)
#define AMP_PM_EXACT_SCALE 1
#endif
#else


#ifdef AMP_PM_sqrt
// Correctly rounded: the device's square root (Vulkan: as 1 / inversesqrt, not
// exact), then a neighbour where the exact residual r = x - y^2 (one fma) passes the
// midpoint: up when r > y * (up - y), down when r <= -y * (y - down) (r and those
// products are whole multiples of the square of y's ulp, so the midpoints' own squared
// half-ulps never decide). Tiny and huge inputs are scaled by an even power of two first.
float precise_math_sqrt(float x)
{
    float s = 1.0;
    if (x < 1.0e-12 && x > 0.0) { // residuals far above the subnormals (flushed on many GPUs)
        x *= 1.8446744e19; // 2^64
        s = 2.3283064e-10; // 2^-32
    } else if (x > 1.0e30 && !isinf(x)) {
        x *= 5.421011e-20; // 2^-64
        s = 4294967296.0;  // 2^32
    }
    float y = sqrt(x);
    if (!(x > 0.0) || isinf(x) || y == 0.0) return y * s;
    for (int i = 0; i < 2; i++) {
        float p, e;
        amp_pm_two_prod(y, y, p, e);
        float r = (x - p) - e;
        float up = uintBitsToFloat(floatBitsToUint(y) + 1u), dn = uintBitsToFloat(floatBitsToUint(y) - 1u);
        if (r > y * (up - y)) y = up;
        else if (r <= -y * (y - dn)) y = dn;
    }
    return y * s;
}
double precise_math_sqrt(double x)
{
    double s = 1.0lf;
    if (x < 1.0e-250lf && x > 0.0lf) {
        x *= 1.157920892373162e77lf; // 2^256
        s = 2.938735877055719e-39lf; // 2^-128
    } else if (x > 1.0e250lf && !isinf(x)) {
        x *= 8.636168555094445e-78lf; // 2^-256
        s = 3.402823669209385e38lf;   // 2^128
    }
    double y = sqrt(x);
    if (!(x > 0.0lf) || isinf(x) || y == 0.0lf) return y * s;
    for (int i = 0; i < 2; i++) {
        double p, e;
        amp_pm_two_prod(y, y, p, e);
        double r = (x - p) - e;
        uvec2 u = unpackDouble2x32(y);
        double up = packDouble2x32(uvec2(u.x + 1u, u.y + (u.x == 0xffffffffu ? 1u : 0u)));
        double dn = packDouble2x32(uvec2(u.x - 1u, u.y - (u.x == 0u ? 1u : 0u)));
        if (r > y * (up - y)) y = up;
        else if (r <= -y * (y - dn)) y = dn;
    }
    return y * s;
}
AMP_PM_FORMS1(sqrt)
#endif


// ---- bits ----
// The sign bit, the biased exponent and a value with another sign, by the bits (NIR
// folds sign-of-zero arithmetic away otherwise).
bool amp_pm_sign(float x) { return (floatBitsToUint(x) >> 31) != 0u; }
bool amp_pm_sign(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }
int amp_pm_bexp(float x) { return int(floatBitsToUint(x) >> 23) & 0xff; }
int amp_pm_bexp(double x) { return int(unpackDouble2x32(x).y >> 20) & 0x7ff; }
float amp_pm_with_sign(float x, bool neg)
{
    return uintBitsToFloat((floatBitsToUint(x) & 0x7fffffffu) | (neg ? 0x80000000u : 0u));
}
double amp_pm_with_sign(double x, bool neg)
{
    uvec2 u = unpackDouble2x32(x);
    return packDouble2x32(uvec2(u.x, (u.y & 0x7fffffffu) | (neg ? 0x80000000u : 0u)));
}
// A quiet NaN of x's type (NIR folds x - x and x / x, so no NaN comes from arithmetic).
float amp_pm_nan(float x) { return uintBitsToFloat(0x7fc00000u); }
double amp_pm_nan(double x) { return packDouble2x32(uvec2(0u, 0x7ff80000u)); }
// 2^n in x's type for n in its normal range.
float amp_pm_pow2(float x, int n) { return intBitsToFloat((n + 127) << 23); }
double amp_pm_pow2(double x, int n) { return packDouble2x32(uvec2(0u, uint(n + 1023) << 20)); }

#ifdef AMP_PM_EXACT_SCALE
// x = m 2^e with 0.5 <= |m| < 1, from the bits (subnormals scaled up first); x itself
// and e = 0 for zeros, infinities and NaN.
float amp_pm_frexp(float x, out int e)
{
    e = 0;
    if (x == 0.0 || isinf(x) || isnan(x)) return x;
    int s = 0;
    if (amp_pm_bexp(x) == 0) {
        x *= 4294967296.0; // 2^32
        s = 32;
    }
    e = amp_pm_bexp(x) - 126 - s;
    return uintBitsToFloat((floatBitsToUint(x) & 0x807fffffu) | (126u << 23));
}
double amp_pm_frexp(double x, out int e)
{
    e = 0;
    if (x == 0.0lf || isinf(x) || isnan(x)) return x;
    int s = 0;
    if (amp_pm_bexp(x) == 0) {
        x *= 18446744073709551616.0lf; // 2^64
        s = 64;
    }
    e = amp_pm_bexp(x) - 1022 - s;
    uvec2 u = unpackDouble2x32(x);
    return packDouble2x32(uvec2(u.x, (u.y & 0x800fffffu) | (1022u << 20)));
}

// x 2^n rounded once: x = m 2^e exactly, then m 2^(e + n) in two products of which only
// the second rounds (into the subnormals: m 2^(k + OFF) is normal, then 2^-OFF); far
// below the subnormals a signed zero, above the range a signed infinity.
#define AMP_PM_LDEXP(T, MINE, OFF, FLOOR)                                                          \
    T amp_pm_ldexp(T x, int n)                                                                     \
    {                                                                                              \
        int e;                                                                                     \
        T m = amp_pm_frexp(x, e);                                                                  \
        if (m == T(0) || isinf(m) || isnan(m)) return x;                                           \
        int k = clamp(n, -100000, 100000) + e;                                                     \
        if (k < FLOOR) return amp_pm_with_sign(T(0), amp_pm_sign(x));                              \
        if (k < MINE) {                                                                            \
            precise T v = m * amp_pm_pow2(m, k + OFF) * amp_pm_pow2(m, -OFF);                      \
            return v;                                                                              \
        }                                                                                          \
        k = min(k, 2 * -MINE);                                                                     \
        int k1 = k / 2;                                                                            \
        precise T v = m * amp_pm_pow2(m, k1) * amp_pm_pow2(m, k - k1);                             \
        return v;                                                                                  \
    }
AMP_PM_LDEXP(float, -125, 64, -190)
AMP_PM_LDEXP(double, -1021, 200, -1220)
#undef AMP_PM_LDEXP
#endif

#ifdef AMP_PM_fabs
float precise_math_fabs(float x) { return amp_pm_with_sign(x, false); }
double precise_math_fabs(double x) { return amp_pm_with_sign(x, false); }
AMP_PM_FORMS1(fabs)
#endif

#ifdef AMP_PM_copysign
// |x| with y's sign bit.
float precise_math_copysign(float x, float y) { return amp_pm_with_sign(x, amp_pm_sign(y)); }
double precise_math_copysign(double x, double y) { return amp_pm_with_sign(x, amp_pm_sign(y)); }
AMP_PM_FORMS2(copysign)
#endif

// fmin, fmax: a NaN argument gives the other; between zeros -0 is the smaller.
#ifdef AMP_PM_fmin
#define AMP_PM_FMIN(T)                                                                             \
    T precise_math_fmin(T x, T y)                                                                  \
    {                                                                                              \
        if (isnan(x)) return y;                                                                    \
        if (isnan(y) || x < y) return x;                                                           \
        return y < x ? y : amp_pm_sign(x) ? x : y;                                                 \
    }
AMP_PM_FMIN(float)
AMP_PM_FMIN(double)
#undef AMP_PM_FMIN
AMP_PM_FORMS2(fmin)
#endif
#ifdef AMP_PM_fmax
#define AMP_PM_FMAX(T)                                                                             \
    T precise_math_fmax(T x, T y)                                                                  \
    {                                                                                              \
        if (isnan(x)) return y;                                                                    \
        if (isnan(y) || x > y) return x;                                                           \
        return y > x ? y : amp_pm_sign(x) ? y : x;                                                 \
    }
AMP_PM_FMAX(float)
AMP_PM_FMAX(double)
#undef AMP_PM_FMAX
AMP_PM_FORMS2(fmax)
#endif

#ifdef AMP_PM_fdim
// x - y where x > y, else +0; NaN in, NaN out.
float precise_math_fdim(float x, float y) { return isnan(x) || isnan(y) ? x + y : x > y ? x - y : 0.0; }
double precise_math_fdim(double x, double y) { return isnan(x) || isnan(y) ? x + y : x > y ? x - y : 0.0lf; }
AMP_PM_FORMS2(fdim)
#endif

// floor, ceil, trunc, round, nearbyint: GLSL's (exact) with C's zero sign kept by the
// bits; round ties away from zero: trunc plus one where the exact remainder is >= 1/2.
#define AMP_PM_INTEGRAL(NAME, EXPR)                                                                \
    float precise_math_##NAME(float x)                                                             \
    {                                                                                              \
        float r = EXPR;                                                                            \
        return r == 0.0 ? amp_pm_with_sign(r, amp_pm_sign(x)) : r;                                 \
    }                                                                                              \
    double precise_math_##NAME(double x)                                                           \
    {                                                                                              \
        double r = EXPR;                                                                           \
        return r == 0.0lf ? amp_pm_with_sign(r, amp_pm_sign(x)) : r;                               \
    }                                                                                              \
    AMP_PM_FORMS1(NAME)
#ifdef AMP_PM_floor
AMP_PM_INTEGRAL(floor, floor(x))
#endif
#ifdef AMP_PM_ceil
AMP_PM_INTEGRAL(ceil, ceil(x))
#endif
#ifdef AMP_PM_trunc
AMP_PM_INTEGRAL(trunc, trunc(x))
#endif
#ifdef AMP_PM_nearbyint
AMP_PM_INTEGRAL(nearbyint, roundEven(x))
#endif
#ifdef AMP_PM_round
float amp_pm_round(float x)
{
    float t = trunc(x);
    precise float d = abs(x - t);
    return d >= 0.5 ? t + (x < 0.0 ? -1.0 : 1.0) : t;
}
double amp_pm_round(double x)
{
    double t = trunc(x);
    precise double d = abs(x - t);
    return d >= 0.5lf ? t + (x < 0.0lf ? -1.0lf : 1.0lf) : t;
}
AMP_PM_INTEGRAL(round, amp_pm_round(x))
#endif
#undef AMP_PM_INTEGRAL

// Classification: bool results (bvecN for vectors), fpclassify's int as glibc's
// FP_* values.
#define AMP_FP_NAN 0
#define AMP_FP_INFINITE 1
#define AMP_FP_ZERO 2
#define AMP_FP_SUBNORMAL 3
#define AMP_FP_NORMAL 4
#define AMP_PM_CLASS(NAME, R, EXPR)                                                                \
    R precise_math_##NAME(float x) { return EXPR; }                                                \
    R precise_math_##NAME(double x) { return EXPR; }                                               \
    R precise_math_##NAME##f(float x) { return EXPR; }
#define AMP_PM_CLASS_VEC(NAME, R2, R3, R4)                                                         \
    R2 precise_math_##NAME(vec2 x) { return R2(precise_math_##NAME(x.x), precise_math_##NAME(x.y)); } \
    R3 precise_math_##NAME(vec3 x) { return R3(precise_math_##NAME(x.x), precise_math_##NAME(x.y), precise_math_##NAME(x.z)); } \
    R4 precise_math_##NAME(vec4 x) { return R4(precise_math_##NAME(x.xy), precise_math_##NAME(x.zw)); } \
    R2 precise_math_##NAME(dvec2 x) { return R2(precise_math_##NAME(x.x), precise_math_##NAME(x.y)); } \
    R3 precise_math_##NAME(dvec3 x) { return R3(precise_math_##NAME(x.x), precise_math_##NAME(x.y), precise_math_##NAME(x.z)); } \
    R4 precise_math_##NAME(dvec4 x) { return R4(precise_math_##NAME(x.xy), precise_math_##NAME(x.zw)); }
#ifdef AMP_PM_isnan
AMP_PM_CLASS(isnan, bool, isnan(x))
AMP_PM_CLASS_VEC(isnan, bvec2, bvec3, bvec4)
#endif
#ifdef AMP_PM_isinf
AMP_PM_CLASS(isinf, bool, isinf(x))
AMP_PM_CLASS_VEC(isinf, bvec2, bvec3, bvec4)
#endif
#ifdef AMP_PM_isfinite
AMP_PM_CLASS(isfinite, bool, !isinf(x) && !isnan(x))
AMP_PM_CLASS_VEC(isfinite, bvec2, bvec3, bvec4)
#endif
#ifdef AMP_PM_isnormal
AMP_PM_CLASS(isnormal, bool, amp_pm_bexp(x) != 0 && !isinf(x) && !isnan(x))
AMP_PM_CLASS_VEC(isnormal, bvec2, bvec3, bvec4)
#endif
#ifdef AMP_PM_signbit
AMP_PM_CLASS(signbit, bool, amp_pm_sign(x))
AMP_PM_CLASS_VEC(signbit, bvec2, bvec3, bvec4)
#endif
#ifdef AMP_PM_fpclassify
AMP_PM_CLASS(fpclassify, int,
             isnan(x) ? AMP_FP_NAN : isinf(x) ? AMP_FP_INFINITE : x == 0.0 ? AMP_FP_ZERO
             : amp_pm_bexp(x) == 0 ? AMP_FP_SUBNORMAL : AMP_FP_NORMAL)
AMP_PM_CLASS_VEC(fpclassify, ivec2, ivec3, ivec4)
#endif
#undef AMP_PM_CLASS
#undef AMP_PM_CLASS_VEC

#ifdef AMP_PM_frexp
// x = m 2^e with 0.5 <= |m| < 1 (C's: x and e = 0 for zeros, infinities, NaN).
float precise_math_frexp(float x, out int e) { return amp_pm_frexp(x, e); }
double precise_math_frexp(double x, out int e) { return amp_pm_frexp(x, e); }
float precise_math_frexpf(float x, out int e) { return amp_pm_frexp(x, e); }
#endif

#ifdef AMP_PM_ldexp
// x 2^n, rounded once.
float precise_math_ldexp(float x, int n) { return amp_pm_ldexp(x, n); }
double precise_math_ldexp(double x, int n) { return amp_pm_ldexp(x, n); }
float precise_math_ldexpf(float x, int n) { return amp_pm_ldexp(x, n); }
#endif
#ifdef AMP_PM_scalbn
float precise_math_scalbn(float x, int n) { return amp_pm_ldexp(x, n); }
double precise_math_scalbn(double x, int n) { return amp_pm_ldexp(x, n); }
float precise_math_scalbnf(float x, int n) { return amp_pm_ldexp(x, n); }
#endif
#ifdef AMP_PM_scalb
// C's older scalb(x, n) with a floating n: NaN unless n is an integer; x * inf and
// x / inf for infinite n (0 * inf and inf / inf: NaN).
#define AMP_PM_SCALB(T)                                                                            \
    T precise_math_scalb(T x, T n)                                                                 \
    {                                                                                              \
        if (isnan(x) || isnan(n)) return x + n;                                                    \
        if (isinf(n)) {                                                                            \
            if ((x == T(0) && n > T(0)) || (isinf(x) && n < T(0))) return amp_pm_nan(x);                 \
            return n > T(0) ? x * n : amp_pm_with_sign(T(0), amp_pm_sign(x));                     \
        }                                                                                          \
        if (n != trunc(n)) return amp_pm_nan(x);                                               \
        return amp_pm_ldexp(x, int(clamp(n, T(-100000), T(100000))));                              \
    }
AMP_PM_SCALB(float)
AMP_PM_SCALB(double)
#undef AMP_PM_SCALB
AMP_PM_FORMS2(scalb)
#endif

#if defined(AMP_PM_logb) || defined(AMP_PM_ilogb)
// The exponent of x (subnormals: their true exponent); e for x = 0, infinities, NaN
// left to the callers.
int amp_pm_ilogb(float x)
{
    int b = amp_pm_bexp(x);
    if (b != 0) return b - 127;
    uint m = floatBitsToUint(x) & 0x7fffffu;
    return -127 - (22 - findMSB(m));
}
int amp_pm_ilogb(double x)
{
    int b = amp_pm_bexp(x);
    if (b != 0) return b - 1023;
    uvec2 u = unpackDouble2x32(x);
    uint hi = u.y & 0xfffffu;
    return hi != 0u ? -1023 - (19 - findMSB(hi)) : -1023 - 20 - (31 - findMSB(u.x));
}
#endif
#ifdef AMP_PM_ilogb
// int; FP_ILOGB0 = FP_ILOGBNAN = INT_MIN (glibc's), INT_MAX for infinities.
int precise_math_ilogb(float x) { return x == 0.0 || isnan(x) ? int(0x80000000u) : isinf(x) ? 0x7fffffff : amp_pm_ilogb(x); }
int precise_math_ilogb(double x)
{
    return x == 0.0lf || isnan(x) ? int(0x80000000u) : isinf(x) ? 0x7fffffff : amp_pm_ilogb(x);
}
int precise_math_ilogbf(float x) { return precise_math_ilogb(x); }
#endif
#ifdef AMP_PM_logb
// The exponent as a float: -inf for zeros, +inf for infinities, NaN for NaN.
float precise_math_logb(float x)
{
    return isnan(x) ? x : isinf(x) ? abs(x) : x == 0.0 ? uintBitsToFloat(0xff800000u) : float(amp_pm_ilogb(x));
}
double precise_math_logb(double x)
{
    return isnan(x) ? x : isinf(x) ? abs(x) : x == 0.0lf ? packDouble2x32(uvec2(0u, 0xfff00000u)) : double(amp_pm_ilogb(x));
}
AMP_PM_FORMS1(logb)
#endif

#ifdef AMP_PM_modf
// The fraction (x's sign; +-0 for infinities) and the whole part through ip.
#define AMP_PM_MODF(T)                                                                             \
    T precise_math_modf(T x, out T ip)                                                             \
    {                                                                                              \
        T t = trunc(x);                                                                            \
        ip = t == T(0) ? amp_pm_with_sign(t, amp_pm_sign(x)) : t;                                  \
        if (isnan(x)) ip = x;                                                                      \
        precise T f = isinf(x) ? T(0) : x - t;                                                     \
        return isnan(x) ? x : amp_pm_with_sign(f, amp_pm_sign(x));                                 \
    }
AMP_PM_MODF(float)
AMP_PM_MODF(double)
#undef AMP_PM_MODF
float precise_math_modff(float x, out float ip) { return precise_math_modf(x, ip); }
#endif

#ifdef AMP_PM_nextafter
// The neighbour of x toward y, by the bits (the smallest subnormal from a zero).
float precise_math_nextafter(float x, float y)
{
    if (isnan(x) || isnan(y)) return x + y;
    if (x == y) return y;
    if (x == 0.0) return amp_pm_with_sign(uintBitsToFloat(1u), y < 0.0);
    uint u = floatBitsToUint(x);
    return uintBitsToFloat((x < y) == (x > 0.0) ? u + 1u : u - 1u);
}
double precise_math_nextafter(double x, double y)
{
    if (isnan(x) || isnan(y)) return x + y;
    if (x == y) return y;
    if (x == 0.0lf) return amp_pm_with_sign(packDouble2x32(uvec2(1u, 0u)), y < 0.0lf);
    uvec2 u = unpackDouble2x32(x);
    bool up = (x < y) == (x > 0.0lf);
    uint lo = up ? u.x + 1u : u.x - 1u;
    uint hi = up ? u.y + (lo == 0u ? 1u : 0u) : u.y - (u.x == 0u ? 1u : 0u);
    return packDouble2x32(uvec2(lo, hi));
}
AMP_PM_FORMS2(nextafter)
#endif

#ifdef AMP_PM_nan
// A quiet NaN with payload (C's nan takes a string, which GLSL has not: its number).
float precise_math_nan(int payload) { return uintBitsToFloat(0x7fc00000u | (uint(payload) & 0x3fffffu)); }
double precise_math_nand(int payload) { return packDouble2x32(uvec2(uint(payload), 0x7ff80000u)); }
float precise_math_nanf(int payload) { return precise_math_nan(payload); }
#endif

#if defined(AMP_PM_fmod) || defined(AMP_PM_EXACT_MOD)
// |x| mod |y| exactly, for finite x and nonzero finite y, and the low bits of the
// quotient: |y| scaled by the power of two that fits, subtracted (exact: Sterbenz),
// once per bit of the quotient (at most the exponent difference: 277 float, 2098
// double).
#define AMP_PM_FMOD_CORE(T)                                                                        \
    T amp_pm_fmod_core(T x, T y, out uint q)                                                       \
    {                                                                                              \
        T r = abs(x), ay = abs(y);                                                                 \
        q = 0u;                                                                                    \
        if (r < ay) return r;                                                                      \
        int ey;                                                                                    \
        amp_pm_frexp(ay, ey);                                                                      \
        for (int guard = 0; r >= ay && guard < 2200; guard++) {                                    \
            int er;                                                                                \
            amp_pm_frexp(r, er);                                                                   \
            int d = er - ey;                                                                       \
            T t = amp_pm_ldexp(ay, d);                                                             \
            if (t > r) t = amp_pm_ldexp(ay, --d);                                                  \
            precise T nr = r - t;                                                                  \
            r = nr;                                                                                \
            if (d < 32) q += 1u << uint(d);                                                        \
        }                                                                                          \
        return r;                                                                                  \
    }
AMP_PM_FMOD_CORE(float)
AMP_PM_FMOD_CORE(double)
#undef AMP_PM_FMOD_CORE
#endif

#ifdef AMP_PM_fmod
// x - n y with n = trunc(x / y), exactly; x's sign; NaN for y = 0 or infinite x.
#define AMP_PM_FMOD(T)                                                                             \
    T precise_math_fmod(T x, T y)                                                                  \
    {                                                                                              \
        if (isnan(x) || isnan(y) || isinf(x) || y == T(0)) return isnan(x) || isnan(y) ? x + y : amp_pm_nan(x);               \
        if (isinf(y)) return x;                                                                    \
        uint q;                                                                                    \
        return amp_pm_with_sign(amp_pm_fmod_core(x, y, q), amp_pm_sign(x));                        \
    }
AMP_PM_FMOD(float)
AMP_PM_FMOD(double)
#undef AMP_PM_FMOD
AMP_PM_FORMS2(fmod)
#endif

#ifdef AMP_PM_EXACT_MOD
// IEEE's remainder x - n y with n = x / y rounded to nearest even, and n's low bits
// and sign (remquo): fmod by 2|y| (fdlibm's way), then at most two exact subtractions
// of |y|.
#define AMP_PM_REMQUO(T, HUGE)                                                                     \
    T amp_pm_remquo(T x, T y, out int quo)                                                         \
    {                                                                                              \
        quo = 0;                                                                                   \
        if (isnan(x) || isnan(y) || isinf(x) || y == T(0)) return isnan(x) || isnan(y) ? x + y : amp_pm_nan(x);               \
        if (isinf(y)) return x;                                                                    \
        T p = abs(y), r = abs(x);                                                                  \
        uint q = 0u;                                                                               \
        if (p < HUGE) {                                                                            \
            r = amp_pm_fmod_core(r, p + p, q);                                                     \
            q <<= 1;                                                                               \
        } else if (r - p >= p) { /* |x| < 4 p here: below 2 p by two exact steps */                \
            precise T r2 = r - (p + p); /* exact: r < 4 p (Sterbenz); p + p <= r fits */            \
            r = r2;                                                                                \
            q = 2u;                                                                                \
        }                                                                                          \
        precise T rr = r;                                                                          \
        if (p < T(4) * amp_pm_pow2(p, -100)) {                                                     \
            if (rr + rr > p) {                                                                     \
                rr -= p;                                                                           \
                q++;                                                                               \
                if (rr + rr >= p) {                                                                \
                    rr -= p;                                                                       \
                    q++;                                                                           \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            T h = T(0.5) * p;                                                                      \
            if (rr > h) {                                                                          \
                rr -= p;                                                                           \
                q++;                                                                               \
                if (rr >= h) {                                                                     \
                    rr -= p;                                                                       \
                    q++;                                                                           \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        int qs = int(q & 7u);                                                                      \
        quo = amp_pm_sign(x) != amp_pm_sign(y) ? -qs : qs;                                         \
        return rr == T(0) ? amp_pm_with_sign(T(0), amp_pm_sign(x)) : amp_pm_sign(x) ? -rr : rr;    \
    }
AMP_PM_REMQUO(float, 8.5e37)
AMP_PM_REMQUO(double, 4.4e307lf)
#undef AMP_PM_REMQUO
#endif
#ifdef AMP_PM_remainder
float precise_math_remainder(float x, float y)
{
    int q;
    return amp_pm_remquo(x, y, q);
}
double precise_math_remainder(double x, double y)
{
    int q;
    return amp_pm_remquo(x, y, q);
}
AMP_PM_FORMS2(remainder)
#endif
#ifdef AMP_PM_remquo
// remainder, and the quotient's low 3 bits with its sign through quo.
float precise_math_remquo(float x, float y, out int quo) { return amp_pm_remquo(x, y, quo); }
double precise_math_remquo(double x, double y, out int quo) { return amp_pm_remquo(x, y, quo); }
float precise_math_remquof(float x, float y, out int quo) { return amp_pm_remquo(x, y, quo); }
#endif

#ifdef AMP_PM_fma
// a b + c rounded once. Where the device fuses fma, fma; else the exact product (two_prod)
// and sum (two_sum), the small parts added with round-to-odd, so that the last rounding
// is the only one that counts (Boldo and Melquiond); a subnormal result is rounded from
// the exact parts in units of the smallest subnormal. Products or sums near the ends of
// the range take a scaled path; infinities and NaN the plain expression.
float amp_pm_add_odd(float a, float b)
{
    float s, e;
    amp_pm_two_sum(a, b, s, e);
    uint u = floatBitsToUint(s);
    return e != 0.0 && (u & 1u) == 0u ? uintBitsToFloat((e > 0.0) == (s > 0.0) ? u + 1u : u - 1u) : s;
}
double amp_pm_add_odd(double a, double b)
{
    double s, e;
    amp_pm_two_sum(a, b, s, e);
    uvec2 u = unpackDouble2x32(s);
    if (e == 0.0lf || (u.x & 1u) != 0u) return s;
    bool up = (e > 0.0lf) == (s > 0.0lf);
    uint lo = up ? u.x + 1u : u.x - 1u;
    uint hi = up ? u.y + (lo == 0u ? 1u : 0u) : u.y - (u.x == 0u ? 1u : 0u);
    return packDouble2x32(uvec2(lo, hi));
}
#define AMP_PM_FMA(T, P, MINE, MINQ)                                                               \
    T amp_pm_fma_emulated(T a, T b, T c)                                                           \
    {                                                                                              \
        precise T plain = a * b + c;                                                               \
        if (isinf(a) || isinf(b) || isinf(c) || isnan(plain) || a == T(0) || b == T(0) || c == T(0)) \
            return plain;                                                                          \
        int ea, eb, ec;                                                                            \
        T ma = amp_pm_frexp(a, ea), mb = amp_pm_frexp(b, eb);                                      \
        amp_pm_frexp(c, ec);                                                                       \
        int k = ea + eb; /* a b = ma mb 2^k, 1/4 <= |ma mb| < 1 */                                 \
        if (ec - k > P + 3) return c; /* a b is below c's last half ulp */                         \
        /* c scaled with the product; far below it, a sticky bit of c's sign */                    \
        T cs = ec - k < -2 * P - 4 ? amp_pm_with_sign(amp_pm_pow2(c, -2 * P - 6), amp_pm_sign(c))  \
                                   : amp_pm_ldexp(c, -k);                                          \
        T ph, pl, sh, sl;                                                                          \
        amp_pm_two_prod(ma, mb, ph, pl);                                                           \
        amp_pm_two_sum(ph, cs, sh, sl);                                                            \
        T t = amp_pm_add_odd(sl, pl);                                                              \
        precise T v = sh + t;                                                                      \
        if (v == T(0)) return plain;                                                               \
        int ev;                                                                                    \
        amp_pm_frexp(v, ev);                                                                       \
        if (ev + k >= MINE) return amp_pm_ldexp(v, k); /* a normal result scales exactly */        \
        /* a subnormal one: sh + sl + pl in units of the smallest subnormal, rounded to the     \
           nearest (even) by the exact fraction of sh's part and the sign of the rest */          \
        T S = amp_pm_ldexp(sh, -(MINQ - k)), n0 = floor(S);                                        \
        T R = amp_pm_ldexp(amp_pm_add_odd(sl, pl), -(MINQ - k)), g, ge;                            \
        precise T f = S - n0;                                                                      \
        amp_pm_two_sum(f, R, g, ge); /* the fraction and the rest, exactly */                      \
        T n1 = floor(g);                                                                           \
        precise T fr = g - n1, n = n0 + n1;                                                        \
        T inc = fr > T(0.5) || (fr == T(0.5) && (ge > T(0) || (ge == T(0) && fract(n * T(0.5)) != T(0)))) \
                    ? T(1) : T(0);                                                                 \
        T r = amp_pm_ldexp(n + inc, MINQ);                                                         \
        return r == T(0) ? amp_pm_with_sign(r, sh < T(0)) : r;                                     \
    }
AMP_PM_FMA(float, 24, -125, -149)
AMP_PM_FMA(double, 53, -1021, -1074)
#undef AMP_PM_FMA
float precise_math_fma(float a, float b, float c)
{
#ifdef AMP_FMA_FUSED
    return fma(a, b, c);
#else
    return amp_pm_fma_emulated(a, b, c);
#endif
}
double precise_math_fma(double a, double b, double c)
{
#ifdef AMP_FMA_FUSED
    return fma(a, b, c);
#else
    return amp_pm_fma_emulated(a, b, c);
#endif
}
float precise_math_fmaf(float a, float b, float c) { return precise_math_fma(a, b, c); }
#endif

#ifdef AMP_PM_rsqrt
// 1 / sqrt(x): the device's inversesqrt (2 ulp), then one Newton step on the exact
// residual 1 - x r^2 (two exact products): about half an ulp. x scaled by an even power
// of two first where x r^2 could leave the range. rsqrt(+-0) = +-inf, rsqrt(+inf) = +0,
// negative: NaN.
#define AMP_PM_RSQRT(T, LO, HI, S, R)                                                              \
    T precise_math_rsqrt(T x)                                                                      \
    {                                                                                              \
        if (x == T(0)) return amp_pm_with_sign(T(1) / T(0), amp_pm_sign(x));                       \
        if (!(x > T(0)) || isinf(x)) return x > T(0) ? T(0) : isnan(x) ? x : amp_pm_nan(x);       \
        T sc = T(1);                                                                               \
        if (x < LO) {                                                                              \
            x *= S * S;                                                                            \
            sc = S;                                                                                \
        } else if (x > HI) {                                                                       \
            x *= R * R;                                                                            \
            sc = R;                                                                                \
        }                                                                                          \
        T r = inversesqrt(x), a, b, p, e;                                                          \
        amp_pm_two_prod(r, r, a, b);                                                               \
        amp_pm_two_prod(x, a, p, e);                                                               \
        precise T d = ((T(1) - p) - e) - x * b;                                                    \
        precise T v = r + r * (T(0.5) * d);                                                        \
        return v * sc;                                                                             \
    }
AMP_PM_RSQRT(float, 1.0e-12, 1.0e12, 4294967296.0, 2.32830644e-10)
AMP_PM_RSQRT(double, 1.0e-290lf, 1.0e290lf, 1.157920892373162e77lf, 8.636168555094445e-78lf)
#undef AMP_PM_RSQRT
AMP_PM_FORMS1(rsqrt)
#endif

#if defined(AMP_PM_cbrt) || defined(AMP_PM_rcbrt)
// The cube root of |x| >= min normal, from the exponent (e = 3q + r) and a seed on the
// mantissa m in [1, 8) refined by Newton in the type, then once more on the exact
// residual y^3 - m (two_prod): within about half an ulp. inv: 1 / cbrt instead.
#define AMP_PM_CBRT_CORE(T, BIAS)                                                                  \
    T amp_pm_cbrt_core(T ax, bool inv)                                                             \
    {                                                                                              \
        int e;                                                                                     \
        T m = amp_pm_frexp(ax, e); /* ax = m 2^e, m in [0.5, 1) */                                 \
        int q = (e + 3000) / 3 - 1000, r3 = e - 3 * q; /* r3 in 0..2 */                            \
        m = m * T(1 << r3); /* in [0.5, 4) */                                                      \
        T y = T(0.7) + T(0.3) * m; /* seed; Newton converges from above */                         \
        for (int i = 0; i < 6; i++) y = y - (y * y * y - m) / (T(3) * y * y);                      \
        T a, b, c, d;                                                                              \
        amp_pm_two_prod(y, y, a, b);                                                               \
        amp_pm_two_prod(a, y, c, d);                                                               \
        precise T res = ((c - m) + d) + b * y; /* y^3 - m */                                       \
        precise T yy = y - res / (T(3) * y * y);                                                   \
        if (!inv) return amp_pm_ldexp(yy, q);                                                      \
        /* 1 / cbrt: z = 1 / yy refined on 1 - z^3 m */                                            \
        T z = T(1) / yy;                                                                           \
        amp_pm_two_prod(z, z, a, b);                                                               \
        amp_pm_two_prod(a, z, c, d);                                                               \
        T p, e2;                                                                                   \
        amp_pm_two_prod(c, m, p, e2);                                                              \
        precise T dd = ((T(1) - p) - e2) - (d * m + b * z * m);                                    \
        precise T zz = z + z * dd / T(3);                                                          \
        return amp_pm_ldexp(zz, -q);                                                               \
    }
AMP_PM_CBRT_CORE(float, 127)
AMP_PM_CBRT_CORE(double, 1023)
#undef AMP_PM_CBRT_CORE
#endif
#ifdef AMP_PM_cbrt
// cbrt: odd (cbrt(-x) = -cbrt(x)), +-0 and +-inf kept.
float precise_math_cbrt(float x)
{
    if (x == 0.0 || isinf(x) || isnan(x)) return x;
    return amp_pm_with_sign(amp_pm_cbrt_core(abs(x), false), amp_pm_sign(x));
}
double precise_math_cbrt(double x)
{
    if (x == 0.0lf || isinf(x) || isnan(x)) return x;
    return amp_pm_with_sign(amp_pm_cbrt_core(abs(x), false), amp_pm_sign(x));
}
AMP_PM_FORMS1(cbrt)
#endif
#ifdef AMP_PM_rcbrt
// 1 / cbrt(x): +-inf for +-0, +-0 for +-inf.
float precise_math_rcbrt(float x)
{
    if (isnan(x)) return x;
    if (x == 0.0 || isinf(x)) return amp_pm_with_sign(x == 0.0 ? uintBitsToFloat(0x7f800000u) : 0.0, amp_pm_sign(x));
    return amp_pm_with_sign(amp_pm_cbrt_core(abs(x), true), amp_pm_sign(x));
}
double precise_math_rcbrt(double x)
{
    if (isnan(x)) return x;
    if (x == 0.0lf || isinf(x))
        return amp_pm_with_sign(x == 0.0lf ? packDouble2x32(uvec2(0u, 0x7ff00000u)) : 0.0lf, amp_pm_sign(x));
    return amp_pm_with_sign(amp_pm_cbrt_core(abs(x), true), amp_pm_sign(x));
}
AMP_PM_FORMS1(rcbrt)
#endif

#ifdef AMP_PM_hypot
// sqrt(x^2 + y^2) without overflow or underflow in between: both scaled by the power of
// two of the larger, the sum of squares kept exact to two words (two_prod, two_sum),
// its correctly rounded root corrected by the residual. hypot(+-inf, NaN) = +inf.
#define AMP_PM_HYPOT(T)                                                                            \
    T precise_math_hypot(T x, T y)                                                                 \
    {                                                                                              \
        if (isinf(x) || isinf(y)) return isinf(x) ? abs(x) : abs(y);                               \
        if (isnan(x) || isnan(y)) return x + y;                                                    \
        T a = max(abs(x), abs(y)), b = min(abs(x), abs(y));                                        \
        if (b == T(0)) return a;                                                                   \
        int e;                                                                                     \
        amp_pm_frexp(a, e);                                                                        \
        a = amp_pm_ldexp(a, -e);                                                                   \
        b = amp_pm_ldexp(b, -e);                                                                   \
        T p, pe, q, qe, s, se;                                                                     \
        amp_pm_two_prod(a, a, p, pe);                                                              \
        amp_pm_two_prod(b, b, q, qe);                                                              \
        amp_pm_two_sum(p, q, s, se);                                                               \
        precise T t = se + pe + qe;                                                                \
        T r = precise_math_sqrt(s), r2, r2e;                                                       \
        amp_pm_two_prod(r, r, r2, r2e);                                                            \
        precise T v = r + (((s - r2) - r2e) + t) / (T(2) * r);                                     \
        return amp_pm_ldexp(v, e);                                                                 \
    }
AMP_PM_HYPOT(float)
AMP_PM_HYPOT(double)
#undef AMP_PM_HYPOT
AMP_PM_FORMS2(hypot)
#endif
#endif
