#version 450
// Filters of 8-bit RGBA images on CPU devices (lavapipe), on buffers (MODE: filter_shared.h's
// PACKED_MODE_*): the copy and the pointwise filters (POINTWISE), the integer sums
// (conv.glsl's: gaussians and boxes of weights W_k / S; SUM, or SUM_SHIFT where T = S^2 is a
// power of two), ERODE, DILATE, the other sums in floats (FLOAT_SUM: OpenCV's fixed-point
// gaussians among them), SHARPEN, the 3 x 3 median (MEDIAN3) and the 5 x 5 (MEDIAN5),
// BILATERAL, of radius up to R_MAX (PACKED_RADIUS; PACKED_WIDE_RADIUS built as packed_wide,
// whose larger code takes longer to make), resizes that take the means of blocks of k x k
// texels (SHRINK: k = RADIUS up to R_MAX) or take every k-th (PICK), and EQUALIZE (8-bit gray).
// lavapipe fetches and stores a texel of an image through its sampling code, several
// times slower than loads and stores of four texels of a storage buffer, and reads a
// uniform texel buffer faster still (it gathers its texels; a storage buffer's it loads a
// lane at a time), while a texel buffer's stores are slower than a storage buffer's
// (docs/perf.md has the copy's times). So this reads the source as a texel buffer of 16
// bytes a texel (binding 8) and writes the result into a storage buffer (binding 5):
// where the image is linear (CPU devices make 8-bit textures so), over its own texels;
// otherwise pass.c copies the source into the first half of the view's buffer and the
// result from its second half (a memcpy each way on a CPU device). Both are rows of
// quads (four texels, a uvec4, each as the images hold it:
// R | G << 8 | B << 16 | A << 24; 16 gray codes for equalize), P.counts.x and .z quads
// apart; a result of a pass that ends in grayscale is a word a quad (gray, DST_N 1) or
// two (gray and alpha).
//
// An invocation takes a column of RESIZE_STRIP result quads (SHRINK, PICK), of POINT_STRIP
// pairs of quads side by side (POINTWISE: emit_pair) or of PACKED_STRIP quads (the sums),
// which it walks down taking each input row's horizontal results once, the last 2r + 1 of
// them in a ring of registers. The integer sums add two channels at once in the halves of
// a word (R and B, G and A): at most 255 S^2 < 2^16; erode and dilate the texels' words
// themselves, a byte's minimum or maximum at a time (take: faster on lavapipe than each
// channel apart); the float sums each channel of four texels at once in a vec4 (the ring keeps
// floats as their bits). lavapipe runs both sides of a branch that its lanes take
// differently, so the few quads at the left and right edges, whose windows need the
// border, are a pass of their own (PASS 1), and the others (PASS 0), which read their
// row's quads from Q to the left to Q to the right (Q = ceil(r / 4)), test nothing; on a
// small image PASS 1 takes them all (FLAG_WHOLE_ROWS: one pipeline for lavapipe to make).
// P.counts.x: the source's quads from a row to the next; .y: T (SUM, SUM_SHIFT), the counting
// invocations (EQUALIZE); .z: the result's; .w: the quad (of 16 bytes) of binding 5 where the
// result begins. PACKED_TABLE_PASS: the dispatch that makes the table (FLAG_TABLE), a pipeline of its own.
#extension GL_EXT_control_flow_attributes : require
#extension GL_ARB_gpu_shader_int64 : require
#include "filter.glsl"
#include "median_net.glsl"
layout(local_size_x = PACKED_GROUP_X, local_size_y = PACKED_GROUP_Y) in;
layout(set = 0, binding = 8) uniform utextureBuffer Quads; // the source, texels of 16 bytes
layout(set = 0, binding = 5, std430) writeonly buffer Results { uvec4 q[]; } D; // the result
layout(set = 0, binding = 5, std430) writeonly buffer Words { uint w[]; } W;    // the same
layout(set = 0, binding = 5, std430) writeonly buffer Pairs { uvec2 p[]; } W2;  // the same
layout(set = 0, binding = 5, std430) writeonly buffer Octets { u64vec4 o[]; } D8; // the same, 32 bytes a store

// rows an invocation of a sum walks down, more for larger windows, whose first 2r rows
// give no result (longer strips slow the small radii, which waste fewer rows)
const int PACKED_STRIP = PACKED_STRIP_OF(RADIUS);
#define POINT_STRIP PACKED_POINT_STRIP // rows an invocation of POINTWISE walks down
#define UNROLL 2        // rows a round of a window's walk (main's)
#define RESIZE_STRIP PACKED_RESIZE_STRIP // and of SHRINK and PICK (8 were slower)
#ifdef AMP_PACKED_WIDE  // the module packed_wide: radius 9 to 16 (larger code, longer to make)
#define R_MAX PACKED_WIDE_RADIUS // the largest radius
#else
#define R_MAX PACKED_RADIUS
#endif
#define Q_MAX ((R_MAX + 3) / 4) // the quads each side that a window of R_MAX reaches
// The window's radius, for the ring and the loops over it: sized by the pass's radius, not
// R_MAX (the module's loops are unrolled by the driver: CMakeLists.txt's AMPVK_DRIVER_UNROLLS).
const int RING_R = RADIUS < R_MAX ? RADIUS : R_MAX;
#define LOW 0x00ff00ffu // R and B of a texel; G and A are the same bits 8 up

// The numbers the passes read at every row, read from the uniform blocks once, before the
// walk (read_numbers): lavapipe gathers a block's word lane by lane, eight loads and
// inserts, where the load sits in a loop, and loads it once outside one.
ivec4 sizes;             // P.size: the source's width and height, the result's
int in_pitch;            // P.counts.x: the source's quads from a row to the next
int out_pitch, out_base; // P.counts.z and .w: the result's, and where it begins
uint sum_t;              // P.counts.y: T of the integer sums
vec2 mixed;              // P.f.xy: sharpen's mix of the texel and the blur
uint edge_code;          // the constant border's codes (plan.c's border_codes)
float weights[R_MAX + 1];  // P.weights: w[0..R_MAX]
uvec4 shape_steps, shape_masks; // TB.shape[0] and [1] (FLAG_SHAPE)

int pitch() { return in_pitch; } // the source's quads from a row to the next
uvec4 quad(int i) { return texelFetch(Quads, i); } // the source's quad i
int quads() { return (sizes.z + 3) >> 2; } // a result row's quads
bool single() { return MODE == PACKED_MODE_POINTWISE || MODE == PACKED_MODE_SHRINK || MODE == PACKED_MODE_PICK; } // no window
// The rows of results an invocation walks down (plan.c's packed_pass: the same numbers).
int strip()
{
    return MODE == PACKED_MODE_SHRINK || MODE == PACKED_MODE_PICK ? RESIZE_STRIP
         : MODE == PACKED_MODE_POINTWISE ? POINT_STRIP : PACKED_STRIP;
}
int radius() { return single() ? 0 : RADIUS; }
int quads_aside() { return (radius() + 3) / 4; } // Q
// The first quad from the left whose window reaches past the right edge, or Q if that is
// less (plan.c's packed_edge): quads Q up to it are PASS 0's.
int right_edge()
{
    int r = radius();
    return max(sizes.x >= 4 + r ? (sizes.x - 4 - r) / 4 + 1 : 1, quads_aside());
}

// The texel at column x and row y, through the border.
uint texel(int x, int y)
{
    x = border_at(x, sizes.x, BORDER);
    y = border_at(y, sizes.y, BORDER);
    return x < 0 || y < 0 ? edge_code : quad(y * pitch() + (x >> 2))[x & 3];
}

uint code_table(uint c); // (FLAG_TABLE's, below)
#include "codes_program.glsl"

// The pointwise program on four texels' codes (none for the copy), from one site: the
// program, inlined, is long. The quad turns round a texel at a time (no dynamic index).
uvec4 computed(uvec4 t)
{
    [[dont_unroll]] for (int i = 0; i < 4 && NOPS > 0; i++)
        t = uvec4(t.yzw, computed_word(t.x));
    return t;
}

// FLAG_TABLE (plan.c sets it where each channel of the result depends on that channel of
// the source alone, after a grayscale first if there is one): the program's results for
// the texels (c, c, c, c) of every code c, made by a dispatch of their own (one work
// group, PACKED_TABLE_PASS) into the pass's memory (binding 7) and read from it as a uniform block
// (binding 6), whose loads lavapipe gathers (its loads from storage and shared memory go
// a lane at a time). A result channel is then a lookup of its source channel's code;
// grayscale first: of the gray code, which grayscale leaves as it is (OpenCV's weights
// sum to 2^15). Looking up is about twice as fast on lavapipe as computing.
// A channel whose table is a step between two pieces, each a constant or the code with
// some bits flipped, f(c) = c >= s ? (c & A1) ^ B1 : (c & A0) ^ B0 (A 0 or 255: invert and
// the thresholds; FLAG_SHAPE, plan.c's shape_program), is that arithmetic on the four
// codes of a texel at once instead of four lookups: the table's dispatch finds each
// channel's shape (shape_of) from the table: a threshold or invert then runs as fast as
// the copy filter. (shape[0] is not tested at run time: lavapipe runs both sides of a
// branch it cannot see is uniform, so the test cost both ways.)
layout(set = 0, binding = 6, std140) uniform Table {
    uvec4 codes[64]; // the results of the codes' texels, 4 a uvec4
    uvec4 shape[2];  // [0].xy: 256 - s of R and B, of G and A (16-bit halves); [1]: A0, B0, A0 ^ A1, B0 ^ B1
} TB;
layout(set = 0, binding = 7, std430) buffer Memory { uint w[]; } M; // the table's memory (its start)
#define TABLE_WORDS (PACKED_TABLE_BYTES / 4) // words of the table and its shapes
bool tabled() { return (FLAGS & FLAG_TABLE) != 0; }
uint code_table(uint c) { return TB.codes[c >> 2][c & 3u]; }
bool table_pass() { return tabled() && PASS == PACKED_TABLE_PASS; }
bool shaped() { return (FLAGS & FLAG_SHAPE) != 0; }
// The codes of a texel x through the channels' shapes, each in its byte: (x & A) ^ B, A
// and B each piece's in the bytes whose code is below s or not.
uint shaped_codes(uint x)
{
    uvec4 a = shape_masks; // A0, B0, A0 ^ A1, B0 ^ B1
    uint ge = ((((x & LOW) + shape_steps.x) & 0x01000100u) >> 8) | ((((x >> 8) & LOW) + shape_steps.y) & 0x01000100u);
    uint m = ge * 255u; // 255 in each byte whose code is s or more
    return (x & (a.x ^ (a.z & m))) ^ (a.y ^ (a.w & m));
}

// The byte of a table's word that holds the result of source channel k, or -1 where the
// result has none (the table's words are the result's texels: gray and alpha in two bytes).
int result_byte(int k) { return DST_N > 2 ? (k < DST_N ? k : -1) : k == 0 ? 0 : DST_N == 2 && k == 3 ? 1 : -1; }
shared uint made[256];
// Source channel k's shape (s, A0, B0, A1, B1; s 256: no step) from the table in made[]; a
// channel with no result, or alpha where the program keeps it, is the code itself. (Two
// functions of the pieces' kind agree at one code at most, so the longest first piece is
// as good as any. A table of no shape, which shape_program rules out, would keep the last
// one tried: test_filters holds every shaped chain to the program computed.)
void shape_of(int k, out uint s, out uint a0, out uint b0, out uint a1, out uint b1)
{
    s = 256u, a0 = 255u, b0 = 0u, a1 = 255u, b1 = 0u;
    if (result_byte(k) < 0 || (k == 3 && keeps_alpha())) return;
    uint at = 8u * uint(result_byte(k));
    for (uint lo = 0u; lo < 2u; lo++) {
        a0 = lo * 255u, b0 = (made[0] >> at) & 0xffu; // the piece up to s: its longest run
        for (s = 0u; s < 256u && ((made[s] >> at) & 0xffu) == ((s & a0) ^ b0); s++) {}
        if (s == 256u) return;
        for (uint hi = 0u; hi < 2u; hi++) { // the piece from s: the rest of the table
            a1 = hi * 255u, b1 = ((made[s] >> at) & 0xffu) ^ (s & a1);
            uint c = s;
            for (; c < 256u && ((made[c] >> at) & 0xffu) == ((c & a1) ^ b1); c++) {}
            if (c == 256u) return;
        }
    }
}
void make_table(uint e)
{
    uvec4 t = computed((uvec4(4u * e) + uvec4(0u, 1u, 2u, 3u)) * 0x01010101u);
    [[unroll]] for (uint k = 0u; k < 4u; k++) M.w[4u * e + k] = t[k];
    if (!shaped()) return;
    [[unroll]] for (uint k = 0u; k < 4u; k++) made[4u * e + k] = t[k];
    barrier();
    if (e != 0u) return;
    uvec4 steps = uvec4(0u), a = uvec4(0u);
    for (int k = 0; k < 4; k++) {
        uint s, a0, b0, a1, b1;
        shape_of(k, s, a0, b0, a1, b1);
        steps[k] = 256u - s;
        a |= uvec4(a0, b0, a0 ^ a1, b0 ^ b1) << (8 * k);
    }
    M.w[256] = steps[0] | steps[2] << 16, M.w[257] = steps[1] | steps[3] << 16, M.w[258] = M.w[259] = 0u;
    [[unroll]] for (int k = 0; k < 4; k++) M.w[260 + k] = a[k];
}
uint looked_up(uint x)
{
    if (shaped()) return as_result(shaped_codes(grayed(x))); // (alpha kept: its shape is the code itself)
    return program_codes(x);
}
// A program of grayscale alone needs no table (plan.c's table_program: none made).
uvec4 program(uvec4 t)
{
    bool look = tabled();
    if (NOPS == 1 && SRC_N >= 3) look = look || (OP0 & 255) == OP_GRAYSCALE;
    return look ? uvec4(looked_up(t.x), looked_up(t.y), looked_up(t.z), looked_up(t.w)) : computed(t);
}

float weight(int k) { return weights[abs(k)]; }

bool integer_sums() { return MODE == PACKED_MODE_SUM || MODE == PACKED_MODE_SUM_SHIFT; }
bool float_sums() { return MODE == PACKED_MODE_FLOAT_SUM || MODE == PACKED_MODE_SHARPEN; }
bool min_max() { return MODE == PACKED_MODE_ERODE || MODE == PACKED_MODE_DILATE; }
// Each byte's minimum (erode) or maximum (dilate) of the words a and b, four texels' channels
// at once: a byte of a is at least b's where the top bits agree and (a | 0x80) - (b & 0x7f)
// keeps its top bit (no borrow crosses a byte), or where a's top bit is set and b's is not.
uvec4 take(uvec4 a, uvec4 b)
{
    const uint H = 0x80808080u;
    uvec4 ge = ((((a | H) - (b & ~H)) & ~(a ^ b)) | (a & ~b)) & H;
    uvec4 m = (ge >> 7) * 0xffu; // 0xff where a's byte >= b's
    return MODE == PACKED_MODE_ERODE ? (b & m) | (a & ~m) : (a & m) | (b & ~m);
}
// One step of a row's or column's results h with the values a at offset k, both as the
// ring holds them: integer sums of R and B (h[0]) and of G and A (h[1]), each channel's
// float sum (floats as their bits), or the texels' words' bytewise minimum or maximum (h[0]).
void step(inout uvec4 h[4], uvec4 a[4], int k, bool first)
{
    [[unroll]] for (int c = 0; c < 4; c++) {
        if (integer_sums() && c < 2) {
            h[c] = (first ? uvec4(0u) : h[c]) + uint(weight(k)) * a[c];
        } else if (float_sums()) {
            vec4 acc = first ? vec4(0.0) : uintBitsToFloat(h[c]);
            h[c] = floatBitsToUint(acc + weight(k) * uintBitsToFloat(a[c]));
        } else if (min_max() && c == 0) { // the texels' words (the other components unused)
            h[0] = first ? a[0] : take(h[0], a[0]);
        }
    }
}

uvec4 median3(uvec4 a, uvec4 b, uvec4 c) { return max(min(a, b), min(max(a, b), c)); }

// Input row y's texels (codes, a word each) at columns x0 - r .. x0 + 3 + r, into t[4 Q_MAX - r ..
// 4 Q_MAX + 3 + r] (t[4 Q_MAX] column x0), PASS 0's: the quads from Q to the left to Q to
// the right, all inside the image's columns.
void row_inside(int x0, int y, out uint t[4 + 8 * Q_MAX])
{
    int q = quads_aside(), base = 4 * Q_MAX;
    int row = border_at(y, sizes.y, BORDER), at = max(row, 0) * pitch() + (x0 >> 2);
    [[unroll]] for (int j = -Q_MAX; j <= Q_MAX; j++) {
        if (abs(j) > q) continue;
        uvec4 u = quad(at + j);
        [[unroll]] for (int m = 0; m < 4; m++) t[base + 4 * j + m] = u[m];
    }
    if (BORDER == BORDER_CONSTANT)
        [[unroll]] for (int m = 0; m < 4 + 8 * Q_MAX; m++) t[m] = row < 0 ? edge_code : t[m];
}

// The same of either pass: through the border at the edges (PASS 1). (Where a function
// reads many rows, it calls row_inside in PASS 0's code and this in PASS 1's only: each
// call inlines the edges' code too, which the module would carry in every call.)
void row_texels(int x0, int y, out uint t[4 + 8 * Q_MAX])
{
    int r = radius(), base = 4 * Q_MAX;
    if (PASS == 1) {
        [[unroll]] for (int m = 0; m < 4 + 8 * Q_MAX; m++)
            if (m >= base - r && m < base + 4 + r) t[m] = texel(x0 - base + m, y);
    } else {
        row_inside(x0, y, t);
    }
}

// Row y's horizontal results at the quad from column x0 into the ring's last row h; for
// the 3 x 3 median (MEDIAN3) each channel's three texels sorted, lo | mid << 8 | hi << 16.
void row_of(int x0, int y, out uvec4 h[4])
{
    int base = 4 * Q_MAX;
    uint t[4 + 8 * Q_MAX]; // columns x0 - 4 Q_MAX .. x0 + 3 + 4 Q_MAX
    row_texels(x0, y, t);
    if (MODE == PACKED_MODE_MEDIAN3) {
        uvec4 left = uvec4(t[base - 1], t[base], t[base + 1], t[base + 2]);
        uvec4 mid = uvec4(t[base], t[base + 1], t[base + 2], t[base + 3]);
        uvec4 right = uvec4(t[base + 1], t[base + 2], t[base + 3], t[base + 4]);
        [[unroll]] for (int c = 0; c < 4; c++) {
            uvec4 a = (left >> (8 * c)) & 0xffu, b = (mid >> (8 * c)) & 0xffu, d = (right >> (8 * c)) & 0xffu;
            uvec4 lo = min(a, b), hi = max(a, b);
            h[c] = min(lo, d) | max(lo, min(hi, d)) << 8 | max(hi, d) << 16;
        }
        return;
    }
    [[unroll]] for (int k = -RING_R; k <= RING_R; k++) { // (RING_R is r)
        uvec4 a = uvec4(t[base + k], t[base + 1 + k], t[base + 2 + k], t[base + 3 + k]), s[4];
        // the texels' channels: R and B, G and A for the integer sums, the words themselves
        // for erode and dilate (step takes s[0]), else one each
        [[unroll]] for (int c = 0; c < 4; c++) {
            s[c] = min_max() ? a : (a >> (8 * c)) & (integer_sums() ? LOW : 0xffu);
            if (float_sums()) s[c] = floatBitsToUint(vec4(s[c]));
        }
        step(h, s, k, k == -RING_R);
    }
}

// A code from the sum n of a 16-bit half: floor((n + T / 2 + 1 / 4) / T) in floats.
// n / T + 1 / 2 is an integer or at least 1 / 2T from one, so a quarter of that added
// leaves 1 / 4T (>= 2^-10) each side, and the float's error is at most 255 * 2^-23
// (checked for every n and S on the host). Twice as fast on lavapipe as conv.glsl's
// multiply-high (rounded_code).
uvec4 code_of(uvec4 n)
{
    float t = float(sum_t);
    return uvec4(floor((vec4(n) + (0.5 * t + 0.25)) * (1.0 / t)));
}

// Four texels' codes from their sums n, the nearest integers to n / T (halves up): a
// half at a time, or for T = 2^s both halves at once, (n + T / 2) >> s.
uvec4 codes_of(uvec4 lo, uvec4 hi)
{
    if (MODE == PACKED_MODE_SUM_SHIFT) {
        uint t = sum_t, s = uint(findLSB(t)); // T = 2^s
        lo = ((lo + (t >> 1) * 0x10001u) >> s) & LOW;
        hi = ((hi + (t >> 1) * 0x10001u) >> s) & LOW;
        return lo | (hi << 8);
    }
    return code_of(lo & 0xffffu) | (code_of(hi & 0xffffu) << 8) | (code_of(lo >> 16) << 16) |
           (code_of(hi >> 16) << 24);
}

// The codes of four texels from a float sum of codes of each channel (sharpen: mixed
// with the texels first), rounded as amp_quantize_unorm rounds.
uvec4 float_codes(uvec4 v[4], int qx, int y)
{
    uvec4 c = uvec4(0u), center = MODE == PACKED_MODE_SHARPEN ? quad(y * pitch() + qx) : uvec4(0u);
    [[unroll]] for (int ch = 0; ch < 4; ch++) {
        vec4 s = uintBitsToFloat(v[ch]);
        if (MODE == PACKED_MODE_SHARPEN) s = mixed.x * vec4((center >> (8 * ch)) & 0xffu) + mixed.y * s;
        c |= uvec4(clamp(floor(s + 0.5), 0.0, 255.0)) << (8 * ch);
    }
    return c;
}

// One channel's codes from its sums n over blocks of k x k texels (k = RADIUS), rounded
// as cv2.resize's INTER_AREA rounds by a whole factor: halves up where k = 2 (its own
// path for 2 x 2 blocks, the same as INTER_LINEAR's halving), else halves to even.
uvec4 mean_of(uvec4 n)
{
    uint t = uint(RADIUS * RADIUS);
    uvec4 q = (n + t / 2u) / t;
    if (RADIUS != 2) q -= uvec4(equal(2u * n + t, 2u * q * t)) & q & 1u; // a tie, rounded up to odd
    return q;
}

// SHRINK: the means of k x k blocks, cv2.resize's INTER_AREA by a whole factor k (and
// INTER_LINEAR's halving): the four results of the quad at qx of result row y, R and B
// (G and A) summed in the halves of a word (at most 255 k^2 < 2^16) over the k quads of
// each of the k rows.
uvec4 shrunk(int qx, int y)
{
    uvec4 lo = uvec4(0u), hi = uvec4(0u);
    int last = ((sizes.x + 3) >> 2) - 1; // the row's last quad (results past the width read it)
    [[unroll]] for (int dy = 0; dy < R_MAX; dy++) {
        if (dy >= RADIUS) continue;
        int row = (y * RADIUS + dy) * pitch();
        [[unroll]] for (int j = 0; j < R_MAX; j++) {
            if (j >= RADIUS) continue;
            uvec4 u = quad(row + min(RADIUS * qx + j, last));
            [[unroll]] for (int i = 0; i < 4; i++) { // texel 4j + i of the k quads: result (4j + i) / k
                lo[(4 * j + i) / RADIUS] += u[i] & LOW;
                hi[(4 * j + i) / RADIUS] += (u[i] >> 8) & LOW;
            }
        }
    }
    return mean_of(lo & 0xffffu) | mean_of(hi & 0xffffu) << 8 | mean_of(lo >> 16) << 16 | mean_of(hi >> 16) << 24;
}

// PICK: cv2.resize's INTER_NEAREST by a whole factor k (RADIUS): of result row y,
// texels k x of source row k y (results past the width read the row's last quad).
uvec4 picked(int qx, int y)
{
    int row = y * RADIUS * pitch(), last = ((sizes.x + 3) >> 2) - 1;
    uvec4 c;
    [[unroll]] for (int i = 0; i < 4; i++) c[i] = quad(row + min(RADIUS * qx + (RADIUS * i >> 2), last))[(RADIUS * i) & 3];
    return c;
}

// EQUALIZE, cv2.equalizeHist of an 8-bit gray image, 16 codes a uvec4 (P.counts.x of them
// from a row to the next): in PASS 0 invocation e counts the codes of rows e, e + G, ...
// (G = P.counts.y) in an array of its own, then stores the counts into its 256 words of
// the pass's memory after the table; in PASS 1 one work group adds them up, makes the
// table as equalize.comp does and runs the pointwise program on its codes; PASS 2 looks
// each code up (the table a uniform block, as FLAG_TABLE's). The counts are in a
// private array: lavapipe loads and stores the pass's memory a lane at a time, and
// shared memory was no faster.
void count_codes(uint e)
{
    uint hist[256];
    for (uint k = 0u; k < 256u; k++) hist[k] = 0u;
    int full = sizes.x >> 4, quads = (sizes.x + 15) >> 4, g = P.counts.y; // (read before the loop: read_numbers')
    for (int y = int(e); y < sizes.y; y += g) {
        int at = y * pitch();
        for (int k = 0; k < quads; k++) {
            uvec4 u = quad(at + k);
            int n = k < full ? 16 : sizes.x & 15; // codes in the quad
            [[unroll]] for (int i = 0; i < 16; i++)
                if (i < n) hist[(u[i >> 2] >> (8 * (i & 3))) & 0xffu]++;
        }
    }
    uint base = TABLE_WORDS + 256u * e;
    for (uint k = 0u; k < 256u; k++) M.w[base + k] = hist[k];
}

shared uint counted[256], equalized[256];
#define EQ_COUNT(j) counted[j]
#define EQ_STORE(j, code) equalized[j] = (code)
#include "equalize.glsl"
void equalize_codes(uint lid)
{
    [[unroll]] for (uint c = 4u * lid; c < 4u * lid + 4u; c++) {
        uint n = 0u;
        for (uint g = 0u; g < uint(P.counts.y); g++) n += M.w[TABLE_WORDS + 256u * g + c];
        counted[c] = n;
    }
    barrier();
    if (lid == 0u) equalize_table(255u, uint(P.size.x) * uint(P.size.y));
    barrier();
    uvec4 t = uvec4(equalized[4u * lid], equalized[4u * lid + 1u], equalized[4u * lid + 2u], equalized[4u * lid + 3u]);
    t = computed(t) & 0xffu; // the gray codes through the program
    [[unroll]] for (uint k = 0u; k < 4u; k++) M.w[4u * lid + k] = t[k];
}

uvec4 equalized_quad(uvec4 u)
{
    [[unroll]] for (int c = 0; c < 4; c++)
        u[c] = code_table(u[c] & 0xffu) | code_table((u[c] >> 8) & 0xffu) << 8 |
               code_table((u[c] >> 16) & 0xffu) << 16 | code_table(u[c] >> 24) << 24;
    return u;
}

// A result quad's texels t (the program's codes) as the result holds them: a word each
// (RGBA), gray and alpha in the halves of two words (DST_N 2), the gray codes in one.
// lavapipe stores a word a lane at a time, each lane's value taken from its vector
// through the stack; LLVM moved the last operations of a result (codes_of's or, the
// gray word's packing) into that loop, where they took each of their operands
// through the stack too (a 5 x 5 gaussian's store loop: 10 spills a lane instead of
// 6). A min with all ones the compiler cannot see (the width is never negative)
// keeps each stored word one vector.
uvec4 stored(uvec4 t)
{
    uint ones = uint(sizes.x >> 31) - 1u;
    if (DST_N == 1) return uvec4(min((t.x & 0xffu) | (t.y & 0xffu) << 8 | (t.z & 0xffu) << 16 | t.w << 24, ones));
    t &= DST_N == 2 ? 0xffffu : ~0u;
    return DST_N == 2 ? uvec4(min(uvec2(t.x | t.y << 16, t.z | t.w << 16), uvec2(ones)), 0u, 0u) : min(t, uvec4(ones));
}
// Where result row y's quad qx lies in binding 5, in the result's quads (16 bytes: RGBA, or RGB
// kept as RGBA; 8: gray and alpha; 4: gray).
int result_at(int qx, int y) { return (DST_N == 1 ? 4 : DST_N == 2 ? 2 : 1) * out_base + y * out_pitch + qx; }
// Stores the quad at qx of result row y, the pass's program on the codes c, as one store
// (lavapipe loops over the lanes once a store, so gray and alpha as two stores of a word
// were slower).
void emit(uvec4 c, int qx, int y)
{
    uvec4 s = stored(program(c));
    int p = result_at(qx, y);
    if (DST_N == 1) W.w[p] = s.x;
    else if (DST_N == 2) W2.p[p] = s.xy;
    else D.q[p] = s;
}
// The same of two quads side by side, qx and qx + 1, in one store: a 64-bit vector of four
// words (RGBA), a uvec4 or a uvec2 (gray). pass.c puts a pass's result rows an even count of
// quads apart, from an even quad; where a row has an odd count, the last pair's second quad
// (a copy of its first) lands in the row's padding. lavapipe loops over the lanes once a
// store and takes a vector's components one by one, so fewer, wider stores are faster
// (two 64-bit ones of pairs in 4 rows beat four words in 8); and it runs a branch's both
// sides, so a test for the odd quad (or an odd row) costs what the pairs save.
void emit_pair(uvec4 c0, uvec4 c1, int qx, int y)
{
    uvec4 s0 = stored(program(c0)), s1 = stored(program(c1));
    int p = result_at(qx, y) >> 1;
    if (DST_N == 1) W2.p[p] = uvec2(s0.x, s1.x);
    else if (DST_N == 2) D.q[p] = uvec4(s0.xy, s1.xy);
    else D8.o[p] = u64vec4(packUint2x32(s0.xy), packUint2x32(s0.zw), packUint2x32(s1.xy), packUint2x32(s1.zw));
}

#ifndef AMP_PACKED_WIDE // (radius 2 and up to 4: packed.comp's only)
// MEDIAN5: the 5 x 5 median (cv2.medianBlur's, of every channel) of the quad at qx, rows y0
// up to last, two result rows a round: the 8 x 6 codes around them a channel at a time
// through median_net.glsl's tile of 4 x 2 windows (72 min/max operations a window). Each
// round fetches its six rows: a ring of them would be 32 words a loop carries, which
// lavapipe blends and spills at every round's end.
AMP_MEDIAN25(uint)
void median5(int qx, int y0, int last)
{
    const int base = 4 * Q_MAX - 2; // t's column x0 - 2
    for (int y = y0; y < last; y += 2) {
        uint t[6][4 + 8 * Q_MAX];
        if (PASS == 0) [[unroll]] for (int i = 0; i < 6; i++) row_inside(4 * qx, min(y - 2 + i, sizes.y + 1), t[i]);
        else [[unroll]] for (int i = 0; i < 6; i++) row_texels(4 * qx, min(y - 2 + i, sizes.y + 1), t[i]);
        uvec4 first = uvec4(0u), second = uvec4(0u);
        // (the channels unrolled: as a loop, the network inlined once, its pipelines were
        // quicker to make but the median itself slower)
        [[unroll]] for (int c = 0; c < 4; c++) {
            uint k[48], m[8];
            [[unroll]] for (int i = 0; i < 6; i++)
                [[unroll]] for (int x = 0; x < 8; x++) k[x + 8 * i] = (t[i][base + x] >> (8 * c)) & 0xffu;
            amp_median25_quad(k, m);
            first |= uvec4(m[0], m[1], m[2], m[3]) << (8 * c);
            second |= uvec4(m[4], m[5], m[6], m[7]) << (8 * c);
        }
        emit(first, qx, y);
        if (y + 1 < last) emit(second, qx, y + 1);
    }
}

// BILATERAL: bilateral.comp's filter (cv2.bilateralFilter's weights) of the quad at qx, rows y0
// up to last, radius r up to BILATERAL_R: over the disc, exp(d^2 f.x + (i^2 + j^2) f.y) for
// the color distance d, the sum of the R, G and B codes' differences, each channel of the
// four texels weighted at once (a vec4 a channel); each result row fetches its 2r + 1
// input rows (no ring: it carries nothing from row to row). On lavapipe several times
// as fast as bilateral.comp, whose 49 fetches a texel go through the sampling code.
#define BILATERAL_R PACKED_BILATERAL_RADIUS // (the disc unrolled, 49 taps at 4)
// The tap (i, j) of the four texels' discs: row j's texels t (t[4 Q_MAX] column x0) against
// the texels' own codes, centre.
void bilateral_tap(int i, int j, uint t[4 + 8 * Q_MAX], uvec4 centre, inout vec4 sum[4], inout vec4 wsum)
{
    const int b = 4 * Q_MAX;
    uvec4 n = uvec4(t[b + i], t[b + 1 + i], t[b + 2 + i], t[b + 3 + i]);
    ivec4 d = ivec4(0);
    [[unroll]] for (int c = 0; c < 3; c++)
        d += abs(ivec4((n >> (8 * c)) & 0xffu) - ivec4((centre >> (8 * c)) & 0xffu));
    vec4 w = exp(vec4(d * d) * mixed.x + float(i * i + j * j) * mixed.y); // P.f.xy: -1 / 2 sc^2, -1 / 2 ss^2
    [[unroll]] for (int c = 0; c < 4; c++) sum[c] += w * vec4((n >> (8 * c)) & 0xffu);
    wsum += w;
}
void bilateral(int qx, int y0, int last)
{
    const int b = 4 * Q_MAX; // t's column x0
    int r = RADIUS;
    for (int y = y0; y < last; y++) {
        uint own[4 + 8 * Q_MAX], t[4 + 8 * Q_MAX]; // the result row's texels, and row j's
        row_texels(4 * qx, y, own);
        uvec4 centre = uvec4(own[b], own[b + 1], own[b + 2], own[b + 3]);
        vec4 sum[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0)), wsum = vec4(0.0);
        if (PASS == 0) { // the disc's taps unrolled (constant indices into t)
            [[unroll]] for (int j = -BILATERAL_R; j <= BILATERAL_R; j++) {
                if (abs(j) > r) continue;
                if (j == 0) t = own;
                else row_inside(4 * qx, y + j, t);
                [[unroll]] for (int i = -BILATERAL_R; i <= BILATERAL_R; i++)
                    if (abs(i) <= r && i * i + j * j <= r * r) bilateral_tap(i, j, t, centre, sum, wsum);
            }
        } else { // the edges' few quads: a row a step (a pipeline a fifth the size)
            for (int j = -r; j <= r; j++) {
                row_texels(4 * qx, y + j, t);
                [[unroll]] for (int i = -BILATERAL_R; i <= BILATERAL_R; i++)
                    if (abs(i) <= r && i * i + j * j <= r * r) bilateral_tap(i, j, t, centre, sum, wsum);
            }
        }
        uvec4 q = uvec4(0u);
        [[unroll]] for (int c = 0; c < 4; c++) q |= uvec4(clamp(floor(sum[c] / wsum + 0.5), 0.0, 255.0)) << (8 * c);
        emit(q, qx, y);
    }
}
#endif

void read_numbers()
{
    sizes = P.size;
    in_pitch = P.counts.x, sum_t = uint(P.counts.y), out_pitch = P.counts.z, out_base = P.counts.w;
    mixed = P.f.xy;
    edge_code = packUnorm4x8(P.border_value);
    [[unroll]] for (int k = 0; k <= R_MAX; k++) weights[k] = P.weights[k >> 2][k & 3];
    if (shaped() && !table_pass()) shape_steps = TB.shape[0], shape_masks = TB.shape[1];
}

void main()
{
    read_numbers();
    if (MODE == PACKED_MODE_EQUALIZE) {
        uint e = gl_GlobalInvocationID.x;
        if (PASS == 0 && e < uint(P.counts.y)) count_codes(e);
        if (PASS == 1) equalize_codes(e);
        if (PASS == 2 && int(e) < (sizes.x + 15) >> 4)
            for (int j = 0, y0 = int(gl_GlobalInvocationID.y) * POINT_STRIP; j < POINT_STRIP && y0 + j < sizes.w; j++)
                D.q[out_base + (y0 + j) * out_pitch + int(e)] = equalized_quad(quad((y0 + j) * pitch() + int(e)));
        return;
    }
    if (table_pass()) {
        if (gl_GlobalInvocationID.x < 64u && gl_GlobalInvocationID.y == 0u) make_table(gl_GlobalInvocationID.x);
        return;
    }
    int r = radius(), e = int(gl_GlobalInvocationID.x), q = quads_aside();
    bool whole = (FLAGS & FLAG_WHOLE_ROWS) != 0; // (PASS 1)
    int qx = MODE == PACKED_MODE_POINTWISE ? 2 * e
             : single() || whole             ? e
             : PASS == 0                     ? e + q
             : e < q                         ? e
                                             : right_edge() + e - q;
    int y0 = int(gl_GlobalInvocationID.y) * strip();
    if (qx >= (!single() && PASS == 0 ? right_edge() : quads()) || y0 >= sizes.w) return;
    int last = min(y0 + strip(), sizes.w); // the strip's rows: y0 up to last
    if (MODE == PACKED_MODE_POINTWISE) { // two quads side by side (emit_pair): the first again past a row's last
        int second = min(qx + 1, quads() - 1);
        for (int y = y0; y < last; y++) emit_pair(quad(y * pitch() + qx), quad(y * pitch() + second), qx, y);
        return;
    }
    if (single()) {
        for (int y = y0; y < last; y++)
            emit(MODE == PACKED_MODE_SHRINK ? shrunk(qx, y) : picked(qx, y), qx, y);
        return;
    }
#ifndef AMP_PACKED_WIDE
    if (MODE == PACKED_MODE_MEDIAN5 || MODE == PACKED_MODE_BILATERAL) {
        if (MODE == PACKED_MODE_MEDIAN5) median5(qx, y0, last);
        else bilateral(qx, y0, last);
        return;
    }
#endif
    uvec4 ring[2 * RING_R + 1][4]; // the last 2r + 1 rows' results, the newest last
    [[unroll]] for (int m = 0; m <= 2 * RING_R; m++) ring[m][0] = ring[m][1] = ring[m][2] = ring[m][3] = uvec4(0u);
    // UNROLL rows a round: lavapipe blends every value a loop carries with its lanes' mask
    // at the end of each round (and spills most of the ring to do so: a large share of
    // a gaussian's time a row a round), and more rows a round make a larger pipeline,
    // slower to make, for as fast a walk. Input row
    // y0 - r + j ends the window of result row y0 + j - 2r; rows of a round past the
    // strip's last store nothing.
    for (int j = 0; y0 + j - 2 * r < last; j += UNROLL) {
        [[unroll]] for (int u = 0; u < UNROLL; u++) {
            int y = y0 + j + u - 2 * r; // the result row whose window ends at the input row
            // the ring moved up a row, the input row's horizontal results its last (rows a
            // round reads past the strip's: any)
            [[unroll]] for (int m = 0; m < 2 * RING_R; m++) ring[m] = ring[m + 1];
            row_of(4 * qx, min(y + r, sizes.y - 1 + r), ring[2 * RING_R]);
            uvec4 v[4];
            // (ring[i]: the row at offset i - r from the output's)
            [[unroll]] for (int i = 0; i <= 2 * RING_R && MODE != PACKED_MODE_MEDIAN3; i++) step(v, ring[i], i - RING_R, i == 0);
            // the median of three sorted rows: of their largest low, middle middle and
            // smallest high (as median.comp's 3 x 3 walk)
            [[unroll]] for (int c = 0; c < 4 && MODE == PACKED_MODE_MEDIAN3; c++) {
                uvec4 a = ring[2 * RING_R - 2][c], b = ring[2 * RING_R - 1][c], d = ring[2 * RING_R][c];
                v[c] = median3(max(max(a & 0xffu, b & 0xffu), d & 0xffu),
                               median3((a >> 8) & 0xffu, (b >> 8) & 0xffu, (d >> 8) & 0xffu),
                               min(min(a >> 16, b >> 16), d >> 16));
            }
            uvec4 c = integer_sums() ? codes_of(v[0], v[1])
                      : float_sums() ? float_codes(v, qx, clamp(y, y0, last - 1))
                      : min_max()    ? v[0]
                                     : v[0] | (v[1] << 8) | (v[2] << 16) | (v[3] << 24);
            if (y >= y0 && y < last) emit(c, qx, y);
        }
    }
}
