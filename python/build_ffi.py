"""Generates the C source of ampvk._ampvk, the cffi extension over the C library.

cffi's API mode, out of line: the declarations below are checked against
ampvk/ampvk.h, a function whose type drifted from the header when CMake compiles
the generated file, a struct whose fields drifted at its first use (test_python
uses every one); the module links libampvk.so. Run by CMake:

    python3 build_ffi.py OUT.c
"""
import sys

import cffi

CDEF = r"""
typedef enum amp_status {
    AMP_OK, AMP_ERROR_INVALID_ARGUMENT, AMP_ERROR_OUT_OF_BOUNDS, AMP_ERROR_UNSUPPORTED,
    AMP_ERROR_OUT_OF_MEMORY, AMP_ERROR_DEVICE_LOST, AMP_ERROR_VULKAN, AMP_ERROR_INVALID_STATE,
    AMP_ERROR_COMPILE, AMP_ERROR_ARGUMENT_MISMATCH, AMP_ERROR_IO, AMP_ERROR_FORMAT,
    AMP_ERROR_NOT_FOUND, AMP_ERROR_TIMEOUT, ...
} amp_status;
const char *amp_status_name(amp_status status);
const char *amp_last_error(void);
amp_status amp_last_status(void);
void amp_clear_error(void);
typedef enum amp_log_level { AMP_LOG_ERROR, AMP_LOG_WARN, AMP_LOG_INFO, AMP_LOG_DEBUG, ... } amp_log_level;
typedef void (*amp_log_fn)(void *user, amp_log_level level, amp_status status, const char *message);
void amp_set_log_callback(amp_log_fn fn, void *user, amp_log_level max_level);
extern "Python" void _ampvk_log(void *user, amp_log_level level, amp_status status, const char *message);

typedef enum amp_scalar {
    AMP_SCALAR_NONE, AMP_SCALAR_INT, AMP_SCALAR_UINT, AMP_SCALAR_FLOAT, AMP_SCALAR_DOUBLE,
    AMP_SCALAR_NORM, AMP_SCALAR_UNORM, ...
} amp_scalar;
typedef enum amp_type { AMP_TYPE_STRUCT, ... } amp_type;
amp_scalar amp_type_scalar(amp_type t);
int amp_type_components(amp_type t);
size_t amp_type_size(amp_type t);
const char *amp_type_name(amp_type t);
amp_type amp_type_from_name(const char *name);

typedef struct amp_extent { int rank; int dims[3]; } amp_extent;
typedef struct amp_index { int rank; int i[3]; } amp_index;

typedef struct amp_accelerator amp_accelerator;
typedef struct amp_accelerator_view amp_accelerator_view;
typedef struct amp_future amp_future;
typedef enum amp_queuing_mode { AMP_QUEUING_AUTOMATIC, AMP_QUEUING_IMMEDIATE, ... } amp_queuing_mode;
typedef struct amp_accelerator_info {
    const char *device_path;
    const char *description;
    uint32_t version;
    size_t dedicated_memory;
    bool supports_double_precision;
    bool supports_limited_double_precision;
    bool supports_cpu_shared_memory;
    bool is_emulated;
    bool is_debug;
    bool has_display;
    int index;
    uint32_t max_tile_threads;
    uint32_t max_tile_size[3];
    uint32_t max_groups[3];
    uint32_t max_tile_static_bytes;
} amp_accelerator_info;
int amp_accelerator_count(void);
amp_accelerator *amp_accelerator_at(int i);
amp_accelerator *amp_accelerator_find(const char *key);
amp_accelerator *amp_accelerator_default(void);
amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info);
amp_accelerator_view *amp_accelerator_default_view(amp_accelerator *acc);
amp_accelerator *amp_view_accelerator(const amp_accelerator_view *view);
amp_status amp_view_flush(amp_accelerator_view *view);
amp_status amp_view_wait(amp_accelerator_view *view);
uint64_t amp_validation_message_count(void);

typedef struct amp_array_view amp_array_view;
amp_array_view *amp_array_view_create(amp_extent extent, amp_type type, size_t element_size, void *data);
amp_array_view *amp_array_view_create_const(amp_extent extent, amp_type type, size_t element_size,
                                            const void *data);
void amp_array_view_destroy(amp_array_view **view);
amp_status amp_array_view_synchronize(amp_array_view *view);

typedef struct amp_texture amp_texture;
typedef struct amp_texture_desc {
    amp_extent extent;
    amp_type type;
    int bits_per_scalar_element;
    int mip_levels;
    const void *data;
    size_t data_size;
} amp_texture_desc;
amp_texture *amp_texture_create(amp_accelerator_view *view, const amp_texture_desc *desc);
void amp_texture_destroy(amp_texture **texture);
amp_extent amp_texture_extent(const amp_texture *t);
amp_type amp_texture_type(const amp_texture *t);
int amp_texture_bits_per_scalar_element(const amp_texture *t);
typedef struct amp_texture_region { amp_index offset; amp_extent extent; int mip_level; } amp_texture_region;
amp_status amp_texture_copy_from_host(amp_texture *t, const amp_texture_region *region, const void *src,
                                      size_t size);
amp_status amp_texture_copy_to_host(amp_texture *t, const amp_texture_region *region, void *dst, size_t size);
typedef enum amp_filter { AMP_FILTER_LINEAR, AMP_FILTER_POINT, ... } amp_filter;
typedef enum amp_address {
    AMP_ADDRESS_CLAMP, AMP_ADDRESS_WRAP, AMP_ADDRESS_MIRROR, AMP_ADDRESS_BORDER, ...
} amp_address;
typedef struct amp_sampler { amp_filter filter; amp_address address; float border_color[4]; } amp_sampler;

typedef struct amp_kernel amp_kernel;
typedef enum amp_optimization { AMP_OPTIMIZE_PERFORMANCE, AMP_OPTIMIZE_NONE, AMP_OPTIMIZE_SIZE, ... } amp_optimization;
typedef struct amp_kernel_desc {
    const char *params;
    const char *body;
    const char *source;
    const char *file;
    const char *name;
    const char *declarations;
    int rank;
    int tile[3];
    const char *const *include_dirs;
    int include_dir_count;
    const char *const *defines;
    int define_count;
    amp_optimization optimization;
} amp_kernel_desc;
amp_kernel *amp_kernel_create(amp_accelerator_view *view, const amp_kernel_desc *desc);
void amp_kernel_destroy(amp_kernel **kernel);
const char *amp_kernel_glsl(const amp_kernel *kernel);
typedef enum amp_param_kind {
    AMP_PARAM_SCALAR, AMP_PARAM_VIEW, AMP_PARAM_TEXTURE, AMP_PARAM_WRITEONLY_TEXTURE,
    AMP_PARAM_SAMPLED_TEXTURE, AMP_PARAM_SAMPLER, ...
} amp_param_kind;
typedef struct amp_kernel_param_info {
    const char *name;
    const char *type_name;
    amp_param_kind kind;
    amp_type type;
    int rank;
    bool is_const;
    size_t size;
} amp_kernel_param_info;
int amp_kernel_param_count(const amp_kernel *kernel);
amp_status amp_kernel_param(const amp_kernel *kernel, int i, amp_kernel_param_info *out);
typedef enum amp_arg_kind {
    AMP_ARG_NONE, AMP_ARG_VIEW, AMP_ARG_INT, AMP_ARG_UINT, AMP_ARG_FLOAT, AMP_ARG_DOUBLE,
    AMP_ARG_BYTES, AMP_ARG_TEXTURE, AMP_ARG_TEXTURE_VIEW, AMP_ARG_SAMPLER, ...
} amp_arg_kind;
typedef struct amp_texture_view amp_texture_view;
typedef struct amp_arg {
    const char *name;
    amp_arg_kind kind;
    union {
        amp_array_view *view;
        int32_t i;
        uint32_t u;
        float f;
        double d;
        struct { const void *ptr; size_t size; } bytes;
        amp_texture *texture;
        amp_texture_view *texture_view;
        amp_sampler sampler;
    } value;
} amp_arg;
amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain, amp_kernel *kernel,
                                 const amp_arg *args, int arg_count);

typedef enum amp_image_op { AMP_IMAGE_COPY, AMP_IMAGE_OP_COUNT, ... } amp_image_op;
typedef enum amp_border { AMP_BORDER_DEFAULT, ... } amp_border;
typedef enum amp_interpolation { AMP_INTERP_LINEAR, ... } amp_interpolation;
typedef enum amp_sobel_output { AMP_SOBEL_MAGNITUDE, ... } amp_sobel_output;
typedef enum amp_tonemap_curve { AMP_TONEMAP_REINHARD, ... } amp_tonemap_curve;
typedef enum amp_threshold_type { AMP_THRESHOLD_BINARY, ... } amp_threshold_type;
typedef struct amp_image_filter {
    amp_image_op op;
    int radius;
    float sigma;
    float amount;
    int diameter;
    float sigma_color;
    float sigma_space;
    amp_sobel_output sobel;
    bool signed_output;
    float gamma;
    float contrast;
    float brightness;
    amp_threshold_type threshold_type;
    float threshold;
    float max_value;
    int width, height;
    amp_interpolation interpolation;
    amp_border border;
    float border_value[4];
    amp_tonemap_curve curve;
    float exposure;
} amp_image_filter;
amp_status amp_image_filter_chain(const amp_image_filter *filters, int count, amp_texture *src, amp_texture *dst);
amp_status amp_image_filter_output_extent(const amp_image_filter *filters, int count, amp_extent src,
                                          amp_extent *out);
int amp_image_filter_output_components(const amp_image_filter *filters, int count, int components);
amp_status amp_image_filter_parse(const char *spec, amp_image_filter *out);
amp_status amp_image_filter_parse_chain(const char *chain, amp_image_filter *out, int max, int *count);
int amp_image_filter_describe(amp_image_op op, char *buf, size_t size);
const char *amp_image_op_name(amp_image_op op);

typedef struct amp_image_load_desc {
    int channels;
    int bits;
    int mip_levels;
    bool ignore_orientation;
    uint64_t max_pixels;
} amp_image_load_desc;
typedef enum amp_image_format {
    AMP_IMAGE_FORMAT_AUTO, AMP_IMAGE_FORMAT_PNG, AMP_IMAGE_FORMAT_JPEG, AMP_IMAGE_FORMAT_BMP,
    AMP_IMAGE_FORMAT_TGA, AMP_IMAGE_FORMAT_PSD, AMP_IMAGE_FORMAT_HDR, AMP_IMAGE_FORMAT_EXR,
    AMP_IMAGE_FORMAT_WEBP, AMP_IMAGE_FORMAT_TIFF, ...
} amp_image_format;
const char *amp_image_format_name(amp_image_format f);
amp_image_format amp_image_format_from_path(const char *path);
typedef struct amp_image {
    int width, height;
    int channels;
    int bits;
    size_t stride;
    void *pixels;
    amp_image_format format;
} amp_image;
amp_status amp_image_load(const char *path, const amp_image_load_desc *desc, amp_image *out);
void amp_image_free(amp_image *img);
typedef enum amp_image_compression {
    AMP_IMAGE_COMPRESSION_DEFAULT, AMP_IMAGE_COMPRESSION_NONE, AMP_IMAGE_COMPRESSION_RLE,
    AMP_IMAGE_COMPRESSION_DEFLATE, AMP_IMAGE_COMPRESSION_LZW, AMP_IMAGE_COMPRESSION_PIZ, ...
} amp_image_compression;
typedef struct amp_image_save_desc {
    amp_image_format format;
    int bits;
    int quality;
    int png_level;
    int subsampling;
    amp_image_compression compression;
    bool lossless;
} amp_image_save_desc;
amp_status amp_image_save(const char *path, const amp_image *img, const amp_image_save_desc *desc);

typedef enum amp_image_metric {
    AMP_IMAGE_METRIC_CHANNEL, AMP_IMAGE_METRIC_YIQ, AMP_IMAGE_METRIC_SSIM, AMP_IMAGE_METRIC_FLIP, ...
} amp_image_metric;
typedef enum amp_image_tone_mapper {
    AMP_IMAGE_TONE_MAP_ACES, AMP_IMAGE_TONE_MAP_HABLE, AMP_IMAGE_TONE_MAP_REINHARD, ...
} amp_image_tone_mapper;
#define AMP_IMAGE_HISTOGRAM_BUCKETS 100
typedef struct amp_image_rect { int x, y, width, height; } amp_image_rect;
typedef struct amp_image_compare_desc {
    double tolerance;
    size_t max_pixels;
    double max_fraction;
    amp_image_metric metric;
    bool ignore_antialiased;
    bool blend_on_white;
    const amp_image_rect *ignore;
    int ignore_count;
    const amp_image *mask;
    int window;
    amp_accelerator_view *view;
    double ppd;
    amp_image_tone_mapper tone_mapper;
    int exposures;
    double exposure_start, exposure_stop;
} amp_image_compare_desc;
typedef struct amp_image_compare_result {
    bool equal;
    bool passed;
    double max_abs_diff;
    double channel_max_abs_diff[4];
    double mean_abs_diff;
    double psnr;
    double max_score, mean_score;
    double ssim;
    size_t texels;
    size_t differing_texels;
    size_t allowed_texels;
    size_t antialiased_texels;
    size_t ignored_texels;
    size_t window_texels;
    amp_index window_origin;
    amp_index first_difference;
    bool golden_written;
    double weighted_median;
    double weighted_quartiles[2];
    size_t histogram[100];
    int exposures;
    double exposure_start, exposure_stop;
} amp_image_compare_result;
amp_status amp_image_compare_images(const amp_image *expected, const amp_image *actual,
                                    const amp_image_compare_desc *desc, amp_image_compare_result *out);
typedef struct amp_image_golden_desc {
    amp_image_compare_desc compare;
    const char *failure_dir;
} amp_image_golden_desc;
amp_status amp_image_check_golden(amp_texture *t, const char *golden_path, const amp_image_golden_desc *desc,
                                  amp_image_compare_result *out);
typedef enum amp_image_draw_style {
    AMP_IMAGE_DRAW_OVERLAY, AMP_IMAGE_DRAW_MASK, AMP_IMAGE_DRAW_HEATMAP, ...
} amp_image_draw_style;
amp_status amp_image_compare_draw_styles(const amp_image *expected, const amp_image *actual,
                                         const amp_image_compare_desc *desc, const amp_image_draw_style *styles,
                                         int count, amp_image_compare_result *out, amp_image *pictures);
"""


def make_ffi():
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("ampvk._ampvk", '#include "ampvk/ampvk.h"', libraries=["ampvk"])
    return ffi


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: build_ffi.py OUT.c")
    make_ffi().emit_c_code(sys.argv[1])
