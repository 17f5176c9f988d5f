#version 450
// Filters of 8-bit RGBA images on CPU devices (lavapipe), on buffers: the copy and the
// pointwise filters (MODE 0), the integer sums (conv.glsl's: gaussians and boxes of
// weights W_k / S; MODE 1, or 2 where T = S^2 is a power of two), erode (MODE 3) and
// dilate (4). lavapipe fetches and
// stores a texel of an image through its sampling code: a 4K RGBA8 copy took 52 ms as
// texelFetch and imageStore, 11 ms as loads and stores of four texels of a buffer. So
// pass.c copies the source image into a buffer (a memcpy on a CPU device: 2.5 ms for 4K
// RGBA8), runs this on it, and copies the result into the destination image. The
// buffer's first half holds the source and its second half the result, row after row of
// quads (four texels, a uvec4, each as the images hold it: R | G << 8 | B << 16 | A << 24).
// An invocation takes one quad (MODE 0) or a column of PACKED_STRIP quads (sums), which
// it walks down taking each input row's horizontal sums once, the last 2r + 1 of them in
// a ring of registers. The sums add two channels at once in the halves of a word (R and
// B, G and A): at most 255 S^2 < 2^16; erode and dilate take each channel's minimum
// or maximum of four texels at once in a uvec4 (a word a texel). lavapipe runs both sides of a branch that its
// lanes take differently, so the few quads at the left and right edges, whose windows
// need the border, are a pass of their own (PASS 1) and the others (PASS 0) have none.
// P.counts.x: the quads of a row; .y: T (MODE 1, 2); .z: log2(T) (MODE 2)
// .w: the quad where the result begins.
#extension GL_EXT_control_flow_attributes : require
#include "filter.glsl"
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 3, std430) buffer Quads { uvec4 q[]; } B;

#define PACKED_STRIP 16 // rows an invocation of a sum walks down (chain.c's PACKED_STRIP)
#define R_MAX 4         // the largest radius of a sum (chain.c's TILE_RADIUS)
#define LOW 0x00ff00ffu // R and B of a texel; G and A are the same bits 8 up

int pitch() { return P.counts.x; }
int radius() { return MODE == 0 ? 0 : RADIUS; }
// The first quad from the left whose window reaches past the right edge (chain.c's
// packed_edge): quads 1 up to it are PASS 0's.
int right_edge() { return max((P.size.x - 4 - radius()) / 4 + 1, 1); }
uint border_code() { return packUnorm4x8(P.border_value); } // whole codes (chain.c's integer_sum)

// The texel at column x and row y, through the border.
uint texel(int x, int y)
{
    x = border_at(x, P.size.x, BORDER);
    y = border_at(y, P.size.y, BORDER);
    return x < 0 || y < 0 ? border_code() : B.q[y * pitch() + (x >> 2)][x & 3];
}

// The pointwise program on four texels' codes (none for the copy), from one site: the
// program, inlined, is long. The quad turns round a texel at a time (no dynamic index).
uvec4 program(uvec4 t)
{
    [[dont_unroll]] for (int i = 0; i < 4 && NOPS > 0; i++)
        t = uvec4(t.yzw, packUnorm4x8(finished(unpackUnorm4x8(t.x), false)));
    return t;
}

uint weight(int k) { k = abs(k); return uint(P.weights[k >> 2][k & 3]); }

bool sums() { return MODE == 1 || MODE == 2; }
uvec4 take(uvec4 acc, uvec4 v) { return MODE == 3 ? min(acc, v) : max(acc, v); } // erode, dilate

// Row y's horizontal results at the quad from column x0 into the ring's last row h: sums
// for R and B (h[0]) and G and A (h[1]), or each channel's minimum or maximum (h[0..3]).
void row_of(int x0, int y, out uvec4 h[4])
{
    int r = radius();
    uint t[12]; // columns x0 - 4 .. x0 + 7
    if (PASS == 1) {
        [[unroll]] for (int m = 0; m < 12; m++)
            if (m >= 4 - r && m < 8 + r) t[m] = texel(x0 - 4 + m, y);
    } else { // the quad and its neighbours, all inside the image's columns
        int row = border_at(y, P.size.y, BORDER), at = max(row, 0) * pitch() + (x0 >> 2);
        uvec4 c = B.q[at], left = B.q[at - 1], right = B.q[at + 1];
        t = uint[12](left.x, left.y, left.z, left.w, c.x, c.y, c.z, c.w, right.x, right.y, right.z, right.w);
        if (BORDER == BORDER_CONSTANT)
            [[unroll]] for (int m = 0; m < 12; m++) t[m] = row < 0 ? border_code() : t[m];
    }
    h[0] = h[1] = h[2] = h[3] = uvec4(0u);
    [[unroll]] for (int k = -R_MAX; k <= R_MAX; k++) {
        if (abs(k) > r) continue;
        uvec4 a = uvec4(t[4 + k], t[5 + k], t[6 + k], t[7 + k]);
        [[unroll]] for (int c = 0; c < 4; c++) {
            if (sums() && c < 2) h[c] += weight(k) * ((a >> (8 * c)) & LOW);
            else if (!sums()) h[c] = k == -r ? (a >> (8 * c)) & 0xffu : take(h[c], (a >> (8 * c)) & 0xffu);
        }
    }
}

// A code from the sum n of a 16-bit half: floor((n + T / 2 + 1 / 4) / T) in floats.
// n / T + 1 / 2 is an integer or at least 1 / 2T from one, so a quarter of that added
// leaves 1 / 4T (>= 2^-10) each side, and the float's error is at most 255 * 2^-23
// (checked for every n and S on the host). Twice as fast on lavapipe as the multiply-high
// of filter.glsl's nearest_code (a 4K box 5 x 5: 145 -> 72-82 ms).
uvec4 code_of(uvec4 n)
{
    float t = float(P.counts.y);
    return uvec4(floor((vec4(n) + (0.5 * t + 0.25)) * (1.0 / t)));
}

// Four texels' codes from their sums n, the nearest integers to n / T (halves up): a
// half at a time, or for T = 2^s both halves at once, (n + T / 2) >> s.
uvec4 codes_of(uvec4 lo, uvec4 hi)
{
    if (MODE == 2) {
        uint half_t = (1u << P.counts.z) >> 1;
        lo = ((lo + half_t * 0x10001u) >> P.counts.z) & LOW;
        hi = ((hi + half_t * 0x10001u) >> P.counts.z) & LOW;
        return lo | (hi << 8);
    }
    return code_of(lo & 0xffffu) | (code_of(hi & 0xffffu) << 8) | (code_of(lo >> 16) << 16) |
           (code_of(hi >> 16) << 24);
}

void main()
{
    int r = radius(), e = int(gl_GlobalInvocationID.x);
    int qx = MODE == 0 ? e : PASS == 0 ? e + 1 : e == 0 ? 0 : right_edge() + e - 1;
    int y0 = int(gl_GlobalInvocationID.y) * (MODE == 0 ? 1 : PACKED_STRIP);
    if (qx >= (MODE != 0 && PASS == 0 ? right_edge() : pitch()) || y0 >= P.size.w) return;
    uvec4 ring[2 * R_MAX + 1][4]; // the last 2 R_MAX + 1 rows' results, the newest last
    [[unroll]] for (int m = 0; m <= 2 * R_MAX; m++) ring[m][0] = ring[m][1] = ring[m][2] = ring[m][3] = uvec4(0u);
    int rows = MODE == 0 ? 1 : PACKED_STRIP + 2 * r;
    for (int j = 0; j < rows; j++) { // input row y0 - r + j
        int y = y0 + j - 2 * r;      // the output row whose window ends there
        uvec4 c;
        if (MODE == 0) {
            c = B.q[y * pitch() + qx];
        } else {
            [[unroll]] for (int m = 0; m < 2 * R_MAX; m++) ring[m] = ring[m + 1];
            row_of(4 * qx, y0 - r + j, ring[2 * R_MAX]);
            if (j < 2 * r) continue;
            uvec4 v[4];
            [[unroll]] for (int i = 0; i <= 2 * R_MAX; i++) {
                int k = i - 2 * R_MAX + r; // the row's offset from the output's
                if (k < -r) continue;
                [[unroll]] for (int ch = 0; ch < 4; ch++) {
                    if (sums() && ch < 2) v[ch] = (k == -r ? uvec4(0u) : v[ch]) + weight(k) * ring[i][ch];
                    else if (!sums()) v[ch] = k == -r ? ring[i][ch] : take(v[ch], ring[i][ch]);
                }
            }
            c = sums() ? codes_of(v[0], v[1]) : v[0] | (v[1] << 8) | (v[2] << 16) | (v[3] << 24);
        }
        if (y >= P.size.w) break;
        B.q[P.counts.w + y * pitch() + qx] = program(c);
    }
}
