/*
 * ampvk info: the accelerators ampvk sees, the default one marked with `*`, and
 * each one's limits and features.
 *
 *     ampvk info [--json]
 *
 *   --json   print one JSON object instead of the table:
 *            {"default": INDEX or null, "accelerators": [{...}, ...]}
 *
 * The default is what AMPVK_DEFAULT_ACCELERATOR (an index, a device path or a name
 * substring) or the device types pick. What ampvk's accelerator info does not hold
 * (image sizes, memory heaps, subgroup size, driver, extensions) is asked of Vulkan
 * through an instance of the tool's own, its devices matched to ampvk's by UUID.
 * Exit codes: 0, 1 when there is no accelerator at all, 2 for a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "tool.h"

static const char info_help[] =
    "usage: ampvk info [--json]\n"
    "\n"
    "Lists the Vulkan accelerators ampvk sees, the default one marked with `*`, and\n"
    "each one's limits and features: Vulkan version and driver, device type, memory\n"
    "heaps, largest 1-D/2-D/3-D image, compute work-group limits, tile_static (shared)\n"
    "memory, subgroup size, double precision, float16/int64, 3-component textures,\n"
    "external host memory, cooperative matrices (tensor cores: the built-in blurs of\n"
    "radius 9 to 16 use them), CPU-shared memory, emulated (a CPU device such as\n"
    "lavapipe) and whether the validation layer is on.\n"
    "\n"
    "options:\n"
    "  --json      print one JSON object instead of the table:\n"
    "              {\"default\": INDEX or null, \"accelerators\": [{...}, ...]}\n"
    "  -h, --help  print this help\n"
    "\n"
    "The default is AMPVK_DEFAULT_ACCELERATOR's (an index, a device path or a name\n"
    "substring), else the first discrete GPU. Exit status: 0; 1 when there is no\n"
    "accelerator; 2 for a usage error.\n";

/* What Vulkan says of one physical device, beyond amp_accelerator_info. */
typedef struct vk_facts {
    bool found; /* a device of the tool's instance with the accelerator's UUID */
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    char driver_name[VK_MAX_DRIVER_NAME_SIZE];
    char driver_info[VK_MAX_DRIVER_INFO_SIZE];
    uint32_t subgroup_size;
    bool float16, int64;
    bool host_memory;            /* VK_EXT_external_memory_host */
    bool coop_matrix;            /* VK_NV_cooperative_matrix */
    VkDeviceSize host_alignment; /* its minImportedHostPointerAlignment */
    VkFormatFeatureFlags rgb8, rgb32f; /* optimal-tiling features of R8G8B8_UNORM, R32G32B32_SFLOAT */
} vk_facts;

/* The tool's own Vulkan instance and its physical devices. */
typedef struct vk_list {
    VkInstance instance;
    VkPhysicalDevice *devices;
    uint32_t count;
} vk_list;

/* Creates an instance (no layers) and lists its physical devices; on failure the list
 * stays empty and the table shows only what ampvk knows. */
static void vk_list_open(vk_list *l)
{
    *l = (vk_list){0};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "ampvk info",
                             .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    if (vkCreateInstance(&ci, NULL, &l->instance) != VK_SUCCESS) {
        l->instance = VK_NULL_HANDLE;
        return;
    }
    uint32_t n = 0;
    if (vkEnumeratePhysicalDevices(l->instance, &n, NULL) != VK_SUCCESS || n == 0) return;
    l->devices = calloc(n, sizeof *l->devices);
    if (!l->devices) return;
    if (vkEnumeratePhysicalDevices(l->instance, &n, l->devices) < 0) return;
    l->count = n;
}

/* Destroys the instance. */
static void vk_list_close(vk_list *l)
{
    free(l->devices);
    if (l->instance) vkDestroyInstance(l->instance, NULL);
    *l = (vk_list){0};
}

/* Whether the device offers the extension. */
static bool has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0) return false;
    VkExtensionProperties *e = calloc(n, sizeof *e);
    bool found = false;
    if (e && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) >= 0)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(e[i].extensionName, name) == 0;
    free(e);
    return found;
}

/* Fills *f for the device whose "vulkan:<uuid>" is device_path. */
static void vk_facts_get(const vk_list *l, const char *device_path, vk_facts *f)
{
    *f = (vk_facts){0};
    for (uint32_t i = 0; i < l->count && !f->found; i++) {
        VkPhysicalDevice pd = l->devices[i];
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pd, &p);
        if (p.apiVersion < VK_API_VERSION_1_1) continue; /* no Properties2, and not an accelerator */
        VkPhysicalDeviceDriverProperties drv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceSubgroupProperties sub = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                  .pNext = p.apiVersion >= VK_API_VERSION_1_2 ? &drv : NULL};
        VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, .pNext = &sub};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
        vkGetPhysicalDeviceProperties2(pd, &p2);
        char path[8 + 2 * VK_UUID_SIZE + 1], *w = path + snprintf(path, sizeof path, "vulkan:");
        for (unsigned k = 0; k < VK_UUID_SIZE; k++) w += snprintf(w, 3, "%02x", id.deviceUUID[k]);
        if (strcmp(path, device_path) != 0) continue;

        f->found = true;
        f->props = p2.properties;
        f->subgroup_size = sub.subgroupSize;
        snprintf(f->driver_name, sizeof f->driver_name, "%s", drv.driverName);
        snprintf(f->driver_info, sizeof f->driver_info, "%s", drv.driverInfo);
        vkGetPhysicalDeviceMemoryProperties(pd, &f->mem);
        VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                        .pNext = p.apiVersion >= VK_API_VERSION_1_2 ? &v12 : NULL};
        vkGetPhysicalDeviceFeatures2(pd, &f2);
        f->float16 = v12.shaderFloat16;
        f->int64 = f2.features.shaderInt64;
        f->host_memory = has_extension(pd, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
        f->coop_matrix = has_extension(pd, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
        if (f->host_memory) {
            VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {
                .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
            VkPhysicalDeviceProperties2 hp2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &hp};
            vkGetPhysicalDeviceProperties2(pd, &hp2);
            f->host_alignment = hp.minImportedHostPointerAlignment;
        }
        VkFormatProperties fp;
        vkGetPhysicalDeviceFormatProperties(pd, VK_FORMAT_R8G8B8_UNORM, &fp);
        f->rgb8 = fp.optimalTilingFeatures;
        vkGetPhysicalDeviceFormatProperties(pd, VK_FORMAT_R32G32B32_SFLOAT, &fp);
        f->rgb32f = fp.optimalTilingFeatures;
    }
}

/* The device type as a word. */
static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

/* Whether a memory type of heap h is host-visible. */
static bool heap_host_visible(const VkPhysicalDeviceMemoryProperties *m, uint32_t h)
{
    for (uint32_t t = 0; t < m->memoryTypeCount; t++)
        if (m->memoryTypes[t].heapIndex == h && (m->memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            return true;
    return false;
}

/* Writes bytes as "7.7 GiB" / "512 MiB" into buf. */
static const char *human_bytes(char *buf, size_t size, double bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, size, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

/* The features of an RGB format as "sampled, storage" or "no". */
static const char *rgb_support(char *buf, size_t size, VkFormatFeatureFlags f)
{
    bool sampled = f & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, storage = f & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    snprintf(buf, size, "%s%s%s", sampled ? "sampled" : "", sampled && storage ? "+" : "",
             storage ? "storage" : !sampled ? "no" : "");
    return buf;
}

/* Prints one accelerator as the table's block. */
static void print_text(const amp_accelerator_info *in, const vk_facts *f, bool is_default)
{
    char a[64], b[64];
    printf("%c %d: %s\n", is_default ? '*' : ' ', in->index, in->description);
    printf("    %-24s %s\n", "device_path", in->device_path);
    printf("    %-24s %u.%u", "Vulkan version", in->version >> 16, in->version & 0xffff);
    if (f->found && f->driver_name[0]) printf(" (driver %s, %s)", f->driver_name, f->driver_info);
    printf("\n");
    if (f->found)
        printf("    %-24s %s, vendor 0x%04x, device 0x%04x\n", "device type", type_name(f->props.deviceType),
               f->props.vendorID, f->props.deviceID);
    printf("    %-24s %zu KB\n", "dedicated_memory", in->dedicated_memory);
    for (uint32_t h = 0; f->found && h < f->mem.memoryHeapCount; h++) {
        const VkMemoryHeap *hp = &f->mem.memoryHeaps[h];
        bool local = hp->flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, host = heap_host_visible(&f->mem, h);
        printf("    %-24s %u: %s%s%s%s\n", h == 0 ? "memory heaps" : "", h, human_bytes(a, sizeof a, (double)hp->size),
               local ? ", device-local" : "", host ? ", host-visible" : "", !local && !host ? ", host" : "");
    }
    if (f->found) {
        const VkPhysicalDeviceLimits *l = &f->props.limits;
        printf("    %-24s %u / %u / %u\n", "max image 1-D/2-D/3-D", l->maxImageDimension1D, l->maxImageDimension2D,
               l->maxImageDimension3D);
        printf("    %-24s %u x %u x %u, %u invocations\n", "max work group", l->maxComputeWorkGroupSize[0],
               l->maxComputeWorkGroupSize[1], l->maxComputeWorkGroupSize[2], l->maxComputeWorkGroupInvocations);
    }
    printf("    %-24s %u threads, %u x %u x %u\n", "max tile (ampvk)", in->max_tile_threads, in->max_tile_size[0],
           in->max_tile_size[1], in->max_tile_size[2]);
    printf("    %-24s %u x %u x %u\n", "max groups per dispatch", in->max_groups[0], in->max_groups[1],
           in->max_groups[2]);
    printf("    %-24s %u bytes\n", "tile_static memory", in->max_tile_static_bytes);
    if (f->found) printf("    %-24s %u\n", "subgroup size", f->subgroup_size);
    printf("    %-24s %s\n", "double precision", yes_no(in->supports_double_precision));
    if (f->found) {
        printf("    %-24s %s / %s\n", "float16 / int64", yes_no(f->float16), yes_no(f->int64));
        printf("    %-24s yes, on 4 channels (native R8G8B8: %s; R32G32B32: %s)\n", "3-component textures",
               rgb_support(a, sizeof a, f->rgb8), rgb_support(b, sizeof b, f->rgb32f));
        if (f->host_memory)
            printf("    %-24s yes (alignment %llu)\n", "external host memory", (unsigned long long)f->host_alignment);
        else
            printf("    %-24s no\n", "external host memory");
        printf("    %-24s %s\n", "cooperative matrices", f->coop_matrix ? "yes (VK_NV_cooperative_matrix)" : "no");
    }
    printf("    %-24s %s\n", "cpu shared memory", yes_no(in->supports_cpu_shared_memory));
    printf("    %-24s %s\n", "emulated", yes_no(in->is_emulated));
    printf("    %-24s %s\n", "debug (validation)", yes_no(in->is_debug));
    if (!f->found) printf("    (the Vulkan details of this device could not be read)\n");
}

/* Writes a JSON key and a boolean value. */
static void json_bool(const char *key, bool v) { printf(", \"%s\": %s", key, v ? "true" : "false"); }

/* Writes an array of three numbers under key. */
static void json_u3(const char *key, const uint32_t v[3]) { printf(", \"%s\": [%u, %u, %u]", key, v[0], v[1], v[2]); }

/* Prints one accelerator as a JSON object; the Vulkan-only keys are null when
 * the device could not be matched. */
static void print_json(const amp_accelerator_info *in, const vk_facts *f, bool is_default)
{
    printf("{\"index\": %d, \"is_default\": %s, \"description\": ", in->index, is_default ? "true" : "false");
    tool_json_string(in->description);
    printf(", \"device_path\": ");
    tool_json_string(in->device_path);
    printf(", \"vulkan_version\": \"%u.%u\"", in->version >> 16, in->version & 0xffff);
    printf(", \"dedicated_memory_kb\": %zu", in->dedicated_memory);
    json_bool("double_precision", in->supports_double_precision);
    json_bool("limited_double_precision", in->supports_limited_double_precision);
    json_bool("cpu_shared_memory", in->supports_cpu_shared_memory);
    json_bool("emulated", in->is_emulated);
    json_bool("debug", in->is_debug);
    printf(", \"max_tile_threads\": %u", in->max_tile_threads);
    json_u3("max_tile_size", in->max_tile_size);
    json_u3("max_groups", in->max_groups);
    printf(", \"max_tile_static_bytes\": %u", in->max_tile_static_bytes);
    json_bool("three_component_textures", true); /* always: stored on 4 channels */
    if (!f->found) {
        printf(", \"device_type\": null, \"driver_name\": null, \"driver_info\": null, \"vendor_id\": null"
               ", \"device_id\": null, \"memory_heaps\": null, \"max_image_dimension_1d\": null"
               ", \"max_image_dimension_2d\": null, \"max_image_dimension_3d\": null"
               ", \"max_compute_work_group_size\": null, \"max_compute_work_group_invocations\": null"
               ", \"subgroup_size\": null, \"float16\": null, \"int64\": null, \"native_rgb8_sampled\": null"
               ", \"native_rgb8_storage\": null, \"native_rgb32f_sampled\": null, \"native_rgb32f_storage\": null"
               ", \"cooperative_matrix\": null, \"external_host_memory\": null"
               ", \"external_host_memory_alignment\": null}");
        return;
    }
    const VkPhysicalDeviceLimits *l = &f->props.limits;
    printf(", \"device_type\": \"%s\", \"driver_name\": ", type_name(f->props.deviceType));
    tool_json_string(f->driver_name);
    printf(", \"driver_info\": ");
    tool_json_string(f->driver_info);
    printf(", \"vendor_id\": %u, \"device_id\": %u, \"memory_heaps\": [", f->props.vendorID, f->props.deviceID);
    for (uint32_t h = 0; h < f->mem.memoryHeapCount; h++) {
        const VkMemoryHeap *hp = &f->mem.memoryHeaps[h];
        printf("%s{\"size_bytes\": %llu", h ? ", " : "", (unsigned long long)hp->size);
        json_bool("device_local", hp->flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
        json_bool("host_visible", heap_host_visible(&f->mem, h));
        printf("}");
    }
    printf("], \"max_image_dimension_1d\": %u, \"max_image_dimension_2d\": %u, \"max_image_dimension_3d\": %u",
           l->maxImageDimension1D, l->maxImageDimension2D, l->maxImageDimension3D);
    json_u3("max_compute_work_group_size", l->maxComputeWorkGroupSize);
    printf(", \"max_compute_work_group_invocations\": %u", l->maxComputeWorkGroupInvocations);
    printf(", \"subgroup_size\": %u", f->subgroup_size);
    json_bool("float16", f->float16);
    json_bool("int64", f->int64);
    json_bool("native_rgb8_sampled", f->rgb8 & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
    json_bool("native_rgb8_storage", f->rgb8 & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
    json_bool("native_rgb32f_sampled", f->rgb32f & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
    json_bool("native_rgb32f_storage", f->rgb32f & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
    json_bool("cooperative_matrix", f->coop_matrix);
    json_bool("external_host_memory", f->host_memory);
    if (f->host_memory)
        printf(", \"external_host_memory_alignment\": %llu}", (unsigned long long)f->host_alignment);
    else
        printf(", \"external_host_memory_alignment\": null}");
}

/* ampvk info: see the header comment. */
int ampvk_info_main(int argc, char **argv)
{
    if (tool_wants_help(argc, argv)) {
        fputs(info_help, stdout);
        return 0;
    }
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else
            return tool_usage_error("info", "unknown %s '%s'", argv[i][0] == '-' ? "option" : "argument", argv[i]);
    }

    int n = amp_accelerator_count();
    if (n == 0) return tool_error("info", "no accelerator: %s", amp_last_error());
    /* all infos first: a failure prints nothing half-way */
    amp_accelerator_info *infos = calloc((size_t)n, sizeof *infos);
    if (!infos) return tool_error("info", "out of memory");
    for (int i = 0; i < n; i++)
        if (amp_accelerator_get_info(amp_accelerator_at(i), &infos[i]) != AMP_OK) {
            free(infos);
            return tool_error("info", "accelerator %d: %s", i, amp_last_error());
        }
    amp_accelerator *def = amp_accelerator_default();
    int def_index = -1;
    if (!def) {
        tool_error("info", "no default accelerator: %s", amp_last_error());
    } else {
        amp_accelerator_info di;
        if (amp_accelerator_get_info(def, &di) == AMP_OK) def_index = di.index;
    }

    vk_list vk;
    vk_list_open(&vk);
    if (json) {
        if (def_index >= 0)
            printf("{\"default\": %d, \"accelerators\": [", def_index);
        else
            printf("{\"default\": null, \"accelerators\": [");
    }
    for (int i = 0; i < n; i++) {
        vk_facts f;
        vk_facts_get(&vk, infos[i].device_path, &f);
        if (json) {
            if (i) printf(", ");
            print_json(&infos[i], &f, i == def_index);
        } else {
            print_text(&infos[i], &f, i == def_index);
        }
    }
    if (json)
        printf("]}\n");
    else
        printf("* default accelerator%s\n", def_index >= 0 ? "" : ": none");
    vk_list_close(&vk);
    free(infos);
    return 0;
}
