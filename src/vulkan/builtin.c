/* Built-in kernels compiled at build time (shaders/builtin): pipelines made once
 * per device on first use, kept as a device cache. */
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

extern const uint32_t amp__builtin_copy[];
extern const size_t amp__builtin_copy_size;

struct amp__builtin {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline copy;
};

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

static void builtins_release(amp__device *d, void *state)
{
    amp__builtin *b = state;
    if (b->copy) vkDestroyPipeline(d->device, b->copy, NULL);
    if (b->layout) vkDestroyPipelineLayout(d->device, b->layout, NULL);
    if (b->set_layout) vkDestroyDescriptorSetLayout(d->device, b->set_layout, NULL);
    free(b);
}

static amp_status builtins_init(amp__device *d, void *state) { return make_copy_pipeline(d, state); }

static const amp__device_cache_type builtins = {"built-in kernels", sizeof(amp__builtin), builtins_init,
                                                builtins_release};

bool amp__shader_copy_possible(amp__device *d, VkDeviceSize src_offset, VkDeviceSize dst_offset, VkDeviceSize size)
{
    VkDeviceSize align = d->props.limits.minStorageBufferOffsetAlignment;
    return !amp__device_is_cpu(d) && size % 16 == 0 && size / 16 <= UINT32_MAX &&
           src_offset % align == 0 && dst_offset % align == 0 && size <= d->props.limits.maxStorageBufferRange;
}

amp_status amp__record_shader_copy(amp_accelerator_view *v, amp__batch *batch, VkBuffer src, VkDeviceSize src_offset,
                                   VkBuffer dst, VkDeviceSize dst_offset, VkDeviceSize size)
{
    amp__device *d = v->dev;
    amp__builtin *b = amp__device_cache_get(d, &builtins);
    if (!b) return amp_last_status();
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
