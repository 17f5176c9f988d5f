/* ampvk/vecmath.h: C++ AMP short vectors for C11, host side.
 *
 * Header-only, C11, no Vulkan: include <ampvk/vecmath.h> with vecmath/ on the include
 * path and nothing else. The kernel-side twin is shaders/ampvk/vec.glsl: the same type
 * and function names, the same rules, so an expression written with these functions
 * gives bit-identical results on host and device for integers, norm/unorm and the
 * IEEE-exact float operations (+ - * and conversions; see "Floats" below).
 *
 * TYPES
 *   int_N uint_N float_N double_N norm_N unorm_N for N = 2, 3, 4, and the scalars norm
 *   and unorm. A vector is a union of {x,y,z,w}, {r,g,b,a} and the array v[N], tightly
 *   packed (sizeof(float_3) == 12, sizeof(double_3) == 24). norm/unorm lanes are floats;
 *   the scalars are struct { float v; }. Lane types: int, unsigned int, float, double,
 *   float, float. Value (scalar) types: int, unsigned int, float, double, norm, unorm.
 *
 * NAMING: <type>_<verb>, by value, like cglm/HandmadeMath; T is any vector type.
 *   T_make(x, y[, z[, w]]), T_splat(s)        construct (norm/unorm clamp)
 *   T_op(a, b)       op: add sub mul div; int/uint also mod and or xor shl shr
 *   T_ops(a, s)      the same with a scalar of the value type on the right
 *   T_op_assign(&a, b), T_ops_assign(&a, s)   compound forms; return the new a
 *   T_neg(a)         not for uint, unorm;     T_not(a)  int, uint (~a)
 *   T_inc(&a), T_dec(&a)           ++a / --a: return the new value
 *   T_post_inc(&a), T_post_dec(&a) a++ / a--: return the old value
 *   T_eq(a, b), T_ne(a, b)         bool: all components equal / any differs
 *   T_zyx(a), T_bgr(a), T_set_zyx(&a, s) ...  swizzles (vecmath_swizzle.h)
 *   D_N_from_S_N(a)  conversions, e.g. int_4_from_float_4 (vecmath_convert.h)
 *   norm_make(x), norm_add(a, b) ..., norm_from_unorm(u) ...   scalars norm and unorm
 *   amp_add(a, b) ...                _Generic front-ends (vecmath_generic.h)
 *   AMP_SHORT_VECTOR(float, 4), AMP_VECTOR_SIZE(e) ...          traits (vecmath_types.h)
 *   amp_unorm8_encode ... amp_half_from_float ...               texel codes (vecmath_pack.h)
 *   amp_norm_clamp(x), amp_unorm_clamp(x)                       the clamp rules
 *
 * SEMANTICS (decisions where C++ AMP leaves them open; the kernel side does the same)
 *   norm/unorm: every result is clamped again, to [-1,1] / [0,1]: +inf -> 1, -inf -> -1
 *     (norm) or 0 (unorm), NaN -> 0, and a zero is always +0.
 *   int and uint + - * and int unary -: wrap modulo 2^32 (never C's signed-overflow UB).
 *   Division by zero: int a / 0 = -1, uint a / 0 = UINT_MAX, a % 0 = a; INT_MIN / -1 =
 *     INT_MIN, INT_MIN % -1 = 0. Otherwise / truncates and % has the dividend's sign.
 *     (The RISC-V rules; GLSL leaves these undefined, so the kernel side checks.)
 *   Shifts: the count is taken modulo 32 (count & 31), negative counts included, as
 *     GPUs do; int >> is arithmetic; int << works on the bits (no UB).
 *   float/double -> int/uint: truncate, saturate, NaN -> 0 (see vecmath_convert.h).
 *   Floats: plain IEEE arithmetic. On the device + - * are correctly rounded in Vulkan,
 *     but / is not (2.5 ulp), denormals may be flushed and NaN/inf/-0 may not be kept
 *     unless the device has shaderSignedZeroInfNanPreserveFloat32; so float and norm
 *     division can differ in the last bits. Build the host without -ffast-math (NaN
 *     rules) and without FMA contraction (-ffp-contract=off) when comparing bits.
 *
 * Writing a lane directly (n.x = 3) bypasses norm/unorm clamping: use the functions.
 * Everything here is a pure function of its arguments and thread-safe.
 * Define AMP_VECMATH_NO_SWIZZLE to leave out the ~1800 swizzle functions.
 */
#ifndef AMPVK_VECMATH_H
#define AMPVK_VECMATH_H

#include "vecmath_types.h"
#include "vecmath_ops.h"
#include "vecmath_convert.h"
#include "vecmath_pack.h"
#include "vecmath_generic.h"
#ifndef AMP_VECMATH_NO_SWIZZLE
#include "vecmath_swizzle.h"
#endif

#endif /* AMPVK_VECMATH_H */
