/* stb_image (its Radiance HDR, BMP, TGA and PSD decoders: PNG and JPEG go through
 * png_read.c and jpeg.c) and stb_image_write (BMP, TGA and HDR files),
 * compiled static into this one file so that none of their symbols leave the
 * library, with thin wrappers for image_file.c. This file is built
 * without warnings (CMakeLists.txt): stb's code is not ours to fix. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#endif

/* stb's arithmetic leans on what C leaves undefined and every target we build for
 * does as meant: int shifts into the sign bit, signed overflow and out-of-range
 * float-to-int conversions on corrupt input (PSD's matte removal). No memory access depends on
 * them, but the sanitizer builds stop on them, so stb's functions are built without
 * those three checks (the others, and ASan, stay): through clang's pragma, or for
 * GCC, which has no such pragma, by giving `static` (every stb function is static
 * here) the attribute while stb is read; GCC ignores it on stb's static variables.
 * The standard headers above are read before, so none of them sees the macro. */
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("shift", "signed-integer-overflow", "float-cast-overflow"))), \
                             apply_to = function)
#elif defined(__GNUC__)
#define static static __attribute__((no_sanitize("shift,signed-integer-overflow,float-cast-overflow")))
#endif

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_ONLY_PSD
#define STBI_NO_STDIO
/* stb 2.27 has read memory it allocated but never wrote where a file leaves things
 * out (its JPEG decoder did). Its allocations are zeroed, so that such a file would
 * decode to the same pixels every time, and none of them to what the heap held. */
#define STBI_MALLOC(size) calloc(1, size)
#define STBI_REALLOC(p, size) realloc(p, size)
#define STBI_FREE(p) free(p)
/* ampvk's own limit on a file's width and height (image.h), so that stb refuses a
 * header that claims more before it allocates. */
#define STBI_MAX_DIMENSIONS 65535
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
/* not STBI_WRITE_NO_STDIO: stb_image_write 1.16 compiles its HDR writer only with
   stdio (its file functions stay static and unused) */
#include <stb/stb_image_write.h>

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#undef static
#endif

#include "image/image_internal.h"

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool is_psd(const unsigned char *data, size_t size) { return size >= 4 && memcmp(data, "8BPS", 4) == 0; }

/* What stb_image 2.27 gets wrong in a PSD's header, read here instead: the channel
 * count (stb says 4 for every file), the depth (its stbi__psd_is16 reads the height
 * for it: STBI_NOTUSED does not evaluate the reads it wraps) and the compression
 * (stb decodes a 16-bit RLE file as if it were 8-bit). *compression is -1 when the
 * file ends before it. False for a header shorter than 26 bytes. */
static bool psd_header(const unsigned char *d, size_t n, int *channels, int *depth, int *compression)
{
    if (n < 26) return false;
    *channels = d[12] << 8 | d[13];
    *depth = d[22] << 8 | d[23];
    *compression = -1;
    size_t at = 26;
    for (int i = 0; i < 3; i++) { /* color mode data, image resources, layer and mask information */
        if (n - at < 4) return true;
        uint32_t len = be32(d + at);
        at += 4;
        if (len > n - at) return true;
        at += len;
    }
    if (n - at >= 2) *compression = d[at] << 8 | d[at + 1];
    return true;
}

/* Byte i of a file as stb reads it through reader_read below: '\n' past the end. */
static unsigned byte_at(const unsigned char *d, size_t n, size_t i) { return i < n ? d[i] : '\n'; }

int amp__stb_info(const unsigned char *data, size_t size, int *w, int *h, int *channels, int *is16)
{
    if (size > INT_MAX) return stbi__err("too large", "file too large");
    if (!stbi_info_from_memory(data, (int)size, w, h, channels)) return 0;
    /* a BMP's negative height means rows top-down (stb loads them so) */
    if (size >= 2 && data[0] == 'B' && data[1] == 'M' && *h < 0 && *h != INT_MIN) *h = -*h;
    /* stb takes the resolution line's numbers as they come: 0, negative, overflowed */
    if (*w < 1 || *h < 1) return stbi__err("no pixels", "the resolution line gives no pixels");
    /* only PSD has 16-bit files among stb's formats here */
    int psd_channels, depth, compression;
    *is16 = 0;
    if (is_psd(data, size) && psd_header(data, size, &psd_channels, &depth, &compression)) {
        *channels = psd_channels >= 4 ? 4 : 3;
        *is16 = depth == 16;
    }
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
 * the header's loops; the image is then refused as truncated.
 *
 * stb asks for bytes in two ways: refills of its own buffer (the first read goes
 * there), which may come back short near the end, and reads of bytes it needs whole
 * (stbi__getn: a TGA row, an HDR texel), which stb 2.27 does not check, leaving the
 * rest of its buffer uninitialized. Those are filled up with newlines too, and count
 * as reading past the end. */
typedef struct reader {
    const unsigned char *data;
    size_t size, pos;
    bool overrun;
    const char *refill; /* stb's buffer, from the first read */
} reader;

static int reader_read(void *user, char *buf, int n)
{
    reader *r = user;
    if (!r->refill) r->refill = buf;
    size_t left = r->size - r->pos, want = n < 0 ? 0 : (size_t)n, k = want < left ? want : left;
    memcpy(buf, r->data + r->pos, k);
    r->pos += k;
    if (k < want && (k == 0 || buf != r->refill)) {
        r->overrun = true;
        memset(buf + k, '\n', want - k);
        return n;
    }
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
    /* stb's float loader takes every format it reads, converting 8-bit ones; only
     * HDR files come here (amp__stb_load guards the others) */
    if (!amp__stb_is_hdr(data, size))
        return (float *)stbi__errpf("not a Radiance HDR file (no #?RADIANCE or #?RGBE line)", "not HDR");
    size_t at = hdr_pixels_at(data, size);
    if (at && amp__stb_info(data, size, &iw, &ih, &ic, &i16) && !hdr_can_hold(size - at, iw, ih))
        return (float *)stbi__errpf("truncated", "file ends before its pixels");
    reader r = {data, size, 0, false, NULL};
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
 * stb reads: an RLE TGA or PSD packet of 128
 * texels in 2 bytes, a 1-bit BMP; 1024 texels a byte bounds them all. So a few bytes
 * cannot make the decoder allocate a large image. */
static bool can_hold(size_t rest, int w, int h)
{
    return (uint64_t)w * (uint64_t)h <= ((uint64_t)rest + 64) * 1024;
}

static uint32_t le32(const unsigned char *d, size_t n, size_t i)
{
    return byte_at(d, n, i) | byte_at(d, n, i + 1) << 8 | byte_at(d, n, i + 2) << 16 |
           (uint32_t)byte_at(d, n, i + 3) << 24;
}

/* The calling thread's reason for a refused file, formatted (stb keeps a pointer to it). */
static _Thread_local char reason[160];

/* Whether stb_image 2.27 reads only palette entries a BMP has: it looks up every
 * pixel's index in a 256-entry array of which it filled the file's entries, and
 * reads the uninitialized rest for larger indices (or all of it, for a pixel offset
 * so small that the palette's size comes out negative). This finds the palette's
 * size and the pixels where stb does and checks every index in the file; bytes past
 * the end are left to the reader, which refuses the file as truncated. */
static bool bmp_palette_ok(const unsigned char *d, size_t n, int w, int h)
{
    uint32_t hsz = le32(d, n, 14);
    size_t at_bpp = hsz == 12 ? 24 : 28;
    int offset = (int)le32(d, n, 10), bpp = (int)(byte_at(d, n, at_bpp) | byte_at(d, n, at_bpp + 1) << 8);
    if (bpp != 1 && bpp != 4 && bpp != 8) return true;
    int psize = hsz == 12 ? (offset - 14 - 24) / 3 : (offset - 14 - (int)hsz) >> 2, entry = hsz == 12 ? 3 : 4;
    if (psize == 0 || psize > 256) return true; /* stb refuses it */
    long skip = (long)offset - 14 - (long)hsz - (long)psize * entry;
    if (psize < 0 || skip < 0) {
        snprintf(reason, sizeof reason,
                 "its pixel offset %d leaves no room for its %u-byte header and a palette", offset, hsz);
        return false;
    }
    size_t row = bpp == 8 ? (size_t)w : bpp == 4 ? ((size_t)w + 1) / 2 : ((size_t)w + 7) / 8, at = (size_t)offset;
    bool bottom_up = (int)le32(d, n, 22) > 0 || hsz == 12;
    for (int y = 0; y < h; y++, at += row + (-row & 3)) {
        if (at >= n) break;
        for (int x = 0; x < w; x++) {
            size_t i = at + (size_t)x * (size_t)bpp / 8;
            if (i >= n) break;
            int v = bpp == 8 ? d[i] : bpp == 4 ? (x & 1 ? d[i] & 15 : d[i] >> 4) : d[i] >> (7 - (x & 7)) & 1;
            if (v >= psize) {
                snprintf(reason, sizeof reason,
                         "pixel (%d, %d) has palette index %d but the palette has %d entries", x,
                         bottom_up ? h - 1 - y : y, v, psize);
                return false;
            }
        }
    }
    return true;
}

void *amp__stb_load(const unsigned char *data, size_t size, int channels, int *w, int *h, int *file_channels,
                    bool *is16)
{
    int iw, ih, ic, i16, psd_channels, depth, compression;
    if (!amp__stb_info(data, size, &iw, &ih, &ic, &i16)) return NULL;
    if (!can_hold(size, iw, ih))
        return stbi__errpuc("truncated", "file ends before its pixels");
    bool psd = is_psd(data, size) && psd_header(data, size, &psd_channels, &depth, &compression);
    if (psd && depth == 16 && compression == 1)
        return stbi__errpuc("16-bit RLE-compressed PSD files are not supported", "16-bit RLE PSD");
    if (size >= 2 && data[0] == 'B' && data[1] == 'M' && !bmp_palette_ok(data, size, iw, ih))
        return stbi__errpuc(reason, "bad palette");
    reader r = {data, size, 0, false, NULL};
    stbi_io_callbacks io = {reader_read, reader_skip, reader_eof};
    int n, req = psd && !channels ? ic : channels; /* an RGB PSD: 3 channels, not stb's 4 */
    void *px = i16 ? (void *)stbi_load_16_from_callbacks(&io, &r, w, h, &n, req)
                   : (void *)stbi_load_from_callbacks(&io, &r, w, h, &n, req);
    if (px && r.overrun) {
        stbi_image_free(px);
        return stbi__errpuc("truncated", "file ends before its pixels");
    }
    *file_channels = psd ? ic : n;
    *is16 = i16 != 0;
    return px;
}

/* stb_image_write's output, gathered in a growing buffer (an amp__bytes). */
static void sink_write(void *user, void *data, int n)
{
    if (n > 0) amp__bytes_put(user, data, (size_t)n);
}

unsigned char *amp__stb_write(int format, int w, int h, int channels, const void *pixels,
                              size_t *out_size)
{
    amp__bytes s = {0};
    int ok = 0;
    switch (format) {
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
    *out_size = s.n;
    return (unsigned char *)s.data;
}

void amp__stb_free(void *pixels) { stbi_image_free(pixels); }

const char *amp__stb_reason(void)
{
    const char *r = stbi_failure_reason();
    return r ? r : "unknown reason";
}
