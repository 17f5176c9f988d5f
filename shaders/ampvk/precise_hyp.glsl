// ampvk kernel library, precise_math: asin acos atan atan2 sinh cosh tanh asinh acosh atanh.
// Part of precise_math.glsl (read there how the parts fit); float and double.
#ifdef AMP_PM_NEEDS
// what the requested functions are built on (#define AMP_PM_<x>)
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
// but for c = 3/2, t c exact; the quotient by amp_pm_div); beyond: r = -1/t, c = inf (t capped at
// 1e18 or 1e100, where pi/2 - 1/t rounds to pi/2, as amp_pm_div's Dekker split overflows). Then
// atan(t) = atan(c) + r + r^3 P(r^2), |r| <= 7/16, P fitted here (relative error
// 2^-23.3 in float, 2^-51.4 in double; r^3 P is at most 6 % of the result); atan(c) + r is summed
// exactly, so the error is the last rounding plus about a third of r's (< 0.85 ulp).
float amp_pm_hyp_atan_core(float t, float tl, bool neg)
{
    int i = int(t >= 0.4375) + int(t >= 0.6875) + int(t >= 1.1875) + int(t >= 2.4375);
    float c = 0.5 * float(i);
    float r = i == 0 ? t : amp_pm_div(i == 4 ? -1.0 : t - c, i == 4 ? min(t, 1.0e18) : 1.0 + t * c);
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
    double r = i == 0 ? t : amp_pm_div(i == 4 ? -1.0lf : t - c, i == 4 ? min(t, 1.0e100lf) : 1.0lf + t * c);
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
// atan2(y, x) = sign(y) atan(|y| / |x|), or pi - that when x < 0 or x = -0. Both scaled by x's binade
// so that the quotient q (amp_pm_div) and its exact remainder give |y| / |x| = q + ql; then the core
// of atan on q, with atan(q + ql) - atan(q) = ql / (1 + q^2). Quotients beyond 2^30 (float) or 2^60
// (double) give pi/2; below 2^-26 or 2^-54 the quotient itself (x > 0) or pi. Zeros and infinities by
// C99's table (F.9.1.4). frexp does not take subnormals (lavapipe): those are scaled by 2^64 first.
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
        float mx = frexp(ax < 1.17549435e-38 ? ax * 1.8446744e19 : ax, ex);
        float my = frexp(ay < 1.17549435e-38 ? ay * 1.8446744e19 : ay, ey);
        int d = (ey - (ay < 1.17549435e-38 ? 64 : 0)) - (ex - (ax < 1.17549435e-38 ? 64 : 0));
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

#endif
