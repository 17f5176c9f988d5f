/* ampvk/vecmath_ops.h: clamping, lane rules, construction and arithmetic.
 *
 * Part of <ampvk/vecmath.h>; include that header, not this one. See its overview for the
 * naming scheme and for the semantics decisions (NaN, inf, wrap, shifts, division by 0).
 *
 * Structure: each family has lane functions amp__<op>_<family>(x, y) that carry the
 * family's rules (wrap, clamp, defined division); one generator per function family then
 * lifts them component-wise over every (family, size). The kernel-side twin
 * (shaders/ampvk/vec.glsl) implements the same lane rules with the same algorithms.
 */
#ifndef AMPVK_VECMATH_OPS_H
#define AMPVK_VECMATH_OPS_H

#include "vecmath_types.h"

/* ---- Clamping ------------------------------------------------------------------ */

/* amp_norm_clamp / amp_unorm_clamp: the value a norm / unorm holds for x.
 * norm: [-1,1], unorm: [0,1]; +inf -> 1; -inf -> -1 (norm) or 0 (unorm); NaN -> 0;
 * a zero result is always +0. Written with ordered comparisons only, so NaN falls
 * through to 0 without isnan() (do not build with -ffast-math / -ffinite-math-only). */
static inline float amp_norm_clamp(float x) {
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : x < 0.0f ? (x > -1.0f ? x : -1.0f) : 0.0f;
}
static inline float amp_unorm_clamp(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
/* double -> norm: clamp in double, round to float, then the float rule again, because a
 * negative x of magnitude at most 2^-150 rounds to -0.0f, which a norm never holds (the
 * kernel side clamps the same way). */
static inline float amp__norm_clamp_d(double x) {
    return amp_norm_clamp(x > 0.0 ? (x < 1.0 ? (float)x : 1.0f) : x < 0.0 ? (x > -1.0 ? (float)x : -1.0f) : 0.0f);
}
static inline float amp__unorm_clamp_d(double x) {
    return x > 0.0 ? (x < 1.0 ? (float)x : 1.0f) : 0.0f;
}

/* ---- Integer lane rules -------------------------------------------------------- */

/* Bits of u as an int (modulo 2^32), without implementation-defined conversion. */
static inline int amp__u2i(unsigned int u) {
    return u <= (unsigned int)INT_MAX ? (int)u : (int)(u - 0x80000000u) + INT_MIN;
}

/* int: + - * and unary - wrap modulo 2^32 (as on the GPU). */
static inline int amp__add_int(int a, int b) { return amp__u2i((unsigned int)a + (unsigned int)b); }
static inline int amp__sub_int(int a, int b) { return amp__u2i((unsigned int)a - (unsigned int)b); }
static inline int amp__mul_int(int a, int b) { return amp__u2i((unsigned int)a * (unsigned int)b); }
static inline int amp__neg_int(int a) { return amp__u2i(0u - (unsigned int)a); }
/* int / and %: truncating (C semantics), computed on magnitudes; a / 0 = -1, a % 0 = a,
 * INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0 (the RISC-V rules; same on the GPU). */
static inline unsigned int amp__mag(int a) { return a < 0 ? 0u - (unsigned int)a : (unsigned int)a; }
static inline int amp__div_int(int a, int b) {
    if (b == 0) return -1;
    unsigned int q = amp__mag(a) / amp__mag(b);
    return (a < 0) != (b < 0) ? amp__u2i(0u - q) : amp__u2i(q);
}
static inline int amp__mod_int(int a, int b) {
    if (b == 0) return a;
    unsigned int r = amp__mag(a) % amp__mag(b);
    return a < 0 ? amp__u2i(0u - r) : amp__u2i(r);
}
static inline int amp__and_int(int a, int b) { return a & b; }
static inline int amp__or_int(int a, int b) { return a | b; }
static inline int amp__xor_int(int a, int b) { return a ^ b; }
static inline int amp__not_int(int a) { return ~a; }
/* Shifts: the count is masked to its low 5 bits (count & 31), as GPUs do; >> on int is
 * arithmetic (copies the sign bit). */
static inline int amp__shl_int(int a, int b) {
    return amp__u2i((unsigned int)a << ((unsigned int)b & 31u));
}
static inline int amp__shr_int(int a, int b) {
    unsigned int s = (unsigned int)b & 31u;
    return a < 0 ? ~(~a >> s) : a >> s;
}

/* uint: + - * wrap; a / 0 = UINT_MAX, a % 0 = a; shift counts masked with 31. */
static inline unsigned int amp__add_uint(unsigned int a, unsigned int b) { return a + b; }
static inline unsigned int amp__sub_uint(unsigned int a, unsigned int b) { return a - b; }
static inline unsigned int amp__mul_uint(unsigned int a, unsigned int b) { return a * b; }
static inline unsigned int amp__div_uint(unsigned int a, unsigned int b) { return b ? a / b : UINT_MAX; }
static inline unsigned int amp__mod_uint(unsigned int a, unsigned int b) { return b ? a % b : a; }
static inline unsigned int amp__and_uint(unsigned int a, unsigned int b) { return a & b; }
static inline unsigned int amp__or_uint(unsigned int a, unsigned int b) { return a | b; }
static inline unsigned int amp__xor_uint(unsigned int a, unsigned int b) { return a ^ b; }
static inline unsigned int amp__not_uint(unsigned int a) { return ~a; }
static inline unsigned int amp__shl_uint(unsigned int a, unsigned int b) { return a << (b & 31u); }
static inline unsigned int amp__shr_uint(unsigned int a, unsigned int b) { return a >> (b & 31u); }

/* ---- Floating lane rules (float, double, norm, unorm) ---------------------------- */

/* IEEE arithmetic, then the family's clamp (none for float and double). */
#define AMP__NOCLAMP(x) (x)
#define AMP__DEF_FLOAT_LANES(F, L, CLAMP)                                                 \
    static inline L amp__add_##F(L a, L b) { return CLAMP(a + b); }                       \
    static inline L amp__sub_##F(L a, L b) { return CLAMP(a - b); }                       \
    static inline L amp__mul_##F(L a, L b) { return CLAMP(a * b); }                       \
    static inline L amp__div_##F(L a, L b) { return CLAMP(a / b); }                       \
    static inline L amp__neg_##F(L a) { return CLAMP(-a); }                               \
    static inline L amp__in_##F(L a) { return CLAMP(a); }
AMP__DEF_FLOAT_LANES(float, float, AMP__NOCLAMP)
AMP__DEF_FLOAT_LANES(double, double, AMP__NOCLAMP)
AMP__DEF_FLOAT_LANES(norm, float, amp_norm_clamp)
AMP__DEF_FLOAT_LANES(unorm, float, amp_unorm_clamp)
static inline int amp__in_int(int a) { return a; }
static inline unsigned int amp__in_uint(unsigned int a) { return a; }
static inline unsigned int amp__neg_uint(unsigned int a) { return 0u - a; } /* internal only */

/* ---- Scalar norm and unorm --------------------------------------------------- */

/* norm_make(x) / unorm_make(x): the clamped value (see amp_norm_clamp).
 * norm_add sub mul div(a, b): the clamped result; norm_neg(a) (norm only).
 * norm_add_assign(&a, b) ...: a = a op b, returns the new a.
 * norm_inc(&a) / norm_dec(&a): ++a / --a, return the new value (pre-increment);
 * norm_post_inc(&a) / norm_post_dec(&a): a++ / a--, return the old value.
 * norm_eq(a, b): a == b; norm_ne(a, b): a != b. */
#define AMP__DEF_SCALAR_BINOP(F, op)                                                      \
    static inline F F##_##op(F a, F b) { F r = {amp__##op##_##F(a.v, b.v)}; return r; }   \
    static inline F F##_##op##_assign(F *a, F b) { return *a = F##_##op(*a, b); }
#define AMP__DEF_SCALAR_NORM(F)                                                           \
    static inline F F##_make(float x) { F r = {amp__in_##F(x)}; return r; }               \
    AMP__DEF_SCALAR_BINOP(F, add) AMP__DEF_SCALAR_BINOP(F, sub)                           \
    AMP__DEF_SCALAR_BINOP(F, mul) AMP__DEF_SCALAR_BINOP(F, div)                           \
    static inline bool F##_eq(F a, F b) { return a.v == b.v; }                            \
    static inline bool F##_ne(F a, F b) { return !(a.v == b.v); }                         \
    static inline F F##_inc(F *a) { return *a = F##_add(*a, F##_make(1.0f)); }            \
    static inline F F##_dec(F *a) { return *a = F##_make(a->v - 1.0f); }                  \
    static inline F F##_post_inc(F *a) { F o = *a; F##_inc(a); return o; }                \
    static inline F F##_post_dec(F *a) { F o = *a; F##_dec(a); return o; }
AMP__DEF_SCALAR_NORM(norm)
AMP__DEF_SCALAR_NORM(unorm)
static inline norm norm_neg(norm a) { norm r = {amp__neg_norm(a.v)}; return r; }

/* ---- Vectors ---------------------------------------------------------------------- */

/* T_make(x, y[, z[, w]]): a vector from its components; T_splat(s): every component s.
 * The arguments are lanes (int, unsigned int, float, double; float for norm and unorm,
 * which are clamped). */
#define AMP__MAKE_PARAMS_2(L) L x, L y
#define AMP__MAKE_PARAMS_3(L) L x, L y, L z
#define AMP__MAKE_PARAMS_4(L) L x, L y, L z, L w
#define AMP__MAKE_ARGS_2(F) amp__in_##F(x), amp__in_##F(y)
#define AMP__MAKE_ARGS_3(F) AMP__MAKE_ARGS_2(F), amp__in_##F(z)
#define AMP__MAKE_ARGS_4(F) AMP__MAKE_ARGS_3(F), amp__in_##F(w)
#define AMP__DEF_MAKE(F, N, _)                                                            \
    static inline F##_##N F##_##N##_make(AMP__MAKE_PARAMS_##N(AMP__LANE_##F)) {           \
        F##_##N r = {.v = {AMP__MAKE_ARGS_##N(F)}};                                       \
        return r;                                                                         \
    }                                                                                     \
    static inline F##_##N F##_##N##_splat(AMP__LANE_##F s) {                              \
        F##_##N r;                                                                        \
        for (int i = 0; i < N; ++i) r.v[i] = amp__in_##F(s);                              \
        return r;                                                                         \
    }
AMP__VECTORS(AMP__DEF_MAKE, _)

/* Binary operators, for op in add sub mul div (all families) and mod and or xor shl shr
 * (int and uint):
 *   T_op(a, b)             component-wise a op b
 *   T_ops(a, s)            a op splat(s), s of the value type (int, unsigned int, float,
 *                          double, norm, unorm)
 *   T_op_assign(&a, b)     a = a op b; returns the new a      (a op= b)
 *   T_ops_assign(&a, s)    a = a op s; returns the new a */
#define AMP__DEF_BINOP(F, N, op)                                                          \
    static inline F##_##N F##_##N##_##op(F##_##N a, F##_##N b) {                          \
        F##_##N r;                                                                        \
        for (int i = 0; i < N; ++i) r.v[i] = amp__##op##_##F(a.v[i], b.v[i]);             \
        return r;                                                                         \
    }                                                                                     \
    static inline F##_##N F##_##N##_##op##s(F##_##N a, AMP__SCALAR_##F s) {               \
        F##_##N r;                                                                        \
        for (int i = 0; i < N; ++i) r.v[i] = amp__##op##_##F(a.v[i], AMP__SLANE_##F(s));  \
        return r;                                                                         \
    }                                                                                     \
    static inline F##_##N F##_##N##_##op##_assign(F##_##N *a, F##_##N b) {                \
        return *a = F##_##N##_##op(*a, b);                                                \
    }                                                                                     \
    static inline F##_##N F##_##N##_##op##s_assign(F##_##N *a, AMP__SCALAR_##F s) {       \
        return *a = F##_##N##_##op##s(*a, s);                                             \
    }
/* Unary operators: T_neg(a) (-a; not for uint, unorm), T_not(a) (~a; int, uint). */
#define AMP__DEF_UNOP(F, N, op)                                                           \
    static inline F##_##N F##_##N##_##op(F##_##N a) {                                     \
        F##_##N r;                                                                        \
        for (int i = 0; i < N; ++i) r.v[i] = amp__##op##_##F(a.v[i]);                     \
        return r;                                                                         \
    }
/* T_eq(a, b): all components equal (NaN equals nothing); T_ne(a, b) = !T_eq(a, b).
 * T_inc(&a) / T_dec(&a): ++a / --a (every component +-1, with the family's wrap or
 * clamp), return the new value; T_post_inc(&a) / T_post_dec(&a): a++ / a--, return the
 * old value. */
#define AMP__DEF_COMMON(F, N, _)                                                          \
    AMP__DEF_BINOP(F, N, add) AMP__DEF_BINOP(F, N, sub)                                   \
    AMP__DEF_BINOP(F, N, mul) AMP__DEF_BINOP(F, N, div)                                   \
    static inline bool F##_##N##_eq(F##_##N a, F##_##N b) {                               \
        for (int i = 0; i < N; ++i)                                                       \
            if (!(a.v[i] == b.v[i])) return false;                                        \
        return true;                                                                      \
    }                                                                                     \
    static inline bool F##_##N##_ne(F##_##N a, F##_##N b) { return !F##_##N##_eq(a, b); } \
    static inline F##_##N F##_##N##_inc(F##_##N *a) {                                     \
        return *a = F##_##N##_add(*a, F##_##N##_splat(1));                                \
    }                                                                                     \
    static inline F##_##N F##_##N##_dec(F##_##N *a) {                                     \
        F##_##N one = F##_##N##_splat(1);                                                 \
        F##_##N r;                                                                        \
        for (int i = 0; i < N; ++i) r.v[i] = amp__sub_##F(a->v[i], one.v[i]);             \
        return *a = r;                                                                    \
    }                                                                                     \
    static inline F##_##N F##_##N##_post_inc(F##_##N *a) {                                \
        F##_##N o = *a;                                                                   \
        F##_##N##_inc(a);                                                                 \
        return o;                                                                         \
    }                                                                                     \
    static inline F##_##N F##_##N##_post_dec(F##_##N *a) {                                \
        F##_##N o = *a;                                                                   \
        F##_##N##_dec(a);                                                                 \
        return o;                                                                         \
    }
#define AMP__DEF_INTEGER(F, N)                                                            \
    AMP__DEF_BINOP(F, N, mod) AMP__DEF_BINOP(F, N, and) AMP__DEF_BINOP(F, N, or)          \
    AMP__DEF_BINOP(F, N, xor) AMP__DEF_BINOP(F, N, shl) AMP__DEF_BINOP(F, N, shr)         \
    AMP__DEF_UNOP(F, N, not)
AMP__VECTORS(AMP__DEF_COMMON, _)
#define AMP__DEF_PER_SIZE(X, F) X(F, 2) X(F, 3) X(F, 4)
AMP__DEF_PER_SIZE(AMP__DEF_INTEGER, int)
AMP__DEF_PER_SIZE(AMP__DEF_INTEGER, uint)
#define AMP__DEF_NEG(F, N) AMP__DEF_UNOP(F, N, neg)
AMP__DEF_PER_SIZE(AMP__DEF_NEG, int)
AMP__DEF_PER_SIZE(AMP__DEF_NEG, float)
AMP__DEF_PER_SIZE(AMP__DEF_NEG, double)
AMP__DEF_PER_SIZE(AMP__DEF_NEG, norm)

#endif /* AMPVK_VECMATH_OPS_H */
