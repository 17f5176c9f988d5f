/* Bounds-checked kernels (AMPVK_DEBUG=1, set here before the first call): the first
 * access outside an array_view's or texture's extent is reported at the next wait as
 * AMP_ERROR_OUT_OF_BOUNDS naming the kernel, the line, the argument, the index and the
 * extent; reads outside give 0, writes outside are dropped (the elements of the
 * array around a section are untouched), the kernel's other work is done, and the
 * next wait succeeds. */
#include <stdlib.h>

#include "test.h"

/* A read past the end of a 1-D view: reported once, read as 0. */
static void read_past_end(amp_accelerator_view *v)
{
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {0};
    amp_array_view *xv = amp_array_view_create(amp_extent1(8), AMP_FLOAT, 0, x);
    amp_array_view *yv = amp_array_view_create(amp_extent1(8), AMP_FLOAT, 0, y);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = "shift.glsl",
                                                            .params = "array_view<const float, 1> x, array_view<float, 1> y",
                                                            .body = "// the next element\n"
                                                                    "y(idx) = x(idx + 1) + 10.0;"});
    REQUIRE(xv && yv && k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(8), k, AMP_ARGS(AMP_VIEW("x", xv), AMP_VIEW("y", yv))));
    REQUIRE_FAIL(amp_array_view_synchronize(yv), AMP_ERROR_OUT_OF_BOUNDS,
                 "kernel \"shift.glsl\", line 2: argument \"x\" accessed at (8), outside its extent (8)");
    REQUIRE_OK(amp_array_view_synchronize(yv)); /* reported once; the results are there */
    for (int i = 0; i < 7; i++) REQUIRE(y[i] == x[i + 1] + 10);
    REQUIRE(y[7] == 10.0f); /* the read outside gave 0 */
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
    amp_array_view_destroy(&yv);
}

/* Writes outside a section of a larger array are dropped: the array's elements on
 * either side keep their values; a 2-D index is reported row first. */
static void write_outside_section(amp_accelerator_view *v)
{
    int a[6][6];
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) a[r][c] = 100 * r + c;
    amp_array_view *all = amp_array_view_create(amp_extent2(6, 6), AMP_INT, 0, a);
    amp_array_view *mid = all ? amp_array_view_section(all, amp_index2(2, 2), amp_extent2(2, 2)) : NULL;
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = "spill", .rank = 2,
                                                            .params = "array_view<int, 2> s",
                                                            .body = "s(idx) = -1;\ns(idx + ivec2(0, 2)) = -2;"});
    REQUIRE(all && mid && k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(2, 2), k, AMP_ARGS(AMP_VIEW("s", mid))));
    REQUIRE_FAIL(amp_array_view_synchronize(all), AMP_ERROR_OUT_OF_BOUNDS, "line 2: argument \"s\" accessed at");
    REQUIRE(strstr(amp_last_error(), "outside its extent (2, 2)"));
    REQUIRE_OK(amp_array_view_synchronize(all));
    int wrong = 0;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            bool in = r >= 2 && r < 4 && c >= 2 && c < 4;
            wrong += a[r][c] != (in ? -1 : 100 * r + c);
        }
    REQUIRE_INT(wrong, 0);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&mid);
    amp_array_view_destroy(&all);
}

/* Textures: a read outside a sampled texture gives 0, a store outside a storage
 * texture is dropped; the first is the one reported. */
static void textures(amp_accelerator_view *v)
{
    float px[4 * 4];
    for (int i = 0; i < 16; i++) px[i] = (float)(i + 1);
    amp_texture_desc td = {.extent = amp_extent2(4, 4), .type = AMP_FLOAT, .data = px, .data_size = sizeof px};
    amp_texture *src = amp_texture_create(v, &td);
    td.data = NULL;
    amp_texture *dst = amp_texture_create(v, &td);
    amp_kernel *k = amp_kernel_create(
        v, &(amp_kernel_desc){.name = "tex", .rank = 2,
                              .params = "texture_view<const float, 2> src, texture<float, 2> dst",
                              .body = "dst_set(idx, src(idx + ivec2(1, 0)));\n"
                                      "dst_set(idx + ivec2(0, 4), 99.0);"});
    REQUIRE(src && dst && k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(4, 4), k, AMP_ARGS(AMP_TEXTURE("src", src), AMP_TEXTURE("dst", dst))));
    float out[16] = {0};
    amp_status s = amp_texture_copy_to_host(dst, NULL, out, sizeof out);
    REQUIRE(s == AMP_ERROR_OUT_OF_BOUNDS || s == AMP_OK);
    if (s == AMP_OK) REQUIRE_FAIL(amp_view_wait(v), AMP_ERROR_OUT_OF_BOUNDS, "kernel \"tex\"");
    else REQUIRE(strstr(amp_last_error(), "kernel \"tex\""));
    REQUIRE(strstr(amp_last_error(), "outside its extent (4, 4)"));
    REQUIRE_OK(amp_texture_copy_to_host(dst, NULL, out, sizeof out));
    int wrong = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) wrong += out[4 * r + c] != (r < 3 ? px[4 * (r + 1) + c] : 0.0f);
    REQUIRE_INT(wrong, 0);
    amp_kernel_destroy(&k);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
}

/* Kernels that stay inside run as before, and waits succeed. */
static void inside(amp_accelerator_view *v)
{
    int x[64];
    amp_array_view *xv = amp_array_view_create(amp_extent1(64), AMP_INT, 0, x);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> x", .body = "x(idx) = idx * 3;"});
    REQUIRE(xv && k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(64), k, AMP_ARGS(AMP_VIEW("x", xv))));
    REQUIRE_OK(amp_array_view_synchronize(xv));
    REQUIRE_INT(x[63], 189);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
}

int main(void)
{
    setenv("AMPVK_DEBUG", "1", 1);
    test_begin();
    amp_accelerator_view *v = test_view();
    inside(v);
    read_past_end(v);
    write_outside_section(v);
    textures(v);
    inside(v);
    return test_end();
}
