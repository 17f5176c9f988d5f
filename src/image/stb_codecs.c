/* The formats still read and written through stb (image_stb.c), where Debian has no
 * library made for hostile input: Radiance HDR, BMP, TGA (stb_image behind ampvk's
 * own checks) and PSD (read only). */
#include <stdlib.h>
#include <string.h>

#include "image/image_internal.h"

/* A refused file: truncated, or corrupt with stb's reason. */
static amp_status stb_fail(const amp__file *f, const char *name)
{
    const char *why = amp__stb_reason();
    return strcmp(why, "truncated") == 0
               ? amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: it ends before its pixels do", f->who, f->path)
               : amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (%s decoder)", f->who, f->path, why, name);
}

static void stb_close(void *state) { (void)state; }

static amp_status stb_encode(const char *who, const amp_image *img, int bits, int format, const char *name, unsigned char **data, size_t *size)
{
    void *owned;
    const void *samples = amp__image_packed(img, bits, &owned);
    if (!samples) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    *data = amp__stb_write(format, img->width, img->height, img->channels, samples, size);
    free(owned);
    return *data ? AMP_OK
                 : amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory encoding a %dx%d %s file", who,
                             img->width, img->height, name);
}

/* ---- Radiance HDR ---- */

static bool hdr_sniff(const unsigned char *d, size_t n) { return amp__stb_is_hdr(d, n); }

/* An HDR file decodes to RGB floats and alpha 1 unless asked for fewer channels. */
static amp_status hdr_open(const amp__file *f, amp_image *head, void **state)
{
    int w, h, comp, is16;
    (void)state;
    if (!amp__stb_info(f->data, f->size, &w, &h, &comp, &is16))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its header lacks a valid FORMAT or resolution line",
                         f->who, f->path);
    *head = (amp_image){w, h, 4, 32, 0, NULL, AMP_IMAGE_FORMAT_HDR};
    return AMP_OK;
}

static amp_status hdr_decode(const amp__file *f, void *state, const amp_image *head, int channels,
                             amp__host_image *out)
{
    int w, h;
    (void)state;
    (void)head;
    float *px = amp__stb_load_hdr(f->data, f->size, channels, &w, &h);
    if (!px) return stb_fail(f, "hdr");
    *out = (amp__host_image){w, h, channels, 32, px, false};
    return AMP_OK;
}

static amp_status hdr_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                             unsigned char **data, size_t *size)
{
    (void)d;
    return stb_encode(who, img, bits, AMP_IMAGE_FORMAT_HDR, "hdr", data, size);
}

const amp__codec amp__codec_hdr = {
    .format = AMP_IMAGE_FORMAT_HDR, .name = "hdr", .title = "Radiance HDR", .extensions = "hdr",
    .densest = 16, /* an RLE run of 127 samples in 2 bytes, 4 a pixel */
    .save_bits = AMP__BITS(32),
    .sniff = hdr_sniff, .open = hdr_open, .decode = hdr_decode, .close = stb_close, .encode = hdr_encode,
};

/* ---- BMP, TGA and PSD ---- */

static amp_status image_open(const amp__file *f, amp_image *head, const char *name)
{
    int w, h, comp, is16;
    if (!amp__stb_info(f->data, f->size, &w, &h, &comp, &is16))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its %s header is invalid (%s)", f->who, f->path, name,
                         amp__stb_reason());
    *head = (amp_image){w, h, comp, is16 ? 16 : 8, 0, NULL, AMP_IMAGE_FORMAT_AUTO};
    return AMP_OK;
}

static amp_status image_decode(const amp__file *f, int channels, const char *name, amp__host_image *out)
{
    int w, h, file_channels;
    bool wide;
    void *px = amp__stb_load(f->data, f->size, channels, &w, &h, &file_channels, &wide);
    if (!px) return stb_fail(f, name);
    *out = (amp__host_image){w, h, channels ? channels : file_channels, wide ? 16 : 8, px, false};
    return AMP_OK;
}

/* The open and decode functions of an stb format ... */
#define STB_FORMAT(fmt)                                                                                   \
    static amp_status fmt##_open(const amp__file *f, amp_image *head, void **state)                               \
    {                                                                                                             \
        (void)state;                                                                                              \
        return image_open(f, head, #fmt);                                                                         \
    }                                                                                                             \
    static amp_status fmt##_decode(const amp__file *f, void *state, const amp_image *head, int channels,          \
                                   amp__host_image *out)                                                          \
    {                                                                                                             \
        (void)state;                                                                                              \
        (void)head;                                                                                               \
        return image_decode(f, channels, #fmt, out);                                                              \
    }
/* ... and the encode function of one stb writes. */
#define STB_WRITER(fmt, format)                                                                                   \
    static amp_status fmt##_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d, \
                                   unsigned char **data, size_t *size)                                            \
    {                                                                                                             \
        (void)d;                                                                                                  \
        return stb_encode(who, img, bits, format, #fmt, data, size);                                           \
    }

STB_FORMAT(bmp)
STB_FORMAT(tga)
STB_FORMAT(psd)
STB_WRITER(bmp, AMP_IMAGE_FORMAT_BMP)
STB_WRITER(tga, AMP_IMAGE_FORMAT_TGA)

static bool bmp_sniff(const unsigned char *d, size_t n) { return n >= 2 && d[0] == 'B' && d[1] == 'M'; }

static bool psd_sniff(const unsigned char *d, size_t n) { return n >= 4 && memcmp(d, "8BPS", 4) == 0; }

/* TGA has no signature: a file no other format claims whose header stb takes. */
static bool tga_sniff(const unsigned char *d, size_t n)
{
    int w, h, c, is16;
    return amp__stb_info(d, n, &w, &h, &c, &is16) != 0;
}

const amp__codec amp__codec_bmp = {
    .format = AMP_IMAGE_FORMAT_BMP, .name = "bmp", .title = "BMP", .extensions = "bmp",
    .densest = 8, /* 1-bit rows, uncompressed (stb_image reads no RLE) */
    .save_bits = AMP__BITS(8),
    .sniff = bmp_sniff, .open = bmp_open, .decode = bmp_decode, .close = stb_close, .encode = bmp_encode,
};

const amp__codec amp__codec_tga = {
    .format = AMP_IMAGE_FORMAT_TGA, .name = "tga", .title = "TGA", .extensions = "tga",
    .densest = 64, /* an RLE packet of 128 one-byte pixels in 2 bytes */
    .save_bits = AMP__BITS(8),
    .sniff = tga_sniff, .open = tga_open, .decode = tga_decode, .close = stb_close, .encode = tga_encode,
};

const amp__codec amp__codec_psd = {
    .format = AMP_IMAGE_FORMAT_PSD, .name = "psd", .title = "PSD", .extensions = "psd",
    .densest = 64, /* PackBits: 128 bytes of a channel in 2 */
    .save_bits = 0,
    .sniff = psd_sniff, .open = psd_open, .decode = psd_decode, .close = stb_close, .encode = NULL,
};
