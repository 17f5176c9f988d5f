/* The Vulkan instance and the accelerator list (see include/ampvk/accelerator.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

struct amp_accelerator {
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties props;
    amp_accelerator_info info;
    char path[64];
    char description[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    amp_access_type default_access;
    int rank;                     /* preference: lower is better */
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;
static bool list_built;       /* built, or failed for good (list_status) */
static VkInstance instance;
static amp_accelerator *list;
static int list_count;
static amp_status list_status;
static char list_error[512];
static bool validation;
static VkDebugUtilsMessengerEXT messenger;
static uint64_t validation_messages;
static amp_accelerator *default_acc;
static bool work_started;

uint64_t amp_validation_message_count(void) { return __atomic_load_n(&validation_messages, __ATOMIC_SEQ_CST); }
bool amp__validation_enabled(void) { return validation; }
void amp__note_work_started(void) { __atomic_store_n(&work_started, true, __ATOMIC_SEQ_CST); }

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                    VkDebugUtilsMessageTypeFlagsEXT types,
                                                    const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                    void *user)
{
    (void)types;
    (void)user;
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    __atomic_add_fetch(&validation_messages, 1, __ATOMIC_SEQ_CST);
    amp__log(severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? AMP_LOG_ERROR : AMP_LOG_WARN,
             "validation: %s", data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Whether the instance layer is installed: 1 yes, 0 no, -1 out of memory asking. */
static int layer_available(const char *name)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *props = calloc(n ? n : 1, sizeof *props);
    if (!props) return -1;
    vkEnumerateInstanceLayerProperties(&n, props);
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(props[i].layerName, name) == 0) found = 1;
    free(props);
    return found;
}

/* Lower is preferred: discrete, integrated, virtual, CPU, other. */
static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

static void describe(amp_accelerator *a, int index)
{
    VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
    vkGetPhysicalDeviceProperties2(a->physical, &p2);
    a->props = p2.properties;
    char *w = a->path + snprintf(a->path, sizeof a->path, "vulkan:");
    for (unsigned i = 0; i < VK_UUID_SIZE; i++) w += sprintf(w, "%02x", id.deviceUUID[i]);
    snprintf(a->description, sizeof a->description, "%s", a->props.deviceName);

    VkPhysicalDeviceFeatures f;
    vkGetPhysicalDeviceFeatures(a->physical, &f);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(a->physical, &mp);
    VkDeviceSize local = 0;
    for (uint32_t h = 0; h < mp.memoryHeapCount; h++)
        if ((mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && mp.memoryHeaps[h].size > local)
            local = mp.memoryHeaps[h].size;
    bool shared = false;
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t t = 0; t < mp.memoryTypeCount; t++)
        if ((mp.memoryTypes[t].propertyFlags & want) == want) shared = true;

    a->info = (amp_accelerator_info){
        .device_path = a->path,
        .description = a->description,
        .version = VK_API_VERSION_MAJOR(a->props.apiVersion) << 16 | VK_API_VERSION_MINOR(a->props.apiVersion),
        .dedicated_memory = (size_t)(local / 1024),
        .supports_double_precision = f.shaderFloat64,
        .supports_limited_double_precision = f.shaderFloat64,
        .supports_cpu_shared_memory = shared,
        .is_emulated = a->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU,
        .is_debug = validation,
        .has_display = false,
        .index = index,
        .max_tile_threads = a->props.limits.maxComputeWorkGroupInvocations < 1024
                                ? a->props.limits.maxComputeWorkGroupInvocations : 1024,
        .max_tile_static_bytes = a->props.limits.maxComputeSharedMemorySize,
    };
    for (int i = 0; i < 3; i++) {
        a->info.max_tile_size[i] = a->props.limits.maxComputeWorkGroupSize[i];
        a->info.max_groups[i] = a->props.limits.maxComputeWorkGroupCount[i];
    }
    a->default_access = AMP_ACCESS_NONE;
    a->rank = type_rank(a->props.deviceType);
}

/* The debug messenger that counts and logs validation warnings and errors; next chains the instance's features. */
static VkDebugUtilsMessengerCreateInfoEXT messenger_info(const void *next)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .pNext = next,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_validation};
}

/* Creates the instance, with the validation layer and its messenger when asked for; false with list_error set. */
static bool create_instance(void)
{
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    int layer = validation ? layer_available(layers[0]) : 1;
    if (layer <= 0) {
        snprintf(list_error, sizeof list_error, "%s",
                 layer ? "out of host memory listing the Vulkan layers"
                       : "AMPVK_VALIDATION is set but VK_LAYER_KHRONOS_validation is not installed");
        list_status = layer ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_UNSUPPORTED;
        return false;
    }
    /* Synchronization validation on, as the design asks for tests. */
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                  .enabledValidationFeatureCount = 1,
                                  .pEnabledValidationFeatures = enables};
    VkDebugUtilsMessengerCreateInfoEXT mci = messenger_info(&vf);
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "ampvk",
                             .pEngineName = "ampvk",
                             .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = validation ? &mci : NULL,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = validation ? 1 : 0,
                               .ppEnabledLayerNames = layers,
                               .enabledExtensionCount = validation ? 1 : 0,
                               .ppEnabledExtensionNames = exts};
    uint64_t span = amp__trace_begin();
    VkResult r = vkCreateInstance(&ci, NULL, &instance);
    amp__trace_end(span, "init", "vkCreateInstance", NULL);
    if (r != VK_SUCCESS) {
        bool oom = r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY;
        snprintf(list_error, sizeof list_error, "vkCreateInstance failed: %s%s", amp__vk_result_name(r),
                 oom ? "" : "; is a Vulkan driver installed?");
        list_status = oom ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_UNSUPPORTED;
        instance = VK_NULL_HANDLE;
        return false;
    }
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT lasting = messenger_info(NULL);
        if (create) create(instance, &lasting, NULL, &messenger);
    }
    return true;
}

/* Fills list with the physical devices of Vulkan 1.2 or later; *found is how many the instance has. */
static bool enumerate_devices(uint32_t *found)
{
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, NULL);
    VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof *pds);
    list = calloc(n ? n : 1, sizeof *list);
    if (!pds || !list) {
        free(pds);
        free(list);
        list = NULL;
        list_status = AMP_ERROR_OUT_OF_MEMORY;
        snprintf(list_error, sizeof list_error, "out of host memory listing accelerators");
        return false;
    }
    vkEnumeratePhysicalDevices(instance, &n, pds);
    *found = n;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (p.apiVersion < VK_API_VERSION_1_2) continue; /* ampvk needs Vulkan 1.2 */
        list[list_count].physical = pds[i];
        list_count++;
    }
    free(pds);
    return true;
}

/* Describes the listed devices and orders them: a stable order from run to run, by
 * preference, then by device path. */
static void sort_list(void)
{
    for (int i = 0; i < list_count; i++) describe(&list[i], i);
    for (int i = 1; i < list_count; i++)
        for (int j = i; j > 0; j--) {
            amp_accelerator *a = &list[j - 1], *b = &list[j];
            int c = a->rank != b->rank ? a->rank - b->rank : strcmp(a->path, b->path);
            if (c <= 0) break;
            amp_accelerator t = *a; *a = *b; *b = t;
        }
    for (int i = 0; i < list_count; i++) {
        list[i].info.index = i;
        list[i].info.device_path = list[i].path;
        list[i].info.description = list[i].description;
    }
}

/* Builds the list: the instance (kept from an attempt that ran out of memory after
 * making it), then the devices; list_status and list_error say how it went. */
static void build_list(void)
{
    list_status = AMP_OK;
    if (!instance) {
        validation = env_flag("AMPVK_VALIDATION");
        if (!create_instance()) return;
    }
    uint32_t n = 0;
    if (!enumerate_devices(&n)) return;
    sort_list();
    if (list_count == 0) {
        list_status = AMP_ERROR_NOT_FOUND;
        snprintf(list_error, sizeof list_error, "no Vulkan 1.2 device found (%u physical devices)", n);
    }
}

/* Builds the list on first use; a build that ran out of memory is tried again by the
 * next call, any other failure stays. */
static bool ensure_list(void)
{
    char error[sizeof list_error];
    pthread_mutex_lock(&build_lock);
    if (!list_built || list_status == AMP_ERROR_OUT_OF_MEMORY) {
        build_list();
        list_built = true;
    }
    amp_status s = list_status;
    if (s != AMP_OK) memcpy(error, list_error, sizeof error);
    pthread_mutex_unlock(&build_lock);
    if (s != AMP_OK) amp__fail(s, "%s", error);
    return s == AMP_OK;
}

VkInstance amp__instance(void) { return ensure_list() ? instance : VK_NULL_HANDLE; }

int amp_accelerator_count(void) { return ensure_list() ? list_count : 0; }

amp_accelerator *amp_accelerator_at(int i)
{
    if (!ensure_list()) return NULL;
    if (i < 0 || i >= list_count) {
        amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "amp_accelerator_at: index %d is outside 0..%d", i, list_count - 1);
        return NULL;
    }
    return &list[i];
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k] && tolower((unsigned char)hay[k]) == tolower((unsigned char)needle[k])) k++;
        if (k == n) return true;
    }
    return n == 0;
}

amp_accelerator *amp_accelerator_find(const char *key)
{
    if (!ensure_list()) return NULL;
    if (!key || !*key) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_find: empty key");
        return NULL;
    }
    char *end;
    long idx = strtol(key, &end, 10);
    if (*end == 0) {
        if (idx >= 0 && idx < list_count) return &list[idx];
        amp__fail(AMP_ERROR_NOT_FOUND, "no accelerator with index %ld (there are %d)", idx, list_count);
        return NULL;
    }
    for (int i = 0; i < list_count; i++)
        if (strcmp(list[i].path, key) == 0) return &list[i];
    for (int i = 0; i < list_count; i++)
        if (contains_nocase(list[i].description, key)) return &list[i];
    amp__fail(AMP_ERROR_NOT_FOUND, "no accelerator matches \"%s\" (%d accelerators)", key, list_count);
    return NULL;
}

amp_accelerator *amp_accelerator_default(void)
{
    if (!ensure_list()) return NULL;
    pthread_mutex_lock(&list_lock);
    amp_accelerator *r = default_acc;
    pthread_mutex_unlock(&list_lock);
    if (r) return r;
    const char *env = getenv("AMPVK_DEFAULT_ACCELERATOR");
    if (env && *env) {
        r = amp_accelerator_find(env);
        if (!r) {
            amp__fail(AMP_ERROR_NOT_FOUND, "AMPVK_DEFAULT_ACCELERATOR=\"%s\" matches none of the %d accelerators",
                      env, list_count);
            return NULL;
        }
    } else {
        r = &list[0];
        for (int i = 1; i < list_count; i++)
            if (list[i].rank == r->rank && list[i].info.dedicated_memory > r->info.dedicated_memory) r = &list[i];
    }
    pthread_mutex_lock(&list_lock);
    if (!default_acc) default_acc = r;
    r = default_acc;
    pthread_mutex_unlock(&list_lock);
    return r;
}

amp_status amp_accelerator_set_default(const char *key)
{
    if (__atomic_load_n(&work_started, __ATOMIC_SEQ_CST))
        return amp__fail(AMP_ERROR_INVALID_STATE,
                         "amp_accelerator_set_default(\"%s\"): work has already run on the default accelerator",
                         key ? key : "(null)");
    amp_accelerator *a = amp_accelerator_find(key);
    if (!a) return amp_last_status();
    pthread_mutex_lock(&list_lock);
    default_acc = a;
    pthread_mutex_unlock(&list_lock);
    return AMP_OK;
}

amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info)
{
    if (!acc || !info) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_get_info: NULL argument");
    *info = acc->info;
    return AMP_OK;
}

amp_access_type amp_accelerator_default_cpu_access_type(const amp_accelerator *acc)
{
    return acc ? acc->default_access : AMP_ACCESS_NONE;
}

amp_status amp_accelerator_set_default_cpu_access_type(amp_accelerator *acc, amp_access_type t)
{
    if (!acc) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_set_default_cpu_access_type: NULL accelerator");
    if (t < AMP_ACCESS_AUTO || t > AMP_ACCESS_READ_WRITE)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "cpu access type %d is not an amp_access_type", (int)t);
    if (t == AMP_ACCESS_AUTO) t = AMP_ACCESS_NONE;
    if (t != AMP_ACCESS_NONE && !acc->info.supports_cpu_shared_memory)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "accelerator \"%s\" has no CPU-shared memory for cpu access type %d",
                         acc->description, (int)t);
    acc->default_access = t;
    return AMP_OK;
}

VkPhysicalDevice amp__accelerator_physical(const amp_accelerator *acc) { return acc->physical; }

amp_accelerator *amp__accelerator_for_physical(VkPhysicalDevice pd)
{
    if (!ensure_list()) return NULL;
    VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    char path[64];
    char *w = path + snprintf(path, sizeof path, "vulkan:");
    for (unsigned i = 0; i < VK_UUID_SIZE; i++) w += sprintf(w, "%02x", id.deviceUUID[i]);
    for (int i = 0; i < list_count; i++)
        if (strcmp(list[i].path, path) == 0) return &list[i];
    return NULL;
}
