/* TIFF files through libtiff 4.5, in memory both ways (TIFFClientOpenExt over a byte
 * buffer). Only the first image (IFD 0) is read. 8- and 16-bit unsigned and 32-bit
 * float samples of gray, gray + alpha, RGB and RGBA (MinIsBlack, MinIsWhite inverted,
 * RGB; contiguous or separate planes; strips or tiles; any compression libtiff has,
 * with or without a predictor) decode straight into the image at their own depth.
 * The extra sample after the colors is alpha, returned as stored: associated
 * (premultiplied) alpha is not divided out, as cv2.imread and tifffile return it, and a
 * 4-sample RGB or 2-sample gray file without ExtraSamples (OpenCV writes them so) has
 * alpha too. LogLuv files (cv2.imwrite's 3-channel floats, SGILOG) decode to float XYZ,
 * turned to linear RGB with OpenCV's matrix; LogL to float gray. Everything else libtiff
 * can render (palettes, 1/2/4-bit gray, YCbCr and JPEG, CMYK, 12-bit...) comes through
 * TIFFReadRGBAImageOriented as 8-bit gray, RGB or RGBA (libtiff premultiplies unassociated
 * alpha there); the rest fails naming the photometric, bits and sample format. The
 * Orientation tag is applied as cv2.imread applies it (and as JPEG's EXIF one), unless
 * the load asks not to.
 *
 * A tiny file can claim a huge image whose strips or tiles all point at the same few
 * bytes, so before decoding every strip's (tile's) bytes must lie within the file, and
 * the image must fit in the sum of their byte counts at the densest ratio of the
 * compression. libtiff's messages are recorded per handle (never printed; the first
 * error is the reason given) and no allocation of libtiff's may exceed 256 MiB.
 *
 * Written: contiguous strips of about 64 KiB, gray / gray + alpha / RGB / RGBA
 * (ExtraSamples unassociated alpha, as the specification asks; OpenCV writes none, and
 * cv2.imread premultiplies 8-bit RGBA that has it), 8 and 16-bit unsigned or 32-bit IEEE
 * floats, with no compression, LZW or Adobe deflate; LZW and deflate with the horizontal predictor for
 * integers and the floating-point one for floats. DEFAULT is OpenCV 4.6's cv2.imwrite
 * default: LZW with the horizontal predictor for 8 and 16 bits, none for floats (OpenCV
 * writes 3-channel floats as lossy LogLuv; ampvk keeps them exact). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

#include "image/image_internal.h"

#define MAX_LIBTIFF_ALLOC ((tmsize_t)256 << 20) /* libtiff's largest allocation */
#define MAX_RGBA_BYTES ((uint64_t)1 << 30)       /* the RGBA raster of the rendered path */
#define MAX_CHUNK_BYTES ((uint64_t)256 << 20)    /* one decoded tile or plane strip */
#define STRIP_BYTES 65536                        /* the strips written */

/* A file in memory that libtiff reads (data, size bytes) or writes (out), and the
 * position; the first libtiff error message. */
typedef struct tiff_io {
    const unsigned char *data;
    size_t size, pos;
    amp__bytes out;
    bool writing, no_memory;
    int errors;
    char error[256];
} tiff_io;

/* The file's bytes and length, read or written so far. */
static const unsigned char *io_bytes(const tiff_io *io)
{
    return io->writing ? (const unsigned char *)io->out.data : io->data;
}

static size_t io_length(const tiff_io *io) { return io->writing ? io->out.n : io->size; }

static tmsize_t io_read(thandle_t h, void *buf, tmsize_t n)
{
    tiff_io *io = h;
    size_t size = io_length(io);
    if (n <= 0 || io->pos >= size) return 0;
    size_t k = size - io->pos < (size_t)n ? size - io->pos : (size_t)n;
    memcpy(buf, io_bytes(io) + io->pos, k);
    io->pos += k;
    return (tmsize_t)k;
}

/* Writes at the position, growing the buffer and zero-filling a gap a seek past the
 * end left. */
static tmsize_t io_write(thandle_t h, void *buf, tmsize_t n)
{
    tiff_io *io = h;
    if (!io->writing || n < 0) return -1;
    amp__bytes_put_at(&io->out, io->pos, buf, (size_t)n);
    if (io->out.failed) {
        io->no_memory = true;
        return -1;
    }
    io->pos += (size_t)n;
    return n;
}

static toff_t io_seek(thandle_t h, toff_t off, int whence)
{
    tiff_io *io = h;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? io->pos : io_length(io);
    uint64_t at = base + off; /* a negative offset arrives wrapped */
    if (at > (uint64_t)INT64_MAX || at > SIZE_MAX / 2) return (toff_t)-1;
    io->pos = (size_t)at;
    return at;
}

static int io_close(thandle_t h)
{
    (void)h;
    return 0;
}

static toff_t io_size(thandle_t h) { return io_length(h); }

/* Reading maps the buffer: libtiff decodes the strips where they lie. */
static int io_map(thandle_t h, void **base, toff_t *size)
{
    tiff_io *io = h;
    if (io->writing) return 0;
    *base = (void *)io->data;
    *size = io->size;
    return 1;
}

static void io_unmap(thandle_t h, void *base, toff_t size)
{
    (void)h, (void)base, (void)size;
}

/* libtiff's error handler: the first message kept, nothing printed. */
static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    (void)tif, (void)module;
    tiff_io *io = user;
    if (!io->errors++) vsnprintf(io->error, sizeof io->error, fmt, ap);
    return 1;
}

/* Warnings (unknown tags and the like) are dropped. */
static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    (void)tif, (void)user, (void)module, (void)fmt, (void)ap;
    return 1;
}

/* libtiff on io with the handlers above; NULL if it does not open (io->error says why). */
static TIFF *open_tiff(const char *name, const char *mode, tiff_io *io)
{
    TIFFOpenOptions *opts = TIFFOpenOptionsAlloc();
    if (!opts) {
        io->no_memory = true;
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(opts, on_error, io);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, on_warning, io);
    TIFFOpenOptionsSetMaxSingleMemAlloc(opts, MAX_LIBTIFF_ALLOC);
    TIFF *tif = TIFFClientOpenExt(name, mode, io, io_read, io_write, io_seek, io_close, io_size, io_map, io_unmap,
                                  opts);
    TIFFOpenOptionsFree(opts);
    return tif;
}

/* How the image decodes. */
typedef enum tiff_path { PATH_DIRECT, PATH_LOGLUV, PATH_RGBA } tiff_path;

typedef struct tiff_state {
    tiff_io io;
    TIFF *tif;
    tiff_path path;
    uint32_t width, height;
    uint16_t spp, bps, planar, photometric, compression;
    uint16_t stored_orientation; /* the tag, 1..8 (1 when absent or out of range) */
    int orientation;             /* applied: the tag, or 1 when the load ignores it */
    int channels, bits;          /* as decoded */
} tiff_state;

static bool tiff_sniff(const unsigned char *d, size_t n)
{
    return n >= 4 && ((d[0] == 'I' && d[1] == 'I' && (d[2] == 42 || d[2] == 43) && d[3] == 0) ||
                      (d[0] == 'M' && d[1] == 'M' && d[2] == 0 && (d[3] == 42 || d[3] == 43)));
}

/* Whether libtiff's message says the data ended early. */
static bool says_truncated(const char *why)
{
    static const char *const words[] = {"end of file", "EOF", "Read error", "read error", "Cannot read",
                                        "Not enough data", "past end", "short", "Can not read",
                                        "IO error"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(why, words[i])) return true;
    return false;
}

/* A libtiff failure as ampvk's error: out of memory, truncated or corrupt, with
 * libtiff's reason. */
static amp_status lib_fail(const amp__file *f, const tiff_io *io, const char *what)
{
    if (io->no_memory) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    const char *why = io->errors ? io->error : "no reason given";
    return amp__fail(AMP_ERROR_FORMAT, "%s: %s is %s: %s (libtiff: %s)", f->who, f->path,
                     says_truncated(why) ? "truncated" : "corrupt", what, why);
}

static void tiff_close(void *state)
{
    tiff_state *s = state;
    if (!s) return;
    if (s->tif) TIFFClose(s->tif);
    free(s);
}

/* The most bytes one byte of a strip compressed this way decodes to (an upper bound;
 * rowbytes: the bytes of a decoded row, for the fax codes' one bit a row). */
static uint64_t densest_ratio(uint16_t compression, uint64_t rowbytes)
{
    switch (compression) {
    case COMPRESSION_NONE: return 1;
    case COMPRESSION_PACKBITS: return 64;             /* 2 bytes repeat one 128 times */
    case COMPRESSION_LZW: return 4096;                /* a 12-bit code, a string of at most 4096 bytes */
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE: return 1032;            /* deflate's limit */
    case COMPRESSION_JPEG:
    case COMPRESSION_OJPEG: return 2048;              /* 64 pixels of 4 bytes at most per bit */
    case COMPRESSION_SGILOG:
    case COMPRESSION_SGILOG24: return 1536;           /* a run of 128 of one byte of 4 (12 bytes decoded) */
    case COMPRESSION_CCITTRLE:
    case COMPRESSION_CCITTRLEW:
    case COMPRESSION_CCITTFAX3:
    case COMPRESSION_CCITTFAX4: return 8 * (rowbytes + 1); /* a row in one bit */
    default: return 1u << 20;                         /* others (ZSTD, LZMA...): the size limits only */
    }
}

static const char *compression_name(uint16_t c)
{
    const TIFFCodec *codec = TIFFFindCODEC(c);
    return codec ? codec->name : "unknown";
}

static amp_status tiff_open(const amp__file *f, amp_image *head, void **state)
{
    tiff_state *s = calloc(1, sizeof *s);
    if (!s) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    s->io.data = f->data;
    s->io.size = f->size;
    *state = s;
    if (!(s->tif = open_tiff(f->path, "r", &s->io))) return lib_fail(f, &s->io, "its header does not read");
    TIFF *tif = s->tif;
    uint16_t format = SAMPLEFORMAT_UINT, extras = 0, *extra_types = NULL;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &s->width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &s->height);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &s->bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &s->spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &s->planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &s->compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extras, &extra_types);
    uint16_t orientation = ORIENTATION_TOPLEFT;
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &orientation);
    s->stored_orientation = orientation >= 1 && orientation <= 8 ? orientation : ORIENTATION_TOPLEFT;
    s->orientation = f->desc->ignore_orientation ? 1 : s->stored_orientation;
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &s->photometric))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: it has no PhotometricInterpretation tag", f->who,
                         f->path);
    if (s->width < 1 || s->height < 1)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its image is %ux%u", f->who, f->path, s->width,
                         s->height);
    if (!TIFFIsCODECConfigured(s->compression))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s: TIFF compression %u (%s) is not supported by this libtiff",
                         f->who, f->path, s->compression, compression_name(s->compression));
    uint16_t pm = s->photometric, spp = s->spp;
    bool gray = pm == PHOTOMETRIC_MINISBLACK || pm == PHOTOMETRIC_MINISWHITE;
    bool depth_ok = ((s->bps == 8 || s->bps == 16) && format == SAMPLEFORMAT_UINT) ||
                    (s->bps == 32 && format == SAMPLEFORMAT_IEEEFP);
    bool log = (pm == PHOTOMETRIC_LOGLUV && spp == 3) || (pm == PHOTOMETRIC_LOGL && spp == 1);
    if (log && (s->compression == COMPRESSION_SGILOG || s->compression == COMPRESSION_SGILOG24) &&
        s->planar == PLANARCONFIG_CONTIG) {
        /* floats: X, Y, Z (Y for LogL) */
        if (!TIFFSetField(tif, TIFFTAG_SGILOGDATAFMT, SGILOGDATAFMT_FLOAT))
            return lib_fail(f, &s->io, "its LogLuv data cannot be read as floats");
        s->path = PATH_LOGLUV;
        s->bps = 32;
        s->channels = spp;
        s->bits = 32;
    } else if (depth_ok && ((gray && (spp == 1 || spp == 2)) || (pm == PHOTOMETRIC_RGB && (spp == 3 || spp == 4)))) {
        s->path = PATH_DIRECT;
        s->channels = spp;
        s->bits = s->bps;
    } else {
        char why[1024];
        if (!TIFFRGBAImageOK(tif, why))
            return amp__fail(AMP_ERROR_FORMAT,
                             "%s: %s: TIFF of photometric %u, %u samples per pixel of %u bits in sample format %u "
                             "is not supported (libtiff: %s)",
                             f->who, f->path, pm, spp, s->bps, format, why);
        bool alpha = false;
        for (uint16_t i = 0; i < extras && extra_types; i++)
            alpha |= extra_types[i] == EXTRASAMPLE_ASSOCALPHA || extra_types[i] == EXTRASAMPLE_UNASSALPHA;
        s->path = PATH_RGBA;
        s->channels = alpha ? 4 : gray ? 1 : 3;
        s->bits = 8;
    }
    bool turned = s->orientation >= 5; /* a transpose: width and height trade places */
    *head = (amp_image){(int)(turned ? s->height : s->width), (int)(turned ? s->width : s->height), s->channels,
                        s->bits, 0, NULL, AMP_IMAGE_FORMAT_TIFF};
    return AMP_OK;
}

/* Every strip (tile) within the file, and the image no larger than their byte counts
 * can decode to: the check against strips that all point at the same bytes. */
static amp_status check_chunks(const amp__file *f, tiff_state *s)
{
    TIFF *tif = s->tif;
    bool tiled = TIFFIsTiled(tif);
    const char *kind = tiled ? "tile" : "strip";
    uint32_t n = tiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        int err = 0;
        uint64_t at = TIFFGetStrileOffsetWithErr(tif, i, &err);
        uint64_t count = err ? 0 : TIFFGetStrileByteCountWithErr(tif, i, &err);
        if (err) return lib_fail(f, &s->io, "its strip offsets do not read");
        if (count > f->size || at > f->size - count)
            return amp__fail(AMP_ERROR_FORMAT,
                             "%s: %s is truncated: %s %u of %llu bytes at offset %llu lies past its end (%zu bytes)",
                             f->who, f->path, kind, i, (unsigned long long)count, (unsigned long long)at, f->size);
        sum += count;
    }
    /* the bytes decoded: whole tiles, or the strips' rows */
    uint64_t row = TIFFScanlineSize64(tif), planes = s->planar == PLANARCONFIG_SEPARATE ? s->spp : 1;
    uint64_t decoded = tiled ? TIFFTileSize64(tif) * n : row * s->height * planes;
    if (row == 0 || (tiled && TIFFTileSize64(tif) == 0)) return lib_fail(f, &s->io, "its rows have no size");
    uint64_t ratio = densest_ratio(s->compression, row), most = sum > UINT64_MAX / ratio ? UINT64_MAX : sum * ratio;
    if (decoded > most)
        return amp__fail(AMP_ERROR_FORMAT,
                         "%s: %s is truncated: its %ux%u image is %llu bytes but its %u %ss hold %llu bytes of %s "
                         "data, which decode to %llu at most",
                         f->who, f->path, s->width, s->height, (unsigned long long)decoded, n, kind,
                         (unsigned long long)sum, compression_name(s->compression), (unsigned long long)most);
    if (tiled && TIFFTileSize64(tif) > MAX_CHUNK_BYTES)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its tiles of %llu bytes are larger than ampvk reads",
                         f->who, f->path, (unsigned long long)TIFFTileSize64(tif));
    return AMP_OK;
}

/* One strip or tile decoded into buf of n bytes; the whole of it must come. */
static amp_status read_chunk(const amp__file *f, tiff_state *s, bool tiled, uint32_t i, void *buf, tmsize_t n)
{
    tmsize_t got = tiled ? TIFFReadEncodedTile(s->tif, i, buf, n) : TIFFReadEncodedStrip(s->tif, i, buf, n);
    if (got == n) return AMP_OK;
    if (got >= 0 && !s->io.errors)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: %s %u decodes to %lld bytes of %lld", f->who, f->path,
                         tiled ? "tile" : "strip", i, (long long)got, (long long)n);
    char what[64];
    snprintf(what, sizeof what, "%s %u does not decode", tiled ? "tile" : "strip", i);
    return lib_fail(f, &s->io, what);
}

/* The samples of a decoded strip/tile (rows x cols of one plane, `pitch` bytes a row in
 * src) into plane p of the interleaved image at (x, y); b bytes a sample. */
static void scatter(uint8_t *px, uint32_t width, int spp, int b, uint32_t x, uint32_t y, const uint8_t *src,
                    size_t pitch, uint32_t cols, uint32_t rows, int p)
{
    size_t step = (size_t)spp * (size_t)b;
    for (uint32_t r = 0; r < rows; r++) {
        uint8_t *d = px + (((size_t)(y + r) * width + x) * (size_t)spp + (size_t)p) * (size_t)b;
        const uint8_t *q = src + r * pitch;
        switch (b) {
        case 1:
            for (uint32_t c = 0; c < cols; c++) d[c * step] = q[c];
            break;
        case 2:
            for (uint32_t c = 0; c < cols; c++) memcpy(d + c * step, q + 2 * c, 2);
            break;
        default:
            for (uint32_t c = 0; c < cols; c++) memcpy(d + c * step, q + 4 * c, 4);
            break;
        }
    }
}

/* The samples of the image at their own depth into px (width x height x spp), strips or
 * tiles, contiguous or separate planes. Contiguous strips decode in place. */
static amp_status read_samples(const amp__file *f, tiff_state *s, uint8_t *px)
{
    TIFF *tif = s->tif;
    int spp = s->spp, b = s->bps / 8;
    bool separate = s->planar == PLANARCONFIG_SEPARATE && spp > 1, tiled = TIFFIsTiled(tif);
    int planes = separate ? spp : 1, per = separate ? 1 : spp; /* samples a texel in a chunk */
    size_t texel = (size_t)per * (size_t)b, rowbytes = (size_t)s->width * (size_t)spp * (size_t)b;
    uint32_t cw = s->width, ch = 0; /* the chunk's size */
    if (tiled) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &cw);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &ch);
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &ch);
        if (ch == 0 || ch > s->height) ch = s->height;
    }
    if (cw == 0 || ch == 0) return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its tiles are %ux%u", f->who,
                                             f->path, cw, ch);
    if (!tiled && !separate) { /* straight into the image */
        for (uint32_t y = 0; y < s->height; y += ch) {
            uint32_t rows = s->height - y < ch ? s->height - y : ch;
            amp_status st = read_chunk(f, s, false, TIFFComputeStrip(tif, y, 0), px + (size_t)y * rowbytes,
                                       (tmsize_t)(rows * rowbytes));
            if (st != AMP_OK) return st;
        }
        return AMP_OK;
    }
    size_t pitch = (size_t)cw * texel, chunk = tiled ? (size_t)TIFFTileSize64(tif) : pitch * ch;
    if (tiled && chunk < pitch * ch)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its %ux%u tiles are %zu bytes", f->who, f->path, cw,
                         ch, chunk);
    uint8_t *buf = malloc(chunk);
    if (!buf) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    amp_status st = AMP_OK;
    for (int p = 0; p < planes && st == AMP_OK; p++)
        for (uint32_t y = 0; y < s->height && st == AMP_OK; y += ch)
            for (uint32_t x = 0; x < s->width && st == AMP_OK; x += cw) {
                uint32_t rows = s->height - y < ch ? s->height - y : ch, cols = s->width - x < cw ? s->width - x : cw;
                uint32_t i = tiled ? TIFFComputeTile(tif, x, y, 0, (uint16_t)p) : TIFFComputeStrip(tif, y, (uint16_t)p);
                st = read_chunk(f, s, tiled, i, buf, tiled ? (tmsize_t)chunk : (tmsize_t)(pitch * rows));
                if (st != AMP_OK) break;
                if (separate) {
                    scatter(px, s->width, spp, b, x, y, buf, pitch, cols, rows, p);
                } else {
                    for (uint32_t r = 0; r < rows; r++)
                        memcpy(px + (size_t)(y + r) * rowbytes + (size_t)x * texel, buf + r * pitch, cols * texel);
                }
            }
    free(buf);
    return st;
}

/* MinIsWhite's gray (not its alpha) turned to MinIsBlack: max - v, floats 1 - v. */
static void invert_gray(uint8_t *px, size_t texels, int spp, int bits)
{
    for (size_t i = 0; i < texels; i++) {
        size_t at = i * (size_t)spp;
        if (bits == 8) {
            px[at] = (uint8_t)(255 - px[at]);
        } else if (bits == 16) {
            uint16_t *p = (uint16_t *)px + at;
            *p = (uint16_t)(65535 - *p);
        } else {
            float *p = (float *)px + at;
            *p = 1.0f - *p;
        }
    }
}

/* LogLuv's float XYZ to linear RGB in place, as OpenCV's cvtColor(COLOR_XYZ2BGR) does
 * (its sRGB D65 matrix in floats). */
static void xyz_to_rgb(float *px, size_t texels)
{
    static const float m[9] = {3.240479f,  -1.53715f, -0.498535f, -0.969256f, 1.875991f,
                               0.041556f, 0.055648f, -0.204043f, 1.057311f};
    for (size_t i = 0; i < texels; i++) {
        float *p = px + 3 * i, x = p[0], y = p[1], z = p[2];
        p[0] = x * m[0] + y * m[1] + z * m[2];
        p[1] = x * m[3] + y * m[4] + z * m[5];
        p[2] = x * m[6] + y * m[7] + z * m[8];
    }
}

/* The rendered path: libtiff's 8-bit RGBA in the order stored (asked for the file's own
 * orientation, libtiff flips nothing), narrowed in place to the channels open gave
 * (gray: red; RGB; RGBA). */
static amp_status read_rgba(const amp__file *f, tiff_state *s, uint8_t **out)
{
    size_t texels = (size_t)s->width * s->height;
    if ((uint64_t)texels * 4 > MAX_RGBA_BYTES)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is too large for libtiff's RGBA rendering",
                         f->who, f->path, s->width, s->height);
    uint32_t *raster = malloc(texels * 4);
    if (!raster) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    if (!TIFFReadRGBAImageOriented(s->tif, s->width, s->height, raster, s->stored_orientation, 1) || s->io.errors) {
        free(raster);
        return lib_fail(f, &s->io, "its image does not decode");
    }
    uint8_t *px = (uint8_t *)raster;
    int n = s->channels;
    for (size_t i = 0; i < texels; i++) {
        uint32_t v = raster[i];
        uint8_t c[4] = {(uint8_t)TIFFGetR(v), (uint8_t)TIFFGetG(v), (uint8_t)TIFFGetB(v), (uint8_t)TIFFGetA(v)};
        memcpy(px + i * (size_t)n, c, (size_t)n);
    }
    *out = px;
    return AMP_OK;
}

static amp_status tiff_decode(const amp__file *f, void *state, const amp_image *head, int channels,
                              amp__host_image *out)
{
    (void)channels;
    tiff_state *s = state;
    amp_status st = check_chunks(f, s);
    if (st != AMP_OK) return st;
    uint8_t *px = NULL;
    size_t texels = (size_t)s->width * s->height;
    if (s->path == PATH_RGBA) {
        st = read_rgba(f, s, &px);
    } else {
        if (!(px = malloc(texels * (size_t)s->spp * (size_t)(s->bps / 8))))
            return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
        st = read_samples(f, s, px);
        if (st == AMP_OK && s->path == PATH_LOGLUV && s->spp == 3) xyz_to_rgb((float *)px, texels);
        if (st == AMP_OK && s->photometric == PHOTOMETRIC_MINISWHITE) invert_gray(px, texels, s->spp, s->bps);
    }
    if (st == AMP_OK)
        st = amp__orient(f->who, f->path, &px, (int)s->width, (int)s->height,
                         (size_t)s->channels * (size_t)(s->bits / 8), s->orientation);
    if (st != AMP_OK) {
        free(px);
        return st;
    }
    *out = (amp__host_image){head->width, head->height, s->channels, s->bits, px, false};
    return AMP_OK;
}

/* ---- writing ---- */

static amp_status tiff_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                              unsigned char **data, size_t *size)
{
    static const char *const names[] = {"DEFAULT", "NONE", "RLE", "DEFLATE", "LZW", "PIZ"};
    uint16_t compression;
    switch (d->compression) {
    case AMP_IMAGE_COMPRESSION_DEFAULT: compression = bits == 32 ? COMPRESSION_NONE : COMPRESSION_LZW; break;
    case AMP_IMAGE_COMPRESSION_NONE: compression = COMPRESSION_NONE; break;
    case AMP_IMAGE_COMPRESSION_LZW: compression = COMPRESSION_LZW; break;
    case AMP_IMAGE_COMPRESSION_DEFLATE: compression = COMPRESSION_ADOBE_DEFLATE; break;
    default:
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: a TIFF file is written with compression DEFAULT, NONE, LZW or DEFLATE, not %s", who,
                         names[d->compression]);
    }
    void *owned = NULL;
    const uint8_t *px = amp__image_packed(img, bits, &owned);
    if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    uint32_t w = (uint32_t)img->width, h = (uint32_t)img->height;
    uint16_t spp = (uint16_t)img->channels;
    size_t rowbytes = (size_t)w * spp * (size_t)(bits / 8);
    uint32_t rps = rowbytes >= STRIP_BYTES ? 1 : (uint32_t)(STRIP_BYTES / rowbytes);
    if (rps > h) rps = h;
    tiff_io io = {.writing = true};
    /* room for the file at once (LZW grows noise by a fifth; pages never written cost nothing) */
    io.out.cap = rowbytes * h + rowbytes * h / 4 + (size_t)(h / rps + 1) * 16 + 4096;
    if (!(io.out.data = malloc(io.out.cap))) {
        free(owned);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    TIFF *tif = open_tiff("memory", "w", &io);
    bool ok = tif != NULL;
    if (ok) {
        uint16_t alpha = EXTRASAMPLE_UNASSALPHA;
        ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, w) && TIFFSetField(tif, TIFFTAG_IMAGELENGTH, h) &&
             TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, spp) && TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits) &&
             TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, bits == 32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT) &&
             TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK) &&
             TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
             TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rps) && TIFFSetField(tif, TIFFTAG_COMPRESSION, compression) &&
             (spp % 2 || TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &alpha)) &&
             (compression == COMPRESSION_NONE ||
              TIFFSetField(tif, TIFFTAG_PREDICTOR, bits == 32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL));
        /* libtiff's encoders copy before the predictor changes the samples */
        for (uint32_t y = 0, strip = 0; ok && y < h; y += rps, strip++) {
            uint32_t rows = h - y < rps ? h - y : rps;
            ok = TIFFWriteEncodedStrip(tif, strip, (void *)(px + (size_t)y * rowbytes), (tmsize_t)(rows * rowbytes)) >= 0;
        }
        ok = ok && TIFFWriteDirectory(tif);
        TIFFClose(tif);
    }
    free(owned);
    if (!ok || io.errors || io.no_memory) {
        free(io.out.data);
        if (io.no_memory || !io.errors) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: cannot encode a %ux%u TIFF: %s", who, w, h, io.error);
    }
    char *fit = realloc(io.out.data, io.out.n); /* the room not used handed back */
    *data = (unsigned char *)(fit ? fit : io.out.data);
    *size = io.out.n;
    return AMP_OK;
}

const amp__codec amp__codec_tiff = {
    .format = AMP_IMAGE_FORMAT_TIFF, .name = "tiff", .title = "TIFF", .extensions = "tif tiff",
    .densest = 8 * 4096, /* 1-bit pixels, LZW's 4096 bytes from a code (fax codes of blank rows: more) */
    .save_bits = AMP__BITS(8) | AMP__BITS(16) | AMP__BITS(32),
    .sniff = tiff_sniff, .open = tiff_open, .decode = tiff_decode, .close = tiff_close, .encode = tiff_encode,
};
