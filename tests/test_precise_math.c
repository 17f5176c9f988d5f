/* precise_math in kernels (shaders/ampvk/precise_math.glsl) against the host's long
 * double libm: every case of tests/precise/<family>.h in float and double, on random
 * inputs over the whole line (random bit patterns), random inputs in the function's
 * main interval (uniform and log-uniform), and special values (zeros, infinities, NaN,
 * subnormals, the extremes, each case's hard cases). The error of a result is
 * |result - exact| in units of the last place of the exact value in the result's type;
 * bound 0 means bit-exact (the sign of zero included). On a device that flushes
 * subnormals (found by a probe), an input or result below the normal range may also
 * be taken as a zero.
 *
 *   test_precise_math [--n N] [--only name,name] [--type float|double] [--table FILE]
 *                     [--exhaustive]
 *
 * --n: random inputs per case and type (default 8192; the full run uses 1048576);
 * --only: the cases whose name (up to a space) is listed; --table: writes a Markdown
 * table of the worst error per case and type (docs/math.md's); --exhaustive: the float
 * cases of one argument on every one of the 2^32 float bit patterns instead (checked
 * over all host cores: minutes per case on a GPU host). Exit 1 when a bound is broken. */
#include <pthread.h>
#include <unistd.h>

#include <float.h>
#include <math.h>

#include "test.h"
#include "test_device.h"

#include "precise/harness.h"
#include "precise/exact.h"
#include "precise/exp.h"
#include "precise/trig.h"
#include "precise/hyp.h"
#include "precise/special.h"

static const pm_family families[] = {PM_FAMILY("exact", pm_cases_exact), PM_FAMILY("exp", pm_cases_exp),
                                     PM_FAMILY("trig", pm_cases_trig), PM_FAMILY("hyp", pm_cases_hyp),
                                     PM_FAMILY("special", pm_cases_special)};

/* The two types: digits, exponent range, and their conversions. */
typedef struct pm_type {
    const char *glsl;
    amp_type type;
    size_t size;
    int digits, min_exp, max_exp; /* as <float.h>: 24, -125, 128 */
    bool flushes;                 /* the device flushes subnormals (probed) */
} pm_type;
static pm_type types[2] = {{"float", AMP_FLOAT, 4, FLT_MANT_DIG, FLT_MIN_EXP, FLT_MAX_EXP, false},
                           {"double", AMP_DOUBLE, 8, DBL_MANT_DIG, DBL_MIN_EXP, DBL_MAX_EXP, false}};

static long double to_type(const pm_type *t, long double x) { return t->size == 4 ? (float)x : (double)x; }
static long double get(const pm_type *t, const void *p, size_t i)
{
    return t->size == 4 ? ((const float *)p)[i] : ((const double *)p)[i];
}
static void put(const pm_type *t, void *p, size_t i, long double x)
{
    if (t->size == 4) ((float *)p)[i] = (float)x;
    else ((double *)p)[i] = (double)x;
}
static long double min_normal(const pm_type *t) { return ldexpl(1, t->min_exp - 1); }

/* A uniformly random bit pattern of the type: every finite value, infinities, NaNs. */
static long double random_bits(const pm_type *t)
{
    uint64_t b = (uint64_t)test_rand() << 32 | test_rand();
    if (t->size == 4) {
        float f;
        uint32_t u = (uint32_t)b;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static double uniform01(void) { return (test_rand() >> 8) * 0x1p-24 + (test_rand() >> 8) * 0x1p-48; }

/* A random value in [lo, hi]: uniform, or (half the time) with a log-uniform magnitude
 * (random exponent from the smallest subnormal to hi's, random digits); the whole line
 * when lo = hi = 0. */
static long double random_in(const pm_type *t, double lo, double hi)
{
    if (lo == 0 && hi == 0) return random_bits(t);
    for (int tries = 0; tries < 64; tries++) {
        long double x;
        if (test_rand() & 1) {
            x = to_type(t, lo + (hi - lo) * uniform01());
        } else {
            long double big = fmaxl(fabsl(lo), fabsl(hi));
            int emax = ilogbl(big) + 1, emin = t->min_exp - t->digits;
            int e = emin + (int)(test_rand() % (uint32_t)(emax - emin + 1));
            x = to_type(t, ldexpl(1 + uniform01(), e - 1));
            if ((test_rand() & 2) && lo < 0) x = -x;
        }
        if (x >= lo && x <= hi) return x;
    }
    return to_type(t, lo);
}

/* Values every case gets, besides its own. */
static long double common_special(const pm_type *t, int i)
{
    long double sub = ldexpl(1, t->min_exp - t->digits), maxv = t->size == 4 ? FLT_MAX : DBL_MAX;
    const long double v[] = {0.0L, -0.0L, INFINITY, -INFINITY, NAN, 1, -1, 0.5L, -0.5L, 2, -2, 3, -3, 10, -10,
                             sub, -sub, min_normal(t), -min_normal(t), min_normal(t) - sub, maxv, -maxv, 0.1L, 100};
    int n = (int)(sizeof v / sizeof *v);
    return i < n ? to_type(t, v[i]) : NAN;
}
enum { COMMON_SPECIALS = 24 };

/* Units in the last place of x in the type (subnormals: the smallest subnormal). */
static long double ulp_of(const pm_type *t, long double x)
{
    int e = x == 0 || !isfinite(x) ? t->min_exp - 1 : ilogbl(x);
    if (e < t->min_exp - 1) e = t->min_exp - 1;
    return ldexpl(1, e - (t->digits - 1));
}

/* The error of got against the exact value want, in ulps (INFINITY: wrong kind of
 * value). Bound 0: the bits must match. */
static long double error_of(const pm_type *t, long double got, long double want, double bound)
{
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got) ? 0 : INFINITY;
    long double rounded = to_type(t, want);
    if (bound == 0 || isinf(rounded) || want == 0)
        return got == rounded && signbit(got) == signbit(rounded) ? 0 : INFINITY;
    if (isinf(got)) return INFINITY;
    return fabsl(got - want) / ulp_of(t, want);
}

typedef struct pm_inputs {
    size_t n;
    void *a, *b, *c, *r;
    int *k;
} pm_inputs;

/* Fills n inputs: the specials (crossed for two arguments), then random ones. */
static size_t fill_inputs(const pm_type *t, const pm_case *c, pm_inputs *in, size_t random_n)
{
    size_t ns = (size_t)(COMMON_SPECIALS + c->nspecial), i = 0;
    size_t specials = c->args >= 2 ? ns * ns : ns;
    in->n = specials + random_n;
    in->a = calloc(in->n, t->size);
    in->b = calloc(in->n, t->size);
    in->c = calloc(in->n, t->size);
    in->r = calloc(in->n, t->size);
    in->k = calloc(in->n, sizeof(int));
    if (!in->a || !in->b || !in->c || !in->r || !in->k) return 0;
    double lo_b = c->lo_b == 0 && c->hi_b == 0 ? c->lo : c->lo_b, hi_b = c->lo_b == 0 && c->hi_b == 0 ? c->hi : c->hi_b;
    for (size_t s = 0; s < specials; s++, i++) {
        size_t sa = c->args >= 2 ? s / ns : s, sb = c->args >= 2 ? s % ns : s;
        long double va = sa < COMMON_SPECIALS ? common_special(t, (int)sa) : to_type(t, c->special[sa - COMMON_SPECIALS]);
        long double vb = sb < COMMON_SPECIALS ? common_special(t, (int)sb) : to_type(t, c->special[sb - COMMON_SPECIALS]);
        put(t, in->a, i, va);
        put(t, in->b, i, vb);
        put(t, in->c, i, random_in(t, c->lo, c->hi));
        in->k[i] = c->int_lo + (int)(test_rand() % (uint32_t)(c->int_hi - c->int_lo + 1));
    }
    for (; i < in->n; i++) {
        /* a quarter of the random inputs from the whole line, the rest from the interval */
        bool whole = (test_rand() & 3) == 0;
        put(t, in->a, i, whole ? random_bits(t) : random_in(t, c->lo, c->hi));
        put(t, in->b, i, whole && (test_rand() & 1) ? random_bits(t) : random_in(t, lo_b, hi_b));
        put(t, in->c, i, random_in(t, c->lo, c->hi));
        in->k[i] = c->int_lo + (int)(test_rand() % (uint32_t)(c->int_hi - c->int_lo + 1));
    }
    return in->n;
}

static void free_inputs(pm_inputs *in)
{
    free(in->a);
    free(in->b);
    free(in->c);
    free(in->r);
    free(in->k);
}

/* Runs the case's body over the inputs on the device; false (and a failed check) if
 * the kernel does not compile or run. */
static bool run_kernel(amp_accelerator_view *v, const pm_type *t, const char *body, pm_inputs *in)
{
    char decl[64], code[1024];
    snprintf(decl, sizeof decl, "#define T %s\n", t->glsl);
    snprintf(code, sizeof code, "T a = A(idx), b = B(idx), c = C(idx); int k = K(idx); T r = T(0);\n%s\nR(idx) = r;",
             body);
    amp_kernel *kern = amp_kernel_create(
        v, &(amp_kernel_desc){.params = "array_view<const T, 1> A, array_view<const T, 1> B, "
                                        "array_view<const T, 1> C, array_view<const int, 1> K, array_view<T, 1> R",
                              .declarations = decl, .body = code});
    amp_extent e = amp_extent1((int)in->n);
    amp_array_view *a = amp_array_view_create(e, t->type, 0, in->a), *b = amp_array_view_create(e, t->type, 0, in->b),
                   *c = amp_array_view_create(e, t->type, 0, in->c), *k = amp_array_view_create(e, AMP_INT, 0, in->k),
                   *r = amp_array_view_create(e, t->type, 0, in->r);
    bool ok = kern && a && b && c && k && r;
    REQUIRE(ok);
    if (ok) {
        REQUIRE_OK(amp_parallel_for_each(v, e, kern,
                                         AMP_ARGS(AMP_VIEW("A", a), AMP_VIEW("B", b), AMP_VIEW("C", c),
                                                  AMP_VIEW("K", k), AMP_VIEW("R", r))));
        REQUIRE_OK(amp_array_view_synchronize(r));
    }
    if (!ok) fprintf(stderr, "    %s: %s\n", body, amp_last_error());
    amp_kernel_destroy(&kern);
    amp_array_view_destroy(&a);
    amp_array_view_destroy(&b);
    amp_array_view_destroy(&c);
    amp_array_view_destroy(&k);
    amp_array_view_destroy(&r);
    return ok;
}

/* The worst error of a case in one type, and where. */
typedef struct pm_result {
    bool ran;
    long double worst, at[3];
    int at_k;
    size_t n, broken, skipped;
} pm_result;

/* The error of input i, also trying each subnormal input and result as a zero where
 * the device flushes them. */
static long double case_error(const pm_type *t, const pm_case *c, const pm_inputs *in, size_t i, long double *x)
{
    long double got = get(t, in->r, i);
    x[0] = get(t, in->a, i);
    x[1] = get(t, in->b, i);
    x[2] = get(t, in->c, i);
    double bound = c->ulp[t->size == 4 ? 0 : 1];
    pm_ref ref = t->size == 4 && c->ref_f ? c->ref_f : c->ref;
    long double err = error_of(t, got, ref(x, in->k[i]), bound);
    if (err <= bound || !t->flushes) return err;
    /* a flushing device: subnormal inputs may be read as zeros, and a subnormal result
     * (or zero) stands for any value below the normal range (of either sign) */
    long double fx[3];
    for (int j = 0; j < 3; j++) fx[j] = fabsl(x[j]) < min_normal(t) ? copysignl(0, x[j]) : x[j];
    long double want = ref(fx, in->k[i]), e2 = error_of(t, got, want, bound);
    bool tiny_got = fabsl(got) < min_normal(t);
    if (tiny_got && fabsl(to_type(t, want)) < min_normal(t)) e2 = 0;
    if (tiny_got && fabsl(to_type(t, ref(x, in->k[i]))) < min_normal(t)) e2 = 0;
    return fminl(err, e2);
}

/* Checks results [from, to) of the inputs into res (worst, where, broken, skipped). */
static void check_results(const pm_type *t, const pm_case *c, const pm_inputs *in, size_t from, size_t to,
                          pm_result *res)
{
    double bound = c->ulp[t->size == 4 ? 0 : 1];
    for (size_t i = from; i < to; i++) {
        long double x[3];
        long double err = case_error(t, c, in, i, x);
        if (c->skip && c->skip(x, in->k[i], t->size == 4)) {
            res->skipped++;
            continue;
        }
        if (err > bound) res->broken++;
        if (err > res->worst || (i == from && err == 0 && res->worst == 0)) {
            res->worst = err;
            memcpy(res->at, x, sizeof x);
            res->at_k = in->k[i];
        }
    }
}

/* Adds part's counts and (if worse) its worst error to res. */
static void merge_result(pm_result *res, const pm_result *part)
{
    res->broken += part->broken;
    res->skipped += part->skipped;
    if (part->worst > res->worst) {
        res->worst = part->worst;
        memcpy(res->at, part->at, sizeof res->at);
        res->at_k = part->at_k;
    }
}

static pm_result run_case(amp_accelerator_view *v, const pm_type *t, const pm_case *c, size_t random_n)
{
    pm_result res = {0};
    pm_inputs in = {0};
    if (fill_inputs(t, c, &in, random_n) == 0) {
        REQUIRE(!"out of host memory");
        free_inputs(&in);
        return res;
    }
    res.ran = run_kernel(v, t, c->body, &in);
    res.n = in.n;
    if (res.ran) check_results(t, c, &in, 0, in.n, &res);
    free_inputs(&in);
    return res;
}

/* One host thread's share of a chunk of the exhaustive run. */
typedef struct pm_share {
    const pm_type *t;
    const pm_case *c;
    const pm_inputs *in;
    size_t from, to;
    pm_result res;
} pm_share;

static void *check_share(void *p)
{
    pm_share *s = p;
    check_results(s->t, s->c, s->in, s->from, s->to, &s->res);
    return NULL;
}

/* A float case of one argument on all 2^32 bit patterns, 2^24 to a kernel run, the
 * results checked over the host's cores. */
static pm_result run_exhaustive(amp_accelerator_view *v, const pm_type *t, const pm_case *c)
{
    enum { CHUNK = 1 << 24, MAX_THREADS = 64 };
    pm_result res = {0};
    pm_inputs in = {.n = CHUNK};
    in.a = calloc(CHUNK, 4);
    in.b = calloc(CHUNK, 4);
    in.c = calloc(CHUNK, 4);
    in.r = calloc(CHUNK, 4);
    in.k = calloc(CHUNK, sizeof(int));
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
    res.ran = in.a && in.b && in.c && in.r && in.k;
    REQUIRE(res.ran);
    for (uint64_t base = 0; res.ran && base < (uint64_t)1 << 32; base += CHUNK) {
        for (uint32_t i = 0; i < CHUNK; i++) ((uint32_t *)in.a)[i] = (uint32_t)base + i;
        if (!(res.ran = run_kernel(v, t, c->body, &in))) break;
        pthread_t th[MAX_THREADS];
        pm_share share[MAX_THREADS];
        bool started[MAX_THREADS] = {false};
        for (int i = 0; i < threads; i++)
            share[i] = (pm_share){t, c, &in, (size_t)CHUNK * i / threads, (size_t)CHUNK * (i + 1) / threads, {0}};
        for (int i = 1; i < threads; i++) started[i] = pthread_create(&th[i], NULL, check_share, &share[i]) == 0;
        check_share(&share[0]);
        for (int i = 1; i < threads; i++) {
            if (started[i]) pthread_join(th[i], NULL);
            else check_share(&share[i]); /* no thread: checked here */
            merge_result(&res, &share[i].res);
        }
        merge_result(&res, &share[0].res);
        res.n += CHUNK;
    }
    free_inputs(&in);
    return res;
}

static void print_result(const pm_type *t, const pm_case *c, const pm_result *r)
{
    double bound = c->ulp[t->size == 4 ? 0 : 1];
    printf("  %-22s %-6s n=%-8zu worst %8.3Lf ulp (bound %g) at a=%La", c->name, t->glsl, r->n, r->worst, bound,
           r->at[0]);
    if (c->args >= 2) printf(" b=%La", r->at[1]);
    if (c->args >= 3) printf(" c=%La", r->at[2]);
    if (c->int_arg) printf(" k=%d", r->at_k);
    if (r->skipped) printf(" (%zu inputs outside the bound's domain)", r->skipped);
    printf("%s\n", r->broken ? "  BROKEN" : "");
    if (r->broken)
        fprintf(stderr, "%s %s: %zu of %zu results beyond %g ulp; worst %.3Lf ulp at a=%La b=%La\n", c->name,
                t->glsl, r->broken, r->n, bound, r->worst, r->at[0], r->at[1]);
}

/* True if the case is in the --only list (matching the name up to a space). */
static bool selected(const char *only, const char *name)
{
    if (!only) return true;
    size_t n = strcspn(name, " ");
    for (const char *p = only; *p;) {
        size_t m = strcspn(p, ",");
        if (m == n && strncmp(p, name, n) == 0) return true;
        p += m + (p[m] == ',');
    }
    return false;
}

static void table_row(FILE *f, const pm_case *c, const pm_result *r)
{
    fprintf(f, "| %s |", c->name);
    for (int j = 0; j < 2; j++) {
        if (!r[j].ran) fprintf(f, " - |");
        else if (r[j].worst == 0) fprintf(f, " 0 (exact) |");
        else fprintf(f, " %.3Lf at %La |", r[j].worst, r[j].at[0]);
    }
    fprintf(f, " %g / %g |\n", c->ulp[0], c->ulp[1]);
}

/* A kernel that uses double on a device without shaderFloat64 (here: a view of the
 * test's own device that says it was made without it) fails to compile, naming the
 * device and the feature; a float-only precise_math kernel still works there. */
static void double_needs_the_feature(void)
{
    test_device td;
    if (!test_device_open(&td)) {
        fprintf(stderr, "note: no device of the test's own; the shaderFloat64 check is skipped\n");
        return;
    }
    VkPhysicalDeviceFeatures2 without = td.enabled;
    without.features.shaderFloat64 = VK_FALSE;
    amp_vulkan_device_desc desc = test_device_desc(&td);
    desc.enabled_features = &without;
    amp_accelerator_view *v = amp_view_create_external(&desc);
    REQUIRE(v);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(td.physical, &props);
    const char *params = "array_view<float, 1> x";
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.name = "uses_double", .params = params,
                                                               .body = "x(idx) = float(precise_math_sqrt(double(x(idx))));"}),
                      AMP_ERROR_UNSUPPORTED, "uses double (SPIR-V Float64), which needs shaderFloat64");
    REQUIRE(strstr(amp_last_error(), props.deviceName) && strstr(amp_last_error(), "\"uses_double\""));
    float x[4] = {1, 2, 3, 4};
    amp_array_view *xv = amp_array_view_create(amp_extent1(4), AMP_FLOAT, 0, x);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = params, .body = "x(idx) = precise_math_sqrt(x(idx));"});
    REQUIRE(k && xv);
    if (k && xv) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(4), k, AMP_ARGS(AMP_VIEW("x", xv))));
        REQUIRE_OK(amp_array_view_synchronize(xv));
        REQUIRE(x[3] == 2.0f && x[0] == 1.0f);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
    REQUIRE_OK(amp_view_destroy(&v));
    test_device_close(&td);
}

/* The example of docs/math.md: fast_math and precise_math in one kernel. */
static void docs_example(amp_accelerator_view *v)
{
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_view_accelerator(v), &info));
    if (!info.supports_double_precision) return;
    enum { N = 5 };
    double x[N] = {0.5, 1, 2.5, 10, 0.001}, y[N];
    float quick[N];
    amp_array_view *xv = amp_array_view_create(amp_extent1(N), AMP_DOUBLE, 0, x);
    amp_array_view *yv = amp_array_view_create(amp_extent1(N), AMP_DOUBLE, 0, y);
    amp_array_view *qv = amp_array_view_create(amp_extent1(N), AMP_FLOAT, 0, quick);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<const double, 1> x, array_view<double, 1> y, array_view<float, 1> quick",
        .body = "double v = x(idx);\n"
                "quick(idx) = fast_math_exp(float(v));                      // GLSL's exp: fast, loose\n"
                "y(idx) = precise_math_log1p(precise_math_expm1(v))         // each within 1 ulp\n"
                "       + precise_math_pow(v, 1.5lf) * precise_math_atan2(v, 2.0lf);"});
    REQUIRE(xv && yv && qv && k);
    if (k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", xv), AMP_VIEW("y", yv),
                                                                        AMP_VIEW("quick", qv))));
        REQUIRE_OK(amp_array_view_synchronize(yv));
        REQUIRE_OK(amp_array_view_synchronize(qv));
        for (int i = 0; i < N; i++) {
            long double xl = x[i], want = log1pl(expm1l(xl)) + powl(xl, 1.5L) * atan2l(xl, 2.0L);
            REQUIRE(fabsl(y[i] - want) <= 4 * DBL_EPSILON * fabsl(want));
            REQUIRE(fabsf(quick[i] - expf((float)x[i])) <= 1e-3f * expf((float)x[i]));
        }
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
    amp_array_view_destroy(&yv);
    amp_array_view_destroy(&qv);
}

/* The vector and f-suffixed forms give each component the scalar function's bits: one
 * function of each generated family (one argument: cbrt, lgamma; two: hypot), float_2..4,
 * the f names and double_2..4, checked inside a kernel (bit i of the result: a mismatch). */
static void vector_forms(amp_accelerator_view *v, bool dbl)
{
    float x[8] = {0.3f, -2.5f, 7.0f, 1e-3f, 1.5f, -0.25f, 3.0f, 100.0f};
    uint32_t bad[1] = {~0u};
    char body[2048];
    snprintf(body, sizeof body,
             "%s a = %s(x(0), x(1), x(2), x(3)), b = %s(x(4), x(5), x(6), x(7));\n"
             "uint bad = 0u;\n"
             "%s c4 = precise_math_cbrt%s(a), g4 = precise_math_lgamma%s(a), h4 = precise_math_hypot%s(a, b);\n"
             "%s c3 = precise_math_cbrt%s(a.xyz), g3 = precise_math_lgamma(a.xyz), h3 = precise_math_hypot(a.xyz, b.xyz);\n"
             "%s c2 = precise_math_cbrt(a.xy), g2 = precise_math_lgamma%s(a.xy), h2 = precise_math_hypot%s(a.xy, b.xy);\n"
             "for (int i = 0; i < 4; i++) {\n"
             "    %s c = precise_math_cbrt(a[i]), g = precise_math_lgamma(a[i]), h = precise_math_hypot(a[i], b[i]);\n"
             "    if (c4[i] != c || g4[i] != g || h4[i] != h) bad |= 1u << i;\n"
             "    if (i < 3 && (c3[i] != c || g3[i] != g || h3[i] != h)) bad |= 16u << i;\n"
             "    if (i < 2 && (c2[i] != c || g2[i] != g || h2[i] != h)) bad |= 256u << i;\n"
             "%s"
             "}\n"
             "r(0) = bad;",
             dbl ? "dvec4" : "vec4", dbl ? "dvec4" : "vec4", dbl ? "dvec4" : "vec4", dbl ? "dvec4" : "vec4",
             dbl ? "" : "f", dbl ? "" : "f", dbl ? "" : "f", dbl ? "dvec3" : "vec3", dbl ? "" : "f",
             dbl ? "dvec2" : "vec2", dbl ? "" : "f", dbl ? "" : "f", dbl ? "double" : "float",
             dbl ? "" : "    if (precise_math_cbrtf(a[i]) != c || precise_math_lgammaf(a[i]) != g ||\n"
                        "        precise_math_hypotf(a[i], b[i]) != h) bad |= 4096u << i;\n");
    amp_array_view *xv = amp_array_view_create(amp_extent1(8), AMP_FLOAT, 0, x);
    amp_array_view *rv = amp_array_view_create(amp_extent1(1), AMP_UINT, 0, bad);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = dbl ? "forms double" : "forms float",
                                                             .params = "array_view<const float, 1> x, array_view<uint, 1> r",
                                                             .body = body});
    REQUIRE(xv && rv && k);
    if (xv && rv && k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k, AMP_ARGS(AMP_VIEW("x", xv), AMP_VIEW("r", rv))));
        REQUIRE_OK(amp_array_view_synchronize(rv));
        REQUIRE(bad[0] == 0);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
    amp_array_view_destroy(&rv);
}

int main(int argc, char **argv)
{
    size_t n = 8192;
    const char *only = NULL, *table = NULL;
    int type_mask = PM_BOTH;
    bool exhaustive = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--exhaustive") == 0) {
            exhaustive = true;
            continue;
        }
        const char *option = argv[i], *value = i + 1 < argc ? argv[++i] : NULL;
        bool known = strcmp(option, "--n") == 0 || strcmp(option, "--only") == 0 || strcmp(option, "--table") == 0 ||
                     strcmp(option, "--type") == 0;
        if (!known || !value) {
            fprintf(stderr, "test_precise_math: %s %s (the file's comment says what it takes)\n",
                    known ? "no value after" : "unknown option", option);
            return 2;
        }
        if (strcmp(option, "--n") == 0) n = strtoull(value, NULL, 10);
        else if (strcmp(option, "--only") == 0) only = value;
        else if (strcmp(option, "--table") == 0) table = value;
        else type_mask = strcmp(value, "float") == 0 ? PM_FLOAT : PM_DOUBLE;
    }
    if (exhaustive) type_mask &= PM_FLOAT;
    test_begin();
    amp_accelerator_view *v = test_view();
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_view_accelerator(v), &info));
    if (!info.supports_double_precision) type_mask &= PM_FLOAT;
    for (int j = 0; j < 2; j++)
        if (type_mask & (1 << j)) types[j].flushes = test_flushes_subnormals(v, types[j].type);
    printf("precise_math on %s (float subnormals %s, double subnormals %s), %s\n", info.description,
           types[0].flushes ? "flushed" : "kept", types[1].flushes ? "flushed" : "kept",
           exhaustive ? "every float input" : "random inputs");
    if (!only && !exhaustive) {
        double_needs_the_feature();
        if (type_mask & PM_FLOAT) {
            docs_example(v);
            vector_forms(v, false);
        }
        if (type_mask & PM_DOUBLE) vector_forms(v, true);
    }
    FILE *tf = table ? fopen(table, "w") : NULL;
    if (tf) fprintf(tf, "| function | float: worst ulp, at | double: worst ulp, at | bound (float / double) |\n"
                        "|---|---|---|---|\n");
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        for (int i = 0; i < families[f].count; i++) {
            const pm_case *c = &families[f].cases[i];
            if (!c->name || !selected(only, c->name)) continue;
            pm_result r[2] = {{0}};
            for (int j = 0; j < 2; j++) {
                int want = c->types ? c->types : PM_BOTH;
                if (!(want & type_mask & (1 << j))) continue;
                if (exhaustive && (c->args != 1 || c->int_arg)) continue;
                r[j] = exhaustive ? run_exhaustive(v, &types[j], c) : run_case(v, &types[j], c, n);
                if (r[j].ran) print_result(&types[j], c, &r[j]);
                fflush(stdout); /* each case's line as it ends (an exhaustive run takes minutes) */
                REQUIRE(r[j].broken == 0);
            }
            if (tf) table_row(tf, c, r);
        }
    if (tf) fclose(tf);
    return test_end();
}
