/* ampvk-resize: resizes a PNG through a linear sampler on textures.
 *
 *   ampvk-resize [--accelerator KEY] in.png out.png WIDTH HEIGHT
 *
 * The image keeps its channels and depth (a 16-bit RGBA PNG stays 16-bit RGBA).
 * Shrinking samples a mip chain at the level that matches the scale (trilinear),
 * so a large reduction averages instead of aliasing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ampvk/ampvk.h"
#include "ampvk/image.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail(const char *what)
{
    fprintf(stderr, "ampvk-resize: %s: %s\n", what, amp_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    const char *key = NULL;
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "--accelerator") == 0) {
        key = argv[a + 1];
        a += 2;
    }
    if (argc - a != 4) {
        fprintf(stderr, "usage: ampvk-resize [--accelerator KEY] in.png out.png WIDTH HEIGHT\n");
        return 2;
    }
    const char *in = argv[a], *out = argv[a + 1];
    int width = atoi(argv[a + 2]), height = atoi(argv[a + 3]);
    if (width < 1 || height < 1) {
        fprintf(stderr, "ampvk-resize: the size %sx%s is not two positive integers\n", argv[a + 2], argv[a + 3]);
        return 2;
    }
    if (key && amp_accelerator_set_default(key) != AMP_OK) return fail("--accelerator");
    amp_accelerator_view *v = amp_default_view();
    if (!v) return fail("no accelerator");
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);

    double t0 = now();
    amp_texture *src = amp_texture_load_png(v, in, &(amp_image_load_desc){.mip_levels = AMP_MIP_FULL});
    if (!src) return fail(in);
    amp_extent se = amp_texture_extent(src);
    amp_type type = amp_texture_type(src);
    amp_texture *dst = amp_texture_create(v, &(amp_texture_desc){
        .extent = amp_extent2(height, width), .type = type,
        .bits_per_scalar_element = amp_texture_bits_per_scalar_element(src)});
    if (!dst) return fail("destination texture");

    /* the kernel for this texel type: texel centers of the output in [0,1] */
    char params[160];
    snprintf(params, sizeof params,
             "texture_view<const %s, 2> src, sampler s, writeonly_texture_view<%s, 2> dst, float lod",
             amp_type_name(type), amp_type_name(type));
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .name = "resize", .rank = 2, .params = params,
        .body = "vec2 uv = (vec2(amp_image_coord(idx)) + 0.5) / vec2(amp_image_coord(dst_extent));\n"
                "dst_set(idx, src_sample(s, uv, lod));\n"});
    if (!k) return fail("kernel");
    double scale = fmax((double)se.dims[1] / width, (double)se.dims[0] / height);
    float lod = scale > 1 ? (float)log2(scale) : 0.0f;
    amp_texture_view *w = amp_texture_view_create(dst, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE});
    double t1 = now();
    if (amp_parallel_for_each(v, amp_extent2(height, width), k,
                              AMP_ARGS(AMP_TEXTURE("src", src), AMP_SAMPLER("s", (amp_sampler){0}),
                                       AMP_TEXTURE_VIEW("dst", w), AMP_FLOAT("lod", lod))) != AMP_OK ||
        amp_view_wait(v) != AMP_OK)
        return fail("resize");
    double t2 = now();
    if (amp_texture_save_png(dst, out, 0) != AMP_OK) return fail(out);
    printf("%s: %dx%d %s (%d-bit) -> %dx%d, lod %.2f, on %s%s: kernel %.2f ms, total %.1f ms\n", in, se.dims[1],
           se.dims[0], amp_type_name(type), amp_texture_bits_per_scalar_element(src), width, height, lod,
           info.description, info.is_emulated ? " (emulated)" : "", (t2 - t1) * 1e3, (now() - t0) * 1e3);
    amp_texture_view_destroy(&w);
    amp_kernel_destroy(&k);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    return 0;
}
