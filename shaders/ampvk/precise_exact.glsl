// ampvk kernel library, precise_math: fabs fmin fmax fdim copysign floor ceil trunc round nearbyint modf frexp ldexp scalbn scalb logb ilogb nextafter nan fma fmod remainder remquo fpclassify isfinite isinf isnan isnormal signbit sqrt rsqrt cbrt rcbrt hypot.
// Part of precise_math.glsl (read there how the parts fit); float and double.
#ifdef AMP_PM_NEEDS
// what the requested functions are built on (#define AMP_PM_<x>)
#else

#ifdef AMP_PM_fabs
float precise_math_fabs(float x) { return abs(x); }
double precise_math_fabs(double x) { return abs(x); }
AMP_PM_FORMS1(fabs)
#endif

#ifdef AMP_PM_sqrt
// Correctly rounded: the device's square root (Vulkan: as 1 / inversesqrt, not
// exact), then a neighbour where the exact residual r = x - y^2 (one fma) passes the
// midpoint: up when r > y * (up - y), down when r <= -y * (y - down) (r and those
// products are whole multiples of the square of y's ulp, so the midpoints' own squared
// half-ulps never decide). Tiny and huge inputs are scaled by an even power of two first.
float precise_math_sqrt(float x)
{
    float s = 1.0;
    if (x < 1.0e-30 && x > 0.0) {
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

#endif
