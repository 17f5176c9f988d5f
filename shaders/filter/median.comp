#version 450
// The per-component median of a (2r+1)^2 window (r <= 7). Keys are the codes of a
// unorm source (8 or 16 bits), else the float's bits in an order-preserving form, so
// the median is exact on every format; a unorm source's values, ordered as its codes,
// need no keys. The common windows take few operations (median_net.glsl), on all
// components at once, the window in registers:
// - 3 x 3: an invocation walks RUN outputs down a column. Each row of three is sorted
//   once (3 exchanges) for the three windows it is in, and the median of three sorted
//   rows is the median of their largest low, their middle middle and their smallest high
//   (18 min/max operations an output, against 40 for a network on 9 values; 3 texel
//   fetches, not 9). Two outputs a step share their two middle rows' larger low, smaller
//   high and sorted middles (16 operations an output). From 8 bits into 8 bits on GPUs
//   whose subgroups shuffle and that have 16-bit floats, the same walk runs across a
//   subgroup instead, faster (conv_subgroup.comp's median_rows: a fetch a texel, not
//   three, and two codes a min or max).
// - 5 x 5: an invocation takes a tile of windows (median_net.glsl), on GPUs 2 x 4 (wide): 72
//   operations an output against about 200 for a window alone, 6 fetches instead of 25;
//   on CPU devices (FLAG_WIDE off) 1 x 2 (narrow), whose values fit lavapipe's registers: 114.
//   Built with AMP_MEDIAN_HALF (the module median_half, for GPUs with shaderFloat16, an
//   8-bit source and destination), it orders 16-bit floats: two per min or max. Every
//   8-bit code's value stays distinct and in order as a 16-bit float, and back in 32 bits
//   it is within 0.06 of a code of the same code, which the 8-bit store rounds to.
//   (Not on lavapipe, which emulates 16-bit floats, many times slower.)
// Larger ones are found bit by bit: the largest key with at most n/2 keys below it.
// Float sources order their keys (uvec4) in the module median_keys (built with
// AMP_MEDIAN_KEYS); the others order their values (vec4) in median: lavapipe took
// several times as long to make a pipeline from a module with both as from one.
#extension GL_EXT_control_flow_attributes : require
#ifdef AMP_MEDIAN_HALF
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#include "filter.glsl"
#include "median_net.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

// Whether the source is unorm, its keys its codes: the module says (median_keys: floats).
#ifdef AMP_MEDIAN_KEYS
const bool CODES = false;
#else
const bool CODES = true;
#endif

uint key_of(float v)
{
    if (CODES) return uint(floor(clamp(v, 0.0, 1.0) * SRC_LEVELS + 0.5));
    uint u = floatBitsToUint(v);
    return (u & 0x80000000u) != 0u ? ~u : u | 0x80000000u;
}
float value_of(uint k)
{
    if (CODES) return float(k) / SRC_LEVELS;
    return uintBitsToFloat((k & 0x80000000u) != 0u ? k & 0x7fffffffu : ~k);
}
// A texel as what the networks order (the type of `like`): a unorm source's values as
// they are, a float source's keys; and back.
vec4 ordered(vec4 v, vec4 like) { return v; }
uvec4 ordered(vec4 v, uvec4 like) { return uvec4(key_of(v.x), key_of(v.y), key_of(v.z), key_of(v.w)); }
vec4 texel_of(vec4 m) { return m; }
#ifdef AMP_MEDIAN_HALF
AMP_MEDIAN25(f16vec4)
f16vec4 ordered(vec4 v, f16vec4 like) { return f16vec4(v); }
vec4 texel_of(f16vec4 m) { return vec4(m); }
#endif
vec4 texel_of(uvec4 m) { return vec4(value_of(m.x), value_of(m.y), value_of(m.z), value_of(m.w)); }
int col(int x) { return border_at(x, P.size.x, BORDER); }
int row(int y) { return border_at(y, P.size.y, BORDER); }

// The 3 x 3 walk for the type T of what it orders: the results of the outputs o,
// o + (0, 1), ... into res.
#define MEDIAN_WALK(T)                                                                       \
AMP_MEDIAN3_STEPS(T)                                                                         \
void sorted_row(ivec3 x, int y, T like, out T lo, out T mid, out T hi)                     \
{                                                                                            \
    y = row(y);                                                                              \
    sort3(ordered(texel_at(x.x, y), like), ordered(texel_at(x.y, y), like),                  \
          ordered(texel_at(x.z, y), like), lo, mid, hi);                                     \
}                                                                                            \
void walk3(ivec2 o, T like, inout vec4 res[RUN])                                             \
{                                                                                            \
    T la, ma, ha, lb, mb, hb, lc, mc, hc, ld, md, hd, first, second;                         \
    ivec3 x = ivec3(col(o.x - 1), col(o.x), col(o.x + 1));                                   \
    sorted_row(x, o.y - 1, like, la, ma, ha);                                                \
    sorted_row(x, o.y, like, lb, mb, hb);                                                    \
    [[unroll]] for (int i = 0; i < RUN; i += 2) {                                            \
        if (o.y + i < P.size.w) {                                                            \
            sorted_row(x, o.y + i + 1, like, lc, mc, hc);                                    \
            sorted_row(x, o.y + i + 2, like, ld, md, hd);                                    \
            median3_pair(la, ma, ha, lb, mb, hb, lc, mc, hc, ld, md, hd, first, second);     \
            res[i] = texel_of(first);                                                        \
            res[i + 1] = texel_of(second);                                                   \
            la = lc, ma = mc, ha = hc;                                                       \
            lb = ld, mb = md, hb = hd;                                                       \
        }                                                                                    \
    }                                                                                        \
}
// The 5 x 5 tile of W x H windows for the type T of what it orders, median_net.glsl's
// amp_median25_WxH (NET): the result of o + (x, y) into res[x + y * W].
#define TILE_LOAD(T, W, H, NET)                                                              \
{                                                                                            \
    T k[(W + 4) * (H + 4)], m[W * H];                                                        \
    int x[W + 4], y[H + 4];                                                                  \
    [[unroll]] for (int j = 0; j < W + 4; j++) x[j] = col(o.x + j - 2);                      \
    [[unroll]] for (int j = 0; j < H + 4; j++) y[j] = row(o.y + j - 2);                      \
    [[unroll]] for (int j = 0; j < (W + 4) * (H + 4); j++)                                   \
        k[j] = ordered(texel_at(x[j % (W + 4)], y[j / (W + 4)]), like);                      \
    NET(k, m);                                                                               \
    [[unroll]] for (int j = 0; j < W * H; j++) res[j] = texel_of(m[j]);                      \
}
#define MEDIAN_TILE(T)                                                                       \
void tile5(ivec2 o, T like, inout vec4 res[RUN])                                             \
{                                                                                            \
    if ((FLAGS & FLAG_WIDE) != 0) TILE_LOAD(T, AMP_MEDIAN_WIDE_W, AMP_MEDIAN_WIDE_H, amp_median25_wide) \
    else TILE_LOAD(T, AMP_MEDIAN_NARROW_W, AMP_MEDIAN_NARROW_H, amp_median25_narrow)         \
}
#if RUN % 2 != 0
#error "walk3 takes its outputs in pairs"
#endif
#if RUN < AMP_MEDIAN_WIDE_W * AMP_MEDIAN_WIDE_H || RUN < AMP_MEDIAN_NARROW_W * AMP_MEDIAN_NARROW_H
#error "res[RUN] must hold a 5 x 5 tile's outputs"
#endif
#ifdef AMP_MEDIAN_KEYS
MEDIAN_WALK(uvec4)
MEDIAN_TILE(uvec4)
#define ORDER3 uvec4(0u) // what a 3 x 3 window orders: keys
#define ORDER5 uvec4(0u) // and a 5 x 5 window
#else
MEDIAN_WALK(vec4)
#define ORDER3 vec4(0.0) // values (codes' order)
#ifdef AMP_MEDIAN_HALF
MEDIAN_TILE(f16vec4)
#define ORDER5 f16vec4(0.0)
#else
MEDIAN_TILE(vec4)
#define ORDER5 vec4(0.0)
#endif
#endif

// The block of outputs from o (block's: a column of RUN for 3 x 3, 2 x 4 or 1 x 2 for 5 x 5,
// one output for larger windows).
void median_block(ivec2 o, ivec2 block)
{
    int r = RADIUS, side = 2 * r + 1, n = side * side;
    vec4 res[RUN];
    if (r == 1) { // specialization constants: one branch stays
        walk3(o, ORDER3, res);
    } else if (r == 2) {
        tile5(o, ORDER5, res);
    } else {
        int bits = CODES ? (SRC_LEVELS > 255.0 ? 16 : 8) : 32;
        uint keys[225];
        for (int ch = 0; ch < SRC_N; ch++) {
            for (int j = 0; j < n; j++) keys[j] = key_of(fetch(o + ivec2(j % side - r, j / side - r))[ch]);
            uint m = 0u;
            for (int b = bits - 1; b >= 0; b--) {
                uint cand = m | (1u << uint(b));
                int below = 0;
                for (int j = 0; j < n; j++) below += keys[j] < cand ? 1 : 0;
                if (below <= n / 2) m = cand;
            }
            res[0][ch] = value_of(m);
        }
    }
    // one store site (store inlines the whole pointwise program): the outputs leave from
    // res[0] in the block's order, the rest moving up (constant indices: registers). A
    // median is one of the source's texels (but for 16-bit floats' 5 x 5, within 0.06 of
    // one).
#ifdef AMP_MEDIAN_HALF
    bool exact = r != 2 && texel_exact();
#else
    bool exact = texel_exact();
#endif
    [[dont_unroll]] for (int i = 0; i < block.x * block.y; i++) {
        ivec2 p = o + ivec2(i % block.x, i / block.x);
        if (!outside(p)) store(p, res[0], exact);
        [[unroll]] for (int m = 0; m < RUN - 1; m++) res[m] = res[m + 1];
    }
}

// An invocation takes the blocks of its column from row gl_GlobalInvocationID.y on, a
// stride of the grid's rows (plan.c's grid has an invocation for every block, so each
// takes one). The loop is there for speed (the 7 x 7 median is faster with it, docs/perf.md);
// why the compiler does better with it is not known.
void main()
{
    int r = RADIUS;
    // the outputs of an invocation, as plan.c's dispatch: a column of RUN for 3 x 3
    // (scalars: Mesa 22.3 takes a select of vector specialization constants wrong)
    bool wide = (FLAGS & FLAG_WIDE) != 0;
    ivec2 block = ivec2(r != 2 ? 1 : wide ? AMP_MEDIAN_WIDE_W : AMP_MEDIAN_NARROW_W,
                        r == 1 ? RUN : r != 2 ? 1 : wide ? AMP_MEDIAN_WIDE_H : AMP_MEDIAN_NARROW_H);
    if (int(gl_GlobalInvocationID.x) * block.x >= P.size.z) return;
    for (int y = int(gl_GlobalInvocationID.y); y * block.y < P.size.w; y += int(gl_NumWorkGroups.y * gl_WorkGroupSize.y))
        median_block(ivec2(int(gl_GlobalInvocationID.x), y) * block, block);
}
