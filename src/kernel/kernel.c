/* Kernels (see include/ampvk/kernel.h): creating one from a C++ AMP parameter list
 * and GLSL, its descriptor layout, and its pipelines, one per combination of the
 * storage-image formats bound at dispatch (variants). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

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

VkDescriptorType amp__param_descriptor_type(const amp__param *p)
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
    VkDescriptorSetLayoutBinding b[67];
    uint32_t n = 0;
    b[n++] = (VkDescriptorSetLayoutBinding){0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    for (int i = 0; i < k->param_count && n < 65; i++)
        if (k->params[i].kind != AMP__PARAM_SCALAR)
            b[n++] = (VkDescriptorSetLayoutBinding){k->params[i].binding, amp__param_descriptor_type(&k->params[i]), 1,
                                                    VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkSampler point = VK_NULL_HANDLE;
    if (k->point_binding) {
        point = amp__sampler_get(k->dev, &(amp_sampler){.filter = AMP_FILTER_POINT, .address = AMP_ADDRESS_CLAMP});
        if (!point) return amp_last_status();
        b[n++] = (VkDescriptorSetLayoutBinding){k->point_binding, VK_DESCRIPTOR_TYPE_SAMPLER, 1,
                                                VK_SHADER_STAGE_COMPUTE_BIT, &point};
    }
    if (k->debug_binding)
        b[n++] = (VkDescriptorSetLayoutBinding){k->debug_binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    /* pushed descriptors where the device has them and they fit (every binding but the
     * immutable point sampler counts) */
    k->push_descriptors = k->dev->max_push_descriptors && n <= k->dev->max_push_descriptors;
    VkDescriptorSetLayoutCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = k->push_descriptors ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0,
        .bindingCount = n, .pBindings = b};
    VkResult r = vkCreateDescriptorSetLayout(dev, &dci, NULL, &k->set_layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, k->debug_binding ? 16 : 12}; /* + the kernel's id */
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

static amp_status compile_variant(amp_kernel *k, const char *const *formats, amp__spirv *spv)
{
    char *src = amp__variant_glsl(k, formats);
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
        if (amp__is_storage(&k->params[i])) at += (size_t)snprintf(key + at, n - at, "%s,", formats[f++]);
}

/* The pipeline for these formats, compiling the variant on first use. */
VkPipeline amp__kernel_pipeline(amp_kernel *k, const char *const *formats)
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
        if (!spv.from_disk) amp__pipeline_cache_changed(k->dev);
        variant *v = &k->variants[k->variant_count++];
        snprintf(v->key, sizeof v->key, "%s", key);
        v->pipeline = p;
    }
    free(spv.words);
    return p;
}

static void free_strings(char **list, int n)
{
    for (int i = 0; list && i < n; i++) free(list[i]);
    free(list);
}

/* A copy of n strings, NULL-terminated; NULL when out of memory (nothing half-copied). */
static char **copy_strings(const char *const *list, int n)
{
    char **r = calloc((size_t)n + 1, sizeof *r);
    for (int i = 0; r && i < n; i++)
        if (list[i] && !(r[i] = amp__strdup(list[i]))) {
            free_strings(r, i);
            r = NULL;
        }
    return r;
}

/* The text of a kernel file, malloc'ed; NULL with an error. */
static char *read_source(const char *path)
{
    char *user;
    const char *step;
    int err = amp__file_read(path, &user, NULL, &step);
    if (err == ENOMEM) amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory reading kernel file \"%s\"", path);
    else if (err) amp__fail(AMP_ERROR_IO, "cannot %s kernel file \"%s\"", step, path);
    return err ? NULL : user;
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
        if (!amp__is_storage(&k->params[i])) continue;
        amp__format fmt;
        if (amp__format_find(k->params[i].type, 0, &fmt) != AMP_OK) amp__format_find(k->params[i].type, 8, &fmt);
        formats[f++] = fmt.glsl;
    }
    amp_clear_error();
}

/* Checks what a desc asks for that needs no device: one source, a rank of 1..3. */
static amp_status check_desc(const amp_kernel_desc *desc)
{
    if (!desc) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_create: NULL desc");
    int sources = !!desc->body + !!desc->source + !!desc->file;
    if (sources != 1)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "amp_kernel_create: give exactly one of body, source and file (got %d)", sources);
    int rank = desc->rank ? desc->rank : 1;
    if (rank < 1 || rank > 3)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_create: rank %d is not 1, 2 or 3", desc->rank);
    /* the name goes into #line directives, which have no escapes */
    for (const char *c = desc->name; c && *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "amp_kernel_create: the name \"%s\" has a quote, backslash or control character at %d",
                             desc->name, (int)(c - desc->name));
    return AMP_OK;
}

/* A kernel with copies of the desc's options (what compiling a variant later
 * needs); NULL when out of memory. */
static amp_kernel *kernel_new(amp_accelerator_view *view, const amp_kernel_desc *desc, bool internal)
{
    amp_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    k->dev = view->dev;
    k->view = view;
    k->rank = desc->rank ? desc->rank : 1;
    k->internal = internal;
    k->tiled = desc->tile[0] || desc->tile[1] || desc->tile[2];
    k->name = amp__strdup(desc->name ? desc->name : desc->file ? desc->file : "kernel");
    k->file = amp__strdup(desc->file);
    k->defines = copy_strings(desc->defines, desc->define_count);
    k->define_count = desc->define_count;
    k->include_dirs = copy_strings(desc->include_dirs, desc->include_dir_count);
    k->include_dir_count = desc->include_dir_count;
    k->optimization = desc->optimization;
    if (!k->name || (desc->file && !k->file) || !k->defines || !k->include_dirs) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        amp_kernel_destroy(&k);
    }
    return k;
}

/* Parses the parameters and numbers their bindings: 0 the argument block, then
 * buffers, images and samplers in order, then the internal point sampler, then (in
 * checked kernels) the bounds-check record. */
static amp_status declare_params(amp_kernel *k, const char *params)
{
    if (amp__parse_params(params, &k->params, &k->param_count) != AMP_OK) return amp_last_status();
    if (k->param_count > 60)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "kernel %s: %d parameters; at most 60 are supported", k->name,
                         k->param_count);
    uint32_t binding = 1;
    bool sampled = false;
    for (int i = 0; i < k->param_count; i++) {
        if (k->params[i].kind == AMP__PARAM_SCALAR) continue;
        k->params[i].binding = binding++;
        k->view_count += k->params[i].kind == AMP__PARAM_VIEW;
        sampled |= k->params[i].kind == AMP__PARAM_SAMPLED;
    }
    if (sampled) k->point_binding = binding++;
    if (amp__debug_mode() && !k->internal) k->debug_binding = binding++;
    return AMP_OK;
}

/* The user's code (from the desc or its file); notes which textures it samples. */
static char *user_code(amp_kernel *k, const amp_kernel_desc *desc)
{
    char *user = desc->file ? read_source(desc->file) : amp__strdup(desc->body ? desc->body : desc->source);
    if (!user) {
        if (!desc->file) amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    for (int i = 0; i < k->param_count; i++) {
        char call[80];
        snprintf(call, sizeof call, "%s_sample", k->params[i].name);
        k->params[i].samples = strstr(user, call) != NULL;
        snprintf(call, sizeof call, "%s_gather_", k->params[i].name);
        k->params[i].samples |= strstr(user, call) != NULL;
    }
    return user;
}

/* A kernel that uses double or 64-bit integers needs the device feature: without
 * it the pipeline would be invalid, so the kernel fails here, naming both. */
static amp_status check_capabilities(const amp_kernel *k, const amp__reflection *refl)
{
    const char *what = refl->float64 && !k->dev->float64 ? "double (SPIR-V Float64), which needs shaderFloat64"
                       : refl->int64 && !k->dev->int64   ? "64-bit integers (SPIR-V Int64), which need shaderInt64"
                                                         : NULL;
    if (!what) return AMP_OK;
    return amp__fail(AMP_ERROR_UNSUPPORTED, "kernel \"%s\" uses %s, and the device \"%s\" does not have it enabled",
                     k->name, what, k->dev->props.deviceName);
}

/* Compiles the variant for the default formats, places the arguments where the
 * compiler put them, and builds the layout and the first pipeline. */
static amp_status build_first_variant(amp_kernel *k)
{
    amp__spirv spv = {0};
    amp__reflection refl = {0};
    const char *formats[64];
    default_formats(k, formats);
    amp__lock(k->dev);
    amp_status st = compile_variant(k, formats, &spv);
    amp__unlock(k->dev);
    if (st == AMP_OK) {
        k->from_cache = spv.from_disk;
        st = amp__reflect(spv.words, spv.count, &refl);
    }
    if (st == AMP_OK) st = check_capabilities(k, &refl);
    if (st == AMP_OK) st = place_arguments(k, &refl);
    if (st == AMP_OK) {
        amp__lock(k->dev);
        st = build_layout(k);
        if (st == AMP_OK) st = build_pipeline(k, &spv, &k->pipeline);
        if (st == AMP_OK) {
            variant_key(k, formats, k->variants[0].key, sizeof k->variants[0].key);
            k->variants[0].pipeline = k->pipeline;
            k->variant_count = 1;
            if (!spv.from_disk) amp__pipeline_cache_changed(k->dev);
        }
        amp__unlock(k->dev);
    }
    free(spv.words);
    amp__reflection_free(&refl);
    return st;
}

amp_kernel *amp__kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc, bool internal)
{
    if (check_desc(desc) != AMP_OK) return NULL;
    if (!view && !(view = amp_default_view())) return NULL;
    if (amp__device_check(view->dev) != AMP_OK) return NULL; /* nothing to compile for */
    amp_kernel *k = kernel_new(view, desc, internal);
    if (!k) return NULL;
    char *user = NULL;
    amp_status st = declare_params(k, desc->params);
    if (st == AMP_OK && k->debug_binding) st = amp__debug_attach(k);
    if (st == AMP_OK) {
        choose_group(k, desc);
        if (k->tiled) st = check_tile(k, desc);
    }
    if (st == AMP_OK && !(user = user_code(k, desc))) st = amp_last_status();
    if (st == AMP_OK && !(k->glsl = amp__generate_glsl(k, desc, user, k->name))) st = amp_last_status();
    if (st == AMP_OK) st = build_first_variant(k);
    free(user);
    if (st != AMP_OK) amp_kernel_destroy(&k);
    return k;
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
        /* dispatches recorded or in flight may still use the pipelines */
        amp__lock(k->dev);
        amp__device_idle(k->dev);
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

int amp_kernel_param_count(const amp_kernel *k) { return k ? k->param_count : 0; }

amp_status amp_kernel_param(const amp_kernel *k, int i, amp_kernel_param_info *out)
{
    if (!k || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_param: NULL argument");
    if (i < 0 || i >= k->param_count)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "amp_kernel_param: parameter %d of a kernel with %d", i,
                         k->param_count);
    /* the public kinds in the order of amp__param_kind */
    static const amp_param_kind kinds[] = {
        [AMP__PARAM_SCALAR] = AMP_PARAM_SCALAR,       [AMP__PARAM_VIEW] = AMP_PARAM_VIEW,
        [AMP__PARAM_STORAGE] = AMP_PARAM_TEXTURE,     [AMP__PARAM_WRITEONLY] = AMP_PARAM_WRITEONLY_TEXTURE,
        [AMP__PARAM_SAMPLED] = AMP_PARAM_SAMPLED_TEXTURE, [AMP__PARAM_SAMPLER] = AMP_PARAM_SAMPLER};
    const amp__param *p = &k->params[i];
    bool shaped = p->kind != AMP__PARAM_SCALAR && p->kind != AMP__PARAM_SAMPLER;
    *out = (amp_kernel_param_info){.name = p->name, .type_name = p->type_name, .kind = kinds[p->kind],
                                   .type = p->type, .rank = shaped ? p->rank : 0, .is_const = p->is_const,
                                   .size = p->kind == AMP__PARAM_VIEW ? p->stride : p->size};
    return AMP_OK;
}
