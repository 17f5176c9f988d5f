#version 450
// cv2.bilateralFilter: over the disc of radius r, weights exp(-d^2 / 2 sc^2) for
// the color distance d (the sum of the color components' differences, in 1/255
// steps; whole steps for an 8-bit source) times exp(-(i^2 + j^2) / 2 ss^2).
// f.x = -0.5 / sc^2, f.y = -0.5 / ss^2.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (outside(p)) return;
    int r = RADIUS, n = SRC_N;
    vec4 c0 = texelFetch(src, p, 0);
    vec3 mask = vec3(1.0, float(n >= 3), float(n >= 3)); // (no vector select on a spec constant)
    bool codes = (FLAGS & FLAG_CODES) != 0;
    vec4 sum = vec4(0.0);
    float wsum = 0.0;
    for (int j = -r; j <= r; j++)
        for (int i = -r; i <= r; i++) {
            if (i * i + j * j > r * r) continue;
            vec4 c = fetch(p + ivec2(i, j));
            float d = dot(abs(c.xyz - c0.xyz) * 255.0, mask);
            if (codes) d = floor(d + 0.5);
            float w = exp(d * d * P.f.x + float(i * i + j * j) * P.f.y);
            sum += w * c;
            wsum += w;
        }
    store(p, sum / wsum);
}
