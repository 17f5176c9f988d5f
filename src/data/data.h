/* The data layer (src/data): arrays and array_views over shared storage, textures
 * on Vulkan images, and samplers. It uses src/core and src/vulkan; what the kernel
 * layer needs to bind data to a dispatch is declared here. Not installed. */
#ifndef AMPVK_DATA_H
#define AMPVK_DATA_H

#include "ampvk/texture.h"
#include "core/format.h"
#include "vulkan/gpu.h"

/* ---- array.c: storage shared by views ---- */
typedef struct amp__data amp__data;
/* Before a dispatch tracks any access: orders the view's storage after its last use
 * in another view's batch and makes its data current on v's device. Either may
 * submit batches (v's recording one too), which must not happen once accesses are
 * tracked in v's batch, so a dispatch readies every argument first. */
AMP_HIDDEN amp_status amp__view_make_ready(amp_array_view *view, amp_accelerator_view *v);
/* Makes the view's data current on the device of v for a kernel access; records an
 * upload if needed and gathers the barrier for the access. The storage is *size
 * bytes at *offset in *buf (a multiple of minStorageBufferOffsetAlignment). */
AMP_HIDDEN amp_status amp__view_prepare_device(amp_array_view *view, amp_accelerator_view *v,
                                              bool write, amp__barrier *bar, VkBuffer *buf,
                                              VkDeviceSize *offset, VkDeviceSize *size);
/* Element offset and strides (in elements) of a view inside its storage. */
AMP_HIDDEN void amp__view_geometry(const amp_array_view *view, int64_t *offset, int64_t strides[2]);

/* ---- texture.c ---- */
/* What a kernel parameter binds: a texture or a view, resolved to one image view. */
typedef struct amp__texture_use {
    amp_texture *texture;
    int base_mip, mip_count;
    amp_texture_access access; /* of a view; AMP_TEXTURE_READ_WRITE for a whole texture */
} amp__texture_use;

AMP_HIDDEN amp__texture_use amp__texture_use_of(amp_texture *t);
AMP_HIDDEN amp__texture_use amp__texture_use_of_view(amp_texture_view *v);
AMP_HIDDEN const amp__format *amp__texture_format(const amp_texture *t);
AMP_HIDDEN bool amp__texture_storage_ok(const amp_texture *t);
AMP_HIDDEN bool amp__texture_linear_ok(const amp_texture *t);
/* True when no recorded or submitted work uses the texture any more (no wait). */
AMP_HIDDEN bool amp__texture_idle(const amp_texture *t);
/* The texture's last use in another view's batch reaches the queue (see
 * amp__view_make_ready). */
AMP_HIDDEN amp_status amp__texture_make_ready(const amp__texture_use *u, amp_accelerator_view *v);
/* Prepares the texture for a kernel's access on v: gathers its barrier, returns the
 * image view for the use (one level for storage access, the range for reads). */
AMP_HIDDEN amp_status amp__texture_prepare(const amp__texture_use *u, amp_accelerator_view *v, bool storage,
                                           bool write, amp__barrier *bar, VkImageView *view);
/* Whether the texture takes views in its uint format (GPUs' storage textures, whose
 * copies run as shaders: for a unorm texture, its texels' codes as integers), or with
 * word, in its word format (amp__format's word_vk: each 4-byte texel one word). */
AMP_HIDDEN bool amp__texture_uint_ok(const amp_texture *t, bool word);
/* The sampled or storage view of levels base..base+count-1 in the texture's uint format
 * (or word format), made on first need (VK_NULL_HANDLE with the error where
 * amp__texture_uint_ok is false); the texture's barrier is amp__texture_prepare's. */
AMP_HIDDEN VkImageView amp__texture_uint_view(amp_texture *t, int base, int count, bool storage, bool word);
/* tests/: textures made while on keep optimal tiling on CPU devices too (the filters'
 * passes on buffers then copy in and out, as for the application's images). */
AMP_HIDDEN void amp__force_optimal_textures(bool on);
/* The bytes between rows of a linear image's texels (CPU devices: amp_texture_create
 * makes one-level 2-D textures of 8-bit unorm texels linear there), else 0. */
AMP_HIDDEN VkDeviceSize amp__texture_row_pitch(const amp_texture *t);
/* A storage buffer over a linear image's texels (rows amp__texture_row_pitch apart) and a
 * view of it as texels of 16 bytes (R32G32B32A32_UINT: a uniform texel buffer), each where
 * its pointer is not NULL, for a shader of v's batch to read or write, after the image's
 * barrier for that (layout GENERAL); the texture keeps both. AMP_ERROR_UNSUPPORTED for
 * other images. */
AMP_HIDDEN amp_status amp__texture_buffer(amp_texture *t, amp_accelerator_view *v, bool write, VkBuffer *buf,
                                          VkBufferView *view);
/* Records on v a copy of a 2-D texture's level 0 into the buffer at offset (to_image
 * false) or from it (true), rows row_texels texels apart, with the texture's barrier;
 * the buffer's barriers are the caller's. */
AMP_HIDDEN amp_status amp__texture_buffer_copy(amp_texture *t, amp_accelerator_view *v, VkBuffer buf,
                                               VkDeviceSize offset, uint32_t row_texels, bool to_image);

/* A device-side transform of a texture's level 0 into a buffer whose results go to
 * the host, passed in by a layer above with its kernels (the image layer's, for one):
 * the data layer records it between the texture's barrier and the download, knowing
 * nothing of what the kernels compute. */
typedef struct amp__texture_transform {
    const char *name;                     /* the profile's span */
    size_t profile_bytes;                 /* the profile's byte count */
    VkDeviceSize buffer_bytes;            /* the device buffer the kernels work in */
    VkDeviceSize zero_offset, zero_bytes; /* a range of it zeroed before they run */
    VkBufferCopy downloads[2];            /* ranges of it staged for the host */
    uint32_t download_count;
    /* makes what record needs on d (its pipelines); under the device lock, before
     * anything is recorded */
    amp_status (*prepare)(amp__device *d);
    /* records the kernels in b on image (a sampled view of level 0 in the texture's uint
     * format, GENERAL layout) and buf, ordered after the zeroing; the caller orders
     * what follows */
    amp_status (*record)(amp_accelerator_view *v, amp__batch *b, VkImageView image, VkBuffer buf,
                         const void *arg);
    const void *arg; /* record's, for the call only */
} amp__texture_transform;
/* Records x on t's level 0 (t takes uint views: amp__texture_uint_ok), submits it with
 * the download of x's ranges, and returns a future whose wait hands them to unpack
 * (with ctx_size bytes of ctx), one after another. NULL with the error, which names
 * `who`. */
AMP_HIDDEN amp_future *amp__texture_transform_download(const char *who, amp_texture *t,
                                                       const amp__texture_transform *x, amp__unpack_fn unpack,
                                                       const void *ctx, size_t ctx_size);

/* ---- sampler.c ---- */
/* The device's sampler for s, created once (NULL with an error if impossible). The
 * caller holds the device lock. */
AMP_HIDDEN VkSampler amp__sampler_get(amp__device *d, const amp_sampler *s);

#endif
