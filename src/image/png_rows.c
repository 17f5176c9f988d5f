/* PNG's row filtering on the device (shaders/image/png_rows.comp): the layout of its
 * buffer, its three kernels' pipelines (a device cache) and their recording, handed to
 * the data layer as a transform of a texture's rows (amp__texture_transform) whose
 * results image_file.c codes on the host. */
#include <stdlib.h>

#include "data/data.h"
#include "image/image_internal.h"

extern const uint32_t amp__builtin_png_types[], amp__builtin_png_rows[], amp__builtin_png_count[];
extern const size_t amp__builtin_png_types_size, amp__builtin_png_rows_size, amp__builtin_png_count_size;

/* png_rows.comp's kernels, by define */
enum { PNG_TYPES, PNG_ROWS, PNG_COUNT, PNG_KERNELS };

typedef struct png_kernels {
    VkPipeline pipe[PNG_KERNELS];
} png_kernels;

static void png_kernels_release(amp__device *d, void *state)
{
    png_kernels *k = state;
    for (int i = 0; i < PNG_KERNELS; i++)
        if (k->pipe[i]) vkDestroyPipeline(d->device, k->pipe[i], NULL);
    free(k);
}

static const amp__device_cache_type png_cache = {"PNG row kernels", sizeof(png_kernels), NULL, png_kernels_release};

/* Makes the kernels' pipelines on d (those not made yet: a failure leaves the ones
 * made for the next try). */
static amp_status png_kernels_prepare(amp__device *d)
{
    static const uint32_t *const spirv[PNG_KERNELS] = {amp__builtin_png_types, amp__builtin_png_rows,
                                                       amp__builtin_png_count};
    const size_t *const size[PNG_KERNELS] = {&amp__builtin_png_types_size, &amp__builtin_png_rows_size,
                                             &amp__builtin_png_count_size};
    png_kernels *k = amp__device_cache_get(d, &png_cache);
    if (!k) return amp_last_status();
    for (int i = 0; i < PNG_KERNELS; i++)
        if (!k->pipe[i]) {
            amp_status s = amp__image_kernel_pipeline(d, spirv[i], *size[i], &k->pipe[i]);
            if (s != AMP_OK) return s;
        }
    return AMP_OK;
}

static amp__png_layout png_layout_of(uint32_t width, uint32_t height, uint32_t channels, uint32_t channel_bytes,
                                     uint32_t block)
{
    amp__png_layout l = {.width = width, .height = height, .channels = channels, .channel_bytes = channel_bytes,
                         .block = block};
    l.row_bytes = (uint64_t)width * channels * channel_bytes;
    l.stream_bytes = (uint64_t)height * (l.row_bytes + 1);
    l.types_at = (l.stream_bytes + 3) / 4;
    l.counts_at = l.types_at + height;
    l.blocks = (l.stream_bytes + block - 1) / block;
    l.buffer_bytes = 4 * (l.counts_at + 257 * l.blocks);
    return l;
}

/* Orders the next of png_rows.comp's kernels after the one before (they share the
 * buffer: the types, then the stream). */
static void png_step_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                         NULL, 0, NULL);
}

/* The transform's record: png_rows.comp's three kernels on image into buf (its counts
 * zeroed), each ordered after the one before; arg is the amp__png_layout. */
static amp_status record_png_rows(amp_accelerator_view *v, amp__batch *batch, VkImageView image, VkBuffer buf,
                                  const void *arg)
{
    const amp__png_layout *l = arg;
    const png_kernels *k = amp__device_cache(v->dev, &png_cache); /* made by png_kernels_prepare */
    /* png_rows.comp's push_t: image (width, height, channels, bytes a channel), at
       (types_at, counts_at, stream bytes, block bytes), row (bytes a row, a pixel) */
    amp__image_push push = {{(int32_t)l->width, (int32_t)l->height, (int32_t)l->channels, (int32_t)l->channel_bytes},
                            {(int32_t)l->types_at, (int32_t)l->counts_at, (int32_t)l->stream_bytes, (int32_t)l->block},
                            {(uint32_t)l->row_bytes, l->channels * l->channel_bytes, 0, 0}};
    VkCommandBuffer cmd = amp__batch_cmd(batch);
    uint32_t max = v->dev->props.limits.maxComputeWorkGroupCount[0];
    uint64_t words = (l->stream_bytes + 3) / 4, chunks = (l->stream_bytes + 1023) / 1024;
    amp_status s = amp__record_image_kernel(v, batch, k->pipe[PNG_TYPES], image, VK_NULL_HANDLE, buf,
                                            l->buffer_bytes, &push);
    if (s != AMP_OK) return s;
    vkCmdDispatch(cmd, 1, l->height, 1);
    png_step_barrier(cmd);
    s = amp__record_image_kernel(v, batch, k->pipe[PNG_ROWS], image, VK_NULL_HANDLE, buf, l->buffer_bytes, &push);
    if (s != AMP_OK) return s;
    uint64_t groups = (words + 255) / 256;
    vkCmdDispatch(cmd, groups < max ? (uint32_t)groups : max, 1, 1);
    png_step_barrier(cmd);
    s = amp__record_image_kernel(v, batch, k->pipe[PNG_COUNT], image, VK_NULL_HANDLE, buf, l->buffer_bytes, &push);
    if (s != AMP_OK) return s;
    vkCmdDispatch(cmd, chunks < max ? (uint32_t)chunks : max, 1, 1);
    return AMP_OK;
}

amp__png_layout amp__png_rows_layout(const amp_texture *t, uint32_t block)
{
    amp_extent e = amp_texture_extent(t);
    const amp__format *f = amp__texture_format(t);
    return png_layout_of((uint32_t)e.dims[1], (uint32_t)e.dims[0], (uint32_t)f->components, (uint32_t)f->bits / 8,
                         block);
}

bool amp__png_rows_possible(const amp_texture *t, uint32_t block)
{
    if (!t || amp_texture_extent(t).rank != 2 || !amp__texture_uint_ok(t, false) ||
        (amp__texture_format(t)->bits != 8 && amp__texture_format(t)->bits != 16) || block % 1024)
        return false;
    amp__png_layout l = amp__png_rows_layout(t, block);
    const VkPhysicalDeviceLimits *limits = &amp_texture_accelerator_view(t)->dev->props.limits;
    return l.buffer_bytes <= limits->maxStorageBufferRange && l.height <= limits->maxComputeWorkGroupCount[1];
}

amp_future *amp__png_rows_download(const char *who, amp_texture *t, uint32_t block, amp__unpack_fn unpack,
                                   const void *ctx, size_t ctx_size)
{
    if (!amp__png_rows_possible(t, block)) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "%s: this texture cannot be filtered for PNG on its device", who);
        return NULL;
    }
    amp__png_layout l = amp__png_rows_layout(t, block);
    VkDeviceSize stream = 4 * l.types_at, counts = 4 * 257 * l.blocks;
    amp__texture_transform x = {.name = "PNG rows", .profile_bytes = (size_t)l.stream_bytes,
                                .buffer_bytes = l.buffer_bytes, .zero_offset = 4 * l.counts_at, .zero_bytes = counts,
                                .downloads = {{0, 0, stream}, {4 * l.counts_at, stream, counts}},
                                .download_count = 2, .prepare = png_kernels_prepare, .record = record_png_rows,
                                .arg = &l};
    return amp__texture_transform_download(who, t, &x, unpack, ctx, ctx_size);
}
