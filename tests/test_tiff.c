/* TIFF through libtiff (src/image/tiff.c): OpenCV's files read as cv2.imread reads them,
 * tifffile's (tiles, planes, gray + alpha, big-endian, BigTIFF, MinIsWhite, palettes,
 * 1-bit, CMYK) and hand-made ones (the floating-point predictor) read to the samples
 * numpy wrote, round trips at every depth, channel count and compression, and broken,
 * truncated and hostile files refused, and the Orientation tag applied as cv2.imread
 * applies it. Fixtures: tests/data/formats/tiff/make_tiff.py. */
#include <math.h>
#include <sys/stat.h>

#include "test.h"

#define FMT AMPVK_TEST_DATA "/formats/tiff/"
#define OUT "test_tiff_out/"
#define W 29
#define H 24

static size_t image_bytes(const amp_image *im)
{
    return (size_t)im->width * (size_t)im->height * (size_t)im->channels * (size_t)(im->bits / 8);
}

/* Same size, channels, depth and samples (packed images). */
static bool same_pixels(const amp_image *a, const amp_image *b)
{
    return a->width == b->width && a->height == b->height && a->channels == b->channels && a->bits == b->bits &&
           a->pixels && b->pixels && memcmp(a->pixels, b->pixels, image_bytes(a)) == 0;
}

/* OpenCV's files against what cv2.imread decoded them to: exact, except the LogLuv
 * floats, whose XYZ to RGB ampvk turns with OpenCV's matrix in plain float arithmetic
 * while OpenCV's cvtColor may use fused multiply-adds: a few units of the last place. */
static void test_cv2_files(void)
{
    static const struct {
        const char *name;
        int channels, bits;
    } cases[] = {{"cv2_gray8", 1, 8},          {"cv2_rgb8", 3, 8},
                 {"cv2_rgba8", 4, 8},          {"cv2_gray16", 1, 16},
                 {"cv2_rgb16", 3, 16},         {"cv2_rgba16", 4, 16},
                 {"cv2_gray32", 1, 32},        {"cv2_rgb32", 3, 32},
                 {"cv2_rgba32", 4, 32},        {"cv2_rgb8_packbits", 3, 8},
                 {"cv2_gray16_packbits", 1, 16}, {"cv2_gray16_deflate", 1, 16},
                 {"cv2_rgba8_adobe_deflate", 4, 8}, {"cv2_rgb8_jpeg", 3, 8},
                 {"cv2_rgb16_none", 3, 16}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], ref[512];
        snprintf(path, sizeof path, FMT "%s.tif", cases[i].name);
        amp_image tif, cv = {0};
        REQUIRE_OK(amp_image_load(path, NULL, &tif));
        REQUIRE(tif.width == W && tif.height == H && tif.channels == cases[i].channels && tif.bits == cases[i].bits);
        REQUIRE_INT(tif.format, AMP_IMAGE_FORMAT_TIFF);
        if (cases[i].bits == 32) {
            snprintf(ref, sizeof ref, FMT "%s.cv2.f32", cases[i].name);
            size_t n;
            float *want = (float *)test_read_bytes(ref, 1 << 20, &n);
            REQUIRE_INT(n, (size_t)W * H * cases[i].channels * 4);
            const float *got = tif.pixels;
            bool logluv = cases[i].channels == 3;
            double worst = 0;
            for (size_t k = 0; got && want && k < n / 4; k++)
                worst = fmax(worst, fabs((double)got[k] - want[k]) / fmax(1.0, fabs(want[k])));
            printf("%s: ampvk vs cv2: largest relative difference %g\n", cases[i].name, worst);
            REQUIRE(worst <= (logluv ? 1e-6 : 0));
            free(want);
        } else {
            snprintf(ref, sizeof ref, FMT "%s.cv2.png", cases[i].name);
            REQUIRE_OK(amp_image_load(ref, NULL, &cv));
            REQUIRE(same_pixels(&tif, &cv));
        }
        /* from memory, and converted on the way */
        size_t n;
        unsigned char *bytes = test_read_bytes(path, 1 << 20, &n);
        amp_image mem;
        REQUIRE_OK(amp_image_load_memory(bytes, n, "memory.tif", NULL, &mem));
        REQUIRE(same_pixels(&tif, &mem));
        amp_image_free(&mem);
        if (cases[i].bits != 32) {
            REQUIRE_OK(amp_image_load_memory(bytes, n, "memory.tif", &(amp_image_load_desc){.channels = 4, .bits = 16},
                                             &mem));
            REQUIRE(mem.channels == 4 && mem.bits == 16);
            amp_image_free(&mem);
        }
        free(bytes);
        amp_image_free(&tif);
        amp_image_free(&cv);
    }
}

/* Files tagged with each orientation: what cv2.imread shows (the turned size too, from
 * amp_image_info as well), and with ignore_orientation the samples as stored. */
static void test_orientation(void)
{
    static const struct {
        const char *base;
        int orientation, channels, bits;
    } cases[] = {{"ori_rgb8", 1, 3, 8},    {"ori_rgb8", 2, 3, 8},     {"ori_rgb8", 3, 3, 8},
                 {"ori_rgb8", 4, 3, 8},    {"ori_rgb8", 5, 3, 8},     {"ori_rgb8", 6, 3, 8},
                 {"ori_rgb8", 7, 3, 8},    {"ori_rgb8", 8, 3, 8},     {"ori_gray16", 3, 1, 16},
                 {"ori_gray16", 7, 1, 16}, {"ori_palette8", 2, 3, 8}, {"ori_palette8", 6, 3, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], ref[512], raw[512];
        snprintf(path, sizeof path, FMT "%s_o%d.tif", cases[i].base, cases[i].orientation);
        snprintf(ref, sizeof ref, FMT "%s_o%d.cv2.png", cases[i].base, cases[i].orientation);
        snprintf(raw, sizeof raw, FMT "%s.raw", cases[i].base);
        bool turned = cases[i].orientation >= 5;
        amp_image tif, cv, info, stored;
        REQUIRE_OK(amp_image_load(path, NULL, &tif));
        REQUIRE_OK(amp_image_load(ref, NULL, &cv));
        REQUIRE(tif.width == (turned ? H : W) && tif.height == (turned ? W : H));
        REQUIRE(tif.channels == cases[i].channels && tif.bits == cases[i].bits);
        if (!same_pixels(&tif, &cv)) fprintf(stderr, "%s differs from %s\n", path, ref);
        REQUIRE(same_pixels(&tif, &cv));
        REQUIRE_OK(amp_image_info(path, &info));
        REQUIRE(info.width == tif.width && info.height == tif.height);
        REQUIRE_OK(amp_image_load(path, &(amp_image_load_desc){.ignore_orientation = true}, &stored));
        REQUIRE(stored.width == W && stored.height == H);
        size_t n;
        unsigned char *want = test_read_bytes(raw, 1 << 20, &n);
        REQUIRE(want && stored.pixels && n == image_bytes(&stored) && memcmp(stored.pixels, want, n) == 0);
        free(want);
        amp_image_free(&tif);
        amp_image_free(&cv);
        amp_image_free(&stored);
    }
}

/* tifffile's and hand-made files against the samples numpy wrote (NAME.raw). */
static void test_other_files(void)
{
    static const struct {
        const char *name;
        int channels, bits;
    } cases[] = {
        {"tf_rgb8_tiled", 3, 8},       {"tf_rgb16_planar", 3, 16},     {"tf_rgba8_planar_tiled_deflate", 4, 8},
        {"tf_ga8", 2, 8},              {"tf_ga16_assoc", 2, 16},       {"tf_rgb16_be", 3, 16},
        {"tf_gray32f_be_tiled", 1, 32}, {"tf_rgb8_bigtiff", 3, 8},     {"tf_miniswhite8", 1, 8},
        {"tf_miniswhite16", 1, 16},    {"tf_palette8", 3, 8},          {"tf_bilevel", 1, 8},
        {"tf_cmyk8", 3, 8},            {"own_gray32f_pred3", 1, 32},   {"own_rgba32f_pred3", 4, 32},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], ref[512];
        snprintf(path, sizeof path, FMT "%s.tif", cases[i].name);
        snprintf(ref, sizeof ref, FMT "%s.raw", cases[i].name);
        amp_image tif;
        REQUIRE_OK(amp_image_load(path, NULL, &tif));
        REQUIRE(tif.width == W && tif.height == H);
        REQUIRE_INT(tif.channels, cases[i].channels);
        REQUIRE_INT(tif.bits, cases[i].bits);
        size_t n;
        unsigned char *want = test_read_bytes(ref, 1 << 20, &n);
        REQUIRE_INT(n, (size_t)W * H * cases[i].channels * cases[i].bits / 8);
        bool same = tif.pixels && want && n == image_bytes(&tif) && memcmp(tif.pixels, want, n) == 0;
        if (!same) fprintf(stderr, "%s differs from %s\n", path, ref);
        REQUIRE(same);
        free(want);
        amp_image_free(&tif);
    }
}

/* A w x h image of smooth ramps and noise at bits with channels. */
static amp_image picture(int w, int h, int channels, int bits)
{
    amp_image im;
    REQUIRE_OK(amp_image_create(w, h, channels, bits, &im));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++) {
                double v = (double)((x * (c + 1) + y * 3) % 256) / 255.0 * 0.9 + (test_rand() % 100) / 1000.0;
                size_t at = ((size_t)y * (size_t)w + (size_t)x) * (size_t)channels + (size_t)c;
                if (bits == 8) ((uint8_t *)im.pixels)[at] = (uint8_t)(v * 255);
                else if (bits == 16) ((uint16_t *)im.pixels)[at] = (uint16_t)(v * 65535);
                else ((float *)im.pixels)[at] = (float)(v * 3 - 1); /* past 0..1 */
            }
    return im;
}

/* Every depth, channel count and compression written and read back exactly, through
 * memory and files; DEFAULT compresses integers (LZW) and leaves floats as they are. */
static void test_round_trips(void)
{
    static const amp_image_compression comps[] = {AMP_IMAGE_COMPRESSION_DEFAULT, AMP_IMAGE_COMPRESSION_NONE,
                                                  AMP_IMAGE_COMPRESSION_LZW, AMP_IMAGE_COMPRESSION_DEFLATE};
    static const int sizes[][2] = {{67, 45}, {300, 250}, {1, 1}};
    for (int bi = 0; bi < 3; bi++)
        for (int ch = 1; ch <= 4; ch++)
            for (size_t si = 0; si < 3; si++) {
                int bits = 8 << bi;
                amp_image im = picture(sizes[si][0], sizes[si][1], ch, bits);
                size_t sizes_of[4] = {0};
                for (size_t ci = 0; ci < 4; ci++) {
                    unsigned char *data = NULL;
                    size_t n = 0;
                    amp_image_save_desc d = {.format = AMP_IMAGE_FORMAT_TIFF, .compression = comps[ci]};
                    REQUIRE_OK(amp_image_encode(&im, &d, &data, &n));
                    sizes_of[ci] = n;
                    REQUIRE(n > 8 && data && memcmp(data, "II*\0", 4) == 0);
                    amp_image back = {0};
                    REQUIRE_OK(amp_image_load_memory(data, n, "round.tif", NULL, &back));
                    bool same = same_pixels(&im, &back);
                    if (!same)
                        fprintf(stderr, "round trip %dx%d, %d channels, %d bits, compression %d differs\n",
                                im.width, im.height, ch, bits, (int)comps[ci]);
                    REQUIRE(same);
                    amp_image_free(&back);
                    free(data);
                }
                if (si == 1) {
                    size_t raw = image_bytes(&im);
                    REQUIRE(sizes_of[1] > raw);                                   /* NONE */
                    if (bits != 32) /* the floats' noisy low bits hardly compress */
                        REQUIRE(sizes_of[2] < sizes_of[1] && sizes_of[3] < sizes_of[1]); /* LZW, deflate */
                    REQUIRE_INT(sizes_of[0], bits == 32 ? sizes_of[1] : sizes_of[2]);
                }
                amp_image_free(&im);
            }
    /* a file on disk, by its name; a packed copy of an image with a stride */
    amp_image im = picture(40, 30, 3, 16), back;
    REQUIRE_OK(amp_image_save(OUT "rgb16.tiff", &im, NULL));
    REQUIRE_OK(amp_image_load(OUT "rgb16.tiff", NULL, &back));
    REQUIRE(same_pixels(&im, &back) && back.format == AMP_IMAGE_FORMAT_TIFF);
    amp_image_free(&back);
    amp_image wide;
    REQUIRE_OK(amp_image_create(50, 30, 3, 16, &wide));
    for (int y = 0; y < 30; y++) memcpy((uint8_t *)wide.pixels + (size_t)y * wide.stride,
                                        (uint8_t *)im.pixels + (size_t)y * im.stride, im.stride);
    wide.width = 40;
    REQUIRE_OK(amp_image_save(OUT "stride.tif", &wide, &(amp_image_save_desc){.compression = AMP_IMAGE_COMPRESSION_DEFLATE}));
    REQUIRE_OK(amp_image_load(OUT "stride.tif", NULL, &back));
    REQUIRE(same_pixels(&im, &back));
    amp_image_free(&back);
    wide.width = 50;
    amp_image_free(&wide);
    /* depths asked for: 16-bit at 8 bits, and at 32 (floats v / 65535) */
    REQUIRE_OK(amp_image_save(OUT "as8.tif", &im, &(amp_image_save_desc){.bits = 8}));
    REQUIRE_OK(amp_image_load(OUT "as8.tif", NULL, &back));
    REQUIRE(back.bits == 8 && back.channels == 3);
    uint16_t v16 = ((uint16_t *)im.pixels)[5];
    REQUIRE_INT(((uint8_t *)back.pixels)[5], (v16 * 255 + 32767) / 65535);
    amp_image_free(&back);
    REQUIRE_OK(amp_image_save(OUT "as32.tif", &im, &(amp_image_save_desc){.bits = 32}));
    REQUIRE_OK(amp_image_load(OUT "as32.tif", NULL, &back));
    REQUIRE(back.bits == 32 && fabsf(((float *)back.pixels)[5] - v16 / 65535.0f) < 1e-6f);
    amp_image_free(&back);
    /* compressions TIFF does not write; a failed save leaves the file as it was */
    unsigned char *data = NULL;
    size_t n = 0;
    REQUIRE_FAIL(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_TIFF,
                                                             .compression = AMP_IMAGE_COMPRESSION_RLE},
                                  &data, &n),
                 AMP_ERROR_INVALID_ARGUMENT, "compression DEFAULT, NONE, LZW or DEFLATE, not RLE");
    REQUIRE_FAIL(amp_image_save(OUT "rgb16.tiff", &im, &(amp_image_save_desc){.compression = AMP_IMAGE_COMPRESSION_PIZ}),
                 AMP_ERROR_INVALID_ARGUMENT, "not PIZ");
    REQUIRE_OK(amp_image_load(OUT "rgb16.tiff", NULL, &back));
    REQUIRE(same_pixels(&im, &back));
    amp_image_free(&back);
    amp_image_free(&im);
}

/* A little-endian TIFF of a w x h 8-bit gray image in deflate strips of rps rows, all
 * pointing at the same 16 bytes: a tiny file claiming a huge image. */
static unsigned char *shared_strips(uint32_t w, uint32_t h, uint32_t rps, size_t *size)
{
    uint32_t strips = (h + rps - 1) / rps, ifd = 24, entries = 9;
    uint32_t arrays = ifd + 2 + entries * 12 + 4;
    *size = arrays + (size_t)strips * 8;
    unsigned char *d = calloc(1, *size);
    memcpy(d, "II*\0", 4);
    d[4] = (unsigned char)ifd;
    memset(d + 8, 0x5A, 16);
    unsigned char *p = d + ifd;
    p[0] = (unsigned char)entries;
    p += 2;
    const uint32_t tags[9][4] = {{256, 4, 1, w},   {257, 4, 1, h},       {258, 3, 1, 8},
                                 {259, 3, 1, 8},   {262, 3, 1, 1},       {273, 4, strips, arrays},
                                 {277, 3, 1, 1},   {278, 4, 1, rps},     {279, 4, strips, arrays + strips * 4}};
    for (int i = 0; i < 9; i++, p += 12) {
        uint32_t t[4];
        memcpy(t, tags[i], sizeof t);
        if (t[2] == 1 && t[0] != 273 && t[0] != 279) {
            memcpy(p, &(uint16_t){(uint16_t)t[0]}, 2), memcpy(p + 2, &(uint16_t){(uint16_t)t[1]}, 2);
            memcpy(p + 4, &t[2], 4);
            if (t[1] == 3) memcpy(p + 8, &(uint16_t){(uint16_t)t[3]}, 2);
            else memcpy(p + 8, &t[3], 4);
        } else {
            memcpy(p, &(uint16_t){(uint16_t)t[0]}, 2), memcpy(p + 2, &(uint16_t){(uint16_t)t[1]}, 2);
            memcpy(p + 4, &t[2], 4);
            memcpy(p + 8, &t[3], 4);
        }
    }
    for (uint32_t i = 0; i < strips; i++) {
        memcpy(d + arrays + 4 * i, &(uint32_t){8}, 4);
        memcpy(d + arrays + 4 * (strips + i), &(uint32_t){16}, 4);
    }
    return d;
}

/* Truncated, corrupt and hostile files: AMP_ERROR_FORMAT (or OUT_OF_BOUNDS) naming the
 * file and the reason, quickly. */
static void test_broken_files(void)
{
    size_t n;
    unsigned char *good = test_read_bytes(FMT "cv2_rgb16.tif", 1 << 20, &n);
    amp_image im;
    /* cut at several lengths (libtiff puts the directory after the strips) */
    const size_t cuts[] = {4, 8, 9, 100, n / 2, n - 200, n - 13, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        amp_status s = amp_image_load_memory(good, cuts[i], "cut.tif", NULL, &im);
        REQUIRE_INT(s, AMP_ERROR_FORMAT);
        REQUIRE(strstr(amp_last_error(), "cut.tif") && im.pixels == NULL);
        if (s != AMP_ERROR_FORMAT) amp_image_free(&im);
    }
    /* tifffile puts the directory first: cut, its strips end early */
    size_t pn;
    unsigned char *planar = test_read_bytes(FMT "tf_rgb16_planar.tif", 1 << 20, &pn);
    REQUIRE_FAIL(amp_image_load_memory(planar, pn - 100, "short.tif", NULL, &im), AMP_ERROR_FORMAT,
                 "short.tif is truncated: strip 11 of");
    free(planar);
    /* header bytes flipped: the magic number, the directory's offset */
    unsigned char *bad = malloc(n);
    memcpy(bad, good, n);
    bad[2] = 41;
    REQUIRE_FAIL(amp_image_load_memory(bad, n, "magic.tif", NULL, &im), AMP_ERROR_FORMAT,
                 "magic.tif is not an image file");
    memcpy(bad, good, n);
    bad[7] ^= 0x40;
    REQUIRE_FAIL(amp_image_load_memory(bad, n, "ifd.tif", NULL, &im), AMP_ERROR_FORMAT, "ifd.tif is");
    /* every byte of the directory's entries flipped in turn: errors or images, never a crash */
    uint32_t at;
    memcpy(&at, good + 4, 4);
    int failed = 0;
    for (size_t i = at; i < n; i++) {
        memcpy(bad, good, n);
        bad[i] ^= 0xFF;
        amp_status s = amp_image_load_memory(bad, n, "flip.tif", NULL, &im);
        if (s == AMP_OK) amp_image_free(&im);
        else {
            failed++;
            REQUIRE(strstr(amp_last_error(), "flip.tif") != NULL);
        }
    }
    REQUIRE(failed > 0);
    free(bad);
    free(good);

    /* a kind of TIFF ampvk does not read, named by its numbers */
    REQUIRE_FAIL(amp_image_load(FMT "unsupported_gray32u.tif", NULL, &im), AMP_ERROR_FORMAT,
                 "unsupported_gray32u.tif: TIFF of photometric 1, 1 samples per pixel of 32 bits in sample format 1 "
                 "is not supported (libtiff: ");
    /* strips all at the same 16 bytes: 60000 x 60000 fails on ampvk's size limit,
       16000 x 16000 on the strips' byte counts, both before decoding */
    double t0 = test_now_seconds();
    unsigned char *huge = shared_strips(60000, 60000, 64, &n);
    REQUIRE_FAIL(amp_image_load_memory(huge, n, "huge.tif", NULL, &im), AMP_ERROR_OUT_OF_BOUNDS,
                 "huge.tif: image 60000x60000 of 1 channels at 8 bits is 3600000000 bytes");
    free(huge);
    huge = shared_strips(16000, 16000, 8, &n);
    REQUIRE_FAIL(amp_image_load_memory(huge, n, "shared.tif", NULL, &im), AMP_ERROR_FORMAT,
                 "shared.tif is truncated: its 16000x16000 image is 256000000 bytes but its 2000 strips hold 32000 "
                 "bytes of AdobeDeflate data, which decode to 33024000 at most");
    /* a strip past the end of the file */
    uint32_t arrays;
    memcpy(&arrays, huge + 24 + 2 + 5 * 12 + 8, 4);
    memcpy(huge + arrays + 4 * 7, &(uint32_t){(uint32_t)n - 8}, 4);
    REQUIRE_FAIL(amp_image_load_memory(huge, n, "past.tif", NULL, &im), AMP_ERROR_FORMAT,
                 "past.tif is truncated: strip 7 of 16 bytes at offset");
    free(huge);
    double took = test_now_seconds() - t0;
    printf("hostile files refused in %.3f s\n", took);
    REQUIRE(took < 2.0);
}

int main(void)
{
    test_begin();
    mkdir(OUT, 0777);
    test_cv2_files();
    test_other_files();
    test_orientation();
    test_round_trips();
    test_broken_files();
    return test_end();
}
