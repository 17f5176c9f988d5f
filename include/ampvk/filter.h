/*
 * ampvk/filter.h: built-in image filters on 2-D textures, matching OpenCV.
 *
 * A filter reads a source texture and writes a destination texture. Its GPU code
 * is compiled into the library (no GLSL is compiled at run time). The work is
 * recorded on the source's accelerator_view like any other (batched; nothing
 * waits), so copies and kernels before and after it are ordered as usual.
 *
 *     amp_image_filter blur = {.op = AMP_IMAGE_GAUSSIAN, .sigma = 2.0f};
 *     amp_image_filter_apply(&blur, src, dst);
 *
 *     amp_image_filter chain[] = {{.op = AMP_IMAGE_GAUSSIAN, .radius = 2},
 *                                 {.op = AMP_IMAGE_GRAYSCALE},
 *                                 {.op = AMP_IMAGE_RESIZE, .width = 960}};
 *     amp_image_filter_chain(chain, 3, src, dst);
 *
 * Textures. Sources and destinations are 2-D textures of unorm (8 or 16 bits) or
 * float (16 or 32 bits) texels with 1 to 4 components (3-component textures
 * included), of any extent the device allows. Values are normalized: an 8-bit
 * texel of 255 is 1.0, as a float texture holds it. The destination may have
 * another type than the source (8-bit in, float out); a unorm destination stores
 * the result clamped to [0, 1] and rounded to the nearest code (ties away from
 * zero). Source and destination must be different textures on the same device.
 * Only mip level 0 is read and written.
 *
 * Channels. With 1 or 3 components a texture has no alpha; with 2 the second
 * component is alpha (gray + alpha), with 4 the fourth. Pointwise color filters
 * and sobel keep alpha; blurs, sharpen, morphology, median, bilateral and resizes
 * filter it like the colors. The destination's component count must equal the source's,
 * except after grayscale, which writes gray to a 1-component destination, gray +
 * alpha to a 2-component one and gray in every color of a 3- or 4-component one.
 *
 * Filters (amp_image_filter.op; each field's zero value is the default):
 *   AMP_IMAGE_COPY        converts to the destination's type (no other change)
 *   AMP_IMAGE_GAUSSIAN    radius, sigma, as cv2.GaussianBlur with ksize = 2 radius + 1:
 *                         sigma 0 is derived from the radius, radius 0 from sigma
 *                         (3 sigma for 8-bit sources, 4 sigma for others); both 0:
 *                         radius 2 (5 x 5). Radius up to 4096 (box, erode and
 *                         dilate too; OpenCV's CUDA module stops at 32).
 *   AMP_IMAGE_BOX         radius (0: 1): the mean over (2 radius + 1)^2, cv2.blur
 *   AMP_IMAGE_MEDIAN      radius 1 to 7 (0: 1): the per-channel median, cv2.medianBlur
 *   AMP_IMAGE_SOBEL       3 x 3 derivatives per channel, as cv2.Sobel with ksize 3:
 *                         sobel = AMP_SOBEL_MAGNITUDE sqrt(dx^2 + dy^2), AMP_SOBEL_X
 *                         |dx|, AMP_SOBEL_Y |dy| (signed_output: dx or dy with their
 *                         sign, for float destinations). Units of the normalized value.
 *   AMP_IMAGE_SHARPEN     unsharp mask: src + amount (src - gaussian(src, sigma));
 *                         amount 0: 1, sigma 0: 1 (radius as gaussian's)
 *   AMP_IMAGE_BILATERAL   diameter, sigma_color, sigma_space as cv2.bilateralFilter
 *                         (diameter 0: from sigma_space; sigma_color in steps of
 *                         1/255 of full scale, 0: 1; sigma_space 0: 1). The color
 *                         distance is the sum of the color components' differences;
 *                         alpha is not part of it but is filtered. Radius up to 127.
 *   AMP_IMAGE_ERODE       radius (0: 1): the minimum over a (2 radius + 1)^2 rectangle
 *   AMP_IMAGE_DILATE      radius (0: 1): the maximum
 *   AMP_IMAGE_GRAYSCALE   cv2.COLOR_RGB2GRAY (0.299 R + 0.587 G + 0.114 B); 8- and
 *                         16-bit sources in OpenCV's fixed point, (9798 R + 19235 G +
 *                         3735 B + 2^14) >> 15 on codes, so the result is exact
 *   AMP_IMAGE_SEPIA       the standard sepia matrix, saturated
 *   AMP_IMAGE_INVERT      1 - v
 *   AMP_IMAGE_GAMMA       v^(1/gamma) (gamma 0: 2.2), as ImageMagick's -gamma
 *   AMP_IMAGE_BRIGHTNESS_CONTRAST  contrast * v + brightness, as convertTo(alpha,
 *                         beta) (contrast 0: 1; brightness in full-scale units:
 *                         convertTo's beta 10 on an 8-bit image is 10 / 255.0)
 *   AMP_IMAGE_THRESHOLD   cv2.threshold: threshold_type AMP_THRESHOLD_BINARY (v >
 *                         threshold ? max_value : 0), _BINARY_INV, _TRUNC (min(v,
 *                         threshold)); threshold in full-scale units (compared on
 *                         8- and 16-bit codes as OpenCV does), max_value 0: 1
 *   AMP_IMAGE_SRGB_TO_LINEAR, AMP_IMAGE_LINEAR_TO_SRGB  the sRGB transfer function
 *   AMP_IMAGE_TONEMAP     HDR to [0, 1]: v = exposure * v (exposure 0: 1), then curve
 *                         AMP_TONEMAP_REINHARD v / (1 + v) (default), or AMP_TONEMAP_ACES
 *                         Narkowicz's fit of the ACES filmic curve, v (2.51 v + 0.03) /
 *                         (v (2.43 v + 0.59) + 0.14), clamped; negative values are 0.
 *                         The result is linear (follow it with linear_to_srgb to encode)
 *   AMP_IMAGE_RESIZE      to width x height (0 for one: keeps the aspect ratio; both
 *                         0: the destination's extent) with interpolation
 *                         AMP_INTERP_LINEAR (default), _NEAREST, _AREA, _CUBIC or
 *                         _LANCZOS4, as cv2.resize's INTER_* (edges replicated)
 *   AMP_IMAGE_EQUALIZE    cv2.equalizeHist of a 1-component unorm texture (of the gray
 *                         channel of a 2-component one: gray + alpha, alpha kept)
 * Alpha of the color filters: grayscale, sepia, invert, gamma, brightness/contrast,
 * threshold, the sRGB functions and tonemap change the colors only.
 *
 * Borders (border): AMP_BORDER_DEFAULT is what the OpenCV function uses (reflect-101
 * for gaussian, box, sobel, sharpen and bilateral; replicate for median; for erode
 * and dilate every border gives the same result as OpenCV's). Others:
 * AMP_BORDER_REFLECT_101 (gfedcb|abcdefgh|gfedcba), _REPLICATE (aaa|abc|ccc),
 * _REFLECT (cba|abc|cba), _WRAP (abc|abc|abc) and _CONSTANT (border_value, in
 * normalized units per component). Any radius works with every border.
 *
 * Accuracy against OpenCV 4.6 on 8-bit images: exact for invert, threshold, erode,
 * dilate, median, equalize, grayscale and nearest resize; within one level for the
 * others (OpenCV rounds through fixed point, ampvk computes in float), but for the
 * integer sums, exact on every device. 8-bit into 8-bit gaussians of any sigma and
 * radius up to 63 take OpenCV's fixed-point kernel (its weights in 256ths, chosen as
 * cv2.GaussianBlur chooses them) and sum the codes exactly, rounding as it does; with
 * a constant border, where its value is 0 (OpenCV's). Boxes of radius 1 to 4 sum the
 * codes in integers and round as OpenCV does (with a constant border whose value is no
 * whole code, they take floats). On GPUs, other blurs of 8 bits into 8 bits keep their
 * intermediate sums in 16-bit floats, which move a result by under a quarter of a
 * level; where the GPU has tensor cores (VK_NV_cooperative_matrix), gaussians of
 * radius 5 to 16 and box and sharpen of radius 9 to 16 run on them in one pass.
 *
 * Chains. amp_image_filter_chain() runs filters one after another with the
 * intermediate images on the device, in textures of the source's type (the last
 * filter writes the destination). Pointwise filters (copy, the color filters) are
 * fused into the pass before them, and a run of pointwise filters is one pass; the
 * result equals running the filters one by one through such textures (but for a
 * value exactly halfway between two codes, which a device's last-bit difference in
 * decoding a stored texel may round either way). A resize other than the last
 * needs its width or height.
 *
 * CPU devices (lavapipe). 8-bit RGBA (and gray, for equalize) images of 512 x 512
 * pixels or more run through passes made for CPUs, on the texels' bytes in buffers,
 * several times as fast as the image passes every device has but slower to make
 * (docs/perf.md has the figures). Smaller images, from 4096 pixels (64 x 64), take
 * them once a filter has earned it: the run that brings the pixels its runs on the
 * image passes took (at any of those sizes) to half a megapixel (the 8th of a 256 x 256
 * image, the 32nd of a 128 x 128) makes the pipeline and takes it, and the runs after
 * it take a fraction of the image passes' time. Only
 * filters whose bytes are the same either way do so (integer sums, OpenCV's
 * fixed-point gaussians, erode, dilate, the medians, equalize; without a fused
 * pointwise filter), so a result never depends on how many runs came before it.
 *
 * Errors name the filter, the parameter and the numbers (a radius the device or
 * the filter cannot do, a type a filter cannot write, extents that must match, a
 * multi-component source for equalize); nothing is recorded then and the
 * destination is untouched.
 */
#ifndef AMPVK_FILTER_H
#define AMPVK_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum amp_image_op {
    AMP_IMAGE_COPY = 0,
    AMP_IMAGE_GAUSSIAN,
    AMP_IMAGE_BOX,
    AMP_IMAGE_MEDIAN,
    AMP_IMAGE_SOBEL,
    AMP_IMAGE_SHARPEN,
    AMP_IMAGE_BILATERAL,
    AMP_IMAGE_ERODE,
    AMP_IMAGE_DILATE,
    AMP_IMAGE_GRAYSCALE,
    AMP_IMAGE_SEPIA,
    AMP_IMAGE_INVERT,
    AMP_IMAGE_GAMMA,
    AMP_IMAGE_BRIGHTNESS_CONTRAST,
    AMP_IMAGE_THRESHOLD,
    AMP_IMAGE_SRGB_TO_LINEAR,
    AMP_IMAGE_LINEAR_TO_SRGB,
    AMP_IMAGE_RESIZE,
    AMP_IMAGE_EQUALIZE,
    AMP_IMAGE_TONEMAP,
    AMP_IMAGE_OP_COUNT
} amp_image_op;

typedef enum amp_border {
    AMP_BORDER_DEFAULT = 0,  /* the OpenCV function's */
    AMP_BORDER_REFLECT_101,
    AMP_BORDER_REPLICATE,
    AMP_BORDER_REFLECT,
    AMP_BORDER_WRAP,
    AMP_BORDER_CONSTANT
} amp_border;

typedef enum amp_interpolation {
    AMP_INTERP_LINEAR = 0,
    AMP_INTERP_NEAREST,
    AMP_INTERP_AREA,
    AMP_INTERP_CUBIC,
    AMP_INTERP_LANCZOS4
} amp_interpolation;

typedef enum amp_sobel_output { AMP_SOBEL_MAGNITUDE = 0, AMP_SOBEL_X, AMP_SOBEL_Y } amp_sobel_output;

typedef enum amp_tonemap_curve {
    AMP_TONEMAP_REINHARD = 0,
    AMP_TONEMAP_ACES
} amp_tonemap_curve;

typedef enum amp_threshold_type {
    AMP_THRESHOLD_BINARY = 0,
    AMP_THRESHOLD_BINARY_INV,
    AMP_THRESHOLD_TRUNC
} amp_threshold_type;

/* One filter and its parameters; fields a filter does not use are ignored. */
typedef struct amp_image_filter {
    amp_image_op op;
    int radius;                  /* gaussian, box, median, erode, dilate, sharpen */
    float sigma;                 /* gaussian, sharpen */
    float amount;                /* sharpen (0: 1) */
    int diameter;                /* bilateral (0: from sigma_space) */
    float sigma_color;           /* bilateral, in 1/255 steps (0: 1) */
    float sigma_space;           /* bilateral (0: 1) */
    amp_sobel_output sobel;      /* sobel */
    bool signed_output;          /* sobel X or Y to a float destination: keep the sign */
    float gamma;                 /* gamma (0: 2.2) */
    float contrast;              /* brightness/contrast: the factor (0: 1) */
    float brightness;            /* brightness/contrast: added, full-scale units */
    amp_threshold_type threshold_type;
    float threshold;             /* threshold, full-scale units */
    float max_value;             /* threshold (0: 1) */
    int width, height;           /* resize: the new size (see above) */
    amp_interpolation interpolation; /* resize */
    amp_border border;           /* neighborhood filters */
    float border_value[4];       /* AMP_BORDER_CONSTANT */
    amp_tonemap_curve curve;     /* tonemap */
    float exposure;              /* tonemap: the factor before the curve (0: 1) */
} amp_image_filter;

/* Runs one filter from src into dst (see above). */
amp_status amp_image_filter_apply(const amp_image_filter *filter, amp_texture *src, amp_texture *dst);
/* Runs count filters (1 to 64) from src into dst, the intermediates on the device. */
amp_status amp_image_filter_chain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst);
/* Makes the device pipelines that the chain will use on sources of `type` and
 * `bits` (into destinations of the same scalar type and bits) on view's device
 * (NULL: the default view), so that its first run compiles nothing. Worth it on CPU
 * devices, where lavapipe compiles each pipeline to machine code (slowly with an empty
 * shader cache, faster with Mesa's cache warm), while the program does something
 * else (the ampvk tool decodes the image meanwhile), and before timing a chain. It runs the chain on a 16 x 16 texture
 * (resizes to 8 x 8; a megapixel one where a CPU device would run a filter of the chain
 * through its large-image pass) and submits it (drivers such as lavapipe compile a
 * pipeline when it first runs), then waits for that run to free its textures. Errors as
 * amp_image_filter_chain. */
amp_status amp_image_filter_prepare(amp_accelerator_view *view, const amp_image_filter *filters, int count,
                                    amp_type type, int bits);
/* As amp_image_filter_prepare, for sources of extent src (rows, columns): only the
 * pipelines that the chain uses at that size. A CPU device runs some filters of an
 * image of 512 x 512 pixels or more through other passes than a small one's (one pass
 * below half a megapixel, two from there), and amp_image_filter_prepare, not knowing the
 * size, makes a megapixel image's (on lavapipe a 256 x 256 or a 512 x 512 image's
 * gaussian would then make its own pipeline on its first run, the others made for
 * nothing). An extent that is not 2-D and at least 1 x 1 is an
 * error. */
amp_status amp_image_filter_prepare_extent(amp_accelerator_view *view, const amp_image_filter *filters, int count,
                                           amp_type type, int bits, amp_extent src);
/* How amp_image_filter_chain would run the chain from src into dst now, as text into
 * `text` (size bytes; cut short and terminated where it does not fit): for each pass, its
 * filters, the planner's rule that chose its module (docs/filters.md has the table of
 * rules) and each dispatch's module, mode, flags and work groups. Records nothing, makes
 * no pipeline and counts toward no pass's tier (it may make the chain's pooled intermediate
 * textures, as a run would); a small image's pass on a CPU device shows the passes its
 * next run would take. Errors as amp_image_filter_chain. */
amp_status amp_image_filter_explain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst,
                                    char *text, size_t size);
/* The extent a chain produces from a source of extent src (rows, columns): the
 * resizes' sizes. A last resize with no size keeps src's extent here. */
amp_status amp_image_filter_output_extent(const amp_image_filter *filters, int count, amp_extent src,
                                          amp_extent *out);
/* The component count a chain writes for a source of `components` (grayscale makes
 * 1, or 2 with alpha), for making a destination. */
int amp_image_filter_output_components(const amp_image_filter *filters, int count, int components);
/* Parses a filter written as NAME or NAME:key=value,key=value (the ampvk tool's
 * syntax) into *out, zeroed first. Keys are the field names above (border_value=V
 * or V/V/V/V; signed=0|1 for signed_output; type= for threshold_type); enum values
 * by name: sobel=magnitude|x|y, type=binary|binary_inv|trunc,
 * interpolation=linear|nearest|area|cubic|lanczos4,
 * border=default|reflect_101|replicate|reflect|wrap|constant. Errors name the
 * key and the value. */
amp_status amp_image_filter_parse(const char *spec, amp_image_filter *out);
/* Parses a chain, filters as amp_image_filter_parse takes them separated by spaces
 * ("gaussian:sigma=2 sharpen:amount=0.5"), into out[0 .. *count - 1], at most max of
 * them. Errors: no filter, more than max, or the first filter that does not parse
 * (its message); out and *count are then as they were. */
amp_status amp_image_filter_parse_chain(const char *chain, amp_image_filter *out, int max, int *count);
/* Writes the syntax of op's filter into buf (size bytes, always NUL-terminated when
 * size > 0): its name and, after a colon, each key it uses with the kind of its value
 * ("gaussian:radius=INT,sigma=FLOAT,border=default|reflect_101|...,border_value=V[/V/V/V]"),
 * from the table that amp_image_filter_parse reads. Returns the length of the whole
 * text (as snprintf), or -1 for an op that is no filter. buf may be NULL with size 0. */
int amp_image_filter_describe(amp_image_op op, char *buf, size_t size);
/* The filter's name ("gaussian", "brightness_contrast", ...), or NULL. */
const char *amp_image_op_name(amp_image_op op);
/* The filter named name (as amp_image_op_name gives it); AMP_OK or an error naming it. */
amp_status amp_image_op_from_name(const char *name, amp_image_op *out);

#ifdef __cplusplus
}
#endif
#endif
