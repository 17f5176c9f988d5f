/* stb_image (its Radiance HDR, JPEG, BMP, TGA and PSD decoders: PNG goes through
 * libspng, png_read.c) and stb_image_write (JPEG, BMP, TGA and HDR files),
 * compiled static into this one file so that none of their symbols leave the
 * library, with thin wrappers for image_file.c. This file is built
 * without warnings (CMakeLists.txt): stb's code is not ours to fix. */
#include <limits.h>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_ONLY_PSD
#define STBI_NO_STDIO
/* ampvk's own limit on a file's width and height (image.h), so that stb refuses a
 * header that claims more before it allocates. */
#define STBI_MAX_DIMENSIONS 65535
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
/* not STBI_WRITE_NO_STDIO: stb_image_write 1.16 compiles its HDR writer only with
   stdio (its file functions stay static and unused) */
#include <stb/stb_image_write.h>

#include "image/image_internal.h"

int amp__stb_info(const unsigned char *data, size_t size, int *w, int *h, int *channels, int *is16)
{
    if (size > INT_MAX) return stbi__err("too large", "file too large");
    if (!stbi_info_from_memory(data, (int)size, w, h, channels)) return 0;
    /* stb takes the resolution line's numbers as they come: 0, negative, overflowed */
    if (*w < 1 || *h < 1) return stbi__err("no pixels", "the resolution line gives no pixels");
    *is16 = stbi_is_16_bit_from_memory(data, (int)size);
    return 1;
}

bool amp__stb_is_hdr(const unsigned char *data, size_t size)
{
    return size <= INT_MAX && stbi_is_hdr_from_memory(data, (int)size);
}

/* stb's HDR decoder reads zeros past the end of its input without complaint; reading
 * through callbacks tells whether it ever asked for bytes that were not there. Past
 * the end the reader hands out newlines instead of zeros: a zero where an RLE
 * scanline wants a count makes stb loop forever (it never advances; CVE-2021-42715,
 * unfixed in Debian 12's stb 2.27), while a count of 10 moves on, and blank lines end
 * the header's loops; the image is then refused as truncated. */
typedef struct reader {
    const unsigned char *data;
    size_t size, pos;
    bool overrun;
} reader;

static int reader_read(void *user, char *buf, int n)
{
    reader *r = user;
    size_t left = r->size - r->pos, k = n < 0 ? 0 : (size_t)n < left ? (size_t)n : left;
    if (n > 0 && k == 0) {
        r->overrun = true;
        memset(buf, '\n', (size_t)n);
        return n;
    }
    memcpy(buf, r->data + r->pos, k);
    r->pos += k;
    return (int)k;
}

static void reader_skip(void *user, int n)
{
    reader *r = user;
    if (n < 0) return;
    if ((size_t)n > r->size - r->pos) {
        r->overrun = true;
        r->pos = r->size;
    } else {
        r->pos += (size_t)n;
    }
}

static int reader_eof(void *user)
{
    reader *r = user;
    return r->pos >= r->size;
}

/* Where a Radiance HDR's pixels begin, as stb reads the header (lines up to a blank
 * one, then the resolution line); 0 if the file ends first. */
static size_t hdr_pixels_at(const unsigned char *data, size_t size)
{
    const unsigned char *blank = memmem(data, size, "\n\n", 2);
    if (!blank) return 0;
    size_t from = (size_t)(blank - data) + 2;
    const unsigned char *eol = memchr(data + from, '\n', size - from);
    return eol ? (size_t)(eol - data) + 1 : 0;
}

/* Whether `rest` bytes can hold w x h pixels in the most compact encoding stb reads:
 * an RLE scanline (widths 8..32767) of a 4-byte header and, per component, runs of
 * up to 127 pixels in 2 bytes; otherwise 4 bytes a pixel. So a few bytes cannot make
 * the decoder allocate and fill a large image. */
static bool hdr_can_hold(size_t rest, int w, int h)
{
    uint64_t line = w >= 8 && w < 32768 ? 4 + 8 * (((uint64_t)w + 126) / 127) : 4 * (uint64_t)w;
    return (uint64_t)rest / line >= (uint64_t)h;
}

float *amp__stb_load_hdr(const unsigned char *data, size_t size, int channels, int *w, int *h)
{
    int iw, ih, ic, i16;
    size_t at = hdr_pixels_at(data, size);
    if (at && amp__stb_info(data, size, &iw, &ih, &ic, &i16) && !hdr_can_hold(size - at, iw, ih))
        return (float *)stbi__errpf("truncated", "file ends before its pixels");
    reader r = {data, size, 0, false};
    stbi_io_callbacks io = {reader_read, reader_skip, reader_eof};
    int n;
    float *px = stbi_loadf_from_callbacks(&io, &r, w, h, &n, channels);
    if (px && r.overrun) {
        stbi_image_free(px);
        return (float *)stbi__errpf("truncated", "file ends before its pixels");
    }
    if (px && (*w < 1 || *h < 1)) {
        stbi_image_free(px);
        return (float *)stbi__errpf("no pixels", "the resolution line gives no pixels");
    }
    return px;
}

/* Whether `rest` bytes can plausibly hold w x h texels in the most compact encoding
 * stb reads: a JPEG's 8x8 block in a few bits, an RLE TGA or PSD packet of 128
 * texels in 2 bytes, a 1-bit BMP; 1024 texels a byte bounds them all. So a few bytes
 * cannot make the decoder allocate a large image. */
static bool can_hold(size_t rest, int w, int h)
{
    return (uint64_t)w * (uint64_t)h <= ((uint64_t)rest + 64) * 1024;
}

void *amp__stb_load(const unsigned char *data, size_t size, int channels, int *w, int *h, int *file_channels,
                    bool *is16)
{
    int iw, ih, ic, i16;
    if (!amp__stb_info(data, size, &iw, &ih, &ic, &i16)) return NULL;
    if (!can_hold(size, iw, ih))
        return stbi__errpuc("truncated", "file ends before its pixels");
    reader r = {data, size, 0, false};
    stbi_io_callbacks io = {reader_read, reader_skip, reader_eof};
    int n;
    void *px = i16 ? (void *)stbi_load_16_from_callbacks(&io, &r, w, h, &n, channels)
                   : (void *)stbi_load_from_callbacks(&io, &r, w, h, &n, channels);
    if (px && r.overrun) {
        stbi_image_free(px);
        return stbi__errpuc("truncated", "file ends before its pixels");
    }
    *file_channels = n;
    *is16 = i16 != 0;
    return px;
}

/* stb_image_write's output, gathered in a growing buffer. */
typedef struct sink {
    unsigned char *data;
    size_t size, cap;
    bool failed;
} sink;

static void sink_write(void *user, void *data, int n)
{
    sink *s = user;
    if (s->failed || n <= 0) return;
    if (s->size + (size_t)n > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1 << 16;
        while (cap < s->size + (size_t)n) cap *= 2;
        unsigned char *p = realloc(s->data, cap);
        if (!p) {
            s->failed = true;
            return;
        }
        s->data = p;
        s->cap = cap;
    }
    memcpy(s->data + s->size, data, (size_t)n);
    s->size += (size_t)n;
}

unsigned char *amp__stb_write(int format, int w, int h, int channels, const void *pixels, int quality,
                              size_t *out_size)
{
    sink s = {0};
    int ok = 0;
    switch (format) {
    case AMP_IMAGE_FORMAT_JPEG:
        ok = stbi_write_jpg_to_func(sink_write, &s, w, h, channels, pixels, quality);
        break;
    case AMP_IMAGE_FORMAT_BMP:
        ok = stbi_write_bmp_to_func(sink_write, &s, w, h, channels, pixels);
        break;
    case AMP_IMAGE_FORMAT_TGA:
        ok = stbi_write_tga_to_func(sink_write, &s, w, h, channels, pixels);
        break;
    case AMP_IMAGE_FORMAT_HDR:
        ok = stbi_write_hdr_to_func(sink_write, &s, w, h, channels, pixels);
        break;
    default:
        break;
    }
    if (!ok || s.failed) {
        free(s.data);
        return NULL;
    }
    *out_size = s.size;
    return s.data;
}

void amp__stb_free(void *pixels) { stbi_image_free(pixels); }

const char *amp__stb_reason(void)
{
    const char *r = stbi_failure_reason();
    return r ? r : "unknown reason";
}
