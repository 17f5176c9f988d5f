// ampvk kernel library, precise_math: sin cos tan sincos sinpi cospi tanpi.
// Part of precise_math.glsl (read there how the parts fit); float and double.
//
// The argument is reduced to x = q pi/2 + r, |r| <= pi/4, with r as hi + lo: by
// Cody-Waite for moderate |x| (pi/2 in parts whose products with q are exact: 4 parts
// of 12 bits and a rest in float for |x| < 2^12 pi/2, fdlibm's 3 parts of 33 bits and a
// rest in double for |x| < 2^20 pi/2), and beyond by Payne-Hanek: the integer mantissa
// times a window of 2/pi's bits (uint words, umulExtended), exact in integers, its
// fraction turned into a hi + lo pair. sin and cos of r + lo are Taylor polynomials
// (Horner through fma) around the exact leading terms; tan is their quotient with its
// remainder. sinpi/cospi/tanpi reduce x - 2 round(x / 2) exactly and take pi r as an
// exact product.
#ifdef AMP_PM_NEEDS
#if defined(AMP_PM_sincos) || defined(AMP_PM_tan) || defined(AMP_PM_sin) || defined(AMP_PM_cos)
#define AMP_PM_TRIG_REDUCE 1
#endif
#if defined(AMP_PM_sinpi) || defined(AMP_PM_cospi) || defined(AMP_PM_tanpi) || defined(AMP_PM_TRIG_REDUCE)
#define AMP_PM_TRIG_KERNELS 1
#endif
#else

#ifdef AMP_PM_TRIG_KERNELS
// A quiet NaN of x's type.
float amp_pm_trig_nan(float x) { return uintBitsToFloat(0x7fc00000u); }
double amp_pm_trig_nan(double x) { return packDouble2x32(uvec2(0u, 0x7ff80000u)); }

// sin(r + rl) for |r| <= pi/4 (+ a little), as v + its error: r + (r^3 S(r^2) + rl (1 - r^2/2)).
void amp_pm_trig_sin(float r, float rl, out float v, out float ve)
{
    float z = r * r;
    float s = fma(fma(fma(2.75573192e-6, z, -1.98412698e-4), z, 8.33333333e-3), z, -1.66666667e-1);
    precise float t = fma(r * z, s, rl * (1.0 - 0.5 * z)), w = r + t, e = (r - w) + t;
    v = w;
    ve = e;
}
void amp_pm_trig_sin(double r, double rl, out double v, out double ve)
{
    double z = r * r;
    double s = fma(fma(fma(fma(fma(fma(fma(fma(fma(1.9572941063391263e-20lf, z, -8.22063524662433e-18lf), z,
                                               2.8114572543455206e-15lf), z, -7.647163731819816e-13lf), z,
                                       1.6059043836821613e-10lf), z, -2.505210838544172e-8lf), z,
                               2.7557319223985893e-6lf), z, -1.984126984126984e-4lf), z, 8.333333333333333e-3lf),
                   z, -1.6666666666666666e-1lf);
    precise double t = fma(r * z, s, rl * (1.0lf - 0.5lf * z)), w = r + t, e = (r - w) + t;
    v = w;
    ve = e;
}
// cos(r + rl) as v + its error: 1 - r^2/2 exactly split (two_prod), + r^4 C(r^2) - r rl.
void amp_pm_trig_cos(float r, float rl, out float v, out float ve)
{
    float z, zl;
    amp_pm_two_prod(r, r, z, zl);
    float c = fma(fma(fma(2.08767570e-9, z, -2.75573192e-7), z, 2.48015873e-5), z, -1.38888889e-3) * z +
              4.16666667e-2;
    precise float hz = 0.5 * z, w = 1.0 - hz, t = (((1.0 - w) - hz) - 0.5 * zl) + (z * z * c - r * rl), s = w + t,
                  e = (w - s) + t;
    v = s;
    ve = e;
}
void amp_pm_trig_cos(double r, double rl, out double v, out double ve)
{
    double z, zl;
    amp_pm_two_prod(r, r, z, zl);
    double c = fma(fma(fma(fma(fma(fma(fma(fma(-8.896791392450574e-22lf, z, 4.1103176233121648e-19lf), z,
                                           -1.5619206968586225e-16lf), z, 4.779477332387385e-14lf), z,
                                   -1.1470745597729725e-11lf), z, 2.08767569878681e-9lf), z,
                           -2.755731922398589e-7lf), z, 2.48015873015873e-5lf), z, -1.3888888888888889e-3lf) * z +
               4.1666666666666664e-2lf;
    precise double hz = 0.5lf * z, w = 1.0lf - hz,
                   t = (((1.0lf - w) - hz) - 0.5lf * zl) + (z * z * c - r * rl), s = w + t, e = (w - s) + t;
    v = s;
    ve = e;
}

// sin or cos (which: 0 sin, 1 cos) of q pi/2 + r + rl, and both through out parameters.
#define AMP_PM_TRIG_QUAD(T)                                                                        \
    void amp_pm_trig_quad(T r, T rl, int q, out T s, out T se, out T c, out T ce)                  \
    {                                                                                              \
        T sv, sve, cv, cve;                                                                        \
        amp_pm_trig_sin(r, rl, sv, sve);                                                           \
        amp_pm_trig_cos(r, rl, cv, cve);                                                           \
        q &= 3;                                                                                    \
        s = q == 0 ? sv : q == 1 ? cv : q == 2 ? -sv : -cv;                                        \
        se = q == 0 ? sve : q == 1 ? cve : q == 2 ? -sve : -cve;                                   \
        c = q == 0 ? cv : q == 1 ? -sv : q == 2 ? -cv : sv;                                        \
        ce = q == 0 ? cve : q == 1 ? -sve : q == 2 ? -cve : sve;                                   \
    }
AMP_PM_TRIG_QUAD(float)
AMP_PM_TRIG_QUAD(double)
#undef AMP_PM_TRIG_QUAD

// tan from sin and cos as value + error each: their quotient and its remainder.
#define AMP_PM_TRIG_TAN(T)                                                                         \
    T amp_pm_trig_tan(T s, T se, T c, T ce)                                                        \
    {                                                                                              \
        T q = amp_pm_div(s, c), p, e;                                                              \
        amp_pm_two_prod(q, c, p, e);                                                               \
        precise T rem = ((s - p) - e) + se - q * ce;                                               \
        precise T v = q + amp_pm_div(rem, c);                                                      \
        return v;                                                                                  \
    }
AMP_PM_TRIG_TAN(float)
AMP_PM_TRIG_TAN(double)
#undef AMP_PM_TRIG_TAN
#endif

#ifdef AMP_PM_TRIG_REDUCE
// 2/pi in bits, 32 at a time (a switch, not a constant array: a device compiler may copy
// such an array into every invocation's private memory, where sin became 14 times slower).
uint amp_pm_trig_2pi(int i)
{
    switch (i) {
    case 0: return 0xA2F9836Eu;
    case 1: return 0x4E441529u;
    case 2: return 0xFC2757D1u;
    case 3: return 0xF534DDC0u;
    case 4: return 0xDB629599u;
    case 5: return 0x3C439041u;
    case 6: return 0xFE5163ABu;
    case 7: return 0xDEBBC561u;
    case 8: return 0xB7246E3Au;
    case 9: return 0x424DD2E0u;
    case 10: return 0x06492EEAu;
    case 11: return 0x09D1921Cu;
    case 12: return 0xFE1DEB1Cu;
    case 13: return 0xB129A73Eu;
    case 14: return 0xE88235F5u;
    case 15: return 0x2EBB4484u;
    case 16: return 0xE99C7026u;
    case 17: return 0xB45F7E41u;
    case 18: return 0x3991D639u;
    case 19: return 0x835339F4u;
    case 20: return 0x9C845F8Bu;
    case 21: return 0xBDF9283Bu;
    case 22: return 0x1FF897FFu;
    case 23: return 0xDE05980Fu;
    case 24: return 0xEF2F118Bu;
    case 25: return 0x5A0A6D1Fu;
    case 26: return 0x6D367ECFu;
    case 27: return 0x27CB09B7u;
    case 28: return 0x4F463F66u;
    case 29: return 0x9E5FEA2Du;
    case 30: return 0x7527BAC7u;
    case 31: return 0xEBE5F17Bu;
    case 32: return 0x3D0739F7u;
    case 33: return 0x8A5292EAu;
    case 34: return 0x6BFB5FB1u;
    case 35: return 0x1F8D5D08u;
    case 36: return 0x56033046u;
    case 37: return 0xFC7B6BABu;
    case 38: return 0xF0CFBC20u;
    case 39: return 0x9AF4361Du;
    default: return 0u;
    }
}

// Bits [at, at + 32) of the little-endian limbs a.
uint amp_pm_trig_bits(uint a[10], int at)
{
    int i = at >> 5, o = at & 31;
    uint lo = i >= 0 && i < 10 ? a[i] : 0u, hi = i + 1 >= 0 && i + 1 < 10 ? a[i + 1] : 0u;
    return o == 0 ? lo : (lo >> uint(o)) | (hi << uint(32 - o));
}

// Payne-Hanek: |x| = M 2^E (M the integer mantissa in mh:ml) times 2/pi, exactly from
// the words of 2/pi that matter (those above bit 2^2 drop out modulo 4; nwords of them:
// 4 in float, 7 in double, enough for the closest approach of a double to a multiple of pi/2),
// giving the quadrant and the fraction f in [-1/2, 1/2) as 4 words of magnitude and a
// sign (f = sign * 0.f1 f2 f3 f4).
int amp_pm_trig_ph(uint mh, uint ml, int E, int nwords, out uint f[4], out bool neg)
{
    int i0 = max(0, (E - 34 + 3200) / 32 - 100 + 1);
    int s0 = E - 32 * i0 - 32;
    uint a[10] = uint[](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    // a = (mh:ml) * (w[i0] ... w[i0 + nwords - 1]), words least significant first
    for (int j = 0; j < nwords; j++) {
        uint w = amp_pm_trig_2pi(i0 + nwords - 1 - j);
        for (int h = 0; h < 2; h++) {
            uint m = h == 0 ? ml : mh, hi, lo, c;
            umulExtended(m, w, hi, lo);
            int at = j + h;
            a[at] = uaddCarry(a[at], lo, c);
            hi += c; // no overflow: hi <= 2^32 - 2
            for (int k = at + 1; k < 10; k++) {
                a[k] = uaddCarry(a[k], hi, c);
                hi = c;
            }
        }
    }
    int p = 32 * nwords - 32 - s0; // the bit of a that weighs 2^0
    int q = int(amp_pm_trig_bits(a, p) & 3u);
    for (int k = 0; k < 4; k++) f[k] = amp_pm_trig_bits(a, p - 32 * (k + 1));
    neg = (f[0] >> 31) != 0u;
    if (neg) { // f - 1 = -(the two's complement of f)
        q = (q + 1) & 3;
        uint c = 1u;
        for (int k = 3; k >= 0; k--) f[k] = uaddCarry(~f[k], c, c);
    }
    return q;
}

// The fraction's words as a hi + lo pair times pi/2 (r + rl), in the type.
void amp_pm_trig_frac(uint f[4], bool neg, out float r, out float rl)
{
    int a = f[0] != 0u ? 0 : f[1] != 0u ? 1 : f[2] != 0u ? 2 : 3;
    float h = 0.0, l = 0.0;
    for (int k = 0; k < 3 && a + k < 4; k++) {
        uint w = f[a + k];
        float s1 = float(w >> 8u) * intBitsToFloat((103 - 32 * (a + k)) << 23), // 2^(-24 - 32 (a + k))
              s2 = float(w & 0xffu) * intBitsToFloat((95 - 32 * (a + k)) << 23);
        float t, e;
        amp_pm_two_sum(h, s1, t, e);
        h = t;
        l += e;
        amp_pm_two_sum(h, s2, t, e);
        h = t;
        l += e;
    }
    float p, e;
    amp_pm_two_prod(h, 1.57079637, p, e);
    precise float pl = e + (l * 1.57079637 + h * -4.37113900e-8);
    amp_pm_two_sum(p, pl, r, rl);
    if (neg) {
        r = -r;
        rl = -rl;
    }
}
void amp_pm_trig_frac(uint f[4], bool neg, out double r, out double rl)
{
    int a = f[0] != 0u ? 0 : f[1] != 0u ? 1 : 2;
    double h = 0.0lf, l = 0.0lf;
    for (int k = 0; k < 3 && a + k < 4; k++) {
        double s = double(f[a + k]) * packDouble2x32(uvec2(0u, uint(1023 - 32 * (a + k + 1)) << 20)), t, e;
        amp_pm_two_sum(h, s, t, e);
        h = t;
        l += e;
    }
    double p, e;
    amp_pm_two_prod(h, 1.5707963267948966lf, p, e);
    precise double pl = e + (l * 1.5707963267948966lf + h * 6.123233995736766e-17lf);
    amp_pm_two_sum(p, pl, r, rl);
    if (neg) {
        r = -r;
        rl = -rl;
    }
}

// x = q pi/2 + r + rl.
int amp_pm_trig_reduce(float x, out float r, out float rl)
{
    float ax = abs(x);
    if (ax <= 0.785398163) {
        r = x;
        rl = 0.0;
        return 0;
    }
    int q;
    if (ax < 6433.0) {
        float k = round(ax * 0.636619772);
        float s1, e1, s2, e2;
        precise float t0 = ax - k * 1.5703125;
        amp_pm_two_sum(t0, -k * 4.83751297e-4, s1, e1);
        amp_pm_two_sum(s1, -k * 7.54953362e-8, s2, e2);
        precise float rest = e1 + e2 - k * 2.56334407e-12 - k * 8.33374292e-20;
        amp_pm_two_sum(s2, rest, r, rl);
        q = int(k) & 3;
    } else {
        uint u = floatBitsToUint(ax), f[4];
        bool neg;
        q = amp_pm_trig_ph(0u, (u & 0x7fffffu) | 0x800000u, int(u >> 23) - 150, 4, f, neg);
        amp_pm_trig_frac(f, neg, r, rl);
    }
    if (x < 0.0) {
        r = -r;
        rl = -rl;
        q = -q;
    }
    return q & 3;
}
int amp_pm_trig_reduce(double x, out double r, out double rl)
{
    double ax = abs(x);
    if (ax <= 0.7853981633974483lf) {
        r = x;
        rl = 0.0lf;
        return 0;
    }
    int q;
    if (ax < 1647099.0lf) {
        double k = round(ax * 0.6366197723675814lf);
        double s1, e1, s2, e2;
        precise double t0 = ax - k * 1.57079632673412561417e+00lf;
        amp_pm_two_sum(t0, -k * 6.07710050630396597660e-11lf, s1, e1);
        amp_pm_two_sum(s1, -k * 2.02226624871116645580e-21lf, s2, e2);
        precise double rest = e1 + e2 - k * 8.47842766036889956997e-32lf;
        amp_pm_two_sum(s2, rest, r, rl);
        q = int(k) & 3;
    } else {
        uvec2 u = unpackDouble2x32(ax);
        uint f[4];
        bool neg;
        q = amp_pm_trig_ph((u.y & 0xfffffu) | 0x100000u, u.x, int(u.y >> 20) - 1075, 7, f, neg);
        amp_pm_trig_frac(f, neg, r, rl);
    }
    if (x < 0.0lf) {
        r = -r;
        rl = -rl;
        q = -q;
    }
    return q & 3;
}

// sin and cos (value and error) of x, tan on request: NaN for infinities and NaN, +-0 kept.
#define AMP_PM_TRIG(T)                                                                             \
    void amp_pm_trig_all(T x, out T s, out T c, out T t, bool want_tan)                            \
    {                                                                                              \
        if (isinf(x) || isnan(x)) {                                                                \
            s = c = t = amp_pm_trig_nan(x);                                                        \
            return;                                                                                \
        }                                                                                          \
        T r, rl, se, ce;                                                                           \
        int q = amp_pm_trig_reduce(x, r, rl);                                                      \
        amp_pm_trig_quad(r, rl, q, s, se, c, ce);                                                  \
        t = want_tan ? amp_pm_trig_tan(s, se, c, ce) : T(0);                                       \
        if (x == T(0)) s = t = x;                                                                  \
    }
AMP_PM_TRIG(float)
AMP_PM_TRIG(double)
#undef AMP_PM_TRIG
#endif

#if defined(AMP_PM_sin) || defined(AMP_PM_cos) || defined(AMP_PM_tan)
#define AMP_PM_TRIG_ONE(NAME, WHICH, TAN)                                                          \
    float precise_math_##NAME(float x)                                                             \
    {                                                                                              \
        float s, c, t;                                                                             \
        amp_pm_trig_all(x, s, c, t, TAN);                                                          \
        return WHICH;                                                                              \
    }                                                                                              \
    double precise_math_##NAME(double x)                                                           \
    {                                                                                              \
        double s, c, t;                                                                            \
        amp_pm_trig_all(x, s, c, t, TAN);                                                          \
        return WHICH;                                                                              \
    }                                                                                              \
    AMP_PM_FORMS1(NAME)
#ifdef AMP_PM_sin
AMP_PM_TRIG_ONE(sin, s, false)
#endif
#ifdef AMP_PM_cos
AMP_PM_TRIG_ONE(cos, c, false)
#endif
#ifdef AMP_PM_tan
AMP_PM_TRIG_ONE(tan, t, true)
#endif
#undef AMP_PM_TRIG_ONE
#endif

#ifdef AMP_PM_sincos
// sin and cos at once (one reduction).
void precise_math_sincos(float x, out float s, out float c)
{
    float t;
    amp_pm_trig_all(x, s, c, t, false);
}
void precise_math_sincos(double x, out double s, out double c)
{
    double t;
    amp_pm_trig_all(x, s, c, t, false);
}
void precise_math_sincosf(float x, out float s, out float c) { precise_math_sincos(x, s, c); }
#endif

#if defined(AMP_PM_sinpi) || defined(AMP_PM_cospi) || defined(AMP_PM_tanpi)
// sinpi, cospi, tanpi of x: r = x - 2 round(x / 2) in [-1, 1] and n = round(2 r) (both
// exact), s = r - n/2 in [-1/4, 1/4], pi s as an exact product (hi + lo); C23's signs:
// sinpi(n) = +-0 with n's sign, cospi(n + 1/2) = +0, tanpi(n) = +0 for positive even and
// negative odd n (-0 otherwise), tanpi(n + 1/2) = +inf for even n, -inf for odd n.
#define AMP_PM_TRIGPI(T, PI, PIL, INF, TINY, BIG)                                                   \
    void amp_pm_trigpi_all(T x, out T s, out T c, out T t)                                         \
    {                                                                                              \
        if (isinf(x) || isnan(x)) {                                                                \
            s = c = t = amp_pm_trig_nan(x);                                                        \
            return;                                                                                \
        }                                                                                          \
        precise T r = x - T(2) * round(x * T(0.5));                                                \
        T n = round(T(2) * r);                                                                     \
        precise T sr = r - T(0.5) * n;                                                             \
        T p, e, se, ce;                                                                            \
        amp_pm_two_prod(sr, PI, p, e);                                                             \
        precise T pl = e + sr * PIL;                                                               \
        int q = int(n) & 3;                                                                        \
        amp_pm_trig_quad(p, pl, q, s, se, c, ce);                                                  \
        t = amp_pm_trig_tan(s, se, c, ce);                                                         \
        if (n == T(0) && abs(sr) < TINY) { /* tiny x: pi x scaled so that its exact product stays normal */ \
            T u = sr * BIG, up, ue;                                                                \
            amp_pm_two_prod(u, PI, up, ue);                                                        \
            precise T v = up + (ue + u * PIL);                                                     \
            s = t = v * (T(1) / BIG);                                                              \
        }                                                                                          \
        if (sr == T(0)) {                                                                          \
            if ((q & 1) == 0) { /* x an integer */                                                 \
                bool xneg = amp_pm_trig_neg(x), xodd = abs(r) == T(1);                             \
                s = amp_pm_trig_zero(x, xneg);                                                     \
                t = x == T(0) ? s : amp_pm_trig_zero(x, (x > T(0)) == xodd);                       \
            } else { /* x an integer + 1/2 */                                                      \
                c = T(0);                                                                          \
                t = fract((x - T(0.5)) * T(0.5)) == T(0) ? INF : -INF; /* n = x - 1/2 even */      \
            }                                                                                      \
        }                                                                                          \
    }
bool amp_pm_trig_neg(float x) { return (floatBitsToUint(x) >> 31) != 0u; }
bool amp_pm_trig_neg(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }
float amp_pm_trig_zero(float like, bool neg) { return uintBitsToFloat(neg ? 0x80000000u : 0u); }
double amp_pm_trig_zero(double like, bool neg) { return packDouble2x32(uvec2(0u, neg ? 0x80000000u : 0u)); }
AMP_PM_TRIGPI(float, 3.14159274, -8.74227800e-8, uintBitsToFloat(0x7f800000u), 1.0e-20, 1.84467441e19)
AMP_PM_TRIGPI(double, 3.141592653589793lf, 1.2246467991473532e-16lf, packDouble2x32(uvec2(0u, 0x7ff00000u)),
              1.0e-200lf, 1.157920892373162e77lf)
#undef AMP_PM_TRIGPI
#endif
#define AMP_PM_TRIGPI_ONE(NAME, WHICH)                                                             \
    float precise_math_##NAME(float x)                                                             \
    {                                                                                              \
        float s, c, t;                                                                             \
        amp_pm_trigpi_all(x, s, c, t);                                                             \
        return WHICH;                                                                              \
    }                                                                                              \
    double precise_math_##NAME(double x)                                                           \
    {                                                                                              \
        double s, c, t;                                                                            \
        amp_pm_trigpi_all(x, s, c, t);                                                             \
        return WHICH;                                                                              \
    }                                                                                              \
    AMP_PM_FORMS1(NAME)
#ifdef AMP_PM_sinpi
AMP_PM_TRIGPI_ONE(sinpi, s)
#endif
#ifdef AMP_PM_cospi
AMP_PM_TRIGPI_ONE(cospi, c)
#endif
#ifdef AMP_PM_tanpi
AMP_PM_TRIGPI_ONE(tanpi, t)
#endif
#undef AMP_PM_TRIGPI_ONE

#endif
