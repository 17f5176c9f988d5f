/* Copies between textures and between regions of one texture: the built-in image
 * copy kernel on GPUs, vkCmdCopyImage elsewhere, a buffer between regions of one
 * image. */
#include <stdint.h>

#include "data/data.h"

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
    if (amp__texture_check_not_held(src, who) != AMP_OK || amp__texture_check_not_held(dst, who) != AMP_OK)
        return amp_last_status();
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
    amp_status s = amp__texture_resolve_region(who, src, sr, s_r);
    if (s != AMP_OK) return s;
    amp_texture_region want = {.offset = dr ? dr->offset : amp_index_zero(dst->extent.rank), .extent = s_r->extent,
                               .mip_level = dr ? dr->mip_level : s_r->mip_level};
    if ((s = amp__texture_resolve_region(who, dst, &want, d_r)) != AMP_OK) return s;
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
        amp_extent e = levels > 1 ? amp__level_extent(src->extent, m) : s_r->extent;
        regions[m] = (VkImageCopy){
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)(levels > 1 ? m : s_r->mip_level), 0, 1},
            .srcOffset = amp__vk_offset(levels > 1 ? amp_index_zero(e.rank) : s_r->offset),
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)(levels > 1 ? m : d_r->mip_level), 0, 1},
            .dstOffset = amp__vk_offset(levels > 1 ? amp_index_zero(e.rank) : d_r->offset),
            .extent = amp__vk_extent(e)};
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
        from[m] = amp__texture_image_view(src, (int)regions[m].srcSubresource.mipLevel, 1, false, src->fmt.uint_vk);
        to[m] = from[m]
                    ? amp__texture_image_view(dst, (int)regions[m].dstSubresource.mipLevel, 1, true, dst->fmt.uint_vk)
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
    s = amp__texture_submit_other_home(src, v);
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
