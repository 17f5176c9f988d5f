#version 450
// Sobel, ksize 3, per component: mode.x 0 the magnitude, 1 d/dx, 2 d/dy (absolute
// unless FLAG_SIGNED). Alpha (the 2nd of 2 components, the 4th of 4) is kept.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    vec4 a = fetch(p + ivec2(-1, -1)), b = fetch(p + ivec2(0, -1)), c = fetch(p + ivec2(1, -1));
    vec4 d = fetch(p + ivec2(-1, 0)), e = texelFetch(src, p, 0), f = fetch(p + ivec2(1, 0));
    vec4 g = fetch(p + ivec2(-1, 1)), h = fetch(p + ivec2(0, 1)), i = fetch(p + ivec2(1, 1));
    vec4 dx = (c + 2.0 * f + i) - (a + 2.0 * d + g);
    vec4 dy = (g + 2.0 * h + i) - (a + 2.0 * b + c);
    vec4 v = P.mode.x == 0 ? sqrt(dx * dx + dy * dy) : P.mode.x == 1 ? dx : dy;
    if ((P.mode.w & FLAG_SIGNED) == 0) v = abs(v);
    int n = P.shape.x;
    if (n == 2) v.y = e.y;
    if (n == 4) v.w = e.w;
    store(p, v);
}
