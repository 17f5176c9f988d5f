/* Samplers: amp_sampler values, each made once per device as a VkSampler (with
 * VK_EXT_custom_border_color for border colors other than the built-in three). */
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

typedef struct sampler_entry {
    amp_sampler key;
    VkSampler sampler;
    struct sampler_entry *next;
} sampler_entry;

/* The device's samplers, by value: a device cache. */
typedef struct sampler_cache {
    sampler_entry *entries;
} sampler_cache;

static void samplers_release(amp__device *d, void *state)
{
    sampler_cache *c = state;
    while (c->entries) {
        sampler_entry *e = c->entries;
        c->entries = e->next;
        vkDestroySampler(d->device, e->sampler, NULL);
        free(e);
    }
    free(c);
}

static const amp__device_cache_type samplers = {"samplers", sizeof(sampler_cache), NULL, samplers_release};

VkSampler amp__sampler_get(amp__device *d, const amp_sampler *s)
{
    sampler_cache *c = amp__device_cache_get(d, &samplers);
    if (!c) return VK_NULL_HANDLE;
    for (sampler_entry *e = c->entries; e; e = e->next)
        if (memcmp(&e->key, s, sizeof *s) == 0) return e->sampler;
    if (s->filter < AMP_FILTER_LINEAR || s->filter > AMP_FILTER_POINT || s->address < AMP_ADDRESS_CLAMP ||
        s->address > AMP_ADDRESS_BORDER) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "sampler filter %d or address mode %d is not valid", (int)s->filter,
                  (int)s->address);
        return VK_NULL_HANDLE;
    }
    static const VkSamplerAddressMode modes[] = {
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_REPEAT,
        VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
    VkFilter f = s->filter == AMP_FILTER_POINT ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    VkSamplerCustomBorderColorCreateInfoEXT custom = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
        .customBorderColor = {.float32 = {s->border_color[0], s->border_color[1], s->border_color[2],
                                          s->border_color[3]}},
        .format = VK_FORMAT_UNDEFINED};
    VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    bool use_custom = false;
    if (s->address == AMP_ADDRESS_BORDER) {
        const float *c = s->border_color;
        if (c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0) border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
        else if (c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 1) border = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
        else if (c[0] == 1 && c[1] == 1 && c[2] == 1 && c[3] == 1) border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
        else if (d->custom_border) {
            border = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
            use_custom = true;
        } else {
            amp__fail(AMP_ERROR_UNSUPPORTED,
                      "border color (%g, %g, %g, %g) needs VK_EXT_custom_border_color, which \"%s\" lacks", c[0], c[1],
                      c[2], c[3], d->props.deviceName);
            return VK_NULL_HANDLE;
        }
    }
    VkSamplerCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .pNext = use_custom ? &custom : NULL, .magFilter = f,
        .minFilter = f,
        .mipmapMode = s->filter == AMP_FILTER_POINT ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR,
        .addressModeU = modes[s->address], .addressModeV = modes[s->address], .addressModeW = modes[s->address],
        .maxLod = VK_LOD_CLAMP_NONE, .borderColor = border};
    sampler_entry *e = calloc(1, sizeof *e);
    if (!e) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return VK_NULL_HANDLE;
    }
    VkResult r = vkCreateSampler(d->device, &ci, NULL, &e->sampler);
    if (r != VK_SUCCESS) {
        free(e);
        amp__vk_fail(r, "vkCreateSampler");
        return VK_NULL_HANDLE;
    }
    e->key = *s;
    e->next = c->entries;
    c->entries = e;
    return e->sampler;
}
