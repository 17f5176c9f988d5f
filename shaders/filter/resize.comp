#version 450
// cv2.resize: MODE 0 linear, 1 nearest, 2 area, 3 cubic, 4 lanczos4. f.xy: the
// scales source / destination (x, y); f.zw their inverses. Source positions as
// OpenCV computes them; taps past the edge repeat the edge texel.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

#define LINEAR 0
#define NEAREST 1
#define AREA 2
#define CUBIC 3
#define LANCZOS4 4

vec4 at(int x, int y) { return texelFetch(src, ivec2(clamp(x, 0, P.size.x - 1), clamp(y, 0, P.size.y - 1)), 0); }

// The first tap and the weights along one axis (of n = 2, 4 or 8 taps).
int taps(int mode, int d, int sn, float scale, float inv, out float w[8])
{
    for (int k = 0; k < 8; k++) w[k] = 0.0;
    float fx;
    int sx;
    if (mode == AREA) { // enlarging with INTER_AREA
        sx = int(floor(float(d) * scale));
        fx = float(d + 1) - float(sx + 1) * inv;
        fx = fx <= 0.0 ? 0.0 : fx - floor(fx);
    } else {
        fx = (float(d) + 0.5) * scale - 0.5;
        sx = int(floor(fx));
        fx -= float(sx);
    }
    if (mode == LINEAR || mode == AREA) {
        if (sx < 0) { fx = 0.0; sx = 0; }
        if (sx >= sn - 1) { fx = 0.0; sx = sn - 1; }
        w[0] = 1.0 - fx;
        w[1] = fx;
        return sx;
    }
    if (mode == CUBIC) {
        const float A = -0.75;
        w[0] = ((A * (fx + 1.0) - 5.0 * A) * (fx + 1.0) + 8.0 * A) * (fx + 1.0) - 4.0 * A;
        w[1] = ((A + 2.0) * fx - (A + 3.0)) * fx * fx + 1.0;
        w[2] = ((A + 2.0) * (1.0 - fx) - (A + 3.0)) * (1.0 - fx) * (1.0 - fx) + 1.0;
        w[3] = 1.0 - w[0] - w[1] - w[2];
        return sx - 1;
    }
    // Lanczos4 (OpenCV's interpolateLanczos4)
    if (fx < 1.1920929e-7) {
        w[3] = 1.0;
        return sx - 3;
    }
    const float PI = 3.14159265358979;
    const float s45 = 0.70710678118654752;
    const vec2 cs[8] = vec2[8](vec2(1, 0), vec2(-s45, -s45), vec2(0, 1), vec2(s45, -s45), vec2(-1, 0),
                               vec2(s45, s45), vec2(0, -1), vec2(-s45, s45));
    float y0 = -(fx + 3.0) * PI * 0.25, s0 = sin(y0), c0 = cos(y0), sum = 0.0;
    for (int k = 0; k < 8; k++) {
        float y = -(fx + 3.0 - float(k)) * PI * 0.25;
        w[k] = (cs[k].x * s0 + cs[k].y * c0) / (y * y);
        sum += w[k];
    }
    for (int k = 0; k < 8; k++) w[k] /= sum;
    return sx - 3;
}

// INTER_AREA shrinking: each source texel weighted by its overlap with the
// destination texel's footprint.
vec4 area(ivec2 p)
{
    vec2 lo = vec2(p) * P.f.xy, hi = min(lo + P.f.xy, vec2(P.size.xy));
    vec2 cell = hi - lo;
    vec4 sum = vec4(0.0);
    for (int y = int(floor(lo.y)); float(y) < hi.y; y++) {
        float wy = min(hi.y, float(y + 1)) - max(lo.y, float(y));
        for (int x = int(floor(lo.x)); float(x) < hi.x; x++) {
            float wx = min(hi.x, float(x + 1)) - max(lo.x, float(x));
            sum += (wx * wy) * at(x, y);
        }
    }
    return sum / (cell.x * cell.y);
}

// Whether this is a shrink by a whole factor k both ways that takes the means of k x k
// blocks (INTER_AREA's, and INTER_LINEAR's halving) from codes into the same codes: k is
// RADIUS, which chain.c's shrink_factor sets only for such a shrink (else 0).
bool whole_factor() { return RADIUS > 0 && texel_exact(); }

// The mean of the k x k block (k = RADIUS) of codes at p, rounded as cv2.resize rounds
// it there: halves up for 2 x 2 blocks (its own path), to even for larger ones (its float
// scale and cvRound); in floats, area() misses ties and drifts across them (4 x 4 blocks of
// noise: 979 of 32768 values off by one). packed.comp's MODE 8 rounds the same way.
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
    int mode = MODE;
    if (mode == NEAREST) {
        ivec2 s = min(ivec2((uvec2(p) * uvec2(P.size.xy)) / uvec2(P.size.zw)), P.size.xy - 1);
        store(p, texelFetch(src, s, 0));
        return;
    }
    if (whole_factor()) {
        store(p, block_mean(p), true);
        return;
    }
    if (mode == AREA && P.f.x >= 1.0 && P.f.y >= 1.0) {
        store(p, area(p));
        return;
    }
    float wx[8], wy[8];
    int x0 = taps(mode, p.x, P.size.x, P.f.x, P.f.z, wx);
    int y0 = taps(mode, p.y, P.size.y, P.f.y, P.f.w, wy);
    int n = mode == LINEAR || mode == AREA ? 2 : mode == CUBIC ? 4 : 8;
    vec4 sum = vec4(0.0);
    for (int j = 0; j < n; j++) {
        vec4 row = vec4(0.0);
        for (int i = 0; i < n; i++) row += wx[i] * at(x0 + i, y0 + j);
        sum += wy[j] * row;
    }
    store(p, sum);
}
