/* Kernels: generating the GLSL around the user's code, building the pipeline,
 * and parallel_for_each (see include/ampvk/kernel.h). */
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"
#include "texture_internal.h"

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
    /* what compiling another variant needs */
    char *name, *file;
    char **defines, **include_dirs;
    int define_count, include_dir_count;
    amp_optimization optimization;
    variant variants[MAX_VARIANTS];
    int variant_count;
    bool internal;           /* a built-in kernel: texture types are not checked */
};

/* The marker in generated GLSL where a variant's format definitions go. */
#define FORMATS_MARKER "//@formats\n"

static bool is_texture(const amp__param *p) { return p->kind >= AMP__PARAM_STORAGE && p->kind <= AMP__PARAM_SAMPLED; }
static bool is_storage(const amp__param *p) { return p->kind == AMP__PARAM_STORAGE || p->kind == AMP__PARAM_WRITEONLY; }

/* ---- generated source ---- */

typedef struct text {
    char *s;
    size_t n, cap;
    bool failed;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = (t->cap + (size_t)k + 1) * 2;
        char *ns = realloc(t->s, cap);
        if (!ns) {
            t->failed = true;
            return;
        }
        t->s = ns;
        t->cap = cap;
    }
}

static const char *index_type(int rank) { return rank == 1 ? "int" : rank == 2 ? "ivec2" : "ivec3"; }

/* The GLSL for an x/y/z vector in host order (component 0 most significant). */
static const char *host_order(int rank, const char *v, char *buf, size_t n)
{
    if (rank == 1) snprintf(buf, n, "int(%s.x)", v);
    else if (rank == 2) snprintf(buf, n, "ivec2(%s.y, %s.x)", v, v);
    else snprintf(buf, n, "ivec3(%s.z, %s.y, %s.x)", v, v, v);
    return buf;
}

/* True if the kernel's own text names something of the short-vector library
 * (shaders/ampvk/vec.glsl): a type (int_2, float_4, norm, unorm ...), a function
 * (float_4_add, amp_add, amp_half_from_float ...), or AMP_WITH_VECMATH among its
 * defines. Only then is the library compiled in. */
static bool needs_vecmath(const amp_kernel_desc *desc, const char *user)
{
    static const char *const words[] = {"norm", "int_", "float_", "double_", "half", "amp_add", "amp_sub",
                                        "amp_mul", "amp_div", "amp_mod", "amp_and", "amp_or", "amp_xor",
                                        "amp_shl", "amp_shr", "amp_neg", "amp_not", "amp_eq", "amp_ne",
                                        "amp_to_", "_value_type", "AMP_SHORT_VECTOR", "AMP_SWIZZLE"};
    const char *texts[] = {desc->params, desc->declarations, user};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        for (size_t w = 0; texts[i] && w < sizeof words / sizeof *words; w++)
            if (strstr(texts[i], words[w])) return true;
    for (int i = 0; i < desc->define_count; i++)
        if (strncmp(desc->defines[i], "AMP_WITH_VECMATH", 16) == 0) return true;
    return false;
}

/* The GLSL before and around the user's code. Member order of the argument block:
 * 0 domain; per view k: 1+3k offset, 2+3k strides, 3+3k extent; then scalars. */
static char *generate(amp_kernel *k, const amp_kernel_desc *desc, const char *user, const char *name)
{
    text t = {0};
    add(&t, "#version 460\n#extension GL_EXT_scalar_block_layout : require\n"
            "#extension GL_GOOGLE_include_directive : require\n"
            "#extension GL_GOOGLE_cpp_style_line_directive : require\n"
            "#extension GL_EXT_samplerless_texture_functions : require\n" FORMATS_MARKER);
    if (k->dev->float64) add(&t, "#define AMP_HAS_DOUBLE 1\n");
    if (k->dev->float_atomics)
        add(&t, "#extension GL_EXT_shader_atomic_float : require\n#define AMP_HAS_FLOAT_ATOMICS 1\n");
    add(&t, "layout(local_size_x = %u, local_size_y = %u, local_size_z = %u) in;\n", k->local[0], k->local[1],
        k->local[2]);
    if (needs_vecmath(desc, user)) add(&t, "#define AMP_WITH_VECMATH 1\n");
    add(&t, "#include <ampvk/ampvk.glsl>\n");
    if (desc->declarations) add(&t, "#line 1 \"%s (declarations)\"\n%s\n", name, desc->declarations);
    add(&t, "#line 1 \"%s (generated)\"\n", name);
    add(&t, "layout(scalar, set = 0, binding = 0) uniform amp_args_t {\n    ivec3 amp_domain;\n");
    for (int i = 0; i < k->param_count; i++) {
        amp__param *p = &k->params[i];
        if (p->is_view)
            add(&t, "    int amp_o_%s;\n    ivec2 amp_s_%s;\n    %s amp_e_%s;\n", p->name, p->name,
                index_type(p->rank), p->name);
    }
    for (int i = 0; i < k->param_count; i++)
        if (k->params[i].kind == AMP__PARAM_SCALAR) add(&t, "    %s %s;\n", k->params[i].type_name, k->params[i].name);
    add(&t, "    int amp_end;\n};\n");
    add(&t, "layout(push_constant) uniform amp_push_t { ivec3 amp_group_base; };\n");
    for (int i = 0; i < k->param_count; i++) {
        amp__param *p = &k->params[i];
        if (!p->is_view) continue;
        add(&t, "layout(scalar, set = 0, binding = %u) %sbuffer amp_b_%s { %s amp_d_%s[]; };\n", p->binding,
            p->is_const ? "readonly " : "", p->name, p->type_name, p->name);
        add(&t, "#define %s(I) amp_d_%s[amp_linear(I, amp_o_%s, amp_s_%s)]\n", p->name, p->name, p->name, p->name);
        add(&t, "#define %s_extent amp_e_%s\n", p->name, p->name);
    }
    if (k->point_binding) add(&t, "layout(set = 0, binding = %u) uniform sampler amp_point;\n", k->point_binding);
    for (int i = 0; i < k->param_count; i++) {
        amp__param *p = &k->params[i];
        const char *dim = p->rank == 1 ? "1D" : p->rank == 2 ? "2D" : "3D";
        amp__format f;
        if (p->kind == AMP__PARAM_SAMPLER) {
            add(&t, "layout(set = 0, binding = %u) uniform sampler %s;\n", p->binding, p->name);
            continue;
        }
        if (!is_texture(p) || amp__format_find(p->type, 0, &f) != AMP_OK) {
            if (is_texture(p)) amp__format_find(p->type, 8, &f); /* norm and unorm have no default bits */
            else continue;
        }
        const char *pre = f.sampled == 'i' ? "i" : f.sampled == 'u' ? "u" : "";
        if (p->kind == AMP__PARAM_SAMPLED) {
            add(&t, "layout(set = 0, binding = %u) uniform %stexture%s amp_t_%s;\n", p->binding, pre, dim, p->name);
            add(&t, "#define %s(I) amp_from_texel_%s(texelFetch(amp_t_%s, amp_image_coord(I), 0))\n", p->name,
                p->type_name, p->name);
            add(&t, "#define %s_get(I, M) amp_from_texel_%s(texelFetch(amp_t_%s, amp_image_coord(I), M))\n", p->name,
                p->type_name, p->name);
            add(&t, "#define %s_sample(S, C, L) amp_from_texel_%s(textureLod(%ssampler%s(amp_t_%s, S), C, L))\n",
                p->name, p->type_name, pre, dim, p->name);
            if (p->rank == 2) {
                static const char *const ch[] = {"red", "green", "blue", "alpha"};
                for (int c = 0; c < 4; c++)
                    add(&t, "#define %s_gather_%s(S, C) textureGather(%ssampler2D(amp_t_%s, S), C, %d)\n", p->name,
                        ch[c], pre, p->name, c);
            }
            add(&t, "#define %s_extent amp_host_extent(textureSize(amp_t_%s, 0))\n", p->name, p->name);
            continue;
        }
        add(&t, "layout(set = 0, binding = %u, AMP_FMT_%s) uniform %s%simage%s amp_i_%s;\n", p->binding, p->name,
            p->kind == AMP__PARAM_WRITEONLY ? "writeonly " : "", pre, dim, p->name);
        if (p->kind == AMP__PARAM_STORAGE)
            add(&t, "#define %s(I) amp_from_texel_%s(imageLoad(amp_i_%s, amp_image_coord(I)))\n", p->name,
                p->type_name, p->name);
        add(&t, "#define %s_set(I, V) imageStore(amp_i_%s, amp_image_coord(I), AMP_QUANT_%s(amp_to_texel(V)))\n",
            p->name, p->name, p->name);
        add(&t, "#define %s_extent amp_host_extent(imageSize(amp_i_%s))\n", p->name, p->name);
    }
    const char *dom = k->rank == 1 ? "amp_domain.x" : k->rank == 2 ? "amp_domain.xy" : "amp_domain";
    add(&t, "#define domain_extent %s\n", dom);
    char tiled_type[32];
    snprintf(tiled_type, sizeof tiled_type, "tiled_index_%d", k->rank);
    if (k->tiled) {
        char buf[128];
        add(&t, "const %s tile_extent = %s;\n", index_type(k->rank), host_order(k->rank, "gl_WorkGroupSize", buf, sizeof buf));
    }
    if (desc->body) {
        add(&t, "void kernel(%s idx) {\n#line 1 \"%s\"\n%s\n}\n", k->tiled ? tiled_type : index_type(k->rank), name,
            user);
    } else {
        add(&t, "#line 1 \"%s\"\n%s\n", name, user);
    }
    add(&t, "#line 1 \"%s (generated main)\"\n", name);
    add(&t, "void main() {\n    ivec3 amp_g = (ivec3(gl_WorkGroupID) + amp_group_base) * ivec3(gl_WorkGroupSize)"
            " + ivec3(gl_LocalInvocationID);\n");
    if (k->rank == 1) add(&t, "    int amp_i = amp_g.x;\n");
    if (k->rank == 2) add(&t, "    ivec2 amp_i = ivec2(amp_g.y, amp_g.x);\n");
    if (k->rank == 3) add(&t, "    ivec3 amp_i = ivec3(amp_g.z, amp_g.y, amp_g.x);\n");
    if (k->tiled) {
        char buf[128];
        add(&t, "    uvec3 amp_tile = gl_WorkGroupID + uvec3(amp_group_base);\n");
        add(&t, "    %s amp_t;\n    amp_t.global = amp_i;\n", tiled_type);
        add(&t, "    amp_t.local = %s;\n", host_order(k->rank, "gl_LocalInvocationID", buf, sizeof buf));
        add(&t, "    amp_t.tile = %s;\n", host_order(k->rank, "amp_tile", buf, sizeof buf));
        add(&t, "    amp_t.tile_origin = amp_t.tile * tile_extent;\n    kernel(amp_t);\n}\n");
    } else {
        add(&t, "    if (!extent_contains(domain_extent, amp_i)) return;\n    kernel(amp_i);\n}\n");
    }
    if (t.failed) {
        free(t.s);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    return t.s;
}

/* ---- create ---- */

static void choose_group(amp_kernel *k, const amp_kernel_desc *desc)
{
    static const uint32_t defaults[3][3] = {{256, 1, 1}, {16, 16, 1}, {8, 8, 4}};
    if (k->tiled) {
        /* tile dims are given most significant first; x is the fastest */
        for (int i = 0; i < 3; i++) k->local[i] = 1;
        for (int i = 0; i < k->rank; i++) k->local[k->rank - 1 - i] = (uint32_t)desc->tile[i];
        return;
    }
    memcpy(k->local, defaults[k->rank - 1], sizeof k->local);
}

static amp_status check_tile(amp_kernel *k, const amp_kernel_desc *desc)
{
    const VkPhysicalDeviceLimits *lim = &k->dev->props.limits;
    uint64_t threads = 1;
    for (int i = 0; i < k->rank; i++) {
        if (desc->tile[i] <= 0)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "tile dimension %d is %d; every tile dimension must be > 0",
                             i, desc->tile[i]);
        threads *= (uint64_t)desc->tile[i];
    }
    for (int i = k->rank; i < 3; i++)
        if (desc->tile[i])
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "tile has a dimension %d but the kernel's rank is %d", i,
                             k->rank);
    if (threads > 1024 || threads > lim->maxComputeWorkGroupInvocations)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "a tile of %llu threads exceeds the limit of %u threads per tile",
                         (unsigned long long)threads,
                         lim->maxComputeWorkGroupInvocations < 1024 ? lim->maxComputeWorkGroupInvocations : 1024);
    for (int i = 0; i < 3; i++)
        if (k->local[i] > lim->maxComputeWorkGroupSize[i])
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "tile dimension %d is %u but the device allows at most %u",
                             k->rank - 1 - i, k->local[i], lim->maxComputeWorkGroupSize[i]);
    return AMP_OK;
}

static VkDescriptorType descriptor_type(const amp__param *p)
{
    switch (p->kind) {
    case AMP__PARAM_VIEW: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case AMP__PARAM_STORAGE:
    case AMP__PARAM_WRITEONLY: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case AMP__PARAM_SAMPLED: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case AMP__PARAM_SAMPLER: return VK_DESCRIPTOR_TYPE_SAMPLER;
    default: return VK_DESCRIPTOR_TYPE_MAX_ENUM;
    }
}

static amp_status build_layout(amp_kernel *k)
{
    VkDevice dev = k->dev->device;
    VkDescriptorSetLayoutBinding b[66];
    uint32_t n = 0;
    b[n++] = (VkDescriptorSetLayoutBinding){0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    for (int i = 0; i < k->param_count && n < 65; i++)
        if (k->params[i].kind != AMP__PARAM_SCALAR)
            b[n++] = (VkDescriptorSetLayoutBinding){k->params[i].binding, descriptor_type(&k->params[i]), 1,
                                                    VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkSampler point = VK_NULL_HANDLE;
    if (k->point_binding) {
        point = amp__sampler_get(k->dev, &(amp_sampler){.filter = AMP_FILTER_POINT, .address = AMP_ADDRESS_CLAMP});
        if (!point) return amp_last_status();
        b[n++] = (VkDescriptorSetLayoutBinding){k->point_binding, VK_DESCRIPTOR_TYPE_SAMPLER, 1,
                                                VK_SHADER_STAGE_COMPUTE_BIT, &point};
    }
    VkDescriptorSetLayoutCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = n, .pBindings = b};
    VkResult r = vkCreateDescriptorSetLayout(dev, &dci, NULL, &k->set_layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &k->set_layout, .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &pc};
    r = vkCreatePipelineLayout(dev, &lci, NULL, &k->layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreatePipelineLayout");
    return AMP_OK;
}

static amp_status build_pipeline(amp_kernel *k, const amp__spirv *spv, VkPipeline *out)
{
    return amp__compute_pipeline(k->dev, spv->words, spv->count * 4, k->layout, out);
}

AMP_HIDDEN void amp__pipeline_cache_save(amp__device *d);

/* The function that rounds a texel before it is stored in an image of this GLSL
 * format: for normalized formats, to the nearest code (ties away from zero) as
 * C++ AMP and the host's amp_unorm8_encode do. Vulkan lets a device pick either
 * neighbour of a value between two codes (some truncate); a pre-rounded value
 * sits a quarter step above its code, where both choices agree. */
static const char *quantizer(const char *glsl)
{
    size_t n = strlen(glsl);
    bool snorm = n > 6 && strcmp(glsl + n - 6, "_snorm") == 0;
    char last = glsl[n - 1];
    if (!snorm && (last == 'f' || last == 'i')) return ""; /* float, int, uint: stored as given */
    bool sixteen = strstr(glsl, "16") != NULL;
    return snorm ? (sixteen ? "amp_quantize_snorm16" : "amp_quantize_snorm8")
                 : (sixteen ? "amp_quantize_unorm16" : "amp_quantize_unorm8");
}

/* The GLSL of the variant for the given storage-image formats (one per storage
 * parameter, in order): the generated text with their definitions at the marker. */
static char *variant_glsl(const amp_kernel *k, const char *const *formats)
{
    text t = {0};
    const char *at = strstr(k->glsl, FORMATS_MARKER);
    add(&t, "%.*s", (int)(at - k->glsl), k->glsl);
    for (int i = 0, f = 0; i < k->param_count; i++)
        if (is_storage(&k->params[i])) {
            add(&t, "#define AMP_FMT_%s %s\n#define AMP_QUANT_%s %s\n", k->params[i].name, formats[f],
                k->params[i].name, quantizer(formats[f]));
            f++;
        }
    add(&t, "%s", at + strlen(FORMATS_MARKER));
    if (t.failed) {
        free(t.s);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    return t.s;
}

static amp_status compile_variant(amp_kernel *k, const char *const *formats, amp__spirv *spv)
{
    char *src = variant_glsl(k, formats);
    if (!src) return amp_last_status();
    amp_kernel_desc d = {.file = k->file, .defines = (const char *const *)k->defines, .define_count = k->define_count,
                         .include_dirs = (const char *const *)k->include_dirs,
                         .include_dir_count = k->include_dir_count, .optimization = k->optimization};
    char options[128];
    snprintf(options, sizeof options, "opt=%d;f64=%d", (int)k->optimization, k->dev->float64);
    amp_status st = amp__compile(k->dev, src, k->name, &d, options, spv);
    free(src);
    return st;
}

/* The key of a format list: the formats joined by commas. */
static void variant_key(const amp_kernel *k, const char *const *formats, char *key, size_t n)
{
    size_t at = 0;
    key[0] = 0;
    for (int i = 0, f = 0; i < k->param_count && at < n; i++)
        if (is_storage(&k->params[i])) at += (size_t)snprintf(key + at, n - at, "%s,", formats[f++]);
}

/* The pipeline for these formats, compiling the variant on first use. */
static VkPipeline variant_pipeline(amp_kernel *k, const char *const *formats)
{
    char key[256];
    variant_key(k, formats, key, sizeof key);
    for (int i = 0; i < k->variant_count; i++)
        if (strcmp(k->variants[i].key, key) == 0) return k->variants[i].pipeline;
    if (k->variant_count == MAX_VARIANTS) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "kernel %s: more than %d combinations of texture formats", k->name,
                  MAX_VARIANTS);
        return VK_NULL_HANDLE;
    }
    amp__spirv spv = {0};
    VkPipeline p = VK_NULL_HANDLE;
    if (compile_variant(k, formats, &spv) == AMP_OK && build_pipeline(k, &spv, &p) == AMP_OK) {
        if (!spv.from_disk) {
            k->dev->pipeline_cache_dirty = true;
            amp__pipeline_cache_save(k->dev);
        }
        variant *v = &k->variants[k->variant_count++];
        snprintf(v->key, sizeof v->key, "%s", key);
        v->pipeline = p;
    }
    free(spv.words);
    return p;
}

static char **copy_strings(const char *const *list, int n)
{
    char **r = calloc((size_t)n + 1, sizeof *r);
    for (int i = 0; r && i < n; i++) r[i] = amp__strdup(list[i]);
    return r;
}

static void free_strings(char **list, int n)
{
    for (int i = 0; list && i < n; i++) free(list[i]);
    free(list);
}

static char *read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        amp__fail(AMP_ERROR_IO, "cannot open kernel file \"%s\"", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *user = malloc((size_t)(size > 0 ? size : 0) + 1);
    if (!user || size < 0 || fread(user, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(user);
        amp__fail(AMP_ERROR_IO, "cannot read kernel file \"%s\"", path);
        return NULL;
    }
    user[size] = 0;
    fclose(f);
    return user;
}

/* Fills offsets and strides of the parameters from the reflection. */
static amp_status place_arguments(amp_kernel *k, amp__reflection *refl)
{
    int scalars = 0;
    for (int i = 0; i < k->param_count; i++) scalars += k->params[i].kind == AMP__PARAM_SCALAR;
    uint32_t members = 1 + 3 * (uint32_t)k->view_count + (uint32_t)scalars + 1;
    if (refl->member_count == 0) {
        /* the kernel reads no argument at all: the optimizer removed the block */
        free(refl->member_offsets);
        refl->member_offsets = calloc(members, 4);
        if (!refl->member_offsets) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        refl->member_count = members;
    }
    if (refl->member_count != members)
        return amp__fail(AMP_ERROR_COMPILE, "%s: internal: the argument block has %u members, expected %u", k->name,
                         refl->member_count, members);
    if (refl->shared_bytes > k->dev->props.limits.maxComputeSharedMemorySize)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: tile_static variables take %u bytes but the device \"%s\" allows %u per tile", k->name,
                         refl->shared_bytes, k->dev->props.deviceName, k->dev->props.limits.maxComputeSharedMemorySize);
    k->domain_offset = refl->member_offsets[0];
    uint32_t m = 1, sm = 1 + 3 * (uint32_t)k->view_count;
    for (int i = 0; i < k->param_count; i++) {
        amp__param *p = &k->params[i];
        if (p->kind == AMP__PARAM_VIEW) {
            p->offset = refl->member_offsets[m];
            p->stride = p->binding < refl->binding_count ? refl->binding_strides[p->binding] : 0;
            m += 3;
        } else if (p->kind == AMP__PARAM_SCALAR) {
            p->offset = refl->member_offsets[sm];
            p->size = refl->member_offsets[sm + 1] - p->offset;
            sm++;
        }
    }
    k->block_size = refl->member_offsets[members - 1] + 4;
    return AMP_OK;
}

/* The formats a kernel is first compiled for: each storage parameter's type at
 * its default bits (8 for norm and unorm). */
static void default_formats(const amp_kernel *k, const char **formats)
{
    for (int i = 0, f = 0; i < k->param_count; i++) {
        if (!is_storage(&k->params[i])) continue;
        amp__format fmt;
        if (amp__format_find(k->params[i].type, 0, &fmt) != AMP_OK) amp__format_find(k->params[i].type, 8, &fmt);
        formats[f++] = fmt.glsl;
    }
    amp_clear_error();
}

amp_kernel *amp__kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc, bool internal)
{
    if (!desc) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_create: NULL desc");
        return NULL;
    }
    int sources = !!desc->body + !!desc->source + !!desc->file;
    if (sources != 1) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_create: give exactly one of body, source and file (got %d)",
                  sources);
        return NULL;
    }
    int rank = desc->rank ? desc->rank : 1;
    if (rank < 1 || rank > 3) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_create: rank %d is not 1, 2 or 3", desc->rank);
        return NULL;
    }
    if (!view && !(view = amp_default_view())) return NULL;
    amp_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    k->dev = view->dev;
    k->view = view;
    k->rank = rank;
    k->internal = internal;
    k->tiled = desc->tile[0] || desc->tile[1] || desc->tile[2];
    k->name = amp__strdup(desc->name ? desc->name : desc->file ? desc->file : "kernel");
    k->file = amp__strdup(desc->file);
    k->defines = copy_strings(desc->defines, desc->define_count);
    k->define_count = desc->define_count;
    k->include_dirs = copy_strings(desc->include_dirs, desc->include_dir_count);
    k->include_dir_count = desc->include_dir_count;
    k->optimization = desc->optimization;
    char *user = NULL;
    amp__spirv spv = {0};
    amp__reflection refl = {0};
    if (!k->name || !k->defines || !k->include_dirs) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        goto fail;
    }
    if (amp__parse_params(desc->params, &k->params, &k->param_count) != AMP_OK) goto fail;
    if (k->param_count > 60) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "kernel %s: %d parameters; at most 60 are supported", k->name,
                  k->param_count);
        goto fail;
    }
    /* bindings: 0 the argument block, then buffers, images and samplers in order */
    uint32_t binding = 1;
    bool sampled = false;
    for (int i = 0; i < k->param_count; i++) {
        if (k->params[i].kind == AMP__PARAM_SCALAR) continue;
        k->params[i].binding = binding++;
        k->view_count += k->params[i].kind == AMP__PARAM_VIEW;
        sampled |= k->params[i].kind == AMP__PARAM_SAMPLED;
    }
    if (sampled) k->point_binding = binding++;
    choose_group(k, desc);
    if (k->tiled && check_tile(k, desc) != AMP_OK) goto fail;
    user = desc->file ? read_source(desc->file) : amp__strdup(desc->body ? desc->body : desc->source);
    if (!user) goto fail;
    for (int i = 0; i < k->param_count; i++) {
        char call[80];
        snprintf(call, sizeof call, "%s_sample", k->params[i].name);
        k->params[i].samples = strstr(user, call) != NULL;
        snprintf(call, sizeof call, "%s_gather_", k->params[i].name);
        k->params[i].samples |= strstr(user, call) != NULL;
    }
    k->glsl = generate(k, desc, user, k->name);
    if (!k->glsl) goto fail;
    const char *formats[64];
    default_formats(k, formats);
    amp__lock(k->dev);
    amp_status st = compile_variant(k, formats, &spv);
    amp__unlock(k->dev);
    if (st != AMP_OK) goto fail;
    k->from_cache = spv.from_disk;
    if (amp__reflect(spv.words, spv.count, &refl) != AMP_OK || place_arguments(k, &refl) != AMP_OK) goto fail;
    amp__lock(k->dev);
    st = build_layout(k);
    if (st == AMP_OK) st = build_pipeline(k, &spv, &k->pipeline);
    if (st == AMP_OK) {
        variant_key(k, formats, k->variants[0].key, sizeof k->variants[0].key);
        k->variants[0].pipeline = k->pipeline;
        k->variant_count = 1;
        if (!spv.from_disk) {
            k->dev->pipeline_cache_dirty = true;
            amp__pipeline_cache_save(k->dev);
        }
    }
    amp__unlock(k->dev);
    if (st != AMP_OK) goto fail;
    free(user);
    free(spv.words);
    amp__reflection_free(&refl);
    return k;
fail:
    free(user);
    free(spv.words);
    amp__reflection_free(&refl);
    amp_kernel_destroy(&k);
    return NULL;
}

amp_kernel *amp_kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc)
{
    return amp__kernel_create(view, desc, false);
}

void amp_kernel_destroy(amp_kernel **pk)
{
    if (!pk || !*pk) return;
    amp_kernel *k = *pk;
    VkDevice dev = k->dev->device;
    if (k->variant_count) {
        /* dispatches in flight may still use the pipelines */
        amp__lock(k->dev);
        vkQueueWaitIdle(k->dev->queue);
        amp__unlock(k->dev);
    }
    for (int i = 0; i < k->variant_count; i++) vkDestroyPipeline(dev, k->variants[i].pipeline, NULL);
    if (k->layout) vkDestroyPipelineLayout(dev, k->layout, NULL);
    if (k->set_layout) vkDestroyDescriptorSetLayout(dev, k->set_layout, NULL);
    free(k->params);
    free(k->glsl);
    free(k->name);
    free(k->file);
    free_strings(k->defines, k->define_count);
    free_strings(k->include_dirs, k->include_dir_count);
    free(k);
    *pk = NULL;
}

const char *amp_kernel_glsl(const amp_kernel *k) { return k ? k->glsl : NULL; }
int amp_kernel_from_cache(const amp_kernel *k) { return k && k->from_cache; }

/* ---- parallel_for_each ---- */

static const char *arg_kind_name(amp_arg_kind kind)
{
    static const char *const names[] = {"none", "a view", "an int", "a uint", "a float", "a double", "bytes",
                                        "a texture", "a texture view", "a sampler"};
    return (unsigned)kind <= AMP_ARG_SAMPLER ? names[kind] : "an unknown kind";
}

static const char *const param_words[] = {"", "array_view", "texture", "writeonly_texture_view",
                                          "texture_view<const>", "sampler"};

/* Checks a texture argument against its parameter; *use receives what it binds. */
static amp_status check_texture(const amp_kernel *k, const amp__param *p, const amp_arg *a, amp__texture_use *use)
{
    char e[48];
    if ((a->kind != AMP_ARG_TEXTURE || !a->value.texture) && (a->kind != AMP_ARG_TEXTURE_VIEW || !a->value.texture_view))
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is %s but the kernel declares a %s", p->name,
                         a->kind == AMP_ARG_TEXTURE || a->kind == AMP_ARG_TEXTURE_VIEW ? "NULL" : arg_kind_name(a->kind),
                         param_words[p->kind]);
    *use = a->kind == AMP_ARG_TEXTURE ? amp__texture_use_of(a->value.texture)
                                      : amp__texture_use_of_view(a->value.texture_view);
    const amp_texture *t = use->texture;
    const amp__format *f = amp__texture_format(t);
    amp_extent ext = amp_texture_extent(t);
    if (ext.rank != p->rank)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is a rank-%d texture (extent %s) but the kernel "
                         "declares rank %d", p->name, ext.rank, amp_extent_format(ext, e, sizeof e), p->rank);
    if (!k->internal && f->type != p->type)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is a %s texture but the kernel declares %s",
                         p->name, amp_type_name(f->type), p->type_name);
    if (p->kind == AMP__PARAM_SAMPLED && use->access != AMP_TEXTURE_READ && a->kind == AMP_ARG_TEXTURE_VIEW)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is a %s view but the kernel reads it through "
                         "texture_view<const %s, %d>", p->name, use->access == AMP_TEXTURE_WRITE ? "write-only" : "read-write",
                         p->type_name, p->rank);
    if (p->kind == AMP__PARAM_STORAGE && use->access == AMP_TEXTURE_WRITE)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is a write-only view but the kernel reads it",
                         p->name);
    if (is_storage(p) && use->access == AMP_TEXTURE_READ)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is a read-only view but the kernel writes it",
                         p->name);
    if (is_storage(p) && !amp__texture_storage_ok(t))
        return amp__fail(AMP_ERROR_UNSUPPORTED, "argument '%s': %s textures of %d bits (%s) cannot be written by "
                         "kernels on this device", p->name, amp_type_name(f->type), f->bits, amp__vk_format_name(f->vk));
    if (p->kind == AMP__PARAM_SAMPLED && a->kind == AMP_ARG_TEXTURE) use->access = AMP_TEXTURE_READ;
    return AMP_OK;
}

/* Checks one argument against its parameter. */
static amp_status check_arg(const amp__param *p, const amp_arg *a)
{
    char e[48];
    if (p->kind == AMP__PARAM_SAMPLER) {
        if (a->kind != AMP_ARG_SAMPLER)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is %s but the kernel declares a sampler",
                             p->name, arg_kind_name(a->kind));
        return AMP_OK;
    }
    if (is_texture(p)) return AMP_OK; /* check_texture */
    if (p->is_view) {
        if (a->kind != AMP_ARG_VIEW || !a->value.view)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is %s but the kernel declares an array_view",
                             p->name, a->kind == AMP_ARG_VIEW ? "a NULL view" : arg_kind_name(a->kind));
        const amp_array_view *v = a->value.view;
        amp_extent ext = amp_array_view_extent(v);
        if (ext.rank != p->rank)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' has rank %d (extent %s) but the kernel "
                             "declares rank %d", p->name, ext.rank, amp_extent_format(ext, e, sizeof e), p->rank);
        amp_type t = amp_array_view_type(v);
        size_t es = amp_array_view_element_size(v);
        if (p->type != AMP_TYPE_STRUCT && t != AMP_TYPE_STRUCT && t != p->type)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' holds %s elements but the kernel declares %s",
                             p->name, amp_type_name(t), p->type_name);
        if (p->stride && es != p->stride)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH,
                             "argument '%s' has %zu-byte elements but the kernel's %s is %u bytes", p->name, es,
                             p->type_name, p->stride);
        if (amp_array_view_is_const(v) && !p->is_const)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH,
                             "argument '%s' is a read-only view but the kernel may write it (declare it "
                             "array_view<const %s, %d>)", p->name, p->type_name, p->rank);
        return AMP_OK;
    }
    amp_arg_kind want;
    switch (p->type) {
    case AMP_INT: want = AMP_ARG_INT; break;
    case AMP_UINT: want = AMP_ARG_UINT; break;
    case AMP_FLOAT: want = AMP_ARG_FLOAT; break;
    case AMP_DOUBLE: want = AMP_ARG_DOUBLE; break;
    default: want = AMP_ARG_BYTES; break;
    }
    if (a->kind != want && a->kind != AMP_ARG_BYTES)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is %s but the kernel declares %s %s", p->name,
                         arg_kind_name(a->kind), p->type_name, p->name);
    if (a->kind == AMP_ARG_BYTES && (a->value.bytes.size != p->size || !a->value.bytes.ptr))
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' has %zu bytes but the kernel's %s is %u bytes",
                         p->name, a->value.bytes.ptr ? a->value.bytes.size : 0, p->type_name, p->size);
    return AMP_OK;
}

static void write_scalar(char *block, const amp__param *p, const amp_arg *a)
{
    switch (a->kind) {
    case AMP_ARG_INT: memcpy(block + p->offset, &a->value.i, 4); break;
    case AMP_ARG_UINT: memcpy(block + p->offset, &a->value.u, 4); break;
    case AMP_ARG_FLOAT: memcpy(block + p->offset, &a->value.f, 4); break;
    case AMP_ARG_DOUBLE: memcpy(block + p->offset, &a->value.d, 8); break;
    default: memcpy(block + p->offset, a->value.bytes.ptr, a->value.bytes.size); break;
    }
}

amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain, amp_kernel *k, const amp_arg *args,
                                 int arg_count)
{
    char e[48];
    if (!k) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: NULL kernel");
    if (!view) view = k->view;
    if (view->dev != k->dev)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: the kernel was built for \"%s\", "
                         "not for the view's \"%s\"", k->dev->props.deviceName, view->dev->props.deviceName);
    if (!amp_extent_valid(domain) || domain.rank != k->rank)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: domain %s has rank %d but the kernel's "
                         "rank is %d", amp_extent_format(domain, e, sizeof e), domain.rank, k->rank);
    if (arg_count < 0 || (arg_count && !args))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: %d arguments at NULL", arg_count);
    /* every parameter exactly once, every argument known */
    const amp_arg *bound[64] = {0};
    if (k->param_count > 64) return amp__fail(AMP_ERROR_UNSUPPORTED, "a kernel may have at most 64 parameters");
    for (int i = 0; i < arg_count; i++) {
        int j = 0;
        while (j < k->param_count && (!args[i].name || strcmp(args[i].name, k->params[j].name) != 0)) j++;
        if (j == k->param_count)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is not a parameter of the kernel",
                             args[i].name ? args[i].name : "(null)");
        if (bound[j]) return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is given twice", args[i].name);
        bound[j] = &args[i];
    }
    amp__texture_use uses[64];
    const char *formats[64];
    int nformats = 0;
    bool linear_sampler = false;
    for (int j = 0; j < k->param_count; j++) {
        if (!bound[j]) return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is missing", k->params[j].name);
        amp_status s = check_arg(&k->params[j], bound[j]);
        if (s == AMP_OK && is_texture(&k->params[j])) s = check_texture(k, &k->params[j], bound[j], &uses[j]);
        if (s != AMP_OK) return s;
        if (is_storage(&k->params[j])) formats[nformats++] = amp__texture_format(uses[j].texture)->glsl;
        if (k->params[j].kind == AMP__PARAM_SAMPLER) {
            linear_sampler |= bound[j]->value.sampler.filter == AMP_FILTER_LINEAR;
            /* made (or found) now: a sampler that cannot exist fails before anything is recorded */
            amp__lock(k->dev);
            VkSampler smp = amp__sampler_get(k->dev, &bound[j]->value.sampler);
            amp__unlock(k->dev);
            if (!smp) return amp_last_status();
        }
    }
    /* linear filtering of a format that cannot be filtered linearly */
    for (int j = 0; j < k->param_count && linear_sampler; j++)
        if (k->params[j].kind == AMP__PARAM_SAMPLED && k->params[j].samples && !amp__texture_linear_ok(uses[j].texture)) {
            const amp__format *f = amp__texture_format(uses[j].texture);
            return amp__fail(AMP_ERROR_UNSUPPORTED, "argument '%s': %s textures of %d bits (%s) cannot be sampled with "
                             "linear filtering on \"%s\"; use a point sampler", k->params[j].name,
                             amp_type_name(f->type), f->bits, amp__vk_format_name(f->vk), k->dev->props.deviceName);
        }
    /* tiles must divide the domain; the group count must fit the device */
    const VkPhysicalDeviceLimits *lim = &k->dev->props.limits;
    uint32_t groups[3] = {1, 1, 1};
    for (int i = 0; i < k->rank; i++) {
        int axis = k->rank - 1 - i; /* dimension i runs along axis x for the last one */
        uint32_t l = k->local[axis];
        if (k->tiled && domain.dims[i] % (int)l)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "amp_parallel_for_each: extent %s is not a multiple of the tile in dimension %d "
                             "(%d %% %u = %d)", amp_extent_format(domain, e, sizeof e), i, domain.dims[i], l,
                             domain.dims[i] % (int)l);
        groups[axis] = (uint32_t)(((uint64_t)domain.dims[i] + l - 1) / l);
        if (k->tiled && groups[axis] > lim->maxComputeWorkGroupCount[axis])
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "amp_parallel_for_each: %u tiles in dimension %d exceed the device's limit of %u",
                             groups[axis], i, lim->maxComputeWorkGroupCount[axis]);
    }
    if (amp_extent_size(domain) == 0) return AMP_OK;
    amp__device *d = view->dev;
    amp__lock(d);
    amp_status st = AMP_OK;
    amp__barrier bar = {0};
    VkDescriptorBufferInfo infos[66];
    VkDescriptorImageInfo images[66];
    VkWriteDescriptorSet writes[66];
    uint32_t nw = 0;
    VkPipeline pipeline = variant_pipeline(k, formats);
    if (!pipeline) st = amp_last_status();
    char block[4096];
    if (k->block_size > sizeof block) {
        amp__unlock(d);
        return amp__fail(AMP_ERROR_UNSUPPORTED, "the kernel's arguments take %u bytes; at most %zu are supported",
                         k->block_size, sizeof block);
    }
    memset(block, 0, k->block_size);
    int dom[3] = {domain.dims[0], domain.rank > 1 ? domain.dims[1] : 1, domain.rank > 2 ? domain.dims[2] : 1};
    memcpy(block + k->domain_offset, dom, 12);
    for (int j = 0; j < k->param_count && st == AMP_OK; j++) {
        amp__param *p = &k->params[j];
        if (p->kind == AMP__PARAM_SCALAR) {
            write_scalar(block, p, bound[j]);
            continue;
        }
        if (p->kind != AMP__PARAM_VIEW) {
            VkImageView iv = VK_NULL_HANDLE;
            VkSampler smp = VK_NULL_HANDLE;
            if (p->kind == AMP__PARAM_SAMPLER) {
                smp = amp__sampler_get(d, &bound[j]->value.sampler);
                if (!smp) st = amp_last_status();
            } else {
                st = amp__texture_prepare(&uses[j], view, is_storage(p), is_storage(p), &bar, &iv);
            }
            if (st != AMP_OK) break;
            images[nw] = (VkDescriptorImageInfo){smp, iv, VK_IMAGE_LAYOUT_GENERAL};
            writes[nw] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                .dstBinding = p->binding, .descriptorCount = 1,
                                                .descriptorType = descriptor_type(p), .pImageInfo = &images[nw]};
            nw++;
            continue;
        }
        amp_array_view *v = bound[j]->value.view;
        VkBuffer buf;
        VkDeviceSize size;
        st = amp__view_prepare_device(v, view, !p->is_const, &bar, &buf, &size);
        if (st != AMP_OK) break;
        int64_t offset, strides[2];
        amp__view_geometry(v, &offset, strides);
        int geo[3 + 3] = {(int)offset, (int)strides[0], (int)strides[1]};
        amp_extent ve = amp_array_view_extent(v);
        for (int r = 0; r < ve.rank; r++) geo[3 + r] = ve.dims[r];
        /* offset int, strides ivec2, extent of rank ints, packed (scalar layout) */
        memcpy(block + p->offset, geo, (size_t)(3 + ve.rank) * 4);
        infos[nw] = (VkDescriptorBufferInfo){buf, 0, VK_WHOLE_SIZE};
        writes[nw] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = p->binding,
                                            .descriptorCount = 1,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            .pBufferInfo = &infos[nw]};
        nw++;
    }
    amp__batch *b = st == AMP_OK ? amp__batch_current(view) : NULL;
    if (st == AMP_OK && !b) st = amp_last_status();
    if (st == AMP_OK) {
        VkBuffer ubuf;
        VkDeviceSize uoff;
        void *u = amp__batch_uniform(b, k->block_size, &ubuf, &uoff);
        VkDescriptorSet set = u ? amp__batch_descriptor_set(b, k->set_layout) : VK_NULL_HANDLE;
        if (!set) {
            st = amp_last_status();
        } else {
            memcpy(u, block, k->block_size);
            infos[nw] = (VkDescriptorBufferInfo){ubuf, uoff, k->block_size};
            writes[nw] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0,
                                                .descriptorCount = 1,
                                                .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                .pBufferInfo = &infos[nw]};
            nw++;
            for (uint32_t i = 0; i < nw; i++) writes[i].dstSet = set;
            vkUpdateDescriptorSets(d->device, nw, writes, 0, NULL);
            VkCommandBuffer cmd = amp__batch_cmd(b);
            amp__barrier_record(view, cmd, &bar);
            if (amp__batch_bind(b, pipeline)) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &set, 0, NULL);
            /* split domains larger than one dispatch along each axis */
            for (uint32_t z = 0; z < groups[2]; z += lim->maxComputeWorkGroupCount[2])
                for (uint32_t y = 0; y < groups[1]; y += lim->maxComputeWorkGroupCount[1])
                    for (uint32_t x = 0; x < groups[0]; x += lim->maxComputeWorkGroupCount[0]) {
                        int32_t base[3] = {(int32_t)x, (int32_t)y, (int32_t)z};
                        vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 12, base);
                        uint32_t cx = groups[0] - x, cy = groups[1] - y, cz = groups[2] - z;
                        if (cx > lim->maxComputeWorkGroupCount[0]) cx = lim->maxComputeWorkGroupCount[0];
                        if (cy > lim->maxComputeWorkGroupCount[1]) cy = lim->maxComputeWorkGroupCount[1];
                        if (cz > lim->maxComputeWorkGroupCount[2]) cz = lim->maxComputeWorkGroupCount[2];
                        vkCmdDispatch(cmd, cx, cy, cz);
                        view->stats.dispatches++;
                    }
            st = amp__view_command_done(view);
        }
    }
    if (st != AMP_OK && (bar.src || bar.overflow)) {
        /* the tracker already counts the accesses prepared before the failure (and
         * any layout change): record their barrier so it stays true */
        amp__batch *fb = amp__batch_current(view);
        if (fb) amp__barrier_record(view, amp__batch_cmd(fb), &bar);
    }
    amp__unlock(d);
    return st;
}
