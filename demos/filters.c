/* The filter demo's filters: kernel creation and dispatch (see filters.h). */
#include "filters.h"

#include <stdio.h>
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
