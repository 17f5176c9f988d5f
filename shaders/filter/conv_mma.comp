#version 450
// Separable sums (conv.comp's gaussian, box and sharpen) of radius 9 to 16 in one pass on
// tensor cores (VK_NV_cooperative_matrix: 16 x 16 x 16 products of 16-bit floats into
// 32-bit sums), from 8 bits to 8 bits on GPUs that have them; conv_run.comp's two passes
// otherwise. Both directions are products with one band matrix: the 16 x 16 block of row
// sums at columns 16 j of 16 input rows is sum_k In(j + k) T_k, where In(j) is the input
// block at column 16 j of the strip (whose column 0 lies r left of the strip's first
// output) and T_k[a][b] = w(16 k + a - b - r), 0 outside the window: KC = 1 + ceil(2r / 16)
// products. The column sums of output row block i are sum_k T_k^T Mid(i + k) over the
// blocks of row sums.
//
// A work group writes a strip TW columns wide, walking down it 16 rows a step; each of its
// subgroups keeps one component and one column block for the whole walk. A step loads 16
// input rows into shared memory as 16-bit planes (the source's codes, exact as 16-bit
// floats; fetched a step ahead), and a subgroup turns its part of them into row sums, the
// row sums (as 16-bit floats, never leaving registers) into the column sums of the KC
// output blocks they reach, and the block they complete into shared memory, from where
// the group's invocations store it through the fused pointwise program. An input texel
// is fetched (TW + 16 (KC - 1)) / TW = 2 times (the strips beside it) and 1 + 32 / rows
// (the walks above it); the 2r + 1 multiply-adds a direction go to the matrix units.
// It beats conv_run's two passes from r 9 (below, conv_run is as fast). Its parts (the
// fetches, the products, the stores into shared memory and out, the walk and its
// barriers) add up more than they overlap; docs/perf.md has what was tried against that
// and the timings of the parts, of the walk in main's loop, of strips of 512 rows and of
// equal shares of the strips (main).
//
// Weights are 16-bit floats, the center one taking the others' rounding so that they sum
// as the 32-bit ones (a flat image stays flat). Gaussians take OpenCV's fixed-point
// kernel (FLAG_FIXED, from radius 5: plan.c's MMA_MIN_FIXED), exact as 16-bit floats,
// and their row sums go into the column products as whole part and fraction: OpenCV's
// bytes, at no measurable cost (with the float kernel, most but not all values had been
// equal).
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#include "filter.glsl"
// A work group's invocations (MMA_GROUP): 8 subgroups of 32, one for each
// component and column block.
#define GROUP MMA_GROUP
layout(local_size_x = GROUP) in;
#include "conv.glsl"

#define BW (MMA_COLUMNS / 16) // blocks of 16 columns a work group writes
#define TW (16 * BW)
#define KC_MAX (1 + (2 * MMA_RADIUS + 15) / 16) // the most products of a row: radius <= MMA_RADIUS
const int KC = 1 + (2 * RADIUS + 15) / 16;
const int IW = 16 * (BW + KC - 1); // a step's input columns
#define IW_MAX (16 * (BW + KC_MAX - 1))
// Whether the column products take T_k^T from t_s at every step rather than from registers:
// faster for two products (radius 5 to 8), slower for three (docs/perf.md).
const bool T_SHARED = KC == 2;
// Row strides in shared memory, 16 bytes past a multiple of 128, so that the 8 rows of an
// 8 x 8 piece of a matrix fall in different banks (without, the bank conflicts doubled the time)
const int IS = IW + 8;   // in_s
#define OS (TW + 4)      // out_s
#define TS 24            // t_s
// The source is 8-bit unorm (plan.c's mma_pass): its values times SCALE, its codes, are exact as
// 16-bit floats.
#define SCALE SRC_LEVELS

#define HALF fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define FULL fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>

shared float16_t t_s[KC_MAX * 16 * TS];       // T_k, row-major
shared float16_t in_s[4 * 16 * (IW_MAX + 8)]; // [component][row][column] of a step's input
shared float out_s[4 * 16 * OS];              // [component][row][column] of a step's output
// (20736 bytes in all: plan.c's MMA_SHARED)

// Weight k as a 16-bit float; the center one takes the others' rounding.
float16_t half_weight(int k)
{
    if (k != 0) return float16_t(weight(k));
    float exact = weight(0), rounded = 0.0;
    for (int i = 1; i <= RADIUS; i++) {
        exact += 2.0 * weight(i);
        rounded += 2.0 * float(float16_t(weight(i)));
    }
    return float16_t(exact - rounded);
}

// A step's input (16 rows of IW texels) in flight: an invocation's PER texels of it,
// fetched a step ahead of their store into in_s so that the fetches' latency passes
// under the products.
#define PER ((16 * IW_MAX + GROUP - 1) / GROUP)
vec4 ahead[PER];

void fetch_step(ivec2 origin)
{
    bool all_inside = inside(origin, origin + ivec2(IW - 1, 15));
    [[unroll]] for (int n = 0; n < PER; n++) {
        int e = int(gl_LocalInvocationIndex) + GROUP * n, row = e / IW, col = e - row * IW;
        ivec2 q = origin + ivec2(col, row);
        if (e < 16 * IW) ahead[n] = all_inside ? texelFetch(src, q, 0) : fetch(q);
    }
}

void store_step()
{
    [[unroll]] for (int n = 0; n < PER; n++) {
        int e = int(gl_LocalInvocationIndex) + GROUP * n, row = e / IW, col = e - row * IW;
        if (e < 16 * IW)
            [[unroll]] for (int c = 0; c < SRC_N; c++) in_s[(c * 16 + row) * IS + col] = float16_t(ahead[n][c] * SCALE);
    }
}

// The outputs of row block i from out_s (finish inlines the pointwise program: one site).
void write_block(ivec2 o, int i)
{
    for (int e = int(gl_LocalInvocationIndex); e < 16 * TW; e += GROUP) {
        int row = e / TW, col = e - row * TW;
        ivec2 q = o + ivec2(col, 16 * i + row);
        vec4 acc = vec4(0.0);
        [[unroll]] for (int c = 0; c < SRC_N; c++) acc[c] = out_s[(c * 16 + row) * OS + col];
        if (!outside(q)) finish(q, fixed_sums() ? acc : acc / SCALE); // fixed sums: codes
    }
}

// The walk of blocks row blocks of the strip whose first output is o (the group's T_k and
// T_k^T loaded).
void walk_strip(ivec2 o, int blocks, HALF tk[KC_MAX], HALF tkt[KC_MAX])
{
    int r = RADIUS;
    fetch_step(o - ivec2(r));
    store_step();
    fetch_step(o + ivec2(-r, 16 - r));
    barrier();
    // A subgroup's component c and column block j, for the whole walk: the column sums of
    // the KC output blocks that the latest row sums reach (acc[t]: block m - KC + 1 + t,
    // which takes T_{KC-1-t}^T times them).
    int p = int(gl_SubgroupID), c = p / BW, j = p - c * BW;
    bool mine = p < SRC_N * BW; // subgroup-uniform
    FULL acc[KC_MAX];
    [[unroll]] for (int k = 0; k < KC_MAX; k++) acc[k] = FULL(0.0);
    // Step m: (barrier) the row sums of in_s (step m's input), their column sums into
    // acc, block m - KC + 1 into out_s when complete; (barrier) that block written out,
    // step m + 1's input into in_s, step m + 2's fetched. Each shared array is written
    // between one pair of barriers and read between the next.
    for (int m = 0; m < blocks + KC - 1; m++) {
        int i = m - (KC - 1); // the output block that step m completes
        if (mine) {
            FULL h = FULL(0.0);
            [[unroll]] for (int k = 0; k < KC_MAX; k++) {
                if (k < KC) {
                    HALF a;
                    coopMatLoadNV(a, in_s, uint(c * 16 * IS + 16 * (j + k)), uint(IS), false);
                    h = coopMatMulAddNV(a, tk[k], h);
                }
            }
            // fixed sums (conv.glsl): row sums are multiples of 1/256 below 256, exact as
            // 32-bit floats but not as 16-bit ones, so their whole parts and their fractions
            // (each exact as a 16-bit float) go through the products apart
            FULL whole = h;
            if (fixed_sums())
                for (int e = 0; e < whole.length(); e++) whole[e] = floor(h[e]);
            HALF mid = HALF(whole);
            HALF frac = HALF(0.0);
            if (fixed_sums()) {
                FULL part = h;
                for (int e = 0; e < part.length(); e++) part[e] = h[e] - whole[e];
                frac = HALF(part);
            }
            [[unroll]] for (int t = 0; t < KC_MAX; t++) {
                if (t >= KC) continue;
                HALF b;
                if (T_SHARED) coopMatLoadNV(b, t_s, uint(16 * TS * (KC - 1 - t)), uint(TS), true);
                else b = tkt[KC - 1 - t];
                acc[t] = coopMatMulAddNV(b, mid, acc[t]);
                if (fixed_sums()) acc[t] = coopMatMulAddNV(b, frac, acc[t]);
            }
            if (i >= 0) coopMatStoreNV(acc[0], out_s, uint(c * 16 * OS + 16 * j), uint(OS), false);
            [[unroll]] for (int t = 0; t + 1 < KC_MAX; t++) acc[t] = acc[t + 1];
            acc[KC_MAX - 1] = FULL(0.0);
        }
        barrier();
        if (i >= 0) write_block(o, i);
        store_step();
        fetch_step(o + ivec2(-r, 16 * (m + 2) - r));
        barrier();
    }
}

// The image's strips, one after another, are a sequence of row blocks (strip 0's from the
// top, then strip 1's, ...); each work group walks an equal share of it (to a block), so
// that a grid the size of what the device runs at once (plan.c: two groups an SM) ends in
// one round with no group idle: a share that reaches past a strip's end goes on at the top
// of the next. plan.c's MMA_PER_SM says why two groups an SM.
void main()
{
    int r = RADIUS;
    for (int e = int(gl_LocalInvocationIndex); e < KC * 256; e += GROUP) {
        int d = 16 * (e >> 8) + ((e >> 4) & 15) - (e & 15) - r;
        t_s[(e >> 4) * TS + (e & 15)] = abs(d) <= r ? half_weight(d) : float16_t(0.0);
    }
    barrier();
    HALF tk[KC_MAX], tkt[KC_MAX]; // T_k and T_k^T (but T_SHARED) in registers for every strip
    [[unroll]] for (int k = 0; k < KC_MAX; k++) {
        coopMatLoadNV(tk[k], t_s, uint(16 * TS * min(k, KC - 1)), uint(TS), false);
        if (!T_SHARED) coopMatLoadNV(tkt[k], t_s, uint(16 * TS * min(k, KC - 1)), uint(TS), true);
    }
    int strip_blocks = (P.size.w + 15) / 16, total = (P.size.z + TW - 1) / TW * strip_blocks;
    int groups = int(gl_NumWorkGroups.x), g = int(gl_WorkGroupID.x);
    int share = total / groups, extra = total - share * groups; // the first extra groups walk one more
    int b = g * share + min(g, extra), end = b + share + (g < extra ? 1 : 0);
    while (b < end) {
        int strip = b / strip_blocks, row = b - strip * strip_blocks, n = min(end - b, strip_blocks - row);
        walk_strip(ivec2(strip * TW, 16 * row), n, tk, tkt);
        b += n;
    }
}
