#version 450
// Separable filters (conv.comp's: gaussian, box, erode, dilate, sharpen) of radius up to
// SUB_R in one pass, on GPUs whose subgroups shuffle: a subgroup of S invocations holds
// S adjacent columns and walks down a strip of P.counts.x rows. Each invocation fetches
// its texel of a row, takes its neighbours' from the subgroup (subgroupShuffle) for the
// row's horizontal result, and keeps the last 2r + 1 of those in registers for the
// column's; the S - 2r middle invocations write. One texel fetch per output (and the
// halo's: 2r columns of S, 2r rows of the strip), no shared memory, no barrier. The
// order of additions is conv.comp's tile's (rows first, each over k = -r..r, then the
// columns over k = -r..r). chain.c works out the work groups from the subgroup size.
// (Tried on an H100: 8-bit texels shuffled as one packed word, 0.067 -> 0.101 ms for a
// 4K gaussian 5 x 5, the unpacking costing more than three shuffles; two columns per
// invocation, 0.081-0.093 ms.)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#include "filter.glsl"
layout(local_size_x = 128) in;
#include "conv.glsl"

#define SUB_R 4 // the largest radius (chain.c's SUBGROUP_RADIUS): the loops' bound
#define WINDOW (2 * SUB_R + 1)

void main()
{
    int r = RADIUS, strip = P.counts.x;
    int lane = int(gl_SubgroupInvocationID), size = int(gl_SubgroupSize);
    int x = int(gl_WorkGroupID.x) * (size - 2 * r) + lane - r;
    int y0 = (int(gl_WorkGroupID.y) * int(gl_NumSubgroups) + int(gl_SubgroupID)) * strip;
    if (y0 >= P.size.w) return; // the whole subgroup
    int rows = min(strip, P.size.w - y0);
    bool writes = lane >= r && lane < size - r && x < P.size.z;
    bool x_inside = x >= 0 && x < P.size.x;
    // h[m]: the horizontal result of this column in an input row, m = WINDOW - 1 the
    // latest (constant indices once the loops are unrolled: registers)
    vec4 h[WINDOW];
    [[unroll]] for (int m = 0; m < WINDOW; m++) h[m] = start();
    for (int j = 0; j < rows + 2 * r; j++) {
        [[unroll]] for (int m = 0; m < WINDOW - 1; m++) h[m] = h[m + 1];
        int y = y0 - r + j; // the input row
        int yb = border_at(y, P.size.y, BORDER);
        vec4 t = x_inside ? (yb < 0 ? P.border_value : texelFetch(src, ivec2(x, yb), 0)) : fetch(ivec2(x, y));
        vec4 s = start();
        [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
            if (abs(k) <= r) s = take(s, k == 0 ? t : subgroupShuffle(t, uint(clamp(lane + k, 0, size - 1))), k);
        h[WINDOW - 1] = s;
        if (j >= 2 * r && writes) { // the output row y - r: the window's rows y - 2r .. y
            vec4 acc = start();
            [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
                if (abs(k) <= r) acc = take(acc, h[WINDOW - 1 - r + k], k);
            finish(ivec2(x, y - r), acc);
        }
    }
}
