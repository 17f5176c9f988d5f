/* Device time (amp_view_set_profiling, amp_view_get_profile): every dispatch and
 * copy of a profiled view is timed by name, with counts, times and bytes; nothing is
 * timed while profiling is off; a view's table only grows with its own work. */
#include <string.h>

#include "test.h"

/* The first entry whose name matches (test_name_matches). */
static const amp_profile_entry *find(const amp_profile_entry *e, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (test_name_matches(e[i].name, name)) return &e[i];
    return NULL;
}

int main(void)
{
    test_begin();
    amp_accelerator *acc = amp_accelerator_default();
    amp_accelerator_view *v = acc ? amp_view_create(acc, AMP_QUEUING_AUTOMATIC) : NULL;
    REQUIRE(v);
    if (!v) return test_end();
    int n = -1;
    REQUIRE_OK(amp_view_get_profile(v, NULL, 0, &n));
    REQUIRE_INT(n, 0);
    REQUIRE_OK(amp_view_set_profiling(v, true));
    enum { N = 1 << 16 };
    static float data[N];
    for (int i = 0; i < N; i++) data[i] = (float)i;
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_FLOAT,
                                                         .cpu_access = AMP_ACCESS_NONE});
    /* (an array made with data may be written in place where device memory is mapped) */
    if (a) REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(a)));
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = "slow_square", .params = "array_view<float, 1> x",
                                                            .body = "float s = x(idx);\n"
                                                                    "for (int i = 0; i < 200; i++) s = s * 0.999 + 1.0;\n"
                                                                    "x(idx) = s;"});
    REQUIRE(a && k);
    for (int i = 0; k && a && i < 5; i++)
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_ARRAY("x", a))));
    static float out[N];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), out, sizeof out));
    amp_profile_entry e[16];
    REQUIRE_OK(amp_view_get_profile(v, e, 16, &n));
    REQUIRE(n >= 3 && n <= 16);
    const amp_profile_entry *up = find(e, n, "upload"), *down = find(e, n, "download"), *ks = find(e, n, "slow_square");
    REQUIRE(up && down && ks);
    if (up && down && ks) {
        REQUIRE_INT(ks->count, 5);
        REQUIRE(ks->total_ms > 0 && ks->min_ms <= ks->max_ms && ks->min_ms >= 0);
        REQUIRE(ks->total_ms >= 5 * ks->min_ms * 0.999 && ks->total_ms <= 5 * ks->max_ms * 1.001);
        REQUIRE_INT(ks->bytes, 0);
        REQUIRE_INT(up->count, 1);
        REQUIRE_INT(up->bytes, sizeof data);
        REQUIRE_INT(down->count, 1);
        REQUIRE_INT(down->bytes, sizeof out);
    }
    /* a filter and a texture copy, by their names (the filter's shader: "filter conv" or,
       on NVIDIA GPUs, "filter conv subgroup") */
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(64, 64), .type = AMP_FLOAT_4});
    amp_texture *t2 = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(64, 64), .type = AMP_FLOAT_4});
    REQUIRE(t && t2);
    REQUIRE_OK(amp_image_filter_apply(&(amp_image_filter){.op = AMP_IMAGE_GAUSSIAN, .radius = 2}, t, t2));
    REQUIRE_OK(amp_texture_copy(t2, NULL, t, NULL));
    REQUIRE_OK(amp_view_wait(v));
    REQUIRE_OK(amp_view_get_profile(v, e, 16, &n));
    const amp_profile_entry *conv = find(e, n, "filter conv*"), *copy = find(e, n, "device copy");
    REQUIRE(conv && copy);
    if (copy) REQUIRE_INT(copy->bytes, 64 * 64 * 16);
    /* off: nothing more is timed */
    REQUIRE_OK(amp_view_set_profiling(v, false));
    for (int i = 0; k && a && i < 3; i++)
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_ARRAY("x", a))));
    REQUIRE_OK(amp_view_wait(v));
    REQUIRE_OK(amp_view_get_profile(v, e, 16, &n));
    ks = find(e, n, "slow_square");
    if (ks) REQUIRE_INT(ks->count, 5);
    /* the count alone, and errors */
    int only = 0;
    REQUIRE_OK(amp_view_get_profile(v, NULL, 0, &only));
    REQUIRE_INT(only, n);
    REQUIRE_FAIL(amp_view_get_profile(v, NULL, 4, &only), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_view_set_profiling(NULL, true), AMP_ERROR_INVALID_ARGUMENT, "NULL view");
    amp_texture_destroy(&t);
    amp_texture_destroy(&t2);
    amp_kernel_destroy(&k);
    amp_array_destroy(&a);
    REQUIRE_OK(amp_view_destroy(&v));
    return test_end();
}
