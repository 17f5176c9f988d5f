/* ampvk-grade: color grading of a PNG through a 3-D lookup table sampled linearly.
 *
 *   ampvk-grade [--accelerator KEY] [--look warm|cool|mono|invert | --cube file.cube] [--size N]
 *               in.png out.png
 *
 * The LUT is a 3-D texture of N^3 half-float RGBA texels (N = 33 by default); a
 * kernel maps each pixel's color to LUT coordinates at texel centers and samples it
 * trilinearly, the way film and video tools apply .cube LUTs. A .cube file (Adobe's
 * format: LUT_3D_SIZE N, then N^3 lines "r g b" with red fastest) can be given
 * instead of a built-in look. Alpha passes through. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ampvk/ampvk.h"
#include "ampvk/image.h"
#include "ampvk/vecmath.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail(const char *what)
{
    fprintf(stderr, "ampvk-grade: %s: %s\n", what, amp_last_error());
    return 1;
}

static float smoothstep01(float x) { return x * x * (3 - 2 * x); }

/* A built-in look applied to one color. */
static void look(const char *name, const float in[3], float out[3])
{
    float r = in[0], g = in[1], b = in[2], l = 0.2126f * r + 0.7152f * g + 0.0722f * b;
    if (strcmp(name, "mono") == 0) {
        out[0] = out[1] = out[2] = smoothstep01(l);
    } else if (strcmp(name, "invert") == 0) {
        out[0] = 1 - r, out[1] = 1 - g, out[2] = 1 - b;
    } else {
        bool warm = strcmp(name, "warm") == 0;
        /* S-curve contrast, a little desaturation, then a tint */
        float c[3] = {r, g, b};
        for (int i = 0; i < 3; i++) c[i] = 0.85f * smoothstep01(c[i]) + 0.15f * c[i];
        for (int i = 0; i < 3; i++) c[i] = l + 0.85f * (c[i] - l);
        float tint[3] = {warm ? 1.08f : 0.92f, 1.0f, warm ? 0.88f : 1.10f};
        for (int i = 0; i < 3; i++) out[i] = fminf(1, fmaxf(0, c[i] * tint[i]));
    }
}

/* Reads a .cube file into half-float RGBA texels (red fastest); NULL on error. */
static uint16_t *read_cube(const char *path, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ampvk-grade: cannot open %s\n", path);
        return NULL;
    }
    char line[256];
    uint16_t *texels = NULL;
    int size = 0, count = 0;
    while (fgets(line, sizeof line, f)) {
        float r, g, b;
        if (sscanf(line, "LUT_3D_SIZE %d", &size) == 1) {
            if (size < 2 || size > 256) break;
            texels = calloc((size_t)size * size * size * 4, sizeof *texels);
            if (!texels) break;
        } else if (texels && count < size * size * size && sscanf(line, "%f %f %f", &r, &g, &b) == 3) {
            uint16_t *t = &texels[(size_t)count++ * 4];
            t[0] = amp_half_from_float(r), t[1] = amp_half_from_float(g), t[2] = amp_half_from_float(b);
            t[3] = amp_half_from_float(1);
        }
    }
    fclose(f);
    if (!texels || count != size * size * size) {
        fprintf(stderr, "ampvk-grade: %s: a .cube file needs LUT_3D_SIZE (2..256) and N^3 (%d) colors, found %d\n",
                path, size * size * size, count);
        free(texels);
        return NULL;
    }
    *n = size;
    return texels;
}

int main(int argc, char **argv)
{
    const char *key = NULL, *name = "warm", *cube = NULL;
    int n = 33, a = 1;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--accelerator") == 0) key = argv[a + 1];
        else if (strcmp(argv[a], "--look") == 0) name = argv[a + 1];
        else if (strcmp(argv[a], "--cube") == 0) cube = argv[a + 1];
        else if (strcmp(argv[a], "--size") == 0) n = atoi(argv[a + 1]);
        else break;
    }
    if (argc - a != 2 || n < 2 || n > 256 ||
        (strcmp(name, "warm") && strcmp(name, "cool") && strcmp(name, "mono") && strcmp(name, "invert"))) {
        fprintf(stderr, "usage: ampvk-grade [--accelerator KEY] [--look warm|cool|mono|invert | --cube file.cube] "
                        "[--size 2..256] in.png out.png\n");
        return 2;
    }
    if (key && amp_accelerator_set_default(key) != AMP_OK) return fail("--accelerator");
    amp_accelerator_view *v = amp_default_view();
    if (!v) return fail("no accelerator");

    /* the LUT: extent (blue, green, red), so image x runs along red */
    uint16_t *lut = NULL;
    if (cube) {
        if (!(lut = read_cube(cube, &n))) return 1;
    } else {
        lut = malloc((size_t)n * n * n * 4 * sizeof *lut);
        if (!lut) return 1;
        for (int b = 0; b < n; b++)
            for (int g = 0; g < n; g++)
                for (int r = 0; r < n; r++) {
                    float in[3] = {(float)r / (n - 1), (float)g / (n - 1), (float)b / (n - 1)}, o[3];
                    look(name, in, o);
                    uint16_t *t = &lut[(((size_t)b * n + g) * n + r) * 4];
                    for (int c = 0; c < 3; c++) t[c] = amp_half_from_float(o[c]);
                    t[3] = amp_half_from_float(1);
                }
    }
    double t0 = now();
    amp_texture *table = amp_texture_create(v, &(amp_texture_desc){
        .extent = amp_extent3(n, n, n), .type = AMP_FLOAT_4, .bits_per_scalar_element = 16, .data = lut,
        .data_size = (size_t)n * n * n * 8});
    free(lut);
    if (!table) return fail("LUT texture");
    amp_texture *src = amp_texture_load_png(v, argv[a], &(amp_image_load_desc){.channels = 4});
    if (!src) return fail(argv[a]);
    amp_extent e = amp_texture_extent(src);
    amp_texture *dst = amp_texture_create(v, &(amp_texture_desc){
        .extent = e, .type = AMP_UNORM_4, .bits_per_scalar_element = amp_texture_bits_per_scalar_element(src)});
    if (!dst) return fail("output texture");
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .name = "grade", .rank = 2,
        .params = "texture_view<const unorm_4, 2> src, texture_view<const float_4, 3> lut, sampler s, "
                  "writeonly_texture_view<unorm_4, 2> dst",
        .body = "vec4 c = src(idx).v;\n"
                "float n = float(lut_extent.x);\n"
                "vec3 at = (c.rgb * (n - 1.0) + 0.5) / n;   /* texel centers */\n"
                "vec4 graded = lut_sample(s, at, 0.0);\n"
                "dst_set(idx, unorm_4_make(graded.r, graded.g, graded.b, c.a));\n"});
    if (!k) return fail("kernel");
    amp_texture_view *w = amp_texture_view_create(dst, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE});
    double t1 = now();
    if (amp_parallel_for_each(v, e, k,
                              AMP_ARGS(AMP_TEXTURE("src", src), AMP_TEXTURE("lut", table),
                                       AMP_SAMPLER("s", (amp_sampler){.filter = AMP_FILTER_LINEAR}),
                                       AMP_TEXTURE_VIEW("dst", w))) != AMP_OK ||
        amp_view_wait(v) != AMP_OK)
        return fail("grade");
    double t2 = now();
    if (amp_texture_save_png(dst, argv[a + 1], 0) != AMP_OK) return fail(argv[a + 1]);
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    printf("%s: %dx%d graded with %s (%d^3 LUT) on %s%s: kernel %.2f ms, total %.1f ms\n", argv[a], e.dims[1],
           e.dims[0], cube ? cube : name, n, info.description, info.is_emulated ? " (emulated)" : "",
           (t2 - t1) * 1e3, (now() - t0) * 1e3);
    amp_texture_view_destroy(&w);
    amp_kernel_destroy(&k);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    amp_texture_destroy(&table);
    return 0;
}
