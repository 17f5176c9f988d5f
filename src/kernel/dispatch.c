/* amp_parallel_for_each (see include/ampvk/kernel.h): bind the arguments to the
 * kernel's parameters by name and check them, prepare each resource (uploads and
 * barriers through the tracker), and record the dispatch into the view's batch. */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

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
    if (amp__is_storage(p) && use->access == AMP_TEXTURE_READ)
        return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is a read-only view but the kernel writes it",
                         p->name);
    if (amp__is_storage(p) && !amp__texture_storage_ok(t))
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
    if (amp__is_texture(p)) return AMP_OK; /* check_texture */
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

/* The arguments of one dispatch, checked against the kernel's parameters. */
typedef struct dispatch_args {
    const amp_arg *bound[64];      /* the argument of each parameter */
    amp__texture_use uses[64];     /* what each texture parameter binds */
    const char *formats[64];       /* the storage-image formats, in parameter order */
} dispatch_args;

/* The descriptor writes of one dispatch (one per resource, then the argument block). */
typedef struct descriptor_writes {
    VkDescriptorBufferInfo buffers[67];
    VkDescriptorImageInfo images[67];
    VkWriteDescriptorSet writes[67];
    uint32_t count;
} descriptor_writes;

/* Checks what the call names: the kernel, the view's device, the domain's rank. */
static amp_status check_call(amp_accelerator_view *view, amp_extent domain, const amp_kernel *k,
                             const amp_arg *args, int arg_count)
{
    char e[48];
    if (view->dev != k->dev)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: the kernel was built for \"%s\", "
                         "not for the view's \"%s\"", k->dev->props.deviceName, view->dev->props.deviceName);
    if (!amp_extent_valid(domain) || domain.rank != k->rank)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: domain %s has rank %d but the kernel's "
                         "rank is %d", amp_extent_format(domain, e, sizeof e), domain.rank, k->rank);
    if (arg_count < 0 || (arg_count && !args))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: %d arguments at NULL", arg_count);
    if (k->param_count > 64) return amp__fail(AMP_ERROR_UNSUPPORTED, "a kernel may have at most 64 parameters");
    return AMP_OK;
}

/* Binds the arguments to the parameters by name: every argument known, none twice. */
static amp_status bind_arguments(const amp_kernel *k, const amp_arg *args, int arg_count, dispatch_args *da)
{
    memset(da->bound, 0, sizeof da->bound);
    for (int i = 0; i < arg_count; i++) {
        int j = 0;
        while (j < k->param_count && (!args[i].name || strcmp(args[i].name, k->params[j].name) != 0)) j++;
        if (j == k->param_count)
            return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is not a parameter of the kernel",
                             args[i].name ? args[i].name : "(null)");
        if (da->bound[j]) return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is given twice", args[i].name);
        da->bound[j] = &args[i];
    }
    return AMP_OK;
}

/* Checks each parameter's argument (present, of its kind, type and rank), makes the
 * samplers (a sampler that cannot exist fails before anything is recorded), and
 * refuses linear filtering of a format that cannot be filtered linearly. */
static amp_status check_arguments(amp_kernel *k, dispatch_args *da)
{
    int nformats = 0;
    bool linear_sampler = false;
    for (int j = 0; j < k->param_count; j++) {
        const amp__param *p = &k->params[j];
        if (!da->bound[j]) return amp__fail(AMP_ERROR_ARGUMENT_MISMATCH, "argument '%s' is missing", p->name);
        amp_status s = check_arg(p, da->bound[j]);
        if (s == AMP_OK && amp__is_texture(p)) s = check_texture(k, p, da->bound[j], &da->uses[j]);
        if (s != AMP_OK) return s;
        if (amp__is_storage(p)) da->formats[nformats++] = amp__texture_format(da->uses[j].texture)->glsl;
        if (p->kind == AMP__PARAM_SAMPLER) {
            linear_sampler |= da->bound[j]->value.sampler.filter == AMP_FILTER_LINEAR;
            amp__lock(k->dev);
            VkSampler smp = amp__sampler_get(k->dev, &da->bound[j]->value.sampler);
            amp__unlock(k->dev);
            if (!smp) return amp_last_status();
        }
    }
    for (int j = 0; j < k->param_count && linear_sampler; j++)
        if (k->params[j].kind == AMP__PARAM_SAMPLED && k->params[j].samples &&
            !amp__texture_linear_ok(da->uses[j].texture)) {
            const amp__format *f = amp__texture_format(da->uses[j].texture);
            return amp__fail(AMP_ERROR_UNSUPPORTED, "argument '%s': %s textures of %d bits (%s) cannot be sampled with "
                             "linear filtering on \"%s\"; use a point sampler", k->params[j].name,
                             amp_type_name(f->type), f->bits, amp__vk_format_name(f->vk), k->dev->props.deviceName);
        }
    return AMP_OK;
}

/* The work groups along x, y, z: tiles must divide the domain, and tiled domains
 * must fit the device's group count (others are split at dispatch). */
static amp_status count_groups(const amp_kernel *k, amp_extent domain, uint32_t groups[3])
{
    char e[48];
    const VkPhysicalDeviceLimits *lim = &k->dev->props.limits;
    groups[0] = groups[1] = groups[2] = 1;
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
    return AMP_OK;
}

/* A sampler or texture parameter: its descriptor, and the texture's barrier. */
static amp_status prepare_image(amp_accelerator_view *view, const amp__param *p, const amp_arg *a,
                                const amp__texture_use *use, amp__barrier *bar, descriptor_writes *w)
{
    VkImageView iv = VK_NULL_HANDLE;
    VkSampler smp = VK_NULL_HANDLE;
    if (p->kind == AMP__PARAM_SAMPLER) {
        smp = amp__sampler_get(view->dev, &a->value.sampler);
        if (!smp) return amp_last_status();
    } else {
        amp_status st = amp__texture_prepare(use, view, amp__is_storage(p), amp__is_storage(p), bar, &iv);
        if (st != AMP_OK) return st;
    }
    w->images[w->count] = (VkDescriptorImageInfo){smp, iv, VK_IMAGE_LAYOUT_GENERAL};
    w->writes[w->count] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                 .dstBinding = p->binding, .descriptorCount = 1,
                                                 .descriptorType = amp__param_descriptor_type(p),
                                                 .pImageInfo = &w->images[w->count]};
    w->count++;
    return AMP_OK;
}

/* An array_view parameter: its data made current on the device (an upload and a
 * barrier where needed), its geometry in the argument block, its descriptor. */
static amp_status prepare_view(amp_accelerator_view *view, const amp__param *p, amp_array_view *v, char *block,
                               amp__barrier *bar, descriptor_writes *w)
{
    VkBuffer buf;
    VkDeviceSize base, size;
    amp_status st = amp__view_prepare_device(v, view, !p->is_const, bar, &buf, &base, &size);
    if (st != AMP_OK) return st;
    int64_t offset, strides[2];
    amp__view_geometry(v, &offset, strides);
    int geo[3 + 3] = {(int)offset, (int)strides[0], (int)strides[1]};
    amp_extent ve = amp_array_view_extent(v);
    for (int r = 0; r < ve.rank; r++) geo[3 + r] = ve.dims[r];
    /* offset int, strides ivec2, extent of rank ints, packed (scalar layout) */
    memcpy(block + p->offset, geo, (size_t)(3 + ve.rank) * 4);
    /* the storage's range of its buffer (an application's buffer may hold more) */
    w->buffers[w->count] = (VkDescriptorBufferInfo){buf, base, size ? size : VK_WHOLE_SIZE};
    w->writes[w->count] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                 .dstBinding = p->binding, .descriptorCount = 1,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .pBufferInfo = &w->buffers[w->count]};
    w->count++;
    return AMP_OK;
}

/* Orders and uploads every resource before any access is tracked: an upload, or
 * submitting another view's batch that holds a resource's last use, may submit this
 * view's recording batch; an access tracked in a batch that does not hold the
 * dispatch would be waited for, and its memory freed, too early. */
static amp_status ready_resources(amp_accelerator_view *view, const amp_kernel *k, const dispatch_args *da)
{
    for (int j = 0; j < k->param_count; j++) {
        const amp__param *p = &k->params[j];
        amp_status st = AMP_OK;
        if (p->kind == AMP__PARAM_VIEW) st = amp__view_make_ready(da->bound[j]->value.view, view);
        else if (amp__is_texture(p)) st = amp__texture_make_ready(&da->uses[j], view);
        if (st != AMP_OK) return st;
    }
    return AMP_OK;
}

/* Prepares every argument: scalars and view geometry into the argument block,
 * resources made current with their barriers gathered into bar, descriptors. */
static amp_status prepare_resources(amp_accelerator_view *view, const amp_kernel *k, const dispatch_args *da,
                                    amp_extent domain, char *block, amp__barrier *bar, descriptor_writes *w)
{
    memset(block, 0, k->block_size);
    int dom[3] = {domain.dims[0], domain.rank > 1 ? domain.dims[1] : 1, domain.rank > 2 ? domain.dims[2] : 1};
    memcpy(block + k->domain_offset, dom, 12);
    for (int j = 0; j < k->param_count; j++) {
        const amp__param *p = &k->params[j];
        amp_status st = AMP_OK;
        if (p->kind == AMP__PARAM_SCALAR) write_scalar(block, p, da->bound[j]);
        else if (p->kind == AMP__PARAM_VIEW) st = prepare_view(view, p, da->bound[j]->value.view, block, bar, w);
        else st = prepare_image(view, p, da->bound[j], &da->uses[j], bar, w);
        if (st != AMP_OK) return st;
    }
    return AMP_OK;
}

/* Records the dispatch into the view's batch: the argument block and descriptor
 * set, the barriers, the pipeline (bound once while it stays bound), and
 * vkCmdDispatch, split along each axis where the groups exceed the device's count. */
static amp_status record_dispatch(amp_accelerator_view *view, const amp_kernel *k, VkPipeline pipeline,
                                  const char *block, amp__barrier *bar, descriptor_writes *w,
                                  const uint32_t groups[3])
{
    amp__batch *b = amp__batch_current(view);
    if (!b) return amp_last_status();
    VkBuffer ubuf;
    VkDeviceSize uoff;
    void *u = amp__batch_uniform(b, k->block_size, &ubuf, &uoff);
    VkDescriptorSet set = u && !k->push_descriptors ? amp__batch_descriptor_set(b, k->set_layout) : VK_NULL_HANDLE;
    if (!u || (!set && !k->push_descriptors)) return amp_last_status();
    memcpy(u, block, k->block_size);
    w->buffers[w->count] = (VkDescriptorBufferInfo){ubuf, uoff, k->block_size};
    w->writes[w->count] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0,
                                                 .descriptorCount = 1,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                 .pBufferInfo = &w->buffers[w->count]};
    w->count++;
    if (k->debug_binding) {
        w->buffers[w->count] = (VkDescriptorBufferInfo){amp__debug_buffer(view->dev), 0, VK_WHOLE_SIZE};
        w->writes[w->count] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                     .dstBinding = k->debug_binding, .descriptorCount = 1,
                                                     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                     .pBufferInfo = &w->buffers[w->count]};
        w->count++;
    }
    VkCommandBuffer cmd = amp__batch_cmd(b);
    amp__barrier_record(view, cmd, bar);
    if (amp__batch_bind(b, pipeline)) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (k->push_descriptors) {
        view->dev->push_descriptor_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, w->count, w->writes);
    } else {
        for (uint32_t i = 0; i < w->count; i++) w->writes[i].dstSet = set;
        vkUpdateDescriptorSets(view->dev->device, w->count, w->writes, 0, NULL);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &set, 0, NULL);
    }
    const uint32_t *max = view->dev->props.limits.maxComputeWorkGroupCount;
    uint32_t timing = amp__profile_begin(b, k->name ? k->name : "kernel", 0);
    for (uint32_t z = 0; z < groups[2]; z += max[2])
        for (uint32_t y = 0; y < groups[1]; y += max[1])
            for (uint32_t x = 0; x < groups[0]; x += max[0]) {
                int32_t base[4] = {(int32_t)x, (int32_t)y, (int32_t)z, k->debug_id};
                vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, k->debug_binding ? 16 : 12, base);
                uint32_t cx = groups[0] - x, cy = groups[1] - y, cz = groups[2] - z;
                vkCmdDispatch(cmd, cx < max[0] ? cx : max[0], cy < max[1] ? cy : max[1], cz < max[2] ? cz : max[2]);
                view->stats.dispatches++;
            }
    amp__profile_end(b, timing);
    if (k->debug_binding) {
        /* the record, for the host's read after the wait (and the next checked dispatch) */
        VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                                               VK_ACCESS_SHADER_WRITE_BIT};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0,
                             NULL);
    }
    return amp__view_command_done(view);
}

/* amp_parallel_for_each without its trace span. */
static amp_status for_each(amp_accelerator_view *view, amp_extent domain, amp_kernel *k, const amp_arg *args,
                           int arg_count)
{
    if (!k) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each: NULL kernel");
    if (!view) view = k->view;
    dispatch_args da;
    uint32_t groups[3];
    amp_status st = check_call(view, domain, k, args, arg_count);
    if (st == AMP_OK) st = amp__device_check(view->dev); /* a lost device: nothing more to prepare */
    if (st == AMP_OK) st = bind_arguments(k, args, arg_count, &da);
    if (st == AMP_OK) st = check_arguments(k, &da);
    if (st == AMP_OK) st = count_groups(k, domain, groups);
    if (st != AMP_OK || amp_extent_size(domain) == 0) return st;
    amp__device *d = view->dev;
    amp__lock(d);
    VkPipeline pipeline = amp__kernel_pipeline(k, da.formats);
    char block[4096];
    if (k->block_size > sizeof block) {
        amp__unlock(d);
        return amp__fail(AMP_ERROR_UNSUPPORTED, "the kernel's arguments take %u bytes; at most %zu are supported",
                         k->block_size, sizeof block);
    }
    amp__barrier bar = {0};
    descriptor_writes w;
    w.count = 0;
    st = pipeline ? ready_resources(view, k, &da) : amp_last_status();
    if (st == AMP_OK) st = prepare_resources(view, k, &da, domain, block, &bar, &w);
    if (st == AMP_OK) st = record_dispatch(view, k, pipeline, block, &bar, &w, groups);
    if (st != AMP_OK && (bar.src || bar.overflow)) {
        /* the tracker already counts the accesses prepared before the failure (and
         * any layout change): record their barrier so it stays true */
        amp__batch *fb = amp__batch_current(view);
        if (fb) amp__barrier_record(view, amp__batch_cmd(fb), &bar);
    }
    amp__unlock(d);
    return st;
}

amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain, amp_kernel *k, const amp_arg *args,
                                 int arg_count)
{
    uint64_t span = amp__trace_begin();
    amp_status st = for_each(view, domain, k, args, arg_count);
    amp__trace_end(span, "record", k ? k->name : "parallel_for_each", NULL);
    return st;
}
