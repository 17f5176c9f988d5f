/* ampvk/vecmath_types.h: the short-vector types and their traits.
 *
 * Part of <ampvk/vecmath.h>; include that header, not this one. See its overview.
 *
 * Every vector type is a union of {x,y,z,w}, {r,g,b,a} and an array v[N] over one
 * lane type, tightly packed (sizeof(float_3) == 12). norm and unorm lanes are floats
 * that the library keeps clamped; writing a lane directly (n.x = 2) bypasses the clamp,
 * so go through the functions (norm_4_make, norm_4_set_xy ...) instead.
 */
#ifndef AMPVK_VECMATH_TYPES_H
#define AMPVK_VECMATH_TYPES_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

_Static_assert(sizeof(int) == 4 && sizeof(unsigned int) == 4, "ampvk needs a 32-bit int");
_Static_assert(sizeof(float) == 4 && sizeof(double) == 8, "ampvk needs IEEE binary32/64");
_Static_assert(INT_MIN == -INT_MAX - 1, "ampvk needs two's complement int");

/* The scalar norm (float clamped to [-1,1]) and unorm (float clamped to [0,1]).
 * The value is `.v`, as in the kernel-side struct; build one with norm_make(). */
typedef struct norm { float v; } norm;
typedef struct unorm { float v; } unorm;

/* Family descriptors, indexed by token pasting: the lane (storage) type, the scalar
 * (value) type of short_vector_traits, and how to read a scalar's lane. */
#define AMP__LANE_int int
#define AMP__LANE_uint unsigned int
#define AMP__LANE_float float
#define AMP__LANE_double double
#define AMP__LANE_norm float
#define AMP__LANE_unorm float
#define AMP__SCALAR_int int
#define AMP__SCALAR_uint unsigned int
#define AMP__SCALAR_float float
#define AMP__SCALAR_double double
#define AMP__SCALAR_norm norm
#define AMP__SCALAR_unorm unorm
#define AMP__SLANE_int(s) (s)
#define AMP__SLANE_uint(s) (s)
#define AMP__SLANE_float(s) (s)
#define AMP__SLANE_double(s) (s)
#define AMP__SLANE_norm(s) ((s).v)
#define AMP__SLANE_unorm(s) ((s).v)

/* X-macro lists: every family, every (family, size). */
#define AMP__FAMILIES(X) X(int) X(uint) X(float) X(double) X(norm) X(unorm)
#define AMP__VECTORS(X, ...)                                                              \
    X(int, 2, __VA_ARGS__) X(int, 3, __VA_ARGS__) X(int, 4, __VA_ARGS__)                  \
    X(uint, 2, __VA_ARGS__) X(uint, 3, __VA_ARGS__) X(uint, 4, __VA_ARGS__)               \
    X(float, 2, __VA_ARGS__) X(float, 3, __VA_ARGS__) X(float, 4, __VA_ARGS__)            \
    X(double, 2, __VA_ARGS__) X(double, 3, __VA_ARGS__) X(double, 4, __VA_ARGS__)         \
    X(norm, 2, __VA_ARGS__) X(norm, 3, __VA_ARGS__) X(norm, 4, __VA_ARGS__)               \
    X(unorm, 2, __VA_ARGS__) X(unorm, 3, __VA_ARGS__) X(unorm, 4, __VA_ARGS__)

/* Type generator: one union per (family, size). */
#define AMP__VEC_FIELDS_2(L) struct { L x, y; }; struct { L r, g; };
#define AMP__VEC_FIELDS_3(L) struct { L x, y, z; }; struct { L r, g, b; };
#define AMP__VEC_FIELDS_4(L) struct { L x, y, z, w; }; struct { L r, g, b, a; };
#define AMP__DEF_VECTOR_TYPE(F, N, _)                                                     \
    typedef union F##_##N {                                                               \
        AMP__VEC_FIELDS_##N(AMP__LANE_##F)                                                \
        AMP__LANE_##F v[N];                                                               \
    } F##_##N;                                                                            \
    typedef AMP__SCALAR_##F F##_##N##_value_type;                                         \
    _Static_assert(sizeof(F##_##N) == N * sizeof(AMP__LANE_##F), #F "_" #N " is packed");
AMP__VECTORS(AMP__DEF_VECTOR_TYPE, _)

_Static_assert(sizeof(norm) == 4 && sizeof(unorm) == 4, "norm/unorm hold one float");
_Static_assert(sizeof(float_3) == 12 && sizeof(double_3) == 24 && sizeof(norm_4) == 16,
               "short vectors are tightly packed");

/* short_vector<Scalar, 1>::type is the scalar itself. */
typedef int int_1;
typedef unsigned int uint_1;
typedef float float_1;
typedef double double_1;
typedef norm norm_1;
typedef unorm unorm_1;
typedef int int_1_value_type;
typedef unsigned int uint_1_value_type;
typedef float float_1_value_type;
typedef double double_1_value_type;
typedef norm norm_1_value_type;
typedef unorm unorm_1_value_type;
typedef norm norm_value_type;
typedef unorm unorm_value_type;

/* Traits, the C form of short_vector<Scalar,N> and short_vector_traits<T>.
 *   AMP_SHORT_VECTOR(S, N)      the type for family S (int uint float double norm unorm,
 *                               as one token) and N in 1..4: AMP_SHORT_VECTOR(uint, 3)
 *                               is uint_3, AMP_SHORT_VECTOR(float, 1) is float.
 *   AMP_VECTOR_VALUE_TYPE(T)    the scalar type of a type name T (float_4 -> float,
 *                               norm_2 -> norm, uint_1 -> unsigned int).
 *   AMP_VECTOR_SIZE(e)          the component count of an expression e (a vector or a
 *                               scalar of the six families); an integer constant
 *                               expression, e is not evaluated.
 *   AMP_VECTOR_SIZE_OF(T)       the same for a type name.
 *   AMP_VECTOR_SCALAR_NAME(e)   the family of e as a string ("float", "norm" ...). */
#define AMP_SHORT_VECTOR(S, N) S##_##N
#define AMP_VECTOR_VALUE_TYPE(T) T##_value_type
#define AMP__SIZE_ENTRY(F, N, _) F##_##N : N,
#define AMP_VECTOR_SIZE(e)                                                                \
    _Generic((e), AMP__VECTORS(AMP__SIZE_ENTRY, _) int : 1, unsigned int : 1, float : 1,  \
             double : 1, norm : 1, unorm : 1)
#define AMP_VECTOR_SIZE_OF(T) AMP_VECTOR_SIZE(*(T *)0)
#define AMP__NAME_ENTRY(F, N, _) F##_##N : #F,
#define AMP_VECTOR_SCALAR_NAME(e)                                                         \
    _Generic((e), AMP__VECTORS(AMP__NAME_ENTRY, _) int : "int", unsigned int : "uint",    \
             float : "float", double : "double", norm : "norm", unorm : "unorm")

#endif /* AMPVK_VECMATH_TYPES_H */
