/* Chains of filters: split into passes (a neighborhood filter or resize, or a copy,
 * followed by the pointwise filters fused into it), each pass's numbers worked out and
 * its plan (plan.c) recorded on the source's view with the intermediates in pooled
 * textures of the source's type. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter_internal.h"

#define MAX_CHAIN 64
#define INTEGER_SUM_MAX 16  /* the largest sum S of integer weights W_k / S (255 S^2 < 2^16) */

/* One axis of a resize from s texels to d, as OpenCV 4.6's cv::resize computes it in
 * double precision (resize.cpp): scale is its 1 / (d / s). area: INTER_AREA's own weights
 * (computeResizeAreaTab), which it takes only when neither axis grows; else INTER_AREA is
 * its linear filter with its own phases. columns: the horizontal axis, where OpenCV moves
 * a linear filter's taps that start past an edge onto it, phase 0 (rows keep theirs). */
typedef struct resize_axis {
    amp_interpolation mode;
    bool area, columns;
    int s, d;
    double inv, scale;
} resize_axis;

static resize_axis axis_of(amp_interpolation mode, bool area, bool columns, int s, int d)
{
    double inv = (double)d / s;
    return (resize_axis){mode, area, columns, s, d, inv, 1.0 / inv};
}

/* OpenCV's interpolateCubic and interpolateLanczos4 (its weights of a phase x, in float). */
static void cubic_weights(float x, float *c)
{
    const float A = -0.75f;
    c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = 1.f - c[0] - c[1] - c[2];
}

static void lanczos4_weights(float x, float *c)
{
    static const double s45 = 0.70710678118654752440084436210485, pi = 3.14159265358979323846;
    static const double cs[8][2] = {{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45}, {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}};
    float sum = 0;
    double y0 = -(x + 3) * pi * 0.25, s0 = sin(y0), c0 = cos(y0);
    for (int i = 0; i < 8; i++) {
        float y0_ = x + 3 - i;
        double y = -y0_ * pi * 0.25;
        c[i] = fabsf(y0_) >= 1e-6f ? (float)((cs[i][0] * s0 + cs[i][1] * c0) / (y * y)) : 1e30f; /* x ~ 0 or 1 */
        sum += c[i];
    }
    sum = 1.f / sum;
    for (int i = 0; i < 8; i++) c[i] *= sum;
}

/* The taps of destination index i along axis a: the first source index (the taps take
 * the ones after it; resize.comp clamps those past the edges) and their weights into w
 * (NULL: only counted). Returns their count. */
static int axis_taps(const resize_axis *a, int i, int *first, float *w)
{
    float c[8];
    if (a->mode == AMP_INTERP_NEAREST) { /* resizeNN */
        int sx = (int)floor(i * a->scale);
        *first = sx < a->s - 1 ? sx : a->s - 1;
        if (w) w[0] = 1.0f;
        return 1;
    }
    if (a->area) { /* computeResizeAreaTab: the texels under the cell, by their share of it */
        double lo = i * a->scale, hi = lo + a->scale, cell = fmin(a->scale, a->s - lo);
        int s1 = (int)ceil(lo), s2 = (int)floor(hi), n = 0;
        s2 = s2 < a->s - 1 ? s2 : a->s - 1;
        s1 = s1 < s2 ? s1 : s2;
        bool left = s1 - lo > 1e-3;
        *first = left ? s1 - 1 : s1;
        if (left && w) w[n] = (float)((s1 - lo) / cell);
        n += left;
        for (int k = s1; k < s2; k++, n++)
            if (w) w[n] = (float)(1.0 / cell);
        if (hi - s2 > 1e-3) {
            if (w) w[n] = (float)(fmin(fmin(hi - s2, 1.0), cell) / cell);
            n++;
        }
        return n;
    }
    int sx, k = a->mode == AMP_INTERP_CUBIC ? 4 : a->mode == AMP_INTERP_LANCZOS4 ? 8 : 2;
    float fx;
    if (a->mode == AMP_INTERP_AREA) { /* its linear filter, when enlarging */
        sx = (int)floor(i * a->scale);
        fx = (float)((i + 1) - (sx + 1) * a->inv);
        fx = fx <= 0 ? 0.f : fx - (float)floorf(fx);
    } else {
        fx = (float)((i + 0.5) * a->scale - 0.5);
        sx = (int)floorf(fx);
        fx -= (float)sx;
    }
    if (k == 2 && a->columns && sx < 0) fx = 0, sx = 0;
    if (k == 2 && a->columns && sx >= a->s - 1) fx = 0, sx = a->s - 1;
    if (k == 4) cubic_weights(fx, c);
    else if (k == 8) lanczos4_weights(fx, c);
    else c[0] = 1.f - fx, c[1] = fx;
    *first = sx - (k / 2 - 1);
    if (w) memcpy(w, c, (size_t)k * sizeof *c);
    return k;
}

/* The most taps of an index along a (the same count for every index but INTER_AREA's own). */
static int axis_width(const resize_axis *a)
{
    int n = 0, first;
    if (!a->area) return axis_taps(a, 0, &first, NULL);
    for (int i = 0; i < a->d; i++) {
        int m = axis_taps(a, i, &first, NULL);
        n = m > n ? m : n;
    }
    return n;
}

/* Writes axis a's table at t: for each destination index its first source index (the
 * int's bits) and n weights (zeros past its taps), n + 1 words. */
static void axis_table(const resize_axis *a, int n, float *t)
{
    for (int i = 0; i < a->d; i++, t += n + 1) {
        int first;
        memset(t, 0, (size_t)(n + 1) * sizeof *t);
        axis_taps(a, i, &first, t + 1);
        memcpy(t, &first, sizeof first);
    }
}

/* Records resize.comp's pass d (d->params: the sizes) of interpolation mode with its taps
 * in the scratch buffer: the columns' table, then the rows' (resize.comp reads their taps'
 * counts and where the rows' begins from counts.xyz). The positions and weights are
 * OpenCV's own, in double precision, for every interpolation. */
static amp_status resize_pass(amp_accelerator_view *v, amp__filter_dispatch *d, amp_interpolation mode)
{
    int sw = d->params.size[0], sh = d->params.size[1], dw = d->params.size[2], dh = d->params.size[3];
    /* INTER_AREA averages where neither axis grows, else it is a linear filter */
    bool area = mode == AMP_INTERP_AREA && sw >= dw && sh >= dh;
    resize_axis x = axis_of(mode, area, true, sw, dw), y = axis_of(mode, area, false, sh, dh);
    int nx = axis_width(&x), ny = axis_width(&y);
    size_t words = (size_t)(nx + 1) * (size_t)dw + (size_t)(ny + 1) * (size_t)dh;
    float *t = malloc(words * sizeof *t);
    if (!t) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    axis_table(&x, nx, t);
    axis_table(&y, ny, t + (size_t)(nx + 1) * (size_t)dw);
    d->params.counts[0] = nx;
    d->params.counts[1] = ny;
    d->params.counts[2] = (nx + 1) * dw;
    amp_status st = amp__filter_record(v, d, 1, t, words * sizeof *t);
    free(t);
    return st;
}

/* Makes d, a one-pass sum (gaussian or box) of weights w[0..r], an integer sum where it
 * can be one (conv.glsl): from 8 bits into 8 bits, with weights W_k / S of integers W_k
 * summing to S <= INTEGER_SUM_MAX in both directions (OpenCV's fixed gaussian kernels of
 * 3 and 5 taps, boxes), and a constant border, if any, of whole codes. Then the sums are
 * integers of at most 255 S^2 < 2^16, rounded as OpenCV's 8-bit filters round: its bytes
 * exactly. True if it did. */
static bool integer_sum(amp__filter_dispatch *d, const amp_image_filter *f, const float *w)
{
    int r = d->spec.radius;
    bool codes = amp__filter_eight_bits(&d->spec) && f->op != AMP_IMAGE_SHARPEN && amp__filter_border_codes(d);
    for (int sum = 1; codes && sum <= INTEGER_SUM_MAX; sum++) {
        float iw[TILE_RADIUS + 1];
        int total = 0, k = 0;
        for (; k <= r; k++) {
            double q = (double)w[k] * sum, n = floor(q + 0.5);
            if (n < 0 || fabs(q - n) > 1e-5) break;
            iw[k] = (float)n;
            total += (k ? 2 : 1) * (int)n;
        }
        if (k <= r || total != sum) continue;
        uint32_t t = (uint32_t)(sum * sum);
        d->spec.flags |= FLAG_INTEGER;
        memcpy(d->params.weights, iw, (size_t)(r + 1) * sizeof(float));
        d->params.counts[1] = (int32_t)t;
        d->params.counts[2] = (int32_t)(uint32_t)((((uint64_t)1 << 32) + 2 * t - 1) / (2 * t)); /* ceil(2^32 / 2T) */
        return true;
    }
    return false;
}

/* Makes d, a gaussian (weights w[0..r], which it replaces), OpenCV's fixed-point 8-bit
 * gaussian where it can: from 8 bits into 8 bits, a border other than a constant one but
 * 0 (OpenCV's constant border is 0 and the second of two passes reads it as a row of
 * sums), of radius up to AMP__FIXED_RADIUS. Then the weights are its integers W_k over
 * 256 and the sums of codes exact (conv.glsl; conv_mma.comp splits its 16-bit-float row
 * sums in two): OpenCV's bytes for any sigma, where the float kernel was up to 2 levels
 * off (sigma 1.5 on a photograph). True if it did. */
static bool fixed_gaussian(amp__filter_dispatch *d, const amp_image_filter *f, float *w)
{
    int r = d->spec.radius, fixed[AMP__FIXED_RADIUS + 1];
    bool zero = true;
    for (int c = 0; c < 4; c++) zero &= d->params.border_value[c] == 0;
    if (f->op != AMP_IMAGE_GAUSSIAN || !amp__filter_eight_bits(&d->spec) || r > AMP__FIXED_RADIUS ||
        (d->spec.border == AMP_BORDER_CONSTANT && !zero))
        return false;
    amp__gaussian_fixed(r, f->sigma, fixed);
    for (int k = 0; k <= r; k++) w[k] = (float)fixed[k] / 256.0f;
    d->spec.flags |= FLAG_FIXED;
    return true;
}

/* One pass: its leading filter (NULL: a copy) and the pointwise filters after it. */
typedef struct group {
    const amp_image_filter *lead;
    int lead_index;
    int first, count; /* pointwise filters [first, first + count) */
    int in_components, out_components;
    amp_extent in_extent, out_extent;
} group;

typedef struct texinfo {
    amp_scalar scalar;
    int bits, components;
    amp_extent extent;
} texinfo;

static texinfo info_of(amp_texture *t)
{
    amp_type ty = amp_texture_type(t);
    return (texinfo){amp_type_scalar(ty), amp_texture_bits_per_scalar_element(t), amp_type_components(ty),
                     amp_texture_extent(t)};
}

static amp_status check_texture(amp_texture *t, const char *role)
{
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter: the %s is NULL", role);
    texinfo i = info_of(t);
    if (i.extent.rank != 2)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter: the %s is a %d-D texture; filters take 2-D textures",
                         role, i.extent.rank);
    bool ok = (i.scalar == AMP_SCALAR_UNORM && (i.bits == 8 || i.bits == 16)) ||
              (i.scalar == AMP_SCALAR_FLOAT && (i.bits == 16 || i.bits == 32));
    if (!ok)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "filter: the %s is %s of %d bits; filters take unorm (8, 16 bits) and float (16, 32 bits)",
                         role, amp_type_name(amp_texture_type(t)), i.bits);
    return AMP_OK;
}

static int after_gray(int components) { return components == 2 || components == 4 ? 2 : 1; }

static float codes(amp_scalar s, int bits) { return s == AMP_SCALAR_UNORM ? (float)((1 << bits) - 1) : 0.0f; }

/* The size a resize makes from in (dst: the destination's extent when it is last). */
static amp_status resize_extent(const amp_image_filter *f, int index, bool last, amp_extent in, amp_extent dst,
                                amp_extent *out)
{
    int w = f->width, h = f->height, iw = in.dims[1], ih = in.dims[0];
    if (w == 0 && h == 0) {
        if (!last)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "filter %d (resize): a resize before the last filter needs its width or height", index);
        *out = dst.rank == 2 ? dst : in;
        return AMP_OK;
    }
    if (w == 0) w = (int)fmax(1, lrint((double)h * iw / ih));
    if (h == 0) h = (int)fmax(1, lrint((double)w * ih / iw));
    *out = amp_extent2(h, w);
    return AMP_OK;
}

/* Splits the chain into passes and works out each one's components and extent. */
static amp_status split_chain(const amp_image_filter *fs, int count, amp_extent src, int components, amp_extent dst,
                       group *g, int *groups)
{
    if (!fs || count < 1 || count > MAX_CHAIN)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter: %d filters given (%s); a chain holds 1 to %d",
                         count, fs ? "that many" : "NULL", MAX_CHAIN);
    int n = 0;
    amp_extent e = src;
    for (int i = 0; i < count; i++) {
        const amp_image_filter *f = &fs[i];
        amp_status st = amp__filter_check(f, i);
        if (st != AMP_OK) return st;
        bool pw = amp__op_pointwise(f->op);
        if (!pw || n == 0 || g[n - 1].count == MAX_POINTWISE) {
            g[n] = (group){pw ? NULL : f, i, i + (pw ? 0 : 1), 0, components, components, e, e};
            n++;
        }
        group *cur = &g[n - 1];
        if (pw) {
            cur->count++;
            if (f->op == AMP_IMAGE_GRAYSCALE) components = after_gray(components);
        } else if (f->op == AMP_IMAGE_RESIZE) {
            st = resize_extent(f, i, i == count - 1, e, dst, &e);
            if (st != AMP_OK) return st;
        }
        cur->out_components = components;
        cur->out_extent = e;
    }
    *groups = n;
    return AMP_OK;
}

amp_status amp_image_filter_output_extent(const amp_image_filter *filters, int count, amp_extent src,
                                          amp_extent *out)
{
    group g[MAX_CHAIN];
    int n;
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_image_filter_output_extent: NULL out");
    amp_status st = split_chain(filters, count, src, 4, (amp_extent){0}, g, &n);
    if (st == AMP_OK) *out = g[n - 1].out_extent;
    return st;
}

int amp_image_filter_output_components(const amp_image_filter *filters, int count, int components)
{
    for (int i = 0; filters && i < count; i++)
        if (filters[i].op == AMP_IMAGE_GRAYSCALE) components = after_gray(components);
    return components;
}

/* The spec and numbers every dispatch of a pass starts from. */
static void base_dispatch(const group *gr, const amp_image_filter *fs, amp_texture *in, amp_texture *out,
                          texinfo src, amp__filter_dispatch *d)
{
    memset(d, 0, sizeof *d);
    amp__filter_spec *s = &d->spec;
    amp__filter_params *p = &d->params;
    texinfo i = info_of(in), o = info_of(out);
    const amp_image_filter *lead = gr->lead;
    d->src = in;
    d->dst = out;
    p->size[0] = i.extent.dims[1];
    p->size[1] = i.extent.dims[0];
    p->size[2] = o.extent.dims[1];
    p->size[3] = o.extent.dims[0];
    s->src_n = i.components;
    s->dst_n = o.components;
    s->border = lead ? (int)amp__filter_border(lead) : AMP_BORDER_REPLICATE;
    s->radius = lead ? amp__filter_radius(lead, src.bits) : 0;
    /* every index a window of the radius reaches lies within one reflection of the source:
       border_at without a division (a resize's border, which reaches no farther than its
       taps, is its own) */
    if (lead && p->size[0] > s->radius && p->size[1] > s->radius) s->flags |= FLAG_NEAR;
    s->src_levels = codes(i.scalar, i.bits);
    s->mid_levels = src.scalar == AMP_SCALAR_UNORM ? codes(src.scalar, src.bits) : src.bits == 16 ? -1.0f : 0.0f;
    s->dst_levels = codes(o.scalar, o.bits);
    if (lead) memcpy(p->border_value, lead->border_value, sizeof p->border_value);
    int components = gr->in_components;
    for (int k = 0; k < gr->count; k++) {
        const amp_image_filter *f = &fs[gr->first + k];
        if (f->op == AMP_IMAGE_GRAYSCALE) components = after_gray(components);
        if (f->op != AMP_IMAGE_COPY) amp__pointwise_add(s, p, f, components, s->mid_levels);
    }
    if (lead && s->ops > 0) s->flags |= FLAG_QUANTIZE_RAW;
}

/* The pass's checks against its textures, before anything is recorded. */
static amp_status check_pass(const group *gr, amp_texture *in, amp_texture *out)
{
    const amp_image_filter *f = gr->lead;
    texinfo i = info_of(in), o = info_of(out);
    if (!f) return AMP_OK;
    if (f->op == AMP_IMAGE_EQUALIZE && (i.components > 2 || i.scalar != AMP_SCALAR_UNORM))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "filter %d (equalize): its input is %s with %d components; equalize takes gray (1-component) "
                         "or gray + alpha (2-component) unorm images", gr->lead_index, amp_type_name(AMP_MAKE_TYPE(i.scalar, i.components)),
                         i.components);
    if (f->op == AMP_IMAGE_SOBEL && f->signed_output && o.scalar != AMP_SCALAR_FLOAT)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "filter %d (sobel): signed_output needs a float destination, not unorm %d-bit",
                         gr->lead_index, o.bits);
    return AMP_OK;
}

/* Works out the numbers of pass d whose leading filter is f (NULL: a copy): a sum's weights
 * w[0..r], in the parameter block up to radius 63 (an integer sum's, FLAG_INTEGER, or
 * OpenCV's fixed-point gaussian's in 256ths, FLAG_FIXED), the filter's own numbers, a
 * shrink's factor as the radius (resize.comp and packed.comp take it). */
static void numbers(const amp_image_filter *f, amp__filter_dispatch *d, float *weights)
{
    int r = d->spec.radius;
    switch (f ? f->op : AMP_IMAGE_COPY) {
    case AMP_IMAGE_GAUSSIAN: case AMP_IMAGE_BOX: case AMP_IMAGE_SHARPEN: {
        if (f->op == AMP_IMAGE_BOX)
            for (int k = 0; k <= r; k++) weights[k] = 1.0f / (float)(2 * r + 1);
        else amp__gaussian_weights(r, f->op == AMP_IMAGE_SHARPEN && f->sigma <= 0 ? 1.0 : f->sigma, weights);
        if (f->op == AMP_IMAGE_SHARPEN) {
            float amount = f->amount != 0 ? f->amount : 1.0f;
            d->params.f[0] = 1.0f + amount;
            d->params.f[1] = -amount;
        }
        bool integer = r <= TILE_RADIUS && integer_sum(d, f, weights);
        if (!integer) fixed_gaussian(d, f, weights);
        if (r < 64 && !integer) memcpy(d->params.weights, weights, (size_t)(r + 1) * sizeof(float));
        break;
    }
    case AMP_IMAGE_SOBEL:
        if (f->signed_output) d->spec.flags |= FLAG_SIGNED;
        break;
    case AMP_IMAGE_BILATERAL: {
        double sc = f->sigma_color > 0 ? f->sigma_color : 1.0, ss = f->sigma_space > 0 ? f->sigma_space : 1.0;
        d->params.f[0] = (float)(-0.5 / (sc * sc));
        d->params.f[1] = (float)(-0.5 / (ss * ss));
        if (d->spec.src_levels == 255.0f) d->spec.flags |= FLAG_CODES;
        break;
    }
    case AMP_IMAGE_RESIZE: /* the means of k x k blocks (resize.comp and packed.comp take them as integers) */
        d->spec.radius = amp__filter_shrink_factor(f, amp_extent2(d->params.size[1], d->params.size[0]),
                                                   amp_extent2(d->params.size[3], d->params.size[2]));
        break;
    default:
        break;
    }
}

/* Records one pass from in to out as plan.c plans it; or, where shown is not NULL, only
 * plans it there (amp_image_filter_explain). */
static amp_status run_pass(amp_accelerator_view *v, const group *gr, const amp_image_filter *fs, amp_texture *in,
                           amp_texture *out, texinfo src, amp__pass_plan *shown)
{
    amp__filter_dispatch base;
    amp__pass_plan plan;
    const amp_image_filter *f = gr->lead;
    float weights[4097];
    base_dispatch(gr, fs, in, out, src, &base);
    numbers(f, &base, weights);
    amp__filter_plan_pass(v, f, &base, !shown, shown ? shown : &plan);
    if (shown) return AMP_OK;
    amp__filter_dispatch *d = plan.d;
    if (plan.taps) return resize_pass(v, &d[0], f->interpolation);
    if (plan.between) {
        /* the rows into a float texture, then its columns. Into an 8-bit destination from a
         * source of at most 16 bits the rows are 16-bit floats: their 11-bit mantissa moves a
         * result by under a quarter of an 8-bit level, for half the traffic of 32-bit rows;
         * but the fixed sums', exact sums of codes, are 32-bit */
        bool fixed = d[0].spec.flags & FLAG_FIXED;
        amp_texture *tmp = amp__filter_intermediate(v, amp_texture_extent(in),
                                                    AMP_MAKE_TYPE(AMP_SCALAR_FLOAT, d[0].spec.src_n),
                                                    src.bits <= 16 && d[0].spec.dst_levels == 255.0f && !fixed ? 16 : 32);
        if (!tmp) return amp_last_status();
        d[0].dst = tmp;
        d[1].src = tmp;
        d[1].orig = in;
    }
    /* a sum's weights past radius 63 in the scratch buffer */
    bool sum = f && (f->op == AMP_IMAGE_GAUSSIAN || f->op == AMP_IMAGE_BOX || f->op == AMP_IMAGE_SHARPEN);
    size_t wsize = sum && base.spec.radius >= 64 ? (size_t)(base.spec.radius + 1) * sizeof(float) : 0;
    return amp__filter_record(v, d, plan.count, wsize ? weights : NULL, wsize ? wsize : plan.memory);
}

static amp_status check_call(amp_texture *src, amp_texture *dst)
{
    amp_status st = check_texture(src, "source");
    if (st == AMP_OK) st = check_texture(dst, "destination");
    if (st != AMP_OK) return st;
    if (src == dst) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter: the source and destination are one texture");
    amp__device *d = amp_texture_accelerator_view(src)->dev;
    if (amp_texture_accelerator_view(dst)->dev != d)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter: the source is on \"%s\", the destination on \"%s\"",
                         d->props.deviceName, amp_texture_accelerator_view(dst)->dev->props.deviceName);
    if (!d->write_without_format)
        return amp__fail(AMP_ERROR_UNSUPPORTED,
                         "filter: \"%s\" cannot store to images without a format "
                         "(shaderStorageImageWriteWithoutFormat), which the built-in filters need",
                         d->props.deviceName);
    if (!amp__texture_storage_ok(dst))
        return amp__fail(AMP_ERROR_UNSUPPORTED, "filter: \"%s\" cannot store to %s images (the destination)",
                         d->props.deviceName, amp_texture_format_name(dst));
    return amp__device_check(d);
}

/* The checks of a planned chain against its source and destination. */
static amp_status check_plan(const group *g, int n, const amp_image_filter *fs, int count, amp_texture *src,
                             amp_texture *dst)
{
    texinfo s = info_of(src), o = info_of(dst);
    amp_extent e = g[n - 1].out_extent;
    if (e.dims[0] != o.extent.dims[0] || e.dims[1] != o.extent.dims[1])
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "filter: the chain makes %d x %d (width x height) but the destination is %d x %d",
                         e.dims[1], e.dims[0], o.extent.dims[1], o.extent.dims[0]);
    bool gray = false;
    for (int i = 0; i < count; i++) gray |= fs[i].op == AMP_IMAGE_GRAYSCALE;
    if (!gray && o.components != s.components)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "filter: the source has %d components and the destination %d; they must match (except "
                         "after grayscale)", s.components, o.components);
    const VkPhysicalDeviceLimits *lim = &amp_texture_accelerator_view(src)->dev->props.limits;
    for (int i = 0; i < n; i++) {
        amp_extent x = g[i].out_extent;
        if ((uint32_t)x.dims[0] > lim->maxImageDimension2D || (uint32_t)x.dims[1] > lim->maxImageDimension2D)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "filter %d (%s): %d x %d exceeds the device's largest 2-D image, %u", g[i].lead_index,
                             amp_image_op_name(g[i].lead ? g[i].lead->op : AMP_IMAGE_COPY), x.dims[1], x.dims[0],
                             lim->maxImageDimension2D);
    }
    return AMP_OK;
}

/* amp_image_filter_chain without its trace span; where shown is not NULL, the passes' plans
 * into shown[0..*passes) instead, nothing recorded (amp_image_filter_explain). */
static amp_status filter_chain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst,
                               amp__pass_plan *shown, int *passes)
{
    amp_status st = check_call(src, dst);
    if (st != AMP_OK) return st;
    group g[MAX_CHAIN];
    int n = 0;
    texinfo s = info_of(src);
    st = split_chain(filters, count, s.extent, s.components, amp_texture_extent(dst), g, &n);
    if (st == AMP_OK) st = check_plan(g, n, filters, count, src, dst);
    if (st != AMP_OK) return st;
    amp_accelerator_view *v = amp_texture_accelerator_view(src);
    amp__lock(v->dev);
    /* the textures between passes, then every pass's checks, before recording */
    amp_texture *tex[MAX_CHAIN + 1];
    tex[0] = src;
    tex[n] = dst;
    for (int i = 0; i + 1 < n && st == AMP_OK; i++) {
        tex[i + 1] = amp__filter_intermediate(v, g[i].out_extent, AMP_MAKE_TYPE(s.scalar, g[i].out_components),
                                              s.bits);
        if (!tex[i + 1]) st = amp_last_status();
    }
    for (int i = 0; i < n && st == AMP_OK; i++) st = check_pass(&g[i], tex[i], tex[i + 1]);
    for (int i = 0; i < n && st == AMP_OK; i++)
        st = run_pass(v, &g[i], filters, tex[i], tex[i + 1], s, shown ? &shown[i] : NULL);
    if (passes) *passes = n;
    amp__filter_pool_release(v->dev);
    amp__unlock(v->dev);
    return st;
}

/* amp_image_filter_prepare(_extent): src NULL where the source's extent is not known. */
static amp_status prepare(amp_accelerator_view *view, const amp_image_filter *filters, int count, amp_type type,
                          int bits, const amp_extent *src, const char *fn)
{
    if (!filters || count < 1 || count > MAX_CHAIN)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %d filters (1 to %d)", fn, count, MAX_CHAIN);
    if (src && src->rank != 2)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the source's extent is %d-D; filters take 2-D textures", fn,
                         src->rank);
    if (src && (src->dims[0] < 1 || src->dims[1] < 1))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the source's extent is %d x %d (width x height); it must "
                         "be at least 1 x 1", fn, src->dims[1], src->dims[0]);
    /* The pipelines depend on the types, the filters and their parameters, and for
       conv_block.comp and packed.comp on the image's size: the same chain on a 16 x 16
       texture, or on one of the source's size where that is given (left uninitialized: so
       packed.comp's one pass of images up to PACKED_SPLIT_PIXELS), or on a megapixel one
       (uninitialized) where a pass would take conv_block.comp or packed.comp's two passes
       on the image (on any large image when its size is not known), with resizes to 8 x 8
       of the same interpolation, makes them all. packed.comp: any pass from an 8-bit
       RGBA image (gray: equalize) on a CPU device. A resize of the source itself by a whole factor k
       (shrink_factor: one of its constants, in resize.comp and packed.comp) shrinks a
       stand-in by k, a megapixel one where packed.comp would take the source. */
    if (!view && !(view = amp_default_view())) return amp_last_status();
    amp_image_filter small[MAX_CHAIN];
    memcpy(small, filters, (size_t)count * sizeof *small);
    bool packed = !amp__filter_gpu_paths(view) && view->dev->int64 && bits == 8 &&
                  amp_type_scalar(type) == AMP_SCALAR_UNORM &&
                  (amp_type_components(type) == 4 || amp_type_components(type) == 1), big = packed && !src;
    int shrink = 0, shrunk = -1; /* the factor of a whole-factor resize of the source, its index */
    if (src) { /* the passes' leading filters at their destinations' sizes */
        group g[MAX_CHAIN];
        int n = 0;
        amp_status st = split_chain(filters, count, *src, amp_type_components(type), (amp_extent){0}, g, &n);
        if (st != AMP_OK) return st;
        for (int j = 0; j < n; j++) {
            int64_t pixels = (int64_t)g[j].out_extent.dims[0] * g[j].out_extent.dims[1];
            /* (packed.comp's one-pass sizes, PACKED_MIN_PIXELS up to PACKED_SPLIT_PIXELS, take
               the source's own extent below) */
            big |= (g[j].lead &&
                    amp__filter_block_pass(view, g[j].lead, amp__filter_radius(g[j].lead, bits), pixels)) ||
                   (packed && pixels >= PACKED_SPLIT_PIXELS);
            if (!shrink && amp_extent_equal(g[j].in_extent, *src) && g[j].lead &&
                g[j].lead->op == AMP_IMAGE_RESIZE && (shrink = amp__filter_shrink_factor(g[j].lead, *src, g[j].out_extent)))
                shrunk = g[j].lead_index;
        }
        big |= shrink && packed && (int64_t)src->dims[0] * src->dims[1] >= PACKED_MIN_PIXELS;
    }
    int side = !shrink ? 0 : big ? (1024 + shrink - 1) / shrink : 2; /* the shrunk stand-in's (2k <= 16) */
    for (int i = 0; i < count; i++) {
        if (!src)
            big |= amp__filter_block_pass(view, &small[i], amp__filter_radius(&small[i], bits), BLOCK_MIN_PIXELS);
        if (small[i].op == AMP_IMAGE_RESIZE) small[i].width = small[i].height = i == shrunk ? side : 8;
    }
    /* a small source's own extent where it is given: whether a window's border reflects
       once (FLAG_NEAR) depends on it */
    bool exact = src && !big && !shrink;
    amp_extent in = shrink ? amp_extent2(side * shrink, side * shrink) : big ? amp_extent2(1024, 1024)
                    : exact ? *src : amp_extent2(16, 16), out;
    amp_status st = amp_image_filter_output_extent(small, count, in, &out);
    if (st != AMP_OK) return st;
    float zeros[16 * 16 * 4] = {0}; /* the largest texel: 4 floats */
    int comps = amp_type_components(type);
    amp_texture *tsrc = amp_texture_create(view, &(amp_texture_desc){.extent = in, .type = type,
        .bits_per_scalar_element = bits, .data = big || exact ? NULL : zeros,
        .data_size = big || exact ? 0 : 16 * 16 * (size_t)comps * (size_t)(bits / 8)});
    if (!tsrc) return amp_last_status();
    amp_type out_type = AMP_MAKE_TYPE(amp_type_scalar(type), amp_image_filter_output_components(small, count, comps));
    amp_texture *tdst = amp_texture_create(view, &(amp_texture_desc){.extent = out, .type = out_type,
                                                                       .bits_per_scalar_element = bits});
    st = tdst ? amp_image_filter_chain(small, count, tsrc, tdst) : amp_last_status();
    /* submitted now: a driver may compile a pipeline only when it first runs it
       (lavapipe does), and that should happen now, in the background */
    if (st == AMP_OK) st = amp_view_flush(amp_texture_accelerator_view(tsrc));
    amp_texture_destroy(&tdst);
    amp_texture_destroy(&tsrc);
    return st;
}

amp_status amp_image_filter_prepare(amp_accelerator_view *view, const amp_image_filter *filters, int count,
                                    amp_type type, int bits)
{
    return prepare(view, filters, count, type, bits, NULL, "amp_image_filter_prepare");
}

amp_status amp_image_filter_prepare_extent(amp_accelerator_view *view, const amp_image_filter *filters, int count,
                                           amp_type type, int bits, amp_extent src)
{
    return prepare(view, filters, count, type, bits, &src, "amp_image_filter_prepare_extent");
}

amp_status amp_image_filter_chain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst)
{
    uint64_t span = amp__trace_begin();
    amp_status st = filter_chain(filters, count, src, dst, NULL, NULL);
    amp__trace_end(span, "record", "filter", NULL);
    return st;
}

amp_status amp_image_filter_explain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst,
                                    char *text, size_t size)
{
    if (!text && size)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_image_filter_explain: NULL text of %zu bytes", size);
    amp__pass_plan *plans = calloc(MAX_CHAIN, sizeof *plans);
    if (!plans) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    int n = 0;
    amp_status st = filter_chain(filters, count, src, dst, plans, &n);
    group g[MAX_CHAIN];
    int groups = 0;
    texinfo s = st == AMP_OK ? info_of(src) : (texinfo){0};
    if (st == AMP_OK) st = split_chain(filters, count, s.extent, s.components, amp_texture_extent(dst), g, &groups);
    size_t used = 0;
    if (size) text[0] = 0;
#define PUT(...)                                                                                        \
    used += (size_t)snprintf(used < size ? text + used : NULL, used < size ? size - used : 0, __VA_ARGS__)
    for (int i = 0; st == AMP_OK && i < n; i++) {
        const group *gr = &g[i];
        amp_extent in = gr->in_extent, out = gr->out_extent;
        PUT("pass %d: %s", i + 1, gr->lead ? amp_image_op_name(gr->lead->op) : "copy");
        if (gr->lead) PUT(" (filter %d)", gr->lead_index);
        if (gr->count == 1) PUT(" + 1 pointwise (filter %d)", gr->first);
        if (gr->count > 1) PUT(" + %d pointwise (filters %d-%d)", gr->count, gr->first, gr->first + gr->count - 1);
        PUT(", %d x %d -> %d x %d: rule \"%s\"\n", in.dims[1], in.dims[0], out.dims[1], out.dims[0], plans[i].rule);
        const amp__filter_dispatch *d0 = &plans[i].d[0];
        bool packed = d0->shader == AMP__SHADER_PACKED || d0->shader == AMP__SHADER_PACKED_WIDE;
        if (plans[i].count && packed && (d0->spec.flags & FLAG_TABLE)) /* (pass.c's record_packed adds it) */
            PUT("  %s, its table of codes first: pass %d, 1 x 1 groups\n", amp__filter_shader_name(d0->shader),
                PACKED_TABLE_PASS);
        for (int k = 0; k < plans[i].count; k++) {
            const amp__filter_dispatch *d = &plans[i].d[k];
            PUT("  %s, mode %s, pass %d, flags 0x%x, radius %d, %u x %u groups\n", amp__filter_shader_name(d->shader),
                amp__filter_mode_name(d->shader, &d->spec), d->spec.pass, (unsigned)d->spec.flags, d->spec.radius,
                d->groups[0], d->groups[1]);
        }
    }
#undef PUT
    free(plans);
    return st;
}

amp_status amp_image_filter_apply(const amp_image_filter *filter, amp_texture *src, amp_texture *dst)
{
    return amp_image_filter_chain(filter, filter ? 1 : 0, src, dst);
}
