#version 450
// ampvk-postfx's "app" pass: the application's own blur and tone map, the baseline
// that ampvk's filters are measured against. Pass 0 blurs the scene horizontally into
// tmp; pass 1 blurs tmp vertically, tone-maps (Reinhard, then the sRGB curve) and
// writes the 8-bit output. Gaussian weights exp(-x^2 / 2 sigma^2), normalized, over
// [-radius, radius] (radius up to 512), computed once per work group into shared
// memory; borders reflect-101 (gfedcb|abcdefgh|gfedcba), as OpenCV's.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, rgba16f) uniform readonly image2D scene;
layout(binding = 1, rgba16f) uniform image2D tmp;
layout(binding = 2, rgba8) uniform writeonly image2D dst;
layout(push_constant) uniform Params {
    int pass;
    int radius;
    float sigma;
} p;

int reflect101(int i, int n)
{
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
    return i;
}

float srgb(float v) { return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055; }

shared float weights[513];

void main()
{
    for (int k = int(gl_LocalInvocationIndex); k <= p.radius; k += 256)
        weights[k] = exp(-float(k * k) / (2.0 * p.sigma * p.sigma));
    barrier();
    ivec2 size = imageSize(tmp);
    ivec2 at = ivec2(gl_GlobalInvocationID.xy);
    if (at.x >= size.x || at.y >= size.y) return;
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int k = -p.radius; k <= p.radius; k++) {
        float w = weights[abs(k)];
        total += w;
        if (p.pass == 0) sum += w * imageLoad(scene, ivec2(reflect101(at.x + k, size.x), at.y));
        else sum += w * imageLoad(tmp, ivec2(at.x, reflect101(at.y + k, size.y)));
    }
    vec4 c = sum / total;
    if (p.pass == 0) {
        imageStore(tmp, at, c);
    } else {
        vec3 m = c.rgb / (1.0 + c.rgb);
        imageStore(dst, at, vec4(srgb(m.r), srgb(m.g), srgb(m.b), 1.0));
    }
}
