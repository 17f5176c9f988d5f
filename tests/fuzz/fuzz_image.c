/* libFuzzer harness: amp_image_load_memory (ampvk/image.h) over every format it
 * reads (PNG through png_read.c and libspng; JPEG, OpenEXR, WebP and TIFF through
 * their libraries; HDR, BMP, TGA and PSD through stb_image) on untrusted bytes,
 * without a device.
 *
 * Every input is decoded as the file is, up to MAX_PIXELS. A failure must be a clean
 * one: a status of AMP_ERROR_FORMAT or AMP_ERROR_OUT_OF_BOUNDS (OUT_OF_MEMORY allowed)
 * with a message naming the file, and *out zeroed. A decoded image must be what
 * image.h promises (1..65535 a side, 1..4 channels, 8 or 16 bits, 32 for float
 * formats only, tightly packed, the format found) and every sample is read. Small
 * images are then decoded again: as each channel count 1..4 (the same size; as many
 * channels as asked; the file's own count gives the same samples), at the other depth
 * (exactly the first decode converted, v * 257 or rounded), written as a PNG that must
 * load back equal (png_write.c), and written in their own format again. Crashes,
 * hangs and huge allocations are the other findings (scripts/fuzz.sh runs it with
 * -timeout and -rss_limit_mb). */
#include "fuzz.h"

#include "ampvk/image.h"

/* Built once for every format (tests/fuzz/CMakeLists.txt) with FUZZ_FORMAT its name:
 * fuzz_jpeg starts from JPEG files and re-encodes what decodes as JPEG too; fuzz_image
 * (no FUZZ_FORMAT) starts from the stb formats'. */
#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT ""
#endif

/* Images up to this many texels are decoded again and re-encoded. */
#define SMALL_TEXELS (16 * 1024)

/* Larger ones fail from the header (max_pixels), as upstream fuzzers bound theirs: a
 * few hundred bytes of lossless WebP or TIFF may hold a gigabyte of pixels, whose
 * decode repeats rows the fuzzer has seen while costing a thousand small inputs. */
#define MAX_PIXELS (1u << 20)

static const char *NAME = "fuzz-input";

static size_t packed_row(const amp_image *im)
{
    return (size_t)im->width * (size_t)im->channels * (size_t)im->bits / 8;
}

FUZZ_UNTRACED static double sample(const amp_image *im, size_t i)
{
    return im->bits == 8 ? ((const uint8_t *)im->pixels)[i] : im->bits == 16 ? ((const uint16_t *)im->pixels)[i]
                                                                             : ((const float *)im->pixels)[i];
}

/* A failed load: a clean error and a zeroed image. */
static void check_failure(amp_status s, const amp_image *im, const char *what)
{
    FUZZ_CHECK(s == AMP_ERROR_FORMAT || s == AMP_ERROR_OUT_OF_BOUNDS || s == AMP_ERROR_OUT_OF_MEMORY,
               "%s: status %s", what, amp_status_name(s));
    FUZZ_CHECK(strstr(amp_last_error(), NAME) != NULL, "%s: the message does not name the input", what);
    FUZZ_CHECK(!im->pixels && !im->width && !im->height && !im->channels, "%s: a failed load left an image", what);
}

/* Reads every sample, so that ASan sees each byte the decoder left. */
FUZZ_UNTRACED static void read_samples(const amp_image *im)
{
    size_t n = (size_t)im->width * (size_t)im->height * (size_t)im->channels;
    volatile double sum = 0;
    for (size_t i = 0; i < n; i++) sum += sample(im, i);
    (void)sum;
}

/* A decoded image as image.h describes it; reads every sample. */
static void check_image(const amp_image *im, const char *what)
{
    FUZZ_CHECK(im->width >= 1 && im->width <= 65535 && im->height >= 1 && im->height <= 65535,
               "%s: size %dx%d", what, im->width, im->height);
    FUZZ_CHECK(im->channels >= 1 && im->channels <= 4, "%s: %d channels", what, im->channels);
    bool floats = im->format == AMP_IMAGE_FORMAT_HDR || im->format == AMP_IMAGE_FORMAT_EXR ||
                  im->format == AMP_IMAGE_FORMAT_TIFF;
    FUZZ_CHECK(im->bits == 8 || im->bits == 16 || (im->bits == 32 && floats), "%s: %d bits for a %s file", what,
               im->bits, amp_image_format_name(im->format));
    FUZZ_CHECK(im->format >= AMP_IMAGE_FORMAT_PNG && im->format <= AMP_IMAGE_FORMAT_TIFF, "%s: format %d", what,
               (int)im->format);
    FUZZ_CHECK(im->pixels && im->stride == packed_row(im), "%s: stride %zu for %zu-byte rows", what, im->stride,
               packed_row(im));
    read_samples(im);
}

/* Loads data with desc; checks the outcome either way. AMP_OK only with an image. */
static amp_status load(const uint8_t *data, size_t size, const amp_image_load_desc *desc, amp_image *out,
                       const char *what)
{
    amp_image_load_desc bounded = desc ? *desc : (amp_image_load_desc){0};
    bounded.max_pixels = MAX_PIXELS;
    amp_status s = amp_image_load_memory(data, size, NAME, &bounded, out);
    if (s == AMP_OK) check_image(out, what);
    else check_failure(s, out, what);
    return s;
}

/* Whether two decodes hold the same samples; prints the first difference. */
FUZZ_UNTRACED static bool same_samples(const amp_image *a, const amp_image *b)
{
    if (a->width != b->width || a->height != b->height || a->channels != b->channels || a->bits != b->bits)
        return false;
    size_t n = (size_t)a->width * (size_t)a->height * (size_t)a->channels;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&(double){sample(a, i)}, &(double){sample(b, i)}, sizeof(double)) != 0) {
            fprintf(stderr, "sample %zu (texel %zu of %dx%d, channel %zu): %g vs %g\n", i, i / (size_t)a->channels,
                    a->width, a->height, i % (size_t)a->channels, sample(a, i), sample(b, i));
            return false;
        }
    return true;
}

/* d, im decoded at the other depth, holds im's samples converted (v * 257, or rounded). */
FUZZ_UNTRACED static void check_depth(const amp_image *im, const amp_image *d, const char *what)
{
    size_t n = (size_t)im->width * (size_t)im->height * (size_t)im->channels;
    for (size_t i = 0; i < n; i++) {
        unsigned v = (unsigned)sample(im, i);
        unsigned want = d->bits == 16 ? v * 257 : (v * 255 + 32767) / 65535;
        FUZZ_CHECK((unsigned)sample(d, i) == want, "%s: sample %zu is %g, not %u (from %u)", what, i,
                   sample(d, i), want, v);
    }
}

/* An image of FUZZ_FORMAT written in it again: the encoder takes what its decoder
 * gave, and the file loads back with the same size and channels (the format's own
 * round trip tests check the samples). */
static void same_format_again(const amp_image *im)
{
    if (!FUZZ_FORMAT[0] || strcmp(amp_image_format_name(im->format), FUZZ_FORMAT) != 0) return;
    unsigned char *file = NULL;
    size_t file_size = 0;
    amp_status s = amp_image_encode(im, &(amp_image_save_desc){.format = im->format}, &file, &file_size);
    FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_OUT_OF_MEMORY, "%s encode: %s", FUZZ_FORMAT, amp_last_error());
    if (s != AMP_OK) return;
    amp_image back;
    s = amp_image_load_memory(file, file_size, "again", NULL, &back);
    FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_OUT_OF_MEMORY, "the %s written does not load: %s", FUZZ_FORMAT,
               amp_last_error());
    if (s == AMP_OK) {
        FUZZ_CHECK(back.width == im->width && back.height == im->height && back.format == im->format,
                   "the %s written loads as %dx%d %s", FUZZ_FORMAT, back.width, back.height,
                   amp_image_format_name(back.format));
        amp_image_free(&back);
    }
    free(file);
}

/* The other decodes of a small image: channel counts, depth, a PNG round trip, its
 * own format again. */
static void decode_again(const uint8_t *data, size_t size, const amp_image *im)
{
    char what[64];
    for (int channels = 1; channels <= 4; channels++) {
        amp_image c;
        snprintf(what, sizeof what, "as %d channels", channels);
        /* a second decode may fail only where the first could have: memory */
        amp_status s = load(data, size, &(amp_image_load_desc){.channels = channels}, &c, what);
        FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_OUT_OF_MEMORY, "%s: failed (%s) where the first decode did not",
                   what, amp_status_name(s));
        if (s != AMP_OK) continue;
        FUZZ_CHECK(c.width == im->width && c.height == im->height && c.channels == channels && c.bits == im->bits &&
                       c.format == im->format,
                   "%s: %dx%d, %d channels of %d bits (%s); first %dx%d, %d of %d (%s)", what, c.width, c.height,
                   c.channels, c.bits, amp_image_format_name(c.format), im->width, im->height, im->channels,
                   im->bits, amp_image_format_name(im->format));
        if (channels == im->channels) FUZZ_CHECK(same_samples(&c, im), "%s: other samples than the first decode", what);
        amp_image_free(&c);
    }
    if (im->bits != 32) {
        int other = im->bits == 8 ? 16 : 8;
        amp_image d;
        snprintf(what, sizeof what, "at %d bits", other);
        amp_status s = load(data, size, &(amp_image_load_desc){.bits = other}, &d, what);
        FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_OUT_OF_MEMORY, "%s: failed (%s) where the first decode did not",
                   what, amp_status_name(s));
        if (s == AMP_OK) {
            FUZZ_CHECK(d.bits == other && d.channels == im->channels, "%s: %d bits, %d channels", what, d.bits,
                       d.channels);
            check_depth(im, &d, what);
            amp_image_free(&d);
        }
        /* a PNG of the image loads back the same */
        unsigned char *png = NULL;
        size_t png_size = 0;
        s = amp_image_encode(im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG}, &png, &png_size);
        FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_OUT_OF_MEMORY, "PNG encode: %s", amp_status_name(s));
        if (s == AMP_OK) {
            amp_image back;
            s = amp_image_load_memory(png, png_size, "png", NULL, &back);
            FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_OUT_OF_MEMORY, "the encoded PNG does not load: %s",
                       amp_last_error());
            if (s == AMP_OK) {
                FUZZ_CHECK(same_samples(&back, im) && back.format == AMP_IMAGE_FORMAT_PNG,
                           "the encoded PNG loads other samples");
                amp_image_free(&back);
            }
            free(png);
        }
    }
    same_format_again(im);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    amp_image im;
    if (load(data, size, NULL, &im, "as the file") != AMP_OK) return 0;
    if ((size_t)im.width * (size_t)im.height <= SMALL_TEXELS) decode_again(data, size, &im);
    amp_image_free(&im);
    return 0;
}
