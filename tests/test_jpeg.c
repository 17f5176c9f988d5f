/* JPEG files through libjpeg-turbo (src/image/jpeg.c), against tests/data/formats/jpeg
 * (make_jpeg.py: OpenCV 4.6.0, Pillow, libjpeg-turbo 2.1.5's cjpeg and jpegtran):
 *   - every file decodes to exactly what cv2.imread decoded it to: baseline at three
 *     subsamplings, progressive, arithmetic-coded, gray, CMYK (Adobe), YCCK;
 *   - the EXIF orientations 1..8 applied as cv2.imread applies them, and ignored on
 *     request;
 *   - saving writes byte for byte what OpenCV and cjpeg write at the same quality and
 *     subsampling; gray stays one component, alpha is dropped;
 *   - truncated and corrupt streams are errors naming the file, never a partial image.
 * No device is needed. */
#include <stdlib.h>
#include <string.h>

#include "ampvk/ampvk.h"
#include "test.h"

#define DIR AMPVK_TEST_DATA "/formats/jpeg/"

static bool same_pixels(const amp_image *a, const amp_image *b)
{
    if (a->width != b->width || a->height != b->height || a->channels != b->channels || a->bits != b->bits)
        return false;
    for (int y = 0; y < a->height; y++)
        if (memcmp((const char *)a->pixels + (size_t)y * a->stride, (const char *)b->pixels + (size_t)y * b->stride,
                   (size_t)a->width * (size_t)a->channels) != 0)
            return false;
    return true;
}

/* NAME.jpg loaded (with desc) equals the PNG `want`. */
static void check_decode(const char *name, const amp_image_load_desc *desc, const char *want, int w, int h)
{
    char jpg[512], png[512];
    snprintf(jpg, sizeof jpg, DIR "%s.jpg", name);
    snprintf(png, sizeof png, DIR "%s", want);
    amp_image a, b, head;
    REQUIRE_OK(amp_image_load(jpg, desc, &a));
    REQUIRE_OK(amp_image_load(png, NULL, &b));
    REQUIRE_INT(a.format, AMP_IMAGE_FORMAT_JPEG);
    REQUIRE_INT(a.width, w);
    REQUIRE_INT(a.height, h);
    if (!same_pixels(&a, &b)) fprintf(stderr, "%s differs from %s\n", jpg, png);
    REQUIRE(same_pixels(&a, &b));
    if (!desc) { /* the header says what the decode gives */
        REQUIRE_OK(amp_image_info(jpg, &head));
        REQUIRE(head.width == a.width && head.height == a.height && head.channels == a.channels && head.bits == 8);
    }
    amp_image_free(&a);
    amp_image_free(&b);
}

static void test_decode(void)
{
    static const char *const color[] = {"q90_420", "q90_444", "q90_422", "q75_420", "progressive",
                                        "arithmetic", "cmyk", "ycck"};
    char want[64];
    for (size_t i = 0; i < sizeof color / sizeof color[0]; i++) {
        snprintf(want, sizeof want, "%s.cv2.png", color[i]);
        check_decode(color[i], NULL, want, 40, 24);
    }
    check_decode("gray", NULL, "gray.cv2.png", 40, 24);
    /* asked for RGBA: the same RGB, alpha opaque */
    amp_image rgba, rgb;
    REQUIRE_OK(amp_image_load(DIR "q90_420.jpg", &(amp_image_load_desc){.channels = 4}, &rgba));
    REQUIRE_OK(amp_image_load(DIR "q90_420.jpg", NULL, &rgb));
    REQUIRE(rgba.channels == 4 && rgb.channels == 3);
    bool same = true;
    for (size_t i = 0; i < (size_t)rgb.width * (size_t)rgb.height; i++)
        same &= memcmp((uint8_t *)rgba.pixels + 4 * i, (uint8_t *)rgb.pixels + 3 * i, 3) == 0 &&
                ((uint8_t *)rgba.pixels)[4 * i + 3] == 255;
    REQUIRE(same);
    amp_image_free(&rgba);
    amp_image_free(&rgb);
}

static void test_orientation(void)
{
    char name[32], want[32];
    for (int o = 1; o <= 8; o++) {
        snprintf(name, sizeof name, "orient%d", o);
        snprintf(want, sizeof want, "orient%d.cv2.png", o);
        bool turned = o >= 5; /* transposed: 24 wide, 40 high */
        check_decode(name, NULL, want, turned ? 24 : 40, turned ? 40 : 24);
        check_decode(name, &(amp_image_load_desc){.ignore_orientation = true}, "stored.cv2.png", 40, 24);
    }
}

/* source.png saved as JPEG with desc gives exactly the bytes of the file `want`. */
static void check_encode(const amp_image *img, amp_image_save_desc desc, const char *want)
{
    size_t n, size;
    unsigned char *data, *ref = test_read_bytes(want, 1 << 20, &n);
    desc.format = AMP_IMAGE_FORMAT_JPEG;
    REQUIRE_OK(amp_image_encode(img, &desc, &data, &size));
    if (size != n || memcmp(data, ref, n) != 0)
        fprintf(stderr, "encoded %zu bytes (quality %d, subsampling %d), %s has %zu\n", size, desc.quality,
                desc.subsampling, want, n);
    REQUIRE(ref && size == n && memcmp(data, ref, n) == 0);
    free(data);
    free(ref);
}

static void test_encode(void)
{
    amp_image src, rgba, gray, ga, deep, back;
    REQUIRE_OK(amp_image_load(DIR "source.png", NULL, &src));
    check_encode(&src, (amp_image_save_desc){.quality = 90}, DIR "q90_420.jpg");
    check_encode(&src, (amp_image_save_desc){0}, DIR "q90_420.jpg"); /* quality 90 and 4:2:0 by default */
    check_encode(&src, (amp_image_save_desc){.quality = 90, .subsampling = 420}, DIR "q90_420.jpg");
    check_encode(&src, (amp_image_save_desc){.quality = 90, .subsampling = 444}, DIR "q90_444.jpg");
    check_encode(&src, (amp_image_save_desc){.quality = 90, .subsampling = 422}, DIR "q90_422.jpg");
    check_encode(&src, (amp_image_save_desc){.quality = 75}, DIR "q75_420.jpg");
    /* alpha is dropped: RGBA writes what RGB writes; 16-bit samples are rounded to 8 first */
    REQUIRE_OK(amp_image_load(DIR "source.png", &(amp_image_load_desc){.channels = 4}, &rgba));
    check_encode(&rgba, (amp_image_save_desc){0}, DIR "q90_420.jpg");
    REQUIRE_OK(amp_image_load(DIR "source.png", &(amp_image_load_desc){.bits = 16}, &deep));
    check_encode(&deep, (amp_image_save_desc){0}, DIR "q90_420.jpg");
    /* gray stays one component (gray + alpha loses its alpha) and loads back as gray */
    REQUIRE_OK(amp_image_load(DIR "source.png", &(amp_image_load_desc){.channels = 1}, &gray));
    REQUIRE_OK(amp_image_load(DIR "source.png", &(amp_image_load_desc){.channels = 2}, &ga));
    unsigned char *g1, *g2;
    size_t n1, n2;
    REQUIRE_OK(amp_image_encode(&gray, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG}, &g1, &n1));
    REQUIRE_OK(amp_image_encode(&ga, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG}, &g2, &n2));
    REQUIRE(n1 == n2 && memcmp(g1, g2, n1) == 0);
    REQUIRE_OK(amp_image_load_memory(g1, n1, "gray", NULL, &back));
    REQUIRE(back.channels == 1 && back.width == 40 && back.height == 24);
    amp_image_free(&back);
    free(g1);
    free(g2);
    /* a saved file loads back as close to the source as OpenCV's own round trip at
     * quality 95 (24.4 dB: 4:2:0 chroma on this picture's sharp red block) */
    REQUIRE_OK(amp_image_save("test_jpeg.out.jpg", &src, &(amp_image_save_desc){.quality = 95}));
    REQUIRE_OK(amp_image_load("test_jpeg.out.jpg", NULL, &back));
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare_images(&src, &back, &(amp_image_compare_desc){.tolerance = 115}, &r));
    printf("quality 95: max %g, PSNR %.2f dB\n", r.max_abs_diff, r.psnr);
    REQUIRE(r.equal && r.psnr > 24.40);
    amp_image_free(&back);
    remove("test_jpeg.out.jpg");
    REQUIRE_FAIL(amp_image_encode(&src, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_JPEG, .subsampling = 411},
                                  &g1, &n1),
                 AMP_ERROR_INVALID_ARGUMENT, "chroma subsampling 411 is not 444, 422 or 420");
    amp_image_free(&src);
    amp_image_free(&rgba);
    amp_image_free(&deep);
    amp_image_free(&gray);
    amp_image_free(&ga);
}

/* Cut and damaged copies of a good file: each refused, naming it; never a partial image. */
static void test_errors(void)
{
    size_t n;
    unsigned char *good = test_read_bytes(DIR "q90_420.jpg", 1 << 20, &n), *bad = malloc(n);
    REQUIRE(good && bad);
    amp_image im;
    /* cut inside the entropy-coded data: libjpeg's "premature end" is an error */
    for (int k = 1; k <= 4; k++) {
        size_t cut = n - (n - 700) * (size_t)k / 5;
        memcpy(bad, good, cut);
        REQUIRE_FAIL(amp_image_load_memory(bad, cut, "cut.jpg", NULL, &im), AMP_ERROR_FORMAT,
                     "cut.jpg is truncated: its image data does not decode (libjpeg: Premature end of JPEG file)");
        REQUIRE(im.pixels == NULL && im.width == 0);
    }
    /* cut inside the headers */
    REQUIRE_FAIL(amp_image_load_memory(good, 100, "short.jpg", NULL, &im), AMP_ERROR_FORMAT,
                 "short.jpg is truncated");
    REQUIRE_FAIL(amp_image_load_memory(good, 3, "three.jpg", NULL, &im), AMP_ERROR_FORMAT, "three.jpg is ");
    /* a Huffman table of more codes than exist */
    memcpy(bad, good, n);
    unsigned char *dht = memmem(bad, n, "\xff\xc4", 2);
    REQUIRE(dht != NULL);
    dht[5] = 0xFF; /* the count of 1-bit codes */
    REQUIRE_FAIL(amp_image_load_memory(bad, n, "dht.jpg", NULL, &im), AMP_ERROR_FORMAT,
                 "dht.jpg is corrupt: its header does not read (libjpeg: Bogus Huffman table definition)");
    /* a frame of 0 rows */
    memcpy(bad, good, n);
    unsigned char *sof = memmem(bad, n, "\xff\xc0", 2);
    REQUIRE(sof != NULL);
    sof[5] = sof[6] = 0;
    REQUIRE_FAIL(amp_image_load_memory(bad, n, "empty.jpg", NULL, &im), AMP_ERROR_FORMAT, "empty.jpg is corrupt");
    /* entropy-coded data damaged: a marker in the middle of the scan */
    memcpy(bad, good, n);
    bad[n - 200] = 0xFF;
    bad[n - 199] = 0xD9;
    REQUIRE_FAIL(amp_image_load_memory(bad, n, "marker.jpg", NULL, &im), AMP_ERROR_FORMAT, "marker.jpg is ");
    free(good);
    free(bad);
}

int main(void)
{
    test_begin();
    test_decode();
    test_orientation();
    test_encode();
    test_errors();
    return test_end();
}
