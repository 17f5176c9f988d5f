#version 450
// Separable filters: gaussian and box (weighted sums), erode (min), dilate (max),
// and sharpen (a * center + b * gaussian). MODE: 0 sum, 1 min, 2 max. Pass
// (PASS) 0: both directions in one dispatch through a tile in shared memory
// (radius <= TILE_R); 1: the rows only, into a float texture; 2: the columns of
// that texture, into the destination. (CPU devices take conv_block.comp for the first
// on large images; GPUs take conv_run.comp for the other two.) The weights w[0..radius] for offsets 0..radius are in the parameter
// block up to radius 63, else in the scratch buffer.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
#include "conv.glsl"

#define TILE (16 + 2 * TILE_R)
shared vec4 tile[TILE][TILE];
shared vec4 rows[TILE][16];

void main()
{
    int r = RADIUS;
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (PASS == 1 || PASS == 2) {
        if (outside(p)) return;
        ivec2 dir = ivec2(int(PASS == 1), int(PASS == 2));
        vec4 acc = start();
        // pass 1 reads the source (its codes for fixed sums), pass 2 the rows
        if (inside(p - r * dir, p + r * dir))
            for (int k = -r; k <= r; k++) acc = take(acc, source(texelFetch(src, p + k * dir, 0)), k);
        else
            for (int k = -r; k <= r; k++) acc = take(acc, source(fetch(p + k * dir)), k);
        if (PASS == 1) imageStore(dst, p, acc);
        else finish(p, acc);
        return;
    }
    int t = 16 + 2 * r;
    ivec2 base = ivec2(gl_WorkGroupID.xy) * 16 - r;
    uint lid = gl_LocalInvocationIndex;
    if (inside(base, base + t - 1))
        for (uint i = lid; i < uint(t * t); i += 256u) {
            ivec2 q = ivec2(int(i) % t, int(i) / t);
            tile[q.y][q.x] = value(texelFetch(src, base + q, 0));
        }
    else
        for (uint i = lid; i < uint(t * t); i += 256u) {
            ivec2 q = ivec2(int(i) % t, int(i) / t);
            tile[q.y][q.x] = value(fetch(base + q));
        }
    barrier();
    for (uint i = lid; i < uint(t * 16); i += 256u) {
        int y = int(i) / 16, x = int(i) % 16;
        vec4 acc = start();
        for (int k = -r; k <= r; k++) acc = take(acc, tile[y][x + r + k], k);
        rows[y][x] = acc;
    }
    barrier();
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    vec4 acc = start();
    for (int k = -r; k <= r; k++) acc = take(acc, rows[l.y + r + k][l.x], k);
    if (!outside(p)) finish(p, acc);
}
