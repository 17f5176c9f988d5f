// FLIP (Andersson et al. 2020, "FLIP: A Difference Evaluator for Alternating Images";
// HDR-FLIP, Andersson et al. 2021) of two images (src/image/flip.c), in the order of
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
//                 (S_Y, S_CX and Cz's two Gaussians S_CZ1, S_CZ2), fa, fb by the
//                 feature filters (the Gaussian F_G, its 1st and 2nd derivative F_D,
//                 F_DD): (d/dx, d2/dx2, Gaussian)
//   FLIP_COLUMNS  the columns, then each pixel's FLIP error into error (FLIP_MAX: the
//                 larger of it and what error holds, HDR-FLIP's exposures); cmax and
//                 pccmax the color difference's maximum and its knee
//
// flip.c declares FLIP_RUN, the pixels a filtering invocation makes (FLIP_GROUPS
// fours), FLIP_TAPS = 2 TAPS_R + FLIP_RUN, the taps they read, and the filters'
// weights as constant arrays: element t FLIP_GROUPS + g holds tap t's weights (tap 0
// TAPS_R before the first pixel) for the pixels 4 g .. 4 g + 3. Borders clamp to the
// edge pixel, as the reference does.

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
// FLIP_RUN pixels of a row an invocation, each tap loaded once: the sums of four
// pixels in a vec4 (FLIP_GROUPS of them), the taps' weights for them in the constants
// S_* and F_* (zero where a tap is outside a pixel's filter)
void kernel(index_2 idx)
{
    int row = idx[0] * width, col0 = idx[1] * FLIP_RUN;
    vec4 ay[FLIP_GROUPS], acx[FLIP_GROUPS], acz1[FLIP_GROUPS], acz2[FLIP_GROUPS];
    vec4 by[FLIP_GROUPS], bcx[FLIP_GROUPS], bcz1[FLIP_GROUPS], bcz2[FLIP_GROUPS];
    vec4 adx[FLIP_GROUPS], addx[FLIP_GROUPS], ag[FLIP_GROUPS], bdx[FLIP_GROUPS], bddx[FLIP_GROUPS], bg[FLIP_GROUPS];
    for (int g = 0; g < FLIP_GROUPS; g++) {
        ay[g] = acx[g] = acz1[g] = acz2[g] = by[g] = bcx[g] = bcz1[g] = bcz2[g] = vec4(0.0);
        adx[g] = addx[g] = ag[g] = bdx[g] = bddx[g] = bg[g] = vec4(0.0);
    }
    for (int t = 0; t < FLIP_TAPS; t++) {
        int i = row + min(max(0, col0 + t - TAPS_R), width - 1);
        vec4 p = ya(i), q = yb(i);
        for (int g = 0; g < FLIP_GROUPS; g++) {
            int w = t * FLIP_GROUPS + g;
            ay[g] += p.x * S_Y[w], acx[g] += p.y * S_CX[w], acz1[g] += p.z * S_CZ1[w], acz2[g] += p.z * S_CZ2[w];
            by[g] += q.x * S_Y[w], bcx[g] += q.y * S_CX[w], bcz1[g] += q.z * S_CZ1[w], bcz2[g] += q.z * S_CZ2[w];
            adx[g] += p.w * F_D[w], addx[g] += p.w * F_DD[w], ag[g] += p.w * F_G[w];
            bdx[g] += q.w * F_D[w], bddx[g] += q.w * F_DD[w], bg[g] += q.w * F_G[w];
        }
    }
    for (int g = 0; g < FLIP_GROUPS; g++)
        for (int j = 0; j < 4 && col0 + 4 * g + j < width; j++) {
            int i = row + col0 + 4 * g + j;
            ca(i) = vec4(ay[g][j], acx[g][j], acz1[g][j], acz2[g][j]);
            cb(i) = vec4(by[g][j], bcx[g][j], bcz1[g][j], bcz2[g][j]);
            fa(i) = vec4(adx[g][j], addx[g][j], ag[g][j], 0.0);
            fb(i) = vec4(bdx[g][j], bddx[g][j], bg[g][j], 0.0);
        }
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

// FLIP_RUN pixels of a column an invocation, as the rows
void kernel(index_2 idx)
{
    int row0 = idx[0] * FLIP_RUN, col = idx[1];
    vec4 ay[FLIP_GROUPS], acx[FLIP_GROUPS], acz1[FLIP_GROUPS], acz2[FLIP_GROUPS];
    vec4 by[FLIP_GROUPS], bcx[FLIP_GROUPS], bcz1[FLIP_GROUPS], bcz2[FLIP_GROUPS];
    vec4 adx[FLIP_GROUPS], addx[FLIP_GROUPS], ady[FLIP_GROUPS], addy[FLIP_GROUPS];
    vec4 bdx[FLIP_GROUPS], bddx[FLIP_GROUPS], bdy[FLIP_GROUPS], bddy[FLIP_GROUPS];
    for (int g = 0; g < FLIP_GROUPS; g++) {
        ay[g] = acx[g] = acz1[g] = acz2[g] = by[g] = bcx[g] = bcz1[g] = bcz2[g] = vec4(0.0);
        adx[g] = addx[g] = ady[g] = addy[g] = bdx[g] = bddx[g] = bdy[g] = bddy[g] = vec4(0.0);
    }
    for (int t = 0; t < FLIP_TAPS; t++) {
        int i = min(max(0, row0 + t - TAPS_R), height - 1) * width + col;
        vec4 p = ca(i), q = cb(i);
        vec3 u = fa(i).xyz, v = fb(i).xyz;
        for (int g = 0; g < FLIP_GROUPS; g++) {
            int w = t * FLIP_GROUPS + g;
            ay[g] += p.x * S_Y[w], acx[g] += p.y * S_CX[w], acz1[g] += p.z * S_CZ1[w], acz2[g] += p.w * S_CZ2[w];
            by[g] += q.x * S_Y[w], bcx[g] += q.y * S_CX[w], bcz1[g] += q.z * S_CZ1[w], bcz2[g] += q.w * S_CZ2[w];
            adx[g] += u.x * F_G[w], addx[g] += u.y * F_G[w], ady[g] += u.z * F_D[w], addy[g] += u.z * F_DD[w];
            bdx[g] += v.x * F_G[w], bddx[g] += v.y * F_G[w], bdy[g] += v.z * F_D[w], bddy[g] += v.z * F_DD[w];
        }
    }
    for (int g = 0; g < FLIP_GROUPS; g++)
        for (int j = 0; j < 4 && row0 + 4 * g + j < height; j++) {
            vec3 la = hunt_lab(vec4(ay[g][j], acx[g][j], acz1[g][j], acz2[g][j]));
            vec3 lb = hunt_lab(vec4(by[g][j], bcx[g][j], bcz1[g][j], bcz2[g][j]));
            float hyab = abs(la.x - lb.x) + sqrt((la.y - lb.y) * (la.y - lb.y) + (la.z - lb.z) * (la.z - lb.z));
            float color = pow(hyab, 0.7);
            color = color < pccmax ? color * (0.95 / pccmax)
                                   : 0.95 + ((color - pccmax) / (cmax - pccmax)) * (1.0 - 0.95);
            // edges (1st derivatives) and points (2nd) of the grays
            float edges = abs(sqrt(adx[g][j] * adx[g][j] + ady[g][j] * ady[g][j]) -
                              sqrt(bdx[g][j] * bdx[g][j] + bdy[g][j] * bdy[g][j]));
            float points = abs(sqrt(addx[g][j] * addx[g][j] + addy[g][j] * addy[g][j]) -
                               sqrt(bddx[g][j] * bddx[g][j] + bddy[g][j] * bddy[g][j]));
            float features = pow((1.0 / sqrt(2.0)) * max(edges, points), 0.5);
            float e = 1.0 - features;
            // pow(0, 0) is 1 in C and undefined in GLSL
            float flip = color == 0.0 ? (e == 0.0 ? 1.0 : 0.0) : pow(color, e);
            int i0 = (row0 + 4 * g + j) * width + col;
#ifdef FLIP_MAX
            flip = max(flip, error(i0));
#endif
            error(i0) = flip;
        }
}
#endif
