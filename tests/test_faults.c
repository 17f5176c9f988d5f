/* Fault injection (an AMPVK_FAULT_INJECTION build; CI runs it under ASan and
 * LeakSanitizer): each public operation runs with its 1st, 2nd, 3rd ... fallible
 * call failing (a host allocation or a Vulkan call that allocates, creates or
 * submits: tests/faults.h) until a run does not reach the fault. Every failure
 * must return AMP_ERROR_OUT_OF_MEMORY or the Vulkan error's status with a message,
 * crash nothing, leave the caller's data as it was and free what it made (leaks
 * show at exit, and Vulkan objects left behind when the test's own device is
 * destroyed); every run that succeeds, the last one included, must give exact
 * results, so the library stays usable after each failure.
 *
 * Each operation runs on the default view with one call failing, then with every
 * call from that one on failing (memory that stays exhausted: the failure paths
 * themselves must not need memory), and then, where it needs no kernel of the
 * default device, on a new device each run (the test's own, test_device.h): there
 * nothing is pooled or cached yet, so the paths that make command buffers, staging
 * and uniform buffers, descriptor pools, samplers and mip kernels fail too. The
 * disk caches are off (AMPVK_CACHE=0) and each kernel is new, so kernels compile. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "faults.h"
#include "test_device.h"

enum { N = 256, LARGE = 1 << 18 }; /* ints; LARGE is 1 MiB: views that big import host memory */

static char dir[64];                  /* a temporary directory for files */
static test_device own;               /* the test's own VkDevice (fresh amp__devices) */
static amp_accelerator_view *view;    /* the default view, or the new device's */
static amp_kernel *inc_kernel;        /* a(idx) += 1 */
static amp_kernel *scale_kernel;      /* out(idx) = in(idx) * k + 1 */

/* ---- the fault loop ---- */

static uint64_t armed;   /* the fallible call this run fails */
static bool exhausted;   /* every fallible call after it fails too (memory stays exhausted) */
static bool reached;     /* the armed call of this run reached it */
static bool broken;      /* a run failed without the fault: stop the loop */

/* Arms the fault for the call that follows. */
static void arm(void)
{
    amp_clear_error();
    if (exhausted) amp_fault_arm_from(armed);
    else amp_fault_arm(armed);
}

/* Disarms after an armed call and checks how it ended: a failure must be the
 * injected one, with an out-of-memory or Vulkan status and a message. True when
 * the call succeeded. */
static bool settle(bool ok, const char *call, int line)
{
    reached = amp_fault_count() >= armed;
    amp_fault_disarm();
    if (ok) return true;
    amp_status s = amp_last_status();
    test_checks++;
    if (!reached || (s != AMP_ERROR_OUT_OF_MEMORY && s != AMP_ERROR_VULKAN) || !*amp_last_error()) {
        fprintf(stderr, "%s:%d: %s with call %llu failing%s: %s \"%s\"\n", __FILE__, line, call,
                (unsigned long long)armed, reached ? "" : " (not reached)", amp_status_name(s), amp_last_error());
        test_failures++;
        broken |= !reached;
    }
    return false;
}

/* Runs a call with the armed fault: true when it succeeded. */
#define ARMED(call) settle((arm(), (call)) == AMP_OK, #call, __LINE__)
/* The same for a call that returns a pointer (NULL on failure). */
#define ARMED_PTR(var, call) settle((arm(), (var = (call))) != NULL, #call, __LINE__)

/* Runs step with its fallible calls failing one by one, the 1st first, until a run
 * does not reach the fault (it then ran through). */
static void run_step(const char *name, void (*step)(void))
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t n = 1;
    broken = false;
    for (; n < 5000; n++) {
        armed = n;
        reached = false;
        step();
        if (!reached || broken) break;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%-46s %4llu fallible calls %7.2f s\n", name, (unsigned long long)n - 1,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    fflush(stdout);
}

/* A step on a view of a new device each run (the test's own device, wrapped anew):
 * nothing is pooled or cached there yet (command buffers, staging and uniform
 * buffers, descriptor pools, samplers, kernels), so the paths that make them run
 * under faults too. */
static void (*inner)(void);

/* Runs inner with `view` a new device's view, destroyed after it. */
static void step_on_new_device(void)
{
    amp_vulkan_device_desc desc = test_device_desc(&own);
    amp_accelerator_view *saved = view;
    view = amp_view_create_external(&desc);
    REQUIRE(view);
    if (view) inner();
    REQUIRE_OK(amp_view_destroy(&view));
    view = saved;
}

/* Where and how a step runs under faults. */
enum { DEFAULT = 1, EXHAUSTED = 2, NEW_DEVICE = 4 };

/* Runs step in each mode asked for: on the default view with one call failing at a
 * time (DEFAULT), with every call from the failing one on failing (EXHAUSTED), and
 * with one failing on a new device each run (NEW_DEVICE). */
static void under_faults(const char *name, void (*step)(void), int modes)
{
    char full[96];
    if (modes & DEFAULT) run_step(name, step);
    if (modes & EXHAUSTED) {
        snprintf(full, sizeof full, "%s (exhausted)", name);
        exhausted = true;
        run_step(full, step);
        exhausted = false;
    }
    if (modes & NEW_DEVICE) {
        snprintf(full, sizeof full, "%s (new device)", name);
        inner = step;
        run_step(full, step_on_new_device);
    }
}

/* ---- helpers ---- */

/* Fills n ints with base, base + 7, ... */
static void fill(int *p, int n, int base)
{
    for (int i = 0; i < n; i++) p[i] = base + i * 7;
}

/* True if the n ints of p are base, base + 7, ... */
static bool filled(const int *p, int n, int base)
{
    for (int i = 0; i < n; i++)
        if (p[i] != base + i * 7) return false;
    return true;
}

/* An array of N ints on v, filled from base. */
static amp_array *int_array(amp_accelerator_view *v, int base)
{
    int data[N];
    fill(data, N, base);
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_INT, .data = data,
                                                         .data_size = sizeof data});
    REQUIRE(a);
    return a;
}

/* True if the array holds base, base + 7, ... (read unarmed). */
static bool array_holds(amp_array *a, int base)
{
    int out[N];
    amp_status s = amp_copy_to_host(amp_array_as_view(a), out, sizeof out);
    REQUIRE_OK(s);
    return s == AMP_OK && filled(out, N, base);
}

/* Data through a new array on v and back: the view works. */
static void check_view_works(amp_accelerator_view *v)
{
    amp_array *a = int_array(v, 5);
    if (a) REQUIRE(array_holds(a, 5));
    amp_array_destroy(&a);
}

/* ---- accelerators and views ---- */

static bool no_accelerator;

/* The instance and the accelerator list, built on first use: a build that ran out
 * of memory is built again by the next call. */
static void step_accelerator_list(void)
{
    arm();
    int n = amp_accelerator_count();
    if (!n && amp_last_status() != AMP_ERROR_OUT_OF_MEMORY) {
        amp_fault_disarm(); /* no Vulkan device here: the test is skipped */
        no_accelerator = true;
        return;
    }
    if (settle(n > 0, "amp_accelerator_count()", __LINE__)) REQUIRE(amp_accelerator_default() != NULL);
}

/* A view of the default accelerator (its device opens in the first runs). */
static void step_view_create(void)
{
    amp_accelerator_view *v;
    if (ARMED_PTR(v, amp_view_create(amp_accelerator_default(), AMP_QUEUING_IMMEDIATE))) check_view_works(v);
    REQUIRE_OK(amp_view_destroy(&v));
}

/* A view over the test's own device (a new amp__device each run). */
static void step_view_create_external(void)
{
    amp_vulkan_device_desc desc = test_device_desc(&own);
    amp_accelerator_view *v;
    if (ARMED_PTR(v, amp_view_create_external(&desc))) check_view_works(v);
    REQUIRE_OK(amp_view_destroy(&v));
}

/* ---- arrays and array_views ---- */

/* An array made from host data: the data arrives, the source stays. */
static void step_array_create(void)
{
    int src[N];
    fill(src, N, 3);
    amp_array *a;
    if (ARMED_PTR(a, amp_array_create(view, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_INT,
                                                               .data = src, .data_size = sizeof src})))
        REQUIRE(array_holds(a, 3));
    REQUIRE(filled(src, N, 3));
    amp_array_destroy(&a);
}

/* A copy between two arrays: the destination gets it all or keeps what it had. */
static void step_copy(void)
{
    amp_array *a = int_array(view, 11), *b = int_array(view, 999);
    if (ARMED(amp_copy(amp_array_as_view(a), amp_array_as_view(b)))) REQUIRE(array_holds(b, 11));
    else REQUIRE(array_holds(b, 999));
    REQUIRE(array_holds(a, 11));
    amp_array_destroy(&a);
    amp_array_destroy(&b);
}

/* A copy from a view of host memory into an array (staged from the host). */
static void step_copy_host_view_to_array(void)
{
    int src[N];
    fill(src, N, 13);
    amp_array_view *hv = amp_array_view_create_const(amp_extent1(N), AMP_INT, 0, src);
    amp_array *b = int_array(view, 999);
    REQUIRE(hv && b);
    if (ARMED(amp_copy(hv, amp_array_as_view(b)))) REQUIRE(array_holds(b, 13));
    else REQUIRE(array_holds(b, 999));
    REQUIRE(filled(src, N, 13));
    amp_array_view_destroy(&hv);
    amp_array_destroy(&b);
}

/* A copy from an array into a view of host memory (on the device, then synchronized). */
static void step_copy_array_to_host_view(void)
{
    int dst[N];
    fill(dst, N, -500);
    amp_array *a = int_array(view, 17);
    amp_array_view *hv = amp_array_view_create(amp_extent1(N), AMP_INT, 0, dst);
    REQUIRE(hv && a);
    bool ok = ARMED(amp_copy(amp_array_as_view(a), hv));
    REQUIRE_OK(amp_array_view_synchronize(hv));
    REQUIRE(filled(dst, N, ok ? 17 : -500));
    /* and a kernel then sees those contents */
    REQUIRE_OK(amp_parallel_for_each(view, amp_extent1(N), inc_kernel, AMP_ARGS(AMP_VIEW("a", hv))));
    REQUIRE_OK(amp_array_view_synchronize(hv));
    REQUIRE(filled(dst, N, ok ? 18 : -499));
    amp_array_view_destroy(&hv);
    amp_array_destroy(&a);
}

/* A copy of an array to host memory: the destination gets it all or is left alone. */
static void step_copy_to_host(void)
{
    int dst[N];
    fill(dst, N, -9);
    amp_array *a = int_array(view, 19);
    REQUIRE(filled(dst, N, ARMED(amp_copy_to_host(amp_array_as_view(a), dst, sizeof dst)) ? 19 : -9));
    amp_array_destroy(&a);
}

/* The asynchronous copy: its future, when made, completes with the data. */
static void step_copy_to_host_async(void)
{
    int dst[N];
    fill(dst, N, -9);
    amp_array *a = int_array(view, 21);
    amp_future *f;
    bool ok = ARMED_PTR(f, amp_copy_to_host_async(amp_array_as_view(a), dst, sizeof dst));
    if (ok) REQUIRE_OK(amp_future_wait(f));
    REQUIRE(filled(dst, N, ok ? 21 : -9));
    amp_future_destroy(&f);
    amp_array_destroy(&a);
}

/* A copy of host memory into an array: all of it, or the array keeps what it had. */
static void step_copy_from_host(void)
{
    int src[N];
    fill(src, N, 23);
    amp_array *a = int_array(view, 999);
    if (ARMED(amp_copy_from_host(src, sizeof src, amp_array_as_view(a)))) REQUIRE(array_holds(a, 23));
    else REQUIRE(array_holds(a, 999));
    REQUIRE(filled(src, N, 23));
    amp_array_destroy(&a);
}

/* A view of host memory (2-D), read back element by element. */
static void step_array_view_create(void)
{
    int host[N];
    fill(host, N, 29);
    amp_array_view *hv;
    if (ARMED_PTR(hv, amp_array_view_create(amp_extent2(16, 16), AMP_INT, 0, host))) {
        REQUIRE(amp_extent_equal(amp_array_view_extent(hv), amp_extent2(16, 16)));
        int got;
        REQUIRE_OK(amp_array_view_get(hv, amp_index2(3, 4), &got));
        REQUIRE_INT(got, 29 + (3 * 16 + 4) * 7);
    }
    REQUIRE(filled(host, N, 29));
    amp_array_view_destroy(&hv);
}

/* A section of a view of host memory. */
static void step_array_view_section(void)
{
    int host[N];
    fill(host, N, 31);
    amp_array_view *hv = amp_array_view_create(amp_extent2(16, 16), AMP_INT, 0, host), *sec;
    REQUIRE(hv);
    if (ARMED_PTR(sec, amp_array_view_section(hv, amp_index2(2, 3), amp_extent2(4, 5)))) {
        int got[20];
        REQUIRE_OK(amp_copy_to_host(sec, got, sizeof got));
        REQUIRE_INT(got[19], 31 + (5 * 16 + 7) * 7);
    }
    amp_array_view_destroy(&sec);
    amp_array_view_destroy(&hv);
}

/* Synchronizes a view of n ints of host memory whose data a kernel changed on the
 * device (each + 1): the host gets all of it, or on failure keeps what it had. */
static void synchronize_changed(int *host, int n)
{
    fill(host, n, 37);
    amp_array_view *hv = amp_array_view_create(amp_extent1(n), AMP_INT, 0, host);
    REQUIRE(hv);
    REQUIRE_OK(amp_parallel_for_each(view, amp_extent1(n), inc_kernel, AMP_ARGS(AMP_VIEW("a", hv))));
    REQUIRE_OK(amp_view_wait(view));
    REQUIRE(filled(host, n, ARMED(amp_array_view_synchronize(hv)) ? 38 : 37));
    amp_array_view_destroy(&hv);
}

/* Synchronizing a small view (through staging). */
static void step_synchronize(void)
{
    int host[N];
    synchronize_changed(host, N);
}

/* The asynchronous synchronize: its future, when made, brings the data. */
static void step_synchronize_async(void)
{
    int host[N];
    fill(host, N, 39);
    amp_array_view *hv = amp_array_view_create(amp_extent1(N), AMP_INT, 0, host);
    REQUIRE(hv);
    REQUIRE_OK(amp_parallel_for_each(view, amp_extent1(N), inc_kernel, AMP_ARGS(AMP_VIEW("a", hv))));
    amp_future *f;
    bool ok = ARMED_PTR(f, amp_array_view_synchronize_async(hv));
    if (ok) REQUIRE_OK(amp_future_wait(f));
    REQUIRE(filled(host, N, ok ? 40 : 39));
    amp_future_destroy(&f);
    amp_array_view_destroy(&hv);
}

static int large[LARGE];

/* Synchronizing 1 MiB: the device writes straight into the imported host memory. */
static void step_synchronize_large(void) { synchronize_changed(large, LARGE); }

/* Registering host memory: done whole or not at all (then nothing is registered); a
 * small view inside registered memory then synchronizes through it. */
static void step_host_register(void)
{
    static int mem[N * 4];
    amp_accelerator *acc = amp_view_accelerator(view);
    if (!ARMED(amp_host_register(acc, mem, sizeof mem))) {
        REQUIRE_FAIL(amp_host_unregister(acc, mem), AMP_ERROR_INVALID_ARGUMENT, "no memory is registered");
        return;
    }
    synchronize_changed(mem + N, N);
    REQUIRE_OK(amp_host_unregister(acc, mem));
}

/* ---- kernels ---- */

static int kernel_runs;

/* out = in * 3 + 1 through k: exact. */
static void check_scale(amp_kernel *k)
{
    int in[N], out[N];
    fill(in, N, 41);
    memset(out, 0, sizeof out);
    amp_array_view *a = amp_array_view_create_const(amp_extent1(N), AMP_INT, 0, in);
    amp_array_view *b = amp_array_view_create(amp_extent1(N), AMP_INT, 0, out);
    REQUIRE_OK(amp_parallel_for_each(view, amp_extent1(N), k,
                                     AMP_ARGS(AMP_VIEW("in", a), AMP_VIEW("out", b), AMP_INT("k", 3))));
    REQUIRE_OK(amp_array_view_synchronize(b));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != in[i] * 3 + 1;
    REQUIRE_INT(bad, 0);
    amp_array_view_destroy(&a);
    amp_array_view_destroy(&b);
}

/* A kernel from a body, new to the device each run. */
static void step_kernel_create(void)
{
    char body[128];
    /* new to the device each run: compiled, not taken from the in-memory cache */
    snprintf(body, sizeof body, "out(idx) = in(idx) * k + 1; /* run %d */", ++kernel_runs);
    amp_kernel *k;
    if (ARMED_PTR(k, amp_kernel_create(view, &(amp_kernel_desc){
                         .params = "array_view<const int, 1> in, array_view<int, 1> out, int k", .body = body})))
        check_scale(k);
    amp_kernel_destroy(&k);
}

/* Writes text to a file of the temporary directory. */
static void write_text(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A kernel from a file that includes another from an include directory. */
static void step_kernel_create_file(void)
{
    char text[256], path[128], inc[128];
    snprintf(text, sizeof text,
             "#include \"scale.glsl\"\n/* run %d */\nvoid kernel(index_1 idx) { out(idx) = scale(in(idx)); }\n",
             ++kernel_runs);
    write_text("kernel.glsl", text);
    snprintf(path, sizeof path, "%s/kernel.glsl", dir);
    snprintf(inc, sizeof inc, "%s/include", dir);
    const char *dirs[] = {inc};
    amp_kernel *k;
    if (ARMED_PTR(k, amp_kernel_create(view, &(amp_kernel_desc){
                         .params = "array_view<const int, 1> in, array_view<int, 1> out, int k", .file = path,
                         .include_dirs = dirs, .include_dir_count = 1})))
        check_scale(k);
    amp_kernel_destroy(&k);
}

/* A dispatch: its output gets the results, or on failure keeps what it had. */
static void step_parallel_for_each(void)
{
    int in[N], out[N];
    fill(in, N, 43);
    fill(out, N, -7);
    amp_array_view *a = amp_array_view_create_const(amp_extent1(N), AMP_INT, 0, in);
    amp_array_view *b = amp_array_view_create(amp_extent1(N), AMP_INT, 0, out);
    amp_array *c = int_array(view, 47);
    REQUIRE(a && b && c);
    /* after it, another dispatch in the same batch must run as if nothing happened */
    bool ok = ARMED(amp_parallel_for_each(view, amp_extent1(N), scale_kernel,
                                          AMP_ARGS(AMP_VIEW("in", a), AMP_VIEW("out", b), AMP_INT("k", 3))));
    REQUIRE_OK(amp_parallel_for_each(view, amp_extent1(N), inc_kernel, AMP_ARGS(AMP_ARRAY("a", c))));
    REQUIRE_OK(amp_array_view_synchronize(b));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != (ok ? in[i] * 3 + 1 : -7 + i * 7);
    REQUIRE_INT(bad, 0);
    REQUIRE(filled(in, N, 43));
    REQUIRE(array_holds(c, 48));
    amp_array_view_destroy(&a);
    amp_array_view_destroy(&b);
    amp_array_destroy(&c);
}

/* ---- textures ---- */

enum { TW = 8, TH = 8 };

/* A unorm_4 texture of 8 bits on v, its texels filled from base (or zeros). */
static amp_texture *rgba_texture(amp_accelerator_view *v, int base, int mips)
{
    uint8_t data[TH * TW * 4];
    for (int i = 0; i < TH * TW * 4; i++) data[i] = (uint8_t)(base + i);
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){
        .extent = amp_extent2(TH, TW), .type = AMP_UNORM_4, .bits_per_scalar_element = 8, .mip_levels = mips,
        .data = base >= 0 ? data : NULL, .data_size = base >= 0 ? sizeof data : 0});
    REQUIRE(t);
    return t;
}

/* True if level 0 of t holds base, base + 1, ... (or zeros with base < 0). */
static bool texture_holds(amp_texture *t, int base)
{
    uint8_t got[TH * TW * 4];
    amp_status s = amp_texture_copy_to_host(t, NULL, got, sizeof got);
    REQUIRE_OK(s);
    for (int i = 0; s == AMP_OK && i < TH * TW * 4; i++)
        if (got[i] != (base >= 0 ? (uint8_t)(base + i) : 0)) return false;
    return s == AMP_OK;
}

/* A texture made from host data. */
static void step_texture_create(void)
{
    uint8_t data[TH * TW * 4];
    for (int i = 0; i < TH * TW * 4; i++) data[i] = (uint8_t)(53 + i);
    amp_texture *t;
    if (ARMED_PTR(t, amp_texture_create(view, &(amp_texture_desc){
                         .extent = amp_extent2(TH, TW), .type = AMP_UNORM_4, .bits_per_scalar_element = 8,
                         .data = data, .data_size = sizeof data})))
        REQUIRE(texture_holds(t, 53));
    amp_texture_destroy(&t);
}

/* Host data into a texture: all of it, or the texture keeps its zeros. */
static void step_texture_copy_from_host(void)
{
    uint8_t data[TH * TW * 4];
    for (int i = 0; i < TH * TW * 4; i++) data[i] = (uint8_t)(59 + i);
    amp_texture *t = rgba_texture(view, -1, 1);
    REQUIRE(texture_holds(t, ARMED(amp_texture_copy_from_host(t, NULL, data, sizeof data)) ? 59 : -1));
    amp_texture_destroy(&t);
}

/* A texture into host memory: all of it, or the destination is left alone. */
static void step_texture_copy_to_host(void)
{
    uint8_t got[TH * TW * 4];
    memset(got, 0xee, sizeof got);
    amp_texture *t = rgba_texture(view, 61, 1);
    bool ok = ARMED(amp_texture_copy_to_host(t, NULL, got, sizeof got));
    int bad = 0;
    for (int i = 0; i < TH * TW * 4; i++) bad += got[i] != (ok ? (uint8_t)(61 + i) : 0xee);
    REQUIRE_INT(bad, 0);
    amp_texture_destroy(&t);
}

/* A copy between two textures and one within a texture (through a buffer). */
static void step_texture_copy(void)
{
    amp_texture *a = rgba_texture(view, 67, 1), *b = rgba_texture(view, -1, 1);
    REQUIRE(texture_holds(b, ARMED(amp_texture_copy(a, NULL, b, NULL)) ? 67 : -1));
    amp_texture_region top = {.offset = amp_index2(0, 0), .extent = amp_extent2(TH / 2, TW)};
    amp_texture_region bottom = {.offset = amp_index2(TH / 2, 0)};
    bool ok = ARMED(amp_texture_copy(a, &top, a, &bottom));
    uint8_t got[TH * TW * 4];
    REQUIRE_OK(amp_texture_copy_to_host(a, NULL, got, sizeof got));
    int bad = 0, half = TH / 2 * TW * 4;
    for (int i = 0; i < TH * TW * 4; i++) bad += got[i] != (uint8_t)(67 + (ok && i >= half ? i - half : i));
    REQUIRE_INT(bad, 0);
    amp_texture_destroy(&a);
    amp_texture_destroy(&b);
}

/* ---- filters ---- */

enum { FW = 1024, FH = 1024 }; /* a megapixel: packed.comp's passes on CPU devices */

/* A 2-D unorm texture of 8 bits, comps components, w x h, filled with a hash of seed. */
static amp_texture *filter_texture(int comps, int w, int h, unsigned seed)
{
    size_t n = (size_t)w * h * (size_t)comps;
    uint8_t *data = malloc(n);
    REQUIRE(data);
    for (size_t i = 0; data && i < n; i++) data[i] = (uint8_t)(((i + seed) * 2654435761u) >> 24);
    amp_texture *t = amp_texture_create(view, &(amp_texture_desc){
        .extent = amp_extent2(h, w), .type = AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps), .bits_per_scalar_element = 8,
        .data = data, .data_size = data ? n : 0});
    REQUIRE(t);
    free(data);
    return t;
}

/* The chain f of n filters from src into dst (w x h, comps components), made first without
 * a fault into its expected bytes: under the fault dst holds those, or (the chain failed)
 * what it held. */
static void filter_under_fault(const amp_image_filter *f, int n, int comps, int w, int h)
{
    amp_texture *src = filter_texture(comps, w, h, 1), *want = filter_texture(comps, w, h, 2),
                *dst = filter_texture(comps, w, h, 3);
    size_t bytes = (size_t)w * h * (size_t)comps;
    uint8_t *expect = malloc(bytes), *before = malloc(bytes), *got = malloc(bytes);
    REQUIRE(expect && before && got);
    if (src && want && dst && expect && before && got) {
        REQUIRE_OK(amp_image_filter_chain(f, n, src, want));
        REQUIRE_OK(amp_texture_copy_to_host(want, NULL, expect, bytes));
        REQUIRE_OK(amp_texture_copy_to_host(dst, NULL, before, bytes));
        bool ok = ARMED(amp_image_filter_chain(f, n, src, dst));
        REQUIRE_OK(amp_texture_copy_to_host(dst, NULL, got, bytes));
        REQUIRE(memcmp(got, ok ? expect : before, bytes) == 0);
    }
    free(expect);
    free(before);
    free(got);
    amp_texture_destroy(&src);
    amp_texture_destroy(&want);
    amp_texture_destroy(&dst);
}

/* A blur with a fused invert (on CPU devices: packed.comp's sums and its table of codes). */
static void step_filter_chain(void)
{
    amp_image_filter f[2] = {{.op = AMP_IMAGE_GAUSSIAN, .radius = 2}, {.op = AMP_IMAGE_INVERT}};
    filter_under_fault(f, 2, 4, FW, FH);
}

/* A chain of passes through an intermediate texture on a small image (the image paths). */
static void step_filter_small(void)
{
    amp_image_filter f[3] = {{.op = AMP_IMAGE_GAUSSIAN, .sigma = 3}, {.op = AMP_IMAGE_GRAYSCALE},
                             {.op = AMP_IMAGE_MEDIAN, .radius = 1}};
    filter_under_fault(f, 3, 4, 37, 29);
}

/* Equalize of a gray image (on CPU devices: packed.comp's three passes and their memory). */
static void step_filter_equalize(void)
{
    amp_image_filter f = {.op = AMP_IMAGE_EQUALIZE};
    filter_under_fault(&f, 1, 1, FW, FH);
}

/* A write-only view of one mip level. */
static void step_texture_view_create(void)
{
    amp_texture *t = rgba_texture(view, 71, AMP_MIP_FULL);
    amp_texture_view *tv;
    if (ARMED_PTR(tv, amp_texture_view_create(t, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE,
                                                                           .most_detailed_mip = 1})))
        REQUIRE(amp_texture_view_texture(tv) == t);
    amp_texture_view_destroy(&tv);
    amp_texture_destroy(&t);
}

/* A float_4 texture of 8x8 with a full chain, level 0 from x + 8y (every component):
 * the box filter's averages are exact, level k holds at (y, x) the mean of its
 * 2^k x 2^k block. */
static amp_texture *ramp_texture(amp_accelerator_view *v)
{
    float data[TH * TW * 4];
    for (int i = 0; i < TH * TW * 4; i++) data[i] = (float)(i / 4);
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(TH, TW), .type = AMP_FLOAT_4,
                                                               .mip_levels = AMP_MIP_FULL, .data = data,
                                                               .data_size = sizeof data});
    REQUIRE(t);
    return t;
}

/* True if every level of a ramp texture holds its block means. */
static bool mips_exact(amp_texture *t)
{
    for (int m = 1; m < amp_texture_mip_levels(t); m++) {
        int s = 1 << m, w = TW >> m, h = TH >> m;
        float got[TH * TW * 4];
        amp_texture_region r = {.mip_level = m};
        REQUIRE_OK(amp_texture_copy_to_host(t, &r, got, (size_t)(w * h * 4) * sizeof(float)));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                /* the mean of (y*s + j) * 8 + x*s + i over the block */
                float want = (float)((y * s) * TW + x * s) + (float)(s - 1) * (TW + 1) / 2.0f;
                if (got[(y * w + x) * 4] != want) return false;
            }
    }
    return true;
}

/* A texture handed to the application and back (waiting on the point ampvk gave):
 * a failed export leaves it ampvk's, a failed import leaves it held; the contents
 * survive either. */
static void step_texture_handover(void)
{
    amp_texture *t = rgba_texture(view, 73, 1);
    amp_vulkan_image img;
    bool out = ARMED(amp_texture_export(t, &(amp_vulkan_access){.layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
                                        &img));
    REQUIRE(amp_texture_is_exported(t) == out);
    amp_vulkan_access back = {.queue_family = VK_QUEUE_FAMILY_IGNORED, .wait = img.ready};
    if (out && !ARMED(amp_texture_import(t, &back))) REQUIRE(amp_texture_is_exported(t));
    if (amp_texture_is_exported(t)) REQUIRE_OK(amp_texture_import(t, &back));
    REQUIRE(texture_holds(t, 73));
    amp_texture_destroy(&t);
}

/* The same for an array's buffer. */
static void step_array_handover(void)
{
    amp_array *a = int_array(view, 79);
    amp_vulkan_buffer buf;
    bool out = ARMED(amp_array_export(a, NULL, &buf));
    REQUIRE(amp_array_is_exported(a) == out);
    amp_vulkan_access back = {.queue_family = VK_QUEUE_FAMILY_IGNORED, .wait = buf.ready};
    if (out && !ARMED(amp_array_import(a, &back))) REQUIRE(amp_array_is_exported(a));
    if (amp_array_is_exported(a)) REQUIRE_OK(amp_array_import(a, &back));
    REQUIRE(array_holds(a, 79));
    amp_array_destroy(&a);
}

/* Mip levels from level 0 (on a new device, its mip kernels are made under faults). */
static void step_generate_mips(void)
{
    amp_texture *t = ramp_texture(view);
    if (ARMED(amp_texture_generate_mips(t))) REQUIRE(mips_exact(t));
    amp_texture_destroy(&t);
}

static const char *const sample_params =
    "texture_view<const float_4, 2> src, sampler s, array_view<float_4, 2> out";
static const char *const sample_body =
    "vec2 uv = (vec2(idx.y, idx.x) + 0.5) / vec2(src_extent.y, src_extent.x);\n"
    "out(idx) = src_sample(s, uv, 0.0);";

/* The texels of level 0 sampled at their centers through a sampler on v: the level exactly. */
static void check_sampling(amp_accelerator_view *v, amp_kernel *k, amp_texture *t, amp_sampler smp)
{
    float out[TH * TW * 4];
    amp_array_view *o = amp_array_view_create(amp_extent2(TH, TW), AMP_FLOAT_4, 0, out);
    amp_texture_view *src = amp_texture_view_create(t, &(amp_texture_view_desc){.mip_levels = 1});
    REQUIRE(o && src);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(TH, TW), k,
                                     AMP_ARGS(AMP_TEXTURE_VIEW("src", src), AMP_SAMPLER("s", smp),
                                              AMP_VIEW("out", o))));
    REQUIRE_OK(amp_array_view_synchronize(o));
    int bad = 0;
    for (int i = 0; i < TH * TW * 4; i++) bad += out[i] != (float)(i / 4);
    REQUIRE_INT(bad, 0);
    amp_texture_view_destroy(&src);
    amp_array_view_destroy(&o);
}

/* A kernel that samples (on a new device, its sampler cache is made under faults). */
static void step_sampling_kernel(void)
{
    amp_kernel *k = NULL;
    if (ARMED_PTR(k, amp_kernel_create(view, &(amp_kernel_desc){.rank = 2, .params = sample_params,
                                                                 .body = sample_body}))) {
        amp_texture *t = ramp_texture(view);
        check_sampling(view, k, t, (amp_sampler){.filter = AMP_FILTER_POINT});
        amp_texture_destroy(&t);
    }
    amp_kernel_destroy(&k);
}

static amp_kernel *sample_kernel;
static amp_texture *ramp;
static int sampler_runs;

/* A dispatch with a sampler the device has not made yet (a new border color each run). */
static void step_sampler_dispatch(void)
{
    float out[TH * TW * 4];
    for (int i = 0; i < TH * TW * 4; i++) out[i] = -1;
    amp_array_view *o = amp_array_view_create(amp_extent2(TH, TW), AMP_FLOAT_4, 0, out);
    amp_texture_view *src = amp_texture_view_create(ramp, &(amp_texture_view_desc){.mip_levels = 1});
    REQUIRE(o && src);
    amp_sampler smp = {.filter = AMP_FILTER_LINEAR, .address = AMP_ADDRESS_BORDER,
                       .border_color = {(float)++sampler_runs / 4096.0f, 0.25f, 0.5f, 1}};
    bool ok = ARMED(amp_parallel_for_each(view, amp_extent2(TH, TW), sample_kernel,
                                          AMP_ARGS(AMP_TEXTURE_VIEW("src", src), AMP_SAMPLER("s", smp),
                                                   AMP_VIEW("out", o))));
    REQUIRE_OK(amp_array_view_synchronize(o));
    int bad = 0;
    for (int i = 0; i < TH * TW * 4; i++) bad += out[i] != (ok ? (float)(i / 4) : -1.0f);
    REQUIRE_INT(bad, 0);
    amp_texture_view_destroy(&src);
    amp_array_view_destroy(&o);
}

/* ---- image files ---- */

#define RGBA8 AMPVK_TEST_DATA "/rgba8.png"
static uint8_t rgba8[5 * 7 * 4]; /* tests/data/rgba8.png's texels, read unarmed */

/* True if t is rgba8.png's 7x5 image (level 0). */
static bool is_rgba8(amp_texture *t)
{
    uint8_t got[sizeof rgba8];
    REQUIRE(amp_extent_equal(amp_texture_extent(t), amp_extent2(5, 7)));
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, got, sizeof got));
    return memcmp(got, rgba8, sizeof got) == 0;
}

/* Loading tests/data/rgba8.png. */
static void step_load_png(void)
{
    amp_texture *t;
    if (ARMED_PTR(t, amp_texture_load_png(view, RGBA8, NULL))) REQUIRE(is_rgba8(t));
    amp_texture_destroy(&t);
}

/* Loading it with a full mip chain (generated). */
static void step_load_png_mips(void)
{
    amp_texture *t;
    if (ARMED_PTR(t, amp_texture_load_png(view, RGBA8, &(amp_image_load_desc){.mip_levels = AMP_MIP_FULL}))) {
        REQUIRE(is_rgba8(t));
        REQUIRE_INT(amp_texture_mip_levels(t), 3);
    }
    amp_texture_destroy(&t);
}

/* The number of entries of the temporary directory (files left behind show). */
static int dir_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

/* Saving a texture as PNG: the file is whole, or absent with nothing left behind. */
static void step_save_png(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/saved.png", dir);
    unlink(path);
    int before = dir_entries();
    amp_texture *t = amp_texture_load_png(view, RGBA8, NULL);
    REQUIRE(t);
    if (ARMED(amp_texture_save_png(t, path, 0))) {
        amp_image_compare_result r;
        REQUIRE_OK(amp_image_compare_png(t, path, NULL, &r));
        REQUIRE(r.equal);
        REQUIRE_INT(dir_entries(), before + 1);
    } else {
        struct stat st;
        REQUIRE(stat(path, &st) != 0 && errno == ENOENT);
        REQUIRE_INT(dir_entries(), before);
    }
    amp_texture_destroy(&t);
}

/* step_save_png with the texture's rows filtered for PNG on the device, as on GPUs. */
static void step_save_png_device(void)
{
    amp__force_shader_image_copy(true);
    step_save_png();
    amp__force_shader_image_copy(false);
}

/* Comparing a texture with its PNG: equal, or the result is left alone. */
static void step_compare_png(void)
{
    amp_texture *t = amp_texture_load_png(view, RGBA8, NULL);
    REQUIRE(t);
    amp_image_compare_result r, untouched;
    memset(&r, 0x5a, sizeof r);
    memcpy(&untouched, &r, sizeof r);
    if (ARMED(amp_image_compare_png(t, RGBA8, NULL, &r))) REQUIRE(r.equal && r.texels == 35 && r.max_abs_diff == 0);
    else REQUIRE(memcmp(&r, &untouched, sizeof r) == 0);
    amp_texture_destroy(&t);
}

/* ---- main ---- */

/* What the steps share, made unarmed: kernels, the ramp texture, rgba8.png's texels,
 * the include file. */
static void setup(void)
{
    inc_kernel = amp_kernel_create(view, &(amp_kernel_desc){.params = "array_view<int, 1> a", .body = "a(idx) += 1;"});
    scale_kernel = amp_kernel_create(view, &(amp_kernel_desc){
        .params = "array_view<const int, 1> in, array_view<int, 1> out, int k", .body = "out(idx) = in(idx) * k + 1;"});
    sample_kernel = amp_kernel_create(view, &(amp_kernel_desc){.rank = 2, .params = sample_params,
                                                               .body = sample_body});
    ramp = ramp_texture(view);
    REQUIRE(inc_kernel && scale_kernel && sample_kernel && ramp);
    amp_texture *t = amp_texture_load_png(view, RGBA8, NULL);
    REQUIRE(t);
    if (t) REQUIRE_OK(amp_texture_copy_to_host(t, NULL, rgba8, sizeof rgba8));
    amp_texture_destroy(&t);
    char inc[128];
    snprintf(inc, sizeof inc, "%s/include", dir);
    REQUIRE(mkdir(inc, 0700) == 0);
    write_text("include/scale.glsl", "int scale(int x) { return x * k + 1; }\n");
}

/* Removes the temporary directory and what the steps left in it. */
static void remove_dir(void)
{
    const char *names[] = {"include/scale.glsl", "include", "kernel.glsl", "saved.png"};
    char path[128];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    REQUIRE(rmdir(dir) == 0);
}

/* Runs every operation under faults (see the top of the file). */
int main(void)
{
    test_begin();
    setenv("AMPVK_CACHE", "0", 1); /* kernels compile under faults, not from the disk cache */
    snprintf(dir, sizeof dir, "/tmp/ampvk-faults-XXXXXX");
    REQUIRE(mkdtemp(dir) != NULL);
    /* first: the instance and the accelerator list are made under faults, then the
     * accelerator's device opens under faults */
    under_faults("amp_accelerator_count", step_accelerator_list, DEFAULT);
    if (no_accelerator) {
        fprintf(stderr, "skipped: no accelerator (%s)\n", amp_last_error());
        return 77;
    }
    under_faults("amp_view_create", step_view_create, DEFAULT | EXHAUSTED);
    view = test_view();
    if (!test_device_open(&own)) return test_end();
    under_faults("amp_view_create_external", step_view_create_external, DEFAULT | EXHAUSTED);
    setup();

    const int all = DEFAULT | EXHAUSTED | NEW_DEVICE, here = DEFAULT | EXHAUSTED;
    under_faults("amp_array_create", step_array_create, all);
    under_faults("amp_copy", step_copy, all);
    under_faults("amp_copy (host view to array)", step_copy_host_view_to_array, all);
    under_faults("amp_copy (array to host view)", step_copy_array_to_host_view, here);
    under_faults("amp_copy_to_host", step_copy_to_host, all);
    under_faults("amp_copy_to_host_async", step_copy_to_host_async, all);
    under_faults("amp_copy_from_host", step_copy_from_host, all);
    under_faults("amp_array_view_create", step_array_view_create, here);
    under_faults("amp_array_view_section", step_array_view_section, here);
    under_faults("amp_array_view_synchronize", step_synchronize, here);
    under_faults("amp_array_view_synchronize (1 MiB)", step_synchronize_large, here);
    under_faults("amp_array_view_synchronize_async", step_synchronize_async, here);
    under_faults("amp_host_register", step_host_register, DEFAULT | EXHAUSTED);

    under_faults("amp_kernel_create", step_kernel_create, here);
    under_faults("amp_kernel_create (file)", step_kernel_create_file, here);
    under_faults("amp_kernel_create (sampling)", step_sampling_kernel, NEW_DEVICE);
    under_faults("amp_parallel_for_each", step_parallel_for_each, here);
    under_faults("amp_parallel_for_each (new sampler)", step_sampler_dispatch, here);

    under_faults("amp_texture_create", step_texture_create, all);
    under_faults("amp_texture_copy_from_host", step_texture_copy_from_host, all);
    under_faults("amp_texture_copy_to_host", step_texture_copy_to_host, all);
    under_faults("amp_texture_copy", step_texture_copy, all);
    under_faults("amp_texture_view_create", step_texture_view_create, here);
    under_faults("amp_texture_generate_mips", step_generate_mips, all);
    under_faults("amp_texture_export/import", step_texture_handover, all);
    under_faults("amp_image_filter_chain", step_filter_chain, here);
    under_faults("amp_image_filter_chain (equalize)", step_filter_equalize, here);
    under_faults("amp_image_filter_chain (small)", step_filter_small, here);
    under_faults("amp_array_export/import", step_array_handover, all);

    /* (loading with mips on a new device is generate_mips on a new device again) */
    under_faults("amp_texture_load_png", step_load_png, all);
    under_faults("amp_texture_load_png (mips)", step_load_png_mips, here);
    under_faults("amp_texture_save_png", step_save_png, all);
    if (amp__force_shader_image_copy) under_faults("amp_texture_save_png (device rows)", step_save_png_device, all);
    under_faults("amp_image_compare_png", step_compare_png, all);

    amp_kernel_destroy(&inc_kernel);
    amp_kernel_destroy(&scale_kernel);
    amp_kernel_destroy(&sample_kernel);
    amp_texture_destroy(&ramp);
    test_device_close(&own);
    remove_dir();
    return test_end();
}
