/* Making textures: new images (linear on CPU devices where that lets the filters
 * reach their texels as a buffer), clones, and the application's images wrapped. */
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

static int full_chain(amp_extent e)
{
    int m = 0;
    for (int k = 0; k < e.rank; k++)
        if (e.dims[k] > m) m = e.dims[k];
    int levels = 1;
    while (m > 1) {
        m >>= 1;
        levels++;
    }
    return levels;
}

static amp_status check_limits(amp__device *d, amp_extent e)
{
    char buf[48];
    const VkPhysicalDeviceLimits *l = &d->props.limits;
    uint32_t max = e.rank == 1 ? l->maxImageDimension1D : e.rank == 2 ? l->maxImageDimension2D : l->maxImageDimension3D;
    if (!amp_extent_valid(e))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "texture extent %s of rank %d is not valid (rank 1..3)",
                         amp_extent_format(e, buf, sizeof buf), e.rank);
    for (int k = 0; k < e.rank; k++) {
        if (e.dims[k] < 1)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "texture extent %s: dimension %d is %d; it must be >= 1",
                             amp_extent_format(e, buf, sizeof buf), k, e.dims[k]);
        if ((uint32_t)e.dims[k] > max)
            return amp__fail(AMP_ERROR_OUT_OF_BOUNDS,
                             "texture extent %s: dimension %d is %d but \"%s\" allows at most %u for %d-D textures",
                             amp_extent_format(e, buf, sizeof buf), k, e.dims[k], d->props.deviceName, max, e.rank);
    }
    return AMP_OK;
}

static amp_status check_support(amp__device *d, const amp__format *f, bool *storage, bool *linear)
{
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(d->physical, f->vk, &fp);
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if ((fp.optimalTilingFeatures & need) != need)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "%s textures of %d bits (%s) are not supported by \"%s\"",
                         amp_type_name(f->type), f->bits, amp__vk_format_name(f->vk), d->props.deviceName);
    *storage = fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    *linear = fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    return AMP_OK;
}

static amp_texture *texture_alloc(amp_accelerator_view *v, const amp__format *f, amp_extent e, int mips)
{
    amp_texture *t = calloc(1, sizeof *t);
    if (!t) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    t->refs = 1;
    t->av = v;
    t->dev = v->dev;
    t->fmt = *f;
    t->extent = e;
    t->mips = mips;
    t->home = v;
    return t;
}

/* Records the first use: cleared to zero, or for a wrapped image, from its layout. */
static amp_status texture_init(amp_texture *t, VkImageLayout from, bool clear)
{
    amp__batch *b = amp__batch_current(t->av);
    if (!b) return amp_last_status();
    VkCommandBuffer cmd = amp__batch_cmd(b);
    amp__barrier bar = {0};
    t->layout = from;
    amp__track_image_access(&t->track, t->image, &t->layout,
                            clear ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL,
                            clear ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            clear ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_SHADER_READ_BIT, true,
                            amp__batch_serial(b), &bar);
    amp__barrier_record(t->av, cmd, &bar);
    if (clear) {
        VkClearColorValue zero = {{0}};
        VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
        vkCmdClearColorImage(cmd, t->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &all);
    }
    return amp__view_command_done(t->av);
}

/* The storage buffer over the texels of t, a linear image whose memory is bound (for
 * amp__texture_buffer), with their row pitch and a view of them as texels of 16 bytes
 * (R32G32B32A32_UINT); where the driver's layout or alignment does not allow it (the
 * buffer holds whole rows: packed.comp's pairs of quads may write past a row's last
 * texel, into its padding), or the buffer or view cannot be made, none (row_pitch 0: the
 * filters copy). */
static void texels_buffer(amp_texture *t)
{
    VkDevice dev = t->dev->device;
    VkSubresourceLayout l;
    vkGetImageSubresourceLayout(dev, t->image, &(VkImageSubresource){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0}, &l);
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = l.size,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkBuffer b;
    if (!l.size || l.size / amp__vk_extent(t->extent).height < l.rowPitch) return;
    if (vkCreateBuffer(dev, &bi, NULL, &b) != VK_SUCCESS) return;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b, &req);
    VkDeviceSize at = t->mem.offset + l.offset;
    VkBufferView view = VK_NULL_HANDLE;
    if (req.size > l.size || at % req.alignment || !(req.memoryTypeBits & (1u << t->mem.type_index)) ||
        vkBindBufferMemory(dev, b, t->mem.memory, at) != VK_SUCCESS ||
        amp__texel_view(t->dev, b, l.size, &view) != AMP_OK) {
        amp_clear_error(); /* no buffer, no error: the filters copy */
        vkDestroyBuffer(dev, b, NULL);
        return;
    }
    t->texels = b;
    t->texels_view = view;
    t->row_pitch = l.rowPitch;
}

/* tests/: amp__force_optimal_textures (data.h) */
static atomic_bool force_optimal;
void amp__force_optimal_textures(bool on) { atomic_store(&force_optimal, on); }

/* Whether an image made as ci is linear: on CPU devices, one level of a 2-D texture of
 * 8-bit unorm texels of 1, 2 or 4 channels, where the device takes the usage with linear
 * tiling. lavapipe lays out every image linearly anyway; declared, the layout is defined,
 * and a buffer over the memory reads and writes the texels (amp__texture_buffer: the
 * filters' passes on buffers then need no copy in or out). */
static bool linear_tiling_fits(amp__device *d, const amp__format *f, const VkImageCreateInfo *ci)
{
    if (atomic_load(&force_optimal) || !amp__device_is_cpu(d) || ci->imageType != VK_IMAGE_TYPE_2D ||
        ci->mipLevels != 1 || ci->flags || f->bits != 8 || f->sampled || f->emulated || f->channels == 3 ||
        amp_type_scalar(f->type) != AMP_SCALAR_UNORM)
        return false;
    VkImageFormatProperties p;
    return vkGetPhysicalDeviceImageFormatProperties(d->physical, ci->format, ci->imageType, VK_IMAGE_TILING_LINEAR,
                                                    ci->usage, ci->flags, &p) == VK_SUCCESS &&
           ci->extent.width <= p.maxExtent.width && ci->extent.height <= p.maxExtent.height;
}

amp_texture *amp_texture_create(amp_accelerator_view *v, const amp_texture_desc *desc)
{
    if (!desc) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_create: NULL desc");
        return NULL;
    }
    if (!v && !(v = amp_default_view())) return NULL;
    amp__format f;
    if (amp__format_find(desc->type, desc->bits_per_scalar_element, &f) != AMP_OK) return NULL;
    if (check_limits(v->dev, desc->extent) != AMP_OK) return NULL;
    int chain = full_chain(desc->extent);
    int mips = desc->mip_levels == AMP_MIP_FULL ? chain : desc->mip_levels == 0 ? 1 : desc->mip_levels;
    if (mips < 1 || mips > chain) {
        char buf[48];
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "mip_levels %d is outside 1..%d for extent %s", desc->mip_levels, chain,
                  amp_extent_format(desc->extent, buf, sizeof buf));
        return NULL;
    }
    size_t level0 = amp_extent_size(desc->extent) * f.host_texel;
    if (desc->data && desc->data_size < level0) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_create: data_size %zu is smaller than level 0's %zu bytes",
                  desc->data_size, level0);
        return NULL;
    }
    bool storage = false, linear = false;
    if (check_support(v->dev, &f, &storage, &linear) != AMP_OK) return NULL;
    amp_texture *t = texture_alloc(v, &f, desc->extent, mips);
    if (!t) return NULL;
    t->storage_ok = storage;
    t->linear_ok = linear;
    /* on GPUs, copies between textures run as a shader on uint views (see
     * texture_copy): the image may take views of its uint format */
    t->shader_copy = storage && amp__shader_image_copy_possible(v->dev, &f);
    /* and (the filters' passes) of its word format: each texel one word */
    VkFormat formats[3] = {f.vk, f.uint_vk, f.word_vk};
    uint32_t n_formats = f.word_vk == VK_FORMAT_UNDEFINED || f.word_vk == f.uint_vk ? 2 : 3;
    VkImageFormatListCreateInfo list = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
                                        .viewFormatCount = n_formats, .pViewFormats = formats};
    bool mutable = t->shader_copy && (f.uint_vk != f.vk || n_formats == 3);
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .pNext = mutable ? &list : NULL,
        .flags = mutable ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0,
        .imageType = desc->extent.rank == 1 ? VK_IMAGE_TYPE_1D : desc->extent.rank == 2 ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_3D,
        .format = f.vk, .extent = amp__vk_extent(desc->extent), .mipLevels = (uint32_t)mips, .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 (storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    if (linear_tiling_fits(v->dev, &f, &ci)) ci.tiling = VK_IMAGE_TILING_LINEAR;
    amp__lock(v->dev);
    amp_status s = amp__device_check(v->dev);
    VkResult r = s == AMP_OK ? vkCreateImage(v->dev->device, &ci, NULL, &t->image) : VK_SUCCESS;
    if (r == VK_ERROR_FORMAT_NOT_SUPPORTED && mutable) {
        /* a driver that cannot add the uint views: the image as before, queue copies */
        ci.pNext = NULL;
        ci.flags = 0;
        t->shader_copy = false;
        r = vkCreateImage(v->dev->device, &ci, NULL, &t->image);
    }
    if (r != VK_SUCCESS) s = amp__vk_fail(r, "vkCreateImage");
    bool laid_linear = ci.tiling == VK_IMAGE_TILING_LINEAR;
    if (s == AMP_OK) s = amp__image_memory(v->dev, t->image, laid_linear, &t->mem);
    if (s == AMP_OK && laid_linear) texels_buffer(t);
    if (s == AMP_OK) s = texture_init(t, VK_IMAGE_LAYOUT_UNDEFINED, true);
    amp__unlock(v->dev);
    if (s == AMP_OK && desc->data)
        s = amp__texture_host_copy(t, NULL, (void *)desc->data, desc->data_size, true, NULL, "amp_texture_create");
    if (s != AMP_OK) {
        amp__texture_free(t);
        return NULL;
    }
    return t;
}

amp_texture *amp_texture_clone(amp_texture *src, amp_accelerator_view *v)
{
    if (!src) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_clone: NULL texture");
        return NULL;
    }
    if (!v) v = src->av;
    if (v->dev != src->dev) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "amp_texture_clone: the texture is on \"%s\", the view on \"%s\"",
                  src->dev->props.deviceName, v->dev->props.deviceName);
        return NULL;
    }
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = src->extent, .type = src->fmt.type,
                                                               .bits_per_scalar_element = src->fmt.bits,
                                                               .mip_levels = src->mips});
    if (!t) return NULL;
    for (int m = 0; m < src->mips; m++) {
        amp_texture_region r = {.offset = amp_index_zero(src->extent.rank), .mip_level = m};
        if (amp_texture_copy(src, &r, t, &r) != AMP_OK) {
            amp_texture_destroy(&t);
            return NULL;
        }
    }
    return t;
}

amp_texture *amp_texture_wrap_vulkan_image(amp_accelerator_view *v, const amp_texture_wrap_desc *desc)
{
    const char *who = "amp_texture_wrap_vulkan_image";
    if (!desc || !desc->image) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: a VkImage is required", who);
        return NULL;
    }
    if (!v && !(v = amp_default_view())) return NULL;
    amp__format f;
    if (amp__format_from_vk((VkFormat)desc->format, &f) != AMP_OK) return NULL;
    if (check_limits(v->dev, desc->extent) != AMP_OK) return NULL;
    bool storage = false, linear = false;
    if (check_support(v->dev, &f, &storage, &linear) != AMP_OK) return NULL;
    int mips = desc->mip_levels ? desc->mip_levels : 1;
    if (mips < 1 || mips > full_chain(desc->extent)) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "mip_levels %d is outside 1..%d", mips, full_chain(desc->extent));
        return NULL;
    }
    amp_texture *t = texture_alloc(v, &f, desc->extent, mips);
    if (!t) return NULL;
    t->wrapped = true;
    t->storage_ok = storage;
    t->linear_ok = linear;
    t->image = (VkImage)(uintptr_t)desc->image;
    /* the application's image comes in as an import does: after its semaphore, from
       its family and layout */
    t->held = true;
    if (amp__texture_acquire(t, who, &desc->access, (VkImageLayout)desc->layout) != AMP_OK) {
        t->held = false;
        amp__texture_free(t);
        return NULL;
    }
    return t;
}
