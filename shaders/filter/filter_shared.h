/* The constants that the filter layer's C (src/filter) and its shaders (shaders/filter)
 * share: the flags and modes of a pass's specialization constants, the codes of its ops
 * and borders, and the sizes that a shader is built with and the planner launches it by.
 * Included by both (filter_internal.h, filter.glsl): plain #defines of integers, and
 * macros of integer arithmetic that C and GLSL read alike. No number that means a mode
 * appears outside this file; src/filter/plan.c chooses them (docs/filters.md). */
#ifndef AMP_FILTER_SHARED_H
#define AMP_FILTER_SHARED_H

/* ---- FLAGS (specialization constant 19) ---- */
#define FLAG_QUANTIZE_RAW 1 /* the raw result passes through the intermediate type first */
#define FLAG_SIGNED 2       /* sobel: keep the derivative's sign */
#define FLAG_CODES 4        /* the source is unorm: SRC_LEVELS codes */
#define FLAG_INTEGER 8      /* an integer sum: 8 bits, integer weights (conv.glsl; chain.c's integer_sum) */
#define FLAG_FIXED 16       /* OpenCV's fixed-point 8-bit gaussian, weights W_k / 256 (conv.glsl; chain.c's fixed_gaussian) */
#define FLAG_WIDE 32        /* median.comp: a GPU's MEDIAN_WIDE_W x _H tile of 5 x 5 windows (else the narrow one) */
#define FLAG_TABLE 64       /* packed.comp, words.glsl: the pointwise program of 8-bit codes as a table */
#define FLAG_SHAPE 128      /* packed.comp: and that table as shapes, arithmetic on the codes */
#define FLAG_WORDS 256      /* the codes as a word a texel, the images' word views (words.glsl) */
#define FLAG_SOBEL 512      /* conv_subgroup_int: sobel on 8-bit codes (its sobel_main) */
#define FLAG_NEAR 1024      /* the source wider and taller than the radius: borders of one reflection (border_at) */
#define FLAG_WHOLE_ROWS 2048 /* packed.comp: PASS 1 takes every quad of its rows (one pass: small images) */

/* ---- MODE (specialization constant 20), by module ---- */
/* conv.comp, conv_block.comp, conv_run.comp, conv_subgroup.comp and its variants */
#define CONV_MODE_SUM 0     /* a weighted sum: gaussian, box, sharpen */
#define CONV_MODE_ERODE 1   /* the minimum */
#define CONV_MODE_DILATE 2  /* the maximum */
#define CONV_MODE_MEDIAN3 3 /* conv_subgroup_half(_codes): the 3 x 3 median */
/* sobel.comp and conv_subgroup_int's FLAG_SOBEL: amp_sobel_output's values */
#define SOBEL_MODE_MAGNITUDE 0
#define SOBEL_MODE_X 1
#define SOBEL_MODE_Y 2
/* resize.comp: amp_interpolation's values */
#define RESIZE_MODE_LINEAR 0
#define RESIZE_MODE_NEAREST 1
#define RESIZE_MODE_AREA 2
#define RESIZE_MODE_CUBIC 3
#define RESIZE_MODE_LANCZOS4 4
/* packed.comp and packed_wide */
#define PACKED_MODE_POINTWISE 0   /* the copy and the pointwise filters, stored as pairs of quads */
#define PACKED_MODE_SUM 1         /* an integer sum (FLAG_INTEGER's), rounded by a division by T = S^2 */
#define PACKED_MODE_SUM_SHIFT 2   /* and where T is a power of two, by a shift */
#define PACKED_MODE_ERODE 3
#define PACKED_MODE_DILATE 4
#define PACKED_MODE_FLOAT_SUM 5   /* the other sums, in floats (FLAG_FIXED's gaussians among them) */
#define PACKED_MODE_SHARPEN 6
#define PACKED_MODE_MEDIAN3 7     /* the 3 x 3 median */
#define PACKED_MODE_SHRINK 8      /* the means of k x k blocks (k: RADIUS), a resize */
#define PACKED_MODE_EQUALIZE 9    /* of 8-bit gray, in three passes */
#define PACKED_MODE_PICK 10       /* every k-th texel of every k-th row: a nearest resize */
#define PACKED_MODE_MEDIAN5 11    /* the 5 x 5 median */
#define PACKED_MODE_BILATERAL 12

/* ---- PASS (specialization constant 21) of the modules of several ---- */
#define PACKED_TABLE_PASS 3 /* packed.comp's pass that makes the table (one work group, before the others) */

/* ---- the pointwise ops' codes (amp_image_op's values) and the borders (amp_border's) ---- */
#define OP_GRAYSCALE 9
#define OP_SEPIA 10
#define OP_INVERT 11
#define OP_GAMMA 12
#define OP_BRIGHTNESS_CONTRAST 13
#define OP_THRESHOLD 14
#define OP_SRGB_TO_LINEAR 15
#define OP_LINEAR_TO_SRGB 16
#define OP_TONEMAP 19
#define BORDER_REFLECT_101 1
#define BORDER_REPLICATE 2
#define BORDER_REFLECT 3
#define BORDER_WRAP 4
#define BORDER_CONSTANT 5

/* ---- sizes ---- */
#define MAX_POINTWISE 16 /* pointwise ops a pass fuses (OP0..OP15; 3 vec4 arguments each) */
#define RUN 8            /* outputs an invocation of a walk: conv_run.comp, sobel.comp, median.comp's 3 x 3 */
#define POINT_ROWS 4     /* texels an invocation of pointwise.comp, a column's, 16 rows apart */
#define TILE_RADIUS 4    /* conv.comp's largest radius of one pass (its tile's apron) */
#define BLOCK_RADIUS 4   /* conv_block.comp's largest radius (its loops' bound) */
#define BLOCK_OUTPUTS 4  /* and the outputs an invocation in each direction: 16 x 4 pixels a work group */
#define SUBGROUP_RADIUS 4 /* conv_subgroup.comp's largest radius (its loops' bound) */
#define SUBGROUP_GROUP 128 /* and its work group's invocations */
#define SUBGROUP_PRE_STRIP 8 /* and the rows of a strip of its integer and 16-bit-float walks */
#define RUN_GROUP_X 32   /* conv_run.comp's work group */
#define RUN_GROUP_Y 8
#define EQUALIZE_ROWS 64 /* equalize.comp: the rows of its work groups' bands */
#define MMA_GROUP 256    /* conv_mma.comp's work group's invocations */
#define MMA_COLUMNS 32   /* and the columns of a work group's strip, blocks of 16 */
#define MMA_RADIUS 16    /* and its largest radius */
#define PACKED_GROUP_X 64 /* packed.comp's work group */
#define PACKED_GROUP_Y 1
#define PACKED_POINT_STRIP 4 /* and the rows a pointwise invocation walks, a pair of quads a row */
#define PACKED_RESIZE_STRIP 4 /* and of a resize's */
#define PACKED_RADIUS 8       /* and its largest radius (the module packed) */
#define PACKED_WIDE_RADIUS 16 /* (the module packed_wide) */
#define PACKED_BILATERAL_RADIUS 4 /* and its bilateral's (the disc unrolled) */
#define PACKED_TABLE_BYTES 1280 /* and its table: a word for each of 256 codes, then the codes' shapes */
/* the rows an invocation of packed.comp's sums of radius r walks down */
#define PACKED_STRIP_OF(r) ((r) < 4 ? 32 : (r) < 12 ? 64 : 128)

#endif
