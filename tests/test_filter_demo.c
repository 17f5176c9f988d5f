/*
 * The filter demo's kernels (demos/filters.glsl) against a host computation.
 *
 *     test_filter_demo input.png [outputs-dir]
 *
 * Runs every filter through the library on input.png and on an odd-sized crop
 * of it (partial work groups, borders close together) and requires every byte to
 * equal the host reference below. With outputs-dir, also requires
 * outputs-dir/<filter>.png, written by ampvk-filter from input.png, to match:
 * the demo end to end, PNG in and out.
 *
 * Why exact (no tolerance): the kernels unpack each channel with
 * unpackUnorm4x8 (c / 255.0) and round it back times 255, which gives c again
 * (the float error is ~1e-5, far below 0.5), and then use integer arithmetic
 * only, as the host does. Two places use floats:
 *  - invert packs 1 - c/255; times 255 that is 255 - c within ~1e-4, and
 *    packUnorm4x8 rounds it to exactly 255 - c.
 *  - sobel takes floor(sqrt(n) + 0.5) of an integer n = gx^2 + gy^2 < 2^24, which
 *    is exact as a float. Only results up to 255 matter (the rest clamp to 255).
 *    For n <= 65281, sqrt(n) is never within 1.9e-3 of a half-integer
 *    (|n - (k + 0.5)^2| >= 0.25, so the distance is >= 0.25 / (2 * 256)), while
 *    GLSL's sqrt is off by a few ulp, about 1e-4 at 256: the rounding cannot
 *    flip. The host uses a correctly rounded double sqrt.
 */
#include <math.h>


#include "filters.h"
#include "test.h"

static uint32_t pack(unsigned r, unsigned g, unsigned b, unsigned a)
{
    return r | g << 8 | b << 16 | (uint32_t)a << 24;
}
static unsigned ch(uint32_t p, int c) { return p >> (8 * c) & 0xff; }
static unsigned luma(uint32_t p) { return (77 * ch(p, 0) + 150 * ch(p, 1) + 29 * ch(p, 2) + 128) >> 8; }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static uint32_t at(const uint32_t *img, int rows, int cols, int r, int c)
{
    return img[clampi(r, 0, rows - 1) * cols + clampi(c, 0, cols - 1)];
}

/* The host reference of each filter (see filters.h for the formulas). */
static uint32_t reference(filter_kind kind, const uint32_t *img, int rows, int cols, int r, int c)
{
    uint32_t p = img[r * cols + c];
    switch (kind) {
    case FILTER_INVERT: return pack(255 - ch(p, 0), 255 - ch(p, 1), 255 - ch(p, 2), ch(p, 3));
    case FILTER_GRAYSCALE: {
        unsigned y = luma(p);
        return pack(y, y, y, ch(p, 3));
    }
    case FILTER_GAUSSIAN: {
        static const unsigned w[5] = {1, 4, 6, 4, 1};
        unsigned sum[4] = {0};
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++)
                for (int k = 0; k < 4; k++)
                    sum[k] += w[dy + 2] * w[dx + 2] * ch(at(img, rows, cols, r + dy, c + dx), k);
        return pack((sum[0] + 128) >> 8, (sum[1] + 128) >> 8, (sum[2] + 128) >> 8, (sum[3] + 128) >> 8);
    }
    case FILTER_SOBEL: {
        int l[9];
        for (int k = 0; k < 9; k++) l[k] = (int)luma(at(img, rows, cols, r + k / 3 - 1, c + k % 3 - 1));
        int gx = (l[2] + 2 * l[5] + l[8]) - (l[0] + 2 * l[3] + l[6]);
        int gy = (l[6] + 2 * l[7] + l[8]) - (l[0] + 2 * l[1] + l[2]);
        unsigned m = (unsigned)floor(sqrt((double)(gx * gx + gy * gy)) + 0.5);
        if (m > 255) m = 255;
        return pack(m, m, m, ch(p, 3));
    }
    default: return 0;
    }
}

/* Requires got to equal the reference of kind over img; reports the first difference. */
static void require_filtered(filter_kind kind, const uint32_t *img, const uint32_t *got, int rows, int cols,
                             const char *what)
{
    test_checks++;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            uint32_t want = reference(kind, img, rows, cols, r, c);
            if (got[r * cols + c] != want) {
                fprintf(stderr, "%s %s (%dx%d): pixel (row %d, col %d) = %08x, expected %08x\n", what,
                        filter_name(kind), cols, rows, r, c, got[r * cols + c], want);
                test_failures++;
                return;
            }
        }
}

int main(int argc, char **argv)
{
    test_begin();
    if (argc < 2) {
        fprintf(stderr, "usage: test_filter_demo input.png [outputs-dir]\n");
        return 1;
    }
    amp_accelerator_view *view = test_view();
    int cols, rows;
    uint32_t *img = filter_load_png(argv[1], &rows, &cols);
    if (!img) {
        fprintf(stderr, "%s\n", amp_last_error());
        return 1;
    }
    /* An odd-sized crop: 37 columns x 23 rows from the middle of the image. */
    enum { CROP_COLS = 37, CROP_ROWS = 23 };
    static uint32_t crop[CROP_ROWS * CROP_COLS];
    for (int r = 0; r < CROP_ROWS; r++)
        for (int c = 0; c < CROP_COLS; c++) crop[r * CROP_COLS + c] = img[(r + rows / 2) * cols + c + cols / 3];

    uint32_t *out = malloc((size_t)rows * cols * sizeof *out);
    REQUIRE(out != NULL);
    for (int k = 0; out && k < FILTER_COUNT; k++) {
        amp_kernel *kernel = filter_kernel_create(view, (filter_kind)k);
        REQUIRE(kernel != NULL);
        if (!kernel) continue;
        REQUIRE_OK(filter_run(view, kernel, img, out, rows, cols));
        require_filtered((filter_kind)k, img, out, rows, cols, "library");
        REQUIRE_OK(filter_run(view, kernel, crop, out, CROP_ROWS, CROP_COLS));
        require_filtered((filter_kind)k, crop, out, CROP_ROWS, CROP_COLS, "library");
        amp_kernel_destroy(&kernel);

        if (argc > 2) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.png", argv[2], filter_name((filter_kind)k));
            int ocols, orows;
            uint32_t *demo = filter_load_png(path, &orows, &ocols);
            if (!demo) fprintf(stderr, "%s\n", amp_last_error());
            REQUIRE(demo != NULL);
            if (!demo) continue;
            REQUIRE_INT(ocols, cols);
            REQUIRE_INT(orows, rows);
            if (ocols == cols && orows == rows) require_filtered((filter_kind)k, img, demo, rows, cols, "ampvk-filter");
            free(demo);
        }
    }
    free(out);
    free(img);
    return test_end();
}
