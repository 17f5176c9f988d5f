// ampvk kernel library, precise_math: exp exp2 exp10 expm1 log log2 log10 log1p pow.
// Part of precise_math.glsl (read there how the parts fit); float and double.
#ifdef AMP_PM_NEEDS
// what the requested functions are built on (#define AMP_PM_<x>)
#else
#endif
