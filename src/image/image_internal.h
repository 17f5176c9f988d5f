/* The image layer (src/image): image files (image_file.c), the PNG encoder
 * (png_write.c) and the stb_image wrappers (image_stb.c). It uses the public API
 * of the layers below (textures, mips) and, for device limits, src/vulkan.
 * Not installed. */
#ifndef AMPVK_IMAGE_INTERNAL_H
#define AMPVK_IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vulkan/gpu.h"

/* ---- image_stb.c: stb_image and stb_image_write, compiled privately ---- */
/* The header of an image in memory (PNG or HDR): 0 and a reason on failure. */
AMP_HIDDEN int amp__stb_info(const unsigned char *data, size_t size, int *w, int *h, int *channels, int *is16);
/* Decodes a PNG in memory to 8-bit (bits16 false) or 16-bit samples with `channels`
 * per texel (0: as the file). Free with amp__stb_free. NULL and a reason on failure. */
AMP_HIDDEN void *amp__stb_load(const unsigned char *data, size_t size, bool bits16, int channels, int *w, int *h);
/* Decodes a Radiance HDR in memory to floats with `channels` (1..4) per texel. A file
 * that ends before its pixels do fails with the reason "truncated". */
AMP_HIDDEN float *amp__stb_load_hdr(const unsigned char *data, size_t size, int channels, int *w, int *h);
AMP_HIDDEN bool amp__stb_is_hdr(const unsigned char *data, size_t size);
AMP_HIDDEN void amp__stb_free(void *pixels);
/* The calling thread's reason for the last stb failure. */
AMP_HIDDEN const char *amp__stb_reason(void);
/* zlib-compresses size bytes (size <= INT_MAX); malloc'ed result in *out_size, NULL
 * when out of memory. */
AMP_HIDDEN unsigned char *amp__zlib_compress(const unsigned char *data, size_t size, size_t *out_size);

/* ---- png_write.c ---- */
/* CRC-32 (ISO 3309, as PNG uses it) of size bytes, continuing from crc (0 to start). */
AMP_HIDDEN uint32_t amp__crc32(uint32_t crc, const unsigned char *data, size_t size);
/* Encodes an image of 8- or 16-bit samples (16-bit in host order), `channels` (1..4)
 * per texel, rows of width texels, top row first, as a PNG in memory. Returns AMP_OK
 * with a malloc'ed *png of *png_size bytes, or a status with a message. */
AMP_HIDDEN amp_status amp__png_encode(const void *samples, int width, int height, int channels, int bits,
                                      unsigned char **png, size_t *png_size);

#endif
