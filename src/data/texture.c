/* Textures on Vulkan images (see include/ampvk/texture.h): their geometry, lifetime,
 * properties, views, kernel access and interop; creation is in texture_create.c, host
 * transfers in texture_transfer.c, copies between textures in texture_copy.c.
 *
 * All levels of an image share one layout, which the tracker changes with the
 * barrier it records anyway: GENERAL for kernels (sampled and storage access,
 * so one dispatch may read one level and write another), TRANSFER_SRC/DST_OPTIMAL
 * for copies. Host data goes through staging buffers; 3-component texels are
 * widened to 4 channels on the way in and narrowed on the way out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

/* ---- geometry ---- */

VkExtent3D amp__vk_extent(amp_extent e)
{
    switch (e.rank) {
    case 1: return (VkExtent3D){(uint32_t)e.dims[0], 1, 1};
    case 2: return (VkExtent3D){(uint32_t)e.dims[1], (uint32_t)e.dims[0], 1};
    default: return (VkExtent3D){(uint32_t)e.dims[2], (uint32_t)e.dims[1], (uint32_t)e.dims[0]};
    }
}

VkOffset3D amp__vk_offset(amp_index i)
{
    switch (i.rank) {
    case 1: return (VkOffset3D){i.i[0], 0, 0};
    case 2: return (VkOffset3D){i.i[1], i.i[0], 0};
    default: return (VkOffset3D){i.i[2], i.i[1], i.i[0]};
    }
}

amp_extent amp__level_extent(amp_extent e, int level)
{
    for (int k = 0; k < e.rank; k++) {
        int d = e.dims[k] >> level;
        e.dims[k] = d < 1 ? 1 : d;
    }
    return e;
}

void amp__texture_record_buffer_image_copy(amp_accelerator_view *v, amp__batch *b, amp_texture *t, VkBuffer buf,
                                           const VkBufferImageCopy *c, bool to_image)
{
    VkCommandBuffer cmd = amp__batch_cmd(b);
    VkImageLayout layout = to_image ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    amp__barrier bar = {0};
    amp__track_image_access(&t->track, t->image, &t->layout, layout, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            to_image ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT, to_image,
                            amp__batch_serial(b), &bar);
    amp__barrier_record(v, cmd, &bar);
    if (to_image) vkCmdCopyBufferToImage(cmd, buf, t->image, layout, 1, c);
    else vkCmdCopyImageToBuffer(cmd, t->image, layout, buf, 1, c);
}

void amp__texture_free(amp_texture *t)
{
    amp__device *d = t->dev;
    amp__lock(d);
    amp__view_wait_through(t->home ? t->home : t->av, t->track.last_serial);
    for (int i = 0; i < t->view_count; i++) vkDestroyImageView(d->device, t->views[i].view, NULL);
    if (t->all_levels) vkDestroyImageView(d->device, t->all_levels, NULL);
    if (t->texels_view) vkDestroyBufferView(d->device, t->texels_view, NULL);
    if (t->texels) vkDestroyBuffer(d->device, t->texels, NULL);
    if (!t->wrapped && t->image) vkDestroyImage(d->device, t->image, NULL);
    amp__alloc_free(d, &t->mem);
    amp__unlock(d);
    free(t);
}

static void texture_release(amp_texture *t)
{
    if (--t->refs == 0) amp__texture_free(t);
}

void amp_texture_destroy(amp_texture **pt)
{
    if (!pt || !*pt) return;
    texture_release(*pt);
    *pt = NULL;
}

/* ---- properties ---- */

amp_extent amp_texture_extent(const amp_texture *t) { return t ? t->extent : (amp_extent){0}; }
amp_type amp_texture_type(const amp_texture *t) { return t ? t->fmt.type : AMP_TYPE_STRUCT; }
int amp_texture_bits_per_scalar_element(const amp_texture *t) { return t ? t->fmt.bits : 0; }
int amp_texture_mip_levels(const amp_texture *t) { return t ? t->mips : 0; }
size_t amp_texture_texel_size(const amp_texture *t) { return t ? t->fmt.host_texel : 0; }
amp_accelerator_view *amp_texture_accelerator_view(const amp_texture *t) { return t ? t->av : NULL; }
const char *amp_texture_format_name(const amp_texture *t) { return t ? amp__vk_format_name(t->fmt.vk) : ""; }
bool amp_texture_is_emulated(const amp_texture *t) { return t && t->fmt.emulated; }

amp_extent amp_texture_mip_extent(const amp_texture *t, int level)
{
    if (!t || level < 0 || level >= t->mips) return (amp_extent){0};
    return amp__level_extent(t->extent, level);
}

size_t amp_texture_data_length(const amp_texture *t)
{
    size_t n = 0;
    for (int m = 0; t && m < t->mips; m++) n += amp_extent_size(amp__level_extent(t->extent, m)) * t->fmt.host_texel;
    return n;
}

size_t amp_texture_row_pitch(const amp_texture *t)
{
    return t && t->extent.rank >= 2 ? (size_t)t->extent.dims[t->extent.rank - 1] * t->fmt.host_texel : 0;
}

size_t amp_texture_depth_pitch(const amp_texture *t)
{
    return t && t->extent.rank == 3 ? (size_t)t->extent.dims[1] * (size_t)t->extent.dims[2] * t->fmt.host_texel : 0;
}

/* ---- checks ---- */

amp_status amp__texture_check_not_held(const amp_texture *t, const char *who)
{
    return t->held ? amp__fail(AMP_ERROR_INVALID_STATE,
                               "%s: the texture is held by the application (amp_texture_export); "
                               "amp_texture_import gives it back to ampvk first", who)
                   : AMP_OK;
}

amp_status amp__texture_submit_other_home(amp_texture *t, amp_accelerator_view *v)
{
    return t->home != v ? amp__view_submit_through(t->home, t->track.last_serial) : AMP_OK;
}

amp_status amp__texture_resolve_region(const char *who, const amp_texture *t, const amp_texture_region *r,
                                       amp_texture_region *out)
{
    char a[48], b[48], c[48];
    amp_texture_region res = {.offset = amp_index_zero(t->extent.rank)};
    if (r) res = *r;
    if (res.mip_level < 0 || res.mip_level >= t->mips)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: mip level %d is outside 0..%d", who, res.mip_level,
                         t->mips - 1);
    amp_extent le = amp__level_extent(t->extent, res.mip_level);
    if (res.offset.rank == 0) res.offset = amp_index_zero(t->extent.rank);
    if (res.offset.rank != t->extent.rank)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: offset has rank %d but the texture has rank %d", who,
                         res.offset.rank, t->extent.rank);
    if (res.extent.rank == 0) res.extent = amp_extent_from_origin(le, res.offset);
    if (res.extent.rank != t->extent.rank)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: region extent has rank %d but the texture has rank %d", who,
                         res.extent.rank, t->extent.rank);
    for (int k = 0; k < t->extent.rank; k++)
        if (res.offset.i[k] < 0 || res.extent.dims[k] < 0 ||
            (int64_t)res.offset.i[k] + res.extent.dims[k] > le.dims[k])
            return amp__fail(AMP_ERROR_OUT_OF_BOUNDS,
                             "%s: region at %s of extent %s does not fit in mip level %d of extent %s", who,
                             amp_index_format(res.offset, a, sizeof a), amp_extent_format(res.extent, b, sizeof b),
                             res.mip_level, amp_extent_format(le, c, sizeof c));
    *out = res;
    return AMP_OK;
}

/* ---- views ---- */

amp_texture_view *amp_texture_view_create(amp_texture *t, const amp_texture_view_desc *desc)
{
    if (!t) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_view_create: NULL texture");
        return NULL;
    }
    amp_texture_view_desc d = desc ? *desc : (amp_texture_view_desc){0};
    if (d.access < AMP_TEXTURE_READ || d.access > AMP_TEXTURE_READ_WRITE) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_view_create: access %d is not an amp_texture_access",
                  (int)d.access);
        return NULL;
    }
    int count = d.access == AMP_TEXTURE_READ ? (d.mip_levels ? d.mip_levels : t->mips - d.most_detailed_mip) : 1;
    if (d.most_detailed_mip < 0 || d.most_detailed_mip >= t->mips || count < 1 ||
        d.most_detailed_mip + count > t->mips) {
        amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "amp_texture_view_create: mip levels %d..%d are outside the texture's 0..%d",
                  d.most_detailed_mip, d.most_detailed_mip + count - 1, t->mips - 1);
        return NULL;
    }
    if (d.access != AMP_TEXTURE_READ && !t->storage_ok) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "%s textures of %d bits (%s) cannot be written by kernels on \"%s\"",
                  amp_type_name(t->fmt.type), t->fmt.bits, amp__vk_format_name(t->fmt.vk), t->dev->props.deviceName);
        return NULL;
    }
    if (d.access == AMP_TEXTURE_READ_WRITE && t->fmt.components != 1) {
        /* C++ AMP: read-write views only for single-component texels */
        amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                  "amp_texture_view_create: read-write views need a 1-component type; %s has %d (use a write-only view)",
                  amp_type_name(t->fmt.type), t->fmt.components);
        return NULL;
    }
    amp_texture_view *v = calloc(1, sizeof *v);
    if (!v) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    v->texture = t;
    v->access = d.access;
    v->base = d.most_detailed_mip;
    v->count = count;
    t->refs++;
    return v;
}

void amp_texture_view_destroy(amp_texture_view **pv)
{
    if (!pv || !*pv) return;
    texture_release((*pv)->texture);
    free(*pv);
    *pv = NULL;
}

amp_texture *amp_texture_view_texture(const amp_texture_view *v) { return v ? v->texture : NULL; }

/* ---- kernels ---- */

bool amp__texture_idle(const amp_texture *t)
{
    return t->track.last_serial == 0 || amp__device_serial_done(t->dev, t->track.last_serial);
}

amp__texture_use amp__texture_use_of(amp_texture *t)
{
    return (amp__texture_use){.texture = t, .base_mip = 0, .mip_count = t->mips, .access = AMP_TEXTURE_READ_WRITE};
}

amp__texture_use amp__texture_use_of_view(amp_texture_view *v)
{
    return (amp__texture_use){.texture = v->texture, .base_mip = v->base, .mip_count = v->count, .access = v->access};
}

const amp__format *amp__texture_format(const amp_texture *t) { return &t->fmt; }
bool amp__texture_storage_ok(const amp_texture *t) { return t->storage_ok; }
bool amp__texture_linear_ok(const amp_texture *t) { return t->linear_ok; }

VkImageView amp__texture_image_view(amp_texture *t, int base, int count, bool storage, VkFormat format)
{
    for (int i = 0; i < t->view_count; i++)
        if (t->views[i].base == base && t->views[i].count == count && t->views[i].storage == storage &&
            t->views[i].format == format)
            return t->views[i].view;
    if (t->view_count == AMP__TEXTURE_MAX_VIEWS) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "a texture can have at most %d distinct views", AMP__TEXTURE_MAX_VIEWS);
        return VK_NULL_HANDLE;
    }
    VkImageViewUsageCreateInfo usage = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                                        .usage = storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT};
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .pNext = &usage, .image = t->image,
        .viewType = t->extent.rank == 1 ? VK_IMAGE_VIEW_TYPE_1D : t->extent.rank == 2 ? VK_IMAGE_VIEW_TYPE_2D : VK_IMAGE_VIEW_TYPE_3D,
        .format = format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)base, (uint32_t)count, 0, 1}};
    VkImageView view;
    VkResult r = vkCreateImageView(t->dev->device, &ci, NULL, &view);
    if (r != VK_SUCCESS) {
        amp__vk_fail(r, "vkCreateImageView");
        return VK_NULL_HANDLE;
    }
    t->views[t->view_count++] = (amp__image_view_entry){base, count, storage, format, view};
    return view;
}

bool amp__texture_uint_ok(const amp_texture *t, bool word)
{
    return t->shader_copy && (!word || t->fmt.word_vk != VK_FORMAT_UNDEFINED);
}

VkImageView amp__texture_uint_view(amp_texture *t, int base, int count, bool storage, bool word)
{
    if (!amp__texture_uint_ok(t, word)) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "the texture takes no views in its %s format", word ? "word" : "uint");
        return VK_NULL_HANDLE;
    }
    return amp__texture_image_view(t, base, count, storage, word ? t->fmt.word_vk : t->fmt.uint_vk);
}

amp_status amp__texture_make_ready(const amp__texture_use *u, amp_accelerator_view *v)
{
    if (amp__texture_check_not_held(u->texture, "parallel_for_each") != AMP_OK) return amp_last_status();
    return u->texture->dev == v->dev ? amp__texture_submit_other_home(u->texture, v) : AMP_OK;
}

amp_status amp__texture_prepare(const amp__texture_use *u, amp_accelerator_view *v, bool storage, bool write,
                                amp__barrier *bar, VkImageView *view)
{
    amp_texture *t = u->texture;
    if (t->dev != v->dev)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "the texture lives on \"%s\", not on \"%s\"",
                         t->dev->props.deviceName, v->dev->props.deviceName);
    /* a storage binding sees one level: the view's first */
    *view = amp__texture_image_view(t, u->base_mip, storage ? 1 : u->mip_count, storage, t->fmt.vk);
    if (!*view) return amp_last_status();
    /* an earlier use recorded in another view's batch must reach the queue first,
     * before v's batch is taken: submitting may submit that one too */
    amp_status s = amp__texture_submit_other_home(t, v);
    if (s != AMP_OK) return s;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_GENERAL,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | (write ? VK_ACCESS_SHADER_WRITE_BIT : 0), write,
                            amp__batch_serial(b), bar);
    t->home = v;
    return AMP_OK;
}

/* v's batch for a command on t that a filter records there (t's earlier work on another
 * view submitted first), or NULL with an error. */
static amp__batch *filter_batch(amp_texture *t, amp_accelerator_view *v)
{
    if (t->dev != v->dev) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "the texture lives on \"%s\", not on \"%s\"",
                  t->dev->props.deviceName, v->dev->props.deviceName);
        return NULL;
    }
    return amp__texture_submit_other_home(t, v) == AMP_OK ? amp__batch_current(v) : NULL;
}

amp_status amp__texture_buffer_copy(amp_texture *t, amp_accelerator_view *v, VkBuffer buf, VkDeviceSize offset,
                                    uint32_t row_texels, bool to_image)
{
    amp__batch *b = filter_batch(t, v);
    if (!b) return amp_last_status();
    VkBufferImageCopy c = {.bufferOffset = offset, .bufferRowLength = row_texels,
                           .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = amp__vk_extent(t->extent)};
    amp__texture_record_buffer_image_copy(v, b, t, buf, &c, to_image);
    t->home = v;
    return AMP_OK;
}

VkDeviceSize amp__texture_row_pitch(const amp_texture *t) { return t->row_pitch; }

amp_status amp__texture_buffer(amp_texture *t, amp_accelerator_view *v, bool write, VkBuffer *buf,
                               VkBufferView *view)
{
    if (!t->texels) return amp__fail(AMP_ERROR_UNSUPPORTED, "the texture is not a linear image");
    amp__batch *b = filter_batch(t, v);
    if (!b) return amp_last_status();
    amp__barrier bar = {0};
    amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_GENERAL,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            write ? VK_ACCESS_SHADER_WRITE_BIT : VK_ACCESS_SHADER_READ_BIT, write,
                            amp__batch_serial(b), &bar);
    amp__barrier_record(v, amp__batch_cmd(b), &bar);
    t->home = v;
    if (buf) *buf = t->texels;
    if (view) *view = t->texels_view;
    return AMP_OK;
}

/* ---- interop ---- */

/* The view of all levels, made on first need. The caller holds the device lock. */
static amp_status all_levels_view(amp_texture *t)
{
    if (t->all_levels) return AMP_OK;
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = t->image,
        .viewType = t->extent.rank == 1 ? VK_IMAGE_VIEW_TYPE_1D : t->extent.rank == 2 ? VK_IMAGE_VIEW_TYPE_2D : VK_IMAGE_VIEW_TYPE_3D,
        .format = t->fmt.vk, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, (uint32_t)t->mips, 0, 1}};
    VkResult r = vkCreateImageView(t->dev->device, &ci, NULL, &t->all_levels);
    return r == VK_SUCCESS ? AMP_OK : amp__vk_fail(r, "vkCreateImageView");
}

static amp_vulkan_image image_handles(const amp_texture *t)
{
    return (amp_vulkan_image){.image = (uint64_t)(uintptr_t)t->image,
                              .image_view = (uint64_t)(uintptr_t)t->all_levels, .format = (uint32_t)t->fmt.vk,
                              .layout = (uint32_t)t->layout, .queue_family = t->dev->queue_family,
                              .mip_levels = t->mips, .extent = t->extent};
}

amp_status amp_texture_get_vulkan_image(amp_texture *t, amp_vulkan_image *out)
{
    const char *who = "amp_texture_get_vulkan_image";
    if (!t || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    amp__device *d = t->dev;
    amp__lock(d);
    amp_status s = amp__texture_check_not_held(t, who);
    if (s == AMP_OK) s = all_levels_view(t);
    /* the application will use the image next: in GENERAL, with ampvk's work on it done */
    if (s == AMP_OK && t->layout != VK_IMAGE_LAYOUT_GENERAL) {
        amp_accelerator_view *h = t->home ? t->home : t->av;
        amp__batch *b = amp__batch_current(h);
        if (!b) s = amp_last_status();
        else {
            amp__barrier bar = {0};
            amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_GENERAL,
                                    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                                    VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, true,
                                    amp__batch_serial(b), &bar);
            amp__barrier_record(h, amp__batch_cmd(b), &bar);
            t->home = h;
        }
    }
    if (s == AMP_OK) s = amp__view_wait_through(t->home ? t->home : t->av, t->track.last_serial);
    if (s == AMP_OK) *out = image_handles(t);
    amp__unlock(d);
    return s;
}

amp_status amp_texture_export(amp_texture *t, const amp_vulkan_access *access, amp_vulkan_image *out)
{
    const char *who = "amp_texture_export";
    if (!t || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    amp_vulkan_access a = access ? *access : (amp_vulkan_access){.queue_family = VK_QUEUE_FAMILY_IGNORED};
    VkImageLayout want = a.layout ? (VkImageLayout)a.layout : VK_IMAGE_LAYOUT_GENERAL;
    if (amp__handover_layout(who, want, false) != AMP_OK) return amp_last_status();
    amp__lock(t->dev);
    amp_accelerator_view *h = t->home ? t->home : t->av;
    amp_vulkan_semaphore ready;
    uint32_t family;
    amp_status s = amp__texture_check_not_held(t, who);
    if (s == AMP_OK) s = all_levels_view(t);
    if (s == AMP_OK)
        s = amp__handover_give(h, who, a.queue_family, &t->track, VK_NULL_HANDLE, t->image, t->layout, want, &ready,
                               &family);
    if (s == AMP_OK) {
        t->layout = want;
        t->held = true;
        t->home = h;
        *out = image_handles(t);
        out->queue_family = family;
        out->ready = ready;
    }
    amp__unlock(t->dev);
    return s;
}

amp_status amp__texture_acquire(amp_texture *t, const char *who, const amp_vulkan_access *a, VkImageLayout from)
{
    amp__lock(t->dev);
    if (!from) from = t->layout;
    amp_status s = AMP_OK;
    if (!t->held)
        s = amp__fail(AMP_ERROR_INVALID_STATE, "%s: the texture is not held by the application (export it first)",
                      who);
    else
        s = amp__handover_layout(who, from, true);
    amp_accelerator_view *h = t->home ? t->home : t->av;
    if (s == AMP_OK)
        s = amp__handover_take(h, who, a, &t->track, VK_NULL_HANDLE, t->image, from, VK_IMAGE_LAYOUT_GENERAL);
    if (s == AMP_OK) {
        t->layout = VK_IMAGE_LAYOUT_GENERAL;
        t->held = false;
        t->home = h;
    }
    amp__unlock(t->dev);
    return s;
}

amp_status amp_texture_import(amp_texture *t, const amp_vulkan_access *access)
{
    const char *who = "amp_texture_import";
    if (!t || !access) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    return amp__texture_acquire(t, who, access, (VkImageLayout)access->layout);
}

bool amp_texture_is_exported(const amp_texture *t) { return t && t->held; }
