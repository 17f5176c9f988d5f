/* The pass planner: which module runs a pass of a chain, in which mode, in how many
 * dispatches of how many work groups. One table, `rules`, in the order the rules are
 * tried: the first whose filters include the pass's and whose predicate holds on the pass
 * and the device chooses; docs/filters.md shows the same table (tests/test_filter_plan.c
 * checks it). chain.c works out a pass's numbers (weights, integer and fixed-point sums,
 * a resize's taps) and records what the plan says. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "filter/filter_internal.h"

#define BLOCK_SPAN (16 * BLOCK_OUTPUTS) /* conv_block.comp: pixels a work group covers in each direction */
#define SUBGROUP_STRIP 32 /* conv_subgroup.comp: the rows of a subgroup's strip of float sums (16 as fast; 64 slower) */
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
#define PACKED_TIER_PIXELS (1 << 19) /* what a pass's small images earn it: the pixels they have
                                        run on the image paths (8 calls of 256 x 256, 32 of
                                        128 x 128), about as long as making the pipeline takes,
                                        so that a few calls pay at most twice their best */
#define PACKED_COUNTS 256 /* packed.comp's equalize: the invocations that count its codes, each into its own 256 words */

/* ---- the test switches (filter_internal.h) ---- */
static atomic_bool force_gpu, tables_off, tier_now, split_now;

void amp__filter_force_gpu_paths(bool on) { atomic_store(&force_gpu, on); }
void amp__filter_tables_off(bool on) { atomic_store(&tables_off, on); }
void amp__filter_tier_now(bool on) { atomic_store(&tier_now, on); }
void amp__filter_split_now(bool on) { atomic_store(&split_now, on); }

/* ---- the predicates ---- */

/* Whether f is one of conv.comp's separable filters. */
static bool separable(const amp_image_filter *f)
{
    return f->op == AMP_IMAGE_GAUSSIAN || f->op == AMP_IMAGE_BOX || f->op == AMP_IMAGE_SHARPEN ||
           f->op == AMP_IMAGE_ERODE || f->op == AMP_IMAGE_DILATE;
}

bool amp__filter_block_pass(const amp_accelerator_view *v, const amp_image_filter *f, int r, int64_t pixels)
{
    return separable(f) && r <= BLOCK_RADIUS && pixels >= BLOCK_MIN_PIXELS && amp__device_is_cpu(v->dev);
}

bool amp__filter_gpu_paths(const amp_accelerator_view *v)
{
    return !amp__device_is_cpu(v->dev) || atomic_load(&force_gpu);
}

bool amp__filter_eight_bits(const amp__filter_spec *s) { return s->src_levels == 255.0f && s->dst_levels == 255.0f; }

bool amp__filter_border_codes(const amp__filter_dispatch *d)
{
    bool codes = true;
    for (int c = 0; c < 4 && d->spec.border == AMP_BORDER_CONSTANT; c++) {
        float k = d->params.border_value[c] * 255.0f;
        codes &= k == floorf(k) && k >= 0 && k <= 255;
    }
    return codes;
}

int amp__filter_shrink_factor(const amp_image_filter *f, amp_extent in, amp_extent out)
{
    int k = out.dims[1] > 0 ? in.dims[1] / out.dims[1] : 0;
    bool whole = k >= 1 && k <= PACKED_RADIUS && in.dims[1] == k * out.dims[1] && in.dims[0] == k * out.dims[0];
    return whole && (f->interpolation == AMP_INTERP_AREA || f->interpolation == AMP_INTERP_NEAREST ||
                     (f->interpolation == AMP_INTERP_LINEAR && k == 2)) ? k : 0;
}

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
    if (amp__filter_gpu_paths(v) || !v->dev->int64 || pixels < PACKED_SMALL_PIXELS ||
        bytes > v->dev->props.limits.maxStorageBufferRange)
        return PACKED_NO;
    return pixels >= PACKED_MIN_PIXELS ? PACKED_YES : PACKED_EARNED;
}

/* Whether a pass of a small image (PACKED_EARNED) takes packed.comp's n dispatches d: their
 * pipelines made, or earned with this pass's pixels (amp__filter_tier: it credits them
 * otherwise, where credit is true, and the pass takes the image paths). Only passes whose
 * bytes are the image paths' earn them, so that a filter's result never depends on how
 * often it ran: integer sums, OpenCV's fixed-point gaussians, erode, dilate, the medians
 * and equalize, with no pointwise program after them (pointwise passes, whose image path
 * is about as fast on small images, keep it). */
static bool earned(const amp_accelerator_view *v, const amp__filter_dispatch *d, int n, bool credit)
{
    if (atomic_load(&tier_now)) return true;
    int m = d[0].spec.mode;
    bool exact = m == PACKED_MODE_SUM || m == PACKED_MODE_SUM_SHIFT || m == PACKED_MODE_ERODE ||
                 m == PACKED_MODE_DILATE || m == PACKED_MODE_MEDIAN3 || m == PACKED_MODE_MEDIAN5 ||
                 m == PACKED_MODE_EQUALIZE || (m == PACKED_MODE_FLOAT_SUM && (d[0].spec.flags & FLAG_FIXED));
    if (!exact || d[0].spec.ops) return false;
    int64_t pixels = (int64_t)d[0].params.size[0] * d[0].params.size[1];
    return amp__filter_tier(v, d, n, pixels, PACKED_TIER_PIXELS, credit);
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

/* packed.comp's dispatches p of pass d where it can take it: a CPU device (lavapipe,
 * where it is several times as fast as the image paths), from an 8-bit RGBA image of
 * 512 x 512 pixels or more (from 4096 pixels where the pass has earned its pipeline:
 * packed_takes) into one of the same format and size, or into an 8-bit gray (and alpha)
 * one where the pass ends in grayscale (RGB too where the device keeps it as RGBA), the
 * two copies of the image in one storage buffer. mode: the copy and pointwise filters, an
 * integer sum (rounded by a shift where T is a power of two), erode, dilate, a float sum,
 * sharpen, the 3 x 3 or the 5 x 5 median, the bilateral, up to PACKED_RADIUS (packed_wide,
 * the same shader with a larger ring, up to PACKED_WIDE_RADIUS); but for the first, p[0]
 * takes the quads whose window lies inside the image's columns, p[1] those at the edges
 * (below PACKED_SPLIT_PIXELS, p[0] all of them through the edges' code: one pipeline to
 * make, not two). Their count into *n; packed_takes's answer (PACKED_NO: none). */
static int packed_pass(const amp_accelerator_view *v, const amp__filter_dispatch *d, int mode,
                       amp__filter_dispatch *p, int *n)
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
    if (!takes || in->vk != VK_FORMAT_R8G8B8A8_UNORM || !(same || gray) || w != k * ow || h != k * oh)
        return PACKED_NO;
    memset(&p[1], 0, sizeof p[1]);
    p[0] = *d;
    p->shader = p->spec.radius > PACKED_RADIUS ? AMP__SHADER_PACKED_WIDE : AMP__SHADER_PACKED;
    if (table_program(&p->spec)) p->spec.flags |= FLAG_TABLE | (shape_program(&p->spec) ? FLAG_SHAPE : 0);
    int strip = sum ? PACKED_STRIP_OF(p->spec.radius) : resize ? PACKED_RESIZE_STRIP : PACKED_POINT_STRIP;
    int rows = ((sum ? h : oh) + strip - 1) / strip; /* invocations down */
    p->groups[1] = (uint32_t)(rows + PACKED_GROUP_Y - 1) / PACKED_GROUP_Y;
    *n = 1;
    if (!sum) {
        p->spec.mode = mode;
        int across = mode == PACKED_MODE_POINTWISE ? ((ow + 3) / 4 + 1) / 2 : (ow + 3) / 4; /* pairs of quads, or quads */
        p->groups[0] = (uint32_t)(across + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
        return takes;
    }
    uint32_t t = (uint32_t)p->params.counts[1]; /* T: a power of two rounds by a shift */
    p->spec.mode = mode == PACKED_MODE_SUM && !(t & (t - 1)) ? PACKED_MODE_SUM_SHIFT : mode;
    if ((int64_t)w * h >= PACKED_SPLIT_PIXELS || atomic_load(&split_now)) {
        *n = packed_window(p, w);
        return takes;
    }
    p->spec.pass = 1; /* one pass: PASS 1's code for every quad */
    p->spec.flags |= FLAG_WHOLE_ROWS;
    p->groups[0] = (uint32_t)(quads + PACKED_GROUP_X - 1) / PACKED_GROUP_X;
    return takes;
}

/* packed.comp's equalize p[0..2] (PACKED_MODE_EQUALIZE: count, table, map) of pass d where
 * it can take it, an 8-bit gray image of 512 x 512 pixels or more (from 4096 pixels where
 * the pass has earned its pipelines: packed_takes) into one on a CPU device, and into
 * *memory the bytes its passes need (their table, and counts of each code by each of
 * PACKED_COUNTS invocations): packed_takes's answer (PACKED_NO: none). */
static int packed_equalize(const amp_accelerator_view *v, const amp__filter_dispatch *d, amp__filter_dispatch *p,
                           size_t *memory)
{
    const amp__format *in = amp__texture_format(d->src), *out = amp__texture_format(d->dst);
    int w = d->params.size[0], h = d->params.size[1], quads = (w + 15) / 16, counts = h < PACKED_COUNTS ? h : PACKED_COUNTS;
    int takes = packed_takes(v, w, h, 16);
    if (!takes || in->vk != VK_FORMAT_R8_UNORM || out->vk != VK_FORMAT_R8_UNORM) return PACKED_NO;
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
    *memory = PACKED_TABLE_BYTES + (size_t)counts * 256 * sizeof(uint32_t);
    return takes;
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

/* Whether conv_mma.comp runs the pass of spec s on v's device (sum: a weighted sum): one of
 * radius MMA_MIN_RADIUS to MMA_RADIUS from 8 bits to 8 bits on a device with
 * cooperative matrices (tensor cores) and room for its work group, where one pass on
 * them beats conv_run.comp's two. */
static bool mma_pass(const amp_accelerator_view *v, bool sum, const amp__filter_spec *s)
{
    const VkPhysicalDeviceLimits *lim = &v->dev->props.limits;
    int least = s->flags & FLAG_FIXED ? MMA_MIN_FIXED : MMA_MIN_RADIUS;
    return sum && s->radius >= least && s->radius <= MMA_RADIUS && amp__filter_eight_bits(s) &&
           v->dev->coop_matrix && lim->maxComputeSharedMemorySize >= MMA_SHARED &&
           lim->maxComputeWorkGroupInvocations >= MMA_GROUP && lim->maxComputeWorkGroupSize[0] >= MMA_GROUP;
}

/* Work groups enough for d's destination, each covering span x span pixels. */
static void cover(amp__filter_dispatch *d, int span)
{
    d->groups[0] = (uint32_t)(d->params.size[2] + span - 1) / (uint32_t)span;
    d->groups[1] = (uint32_t)(d->params.size[3] + span - 1) / (uint32_t)span;
}

/* ---- the planner ---- */

/* What the rules read of a pass: its leading filter, its dispatch as chain.c made it (the
 * numbers: weights, FLAG_INTEGER, FLAG_FIXED, a shrink's factor as its radius), and what
 * the rules work out on the way (packed.comp's dispatches, the subgroup size). */
typedef struct pass {
    const amp_accelerator_view *v;
    const amp_image_filter *f; /* NULL: a copy, or pointwise filters alone */
    amp__filter_dispatch d;    /* the dispatch the rules start from (codes_between adds flags) */
    bool sum, integer;         /* a weighted sum (gaussian, box, sharpen); an integer one */
    int w, h, r;               /* the destination's size, the radius */
    bool credit;               /* earned credits the pass's pixels (false: amp__filter_explain) */
    int packed, packed_n;      /* packed_candidate's answer (-1: not asked yet), its dispatches */
    amp__filter_dispatch packed_d[3];
    size_t packed_memory;
} pass;

/* The mode of packed.comp for the pass's filter (sobel: none, -1). */
static int packed_mode(const pass *p)
{
    amp_image_op op = p->f ? p->f->op : AMP_IMAGE_COPY;
    switch (op) {
    case AMP_IMAGE_GAUSSIAN: case AMP_IMAGE_BOX: case AMP_IMAGE_SHARPEN: case AMP_IMAGE_ERODE:
    case AMP_IMAGE_DILATE:
        return p->integer ? PACKED_MODE_SUM : op == AMP_IMAGE_ERODE ? PACKED_MODE_ERODE : op == AMP_IMAGE_DILATE
               ? PACKED_MODE_DILATE : op == AMP_IMAGE_SHARPEN ? PACKED_MODE_SHARPEN : PACKED_MODE_FLOAT_SUM;
    case AMP_IMAGE_MEDIAN: return p->r == 1 ? PACKED_MODE_MEDIAN3 : PACKED_MODE_MEDIAN5;
    case AMP_IMAGE_BILATERAL: return PACKED_MODE_BILATERAL;
    case AMP_IMAGE_RESIZE: return p->f->interpolation == AMP_INTERP_NEAREST ? PACKED_MODE_PICK : PACKED_MODE_SHRINK;
    case AMP_IMAGE_EQUALIZE: return PACKED_MODE_EQUALIZE;
    case AMP_IMAGE_SOBEL: return -1;
    default: return PACKED_MODE_POINTWISE;
    }
}

/* Whether packed.comp can take the pass (PACKED_YES, PACKED_EARNED: packed_takes), its
 * dispatches in p->packed_d: each filter's own limits (radius, whole-code borders, a
 * shrink by a whole factor), then packed_pass's or packed_equalize's. */
static int packed_candidate(pass *p)
{
    if (p->packed >= 0) return p->packed;
    const amp__filter_dispatch *d = &p->d;
    int mode = packed_mode(p), r = p->r;
    bool fits = mode == PACKED_MODE_POINTWISE || mode == PACKED_MODE_EQUALIZE ||
                (mode == PACKED_MODE_SHRINK || mode == PACKED_MODE_PICK ? d->spec.radius != 0
                 : mode == PACKED_MODE_MEDIAN3 || mode == PACKED_MODE_MEDIAN5 ? r <= 2 && amp__filter_border_codes(d)
                 : mode == PACKED_MODE_BILATERAL ? r <= PACKED_BILATERAL_RADIUS && amp__filter_border_codes(d)
                 : mode >= 0 && r <= PACKED_WIDE_RADIUS && amp__filter_border_codes(d));
    p->packed = PACKED_NO;
    if (fits && mode == PACKED_MODE_EQUALIZE) {
        p->packed = packed_equalize(p->v, d, p->packed_d, &p->packed_memory);
        p->packed_n = 3;
    } else if (fits) {
        p->packed = packed_pass(p->v, d, mode, p->packed_d, &p->packed_n);
    }
    return p->packed;
}

static bool is_separable(const pass *p) { return p->f && separable(p->f); }
static int subgroup_of(const pass *p) { return p->f ? subgroup_pass(p->v, p->f, p->r) : 0; }
/* erode and dilate of 8 bits into 8 bits in 16-bit floats, on devices with them */
static bool half_walk(const pass *p) { return !p->sum && amp__filter_eight_bits(&p->d.spec) && p->v->dev->float16; }
/* sums of 8 bits into 8 bits read (and write) the codes themselves where the source and
   the destination take uint views (the float sums' walk there columns first: float_main),
   as erode and dilate do */
static bool codes_walk(const pass *p)
{
    bool float_codes = p->sum && !p->integer && amp__filter_eight_bits(&p->d.spec) && amp__filter_border_codes(&p->d);
    return p->integer || float_codes;
}
/* median.comp's wide tile: 5 x 5 on GPUs */
static bool median_wide(const pass *p) { return p->r == 2 && amp__filter_gpu_paths(p->v); }

/* The predicates, one a rule (the rules' `when`, as docs/filters.md gives them). */
static bool when_packed(pass *p) { return packed_candidate(p) == PACKED_YES; }
static bool when_packed_earned(pass *p)
{
    return packed_candidate(p) == PACKED_EARNED && earned(p->v, p->packed_d, p->packed_n, p->credit);
}
static bool when_subgroup_half_codes(pass *p)
{
    return is_separable(p) && p->r <= TILE_RADIUS && subgroup_of(p) && half_walk(p) && codes_between(&p->d);
}
static bool when_subgroup_half(pass *p)
{
    return is_separable(p) && p->r <= TILE_RADIUS && subgroup_of(p) && half_walk(p);
}
static bool when_subgroup_int(pass *p)
{
    return is_separable(p) && p->r <= TILE_RADIUS && subgroup_of(p) && codes_walk(p) && codes_between(&p->d);
}
static bool when_subgroup(pass *p) { return is_separable(p) && p->r <= TILE_RADIUS && subgroup_of(p); }
static bool when_block(pass *p)
{
    return is_separable(p) && p->r <= TILE_RADIUS && amp__filter_block_pass(p->v, p->f, p->r, (int64_t)p->w * p->h);
}
static bool when_tile(pass *p) { return is_separable(p) && p->r <= TILE_RADIUS; }
static bool when_mma(pass *p) { return is_separable(p) && mma_pass(p->v, p->sum, &p->d.spec); }
static bool when_run(pass *p) { return is_separable(p) && amp__filter_gpu_paths(p->v); }
static bool when_two_pass(pass *p) { return is_separable(p); }
static bool when_sobel_codes(pass *p)
{
    return subgroup_pass(p->v, p->f, 1) && amp__filter_eight_bits(&p->d.spec) && amp__filter_border_codes(&p->d) &&
           codes_between(&p->d);
}
static bool when_median3_half_codes(pass *p)
{
    return p->r == 1 && amp__filter_eight_bits(&p->d.spec) && p->v->dev->float16 && subgroup_pass(p->v, p->f, 1) &&
           codes_between(&p->d);
}
static bool when_median3_half(pass *p)
{
    return p->r == 1 && amp__filter_eight_bits(&p->d.spec) && p->v->dev->float16 && subgroup_pass(p->v, p->f, 1);
}
static bool when_median_half(pass *p)
{
    return median_wide(p) && amp__filter_eight_bits(&p->d.spec) && p->v->dev->float16;
}
/* a unorm source's codes order themselves (median), a float source's keys (median_keys); but
   on CPU devices the networks (3 x 3, 5 x 5) order a unorm source's keys too: lavapipe's
   float min and max take two more instructions each, for NaNs, where the search of larger
   windows would take 32 bits of keys instead of 8 of codes */
static bool when_median_keys(pass *p)
{
    return p->d.spec.src_levels == 0 || (!amp__filter_gpu_paths(p->v) && p->r <= 2);
}
static bool always(pass *p) { return (void)p, true; }

/* The launch shapes, one a rule: the plan's dispatches from p->d; their count. */
static int make_packed(pass *p, amp__pass_plan *plan)
{
    memcpy(plan->d, p->packed_d, (size_t)p->packed_n * sizeof *plan->d);
    if (p->f && p->f->op == AMP_IMAGE_EQUALIZE) plan->memory = p->packed_memory;
    return p->packed_n;
}
static int conv_mode(const pass *p)
{
    return p->sum ? CONV_MODE_SUM : p->f->op == AMP_IMAGE_ERODE ? CONV_MODE_ERODE : CONV_MODE_DILATE;
}
/* conv_subgroup.comp's modules: shader sh, strips of `strip` rows */
static int make_subgroup_of(pass *p, amp__pass_plan *plan, amp__filter_shader sh, int strip)
{
    plan->d[0] = p->d;
    plan->d[0].shader = sh;
    plan->d[0].spec.mode = p->f->op == AMP_IMAGE_SOBEL ? (int)p->f->sobel
                           : p->f->op == AMP_IMAGE_MEDIAN ? CONV_MODE_MEDIAN3 : conv_mode(p);
    if (p->f->op == AMP_IMAGE_SOBEL) plan->d[0].spec.flags |= FLAG_SOBEL;
    subgroup_cover(&plan->d[0], subgroup_pass(p->v, p->f, separable(p->f) ? p->r : 1), strip);
    return 1;
}
static int make_subgroup_half_codes(pass *p, amp__pass_plan *plan)
{
    return make_subgroup_of(p, plan, AMP__SHADER_CONV_SUBGROUP_HALF_CODES, SUBGROUP_PRE_STRIP);
}
static int make_subgroup_half(pass *p, amp__pass_plan *plan)
{
    return make_subgroup_of(p, plan, AMP__SHADER_CONV_SUBGROUP_HALF, SUBGROUP_PRE_STRIP);
}
static int make_subgroup_int(pass *p, amp__pass_plan *plan)
{
    return make_subgroup_of(p, plan, AMP__SHADER_CONV_SUBGROUP_INT, SUBGROUP_PRE_STRIP);
}
static int make_subgroup(pass *p, amp__pass_plan *plan)
{
    return make_subgroup_of(p, plan, AMP__SHADER_CONV_SUBGROUP, p->integer ? SUBGROUP_PRE_STRIP : SUBGROUP_STRIP);
}
static int make_conv_of(pass *p, amp__pass_plan *plan, amp__filter_shader sh)
{
    plan->d[0] = p->d;
    plan->d[0].shader = sh;
    plan->d[0].spec.mode = conv_mode(p);
    return 1;
}
static int make_block(pass *p, amp__pass_plan *plan)
{
    make_conv_of(p, plan, AMP__SHADER_CONV_BLOCK);
    cover(&plan->d[0], BLOCK_SPAN);
    return 1;
}
static int make_tile(pass *p, amp__pass_plan *plan) { return make_conv_of(p, plan, AMP__SHADER_CONV); }
static int make_mma(pass *p, amp__pass_plan *plan)
{
    make_conv_of(p, plan, AMP__SHADER_CONV_MMA);
    /* a grid of equal shares of the strips' row blocks (conv_mma.comp's main) */
    uint32_t strips = (uint32_t)(p->w + MMA_COLUMNS - 1) / MMA_COLUMNS;
    uint32_t blocks = strips * (uint32_t)((p->h + 15) / 16);
    uint32_t sms = p->v->dev->sm_count;
    uint32_t groups = sms ? MMA_PER_SM * sms : strips * (uint32_t)((p->h + MMA_ROWS - 1) / MMA_ROWS);
    plan->d[0].groups[0] = groups < blocks ? groups : blocks;
    plan->d[0].groups[1] = 1;
    return 1;
}
/* two passes: the rows into a float texture (chain.c makes it), then its columns */
static int make_two_pass(pass *p, amp__pass_plan *plan)
{
    make_conv_of(p, plan, AMP__SHADER_CONV);
    plan->d[1] = plan->d[0];
    plan->d[0].spec.pass = 1;
    plan->d[1].spec.pass = 2;
    plan->between = true;
    return 2;
}
static int make_run(pass *p, amp__pass_plan *plan)
{
    make_two_pass(p, plan);
    amp__filter_dispatch *d = plan->d;
    int w = p->w, h = p->h;
    d[0].shader = d[1].shader = AMP__SHADER_CONV_RUN; /* RUN outputs an invocation */
    /* pass 1: the invocations' x along the rows' y */
    d[0].groups[0] = (uint32_t)(h + RUN_GROUP_X - 1) / RUN_GROUP_X;
    d[0].groups[1] = (uint32_t)((w + RUN_GROUP_Y * RUN - 1) / (RUN_GROUP_Y * RUN));
    d[1].groups[0] = (uint32_t)(w + RUN_GROUP_X - 1) / RUN_GROUP_X;
    d[1].groups[1] = (uint32_t)((h + RUN_GROUP_Y * RUN - 1) / (RUN_GROUP_Y * RUN));
    return 2;
}
static int make_sobel_codes(pass *p, amp__pass_plan *plan)
{
    return make_subgroup_of(p, plan, AMP__SHADER_CONV_SUBGROUP_INT, SUBGROUP_PRE_STRIP);
}
static int make_sobel(pass *p, amp__pass_plan *plan)
{
    plan->d[0] = p->d;
    plan->d[0].shader = AMP__SHADER_SOBEL;
    plan->d[0].spec.mode = (int)p->f->sobel;
    plan->d[0].groups[1] = (uint32_t)((p->h + 16 * RUN - 1) / (16 * RUN));
    return 1;
}
/* median.comp's outputs an invocation: a walk of RUN down a column for 3 x 3, a tile of
   5 x 5 windows, MEDIAN_WIDE_W x _H on GPUs (FLAG_WIDE), MEDIAN_NARROW_W x _H on CPU devices */
static int make_median_of(pass *p, amp__pass_plan *plan, amp__filter_shader sh)
{
    bool wide = median_wide(p);
    int r = p->r, across = r != 2 ? 1 : wide ? MEDIAN_WIDE_W : MEDIAN_NARROW_W;
    int outputs = r == 1 ? RUN : r != 2 ? 1 : wide ? MEDIAN_WIDE_H : MEDIAN_NARROW_H;
    amp__filter_dispatch *d = &plan->d[0];
    *d = p->d;
    d->shader = sh;
    if (wide) d->spec.flags |= FLAG_WIDE;
    d->groups[0] = (uint32_t)((p->w + 16 * across - 1) / (16 * across));
    d->groups[1] = (uint32_t)((p->h + 16 * outputs - 1) / (16 * outputs));
    return 1;
}
static int make_median_half(pass *p, amp__pass_plan *plan) { return make_median_of(p, plan, AMP__SHADER_MEDIAN_HALF); }
static int make_median_keys(pass *p, amp__pass_plan *plan) { return make_median_of(p, plan, AMP__SHADER_MEDIAN_KEYS); }
static int make_median(pass *p, amp__pass_plan *plan) { return make_median_of(p, plan, AMP__SHADER_MEDIAN); }
static int make_bilateral(pass *p, amp__pass_plan *plan)
{
    plan->d[0] = p->d;
    plan->d[0].shader = AMP__SHADER_BILATERAL;
    return 1;
}
static int make_resize(pass *p, amp__pass_plan *plan)
{
    plan->d[0] = p->d;
    plan->d[0].shader = AMP__SHADER_RESIZE;
    plan->d[0].spec.mode = (int)p->f->interpolation;
    plan->taps = true;
    return 1;
}
/* count, make the table (codes wider than 8 bits: 8-bit codes' groups of the map make it
   themselves), map: equalize.comp's bands of 256 columns and EQUALIZE_ROWS rows */
static int make_equalize(pass *p, amp__pass_plan *plan)
{
    amp__filter_dispatch *d = plan->d;
    size_t bins = (size_t)p->d.spec.src_levels + 1;
    d[0] = p->d;
    d[0].shader = AMP__SHADER_EQUALIZE;
    d[0].groups[0] = (uint32_t)(p->w + 255) / 256;
    d[0].groups[1] = (uint32_t)(p->h + EQUALIZE_ROWS - 1) / EQUALIZE_ROWS;
    int n = 1;
    if (bins > 256) {
        d[n] = d[0];
        d[n].spec.pass = 1;
        d[n].groups[0] = d[n].groups[1] = 1;
        n++;
    }
    d[n] = d[0];
    d[n].spec.pass = 2;
    plan->memory = 2 * bins * sizeof(uint32_t);
    return n + 1;
}
/* 16 x 16 invocations, POINT_ROWS texels each */
static int make_pointwise(pass *p, amp__pass_plan *plan)
{
    plan->d[0] = p->d;
    plan->d[0].shader = AMP__SHADER_POINTWISE;
    plan->d[0].groups[1] = (uint32_t)((p->h + 16 * POINT_ROWS - 1) / (16 * POINT_ROWS));
    return 1;
}

/* The filters a rule is for: a bit each (COPY: a pass of the copy or pointwise filters alone). */
#define OP(o) (1u << AMP_IMAGE_##o)
#define SEPARABLE (OP(GAUSSIAN) | OP(BOX) | OP(SHARPEN) | OP(ERODE) | OP(DILATE))
#define SUMS (OP(GAUSSIAN) | OP(BOX) | OP(SHARPEN))

typedef struct rule {
    const char *name;   /* as amp__filter_explain and docs/filters.md name it */
    uint32_t ops;       /* the filters it is for */
    const char *filters, *when, *module, *mode, *shape; /* the table as docs/filters.md shows it */
    bool (*holds)(pass *p);
    int (*make)(pass *p, amp__pass_plan *plan);
} rule;

/* The rules, in the order they are tried. */
static const rule rules[] = {
    {"packed", ~OP(SOBEL), "all but sobel",
     "CPU device with int64; RGBA8 (gray8: equalize) into the same or gray; >= 512 x 512; radius <= 16 "
     "(bilateral 4, median 2), whole-code constant border; resize by a whole factor (area, nearest, linear 1/2)",
     "packed (radius > 8: packed_wide)", "PACKED_MODE_* of the filter (SUM_SHIFT where T is a power of two)",
     "64 x 1 groups over quads and strips; windows from 2^19 pixels: 2 dispatches (inside, edges), else 1 "
     "(FLAG_WHOLE_ROWS); equalize 3; + a table dispatch (FLAG_TABLE)",
     when_packed, make_packed},
    {"packed earned", ~OP(SOBEL), "all but sobel",
     "as packed, 4096 pixels up to 512 x 512, exact results only (integer and fixed sums, erode, dilate, medians, "
     "equalize; no pointwise after), once the pass's pipelines are made or it has run 2^19 pixels elsewhere",
     "packed", "as packed", "as packed", when_packed_earned, make_packed},
    {"subgroup half codes", SEPARABLE & ~SUMS, "erode, dilate",
     "radius <= 4; NVIDIA subgroups of >= 2r + 8 dividing 128 (or forced); 8 bits; float16; uint views",
     "conv_subgroup_half_codes", "CONV_MODE_ERODE, _DILATE", "128 invocations; strips of 8 rows",
     when_subgroup_half_codes, make_subgroup_half_codes},
    {"subgroup half", SEPARABLE & ~SUMS, "erode, dilate", "as subgroup half codes, without uint views",
     "conv_subgroup_half", "CONV_MODE_ERODE, _DILATE", "strips of 8 rows", when_subgroup_half, make_subgroup_half},
    {"subgroup codes", SUMS, "gaussian, box, sharpen",
     "radius <= 4; subgroups as above; integer sum, or a float sum of 8 bits with whole-code border; uint views",
     "conv_subgroup_int", "CONV_MODE_SUM", "strips of 8 rows", when_subgroup_int, make_subgroup_int},
    {"subgroup", SEPARABLE, "separable", "radius <= 4; subgroups as above", "conv_subgroup", "CONV_MODE_*",
     "strips of 32 rows (integer sums 8)", when_subgroup, make_subgroup},
    {"block", SEPARABLE, "separable", "radius <= 4; CPU device; >= 2^20 destination pixels", "conv_block",
     "CONV_MODE_*", "16 x 16 invocations, 64 x 64 pixels a group", when_block, make_block},
    {"tile", SEPARABLE, "separable", "radius <= 4", "conv", "CONV_MODE_*", "16 x 16 pixels a group, one pass",
     when_tile, make_tile},
    {"mma", SUMS, "gaussian, box, sharpen",
     "radius 9 to 16 (fixed gaussian 5 to 16); 8 bits; cooperative matrices; 20736 bytes of shared memory, 256 "
     "invocations", "conv_mma", "CONV_MODE_SUM", "2 groups an SM (else a group per 32 x 512), one row of groups",
     when_mma, make_mma},
    {"run", SEPARABLE, "separable", "radius > 4; a GPU (or forced)", "conv_run", "CONV_MODE_*",
     "2 passes through a float texture; 32 x 8 groups, RUN outputs each", when_run, make_run},
    {"two pass", SEPARABLE, "separable", "radius > 4", "conv", "CONV_MODE_*",
     "2 passes (PASS 1, 2) through a float texture; 16 x 16", when_two_pass, make_two_pass},
    {"sobel codes", OP(SOBEL), "sobel", "subgroups as above; 8 bits; whole-code border; uint views",
     "conv_subgroup_int", "SOBEL_MODE_* (FLAG_SOBEL)", "strips of 8 rows", when_sobel_codes, make_sobel_codes},
    {"sobel", OP(SOBEL), "sobel", "otherwise", "sobel", "SOBEL_MODE_*", "16 x 16 invocations, RUN rows each",
     always, make_sobel},
    {"median3 half codes", OP(MEDIAN), "median", "3 x 3; 8 bits; float16; subgroups as above; uint views",
     "conv_subgroup_half_codes", "CONV_MODE_MEDIAN3", "strips of 8 rows", when_median3_half_codes,
     make_subgroup_half_codes},
    {"median3 half", OP(MEDIAN), "median", "3 x 3; 8 bits; float16; subgroups as above", "conv_subgroup_half",
     "CONV_MODE_MEDIAN3", "strips of 8 rows", when_median3_half, make_subgroup_half},
    {"median half", OP(MEDIAN), "median", "5 x 5 on a GPU (or forced); 8 bits; float16", "median_half",
     "FLAG_WIDE", "16 x 16 invocations, 2 x 4 windows each", when_median_half, make_median_half},
    {"median keys", OP(MEDIAN), "median", "a float source, or a CPU device and radius <= 2", "median_keys",
     "FLAG_WIDE on GPUs", "16 x 16 invocations: 3 x 3 RUN each, 5 x 5 2 x 4 (GPU) or 1 x 2, else 1",
     when_median_keys, make_median_keys},
    {"median", OP(MEDIAN), "median", "otherwise", "median", "FLAG_WIDE on GPUs", "as median keys", always,
     make_median},
    {"bilateral", OP(BILATERAL), "bilateral", "otherwise", "bilateral", "-", "16 x 16 pixels a group", always,
     make_bilateral},
    {"resize", OP(RESIZE), "resize", "otherwise", "resize", "RESIZE_MODE_* (the interpolation)",
     "16 x 16 pixels a group; taps in the scratch buffer", always, make_resize},
    {"equalize", OP(EQUALIZE), "equalize", "otherwise", "equalize", "-",
     "count, (codes > 8 bits: table,) map: groups of 256 columns x 64 rows", always, make_equalize},
    {"pointwise", OP(COPY), "copy, pointwise", "otherwise", "pointwise", "-", "16 x 16 invocations, 4 rows each",
     always, make_pointwise},
};

void amp__filter_plan_pass(const amp_accelerator_view *v, const amp_image_filter *f, const amp__filter_dispatch *d,
                           bool credit, amp__pass_plan *plan)
{
    pass p = {.v = v, .f = f, .d = *d, .integer = (d->spec.flags & FLAG_INTEGER) != 0, .credit = credit, .packed = -1};
    cover(&p.d, 16); /* the modules of 16 x 16 pixels a work group (the others set their own) */
    amp_image_op op = f ? f->op : AMP_IMAGE_COPY;
    p.sum = op == AMP_IMAGE_GAUSSIAN || op == AMP_IMAGE_BOX || op == AMP_IMAGE_SHARPEN;
    p.w = d->params.size[2];
    p.h = d->params.size[3];
    p.r = d->spec.radius;
    memset(plan, 0, sizeof *plan);
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        const rule *ru = &rules[i];
        if (!(ru->ops & (1u << op)) || !ru->holds(&p)) continue;
        plan->rule = ru->name;
        plan->count = ru->make(&p, plan);
        return;
    }
}

#define NAME(m) [m] = #m
static const char *const packed_modes[] = {
    NAME(PACKED_MODE_POINTWISE), NAME(PACKED_MODE_SUM), NAME(PACKED_MODE_SUM_SHIFT), NAME(PACKED_MODE_ERODE),
    NAME(PACKED_MODE_DILATE), NAME(PACKED_MODE_FLOAT_SUM), NAME(PACKED_MODE_SHARPEN), NAME(PACKED_MODE_MEDIAN3),
    NAME(PACKED_MODE_SHRINK), NAME(PACKED_MODE_EQUALIZE), NAME(PACKED_MODE_PICK), NAME(PACKED_MODE_MEDIAN5),
    NAME(PACKED_MODE_BILATERAL)};
static const char *const conv_modes[] = {NAME(CONV_MODE_SUM), NAME(CONV_MODE_ERODE), NAME(CONV_MODE_DILATE),
                                         NAME(CONV_MODE_MEDIAN3)};
static const char *const sobel_modes[] = {NAME(SOBEL_MODE_MAGNITUDE), NAME(SOBEL_MODE_X), NAME(SOBEL_MODE_Y)};
static const char *const resize_modes[] = {NAME(RESIZE_MODE_LINEAR), NAME(RESIZE_MODE_NEAREST), NAME(RESIZE_MODE_AREA),
                                           NAME(RESIZE_MODE_CUBIC), NAME(RESIZE_MODE_LANCZOS4)};
#undef NAME

const char *amp__filter_mode_name(amp__filter_shader sh, const amp__filter_spec *s)
{
    const char *const *names = NULL;
    int n = 0;
#define NAMES(t) (names = (t), n = (int)(sizeof(t) / sizeof *(t)))
    switch (sh) {
    case AMP__SHADER_PACKED: case AMP__SHADER_PACKED_WIDE: NAMES(packed_modes); break;
    case AMP__SHADER_SOBEL: NAMES(sobel_modes); break;
    case AMP__SHADER_RESIZE: NAMES(resize_modes); break;
    case AMP__SHADER_CONV_SUBGROUP_INT:
        if (s->flags & FLAG_SOBEL) NAMES(sobel_modes);
        else NAMES(conv_modes);
        break;
    case AMP__SHADER_CONV: case AMP__SHADER_CONV_BLOCK: case AMP__SHADER_CONV_SUBGROUP: case AMP__SHADER_CONV_RUN:
    case AMP__SHADER_CONV_MMA: case AMP__SHADER_CONV_SUBGROUP_HALF: case AMP__SHADER_CONV_SUBGROUP_HALF_CODES:
        NAMES(conv_modes);
        break;
    default: return "-";
    }
#undef NAMES
    return s->mode >= 0 && s->mode < n && names[s->mode] ? names[s->mode] : "?";
}

size_t amp__filter_plan_table(char *text, size_t size)
{
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(text && n < size ? text + n : NULL, text && n < size ? size - n : 0, __VA_ARGS__)
    PUT("| rule | filters | when | module | mode | launch |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        const rule *r = &rules[i];
        PUT("| %s | %s | %s | %s | %s | %s |\n", r->name, r->filters, r->when, r->module, r->mode, r->shape);
    }
#undef PUT
    return n;
}
