/* Textures on Vulkan images (see include/ampvk/texture.h).
 *
 * All levels of an image share one layout, which the tracker changes with the
 * barrier it records anyway: GENERAL for kernels (sampled and storage access,
 * so one dispatch may read one level and write another), TRANSFER_SRC/DST_OPTIMAL
 * for copies. Host data goes through staging buffers; 3-component texels are
 * widened to 4 channels on the way in and narrowed on the way out. */
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

/* kernels' sampled and storage views and the shader copy's, of each of up to 16 levels */
#define MAX_VIEWS 64

typedef struct image_view_entry {
    int base, count;
    bool storage;
    VkFormat format; /* the texture's, its uint format or its word format */
    VkImageView view;
} image_view_entry;

struct amp_texture {
    int refs;                   /* the texture and its views */
    amp_accelerator_view *av;
    amp__device *dev;
    amp__format fmt;
    amp_extent extent;
    int mips;
    VkImage image;
    amp__alloc mem;
    bool wrapped;               /* the application's image: not ours to destroy */
    bool held;                  /* exported: the application's until imported */
    bool storage_ok, linear_ok;
    bool shader_copy;           /* can take views in fmt.uint_vk: copies run as a shader */
    /* a linear image (CPU devices, amp__texture_buffer): a buffer over its texels, a view
       of it as 16-byte texels and their row pitch; none and 0 for other images */
    VkBuffer texels;
    VkBufferView texels_view;
    VkDeviceSize row_pitch;
    amp__track track;
    VkImageLayout layout;       /* of every level */
    amp_accelerator_view *home; /* view of the last use */
    image_view_entry views[MAX_VIEWS];
    int view_count;
    VkImageView all_levels;     /* for interop */
};

struct amp_texture_view {
    amp_texture *texture;
    amp_texture_access access;
    int base, count;
};

/* ---- geometry ---- */

static VkExtent3D vk_extent(amp_extent e)
{
    switch (e.rank) {
    case 1: return (VkExtent3D){(uint32_t)e.dims[0], 1, 1};
    case 2: return (VkExtent3D){(uint32_t)e.dims[1], (uint32_t)e.dims[0], 1};
    default: return (VkExtent3D){(uint32_t)e.dims[2], (uint32_t)e.dims[1], (uint32_t)e.dims[0]};
    }
}

static VkOffset3D vk_offset(amp_index i)
{
    switch (i.rank) {
    case 1: return (VkOffset3D){i.i[0], 0, 0};
    case 2: return (VkOffset3D){i.i[1], i.i[0], 0};
    default: return (VkOffset3D){i.i[2], i.i[1], i.i[0]};
    }
}

static amp_extent level_extent(amp_extent e, int level)
{
    for (int k = 0; k < e.rank; k++) {
        int d = e.dims[k] >> level;
        e.dims[k] = d < 1 ? 1 : d;
    }
    return e;
}

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

/* ---- creation ---- */

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

static void texture_free(amp_texture *t);

/* Records a copy c between t and buf (into t where to_image) on v's batch b, after t's
 * barrier for it; buf's barriers are the caller's. */
static void record_buffer_image_copy(amp_accelerator_view *v, amp__batch *b, amp_texture *t, VkBuffer buf,
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

static amp_status texture_host_copy(amp_texture *t, const amp_texture_region *region, void *host, size_t size,
                                    bool to_device, amp_future **future, const char *who);

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
    if (!l.size || l.size / vk_extent(t->extent).height < l.rowPitch) return;
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
        .format = f.vk, .extent = vk_extent(desc->extent), .mipLevels = (uint32_t)mips, .arrayLayers = 1,
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
        s = texture_host_copy(t, NULL, (void *)desc->data, desc->data_size, true, NULL, "amp_texture_create");
    if (s != AMP_OK) {
        texture_free(t);
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

static amp_status texture_acquire(amp_texture *t, const char *who, const amp_vulkan_access *a, VkImageLayout from);

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
    if (texture_acquire(t, who, &desc->access, (VkImageLayout)desc->layout) != AMP_OK) {
        t->held = false;
        texture_free(t);
        return NULL;
    }
    return t;
}

static void texture_free(amp_texture *t)
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
    if (--t->refs == 0) texture_free(t);
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
    return level_extent(t->extent, level);
}

size_t amp_texture_data_length(const amp_texture *t)
{
    size_t n = 0;
    for (int m = 0; t && m < t->mips; m++) n += amp_extent_size(level_extent(t->extent, m)) * t->fmt.host_texel;
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

/* ---- copies ---- */

/* AMP_OK unless the application holds the texture (exported, not imported). */
static amp_status check_not_held(const amp_texture *t, const char *who)
{
    return t->held ? amp__fail(AMP_ERROR_INVALID_STATE,
                               "%s: the texture is held by the application (amp_texture_export); "
                               "amp_texture_import gives it back to ampvk first", who)
                   : AMP_OK;
}

/* Work on t recorded in another view's batch must reach the queue before work that
 * v records on t (v's batch may be submitted first). */
static amp_status submit_other_home(amp_texture *t, amp_accelerator_view *v)
{
    return t->home != v ? amp__view_submit_through(t->home, t->track.last_serial) : AMP_OK;
}

/* Resolves a region (NULL: all of level 0) and checks it against the texture. */
static amp_status resolve_region(const char *who, const amp_texture *t, const amp_texture_region *r,
                                 amp_texture_region *out)
{
    char a[48], b[48], c[48];
    amp_texture_region res = {.offset = amp_index_zero(t->extent.rank)};
    if (r) res = *r;
    if (res.mip_level < 0 || res.mip_level >= t->mips)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: mip level %d is outside 0..%d", who, res.mip_level,
                         t->mips - 1);
    amp_extent le = level_extent(t->extent, res.mip_level);
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

/* Widens 3-component texels of T to 4 (the fourth 0), or narrows 4 to 3. */
#define CONVERT_3_4(T)                                                                                                \
    do {                                                                                                             \
        const T *s_ = src;                                                                                           \
        T *d_ = dst;                                                                                                 \
        if (to_image)                                                                                                \
            for (size_t n = 0; n < texels; n++) {                                                                    \
                d_[4 * n] = s_[3 * n], d_[4 * n + 1] = s_[3 * n + 1], d_[4 * n + 2] = s_[3 * n + 2];                 \
                d_[4 * n + 3] = 0;                                                                                   \
            }                                                                                                        \
        else                                                                                                         \
            for (size_t n = 0; n < texels; n++)                                                                      \
                d_[3 * n] = s_[4 * n], d_[3 * n + 1] = s_[4 * n + 1], d_[3 * n + 2] = s_[4 * n + 2];                 \
    } while (0)

/* RGB8 <-> RGBA8 sixteen texels at a time: 32-bit words put together by shifts in a
 * block on the stack, which then goes out in one run of wide stores (staging memory is
 * often write-combined, where byte stores crawl).
 * Little-endian byte order; n a multiple of 16. */
static void rgb8_blocks(const uint8_t *src, uint8_t *dst, size_t n, bool to_image)
{
    for (size_t at = 0; at < n; at += 16) {
        uint32_t w[16];
        if (to_image) {
            uint32_t in[12];
            memcpy(in, src + 3 * at, sizeof in);
            for (int q = 0; q < 4; q++) {
                uint32_t a = in[3 * q], b = in[3 * q + 1], c = in[3 * q + 2];
                w[4 * q] = a & 0xffffffu;
                w[4 * q + 1] = a >> 24 | (b & 0xffffu) << 8;
                w[4 * q + 2] = b >> 16 | (c & 0xffu) << 16;
                w[4 * q + 3] = c >> 8;
            }
            memcpy(dst + 4 * at, w, sizeof w);
        } else {
            uint32_t in[16];
            memcpy(in, src + 4 * at, sizeof in);
            for (int q = 0; q < 4; q++) {
                uint32_t t0 = in[4 * q], t1 = in[4 * q + 1], t2 = in[4 * q + 2], t3 = in[4 * q + 3];
                w[3 * q] = (t0 & 0xffffffu) | t1 << 24;
                w[3 * q + 1] = (t1 >> 8 & 0xffffu) | t2 << 16;
                w[3 * q + 2] = (t2 >> 16 & 0xffu) | t3 << 8;
            }
            memcpy(dst + 3 * at, w, 12 * sizeof *w);
        }
    }
}

/* Widens (to_image) or narrows packed texels between host and image sizes: the
 * emulated 3-component formats, stored with 4, in typed loops the compiler
 * vectorizes (a 4K RGB image a few ms, not a memcpy call per texel). */
static void convert_widths(const amp__format *f, const void *src, void *dst, size_t texels, bool to_image)
{
    size_t h = f->host_texel, i = f->image_texel, e = h / 3;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (h == 3 && i == 4 && texels >= 16) {
        size_t blocks = texels / 16 * 16;
        rgb8_blocks(src, dst, blocks, to_image);
        src = (const uint8_t *)src + (to_image ? 3 : 4) * blocks;
        dst = (uint8_t *)dst + (to_image ? 4 : 3) * blocks;
        texels -= blocks;
    }
#endif
    bool aligned = ((uintptr_t)src | (uintptr_t)dst) % (e ? e : 1) == 0;
    if (h % 3 == 0 && i == 4 * e && aligned) {
        switch (e) {
        case 1: CONVERT_3_4(uint8_t); return;
        case 2: CONVERT_3_4(uint16_t); return;
        case 4: CONVERT_3_4(uint32_t); return;
        case 8: CONVERT_3_4(uint64_t); return;
        default: break;
        }
    }
    const char *s = src;
    char *d = dst;
    for (size_t n = 0; n < texels; n++) {
        if (to_image) {
            memcpy(d + n * i, s + n * h, h);
            memset(d + n * i + h, 0, i - h);
        } else {
            memcpy(d + n * h, s + n * i, h);
        }
    }
}

typedef struct convert_job {
    const amp__format *f;
    const char *src;
    char *dst;
    bool to_image;
} convert_job;

static void convert_piece(void *ctx, size_t begin, size_t end)
{
    convert_job *j = ctx;
    size_t from = j->to_image ? j->f->host_texel : j->f->image_texel;
    size_t to = j->to_image ? j->f->image_texel : j->f->host_texel;
    convert_widths(j->f, j->src + begin * from, j->dst + begin * to, end - begin, j->to_image);
}

/* Host texels into staging (to_image) or back: a copy (packed: the staging buffer
 * holds the host's layout), or widened / narrowed (large ones over several cores); a
 * "copy" span in the trace. */
static void convert_texels(const amp__format *f, bool packed, const void *src, void *dst, size_t texels,
                           bool to_image)
{
    const char *name = to_image ? "host to staging" : "staging to host";
    if (packed || f->host_texel == f->image_texel) {
        amp__trace_memcpy(dst, src, texels * f->host_texel, name);
        return;
    }
    uint64_t span = amp__trace_begin();
    convert_job j = {f, src, dst, to_image};
    amp__parallel_for(texels, AMP__COPY_PIECE / f->image_texel, convert_piece, &j);
    amp__trace_end(span, "copy", name, NULL);
}

typedef struct texture_job {
    amp__format fmt;
    bool packed;
    void *dst;
    size_t texels;
} texture_job;

static void unpack_texels(void *ctx, const void *staged, bool ok)
{
    texture_job *j = ctx;
    if (ok) convert_texels(&j->fmt, j->packed, staged, j->dst, j->texels, false);
}

/* Whether host transfers of a region of t of `texels` go through the built-in
 * pack_image.comp (3-channel texels packed in staging, widened or narrowed by the
 * device): textures that take uint views (GPUs), channels of 1, 2 or 4 bytes. A 4K
 * RGB8 image then crosses the bus as 25 MB, not 33, and no host core spends its time
 * converting the texels in each direction. */
static bool packed_on_device(const amp_texture *t, size_t texels)
{
    size_t e = t->fmt.host_texel / 3;
    return t->shader_copy && t->fmt.emulated && (e == 1 || e == 2 || e == 4) &&
           amp__packed_texels_size(texels, (uint32_t)e) <= t->dev->props.limits.maxStorageBufferRange;
}

/* The staging a host transfer of `texels` of t takes: the host's packed texels where
 * the device packs them, else the image's. */
static VkDeviceSize staging_size(const amp_texture *t, size_t texels, bool packed)
{
    return packed ? amp__packed_texels_size(texels, (uint32_t)t->fmt.host_texel / 3)
                  : (VkDeviceSize)texels * t->fmt.image_texel;
}

static VkImageView image_view(amp_texture *t, int base, int count, bool storage, VkFormat format);

/* Makes what pack_image.comp needs for a transfer of level `level` of t (to_device:
 * widening into it): the view it writes (storage) or reads, and the kernel's pipeline. */
static VkImageView pack_view(amp_texture *t, int level, bool to_device)
{
    VkImageView view = image_view(t, level, 1, to_device, t->fmt.uint_vk);
    if (view && amp__image_kernel_prepare(t->dev, to_device ? AMP__IMAGE_WIDEN : AMP__IMAGE_PACK, t->extent.rank) !=
                    AMP_OK)
        return VK_NULL_HANDLE;
    return view;
}

/* Records the transfer between staging and the region r of t as pack_image.comp after
 * the barrier it needs (the view, pipeline and buffers are made first). Widening reads
 * the staging buffer where it is; packing writes a device buffer that a queue copy
 * then moves to staging: shader stores across the bus crawled, several times slower
 * than a queue copy. */
static amp_status record_pack(amp_accelerator_view *v, amp__batch *b, VkCommandBuffer cmd, amp_texture *t,
                              const amp_texture_region *r, amp__staging *staging, bool to_device)
{
    uint32_t channel = (uint32_t)t->fmt.host_texel / 3;
    VkDeviceSize size = amp__packed_texels_size(amp_extent_size(r->extent), channel);
    VkImageView view = pack_view(t, r->mip_level, to_device);
    amp_status s = view ? AMP_OK : amp_last_status();
    amp__staging *packed = NULL;
    if (s == AMP_OK && !to_device && !(packed = amp__staging_get(t->dev, size, AMP__MEM_DEVICE))) s = amp_last_status();
    if (s != AMP_OK) return s;
    if (packed) amp__batch_keep_staging(b, packed);
    amp__barrier bar = {0};
    amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_GENERAL,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            to_device ? VK_ACCESS_SHADER_WRITE_BIT : VK_ACCESS_SHADER_READ_BIT, to_device,
                            amp__batch_serial(b), &bar);
    amp__barrier_record(v, cmd, &bar);
    VkOffset3D o = vk_offset(r->offset);
    VkExtent3D e = vk_extent(r->extent);
    int32_t at[3] = {o.x, o.y, o.z};
    uint32_t extent[3] = {e.width, e.height, e.depth};
    s = amp__record_shader_pack(v, b, t->extent.rank, to_device, view, at, extent, channel,
                                packed ? packed->buf.buffer : staging->buf.buffer);
    if (s != AMP_OK || to_device) return s;
    amp__track moved = {0};
    amp__track_access(&moved, packed->buf.buffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      true, amp__batch_serial(b), &bar);
    amp__track_access(&moved, packed->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, false,
                      amp__batch_serial(b), &bar);
    amp__barrier_record(v, cmd, &bar);
    vkCmdCopyBuffer(cmd, packed->buf.buffer, staging->buf.buffer, 1, &(VkBufferCopy){0, 0, size});
    return AMP_OK;
}

static VkBufferImageCopy image_copy(const amp_texture_region *r)
{
    return (VkBufferImageCopy){.bufferOffset = 0, .bufferRowLength = 0, .bufferImageHeight = 0,
                               .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)r->mip_level, 0, 1},
                               .imageOffset = vk_offset(r->offset), .imageExtent = vk_extent(r->extent)};
}

static amp_status texture_host_copy(amp_texture *t, const amp_texture_region *region, void *host, size_t size,
                                    bool to_device, amp_future **future, const char *who)
{
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    amp_texture_region r;
    amp_status s = check_not_held(t, who);
    if (s == AMP_OK) s = resolve_region(who, t, region, &r);
    if (s != AMP_OK) return s;
    size_t texels = amp_extent_size(r.extent), bytes = texels * t->fmt.host_texel;
    if (!host || size < bytes)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the host buffer holds %zu bytes but the region needs %zu", who,
                         host ? size : 0, bytes);
    if (future) *future = NULL;
    if (texels == 0) {
        /* an empty region: no copy command (Vulkan forbids empty ones); an async
         * caller still gets a future, as a NULL one means failure */
        if (future && !(*future = amp_view_create_marker(t->home ? t->home : t->av))) return amp_last_status();
        return AMP_OK;
    }
    amp_accelerator_view *v = t->home ? t->home : t->av;
    amp__device *d = t->dev;
    amp__lock(d);
    bool packed = packed_on_device(t, texels);
    /* registered memory (amp_host_register) that holds the image's own texels is copied
       straight from or into: no staging buffer, no host copy */
    VkBuffer buf = VK_NULL_HANDLE;
    VkDeviceSize at = 0;
    bool registered = !packed && t->fmt.host_texel == t->fmt.image_texel &&
                      amp__host_registered(d, host, bytes, &buf, &at) && at % t->fmt.image_texel == 0 &&
                      at % 4 == 0;
    amp__staging *st = NULL;
    if (!registered && amp__device_check(d) == AMP_OK &&
        (st = amp__staging_get(d, staging_size(t, texels, packed), to_device ? AMP__MEM_UPLOAD : AMP__MEM_READBACK))) {
        buf = st->buf.buffer;
        if (to_device) {
            /* the texels go into the staging buffer (ours until it joins a batch) outside
               the device lock: other threads record and copy meanwhile */
            amp__unlock(d);
            convert_texels(&t->fmt, packed, host, st->buf.alloc.mapped, texels, true);
            amp__lock(d);
        }
    }
    amp__batch *b = buf && amp__device_check(d) == AMP_OK ? amp__batch_current(v) : NULL;
    if (!b) {
        if (st) amp__staging_put(d, st);
        amp__unlock(d);
        return amp_last_status();
    }
    VkCommandBuffer cmd = amp__batch_cmd(b);
    uint64_t serial = amp__batch_serial(b);
    uint32_t timing = amp__profile_begin(b, to_device ? "upload" : "download", bytes);
    if (packed) {
        s = record_pack(v, b, cmd, t, &r, st, to_device);
    } else {
        VkBufferImageCopy c = image_copy(&r);
        c.bufferOffset = at;
        record_buffer_image_copy(v, b, t, buf, &c, to_device);
    }
    amp__profile_end(b, timing);
    if (s != AMP_OK) {
        if (st) amp__staging_put(d, st);
        amp__unlock(d);
        return s;
    }
    if (to_device) {
        if (st) amp__batch_keep_staging(b, st);
        v->stats.uploads++;
        v->stats.upload_bytes += bytes;
        s = amp__view_command_done(v);
        if (s == AMP_OK && future) *future = amp_view_create_marker(v);
        amp__unlock(d);
        return s;
    }
    amp__barrier_to_host(cmd, buf, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    v->stats.downloads++;
    v->stats.download_bytes += bytes;
    s = amp__view_submit(v);
    if (s != AMP_OK) {
        if (st) amp__staging_put(d, st);
        amp__unlock(d);
        return s;
    }
    /* through staging, the texels go to the host when the copy is done; registered, they are there */
    amp_future *f = st ? amp__readback_future(d, serial, st, unpack_texels,
                                              &(texture_job){t->fmt, packed, host, texels}, sizeof(texture_job))
                       : amp__future_new(d, serial, (amp__host_action){0});
    amp__unlock(d);
    if (!f) return amp_last_status();
    if (future) {
        *future = f;
        return AMP_OK;
    }
    s = amp_future_wait(f);
    amp_future_destroy(&f);
    return s;
}

amp_status amp_texture_copy_from_host(amp_texture *t, const amp_texture_region *r, const void *src, size_t size)
{
    return texture_host_copy(t, r, (void *)src, size, true, NULL, "amp_texture_copy_from_host");
}

amp_future *amp_texture_copy_from_host_async(amp_texture *t, const amp_texture_region *r, const void *src, size_t size)
{
    amp_future *f = NULL;
    texture_host_copy(t, r, (void *)src, size, true, &f, "amp_texture_copy_from_host_async");
    return f;
}

amp_status amp_texture_copy_to_host(amp_texture *t, const amp_texture_region *r, void *dst, size_t size)
{
    return texture_host_copy(t, r, dst, size, false, NULL, "amp_texture_copy_to_host");
}

amp_future *amp_texture_copy_to_host_async(amp_texture *t, const amp_texture_region *r, void *dst, size_t size)
{
    amp_future *f = NULL;
    texture_host_copy(t, r, dst, size, false, &f, "amp_texture_copy_to_host_async");
    return f;
}

amp_status amp_texture_reserve_transfers(amp_texture *t, bool to_device, bool to_host)
{
    const char *who = "amp_texture_reserve_transfers";
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    amp_texture_region r;
    amp_status s = resolve_region(who, t, NULL, &r);
    if (s != AMP_OK) return s;
    /* what texture_host_copy takes: the pool's buffers of its sizes, and for packed
       transfers the view, the kernels and the device buffer of a download */
    size_t texels = amp_extent_size(r.extent);
    bool packed = packed_on_device(t, texels);
    VkDeviceSize bytes = staging_size(t, texels, packed);
    amp__lock(t->dev);
    s = amp__device_check(t->dev);
    if (s == AMP_OK && to_device) s = amp__staging_reserve(t->dev, bytes, AMP__MEM_UPLOAD);
    if (s == AMP_OK && to_host) s = amp__staging_reserve(t->dev, bytes, AMP__MEM_READBACK);
    if (s == AMP_OK && to_host && packed) s = amp__staging_reserve(t->dev, bytes, AMP__MEM_DEVICE);
    if (s == AMP_OK && to_device && packed && !pack_view(t, 0, true)) s = amp_last_status();
    if (s == AMP_OK && to_host && packed && !pack_view(t, 0, false)) s = amp_last_status();
    amp__unlock(t->dev);
    return s;
}

amp_future *amp__texture_transform_download(const char *who, amp_texture *t, const amp__texture_transform *x,
                                            amp__unpack_fn unpack, const void *ctx, size_t ctx_size)
{
    amp_status s = check_not_held(t, who);
    if (s != AMP_OK) return NULL;
    VkDeviceSize staged = 0;
    for (uint32_t i = 0; i < x->download_count; i++) staged += x->downloads[i].size;
    amp_accelerator_view *v = t->home ? t->home : t->av;
    amp__device *d = t->dev;
    amp__lock(d);
    s = amp__device_check(d);
    VkImageView view = s == AMP_OK ? amp__texture_uint_view(t, 0, 1, false, false) : VK_NULL_HANDLE;
    if (view && x->prepare(d) != AMP_OK) view = VK_NULL_HANDLE;
    amp__staging *work = view ? amp__staging_get(d, x->buffer_bytes, AMP__MEM_DEVICE) : NULL;
    amp__staging *st = work ? amp__staging_get(d, staged, AMP__MEM_READBACK) : NULL;
    amp__batch *b = st ? amp__batch_current(v) : NULL;
    if (!b) {
        if (work) amp__staging_put(d, work);
        if (st) amp__staging_put(d, st);
        amp__unlock(d);
        return NULL;
    }
    amp__batch_keep_staging(b, work);
    VkCommandBuffer cmd = amp__batch_cmd(b);
    uint64_t serial = amp__batch_serial(b);
    uint32_t timing = amp__profile_begin(b, x->name, x->profile_bytes);
    amp__barrier bar = {0};
    amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_GENERAL,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT, false, serial, &bar);
    amp__barrier_record(v, cmd, &bar);
    /* the range zeroed, then the transform's kernels, then their results to staging */
    amp__track moved = {0};
    VkBuffer buf = work->buf.buffer;
    if (x->zero_bytes) vkCmdFillBuffer(cmd, buf, x->zero_offset, x->zero_bytes, 0);
    amp__track_access(&moved, buf, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, true, serial, &bar);
    amp__track_access(&moved, buf, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, true, serial, &bar);
    amp__barrier_record(v, cmd, &bar);
    s = x->record(v, b, view, buf, x->arg);
    if (s == AMP_OK) {
        amp__track_access(&moved, buf, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, false, serial,
                          &bar);
        amp__barrier_record(v, cmd, &bar);
        vkCmdCopyBuffer(cmd, buf, st->buf.buffer, x->download_count, x->downloads);
        amp__barrier_to_host(cmd, st->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    }
    amp__profile_end(b, timing);
    if (s == AMP_OK) {
        v->stats.downloads++;
        v->stats.download_bytes += staged;
        s = amp__view_submit(v);
    }
    if (s != AMP_OK) {
        amp__staging_put(d, st);
        amp__unlock(d);
        return NULL;
    }
    amp_future *f = amp__readback_future(d, serial, st, unpack, ctx, ctx_size);
    amp__unlock(d);
    return f;
}

static bool regions_overlap(const amp_texture_region *a, const amp_texture_region *b)
{
    if (a->mip_level != b->mip_level) return false;
    for (int k = 0; k < a->offset.rank; k++)
        if (a->offset.i[k] >= b->offset.i[k] + b->extent.dims[k] || b->offset.i[k] >= a->offset.i[k] + a->extent.dims[k])
            return false;
    return true;
}

/* Checks the textures and resolves the source and destination regions of a copy, in that order. */
static amp_status check_texture_copy(amp_texture *src, const amp_texture_region *sr, amp_texture *dst,
                                     const amp_texture_region *dr, amp_texture_region *s_r, amp_texture_region *d_r,
                                     const char *who)
{
    char a[48], b[48];
    if (!src || !dst) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    if (check_not_held(src, who) != AMP_OK || check_not_held(dst, who) != AMP_OK) return amp_last_status();
    if (src->fmt.type != dst->fmt.type || src->fmt.bits != dst->fmt.bits)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source is %s of %d bits, destination %s of %d bits", who,
                         amp_type_name(src->fmt.type), src->fmt.bits, amp_type_name(dst->fmt.type), dst->fmt.bits);
    if (src->dev != dst->dev)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "%s: the textures are on different devices (\"%s\", \"%s\")", who,
                         src->dev->props.deviceName, dst->dev->props.deviceName);
    if (!sr && !dr) {
        if (!amp_extent_equal(src->extent, dst->extent))
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source extent %s differs from destination extent %s", who,
                             amp_extent_format(src->extent, a, sizeof a), amp_extent_format(dst->extent, b, sizeof b));
        if (src->mips != dst->mips)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source has %d mip levels, destination %d", who,
                             src->mips, dst->mips);
    }
    amp_status s = resolve_region(who, src, sr, s_r);
    if (s != AMP_OK) return s;
    amp_texture_region want = {.offset = dr ? dr->offset : amp_index_zero(dst->extent.rank), .extent = s_r->extent,
                               .mip_level = dr ? dr->mip_level : s_r->mip_level};
    if ((s = resolve_region(who, dst, &want, d_r)) != AMP_OK) return s;
    if (src == dst && regions_overlap(s_r, d_r))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source and destination regions of one texture overlap (at %s "
                         "and %s, mip level %d)", who, amp_index_format(s_r->offset, a, sizeof a),
                         amp_index_format(d_r->offset, b, sizeof b), s_r->mip_level);
    return AMP_OK;
}

/* Fills a copy's regions, one a level (16 at most), image to image and through a buffer; returns that buffer's size. */
static size_t copy_regions(const amp_texture *src, int levels, const amp_texture_region *s_r,
                           const amp_texture_region *d_r, VkImageCopy regions[16], VkBufferImageCopy through[16])
{
    size_t at = 0;
    for (int m = 0; m < levels && m < 16; m++) {
        amp_extent e = levels > 1 ? level_extent(src->extent, m) : s_r->extent;
        regions[m] = (VkImageCopy){
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)(levels > 1 ? m : s_r->mip_level), 0, 1},
            .srcOffset = vk_offset(levels > 1 ? amp_index_zero(e.rank) : s_r->offset),
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)(levels > 1 ? m : d_r->mip_level), 0, 1},
            .dstOffset = vk_offset(levels > 1 ? amp_index_zero(e.rank) : d_r->offset),
            .extent = vk_extent(e)};
        through[m] = (VkBufferImageCopy){.bufferOffset = at, .imageSubresource = regions[m].srcSubresource,
                                         .imageOffset = regions[m].srcOffset, .imageExtent = regions[m].extent};
        at += amp_extent_size(e) * src->fmt.image_texel;
    }
    return at;
}

/* Tracks a copy's read of src and write of dst, in these layouts at this stage
 * (transfer: TRANSFER_*_OPTIMAL; compute: GENERAL), and records their barrier. */
static void copy_barrier(amp_accelerator_view *v, VkCommandBuffer cmd, uint64_t serial, amp_texture *src,
                         amp_texture *dst, bool transfer)
{
    VkPipelineStageFlags stage = transfer ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    amp__barrier bar = {0};
    amp__track_image_access(&src->track, src->image, &src->layout,
                            transfer ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL, stage,
                            transfer ? VK_ACCESS_TRANSFER_READ_BIT : VK_ACCESS_SHADER_READ_BIT, false, serial, &bar);
    amp__track_image_access(&dst->track, dst->image, &dst->layout,
                            transfer ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL, stage,
                            transfer ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_SHADER_WRITE_BIT, true, serial, &bar);
    amp__barrier_record(v, cmd, &bar);
}

/* Records a copy between two images: both into transfer layouts, then one vkCmdCopyImage. */
static void record_image_copy(amp_accelerator_view *v, VkCommandBuffer cmd, uint64_t serial, amp_texture *src,
                              amp_texture *dst, uint32_t n, const VkImageCopy *regions)
{
    copy_barrier(v, cmd, serial, src, dst, true);
    vkCmdCopyImage(cmd, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n, regions);
}

/* Records a copy between two shader_copy images as the built-in image copy kernel:
 * a dispatch a level, reading and writing uint views of both, so bit for bit. On
 * GPUs a queue copy of an image ran many times slower in batches than this kernel.
 * The views and the pipeline are made before anything is recorded. */
static amp_status record_shader_image_copy(amp_accelerator_view *v, amp__batch *bt, VkCommandBuffer cmd,
                                           uint64_t serial, amp_texture *src, amp_texture *dst, uint32_t n,
                                           const VkImageCopy *regions)
{
    VkImageView from[16], to[16];
    for (uint32_t m = 0; m < n; m++) {
        from[m] = image_view(src, (int)regions[m].srcSubresource.mipLevel, 1, false, src->fmt.uint_vk);
        to[m] = from[m] ? image_view(dst, (int)regions[m].dstSubresource.mipLevel, 1, true, dst->fmt.uint_vk)
                        : VK_NULL_HANDLE;
        if (!to[m]) return amp_last_status();
    }
    amp_status s = amp__image_kernel_prepare(v->dev, AMP__IMAGE_COPY, src->extent.rank);
    if (s != AMP_OK) return s;
    copy_barrier(v, cmd, serial, src, dst, false);
    for (uint32_t m = 0; m < n && s == AMP_OK; m++) {
        const VkImageCopy *r = &regions[m];
        int32_t at_src[3] = {r->srcOffset.x, r->srcOffset.y, r->srcOffset.z};
        int32_t at_dst[3] = {r->dstOffset.x, r->dstOffset.y, r->dstOffset.z};
        uint32_t size[3] = {r->extent.width, r->extent.height, r->extent.depth};
        s = amp__record_shader_image_copy(v, bt, src->extent.rank, from[m], at_src, to[m], at_dst, size);
    }
    return s;
}

/* Records a copy within one image through a staging buffer of `bytes` that the batch keeps; false if there is none. */
static bool record_copy_through_buffer(amp_accelerator_view *v, amp__batch *bt, VkCommandBuffer cmd, uint64_t serial,
                                       amp_texture *t, uint32_t n, const VkImageCopy *regions,
                                       VkBufferImageCopy *through, size_t bytes)
{
    /* one image cannot be a transfer source and destination in optimal layouts
     * at once: go through a buffer */
    amp__staging *tmp = amp__staging_get(v->dev, bytes, AMP__MEM_DEVICE);
    if (!tmp) return false;
    amp__batch_keep_staging(bt, tmp);
    amp__barrier bar = {0};
    amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, false, serial, &bar);
    amp__barrier_record(v, cmd, &bar);
    vkCmdCopyImageToBuffer(cmd, t->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, tmp->buf.buffer, n, through);
    amp__track t_tmp = {0};
    amp__track_access(&t_tmp, tmp->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, true,
                      serial, &bar);
    amp__track_access(&t_tmp, tmp->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, false,
                      serial, &bar);
    amp__track_image_access(&t->track, t->image, &t->layout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, true, serial, &bar);
    amp__barrier_record(v, cmd, &bar);
    for (uint32_t m = 0; m < n; m++) {
        through[m].imageSubresource = regions[m].dstSubresource;
        through[m].imageOffset = regions[m].dstOffset;
    }
    vkCmdCopyBufferToImage(cmd, tmp->buf.buffer, t->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n, through);
    return true;
}

static amp_status texture_copy(amp_texture *src, const amp_texture_region *sr, amp_texture *dst,
                               const amp_texture_region *dr, amp_future **future, const char *who)
{
    amp_texture_region s_r, d_r;
    amp_status s = check_texture_copy(src, sr, dst, dr, &s_r, &d_r, who);
    if (s != AMP_OK) return s;
    if (future) *future = NULL;
    int levels = (!sr && !dr) ? src->mips : 1;
    if (amp_extent_size(s_r.extent) == 0) {
        /* an empty region (whole copies never are): nothing to record, as above */
        if (future && !(*future = amp_view_create_marker(dst->home ? dst->home : dst->av))) return amp_last_status();
        return AMP_OK;
    }
    amp_accelerator_view *v = dst->home ? dst->home : dst->av;
    amp__lock(v->dev);
    /* the copy is recorded on dst's view: src's last use may sit in another view's batch */
    s = submit_other_home(src, v);
    amp__batch *bt = s == AMP_OK ? amp__batch_current(v) : NULL;
    if (!bt) {
        amp__unlock(v->dev);
        return amp_last_status();
    }
    uint64_t serial = amp__batch_serial(bt);
    VkCommandBuffer cmd = amp__batch_cmd(bt);
    VkImageCopy regions[16];
    VkBufferImageCopy through[16];
    size_t at = copy_regions(src, levels, &s_r, &d_r, regions, through);
    uint32_t n = (uint32_t)(levels < 16 ? levels : 16);
    uint32_t timing = amp__profile_begin(bt, "device copy", at);
    if (src != dst && src->shader_copy && dst->shader_copy)
        s = record_shader_image_copy(v, bt, cmd, serial, src, dst, n, regions);
    else if (src != dst)
        record_image_copy(v, cmd, serial, src, dst, n, regions);
    else if (!record_copy_through_buffer(v, bt, cmd, serial, src, n, regions, through, at))
        s = amp_last_status();
    amp__profile_end(bt, timing);
    if (s != AMP_OK) {
        amp__unlock(v->dev);
        return s;
    }
    src->home = dst->home = v;
    v->stats.device_copies++;
    s = amp__view_command_done(v);
    if (s == AMP_OK && future) *future = amp_view_create_marker(v);
    amp__unlock(v->dev);
    return s;
}

amp_status amp_texture_copy(amp_texture *src, const amp_texture_region *sr, amp_texture *dst,
                            const amp_texture_region *dr)
{
    return texture_copy(src, sr, dst, dr, NULL, "amp_texture_copy");
}

amp_future *amp_texture_copy_async(amp_texture *src, const amp_texture_region *sr, amp_texture *dst,
                                   const amp_texture_region *dr)
{
    amp_future *f = NULL;
    texture_copy(src, sr, dst, dr, &f, "amp_texture_copy_async");
    return f;
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

/* The view of levels base..base+count-1, storage or sampled, in the texture's format or
 * (shader_copy textures) its uint or word format; made on first need. */
static VkImageView image_view(amp_texture *t, int base, int count, bool storage, VkFormat format)
{
    for (int i = 0; i < t->view_count; i++)
        if (t->views[i].base == base && t->views[i].count == count && t->views[i].storage == storage &&
            t->views[i].format == format)
            return t->views[i].view;
    if (t->view_count == MAX_VIEWS) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "a texture can have at most %d distinct views", MAX_VIEWS);
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
    t->views[t->view_count++] = (image_view_entry){base, count, storage, format, view};
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
    return image_view(t, base, count, storage, word ? t->fmt.word_vk : t->fmt.uint_vk);
}

amp_status amp__texture_make_ready(const amp__texture_use *u, amp_accelerator_view *v)
{
    if (check_not_held(u->texture, "parallel_for_each") != AMP_OK) return amp_last_status();
    return u->texture->dev == v->dev ? submit_other_home(u->texture, v) : AMP_OK;
}

amp_status amp__texture_prepare(const amp__texture_use *u, amp_accelerator_view *v, bool storage, bool write,
                                amp__barrier *bar, VkImageView *view)
{
    amp_texture *t = u->texture;
    if (t->dev != v->dev)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "the texture lives on \"%s\", not on \"%s\"",
                         t->dev->props.deviceName, v->dev->props.deviceName);
    /* a storage binding sees one level: the view's first */
    *view = image_view(t, u->base_mip, storage ? 1 : u->mip_count, storage, t->fmt.vk);
    if (!*view) return amp_last_status();
    /* an earlier use recorded in another view's batch must reach the queue first,
     * before v's batch is taken: submitting may submit that one too */
    amp_status s = submit_other_home(t, v);
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
    return submit_other_home(t, v) == AMP_OK ? amp__batch_current(v) : NULL;
}

amp_status amp__texture_buffer_copy(amp_texture *t, amp_accelerator_view *v, VkBuffer buf, VkDeviceSize offset,
                                    uint32_t row_texels, bool to_image)
{
    amp__batch *b = filter_batch(t, v);
    if (!b) return amp_last_status();
    VkBufferImageCopy c = {.bufferOffset = offset, .bufferRowLength = row_texels,
                           .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = vk_extent(t->extent)};
    record_buffer_image_copy(v, b, t, buf, &c, to_image);
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
    amp_status s = check_not_held(t, who);
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
    amp_status s = check_not_held(t, who);
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

/* Takes the image from the application (it must be held): the batch that first uses
 * it again waits for a->wait, then acquires it from a's family and moves it from
 * `from` (0: the layout it was exported in) to GENERAL. */
static amp_status texture_acquire(amp_texture *t, const char *who, const amp_vulkan_access *a, VkImageLayout from)
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
    return texture_acquire(t, who, access, (VkImageLayout)access->layout);
}

bool amp_texture_is_exported(const amp_texture *t) { return t && t->held; }
