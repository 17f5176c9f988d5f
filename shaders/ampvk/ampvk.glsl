// ampvk kernel library: what every kernel gets. The runtime includes this file
// before the user's code; it pulls in each part of the library.
#ifndef AMPVK_GLSL
#define AMPVK_GLSL
// Exact double trunc/round/roundEven where the device's are not (AMP_DOUBLE_ROUNDING_FIX):
// first, so every later part and the user's code get them
#ifdef AMP_DOUBLE_ROUNDING_FIX
#include "rounding.glsl"
#endif
// The function forms of plain-vector swizzles (float_4_zyx(v)) cost every kernel
// compile time and GLSL has them built in (v.zyx): a kernel that wants them
// defines AMP_SWIZZLE_FUNCTIONS. norm/unorm swizzles are always there.
#ifndef AMP_SWIZZLE_FUNCTIONS
#define AMP_NO_SWIZZLE_FUNCTIONS
#endif
// The short vectors are about half of a small kernel's compile time: the runtime
// defines AMP_WITH_VECMATH when the kernel's text names any of them.
#ifdef AMP_WITH_VECMATH
#include "vec.glsl"
#endif
// fast_math_NAME (C++ AMP's fast_math): when the kernel names it (AMP_WITH_FAST_MATH)
#ifdef AMP_WITH_FAST_MATH
#include "fast_math.glsl"
#endif
// precise_math_NAME (C++ AMP's precise_math): the functions the kernel names
#ifdef AMP_WITH_PRECISE_MATH
#include "precise_math.glsl"
#endif
#include "shape.glsl"
#include "tile.glsl"
#include "atomic.glsl"
#include "texture.glsl"
// The bounds checks of AMPVK_DEBUG=1, in checked kernels
#ifdef AMP_DEBUG_BINDING
#include "debug.glsl"
#endif
#endif
