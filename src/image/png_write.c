/* The PNG encoder: 8- and 16-bit gray, gray+alpha, RGB and RGBA, one adaptive
 * filter per row, zlib from stb_image_write (image_stb.c). stb_image_write's own
 * PNG writer is not used because it writes 8 bits only. */
#include <stdlib.h>
#include <string.h>

#include "image/image_internal.h"

/* The largest filtered image (rows plus filter bytes) the encoder takes: the
 * compressor counts in int, and its output may exceed its input a little. */
#define MAX_RAW_BYTES ((size_t)1 << 30)
#define IDAT_CHUNK ((size_t)1 << 20)

uint32_t amp__crc32(uint32_t crc, const unsigned char *data, size_t size)
{
    /* Built per call: 256 entries cost less than a PNG's deflate by far, and a
     * table built here needs no once-only initialization across threads. */
    uint32_t table[256];
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    crc = ~crc;
    for (size_t i = 0; i < size; i++) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
    return p + 4;
}

/* Writes a chunk at p (length, type, data, CRC) and returns the end. */
static unsigned char *put_chunk(unsigned char *p, const char type[4], const unsigned char *data, size_t size)
{
    p = put32(p, (uint32_t)size);
    memcpy(p, type, 4);
    if (size) memcpy(p + 4, data, size);
    uint32_t crc = amp__crc32(0, p, size + 4);
    return put32(p + 4 + size, crc);
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Filters row (n bytes, bpp bytes per texel; prev is the row above or NULL) with
 * filter type f into out[0..n] (out[0] = f); returns the sum of |signed bytes|,
 * the usual heuristic for which filter compresses best. */
static size_t filter_row(int f, const unsigned char *row, const unsigned char *prev, size_t n, size_t bpp,
                         unsigned char *out)
{
    size_t cost = 0;
    out[0] = (unsigned char)f;
    for (size_t i = 0; i < n; i++) {
        int a = i >= bpp ? row[i - bpp] : 0, b = prev ? prev[i] : 0, c = prev && i >= bpp ? prev[i - bpp] : 0;
        int pred = f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) >> 1 : f == 4 ? paeth(a, b, c) : 0;
        unsigned char d = (unsigned char)(row[i] - pred);
        out[1 + i] = d;
        cost += d < 128 ? d : 256 - d;
    }
    return cost;
}

amp_status amp__png_encode(const void *samples, int width, int height, int channels, int bits,
                           unsigned char **png, size_t *png_size)
{
    size_t bpp = (size_t)channels * (size_t)bits / 8, row_bytes = (size_t)width * bpp;
    if ((size_t)height * (row_bytes + 1) > MAX_RAW_BYTES)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS,
                         "image %dx%d of %d channels at %d bits is %zu bytes uncompressed; the PNG writer takes at "
                         "most %zu",
                         width, height, channels, bits, (size_t)height * (row_bytes + 1), MAX_RAW_BYTES);
    size_t raw_size = (size_t)height * (row_bytes + 1);
    unsigned char *raw = malloc(raw_size), *rows = malloc(2 * row_bytes), *trial = malloc(row_bytes + 1);
    if (!raw || !rows || !trial) {
        free(raw);
        free(rows);
        free(trial);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for a %zu-byte PNG image", raw_size);
    }
    const unsigned char *src = samples;
    for (int y = 0; y < height; y++) {
        /* the current row, big-endian, beside the previous one */
        unsigned char *cur = rows + (size_t)(y & 1) * row_bytes, *prev = y ? rows + (size_t)(~y & 1) * row_bytes : NULL;
        if (bits == 16) {
            const uint16_t *s = (const uint16_t *)(const void *)(src + (size_t)y * row_bytes);
            for (size_t i = 0; i < row_bytes / 2; i++) {
                cur[2 * i] = (unsigned char)(s[i] >> 8);
                cur[2 * i + 1] = (unsigned char)s[i];
            }
        } else {
            memcpy(cur, src + (size_t)y * row_bytes, row_bytes);
        }
        unsigned char *out = raw + (size_t)y * (row_bytes + 1);
        size_t best = filter_row(0, cur, prev, row_bytes, bpp, out);
        for (int f = 1; f <= 4; f++) {
            size_t cost = filter_row(f, cur, prev, row_bytes, bpp, trial);
            if (cost < best) {
                best = cost;
                memcpy(out, trial, row_bytes + 1);
            }
        }
    }
    free(rows);
    free(trial);
    size_t zsize;
    unsigned char *z = amp__zlib_compress(raw, raw_size, &zsize);
    free(raw);
    if (!z) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory compressing a %zu-byte PNG image", raw_size);

    size_t idats = zsize / IDAT_CHUNK + 1;
    size_t size = 8 + (12 + 13) + zsize + 12 * idats + 12;
    unsigned char *p = malloc(size);
    if (!p) {
        free(z);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for a %zu-byte PNG file", size);
    }
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static const unsigned char color_type[5] = {0, 0, 4, 2, 6}; /* by channel count */
    unsigned char ihdr[13];
    put32(ihdr, (uint32_t)width);
    put32(ihdr + 4, (uint32_t)height);
    ihdr[8] = (unsigned char)bits;
    ihdr[9] = color_type[channels];
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filtering, no interlace */
    unsigned char *q = p;
    memcpy(q, signature, 8);
    q = put_chunk(q + 8, "IHDR", ihdr, sizeof ihdr);
    size_t off = 0;
    do { /* IDAT chunks of at most IDAT_CHUNK bytes; one, possibly empty, at least */
        size_t n = zsize - off < IDAT_CHUNK ? zsize - off : IDAT_CHUNK;
        q = put_chunk(q, "IDAT", z + off, n);
        off += n;
    } while (off < zsize);
    q = put_chunk(q, "IEND", NULL, 0);
    free(z);
    *png = p;
    *png_size = (size_t)(q - p);
    return AMP_OK;
}
