/* libFuzzer harness: the PNG reader (src/image/png_read.c, libspng behind a chunk
 * walk) on untrusted bytes, without a device.
 *
 * Each input is read as it is, and again with every chunk's CRC repaired so that
 * mutations reach the decoder rather than stopping at the CRC check. A file that
 * opens is decoded to every channel count (0: the file's, 1..4) and the results
 * are checked against each other: the header's width, height and depth, every
 * conversion as ampvk/image.h documents it (from the RGBA decode: gray replicated,
 * luma (77 r + 150 g + 29 b) >> 8 for color files, alpha kept or opaque), which
 * also reads every output byte, so bytes the decoder did not write show up as
 * mismatches between decodes or under the sanitizers.
 *
 * With AMPVK_FUZZ_DIGESTS naming a file, each decode appends a line to it: the
 * status and a CRC of the RGBA pixels (or of the error message). scripts/fuzz.sh
 * runs the inputs twice with allocations filled by two different bytes and
 * requires the same lines: a decode that depends on memory it did not write
 * differs between the runs. */
#include "fuzz.h"
#include "image/image_internal.h"

/* The library's callers refuse larger images from the header alone
 * (amp_texture_load_png: the device's largest 2-D image, lavapipe's 16384;
 * amp_image_compare_png: the texture's extent); decoding is only reached below. */
#define MAX_SIDE 16384u

static uint32_t sample(const amp__host_image *im, size_t texel, int c)
{
    size_t i = texel * (size_t)im->channels + (size_t)c;
    return im->bits == 16 ? ((const uint16_t *)im->pixels)[i] : ((const uint8_t *)im->pixels)[i];
}

/* Sample c of a decode to `channels` as the conversion rules derive it from RGBA. */
static uint32_t expected(const amp__host_image *rgba, const amp__png_info *info, size_t texel, int channels, int c)
{
    if (channels >= 3) return sample(rgba, texel, c);
    if (c == 1) return sample(rgba, texel, 3);
    if (info->gray) return sample(rgba, texel, 0);
    return (sample(rgba, texel, 0) * 77 + sample(rgba, texel, 1) * 150 + sample(rgba, texel, 2) * 29) >> 8;
}

static void check_image(const amp__host_image *im, const amp__png_info *info, int channels)
{
    FUZZ_CHECK(im->pixels, "decoded to %d channels without pixels", channels);
    FUZZ_CHECK((uint32_t)im->width == info->width && (uint32_t)im->height == info->height,
               "decoded %dx%d but the header says %ux%u", im->width, im->height, info->width, info->height);
    FUZZ_CHECK(im->channels == (channels ? channels : info->channels), "asked for %d channels (file: %d), got %d",
               channels, info->channels, im->channels);
    FUZZ_CHECK(im->bits == info->bits, "decoded at %d bits but the header says %d", im->bits, info->bits);
    FUZZ_CHECK(!im->stb, "a PNG decode marked as stb's");
}

/* Appends what a decode gave to the AMPVK_FUZZ_DIGESTS file, if one is named. */
static void digest(amp_status s, const amp__host_image *rgba)
{
    static FILE *out;
    static bool opened;
    if (!opened) {
        const char *path = getenv("AMPVK_FUZZ_DIGESTS");
        out = path ? fopen(path, "a") : NULL;
        opened = true;
    }
    if (!out) return;
    uint32_t crc = 0;
    if (s == AMP_OK)
        crc = amp__crc32(0, rgba->pixels, (size_t)rgba->width * rgba->height * 4 * (size_t)(rgba->bits / 8));
    else
        crc = amp__crc32(0, (const unsigned char *)amp_last_error(), strlen(amp_last_error()));
    fprintf(out, "%s %08x\n", amp_status_name(s), crc);
    fflush(out);
}

static void decode(const uint8_t *data, size_t size)
{
    amp__png_info info;
    amp__png_reader *r = amp__png_open("fuzz_png", "input", data, size, &info);
    if (!r) {
        FUZZ_CHECK(amp_last_status() == AMP_ERROR_FORMAT || amp_last_status() == AMP_ERROR_OUT_OF_MEMORY,
                   "amp__png_open failed with %s", amp_status_name(amp_last_status()));
        return;
    }
    FUZZ_CHECK(info.width >= 1 && info.height >= 1, "opened a PNG of %ux%u", info.width, info.height);
    FUZZ_CHECK(info.channels >= 1 && info.channels <= 4 && (info.bits == 8 || info.bits == 16),
               "opened a PNG of %d channels at %d bits", info.channels, info.bits);
    if (info.width > MAX_SIDE || info.height > MAX_SIDE) {
        amp__png_close(r);
        return;
    }
    /* RGBA first: the reference for every other channel count */
    amp__host_image rgba = {0};
    amp_status s = amp__png_read(r, 4, &rgba);
    amp__png_close(r);
    digest(s, &rgba);
    if (s != AMP_OK) {
        FUZZ_CHECK(s == AMP_ERROR_FORMAT || s == AMP_ERROR_OUT_OF_MEMORY, "amp__png_read failed with %s",
                   amp_status_name(s));
        return;
    }
    check_image(&rgba, &info, 4);
    size_t texels = (size_t)info.width * info.height;
    uint32_t max = info.bits == 16 ? 0xFFFF : 0xFF;
    bool has_alpha = info.channels == 2 || info.channels == 4;
    for (size_t t = 0; t < texels; t++) {
        if (info.gray)
            FUZZ_CHECK(sample(&rgba, t, 0) == sample(&rgba, t, 1) && sample(&rgba, t, 0) == sample(&rgba, t, 2),
                       "texel %zu of a gray file is not gray", t);
        if (!has_alpha) FUZZ_CHECK(sample(&rgba, t, 3) == max, "texel %zu of a file without alpha is not opaque", t);
    }
    for (int channels = 0; channels <= 3; channels++) {
        /* a fresh reader for each decode, as the library's callers do */
        amp__png_info again;
        r = amp__png_open("fuzz_png", "input", data, size, &again);
        FUZZ_CHECK(r, "a PNG that opened once does not open again");
        FUZZ_CHECK(!memcmp(&again, &info, sizeof info), "a PNG's header reads differently the second time");
        amp__host_image im = {0};
        s = amp__png_read(r, channels, &im);
        amp__png_close(r);
        FUZZ_CHECK(s == AMP_OK, "a PNG that decoded to 4 channels fails to decode to %d", channels);
        check_image(&im, &info, channels);
        /* the file's own channels (gray, gray + alpha, RGB, RGBA) follow the same rules */
        int n = channels ? channels : info.channels;
        for (size_t t = 0; t < texels; t++)
            for (int c = 0; c < n; c++) {
                uint32_t want = expected(&rgba, &info, t, n, c);
                FUZZ_CHECK(sample(&im, t, c) == want, "%d channels: texel %zu channel %d is %u, expected %u from RGBA",
                           channels, t, c, sample(&im, t, c), want);
            }
        free(im.pixels);
    }
    free(rgba.pixels);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    decode(data, size);
    uint8_t *fixed = fuzz_png_fix_crcs(data, size);
    if (fixed) {
        decode(fixed, size);
        free(fixed);
    }
    return 0;
}
