/* OpenEXR files (src/image/exr.c, OpenEXRCore): the fixtures of tests/data/formats/exr
 * (make_exr.py: written by OpenCV 4.6 in every compression it writes, or by hand where
 * OpenCV writes none: Y + A, tiled, mipmapped, a data window off the origin, a UINT
 * channel, a layer, a Z channel) read exactly as cv2.imread reads them; round trips
 * of every channel count, depth and compression ampvk writes, exact; the writer's
 * errors; truncated and corrupt files, and headers claiming huge images, failing
 * cleanly from what they are. No device is needed. */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#ifndef AMPVK_TEST_DATA
#error "AMPVK_TEST_DATA must name tests/data"
#endif
#define EXR AMPVK_TEST_DATA "/formats/exr/"
#define OUT "test_exr.out/" /* under the test's working directory (the build tree) */

/* An IEEE half as a float (every half is a float exactly). */
static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return h & 0x8000 ? -v : v;
}

/* The nearest half of a float (round to nearest even), as a float: what a half
 * channel holds of it. */
static float to_half(float f) { return (float)(_Float16)f; }

/* n floats of a reference file (.f32, or .f16 widened), malloc'ed; NULL on failure. */
static float *reference(const char *name, bool half, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, EXR "%s.%s", name, half ? "f16" : "f32");
    size_t size;
    unsigned char *raw = test_read_bytes(path, n * 4 + 1, &size);
    REQUIRE_INT(size, n * (half ? 2 : 4));
    if (!raw || size != n * (half ? 2 : 4)) {
        free(raw);
        return NULL;
    }
    float *out = malloc(n * sizeof(float));
    for (size_t i = 0; out && i < n; i++) {
        if (half) out[i] = half_to_float((uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8));
        else memcpy(&out[i], raw + 4 * i, 4); /* the host is little-endian */
    }
    free(raw);
    return out;
}

/* Whether two images hold the same float samples, bit for bit; prints the first
 * difference. */
static bool same_floats(const char *what, const float *got, const float *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], 4) != 0) {
            fprintf(stderr, "%s: sample %zu is %.9g, expected %.9g\n", what, i, got[i], want[i]);
            return false;
        }
    return true;
}

/* ---- reading: OpenCV's decode of every fixture ---- */

static void test_fixtures(void)
{
    static const struct {
        const char *name;
        int w, h, channels;
        bool half;
    } files[] = {
        {"y_float", 13, 7, 1, false},           {"rgb_float", 13, 7, 3, false},
        {"rgba_float", 13, 7, 4, false},         {"y_half", 13, 7, 1, true},
        {"rgb_half", 13, 7, 3, true},            {"rgba_half", 13, 7, 4, true},
        {"rgb_half_none", 23, 35, 3, true},      {"rgb_half_rle", 23, 35, 3, true},
        {"rgb_half_zips", 23, 35, 3, true},      {"rgb_half_zip", 23, 35, 3, true},
        {"rgb_half_piz", 23, 35, 3, true},       {"rgb_half_pxr24", 23, 35, 3, true},
        {"rgb_half_b44", 23, 35, 3, true},       {"rgb_half_b44a", 23, 35, 3, true},
        {"y_float_none", 23, 35, 1, false},      {"y_float_rle", 23, 35, 1, false},
        {"y_float_zips", 23, 35, 1, false},      {"y_float_zip", 23, 35, 1, false},
        {"y_float_piz", 23, 35, 1, false},       {"y_float_pxr24", 23, 35, 1, false},
        {"ya_half", 13, 7, 2, true},             {"window_rgb_float", 13, 7, 3, false},
        {"uint_y", 9, 4, 1, false},              {"layer_rgb_half", 9, 4, 3, true},
        {"z_float", 9, 4, 1, false},             {"tiled_rgba_half_zip", 37, 21, 4, true},
        {"tiled_rgb_float_none", 37, 21, 3, false}, {"tiled_y_half_mip", 37, 21, 1, true},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, EXR "%s.exr", files[i].name);
        amp_image im, info;
        REQUIRE_OK(amp_image_info(path, &info));
        REQUIRE(info.width == files[i].w && info.height == files[i].h && info.channels == files[i].channels &&
                info.bits == 32 && info.format == AMP_IMAGE_FORMAT_EXR);
        if (amp_image_load(path, NULL, &im) != AMP_OK) {
            REQUIRE_OK(amp_last_status());
            continue;
        }
        REQUIRE(im.width == files[i].w && im.height == files[i].h && im.channels == files[i].channels &&
                im.bits == 32 && im.format == AMP_IMAGE_FORMAT_EXR && im.stride == (size_t)im.width * im.channels * 4);
        size_t n = (size_t)files[i].w * files[i].h * files[i].channels;
        float *want = reference(files[i].name, files[i].half, n);
        REQUIRE(want && same_floats(files[i].name, im.pixels, want, n));
        free(want);
        /* asked for 4 channels: the same samples, alpha 1 where the file has none */
        amp_image four;
        REQUIRE_OK(amp_image_load(path, &(amp_image_load_desc){.channels = 4}, &four));
        if (files[i].channels == 3 && four.pixels) {
            const float *a = im.pixels, *b = four.pixels;
            bool same = true;
            for (size_t t = 0; t < (size_t)im.width * im.height; t++)
                same &= memcmp(a + 3 * t, b + 4 * t, 12) == 0 && b[4 * t + 3] == 1.0f;
            REQUIRE(same);
        }
        amp_image_free(&four);
        amp_image_free(&im);
    }
    /* OpenEXRCore 3.1 has no DWA decoder: refused from the header */
    amp_image im;
    REQUIRE_FAIL(amp_image_load(EXR "rgb_half_dwaa.exr", NULL, &im), AMP_ERROR_FORMAT,
                 "rgb_half_dwaa.exr: DWAA-compressed OpenEXR files are not supported");
    REQUIRE_FAIL(amp_image_info(EXR "rgb_half_dwab.exr", &im), AMP_ERROR_FORMAT,
                 "rgb_half_dwab.exr: DWAB-compressed OpenEXR files are not supported");
    /* a float file asked for integer samples: refused, as for HDR */
    REQUIRE_FAIL(amp_image_load(EXR "y_half.exr", &(amp_image_load_desc){.bits = 16}, &im),
                 AMP_ERROR_INVALID_ARGUMENT, "bits 16 is not 0 or 32");
}

/* ---- writing ---- */

/* A w x h image of floats: for half files, values a half holds exactly (any finite
 * half, subnormal ones too); for float ones, large, small and subnormal floats. */
static amp_image make(int w, int h, int channels, bool half, uint32_t seed)
{
    amp_image im;
    REQUIRE_OK(amp_image_create(w, h, channels, 32, &im));
    float *p = im.pixels;
    test_rng_state = seed;
    for (size_t i = 0; p && i < (size_t)w * h * channels; i++) {
        uint32_t r = test_rand();
        if (half) { /* any finite half: a random pattern, infinities and NaNs made finite */
            uint16_t h = (uint16_t)r;
            if ((h & 0x7C00) == 0x7C00) h ^= 0x4000;
            p[i] = half_to_float(h);
            if (i % 97 == 5) p[i] = 65504.0f;
        } else {
            p[i] = ((float)(r % 2000001) - 1000000.0f) * 1.2345e-4f;
            if (i % 97 == 5) p[i] = 3.0e38f;
            if (i % 89 == 7) p[i] = 1.0e-40f; /* a subnormal float */
        }
    }
    return im;
}

/* The compression byte of a file's header (-1 if absent). */
static int compression_of(const unsigned char *d, size_t n)
{
    static const char key[] = "compression\0compression\0\1\0\0\0";
    for (size_t i = 8; i + sizeof key < n; i++)
        if (memcmp(d + i, key, sizeof key - 1) == 0) return d[i + sizeof key - 1];
    return -1;
}

/* Every channel count, both depths, every compression written: loads back exactly
 * (half files from values a half holds), at the size and compression asked for. */
static void test_round_trips(void)
{
    static const struct {
        amp_image_compression c;
        int exr; /* the file's compression byte */
    } comps[] = {{AMP_IMAGE_COMPRESSION_DEFAULT, 3}, {AMP_IMAGE_COMPRESSION_NONE, 0}, {AMP_IMAGE_COMPRESSION_RLE, 1},
                 {AMP_IMAGE_COMPRESSION_DEFLATE, 3}, {AMP_IMAGE_COMPRESSION_PIZ, 4}};
    for (int channels = 1; channels <= 4; channels++)
        for (int bits = 16; bits <= 32; bits += 16)
            for (size_t k = 0; k < sizeof comps / sizeof comps[0]; k++) {
                /* 41 rows: ZIP's 16-row and PIZ's 32-row chunks with a short last one */
                amp_image im = make(29, 41, channels, bits == 16, (uint32_t)(channels * 100 + bits + k));
                unsigned char *file = NULL;
                size_t size = 0;
                amp_image_save_desc d = {.format = AMP_IMAGE_FORMAT_EXR, .bits = bits, .compression = comps[k].c};
                REQUIRE_OK(amp_image_encode(&im, &d, &file, &size));
                REQUIRE_INT(compression_of(file, size), comps[k].exr);
                amp_image back;
                REQUIRE_OK(amp_image_load_memory(file, size, "round.exr", NULL, &back));
                REQUIRE(back.width == 29 && back.height == 41 && back.channels == channels && back.bits == 32 &&
                        back.format == AMP_IMAGE_FORMAT_EXR);
                if (back.pixels) {
                    char what[64];
                    snprintf(what, sizeof what, "%d channels, %d bits, compression %d", channels, bits,
                             (int)comps[k].c);
                    REQUIRE(same_floats(what, back.pixels, im.pixels, (size_t)29 * 41 * channels));
                }
                amp_image_free(&back);
                free(file);
                amp_image_free(&im);
            }
    /* floats that a half does not hold are rounded to the nearest half; integer images
       are written as their 0..1 floats, at 16 bits (half) by default */
    amp_image f = make(9, 5, 3, false, 7), back;
    unsigned char *file;
    size_t size;
    REQUIRE_OK(amp_image_encode(&f, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_EXR, .bits = 16}, &file, &size));
    REQUIRE_OK(amp_image_load_memory(file, size, "rounded.exr", NULL, &back));
    bool rounded = back.pixels != NULL;
    for (size_t i = 0; rounded && i < 9 * 5 * 3; i++) {
        float want = to_half(((float *)f.pixels)[i]);
        rounded = memcmp(&((float *)back.pixels)[i], &want, 4) == 0;
    }
    REQUIRE(rounded);
    amp_image_free(&back);
    free(file);
    amp_image_free(&f);
    amp_image g8;
    REQUIRE_OK(amp_image_create(6, 3, 2, 8, &g8));
    for (int i = 0; i < 6 * 3 * 2; i++) ((uint8_t *)g8.pixels)[i] = (uint8_t)(i * 11);
    REQUIRE_OK(amp_image_encode(&g8, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_EXR}, &file, &size));
    REQUIRE_OK(amp_image_load_memory(file, size, "gray8.exr", NULL, &back));
    REQUIRE(back.channels == 2 && back.bits == 32);
    bool scaled = back.pixels != NULL;
    for (int i = 0; scaled && i < 6 * 3 * 2; i++) {
        scaled = ((float *)back.pixels)[i] == to_half((float)(uint8_t)(i * 11) / 255.0f);
        if (!scaled) fprintf(stderr, "gray8 %d: %.9g\n", i, ((float *)back.pixels)[i]);
    }
    REQUIRE(scaled);
    amp_image_free(&back);
    free(file);
    amp_image_free(&g8);
}

/* A large image (more texels than exr.c decodes on one thread) both ways, exact; the
 * same file cut short fails on whichever thread meets the cut. */
static void test_large(void)
{
    amp_image im, back;
    REQUIRE_OK(amp_image_create(1031, 700, 3, 32, &im));
    for (size_t i = 0; im.pixels && i < (size_t)1031 * 700 * 3; i++) /* smooth: every chunk deflates */
        ((float *)im.pixels)[i] = (float)((i / 3) % 1031 + (i / 3) / 1031 + i % 3) / 64.0f;
    unsigned char *file;
    size_t size;
    REQUIRE_OK(amp_image_encode(&im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_EXR, .bits = 16}, &file, &size));
    REQUIRE_OK(amp_image_load_memory(file, size, "large.exr", NULL, &back));
    REQUIRE(back.pixels && same_floats("large", back.pixels, im.pixels, (size_t)1031 * 700 * 3));
    amp_image_free(&back);
    REQUIRE_FAIL(amp_image_load_memory(file, size - size / 3, "large_cut.exr", NULL, &back), AMP_ERROR_FORMAT,
                 "large_cut.exr is truncated");
    REQUIRE(!back.pixels);
    for (size_t at = size / 2; at < size; at += size / 7) file[at] ^= 0x55; /* damaged chunks */
    REQUIRE_FAIL(amp_image_load_memory(file, size, "large_bad.exr", NULL, &back), AMP_ERROR_FORMAT,
                 "large_bad.exr is corrupt");
    free(file);
    amp_image_free(&im);
}

static bool same_file(const char *path, const char *text)
{
    size_t n;
    unsigned char *d = test_read_bytes(path, 256, &n);
    bool same = d && n == strlen(text) && memcmp(d, text, n) == 0;
    free(d);
    return same;
}

static void test_save_errors(void)
{
    amp_image im = make(5, 4, 3, true, 1);
    test_write_bytes(OUT "kept.exr", "untouched", 9);
    REQUIRE_FAIL(amp_image_save(OUT "kept.exr", &im, &(amp_image_save_desc){.compression = AMP_IMAGE_COMPRESSION_LZW}),
                 AMP_ERROR_INVALID_ARGUMENT, "kept.exr: an OpenEXR file is not written with LZW compression");
    REQUIRE(same_file(OUT "kept.exr", "untouched"));
    REQUIRE_FAIL(amp_image_save(OUT "kept.exr", &im, &(amp_image_save_desc){.bits = 8}), AMP_ERROR_INVALID_ARGUMENT,
                 "an OpenEXR file has 16 or 32 bits per channel, not 8");
    REQUIRE(same_file(OUT "kept.exr", "untouched"));
    /* saved by name: the extension picks EXR, the file loads back */
    REQUIRE_OK(amp_image_save(OUT "saved.exr", &im, NULL));
    amp_image back;
    REQUIRE_OK(amp_image_load(OUT "saved.exr", NULL, &back));
    REQUIRE(back.pixels && back.format == AMP_IMAGE_FORMAT_EXR &&
            same_floats("saved", back.pixels, im.pixels, 5 * 4 * 3));
    amp_image_free(&back);
    REQUIRE(amp_image_format_from_path("a.EXR") == AMP_IMAGE_FORMAT_EXR);
    REQUIRE(strcmp(amp_image_format_name(AMP_IMAGE_FORMAT_EXR), "exr") == 0);
    amp_image_free(&im);
}

/* ---- damaged files ---- */

/* The offset of attribute `name`'s value in a header, 0 if absent. */
static size_t attribute(const unsigned char *d, size_t n, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 8; i + len + 1 < n; i++)
        if (memcmp(d + i, name, len + 1) == 0) {
            size_t type = i + len + 1, size = type + strlen((const char *)d + type) + 1;
            return size + 4;
        }
    return 0;
}

static void put32(unsigned char *p, int32_t v) { memcpy(p, &v, 4); }

/* Cut at many lengths, bytes flipped in the header and the data, fields of the header
 * made wrong: AMP_ERROR_FORMAT naming the file and why, nothing left allocated (the
 * test runs under ASan in CI's sanitizer job). */
static void test_damaged(void)
{
    static const char *files[] = {"rgb_half_zip", "y_float_piz", "rgb_half_pxr24", "rgb_half_b44", "rgb_half_rle",
                                  "tiled_rgba_half_zip", "tiled_y_half_mip", "rgb_half_none", "ya_half"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, EXR "%s.exr", files[i]);
        size_t n;
        unsigned char *d = test_read_bytes(path, 1 << 20, &n);
        if (!d) continue;
        size_t table = attribute(d, n, "screenWindowWidth") + 4; /* about where the header ends */
        for (size_t cut = 1; cut < n; cut += cut < 64 ? 7 : cut < 400 ? 23 : 97) {
            amp_image im = {.width = 1};
            amp_status s = amp_image_load_memory(d, cut, "cut.exr", NULL, &im);
            REQUIRE_INT(s, AMP_ERROR_FORMAT);
            REQUIRE(strstr(amp_last_error(), "cut.exr"));
            REQUIRE(im.pixels == NULL && im.width == 0);
            /* past the header, a cut file is truncated, never corrupt */
            if (cut > table + 16 && !strstr(amp_last_error(), "is truncated")) {
                fprintf(stderr, "%s cut at %zu of %zu: %s\n", files[i], cut, n, amp_last_error());
                REQUIRE(!"a cut file is truncated");
            }
        }
        /* every byte flipped in turn: loads or fails cleanly */
        for (size_t at = 0; at < n; at += at < 400 ? 1 : 13) {
            d[at] ^= 0xA5;
            amp_image im;
            amp_status s = amp_image_load_memory(d, n, "flipped.exr", NULL, &im);
            REQUIRE(s == AMP_OK || (s == AMP_ERROR_FORMAT && strstr(amp_last_error(), "flipped.exr")) ||
                    s == AMP_ERROR_OUT_OF_BOUNDS);
            if (s == AMP_OK) amp_image_free(&im);
            d[at] ^= 0xA5;
        }
        free(d);
    }
    size_t n;
    unsigned char *d = test_read_bytes(EXR "rgb_half_zip.exr", 1 << 20, &n);
    if (!d) return;
    amp_image im;
    size_t comp = attribute(d, n, "compression"), dw = attribute(d, n, "dataWindow"),
           ch = attribute(d, n, "channels");
    REQUIRE(comp && dw && ch);
    d[comp] = 42;
    REQUIRE_FAIL(amp_image_load_memory(d, n, "comp.exr", NULL, &im), AMP_ERROR_FORMAT, "comp.exr is corrupt");
    d[comp] = 3;
    put32(d + dw + 8, -5); /* max.x before min.x */
    REQUIRE_FAIL(amp_image_load_memory(d, n, "window.exr", NULL, &im), AMP_ERROR_FORMAT, "window.exr is corrupt");
    put32(d + dw + 8, 22);
    /* the first channel ("B\0", then type, pLinear and reserved) subsampled 2x2 */
    put32(d + ch + 2 + 8, 2);
    put32(d + ch + 2 + 12, 2);
    REQUIRE_FAIL(amp_image_load_memory(d, n, "sub.exr", NULL, &im), AMP_ERROR_FORMAT, "sub.exr");
    put32(d + ch + 2 + 8, 1);
    put32(d + ch + 2 + 12, 1);
    d[0] = 0x77;
    REQUIRE_FAIL(amp_image_load_memory(d, n, "magic.exr", NULL, &im), AMP_ERROR_FORMAT, "not an image file");
    d[0] = 0x76;
    REQUIRE_OK(amp_image_load_memory(d, n, "restored.exr", NULL, &im));
    amp_image_free(&im);
    free(d);
}

/* A header claiming a huge image fails from the header in little time and memory:
 * more pixels than the file's bytes can unpack to (its compression's densest), or
 * more than ampvk's limits. */
static void test_huge_headers(void)
{
    static const struct {
        int32_t max_x, max_y;
        int comp;
        amp_status status;
        const char *text;
    } cases[] = {
        {16383, 16383, 3, AMP_ERROR_FORMAT, "its header claims 16384x16384 pixels of 3 channels (1610612736 bytes) but "
                                            "a ZIP exr file of"},
        {16383, 16383, 7, AMP_ERROR_FORMAT, "16384x16384 pixels of 3 channels (1610612736 bytes) but a B44A exr file"},
        {65534, 9, 0, AMP_ERROR_FORMAT, "65535x10 pixels of 3 channels (3932100 bytes) but a uncompressed exr file"},
        {69999, 9, 3, AMP_ERROR_OUT_OF_BOUNDS, "image 70000x10 is larger than ampvk's 65535x65535"},
        {9, 69999, 4, AMP_ERROR_OUT_OF_BOUNDS, "image 10x70000 is larger than ampvk's 65535x65535"},
    };
    size_t n;
    unsigned char *d = test_read_bytes(EXR "rgb_half_zip.exr", 1 << 20, &n);
    if (!d) return;
    size_t comp = attribute(d, n, "compression"), dw = attribute(d, n, "dataWindow");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        d[comp] = (unsigned char)cases[i].comp;
        put32(d + dw + 8, cases[i].max_x);
        put32(d + dw + 12, cases[i].max_y);
        long before = test_peak_kib();
        double t0 = test_now_seconds();
        amp_image im = {.width = 1};
        REQUIRE_FAIL(amp_image_load_memory(d, n, "huge.exr", NULL, &im), cases[i].status, cases[i].text);
        REQUIRE(im.pixels == NULL && im.width == 0);
        REQUIRE_CMP(test_now_seconds() - t0, <, 1.0, "%.3f");
        REQUIRE_CMP(test_peak_kib() - before, <, 50L * 1024, "%ld");
    }
    free(d);
}

int main(void)
{
    test_begin();
    mkdir(OUT, 0777);
    test_huge_headers();
    test_fixtures();
    test_round_trips();
    test_large();
    test_save_errors();
    test_damaged();
    return test_end();
}
