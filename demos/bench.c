/* ampvk-bench: what ampvk costs on the default accelerator. Prints a table and
 * JSON (the last line). Sizes scale down with --size-mb for slow devices.
 *
 *   copy / saxpy over N MiB      GB/s counted as bytes read + written
 *   batched dependent dispatch   us per dispatch, one submit for all
 *   dispatch + synchronize       us per parallel_for_each followed by a wait
 *   kernel ready (cold / warm)   ms for amp_kernel_create in a new process
 *   synchronize to / from device GB/s of array_view transfers
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ampvk/ampvk.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int check(amp_status s, const char *what)
{
    if (s == AMP_OK) return 0;
    fprintf(stderr, "ampvk-bench: %s: %s\n", what, amp_last_error());
    exit(1);
}

static amp_kernel *kernel(amp_accelerator_view *v, const char *params, const char *body)
{
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = params, .body = body});
    if (!k) check(amp_last_status(), "amp_kernel_create");
    return k;
}

/* Child mode: time the first kernel of a new process. */
static int kernel_ready(void)
{
    amp_accelerator_view *v = amp_default_view();
    if (!v) check(amp_last_status(), "amp_default_view");
    double t0 = now();
    amp_kernel *k = kernel(v, "array_view<float, 1> a, float s", "a(idx) = a(idx) * s + 1.0;");
    double t1 = now();
    printf("%.3f %d\n", (t1 - t0) * 1e3, amp_kernel_from_cache(k));
    amp_kernel_destroy(&k);
    return 0;
}

static double child_ms(const char *self, const char *env)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s '%s' --kernel-ready", env, self);
    FILE *p = popen(cmd, "r");
    double ms = -1;
    if (p) {
        if (fscanf(p, "%lf", &ms) != 1) ms = -1;
        pclose(p);
    }
    return ms;
}

int main(int argc, char **argv)
{
    size_t mb = 1024;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kernel-ready") == 0) return kernel_ready();
        if (strcmp(argv[i], "--size-mb") == 0 && i + 1 < argc) mb = (size_t)atol(argv[++i]);
    }
    amp_accelerator_view *v = amp_default_view();
    if (!v) check(amp_last_status(), "amp_default_view");
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    printf("ampvk-bench on %s (%s)\n", info.description, info.device_path);

    /* copy and saxpy over mb MiB of floats, as float_4 for full-width loads */
    size_t n4 = mb * 1024 * 1024 / 16;
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)n4), .type = AMP_FLOAT_4});
    amp_array *b = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)n4), .type = AMP_FLOAT_4});
    if (!a || !b) check(amp_last_status(), "amp_array_create");
    amp_kernel *fill = kernel(v, "array<vec4, 1> a", "a(idx) = vec4(float(idx));");
    amp_kernel *copy = kernel(v, "array<const vec4, 1> a, array<vec4, 1> b", "b(idx) = a(idx);");
    amp_kernel *saxpy = kernel(v, "array<const vec4, 1> x, array<vec4, 1> y, float s",
                               "y(idx) = s * x(idx) + y(idx);");
    check(amp_parallel_for_each(v, amp_extent1((int)n4), fill, AMP_ARGS(AMP_ARRAY("a", a))), "fill");
    check(amp_parallel_for_each(v, amp_extent1((int)n4), fill, AMP_ARGS(AMP_ARRAY("a", b))), "fill");
    check(amp_view_wait(v), "wait");
    int reps = mb >= 512 ? 20 : 5;
    double t0 = now();
    for (int r = 0; r < reps; r++)
        check(amp_parallel_for_each(v, amp_extent1((int)n4), copy, AMP_ARGS(AMP_ARRAY("a", a), AMP_ARRAY("b", b))),
              "copy");
    check(amp_view_wait(v), "wait");
    double copy_gbps = 2.0 * (double)n4 * 16 * reps / (now() - t0) / 1e9;
    t0 = now();
    for (int r = 0; r < reps; r++)
        check(amp_parallel_for_each(v, amp_extent1((int)n4), saxpy,
                                    AMP_ARGS(AMP_ARRAY("x", a), AMP_ARRAY("y", b), AMP_FLOAT("s", 0.5f))),
              "saxpy");
    check(amp_view_wait(v), "wait");
    double saxpy_gbps = 3.0 * (double)n4 * 16 * reps / (now() - t0) / 1e9;

    /* dependent dispatches: each reads what the previous wrote */
    amp_array *small = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(256), .type = AMP_FLOAT});
    amp_kernel *inc = kernel(v, "array<float, 1> a", "a(idx) += 1.0;");
    check(amp_parallel_for_each(v, amp_extent1(256), inc, AMP_ARGS(AMP_ARRAY("a", small))), "warm");
    check(amp_view_wait(v), "wait");
    const int chain = 2000;
    amp_view_stats s0, s1;
    amp_view_get_stats(v, &s0);
    t0 = now();
    for (int r = 0; r < chain; r++)
        check(amp_parallel_for_each(v, amp_extent1(256), inc, AMP_ARGS(AMP_ARRAY("a", small))), "chain");
    double record_us = (now() - t0) / chain * 1e6;
    check(amp_view_wait(v), "wait");
    double chain_us = (now() - t0) / chain * 1e6;
    amp_view_get_stats(v, &s1);
    int chain_submits = (int)(s1.submits - s0.submits);

    /* one parallel_for_each followed by a wait */
    const int trips = 500;
    t0 = now();
    for (int r = 0; r < trips; r++) {
        check(amp_parallel_for_each(v, amp_extent1(256), inc, AMP_ARGS(AMP_ARRAY("a", small))), "trip");
        check(amp_view_wait(v), "wait");
    }
    double trip_us = (now() - t0) / trips * 1e6;

    /* array_view synchronize to and from the device */
    size_t nbytes = mb * 1024 * 1024;
    float *host = malloc(nbytes);
    for (size_t i = 0; i < nbytes / 4; i++) host[i] = (float)(i & 1023);
    amp_array_view *hv = amp_array_view_create(amp_extent1((int)(nbytes / 16)), AMP_FLOAT_4, 0, host);
    amp_kernel *touch = kernel(v, "array_view<vec4, 1> a", "if (idx == 0) a(idx) += vec4(1.0);");
    /* the first transfer also pins the host memory (imported once per view);
     * report it apart from the steady state (median of the rest) */
    enum { SYNC_REPS = 5 };
    double ups[SYNC_REPS], downs[SYNC_REPS];
    for (int r = 0; r < SYNC_REPS; r++) {
        amp_array_view_refresh(hv);
        t0 = now();
        check(amp_array_view_synchronize_to(hv, v), "synchronize_to");
        check(amp_view_wait(v), "wait");
        ups[r] = now() - t0;
        check(amp_parallel_for_each(v, amp_extent1(1), touch, AMP_ARGS(AMP_VIEW("a", hv))), "touch");
        check(amp_view_wait(v), "wait");
        t0 = now();
        check(amp_array_view_synchronize(hv), "synchronize");
        downs[r] = now() - t0;
    }
    double first_up_gbps = (double)nbytes / ups[0] / 1e9, first_down_gbps = (double)nbytes / downs[0] / 1e9;
    qsort(ups + 1, SYNC_REPS - 1, sizeof *ups, cmp_double);
    qsort(downs + 1, SYNC_REPS - 1, sizeof *downs, cmp_double);
    double up = ups[1 + (SYNC_REPS - 1) / 2], down = downs[1 + (SYNC_REPS - 1) / 2];
    double up_gbps = (double)nbytes / up / 1e9, down_gbps = (double)nbytes / down / 1e9;
    amp_array_view_destroy(&hv);
    free(host);

    /* image filters on a 3840x2160 RGBA8 texture (uint_4 texels, integer weights) */
    amp_texture *img = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(2160, 3840), .type = AMP_UINT_4,
                                                                 .bits_per_scalar_element = 8});
    amp_texture *out = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(2160, 3840), .type = AMP_UINT_4,
                                                                 .bits_per_scalar_element = 8});
    if (!img || !out) check(amp_last_status(), "amp_texture_create");
    amp_kernel *gauss = amp_kernel_create(v, &(amp_kernel_desc){
        .rank = 2, .params = "texture_view<const uint_4, 2> src, writeonly_texture_view<uint_4, 2> dst",
        .body = "const int w[5] = int[5](1, 4, 6, 4, 1);\n"
                "ivec2 last = src_extent - 1;\n"
                "uvec4 sum = uvec4(0);\n"
                "for (int y = -2; y <= 2; y++)\n"
                "    for (int x = -2; x <= 2; x++)\n"
                "        sum += uint(w[y + 2] * w[x + 2]) * src(clamp(idx + ivec2(y, x), ivec2(0), last));\n"
                "dst_set(idx, (sum + 128u) / 256u);\n"});
    amp_kernel *sobel = amp_kernel_create(v, &(amp_kernel_desc){
        .rank = 2, .params = "texture_view<const uint_4, 2> src, writeonly_texture_view<uint_4, 2> dst",
        .body = "ivec2 last = src_extent - 1;\n"
                "ivec4 gx = ivec4(0), gy = ivec4(0);\n"
                "for (int y = -1; y <= 1; y++)\n"
                "    for (int x = -1; x <= 1; x++) {\n"
                "        ivec4 p = ivec4(src(clamp(idx + ivec2(y, x), ivec2(0), last)));\n"
                "        int wy = y == 0 ? 2 : 1, wx = x == 0 ? 2 : 1;\n"
                "        gx += x * wy * p;\n"
                "        gy += y * wx * p;\n"
                "    }\n"
                "dst_set(idx, uvec4(min(abs(gx) + abs(gy), ivec4(255))));\n"});
    if (!gauss || !sobel) check(amp_last_status(), "image kernels");
    amp_texture_view *src_view = amp_texture_view_create(img, NULL);
    amp_texture_view *dst_view = amp_texture_view_create(out, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE});
    amp_kernel *filters[2] = {gauss, sobel};
    double filter_ms[2];
    for (int f = 0; f < 2; f++) {
        check(amp_parallel_for_each(v, amp_extent2(2160, 3840), filters[f],
                                    AMP_ARGS(AMP_TEXTURE_VIEW("src", src_view), AMP_TEXTURE_VIEW("dst", dst_view))),
              "filter");
        check(amp_view_wait(v), "wait");
        const int freps = 50;
        t0 = now();
        for (int r = 0; r < freps; r++)
            check(amp_parallel_for_each(v, amp_extent2(2160, 3840), filters[f],
                                        AMP_ARGS(AMP_TEXTURE_VIEW("src", src_view), AMP_TEXTURE_VIEW("dst", dst_view))),
                  "filter");
        check(amp_view_wait(v), "wait");
        filter_ms[f] = (now() - t0) / freps * 1e3;
    }
    amp_texture_view_destroy(&src_view);
    amp_texture_view_destroy(&dst_view);
    amp_kernel_destroy(&gauss);
    amp_kernel_destroy(&sobel);
    amp_texture_destroy(&img);
    amp_texture_destroy(&out);

    /* first kernel in a new process: cold (no cache) and warm (disk cache) */
    char dir[] = "/tmp/ampvk-bench-XXXXXX", env[256];
    double cold = -1, warm = -1;
    if (mkdtemp(dir)) {
        snprintf(env, sizeof env, "XDG_CACHE_HOME='%s'", dir);
        cold = child_ms(argv[0], env);
        warm = child_ms(argv[0], env);
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    }

    printf("%-40s %12s\n", "measure", "value");
    printf("%-40s %9.1f GB/s\n", "copy kernel (read+write)", copy_gbps);
    printf("%-40s %9.1f GB/s\n", "saxpy kernel (2 reads + write)", saxpy_gbps);
    printf("%-40s %9.2f us  (%d submits, %.2f us to record)\n", "batched dependent dispatch", chain_us,
           chain_submits, record_us);
    printf("%-40s %9.1f us\n", "dispatch + wait round trip", trip_us);
    printf("%-40s %9.3f ms\n", "gaussian 5x5, 3840x2160 RGBA8 texture", filter_ms[0]);
    printf("%-40s %9.3f ms\n", "sobel 3x3, 3840x2160 RGBA8 texture", filter_ms[1]);
    printf("%-40s %9.2f ms\n", "first kernel, cold cache", cold);
    printf("%-40s %9.2f ms\n", "first kernel, warm disk cache", warm);
    printf("%-40s %9.1f GB/s\n", "array_view synchronize to device", up_gbps);
    printf("%-40s %9.1f GB/s\n", "array_view synchronize from device", down_gbps);
    printf("%-40s %9.1f / %.1f GB/s\n", "first transfer (pins memory) to / from", first_up_gbps, first_down_gbps);
    printf("{\"device\": \"%s\", \"size_mb\": %zu, \"copy_GBps\": %.2f, \"saxpy_GBps\": %.2f, "
           "\"batched_dispatch_us\": %.3f, \"dispatch_record_us\": %.3f, \"roundtrip_us\": %.2f, "
           "\"kernel_cold_ms\": %.2f, \"kernel_warm_ms\": %.3f, \"h2d_GBps\": %.2f, \"d2h_GBps\": %.2f, "
           "\"h2d_first_GBps\": %.2f, \"d2h_first_GBps\": %.2f, "
           "\"gauss5x5_rgba8_ms\": %.4f, \"sobel_rgba8_ms\": %.4f, \"validation_messages\": %llu}\n",
           info.description, mb, copy_gbps, saxpy_gbps, chain_us, record_us, trip_us, cold, warm, up_gbps,
           down_gbps, first_up_gbps, first_down_gbps, filter_ms[0], filter_ms[1], (unsigned long long)amp_validation_message_count());
    amp_kernel_destroy(&fill);
    amp_kernel_destroy(&copy);
    amp_kernel_destroy(&saxpy);
    amp_kernel_destroy(&inc);
    amp_kernel_destroy(&touch);
    amp_array_destroy(&a);
    amp_array_destroy(&b);
    amp_array_destroy(&small);
    return 0;
}
