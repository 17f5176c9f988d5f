/* Built-in kernels compiled at build time (shaders/builtin): pipelines made once
 * per device on first use, kept as a device cache. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

extern const uint32_t amp__builtin_copy[], amp__builtin_copy_image_1d[], amp__builtin_copy_image_2d[],
    amp__builtin_copy_image_3d[], amp__builtin_pack_image_1d[], amp__builtin_pack_image_2d[],
    amp__builtin_pack_image_3d[], amp__builtin_widen_image_1d[], amp__builtin_widen_image_2d[],
    amp__builtin_widen_image_3d[];
extern const size_t amp__builtin_copy_size, amp__builtin_copy_image_1d_size, amp__builtin_copy_image_2d_size,
    amp__builtin_copy_image_3d_size, amp__builtin_pack_image_1d_size, amp__builtin_pack_image_2d_size,
    amp__builtin_pack_image_3d_size, amp__builtin_widen_image_1d_size, amp__builtin_widen_image_2d_size,
    amp__builtin_widen_image_3d_size;

struct amp__builtin {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline copy;
    /* the image kernels: a sampled source (immutable nearest sampler), a storage
     * destination and a buffer (the packed texels of pack_image.comp), each kernel
     * using two of them; a pipeline for each kernel and rank made on first use */
    VkSampler sampler;
    VkDescriptorSetLayout image_set_layout;
    VkPipelineLayout image_layout;
    VkPipeline image_kernels[AMP__IMAGE_KERNELS][3];
};

static atomic_bool force_image_copy;

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

/* The image kernels' sampler, set layout and pipeline layout (those not made yet: a
 * failure leaves the ones made for the next try). */
static amp_status make_image_copy_layout(amp__device *d, amp__builtin *b)
{
    VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .magFilter = VK_FILTER_NEAREST,
                               .minFilter = VK_FILTER_NEAREST, .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                               .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
    VkResult r = b->sampler ? VK_SUCCESS : vkCreateSampler(d->device, &sci, NULL, &b->sampler);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateSampler");
    VkDescriptorSetLayoutBinding bind[3] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &b->sampler},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 3, .pBindings = bind};
    r = b->image_set_layout ? VK_SUCCESS : vkCreateDescriptorSetLayout(d->device, &dci, NULL, &b->image_set_layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(amp__image_push)};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &b->image_set_layout, .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &pc};
    r = vkCreatePipelineLayout(d->device, &lci, NULL, &b->image_layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreatePipelineLayout");
    return AMP_OK;
}

/* A pipeline of spirv on the image kernels' layout (made first where there is none). */
static amp_status layout_pipeline(amp__device *d, amp__builtin *b, const uint32_t *spirv, size_t size, VkPipeline *out)
{
    if (!b->image_layout) {
        amp_status s = make_image_copy_layout(d, b);
        if (s != AMP_OK) return s;
    }
    return amp__compute_pipeline(d, spirv, size, b->image_layout, out);
}

/* An image kernel's pipeline for images of a rank, made on first use. */
static VkPipeline image_pipeline(amp__device *d, amp__builtin *b, amp__image_kernel k, int rank)
{
    static const uint32_t *const spirv[AMP__IMAGE_KERNELS][3] = {
        {amp__builtin_copy_image_1d, amp__builtin_copy_image_2d, amp__builtin_copy_image_3d},
        {amp__builtin_widen_image_1d, amp__builtin_widen_image_2d, amp__builtin_widen_image_3d},
        {amp__builtin_pack_image_1d, amp__builtin_pack_image_2d, amp__builtin_pack_image_3d}};
    const size_t *const size[AMP__IMAGE_KERNELS][3] = {
        {&amp__builtin_copy_image_1d_size, &amp__builtin_copy_image_2d_size, &amp__builtin_copy_image_3d_size},
        {&amp__builtin_widen_image_1d_size, &amp__builtin_widen_image_2d_size, &amp__builtin_widen_image_3d_size},
        {&amp__builtin_pack_image_1d_size, &amp__builtin_pack_image_2d_size, &amp__builtin_pack_image_3d_size}};
    VkPipeline *p = &b->image_kernels[k][rank - 1];
    if (*p) return *p;
    if (layout_pipeline(d, b, spirv[k][rank - 1], *size[k][rank - 1], p) != AMP_OK) return VK_NULL_HANDLE;
    return *p;
}

static void builtins_release(amp__device *d, void *state)
{
    amp__builtin *b = state;
    for (int k = 0; k < AMP__IMAGE_KERNELS; k++)
        for (int i = 0; i < 3; i++)
            if (b->image_kernels[k][i]) vkDestroyPipeline(d->device, b->image_kernels[k][i], NULL);
    if (b->image_layout) vkDestroyPipelineLayout(d->device, b->image_layout, NULL);
    if (b->image_set_layout) vkDestroyDescriptorSetLayout(d->device, b->image_set_layout, NULL);
    if (b->sampler) vkDestroySampler(d->device, b->sampler, NULL);
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

void amp__force_shader_image_copy(bool on) { atomic_store(&force_image_copy, on); }

bool amp__shader_image_copy_possible(amp__device *d, const amp__format *f)
{
    if (amp__device_is_cpu(d) && !atomic_load(&force_image_copy)) return false;
    if (f->uint_vk == VK_FORMAT_UNDEFINED || !d->write_without_format) return false;
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(d->physical, f->uint_vk, &fp);
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    return (fp.optimalTilingFeatures & need) == need;
}

amp_status amp__image_kernel_prepare(amp__device *d, amp__image_kernel k, int rank)
{
    amp__builtin *b = amp__device_cache_get(d, &builtins);
    return b && image_pipeline(d, b, k, rank) ? AMP_OK : amp_last_status();
}

amp_status amp__image_kernel_pipeline(amp__device *d, const uint32_t *spirv, size_t size, VkPipeline *out)
{
    amp__builtin *b = amp__device_cache_get(d, &builtins);
    return b ? layout_pipeline(d, b, spirv, size, out) : amp_last_status();
}

/* Binds pipe (a kernel on the image kernels' layout) and a set of its resources (src,
 * dst and buf where given) and pushes its constants; false on failure (the message left). */
static bool bind_image_pipeline(amp_accelerator_view *v, amp__batch *batch, amp__builtin *b, VkPipeline pipe,
                                VkImageView src, VkImageView dst, VkBuffer buf, VkDeviceSize size,
                                const amp__image_push *push)
{
    amp__device *d = v->dev;
    VkDescriptorSet set = amp__batch_descriptor_set(batch, b->image_set_layout);
    if (!set) return false;
    VkDescriptorImageInfo images[2] = {{VK_NULL_HANDLE, src, VK_IMAGE_LAYOUT_GENERAL},
                                       {VK_NULL_HANDLE, dst, VK_IMAGE_LAYOUT_GENERAL}};
    VkDescriptorBufferInfo buffer = {buf, 0, size};
    VkWriteDescriptorSet w[3];
    uint32_t n = 0;
    for (uint32_t i = 0; i < 3; i++) {
        if (i < 2 ? !images[i].imageView : !buf) continue;
        w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                        .dstBinding = i, .descriptorCount = 1,
                                        .descriptorType = i == 0   ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                                          : i == 1 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        .pImageInfo = i < 2 ? &images[i] : NULL,
                                        .pBufferInfo = i == 2 ? &buffer : NULL};
    }
    vkUpdateDescriptorSets(d->device, n, w, 0, NULL);
    VkCommandBuffer cmd = amp__batch_cmd(batch);
    amp__batch_bind(batch, pipe);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->image_layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, b->image_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof *push, push);
    v->stats.dispatches++;
    return true;
}

/* Binds image kernel k's pipeline for rank, its resources and constants (as
 * bind_image_pipeline). */
static bool bind_image_kernel(amp_accelerator_view *v, amp__batch *batch, amp__image_kernel k, int rank,
                              VkImageView src, VkImageView dst, VkBuffer buf, VkDeviceSize size,
                              const amp__image_push *push)
{
    amp__builtin *b = amp__device_cache_get(v->dev, &builtins);
    VkPipeline pipe = b ? image_pipeline(v->dev, b, k, rank) : VK_NULL_HANDLE;
    return pipe && bind_image_pipeline(v, batch, b, pipe, src, dst, buf, size, push);
}

amp_status amp__record_image_kernel(amp_accelerator_view *v, amp__batch *batch, VkPipeline pipe, VkImageView src,
                                    VkImageView dst, VkBuffer buf, VkDeviceSize size, const amp__image_push *push)
{
    amp__builtin *b = amp__device_cache_get(v->dev, &builtins);
    return b && bind_image_pipeline(v, batch, b, pipe, src, dst, buf, size, push) ? AMP_OK : amp_last_status();
}

amp_status amp__record_shader_image_copy(amp_accelerator_view *v, amp__batch *batch, int rank, VkImageView src,
                                         const int32_t src_offset[3], VkImageView dst, const int32_t dst_offset[3],
                                         const uint32_t extent[3])
{
    amp__image_push push = {{src_offset[0], src_offset[1], src_offset[2], 0},
                            {dst_offset[0], dst_offset[1], dst_offset[2], 0},
                            {extent[0], extent[1], extent[2], 0}};
    if (!bind_image_kernel(v, batch, AMP__IMAGE_COPY, rank, src, dst, VK_NULL_HANDLE, 0, &push))
        return amp_last_status();
    /* copy_image.comp: 256 texels a group in 1-D, 16 x 64 (16 wide, 4 rows an invocation) in 2-D and 3-D */
    uint32_t gx = rank == 1 ? (extent[0] + 255) / 256 : (extent[0] + 15) / 16;
    uint32_t gy = rank == 1 ? 1 : (extent[1] + 63) / 64;
    vkCmdDispatch(amp__batch_cmd(batch), gx, gy, rank == 3 ? extent[2] : 1);
    return AMP_OK;
}

VkDeviceSize amp__packed_texels_size(size_t texels, uint32_t channel_bytes)
{
    size_t per_group = 4 / channel_bytes;
    return (VkDeviceSize)((texels + per_group - 1) / per_group) * 12;
}

amp_status amp__record_shader_pack(amp_accelerator_view *v, amp__batch *batch, int rank, bool widen,
                                   VkImageView image, const int32_t offset[3], const uint32_t extent[3],
                                   uint32_t channel_bytes, VkBuffer buf)
{
    amp__image_push push = {{offset[0], offset[1], offset[2], 0}, {0},
                            {extent[0], extent[1], extent[2], channel_bytes}};
    size_t texels = (size_t)extent[0] * extent[1] * extent[2];
    VkDeviceSize size = amp__packed_texels_size(texels, channel_bytes);
    if (!bind_image_kernel(v, batch, widen ? AMP__IMAGE_WIDEN : AMP__IMAGE_PACK, rank, widen ? VK_NULL_HANDLE : image,
                           widen ? image : VK_NULL_HANDLE, buf, size, &push))
        return amp_last_status();
    /* pack_image.comp: 256 invocations a group, 12 bytes each, the groups looping over the rest */
    uint64_t groups = (size / 12 + 255) / 256;
    uint32_t max = v->dev->props.limits.maxComputeWorkGroupCount[0];
    vkCmdDispatch(amp__batch_cmd(batch), groups < max ? (uint32_t)groups : max, 1, 1);
    return AMP_OK;
}
