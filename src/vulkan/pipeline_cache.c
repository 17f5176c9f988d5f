/* The device's VkPipelineCache, kept on disk in the cache directory per device and
 * driver (pipelines-<pipelineCacheUUID>.bin), and the compute pipelines made
 * through it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

static char *pipeline_cache_path(amp__device *d)
{
    char name[64];
    char *w = name + snprintf(name, sizeof name, "pipelines-");
    for (unsigned i = 0; i < VK_UUID_SIZE; i++) w += sprintf(w, "%02x", d->props.pipelineCacheUUID[i]);
    snprintf(w, sizeof name - (size_t)(w - name), ".bin");
    return amp__cache_path(name);
}

void amp__pipeline_cache_load(amp__device *d)
{
    size_t size = 0;
    char *data = NULL;
    char *path = pipeline_cache_path(d);
    if (path && amp__file_read(path, &data, &size, NULL) != 0) data = NULL;
    /* Trust the file only if its header names this exact device and driver. */
    if (data) {
        uint32_t h[4];
        bool ok = size >= 16 + VK_UUID_SIZE;
        if (ok) memcpy(h, data, 16);
        ok = ok && h[0] >= 16 + VK_UUID_SIZE && h[0] <= size &&
             h[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && h[2] == d->props.vendorID &&
             h[3] == d->props.deviceID && memcmp(data + 16, d->props.pipelineCacheUUID, VK_UUID_SIZE) == 0;
        if (!ok) {
            free(data);
            data = NULL;
            size = 0;
        }
    }
    VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                    .initialDataSize = data ? size : 0, .pInitialData = data};
    if (vkCreatePipelineCache(d->device, &ci, NULL, &d->pipeline_cache) != VK_SUCCESS) {
        ci.initialDataSize = 0;
        ci.pInitialData = NULL;
        if (vkCreatePipelineCache(d->device, &ci, NULL, &d->pipeline_cache) != VK_SUCCESS)
            d->pipeline_cache = VK_NULL_HANDLE;
    }
    free(data);
    free(path);
}

void amp__pipeline_cache_save(amp__device *d)
{
    if (!d->pipeline_cache || !d->pipeline_cache_dirty || !amp__cache_enabled()) return;
    size_t size = 0;
    if (vkGetPipelineCacheData(d->device, d->pipeline_cache, &size, NULL) != VK_SUCCESS || !size) return;
    void *data = malloc(size);
    char *path = pipeline_cache_path(d);
    if (data && path && vkGetPipelineCacheData(d->device, d->pipeline_cache, &size, data) == VK_SUCCESS)
        amp__file_write(path, data, size, false, NULL);
    d->pipeline_cache_dirty = false;
    free(data);
    free(path);
}

void amp__pipeline_cache_changed(amp__device *d)
{
    d->pipeline_cache_dirty = true;
    amp__pipeline_cache_save(d);
}

amp_status amp__compute_pipeline(amp__device *d, const uint32_t *spirv, size_t bytes, VkPipelineLayout layout,
                                  VkPipeline *out)
{
    return amp__compute_pipeline_specialized(d, spirv, bytes, layout, NULL, out);
}

amp_status amp__compute_pipeline_specialized(amp__device *d, const uint32_t *spirv, size_t bytes,
                                              VkPipelineLayout layout, const VkSpecializationInfo *spec,
                                              VkPipeline *out)
{
    if (amp__device_check(d) != AMP_OK) return AMP_ERROR_DEVICE_LOST;
    uint64_t span = amp__trace_begin();
    uint32_t *special = NULL;
    size_t special_bytes = 0;
    if (spec) {
        /* declined (AMP_ERROR_UNSUPPORTED): the driver specializes the module instead */
        if (amp__spirv_specialize(spirv, bytes, spec, &special, &special_bytes, NULL) == AMP_ERROR_OUT_OF_MEMORY)
            return AMP_ERROR_OUT_OF_MEMORY;
    }
    VkShaderModuleCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = special ? special_bytes : bytes, .pCode = special ? special : spirv};
    VkShaderModule mod;
    VkResult r = vkCreateShaderModule(d->device, &sci, NULL, &mod);
    free(special);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateShaderModule");
    VkComputePipelineCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod, .pName = "main", .pSpecializationInfo = special ? NULL : spec},
        .layout = layout};
    r = vkCreateComputePipelines(d->device, d->pipeline_cache, 1, &pci, NULL, out);
    amp__trace_end(span, "compile", "pipeline", NULL);
    vkDestroyShaderModule(d->device, mod, NULL);
    if (r == VK_SUCCESS) d->pipeline_cache_dirty = true; /* saved when the device closes */
    return r == VK_SUCCESS ? AMP_OK : amp__vk_fail(r, "vkCreateComputePipelines");
}
