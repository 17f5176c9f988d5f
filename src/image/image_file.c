/* Image files (ampvk/image.h): host images, loading any supported format (PNG through
 * png_read.c and libspng; Radiance HDR, JPEG, BMP, TGA and PSD through stb_image in
 * image_stb.c), saving (PNG through png_write.c; JPEG, BMP, TGA and HDR through
 * stb_image_write), and textures made from and written to files. Comparison and
 * golden images are in compare.c.
 *
 * A file is read whole into memory first and its format found from its content;
 * the image size in its header is checked against the host limit (or the device's
 * largest 2-D image, for textures) before any pixel is decoded. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ampvk/image.h"
#include "data/data.h"
#include "image/image_internal.h"

/* The host limits of amp_image_load: width and height, and bytes of samples. */
#define MAX_SIDE 65535u
#define MAX_SAMPLE_BYTES ((uint64_t)1 << 30)

/* ---- files ---- */

static const char *errno_text(int err, char *buf, size_t n)
{
    return strerror_r(err, buf, n); /* the GNU strerror_r (_GNU_SOURCE) */
}

amp_status amp__image_read_file(const char *who, const char *path, unsigned char **data, size_t *size)
{
    char eb[128], *buf;
    const char *step;
    size_t n;
    int err = amp__file_read(path, &buf, &n, &step);
    if (err == ENOMEM) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory reading %s", who, path);
    if (err) return amp__fail(AMP_ERROR_IO, "%s: cannot %s %s: %s", who, step, path, errno_text(err, eb, sizeof eb));
    if (n == 0) {
        free(buf);
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is empty", who, path);
    }
    *data = (unsigned char *)buf;
    *size = n;
    return AMP_OK;
}

/* Writes size bytes to path through a temporary file in the same directory, renamed
 * over path once complete: readers see the old file or the new one, never a part.
 * Not flushed to disk first (as other image tools, so a folder of images is not
 * a disk flush per file). */
amp_status amp__image_write_file(const char *who, const char *path, const void *data, size_t size)
{
    char eb[128];
    const char *step;
    int err = amp__file_write(path, data, size, false, &step);
    if (err == ENOMEM) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    return err ? amp__fail(AMP_ERROR_IO, "%s: cannot %s %s: %s", who, step, path, errno_text(err, eb, sizeof eb))
               : AMP_OK;
}

/* ---- formats ---- */

static const char *const format_names[] = {"auto", "png", "jpeg", "bmp", "tga", "psd", "hdr"};

const char *amp_image_format_name(amp_image_format f)
{
    return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : NULL;
}

amp_image_format amp_image_format_from_path(const char *path)
{
    static const struct {
        const char *ext;
        amp_image_format f;
    } exts[] = {{"png", AMP_IMAGE_FORMAT_PNG}, {"jpg", AMP_IMAGE_FORMAT_JPEG}, {"jpeg", AMP_IMAGE_FORMAT_JPEG},
                {"bmp", AMP_IMAGE_FORMAT_BMP}, {"tga", AMP_IMAGE_FORMAT_TGA},  {"psd", AMP_IMAGE_FORMAT_PSD},
                {"hdr", AMP_IMAGE_FORMAT_HDR}};
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/')) return AMP_IMAGE_FORMAT_AUTO;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (strcasecmp(dot + 1, exts[i].ext) == 0) return exts[i].f;
    return AMP_IMAGE_FORMAT_AUTO;
}

/* The format of a file in memory, from its first bytes as the decoders find them
 * (TGA, which has no signature, from stb_image's test of its header); AUTO when none
 * matches. */
static amp_image_format sniff(const unsigned char *d, size_t n)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (n >= 8 && memcmp(d, png, 8) == 0) return AMP_IMAGE_FORMAT_PNG;
    if (n >= 2 && d[0] == 0xFF) { /* stb_image's JPEG start: 0xFF fill bytes, then SOI (0xD8) */
        size_t i = 1;
        while (i < n && d[i] == 0xFF) i++;
        if (i < n && d[i] == 0xD8) return AMP_IMAGE_FORMAT_JPEG;
    }
    if (n >= 2 && d[0] == 'B' && d[1] == 'M') return AMP_IMAGE_FORMAT_BMP;
    if (n >= 4 && memcmp(d, "8BPS", 4) == 0) return AMP_IMAGE_FORMAT_PSD;
    if (amp__stb_is_hdr(d, n)) return AMP_IMAGE_FORMAT_HDR;
    int w, h, c, is16;
    if (amp__stb_info(d, n, &w, &h, &c, &is16)) return AMP_IMAGE_FORMAT_TGA;
    return AMP_IMAGE_FORMAT_AUTO;
}

/* ---- host images ---- */

static size_t sample_bytes(int bits) { return (size_t)bits / 8; }

static size_t packed_row(const amp_image *im) { return (size_t)im->width * (size_t)im->channels * sample_bytes(im->bits); }

static amp_status check_image(const char *who, const char *what, const amp_image *im)
{
    if (!im) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL %s", who, what);
    if (im->width < 1 || im->height < 1 || im->channels < 1 || im->channels > 4 ||
        (im->bits != 8 && im->bits != 16 && im->bits != 32))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: %s is %dx%d with %d channels of %d bits; images need width and height >= 1, 1..4 "
                         "channels and 8, 16 or 32 bits",
                         who, what, im->width, im->height, im->channels, im->bits);
    if (!im->pixels) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %s has no pixels", who, what);
    if (im->stride < packed_row(im))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %s has a stride of %zu bytes, less than its %zu-byte rows",
                         who, what, im->stride, packed_row(im));
    return AMP_OK;
}

amp_status amp_image_create(int width, int height, int channels, int bits, amp_image *out)
{
    const char *who = "amp_image_create";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    amp_image im = {width, height, channels, bits, 0, (void *)1, AMP_IMAGE_FORMAT_AUTO};
    im.stride = width > 0 && channels > 0 && bits > 0 ? packed_row(&im) : 0;
    amp_status s = check_image(who, "the image", &im);
    if (s != AMP_OK) return s;
    if ((uint64_t)im.stride * (uint64_t)height > SIZE_MAX / 2)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: a %dx%d image is too large", who, width, height);
    if (!(im.pixels = calloc((size_t)height, im.stride)))
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for a %dx%d image of %zu bytes", who, width,
                         height, im.stride * (size_t)height);
    *out = im;
    return AMP_OK;
}

void amp_image_free(amp_image *img)
{
    if (!img) return;
    free(img->pixels);
    *img = (amp_image){0};
}

static uint16_t to8(uint32_t v) { return (uint16_t)((v * 255 + 32767) / 65535); }

/* Sample i of a row of `bits` samples as a value of the target depth: integers
 * exactly or rounded (8 <-> 16 as image.h says), floats clamped and scaled. */
static double sample_as_float(const void *row, int bits, size_t i)
{
    return bits == 8 ? ((const uint8_t *)row)[i] / 255.0
           : bits == 16 ? ((const uint16_t *)row)[i] / 65535.0
                        : (double)((const float *)row)[i];
}

static uint32_t float_to_int(double x, int bits)
{
    x = x > 0 ? (x < 1 ? x : 1) : 0; /* NaN -> 0 */
    return (uint32_t)(x * (bits == 16 ? 65535.0 : 255.0) + 0.5);
}

/* Converts n samples from `from` bits to `to` bits (8, 16 or 32). */
static void convert_samples(const void *src, int from, void *dst, int to, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (to == 32) {
            ((float *)dst)[i] = (float)sample_as_float(src, from, i);
            continue;
        }
        if (from == 32)
            v = float_to_int(((const float *)src)[i], to);
        else if (from == to)
            v = from == 8 ? ((const uint8_t *)src)[i] : ((const uint16_t *)src)[i];
        else if (to == 16)
            v = ((const uint8_t *)src)[i] * 257u;
        else
            v = to8(((const uint16_t *)src)[i]);
        if (to == 16)
            ((uint16_t *)dst)[i] = (uint16_t)v;
        else
            ((uint8_t *)dst)[i] = (uint8_t)v;
    }
}

/* im's samples tightly packed at `bits`: im's own pixels when they already are, else
 * a malloc'ed copy in *owned. NULL when out of memory. */
const void *amp__image_packed(const amp_image *im, int bits, void **owned)
{
    *owned = NULL;
    size_t row = packed_row(im);
    if (bits == im->bits && im->stride == row) return im->pixels;
    size_t n = (size_t)im->width * (size_t)im->channels, out_row = n * sample_bytes(bits);
    unsigned char *p = malloc(out_row * (size_t)im->height);
    if (!p) return NULL;
    for (int y = 0; y < im->height; y++) {
        const unsigned char *s = (const unsigned char *)im->pixels + (size_t)y * im->stride;
        if (bits == im->bits)
            memcpy(p + (size_t)y * out_row, s, out_row);
        else
            convert_samples(s, im->bits, p + (size_t)y * out_row, bits, n);
    }
    *owned = p;
    return p;
}

/* Converts a decoded host image to `bits` in place (0 or the same: nothing). */
static amp_status convert_bits(const char *who, const char *path, amp__host_image *im, int bits)
{
    if (!bits || bits == im->bits) return AMP_OK;
    size_t count = (size_t)im->width * (size_t)im->height * (size_t)im->channels;
    void *conv = malloc(count * sample_bytes(bits));
    if (!conv) {
        free(im->pixels);
        im->pixels = NULL;
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %s", who, path);
    }
    convert_samples(im->pixels, im->bits, conv, bits, count);
    free(im->pixels); /* stb's pixels are malloc'ed too (STBI_FREE is free) */
    im->pixels = conv;
    im->bits = bits;
    return AMP_OK;
}

/* ---- decoding ---- */

static amp_status check_load_desc(const char *who, const char *path, const amp_image_load_desc *desc)
{
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    if (!desc) return AMP_OK;
    if (desc->channels < 0 || desc->channels > 4)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: channels %d is outside 0..4", who, desc->channels);
    if (desc->bits != 0 && desc->bits != 8 && desc->bits != 16 && desc->bits != 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8, 16 or 32", who, desc->bits);
    return AMP_OK;
}

/* The size check before decoding: the device's largest 2-D image when loading a
 * texture (view not NULL; *view found if NULL), else the host limits. */
static amp_status check_size(const char *who, const char *path, amp_accelerator_view **view, uint32_t w,
                             uint32_t h, int channels, int bits)
{
    if (view) {
        if (!*view && !(*view = amp_default_view())) return amp_last_status();
        amp__device *d = (*view)->dev;
        uint32_t max = d->props.limits.maxImageDimension2D;
        if (w > max || h > max)
            return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is larger than the device's %ux%u (\"%s\")",
                             who, path, w, h, max, max, d->props.deviceName);
    }
    if (w > MAX_SIDE || h > MAX_SIDE)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is larger than ampvk's %ux%u", who, path, w, h,
                         MAX_SIDE, MAX_SIDE);
    uint64_t bytes = (uint64_t)w * h * (uint64_t)channels * (uint64_t)(bits / 8);
    if (bytes > MAX_SAMPLE_BYTES)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS,
                         "%s: %s: image %ux%u of %d channels at %d bits is %llu bytes; ampvk reads at most %llu", who,
                         path, w, h, channels, bits, (unsigned long long)bytes, (unsigned long long)MAX_SAMPLE_BYTES);
    return AMP_OK;
}

/* The most pixels a byte of a file can hold in each format's densest encoding (indexed
 * by amp_image_format): a header that claims more than the file's length can hold is
 * refused before anything is allocated for it. */
static const uint32_t densest[] = {
    [AMP_IMAGE_FORMAT_PNG] = 8 * 1032, /* 1-bit samples; deflate's 258-byte match in 2 bits */
    [AMP_IMAGE_FORMAT_JPEG] = 8 * 64,  /* an 8 x 8 block in 1 bit (a Huffman DC scan's shortest code) */
    [AMP_IMAGE_FORMAT_BMP] = 8,        /* 1-bit rows, uncompressed (stb_image reads no RLE) */
    [AMP_IMAGE_FORMAT_TGA] = 64,       /* an RLE packet of 128 one-byte pixels in 2 bytes */
    [AMP_IMAGE_FORMAT_PSD] = 64,       /* PackBits: 128 bytes of a channel in 2 */
    [AMP_IMAGE_FORMAT_HDR] = 16,       /* an RLE run of 127 samples in 2 bytes, 4 a pixel */
};

/* What a file of size bytes says in its header, checked against the limits and the
 * file's length before anything is decoded, into *head if not NULL: the width,
 * height, channels and bits the decode gives. */
static amp_status header(const char *who, const char *path, amp_accelerator_view **view, amp_image_format f,
                         size_t size, int w, int h, int channels, int bits, amp_image *head)
{
    amp_status s = check_size(who, path, view, (uint32_t)w, (uint32_t)h, channels, bits);
    uint64_t pixels = (uint64_t)(uint32_t)w * (uint32_t)h, most = (uint64_t)size * densest[f];
    if (s == AMP_OK && pixels > most)
        return amp__fail(AMP_ERROR_FORMAT,
                         "%s: %s is truncated: its header claims %ux%u pixels but a %s file of %zu bytes holds %llu "
                         "at most", who, path, (uint32_t)w, (uint32_t)h, amp_image_format_name(f), size,
                         (unsigned long long)most);
    if (s == AMP_OK && head) *head = (amp_image){w, h, channels, bits, 0, NULL, f};
    return s;
}

static amp_status decode_png(const char *who, const char *path, const unsigned char *data, size_t size,
                             const amp_image_load_desc *desc, amp_accelerator_view **view, amp_image *head,
                             amp__host_image *out)
{
    amp__png_info info;
    int channels = desc ? desc->channels : 0, bits = desc ? desc->bits : 0;
    if (bits == 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits 32 is not 0, 8 or 16 for %s, a PNG file", who, path);
    amp__png_reader *r = amp__png_open(who, path, data, size, &info);
    if (!r) return amp_last_status();
    amp_status s = header(who, path, view, AMP_IMAGE_FORMAT_PNG, size, (int)info.width, (int)info.height,
                          channels ? channels : info.channels, bits ? bits : info.bits, head);
    if (s == AMP_OK && out) s = amp__png_read(r, channels, out);
    amp__png_close(r);
    return s == AMP_OK && out ? convert_bits(who, path, out, bits) : s;
}

static amp_status decode_hdr(const char *who, const char *path, const unsigned char *data, size_t size,
                             const amp_image_load_desc *desc, amp_accelerator_view **view, amp_image *head,
                             amp__host_image *out)
{
    int w, h, comp, is16, channels = desc && desc->channels ? desc->channels : 4;
    if (desc && desc->bits != 0 && desc->bits != 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0 or 32 for %s, a Radiance HDR file",
                         who, desc->bits, path);
    if (!amp__stb_info(data, size, &w, &h, &comp, &is16))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its header lacks a valid FORMAT or resolution line",
                         who, path);
    amp_status s = header(who, path, view, AMP_IMAGE_FORMAT_HDR, size, w, h, channels, 32, head);
    if (s != AMP_OK || !out) return s;
    float *px = amp__stb_load_hdr(data, size, channels, &w, &h);
    if (!px) {
        const char *why = amp__stb_reason();
        return strcmp(why, "truncated") == 0
                   ? amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: it ends before its pixels do", who, path)
                   : amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s", who, path, why);
    }
    *out = (amp__host_image){w, h, channels, 32, px, false};
    return AMP_OK;
}

/* JPEG, BMP, TGA and PSD, through stb_image. */
static amp_status decode_stb(const char *who, const char *path, amp_image_format f, const unsigned char *data,
                             size_t size, const amp_image_load_desc *desc, amp_accelerator_view **view,
                             amp_image *head, amp__host_image *out)
{
    int w, h, comp, is16, channels = desc ? desc->channels : 0, bits = desc ? desc->bits : 0;
    const char *name = amp_image_format_name(f);
    if (bits == 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits 32 is not 0, 8 or 16 for %s, a %s file", who, path,
                         name);
    if (!amp__stb_info(data, size, &w, &h, &comp, &is16))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its %s header is invalid (%s)", who, path, name,
                         amp__stb_reason());
    amp_status s = header(who, path, view, f, size, w, h, channels ? channels : comp, bits ? bits : is16 ? 16 : 8, head);
    if (s != AMP_OK || !out) return s;
    int file_channels;
    bool wide;
    void *px = amp__stb_load(data, size, channels, &w, &h, &file_channels, &wide);
    if (!px) {
        const char *why = amp__stb_reason();
        return strcmp(why, "truncated") == 0
                   ? amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: it ends before its pixels do", who, path)
                   : amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (%s decoder)", who, path, why, name);
    }
    *out = (amp__host_image){w, h, channels ? channels : file_channels, wide ? 16 : 8, px, false};
    return convert_bits(who, path, out, bits);
}

amp_status amp__image_decode(const char *who, const char *path, const unsigned char *data, size_t size,
                             amp_image_format want, const amp_image_load_desc *desc, amp_accelerator_view **view,
                             amp_image *head, amp__host_image *out)
{
    amp_image_format f = sniff(data, size);
    if (want == AMP_IMAGE_FORMAT_PNG) return decode_png(who, path, data, size, desc, view, head, out);
    if (want == AMP_IMAGE_FORMAT_HDR && f != AMP_IMAGE_FORMAT_HDR)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is not a Radiance HDR file (no #?RADIANCE or #?RGBE line)", who,
                         path);
    switch (f) {
    case AMP_IMAGE_FORMAT_PNG:
        return decode_png(who, path, data, size, desc, view, head, out);
    case AMP_IMAGE_FORMAT_HDR:
        return decode_hdr(who, path, data, size, desc, view, head, out);
    case AMP_IMAGE_FORMAT_AUTO:
        return amp__fail(AMP_ERROR_FORMAT,
                         "%s: %s is not an image file ampvk reads (PNG, JPEG, BMP, TGA, PSD or Radiance HDR)", who,
                         path);
    default:
        return decode_stb(who, path, f, data, size, desc, view, head, out);
    }
}

static void to_public(amp__host_image *im, amp_image_format f, amp_image *out)
{
    *out = (amp_image){im->width, im->height, im->channels, im->bits, 0, im->pixels, f};
    out->stride = packed_row(out);
}

amp_status amp_image_load_memory(const void *data, size_t size, const char *name, const amp_image_load_desc *desc,
                                 amp_image *out)
{
    const char *who = "amp_image_load";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    if (!name) name = "the image";
    if (!data) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL data", who);
    amp_status s = check_load_desc(who, name, desc);
    if (s != AMP_OK) return s;
    if (size == 0) return amp__fail(AMP_ERROR_FORMAT, "%s: %s is empty", who, name);
    amp__host_image im;
    amp_image head;
    s = amp__image_decode(who, name, data, size, AMP_IMAGE_FORMAT_AUTO, desc, NULL, &head, &im);
    if (s == AMP_OK) to_public(&im, head.format, out);
    return s;
}

amp_status amp_image_info(const char *path, amp_image *out)
{
    const char *who = "amp_image_info";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    unsigned char *data = NULL;
    size_t size = 0;
    amp_status s = check_load_desc(who, path, NULL);
    if (s == AMP_OK) s = amp__image_read_file(who, path, &data, &size);
    if (s != AMP_OK) return s;
    s = amp__image_decode(who, path, data, size, AMP_IMAGE_FORMAT_AUTO, NULL, NULL, out, NULL); /* the header only */
    free(data);
    return s;
}

amp_status amp_image_load(const char *path, const amp_image_load_desc *desc, amp_image *out)
{
    const char *who = "amp_image_load";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    unsigned char *data;
    size_t size;
    amp_status s = check_load_desc(who, path, desc);
    if (s == AMP_OK) s = amp__image_read_file(who, path, &data, &size);
    if (s != AMP_OK) return s;
    amp__host_image im;
    amp_image head;
    s = amp__image_decode(who, path, data, size, AMP_IMAGE_FORMAT_AUTO, desc, NULL, &head, &im);
    if (s == AMP_OK) to_public(&im, head.format, out);
    free(data);
    return s;
}

/* ---- encoding ---- */

amp_status amp_image_encode(const amp_image *img, const amp_image_save_desc *desc, unsigned char **data,
                            size_t *size)
{
    const char *who = "amp_image_encode";
    amp_image_save_desc d = desc ? *desc : (amp_image_save_desc){0};
    if (!data || !size) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL data or size", who);
    amp_status s = check_image(who, "the image", img);
    if (s != AMP_OK) return s;
    const char *name = amp_image_format_name(d.format);
    if (d.format == AMP_IMAGE_FORMAT_AUTO || d.format == AMP_IMAGE_FORMAT_PSD || !name)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: format %s cannot be written (png, jpeg, bmp, tga or hdr)",
                         who, name ? name : "(unknown)");
    if (d.quality < 0 || d.quality > 100)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: JPEG quality %d is outside 1..100 (0: 90)", who, d.quality);
    if (d.png_level < 0 || d.png_level > 12)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: PNG level %d is outside 1..12 (0: the default)", who,
                         d.png_level);
    int bits = d.format == AMP_IMAGE_FORMAT_HDR ? 32 : 8;
    if (d.format == AMP_IMAGE_FORMAT_PNG) {
        bits = d.bits ? d.bits : img->bits == 16 ? 16 : 8;
        if (bits != 8 && bits != 16)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: a PNG has 8 or 16 bits per channel, not %d", who, bits);
    } else if (d.bits && d.bits != bits) {
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: a %s file has %d bits per channel, not %d", who, name, bits,
                         d.bits);
    }
    if ((uint64_t)img->width * (uint64_t)img->height > (uint64_t)INT_MAX)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: image %dx%d is too large to encode", who, img->width,
                         img->height);
    void *owned;
    const void *samples = amp__image_packed(img, bits, &owned);
    if (!samples) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    if (d.format == AMP_IMAGE_FORMAT_PNG) {
        s = amp__png_encode(samples, img->width, img->height, img->channels, bits, d.png_level, data, size);
    } else {
        *data = amp__stb_write(d.format, img->width, img->height, img->channels, samples, d.quality ? d.quality : 90,
                               size);
        s = *data ? AMP_OK
                  : amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory encoding a %dx%d %s file", who,
                              img->width, img->height, name);
    }
    free(owned);
    return s;
}

/* The save description with the format resolved from path. */
static amp_status save_format(const char *who, const char *path, const amp_image_save_desc *desc,
                              amp_image_save_desc *out)
{
    *out = desc ? *desc : (amp_image_save_desc){0};
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    if (out->format == AMP_IMAGE_FORMAT_AUTO && !(out->format = amp_image_format_from_path(path)))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: %s: no image format for this name (.png, .jpg, .jpeg, .bmp, .tga or .hdr)", who, path);
    return AMP_OK;
}

static amp_status save_image(const char *who, const char *path, const amp_image *img, const amp_image_save_desc *d)
{
    unsigned char *file;
    size_t size;
    amp_status s = amp_image_encode(img, d, &file, &size);
    if (s != AMP_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        const char *m = strncmp(msg, "amp_image_encode: ", 18) == 0 ? msg + 18 : msg;
        return amp__fail(s, "%s: %s: %s", who, path, m);
    }
    s = amp__image_write_file(who, path, file, size);
    free(file);
    return s;
}

amp_status amp_image_save(const char *path, const amp_image *img, const amp_image_save_desc *desc)
{
    const char *who = "amp_image_save";
    amp_image_save_desc d;
    amp_status s = save_format(who, path, desc, &d);
    return s == AMP_OK ? save_image(who, path, img, &d) : s;
}

/* ---- textures ---- */

/* Re-raises the last error with the file named in front. */
static void name_file(const char *who, const char *path)
{
    char msg[512];
    amp_status s = amp_last_status();
    snprintf(msg, sizeof msg, "%s", amp_last_error());
    amp__fail(s, "%s: %s: %s", who, path, msg);
}

/* A texture holding the tightly packed samples of a host image. */
static amp_texture *make_texture(amp_accelerator_view *view, int width, int height, int channels, int bits,
                                 const void *pixels, int mips)
{
    amp_scalar scalar = bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM;
    size_t size = (size_t)width * (size_t)height * (size_t)channels * sample_bytes(bits);
    amp_texture *t = amp_texture_create(view, &(amp_texture_desc){
        .extent = amp_extent2(height, width), .type = (amp_type)AMP_MAKE_TYPE(scalar, channels),
        .bits_per_scalar_element = bits, .mip_levels = mips, .data = pixels, .data_size = size});
    if (t && amp_texture_mip_levels(t) > 1 && amp_texture_generate_mips(t) != AMP_OK) amp_texture_destroy(&t);
    return t;
}

amp_texture *amp_texture_from_image(amp_accelerator_view *view, const amp_image *img, int mip_levels)
{
    const char *who = "amp_texture_from_image";
    if (check_image(who, "the image", img) != AMP_OK) return NULL;
    void *owned;
    const void *samples = amp__image_packed(img, img->bits, &owned);
    if (!samples) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
        return NULL;
    }
    amp_texture *t = make_texture(view, img->width, img->height, img->channels, img->bits, samples, mip_levels);
    free(owned);
    return t;
}

/* Loads a file of format `want` (AUTO: any) into a texture. */
static amp_texture *load_texture(const char *who, amp_accelerator_view *view, const char *path,
                                 amp_image_format want, const amp_image_load_desc *desc)
{
    unsigned char *data;
    size_t size;
    amp__host_image im;
    if (check_load_desc(who, path, desc) != AMP_OK || amp__image_read_file(who, path, &data, &size) != AMP_OK)
        return NULL;
    amp_status s = amp__image_decode(who, path, data, size, want, desc, &view, NULL, &im);
    free(data);
    if (s != AMP_OK) return NULL;
    amp_texture *t = make_texture(view, im.width, im.height, im.channels, im.bits, im.pixels,
                                  desc ? desc->mip_levels : 0);
    free(im.pixels);
    if (!t) name_file(who, path);
    return t;
}

amp_texture *amp_texture_load(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    return load_texture("amp_texture_load", view, path, AMP_IMAGE_FORMAT_AUTO, desc);
}

amp_texture *amp_texture_load_png(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    return load_texture("amp_texture_load_png", view, path, AMP_IMAGE_FORMAT_PNG, desc);
}

amp_texture *amp_texture_load_hdr(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    return load_texture("amp_texture_load_hdr", view, path, AMP_IMAGE_FORMAT_HDR, desc);
}

static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float f = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return h & 0x8000 ? -f : f;
}

double amp__texel_component(const void *p, amp_scalar s, int bits, size_t i)
{
    switch (s) {
    case AMP_SCALAR_UNORM:
    case AMP_SCALAR_UINT:
        return bits == 8 ? ((const uint8_t *)p)[i] : bits == 16 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
    case AMP_SCALAR_NORM:
    case AMP_SCALAR_INT:
        return bits == 8 ? ((const int8_t *)p)[i] : bits == 16 ? ((const int16_t *)p)[i] : ((const int32_t *)p)[i];
    case AMP_SCALAR_FLOAT:
        return bits == 16 ? half_to_float(((const uint16_t *)p)[i]) : ((const float *)p)[i];
    case AMP_SCALAR_DOUBLE:
        return ((const double *)p)[i];
    default:
        return 0;
    }
}

void amp__texture_describe(const amp_texture *t, char *buf, size_t n)
{
    char e[48];
    snprintf(buf, n, "%s of %d bits, extent %s", amp_type_name(amp_texture_type(t)),
             amp_texture_bits_per_scalar_element(t), amp_extent_format(amp_texture_extent(t), e, sizeof e));
}

amp_status amp__texture_host(const char *who, amp_texture *t, void **out)
{
    size_t size = amp_extent_size(amp_texture_extent(t)) * amp_texture_texel_size(t);
    void *p = malloc(size ? size : 1);
    if (!p) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu bytes", who, size);
    amp_status s = amp_texture_copy_to_host(t, NULL, p, size);
    if (s != AMP_OK) {
        free(p);
        return s;
    }
    *out = p;
    return AMP_OK;
}

amp_status amp__texture_samples(const char *who, amp_texture *t, int bits, amp_image *out)
{
    char d[96];
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    if (bits != 0 && bits != 8 && bits != 16 && bits != 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8, 16 or 32", who, bits);
    amp_extent e = amp_texture_extent(t);
    amp_type type = amp_texture_type(t);
    amp_scalar sc = amp_type_scalar(type);
    int tbits = amp_texture_bits_per_scalar_element(t), comps = amp_type_components(type);
    amp__texture_describe(t, d, sizeof d);
    if (e.rank != 2)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the texture (%s) is %d-D; only 2-D textures are images",
                         who, d, e.rank);
    if (sc != AMP_SCALAR_UNORM && sc != AMP_SCALAR_NORM && sc != AMP_SCALAR_FLOAT)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: %s textures cannot be saved as images (only unorm, norm and float textures can; texture: "
                         "%s)",
                         who, amp_type_name(type), d);
    if (!bits) bits = (sc == AMP_SCALAR_UNORM || sc == AMP_SCALAR_NORM) && tbits == 16 ? 16 : 8;
    void *src = NULL;
    amp_status s = amp__texture_host(who, t, &src);
    if (s != AMP_OK) return s;
    size_t count = amp_extent_size(e) * (size_t)comps;
    if (sc == AMP_SCALAR_UNORM && tbits == bits) { /* the texture's own samples */
        *out = (amp_image){e.dims[1], e.dims[0], comps, bits, 0, src, AMP_IMAGE_FORMAT_AUTO};
        out->stride = packed_row(out);
        return AMP_OK;
    }
    void *dst = malloc(count * sample_bytes(bits));
    if (!dst) {
        free(src);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    for (size_t i = 0; i < count; i++) {
        double x = amp__texel_component(src, sc, tbits, i);
        if (sc == AMP_SCALAR_UNORM) {
            uint32_t u = (uint32_t)x;
            if (bits == 32)
                ((float *)dst)[i] = (float)(x / (tbits == 8 ? 255.0 : 65535.0));
            else if (bits == 16)
                ((uint16_t *)dst)[i] = (uint16_t)(u * 257);
            else
                ((uint8_t *)dst)[i] = (uint8_t)to8(u);
            continue;
        }
        if (sc == AMP_SCALAR_NORM) x = x / (tbits == 8 ? 127.0 : 32767.0);
        if (bits == 32)
            ((float *)dst)[i] = (float)x;
        else if (bits == 16)
            ((uint16_t *)dst)[i] = (uint16_t)float_to_int(x, 16);
        else
            ((uint8_t *)dst)[i] = (uint8_t)float_to_int(x, 8);
    }
    free(src);
    *out = (amp_image){e.dims[1], e.dims[0], comps, bits, 0, dst, AMP_IMAGE_FORMAT_AUTO};
    out->stride = packed_row(out);
    return AMP_OK;
}

amp_status amp_texture_to_image(amp_texture *t, int bits, amp_image *out)
{
    const char *who = "amp_texture_to_image";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    return amp__texture_samples(who, t, bits, out);
}

/* The deflate blocks of PNGs filtered on the device: 63 KiB, whole work groups of
 * png_rows.comp's counting kernel (1024 bytes) under deflate's stored-block limit. */
#define DEVICE_PNG_BLOCK (63 * 1024)

/* What the coding of a texture's rows filtered on the device needs. */
typedef struct device_png_job {
    const char *who, *path;
    amp__png_layout layout;
    amp_status *status;
} device_png_job;

/* The readback of amp__texture_png_rows: codes the filtered rows into a PNG file
 * (the host's part, straight from the staging memory) and writes it. */
static void code_device_rows(void *ctx, const void *staged, bool ok)
{
    device_png_job *j = ctx;
    if (!ok) return; /* the future's wait returns the device's failure */
    const amp__png_layout *l = &j->layout;
    const uint8_t *stream = staged;
    unsigned char *file;
    size_t size;
    amp_status s = amp__png_encode_filtered(stream, (size_t)l->stream_bytes,
                                            (const uint32_t *)(stream + 4 * l->types_at), l->block, (int)l->width,
                                            (int)l->height, (int)l->channels, 8 * (int)l->channel_bytes, &file, &size);
    if (s != AMP_OK) {
        name_file(j->who, j->path);
    } else {
        s = amp__image_write_file(j->who, j->path, file, size);
        free(file);
    }
    *j->status = s;
}

/* Whether t goes to a PNG file of d through the device's filtering: a unorm texture of
 * 8 or 16 bits kept at its depth, the default compressor, on a device whose copies
 * run as shaders (GPUs). */
static bool png_on_device(amp_texture *t, const amp_image_save_desc *d)
{
    if (!t || d->format != AMP_IMAGE_FORMAT_PNG || d->png_level != 0) return false;
    int bits = amp_texture_bits_per_scalar_element(t);
    return amp_type_scalar(amp_texture_type(t)) == AMP_SCALAR_UNORM && (bits == 8 || bits == 16) &&
           (d->bits == 0 || d->bits == bits) && amp__texture_png_possible(t, DEVICE_PNG_BLOCK);
}

/* Saves t as a PNG at path with its rows filtered and counted on the device
 * (png_rows.comp) and coded on the host. */
static amp_status save_png_on_device(const char *who, amp_texture *t, const char *path)
{
    amp_status coded = AMP_OK;
    device_png_job j = {who, path, amp__texture_png_layout(t, DEVICE_PNG_BLOCK), &coded};
    amp_future *f = amp__texture_png_rows(who, t, DEVICE_PNG_BLOCK, code_device_rows, &j, sizeof j);
    if (!f) return amp_last_status();
    amp_status s = amp_future_wait(f);
    amp_future_destroy(&f);
    return s != AMP_OK ? s : coded;
}

amp_status amp_texture_save(amp_texture *t, const char *path, const amp_image_save_desc *desc)
{
    const char *who = "amp_texture_save";
    amp_image_save_desc d;
    amp_status s = save_format(who, path, desc, &d);
    if (s != AMP_OK) return s;
    if (png_on_device(t, &d)) return save_png_on_device(who, t, path);
    amp_image im;
    s = amp__texture_samples(who, t, d.format == AMP_IMAGE_FORMAT_HDR ? 32 : d.format == AMP_IMAGE_FORMAT_PNG ? d.bits : 8,
                             &im);
    if (s != AMP_OK) return s;
    s = save_image(who, path, &im, &d);
    amp_image_free(&im);
    return s;
}

amp_status amp_texture_save_png(amp_texture *t, const char *path, int bits)
{
    const char *who = "amp_texture_save_png";
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    if (bits != 0 && bits != 8 && bits != 16)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8 or 16", who, bits);
    amp_image_save_desc d = {.format = AMP_IMAGE_FORMAT_PNG, .bits = bits};
    if (png_on_device(t, &d)) return save_png_on_device(who, t, path);
    amp_image im;
    amp_status s = amp__texture_samples(who, t, bits, &im);
    if (s != AMP_OK) return s;
    s = save_image(who, path, &im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG});
    amp_image_free(&im);
    return s;
}
