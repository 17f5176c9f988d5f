// ampvk kernel library, precise_math: erf erfc erfinv erfcinv probit phi lgamma tgamma.
// Part of precise_math.glsl (read there how the parts fit); float and double.
//
// Internal helpers other families may call:
//   amp_pm_special_erfc_tail(a, al)  erfc(a + al) for a in [1.25, 27.3] (float 10.1), |al| <= ulp(a)
//                                    (define AMP_PM_erfc in the NEEDS part)
//   amp_pm_special_stirling(y, yl, hi, lo)  lgamma(y + yl) = hi + lo for y >= 10 (AMP_PM_tgamma
//                                    or AMP_PM_lgamma)
//   amp_pm_special_sinpi(x)          sin(pi x) for any finite x not near the subnormals, ~1 ulp
//                                    (AMP_PM_tgamma or AMP_PM_lgamma)
#ifdef AMP_PM_NEEDS
// erf, erfc and phi rest on exp(hi + lo) (amp_pm_exp_hilo); the inverses on erf, erfc and
// log(x) as a pair (amp_pm_log_hilo)
#if defined(AMP_PM_erfinv) || defined(AMP_PM_erfcinv) || defined(AMP_PM_probit)
#define AMP_PM_SPECIAL_INV 1
#define AMP_PM_erf 1
#define AMP_PM_erfc 1
#define AMP_PM_log 1
#endif
#if defined(AMP_PM_tgamma) || defined(AMP_PM_lgamma)
#define AMP_PM_SPECIAL_GAMMA 1
#define AMP_PM_log 1
#define AMP_PM_exp 1
#endif
#if defined(AMP_PM_erf) || defined(AMP_PM_erfc) || defined(AMP_PM_phi)
#define AMP_PM_SPECIAL_ERF 1
#define AMP_PM_exp 1
#endif
#else

#ifdef AMP_PM_SPECIAL_ERF
// The rational approximations of fdlibm's s_erf.c (Sun Microsystems 1993; coefficients
// taken from there): for |x| < 0.84375, erf(x) = x + x P(x^2) / Q(x^2) (error below
// 2^-57.9); on [0.84375, 1.25], erf(1 + s) = c + P1(s) / Q1(s) with c = 0.845062911510467529297
// (a float; error below 2^-59); beyond, erfc(x) = exp(-x^2 - 0.5625 + R(1/x^2) / S(1/x^2)) / x
// with one fit on [1.25, 1/0.35] and one on [1/0.35, 28] (error below 2^-61.5).
float amp_pm_special_erf_small(float z)
{
    float p = 1.28379167095512558561e-01 +
          z * (-3.25042107247001499370e-01 +
               z * (-2.84817495755985104766e-02 +
                    z * (-5.77027029648944159157e-03 + z * -2.37630166566501626084e-05)));
    float q = 1.0 + z * (3.97917223959155352819e-01 +
                        z * (6.50222499887672944485e-02 +
                             z * (5.08130628187576562776e-03 +
                                  z * (1.32494738004321644526e-04 +
                                       z * -3.96022827877536812320e-06))));
    return p / q;
}
float amp_pm_special_erf_mid(float s)
{
    float p = -2.36211856075265944077e-03 +
          s * (4.14856118683748331666e-01 +
               s * (-3.72207876035701323847e-01 +
                    s * (3.18346619901161753674e-01 +
                         s * (-1.10894694282396677476e-01 +
                              s * (3.54783043256182359371e-02 + s * -2.16637559486879084300e-03)))));
    float q = 1.0 + s * (1.06420880400844228286e-01 +
                        s * (5.40397917702171048937e-01 +
                             s * (7.18286544141962662868e-02 +
                                  s * (1.26171219808761642112e-01 +
                                       s * (1.36370839120290507362e-02 +
                                            s * 1.19844998467991074170e-02)))));
    return p / q;
}
float amp_pm_special_erfc_rs(float a, float s)
{
    float r, q;
    if (a < 2.857142857142857) {
        r = -9.86494403484714822705e-03 +
            s * (-6.93858572707181764372e-01 +
                 s * (-1.05586262253232909814e+01 +
                      s * (-6.23753324503260060396e+01 +
                           s * (-1.62396669462573470355e+02 +
                                s * (-1.84605092906711035994e+02 +
                                     s * (-8.12874355063065934246e+01 +
                                          s * -9.81432934416914548592e+00))))));
        q = 1.0 + s * (1.96512716674392571292e+01 +
                          s * (1.37657754143519042600e+02 +
                               s * (4.34565877475229228821e+02 +
                                    s * (6.45387271733267880336e+02 +
                                         s * (4.29008140027567833386e+02 +
                                              s * (1.08635005541779435134e+02 +
                                                   s * (6.57024977031928170135e+00 +
                                                        s * -6.04244152148580987438e-02)))))));
    } else {
        r = -9.86494292470009928597e-03 +
            s * (-7.99283237680523006574e-01 +
                 s * (-1.77579549177547519889e+01 +
                      s * (-1.60636384855821916062e+02 +
                           s * (-6.37566443368389627722e+02 +
                                s * (-1.02509513161107724954e+03 +
                                     s * -4.83519191608651397019e+02)))));
        q = 1.0 + s * (3.03380607434824582924e+01 +
                          s * (3.25792512996573918826e+02 +
                               s * (1.53672958608443695994e+03 +
                                    s * (3.19985821950859553908e+03 +
                                         s * (2.55305040643316442583e+03 +
                                              s * (4.74528541206955367215e+02 +
                                                   s * -2.24409524465858183362e+01))))));
    }
    return r / q;
}
double amp_pm_special_erf_small(double z)
{
    double p = 1.28379167095512558561e-01lf +
          z * (-3.25042107247001499370e-01lf +
               z * (-2.84817495755985104766e-02lf +
                    z * (-5.77027029648944159157e-03lf + z * -2.37630166566501626084e-05lf)));
    double q = 1.0lf + z * (3.97917223959155352819e-01lf +
                        z * (6.50222499887672944485e-02lf +
                             z * (5.08130628187576562776e-03lf +
                                  z * (1.32494738004321644526e-04lf +
                                       z * -3.96022827877536812320e-06lf))));
    return p / q;
}
double amp_pm_special_erf_mid(double s)
{
    double p = -2.36211856075265944077e-03lf +
          s * (4.14856118683748331666e-01lf +
               s * (-3.72207876035701323847e-01lf +
                    s * (3.18346619901161753674e-01lf +
                         s * (-1.10894694282396677476e-01lf +
                              s * (3.54783043256182359371e-02lf + s * -2.16637559486879084300e-03lf)))));
    double q = 1.0lf + s * (1.06420880400844228286e-01lf +
                        s * (5.40397917702171048937e-01lf +
                             s * (7.18286544141962662868e-02lf +
                                  s * (1.26171219808761642112e-01lf +
                                       s * (1.36370839120290507362e-02lf +
                                            s * 1.19844998467991074170e-02lf)))));
    return p / q;
}
double amp_pm_special_erfc_rs(double a, double s)
{
    double r, q;
    if (a < 2.857142857142857lf) {
        r = -9.86494403484714822705e-03lf +
            s * (-6.93858572707181764372e-01lf +
                 s * (-1.05586262253232909814e+01lf +
                      s * (-6.23753324503260060396e+01lf +
                           s * (-1.62396669462573470355e+02lf +
                                s * (-1.84605092906711035994e+02lf +
                                     s * (-8.12874355063065934246e+01lf +
                                          s * -9.81432934416914548592e+00lf))))));
        q = 1.0lf + s * (1.96512716674392571292e+01lf +
                          s * (1.37657754143519042600e+02lf +
                               s * (4.34565877475229228821e+02lf +
                                    s * (6.45387271733267880336e+02lf +
                                         s * (4.29008140027567833386e+02lf +
                                              s * (1.08635005541779435134e+02lf +
                                                   s * (6.57024977031928170135e+00lf +
                                                        s * -6.04244152148580987438e-02lf)))))));
    } else {
        r = -9.86494292470009928597e-03lf +
            s * (-7.99283237680523006574e-01lf +
                 s * (-1.77579549177547519889e+01lf +
                      s * (-1.60636384855821916062e+02lf +
                           s * (-6.37566443368389627722e+02lf +
                                s * (-1.02509513161107724954e+03lf +
                                     s * -4.83519191608651397019e+02lf)))));
        q = 1.0lf + s * (3.03380607434824582924e+01lf +
                          s * (3.25792512996573918826e+02lf +
                               s * (1.53672958608443695994e+03lf +
                                    s * (3.19985821950859553908e+03lf +
                                         s * (2.55305040643316442583e+03lf +
                                              s * (4.74528541206955367215e+02lf +
                                                   s * -2.24409524465858183362e+01lf))))));
    }
    return r / q;
}
// -a^2 - 0.5625 + R/S(a) = h + l - e: a^2 = p + e exactly (two_prod), the constant and R/S
// added by two_sum, their errors summed in l.
#define AMP_PM_SPECIAL_ERFC_ARG(T)                                                                 \
    void amp_pm_special_erfc_arg(T a, out T h, out T l, out T e)                                   \
    {                                                                                              \
        T p, h1, l1, l2;                                                                           \
        amp_pm_two_prod(a, a, p, e);                                                               \
        amp_pm_two_sum(-p, T(-0.5625), h1, l1);                                                    \
        amp_pm_two_sum(h1, amp_pm_special_erfc_rs(a, T(1) / (a * a)), h, l2);                      \
        precise T s = l2 + l1;                                                                     \
        l = s;                                                                                     \
    }                                                                                              \
    T amp_pm_special_erfc_tail(T a, T al)                                                          \
    {                                                                                              \
        T h, l, e;                                                                                 \
        amp_pm_special_erfc_arg(a, h, l, e);                                                       \
        precise T lo = l - (e + T(2) * a * al);                                                    \
        T q = amp_pm_div(amp_pm_exp_hilo(h, lo), a);                                               \
        precise T v = q - q * (al / a);                                                            \
        return v;                                                                                  \
    }
AMP_PM_SPECIAL_ERFC_ARG(float)
AMP_PM_SPECIAL_ERFC_ARG(double)
#undef AMP_PM_SPECIAL_ERFC_ARG
// (above: amp_pm_special_erfc_tail(a, al) = erfc(a + al) for a in [1.25, the underflow]: -(a + al)^2
// exactly as p + e + 2 a al (two_prod), -0.5625 and R/S added by two_sum, exp of the pair
// (amp_pm_exp_hilo, about 0.6 ulp) and one division: under 1.5 ulp.)

#ifdef AMP_PM_erf
// erf(a) = 1 - erfc(a) for a in [1.25, 6] (4 float): erfc as above for al = 0 but with an
// ordinary quotient (Vulkan: 2.5 ulp of erfc; erfc is below 0.08 of erf there, so that is
// at most 0.31 ulp of erf, at 1.25, and falls fast with a), for erf's speed.
#define AMP_PM_SPECIAL_ERF_TAIL(T)                                                                 \
    T amp_pm_special_erf_tail(T a)                                                                 \
    {                                                                                              \
        T h, l, e;                                                                                 \
        amp_pm_special_erfc_arg(a, h, l, e);                                                       \
        precise T lo = l - e, v = T(1) - amp_pm_exp_hilo(h, lo) / a;                              \
        return v;                                                                                  \
    }
AMP_PM_SPECIAL_ERF_TAIL(float)
AMP_PM_SPECIAL_ERF_TAIL(double)
#undef AMP_PM_SPECIAL_ERF_TAIL
#endif

#endif

#if defined(AMP_PM_SPECIAL_ERF) || defined(AMP_PM_SPECIAL_GAMMA)
// x with the sign of s, by the bits.
float amp_pm_special_sign(float x, float s)
{
    return uintBitsToFloat(floatBitsToUint(x) | (floatBitsToUint(s) & 0x80000000u));
}
double amp_pm_special_sign(double x, double s)
{
    uvec2 u = unpackDouble2x32(x);
    return packDouble2x32(uvec2(u.x, u.y | (unpackDouble2x32(s).y & 0x80000000u)));
}
#endif

#ifdef AMP_PM_erf
// erf: for |x| < 0.84375, x + x R(x^2) (tiny x scaled up first so x R stays normal);
// then c + P1/Q1 to 1.25; then 1 - erfc(|x|) from the tail (erfc below 0.08 there);
// 1 from 6 (double) or 4 (float), where erfc(x) is below half an ulp of 1. Sign by the
// bits (erf(-0) = -0). Worst measured: see the commit.
float precise_math_erf(float x)
{
    float a = abs(x), r; // NaN fails every test below: no test of its own on the common path
    if (a < 0.84375) {
        if (a < 7.88860905e-31) { // 2^-100
            precise float t = a * 1.84467441e19, u = t + t * 0.128379167; // 2^64
            r = u * 5.42101086e-20; // 2^-64
        } else {
            precise float u = a + a * amp_pm_special_erf_small(a * a);
            r = u;
        }
    } else if (a < 1.25) {
        precise float u = 0.845062911510467529297 + amp_pm_special_erf_mid(a - 1.0);
        r = u;
    } else if (a < 4.0) {
        r = amp_pm_special_erf_tail(a);
    } else {
        r = isnan(x) ? x : 1.0;
    }
    return amp_pm_special_sign(r, x);
}
double precise_math_erf(double x)
{
    double a = abs(x), r; // NaN fails every test below: no test of its own on the common path
    if (a < 0.84375lf) {
        if (a < 9.332636185032189e-302lf) { // 2^-1000
            precise double t = a * 1.8446744073709552e19lf, u = t + t * 1.28379167095512586316e-01lf;
            r = u * 5.421010862427522e-20lf;
        } else {
            precise double u = a + a * amp_pm_special_erf_small(a * a);
            r = u;
        }
    } else if (a < 1.25lf) {
        precise double u = 8.45062911510467529297e-01lf + amp_pm_special_erf_mid(a - 1.0lf);
        r = u;
    } else if (a < 6.0lf) {
        r = amp_pm_special_erf_tail(a);
    } else {
        r = isnan(x) ? x : 1.0lf;
    }
    return amp_pm_special_sign(r, x);
}
AMP_PM_FORMS1(erf)
#endif

#ifdef AMP_PM_erfc
// erfc: for |x| < 0.84375, 1 - erf(x) as 1 - (x + x R) below 1/4 and 0.5 - ((x - 0.5) + x R)
// above (no cancellation: erfc is above 0.23 there); on [0.84375, 1.25], (1 - c) - P1/Q1 or
// 1 + (c + P1/Q1) (1 - c exact); beyond, the tail (amp_pm_special_erfc_tail) for x > 0 and
// 2 - tail for x < 0; 2 below -6 (-4 float), +0 past the underflow (27.3 double, 10.1 float).
float precise_math_erfc(float x)
{
    if (isnan(x)) return x;
    float a = abs(x), r;
    if (a < 0.84375) {
        float y = amp_pm_special_erf_small(a * a);
        if (x < 0.25) {
            precise float u = 1.0 - (x + x * y);
            r = u;
        } else {
            precise float u = 0.5 - ((x - 0.5) + x * y);
            r = u;
        }
    } else if (a < 1.25) {
        float pq = amp_pm_special_erf_mid(a - 1.0);
        precise float u = x > 0.0 ? 1.54937088489532470703e-01 - pq : 1.0 + (8.45062911510467529297e-01 + pq);
        r = u;
    } else if (x < -4.0) {
        r = 2.0;
    } else if (a < 10.1) {
        precise float t = amp_pm_special_erfc_tail(a, 0.0), u = 2.0 - t;
        r = x > 0.0 ? t : u;
    } else {
        r = x > 0.0 ? 0.0 : 2.0;
    }
    return r;
}
double precise_math_erfc(double x)
{
    if (isnan(x)) return x;
    double a = abs(x), r;
    if (a < 0.84375lf) {
        double y = amp_pm_special_erf_small(a * a);
        if (x < 0.25lf) {
            precise double u = 1.0lf - (x + x * y);
            r = u;
        } else {
            precise double u = 0.5lf - ((x - 0.5lf) + x * y);
            r = u;
        }
    } else if (a < 1.25lf) {
        double pq = amp_pm_special_erf_mid(a - 1.0lf);
        precise double u = x > 0.0lf ? 1.54937088489532470703e-01lf - pq : 1.0lf + (8.45062911510467529297e-01lf + pq);
        r = u;
    } else if (x < -6.0lf) {
        r = 2.0lf;
    } else if (a < 27.3lf) {
        precise double t = amp_pm_special_erfc_tail(a, 0.0lf), u = 2.0lf - t;
        r = x > 0.0lf ? t : u;
    } else {
        r = x > 0.0lf ? 0.0lf : 2.0lf;
    }
    return r;
}
AMP_PM_FORMS1(erfc)
#endif


#ifdef AMP_PM_phi
// phi: the standard normal CDF, 0.5 erfc(t) with t = -x / sqrt(2) as t + tl (two_prod with
// 1/sqrt(2) in two parts), erfc computed as erfc does, tl joining the linear term below
// 0.84375, as -tl erfc'(t) on [0.84375, 1.25] (erfc' = -2/sqrt(pi) exp(-t^2)) and in the
// exponent and the division beyond (amp_pm_special_erfc_tail); no cancellation anywhere.
float precise_math_phi(float x)
{
    if (isnan(x)) return x;
    float t, tl, r;
    amp_pm_two_prod(-x, 7.07106769e-01, t, tl);
    tl -= x * 1.21016171e-08;
    float a = abs(t);
    if (a < 1.25) {
        if (a < 0.84375) {
            float y = amp_pm_special_erf_small(a * a);
            precise float u = t < 0.25 ? 1.0 - (t + (tl + t * y)) : 0.5 - ((t - 0.5) + (tl + t * y));
            r = u;
        } else {
            float pq = amp_pm_special_erf_mid(a - 1.0);
            float d = tl * 1.1283791670955126 * amp_pm_exp_hilo(-t * t, 0.0);
            precise float u = t > 0.0 ? 1.54937088489532470703e-01 - (pq + d)
                                         : 1.0 + (8.45062911510467529297e-01 + (pq - d));
            r = u;
        }
    } else if (t < -4.0) {
        r = 2.0;
    } else if (a < 10.1) {
        float q = amp_pm_special_erfc_tail(a, t < 0.0 ? -tl : tl);
        precise float u = 2.0 - q;
        r = t > 0.0 ? q : u;
    } else {
        r = 0.0;
    }
    return 0.5 * r;
}
double precise_math_phi(double x)
{
    if (isnan(x)) return x;
    double t, tl, r;
    amp_pm_two_prod(-x, 7.071067811865476e-01lf, t, tl);
    tl -= x * -4.833646656726457e-17lf;
    double a = abs(t);
    if (a < 1.25lf) {
        if (a < 0.84375lf) {
            double y = amp_pm_special_erf_small(a * a);
            precise double u = t < 0.25lf ? 1.0lf - (t + (tl + t * y)) : 0.5lf - ((t - 0.5lf) + (tl + t * y));
            r = u;
        } else {
            double pq = amp_pm_special_erf_mid(a - 1.0lf);
            double d = tl * 1.1283791670955126lf * amp_pm_exp_hilo(-t * t, 0.0lf);
            precise double u = t > 0.0lf ? 1.54937088489532470703e-01lf - (pq + d)
                                         : 1.0lf + (8.45062911510467529297e-01lf + (pq - d));
            r = u;
        }
    } else if (t < -6.0lf) {
        r = 2.0lf;
    } else if (a < 27.3lf) {
        double q = amp_pm_special_erfc_tail(a, t < 0.0lf ? -tl : tl);
        precise double u = 2.0lf - q;
        r = t > 0.0lf ? q : u;
    } else {
        r = 0.0lf;
    }
    return 0.5lf * r;
}
AMP_PM_FORMS1(phi)
#endif


#ifdef AMP_PM_SPECIAL_INV
// A seed for erfcinv(c), c in (0, 1], in float whatever the type (built-in log and sqrt:
// Newton's steps correct it): w = -log(c (2 - c)); Giles's single-precision fits
// ("Approximating the erfinv function", GPU Computing Gems, 2011; relative error ~1e-7)
// for w below 16; beyond, the asymptotic erfc(y) ~ exp(-y^2) (1 - 1/(2y^2)) / (y sqrt(pi))
// solved by three substitutions (relative error below 1e-4). lc = log(c) is given (a c
// below float's range in double still has its logarithm).
float amp_pm_special_inv_seed(float lc, float c)
{
    float w = -lc - log(2.0 - c), p;
    if (w < 5.0) {
        w -= 2.5;
        p = fma(fma(fma(fma(fma(fma(fma(fma(2.81022636e-08, w, 3.43273939e-07), w, -3.5233877e-06), w,
                                            -4.39150654e-06), w,
                                0.00021858087), w, -0.00125372503), w, -0.00417768164), w, 0.246640727), w, 1.50140941);
        return p * (1.0 - c);
    }
    if (w < 16.0) {
        w = sqrt(w) - 3.0;
        p = fma(fma(fma(fma(fma(fma(fma(fma(-0.000200214257, w, 0.000100950558), w, 0.00134934322), w,
                                            -0.00367342844), w,
                                0.00573950773), w, -0.0076224613), w, 0.00943887047), w, 1.00167406), w, 2.83297682);
        return p * (1.0 - c);
    }
    float y = sqrt(-lc);
    y = sqrt(-lc - log(1.77245385 * y));
    return sqrt(-lc - log(1.77245385 * y) - 0.5 / (y * y));
}
// erfinv(x) for x in [0, 0.75]: the seed, then Newton's steps on erf,
// y -= (erf(y) - x) / (2/sqrt(pi) exp(-y^2)) (erf within 1 ulp keeps y within about 1.5);
// below 2^-15 (float) or 2^-30 (double), sqrt(pi)/2 x (scaled so a subnormal rounds once).
float amp_pm_special_erfinv_small(float x)
{
    if (x < 3.05175781e-05) {
        precise float t = (x * 1.84467441e19) * 0.886226925;
        return t * 5.42101086e-20;
    }
    float c = 1.0 - x;
    float y = amp_pm_special_inv_seed(log(c), c);
    for (int i = 0; i < 2; i++) {
        precise float n = y - (precise_math_erf(y) - x) / (1.12837917 * amp_pm_exp_hilo(-y * y, 0.0));
        y = n;
    }
    return y;
}
// erfcinv(c) for c in (0, 0.25]: the seed, then Newton's steps: below 1.25 on erfc itself,
// above on log erfc(y) - log c = -y^2 - 0.5625 + R/S(1/y^2) - log y - log c (fdlibm's fit
// of the tail, y^2 and the logarithms as exact pairs, so the huge terms cancel exactly),
// whose derivative is -2/sqrt(pi) y exp(0.5625 - R/S): no underflow for tiny c (1e-300).
float amp_pm_special_erfcinv_pos(float c)
{
    float lch, lcl;
    amp_pm_log_hilo(c, lch, lcl);
    float y = amp_pm_special_inv_seed(lch, c);
    for (int i = 0; i < 2; i++) {
        if (y < 1.25) {
            precise float n = y + (precise_math_erfc(y) - c) / (1.12837917 * amp_pm_exp_hilo(-y * y, 0.0));
            y = n;
        } else {
            float p, pe, s, se, lyh, lyl;
            amp_pm_two_prod(y, y, p, pe);
            amp_pm_two_sum(-p, -lch, s, se);
            float rs = amp_pm_special_erfc_rs(y, 1.0 / (y * y));
            amp_pm_log_hilo(y, lyh, lyl);
            precise float a = s + ((se - pe - lcl - lyl) + ((rs - 0.5625) - lyh));
            float d = 1.12837917 * y * amp_pm_exp_hilo(0.5625 - rs, 0.0);
            precise float n = y + a / d;
            y = n;
        }
    }
    return y;
}
// erfcinv(c) for c in (0, 2): erfinv(1 - c) near 1 (1 - c exact there), the positive core
// below 1/4 and its negative for 2 - c (exact) above 7/4.
float amp_pm_special_erfcinv(float c)
{
    if (c >= 0.25 && c <= 1.75) {
        float x = 1.0 - c;
        return amp_pm_special_sign(amp_pm_special_erfinv_small(abs(x)), x);
    }
    return c < 1.0 ? amp_pm_special_erfcinv_pos(c) : -amp_pm_special_erfcinv_pos(2.0 - c);
}
// erfinv(x) for x in [0, 0.75]: the seed, then Newton's steps on erf,
// y -= (erf(y) - x) / (2/sqrt(pi) exp(-y^2)) (erf within 1 ulp keeps y within about 1.5).
double amp_pm_special_erfinv_small(double x)
{
    if (x < 9.313225746154785e-10lf) {
        precise double t = (x * 1.8446744073709552e19lf) * 8.862269254527580e-01lf;
        return t * 5.421010862427522e-20lf;
    }
    float c = float(1.0lf - x);
    double y = double(amp_pm_special_inv_seed(log(c), c));
    for (int i = 0; i < 3; i++) {
        precise double n = y - (precise_math_erf(y) - x) / (1.1283791670955126lf * amp_pm_exp_hilo(-y * y, 0.0lf));
        y = n;
    }
    return y;
}
// erfcinv(c) for c in (0, 0.25]: the seed, then Newton's steps: below 1.25 on erfc itself,
// above on log erfc(y) - log c = -y^2 - 0.5625 + R/S(1/y^2) - log y - log c (fdlibm's fit
// of the tail, y^2 and the logarithms as exact pairs, so the huge terms cancel exactly),
// whose derivative is -2/sqrt(pi) y exp(0.5625 - R/S): no underflow for tiny c (1e-300).
double amp_pm_special_erfcinv_pos(double c)
{
    double lch, lcl;
    amp_pm_log_hilo(c, lch, lcl);
    double y = double(amp_pm_special_inv_seed(float(lch), float(c)));
    for (int i = 0; i < 3; i++) {
        if (y < 1.25lf) {
            precise double n = y + (precise_math_erfc(y) - c) / (1.1283791670955126lf * amp_pm_exp_hilo(-y * y, 0.0lf));
            y = n;
        } else {
            double p, pe, s, se, lyh, lyl;
            amp_pm_two_prod(y, y, p, pe);
            amp_pm_two_sum(-p, -lch, s, se);
            double rs = amp_pm_special_erfc_rs(y, 1.0lf / (y * y));
            amp_pm_log_hilo(y, lyh, lyl);
            precise double a = s + ((se - pe - lcl - lyl) + ((rs - 0.5625lf) - lyh));
            double d = 1.1283791670955126lf * y * amp_pm_exp_hilo(0.5625lf - rs, 0.0lf);
            precise double n = y + a / d;
            y = n;
        }
    }
    return y;
}
// erfcinv(c) for c in (0, 2): erfinv(1 - c) near 1 (1 - c exact there), the positive core
// below 1/4 and its negative for 2 - c (exact) above 7/4.
double amp_pm_special_erfcinv(double c)
{
    if (c >= 0.25lf && c <= 1.75lf) {
        double x = 1.0lf - c;
        return amp_pm_special_sign(amp_pm_special_erfinv_small(abs(x)), x);
    }
    return c < 1.0lf ? amp_pm_special_erfcinv_pos(c) : -amp_pm_special_erfcinv_pos(2.0lf - c);
}
#endif

#ifdef AMP_PM_erfinv
// erfinv: NaN beyond [-1, 1], +-inf at +-1; below 3/4 Newton on erf, above the erfc core
// for 1 - |x| (exact); sign by the bits (erfinv(-0) = -0).
float precise_math_erfinv(float x)
{
    float a = abs(x);
    if (!(a < 1.0))
        return a == 1.0 ? amp_pm_special_sign(uintBitsToFloat(0x7f800000u), x) : uintBitsToFloat(0x7fc00000u);
    return amp_pm_special_sign(a <= 0.75 ? amp_pm_special_erfinv_small(a) : amp_pm_special_erfcinv_pos(1.0 - a), x);
}
double precise_math_erfinv(double x)
{
    double a = abs(x);
    if (!(a < 1.0lf))
        return a == 1.0lf ? amp_pm_special_sign(packDouble2x32(uvec2(0u, 0x7ff00000u)), x)
                          : packDouble2x32(uvec2(0u, 0x7ff80000u));
    return amp_pm_special_sign(a <= 0.75lf ? amp_pm_special_erfinv_small(a) : amp_pm_special_erfcinv_pos(1.0lf - a), x);
}
AMP_PM_FORMS1(erfinv)
#endif

#ifdef AMP_PM_erfcinv
// erfcinv: +inf at 0, -inf at 2, NaN outside [0, 2]; amp_pm_special_erfcinv between.
float precise_math_erfcinv(float c)
{
    if (!(c > 0.0 && c < 2.0))
        return c == 0.0   ? uintBitsToFloat(0x7f800000u)
               : c == 2.0 ? uintBitsToFloat(0xff800000u)
                          : uintBitsToFloat(0x7fc00000u);
    return amp_pm_special_erfcinv(c);
}
double precise_math_erfcinv(double c)
{
    if (!(c > 0.0lf && c < 2.0lf))
        return c == 0.0lf   ? packDouble2x32(uvec2(0u, 0x7ff00000u))
               : c == 2.0lf ? packDouble2x32(uvec2(0u, 0xfff00000u))
                            : packDouble2x32(uvec2(0u, 0x7ff80000u));
    return amp_pm_special_erfcinv(c);
}
AMP_PM_FORMS1(erfcinv)
#endif

#ifdef AMP_PM_probit
// probit: the inverse of the normal CDF, -sqrt(2) erfcinv(2p) (2p exact; sqrt(2) in two
// parts, the product by two_prod); -inf at 0, +inf at 1, NaN outside [0, 1].
float precise_math_probit(float p)
{
    if (!(p > 0.0 && p < 1.0))
        return p == 0.0   ? uintBitsToFloat(0xff800000u)
               : p == 1.0 ? uintBitsToFloat(0x7f800000u)
                          : uintBitsToFloat(0x7fc00000u);
    float y = amp_pm_special_erfcinv(2.0 * p), h, e;
    amp_pm_two_prod(y, -1.41421354, h, e);
    precise float r = h + (e - y * 2.42032342e-08);
    return p == 0.5 ? 0.0 : r;
}
double precise_math_probit(double p)
{
    if (!(p > 0.0lf && p < 1.0lf))
        return p == 0.0lf   ? packDouble2x32(uvec2(0u, 0xfff00000u))
               : p == 1.0lf ? packDouble2x32(uvec2(0u, 0x7ff00000u))
                            : packDouble2x32(uvec2(0u, 0x7ff80000u));
    double y = amp_pm_special_erfcinv(2.0lf * p), h, e;
    amp_pm_two_prod(y, -1.4142135623730951lf, h, e);
    precise double r = h + (e - y * -9.667293313452913e-17lf);
    return p == 0.5lf ? 0.0lf : r;
}
AMP_PM_FORMS1(probit)
#endif


#ifdef AMP_PM_SPECIAL_GAMMA
float amp_pm_special_sinpi(float x)
{
    precise float r = x - 2.0 * round(0.5 * x);
    if (abs(r) > 0.5) {
        precise float f = (r > 0.0 ? 1.0 : -1.0) - r;
        r = f;
    }
    float u = 3.14159265 * r, z = u * u;
    float q = fma(fma(fma(1.60590438e-10, z, -2.50521084e-8), z, 2.75573192e-6), z, -1.98412698e-4);
    q = z * fma(fma(q, z, 8.33333333e-3), z, -1.66666667e-1); // to u^13: truncation below 1e-9
    precise float v = u + u * q;
    return v;
}
void amp_pm_special_stirling(float y, float yl, out float hi, out float lo)
{
    float lh, ll, p, pe, s, se;
    amp_pm_log_hilo(y, lh, ll);
    amp_pm_two_prod(y, lh, p, pe);
    amp_pm_two_sum(p, -y, s, se);
    float z = 1.0 / y, z2 = z * z;
    float b = z * (8.33333333e-2 + z2 * (-2.77777778e-3 + z2 * (7.93650794e-4 + z2 * -5.95238095e-4)));
    precise float r = (pe + y * ll + se) + ((9.18938518e-01 - 0.5 * lh) + (b - 0.5 * ll + yl * lh + 1.563417714e-08));
    amp_pm_two_sum(s, r, hi, lo);
}
// sin(pi x) for finite x not near the subnormals (the reflections of tgamma and lgamma):
// r = x - 2 round(x/2) and then 1 - r or -1 - r past 1/2 are exact, so sin(pi r) is the
// Taylor series of sin(u), u = pi r (to u^23: truncation below 1e-18; relative error about
// 1 ulp). precise_math_sinpi (the trig family) may replace it.
double amp_pm_special_sinpi(double x)
{
    precise double r = x - 2.0lf * round(0.5lf * x);
    if (abs(r) > 0.5lf) {
        precise double f = (r > 0.0lf ? 1.0lf : -1.0lf) - r;
        r = f;
    }
    double u = 3.141592653589793lf * r, z = u * u, q = 1.0lf / 25852016738884976640000.0lf;
    const double c[10] = double[](-1.0lf / 51090942171709440000.0lf, 1.0lf / 121645100408832000.0lf,
                                  -1.0lf / 355687428096000.0lf, 1.0lf / 1307674368000.0lf, -1.0lf / 6227020800.0lf,
                                  1.0lf / 39916800.0lf, -1.0lf / 362880.0lf, 1.0lf / 5040.0lf, -1.0lf / 120.0lf,
                                  1.0lf / 6.0lf);
    for (int i = 0; i < 10; i++) q = fma(q, z, c[i]);
    precise double v = u - u * (z * q);
    return v;
}
// lgamma(y + yl) for y >= 10 as hi + lo (Stirling): (y - 1/2) log y - y + log(2 pi)/2 +
// 1/(12y) - 1/(360y^3) + ... (Bernoulli terms to y^-13: below 1e-17 from 10 on), x log y by
// two_prod on log y's pair and - y by two_sum, so the big terms are exact; yl (1/2 ulp of y at
// most) joins as yl log y, and log(2 pi) / 2 as a pair (its rounding alone was 1/2 ulp of a
// result near 1/2).
void amp_pm_special_stirling(double y, double yl, out double hi, out double lo)
{
    double lh, ll, p, pe, s, se;
    amp_pm_log_hilo(y, lh, ll);
    amp_pm_two_prod(y, lh, p, pe);
    amp_pm_two_sum(p, -y, s, se);
    double z = 1.0lf / y, z2 = z * z;
    double b = z * (1.0lf / 12.0lf + z2 * (-1.0lf / 360.0lf + z2 * (1.0lf / 1260.0lf + z2 * (-1.0lf / 1680.0lf +
                    z2 * (1.0lf / 1188.0lf + z2 * (-691.0lf / 360360.0lf + z2 * (1.0lf / 156.0lf)))))));
    precise double r = (pe + y * ll + se) + ((9.189385332046728e-01lf - 0.5lf * lh) +
                                             (b - 0.5lf * ll + yl * lh - 3.8782941580672414e-17lf));
    amp_pm_two_sum(s, r, hi, lo);
}
// y + yl = x + n >= 10 for the least n (kept exact as a pair: each step's rounding goes to
// yl), and ph + pl = x (x + 1) ... (x + n - 1) (1 for n = 0), each step's product by
// two_prod, so its rounding is ~2^-100 (2^-45 float).
void amp_pm_special_rise(float x, out float y, out float yl, out float ph, out float pl)
{
    y = x;
    yl = 0.0;
    ph = 1.0;
    pl = 0.0;
    while (y < 10.0) {
        float a, b;
        amp_pm_two_prod(ph, y, a, b);
        precise float c = b + (ph * yl + pl * y);
        amp_pm_two_sum(a, c, ph, pl);
        precise float t = y + 1.0, e = (y - (t - 1.0)) + yl;
        y = t;
        yl = e;
    }
}
void amp_pm_special_rise(double x, out double y, out double yl, out double ph, out double pl)
{
    y = x;
    yl = 0.0lf;
    ph = 1.0lf;
    pl = 0.0lf;
    while (y < 10.0lf) {
        double a, b;
        amp_pm_two_prod(ph, y, a, b);
        precise double c = b + (ph * yl + pl * y);
        amp_pm_two_sum(a, c, ph, pl);
        precise double t = y + 1.0lf, e = (y - (t - 1.0lf)) + yl;
        y = t;
        yl = e;
    }
}
float amp_pm_special_gamma_rec(float x)
{
    float y, yl, ph, pl, h, l;
    amp_pm_special_rise(x, y, yl, ph, pl);
    amp_pm_special_stirling(y, yl, h, l);
    float q = amp_pm_div(amp_pm_exp_hilo(h, l), ph);
    precise float v = q - q * amp_pm_div(pl, ph);
    return v;
}
// Gamma: for y = x + n >= 10 (amp_pm_special_rise), Gamma(x) = exp(lgamma(y)) / (x (x + 1)
// ... (x + n - 1)), exp of Stirling's pair by amp_pm_exp_hilo; the quotient by amp_pm_div.
double amp_pm_special_gamma_rec(double x)
{
    double y, yl, ph, pl, h, l;
    amp_pm_special_rise(x, y, yl, ph, pl);
    amp_pm_special_stirling(y, yl, h, l);
    double q = amp_pm_div(amp_pm_exp_hilo(h, l), ph);
    precise double v = q - q * amp_pm_div(pl, ph);
    return v;
}
#endif

#ifdef AMP_PM_tgamma
// tgamma: NaN for NaN, -inf and negative integers, +-inf at +-0, +inf past ~171.62 (35.04 float);
// 1/x - Euler's gamma for tiny |x|; from -20 (-10 float) up, amp_pm_special_gamma_rec; below,
// the reflection pi / (sin(pi x) Gamma(1 - x)) (1 - x as a pair), Gamma(1 - x) as the square of
// exp(lgamma(1 - x) / 2) (Stirling's pair halved exactly) so it cannot overflow, divided in
// two steps; +-0 past the underflow (x below -200 double, -50 float).
float precise_math_tgamma(float x)
{
    if (isnan(x) || x > 35.0401001) return x > 0.0 ? uintBitsToFloat(0x7f800000u) : x;
    if (x == 0.0) return amp_pm_special_sign(uintBitsToFloat(0x7f800000u), x);
    if (x < 0.0 && x == floor(x)) return uintBitsToFloat(0x7fc00000u);
    if (abs(x) < 2.98023224e-8) return amp_pm_div(1.0, x) - 0.577215665;
    if (x >= -10.0) return amp_pm_special_gamma_rec(x);
    float s = amp_pm_special_sinpi(x);
    if (x < -50.0) return amp_pm_special_sign(0.0, s);
    float sh, sl, y, yl;
    amp_pm_two_sum(1.0, -x, y, yl);
    amp_pm_special_stirling(y, yl, sh, sl);
    float e = amp_pm_exp_hilo(0.5 * sh, 0.5 * sl);
    return amp_pm_div(amp_pm_div(3.14159265, s * e), e);
}
double precise_math_tgamma(double x)
{
    if (isnan(x) || x > 171.62437695630272lf) return x > 0.0lf ? packDouble2x32(uvec2(0u, 0x7ff00000u)) : x;
    if (x == 0.0lf) return amp_pm_special_sign(packDouble2x32(uvec2(0u, 0x7ff00000u)), x);
    if (x < 0.0lf && x == floor(x)) return packDouble2x32(uvec2(0u, 0x7ff80000u));
    if (abs(x) < 5.551115123125783e-17lf) return amp_pm_div(1.0lf, x) - 0.5772156649015329lf;
    if (x >= -20.0lf) return amp_pm_special_gamma_rec(x);
    double s = amp_pm_special_sinpi(x);
    if (x < -200.0lf) return amp_pm_special_sign(0.0lf, s);
    double sh, sl, y, yl;
    amp_pm_two_sum(1.0lf, -x, y, yl);
    amp_pm_special_stirling(y, yl, sh, sl);
    double e = amp_pm_exp_hilo(0.5lf * sh, 0.5lf * sl);
    return amp_pm_div(amp_pm_div(3.141592653589793lf, s * e), e);
}
AMP_PM_FORMS1(tgamma)
#endif

#ifdef AMP_PM_lgamma
// lgamma(c + t) for c = 2 and c = 3/2, |t| <= 1/4: the Taylor series, whose coefficients
// are psi^(k-1)(c) / k! = (-1)^k zeta(k, c) / k from k = 2 (Hurwitz's zeta, computed to
// 40 digits; at 2: 0 and 1 - Euler's gamma first, at 3/2: log(sqrt(pi) / 2) and
// psi(3/2) = 2 - gamma - 2 log 2), cut where the next term is below 2^-57 (2^-27 float) of
// the result. lgamma(2 + t) is about 0.42 t, so its relative error stays small at t = 0.
float amp_pm_special_lgamma_at2(float t)
{
    const float c[10] = float[](9.945751278e-05, -2.231547585e-04, 5.096695247e-04, -1.192753912e-03,
                                2.890510331e-03, -7.385551029e-03, 2.058080843e-02, -6.735230105e-02,
                                3.224670334e-01, 4.227843351e-01);
    float q = c[0];
    for (int i = 1; i < 10; i++) q = fma(q, t, c[i]);
    return q * t;
}
float amp_pm_special_lgamma_at15(float t)
{
    const float c[12] = float[](-1.054915694e-03, 1.745035576e-03, -2.920970459e-03, 4.965728809e-03,
                                -8.622603929e-03, 1.543548417e-02, -2.895208189e-02, 5.871212642e-02,
                                -1.381327740e-01, 4.674011003e-01, 3.648997398e-02, -1.207822376e-01);
    float q = c[0];
    for (int i = 1; i < 12; i++) q = fma(q, t, c[i]);
    return q;
}
double amp_pm_special_lgamma_at2(double t)
{
    const double c[19] = double[](
        -1.00432248239680991e-07lf, 2.12071848055546646e-07lf, -4.49246919876456619e-07lf, 9.55141213040741935e-07lf,
        -2.03921575380136619e-06lf, 4.37486678990748817e-06lf, -9.43948827526839672e-06lf, 2.05072127756706911e-05lf,
        -4.49262367381331420e-05lf, 9.94575127818085310e-05lf, -2.23154758453579386e-04lf, 5.09669524743042450e-04lf,
        -1.19275391170326102e-03lf, 2.89051033074152336e-03lf, -7.38555102867398568e-03lf, 2.05808084277845464e-02lf,
        -6.73523010531981020e-02lf, 3.22467033424113203e-01lf, 4.22784335098467134e-01lf);
    double q = c[0];
    for (int i = 1; i < 19; i++) q = fma(q, t, c[i]);
    return q * t;
}
double amp_pm_special_lgamma_at15(double t)
{
    const double c[23] = double[](
        6.07540647448468991e-06lf, -9.54715119214818738e-06lf, 1.50369834083592175e-05lf, -2.37431854692093430e-05lf,
        3.75949092696121925e-05lf, -5.97136233623377029e-05lf, 9.51793966250258773e-05lf, -1.52315938142700820e-04lf,
        2.44871190482944109e-04lf, -3.95771539646507767e-04lf, 6.43702983038148616e-04lf, -1.05491569386763199e-03lf,
        1.74503557579013002e-03lf, -2.92097045866795187e-03lf, 4.96572880947581796e-03lf, -8.62260392917128630e-03lf,
        1.54354841700493003e-02lf, -2.89520818888935431e-02lf, 5.87121264167682205e-02lf, -1.38132774039053330e-01lf,
        4.67401100272339665e-01lf, 3.64899739785765204e-02lf, -1.20782237635245218e-01lf);
    double q = c[0];
    for (int i = 1; i < 23; i++) q = fma(q, t, c[i]);
    return q;
}

// lgamma(x) for x > 0 finite. Tiny x: -log x (the next term, -gamma x, is below 2^-60 of
// it); [1/2, 13/4): a series around 3/2 or 2 within 1/4 of it, shifted by one with
// log(x) or log(x - 1) as a pair where x is nearer 1/2, 1, 5/2 or 3 (lgamma(x) = lgamma(x +
// 1) - log x; about 0.58 t against 0.42 t near 1, so the sum keeps its accuracy); [10, big):
// Stirling's pair; past big, x (log x - 1); elsewhere lgamma(x + n) - log(x (x + 1) ... (x + n
// - 1)) with both as pairs (the result is above 0.47 there).
#define AMP_PM_SPECIAL_LGAMMA_POS(T, TINY, BIG)                                                    \
    T amp_pm_special_lgamma_pos(T x)                                                               \
    {                                                                                              \
        T h = T(0), l = T(0);                                                                      \
        if (x < TINY || x >= BIG) {                                                                \
            amp_pm_log_hilo(x, h, l);                                                              \
            precise T v = x < T(1) ? -h - l : x * ((h - T(1)) + l);                                \
            return v;                                                                              \
        }                                                                                          \
        if (x >= T(10)) {                                                                          \
            amp_pm_special_stirling(x, T(0), h, l);                                                \
            precise T v = h + l;                                                                   \
            return v;                                                                              \
        }                                                                                          \
        T p, s, e;                                                                                 \
        if (x >= T(0.5) && x < T(3.25)) {                                                          \
            if (x < T(1.25)) amp_pm_log_hilo(x, h, l);                                             \
            else if (x >= T(2.25)) amp_pm_log_hilo(x - T(1), h, l);                                \
            p = x < T(0.75) ? amp_pm_special_lgamma_at15(x - T(0.5))                               \
                : x < T(1.25) ? amp_pm_special_lgamma_at2(x - T(1))                                \
                : x < T(1.75) ? amp_pm_special_lgamma_at15(x - T(1.5))                             \
                : x < T(2.25) ? amp_pm_special_lgamma_at2(x - T(2))                                \
                : x < T(2.75) ? amp_pm_special_lgamma_at15(x - T(2.5))                             \
                              : amp_pm_special_lgamma_at2(x - T(3));                               \
            if (x < T(1.25)) {                                                                     \
                h = -h;                                                                            \
                l = -l;                                                                            \
            }                                                                                      \
            amp_pm_two_sum(h, p, s, e);                                                            \
            precise T v = s + (e + l);                                                             \
            return v;                                                                              \
        }                                                                                          \
        T y, yl, ph, pl, lh, ll;                                                                   \
        amp_pm_special_rise(x, y, yl, ph, pl);                                                     \
        amp_pm_special_stirling(y, yl, h, l);                                                      \
        amp_pm_log_hilo(ph, lh, ll);                                                               \
        amp_pm_two_sum(h, -lh, s, e);                                                              \
        precise T v = s + ((e + l) - (ll + pl / ph));                                              \
        return v;                                                                                  \
    }
AMP_PM_SPECIAL_LGAMMA_POS(float, 9.31322575e-10, 1.07374182e9)                            // 2^-30, 2^30
AMP_PM_SPECIAL_LGAMMA_POS(double, 8.673617379884035e-19lf, 1.152921504606847e18lf)        // 2^-60, 2^60
#undef AMP_PM_SPECIAL_LGAMMA_POS

// lgamma: +inf for +-0, +-inf and negative integers (every float past -2^23, double past
// -2^52), NaN for NaN; positive x above; negative x by the reflection lgamma(x) = log(pi)
// - log|x sin(pi x)| - lgamma(|x|), the product and its log as pairs. Between the first
// negative zeros (-2.4570 ...) and about -23 (-10 float) the difference cancels: CUDA's
// bound leaves that stretch out, and so does ampvk's (docs/math.md, note 3).
#define AMP_PM_LGAMMA(T, TINY, INF, LNPI, LNPIR)                                                   \
    T precise_math_lgamma(T x)                                                                     \
    {                                                                                              \
        T a = abs(x);                                                                              \
        if (isnan(x)) return x;                                                                    \
        if (isinf(x) || a == T(0) || (x < T(0) && x == floor(x))) return INF;                      \
        T r = amp_pm_special_lgamma_pos(a);                                                        \
        if (x > T(0) || a < TINY) return r;                                                        \
        T p, pe, lh, ll, u, ue;                                                                    \
        amp_pm_two_prod(a, abs(amp_pm_special_sinpi(x)), p, pe);                                   \
        amp_pm_log_hilo(p, lh, ll);                                                                \
        amp_pm_two_sum(LNPI, -lh, u, ue);                                                          \
        precise T v = (u - r) + ((ue + LNPIR) - (ll + pe / p));                                    \
        return v;                                                                                  \
    }
AMP_PM_LGAMMA(float, 9.31322575e-10, uintBitsToFloat(0x7f800000u), 1.14472985, 3.317300857e-08)
AMP_PM_LGAMMA(double, 8.673617379884035e-19lf, packDouble2x32(uvec2(0u, 0x7ff00000u)), 1.1447298858494002lf,
              1.0265951162707826e-17lf)
#undef AMP_PM_LGAMMA
AMP_PM_FORMS1(lgamma)
#endif

#endif
