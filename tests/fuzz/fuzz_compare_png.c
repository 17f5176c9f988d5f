/* libFuzzer harness: amp_image_compare_png on untrusted golden files, on the default
 * view (lavapipe). The input is written to a temporary file (one per process,
 * reused) and compared with a fixed 8x8 unorm_4 texture of 8 bits made once; the
 * same input with its chunk CRCs repaired is compared too, so that mutations reach
 * the decoder.
 *
 * A comparison that succeeds is checked against one computed here from the
 * decoder's own output (amp__image_decode: goldens may be of any format ampvk reads,
 * and mutations turn PNGs into other formats) and the texture's texels: the counts,
 * differences, first difference, PSNR and equality must all agree with
 * ampvk/image.h. A file that cannot match (not 8x8, not 4 channels) must be
 * refused with AMP_ERROR_INVALID_ARGUMENT, or AMP_ERROR_OUT_OF_BOUNDS when it claims
 * more than ampvk reads (65535 a side), a broken one with AMP_ERROR_FORMAT. */
#include <math.h>

#include "fuzz.h"
#include "image/image_internal.h"

#define SIDE 8

static amp_texture *texture;
static uint8_t texels[SIDE * SIDE * 4];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_watch_validation();
    for (int i = 0; i < SIDE * SIDE * 4; i++) texels[i] = (uint8_t)(i * 37 + 11);
    texture = amp_texture_create(fuzz_view(), &(amp_texture_desc){.extent = amp_extent2(SIDE, SIDE),
                                                                 .type = AMP_UNORM_4, .bits_per_scalar_element = 8,
                                                                 .data = texels, .data_size = sizeof texels});
    if (!texture) {
        fprintf(stderr, "fuzz_compare_png: cannot create the texture: %s\n", amp_last_error());
        exit(1);
    }
    return 0;
}

/* The golden as the library's decoder reads it (any format: goldens need not be PNGs);
 * out NULL: the header only. */
static amp_status decode_golden(const uint8_t *data, size_t size, amp_image *head, amp__host_image *out)
{
    return amp__image_decode("fuzz", "golden", data, size, AMP_IMAGE_FORMAT_AUTO, NULL, NULL, head, out);
}

/* What the comparison must find: the golden decoded here, the texture's 8-bit
 * samples widened (v * 257) to a 16-bit golden's depth, or as floats (v / 255) for a
 * float golden. */
static void check_result(const uint8_t *data, size_t size, double tol, const amp_image_compare_result *r)
{
    amp__host_image g = {0};
    amp_status s = decode_golden(data, size, NULL, &g);
    FUZZ_CHECK(s == AMP_OK && g.width == SIDE && g.height == SIDE && g.channels == 4,
               "the comparison succeeded on a golden that decodes as %dx%d, %d channels (%s)", g.width, g.height,
               g.channels, amp_status_name(s));
    double max = 0, chan[4] = {0}, sum = 0, sum2 = 0;
    size_t differing = 0, first = 0;
    for (size_t t = 0; t < SIDE * SIDE; t++) {
        bool differs = false;
        for (int c = 0; c < 4; c++) {
            size_t i = t * 4 + (size_t)c;
            double mine = g.bits == 16 ? texels[i] * 257.0 : g.bits == 32 ? (float)(texels[i] / 255.0) : texels[i];
            double gold = g.bits == 16   ? ((const uint16_t *)g.pixels)[i]
                          : g.bits == 32 ? ((const float *)g.pixels)[i]
                                         : ((const uint8_t *)g.pixels)[i];
            double d = fabs(mine - gold);
            sum += d;
            sum2 += d * d;
            if (d > chan[c]) chan[c] = d;
            if (d > max) max = d;
            if (d > tol) differs = true;
        }
        if (differs && differing++ == 0) first = t;
    }
    free(g.pixels);
    FUZZ_CHECK(r->texels == SIDE * SIDE, "compared %zu texels, not %d", r->texels, SIDE * SIDE);
    FUZZ_CHECK(r->max_abs_diff == max, "max difference %g, expected %g", r->max_abs_diff, max);
    for (int c = 0; c < 4; c++)
        FUZZ_CHECK(r->channel_max_abs_diff[c] == chan[c], "channel %d: max difference %g, expected %g", c,
                   r->channel_max_abs_diff[c], chan[c]);
    FUZZ_CHECK(r->differing_texels == differing, "%zu differing texels, expected %zu", r->differing_texels,
               differing);
    FUZZ_CHECK(r->equal == (differing == 0), "equal is %d with %zu differing texels", r->equal, differing);
    FUZZ_CHECK(fabs(r->mean_abs_diff - sum / (SIDE * SIDE * 4)) <= 1e-9 * (1 + sum),
               "mean difference %g, expected %g", r->mean_abs_diff, sum / (SIDE * SIDE * 4));
    if (differing) {
        amp_index want = amp_index2((int)(first / SIDE), (int)(first % SIDE));
        FUZZ_CHECK(amp_index_equal(r->first_difference, want), "first difference at (%d, %d), expected (%d, %d)",
                   r->first_difference.i[0], r->first_difference.i[1], want.i[0], want.i[1]);
    } else {
        FUZZ_CHECK(r->first_difference.rank == 0, "no difference but first_difference has rank %d",
                   r->first_difference.rank);
    }
    FUZZ_CHECK(sum2 == 0 ? isinf(r->psnr) && r->psnr > 0 : isfinite(r->psnr), "PSNR %g with squared sum %g",
               r->psnr, sum2);
}

static void compare(const uint8_t *data, size_t size, double tol)
{
    const char *path = fuzz_temp_path("golden.png");
    fuzz_write_file(path, data, size);
    amp_image_compare_result r;
    memset(&r, 0xA5, sizeof r);
    amp_image_compare_result untouched = r;
    amp_status s = amp_image_compare_png(texture, path, &(amp_image_compare_desc){.tolerance = tol}, &r);
    unlink(path);
    fuzz_check_validation();
    if (s == AMP_OK) {
        check_result(data, size, tol, &r);
        return;
    }
    FUZZ_CHECK(s == AMP_ERROR_FORMAT || s == AMP_ERROR_INVALID_ARGUMENT || s == AMP_ERROR_OUT_OF_MEMORY ||
                   s == AMP_ERROR_OUT_OF_BOUNDS,
               "amp_image_compare_png failed with %s", amp_status_name(s));
    FUZZ_CHECK(!memcmp(&r, &untouched, sizeof r), "a failed comparison changed its result");
    amp_image head = {0};
    amp_status hs = decode_golden(data, size, &head, NULL);
    if (s == AMP_ERROR_OUT_OF_BOUNDS) /* refused as too large: the header must say so */
        FUZZ_CHECK(hs == AMP_ERROR_OUT_OF_BOUNDS, "refused as too large, but the header reads %s: %dx%d",
                   amp_status_name(hs), head.width, head.height);
    if (s == AMP_ERROR_INVALID_ARGUMENT) { /* refused as the wrong shape: the header must say so */
        FUZZ_CHECK(hs == AMP_OK, "refused as not comparable, but the golden's header does not read");
        FUZZ_CHECK(head.width != SIDE || head.height != SIDE || head.channels != 4,
                   "an 8x8 golden of 4 channels was refused as not comparable");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the tolerance from the input's last byte: exact most of the time */
    double tol = size && data[size - 1] < 16 ? data[size - 1] : 0;
    compare(data, size, tol);
    uint8_t *fixed = fuzz_png_fix_crcs(data, size);
    if (fixed) {
        compare(fixed, size, tol);
        free(fixed);
    }
    return 0;
}
