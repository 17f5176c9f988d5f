// ampvk built-in filters: what every filter pass shares (src/filter/pass.c fills
// the parameter block; its layout is filter_params there). A pass reads the source
// with texelFetch (any float/unorm format), computes a raw result in the source's
// components, runs the fused pointwise program on it and stores it into the
// destination, a storage image written without a format.
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_GOOGLE_include_directive : require
#include "ampvk/texture.glsl"

// The flags, modes, op and border codes and sizes that src/filter shares (RUN: outputs an
// invocation of a walk; POINT_ROWS: texels an invocation of pointwise.comp).
#include "filter_shared.h"

// The pass's structure, fixed when its pipeline is made (specialization constants,
// src/filter/filter_internal.h's amp__filter_spec): the compiler folds away what a
// pass does not use.
layout(constant_id = 0) const int SRC_N = 4;     // source components
layout(constant_id = 1) const int DST_N = 4;     // destination components
layout(constant_id = 2) const int NOPS = 0;      // pointwise ops
layout(constant_id = 3) const int OP0 = 0;       // op | components after it << 8
layout(constant_id = 4) const int OP1 = 0;
layout(constant_id = 5) const int OP2 = 0;
layout(constant_id = 6) const int OP3 = 0;
layout(constant_id = 7) const int OP4 = 0;
layout(constant_id = 8) const int OP5 = 0;
layout(constant_id = 9) const int OP6 = 0;
layout(constant_id = 10) const int OP7 = 0;
layout(constant_id = 11) const int OP8 = 0;
layout(constant_id = 12) const int OP9 = 0;
layout(constant_id = 13) const int OP10 = 0;
layout(constant_id = 14) const int OP11 = 0;
layout(constant_id = 15) const int OP12 = 0;
layout(constant_id = 16) const int OP13 = 0;
layout(constant_id = 17) const int OP14 = 0;
layout(constant_id = 18) const int OP15 = 0;
layout(constant_id = 19) const int FLAGS = 0;
layout(constant_id = 20) const int MODE = 0;     // the filter's mode
layout(constant_id = 21) const int PASS = 0;     // the pass of a filter of several
layout(constant_id = 22) const int BORDER = 1;
layout(constant_id = 23) const int RADIUS = 1;
layout(constant_id = 24) const float SRC_LEVELS = 0.0; // codes of a unorm source (0: float)
layout(constant_id = 25) const float MID_LEVELS = 0.0; // intermediate: codes, 0 float32, -1 float16
layout(constant_id = 26) const float DST_LEVELS = 0.0;

// The pass's numbers (src/filter/filter_internal.h's amp__filter_params).
layout(set = 0, binding = 0, std140) uniform Params {
    ivec4 size;         // source width, height; destination width, height
    vec4 border_value;
    vec4 f;             // the filter's numbers
    ivec4 counts;       // conv_subgroup.comp: the rows of a strip (x); integer sums: T, ceil(2^32 / 2T) (y, z)
    vec4 pw_arg[3 * MAX_POINTWISE]; // 3 per pointwise op
    vec4 weights[16];   // conv: w[0..radius] for radius < 64 (else in the scratch buffer)
} P;
layout(set = 0, binding = 1) uniform texture2D src;
layout(set = 0, binding = 2) writeonly uniform image2D dst;
layout(set = 0, binding = 4) uniform texture2D orig;

// Integers below 2^23 as floats through the mantissa of 2^23 (whose steps are 1): an OR and a
// subtraction, not an int-float conversion, which GPUs run at a quarter of the rate of
// other arithmetic.
vec4 exact_float(uvec4 n) { return uintBitsToFloat(n | 0x4B000000u) - 8388608.0; }

// a mod m in [0, m) for any a (GLSL leaves % of a negative operand undefined), through a
// float quotient, one step off at most for |a| and m below 2^24 (a GPU's division is
// within 3 ulp), set right after: lavapipe divides integers a lane at a time, and
// border_at's selects run it wherever any lane of a vector is outside (every row of
// packed.comp's walk took eight scalar divisions).
int pmod(int a, int m)
{
    int r = a - int(floor(float(a) / float(m))) * m;
    return r < 0 ? r + m : r >= m ? r - m : r;
}

// The 3 x 3 median's walk (median.comp's walk3, conv_subgroup.comp's median_rows) for a type T
// of what it orders: a row's three values sorted (3 exchanges), once for the three windows
// it is in; and a step's two outputs from four sorted rows a, b, c, d (the windows a-c and
// b-d), each the median of its rows' largest low, middle middle and smallest high, sharing
// b's and c's larger low, smaller high and sorted middles (16 min or max an output).
#define AMP_MEDIAN3_STEPS(T)                                                                 \
void sort3(T a, T b, T d, out T lo, out T mid, out T hi)                                     \
{                                                                                            \
    T t = min(a, b);                                                                         \
    b = max(a, b);                                                                           \
    hi = max(b, d);                                                                          \
    b = min(b, d);                                                                           \
    lo = min(t, b);                                                                          \
    mid = max(t, b);                                                                         \
}                                                                                            \
T median3(T a, T b, T c) { return max(min(a, b), min(max(a, b), c)); }                       \
void median3_pair(T la, T ma, T ha, T lb, T mb, T hb, T lc, T mc, T hc, T ld, T md, T hd,   \
                  out T first, out T second)                                                 \
{                                                                                            \
    T l = max(lb, lc), h = min(hb, hc), mlo = min(mb, mc), mhi = max(mb, mc);                \
    first = median3(max(la, l), max(mlo, min(mhi, ma)), min(ha, h));                         \
    second = median3(max(l, ld), max(mlo, min(mhi, md)), min(h, hd));                        \
}

int border_at(int i, int n, int mode)
{
    if (uint(i) < uint(n)) return i;
    if (mode == BORDER_REPLICATE) return clamp(i, 0, n - 1);
    // FLAG_NEAR: every index a window reaches for a result lies within one reflection of
    // the image, found without pmod's division (faster on lavapipe's packed.comp); the
    // clamp keeps the indices of windows of no result (of invocations
    // past the image's side) inside it
    if ((FLAGS & FLAG_NEAR) != 0 && mode != BORDER_CONSTANT) {
        int j = mode == BORDER_WRAP      ? (i < 0 ? i + n : i - n)
                : mode == BORDER_REFLECT ? (i < 0 ? -1 - i : 2 * n - 1 - i)
                                         : (i < 0 ? -i : 2 * n - 2 - i);
        return clamp(j, 0, n - 1);
    }
    if (mode == BORDER_WRAP) return pmod(i, n);
    if (mode == BORDER_REFLECT) {
        int p = 2 * n;
        i = pmod(i, p);
        return i < n ? i : p - 1 - i;
    }
    if (mode == BORDER_REFLECT_101) {
        if (n == 1) return 0;
        int p = 2 * n - 2;
        i = pmod(i, p);
        return i < n ? i : p - i;
    }
    return -1;
}

// The source at column x and row y as border_at gives them (-1: the constant border).
vec4 texel_at(int x, int y) { return x < 0 || y < 0 ? P.border_value : texelFetch(src, ivec2(x, y), 0); }

// The source texel at p, through the border outside the image.
vec4 fetch(ivec2 p) { return texel_at(border_at(p.x, P.size.x, BORDER), border_at(p.y, P.size.y, BORDER)); }

// True if the texels [lo, hi] are all inside the source (no border needed).
bool inside(ivec2 lo, ivec2 hi) { return all(greaterThanEqual(lo, ivec2(0))) && all(lessThan(hi, P.size.xy)); }

// Components to RGBA and back: gray is (g, g, g), a missing alpha is 1.
vec4 to_logical(vec4 t, int n)
{
    return n == 1 ? vec4(t.xxx, 1.0) : n == 2 ? vec4(t.xxx, t.y) : n == 3 ? vec4(t.xyz, 1.0) : t;
}
vec4 from_logical(vec4 c, int n)
{
    return n == 1 ? vec4(c.x, 0, 0, 0) : n == 2 ? vec4(c.x, c.w, 0, 0) : n == 3 ? vec4(c.xyz, 0) : c;
}

// A value as a texture of the intermediate type would hold it.
vec4 quantize(vec4 v, float levels)
{
    if (levels > 0.0) return floor(clamp(mix(v, vec4(0.0), isnan(v)), 0.0, 1.0) * levels + 0.5) / levels;
    if (levels < 0.0) return vec4(unpackHalf2x16(packHalf2x16(v.xy)), unpackHalf2x16(packHalf2x16(v.zw)));
    return v;
}

float srgb_to_linear(float c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
float linear_to_srgb(float c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055; }

// cv2.COLOR_RGB2GRAY: on codes of 8- and 16-bit sources in OpenCV's fixed point
// ((R 9798 + G 19235 + B 3735 + 16384) >> 15), else 0.299 R + 0.587 G + 0.114 B.
float grayscale(vec3 c, float levels)
{
    if (levels > 0.0) {
        uvec3 k = uvec3(floor(clamp(c, 0.0, 1.0) * levels + 0.5));
        return float((k.r * 9798u + k.g * 19235u + k.b * 3735u + 16384u) >> 15) / levels;
    }
    return dot(c, vec3(0.299, 0.587, 0.114));
}

// cv2.threshold on one value; on codes (t is floor(threshold * levels)) where the
// value is a unorm code.
float threshold(float v, int type, vec4 a, float levels)
{
    bool above = levels > 0.0 ? floor(v * levels + 0.5) > a.x : v > a.x;
    float t = levels > 0.0 ? a.x / levels : a.x;
    return type == 0 ? (above ? a.y : 0.0) : type == 1 ? (above ? 0.0 : a.y) : (above ? t : v);
}

vec4 pointwise(int op, vec4 c, int i)
{
    vec4 a0 = P.pw_arg[3 * i], a1 = P.pw_arg[3 * i + 1], a2 = P.pw_arg[3 * i + 2];
    float lv = MID_LEVELS;
    if (op == OP_GRAYSCALE) c.rgb = vec3(grayscale(c.rgb, lv));
    else if (op == OP_SEPIA) c.rgb = clamp(vec3(dot(a0.xyz, c.rgb), dot(a1.xyz, c.rgb), dot(a2.xyz, c.rgb)), 0.0, 1.0);
    else if (op == OP_INVERT) c.rgb = 1.0 - c.rgb;
    else if (op == OP_GAMMA) c.rgb = pow(max(c.rgb, 0.0), vec3(a0.x));
    else if (op == OP_BRIGHTNESS_CONTRAST) c.rgb = c.rgb * a0.x + a0.y;
    else if (op == OP_THRESHOLD) {
        int type = int(a0.z);
        c.rgb = vec3(threshold(c.r, type, a0, lv), threshold(c.g, type, a0, lv), threshold(c.b, type, a0, lv));
    } else if (op == OP_SRGB_TO_LINEAR) c.rgb = vec3(srgb_to_linear(c.r), srgb_to_linear(c.g), srgb_to_linear(c.b));
    else if (op == OP_LINEAR_TO_SRGB) c.rgb = vec3(linear_to_srgb(c.r), linear_to_srgb(c.g), linear_to_srgb(c.b));
    else if (op == OP_TONEMAP) {
        vec3 v = max(c.rgb * a0.x, 0.0);
        c.rgb = a0.y == 0.0 ? v / (1.0 + v) : clamp(v * (2.51 * v + 0.03) / (v * (2.43 * v + 0.59) + 0.14), 0.0, 1.0);
    }
    return c;
}

// Op i of the pointwise program (word: op | components after it << 8), its result
// held as the intermediate texture it stands for unless it is the last.
vec4 program_step(vec4 c, int i, int word)
{
    if (i >= NOPS) return c;
    c = pointwise(word & 255, c, i);
    int n = word >> 8;
    return i + 1 < NOPS ? to_logical(quantize(from_logical(c, n), MID_LEVELS), n) : c;
}

// A raw result (in the source's components) as the destination takes it: the pointwise
// program, then the destination's components, rounded to its codes. exact: the raw
// result is a code of the destination's already (raw * DST_LEVELS an integer but for a
// float's rounding: a texel of a source of the same codes, or a code the pass rounded
// to), so where no pointwise op follows it only goes a quarter step up, where
// amp_quantize_unorm leaves a code, not through the rounding (a visible share of a
// small filter's time on a GPU).
vec4 finished(vec4 raw, bool exact)
{
    if ((FLAGS & FLAG_QUANTIZE_RAW) != 0) raw = quantize(raw, MID_LEVELS);
    vec4 c = to_logical(raw, SRC_N);
    // one copy of the steps, a loop over the spec-constant ops (16 inlined copies made
    // every module 150 KB larger, and lavapipe's pipelines slower to make by that much)
    const int ops[MAX_POINTWISE] = int[MAX_POINTWISE](OP0, OP1, OP2, OP3, OP4, OP5, OP6, OP7, OP8, OP9, OP10, OP11, OP12, OP13, OP14, OP15);
    for (int i = 0; i < NOPS; i++) c = program_step(c, i, ops[i]);
    vec4 o = from_logical(c, DST_N);
    if (DST_LEVELS > 0.0)
        o = exact && NOPS == 0 ? min(o + 0.25 / DST_LEVELS, vec4(1.0)) : amp_quantize_unorm(o, DST_LEVELS);
    return o;
}
// Stores a raw result at p (finished's).
void store(ivec2 p, vec4 raw, bool exact) { imageStore(dst, p, finished(raw, exact)); }
void store(ivec2 p, vec4 raw) { store(p, raw, false); }

// Whether a result that is one of the source's texels (a minimum, maximum or median of
// them) is a code of the destination's (store's exact).
bool texel_exact() { return SRC_LEVELS > 0.0 && SRC_LEVELS == DST_LEVELS; }

bool outside(ivec2 p) { return p.x >= P.size.z || p.y >= P.size.w; }
