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

/* What the filter benchmark runs: the filters of filter.h on a 4K RGBA8 image
 * (equalize on its gray version), as the ampvk tool writes them. */
static const char *const filter_specs[] = {
    "gaussian:radius=2", "gaussian:sigma=5", "box:radius=2", "median:radius=2", "sobel",
    "sharpen:amount=1,sigma=1", "bilateral:diameter=9,sigma_color=50,sigma_space=5", "erode:radius=2",
    "dilate:radius=2", "grayscale", "sepia", "invert", "gamma:gamma=2.2", "brightness_contrast:contrast=1.2",
    "threshold:threshold=0.5", "srgb_to_linear", "resize:width=1920,height=1080",
    "resize:width=1920,height=1080,interpolation=area", "resize:width=1920,height=1080,interpolation=cubic",
    "resize:width=1920,height=1080,interpolation=lanczos4", "equalize", "gaussian:radius=2 grayscale invert"};

/* Seconds per call of fn(ctx), recorded back to back and waited for at the end,
 * over enough calls for about half a second (at least 2, at most 50). */
static double per_call(amp_accelerator_view *v, amp_status (*fn)(void *), void *ctx)
{
    check(fn(ctx), "warm-up");
    check(amp_view_wait(v), "wait");
    double t0 = now();
    check(fn(ctx), "first");
    check(amp_view_wait(v), "wait");
    double one = now() - t0;
    int reps = one > 0 ? (int)(0.5 / one) : 50;
    reps = reps < 2 ? 2 : reps > 50 ? 50 : reps;
    t0 = now();
    for (int r = 0; r < reps; r++) check(fn(ctx), "run");
    check(amp_view_wait(v), "wait");
    return (now() - t0) / reps;
}

typedef struct filter_run {
    amp_image_filter f[4];
    int n;
    amp_texture *src, *dst;
} filter_run;
static amp_status run_filter(void *ctx)
{
    filter_run *r = ctx;
    return amp_image_filter_chain(r->f, r->n, r->src, r->dst);
}
static amp_status run_copy(void *ctx)
{
    filter_run *r = ctx;
    return amp_texture_copy(r->src, NULL, r->dst, NULL);
}

static amp_texture *image_4k(amp_accelerator_view *v, int comps, amp_extent e, bool fill)
{
    amp_texture_desc d = {.extent = e, .type = AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps), .bits_per_scalar_element = 8};
    size_t n = (size_t)e.dims[0] * (size_t)e.dims[1] * (size_t)comps;
    unsigned char *data = fill ? malloc(n) : NULL;
    for (size_t i = 0; data && i < n; i++) data[i] = (unsigned char)((i * 2654435761u) >> 24);
    d.data = data;
    d.data_size = data ? n : 0;
    amp_texture *t = amp_texture_create(v, &d);
    free(data);
    if (!t) check(amp_last_status(), "amp_texture_create");
    return t;
}

/* Prints each built-in filter's time on the 4K image and its ratio to a device
 * copy of the image through the same path (the copy filter: one texel read, one
 * written); ms[0], ms[1]: gaussian 5x5 and sobel. */
static void bench_filters(amp_accelerator_view *v, double ms[2])
{
    amp_extent e = amp_extent2(2160, 3840);
    filter_run copy = {.src = image_4k(v, 4, e, true), .dst = image_4k(v, 4, e, false)};
    double image_copy_s = per_call(v, run_copy, &copy);
    copy.f[0] = (amp_image_filter){.op = AMP_IMAGE_COPY};
    copy.n = 1;
    double copy_s = per_call(v, run_filter, &copy); /* texel in, texel out: the filters' floor */
    printf("%-58s %9.3f ms\n", "amp_texture_copy (vkCmdCopyImage), 3840x2160 RGBA8", image_copy_s * 1e3);
    printf("%-58s %9.3f ms  %6.2fx copy\n", "copy filter (the ratios' copy)", copy_s * 1e3, 1.0);
    printf("{\"filter\": \"amp_texture_copy\", \"ms\": %.4f}\n", image_copy_s * 1e3);
    printf("{\"filter\": \"copy\", \"ms\": %.4f}\n", copy_s * 1e3);
    for (size_t i = 0; i < sizeof filter_specs / sizeof *filter_specs; i++) {
        filter_run r = {0};
        char spec[160];
        snprintf(spec, sizeof spec, "%s", filter_specs[i]);
        for (char *tok = strtok(spec, " "); tok && r.n < 4; tok = strtok(NULL, " "))
            check(amp_image_filter_parse(tok, &r.f[r.n++]), "amp_image_filter_parse");
        int comps = strcmp(filter_specs[i], "equalize") == 0 ? 1 : 4;
        amp_extent out;
        check(amp_image_filter_output_extent(r.f, r.n, e, &out), "output extent");
        r.src = image_4k(v, comps, e, true);
        r.dst = image_4k(v, amp_image_filter_output_components(r.f, r.n, comps), out, false);
        double t = per_call(v, run_filter, &r);
        printf("%-58s %9.3f ms  %6.2fx copy\n", filter_specs[i], t * 1e3, t / copy_s);
        printf("{\"filter\": \"%s\", \"ms\": %.4f, \"x_copy\": %.3f}\n", filter_specs[i], t * 1e3, t / copy_s);
        if (i == 0) ms[0] = t * 1e3;
        if (i == 4) ms[1] = t * 1e3;
        amp_texture_destroy(&r.src);
        amp_texture_destroy(&r.dst);
    }
    amp_texture_destroy(&copy.src);
    amp_texture_destroy(&copy.dst);
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
    bool filters_only = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kernel-ready") == 0) return kernel_ready();
        if (strcmp(argv[i], "--filters") == 0) filters_only = true;
        if (strcmp(argv[i], "--size-mb") == 0 && i + 1 < argc) mb = (size_t)atol(argv[++i]);
    }
    amp_accelerator_view *v = amp_default_view();
    if (!v) check(amp_last_status(), "amp_default_view");
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    printf("ampvk-bench on %s (%s)\n", info.description, info.device_path);
    if (filters_only) { /* --filters: only the built-in filters */
        double ms[2];
        bench_filters(v, ms);
        return 0;
    }

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

    /* the built-in filters on a 3840x2160 RGBA8 texture, each beside a device copy of it */
    double filter_ms[2];
    bench_filters(v, filter_ms);

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
    printf("%-40s %9.3f ms\n", "gaussian 5x5 (built-in), 3840x2160 RGBA8", filter_ms[0]);
    printf("%-40s %9.3f ms\n", "sobel (built-in), 3840x2160 RGBA8", filter_ms[1]);
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
