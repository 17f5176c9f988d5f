// The filter demo's kernels: one source, one filter per FILTER value (see
// filters.h). Parameters: array_view<const uint, 2> src, array_view<uint, 2> dst,
// one packed RGBA8 pixel per uint (R in the low byte, as unpackUnorm4x8 reads it).
//
// All arithmetic after unpacking is on integers, so the host reference in
// tests/test_filter_demo.c computes the same bytes exactly. unpackUnorm4x8 gives
// c / 255.0; times 255.0 and rounded, that is c again (the error is far below 0.5).

#define FILTER_INVERT 0
#define FILTER_GRAYSCALE 1
#define FILTER_GAUSSIAN 2
#define FILTER_SOBEL 3

// The pixel at p with p clamped into the image (borders repeat the edge pixel).
uvec4 pixel_at(ivec2 p)
{
    p = clamp(p, ivec2(0), src_extent - 1);
    return uvec4(round(unpackUnorm4x8(src(p)) * 255.0));
}

uint pack_rgba(uvec4 c) { return packUnorm4x8(vec4(min(c, uvec4(255))) / 255.0); }

// BT.601 luma with weights 77 + 150 + 29 = 256, rounded.
uint luma(uvec4 c) { return (77u * c.r + 150u * c.g + 29u * c.b + 128u) >> 8; }

void kernel(index_2 idx)
{
    uvec4 c = pixel_at(idx);
#if FILTER == FILTER_INVERT
    // In unorm floats: (1 - c/255) * 255 rounds back to exactly 255 - c.
    vec4 f = unpackUnorm4x8(src(idx));
    dst(idx) = packUnorm4x8(vec4(1.0 - f.rgb, f.a));
#elif FILTER == FILTER_GRAYSCALE
    uint y = luma(c);
    dst(idx) = pack_rgba(uvec4(y, y, y, c.a));
#elif FILTER == FILTER_GAUSSIAN
    // 5x5 binomial kernel (1 4 6 4 1) x (1 4 6 4 1) / 256, every channel.
    const uint w[5] = uint[5](1u, 4u, 6u, 4u, 1u);
    uvec4 sum = uvec4(0);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            sum += w[dy + 2] * w[dx + 2] * pixel_at(idx + ivec2(dy, dx));
    dst(idx) = pack_rgba((sum + 128u) >> 8);
#elif FILTER == FILTER_SOBEL
    // Gradient magnitude of the luma, clamped to 255; alpha is kept.
    int l[9];
    for (int k = 0; k < 9; k++)
        l[k] = int(luma(pixel_at(idx + ivec2(k / 3 - 1, k % 3 - 1))));
    int gx = (l[2] + 2 * l[5] + l[8]) - (l[0] + 2 * l[3] + l[6]);
    int gy = (l[6] + 2 * l[7] + l[8]) - (l[0] + 2 * l[1] + l[2]);
    uint m = uint(floor(sqrt(float(gx * gx + gy * gy)) + 0.5));
    dst(idx) = pack_rgba(uvec4(m, m, m, c.a));
#else
#error unknown FILTER
#endif
}
