#version 450
// cv2.bilateralFilter: over the disc of radius r, weights exp(-d^2 / 2 sc^2) for
// the color distance d (the sum of the color components' differences, in 1/255
// steps; whole steps for an 8-bit source) times exp(-(i^2 + j^2) / 2 ss^2).
// f.x = -0.5 / sc^2, f.y = -0.5 / ss^2.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

// The weighted sum of the disc around p, centre colour c0, into sum and wsum. inner: the
// whole disc lies inside the source, so texelFetch without the border's tests; main
// calls it with a constant, and each call is its own loop. As one loop with a per-tap
// choice, lavapipe's vector lanes ran both fetches, slower even than taking the border
// everywhere (docs/perf.md).
void disc(ivec2 p, vec4 c0, bool inner, inout vec4 sum, inout float wsum)
{
    int r = RADIUS;
    vec3 mask = vec3(1.0, float(SRC_N >= 3), float(SRC_N >= 3)); // (no vector select on a spec constant)
    bool codes = (FLAGS & FLAG_CODES) != 0;
    for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++) {
            if (i * i + j * j > r * r) continue;
            vec4 c = inner ? texelFetch(src, p + ivec2(i, j), 0) : fetch(p + ivec2(i, j));
            float d = dot(abs(c.xyz - c0.xyz) * 255.0, mask);
            if (codes) d = floor(d + 0.5);
            float w = exp(d * d * P.f.x + float(i * i + j * j) * P.f.y);
            sum += w * c;
            wsum += w;
        }
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    vec4 c0 = texelFetch(src, p, 0), sum = vec4(0.0);
    float wsum = 0.0;
    if (inside(p - RADIUS, p + RADIUS)) disc(p, c0, true, sum, wsum);
    else disc(p, c0, false, sum, wsum);
    store(p, sum / wsum);
}
