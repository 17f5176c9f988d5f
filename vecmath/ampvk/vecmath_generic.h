/* ampvk/vecmath_generic.h: C11 _Generic front-ends over the named functions.
 *
 * Part of <ampvk/vecmath.h>; include that header, not this one. Each front-end picks the
 * named function by the type of its first argument and calls it, so the rules are the
 * named function's. The kernel side has the same names as GLSL overloads.
 *
 *   amp_add sub mul div(a, b)      vector op vector of one type, or norm op norm,
 *                                  unorm op unorm              -> T_add(a, b) ...
 *   amp_adds subs muls divs(v, s)  vector op scalar (s of the value type) -> T_adds(v, s)
 *   amp_mod and or xor shl shr(a, b), amp_mods ands ors xors shls shrs(v, s)
 *                                  int_N and uint_N only
 *   amp_neg(a)                     int, float, double, norm vectors and norm
 *   amp_not(a)                     int and uint vectors (~a)
 *   amp_eq(a, b), amp_ne(a, b)     bool, every vector type, norm, unorm
 *   amp_add_assign sub_assign mul_assign div_assign(&a, b), amp_inc dec post_inc
 *   post_dec(&a)                   by pointer, every vector type, norm, unorm
 *   amp_to_int uint float double norm unorm(v)
 *                                  the same size in another family: D_N_from_S_N(v);
 *                                  amp_to_norm / amp_to_unorm also take norm and unorm
 * A vector and a scalar take the `s` form (amp_adds): the plain form does not accept
 * one, so that each argument is expanded once and nested calls stay small.
 */
#ifndef AMPVK_VECMATH_GENERIC_H
#define AMPVK_VECMATH_GENERIC_H

#include "vecmath_convert.h"

#define AMP__INT_VECTORS(X, ...)                                                          \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(uint, 2, __VA_ARGS__) X(uint, 3, __VA_ARGS__) X(uint, 4, __VA_ARGS__)
#define AMP__NEG_VECTORS(X, ...)                                                          \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(float, 2, __VA_ARGS__) X(float, 3, __VA_ARGS__) X(float, 4, __VA_ARGS__)            \
    X(double, 2, __VA_ARGS__) X(double, 3, __VA_ARGS__) X(double, 4, __VA_ARGS__)         \
    X(norm, 2, __VA_ARGS__) X(norm, 3, __VA_ARGS__) X(norm, 4, __VA_ARGS__)

/* Association generators: `, T: T_op` and `, T *: T_op`. */
#define AMP__GA(F, N, op) , F##_##N : F##_##N##_##op
#define AMP__GP(F, N, op) , F##_##N * : F##_##N##_##op
#define AMP__GC(F, N, D) , F##_##N : D##_##N##_from_##F##_##N

#define AMP__GEN_ALL(op, a) _Generic((a) AMP__VECTORS(AMP__GA, op), norm : norm_##op, unorm : unorm_##op)
#define AMP__GEN_VEC(op, a) _Generic((a) AMP__VECTORS(AMP__GA, op))
#define AMP__GEN_INT(op, a) _Generic((a) AMP__INT_VECTORS(AMP__GA, op))
#define AMP__GEN_PTR(op, p) _Generic((p) AMP__VECTORS(AMP__GP, op), norm * : norm_##op, unorm * : unorm_##op)

#define amp_add(a, b) AMP__GEN_ALL(add, a)((a), (b))
#define amp_sub(a, b) AMP__GEN_ALL(sub, a)((a), (b))
#define amp_mul(a, b) AMP__GEN_ALL(mul, a)((a), (b))
#define amp_div(a, b) AMP__GEN_ALL(div, a)((a), (b))
#define amp_eq(a, b) AMP__GEN_ALL(eq, a)((a), (b))
#define amp_ne(a, b) AMP__GEN_ALL(ne, a)((a), (b))
#define amp_adds(v, s) AMP__GEN_VEC(adds, v)((v), (s))
#define amp_subs(v, s) AMP__GEN_VEC(subs, v)((v), (s))
#define amp_muls(v, s) AMP__GEN_VEC(muls, v)((v), (s))
#define amp_divs(v, s) AMP__GEN_VEC(divs, v)((v), (s))

#define amp_mod(a, b) AMP__GEN_INT(mod, a)((a), (b))
#define amp_and(a, b) AMP__GEN_INT(and, a)((a), (b))
#define amp_or(a, b) AMP__GEN_INT(or, a)((a), (b))
#define amp_xor(a, b) AMP__GEN_INT(xor, a)((a), (b))
#define amp_shl(a, b) AMP__GEN_INT(shl, a)((a), (b))
#define amp_shr(a, b) AMP__GEN_INT(shr, a)((a), (b))
#define amp_mods(v, s) AMP__GEN_INT(mods, v)((v), (s))
#define amp_ands(v, s) AMP__GEN_INT(ands, v)((v), (s))
#define amp_ors(v, s) AMP__GEN_INT(ors, v)((v), (s))
#define amp_xors(v, s) AMP__GEN_INT(xors, v)((v), (s))
#define amp_shls(v, s) AMP__GEN_INT(shls, v)((v), (s))
#define amp_shrs(v, s) AMP__GEN_INT(shrs, v)((v), (s))
#define amp_not(a) AMP__GEN_INT(not, a)(a)
#define amp_neg(a) _Generic((a) AMP__NEG_VECTORS(AMP__GA, neg), norm : norm_neg)(a)

#define amp_add_assign(p, b) AMP__GEN_PTR(add_assign, p)((p), (b))
#define amp_sub_assign(p, b) AMP__GEN_PTR(sub_assign, p)((p), (b))
#define amp_mul_assign(p, b) AMP__GEN_PTR(mul_assign, p)((p), (b))
#define amp_div_assign(p, b) AMP__GEN_PTR(div_assign, p)((p), (b))
#define amp_inc(p) AMP__GEN_PTR(inc, p)(p)
#define amp_dec(p) AMP__GEN_PTR(dec, p)(p)
#define amp_post_inc(p) AMP__GEN_PTR(post_inc, p)(p)
#define amp_post_dec(p) AMP__GEN_PTR(post_dec, p)(p)

#define amp_to_int(v) _Generic((v) AMP__VECTORS(AMP__GC, int))(v)
#define amp_to_uint(v) _Generic((v) AMP__VECTORS(AMP__GC, uint))(v)
#define amp_to_float(v) _Generic((v) AMP__VECTORS(AMP__GC, float))(v)
#define amp_to_double(v) _Generic((v) AMP__VECTORS(AMP__GC, double))(v)
#define amp_to_norm(v)                                                                    \
    _Generic((v) AMP__VECTORS(AMP__GC, norm), norm : norm_from_norm, unorm : norm_from_unorm)(v)
#define amp_to_unorm(v)                                                                   \
    _Generic((v) AMP__VECTORS(AMP__GC, unorm), norm : unorm_from_norm, unorm : unorm_from_unorm)(v)

#endif /* AMPVK_VECMATH_GENERIC_H */
