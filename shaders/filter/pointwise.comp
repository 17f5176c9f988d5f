#version 450
// Copy and the pointwise filters: one texel in, the program, one texel out.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    store(p, texelFetch(src, p, 0));
}
