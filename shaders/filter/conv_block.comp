#version 450
// Separable filters (conv.comp's: gaussian, box, erode, dilate, sharpen) of radius up to
// BLOCK_R in one pass, for CPU devices (lavapipe), where shared memory and texel fetches
// are what costs and registers are not: each invocation computes a BLOCK x BLOCK block of
// outputs with its window in registers. Every input row is fetched once and its
// horizontal results go to the outputs it reaches, in the order of additions of
// conv.comp's tile. Its loops are unrolled to compile-time bounds (the radius, a
// specialization constant, only guards): more code than conv.comp, which lavapipe takes
// longer to compile, so plan.c takes it only for large images.
#extension GL_EXT_control_flow_attributes : require
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
#include "conv.glsl"

#define BLOCK BLOCK_OUTPUTS // outputs per invocation in each direction
#define BLOCK_R BLOCK_RADIUS // the largest radius: the loops' bound

void main()
{
    int r = RADIUS;
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 o = p * BLOCK;
    if (outside(o)) return;
    if (!inside(o - r, o + BLOCK - 1 + r)) { // at the image's edge (few blocks): each output on its own
        for (int i = 0; i < BLOCK * BLOCK; i++) {
            ivec2 q = o + ivec2(i % BLOCK, i / BLOCK);
            vec4 acc = start();
            for (int dy = -r; dy <= r; dy++) {
                vec4 h = start();
                for (int k = -r; k <= r; k++) h = take(h, value(fetch(q + ivec2(k, dy))), k);
                acc = take(acc, h, dy);
            }
            if (!outside(q)) finish(q, acc);
        }
        return;
    }
    // every loop runs to a compile-time bound (unrolled: registers, constant indices);
    // the radius, a specialization constant, only guards
    vec4 acc[BLOCK * BLOCK];
    [[unroll]] for (int i = 0; i < BLOCK * BLOCK; i++) acc[i] = start();
    [[unroll]] for (int j = 0; j < BLOCK + 2 * BLOCK_R; j++) { // the input row o.y - r + j
        if (j < BLOCK + 2 * r) {
            vec4 t[BLOCK + 2 * BLOCK_R];
            [[unroll]] for (int i = 0; i < BLOCK + 2 * BLOCK_R; i++)
                if (i < BLOCK + 2 * r) t[i] = value(texelFetch(src, o + ivec2(i - r, j - r), 0));
            [[unroll]] for (int x = 0; x < BLOCK; x++) {
                vec4 h = start();
                [[unroll]] for (int k = -BLOCK_R; k <= BLOCK_R; k++)
                    if (abs(k) <= r) h = take(h, t[x + r + k], k);
                // output row y takes input row j at offset j - r - y
                [[unroll]] for (int y = 0; y < BLOCK; y++)
                    if (abs(j - r - y) <= r) acc[y * BLOCK + x] = take(acc[y * BLOCK + x], h, j - r - y);
            }
        }
    }
    // the stores from one site (the pointwise program after each is long): the outputs
    // leave from acc[0], the rest moving up (constant indices: registers)
    [[dont_unroll]] for (int i = 0; i < BLOCK * BLOCK; i++) {
        ivec2 q = o + ivec2(i % BLOCK, i / BLOCK);
        if (!outside(q)) finish(q, acc[0]);
        [[unroll]] for (int m = 0; m < BLOCK * BLOCK - 1; m++) acc[m] = acc[m + 1];
    }
}
