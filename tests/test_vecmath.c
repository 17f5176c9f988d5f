/* test_vecmath.c: the host short-vector library (vecmath/ampvk/vecmath.h).
 *
 * Every fact of the C++ AMP reference, section 5; every operator of every type through
 * the named function and the _Generic front-end, against an independent reference;
 * every swizzle in both spellings; traits; every conversion; exhaustive 8/16-bit
 * unorm/snorm codes and binary16 halves. Exit 0 on success; on failure prints each failed
 * expression with both values and exits 1.
 */
#include <ampvk/vecmath.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static long checks;

static void fail(const char *file, int line, const char *what, const char *got, const char *want) {
    if (++failures <= 50) fprintf(stderr, "%s:%d: FAILED %s\n    got:  %s\n    want: %s\n", file, line, what, got, want);
}
/* REQUIRE(cond): a plain condition. The checks are functions, so that the thousands of
 * generated checks stay small and fast to compile. */
static void check_true(int ok, const char *what, const char *file, int line) {
    ++checks;
    if (!ok) fail(file, line, what, "false", "true");
}
#define REQUIRE(cond) check_true(!!(cond), #cond, __FILE__, __LINE__)
/* REQUIRE_INT(a, b): integers equal (printed as long long). */
static void check_int(long long a, long long b, const char *what, const char *file, int line) {
    ++checks;
    if (a != b) {
        char g[64], w[64];
        snprintf(g, sizeof g, "%lld", a);
        snprintf(w, sizeof w, "%lld", b);
        fail(file, line, what, g, w);
    }
}
#define REQUIRE_INT(a, b) check_int((long long)(a), (long long)(b), #a " == " #b, __FILE__, __LINE__)
/* REQUIRE_BITS(a, b): two doubles (or floats) with the same bits (NaN == NaN, -0 != 0). */
static void check_bits(double a, double b, const char *what, const char *file, int line) {
    ++checks;
    if (memcmp(&a, &b, sizeof a) != 0) {
        char g[64], w[64];
        snprintf(g, sizeof g, "%.17g", a);
        snprintf(w, sizeof w, "%.17g", b);
        fail(file, line, what, g, w);
    }
}
#define REQUIRE_BITS(a, b) check_bits((double)(a), (double)(b), #a " == " #b, __FILE__, __LINE__)
/* REQUIRE_VEC(T, expr, lanes...): expr has exactly the lanes of T_make(lanes...). */
#define REQUIRE_VEC(T, expr, ...)                                                         \
    do {                                                                                  \
        T got_ = (expr), want_ = T##_make(__VA_ARGS__);                                   \
        ++checks;                                                                         \
        if (memcmp(&got_, &want_, sizeof got_) != 0) {                                    \
            char g_[200] = "", w_[200] = "";                                              \
            for (int i_ = 0; i_ < AMP_VECTOR_SIZE(got_); ++i_) {                          \
                snprintf(g_ + strlen(g_), 40, "%.9g ", (double)got_.v[i_]);               \
                snprintf(w_ + strlen(w_), 40, "%.9g ", (double)want_.v[i_]);              \
            }                                                                             \
            fail(__FILE__, __LINE__, #expr, g_, w_);                                      \
        }                                                                                 \
    } while (0)

/* Drivers for the generated checks (the library's own X-macro lists cannot be nested in
 * themselves, and the front-ends use them). */
#define TEST_VECTORS(X, ...)                                                              \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(uint, 2, __VA_ARGS__) X(uint, 3, __VA_ARGS__) X(uint, 4, __VA_ARGS__)               \
    X(float, 2, __VA_ARGS__) X(float, 3, __VA_ARGS__) X(float, 4, __VA_ARGS__)            \
    X(double, 2, __VA_ARGS__) X(double, 3, __VA_ARGS__) X(double, 4, __VA_ARGS__)         \
    X(norm, 2, __VA_ARGS__) X(norm, 3, __VA_ARGS__) X(norm, 4, __VA_ARGS__)               \
    X(unorm, 2, __VA_ARGS__) X(unorm, 3, __VA_ARGS__) X(unorm, 4, __VA_ARGS__)
#define TEST_INT_VECTORS(X, ...)                                                          \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(uint, 2, __VA_ARGS__) X(uint, 3, __VA_ARGS__) X(uint, 4, __VA_ARGS__)
#define TEST_NEG_VECTORS(X, ...)                                                          \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(float, 2, __VA_ARGS__) X(float, 3, __VA_ARGS__) X(float, 4, __VA_ARGS__)            \
    X(double, 2, __VA_ARGS__) X(double, 3, __VA_ARGS__) X(double, 4, __VA_ARGS__)         \
    X(norm, 2, __VA_ARGS__) X(norm, 3, __VA_ARGS__) X(norm, 4, __VA_ARGS__)
#define TEST_FAMILIES(X) X(int) X(uint) X(float) X(double) X(norm) X(unorm)

/* ---- Independent lane references ------------------------------------------------ */

static int wrap32(long long x) { /* x modulo 2^32 as int */
    unsigned long long u = (unsigned long long)x & 0xffffffffull;
    return u >= 0x80000000ull ? (int)((long long)u - 0x100000000ll) : (int)u;
}
static double ref_norm(double x) { return isnan(x) ? 0.0 : x > 1 ? 1.0 : x < -1 ? -1.0 : x == 0 ? 0.0 : x; }
static double ref_unorm(double x) { return isnan(x) ? 0.0 : x > 1 ? 1.0 : x <= 0 ? 0.0 : x; }

static long long ref_int(const char *op, long long a, long long b) {
    int s = (int)(b & 31);
    if (!strcmp(op, "add")) return wrap32(a + b);
    if (!strcmp(op, "sub")) return wrap32(a - b);
    if (!strcmp(op, "mul")) return wrap32(a * b);
    if (!strcmp(op, "div")) return b == 0 ? -1 : wrap32(a / b);
    if (!strcmp(op, "mod")) return b == 0 ? a : wrap32(a % b);
    if (!strcmp(op, "and")) return a & b;
    if (!strcmp(op, "or")) return a | b;
    if (!strcmp(op, "xor")) return a ^ b;
    if (!strcmp(op, "shl")) return wrap32(a * (1ll << s));
    if (!strcmp(op, "shr")) return (long long)floor((double)a / (double)(1ll << s));
    abort();
}
static long long ref_uint(const char *op, long long a, long long b) {
    unsigned long long ua = (unsigned long long)a & 0xffffffffull, ub = (unsigned long long)b & 0xffffffffull;
    unsigned long long m = 0xffffffffull;
    if (!strcmp(op, "add")) return (ua + ub) & m;
    if (!strcmp(op, "sub")) return (ua - ub) & m;
    if (!strcmp(op, "mul")) return (ua * ub) & m;
    if (!strcmp(op, "div")) return ub ? ua / ub : m;
    if (!strcmp(op, "mod")) return ub ? ua % ub : ua;
    if (!strcmp(op, "and")) return ua & ub;
    if (!strcmp(op, "or")) return ua | ub;
    if (!strcmp(op, "xor")) return ua ^ ub;
    if (!strcmp(op, "shl")) return (ua << (ub & 31)) & m;
    if (!strcmp(op, "shr")) return ua >> (ub & 31);
    abort();
}
static double ref_real(const char *op, double a, double b, int is_float) {
    double r;
    if (is_float) {
        float fa = (float)a, fb = (float)b;
        r = !strcmp(op, "add") ? fa + fb : !strcmp(op, "sub") ? fa - fb : !strcmp(op, "mul") ? fa * fb : fa / fb;
        return (float)r;
    }
    return !strcmp(op, "add") ? a + b : !strcmp(op, "sub") ? a - b : !strcmp(op, "mul") ? a * b : a / b;
}
static long long ref_lane_int(const char *op, long long a, long long b) { return ref_int(op, a, b); }
static long long ref_lane_uint(const char *op, long long a, long long b) { return ref_uint(op, a, b); }
static double ref_lane_float(const char *op, double a, double b) { return ref_real(op, a, b, 1); }
static double ref_lane_double(const char *op, double a, double b) { return ref_real(op, a, b, 0); }
static double ref_lane_norm(const char *op, double a, double b) { return (float)ref_norm(ref_real(op, a, b, 1)); }
static double ref_lane_unorm(const char *op, double a, double b) { return (float)ref_unorm(ref_real(op, a, b, 1)); }

/* Test data: lanes for a and b, per family (first N used); b includes division by 0,
 * INT_MIN / -1, shift counts out of range and negative, overflow to inf, clamping. */
static const int data_a_int[4] = {7, -7, INT_MIN, 123456789};
static const int data_b_int[4] = {2, 0, -1, -1000};
static const unsigned int data_a_uint[4] = {7u, 0xffffffffu, 0x80000000u, 5u};
static const unsigned int data_b_uint[4] = {2u, 0u, 33u, 0xffffffffu};
static const float data_a_float[4] = {1.5f, -2.25f, 3e38f, 0.1f};
static const float data_b_float[4] = {0.5f, 4.0f, 10.0f, -3.0f};
static const double data_a_double[4] = {1.5, -2.25, 1e308, 0.1};
static const double data_b_double[4] = {0.5, 4.0, 10.0, -3.0};
static const float data_a_norm[4] = {0.8f, -0.5f, 1.0f, -1.0f};
static const float data_b_norm[4] = {0.4f, 0.75f, -0.25f, 0.5f};
static const float data_a_unorm[4] = {1.0f, 0.25f, 0.5f, 0.0f};
static const float data_b_unorm[4] = {0.5f, 0.75f, 0.25f, 0.125f};
#define SCALAR_OF_int(x) (x)
#define SCALAR_OF_uint(x) (x)
#define SCALAR_OF_float(x) (x)
#define SCALAR_OF_double(x) (x)
#define SCALAR_OF_norm(x) norm_make(x)
#define SCALAR_OF_unorm(x) unorm_make(x)

/* Loads data into a vector through .v (the data is already in range). */
#define LOAD(F, N, var, arr)                                                              \
    F##_##N var;                                                                          \
    for (int i_ = 0; i_ < N; ++i_) var.v[i_] = arr[i_]

/* Checks T_op, T_ops, T_op_assign, T_ops_assign and the front-ends amp_op, amp_ops
 * against the reference lane by lane. */
#define CHECK_BINOP(F, N, op)                                                             \
    do {                                                                                  \
        LOAD(F, N, a, data_a_##F);                                                        \
        LOAD(F, N, b, data_b_##F);                                                        \
        F##_##N r1 = F##_##N##_##op(a, b), r2 = amp_##op(a, b);                           \
        F##_##N r3 = F##_##N##_##op##s(a, SCALAR_OF_##F(data_b_##F[1]));                  \
        F##_##N r4 = amp_##op##s(a, SCALAR_OF_##F(data_b_##F[1]));                        \
        F##_##N c1 = a, c2 = a;                                                           \
        F##_##N r5 = F##_##N##_##op##_assign(&c1, b);                                     \
        F##_##N##_##op##s_assign(&c2, SCALAR_OF_##F(data_b_##F[1]));                      \
        for (int i = 0; i < N; ++i) {                                                     \
            double w = (double)ref_lane_##F(#op, data_a_##F[i], data_b_##F[i]);           \
            double ws = (double)ref_lane_##F(#op, data_a_##F[i], data_b_##F[1]);          \
            REQUIRE_BITS((double)r1.v[i], w);                                             \
            REQUIRE_BITS((double)r2.v[i], w);                                             \
            REQUIRE_BITS((double)r3.v[i], ws);                                            \
            REQUIRE_BITS((double)r4.v[i], ws);                                            \
            REQUIRE_BITS((double)r5.v[i], w);                                             \
            REQUIRE_BITS((double)c1.v[i], w);                                             \
            REQUIRE_BITS((double)c2.v[i], ws);                                            \
        }                                                                                 \
    } while (0)

/* eq/ne, inc/dec (pre and post), make/splat, through named functions and front-ends. */
#define CHECK_COMMON(F, N, _)                                                             \
    do {                                                                                  \
        CHECK_BINOP(F, N, add);                                                           \
        CHECK_BINOP(F, N, sub);                                                           \
        CHECK_BINOP(F, N, mul);                                                           \
        CHECK_BINOP(F, N, div);                                                           \
        LOAD(F, N, a, data_a_##F);                                                        \
        LOAD(F, N, b, data_b_##F);                                                        \
        F##_##N a2 = a;                                                                   \
        REQUIRE(F##_##N##_eq(a, a2) && amp_eq(a, a2) && !F##_##N##_ne(a, a2) && !amp_ne(a, a2)); \
        REQUIRE(!F##_##N##_eq(a, b) && !amp_eq(a, b) && F##_##N##_ne(a, b) && amp_ne(a, b)); \
        a2.v[N - 1] = b.v[N - 1]; /* one lane differs (the data differ in every lane) */  \
        REQUIRE(!F##_##N##_eq(a, a2) && F##_##N##_ne(a, a2));                             \
        F##_##N p = a, q = a, s = a, t = a;                                               \
        F##_##N pre = F##_##N##_inc(&p), post = F##_##N##_post_inc(&q);                   \
        F##_##N pred = amp_dec(&s), postd = amp_post_dec(&t);                             \
        for (int i = 0; i < N; ++i) {                                                     \
            double up = (double)ref_lane_##F("add", data_a_##F[i], 1);                    \
            double dn = (double)ref_lane_##F("sub", data_a_##F[i], 1);                    \
            REQUIRE_BITS((double)pre.v[i], up);                                           \
            REQUIRE_BITS((double)p.v[i], up);                                             \
            REQUIRE_BITS((double)post.v[i], (double)a.v[i]);                              \
            REQUIRE_BITS((double)q.v[i], up);                                             \
            REQUIRE_BITS((double)pred.v[i], dn);                                          \
            REQUIRE_BITS((double)s.v[i], dn);                                             \
            REQUIRE_BITS((double)postd.v[i], (double)a.v[i]);                             \
            REQUIRE_BITS((double)t.v[i], dn);                                             \
        }                                                                                 \
        p = a;                                                                            \
        REQUIRE(F##_##N##_eq(amp_inc(&p), p) && F##_##N##_eq(F##_##N##_post_dec(&p), amp_add(a, F##_##N##_splat(1)))); \
        F##_##N sp = F##_##N##_splat(data_b_##F[0]);                                      \
        for (int i = 0; i < N; ++i) REQUIRE_BITS((double)sp.v[i], (double)data_b_##F[0]); \
        F##_##N ad = a;                                                                   \
        amp_add_assign(&ad, b), amp_sub_assign(&ad, b), amp_mul_assign(&ad, b), amp_div_assign(&ad, b); \
        F##_##N ad2 = F##_##N##_div(F##_##N##_mul(F##_##N##_sub(F##_##N##_add(a, b), b), b), b); \
        REQUIRE(memcmp(&ad, &ad2, sizeof ad) == 0);                                       \
        REQUIRE(AMP_VECTOR_SIZE(a) == N && AMP_VECTOR_SIZE_OF(F##_##N) == N);             \
        REQUIRE(!strcmp(AMP_VECTOR_SCALAR_NAME(a), #F));                                  \
        REQUIRE(sizeof(F##_##N) == N * sizeof(a.v[0]));                                   \
    } while (0);

#define CHECK_INTEGER(F, N, _)                                                            \
    do {                                                                                  \
        CHECK_BINOP(F, N, mod);                                                           \
        CHECK_BINOP(F, N, and);                                                           \
        CHECK_BINOP(F, N, or);                                                            \
        CHECK_BINOP(F, N, xor);                                                           \
        CHECK_BINOP(F, N, shl);                                                           \
        CHECK_BINOP(F, N, shr);                                                           \
        LOAD(F, N, a, data_a_##F);                                                        \
        F##_##N n1 = F##_##N##_not(a), n2 = amp_not(a);                                   \
        for (int i = 0; i < N; ++i) {                                                     \
            REQUIRE_INT(n1.v[i], ~data_a_##F[i]);                                         \
            REQUIRE_INT(n2.v[i], ~data_a_##F[i]);                                         \
        }                                                                                 \
    } while (0);

#define CHECK_NEG(F, N, _)                                                                \
    do {                                                                                  \
        LOAD(F, N, a, data_a_##F);                                                        \
        F##_##N n1 = F##_##N##_neg(a), n2 = amp_neg(a);                                   \
        for (int i = 0; i < N; ++i) {                                                     \
            double w = (double)ref_lane_##F("sub", 0, data_a_##F[i]);                     \
            REQUIRE_BITS((double)n1.v[i], w);                                             \
            REQUIRE_BITS((double)n2.v[i], w);                                             \
        }                                                                                 \
    } while (0);

/* One function per type keeps each function small (fast to compile, also with ASan). */
#define DEF_TEST_FN(F, N, CHECK) static void CHECK##_##F##_##N(void) { CHECK(F, N, _) }
#define CALL_TEST_FN(F, N, CHECK) CHECK##_##F##_##N();
TEST_VECTORS(DEF_TEST_FN, CHECK_COMMON)
TEST_INT_VECTORS(DEF_TEST_FN, CHECK_INTEGER)
TEST_NEG_VECTORS(DEF_TEST_FN, CHECK_NEG)
static void test_operators(void) {
    TEST_VECTORS(CALL_TEST_FN, CHECK_COMMON)
    TEST_INT_VECTORS(CALL_TEST_FN, CHECK_INTEGER)
    TEST_NEG_VECTORS(CALL_TEST_FN, CHECK_NEG)
}

/* ---- Reference section 5 facts and the semantics decisions ---------------------- */

static void test_norm_facts(void) {
    /* norm(0.8) + norm(0.4) = 1; unorm(1) / unorm(2): unorm(2) is 1, so the quotient is 1;
     * unorm(1) / 2 as a float divisor is 0.5; a quotient above 1 is clamped. */
    REQUIRE_BITS(norm_add(norm_make(0.8f), norm_make(0.4f)).v, 1.0f);
    REQUIRE_BITS(amp_add(norm_make(0.8f), norm_make(0.4f)).v, 1.0f);
    REQUIRE_BITS(unorm_make(2.0f).v, 1.0f);
    REQUIRE_BITS(unorm_div(unorm_make(1.0f), unorm_make(2.0f)).v, 1.0f);
    REQUIRE_BITS(unorm_div(unorm_make(0.5f), unorm_make(1.0f)).v, 0.5f);
    REQUIRE_BITS(unorm_div(unorm_make(0.5f), unorm_make(0.25f)).v, 1.0f);
    REQUIRE_VEC(unorm_4, unorm_4_divs(unorm_4_splat(1.0f), unorm_make(0.5f)), 1, 1, 1, 1);
    REQUIRE_VEC(unorm_2, unorm_2_div(unorm_2_make(0.25f, 0.5f), unorm_2_make(0.5f, 1.0f)), 0.5f, 0.5f);
    REQUIRE_BITS(unorm_sub(unorm_make(0.25f), unorm_make(0.5f)).v, 0.0f);
    REQUIRE_BITS(norm_sub(norm_make(-0.75f), norm_make(0.5f)).v, -1.0f);
    REQUIRE_BITS(norm_mul(norm_make(-1.0f), norm_make(-1.0f)).v, 1.0f);
    REQUIRE_BITS(norm_neg(norm_make(-1.0f)).v, 1.0f);
    REQUIRE_BITS(amp_neg(norm_make(0.25f)).v, -0.25f);
    /* inf, NaN, -0 */
    REQUIRE_BITS(norm_make(INFINITY).v, 1.0f);
    REQUIRE_BITS(norm_make(-INFINITY).v, -1.0f);
    REQUIRE_BITS(unorm_make(INFINITY).v, 1.0f);
    REQUIRE_BITS(unorm_make(-INFINITY).v, 0.0f);
    REQUIRE_BITS(norm_make(NAN).v, 0.0f);
    REQUIRE_BITS(unorm_make(NAN).v, 0.0f);
    REQUIRE_BITS(norm_make(-0.0f).v, 0.0f);
    REQUIRE_BITS(unorm_make(-0.0f).v, 0.0f);
    REQUIRE_BITS(norm_neg(norm_make(0.0f)).v, 0.0f);
    REQUIRE_BITS(norm_div(norm_make(0.5f), norm_make(0.0f)).v, 1.0f);   /* +inf */
    REQUIRE_BITS(norm_div(norm_make(-0.5f), norm_make(0.0f)).v, -1.0f); /* -inf */
    REQUIRE_BITS(norm_div(norm_make(0.0f), norm_make(0.0f)).v, 0.0f);   /* NaN */
    REQUIRE_BITS(unorm_div(unorm_make(0.0f), unorm_make(0.0f)).v, 0.0f);
    REQUIRE_VEC(norm_4, norm_4_make(INFINITY, -INFINITY, NAN, 2.0f), 1, -1, 0, 1);
    REQUIRE_VEC(unorm_4, unorm_4_make(INFINITY, -INFINITY, NAN, -2.0f), 1, 0, 0, 0);
    REQUIRE_BITS(amp_norm_clamp(-0.5f), -0.5f);
    REQUIRE_BITS(amp_unorm_clamp(0.5f), 0.5f);
    /* conversions between norm and unorm */
    REQUIRE_BITS(unorm_from_norm(norm_make(-0.5f)).v, 0.0f);
    REQUIRE_BITS(amp_to_unorm(norm_make(-0.5f)).v, 0.0f);
    REQUIRE_BITS(norm_from_unorm(unorm_make(0.3f)).v, 0.3f);
    REQUIRE_BITS(amp_to_norm(unorm_make(0.3f)).v, 0.3f);
    REQUIRE_VEC(unorm_3, unorm_3_from_norm_3(norm_3_make(-0.5f, 0.5f, -1.0f)), 0, 0.5f, 0);
    REQUIRE_VEC(norm_3, norm_3_from_unorm_3(unorm_3_make(0.1f, 0.7f, 1.0f)), 0.1f, 0.7f, 1.0f);
    /* scalar inc/dec and eq/ne */
    norm n = norm_make(0.5f);
    REQUIRE_BITS(norm_post_inc(&n).v, 0.5f);
    REQUIRE_BITS(n.v, 1.0f);
    REQUIRE_BITS(norm_dec(&n).v, 0.0f);
    REQUIRE_BITS(amp_dec(&n).v, -1.0f);
    unorm u = unorm_make(0.25f);
    REQUIRE_BITS(unorm_post_dec(&u).v, 0.25f);
    REQUIRE_BITS(u.v, 0.0f);
    REQUIRE_BITS(amp_inc(&u).v, 1.0f);
    REQUIRE_BITS(unorm_post_inc(&u).v, 1.0f);
    REQUIRE(norm_eq(norm_make(3), norm_make(1)) && amp_ne(unorm_make(0.5f), unorm_make(0.25f)));
    REQUIRE(!amp_eq(norm_make(0.5f), norm_make(-0.5f)) && !unorm_ne(unorm_make(-1), unorm_make(0)));
    norm m = norm_make(0.5f);
    REQUIRE_BITS(amp_add_assign(&m, norm_make(0.75f)).v, 1.0f);
    REQUIRE_BITS(norm_mul_assign(&m, norm_make(-0.25f)).v, -0.25f);
    REQUIRE_BITS(amp_sub(m, norm_make(1)).v, -1.0f);
    REQUIRE_BITS(amp_mul(unorm_make(0.5f), unorm_make(0.5f)).v, 0.25f);
    REQUIRE_BITS(amp_div(norm_make(-0.25f), norm_make(0.5f)).v, -0.5f);
}

static void test_integer_rules(void) {
    REQUIRE_VEC(int_4, int_4_div(int_4_make(7, -7, 7, -7), int_4_make(2, 2, -2, -2)), 3, -3, -3, 3);
    REQUIRE_VEC(int_4, int_4_mod(int_4_make(7, -7, 7, -7), int_4_make(2, 2, -2, -2)), 1, -1, 1, -1);
    REQUIRE_VEC(int_4, int_4_div(int_4_make(5, -5, INT_MIN, 0), int_4_make(0, 0, -1, 0)), -1, -1, INT_MIN, -1);
    REQUIRE_VEC(int_4, int_4_mod(int_4_make(5, -5, INT_MIN, 0), int_4_make(0, 0, -1, 0)), 5, -5, 0, 0);
    REQUIRE_VEC(uint_3, uint_3_div(uint_3_make(5, 7, 0), uint_3_make(0, 2, 0)), UINT_MAX, 3, UINT_MAX);
    REQUIRE_VEC(uint_3, uint_3_mod(uint_3_make(5, 7, 0), uint_3_make(0, 2, 0)), 5, 1, 0);
    REQUIRE_VEC(int_4, int_4_shl(int_4_splat(1), int_4_make(31, 32, 33, -1)), INT_MIN, 1, 2, INT_MIN);
    REQUIRE_VEC(int_4, int_4_shr(int_4_splat(-8), int_4_make(1, 32, 35, -1)), -4, -8, -1, -1);
    REQUIRE_VEC(int_2, int_2_shrs(int_2_make(-1, 64), 3), -1, 8);
    REQUIRE_VEC(uint_4, uint_4_shr(uint_4_splat(0x80000000u), uint_4_make(31, 32, 33, 0xffffffffu)), 1, 0x80000000u, 0x40000000u, 1);
    REQUIRE_VEC(uint_2, uint_2_shls(uint_2_make(3, 0x80000001u), 33u), 6, 2);
    REQUIRE_VEC(int_3, int_3_add(int_3_make(INT_MAX, INT_MIN, 1), int_3_make(1, -1, 1)), INT_MIN, INT_MAX, 2);
    REQUIRE_VEC(int_2, int_2_neg(int_2_make(INT_MIN, 5)), INT_MIN, -5);
    REQUIRE_VEC(int_2, amp_mul(int_2_make(65536, -3), int_2_make(65536, 3)), 0, -9);
    REQUIRE_VEC(uint_2, uint_2_sub(uint_2_make(0, 1), uint_2_make(1, 1)), UINT_MAX, 0);
    REQUIRE_VEC(int_4, int_4_not(int_4_make(0, -1, 5, INT_MIN)), -1, 0, -6, INT_MAX);
    REQUIRE_VEC(int_3, amp_xors(int_3_make(1, 2, 3), 1), 0, 3, 2);
    int_2 v = int_2_make(INT_MAX, 0);
    REQUIRE_VEC(int_2, int_2_post_inc(&v), INT_MAX, 0);
    REQUIRE_VEC(int_2, v, INT_MIN, 1);
    uint_2 w = uint_2_make(0, 1);
    REQUIRE_VEC(uint_2, uint_2_dec(&w), UINT_MAX, 0);
    REQUIRE_VEC(float_2, float_2_div(float_2_make(1, -1), float_2_splat(0)), INFINITY, -INFINITY);
    REQUIRE_VEC(double_2, amp_neg(double_2_make(0.0, -2.5)), -0.0, 2.5);
    float_2 nan2 = float_2_splat(NAN);
    REQUIRE(!float_2_eq(nan2, nan2) && float_2_ne(nan2, nan2));
}

static void test_conversions(void) {
    /* C++ AMP: int_4(float_4(1.7,-1.7,2.5,-0.5)) = (1,-1,2,0) */
    REQUIRE_VEC(int_4, int_4_from_float_4(float_4_make(1.7f, -1.7f, 2.5f, -0.5f)), 1, -1, 2, 0);
    REQUIRE_VEC(int_4, amp_to_int(float_4_make(1.7f, -1.7f, 2.5f, -0.5f)), 1, -1, 2, 0);
    REQUIRE_VEC(unorm_4, unorm_4_from_float_4(float_4_make(1.7f, -1.7f, 0.25f, NAN)), 1, 0, 0.25f, 0);
    REQUIRE_VEC(norm_4, amp_to_norm(float_4_make(1.7f, -1.7f, -0.25f, NAN)), 1, -1, -0.25f, 0);
    REQUIRE_VEC(norm_2, norm_2_from_double_2(double_2_make(-1e300, 0.5)), -1, 0.5f);
    REQUIRE_VEC(unorm_2, unorm_2_from_double_2(double_2_make(1e300, NAN)), 1, 0);
    /* saturation and NaN */
    REQUIRE_VEC(int_4, int_4_from_float_4(float_4_make(3e9f, -3e9f, NAN, INFINITY)), INT_MAX, INT_MIN, 0, INT_MAX);
    REQUIRE_VEC(int_4, int_4_from_float_4(float_4_make(2147483520.0f, -2147483648.0f, -INFINITY, -0.0f)), 2147483520, INT_MIN, INT_MIN, 0);
    REQUIRE_VEC(int_4, int_4_from_double_4(double_4_make(2147483647.9, -2147483648.9, NAN, 1e300)), INT_MAX, INT_MIN, 0, INT_MAX);
    REQUIRE_VEC(int_3, int_3_from_double_3(double_3_make(2147483646.5, -2147483647.5, -2.5)), 2147483646, -2147483647, -2);
    REQUIRE_VEC(uint_4, uint_4_from_float_4(float_4_make(-0.5f, -7.0f, 5e9f, 4294967040.0f)), 0, 0, UINT_MAX, 4294967040u);
    REQUIRE_VEC(uint_4, uint_4_from_float_4(float_4_make(NAN, INFINITY, -INFINITY, 3.99f)), 0, UINT_MAX, 0, 3);
    REQUIRE_VEC(uint_4, uint_4_from_double_4(double_4_make(4294967295.5, 4294967294.5, -1.0, NAN)), UINT_MAX, 4294967294u, 0, 0);
    REQUIRE_VEC(int_2, int_2_from_norm_2(norm_2_make(-1.0f, 0.9f)), -1, 0);
    REQUIRE_VEC(uint_2, uint_2_from_unorm_2(unorm_2_make(1.0f, 0.9f)), 1, 0);
    REQUIRE_VEC(uint_2, uint_2_from_norm_2(norm_2_make(-1.0f, 1.0f)), 0, 1);
    /* int <-> uint keep the bits */
    REQUIRE_VEC(uint_2, uint_2_from_int_2(int_2_make(-1, INT_MIN)), UINT_MAX, 0x80000000u);
    REQUIRE_VEC(int_2, amp_to_int(uint_2_make(UINT_MAX, 0x80000000u)), -1, INT_MIN);
    /* to float / double */
    REQUIRE_VEC(float_3, float_3_from_int_3(int_3_make(16777217, -3, INT_MIN)), 16777216.0f, -3.0f, -2147483648.0f);
    REQUIRE_VEC(float_2, amp_to_float(uint_2_make(UINT_MAX, 7)), 4294967296.0f, 7.0f);
    REQUIRE_VEC(float_2, float_2_from_double_2(double_2_make(1e300, 0.1)), INFINITY, 0.1f);
    REQUIRE_VEC(double_2, amp_to_double(norm_2_make(-0.5f, 0.1f)), -0.5, (double)0.1f);
    REQUIRE_VEC(double_2, double_2_from_uint_2(uint_2_make(UINT_MAX, 0)), 4294967295.0, 0.0);
    REQUIRE_VEC(norm_3, norm_3_from_int_3(int_3_make(5, -5, 0)), 1, -1, 0);
    REQUIRE_VEC(unorm_3, amp_to_unorm(uint_3_make(5, 0, 1)), 1, 0, 1);
    REQUIRE_VEC(float_4, amp_to_float(float_4_make(1, 2, 3, NAN)), 1, 2, 3, NAN);
}

/* Every (dst, src, N): the named function and the front-end agree, lane by lane, with the
 * scalar conversion of the same lane through a 1-lane reference. */
static double ref_to(const char *dst, double x, int src_is_int) {
    (void)src_is_int;
    if (!strcmp(dst, "float")) return (float)x;
    if (!strcmp(dst, "double")) return x;
    if (!strcmp(dst, "norm")) return (float)ref_norm(x);
    if (!strcmp(dst, "unorm")) return (float)ref_unorm(x);
    if (isnan(x)) return 0;
    if (!strcmp(dst, "int")) return x >= 2147483647.0 ? 2147483647.0 : x <= -2147483648.0 ? -2147483648.0 : trunc(x) + 0.0;
    return x >= 4294967295.0 ? 4294967295.0 : x <= 0 ? 0 : trunc(x) + 0.0; /* uint */
}
#define CHECK_CONVERT(D, N, S)                                                            \
    do {                                                                                  \
        LOAD(S, N, a, data_a_##S);                                                        \
        D##_##N r1 = D##_##N##_from_##S##_##N(a), r2 = amp_to_##D(a);                     \
        REQUIRE(memcmp(&r1, &r2, sizeof r1) == 0);                                        \
        for (int i = 0; i < N; ++i) {                                                     \
            double x = (double)a.v[i];                                                    \
            if (!strcmp(#D, "int") && !strcmp(#S, "uint")) x = (double)(int)wrap32((long long)x); \
            if (!strcmp(#D, "uint") && !strcmp(#S, "int") && x < 0) x += 4294967296.0;    \
            REQUIRE_BITS((double)r1.v[i], ref_to(#D, x, 0));                              \
        }                                                                                 \
    } while (0);
#define DEF_CONVERT_FN(S) static void check_convert_from_##S(void) { TEST_VECTORS(CHECK_CONVERT, S) }
#define CALL_CONVERT_FN(S) check_convert_from_##S();
TEST_FAMILIES(DEF_CONVERT_FN)
static void test_all_conversions(void) { TEST_FAMILIES(CALL_CONVERT_FN) }

/* ---- Swizzles ------------------------------------------------------------------- */

static int swizzle_count[5];
/* Byte-level check of one swizzle: reads r1 (xyzw) and r2 (rgba) of a, and writes of s
 * into copies of a (w1, w2), against the index list. */
static void check_swizzle(const char *name, const void *a, const void *r1, const void *r2,
                          const void *w1, const void *w2, const void *s, const int *ix,
                          int len, size_t n, size_t lane) {
    unsigned char want[32];
    char what[64];
    snprintf(what, sizeof what, "swizzle %s", name);
    check_true(memcmp(r1, r2, (size_t)len * lane) == 0, what, __FILE__, __LINE__);
    for (int i = 0; i < len; ++i)
        check_true(memcmp((const unsigned char *)r1 + i * lane, (const unsigned char *)a + ix[i] * lane, lane) == 0,
                   what, __FILE__, __LINE__);
    memcpy(want, a, n * lane);
    for (int i = 0; i < len; ++i) memcpy(want + ix[i] * lane, (const unsigned char *)s + i * lane, lane);
    check_true(memcmp(w1, want, n * lane) == 0 && memcmp(w2, want, n * lane) == 0, what, __FILE__, __LINE__);
}
#define CHECK_SWIZZLE(F, N, L, XYZW, RGBA, ...)                                          \
    {                                                                                     \
        static const int ix[L] = {__VA_ARGS__};                                           \
        F##_##L r1 = F##_##N##_##XYZW(a), r2 = F##_##N##_##RGBA(a);                       \
        F##_##N w1 = a, w2 = a;                                                           \
        F##_##N##_set_##XYZW(&w1, s##L);                                                  \
        F##_##N##_set_##RGBA(&w2, s##L);                                                  \
        check_swizzle(#F "_" #N "_" #XYZW, &a, &r1, &r2, &w1, &w2, &s##L, ix, L, N, sizeof a.v[0]); \
        check_true(strlen(#RGBA) == L, #RGBA, __FILE__, __LINE__);                        \
        swizzle_count[N]++;                                                               \
    }
/* distinct values to write, valid in every family */
#define SV_int(k) (k)
#define SV_uint(k) (k)
#define SV_float(k) (k)
#define SV_double(k) (k)
#define SV_norm(k) (-(k) / 10.0f)
#define SV_unorm(k) ((k) / 10.0f)
#define AMP__MAKE_TEST_ARGS_2 1, 2
#define AMP__MAKE_TEST_ARGS_3 1, 2, 3
#define AMP__MAKE_TEST_ARGS_4 1, 2, 3, 4
#define CHECK_SWIZZLES(F, N, _)                                                           \
    F##_##N a = F##_##N##_make(AMP__MAKE_TEST_ARGS_##N);                                  \
    F##_##2 s2 = F##_##2_make(SV_##F(5), SV_##F(6));                                      \
    F##_##3 s3 = F##_##3_make(SV_##F(5), SV_##F(6), SV_##F(7));                           \
    F##_##4 s4 = F##_##4_make(SV_##F(5), SV_##F(6), SV_##F(7), SV_##F(8));                \
    (void)s3, (void)s4;                                                                   \
    AMP__SWIZZLES_##N(CHECK_SWIZZLE, F)
TEST_VECTORS(DEF_TEST_FN, CHECK_SWIZZLES)
static void test_swizzles(void) {
    /* the tables themselves, against literal expectations */
    float_4 f = float_4_make(1, 2, 3, 4);
    REQUIRE_VEC(float_3, float_4_zyx(f), 3, 2, 1);
    REQUIRE_VEC(float_3, float_4_bgr(f), 3, 2, 1);
    REQUIRE_VEC(float_4, float_4_wzyx(f), 4, 3, 2, 1);
    REQUIRE_VEC(float_4, float_4_bgra(f), 3, 2, 1, 4);
    REQUIRE_VEC(float_2, float_4_wx(f), 4, 1);
    REQUIRE_VEC(float_2, float_4_ag(f), 4, 2);
    REQUIRE_VEC(int_2, int_2_yx(int_2_make(5, 6)), 6, 5);
    REQUIRE_VEC(uint_3, uint_3_zx(uint_3_make(7, 8, 9)).x == 9 ? uint_3_make(1, 1, 1) : uint_3_make(0, 0, 0), 1, 1, 1);
    REQUIRE_VEC(norm_3, norm_4_gba(norm_4_make(0.1f, 0.2f, 0.3f, -0.4f)), 0.2f, 0.3f, -0.4f);
    REQUIRE_VEC(double_3, double_3_yzx(double_3_make(1, 2, 3)), 2, 3, 1);
    float_4_set_zyx(&f, float_3_make(7, 8, 9));
    REQUIRE_VEC(float_4, f, 9, 8, 7, 4);
    float_4_set_ar(&f, float_2_make(-1, -2));
    REQUIRE_VEC(float_4, f, -2, 8, 7, -1);
    unorm_3 u = unorm_3_make(0.1f, 0.2f, 0.3f);
    unorm_3_set_bgr(&u, unorm_3_make(5, -5, 0.5f));
    REQUIRE_VEC(unorm_3, u, 0.5f, 0, 1);
    REQUIRE(f.r == f.x && f.g == f.y && f.b == f.z && f.a == f.w && f.v[3] == f.w);
    /* every generated swizzle, both spellings, read and write */
    TEST_VECTORS(CALL_TEST_FN, CHECK_SWIZZLES)
    REQUIRE_INT(swizzle_count[2], 6 * 2);
    REQUIRE_INT(swizzle_count[3], 6 * (6 + 6));
    REQUIRE_INT(swizzle_count[4], 6 * (12 + 24 + 24));
}

/* ---- Traits ----------------------------------------------------------------------- */

static void test_traits(void) {
    REQUIRE_INT(AMP_VECTOR_SIZE_OF(AMP_SHORT_VECTOR(float, 4)), 4);
    REQUIRE_INT(AMP_VECTOR_SIZE_OF(AMP_SHORT_VECTOR(uint, 3)), 3);
    REQUIRE_INT(AMP_VECTOR_SIZE_OF(AMP_SHORT_VECTOR(norm, 1)), 1);
    REQUIRE_INT(AMP_VECTOR_SIZE_OF(AMP_SHORT_VECTOR(double, 1)), 1);
    REQUIRE_INT(AMP_VECTOR_SIZE(1.0f), 1);
    REQUIRE_INT(AMP_VECTOR_SIZE(unorm_make(0)), 1);
    REQUIRE_INT(AMP_VECTOR_SIZE(int_2_splat(0)), 2);
    REQUIRE_INT(_Generic((AMP_SHORT_VECTOR(int, 1))0, int: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_SHORT_VECTOR(uint, 1))0, unsigned int: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_VECTOR_VALUE_TYPE(norm_4)){0}, norm: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_VECTOR_VALUE_TYPE(unorm_2)){0}, unorm: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_VECTOR_VALUE_TYPE(uint_3))0, unsigned int: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_VECTOR_VALUE_TYPE(double_2))0, double: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_VECTOR_VALUE_TYPE(float_1))0, float: 1, default: 0), 1);
    REQUIRE_INT(_Generic((AMP_VECTOR_VALUE_TYPE(norm)){0}, norm: 1, default: 0), 1);
    REQUIRE(!strcmp(AMP_VECTOR_SCALAR_NAME(2u), "uint"));
    REQUIRE(!strcmp(AMP_VECTOR_SCALAR_NAME(norm_make(0)), "norm"));
    REQUIRE_INT(sizeof(float_3), 12);
    REQUIRE_INT(sizeof(double_3), 24);
    REQUIRE_INT(sizeof(norm_4), 16);
    REQUIRE_INT(sizeof(unorm), 4);
}

/* ---- 8/16-bit codes ------------------------------------------------------------- */

/* C transliteration of vec.glsl's ampi_ratio: c / d correctly rounded, in integers. */
static float glsl_ratio(uint32_t c, uint32_t d) {
    if (c == 0) return 0.0f;
    if (c >= d) return 1.0f;
    uint32_t r = c, q = 0, e = 0;
    while (r < d) { r <<= 1; e++; }
    for (int i = 0; i < 24; ++i) { q <<= 1; if (r >= d) { q |= 1u; r -= d; } r <<= 1; }
    if (r >= d) q++;
    return amp__bits_float(((127u - e) << 23) + (q - 0x800000u));
}

/* x just below / just above the midpoint between codes c and c+1 of max code `scale`
 * (negative c for snorm); an exact tie rounds away from zero. */
static void midpoint_floats(double mid, float *lo, float *hi, int *tie) {
    float f = (float)mid;
    *tie = 0;
    if ((double)f < mid) { *lo = f; *hi = nextafterf(f, INFINITY); }
    else if ((double)f > mid) { *hi = f; *lo = nextafterf(f, -INFINITY); }
    else { *tie = 1; *lo = nextafterf(f, -INFINITY); *hi = nextafterf(f, INFINITY); }
}

static void test_unorm_codes(void) {
    for (uint32_t c = 0; c < 256; ++c) {
        float d = amp_unorm8_decode((uint8_t)c);
        REQUIRE_BITS(d, (float)c / 255.0f);
        REQUIRE_BITS(d, glsl_ratio(c, 255));
        REQUIRE_INT(amp_unorm8_encode(d), c);
        if (c == 255) break;
        float lo, hi; int tie;
        midpoint_floats((c + 0.5) / 255.0, &lo, &hi, &tie);
        REQUIRE_INT(amp_unorm8_encode(lo), c);
        REQUIRE_INT(amp_unorm8_encode(hi), c + 1);
        if (tie) REQUIRE_INT(amp_unorm8_encode((float)((c + 0.5) / 255.0)), c + 1);
    }
    for (uint32_t c = 0; c < 65536; ++c) {
        float d = amp_unorm16_decode((uint16_t)c);
        REQUIRE_BITS(d, (float)c / 65535.0f);
        REQUIRE_BITS(d, glsl_ratio(c, 65535));
        REQUIRE_INT(amp_unorm16_encode(d), c);
        if (c == 65535) break;
        float lo, hi; int tie;
        midpoint_floats((c + 0.5) / 65535.0, &lo, &hi, &tie);
        REQUIRE_INT(amp_unorm16_encode(lo), c);
        REQUIRE_INT(amp_unorm16_encode(hi), c + 1);
    }
    /* reference section 4 facts */
    REQUIRE_BITS(amp_unorm8_decode(0x80), 128.0f / 255.0f);
    REQUIRE_BITS(amp_unorm8_decode(0xff), 1.0f);
    REQUIRE_BITS(amp_unorm8_decode(0x40), 64.0f / 255.0f);
    REQUIRE_INT(amp_unorm8_encode(0.5f), 128);
    REQUIRE_INT(amp_unorm16_encode(0.5f), 32768);
    REQUIRE_INT(amp_unorm8_encode(NAN), 0);
    REQUIRE_INT(amp_unorm8_encode(INFINITY), 255);
    REQUIRE_INT(amp_unorm8_encode(-INFINITY), 0);
    REQUIRE_INT(amp_unorm8_encode(-0.25f), 0);
    REQUIRE_INT(amp_unorm16_encode(7.0f), 65535);
    REQUIRE_INT(amp_unorm8_encode(FLT_MIN), 0);
    REQUIRE_INT(amp_unorm8_encode(1e-45f), 0);
    /* a sweep over the floats of [0,1] against exact double arithmetic */
    for (uint32_t bits = 0; bits <= 0x3f800000u; bits += 4099) {
        float x = amp__bits_float(bits);
        REQUIRE_INT(amp_unorm8_encode(x), (long long)floor((double)x * 255.0 + 0.5));
        REQUIRE_INT(amp_unorm16_encode(x), (long long)floor((double)x * 65535.0 + 0.5));
    }
}

static long long round_away(double v) { return v < 0 ? -(long long)floor(-v + 0.5) : (long long)floor(v + 0.5); }

static void test_snorm_codes(void) {
    for (int c = -128; c < 128; ++c) {
        float d = amp_snorm8_decode((int8_t)c);
        float want = c <= -127 ? -1.0f : (float)c / 127.0f;
        REQUIRE_BITS(d, want);
        REQUIRE_BITS(d, c < 0 ? -glsl_ratio((uint32_t)(c <= -127 ? 127 : -c), 127) : glsl_ratio((uint32_t)c, 127));
        REQUIRE_INT(amp_snorm8_encode(d), c == -128 ? -127 : c);
        if (c < -127 || c == 127) continue;
        float lo, hi; int tie;
        midpoint_floats((c + 0.5) / 127.0, &lo, &hi, &tie);
        REQUIRE_INT(amp_snorm8_encode(lo), c);
        REQUIRE_INT(amp_snorm8_encode(hi), c + 1);
        if (tie) REQUIRE_INT(amp_snorm8_encode((float)((c + 0.5) / 127.0)), c < 0 ? c : c + 1);
    }
    for (int c = -32768; c < 32768; ++c) {
        float d = amp_snorm16_decode((int16_t)c);
        REQUIRE_BITS(d, c <= -32767 ? -1.0f : (float)c / 32767.0f);
        REQUIRE_BITS(d, c < 0 ? -glsl_ratio((uint32_t)(c <= -32767 ? 32767 : -c), 32767) : glsl_ratio((uint32_t)c, 32767));
        REQUIRE_INT(amp_snorm16_encode(d), c == -32768 ? -32767 : c);
        if (c < -32767 || c == 32767) continue;
        float lo, hi; int tie;
        midpoint_floats((c + 0.5) / 32767.0, &lo, &hi, &tie);
        REQUIRE_INT(amp_snorm16_encode(lo), c);
        REQUIRE_INT(amp_snorm16_encode(hi), c + 1);
    }
    REQUIRE_BITS(amp_snorm8_decode(-128), -1.0f); /* 0x80 and 0x81 both read -1 */
    REQUIRE_BITS(amp_snorm8_decode(-127), -1.0f);
    REQUIRE_INT(amp_snorm8_encode(0.5f), 64);
    REQUIRE_INT(amp_snorm8_encode(-0.5f), -64);
    REQUIRE_INT(amp_snorm8_encode(-INFINITY), -127);
    REQUIRE_INT(amp_snorm8_encode(INFINITY), 127);
    REQUIRE_INT(amp_snorm8_encode(NAN), 0);
    REQUIRE_INT(amp_snorm16_encode(-2.0f), -32767);
    REQUIRE_INT(amp_snorm16_encode(-0.0f), 0);
    for (uint32_t bits = 0; bits <= 0x3f800000u; bits += 4099) {
        float x = amp__bits_float(bits);
        REQUIRE_INT(amp_snorm8_encode(x), round_away((double)x * 127.0));
        REQUIRE_INT(amp_snorm8_encode(-x), round_away(-(double)x * 127.0));
        REQUIRE_INT(amp_snorm16_encode(-x), round_away(-(double)x * 32767.0));
    }
}

/* ---- binary16 ------------------------------------------------------------------- */

static double ref_half_value(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static void test_half(void) {
    for (uint32_t h = 0; h < 65536; ++h) {
        float f = amp_float_from_half((uint16_t)h);
        double ref = ref_half_value((uint16_t)h);
        if (isnan(ref)) {
            REQUIRE(isnan(f));
            REQUIRE_INT(amp__float_bits(f) >> 31, h >> 15);
        } else {
            REQUIRE_BITS(f, ref);
        }
        REQUIRE_INT(amp_half_from_float(f), h); /* every half round-trips, NaNs included */
    }
    /* every rounding boundary between adjacent positive finite halves, and past 65504 */
    for (uint32_t h = 0; h < 0x7bff; ++h) {
        double mid = (ref_half_value((uint16_t)h) + ref_half_value((uint16_t)(h + 1))) / 2;
        float lo, hi; int tie;
        midpoint_floats(mid, &lo, &hi, &tie);
        REQUIRE_INT(amp_half_from_float(lo), h);
        REQUIRE_INT(amp_half_from_float(hi), h + 1);
        REQUIRE_INT(amp_half_from_float(-lo), h | 0x8000);
        if (tie) REQUIRE_INT(amp_half_from_float((float)mid), (h & 1) ? h + 1 : h);
    }
    REQUIRE_INT(amp_half_from_float(1.0f), 0x3c00);
    REQUIRE_INT(amp_half_from_float(-2.0f), 0xc000);
    REQUIRE_INT(amp_half_from_float(0.5f), 0x3800);
    REQUIRE_INT(amp_half_from_float(65504.0f), 0x7bff);
    REQUIRE_INT(amp_half_from_float(65519.99f), 0x7bff);
    REQUIRE_INT(amp_half_from_float(65520.0f), 0x7c00);
    REQUIRE_INT(amp_half_from_float(1e10f), 0x7c00);
    REQUIRE_INT(amp_half_from_float(-INFINITY), 0xfc00);
    REQUIRE_INT(amp_half_from_float(0x1p-24f), 0x0001);
    REQUIRE_INT(amp_half_from_float(0x1p-25f), 0x0000);   /* tie to even: 0 */
    REQUIRE_INT(amp_half_from_float(0x1.8p-24f), 0x0002); /* tie to even: 2 */
    REQUIRE_INT(amp_half_from_float(0x1.8p-25f), 0x0001);
    REQUIRE_INT(amp_half_from_float(0x1p-14f), 0x0400);
    REQUIRE_INT(amp_half_from_float(1.0f + 0x1p-11f), 0x3c00); /* tie to even */
    REQUIRE_INT(amp_half_from_float(1.0f + 0x3p-11f), 0x3c02);
    REQUIRE_INT(amp_half_from_float(0.1f), 0x2e66);
    REQUIRE_INT(amp_half_from_float(1.0f / 3.0f), 0x3555);
    REQUIRE_INT(amp_half_from_float(-0.0f), 0x8000);
    REQUIRE_INT(amp_half_from_float(1e-30f), 0x0000);
    REQUIRE_INT(amp_half_from_float(NAN) & 0x7c00, 0x7c00);
    REQUIRE(amp_half_from_float(NAN) & 0x3ff);
    REQUIRE(amp_half_from_float(amp__bits_float(0x7f800001u)) & 0x3ff); /* low-payload NaN stays NaN */
    REQUIRE_BITS(amp_float_from_half(0x3555), 0.333251953125);
    REQUIRE_BITS(amp_float_from_half(0x0001), 0x1p-24);
    REQUIRE_BITS(amp_float_from_half(0x7bff), 65504.0);
    REQUIRE_BITS(amp_float_from_half(0xfc00), -INFINITY);
    REQUIRE_BITS(amp_float_from_half(0x8000), -0.0);
}

int main(void) {
    test_operators();
    test_norm_facts();
    test_integer_rules();
    test_conversions();
    test_all_conversions();
    test_swizzles();
    test_traits();
    test_unorm_codes();
    test_snorm_codes();
    test_half();
    if (failures) {
        fprintf(stderr, "test_vecmath: %d of %ld checks FAILED\n", failures, checks);
        return 1;
    }
    printf("test_vecmath: all %ld checks passed\n", checks);
    return 0;
}
