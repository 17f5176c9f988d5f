#version 450
// Separable filters (conv.comp's: gaussian, box, erode, dilate, sharpen) of radius up to
// SUB_R in one pass, on GPUs whose subgroups shuffle: a subgroup of S invocations holds
// S adjacent columns and walks down a strip of P.counts.x rows. Each invocation fetches
// its texel of a row, takes its neighbours' from the subgroup (subgroupShuffle) for the
// row's horizontal result, and keeps the last 2r + 1 of those in registers for the
// column's; the S - 2r middle invocations write. One texel fetch per output (and the
// halo's: 2r columns of S, 2r rows of the strip), no shared memory, no barrier. The
// order of additions is conv.comp's tile's (rows first, each over k = -r..r, then the
// columns over k = -r..r). plan.c works out the work groups from the subgroup size.
// (Tried and dropped, both slower: 8-bit texels shuffled as one packed word, whose
// unpacking cost more than three shuffles, and two columns per invocation.)
//
// Integer sums (conv.glsl: 8-bit gaussians with OpenCV's fixed 3- and 5-tap kernels and
// boxes, weights W_k / S with integer W_k and S <= 16) take integer_main instead: the
// codes split into two words of 16-bit lanes (r | b << 16, g | a << 16), the column's sums
// first (each lane at most 255 S), then the row's over the subgroup on output rows only,
// two shuffles a neighbour, each lane at most 255 S^2 < 2^16, and the result rounded to
// the nearest code, halves up, as OpenCV's 8-bit filters round: the same bytes as
// cv2.GaussianBlur and cv2.blur, faster than in floats, whose time goes to the shuffles
// of four floats a neighbour and to the rounding before the store, not to the fetches.
// The walk fetches a strip's rows all at once, and built with AMP_CONV_INT (the module
// conv_subgroup_int, where the source and the destination take uint views) reads and
// writes the codes themselves, a word a texel.
//
// Built with AMP_CONV_HALF (the module conv_subgroup_half, for GPUs with shaderFloat16),
// erode and dilate of 8 bits into 8 bits take half_main: the codes as 16-bit floats
// (exact), two to a 32-bit register, so that a min or max and a shuffle serve two
// components; the column's first, then the row's on output rows only; OpenCV's bytes, as
// before. Its strip is fetched at once, as integer_main's.
// Built with AMP_CODES as well (the module conv_subgroup_half_codes, where the textures take
// uint views), it reads the codes themselves and stores words (words.glsl). Both
// modules take the 3 x 3 median of 8 bits too (CONV_MODE_MEDIAN3, median_rows): median.comp's
// walk, a fetch a texel instead of three.
// The other sums of 8 bits between textures with uint views (OpenCV's fixed-point gaussians,
// sharpen) walk as integer_main does in floats (float_main): columns first, only output rows
// shuffled, a strip of PRE_STRIP rows.
// The timings behind each of these choices: docs/perf.md, conv_subgroup.comp.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_control_flow_attributes : require
#ifdef AMP_CONV_HALF
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define AMP_HALF_LANES
#endif
#ifdef AMP_CONV_INT
#define AMP_CODES // (words.glsl)
#endif
#include "filter.glsl"
layout(local_size_x = SUBGROUP_GROUP) in;
#include "conv.glsl"
#include "words.glsl"

#define SUB_R SUBGROUP_RADIUS // the largest radius: the loops' bound
#define WINDOW (2 * SUB_R + 1)
#define PRE_STRIP SUBGROUP_PRE_STRIP // the rows of a strip of integer_main and half_main

// A subgroup's walk: its radius, this invocation's lane of the subgroup's size, its
// column x, the strip's first row y0 and its rows, whether the invocation writes (the
// middle ones do), whether its column lies inside the source, and whether the
// subgroup's columns and the PRE_STRIP + 2r rows integer_main and half_main fetch all do
// (a branch the whole subgroup takes).
struct walk {
    int r, lane, size, x, y0, rows;
    bool writes, x_inside, strip_inside;
};

// This invocation's texel of input row y (through the border outside the source).
vec4 column_texel(walk w, int y)
{
    int yb = border_at(y, P.size.y, BORDER);
    return w.x_inside ? (yb < 0 ? P.border_value : texelFetch(src, ivec2(w.x, yb), 0)) : fetch(ivec2(w.x, y));
}

// The lane k columns away, clamped to the subgroup (the edge lanes, which do not write,
// take themselves).
uint lane_at(walk w, int k) { return uint(clamp(w.lane + k, 0, w.size - 1)); }

// The word of the four codes whose sums are acc's halves (words.glsl): the nearest to
// n / T, halves up, as rounded_code's, by a shift where T = 2^s.
uint rounded_word(uvec2 acc)
{
    uint t = uint(P.counts.y);
    if ((t & (t - 1u)) == 0u) return halves_word((acc + (t >> 1) * 0x10001u) >> uint(findLSB(t)));
    return codes_word(rounded_codes(unhalved(acc)));
}

// This invocation's texel of input row y as halves: as it is where the subgroup's strip
// lies inside the source, else through the border.
uvec2 strip_codes(walk w, int y)
{
    if (w.strip_inside) return codes_at(ivec2(w.x, y));
    return codes_at(w.x_inside ? w.x : border_at(w.x, P.size.x, BORDER), border_at(y, P.size.y, BORDER));
}

// FLAG_INTEGER's walk: as main's, but the column's sums come first (so that only output
// rows are shuffled), the strip's PRE_STRIP + 2r rows all fetched before any sum (through
// the border only where the subgroup's strip needs it), and rounded as conv.glsl's integer
// sums. Fetching the strip first (PRE_STRIP rows: more were slower), reading and writing
// codes as words and testing the border only at the image's edges each made it faster.
void integer_main(walk w)
{
    int r = w.r;
    uint iw[SUB_R + 1];
    [[unroll]] for (int k = 0; k <= SUB_R; k++) iw[k] = k <= r ? uint(weight(k)) : 0u;
    uvec2 h[PRE_STRIP + 2 * SUB_R]; // the input rows' codes, y0 - r and down
    [[unroll]] for (int j = 0; j < PRE_STRIP + 2 * SUB_R; j++)
        if (j < PRE_STRIP + 2 * r) h[j] = strip_codes(w, w.y0 - r + j);
    uvec2 res[PRE_STRIP]; // the sums of the output rows, for store's one site
    [[unroll]] for (int i = 0; i < PRE_STRIP; i++) { // output row y0 + i: input rows i .. i + 2r
        uvec2 v = uvec2(0);
        [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
            if (abs(k) <= r) v += iw[abs(k)] * h[i + r + k];
        uvec2 acc = uvec2(0);
        [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
            if (abs(k) <= r) acc += iw[abs(k)] * (k == 0 ? v : subgroupShuffle(v, lane_at(w, k)));
        res[i] = acc;
        if (stores_codes() && w.writes && i < w.rows) store_codes(ivec2(w.x, w.y0 + i), rounded_word(acc));
    }
    if (stores_codes()) return;
    // one store site (store inlines the whole pointwise program): the rows leave from
    // res[0], the rest moving up (constant indices: registers)
    [[dont_unroll]] for (int i = 0; i < PRE_STRIP; i++) {
        uvec2 acc = res[0];
        uvec4 n = unhalved(acc);
        if (w.writes && i < w.rows) store(ivec2(w.x, w.y0 + i), rounded_code(n) * (1.0 / 255.0), true);
        [[unroll]] for (int m = 0; m < PRE_STRIP - 1; m++) res[m] = res[m + 1];
    }
}

#ifdef AMP_CONV_INT
// The other sums of 8-bit codes in the module conv_subgroup_int (OpenCV's fixed-point
// gaussians, FLAG_FIXED; sharpen; gaussians of float weights): integer_main's walk in
// floats, the codes exact (lanes_float), the column's sums first and only output rows
// shuffled, sharpen's texel from the strip.
void float_main(walk w)
{
    int r = w.r;
    vec4 h[PRE_STRIP + 2 * SUB_R]; // the input rows' codes, y0 - r and down
    [[unroll]] for (int j = 0; j < PRE_STRIP + 2 * SUB_R; j++)
        if (j < PRE_STRIP + 2 * r) h[j] = lanes_float(strip_codes(w, w.y0 - r + j));
    vec4 res[PRE_STRIP]; // the results in codes, for store's one site
    [[unroll]] for (int i = 0; i < PRE_STRIP; i++) { // output row y0 + i: input rows i .. i + 2r
        vec4 v = vec4(0.0);
        [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
            if (abs(k) <= r) v += weight(k) * h[i + r + k];
        vec4 acc = vec4(0.0);
        [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
            if (abs(k) <= r) acc += weight(k) * (k == 0 ? v : subgroupShuffle(v, lane_at(w, k)));
        // (finish's: the fixed sums' codes, floor(sum + 1/2), or sharpen's mix with the texel)
        vec4 c = fixed_sums() ? floor(acc + 0.5) : P.f.x != 0.0 ? P.f.x * h[i + r] + P.f.y * acc : acc;
        res[i] = c;
        if (stores_codes() && w.writes && i < w.rows)
            store_codes(ivec2(w.x, w.y0 + i), codes_word(nearest_codes(floor(clamp(c, 0.0, 255.0) + 0.5))));
    }
    if (stores_codes()) return;
    // one store site, as integer_main's
    [[dont_unroll]] for (int i = 0; i < PRE_STRIP; i++) {
        if (w.writes && i < w.rows) store(ivec2(w.x, w.y0 + i), res[0] * (1.0 / 255.0), fixed_sums());
        [[unroll]] for (int m = 0; m < PRE_STRIP - 1; m++) res[m] = res[m + 1];
    }
}

// FLAG_SOBEL's walk (sobel.comp's filter, MODE its mode, on 8-bit codes; plan.c sends it to
// conv_subgroup_int, radius 1): Sobel's kernels are separable, d/dx the column's [1 2 1]
// then the row's [-1 0 1], d/dy the column's [-1 0 1] then the row's [1 2 1]. Each
// invocation takes its column's two sums of the strip's rows (halves: at most 1020 a lane,
// and 256 + the difference, 1..511), shuffles its neighbours' (four shuffles a side), and the
// derivatives come out as lanes of 1024 + the codes' derivative (4..2044), with no borrow
// between lanes. The magnitude and the absolute derivatives are those of sobel.comp in codes
// (its values times 255), so the stored codes are the same (the magnitude, sqrt of an
// integer, is never within a float's error of a half).
void sobel_main(walk w)
{
    uvec2 h[PRE_STRIP + 2]; // the input rows' codes, y0 - 1 and down
    [[unroll]] for (int j = 0; j < PRE_STRIP + 2; j++) h[j] = strip_codes(w, w.y0 - 1 + j);
    vec4 res[PRE_STRIP]; // the raw results (codes' values), for store's one site
    [[unroll]] for (int i = 0; i < PRE_STRIP; i++) { // output row y0 + i: input rows i .. i + 2
        uvec2 s = h[i] + 2u * h[i + 1] + h[i + 2], t = h[i + 2] + 0x01000100u - h[i];
        uvec2 sl = subgroupShuffle(s, lane_at(w, -1)), sr = subgroupShuffle(s, lane_at(w, 1));
        uvec2 tl = subgroupShuffle(t, lane_at(w, -1)), tr = subgroupShuffle(t, lane_at(w, 1));
        vec4 dx = lanes_float(sr + 0x04000400u - sl) - 1024.0, dy = lanes_float(tl + 2u * t + tr) - 1024.0;
        vec4 v = MODE == SOBEL_MODE_MAGNITUDE ? sqrt(dx * dx + dy * dy) : abs(MODE == SOBEL_MODE_X ? dx : dy);
        vec4 centre = lanes_float(h[i + 1]);
        if (SRC_N == 2) v.y = centre.y;
        if (SRC_N == 4) v.w = centre.w;
        if (stores_codes() && w.writes && i < w.rows)
            store_codes(ivec2(w.x, w.y0 + i), codes_word(nearest_codes(min(v, vec4(255.0)))));
        res[i] = v * (1.0 / 255.0);
    }
    if (stores_codes()) return;
    // one store site, as integer_main's
    [[dont_unroll]] for (int i = 0; i < PRE_STRIP; i++) {
        if (w.writes && i < w.rows) store(ivec2(w.x, w.y0 + i), res[0]);
        [[unroll]] for (int m = 0; m < PRE_STRIP - 1; m++) res[m] = res[m + 1];
    }
}
#endif

#ifdef AMP_CONV_HALF
f16vec4 half_take(f16vec4 a, f16vec4 b) { return MODE == CONV_MODE_ERODE ? min(a, b) : max(a, b); }
#ifdef AMP_CODES
// This invocation's texel of input row y as words.glsl's lanes (1024 + code, r b g a), and
// a result in lanes as the texel store takes it.
f16vec4 half_row(walk w, int y) { return lanes16(strip_codes(w, y)); }
vec4 half_value(f16vec4 v) { return lanes_value(v); }
#else
// This invocation's texel of input row y as its codes (from its value: cheaper here than
// lanes), and a result as the texel store takes it.
f16vec4 half_row(walk w, int y)
{
    return f16vec4(codes(w.strip_inside ? texelFetch(src, ivec2(w.x, y), 0) : column_texel(w, y)));
}
vec4 half_value(f16vec4 v) { return vec4(v) * (1.0 / 255.0); }
#endif

// The lane k columns away's v (16-bit floats, shuffled as two words of their bits).
f16vec4 half_shuffled(walk w, f16vec4 v, int k)
{
    uvec2 b = subgroupShuffle(uvec2(packFloat2x16(v.xy), packFloat2x16(v.zw)), lane_at(w, k));
    return f16vec4(unpackFloat2x16(b.x), unpackFloat2x16(b.y));
}

AMP_MEDIAN3_STEPS(f16vec4) // (filter.glsl's)

// CONV_MODE_MEDIAN3's outputs (the 3 x 3 median; plan.c sends it here from 8 bits into 8 bits on GPUs):
// median.comp's 3 x 3 walk across the subgroup, each input row's three texels the lane's and
// its neighbours' (shuffled): one fetch a texel where median.comp takes three, and two codes
// a min or max.
void median_rows(walk w, f16vec4 h[PRE_STRIP + 2 * SUB_R], out f16vec4 res[PRE_STRIP])
{
    f16vec4 lo[PRE_STRIP + 2], mid[PRE_STRIP + 2], hi[PRE_STRIP + 2];
    [[unroll]] for (int j = 0; j < PRE_STRIP + 2; j++)
        sort3(half_shuffled(w, h[j], -1), h[j], half_shuffled(w, h[j], 1), lo[j], mid[j], hi[j]);
    [[unroll]] for (int i = 0; i < PRE_STRIP; i += 2) // outputs i and i + 1: input rows i .. i + 3
        median3_pair(lo[i], mid[i], hi[i], lo[i + 1], mid[i + 1], hi[i + 1], lo[i + 2], mid[i + 2], hi[i + 2],
                     lo[i + 3], mid[i + 3], hi[i + 3], res[i], res[i + 1]);
}

// AMP_CONV_HALF's walk of erode, dilate and the 3 x 3 median: as integer_main's (its strip's
// rows fetched at once, the codes read and stored as words with FLAG_WORDS), on the codes in
// 16-bit floats (half_row's).
void half_main(walk w)
{
    int r = w.r;
    f16vec4 h[PRE_STRIP + 2 * SUB_R]; // the input rows' codes, y0 - r and down
    [[unroll]] for (int j = 0; j < PRE_STRIP + 2 * SUB_R; j++)
        if (j < PRE_STRIP + 2 * r) h[j] = half_row(w, w.y0 - r + j);
    f16vec4 res[PRE_STRIP];
    if (MODE == CONV_MODE_MEDIAN3) median_rows(w, h, res);
    [[unroll]] for (int i = 0; i < PRE_STRIP; i++) { // output row y0 + i: input rows i .. i + 2r
        if (MODE != CONV_MODE_MEDIAN3) {
            f16vec4 v = h[i];
            [[unroll]] for (int k = 1; k <= 2 * SUB_R; k++)
                if (k <= 2 * r) v = half_take(v, h[i + k]);
            f16vec4 acc = v;
            [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
                if (abs(k) <= r && k != 0) acc = half_take(acc, half_shuffled(w, v, k));
            res[i] = acc;
        }
        if (stores_codes() && w.writes && i < w.rows) store_codes(ivec2(w.x, w.y0 + i), lanes_word(res[i]));
    }
    if (stores_codes()) return;
    // one store site, as integer_main's
    [[dont_unroll]] for (int i = 0; i < PRE_STRIP; i++) {
        if (w.writes && i < w.rows) store(ivec2(w.x, w.y0 + i), half_value(res[0]), true);
        [[unroll]] for (int m = 0; m < PRE_STRIP - 1; m++) res[m] = res[m + 1];
    }
}
#endif

// The walk of one strip: the module's (conv_subgroup_int's, conv_subgroup_half's) or, in the
// plain module, integer_main or the float walk below.
void walk_strip(walk w)
{
#ifdef AMP_CONV_INT
    if ((FLAGS & FLAG_SOBEL) != 0) sobel_main(w);
    else if (integer_sums()) integer_main(w);
    else float_main(w); // (plan.c takes this module for sums and sobel only)
    return;
#endif
#ifdef AMP_CONV_HALF
    half_main(w); // (plan.c takes this module for erode, dilate and the 3 x 3 median only)
    return;
#endif
    if (integer_sums()) {
        integer_main(w);
        return;
    }
    // h[m]: the horizontal result of this column in an input row, m = WINDOW - 1 the
    // latest (constant indices once the loops are unrolled: registers)
    int r = w.r;
    vec4 h[WINDOW];
    [[unroll]] for (int m = 0; m < WINDOW; m++) h[m] = start();
    for (int j = 0; j < w.rows + 2 * r; j++) {
        [[unroll]] for (int m = 0; m < WINDOW - 1; m++) h[m] = h[m + 1];
        int y = w.y0 - r + j; // the input row
        vec4 t = value(column_texel(w, y));
        vec4 s = start();
        [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
            if (abs(k) <= r) s = take(s, k == 0 ? t : subgroupShuffle(t, lane_at(w, k)), k);
        h[WINDOW - 1] = s;
        if (j >= 2 * r && w.writes) { // the output row y - r: the window's rows y - 2r .. y
            vec4 acc = start();
            [[unroll]] for (int k = -SUB_R; k <= SUB_R; k++)
                if (abs(k) <= r) acc = take(acc, h[WINDOW - 1 - r + k], k);
            finish(ivec2(w.x, y - r), acc);
        }
    }
}

// A subgroup walks strip k of its columns for k = its index among the grid's subgroups down
// the image and on, a stride of all of them. plan.c's grid has a subgroup for every strip,
// so each walks one; the loop is there for speed: without it erode, dilate and the 3 x 3
// median ran slower (the sums the same). Why the compiler does better with it is not
// known. Fewer subgroups, each walking two or four strips this way, were slower.
void main()
{
    walk w;
    w.r = RADIUS;
    w.lane = int(gl_SubgroupInvocationID);
    w.size = int(gl_SubgroupSize);
    w.x = int(gl_WorkGroupID.x) * (w.size - 2 * w.r) + w.lane - w.r;
    w.writes = w.lane >= w.r && w.lane < w.size - w.r && w.x < P.size.z;
    w.x_inside = w.x >= 0 && w.x < P.size.x;
    bool columns_inside = subgroupAll(w.x_inside);
#ifdef AMP_CODES
    if (tabled() && codes_program()) make_code_table(); // (before the loop: a barrier that subgroups with no strip reach too)
#endif
    int stride = int(gl_NumWorkGroups.y) * int(gl_NumSubgroups);
    for (int k = int(gl_WorkGroupID.y) * int(gl_NumSubgroups) + int(gl_SubgroupID); k * P.counts.x < P.size.w; k += stride) {
        w.y0 = k * P.counts.x; // (subgroup-uniform, as the loop)
        w.rows = min(P.counts.x, P.size.w - w.y0);
        w.strip_inside = columns_inside && w.y0 >= w.r && w.y0 + PRE_STRIP + w.r <= P.size.y;
        walk_strip(w);
    }
}
