// Built-in: copies a box of texels from one image level to another, bit for bit.
// Both images are seen through the uint format of their channels and bits
// (R8G8B8A8_UINT for an RGBA8 unorm texture), so every pattern survives: snorm's two
// codes for -1, NaN payloads, the emulated fourth channel. ampvk uses it for
// amp_texture_copy on GPUs, where a queue copy of an image can run far below the
// memory's speed. Built once for each rank: AMP_RANK_1, AMP_RANK_2 or AMP_RANK_3.
// An invocation copies ROWS texels down a column (2-D and 3-D), all loads before
// the stores, as the copy filter does.
#version 460
#if defined(AMP_RANK_1)
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) uniform usampler1D src;
layout(set = 0, binding = 1) writeonly uniform uimage1D dst;
#define ROWS 1
#define AT(offset, p) ((offset).x + int((p).x))
#elif defined(AMP_RANK_2)
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform usampler2D src;
layout(set = 0, binding = 1) writeonly uniform uimage2D dst;
#define ROWS 4
#define AT(offset, p) ((offset).xy + ivec2((p).xy))
#else
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform usampler3D src;
layout(set = 0, binding = 1) writeonly uniform uimage3D dst;
#define ROWS 4
#define AT(offset, p) ((offset).xyz + ivec3(p))
#endif

// the box: its first texel in each image (x, y, z) and its size
layout(push_constant) uniform push_t {
    ivec4 src_offset;
    ivec4 dst_offset;
    uvec4 extent;
};

void main()
{
    uvec3 p = uvec3(gl_GlobalInvocationID.x, gl_GlobalInvocationID.y * ROWS, gl_GlobalInvocationID.z);
    if (p.x >= extent.x || p.z >= extent.z) return;
    uvec4 texel[ROWS];
    for (int r = 0; r < ROWS; r++)
        if (p.y + r < extent.y) texel[r] = texelFetch(src, AT(src_offset, p + uvec3(0, r, 0)), 0);
    for (int r = 0; r < ROWS; r++)
        if (p.y + r < extent.y) imageStore(dst, AT(dst_offset, p + uvec3(0, r, 0)), texel[r]);
}
