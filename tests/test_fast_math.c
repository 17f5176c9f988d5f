/* fast_math in kernels (shaders/ampvk/fast_math.glsl): the C++ AMP overview's log10
 * example, and every function against the host's libm on ordinary and special
 * inputs. Exact where Vulkan makes the built-in exact (floor, ceil, trunc, round,
 * fabs, fmin, fmax, frexp, ldexp, modf, the classifications, signbit; fmod on
 * inputs whose quotient is exact); elsewhere within the looser of Vulkan's bounds
 * (docs/math.md) and a relative 2^-9, an absolute 2^-11 where Vulkan bounds only
 * the absolute error (sin, cos, and what is built on them). A kernel that does not
 * name fast_math_ does not compile the library (its names are unknown there). */
#include <math.h>

#include "test.h"

/* The overview's MathExample: logs[idx] = fast_math::log10(numbers[idx]) on doubles. */
static void overview_log10(amp_accelerator_view *v)
{
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_view_accelerator(v), &info));
    if (!info.supports_double_precision) {
        fprintf(stderr, "note: no double precision here; the overview's log10 example is skipped\n");
        return;
    }
    double numbers[] = {1.0, 10.0, 60.0, 100.0, 600.0, 1000.0};
    amp_array_view *logs = amp_array_view_create(amp_extent1(6), AMP_DOUBLE, 0, numbers);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<double, 1> logs",
                                                            .body = "logs(idx) = fast_math_log10(float(logs(idx)));"});
    REQUIRE(logs && k);
    if (k) REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(6), k, AMP_ARGS(AMP_VIEW("logs", logs))));
    REQUIRE_OK(amp_array_view_synchronize(logs));
    const double want[] = {0, 1, 1.7781512503836436, 2, 2.7781512503836436, 3};
    for (int i = 0; i < 6; i++) REQUIRE(fabs(numbers[i] - want[i]) <= 4e-7 * (1 + want[i]));
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&logs);
}

enum { N = 24 };
/* x and y inputs: ordinary values, both signs, halfway cases, zeros, infinities, NaN */
static const float xs[N] = {0.5f, -0.5f, 1.0f, 2.5f, -2.5f, 0.75f, 3.0f, -7.25f, 10.0f, 1e-3f, 123.456f, -0.0f,
                            0.0f, 0.999f, 1.5f, -1.5f, 100.0f, 0.1f, 0.3f, -0.9f, INFINITY, -INFINITY, NAN, 5.5f};
static const float ys[N] = {2.0f, 3.0f, -1.5f, 0.5f, 2.0f, 0.25f, -2.0f, 1.5f, 3.0f, 7.0f, 0.5f, 2.0f,
                            -1.0f, 0.3f, 2.0f, 1.0f, 0.5f, 4.0f, -0.7f, 0.2f, 1.0f, 2.0f, 1.0f, 2.0f};

typedef enum { EXACT, REL, ABS } kind;
typedef struct fn {
    const char *expr;         /* GLSL over x, y giving a float */
    double (*one)(double);    /* the host's, or */
    double (*two)(double, double);
    kind k;
    double lo, hi;            /* the inputs x (and y) are checked in; others are only run */
} fn;

static double h_fabs(double x) { return fabs(x); }
static double h_round(double x) { return round(x); }
static double h_rsqrt(double x) { return 1 / sqrt(x); }
static double h_isinf(double x) { return isinf(x) ? 1 : 0; }
static double h_isnan(double x) { return isnan(x) ? 1 : 0; }
static double h_isfinite(double x) { return isfinite(x) ? 1 : 0; }
static double h_signbit(double x) { return signbit(x) ? 1 : 0; }
static double h_frexp_m(double x) { int e; return frexp(x, &e); }
static double h_frexp_e(double x) { int e; frexp(x, &e); return e; }
static double h_ldexp(double x) { return ldexp(x, 3); }
static double h_modf_f(double x) { double ip; return modf(x, &ip); }
static double h_modf_i(double x) { double ip; modf(x, &ip); return ip; }
static double h_sincos(double x) { return sin(x) + 2 * cos(x); }
static double h_fmin(double x, double y) { return fmin(x, y); }
static double h_fmax(double x, double y) { return fmax(x, y); }

#define B 1e30
static const fn fns[] = {
    {"fast_math_acos(x)", acos, NULL, REL, -1, 1},
    {"fast_math_asin(x)", asin, NULL, REL, -1, 1},
    {"fast_math_atan(x)", atan, NULL, REL, -B, B},
    {"fast_math_atan2(x, y)", NULL, atan2, REL, -B, B},
    {"fast_math_ceil(x)", ceil, NULL, EXACT, -B, B},
    {"fast_math_cos(x)", cos, NULL, ABS, -3.14, 3.14},
    {"fast_math_cosh(x)", cosh, NULL, REL, -10, 10},
    {"fast_math_exp(x)", exp, NULL, REL, -80, 80},
    {"fast_math_exp2(x)", exp2, NULL, REL, -120, 120},
    {"fast_math_fabs(x)", h_fabs, NULL, EXACT, -B, B},
    {"fast_math_floor(x)", floor, NULL, EXACT, -B, B},
    {"fast_math_fmax(x, y)", NULL, h_fmax, EXACT, -B, B},
    {"fast_math_fmin(x, y)", NULL, h_fmin, EXACT, -B, B},
    {"fast_math_fmod(x, y)", NULL, fmod, REL, -1000, 1000},
    {"float(fast_math_isfinite(x))", h_isfinite, NULL, EXACT, -INFINITY, INFINITY},
    {"float(fast_math_isinf(x))", h_isinf, NULL, EXACT, -INFINITY, INFINITY},
    {"float(fast_math_isnan(x))", h_isnan, NULL, EXACT, -INFINITY, INFINITY},
    {"fast_math_log(x)", log, NULL, REL, 1e-30, B},
    {"fast_math_log10(x)", log10, NULL, REL, 1e-30, B},
    {"fast_math_log2(x)", log2, NULL, REL, 1e-30, B},
    {"fast_math_pow(x, y)", NULL, pow, REL, 1e-3, 1e3},
    {"fast_math_round(x)", h_round, NULL, EXACT, -B, B},
    {"fast_math_rsqrt(x)", h_rsqrt, NULL, REL, 1e-30, B},
    {"float(fast_math_signbit(x))", h_signbit, NULL, EXACT, -INFINITY, INFINITY},
    {"fast_math_sin(x)", sin, NULL, ABS, -3.14, 3.14},
    {"fast_math_sinh(x)", sinh, NULL, REL, -10, 10},
    {"fast_math_sqrt(x)", sqrt, NULL, REL, 0, B},
    {"fast_math_tan(x)", tan, NULL, ABS, -1.4, 1.4},
    {"fast_math_tanh(x)", tanh, NULL, ABS, -B, B},
    {"fast_math_trunc(x)", trunc, NULL, EXACT, -B, B},
    {"fast_math_frexp(x, e)", h_frexp_m, NULL, EXACT, -B, B},
    {"(fast_math_frexp(x, e), float(e))", h_frexp_e, NULL, EXACT, -B, B},
    {"fast_math_ldexp(x, 3)", h_ldexp, NULL, EXACT, -B, B},
    {"fast_math_modf(x, ip)", h_modf_f, NULL, EXACT, -B, B},
    {"(fast_math_modf(x, ip), ip)", h_modf_i, NULL, EXACT, -B, B},
    {"(fast_math_sincos(x, s, c), s + 2.0 * c)", h_sincos, NULL, ABS, -3.14, 3.14},
};
#define NF (int)(sizeof fns / sizeof fns[0])

/* Every function, one kernel: row f of the output is fns[f] over the inputs. */
static void all_functions(amp_accelerator_view *v)
{
    static char body[8192];
    int at = snprintf(body, sizeof body, "float x = a(idx.x), y = b(idx.x), ip, s, c; int e;\n");
    for (int f = 0; f < NF; f++)
        at += snprintf(body + at, sizeof body - (size_t)at, "o(index_2(%d, idx.x)) = %s;\n", f, fns[f].expr);
    float out[NF][N];
    amp_array_view *va = amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, 0, xs);
    amp_array_view *vb = amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, 0, ys);
    amp_array_view *vo = amp_array_view_create(amp_extent2(NF, N), AMP_FLOAT, 0, out);
    amp_kernel *k = amp_kernel_create(
        v, &(amp_kernel_desc){.params = "array_view<const float, 1> a, array_view<const float, 1> b, "
                                        "array_view<float, 2> o",
                              .body = body, .name = "fast_math"});
    REQUIRE(k);
    if (!k) fprintf(stderr, "%s\n", amp_last_error());
    if (k) REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb),
                                                                              AMP_VIEW("o", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    for (int f = 0; k && f < NF; f++) {
        const fn *F = &fns[f];
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double x = xs[i], y = ys[i];
            if (!(x >= F->lo && x <= F->hi) || (F->two && !(y >= F->lo && y <= F->hi))) continue;
            double want = F->one ? F->one(x) : F->two(x, y), got = out[f][i];
            if (F->one == h_frexp_e && (isinf(x) || isnan(x))) continue; /* the exponent is undefined there */
            bool ok;
            if (isnan(want)) ok = isnan(got);
            else if (F->k == EXACT || isinf(want)) ok = got == (float)want && signbit(got) == signbit(want);
            else if (F->k == REL) ok = fabs(got - want) <= 0x1p-9 * fabs(want) + 1e-37;
            else ok = fabs(got - want) <= 0x1p-11 * (1 + fabs(want));
            if (!ok && bad++ < 3) fprintf(stderr, "%s with x = %g, y = %g: %.9g, want %.9g\n", F->expr, x, y, got, want);
        }
        REQUIRE_INT(bad, 0);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vo);
}

/* Vectors: the same functions on float_4 (vec4) lanes. */
static void vectors(amp_accelerator_view *v)
{
    float in[8] = {0.25f, -1.5f, 2.5f, 100.0f, -0.0f, INFINITY, 9.0f, 0.5f}, out[8];
    amp_array_view *vi = amp_array_view_create_const(amp_extent1(2), AMP_FLOAT_4, 0, in);
    amp_array_view *vo = amp_array_view_create(amp_extent1(2), AMP_FLOAT_4, 0, out);
    amp_kernel *k = amp_kernel_create(
        v, &(amp_kernel_desc){.params = "array_view<const float_4, 1> a, array_view<float_4, 1> o",
                              .body = "float_4 x = a(idx);\n"
                                      "o(idx) = idx.x == 0 ? fast_math_round(x) + fast_math_fabs(x) * 0.0\n"
                                      "                    : vec4(fast_math_isfinite(x)) + fast_math_sqrt(fast_math_fabs(x)) * 10.0;"});
    REQUIRE(k);
    if (k) REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(2), k, AMP_ARGS(AMP_VIEW("a", vi), AMP_VIEW("o", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    const float want[8] = {0, -2, 3, 100, 1, INFINITY, 31, 1 + 10 * sqrtf(0.5f)};
    for (int i = 0; i < 8; i++)
        if (i == 7) REQUIRE(fabsf(out[i] - want[i]) < 1e-5f);
        else REQUIRE(out[i] == want[i]);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vi);
    amp_array_view_destroy(&vo);
    /* the library is compiled only into kernels that name it */
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<float, 1> o",
                                                             .body = "o(idx) = fast_math_sqr(2.0);"}),
                      AMP_ERROR_COMPILE, "fast_math_sqr");
}

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    overview_log10(v);
    all_functions(v);
    vectors(v);
    return test_end();
}
