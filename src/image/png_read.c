/* Reading PNG files, which are untrusted input, through libspng: it checks the
 * signature, the chunk order and sizes, every chunk's CRC, the zlib stream and its
 * Adler-32, and every palette index, and decodes nothing until the header has been
 * checked. Pixels come out as RGBA at 8 or 16 bits and are narrowed here to the
 * channels the caller wants, so no byte the decoder did not write reaches a texture. */
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
        if (!memcmp(name, "IEND", 4)) break;
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

/* What the header says the image decodes to. */
static amp__png_info info_of(const struct spng_ihdr *ihdr, bool trns)
{
    static const int channels[7] = {1, 0, 3, 3, 2, 0, 4};
    bool alpha = ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA ||
                 ihdr->color_type == SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
    return (amp__png_info){.width = ihdr->width, .height = ihdr->height,
                           .channels = channels[ihdr->color_type] + (trns && !alpha),
                           .bits = ihdr->bit_depth == 16 ? 16 : 8,
                           .gray = ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE ||
                                   ihdr->color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA};
}

struct amp__png_reader {
    spng_ctx *ctx;
    const char *who, *path;
    amp__png_info info;
    bool indexed;
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
    *r = (amp__png_reader){r->ctx, who, path, info_of(&ihdr, trns), ihdr.color_type == SPNG_COLOR_TYPE_INDEXED};
    if (info) *info = r->info;
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
    void *raw = rgba && r->indexed ? malloc(raw_size) : rgba;
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

amp_status amp__png_read(amp__png_reader *r, int channels, amp__host_image *out)
{
    const amp__png_info *info = &r->info;
    channels = channels ? channels : info->channels;
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
