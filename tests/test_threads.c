/* Eight threads at once: each creates and destroys its own views, kernels, arrays,
 * array_views and textures, and dispatches both on one shared view and on views of
 * its own, checking every result exactly. Objects are per thread (array.h: a view
 * or array is used by one thread at a time); views and kernels may be shared
 * (accelerator.h, kernel.h) and are. Built and run under ThreadSanitizer too
 * (AMPVK_SANITIZE=thread), where it must be clean. */
#include <pthread.h>
#include <stdatomic.h>

#include "test.h"

enum { THREADS = 8, ROUNDS = 6, N = 1000 };

static amp_accelerator_view *shared_view;
static amp_kernel *shared_kernel; /* made on the shared view, dispatched by every thread */
static atomic_int failures, checks;

/* Records one check of a thread (test.h's counters belong to the main thread). */
static void check(bool ok, int thread, const char *what)
{
    atomic_fetch_add(&checks, 1);
    if (ok) return;
    atomic_fetch_add(&failures, 1);
    fprintf(stderr, "thread %d: %s failed: %s\n", thread, what, amp_last_error());
}

/* out(i) = in(i) * k + thread on view v, through an array_view pair; exact check. */
static void scale_on(amp_accelerator_view *v, amp_kernel *k, int thread, int round)
{
    static _Thread_local int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = i * (thread + 1) - round;
    amp_array_view *a = amp_array_view_create_const(amp_extent1(N), AMP_INT, 0, in);
    amp_array_view *b = amp_array_view_create(amp_extent1(N), AMP_INT, 0, out);
    check(a && b, thread, "array_view create");
    if (a && b) {
        amp_array_view_discard_data(b);
        check(amp_parallel_for_each(v, amp_extent1(N), k,
                                    AMP_ARGS(AMP_VIEW("in", a), AMP_VIEW("out", b), AMP_INT("k", 3),
                                             AMP_INT("t", thread))) == AMP_OK,
              thread, "parallel_for_each");
        check(amp_array_view_synchronize(b) == AMP_OK, thread, "synchronize");
        bool same = true;
        for (int i = 0; i < N; i++) same &= out[i] == in[i] * 3 + thread;
        check(same, thread, "scaled values");
    }
    amp_array_view_destroy(&a);
    amp_array_view_destroy(&b);
}

/* An array on the thread's own view: filled from the host, incremented by a kernel
 * of the thread's own, read back. */
static void array_round(amp_accelerator_view *v, amp_kernel *plus, int thread)
{
    int data[64], back[64];
    for (int i = 0; i < 64; i++) data[i] = thread * 1000 + i;
    amp_array *arr = amp_array_create(v, &(amp_array_desc){.extent = amp_extent2(8, 8), .type = AMP_INT,
                                                           .data = data, .data_size = sizeof data});
    check(arr != NULL, thread, "array create");
    if (!arr) return;
    check(amp_parallel_for_each(v, amp_extent2(8, 8), plus, AMP_ARGS(AMP_VIEW("a", amp_array_as_view(arr)))) ==
              AMP_OK,
          thread, "increment");
    check(amp_copy_to_host(amp_array_as_view(arr), back, sizeof back) == AMP_OK, thread, "copy to host");
    bool same = true;
    for (int i = 0; i < 64; i++) same &= back[i] == data[i] + 1;
    check(same, thread, "incremented array");
    amp_array_destroy(&arr);
}

/* A texture on view v: uploaded, inverted by a kernel into a second one, read back. */
static void texture_round(amp_accelerator_view *v, amp_kernel *invert, int thread)
{
    unsigned char px[16 * 16 * 4], back[16 * 16 * 4];
    for (int i = 0; i < (int)sizeof px; i++) px[i] = (unsigned char)(i * 7 + thread);
    amp_texture *src = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(16, 16), .type = AMP_UNORM_4,
                                                                 .bits_per_scalar_element = 8, .data = px,
                                                                 .data_size = sizeof px});
    amp_texture *dst = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(16, 16), .type = AMP_UNORM_4,
                                                                 .bits_per_scalar_element = 8});
    check(src && dst, thread, "texture create");
    if (src && dst) {
        check(amp_parallel_for_each(v, amp_extent2(16, 16), invert,
                                    AMP_ARGS(AMP_TEXTURE("src", src), AMP_TEXTURE("dst", dst))) == AMP_OK,
              thread, "invert");
        check(amp_texture_copy_to_host(dst, NULL, back, sizeof back) == AMP_OK, thread, "texture to host");
        bool same = true;
        for (int i = 0; i < (int)sizeof px; i++) same &= back[i] == 255 - px[i];
        check(same, thread, "inverted texels");
    }
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
}

/* One array_view used by every thread, each call serialized by the application's
 * own mutex, as array.h asks: every increment lands (the total is exact). */
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static int counter_data[THREADS];
static amp_array_view *counter;
static amp_kernel *bump;

static void bump_counter(int thread)
{
    pthread_mutex_lock(&counter_lock);
    check(amp_parallel_for_each(shared_view, amp_extent1(THREADS), bump, AMP_ARGS(AMP_VIEW("c", counter))) ==
              AMP_OK,
          thread, "bump the shared counter");
    if (thread % 2) check(amp_array_view_synchronize(counter) == AMP_OK, thread, "synchronize the shared counter");
    pthread_mutex_unlock(&counter_lock);
}

static void *worker(void *arg)
{
    int thread = (int)(intptr_t)arg;
    for (int round = 0; round < ROUNDS; round++) {
        amp_accelerator_view *own = amp_view_create(amp_view_accelerator(shared_view),
                                                    round % 2 ? AMP_QUEUING_IMMEDIATE : AMP_QUEUING_AUTOMATIC);
        check(own != NULL, thread, "view create");
        if (!own) continue;
        /* the same text in every thread: the kernel cache is shared and hit concurrently */
        amp_kernel *plus = amp_kernel_create(own, &(amp_kernel_desc){.params = "array_view<int, 2> a", .rank = 2,
                                                                     .body = "a(idx) += 1;"});
        amp_kernel *invert = amp_kernel_create(
            own, &(amp_kernel_desc){.params = "texture_view<const unorm_4, 2> src, writeonly_texture_view<unorm_4, 2> dst",
                                    .rank = 2, .body = "dst_set(idx, vec4(1.0) - src(idx).v);"});
        check(plus && invert, thread, "kernel create");
        scale_on(shared_view, shared_kernel, thread, round);
        if (plus) array_round(own, plus, thread);
        if (invert) texture_round(round % 3 ? own : shared_view, invert, thread);
        scale_on(own, shared_kernel, thread, round);
        bump_counter(thread);
        amp_kernel_destroy(&plus);
        amp_kernel_destroy(&invert);
        check(amp_view_destroy(&own) == AMP_OK, thread, "view destroy");
    }
    return NULL;
}

int main(void)
{
    test_begin();
    shared_view = test_view();
    shared_kernel = amp_kernel_create(shared_view, &(amp_kernel_desc){
        .params = "array_view<const int, 1> in, array_view<int, 1> out, int k, int t",
        .body = "out(idx) = in(idx) * k + t;"});
    REQUIRE(shared_kernel != NULL);
    if (!shared_kernel) return test_end();
    counter = amp_array_view_create(amp_extent1(THREADS), AMP_INT, 0, counter_data);
    bump = amp_kernel_create(shared_view, &(amp_kernel_desc){.params = "array_view<int, 1> c", .body = "c(idx) += idx + 1;"});
    REQUIRE(counter && bump);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) REQUIRE_INT(pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t), 0);
    for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
    amp_kernel_destroy(&shared_kernel);
    REQUIRE_OK(amp_array_view_synchronize(counter));
    for (int i = 0; i < THREADS; i++) REQUIRE_INT(counter_data[i], THREADS * ROUNDS * (i + 1));
    amp_array_view_destroy(&counter);
    amp_kernel_destroy(&bump);
    REQUIRE_INT(atomic_load(&failures), 0);
    REQUIRE(atomic_load(&checks) >= THREADS * ROUNDS * 10);
    test_checks += atomic_load(&checks);
    return test_end();
}
