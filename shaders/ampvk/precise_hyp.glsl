// ampvk kernel library, precise_math: asin acos atan atan2 sinh cosh tanh asinh acosh atanh.
// Part of precise_math.glsl (read there how the parts fit); float and double.
#ifdef AMP_PM_NEEDS
// what the requested functions are built on (#define AMP_PM_<x>)
#else
#endif
