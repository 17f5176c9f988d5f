// ampvk kernel library, precise_math: sin cos tan sincos sinpi cospi tanpi.
// Part of precise_math.glsl (read there how the parts fit); float and double.
//
// x = q pi/2 + rh + rl, |rh| <= 0.79, rl below rh's last bit. Common path (|x| < 1e5 in float,
// 1e8 in double), Cody-Waite without a loop or a branch: k = round(x 2/pi) by the 1.5 2^(p-1)
// rounding constant (q from its low bits, no conversion), then pi/2 = C1 - D2 - D3 (three words
// of the type, 72 and 159 bits): x - k C1 is exact (one fused fma; unfused: Dekker's product,
// whose two exact differences give the same value), k D2 an exact product, their sum an exact
// two_sum, k D3 and the rounding errors the low word. Beyond, Payne-Hanek: the integer mantissa
// times a window of 2/pi's bits in uint words (umulExtended), exact in integers. Then sin(rh + rl)
// = rh + (rh^3 S(rh^2) + rl (1 - rh^2/2)) and cos(rh + rl) = (1 - rh^2/2, split exactly)
// + rh^4 C(rh^2) - rh rl, S and C minimax (Lawson's weighted fits on |r| <= 0.8 computed for this
// file; relative errors after rounding the coefficients 2^-27.5 / 2^-30 in float, 2^-56.8 / 2^-62
// in double), each a value + its error so that tan = sin/cos is one quotient and its remainder.
// Error: the final rounding, 0.5 ulp, and about 0.1 ulp from the polynomial, its tail and rl.
// sinpi/cospi/tanpi reduce x - 2 round(x / 2) exactly and take pi times it as an exact product.
// Other families: define AMP_PM_TRIG_REDUCE (AMP_PM_TRIG_PI) in their AMP_PM_NEEDS part for
// amp_pm_trig_reduce (amp_pm_trigpi_reduce) and amp_pm_trig_quad.
#ifdef AMP_PM_NEEDS
#if defined(AMP_PM_sin) || defined(AMP_PM_cos) || defined(AMP_PM_tan) || defined(AMP_PM_sincos)
#define AMP_PM_TRIG_REDUCE 1
#endif
#if defined(AMP_PM_sinpi) || defined(AMP_PM_cospi) || defined(AMP_PM_tanpi)
#define AMP_PM_TRIG_PI 1
#endif
#else

#if defined(AMP_PM_TRIG_REDUCE) || defined(AMP_PM_TRIG_PI)
// sin and cos of rh + rl (|rh| <= 0.8, |rl| <= ulp(rh)), each as a value and its error.
// (polynomials through explicit fma: 'precise' below stops contraction of what feeds it)
void amp_pm_trig_kernels(float rh, float rl, out float s, out float se, out float c, out float ce)
{
    float z, zl;
    amp_pm_two_prod(rh, rh, z, zl);
    float sp = fma(fma(-1.95052387e-4, z, 8.33209045e-3), z, -1.66666538e-1);
    float cp = fma(fma(2.44191942e-5, z, -1.38871942e-3), z, 4.16666418e-2);
    float st = fma(rh * z, sp, fma(-0.5 * z, rl, rl));
    precise float sv = rh + st, sve = (rh - sv) + st;
    precise float hz = 0.5 * z, w = 1.0 - hz, ct = ((1.0 - w) - hz) + fma(z * z, cp, -fma(0.5, zl, rh * rl));
    precise float cv = w + ct, cve = (w - cv) + ct;
    s = sv;
    se = sve;
    c = cv;
    ce = cve;
}
void amp_pm_trig_kernels(double rh, double rl, out double s, out double se, out double c, out double ce)
{
    double z, zl;
    amp_pm_two_prod(rh, rh, z, zl);
    double sp = fma(fma(fma(fma(fma(1.589077050020638e-10lf, z, -2.5050655793835645e-08lf), z,
                                2.755731305077788e-06lf), z, -1.984126982800228e-04lf), z,
                        8.333333333320222e-03lf), z, -1.6666666666666624e-01lf);
    double cp = fma(fma(fma(fma(fma(-1.1354295223134965e-11lf, z, 2.087561928627873e-09lf), z,
                                -2.755731358270722e-07lf), z, 2.4801587286801335e-05lf), z,
                        -1.3888888888869803e-03lf), z, 4.1666666666666574e-02lf);
    double st = fma(rh * z, sp, fma(-0.5lf * z, rl, rl));
    precise double sv = rh + st, sve = (rh - sv) + st;
    precise double hz = 0.5lf * z, w = 1.0lf - hz,
                   ct = ((1.0lf - w) - hz) + fma(z * z, cp, -fma(0.5lf, zl, rh * rl));
    precise double cv = w + ct, cve = (w - cv) + ct;
    s = sv;
    se = sve;
    c = cv;
    ce = cve;
}

// sin and cos (values and errors) of q pi/2 + rh + rl: the kernels' results exchanged and negated.
#define AMP_PM_TRIG_QUAD(T)                                                                        \
    void amp_pm_trig_quad(T rh, T rl, int q, out T s, out T se, out T c, out T ce)                 \
    {                                                                                              \
        T sv, sve, cv, cve;                                                                        \
        amp_pm_trig_kernels(rh, rl, sv, sve, cv, cve);                                             \
        bool odd = (q & 1) != 0, sneg = (q & 2) != 0, cneg = ((q + 1) & 2) != 0;                   \
        T a = odd ? cv : sv, ae = odd ? cve : sve, b = odd ? sv : cv, be = odd ? sve : cve;        \
        s = sneg ? -a : a;                                                                         \
        se = sneg ? -ae : ae;                                                                      \
        c = cneg ? -b : b;                                                                         \
        ce = cneg ? -be : be;                                                                      \
    }
AMP_PM_TRIG_QUAD(float)
AMP_PM_TRIG_QUAD(double)
#undef AMP_PM_TRIG_QUAD
#endif

#if defined(AMP_PM_tan) || defined(AMP_PM_tanpi)
// tan from sin and cos as value + error each: the device's quotient (Vulkan: within 2.5 ulp),
// corrected by its remainder s + se - q (c + ce), exact to its own rounding (s - q c by
// two_prod is exact: q c lies within a few ulp of s).
#define AMP_PM_TRIG_TAN(T)                                                                         \
    T amp_pm_trig_tan(T s, T se, T c, T ce)                                                        \
    {                                                                                              \
        T q = s / c, p, e;                                                                         \
        amp_pm_two_prod(q, c, p, e);                                                               \
        precise T rem = ((s - p) - e) + (se - q * ce);                                             \
        precise T v = q + rem * (T(1) / c);                                                        \
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


// x = q pi/2 + rh + rl (the file's top says how); q in 0..3; NaN for infinities and NaN.
int amp_pm_trig_reduce(float x, out float rh, out float rl)
{
    if (abs(x) >= 1.0e5) { // Payne-Hanek (infinities: NaN)
        uint u = floatBitsToUint(x), f[4];
        bool neg;
        int q = amp_pm_trig_ph(0u, (u & 0x7fffffu) | 0x800000u, int((u >> 23) & 0xffu) - 150, 4, f, neg);
        amp_pm_trig_frac(f, neg != (x < 0.0), rh, rl);
        if (isinf(x)) rh = rl = uintBitsToFloat(0x7fc00000u);
        return x < 0.0 ? -q & 3 : q;
    }
    precise float t = fma(x, 0.636619747, 12582912.0), k = t - 12582912.0;
#ifdef AMP_FMA_FUSED
    float a = fma(-k, 1.57079637, x);
#else
    float p1, e1;
    amp_pm_two_prod(k, 1.57079637, p1, e1);
    precise float a = (x - p1) - e1;
#endif
    float p2, e2, s, e;
    amp_pm_two_prod(k, 4.37113883e-8, p2, e2);
    amp_pm_two_sum(a, p2, s, e);
    rh = s;
    rl = e + fma(k, 1.71512451e-15, e2);
    return int(floatBitsToUint(t) & 3u);
}
int amp_pm_trig_reduce(double x, out double rh, out double rl)
{
    if (abs(x) >= 1.0e8lf) { // Payne-Hanek (infinities: NaN)
        uvec2 u = unpackDouble2x32(x);
        uint f[4];
        bool neg;
        int q = amp_pm_trig_ph((u.y & 0xfffffu) | 0x100000u, u.x, int((u.y >> 20) & 0x7ffu) - 1075, 7, f, neg);
        amp_pm_trig_frac(f, neg != (x < 0.0lf), rh, rl);
        if (isinf(x)) rh = rl = packDouble2x32(uvec2(0u, 0x7ff80000u));
        return x < 0.0lf ? -q & 3 : q;
    }
    precise double t = fma(x, 0.6366197723675814lf, 6755399441055744.0lf), k = t - 6755399441055744.0lf;
#ifdef AMP_FMA_FUSED
    double a = fma(-k, 1.5707963267948966lf, x);
#else
    double p1, e1;
    amp_pm_two_prod(k, 1.5707963267948966lf, p1, e1);
    precise double a = (x - p1) - e1;
#endif
    double p2, e2, s, e;
    amp_pm_two_prod(k, -6.123233995736766e-17lf, p2, e2);
    amp_pm_two_sum(a, p2, s, e);
    rh = s;
    rl = e + fma(k, 1.4973849048591698e-33lf, e2);
    return int(unpackDouble2x32(t).x & 3u);
}
#endif

// sin, cos, tan: the reduction and the kernels; sin(+-0) and tan(+-0) keep the zero's sign.
#ifdef AMP_PM_sin
float precise_math_sin(float x)
{
    float rh, rl, s, se, c, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), s, se, c, ce);
    return x == 0.0 ? x : s;
}
double precise_math_sin(double x)
{
    double rh, rl, s, se, c, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), s, se, c, ce);
    return x == 0.0lf ? x : s;
}
AMP_PM_FORMS1(sin)
#endif
#ifdef AMP_PM_cos
float precise_math_cos(float x)
{
    float rh, rl, s, se, c, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), s, se, c, ce);
    return c;
}
double precise_math_cos(double x)
{
    double rh, rl, s, se, c, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), s, se, c, ce);
    return c;
}
AMP_PM_FORMS1(cos)
#endif
#ifdef AMP_PM_tan
float precise_math_tan(float x)
{
    float rh, rl, s, se, c, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), s, se, c, ce);
    return x == 0.0 ? x : amp_pm_trig_tan(s, se, c, ce);
}
double precise_math_tan(double x)
{
    double rh, rl, s, se, c, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), s, se, c, ce);
    return x == 0.0lf ? x : amp_pm_trig_tan(s, se, c, ce);
}
AMP_PM_FORMS1(tan)
#endif
#ifdef AMP_PM_sincos
// sin and cos at once (one reduction, both kernels).
void precise_math_sincos(float x, out float s, out float c)
{
    float rh, rl, sv, se, cv, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), sv, se, cv, ce);
    s = x == 0.0 ? x : sv;
    c = cv;
}
void precise_math_sincos(double x, out double s, out double c)
{
    double rh, rl, sv, se, cv, ce;
    amp_pm_trig_quad(rh, rl, amp_pm_trig_reduce(x, rh, rl), sv, se, cv, ce);
    s = x == 0.0lf ? x : sv;
    c = cv;
}
void precise_math_sincosf(float x, out float s, out float c) { precise_math_sincos(x, s, c); }
#endif

#ifdef AMP_PM_TRIG_PI
// pi x = q pi/2 + rh + rl: r = x - 2 round(x / 2) in [-1, 1] and n = round(2 r) (both exact),
// s = r - n/2 in [-1/4, 1/4] exact, pi s = rh + rl by an exact product (q = n mod 4). Below TINY,
// where the product's error term would fall into the subnormals, pi s is formed scaled by BIG
// (for sinpi and tanpi, which are then pi s itself); *zero (0 or 1/2 + n: fixed by the callers).
#define AMP_PM_TRIGPI_REDUCE(T, PI, PIL, TINY, BIG)                                                \
    int amp_pm_trigpi_reduce(T x, out T rh, out T rl, out bool zero)                               \
    {                                                                                              \
        precise T r = x - T(2) * round(x * T(0.5));                                                \
        T n = round(T(2) * r), p, e;                                                               \
        precise T s = r - T(0.5) * n;                                                              \
        amp_pm_two_prod(s, PI, p, e);                                                              \
        rh = p;                                                                                    \
        rl = fma(s, PIL, e);                                                                       \
        if (abs(s) < TINY) {                                                                       \
            T u = s * BIG, up, ue;                                                                 \
            amp_pm_two_prod(u, PI, up, ue);                                                        \
            precise T v = up + fma(u, PIL, ue);                                                    \
            rh = v * (T(1) / BIG);                                                                 \
            rl = T(0);                                                                             \
        }                                                                                          \
        zero = s == T(0);                                                                          \
        return int(n) & 3;                                                                         \
    }
AMP_PM_TRIGPI_REDUCE(float, 3.14159274, -8.74227766e-8, 1.0e-20, 1.84467441e19)
AMP_PM_TRIGPI_REDUCE(double, 3.141592653589793lf, 1.2246467991473532e-16lf, 1.0e-200lf, 1.157920892373162e77lf)
#undef AMP_PM_TRIGPI_REDUCE
bool amp_pm_trig_neg(float x) { return (floatBitsToUint(x) >> 31) != 0u; }
bool amp_pm_trig_neg(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }
float amp_pm_trig_zero(float like, bool neg) { return uintBitsToFloat(neg ? 0x80000000u : 0u); }
double amp_pm_trig_zero(double like, bool neg) { return packDouble2x32(uvec2(0u, neg ? 0x80000000u : 0u)); }
float amp_pm_trig_inf(float like, bool neg) { return uintBitsToFloat(neg ? 0xff800000u : 0x7f800000u); }
double amp_pm_trig_inf(double like, bool neg) { return packDouble2x32(uvec2(0u, neg ? 0xfff00000u : 0x7ff00000u)); }

// C23's values where pi x is a multiple of pi/2 (n an integer): sinpi(n) = +-0 with n's sign,
// cospi(n + 1/2) = +0, tanpi(n) = +0 for positive even and negative odd n (-0 otherwise),
// tanpi(n + 1/2) = +inf for even n, -inf for odd n; infinities and NaN give NaN (r is NaN).
#define AMP_PM_TRIGPI(T, NAME, FIX)                                                                \
    T precise_math_##NAME(T x)                                                                     \
    {                                                                                              \
        T rh, rl, s, se, c, ce;                                                                    \
        bool zero;                                                                                 \
        int q = amp_pm_trigpi_reduce(x, rh, rl, zero);                                             \
        amp_pm_trig_quad(rh, rl, q, s, se, c, ce);                                                 \
        FIX                                                                                        \
    }
#ifdef AMP_PM_sinpi
#define AMP_PM_TRIGPI_SIN return zero && (q & 1) == 0 ? amp_pm_trig_zero(x, amp_pm_trig_neg(x)) : s;
AMP_PM_TRIGPI(float, sinpi, AMP_PM_TRIGPI_SIN)
AMP_PM_TRIGPI(double, sinpi, AMP_PM_TRIGPI_SIN)
#undef AMP_PM_TRIGPI_SIN
AMP_PM_FORMS1(sinpi)
#endif
#ifdef AMP_PM_cospi
#define AMP_PM_TRIGPI_COS return zero && (q & 1) != 0 ? amp_pm_trig_zero(x, false) : c;
AMP_PM_TRIGPI(float, cospi, AMP_PM_TRIGPI_COS)
AMP_PM_TRIGPI(double, cospi, AMP_PM_TRIGPI_COS)
#undef AMP_PM_TRIGPI_COS
AMP_PM_FORMS1(cospi)
#endif
#ifdef AMP_PM_tanpi
#define AMP_PM_TRIGPI_TAN                                                                          \
    if (!zero) return amp_pm_trig_tan(s, se, c, ce);                                               \
    return (q & 1) == 0 ? amp_pm_trig_zero(x, (q == 2) != amp_pm_trig_neg(x)) : amp_pm_trig_inf(x, q == 3);
AMP_PM_TRIGPI(float, tanpi, AMP_PM_TRIGPI_TAN)
AMP_PM_TRIGPI(double, tanpi, AMP_PM_TRIGPI_TAN)
#undef AMP_PM_TRIGPI_TAN
AMP_PM_FORMS1(tanpi)
#endif
#undef AMP_PM_TRIGPI
#endif

#endif
