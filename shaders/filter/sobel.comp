#version 450
// Sobel, ksize 3, per component: MODE 0 the magnitude, 1 d/dx, 2 d/dy (absolute
// unless FLAG_SIGNED). Alpha (the 2nd of 2 components, the 4th of 4) is kept.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    vec4 a, b, c, d, e = texelFetch(src, p, 0), f, g, h, i;
    if (inside(p - 1, p + 1)) {
        a = texelFetch(src, p + ivec2(-1, -1), 0), b = texelFetch(src, p + ivec2(0, -1), 0);
        c = texelFetch(src, p + ivec2(1, -1), 0), d = texelFetch(src, p + ivec2(-1, 0), 0);
        f = texelFetch(src, p + ivec2(1, 0), 0), g = texelFetch(src, p + ivec2(-1, 1), 0);
        h = texelFetch(src, p + ivec2(0, 1), 0), i = texelFetch(src, p + ivec2(1, 1), 0);
    } else {
        a = fetch(p + ivec2(-1, -1)), b = fetch(p + ivec2(0, -1)), c = fetch(p + ivec2(1, -1));
        d = fetch(p + ivec2(-1, 0)), f = fetch(p + ivec2(1, 0));
        g = fetch(p + ivec2(-1, 1)), h = fetch(p + ivec2(0, 1)), i = fetch(p + ivec2(1, 1));
    }
    vec4 dx = (c + 2.0 * f + i) - (a + 2.0 * d + g);
    vec4 dy = (g + 2.0 * h + i) - (a + 2.0 * b + c);
    vec4 v = MODE == 0 ? sqrt(dx * dx + dy * dy) : MODE == 1 ? dx : dy;
    if ((FLAGS & FLAG_SIGNED) == 0) v = abs(v);
    int n = SRC_N;
    if (n == 2) v.y = e.y;
    if (n == 4) v.w = e.w;
    store(p, v);
}
