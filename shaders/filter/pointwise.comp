#version 450
// Copy and the pointwise filters: one texel in, the program, one texel out. Each
// invocation takes POINT_ROWS texels of a column, 16 rows apart, fetching them all
// before it stores any: a texel an invocation left the GPU too few reads in flight to
// reach its memory's speed.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

void main()
{
    int x = int(gl_GlobalInvocationID.x), y = int(gl_WorkGroupID.y) * 16 * POINT_ROWS + int(gl_LocalInvocationID.y);
    if (x >= P.size.z) return;
    int rows = clamp((P.size.w - y + 15) / 16, 0, POINT_ROWS);
    vec4 t[POINT_ROWS];
    for (int k = 0; k < POINT_ROWS; k++)
        if (k < rows) t[k] = texelFetch(src, ivec2(x, y + 16 * k), 0);
    for (int k = 0; k < POINT_ROWS; k++)
        if (k < rows) store(ivec2(x, y + 16 * k), t[k]);
}
