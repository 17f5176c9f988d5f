/* ampvk/vecmath_convert.h: conversions between the six families.
 *
 * Part of <ampvk/vecmath.h>; include that header, not this one.
 *
 * D_N_from_S_N(a) converts component-wise from family S to family D, for all 36 pairs
 * (same-family pairs are copies) and N = 2, 3, 4: int_4_from_float_4, norm_2_from_unorm_2.
 * Scalars: norm_from_unorm, unorm_from_norm, norm_from_norm, unorm_from_unorm.
 * Rules (C++ AMP's casts, with the out-of-range cases defined):
 *   float/double -> int   truncate toward zero; saturate to [INT_MIN, INT_MAX]; NaN -> 0
 *   float/double -> uint  truncate; saturate to [0, UINT_MAX] (so -0.5 and -7 -> 0); NaN -> 0
 *   norm/unorm -> int, uint  as from float
 *   int <-> uint          bits kept (modulo 2^32), as a C cast
 *   any -> float          round to nearest even (double -> float overflows to +-inf)
 *   any -> double         exact
 *   any -> norm / unorm   clamp (amp_norm_clamp / amp_unorm_clamp), so unorm -> norm is
 *                         lossless and norm -> unorm maps negatives to 0
 */
#ifndef AMPVK_VECMATH_CONVERT_H
#define AMPVK_VECMATH_CONVERT_H

#include "vecmath_ops.h"

/* float/double -> int/uint: saturating, NaN -> 0. The bounds are the exact float
 * values 2^31 and 2^32; the kernel side clamps then converts, with the same result. */
static inline int amp__f2i(float f) {
    return f != f ? 0 : f >= 2147483648.0f ? INT_MAX : f <= -2147483648.0f ? INT_MIN : (int)f;
}
static inline int amp__d2i(double d) {
    return d != d ? 0 : d >= 2147483647.0 ? INT_MAX : d <= -2147483648.0 ? INT_MIN : (int)d;
}
static inline unsigned int amp__f2u(float f) {
    return f > 0.0f ? (f >= 4294967296.0f ? UINT_MAX : (unsigned int)f) : 0u;
}
static inline unsigned int amp__d2u(double d) {
    return d > 0.0 ? (d >= 4294967295.0 ? UINT_MAX : (unsigned int)d) : 0u;
}

/* Lane conversion table: AMP__CVT_<dst>_<src>(x). */
#define AMP__CVT_int_int(x) (x)
#define AMP__CVT_int_uint(x) amp__u2i(x)
#define AMP__CVT_int_float(x) amp__f2i(x)
#define AMP__CVT_int_double(x) amp__d2i(x)
#define AMP__CVT_int_norm(x) amp__f2i(x)
#define AMP__CVT_int_unorm(x) amp__f2i(x)
#define AMP__CVT_uint_int(x) ((unsigned int)(x))
#define AMP__CVT_uint_uint(x) (x)
#define AMP__CVT_uint_float(x) amp__f2u(x)
#define AMP__CVT_uint_double(x) amp__d2u(x)
#define AMP__CVT_uint_norm(x) amp__f2u(x)
#define AMP__CVT_uint_unorm(x) amp__f2u(x)
#define AMP__CVT_float_int(x) ((float)(x))
#define AMP__CVT_float_uint(x) ((float)(x))
#define AMP__CVT_float_float(x) (x)
#define AMP__CVT_float_double(x) ((float)(x))
#define AMP__CVT_float_norm(x) (x)
#define AMP__CVT_float_unorm(x) (x)
#define AMP__CVT_double_int(x) ((double)(x))
#define AMP__CVT_double_uint(x) ((double)(x))
#define AMP__CVT_double_float(x) ((double)(x))
#define AMP__CVT_double_double(x) (x)
#define AMP__CVT_double_norm(x) ((double)(x))
#define AMP__CVT_double_unorm(x) ((double)(x))
#define AMP__CVT_norm_int(x) amp_norm_clamp((float)(x))
#define AMP__CVT_norm_uint(x) amp_norm_clamp((float)(x))
#define AMP__CVT_norm_float(x) amp_norm_clamp(x)
#define AMP__CVT_norm_double(x) amp__norm_clamp_d(x)
#define AMP__CVT_norm_norm(x) (x)
#define AMP__CVT_norm_unorm(x) (x)
#define AMP__CVT_unorm_int(x) amp_unorm_clamp((float)(x))
#define AMP__CVT_unorm_uint(x) amp_unorm_clamp((float)(x))
#define AMP__CVT_unorm_float(x) amp_unorm_clamp(x)
#define AMP__CVT_unorm_double(x) amp__unorm_clamp_d(x)
#define AMP__CVT_unorm_norm(x) amp_unorm_clamp(x)
#define AMP__CVT_unorm_unorm(x) (x)

/* The generator: one function per (dst, src, N). */
#define AMP__DEF_CONVERT(D, N, S)                                                         \
    static inline D##_##N D##_##N##_from_##S##_##N(S##_##N a) {                           \
        D##_##N r;                                                                        \
        for (int i = 0; i < N; ++i) r.v[i] = AMP__CVT_##D##_##S(a.v[i]);                  \
        return r;                                                                         \
    }
#define AMP__DEF_CONVERTS_FROM(S) AMP__VECTORS(AMP__DEF_CONVERT, S)
AMP__FAMILIES(AMP__DEF_CONVERTS_FROM)

/* Scalar norm/unorm conversions (the value itself is .v). */
#define AMP__DEF_SCALAR_CONVERT(D, S)                                                     \
    static inline D D##_from_##S(S a) { D r = {AMP__CVT_##D##_##S(a.v)}; return r; }
AMP__DEF_SCALAR_CONVERT(norm, unorm)
AMP__DEF_SCALAR_CONVERT(unorm, norm)
AMP__DEF_SCALAR_CONVERT(norm, norm)
AMP__DEF_SCALAR_CONVERT(unorm, unorm)

#endif /* AMPVK_VECMATH_CONVERT_H */
