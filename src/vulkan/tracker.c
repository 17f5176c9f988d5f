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
