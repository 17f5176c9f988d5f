// ampvk kernel library, precise_math: exp exp2 exp10 expm1 log log2 log10 log1p pow.
// Part of precise_math.glsl (read there how the parts fit); float and double.
//
// Internal helpers other families may call (compiled with any of this family's
// functions; define AMP_PM_exp or AMP_PM_log in the NEEDS part to get them):
//   amp_pm_exp_pow2(t, n)         2^n in t's type, for an int n its normal range holds
//   amp_pm_exp_scale(p, k)        p * 2^k for any int k, rounded once (overflow, subnormals)
//   amp_pm_exp_em1(r)             expm1(r) for |r| <= ln2/2 (~0.5 ulp, r + r^2 q(r))
//   amp_pm_exp_core(hi, lo, pair) exp(hi + lo) where the result is normal, lean (pair: any
//                                 small lo; else lo = 0)
//   amp_pm_exp_hilo(hi, lo)       exp(hi + lo), |lo| <= ulp(hi): the reduction carries lo
//   amp_pm_log_hilo(x, hi, lo)    log(x) = hi + lo (|lo| <= ulp(hi)), x positive, finite
#ifdef AMP_PM_NEEDS
#if defined(AMP_PM_pow)
#define AMP_PM_EXP_CORE 1
#define AMP_PM_LOG_CORE 1
#endif
#if defined(AMP_PM_exp) || defined(AMP_PM_exp2) || defined(AMP_PM_exp10) || defined(AMP_PM_expm1)
#define AMP_PM_EXP_CORE 1
#endif
#if defined(AMP_PM_log) || defined(AMP_PM_log2) || defined(AMP_PM_log10) || defined(AMP_PM_log1p)
#define AMP_PM_LOG_CORE 1
#endif
#else

#ifdef AMP_PM_EXP_CORE
// 2^n by its bits (n within the type's normal exponents); the first argument picks
// the type (GLSL overloads only on arguments).
float amp_pm_exp_pow2(float type, int n) { return intBitsToFloat((n + 127) << 23); }
double amp_pm_exp_pow2(double type, int n) { return packDouble2x32(uvec2(0u, uint(n + 1023) << 20)); }

// p * 2^k in two exact steps and one rounding: k split in halves that are each a
// normal power of two, so only the second product rounds (into the subnormals or to
// infinity, as the exact value would).
float amp_pm_exp_scale(float p, int k)
{
    k = clamp(k, -300, 300);
    int k1 = k / 2;
    return p * amp_pm_exp_pow2(p, k1) * amp_pm_exp_pow2(p, k - k1);
}
double amp_pm_exp_scale(double p, int k)
{
    k = clamp(k, -2200, 2200);
    int k1 = k / 2;
    return p * amp_pm_exp_pow2(p, k1) * amp_pm_exp_pow2(p, k - k1);
}

// e^r - 1 - r - r^2/2 for |r| <= ln2/2 is r^3 c(r), c the Taylor series of that over r^3
// (float to r^8: truncation 2e-10 absolute; double to r^13: 4e-18 relative), Horner
// through fma (fused or not, the terms are small); amp_pm_exp_tail3 is r^3 c(r) itself, so
// a sum that holds r^2/2 exactly adds only it (no rounding of r^2 / 2 to cancel).
float amp_pm_exp_c3(float r)
{
    return fma(fma(fma(fma(fma(2.48015873e-5, r, 1.98412698e-4), r, 1.38888889e-3), r, 8.33333333e-3), r,
                   4.16666667e-2), r, 1.66666667e-1);
}
double amp_pm_exp_c3(double r)
{
    const double c[11] = double[](1.6059043836821613e-10lf, 2.08767569878681e-9lf, 2.505210838544172e-8lf,
                                  2.755731922398589e-7lf, 2.7557319223985893e-6lf, 2.48015873015873e-5lf,
                                  1.984126984126984e-4lf, 1.3888888888888889e-3lf, 8.333333333333333e-3lf,
                                  4.1666666666666664e-2lf, 1.6666666666666666e-1lf);
    double q = c[0];
    for (int i = 1; i < 11; i++) q = fma(q, r, c[i]);
    return q;
}
float amp_pm_exp_tail3(float r) { return (r * r) * (r * amp_pm_exp_c3(r)); }
double amp_pm_exp_tail3(double r) { return (r * r) * (r * amp_pm_exp_c3(r)); }
// e^r - 1 - r for |r| <= ln2/2: r^2 (1/2 + r c(r)).
float amp_pm_exp_tail(float r) { return r * r * fma(amp_pm_exp_c3(r), r, 0.5); }
double amp_pm_exp_tail(double r) { return r * r * fma(amp_pm_exp_c3(r), r, 0.5lf); }

// expm1(r) for |r| <= ln2/2: r + the tail (r exact: within about half an ulp).
float amp_pm_exp_em1(float r)
{
    precise float p = r + amp_pm_exp_tail(r);
    return p;
}
double amp_pm_exp_em1(double r)
{
    precise double p = r + amp_pm_exp_tail(r);
    return p;
}

// c + add + e^(r + rl) - 1 for |r| <= ln2/2, a small rl and a small add (|add| below
// ulp(c)), as one rounding of an almost exact sum: c + r + r^2/2 exactly (two_sum,
// two_prod), then their errors, rl (1 + r) and the rest of the series, r^3 c(r), rounded
// as a small term. (It used to take that rest as tail - h, the float series stopping at
// r^7: its truncation, up to 5e-9, and the tail's roundings took float expm1 past 1 ulp
// near x = 0.347, where the result is about 0.4.)
float amp_pm_exp_sum(float c, float r, float rl, float add)
{
    float s, e, h, hl, s2, e2;
    amp_pm_two_sum(c, r, s, e);
    amp_pm_two_prod(r, 0.5 * r, h, hl);
    amp_pm_two_sum(s, h, s2, e2);
    precise float v = s2 + (e + e2 + hl + add + (rl + rl * r + amp_pm_exp_tail3(r)));
    return v;
}
double amp_pm_exp_sum(double c, double r, double rl, double add)
{
    double s, e, h, hl, s2, e2;
    amp_pm_two_sum(c, r, s, e);
    amp_pm_two_prod(r, 0.5lf * r, h, hl);
    amp_pm_two_sum(s, h, s2, e2);
    precise double v = s2 + (e + e2 + hl + add + (rl + rl * r + amp_pm_exp_tail3(r)));
    return v;
}

// (e^r - 1 - r) / r^2 for |r| <= ln2/2, float: a degree-4 weighted minimax fit (2^-28.3 of
// e^r).
float amp_pm_exp_q(float r)
{
    return fma(fma(fma(fma(1.395047711e-03, r, 8.368882654e-03), r, 4.166620601e-02), r, 1.666651889e-01), r,
               5.000000095e-01);
}
// e 2^k for j = k + 1.5 * 2^23 (2^52 double), the shifter's sum, and e 2^k normal: k
// added to e's exponent bits (k is j's low bits).
float amp_pm_exp_shifted(float e, float j)
{
    return intBitsToFloat(floatBitsToInt(e) + ((floatBitsToInt(j) - 0x4B400000) << 23));
}
double amp_pm_exp_shifted(double e, double j)
{
    uvec2 b = unpackDouble2x32(e);
    b.y += uint(int(unpackDouble2x32(j).x) << 20);
    return packDouble2x32(b);
}

// exp(hi + lo) where the result is normal (|hi| < 87 float, < 708 double), the common path,
// lean: k = the integer nearest hi / ln2 by the 1.5 * 2^23 (2^52) shifter (no rounding or
// conversion instructions: k's bits are j's); r = hi - k ln2 with ln2 in a head whose product
// with k is exact and a tail; r + er = that plus lo exactly (pair: two_sum, for any small lo;
// else lo = 0 and Fast2Sum, which is exact unless r is so small that its error does not
// matter); then e^(r + er) = 1 + r + r^2 q(r) + er (1 + r), 1 + r split exactly, so one
// rounding ends it; 2^k goes into e's exponent bits. q: float, amp_pm_exp_q; double, the
// Taylor series to r^11 (amp_pm_exp_tail). About 0.53 ulp on a GPU (fused fma).
float amp_pm_exp_core(float hi, float lo, bool pair)
{
    precise float j = fma(hi, 1.44269504, 12582912.0), k = j - 12582912.0;
    precise float rh = fma(k, -0.693145752, hi), rl = lo - k * 1.42860677e-6;
    float r, er;
    if (pair) {
        amp_pm_two_sum(rh, rl, r, er);
    } else {
        precise float s = rh + rl, es = (rh - s) + rl;
        r = s;
        er = es;
    }
    float q = amp_pm_exp_q(r);
    precise float u = 1.0 + r, e = u + (((1.0 - u) + r) + fma(er, r, fma(r * r, q, er)));
    return amp_pm_exp_shifted(e, j);
}
double amp_pm_exp_core(double hi, double lo, bool pair)
{
    precise double j = fma(hi, 1.4426950408889634lf, 6755399441055744.0lf), k = j - 6755399441055744.0lf;
    precise double rh = fma(k, -6.93147180369123816490e-01lf, hi), rl = lo - k * 1.90821492927058770002e-10lf;
    double r, er;
    if (pair) {
        amp_pm_two_sum(rh, rl, r, er);
    } else {
        precise double s = rh + rl, es = (rh - s) + rl;
        r = s;
        er = es;
    }
    precise double u = 1.0lf + r, t = amp_pm_exp_tail(r) + fma(er, r, er), e = u + (((1.0lf - u) + r) + t);
    return amp_pm_exp_shifted(e, j);
}

#ifdef AMP_FMA_FUSED
// exp(x) for x in [-87.34, 88.73] (results normal, or flushed by amp_pm_exp_ftz), float,
// where fma is fused (GPUs): the core without its exact steps. r = x - k ln2 in two fmas:
// rh (exact: k ln2's head times k is exact and rh lies within the ulps of x), then
// r = rh - k ln2's tail, rounded once; then Horner to the end, e = 1 + r (1 + r q(r)),
// each step one fma. The bound: the last fma (0.5 ulp), r's rounding (up to 0.2 ulp of e
// where |r| > 1/4), 1 + r q's rounding times r (0.09), q's rounding and fit (0.1): under
// 0.9. Every float input through a host replica with fused fma: worst 0.914 ulp (x =
// 59.30); the former 1 + (rh + (rl + r^2 q)), three instructions more, 0.895. Where fma
// may round twice, the core.
float amp_pm_exp_fused(float x)
{
    precise float j = fma(x, 1.44269504, 12582912.0), k = j - 12582912.0;
    precise float rh = fma(k, -0.693145752, x), r = fma(k, -1.42860677e-6, rh);
    precise float e = fma(r, fma(r, amp_pm_exp_q(r), 1.0), 1.0);
    return amp_pm_exp_shifted(e, j);
}

#ifdef AMP_FTZ_EXP2
// exp(x) for every float x without a branch, where float results below the normal range
// flush to zero and exp2 is exact at 0 and saturates to 0 and inf, NaN kept (NVIDIA: the
// runtime defines AMP_FTZ_EXP2). In a loop a branch cost a large share of exp's speed
// (docs/perf.md), so the ends are arithmetic:
// xc = x clamped to [about ln 2^-126, the largest float whose exp is finite], where a result
// is normal or flushes and amp_pm_exp_fused's steps hold (2^k into e's exponent bits: k is
// -126..128, e below 1 where k is 128); then the factor 2^((x - xc) log2 e): 1 inside, inf
// past the top (overflow), below 1 past the bottom (the product falls below 2^-126 and
// flushes), NaN for NaN. Every float input checked on a GPU: within 1 ulp.
float amp_pm_exp_ftz(float x)
{
    float xc = clamp(x, -87.3365479, 88.7228317);
    precise float d = (x - xc) * 1.44269504;
    return amp_pm_exp_fused(xc) * exp2(d);
}
#endif
#endif

// exp(hi + lo): the lean core where the result is normal; elsewhere k = round((hi + lo) /
// ln2), r = hi - k ln2 as r + rl (Cody-Waite, precise: NIR may not reassociate it), then
// 2^k (1 + expm1(r + rl)) scaled in two steps (overflow, subnormals). The caller handles NaN
// and the ends of the range (|hi| beyond ~104 float, ~746 double).
float amp_pm_exp_hilo(float hi, float lo)
{
    if (abs(hi) < 87.0) return amp_pm_exp_core(hi, lo, true);
    float k = round(hi * 1.44269504);
    precise float rh = hi - k * 0.693145752, rl = lo - k * 1.42860677e-6;
    float r, e;
    amp_pm_two_sum(rh, rl, r, e);
    return amp_pm_exp_scale(amp_pm_exp_sum(1.0, r, e, 0.0), int(k));
}
double amp_pm_exp_hilo(double hi, double lo)
{
    if (abs(hi) < 708.0lf) return amp_pm_exp_core(hi, lo, true);
    double k = round(hi * 1.4426950408889634lf);
    precise double rh = hi - k * 6.93147180369123816490e-01lf, rl = lo - k * 1.90821492927058770002e-10lf;
    double r, e;
    amp_pm_two_sum(rh, rl, r, e);
    return amp_pm_exp_scale(amp_pm_exp_sum(1.0lf, r, e, 0.0lf), int(k));
}
#endif

#ifdef AMP_PM_exp
// exp: +inf above ln(max) (~88.72 float, ~709.78 double), +0 below the smallest
// subnormal's log; between, amp_pm_exp_hilo (under 1 ulp: 0.5 from the last
// rounding, the rest from expm1 and the reduction).
float precise_math_exp(float x)
{
#if defined(AMP_FTZ_EXP2)
    return amp_pm_exp_ftz(x);
#elif defined(AMP_FMA_FUSED)
    if (abs(x) <= 86.9) return amp_pm_exp_fused(x); // the one test on the common path
#else
    if (abs(x) < 87.0) return amp_pm_exp_core(x, 0.0, false);
#endif
    if (isnan(x)) return x;
    if (x > 89.0) return uintBitsToFloat(0x7f800000u);
    if (x < -104.0) return 0.0;
    return amp_pm_exp_hilo(x, 0.0);
}
double precise_math_exp(double x)
{
    if (abs(x) < 708.0lf) return amp_pm_exp_core(x, 0.0lf, false);
    if (isnan(x)) return x;
    if (x > 710.0lf) return packDouble2x32(uvec2(0u, 0x7ff00000u));
    if (x < -746.0lf) return 0.0lf;
    return amp_pm_exp_hilo(x, 0.0lf);
}
AMP_PM_FORMS1(exp)
#endif

#ifdef AMP_PM_exp2
// exp2: k = round(x), r = x - k (exact); 2^r = 1 + expm1(r ln2) with r ln2 carried as
// an exact product (hi + lo).
float precise_math_exp2(float x)
{
    if (isnan(x)) return x;
    if (x >= 128.0) return uintBitsToFloat(0x7f800000u);
    if (x < -151.0) return 0.0;
    float k = round(x), r = x - k, t, e;
    amp_pm_two_prod(r, 0.693147182, t, e);
    precise float l = e + r * -1.9046543e-9; // ln2 - 0.693147182
    return amp_pm_exp_scale(amp_pm_exp_sum(1.0, t, l, 0.0), int(k));
}
double precise_math_exp2(double x)
{
    if (isnan(x)) return x;
    if (x >= 1024.0lf) return packDouble2x32(uvec2(0u, 0x7ff00000u));
    if (x < -1076.0lf) return 0.0lf;
    double k = round(x), r = x - k, t, e;
    amp_pm_two_prod(r, 6.9314718055994529e-01lf, t, e);
    precise double l = e + r * 2.3190468138462996e-17lf; // ln2 - its double
    return amp_pm_exp_scale(amp_pm_exp_sum(1.0lf, t, l, 0.0lf), int(k));
}
AMP_PM_FORMS1(exp2)
#endif

#ifdef AMP_PM_exp10
// exp10: x log2(10) as an exact product plus the constant's remainder (hi + lo); k =
// round(hi), r = (hi - k) + lo (hi - k exact), then 2^r as exp2 does.
float precise_math_exp10(float x)
{
    if (isnan(x)) return x;
    if (x > 38.6) return uintBitsToFloat(0x7f800000u);
    if (x < -45.5) return 0.0;
    float h, l, t, e;
    amp_pm_two_prod(x, 3.32192802, h, l);
    precise float k = round(h), d = h - k, r = d + (l + x * 7.05953702e-8); // log2(10) - 3.32192802
    precise float rl = (d - r) + (l + x * 7.05953702e-8);
    amp_pm_two_prod(r, 0.693147182, t, e);
    precise float tl = e + r * -1.9046543e-9 + rl * 0.693147182;
    return amp_pm_exp_scale(amp_pm_exp_sum(1.0, t, tl, 0.0), int(k));
}
double precise_math_exp10(double x)
{
    if (isnan(x)) return x;
    if (x > 308.3lf) return packDouble2x32(uvec2(0u, 0x7ff00000u));
    if (x < -324.0lf) return 0.0lf;
    double h, l, t, e;
    amp_pm_two_prod(x, 3.3219280948873622lf, h, l);
    precise double k = round(h), d = h - k, r = d + (l + x * 1.661617516973592e-16lf); // log2(10) - its double
    precise double rl = (d - r) + (l + x * 1.661617516973592e-16lf);
    amp_pm_two_prod(r, 6.9314718055994529e-01lf, t, e);
    precise double tl = e + r * 2.3190468138462996e-17lf + rl * 6.9314718055994529e-01lf;
    return amp_pm_exp_scale(amp_pm_exp_sum(1.0lf, t, tl, 0.0lf), int(k));
}
AMP_PM_FORMS1(exp10)
#endif

#ifdef AMP_PM_expm1
// expm1: near 0 (|x| <= ln2/2) amp_pm_exp_em1 itself (-0 kept); else 2^k (1 + p) - 1
// with p = expm1(r) after Cody-Waite, summed so that one rounding is left: for k > 0,
// ((1 - 2^-k) + expm1(r)) 2^k through amp_pm_exp_sum; for k < 0, (2^k - 1) + 2^k p
// (both parts exact).
float precise_math_expm1(float x)
{
    if (isnan(x) || x == 0.0) return x;
    if (x > 89.0) return uintBitsToFloat(0x7f800000u);
    if (x < -18.0) return -1.0;
    if (abs(x) <= 0.34657359) return amp_pm_exp_em1(x);
    float k = round(x * 1.44269504);
    precise float rh = x - k * 0.693145752, rl = -k * 1.42860677e-6;
    float r, e;
    amp_pm_two_sum(rh, rl, r, e);
    int n = int(k);
    // 1 - 2^-n: exact up to n = 24, beyond as 1 and a small addend
    float c = n > 24 ? 1.0 : 1.0 - amp_pm_exp_pow2(r, -min(n, 24)), add = n > 24 ? -amp_pm_exp_pow2(r, -min(n, 126)) : 0.0;
    if (n < 0) {
        precise float v = (amp_pm_exp_pow2(r, n) - 1.0) + amp_pm_exp_pow2(r, n) * amp_pm_exp_sum(0.0, r, e, 0.0);
        return v;
    }
    return amp_pm_exp_scale(amp_pm_exp_sum(c, r, e, add), n);
}
double precise_math_expm1(double x)
{
    if (isnan(x) || x == 0.0lf) return x;
    if (x > 710.0lf) return packDouble2x32(uvec2(0u, 0x7ff00000u));
    if (x < -38.0lf) return -1.0lf;
    if (abs(x) <= 0.34657359027997264lf) return amp_pm_exp_em1(x);
    double k = round(x * 1.4426950408889634lf);
    precise double rh = x - k * 6.93147180369123816490e-01lf, rl = -k * 1.90821492927058770002e-10lf;
    double r, e;
    amp_pm_two_sum(rh, rl, r, e);
    int n = int(k);
    double c = n > 53 ? 1.0lf : 1.0lf - amp_pm_exp_pow2(r, -min(n, 53)),
           add = n > 53 ? -amp_pm_exp_pow2(r, -min(n, 1022)) : 0.0lf;
    if (n < 0) {
        precise double v = (amp_pm_exp_pow2(r, n) - 1.0lf) + amp_pm_exp_pow2(r, n) * amp_pm_exp_sum(0.0lf, r, e, 0.0lf);
        return v;
    }
    return amp_pm_exp_scale(amp_pm_exp_sum(c, r, e, add), n);
}
AMP_PM_FORMS1(expm1)
#endif

#ifdef AMP_PM_LOG_CORE
// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1] as hi + lo: f - f^2/2 + s (f^2/2 + R)
// with s = f / (2 + f) and R(s^2) = s^2 (Lg1 + s^2 (Lg2 + ...)), fdlibm's minimax
// polynomial for log((1 + s) / (1 - s)) (error below 2^-58.45 in double; its float
// version below 2^-34); f^2/2 is split exactly, so hi = f - f^2/2 carries the bulk and
// lo the rest. s is an ordinary quotient (Vulkan: 2.5 ulp): it enters only s (f^2/2 + R),
// at most 1/19 of the result, so its error costs under 0.1 ulp there and saves a
// corrected division (log's speed).
void amp_pm_log_1pf(float f, out float hi, out float lo)
{
    float s = f / (2.0 + f), z = s * s, w = z * z;
    float r = z * (0.666666627 + w * 0.284987867) + w * (0.400009722 + w * 0.242790788);
    float p, e;
    amp_pm_two_prod(f, f, p, e);
    precise float h = 0.5 * p, hl = 0.5 * e, fh = f - h, fl = ((f - fh) - h) - hl + s * (h + r);
    hi = fh;
    lo = fl;
}
void amp_pm_log_1pf(double f, out double hi, out double lo)
{
    double s = f / (2.0lf + f), z = s * s, w = z * z;
    double t1 = w * (3.999999999940941908e-01lf + w * (2.222219843214978396e-01lf + w * 1.531383769920937332e-01lf));
    double t2 = z * (6.666666666666735130e-01lf +
                     w * (2.857142874366239149e-01lf + w * (1.818357216161805012e-01lf + w * 1.479819860511658591e-01lf)));
    double p, e;
    amp_pm_two_prod(f, f, p, e);
    precise double h = 0.5lf * p, hl = 0.5lf * e, fh = f - h, fl = ((f - fh) - h) - hl + s * (h + t1 + t2);
    hi = fh;
    lo = fl;
}

// x 2^e = 2^k m for a normal float x, m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), by
// integer steps on the bits: sqrt(1/2)'s bits subtracted first, so the exponent field is k
// (no compare), and k as a float by the 1.5 * 2^23 shifter (no conversion instruction).
float amp_pm_log_normal(float x, int e, out float k)
{
    int t = floatBitsToInt(x) - 0x3f3504f3;
    e += t >> 23;
    k = intBitsToFloat(0x4B400000 + e) - 12582912.0;
    precise float f = intBitsToFloat(floatBitsToInt(x) - (t & int(0xff800000u))) - 1.0;
    return f;
}
// x = 2^k m with m in [sqrt(1/2), sqrt(2)) (subnormals scaled first), f = m - 1 (exact).
float amp_pm_log_split(float x, out float k)
{
    int e = 0;
    if (x < 1.17549435e-38) {
        x *= 16777216.0; // 2^24
        e = -24;
    }
    return amp_pm_log_normal(x, e, k);
}
double amp_pm_log_split(double x, out double k)
{
    int e = 0;
    if (x < 2.2250738585072014e-308lf) {
        x *= 18014398509481984.0lf; // 2^54
        e = -54;
    }
    uvec2 u = unpackDouble2x32(x);
    e += int(u.y >> 20) - 1023;
    double m = packDouble2x32(uvec2(u.x, (u.y & 0x000fffffu) | 0x3ff00000u));
    if (m > 1.4142135623730951lf) {
        m *= 0.5lf;
        e++;
    }
    k = double(e);
    return m - 1.0lf;
}

// log(x) = hi + lo for positive finite x: k ln2 (ln2 in an exact part and the rest) +
// log(1 + f), the big parts added exactly (two_sum).
void amp_pm_log_hilo(float x, out float hi, out float lo)
{
    float k, h, l, s, e;
    float f = amp_pm_log_split(x, k);
    amp_pm_log_1pf(f, h, l);
    amp_pm_two_sum(k * 0.693145752, h, s, e);
    precise float el = e + (l + k * 1.42860677e-6);
    amp_pm_two_sum(s, el, hi, lo); // normalized: |lo| <= ulp(hi) / 2
}
void amp_pm_log_hilo(double x, out double hi, out double lo)
{
    double k, h, l, s, e;
    double f = amp_pm_log_split(x, k);
    amp_pm_log_1pf(f, h, l);
    amp_pm_two_sum(k * 6.93147180369123816490e-01lf, h, s, e);
    precise double el = e + (l + k * 1.90821492927058770002e-10lf);
    amp_pm_two_sum(s, el, hi, lo); // normalized: |lo| <= ulp(hi) / 2
}

// The special values of the logarithms: NaN for x < 0 and NaN, -inf for +-0, +inf
// for +inf; true (and r) when x is one of them.
bool amp_pm_log_special(float x, out float r)
{
    r = x < 0.0 || isnan(x) ? uintBitsToFloat(0x7fc00000u) : x == 0.0 ? uintBitsToFloat(0xff800000u) : x;
    return !(x > 0.0) || isinf(x);
}
bool amp_pm_log_special(double x, out double r)
{
    r = x < 0.0lf || isnan(x) ? packDouble2x32(uvec2(0u, 0x7ff80000u))
        : x == 0.0lf          ? packDouble2x32(uvec2(0u, 0xfff00000u))
                              : x;
    return !(x > 0.0lf) || isinf(x);
}
#endif

#ifdef AMP_PM_log
// log, float: x = 2^k (1 + f) by amp_pm_log_normal (one test on the common path, none
// inside); log(1 + f) = f - f^2/2 + f^3 g(f), g a degree-8 weighted minimax fit (2^-30.3
// of the result); k ln2's head plus f split exactly (Fast2Sum: |k ln2| > |f| unless k = 0),
// so one rounding ends it: about 0.53 ulp, with no division. double: the pair of amp_pm_log_hilo, summed.
float precise_math_log(float x)
{
    int e = 0;
    if (!(x >= 1.17549435e-38 && x <= 3.40282347e38)) { // the one test on the common path
        float r;
        if (amp_pm_log_special(x, r)) return r;
        x *= 16777216.0; // a subnormal, times 2^24
        e = -24;
    }
    float k, f = amp_pm_log_normal(x, e, k);
    float g = fma(fma(fma(fma(fma(fma(fma(fma(6.746608002e-02, f, -1.167565310e-01), f, 1.188817808e-01), f,
                                         -1.240558985e-01), f, 1.421955027e-01), f, -1.666799573e-01), f,
                          2.000211876e-01), f, -2.500000960e-01), f, 3.333331260e-01);
    precise float c = (f * f) * fma(f, g, -0.5), s = fma(k, 0.693145752, f), es = fma(k, 0.693145752, -s) + f;
    precise float v = s + (es + fma(k, 1.42860677e-6, c));
    return v;
}
double precise_math_log(double x)
{
    double r, hi, lo;
    if (amp_pm_log_special(x, r)) return r;
    amp_pm_log_hilo(x, hi, lo);
    precise double v = hi + lo;
    return v;
}
AMP_PM_FORMS1(log)
#endif

#ifdef AMP_PM_log2
// log2: k + log(1 + f) / ln2, the quotient as an exact product of hi with 1/ln2's
// leading part plus the small terms, added to k exactly.
float precise_math_log2(float x)
{
    float r, k, h, l, p, e, s, t;
    if (amp_pm_log_special(x, r)) return r;
    float f = amp_pm_log_split(x, k);
    amp_pm_log_1pf(f, h, l);
    amp_pm_two_prod(h, 1.44269502, p, e);
    precise float el = e + (h * 1.92596299e-8 + l * 1.44269504); // 1/ln2 - 1.44269502
    amp_pm_two_sum(k, p, s, t);
    precise float v = s + (t + el);
    return v;
}
double precise_math_log2(double x)
{
    double r, k, h, l, p, e, s, t;
    if (amp_pm_log_special(x, r)) return r;
    double f = amp_pm_log_split(x, k);
    amp_pm_log_1pf(f, h, l);
    amp_pm_two_prod(h, 1.4426950408889634lf, p, e);
    precise double el = e + (h * 2.0355273740931033e-17lf + l * 1.4426950408889634lf); // 1/ln2 - its double
    amp_pm_two_sum(k, p, s, t);
    precise double v = s + (t + el);
    return v;
}
AMP_PM_FORMS1(log2)
#endif

#ifdef AMP_PM_log10
// log10: k log10(2) + log(1 + f) / ln10, each product exact in its leading part.
float precise_math_log10(float x)
{
    float r, k, h, l, p, e, q, g, s, t;
    if (amp_pm_log_special(x, r)) return r;
    float f = amp_pm_log_split(x, k);
    amp_pm_log_1pf(f, h, l);
    amp_pm_two_prod(k, 0.30103001, q, g);
    precise float gl = g + k * -1.43209889e-8; // log10(2) - 0.30103001
    amp_pm_two_prod(h, 0.434294492, p, e);
    precise float el = e + (h * -1.01030501e-8 + l * 0.434294492); // 1/ln10 - 0.434294492
    amp_pm_two_sum(q, p, s, t);
    precise float v = s + (t + el + gl);
    return v;
}
double precise_math_log10(double x)
{
    double r, k, h, l, p, e, q, g, s, t;
    if (amp_pm_log_special(x, r)) return r;
    double f = amp_pm_log_split(x, k);
    amp_pm_log_1pf(f, h, l);
    amp_pm_two_prod(k, 0.30102999566398120lf, q, g);
    precise double gl = g + k * -2.8037281277851704e-18lf; // log10(2) - its double
    amp_pm_two_prod(h, 0.43429448190325182lf, p, e);
    precise double el = e + (h * 1.0983196502167651e-17lf + l * 0.43429448190325182lf); // 1/ln10 - its double
    amp_pm_two_sum(q, p, s, t);
    precise double v = s + (t + el + gl);
    return v;
}
AMP_PM_FORMS1(log10)
#endif

#ifdef AMP_PM_log1p
// log1p: for x in [sqrt(1/2) - 1, sqrt(2) - 1] log(1 + f) with f = x exactly; else
// log(u) for u = 1 + x rounded, plus the rounding's share c / u (c = x - (u - 1),
// exact).
float precise_math_log1p(float x)
{
    float r, hi, lo;
    if (x == 0.0 || isnan(x)) return x;
    if (x == -1.0) return uintBitsToFloat(0xff800000u);
    if (x < -1.0) return uintBitsToFloat(0x7fc00000u);
    if (isinf(x)) return x;
    precise float u = 1.0 + x, c = u > 2.0 ? 1.0 - (u - x) : x - (u - 1.0);
    if (x > -0.29289322 && x < 0.41421356) amp_pm_log_1pf(x, hi, lo);
    else amp_pm_log_hilo(u, hi, lo);
    precise float v = x > -0.29289322 && x < 0.41421356 ? hi + lo : hi + (lo + amp_pm_div(c, u));
    return v;
}
double precise_math_log1p(double x)
{
    double r, hi, lo;
    if (x == 0.0lf || isnan(x)) return x;
    if (x == -1.0lf) return packDouble2x32(uvec2(0u, 0xfff00000u));
    if (x < -1.0lf) return packDouble2x32(uvec2(0u, 0x7ff80000u));
    if (isinf(x)) return x;
    precise double u = 1.0lf + x, c = u > 2.0lf ? 1.0lf - (u - x) : x - (u - 1.0lf);
    bool near = x > -0.29289321881345248lf && x < 0.41421356237309503lf;
    if (near) amp_pm_log_1pf(x, hi, lo);
    else amp_pm_log_hilo(u, hi, lo);
    precise double v = near ? hi + lo : hi + (lo + amp_pm_div(c, u));
    return v;
}
AMP_PM_FORMS1(log1p)
#endif

#ifdef AMP_PM_pow
// log(1 + f) for pow, to about 2^-65 relative in double (2^-40 in float): 2 atanh(s)
// with s = f / (2 + f) as a double-double (its remainder through exact products),
// 2s + (2/3) s^3 in double-double, the rest of the series (s^5 on, z = s^2 <= 0.0295)
// in the type. C is 2/3 as the type's nearest and the remainder.
#define AMP_PM_POW_LOG1PF(T, C, CR)                                                                \
    void amp_pm_pow_log1pf(T f, out T hi, out T lo)                                                \
    {                                                                                              \
        T u, ul, s, p, e, z, zl, t, tl, c, cl, sh, se;                                             \
        amp_pm_two_sum(T(2), f, u, ul); /* 2 + f = u + ul exactly */                               \
        s = f / u; /* an ordinary quotient: sl below makes s + sl exact to the pair's precision */ \
        amp_pm_two_prod(s, u, p, e);                                                               \
        precise T sl = (((f - p) - e) - s * ul) / u; /* s + sl = f / (2 + f) */                    \
        amp_pm_two_prod(s, s, z, zl);                                                              \
        precise T z2 = zl + T(2) * s * sl; /* s^2 = z + z2 */                                      \
        amp_pm_two_prod(s, z, t, tl);                                                              \
        precise T t2 = tl + s * z2 + sl * z; /* s^3 = t + t2 */                                    \
        amp_pm_two_prod(t, C, c, cl);                                                              \
        precise T c2 = cl + t * CR + t2 * C; /* (2/3) s^3 = c + c2 */                              \
        T r = fma(fma(fma(fma(fma(fma(fma(fma(T(2) / T(23), z, T(2) / T(21)), z, T(2) / T(19)), z, \
                                          T(2) / T(17)), z, T(2) / T(15)), z, T(2) / T(13)), z,     \
                              T(2) / T(11)), z, T(2) / T(9)), z, T(2) / T(7)) * z + T(0.4);        \
        amp_pm_two_sum(T(2) * s, c, sh, se);                                                       \
        precise T rest = se + (T(2) * sl + c2 + t * z * r);                                        \
        amp_pm_two_sum(sh, rest, hi, lo);                                                          \
    }
AMP_PM_POW_LOG1PF(float, 0.666666687, -1.98682149e-8)
AMP_PM_POW_LOG1PF(double, 0.66666666666666663lf, 3.700743415417188e-17lf)
#undef AMP_PM_POW_LOG1PF

// log|x| for pow as a normalized hi + lo: k ln2 (ln2 as the type's nearest and the
// remainder, the product exact) + the series above.
#define AMP_PM_POW_LOG(T, LN2, LN2R)                                                               \
    void amp_pm_pow_log(T x, out T hi, out T lo)                                                   \
    {                                                                                              \
        T k, h, l, a, b, s, e;                                                                     \
        T f = amp_pm_log_split(x, k);                                                              \
        amp_pm_pow_log1pf(f, h, l);                                                                \
        amp_pm_two_prod(k, LN2, a, b);                                                             \
        amp_pm_two_sum(a, h, s, e);                                                                \
        precise T rest = e + (b + l + k * LN2R);                                                   \
        amp_pm_two_sum(s, rest, hi, lo);                                                           \
    }
AMP_PM_POW_LOG(float, 0.693147182, -1.9046543e-9)
AMP_PM_POW_LOG(double, 6.9314718055994529e-01lf, 2.3190468138462996e-17lf)
#undef AMP_PM_POW_LOG

// Whether x's sign bit is set (-0 included); v with its sign flipped when flip (by
// the bits: NIR would fold -1 * 0 to +0).
bool amp_pm_pow_neg(float x) { return (floatBitsToUint(x) >> 31) != 0u; }
bool amp_pm_pow_neg(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }
float amp_pm_pow_flip(float v, bool flip) { return uintBitsToFloat(floatBitsToUint(v) ^ (flip ? 0x80000000u : 0u)); }
double amp_pm_pow_flip(double v, bool flip)
{
    uvec2 u = unpackDouble2x32(v);
    return packDouble2x32(uvec2(u.x, u.y ^ (flip ? 0x80000000u : 0u)));
}

// Whether y is an integer, and an odd one.
bool amp_pm_pow_int(float y) { return y == trunc(y); }
bool amp_pm_pow_int(double y) { return y == trunc(y); }
bool amp_pm_pow_odd(float y) { return abs(y) < 16777216.0 && amp_pm_pow_int(y) && fract(y * 0.5) != 0.0; }
bool amp_pm_pow_odd(double y)
{
    return abs(y) < 9007199254740992.0lf && amp_pm_pow_int(y) && fract(y * 0.5lf) != 0.0lf;
}

// pow: C99's special cases (F.9.4.4), then |x|^y = exp(y log|x|) with y log|x| as an
// exact product of y and log's leading part plus the rest, and the sign of an odd
// integer power of a negative x.
#define AMP_PM_POW(T, INF, NAN_, BIG, SMALL, MAXV)                                                 \
    T precise_math_pow(T x, T y)                                                                   \
    {                                                                                              \
        bool flip = false;                                                                         \
        /* one test on the common path (x positive, not 1, y nonzero, both finite; NaN fails) */   \
        if (!(x > T(0) && x != T(1) && x <= MAXV && abs(y) <= MAXV && y != T(0))) {                \
            if (y == T(0) || x == T(1)) return T(1);                                               \
            if (isnan(x) || isnan(y)) return x + y;                                                \
            flip = amp_pm_pow_neg(x) && amp_pm_pow_odd(y);                                         \
            T a = abs(x);                                                                          \
            if (isinf(y)) return a == T(1) ? T(1) : (a < T(1)) == (y < T(0)) ? INF : T(0);         \
            if (x == T(0)) return amp_pm_pow_flip(y < T(0) ? INF : T(0), flip);                    \
            if (isinf(x)) return amp_pm_pow_flip(y < T(0) ? T(0) : INF, flip);                     \
            if (x < T(0) && !amp_pm_pow_int(y)) return NAN_;                                       \
            if (a == T(1)) return amp_pm_pow_flip(T(1), flip); /* -1 to an integer power */        \
        } /* left: a negative x to an integer power, its sign in flip */                           \
        T ax = abs(x), lh, ll, p, e;                                                               \
        amp_pm_pow_log(ax, lh, ll);                                                                \
        amp_pm_two_prod(y, lh, p, e);                                                              \
        if (!(p <= BIG && p >= SMALL)) return amp_pm_pow_flip(p > T(0) ? INF : T(0), flip);        \
        precise T pl = e + y * ll;                                                                 \
        T th, tl;                                                                                  \
        amp_pm_two_sum(p, pl, th, tl);                                                             \
        return amp_pm_pow_flip(amp_pm_exp_hilo(th, tl), flip);                                     \
    }
AMP_PM_POW(float, uintBitsToFloat(0x7f800000u), uintBitsToFloat(0x7fc00000u), 89.0, -104.0, 3.40282347e38)
AMP_PM_POW(double, packDouble2x32(uvec2(0u, 0x7ff00000u)), packDouble2x32(uvec2(0u, 0x7ff80000u)), 710.0lf, -746.0lf,
           1.7976931348623157e308lf)
#undef AMP_PM_POW
AMP_PM_FORMS2(pow)
#endif

#endif
