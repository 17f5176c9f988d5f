/*
 * ampvk/kernel.h: kernels in GLSL and parallel_for_each.
 *
 * A kernel is GLSL compute code written against the kernel-side library
 * (shaders/ampvk/ampvk.glsl and what it includes, included automatically). The application declares the
 * kernel's parameters in C++ AMP's words, and ampvk generates the GLSL
 * declarations for them, so nobody writes layout(binding = ...) by hand:
 *
 *     amp_kernel *k = amp_kernel_create(view, &(amp_kernel_desc){
 *         .params = "array_view<const int, 1> a, array_view<const int, 1> b,"
 *                   " array_view<int, 1> sum",
 *         .body   = "sum(idx) = a(idx) + b(idx);" });
 *     amp_parallel_for_each(view, amp_extent1(5), k,
 *         AMP_ARGS(AMP_VIEW("a", a), AMP_VIEW("b", b), AMP_VIEW("sum", sum)));
 *
 * Parameters (comma-separated):
 *   array_view<T, N> name        read-write array or array_view of rank N (1..3)
 *   array_view<const T, N> name  read-only (a const view may only be bound here)
 *   array<T, N> name             the same as array_view<T, N>
 *   T name                       a scalar argument (int, uint, float, double,
 *                                a short vector such as float_4, or a struct)
 *   texture<T, N> name           a texture, read and written (texture.h)
 *   texture_view<T, N> name      a read-write view of one mip level
 *   writeonly_texture_view<T, N> name   a write-only view
 *   texture_view<const T, N> name       a read-only view: fetch, sample, gather
 *   sampler name                 a sampler (AMP_SAMPLER("s", (amp_sampler){...}))
 * T is int, uint, float, double, norm, unorm, a short vector (float_4, uint_3 ...)
 * or the name of a struct defined in desc.declarations.
 *
 * In the kernel, for a parameter `a` of rank N:
 *   a(idx)      the element at idx (an lvalue unless const); idx is index_N
 *   a_extent    its extent (extent_N)
 * and a scalar parameter is a global of its name. index_1 is int, index_2 is
 * ivec2 and index_3 is ivec3, with component 0 (idx[0], idx.x) the most
 * significant, as on the host: for rank 2, idx[0] is the row.
 *
 * Short vectors (vecmath/ampvk/vecmath.h, docs/vecmath.md) have the same names and
 * functions in kernels: float_4 is vec4, int_2 ivec2, and norm/unorm types are
 * structs built with norm_4_make(...) that clamp after every operation
 * (norm_4_add(a, b), amp_add(a, b), int_4_from_float_4(v) ...). Plain-vector
 * swizzle functions (float_4_zyx(v)) are left out unless the kernel defines
 * AMP_SWIZZLE_FUNCTIONS (desc.defines); the built-in v.zyx always works. The
 * short-vector library costs compile time, so it is compiled in only when the
 * kernel's parameters, declarations or code name something of it (a type such
 * as float_4 or unorm, a function such as amp_add); a kernel whose own #include
 * files alone use it defines AMP_WITH_VECMATH (desc.defines).
 *
 * Math: C++ AMP's fast_math functions are fast_math_NAME(x) (fast_math::log10 is
 * fast_math_log10), for float and float vectors, compiled in when the kernel names
 * fast_math_ (or defines AMP_WITH_FAST_MATH); their precision is the device's GLSL
 * built-ins' (docs/math.md has Vulkan's bounds). GLSL's own functions work as ever.
 *
 * The code is either a body (desc.body: statements, with `idx` the thread's
 * index and `domain` the compute domain's extent) or a whole source (desc.source
 * or desc.file) that defines `void kernel(index_N idx)` and any helpers; helpers
 * may use the parameters by name. Compile errors name the user's file (desc.name,
 * or the path for desc.file) and line, and #include "..." finds the user's files
 * next to that file and in desc.include_dirs.
 *
 * Compiling: shaderc at run time; the SPIR-V and a VkPipelineCache are cached in
 * memory and on disk under $XDG_CACHE_HOME/ampvk (or ~/.cache/ampvk), keyed by
 * the generated source, options and the device's pipelineCacheUUID, so a second
 * process finds its kernels ready. AMPVK_CACHE=0 turns the disk cache off. A
 * cache file that is corrupt or from another device is ignored.
 *
 * parallel_for_each runs one thread per element of the domain (any size up to
 * the device's limits; the last group is guarded and huge domains are split).
 * Arguments are bound by name: a missing, extra or mismatched argument
 * (element type, rank, a read-only view where the kernel writes) is an error
 * that names it, and nothing is dispatched. Views move to the device only when
 * their current data is elsewhere; barriers go only where a write meets a later
 * access of the same data.
 *
 * Bounds checks: with AMPVK_DEBUG=1 in the environment, kernels made from then on
 * check every access of an array_view, array or texture argument (name(i),
 * name_get, name_set) against its extent. The first access outside is reported by
 * the next wait on the device (amp_view_wait, a synchronize, a copy to the host) as
 * AMP_ERROR_OUT_OF_BOUNDS naming the kernel, the line, the argument, the index and
 * the extent; that wait fails and the next one completes. The access does no harm:
 * a read gives 0 and a write is dropped (buffers: through robustBufferAccess2, which
 * devices are opened with in this mode where they have it; without it the access
 * goes to the view's first element). tile_static arrays and the sampling calls are
 * not checked. Without AMPVK_DEBUG the generated code is exactly as before: no check
 * costs anything.
 *
 * Thread safety: a kernel may be dispatched from several threads.
 */
#ifndef AMPVK_KERNEL_H
#define AMPVK_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ampvk/accelerator.h"
#include "ampvk/array.h"
#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_kernel amp_kernel;

/* Optimization level of the GLSL compiler. */
typedef enum amp_optimization {
    AMP_OPTIMIZE_PERFORMANCE = 0, /* default */
    AMP_OPTIMIZE_NONE,
    AMP_OPTIMIZE_SIZE
} amp_optimization;

/* Description of a kernel. Zero means the default for each field. Strings need only
 * live for the call. */
typedef struct amp_kernel_desc {
    const char *params;        /* parameter list (see the overview); NULL: none */
    const char *body;          /* statements of the kernel body, or */
    const char *source;        /* GLSL defining void kernel(index_N idx), or */
    const char *file;          /* a file holding such GLSL */
    const char *name;          /* the name compile errors use; default "kernel" or file */
    const char *declarations;  /* GLSL before the parameters: structs, constants */
    int rank;                  /* rank of the compute domain (1..3); default 1 */
    int tile[3];               /* tile size per dimension for tiled kernels, or 0 */
    const char *const *include_dirs; /* extra directories for #include "..." */
    int include_dir_count;
    const char *const *defines;      /* "NAME" or "NAME=VALUE" */
    int define_count;
    amp_optimization optimization;
} amp_kernel_desc;

/* Compiles a kernel for the device of view (NULL: the default view). Returns NULL
 * with AMP_ERROR_COMPILE (message: file:line: error) or AMP_ERROR_INVALID_ARGUMENT
 * (a malformed parameter list, with its position). */
amp_kernel *amp_kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc);
/* Waits for dispatches of the kernel in flight and frees it. */
void amp_kernel_destroy(amp_kernel **kernel);
/* The generated GLSL (for debugging); owned by the kernel. */
const char *amp_kernel_glsl(const amp_kernel *kernel);
/* True if the kernel's SPIR-V came from the disk cache rather than the compiler. */
int amp_kernel_from_cache(const amp_kernel *kernel);
/* Number of GLSL compilations this process has run (for tests of the cache). */
uint64_t amp_kernel_compile_count(void);

/* What a kernel parameter is (amp_kernel_param_info.kind). */
typedef enum amp_param_kind {
    AMP_PARAM_SCALAR = 0,         /* T name: a value */
    AMP_PARAM_VIEW,               /* array_view<T, N> or array<T, N> */
    AMP_PARAM_TEXTURE,            /* texture<T, N> or texture_view<T, N>: read-write */
    AMP_PARAM_WRITEONLY_TEXTURE,  /* writeonly_texture_view<T, N> */
    AMP_PARAM_SAMPLED_TEXTURE,    /* texture_view<const T, N>: read-only, sampled */
    AMP_PARAM_SAMPLER             /* sampler */
} amp_param_kind;

/* One parameter as the kernel declared it, for bindings that build arguments from the
 * declaration (the Python package turns a numpy array into a view of the declared
 * element type and rank). Strings are owned by the kernel. */
typedef struct amp_kernel_param_info {
    const char *name;
    const char *type_name; /* the element or scalar type as declared: "float_4", a struct's name */
    amp_param_kind kind;
    amp_type type;         /* AMP_TYPE_STRUCT for a struct or a GLSL type such as vec4 (and for samplers) */
    int rank;              /* views and textures: 1..3; 0 for scalars and samplers */
    bool is_const;         /* a read-only view or texture view */
    size_t size;           /* bytes of a scalar, or of one element of a view; 0 where the
                              kernel's code does not use the parameter */
} amp_kernel_param_info;

/* The number of parameters kernel declares (0 for NULL). */
int amp_kernel_param_count(const amp_kernel *kernel);
/* Fills *out with parameter i (0-based, in declaration order). AMP_ERROR_OUT_OF_BOUNDS
 * naming i and the count. */
amp_status amp_kernel_param(const amp_kernel *kernel, int i, amp_kernel_param_info *out);

/* What an argument holds. */
typedef enum amp_arg_kind {
    AMP_ARG_NONE = 0,
    AMP_ARG_VIEW,   /* an amp_array_view (or an array through amp_array_as_view) */
    AMP_ARG_INT,
    AMP_ARG_UINT,
    AMP_ARG_FLOAT,
    AMP_ARG_DOUBLE,
    AMP_ARG_BYTES,  /* a short vector or struct scalar: its bytes */
    AMP_ARG_TEXTURE,      /* an amp_texture (level 0 for writes, every level for reads) */
    AMP_ARG_TEXTURE_VIEW, /* an amp_texture_view */
    AMP_ARG_SAMPLER       /* an amp_sampler value */
} amp_arg_kind;

/* A named argument of parallel_for_each. Build them with the macros below. */
typedef struct amp_arg {
    const char *name;
    amp_arg_kind kind;
    union {
        amp_array_view *view;
        int32_t i;
        uint32_t u;
        float f;
        double d;
        struct { const void *ptr; size_t size; } bytes;
        amp_texture *texture;
        amp_texture_view *texture_view;
        amp_sampler sampler;
    } value;
} amp_arg;

#define AMP_VIEW(n, v) ((amp_arg){.name = (n), .kind = AMP_ARG_VIEW, .value.view = (v)})
#define AMP_ARRAY(n, a) AMP_VIEW(n, amp_array_as_view(a))
#define AMP_INT(n, x) ((amp_arg){.name = (n), .kind = AMP_ARG_INT, .value.i = (x)})
#define AMP_UINT(n, x) ((amp_arg){.name = (n), .kind = AMP_ARG_UINT, .value.u = (x)})
#define AMP_FLOAT(n, x) ((amp_arg){.name = (n), .kind = AMP_ARG_FLOAT, .value.f = (x)})
#define AMP_DOUBLE(n, x) ((amp_arg){.name = (n), .kind = AMP_ARG_DOUBLE, .value.d = (x)})
#define AMP_TEXTURE(n, t) ((amp_arg){.name = (n), .kind = AMP_ARG_TEXTURE, .value.texture = (t)})
#define AMP_TEXTURE_VIEW(n, v) ((amp_arg){.name = (n), .kind = AMP_ARG_TEXTURE_VIEW, .value.texture_view = (v)})
#define AMP_SAMPLER(n, ...) ((amp_arg){.name = (n), .kind = AMP_ARG_SAMPLER, .value.sampler = __VA_ARGS__})
#define AMP_BYTES(n, p, s) ((amp_arg){.name = (n), .kind = AMP_ARG_BYTES, .value.bytes = {(p), (s)}})
/* Expands to "array, count" for a list of arguments. */
#define AMP_ARGS(...) (const amp_arg[]){__VA_ARGS__}, \
    (int)(sizeof((const amp_arg[]){__VA_ARGS__}) / sizeof(amp_arg))
#define AMP_NO_ARGS NULL, 0

/* Runs kernel once per element of domain on view (NULL: the kernel's view). The
 * domain's rank must be the kernel's; for a tiled kernel each dimension must be a
 * multiple of the tile. Records the work; it is submitted at the next flush point
 * (immediately in immediate mode). Errors during execution are reported by the
 * next call that waits. */
amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain,
                                 amp_kernel *kernel, const amp_arg *args, int arg_count);

#ifdef __cplusplus
}
#endif
#endif
