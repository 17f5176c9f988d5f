#version 450
// Separable filters (conv.comp's: gaussian, box, erode, dilate, sharpen) of any radius in
// two passes on GPUs: PASS 1 the rows into a float texture, PASS 2 that texture's
// columns into the destination (conv.comp's passes 1 and 2, which CPU devices take).
// Each invocation computes RUN outputs in a line along the pass's direction, so it
// fetches RUN + 2r inputs for them, not RUN (2r + 1): on a GPU, texel fetches and not
// arithmetic are what a one-output-per-invocation pass is bound by (docs/perf.md). Its
// unrolled chunks make a module that lavapipe takes seconds to compile per pipeline,
// which is why it is not part of conv.comp.
#extension GL_EXT_control_flow_attributes : require
#include "filter.glsl"
layout(local_size_x = RUN_GROUP_X, local_size_y = RUN_GROUP_Y) in;
#include "conv.glsl"

// The inputs of RUN outputs in a line come in chunks of RUN: the input
// j = c RUN + m (m = 0..RUN-1) of chunk c reaches output i at offset j - r - i when
// 0 <= j - i <= 2r. In a middle chunk (every) it reaches every output, so the chunk is
// RUN x RUN multiply-adds on registers with no test; the first and last chunks test
// (on the radius, a specialization constant: the tests fold away). Each input is fetched
// once, each output still sums k = -r..r in order, and no output takes an input outside
// its window (a 0 weight would turn an infinite input into NaN).
void chunk(int c, bool every, ivec2 o, ivec2 dir, bool all_inside, inout vec4 acc[RUN])
{
    int r = RADIUS, n = RUN + 2 * r; // the line's inputs
    vec4 v[RUN];
    [[unroll]] for (int m = 0; m < RUN; m++) {
        int j = c * RUN + m;
        ivec2 q = o + (j - r) * dir;
        if (every || j < n) v[m] = source(all_inside ? texelFetch(src, q, 0) : fetch(q));
    }
    float w[2 * RUN - 1]; // w[d + RUN - 1]: the weight of offset c RUN + d - r
    [[unroll]] for (int d = 1 - RUN; d < RUN; d++) {
        int k = c * RUN + d - r;
        w[d + RUN - 1] = MODE == CONV_MODE_SUM && abs(k) <= r ? weight(k) : 0.0;
    }
    [[unroll]] for (int i = 0; i < RUN; i++)
        [[unroll]] for (int m = 0; m < RUN; m++) {
            int j = c * RUN + m;
            if (every || (j - i >= 0 && j - i <= 2 * r && j < n))
                acc[i] = MODE == CONV_MODE_SUM ? acc[i] + w[m - i + RUN - 1] * v[m]
                         : MODE == CONV_MODE_ERODE ? min(acc[i], v[m]) : max(acc[i], v[m]);
        }
}

void main()
{
    int r = RADIUS;
    ivec2 dir = ivec2(int(PASS == 1), int(PASS == 2));
    // RUN outputs along dir from o. Adjacent invocations (x) take adjacent lines: columns
    // in pass 2, rows in pass 1, so that each fetch of a subgroup reads texels that lie
    // together (along a row, 8 outputs apart, pass 1 took twice as long as pass 2)
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    ivec2 o = PASS == 1 ? ivec2(g.y * RUN, g.x) : ivec2(g.x, g.y * RUN);
    if (outside(o)) return;
    vec4 acc[RUN];
    [[unroll]] for (int i = 0; i < RUN; i++) acc[i] = start();
    bool all_inside = inside(o - r * dir, o + (RUN - 1 + r) * dir);
    // chunk 0; the middle ones, 1 .. full - 1; the last one or two
    int chunks = (2 * RUN + 2 * r - 1) / RUN, full = (2 * r + 1) / RUN;
    chunk(0, false, o, dir, all_inside, acc);
    for (int c = 1; c < full; c++) chunk(c, true, o, dir, all_inside, acc);
    [[unroll]] for (int t = 0; t < 2; t++) {
        int c = max(full, 1) + t;
        if (c < chunks) chunk(c, false, o, dir, all_inside, acc);
    }
    // the stores from one site (finish inlines the pointwise program): the outputs leave
    // from acc[0], the rest moving up (constant indices: registers)
    [[dont_unroll]] for (int i = 0; i < RUN; i++) {
        ivec2 q = o + i * dir;
        if (!outside(q)) {
            if (PASS == 1) imageStore(dst, q, acc[0]);
            else finish(q, acc[0]);
        }
        [[unroll]] for (int m = 0; m < RUN - 1; m++) acc[m] = acc[m + 1];
    }
}
