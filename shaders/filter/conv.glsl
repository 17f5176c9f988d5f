// ampvk built-in filters: what the separable filters' shaders share (conv.comp,
// conv_block.comp): the weights, one step of a sum, min or max (MODE), and the end of a
// pass (sharpen's mix with the original, then the store through the fused program).
layout(set = 0, binding = 3, std430) readonly buffer Weights { float w[]; } W;

#define TILE_R 4 // the largest radius of a one-pass filter

float weight(int k)
{
    k = abs(k);
    return RADIUS < 64 ? P.weights[k >> 2][k & 3] : W.w[k];
}
vec4 take(vec4 acc, vec4 v, int k) { return MODE == 0 ? acc + weight(k) * v : MODE == 1 ? min(acc, v) : max(acc, v); }
// (a scalar select: a select of constant vectors on a specialization constant
// becomes a spec-constant op that some drivers evaluate wrongly)
vec4 start() { return vec4(MODE == 0 ? 0.0 : MODE == 1 ? 1e38 : -1e38); }

void finish(ivec2 p, vec4 acc)
{
    vec4 c = P.f.x != 0.0 ? P.f.x * texelFetch(orig, p, 0) + P.f.y * acc : acc;
    store(p, c, MODE != 0 && texel_exact()); // erode, dilate: a texel
}

