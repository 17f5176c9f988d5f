// ampvk built-in filters: what the separable filters' shaders share (conv.comp,
// conv_block.comp, conv_subgroup.comp): the weights, one step of a sum, min or max
// (MODE), integer sums, and the end of a pass (sharpen's mix with the original, then the
// store through the fused program).
layout(set = 0, binding = 3, std430) readonly buffer Weights { float w[]; } W;

#define TILE_R 4 // the largest radius of a one-pass filter

float weight(int k)
{
    k = abs(k);
    return RADIUS < 64 ? P.weights[k >> 2][k & 3] : W.w[k];
}
vec4 take(vec4 acc, vec4 v, int k) { return MODE == CONV_MODE_SUM ? acc + weight(k) * v : MODE == CONV_MODE_ERODE ? min(acc, v) : max(acc, v); }
// (a scalar select: a select of constant vectors on a specialization constant
// becomes a spec-constant op that some drivers evaluate wrongly)
vec4 start() { return vec4(MODE == CONV_MODE_SUM ? 0.0 : MODE == CONV_MODE_ERODE ? 1e38 : -1e38); }

// Integer sums (FLAG_INTEGER: 8 bits into 8 bits with weights W_k / S, W_k integers,
// chain.c's integer_sum): the texels enter as their codes and the weights are the
// W_k, so the sums are integers, exact in floats (at most 255 S^2 < 2^16), and the
// result is the nearest code to the sum n / T (T = S^2), halves up, as OpenCV's 8-bit
// filters round: floor((2n + T) / 2T), the high word of (2n + T) * ceil(2^32 / 2T)
// (P.counts.y, .z), exact while 2n + T < 2^32 / 2T (here at most 511 T), as a float.
// (Rounded in floats through the mantissa instead, (x + 1.5 * 2^23) - 1.5 * 2^23,
// NVIDIA's compiler folded the pair away, "precise" or not.)
bool integer_sums() { return (FLAGS & FLAG_INTEGER) != 0; }
// OpenCV's 8-bit gaussians of any other size and sigma (FLAG_FIXED; chain.c): integer
// weights W_k / 256 (its fixed-point kernels), the texels as their codes, so that every
// sum is a multiple of 2^-16 below 256, exact in a float (24 bits), however the sum is
// ordered; the result rounds as OpenCV's (n + 2^15) >> 16: floor(sum + 1/2).
bool fixed_sums() { return (FLAGS & FLAG_FIXED) != 0; }
vec4 codes(vec4 t) { return floor(t * 255.0 + 0.5); } // an 8-bit texel's codes
vec4 value(vec4 t) { return integer_sums() || fixed_sums() ? codes(t) : t; }
// A texel a pass reads: the source's value, or in a second pass the first's rows as they are.
vec4 source(vec4 t) { return PASS == 2 ? t : value(t); }
uvec4 rounded_codes(uvec4 n)
{
    uvec4 code, low;
    umulExtended(2u * n + uint(P.counts.y), uvec4(uint(P.counts.z)), code, low);
    return code;
}
vec4 rounded_code(uvec4 n) { return exact_float(rounded_codes(n)); }

// The end of a pass: sharpen's mix with the original or an integer sum's rounding, then
// the store (one site: it inlines the pointwise program), exact where the result is a
// code already (integer sums; erode and dilate: a texel).
void finish(ivec2 p, vec4 acc)
{
    vec4 c = integer_sums()  ? rounded_code(uvec4(acc)) * (1.0 / 255.0)
             : fixed_sums() ? floor(acc + 0.5) * (1.0 / 255.0)
             : P.f.x != 0.0 ? P.f.x * texelFetch(orig, p, 0) + P.f.y * acc
                            : acc;
    store(p, c, integer_sums() || fixed_sums() || (MODE != CONV_MODE_SUM && texel_exact()));
}

