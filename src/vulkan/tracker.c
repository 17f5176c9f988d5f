/* The tracker: per resource, the stages and access of the last device write and the
 * reads since it; before each command it gathers only the barriers that command
 * needs (and image layout changes), merged into one vkCmdPipelineBarrier. */
#include "vulkan/gpu.h"

void amp__barrier_to_host(VkCommandBuffer cmd, VkBuffer buf, VkPipelineStageFlags stage, VkAccessFlags access)
{
    VkBufferMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = access,
                                .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = buf, .offset = 0,
                                .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cmd, stage, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &hb, 0, NULL);
}

static const VkAccessFlags write_bits = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                        VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_MEMORY_WRITE_BIT;

/* Decides what an access needs after what the track has seen; gathers the stages
 * into bar and returns whether a memory barrier (with *src_access) is needed. */
static bool track(amp__track *t, VkPipelineStageFlags stage, VkAccessFlags access, bool write, uint64_t serial,
                  amp__barrier *bar, VkAccessFlags *src_access)
{
    bool need_memory = false, need_exec = false;
    VkPipelineStageFlags src = 0;
    *src_access = 0;
    if (t->write_stages) {
        /* read-after-write or write-after-write: make the write visible, unless this
         * stage already saw it (a second read of the same kind needs nothing) */
        bool seen = !write && (t->read_stages & stage) == stage && (t->read_access & access) == access;
        if (!seen) {
            need_memory = true;
            src |= t->write_stages;
            *src_access |= t->write_access;
        }
    }
    if (write && t->read_stages) {
        /* write-after-read: the reads must finish first (execution dependency) */
        need_exec = true;
        src |= t->read_stages;
    }
    if (need_memory || need_exec) {
        bar->src |= src;
        bar->dst |= stage;
    }
    if (write) {
        t->write_stages = stage;
        t->write_access = access & write_bits;
        t->read_stages = 0;
        t->read_access = 0;
        t->last_write_serial = serial;
    } else if (t->write_stages) {
        t->read_stages |= stage;
        t->read_access |= access;
    } else {
        t->read_stages |= stage;
    }
    t->last_serial = serial;
    return need_memory;
}

void amp__track_access(amp__track *t, VkBuffer buf, VkPipelineStageFlags stage, VkAccessFlags access, bool write,
                       uint64_t serial, amp__barrier *bar)
{
    VkAccessFlags src_access;
    if (!track(t, stage, access, write, serial, bar, &src_access)) return;
    if (bar->count < sizeof bar->buffers / sizeof *bar->buffers)
        bar->buffers[bar->count++] = (VkBufferMemoryBarrier){
            .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = src_access, .dstAccessMask = access,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .buffer = buf, .offset = 0, .size = VK_WHOLE_SIZE};
    else
        bar->overflow = true; /* a global memory barrier covers it */
}

void amp__track_image_access(amp__track *t, VkImage image, VkImageLayout *layout, VkImageLayout want,
                             VkPipelineStageFlags stage, VkAccessFlags access, bool write, uint64_t serial,
                             amp__barrier *bar)
{
    VkAccessFlags src_access;
    bool transition = *layout != want;
    /* a layout transition writes the image: it waits for every earlier access */
    bool need = track(t, stage, access, write || transition, serial, bar, &src_access) || transition;
    if (!need) return;
    if (transition && !bar->src) bar->src = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
    bar->dst |= stage;
    if (bar->image_count < sizeof bar->images / sizeof *bar->images)
        bar->images[bar->image_count++] = (VkImageMemoryBarrier){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = src_access, .dstAccessMask = access,
            .oldLayout = *layout, .newLayout = want,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1}};
    else
        bar->overflow = true;
    *layout = want;
}

void amp__barrier_record(amp_accelerator_view *v, VkCommandBuffer cmd, amp__barrier *bar)
{
    if (!bar->src) return;
    VkMemoryBarrier global = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                              .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
    bool overflow = bar->overflow;
    vkCmdPipelineBarrier(cmd, bar->src, bar->dst, 0, overflow ? 1 : 0, &global, overflow ? 0 : bar->count,
                         bar->buffers, overflow ? 0 : bar->image_count, bar->images);
    v->stats.barriers++;
    bar->src = bar->dst = 0;
    bar->count = bar->image_count = 0;
    bar->overflow = false;
}

/* ---- hand-over to and from the application ---- */

/* The family on the other side of a hand-over: VK_QUEUE_FAMILY_IGNORED when it is
 * the device's own (no ownership transfer); an error naming a family the device
 * does not have. */
static amp_status handover_family(amp__device *d, const char *who, uint32_t family, uint32_t *out)
{
    *out = VK_QUEUE_FAMILY_IGNORED;
    if (family == VK_QUEUE_FAMILY_IGNORED || family == d->queue_family) return AMP_OK;
    if (family >= d->family_count)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: queue family %u is outside the %u families of \"%s\"", who,
                         family, d->family_count, d->props.deviceName);
    *out = family;
    return AMP_OK;
}

amp_status amp__handover_layout(const char *who, VkImageLayout layout, bool incoming)
{
    switch (layout) {
    case VK_IMAGE_LAYOUT_UNDEFINED:
    case VK_IMAGE_LAYOUT_PREINITIALIZED:
        if (incoming) return AMP_OK;
        break;
    case VK_IMAGE_LAYOUT_GENERAL:
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL:
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL:
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR:
        return AMP_OK;
    default:
        break;
    }
    return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: layout %u is not one a color image can be handed over in", who,
                     (unsigned)layout);
}

/* One barrier of a hand-over: a buffer's whole range, or all levels of an image. */
static void handover_barrier(amp_accelerator_view *v, VkCommandBuffer cmd, VkPipelineStageFlags src,
                             VkPipelineStageFlags dst, VkAccessFlags src_access, VkAccessFlags dst_access,
                             VkBuffer buf, VkImage image, VkImageLayout from, VkImageLayout to, uint32_t src_family,
                             uint32_t dst_family)
{
    VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = src_access,
                                .dstAccessMask = dst_access, .srcQueueFamilyIndex = src_family,
                                .dstQueueFamilyIndex = dst_family, .buffer = buf, .offset = 0, .size = VK_WHOLE_SIZE};
    VkImageMemoryBarrier ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = src_access,
                               .dstAccessMask = dst_access, .oldLayout = from, .newLayout = to,
                               .srcQueueFamilyIndex = src_family, .dstQueueFamilyIndex = dst_family, .image = image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1}};
    vkCmdPipelineBarrier(cmd, src, dst, 0, 0, NULL, image ? 0 : 1, &bb, image ? 1 : 0, &ib);
    v->stats.barriers++;
}

amp_status amp__handover_give(amp_accelerator_view *h, const char *who, uint32_t family, amp__track *t, VkBuffer buf,
                              VkImage image, VkImageLayout from, VkImageLayout to, amp_vulkan_semaphore *ready,
                              uint32_t *family_out)
{
    amp__device *d = h->dev;
    amp_status s = handover_family(d, who, family, &family);
    if (s != AMP_OK) return s;
    amp__batch *b = amp__batch_current(h);
    if (!b) return amp_last_status();
    uint64_t serial = amp__batch_serial(b);
    bool transfer = family != VK_QUEUE_FAMILY_IGNORED;
    if (transfer || from != to) {
        VkPipelineStageFlags src = t->write_stages | t->read_stages;
        /* the semaphore signal after it waits for everything before it: the barrier
         * needs no second scope of its own (dstStageMask BOTTOM_OF_PIPE, no access) */
        handover_barrier(h, amp__batch_cmd(b), src ? src : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, t->write_access, 0, buf, image, from, to,
                         transfer ? d->queue_family : VK_QUEUE_FAMILY_IGNORED, family);
    }
    *t = (amp__track){.last_serial = serial, .last_write_serial = serial};
    *ready = (amp_vulkan_semaphore){(uint64_t)(uintptr_t)d->timeline, serial};
    *family_out = transfer ? family : d->queue_family;
    return amp__view_submit(h);
}

amp_status amp__handover_take(amp_accelerator_view *h, const char *who, const amp_vulkan_access *a, amp__track *t,
                              VkBuffer buf, VkImage image, VkImageLayout from, VkImageLayout to)
{
    uint32_t family;
    amp_status s = handover_family(h->dev, who, a->queue_family, &family);
    if (s != AMP_OK) return s;
    VkSemaphore wait = (VkSemaphore)(uintptr_t)a->wait.semaphore;
    amp__batch *b = wait ? amp__batch_fresh(h) : amp__batch_current(h);
    if (!b) return amp_last_status();
    if (wait && (s = amp__batch_wait(b, wait, a->wait.value, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT)) != AMP_OK) return s;
    bool transfer = family != VK_QUEUE_FAMILY_IGNORED;
    if (transfer || from != to)
        /* the first scope chains with the semaphore wait's stages */
        handover_barrier(h, amp__batch_cmd(b), wait ? VK_PIPELINE_STAGE_ALL_COMMANDS_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                             VK_ACCESS_TRANSFER_WRITE_BIT,
                         buf, image, from, to, family, transfer ? h->dev->queue_family : VK_QUEUE_FAMILY_IGNORED);
    /* made visible to every later compute and transfer access: nothing pending. Not
     * a command: a wait for another hand-over may still join this batch. */
    uint64_t serial = amp__batch_serial(b);
    *t = (amp__track){.last_serial = serial, .last_write_serial = serial};
    return AMP_OK;
}
