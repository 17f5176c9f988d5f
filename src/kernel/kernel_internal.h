/* The kernel layer (src/kernel): parsing C++ AMP parameter lists, generating the
 * GLSL around the user's code, compiling it behind the caches, reflecting the
 * SPIR-V, parallel_for_each, and the built-in mip kernels. It uses src/core,
 * src/vulkan and src/data. Not installed. */
#ifndef AMPVK_KERNEL_INTERNAL_H
#define AMPVK_KERNEL_INTERNAL_H

#include <stdio.h>

#include "data/data.h"

/* What a parameter declares. */
typedef enum amp__param_kind {
    AMP__PARAM_SCALAR = 0,
    AMP__PARAM_VIEW,      /* array / array_view */
    AMP__PARAM_STORAGE,   /* texture<T,N>, texture_view<T,N>: a storage image, read-write */
    AMP__PARAM_WRITEONLY, /* writeonly_texture_view<T,N>: a storage image, write-only */
    AMP__PARAM_SAMPLED,   /* texture_view<const T,N> (or texture<const T,N>): a sampled image */
    AMP__PARAM_SAMPLER    /* sampler */
} amp__param_kind;

/* One declared kernel parameter. */
typedef struct amp__param {
    char name[64];
    char type_name[64];
    amp_type type;      /* AMP_TYPE_STRUCT for a user struct */
    amp__param_kind kind;
    bool is_view;       /* kind == AMP__PARAM_VIEW */
    bool is_const;
    int rank;
    bool samples;       /* the code calls name_sample or name_gather_* */
    /* filled from the SPIR-V */
    uint32_t stride;    /* bytes per element of a view (0: unused by the kernel) */
    uint32_t offset;    /* byte offset of a scalar, or of a view's geometry, in the argument block */
    uint32_t size;      /* byte size of a scalar */
    uint32_t binding;   /* descriptor binding of a view */
} amp__param;

/* amp_kernel_create, or for a built-in kernel (internal: texture types unchecked). */
AMP_HIDDEN amp_kernel *amp__kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc, bool internal);
AMP_HIDDEN amp_status amp__parse_params(const char *params, amp__param **out, int *count);

/* ---- kernel.c: kernels and their pipelines ---- */
#define MAX_VARIANTS 8

/* A pipeline compiled for one combination of storage-image formats. */
typedef struct variant {
    char key[256];       /* the formats, comma-separated */
    VkPipeline pipeline;
} variant;

struct amp_kernel {
    amp__device *dev;
    amp_accelerator_view *view;
    amp__param *params;
    int param_count, view_count;
    int rank;
    uint32_t local[3];
    bool tiled;
    char *glsl;
    bool from_cache;
    uint32_t block_size;   /* bytes of the argument block */
    uint32_t domain_offset;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;     /* the variant compiled at creation */
    uint32_t point_binding;  /* binding of the internal point sampler, 0 if none */
    bool push_descriptors;   /* the set layout is pushed (VK_KHR_push_descriptor) */
    uint32_t debug_binding;  /* AMPVK_DEBUG=1: binding of the device's bounds-check record, else 0 */
    int debug_id;            /* its id in the record (debug.c) */
    /* what compiling another variant needs */
    char *name, *file;
    char **defines, **include_dirs;
    int define_count, include_dir_count;
    amp_optimization optimization;
    variant variants[MAX_VARIANTS];
    int variant_count;
    bool internal;           /* a built-in kernel: texture types are not checked */
};

/* ---- debug.c: bounds-checked kernels (AMPVK_DEBUG=1) ---- */
/* Gives a checked kernel (debug_binding set) its id and makes its device's record. */
AMP_HIDDEN amp_status amp__debug_attach(amp_kernel *k);
/* The device's record (VK_NULL_HANDLE before any checked kernel). */
AMP_HIDDEN VkBuffer amp__debug_buffer(amp__device *d);

/* The marker in generated GLSL where a variant's format definitions go. */
#define FORMATS_MARKER "//@formats\n"

static inline bool amp__is_texture(const amp__param *p) { return p->kind >= AMP__PARAM_STORAGE && p->kind <= AMP__PARAM_SAMPLED; }
static inline bool amp__is_storage(const amp__param *p) { return p->kind == AMP__PARAM_STORAGE || p->kind == AMP__PARAM_WRITEONLY; }

/* The descriptor type a parameter binds. */
AMP_HIDDEN VkDescriptorType amp__param_descriptor_type(const amp__param *p);
/* The pipeline for these storage-image formats (one per storage parameter, in
 * order), compiling that variant on first use. The caller holds the device lock. */
AMP_HIDDEN VkPipeline amp__kernel_pipeline(amp_kernel *k, const char *const *formats);

/* ---- generate.c: the GLSL around the user's code ---- */
/* The kernel's GLSL: declarations generated from its parameters, the user's code
 * under #line directives naming the user's file, and main. Storage-image formats
 * are left to amp__variant_glsl (FORMATS_MARKER). NULL with an error. */
AMP_HIDDEN char *amp__generate_glsl(const amp_kernel *k, const amp_kernel_desc *desc, const char *user,
                                    const char *name);
/* The generated GLSL of k with the definitions of these storage-image formats. */
AMP_HIDDEN char *amp__variant_glsl(const amp_kernel *k, const char *const *formats);

/* Reflection of the generated SPIR-V. */
typedef struct amp__reflection {
    uint32_t *member_offsets; /* of the argument block, by member index */
    uint32_t member_count;
    uint32_t *binding_strides; /* ArrayStride of each storage binding (index = binding) */
    uint32_t binding_count;
    uint32_t shared_bytes;     /* total size of tile_static (Workgroup) variables */
    bool float64, int64;       /* declares the Float64 / Int64 capability (double, int64_t) */
} amp__reflection;
AMP_HIDDEN amp_status amp__reflect(const uint32_t *words, size_t count, amp__reflection *out);
AMP_HIDDEN void amp__reflection_free(amp__reflection *r);

/* The embedded kernel library (generated at build time from shaders/ampvk). */
typedef struct amp__glsl_file {
    const char *name;
    const char *text;
} amp__glsl_file;
extern const amp__glsl_file amp__glsl_library[];
extern const int amp__glsl_library_count;

/* A compiled kernel's SPIR-V plus the user files it included. */
typedef struct amp__spirv {
    uint32_t *words;
    size_t count;
    bool from_disk;
} amp__spirv;

/* Compiles source (with #line names) into SPIR-V through the caches. */
AMP_HIDDEN amp_status amp__compile(amp__device *d, const char *source, const char *name, const amp_kernel_desc *desc,
                                   const char *options_key, amp__spirv *out);

#endif
