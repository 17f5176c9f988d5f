/* JPEG files through libjpeg-turbo's TurboJPEG API: baseline, progressive and
 * arithmetic-coded streams of gray, YCbCr, RGB, CMYK and YCCK in; gray and YCbCr out
 * at a quality and chroma subsampling. Decoding stops at the first warning, so a
 * truncated or corrupt stream is an error, never a half-gray image. The EXIF
 * orientation is applied as cv2.imread applies it, unless the load asks not to. */
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "image/image_internal.h"

/* Decoding flags: libjpeg's accurate integer IDCT and smooth upsampling (cv2.imread's),
 * no more than libjpeg-turbo's limit of progressive scans, every warning an error. */
#define DECODE_FLAGS (TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING)

typedef struct jpeg_state {
    tjhandle tj;
    int width, height, colorspace; /* as stored, before the orientation */
    int orientation;               /* EXIF 1..8; 1 when there is none or it is ignored */
} jpeg_state;

static bool jpeg_sniff(const unsigned char *d, size_t n) { return n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF; }

static uint32_t get16(const unsigned char *p, bool le) { return le ? p[0] | p[1] << 8 : p[0] << 8 | p[1]; }

static uint32_t get32(const unsigned char *p, bool le)
{
    return le ? get16(p, true) | get16(p + 2, true) << 16 : get16(p, false) << 16 | get16(p + 2, false);
}

/* The orientation tag (0x0112) of the EXIF data of an APP1 segment's n bytes at p
 * (after "Exif\0\0": a TIFF header and IFD0); 1 when absent or malformed. */
static int exif_orientation(const unsigned char *p, size_t n)
{
    if (n < 8 || !((p[0] == 'I' && p[1] == 'I') || (p[0] == 'M' && p[1] == 'M'))) return 1;
    bool le = p[0] == 'I';
    uint32_t ifd = get32(p + 4, le);
    if (ifd > n - 2) return 1;
    uint32_t count = get16(p + ifd, le);
    for (uint32_t i = 0; i < count; i++) {
        size_t at = ifd + 2 + (size_t)i * 12;
        if (at + 12 > n) break;
        if (get16(p + at, le) != 0x0112) continue;
        uint32_t type = get16(p + at + 2, le), v = get16(p + at + 8, le);
        return type == 3 && v >= 1 && v <= 8 ? (int)v : 1;
    }
    return 1;
}

/* The EXIF orientation of a JPEG in memory: its markers walked up to the first scan. */
static int find_orientation(const unsigned char *d, size_t n)
{
    size_t at = 2;
    while (at + 4 <= n && d[at] == 0xFF) {
        int marker = d[at + 1];
        if (marker == 0xFF) { /* fill byte */
            at++;
            continue;
        }
        if (marker == 0xDA || marker == 0xD9) break;
        size_t len = get16(d + at + 2, false);
        if (len < 2 || at + 2 + len > n) break;
        if (marker == 0xE1 && len >= 8 && memcmp(d + at + 4, "Exif\0\0", 6) == 0)
            return exif_orientation(d + at + 10, len - 8);
        at += 2 + len;
    }
    return 1;
}

/* A TurboJPEG failure as ampvk's error: truncated where libjpeg says the data ends
 * early, else corrupt with libjpeg's reason. */
static amp_status tj_fail(const amp__file *f, tjhandle tj, const char *what)
{
    const char *why = tjGetErrorStr2(tj);
    if (strstr(why, "Premature end") || strstr(why, "premature end"))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: %s (libjpeg: %s)", f->who, f->path, what, why);
    return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s (libjpeg: %s)", f->who, f->path, what, why);
}

static void jpeg_close(void *state)
{
    jpeg_state *s = state;
    if (!s) return;
    if (s->tj) tjDestroy(s->tj);
    free(s);
}

static amp_status jpeg_open(const amp__file *f, amp_image *head, void **state)
{
    jpeg_state *s = calloc(1, sizeof *s);
    if (!s || !(s->tj = tjInitDecompress())) {
        free(s);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    }
    int subsamp;
    if (f->size > (unsigned long)-1 ||
        tjDecompressHeader3(s->tj, f->data, (unsigned long)f->size, &s->width, &s->height, &subsamp, &s->colorspace)) {
        amp_status st = tj_fail(f, s->tj, "its header does not read");
        jpeg_close(s);
        return st;
    }
    s->orientation = f->desc->ignore_orientation ? 1 : find_orientation(f->data, f->size);
    bool turned = s->orientation >= 5; /* a transpose: width and height trade places */
    *head = (amp_image){turned ? s->height : s->width, turned ? s->width : s->height,
                        s->colorspace == TJCS_GRAY ? 1 : 3, 8, 0, NULL, AMP_IMAGE_FORMAT_JPEG};
    *state = s;
    return AMP_OK;
}

/* Inverted (Adobe) CMYK to RGB, as OpenCV converts it: each of C, M and Y scaled by K. */
static void cmyk_to_rgb(uint8_t *px, size_t texels)
{
    for (size_t i = 0; i < texels; i++) {
        const uint8_t *s = px + 4 * i;
        int k = s[3];
        uint8_t r = (uint8_t)(k - ((255 - s[0]) * k >> 8)), g = (uint8_t)(k - ((255 - s[1]) * k >> 8)),
                b = (uint8_t)(k - ((255 - s[2]) * k >> 8));
        px[3 * i] = r;
        px[3 * i + 1] = g;
        px[3 * i + 2] = b;
    }
}

static amp_status jpeg_decode(const amp__file *f, void *state, const amp_image *head, int channels,
                              amp__host_image *out)
{
    (void)head;
    jpeg_state *s = state;
    bool cmyk = s->colorspace == TJCS_CMYK || s->colorspace == TJCS_YCCK, gray = s->colorspace == TJCS_GRAY;
    /* gray files decode to gray, color ones to RGB or, asked for 4 channels, RGBA */
    int pf = cmyk ? TJPF_CMYK : gray ? TJPF_GRAY : channels == 4 ? TJPF_RGBA : TJPF_RGB;
    size_t texels = (size_t)s->width * (size_t)s->height, n = (size_t)tjPixelSize[pf];
    uint8_t *px = malloc(texels * n);
    if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    if (tjDecompress2(s->tj, f->data, (unsigned long)f->size, px, s->width, 0, s->height, pf, DECODE_FLAGS)) {
        free(px);
        return tj_fail(f, s->tj, "its image data does not decode");
    }
    if (cmyk) {
        cmyk_to_rgb(px, texels);
        n = 3;
    }
    amp_status st = amp__orient(f->who, f->path, &px, s->width, s->height, n, s->orientation);
    if (st != AMP_OK) return st;
    bool turned = s->orientation >= 5;
    *out = (amp__host_image){turned ? s->height : s->width, turned ? s->width : s->height, (int)n, 8, px, false};
    return AMP_OK;
}

static amp_status jpeg_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                              unsigned char **data, size_t *size)
{
    (void)bits;
    /* gray + alpha loses its alpha first; RGBA's is skipped by the compressor */
    void *owned = NULL, *gray = NULL;
    size_t texels = (size_t)img->width * (size_t)img->height;
    const void *samples = amp__image_packed(img, 8, &owned);
    if (samples && img->channels == 2) {
        if ((gray = malloc(texels))) amp__convert_channels(samples, texels, 2, 1, 8, gray);
        samples = gray;
    }
    int channels = img->channels == 2 ? 1 : img->channels;
    tjhandle tj = samples ? tjInitCompress() : NULL;
    if (!tj) {
        free(owned);
        free(gray);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    static const int formats[5] = {0, TJPF_GRAY, TJPF_GRAY, TJPF_RGB, TJPF_RGBA};
    int sub = channels == 1 ? TJSAMP_GRAY : d->subsampling == 444 ? TJSAMP_444 : d->subsampling == 422 ? TJSAMP_422
                                                                                                          : TJSAMP_420;
    /* compressed straight into our own buffer of the worst case's size (its untouched
       pages cost nothing), trimmed after: no copy of the file */
    unsigned long cap = tjBufSize(img->width, img->height, sub), jsize = cap;
    unsigned char *jpeg = cap != (unsigned long)-1 ? malloc(cap) : NULL;
    amp_status s = AMP_OK;
    if (!jpeg) {
        s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    } else if (tjCompress2(tj, samples, img->width, 0, img->height, formats[channels], &jpeg, &jsize, sub,
                           d->quality ? d->quality : 90, TJFLAG_ACCURATEDCT | TJFLAG_NOREALLOC)) {
        s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: cannot encode a %dx%d JPEG: %s", who, img->width, img->height,
                      tjGetErrorStr2(tj));
        free(jpeg);
    } else {
        unsigned char *fit = realloc(jpeg, jsize); /* shrinking: fails only in name */
        *data = fit ? fit : jpeg;
        *size = jsize;
    }
    tjDestroy(tj);
    free(owned);
    free(gray);
    return s;
}

const amp__codec amp__codec_jpeg = {
    .format = AMP_IMAGE_FORMAT_JPEG, .name = "jpeg", .title = "JPEG", .extensions = "jpg jpeg jpe",
    .densest = 8 * 64, /* an 8 x 8 block in 1 bit (a Huffman DC scan's shortest code) */
    .save_bits = AMP__BITS(8),
    .sniff = jpeg_sniff, .open = jpeg_open, .decode = jpeg_decode, .close = jpeg_close, .encode = jpeg_encode,
};
