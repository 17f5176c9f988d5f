/* test_vecmath_kernel.c: the short vectors in kernels against the host library ("issue 5").
 *
 * The same expressions are evaluated by the host functions (vecmath/ampvk/vecmath.h) and,
 * in a kernel, by their GLSL twins (shaders/ampvk/vec.glsl), and the results must have
 * the same bits:
 *   1. every vector type (int/uint/float/double/norm/unorm x 2..4; double when the device
 *      has it) and the scalars norm/unorm, every function family: construction, + - * /
 *      with vector and scalar right operands, compound assignment, ++/-- (pre and post),
 *      integer % & | ^ << >> ~, unary -, == and !=, conversions to every family,
 *      clamping, every swizzle read and write (plain vectors with AMP_SWIZZLE_FUNCTIONS),
 *      the amp_* front-ends. Inputs are random plus edge values (0, -0, +-1, INT_MIN,
 *      INT_MAX, huge floats, +-inf, NaN, denormals, norm lanes outside [-1,1]).
 *   2. arrays of every type round-trip through the kernel: an amp_array copied in, read
 *      in the kernel (its words are echoed), a transformed value written into an
 *      amp_array and an array_view; the host finds lane j of element i at byte
 *      (i * N + j) * sizeof(lane) (tight packing: 12 bytes per float_3, 24 per double_3).
 *   3. the 8/16-bit unorm/snorm codes and halves: every code decoded, and a dense sweep
 *      of floats (every code boundary +-4 ulps and a strided sweep of all bit patterns)
 *      encoded, in a kernel, equal to the host.
 *   4. the C++ AMP reference's section 5 facts, computed in a kernel.
 *
 * How: each expression list is written once, as an X-macro over (family, size). Expanded
 * with HOST_X it is C code that appends each result's bytes to a word stream; expanded
 * with GLSL_X it is the kernel text `put(k, EXPR);` (the # operator keeps the text
 * unexpanded, so the host's _Generic front-ends appear as written). The few spellings
 * that differ are macros defined on both sides: REF (host `&`, GLSL empty: compound and
 * ++/-- take &a on the host and an inout a in GLSL) and MAKE_ARGS_N. A kernel's put()
 * writes the same words as the host (float bits, double as low/high words, bool as
 * 0/1), so the comparison is word for word; a mismatch names the expression.
 * Built with -ffp-contract=off so that the host never fuses a*b+c.
 *
 * Exactness: every word must be equal, float and norm/unorm division included (Vulkan
 * allows 2.5 ulp for division, but lavapipe divides correctly rounded, keeps denormals,
 * -0, inf and NaN, so no tolerance is needed there). The one allowance: where both
 * results are NaN with different bits they count as equal (and are counted and
 * printed): with two NaN operands IEEE 754 leaves open which one + and * return, and the
 * device compiler may swap the operands of a commutative operation (seen on lavapipe for
 * NaN op -NaN). The compound and ++/-- front-ends (amp_add_assign, amp_inc ...) are
 * host-only, so the kernels test their named forms.
 * On a device that flushes subnormals (found by a probe; most GPUs do for float), two
 * more allowances, each what Vulkan permits there: a result may instead equal the host's
 * result for the inputs with their subnormal lanes read as zeros and its own subnormals
 * flushed (to a zero of either sign; a result rounding to the smallest normal number may
 * be flushed too, as flushing precedes rounding); and a division (an expression naming div, and the t it assigned) may be
 * within 3 ulp of the host's (Vulkan: 2.5 ulp), or anything where a divisor lane of the
 * element lies outside [2^-126, 2^126] ([2^-1022, 2^1022] in double), where Vulkan
 * leaves it undefined. Everything else stays bit-exact there too.
 */
#include <ampvk/vecmath.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>

#include "test.h"

/* ---- Word streams ---------------------------------------------------------------- */

enum { K_INT, K_F32, K_F64 }; /* what a word holds (K_F64: the low word of a double) */

typedef struct words {
    uint32_t *w;
    size_t n, cap;
    unsigned char *kind; /* per word of the first element (meta) */
    int *expr;           /* the expression that wrote it */
    size_t meta_cap;
    bool meta;           /* recording meta (element 0) */
    int cur;             /* index of the current expression */
} words;

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size);
    if (!q) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return q;
}

static void put_words(words *w, const void *p, size_t bytes, int kind)
{
    size_t n = bytes / 4;
    if (w->n + n > w->cap) {
        w->cap = (w->n + n) * 2 + 1024;
        w->w = xrealloc(w->w, w->cap * sizeof *w->w);
    }
    memcpy(w->w + w->n, p, bytes);
    if (w->meta) {
        if (w->n + n > w->meta_cap) {
            w->meta_cap = (w->n + n) * 2 + 1024;
            w->kind = xrealloc(w->kind, w->meta_cap);
            w->expr = xrealloc(w->expr, w->meta_cap * sizeof *w->expr);
        }
        for (size_t j = 0; j < n; j++) {
            w->kind[w->n + j] = kind == K_F64 ? (j % 2 ? K_INT : K_F64) : kind;
            w->expr[w->n + j] = w->cur;
        }
    }
    w->n += n;
}

static void words_free(words *w)
{
    free(w->w);
    free(w->kind);
    free(w->expr);
    memset(w, 0, sizeof *w);
}

/* One put per type; PUT picks it with _Generic. (A list of its own: the driver below
 * cannot be nested in itself.) */
#define PUT_VECTORS(X)                                                                    \
    X(int, 2, K_INT) X(int, 3, K_INT) X(int, 4, K_INT)                                    \
    X(uint, 2, K_INT) X(uint, 3, K_INT) X(uint, 4, K_INT)                                 \
    X(float, 2, K_F32) X(float, 3, K_F32) X(float, 4, K_F32)                              \
    X(double, 2, K_F64) X(double, 3, K_F64) X(double, 4, K_F64)                           \
    X(norm, 2, K_F32) X(norm, 3, K_F32) X(norm, 4, K_F32)                                 \
    X(unorm, 2, K_F32) X(unorm, 3, K_F32) X(unorm, 4, K_F32)
#define DEF_PUT(F, N, K)                                                                  \
    static void put_##F##_##N(words *w, F##_##N x) { put_words(w, &x, sizeof x, K); }
PUT_VECTORS(DEF_PUT)
static void put_int(words *w, int x) { put_words(w, &x, 4, K_INT); }
static void put_uint(words *w, unsigned int x) { put_words(w, &x, 4, K_INT); }
static void put_float(words *w, float x) { put_words(w, &x, 4, K_F32); }
static void put_double(words *w, double x) { put_words(w, &x, 8, K_F64); }
static void put_norm(words *w, norm x) { put_words(w, &x, 4, K_F32); }
static void put_unorm(words *w, unorm x) { put_words(w, &x, 4, K_F32); }
static void put_bool(words *w, bool x) { put_uint(w, x ? 1u : 0u); }
#define PUT_ENTRY(F, N, K) F##_##N : put_##F##_##N,
#define PUT(w, e)                                                                         \
    _Generic((e), PUT_VECTORS(PUT_ENTRY) int : put_int, unsigned int : put_uint,          \
             float : put_float, double : put_double, norm : put_norm, unorm : put_unorm,  \
             bool : put_bool)(w, e)

/* The kernel side of PUT: put(k, x) overloads writing the same words into o. */
static const char glsl_put[] =
    "#define REF\n"
    "#define MAKE_ARGS_2 r0, r1\n"
    "#define MAKE_ARGS_3 r0, r1, r2\n"
    "#define MAKE_ARGS_4 r0, r1, r2, r3\n"
    "void put(inout uint k, uint x) { o(int(k)) = x; k++; }\n"
    "void put(inout uint k, int x) { put(k, uint(x)); }\n"
    "void put(inout uint k, bool x) { put(k, x ? 1u : 0u); }\n"
    "void put(inout uint k, float x) { put(k, floatBitsToUint(x)); }\n"
    "#define PUTV(V) void put(inout uint k, V x) { for (int j = 0; j < x.length(); j++) put(k, x[j]); }\n"
    "PUTV(ivec2) PUTV(ivec3) PUTV(ivec4) PUTV(uvec2) PUTV(uvec3) PUTV(uvec4)\n"
    "PUTV(vec2) PUTV(vec3) PUTV(vec4)\n"
    "#ifdef AMP_HAS_DOUBLE\n"
    "void put(inout uint k, double x) { uvec2 u = unpackDouble2x32(x); put(k, u.x); put(k, u.y); }\n"
    "PUTV(dvec2) PUTV(dvec3) PUTV(dvec4)\n"
    "#endif\n"
    "#define PUTN(T) void put(inout uint k, T x) { put(k, x.v); }\n"
    "PUTN(norm) PUTN(norm_2) PUTN(norm_3) PUTN(norm_4)\n"
    "PUTN(unorm) PUTN(unorm_2) PUTN(unorm_3) PUTN(unorm_4)\n";

/* Host spellings of the macros the GLSL text above defines. */
#define REF &
#define MAKE_ARGS_2 r0, r1
#define MAKE_ARGS_3 r0, r1, r2
#define MAKE_ARGS_4 r0, r1, r2, r3

/* X for the two sides. X2(host, glsl) for the rare expression spelled differently. */
#define HOST_X(e) PUT(w, e); w->cur++;
#define GLSL_X(e) "    put(k, " #e ");\n"
#define HOST_X2(h, g) HOST_X(h)
#define GLSL_X2(h, g) GLSL_X(g)

#define STR_(x) #x
#define STR(x) STR_(x)
#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)

/* ---- Family descriptors ------------------------------------------------------------ */
#define LANE_int int
#define LANE_uint unsigned int
#define LANE_float float
#define LANE_double double
#define LANE_norm float
#define LANE_unorm float
#define SCALAR_int int
#define SCALAR_uint unsigned int
#define SCALAR_float float
#define SCALAR_double double
#define SCALAR_norm norm
#define SCALAR_unorm unorm
#define RAWF_int int /* the plain family holding the lanes (raw, unclamped inputs) */
#define RAWF_uint uint
#define RAWF_float float
#define RAWF_double double
#define RAWF_norm float
#define RAWF_unorm float
#define RAWT(F, N) CAT3(RAWF_##F, _, N)
#define IS_DOUBLE_int 0
#define IS_DOUBLE_uint 0
#define IS_DOUBLE_float 0
#define IS_DOUBLE_double 1
#define IS_DOUBLE_norm 0
#define IS_DOUBLE_unorm 0

/* ---- Expression lists -------------------------------------------------------------- */
/* In scope on both sides: a, b (the type), s (its value type), t (a scratch of the
 * type), r (raw lanes: the plain vector of the lane type, unclamped), r0..r3 its lanes. */

/* One binary operator in every form. */
#define BINOP_FORMS(X, T, op)                                                             \
    X(T##_##op(a, b)) X(T##_##op##s(a, s))                                                \
    X((t = a, T##_##op##_assign(REF t, b))) X(t)                                          \
    X((t = a, T##_##op##s_assign(REF t, s))) X(t)                                         \
    X(amp_##op(a, b)) X(amp_##op##s(a, s))
#define INCDEC_FORMS(X, T, op) X((t = a, T##_##op(REF t))) X(t)
#define EQ_FORMS(X, T)                                                                    \
    X(T##_eq(a, b)) X(T##_ne(a, b)) X(T##_eq(a, a)) X(T##_ne(b, b))                       \
    X(amp_eq(a, b)) X(amp_ne(a, b))

/* Every vector type: the inputs echoed (the kernel reads the host's bytes),
 * construction, + - * /, ==, !=, ++, --. */
#define LIST_COMMON(X, F, N) LIST_COMMON_(X, F##_##N, MAKE_ARGS_##N)
#define LIST_COMMON_(X, T, MA)                                                            \
    X(a) X(b) X(s)                                                                        \
    X(T##_make(MA)) X(T##_splat(r0))                                                      \
    BINOP_FORMS(X, T, add) BINOP_FORMS(X, T, sub) BINOP_FORMS(X, T, mul)                  \
    BINOP_FORMS(X, T, div) EQ_FORMS(X, T)                                                 \
    INCDEC_FORMS(X, T, inc) INCDEC_FORMS(X, T, dec)                                       \
    INCDEC_FORMS(X, T, post_inc) INCDEC_FORMS(X, T, post_dec)
/* int and uint: % & | ^ << >> ~. */
#define LIST_INTEGER(X, F, N) LIST_INTEGER_(X, F##_##N)
#define LIST_INTEGER_(X, T)                                                               \
    BINOP_FORMS(X, T, mod) BINOP_FORMS(X, T, and) BINOP_FORMS(X, T, or)                   \
    BINOP_FORMS(X, T, xor) BINOP_FORMS(X, T, shl) BINOP_FORMS(X, T, shr)                  \
    X(T##_not(a)) X(amp_not(a))
/* int, float, double, norm: unary minus. */
#define LIST_NEG(X, F, N) X(F##_##N##_neg(a)) X(amp_neg(a))
/* Conversions to every family, named and through amp_to_<family>. */
#define CONV_FORMS(X, D, F, N) X(D##_##N##_from_##F##_##N(a)) X(amp_to_##D(a))
#define LIST_CONVERT(X, F, N)                                                             \
    CONV_FORMS(X, int, F, N) CONV_FORMS(X, uint, F, N) CONV_FORMS(X, float, F, N)         \
    CONV_FORMS(X, norm, F, N) CONV_FORMS(X, unorm, F, N)
#define LIST_CONVERT_D(X, F, N) CONV_FORMS(X, double, F, N) /* only with doubles */
/* The clamp rules on float vectors: GLSL has vector overloads, the host lane functions. */
#define CLAMP_ARGS_2(f) f(r0), f(r1)
#define CLAMP_ARGS_3(f) f(r0), f(r1), f(r2)
#define CLAMP_ARGS_4(f) f(r0), f(r1), f(r2), f(r3)
#define LIST_FCLAMP(X, F, N)                                                              \
    X##2(F##_##N##_make(CLAMP_ARGS_##N(amp_norm_clamp)), amp_norm_clamp(r))               \
    X##2(F##_##N##_make(CLAMP_ARGS_##N(amp_unorm_clamp)), amp_unorm_clamp(r))
/* Every swizzle of the library's table (vecmath_swizzle.h; vec.glsl has its own copy):
 * read in both spellings; write in both spellings, from a prefix swizzle of b (xy, xyz,
 * xyzw) and from the same-named swizzle of a into b. */
#define LIST_SWIZZLE(X, F, N) AMP__SWIZZLES_##N(SWZ_##X, F)
#define SWZ_PREFIX_2 xy
#define SWZ_PREFIX_3 xyz
#define SWZ_PREFIX_4 xyzw
#define SWZ_HOST_X(F, N, L, S, C, ...) SWZ_1(HOST_X, F, N, S, C, SWZ_PREFIX_##L)
#define SWZ_GLSL_X(F, N, L, S, C, ...) SWZ_1(GLSL_X, F, N, S, C, SWZ_PREFIX_##L)
#define SWZ_1(X, F, N, S, C, P) SWZ_2(X, F, N, S, C, P)
#define SWZ_2(X, F, N, S, C, P)                                                           \
    X(F##_##N##_##S(a)) X(F##_##N##_##C(a))                                               \
    X((t = a, F##_##N##_set_##S(REF t, F##_##N##_##P(b)), t))                             \
    X((t = b, F##_##N##_set_##C(REF t, F##_##N##_##S(a)), t))

/* Scalar norm and unorm. */
#define SBINOP_FORMS(X, F, op)                                                            \
    X(F##_##op(a, b)) X((t = a, F##_##op##_assign(REF t, b))) X(t) X(amp_##op(a, b))
#define LIST_SCALAR(X, F)                                                                 \
    X(a) X(b) X(F##_make(r0))                                                             \
    SBINOP_FORMS(X, F, add) SBINOP_FORMS(X, F, sub) SBINOP_FORMS(X, F, mul)               \
    SBINOP_FORMS(X, F, div) EQ_FORMS(X, F)                                                \
    INCDEC_FORMS(X, F, inc) INCDEC_FORMS(X, F, dec)                                       \
    INCDEC_FORMS(X, F, post_inc) INCDEC_FORMS(X, F, post_dec)                             \
    X(norm_from_##F(a)) X(unorm_from_##F(a)) X(amp_to_norm(a)) X(amp_to_unorm(a))         \
    X(amp_norm_clamp(r0)) X(amp_unorm_clamp(r0))
#define LIST_SNEG(X, F) X(F##_neg(a)) X(amp_neg(a))

/* The groups each family has. */
#define GROUPS_int(G, F, N) G(COMMON, F, N) G(INTEGER, F, N) G(NEG, F, N) G(CONVERT, F, N) G(CONVERT_D, F, N) G(SWIZZLE, F, N)
#define GROUPS_uint(G, F, N) G(COMMON, F, N) G(INTEGER, F, N) G(CONVERT, F, N) G(CONVERT_D, F, N) G(SWIZZLE, F, N)
#define GROUPS_float(G, F, N) G(COMMON, F, N) G(NEG, F, N) G(CONVERT, F, N) G(CONVERT_D, F, N) G(SWIZZLE, F, N) G(FCLAMP, F, N)
#define GROUPS_double(G, F, N) G(COMMON, F, N) G(NEG, F, N) G(CONVERT, F, N) G(CONVERT_D, F, N) G(SWIZZLE, F, N)
#define GROUPS_norm(G, F, N) G(COMMON, F, N) G(NEG, F, N) G(CONVERT, F, N) G(CONVERT_D, F, N) G(SWIZZLE, F, N)
#define GROUPS_unorm(G, F, N) G(COMMON, F, N) G(CONVERT, F, N) G(CONVERT_D, F, N) G(SWIZZLE, F, N)
#define NEEDS_D_COMMON 0
#define NEEDS_D_INTEGER 0
#define NEEDS_D_NEG 0
#define NEEDS_D_CONVERT 0
#define NEEDS_D_CONVERT_D 1
#define NEEDS_D_SWIZZLE 0
#define NEEDS_D_FCLAMP 0
#define NEEDS_D_SCALAR 0
#define NEEDS_D_SNEG 0

/* ---- Generated host functions and kernel text ---------------------------------------- */

typedef struct inputs {
    const void *a, *b, *s, *r;
} inputs;

typedef struct group {
    const char *name;
    const char *glsl;                                   /* put(k, EXPR); lines */
    void (*host)(words *w, const inputs *in, size_t i); /* the same into w */
    int needs_double;
} group;

#define HOST_PRELUDE(F, N)                                                                \
    const F##_##N a = ((const F##_##N *)in->a)[i], b = ((const F##_##N *)in->b)[i];        \
    F##_##N t = a;                                                                        \
    const SCALAR_##F s = ((const SCALAR_##F *)in->s)[i];                                  \
    const RAWT(F, N) r = ((const RAWT(F, N) *)in->r)[i];                                  \
    const LANE_##F r0 = r.v[0], r1 = r.v[1 % N], r2 = r.v[2 % N], r3 = r.v[3 % N];        \
    (void)a, (void)b, (void)s, (void)t, (void)r0, (void)r1, (void)r2, (void)r3;

#define DEF_GROUP(G, F, N)                                                                \
    static void host_##G##_##F##_##N(words *w, const inputs *in, size_t i) {              \
        HOST_PRELUDE(F, N)                                                                \
        LIST_##G(HOST_X, F, N)                                                            \
    }                                                                                     \
    static const char glsl_##G##_##F##_##N[] = LIST_##G(GLSL_X, F, N);
#define GROUP_ENTRY(G, F, N) {#G, glsl_##G##_##F##_##N, host_##G##_##F##_##N, NEEDS_D_##G},

/* The round-trip transform: the lanes reversed, then a family operation. */
#define RT_int(T, SW) T##_adds(T##_##SW(a), idx)
#define RT_uint(T, SW) T##_xors(T##_##SW(a), uidx)
#define RT_float(T, SW) T##_neg(T##_##SW(a))
#define RT_double(T, SW) T##_neg(T##_##SW(a))
#define RT_norm(T, SW) T##_neg(T##_##SW(a))
#define RT_unorm(T, SW) T##_subs(T##_##SW(a), unorm_make(0.25f))
#define REV_2 yx
#define REV_3 zyx
#define REV_4 wzyx
#define DEF_RT(F, N) DEF_RT1(F, N, REV_##N)
#define DEF_RT1(F, N, SW) DEF_RT2(F, N, SW)
#define DEF_RT2(F, N, SW) DEF_RT3(F##_##N, RT_##F(F##_##N, SW))
#define DEF_RT3(T, E)                                                                     \
    static void host_rt_##T(void *out, const void *in, size_t n) {                        \
        for (size_t i = 0; i < n; ++i) {                                                  \
            int idx = (int)i;                                                             \
            unsigned int uidx = (unsigned int)i;                                          \
            T a = ((const T *)in)[i];                                                     \
            (void)idx, (void)uidx;                                                        \
            ((T *)out)[i] = E;                                                            \
        }                                                                                 \
    }                                                                                     \
    static const char glsl_rt_##T[] = STR(E);

#define DEF_TYPE(F, N, _)                                                                 \
    GROUPS_##F(DEF_GROUP, F, N)                                                           \
    static const group groups_##F##_##N[] = {GROUPS_##F(GROUP_ENTRY, F, N)};              \
    DEF_RT(F, N)

#define TEST_VECTORS(X, ...)                                                              \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(uint, 2, __VA_ARGS__) X(uint, 3, __VA_ARGS__) X(uint, 4, __VA_ARGS__)               \
    X(float, 2, __VA_ARGS__) X(float, 3, __VA_ARGS__) X(float, 4, __VA_ARGS__)            \
    X(double, 2, __VA_ARGS__) X(double, 3, __VA_ARGS__) X(double, 4, __VA_ARGS__)         \
    X(norm, 2, __VA_ARGS__) X(norm, 3, __VA_ARGS__) X(norm, 4, __VA_ARGS__)               \
    X(unorm, 2, __VA_ARGS__) X(unorm, 3, __VA_ARGS__) X(unorm, 4, __VA_ARGS__)
TEST_VECTORS(DEF_TYPE, _)

/* Scalars norm and unorm: a "size 1" type whose raw lanes are a plain float. */
#define HOST_SPRELUDE(F)                                                                  \
    const F a = ((const F *)in->a)[i], b = ((const F *)in->b)[i];                         \
    F t = a;                                                                              \
    const float r0 = ((const float *)in->r)[i];                                           \
    (void)a, (void)b, (void)t, (void)r0;
#define DEF_SGROUP(G, F)                                                                  \
    static void host_##G##_##F(words *w, const inputs *in, size_t i) {                    \
        HOST_SPRELUDE(F)                                                                  \
        LIST_##G(HOST_X, F)                                                               \
    }                                                                                     \
    static const char glsl_##G##_##F[] = LIST_##G(GLSL_X, F);
#define SGROUP_ENTRY(G, F) {#G, glsl_##G##_##F, host_##G##_##F, 0},
DEF_SGROUP(SCALAR, norm)
DEF_SGROUP(SNEG, norm)
DEF_SGROUP(SCALAR, unorm)
static const group groups_norm[] = {SGROUP_ENTRY(SCALAR, norm) SGROUP_ENTRY(SNEG, norm)};
static const group groups_unorm[] = {SGROUP_ENTRY(SCALAR, unorm)};
DEF_RT3(norm, norm_neg(a))
DEF_RT3(unorm, unorm_sub(unorm_make(0.75f), a))

/* ---- Inputs ------------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static double rnd_unit(void) { return (double)(rnd() >> 11) * 0x1p-53; } /* [0, 1) */

static const int edge_int[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 31, 32, 33, -31, -32, -33, 100, -100,
                               INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 0x55555555, -0x55555556};
static const unsigned int edge_uint[] = {0u, 1u, 2u, 3u, 7u, 31u, 32u, 33u, 100u, UINT_MAX, UINT_MAX - 1u,
                                         0x80000000u, 0x7fffffffu, 0x80000001u, 0x55555555u,
                                         0xaaaaaaaau, 0xffff0000u};
#define EDGE_FLOATS(NAN_, INF_, MAXV, MINV, TRUEMIN)                                           \
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1.7, -1.7, 0.8, 0.4, 3.0, -3.0, 0.1,  \
        1e-20, -1e-20, MINV, -MINV, TRUEMIN, -TRUEMIN * 3, MAXV, -MAXV, INF_, -INF_, NAN_, -NAN_, \
        2147483648.0, -2147483648.0, 2147483520.0, -2147483520.0, 4294967296.0, 4294967040.0,    \
        1e20, -1e20, 8388608.5, 0.99999994, -0.99999994, 1.0000001, -1.0000001
static const float edge_float[] = {EDGE_FLOATS(NAN, INFINITY, FLT_MAX, FLT_MIN, 0x1p-149)};
static const double edge_double[] = {
    EDGE_FLOATS((double)NAN, (double)INFINITY, DBL_MAX, DBL_MIN, 0x1p-1074),
    /* to int/uint: the saturation bounds and truncation around them */
    2147483647.0, 2147483647.5, -2147483648.5, -2147483647.5, -2147483649.0, 4294967295.0,
    4294967295.5, 4294967294.5, -4294967296.0,
    /* to float/norm: overflow, underflow (to 0, -0, denormals) and rounding */
    1e300, -1e300, 3.5e38, -3.5e38, 1e-300, -1e-300, 1e-40, -1e-40, 1.0 + 0x1p-30, 1.0 + 0x1p-24,
    1.0 + 3 * 0x1p-24, 0.99999999999, -0.99999999999, 1.0000000001, -1.0000000001};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Which edge lane k takes, if any: a (salt 0) and b (salt 1) together run through every
 * pair of edges in their first E*E lanes; s and r take each edge in their first lanes. */
static bool edge_pick(size_t k, int salt, size_t e, size_t *pick)
{
    if (salt == 0 && k < e * e) *pick = k % e;
    else if (salt == 1 && k < e * e) *pick = k / e;
    else if (salt >= 2 && k < 2 * e) *pick = (k * 7 + (size_t)salt) % e;
    else if (rnd() % 8 == 0) *pick = rnd() % e;
    else return false;
    return true;
}

static void gen_int(void *dst, size_t count, int salt)
{
    int *o = dst;
    for (size_t k = 0; k < count; k++) {
        size_t p;
        uint32_t u = (uint32_t)rnd();
        if (edge_pick(k, salt, COUNT(edge_int), &p)) o[k] = edge_int[p];
        else if (u % 3 == 0) memcpy(&o[k], &u, 4);
        else if (u % 3 == 1) o[k] = (int)(rnd() % 129) - 64;
        else o[k] = (int)(rnd() % (1u << 21)) - (1 << 20);
    }
}
static void gen_uint(void *dst, size_t count, int salt)
{
    unsigned int *o = dst;
    for (size_t k = 0; k < count; k++) {
        size_t p;
        uint32_t u = (uint32_t)rnd();
        if (edge_pick(k, salt, COUNT(edge_uint), &p)) o[k] = edge_uint[p];
        else if (u % 3 == 0) o[k] = (uint32_t)rnd();
        else if (u % 3 == 1) o[k] = (unsigned int)(rnd() % 65);
        else o[k] = (unsigned int)(rnd() % (1u << 21));
    }
}
/* Random floating values: random bits (finite; NaN payloads are not compared), uniform
 * in [-4, 4), and multiples of 1/2. */
#define DEF_GEN_FLOAT(T, EDGES, UBITS)                                             \
    static void gen_##T(void *dst, size_t count, int salt) {                              \
        T *o = dst;                                                                       \
        for (size_t k = 0; k < count; k++) {                                              \
            size_t p;                                                                     \
            uint64_t u = rnd();                                                           \
            if (edge_pick(k, salt, COUNT(EDGES), &p)) o[k] = EDGES[p];                    \
            else if (u % 3 == 0) {                                                        \
                UBITS bits = (UBITS)rnd();                                                \
                memcpy(&o[k], &bits, sizeof bits);                                        \
                if (!isfinite(o[k])) o[k] = (T)(u >> 40);                                 \
            } else if (u % 3 == 1) o[k] = (T)(rnd_unit() * 8.0 - 4.0);                    \
            else o[k] = (T)((int)(rnd() % 41) - 20) / 2;                                  \
        }                                                                                 \
    }
DEF_GEN_FLOAT(float, edge_float, uint32_t)
DEF_GEN_FLOAT(double, edge_double, uint64_t)
/* norm/unorm: values in and around the range, and the float edges, clamped as by norm_make. */
#define DEF_GEN_NORM(F, CLAMP)                                                            \
    static void gen_##F(void *dst, size_t count, int salt) {                              \
        float *o = dst;                                                                   \
        for (size_t k = 0; k < count; k++) {                                              \
            size_t p;                                                                     \
            uint64_t u = rnd();                                                           \
            float x;                                                                      \
            if (edge_pick(k, salt, COUNT(edge_float), &p)) x = edge_float[p];             \
            else if (u % 3 == 0) x = (float)(rnd_unit() * 2.5 - 1.25);                    \
            else if (u % 3 == 1) x = (float)(rnd_unit() * 2.0 - 1.0);                     \
            else x = (float)((int)(rnd() % 17) - 8) / 8;                                  \
            o[k] = CLAMP(x);                                                              \
        }                                                                                 \
    }
DEF_GEN_NORM(norm, amp_norm_clamp)
DEF_GEN_NORM(unorm, amp_unorm_clamp)
#define GEN_RAW_int gen_int
#define GEN_RAW_uint gen_uint
#define GEN_RAW_float gen_float
#define GEN_RAW_double gen_double
#define GEN_RAW_norm gen_float
#define GEN_RAW_unorm gen_float

/* ---- The type table ------------------------------------------------------------------ */

typedef struct type_case {
    const char *name, *scalar, *raw, *lane; /* kernel-side names */
    int n;                                  /* components; 1 for scalar norm/unorm */
    size_t lane_size;
    int is_double;
    void (*gen)(void *, size_t, int), (*gen_raw)(void *, size_t, int);
    const group *groups;
    int group_count;
    void (*host_rt)(void *out, const void *in, size_t n);
    const char *glsl_rt;
} type_case;

#define TYPE_ENTRY(F, N, _)                                                               \
    {#F "_" #N, #F, STR(RAWT(F, N)), STR(RAWF_##F), N, sizeof(LANE_##F), IS_DOUBLE_##F,   \
     gen_##F, GEN_RAW_##F, groups_##F##_##N, (int)COUNT(groups_##F##_##N),                \
     host_rt_##F##_##N, glsl_rt_##F##_##N},
static const type_case types[] = {
    TEST_VECTORS(TYPE_ENTRY, _)
    {"norm", "norm", "float", "float", 1, 4, 0, gen_norm, gen_float, groups_norm, (int)COUNT(groups_norm),
     host_rt_norm, glsl_rt_norm},
    {"unorm", "unorm", "float", "float", 1, 4, 0, gen_unorm, gen_float, groups_unorm, (int)COUNT(groups_unorm),
     host_rt_unorm, glsl_rt_unorm},
};

/* ---- Comparison -------------------------------------------------------------------- */

static long nan_payload_diffs; /* NaN on both sides with different bits (IEEE leaves it open) */

static bool is_nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static bool is_nan64(uint64_t u) { return (u & 0x7fffffffffffffffu) > 0x7ff0000000000000u; }

/* Whether the device flushes float / double subnormals (probed in main). */
static bool flushes32, flushes64;

/* A float or double word's subnormal set to the zero of its sign. */
static uint64_t flush_word(int kind, uint64_t u)
{
    if (kind == K_F32 && (u & 0x7f800000u) == 0) return u & 0x80000000u;
    if (kind == K_F64 && (u & 0x7ff0000000000000u) == 0) return u & 0x8000000000000000u;
    return u;
}
/* Whether d is a zero of either sign where h is a subnormal (a flushed result's sign is
 * not kept by every device: seen on an H200 in clamps and products). */
static bool flushed_any_sign(int kind, uint64_t h, uint64_t d)
{
    uint64_t sign = kind == K_F32 ? 0x80000000u : 0x8000000000000000u;
    return (d & ~sign) == 0 && flush_word(kind, h) != h;
}
/* Whether d is a zero a device makes of a result that rounds to the smallest normal
 * number h (flushing happens before rounding; the zero's sign is not always kept). */
static bool edge_flush(int kind, uint64_t h, uint64_t d)
{
    uint64_t sign = kind == K_F32 ? 0x80000000u : 0x8000000000000000u;
    uint64_t minn = kind == K_F32 ? 0x00800000u : 0x0010000000000000u;
    return (h & ~sign) == minn && (d & ~sign) == 0;
}
/* Lanes apart in the bit order of one sign (a large number when the signs differ). */
static uint64_t ulps_apart(int kind, uint64_t h, uint64_t d)
{
    uint64_t sign = kind == K_F32 ? 0x80000000u : 0x8000000000000000u;
    if ((h & sign) != (d & sign)) return (h & ~sign) == 0 && (d & ~sign) == 0 ? 0 : UINT64_MAX;
    return h > d ? h - d : d - h;
}
/* Flushes the subnormal lanes of n lanes of lane_size bytes (4: float, 8: double). */
static void flush_lanes(void *p, size_t n, size_t lane_size)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = 0;
        memcpy(&u, (char *)p + i * lane_size, lane_size);
        u = flush_word(lane_size == 4 ? K_F32 : K_F64, u);
        memcpy((char *)p + i * lane_size, &u, lane_size);
    }
}
/* Whether lane i of n lanes lies outside the range where Vulkan bounds division by it. */
static bool wild_divisor(const void *p, size_t i, size_t lane_size)
{
    double x;
    if (lane_size == 4) {
        float f;
        memcpy(&f, (const char *)p + i * 4, 4);
        x = fabs((double)f);
        return !(x >= 0x1p-126 && x <= 0x1p126);
    }
    memcpy(&x, (const char *)p + i * 8, 8);
    x = fabs(x);
    return !(x >= 0x1p-1022 && x <= 0x1p1022);
}

/* The expressions of a kernel, one per put line of the group texts. */
typedef struct expr_names {
    const char **name;
    int count;
} expr_names;

static void names_add(expr_names *en, const char *glsl)
{
    for (const char *p = glsl; (p = strstr(p, "put(k, ")) != NULL; p += 7) {
        const char *e = strstr(p, ");\n");
        size_t len = (size_t)(e - (p + 7));
        char *s = malloc(len + 1);
        memcpy(s, p + 7, len);
        s[len] = 0;
        en->name = xrealloc(en->name, (size_t)(en->count + 1) * sizeof *en->name);
        en->name[en->count++] = s;
    }
}

static void names_free(expr_names *en)
{
    for (int i = 0; i < en->count; i++) free((void *)en->name[i]);
    free(en->name);
    memset(en, 0, sizeof *en);
}

static void print_word(char *buf, size_t size, int kind, uint64_t v)
{
    if (kind == K_F32) {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, 4);
        snprintf(buf, size, "%.9g (0x%08x)", (double)f, u);
    } else if (kind == K_F64) {
        double d;
        memcpy(&d, &v, 8);
        snprintf(buf, size, "%.17g (0x%016" PRIx64 ")", d, v);
    } else {
        snprintf(buf, size, "%d (0x%08x)", (int)(uint32_t)v, (uint32_t)v);
    }
}

/* dev must equal host word for word (n elements of W words); NaN == NaN. alt (NULL: none)
 * and wild (per element: a divisor lane outside Vulkan's range) give a flushing device
 * the allowances of the overview. Failures are counted per expression, the first few
 * printed with the element and both values. */
static void compare_words(const char *what, const uint32_t *dev, const words *host, size_t n, size_t W,
                          const expr_names *en, const words *alt, const bool *wild)
{
    int *bad = calloc((size_t)en->count + 1, sizeof *bad);
    bool *div = calloc((size_t)en->count + 1, sizeof *div);
    for (int e = 0; e < en->count; e++) /* a division, or the t a division assigned */
        div[e] = strstr(en->name[e], "div") || (e > 0 && strcmp(en->name[e], "t") == 0 && div[e - 1]);
    long total = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < W; j++) {
            size_t at = i * W + j;
            int kind = host->kind[j];
            uint64_t h = host->w[at], d = dev[at];
            if (kind == K_F64) {
                h |= (uint64_t)host->w[at + 1] << 32;
                d |= (uint64_t)dev[at + 1] << 32;
            }
            bool allowed = false;
            if (h != d && alt) {
                uint64_t ha = alt->w[at];
                if (kind == K_F64) ha |= (uint64_t)alt->w[at + 1] << 32;
                int e = host->expr[j];
                if (kind == K_INT) /* a comparison or conversion of flushed inputs */
                    allowed = ha == d;
                else
                    allowed = ha == d ||
                              ((kind == K_F32 ? flushes32 : flushes64) &&
                               (edge_flush(kind, h, d) || edge_flush(kind, ha, d) || flushed_any_sign(kind, h, d) ||
                                flushed_any_sign(kind, ha, d))) ||
                              (kind == K_F32 ? is_nan32((uint32_t)ha) && is_nan32((uint32_t)d)
                                             : is_nan64(ha) && is_nan64(d)) ||
                              (e < en->count && div[e] && (wild[i] || ulps_apart(kind, h, d) <= 3));
            }
            if (h != d && !allowed) {
                if ((kind == K_F32 && is_nan32((uint32_t)h) && is_nan32((uint32_t)d)) ||
                    (kind == K_F64 && is_nan64(h) && is_nan64(d))) {
                    nan_payload_diffs++;
                } else {
                    int e = host->expr[j];
                    total++;
                    if (bad[e]++ < 3) {
                        char hb[64], db[64];
                        print_word(hb, sizeof hb, kind, h);
                        print_word(db, sizeof db, kind, d);
                        fprintf(stderr, "%s: element %zu, word %zu of %s: host %s, kernel %s\n", what, i, j,
                                e < en->count ? en->name[e] : "?", hb, db);
                    }
                }
            }
            if (kind == K_F64) j++;
        }
    }
    for (int e = 0; e < en->count; e++)
        if (bad[e] > 3) fprintf(stderr, "%s: %s differs in %d elements\n", what, en->name[e], bad[e]);
    test_checks++;
    if (total) {
        fprintf(stderr, "%s: %ld words differ\n", what, total);
        test_failures++;
    }
    free(bad);
    free(div);
}

/* ---- 1 and 2: the per-type kernels ------------------------------------------------------ */

enum { ELEMENTS = 1024 };


static amp_kernel *make_kernel(amp_accelerator_view *v, const char *name, const char *params, const char *source,
                               bool swizzles)
{
    static const char *const defs[] = {"AMP_SWIZZLE_FUNCTIONS"};
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = name, .params = params, .source = source,
                                                            .defines = defs, .define_count = swizzles ? 1 : 0});
    if (!k) fprintf(stderr, "%s: kernel failed: %s\n", name, amp_last_error());
    return k;
}

typedef struct text {
    char *s;
    size_t n, cap;
} text;
static void cat(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cat(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)k + 1 > t->cap) {
        t->cap = (t->n + (size_t)k + 1) * 2;
        t->s = xrealloc(t->s, t->cap);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

/* got must hold want_elems (host vectors, N lanes each, sizeof(T) == N * sizeof(lane) by
 * the library's static asserts): lane j of element i at byte (i * N + j) * sizeof(lane),
 * reported by element, lane and byte offset; on a flushing device a subnormal lane may
 * come back as the zero of its sign, and NaN lanes with another payload count as equal. */
static void check_packed(const char *what, const type_case *tc, const void *got, const void *want_elems, size_t n)
{
    size_t lanes = n * (size_t)tc->n, bad = 0;
    for (size_t lane = 0; lane < lanes; lane++) {
        size_t at = lane * tc->lane_size;
        bool fl = strcmp(tc->lane, "float") == 0 ? flushes32 : strcmp(tc->lane, "double") == 0 && flushes64;
        uint64_t w = 0, g = 0;
        memcpy(&w, (const unsigned char *)want_elems + at, tc->lane_size);
        memcpy(&g, (const unsigned char *)got + at, tc->lane_size);
        int kind = tc->lane_size == 4 ? K_F32 : K_F64;
        if (fl && flushed_any_sign(kind, w, g)) w = g; /* a flushed subnormal */
        if (w != g && strcmp(tc->lane, "int") && strcmp(tc->lane, "uint") &&
            (kind == K_F32 ? is_nan32((uint32_t)w) && is_nan32((uint32_t)g) : is_nan64(w) && is_nan64(g))) {
            nan_payload_diffs++; /* a NaN's payload, as in compare_words */
            w = g;
        }
        if (w != g && bad++ < 3)
            fprintf(stderr, "%s %s: element %zu lane %zu (byte %zu) differs: host 0x%" PRIx64 ", kernel 0x%" PRIx64 "\n",
                    tc->name, what, lane / (size_t)tc->n, lane % (size_t)tc->n, at, w, g);
    }
    test_checks++;
    if (bad) test_failures++;
}

static void run_type(amp_accelerator_view *v, const type_case *tc, bool dbl)
{
    const size_t n = ELEMENTS, lanes = n * (size_t)tc->n;
    void *a = malloc(lanes * tc->lane_size), *b = malloc(lanes * tc->lane_size);
    void *s = malloc(n * tc->lane_size), *r = malloc(lanes * tc->lane_size);
    tc->gen(a, lanes, 0);
    tc->gen(b, lanes, 1);
    tc->gen(s, n, 2);
    tc->gen_raw(r, lanes, 3);
    size_t es = (size_t)tc->n * tc->lane_size; /* element size */
    for (size_t i = 0; i < n; i++) {           /* some equal elements and lanes, for == and != */
        if (i % 16 == 15) memcpy((char *)b + i * es, (char *)a + i * es, es);
        if (i % 16 == 14) memcpy((char *)b + i * es, (char *)a + i * es, tc->lane_size);
    }

    /* the host side */
    inputs in = {a, b, s, r};
    words hw = {0};
    hw.meta = true;
    size_t W = 0;
    for (size_t i = 0; i < n; i++) {
        hw.cur = 0;
        for (int g = 0; g < tc->group_count; g++)
            if (!tc->groups[g].needs_double || dbl) tc->groups[g].host(&hw, &in, i);
        if (i == 0) {
            W = hw.n;
            hw.meta = false;
        }
    }
    REQUIRE_INT(hw.n, W * n);

    /* a flushing device: the host again on inputs with their subnormal lanes flushed, and
       which elements have a divisor lane outside Vulkan's range */
    bool dl = strcmp(tc->lane, "double") == 0, lane_flushes = dl ? flushes64 : strcmp(tc->lane, "float") == 0 && flushes32;
    bool fl = lane_flushes || (dl && flushes32); /* a double's float results may be flushed */
    words alt = {0};
    bool *wild = calloc(n, sizeof *wild);
    if (fl) {
        size_t sl = 1; /* s holds one lane per element */
        void *fa = malloc(lanes * tc->lane_size), *fb = malloc(lanes * tc->lane_size);
        void *fs = malloc(n * sl * tc->lane_size), *fr = malloc(lanes * tc->lane_size);
        memcpy(fa, a, lanes * tc->lane_size);
        memcpy(fb, b, lanes * tc->lane_size);
        memcpy(fs, s, n * sl * tc->lane_size);
        memcpy(fr, r, lanes * tc->lane_size);
        if (lane_flushes) {
            flush_lanes(fa, lanes, tc->lane_size);
            flush_lanes(fb, lanes, tc->lane_size);
            flush_lanes(fs, n * sl, tc->lane_size);
            flush_lanes(fr, lanes, tc->lane_size);
        }
        inputs fin = {fa, fb, fs, fr};
        for (size_t i = 0; i < n; i++) {
            alt.cur = 0;
            for (int g = 0; g < tc->group_count; g++)
                if (!tc->groups[g].needs_double || dbl) tc->groups[g].host(&alt, &fin, i);
            wild[i] = wild_divisor(s, i * sl, tc->lane_size);
            for (int j = 0; j < tc->n; j++) wild[i] |= wild_divisor(b, i * (size_t)tc->n + (size_t)j, tc->lane_size);
        }
        REQUIRE_INT(alt.n, W * n);
        free(fa);
        free(fb);
        free(fs);
        free(fr);
    }

    /* the kernel */
    text src = {0};
    expr_names en = {0};
    cat(&src, "%s", glsl_put);
    cat(&src, "void kernel(index_1 idx) {\n    uint k = uint(idx) * W;\n    uint uidx = uint(idx);\n");
    cat(&src, "    %s a = pa(idx), b = pb(idx), t = a;\n", tc->name);
    if (tc->n > 1) {
        cat(&src, "    %s s = ps(idx);\n    %s r = pr(idx);\n", tc->scalar, tc->raw);
        for (int j = 0; j < tc->n; j++) cat(&src, "    %s r%d = r[%d];\n", tc->lane, j, j);
    } else {
        cat(&src, "    float r0 = pr(idx);\n");
    }
    for (int g = 0; g < tc->group_count; g++)
        if (!tc->groups[g].needs_double || dbl) {
            cat(&src, "%s", tc->groups[g].glsl);
            names_add(&en, tc->groups[g].glsl);
        }
    cat(&src, "    rt(idx) = %s;\n    { %s a = b; rv(idx) = %s; }\n}\n", tc->glsl_rt, tc->name, tc->glsl_rt);
    REQUIRE_INT(en.count, hw.cur);

    char params[512];
    snprintf(params, sizeof params,
             "array_view<const %s, 1> pa, array_view<const %s, 1> pb, array_view<const %s, 1> ps,"
             " array_view<const %s, 1> pr, array_view<uint, 1> o, array<%s, 1> rt, array_view<%s, 1> rv, uint W",
             tc->name, tc->name, tc->n > 1 ? tc->scalar : tc->name, tc->n > 1 ? tc->raw : "float", tc->name, tc->name);
    amp_kernel *k = make_kernel(v, tc->name, params, src.s, true);
    REQUIRE(k);

    amp_type tt = amp_type_from_name(tc->name);
    amp_type ts = amp_type_from_name(tc->n > 1 ? tc->scalar : tc->name);
    amp_type tr = amp_type_from_name(tc->n > 1 ? tc->raw : "float");
    REQUIRE(tt != AMP_TYPE_STRUCT && amp_type_size(tt) == es);
    amp_array *pa = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)n), .type = tt, .data = a});
    amp_array *rt = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)n), .type = tt});
    amp_array_view *pb = amp_array_view_create_const(amp_extent1((int)n), tt, 0, b);
    amp_array_view *ps = amp_array_view_create_const(amp_extent1((int)n), ts, 0, s);
    amp_array_view *pr = amp_array_view_create_const(amp_extent1((int)n), tr, 0, r);
    uint32_t *dev = calloc(n * W, 4);
    unsigned char *rv_mem = calloc(n, es), *rt_mem = calloc(n, es), *want = malloc(n * es);
    amp_array_view *o = amp_array_view_create(amp_extent1((int)(n * W)), AMP_UINT, 0, dev);
    amp_array_view *rv = amp_array_view_create(amp_extent1((int)n), tt, 0, rv_mem);
    REQUIRE(pa && rt && pb && ps && pr && o && rv);
    REQUIRE_OK(amp_array_view_discard_data(o));
    REQUIRE_OK(amp_array_view_discard_data(rv));
    if (k && pa && rt && pb && ps && pr && o && rv) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1((int)n), k,
                                         AMP_ARGS(AMP_ARRAY("pa", pa), AMP_VIEW("pb", pb), AMP_VIEW("ps", ps),
                                                  AMP_VIEW("pr", pr), AMP_VIEW("o", o), AMP_ARRAY("rt", rt),
                                                  AMP_VIEW("rv", rv), AMP_UINT("W", (uint32_t)W))));
        REQUIRE_OK(amp_array_view_synchronize(o));
        REQUIRE_OK(amp_array_view_synchronize(rv));
        REQUIRE_OK(amp_copy_to_host(amp_array_as_view(rt), rt_mem, n * es));
        compare_words(tc->name, dev, &hw, n, W, &en, fl ? &alt : NULL, wild);
        tc->host_rt(want, a, n);
        check_packed("array round trip", tc, rt_mem, want, n);
        tc->host_rt(want, b, n);
        check_packed("array_view round trip", tc, rv_mem, want, n);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&o);
    amp_array_view_destroy(&rv);
    amp_array_view_destroy(&pb);
    amp_array_view_destroy(&ps);
    amp_array_view_destroy(&pr);
    amp_array_destroy(&pa);
    amp_array_destroy(&rt);
    free(dev);
    free(rv_mem);
    free(rt_mem);
    free(want);
    free(src.s);
    names_free(&en);
    words_free(&hw);
    words_free(&alt);
    free(wild);
    free(a);
    free(b);
    free(s);
    free(r);
}

/* ---- 3: texel codes and halves ------------------------------------------------------- */

/* Every code decoded: code c as unorm8/16, as snorm8/16 (c - 32768, so every negative and
 * positive code and values beyond the 8-bit range), as snorm16 beyond its range (c), and
 * as a half. A code argument holds its low 8/16 bits, as the host's uint8_t/int16_t
 * parameters do. */
enum { DECODE_WORDS = 7 };
static void host_decode(uint32_t c, uint32_t *o)
{
    float f[DECODE_WORDS] = {amp_unorm8_decode((uint8_t)c), amp_snorm8_decode((int8_t)((int)c - 32768)),
                             amp_unorm16_decode((uint16_t)c), amp_snorm16_decode((int16_t)((int)c - 32768)),
                             amp_snorm16_decode((int16_t)c), amp_float_from_half((uint16_t)c),
                             amp_unorm16_decode((uint16_t)(c + 7u * 65536u))};
    memcpy(o, f, sizeof f);
}
static const char glsl_decode[] =
    "uint c = uint(idx); int k = idx * 7;\n"
    "o(k) = floatBitsToUint(amp_unorm8_decode(c));\n"
    "o(k + 1) = floatBitsToUint(amp_snorm8_decode(int(c) - 32768));\n"
    "o(k + 2) = floatBitsToUint(amp_unorm16_decode(c));\n"
    "o(k + 3) = floatBitsToUint(amp_snorm16_decode(int(c) - 32768));\n"
    "o(k + 4) = floatBitsToUint(amp_snorm16_decode(int(c)));\n"
    "o(k + 5) = floatBitsToUint(amp_float_from_half(c));\n"
    "o(k + 6) = floatBitsToUint(amp_unorm16_decode(c + 7u * 65536u));\n";

/* Every encoder on one float: two words. */
static void host_encode(float f, uint32_t *o)
{
    o[0] = amp_unorm8_encode(f) | (uint32_t)(uint8_t)amp_snorm8_encode(f) << 8 | (uint32_t)amp_unorm16_encode(f) << 16;
    o[1] = (uint32_t)(uint16_t)amp_snorm16_encode(f) | (uint32_t)amp_half_from_float(f) << 16;
}
static const char glsl_encode[] =
    "float f = uintBitsToFloat(x(idx));\n"
    "o(2 * idx) = amp_unorm8_encode(f) | (uint(amp_snorm8_encode(f)) & 255u) << 8 | amp_unorm16_encode(f) << 16;\n"
    "o(2 * idx + 1) = (uint(amp_snorm16_encode(f)) & 65535u) | amp_half_from_float(f) << 16;\n";

/* The floats to encode: +-4 ulps around every rounding boundary (k + 1/2) / max of the
 * four encodings, on both signs, around every decoded value k / max, and every 4099th bit
 * pattern (all exponents, both signs, denormals, infinities, NaNs). */
static size_t sweep_floats(uint32_t *out)
{
    static const uint32_t maxes[] = {255, 65535, 127, 32767};
    size_t n = 0;
    for (int m = 0; m < 4; m++)
        for (uint32_t c = 0; c < maxes[m]; c++)
            for (int half = 0; half < 2; half++) {
                float x = (float)(((double)c + (half ? 0.5 : 0.0)) / maxes[m]);
                uint32_t u;
                memcpy(&u, &x, 4);
                for (int d = -4; d <= 4; d++) {
                    if (out) {
                        out[n] = u + (uint32_t)d;
                        out[n + 1] = (u + (uint32_t)d) | 0x80000000u;
                    }
                    n += 2;
                }
            }
    for (uint64_t u = 0; u <= UINT32_MAX; u += 4099) {
        if (out) out[n] = (uint32_t)u;
        n++;
    }
    return n;
}

static void run_codes(amp_accelerator_view *v)
{
    /* decode */
    const size_t nd = 65536;
    uint32_t *dev = calloc(nd * DECODE_WORDS, 4), *want = malloc(nd * DECODE_WORDS * 4);
    for (uint32_t c = 0; c < nd; c++) host_decode(c, want + c * DECODE_WORDS);
    amp_array_view *o = amp_array_view_create(amp_extent1((int)(nd * DECODE_WORDS)), AMP_UINT, 0, dev);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = "decode", .params = "array_view<uint, 1> o",
                                                            .body = glsl_decode});
    REQUIRE(k);
    if (k) {
        REQUIRE_OK(amp_array_view_discard_data(o));
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1((int)nd), k, AMP_ARGS(AMP_VIEW("o", o))));
        REQUIRE_OK(amp_array_view_synchronize(o));
        static const char *const what[DECODE_WORDS] = {"unorm8_decode(c)", "snorm8_decode(c - 32768)",
                                                       "unorm16_decode(c)", "snorm16_decode(c - 32768)",
                                                       "snorm16_decode(c)", "float_from_half(c)",
                                                       "unorm16_decode(c + 7 * 65536)"};
        int bad = 0;
        for (size_t i = 0; i < nd * DECODE_WORDS; i++)
            if (dev[i] != want[i] && bad++ < 5)
                fprintf(stderr, "decode: %s for c = %zu: host 0x%08x, kernel 0x%08x\n", what[i % DECODE_WORDS],
                        i / DECODE_WORDS, want[i], dev[i]);
        REQUIRE_INT(bad, 0);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&o);
    free(dev);
    free(want);

    /* encode */
    size_t ne = sweep_floats(NULL);
    uint32_t *x = malloc(ne * 4);
    sweep_floats(x);
    dev = calloc(ne * 2, 4);
    want = malloc(ne * 2 * 4);
    for (size_t i = 0; i < ne; i++) {
        float f;
        memcpy(&f, &x[i], 4);
        host_encode(f, want + 2 * i);
    }
    amp_array_view *vx = amp_array_view_create_const(amp_extent1((int)ne), AMP_UINT, 0, x);
    o = amp_array_view_create(amp_extent1((int)(ne * 2)), AMP_UINT, 0, dev);
    k = amp_kernel_create(v, &(amp_kernel_desc){.name = "encode",
                                                .params = "array_view<const uint, 1> x, array_view<uint, 1> o",
                                                .body = glsl_encode});
    REQUIRE(k);
    if (k) {
        REQUIRE_OK(amp_array_view_discard_data(o));
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1((int)ne), k, AMP_ARGS(AMP_VIEW("x", vx), AMP_VIEW("o", o))));
        REQUIRE_OK(amp_array_view_synchronize(o));
        int bad = 0;
        for (size_t i = 0; i < ne * 2; i++)
            if (dev[i] != want[i] && bad++ < 5) {
                float f;
                memcpy(&f, &x[i / 2], 4);
                fprintf(stderr, "encode %s of %.9g (0x%08x): host 0x%08x, kernel 0x%08x\n",
                        i % 2 ? "snorm16|half" : "unorm8|snorm8|unorm16", (double)f, x[i / 2], want[i], dev[i]);
            }
        REQUIRE_INT(bad, 0);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&o);
    amp_array_view_destroy(&vx);
    free(dev);
    free(want);
    free(x);
}

/* ---- 4: the reference's section 5 facts, in a kernel -------------------------------------- */

#define LIST_FACTS(X)                                                                     \
    X(int_4_from_float_4(float_4_make(1.7f, -1.7f, 2.5f, -0.5f)))                          \
    X(amp_to_int(float_4_make(1.7f, -1.7f, 2.5f, -0.5f)))                                  \
    X(uint_4_from_float_4(float_4_make(-0.5f, -7.0f, 1.7f, 2.5f)))                         \
    X(norm_add(norm_make(0.8f), norm_make(0.4f)))                                          \
    X(amp_add(norm_make(0.8f), norm_make(0.4f)))                                           \
    X(norm_4_add(norm_4_splat(0.8f), norm_4_splat(0.4f)))                                  \
    X(unorm_from_norm(norm_make(-0.5f)))                                                   \
    X(amp_to_unorm(norm_make(-0.5f)))                                                      \
    X(norm_from_unorm(unorm_make(0.75f)))                                                  \
    X(norm_make(pinf)) X(norm_make(ninf)) X(unorm_make(pinf)) X(unorm_make(ninf))          \
    X(norm_make(qnan)) X(unorm_make(qnan))                                                 \
    X(norm_4_make(pinf, ninf, qnan, -2.0f)) X(unorm_4_make(pinf, ninf, qnan, 2.0f))        \
    X(unorm_div(unorm_make(1.0f), unorm_make(2.0f)))                                       \
    X(unorm_div(unorm_make(0.5f), unorm_make(1.0f)))

static uint32_t wf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint32_t wi(int i) { return (uint32_t)i; }

static void host_facts(words *w, float pinf, float ninf, float qnan) { LIST_FACTS(HOST_X) }

static void run_facts(amp_accelerator_view *v)
{
    const uint32_t want[] = {
        wi(1), wi(-1), wi(2), wi(0),                  /* int_4(float_4(1.7, -1.7, 2.5, -0.5)) */
        wi(1), wi(-1), wi(2), wi(0),                  /* the same through amp_to_int */
        0, 0, 1, 2,                                   /* uint_4(float_4(-0.5, -7, 1.7, 2.5)) */
        wf(1.0f), wf(1.0f),                           /* norm(0.8) + norm(0.4) = 1 */
        wf(1.0f), wf(1.0f), wf(1.0f), wf(1.0f),       /* and per lane */
        wf(0.0f), wf(0.0f),                           /* unorm(norm(-0.5)) = 0 (+0) */
        wf(0.75f),                                    /* unorm -> norm is lossless */
        wf(1.0f), wf(-1.0f), wf(1.0f), wf(0.0f),      /* +inf -> 1, -inf -> -1 (norm), 0 (unorm) */
        wf(0.0f), wf(0.0f),                           /* NaN -> 0 (ampvk's choice) */
        wf(1.0f), wf(-1.0f), wf(0.0f), wf(-1.0f),     /* norm_4(inf, -inf, NaN, -2) */
        wf(1.0f), wf(0.0f), wf(0.0f), wf(1.0f),       /* unorm_4(inf, -inf, NaN, 2) */
        /* The reference says unorm(1) / unorm(2) = 0.5, but unorm(2) is already clamped to
         * 1, so the quotient is 1 (docs/vecmath.md follows the library). */
        wf(1.0f),
        wf(0.5f), /* unorm(0.5) / unorm(1) */
    };
    float in[3] = {INFINITY, -INFINITY, NAN};
    words hw = {0};
    hw.meta = true;
    host_facts(&hw, in[0], in[1], in[2]);
    REQUIRE_INT(hw.n, COUNT(want));
    for (size_t i = 0; i < hw.n && i < COUNT(want); i++)
        if (hw.w[i] != want[i]) fprintf(stderr, "facts: host word %zu = 0x%08x, want 0x%08x\n", i, hw.w[i], want[i]);
    REQUIRE(hw.n == COUNT(want) && memcmp(hw.w, want, sizeof want) == 0);

    text src = {0};
    cat(&src, "%svoid kernel(index_1 idx) {\n    uint k = 0u;\n"
              "    float pinf = pin(0), ninf = pin(1), qnan = pin(2);\n%s}\n",
        glsl_put, LIST_FACTS(GLSL_X));
    expr_names en = {0};
    names_add(&en, LIST_FACTS(GLSL_X));
    uint32_t dev[COUNT(want)] = {0};
    amp_array_view *vin = amp_array_view_create_const(amp_extent1(3), AMP_FLOAT, 0, in);
    amp_array_view *o = amp_array_view_create(amp_extent1((int)COUNT(want)), AMP_UINT, 0, dev);
    amp_kernel *k = make_kernel(v, "facts", "array_view<const float, 1> pin, array_view<uint, 1> o", src.s, false);
    REQUIRE(k);
    if (k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k, AMP_ARGS(AMP_VIEW("pin", vin), AMP_VIEW("o", o))));
        REQUIRE_OK(amp_array_view_synchronize(o));
        compare_words("facts", dev, &hw, 1, hw.n, &en, NULL, NULL);
        REQUIRE(memcmp(dev, want, sizeof want) == 0);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&o);
    amp_array_view_destroy(&vin);
    names_free(&en);
    words_free(&hw);
    free(src.s);
}

/* Whether the command line asks for part `name` (every part when it names none). */
static bool wanted(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return true;
    return argc <= 1;
}

/*   test_vecmath_kernel [PART ...]   PART: facts, codes or a scalar type (int, uint, float,
 *                                    double, norm, unorm: its vectors and scalars);
 *                                    every part when none is named */
int main(int argc, char **argv)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    bool dbl = info.supports_double_precision;
    if (!dbl) printf("no double precision: double_N and conversions to double skipped\n");
    flushes32 = test_flushes_subnormals(v, AMP_FLOAT);
    flushes64 = dbl && test_flushes_subnormals(v, AMP_DOUBLE);
    if (flushes32 || flushes64)
        printf("the device flushes subnormals (float: %s, double: %s): Vulkan's allowances apply\n",
               flushes32 ? "yes" : "no", flushes64 ? "yes" : "no");
    if (wanted(argc, argv, "facts")) run_facts(v);
    for (size_t i = 0; i < COUNT(types); i++)
        if ((!types[i].is_double || dbl) && wanted(argc, argv, types[i].scalar)) run_type(v, &types[i], dbl);
    if (wanted(argc, argv, "codes")) run_codes(v);
    if (nan_payload_diffs) printf("note: %ld NaN results with different payloads (both NaN)\n", nan_payload_diffs);
    return test_end();
}
