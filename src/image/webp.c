/* WebP files through libwebp (1.2.4): lossy (VP8) and lossless (VP8L) images, with
 * or without alpha (VP8X with ALPH), in; lossy at a quality or lossless out.
 *
 * Reading: libwebp decodes straight into the image's buffer, RGB (3 channels) or,
 * when the file has alpha, RGBA (4); a truncated or corrupt stream is an error (each
 * VP8StatusCode mapped to a reason), never a partly decoded image. Animated files
 * (VP8X with ANMF frames) are refused, naming their frame count, as cv2.imread 4.6
 * refuses them. libwebp keeps no global state and never prints, so it needs no
 * handlers. Hostile headers: lossless data can hold any number of pixels in a few
 * bytes (prefix codes of one symbol cost no bits a pixel), so the table's `densest`
 * only stops files too short to hold a lossless header; lossy data needs more than
 * 3 bits a 16 x 16 macroblock (its modes, at the key frame's fixed probabilities),
 * which open checks against the VP8 chunk's length before anything is allocated.
 *
 * Writing: libwebp's advanced API (WebPConfig, WebPPicture, a writer of our own), so
 * that failures come with libwebp's WebPEncodingError and nothing is left allocated.
 * Lossy at desc->quality (0: 90, as JPEG), or lossless (desc->lossless) with
 * desc->quality libwebp's effort (0: 70, WebPEncodeLossless's and cv2.imwrite's
 * default) and the colors under transparent pixels kept, so lossless round trips
 * are exact. Gray is written as RGB, gray + alpha as RGBA; 8 bits only. */
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>

#include "image/image_internal.h"

/* The largest side of a WebP image (VP8's 14 bits; VP8L has 16384 but libwebp's
 * encoder takes 16383 at most). */
#define WEBP_SIDE 16383

/* The fewest bits a lossy macroblock takes, rounded down: its 16x16 luma mode (DC:
 * 2.57 bits at the key frame's fixed probabilities 145, 156, 163; 4x4 modes: 0.82
 * + 16 x 0.148) and its chroma mode (0.85 bits), skip and segment flags at best ~0. */
#define LOSSY_MB_BITS 3

/* The smallest lossless file: 20 bytes of RIFF and chunk headers, the 5-byte VP8L
 * header and 23 bits (no transform, no color cache, no meta codes, five one-symbol
 * prefix codes); every pixel of its largest image, 16384 x 16384, then costs 0 bits. */
#define SMALLEST_LOSSLESS 28

static bool webp_sniff(const unsigned char *d, size_t n)
{
    return n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0;
}

static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* The chunks of a RIFF file in memory after its 12-byte header, within the RIFF
 * size and the file: the number of ANMF frames, and the size of the first VP8
 * chunk (where there is none, libwebp takes a bare VP8 stream after the header: the
 * file's size). Each step moves past a chunk, so n bytes take at most n / 8 steps. */
static void walk_chunks(const unsigned char *d, size_t n, uint32_t *frames, size_t *vp8_size)
{
    size_t end = n, at = 12;
    uint64_t riff = (uint64_t)le32(d + 4) + 8;
    if (riff < end) end = (size_t)riff;
    bool found = false;
    *frames = 0;
    *vp8_size = 0;
    while (at + 8 <= end) {
        uint64_t size = le32(d + at + 4);
        if (memcmp(d + at, "ANMF", 4) == 0) (*frames)++;
        if (!found && memcmp(d + at, "VP8 ", 4) == 0) {
            found = true;
            *vp8_size = (size_t)(size < end - at - 8 ? size : end - at - 8);
        }
        at += 8 + (size_t)((size + 1) & ~(uint64_t)1);
        if (at > end) break;
    }
    if (!found) *vp8_size = n;
}

/* A libwebp status as ampvk's error: truncated where the data ends early, else
 * corrupt with the reason the status stands for. */
static amp_status webp_fail(const amp__file *f, VP8StatusCode st, const char *what)
{
    switch (st) {
    case VP8_STATUS_OUT_OF_MEMORY:
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    case VP8_STATUS_NOT_ENOUGH_DATA:
    case VP8_STATUS_SUSPENDED:
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: %s (libwebp: not enough data)", f->who, f->path,
                         what);
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (libwebp: an unsupported feature)", f->who,
                         f->path, what);
    case VP8_STATUS_INVALID_PARAM:
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (libwebp: invalid parameters)", f->who, f->path,
                         what);
    case VP8_STATUS_USER_ABORT:
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (libwebp: aborted)", f->who, f->path, what);
    default: /* VP8_STATUS_BITSTREAM_ERROR */
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (libwebp: bitstream error)", f->who, f->path,
                         what);
    }
}

static void webp_close(void *state) { (void)state; }

/* The header (RIFF, VP8X, the VP8 or VP8L frame header) through WebPGetFeatures;
 * animations refused; a lossy image's size checked against its VP8 chunk. */
static amp_status webp_open(const amp__file *f, amp_image *head, void **state)
{
    WebPBitstreamFeatures ft;
    VP8StatusCode st = WebPGetFeatures(f->data, f->size, &ft);
    if (st != VP8_STATUS_OK) return webp_fail(f, st, "its header does not read");
    uint32_t frames;
    size_t vp8_size;
    walk_chunks(f->data, f->size, &frames, &vp8_size);
    if (ft.has_animation)
        return amp__fail(AMP_ERROR_FORMAT,
                         "%s: %s is an animated WebP of %u frame%s; ampvk reads still WebP images only (as cv2.imread)",
                         f->who, f->path, frames, frames == 1 ? "" : "s");
    if (ft.width < 1 || ft.height < 1)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its image is %dx%d", f->who, f->path, ft.width,
                         ft.height);
    if (ft.format == 1) { /* lossy: the modes of every macroblock are in the VP8 chunk */
        uint64_t mbs = (uint64_t)((ft.width + 15) / 16) * (uint64_t)((ft.height + 15) / 16);
        uint64_t most = ((uint64_t)vp8_size * 8 + 64) / LOSSY_MB_BITS; /* 64: the arithmetic coder's slack */
        if (mbs > most)
            return amp__fail(AMP_ERROR_FORMAT,
                             "%s: %s is truncated: its header claims %dx%d pixels (%llu macroblocks) but its lossy "
                             "data of %zu bytes holds %llu at most",
                             f->who, f->path, ft.width, ft.height, (unsigned long long)mbs, vp8_size,
                             (unsigned long long)most);
    }
    *head = (amp_image){ft.width, ft.height, ft.has_alpha ? 4 : 3, 8, 0, NULL, AMP_IMAGE_FORMAT_WEBP};
    *state = NULL; /* decode needs only the header */
    return AMP_OK;
}

/* Decodes into a buffer of our own, RGB or RGBA as asked (1 and 3 channels: RGB,
 * 2 and 4: RGBA; alpha 255 where the file has none). The lossy decoder's
 * filtering runs on a second thread; the pixels are the same either way. */
static amp_status webp_decode(const amp__file *f, void *state, const amp_image *head, int channels,
                              amp__host_image *out)
{
    (void)state;
    int n = channels == 2 || channels == 4 ? 4 : 3;
    size_t stride = (size_t)head->width * (size_t)n, size = stride * (size_t)head->height;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config))
        return amp__fail(AMP_ERROR_UNSUPPORTED, "%s: %s: libwebp's decoder does not start (a version mismatch)", f->who,
                         f->path);
    uint8_t *px = malloc(size);
    if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    config.options.use_threads = 1;
    config.output.colorspace = n == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = px;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = size;
    VP8StatusCode st = WebPDecode(f->data, f->size, &config);
    WebPFreeDecBuffer(&config.output); /* frees nothing of ours; releases what libwebp kept */
    if (st != VP8_STATUS_OK) {
        free(px);
        return webp_fail(f, st, "its image data does not decode");
    }
    *out = (amp__host_image){head->width, head->height, n, 8, px, false};
    return AMP_OK;
}

/* ---- encoding ---- */

/* A growing malloc'ed buffer that libwebp writes the file into. */
typedef struct webp_sink {
    unsigned char *data;
    size_t size, capacity;
    bool out_of_memory;
} webp_sink;

static int sink_write(const uint8_t *data, size_t n, const WebPPicture *pic)
{
    webp_sink *s = pic->custom_ptr;
    if (n > s->capacity - s->size) {
        size_t cap = s->capacity ? s->capacity : 64 * 1024;
        while (cap - s->size < n) {
            if (cap > SIZE_MAX / 2) {
                s->out_of_memory = true;
                return 0;
            }
            cap *= 2;
        }
        unsigned char *p = realloc(s->data, cap);
        if (!p) {
            s->out_of_memory = true;
            return 0;
        }
        s->data = p;
        s->capacity = cap;
    }
    if (n) memcpy(s->data + s->size, data, n);
    s->size += n;
    return 1;
}

/* libwebp's encoding errors, by WebPEncodingError. */
static const char *encoding_error(WebPEncodingError e)
{
    switch (e) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY: return "out of memory for the encoder";
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory for the bitstream";
    case VP8_ENC_ERROR_NULL_PARAMETER: return "a NULL parameter";
    case VP8_ENC_ERROR_INVALID_CONFIGURATION: return "an invalid configuration";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "a bad image size";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "the first partition is larger than 512 KiB";
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "a partition is larger than 16 MiB";
    case VP8_ENC_ERROR_BAD_WRITE: return "the file could not be written";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be larger than 4 GiB";
    case VP8_ENC_ERROR_USER_ABORT: return "aborted";
    default: return "an unknown error";
    }
}

static amp_status webp_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                              unsigned char **data, size_t *size)
{
    (void)bits;
    if (img->width > WEBP_SIDE || img->height > WEBP_SIDE)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: image %dx%d is larger than WebP's %dx%d", who, img->width,
                         img->height, WEBP_SIDE, WEBP_SIDE);
    WebPConfig config;
    WebPPicture pic;
    float quality = d->quality ? (float)d->quality : d->lossless ? 70.0f : 90.0f;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, quality) || !WebPPictureInit(&pic))
        return amp__fail(AMP_ERROR_UNSUPPORTED, "%s: libwebp's encoder does not start (a version mismatch)", who);
    config.lossless = d->lossless;
    config.exact = d->lossless; /* lossless keeps the colors of transparent pixels */
    config.thread_level = 1;    /* the analysis and alpha on a second thread; the same file */

    /* gray and gray + alpha spread over RGB first */
    void *owned = NULL, *spread = NULL;
    size_t texels = (size_t)img->width * (size_t)img->height;
    const void *samples = amp__image_packed(img, 8, &owned);
    int channels = img->channels <= 2 ? img->channels + 2 : img->channels;
    if (samples && img->channels <= 2) {
        if ((spread = malloc(texels * (size_t)channels)))
            amp__convert_channels(samples, texels, img->channels, channels, 8, spread);
        samples = spread;
    }
    if (!samples) {
        free(owned);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }

    webp_sink sink = {0};
    pic.use_argb = d->lossless;
    pic.width = img->width;
    pic.height = img->height;
    pic.writer = sink_write;
    pic.custom_ptr = &sink;
    int stride = img->width * channels;
    int ok = channels == 4 ? WebPPictureImportRGBA(&pic, samples, stride) : WebPPictureImportRGB(&pic, samples, stride);
    free(owned);
    free(spread);
    ok = ok && WebPEncode(&config, &pic);
    WebPEncodingError e = pic.error_code;
    WebPPictureFree(&pic);
    if (!ok) {
        free(sink.data);
        if (sink.out_of_memory || e == VP8_ENC_ERROR_OUT_OF_MEMORY || e == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY ||
            e == VP8_ENC_OK) /* an import fails only for memory */
            return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory encoding a %dx%d WebP", who, img->width,
                             img->height);
        return amp__fail(AMP_ERROR_UNSUPPORTED, "%s: cannot encode a %dx%d %s WebP: %s (libwebp error %d)", who,
                         img->width, img->height, d->lossless ? "lossless" : "lossy", encoding_error(e), (int)e);
    }
    *data = sink.data;
    *size = sink.size;
    return AMP_OK;
}

const amp__codec amp__codec_webp = {
    .format = AMP_IMAGE_FORMAT_WEBP, .name = "webp", .title = "WebP", .extensions = "webp",
    /* lossless: 16384 x 16384 pixels in the smallest file (see SMALLEST_LOSSLESS);
       lossy files are checked against their macroblocks in webp_open */
    .densest = (16384u * 16384u + SMALLEST_LOSSLESS - 1) / SMALLEST_LOSSLESS,
    .save_bits = AMP__BITS(8),
    .sniff = webp_sniff, .open = webp_open, .decode = webp_decode, .close = webp_close, .encode = webp_encode,
};
