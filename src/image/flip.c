/* The FLIP metric of amp_image_compare* (ampvk/image.h): NVIDIA's FLIP 1.6 (LDR and
 * HDR) on an accelerator (shaders/image/flip.glsl), its filters, exposures and pooled
 * values worked out on the host as the reference does, in floats. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ampvk/accelerator.h"
#include "ampvk/array.h"
#include "ampvk/image.h"
#include "ampvk/kernel.h"
#include "image/image_internal.h"

/* The reference's constants: Gaussians of the contrast sensitivity functions (Y, Cx,
 * Cz's two), the color difference's exponent, knee and its share, the feature
 * filter's width in degrees and the feature difference's exponent. */
static const float A1[3] = {1.0f, 1.0f, 34.1f}, B1[3] = {0.0047f, 0.0053f, 0.04f}, A2_Z = 13.5f, B2_Z = 0.025f;
static const float QC = 0.7f, PC = 0.4f, GW = 0.082f;
static const float PI_F = 3.14159265358979f;

/* Tone mappers' coefficients (x^2 c0 + x c1 + c2) / (x^2 c3 + x c4 + c5), by
 * amp_image_tone_mapper; Reinhard's row is what the exposure range uses. */
static const float TONE_MAP[3][6] = {
    {0.6f * 0.6f * 2.51f, 0.6f * 0.03f, 0.0f, 0.6f * 0.6f * 2.43f, 0.6f * 0.59f, 0.14f},
    {0.231683f, 0.013791f, 0.0f, 0.18f, 0.3f, 0.018f},
    {0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f},
};

static float gaussian_ab(float x2, float a, float b) { return a * sqrtf(PI_F / b) * expf(-(PI_F * PI_F) * x2 / b); }

static float gaussian_sqrt(float x2, float a, float b)
{
    return sqrtf(a * sqrtf(PI_F / b)) * expf(-(PI_F * PI_F) * x2 / b);
}

/* The spatial filters (Y, Cx, Cz's two Gaussians, as float_4s) of radius *r at ppd;
 * NULL when out of memory. */
static float *spatial_filter(float ppd, int *r)
{
    float largest = B1[2]; /* the widest Gaussian */
    *r = (int)ceilf(3.0f * sqrtf(largest / (2.0f * (PI_F * PI_F))) * ppd);
    int n = 2 * *r + 1;
    float *f = malloc((size_t)n * 4 * sizeof *f), sum[4] = {0, 0, 0, 0};
    for (int x = 0; f && x < n; x++) {
        float ix = (float)(x - *r) * (1.0f / ppd), ix2 = ix * ix;
        float *w = f + 4 * x;
        w[0] = gaussian_ab(ix2, A1[0], B1[0]);
        w[1] = gaussian_ab(ix2, A1[1], B1[1]);
        w[2] = gaussian_sqrt(ix2, A1[2], B1[2]);
        w[3] = gaussian_sqrt(ix2, A2_Z, B2_Z);
        for (int c = 0; c < 4; c++) sum[c] += w[c];
    }
    float cz = 1.0f / sqrtf(sum[2] * sum[2] + sum[3] * sum[3]);
    float norm[4] = {1.0f / sum[0], 1.0f / sum[1], cz, cz};
    for (int x = 0; f && x < n; x++)
        for (int c = 0; c < 4; c++) f[4 * x + c] *= norm[c];
    return f;
}

/* The feature filters (Gaussian, its first and second derivative, 0) of radius *r. */
static float *feature_filter(float ppd, int *r)
{
    float sd = 0.5f * GW * ppd;
    *r = (int)ceilf(3.0f * sd);
    int n = 2 * *r + 1;
    float *f = malloc((size_t)n * 4 * sizeof *f), g_sum = 0, dg[2] = {0, 0}, ddg[2] = {0, 0}; /* negative, positive */
    for (int x = 0; f && x < n; x++) {
        float xx = (float)(x - *r), g = expf(-(xx * xx) / (2.0f * sd * sd));
        float d = -xx * g, dd = (xx * xx / (sd * sd) - 1.0f) * g;
        g_sum += g;
        if (d > 0.0f) dg[1] += d;
        else dg[0] -= d;
        if (dd > 0.0f) ddg[1] += dd;
        else ddg[0] -= dd;
        float *w = f + 4 * x;
        w[0] = g, w[1] = d, w[2] = dd, w[3] = 0;
    }
    for (int x = 0; f && x < n; x++) { /* Gaussian sums to 1, each derivative's halves to +-1 */
        float *w = f + 4 * x;
        w[0] /= g_sum;
        w[1] /= w[1] > 0.0f ? dg[1] : dg[0];
        w[2] /= w[2] > 0.0f ? ddg[1] : ddg[0];
    }
    return f;
}

/* The color difference's maximum: HyAB of Hunt-adjusted green and blue, to QC. */
static float color_max(void)
{
    float lab[2][3];
    for (int k = 0; k < 2; k++) {
        /* linear RGB (0, 1, 0) and (0, 0, 1) to XYZ, to L*a*b* relative to D65 */
        float xyz[3] = {k ? 4435075.0f / 24577794.0f : 8788810.0f / 24577794.0f,
                        k ? 887015.0f / 12288897.0f : 8788810.0f / 12288897.0f,
                        k ? 70074185.0f / 73733382.0f : 8788810.0f / 73733382.0f};
        const float inv_white[3] = {1.052156925f, 1.000000000f, 0.918357670f};
        const float delta = 6.0f / 29.0f, cube = delta * (delta * delta), factor = 1.0f / (3.0f * (delta * delta));
        float f[3];
        for (int c = 0; c < 3; c++) {
            float v = xyz[c] * inv_white[c];
            f[c] = v > cube ? powf(v, 1.0f / 3.0f) : factor * v + 4.0f / 29.0f;
        }
        float l = 116.0f * f[1] - 16.0f;
        lab[k][0] = l;
        lab[k][1] = 0.01f * l * (500.0f * (f[0] - f[1]));
        lab[k][2] = 0.01f * l * (200.0f * (f[1] - f[2]));
    }
    float da = lab[0][1] - lab[1][1], db = lab[0][2] - lab[1][2];
    return powf(fabsf(lab[0][0] - lab[1][0]) + sqrtf(da * da + db * db), QC);
}

static float luminance(const float *c) { return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]; }

/* An sRGB value 0..1 as linear, the reference's sRGBToLinearRGB. */
static float srgb_to_linear(float s) { return s <= 0.04045f ? s / 12.92f : powf((s + 0.055f) / 1.055f, 2.4f); }

static int by_value(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* The k-th smallest of v[0..n-1] (k < n), reordering v: Hoare's selection, what
 * std::nth_element finds, in linear time on average. */
static float nth_smallest(float *v, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, want = (ptrdiff_t)k;
    while (lo < hi) {
        float pivot = v[lo + (hi - lo) / 2];
        ptrdiff_t i = lo, j = hi;
        while (i <= j) { /* then v[lo..j] <= pivot, v[i..hi] >= pivot, between them = pivot */
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                float t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (want <= j) hi = j;
        else if (want >= i) lo = i;
        else break;
    }
    return v[k];
}

/* HDR-FLIP's exposure range from the expected image's luminances (n RGBA floats):
 * from where its brightest pixel, to where its median one, reaches 0.85 after tone
 * mapping. */
static amp_status exposure_range(const char *who, const float *rgba, size_t n, amp_image_tone_mapper tm,
                                 float *start, float *stop)
{
    const float *c = TONE_MAP[tm];
    float t = 0.85f, a = c[0] - t * c[3], b = c[1] - t * c[4], k = c[2] - t * c[5], x_max;
    if (a == 0.0f) {
        x_max = -k / b;
    } else {
        float d1 = -0.5f * (b / a), d2 = sqrtf(d1 * d1 - k / a);
        x_max = d1 + d2;
    }
    float *lum = malloc(n * sizeof *lum), y_max = -1e30f;
    if (!lum) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu luminances", who, n);
    for (size_t i = 0; i < n; i++) {
        lum[i] = luminance(rgba + 4 * i);
        if (lum[i] > y_max) y_max = lum[i];
    }
    float median = nth_smallest(lum, n, n / 2);
    free(lum);
    *start = log2f(x_max / y_max);
    *stop = log2f(x_max / median);
    if (!isfinite(*start) || !isfinite(*stop))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: HDR-FLIP cannot work out exposures from the expected image (largest luminance %g, "
                         "median %g): give them in exposures, exposure_start and exposure_stop",
                         who, (double)y_max, (double)median);
    return AMP_OK;
}

/* An image as linear RGB float_4s for the kernels: 16-bit samples sRGB-decoded, float
 * ones as they are (they must be finite); gray spread over R, G and B; alpha dropped,
 * or blended on white (white: 1) where asked. NULL with the error set. */
static float *linear_rgba(const char *who, const char *which, const amp_image *im, bool white)
{
    size_t n = (size_t)im->width * (size_t)im->height;
    int ch = im->channels;
    void *owned;
    const void *p = amp__image_packed(im, im->bits, &owned);
    float *out = p ? malloc(n * 4 * sizeof *out) : NULL, *lut = NULL;
    if (out && im->bits == 16 && (lut = malloc(65536 * sizeof *lut)))
        for (int v = 0; v < 65536; v++) lut[v] = srgb_to_linear((float)v / 65535.0f);
    if (!out || (im->bits == 16 && !lut)) {
        free(out);
        free(owned);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for a %dx%d image", who, im->width, im->height);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        float v[4];
        for (int c = 0; c < ch; c++) {
            size_t k = i * (size_t)ch + (size_t)c;
            v[c] = im->bits == 16 ? ((const uint16_t *)p)[k] / 65535.0f : ((const float *)p)[k];
            if (!isfinite(v[c])) {
                free(out);
                free(owned);
                free(lut);
                amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s image's sample at column %zu, row %zu, channel %d "
                          "is %g; FLIP needs finite values", who, which, i % (size_t)im->width,
                          i / (size_t)im->width, c, (double)v[c]);
                return NULL;
            }
        }
        float *o = out + 4 * i;
        for (int c = 0; c < 3; c++) {
            float s = v[ch >= 3 ? c : 0];
            if (white && (ch == 2 || ch == 4)) s = 1.0f + (s - 1.0f) * v[ch - 1];
            o[c] = im->bits == 16 ? lut[(int)lrintf(s * 65535.0f)] : s;
        }
        o[3] = 1.0f;
    }
    free(owned);
    free(lut);
    return out;
}

/* The pixels an invocation of the filtering passes makes, in vec4s of four. */
enum { FLIP_RUN = 4, FLIP_GROUPS = FLIP_RUN / 4 };

/* The filters' weights as GLSL constants (shaders/image/flip.glsl): for each of the
 * 2 TAPS_R + FLIP_RUN taps around the pixels an invocation makes, the weights of the
 * tap for each four of them, a vec4: S_Y, S_CX, S_CZ1, S_CZ2 of the spatial filters
 * (radius sr) and F_G, F_D, F_DD of the feature filters (radius fr). A malloc'ed
 * string, or NULL. */
static char *filter_constants(const float *spatial, int sr, const float *feature, int fr)
{
    int taps_r = sr > fr ? sr : fr, taps = 2 * taps_r + FLIP_RUN;
    static const char *const names[7] = {"S_Y", "S_CX", "S_CZ1", "S_CZ2", "F_G", "F_D", "F_DD"};
    size_t cap = 256 + 7 * (64 + (size_t)taps * FLIP_GROUPS * 72);
    char *d = malloc(cap);
    if (!d) return NULL;
    size_t used = (size_t)snprintf(d, cap, "#define TAPS_R %d\n#define FLIP_RUN %d\n#define FLIP_GROUPS %d\n"
                                           "#define FLIP_TAPS %d\n", taps_r, FLIP_RUN, FLIP_GROUPS, taps);
    for (int a = 0; a < 7; a++) {
        const float *f = a < 4 ? spatial : feature;
        int r = a < 4 ? sr : fr, c = a < 4 ? a : a - 4;
        used += (size_t)snprintf(d + used, cap - used, "const vec4 %s[%d] = vec4[](", names[a], taps * FLIP_GROUPS);
        for (int t = 0; t < taps; t++)
            for (int g = 0; g < FLIP_GROUPS; g++) {
                used += (size_t)snprintf(d + used, cap - used, "%svec4(", t || g ? ", " : "");
                for (int j = 0; j < 4; j++) { /* tap t is k from pixel 4 g + j */
                    int k = t - taps_r - (4 * g + j);
                    float w = k >= -r && k <= r ? f[4 * (k + r) + c] : 0.0f;
                    used += (size_t)snprintf(d + used, cap - used, "%s%.9g", j ? ", " : "", (double)w);
                }
                used += (size_t)snprintf(d + used, cap - used, ")");
            }
        used += (size_t)snprintf(d + used, cap - used, ");\n");
    }
    return d;
}

/* A kernel of shaders/image/flip.glsl: pass "FLIP_PREPARE" (rgba8: of 8-bit words,
 * through tone mapper tm, -1: none), "FLIP_ROWS" or "FLIP_COLUMNS" (max: FLIP_MAX),
 * with the filters' constants. */
static amp_kernel *flip_kernel(amp_accelerator_view *view, const char *pass, bool rgba8, int tm, bool max,
                               const char *filters)
{
    size_t cap = strlen(filters) + 512;
    char *decl = malloc(cap);
    if (!decl) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    int used = snprintf(decl, cap, "#define %s\n%s%s#define FLIP_TONE_MAP %d\n%s", pass,
                        rgba8 ? "#define FLIP_RGBA8\n" : "", max ? "#define FLIP_MAX\n" : "",
                        tm < 0 ? 0 : tm == AMP_IMAGE_TONE_MAP_REINHARD ? 3 : tm + 1, filters);
    for (int c = 0; tm >= 0 && c < 6; c++)
        used += snprintf(decl + used, cap - (size_t)used, "const float TM%d = %.9g;\n", c, (double)TONE_MAP[tm][c]);
    const char *params =
        strcmp(pass, "FLIP_ROWS") == 0
            ? "array_view<const float_4, 1> ya, array_view<const float_4, 1> yb, array_view<float_4, 1> ca, "
              "array_view<float_4, 1> cb, array_view<float_4, 1> fa, array_view<float_4, 1> fb, int width"
        : strcmp(pass, "FLIP_COLUMNS") == 0
            ? "array_view<const float_4, 1> ca, array_view<const float_4, 1> cb, array_view<const float_4, 1> fa, "
              "array_view<const float_4, 1> fb, array_view<float, 1> error, int width, int height, float cmax, "
              "float pccmax"
        : rgba8 ? "array_view<const uint, 1> a, array_view<const uint, 1> b, array_view<const float, 1> lut, "
                  "array_view<float_4, 1> ya, array_view<float_4, 1> yb, int width, float scale, uint options"
                : "array_view<const float_4, 1> a, array_view<const float_4, 1> b, array_view<float_4, 1> ya, "
                  "array_view<float_4, 1> yb, int width, float scale";
    const char *name = strcmp(pass, "FLIP_ROWS") == 0 ? "flip rows" : strcmp(pass, "FLIP_COLUMNS") == 0 ? "flip columns"
                                                                                                     : "flip prepare";
    amp_kernel *k = amp__metric_kernel(view, &(amp_kernel_desc){.name = name, .rank = 2, .declarations = decl,
                                                                .params = params,
                                                                .source = "#include \"image/flip.glsl\"\n"});
    free(decl);
    return k;
}

amp_status amp__flip(const char *who, const amp_image *expected, const amp_image *actual,
                     const amp_image_compare_desc *desc, float *error, amp_image_compare_result *r)
{
    int w = expected->width, h = expected->height;
    size_t n = (size_t)w * (size_t)h;
    bool hdr = expected->bits == 32, rgba8 = expected->bits == 8, white = desc->blend_on_white;
    amp_accelerator_info info;
    amp_accelerator_view *view = amp__metric_view(who, "FLIP", desc, w, h, 4, &info);
    if (!view) return amp_last_status();
    float ppd = desc->ppd > 0 ? (float)desc->ppd : 0.7f * (3840.0f / 0.7f) * (PI_F / 180.0f);
    int sr = 0, fr = 0;
    float *spatial = spatial_filter(ppd, &sr), *feature = spatial ? feature_filter(ppd, &fr) : NULL;
    float cmax = color_max(), pccmax = PC * cmax, lut[256];
    for (int v = 0; rgba8 && v < 256; v++) lut[v] = srgb_to_linear((float)v / 255.0f);
    amp_status s = feature ? AMP_OK : amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    /* the inputs: 8-bit words, or linear RGB floats */
    uint32_t *owned_a = NULL, *owned_b = NULL;
    float *fa_in = NULL, *fb_in = NULL;
    const void *in_a = NULL, *in_b = NULL;
    if (s == AMP_OK && rgba8) {
        in_a = amp__rgba8_words(expected, n, &owned_a);
        in_b = in_a ? amp__rgba8_words(actual, n, &owned_b) : NULL;
        if (!in_b) s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for two %dx%d images", who, w, h);
    } else if (s == AMP_OK) {
        in_a = fa_in = linear_rgba(who, "expected", expected, white);
        in_b = fb_in = fa_in ? linear_rgba(who, "actual", actual, white) : NULL;
        if (!in_b) s = amp_last_status();
    }
    /* HDR-FLIP's exposures */
    int tm = hdr ? (int)desc->tone_mapper : -1, count = 1;
    float start = 0, stop = 0;
    if (s == AMP_OK && hdr) {
        if (desc->exposures > 0) {
            start = (float)desc->exposure_start, stop = (float)desc->exposure_stop, count = desc->exposures;
        } else {
            s = exposure_range(who, fa_in, n, desc->tone_mapper, &start, &stop);
            count = (int)fmaxf(2.0f, ceilf(stop - start));
        }
        r->exposures = count, r->exposure_start = start, r->exposure_stop = stop;
    }
    amp_kernel *prep = NULL, *rows = NULL, *cols = NULL, *cols_max = NULL;
    char *filters = s == AMP_OK ? filter_constants(spatial, sr, feature, fr) : NULL;
    if (s == AMP_OK && !filters) s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    if (s == AMP_OK) {
        prep = flip_kernel(view, "FLIP_PREPARE", rgba8, tm, false, "");
        rows = prep ? flip_kernel(view, "FLIP_ROWS", false, -1, false, filters) : NULL;
        cols = rows ? flip_kernel(view, "FLIP_COLUMNS", false, -1, false, filters) : NULL;
        cols_max = cols && count > 1 ? flip_kernel(view, "FLIP_COLUMNS", false, -1, true, filters) : NULL;
        if (!cols || (count > 1 && !cols_max)) s = amp_last_status();
    }
    free(filters);
    /* the images and the passes' planes, the planes in the accelerator's memory */
    amp_extent all = amp_extent1((int)n);
    amp_type in_type = rgba8 ? AMP_UINT : AMP_FLOAT_4;
    amp_array_view *va = NULL, *vb = NULL, *vlut = NULL, *verr = NULL, *planes[6] = {0};
    amp_array *arrays[6] = {0};
    if (s == AMP_OK) {
        va = amp_array_view_create_const(all, in_type, 0, in_a);
        vb = va ? amp_array_view_create_const(all, in_type, 0, in_b) : NULL;
        vlut = vb ? amp_array_view_create_const(amp_extent1(256), AMP_FLOAT, 0, lut) : NULL;
        verr = vlut ? amp_array_view_create(all, AMP_FLOAT, 0, error) : NULL;
        for (int i = 0; verr && i < 6; i++) {
            arrays[i] = amp_array_create(view, &(amp_array_desc){.extent = all, .type = AMP_FLOAT_4,
                                                                 .cpu_access = AMP_ACCESS_NONE});
            planes[i] = arrays[i] ? amp_array_view_of_array(arrays[i]) : NULL;
            if (!planes[i]) break;
        }
        if (!planes[5]) s = amp_last_status();
    }
    if (s == AMP_OK) s = amp_array_view_discard_data(verr);
    amp_extent grid = amp_extent2(h, w), grid_rows = amp_extent2(h, (w + FLIP_RUN - 1) / FLIP_RUN),
               grid_cols = amp_extent2((h + FLIP_RUN - 1) / FLIP_RUN, w);
    for (int e = 0; s == AMP_OK && e < count; e++) {
        float exposure = count > 1 ? start + (float)e * ((stop - start) / (float)(count - 1)) : start;
        float scale = hdr ? powf(2.0f, exposure) : 1.0f;
        s = rgba8 ? amp_parallel_for_each(view, grid, prep,
                                          AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_VIEW("lut", vlut),
                                                   AMP_VIEW("ya", planes[0]), AMP_VIEW("yb", planes[1]),
                                                   AMP_INT("width", w), AMP_FLOAT("scale", scale),
                                                   AMP_UINT("options", white ? 2u : 0u)))
                  : amp_parallel_for_each(view, grid, prep,
                                          AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_VIEW("ya", planes[0]),
                                                   AMP_VIEW("yb", planes[1]), AMP_INT("width", w),
                                                   AMP_FLOAT("scale", scale)));
        if (s == AMP_OK)
            s = amp_parallel_for_each(view, grid_rows, rows,
                                      AMP_ARGS(AMP_VIEW("ya", planes[0]), AMP_VIEW("yb", planes[1]),
                                               AMP_VIEW("ca", planes[2]), AMP_VIEW("cb", planes[3]),
                                               AMP_VIEW("fa", planes[4]), AMP_VIEW("fb", planes[5]),
                                               AMP_INT("width", w)));
        if (s == AMP_OK)
            s = amp_parallel_for_each(view, grid_cols, e ? cols_max : cols,
                                      AMP_ARGS(AMP_VIEW("ca", planes[2]), AMP_VIEW("cb", planes[3]),
                                               AMP_VIEW("fa", planes[4]), AMP_VIEW("fb", planes[5]),
                                               AMP_VIEW("error", verr), AMP_INT("width", w), AMP_INT("height", h),
                                               AMP_FLOAT("cmax", cmax), AMP_FLOAT("pccmax", pccmax)));
    }
    if (s == AMP_OK) s = amp_array_view_synchronize(verr);
    amp_array_view *views[] = {va, vb, vlut, verr};
    for (size_t i = 0; i < sizeof views / sizeof *views; i++) amp_array_view_destroy(&views[i]);
    for (int i = 0; i < 6; i++) {
        amp_array_view_destroy(&planes[i]);
        amp_array_destroy(&arrays[i]);
    }
    free(spatial);
    free(feature);
    free(owned_a);
    free(owned_b);
    free(fa_in);
    free(fb_in);
    return s;
}

/* A score's bucket (its float's upper bits: buckets in the scores' order) and, in
 * *x, the score as pooled (negatives as 0). */
static int score_bucket(float v, float *x)
{
    *x = v > 0 ? v : 0;
    uint32_t bits;
    memcpy(&bits, x, sizeof bits);
    return (int)(bits >> 16);
}

/* The weighted percentiles p[k] (np of them, at most 3) of the scores of the texels
 * not ignored: the smallest score at which the running sum of the sorted scores
 * exceeds p[k] of their sum, as NVIDIA's pooling has it, found by bucketing the
 * scores by their float bits and sorting only the buckets that hold the answers. */
static amp_status weighted_percentiles(const char *who, const float *v, const uint8_t *ignored, size_t n,
                                       const double *p, int np, double *out)
{
    enum { BUCKETS = 1 << 15 };
    double *sums = calloc(BUCKETS, sizeof *sums);
    size_t *counts = calloc(BUCKETS, sizeof *counts);
    if (!sums || !counts) {
        free(sums);
        free(counts);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        if (ignored && ignored[i]) continue;
        float x;
        int b = score_bucket(v[i], &x);
        sums[b] += x;
        counts[b]++;
        total += x;
    }
    /* the bucket that holds each answer, then one pass gathering those buckets' scores */
    int bucket[3];
    double before[3], target[3];
    float *in_b[3] = {NULL, NULL, NULL};
    size_t m[3] = {0, 0, 0};
    amp_status s = AMP_OK;
    for (int k = 0; k < np; k++) {
        target[k] = p[k] * total, before[k] = 0, out[k] = 0;
        int b = 0;
        while (b < BUCKETS && !(before[k] + sums[b] > target[k])) before[k] += sums[b++];
        bucket[k] = b < BUCKETS && total > 0 ? b : -1;
        if (bucket[k] >= 0 && !(in_b[k] = malloc(counts[b] * sizeof *in_b[k])))
            s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    for (size_t i = 0; s == AMP_OK && i < n; i++) {
        float x;
        int b = ignored && ignored[i] ? -1 : score_bucket(v[i], &x);
        for (int k = 0; b >= 0 && k < np; k++)
            if (b == bucket[k]) in_b[k][m[k]++] = x;
    }
    for (int k = 0; s == AMP_OK && k < np; k++) {
        if (bucket[k] < 0) continue;
        qsort(in_b[k], m[k], sizeof *in_b[k], by_value);
        out[k] = m[k] ? in_b[k][m[k] - 1] : 0;
        for (size_t i = 0; i < m[k]; i++)
            if ((before[k] += in_b[k][i]) > target[k]) {
                out[k] = in_b[k][i];
                break;
            }
    }
    for (int k = 0; k < np; k++) free(in_b[k]);
    free(sums);
    free(counts);
    return s;
}

amp_status amp__flip_pool(const char *who, const float *score, const uint8_t *ignored, size_t n,
                          amp_image_compare_result *r)
{
    memset(r->histogram, 0, sizeof r->histogram);
    const double bucket = 0.01f; /* the reference's float step */
    for (size_t i = 0; i < n; i++) {
        if (ignored && ignored[i]) continue;
        double x = score[i] > 0 ? score[i] : 0;
        size_t b = (size_t)(x / bucket);
        r->histogram[b < AMP_IMAGE_HISTOGRAM_BUCKETS ? b : AMP_IMAGE_HISTOGRAM_BUCKETS - 1]++;
    }
    const double p[3] = {0.5, 0.25, 0.75};
    double q[3];
    amp_status s = weighted_percentiles(who, score, ignored, n, p, 3, q);
    r->weighted_median = q[0];
    r->weighted_quartiles[0] = q[1];
    r->weighted_quartiles[1] = q[2];
    return s;
}
