// FLIP (Andersson et al. 2020, "FLIP: A Difference Evaluator for Alternating Images";
// HDR-FLIP, Andersson et al. 2021) of two images (src/image/compare.c), in the order of
// operations of NVIDIA's reference (FLIP.h 1.6), in floats as it computes: the images
// in YCxCz, filtered by the eye's contrast sensitivity and compared in Hunt-adjusted
// L*a*b* (HyAB), their edges and points compared, the two combined per pixel. Three
// passes, each over both images, rank 2 over (row, column):
//
//   FLIP_PREPARE  a, b the images: RGBA8 words (FLIP_RGBA8, sRGB decoded by lut's 256
//                 entries; options FLIP_OPTION_WHITE blends translucent pixels on
//                 white) or linear RGB float_4s, times `scale` (2^exposure) and through
//                 the tone mapper FLIP_TONE_MAP (0 none, 1 ACES, 2 Hable, 3 Reinhard),
//                 clamped to 0..1; ya, yb their YCxCz, w the feature pipeline's gray
//   FLIP_ROWS     the rows of ya and yb filtered: ca, cb by the spatial filters
//                 (spatial: Y, Cx, the two Gaussians of Cz; radius spatial_r), fa, fb
//                 by the feature filters (feature: Gaussian, its 1st and 2nd
//                 derivative; radius feature_r): (d/dx, d2/dx2, Gaussian)
//   FLIP_COLUMNS  the columns, then each pixel's FLIP error into error (FLIP_MAX: the
//                 larger of it and what error holds, HDR-FLIP's exposures); cmax and
//                 pccmax the color difference's maximum and its knee
//
// Borders clamp to the edge pixel, as the reference does.

#define FLIP_OPTION_WHITE 2u

vec3 linear_rgb_to_xyz(vec3 c)
{
    return vec3((10135552.0 / 24577794.0) * c.r + (8788810.0 / 24577794.0) * c.g + (4435075.0 / 24577794.0) * c.b,
                (2613072.0 / 12288897.0) * c.r + (8788810.0 / 12288897.0) * c.g + (887015.0 / 12288897.0) * c.b,
                (1425312.0 / 73733382.0) * c.r + (8788810.0 / 73733382.0) * c.g + (70074185.0 / 73733382.0) * c.b);
}

vec3 xyz_to_linear_rgb(vec3 c)
{
    return vec3(3.241003275 * c.x + -1.537398934 * c.y + -0.498615861 * c.z,
                -0.969224334 * c.x + 1.875930071 * c.y + 0.041554224 * c.z,
                0.055639423 * c.x + -0.204011202 * c.y + 1.057148933 * c.z);
}

// D65's white and its inverse, the reference's rounding
const vec3 FLIP_WHITE = vec3(0.950428545, 1.000000000, 1.088900371);
const vec3 FLIP_INV_WHITE = vec3(1.052156925, 1.000000000, 0.918357670);

#ifdef FLIP_PREPARE
vec3 tone_mapped(vec3 c)
{
#if FLIP_TONE_MAP == 3
    float luminance = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
    return c * (1.0 / (1.0 + luminance));
#elif FLIP_TONE_MAP != 0
    return ((c * c) * TM0 + c * TM1 + TM2) / (c * c * TM3 + c * TM4 + TM5);
#else
    return c;
#endif
}

#ifdef FLIP_RGBA8
vec3 decoded(uint w)
{
    uvec4 p = uvec4(w & 255u, (w >> 8) & 255u, (w >> 16) & 255u, w >> 24);
    if ((options & FLIP_OPTION_WHITE) != 0u && p.a != 255u) {
        // blended on white in the encoded values, then decoded
        vec3 s = vec3(p.rgb) / 255.0, alpha = vec3(float(p.a) / 255.0);
        s = 1.0 + (s - 1.0) * alpha;
        return mix(s / 12.92, pow((s + 0.055) / 1.055, vec3(2.4)), greaterThan(s, vec3(0.04045)));
    }
    return vec3(lut(int(p.r)), lut(int(p.g)), lut(int(p.b)));
}
#endif

vec4 ycxcz(vec3 linear)
{
    vec3 c = clamp(tone_mapped(linear * scale), 0.0, 1.0);
    vec3 xyz = linear_rgb_to_xyz(c) * FLIP_INV_WHITE;
    float y = 116.0 * xyz.y - 16.0;
    return vec4(y, 500.0 * (xyz.x - xyz.y), 200.0 * (xyz.y - xyz.z), y * (1.0 / 116.0) + (16.0 / 116.0));
}

void kernel(index_2 idx)
{
    int i = idx[0] * width + idx[1];
#ifdef FLIP_RGBA8
    ya(i) = ycxcz(decoded(a(i)));
    yb(i) = ycxcz(decoded(b(i)));
#else
    ya(i) = ycxcz(a(i).rgb);
    yb(i) = ycxcz(b(i).rgb);
#endif
}
#endif

#ifdef FLIP_ROWS
void kernel(index_2 idx)
{
    int row = idx[0] * width, col = idx[1];
    vec4 sa = vec4(0.0), sb = vec4(0.0);
    for (int k = -spatial_r; k <= spatial_r; k++) {
        int i = row + min(max(0, col + k), width - 1);
        vec4 w = spatial(k + spatial_r), p = ya(i), q = yb(i);
        sa += vec4(w.x * p.x, w.y * p.y, w.z * p.z, w.w * p.z);
        sb += vec4(w.x * q.x, w.y * q.y, w.z * q.z, w.w * q.z);
    }
    ca(row + col) = sa;
    cb(row + col) = sb;
    vec3 ta = vec3(0.0), tb = vec3(0.0);
    for (int k = -feature_r; k <= feature_r; k++) {
        int i = row + min(max(0, col + k), width - 1);
        vec3 w = feature(k + feature_r).xyz;
        float p = ya(i).w, q = yb(i).w;
        ta += vec3(w.y * p, w.z * p, w.x * p);
        tb += vec3(w.y * q, w.z * q, w.x * q);
    }
    fa(row + col) = vec4(ta, 0.0);
    fb(row + col) = vec4(tb, 0.0);
}
#endif

#ifdef FLIP_COLUMNS
// the filtered YCxCz back to linear RGB, clamped, to L*a*b* with Hunt's adjustment
vec3 hunt_lab(vec4 s)
{
    vec3 ycxcz = vec3(s.x, s.y, s.z + s.w);
    float y = (ycxcz.x + 16.0) / 116.0;
    vec3 xyz = vec3(y + ycxcz.y / 500.0, y, y - ycxcz.z / 200.0) * FLIP_WHITE;
    vec3 c = linear_rgb_to_xyz(clamp(xyz_to_linear_rgb(xyz), 0.0, 1.0)) * FLIP_INV_WHITE;
    const float delta = 6.0 / 29.0;
    const float cube = delta * (delta * delta), factor = 1.0 / (3.0 * (delta * delta)), term = 4.0 / 29.0;
    vec3 f = mix(factor * c + term, pow(c, vec3(1.0 / 3.0)), greaterThan(c, vec3(cube)));
    float l = 116.0 * f.y - 16.0;
    return vec3(l, 0.01 * l * (500.0 * (f.x - f.y)), 0.01 * l * (200.0 * (f.y - f.z)));
}

void kernel(index_2 idx)
{
    int row = idx[0], col = idx[1], i0 = row * width + col;
    vec4 sa = vec4(0.0), sb = vec4(0.0);
    for (int k = -spatial_r; k <= spatial_r; k++) {
        int i = min(max(0, row + k), height - 1) * width + col;
        vec4 w = spatial(k + spatial_r), p = ca(i), q = cb(i);
        sa += vec4(w.x * p.x, w.y * p.y, w.z * p.z, w.w * p.w);
        sb += vec4(w.x * q.x, w.y * q.y, w.z * q.z, w.w * q.w);
    }
    vec3 la = hunt_lab(sa), lb = hunt_lab(sb);
    float hyab = abs(la.x - lb.x) + sqrt((la.y - lb.y) * (la.y - lb.y) + (la.z - lb.z) * (la.z - lb.z));
    float color = pow(hyab, 0.7);
    color = color < pccmax ? color * (0.95 / pccmax) : 0.95 + ((color - pccmax) / (cmax - pccmax)) * (1.0 - 0.95);

    // edges (1st derivatives) and points (2nd) of the grays: x in fa's rows, y here
    vec4 da = vec4(0.0), db = vec4(0.0); // dx, ddx, dy, ddy
    for (int k = -feature_r; k <= feature_r; k++) {
        int i = min(max(0, row + k), height - 1) * width + col;
        vec3 w = feature(k + feature_r).xyz, p = fa(i).xyz, q = fb(i).xyz;
        da += vec4(w.x * p.x, w.x * p.y, w.y * p.z, w.z * p.z);
        db += vec4(w.x * q.x, w.x * q.y, w.y * q.z, w.z * q.z);
    }
    float edges = abs(sqrt(da.x * da.x + da.z * da.z) - sqrt(db.x * db.x + db.z * db.z));
    float points = abs(sqrt(da.y * da.y + da.w * da.w) - sqrt(db.y * db.y + db.w * db.w));
    float features = pow((1.0 / sqrt(2.0)) * max(edges, points), 0.5);
    float e = 1.0 - features;
    // pow(0, 0) is 1 in C and undefined in GLSL
    float flip = color == 0.0 ? (e == 0.0 ? 1.0 : 0.0) : pow(color, e);
#ifdef FLIP_MAX
    flip = max(flip, error(i0));
#endif
    error(i0) = flip;
}
#endif
