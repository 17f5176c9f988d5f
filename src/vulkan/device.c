/* Device contexts: ampvk's own VkDevice per accelerator, or the application's. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vulkan/gpu.h"

void amp__lock(amp__device *d)
{
    pthread_mutex_lock(&d->lock);
    d->lock_depth++;
}

void amp__unlock(amp__device *d)
{
    d->lock_depth--;
    pthread_mutex_unlock(&d->lock);
}

void amp__queue_lock(amp__device *d)
{
    if (d->lock_queue) d->lock_queue(d->queue_user, d->queue_family, d->queue_index);
}

void amp__queue_unlock(amp__device *d)
{
    if (d->unlock_queue) d->unlock_queue(d->queue_user, d->queue_family, d->queue_index);
}

/* True if the list of n extensions has name. */
static bool has_extension(const VkExtensionProperties *e, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(e[i].extensionName, name) == 0) return true;
    return false;
}

/* Fills the property structures chained from `chain` (their sTypes set) for pd. */
static void chained_properties(VkPhysicalDevice pd, void *chain)
{
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = chain};
    vkGetPhysicalDeviceProperties2(pd, &p2);
}

/* Fills what both kinds of device need: properties, memory, timeline, lock. */
static amp_status finish_device(amp__device *d)
{
    vkGetPhysicalDeviceProperties(d->physical, &d->props);
    VkPhysicalDeviceSubgroupProperties sub = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    chained_properties(d->physical, &sub);
    VkSubgroupFeatureFlags ops = VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT;
    if ((sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (sub.supportedOperations & ops) == ops)
        d->subgroup_shuffle_size = sub.subgroupSize;
    VkQueueFamilyProperties fams[64];
    d->family_count = 64;
    vkGetPhysicalDeviceQueueFamilyProperties(d->physical, &d->family_count, fams);
    uint32_t bits = d->queue_family < d->family_count ? fams[d->queue_family].timestampValidBits : 0;
    d->timestamp_mask = bits >= 64 ? UINT64_MAX : bits ? (UINT64_C(1) << bits) - 1 : 0;
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

/* The first queue family with compute. */
static amp_status find_compute_family(VkPhysicalDevice pd, const char *name, uint32_t *family)
{
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, NULL);
    VkQueueFamilyProperties *fams = calloc(nf ? nf : 1, sizeof *fams);
    if (!fams) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, fams);
    uint32_t fam = UINT32_MAX;
    for (uint32_t i = 0; i < nf && fam == UINT32_MAX; i++)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) fam = i;
    free(fams);
    if (fam == UINT32_MAX) return amp__fail(AMP_ERROR_UNSUPPORTED, "device \"%s\" has no compute queue", name);
    *family = fam;
    return AMP_OK;
}

/* What vkCreateDevice is asked to enable: a feature chain and extensions. */
typedef struct device_request {
    VkPhysicalDeviceFeatures2 f2;
    VkPhysicalDeviceVulkan11Features f11;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
    VkPhysicalDeviceCustomBorderColorFeaturesEXT border;
    VkPhysicalDeviceCooperativeMatrixFeaturesNV coop;
    const char *exts[8];
    VkPhysicalDeviceRobustness2FeaturesEXT robust2;
    bool calibrated; /* VK_EXT_calibrated_timestamps with CLOCK_MONOTONIC */
    uint32_t ext_count;
} device_request;

/* The core features ampvk needs (an error naming the missing ones) and those that
 * kernels may use where the device has them. */
static amp_status request_core_features(amp__device *d, VkPhysicalDevice pd, const char *name, device_request *rq)
{
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f12.timelineSemaphore || !f12.scalarBlockLayout)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "device \"%s\" lacks the Vulkan 1.2 feature%s%s that ampvk needs",
                         name, f12.timelineSemaphore ? "" : " timelineSemaphore",
                         f12.scalarBlockLayout ? "" : " scalarBlockLayout");
    rq->f12 = (VkPhysicalDeviceVulkan12Features){
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
    rq->f11 = (VkPhysicalDeviceVulkan11Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &rq->f12,
        .storageBuffer16BitAccess = f11.storageBuffer16BitAccess,
        .uniformAndStorageBuffer16BitAccess = f11.uniformAndStorageBuffer16BitAccess,
    };
    rq->f2 = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &rq->f11};
    rq->f2.features.shaderFloat64 = f2.features.shaderFloat64;
    rq->f2.features.shaderInt64 = f2.features.shaderInt64;
    rq->f2.features.shaderInt16 = f2.features.shaderInt16;
    rq->f2.features.shaderStorageImageWriteWithoutFormat = f2.features.shaderStorageImageWriteWithoutFormat;
    rq->f2.features.shaderStorageImageReadWithoutFormat = f2.features.shaderStorageImageReadWithoutFormat;
    rq->f2.features.shaderImageGatherExtended = f2.features.shaderImageGatherExtended;
    d->float64 = f2.features.shaderFloat64;
    d->float16 = f12.shaderFloat16;
    d->int64 = f2.features.shaderInt64;
    d->write_without_format = f2.features.shaderStorageImageWriteWithoutFormat;
    return AMP_OK;
}

/* Whether the device's timestamps can be read together with CLOCK_MONOTONIC (the
 * trace's clock): VK_EXT_calibrated_timestamps with both domains. */
static bool host_clock_domain(amp__device *d, VkPhysicalDevice pd)
{
    PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT domains =
        (PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)vkGetInstanceProcAddr(
            d->instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
    VkTimeDomainEXT list[8];
    uint32_t n = 8;
    if (!domains || domains(pd, &n, list) < 0) return false;
    bool device = false, monotonic = false;
    for (uint32_t i = 0; i < n; i++) {
        device |= list[i] == VK_TIME_DOMAIN_DEVICE_EXT;
        monotonic |= list[i] == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
    }
    return device && monotonic;
}

/* Whether pd's cooperative matrices (VK_NV_cooperative_matrix, which the caller found)
 * multiply 16 x 16 x 16 blocks of 16-bit floats into 32-bit ones in subgroups of 32,
 * with shaderFloat16 and the Vulkan memory model (which glslang's cooperative matrices
 * declare) on: what conv_mma.comp needs. */
static bool coop_matrix_f16(amp__device *d, VkPhysicalDevice pd)
{
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV list =
        (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)vkGetInstanceProcAddr(
            d->instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV,
                                                     .pNext = &f12};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f};
    VkPhysicalDeviceSubgroupProperties sub = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    vkGetPhysicalDeviceFeatures2(pd, &q);
    chained_properties(pd, &sub);
    if (!list || !f.cooperativeMatrix || !d->float16 || !f12.vulkanMemoryModel || sub.subgroupSize != 32) return false;
    VkCooperativeMatrixPropertiesNV props[64];
    uint32_t n = 64;
    for (uint32_t i = 0; i < n; i++) props[i] = (VkCooperativeMatrixPropertiesNV){
        .sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV};
    if (list(pd, &n, props) < 0) return false;
    for (uint32_t i = 0; i < n; i++) {
        const VkCooperativeMatrixPropertiesNV *p = &props[i];
        if (p->MSize == 16 && p->NSize == 16 && p->KSize == 16 && p->AType == VK_COMPONENT_TYPE_FLOAT16_NV &&
            p->BType == VK_COMPONENT_TYPE_FLOAT16_NV && p->CType == VK_COMPONENT_TYPE_FLOAT32_NV &&
            p->DType == VK_COMPONENT_TYPE_FLOAT32_NV && p->scope == VK_SCOPE_SUBGROUP_NV)
            return true;
    }
    return false;
}

/* The extensions ampvk uses where the device has them: float atomics, host memory
 * import, custom border colors, push descriptors, calibrated timestamps, cooperative
 * matrices (and the SM count, a property only); robustness2 with AMPVK_DEBUG=1. Out of memory listing them is an error,
 * not a device without them. */
static amp_status request_extensions(amp__device *d, VkPhysicalDevice pd, device_request *rq)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *ext = calloc(n ? n : 1, sizeof *ext);
    if (!ext) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory opening a device");
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext);
    rq->atomic_float = (VkPhysicalDeviceShaderAtomicFloatFeaturesEXT){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
    if (has_extension(ext, n, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
        VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = rq->atomic_float;
        VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &af};
        vkGetPhysicalDeviceFeatures2(pd, &q);
        if (af.shaderBufferFloat32Atomics && af.shaderSharedFloat32Atomics) {
            rq->atomic_float.shaderBufferFloat32Atomics = VK_TRUE;
            rq->atomic_float.shaderSharedFloat32Atomics = VK_TRUE;
            rq->atomic_float.shaderBufferFloat32AtomicAdd = af.shaderBufferFloat32AtomicAdd;
            rq->atomic_float.shaderSharedFloat32AtomicAdd = af.shaderSharedFloat32AtomicAdd;
            rq->atomic_float.pNext = rq->f12.pNext;
            rq->f12.pNext = &rq->atomic_float;
            d->float_atomics = true;
        }
    }
    if (has_extension(ext, n, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) {
        rq->exts[rq->ext_count++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
        d->host_import = true;
        VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
        chained_properties(pd, &hp);
        d->host_import_alignment = hp.minImportedHostPointerAlignment;
    }
    if (d->float_atomics) rq->exts[rq->ext_count++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
    rq->border = (VkPhysicalDeviceCustomBorderColorFeaturesEXT){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
    if (has_extension(ext, n, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &rq->border};
        vkGetPhysicalDeviceFeatures2(pd, &q);
        if (rq->border.customBorderColors && rq->border.customBorderColorWithoutFormat) {
            rq->border.pNext = rq->f12.pNext;
            rq->f12.pNext = &rq->border;
            rq->exts[rq->ext_count++] = VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME;
            d->custom_border = true;
        }
    }
    rq->robust2 = (VkPhysicalDeviceRobustness2FeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
    if (amp__debug_mode() && has_extension(ext, n, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &rq->robust2};
        vkGetPhysicalDeviceFeatures2(pd, &q);
        if (rq->robust2.robustBufferAccess2 && rq->robust2.robustImageAccess2 && q.features.robustBufferAccess) {
            rq->robust2 = (VkPhysicalDeviceRobustness2FeaturesEXT){
                .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT, .pNext = rq->f12.pNext,
                .robustBufferAccess2 = VK_TRUE, .robustImageAccess2 = VK_TRUE};
            rq->f12.pNext = &rq->robust2;
            rq->f2.features.robustBufferAccess = VK_TRUE;
            rq->exts[rq->ext_count++] = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
            d->robust = true;
        }
    }
    if (has_extension(ext, n, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
        VkPhysicalDevicePushDescriptorPropertiesKHR pp = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
        chained_properties(pd, &pp);
        d->max_push_descriptors = pp.maxPushDescriptors;
        rq->exts[rq->ext_count++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    }
    if (has_extension(ext, n, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME) && coop_matrix_f16(d, pd)) {
        rq->coop = (VkPhysicalDeviceCooperativeMatrixFeaturesNV){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV, .pNext = rq->f12.pNext,
            .cooperativeMatrix = VK_TRUE};
        rq->f12.pNext = &rq->coop;
        rq->exts[rq->ext_count++] = VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME;
        d->coop_matrix = true;
    }
    if (has_extension(ext, n, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
        VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
        chained_properties(pd, &sm);
        d->sm_count = sm.shaderSMCount;
    }
    rq->calibrated = has_extension(ext, n, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) && host_clock_domain(d, pd);
    if (rq->calibrated) rq->exts[rq->ext_count++] = VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
    free(ext);
    return AMP_OK;
}

/* Creates ampvk's own device on an accelerator's physical device: one compute
 * queue, the features and extensions above. */
static amp__device *device_open(amp_accelerator *acc)
{
    VkPhysicalDevice pd = amp__accelerator_physical(acc);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    amp__device *d = calloc(1, sizeof *d);
    device_request *rq = calloc(1, sizeof *rq);
    if (!d || !rq) {
        free(d);
        free(rq);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory opening a device");
        return NULL;
    }
    d->instance = amp__instance();
    d->physical = pd;
    d->accelerator = acc;
    amp_status st = find_compute_family(pd, props.deviceName, &d->queue_family);
    if (st == AMP_OK) st = request_core_features(d, pd, props.deviceName, rq);
    if (st == AMP_OK) st = request_extensions(d, pd, rq);
    if (st == AMP_OK) {
        float prio = 1.0f;
        VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                       .queueFamilyIndex = d->queue_family, .queueCount = 1,
                                       .pQueuePriorities = &prio};
        VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &rq->f2,
                                  .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                                  .enabledExtensionCount = rq->ext_count, .ppEnabledExtensionNames = rq->exts};
        uint64_t span = amp__trace_begin();
        VkResult r = vkCreateDevice(pd, &dci, NULL, &d->device);
        amp__trace_end(span, "init", "vkCreateDevice", NULL);
        if (r != VK_SUCCESS) st = amp__vk_fail(r, "vkCreateDevice");
        else amp__trace_exit_after_driver();
    }
    bool calibrated = rq->calibrated;
    free(rq);
    if (st == AMP_OK) {
        vkGetDeviceQueue(d->device, d->queue_family, 0, &d->queue);
        if (d->max_push_descriptors)
            d->push_descriptor_set =
                (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(d->device, "vkCmdPushDescriptorSetKHR");
        if (!d->push_descriptor_set) d->max_push_descriptors = 0;
        if (calibrated)
            d->calibrated_timestamps =
                (PFN_vkGetCalibratedTimestampsEXT)vkGetDeviceProcAddr(d->device, "vkGetCalibratedTimestampsEXT");
        st = finish_device(d);
        if (st != AMP_OK) vkDestroyDevice(d->device, NULL);
    }
    if (st != AMP_OK) {
        free(d);
        return NULL;
    }
    amp__log(AMP_LOG_INFO, "opened \"%s\" (queue family %u)", props.deviceName, d->queue_family);
    return d;
}

/* The devices of accelerators: opened on first use, kept for the process's life. */
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__keyed *opened;

void amp__devices_each(void (*fn)(amp__device *d))
{
    pthread_mutex_lock(&opened_lock);
    for (amp__keyed *k = opened; k; k = k->next) fn(k->value);
    pthread_mutex_unlock(&opened_lock);
}

amp__device *amp__accelerator_device(amp_accelerator *acc)
{
    pthread_mutex_lock(&opened_lock);
    amp__device *d = amp__keyed_find(opened, acc);
    if (!d && (d = device_open(acc)) && amp__keyed_add(&opened, acc, d) != AMP_OK) {
        amp__device_close(d);
        d = NULL;
    }
    pthread_mutex_unlock(&opened_lock);
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
    if (!desc->lock_queue != !desc->unlock_queue) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_create_external: lock_queue and unlock_queue go together "
                                              "(%s is NULL)", desc->lock_queue ? "unlock_queue" : "lock_queue");
        return NULL;
    }
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, NULL);
    if (desc->queue_family >= nf) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "queue family %u is outside the device's %u families",
                  desc->queue_family, nf);
        return NULL;
    }
    VkQueueFamilyProperties *fams = calloc(nf, sizeof *fams);
    if (!fams) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, fams);
    VkQueueFamilyProperties fam = fams[desc->queue_family];
    free(fams);
    if (!(fam.queueFlags & VK_QUEUE_COMPUTE_BIT)) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "queue family %u of \"%s\" has no compute", desc->queue_family,
                  props.deviceName);
        return NULL;
    }
    if (desc->queue_index >= fam.queueCount) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "queue_index %u is outside family %u's %u queues", desc->queue_index,
                  desc->queue_family, fam.queueCount);
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
    d->queue_index = desc->queue_index;
    d->lock_queue = desc->lock_queue;
    d->unlock_queue = desc->unlock_queue;
    d->queue_user = desc->queue_user;
    VkPhysicalDeviceFeatures f;
    vkGetPhysicalDeviceFeatures(pd, &f);
    /* The application's enabled features are not queryable: those it names, or else
     * every supported one (the required ones are documented). */
    if (desc->enabled_features) f = ((const VkPhysicalDeviceFeatures2 *)desc->enabled_features)->features;
    d->float64 = f.shaderFloat64;
    d->int64 = f.shaderInt64;
    d->write_without_format = f.shaderStorageImageWriteWithoutFormat;
    d->accelerator = amp__accelerator_for_physical(pd);
    if (finish_device(d) != AMP_OK) {
        free(d);
        return NULL;
    }
    return d;
}

void *amp__device_cache(amp__device *d, const amp__device_cache_type *type)
{
    return amp__keyed_find(d->caches, type);
}

amp_status amp__device_cache_add(amp__device *d, const amp__device_cache_type *type, void *state)
{
    return amp__keyed_add(&d->caches, type, state);
}

void *amp__device_cache_get(amp__device *d, const amp__device_cache_type *type)
{
    void *state = amp__device_cache(d, type);
    if (state) return state;
    if (!(state = calloc(1, type->size))) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory making the device's %s", type->name);
        return NULL;
    }
    if ((type->init && type->init(d, state) != AMP_OK) || amp__device_cache_add(d, type, state) != AMP_OK) {
        type->release(d, state);
        return NULL;
    }
    return state;
}

void amp__device_close(amp__device *d)
{
    if (!d) return;
    /* an application's queue also runs its own work: wait for ampvk's alone */
    if (d->external) amp__device_wait_serial(d, d->submitted_serial, UINT64_MAX);
    else vkQueueWaitIdle(d->queue);
    /* newest first: a cache made with the help of an older one goes before it */
    for (const void *type; d->caches;) {
        void *state = amp__keyed_pop(&d->caches, &type);
        ((const amp__device_cache_type *)type)->release(d, state);
    }
    amp__pipeline_cache_save(d);
    while (d->staging) {
        amp__staging *s = d->staging;
        d->staging = s->next;
        amp__staging_destroy(d, s);
    }
    amp__host_ranges_release(d);
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

void amp__device_set_lost(amp__device *d)
{
    __atomic_store_n(&d->lost, AMP_ERROR_DEVICE_LOST, __ATOMIC_RELEASE);
    amp__queue_lock(d);
    vkQueueWaitIdle(d->queue);
    amp__queue_unlock(d);
}

amp_status amp__device_wait_serial(amp__device *d, uint64_t serial, uint64_t timeout_ns)
{
    amp_status lost = amp__device_check(d);
    if (lost != AMP_OK) return lost;
    if (amp__device_serial_done(d, serial)) return d->after_wait ? d->after_wait(d) : AMP_OK;
    /* The wait lets go of the device lock (all the levels this thread holds), so that
     * other threads record, submit and copy while this one waits: a thread waiting
     * for its download must not stop the others' uploads. Only the device's own
     * semaphore is touched meanwhile; done_serial is updated under the lock again. */
    int depth = d->lock_depth;
    uint64_t span = amp__trace_begin();
    for (int i = 0; i < depth; i++) amp__unlock(d);
    /* Poll briefly before sleeping in the driver: a short kernel finishes sooner than
     * a blocking wait wakes up (tens of microseconds on common drivers). Not on a
     * CPU device, whose threads need the cores we would spin on. */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t spin_ns = timeout_ns < 200000 ? timeout_ns : 200000, value = 0;
    if (amp__device_is_cpu(d)) spin_ns = 0; /* the CPU does the work */
    VkResult r = VK_NOT_READY;
    for (;;) {
        if (vkGetSemaphoreCounterValue(d->device, d->timeline, &value) == VK_SUCCESS && value >= serial) {
            r = VK_SUCCESS;
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t el = (uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t.tv_nsec - t0.tv_nsec);
        if (el >= spin_ns) break;
    }
    if (r != VK_SUCCESS) {
        VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                  .pSemaphores = &d->timeline, .pValues = &serial};
        r = vkWaitSemaphores(d->device, &wi, timeout_ns);
    }
    for (int i = 0; i < depth; i++) amp__lock(d);
    amp__trace_end(span, "wait", "wait", NULL);
    if (r == VK_TIMEOUT) return amp__fail(AMP_ERROR_TIMEOUT, "wait timed out after %llu ns",
                                         (unsigned long long)timeout_ns);
    if (r == VK_ERROR_DEVICE_LOST) {
        amp__device_set_lost(d);
        return amp__device_check(d);
    }
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkWaitSemaphores");
    if (serial > d->done_serial) d->done_serial = serial;
    return d->after_wait ? d->after_wait(d) : AMP_OK;
}
