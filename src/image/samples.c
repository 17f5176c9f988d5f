/* Samples of host images: conversions between depths (8, 16 and 32 bits) and between
 * channel counts, as ampvk/image.h's overview states them, shared by the image
 * files (image_file.c) and every format's codec. */
#include <stdlib.h>
#include <string.h>

#include "image/image_internal.h"

static uint16_t to8(uint32_t v) { return (uint16_t)((v * 255 + 32767) / 65535); }

/* Sample i of a row of `bits` samples as a float: integers scaled to 0..1. */
static double sample_as_float(const void *row, int bits, size_t i)
{
    return bits == 8 ? ((const uint8_t *)row)[i] / 255.0
           : bits == 16 ? ((const uint16_t *)row)[i] / 65535.0
                        : (double)((const float *)row)[i];
}

uint32_t amp__float_to_unorm(double x, int bits)
{
    x = x > 0 ? (x < 1 ? x : 1) : 0; /* NaN -> 0 */
    return (uint32_t)(x * (bits == 16 ? 65535.0 : 255.0) + 0.5);
}

void amp__convert_samples(const void *src, int from, void *dst, int to, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (to == 32) {
            ((float *)dst)[i] = (float)sample_as_float(src, from, i);
            continue;
        }
        if (from == 32)
            v = amp__float_to_unorm(((const float *)src)[i], to);
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

/* Sample c of texel i of an image of `from` channels at 8, 16 or 32 bits. */
static inline float sample_of(const void *px, size_t i, int from, int c, int bits)
{
    size_t k = i * (size_t)from + (size_t)c;
    return bits == 32 ? ((const float *)px)[k] : bits == 16 ? ((const uint16_t *)px)[k] : ((const uint8_t *)px)[k];
}

void amp__convert_channels(const void *px, size_t texels, int from, int to, int bits, void *out)
{
    float max = bits == 32 ? 1.0f : bits == 16 ? 65535.0f : 255.0f;
    for (size_t i = 0; i < texels; i++) {
        float v[4], r = sample_of(px, i, from, 0, bits);
        float a = from == 2 || from == 4 ? sample_of(px, i, from, from - 1, bits) : max;
        if (to >= 3) {
            v[0] = r;
            v[1] = from >= 3 ? sample_of(px, i, from, 1, bits) : r;
            v[2] = from >= 3 ? sample_of(px, i, from, 2, bits) : r;
            v[3] = a;
        } else {
            v[0] = r;
            if (from >= 3) {
                float g = sample_of(px, i, from, 1, bits), b = sample_of(px, i, from, 2, bits);
                v[0] = bits == 32 ? (r * 77 + g * 150 + b * 29) / 256
                                  : (float)(((uint32_t)r * 77 + (uint32_t)g * 150 + (uint32_t)b * 29) >> 8);
            }
            v[1] = a;
        }
        size_t k = i * (size_t)to;
        for (int c = 0; c < to; c++) {
            if (bits == 32)
                ((float *)out)[k + (size_t)c] = v[c];
            else if (bits == 16)
                ((uint16_t *)out)[k + (size_t)c] = (uint16_t)v[c];
            else
                ((uint8_t *)out)[k + (size_t)c] = (uint8_t)v[c];
        }
    }
}

amp_status amp__host_convert(const char *who, const char *path, amp__host_image *im, int channels, int bits)
{
    size_t texels = (size_t)im->width * (size_t)im->height;
    if (channels && channels != im->channels) {
        void *conv = malloc(texels * (size_t)channels * (size_t)(im->bits / 8));
        if (conv) amp__convert_channels(im->pixels, texels, im->channels, channels, im->bits, conv);
        free(im->pixels);
        im->pixels = conv;
        im->channels = channels;
    }
    if (im->pixels && bits && bits != im->bits) {
        size_t count = texels * (size_t)im->channels;
        void *conv = malloc(count * (size_t)(bits / 8));
        if (conv) amp__convert_samples(im->pixels, im->bits, conv, bits, count);
        free(im->pixels);
        im->pixels = conv;
        im->bits = bits;
    }
    if (im->pixels) return AMP_OK;
    return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %s", who, path);
}

const void *amp__image_packed(const amp_image *im, int bits, void **owned)
{
    *owned = NULL;
    size_t n = (size_t)im->width * (size_t)im->channels, row = n * (size_t)(im->bits / 8);
    if (bits == im->bits && im->stride == row) return im->pixels;
    size_t out_row = n * (size_t)(bits / 8);
    unsigned char *p = malloc(out_row * (size_t)im->height);
    if (!p) return NULL;
    for (int y = 0; y < im->height; y++) {
        const unsigned char *s = (const unsigned char *)im->pixels + (size_t)y * im->stride;
        if (bits == im->bits)
            memcpy(p + (size_t)y * out_row, s, out_row);
        else
            amp__convert_samples(s, im->bits, p + (size_t)y * out_row, bits, n);
    }
    *owned = p;
    return p;
}

amp_status amp__orient(const char *who, const char *path, uint8_t **pixels, int w, int h, size_t n, int o)
{
    if (o <= 1) return AMP_OK;
    bool turned = o >= 5;
    int ow = turned ? h : w, oh = turned ? w : h;
    const uint8_t *px = *pixels;
    uint8_t *out = malloc((size_t)ow * (size_t)oh * n);
    if (!out) {
        free(*pixels);
        *pixels = NULL;
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", who, path);
    }
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++) {
            int sx, sy;
            switch (o) {
            case 2: sx = w - 1 - x, sy = y; break;
            case 3: sx = w - 1 - x, sy = h - 1 - y; break;
            case 4: sx = x, sy = h - 1 - y; break;
            case 5: sx = y, sy = x; break;
            case 6: sx = y, sy = h - 1 - x; break;
            case 7: sx = w - 1 - y, sy = h - 1 - x; break;
            default: sx = w - 1 - y, sy = x; break; /* 8 */
            }
            memcpy(out + ((size_t)y * (size_t)ow + (size_t)x) * n, px + ((size_t)sy * (size_t)w + (size_t)sx) * n, n);
        }
    free(*pixels);
    *pixels = out;
    return AMP_OK;
}
