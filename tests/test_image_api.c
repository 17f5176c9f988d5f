/* The host-image API of ampvk/image.h: amp_image_load and amp_image_load_memory of
 * every format (the fixtures of tests/data/formats, written by
 * tests/data/make_fixtures.py, whose pixel formulas are repeated here), channel and
 * depth conversions, amp_image_save and amp_image_encode round trips and their
 * errors, textures made from and written to images, amp_image_compare_images,
 * amp_image_diff and amp_image_check_golden. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#ifndef AMPVK_TEST_DATA
#error "AMPVK_TEST_DATA must name tests/data"
#endif
#define DATA AMPVK_TEST_DATA "/"
#define FMT DATA "formats/"
#define OUT "test_image_api.out/" /* under the test's working directory (the build tree) */

enum { W = 7, H = 5, JW = 16, JH = 12 };

/* Largest difference, in 8-bit levels, between ampvk's JPEG decode and OpenCV's:
 * none, both are libjpeg-turbo's accurate IDCT and smooth chroma upsampling. */
#define JPEG_TOLERANCE 0

/* ---- the fixture generator's formulas ---- */
typedef unsigned (*pixel_fn)(int x, int y, int c);
static unsigned v8(int x, int y, int c) { return (unsigned)(x * 37 + y * 71 + c * 50) & 0xFF; }
static unsigned v16(int x, int y, int c) { return (unsigned)(x * 4099 + y * 9973 + c * 21011 + 257) & 0xFFFF; }
static unsigned run8(int x, int y, int c) { return v8(x / 3, y, c); }
static unsigned psd_rgba16(int x, int y, int c) { return c < 3 ? v16(x, y, c) : (x + y) % 2 == 0 ? 65535 : 0; }
static unsigned smooth(int x, int y, int c) { return (unsigned)(10 + x * 7 + y * 5 + c * 40 + (x * y) % 5); }

static unsigned to8(unsigned v) { return (v * 255 + 32767) / 65535; }

/* ---- helpers ---- */

/* A texel of `from` channels converted to `to` channels as stb_image converts (gray
 * replicated, RGB to gray the luma (77 r + 150 g + 29 b) >> 8, alpha max added). */
static unsigned convert_channel(const unsigned *s, int from, int to, int c, unsigned max)
{
    unsigned gray = from >= 3 ? (s[0] * 77 + s[1] * 150 + s[2] * 29) >> 8 : s[0];
    unsigned alpha = from == 2 || from == 4 ? s[from - 1] : max;
    if (to <= 2) return c == 0 ? gray : alpha;
    if (c == 3) return alpha;
    return from >= 3 ? s[c] : s[0];
}

/* Requires im to be a packed w x h image of channels x bits holding want(x, y, c)
 * for a file of file_channels channels at file_bits, converted to im's. */
static void require_pixels(const char *what, const amp_image *im, int w, int h, int channels, int bits,
                           int file_channels, int file_bits, pixel_fn want)
{
    REQUIRE_INT(im->width, w);
    REQUIRE_INT(im->height, h);
    REQUIRE_INT(im->channels, channels);
    REQUIRE_INT(im->bits, bits);
    REQUIRE(im->pixels != NULL);
    if (im->width != w || im->height != h || im->channels != channels || im->bits != bits || !im->pixels) {
        fprintf(stderr, "%s: wrong image\n", what);
        return;
    }
    REQUIRE_INT(im->stride, (size_t)w * (size_t)channels * (size_t)bits / 8);
    int bad = 0;
    unsigned max = file_bits == 16 ? 65535 : 255;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned s[4];
            for (int c = 0; c < file_channels; c++) s[c] = want(x, y, c);
            for (int c = 0; c < channels; c++) {
                unsigned v = convert_channel(s, file_channels, channels, c, max);
                v = bits == file_bits ? v : bits == 16 ? v * 257 : to8(v);
                double got = test_image_get(im, x, y, c);
                if (got != v && bad++ < 3)
                    fprintf(stderr, "%s: texel (row %d, col %d) channel %d is %g, expected %u\n", what, y, x, c, got,
                            v);
            }
        }
    test_checks++;
    if (bad) test_failures++;
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

/* A new image of w x h, channels x bits, filled with want(x, y, c). */
static amp_image make(int w, int h, int channels, int bits, pixel_fn want)
{
    amp_image im;
    REQUIRE_OK(amp_image_create(w, h, channels, bits, &im));
    if (!im.pixels) return im;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++) test_image_set(&im, x, y, c, want(x, y, c));
    return im;
}

/* Whether two images hold the same samples (their own strides). */
static bool same_pixels(const amp_image *a, const amp_image *b)
{
    if (a->width != b->width || a->height != b->height || a->channels != b->channels || a->bits != b->bits)
        return false;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++)
            for (int c = 0; c < a->channels; c++)
                if (memcmp(&(double){test_image_get(a, x, y, c)}, &(double){test_image_get(b, x, y, c)}, sizeof(double)) != 0) return false;
    return true;
}

/* ---- loading ---- */

typedef struct fixture {
    const char *file;
    amp_image_format format;
    int channels, bits;
    int file_channels; /* what want() describes: a 3-channel BMP's texels, etc. */
    pixel_fn want;
} fixture;

static const fixture fixtures[] = {
    {"bmp24.bmp", AMP_IMAGE_FORMAT_BMP, 3, 8, 3, v8},
    {"bmp24_topdown.bmp", AMP_IMAGE_FORMAT_BMP, 3, 8, 3, v8},
    {"bmp32.bmp", AMP_IMAGE_FORMAT_BMP, 4, 8, 4, v8},
    {"tga_gray.tga", AMP_IMAGE_FORMAT_TGA, 1, 8, 1, v8},
    {"tga_rgb.tga", AMP_IMAGE_FORMAT_TGA, 3, 8, 3, v8},
    {"tga_rgba.tga", AMP_IMAGE_FORMAT_TGA, 4, 8, 4, v8},
    {"tga_gray_rle.tga", AMP_IMAGE_FORMAT_TGA, 1, 8, 1, run8},
    {"tga_rgb_rle.tga", AMP_IMAGE_FORMAT_TGA, 3, 8, 3, run8},
    {"tga_rgba_rle.tga", AMP_IMAGE_FORMAT_TGA, 4, 8, 4, run8},
    {"psd_rgb8.psd", AMP_IMAGE_FORMAT_PSD, 3, 8, 3, v8},
    {"psd_rgb8_rle.psd", AMP_IMAGE_FORMAT_PSD, 3, 8, 3, run8},
    {"psd_rgb16.psd", AMP_IMAGE_FORMAT_PSD, 3, 16, 3, v16},
    {"psd_rgba16.psd", AMP_IMAGE_FORMAT_PSD, 4, 16, 4, psd_rgba16},
};
#define NFIX (int)(sizeof fixtures / sizeof fixtures[0])

/* Every lossless fixture loads exactly as the generator wrote it, with the format
 * found from the content, from a file and from memory, with a NULL or a zeroed desc. */
static void test_load_formats(void)
{
    for (int i = 0; i < NFIX; i++) {
        const fixture *f = &fixtures[i];
        char path[512];
        snprintf(path, sizeof path, FMT "%s", f->file);
        amp_image im;
        REQUIRE_OK(amp_image_load(path, NULL, &im));
        require_pixels(path, &im, W, H, f->channels, f->bits, f->file_channels, f->bits, f->want);
        REQUIRE_INT(im.format, f->format);
        amp_image_free(&im);
        REQUIRE(im.pixels == NULL && im.width == 0);

        size_t n;
        unsigned char *bytes = test_read_bytes(path, 1 << 20, &n);
        REQUIRE_OK(amp_image_load_memory(bytes, n, f->file, &(amp_image_load_desc){0}, &im));
        require_pixels(f->file, &im, W, H, f->channels, f->bits, f->file_channels, f->bits, f->want);
        REQUIRE_INT(im.format, f->format);
        amp_image_free(&im);
        REQUIRE_OK(amp_image_load_memory(bytes, n, NULL, NULL, &im));
        REQUIRE_INT(im.format, f->format);
        amp_image_free(&im);
        free(bytes);
    }
    /* PNG and HDR through the same call */
    amp_image im;
    REQUIRE_OK(amp_image_load(DATA "rgb16.png", NULL, &im));
    require_pixels("rgb16.png", &im, W, H, 3, 16, 3, 16, v16);
    REQUIRE_INT(im.format, AMP_IMAGE_FORMAT_PNG);
    amp_image_free(&im);
    REQUIRE_OK(amp_image_load(DATA "hdr_3x2.hdr", NULL, &im));
    REQUIRE(im.width == 3 && im.height == 2 && im.channels == 4 && im.bits == 32 && im.stride == 3 * 16);
    REQUIRE_INT(im.format, AMP_IMAGE_FORMAT_HDR);
    /* texel 0 is RGBE (128, 64, 32, 129): m * 2^(129 - 136) */
    REQUIRE(test_image_get(&im, 0, 0, 0) == 1.0 && test_image_get(&im, 0, 0, 1) == 0.5 && test_image_get(&im, 0, 0, 2) == 0.25 &&
            test_image_get(&im, 0, 0, 3) == 1.0);
    amp_image_free(&im);
    REQUIRE_OK(amp_image_load(DATA "hdr_3x2.hdr", &(amp_image_load_desc){.channels = 3, .bits = 32}, &im));
    REQUIRE(im.channels == 3 && im.bits == 32 && test_image_get(&im, 0, 0, 2) == 0.25);
    amp_image_free(&im);
    amp_image_free(NULL); /* a no-op */
}

/* desc->channels 1..4 and desc->bits 8 or 16 convert as the overview of image.h says,
 * for BMP, TGA and PSD files of 1, 3 and 4 channels and 8 and 16 bits. */
static void test_load_conversions(void)
{
    static const int picks[] = {0, 3, 5, 11, 12}; /* bmp24, tga_gray, tga_rgba, psd_rgb16, psd_rgba16 */
    for (size_t p = 0; p < sizeof picks / sizeof picks[0]; p++) {
        const fixture *f = &fixtures[picks[p]];
        char path[512], what[600];
        snprintf(path, sizeof path, FMT "%s", f->file);
        for (int channels = 1; channels <= 4; channels++)
            for (int bits = 0; bits <= 16; bits += 8) {
                amp_image im;
                snprintf(what, sizeof what, "%s as %d channels, bits %d", f->file, channels, bits);
                REQUIRE_OK(amp_image_load(path, &(amp_image_load_desc){.channels = channels, .bits = bits}, &im));
                require_pixels(what, &im, W, H, channels, bits ? bits : f->bits, f->file_channels, f->bits, f->want);
                REQUIRE_INT(im.format, f->format);
                amp_image_free(&im);
            }
    }
    amp_image im = {.width = 99};
    REQUIRE_FAIL(amp_image_load(FMT "bmp24.bmp", &(amp_image_load_desc){.bits = 32}, &im), AMP_ERROR_INVALID_ARGUMENT,
                 "bits 32 is not 0, 8 or 16");
    REQUIRE(im.width == 0 && im.pixels == NULL); /* zeroed on failure */
    REQUIRE_FAIL(amp_image_load(FMT "bmp24.bmp", &(amp_image_load_desc){.bits = 32}, &im), AMP_ERROR_INVALID_ARGUMENT,
                 "bmp24.bmp, a BMP file");
    REQUIRE_FAIL(amp_image_load(DATA "rgb8.png", &(amp_image_load_desc){.bits = 32}, &im), AMP_ERROR_INVALID_ARGUMENT,
                 "a PNG file");
    REQUIRE_FAIL(amp_image_load(DATA "hdr_3x2.hdr", &(amp_image_load_desc){.bits = 8}, &im),
                 AMP_ERROR_INVALID_ARGUMENT, "bits 8 is not 0 or 32");
    REQUIRE_FAIL(amp_image_load(FMT "tga_rgb.tga", &(amp_image_load_desc){.channels = 5}, &im),
                 AMP_ERROR_INVALID_ARGUMENT, "channels 5 is outside 0..4");
    REQUIRE_FAIL(amp_image_load(FMT "tga_rgb.tga", &(amp_image_load_desc){.bits = 12}, &im),
                 AMP_ERROR_INVALID_ARGUMENT, "bits 12");
}

/* JPEG: TurboJPEG's decode is within JPEG_TOLERANCE levels of what cv2.imread decoded
 * from the same file (stored by the generator as PNGs), RGB
 * (baseline, progressive, with restart markers) and gray, from a file and from
 * memory, and converted to other channel counts. */
static void test_load_jpeg(void)
{
    static const struct {
        const char *jpg, *png;
        int channels;
    } cases[] = {{FMT "jpeg_rgb.jpg", FMT "jpeg_rgb.cv2.png", 3},
                 {FMT "jpeg_rgb_progressive.jpg", FMT "jpeg_rgb.cv2.png", 3},
                 {FMT "jpeg_rgb_restart.jpg", FMT "jpeg_rgb.cv2.png", 3},
                 {FMT "jpeg_gray.jpg", FMT "jpeg_gray.cv2.png", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        amp_image jpg, cv;
        REQUIRE_OK(amp_image_load(cases[i].jpg, NULL, &jpg));
        REQUIRE_OK(amp_image_load(cases[i].png, NULL, &cv));
        REQUIRE(jpg.width == JW && jpg.height == JH && jpg.channels == cases[i].channels && jpg.bits == 8);
        REQUIRE_INT(jpg.format, AMP_IMAGE_FORMAT_JPEG);
        REQUIRE(cv.width == JW && cv.height == JH && cv.channels == cases[i].channels && cv.bits == 8);
        amp_image_compare_result r;
        REQUIRE_OK(amp_image_compare_images(&cv, &jpg, &(amp_image_compare_desc){.tolerance = JPEG_TOLERANCE}, &r));
        printf("%s: ampvk vs cv2: max %g, mean %.3f, PSNR %.1f dB\n", cases[i].jpg, r.max_abs_diff, r.mean_abs_diff,
               r.psnr);
        REQUIRE(r.equal && r.max_abs_diff <= JPEG_TOLERANCE && r.psnr > 40);
        /* and close to what was encoded */
        double worst = 0;
        for (int y = 0; y < JH; y++)
            for (int x = 0; x < JW; x++)
                for (int c = 0; c < jpg.channels; c++) worst = fmax(worst, fabs(test_image_get(&jpg, x, y, c) - smooth(x, y, c)));
        REQUIRE(worst <= 6);

        size_t n;
        unsigned char *bytes = test_read_bytes(cases[i].jpg, 1 << 20, &n);
        amp_image mem;
        REQUIRE_OK(amp_image_load_memory(bytes, n, "jpeg", NULL, &mem));
        REQUIRE(same_pixels(&jpg, &mem) && mem.format == AMP_IMAGE_FORMAT_JPEG);
        amp_image_free(&mem);
        /* a byte before the start marker: not a JPEG (SOI comes first), as libjpeg reads it */
        unsigned char *filled = malloc(n + 1);
        filled[0] = 0xFF;
        memcpy(filled + 1, bytes, n);
        REQUIRE_FAIL(amp_image_load_memory(filled, n + 1, "filled", NULL, &mem), AMP_ERROR_FORMAT,
                     "filled is not an image file ampvk reads (PNG, JPEG");
        free(filled);
        /* 4 channels: the colors as decoded, alpha 255; 16 bits: v * 257 */
        REQUIRE_OK(amp_image_load_memory(bytes, n, "jpeg", &(amp_image_load_desc){.channels = 4, .bits = 16}, &mem));
        REQUIRE(mem.channels == 4 && mem.bits == 16);
        int bad = 0;
        for (int y = 0; y < JH && mem.pixels; y++)
            for (int x = 0; x < JW; x++)
                for (int c = 0; c < 4; c++) {
                    double want = c == 3 ? 65535 : test_image_get(&jpg, x, y, jpg.channels == 3 ? c : 0) * 257;
                    bad += test_image_get(&mem, x, y, c) != want;
                }
        REQUIRE_INT(bad, 0);
        amp_image_free(&mem);
        free(bytes);
        amp_image_free(&jpg);
        amp_image_free(&cv);
    }
    /* an RGB JPEG read as gray is near the gray of the cv2 decode */
    amp_image g, cv;
    REQUIRE_OK(amp_image_load(FMT "jpeg_rgb.jpg", &(amp_image_load_desc){.channels = 1}, &g));
    REQUIRE_OK(amp_image_load(FMT "jpeg_rgb.cv2.png", &(amp_image_load_desc){.channels = 1}, &cv));
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare_images(&cv, &g, &(amp_image_compare_desc){.tolerance = JPEG_TOLERANCE}, &r));
    REQUIRE(g.channels == 1 && r.equal);
    amp_image_free(&g);
    amp_image_free(&cv);
}

/* A file of a few bytes per format whose header claims 16384 x 16384 pixels
 * (make_fixtures.py's huge_headers) fails from the header alone, naming the size and
 * the file's length (HDR's 4 floats a pixel pass ampvk's host limit first), in little
 * time and memory: with a view (a texture) and without (the header's info, a host
 * image). */
static void test_huge_headers(amp_accelerator_view *v)
{
    static const struct {
        const char *file;
        amp_status status;
        const char *text;
    } cases[] = {
        {"huge_header.png", AMP_ERROR_FORMAT, "claims 16384x16384 pixels but a png file of 81 bytes holds 668736 at most"},
        {"huge_header.jpg", AMP_ERROR_FORMAT, "claims 16384x16384 pixels but a jpeg file of 43 bytes holds 22016"},
        {"huge_header.bmp", AMP_ERROR_FORMAT, "claims 16384x16384 pixels but a bmp file of 70 bytes holds 560"},
        {"huge_header.tga", AMP_ERROR_FORMAT, "claims 16384x16384 pixels but a tga file of 34 bytes holds 2176"},
        {"huge_header.psd", AMP_ERROR_FORMAT, "claims 16384x16384 pixels but a psd file of 56 bytes holds 3584"},
        {"huge_header.hdr", AMP_ERROR_OUT_OF_BOUNDS, "image 16384x16384 of 4 channels at 32 bits is 4294967296 bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, FMT "%s", cases[i].file);
        long before = test_peak_kib();
        double t0 = test_now_seconds();
        amp_image im = {.width = 1};
        if (!v) {
            REQUIRE_FAIL(amp_image_info(path, &im), cases[i].status, cases[i].text);
            REQUIRE_FAIL(amp_image_load(path, NULL, &im), cases[i].status, cases[i].text);
            REQUIRE(im.pixels == NULL && im.width == 0);
        } else {
            REQUIRE_NULL_FAIL(amp_texture_load(v, path, NULL), cases[i].status, cases[i].text);
        }
        /* a decode would take seconds and gigabytes; the header takes neither */
        double seconds = test_now_seconds() - t0;
        long grew_kib = test_peak_kib() - before;
        REQUIRE_CMP(seconds, <, 1.0, "%.3f");
        REQUIRE_CMP(grew_kib, <, 50L * 1024, "%ld");
    }
}

/* max_pixels refuses a file whose header claims more, from the header (with a view and
 * without), and lets one of exactly that many through. */
static void test_max_pixels(amp_accelerator_view *v)
{
    const char *path = FMT "jpeg_rgb.jpg";
    amp_image info;
    REQUIRE_OK(amp_image_info(path, &info));
    uint64_t pixels = (uint64_t)info.width * (uint64_t)info.height;
    char text[160];
    snprintf(text, sizeof text, "image %dx%d is %llu pixels; max_pixels allows %llu", info.width, info.height,
             (unsigned long long)pixels, (unsigned long long)(pixels - 1));
    amp_image im = {.width = 1};
    amp_image_load_desc small = {.max_pixels = pixels - 1}, exact = {.max_pixels = pixels};
    if (!v) {
        REQUIRE_FAIL(amp_image_load(path, &small, &im), AMP_ERROR_OUT_OF_BOUNDS, text);
        REQUIRE(im.pixels == NULL && im.width == 0);
        REQUIRE_OK(amp_image_load(path, &exact, &im));
        REQUIRE_INT(im.width, info.width);
        amp_image_free(&im);
    } else {
        REQUIRE_NULL_FAIL(amp_texture_load(v, path, &small), AMP_ERROR_OUT_OF_BOUNDS, text);
        amp_texture *t = amp_texture_load(v, path, &exact);
        REQUIRE(t != NULL);
        amp_texture_destroy(&t);
    }
}

static void test_load_errors(void)
{
    static const char *files[] = {"bmp24.bmp", "tga_rgb.tga", "tga_rgb_rle.tga", "psd_rgb8.psd", "psd_rgb8_rle.psd",
                                  "psd_rgb16.psd", "jpeg_rgb.jpg"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, FMT "%s", files[i]);
        size_t n;
        unsigned char *bytes = test_read_bytes(path, 1 << 20, &n);
        amp_image im = {.width = 1};
        /* cut in the pixels: a truncated file */
        REQUIRE_FAIL(amp_image_load_memory(bytes, n * 3 / 4, files[i], NULL, &im), AMP_ERROR_FORMAT, files[i]);
        REQUIRE(im.pixels == NULL && im.width == 0);
        snprintf(path, sizeof path, OUT "short-%s", files[i]);
        test_write_bytes(path, bytes, n * 3 / 4);
        REQUIRE_FAIL(amp_image_load(path, NULL, &im), AMP_ERROR_FORMAT, path);
        /* the header alone */
        REQUIRE_FAIL(amp_image_load_memory(bytes, 20, files[i], NULL, &im), AMP_ERROR_FORMAT, files[i]);
        free(bytes);
    }
    amp_image im;
    const char text[] = "this is not an image\n";
    REQUIRE_FAIL(amp_image_load_memory(text, sizeof text - 1, "text", NULL, &im), AMP_ERROR_FORMAT,
                 "text is not an image file ampvk reads");
    REQUIRE_FAIL(amp_image_load_memory(text, 0, "nothing", NULL, &im), AMP_ERROR_FORMAT, "nothing is empty");
    REQUIRE_FAIL(amp_image_load_memory(NULL, 10, "x", NULL, &im), AMP_ERROR_INVALID_ARGUMENT, "NULL data");
    REQUIRE_FAIL(amp_image_load_memory(text, 10, "x", NULL, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL out");
    REQUIRE_FAIL(amp_image_load(OUT "missing.tga", NULL, &im), AMP_ERROR_IO, OUT "missing.tga");
    REQUIRE_FAIL(amp_image_load(NULL, NULL, &im), AMP_ERROR_INVALID_ARGUMENT, "NULL path");
    test_write_bytes(OUT "empty.bmp", "", 0);
    REQUIRE_FAIL(amp_image_load(OUT "empty.bmp", NULL, &im), AMP_ERROR_FORMAT, "is empty");
    /* "the image" stands for a NULL name */
    REQUIRE_FAIL(amp_image_load_memory(text, sizeof text - 1, NULL, NULL, &im), AMP_ERROR_FORMAT, "the image");

    /* a header that claims a huge image fails from the header, before decoding */
    unsigned char tga[18 + 16] = {0, 0, 2};
    tga[12] = 0xFF, tga[13] = 0xFF, tga[14] = 0xFF, tga[15] = 0xFF, tga[16] = 32; /* 65535 x 65535 x 32 bits */
    REQUIRE_FAIL(amp_image_load_memory(tga, sizeof tga, "huge.tga", NULL, &im), AMP_ERROR_OUT_OF_BOUNDS,
                 "image 65535x65535");
    /* what stb_image 2.27 gets wrong, refused before it runs (image_stb.c; the files
     * are fuzz_image's findings) */
    REQUIRE_FAIL(amp_image_load(DATA "fuzz/fuzz_jpeg/jpeg-dht-more-than-256-codes.jpg", NULL, &im), AMP_ERROR_FORMAT,
                 "is corrupt: its header does not read (libjpeg: Bogus Huffman table definition)");
    REQUIRE_FAIL(amp_image_load(DATA "fuzz/fuzz_image/bmp-palette-index-past-palette.bmp", NULL, &im),
                 AMP_ERROR_FORMAT, "pixel (0, 3) has palette index 48 but the palette has 16 entries");
    REQUIRE_FAIL(amp_image_load(DATA "fuzz/fuzz_image/tga-last-row-cut-short.tga", NULL, &im), AMP_ERROR_FORMAT,
                 "is truncated");
    /* 150 scans of 1300x1300 in 1.8 KB: stb would decode each over the whole image; the
       header's size alone is more than 1.8 KB can hold (a bit for each 8 x 8 block) */
    REQUIRE_FAIL(amp_image_load(DATA "fuzz/fuzz_jpeg/jpeg-baseline-many-scans.jpg", NULL, &im), AMP_ERROR_FORMAT,
                 "its header claims 1300x1300 pixels but a jpeg file of 1776 bytes holds 909312 at most");
    REQUIRE_FAIL(amp_image_load(DATA "fuzz/fuzz_jpeg/jpeg-progressive-many-scans.jpg", NULL, &im), AMP_ERROR_FORMAT,
                 "its header claims 1300x1300 pixels but a jpeg file of 1787 bytes");
    size_t n;
    unsigned char *rle = test_read_bytes(FMT "psd_rgb8_rle.psd", 1 << 20, &n);
    if (rle) rle[23] = 16; /* 16 bits: stb would decode the RLE data as 8-bit */
    REQUIRE_FAIL(amp_image_load_memory(rle, n, "rle16.psd", NULL, &im), AMP_ERROR_FORMAT,
                 "16-bit RLE-compressed PSD files are not supported");
    free(rle);
    /* a JPEG whose chroma uses a quantization table it never defines: refused, where
     * stb decoded it from uninitialized tables */
    REQUIRE_FAIL(amp_image_load(DATA "fuzz/fuzz_jpeg/jpeg-undefined-quantization-table.jpg", NULL, &im),
                 AMP_ERROR_FORMAT, "jpeg-undefined-quantization-table.jpg is corrupt");
    /* 65536 rows of 1 column: over ampvk's limit, though stb's 2.27 would take it */
    unsigned char psd[64] = {'8', 'B', 'P', 'S', 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0, 1, 0, 8, 0, 3};
    REQUIRE_FAIL(amp_image_load_memory(psd, sizeof psd, "tall.psd", NULL, &im), AMP_ERROR_OUT_OF_BOUNDS,
                 "tall.psd: image 1x65536 is larger than ampvk's 65535x65535");
}

/* ---- saving ---- */

/* v8 with another alpha (channel 1 of gray + alpha, 3 of RGBA) */
static unsigned alpha_v8(int x, int y, int c)
{
    return c == 3 || c == 1 ? (unsigned)(x * 50 + y * 9) & 255 : v8(x, y, c);
}

/* PNG: every channel count at 8 and 16 bits survives amp_image_encode and
 * amp_image_save exactly; bits converts 8 <-> 16 as image.h says. */
static void test_save_png(void)
{
    for (int channels = 1; channels <= 4; channels++)
        for (int bits = 8; bits <= 16; bits += 8) {
            amp_image im = make(W, H, channels, bits, bits == 8 ? v8 : v16), back;
            unsigned char *data = NULL;
            size_t size = 0;
            REQUIRE_OK(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG}, &data, &size));
            REQUIRE(data && size > 8 && memcmp(data, "\x89PNG", 4) == 0);
            REQUIRE_OK(amp_image_load_memory(data, size, "encoded", NULL, &back));
            REQUIRE(same_pixels(&im, &back) && back.format == AMP_IMAGE_FORMAT_PNG);
            amp_image_free(&back);
            free(data);

            char path[256];
            snprintf(path, sizeof path, OUT "png_%d_%d.png", channels, bits);
            REQUIRE_OK(amp_image_save(path, &im, NULL));
            REQUIRE_OK(amp_image_load(path, NULL, &back));
            REQUIRE(same_pixels(&im, &back));
            amp_image_free(&back);
            /* the other depth: exact upward (v * 257), rounded downward */
            int other = bits == 8 ? 16 : 8;
            REQUIRE_OK(amp_image_save(path, &im, &(amp_image_save_desc){.bits = other, .png_level = 12}));
            REQUIRE_OK(amp_image_load(path, NULL, &back));
            require_pixels(path, &back, W, H, channels, other, channels, bits, bits == 8 ? v8 : v16);
            amp_image_free(&back);
            amp_image_free(&im);
        }
}

/* Bands of 96 rows (each more than one of the encoder's 64 KiB blocks) of content
 * where short runs pay (a 2-pixel checkerboard, runs of 5), where only long ones do
 * (noise over a gradient), and flat: the run coder switches between its two scans. */
static unsigned checker2(int x, int y, int c) { return (void)c, (x / 2 + y / 2) % 2 ? 255u : 0u; }
static unsigned banded(int x, int y, int c)
{
    uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u ^ (uint32_t)c * 83492791u;
    switch (y / 96 % 4) {
    case 0: return checker2(x, y, c);
    case 1: return (unsigned)(x / 5 % 2 * 200 + c);
    case 2: return (unsigned)(x / 3 + y / 4 + c * 20 + (h >> 13) % 3) & 0xFF;
    default: return 90u + (unsigned)c;
    }
}

/* The run coder on large images: exact round trips (the stream checked by the
 * decoder's inflate and Adler-32), and a checkerboard as small as short runs make it
 * (runs of at least 8 only: about twice the size). */
static void test_save_png_runs(void)
{
    amp_image im = make(700, 768, 3, 8, banded), back;
    unsigned char *data = NULL;
    size_t size = 0;
    REQUIRE_OK(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG}, &data, &size));
    REQUIRE_OK(amp_image_load_memory(data, size, "banded", NULL, &back));
    REQUIRE(same_pixels(&im, &back));
    amp_image_free(&back);
    free(data);
    amp_image_free(&im);
    im = make(1024, 1024, 3, 8, checker2);
    REQUIRE_OK(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG}, &data, &size));
    REQUIRE_OK(amp_image_load_memory(data, size, "checker", NULL, &back));
    REQUIRE(same_pixels(&im, &back));
    REQUIRE(size < 200000); /* 153139 bytes; 299 KB with runs of 8 and more only */
    amp_image_free(&back);
    free(data);
    amp_image_free(&im);
}

/* BMP and TGA round trips are exact: BMP writes gray as RGB and drops a gray
 * image's alpha, TGA keeps gray and gray + alpha; 16-bit images are rounded to 8 bits. */
static void test_save_bmp_tga(void)
{
    for (int f = 0; f < 2; f++) {
        const char *ext = f ? "tga" : "bmp";
        amp_image_format format = f ? AMP_IMAGE_FORMAT_TGA : AMP_IMAGE_FORMAT_BMP;
        for (int channels = 1; channels <= 4; channels++) {
            amp_image im = make(W, H, channels, 8, alpha_v8), back;
            char path[256];
            snprintf(path, sizeof path, OUT "save_%d.%s", channels, ext);
            REQUIRE_OK(amp_image_save(path, &im, NULL));
            REQUIRE_OK(amp_image_load(path, NULL, &back));
            /* BMP: gray and gray + alpha are written as RGB; TGA keeps them */
            int want = f || channels >= 3 ? channels : 3;
            require_pixels(path, &back, W, H, want, 8, channels == 2 && !f ? 1 : channels, 8, alpha_v8);
            REQUIRE_INT(back.format, format);
            amp_image_free(&back);
            /* the same bytes through amp_image_encode */
            unsigned char *data;
            size_t size, fsize;
            REQUIRE_OK(amp_image_encode(&im, &(amp_image_save_desc){.format = format}, &data, &size));
            unsigned char *file = test_read_bytes(path, 1 << 20, &fsize);
            REQUIRE(size == fsize && memcmp(data, file, size) == 0);
            free(file);
            free(data);
            amp_image_free(&im);
        }
        /* 16 bits written at 8: rounded to nearest */
        amp_image im = make(W, H, 3, 16, v16), back;
        char path[256];
        snprintf(path, sizeof path, OUT "save_16.%s", ext);
        REQUIRE_OK(amp_image_save(path, &im, &(amp_image_save_desc){.bits = 8}));
        REQUIRE_OK(amp_image_load(path, NULL, &back));
        require_pixels(path, &back, W, H, 3, 8, 3, 16, v16);
        amp_image_free(&back);
        amp_image_free(&im);
    }
    /* 16-bit samples either side of a half level: 128 -> 0 (0.498), 129 -> 1 (0.502), 65406 -> 254 (254.498),
     * 65407 -> 255 (254.502) */
    uint16_t px[4] = {128, 129, 65406, 65407};
    amp_image im = {4, 1, 1, 16, sizeof px, px, AMP_IMAGE_FORMAT_AUTO}, back;
    REQUIRE_OK(amp_image_save(OUT "rounding.tga", &im, NULL));
    REQUIRE_OK(amp_image_load(OUT "rounding.tga", NULL, &back));
    REQUIRE(back.bits == 8 && back.channels == 1 && test_image_get(&back, 0, 0, 0) == 0 && test_image_get(&back, 1, 0, 0) == 1 &&
            test_image_get(&back, 2, 0, 0) == 254 && test_image_get(&back, 3, 0, 0) == 255);
    amp_image_free(&back);
}

/* Float images: clamped to [0, 1] (NaN: 0) and rounded into PNG, BMP and TGA; into
 * HDR kept within RGBE's precision (8 bits of mantissa for the largest of R, G, B). */
static void test_save_float(void)
{
    float px[2 * 8] = {-0.5f, 0.0f, 0.25f, 0.5f,  1.0f,  1.5f, NAN,   0.2f,
                       0.75f, 0.1f, 0.9f,  1e-3f, 0.33f, 2.0f, -INFINITY, INFINITY};
    amp_image im = {4, 2, 2, 32, 4 * 2 * sizeof(float), px, AMP_IMAGE_FORMAT_AUTO}, back;
    for (int bits = 8; bits <= 16; bits += 8) {
        REQUIRE_OK(amp_image_save(OUT "float.png", &im, &(amp_image_save_desc){.bits = bits}));
        REQUIRE_OK(amp_image_load(OUT "float.png", NULL, &back));
        REQUIRE(back.bits == bits && back.channels == 2 && back.width == 4 && back.height == 2);
        double max = bits == 8 ? 255 : 65535;
        int bad = 0;
        for (int i = 0; i < 16 && back.pixels; i++) {
            float f = px[i];
            double want = floor((isnan(f) ? 0 : f < 0 ? 0 : f > 1 ? 1 : f) * max + 0.5);
            double got = test_image_get(&back, i / 2 % 4, i / 8, i % 2);
            if (got != want && bad++ < 3)
                fprintf(stderr, "float %d bits: [%d] %g -> %g, want %g\n", bits, i, f, got, want);
        }
        REQUIRE_INT(bad, 0);
        amp_image_free(&back);
    }
    /* bits 0: a float image is written at 8 bits */
    REQUIRE_OK(amp_image_save(OUT "float0.png", &im, NULL));
    REQUIRE_OK(amp_image_load(OUT "float0.png", NULL, &back));
    REQUIRE_INT(back.bits, 8);
    amp_image_free(&back);

    /* HDR: RGB floats in, RGBE on disk; 1 - 3 channel images as RGB (gray replicated) */
    float hdr[3 * 2 * 3] = {1.0f, 0.5f, 0.25f, 100.0f, 3.0f, 0.0f, 1e-4f, 2e-4f, 3e-4f,
                            0.0f, 0.0f, 0.0f,  7.25f, 7.25f, 7.25f, 65504.0f, 1.0f, 0.001f};
    amp_image h = {3, 2, 3, 32, 3 * 3 * sizeof(float), hdr, AMP_IMAGE_FORMAT_AUTO};
    unsigned char *data;
    size_t size;
    REQUIRE_OK(amp_image_encode(&h, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_HDR}, &data, &size));
    REQUIRE(size > 11 && memcmp(data, "#?RADIANCE", 10) == 0);
    REQUIRE_OK(amp_image_load_memory(data, size, "encoded.hdr", &(amp_image_load_desc){.channels = 3}, &back));
    REQUIRE(back.width == 3 && back.height == 2 && back.channels == 3 && back.bits == 32 &&
            back.format == AMP_IMAGE_FORMAT_HDR);
    int bad = 0;
    for (int t = 0; t < 6 && back.pixels; t++) {
        double m = fmax(hdr[3 * t], fmax(hdr[3 * t + 1], hdr[3 * t + 2]));
        for (int c = 0; c < 3; c++) {
            double want = hdr[3 * t + c], got = ((const float *)back.pixels)[3 * t + c];
            /* stb writes the mantissa truncated: each component loses less than max / 128 */
            if (!(fabs(got - want) <= m / 128) && bad++ < 3)
                fprintf(stderr, "hdr texel %d channel %d: %g, wrote %g\n", t, c, got, want);
        }
    }
    REQUIRE_INT(bad, 0);
    REQUIRE(((const float *)back.pixels)[0] == 1.0f && ((const float *)back.pixels)[1] == 0.5f);
    amp_image_free(&back);
    free(data);
    /* an 8-bit image into HDR: v / 255 */
    amp_image g = make(W, H, 1, 8, v8);
    REQUIRE_OK(amp_image_save(OUT "gray.hdr", &g, NULL));
    REQUIRE_OK(amp_image_load(OUT "gray.hdr", NULL, &back));
    REQUIRE(back.channels == 4 && back.bits == 32);
    bad = 0;
    for (int y = 0; y < H && back.pixels; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) {
                double want = c == 3 ? 1 : v8(x, y, 0) / 255.0;
                bad += !(fabs(test_image_get(&back, x, y, c) - want) <= want / 128);
            }
    REQUIRE_INT(bad, 0);
    amp_image_free(&back);
    amp_image_free(&g);
}

/* JPEG: within a few levels of the smooth image at quality 95; quality 0 is 90;
 * quality 1 is smaller and worse; alpha is dropped. */
static void test_save_jpeg(void)
{
    amp_image im = make(JW, JH, 4, 8, smooth), back;
    for (int c = 0; c < JW * JH; c++) ((uint8_t *)im.pixels)[4 * c + 3] = (uint8_t)c; /* alpha, dropped */
    REQUIRE_OK(amp_image_save(OUT "smooth.jpg", &im, &(amp_image_save_desc){.quality = 95}));
    REQUIRE_OK(amp_image_load(OUT "smooth.jpg", NULL, &back));
    REQUIRE(back.channels == 3 && back.bits == 8 && back.format == AMP_IMAGE_FORMAT_JPEG);
    amp_image rgb = make(JW, JH, 3, 8, smooth);
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare_images(&rgb, &back, &(amp_image_compare_desc){.tolerance = 6}, &r));
    printf("JPEG quality 95: max %g, PSNR %.1f dB\n", r.max_abs_diff, r.psnr);
    REQUIRE(r.equal && r.psnr > 40);
    amp_image_free(&back);

    unsigned char *q0, *q90, *q1, *q100;
    size_t n0, n90, n1, n100;
    REQUIRE_OK(amp_image_encode(&rgb, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG}, &q0, &n0));
    REQUIRE_OK(
        amp_image_encode(&rgb, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG, .quality = 90}, &q90, &n90));
    REQUIRE_OK(amp_image_encode(&rgb, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG, .quality = 1}, &q1, &n1));
    REQUIRE_OK(amp_image_encode(&rgb, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG, .quality = 100}, &q100,
                                &n100));
    REQUIRE(n0 == n90 && memcmp(q0, q90, n0) == 0);
    REQUIRE(n1 < n90 && n90 < n100);
    REQUIRE_OK(amp_image_load_memory(q1, n1, "q1", NULL, &back));
    amp_image_compare_result r1;
    REQUIRE_OK(amp_image_compare_images(&rgb, &back, NULL, &r1));
    REQUIRE(r1.psnr < r.psnr);
    amp_image_free(&back);
    free(q0), free(q90), free(q1), free(q100);

    /* gray: the gray levels come back (as gray through desc channels 1) */
    amp_image g = make(JW, JH, 1, 8, smooth);
    REQUIRE_OK(amp_image_save(OUT "gray.jpeg", &g, &(amp_image_save_desc){.quality = 100}));
    REQUIRE_OK(amp_image_load(OUT "gray.jpeg", &(amp_image_load_desc){.channels = 1}, &back));
    REQUIRE_OK(amp_image_compare_images(&g, &back, &(amp_image_compare_desc){.tolerance = 3}, &r));
    REQUIRE(r.equal);
    amp_image_free(&back);
    amp_image_free(&g);
    amp_image_free(&rgb);
    amp_image_free(&im);
}

/* Images whose rows are further apart than their width (a region of a larger
 * image) are saved as their texels only: the same file as the packed image. */
static void test_save_stride(void)
{
    for (int bits = 8; bits <= 32; bits *= 2) {
        amp_image packed = make(W, H, 3, bits, v8);
        size_t row = (size_t)W * 3 * (size_t)bits / 8, stride = row + 13 * (size_t)bits / 8;
        unsigned char *buf = malloc(stride * H);
        memset(buf, 0xA5, stride * H);
        for (int y = 0; y < H; y++) memcpy(buf + (size_t)y * stride, (unsigned char *)packed.pixels + y * row, row);
        amp_image strided = {W, H, 3, bits, stride, buf, AMP_IMAGE_FORMAT_AUTO};
        static const amp_image_format formats[] = {AMP_IMAGE_FORMAT_PNG, AMP_IMAGE_FORMAT_BMP, AMP_IMAGE_FORMAT_TGA,
                                                   AMP_IMAGE_FORMAT_HDR, AMP_IMAGE_FORMAT_JPEG};
        for (int f = 0; f < 5; f++) {
            unsigned char *a, *b;
            size_t na, nb;
            REQUIRE_OK(amp_image_encode(&packed, &(amp_image_save_desc){.format = formats[f]}, &a, &na));
            REQUIRE_OK(amp_image_encode(&strided, &(amp_image_save_desc){.format = formats[f]}, &b, &nb));
            REQUIRE(na == nb && memcmp(a, b, na) == 0);
            free(a);
            free(b);
        }
        REQUIRE_OK(amp_image_save(OUT "strided.png", &strided, NULL));
        amp_image back;
        REQUIRE_OK(amp_image_load(OUT "strided.png", NULL, &back));
        if (bits != 32) require_pixels("strided", &back, W, H, 3, bits, 3, bits, v8);
        amp_image_free(&back);
        free(buf);
        amp_image_free(&packed);
    }
}

/* Every invalid save is AMP_ERROR_INVALID_ARGUMENT with a message naming the value,
 * and no file (not even a temporary one) is created. */
static void test_save_errors(void)
{
    amp_image im = make(W, H, 3, 8, v8), none = {0};
    amp_image zero = {0, H, 3, 8, 0, im.pixels, AMP_IMAGE_FORMAT_AUTO};
    amp_image five = {W, H, 5, 8, W * 5, im.pixels, AMP_IMAGE_FORMAT_AUTO};
    amp_image twelve = {W, H, 3, 12, W * 3, im.pixels, AMP_IMAGE_FORMAT_AUTO};
    amp_image narrow = {W, H, 3, 8, W * 3 - 1, im.pixels, AMP_IMAGE_FORMAT_AUTO};
    amp_image nopix = {W, H, 3, 8, W * 3, NULL, AMP_IMAGE_FORMAT_AUTO};
    static const struct {
        const char *path;
        int image; /* 0 im, 1 zero, 2 five, 3 twelve, 4 narrow, 5 nopix, 6 NULL */
        amp_image_save_desc desc;
        const char *why;
    } cases[] = {
        {OUT "bad.xyz", 0, {0}, "no image format for this name"},
        {OUT "no_extension", 0, {0}, "no image format for this name"},
        {OUT "bad.psd", 0, {0}, "format psd cannot be written"},
        {OUT "bad.jpg", 0, {.quality = 101}, "quality 101 is outside 1..100"},
        {OUT "bad.jpg", 0, {.quality = -1}, "quality -1 is outside"},
        {OUT "bad.png", 0, {.png_level = 13}, "PNG level 13 is outside 1..12"},
        {OUT "bad.png", 0, {.bits = 12}, "a PNG file has 8 or 16 bits per channel, not 12"},
        {OUT "bad.bmp", 0, {.bits = 16}, "a BMP file has 8 bits per channel, not 16"},
        {OUT "bad.hdr", 0, {.bits = 8}, "a Radiance HDR file has 32 bits per channel, not 8"},
        {OUT "bad.png", 0, {.format = (amp_image_format)42}, "format (unknown) cannot be written"},
        {OUT "bad.png", 1, {0}, "is 0x5 with 3 channels of 8 bits"},
        {OUT "bad.png", 2, {0}, "5 channels"},
        {OUT "bad.png", 3, {0}, "of 12 bits"},
        {OUT "bad.png", 4, {0}, "a stride of 20 bytes, less than its 21-byte rows"},
        {OUT "bad.png", 5, {0}, "has no pixels"},
        {OUT "bad.png", 6, {0}, "NULL the image"},
    };
    const amp_image *images[] = {&im, &zero, &five, &twelve, &narrow, &nopix, NULL};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unlink(cases[i].path);
        REQUIRE_FAIL(amp_image_save(cases[i].path, images[cases[i].image], &cases[i].desc), AMP_ERROR_INVALID_ARGUMENT,
                     cases[i].why);
        REQUIRE(strstr(amp_last_error(), "amp_image_save: ") == amp_last_error());
        if (cases[i].image == 0 || cases[i].image == 1) REQUIRE(strstr(amp_last_error(), cases[i].path));
        REQUIRE(!exists(cases[i].path));
    }
    /* nothing left behind, not even a temporary file */
    DIR *d = opendir(OUT);
    for (struct dirent *e; d && (e = readdir(d));) REQUIRE(!strstr(e->d_name, ".tmp-") && !strstr(e->d_name, "bad."));
    if (d) closedir(d);
    REQUIRE_FAIL(amp_image_save(NULL, &im, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL path");
    REQUIRE_FAIL(amp_image_save(OUT "no/such/dir/x.png", &im, NULL), AMP_ERROR_IO, "No such file or directory");

    unsigned char *data = (unsigned char *)"untouched";
    size_t size = 7;
    REQUIRE_FAIL(amp_image_encode(&im, NULL, &data, &size), AMP_ERROR_INVALID_ARGUMENT,
                 "format auto cannot be written");
    REQUIRE_FAIL(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PSD}, &data, &size),
                 AMP_ERROR_INVALID_ARGUMENT, "format psd cannot be written");
    REQUIRE_FAIL(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG}, NULL, &size),
                 AMP_ERROR_INVALID_ARGUMENT, "NULL data or size");
    REQUIRE_FAIL(amp_image_encode(NULL, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG}, &data, &size),
                 AMP_ERROR_INVALID_ARGUMENT, "NULL the image");
    REQUIRE(size == 7 && strcmp((char *)data, "untouched") == 0);

    REQUIRE_FAIL(amp_image_create(0, 5, 3, 8, &none), AMP_ERROR_INVALID_ARGUMENT, "is 0x5");
    REQUIRE_FAIL(amp_image_create(5, 5, 3, 24, &none), AMP_ERROR_INVALID_ARGUMENT, "8, 16 or 32 bits");
    REQUIRE(none.pixels == NULL);
    REQUIRE_FAIL(amp_image_create(5, 5, 3, 8, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL out");
    /* amp_image_create zeroes */
    REQUIRE_OK(amp_image_create(3, 2, 2, 16, &none));
    REQUIRE(none.stride == 12 && none.format == AMP_IMAGE_FORMAT_AUTO);
    for (int i = 0; i < 12 && none.pixels; i++) REQUIRE(((uint16_t *)none.pixels)[i] == 0);
    amp_image_free(&none);

    REQUIRE(strcmp(amp_image_format_name(AMP_IMAGE_FORMAT_JPEG), "jpeg") == 0);
    REQUIRE(strcmp(amp_image_format_name(AMP_IMAGE_FORMAT_AUTO), "auto") == 0);
    REQUIRE(amp_image_format_name((amp_image_format)(AMP_IMAGE_FORMAT_TIFF + 1)) == NULL);
    REQUIRE_INT(amp_image_format_from_path("a/b.JPEG"), AMP_IMAGE_FORMAT_JPEG);
    REQUIRE_INT(amp_image_format_from_path("x.Tga"), AMP_IMAGE_FORMAT_TGA);
    REQUIRE_INT(amp_image_format_from_path("dir.png/file"), AMP_IMAGE_FORMAT_AUTO);
    REQUIRE_INT(amp_image_format_from_path(NULL), AMP_IMAGE_FORMAT_AUTO);
    amp_image_free(&im);
}

/* ---- textures ---- */

/* amp_texture_from_image and amp_texture_to_image: 8- and 16-bit images become unorm
 * textures and come back exactly (and converted at another depth), float images
 * float textures; a strided image uploads its texels; mips are generated. */
static void test_texture_round_trips(amp_accelerator_view *v)
{
    for (int channels = 1; channels <= 4; channels++)
        for (int bits = 8; bits <= 16; bits += 8) {
            amp_image im = make(W, H, channels, bits, bits == 8 ? v8 : v16), back;
            amp_texture *t = amp_texture_from_image(v, &im, 0);
            REQUIRE(t);
            if (!t) continue;
            REQUIRE_INT(amp_texture_type(t), AMP_MAKE_TYPE(AMP_SCALAR_UNORM, channels));
            REQUIRE_INT(amp_texture_bits_per_scalar_element(t), bits);
            REQUIRE(amp_extent_equal(amp_texture_extent(t), amp_extent2(H, W)));
            REQUIRE_OK(amp_texture_to_image(t, 0, &back));
            REQUIRE(same_pixels(&im, &back) && back.format == AMP_IMAGE_FORMAT_AUTO);
            amp_image_free(&back);
            int other = bits == 8 ? 16 : 8;
            REQUIRE_OK(amp_texture_to_image(t, other, &back));
            require_pixels("texture at the other depth", &back, W, H, channels, other, channels, bits,
                           bits == 8 ? v8 : v16);
            amp_image_free(&back);
            /* float: v / max */
            REQUIRE_OK(amp_texture_to_image(t, 32, &back));
            REQUIRE(back.bits == 32 && back.pixels);
            if (back.pixels)
                REQUIRE(test_image_get(&back, 3, 2, channels - 1) == (float)((bits == 8 ? v8(3, 2, channels - 1) / 255.0
                                                                             : v16(3, 2, channels - 1) / 65535.0)));
            amp_image_free(&back);
            amp_texture_destroy(&t);
            amp_image_free(&im);
        }
    /* float images: float textures, back bit for bit; at 8 bits clamped */
    float px[2 * 3 * 4];
    for (int i = 0; i < 24; i++) px[i] = (float)(i * 0.37 - 2.0);
    amp_image f = {3, 2, 4, 32, 3 * 4 * sizeof(float), px, AMP_IMAGE_FORMAT_AUTO}, back;
    amp_texture *t = amp_texture_from_image(v, &f, 0);
    REQUIRE(t && amp_texture_type(t) == AMP_FLOAT_4 && amp_texture_bits_per_scalar_element(t) == 32);
    REQUIRE_OK(amp_texture_to_image(t, 32, &back));
    REQUIRE(back.bits == 32 && back.pixels && memcmp(back.pixels, px, sizeof px) == 0);
    amp_image_free(&back);
    REQUIRE_OK(amp_texture_to_image(t, 0, &back)); /* float textures: 8 bits */
    REQUIRE(back.bits == 8);
    for (int i = 0; i < 24 && back.pixels; i++) {
        double want = floor(fmin(fmax(px[i], 0), 1) * 255 + 0.5);
        REQUIRE(((uint8_t *)back.pixels)[i] == want);
    }
    amp_image_free(&back);
    amp_texture_destroy(&t);
    /* an HDR file through an image into a texture and back */
    amp_image hdr;
    REQUIRE_OK(amp_image_load(DATA "hdr_3x2.hdr", NULL, &hdr));
    t = amp_texture_from_image(v, &hdr, 0);
    REQUIRE(t && amp_texture_type(t) == AMP_FLOAT_4);
    REQUIRE_OK(amp_texture_to_image(t, 32, &back));
    REQUIRE(same_pixels(&hdr, &back));
    amp_image_free(&back);
    amp_texture_destroy(&t);
    amp_image_free(&hdr);

    /* a strided image, with mips */
    amp_image big = make(W + 5, H, 3, 8, v8);
    amp_image region = {W, H, 3, 8, big.stride, big.pixels, AMP_IMAGE_FORMAT_AUTO};
    t = amp_texture_from_image(v, &region, AMP_MIP_FULL);
    REQUIRE(t && amp_texture_mip_levels(t) == 3);
    REQUIRE_OK(amp_texture_to_image(t, 8, &back));
    require_pixels("strided texture", &back, W, H, 3, 8, 3, 8, v8);
    amp_image_free(&back);
    amp_texture_destroy(&t);
    amp_image_free(&big);

    REQUIRE_NULL_FAIL(amp_texture_from_image(v, NULL, 0), AMP_ERROR_INVALID_ARGUMENT, "NULL the image");
    REQUIRE_NULL_FAIL(amp_texture_from_image(v, &(amp_image){W, H, 3, 8, 1, px, AMP_IMAGE_FORMAT_AUTO}, 0),
                      AMP_ERROR_INVALID_ARGUMENT, "a stride of 1 bytes");
    back.width = 5;
    REQUIRE_FAIL(amp_texture_to_image(NULL, 0, &back), AMP_ERROR_INVALID_ARGUMENT, "NULL texture");
    REQUIRE(back.width == 0);
    amp_texture *ints = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(2, 2), .type = AMP_INT_2});
    REQUIRE_FAIL(amp_texture_to_image(ints, 0, &back), AMP_ERROR_INVALID_ARGUMENT, "int_2 textures cannot be saved");
    amp_texture_destroy(&ints);
}

/* amp_texture_load of a JPEG (as amp_image_load decodes it) and amp_texture_save to
 * .bmp, .tga, .hdr and .jpg. */
static void test_texture_files(amp_accelerator_view *v)
{
    amp_texture *t = amp_texture_load(v, FMT "jpeg_rgb.jpg", NULL);
    REQUIRE(t && amp_texture_type(t) == AMP_UNORM_3 && amp_texture_bits_per_scalar_element(t) == 8);
    REQUIRE(t && amp_extent_equal(amp_texture_extent(t), amp_extent2(JH, JW)));
    amp_image jpg, cv, back;
    REQUIRE_OK(amp_image_load(FMT "jpeg_rgb.jpg", NULL, &jpg));
    REQUIRE_OK(amp_image_load(FMT "jpeg_rgb.cv2.png", NULL, &cv));
    REQUIRE_OK(amp_texture_to_image(t, 0, &back));
    REQUIRE(same_pixels(&jpg, &back));
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare_png(t, FMT "jpeg_rgb.cv2.png", &(amp_image_compare_desc){.tolerance = JPEG_TOLERANCE},
                                     &r));
    REQUIRE(r.equal);
    amp_image_free(&back);
    amp_texture_destroy(&t);
    /* with a desc: 4 channels of 16 bits and mips */
    t = amp_texture_load(v, FMT "jpeg_gray.jpg",
                         &(amp_image_load_desc){.channels = 4, .bits = 16, .mip_levels = AMP_MIP_FULL});
    REQUIRE(t && amp_texture_type(t) == AMP_UNORM_4 && amp_texture_bits_per_scalar_element(t) == 16 &&
            amp_texture_mip_levels(t) == 5);
    amp_texture_destroy(&t);
    REQUIRE_NULL_FAIL(amp_texture_load(v, OUT "missing.jpg", NULL), AMP_ERROR_IO, "missing.jpg");
    REQUIRE_NULL_FAIL(amp_texture_load(v, FMT "jpeg_rgb.jpg", &(amp_image_load_desc){.mip_levels = 9}),
                      AMP_ERROR_INVALID_ARGUMENT, "jpeg_rgb.jpg");

    /* .bmp: an 8-bit texture exactly, a 16-bit one rounded to 8 bits */
    t = amp_texture_from_image(v, &cv, 0);
    REQUIRE_OK(amp_texture_save(t, OUT "texture.bmp", NULL));
    REQUIRE_OK(amp_image_load(OUT "texture.bmp", NULL, &back));
    REQUIRE(same_pixels(&cv, &back) && back.format == AMP_IMAGE_FORMAT_BMP);
    amp_image_free(&back);
    amp_texture_destroy(&t);
    amp_image im16 = make(W, H, 4, 16, v16);
    t = amp_texture_from_image(v, &im16, 0);
    REQUIRE_OK(amp_texture_save(t, OUT "texture16.bmp", NULL));
    REQUIRE_OK(amp_image_load(OUT "texture16.bmp", NULL, &back));
    require_pixels("texture16.bmp", &back, W, H, 4, 8, 4, 16, v16);
    amp_image_free(&back);
    /* .tga the same; .png at 16 bits by default, 8 on request */
    REQUIRE_OK(amp_texture_save(t, OUT "texture16.tga", &(amp_image_save_desc){0}));
    REQUIRE_OK(amp_image_load(OUT "texture16.tga", NULL, &back));
    require_pixels("texture16.tga", &back, W, H, 4, 8, 4, 16, v16);
    amp_image_free(&back);
    REQUIRE_OK(amp_texture_save(t, OUT "texture16.png", NULL));
    REQUIRE_OK(amp_image_load(OUT "texture16.png", NULL, &back));
    REQUIRE(same_pixels(&im16, &back));
    amp_image_free(&back);
    REQUIRE_OK(amp_texture_save(t, OUT "texture16_8.png", &(amp_image_save_desc){.bits = 8}));
    REQUIRE_OK(amp_image_load(OUT "texture16_8.png", NULL, &back));
    require_pixels("texture16_8.png", &back, W, H, 4, 8, 4, 16, v16);
    amp_image_free(&back);
    /* a format that does not match the name: desc wins */
    REQUIRE_OK(amp_texture_save(t, OUT "texture16.dat", &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_TGA}));
    REQUIRE_OK(amp_image_load(OUT "texture16.dat", NULL, &back));
    REQUIRE(back.format == AMP_IMAGE_FORMAT_TGA);
    amp_image_free(&back);
    REQUIRE_FAIL(amp_texture_save(t, OUT "texture16.psd", NULL), AMP_ERROR_INVALID_ARGUMENT, "psd cannot be written");
    REQUIRE(!exists(OUT "texture16.psd"));
    REQUIRE_FAIL(amp_texture_save(t, OUT "texture16.xyz", NULL), AMP_ERROR_INVALID_ARGUMENT, "texture16.xyz");
    REQUIRE_FAIL(amp_texture_save(NULL, OUT "t.png", NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL texture");
    amp_texture_destroy(&t);
    amp_image_free(&im16);
    /* .hdr from a float texture */
    float px[4] = {0.5f, 2.0f, 8.0f, 1.0f};
    amp_image f = {1, 1, 4, 32, sizeof px, px, AMP_IMAGE_FORMAT_AUTO};
    t = amp_texture_from_image(v, &f, 0);
    REQUIRE_OK(amp_texture_save(t, OUT "texture.hdr", NULL));
    REQUIRE_OK(amp_image_load(OUT "texture.hdr", NULL, &back));
    REQUIRE(back.bits == 32 && back.pixels && memcmp(back.pixels, px, sizeof px) == 0);
    amp_image_free(&back);
    amp_texture_destroy(&t);
    amp_image_free(&jpg);
    amp_image_free(&cv);
}

/* ---- comparison ---- */

/* amp_image_compare_images: counts, allowances (max_pixels, max_fraction, the larger
 * of the two), per-channel maxima, the first difference as (row, column), the PSNR,
 * depth conversion and the errors. */
static void test_compare_images(void)
{
    amp_image a = make(10, 10, 1, 8, v8), b = make(10, 10, 1, 8, v8);
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare_images(&a, &b, NULL, &r));
    REQUIRE(r.equal && r.passed && r.max_abs_diff == 0 && isinf(r.psnr) && r.texels == 100);
    REQUIRE(r.differing_texels == 0 && r.allowed_texels == 0 && r.first_difference.rank == 0 && !r.golden_written);

    /* one texel 10 levels off: MSE 1, PSNR 10 log10(255^2) */
    test_image_set(&b, 7, 3, 0, test_image_get(&b, 7, 3, 0) + 10);
    REQUIRE_OK(amp_image_compare_images(&a, &b, NULL, &r));
    REQUIRE(!r.equal && !r.passed && r.differing_texels == 1 && r.max_abs_diff == 10 && r.mean_abs_diff == 0.1);
    REQUIRE(fabs(r.psnr - 20 * log10(255.0)) < 1e-9);
    REQUIRE(fabs(r.psnr - 48.1308036) < 1e-6);
    REQUIRE(amp_index_equal(r.first_difference, amp_index2(3, 7)));
    /* four more texels 1..4 levels off, one of them earlier in row-major order */
    test_image_set(&b, 1, 6, 0, test_image_get(&b, 1, 6, 0) + 1);
    test_image_set(&b, 9, 2, 0, test_image_get(&b, 9, 2, 0) - 2);
    test_image_set(&b, 0, 9, 0, test_image_get(&b, 0, 9, 0) + 3);
    test_image_set(&b, 5, 5, 0, test_image_get(&b, 5, 5, 0) - 4);
    REQUIRE_OK(amp_image_compare_images(&a, &b, NULL, &r));
    REQUIRE(r.differing_texels == 5 && amp_index_equal(r.first_difference, amp_index2(2, 9)));
    REQUIRE(fabs(r.mean_abs_diff - 0.2) < 1e-12);
    /* allowances: passed says whether the count is within; equal stays false */
    static const struct {
        double tolerance;
        size_t max_pixels;
        double max_fraction;
        size_t differing, allowed;
        bool passed;
    } cases[] = {
        {0, 5, 0, 5, 5, true},      {0, 4, 0, 5, 4, false},    {0, 0, 0.05, 5, 5, true},
        {0, 0, 0.049, 5, 4, false}, {0, 2, 0.05, 5, 5, true},  {0, 6, 0.01, 5, 6, true},
        {2, 0, 0, 3, 0, false},     {2, 3, 0, 3, 3, true},     {4, 1, 0, 1, 1, true},
        {10, 0, 0, 0, 0, true},     {0, 0, 1.0, 5, 100, true}, {3.5, 0, 0.019, 2, 1, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        amp_image_compare_desc d = {.tolerance = cases[i].tolerance, .max_pixels = cases[i].max_pixels,
                                    .max_fraction = cases[i].max_fraction};
        REQUIRE_OK(amp_image_compare_images(&a, &b, &d, &r));
        test_checks++;
        if (r.differing_texels != cases[i].differing || r.allowed_texels != cases[i].allowed ||
            r.passed != cases[i].passed || r.equal != (cases[i].differing == 0) || r.max_abs_diff != 10) {
            fprintf(stderr, "allowance case %zu: differing %zu allowed %zu passed %d equal %d; want %zu %zu %d\n", i,
                    r.differing_texels, r.allowed_texels, r.passed, r.equal, cases[i].differing, cases[i].allowed,
                    cases[i].passed);
            test_failures++;
        }
    }
    amp_image_free(&a);
    amp_image_free(&b);

    /* per-channel maxima of an RGBA image */
    a = make(W, H, 4, 8, v8), b = make(W, H, 4, 8, v8);
    test_image_set(&b, 1, 1, 0, test_image_get(&b, 1, 1, 0) + 1);
    test_image_set(&b, 2, 3, 1, test_image_get(&b, 2, 3, 1) + 2);
    test_image_set(&b, 6, 4, 1, test_image_get(&b, 6, 4, 1) - 5);
    test_image_set(&b, 0, 0, 3, test_image_get(&b, 0, 0, 3) + 3);
    REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.tolerance = 1}, &r));
    REQUIRE(r.channel_max_abs_diff[0] == 1 && r.channel_max_abs_diff[1] == 5 && r.channel_max_abs_diff[2] == 0 &&
            r.channel_max_abs_diff[3] == 3 && r.max_abs_diff == 5);
    REQUIRE(r.differing_texels == 3 && amp_index_equal(r.first_difference, amp_index2(0, 0)));
    REQUIRE(fabs(r.mean_abs_diff - 11.0 / (W * H * 4)) < 1e-12);
    amp_image_free(&b);

    /* depth: a 16-bit expected image compares the actual one converted to 16 bits
     * (v * 257), in 16-bit steps; an 8-bit expected one rounds a 16-bit actual */
    amp_image e16 = make(W, H, 4, 16, v8);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) test_image_set(&e16, x, y, c, test_image_get(&a, x, y, c) * 257 + (x == 2 && y == 1 ? 100 : 0));
    REQUIRE_OK(amp_image_compare_images(&e16, &a, NULL, &r));
    REQUIRE(r.max_abs_diff == 100 && r.differing_texels == 1 && amp_index_equal(r.first_difference, amp_index2(1, 2)));
    REQUIRE(fabs(r.psnr - 10 * log10(65535.0 * 65535.0 / (4 * 100.0 * 100.0 / (W * H * 4)))) < 1e-9);
    /* 257 v + 100 rounds to v at 8 bits, + 129 to v + 1 */
    REQUIRE_OK(amp_image_compare_images(&a, &e16, NULL, &r));
    REQUIRE(r.equal);
    test_image_set(&e16, 4, 4, 2, test_image_get(&a, 4, 4, 2) * 257 + 129);
    test_image_set(&e16, 5, 4, 2, test_image_get(&a, 5, 4, 2) * 257 + 128);
    REQUIRE_OK(amp_image_compare_images(&a, &e16, NULL, &r));
    REQUIRE(r.differing_texels == 1 && r.max_abs_diff == 1 && amp_index_equal(r.first_difference, amp_index2(4, 4)));
    /* float: differences in values, peak 1 */
    float fa[2] = {0.25f, 0.5f}, fb[2] = {0.25f, 0.75f};
    amp_image x = {2, 1, 1, 32, sizeof fa, fa, AMP_IMAGE_FORMAT_AUTO}, y = {2, 1, 1, 32, sizeof fb, fb, 0};
    REQUIRE_OK(amp_image_compare_images(&x, &y, NULL, &r));
    REQUIRE(r.max_abs_diff == 0.25 && fabs(r.psnr - 10 * log10(1 / (0.0625 / 2))) < 1e-9 && r.differing_texels == 1);
    REQUIRE_OK(amp_image_compare_images(&x, &y, &(amp_image_compare_desc){.tolerance = 0.25}, &r));
    REQUIRE(r.equal);
    /* the same infinities and NaNs are no difference; an infinity against a number is an infinite one */
    float fi[4] = {INFINITY, -INFINITY, NAN, 1.0f}, fj[4] = {INFINITY, -INFINITY, NAN, INFINITY};
    amp_image inf1 = {4, 1, 1, 32, sizeof fi, fi, AMP_IMAGE_FORMAT_AUTO}, inf2 = inf1;
    REQUIRE_OK(amp_image_compare_images(&inf1, &inf2, NULL, &r));
    REQUIRE(r.equal && r.max_abs_diff == 0 && r.mean_abs_diff == 0 && isinf(r.psnr) && r.psnr > 0);
    inf2.pixels = fj;
    REQUIRE_OK(amp_image_compare_images(&inf1, &inf2, &(amp_image_compare_desc){.tolerance = 1e30}, &r));
    REQUIRE(!r.equal && r.differing_texels == 1 && isinf(r.max_abs_diff) &&
            amp_index_equal(r.first_difference, amp_index2(0, 3)));
    /* strided images compare their texels only */
    amp_image big = make(W + 3, H, 4, 8, v8);
    amp_image region = {W, H, 4, 8, big.stride, big.pixels, AMP_IMAGE_FORMAT_AUTO};
    for (int yy = 0; yy < H; yy++) memset((uint8_t *)big.pixels + yy * big.stride + W * 4, 0x5A, 12);
    REQUIRE_OK(amp_image_compare_images(&a, &region, NULL, &r));
    REQUIRE(r.equal && r.texels == W * H);
    amp_image_free(&big);

    /* errors name both images */
    amp_image other = make(H, W, 3, 8, v8);
    REQUIRE_FAIL(amp_image_compare_images(&a, &other, NULL, &r), AMP_ERROR_INVALID_ARGUMENT,
                 "cannot compare the expected image, 7x5 with 4 channels, with the actual one, 5x7 with 3 channels");
    amp_image_free(&other);
    other = make(W, H, 3, 8, v8);
    REQUIRE_FAIL(amp_image_compare_images(&a, &other, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "7x5 with 3 channels");
    REQUIRE_FAIL(amp_image_compare_images(&a, NULL, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "NULL image");
    REQUIRE_FAIL(amp_image_compare_images(&a, &a, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL out");
    REQUIRE_FAIL(amp_image_compare_images(&a, &a, &(amp_image_compare_desc){.tolerance = -1}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "tolerance -1");
    REQUIRE_FAIL(amp_image_compare_images(&a, &a, &(amp_image_compare_desc){.max_fraction = 1.5}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "max_fraction 1.5");
    amp_image bad = a;
    bad.stride = 3;
    REQUIRE_FAIL(amp_image_compare_images(&a, &bad, NULL, &r), AMP_ERROR_INVALID_ARGUMENT,
                 "the actual image (7x5, 4 channels of 8 bits, stride 3)");
    amp_image_free(&other);
    amp_image_free(&e16);
    amp_image_free(&a);
}

static unsigned diff_luma(unsigned r, unsigned g, unsigned b) { return (77 * r + 150 * g + 29 * b) >> 8; }

/* amp_image_diff: a faded gray copy of expected (luma / 3 + 170) with the texels that
 * differ by more than the tolerance in red, exactly, for RGB, gray, 16-bit and float. */
static void test_diff(void)
{
    amp_image e = make(W, H, 3, 8, v8), a = make(W, H, 3, 8, v8), d;
    test_image_set(&a, 2, 1, 1, test_image_get(&a, 2, 1, 1) + 3); /* over a tolerance of 2 */
    test_image_set(&a, 4, 3, 2, test_image_get(&a, 4, 3, 2) - 2); /* within it */
    test_image_set(&a, 6, 4, 0, test_image_get(&a, 6, 4, 0) + 9); /* over */
    REQUIRE_OK(amp_image_diff(&e, &a, 2, &d));
    REQUIRE(d.width == W && d.height == H && d.channels == 3 && d.bits == 8 && d.stride == W * 3);
    int bad = 0;
    for (int y = 0; y < H && d.pixels; y++)
        for (int x = 0; x < W; x++) {
            bool red = (x == 2 && y == 1) || (x == 6 && y == 4);
            unsigned faded = diff_luma(v8(x, y, 0), v8(x, y, 1), v8(x, y, 2)) / 3 + 170;
            for (int c = 0; c < 3; c++) {
                unsigned want = red ? (c == 0 ? 255 : 0) : faded;
                if (test_image_get(&d, x, y, c) != want && bad++ < 3)
                    fprintf(stderr, "diff (row %d, col %d) channel %d: %g, want %u\n", y, x, c, test_image_get(&d, x, y, c), want);
            }
        }
    REQUIRE_INT(bad, 0);
    /* a known texel: v8(0, 0) = (0, 50, 100): luma (0 + 7500 + 2900) >> 8 = 40, 40 / 3 + 170 = 183 */
    REQUIRE(test_image_get(&d, 0, 0, 0) == 183 && test_image_get(&d, 0, 0, 1) == 183 && test_image_get(&d, 0, 0, 2) == 183);
    amp_image_free(&d);
    /* tolerance 0: the within-tolerance texel turns red too */
    REQUIRE_OK(amp_image_diff(&e, &a, 0, &d));
    REQUIRE(test_image_get(&d, 4, 3, 0) == 255 && test_image_get(&d, 4, 3, 1) == 0);
    amp_image_free(&d);
    amp_image_free(&a);
    amp_image_free(&e);

    /* gray + alpha at 16 bits: the gray is channel 0 at 8 bits; alpha differences count */
    e = make(W, H, 2, 16, v16), a = make(W, H, 2, 16, v16);
    test_image_set(&a, 3, 0, 1, test_image_get(&a, 3, 0, 1) + 300);
    REQUIRE_OK(amp_image_diff(&e, &a, 299, &d));
    bad = 0;
    for (int y = 0; y < H && d.pixels; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 3; c++) {
                unsigned want = x == 3 && y == 0 ? (c == 0 ? 255 : 0) : to8(v16(x, y, 0)) / 3 + 170;
                bad += test_image_get(&d, x, y, c) != want;
            }
    REQUIRE_INT(bad, 0);
    amp_image_free(&d);
    REQUIRE_OK(amp_image_diff(&e, &a, 300, &d));
    REQUIRE(test_image_get(&d, 3, 0, 0) == test_image_get(&d, 3, 0, 1));
    amp_image_free(&d);
    /* an 8-bit actual against the 16-bit expected: compared at 16 bits */
    amp_image a8 = make(W, H, 2, 8, v8);
    REQUIRE_OK(amp_image_diff(&e, &a8, 65535, &d));
    REQUIRE(test_image_get(&d, 0, 0, 1) != 0);
    amp_image_free(&d);
    amp_image_free(&a8);
    /* float: values, and NaN against NaN is no difference */
    float fe[3] = {0.5f, NAN, 2.0f}, fa[3] = {0.5f, NAN, 2.5f};
    amp_image x = {3, 1, 1, 32, sizeof fe, fe, AMP_IMAGE_FORMAT_AUTO}, y = {3, 1, 1, 32, sizeof fa, fa, 0};
    REQUIRE_OK(amp_image_diff(&x, &y, 0.1, &d));
    REQUIRE(test_image_get(&d, 0, 0, 0) == 128 / 3 + 170 && test_image_get(&d, 1, 0, 0) == 170 && test_image_get(&d, 2, 0, 0) == 255 &&
            test_image_get(&d, 2, 0, 1) == 0);
    amp_image_free(&d);
    /* the same infinity is no difference: faded white (1.0 clamped: 255 / 3 + 170) */
    fe[2] = fa[2] = INFINITY;
    REQUIRE_OK(amp_image_diff(&x, &y, 0, &d));
    REQUIRE(test_image_get(&d, 2, 0, 0) == 255 && test_image_get(&d, 2, 0, 1) == 255);
    amp_image_free(&d);

    amp_image small = make(3, 3, 2, 16, v16);
    d.width = 9;
    REQUIRE_FAIL(amp_image_diff(&e, &small, 0, &d), AMP_ERROR_INVALID_ARGUMENT, "7x5 with 2 channels");
    REQUIRE_FAIL(amp_image_diff(&e, &small, 0, &d), AMP_ERROR_INVALID_ARGUMENT, "3x3 with 2 channels");
    REQUIRE(d.width == 0 && d.pixels == NULL);
    REQUIRE_FAIL(amp_image_diff(&e, &a, -1, &d), AMP_ERROR_INVALID_ARGUMENT, "tolerance -1");
    REQUIRE_FAIL(amp_image_diff(&e, &a, NAN, &d), AMP_ERROR_INVALID_ARGUMENT, "tolerance");
    REQUIRE_FAIL(amp_image_diff(&e, &a, 0, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL out");
    amp_image_free(&small);
    amp_image_free(&a);
    amp_image_free(&e);
}

/* ---- golden images ---- */

/* Restores an environment variable saved by save_env. */
typedef struct saved_env {
    const char *name;
    char *value; /* NULL: unset */
} saved_env;

static saved_env save_env(const char *name)
{
    const char *v = getenv(name);
    return (saved_env){name, v ? strdup(v) : NULL};
}

static void restore_env(saved_env *s)
{
    if (s->value) setenv(s->name, s->value, 1);
    else unsetenv(s->name);
    free(s->value);
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    char path[512];
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0) remove_dir(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

/* amp_image_check_golden: a missing golden is written (not under CI, where it is an
 * error naming the file), AMPVK_UPDATE_GOLDEN=1 rewrites it, a failed check writes
 * NAME.actual.png, NAME.expected.png and NAME.diff.png into the failure folder (made
 * for it, or $AMPVK_GOLDEN_FAILURES), a size mismatch is an error that still writes
 * the actual and expected images. */
static void test_check_golden(amp_accelerator_view *v)
{
    saved_env env[3] = {save_env("CI"), save_env("AMPVK_UPDATE_GOLDEN"), save_env("AMPVK_GOLDEN_FAILURES")};
    unsetenv("CI");
    unsetenv("AMPVK_UPDATE_GOLDEN");
    unsetenv("AMPVK_GOLDEN_FAILURES");
    const char *dir = OUT "golden", *golden = OUT "golden/rgba.png", *fails = OUT "golden/failures/deeper";
    remove_dir(dir);
    mkdir(dir, 0777);

    amp_image im = make(W, H, 4, 8, v8), back;
    amp_texture *t = amp_texture_from_image(v, &im, 0);
    amp_image_golden_desc gd = {.compare = {0}, .failure_dir = fails};
    amp_image_compare_result r;

    /* missing, CI set: an error naming the file, nothing written */
    setenv("CI", "1", 1);
    REQUIRE_FAIL(amp_image_check_golden(t, golden, &gd, &r), AMP_ERROR_IO, golden);
    REQUIRE(strstr(amp_last_error(), "missing") && strstr(amp_last_error(), "AMPVK_UPDATE_GOLDEN=1"));
    REQUIRE(!exists(golden) && !exists(OUT "golden/failures"));
    /* CI=0 or false is not set */
    setenv("CI", "false", 1);
    REQUIRE_OK(amp_image_check_golden(t, golden, &gd, &r));
    REQUIRE(r.golden_written && r.passed && r.equal && r.texels == W * H && exists(golden));
    unlink(golden);
    /* missing without CI: written from the texture */
    unsetenv("CI");
    memset(&r, 0xFF, sizeof r);
    REQUIRE_OK(amp_image_check_golden(t, golden, &gd, &r));
    REQUIRE(r.golden_written && r.passed && r.equal && r.texels == W * H && isinf(r.psnr));
    REQUIRE_OK(amp_image_load(golden, NULL, &back));
    REQUIRE(same_pixels(&im, &back) && back.format == AMP_IMAGE_FORMAT_PNG);
    amp_image_free(&back);
    /* present: compared, passes, writes nothing */
    setenv("CI", "1", 1);
    REQUIRE_OK(amp_image_check_golden(t, golden, &gd, &r));
    REQUIRE(!r.golden_written && r.passed && r.equal && r.texels == W * H);
    REQUIRE(!exists(OUT "golden/failures"));

    /* a different texture: fails; the three pictures are written into a new folder */
    amp_image im2 = make(W, H, 4, 8, v8);
    test_image_set(&im2, 5, 2, 1, test_image_get(&im2, 5, 2, 1) + 7);
    test_image_set(&im2, 1, 4, 3, test_image_get(&im2, 1, 4, 3) - 1);
    amp_texture *t2 = amp_texture_from_image(v, &im2, 0);
    REQUIRE_OK(amp_image_check_golden(t2, golden, &(amp_image_golden_desc){{.tolerance = 1}, fails}, &r));
    REQUIRE(!r.passed && !r.equal && !r.golden_written && r.differing_texels == 1 && r.max_abs_diff == 7);
    REQUIRE(amp_index_equal(r.first_difference, amp_index2(2, 5)));
    REQUIRE_INT(count_files(fails), 3);
    REQUIRE_OK(amp_image_load(OUT "golden/failures/deeper/rgba.actual.png", NULL, &back));
    REQUIRE(same_pixels(&im2, &back));
    amp_image_free(&back);
    REQUIRE_OK(amp_image_load(OUT "golden/failures/deeper/rgba.expected.png", NULL, &back));
    REQUIRE(same_pixels(&im, &back));
    amp_image_free(&back);
    amp_image want_diff;
    amp_image_compare_result drawn;
    REQUIRE_OK(amp_image_compare_draw(&im, &im2, &(amp_image_compare_desc){.tolerance = 1}, AMP_IMAGE_DRAW_OVERLAY,
                                      &drawn, &want_diff));
    REQUIRE_OK(amp_image_load(OUT "golden/failures/deeper/rgba.diff.png", NULL, &back));
    REQUIRE(same_pixels(&want_diff, &back) && back.channels == 4);
    REQUIRE(test_image_get(&back, 5, 2, 0) == 255 && test_image_get(&back, 5, 2, 1) == 0 && test_image_get(&back, 1, 4, 1) != 0);
    amp_image_free(&back);
    amp_image_free(&want_diff);
    /* allowed by the description: passed, nothing more written */
    remove_dir(OUT "golden/failures");
    REQUIRE_OK(
        amp_image_check_golden(t2, golden, &(amp_image_golden_desc){{.tolerance = 1, .max_pixels = 1}, fails}, &r));
    REQUIRE(r.passed && !r.equal && r.allowed_texels == 1);
    REQUIRE_OK(amp_image_check_golden(t2, golden, &(amp_image_golden_desc){{.tolerance = 7}, fails}, &r));
    REQUIRE(r.passed && r.equal);
    REQUIRE(!exists(OUT "golden/failures"));
    /* no failure folder: nothing written; $AMPVK_GOLDEN_FAILURES when the desc names none */
    REQUIRE_OK(amp_image_check_golden(t2, golden, NULL, &r));
    REQUIRE(!r.passed && r.differing_texels == 2);
    REQUIRE(!exists(OUT "golden/failures"));
    setenv("AMPVK_GOLDEN_FAILURES", OUT "golden/failures/env", 1);
    REQUIRE_OK(amp_image_check_golden(t2, golden, NULL, &r));
    REQUIRE(!r.passed && exists(OUT "golden/failures/env/rgba.actual.png") &&
            exists(OUT "golden/failures/env/rgba.expected.png") && exists(OUT "golden/failures/env/rgba.diff.png"));
    unsetenv("AMPVK_GOLDEN_FAILURES");
    remove_dir(OUT "golden/failures");

    /* AMPVK_UPDATE_GOLDEN=1 (even with CI) rewrites the golden from the texture */
    setenv("AMPVK_UPDATE_GOLDEN", "1", 1);
    REQUIRE_OK(amp_image_check_golden(t2, golden, &gd, &r));
    REQUIRE(r.golden_written && r.passed);
    unsetenv("AMPVK_UPDATE_GOLDEN");
    REQUIRE_OK(amp_image_load(golden, NULL, &back));
    REQUIRE(same_pixels(&im2, &back));
    amp_image_free(&back);
    REQUIRE_OK(amp_image_check_golden(t2, golden, &gd, &r));
    REQUIRE(r.passed && r.equal && !r.golden_written);
    REQUIRE(!exists(OUT "golden/failures"));

    /* another size: AMP_ERROR_INVALID_ARGUMENT, the actual and expected images written, no diff */
    amp_image im3 = make(H, W, 4, 8, v8);
    amp_texture *t3 = amp_texture_from_image(v, &im3, 0);
    REQUIRE_FAIL(amp_image_check_golden(t3, golden, &gd, &r), AMP_ERROR_INVALID_ARGUMENT, golden);
    REQUIRE(strstr(amp_last_error(), "an image of 7x5 with 4 channels"));
    REQUIRE(exists(OUT "golden/failures/deeper/rgba.actual.png") &&
            exists(OUT "golden/failures/deeper/rgba.expected.png") &&
            !exists(OUT "golden/failures/deeper/rgba.diff.png"));
    REQUIRE_OK(amp_image_load(OUT "golden/failures/deeper/rgba.actual.png", NULL, &back));
    REQUIRE(same_pixels(&im3, &back));
    amp_image_free(&back);

    /* a 16-bit texture writes a 16-bit golden */
    amp_image im16 = make(W, H, 1, 16, v16);
    amp_texture *t16 = amp_texture_from_image(v, &im16, 0);
    unsetenv("CI");
    REQUIRE_OK(amp_image_check_golden(t16, OUT "golden/gray16.png", NULL, &r));
    REQUIRE(r.golden_written);
    REQUIRE_OK(amp_image_load(OUT "golden/gray16.png", NULL, &back));
    REQUIRE(same_pixels(&im16, &back));
    amp_image_free(&back);

    REQUIRE_FAIL(amp_image_check_golden(NULL, golden, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "NULL argument");
    REQUIRE_FAIL(amp_image_check_golden(t, NULL, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "NULL argument");
    REQUIRE_FAIL(amp_image_check_golden(t, golden, &(amp_image_golden_desc){{.tolerance = -2}, NULL}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "tolerance -2");
    /* a golden in a folder that does not exist cannot be written */
    REQUIRE_FAIL(amp_image_check_golden(t, OUT "golden/no/such/x.png", NULL, &r), AMP_ERROR_IO, "no/such/x.png");

    amp_texture_destroy(&t);
    amp_texture_destroy(&t2);
    amp_texture_destroy(&t3);
    amp_texture_destroy(&t16);
    amp_image_free(&im);
    amp_image_free(&im2);
    amp_image_free(&im3);
    amp_image_free(&im16);
    for (int i = 0; i < 3; i++) restore_env(&env[i]);
}

int main(void)
{
    test_begin();
    mkdir(OUT, 0777);
    /* the host functions need no device; the huge headers first, while the peak
       memory is low */
    test_huge_headers(NULL);
    test_max_pixels(NULL);
    test_load_formats();
    test_load_conversions();
    test_load_jpeg();
    test_load_errors();
    test_save_png();
    test_save_png_runs();
    test_save_bmp_tga();
    test_save_float();
    test_save_jpeg();
    test_save_stride();
    test_save_errors();
    test_compare_images();
    test_diff();
    amp_accelerator_view *v = test_view();
    test_texture_round_trips(v);
    test_texture_files(v);
    test_huge_headers(v);
    test_max_pixels(v);
    test_check_golden(v);
    return test_end();
}
