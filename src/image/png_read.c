/* Reading PNG files, which are untrusted input. A walk over the chunks checks the
 * signature, every chunk's frame and CRC and their order first. Then libspng checks
 * the header and the chunks before the image data. Most files (8- and 16-bit gray,
 * gray+alpha, RGB and RGBA, not interlaced, without tRNS) are decoded here: the IDAT
 * data inflated whole by libdeflate, which checks the zlib stream and its Adler-32
 * and must give exactly the filtered image's size, then the rows unfiltered, each
 * filter in its own tight loop. libspng decodes the others (palette, 1- 2- and 4-bit,
 * Adam7, tRNS): as RGBA at 8 or 16 bits, checking every palette index, narrowed here
 * to the channels the caller wants. Either way no byte the decoder did not write
 * reaches a texture. */
#include <libdeflate.h>
#include <spng.h>
#include <stdlib.h>
#include <string.h>

#include "image/image_internal.h"

/* Chunks the decoder keeps in memory (text, ICC profiles, EXIF) may take at most
 * this much, so a file cannot make it allocate more than it holds. */
#define CHUNK_LIMIT ((size_t)64 << 20)

/* The reason for a libspng error, in the words of the message after "is ...". */
static amp_status decode_fail(const char *who, const char *path, int err)
{
    if (err == SPNG_EOF || err == SPNG_IO_EOF || err == SPNG_EIDAT_TOO_SHORT)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: %s", who, path, spng_strerror(err));
    if (err == SPNG_EMEM) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", who, path);
    if (err == SPNG_ESIGNATURE) return amp__fail(AMP_ERROR_FORMAT, "%s: %s is not a PNG file (bad signature)", who, path);
    return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s", who, path, spng_strerror(err));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool chunk_type_valid(const unsigned char *t)
{
    for (int i = 0; i < 4; i++)
        if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z'))) return false;
    return true;
}

/* Walks the chunks once before libspng sees them, for messages that say where a
 * file is damaged: the signature, each chunk's frame and CRC (IDAT's too, which
 * libspng would only reach after inflating the damaged data), IHDR first and of 13
 * bytes, an IDAT, an IEND, and a color type that exists. */
static amp_status check_chunks(const char *who, const char *path, const unsigned char *d, size_t n)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (n < 8 || memcmp(d, signature, 8) != 0)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is not a PNG file (no PNG signature)", who, path);
    bool idat = false;
    for (size_t pos = 8;;) {
        if (n - pos < 12)
            return amp__fail(AMP_ERROR_FORMAT,
                             "%s: %s is truncated: %zu bytes at offset %zu where a chunk needs 12 at least%s", who,
                             path, n - pos, pos, idat ? " (no IEND chunk)" : "");
        uint32_t len = get32(d + pos);
        const unsigned char *type = d + pos + 4;
        char name[5] = {0};
        if (!chunk_type_valid(type))
            return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: garbage where a chunk begins at offset %zu", who,
                             path, pos);
        memcpy(name, type, 4);
        if (len > 0x7FFFFFFFu)
            return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: chunk %s at offset %zu claims %u bytes", who, path,
                             name, pos, len);
        if (len > n - pos - 12)
            return amp__fail(AMP_ERROR_FORMAT,
                             "%s: %s is truncated: chunk %s at offset %zu needs %u bytes of data but %zu remain", who,
                             path, name, pos, len, n - pos - 12);
        uint32_t stored = get32(d + pos + 8 + len), crc = amp__crc32(0, type, 4 + (size_t)len);
        if (stored != crc)
            return amp__fail(AMP_ERROR_FORMAT,
                             "%s: %s is corrupt: bad CRC in chunk %s at offset %zu (stored %08x, computed %08x)", who,
                             path, name, pos, stored, crc);
        if (pos == 8 && (memcmp(name, "IHDR", 4) != 0 || len != 13))
            return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: the first chunk is %s of %u bytes, not IHDR of 13",
                             who, path, name, len);
        if (pos == 8 && (d[pos + 17] > 6 || d[pos + 17] == 1 || d[pos + 17] == 5))
            return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: color type %d", who, path, d[pos + 17]);
        if (!memcmp(name, "PLTE", 4) && (len % 3 || len == 0 || len > 768))
            return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its PLTE has %u bytes, not 3 to 768 in whole "
                             "entries of 3", who, path, len);
        idat |= !memcmp(name, "IDAT", 4);
        if (!memcmp(name, "IEND", 4)) {
            if (len)
                return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its IEND chunk has %u bytes of data, not 0",
                                 who, path, len);
            break;
        }
        pos += 12 + (size_t)len;
    }
    if (!idat) return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: it has no IDAT chunk", who, path);
    return AMP_OK;
}

/* A decoder over data, strict about CRCs in every chunk, with the header read. */
static spng_ctx *open_png(const char *who, const char *path, const unsigned char *data, size_t size,
                          struct spng_ihdr *ihdr, bool *trns)
{
    if (check_chunks(who, path, data, size) != AMP_OK) return NULL;
    spng_ctx *ctx = spng_ctx_new(0);
    if (!ctx) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", who, path);
        return NULL;
    }
    int err = spng_set_crc_action(ctx, SPNG_CRC_ERROR, SPNG_CRC_ERROR);
    if (!err) err = spng_set_chunk_limits(ctx, CHUNK_LIMIT, CHUNK_LIMIT);
    if (!err) err = spng_set_png_buffer(ctx, data, size);
    if (!err) err = spng_get_ihdr(ctx, ihdr);
    struct spng_trns t;
    int terr = err ? 0 : spng_get_trns(ctx, &t);
    if (!err && terr != SPNG_OK && terr != SPNG_ECHUNKAVAIL) err = terr;
    if (err) {
        decode_fail(who, path, err);
        spng_ctx_free(ctx);
        return NULL;
    }
    *trns = terr == SPNG_OK;
    return ctx;
}

/* What the header says the image decodes to, into *out, its padding zeroed: callers
 * may compare two with memcmp. */
static void info_of(const struct spng_ihdr *ihdr, bool trns, amp__png_info *out)
{
    static const int channels[7] = {1, 0, 3, 3, 2, 0, 4};
    bool alpha = ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA ||
                 ihdr->color_type == SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
    memset(out, 0, sizeof *out);
    out->width = ihdr->width;
    out->height = ihdr->height;
    out->channels = channels[ihdr->color_type] + (trns && !alpha);
    out->bits = ihdr->bit_depth == 16 ? 16 : 8;
    out->gray = ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE || ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA;
}

struct amp__png_reader {
    spng_ctx *ctx;
    const char *who, *path;
    const unsigned char *data; /* the file, checked by check_chunks */
    amp__png_info info;
    bool indexed;
    bool direct; /* decoded here, not by libspng: 8 or 16 bits, no palette, no Adam7, no tRNS */
};

amp__png_reader *amp__png_open(const char *who, const char *path, const unsigned char *data, size_t size,
                               amp__png_info *info)
{
    amp__png_reader *r = calloc(1, sizeof *r);
    if (!r) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", who, path);
        return NULL;
    }
    struct spng_ihdr ihdr;
    bool trns;
    if (!(r->ctx = open_png(who, path, data, size, &ihdr, &trns))) {
        free(r);
        return NULL;
    }
    r->who = who;
    r->path = path;
    r->data = data;
    info_of(&ihdr, trns, &r->info);
    r->indexed = ihdr.color_type == SPNG_COLOR_TYPE_INDEXED;
    r->direct = (ihdr.bit_depth == 8 || ihdr.bit_depth == 16) && !r->indexed && !ihdr.interlace_method && !trns;
    if (info) memcpy(info, &r->info, sizeof *info);
    return r;
}

void amp__png_close(amp__png_reader *r)
{
    if (!r) return;
    spng_ctx_free(r->ctx);
    free(r);
}

/* Sample c of an RGBA texel at 8 or 16 bits. */
static uint32_t sample(const void *rgba, size_t texel, int c, int bits)
{
    return bits == 16 ? ((const uint16_t *)rgba)[texel * 4 + (size_t)c] : ((const uint8_t *)rgba)[texel * 4 + (size_t)c];
}

/* Narrows RGBA samples to channels as stb_image converts: a gray file's gray is its
 * red, a color file's gray is the luma (77 r + 150 g + 29 b) >> 8; alpha is kept
 * for 2 and 4 channels (opaque where the file has none, as decoded). */
static void narrow(const void *rgba, size_t texels, int bits, bool gray, int channels, void *out)
{
    for (size_t i = 0; i < texels; i++) {
        uint32_t v[4];
        if (channels >= 3) {
            for (int c = 0; c < channels; c++) v[c] = sample(rgba, i, c, bits);
        } else {
            v[0] = gray ? sample(rgba, i, 0, bits)
                        : (sample(rgba, i, 0, bits) * 77 + sample(rgba, i, 1, bits) * 150 +
                           sample(rgba, i, 2, bits) * 29) >> 8;
            v[1] = sample(rgba, i, 3, bits);
        }
        for (int c = 0; c < channels; c++) {
            if (bits == 16) ((uint16_t *)out)[i * (size_t)channels + (size_t)c] = (uint16_t)v[c];
            else ((uint8_t *)out)[i * (size_t)channels + (size_t)c] = (uint8_t)v[c];
        }
    }
}

/* A palette image: libspng hands out its indices (SPNG_FMT_PNG: rows of 1-, 2-, 4- or
 * 8-bit indices, each row starting on a byte) and the colors are looked up here, so
 * an index past the end of the palette is an error rather than a color made up. */
static amp_status expand_palette(amp__png_reader *r, const unsigned char *indices, unsigned char *rgba)
{
    struct spng_ihdr ihdr;
    struct spng_plte plte;
    struct spng_trns trns = {0};
    if (spng_get_ihdr(r->ctx, &ihdr) || spng_get_plte(r->ctx, &plte))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: a palette image without a palette", r->who, r->path);
    if (spng_get_trns(r->ctx, &trns)) trns.n_type3_entries = 0;
    unsigned depth = ihdr.bit_depth, mask = (1u << depth) - 1;
    size_t stride = ((size_t)ihdr.width * depth + 7) / 8;
    for (uint32_t y = 0; y < ihdr.height; y++) {
        const unsigned char *row = indices + stride * y;
        for (uint32_t x = 0; x < ihdr.width; x++) {
            size_t bit = (size_t)x * depth;
            unsigned i = (row[bit / 8] >> (8 - depth - bit % 8)) & mask;
            if (i >= plte.n_entries)
                return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: pixel (%u, %u) has palette index %u but the "
                                 "palette has %u entries", r->who, r->path, x, y, i, plte.n_entries);
            unsigned char *o = rgba + ((size_t)y * ihdr.width + x) * 4;
            o[0] = plte.entries[i].red;
            o[1] = plte.entries[i].green;
            o[2] = plte.entries[i].blue;
            o[3] = i < trns.n_type3_entries ? trns.type3_alpha[i] : 255;
        }
    }
    return AMP_OK;
}

/* The whole image as RGBA at its own depth (8 or 16 bits), malloc'ed, every byte
 * written by the decoder. */
static amp_status decode_rgba(amp__png_reader *r, void **out)
{
    const amp__png_info *info = &r->info;
    size_t rgba_size = (size_t)info->width * info->height * 4 * (size_t)(info->bits / 8), raw_size = 0;
    int fmt = r->indexed ? SPNG_FMT_PNG : info->bits == 16 ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;
    int err = spng_decoded_image_size(r->ctx, fmt, &raw_size);
    void *rgba = err ? NULL : malloc(rgba_size);
    /* zeroed: libspng ORs the samples of an interlaced image's 1-, 2- and 4-bit rows into
       the bytes of the buffer, so what the buffer held before would show through */
    void *raw = rgba && r->indexed ? calloc(1, raw_size) : rgba;
    if (!err && (!rgba || !raw)) err = SPNG_EMEM;
    if (!err && !r->indexed && raw_size != rgba_size) err = SPNG_EINTERNAL;
    if (!err) err = spng_decode_image(r->ctx, raw, raw_size, fmt, r->indexed ? 0 : SPNG_DECODE_TRNS);
    /* the chunks after the image data too: their CRCs and the IEND */
    if (!err) err = spng_decode_chunks(r->ctx);
    amp_status s = err ? decode_fail(r->who, r->path, err) : AMP_OK;
    if (s == AMP_OK && r->indexed) s = expand_palette(r, raw, rgba);
    if (raw != rgba) free(raw);
    if (s != AMP_OK) {
        free(rgba);
        return s;
    }
    *out = rgba;
    return AMP_OK;
}

/* ---- the direct decoder ---- */

/* The image data: the IDAT chunks' contents, one after another (a pointer into the
 * file when there is one IDAT, else a malloc'ed copy in *owned), with the checks of
 * the chunks after them that libspng makes: no IDAT apart from the others, no
 * critical chunk but IEND. check_chunks has checked every chunk's frame. */
static amp_status image_data(amp__png_reader *r, const unsigned char **z, size_t *zsize, unsigned char **owned)
{
    const unsigned char *d = r->data;
    size_t first = 0, total = 0, count = 0;
    int where = 0; /* 0 before the IDAT chunks, 1 among them, 2 after */
    for (size_t pos = 8;;) {
        uint32_t len = get32(d + pos);
        const unsigned char *type = d + pos + 4;
        if (!memcmp(type, "IDAT", 4)) {
            if (where == 2)
                return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: the IDAT chunk at offset %zu is apart from the "
                                 "others (IDAT chunks must follow each other)", r->who, r->path, pos);
            if (!where) first = pos;
            where = 1;
            total += len;
            count++;
        } else {
            if (where == 1) where = 2;
            if (!memcmp(type, "IEND", 4)) break;
            if (where == 2 && !(type[0] & 0x20))
                return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: critical chunk %.4s at offset %zu after the image "
                                 "data", r->who, r->path, (const char *)type, pos);
        }
        pos += 12 + (size_t)len;
    }
    *owned = NULL;
    if (count == 1) {
        *z = d + first + 8;
        *zsize = total;
        return AMP_OK;
    }
    unsigned char *cat = malloc(total ? total : 1);
    if (!cat) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", r->who, r->path);
    size_t at = 0;
    for (size_t pos = first; !memcmp(d + pos + 4, "IDAT", 4); pos += 12 + (size_t)get32(d + pos)) {
        memcpy(cat + at, d + pos + 8, get32(d + pos));
        at += get32(d + pos);
    }
    *z = *owned = cat;
    *zsize = total;
    return AMP_OK;
}

/* The Paeth predictor (a left, b above, c above left). */
static inline uint8_t paeth(int a, int b, int c)
{
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int bc = pb <= pc ? b : c;
    return (uint8_t)(pa <= pb && pa <= pc ? a : bc);
}

typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x8 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* Undoes filter f on a row of n bytes, bpp bytes a texel: from src into dst, which may
 * lie before src in the same buffer (never after); prev is the row above, unfiltered
 * (zeros above the first). Each filter is a loop of its own, inlined for each texel
 * size so that the loop over a texel's bytes unrolls, and the texel to the left (a)
 * and above left (c) stay in registers rather than being read back. */
static inline __attribute__((always_inline)) void unfilter_bpp(int f, uint8_t *dst, const uint8_t *src,
                                                                 const uint8_t *prev, size_t n, size_t bpp)
{
    uint8_t a[8] = {0}, c[8] = {0};
    size_t i = 0;
    switch (f) {
    case 0:
        memmove(dst, src, n);
        break;
    case 1:
        /* texels of 4 or 8 bytes, 16 bytes at a time: each texel plus those before it
           in the 16 (shifted adds), plus the last texel of the 16 before */
        if (bpp == 4 || bpp == 8) {
            u8x16 left = {0};
            for (; i + 16 <= n; i += 16) {
                u8x16 x;
                memcpy(&x, src + i, 16);
                if (bpp == 4) {
                    x += (u8x16)((u64x2)x << 32);
                    u32x4 y = (u32x4)x;
                    x += (u8x16)(u32x4){0, 0, y[1], y[1]} + left;
                    y = (u32x4)x;
                    left = (u8x16)(u32x4){y[3], y[3], y[3], y[3]};
                } else {
                    u64x2 y = (u64x2)x;
                    x += (u8x16)(u64x2){0, y[0]} + left;
                    y = (u64x2)x;
                    left = (u8x16)(u64x2){y[1], y[1]};
                }
                memcpy(dst + i, &x, 16);
            }
            if (i) memcpy(a, dst + i - bpp, bpp);
        }
        for (; i < n; i += bpp)
#pragma GCC unroll 8
            for (size_t k = 0; k < bpp; k++) dst[i + k] = a[k] = (uint8_t)(src[i + k] + a[k]);
        break;
    case 2:
        /* 16 bytes at a time: all are loaded before any is stored, and dst <= src */
        for (; i + 16 <= n; i += 16) {
            u8x16 x, b;
            memcpy(&x, src + i, 16);
            memcpy(&b, prev + i, 16);
            x += b;
            memcpy(dst + i, &x, 16);
        }
        for (; i < n; i++) dst[i] = (uint8_t)(src[i] + prev[i]);
        break;
    case 3:
        for (; i < n; i += bpp)
#pragma GCC unroll 8
            for (size_t k = 0; k < bpp; k++) dst[i + k] = a[k] = (uint8_t)(src[i + k] + ((a[k] + prev[i + k]) >> 1));
        break;
    default:
        for (; i < n; i += bpp)
#pragma GCC unroll 8
            for (size_t k = 0; k < bpp; k++) {
                uint8_t b = prev[i + k];
                dst[i + k] = a[k] = (uint8_t)(src[i + k] + paeth(a[k], b, c[k]));
                c[k] = b;
            }
        break;
    }
}

/* unfilter_bpp for the texel sizes of 8- and 16-bit gray, gray+alpha, RGB and RGBA. */
static void unfilter(int f, uint8_t *dst, const uint8_t *src, const uint8_t *prev, size_t n, size_t bpp)
{
    switch (bpp) {
    case 1: unfilter_bpp(f, dst, src, prev, n, 1); break;
    case 2: unfilter_bpp(f, dst, src, prev, n, 2); break;
    case 3: unfilter_bpp(f, dst, src, prev, n, 3); break;
    case 4: unfilter_bpp(f, dst, src, prev, n, 4); break;
    case 6: unfilter_bpp(f, dst, src, prev, n, 6); break;
    default: unfilter_bpp(f, dst, src, prev, n, 8); break;
    }
}

/* Swaps the bytes of n 16-bit samples (big-endian in the file) to host order. */
static void from_big_endian(uint8_t *p, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        u16x8 v;
        memcpy(&v, p + 2 * i, 16);
        v = (u16x8)(v << 8) | (u16x8)(v >> 8);
        memcpy(p + 2 * i, &v, 16);
    }
    for (; i < n; i++) {
        uint8_t t = p[2 * i];
        p[2 * i] = p[2 * i + 1];
        p[2 * i + 1] = t;
    }
#else
    (void)p;
    (void)n;
#endif
}

/* Decodes a non-interlaced 8- or 16-bit image without palette or tRNS to `channels`:
 * the image data inflated into one buffer (filter bytes and rows, exactly the
 * image's size), the rows unfiltered in place and moved up over the filter bytes. */
static amp_status read_direct(amp__png_reader *r, int channels, amp__host_image *out)
{
    const amp__png_info *info = &r->info;
    size_t bpp = (size_t)info->channels * (size_t)(info->bits / 8), texels = (size_t)info->width * info->height;
    size_t row = (size_t)info->width * bpp; /* at most 2^31 texels of 8 bytes: no overflow */
    if (row + 1 > SIZE_MAX / info->height)
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: %s is %ux%u texels, too large to decode", r->who, r->path,
                         info->width, info->height);
    size_t raw_size = (row + 1) * info->height;
    const unsigned char *z = NULL;
    size_t zsize = 0;
    unsigned char *owned = NULL;
    amp_status s = image_data(r, &z, &zsize, &owned);
    if (s != AMP_OK) return s;
    /* deflate makes at most 1032 bytes of a byte (258-byte matches in 2 bits), so a
     * file too short for its header's size fails before the image is allocated */
    if (zsize < 2 || (raw_size - 1) / 1032 > zsize) {
        free(owned);
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: %zu bytes of image data cannot hold the %zu bytes of "
                         "a %ux%u image", r->who, r->path, zsize, raw_size, info->width, info->height);
    }
    uint8_t *buf = malloc(raw_size), *zeros = calloc(1, row);
    struct libdeflate_decompressor *dd = libdeflate_alloc_decompressor();
    if (!buf || !zeros || !dd) {
        free(owned);
        free(buf);
        free(zeros);
        libdeflate_free_decompressor(dd);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", r->who, r->path);
    }
    size_t got = 0;
    enum libdeflate_result res = libdeflate_zlib_decompress(dd, z, zsize, buf, raw_size, &got);
    libdeflate_free_decompressor(dd);
    free(owned);
    if (res == LIBDEFLATE_SUCCESS && got < raw_size)
        s = amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: its image data ends after %zu of the %zu bytes of a "
                      "%ux%u image", r->who, r->path, got, raw_size, info->width, info->height);
    else if (res == LIBDEFLATE_INSUFFICIENT_SPACE)
        s = amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its image data is longer than the %zu bytes of a %ux%u "
                      "image", r->who, r->path, raw_size, info->width, info->height);
    else if (res != LIBDEFLATE_SUCCESS)
        s = amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its image data is not a valid zlib stream (bad deflate "
                      "data or Adler-32)", r->who, r->path);
    /* row y: filter type at y * (row + 1), unfiltered to y * row, below the bytes still to read */
    for (uint32_t y = 0; s == AMP_OK && y < info->height; y++) {
        int f = buf[(size_t)y * (row + 1)];
        if (f > 4)
            s = amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: row %u has filter type %d (0 to 4 exist)", r->who,
                          r->path, y, f);
        else
            unfilter(f, buf + (size_t)y * row, buf + (size_t)y * (row + 1) + 1, y ? buf + (size_t)(y - 1) * row : zeros,
                     row, bpp);
    }
    free(zeros);
    if (s != AMP_OK) {
        free(buf);
        return s;
    }
    if (info->bits == 16) from_big_endian(buf, texels * (size_t)info->channels);
    void *px = buf;
    if (channels != info->channels) {
        px = malloc(texels * (size_t)channels * (size_t)(info->bits / 8));
        if (px) amp__convert_channels(buf, texels, info->channels, channels, info->bits, px);
        free(buf);
        if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", r->who, r->path);
    } else {
        void *fit = realloc(buf, texels * bpp); /* shrinking: fails only in name */
        if (fit) px = fit;
    }
    *out = (amp__host_image){(int)info->width, (int)info->height, channels, info->bits, px, false};
    return AMP_OK;
}

/* amp__png_read without its trace span. */
static amp_status png_read(amp__png_reader *r, int channels, amp__host_image *out)
{
    const amp__png_info *info = &r->info;
    channels = channels ? channels : info->channels;
    if (r->direct) return read_direct(r, channels, out);
    size_t texels = (size_t)info->width * info->height;
    void *rgba, *px = malloc(texels * (size_t)channels * (size_t)(info->bits / 8));
    if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", r->who, r->path);
    amp_status s = decode_rgba(r, &rgba);
    if (s != AMP_OK) {
        free(px);
        return s;
    }
    narrow(rgba, texels, info->bits, info->gray, channels, px);
    free(rgba);
    *out = (amp__host_image){(int)info->width, (int)info->height, channels, info->bits, px, false};
    return AMP_OK;
}

amp_status amp__png_read(amp__png_reader *r, int channels, amp__host_image *out)
{
    uint64_t span = amp__trace_begin();
    amp_status st = png_read(r, channels, out);
    amp__trace_end(span, "file", "PNG decode", NULL);
    return st;
}

/* ---- the PNG codec (image_file.c's table) ---- */

static bool png_sniff(const unsigned char *d, size_t n)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    return n >= 8 && memcmp(d, sig, 8) == 0;
}

static amp_status png_open(const amp__file *f, amp_image *head, void **state)
{
    amp__png_info info;
    amp__png_reader *r = amp__png_open(f->who, f->path, f->data, f->size, &info);
    if (!r) return amp_last_status();
    *head = (amp_image){(int)info.width, (int)info.height, info.channels, info.bits, 0, NULL, AMP_IMAGE_FORMAT_PNG};
    *state = r;
    return AMP_OK;
}

static amp_status png_decode(const amp__file *f, void *state, const amp_image *head, int channels,
                             amp__host_image *out)
{
    (void)f;
    (void)head;
    return amp__png_read(state, channels, out);
}

static void png_close(void *state) { amp__png_close(state); }

static amp_status png_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                             unsigned char **data, size_t *size)
{
    void *owned;
    const void *samples = amp__image_packed(img, bits, &owned);
    if (!samples) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    amp_status s = amp__png_encode(samples, img->width, img->height, img->channels, bits, d->png_level, data, size);
    free(owned);
    return s;
}

const amp__codec amp__codec_png = {
    .format = AMP_IMAGE_FORMAT_PNG, .name = "png", .title = "PNG", .extensions = "png",
    .densest = 8 * 1032, /* 1-bit samples; deflate's 258-byte match in 2 bits */
    .save_bits = AMP__BITS(8) | AMP__BITS(16),
    .sniff = png_sniff, .open = png_open, .decode = png_decode, .close = png_close, .encode = png_encode,
};
