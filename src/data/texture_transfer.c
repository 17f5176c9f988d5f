/* Host transfers of textures: texels through staging (3-component ones widened and
 * narrowed on the host, or packed and unpacked by pack_image.comp on GPUs), straight
 * from registered memory, and transforms of a texture's rows that a layer above
 * records on the device and downloads. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

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

/* Makes what pack_image.comp needs for a transfer of level `level` of t (to_device:
 * widening into it): the view it writes (storage) or reads, and the kernel's pipeline. */
static VkImageView pack_view(amp_texture *t, int level, bool to_device)
{
    VkImageView view = amp__texture_image_view(t, level, 1, to_device, t->fmt.uint_vk);
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
    VkOffset3D o = amp__vk_offset(r->offset);
    VkExtent3D e = amp__vk_extent(r->extent);
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
                               .imageOffset = amp__vk_offset(r->offset), .imageExtent = amp__vk_extent(r->extent)};
}

amp_status amp__texture_host_copy(amp_texture *t, const amp_texture_region *region, void *host, size_t size,
                                  bool to_device, amp_future **future, const char *who)
{
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    amp_texture_region r;
    amp_status s = amp__texture_check_not_held(t, who);
    if (s == AMP_OK) s = amp__texture_resolve_region(who, t, region, &r);
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
        amp__texture_record_buffer_image_copy(v, b, t, buf, &c, to_device);
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
    return amp__texture_host_copy(t, r, (void *)src, size, true, NULL, "amp_texture_copy_from_host");
}

amp_future *amp_texture_copy_from_host_async(amp_texture *t, const amp_texture_region *r, const void *src, size_t size)
{
    amp_future *f = NULL;
    amp__texture_host_copy(t, r, (void *)src, size, true, &f, "amp_texture_copy_from_host_async");
    return f;
}

amp_status amp_texture_copy_to_host(amp_texture *t, const amp_texture_region *r, void *dst, size_t size)
{
    return amp__texture_host_copy(t, r, dst, size, false, NULL, "amp_texture_copy_to_host");
}

amp_future *amp_texture_copy_to_host_async(amp_texture *t, const amp_texture_region *r, void *dst, size_t size)
{
    amp_future *f = NULL;
    amp__texture_host_copy(t, r, dst, size, false, &f, "amp_texture_copy_to_host_async");
    return f;
}

amp_status amp_texture_reserve_transfers(amp_texture *t, bool to_device, bool to_host)
{
    const char *who = "amp_texture_reserve_transfers";
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    amp_texture_region r;
    amp_status s = amp__texture_resolve_region(who, t, NULL, &r);
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
    amp_status s = amp__texture_check_not_held(t, who);
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
