/* Golden images of every built-in filter (ampvk/filter.h): each filter, each resize
 * interpolation and a few chains run on a 128x128 RGBA version of assets/sample.png
 * (made by the nearest resize filter here, to keep the goldens small: it is exact on
 * every device, where an area resize may round a level differently on a GPU and on
 * lavapipe, and filters such as sobel, contrast and equalize magnify such a level),
 * and the result is checked with amp_image_check_golden against
 * tests/golden/filters/NAME.png within one 8-bit level (GPUs and lavapipe round
 * differently).
 *
 *   test_filter_golden [NAME ...]     (default: every case)
 *
 * ctest runs it with CI=1, so a missing golden is a failure, and with
 * AMPVK_GOLDEN_FAILURES=<build>/golden-failures, where a failed check leaves
 * NAME.actual.png, NAME.expected.png and NAME.diff.png. To write the goldens (after
 * a deliberate change of a filter), run it once with AMPVK_UPDATE_GOLDEN=1 and look
 * at the images before committing them. */
#include <errno.h>
#include <sys/stat.h>

#include "ampvk/filter.h"
#include "test.h"

#ifndef AMPVK_GOLDEN_DIR
#error "AMPVK_GOLDEN_DIR must name tests/golden/filters"
#endif
#ifndef AMPVK_SAMPLE
#error "AMPVK_SAMPLE must name assets/sample.png"
#endif

enum { SIDE = 128 };

typedef struct golden_case {
    const char *name;
    int count;
    amp_image_filter filters[4];
    int components; /* of the result; 0: amp_image_filter_output_components (gray + alpha after grayscale) */
} golden_case;

/* Each case's filters, on the 128x128 RGBA source. ONE: a case of one filter. */
#define ONE(NAME, ...) {.name = NAME, .count = 1, .filters = {{__VA_ARGS__}}}
static const golden_case cases[] = {
    ONE("gaussian", .op = AMP_IMAGE_GAUSSIAN, .sigma = 2.0f),
    ONE("box", .op = AMP_IMAGE_BOX, .radius = 2),
    ONE("median", .op = AMP_IMAGE_MEDIAN, .radius = 2),
    ONE("sobel", .op = AMP_IMAGE_SOBEL),
    ONE("sobel_x", .op = AMP_IMAGE_SOBEL, .sobel = AMP_SOBEL_X),
    ONE("sharpen", .op = AMP_IMAGE_SHARPEN, .amount = 1.5f, .sigma = 1.0f),
    ONE("bilateral", .op = AMP_IMAGE_BILATERAL, .diameter = 9, .sigma_color = 50.0f, .sigma_space = 5.0f),
    ONE("erode", .op = AMP_IMAGE_ERODE, .radius = 1),
    ONE("dilate", .op = AMP_IMAGE_DILATE, .radius = 1),
    ONE("grayscale", .op = AMP_IMAGE_GRAYSCALE), /* gray + alpha */
    ONE("sepia", .op = AMP_IMAGE_SEPIA),
    ONE("invert", .op = AMP_IMAGE_INVERT),
    ONE("gamma", .op = AMP_IMAGE_GAMMA, .gamma = 2.2f),
    ONE("brightness_contrast", .op = AMP_IMAGE_BRIGHTNESS_CONTRAST, .contrast = 1.4f, .brightness = -0.1f),
    ONE("threshold", .op = AMP_IMAGE_THRESHOLD, .threshold = 0.5f),
    ONE("threshold_trunc", .op = AMP_IMAGE_THRESHOLD, .threshold_type = AMP_THRESHOLD_TRUNC, .threshold = 0.4f),
    ONE("srgb_to_linear", .op = AMP_IMAGE_SRGB_TO_LINEAR),
    ONE("linear_to_srgb", .op = AMP_IMAGE_LINEAR_TO_SRGB),
    ONE("tonemap", .op = AMP_IMAGE_TONEMAP, .exposure = 4.0f),
    ONE("tonemap_aces", .op = AMP_IMAGE_TONEMAP, .curve = AMP_TONEMAP_ACES, .exposure = 2.0f),
    /* resizes: up in width, down in height (160 x 96), in each interpolation */
    ONE("resize_linear", .op = AMP_IMAGE_RESIZE, .width = 160, .height = 96),
    ONE("resize_nearest", .op = AMP_IMAGE_RESIZE, .width = 160, .height = 96, .interpolation = AMP_INTERP_NEAREST),
    ONE("resize_area", .op = AMP_IMAGE_RESIZE, .width = 160, .height = 96, .interpolation = AMP_INTERP_AREA),
    ONE("resize_cubic", .op = AMP_IMAGE_RESIZE, .width = 160, .height = 96, .interpolation = AMP_INTERP_CUBIC),
    ONE("resize_lanczos4", .op = AMP_IMAGE_RESIZE, .width = 160, .height = 96, .interpolation = AMP_INTERP_LANCZOS4),
    /* equalize needs one component: grayscale first, into a 1-component result */
    {.name = "equalize",
     .count = 2,
     .filters = {{.op = AMP_IMAGE_GRAYSCALE}, {.op = AMP_IMAGE_EQUALIZE}},
     .components = 1},
    /* chains: a blur, gray and a resize (to 96 wide, the aspect kept); pointwise
     * filters fused into one pass; a neighborhood filter on another's result */
    {.name = "chain_gaussian_grayscale_resize",
     .count = 3,
     .filters = {{.op = AMP_IMAGE_GAUSSIAN, .radius = 2}, {.op = AMP_IMAGE_GRAYSCALE},
                 {.op = AMP_IMAGE_RESIZE, .width = 96}}},
    {.name = "chain_brightness_gamma_sepia",
     .count = 3,
     .filters = {{.op = AMP_IMAGE_BRIGHTNESS_CONTRAST, .contrast = 1.2f, .brightness = 0.05f},
                 {.op = AMP_IMAGE_GAMMA, .gamma = 1.8f},
                 {.op = AMP_IMAGE_SEPIA}}},
    {.name = "chain_median_sobel_invert",
     .count = 3,
     .filters = {{.op = AMP_IMAGE_MEDIAN, .radius = 1}, {.op = AMP_IMAGE_SOBEL}, {.op = AMP_IMAGE_INVERT}}},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

/* assets/sample.png (512x512 RGBA) resized to SIDE x SIDE by area averaging. */
static amp_texture *small_sample(amp_accelerator_view *v)
{
    amp_texture *full = amp_texture_load_png(v, AMPVK_SAMPLE, NULL);
    REQUIRE(full);
    if (!full) return NULL;
    REQUIRE_INT(amp_texture_type(full), AMP_UNORM_4);
    amp_texture *small = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(SIDE, SIDE),
                                                                    .type = AMP_UNORM_4, .bits_per_scalar_element = 8});
    REQUIRE(small);
    if (small)
        REQUIRE_OK(amp_image_filter_apply(
            &(amp_image_filter){.op = AMP_IMAGE_RESIZE, .interpolation = AMP_INTERP_NEAREST}, full, small));
    amp_texture_destroy(&full);
    return small;
}

/* Runs one case on src and checks its golden; prints what the check found. */
static void run_case(amp_accelerator_view *v, const golden_case *c, amp_texture *src)
{
    amp_extent e;
    REQUIRE_OK(amp_image_filter_output_extent(c->filters, c->count, amp_texture_extent(src), &e));
    int comps = c->components ? c->components : amp_image_filter_output_components(c->filters, c->count, 4);
    amp_texture_desc d = {.extent = e, .type = AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps), .bits_per_scalar_element = 8};
    amp_texture *dst = amp_texture_create(v, &d);
    REQUIRE(dst);
    if (!dst) return;
    REQUIRE_OK(c->count == 1 ? amp_image_filter_apply(&c->filters[0], src, dst)
                             : amp_image_filter_chain(c->filters, c->count, src, dst));
    char path[512];
    snprintf(path, sizeof path, AMPVK_GOLDEN_DIR "/%s.png", c->name);
    amp_image_compare_result r = {0};
    amp_status s = amp_image_check_golden(dst, path, &(amp_image_golden_desc){.compare = {.tolerance = 1}}, &r);
    REQUIRE_OK(s);
    if (s == AMP_OK && r.golden_written) {
        printf("%-32s wrote %s (%dx%d, %d components)\n", c->name, path, e.dims[1], e.dims[0], comps);
    } else if (s == AMP_OK) {
        printf("%-32s max difference %g, %zu of %zu texels beyond 1%s\n", c->name, r.max_abs_diff, r.differing_texels,
               r.texels, r.passed ? "" : "  FAILED");
        if (!r.passed) {
            const char *dir = getenv("AMPVK_GOLDEN_FAILURES");
            fprintf(stderr, "%s: differs from %s at (row %d, column %d)%s%s\n", c->name, path, r.first_difference.i[0],
                    r.first_difference.i[1], dir ? "; pictures in " : "", dir ? dir : "");
        }
        REQUIRE(r.passed);
    }
    amp_texture_destroy(&dst);
}

int main(int argc, char **argv)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    /* a run that writes goldens may start without the folder */
    if (getenv("AMPVK_UPDATE_GOLDEN")) mkdir(AMPVK_GOLDEN_DIR, 0777);
    amp_texture *src = small_sample(v);
    int ran = 0;
    for (int i = 0; i < NCASES && src; i++) {
        bool wanted = argc < 2;
        for (int a = 1; a < argc; a++) wanted |= strcmp(argv[a], cases[i].name) == 0;
        if (!wanted) continue;
        run_case(v, &cases[i], src);
        ran++;
    }
    REQUIRE(ran == (argc < 2 ? NCASES : argc - 1));
    /* every filter of filter.h has a case (copy aside) */
    for (int op = AMP_IMAGE_GAUSSIAN; op < AMP_IMAGE_OP_COUNT && argc < 2; op++) {
        bool found = false;
        for (int i = 0; i < NCASES; i++)
            for (int k = 0; k < cases[i].count; k++) found |= (int)cases[i].filters[k].op == op;
        if (!found) fprintf(stderr, "no golden case for filter %s\n", amp_image_op_name((amp_image_op)op));
        REQUIRE(found);
    }
    amp_texture_destroy(&src);
    return test_end();
}
