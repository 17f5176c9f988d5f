// ampvk kernel library: the bounds checks of AMPVK_DEBUG=1 (src/kernel/debug.c). The
// runtime defines AMP_DEBUG_BINDING (the record's binding) in checked kernels, and
// AMP_DEBUG_ROBUST where the device drops accesses past a buffer's end
// (robustBufferAccess2); each access of an argument goes through amp_dbg_ok.
#ifndef AMPVK_DEBUG_GLSL
#define AMPVK_DEBUG_GLSL

// The first access outside: as debug.c's debug_record.
layout(scalar, set = 0, binding = AMP_DEBUG_BINDING) coherent buffer amp_debug_t {
    uint amp_dbg_flag;
    int amp_dbg_kernel, amp_dbg_line, amp_dbg_arg, amp_dbg_rank;
    int amp_dbg_index[3], amp_dbg_extent[3];
};

// True if i is inside e; else records the first such access (kernel id, line, the
// argument, index and extent in host order) and returns false.
bool amp_dbg_record(int arg, int line, int rank, ivec3 i, ivec3 e, int kernel)
{
    // the first one in wins; the host reads the record after the dispatch completed
    if (atomicCompSwap(amp_dbg_flag, 0u, 1u) == 0u) {
        amp_dbg_kernel = kernel;
        amp_dbg_line = line;
        amp_dbg_arg = arg;
        amp_dbg_rank = rank;
        for (int c = 0; c < 3; c++) {
            amp_dbg_index[c] = i[c];
            amp_dbg_extent[c] = e[c];
        }
    }
    return false;
}
#define AMP_DBG_OK(N, T, X)                                                                        \
    bool amp_dbg_ok(int arg, int line, T i, T e, int kernel)                                       \
    {                                                                                              \
        return extent_contains(e, i) || amp_dbg_record(arg, line, N, X(i), X(e), kernel);         \
    }
#define AMP_DBG_X1(v) ivec3(v, 0, 0)
#define AMP_DBG_X2(v) ivec3(v, 0)
#define AMP_DBG_X3(v) (v)
AMP_DBG_OK(1, int, AMP_DBG_X1)
AMP_DBG_OK(2, ivec2, AMP_DBG_X2)
AMP_DBG_OK(3, ivec3, AMP_DBG_X3)
#undef AMP_DBG_OK
#undef AMP_DBG_X1
#undef AMP_DBG_X2
#undef AMP_DBG_X3

// The element of a buffer view to touch: i's own, or for an index outside, one that
// does no harm (past the buffer's end where the device drops such accesses, else the
// view's first element).
#ifdef AMP_DEBUG_ROBUST
#define AMP_DBG_ELSEWHERE(o) 0x7ffffff0
#else
#define AMP_DBG_ELSEWHERE(o) (o)
#endif
#define AMP_DBG_LINEAR(T)                                                                          \
    int amp_dbg_linear(T i, int o, ivec2 s, T e, int arg, int line, int kernel)                   \
    {                                                                                              \
        return amp_dbg_ok(arg, line, i, e, kernel) ? amp_linear(i, o, s) : AMP_DBG_ELSEWHERE(o);  \
    }
AMP_DBG_LINEAR(int)
AMP_DBG_LINEAR(ivec2)
AMP_DBG_LINEAR(ivec3)
#undef AMP_DBG_LINEAR
#endif
