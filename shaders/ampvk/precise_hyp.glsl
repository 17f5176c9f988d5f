// ampvk kernel library, precise_math: asin acos atan atan2 sinh cosh tanh asinh acosh atanh.
// Part of precise_math.glsl (read there how the parts fit); float and double.
#ifdef AMP_PM_NEEDS
// the exp family's amp_pm_exp_sum and amp_pm_exp_pow2, and amp_pm_log_hilo
#if defined(AMP_PM_sinh) || defined(AMP_PM_cosh) || defined(AMP_PM_tanh)
#define AMP_PM_exp 1
#endif
#if defined(AMP_PM_asinh) || defined(AMP_PM_acosh) || defined(AMP_PM_atanh)
#define AMP_PM_log 1
#endif
#else

#if defined(AMP_PM_asin) || defined(AMP_PM_acos) || defined(AMP_PM_atan) || defined(AMP_PM_atan2) || \
    defined(AMP_PM_sinh) || defined(AMP_PM_tanh) || defined(AMP_PM_asinh) || defined(AMP_PM_atanh)
// r >= 0 (or NaN) with the sign of x.
float amp_pm_hyp_sign(float r, float x)
{
    return uintBitsToFloat(floatBitsToUint(r) | (floatBitsToUint(x) & 0x80000000u));
}
double amp_pm_hyp_sign(double r, double x)
{
    uvec2 u = unpackDouble2x32(r);
    return packDouble2x32(uvec2(u.x, u.y | (unpackDouble2x32(x).y & 0x80000000u)));
}
#endif

#if defined(AMP_PM_asin) || defined(AMP_PM_acos)
// The common part of asin and acos, for a = |x| <= 1: asin(a) = s + w when a < 0.5 (s = a), and
// asin(a) = pi/2 - 2 (s + w) when a >= 0.5 (big), where s + w = asin(sqrt((1 - a) / 2)) (fdlibm's
// reduction; 1 - a and the halving are exact). s is the device's square root of z, its error taken
// back by the correction (z - s^2) / (2 s) with the exact residual (two_prod), so s + w carries no
// square-root error; w = that correction + s z P(z), where asin(s) = s + s z P(z) on z = s^2 in
// [0, 1/4]: P a polynomial fitted here (relative error 2^-24 in float, 2^-54 in double, while
// s z P is at most 9 % of the result).
float amp_pm_hyp_asin_core(float a, bool big, out float s)
{
    float z = big ? 0.5 - 0.5 * a : a * a;
    s = big ? sqrt(z) : a;
    float p, e;
    amp_pm_two_prod(s, s, p, e);
    precise float rz = (z - p) - e; // exact (z - p by Sterbenz); precise: lavapipe simplifies it to 0
    float c = big && z > 0.0 ? rz * (0.5 / s) : 0.0;
    float pz = (((((0.0337994695 * z + 0.0170818064) * z + 0.0311152861) * z + 0.04459811) * z + 0.0750009865) * z +
                0.166666657);
    return c + s * z * pz;
}
double amp_pm_hyp_asin_core(double a, bool big, out double s)
{
    double z = big ? 0.5lf - 0.5lf * a : a * a;
    s = big ? sqrt(z) : a;
    double p, e;
    amp_pm_two_prod(s, s, p, e);
    precise double rz = (z - p) - e; // exact (z - p by Sterbenz); precise: lavapipe simplifies it to 0
    double c = big && z > 0.0lf ? rz * (0.5lf / s) : 0.0lf;
    double pz = (((((((((((((0.02974343490634625lf * z - 0.01945465679510596lf) * z + 0.01970714684140889lf) * z +
                          0.0029812101446452686lf) * z + 0.00933668446015223lf) * z + 0.009618735942922847lf) * z +
                       0.011566846355339494lf) * z + 0.01396374708955816lf) * z + 0.01735281841674612lf) * z +
                    0.022372157374921067lf) * z + 0.030381944477022867lf) * z + 0.04464285714253508lf) * z +
                 0.07500000000000125lf) * z + 0.16666666666666666lf);
    return c + s * z * pz;
}
#endif

#ifdef AMP_PM_asin
// asin(x): from the common part, K + m s + (L + m w) with (K, L) = 0 or pi/2 as hi + lo and m = 1 or
// -2; K + m s is summed exactly (Fast2Sum: K = 0 or |K| > |m s|), so only the last rounding and the
// small terms' errors remain (0.6 ulp measured). asin(+-0) = +-0, |x| > 1: NaN.
float precise_math_asin(float x)
{
    float a = abs(x);
    if (!(a <= 1.0)) return a > 1.0 ? uintBitsToFloat(0x7fc00000u) : x;
    bool big = a >= 0.5;
    float s, w = amp_pm_hyp_asin_core(a, big, s);
    float k = big ? 1.57079637 : 0.0, m = big ? -2.0 : 1.0;
    precise float h = k + m * s;
    precise float e = (k - h) + m * s;
    return amp_pm_hyp_sign(h + (e + ((big ? -4.37113883e-08 : 0.0) + m * w)), x);
}
double precise_math_asin(double x)
{
    double a = abs(x);
    if (!(a <= 1.0lf)) return a > 1.0lf ? packDouble2x32(uvec2(0u, 0x7ff80000u)) : x;
    bool big = a >= 0.5lf;
    double s, w = amp_pm_hyp_asin_core(a, big, s);
    double k = big ? 1.5707963267948966lf : 0.0lf, m = big ? -2.0lf : 1.0lf;
    precise double h = k + m * s;
    precise double e = (k - h) + m * s;
    return amp_pm_hyp_sign(h + (e + ((big ? 6.123233995736766e-17lf : 0.0lf) + m * w)), x);
}
AMP_PM_FORMS1(asin)
#endif

#ifdef AMP_PM_acos
// acos(x) = pi/2 - asin(x) (|x| < 0.5), 2 asin(s) (x >= 0.5), pi - 2 asin(s) (x <= -0.5), s as in
// the common part; summed as asin is. acos(1) = +0, |x| > 1: NaN.
float precise_math_acos(float x)
{
    float a = abs(x);
    if (!(a <= 1.0)) return a > 1.0 ? uintBitsToFloat(0x7fc00000u) : x;
    bool big = a >= 0.5, neg = x < 0.0;
    float s, w = amp_pm_hyp_asin_core(a, big, s);
    float k = big ? (neg ? 3.14159274 : 0.0) : 1.57079637;
    float l = big ? (neg ? -8.74227766e-08 : 0.0) : -4.37113883e-08;
    float m = big ? (neg ? -2.0 : 2.0) : (neg ? 1.0 : -1.0);
    precise float h = k + m * s;
    precise float e = (k - h) + m * s;
    return h + (e + (l + m * w));
}
double precise_math_acos(double x)
{
    double a = abs(x);
    if (!(a <= 1.0lf)) return a > 1.0lf ? packDouble2x32(uvec2(0u, 0x7ff80000u)) : x;
    bool big = a >= 0.5lf, neg = x < 0.0lf;
    double s, w = amp_pm_hyp_asin_core(a, big, s);
    double k = big ? (neg ? 3.141592653589793lf : 0.0lf) : 1.5707963267948966lf;
    double l = big ? (neg ? 1.2246467991473532e-16lf : 0.0lf) : 6.123233995736766e-17lf;
    double m = big ? (neg ? -2.0lf : 2.0lf) : (neg ? 1.0lf : -1.0lf);
    precise double h = k + m * s;
    precise double e = (k - h) + m * s;
    return h + (e + (l + m * w));
}
AMP_PM_FORMS1(acos)
#endif

#if defined(AMP_PM_atan) || defined(AMP_PM_atan2)
// atan(c) as hi + lo for c = 0, 1/2, 1, 3/2, inf, then pi - atan(c) for the same c.
const float amp_pm_hyp_atan_hf[10] =
    float[](0.0, 0.463647604, 0.785398185, 0.982793748, 1.57079637, 3.14159274, 2.67794514, 2.3561945, 2.15879893,
            1.57079637);
const float amp_pm_hyp_atan_lf[10] =
    float[](0.0, 5.01215869e-09, -2.18556941e-08, -2.51314241e-08, -4.37113883e-08, -8.74227766e-08, -9.24349379e-08,
            -5.96244032e-09, -2.68671063e-09, -4.37113883e-08);
const double amp_pm_hyp_atan_hd[10] =
    double[](0.0lf, 0.4636476090008061lf, 0.7853981633974483lf, 0.982793723247329lf, 1.5707963267948966lf,
             3.141592653589793lf, 2.677945044588987lf, 2.356194490192345lf, 2.158798930342464lf, 1.5707963267948966lf);
const double amp_pm_hyp_atan_ld[10] =
    double[](0.0lf, 2.2698777452961687e-17lf, 3.061616997868383e-17lf, 1.3903311031230998e-17lf,
             6.123233995736766e-17lf, 1.2246467991473532e-16lf, 1.5527705369303147e-16lf, 9.184850993605148e-17lf,
             2.1958367134601997e-16lf, 6.123233995736766e-17lf);

// atan(t) + tl for t >= 0 (or NaN) and a tiny tl, or pi - that when neg. fdlibm's reduction: t in
// [0, 7/16): r = t; up to 19/16, 39/16, inf: c = 1/2, 1, 3/2 and r = (t - c) / (1 + t c) (t - c and,
// but for c = 3/2, t c exact; the quotient by amp_pm_div); beyond: r = -1/t, c = inf. Then
// atan(t) = atan(c) + r + r^3 P(r^2), |r| <= 7/16, P fitted here (relative error
// 2^-23.3 in float, 2^-51.4 in double; r^3 P is at most 6 % of the result); atan(c) + r is summed
// exactly, so the error is the last rounding plus about a third of r's (< 0.85 ulp).
float amp_pm_hyp_atan_core(float t, float tl, bool neg)
{
    int i = int(t >= 0.4375) + int(t >= 0.6875) + int(t >= 1.1875) + int(t >= 2.4375);
    float c = 0.5 * float(i);
    float r = i == 0 ? t : amp_pm_div(i == 4 ? -1.0 : t - c, i == 4 ? t : 1.0 + t * c);
    float z = r * r;
    float p = ((((-0.0622103736 * z + 0.106703989) * z - 0.142568186) * z + 0.199993238) * z - 0.333333313) * z * r;
    int j = neg ? i + 5 : i;
    float g = neg ? -1.0 : 1.0;
    precise float h = amp_pm_hyp_atan_hf[j] + g * r;
    precise float e = (amp_pm_hyp_atan_hf[j] - h) + g * r;
    return h + (e + (amp_pm_hyp_atan_lf[j] + g * (p + tl)));
}
double amp_pm_hyp_atan_core(double t, double tl, bool neg)
{
    int i = int(t >= 0.4375lf) + int(t >= 0.6875lf) + int(t >= 1.1875lf) + int(t >= 2.4375lf);
    double c = 0.5lf * double(i);
    double r = i == 0 ? t : amp_pm_div(i == 4 ? -1.0lf : t - c, i == 4 ? t : 1.0lf + t * c);
    double z = r * r;
    double p = ((((((((((-0.017566844258698543lf * z + 0.0378440336711426lf) * z - 0.05034710269385951lf) * z +
                       0.05847898111571237lf) * z - 0.06663262981274475lf) * z + 0.07692089351730287lf) * z -
                    0.0909090029875693lf) * z + 0.11111110903616869lf) * z - 0.1428571428319466lf) * z +
                 0.19999999999988038lf) * z - 0.33333333333333326lf) * z * r;
    int j = neg ? i + 5 : i;
    double g = neg ? -1.0lf : 1.0lf;
    precise double h = amp_pm_hyp_atan_hd[j] + g * r;
    precise double e = (amp_pm_hyp_atan_hd[j] - h) + g * r;
    return h + (e + (amp_pm_hyp_atan_ld[j] + g * (p + tl)));
}
#endif

#ifdef AMP_PM_atan
// atan(x) = sign(x) atan(|x|) by the core (< 0.85 ulp); atan(+-0) = +-0, atan(+-inf) = +-pi/2.
float precise_math_atan(float x) { return amp_pm_hyp_sign(amp_pm_hyp_atan_core(abs(x), 0.0, false), x); }
double precise_math_atan(double x) { return amp_pm_hyp_sign(amp_pm_hyp_atan_core(abs(x), 0.0lf, false), x); }
AMP_PM_FORMS1(atan)
#endif

#ifdef AMP_PM_atan2
// frexp of a positive finite float by its bits: x = m 2^e, m in [1/2, 1), subnormals included (frexp
// does not take them on lavapipe, and a device that flushes float subnormals, as NVIDIA's does, would
// lose them in a scaling product).
float amp_pm_hyp_frexp(float x, out int e)
{
    uint u = floatBitsToUint(x), b = u >> 23, f = u & 0x007fffffu;
    int p = findMSB(f);
    e = b == 0u ? p - 148 : int(b) - 126;
    return uintBitsToFloat((b == 0u ? (f << uint(23 - p)) & 0x007fffffu : f) | 0x3f000000u);
}

// atan2(y, x) = sign(y) atan(|y| / |x|), or pi - that when x < 0 or x = -0. Both scaled by x's binade
// so that the quotient q (amp_pm_div) and its exact remainder give |y| / |x| = q + ql; then the core
// of atan on q, with atan(q + ql) - atan(q) = ql / (1 + q^2). Quotients beyond 2^30 (float) or 2^60
// (double) give pi/2; below 2^-26 or 2^-54 the quotient itself (x > 0) or pi. Zeros and infinities by
// C99's table (F.9.1.4). Binades by the bits (float) or frexp after scaling subnormals by 2^64
// (double).
float precise_math_atan2(float y, float x)
{
    float ax = abs(x), ay = abs(y), res;
    bool neg = (floatBitsToUint(x) & 0x80000000u) != 0u;
    if (!(ax > 0.0 && ay > 0.0 && !isinf(ax) && !isinf(ay))) {
        if (isnan(x) || isnan(y)) return x + y;
        int j = isinf(ay) ? (isinf(ax) ? 2 : 4) : ay == 0.0 || isinf(ax) ? 0 : 4;
        res = amp_pm_hyp_atan_hf[neg ? j + 5 : j];
    } else {
        int ex, ey;
        float mx = amp_pm_hyp_frexp(ax, ex), my = amp_pm_hyp_frexp(ay, ey);
        int d = ey - ex;
        if (d > 30) {
            res = 1.57079637;
        } else if (d < -26) {
            res = neg ? 3.14159274 : ldexp(amp_pm_div(my, mx), d);
        } else {
            float ys = ldexp(my, d), q = amp_pm_div(ys, mx), p, e;
            amp_pm_two_prod(q, mx, p, e);
            precise float rem = (ys - p) - e;
            res = amp_pm_hyp_atan_core(q, rem / (mx + q * (q * mx)), neg);
        }
    }
    return amp_pm_hyp_sign(res, y);
}
double precise_math_atan2(double y, double x)
{
    double ax = abs(x), ay = abs(y), res;
    bool neg = (unpackDouble2x32(x).y & 0x80000000u) != 0u;
    if (!(ax > 0.0lf && ay > 0.0lf && !isinf(ax) && !isinf(ay))) {
        if (isnan(x) || isnan(y)) return x + y;
        int j = isinf(ay) ? (isinf(ax) ? 2 : 4) : ay == 0.0lf || isinf(ax) ? 0 : 4;
        res = amp_pm_hyp_atan_hd[neg ? j + 5 : j];
    } else {
        int ex, ey;
        double mx = frexp(ax < 2.2250738585072014e-308lf ? ax * 1.8446744073709552e19lf : ax, ex);
        double my = frexp(ay < 2.2250738585072014e-308lf ? ay * 1.8446744073709552e19lf : ay, ey);
        int d = (ey - (ay < 2.2250738585072014e-308lf ? 64 : 0)) - (ex - (ax < 2.2250738585072014e-308lf ? 64 : 0));
        if (d > 60) {
            res = 1.5707963267948966lf;
        } else if (d < -54) {
            res = neg ? 3.141592653589793lf : ldexp(amp_pm_div(my, mx), d);
        } else {
            double ys = ldexp(my, d), q = amp_pm_div(ys, mx), p, e;
            amp_pm_two_prod(q, mx, p, e);
            precise double rem = (ys - p) - e;
            res = amp_pm_hyp_atan_core(q, rem / (mx + q * (q * mx)), neg);
        }
    }
    return amp_pm_hyp_sign(res, y);
}
AMP_PM_FORMS2(atan2)
#endif

#if defined(AMP_PM_sinh) || defined(AMP_PM_cosh) || defined(AMP_PM_tanh)
// e^x 2^s as eh + el for 0 <= x <= 710 (float: 90) and e^x 2^s normal, to about 2^-57 (float: 2^-28)
// relative: x = k ln2 + r + rl (Cody-Waite, as the exp family reduces), then e^(r + rl) from the exp
// family's almost exact sum amp_pm_exp_sum, twice: eh its rounding, el that of e^(r + rl) - eh (1 - eh
// is exact); both scaled by 2^(k + s).
void amp_pm_hyp_exp(float x, int s, out float eh, out float el)
{
    float k = round(x * 1.44269504);
    precise float rh = x - k * 0.693145752, rl = -k * 1.42860677e-6;
    float r, e;
    amp_pm_two_sum(rh, rl, r, e);
    float h = amp_pm_exp_sum(1.0, r, e, 0.0), p = amp_pm_exp_pow2(x, int(k) + s);
    eh = h * p;
    el = amp_pm_exp_sum(1.0 - h, r, e, 0.0) * p;
}
void amp_pm_hyp_exp(double x, int s, out double eh, out double el)
{
    double k = round(x * 1.4426950408889634lf);
    precise double rh = x - k * 6.93147180369123816490e-01lf, rl = -k * 1.90821492927058770002e-10lf;
    double r, e;
    amp_pm_two_sum(rh, rl, r, e);
    double h = amp_pm_exp_sum(1.0lf, r, e, 0.0lf), p = amp_pm_exp_pow2(x, int(k) + s);
    eh = h * p;
    el = amp_pm_exp_sum(1.0lf - h, r, e, 0.0lf) * p;
}
#endif

#if defined(AMP_PM_sinh) || defined(AMP_PM_cosh)
// 2 (eh + el +- 1 / (16 (eh + el))) for a double-word e^a / 4 = eh + el (sg = 1 or -1): the quotient q
// by amp_pm_div, less q el / eh = 16 q^2 el, added to eh by Fast2Sum (eh >= q), one rounding (q's own
// is at most 1/8 ulp of the result).
float amp_pm_hyp_sum_rcp16(float eh, float el, float sg)
{
    float q = sg * amp_pm_div(0.0625, eh);
    precise float h = eh + q;
    precise float e = (eh - h) + q;
    return 2.0 * (h + (e + (el - 16.0 * q * q * el * sg)));
}
double amp_pm_hyp_sum_rcp16(double eh, double el, double sg)
{
    double q = sg * amp_pm_div(0.0625lf, eh);
    precise double h = eh + q;
    precise double e = (eh - h) + q;
    return 2.0lf * (h + (e + (el - 16.0lf * q * q * el * sg)));
}
#endif

#ifdef AMP_PM_sinh
// sinh(x): |x| < 3/4: x + x^3 P(x^2), P fitted here (relative error 2^-25 in float, 2^-53.4 in double;
// x^3 P is at most 8.5 % of the result). Beyond, with E = e^|x| / 2 as a double-word (so that sinh
// overflows where it should, past where e^|x| does; beyond the last finite x, +-inf at once):
// E - 1 / (4 E) = 2 (e - 1 / (16 e)), e = E / 2 (the quotient at most 29 % of the result), one
// rounding. sinh(+-0) = +-0, tiny x: x.
float precise_math_sinh(float x)
{
    float a = abs(x);
    if (a < 0.75) {
        float z = a * a;
        return x + x * z * (((2.78401217e-06 * z + 0.000198402762) * z + 0.0083333347) * z + 0.166666672);
    }
    if (a > 89.4159851) return amp_pm_hyp_sign(uintBitsToFloat(0x7f800000u), x);
    float eh, el;
    amp_pm_hyp_exp(a, -2, eh, el);
    return amp_pm_hyp_sign(amp_pm_hyp_sum_rcp16(eh, el, -1.0), x);
}
double precise_math_sinh(double x)
{
    double a = abs(x);
    if (a < 0.75lf) {
        double z = a * a;
        return x + x * z * (((((1.6188450310155972e-10lf * z + 2.505128954660792e-08lf) * z +
                               2.7557321609705718e-06lf) * z + 0.00019841269838130344lf) * z +
                             0.008333333333334842lf) * z + 0.16666666666666666lf);
    }
    if (a > 710.4758600739439lf) return amp_pm_hyp_sign(packDouble2x32(uvec2(0u, 0x7ff00000u)), x);
    double eh, el;
    amp_pm_hyp_exp(a, -2, eh, el);
    return amp_pm_hyp_sign(amp_pm_hyp_sum_rcp16(eh, el, -1.0lf), x);
}
AMP_PM_FORMS1(sinh)
#endif

#ifdef AMP_PM_cosh
// cosh(x) = E + 1 / (4 E) = 2 (e + 1 / (16 e)), e = e^|x| / 4 as a double-word: no cancellation, one
// rounding (the doubling is exact); overflows where cosh does (beyond the last finite x, +inf at
// once). cosh(+-0) = 1, cosh(+-inf) = +inf.
float precise_math_cosh(float x)
{
    if (abs(x) > 89.4159851) return uintBitsToFloat(0x7f800000u);
    float eh, el;
    amp_pm_hyp_exp(abs(x), -2, eh, el);
    return amp_pm_hyp_sum_rcp16(eh, el, 1.0);
}
double precise_math_cosh(double x)
{
    if (abs(x) > 710.4758600739439lf) return packDouble2x32(uvec2(0u, 0x7ff00000u));
    double eh, el;
    amp_pm_hyp_exp(abs(x), -2, eh, el);
    return amp_pm_hyp_sum_rcp16(eh, el, 1.0lf);
}
AMP_PM_FORMS1(cosh)
#endif

#ifdef AMP_PM_tanh
// tanh(x): |x| < 1/2: x + x^3 P(x^2), P fitted here (relative error 2^-24 in float, 2^-54 in double;
// x^3 P is at most 8 % of the result). Up to 9.1 (float) or 22 (double): 1 - 2 / (E + 1), E = e^(2|x|)
// as a double-word, the quotient q by amp_pm_div and its exact remainder, 1 - q by Fast2Sum, so one
// rounding. Beyond: +-1 (the rounding of 1 - 2 e^(-2|x|)). Tiny x: x.
float precise_math_tanh(float x)
{
    float a = abs(x);
    if (a < 0.5) {
        float z = a * a;
        float p = (((-0.00694304239 * z + 0.021470733) * z - 0.0539334789) * z + 0.133332253) * z - 0.333333313;
        return amp_pm_hyp_sign(a + a * z * p, x);
    }
    if (a > 9.1) return amp_pm_hyp_sign(1.0, x);
    float eh, el, p, pe;
    amp_pm_hyp_exp(2.0 * a, 0, eh, el);
    precise float dh = eh + 1.0;
    precise float dl = ((eh - dh) + 1.0) + el;
    float q = amp_pm_div(2.0, dh);
    amp_pm_two_prod(q, dh, p, pe);
    precise float ql = (((2.0 - p) - pe) - q * dl) * (1.0 / dh);
    precise float h = 1.0 - q;
    precise float hl = ((1.0 - h) - q) - ql;
    return amp_pm_hyp_sign(h + hl, x);
}
double precise_math_tanh(double x)
{
    double a = abs(x);
    if (a < 0.5lf) {
        double z = a * a;
        double p = (((((((((-2.2953637897349955e-05lf * z + 8.819622016652732e-05lf) * z -
                           0.00023635386486038038lf) * z + 0.0005894668072899408lf) * z -
                         0.0014557608255079371lf) * z + 0.003592121798233321lf) * z - 0.008863235198745297lf) * z +
                      0.021869488525870923lf) * z - 0.05396825396808982lf) * z + 0.1333333333333323lf) * z -
                   0.3333333333333333lf;
        return amp_pm_hyp_sign(a + a * z * p, x);
    }
    if (a > 22.0lf) return amp_pm_hyp_sign(1.0lf, x);
    double eh, el, p, pe;
    amp_pm_hyp_exp(2.0lf * a, 0, eh, el);
    precise double dh = eh + 1.0lf;
    precise double dl = ((eh - dh) + 1.0lf) + el;
    double q = amp_pm_div(2.0lf, dh);
    amp_pm_two_prod(q, dh, p, pe);
    precise double ql = (((2.0lf - p) - pe) - q * dl) * (1.0lf / dh);
    precise double h = 1.0lf - q;
    precise double hl = ((1.0lf - h) - q) - ql;
    return amp_pm_hyp_sign(h + hl, x);
}
AMP_PM_FORMS1(tanh)
#endif

#if defined(AMP_PM_asinh) || defined(AMP_PM_acosh) || defined(AMP_PM_atanh)
// log(h + l) for a double-word h + l >= 1 (|l| <= ulp(h)): log(h) as the exp family's hi + lo, + l / h.
float amp_pm_hyp_log2w(float h, float l)
{
    float lh, ll;
    amp_pm_log_hilo(h, lh, ll);
    return lh + (ll + l / h);
}
double amp_pm_hyp_log2w(double h, double l)
{
    double lh, ll;
    amp_pm_log_hilo(h, lh, ll);
    return lh + (ll + l / h);
}
#endif

#if defined(AMP_PM_asinh) || defined(AMP_PM_acosh)
// x + sqrt(s + sl) as h + l (x >= the root >= 0): the device's root r, corrected by the exact residual
// (s - r^2 + sl) / (2 r), then x + r by Two-Sum.
void amp_pm_hyp_add_sqrt(float x, float s, float sl, out float h, out float l)
{
    float r = sqrt(s), p, e;
    amp_pm_two_prod(r, r, p, e);
    precise float rz = ((s - p) - e) + sl;
    float hl;
    amp_pm_two_sum(x, r, h, hl);
    l = hl + (s > 0.0 ? rz * (0.5 / r) : 0.0);
}
void amp_pm_hyp_add_sqrt(double x, double s, double sl, out double h, out double l)
{
    double r = sqrt(s), p, e;
    amp_pm_two_prod(r, r, p, e);
    precise double rz = ((s - p) - e) + sl;
    double hl;
    amp_pm_two_sum(x, r, h, hl);
    l = hl + (s > 0.0lf ? rz * (0.5lf / r) : 0.0lf);
}
// log(x) + ln2 for x > 2^12 (float) or 2^28 (double), finite: Fast2Sum of the high parts.
float amp_pm_hyp_log_2x(float x)
{
    float lh, ll;
    amp_pm_log_hilo(x, lh, ll);
    precise float h = lh + 0.693147182;
    precise float e = (lh - h) + 0.693147182;
    precise float l = ll - 1.90465421e-09;
    return h + (e + l);
}
double amp_pm_hyp_log_2x(double x)
{
    double lh, ll;
    amp_pm_log_hilo(x, lh, ll);
    precise double h = lh + 0.6931471805599453lf;
    precise double e = (lh - h) + 0.6931471805599453lf;
    precise double l = ll + 2.3190468138462996e-17lf;
    return h + (e + l);
}
#endif

#ifdef AMP_PM_asinh
// asinh(x) = sign(x) log(a + sqrt(a^2 + 1)), a = |x|: a^2 + 1 as a double-word (two_prod, Two-Sum), its
// corrected root added to a as a double-word, whose log is taken in double-word. Beyond 2^12 (float)
// or 2^28 (double), log(a) + ln2 (the rest, 1 / (4 a^2), is below the rounding); below 2^-12 or 2^-28,
// x (x^3 / 6 is). asinh(+-0) = +-0, asinh(+-inf) = +-inf.
float precise_math_asinh(float x)
{
    float a = abs(x);
    if (a < 0.000244140625 || isinf(a)) return x;
    if (a > 4096.0) return amp_pm_hyp_sign(amp_pm_hyp_log_2x(a), x);
    float p, pe, s, sl, h, l;
    amp_pm_two_prod(a, a, p, pe);
    amp_pm_two_sum(p, 1.0, s, sl);
    amp_pm_hyp_add_sqrt(a, s, sl + pe, h, l);
    return amp_pm_hyp_sign(amp_pm_hyp_log2w(h, l), x);
}
double precise_math_asinh(double x)
{
    double a = abs(x);
    if (a < 3.725290298461914e-09lf || isinf(a)) return x;
    if (a > 268435456.0lf) return amp_pm_hyp_sign(amp_pm_hyp_log_2x(a), x);
    double p, pe, s, sl, h, l;
    amp_pm_two_prod(a, a, p, pe);
    amp_pm_two_sum(p, 1.0lf, s, sl);
    amp_pm_hyp_add_sqrt(a, s, sl + pe, h, l);
    return amp_pm_hyp_sign(amp_pm_hyp_log2w(h, l), x);
}
AMP_PM_FORMS1(asinh)
#endif

#ifdef AMP_PM_acosh
// acosh(x) = log(x + sqrt(x^2 - 1)) as asinh does it (x^2 - 1 by two_prod and Fast2Sum: exact to the
// double-word, so no cancellation near 1); log(x) + ln2 beyond 2^12 or 2^28. acosh(1) = +0, x < 1: NaN.
float precise_math_acosh(float x)
{
    if (!(x >= 1.0)) return uintBitsToFloat(0x7fc00000u);
    if (isinf(x)) return x;
    if (x > 4096.0) return amp_pm_hyp_log_2x(x);
    float p, pe, h, l;
    amp_pm_two_prod(x, x, p, pe);
    precise float s = p - 1.0;
    precise float sl = ((p - s) - 1.0) + pe;
    amp_pm_hyp_add_sqrt(x, s, sl, h, l);
    return amp_pm_hyp_log2w(h, l);
}
double precise_math_acosh(double x)
{
    if (!(x >= 1.0lf)) return packDouble2x32(uvec2(0u, 0x7ff80000u));
    if (isinf(x)) return x;
    if (x > 268435456.0lf) return amp_pm_hyp_log_2x(x);
    double p, pe, h, l;
    amp_pm_two_prod(x, x, p, pe);
    precise double s = p - 1.0lf;
    precise double sl = ((p - s) - 1.0lf) + pe;
    amp_pm_hyp_add_sqrt(x, s, sl, h, l);
    return amp_pm_hyp_log2w(h, l);
}
AMP_PM_FORMS1(acosh)
#endif

#ifdef AMP_PM_atanh
// atanh(x) = sign(x) log((1 + a) / (1 - a)) / 2, a = |x|: 1 + a and 1 - a as double-words (Fast2Sum),
// their quotient by amp_pm_div and its exact remainder as a double-word, whose log is taken in
// double-word. Below 2^-12 (float) or 2^-28 (double): x. atanh(+-1) = +-inf, |x| > 1: NaN.
float precise_math_atanh(float x)
{
    float a = abs(x);
    if (!(a < 1.0)) {
        float inf = uintBitsToFloat(0x7f800000u);
        return a == 1.0 ? amp_pm_hyp_sign(inf, x) : uintBitsToFloat(0x7fc00000u);
    }
    if (a < 0.000244140625) return x;
    precise float nh = 1.0 + a;
    precise float nl = (1.0 - nh) + a;
    precise float dh = 1.0 - a;
    precise float dl = (1.0 - dh) - a;
    float q = amp_pm_div(nh, dh), p, pe;
    amp_pm_two_prod(q, dh, p, pe);
    precise float ql = (((nh - p) - pe) + (nl - q * dl)) / dh;
    return amp_pm_hyp_sign(0.5 * amp_pm_hyp_log2w(q, ql), x);
}
double precise_math_atanh(double x)
{
    double a = abs(x);
    if (!(a < 1.0lf)) {
        double inf = packDouble2x32(uvec2(0u, 0x7ff00000u));
        return a == 1.0lf ? amp_pm_hyp_sign(inf, x) : packDouble2x32(uvec2(0u, 0x7ff80000u));
    }
    if (a < 3.725290298461914e-09lf) return x;
    precise double nh = 1.0lf + a;
    precise double nl = (1.0lf - nh) + a;
    precise double dh = 1.0lf - a;
    precise double dl = (1.0lf - dh) - a;
    double q = amp_pm_div(nh, dh), p, pe;
    amp_pm_two_prod(q, dh, p, pe);
    precise double ql = (((nh - p) - pe) + (nl - q * dl)) / dh;
    return amp_pm_hyp_sign(0.5lf * amp_pm_hyp_log2w(q, ql), x);
}
AMP_PM_FORMS1(atanh)
#endif

#endif
