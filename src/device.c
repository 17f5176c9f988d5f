/* Device contexts: ampvk's own VkDevice per accelerator, or the application's. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

AMP_HIDDEN void amp__pipeline_cache_load(amp__device *d);

void amp__lock(amp__device *d) { pthread_mutex_lock(&d->lock); }
void amp__unlock(amp__device *d) { pthread_mutex_unlock(&d->lock); }

static bool has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *e = calloc(n ? n : 1, sizeof *e);
    if (!e) return false;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e);
    bool found = false;
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(e[i].extensionName, name) == 0) found = true;
    free(e);
    return found;
}

/* Fills what both kinds of device need: properties, memory, timeline, lock. */
static amp_status finish_device(amp__device *d)
{
    vkGetPhysicalDeviceProperties(d->physical, &d->props);
    vkGetPhysicalDeviceMemoryProperties(d->physical, &d->memory);
    const VkMemoryPropertyFlags shared = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t t = 0; t < d->memory.memoryTypeCount; t++)
        if ((d->memory.memoryTypes[t].propertyFlags & shared) == shared) d->shared_memory = true;
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&d->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    VkResult r = vkCreateSemaphore(d->device, &sci, NULL, &d->timeline);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateSemaphore(timeline)");
    amp__pipeline_cache_load(d);
    return AMP_OK;
}

amp__device *amp__device_open(amp_accelerator *acc, VkInstance inst, VkPhysicalDevice pd)
{
    amp__device *d = calloc(1, sizeof *d);
    if (!d) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory opening a device");
        return NULL;
    }
    d->instance = inst;
    d->physical = pd;
    d->accelerator = acc;

    /* A compute queue: prefer a family with compute and without graphics only if it is
     * the only one; the first compute-capable family is the usual choice. */
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, NULL);
    VkQueueFamilyProperties *fams = calloc(nf ? nf : 1, sizeof *fams);
    if (!fams) { free(d); amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory"); return NULL; }
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, fams);
    uint32_t fam = UINT32_MAX;
    for (uint32_t i = 0; i < nf && fam == UINT32_MAX; i++)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) fam = i;
    free(fams);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (fam == UINT32_MAX) {
        free(d);
        amp__fail(AMP_ERROR_UNSUPPORTED, "device \"%s\" has no compute queue", props.deviceName);
        return NULL;
    }
    d->queue_family = fam;

    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f12.timelineSemaphore || !f12.scalarBlockLayout) {
        free(d);
        amp__fail(AMP_ERROR_UNSUPPORTED, "device \"%s\" lacks the Vulkan 1.2 feature%s%s that ampvk needs",
                  props.deviceName, f12.timelineSemaphore ? "" : " timelineSemaphore",
                  f12.scalarBlockLayout ? "" : " scalarBlockLayout");
        return NULL;
    }
    /* Enable what kernels may use and the device has. */
    VkPhysicalDeviceVulkan12Features e12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .timelineSemaphore = VK_TRUE,
        .scalarBlockLayout = VK_TRUE,
        .storageBuffer8BitAccess = f12.storageBuffer8BitAccess,
        .uniformAndStorageBuffer8BitAccess = f12.uniformAndStorageBuffer8BitAccess,
        .shaderInt8 = f12.shaderInt8,
        .shaderFloat16 = f12.shaderFloat16,
        .hostQueryReset = f12.hostQueryReset,
        .vulkanMemoryModel = f12.vulkanMemoryModel,
        .vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope,
        .shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics,
        .shaderSharedInt64Atomics = f12.shaderSharedInt64Atomics,
    };
    VkPhysicalDeviceVulkan11Features e11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &e12,
        .storageBuffer16BitAccess = f11.storageBuffer16BitAccess,
        .uniformAndStorageBuffer16BitAccess = f11.uniformAndStorageBuffer16BitAccess,
    };
    VkPhysicalDeviceFeatures2 e2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &e11};
    e2.features.shaderFloat64 = f2.features.shaderFloat64;
    e2.features.shaderInt64 = f2.features.shaderInt64;
    e2.features.shaderInt16 = f2.features.shaderInt16;
    e2.features.shaderStorageImageWriteWithoutFormat = f2.features.shaderStorageImageWriteWithoutFormat;
    e2.features.shaderStorageImageReadWithoutFormat = f2.features.shaderStorageImageReadWithoutFormat;
    e2.features.shaderImageGatherExtended = f2.features.shaderImageGatherExtended;
    d->float64 = f2.features.shaderFloat64;
    d->int64 = f2.features.shaderInt64;

    const char *exts[4];
    uint32_t next = 0;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT eaf = af;
    if (has_extension(pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &af};
        vkGetPhysicalDeviceFeatures2(pd, &q);
        if (af.shaderBufferFloat32Atomics && af.shaderSharedFloat32Atomics) {
            eaf.shaderBufferFloat32Atomics = VK_TRUE;
            eaf.shaderSharedFloat32Atomics = VK_TRUE;
            eaf.shaderBufferFloat32AtomicAdd = af.shaderBufferFloat32AtomicAdd;
            eaf.shaderSharedFloat32AtomicAdd = af.shaderSharedFloat32AtomicAdd;
            eaf.pNext = e12.pNext;
            e12.pNext = &eaf;
            d->float_atomics = true;
        }
    }
    if (has_extension(pd, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) {
        exts[next++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
        d->host_import = true;
        VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &hp};
        vkGetPhysicalDeviceProperties2(pd, &p2);
        d->host_import_alignment = hp.minImportedHostPointerAlignment;
    }
    if (d->float_atomics) exts[next++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
    VkPhysicalDeviceCustomBorderColorFeaturesEXT cb = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
    if (has_extension(pd, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &cb};
        vkGetPhysicalDeviceFeatures2(pd, &q);
        if (cb.customBorderColors && cb.customBorderColorWithoutFormat) {
            cb.pNext = e12.pNext;
            e12.pNext = &cb;
            exts[next++] = VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME;
            d->custom_border = true;
        } else {
            cb.pNext = NULL;
        }
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = fam, .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &e2,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                              .enabledExtensionCount = next, .ppEnabledExtensionNames = exts};
    VkResult r = vkCreateDevice(pd, &dci, NULL, &d->device);
    if (r != VK_SUCCESS) {
        free(d);
        amp__vk_fail(r, "vkCreateDevice");
        return NULL;
    }
    vkGetDeviceQueue(d->device, fam, 0, &d->queue);
    if (finish_device(d) != AMP_OK) {
        vkDestroyDevice(d->device, NULL);
        free(d);
        return NULL;
    }
    amp__log(AMP_LOG_INFO, "opened \"%s\" (queue family %u)", props.deviceName, fam);
    return d;
}

amp__device *amp__device_wrap(const amp_vulkan_device_desc *desc)
{
    if (!desc || !desc->instance || !desc->physical_device || !desc->device || !desc->queue) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                  "amp_view_create_external: instance, physical_device, device and queue are all required");
        return NULL;
    }
    VkPhysicalDevice pd = desc->physical_device;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_2) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "device \"%s\" supports Vulkan %u.%u; ampvk needs 1.2", props.deviceName,
                  VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion));
        return NULL;
    }
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, NULL);
    if (desc->queue_family >= nf) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "queue family %u is outside the device's %u families",
                  desc->queue_family, nf);
        return NULL;
    }
    amp__device *d = calloc(1, sizeof *d);
    if (!d) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    d->external = true;
    d->instance = desc->instance;
    d->physical = pd;
    d->device = desc->device;
    d->queue = desc->queue;
    d->queue_family = desc->queue_family;
    VkPhysicalDeviceFeatures f;
    vkGetPhysicalDeviceFeatures(pd, &f);
    /* The application's enabled features are not queryable; ampvk assumes those
     * it documents as required are enabled and uses float64 only when supported. */
    d->float64 = f.shaderFloat64;
    d->int64 = f.shaderInt64;
    d->accelerator = amp__accelerator_for_physical(pd);
    if (finish_device(d) != AMP_OK) {
        free(d);
        return NULL;
    }
    return d;
}

AMP_HIDDEN void amp__kernels_release(amp__device *d);
AMP_HIDDEN void amp__samplers_release(amp__device *d);
AMP_HIDDEN void amp__mip_kernels_release(amp__device *d);
AMP_HIDDEN void amp__pipeline_cache_save(amp__device *d);

void amp__device_close(amp__device *d)
{
    if (!d) return;
    vkQueueWaitIdle(d->queue);
    amp__mip_kernels_release(d);
    amp__builtins_release(d);
    amp__pipeline_cache_save(d);
    amp__kernels_release(d);
    amp__samplers_release(d);
    while (d->staging) {
        amp__staging *s = d->staging;
        d->staging = s->next;
        amp__buffer_destroy(d, &s->buf);
        free(s);
    }
    amp__memory_release_all(d);
    if (d->pipeline_cache) vkDestroyPipelineCache(d->device, d->pipeline_cache, NULL);
    vkDestroySemaphore(d->device, d->timeline, NULL);
    if (!d->external) vkDestroyDevice(d->device, NULL);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

bool amp__device_serial_done(amp__device *d, uint64_t serial)
{
    if (serial <= d->done_serial) return true;
    uint64_t v = 0;
    if (vkGetSemaphoreCounterValue(d->device, d->timeline, &v) == VK_SUCCESS && v > d->done_serial)
        d->done_serial = v;
    return serial <= d->done_serial;
}

amp_status amp__device_wait_serial(amp__device *d, uint64_t serial, uint64_t timeout_ns)
{
    if (d->lost) return amp__fail(AMP_ERROR_DEVICE_LOST, "the Vulkan device was lost");
    if (amp__device_serial_done(d, serial)) return AMP_OK;
    /* Poll briefly before sleeping in the driver: a short kernel finishes sooner than
     * a blocking wait wakes up (tens of microseconds on common drivers). Not on a
     * CPU device, whose threads need the cores we would spin on. */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t spin_ns = timeout_ns < 200000 ? timeout_ns : 200000;
    if (d->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) spin_ns = 0; /* the CPU does the work */
    for (;;) {
        if (amp__device_serial_done(d, serial)) return AMP_OK;
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t el = (uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t.tv_nsec - t0.tv_nsec);
        if (el >= spin_ns) break;
    }
    VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                              .pSemaphores = &d->timeline, .pValues = &serial};
    VkResult r = vkWaitSemaphores(d->device, &wi, timeout_ns);
    if (r == VK_TIMEOUT) return amp__fail(AMP_ERROR_TIMEOUT, "wait timed out after %llu ns",
                                         (unsigned long long)timeout_ns);
    if (r == VK_ERROR_DEVICE_LOST) d->lost = AMP_ERROR_DEVICE_LOST;
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkWaitSemaphores");
    if (serial > d->done_serial) d->done_serial = serial;
    return AMP_OK;
}
