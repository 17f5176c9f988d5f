#version 450
// Sobel, ksize 3, per component: MODE SOBEL_MODE_MAGNITUDE, _X d/dx or _Y d/dy (absolute
// unless FLAG_SIGNED). Alpha (the 2nd of 2 components, the 4th of 4) is kept. Each
// invocation walks down RUN outputs of a column with the 3 x 3 window in registers,
// fetching one new row of three texels per output (not nine: texel fetches are what
// bounds a filter of this size on a GPU). (On GPUs, 8 bits into 8 bits between textures
// with uint views take conv_subgroup_int's sobel_main instead, faster on their codes.)
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

// The texels left of, at and right of column x in row y (through the border unless
// the whole block is inside).
void row(ivec2 q, bool all_inside, out vec4 l, out vec4 c, out vec4 r)
{
    if (all_inside) {
        l = texelFetch(src, q - ivec2(1, 0), 0), c = texelFetch(src, q, 0), r = texelFetch(src, q + ivec2(1, 0), 0);
    } else {
        l = fetch(q - ivec2(1, 0)), c = fetch(q), r = fetch(q + ivec2(1, 0));
    }
}

void main()
{
    ivec2 o = ivec2(gl_GlobalInvocationID.xy) * ivec2(1, RUN);
    if (outside(o)) return;
    bool all_inside = inside(o - 1, o + ivec2(1, RUN));
    vec4 a, b, c, d, e, f, g, h, i;
    row(o - ivec2(0, 1), all_inside, a, b, c);
    row(o, all_inside, d, e, f);
    int rows = min(RUN, P.size.w - o.y);
    for (int k = 0; k < rows; k++) {
        ivec2 p = o + ivec2(0, k);
        row(p + ivec2(0, 1), all_inside, g, h, i);
        vec4 dx = (c + 2.0 * f + i) - (a + 2.0 * d + g);
        vec4 dy = (g + 2.0 * h + i) - (a + 2.0 * b + c);
        vec4 v = MODE == SOBEL_MODE_MAGNITUDE ? sqrt(dx * dx + dy * dy) : MODE == SOBEL_MODE_X ? dx : dy;
        if ((FLAGS & FLAG_SIGNED) == 0) v = abs(v);
        int n = SRC_N;
        if (n == 2) v.y = e.y;
        if (n == 4) v.w = e.w;
        store(p, v);
        a = d, b = e, c = f;
        d = g, e = h, f = i;
    }
}
