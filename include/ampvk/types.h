/*
 * ampvk/types.h: element types of arrays, array_views and kernel arguments.
 *
 * An element type is a scalar family (int, uint, float, double, norm, unorm)
 * and a component count (1 to 4), packed in one amp_type value:
 * AMP_FLOAT_4 is four 32-bit floats (16 bytes), AMP_FLOAT_3 three (12 bytes,
 * tightly packed as in C++ AMP; kernels see the same bytes through scalar
 * block layout). norm and unorm are 32-bit floats clamped to [-1,1] and [0,1].
 * AMP_TYPE_STRUCT (0) is any other element whose size is a multiple of 4
 * bytes, a user struct for example; its size is given separately.
 *
 * The names match the short-vector types of vecmath/ampvk/vecmath.h and of the
 * kernel side (int, uint_2, float_4, norm_3 ...).
 */
#ifndef AMPVK_TYPES_H
#define AMPVK_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scalar families. */
typedef enum amp_scalar {
    AMP_SCALAR_NONE = 0, /* a struct or other opaque element */
    AMP_SCALAR_INT,
    AMP_SCALAR_UINT,
    AMP_SCALAR_FLOAT,
    AMP_SCALAR_DOUBLE,
    AMP_SCALAR_NORM,
    AMP_SCALAR_UNORM
} amp_scalar;

/* An element type: scalar family in bits 3.., component count in bits 0..2. */
#define AMP_MAKE_TYPE(scalar, n) ((scalar) << 3 | (n))
typedef enum amp_type {
    AMP_TYPE_STRUCT = 0,
#define AMP__TYPES(NAME, S)                                                     \
    AMP_##NAME = AMP_MAKE_TYPE(S, 1), AMP_##NAME##_2 = AMP_MAKE_TYPE(S, 2),     \
    AMP_##NAME##_3 = AMP_MAKE_TYPE(S, 3), AMP_##NAME##_4 = AMP_MAKE_TYPE(S, 4)
    AMP__TYPES(INT, AMP_SCALAR_INT),
    AMP__TYPES(UINT, AMP_SCALAR_UINT),
    AMP__TYPES(FLOAT, AMP_SCALAR_FLOAT),
    AMP__TYPES(DOUBLE, AMP_SCALAR_DOUBLE),
    AMP__TYPES(NORM, AMP_SCALAR_NORM),
    AMP__TYPES(UNORM, AMP_SCALAR_UNORM)
#undef AMP__TYPES
} amp_type;

/* The scalar family of t (AMP_SCALAR_NONE for AMP_TYPE_STRUCT or an invalid value). */
amp_scalar amp_type_scalar(amp_type t);
/* Component count of t: 1..4, 0 for a struct or invalid value. */
int amp_type_components(amp_type t);
/* Size in bytes of one element of t, 0 for a struct or invalid value. */
size_t amp_type_size(amp_type t);
/* The C++ AMP / kernel-side name ("int", "float_4", "unorm_2"); "struct" for
 * AMP_TYPE_STRUCT, "invalid" for anything else. */
const char *amp_type_name(amp_type t);
/* The type named name ("uint_3"), or AMP_TYPE_STRUCT when it names no built-in type. */
amp_type amp_type_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
