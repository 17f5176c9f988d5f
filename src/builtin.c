/* Built-in kernels compiled at build time (shaders/builtin): pipelines made once
 * per device on first use; and the pipeline maker every kernel uses. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

extern const uint32_t amp__builtin_copy[];
extern const size_t amp__builtin_copy_size;

struct amp__builtin {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline copy;
};

amp_status amp__compute_pipeline(amp__device *d, const uint32_t *spirv, size_t bytes, VkPipelineLayout layout,
                                  VkPipeline *out)
{
    VkShaderModuleCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = bytes,
                                    .pCode = spirv};
    VkShaderModule mod;
    VkResult r = vkCreateShaderModule(d->device, &sci, NULL, &mod);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateShaderModule");
    VkComputePipelineCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod, .pName = "main"},
        .layout = layout};
    r = vkCreateComputePipelines(d->device, d->pipeline_cache, 1, &pci, NULL, out);
    vkDestroyShaderModule(d->device, mod, NULL);
    return r == VK_SUCCESS ? AMP_OK : amp__vk_fail(r, "vkCreateComputePipelines");
}

static amp_status make_copy_pipeline(amp__device *d, amp__builtin *b)
{
    VkDescriptorSetLayoutBinding bind[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 2, .pBindings = bind};
    VkResult r = vkCreateDescriptorSetLayout(d->device, &dci, NULL, &b->set_layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &b->set_layout, .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &pc};
    r = vkCreatePipelineLayout(d->device, &lci, NULL, &b->layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreatePipelineLayout");
    return amp__compute_pipeline(d, amp__builtin_copy, amp__builtin_copy_size, b->layout, &b->copy);
}

void amp__builtins_release(amp__device *d)
{
    amp__builtin *b = d->builtin;
    if (!b) return;
    if (b->copy) vkDestroyPipeline(d->device, b->copy, NULL);
    if (b->layout) vkDestroyPipelineLayout(d->device, b->layout, NULL);
    if (b->set_layout) vkDestroyDescriptorSetLayout(d->device, b->set_layout, NULL);
    free(b);
    d->builtin = NULL;
}

bool amp__shader_copy_possible(amp__device *d, VkDeviceSize src_offset, VkDeviceSize dst_offset, VkDeviceSize size)
{
    VkDeviceSize align = d->props.limits.minStorageBufferOffsetAlignment;
    return d->props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU && size % 16 == 0 && size / 16 <= UINT32_MAX &&
           src_offset % align == 0 && dst_offset % align == 0 && size <= d->props.limits.maxStorageBufferRange;
}

amp_status amp__record_shader_copy(amp_accelerator_view *v, amp__batch *batch, VkBuffer src, VkDeviceSize src_offset,
                                   VkBuffer dst, VkDeviceSize dst_offset, VkDeviceSize size)
{
    amp__device *d = v->dev;
    if (!d->builtin) {
        amp__builtin *b = calloc(1, sizeof *b);
        if (!b) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        d->builtin = b;
        amp_status s = make_copy_pipeline(d, b);
        if (s != AMP_OK) {
            amp__builtins_release(d);
            return s;
        }
    }
    amp__builtin *b = d->builtin;
    VkDescriptorSet set = amp__batch_descriptor_set(batch, b->set_layout);
    if (!set) return amp_last_status();
    VkDescriptorBufferInfo info[2] = {{src, src_offset, size}, {dst, dst_offset, size}};
    VkWriteDescriptorSet w[2];
    for (int i = 0; i < 2; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                      .dstBinding = (uint32_t)i, .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info[i]};
    vkUpdateDescriptorSets(d->device, 2, w, 0, NULL);
    VkCommandBuffer cmd = amp__batch_cmd(batch);
    amp__batch_bind(batch, b->copy);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->copy);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->layout, 0, 1, &set, 0, NULL);
    uint32_t n = (uint32_t)(size / 16);
    vkCmdPushConstants(cmd, b->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
    uint32_t groups = (n + 255) / 256;
    uint32_t max = d->props.limits.maxComputeWorkGroupCount[0];
    vkCmdDispatch(cmd, groups < 4096 ? groups : 4096 < max ? 4096 : max, 1, 1);
    v->stats.dispatches++;
    return AMP_OK;
}
