/* A Vulkan instance and device of the test's own, on the physical device of the
 * default accelerator, for amp_view_create_external: a second amp__device beside
 * ampvk's own (on a machine with one GPU, or only lavapipe, it stands in for
 * another accelerator). With AMPVK_VALIDATION=1 the validation layer, with
 * synchronization validation, watches it too; its messages count as failures. */
#ifndef AMPVK_TEST_DEVICE_H
#define AMPVK_TEST_DEVICE_H

#include <vulkan/vulkan.h>

#include "test.h"

typedef struct test_device {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkQueue queue_b;    /* a second queue of `family`, where it has two (index 1), else NULL */
    VkQueue queue2;     /* a queue of another family with transfer, where the device has one */
    uint32_t family2;   /* its family, UINT32_MAX if none */
    VkPhysicalDeviceFeatures2 enabled; /* the features the device was created with */
} test_device;

static int test_device_messages;

/* Prints and counts a validation message about the test's device. */
static VKAPI_ATTR VkBool32 VKAPI_CALL test_device_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                          VkDebugUtilsMessageTypeFlagsEXT types,
                                                          const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                          void *user)
{
    (void)types;
    (void)user;
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    test_device_messages++;
    fprintf(stderr, "validation (test device): %s\n", data->pMessage ? data->pMessage : "");
    return VK_FALSE;
}

/* Creates the instance (validation as AMPVK_VALIDATION says) and a device with one
 * compute queue and the features ampvk needs on the physical device named like
 * the default accelerator. False (with a failed check) if it cannot. */
static bool test_device_open(test_device *t)
{
    *t = (test_device){0};
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_accelerator_default(), &info));
    const char *v = getenv("AMPVK_VALIDATION");
    bool validation = v && strcmp(v, "1") == 0;
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                  .enabledValidationFeatureCount = 1, .pEnabledValidationFeatures = enables};
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT, .pNext = &vf,
        .messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = test_device_message};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "ampvk test",
                             .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = validation ? &mci : NULL,
                                .pApplicationInfo = &app, .enabledLayerCount = validation ? 1 : 0,
                                .ppEnabledLayerNames = layers, .enabledExtensionCount = validation ? 1 : 0,
                                .ppEnabledExtensionNames = exts};
    REQUIRE_INT(vkCreateInstance(&ici, NULL, &t->instance), VK_SUCCESS);
    if (!t->instance) return false;
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkCreateDebugUtilsMessengerEXT");
    mci.pNext = NULL;
    if (validation && create_messenger) create_messenger(t->instance, &mci, NULL, &t->messenger);

    VkPhysicalDevice pds[16];
    uint32_t n = 16;
    vkEnumeratePhysicalDevices(t->instance, &n, pds);
    for (uint32_t i = 0; i < n && !t->physical; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (strcmp(p.deviceName, info.description) == 0) t->physical = pds[i];
    }
    REQUIRE(t->physical != VK_NULL_HANDLE);
    VkQueueFamilyProperties fams[16];
    uint32_t nf = 16;
    t->family = UINT32_MAX;
    if (t->physical) vkGetPhysicalDeviceQueueFamilyProperties(t->physical, &nf, fams);
    for (uint32_t i = 0; t->physical && i < nf && t->family == UINT32_MAX; i++)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) t->family = i;
    REQUIRE(t->family != UINT32_MAX);
    if (t->family == UINT32_MAX) return false;
    t->family2 = UINT32_MAX;
    for (uint32_t i = 0; i < nf && t->family2 == UINT32_MAX; i++)
        if (i != t->family && (fams[i].queueFlags & (VK_QUEUE_TRANSFER_BIT | VK_QUEUE_COMPUTE_BIT))) t->family2 = i;
    /* what ampvk needs, and the core features its kernels use where the device has them */
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(t->physical, &have);
    static VkPhysicalDeviceVulkan12Features f12;
    f12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .timelineSemaphore = VK_TRUE, .scalarBlockLayout = VK_TRUE};
    t->enabled = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    t->enabled.features.shaderFloat64 = have.shaderFloat64;
    t->enabled.features.shaderInt64 = have.shaderInt64;
    t->enabled.features.shaderStorageImageWriteWithoutFormat = have.shaderStorageImageWriteWithoutFormat;
    t->enabled.features.shaderStorageImageReadWithoutFormat = have.shaderStorageImageReadWithoutFormat;
    float prio[2] = {1.0f, 1.0f};
    uint32_t count = fams[t->family].queueCount >= 2 ? 2 : 1;
    VkDeviceQueueCreateInfo qci[2] = {
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = t->family, .queueCount = count,
         .pQueuePriorities = prio},
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = t->family2, .queueCount = 1,
         .pQueuePriorities = prio}};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &t->enabled,
                              .queueCreateInfoCount = t->family2 == UINT32_MAX ? 1 : 2, .pQueueCreateInfos = qci};
    REQUIRE_INT(vkCreateDevice(t->physical, &dci, NULL, &t->device), VK_SUCCESS);
    if (!t->device) return false;
    vkGetDeviceQueue(t->device, t->family, 0, &t->queue);
    if (count == 2) vkGetDeviceQueue(t->device, t->family, 1, &t->queue_b);
    if (t->family2 != UINT32_MAX) vkGetDeviceQueue(t->device, t->family2, 0, &t->queue2);
    return true;
}

/* What amp_view_create_external needs to wrap the test's device. */
static amp_vulkan_device_desc test_device_desc(const test_device *t)
{
    return (amp_vulkan_device_desc){.instance = t->instance, .physical_device = t->physical, .device = t->device,
                                    .queue = t->queue, .queue_family = t->family, .enabled_features = &t->enabled};
}

/* Destroys the device and the instance (ampvk's views on them must be gone) and
 * requires that the validation layer said nothing about them. */
static void test_device_close(test_device *t)
{
    if (t->device) vkDestroyDevice(t->device, NULL);
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
        t->instance ? (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance,
                                                                                 "vkDestroyDebugUtilsMessengerEXT")
                    : NULL;
    if (t->messenger && destroy_messenger) destroy_messenger(t->instance, t->messenger, NULL);
    if (t->instance) vkDestroyInstance(t->instance, NULL);
    *t = (test_device){0};
    REQUIRE_INT(test_device_messages, 0);
}

#endif
