/*
 * ampvk bench: what ampvk costs on an accelerator, and the host image codecs.
 *
 *     ampvk bench [--json] [--device SPEC] [--size-mb N] [--filters] [--only SECTIONS]
 *                 [--filter CHAIN]... [--explain CHAIN]... [--image FILE.png] [--quick]
 *
 * Sections (--only takes a comma-separated list of their names, or all: every one but
 * image; by default every section but image, or with --image only image):
 *   bandwidth  copy / saxpy kernels over N MiB        GB/s counted as bytes read + written
 *   dispatch   batched dependent dispatch             us per dispatch, one submit for all
 *              dispatch + wait round trip             us per parallel_for_each followed by a wait
 *   transfers  array_view synchronize to / from       GB/s, steady state and the first (pinning) one
 *   filters    every built-in filter on 3840x2160 RGBA8 (equalize on its gray version; a gray
 *              result into one component, as OpenCV writes it), in ms,
 *              beside the copy filter and a device copy (amp_texture_copy) of the same image
 *   kernel     the first kernel of a new process, cold (empty cache) and warm (disk cache):
 *              runs `<this program> bench --kernel-ready` as a child; and the first filter
 *              of a new process (the accelerator opened, a 256x256 RGBA8 gaussian 5x5 run
 *              and waited for) the same two ways: `bench --filter-ready`
 *   image      with --image FILE: amp_image_load and amp_image_save (in FILE's format where
 *              ampvk writes it, else PNG; default settings) of FILE on the host, and
 *              amp_texture_save of it as a texture on the accelerator
 *              (a GPU filters the PNG rows), median of 5 runs: ms, MB/s of raw pixels, bytes
 *   math       (only when named) throughput of exp, log, sin, pow and erf: precise_math in
 *              float and double, fast_math in float, in G results/s over 4M elements x 256
 *              evaluations each (device time from the view's profile); the same loop as
 *              scripts/bench_math_cuda.cu, which runs CUDA's functions for comparison
 * --filter CHAIN (repeatable) times those chains (filters as `ampvk filter` takes them,
 * separated by spaces) instead of the built-in list, and implies --filters. --explain CHAIN
 * (repeatable) prints instead how the filters section's image would run each chain: for
 * each pass the planner's rule (docs/filters.md), and each dispatch's module, mode and
 * work groups (amp_image_filter_explain); it times nothing. --filters is
 * --only filters; --image adds its section to --only's or --filters'. --quick
 * (for tests) makes everything small: a 960x540 image and few repetitions. The table goes
 * to stdout; with --json one JSON object goes to stdout and the table to stderr.
 * Exit codes: 0, 1 on any error, 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

extern char **environ;

static const char bench_help[] =
    "usage: ampvk bench [--json] [--device SPEC] [--size-mb N] [--filters] [--only SECTIONS]\n"
    "                   [--filter CHAIN]... [--explain CHAIN]... [--image FILE.png] [--quick]\n"
    "\n"
    "Times what ampvk costs on an accelerator, section by section (by default every\n"
    "section but image; with --image, only image):\n"
    "  bandwidth  copy and saxpy kernels over N MiB (GB/s, bytes read + written)\n"
    "  dispatch   batched dependent dispatches and dispatch + wait round trips (us)\n"
    "  transfers  array_view synchronize to and from the device (GB/s)\n"
    "  filters    every built-in filter on a 3840x2160 RGBA8 image (ms), beside the copy\n"
    "             filter and a device copy (amp_texture_copy) of the same image\n"
    "  kernel     the first kernel and the first filter (the accelerator opened, a 256x256\n"
    "             gaussian 5x5 done) of a new process, cold and with a warm disk cache (ms)\n"
    "  image      amp_image_load and amp_image_save (in its own format, else PNG; default\n"
    "             settings) of --image's file on the host, and amp_texture_save of it as a texture on the\n"
    "             accelerator: median of 5 runs, ms, MB/s of raw pixels, bytes written\n"
    "  math       (only when named) exp, log, sin, pow, erf: precise_math float and double,\n"
    "             fast_math float, in G results/s (device time)\n"
    "\n"
    "options:\n"
    "  --json            print one JSON object on stdout (the table goes to stderr)\n"
    "  --device SPEC     the accelerator: an index, a device path or a name substring\n"
    "  --size-mb N       MiB for the bandwidth and transfer sections (default 1024)\n"
    "  --filters         the filters section (as --only filters)\n"
    "  --filter CHAIN    time this chain in the filters section instead of the built-in\n"
    "                    list (repeatable; filters as ampvk filter takes them, separated by\n"
    "                    spaces, e.g. 'gaussian:sigma=2 invert'); implies --filters\n"
    "  --explain CHAIN   print how the filters section's image would run this chain\n"
    "                    (repeatable): each pass's planner rule, module, mode and work\n"
    "                    groups (docs/filters.md); times nothing\n"
    "  --only SECTIONS   only these sections, comma-separated (bandwidth,dispatch,...), or\n"
    "                    all: every one but image\n"
    "  --image FILE.png  time FILE's load and save (any format ampvk reads): the image\n"
    "                    section, alone or added to --only's or --filters'\n"
    "  --quick           a small run for tests: a 960x540 image, few repetitions\n"
    "  --kernel-ready    (internal) time this process's first kernel: prints MS FROM_CACHE\n"
    "  --filter-ready    (internal) time this process's accelerator and first filter: prints MS 0\n"
    "  -h, --help        print this help\n"
    "\n"
    "Exit status: 0; 1 on an error; 2 for a usage error.\n";

enum {
    SEC_BANDWIDTH = 1,
    SEC_DISPATCH = 2,
    SEC_TRANSFERS = 4,
    SEC_FILTERS = 8,
    SEC_KERNEL = 16,
    SEC_IMAGE = 32,
    SEC_MATH = 64,
    SEC_DEVICE = SEC_BANDWIDTH | SEC_DISPATCH | SEC_TRANSFERS | SEC_FILTERS | SEC_KERNEL
};
static const struct {
    const char *name;
    unsigned bit;
} sections[] = {{"bandwidth", SEC_BANDWIDTH}, {"dispatch", SEC_DISPATCH}, {"transfers", SEC_TRANSFERS},
                {"filters", SEC_FILTERS},     {"kernel", SEC_KERNEL},     {"image", SEC_IMAGE},
                {"math", SEC_MATH}};

/* The math section: each function's argument range and the kernels' variants. The
 * loop (K evaluations per element, the argument stepping by a small amount) is the
 * one of scripts/bench_math_cuda.cu. */
static const struct {
    const char *name;
    double lo, hi; /* where the arguments lie */
    /* the host's libm in double and float: one argument, or two (the second stepping
     * from -4 to 4 over the loop) */
    double (*d1)(double);
    float (*f1)(float);
    double (*d2)(double, double);
    float (*f2)(float, float);
} math_fns[] = {{"exp", -10, 10, .d1 = exp, .f1 = expf},   {"log", 0.1, 100, .d1 = log, .f1 = logf},
                {"sin", -100, 100, .d1 = sin, .f1 = sinf}, {"pow", 0.5, 2, .d2 = pow, .f2 = powf},
                {"erf", -3, 3, .d1 = erf, .f1 = erff}};
static const struct {
    const char *label, *type, *prefix;
} math_variants[] = {{"precise float", "float", "precise_math_"},
                     {"precise double", "double", "precise_math_"},
                     {"fast float", "float", "fast_math_"}};
enum { MATH_FNS = 5, MATH_VARIANTS = 3, MATH_K = 256 };

/* What the filter section runs: the filters of filter.h on the 4K RGBA8 image
 * (equalize on its gray version), as the ampvk tool writes them; every op appears. */
static const char *const filter_specs[] = {
    "gaussian:radius=2", "gaussian:sigma=5", "box:radius=2", "median:radius=2", "sobel",
    "sharpen:amount=1,sigma=1", "bilateral:diameter=9,sigma_color=50,sigma_space=5", "erode:radius=2",
    "dilate:radius=2", "grayscale", "sepia", "invert", "gamma:gamma=2.2", "brightness_contrast:contrast=1.2",
    "threshold:threshold=0.5", "srgb_to_linear", "linear_to_srgb", "resize:width=1920,height=1080",
    "resize:width=1920,height=1080,interpolation=nearest", "resize:width=1920,height=1080,interpolation=area",
    "resize:width=1920,height=1080,interpolation=cubic", "resize:width=1920,height=1080,interpolation=lanczos4",
    "equalize", "tonemap:curve=aces", "gaussian:radius=2 grayscale invert"};
enum { FILTER_COUNT = sizeof filter_specs / sizeof *filter_specs, IMAGE_RUNS = 5, MAX_FILTER_ARGS = 64 };

/* The options and every figure measured; a figure is valid when its section ran. */
typedef struct bench {
    FILE *out;          /* the table: stdout, or stderr with --json */
    bool started;       /* something is in the table: the next section starts with a blank line */
    unsigned sections;  /* SEC_* that run */
    bool quick;
    size_t mb;
    const char *device; /* --device SPEC, passed on to the kernel-ready child */
    const char *image;  /* --image FILE */
    amp_accelerator_view *view;
    amp_accelerator_info info;

    double copy_gbps, saxpy_gbps;
    int chain, chain_submits, trips;
    double chain_us, record_us, trip_us;
    double up_gbps, down_gbps, first_up_gbps, first_down_gbps;
    /* a new view over registered memory (amp_host_register; 0: not possible), and the
       registration itself */
    double reg_up_gbps, reg_down_gbps, register_gbps;
    double tex_up_ms[2], tex_down_ms[2]; /* a 4K RGBA8 texture from / to host memory: pageable, registered */
    int filter_width, filter_height;
    const char *const *specs; /* the chains the filters section times: filter_specs or --filter's */
    int spec_count;
    bool explain; /* --explain: the chains' plans, not their times */
    double device_copy_ms, copy_filter_ms, filter_ms[FILTER_COUNT > MAX_FILTER_ARGS ? FILTER_COUNT : MAX_FILTER_ARGS];
    double cold_ms, warm_ms;
    double filter_cold_ms, filter_warm_ms; /* the first filter of a new process */
    double math_gps[MATH_FNS][MATH_VARIANTS]; /* G results/s; NAN: not run (no such function, no double) */
    int cold_cached, warm_cached;
    struct {
        int width, height, channels, bits;
        const char *format;
        size_t raw_bytes, output_bytes, texture_bytes;
        double load_ms, save_ms, texture_save_ms;
    } img;
} bench;

/* When s is not AMP_OK: prints "ampvk bench: WHAT: <the library's error>" and returns true. */
static bool failed(amp_status s, const char *what)
{
    if (s == AMP_OK) return false;
    tool_error("bench", "%s: %s", what, amp_last_error());
    return true;
}

/* Starts a section of the table: a blank line unless it is the first thing printed. */
static void section_gap(bench *b)
{
    if (b->started) fputc('\n', b->out);
    b->started = true;
}

/* qsort's comparison of doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (sorts them). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Makes a kernel on b's view into *k; 0, or 1 with the error printed. */
static int make_kernel(const bench *b, const char *params, const char *body, amp_kernel **k)
{
    *k = amp_kernel_create(b->view, &(amp_kernel_desc){.params = params, .body = body});
    return *k ? 0 : failed(amp_last_status(), "amp_kernel_create");
}

/* Makes a 1-D array of n elements of type on b's view into *a; 0, or 1 with the error printed. */
static int make_array(const bench *b, size_t n, amp_type type, amp_array **a)
{
    *a = amp_array_create(b->view, &(amp_array_desc){.extent = amp_extent1((int)n), .type = type});
    return *a ? 0 : failed(amp_last_status(), "amp_array_create");
}

/* Seconds per call of fn(ctx) into *seconds, recorded back to back and waited for at
 * the end, over enough calls for about half a second (at least 2, at most 50; --quick:
 * a twentieth of a second, at most 5). 0, or 1 with the error printed (naming what). */
static int per_call(const bench *b, amp_status (*fn)(void *), void *ctx, const char *what, double *seconds)
{
    amp_accelerator_view *v = b->view;
    if (failed(fn(ctx), what) || failed(amp_view_wait(v), what)) return 1; /* warm-up */
    double t0 = tool_now();
    if (failed(fn(ctx), what) || failed(amp_view_wait(v), what)) return 1;
    double one = tool_now() - t0, target = b->quick ? 0.05 : 0.5;
    int most = b->quick ? 5 : 50;
    int reps = one > 0 && target / one < most ? (int)(target / one) : most;
    reps = reps < 2 ? 2 : reps;
    t0 = tool_now();
    for (int r = 0; r < reps; r++)
        if (failed(fn(ctx), what)) return 1;
    if (failed(amp_view_wait(v), what)) return 1;
    *seconds = (tool_now() - t0) / reps;
    return 0;
}

/* copy and saxpy kernels over b->mb MiB of floats, as float_4 for full-width loads. */
static int bench_bandwidth(bench *b)
{
    int rc = 1;
    amp_accelerator_view *v = b->view;
    size_t n4 = b->mb * 1024 * 1024 / 16;
    amp_extent e = amp_extent1((int)n4);
    amp_array *x = NULL, *y = NULL;
    amp_kernel *fill = NULL, *copy = NULL, *saxpy = NULL;
    if (make_array(b, n4, AMP_FLOAT_4, &x) || make_array(b, n4, AMP_FLOAT_4, &y) ||
        make_kernel(b, "array<vec4, 1> a", "a(idx) = vec4(float(idx));", &fill) ||
        make_kernel(b, "array<const vec4, 1> a, array<vec4, 1> b", "b(idx) = a(idx);", &copy) ||
        make_kernel(b, "array<const vec4, 1> x, array<vec4, 1> y, float s", "y(idx) = s * x(idx) + y(idx);", &saxpy))
        goto done;
    if (failed(amp_parallel_for_each(v, e, fill, AMP_ARGS(AMP_ARRAY("a", x))), "fill") ||
        failed(amp_parallel_for_each(v, e, fill, AMP_ARGS(AMP_ARRAY("a", y))), "fill") ||
        failed(amp_view_wait(v), "fill"))
        goto done;
    int reps = b->quick ? 2 : b->mb >= 512 ? 20 : 5;
    double t0 = tool_now();
    for (int r = 0; r < reps; r++)
        if (failed(amp_parallel_for_each(v, e, copy, AMP_ARGS(AMP_ARRAY("a", x), AMP_ARRAY("b", y))), "copy"))
            goto done;
    if (failed(amp_view_wait(v), "copy")) goto done;
    b->copy_gbps = 2.0 * (double)n4 * 16 * reps / (tool_now() - t0) / 1e9;
    t0 = tool_now();
    for (int r = 0; r < reps; r++)
        if (failed(amp_parallel_for_each(v, e, saxpy,
                                         AMP_ARGS(AMP_ARRAY("x", x), AMP_ARRAY("y", y), AMP_FLOAT("s", 0.5f))),
                   "saxpy"))
            goto done;
    if (failed(amp_view_wait(v), "saxpy")) goto done;
    b->saxpy_gbps = 3.0 * (double)n4 * 16 * reps / (tool_now() - t0) / 1e9;
    fprintf(b->out, "%-54s %10.1f GB/s\n", "copy kernel (read + write)", b->copy_gbps);
    fprintf(b->out, "%-54s %10.1f GB/s\n", "saxpy kernel (2 reads + write)", b->saxpy_gbps);
    rc = 0;
done:
    amp_kernel_destroy(&fill);
    amp_kernel_destroy(&copy);
    amp_kernel_destroy(&saxpy);
    amp_array_destroy(&x);
    amp_array_destroy(&y);
    return rc;
}

/* Dependent dispatches in one batch (each reads what the previous wrote), then
 * dispatches each followed by a wait. */
static int bench_dispatch(bench *b)
{
    int rc = 1;
    amp_accelerator_view *v = b->view;
    amp_array *small = NULL;
    amp_kernel *inc = NULL;
    if (make_array(b, 256, AMP_FLOAT, &small) || make_kernel(b, "array<float, 1> a", "a(idx) += 1.0;", &inc))
        goto done;
    const amp_extent e = amp_extent1(256);
    if (failed(amp_parallel_for_each(v, e, inc, AMP_ARGS(AMP_ARRAY("a", small))), "warm-up") ||
        failed(amp_view_wait(v), "warm-up"))
        goto done;
    b->chain = b->quick ? 200 : 2000;
    amp_view_stats s0, s1;
    if (failed(amp_view_get_stats(v, &s0), "amp_view_get_stats")) goto done;
    double t0 = tool_now();
    for (int r = 0; r < b->chain; r++)
        if (failed(amp_parallel_for_each(v, e, inc, AMP_ARGS(AMP_ARRAY("a", small))), "batched dispatch")) goto done;
    b->record_us = (tool_now() - t0) / b->chain * 1e6;
    if (failed(amp_view_wait(v), "batched dispatch")) goto done;
    b->chain_us = (tool_now() - t0) / b->chain * 1e6;
    if (failed(amp_view_get_stats(v, &s1), "amp_view_get_stats")) goto done;
    b->chain_submits = (int)(s1.submits - s0.submits);

    b->trips = b->quick ? 50 : 500;
    t0 = tool_now();
    for (int r = 0; r < b->trips; r++)
        if (failed(amp_parallel_for_each(v, e, inc, AMP_ARGS(AMP_ARRAY("a", small))), "round trip") ||
            failed(amp_view_wait(v), "round trip"))
            goto done;
    b->trip_us = (tool_now() - t0) / b->trips * 1e6;
    fprintf(b->out, "%-54s %10.2f us  (%d submits, %.2f us to record)\n", "batched dependent dispatch", b->chain_us,
            b->chain_submits, b->record_us);
    fprintf(b->out, "%-54s %10.1f us\n", "dispatch + wait round trip", b->trip_us);
    rc = 0;
done:
    amp_kernel_destroy(&inc);
    amp_array_destroy(&small);
    return rc;
}

/* A 3840x2160 RGBA8 texture's copies from and to host memory (the median of 5 after a
 * first of each), pageable and then registered (amp_host_register): ms each way into
 * up[2], down[2]; registered 0 where not possible. */
static int bench_texture_transfers(bench *b, double up[2], double down[2])
{
    enum { W = 3840, H = 2160, REPS = 5 };
    size_t bytes = (size_t)W * H * 4;
    amp_accelerator_view *v = b->view;
    uint8_t *host = malloc(2 * bytes);
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UNORM_4,
                                                                .bits_per_scalar_element = 8});
    int rc = host && t ? 0 : failed(host ? amp_last_status() : AMP_ERROR_OUT_OF_MEMORY, "texture transfers");
    if (host) memset(host, 7, 2 * bytes);
    up[1] = down[1] = 0;
    for (int registered = 0; !rc && registered < 2; registered++) {
        if (registered && amp_host_register(amp_view_accelerator(v), host, 2 * bytes) != AMP_OK) break;
        double u[REPS + 1], d[REPS + 1];
        for (int r = 0; !rc && r <= REPS; r++) {
            double t0 = tool_now();
            rc = failed(amp_texture_copy_from_host(t, NULL, host, bytes), "amp_texture_copy_from_host") ||
                 failed(amp_view_wait(v), "amp_texture_copy_from_host");
            u[r] = tool_now() - t0;
            t0 = tool_now();
            rc = rc || failed(amp_texture_copy_to_host(t, NULL, host + bytes, bytes), "amp_texture_copy_to_host");
            d[r] = tool_now() - t0;
        }
        up[registered] = median(u + 1, REPS) * 1e3;
        down[registered] = median(d + 1, REPS) * 1e3;
        if (registered && amp_host_unregister(amp_view_accelerator(v), host) != AMP_OK && !rc)
            rc = failed(amp_last_status(), "amp_host_unregister");
    }
    amp_texture_destroy(&t);
    free(host);
    return rc;
}

/* array_view synchronize to and from the device of b->mb MiB. The first transfer
 * also pins the host memory (imported once per view): reported apart from the
 * steady state (the median of the rest). */
static int bench_transfers(bench *b)
{
    enum { SYNC_REPS = 5 };
    int rc = 1;
    amp_accelerator_view *v = b->view;
    size_t nbytes = b->mb * 1024 * 1024;
    amp_array_view *hv = NULL;
    amp_kernel *touch = NULL;
    float *host = malloc(nbytes);
    if (!host) return tool_error("bench", "out of host memory for %zu MiB", b->mb);
    for (size_t i = 0; i < nbytes / 4; i++) host[i] = (float)(i & 1023);
    hv = amp_array_view_create(amp_extent1((int)(nbytes / 16)), AMP_FLOAT_4, 0, host);
    if (!hv) {
        failed(amp_last_status(), "amp_array_view_create");
        goto done;
    }
    if (make_kernel(b, "array_view<vec4, 1> a", "if (idx == 0) a(idx) += vec4(1.0);", &touch)) goto done;
    double ups[SYNC_REPS], downs[SYNC_REPS];
    for (int r = 0; r < SYNC_REPS; r++) {
        if (failed(amp_array_view_refresh(hv), "amp_array_view_refresh")) goto done;
        double t0 = tool_now();
        if (failed(amp_array_view_synchronize_to(hv, v), "synchronize to device") ||
            failed(amp_view_wait(v), "synchronize to device"))
            goto done;
        ups[r] = tool_now() - t0;
        if (failed(amp_parallel_for_each(v, amp_extent1(1), touch, AMP_ARGS(AMP_VIEW("a", hv))), "touch") ||
            failed(amp_view_wait(v), "touch"))
            goto done;
        t0 = tool_now();
        if (failed(amp_array_view_synchronize(hv), "synchronize from device")) goto done;
        downs[r] = tool_now() - t0;
    }
    b->first_up_gbps = (double)nbytes / ups[0] / 1e9;
    b->first_down_gbps = (double)nbytes / downs[0] / 1e9;
    b->up_gbps = (double)nbytes / median(ups + 1, SYNC_REPS - 1) / 1e9;
    b->down_gbps = (double)nbytes / median(downs + 1, SYNC_REPS - 1) / 1e9;
    fprintf(b->out, "%-54s %10.1f GB/s\n", "array_view synchronize to device", b->up_gbps);
    fprintf(b->out, "%-54s %10.1f GB/s\n", "array_view synchronize from device", b->down_gbps);
    fprintf(b->out, "%-54s %10.1f / %.1f GB/s\n", "first transfer (pins memory) to / from", b->first_up_gbps,
            b->first_down_gbps);
    /* the same memory registered once: a new view's first transfers no longer pin it */
    amp_array_view_destroy(&hv);
    amp_accelerator *acc = amp_view_accelerator(v);
    double t0 = tool_now();
    if (amp_host_register(acc, host, nbytes) != AMP_OK) {
        fprintf(b->out, "%-54s %10s\n", "registered memory (amp_host_register)", "n/a");
        rc = 0;
        goto textures;
    }
    b->register_gbps = (double)nbytes / (tool_now() - t0) / 1e9;
    for (size_t i = 0; i < nbytes / 4; i++) host[i] = (float)(i & 511);
    hv = amp_array_view_create(amp_extent1((int)(nbytes / 16)), AMP_FLOAT_4, 0, host);
    if (!hv) {
        failed(amp_last_status(), "amp_array_view_create");
        goto unregister;
    }
    t0 = tool_now();
    if (failed(amp_array_view_synchronize_to(hv, v), "synchronize to device") ||
        failed(amp_view_wait(v), "synchronize to device"))
        goto unregister;
    b->reg_up_gbps = (double)nbytes / (tool_now() - t0) / 1e9;
    if (failed(amp_parallel_for_each(v, amp_extent1(1), touch, AMP_ARGS(AMP_VIEW("a", hv))), "touch") ||
        failed(amp_view_wait(v), "touch"))
        goto unregister;
    t0 = tool_now();
    if (failed(amp_array_view_synchronize(hv), "synchronize from device")) goto unregister;
    b->reg_down_gbps = (double)nbytes / (tool_now() - t0) / 1e9;
    fprintf(b->out, "%-54s %10.1f GB/s\n", "amp_host_register (pins memory once)", b->register_gbps);
    fprintf(b->out, "%-54s %10.1f / %.1f GB/s\n", "first transfer of registered memory to / from", b->reg_up_gbps,
            b->reg_down_gbps);
    rc = 0;
unregister:
    amp_array_view_destroy(&hv);
    if (amp_host_unregister(acc, host) != AMP_OK && rc == 0) rc = failed(amp_last_status(), "amp_host_unregister");
textures: /* (whether or not the device registers memory) */
    if (rc == 0 && bench_texture_transfers(b, b->tex_up_ms, b->tex_down_ms)) rc = 1;
    else if (rc == 0) {
        fprintf(b->out, "%-54s %10.3f / %.3f ms\n", "4K RGBA8 texture from / to host memory", b->tex_up_ms[0],
                b->tex_down_ms[0]);
        if (b->tex_up_ms[1] > 0)
            fprintf(b->out, "%-54s %10.3f / %.3f ms\n", "4K RGBA8 texture from / to registered memory",
                    b->tex_up_ms[1], b->tex_down_ms[1]);
    }
done:
    amp_kernel_destroy(&touch);
    amp_array_view_destroy(&hv); /* before the memory it wraps */
    free(host);
    return rc;
}

/* A filter chain and its textures, for per_call. */
typedef struct filter_run {
    amp_image_filter f[16];
    int n;
    amp_texture *src, *dst;
} filter_run;

/* Runs the chain once. */
static amp_status run_filter(void *ctx)
{
    filter_run *r = ctx;
    return amp_image_filter_chain(r->f, r->n, r->src, r->dst);
}

/* Parses a chain (filters separated by spaces, as `ampvk filter` takes them) into r;
 * false with the reason in why. */
static bool parse_chain(const char *chain, filter_run *r, char *why, size_t size)
{
    r->n = 0;
    if (amp_image_filter_parse_chain(chain, r->f, (int)(sizeof r->f / sizeof *r->f), &r->n) != AMP_OK) {
        snprintf(why, size, "--filter: %s", amp_last_error());
        return false;
    }
    return true;
}

/* Copies src to dst on the device (vkCmdCopyImage). */
static amp_status run_copy(void *ctx)
{
    filter_run *r = ctx;
    return amp_texture_copy(r->src, NULL, r->dst, NULL);
}

/* Makes a 2-D unorm8 texture of comps components into *t, filled with a hash
 * pattern when fill; 0, or 1 with the error printed. */
static int make_image(const bench *b, int comps, amp_extent e, bool fill, amp_texture **t)
{
    amp_texture_desc d = {.extent = e, .type = AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps), .bits_per_scalar_element = 8};
    size_t n = (size_t)e.dims[0] * (size_t)e.dims[1] * (size_t)comps;
    unsigned char *data = NULL;
    if (fill) {
        data = malloc(n);
        if (!data) return tool_error("bench", "out of host memory for a %dx%d image", e.dims[1], e.dims[0]);
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)((i * 2654435761u) >> 24);
        d.data = data;
        d.data_size = n;
    }
    *t = amp_texture_create(b->view, &d);
    free(data);
    return *t ? 0 : failed(amp_last_status(), "amp_texture_create");
}

/* Every built-in filter on the 4K image (--quick: 960x540), with its ratio to the copy
 * filter (one texel read, one written: the filters' floor) and to a device copy. */
/* Parses chain i of the filters section into r and makes its source (RGBA8 of extent e, or
 * gray for equalize) and destination: 0, or 1 having printed the error. */
static int filter_images(bench *b, int i, amp_extent e, filter_run *r)
{
    char why[512];
    if (!parse_chain(b->specs[i], r, why, sizeof why)) {
        tool_error("bench", "%s", why);
        return 1;
    }
    int comps = strncmp(b->specs[i], "equalize", 8) == 0 ? 1 : 4;
    amp_extent out;
    if (failed(amp_image_filter_output_extent(r->f, r->n, e, &out), b->specs[i])) return 1;
    /* a gray result of an RGBA source into one component, as OpenCV's COLOR_RGBA2GRAY
       writes it, so that the peers do the same work (the filters keep alpha where the
       destination has a second component: the tool's default for such a chain) */
    int dst_comps = amp_image_filter_output_components(r->f, r->n, comps);
    if (comps == 4 && dst_comps == 2) dst_comps = 1;
    return make_image(b, comps, e, true, &r->src) || make_image(b, dst_comps, out, false, &r->dst);
}

/* --explain: each chain's plan on the filters section's image. */
static int explain_filters(bench *b, amp_extent e)
{
    static char text[1 << 16];
    int rc = 0;
    for (int i = 0; i < b->spec_count && !rc; i++) {
        filter_run r = {0};
        rc = filter_images(b, i, e, &r) ||
             failed(amp_image_filter_explain(r.f, r.n, r.src, r.dst, text, sizeof text), b->specs[i]);
        if (!rc) fprintf(b->out, "\n%s on %dx%d:\n%s", b->specs[i], e.dims[1], e.dims[0], text);
        amp_texture_destroy(&r.src);
        amp_texture_destroy(&r.dst);
    }
    return rc;
}

static int bench_filters(bench *b)
{
    int rc = 1;
    b->filter_width = b->quick ? 960 : 3840;
    b->filter_height = b->quick ? 540 : 2160;
    amp_extent e = amp_extent2(b->filter_height, b->filter_width);
    if (b->explain) return explain_filters(b, e);
    filter_run copy = {0};
    double device_s, copy_s;
    if (make_image(b, 4, e, true, &copy.src) || make_image(b, 4, e, false, &copy.dst) ||
        per_call(b, run_copy, &copy, "amp_texture_copy", &device_s))
        goto done;
    copy.f[0] = (amp_image_filter){.op = AMP_IMAGE_COPY};
    copy.n = 1;
    if (per_call(b, run_filter, &copy, "copy filter", &copy_s)) goto done;
    b->device_copy_ms = device_s * 1e3;
    b->copy_filter_ms = copy_s * 1e3;
    char title[80];
    snprintf(title, sizeof title, "filter on %dx%d RGBA8", b->filter_width, b->filter_height);
    section_gap(b);
    fprintf(b->out, "%-54s %10s     %8s %12s\n", title, "time", "x copy", "x dev. copy");
    fprintf(b->out, "%-54s %10.3f ms  %8.2f %12.2f\n", "device copy (amp_texture_copy)", b->device_copy_ms,
            device_s / copy_s, 1.0);
    fprintf(b->out, "%-54s %10.3f ms  %8.2f %12.2f\n", "copy filter", b->copy_filter_ms, 1.0, copy_s / device_s);
    for (int i = 0; i < b->spec_count; i++) {
        filter_run r = {0};
        double s = 0;
        int err = filter_images(b, i, e, &r) || per_call(b, run_filter, &r, b->specs[i], &s);
        amp_texture_destroy(&r.src);
        amp_texture_destroy(&r.dst);
        if (err) goto done;
        b->filter_ms[i] = s * 1e3;
        fprintf(b->out, "%-54s %10.3f ms  %8.2f %12.2f\n", b->specs[i], s * 1e3, s / copy_s, s / device_s);
    }
    rc = 0;
done:
    amp_texture_destroy(&copy.src);
    amp_texture_destroy(&copy.dst);
    return rc;
}

/* The host's value of one element of a math kernel: the same loop in the same type
 * (float steps in float), with libm's function; *mag: the sum of the terms' magnitudes. */
static double math_expected(int f, bool dbl, double x0, double step, double *mag)
{
    double acc = 0, v = x0, w = -4;
    float accf = 0, vf = (float)x0, wf = -4;
    *mag = 0;
    for (int j = 0; j < MATH_K; j++) {
        double r;
        if (dbl) {
            r = math_fns[f].d2 ? math_fns[f].d2(v, w) : math_fns[f].d1(v);
            acc += r;
            v += step;
            w += 8.0 / MATH_K;
        } else {
            float rf = math_fns[f].f2 ? math_fns[f].f2(vf, wf) : math_fns[f].f1(vf);
            accf += rf;
            r = rf;
            vf += (float)step;
            wf += (float)(8.0 / MATH_K);
        }
        *mag += fabs(r);
    }
    return dbl ? acc : accf;
}

/* One math kernel: n elements, each MATH_K evaluations of the function from its own
 * start in [lo, hi], summed; device time from the view's profile, best of 3. The
 * results of 64 elements are checked against the host's libm (relative 1e-5 in float,
 * 1e-12 in double, 1e-2 for fast_math), so a kernel that computes too little fails. */
static int math_one(bench *b, int f, int var, size_t n, double *gps)
{
    const char *type = math_variants[var].type, *pre = math_variants[var].prefix, *fn = math_fns[f].name;
    char params[96], body[512], name[48], stepl[40];
    snprintf(name, sizeof name, "math %s %s", math_variants[var].label, fn);
    snprintf(params, sizeof params, "array_view<const %s, 1> x, array_view<%s, 1> y", type, type);
    double step = (math_fns[f].hi - math_fns[f].lo) / (4.0 * MATH_K);
    bool dbl = strcmp(type, "double") == 0;
    /* the step as the kernel's literal reads it: all of a double's digits, 'lf' */
    if (dbl) snprintf(stepl, sizeof stepl, "%.17glf", step);
    else snprintf(stepl, sizeof stepl, "%.9g", (float)step);
    /* pow: x^w with w stepping over [-4, 4]; the others step their argument */
    snprintf(body, sizeof body,
             "%s v = x(idx), acc = %s(0), w = %s(-4);\n"
             "for (int j = 0; j < %d; j++) {\n"
             "    acc += %s%s(v%s);\n"
             "    v += %s; w += %s(%.9g);\n"
             "}\n"
             "y(idx) = acc;",
             type, type, type, MATH_K, pre, fn, math_fns[f].d2 ? ", w" : "", stepl, type, 8.0 / MATH_K);
    *gps = NAN;
    if (strcmp(pre, "fast_math_") == 0 && strcmp(fn, "erf") == 0) return 0; /* fast_math has no erf */
    amp_kernel *k = amp_kernel_create(b->view, &(amp_kernel_desc){.name = name, .params = params, .body = body});
    if (!k) return failed(amp_last_status(), name);
    int rc = 1;
    amp_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
    size_t es = dbl ? 8 : 4;
    void *host = malloc(n * es), *out = malloc(n * es);
    amp_array_view *xv = NULL, *yv = NULL;
    if (!host || !out) goto done;
    for (size_t i = 0; i < n; i++) {
        double v = math_fns[f].lo + (math_fns[f].hi - math_fns[f].lo) * 0.75 * (double)i / (double)n;
        if (dbl) ((double *)host)[i] = v;
        else ((float *)host)[i] = (float)v;
    }
    xv = amp_array_view_create(amp_extent1((int)n), t, 0, host);
    yv = amp_array_view_create(amp_extent1((int)n), t, 0, out);
    if (!xv || !yv) goto done;
    amp_view_set_profiling(b->view, true);
    double best = INFINITY;
    for (int r = 0; r < 4; r++) {
        amp_profile_entry e[32];
        int count = 0;
        if (failed(amp_parallel_for_each(b->view, amp_extent1((int)n), k,
                                         AMP_ARGS(AMP_VIEW("x", xv), AMP_VIEW("y", yv))), name) ||
            failed(amp_view_wait(b->view), name) ||
            failed(amp_view_get_profile(b->view, e, 32, &count), "amp_view_get_profile"))
            goto done;
        for (int i = 0; i < count && i < 32; i++)
            if (strcmp(e[i].name, name) == 0 && r > 0 && e[i].min_ms < best) best = e[i].min_ms;
    }
    if (failed(amp_array_view_synchronize(yv), name)) goto done;
    double tol = strcmp(pre, "fast_math_") == 0 ? 1e-2 : dbl ? 1e-12 : 1e-5;
    for (size_t i = 0; i < n; i += n / 64) {
        double x0 = dbl ? ((double *)host)[i] : ((float *)host)[i], got = dbl ? ((double *)out)[i] : ((float *)out)[i];
        double mag, want = math_expected(f, dbl, x0, step, &mag);
        if (!(fabs(got - want) <= tol * mag)) {
            tool_error("bench", "%s: element %zu sums to %.17g, the host's libm to %.17g", name, i, got, want);
            goto done;
        }
    }
    *gps = (double)n * MATH_K / (best * 1e-3) / 1e9;
    rc = 0;
done:
    amp_view_set_profiling(b->view, false);
    amp_array_view_destroy(&xv);
    amp_array_view_destroy(&yv);
    amp_kernel_destroy(&k);
    free(host);
    free(out);
    return rc;
}

/* The math section: every function in every variant. */
static int bench_math(bench *b)
{
    size_t n = b->quick ? 4096 : (size_t)4 << 20;
    section_gap(b);
    fprintf(b->out, "%-10s %16s %16s %16s   G results/s, %zu x %d evaluations\n", "function", "precise float",
            "precise double", "fast float", n, MATH_K);
    for (int f = 0; f < MATH_FNS; f++) {
        fprintf(b->out, "%-10s", math_fns[f].name);
        for (int v = 0; v < MATH_VARIANTS; v++) {
            b->math_gps[f][v] = NAN;
            if (strcmp(math_variants[v].type, "double") == 0 && !b->info.supports_double_precision) continue;
            if (math_one(b, f, v, n, &b->math_gps[f][v])) return 1;
            if (isnan(b->math_gps[f][v])) fprintf(b->out, " %16s", "-");
            else fprintf(b->out, " %16.2f", b->math_gps[f][v]);
        }
        fputc('\n', b->out);
    }
    return 0;
}

/* Child mode (--kernel-ready): prints the milliseconds the first kernel of this
 * process took to be ready, and whether it came from the disk cache. */
static int kernel_ready(void)
{
    amp_accelerator_view *v = amp_default_view();
    if (!v) return failed(amp_last_status(), "amp_default_view");
    double t0 = tool_now();
    amp_kernel *k =
        amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<float, 1> a, float s",
                                                .body = "a(idx) = a(idx) * s + 1.0;"});
    double t1 = tool_now();
    if (!k) return failed(amp_last_status(), "amp_kernel_create");
    printf("%.3f %d\n", (t1 - t0) * 1e3, amp_kernel_from_cache(k));
    amp_kernel_destroy(&k);
    return 0;
}

/* Child mode (--filter-ready): prints the milliseconds from here (the process started)
 * until the default accelerator is open and a first filter, a gaussian 5x5 of a 256x256
 * RGBA8 texture, has run and been waited for, then 0. */
static int filter_ready(void)
{
    double t0 = tool_now();
    amp_accelerator_view *v = amp_default_view();
    if (!v) return failed(amp_last_status(), "amp_default_view");
    amp_texture_desc d = {.extent = amp_extent2(256, 256), .type = AMP_UNORM_4, .bits_per_scalar_element = 8};
    amp_texture *src = amp_texture_create(v, &d), *dst = src ? amp_texture_create(v, &d) : NULL;
    amp_image_filter f;
    int rc = !dst ? failed(amp_last_status(), "amp_texture_create")
             : failed(amp_image_filter_parse("gaussian:radius=2", &f), "amp_image_filter_parse") ||
                     failed(amp_image_filter_chain(&f, 1, src, dst), "amp_image_filter_chain") ||
                     failed(amp_view_wait(v), "amp_view_wait");
    double t1 = tool_now();
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    if (!rc) printf("%.3f 0\n", (t1 - t0) * 1e3);
    return rc;
}

/* Runs `<this program> bench MODE [--device SPEC]` (--kernel-ready or --filter-ready) with
 * XDG_CACHE_HOME=cache_dir and reads its figures; 0, or 1 with the error printed. The
 * program is run as /proc/self/exe: the very file this process runs, even if a rebuild
 * replaced it since. */
static int child_ms(const bench *b, const char *cache_dir, const char *mode, double *ms, int *cached)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return tool_error("bench", "cannot find this program (/proc/self/exe): %s", strerror(errno));
    self[len] = '\0';
    const char *exe = "/proc/self/exe";
    char *args[] = {self, "bench", (char *)mode, b->device ? "--device" : NULL, (char *)b->device, NULL};

    size_t n = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 2, sizeof *env);
    char cache_var[PATH_MAX + 32];
    if (!env) return tool_error("bench", "out of host memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "XDG_CACHE_HOME=", 15) != 0) env[k++] = environ[i];
    snprintf(cache_var, sizeof cache_var, "XDG_CACHE_HOME=%s", cache_dir);
    env[k] = cache_var;

    int fds[2], rc = 1;
    if (pipe2(fds, O_CLOEXEC) != 0) {
        free(env);
        return tool_error("bench", "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    pid_t pid;
    int err = posix_spawn(&pid, exe, &fa, NULL, args, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        return tool_error("bench", "cannot run %s: %s", self, strerror(err));
    }
    char buf[256];
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fds[0], buf + got, sizeof buf - 1 - got);
        if (r > 0 && (got += (size_t)r) < sizeof buf - 1) continue;
        if (r < 0 && errno == EINTR) continue;
        break;
    }
    buf[got] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return tool_error("bench", "waitpid: %s", strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        tool_error("bench", "`%s bench %s` failed (%s %d)", self, mode,
                   WIFEXITED(status) ? "exit status" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    else if (sscanf(buf, "%lf %d", ms, cached) != 2)
        tool_error("bench", "`%s bench %s` printed '%s', not 'MS FROM_CACHE'", self, mode, buf);
    else
        rc = 0;
    return rc;
}

/* nftw's callback for remove_tree: removes one entry. */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    if (remove(path) != 0) tool_error("bench", "cannot remove %s: %s", path, strerror(errno));
    return 0;
}

/* Removes a folder and everything in it. */
static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* Makes a new folder under $TMPDIR (else /tmp) into dir; 0, or 1 with the error printed. */
static int make_temp_dir(char *dir, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, size, "%s/ampvk-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir)) return 0;
    return tool_error("bench", "cannot make a folder %s: %s", dir, strerror(errno));
}

/* The first kernel of a new process, and its first filter: cold (an empty cache folder:
 * ampvk's and the driver's, which follows XDG_CACHE_HOME too), then warm (the disk cache
 * the first one left). */
static int bench_kernel(bench *b)
{
    char dir[PATH_MAX], fdir[PATH_MAX];
    int unused, rc = 1;
    if (make_temp_dir(dir, sizeof dir)) return 1;
    if (make_temp_dir(fdir, sizeof fdir) == 0) {
        rc = child_ms(b, dir, "--kernel-ready", &b->cold_ms, &b->cold_cached) ||
             child_ms(b, dir, "--kernel-ready", &b->warm_ms, &b->warm_cached) ||
             child_ms(b, fdir, "--filter-ready", &b->filter_cold_ms, &unused) ||
             child_ms(b, fdir, "--filter-ready", &b->filter_warm_ms, &unused);
        remove_tree(fdir);
    }
    remove_tree(dir);
    if (rc) return 1;
    section_gap(b);
    fprintf(b->out, "%-54s %10.2f ms%s\n", "first kernel, cold cache", b->cold_ms,
            b->cold_cached ? "  (came from the cache)" : "");
    fprintf(b->out, "%-54s %10.2f ms%s\n", "first kernel, warm disk cache", b->warm_ms,
            b->warm_cached ? "" : "  (not from the cache)");
    fprintf(b->out, "%-54s %10.2f ms\n", "accelerator + first filter (gaussian 5x5), cold", b->filter_cold_ms);
    fprintf(b->out, "%-54s %10.2f ms\n", "accelerator + first filter, warm disk cache", b->filter_warm_ms);
    return 0;
}

/* The size of the file at path into *bytes: 0, or 1 with the reason on stderr. */
static int file_bytes(const char *path, size_t *bytes)
{
    struct stat st;
    if (stat(path, &st) != 0) return tool_error("bench", "%s: %s", path, strerror(errno));
    *bytes = (size_t)st.st_size;
    return 0;
}

/* amp_image_load and amp_image_save (its own format, else PNG; default settings) of b->image on the host,
 * IMAGE_RUNS times each; then amp_texture_save of the image as a texture on the
 * default accelerator (on a GPU its rows are filtered there), after one save that
 * makes its pipelines and staging; the medians. */
static int bench_image(bench *b)
{
    int rc = 1;
    double load[IMAGE_RUNS], save[IMAGE_RUNS];
    amp_image img = {0};
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (make_temp_dir(dir, sizeof dir)) return 1;
    for (int r = 0; r < IMAGE_RUNS; r++) {
        amp_image_free(&img);
        double t0 = tool_now();
        if (failed(amp_image_load(b->image, NULL, &img), "image")) goto done;
        load[r] = tool_now() - t0;
    }
    /* saved in its own format where ampvk writes it, else as a PNG */
    const char *ext = amp_image_format_name(img.format);
    if (img.format == AMP_IMAGE_FORMAT_JPEG) ext = "jpg";
    else if (img.format == AMP_IMAGE_FORMAT_TIFF) ext = "tif";
    else if (img.format == AMP_IMAGE_FORMAT_PSD) ext = "png";
    snprintf(path, sizeof path, "%s/ampvk-bench.%s", dir, ext);
    for (int r = 0; r < IMAGE_RUNS; r++) {
        double t0 = tool_now();
        if (failed(amp_image_save(path, &img, NULL), "image")) goto done;
        save[r] = tool_now() - t0;
    }
    if (file_bytes(path, &b->img.output_bytes)) goto done;
    /* the same image saved from a texture */
    amp_texture *t = amp_texture_from_image(b->view, &img, 0);
    if (!t) {
        failed(amp_last_status(), "amp_texture_from_image");
        goto done;
    }
    double tsave[IMAGE_RUNS];
    amp_status ts = amp_texture_save(t, path, NULL);
    for (int r = 0; r < IMAGE_RUNS && ts == AMP_OK; r++) {
        double t0 = tool_now();
        ts = amp_texture_save(t, path, NULL);
        tsave[r] = tool_now() - t0;
    }
    amp_texture_destroy(&t);
    if (failed(ts, "amp_texture_save") || file_bytes(path, &b->img.texture_bytes)) goto done;
    b->img.texture_save_ms = median(tsave, IMAGE_RUNS) * 1e3;
    b->img.width = img.width;
    b->img.height = img.height;
    b->img.channels = img.channels;
    b->img.bits = img.bits;
    b->img.format = amp_image_format_name(img.format);
    b->img.raw_bytes = (size_t)img.width * (size_t)img.height * (size_t)img.channels * (size_t)(img.bits / 8);
    b->img.load_ms = median(load, IMAGE_RUNS) * 1e3;
    b->img.save_ms = median(save, IMAGE_RUNS) * 1e3;
    double mb = (double)b->img.raw_bytes / 1e6;
    section_gap(b);
    fprintf(b->out, "image %s: %dx%d, %d channels of %d bits (%s), %.1f MB raw; median of %d runs; the texture on %s\n",
            b->image, img.width, img.height, img.channels, img.bits, b->img.format ? b->img.format : "?", mb,
            IMAGE_RUNS, b->info.description);
    fprintf(b->out, "%-54s %10.3f ms  %8.1f MB/s\n", "amp_image_load", b->img.load_ms, mb / (b->img.load_ms / 1e3));
    char label[64];
    snprintf(label, sizeof label, "amp_image_save (%s, default settings)", ext);
    fprintf(b->out, "%-54s %10.3f ms  %8.1f MB/s  %zu bytes\n", label, b->img.save_ms, mb / (b->img.save_ms / 1e3),
            b->img.output_bytes);
    snprintf(label, sizeof label, "amp_texture_save (%s, from a texture)", ext);
    fprintf(b->out, "%-54s %10.3f ms  %8.1f MB/s  %zu bytes\n", label, b->img.texture_save_ms,
            mb / (b->img.texture_save_ms / 1e3), b->img.texture_bytes);
    rc = 0;
done:
    amp_image_free(&img);
    remove_tree(dir);
    return rc;
}

/* Writes ", KEY: V" with prec decimals (the leading comma unless first), null when
 * V is not finite. */
static void json_num(const char *key, double v, int prec, bool first)
{
    printf("%s\"%s\": ", first ? "" : ", ", key);
    if (isfinite(v))
        printf("%.*f", prec, v);
    else
        printf("null");
}

/* Prints every figure measured as one JSON object on stdout. */
static void print_json(const bench *b)
{
    printf("{\"device\": ");
    if (b->view) {
        printf("{\"description\": ");
        tool_json_string(b->info.description);
        printf(", \"device_path\": ");
        tool_json_string(b->info.device_path);
        printf(", \"emulated\": %s, \"debug\": %s}", b->info.is_emulated ? "true" : "false",
               b->info.is_debug ? "true" : "false");
    } else {
        printf("null");
    }
    printf(", \"quick\": %s, \"size_mb\": %zu", b->quick ? "true" : "false", b->mb);
    if (b->sections & SEC_BANDWIDTH) {
        printf(", \"bandwidth\": {");
        json_num("copy_gbps", b->copy_gbps, 2, true);
        json_num("saxpy_gbps", b->saxpy_gbps, 2, false);
        printf("}");
    }
    if (b->sections & SEC_DISPATCH) {
        printf(", \"dispatch\": {\"batched_dispatches\": %d, \"batched_submits\": %d", b->chain, b->chain_submits);
        json_num("batched_dispatch_us", b->chain_us, 3, false);
        json_num("dispatch_record_us", b->record_us, 3, false);
        printf(", \"roundtrips\": %d", b->trips);
        json_num("roundtrip_us", b->trip_us, 2, false);
        printf("}");
    }
    if (b->sections & SEC_TRANSFERS) {
        printf(", \"transfers\": {");
        json_num("h2d_gbps", b->up_gbps, 2, true);
        json_num("d2h_gbps", b->down_gbps, 2, false);
        json_num("h2d_first_gbps", b->first_up_gbps, 2, false);
        json_num("d2h_first_gbps", b->first_down_gbps, 2, false);
        json_num("register_gbps", b->register_gbps, 2, false);
        json_num("h2d_first_registered_gbps", b->reg_up_gbps, 2, false);
        json_num("d2h_first_registered_gbps", b->reg_down_gbps, 2, false);
        json_num("texture_4k_upload_ms", b->tex_up_ms[0], 3, false);
        json_num("texture_4k_download_ms", b->tex_down_ms[0], 3, false);
        json_num("texture_4k_upload_registered_ms", b->tex_up_ms[1], 3, false);
        json_num("texture_4k_download_registered_ms", b->tex_down_ms[1], 3, false);
        printf("}");
    }
    if (b->sections & SEC_FILTERS) {
        printf(", \"filters\": {\"width\": %d, \"height\": %d, \"format\": \"rgba8\"", b->filter_width,
               b->filter_height);
        json_num("device_copy_ms", b->device_copy_ms, 4, false);
        json_num("copy_filter_ms", b->copy_filter_ms, 4, false);
        printf(", \"results\": [");
        for (int i = 0; i < b->spec_count; i++) {
            printf("%s{\"filter\": ", i ? ", " : "");
            tool_json_string(b->specs[i]);
            json_num("ms", b->filter_ms[i], 4, false);
            json_num("x_copy", b->filter_ms[i] / b->copy_filter_ms, 3, false);
            json_num("x_device_copy", b->filter_ms[i] / b->device_copy_ms, 3, false);
            printf("}");
        }
        printf("]}");
    }
    if (b->sections & SEC_KERNEL) {
        printf(", \"kernel_ready\": {");
        json_num("cold_ms", b->cold_ms, 2, true);
        json_num("warm_ms", b->warm_ms, 3, false);
        printf(", \"cold_from_cache\": %s, \"warm_from_cache\": %s", b->cold_cached ? "true" : "false",
               b->warm_cached ? "true" : "false");
        json_num("first_filter_cold_ms", b->filter_cold_ms, 2, false);
        json_num("first_filter_warm_ms", b->filter_warm_ms, 2, false);
        printf("}");
    }
    if (b->sections & SEC_MATH) {
        printf(", \"math\": {\"elements\": %d, \"evaluations\": %d, \"gresults_per_s\": {", b->quick ? 4096 : 4 << 20,
               MATH_K);
        for (int f = 0; f < MATH_FNS; f++) {
            printf("%s\"%s\": {", f ? ", " : "", math_fns[f].name);
            for (int v = 0; v < MATH_VARIANTS; v++) json_num(math_variants[v].label, b->math_gps[f][v], 3, v == 0);
            printf("}");
        }
        printf("}}");
    }
    if (b->sections & SEC_IMAGE) {
        double mb = (double)b->img.raw_bytes / 1e6;
        printf(", \"image\": {\"file\": ");
        tool_json_string(b->image);
        printf(", \"format\": ");
        tool_json_string(b->img.format ? b->img.format : "");
        printf(", \"width\": %d, \"height\": %d, \"channels\": %d, \"bits\": %d, \"raw_bytes\": %zu, \"runs\": %d",
               b->img.width, b->img.height, b->img.channels, b->img.bits, b->img.raw_bytes, IMAGE_RUNS);
        json_num("load_ms", b->img.load_ms, 4, false);
        json_num("load_mbps", mb / (b->img.load_ms / 1e3), 2, false);
        json_num("save_ms", b->img.save_ms, 4, false);
        json_num("save_mbps", mb / (b->img.save_ms / 1e3), 2, false);
        printf(", \"save_bytes\": %zu", b->img.output_bytes);
        json_num("texture_save_ms", b->img.texture_save_ms, 4, false);
        printf(", \"texture_save_bytes\": %zu, \"texture_save_device\": ", b->img.texture_bytes);
        tool_json_string(b->info.description);
        printf("}");
    }
    printf(", \"validation_messages\": %llu}\n", (unsigned long long)amp_validation_message_count());
}

/* Parses --only's comma-separated section names ("all": every one but image, which
 * --image adds) into *bits; false on an unknown one (its name in bad). */
static bool parse_sections(const char *list, unsigned *bits, char *bad, size_t bad_size)
{
    *bits = 0;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, ",");
        bool found = false;
        for (size_t i = 0; i < sizeof sections / sizeof *sections && n; i++)
            if (strlen(sections[i].name) == n && strncmp(p, sections[i].name, n) == 0) {
                *bits |= sections[i].bit;
                found = true;
            }
        if (n == 3 && strncmp(p, "all", 3) == 0) {
            *bits |= SEC_DEVICE;
            found = true;
        }
        if (!found) {
            snprintf(bad, bad_size, "%.*s", (int)n, p);
            return false;
        }
        if (!p[n]) return true;
        p += n + 1;
    }
}

/* ampvk bench: see the header comment. */
int ampvk_bench_main(int argc, char **argv)
{
    if (tool_wants_help(argc, argv)) {
        fputs(bench_help, stdout);
        return 0;
    }
    bench b = {.out = stdout, .mb = 1024, .specs = filter_specs, .spec_count = FILTER_COUNT};
    static const char *chains[MAX_FILTER_ARGS];
    bool json = false, child = false, filter_child = false, filters_only = false;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val;
        long n;
        bool explain = false;
        if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--filters") == 0) {
            filters_only = true;
        } else if (strcmp(a, "--quick") == 0) {
            b.quick = true;
        } else if (strcmp(a, "--kernel-ready") == 0) {
            child = true;
        } else if (strcmp(a, "--filter-ready") == 0) {
            filter_child = true;
        } else if (tool_option(argc, argv, &i, "--device", &val)) {
            if (!val || !*val) return tool_usage_error("bench", "--device needs SPEC");
            b.device = val;
        } else if (tool_option(argc, argv, &i, "--size-mb", &val)) {
            if (!tool_parse_long(val, 1, 8192, &n))
                return tool_usage_error("bench", "--size-mb needs a whole number of MiB from 1 to 8192");
            b.mb = (size_t)n;
        } else if (tool_option(argc, argv, &i, "--image", &val)) {
            if (!val || !*val) return tool_usage_error("bench", "--image needs FILE");
            b.image = val;
        } else if (tool_option(argc, argv, &i, "--filter", &val) ||
                   (explain = tool_option(argc, argv, &i, "--explain", &val))) {
            filter_run check;
            char why[512];
            if (!val || !*val) return tool_usage_error("bench", "%s needs CHAIN", explain ? "--explain" : "--filter");
            b.explain |= explain;
            if (!parse_chain(val, &check, why, sizeof why)) return tool_usage_error("bench", "%s", why);
            if (b.specs != chains) b.specs = chains, b.spec_count = 0;
            if (b.spec_count == MAX_FILTER_ARGS)
                return tool_usage_error("bench", "more than %d --filter chains", MAX_FILTER_ARGS);
            chains[b.spec_count++] = val;
            filters_only = true;
        } else if (tool_option(argc, argv, &i, "--only", &val)) {
            if (!val) return tool_usage_error("bench", "--only needs SECTIONS");
            only = val;
        } else {
            return tool_usage_error("bench", "unknown %s '%s'", a[0] == '-' ? "option" : "argument", a);
        }
    }
    if (filters_only && only) return tool_usage_error("bench", "--filters and --only: give one");
    b.sections = filters_only ? SEC_FILTERS : b.image ? 0 : SEC_DEVICE;
    if (only) {
        char bad[64];
        if (!parse_sections(only, &b.sections, bad, sizeof bad))
            return tool_usage_error("bench", "--only: no section '%s' (bandwidth, dispatch, transfers, filters, "
                                    "kernel, image, math or all)", bad);
    }
    if (b.image) b.sections |= SEC_IMAGE;
    if ((b.sections & SEC_IMAGE) && !b.image) return tool_usage_error("bench", "--only image needs --image FILE");

    if (b.device && tool_select_device("bench", b.device)) return 1;
    if (child) return kernel_ready();
    if (filter_child) return filter_ready();
    if (json) b.out = stderr;

    if (b.sections & (SEC_DEVICE | SEC_MATH | SEC_IMAGE)) { /* the image section saves from a texture */
        b.view = amp_default_view();
        if (!b.view) return failed(amp_last_status(), "amp_default_view");
        if (failed(amp_accelerator_get_info(amp_view_accelerator(b.view), &b.info), "amp_accelerator_get_info"))
            return 1;
        fprintf(b.out, "ampvk bench on %s (%s)%s\n", b.info.description, b.info.device_path,
                b.quick ? ", quick" : "");
        if (b.sections & (SEC_BANDWIDTH | SEC_TRANSFERS)) fprintf(b.out, "%zu MiB for bandwidth and transfers\n", b.mb);
        if (b.sections & (SEC_BANDWIDTH | SEC_DISPATCH | SEC_TRANSFERS))
            fprintf(b.out, "\n%-54s %10s\n", "measure", "value");
        b.started = true;
    }
    if (((b.sections & SEC_BANDWIDTH) && bench_bandwidth(&b)) || ((b.sections & SEC_DISPATCH) && bench_dispatch(&b)) ||
        ((b.sections & SEC_TRANSFERS) && bench_transfers(&b)) || ((b.sections & SEC_FILTERS) && bench_filters(&b)) ||
        ((b.sections & SEC_KERNEL) && bench_kernel(&b)) || ((b.sections & SEC_MATH) && bench_math(&b)) ||
        ((b.sections & SEC_IMAGE) && bench_image(&b)))
        return 1;
    if (b.view && b.info.is_debug)
        fprintf(b.out, "\nvalidation messages: %llu\n", (unsigned long long)amp_validation_message_count());
    if (json) print_json(&b);
    return 0;
}
