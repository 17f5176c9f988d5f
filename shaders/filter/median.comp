#version 450
// The per-component median of a (2r+1)^2 window (r <= 7). Keys are the codes of a
// unorm source (8 or 16 bits), else the float's bits in an order-preserving form, so
// the median is exact on every format. 3x3 and 5x5 windows (the common ones) go through
// a selection network on all components at once (median_net.glsl: 40 and 202 min/max
// operations, the window in registers; a unorm source's values need no keys); larger
// ones are found bit by bit: the largest key with at most n/2 keys below it.
#include "filter.glsl"
#include "median_net.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

uint key_of(float v)
{
    if ((FLAGS & FLAG_CODES) != 0) return uint(floor(clamp(v, 0.0, 1.0) * SRC_LEVELS + 0.5));
    uint u = floatBitsToUint(v);
    return (u & 0x80000000u) != 0u ? ~u : u | 0x80000000u;
}
float value_of(uint k)
{
    if ((FLAGS & FLAG_CODES) != 0) return float(k) / SRC_LEVELS;
    return uintBitsToFloat((k & 0x80000000u) != 0u ? k & 0x7fffffffu : ~k);
}
uvec4 keys_of(vec4 v) { return uvec4(key_of(v.x), key_of(v.y), key_of(v.z), key_of(v.w)); }

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    int r = RADIUS, side = 2 * r + 1, n = side * side;
    vec4 result = vec4(0.0);
    if (r == 1 || r == 2) { // specialization constants: one branch stays
        vec4 v[AMP_MEDIAN_WIRES];
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++) v[y * side + x] = fetch(p + ivec2(x - r, y - r));
        if ((FLAGS & FLAG_CODES) != 0) {
            // a unorm source's values are its codes over their count, ordered as the codes
            result = r == 1 ? amp_median9(v) : amp_median25(v);
        } else {
            uvec4 k[AMP_MEDIAN_WIRES];
            for (int j = 0; j < n; j++) k[j] = keys_of(v[j]);
            uvec4 m = r == 1 ? amp_median9(k) : amp_median25(k);
            for (int ch = 0; ch < SRC_N; ch++) result[ch] = value_of(m[ch]);
        }
    } else {
        int bits = (FLAGS & FLAG_CODES) != 0 ? (SRC_LEVELS > 255.0 ? 16 : 8) : 32;
        uint keys[225];
        for (int ch = 0; ch < SRC_N; ch++) {
            for (int j = 0; j < n; j++) keys[j] = key_of(fetch(p + ivec2(j % side - r, j / side - r))[ch]);
            uint m = 0u;
            for (int b = bits - 1; b >= 0; b--) {
                uint cand = m | (1u << uint(b));
                int below = 0;
                for (int j = 0; j < n; j++) below += keys[j] < cand ? 1 : 0;
                if (below <= n / 2) m = cand;
            }
            result[ch] = value_of(m);
        }
    }
    store(p, result); // one call: store inlines the whole pointwise program
}
