/* The PNG encoder: 8- and 16-bit gray, gray+alpha, RGB and RGBA, one adaptive
 * filter per row, one IDAT chunk. stb_image_write's PNG writer is not used because
 * it writes 8 bits only, and it is slow.
 *
 * The filters run 16 bytes at a time (GCC/clang vector extensions: SSE2 on x86-64,
 * NEON on arm64). Each row takes the filter whose output has the least sum of
 * |byte| read as signed (the usual heuristic), estimated on a quarter of the row.
 *
 * The default compressor (level 0) is the one below: Huffman-coded literals and runs
 * (matches at distance 1, as zlib's Z_RLE strategy makes them, which OpenCV uses), a
 * fresh dynamic Huffman code every 64 KiB. Runs of 3 to 7 bytes are coded where they
 * pay (flat art) and left as literals where they do not (photographs), chosen by
 * comparing both every 8 blocks. A filtered photograph is noise to an LZ77
 * match finder: on one, libdeflate's level 1 writes 12 to 15% more than the literals'
 * entropy (files 6% larger than OpenCV's) and its levels 2 and up take 3 times as
 * long as this whole encoder. Levels 1 to 12 are libdeflate's, for images that
 * repeat themselves (art, screenshots: 40% of the size). */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "image/image_internal.h"

/* The largest IDAT chunk written: the largest a chunk can be. */
#define IDAT_MAX ((size_t)0x7FFFFFFF)
/* The bytes before the image data: signature, IHDR, the first IDAT's length and type. */
#define HEAD (8 + 25 + 8)
/* The input of one deflate block of the default compressor: at most what a stored
 * block holds, so that a block that does not compress is stored whole. */
#define BLOCK ((size_t)65535)
#define MAX_RUN 258
/* The shortest run coded as one where short runs do not pay: on photographs, whose
 * filtered rows are mostly small values with short coincidental runs, a run of 3-7
 * costs more bits than its literals (a blurred 1080p photograph 6% smaller with 8
 * than with deflate's 3), and finding them took a third of the encoder's time. Flat
 * art (a 2-pixel checkerboard: twice the size) needs the short ones: see scan_block. */
#define LONG_RUN 8
/* scan_block compares the two every PROBE blocks (64 KiB each) and keeps the better. */
#define PROBE 8

/* filter types (PNG specification, 9.2) */
enum { F_NONE, F_SUB, F_UP, F_AVG, F_PAETH };

/* The filters each row chooses from: all five (on photographs the sample costs pick
 * AVG mostly, then PAETH; NONE, SUB and UP win on flat art). */
#define FILTERS (1u << F_NONE | 1u << F_SUB | 1u << F_UP | 1u << F_AVG | 1u << F_PAETH)

typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x8 __attribute__((vector_size(16)));

uint32_t amp__crc32(uint32_t crc, const unsigned char *data, size_t size) { return libdeflate_crc32(crc, data, size); }

/* Writes v big-endian at p; returns p + 4. */
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

/* ---- filters ---- */

/* 16 bytes at p, unaligned. */
static inline u8x16 load16(const uint8_t *p)
{
    u8x16 v;
    memcpy(&v, p, 16);
    return v;
}

/* Stores 16 bytes at p, unaligned. */
static inline void store16(uint8_t *p, u8x16 v) { memcpy(p, &v, 16); }

/* |x - y| per byte. */
static inline u8x16 absdiff16(u8x16 x, u8x16 y)
{
    u8x16 m = (u8x16)(x > y);
    return ((x - y) & m) | ((y - x) & ~m);
}

/* |d| of each byte read as signed (0..128), summed in pairs into 16-bit lanes. */
static inline u16x8 cost16(u8x16 d)
{
    u8x16 n = -d, m = (u8x16)(d < n);
    u16x8 a = (u16x8)((d & m) | (n & ~m));
    return (a & 0xFF) + (a >> 8);
}

/* The sum of the 16-bit lanes. */
static inline size_t sum16(u16x8 v)
{
    size_t s = 0;
    for (int i = 0; i < 8; i++) s += v[i];
    return s;
}

/* |d| of one byte read as signed. */
static inline size_t cost1(uint8_t d) { return d < 128 ? d : 256u - d; }

/* The Paeth predictor of one byte (a left, b above, c above left). */
static inline uint8_t paeth1(int a, int b, int c)
{
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* The Paeth predictor of 16 bytes, in 8-bit lanes: pa = |b - c| and pb = |a - c|;
 * pc = |(b - c) + (a - c)| is pa + pb where both differences have one sign (it may
 * saturate at 255: only its order against pa and pb <= 255 counts), else |pa - pb|. */
static inline u8x16 paeth16(u8x16 a, u8x16 b, u8x16 c)
{
    u8x16 pa = absdiff16(b, c), pb = absdiff16(a, c);
    u8x16 same = ~((u8x16)(b < c) ^ (u8x16)(a < c)), sum = pa + pb;
    sum |= (u8x16)(sum < pa);
    u8x16 pc = (sum & same) | (absdiff16(pa, pb) & ~same);
    u8x16 use_a = (u8x16)(pa <= pb) & (u8x16)(pa <= pc), use_b = ~use_a & (u8x16)(pb <= pc);
    return (a & use_a) | (b & use_b) | (c & ~(use_a | use_b));
}

/* The floor average of a and b, per byte. */
static inline u8x16 avg16(u8x16 a, u8x16 b) { return (a >> 1) + (b >> 1) + (a & b & 1); }

/* Filters row (n bytes, bpp bytes a texel; prev is the row above, zeros for the
 * first row) with filter f into out[0..n] and returns the row's cost. The first bpp
 * bytes have no left neighbour (a = c = 0); the rest go 16 at a time, each filter in
 * its own loop so that the compiler keeps it branch-free. */
static size_t filter_row(int f, const uint8_t *row, const uint8_t *prev, size_t n, size_t bpp, uint8_t *out)
{
    size_t cost = 0, i = 0;
    for (; i < bpp; i++) {
        uint8_t p = f == F_UP || f == F_PAETH ? prev[i] : f == F_AVG ? prev[i] >> 1 : 0;
        out[i] = (uint8_t)(row[i] - p);
        cost += cost1(out[i]);
    }
    while (i + 16 <= n) {
        /* blocks of at most 255 vectors: 16-bit lanes of two costs (<= 256) each cannot overflow */
        size_t end = n - i > 255 * 16 ? i + 255 * 16 : n;
        u16x8 acc = {0};
        switch (f) {
        case F_NONE:
            for (; i + 16 <= end; i += 16) {
                u8x16 d = load16(row + i);
                store16(out + i, d);
                acc += cost16(d);
            }
            break;
        case F_SUB:
            for (; i + 16 <= end; i += 16) {
                u8x16 d = load16(row + i) - load16(row + i - bpp);
                store16(out + i, d);
                acc += cost16(d);
            }
            break;
        case F_UP:
            for (; i + 16 <= end; i += 16) {
                u8x16 d = load16(row + i) - load16(prev + i);
                store16(out + i, d);
                acc += cost16(d);
            }
            break;
        case F_AVG:
            for (; i + 16 <= end; i += 16) {
                u8x16 d = load16(row + i) - avg16(load16(row + i - bpp), load16(prev + i));
                store16(out + i, d);
                acc += cost16(d);
            }
            break;
        default:
            for (; i + 16 <= end; i += 16) {
                u8x16 d = load16(row + i) - paeth16(load16(row + i - bpp), load16(prev + i), load16(prev + i - bpp));
                store16(out + i, d);
                acc += cost16(d);
            }
            break;
        }
        cost += sum16(acc);
    }
    for (; i < n; i++) { /* the last few bytes */
        int a = row[i - bpp], b = prev[i], c = prev[i - bpp];
        int p = f == F_SUB ? a : f == F_UP ? b : f == F_AVG ? (a + b) >> 1 : f == F_PAETH ? paeth1(a, b, c) : 0;
        out[i] = (uint8_t)(row[i] - p);
        cost += cost1(out[i]);
    }
    return cost;
}

/* Rows of this many bytes or more choose their filter from a sample. */
#define SAMPLE_MIN 1024

/* The cost of filter f on a sample of a row of n >= SAMPLE_MIN bytes: 16 bytes of
 * every 64, which choose as well as all of them (files within 0.3%) at a quarter of
 * the work. */
static size_t sample_cost(int f, const uint8_t *row, const uint8_t *prev, size_t n, size_t bpp)
{
    size_t cost = 0;
    for (size_t i = bpp; i + 16 <= n;) {
        u16x8 acc = {0};
        for (int k = 0; k < 255 && i + 16 <= n; k++, i += 64) { /* see filter_row */
            u8x16 x = load16(row + i), a = load16(row + i - bpp), b = load16(prev + i);
            u8x16 d = f == F_NONE  ? x
                      : f == F_SUB ? x - a
                      : f == F_UP  ? x - b
                      : f == F_AVG ? x - avg16(a, b)
                                   : x - paeth16(a, b, load16(prev + i - bpp));
            acc += cost16(d);
        }
        cost += sum16(acc);
    }
    return cost;
}

/* Filters one row into out (its filter type byte, then n bytes) with the filter of
 * least cost among those in the `filters` mask: on long rows the costs of a sample
 * choose it, else those of whole rows; trial holds n bytes of scratch. */
static void filter_best(const uint8_t *row, const uint8_t *prev, size_t n, size_t bpp, unsigned filters, uint8_t *out,
                        uint8_t *trial)
{
    int best_f = -1;
    size_t best = 0;
    uint8_t *dst = out + 1;
    bool sample = n >= SAMPLE_MIN;
    for (int f = F_NONE; f <= F_PAETH; f++) {
        if (!(filters >> f & 1)) continue;
        size_t cost = sample ? sample_cost(f, row, prev, n, bpp)
                             : filter_row(f, row, prev, n, bpp, best_f < 0 ? dst : trial);
        if (best_f < 0 || cost < best) {
            if (best_f >= 0 && !sample) memcpy(dst, trial, n);
            best_f = f;
            best = cost;
        }
    }
    if (sample) filter_row(best_f, row, prev, n, bpp, dst);
    out[0] = (uint8_t)best_f;
}

/* Copies n bytes of 16-bit samples in host order to big-endian. */
static void to_big_endian(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        u16x8 v;
        memcpy(&v, src + i, 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        v = (u16x8)(v << 8) | (u16x8)(v >> 8);
#endif
        memcpy(dst + i, &v, 16);
    }
    for (; i < n; i += 2) {
        uint16_t s;
        memcpy(&s, src + i, 2);
        dst[i] = (uint8_t)(s >> 8);
        dst[i + 1] = (uint8_t)s;
    }
}

/* ---- the default compressor: Huffman-coded literals and runs ---- */

/* Where the bits go: least significant first, as deflate packs them. */
typedef struct bit_writer {
    uint8_t *p;
    uint64_t buf;
    unsigned n; /* bits in buf */
} bit_writer;

/* Adds n bits (n + the bits held <= 64) without writing them yet. */
static inline void put_bits(bit_writer *w, uint64_t v, unsigned n)
{
    w->buf |= v << w->n;
    w->n += n;
}

/* Writes the whole bytes held (8 bytes are stored, so 8 bytes of slack follow). */
static inline void flush_bits(bit_writer *w)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(w->p, &w->buf, 8);
#else
    for (int k = 0; k < 8; k++) w->p[k] = (uint8_t)(w->buf >> (8 * k));
#endif
    w->p += w->n >> 3;
    w->buf = w->n >= 64 ? 0 : w->buf >> (w->n & ~7u);
    w->n &= 7;
}

/* Pads to a byte boundary with zero bits. */
static void align_bits(bit_writer *w)
{
    flush_bits(w);
    if (w->n) w->p++;
    w->buf = 0;
    w->n = 0;
}

/* Huffman code lengths of at most max_len bits for n symbols (n <= 288) of counts
 * freq, into lens: lengths of a minimum-redundancy code (Moffat and Katajainen's
 * in-place algorithm), then, if that is too deep, moved up to max_len and the Kraft
 * sum repaired by lengthening shorter codes (as miniz does). The code is complete:
 * with one symbol used, a second gets a code too. */
static void huffman_lengths(const uint32_t *freq, int n, int max_len, uint8_t *lens)
{
    uint64_t key[288];
    int count = 0;
    for (int i = 0; i < n; i++) {
        lens[i] = 0;
        if (freq[i]) key[count++] = (uint64_t)freq[i] << 9 | (unsigned)i;
    }
    if (count < 2) { /* no tree: one bit each for the symbol used (or 0) and one other */
        int s = count ? (int)(key[0] & 511) : 0;
        lens[s] = 1;
        lens[s ? 0 : 1] = 1;
        return;
    }
    for (int i = 1; i < count; i++) { /* ascending counts (insertion sort: at most 286 keys) */
        uint64_t k = key[i];
        int j = i;
        for (; j > 0 && key[j - 1] > k; j--) key[j] = key[j - 1];
        key[j] = k;
    }
    uint32_t a[288];
    for (int i = 0; i < count; i++) a[i] = (uint32_t)(key[i] >> 9);
    /* Moffat and Katajainen: parents, then internal depths, then leaf depths */
    int root = 0, leaf = 2;
    a[0] += a[1];
    for (int next = 1; next < count - 1; next++) {
        if (leaf >= count || a[root] < a[leaf]) {
            a[next] = a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] = a[leaf++];
        }
        if (leaf >= count || (root < next && a[root] < a[leaf])) {
            a[next] += a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] += a[leaf++];
        }
    }
    a[count - 2] = 0;
    for (int next = count - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
    int avail = 1, used = 0, depth = 0, next = count - 1;
    root = count - 2;
    while (avail > 0) {
        while (root >= 0 && (int)a[root] == depth) {
            used++;
            root--;
        }
        while (avail > used) {
            a[next--] = (uint32_t)depth;
            avail--;
        }
        avail = 2 * used;
        depth++;
        used = 0;
    }
    /* a[i]: the length of the i-th least frequent symbol; count them by length */
    uint32_t per_len[289] = {0};
    for (int i = 0; i < count; i++) per_len[a[i]]++;
    for (int l = max_len + 1; l < 289; l++) {
        per_len[max_len] += per_len[l];
        per_len[l] = 0;
    }
    uint32_t total = 0;
    for (int l = max_len; l > 0; l--) total += per_len[l] << (max_len - l);
    while (total != 1u << max_len) { /* over-full after the move: lengthen a shorter code */
        per_len[max_len]--;
        for (int l = max_len - 1; l > 0; l--)
            if (per_len[l]) {
                per_len[l]--;
                per_len[l + 1] += 2;
                break;
            }
        total--;
    }
    int i = 0; /* the longest codes to the least frequent symbols */
    for (int l = max_len; l > 0; l--)
        for (uint32_t k = 0; k < per_len[l]; k++) lens[key[i++] & 511] = (uint8_t)l;
}

/* Canonical codes for lens (n symbols), bit-reversed for least-significant-first
 * output, into codes. */
static void huffman_codes(const uint8_t *lens, int n, uint16_t *codes)
{
    unsigned per_len[16] = {0}, next[16];
    for (int i = 0; i < n; i++) per_len[lens[i]]++;
    per_len[0] = 0;
    unsigned code = 0;
    for (int l = 1; l < 16; l++) {
        code = (code + per_len[l - 1]) << 1;
        next[l] = code;
    }
    for (int i = 0; i < n; i++) {
        unsigned l = lens[i], c = l ? next[l]++ : 0, r = 0;
        for (unsigned k = 0; k < l; k++) r |= (c >> k & 1) << (l - 1 - k);
        codes[i] = (uint16_t)r;
    }
}

/* deflate's length codes 257..285: the shortest length of each and its extra bits */
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* The index of the first nonzero byte of the 16 in t (one of them is nonzero). */
static inline size_t first_set_byte(const uint64_t t[2])
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return t[0] ? (size_t)__builtin_ctzll(t[0]) / 8 : 8 + (size_t)__builtin_ctzll(t[1]) / 8;
#else
    return t[0] ? (size_t)__builtin_clzll(t[0]) / 8 : 8 + (size_t)__builtin_clzll(t[1]) / 8;
#endif
}

/* One block's scan: its runs (offset in the block << 8 | length - 3) and symbol counts. */
typedef struct rle_scan {
    size_t runs;
    uint32_t run[BLOCK / 3 + 1];
    uint32_t freq[286];
} rle_scan;

/* The compressor's state: the length code of each run length, the scans for runs of
 * at least 3 and of at least LONG_RUN, and which won the last comparison. */
typedef struct rle_state {
    uint8_t length_code[MAX_RUN + 1];
    rle_scan scan[2];
    bool short_runs;
    size_t blocks;
} rle_state;

/* Finds one block's runs of at least min_run (a constant where it is inlined) and
 * counts its symbols into sc. A run is bytes equal to the byte before them (which
 * may lie in an earlier block: deflate's window spans blocks). Four histograms,
 * summed at the end, keep repeated bytes from waiting on each other's counts. */
static inline __attribute__((always_inline)) void scan_runs(const rle_state *st, rle_scan *sc, const uint8_t *data,
                                                            size_t start, size_t end, const int min_run)
{
    uint32_t h[4][256];
    memset(h, 0, sizeof h);
    memset(sc->freq, 0, sizeof sc->freq);
    size_t runs = 0, i = start;
    if (i == 0 && i < end) h[0][data[i++]]++;
    while (i < end) {
        /* 16 bytes at a time while no run starts among them (t: where min_run bytes
           equal the one before); where one does, the literals before it are counted
           and the run taken next */
        for (; i + 16 + (size_t)min_run <= end; i += 16) {
            /* three equal bytes first: where none start, no longer run does either */
            u8x16 t = (u8x16)(load16(data + i) == load16(data + i - 1)) &
                      (u8x16)(load16(data + i + 1) == load16(data + i)) &
                      (u8x16)(load16(data + i + 2) == load16(data + i + 1));
            uint64_t t2[2];
            memcpy(t2, &t, 16);
            if ((t2[0] | t2[1]) && min_run > 3) {
                for (int k = 3; k < min_run; k++) t &= (u8x16)(load16(data + i + k) == load16(data + i + k - 1));
                memcpy(t2, &t, 16);
            }
            if (t2[0] | t2[1]) {
                size_t k = first_set_byte(t2);
                for (size_t q = 0; q < k; q++) h[q & 3][data[i + q]]++;
                i += k;
                break;
            }
            for (int k = 0; k < 16; k += 4) {
                h[0][data[i + k]]++;
                h[1][data[i + k + 1]]++;
                h[2][data[i + k + 2]]++;
                h[3][data[i + k + 3]]++;
            }
        }
        if (i >= end) break;
        uint8_t v = data[i - 1];
        size_t len = 0, max = end - i < MAX_RUN ? end - i : MAX_RUN;
        while (len < max && data[i + len] == v) len++;
        if (len >= (size_t)min_run) {
            sc->run[runs++] = (uint32_t)(i - start) << 8 | (uint32_t)(len - 3);
            sc->freq[257 + st->length_code[len]]++;
            i += len;
        } else {
            h[0][data[i++]]++;
        }
    }
    for (int s = 0; s < 256; s++) sc->freq[s] = h[0][s] + h[1][s] + h[2][s] + h[3][s];
    sc->freq[256] = 1;
    sc->runs = runs;
}

/* The bits of a block's symbols under their Huffman code (lens), the runs' extra
 * bits and distance codes included, the code's own description not. */
static uint64_t symbol_bits(const rle_scan *sc, const uint8_t *lens)
{
    uint64_t bits = sc->runs; /* distance code 0, one bit a run */
    for (int s = 0; s < 286; s++) bits += (uint64_t)sc->freq[s] * lens[s];
    for (int k = 0; k < 29; k++) bits += (uint64_t)sc->freq[257 + k] * length_extra[k];
    return bits;
}

/* Scans a block for runs of the length that paid last (at least LONG_RUN, or 3),
 * and every PROBE blocks for the other too, keeping the smaller coding and
 * remembering it; its Huffman code lengths into lens. */
static const rle_scan *scan_block(rle_state *st, const uint8_t *data, size_t start, size_t end, uint8_t *lens)
{
    rle_scan *l = &st->scan[0], *s = &st->scan[1];
    bool probe = st->blocks++ % PROBE == 0;
    if (probe || !st->short_runs) scan_runs(st, l, data, start, end, LONG_RUN);
    if (probe || st->short_runs) scan_runs(st, s, data, start, end, 3);
    if (!probe) {
        const rle_scan *sc = st->short_runs ? s : l;
        huffman_lengths(sc->freq, 286, 15, lens);
        return sc;
    }
    uint8_t short_lens[286];
    huffman_lengths(l->freq, 286, 15, lens);
    huffman_lengths(s->freq, 286, 15, short_lens);
    st->short_runs = symbol_bits(s, short_lens) < symbol_bits(l, lens);
    if (st->short_runs) memcpy(lens, short_lens, sizeof short_lens);
    return st->short_runs ? s : l;
}

/* Writes literals data[i..end) with the literal/length code (lit: code | length
 * << 16; `four`: no length over 14). */
static inline void put_literals(bit_writer *w, const uint8_t *data, size_t i, size_t end, const uint32_t *lit,
                                bool four)
{
    /* after a flush (which leaves at most 7 bits) four codes of at most 14 bits fit
     * in 64, or three of 15 */
    if (four) {
        for (; i + 4 <= end; i += 4) {
            uint32_t c0 = lit[data[i]], c1 = lit[data[i + 1]], c2 = lit[data[i + 2]], c3 = lit[data[i + 3]];
            put_bits(w, c0 & 0xFFFF, c0 >> 16);
            put_bits(w, c1 & 0xFFFF, c1 >> 16);
            put_bits(w, c2 & 0xFFFF, c2 >> 16);
            put_bits(w, c3 & 0xFFFF, c3 >> 16);
            flush_bits(w);
        }
    }
    for (; i + 3 <= end; i += 3) {
        uint32_t c0 = lit[data[i]], c1 = lit[data[i + 1]], c2 = lit[data[i + 2]];
        put_bits(w, c0 & 0xFFFF, c0 >> 16);
        put_bits(w, c1 & 0xFFFF, c1 >> 16);
        put_bits(w, c2 & 0xFFFF, c2 >> 16);
        flush_bits(w);
    }
    for (; i < end; i++) {
        put_bits(w, lit[data[i]] & 0xFFFF, lit[data[i]] >> 16);
        flush_bits(w);
    }
}

/* The scan of a block of n bytes whose byte counts the device made (png_rows.comp:
 * 256 counts, then how many bytes end 9 equal ones): all literals, their frequencies
 * the counts, without a pass over the bytes, where at most n / 16 bytes end 9 equal
 * ones; NULL where more do (flat art, which runs shrink: scan it). Runs of 8 in
 * photographs pay little: coded as literals, a blurred 1080p photograph's file grew
 * 0.13% (every block under the bound, 1-2% of its bytes ending runs), while an
 * upscaled drawing's grew 4.5 times without runs and not at all with the bound. */
static const rle_scan *counted_block(rle_state *st, const uint32_t *counts, size_t n, uint8_t *lens)
{
    if (!counts || (size_t)counts[256] * 16 > n) return NULL;
    rle_scan *sc = &st->scan[0];
    memset(sc->freq, 0, sizeof sc->freq);
    memcpy(sc->freq, counts, 256 * sizeof *counts);
    sc->freq[256] = 1;
    sc->runs = 0;
    huffman_lengths(sc->freq, 286, 15, lens);
    return sc;
}

/* Compresses data[start..end) (at most BLOCK bytes) as one deflate block: a dynamic
 * Huffman block, or a stored one where that is smaller. counts: NULL, or the block's
 * byte counts from the device (counted_block). */
static void put_block(bit_writer *w, rle_state *st, const uint8_t *data, size_t start, size_t end, bool final,
                      const uint32_t *counts)
{
    uint8_t lens[286], all[286 + 2], clens[19];
    uint16_t codes[286], ccodes[19];
    const rle_scan *sc = counted_block(st, counts, end - start, lens);
    if (!sc) sc = scan_block(st, data, start, end, lens);
    size_t runs = sc->runs;
    int hlit = 286;
    while (hlit > 257 && !lens[hlit - 1]) hlit--;
    /* the literal/length code's lengths, then the distance code's: codes 0 (distance
     * 1, every run's) and 1 (unused), one bit each */
    memcpy(all, lens, (size_t)hlit);
    all[hlit] = all[hlit + 1] = 1;
    /* all of them, run-length coded: 16 repeats the last 3..6 times, 17 and 18 give
     * 3..10 and 11..138 zeros; each entry is symbol | extra bits << 8 */
    uint16_t seq[286 + 2];
    uint32_t cfreq[19] = {0};
    int nseq = 0, total = hlit + 2;
    for (int i = 0; i < total;) {
        int l = all[i], run = 1;
        while (i + run < total && all[i + run] == l) run++;
        i += run;
        if (l == 0) {
            while (run >= 11) {
                int k = run < 138 ? run : 138;
                seq[nseq++] = (uint16_t)(18 | (k - 11) << 8);
                cfreq[18]++;
                run -= k;
            }
            if (run >= 3) {
                seq[nseq++] = (uint16_t)(17 | (run - 3) << 8);
                cfreq[17]++;
                run = 0;
            }
        } else {
            seq[nseq++] = (uint16_t)l;
            cfreq[l]++;
            run--;
            while (run >= 3) {
                int k = run < 6 ? run : 6;
                seq[nseq++] = (uint16_t)(16 | (k - 3) << 8);
                cfreq[16]++;
                run -= k;
            }
        }
        while (run-- > 0) {
            seq[nseq++] = (uint16_t)l;
            cfreq[l]++;
        }
    }
    huffman_lengths(cfreq, 19, 7, clens);
    huffman_codes(clens, 19, ccodes);
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    static const uint8_t cextra[19] = {[16] = 2, [17] = 3, [18] = 7};
    int hclen = 19;
    while (hclen > 4 && !clens[order[hclen - 1]]) hclen--;

    /* the block's size both ways, in bits */
    uint64_t dynamic = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen;
    for (int i = 0; i < nseq; i++) dynamic += clens[seq[i] & 0xFF] + cextra[seq[i] & 0xFF];
    dynamic += symbol_bits(sc, lens);
    uint64_t stored = 3 + 7 + 32 + 8 * (uint64_t)(end - start);
    if (dynamic >= stored) {
        put_bits(w, final, 1);
        put_bits(w, 0, 2);
        align_bits(w);
        size_t n = end - start;
        uint8_t head[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)~n, (uint8_t)(~n >> 8)};
        memcpy(w->p, head, 4);
        memcpy(w->p + 4, data + start, n);
        w->p += 4 + n;
        return;
    }

    huffman_codes(lens, 286, codes);
    put_bits(w, final, 1);
    put_bits(w, 2, 2);
    put_bits(w, (uint64_t)(hlit - 257), 5);
    put_bits(w, 2 - 1, 5);
    put_bits(w, (uint64_t)(hclen - 4), 4);
    flush_bits(w);
    for (int i = 0; i < hclen; i++) {
        put_bits(w, clens[order[i]], 3);
        flush_bits(w);
    }
    for (int i = 0; i < nseq; i++) {
        int s = seq[i] & 0xFF;
        put_bits(w, ccodes[s], clens[s]);
        put_bits(w, (uint64_t)(seq[i] >> 8), cextra[s]);
        flush_bits(w);
    }
    uint32_t lit[256];
    bool four = true;
    for (int s = 0; s < 256; s++) {
        lit[s] = (uint32_t)codes[s] | (uint32_t)lens[s] << 16;
        four &= lens[s] <= 14;
    }
    size_t i = start;
    for (size_t r = 0; r < runs; r++) {
        size_t at = start + (sc->run[r] >> 8), len = (sc->run[r] & 0xFF) + 3;
        put_literals(w, data, i, at, lit, four);
        int k = st->length_code[len], s = 257 + k;
        put_bits(w, codes[s], lens[s]);
        put_bits(w, len - length_base[k], length_extra[k]);
        put_bits(w, 0, 1); /* distance 1 */
        flush_bits(w);
        i = at + len;
    }
    put_literals(w, data, i, end, lit, four);
    put_bits(w, codes[256], lens[256]); /* end of block */
    flush_bits(w);
}

/* The most bytes rle_compress writes for size bytes: stored blocks at worst (a
 * block is stored unless it takes fewer than 42 + 8 n bits: header, padding, LEN and
 * NLEN, data), the zlib header and Adler-32, and the 8 bytes flush_bits stores. */
static size_t rle_bound(size_t size) { return size + 6 * (size / BLOCK + 1) + 2 + 1 + 4 + 8; }

/* The bytes of a PNG file whose zlib stream takes at most zbound bytes: HEAD, the
 * stream, the IDAT's CRC, IEND, and a chunk frame for every IDAT_MAX bytes more. */
static size_t file_bound(size_t zbound) { return HEAD + zbound + 4 + 12 + 12 * (zbound / IDAT_MAX); }

/* zlib-compresses size bytes into out (rle_bound(size) bytes) in deflate blocks of
 * `block` bytes (at most BLOCK); returns the stream's size, 0 when out of memory.
 * counts: NULL, or 257 counts a block from the device (counted_block). */
static size_t rle_compress(const uint8_t *data, size_t size, uint8_t *out, size_t block, const uint32_t *counts)
{
    rle_state *st = calloc(1, sizeof *st);
    if (!st) return 0;
    for (int k = 0; k < 29; k++)
        for (int len = length_base[k]; len < (k == 28 ? MAX_RUN + 1 : length_base[k + 1]); len++)
            st->length_code[len] = (uint8_t)k;
    out[0] = 0x78; /* deflate, 32 KiB window */
    out[1] = 0x01; /* fastest, no dictionary; 0x7801 is a multiple of 31 */
    bit_writer w = {out + 2, 0, 0};
    size_t start = 0;
    do {
        size_t end = size - start > block ? start + block : size;
        put_block(&w, st, data, start, end, end == size, counts ? counts + 257 * (start / block) : NULL);
        start = end;
    } while (start < size);
    align_bits(&w);
    put32(w.p, libdeflate_adler32(1, data, size));
    free(st);
    return (size_t)(w.p + 4 - out);
}

/* The file's chunks before the image data: the signature and IHDR. */
static unsigned char *put_head(unsigned char *p, int width, int height, int channels, int bits)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static const unsigned char color_type[5] = {0, 0, 4, 2, 6}; /* by channel count */
    unsigned char ihdr[13];
    put32(ihdr, (uint32_t)width);
    put32(ihdr + 4, (uint32_t)height);
    ihdr[8] = (unsigned char)bits;
    ihdr[9] = color_type[channels];
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filtering, no interlace */
    memcpy(p, signature, 8);
    return put_chunk(p + 8, "IHDR", ihdr, sizeof ihdr);
}

/* The PNG of a zlib stream of zsize bytes at z (which p may hold): IDAT chunks of
 * at most IDAT_MAX bytes and IEND, after the head; returns the end. */
static unsigned char *put_idats(unsigned char *p, const unsigned char *z, size_t zsize)
{
    size_t off = 0;
    do { /* one IDAT, possibly empty, at least */
        size_t n = zsize - off < IDAT_MAX ? zsize - off : IDAT_MAX;
        p = put32(p, (uint32_t)n);
        memmove(p, "IDAT", 4);
        if (p + 4 != z + off) memmove(p + 4, z + off, n);
        p = put32(p + 4 + n, amp__crc32(0, p, n + 4));
        off += n;
    } while (off < zsize);
    return put_chunk(p, "IEND", NULL, 0);
}

static amp_status png_file(unsigned char *file, size_t size, unsigned char *z, size_t zsize, int width, int height,
                           int channels, int bits, unsigned char **png, size_t *png_size);

/* amp__png_encode without its trace span. */
static amp_status png_encode(const void *samples, int width, int height, int channels, int bits, int level,
                             unsigned char **png, size_t *png_size)
{
    if (level < 0 || level > 12)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "PNG compression level %d is not 0 (the default) to 12", level);
    size_t bpp = (size_t)channels * (size_t)bits / 8, row_bytes = (size_t)width * bpp;
    size_t raw_size = (size_t)height * (row_bytes + 1);
    struct libdeflate_compressor *c = level ? libdeflate_alloc_compressor(level) : NULL;
    uint8_t *raw = malloc(raw_size), *rows = malloc(3 * row_bytes), *trial = malloc(row_bytes);
    /* the file: the zlib stream is compressed into its one IDAT chunk (HEAD: the
     * signature, IHDR and the IDAT's length and type), split after if it is larger
     * than a chunk can be */
    size_t bound = c ? libdeflate_zlib_compress_bound(c, raw_size) : rle_bound(raw_size);
    size_t size = file_bound(bound);
    unsigned char *file = malloc(size);
    if ((level && !c) || !raw || !rows || !trial || !file) {
        libdeflate_free_compressor(c);
        free(raw);
        free(rows);
        free(trial);
        free(file);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for a %zu-byte PNG image", raw_size);
    }
    /* rows: a row of zeros above the first, and two rows for 16-bit samples made big-endian */
    uint8_t *zeros = rows + 2 * row_bytes;
    memset(zeros, 0, row_bytes);
    const uint8_t *src = samples, *prev = zeros;
    for (int y = 0; y < height; y++) {
        const uint8_t *cur = src + (size_t)y * row_bytes;
        if (bits == 16) {
            uint8_t *be = rows + (size_t)(y & 1) * row_bytes;
            to_big_endian(cur, row_bytes, be);
            cur = be;
        }
        filter_best(cur, prev, row_bytes, bpp, FILTERS, raw + (size_t)y * (row_bytes + 1), trial);
        prev = cur;
    }
    free(rows);
    free(trial);

    unsigned char *z = file + HEAD;
    size_t zsize = c ? libdeflate_zlib_compress(c, raw, raw_size, z, bound) : rle_compress(raw, raw_size, z, BLOCK, NULL);
    libdeflate_free_compressor(c);
    free(raw);
    return png_file(file, size, z, zsize, width, height, channels, bits, png, png_size);
}

/* The PNG file around the zlib stream z (zsize bytes; 0: compressing failed) that lies
 * at HEAD in file (size bytes): its head, IDAT chunks and IEND, into *png. */
static amp_status png_file(unsigned char *file, size_t size, unsigned char *z, size_t zsize, int width, int height,
                           int channels, int bits, unsigned char **png, size_t *png_size)
{
    if (!zsize) {
        free(file);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory compressing a %dx%d PNG image", width, height);
    }
    unsigned char *end;
    put_head(file, width, height, channels, bits);
    if (zsize <= IDAT_MAX) {
        end = put_idats(file + HEAD - 8, z, zsize);
    } else { /* chunk headers go between the pieces: from a copy */
        unsigned char *copy = malloc(zsize);
        if (!copy) {
            free(file);
            return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for a %zu-byte PNG file", size);
        }
        memcpy(copy, z, zsize);
        end = put_idats(file + HEAD - 8, copy, zsize);
        free(copy);
    }
    *png_size = (size_t)(end - file);
    unsigned char *fit = realloc(file, *png_size);
    *png = fit ? fit : file;
    return AMP_OK;
}

amp_status amp__png_encode(const void *samples, int width, int height, int channels, int bits, int level,
                           unsigned char **png, size_t *png_size)
{
    uint64_t span = amp__trace_begin();
    amp_status st = png_encode(samples, width, height, channels, bits, level, png, png_size);
    amp__trace_end(span, "file", "PNG encode", NULL);
    return st;
}

amp_status amp__png_encode_filtered(const uint8_t *stream, size_t stream_bytes, const uint32_t *counts, size_t block,
                                    int width, int height, int channels, int bits, unsigned char **png,
                                    size_t *png_size)
{
    if (block == 0 || block > BLOCK)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "PNG blocks of %zu bytes (1 to %zu)", block, BLOCK);
    uint64_t span = amp__trace_begin();
    size_t size = file_bound(rle_bound(stream_bytes));
    unsigned char *file = malloc(size);
    amp_status st = file ? png_file(file, size, file + HEAD,
                                    rle_compress(stream, stream_bytes, file + HEAD, block, counts), width, height,
                                    channels, bits, png, png_size)
                         : amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for a %dx%d PNG file", width, height);
    amp__trace_end(span, "file", "PNG encode", NULL);
    return st;
}
