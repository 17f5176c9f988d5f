/* The one table of texture formats (see src/core/format.h and include/ampvk/texture.h).
 *
 * A row per scalar family and bit width gives the Vulkan format and the GLSL
 * image qualifier for 1, 2 and 4 channels. Three components are stored on four
 * channels: GLSL has no 3-channel storage-image formats, so a 3-channel image
 * could not be written by kernels. A double is two 32-bit uint channels. */
#include <string.h>

#include "core/format.h"

typedef struct format_row {
    amp_scalar scalar;
    int bits;
    VkFormat vk[3];          /* 1, 2, 4 channels */
    const char *glsl[3];
    char sampled;
} format_row;

#define ROW(S, B, F1, F2, F4, G1, G2, G4, P) {S, B, {VK_FORMAT_##F1, VK_FORMAT_##F2, VK_FORMAT_##F4}, {G1, G2, G4}, P}
static const format_row rows[] = {
    ROW(AMP_SCALAR_INT, 8, R8_SINT, R8G8_SINT, R8G8B8A8_SINT, "r8i", "rg8i", "rgba8i", 'i'),
    ROW(AMP_SCALAR_INT, 16, R16_SINT, R16G16_SINT, R16G16B16A16_SINT, "r16i", "rg16i", "rgba16i", 'i'),
    ROW(AMP_SCALAR_INT, 32, R32_SINT, R32G32_SINT, R32G32B32A32_SINT, "r32i", "rg32i", "rgba32i", 'i'),
    ROW(AMP_SCALAR_UINT, 8, R8_UINT, R8G8_UINT, R8G8B8A8_UINT, "r8ui", "rg8ui", "rgba8ui", 'u'),
    ROW(AMP_SCALAR_UINT, 16, R16_UINT, R16G16_UINT, R16G16B16A16_UINT, "r16ui", "rg16ui", "rgba16ui", 'u'),
    ROW(AMP_SCALAR_UINT, 32, R32_UINT, R32G32_UINT, R32G32B32A32_UINT, "r32ui", "rg32ui", "rgba32ui", 'u'),
    ROW(AMP_SCALAR_FLOAT, 16, R16_SFLOAT, R16G16_SFLOAT, R16G16B16A16_SFLOAT, "r16f", "rg16f", "rgba16f", 0),
    ROW(AMP_SCALAR_FLOAT, 32, R32_SFLOAT, R32G32_SFLOAT, R32G32B32A32_SFLOAT, "r32f", "rg32f", "rgba32f", 0),
    ROW(AMP_SCALAR_NORM, 8, R8_SNORM, R8G8_SNORM, R8G8B8A8_SNORM, "r8_snorm", "rg8_snorm", "rgba8_snorm", 0),
    ROW(AMP_SCALAR_NORM, 16, R16_SNORM, R16G16_SNORM, R16G16B16A16_SNORM, "r16_snorm", "rg16_snorm", "rgba16_snorm", 0),
    ROW(AMP_SCALAR_UNORM, 8, R8_UNORM, R8G8_UNORM, R8G8B8A8_UNORM, "r8", "rg8", "rgba8", 0),
    ROW(AMP_SCALAR_UNORM, 16, R16_UNORM, R16G16_UNORM, R16G16B16A16_UNORM, "r16", "rg16", "rgba16", 0),
    /* double: 1 component on 2 uint channels, 2 components on 4 */
    ROW(AMP_SCALAR_DOUBLE, 64, UNDEFINED, R32G32_UINT, R32G32B32A32_UINT, NULL, "rg32ui", "rgba32ui", 'u'),
};
#undef ROW

static int default_bits(amp_scalar s)
{
    switch (s) {
    case AMP_SCALAR_INT: case AMP_SCALAR_UINT: case AMP_SCALAR_FLOAT: return 32;
    case AMP_SCALAR_DOUBLE: return 64;
    default: return 0; /* norm and unorm have no default */
    }
}

static void fill(const format_row *r, amp_type type, int components, amp__format *out)
{
    int channels = r->scalar == AMP_SCALAR_DOUBLE ? components * 2 : components == 3 ? 4 : components;
    int slot = channels == 4 ? 2 : channels - 1;
    int channel_bits = r->scalar == AMP_SCALAR_DOUBLE ? 32 : r->bits;
    VkFormat uint_vk = VK_FORMAT_UNDEFINED;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (rows[i].scalar == AMP_SCALAR_UINT && rows[i].bits == channel_bits) uint_vk = rows[i].vk[slot];
    *out = (amp__format){
        .type = type, .bits = r->bits, .components = components, .vk = r->vk[slot], .channels = channels,
        .glsl = r->glsl[slot], .host_texel = (size_t)components * (size_t)r->bits / 8,
        .image_texel = (size_t)channels * (size_t)channel_bits / 8,
        .emulated = components == 3, .sampled = r->sampled, .uint_vk = uint_vk,
        .word_vk = channels * channel_bits == 32 ? VK_FORMAT_R32_UINT : VK_FORMAT_UNDEFINED};
}

amp_status amp__format_find(amp_type type, int bits, amp__format *out)
{
    amp_scalar s = amp_type_scalar(type);
    int n = amp_type_components(type);
    if (!s) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%d is not a texture element type", (int)type);
    if (bits == 0) bits = default_bits(s);
    if (bits == 0)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s textures need bits_per_scalar_element (8 or 16); there is no default",
                         amp_type_name(type));
    if (s == AMP_SCALAR_DOUBLE && n > 2)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "%s textures are not supported: a texel holds at most 128 bits",
                         amp_type_name(type));
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (rows[i].scalar == s && rows[i].bits == bits) {
            fill(&rows[i], type, n, out);
            return AMP_OK;
        }
    return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "bits_per_scalar_element %d is not valid for %s (%s)", bits,
                     amp_type_name(type),
                     s == AMP_SCALAR_FLOAT                             ? "float: 16 or 32"
                     : s == AMP_SCALAR_NORM || s == AMP_SCALAR_UNORM ? "norm and unorm: 8 or 16"
                     : s == AMP_SCALAR_DOUBLE                          ? "double: 64"
                                                                       : "int and uint: 8, 16 or 32");
}

amp_status amp__format_from_vk(VkFormat vk, amp__format *out)
{
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        for (int slot = 0; slot < 3; slot++) {
            if (rows[i].vk[slot] != vk || vk == VK_FORMAT_UNDEFINED) continue;
            int channels = slot == 2 ? 4 : slot + 1;
            int components = rows[i].scalar == AMP_SCALAR_DOUBLE ? channels / 2 : channels;
            fill(&rows[i], (amp_type)AMP_MAKE_TYPE(rows[i].scalar, components), components, out);
            return AMP_OK;
        }
    return amp__fail(AMP_ERROR_UNSUPPORTED, "%s is not a format ampvk textures use", amp__vk_format_name(vk));
}

const char *amp__vk_format_name(VkFormat f)
{
    switch (f) {
#define F(x) case VK_FORMAT_##x: return "VK_FORMAT_" #x;
    F(R8_SINT) F(R8G8_SINT) F(R8G8B8A8_SINT) F(R16_SINT) F(R16G16_SINT) F(R16G16B16A16_SINT)
    F(R32_SINT) F(R32G32_SINT) F(R32G32B32A32_SINT) F(R8_UINT) F(R8G8_UINT) F(R8G8B8A8_UINT)
    F(R16_UINT) F(R16G16_UINT) F(R16G16B16A16_UINT) F(R32_UINT) F(R32G32_UINT) F(R32G32B32A32_UINT)
    F(R16_SFLOAT) F(R16G16_SFLOAT) F(R16G16B16A16_SFLOAT) F(R32_SFLOAT) F(R32G32_SFLOAT)
    F(R32G32B32A32_SFLOAT) F(R8_SNORM) F(R8G8_SNORM) F(R8G8B8A8_SNORM) F(R16_SNORM) F(R16G16_SNORM)
    F(R16G16B16A16_SNORM) F(R8_UNORM) F(R8G8_UNORM) F(R8G8B8A8_UNORM) F(R16_UNORM) F(R16G16_UNORM)
    F(R16G16B16A16_UNORM)
#undef F
    default: return "VK_FORMAT_(other)";
    }
}
