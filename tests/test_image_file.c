/* Image files (ampvk/image.h): every kind of PNG of tests/data (written by
 * tests/data/make_fixtures.py, whose pixel formulas are repeated here), save round
 * trips at 8 and 16 bits, kernel results saved and compared, corrupt and foreign
 * files, failed saves that must leave nothing behind, Radiance HDR, comparison. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>

#include "test.h"

#ifndef AMPVK_TEST_DATA
#error "AMPVK_TEST_DATA must name tests/data"
#endif
#define DATA AMPVK_TEST_DATA "/"
#define OUT "test_image_file.out/" /* under the test's working directory (the build tree) */

enum { W = 7, H = 5 };

/* ---- the fixture generator's formulas ---- */
static unsigned v8(int x, int y, int c) { return (unsigned)(x * 37 + y * 71 + c * 50) & 0xFF; }
static unsigned v16(int x, int y, int c) { return (unsigned)(x * 4099 + y * 9973 + c * 21011 + 257) & 0xFFFF; }
static unsigned palette(int i, int c)
{
    return c == 0 ? (unsigned)(i * 37 + 5) & 255 : c == 1 ? (unsigned)(i * 91 + 17) & 255 : (unsigned)(i * 53 + 29) & 255;
}
static unsigned pal8(int x, int y, int c) { return palette((x * 3 + y * 5) % 11, c); }
static unsigned pal8_trns(int x, int y, int c)
{
    int i = (x * 3 + y * 5) % 11;
    return c < 3 ? palette(i, c) : i < 6 ? (unsigned)(i * 29 + 7) & 255 : 255;
}
static unsigned pal4(int x, int y, int c) { return palette((x * 3 + y * 5) % 16, c); }
/* the Adam7 palette files: palettes of the N entries their pixels use */
static unsigned pal1_adam7(int x, int y, int c) { return palette((x * 3 + y * 5) % 2, c); }
static unsigned pal2_adam7(int x, int y, int c) { return palette((x * 3 + y * 5) % 3, c); }
static unsigned pal4_adam7(int x, int y, int c) { return palette((x * 3 + y * 5) % 15, c); }
static unsigned gray1(int x, int y, int c) { return (void)c, (x + 2 * y) % 3 == 0 ? 255 : 0; }
static unsigned gray2(int x, int y, int c) { return (void)c, (unsigned)((x + 3 * y) & 3) * 85; }
static unsigned gray8_trns(int x, int y, int c) { return c == 0 ? v8(x, y, 0) : v8(x, y, 0) == v8(3, 2, 0) ? 0 : 255; }

static unsigned to8(unsigned v) { return (v * 255 + 32767) / 65535; }

typedef struct fixture {
    const char *file;
    amp_type type;
    int bits;
    unsigned (*value)(int x, int y, int c);
} fixture;

static const fixture fixtures[] = {
    {"gray8.png", AMP_UNORM, 8, v8},        {"gray16.png", AMP_UNORM, 16, v16},
    {"ga8.png", AMP_UNORM_2, 8, v8},        {"ga16.png", AMP_UNORM_2, 16, v16},
    {"rgb8.png", AMP_UNORM_3, 8, v8},       {"rgb16.png", AMP_UNORM_3, 16, v16},
    {"rgba8.png", AMP_UNORM_4, 8, v8},      {"rgba16.png", AMP_UNORM_4, 16, v16},
    {"pal8.png", AMP_UNORM_3, 8, pal8},     {"pal8_trns.png", AMP_UNORM_4, 8, pal8_trns},
    {"pal4.png", AMP_UNORM_3, 8, pal4},     {"gray1.png", AMP_UNORM, 8, gray1},
    {"gray2.png", AMP_UNORM, 8, gray2},     {"gray8_trns.png", AMP_UNORM_2, 8, gray8_trns},
    {"rgb8_adam7.png", AMP_UNORM_3, 8, v8}, {"pal1_adam7.png", AMP_UNORM_3, 8, pal1_adam7},
    {"pal2_adam7.png", AMP_UNORM_3, 8, pal2_adam7}, {"pal4_adam7.png", AMP_UNORM_3, 8, pal4_adam7},
    {"pal8_adam7.png", AMP_UNORM_3, 8, pal8},
};
#define NFIX (int)(sizeof fixtures / sizeof fixtures[0])

/* ---- helpers ---- */

/* Level 0 of t on the host (malloc'ed). */
static void *host_copy(amp_texture *t, size_t *size)
{
    *size = amp_extent_size(amp_texture_extent(t)) * amp_texture_texel_size(t);
    void *p = malloc(*size);
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, p, *size));
    return p;
}

static unsigned sample(const void *p, int bits, size_t i)
{
    return bits == 8 ? ((const uint8_t *)p)[i] : ((const uint16_t *)p)[i];
}

/* Requires t to be type/bits of extent (H, W) holding want(x, y, c), converted to bits. */
static void check_texels(const char *what, amp_texture *t, amp_type type, int bits, int from_bits,
                         unsigned (*want)(int, int, int))
{
    REQUIRE(t);
    if (!t) return;
    REQUIRE_INT(amp_texture_type(t), type);
    REQUIRE_INT(amp_texture_bits_per_scalar_element(t), bits);
    REQUIRE(amp_extent_equal(amp_texture_extent(t), amp_extent2(H, W)));
    if (amp_texture_type(t) != type || amp_texture_bits_per_scalar_element(t) != bits) return;
    size_t size;
    void *p = host_copy(t, &size);
    int n = amp_type_components(type), bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < n; c++) {
                unsigned w = want(x, y, c);
                w = bits == from_bits ? w : bits == 16 ? w * 257 : to8(w);
                unsigned got = sample(p, bits, ((size_t)y * W + x) * n + c);
                if (got != w && bad++ < 3)
                    fprintf(stderr, "%s: texel (row %d, col %d) channel %d is %u, expected %u\n", what, y, x, c, got, w);
            }
    REQUIRE_INT(bad, 0);
    free(p);
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* Recomputes the CRC of the chunk at offset pos. */
static void fix_crc(unsigned char *png, size_t pos)
{
    uint32_t len = (uint32_t)png[pos] << 24 | (uint32_t)png[pos + 1] << 16 | (uint32_t)png[pos + 2] << 8 | png[pos + 3];
    put32(png + pos + 8 + len, crc32_of(png + pos + 4, 4 + len));
}

/* png with the chunk `type` replaced by len bytes of data (removed when data is NULL),
 * CRC fixed; the new file in out (at most 1 << 16 bytes), its size returned. */
static size_t with_chunk(const unsigned char *png, size_t n, const char *type, const void *data, uint32_t len,
                         unsigned char *out)
{
    size_t o = 8, pos = 8;
    memcpy(out, png, 8);
    while (pos + 12 <= n) {
        uint32_t l = (uint32_t)png[pos] << 24 | (uint32_t)png[pos + 1] << 16 | (uint32_t)png[pos + 2] << 8 | png[pos + 3];
        if (memcmp(png + pos + 4, type, 4) != 0) {
            memcpy(out + o, png + pos, 12 + (size_t)l);
            o += 12 + (size_t)l;
        } else if (data) {
            put32(out + o, len);
            memcpy(out + o + 4, type, 4);
            memcpy(out + o + 8, data, len);
            fix_crc(out, o);
            o += 12 + (size_t)len;
        }
        pos += 12 + (size_t)l;
    }
    return o;
}

/* True if a file named *.tmp-* is left in OUT. */
static bool temp_files_left(void)
{
    DIR *d = opendir(OUT);
    bool found = false;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, ".tmp-")) found = true;
    if (d) closedir(d);
    return found;
}

static amp_texture *load(const char *file, const amp_image_load_desc *desc)
{
    char path[512];
    snprintf(path, sizeof path, DATA "%s", file);
    return amp_texture_load_png(NULL, path, desc);
}

/* ---- loading ---- */

static void test_load_kinds(void)
{
    for (int i = 0; i < NFIX; i++) {
        const fixture *f = &fixtures[i];
        amp_texture *t = load(f->file, NULL);
        check_texels(f->file, t, f->type, f->bits, f->bits, f->value);
        if (t) REQUIRE_INT(amp_texture_mip_levels(t), 1);
        amp_texture_destroy(&t);
        /* a zeroed desc is the same as none */
        t = load(f->file, &(amp_image_load_desc){0});
        check_texels(f->file, t, f->type, f->bits, f->bits, f->value);
        amp_texture_destroy(&t);
    }
}

static unsigned luma8(int x, int y, int c) { return (void)c, (v8(x, y, 0) * 77 + v8(x, y, 1) * 150 + v8(x, y, 2) * 29) >> 8; }
static unsigned gray_to_rgba(int x, int y, int c) { return c < 3 ? v8(x, y, 0) : 255; }

static void test_load_desc(void)
{
    amp_texture *t = load("gray8.png", &(amp_image_load_desc){.channels = 4});
    check_texels("gray8 as 4", t, AMP_UNORM_4, 8, 8, gray_to_rgba);
    amp_texture_destroy(&t);
    t = load("rgb8.png", &(amp_image_load_desc){.channels = 1});
    check_texels("rgb8 as 1", t, AMP_UNORM, 8, 8, luma8);
    amp_texture_destroy(&t);
    t = load("rgba8.png", &(amp_image_load_desc){.channels = 3});
    check_texels("rgba8 as 3", t, AMP_UNORM_3, 8, 8, v8);
    amp_texture_destroy(&t);
    t = load("rgb8.png", &(amp_image_load_desc){.bits = 16});
    check_texels("rgb8 as 16 bits", t, AMP_UNORM_3, 16, 8, v8);
    amp_texture_destroy(&t);
    t = load("rgba16.png", &(amp_image_load_desc){.bits = 8});
    check_texels("rgba16 as 8 bits", t, AMP_UNORM_4, 8, 16, v16);
    amp_texture_destroy(&t);
    t = load("rgba8.png", &(amp_image_load_desc){.mip_levels = AMP_MIP_FULL});
    check_texels("rgba8 with mips", t, AMP_UNORM_4, 8, 8, v8);
    if (t) REQUIRE_INT(amp_texture_mip_levels(t), 3); /* floor(log2(7)) + 1 */
    amp_texture_destroy(&t);

    REQUIRE_NULL_FAIL(load("rgb8.png", &(amp_image_load_desc){.channels = 5}), AMP_ERROR_INVALID_ARGUMENT, "channels 5");
    REQUIRE_NULL_FAIL(load("rgb8.png", &(amp_image_load_desc){.bits = 12}), AMP_ERROR_INVALID_ARGUMENT, "bits 12");
    REQUIRE_NULL_FAIL(load("rgb8.png", &(amp_image_load_desc){.mip_levels = 9}), AMP_ERROR_INVALID_ARGUMENT,
                      "rgb8.png");
    REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL path");
}

/* ---- saving ---- */

static void test_save_round_trip(void)
{
    for (int i = 0; i < NFIX; i++) {
        const fixture *f = &fixtures[i];
        amp_texture *t = load(f->file, NULL);
        REQUIRE(t);
        if (!t) continue;
        size_t size;
        void *orig = host_copy(t, &size);
        char path[512];
        for (int bits = 0; bits <= 16; bits += 8) {
            snprintf(path, sizeof path, OUT "%d-%s", bits, f->file);
            REQUIRE_OK(amp_texture_save_png(t, path, bits));
            amp_texture *back = amp_texture_load_png(NULL, path, NULL);
            int want_bits = bits ? bits : f->bits;
            check_texels(path, back, f->type, want_bits, f->bits, f->value);
            if (back && want_bits == f->bits) {
                /* the same bytes, and the comparison agrees */
                size_t bsize;
                void *b = host_copy(back, &bsize);
                REQUIRE(bsize == size && memcmp(b, orig, size) == 0);
                free(b);
                amp_image_compare_result r;
                REQUIRE_OK(amp_image_compare(t, back, NULL, &r));
                REQUIRE(r.equal && r.max_abs_diff == 0 && r.differing_texels == 0 && isinf(r.psnr));
                REQUIRE_INT(r.texels, W * H);
                REQUIRE_INT(r.first_difference.rank, 0);
            }
            /* the texture matches its own file at any depth it was written at */
            amp_image_compare_result r;
            REQUIRE_OK(amp_image_compare_png(want_bits == f->bits ? t : back, path, NULL, &r));
            REQUIRE(r.equal);
            amp_texture_destroy(&back);
        }
        free(orig);
        amp_texture_destroy(&t);
    }
}

static float f_to_unit(float f) { return f > 0 ? (f < 1 ? f : 1) : 0; }

/* A kernel writes an unorm_4 and a float_4 texture; both are saved and compared. */
static void test_kernel_results(amp_accelerator_view *v)
{
    amp_texture *u = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UNORM_4,
                                                                .bits_per_scalar_element = 8});
    amp_texture *f = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_FLOAT_4});
    REQUIRE(u && f);
    amp_texture_view *uw = amp_texture_view_create(u, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE});
    amp_texture_view *fw = amp_texture_view_create(f, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE});
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.rank = 2,
        .params = "writeonly_texture_view<unorm_4, 2> u, writeonly_texture_view<float_4, 2> f",
        .body = "int x = idx[1], y = idx[0];\n"
                "vec4 c = vec4((x * 37 + y * 71) & 255, (x * 37 + y * 71 + 50) & 255,\n"
                "              (x * 37 + y * 71 + 100) & 255, (x * 37 + y * 71 + 150) & 255) / 255.0;\n"
                "u_set(idx, unorm_4_make(c.x, c.y, c.z, c.w));\n"
                "f_set(idx, vec4(x * 0.25 - 0.5, y * 0.3, 2.0, y * 0.2 - x * 0.1));"});
    REQUIRE(k && uw && fw);
    if (!k || !uw || !fw) goto done;
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE_VIEW("u", uw), AMP_TEXTURE_VIEW("f", fw))));
    check_texels("kernel unorm_4", u, AMP_UNORM_4, 8, 8, v8);

    REQUIRE_OK(amp_texture_save_png(u, OUT "kernel_unorm.png", 0));
    amp_texture *back = amp_texture_load_png(v, OUT "kernel_unorm.png", NULL);
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare(u, back, &(amp_image_compare_desc){0}, &r));
    REQUIRE(r.equal && isinf(r.psnr));
    REQUIRE_OK(amp_image_compare_png(u, OUT "kernel_unorm.png", NULL, &r));
    REQUIRE(r.equal);
    amp_texture_destroy(&back);

    /* float: clamped to [0, 1], rounded to nearest, at 8 and 16 bits */
    size_t size;
    float *fp = host_copy(f, &size);
    for (int bits = 8; bits <= 16; bits += 8) {
        char path[256];
        snprintf(path, sizeof path, OUT "kernel_float%d.png", bits);
        REQUIRE_OK(amp_texture_save_png(f, path, bits));
        back = amp_texture_load_png(v, path, NULL);
        REQUIRE(back && amp_texture_type(back) == AMP_UNORM_4 && amp_texture_bits_per_scalar_element(back) == bits);
        if (!back) continue;
        size_t bsize;
        void *b = host_copy(back, &bsize);
        int bad = 0;
        for (size_t i = 0; i < (size_t)W * H * 4; i++) {
            unsigned want = (unsigned)(f_to_unit(fp[i]) * (bits == 8 ? 255.0 : 65535.0) + 0.5);
            if (sample(b, bits, i) != want && bad++ < 3)
                fprintf(stderr, "float %d bits: [%zu] %g -> %u, want %u\n", bits, i, fp[i], sample(b, bits, i), want);
        }
        REQUIRE_INT(bad, 0);
        free(b);
        REQUIRE_OK(amp_image_compare_png(f, path, NULL, &r));
        REQUIRE(r.equal && isinf(r.psnr));
        amp_texture_destroy(&back);
    }
    /* bits 0 for a float texture: 8 */
    REQUIRE_OK(amp_texture_save_png(f, OUT "kernel_float0.png", 0));
    back = amp_texture_load_png(v, OUT "kernel_float0.png", NULL);
    REQUIRE(back && amp_texture_bits_per_scalar_element(back) == 8);
    amp_texture_destroy(&back);
    free(fp);
done:
    amp_kernel_destroy(&k);
    amp_texture_view_destroy(&uw);
    amp_texture_view_destroy(&fw);
    amp_texture_destroy(&u);
    amp_texture_destroy(&f);
}

/* norm and 16-bit float textures: clamped to [0, 1] (NaN: 0), rounded to nearest */
static void test_save_conversions(amp_accelerator_view *v)
{
    const int8_t norm[8] = {-128, -1, 0, 64, 127, 100, 1, 50};
    /* 1, 0.5, -1, NaN, 0.333251953125, 2, 0.0999755859375, 0.75 */
    const uint16_t half[8] = {0x3C00, 0x3800, 0xBC00, 0x7E00, 0x3555, 0x4000, 0x2E66, 0x3A00};
    const unsigned want[2][2][8] = {
        {{0, 0, 0, 129, 255, 201, 2, 100}, {0, 0, 0, 33026, 65535, 51602, 516, 25801}},
        {{255, 128, 0, 0, 85, 255, 25, 191}, {65535, 32768, 0, 0, 21840, 65535, 6552, 49151}}};
    amp_texture *t[2] = {
        amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(1, 2), .type = AMP_NORM_4,
                                                   .bits_per_scalar_element = 8, .data = norm, .data_size = sizeof norm}),
        amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(1, 2), .type = AMP_FLOAT_4,
                                                   .bits_per_scalar_element = 16, .data = half, .data_size = sizeof half})};
    for (int k = 0; k < 2; k++) {
        REQUIRE(t[k]);
        for (int b = 0; b < 2 && t[k]; b++) {
            int bits = b ? 16 : 8;
            REQUIRE_OK(amp_texture_save_png(t[k], OUT "conversion.png", bits));
            amp_texture *back = amp_texture_load_png(v, OUT "conversion.png", NULL);
            REQUIRE(back && amp_texture_bits_per_scalar_element(back) == bits && amp_texture_type(back) == AMP_UNORM_4);
            if (!back) continue;
            size_t size;
            void *p = host_copy(back, &size);
            for (int i = 0; i < 8; i++) {
                test_checks++;
                if (sample(p, bits, (size_t)i) != want[k][b][i]) {
                    fprintf(stderr, "%s %d bits: [%d] = %u, expected %u\n", k ? "float16" : "norm8", bits, i,
                            sample(p, bits, (size_t)i), want[k][b][i]);
                    test_failures++;
                }
            }
            free(p);
            amp_texture_destroy(&back);
        }
        amp_texture_destroy(&t[k]);
    }
}

static void test_save_errors(amp_accelerator_view *v)
{
    amp_texture *good = load("rgb8.png", NULL);
    REQUIRE(good);
    REQUIRE_FAIL(amp_texture_save_png(good, OUT "no/such/dir/x.png", 8), AMP_ERROR_IO, OUT "no/such/dir/x.png");
    REQUIRE_FAIL(amp_texture_save_png(good, OUT "no/such/dir/x.png", 8), AMP_ERROR_IO, "No such file or directory");
    /* a directory in the way: the rename fails, the temporary file goes */
    mkdir(OUT "a_directory.png", 0777);
    REQUIRE_FAIL(amp_texture_save_png(good, OUT "a_directory.png", 8), AMP_ERROR_IO, "a_directory.png");
    REQUIRE(!temp_files_left());

    REQUIRE_OK(amp_texture_save_png(good, OUT "keep.png", 8));
    size_t before_size, after_size;
    unsigned char *before = test_read_bytes(OUT "keep.png", 1 << 16, &before_size);

    unsigned char px[W * H * 4 * 8] = {0};
    amp_texture *bad[4] = {
        amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_INT_4}),
        amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UINT, .bits_per_scalar_element = 16}),
        amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent1(W), .type = AMP_UNORM_4, .bits_per_scalar_element = 8}),
        amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent3(2, H, W), .type = AMP_UNORM, .bits_per_scalar_element = 8,
                                                   .data = px, .data_size = sizeof px}),
    };
    const char *why[4] = {"int_4 textures cannot be saved", "uint textures cannot be saved", "is 1-D", "is 3-D"};
    for (int i = 0; i < 4; i++) {
        REQUIRE(bad[i]);
        REQUIRE_FAIL(amp_texture_save_png(bad[i], OUT "keep.png", 8), AMP_ERROR_INVALID_ARGUMENT, why[i]);
        amp_texture_destroy(&bad[i]);
    }
    REQUIRE_FAIL(amp_texture_save_png(good, OUT "keep.png", 12), AMP_ERROR_INVALID_ARGUMENT, "bits 12");
    REQUIRE_FAIL(amp_texture_save_png(NULL, OUT "keep.png", 8), AMP_ERROR_INVALID_ARGUMENT, "NULL texture");
    REQUIRE_FAIL(amp_texture_save_png(good, NULL, 8), AMP_ERROR_INVALID_ARGUMENT, "NULL path");
    unsigned char *after = test_read_bytes(OUT "keep.png", 1 << 16, &after_size);
    REQUIRE(before && after && before_size == after_size && memcmp(before, after, before_size) == 0);
    REQUIRE(!temp_files_left());
    free(before);
    free(after);
    amp_texture_destroy(&good);
}

/* ---- bad files ---- */

static void require_png_fails(const char *name, const void *data, size_t size, amp_status st, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, OUT "%s", name);
    test_write_bytes(path, data, size);
    amp_clear_error();
    REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, path, NULL), st, text);
    REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, path, NULL), st, path);
    amp_image_compare_result r;
    amp_texture *t = load("gray8.png", NULL);
    REQUIRE(amp_image_compare_png(t, path, NULL, &r) != AMP_OK && strstr(amp_last_error(), path));
    amp_texture_destroy(&t);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_bad_files(void)
{
    size_t n;
    unsigned char *png = test_read_bytes(DATA "gray8.png", 1 << 16, &n);
    REQUIRE(png && n > 60);
    if (!png) return;
    unsigned char *copy = malloc(n);
    uint32_t idat_len = (uint32_t)png[33] << 24 | (uint32_t)png[34] << 16 | (uint32_t)png[35] << 8 | png[36];
    REQUIRE(memcmp(png + 37, "IDAT", 4) == 0);

    require_png_fails("empty.png", "", 0, AMP_ERROR_FORMAT, "is empty");
    require_png_fails("sig4.png", png, 4, AMP_ERROR_FORMAT, "not a PNG");
    require_png_fails("sig_only.png", png, 8, AMP_ERROR_FORMAT, "truncated");
    require_png_fails("header_only.png", png, 33, AMP_ERROR_FORMAT, "truncated");
    require_png_fails("mid_idat.png", png, 41 + idat_len / 2, AMP_ERROR_FORMAT, "truncated: chunk IDAT");
    require_png_fails("no_iend.png", png, n - 12, AMP_ERROR_FORMAT, "no IEND");
    require_png_fails("mid_iend.png", png, n - 3, AMP_ERROR_FORMAT, "truncated");

    memcpy(copy, png, n);
    copy[41 + idat_len / 2] ^= 0x55;
    require_png_fails("bad_crc.png", copy, n, AMP_ERROR_FORMAT, "bad CRC in chunk IDAT");
    /* the same damage with a CRC that agrees: the decoder finds it */
    fix_crc(copy, 33);
    require_png_fails("bad_zlib.png", copy, n, AMP_ERROR_FORMAT, "is corrupt");

    memcpy(copy, png, n);
    memset(copy + 33, 0xA5, 12);
    require_png_fails("garbage.png", copy, n, AMP_ERROR_FORMAT, "garbage");
    memcpy(copy, png, n);
    memset(copy + 8, 0, n - 8);
    require_png_fails("zeros.png", copy, n, AMP_ERROR_FORMAT, "corrupt");
    memcpy(copy, png, n);
    copy[25] = 5; /* color type 5 does not exist */
    fix_crc(copy, 8);
    require_png_fails("bad_color_type.png", copy, n, AMP_ERROR_FORMAT, "color type 5");

    const char text[] = "this is not an image\n";
    require_png_fails("text.png", text, sizeof text - 1, AMP_ERROR_FORMAT, "not a PNG");
    size_t hn;
    unsigned char *hdr = test_read_bytes(DATA "hdr_3x2.hdr", 1 << 16, &hn);
    require_png_fails("radiance.png", hdr, hn, AMP_ERROR_FORMAT, "not a PNG");
    free(hdr);

    /* Huge headers fail from the header, before anything is allocated for pixels
     * (the sanitizer build would report a 40 GB allocation). */
    memcpy(copy, png, n);
    put32(copy + 16, 100000);
    put32(copy + 20, 100000);
    fix_crc(copy, 8);
    double t0 = seconds();
    require_png_fails("huge.png", copy, n, AMP_ERROR_OUT_OF_BOUNDS, "image 100000x100000 is larger than the device's ");
    REQUIRE(seconds() - t0 < 5);
    /* one column wider than the device allows (16384 on lavapipe, more on GPUs); the
     * message names the file's size and the device's limit as amp_texture_create has it */
    amp_texture *too_wide = amp_texture_create(NULL, &(amp_texture_desc){.extent = amp_extent2(1, 1 << 20),
                                                                         .type = AMP_UNORM, .bits_per_scalar_element = 8});
    const char *at = strstr(amp_last_error(), "allows at most ");
    unsigned max = 0;
    REQUIRE(!too_wide && at && sscanf(at, "allows at most %u", &max) == 1);
    put32(copy + 16, max + 1);
    put32(copy + 20, 300);
    fix_crc(copy, 8);
    char want[128], limit[64];
    snprintf(want, sizeof want, "image %ux300 is larger than the device's ", max + 1);
    require_png_fails("wide.png", copy, n, AMP_ERROR_OUT_OF_BOUNDS, want);
    snprintf(limit, sizeof limit, "device's %ux%u", max, max);
    REQUIRE(!amp_texture_load_png(NULL, OUT "wide.png", NULL));
    REQUIRE(strstr(amp_last_error(), limit));

    REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, OUT "missing.png", NULL), AMP_ERROR_IO, OUT "missing.png");
    REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, OUT "missing.png", NULL), AMP_ERROR_IO, "No such file or directory");
    REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, OUT, NULL), AMP_ERROR_IO, "Is a directory");
    free(copy);
    free(png);
}

/* Palette files that lie: indices past the palette's end, no palette, a palette of 4
 * bytes. Each is an error naming the file and the reason, the same every time,
 * whatever was decoded before (no leftover memory can fill the missing colors). */
static void test_bad_palettes(void)
{
    size_t n;
    unsigned char *png = test_read_bytes(DATA "pal8.png", 1 << 16, &n);
    unsigned char *copy = malloc(1 << 16);
    REQUIRE(png && copy);
    if (!png || !copy) return;
    static const unsigned char five[15] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    struct {
        const char *name;
        const void *plte;
        uint32_t len;
        const char *why;
    } cases[] = {{"pal_short.png", five, 15, "pixel (2, 0) has palette index 6 but the palette has 5 entries"},
                 {"pal_none.png", NULL, 0, "missing PLTE"},
                 {"pal_4bytes.png", five, 4, "PLTE has 4 bytes"}};
    for (int i = 0; i < 3; i++) {
        size_t m = with_chunk(png, n, "PLTE", cases[i].plte, cases[i].len, copy);
        char path[512], first[512] = "";
        snprintf(path, sizeof path, OUT "%s", cases[i].name);
        test_write_bytes(path, copy, m);
        for (int round = 0; round < 3; round++) {
            amp_texture *good = load(round == 1 ? "rgba16.png" : "pal8.png", NULL);
            REQUIRE(good);
            amp_texture_destroy(&good);
            REQUIRE_NULL_FAIL(amp_texture_load_png(NULL, path, NULL), AMP_ERROR_FORMAT, path);
            REQUIRE(strstr(amp_last_error(), cases[i].why));
            if (round == 0) snprintf(first, sizeof first, "%s", amp_last_error());
            else REQUIRE(strcmp(first, amp_last_error()) == 0);
        }
        amp_image_compare_result r;
        amp_texture *t = load("pal8.png", NULL);
        REQUIRE_FAIL(amp_image_compare_png(t, path, NULL, &r), AMP_ERROR_FORMAT, cases[i].why);
        amp_texture_destroy(&t);
    }
    free(copy);
    free(png);
}

/* ---- Radiance HDR ---- */

static const unsigned char rgbe[6][4] = {{128, 64, 32, 129}, {0, 0, 0, 0}, {255, 1, 128, 136},
                                         {200, 100, 50, 120}, {16, 32, 64, 140}, {1, 2, 3, 128}};

static void test_hdr(void)
{
    for (int channels = 0; channels <= 4; channels++) {
        amp_texture *t = amp_texture_load_hdr(NULL, DATA "hdr_3x2.hdr", &(amp_image_load_desc){.channels = channels});
        int n = channels ? channels : 4;
        REQUIRE(t);
        if (!t) continue;
        REQUIRE_INT(amp_texture_type(t), AMP_MAKE_TYPE(AMP_SCALAR_FLOAT, n));
        REQUIRE_INT(amp_texture_bits_per_scalar_element(t), 32);
        REQUIRE(amp_extent_equal(amp_texture_extent(t), amp_extent2(2, 3)));
        size_t size;
        float *p = host_copy(t, &size);
        int bad = 0;
        for (int i = 0; i < 6; i++) {
            float f1 = rgbe[i][3] ? ldexpf(1.0f, rgbe[i][3] - 136) : 0;
            float mean = (rgbe[i][0] + rgbe[i][1] + rgbe[i][2]) * f1 / 3;
            for (int c = 0; c < n; c++) {
                float want = n >= 3 ? (c < 3 ? rgbe[i][c] * f1 : 1.0f) : (c == 0 ? mean : 1.0f);
                if (p[i * n + c] != want && bad++ < 3)
                    fprintf(stderr, "hdr %d channels: texel %d channel %d is %g, expected %g\n", n, i, c, p[i * n + c], want);
            }
        }
        REQUIRE_INT(bad, 0);
        if (n == 4) {
            REQUIRE(p[0] == 1.0f && p[1] == 0.5f && p[2] == 0.25f && p[3] == 1.0f);
            /* a float texture saves as PNG: clamped to [0, 1] */
            REQUIRE_OK(amp_texture_save_png(t, OUT "hdr.png", 16));
            amp_image_compare_result r;
            REQUIRE_OK(amp_image_compare_png(t, OUT "hdr.png", NULL, &r));
            REQUIRE(r.equal);
        }
        free(p);
        amp_texture_destroy(&t);
    }
    size_t n;
    unsigned char *hdr = test_read_bytes(DATA "hdr_3x2.hdr", 1 << 16, &n);
    test_write_bytes(OUT "short.hdr", hdr, n - 3);
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, OUT "short.hdr", NULL), AMP_ERROR_FORMAT, "truncated");
    test_write_bytes(OUT "header.hdr", hdr, 40);
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, OUT "header.hdr", NULL), AMP_ERROR_FORMAT, OUT "header.hdr");
    test_write_bytes(OUT "empty.hdr", hdr, 0);
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, OUT "empty.hdr", NULL), AMP_ERROR_FORMAT, "is empty");
    /* a huge header fails before the pixels are read */
    const char huge[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 100000\n";
    test_write_bytes(OUT "huge.hdr", huge, sizeof huge - 1);
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, OUT "huge.hdr", NULL), AMP_ERROR_OUT_OF_BOUNDS, "image 100000x100000");
    free(hdr);
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, DATA "rgb8.png", NULL), AMP_ERROR_FORMAT, "not a Radiance HDR");
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, OUT "missing.hdr", NULL), AMP_ERROR_IO, "missing.hdr");
    REQUIRE_NULL_FAIL(amp_texture_load_hdr(NULL, DATA "hdr_3x2.hdr", &(amp_image_load_desc){.bits = 16}),
                      AMP_ERROR_INVALID_ARGUMENT, "bits 16");
}

/* ---- comparison ---- */

static void test_compare(amp_accelerator_view *v)
{
    amp_texture *a = load("rgba8.png", NULL), *b = load("rgba8.png", NULL), *c3 = load("rgb8.png", NULL);
    REQUIRE(a && b && c3);
    if (!a || !b || !c3) return;
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare(a, b, NULL, &r));
    REQUIRE(r.equal && r.max_abs_diff == 0 && r.mean_abs_diff == 0 && isinf(r.psnr) && r.psnr > 0);

    /* one channel of one texel off by 3 */
    size_t size;
    uint8_t *p = host_copy(b, &size);
    size_t at = ((size_t)2 * W + 4) * 4 + 1;
    p[at] = (uint8_t)(p[at] >= 3 ? p[at] - 3 : p[at] + 3);
    REQUIRE_OK(amp_texture_copy_from_host(b, NULL, p, size));
    REQUIRE_OK(amp_image_compare(a, b, NULL, &r));
    REQUIRE(!r.equal);
    REQUIRE_INT(r.differing_texels, 1);
    REQUIRE(amp_index_equal(r.first_difference, amp_index2(2, 4)));
    REQUIRE(r.max_abs_diff == 3 && r.channel_max_abs_diff[1] == 3 && r.channel_max_abs_diff[0] == 0);
    REQUIRE(fabs(r.mean_abs_diff - 3.0 / (W * H * 4)) < 1e-12);
    double psnr = 10 * log10(255.0 * 255.0 / (9.0 / (W * H * 4)));
    REQUIRE(fabs(r.psnr - psnr) < 1e-9);
    REQUIRE_OK(amp_image_compare(a, b, &(amp_image_compare_desc){.tolerance = 3}, &r));
    REQUIRE(r.equal && r.max_abs_diff == 3 && r.differing_texels == 0 && r.first_difference.rank == 0);
    REQUIRE_OK(amp_image_compare(a, b, &(amp_image_compare_desc){.tolerance = 2}, &r));
    REQUIRE(!r.equal);
    /* against a golden file */
    REQUIRE_OK(amp_image_compare_png(b, DATA "rgba8.png", NULL, &r));
    REQUIRE(!r.equal && r.differing_texels == 1 && r.max_abs_diff == 3);
    REQUIRE_OK(amp_image_compare_png(a, DATA "rgba8.png", NULL, &r));
    REQUIRE(r.equal);
    /* 16-bit golden: the texture is compared at 16 bits, differences in 16-bit steps */
    amp_texture *a16 = load("rgba16.png", NULL);
    REQUIRE_OK(amp_image_compare_png(a16, DATA "rgba16.png", NULL, &r));
    REQUIRE(r.equal);
    REQUIRE_OK(amp_image_compare_png(a16, DATA "rgba8.png", NULL, &r)); /* a16 -> 8 bits vs rgba8 */
    REQUIRE(!r.equal);
    amp_texture_destroy(&a16);
    free(p);

    REQUIRE_FAIL(amp_image_compare(a, c3, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "unorm_4 of 8 bits, extent (5, 7)");
    REQUIRE_FAIL(amp_image_compare(a, c3, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "unorm_3 of 8 bits");
    amp_texture *small = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(W, H), .type = AMP_UNORM_4,
                                                                    .bits_per_scalar_element = 8});
    REQUIRE_FAIL(amp_image_compare(a, small, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "extent (7, 5)");
    REQUIRE_FAIL(amp_image_compare_png(small, DATA "rgba8.png", NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "7x5");
    REQUIRE_FAIL(amp_image_compare_png(c3, DATA "rgba8.png", NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "4 channels");
    REQUIRE_FAIL(amp_image_compare_png(a, OUT "missing.png", NULL, &r), AMP_ERROR_IO, "missing.png");
    REQUIRE_FAIL(amp_image_compare(a, b, &(amp_image_compare_desc){.tolerance = -1}, &r), AMP_ERROR_INVALID_ARGUMENT,
                 "tolerance");
    REQUIRE_FAIL(amp_image_compare(a, NULL, NULL, &r), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_texture_destroy(&small);

    /* float textures: differences in values, peak 1 */
    float fa[4] = {0.5f, 0.25f, 0, 1}, fb[4] = {0.5f, 0.5f, 0, 1};
    amp_texture *x = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(1, 1), .type = AMP_FLOAT_4,
                                                                .data = fa, .data_size = sizeof fa});
    amp_texture *y = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(1, 1), .type = AMP_FLOAT_4,
                                                                .data = fb, .data_size = sizeof fb});
    REQUIRE_OK(amp_image_compare(x, y, NULL, &r));
    REQUIRE(!r.equal && r.max_abs_diff == 0.25 && fabs(r.psnr - 10 * log10(1 / (0.0625 / 4))) < 1e-9);
    REQUIRE_OK(amp_image_compare(x, y, &(amp_image_compare_desc){.tolerance = 0.25}, &r));
    REQUIRE(r.equal);
    amp_texture_destroy(&x);
    amp_texture_destroy(&y);
    amp_texture_destroy(&a);
    amp_texture_destroy(&b);
    amp_texture_destroy(&c3);
}

/* One texture's save through amp_texture_save; the view's dispatches it took. */
static uint64_t save_dispatches(amp_accelerator_view *v, amp_texture *t, const char *path)
{
    amp_view_stats a, b;
    REQUIRE_OK(amp_view_get_stats(v, &a));
    REQUIRE_OK(amp_texture_save(t, path, NULL));
    REQUIRE_OK(amp_view_get_stats(v, &b));
    return b.dispatches - a.dispatches;
}

/* PNGs whose rows the device filters and counts (png_rows.comp) against the host's
 * encoder (amp_image_save of the same pixels), on images of several deflate blocks:
 * noise (blocks coded from the device's counts), a flat band (runs: those blocks
 * scanned on the host) and a smooth ramp; RGB8 (an emulated format), RGBA16
 * (big-endian samples), gray and gray+alpha. The files hold the texels exactly,
 * within 1% of the host encoder's size, and the device ran png_rows.comp's three
 * kernels. */
static void test_device_png(amp_accelerator_view *v)
{
    static const struct {
        int w, h, channels, bits;
    } cases[] = {{301, 203, 3, 8}, {97, 131, 4, 16}, {1, 1, 1, 8}, {64, 3, 2, 16}};
    for (int c = 0; c < 4; c++) {
        int w = cases[c].w, h = cases[c].h, ch = cases[c].channels, bytes = cases[c].bits / 8;
        size_t size = (size_t)w * h * ch * bytes;
        unsigned char *px = malloc(size);
        REQUIRE(px);
        if (!px) return;
        uint32_t seed = 12345;
        for (size_t i = 0; i < size; i++) {
            size_t y = i / ((size_t)w * ch * bytes);
            seed = seed * 1664525u + 1013904223u;
            px[i] = y % 64 < 20 ? 77 : y % 64 < 40 ? (unsigned char)(i / 7 + (seed >> 29)) : (unsigned char)(seed >> 24);
        }
        amp_texture_desc d = {.extent = amp_extent2(h, w), .type = (amp_type)AMP_MAKE_TYPE(AMP_SCALAR_UNORM, ch),
                              .bits_per_scalar_element = cases[c].bits, .data = px, .data_size = size};
        amp_texture *dev = amp_texture_create(v, &d);
        amp_image host = {w, h, ch, cases[c].bits, (size_t)w * ch * bytes, px, AMP_IMAGE_FORMAT_AUTO};
        REQUIRE(dev);
        if (dev) {
            REQUIRE_OK(amp_image_save(OUT "host.png", &host, NULL));
            REQUIRE_INT((int)save_dispatches(v, dev, OUT "device.png"), 3);
            amp_image img = {0};
            REQUIRE_OK(amp_image_load(OUT "device.png", NULL, &img));
            REQUIRE(img.width == w && img.height == h && img.channels == ch && img.bits == cases[c].bits);
            int same = 1;
            for (size_t i = 0; i < size && img.pixels; i += (size_t)bytes) {
                unsigned want = bytes == 1 ? px[i] : (unsigned)(px[i] | px[i + 1] << 8);
                unsigned got = bytes == 1 ? ((unsigned char *)img.pixels)[i]
                                          : ((uint16_t *)img.pixels)[i / 2];
                same &= want == got;
            }
            REQUIRE(same);
            amp_image_free(&img);
            size_t hs = 0, ds = 0;
            free(test_read_bytes(OUT "host.png", 1 << 24, &hs));
            free(test_read_bytes(OUT "device.png", 1 << 24, &ds));
            REQUIRE(hs > 0 && ds > 0 && ds * 100 <= hs * 101 + 100);
        }
        amp_texture_destroy(&dev);
        free(px);
    }
}

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    mkdir(OUT, 0777);
    test_load_kinds();
    test_load_desc();
    test_save_round_trip();
    test_kernel_results(v);
    test_save_conversions(v);
    test_save_errors(v);
    test_bad_files();
    test_bad_palettes();
    test_hdr();
    test_compare(v);
    if (amp__force_shader_image_copy) {
        /* again with the textures' PNGs filtered on the device, as on GPUs */
        amp__force_shader_image_copy(true);
        test_save_round_trip();
        test_kernel_results(v);
        test_save_errors(v);
        test_device_png(v);
        amp__force_shader_image_copy(false);
    }
    return test_end();
}
