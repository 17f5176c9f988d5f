/* A lost device (an AMPVK_FAULT_INJECTION build: amp_fault_lose_device makes the
 * next queue submission report VK_ERROR_DEVICE_LOST). First a device of the test's
 * own (test_device.h) wrapped by amp_view_create_external is lost, then the default
 * accelerator's. After the loss, every call that needs the device fails with
 * AMP_ERROR_DEVICE_LOST and a message naming it, and records nothing; array_views
 * of host memory keep what was synchronized before; a readback in flight leaves its
 * destination alone; destroying everything still frees it all (LeakSanitizer, and
 * the validation layer when the test's device is destroyed); views of the other
 * device keep working throughout. Last, a submission refused for want of memory even
 * when tried again counts as a lost device too. */
#include "faults.h"
#include "test_device.h"

enum { N = 64 };

static char device_name[256]; /* what the messages must name */

/* Fills p with base, base + 3, ... */
static void fill(int *p, int base)
{
    for (int i = 0; i < N; i++) p[i] = base + 3 * i;
}

/* True if p holds base, base + 3, ... */
static bool filled(const int *p, int base)
{
    for (int i = 0; i < N; i++)
        if (p[i] != base + 3 * i) return false;
    return true;
}

/* A kernel on v that adds 1 to each element of a. */
static amp_kernel *inc_kernel(amp_accelerator_view *v)
{
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> a", .body = "a(idx) += 1;"});
    REQUIRE(k);
    return k;
}

/* A view works: an array through a kernel and back, exactly. */
static void check_works(amp_accelerator_view *v)
{
    int in[N], out[N];
    fill(in, 7);
    amp_kernel *k = inc_kernel(v);
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_INT, .data = in,
                                                         .data_size = sizeof in});
    REQUIRE(a);
    if (a && k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_ARRAY("a", a))));
        REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), out, sizeof out));
        REQUIRE(filled(out, 8));
    }
    amp_array_destroy(&a);
    amp_kernel_destroy(&k);
}

/* What lives on the device when it is lost. */
typedef struct device_work {
    amp_accelerator_view *view;
    amp_accelerator_view *other_view; /* a second view of the device, with work recorded */
    amp_kernel *inc;
    int host[N];                      /* behind hv: synchronized at 101.., then 102.. on the device */
    int host_base;                    /* what the host holds: 101 */
    amp_array_view *hv;
    amp_array *array;                 /* 200.. */
    amp_array *other_array;           /* on other_view */
    amp_texture *texture;             /* float, 2 mip levels */
    amp_future *pending;              /* a readback of array submitted before the loss */
    int pending_dst[N];
} device_work;

/* Makes the work on view v, with some of it recorded and not yet submitted, on v
 * and (second_view) on another view of v's accelerator. */
static void make_work(device_work *w, amp_accelerator_view *v, bool second_view)
{
    *w = (device_work){.view = v, .inc = inc_kernel(v), .host_base = 101};
    fill(w->host, 100);
    w->hv = amp_array_view_create(amp_extent1(N), AMP_INT, 0, w->host);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), w->inc, AMP_ARGS(AMP_VIEW("a", w->hv))));
    REQUIRE_OK(amp_array_view_synchronize(w->hv));
    REQUIRE(filled(w->host, 101));
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), w->inc, AMP_ARGS(AMP_VIEW("a", w->hv))));
    int data[N];
    fill(data, 200);
    w->array = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_INT, .data = data,
                                                     .data_size = sizeof data});
    float texels[8 * 8] = {0};
    w->texture = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(8, 8), .type = AMP_FLOAT,
                                                           .mip_levels = 2, .data = texels,
                                                           .data_size = sizeof texels});
    fill(w->pending_dst, -1);
    w->pending = amp_copy_to_host_async(amp_array_as_view(w->array), w->pending_dst, sizeof w->pending_dst);
    if (second_view) {
        w->other_view = amp_view_create(amp_view_accelerator(v), AMP_QUEUING_AUTOMATIC);
        w->other_array = amp_array_create(w->other_view, &(amp_array_desc){.extent = amp_extent1(N),
                                                                           .type = AMP_INT});
        REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(w->other_array)));
        REQUIRE(w->other_view && w->other_array);
    }
    REQUIRE(w->inc && w->hv && w->array && w->texture && w->pending);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), w->inc, AMP_ARGS(AMP_ARRAY("a", w->array))));
}

#define REQUIRE_LOST(expr) REQUIRE_FAIL(expr, AMP_ERROR_DEVICE_LOST, device_name)
#define REQUIRE_NULL_LOST(expr) REQUIRE_NULL_FAIL(expr, AMP_ERROR_DEVICE_LOST, device_name)

/* The device of w is lost: every call that needs it fails, the host keeps its data. */
static void require_lost(device_work *w)
{
    amp_accelerator_view *v = w->view;
    REQUIRE_LOST(amp_view_flush(v));
    REQUIRE_LOST(amp_view_wait(v));
    REQUIRE_NULL_LOST(amp_view_create_marker(v));
    /* views of host memory: the last synchronized data stays */
    REQUIRE_LOST(amp_array_view_synchronize(w->hv));
    REQUIRE(filled(w->host, 101));
    REQUIRE_NULL_LOST(amp_array_view_synchronize_async(w->hv));
    REQUIRE_LOST(amp_parallel_for_each(v, amp_extent1(N), w->inc, AMP_ARGS(AMP_VIEW("a", w->hv))));
    REQUIRE(filled(w->host, 101));
    int fresh[N];
    fill(fresh, 300);
    amp_array_view *fv = amp_array_view_create(amp_extent1(N), AMP_INT, 0, fresh);
    REQUIRE(fv);
    REQUIRE_LOST(amp_parallel_for_each(v, amp_extent1(N), w->inc, AMP_ARGS(AMP_VIEW("a", fv))));
    REQUIRE_LOST(amp_array_view_synchronize_to(fv, v));
    REQUIRE_OK(amp_array_view_synchronize(fv)); /* its host copy is current: no device needed */
    amp_array_view_destroy(&fv);
    REQUIRE(filled(fresh, 300));
    /* the readback submitted before the loss: its destination is left alone */
    REQUIRE_LOST(amp_future_wait(w->pending));
    REQUIRE(amp_future_ready(w->pending));
    REQUIRE(filled(w->pending_dst, -1));
    /* arrays and copies */
    int dst[N], src[N];
    fill(dst, -2);
    fill(src, 400);
    REQUIRE_LOST(amp_copy_to_host(amp_array_as_view(w->array), dst, sizeof dst));
    REQUIRE(filled(dst, -2));
    REQUIRE_NULL_LOST(amp_copy_to_host_async(amp_array_as_view(w->array), dst, sizeof dst));
    REQUIRE(filled(dst, -2));
    REQUIRE_LOST(amp_copy_from_host(src, sizeof src, amp_array_as_view(w->array)));
    REQUIRE_LOST(amp_copy(amp_array_as_view(w->array), w->hv));
    REQUIRE(filled(w->host, 101));
    REQUIRE_NULL_LOST(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_INT}));
    /* kernels and textures */
    REQUIRE_NULL_LOST(amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> a",
                                                               .body = "a(idx) *= 5;"}));
    REQUIRE_NULL_LOST(amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(4, 4), .type = AMP_FLOAT}));
    float texels[8 * 8], untouched[8 * 8];
    for (int i = 0; i < 64; i++) texels[i] = untouched[i] = (float)i;
    REQUIRE_LOST(amp_texture_copy_to_host(w->texture, NULL, texels, sizeof texels));
    REQUIRE(memcmp(texels, untouched, sizeof texels) == 0);
    REQUIRE_LOST(amp_texture_copy_from_host(w->texture, NULL, texels, sizeof texels));
    REQUIRE_LOST(amp_texture_generate_mips(w->texture));
    amp_vulkan_image image;
    REQUIRE_LOST(amp_texture_get_vulkan_image(w->texture, &image));
    /* every view of the device */
    if (w->other_view) {
        REQUIRE_LOST(amp_view_flush(w->other_view));
        REQUIRE_LOST(amp_copy_from_host(src, sizeof src, amp_array_as_view(w->other_array)));
        REQUIRE_NULL_LOST(amp_view_create(amp_view_accelerator(v), AMP_QUEUING_AUTOMATIC));
    }
}

/* Destroys what lived on the lost device: nothing fails but the waits for its work. */
static void destroy_work(device_work *w)
{
    amp_future_destroy(&w->pending);
    amp_array_view_destroy(&w->hv);
    REQUIRE(filled(w->host, w->host_base)); /* the last view of host memory writes nothing back */
    amp_array_destroy(&w->array);
    amp_array_destroy(&w->other_array);
    amp_texture_destroy(&w->texture);
    amp_kernel_destroy(&w->inc);
    if (w->other_view) REQUIRE_LOST(amp_view_destroy(&w->other_view));
    REQUIRE(w->other_view == NULL && w->pending == NULL && w->hv == NULL && w->array == NULL);
}

/* Loses the device of w at its next submission: the flush of the work recorded. */
static void lose(device_work *w)
{
    amp_fault_lose_device();
    REQUIRE_LOST(amp_view_flush(w->view));
}

/* Loses the test's own device, then the accelerator's (see the top of the file). */
int main(void)
{
    test_begin();
    amp_accelerator_view *dv = test_view();
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_view_accelerator(dv), &info));
    snprintf(device_name, sizeof device_name, "\"%s\"", info.description);
    test_device own;
    if (!test_device_open(&own)) return test_end();
    amp_vulkan_device_desc desc = test_device_desc(&own);

    /* the test's own device is lost; the accelerator's works on */
    amp_accelerator_view *ev = amp_view_create_external(&desc);
    REQUIRE(ev);
    device_work w;
    make_work(&w, ev, false);
    lose(&w);
    require_lost(&w);
    check_works(dv);
    /* the view of host memory goes on on the other device once its host copy is
     * declared current */
    REQUIRE_OK(amp_array_view_refresh(w.hv));
    amp_kernel *k = inc_kernel(dv);
    REQUIRE_OK(amp_parallel_for_each(dv, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("a", w.hv))));
    REQUIRE_OK(amp_array_view_synchronize(w.hv));
    REQUIRE(filled(w.host, w.host_base = 102));
    amp_kernel_destroy(&k);
    destroy_work(&w);
    REQUIRE_LOST(amp_view_destroy(&ev)); /* its device closes with it */
    REQUIRE(ev == NULL);

    /* a new amp__device over the same VkDevice knows no loss */
    ev = amp_view_create_external(&desc);
    REQUIRE(ev);
    check_works(ev);

    /* the accelerator's device is lost; the external one works on */
    make_work(&w, dv, true);
    lose(&w);
    require_lost(&w);
    REQUIRE_NULL_LOST(amp_kernel_create(NULL, &(amp_kernel_desc){.params = "array_view<int, 1> a",
                                                                  .body = "a(idx) -= 1;"}));
    REQUIRE_NULL_LOST(amp_view_create(amp_view_accelerator(dv), AMP_QUEUING_IMMEDIATE));
    check_works(ev);
    destroy_work(&w);
    check_works(ev);

    /* a submission the driver refuses is tried again once the queue drained; refused
     * again, the call says why and the work in it is gone, so the device counts as
     * lost from then on */
    amp_accelerator_view *rv = amp_view_create_external(&desc);
    int data[N], dst[N];
    fill(data, 500);
    fill(dst, -3);
    amp_array *ra = rv ? amp_array_create(rv, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_INT}) : NULL;
    REQUIRE(rv && ra);
    if (ra) REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(ra))); /* recorded */
    amp_fault_refuse_submissions(1); /* refused once: tried again, and it goes through */
    REQUIRE_OK(amp_view_flush(rv));
    if (ra) REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ra), dst, sizeof dst));
    REQUIRE(filled(dst, 500));
    fill(dst, -3);
    if (ra) REQUIRE_OK(amp_copy_from_host(data, sizeof data, amp_array_as_view(ra))); /* recorded */
    amp_fault_refuse_submissions(2);
    REQUIRE_FAIL(amp_view_flush(rv), AMP_ERROR_OUT_OF_MEMORY, "vkQueueSubmit");
    if (ra) REQUIRE_LOST(amp_copy_to_host(amp_array_as_view(ra), dst, sizeof dst));
    REQUIRE(filled(dst, -3));
    amp_array_destroy(&ra);
    REQUIRE_LOST(amp_view_destroy(&rv));
    check_works(ev);

    REQUIRE_OK(amp_view_destroy(&ev));
    test_device_close(&own);
    return test_end();
}
