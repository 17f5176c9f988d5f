/* Render-tool interop (ampvk/interop.h) on the test's own VkDevice, under the
 * validation layer with synchronization validation (AMPVK_VALIDATION=1, as ctest
 * runs it): every message about the test's device or ampvk's counts as a failure.
 *
 * The "application" here records and submits its own command buffers on its queue
 * (through the queue lock it gives ampvk) and hands textures and arrays to ampvk
 * and back with timeline semaphores only: between the hand-overs neither side
 * waits on the CPU. The test itself waits on the host only to check results. */
#include <pthread.h>
#include <vulkan/vulkan.h>

#include "test_device.h"

/* ---- the application ---- */

typedef struct app {
    test_device td;
    VkCommandPool pool, pool2;
    VkSemaphore timeline; /* the application's own */
    uint64_t value;       /* its last signalled (or to-be-signalled) value */
    pthread_mutex_t queue_lock;
    int locks, unlocks;
    bool locked;
} app;

static void lock_queue(void *user, uint32_t family, uint32_t index)
{
    app *a = user;
    REQUIRE_INT(family, a->td.family);
    REQUIRE_INT(index, 0);
    pthread_mutex_lock(&a->queue_lock);
    REQUIRE(!a->locked);
    a->locked = true;
    a->locks++;
}

static void unlock_queue(void *user, uint32_t family, uint32_t index)
{
    app *a = user;
    (void)family;
    (void)index;
    REQUIRE(a->locked);
    a->locked = false;
    a->unlocks++;
    pthread_mutex_unlock(&a->queue_lock);
}

static VkCommandBuffer app_begin(app *a, bool second_family)
{
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = second_family ? a->pool2 : a->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    REQUIRE_INT(vkAllocateCommandBuffers(a->td.device, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    REQUIRE_INT(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    return cmd;
}

/* Submits cmd after waiting (at all stages) for `wait` (semaphore 0: none), and
 * signals the application's timeline at a new value, which it returns. */
static uint64_t app_submit(app *a, VkCommandBuffer cmd, amp_vulkan_semaphore wait, bool second_family)
{
    REQUIRE_INT(vkEndCommandBuffer(cmd), VK_SUCCESS);
    uint64_t signal = ++a->value;
    VkSemaphore ws = (VkSemaphore)(uintptr_t)wait.semaphore;
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                        .waitSemaphoreValueCount = ws ? 1 : 0, .pWaitSemaphoreValues = &wait.value,
                                        .signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &signal};
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ts, .waitSemaphoreCount = ws ? 1 : 0,
                       .pWaitSemaphores = &ws, .pWaitDstStageMask = &stage, .commandBufferCount = 1,
                       .pCommandBuffers = &cmd, .signalSemaphoreCount = 1, .pSignalSemaphores = &a->timeline};
    if (second_family) {
        REQUIRE_INT(vkQueueSubmit(a->td.queue2, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    } else {
        pthread_mutex_lock(&a->queue_lock);
        REQUIRE_INT(vkQueueSubmit(a->td.queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
        pthread_mutex_unlock(&a->queue_lock);
    }
    return signal;
}

/* The test's check: waits on the host until the semaphore reaches value. */
static void host_wait(app *a, VkSemaphore s, uint64_t value)
{
    VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1, .pSemaphores = &s,
                              .pValues = &value};
    REQUIRE_INT(vkWaitSemaphores(a->td.device, &wi, 10ull * 1000 * 1000 * 1000), VK_SUCCESS);
}

static amp_vulkan_semaphore app_point(const app *a, uint64_t value)
{
    return (amp_vulkan_semaphore){(uint64_t)(uintptr_t)a->timeline, value};
}

static uint32_t memory_type(app *a, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(a->td.physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
    return 0;
}

typedef struct app_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
} app_buffer;

/* A host-visible buffer of the application (mapped). */
static app_buffer buffer_new(app *a, VkDeviceSize size, VkBufferUsageFlags usage)
{
    app_buffer b = {0};
    VkBufferCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    REQUIRE_INT(vkCreateBuffer(a->td.device, &ci, NULL, &b.buffer), VK_SUCCESS);
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(a->td.device, b.buffer, &mr);
    VkMemoryAllocateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
        .memoryTypeIndex = memory_type(a, mr.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    REQUIRE_INT(vkAllocateMemory(a->td.device, &mi, NULL, &b.memory), VK_SUCCESS);
    REQUIRE_INT(vkBindBufferMemory(a->td.device, b.buffer, b.memory, 0), VK_SUCCESS);
    REQUIRE_INT(vkMapMemory(a->td.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), VK_SUCCESS);
    return b;
}

static void buffer_free(app *a, app_buffer *b)
{
    vkDestroyBuffer(a->td.device, b->buffer, NULL);
    vkFreeMemory(a->td.device, b->memory, NULL);
}

/* Records a copy of [offset, offset + size) of src into dst and makes it visible to the host. */
static void record_readback(VkCommandBuffer cmd, VkBuffer src, VkDeviceSize offset, VkDeviceSize size, VkBuffer dst)
{
    VkBufferCopy c = {offset, 0, size};
    vkCmdCopyBuffer(cmd, src, dst, 1, &c);
    VkBufferMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = dst, .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &hb, 0, NULL);
}

static bool app_open(app *a)
{
    *a = (app){0};
    pthread_mutex_init(&a->queue_lock, NULL);
    if (!test_device_open(&a->td)) return false;
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = a->td.family};
    REQUIRE_INT(vkCreateCommandPool(a->td.device, &pci, NULL, &a->pool), VK_SUCCESS);
    if (a->td.family2 != UINT32_MAX) {
        pci.queueFamilyIndex = a->td.family2;
        REQUIRE_INT(vkCreateCommandPool(a->td.device, &pci, NULL, &a->pool2), VK_SUCCESS);
    }
    VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    REQUIRE_INT(vkCreateSemaphore(a->td.device, &sci, NULL, &a->timeline), VK_SUCCESS);
    return true;
}

static void app_close(app *a)
{
    if (a->td.device) {
        REQUIRE_INT(vkDeviceWaitIdle(a->td.device), VK_SUCCESS);
        vkDestroySemaphore(a->td.device, a->timeline, NULL);
        vkDestroyCommandPool(a->td.device, a->pool, NULL);
        if (a->pool2) vkDestroyCommandPool(a->td.device, a->pool2, NULL);
    }
    test_device_close(&a->td);
    pthread_mutex_destroy(&a->queue_lock);
}

static amp_kernel *add_one_kernel(amp_accelerator_view *v)
{
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.rank = 2, .params = "texture<uint, 2> t",
                                                            .body = "t_set(idx, t(idx) + 1u);"});
    REQUIRE(k != NULL);
    return k;
}

static int count_not(const uint32_t *p, int n, uint32_t want)
{
    int bad = 0;
    for (int i = 0; i < n; i++) bad += p[i] != want;
    return bad;
}

/* ---- textures ---- */

enum { W = 16, H = 8 };

/* An ampvk texture to the application and back: the application clears it on its
 * queue between ampvk's kernels; the layouts change on both sides. */
static void test_texture_round_trip(app *a, amp_accelerator_view *v)
{
    uint32_t init[W * H], out[W * H];
    for (int i = 0; i < W * H; i++) init[i] = 1;
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UINT,
                                                               .data = init, .data_size = sizeof init});
    amp_kernel *k = add_one_kernel(v);
    REQUIRE(t && k);
    if (!t || !k) return;
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE("t", t))));

    amp_vulkan_image img;
    REQUIRE_OK(amp_texture_export(t, &(amp_vulkan_access){.queue_family = a->td.family,
                                                          .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
                                  &img));
    REQUIRE(amp_texture_is_exported(t));
    REQUIRE(img.image != 0 && img.image_view != 0 && img.ready.semaphore != 0 && img.ready.value > 0);
    REQUIRE_INT(img.layout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    REQUIRE_INT(img.format, VK_FORMAT_R32_UINT);
    REQUIRE_INT(img.queue_family, a->td.family);
    REQUIRE_INT(img.mip_levels, 1);
    REQUIRE(amp_extent_equal(img.extent, amp_extent2(H, W)));

    /* held: ampvk refuses to touch it */
    REQUIRE_FAIL(amp_texture_copy_to_host(t, NULL, out, sizeof out), AMP_ERROR_INVALID_STATE,
                 "held by the application");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE("t", t))),
                 AMP_ERROR_INVALID_STATE, "amp_texture_import");
    REQUIRE_FAIL(amp_texture_export(t, NULL, &img), AMP_ERROR_INVALID_STATE, "held");
    REQUIRE_FAIL(amp_texture_get_vulkan_image(t, &img), AMP_ERROR_INVALID_STATE, "held");

    /* the application's pass: after ampvk's point, clear to 40 (it stays in TRANSFER_DST) */
    VkCommandBuffer cmd = app_begin(a, false);
    VkClearColorValue c = {.uint32 = {40, 0, 0, 0}};
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, (VkImage)(uintptr_t)img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &all);
    uint64_t done = app_submit(a, cmd, img.ready, false);

    /* back to ampvk after the application's semaphore; its kernel adds 1 */
    REQUIRE_OK(amp_texture_import(t, &(amp_vulkan_access){.queue_family = a->td.family,
                                                          .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                                          .wait = app_point(a, done)}));
    REQUIRE(!amp_texture_is_exported(t));
    REQUIRE_FAIL(amp_texture_import(t, &(amp_vulkan_access){0}), AMP_ERROR_INVALID_STATE, "not held");
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE("t", t))));
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, out, sizeof out));
    REQUIRE_INT(count_not(out, W * H, 41), 0);

    /* exported in GENERAL (access NULL) and taken back unchanged (layout 0: as exported) */
    REQUIRE_OK(amp_texture_export(t, NULL, &img));
    REQUIRE_INT(img.layout, VK_IMAGE_LAYOUT_GENERAL);
    REQUIRE_OK(amp_texture_import(t, &(amp_vulkan_access){.queue_family = a->td.family, .wait = img.ready}));
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, out, sizeof out));
    REQUIRE_INT(count_not(out, W * H, 41), 0);

    /* bad hand-overs: nothing changes */
    REQUIRE_FAIL(amp_texture_export(t, &(amp_vulkan_access){.queue_family = 99}, &img), AMP_ERROR_INVALID_ARGUMENT,
                 "queue family 99 is outside");
    REQUIRE_FAIL(amp_texture_export(t, &(amp_vulkan_access){.layout = VK_IMAGE_LAYOUT_PREINITIALIZED}, &img),
                 AMP_ERROR_INVALID_ARGUMENT, "layout 8");
    REQUIRE(!amp_texture_is_exported(t));
    REQUIRE_FAIL(amp_texture_export(NULL, NULL, &img), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_kernel_destroy(&k);
    amp_texture_destroy(&t);
}

/* The wait is on the GPU: ampvk's work after an import whose semaphore the
 * application has not signalled yet is queued, not run and not waited for. */
static void test_gpu_side_wait(app *a, amp_accelerator_view *v)
{
    uint32_t out[W * H];
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UINT});
    amp_kernel *k = add_one_kernel(v);
    REQUIRE(t && k);
    if (!t || !k) return;
    amp_vulkan_image img;
    REQUIRE_OK(amp_texture_export(t, &(amp_vulkan_access){.queue_family = a->td.family}, &img));
    uint64_t later = a->value + 10; /* the host signals it below */
    REQUIRE_OK(amp_texture_import(t, &(amp_vulkan_access){.queue_family = a->td.family, .wait = app_point(a, later)}));
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE("t", t))));
    amp_future *f = amp_view_create_marker(v);
    REQUIRE(f != NULL);
    if (f) REQUIRE_FAIL(amp_future_wait_for(f, 50 * 1000 * 1000), AMP_ERROR_TIMEOUT, "timed out");
    VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = a->timeline,
                                .value = later};
    REQUIRE_INT(vkSignalSemaphore(a->td.device, &si), VK_SUCCESS);
    a->value = later;
    if (f) REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, out, sizeof out));
    REQUIRE_INT(count_not(out, W * H, 1), 0);
    amp_kernel_destroy(&k);
    amp_texture_destroy(&t);
}

/* The application's image wrapped after its own clear, used by ampvk, and handed
 * back for a copy the application reads. */
static void test_wrapped_image(app *a, amp_accelerator_view *v)
{
    VkDevice dev = a->td.device;
    VkImageCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
                            .format = VK_FORMAT_R32_UINT, .extent = {W, H, 1}, .mipLevels = 1, .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage image;
    REQUIRE_INT(vkCreateImage(dev, &ci, NULL, &image), VK_SUCCESS);
    VkMemoryRequirements mr;
    vkGetImageMemoryRequirements(dev, image, &mr);
    VkMemoryAllocateInfo mi = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
                               .memoryTypeIndex = memory_type(a, mr.memoryTypeBits, 0)};
    VkDeviceMemory mem;
    REQUIRE_INT(vkAllocateMemory(dev, &mi, NULL, &mem), VK_SUCCESS);
    REQUIRE_INT(vkBindImageMemory(dev, image, mem, 0), VK_SUCCESS);

    VkCommandBuffer cmd = app_begin(a, false);
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageMemoryBarrier to_dst = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                   .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                   .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = image,
                                   .subresourceRange = all};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
                         1, &to_dst);
    VkClearColorValue c = {.uint32 = {3, 0, 0, 0}};
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &all);
    uint64_t cleared = app_submit(a, cmd, (amp_vulkan_semaphore){0}, false);

    amp_texture *t = amp_texture_wrap_vulkan_image(
        v, &(amp_texture_wrap_desc){.image = (uint64_t)(uintptr_t)image, .format = VK_FORMAT_R32_UINT,
                                    .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, .extent = amp_extent2(H, W),
                                    .access = {.queue_family = a->td.family, .wait = app_point(a, cleared)}});
    amp_kernel *k = add_one_kernel(v);
    REQUIRE(t && k);
    if (t && k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE("t", t))));
        /* handed back for a copy into the application's buffer */
        amp_vulkan_image img;
        REQUIRE_OK(amp_texture_export(t, &(amp_vulkan_access){.queue_family = a->td.family,
                                                              .layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
                                      &img));
        REQUIRE(img.image == (uint64_t)(uintptr_t)image);
        app_buffer rb = buffer_new(a, sizeof(uint32_t) * W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        cmd = app_begin(a, false);
        VkBufferImageCopy bc = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {W, H, 1}};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb.buffer, 1, &bc);
        VkBufferMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                    .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                    .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = rb.buffer,
                                    .size = VK_WHOLE_SIZE};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &hb, 0,
                             NULL);
        uint64_t copied = app_submit(a, cmd, img.ready, false);
        host_wait(a, a->timeline, copied);
        REQUIRE_INT(count_not(rb.mapped, W * H, 4), 0);
        /* taken back by ampvk before it goes: destroying never frees the image */
        REQUIRE_OK(amp_texture_import(t, &(amp_vulkan_access){.queue_family = a->td.family,
                                                              .wait = app_point(a, copied)}));
        buffer_free(a, &rb);
    }
    REQUIRE_NULL_FAIL(amp_texture_wrap_vulkan_image(v, &(amp_texture_wrap_desc){
                          .image = (uint64_t)(uintptr_t)image, .format = VK_FORMAT_R32_UINT,
                          .layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, .extent = amp_extent2(H, W)}),
                      AMP_ERROR_INVALID_ARGUMENT, "layout 3");
    amp_kernel_destroy(&k);
    amp_texture_destroy(&t);
    REQUIRE_INT(vkDeviceWaitIdle(dev), VK_SUCCESS);
    vkDestroyImage(dev, image, NULL);
    vkFreeMemory(dev, mem, NULL);
}

/* ---- arrays ---- */

enum { N = 64 };

/* The application's buffer, at an offset, as an array: filled by the application,
 * changed by an ampvk kernel, read back by the application, refilled in part, and
 * read by ampvk. */
static void test_wrapped_buffer(app *a, amp_accelerator_view *v)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(a->td.physical, &props);
    VkDeviceSize offset = props.limits.minStorageBufferOffsetAlignment;
    if (offset < 256) offset = 256;
    VkDeviceSize bytes = N * sizeof(uint32_t);
    app_buffer buf = buffer_new(a, offset + bytes + 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    app_buffer rb = buffer_new(a, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkCommandBuffer cmd = app_begin(a, false);
    vkCmdFillBuffer(cmd, buf.buffer, 0, offset, 0xDEADBEEF); /* before the array: never touched by ampvk */
    vkCmdFillBuffer(cmd, buf.buffer, offset, bytes, 5);
    uint64_t filled = app_submit(a, cmd, (amp_vulkan_semaphore){0}, false);

    amp_array *arr = amp_array_wrap_vulkan_buffer(
        v, &(amp_array_wrap_desc){.buffer = (uint64_t)(uintptr_t)buf.buffer, .offset = offset, .size = bytes + 64,
                                  .extent = amp_extent1(N), .type = AMP_UINT,
                                  .access = {.queue_family = a->td.family, .wait = app_point(a, filled)}});
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<uint, 1> x",
                                                            .body = "x(idx) = x(idx) * 3u + uint(idx.x);"});
    REQUIRE(arr && k);
    if (arr && k) {
        REQUIRE_INT(amp_array_cpu_access_type(arr), AMP_ACCESS_NONE);
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", amp_array_as_view(arr)))));
        amp_vulkan_buffer vb;
        REQUIRE_OK(amp_array_export(arr, &(amp_vulkan_access){.queue_family = a->td.family}, &vb));
        REQUIRE(amp_array_is_exported(arr));
        REQUIRE(vb.buffer == (uint64_t)(uintptr_t)buf.buffer);
        REQUIRE_INT(vb.offset, offset);
        REQUIRE_INT(vb.size, bytes);
        uint32_t out[N];
        REQUIRE_FAIL(amp_copy_to_host(amp_array_as_view(arr), out, sizeof out), AMP_ERROR_INVALID_STATE,
                     "held by the application");
        REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", amp_array_as_view(arr)))),
                     AMP_ERROR_INVALID_STATE, "amp_array_import");

        /* the application reads ampvk's result and overwrites the first 8 elements */
        cmd = app_begin(a, false);
        record_readback(cmd, buf.buffer, vb.offset, vb.size, rb.buffer);
        VkBufferMemoryBarrier war = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                     .srcAccessMask = 0, .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                     .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = buf.buffer,
                                     .offset = offset, .size = bytes};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 1, &war,
                             0, NULL);
        vkCmdFillBuffer(cmd, buf.buffer, offset, 8 * sizeof(uint32_t), 1000);
        uint64_t used = app_submit(a, cmd, vb.ready, false);
        host_wait(a, a->timeline, used);
        const uint32_t *got = rb.mapped;
        int bad = 0;
        for (int i = 0; i < N; i++) bad += got[i] != 15u + (uint32_t)i;
        REQUIRE_INT(bad, 0);
        REQUIRE_INT(((const uint32_t *)buf.mapped)[0], 0xDEADBEEF); /* before the range: untouched */

        REQUIRE_OK(amp_array_import(arr, &(amp_vulkan_access){.queue_family = a->td.family,
                                                              .wait = app_point(a, used)}));
        REQUIRE_OK(amp_copy_to_host(amp_array_as_view(arr), out, sizeof out));
        bad = 0;
        for (int i = 0; i < N; i++) bad += out[i] != (i < 8 ? 1000u : 15u + (uint32_t)i);
        REQUIRE_INT(bad, 0);
        REQUIRE_FAIL(amp_array_import(arr, &(amp_vulkan_access){0}), AMP_ERROR_INVALID_STATE, "not held");
    }
    /* bad wraps */
    REQUIRE_NULL_FAIL(amp_array_wrap_vulkan_buffer(v, &(amp_array_wrap_desc){
                          .buffer = (uint64_t)(uintptr_t)buf.buffer, .offset = offset + 2, .extent = amp_extent1(N),
                          .type = AMP_UINT}),
                      AMP_ERROR_INVALID_ARGUMENT, "is not a multiple of");
    REQUIRE_NULL_FAIL(amp_array_wrap_vulkan_buffer(v, &(amp_array_wrap_desc){
                          .buffer = (uint64_t)(uintptr_t)buf.buffer, .offset = offset, .size = 16,
                          .extent = amp_extent1(N), .type = AMP_UINT}),
                      AMP_ERROR_INVALID_ARGUMENT, "size 16 is smaller than the array's 256 bytes");
    REQUIRE_NULL_FAIL(amp_array_wrap_vulkan_buffer(v, &(amp_array_wrap_desc){.extent = amp_extent1(N),
                                                                              .type = AMP_UINT}),
                      AMP_ERROR_INVALID_ARGUMENT, "a VkBuffer is required");
    amp_kernel_destroy(&k);
    amp_array_destroy(&arr); /* the buffer stays the application's */
    REQUIRE_INT(vkDeviceWaitIdle(a->td.device), VK_SUCCESS);
    buffer_free(a, &buf);
    buffer_free(a, &rb);
}

/* An ownership transfer to a queue of another family and back (where the device
 * has one: not on lavapipe). */
static void test_family_transfer(app *a, amp_accelerator_view *v)
{
    if (a->td.family2 == UINT32_MAX) {
        fprintf(stderr, "note: one queue family here; the ownership transfer is not exercised\n");
        return;
    }
    uint32_t init[N];
    for (int i = 0; i < N; i++) init[i] = 7 * (uint32_t)i;
    amp_array *arr = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_UINT,
                                                           .data = init, .cpu_access = AMP_ACCESS_NONE});
    REQUIRE(arr != NULL);
    if (!arr) return;
    amp_vulkan_buffer vb;
    REQUIRE_OK(amp_array_export(arr, &(amp_vulkan_access){.queue_family = a->td.family2}, &vb));
    REQUIRE_INT(vb.queue_family, a->td.family2);
    app_buffer rb = buffer_new(a, vb.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer b = (VkBuffer)(uintptr_t)vb.buffer;
    VkCommandBuffer cmd = app_begin(a, true);
    VkBufferMemoryBarrier acquire = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                     .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                                     .srcQueueFamilyIndex = a->td.family, .dstQueueFamilyIndex = a->td.family2,
                                     .buffer = b, .offset = 0, .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 1,
                         &acquire, 0, NULL);
    record_readback(cmd, b, vb.offset, vb.size, rb.buffer);
    VkBufferMemoryBarrier release = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                     .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                     .srcQueueFamilyIndex = a->td.family2, .dstQueueFamilyIndex = a->td.family,
                                     .buffer = b, .offset = 0, .size = VK_WHOLE_SIZE};
    VkBufferMemoryBarrier war = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                 .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                 .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                 .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = b, .offset = 0,
                                 .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 1, &war, 0,
                         NULL);
    vkCmdFillBuffer(cmd, b, vb.offset, 4 * sizeof(uint32_t), 9);
    VkBufferMemoryBarrier fill_done = release;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL, 1,
                         &fill_done, 0, NULL);
    uint64_t done = app_submit(a, cmd, vb.ready, true);
    REQUIRE_OK(amp_array_import(arr, &(amp_vulkan_access){.queue_family = a->td.family2,
                                                          .wait = app_point(a, done)}));
    uint32_t out[N];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(arr), out, sizeof out));
    const uint32_t *got = rb.mapped;
    int bad = 0;
    for (int i = 0; i < N; i++) bad += got[i] != 7u * (uint32_t)i || out[i] != (i < 4 ? 9u : 7u * (uint32_t)i);
    REQUIRE_INT(bad, 0);
    amp_array_destroy(&arr);
    REQUIRE_INT(vkDeviceWaitIdle(a->td.device), VK_SUCCESS);
    buffer_free(a, &rb);
}

/* ---- semaphores around whole stretches of work ---- */

static void test_view_semaphores(app *a, amp_accelerator_view *v)
{
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<uint, 1> x",
                                                            .body = "x(idx) = x(idx) + 2u;"});
    uint32_t zeros[N] = {0};
    amp_array *arr = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_UINT,
                                                           .data = zeros, .cpu_access = AMP_ACCESS_NONE});
    REQUIRE(k && arr);
    if (!k || !arr) return;
    amp_array_view *x = amp_array_as_view(arr);
    /* ampvk's later work waits for the application's point; no CPU wait */
    uint64_t later = a->value + 5;
    REQUIRE_OK(amp_view_wait_semaphore(v, app_point(a, later)));
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", x))));
    /* ampvk signals the application's semaphore after its work */
    uint64_t signalled = later + 1;
    REQUIRE_OK(amp_view_signal_semaphore(v, app_point(a, signalled)));
    uint64_t counter = 0;
    REQUIRE_INT(vkGetSemaphoreCounterValue(a->td.device, a->timeline, &counter), VK_SUCCESS);
    REQUIRE(counter < later);
    VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = a->timeline,
                                .value = later};
    REQUIRE_INT(vkSignalSemaphore(a->td.device, &si), VK_SUCCESS);
    host_wait(a, a->timeline, signalled);
    a->value = signalled;
    /* ampvk's own point, waited for by an application submission */
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", x))));
    amp_vulkan_semaphore tl;
    REQUIRE_OK(amp_view_timeline(v, &tl));
    REQUIRE(tl.semaphore != 0 && tl.value > 0);
    uint64_t after = app_submit(a, app_begin(a, false), tl, false);
    host_wait(a, a->timeline, after);
    uint32_t out[N];
    REQUIRE_OK(amp_copy_to_host(x, out, sizeof out));
    REQUIRE_INT(count_not(out, N, 4), 0);
    REQUIRE_FAIL(amp_view_wait_semaphore(v, (amp_vulkan_semaphore){0}), AMP_ERROR_INVALID_ARGUMENT, "no semaphore");
    REQUIRE_FAIL(amp_view_signal_semaphore(NULL, app_point(a, 1)), AMP_ERROR_INVALID_ARGUMENT, "NULL view");
    REQUIRE_FAIL(amp_view_timeline(v, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_kernel_destroy(&k);
    amp_array_destroy(&arr);
}

/* ---- two threads on one queue, and a view on another queue ---- */

typedef struct submitter {
    app *a;
    int count;
} submitter;

/* The application's render thread: empty submissions on the shared queue, under the
 * same lock ampvk takes (the validation layer reports unsynchronized queue use). */
static void *app_thread(void *arg)
{
    submitter *s = arg;
    for (int i = 0; i < s->count; i++) app_submit(s->a, app_begin(s->a, false), (amp_vulkan_semaphore){0}, false);
    return NULL;
}

static void test_threads_on_one_queue(app *a, amp_accelerator_view *v)
{
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<uint, 1> x",
                                                            .body = "x(idx) = x(idx) + 1u;"});
    uint32_t zeros[N] = {0};
    amp_array *arr = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_UINT,
                                                           .data = zeros, .cpu_access = AMP_ACCESS_NONE});
    REQUIRE(k && arr);
    if (!k || !arr) return;
    int locks = a->locks;
    submitter s = {a, 100};
    pthread_t th;
    REQUIRE_INT(pthread_create(&th, NULL, app_thread, &s), 0);
    for (int i = 0; i < 100; i++) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", amp_array_as_view(arr)))));
        REQUIRE_OK(amp_view_flush(v));
    }
    pthread_join(th, NULL);
    uint32_t out[N];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(arr), out, sizeof out));
    REQUIRE_INT(count_not(out, N, 100), 0);
    REQUIRE(a->locks - locks >= 100);
    host_wait(a, a->timeline, a->value);
    amp_kernel_destroy(&k);
    amp_array_destroy(&arr);
}

/* A view on a second queue of the application's family (where there is one): its
 * work reaches the application's queue through the exported point. */
static void test_second_queue(app *a)
{
    if (!a->td.queue_b) {
        fprintf(stderr, "note: one queue in the family here; the view on a second queue is not exercised\n");
        return;
    }
    amp_vulkan_device_desc desc = test_device_desc(&a->td);
    desc.queue = a->td.queue_b;
    desc.queue_index = 1;
    amp_accelerator_view *v2 = amp_view_create_external(&desc);
    REQUIRE(v2 != NULL);
    if (!v2) return;
    amp_kernel *k = amp_kernel_create(v2, &(amp_kernel_desc){.params = "array_view<uint, 1> x",
                                                             .body = "x(idx) = uint(idx.x) * 11u;"});
    amp_array *arr = amp_array_create(v2, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_UINT,
                                                            .cpu_access = AMP_ACCESS_NONE});
    REQUIRE(k && arr);
    if (k && arr) {
        REQUIRE_OK(amp_parallel_for_each(v2, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", amp_array_as_view(arr)))));
        amp_vulkan_buffer vb;
        REQUIRE_OK(amp_array_export(arr, &(amp_vulkan_access){.queue_family = a->td.family}, &vb));
        app_buffer rb = buffer_new(a, vb.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        VkCommandBuffer cmd = app_begin(a, false);
        record_readback(cmd, (VkBuffer)(uintptr_t)vb.buffer, vb.offset, vb.size, rb.buffer);
        uint64_t done = app_submit(a, cmd, vb.ready, false);
        host_wait(a, a->timeline, done);
        int bad = 0;
        for (int i = 0; i < N; i++) bad += ((const uint32_t *)rb.mapped)[i] != 11u * (uint32_t)i;
        REQUIRE_INT(bad, 0);
        REQUIRE_OK(amp_array_import(arr, &(amp_vulkan_access){.queue_family = a->td.family,
                                                              .wait = app_point(a, done)}));
        buffer_free(a, &rb);
    }
    amp_kernel_destroy(&k);
    amp_array_destroy(&arr);
    REQUIRE_OK(amp_view_destroy(&v2));
}

int main(void)
{
    test_begin();
    app a;
    if (!app_open(&a)) {
        app_close(&a);
        return test_end();
    }
    amp_vulkan_device_desc desc = test_device_desc(&a.td);
    desc.lock_queue = lock_queue;
    desc.unlock_queue = unlock_queue;
    desc.queue_user = &a;
    amp_vulkan_device_desc half = desc;
    half.unlock_queue = NULL;
    REQUIRE_NULL_FAIL(amp_view_create_external(&half), AMP_ERROR_INVALID_ARGUMENT, "go together");
    half = desc;
    half.queue_index = 999;
    REQUIRE_NULL_FAIL(amp_view_create_external(&half), AMP_ERROR_INVALID_ARGUMENT, "queue_index 999 is outside");
    amp_accelerator_view *v = amp_view_create_external(&desc);
    REQUIRE(v != NULL);
    if (v) {
        test_texture_round_trip(&a, v);
        test_gpu_side_wait(&a, v);
        test_wrapped_image(&a, v);
        test_wrapped_buffer(&a, v);
        test_family_transfer(&a, v);
        test_view_semaphores(&a, v);
        test_threads_on_one_queue(&a, v);
        REQUIRE_OK(amp_view_destroy(&v));
    }
    test_second_queue(&a);
    /* ampvk used the queue only under the application's lock */
    REQUIRE(a.locks > 0);
    REQUIRE_INT(a.locks, a.unlocks);
    app_close(&a);
    REQUIRE_INT(amp_validation_message_count(), 0);
    return test_end();
}
