/* The image layer (src/image): image files (image_file.c), the PNG decoder
 * (png_read.c: libdeflate, libspng), the PNG encoder (png_write.c) and the stb_image wrappers
 * (image_stb.c, Radiance HDR). It uses the public API of the layers below
 * (textures, mips), src/vulkan for device limits and the image kernels' layout, and
 * src/data for a texture's transforms on the device (png_rows.c). Not installed. */
#ifndef AMPVK_IMAGE_INTERNAL_H
#define AMPVK_IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ampvk/image.h"
#include "ampvk/kernel.h"
#include "vulkan/gpu.h"

/* ---- image_stb.c: stb_image and stb_image_write, compiled privately ---- */
/* The header of a Radiance HDR image in memory: 0 and a reason on failure. */
AMP_HIDDEN int amp__stb_info(const unsigned char *data, size_t size, int *w, int *h, int *channels, int *is16);
/* Decodes a Radiance HDR in memory to floats with `channels` (1..4) per texel. A file
 * that ends before its pixels do fails with the reason "truncated". */
AMP_HIDDEN float *amp__stb_load_hdr(const unsigned char *data, size_t size, int channels, int *w, int *h);
AMP_HIDDEN bool amp__stb_is_hdr(const unsigned char *data, size_t size);
AMP_HIDDEN void amp__stb_free(void *pixels);
/* Decodes a BMP, TGA or PSD in memory to `channels` (0: the file's, in
 * *file_channels) of 8 bits, or 16 bits where the file has them (*is16: a 16-bit
 * PSD). A file that ends before its pixels do fails with the reason "truncated";
 * NULL and amp__stb_reason() on failure. */
AMP_HIDDEN void *amp__stb_load(const unsigned char *data, size_t size, int channels, int *w, int *h,
                               int *file_channels, bool *is16);
/* Encodes w x h texels of `channels` 8-bit samples (floats for AMP_IMAGE_FORMAT_HDR),
 * tightly packed, as a BMP, TGA or HDR file in memory;
 * malloc'ed, NULL when out of memory. */
AMP_HIDDEN unsigned char *amp__stb_write(int format, int w, int h, int channels, const void *pixels,
                                         size_t *out_size);
/* The calling thread's reason for the last stb failure. */
AMP_HIDDEN const char *amp__stb_reason(void);

/* A decoded image on the host: 8-bit, 16-bit (host order) or float samples, rows
 * of width texels of channels samples, top row first. */
typedef struct amp__host_image {
    int width, height, channels, bits;
    void *pixels;
    bool stb; /* pixels belong to stb (free with amp__stb_free), else malloc'ed */
} amp__host_image;

/* ---- samples.c: conversions of samples (ampvk/image.h's rules) ---- */
/* n samples from `from` bits to `to` bits (8, 16 or 32): integers exactly upward
 * (v * 257), rounded downward; floats clamped to 0..1 and scaled. */
AMP_HIDDEN void amp__convert_samples(const void *src, int from, void *dst, int to, size_t n);
/* A float clamped to 0..1 (NaN: 0) as an 8- or 16-bit integer, rounded. */
AMP_HIDDEN uint32_t amp__float_to_unorm(double x, int bits);
/* texels of `from` channels (gray, gray+alpha, RGB, RGBA) at bits 8, 16 or 32 to `to`
 * channels: gray replicated, color's gray the luma (77 r + 150 g + 29 b) >> 8, alpha
 * kept or opaque. */
AMP_HIDDEN void amp__convert_channels(const void *px, size_t texels, int from, int to, int bits, void *out);
/* Converts a decoded image in place to `channels` and `bits` (0: as it is). Out of
 * memory: its pixels freed, AMP_ERROR_OUT_OF_MEMORY naming path. */
AMP_HIDDEN amp_status amp__host_convert(const char *who, const char *path, amp__host_image *im, int channels,
                                        int bits);
/* im's samples tightly packed at bits (8, 16, 32): im's own pixels, or a malloc'ed
 * converted copy left in *owned (free it). NULL when out of memory. */
AMP_HIDDEN const void *amp__image_packed(const amp_image *im, int bits, void **owned);
/* *px, a w x h image of n-byte texels decoded from path, turned as orientation o says
 * (1..8, EXIF's and TIFF's numbering; 5..8 trade width and height): replaced by a new
 * buffer of the turned size (1: left as it is). Out of memory: *px freed and NULL,
 * AMP_ERROR_OUT_OF_MEMORY naming path. */
AMP_HIDDEN amp_status amp__orient(const char *who, const char *path, uint8_t **px, int w, int h, size_t n, int o);

/* ---- file formats: one codec each, in image_file.c's table ---- */
/* A file being decoded: who asks and the file's name (for messages), its bytes, and
 * the caller's load description (never NULL; zeros: the file as it is). */
typedef struct amp__file {
    const char *who, *path;
    const unsigned char *data;
    size_t size;
    const amp_image_load_desc *desc;
} amp__file;

/* The depths a format writes, as a mask of AMP__BITS(8), AMP__BITS(16), AMP__BITS(32). */
#define AMP__BITS(b) (1u << ((b) / 16))

/* A file format. The table (image_file.c) picks one by content to load and by name or
 * format to save; the checks every file gets (size limits, a header that claims more
 * pixels than the file can hold) and the conversion to the channels and depth asked
 * for are the table's, not the codec's. */
typedef struct amp__codec {
    amp_image_format format;
    const char *name;       /* "jpeg", as amp_image_format_name gives it */
    const char *title;      /* "JPEG", in messages */
    const char *extensions; /* the file names of this format, "jpg jpeg" (the first is written) */
    uint32_t densest;       /* the most pixels a byte of a file can hold, in its densest encoding */
    unsigned save_bits;     /* the depths written (AMP__BITS); 16 is half floats where half is set */
    bool half;
    /* Whether n bytes at d start as this format's files do. */
    bool (*sniff)(const unsigned char *d, size_t n);
    /* Reads and checks the header: *head gets the width, height, channels and bits (8,
     * 16: integers; 32: floats) of the image as decoded, *state what decode needs
     * (or NULL). AMP_ERROR_FORMAT naming f->path and the reason. */
    amp_status (*open)(const amp__file *f, amp_image *head, void **state);
    /* Decodes the pixels after the size checks, ideally to `channels` (1..4; any other
     * count is converted after), at any depth (converted after). Nothing is left
     * allocated on failure. */
    amp_status (*decode)(const amp__file *f, void *state, const amp_image *head, int channels,
                         amp__host_image *out);
    /* Frees what open made (state may be NULL). */
    void (*close)(void *state);
    /* Encodes img (checked: 1..4 channels, any depth) at `bits` (one of save_bits) into
     * a malloc'ed file in memory. NULL for read-only formats. */
    amp_status (*encode)(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                         unsigned char **data, size_t *size);
} amp__codec;

AMP_HIDDEN extern const amp__codec amp__codec_png, amp__codec_jpeg, amp__codec_exr, amp__codec_webp,
    amp__codec_tiff, amp__codec_hdr, amp__codec_bmp, amp__codec_tga, amp__codec_psd;

/* ---- image_file.c: shared with compare.c ---- */
/* Reads a whole file: AMP_ERROR_IO if it cannot be read, AMP_ERROR_FORMAT if empty. */
AMP_HIDDEN amp_status amp__image_read_file(const char *who, const char *path, unsigned char **data, size_t *size);
/* Writes a file whole through a temporary name renamed over path. */
AMP_HIDDEN amp_status amp__image_write_file(const char *who, const char *path, const void *data, size_t size);
/* Decodes a file in memory of format `want` (AUTO: any) into *out. With view not
 * NULL (a texture load), its size is checked against *view's device (the default
 * view if *view is NULL), else against the host limits. *head (if not NULL) gets the
 * header: width, height, channels, bits and format as decoded; out NULL: the header
 * only, nothing decoded. */
AMP_HIDDEN amp_status amp__image_decode(const char *who, const char *path, const unsigned char *data, size_t size,
                                        amp_image_format want, const amp_image_load_desc *desc,
                                        amp_accelerator_view **view, amp_image *head, struct amp__host_image *out);
/* desc's view (else the default one), where a comparison's metric runs, and its
 * accelerator's properties, for w x h images whose largest buffer holds `per_texel`
 * words a texel (kernels index it with ints); NULL with the error set. */
AMP_HIDDEN amp_accelerator_view *amp__metric_view(const char *who, const char *metric,
                                                  const amp_image_compare_desc *desc, int w, int h, size_t per_texel,
                                                  amp_accelerator_info *info);
/* A kernel of a metric made as amp_kernel_create(view, desc) makes it, kept by the
 * view's device until it closes (the caller never destroys it); NULL with the error
 * set. */
AMP_HIDDEN amp_kernel *amp__metric_kernel(amp_accelerator_view *view, const amp_kernel_desc *desc);
/* An image's pixels as RGBA8 words (pixelmatch's input): gray spread over R, G and B,
 * no alpha 255; deeper samples converted as amp_image_save converts them; zero words
 * after them up to `words`. The image's own pixels where they are that already, else a
 * malloc'ed copy left in *owned. NULL when out of memory. */
AMP_HIDDEN const uint32_t *amp__rgba8_words(const amp_image *im, size_t words, uint32_t **owned);
/* The FLIP error of each pixel of two images of the same size and channels (src/image/
 * flip.c) into error, and the HDR exposures into r. */
AMP_HIDDEN amp_status amp__flip(const char *who, const amp_image *expected, const amp_image *actual,
                                const amp_image_compare_desc *desc, float *error, amp_image_compare_result *r);
/* FLIP's pooled values of the scores of the n texels not ignored: the histogram and
 * the weighted median and quartiles into r. */
AMP_HIDDEN amp_status amp__flip_pool(const char *who, const float *score, const uint8_t *ignored, size_t n,
                                     amp_image_compare_result *r);
/* Component i of host texel data of a scalar family and size, as a double. */
AMP_HIDDEN double amp__texel_component(const void *p, amp_scalar s, int bits, size_t i);
/* "unorm_4 of 8 bits, extent [2, 3]" */
AMP_HIDDEN void amp__texture_describe(const amp_texture *t, char *buf, size_t n);
/* Level 0 of t on the host, malloc'ed (waits). */
AMP_HIDDEN amp_status amp__texture_host(const char *who, amp_texture *t, void **out);
/* Level 0 of a 2-D unorm/norm/float texture as an image of bits (0: 16 for 16-bit
 * unorm/norm, else 8; 8, 16; 32: floats), converted as amp_texture_save_png does. */
AMP_HIDDEN amp_status amp__texture_samples(const char *who, amp_texture *t, int bits, amp_image *out);

/* ---- png_read.c: PNG files (libdeflate; libspng for the header, palettes, Adam7) ---- */
/* What a PNG decodes to, from its header: channels as the file has them (palette 3,
 * or 4 with tRNS; gray or RGB with tRNS gain alpha), bits 8 (1-, 2-, 4- and 8-bit
 * files) or 16. */
typedef struct amp__png_info {
    uint32_t width, height;
    int channels, bits;
    bool gray; /* a gray or gray+alpha file */
} amp__png_info;
/* A PNG being read: its structure checked, its header read. */
typedef struct amp__png_reader amp__png_reader;
/* Checks a PNG in memory (signature; every chunk's frame and CRC; IHDR first, an
 * IDAT, an IEND; then libspng's checks of the header and the chunks before the image
 * data) and reads its header into *info (if not NULL). data must outlive the reader.
 * NULL and AMP_ERROR_FORMAT naming who, path and the reason. */
AMP_HIDDEN amp__png_reader *amp__png_open(const char *who, const char *path, const unsigned char *data, size_t size,
                                          amp__png_info *info);
/* Decodes the whole image at its own depth to `channels` (0: the file's; 1..4
 * converted as the overview of ampvk/image.h says), checking the zlib stream (it must
 * inflate to exactly the image's filtered rows), its Adler-32, every row's filter
 * type, every palette index and the chunks after the image data. On failure nothing
 * is allocated; out->pixels is malloc'ed. */
AMP_HIDDEN amp_status amp__png_read(amp__png_reader *r, int channels, amp__host_image *out);
AMP_HIDDEN void amp__png_close(amp__png_reader *r);

/* ---- png_write.c: the PNG encoder ---- */
/* CRC-32 (ISO 3309, as PNG uses it) of size bytes, continuing from crc (0 to start). */
AMP_HIDDEN uint32_t amp__crc32(uint32_t crc, const unsigned char *data, size_t size);
/* Encodes an image of 8- or 16-bit samples (16-bit in host order), `channels` (1..4)
 * per texel, rows of width texels, top row first, as a PNG in memory. `level` 0 is
 * the default, png_write.c's own Huffman and run-length coder (for photographs:
 * faster than OpenCV's default and smaller); 1 (fastest) to 12 (smallest) are
 * libdeflate's levels (for art). Returns AMP_OK with a malloc'ed *png of *png_size
 * bytes, or a status with a message (AMP_ERROR_INVALID_ARGUMENT: level out of range). */
/* A PNG file from its filtered rows, made on the device (stream: stream_bytes bytes,
 * each row a filter type and the row so filtered) and each deflate block's 257 counts
 * (png_rows.comp; blocks of `block` bytes, a multiple of 1024 up to 65535): coded as
 * amp__png_encode codes, blocks with few runs as literals from their counts. */
AMP_HIDDEN amp_status amp__png_encode_filtered(const uint8_t *stream, size_t stream_bytes, const uint32_t *counts,
                                               size_t block, int width, int height, int channels, int bits,
                                               unsigned char **png, size_t *png_size);
/* For tests: CPU devices move the metrics' data through views of host memory, as GPUs
 * do, not through arrays the host fills in place (compare.c). */
AMP_HIDDEN void amp__compare_force_views(bool on);
AMP_HIDDEN amp_status amp__png_encode(const void *samples, int width, int height, int channels, int bits, int level,
                                      unsigned char **png, size_t *png_size);

/* ---- png_rows.c: PNG's row filtering on the device (png_rows.comp) ---- */
/* The layout of png_rows.comp's buffer for a 2-D image of width x height texels of
 * `channels` channels of channel_bytes (1 or 2) each, blocks of `block` bytes (a
 * multiple of 1024): the filtered stream's bytes (from 0), the rows' types (from
 * word types_at) and the blocks' 257 counts each (from word counts_at, `blocks`). */
typedef struct amp__png_layout {
    uint32_t width, height, channels, channel_bytes, block;
    uint64_t row_bytes, stream_bytes, types_at, counts_at, blocks, buffer_bytes;
} amp__png_layout;
/* Whether amp__png_rows_download can take t: a 2-D texture of 1-4 channels of 8 or 16
 * bits whose copies run as shaders (GPUs; CPU devices when forced, for the tests),
 * and whose buffer fits a storage buffer. */
AMP_HIDDEN bool amp__png_rows_possible(const amp_texture *t, uint32_t block);
/* The layout of png_rows.comp's buffer for t's level 0 in blocks of `block` bytes:
 * where amp__png_rows_download's results lie. */
AMP_HIDDEN amp__png_layout amp__png_rows_layout(const amp_texture *t, uint32_t block);
/* Records PNG's row filtering of t's level 0 on the device (blocks of `block` bytes),
 * submits it with the download of its results, and returns a future whose wait hands
 * them to unpack (with ctx_size bytes of ctx): the filtered stream (amp__png_layout's
 * stream_bytes, padded to 4) and then each block's 257 counts. NULL with the error,
 * which names `who`. */
AMP_HIDDEN amp_future *amp__png_rows_download(const char *who, amp_texture *t, uint32_t block,
                                              amp__unpack_fn unpack, const void *ctx, size_t ctx_size);

#endif
