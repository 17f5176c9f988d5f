/* Golden-image regression: images the demos produced on this run are compared
 * with the ones stored in assets/golden.
 *
 *   test_golden OUTPUT.png GOLDEN.png [TOLERANCE]
 *
 * The tolerance is in 8-bit steps: hardware linear filtering has limited
 * sub-texel precision (8 bits in Vulkan's minimum), so a GPU may land one or two
 * steps from the lavapipe result the goldens were made with. */
#include <stdlib.h>

#include "ampvk/image.h"
#include "test.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_golden OUTPUT.png GOLDEN.png [TOLERANCE]\n");
        return 2;
    }
    test_begin();
    amp_accelerator_view *v = test_view();
    double tolerance = argc > 3 ? atof(argv[3]) : 0;
    amp_texture *out = amp_texture_load_png(v, argv[1], NULL);
    REQUIRE(out);
    amp_image_compare_result r = {0};
    if (out) {
        REQUIRE_OK(amp_image_compare_png(out, argv[2], &(amp_image_compare_desc){.tolerance = tolerance}, &r));
        printf("%s vs %s: max difference %g, mean %g, PSNR %g dB, %zu of %zu texels beyond %g\n", argv[1], argv[2],
               r.max_abs_diff, r.mean_abs_diff, r.psnr, r.differing_texels, r.texels, tolerance);
        REQUIRE(r.equal);
        REQUIRE(r.texels > 0);
    }
    amp_texture_destroy(&out);
    return test_end();
}
