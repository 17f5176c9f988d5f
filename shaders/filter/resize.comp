#version 450
// cv2.resize: MODE the interpolation (RESIZE_MODE_LINEAR, ...). Each destination
// column's and row's taps come from the scratch buffer (chain.c's resize_pass: OpenCV's own
// source positions and weights, worked out in double precision as it does): for each column
// its first source column and counts.x weights, then from word counts.z for each row its
// first source row and counts.y weights. Taps past the edge repeat the edge texel.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 3, std430) readonly buffer Taps { float t[]; } T;

vec4 at(int x, int y) { return texelFetch(src, ivec2(clamp(x, 0, P.size.x - 1), clamp(y, 0, P.size.y - 1)), 0); }

// The taps along an axis: a constant where the interpolation fixes it (the loops unroll),
// else INTER_AREA's count (its averages take as many as a cell covers).
int taps(int count)
{
    return MODE == RESIZE_MODE_NEAREST ? 1 : MODE == RESIZE_MODE_LINEAR ? 2 : MODE == RESIZE_MODE_CUBIC ? 4
         : MODE == RESIZE_MODE_LANCZOS4 ? 8 : count;
}

// Whether this is a shrink by a whole factor k both ways that takes the means of k x k
// blocks (INTER_AREA's, and INTER_LINEAR's halving) from codes into the same codes: k is
// RADIUS, which plan.c's shrink_factor sets only for such a shrink (else 0).
bool whole_factor() { return RADIUS > 0 && texel_exact(); }

// The mean of the k x k block (k = RADIUS) of codes at p, rounded as cv2.resize rounds
// it there: halves up for 2 x 2 blocks (its own path), to even for larger ones (its float
// scale and cvRound); in floats, the taps' sum misses ties and drifts across them (4 x 4 blocks of
// noise: 979 of 32768 values off by one). packed.comp's PACKED_MODE_SHRINK rounds the same way.
vec4 block_mean(ivec2 p)
{
    const int k = RADIUS;
    uvec4 n = uvec4(0u);
    for (int y = 0; y < k; y++)
        for (int x = 0; x < k; x++) n += uvec4(floor(at(k * p.x + x, k * p.y + y) * SRC_LEVELS + 0.5));
    uint t = uint(k * k); // a constant: the division is a multiply
    uvec4 q = (n + t / 2u) / t;
    if (k != 2) q -= uvec4(equal(2u * n + t, 2u * q * t)) & q & 1u; // a tie, rounded up to odd
    return vec4(q) / SRC_LEVELS;
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    int nx = taps(P.counts.x), ny = taps(P.counts.y);
    int cx = p.x * (nx + 1), cy = P.counts.z + p.y * (ny + 1); // the column's and the row's entries
    int x0 = floatBitsToInt(T.t[cx]), y0 = floatBitsToInt(T.t[cy]);
    if (MODE == RESIZE_MODE_NEAREST) {
        store(p, texelFetch(src, ivec2(x0, y0), 0));
        return;
    }
    if (whole_factor()) {
        store(p, block_mean(p), true);
        return;
    }
    vec4 sum = vec4(0.0);
    for (int j = 0; j < ny; j++) {
        vec4 row = vec4(0.0);
        for (int i = 0; i < nx; i++) row += T.t[cx + 1 + i] * at(x0 + i, y0 + j);
        sum += T.t[cy + 1 + j] * row;
    }
    store(p, sum);
}
