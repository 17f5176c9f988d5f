/*
 * ampvk/image.h: image files (PNG, Radiance HDR) and image comparison.
 *
 * Loading. amp_texture_load_png() reads a PNG into a 2-D unorm texture that keeps
 * the file's channels and depth:
 *
 *     file                        texture              bits_per_scalar_element
 *     gray                        AMP_UNORM            8 or 16 (as the file)
 *     gray + alpha                AMP_UNORM_2          8 or 16
 *     RGB                         AMP_UNORM_3          8 or 16
 *     RGBA                        AMP_UNORM_4          8 or 16
 *     palette                     AMP_UNORM_3, or AMP_UNORM_4 if it has a tRNS chunk; 8
 *     1-, 2-, 4-bit gray          AMP_UNORM, 8 (levels scaled to 0..255)
 *     gray or RGB with tRNS       one more channel: alpha 0 on the key color, else max
 *
 * Interlaced (Adam7) files are read too. The texture's extent is (height, width):
 * component 0 counts rows, as everywhere in ampvk, and row 0 is the top of the
 * image; texels are tightly packed (an RGB 8-bit texel is 3 bytes on the host).
 * amp_image_load_desc may convert: `channels` 1..4 converts as stb_image does
 * (gray to RGB replicates, RGB to gray is the luma (77 r + 150 g + 29 b) >> 8,
 * an added alpha is opaque, a dropped one is discarded); `bits` 8 or 16 converts
 * the depth exactly upward (v * 257) and rounds to nearest downward
 * ((v * 255 + 32767) / 65535); `mip_levels` asks for a mip chain, which
 * amp_texture_generate_mips() fills from the image.
 *
 * amp_texture_load_hdr() reads a Radiance .hdr (RGBE) file into a 32-bit float
 * texture, AMP_FLOAT_4 with alpha 1 by default (channels 3: AMP_FLOAT_3; 1: the
 * mean of R, G and B; 2: that mean and alpha 1). A texel is m * 2^(e - 136) per
 * channel, 0 where e is 0 (stb_image's decoding).
 *
 * Files are checked before any pixel is decoded: the PNG signature, the chunk
 * structure and every chunk's CRC, and the image size against the device's
 * largest 2-D image (from the header alone, so a corrupt header that claims a
 * huge image fails at once without allocating for it).
 *
 * Saving. amp_texture_save_png() writes a 2-D texture as a PNG of 8 or 16 bits
 * per channel (bits 0: 16 for 16-bit unorm and norm textures, 8 for every other
 * texture), with 1..4 components as gray, gray+alpha, RGB or RGBA:
 *   - unorm textures of 8 or 16 bits are written exactly; 8 -> 16 is v * 257,
 *     16 -> 8 rounds to nearest, (v * 255 + 32767) / 65535;
 *   - float (16 or 32 bits) and norm textures are clamped to [0, 1] (NaN -> 0)
 *     and scaled by 255 or 65535, rounded to nearest;
 *   - int, uint and double textures, and 1-D and 3-D textures, are rejected with
 *     AMP_ERROR_INVALID_ARGUMENT naming the type or rank.
 * Only mip level 0 is written. The file is written under a temporary name in the
 * target's directory and renamed over the target when it is complete, so a failed
 * save leaves no partial file and an existing file untouched. Images whose
 * uncompressed rows exceed 1 GiB are refused (AMP_ERROR_OUT_OF_BOUNDS).
 *
 * Comparing. amp_image_compare() copies two textures of the same extent, type and
 * bits to the host and compares mip level 0 component by component, for
 * golden-image tests. Differences are in the texture's stored units: steps of the
 * stored integer for unorm, norm, int and uint textures (an 8-bit unorm
 * difference of 1 is 1/255), values for float and double textures. The PSNR uses
 * the type's peak: 2^bits - 1 for unorm and uint, 2^(bits-1) - 1 for norm and
 * int, 1.0 for float and double. amp_image_compare_png() compares a texture with
 * a golden PNG: the texture is converted as amp_texture_save_png() would write it
 * at the golden file's depth (so a float kernel result compares with the PNG that
 * was saved from it) and the channel counts must match.
 *
 * Errors (the library never prints):
 *   AMP_ERROR_IO               a file that cannot be opened, read or written: the
 *                              path and the system's reason
 *   AMP_ERROR_FORMAT           an empty, truncated, corrupt or foreign file: the path
 *                              and the reason (the decoder's where it found it)
 *   AMP_ERROR_OUT_OF_BOUNDS    an image larger than the device allows:
 *                              "image 20000x300 is larger than the device's 16384x16384"
 *                              (sizes are width x height, as image tools print them)
 *   AMP_ERROR_INVALID_ARGUMENT NULL arguments, bad descriptions, unsupported textures,
 *                              textures that cannot be compared (both described)
 *
 * Thread safety: every function here may be called from several threads at once
 * (the decoder keeps no shared state); the textures follow texture.h's rules.
 */
#ifndef AMPVK_IMAGE_H
#define AMPVK_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How to load an image file. Zero (or a NULL desc) means "as the file". */
typedef struct amp_image_load_desc {
    int channels;   /* 0: as the file; 1..4: converted to that many (see the overview) */
    int bits;       /* 0: as the file; PNG: 8 or 16; HDR: 32 only */
    int mip_levels; /* 0: 1; n or AMP_MIP_FULL: that many levels, generated from level 0 */
} amp_image_load_desc;

/* Loads a PNG into a new 2-D unorm texture on view (NULL: the default view). Returns
 * NULL with AMP_ERROR_IO, AMP_ERROR_FORMAT, AMP_ERROR_OUT_OF_BOUNDS or
 * AMP_ERROR_INVALID_ARGUMENT (see the overview). The caller destroys the texture. */
amp_texture *amp_texture_load_png(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc);

/* Loads a Radiance .hdr file into a new 2-D 32-bit float texture (AMP_FLOAT_4 unless
 * desc->channels says otherwise). Errors as amp_texture_load_png. */
amp_texture *amp_texture_load_hdr(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc);

/* Writes mip level 0 of a 2-D texture to path as a PNG of bits (0, 8 or 16) per
 * channel, replacing the file only when the whole image was written. Waits for
 * the texture's pending writes. */
amp_status amp_texture_save_png(amp_texture *t, const char *path, int bits);

/* How to compare. Zero means exact. */
typedef struct amp_image_compare_desc {
    double tolerance; /* largest |a - b| allowed per component, in the texture's units; 0: exact */
} amp_image_compare_desc;

/* What a comparison found. */
typedef struct amp_image_compare_result {
    bool equal;                     /* no component differs by more than the tolerance */
    double max_abs_diff;            /* largest |a - b| over all components */
    double channel_max_abs_diff[4]; /* the same per channel (0 beyond the component count) */
    double mean_abs_diff;           /* mean |a - b| over all components of all texels */
    double psnr;                    /* 10 log10(peak^2 / mean squared difference), dB;
                                       +INFINITY when identical */
    size_t texels;                  /* texels compared */
    size_t differing_texels;        /* texels with a component beyond the tolerance */
    amp_index first_difference;     /* the first of them in row-major order; rank 0 if none */
} amp_image_compare_result;

/* Compares mip level 0 of a and b (same extent, type and bits, else
 * AMP_ERROR_INVALID_ARGUMENT describing both) on the host. desc may be NULL. Returns
 * AMP_OK whether or not they are equal; out->equal says which. */
amp_status amp_image_compare(amp_texture *a, amp_texture *b, const amp_image_compare_desc *desc,
                             amp_image_compare_result *out);

/* Compares mip level 0 of t with the golden PNG at golden_path, t converted as
 * amp_texture_save_png would write it at the golden file's depth. The extent and
 * channel count must match (AMP_ERROR_INVALID_ARGUMENT). Differences are in steps
 * of the golden file's depth. Load errors as amp_texture_load_png. */
amp_status amp_image_compare_png(amp_texture *t, const char *golden_path, const amp_image_compare_desc *desc,
                                 amp_image_compare_result *out);

#ifdef __cplusplus
}
#endif
#endif
