/* Chains of filters: planned into passes (a neighborhood filter or resize, or a
 * copy, followed by the pointwise filters fused into it), recorded on the source's
 * view with the intermediates in pooled textures of the source's type. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter_internal.h"

#define MAX_CHAIN 64
#define BLOCK_SPAN (16 * BLOCK_OUTPUTS) /* conv_block.comp: pixels a work group covers in each direction */
#define BLOCK_MIN_PIXELS (1 << 20) /* the smallest destination that conv_block.comp is for */
#define SUBGROUP_STRIP 32   /* and the rows of a subgroup's strip (16 as fast; 64 slower) */
#define INTEGER_SUM_MAX 16  /* the largest sum S of integer weights W_k / S (255 S^2 < 2^16) */
#define MEDIAN_WIDE_W 2   /* median_net.glsl's AMP_MEDIAN_WIDE_W x _H: a GPU's 5 x 5 medians an invocation */
#define MEDIAN_WIDE_H 4
#define MEDIAN_NARROW_W 1 /* and AMP_MEDIAN_NARROW_W x _H: a CPU device's */
#define MEDIAN_NARROW_H 2
#define MMA_MIN_RADIUS 9 /* conv_mma.comp's smallest radius (below, conv_run.comp is as fast) */
#define MMA_MIN_FIXED 5  /* and for fixed sums (conv_run.comp's rows there are 32-bit, slower) */
#define MMA_PER_SM 2     /* and its work groups for each SM of the device, what an SM runs at once \
                            (the fastest of 1 to 4, and faster than strips of 512 rows each a
                            group's) */
#define MMA_ROWS 512     /* and, where the device does not say its SMs, the rows of a group's share */
#define MMA_SHARED 20736 /* and the bytes of shared memory it declares */
#define PACKED_MIN_PIXELS (1 << 18) /* and the smallest image it is for at once, 512 x 512: its
                                       first call about as long as the image path's, the next
                                       ones several times as fast (docs/perf.md) */
#define PACKED_SMALL_PIXELS (1 << 12) /* and below, from 4096 pixels (64 x 64), once the pass
                                         has earned its pipeline: its first call there takes
                                         longer than the image path's, the next ones far less */
#define PACKED_TIER_PIXELS (1 << 19) /* and what a pass's small images earn it: the pixels they
                                        have run on the image paths (8 calls of 256 x 256, 32 of
                                        128 x 128), about as long as making the pipeline takes,
                                        so that a few calls pay at most twice their best */
#define PACKED_SPLIT_PIXELS (1 << 19) /* and the smallest image whose window passes are two, the
                                         quads inside and those at the edges; below, one pass of
                                         the edges' code, whose one pipeline is quicker to make
                                         and as fast on images this small */

/* Whether f is one of conv.comp's separable filters. */
static bool separable(const amp_image_filter *f)
{
    return f->op == AMP_IMAGE_GAUSSIAN || f->op == AMP_IMAGE_BOX || f->op == AMP_IMAGE_SHARPEN ||
           f->op == AMP_IMAGE_ERODE || f->op == AMP_IMAGE_DILATE;
}

/* Whether conv_block.comp runs filter f (radius r, its destination `pixels` large) on v's
 * device: a CPU device (lavapipe), where a block of outputs per invocation with its
 * window in registers is many times as fast as the shared-memory tile. Its machine code
 * takes lavapipe longer to make (once per machine: Mesa caches it), so it is for images
 * of a megapixel or more, where it pays. */
static bool block_pass(const amp_accelerator_view *v, const amp_image_filter *f, int r, int64_t pixels)
{
    return separable(f) && r <= BLOCK_RADIUS && pixels >= BLOCK_MIN_PIXELS && amp__device_is_cpu(v->dev);
}

static atomic_bool force_gpu;

void amp__filter_force_gpu_paths(bool on) { atomic_store(&force_gpu, on); }

static atomic_bool tables_off;

void amp__filter_tables_off(bool on) { atomic_store(&tables_off, on); }

/* Whether v's device takes the paths made for GPUs (conv_run.comp, median_half): not a
 * CPU device, unless a test forces them. */
static bool gpu_paths(const amp_accelerator_view *v) { return !amp__device_is_cpu(v->dev) || atomic_load(&force_gpu); }

/* The rows an invocation of packed.comp's sums of radius r walks down (its PACKED_STRIP). */
static int packed_strip(int r) { return PACKED_STRIP_OF(r); }

/* The quads each side that packed.comp's window of radius r reaches (its quads_aside). */
static int packed_aside(int r) { return (r + 3) / 4; }

/* packed.comp's first quad from the left whose window of radius r reaches past the right
 * edge of an image w wide, or packed_aside if that is more (its right_edge): quads from
 * packed_aside up to it are its first pass's. */
static int packed_edge(int w, int r)
{
    int edge = w >= 4 + r ? (w - 4 - r) / 4 + 1 : 1;
    return edge > packed_aside(r) ? edge : packed_aside(r);
}

#define PACKED_COUNTS 256 /* packed.comp's equalize: the invocations that count its codes, each into its own 256 words */

static atomic_bool tier_now;

void amp__filter_tier_now(bool on) { atomic_store(&tier_now, on); }

static atomic_bool split_now;

void amp__filter_split_now(bool on) { atomic_store(&split_now, on); }

enum { PACKED_NO, PACKED_YES, PACKED_EARNED }; /* packed_takes */

/* Whether packed.comp takes a w x h source of `per` texels a quad (16 bytes) on v's device:
 * a CPU device with 64-bit integers in shaders (the pointwise passes store pairs of quads as
 * 64-bit vectors), and the view's buffer (the source, and from the next 32 bytes the result,
 * its rows a pad quad longer at most: pass.c's record_packed) within a storage buffer
 * binding; PACKED_YES from PACKED_MIN_PIXELS, PACKED_EARNED from PACKED_SMALL_PIXELS (the
 * pass takes it once it has earned its pipelines: earned). */
static int packed_takes(const amp_accelerator_view *v, int w, int h, int per)
{
    int quads = (w + per - 1) / per;
    int64_t pixels = (int64_t)w * h;
    uint64_t bytes = amp__packed_source_bytes(quads, h) + (uint64_t)(quads + 1) * 16 * (uint64_t)h;
    if (gpu_paths(v) || !v->dev->int64 || pixels < PACKED_SMALL_PIXELS ||
        bytes > v->dev->props.limits.maxStorageBufferRange)
        return PACKED_NO;
    return pixels >= PACKED_MIN_PIXELS ? PACKED_YES : PACKED_EARNED;
}

/* Whether a pass of a small image (PACKED_EARNED) takes packed.comp's n dispatches d: their
 * pipelines made, or earned with this pass's pixels (amp__filter_tier: it credits them
 * otherwise, and the pass takes the image paths). Only passes whose bytes are the image
 * paths' earn them, so that a filter's result never depends on how often it ran: integer
 * sums, OpenCV's fixed-point gaussians, erode, dilate, the medians and equalize, with no
 * pointwise program after them (pointwise passes, whose image path is about as fast on
 * small images, keep it). */
static bool earned(const amp_accelerator_view *v, const amp__filter_dispatch *d, int n)
{
    if (atomic_load(&tier_now)) return true;
    int m = d[0].spec.mode;
    bool exact = m == PACKED_MODE_SUM || m == PACKED_MODE_SUM_SHIFT || m == PACKED_MODE_ERODE || m == PACKED_MODE_DILATE ||
                 m == PACKED_MODE_MEDIAN3 || m == PACKED_MODE_MEDIAN5 || m == PACKED_MODE_EQUALIZE ||
                 (m == PACKED_MODE_FLOAT_SUM && (d[0].spec.flags & FLAG_FIXED));
    if (!exact || d[0].spec.ops) return false;
    int64_t pixels = (int64_t)d[0].params.size[0] * d[0].params.size[1];
    return amp__filter_tier(v, d, n, pixels, PACKED_TIER_PIXELS);
}

/* Whether packed.comp may take the pass's pointwise program as a table of codes
 * (FLAG_TABLE): each channel of the result a function of that channel of the source, after
 * a grayscale first if there is one (which makes the colors one gray code). No op but the
 * first grayscale mixes channels, and without it no intermediate of one or two components
 * spreads its gray over the colors. */
static bool table_program(const amp__filter_spec *s)
{
    bool gray_first = s->ops > 0 && (s->op[0] & 255) == AMP_IMAGE_GRAYSCALE;
    if (s->ops == 0 || s->src_n < 3 || atomic_load(&tables_off) || (gray_first && s->ops == 1)) return false;
    for (int i = gray_first; i < s->ops; i++) {
        int op = s->op[i] & 255;
        bool per_channel = op == AMP_IMAGE_INVERT || op == AMP_IMAGE_GAMMA || op == AMP_IMAGE_BRIGHTNESS_CONTRAST ||
                           op == AMP_IMAGE_THRESHOLD || op == AMP_IMAGE_SRGB_TO_LINEAR ||
                           op == AMP_IMAGE_LINEAR_TO_SRGB || op == AMP_IMAGE_TONEMAP;
        if (!per_channel || (!gray_first && i + 1 < s->ops && (s->op[i] >> 8) < 3)) return false;
    }
    return true;
}

/* Whether a table program (table_program) is one op whose table is a shape of packed.comp's
 * (FLAG_SHAPE): a step between two pieces, each a constant or the code with its bits
 * flipped, in each channel: invert and the thresholds, after a grayscale or not. (Two such
 * ops can make three pieces: a truncation of an inverted truncation clamps both ways.) The
 * table's dispatch finds the shapes from the table itself. */
static bool shape_program(const amp__filter_spec *s)
{
    int gray_first = (s->op[0] & 255) == AMP_IMAGE_GRAYSCALE, op = s->op[gray_first] & 255;
    return s->ops == gray_first + 1 && (op == AMP_IMAGE_INVERT || op == AMP_IMAGE_THRESHOLD);
}

/* d[0..n) made packed.comp's dispatches p[0..n) where it takes them (takes: packed_takes's
 * answer; PACKED_EARNED: where the pass has earned them): n, else 0 and d as it was. */
static int take_packed(const amp_accelerator_view *v, amp__filter_dispatch *d, const amp__filter_dispatch *p, int n,
                       int takes)
{
    if (takes == PACKED_EARNED && !earned(v, p, n)) return 0;
    memcpy(d, p, (size_t)n * sizeof *p);
    return n;
}

/* packed_pass's two dispatches of a window filter of an image w wide, from d[0] as
 * specialized: the quads whose window lies inside the image's columns, and those at the
 * edges; 2. */
static int packed_window(amp__filter_dispatch *d, int w)
{
    int quads = (w + 3) / 4;
    int edge = packed_edge(w, d->spec.radius), aside = packed_aside(d->spec.radius);
    d[1] = d[0];
    d[1].spec.pass = 1;
    d[0].groups[0] = (uint32_t)(edge - aside + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
    d[1].groups[0] = (uint32_t)(aside + quads - edge + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
    return 2;
}

/* Makes d a pass of packed.comp on v's device where it can be one: a CPU device (lavapipe,
 * where it is several times as fast as the image paths), from an
 * 8-bit RGBA image of 512 x 512 pixels or more (from 4096 pixels where the pass has earned its
 * pipeline: packed_takes) into one of the same format and size, or into an
 * 8-bit gray (and alpha) one where the pass ends in grayscale (RGB too
 * where the device keeps it as RGBA), the two copies of the image in one storage buffer.
 * mode: the copy and pointwise filters, an integer sum (rounded by a shift where T is a
 * power of two), erode, dilate, a float sum, sharpen, the 3 x 3 or the 5 x 5 median, the
 * bilateral, up to
 * PACKED_RADIUS (packed_wide, the same shader with a larger ring, up to
 * PACKED_WIDE_RADIUS); but for the first, d[0] takes the quads whose window lies inside
 * the image's columns, d[1] those at the edges (below PACKED_SPLIT_PIXELS, d[0] all of them
 * through the edges' code: one pipeline to make, not two). The dispatches it made, or 0. */
static int packed_pass(const amp_accelerator_view *v, amp__filter_dispatch *d, int mode)
{
    bool resize = mode == PACKED_MODE_SHRINK || mode == PACKED_MODE_PICK, sum = mode != PACKED_MODE_POINTWISE && !resize;
    const amp__format *in = amp__texture_format(d->src), *out = amp__texture_format(d->dst);
    int w = d->params.size[0], h = d->params.size[1], quads = (w + 3) / 4;
    int ow = d->params.size[2], oh = d->params.size[3], k = resize ? d->spec.radius : 1;
    /* into the same format, or a pass that ends in grayscale: gray, or gray and alpha */
    bool same = out->vk == VK_FORMAT_R8G8B8A8_UNORM && d->spec.src_n == d->spec.dst_n;
    bool gray = (out->vk == VK_FORMAT_R8_UNORM && d->spec.dst_n == 1) ||
                (out->vk == VK_FORMAT_R8G8_UNORM && d->spec.dst_n == 2);
    int takes = packed_takes(v, w, h, 4);
    if (!takes || in->vk != VK_FORMAT_R8G8B8A8_UNORM || !(same || gray) || w != k * ow || h != k * oh) return 0;
    amp__filter_dispatch p[2] = {*d};
    p->shader = p->spec.radius > PACKED_RADIUS ? AMP__SHADER_PACKED_WIDE : AMP__SHADER_PACKED;
    if (table_program(&p->spec)) p->spec.flags |= FLAG_TABLE | (shape_program(&p->spec) ? FLAG_SHAPE : 0);
    int strip = sum ? packed_strip(p->spec.radius) : resize ? PACKED_RESIZE_STRIP : PACKED_POINT_STRIP;
    int rows = ((sum ? h : oh) + strip - 1) / strip; /* invocations down */
    p->groups[1] = (uint32_t)(rows + PACKED_GROUP_Y - 1) / PACKED_GROUP_Y;
    if (!sum) {
        p->spec.mode = mode;
        int across = mode == PACKED_MODE_POINTWISE ? ((ow + 3) / 4 + 1) / 2 : (ow + 3) / 4; /* pairs of quads, or quads */
        p->groups[0] = (uint32_t)(across + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
        return take_packed(v, d, p, 1, takes);
    }
    uint32_t t = (uint32_t)p->params.counts[1]; /* T: a power of two rounds by a shift */
    p->spec.mode = mode == PACKED_MODE_SUM && !(t & (t - 1)) ? PACKED_MODE_SUM_SHIFT : mode;
    if ((int64_t)w * h >= PACKED_SPLIT_PIXELS || atomic_load(&split_now))
        return take_packed(v, d, p, packed_window(p, w), takes);
    p->spec.pass = 1; /* one pass: PASS 1's code for every quad */
    p->spec.flags |= FLAG_WHOLE_ROWS;
    p->groups[0] = (uint32_t)(quads + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
    return take_packed(v, d, p, 1, takes);
}

/* Makes d[0..2] packed.comp's equalize (PACKED_MODE_EQUALIZE: count, table, map) where it can
 * take the pass, an 8-bit gray image of 512 x 512 pixels or more (from 4096 pixels where the pass
 * has earned its pipelines: packed_takes) into one on a CPU device: the
 * bytes of memory its passes need (their table, and counts of each code by each of
 * PACKED_COUNTS invocations), else 0. */
static size_t packed_equalize(const amp_accelerator_view *v, amp__filter_dispatch *d)
{
    const amp__format *in = amp__texture_format(d->src), *out = amp__texture_format(d->dst);
    int w = d->params.size[0], h = d->params.size[1], quads = (w + 15) / 16, counts = h < PACKED_COUNTS ? h : PACKED_COUNTS;
    int takes = packed_takes(v, w, h, 16);
    if (!takes || in->vk != VK_FORMAT_R8_UNORM || out->vk != VK_FORMAT_R8_UNORM) return 0;
    amp__filter_dispatch p[3];
    p[0] = d[0];
    p[0].shader = AMP__SHADER_PACKED;
    p[0].spec.mode = PACKED_MODE_EQUALIZE;
    p[0].params.counts[1] = counts;
    p[1] = p[2] = p[0];
    p[0].groups[0] = (uint32_t)(counts + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
    p[0].groups[1] = p[1].groups[0] = p[1].groups[1] = 1;
    p[1].spec.pass = 1;
    p[2].spec.pass = 2;
    p[2].groups[0] = (uint32_t)(quads + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
    p[2].groups[1] = (uint32_t)(h + PACKED_POINT_STRIP - 1) / PACKED_POINT_STRIP;
    if (!take_packed(v, d, p, 3, takes)) return 0;
    return PACKED_TABLE_BYTES + (size_t)counts * 256 * sizeof(uint32_t);
}

/* The factor k by which resize f makes out from in where that is packed.comp's mean of
 * k x k blocks (PACKED_MODE_SHRINK) or its every k-th texel (PACKED_MODE_PICK), else 0: a whole k up
 * to PACKED_RADIUS both ways, for INTER_AREA, INTER_NEAREST, and INTER_LINEAR's halving
 * (OpenCV's 11-bit weights of 1/2 round to the same bytes). */
static int shrink_factor(const amp_image_filter *f, amp_extent in, amp_extent out)
{
    int k = out.dims[1] > 0 ? in.dims[1] / out.dims[1] : 0;
    bool whole = k >= 1 && k <= PACKED_RADIUS && in.dims[1] == k * out.dims[1] && in.dims[0] == k * out.dims[0];
    return whole && (f->interpolation == AMP_INTERP_AREA || f->interpolation == AMP_INTERP_NEAREST ||
                     (f->interpolation == AMP_INTERP_LINEAR && k == 2)) ? k : 0;
}

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

/* The subgroup size with which conv_subgroup.comp runs filter f (radius r) on v's device,
 * or 0: an NVIDIA GPU (whose compute subgroups are always the 32 it reports: elsewhere a
 * compiler may choose a narrower one, which the work groups here would not cover),
 * with at least 2r + 8 invocations (the middle ones write) that divide the work group:
 * about twice as fast as the shared-memory tile. (Forced, a CPU device takes it too
 * where its subgroups are wider than 2r.) */
static int subgroup_pass(const amp_accelerator_view *v, const amp_image_filter *f, int r)
{
    int size = (int)v->dev->subgroup_shuffle_size; /* 0: no shuffles */
    bool forced = atomic_load(&force_gpu);
    bool fits = forced ? size > 2 * r : amp__device_is_nvidia(v->dev) && size >= 2 * r + 8;
    bool walks = separable(f) || f->op == AMP_IMAGE_SOBEL || (f->op == AMP_IMAGE_MEDIAN && r == 1);
    return walks && r <= SUBGROUP_RADIUS && size > 0 && fits && SUBGROUP_GROUP % size == 0 ? size : 0;
}

/* Whether a pass of spec s goes from 8-bit codes into 8-bit codes (what the integer
 * sums, the 16-bit-float walks and the tensor-core sums are for). */
static bool eight_bits(const amp__filter_spec *s) { return s->src_levels == 255.0f && s->dst_levels == 255.0f; }

/* Whether d's source and destination both take uint views, for the modules that read and
 * write codes (pass.c's takes_codes); if so, FLAG_WORDS where both take word views too
 * (RGBA8: a texel's codes one word), and FLAG_TABLE where the pass's pointwise program is
 * a table's (table_program) on an RGBA source: those modules run it on the result's codes
 * (words.glsl), through a table each work group makes. */
static bool codes_between(amp__filter_dispatch *d)
{
    if (!amp__texture_uint_ok(d->src, false) || !amp__texture_uint_ok(d->dst, false)) return false;
    if (amp__texture_uint_ok(d->src, true) && amp__texture_uint_ok(d->dst, true)) d->spec.flags |= FLAG_WORDS;
    if (d->spec.src_n == 4 && table_program(&d->spec)) d->spec.flags |= FLAG_TABLE;
    return true;
}

/* conv_subgroup.comp's work groups for d: subgroups of sub invocations, each writing its
 * sub - 2r middle columns down a strip of `strip` rows (P.counts.x). */
static void subgroup_cover(amp__filter_dispatch *d, int sub, int strip)
{
    int cols = sub - 2 * d->spec.radius, rows = strip * (SUBGROUP_GROUP / sub); /* a group writes */
    d->params.counts[0] = strip;
    d->groups[0] = (uint32_t)((d->params.size[2] + cols - 1) / cols);
    d->groups[1] = (uint32_t)((d->params.size[3] + rows - 1) / rows);
}

/* Whether d's border, if constant, is whole 8-bit codes (0.25 is 63.75 codes: no). */
static bool border_codes(const amp__filter_dispatch *d)
{
    bool codes = true;
    for (int c = 0; c < 4 && d->spec.border == AMP_BORDER_CONSTANT; c++) {
        float k = d->params.border_value[c] * 255.0f;
        codes &= k == floorf(k) && k >= 0 && k <= 255;
    }
    return codes;
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
    bool codes = eight_bits(&d->spec) && f->op != AMP_IMAGE_SHARPEN && border_codes(d);
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

/* Whether conv_mma.comp runs the pass of spec s on v's device (sum: a weighted sum): one of
 * radius MMA_MIN_RADIUS to MMA_RADIUS from 8 bits to 8 bits on a device with
 * cooperative matrices (tensor cores) and room for its work group, where one pass on
 * them beats conv_run.comp's two. */
static bool mma_pass(const amp_accelerator_view *v, bool sum, const amp__filter_spec *s)
{
    const VkPhysicalDeviceLimits *lim = &v->dev->props.limits;
    int least = s->flags & FLAG_FIXED ? MMA_MIN_FIXED : MMA_MIN_RADIUS;
    return sum && s->radius >= least && s->radius <= MMA_RADIUS && eight_bits(s) &&
           v->dev->coop_matrix && lim->maxComputeSharedMemorySize >= MMA_SHARED &&
           lim->maxComputeWorkGroupInvocations >= MMA_GROUP && lim->maxComputeWorkGroupSize[0] >= MMA_GROUP;
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
    if (f->op != AMP_IMAGE_GAUSSIAN || !eight_bits(&d->spec) || r > AMP__FIXED_RADIUS ||
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
static amp_status plan(const amp_image_filter *fs, int count, amp_extent src, int components, amp_extent dst,
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
    amp_status st = plan(filters, count, src, 4, (amp_extent){0}, g, &n);
    if (st == AMP_OK) *out = g[n - 1].out_extent;
    return st;
}

int amp_image_filter_output_components(const amp_image_filter *filters, int count, int components)
{
    for (int i = 0; filters && i < count; i++)
        if (filters[i].op == AMP_IMAGE_GRAYSCALE) components = after_gray(components);
    return components;
}

/* Work groups enough for d's destination, each covering span x span pixels. */
static void cover(amp__filter_dispatch *d, int span)
{
    d->groups[0] = (uint32_t)(d->params.size[2] + span - 1) / (uint32_t)span;
    d->groups[1] = (uint32_t)(d->params.size[3] + span - 1) / (uint32_t)span;
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
    cover(d, 16);
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

/* Records one pass from in to out. */
static amp_status run_pass(amp_accelerator_view *v, const group *gr, const amp_image_filter *fs, amp_texture *in,
                           amp_texture *out, texinfo src)
{
    amp__filter_dispatch d[3];
    const amp_image_filter *f = gr->lead;
    base_dispatch(gr, fs, in, out, src, &d[0]);
    int w = d[0].params.size[2], h = d[0].params.size[3], r = d[0].spec.radius;
    switch (f ? f->op : AMP_IMAGE_COPY) {
    case AMP_IMAGE_GAUSSIAN: case AMP_IMAGE_BOX: case AMP_IMAGE_SHARPEN: case AMP_IMAGE_ERODE:
    case AMP_IMAGE_DILATE: {
        float weights[4097];
        bool sum = f->op == AMP_IMAGE_GAUSSIAN || f->op == AMP_IMAGE_BOX || f->op == AMP_IMAGE_SHARPEN;
        if (f->op == AMP_IMAGE_BOX)
            for (int k = 0; k <= r; k++) weights[k] = 1.0f / (float)(2 * r + 1);
        else if (sum) amp__gaussian_weights(r, f->op == AMP_IMAGE_SHARPEN && f->sigma <= 0 ? 1.0 : f->sigma, weights);
        d[0].shader = AMP__SHADER_CONV;
        d[0].spec.mode = sum ? CONV_MODE_SUM : f->op == AMP_IMAGE_ERODE ? CONV_MODE_ERODE : CONV_MODE_DILATE;
        if (f->op == AMP_IMAGE_SHARPEN) {
            float amount = f->amount != 0 ? f->amount : 1.0f;
            d[0].params.f[0] = 1.0f + amount;
            d[0].params.f[1] = -amount;
        }
        /* an integer sum (its weights in the parameter block) or OpenCV's fixed-point gaussian
           (weights in 256ths); the weights in the parameter block up to radius 63, else in
           the scratch buffer */
        bool integer = r <= TILE_RADIUS && sum && integer_sum(&d[0], f, weights);
        bool fixed = !integer && fixed_gaussian(&d[0], f, weights);
        size_t wsize = sum && r >= 64 ? (size_t)(r + 1) * sizeof(float) : 0;
        if (sum && r < 64 && !integer) memcpy(d[0].params.weights, weights, (size_t)(r + 1) * sizeof(float));
        int mode = integer ? PACKED_MODE_SUM : f->op == AMP_IMAGE_ERODE ? PACKED_MODE_ERODE : f->op == AMP_IMAGE_DILATE
            ? PACKED_MODE_DILATE : f->op == AMP_IMAGE_SHARPEN ? PACKED_MODE_SHARPEN : PACKED_MODE_FLOAT_SUM;
        int packed = r <= PACKED_WIDE_RADIUS && border_codes(&d[0]) ? packed_pass(v, &d[0], mode) : 0;
        if (packed) return amp__filter_record(v, d, packed, NULL, 0);
        if (r <= TILE_RADIUS) {
            int sub = subgroup_pass(v, f, r);
            if (sub) {
                /* erode and dilate of 8 bits into 8 bits in 16-bit floats, on devices with them */
                bool half = !sum && eight_bits(&d[0].spec) && v->dev->float16;
                /* sums of 8 bits into 8 bits read (and write) the codes themselves where the
                   source and the destination take uint views (the float sums' walk there
                   columns first: float_main), as erode and dilate do */
                bool float_codes = sum && !integer && eight_bits(&d[0].spec) && border_codes(&d[0]);
                bool codes = (integer || half || float_codes) && codes_between(&d[0]);
                int strip = integer || half || codes ? SUBGROUP_PRE_STRIP : SUBGROUP_STRIP;
                d[0].shader = half    ? (codes ? AMP__SHADER_CONV_SUBGROUP_HALF_CODES : AMP__SHADER_CONV_SUBGROUP_HALF)
                              : codes ? AMP__SHADER_CONV_SUBGROUP_INT
                                      : AMP__SHADER_CONV_SUBGROUP;
                subgroup_cover(&d[0], sub, strip);
            } else if (block_pass(v, f, r, (int64_t)w * h)) {
                d[0].shader = AMP__SHADER_CONV_BLOCK;
                cover(&d[0], BLOCK_SPAN);
            }
            return amp__filter_record(v, d, 1, wsize ? weights : NULL, wsize);
        }
        if (mma_pass(v, sum, &d[0].spec)) {
            d[0].shader = AMP__SHADER_CONV_MMA;
            /* a grid of equal shares of the strips' row blocks (conv_mma.comp's main) */
            uint32_t strips = (uint32_t)(w + MMA_COLUMNS - 1) / MMA_COLUMNS;
            uint32_t blocks = strips * (uint32_t)((h + 15) / 16);
            uint32_t groups = v->dev->sm_count ? MMA_PER_SM * v->dev->sm_count
                                               : strips * (uint32_t)((h + MMA_ROWS - 1) / MMA_ROWS);
            d[0].groups[0] = groups < blocks ? groups : blocks;
            d[0].groups[1] = 1;
            return amp__filter_record(v, d, 1, NULL, 0);
        }
        /* two passes: the rows into a float texture, then its columns. Into an 8-bit
         * destination from a source of at most 16 bits the rows are 16-bit floats: their
         * 11-bit mantissa moves a result by under a quarter of an 8-bit level, for half
         * the traffic of 32-bit rows; but the fixed sums', exact sums of codes, are 32-bit */
        amp_texture *tmp = amp__filter_intermediate(v, amp_texture_extent(in),
                                                    AMP_MAKE_TYPE(AMP_SCALAR_FLOAT, d[0].spec.src_n),
                                                    src.bits <= 16 && d[0].spec.dst_levels == 255.0f && !fixed ? 16 : 32);
        if (!tmp) return amp_last_status();
        d[1] = d[0];
        d[0].dst = tmp;
        d[0].spec.pass = 1;
        d[1].src = tmp;
        d[1].orig = in;
        d[1].spec.pass = 2;
        if (gpu_paths(v)) { /* RUN outputs an invocation */
            d[0].shader = d[1].shader = AMP__SHADER_CONV_RUN;
            /* pass 1: the invocations' x along the rows' y */
            d[0].groups[0] = (uint32_t)(h + RUN_GROUP_X - 1) / RUN_GROUP_X;
            d[0].groups[1] = (uint32_t)((w + RUN_GROUP_Y * RUN - 1) / (RUN_GROUP_Y * RUN));
            d[1].groups[0] = (uint32_t)(w + RUN_GROUP_X - 1) / RUN_GROUP_X;
            d[1].groups[1] = (uint32_t)((h + RUN_GROUP_Y * RUN - 1) / (RUN_GROUP_Y * RUN));
        }
        return amp__filter_record(v, d, 2, wsize ? weights : NULL, wsize);
    }
    case AMP_IMAGE_SOBEL: {
        d[0].shader = AMP__SHADER_SOBEL;
        d[0].spec.mode = (int)f->sobel;
        d[0].groups[1] = (uint32_t)((h + 16 * RUN - 1) / (16 * RUN));
        if (f->signed_output) d[0].spec.flags |= FLAG_SIGNED;
        /* 8 bits into 8 bits between textures with uint views: conv_subgroup_int's walk */
        int sub = subgroup_pass(v, f, 1);
        if (sub && eight_bits(&d[0].spec) && border_codes(&d[0]) && codes_between(&d[0])) {
            d[0].shader = AMP__SHADER_CONV_SUBGROUP_INT;
            d[0].spec.flags |= FLAG_SOBEL;
            subgroup_cover(&d[0], sub, SUBGROUP_PRE_STRIP);
        }
        break;
    }
    case AMP_IMAGE_MEDIAN: {
        /* median.comp's outputs an invocation: a walk of RUN down a column for 3 x 3, a
           tile of 5 x 5 windows, 2 x 4 on GPUs (FLAG_WIDE), 1 x 2 on CPU devices */
        bool wide = r == 2 && gpu_paths(v);
        int across = r != 2 ? 1 : wide ? MEDIAN_WIDE_W : MEDIAN_NARROW_W;
        int outputs = r == 1 ? RUN : r != 2 ? 1 : wide ? MEDIAN_WIDE_H : MEDIAN_NARROW_H;
        /* a unorm source's codes order themselves (median), a float source's keys (median_keys);
           but on CPU devices the networks (3 x 3, 5 x 5) order a unorm source's keys too:
           lavapipe's float min and max take two more instructions each, for NaNs, where
           the search of larger windows would take 32 bits of keys instead of 8 of codes */
        bool keys = d[0].spec.src_levels == 0 || (!gpu_paths(v) && r <= 2);
        d[0].shader = keys ? AMP__SHADER_MEDIAN_KEYS : AMP__SHADER_MEDIAN;
        if (wide) d[0].spec.flags |= FLAG_WIDE;
        /* 5 x 5 from 8 bits to 8 bits in 16-bit floats: a GPU's, which has them (lavapipe
           emulates them) */
        if (wide && eight_bits(&d[0].spec) && v->dev->float16) d[0].shader = AMP__SHADER_MEDIAN_HALF;
        d[0].groups[0] = (uint32_t)((w + 16 * across - 1) / (16 * across));
        d[0].groups[1] = (uint32_t)((h + 16 * outputs - 1) / (16 * outputs));
        /* 8-bit RGBA of 512 x 512 pixels or more on CPU devices: packed.comp's 3 x 3 walk, or its
           5 x 5 tile (several times as fast as median_keys, though its pipelines are slow to
           make with Mesa's shader cache empty) */
        int packed = r <= 2 && border_codes(&d[0]) ? packed_pass(v, &d[0], r == 1 ? PACKED_MODE_MEDIAN3 : PACKED_MODE_MEDIAN5) : 0;
        if (packed) return amp__filter_record(v, d, packed, NULL, 0);
        /* 3 x 3 from 8 bits into 8 bits on GPUs whose subgroups shuffle and that have 16-bit
           floats: conv_subgroup's walk across the subgroup (MODE 3), the codes themselves
           where the textures take uint views. (A constant border of no whole code gives
           the same bytes: rounding to codes keeps the order, so the median of the codes is
           the median's code.) */
        int sub = r == 1 && eight_bits(&d[0].spec) && v->dev->float16 ? subgroup_pass(v, f, 1) : 0;
        if (sub) {
            d[0].spec.mode = CONV_MODE_MEDIAN3;
            d[0].shader = codes_between(&d[0]) ? AMP__SHADER_CONV_SUBGROUP_HALF_CODES : AMP__SHADER_CONV_SUBGROUP_HALF;
            subgroup_cover(&d[0], sub, SUBGROUP_PRE_STRIP);
        }
        break;
    }
    case AMP_IMAGE_BILATERAL: {
        double sc = f->sigma_color > 0 ? f->sigma_color : 1.0, ss = f->sigma_space > 0 ? f->sigma_space : 1.0;
        d[0].shader = AMP__SHADER_BILATERAL;
        d[0].params.f[0] = (float)(-0.5 / (sc * sc));
        d[0].params.f[1] = (float)(-0.5 / (ss * ss));
        if (d[0].spec.src_levels == 255.0f) d[0].spec.flags |= FLAG_CODES;
        /* 8-bit RGBA of 512 x 512 pixels or more on CPU devices, diameters up to 9: packed.comp
           (several times as fast as bilateral.comp there) */
        int packed = r <= PACKED_BILATERAL_RADIUS && border_codes(&d[0]) ? packed_pass(v, &d[0], PACKED_MODE_BILATERAL) : 0;
        if (packed) return amp__filter_record(v, d, packed, NULL, 0);
        break;
    }
    case AMP_IMAGE_RESIZE: {
        d[0].shader = AMP__SHADER_RESIZE;
        d[0].spec.mode = (int)f->interpolation;
        /* the means of k x k blocks (resize.comp and packed.comp take them as integers) */
        d[0].spec.radius = shrink_factor(f, amp_extent2(d[0].params.size[1], d[0].params.size[0]), amp_extent2(h, w));
        if (d[0].spec.radius &&
            packed_pass(v, &d[0], f->interpolation == AMP_INTERP_NEAREST ? PACKED_MODE_PICK : PACKED_MODE_SHRINK))
            break;
        return resize_pass(v, &d[0], f->interpolation);
    }
    case AMP_IMAGE_EQUALIZE: {
        size_t memory = packed_equalize(v, d);
        if (memory) return amp__filter_record(v, d, 3, NULL, memory);
        /* count, make the table (codes wider than 8 bits: 8-bit codes' groups of the map
           make it themselves), map: equalize.comp's bands of 256 columns and EQUALIZE_ROWS rows */
        size_t bins = (size_t)d[0].spec.src_levels + 1;
        d[0].shader = AMP__SHADER_EQUALIZE;
        d[0].groups[0] = (uint32_t)(w + 255) / 256;
        d[0].groups[1] = (uint32_t)(h + EQUALIZE_ROWS - 1) / EQUALIZE_ROWS;
        int n = 1;
        if (bins > 256) {
            d[n] = d[0];
            d[n].spec.pass = 1;
            d[n].groups[0] = d[n].groups[1] = 1;
            n++;
        }
        d[n] = d[0];
        d[n].spec.pass = 2;
        return amp__filter_record(v, d, n + 1, NULL, 2 * bins * sizeof(uint32_t));
    }
    default: /* 16 x 16 invocations, POINT_ROWS texels each */
        d[0].shader = AMP__SHADER_POINTWISE;
        d[0].groups[1] = (uint32_t)((h + 16 * POINT_ROWS - 1) / (16 * POINT_ROWS));
        packed_pass(v, &d[0], PACKED_MODE_POINTWISE);
        break;
    }
    return amp__filter_record(v, d, 1, NULL, 0);
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

/* amp_image_filter_chain without its trace span. */
static amp_status filter_chain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst)
{
    amp_status st = check_call(src, dst);
    if (st != AMP_OK) return st;
    group g[MAX_CHAIN];
    int n = 0;
    texinfo s = info_of(src);
    st = plan(filters, count, s.extent, s.components, amp_texture_extent(dst), g, &n);
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
    for (int i = 0; i < n && st == AMP_OK; i++) st = run_pass(v, &g[i], filters, tex[i], tex[i + 1], s);
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
    bool packed = !gpu_paths(view) && view->dev->int64 && bits == 8 && amp_type_scalar(type) == AMP_SCALAR_UNORM &&
                  (amp_type_components(type) == 4 || amp_type_components(type) == 1), big = packed && !src;
    int shrink = 0, shrunk = -1; /* the factor of a whole-factor resize of the source, its index */
    if (src) { /* the passes' leading filters at their destinations' sizes */
        group g[MAX_CHAIN];
        int n = 0;
        amp_status st = plan(filters, count, *src, amp_type_components(type), (amp_extent){0}, g, &n);
        if (st != AMP_OK) return st;
        for (int j = 0; j < n; j++) {
            int64_t pixels = (int64_t)g[j].out_extent.dims[0] * g[j].out_extent.dims[1];
            /* (packed.comp's one-pass sizes, PACKED_MIN_PIXELS up to PACKED_SPLIT_PIXELS, take
               the source's own extent below) */
            big |= (g[j].lead && block_pass(view, g[j].lead, amp__filter_radius(g[j].lead, bits), pixels)) ||
                   (packed && pixels >= PACKED_SPLIT_PIXELS);
            if (!shrink && amp_extent_equal(g[j].in_extent, *src) && g[j].lead &&
                g[j].lead->op == AMP_IMAGE_RESIZE && (shrink = shrink_factor(g[j].lead, *src, g[j].out_extent)))
                shrunk = g[j].lead_index;
        }
        big |= shrink && packed && (int64_t)src->dims[0] * src->dims[1] >= PACKED_MIN_PIXELS;
    }
    int side = !shrink ? 0 : big ? (1024 + shrink - 1) / shrink : 2; /* the shrunk stand-in's (2k <= 16) */
    for (int i = 0; i < count; i++) {
        if (!src) big |= block_pass(view, &small[i], amp__filter_radius(&small[i], bits), BLOCK_MIN_PIXELS);
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
    amp_status st = filter_chain(filters, count, src, dst);
    amp__trace_end(span, "record", "filter", NULL);
    return st;
}

amp_status amp_image_filter_apply(const amp_image_filter *filter, amp_texture *src, amp_texture *dst)
{
    return amp_image_filter_chain(filter, filter ? 1 : 0, src, dst);
}
