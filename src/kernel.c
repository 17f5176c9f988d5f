/* Kernels: generating the GLSL around the user's code, building the pipeline,
 * and parallel_for_each (see include/ampvk/kernel.h). */
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"

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
    VkPipeline pipeline;
};

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

/* The GLSL before and around the user's code. Member order of the argument block:
 * 0 domain; per view k: 1+3k offset, 2+3k strides, 3+3k extent; then scalars. */
static char *generate(amp_kernel *k, const amp_kernel_desc *desc, const char *user, const char *name)
{
    text t = {0};
    add(&t, "#version 460\n#extension GL_EXT_scalar_block_layout : require\n"
            "#extension GL_GOOGLE_include_directive : require\n"
            "#extension GL_GOOGLE_cpp_style_line_directive : require\n");
    if (k->dev->float64) add(&t, "#define AMP_HAS_DOUBLE 1\n");
    if (k->dev->float_atomics)
        add(&t, "#extension GL_EXT_shader_atomic_float : require\n#define AMP_HAS_FLOAT_ATOMICS 1\n");
    add(&t, "layout(local_size_x = %u, local_size_y = %u, local_size_z = %u) in;\n", k->local[0], k->local[1],
        k->local[2]);
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
        if (!k->params[i].is_view) add(&t, "    %s %s;\n", k->params[i].type_name, k->params[i].name);
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
    const char *dom = k->rank == 1 ? "amp_domain.x" : k->rank == 2 ? "amp_domain.xy" : "amp_domain";
    add(&t, "#define domain_extent %s\n", dom);
    char tiled_type[32];
    snprintf(tiled_type, sizeof tiled_type, "tiled_index_%d", k->rank);
    if (k->tiled) {
        char buf[64];
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
        char buf[96];
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

static amp_status build_pipeline(amp_kernel *k, const amp__spirv *spv)
{
    VkDevice dev = k->dev->device;
    VkDescriptorSetLayoutBinding b[64];
    uint32_t n = 0;
    b[n++] = (VkDescriptorSetLayoutBinding){0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    for (int i = 0; i < k->param_count && n < 64; i++)
        if (k->params[i].is_view)
            b[n++] = (VkDescriptorSetLayoutBinding){k->params[i].binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                    VK_SHADER_STAGE_COMPUTE_BIT, NULL};
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
    VkShaderModuleCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = spv->count * 4,
                                    .pCode = spv->words};
    VkShaderModule mod;
    r = vkCreateShaderModule(dev, &sci, NULL, &mod);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateShaderModule");
    VkComputePipelineCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod, .pName = "main"},
        .layout = k->layout};
    r = vkCreateComputePipelines(dev, k->dev->pipeline_cache, 1, &pci, NULL, &k->pipeline);
    vkDestroyShaderModule(dev, mod, NULL);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateComputePipelines");
    return AMP_OK;
}

AMP_HIDDEN void amp__pipeline_cache_save(amp__device *d);

amp_kernel *amp_kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc)
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
    k->tiled = desc->tile[0] || desc->tile[1] || desc->tile[2];
    char *user = NULL, *glsl = NULL;
    amp__spirv spv = {0};
    amp__reflection refl = {0};
    const char *name = desc->name ? desc->name : desc->file ? desc->file : "kernel";
    if (amp__parse_params(desc->params, &k->params, &k->param_count) != AMP_OK) goto fail;
    uint32_t binding = 1;
    for (int i = 0; i < k->param_count; i++)
        if (k->params[i].is_view) {
            k->params[i].binding = binding++;
            k->view_count++;
        }
    choose_group(k, desc);
    if (k->tiled && check_tile(k, desc) != AMP_OK) goto fail;
    if (desc->file) {
        FILE *f = fopen(desc->file, "rb");
        if (!f) {
            amp__fail(AMP_ERROR_IO, "cannot open kernel file \"%s\"", desc->file);
            goto fail;
        }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        user = malloc((size_t)(size > 0 ? size : 0) + 1);
        if (!user || fread(user, 1, (size_t)size, f) != (size_t)size) {
            fclose(f);
            amp__fail(AMP_ERROR_IO, "cannot read kernel file \"%s\"", desc->file);
            goto fail;
        }
        user[size] = 0;
        fclose(f);
    } else {
        user = amp__strdup(desc->body ? desc->body : desc->source);
    }
    glsl = generate(k, desc, user, name);
    if (!glsl) goto fail;
    char options[128];
    snprintf(options, sizeof options, "opt=%d;f64=%d", (int)desc->optimization, k->dev->float64);
    amp__lock(k->dev);
    amp_status st = amp__compile(k->dev, glsl, name, desc, options, &spv);
    amp__unlock(k->dev);
    if (st != AMP_OK) goto fail;
    k->from_cache = spv.from_disk;
    if (amp__reflect(spv.words, spv.count, &refl) != AMP_OK) goto fail;
    /* offsets in the argument block */
    uint32_t members = 1 + 3 * (uint32_t)k->view_count + (uint32_t)(k->param_count - k->view_count) + 1;
    if (refl.member_count == 0) {
        /* the kernel reads no argument at all: the optimizer removed the block */
        refl.member_count = members;
        free(refl.member_offsets);
        refl.member_offsets = calloc(members, 4);
        if (!refl.member_offsets) {
            amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
            goto fail;
        }
    }
    if (refl.member_count != members) {
        amp__fail(AMP_ERROR_COMPILE, "%s: internal: the argument block has %u members, expected %u", name,
                  refl.member_count, members);
        goto fail;
    }
    if (refl.shared_bytes > k->dev->props.limits.maxComputeSharedMemorySize) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                  "%s: tile_static variables take %u bytes but the device \"%s\" allows %u per tile", name,
                  refl.shared_bytes, k->dev->props.deviceName, k->dev->props.limits.maxComputeSharedMemorySize);
        goto fail;
    }
    k->domain_offset = refl.member_offsets[0];
    uint32_t m = 1, sm = 1 + 3 * (uint32_t)k->view_count;
    for (int i = 0; i < k->param_count; i++) {
        amp__param *p = &k->params[i];
        if (p->is_view) {
            p->offset = refl.member_offsets[m];
            p->stride = p->binding < refl.binding_count ? refl.binding_strides[p->binding] : 0;
            m += 3;
        } else {
            p->offset = refl.member_offsets[sm];
            p->size = refl.member_offsets[sm + 1] - p->offset;
            sm++;
        }
    }
    k->block_size = refl.member_offsets[members - 1] + 4;
    amp__lock(k->dev);
    st = build_pipeline(k, &spv);
    if (st == AMP_OK && !spv.from_disk) {
        k->dev->pipeline_cache_dirty = true;
        amp__pipeline_cache_save(k->dev);
    }
    amp__unlock(k->dev);
    if (st != AMP_OK) goto fail;
    k->glsl = glsl;
    free(user);
    free(spv.words);
    amp__reflection_free(&refl);
    return k;
fail:
    free(user);
    free(glsl);
    free(spv.words);
    amp__reflection_free(&refl);
    amp_kernel_destroy(&k);
    return NULL;
}

void amp_kernel_destroy(amp_kernel **pk)
{
    if (!pk || !*pk) return;
    amp_kernel *k = *pk;
    VkDevice dev = k->dev->device;
    if (k->pipeline) {
        /* dispatches in flight may still use the pipeline */
        amp__lock(k->dev);
        vkQueueWaitIdle(k->dev->queue);
        amp__unlock(k->dev);
    }
    if (k->pipeline) vkDestroyPipeline(dev, k->pipeline, NULL);
    if (k->layout) vkDestroyPipelineLayout(dev, k->layout, NULL);
    if (k->set_layout) vkDestroyDescriptorSetLayout(dev, k->set_layout, NULL);
    free(k->params);
    free(k->glsl);
    free(k);
    *pk = NULL;
}

const char *amp_kernel_glsl(const amp_kernel *k) { return k ? k->glsl : NULL; }
int amp_kernel_from_cache(const amp_kernel *k) { return k && k->from_cache; }

/* ---- parallel_for_each ---- */

static const char *arg_kind_name(amp_arg_kind kind)
{
    static const char *const names[] = {"none", "a view", "an int", "a uint", "a float", "a double", "bytes"};
    return (unsigned)kind <= AMP_ARG_BYTES ? names[kind] : "an unknown kind";
}

/* Checks one argument against its parameter. */
static amp_status check_arg(const amp__param *p, const amp_arg *a)
{
    char e[48];
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
    for (int j = 0; j < k->param_count; j++) {
        if (!bound[j]) return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is missing", k->params[j].name);
        amp_status s = check_arg(&k->params[j], bound[j]);
        if (s != AMP_OK) return s;
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
    VkDescriptorBufferInfo infos[64];
    VkWriteDescriptorSet writes[65];
    uint32_t nw = 0;
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
        if (!p->is_view) {
            write_scalar(block, p, bound[j]);
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
            if (amp__batch_bind(b, k->pipeline)) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
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
    amp__unlock(d);
    return st;
}
