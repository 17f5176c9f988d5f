/* Accelerators and accelerator_views: enumeration, lookup, default selection,
 * set_default, default_cpu_access_type, views (both queuing modes), flush, wait,
 * markers, futures, stats, and a view over the test's own Vulkan device.
 *
 * Modes (argv[1]), each run by its own ctest entry:
 *   (none)   the full test; AMPVK_DEFAULT_ACCELERATOR=llvmpipe
 *   index    AMPVK_DEFAULT_ACCELERATOR=0 selects the first accelerator
 *   bogus    AMPVK_DEFAULT_ACCELERATOR=no-such-accelerator-xyz: no default */
#include <vulkan/vulkan.h>

#include "test.h"
#include "test_device.h"

/* The device under test: lavapipe unless AMPVK_TEST_DEVICE names another (a GPU run). */
static const char *target(void)
{
    const char *t = getenv("AMPVK_TEST_DEVICE");
    return t && *t ? t : "llvmpipe";
}
static bool target_is_lavapipe(void) { return strcmp(target(), "llvmpipe") == 0; }

static amp_accelerator *find_lavapipe(void)
{
    for (int i = 0; i < amp_accelerator_count(); i++) {
        amp_accelerator_info info;
        if (amp_accelerator_get_info(amp_accelerator_at(i), &info) == AMP_OK && strstr(info.description, target()))
            return amp_accelerator_at(i);
    }
    return NULL;
}

static bool is_hex_path(const char *p)
{
    if (strncmp(p, "vulkan:", 7) != 0) return false;
    p += 7;
    size_t n = strlen(p);
    if (n != 32) return false;
    for (; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return false;
    return true;
}

/* AMPVK_DEFAULT_ACCELERATOR=0 */
static int mode_index(void)
{
    amp_accelerator *d = amp_accelerator_default();
    REQUIRE(d != NULL);
    REQUIRE(d == amp_accelerator_at(0));
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(d, &info));
    REQUIRE_INT(info.index, 0);
    REQUIRE(amp_default_view() == amp_accelerator_default_view(d));
    return test_end();
}

/* AMPVK_DEFAULT_ACCELERATOR names nothing: no default, an error naming the value. */
static int mode_bogus(void)
{
    amp_clear_error();
    REQUIRE_NULL_FAIL(amp_accelerator_default(), AMP_ERROR_NOT_FOUND, "no-such-accelerator-xyz");
    REQUIRE(strstr(amp_last_error(), "AMPVK_DEFAULT_ACCELERATOR") != NULL);
    REQUIRE_NULL_FAIL(amp_default_view(), AMP_ERROR_NOT_FOUND, "no-such-accelerator-xyz");
    /* the list itself is fine */
    REQUIRE(amp_accelerator_count() >= 1);
    REQUIRE(find_lavapipe() != NULL);
    /* and an explicit choice still works (no work has run) */
    REQUIRE_OK(amp_accelerator_set_default(target()));
    REQUIRE(amp_accelerator_default() == find_lavapipe());
    return test_end();
}

static void test_enumeration(amp_accelerator **lvp_out)
{
    int n = amp_accelerator_count();
    REQUIRE(n >= 1);
    amp_accelerator *lvp = find_lavapipe();
    REQUIRE(lvp != NULL);
    *lvp_out = lvp;
    if (!lvp) return;
    for (int i = 0; i < n; i++) {
        amp_accelerator_info info;
        REQUIRE_OK(amp_accelerator_get_info(amp_accelerator_at(i), &info));
        REQUIRE_INT(info.index, i);
        REQUIRE(is_hex_path(info.device_path));
        REQUIRE(info.description && info.description[0]);
        REQUIRE(!info.has_display);
    }
    amp_accelerator_info info, again;
    REQUIRE_OK(amp_accelerator_get_info(lvp, &info));
    REQUIRE(info.is_emulated == target_is_lavapipe());
    REQUIRE(info.is_debug); /* AMPVK_VALIDATION=1 */
    REQUIRE(strstr(info.description, target()) != NULL);
    REQUIRE(info.version >= (1u << 16 | 2u));
    REQUIRE(info.version >> 16 == 1);
    REQUIRE(info.dedicated_memory > 0);
    if (target_is_lavapipe()) REQUIRE(info.supports_cpu_shared_memory);
    REQUIRE(info.supports_limited_double_precision == info.supports_double_precision);
    REQUIRE(is_hex_path(info.device_path));
    /* stable: two lookups give the same path (and the same accelerator) */
    amp_accelerator *same = amp_accelerator_find(info.device_path);
    REQUIRE(same == lvp);
    REQUIRE_OK(amp_accelerator_get_info(same, &again));
    REQUIRE(strcmp(info.device_path, again.device_path) == 0);
    REQUIRE(amp_accelerator_find(again.device_path) == lvp);

    /* find by index, path, name substring (case-insensitive) */
    char key[16];
    snprintf(key, sizeof key, "%d", info.index);
    REQUIRE(amp_accelerator_find(key) == lvp);
    REQUIRE(amp_accelerator_find("0") == amp_accelerator_at(0));
    REQUIRE(amp_accelerator_find(target()) == lvp);
    if (target_is_lavapipe()) {
        REQUIRE(amp_accelerator_find("LLVMPIPE") == lvp);
        REQUIRE(amp_accelerator_find("LLVM") == lvp || n > 1);
    }

    /* lookups that fail */
    snprintf(key, sizeof key, "%d", n);
    REQUIRE_NULL_FAIL(amp_accelerator_find(key), AMP_ERROR_NOT_FOUND, key);
    REQUIRE_NULL_FAIL(amp_accelerator_find("-1"), AMP_ERROR_NOT_FOUND, "-1");
    REQUIRE_NULL_FAIL(amp_accelerator_find("no-such-gpu-42"), AMP_ERROR_NOT_FOUND, "no-such-gpu-42");
    REQUIRE_NULL_FAIL(amp_accelerator_find("vulkan:00000000000000000000000000000000"), AMP_ERROR_NOT_FOUND,
                      "vulkan:00000000000000000000000000000000");
    REQUIRE_NULL_FAIL(amp_accelerator_find(NULL), AMP_ERROR_INVALID_ARGUMENT, "");
    REQUIRE_NULL_FAIL(amp_accelerator_find(""), AMP_ERROR_INVALID_ARGUMENT, "empty");
    REQUIRE_NULL_FAIL(amp_accelerator_at(n), AMP_ERROR_OUT_OF_BOUNDS, "");
    REQUIRE_NULL_FAIL(amp_accelerator_at(-1), AMP_ERROR_OUT_OF_BOUNDS, "");
    REQUIRE_FAIL(amp_accelerator_get_info(NULL, &info), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_accelerator_get_info(lvp, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
}

static void test_default_before_work(amp_accelerator *lvp)
{
    /* AMPVK_DEFAULT_ACCELERATOR (ctest sets it to llvmpipe) picks the default */
    const char *env = getenv("AMPVK_DEFAULT_ACCELERATOR");
    REQUIRE(env != NULL);
    if (env) REQUIRE(amp_accelerator_default() == amp_accelerator_find(env));
    if (env && strcmp(env, target()) == 0) REQUIRE(amp_accelerator_default() == lvp);
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(lvp, &info));
    /* set_default succeeds before any work, by path, index or name */
    REQUIRE_OK(amp_accelerator_set_default("0"));
    REQUIRE(amp_accelerator_default() == amp_accelerator_at(0));
    REQUIRE_OK(amp_accelerator_set_default(info.device_path));
    REQUIRE(amp_accelerator_default() == lvp);
    /* no match: NOT_FOUND and the default is unchanged */
    REQUIRE_FAIL(amp_accelerator_set_default("no-such-gpu-42"), AMP_ERROR_NOT_FOUND, "no-such-gpu-42");
    REQUIRE(amp_accelerator_default() == lvp);
    REQUIRE_FAIL(amp_accelerator_set_default(NULL), AMP_ERROR_INVALID_ARGUMENT, "");
    REQUIRE(amp_accelerator_default() == lvp);
    /* creating views is not work */
    amp_accelerator_view *dv = amp_default_view();
    REQUIRE(dv != NULL);
    REQUIRE(dv == amp_accelerator_default_view(lvp));
    REQUIRE(amp_view_accelerator(dv) == lvp);
    REQUIRE_INT(amp_view_queuing_mode(dv), AMP_QUEUING_AUTOMATIC);
    REQUIRE_OK(amp_accelerator_set_default(target()));
    REQUIRE(amp_accelerator_default() == lvp);
}

static void test_cpu_access(amp_accelerator *lvp)
{
    REQUIRE_INT(amp_accelerator_default_cpu_access_type(lvp), AMP_ACCESS_NONE);
    REQUIRE_OK(amp_accelerator_set_default_cpu_access_type(lvp, AMP_ACCESS_READ_WRITE));
    REQUIRE_INT(amp_accelerator_default_cpu_access_type(lvp), AMP_ACCESS_READ_WRITE);
    int init[4] = {1, 2, 3, 4};
    amp_array *a = amp_array_create(NULL, &(amp_array_desc){.extent = amp_extent1(4), .type = AMP_INT, .data = init});
    REQUIRE(a != NULL);
    REQUIRE_INT(amp_array_cpu_access_type(a), AMP_ACCESS_READ_WRITE);
    int *p = amp_array_data(a);
    REQUIRE(p != NULL);
    if (p) REQUIRE_ARRAY_INT(p, init, 4);
    amp_array_destroy(&a);
    REQUIRE(a == NULL);
    REQUIRE_OK(amp_accelerator_set_default_cpu_access_type(lvp, AMP_ACCESS_READ));
    REQUIRE_INT(amp_accelerator_default_cpu_access_type(lvp), AMP_ACCESS_READ);
    /* invalid values change nothing */
    REQUIRE_FAIL(amp_accelerator_set_default_cpu_access_type(lvp, (amp_access_type)99), AMP_ERROR_INVALID_ARGUMENT,
                 "99");
    REQUIRE_INT(amp_accelerator_default_cpu_access_type(lvp), AMP_ACCESS_READ);
    REQUIRE_FAIL(amp_accelerator_set_default_cpu_access_type(NULL, AMP_ACCESS_READ), AMP_ERROR_INVALID_ARGUMENT,
                 "NULL");
    /* AUTO means back to the default: none */
    REQUIRE_OK(amp_accelerator_set_default_cpu_access_type(lvp, AMP_ACCESS_AUTO));
    REQUIRE_INT(amp_accelerator_default_cpu_access_type(lvp), AMP_ACCESS_NONE);
    a = amp_array_create(NULL, &(amp_array_desc){.extent = amp_extent1(4), .type = AMP_INT});
    REQUIRE(a != NULL);
    REQUIRE_INT(amp_array_cpu_access_type(a), AMP_ACCESS_NONE);
    amp_array_destroy(&a);
    REQUIRE_INT(amp_accelerator_default_cpu_access_type(NULL), AMP_ACCESS_NONE);
}

static amp_view_stats stats_of(amp_accelerator_view *v)
{
    amp_view_stats s;
    memset(&s, 0xab, sizeof s);
    REQUIRE_OK(amp_view_get_stats(v, &s));
    return s;
}

static void test_views(amp_accelerator *lvp)
{
    amp_accelerator_view *imm = amp_view_create(lvp, AMP_QUEUING_IMMEDIATE);
    amp_accelerator_view *aut = amp_view_create(lvp, AMP_QUEUING_AUTOMATIC);
    REQUIRE(imm && aut);
    if (!imm || !aut) return;
    REQUIRE_INT(amp_view_queuing_mode(imm), AMP_QUEUING_IMMEDIATE);
    REQUIRE_INT(amp_view_queuing_mode(aut), AMP_QUEUING_AUTOMATIC);
    REQUIRE(amp_view_accelerator(imm) == lvp && amp_view_accelerator(aut) == lvp);
    REQUIRE(imm != amp_default_view() && aut != imm);
    REQUIRE_NULL_FAIL(amp_view_create(lvp, (amp_queuing_mode)7), AMP_ERROR_INVALID_ARGUMENT, "queuing mode 7");
    REQUIRE_NULL_FAIL(amp_view_create(NULL, AMP_QUEUING_AUTOMATIC), AMP_ERROR_INVALID_ARGUMENT, "NULL");

    /* fresh views have done nothing */
    amp_view_stats s0 = stats_of(imm);
    REQUIRE_INT(s0.submits, 0);
    REQUIRE_INT(s0.uploads, 0);
    REQUIRE_INT(s0.downloads, 0);
    REQUIRE_INT(s0.dispatches, 0);
    /* flush and wait with nothing recorded submit nothing */
    REQUIRE_OK(amp_view_flush(aut));
    REQUIRE_OK(amp_view_wait(aut));
    REQUIRE_INT(stats_of(aut).submits, 0);

    int data[8] = {0};
    amp_array *ai = amp_array_create(imm, &(amp_array_desc){.extent = amp_extent1(8), .type = AMP_INT,
                                                            .cpu_access = AMP_ACCESS_NONE});
    amp_array *aa = amp_array_create(aut, &(amp_array_desc){.extent = amp_extent1(8), .type = AMP_INT,
                                                            .cpu_access = AMP_ACCESS_NONE});
    REQUIRE(ai && aa);
    if (!ai || !aa) return;
    REQUIRE(amp_array_accelerator_view(ai) == imm);
    /* immediate mode: one submit per command */
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 8; i++) data[i] = k * 100 + i;
        REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(ai)));
        amp_view_stats s = stats_of(imm);
        REQUIRE_INT(s.submits, k + 1);
        REQUIRE_INT(s.uploads, k + 1);
        REQUIRE_INT(s.upload_bytes, (k + 1) * (int)sizeof data);
    }
    /* automatic mode: batched until a flush point */
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 8; i++) data[i] = k * 1000 + i;
        REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(aa)));
    }
    amp_view_stats s = stats_of(aut);
    REQUIRE_INT(s.uploads, 3);
    REQUIRE_INT(s.submits, 0);
    REQUIRE_OK(amp_view_flush(aut));
    REQUIRE_INT(stats_of(aut).submits, 1);
    REQUIRE_OK(amp_view_flush(aut)); /* nothing new: no submit */
    REQUIRE_INT(stats_of(aut).submits, 1);
    REQUIRE_OK(amp_view_wait(aut));
    REQUIRE_INT(stats_of(aut).submits, 1);

    /* markers: a future that completes with the work before it */
    for (int i = 0; i < 8; i++) data[i] = -i;
    REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(aa)));
    REQUIRE_INT(stats_of(aut).submits, 1);
    amp_future *m = amp_view_create_marker(aut);
    REQUIRE(m != NULL);
    REQUIRE_INT(stats_of(aut).submits, 2); /* the marker submitted the batch */
    REQUIRE_OK(amp_view_wait(aut));
    REQUIRE(amp_future_ready(m));
    REQUIRE_OK(amp_future_wait_for(m, 0));
    REQUIRE_OK(amp_future_wait(m));
    amp_future_destroy(&m);
    REQUIRE(m == NULL);
    amp_future_destroy(&m);  /* no-op */
    amp_future_destroy(NULL);

    /* a marker waited on with a time limit */
    REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(aa)));
    m = amp_view_create_marker(aut);
    REQUIRE(m != NULL);
    REQUIRE_OK(amp_future_wait_for(m, 10ull * 1000 * 1000 * 1000));
    REQUIRE(amp_future_ready(m));
    amp_future_destroy(&m);
    /* a marker on an idle view is ready at once */
    m = amp_view_create_marker(imm);
    REQUIRE(m != NULL);
    REQUIRE_OK(amp_future_wait_for(m, 0));
    REQUIRE(amp_future_ready(m));
    amp_future_destroy(&m);

    /* the data went where it should */
    int got[8];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(aa), got, sizeof got));
    REQUIRE_ARRAY_INT(got, data, 8);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ai), got, sizeof got));
    int want[8];
    for (int i = 0; i < 8; i++) want[i] = 200 + i;
    REQUIRE_ARRAY_INT(got, want, 8);
    REQUIRE_INT(stats_of(aut).downloads, 1);
    REQUIRE_INT(stats_of(imm).downloads, 1);

    /* a view with live arrays cannot be destroyed; nothing is freed */
    amp_accelerator_view *keep = imm;
    REQUIRE_FAIL(amp_view_destroy(&imm), AMP_ERROR_INVALID_STATE, "1 arrays");
    REQUIRE(imm == keep);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ai), got, sizeof got));
    REQUIRE_ARRAY_INT(got, want, 8);

    /* NULL arguments */
    REQUIRE_FAIL(amp_view_flush(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_view_wait(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_NULL_FAIL(amp_view_create_marker(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_view_get_stats(NULL, &s), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_view_get_stats(aut, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_future_wait(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE(!amp_future_ready(NULL));
    REQUIRE(amp_view_accelerator(NULL) == NULL);
    REQUIRE_OK(amp_view_destroy(NULL));

    amp_array_destroy(&ai);
    amp_array_destroy(&aa);
    REQUIRE_OK(amp_view_destroy(&imm));
    REQUIRE(imm == NULL);
    REQUIRE_OK(amp_view_destroy(&aut));
    REQUIRE(aut == NULL);
    REQUIRE_OK(amp_view_destroy(&aut)); /* *view == NULL: no-op */
    /* destroying the default view is a no-op; it stays usable */
    amp_accelerator_view *dv = amp_default_view();
    REQUIRE_OK(amp_view_destroy(&dv));
    REQUIRE(dv == NULL);
    REQUIRE(amp_default_view() != NULL);
    REQUIRE_OK(amp_view_wait(amp_default_view()));
}

static void test_after_work(amp_accelerator *lvp)
{
    /* work has run (test_views): the default is fixed now */
    REQUIRE_FAIL(amp_accelerator_set_default("0"), AMP_ERROR_INVALID_STATE, "work has already run");
    REQUIRE_FAIL(amp_accelerator_set_default(target()), AMP_ERROR_INVALID_STATE, "work has already run");
    REQUIRE(amp_accelerator_default() == lvp);
}

/* A view over the test's own Vulkan objects. */
static void test_external(amp_accelerator *lvp)
{
    /* the test's own instance and device on the same physical device (the default) */
    test_device td;
    if (!test_device_open(&td)) {
        test_device_close(&td);
        return;
    }
    VkPhysicalDevice pd = td.physical;
    VkDevice dev = td.device;
    VkQueue queue = td.queue;
    VkInstance inst = td.instance;

    /* bad descriptions */
    REQUIRE_NULL_FAIL(amp_view_create_external(NULL), AMP_ERROR_INVALID_ARGUMENT, "required");
    REQUIRE_NULL_FAIL(amp_view_create_external(&(amp_vulkan_device_desc){.instance = inst, .physical_device = pd,
                                                                          .device = dev}),
                      AMP_ERROR_INVALID_ARGUMENT, "required");
    REQUIRE_NULL_FAIL(amp_view_create_external(&(amp_vulkan_device_desc){.instance = inst, .physical_device = pd,
                                                                          .device = dev, .queue = queue,
                                                                          .queue_family = 99}),
                      AMP_ERROR_INVALID_ARGUMENT, "99");

    amp_vulkan_device_desc desc = test_device_desc(&td);
    desc.mode = AMP_QUEUING_AUTOMATIC;
    amp_accelerator_view *ev = amp_view_create_external(&desc);
    REQUIRE(ev != NULL);
    if (ev) {
        REQUIRE(amp_view_accelerator(ev) == lvp);
        REQUIRE_INT(amp_view_queuing_mode(ev), AMP_QUEUING_AUTOMATIC);
        /* data through an array on the application's device */
        int in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0}, out2[6] = {0};
        amp_array *a = amp_array_create(ev, &(amp_array_desc){.extent = amp_extent2(2, 3), .type = AMP_INT,
                                                              .data = in, .cpu_access = AMP_ACCESS_NONE});
        amp_array *b = amp_array_create(ev, &(amp_array_desc){.extent = amp_extent2(2, 3), .type = AMP_INT,
                                                              .cpu_access = AMP_ACCESS_NONE});
        REQUIRE(a && b);
        REQUIRE_OK(amp_copy(amp_array_as_view(a), amp_array_as_view(b)));
        REQUIRE_OK(amp_copy_to_host(amp_array_as_view(b), out, sizeof out));
        REQUIRE_ARRAY_INT(out, in, 6);
        /* a host view pushed to the external device and changed there by a kernel */
        int h[6] = {10, 20, 30, 40, 50, 60};
        amp_array_view *hv = amp_array_view_create(amp_extent1(6), AMP_INT, 0, h);
        amp_kernel *k = amp_kernel_create(ev, &(amp_kernel_desc){.params = "array_view<int, 1> a",
                                                                 .body = "a(idx) = a(idx) * 10;"});
        REQUIRE(k != NULL);
        if (k) REQUIRE_OK(amp_parallel_for_each(ev, amp_extent1(6), k, AMP_ARGS(AMP_VIEW("a", hv))));
        REQUIRE_OK(amp_array_view_synchronize(hv));
        int want[6] = {100, 200, 300, 400, 500, 600};
        REQUIRE_ARRAY_INT(h, want, 6);
        amp_array_view *hv2 = amp_array_view_view_as(hv, amp_extent2(2, 3));
        REQUIRE(hv2 != NULL);
        REQUIRE_OK(amp_copy(hv2, amp_array_as_view(a)));
        amp_array_view_destroy(&hv2);
        REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), out2, sizeof out2));
        REQUIRE_ARRAY_INT(out2, want, 6);
        amp_view_stats s = stats_of(ev);
        REQUIRE(s.submits >= 1);
        REQUIRE_INT(s.dispatches, k ? 1 : 0);
        REQUIRE_INT(s.device_copies, 1);
        amp_array_view_destroy(&hv);
        amp_kernel_destroy(&k);
        REQUIRE_FAIL(amp_view_destroy(&ev), AMP_ERROR_INVALID_STATE, "2 arrays");
        amp_array_destroy(&a);
        amp_array_destroy(&b);
        REQUIRE_OK(amp_view_destroy(&ev));
        REQUIRE(ev == NULL);
    }
    /* the application's device still works and is the application's to destroy */
    REQUIRE_INT(vkDeviceWaitIdle(dev), VK_SUCCESS);
    VkFence fence;
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    REQUIRE_INT(vkCreateFence(dev, &fci, NULL, &fence), VK_SUCCESS);
    REQUIRE_INT(vkQueueSubmit(queue, 0, NULL, fence), VK_SUCCESS);
    REQUIRE_INT(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    vkDestroyFence(dev, fence, NULL);
    test_device_close(&td); /* and no validation message on the test's instance */
}

int main(int argc, char **argv)
{
    test_begin();
    if (argc > 1 && strcmp(argv[1], "index") == 0) return mode_index();
    if (argc > 1 && strcmp(argv[1], "bogus") == 0) return mode_bogus();
    if (argc > 1) {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    amp_accelerator *lvp = NULL;
    test_enumeration(&lvp);
    if (!lvp) {
        fprintf(stderr, "skipped: no lavapipe (%s)\n", amp_last_error());
        return 77;
    }
    test_default_before_work(lvp);
    test_cpu_access(lvp);
    test_views(lvp);
    test_after_work(lvp);
    test_external(lvp);
    return test_end();
}
