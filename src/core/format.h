/* The table of texture formats: element type and bits to Vulkan format. */
#ifndef AMPVK_FORMAT_H
#define AMPVK_FORMAT_H

#include "core/core.h"

/* How one texture type is stored. */
typedef struct amp__format {
    amp_type type;
    int bits;               /* bits per scalar element */
    int components;         /* of the type: 1..4 */
    VkFormat vk;            /* the image's format */
    int channels;           /* of the image: components, 4 for an emulated 3, 2 or 4 for double */
    const char *glsl;       /* the GLSL image format qualifier */
    size_t host_texel;      /* bytes per texel on the host */
    size_t image_texel;     /* bytes per texel in the image */
    bool emulated;          /* 3 components on a 4-channel image */
    char sampled;           /* GLSL image/sampler prefix: 0 (float), 'i' or 'u' */
    VkFormat uint_vk;       /* the uint format of the same channels and bits: what a
                               shader reads and writes to copy texels bit for bit */
    VkFormat word_vk;       /* R32_UINT where a texel is 4 bytes (RGBA8, RG16, R32): the
                               texel as one word (its bytes in memory order); else
                               VK_FORMAT_UNDEFINED */
} amp__format;

/* The format for type and bits (0: the default) after C++ AMP's rules; an error
 * naming both when the combination does not exist. */
AMP_HIDDEN amp_status amp__format_find(amp_type type, int bits, amp__format *out);
/* The format whose Vulkan format is vk (for wrapped images), or an error. */
AMP_HIDDEN amp_status amp__format_from_vk(VkFormat vk, amp__format *out);
AMP_HIDDEN const char *amp__vk_format_name(VkFormat f);

#endif
