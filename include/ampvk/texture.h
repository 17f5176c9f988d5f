/*
 * ampvk/texture.h: textures, texture views and samplers (C++ AMP graphics).
 *
 * A texture is a 1-, 2- or 3-D Vulkan image of short-vector texels. Its element
 * type is an amp_type (int, uint, float, norm, unorm with 1 to 4 components,
 * double with 1 or 2) and bits_per_scalar_element says how each component is
 * stored:
 *
 *     int, uint      8, 16 or 32      float   16 or 32      double  64
 *     norm, unorm    8 or 16 (no default: it must be given)
 *
 * Everything else is an error naming the type and the bits. 3-component types,
 * which C++ AMP rejects, are supported: they are stored on a 4-channel image
 * (GLSL has no 3-channel storage-image formats, and few devices can sample or
 * store 3-channel images) whose fourth channel ampvk fills with zero and drops on
 * copies, so the host always sees tightly packed 3-component texels;
 * amp_texture_is_emulated() says so. A double is stored as two 32-bit channels.
 * What the device supports for each format is queried (sampling, storage, linear
 * filtering); an unsupported combination fails with the format and the device named.
 *
 * Normalized formats: reads decode as Vulkan defines (c / 255 for unorm8, and
 * max(c / 127, -1) for snorm8, so -128 and -127 both read -1.0; a device may
 * convert with limited precision). Kernel stores round to the nearest code, ties
 * away from zero (0.5 -> 128 in unorm8) on every device, as C++ AMP does.
 *
 * Host data is row-major with component 0 of an extent most significant (for a
 * 2-D texture: rows of columns), texels tightly packed at the stored size: a
 * unorm_4 texture of 8 bits has 4-byte texels, one of 16 bits 8-byte texels.
 *
 * Mip levels: a texture has mip_levels levels (0 means 1; AMP_MIP_FULL the full
 * chain: floor(log2(largest dim)) + 1). Level k has extent dims >> k (at least 1).
 * amp_texture_generate_mips fills levels 1.. from level 0 with a built-in 2x2
 * box-filter kernel (float, norm and unorm textures).
 *
 * In kernels (see kernel.h for parameter declarations):
 *   texture<T, N> t                  read t(idx), write t_set(idx, v) (any level-0 texel)
 *   texture_view<T, N> t             the same over one mip level (AMP_TEXTURE_VIEW)
 *   writeonly_texture_view<T, N> t   write only: t_set(idx, v)
 *   texture_view<const T, N> t       read only, over a range of levels: t(idx),
 *                                    t_get(idx, mip), t_sample(s, coord, lod) and,
 *                                    for rank 2, t_gather_red/green/blue/alpha(s, coord)
 *   sampler s                        an amp_sampler (AMP_SAMPLER)
 * t_extent is the extent of the bound level. Sampling coordinates are normalized
 * and in image order: coord.x runs along the columns (the last extent dimension),
 * as in C++ AMP and Direct3D; indices keep the host's order (idx[0] is the row).
 * Textures and arrays can be bound to the same kernel.
 *
 * Limits: at most 32 distinct image views per texture (combinations of first mip
 * level, level count and access); at most 8 combinations of storage-image formats
 * per kernel (each is a pipeline compiled on first use).
 *
 * Thread safety: as arrays (array.h).
 */
#ifndef AMPVK_TEXTURE_H
#define AMPVK_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ampvk/accelerator.h"
#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_texture amp_texture;
typedef struct amp_texture_view amp_texture_view;

/* mip_levels value asking for the full chain. */
#define AMP_MIP_FULL (-1)

/* Description of a texture. Zero means the default for each field. */
typedef struct amp_texture_desc {
    amp_extent extent;       /* rank 1..3, each dimension >= 1 and within the device's limits */
    amp_type type;           /* texel type */
    int bits_per_scalar_element; /* 0: 32 for int/uint/float, 64 for double; norm/unorm must say */
    int mip_levels;          /* 0: 1; AMP_MIP_FULL: the full chain */
    const void *data;        /* initial contents of level 0, or NULL (zeros) */
    size_t data_size;        /* bytes at data; must cover level 0 */
} amp_texture_desc;

/* Creates a texture on view (NULL: the default view). */
amp_texture *amp_texture_create(amp_accelerator_view *view, const amp_texture_desc *desc);
/* A deep copy of src (every level) on view (NULL: src's view). */
amp_texture *amp_texture_clone(amp_texture *src, amp_accelerator_view *view);
/* Waits for work that uses the texture and frees it; *texture becomes NULL. */
void amp_texture_destroy(amp_texture **texture);

amp_extent amp_texture_extent(const amp_texture *t);
amp_type amp_texture_type(const amp_texture *t);
int amp_texture_bits_per_scalar_element(const amp_texture *t);
int amp_texture_mip_levels(const amp_texture *t);
/* The extent of mip level (dims >> level, at least 1); rank 0 if level is out of range. */
amp_extent amp_texture_mip_extent(const amp_texture *t, int level);
/* Bytes of one texel on the host (components * bits / 8). */
size_t amp_texture_texel_size(const amp_texture *t);
/* Bytes of all levels on the host (C++ AMP data_length). */
size_t amp_texture_data_length(const amp_texture *t);
/* Bytes between rows / depth slices of level 0 on the host (0 where the rank has none). */
size_t amp_texture_row_pitch(const amp_texture *t);
size_t amp_texture_depth_pitch(const amp_texture *t);
amp_accelerator_view *amp_texture_accelerator_view(const amp_texture *t);
/* The name of the Vulkan format behind the texture ("VK_FORMAT_R8G8B8A8_UNORM"), and
 * whether 3 components are emulated on 4 channels. */
const char *amp_texture_format_name(const amp_texture *t);
bool amp_texture_is_emulated(const amp_texture *t);

/* A region of one mip level: offset and extent (extent rank 0: the whole level
 * from offset). */
typedef struct amp_texture_region {
    amp_index offset;
    amp_extent extent;
    int mip_level;
} amp_texture_region;

/* Copies size bytes of host data into a region (NULL: all of level 0). size must be
 * at least the region's bytes. A failed copy changes nothing. */
amp_status amp_texture_copy_from_host(amp_texture *t, const amp_texture_region *region, const void *src,
                                      size_t size);
amp_future *amp_texture_copy_from_host_async(amp_texture *t, const amp_texture_region *region,
                                             const void *src, size_t size);
/* Copies a region (NULL: all of level 0) into host memory of size bytes. */
amp_status amp_texture_copy_to_host(amp_texture *t, const amp_texture_region *region, void *dst, size_t size);
amp_future *amp_texture_copy_to_host_async(amp_texture *t, const amp_texture_region *region, void *dst,
                                           size_t size);
/* Makes ready, now, the staging memory that a copy of all of level 0 to the device
 * (to_device) and from it (to_host) will take, so that the first such copy waits
 * for no allocation: host memory the device can reach is slow to make (milliseconds
 * for a 4K image, and as long again to touch). It stays in the device's pool for the
 * copies that follow. For 3-channel textures on GPUs, whose texels the device widens
 * and packs, it also makes those kernels and the device memory a download packs into
 * (which the first download would otherwise wait for). For a program that knows
 * its images before it has their pixels: an image tool makes its textures from a
 * file's header and calls this while the pixels decode on another thread. */
amp_status amp_texture_reserve_transfers(amp_texture *t, bool to_device, bool to_host);
/* Copies a region of src into dst at dst_region's offset (its extent is ignored).
 * Types and bits must match; regions of one texture must not overlap. NULL
 * regions: all of level 0, then extents and mip counts must match too. The copy
 * is exact, every bit of every texel (NaN payloads, snorm's -128). On GPUs it runs
 * as a built-in kernel at the speed of memory, many times as fast as the queue's
 * image copy there. */
amp_status amp_texture_copy(amp_texture *src, const amp_texture_region *src_region, amp_texture *dst,
                            const amp_texture_region *dst_region);
amp_future *amp_texture_copy_async(amp_texture *src, const amp_texture_region *src_region, amp_texture *dst,
                                   const amp_texture_region *dst_region);
/* Fills mip levels 1.. from level 0 (float, norm and unorm textures). */
amp_status amp_texture_generate_mips(amp_texture *t);

/* A view of a texture for kernels. */
typedef enum amp_texture_access {
    AMP_TEXTURE_READ = 0,   /* read-only over mip levels [most_detailed_mip, +mip_levels) */
    AMP_TEXTURE_WRITE,      /* write-only, one mip level */
    AMP_TEXTURE_READ_WRITE  /* read-write, one mip level */
} amp_texture_access;

typedef struct amp_texture_view_desc {
    amp_texture_access access;
    int most_detailed_mip;   /* first level */
    int mip_levels;          /* levels of a read-only view; 0: all from the first */
} amp_texture_view_desc;

/* Creates a view of t (a handle to destroy; it keeps t alive). */
amp_texture_view *amp_texture_view_create(amp_texture *t, const amp_texture_view_desc *desc);
void amp_texture_view_destroy(amp_texture_view **view);
amp_texture *amp_texture_view_texture(const amp_texture_view *view);

/* Sampling (C++ AMP sampler). A value type: pass it by value to AMP_SAMPLER. */
typedef enum amp_filter { AMP_FILTER_LINEAR = 0, AMP_FILTER_POINT } amp_filter;
typedef enum amp_address {
    AMP_ADDRESS_CLAMP = 0, /* clamp to the edge texel */
    AMP_ADDRESS_WRAP,
    AMP_ADDRESS_MIRROR,
    AMP_ADDRESS_BORDER     /* border_color outside [0,1] */
} amp_address;
typedef struct amp_sampler {
    amp_filter filter;       /* default linear (C++ AMP's default) */
    amp_address address;     /* default clamp */
    float border_color[4];   /* default (0,0,0,0) */
} amp_sampler;

/* The VkImage behind a texture, wrapping an application's VkImage, and handing
 * images over with semaphores: ampvk/interop.h. */

#ifdef __cplusplus
}
#endif
#endif
