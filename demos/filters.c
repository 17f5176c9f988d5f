/* The filter demo's filters: kernel creation and dispatch (see filters.h). */
#include "filters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* demos/filters.glsl, embedded by demos/embed_text.cmake. */
extern const char ampvk_demo_filters_glsl[];

static const char *const filter_names[FILTER_COUNT] = {"invert", "grayscale", "gaussian", "sobel"};

const char *filter_name(filter_kind kind)
{
    return kind >= 0 && kind < FILTER_COUNT ? filter_names[kind] : "unknown";
}

filter_kind filter_from_name(const char *name)
{
    for (int k = 0; k < FILTER_COUNT; k++)
        if (strcmp(name, filter_names[k]) == 0) return (filter_kind)k;
    return FILTER_COUNT;
}

uint32_t *filter_load_png(const char *path, int *rows, int *cols)
{
    amp_texture *t = amp_texture_load_png(NULL, path, &(amp_image_load_desc){.channels = 4, .bits = 8});
    if (!t) return NULL;
    amp_extent e = amp_texture_extent(t);
    size_t size = amp_extent_size(e) * sizeof(uint32_t);
    uint32_t *pixels = malloc(size);
    amp_status s = pixels ? amp_texture_copy_to_host(t, NULL, pixels, size) : AMP_ERROR_OUT_OF_MEMORY;
    amp_texture_destroy(&t);
    if (s != AMP_OK) {
        if (!pixels) fprintf(stderr, "out of memory for %s\n", path);
        free(pixels);
        return NULL;
    }
    *rows = e.dims[0];
    *cols = e.dims[1];
    return pixels;
}

amp_status filter_save_png(const char *path, const uint32_t *pixels, int rows, int cols)
{
    size_t size = (size_t)rows * (size_t)cols * sizeof *pixels;
    amp_texture *t = amp_texture_create(NULL, &(amp_texture_desc){.extent = amp_extent2(rows, cols), .type = AMP_UNORM_4,
                                                                  .bits_per_scalar_element = 8, .data = pixels,
                                                                  .data_size = size});
    amp_status s = t ? amp_texture_save_png(t, path, 8) : amp_last_status();
    amp_texture_destroy(&t);
    return s;
}

amp_kernel *filter_kernel_create(amp_accelerator_view *view, filter_kind kind)
{
    /* The filter is chosen by a #define in the declarations rather than in
     * desc.defines: the kernel cache key covers the generated source, but not (yet)
     * desc.defines, so two defines of one source would share a cache entry. */
    char define[32];
    snprintf(define, sizeof define, "#define FILTER %d\n", (int)kind);
    return amp_kernel_create(view, &(amp_kernel_desc){
        .params = "array_view<const uint, 2> src, array_view<uint, 2> dst",
        .source = ampvk_demo_filters_glsl,
        .name = "filters.glsl",
        .rank = 2,
        .declarations = define,
    });
}

amp_status filter_run(amp_accelerator_view *view, amp_kernel *kernel, const uint32_t *src,
                      uint32_t *dst, int rows, int cols)
{
    amp_extent e = amp_extent2(rows, cols);
    amp_array_view *in = amp_array_view_create_const(e, AMP_UINT, 0, src);
    amp_array_view *out = amp_array_view_create(e, AMP_UINT, 0, dst);
    amp_status s = in && out ? AMP_OK : amp_last_status();
    if (s == AMP_OK) s = amp_array_view_discard_data(out);
    if (s == AMP_OK)
        s = amp_parallel_for_each(view, e, kernel, AMP_ARGS(AMP_VIEW("src", in), AMP_VIEW("dst", out)));
    if (s == AMP_OK) s = amp_array_view_synchronize(out);
    amp_array_view_destroy(&in);
    amp_array_view_destroy(&out);
    return s;
}
