// Built-in: moves 3-channel texels between a packed buffer (the host's layout: three
// channels of 1, 2 or 4 bytes each, one texel after the other, rows and slices
// without gaps) and an image that stores them with four channels (the emulated
// 3-channel formats: an RGB8 texture is an RGBA8 image). AMP_WIDEN: buffer to image,
// the fourth channel 0; else image to buffer. Both images are seen through the uint
// format of their channels and bits, so every bit pattern survives, as in
// copy_image.comp. ampvk uses it for host transfers of such textures on GPUs: the
// device moves 3 bytes a texel across the bus instead of 4, and no host core widens
// or narrows. Built for each rank (AMP_RANK_1, _2, _3) and direction.
//
// An invocation takes 12 bytes of the buffer, three words: 4 texels of 1-byte
// channels, 2 of 2-byte ones or 1 of 4-byte ones. A channel never straddles a word.
#version 460
#if defined(AMP_RANK_1)
layout(set = 0, binding = 0) uniform usampler1D src;
layout(set = 0, binding = 1) writeonly uniform uimage1D dst;
#define AT(c) (offset.x + int((c).x))
#elif defined(AMP_RANK_2)
layout(set = 0, binding = 0) uniform usampler2D src;
layout(set = 0, binding = 1) writeonly uniform uimage2D dst;
#define AT(c) (offset.xy + ivec2((c).xy))
#else
layout(set = 0, binding = 0) uniform usampler3D src;
layout(set = 0, binding = 1) writeonly uniform uimage3D dst;
#define AT(c) (offset.xyz + ivec3(c))
#endif
layout(local_size_x = 256) in;
layout(set = 0, binding = 2, std430) buffer packed_t { uint word[]; };

// copy_image.comp's push_t: the box's first texel in the image, (unused), its size
// (x, y, z) and in w the bytes of a channel
layout(push_constant) uniform push_t {
    ivec4 offset;
    ivec4 unused;
    uvec4 extent;
};

// the texel t of the box, counted along x, then y, then z
uvec3 texel_at(uint t) { return uvec3(t % extent.x, t / extent.x % extent.y, t / extent.x / extent.y); }

void main()
{
    uint bytes = extent.w, bits = 8 * bytes, per_group = 4 / bytes;
    uint texels = extent.x * extent.y * extent.z, groups = (texels + per_group - 1) / per_group;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint g = gl_GlobalInvocationID.x; g < groups; g += stride) {
        uint w[3] = uint[3](0, 0, 0);
#if defined(AMP_WIDEN)
        for (int k = 0; k < 3; k++) w[k] = word[3 * g + k];
#endif
        for (uint m = 0; m < per_group; m++) {
            uint t = g * per_group + m;
            if (t >= texels) break;
#if defined(AMP_WIDEN)
            uvec4 v = uvec4(0);
            for (uint j = 0; j < 3; j++) {
                uint at = (3 * m + j) * bytes; // the channel's byte in the group
                v[j] = bitfieldExtract(w[at >> 2], int(8 * (at & 3)), int(bits));
            }
            imageStore(dst, AT(texel_at(t)), v);
#else
            uvec4 v = texelFetch(src, AT(texel_at(t)), 0);
            for (uint j = 0; j < 3; j++) {
                uint at = (3 * m + j) * bytes;
                w[at >> 2] = bitfieldInsert(w[at >> 2], v[j], int(8 * (at & 3)), int(bits));
            }
#endif
        }
#if !defined(AMP_WIDEN)
        for (int k = 0; k < 3; k++) word[3 * g + k] = w[k];
#endif
    }
}
