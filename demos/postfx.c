/* ampvk-postfx: ampvk's filters as the post-processing pass of a renderer that owns
 * its Vulkan device, with no CPU wait between the two.
 *
 * The "application" here is a headless render loop: its own VkInstance and VkDevice
 * (on the default ampvk accelerator's physical device), one graphics + compute queue,
 * a render pass that draws an animated HDR scene (demos/shaders/postfx_scene.*) into
 * an RGBA16F image each frame. Three ways to post-process it (--pass):
 *
 *   ampvk  The scene image and an RGBA8 output image of each frame slot are wrapped
 *          once as ampvk textures on a view over the application's device and queue
 *          (amp_view_create_external, with the application's queue lock). Each frame
 *          the rendered image goes to ampvk with amp_texture_import, naming the
 *          application's timeline semaphore value its render signals; one filter
 *          chain (amp_image_filter_chain: a gaussian, then tonemap's Reinhard curve and
 *          linear_to_srgb, fused into the gaussian's pass) writes the output;
 *          amp_texture_export hands both images back with `ready` points (ampvk's
 *          timeline and a value) that the application's next submissions wait for on
 *          the GPU: the next render into that slot, and the copy of a saved frame.
 *   app    The same blur and tone map as the application's own compute dispatches
 *          (demos/shaders/postfx_blur.comp), recorded after the render pass: the
 *          baseline ampvk's pass is measured against.
 *   none   The render alone.
 *
 * Three frame slots are in flight. The only host waits are the frame pacing
 * (vkWaitSemaphores on the application's timeline before a slot is reused) and the
 * final drain; there is no vkQueueWaitIdle, vkDeviceWaitIdle or fence in the loop.
 * Every K-th frame (--every, with --out) is copied into a host buffer and written as
 * DIR/frame_NNNN.png once the copy is done, which the loop sees without blocking
 * (vkGetSemaphoreCounterValue). The loop's frames per second are printed at the end.
 *
 * With AMPVK_VALIDATION=1 the application's instance runs the validation layer with
 * synchronization validation too; any message makes the program exit 1.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <ampvk/ampvk.h>

extern const uint32_t amp_postfx_scene_vert[], amp_postfx_scene_frag[], amp_postfx_blur_comp[];
extern const size_t amp_postfx_scene_vert_size, amp_postfx_scene_frag_size, amp_postfx_blur_comp_size;

enum { SLOTS = 3, WARMUP = 10 };
typedef enum pass { PASS_AMPVK, PASS_APP, PASS_NONE } pass;
static const char *pass_names[] = {"ampvk", "app", "none"};

typedef struct options {
    int width, height, frames, every;
    float sigma;
    const char *out;
    pass pass;
    bool quiet;
} options;

/* ---- errors ---- */

static int validation_messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    (void)user;
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    validation_messages++;
    fprintf(stderr, "ampvk-postfx: validation: %s\n", data->pMessage ? data->pMessage : "");
    return VK_FALSE;
}

/* ampvk's warnings and errors (its validation layer's messages among them; an error
 * a call returns is printed again by the demo). */
static void on_ampvk_log(void *user, amp_log_level level, amp_status status, const char *message)
{
    (void)user;
    (void)status;
    if (level <= AMP_LOG_WARN) fprintf(stderr, "ampvk-postfx: ampvk: %s\n", message);
}

/* Reports a failed Vulkan call and returns false. */
static bool vk_ok(VkResult r, const char *call)
{
    if (r == VK_SUCCESS) return true;
    fprintf(stderr, "ampvk-postfx: %s failed (VkResult %d)\n", call, (int)r);
    return false;
}

/* Reports a failed ampvk call and returns false. */
static bool amp_ok(amp_status s, const char *call)
{
    if (s == AMP_OK) return true;
    fprintf(stderr, "ampvk-postfx: %s: %s\n", call, amp_last_error());
    return false;
}

#define VK(call) vk_ok((call), #call)
#define AMP(call) amp_ok((call), #call)

/* ---- the application's device ---- */

typedef struct slot {
    VkImage scene, out, tmp;
    VkDeviceMemory scene_mem, out_mem, tmp_mem;
    VkImageView scene_view, out_view, tmp_view;
    VkFramebuffer framebuffer;
    VkCommandBuffer render, consume;
    VkDescriptorSet set;
    VkBuffer readback;
    VkDeviceMemory readback_mem;
    void *readback_ptr;
    uint64_t done;          /* the application's timeline value of the slot's last use */
    int saving;             /* frame whose copy the readback buffer is waiting for, or -1 */
    amp_texture *scene_tex, *out_tex;
    bool scene_exported, out_exported;
    amp_vulkan_image scene_ready, out_ready;
} slot;

typedef struct app {
    options o;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceFeatures2 features;
    VkPhysicalDeviceVulkan12Features f12;
    pthread_mutex_t queue_lock;
    VkCommandPool pool;
    VkRenderPass render_pass;
    VkPipelineLayout scene_layout, blur_layout;
    VkPipeline scene_pipeline, blur_pipeline;
    VkDescriptorSetLayout blur_set_layout;
    VkDescriptorPool descriptor_pool;
    VkSemaphore timeline;
    uint64_t value;
    slot slots[SLOTS];
    amp_accelerator_view *view;
    int saved[64], saved_count; /* frames written (printed after the timed loop) */
    amp_image_filter chain[3];
    int radius;
} app;

static void lock_queue(void *user, uint32_t family, uint32_t index)
{
    (void)family;
    (void)index;
    pthread_mutex_lock(&((app *)user)->queue_lock);
}

static void unlock_queue(void *user, uint32_t family, uint32_t index)
{
    (void)family;
    (void)index;
    pthread_mutex_unlock(&((app *)user)->queue_lock);
}

/* The instance (validation as AMPVK_VALIDATION says), the physical device of the
 * default accelerator, and a device with one graphics + compute queue and what ampvk
 * needs enabled. */
static bool open_device(app *a)
{
    amp_accelerator_info info;
    if (!AMP(amp_accelerator_get_info(amp_accelerator_default(), &info))) return false;
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
        .pfnUserCallback = on_message};
    VkApplicationInfo ai = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "ampvk-postfx",
                            .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = validation ? &mci : NULL,
                                .pApplicationInfo = &ai, .enabledLayerCount = validation ? 1 : 0,
                                .ppEnabledLayerNames = layers, .enabledExtensionCount = validation ? 1 : 0,
                                .ppEnabledExtensionNames = exts};
    if (!VK(vkCreateInstance(&ici, NULL, &a->instance))) return false;
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            a->instance, "vkCreateDebugUtilsMessengerEXT");
        mci.pNext = NULL;
        if (create) create(a->instance, &mci, NULL, &a->messenger);
    }
    VkPhysicalDevice pds[16];
    uint32_t n = 16;
    vkEnumeratePhysicalDevices(a->instance, &n, pds);
    for (uint32_t i = 0; i < n && !a->physical; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (strcmp(p.deviceName, info.description) == 0) a->physical = pds[i];
    }
    if (!a->physical) {
        fprintf(stderr, "ampvk-postfx: no Vulkan device named \"%s\"\n", info.description);
        return false;
    }
    VkQueueFamilyProperties fams[16];
    uint32_t nf = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(a->physical, &nf, fams);
    a->family = UINT32_MAX;
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    for (uint32_t i = 0; i < nf && a->family == UINT32_MAX; i++)
        if ((fams[i].queueFlags & need) == need) a->family = i;
    if (a->family == UINT32_MAX) {
        fprintf(stderr, "ampvk-postfx: \"%s\" has no graphics and compute queue\n", info.description);
        return false;
    }
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(a->physical, &have);
    a->f12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                .timelineSemaphore = VK_TRUE, .scalarBlockLayout = VK_TRUE};
    a->features = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &a->f12};
    /* ampvk's filters write storage images without a format where the device can */
    a->features.features.shaderStorageImageWriteWithoutFormat = have.shaderStorageImageWriteWithoutFormat;
    a->features.features.shaderStorageImageReadWithoutFormat = have.shaderStorageImageReadWithoutFormat;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = a->family, .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &a->features,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci};
    if (!VK(vkCreateDevice(a->physical, &dci, NULL, &a->device))) return false;
    vkGetDeviceQueue(a->device, a->family, 0, &a->queue);
    pthread_mutex_init(&a->queue_lock, NULL);
    VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = a->family};
    return VK(vkCreateSemaphore(a->device, &sci, NULL, &a->timeline)) &&
           VK(vkCreateCommandPool(a->device, &pci, NULL, &a->pool));
}

/* The first memory type of bits with the properties, or UINT32_MAX (reported). */
static uint32_t memory_type(app *a, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(a->physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
    fprintf(stderr, "ampvk-postfx: no memory type with properties 0x%x among 0x%x\n", (unsigned)want, (unsigned)bits);
    return UINT32_MAX;
}

/* A 2-D image of the frame's size in device-local memory, with a view of it. */
static bool make_image(app *a, VkFormat format, VkImageUsageFlags usage, VkImage *image, VkDeviceMemory *mem,
                       VkImageView *view)
{
    VkImageCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
                            .format = format, .extent = {(uint32_t)a->o.width, (uint32_t)a->o.height, 1},
                            .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    if (!VK(vkCreateImage(a->device, &ci, NULL, image))) return false;
    VkMemoryRequirements mr;
    vkGetImageMemoryRequirements(a->device, *image, &mr);
    VkMemoryAllocateInfo mi = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
                               .memoryTypeIndex = memory_type(a, mr.memoryTypeBits,
                                                              VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    if (mi.memoryTypeIndex == UINT32_MAX || !VK(vkAllocateMemory(a->device, &mi, NULL, mem)) || !VK(vkBindImageMemory(a->device, *image, *mem, 0)))
        return false;
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = *image,
                                 .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = format,
                                 .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    return VK(vkCreateImageView(a->device, &vci, NULL, view));
}

static bool make_shader(app *a, const uint32_t *code, size_t size, VkShaderModule *out)
{
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                   .pCode = code};
    return VK(vkCreateShaderModule(a->device, &ci, NULL, out));
}

/* The render pass (cleared, left in COLOR_ATTACHMENT_OPTIMAL), the scene's graphics
 * pipeline, and the app pass's compute pipeline with its descriptor layout. */
static bool make_pipelines(app *a)
{
    VkAttachmentDescription color = {.format = VK_FORMAT_R16G16B16A16_SFLOAT, .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR, .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                     .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
                                .pColorAttachments = &ref};
    /* the previous frame's reads of the image (compute, or ampvk behind the semaphore
     * wait at this stage) come before the clear */
    VkSubpassDependency dep = {.srcSubpass = VK_SUBPASS_EXTERNAL, .dstSubpass = 0,
                               .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                               .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
    VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = 1,
                                  .pAttachments = &color, .subpassCount = 1, .pSubpasses = &sub,
                                  .dependencyCount = 1, .pDependencies = &dep};
    if (!VK(vkCreateRenderPass(a->device, &rci, NULL, &a->render_pass))) return false;

    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE, cs = VK_NULL_HANDLE;
    bool ok = make_shader(a, amp_postfx_scene_vert, amp_postfx_scene_vert_size, &vs) &&
              make_shader(a, amp_postfx_scene_frag, amp_postfx_scene_frag_size, &fs) &&
              make_shader(a, amp_postfx_blur_comp, amp_postfx_blur_comp_size, &cs);
    VkPushConstantRange scene_pc = {VK_SHADER_STAGE_VERTEX_BIT, 0, 8};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .pushConstantRangeCount = 1, .pPushConstantRanges = &scene_pc};
    ok = ok && VK(vkCreatePipelineLayout(a->device, &lci, NULL, &a->scene_layout));
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vs, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = fs, .pName = "main"}};
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                 .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                            .viewportCount = 1, .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                 .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE,
                                                 .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    /* additive: overlapping triangles add up to brighter HDR values */
    VkPipelineColorBlendAttachmentState blend = {
        .blendEnable = VK_TRUE, .srcColorBlendFactor = VK_BLEND_FACTOR_ONE, .dstColorBlendFactor = VK_BLEND_FACTOR_ONE,
        .colorBlendOp = VK_BLEND_OP_ADD, .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
        .dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO, .alphaBlendOp = VK_BLEND_OP_ADD, .colorWriteMask = 0xF};
    VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                              .attachmentCount = 1, .pAttachments = &blend};
    VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                           .dynamicStateCount = 2, .pDynamicStates = dyn};
    VkGraphicsPipelineCreateInfo gci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .stageCount = 2,
                                        .pStages = stages, .pVertexInputState = &vi, .pInputAssemblyState = &ia,
                                        .pViewportState = &vp, .pRasterizationState = &rs, .pMultisampleState = &ms,
                                        .pColorBlendState = &cb, .pDynamicState = &ds, .layout = a->scene_layout,
                                        .renderPass = a->render_pass};
    ok = ok && VK(vkCreateGraphicsPipelines(a->device, VK_NULL_HANDLE, 1, &gci, NULL, &a->scene_pipeline));

    VkDescriptorSetLayoutBinding b[3];
    for (uint32_t i = 0; i < 3; i++)
        b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                              NULL};
    VkDescriptorSetLayoutCreateInfo sl = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 3, .pBindings = b};
    ok = ok && VK(vkCreateDescriptorSetLayout(a->device, &sl, NULL, &a->blur_set_layout));
    VkPushConstantRange blur_pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
    VkPipelineLayoutCreateInfo bl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                     .pSetLayouts = &a->blur_set_layout, .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &blur_pc};
    ok = ok && VK(vkCreatePipelineLayout(a->device, &bl, NULL, &a->blur_layout));
    VkComputePipelineCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                 .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = cs, .pName = "main"},
                                       .layout = a->blur_layout};
    ok = ok && VK(vkCreateComputePipelines(a->device, VK_NULL_HANDLE, 1, &cci, NULL, &a->blur_pipeline));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 3 * SLOTS};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = SLOTS,
                                      .poolSizeCount = 1, .pPoolSizes = &ps};
    ok = ok && VK(vkCreateDescriptorPool(a->device, &dpi, NULL, &a->descriptor_pool));
    if (vs) vkDestroyShaderModule(a->device, vs, NULL);
    if (fs) vkDestroyShaderModule(a->device, fs, NULL);
    if (cs) vkDestroyShaderModule(a->device, cs, NULL);
    return ok;
}

/* A frame slot: its images, framebuffer, command buffers, readback buffer, the app
 * pass's descriptors, and (pass ampvk) the images wrapped as textures. */
static bool make_slot(app *a, slot *s)
{
    const VkImageUsageFlags common = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    s->saving = -1;
    if (!make_image(a, VK_FORMAT_R16G16B16A16_SFLOAT, common | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &s->scene,
                    &s->scene_mem, &s->scene_view) ||
        !make_image(a, VK_FORMAT_R8G8B8A8_UNORM, common, &s->out, &s->out_mem, &s->out_view) ||
        !make_image(a, VK_FORMAT_R16G16B16A16_SFLOAT, common, &s->tmp, &s->tmp_mem, &s->tmp_view))
        return false;
    VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = a->render_pass,
                                   .attachmentCount = 1, .pAttachments = &s->scene_view,
                                   .width = (uint32_t)a->o.width, .height = (uint32_t)a->o.height, .layers = 1};
    if (!VK(vkCreateFramebuffer(a->device, &fci, NULL, &s->framebuffer))) return false;
    VkCommandBuffer cmds[2];
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = a->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 2};
    if (!VK(vkAllocateCommandBuffers(a->device, &cai, cmds))) return false;
    s->render = cmds[0];
    s->consume = cmds[1];
    VkDeviceSize bytes = (VkDeviceSize)a->o.width * (VkDeviceSize)a->o.height * 4;
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = bytes,
                              .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    if (!VK(vkCreateBuffer(a->device, &bci, NULL, &s->readback))) return false;
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(a->device, s->readback, &mr);
    VkMemoryAllocateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
        .memoryTypeIndex = memory_type(a, mr.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    if (mi.memoryTypeIndex == UINT32_MAX || !VK(vkAllocateMemory(a->device, &mi, NULL, &s->readback_mem)) ||
        !VK(vkBindBufferMemory(a->device, s->readback, s->readback_mem, 0)) ||
        !VK(vkMapMemory(a->device, s->readback_mem, 0, VK_WHOLE_SIZE, 0, &s->readback_ptr)))
        return false;
    VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = a->descriptor_pool, .descriptorSetCount = 1,
                                       .pSetLayouts = &a->blur_set_layout};
    if (!VK(vkAllocateDescriptorSets(a->device, &dai, &s->set))) return false;
    VkDescriptorImageInfo ii[3] = {{VK_NULL_HANDLE, s->scene_view, VK_IMAGE_LAYOUT_GENERAL},
                                   {VK_NULL_HANDLE, s->tmp_view, VK_IMAGE_LAYOUT_GENERAL},
                                   {VK_NULL_HANDLE, s->out_view, VK_IMAGE_LAYOUT_GENERAL}};
    VkWriteDescriptorSet w[3];
    for (uint32_t i = 0; i < 3; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = s->set,
                                      .dstBinding = i, .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, .pImageInfo = &ii[i]};
    vkUpdateDescriptorSets(a->device, 3, w, 0, NULL);
    if (a->o.pass != PASS_AMPVK) return true;
    amp_extent e = amp_extent2(a->o.height, a->o.width);
    s->scene_tex = amp_texture_wrap_vulkan_image(
        a->view, &(amp_texture_wrap_desc){.image = (uint64_t)(uintptr_t)s->scene,
                                          .format = VK_FORMAT_R16G16B16A16_SFLOAT, .extent = e,
                                          .layout = VK_IMAGE_LAYOUT_UNDEFINED, .access = {.queue_family = a->family}});
    s->out_tex = amp_texture_wrap_vulkan_image(
        a->view, &(amp_texture_wrap_desc){.image = (uint64_t)(uintptr_t)s->out, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                          .extent = e, .layout = VK_IMAGE_LAYOUT_UNDEFINED,
                                          .access = {.queue_family = a->family}});
    if (!s->scene_tex || !s->out_tex) return amp_ok(amp_last_status(), "wrapping the slot's images");
    /* the scene goes to the application first, for its first render */
    s->scene_exported = true;
    return AMP(amp_texture_export(s->scene_tex, &(amp_vulkan_access){.queue_family = a->family,
                                                                     .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                  &s->scene_ready));
}

static void free_slot(app *a, slot *s)
{
    amp_texture_destroy(&s->scene_tex);
    amp_texture_destroy(&s->out_tex);
    if (s->framebuffer) vkDestroyFramebuffer(a->device, s->framebuffer, NULL);
    VkImageView views[] = {s->scene_view, s->out_view, s->tmp_view};
    VkImage images[] = {s->scene, s->out, s->tmp};
    VkDeviceMemory mems[] = {s->scene_mem, s->out_mem, s->tmp_mem, s->readback_mem};
    for (int i = 0; i < 3; i++) {
        if (views[i]) vkDestroyImageView(a->device, views[i], NULL);
        if (images[i]) vkDestroyImage(a->device, images[i], NULL);
    }
    if (s->readback) vkDestroyBuffer(a->device, s->readback, NULL);
    for (int i = 0; i < 4; i++)
        if (mems[i]) vkFreeMemory(a->device, mems[i], NULL);
}

/* ---- a frame ---- */

static void image_barrier(VkCommandBuffer cmd, VkImage image, VkPipelineStageFlags src, VkAccessFlags src_access,
                          VkPipelineStageFlags dst, VkAccessFlags dst_access, VkImageLayout from, VkImageLayout to)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = src_access,
                              .dstAccessMask = dst_access, .oldLayout = from, .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = image,
                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cmd, src, dst, 0, 0, NULL, 0, NULL, 1, &b);
}

/* Records the copy of the output (in `layout`) into the slot's readback buffer. */
static void record_readback(app *a, slot *s, VkCommandBuffer cmd, VkImageLayout layout)
{
    VkBufferImageCopy c = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = {(uint32_t)a->o.width, (uint32_t)a->o.height, 1}};
    vkCmdCopyImageToBuffer(cmd, s->out, layout, s->readback, 1, &c);
    VkBufferMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = s->readback,
                                .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &hb, 0, NULL);
}

/* Records the render pass of frame f; for pass app, the blur and tone map after it
 * (and the readback when saving). */
static bool record_render(app *a, slot *s, int f, bool save)
{
    VkCommandBuffer cmd = s->render;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if (!VK(vkBeginCommandBuffer(cmd, &bi))) return false;
    VkClearValue clear = {.color = {{0.02f, 0.02f, 0.05f, 1.0f}}};
    VkRenderPassBeginInfo rp = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = a->render_pass,
                                .framebuffer = s->framebuffer,
                                .renderArea = {{0, 0}, {(uint32_t)a->o.width, (uint32_t)a->o.height}},
                                .clearValueCount = 1, .pClearValues = &clear};
    vkCmdBeginRenderPass(cmd, &rp, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, a->scene_pipeline);
    VkViewport vp = {0, 0, (float)a->o.width, (float)a->o.height, 0, 1};
    VkRect2D sc = {{0, 0}, {(uint32_t)a->o.width, (uint32_t)a->o.height}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &sc);
    float pc[2] = {(float)f * 0.05f, (float)a->o.width / (float)a->o.height};
    vkCmdPushConstants(cmd, a->scene_layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof pc, pc);
    vkCmdDraw(cmd, 3, 24, 0, 0);
    vkCmdEndRenderPass(cmd);
    if (a->o.pass == PASS_APP) {
        const VkPipelineStageFlags cs = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        image_barrier(cmd, s->scene, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, cs, VK_ACCESS_SHADER_READ_BIT,
                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
        /* tmp and out: their previous contents are not needed (their last readers, the
         * slot's previous frame, came before on this queue) */
        image_barrier(cmd, s->tmp, cs, 0, cs, VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_GENERAL);
        image_barrier(cmd, s->out, cs | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, cs, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->blur_pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->blur_layout, 0, 1, &s->set, 0, NULL);
        uint32_t gx = ((uint32_t)a->o.width + 15) / 16, gy = ((uint32_t)a->o.height + 15) / 16;
        for (int p = 0; p < 2; p++) {
            struct {
                int pass, radius;
                float sigma;
            } params = {p, a->radius, a->o.sigma};
            vkCmdPushConstants(cmd, a->blur_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof params, &params);
            vkCmdDispatch(cmd, gx, gy, 1);
            if (p == 0)
                image_barrier(cmd, s->tmp, cs, VK_ACCESS_SHADER_WRITE_BIT, cs, VK_ACCESS_SHADER_READ_BIT,
                              VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
        }
        if (save) {
            image_barrier(cmd, s->out, cs, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
            record_readback(a, s, cmd, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        }
    }
    return VK(vkEndCommandBuffer(cmd));
}

/* Submits cmd after `wait` (semaphore 0: none) at stage; signals the application's
 * timeline at the next value, which it returns (0 on failure). */
static uint64_t submit(app *a, VkCommandBuffer cmd, amp_vulkan_semaphore wait, VkPipelineStageFlags stage)
{
    uint64_t signal = a->value + 1;
    VkSemaphore ws = (VkSemaphore)(uintptr_t)wait.semaphore;
    VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                        .waitSemaphoreValueCount = ws ? 1 : 0, .pWaitSemaphoreValues = &wait.value,
                                        .signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &signal};
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ts, .waitSemaphoreCount = ws ? 1 : 0,
                       .pWaitSemaphores = &ws, .pWaitDstStageMask = &stage, .commandBufferCount = 1,
                       .pCommandBuffers = &cmd, .signalSemaphoreCount = 1, .pSignalSemaphores = &a->timeline};
    pthread_mutex_lock(&a->queue_lock);
    VkResult r = vkQueueSubmit(a->queue, 1, &si, VK_NULL_HANDLE);
    pthread_mutex_unlock(&a->queue_lock);
    if (!vk_ok(r, "vkQueueSubmit")) return 0;
    return a->value = signal;
}

/* Writes the slot's readback of frame f as a PNG. */
static bool write_frame(app *a, slot *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/frame_%04d.png", a->o.out, s->saving);
    amp_image im = {.width = a->o.width, .height = a->o.height, .channels = 4, .bits = 8,
                    .stride = (size_t)a->o.width * 4, .pixels = s->readback_ptr};
    if (!AMP(amp_image_save(path, &im, NULL))) return false;
    if (a->saved_count < 64) a->saved[a->saved_count++] = s->saving;
    s->saving = -1;
    return true;
}

/* Frame f through ampvk: the rendered scene in, the blurred and tone-mapped output
 * out, each hand-over on the GPU. */
static bool ampvk_pass(app *a, slot *s, uint64_t rendered, bool save)
{
    bool ok = AMP(amp_texture_import(s->scene_tex, &(amp_vulkan_access){
                                                       .queue_family = a->family,
                                                       .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                                       .wait = {(uint64_t)(uintptr_t)a->timeline, rendered}}));
    s->scene_exported = !ok;
    /* the output comes back after the application's last use: its copy, or nothing
       (then ampvk's own point) */
    if (ok && s->out_exported) {
        ok = AMP(amp_texture_import(s->out_tex, &(amp_vulkan_access){.queue_family = a->family, .wait = s->out_ready.ready}));
        s->out_exported = !ok;
    }
    ok = ok && AMP(amp_image_filter_chain(a->chain, 3, s->scene_tex, s->out_tex));
    ok = ok && AMP(amp_texture_export(s->scene_tex, &(amp_vulkan_access){.queue_family = a->family,
                                                                          .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                      &s->scene_ready));
    s->scene_exported = ok;
    ok = ok && AMP(amp_texture_export(s->out_tex, &(amp_vulkan_access){.queue_family = a->family,
                                                                        .layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
                                      &s->out_ready));
    s->out_exported = ok;
    if (!ok || !save) return ok;
    /* the application copies the output after ampvk's point */
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if (!VK(vkBeginCommandBuffer(s->consume, &bi))) return false;
    record_readback(a, s, s->consume, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    if (!VK(vkEndCommandBuffer(s->consume))) return false;
    uint64_t copied = submit(a, s->consume, s->out_ready.ready, VK_PIPELINE_STAGE_TRANSFER_BIT);
    s->out_ready.ready = (amp_vulkan_semaphore){(uint64_t)(uintptr_t)a->timeline, copied};
    return copied != 0;
}

/* Frames per second of the loop; false on any failure. */
static bool run(app *a, double *fps)
{
    struct timespec t0 = {0}, t1;
    for (int f = 0; f < a->o.frames; f++) {
        if (f == WARMUP || (f == 0 && a->o.frames <= WARMUP)) clock_gettime(CLOCK_MONOTONIC, &t0);
        slot *s = &a->slots[f % SLOTS];
        /* frame pacing: the slot's previous frame is done with its command buffers */
        if (s->done) {
            VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                      .pSemaphores = &a->timeline, .pValues = &s->done};
            if (!VK(vkWaitSemaphores(a->device, &wi, UINT64_MAX))) return false;
        }
        if (s->saving >= 0 && !write_frame(a, s)) return false;
        /* the other slots' saved frames, if their copies are done (no waiting) */
        uint64_t now = 0;
        vkGetSemaphoreCounterValue(a->device, a->timeline, &now);
        for (int k = 0; k < SLOTS; k++)
            if (a->slots[k].saving >= 0 && a->slots[k].done <= now && !write_frame(a, &a->slots[k])) return false;
        bool save = a->o.out && a->o.pass != PASS_NONE && f % a->o.every == 0;
        if (!record_render(a, s, f, save)) return false;
        /* pass ampvk: the render waits until ampvk is done reading the slot's scene */
        amp_vulkan_semaphore wait = a->o.pass == PASS_AMPVK ? s->scene_ready.ready : (amp_vulkan_semaphore){0};
        uint64_t rendered = submit(a, s->render, wait, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
        if (!rendered) return false;
        s->done = rendered;
        if (a->o.pass == PASS_AMPVK) {
            if (!ampvk_pass(a, s, rendered, save)) return false;
            if (save) s->done = a->value;
        }
        if (save) s->saving = f;
    }
    /* the drain: the application's last submissions, and ampvk's */
    uint64_t last = a->value;
    VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                              .pSemaphores = &a->timeline, .pValues = &last};
    if (!VK(vkWaitSemaphores(a->device, &wi, UINT64_MAX))) return false;
    if (a->view && !AMP(amp_view_wait(a->view))) return false;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int timed = a->o.frames > WARMUP ? a->o.frames - WARMUP : a->o.frames;
    *fps = timed / ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    for (int k = 0; k < SLOTS; k++)
        if (a->slots[k].saving >= 0 && !write_frame(a, &a->slots[k])) return false;
    return true;
}

/* ---- setup and the command line ---- */

static bool setup(app *a)
{
    if (!open_device(a) || !make_pipelines(a)) return false;
    /* cv2.GaussianBlur's size for a float source, as ampvk's gaussian: 4 sigma each side */
    a->radius = ((int)lrint(a->o.sigma * 8 + 1) | 1) / 2;
    if (a->o.pass == PASS_AMPVK) {
        a->view = amp_view_create_external(&(amp_vulkan_device_desc){
            .instance = a->instance, .physical_device = a->physical, .device = a->device, .queue = a->queue,
            .queue_family = a->family, .lock_queue = lock_queue, .unlock_queue = unlock_queue, .queue_user = a,
            .enabled_features = &a->features});
        if (!a->view) return amp_ok(amp_last_status(), "amp_view_create_external");
        /* blur, tone map, encode: one pass (the pointwise filters fuse into the gaussian's) */
        a->chain[0] = (amp_image_filter){.op = AMP_IMAGE_GAUSSIAN, .sigma = a->o.sigma};
        a->chain[1] = (amp_image_filter){.op = AMP_IMAGE_TONEMAP, .curve = AMP_TONEMAP_REINHARD};
        a->chain[2] = (amp_image_filter){.op = AMP_IMAGE_LINEAR_TO_SRGB};
        /* the chain's pipelines for the frame's size made before the loop, not in its first frame */
        if (!AMP(amp_image_filter_prepare_extent(a->view, a->chain, 3, AMP_FLOAT_4, 16,
                                                 amp_extent2(a->o.height, a->o.width))))
            return false;
    }
    for (int k = 0; k < SLOTS; k++)
        if (!make_slot(a, &a->slots[k])) return false;
    return true;
}

static void teardown(app *a)
{
    if (a->device) vkDeviceWaitIdle(a->device);
    for (int k = 0; k < SLOTS; k++) {
        /* ampvk's textures go before the view; the images are the application's */
        amp_texture_destroy(&a->slots[k].scene_tex);
        amp_texture_destroy(&a->slots[k].out_tex);
    }
    amp_view_destroy(&a->view);
    if (a->device) {
        for (int k = 0; k < SLOTS; k++) free_slot(a, &a->slots[k]);
        if (a->descriptor_pool) vkDestroyDescriptorPool(a->device, a->descriptor_pool, NULL);
        if (a->blur_pipeline) vkDestroyPipeline(a->device, a->blur_pipeline, NULL);
        if (a->scene_pipeline) vkDestroyPipeline(a->device, a->scene_pipeline, NULL);
        if (a->blur_layout) vkDestroyPipelineLayout(a->device, a->blur_layout, NULL);
        if (a->scene_layout) vkDestroyPipelineLayout(a->device, a->scene_layout, NULL);
        if (a->blur_set_layout) vkDestroyDescriptorSetLayout(a->device, a->blur_set_layout, NULL);
        if (a->render_pass) vkDestroyRenderPass(a->device, a->render_pass, NULL);
        if (a->pool) vkDestroyCommandPool(a->device, a->pool, NULL);
        if (a->timeline) vkDestroySemaphore(a->device, a->timeline, NULL);
        vkDestroyDevice(a->device, NULL);
        pthread_mutex_destroy(&a->queue_lock);
    }
    if (a->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            a->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(a->instance, a->messenger, NULL);
    }
    if (a->instance) vkDestroyInstance(a->instance, NULL);
}

static const char usage[] =
    "usage: ampvk-postfx [--width W] [--height H] [--frames N] [--every K] [--out DIR]\n"
    "                    [--pass ampvk|app|none] [--sigma S] [--quiet]\n"
    "A headless render loop on its own Vulkan device: an animated HDR scene each frame,\n"
    "blurred (gaussian, sigma S) and tone-mapped by ampvk (--pass ampvk, the default), by\n"
    "the application's own compute shaders (app), or not at all (none); frames per second\n"
    "at the end. With --out, every K-th frame is written as DIR/frame_NNNN.png.\n"
    "Defaults: 1920 x 1080, 300 frames, K 100, sigma 2.\n";

/* A whole positive int in [1, max], or false. */
static bool parse_int(const char *s, int max, int *out)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || v < 1 || v > max) return false;
    *out = (int)v;
    return true;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.width = 1920, .height = 1080, .frames = 300, .every = 100, .sigma = 2.0f, .pass = PASS_AMPVK};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(arg, "--quiet")) {
            o->quiet = true;
            continue;
        } else if (!strcmp(arg, "--width")) ok = parse_int(v, 16384, &o->width);
        else if (!strcmp(arg, "--height")) ok = parse_int(v, 16384, &o->height);
        else if (!strcmp(arg, "--frames")) ok = parse_int(v, 1000000, &o->frames);
        else if (!strcmp(arg, "--every")) ok = parse_int(v, 1000000, &o->every);
        else if (!strcmp(arg, "--out")) ok = (o->out = v) != NULL;
        else if (!strcmp(arg, "--sigma")) {
            char *end;
            o->sigma = v ? strtof(v, &end) : 0;
            ok = v && *v && !*end && o->sigma > 0 && o->sigma <= 64;
        } else if (!strcmp(arg, "--pass")) {
            int p = 0;
            while (p < 3 && (!v || strcmp(v, pass_names[p]))) p++;
            ok = p < 3;
            if (ok) o->pass = (pass)p;
        } else {
            fprintf(stderr, "ampvk-postfx: unknown option '%s' (see --help)\n", arg);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "ampvk-postfx: bad value '%s' for %s (see --help)\n", v ? v : "", arg);
            return 2;
        }
        i++;
    }
    return -1;
}

int main(int argc, char **argv)
{
    app a = {0};
    int rc = parse(argc, argv, &a.o);
    if (rc >= 0) return rc;
    if (a.o.out && mkdir(a.o.out, 0777) != 0 && access(a.o.out, W_OK) != 0) {
        fprintf(stderr, "ampvk-postfx: cannot write to %s\n", a.o.out);
        return 1;
    }
    amp_set_log_callback(on_ampvk_log, NULL, AMP_LOG_WARN);
    double fps = 0;
    bool ok = setup(&a) && run(&a, &fps);
    teardown(&a);
    for (int i = 0; ok && !a.o.quiet && i < a.saved_count; i++) printf("wrote %s/frame_%04d.png\n", a.o.out, a.saved[i]);
    if (ok)
        printf("postfx: %d frames of %dx%d, pass %s: %.1f frames/s (%.3f ms/frame)\n", a.o.frames, a.o.width,
               a.o.height, pass_names[a.o.pass], fps, 1000.0 / fps);
    /* ampvk's own instance: its messages went to the log callback */
    int messages = validation_messages + (int)amp_validation_message_count();
    if (messages) fprintf(stderr, "ampvk-postfx: %d validation messages\n", messages);
    return ok && !messages ? 0 : 1;
}
