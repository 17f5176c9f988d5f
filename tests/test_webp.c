/* WebP files (src/image/webp.c, libwebp): OpenCV's files (tests/data/formats/webp,
 * written by make_webp.py, whose formulas are repeated here) read exactly as
 * cv2.imread reads them; ampvk's encoder writes the bytes cv2.imwrite writes at the
 * same settings (with the same libwebp); lossless round trips exact for gray, gray +
 * alpha, RGB and RGBA at every depth; lossy ones within a PSNR; quality and lossless
 * exercised; truncated, corrupt, animated and huge-header files refused with the
 * reason. */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <webp/encode.h>

#include "test.h"

#ifndef AMPVK_TEST_DATA
#error "AMPVK_TEST_DATA must name tests/data"
#endif
#define DIR AMPVK_TEST_DATA "/formats/webp/"
#define OUT "test_webp.out/" /* under the test's working directory (the build tree) */

enum { W = 64, H = 48 };

/* Lossy round trips of make_webp.py's 64x48 picture (a gradient with noise of 0..15
 * levels, which lossy coding smooths away) keep at least this PSNR: measured 36.75 dB
 * at quality 90 and 34.53 dB at quality 10 with libwebp 1.2.4. */
#define PSNR_Q90 35.0
#define PSNR_Q10 30.0

/* ---- make_webp.py's formulas ---- */
static unsigned noise(unsigned x, unsigned y, unsigned c)
{
    uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (c * 83492791u);
    return (h * 2654435761u) >> 28;
}
static unsigned rgb(int x, int y, int c)
{
    unsigned v = 20u + 3u * (unsigned)x + 2u * (unsigned)y + 50u * (unsigned)c + noise((unsigned)x, (unsigned)y, (unsigned)c);
    return v < 255 ? v : 255;
}
static unsigned alpha(int x, int y)
{
    unsigned a = 4u * (unsigned)x + 2u * (unsigned)y + 9u;
    return (x + y) % 11 == 0 ? 0 : a < 255 ? a : 255;
}
static unsigned rgba(int x, int y, int c) { return c < 3 ? rgb(x, y, c) : alpha(x, y); }
static unsigned gray(int x, int y, int c) { return c == 0 ? rgb(x, y, 1) : alpha(x, y); }
static unsigned palette(int x, int y, int c)
{
    static const unsigned char p[5][3] = {{250, 10, 10}, {10, 200, 30}, {20, 40, 230}, {255, 255, 255}, {0, 0, 0}};
    return p[(x / 5 + y / 3) % 5][c];
}

typedef unsigned (*pixel_fn)(int x, int y, int c);

/* ---- helpers ---- */

/* A w x h image of channels x bits holding want(x, y, c) (8-bit values; 16-bit
 * images get v * 257, float ones v / 255). */
static amp_image make(int w, int h, int channels, int bits, pixel_fn want)
{
    amp_image im;
    REQUIRE_OK(amp_image_create(w, h, channels, bits, &im));
    if (!im.pixels) return im;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++) {
                unsigned v = want(x, y, c);
                test_image_set(&im, x, y, c, bits == 8 ? v : bits == 16 ? v * 257 : v / 255.0);
            }
    return im;
}

/* Whether two images hold the same samples; prints the first difference. */
static bool same_pixels(const char *what, const amp_image *a, const amp_image *b)
{
    if (a->width != b->width || a->height != b->height || a->channels != b->channels || a->bits != b->bits) {
        fprintf(stderr, "%s: %dx%d x %d x %d bits vs %dx%d x %d x %d bits\n", what, a->width, a->height, a->channels,
                a->bits, b->width, b->height, b->channels, b->bits);
        return false;
    }
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++)
            for (int c = 0; c < a->channels; c++)
                if (test_image_get(a, x, y, c) != test_image_get(b, x, y, c)) {
                    fprintf(stderr, "%s: texel (row %d, col %d) channel %d is %g, expected %g\n", what, y, x, c,
                            test_image_get(b, x, y, c), test_image_get(a, x, y, c));
                    return false;
                }
    return true;
}

/* The PSNR (8-bit levels) of channels [0, n) of two images of the same size. */
static double psnr(const amp_image *a, const amp_image *b, int n)
{
    double se = 0;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++)
            for (int c = 0; c < n; c++) {
                double d = test_image_get(a, x, y, c) - test_image_get(b, x, y, c);
                se += d * d;
            }
    double mse = se / ((double)a->width * a->height * n);
    return mse == 0 ? INFINITY : 10 * log10(255.0 * 255.0 / mse);
}

/* Encodes im with desc and loads the file back (NULL desc: as the file is). */
static amp_status round_trip(const amp_image *im, amp_image_save_desc d, const amp_image_load_desc *load,
                             amp_image *back, size_t *file_size)
{
    unsigned char *file = NULL;
    size_t n = 0;
    d.format = AMP_IMAGE_FORMAT_WEBP;
    *back = (amp_image){0};
    amp_status s = amp_image_encode(im, &d, &file, &n);
    if (s != AMP_OK) return s;
    if (file_size) *file_size = n;
    s = amp_image_load_memory(file, n, "round trip", load, back);
    free(file);
    return s;
}

/* ---- reading OpenCV's files ---- */

static const struct {
    const char *name;
    int channels;
} fixtures[] = {
    {"lossless_rgb", 3}, {"lossless_rgba", 4}, {"lossless_gray", 3}, {"lossless_palette", 3},
    {"lossy_rgb", 3},    {"lossy_rgb_13x7", 3}, {"lossy_rgba", 4},
};

/* Each file reads as cv2.imread(IMREAD_UNCHANGED) reads it (its PNG), and loads as
 * any channel count and at 16 bits as the PNG converts. */
static void test_read_opencv(void)
{
    char path[512], png[512];
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        snprintf(path, sizeof path, DIR "%s.webp", fixtures[i].name);
        snprintf(png, sizeof png, DIR "%s.cv2.png", fixtures[i].name);
        amp_image im, cv, info;
        REQUIRE_OK(amp_image_info(path, &info));
        REQUIRE_INT(info.format, AMP_IMAGE_FORMAT_WEBP);
        REQUIRE_INT(info.channels, fixtures[i].channels);
        REQUIRE_INT(info.bits, 8);
        REQUIRE_OK(amp_image_load(path, NULL, &im));
        REQUIRE_OK(amp_image_load(png, NULL, &cv));
        REQUIRE_INT(im.format, AMP_IMAGE_FORMAT_WEBP);
        REQUIRE_INT(im.channels, fixtures[i].channels);
        REQUIRE(same_pixels(path, &cv, &im));
        amp_image_free(&im);
        amp_image_free(&cv);
        for (int channels = 1; channels <= 4; channels++) {
            amp_image_load_desc d = {.channels = channels, .bits = channels == 2 ? 16 : 0};
            REQUIRE_OK(amp_image_load(path, &d, &im));
            REQUIRE_OK(amp_image_load(png, &d, &cv));
            REQUIRE(same_pixels(path, &cv, &im));
            amp_image_free(&im);
            amp_image_free(&cv);
        }
    }
    /* the formulas: the lossless files hold the pictures exactly, but for the colors
       of fully transparent pixels, which cv2 (libwebp's exact = 0) lets the encoder
       change */
    amp_image im;
    REQUIRE_OK(amp_image_load(DIR "lossless_rgb.webp", NULL, &im));
    amp_image want = make(W, H, 3, 8, rgb);
    REQUIRE(same_pixels("lossless_rgb.webp", &want, &im));
    amp_image_free(&want);
    amp_image_free(&im);
    REQUIRE_OK(amp_image_load(DIR "lossless_palette.webp", NULL, &im));
    want = make(W, H, 3, 8, palette);
    REQUIRE(same_pixels("lossless_palette.webp", &want, &im));
    amp_image_free(&want);
    amp_image_free(&im);
    REQUIRE_OK(amp_image_load(DIR "lossless_rgba.webp", NULL, &im));
    want = make(W, H, 4, 8, rgba);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (alpha(x, y) == 0)
                for (int c = 0; c < 3; c++) test_image_set(&want, x, y, c, test_image_get(&im, x, y, c));
    REQUIRE(same_pixels("lossless_rgba.webp", &want, &im));
    amp_image_free(&want);
    amp_image_free(&im);
}

/* ---- writing ---- */

static bool same_bytes(const char *path, const unsigned char *data, size_t n)
{
    size_t m;
    unsigned char *file = test_read_bytes(path, 1 << 20, &m);
    bool same = file && m == n && memcmp(file, data, n) == 0;
    if (!same) fprintf(stderr, "%s: %zu bytes, ampvk wrote %zu (or other bytes)\n", path, m, n);
    free(file);
    return same;
}

/* ampvk's encoder at cv2.imwrite's settings writes cv2's bytes: lossless at the
 * default effort (70, method 4), lossy at a quality, gray spread to RGB. Only with
 * the libwebp that wrote the fixtures (1.2.4); other versions may code otherwise. */
static void test_write_as_opencv(void)
{
    if (WebPGetEncoderVersion() != 0x010204) {
        printf("libwebp %06x, not 1.2.4: the byte comparisons with OpenCV's files are skipped\n",
               WebPGetEncoderVersion());
        return;
    }
    static const struct {
        const char *file;
        int w, h, channels;
        pixel_fn want;
        amp_image_save_desc d;
    } cases[] = {
        {DIR "lossless_rgb.webp", W, H, 3, rgb, {.lossless = true}},
        {DIR "lossless_gray.webp", W, H, 1, gray, {.lossless = true}},
        {DIR "lossless_palette.webp", W, H, 3, palette, {.lossless = true}},
        {DIR "lossy_rgb.webp", W, H, 3, rgb, {.quality = 0}}, /* 0: 90 */
        {DIR "lossy_rgb_13x7.webp", 13, 7, 3, rgb, {.quality = 75}},
        {DIR "lossy_rgba.webp", W, H, 4, rgba, {.quality = 80}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        amp_image im = make(cases[i].w, cases[i].h, cases[i].channels, 8, cases[i].want);
        amp_image_save_desc d = cases[i].d;
        d.format = AMP_IMAGE_FORMAT_WEBP;
        unsigned char *file = NULL;
        size_t n = 0;
        REQUIRE_OK(amp_image_encode(&im, &d, &file, &n));
        REQUIRE(same_bytes(cases[i].file, file, n));
        free(file);
        amp_image_free(&im);
    }
}

/* Lossless round trips at every depth and channel count: exact (16-bit and float
 * samples written at 8 bits first, as amp_image_save converts them); gray comes
 * back as RGB, gray + alpha as RGBA; transparent pixels keep their colors. */
static void test_lossless(void)
{
    static const pixel_fn fns[5] = {NULL, gray, gray, rgb, rgba};
    for (int channels = 1; channels <= 4; channels++)
        for (int bits = 8; bits <= 32; bits *= 2) {
            char what[64];
            snprintf(what, sizeof what, "lossless %d channels of %d bits", channels, bits);
            amp_image im = make(W, H, channels, bits, fns[channels]), back;
            REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.lossless = true}, NULL, &back, NULL));
            int file_channels = channels <= 2 ? channels + 2 : channels;
            REQUIRE_INT(back.channels, file_channels);
            REQUIRE_INT(back.bits, 8);
            REQUIRE_INT(back.format, AMP_IMAGE_FORMAT_WEBP);
            amp_image want = make(W, H, file_channels, 8, fns[file_channels]);
            if (channels <= 2) /* gray spread over R, G and B */
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++)
                        for (int c = 0; c < 3; c++) test_image_set(&want, x, y, c, gray(x, y, 0));
            if (back.pixels) REQUIRE(same_pixels(what, &want, &back));
            amp_image_free(&want);
            amp_image_free(&back);
            /* and loaded as the image's own channels, the image (8-bit) itself */
            if (bits == 8) {
                REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.lossless = true},
                                      &(amp_image_load_desc){.channels = channels}, &back, NULL));
                if (back.pixels) REQUIRE(same_pixels(what, &im, &back));
                amp_image_free(&back);
            }
            amp_image_free(&im);
        }
    /* the effort (quality) changes the file, never the pixels; an odd size and a
       stride wider than the rows */
    amp_image im = make(W, H, 4, 8, rgba), back;
    size_t fast = 0, slow = 0;
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.lossless = true, .quality = 1}, NULL, &back, &fast));
    REQUIRE(back.pixels && same_pixels("lossless effort 1", &im, &back));
    amp_image_free(&back);
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.lossless = true, .quality = 100}, NULL, &back, &slow));
    REQUIRE(back.pixels && same_pixels("lossless effort 100", &im, &back));
    REQUIRE(fast > 0 && slow > 0 && slow <= fast);
    amp_image_free(&back);
    amp_image view = im;
    view.width = 37, view.height = 29; /* a window of im: its stride stays W * 4 */
    REQUIRE_OK(round_trip(&view, (amp_image_save_desc){.lossless = true}, NULL, &back, NULL));
    REQUIRE(back.pixels && same_pixels("lossless 37x29 of a wider image", &view, &back));
    amp_image_free(&back);
    amp_image_free(&im);
}

/* Lossy round trips within a PSNR; a higher quality is larger and closer; the
 * alpha of a lossy file is lossless (libwebp's alpha_quality 100). */
static void test_lossy(void)
{
    amp_image im = make(W, H, 3, 8, rgb), back;
    size_t n90 = 0, n10 = 0;
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){0}, NULL, &back, &n90)); /* quality 0: 90 */
    REQUIRE_INT(back.channels, 3);
    double p90 = back.pixels ? psnr(&im, &back, 3) : 0;
    amp_image_free(&back);
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.quality = 10}, NULL, &back, &n10));
    double p10 = back.pixels ? psnr(&im, &back, 3) : 0;
    amp_image_free(&back);
    printf("lossy %dx%d: quality 90 %zu bytes, PSNR %.2f dB; quality 10 %zu bytes, PSNR %.2f dB\n", W, H, n90, p90,
           n10, p10);
    REQUIRE_CMP(p90, >=, PSNR_Q90, "%.2f");
    REQUIRE_CMP(p10, >=, PSNR_Q10, "%.2f");
    REQUIRE_CMP(p90, >, p10, "%.2f");
    REQUIRE_CMP(n90, >, n10, "%zu");
    amp_image_free(&im);

    im = make(W, H, 4, 8, rgba);
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.quality = 90}, NULL, &back, NULL));
    REQUIRE_INT(back.channels, 4);
    if (back.pixels) {
        int wrong = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) wrong += test_image_get(&back, x, y, 3) != alpha(x, y);
        REQUIRE_INT(wrong, 0);
        REQUIRE_CMP(psnr(&im, &back, 3), >=, 30.0, "%.2f"); /* transparent pixels' colors are free to change */
    }
    amp_image_free(&back);
    amp_image_free(&im);
    /* gray + alpha, lossy: RGBA whose R, G and B stay close to each other */
    im = make(W, H, 2, 8, gray);
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.quality = 95}, NULL, &back, NULL));
    REQUIRE_INT(back.channels, 4);
    amp_image_free(&back);
    REQUIRE_OK(round_trip(&im, (amp_image_save_desc){.quality = 95}, &(amp_image_load_desc){.channels = 2}, &back,
                          NULL));
    if (back.pixels) REQUIRE_CMP(psnr(&im, &back, 1), >=, PSNR_Q90, "%.2f");
    amp_image_free(&back);
    amp_image_free(&im);
}

/* amp_image_save by extension; what cannot be written fails and leaves the file. */
static void test_save(void)
{
    REQUIRE_INT(amp_image_format_from_path("a/b.WebP"), AMP_IMAGE_FORMAT_WEBP);
    REQUIRE(strcmp(amp_image_format_name(AMP_IMAGE_FORMAT_WEBP), "webp") == 0);
    amp_image im = make(13, 7, 3, 8, rgb), back;
    REQUIRE_OK(amp_image_save(OUT "small.webp", &im, &(amp_image_save_desc){.lossless = true}));
    REQUIRE_OK(amp_image_load(OUT "small.webp", NULL, &back));
    REQUIRE(back.pixels && same_pixels("small.webp", &im, &back));
    amp_image_free(&back);
    size_t before = 0, after = 0;
    unsigned char *old = test_read_bytes(OUT "small.webp", 1 << 20, &before);
    /* 16 bits asked: WebP has 8 only */
    REQUIRE_FAIL(amp_image_save(OUT "small.webp", &im, &(amp_image_save_desc){.bits = 16}), AMP_ERROR_INVALID_ARGUMENT,
                 "a WebP file has 8 bits per channel, not 16");
    /* wider than WebP's 16383 */
    amp_image wide;
    REQUIRE_OK(amp_image_create(16384, 1, 3, 8, &wide));
    REQUIRE_FAIL(amp_image_save(OUT "small.webp", &wide, NULL), AMP_ERROR_OUT_OF_BOUNDS,
                 "small.webp: image 16384x1 is larger than WebP's 16383x16383");
    amp_image_free(&wide);
    unsigned char *now = test_read_bytes(OUT "small.webp", 1 << 20, &after);
    REQUIRE(old && now && before == after && memcmp(old, now, before) == 0);
    free(old);
    free(now);
    amp_image_free(&im);
}

/* ---- refused files ---- */

/* Every file cut short at several lengths is truncated (never a partial image);
 * a foreign RIFF or a broken signature is not WebP; broken headers are corrupt. */
static void test_corrupt(void)
{
    char path[512];
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        snprintf(path, sizeof path, DIR "%s.webp", fixtures[i].name);
        size_t n;
        unsigned char *d = test_read_bytes(path, 1 << 20, &n);
        if (!d) continue;
        for (size_t cut = 12; cut < n; cut += cut < 64 ? 1 : n / 7 + 1) {
            amp_image im = {.width = 1};
            REQUIRE_FAIL(amp_image_load_memory(d, cut, "cut.webp", NULL, &im), AMP_ERROR_FORMAT,
                         "cut.webp is truncated");
            REQUIRE(im.pixels == NULL && im.width == 0);
        }
        amp_image im;
        REQUIRE_FAIL(amp_image_load_memory(d, 11, "short.webp", NULL, &im), AMP_ERROR_FORMAT,
                     "short.webp is not an image file");
        unsigned char save = d[8];
        d[8] = 'A'; /* RIFF of another kind (AVI, WAV) */
        REQUIRE_FAIL(amp_image_load_memory(d, n, "riff.avi", NULL, &im), AMP_ERROR_FORMAT,
                     "riff.avi is not an image file");
        d[8] = save;
        /* the chunk's first bytes: the VP8 frame tag and start code, the VP8L signature,
           the VP8X flags */
        for (size_t at = 20; at < 24; at++) {
            unsigned char *c = malloc(n);
            memcpy(c, d, n);
            c[at] ^= 0xFF;
            amp_status s = amp_image_load_memory(c, n, "flip.webp", NULL, &im);
            if (s == AMP_OK) { /* a flip that leaves a valid file (a flag libwebp ignores) */
                amp_image_free(&im);
            } else {
                REQUIRE_FAIL(s, AMP_ERROR_FORMAT, "flip.webp is");
            }
            free(c);
        }
        free(d);
    }
    /* the VP8L signature byte and the VP8 start code broken: corrupt */
    size_t n;
    amp_image im;
    unsigned char *d = test_read_bytes(DIR "lossless_rgb.webp", 1 << 20, &n);
    if (d && n > 21) {
        d[20] = 0x2e;
        REQUIRE_FAIL(amp_image_load_memory(d, n, "sig.webp", NULL, &im), AMP_ERROR_FORMAT,
                     "sig.webp is corrupt: its header does not read (libwebp: bitstream error)");
    }
    free(d);
    d = test_read_bytes(DIR "lossy_rgb.webp", 1 << 20, &n);
    if (d && n > 24) {
        d[23] = 0x9c; /* 9d 01 2a */
        REQUIRE_FAIL(amp_image_load_memory(d, n, "start.webp", NULL, &im), AMP_ERROR_FORMAT,
                     "start.webp is corrupt: its header does not read (libwebp: bitstream error)");
    }
    free(d);
    /* lossless data with bytes flipped halfway: refused, never a partial image */
    d = test_read_bytes(DIR "lossless_rgba.webp", 1 << 20, &n);
    if (d && n > 100) {
        for (size_t i = 0; i < 16; i++) d[n / 2 + i] ^= 0x5A;
        REQUIRE_FAIL(amp_image_load_memory(d, n, "flipped.webp", NULL, &im), AMP_ERROR_FORMAT, "flipped.webp is");
        REQUIRE(im.pixels == NULL);
    }
    free(d);
    /* animations: refused, naming the frames */
    REQUIRE_FAIL(amp_image_load(DIR "animated.webp", NULL, &im), AMP_ERROR_FORMAT,
                 "animated.webp is an animated WebP of 3 frames; ampvk reads still WebP images only");
    REQUIRE_FAIL(amp_image_info(DIR "animated.webp", &im), AMP_ERROR_FORMAT, "an animated WebP of 3 frames");
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Headers that claim 16383 x 16383 (lossy) or 16384 x 16384 (lossless) pixels in a
 * few bytes fail from the header, quickly and without the memory a decode needs. */
static void test_huge_headers(void)
{
    /* a lossy file's frame header with its size raised: its ~600 bytes of modes
       cannot code 1048576 macroblocks */
    size_t n;
    unsigned char *lossy = test_read_bytes(DIR "lossy_rgb.webp", 1 << 20, &n);
    /* a lossless header (25 bytes) of 16384 x 16384: shorter than the smallest such file */
    unsigned char lossless[25] = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'L', 5, 0, 0,
                                  0, 0x2f};
    put32(lossless + 4, sizeof lossless - 8);
    uint32_t bits = 16383u | 16383u << 14; /* width - 1, height - 1; no alpha, version 0 */
    put32(lossless + 21, bits);
    if (!lossy) return;
    lossy[26] = 0xFF, lossy[27] = 0x3F, lossy[28] = 0xFF, lossy[29] = 0x3F; /* 14 bits each, no scaling */
    char want[160];
    snprintf(want, sizeof want,
             "huge.webp is truncated: its header claims 16383x16383 pixels (1048576 macroblocks) but its lossy data "
             "of %zu bytes holds",
             n - 20);
    long before = test_peak_kib();
    double t0 = test_now_seconds();
    amp_image im = {.width = 1};
    REQUIRE_FAIL(amp_image_load_memory(lossy, n, "huge.webp", NULL, &im), AMP_ERROR_FORMAT, want);
    REQUIRE(im.pixels == NULL && im.width == 0);
    REQUIRE_FAIL(amp_image_load_memory(lossless, sizeof lossless, "huge_lossless.webp", NULL, &im), AMP_ERROR_FORMAT,
                 "huge_lossless.webp is truncated: its header claims 16384x16384 pixels but a webp file of 25 bytes "
                 "holds 239674525 at most");
    double seconds = test_now_seconds() - t0;
    long grew_kib = test_peak_kib() - before;
    REQUIRE_CMP(seconds, <, 1.0, "%.3f");
    REQUIRE_CMP(grew_kib, <, 50L * 1024, "%ld");
    free(lossy);
}

int main(void)
{
    test_begin();
    if (mkdir(OUT, 0777) != 0 && access(OUT, F_OK) != 0) perror(OUT);
    test_huge_headers(); /* first, while the peak memory is low */
    test_read_opencv();
    test_write_as_opencv();
    test_lossless();
    test_lossy();
    test_save();
    test_corrupt();
    return test_end();
}
