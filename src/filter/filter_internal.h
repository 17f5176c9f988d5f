/* The filter layer (src/filter): the built-in image filters of ampvk/filter.h. It
 * uses src/core, src/vulkan and src/data: params.c checks a filter and works out its
 * numbers, pass.c records passes of the shaders in shaders/filter (compiled at
 * build time), plan.c chooses each pass's module, mode and work groups (its table of rules,
 * docs/filters.md), chain.c splits a chain into passes, works out their numbers and records
 * their plans. Not installed. */
#ifndef AMPVK_FILTER_INTERNAL_H
#define AMPVK_FILTER_INTERNAL_H

#include "ampvk/filter.h"
#include "data/data.h"
/* the flags, modes and sizes shared with the shaders (shaders/filter/filter_shared.h) */
#include "filter/filter_shared.h"
_Static_assert(SOBEL_MODE_MAGNITUDE == AMP_SOBEL_MAGNITUDE && SOBEL_MODE_X == AMP_SOBEL_X && SOBEL_MODE_Y == AMP_SOBEL_Y,
               "sobel's modes are amp_sobel_output's values");
_Static_assert(RESIZE_MODE_LINEAR == AMP_INTERP_LINEAR && RESIZE_MODE_NEAREST == AMP_INTERP_NEAREST &&
                   RESIZE_MODE_AREA == AMP_INTERP_AREA && RESIZE_MODE_CUBIC == AMP_INTERP_CUBIC &&
                   RESIZE_MODE_LANCZOS4 == AMP_INTERP_LANCZOS4,
               "resize's modes are amp_interpolation's values");
_Static_assert(OP_GRAYSCALE == AMP_IMAGE_GRAYSCALE && OP_SEPIA == AMP_IMAGE_SEPIA && OP_INVERT == AMP_IMAGE_INVERT &&
                   OP_GAMMA == AMP_IMAGE_GAMMA && OP_BRIGHTNESS_CONTRAST == AMP_IMAGE_BRIGHTNESS_CONTRAST &&
                   OP_THRESHOLD == AMP_IMAGE_THRESHOLD && OP_SRGB_TO_LINEAR == AMP_IMAGE_SRGB_TO_LINEAR &&
                   OP_LINEAR_TO_SRGB == AMP_IMAGE_LINEAR_TO_SRGB && OP_TONEMAP == AMP_IMAGE_TONEMAP,
               "the shaders' op codes are amp_image_op's values");
_Static_assert(BORDER_REFLECT_101 == AMP_BORDER_REFLECT_101 && BORDER_REPLICATE == AMP_BORDER_REPLICATE &&
                   BORDER_REFLECT == AMP_BORDER_REFLECT && BORDER_WRAP == AMP_BORDER_WRAP &&
                   BORDER_CONSTANT == AMP_BORDER_CONSTANT,
               "the shaders' borders are amp_border's values");

/* The shaders, one per family of filters. */
typedef enum amp__filter_shader {
    AMP__SHADER_POINTWISE,
    AMP__SHADER_CONV,
    AMP__SHADER_SOBEL,
    AMP__SHADER_MEDIAN,
    AMP__SHADER_BILATERAL,
    AMP__SHADER_RESIZE,
    AMP__SHADER_EQUALIZE,
    AMP__SHADER_CONV_BLOCK, /* conv's one-pass filters on CPU devices, for large images */
    AMP__SHADER_CONV_SUBGROUP, /* conv's one-pass filters on GPUs whose subgroups shuffle */
    AMP__SHADER_CONV_RUN,      /* conv's two-pass filters on GPUs */
    AMP__SHADER_MEDIAN_HALF,   /* median 5x5 of 8 bits in 16-bit floats (GPUs with shaderFloat16) */
    AMP__SHADER_CONV_MMA,      /* conv's sums of 8 bits in one pass on cooperative matrices */
    AMP__SHADER_CONV_SUBGROUP_HALF, /* conv_subgroup's erode, dilate and 3x3 median of 8 bits in 16-bit floats */
    AMP__SHADER_PACKED,        /* 8-bit RGBA copies, pointwise filters, sums, erode, dilate and the 3x3 median
                                  on CPU devices, on buffers */
    AMP__SHADER_PACKED_WIDE,   /* packed's sums, erode and dilate of radius 9 to 16 */
    AMP__SHADER_MEDIAN_KEYS,   /* median of float sources (their keys' order); MEDIAN: of unorm ones */
    AMP__SHADER_CONV_SUBGROUP_INT, /* conv_subgroup's sums and sobel on the codes themselves (the images' uint views) */
    AMP__SHADER_CONV_SUBGROUP_HALF_CODES, /* conv_subgroup_half's on the codes themselves (the images' uint views) */
    AMP__SHADER_COUNT
} amp__filter_shader;

/* A pass's structure: the shaders' specialization constants 0..26, in order
 * (shaders/filter/filter.glsl). A pipeline is made per shader and spec. */
typedef struct amp__filter_spec {
    int32_t src_n, dst_n;   /* components of the source and destination */
    int32_t ops;            /* pointwise ops */
    int32_t op[MAX_POINTWISE]; /* op | components after it << 8 */
    int32_t flags, mode, pass, border, radius;
    float src_levels;       /* codes of a unorm source (0: float) */
    float mid_levels;       /* the intermediate type: codes, 0 float32, -1 float16 */
    float dst_levels;       /* codes of a unorm destination (0: float) */
} amp__filter_spec;

/* A pass's numbers (std140; filter.glsl's Params). */
typedef struct amp__filter_params {
    int32_t size[4];   /* source width, height; destination width, height */
    float border_value[4];
    float f[4];        /* the filter's numbers */
    int32_t counts[4]; /* conv_subgroup.comp: the rows of a strip ([0]); integer sums: T = S^2, ceil(2^32 / 2T)
                          ([1], [2]); packed.comp: quads a row ([0]), the result's first quad ([3]) */
    float pw_arg[MAX_POINTWISE * 3][4];
    float weights[64]; /* conv: w[0..radius] when radius < 64 */
} amp__filter_params;

/* The bytes of packed.comp's source of `quads` quads a row and h rows in the view's buffer,
 * to the next 32 (a pair of quads: the result follows it there; pass.c's record_packed). */
static inline uint64_t amp__packed_source_bytes(int quads, int h)
{
    return ((uint64_t)quads * 16 * (uint64_t)h + 31) & ~(uint64_t)31;
}

/* ---- params.c ---- */
/* True for filters that map one texel to one texel (fused into the pass before). */
AMP_HIDDEN bool amp__op_pointwise(amp_image_op op);
/* Checks a filter's parameters alone (not against textures); names the filter and
 * the parameter on error. */
AMP_HIDDEN amp_status amp__filter_check(const amp_image_filter *f, int index);
/* The radius a filter uses after its defaults; src_bits is the source's depth. */
AMP_HIDDEN int amp__filter_radius(const amp_image_filter *f, int src_bits);
/* The gaussian's half kernel, w[0..radius] (offsets 0..radius), as cv2.getGaussianKernel. */
AMP_HIDDEN void amp__gaussian_weights(int radius, double sigma, float *w);
/* The same as the integers w[0..radius] over 256 that OpenCV's GaussianBlur of 8-bit
 * images uses (its bit-exact fixed-point kernel); radius <= AMP__FIXED_RADIUS. */
#define AMP__FIXED_RADIUS 63
AMP_HIDDEN void amp__gaussian_fixed(int radius, double sigma, int *w);
/* The border a filter uses (AMP_BORDER_DEFAULT resolved). */
AMP_HIDDEN amp_border amp__filter_border(const amp_image_filter *f);
/* Appends a pointwise filter to p's program; levels: the intermediate's codes. */
AMP_HIDDEN void amp__pointwise_add(amp__filter_spec *s, amp__filter_params *p, const amp_image_filter *f,
                                   int components_after, float levels);

/* ---- plan.c: the test switches ---- */
/* For tests: CPU devices take the GPUs' paths, so that lavapipe checks them:
 * conv_subgroup.comp (separable filters of small radii; conv_subgroup_half, and
 * conv_subgroup_half_codes between textures with uint views, for erode, dilate and the
 * 3 x 3 median of 8 bits; conv_subgroup_int's sums between them) where their subgroups
 * allow, conv_run.comp (two passes) and median_half (5 x 5 of 8 bits). */
AMP_HIDDEN void amp__filter_force_gpu_paths(bool on);
/* For tests: packed.comp computes every pointwise program, none as a table of codes. */
AMP_HIDDEN void amp__filter_tables_off(bool on);
/* For tests: a pass of a small image on a CPU device takes packed.comp at once wherever
 * packed.comp can take it, without earning its pipelines first (PACKED_SMALL_PIXELS and
 * plan.c's earned). */
AMP_HIDDEN void amp__filter_tier_now(bool on);
/* For tests: packed.comp's window passes are two (the quads inside, those at the edges) at
 * any size, not only from PACKED_SPLIT_PIXELS, so that small images check both. */
AMP_HIDDEN void amp__filter_split_now(bool on);
/* For tests: the shaders that loop over their grid's rows (conv_subgroup.comp's modules,
 * median.comp's) dispatched with at most `rows` rows of work groups, so that their loops run
 * more than once, and conv_mma.comp with at most `rows` work groups, so that each group's
 * share of the strips' row blocks is larger and crosses from one strip into the next (0: the
 * whole grid, as plan.c makes it). */
AMP_HIDDEN void amp__filter_grid_rows(int rows);

/* ---- pass.c ---- */
/* One dispatch of a pass: the shader and its block, its textures (orig: the
 * texture conv reads the center from; NULL: src) and its workgroups. */
typedef struct amp__filter_dispatch {
    amp__filter_shader shader;
    amp__filter_spec spec;
    amp__filter_params params;
    amp_texture *src, *dst, *orig;
    uint32_t groups[2];
} amp__filter_dispatch;
/* Records count dispatches on v in one batch, in order, sharing a scratch buffer
 * of scratch_size bytes (copied from scratch, or zeros when it is NULL) with a
 * barrier on it between them; packed.comp's passes (all the dispatches or none) have
 * it as their memory (binding 7), its first PACKED_TABLE_BYTES their table of codes.
 * The caller holds the device lock. */
AMP_HIDDEN amp_status amp__filter_record(amp_accelerator_view *v, amp__filter_dispatch *d, int count,
                                         const void *scratch, size_t scratch_size);
/* A texture for intermediate results on v, from the device's pool (made on first
 * use); released to the pool by amp__filter_pool_release. The caller holds the
 * device lock. */
AMP_HIDDEN amp_texture *amp__filter_intermediate(amp_accelerator_view *v, amp_extent extent, amp_type type,
                                                 int bits);
AMP_HIDDEN void amp__filter_pool_release(amp__device *d);
/* Tiered pipelines (CPU devices): whether a pass may take the pipelines of d[0..count)
 * now, which are dear to make and fast to run (plan.c's packed passes of small images):
 * true where they are made already, or where the pixels credited to d[0]'s pipeline,
 * these `pixels` with them, reach `threshold` (the caller then records d, which makes
 * them); false, having credited them (where `credit`: else nothing changes), where the
 * pass should take its other pipelines. The caller holds the device lock. */
AMP_HIDDEN bool amp__filter_tier(const amp_accelerator_view *v, const amp__filter_dispatch *d, int count, int64_t pixels,
                                 int64_t threshold, bool credit);
/* The module's name, as the profile and the trace give its dispatches ("conv subgroup"). */
AMP_HIDDEN const char *amp__filter_shader_name(amp__filter_shader sh);
/* For tests: the filter pipelines made so far on v's device. */
AMP_HIDDEN int amp__filter_pipeline_count(amp_accelerator_view *v);

/* ---- plan.c ---- */
/* The sizes at which the planner changes modules (chain.c's prepare makes stand-ins of them). */
#define BLOCK_MIN_PIXELS (1 << 20) /* the smallest destination that conv_block.comp is for */
#define PACKED_MIN_PIXELS (1 << 18) /* the smallest image packed.comp is for at once, 512 x 512: its
                                       first call about as long as the image path's, the next
                                       ones several times as fast (docs/perf.md) */
#define PACKED_SMALL_PIXELS (1 << 12) /* and below, from 4096 pixels (64 x 64), once the pass
                                         has earned its pipeline: its first call there takes
                                         longer than the image path's, the next ones far less */
#define PACKED_SPLIT_PIXELS (1 << 19) /* and the smallest image whose window passes are two, the
                                         quads inside and those at the edges; below, one pass of
                                         the edges' code, whose one pipeline is quicker to make
                                         and as fast on images this small */
/* A pass's plan: the rule of plan.c's table that chose it, and the dispatches it records
 * (the module, the spec with its mode, pass and flags, the work groups). */
typedef struct amp__pass_plan {
    const char *rule;
    int count; /* dispatches, d[0..count) */
    amp__filter_dispatch d[3];
    bool between; /* two passes through a float texture that the caller makes: d[0] writes it, d[1] reads it */
    bool taps;    /* resize.comp's taps in the scratch buffer (chain.c's resize_pass) */
    size_t memory; /* else the scratch buffer's bytes, zeros (counts, packed.comp's memory), or 0 */
} amp__pass_plan;
/* Plans a pass whose leading filter is f (NULL: a copy or pointwise filters alone) from
 * d, its dispatch with its numbers worked out (chain.c's: FLAG_INTEGER, FLAG_FIXED, the
 * weights), on v's device: the first rule of the table that holds. credit: whether a small
 * image's pass credits its pixels towards packed.comp's pipelines (amp__filter_tier; false:
 * a plan to show, which changes nothing). The caller holds the device lock. */
AMP_HIDDEN void amp__filter_plan_pass(const amp_accelerator_view *v, const amp_image_filter *f,
                                      const amp__filter_dispatch *d, bool credit, amp__pass_plan *plan);
/* The name of the mode of spec s in module sh (filter_shared.h's: "PACKED_MODE_SUM"), or
 * "-" where the module has no modes. */
AMP_HIDDEN const char *amp__filter_mode_name(amp__filter_shader sh, const amp__filter_spec *s);
/* The planner's table as a Markdown table (docs/filters.md holds the same) into text
 * (snprintf's rules): the length of all of it. */
AMP_HIDDEN size_t amp__filter_plan_table(char *text, size_t size);
/* The predicates chain.c shares: whether v's device takes the paths made for GPUs (not a
 * CPU device, unless a test forces them); whether conv_block.comp runs filter f (radius r,
 * `pixels` destination pixels) there; whether spec s goes from 8-bit codes into 8-bit
 * codes; whether d's border, if constant, is whole 8-bit codes (0.25 is 63.75 codes: no);
 * the factor k by which resize f makes out from in where that is packed.comp's mean of
 * k x k blocks or its every k-th texel, else 0: a whole k up to PACKED_RADIUS both ways,
 * for INTER_AREA, INTER_NEAREST, and INTER_LINEAR's halving (OpenCV's 11-bit weights of
 * 1/2 round to the same bytes). */
AMP_HIDDEN bool amp__filter_gpu_paths(const amp_accelerator_view *v);
AMP_HIDDEN bool amp__filter_block_pass(const amp_accelerator_view *v, const amp_image_filter *f, int r,
                                       int64_t pixels);
AMP_HIDDEN bool amp__filter_eight_bits(const amp__filter_spec *s);
AMP_HIDDEN bool amp__filter_border_codes(const amp__filter_dispatch *d);
AMP_HIDDEN int amp__filter_shrink_factor(const amp_image_filter *f, amp_extent in, amp_extent out);

#endif
