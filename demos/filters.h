/*
 * filters.h: the filter demo's image filters, run through ampvk.
 *
 * An image is rows x columns packed RGBA8 pixels, one uint32_t each with R in the
 * low byte (a texel of an RGBA8 texture on a little-endian host, and the order
 * GLSL's unpackUnorm4x8 reads). The kernels are demos/filters.glsl, embedded in
 * the program at build time; every filter clamps coordinates at the borders and
 * keeps alpha (the Gaussian blurs it like the colour channels).
 *
 * Used by ampvk-filter and by tests/test_filter_demo.c, which compares each
 * filter with a host computation of the same integer formula.
 */
#ifndef AMPVK_DEMO_FILTERS_H
#define AMPVK_DEMO_FILTERS_H

#include <stdint.h>

#include "ampvk/ampvk.h"

typedef enum filter_kind {
    FILTER_INVERT = 0,    /* 255 - c for R, G, B */
    FILTER_GRAYSCALE = 1, /* BT.601 luma (77 R + 150 G + 29 B + 128) >> 8 */
    FILTER_GAUSSIAN = 2,  /* 5x5 binomial blur, (1 4 6 4 1)^2 / 256, rounded */
    FILTER_SOBEL = 3,     /* Sobel gradient magnitude of the luma, clamped to 255 */
    FILTER_COUNT
} filter_kind;

/* "invert", "grayscale", "gaussian", "sobel". */
const char *filter_name(filter_kind kind);
/* The filter called name; FILTER_COUNT when there is none. */
filter_kind filter_from_name(const char *name);

/* Compiles the filter's kernel for view (NULL: the default view). NULL on error,
 * with amp_last_error() saying why. */
amp_kernel *filter_kernel_create(amp_accelerator_view *view, filter_kind kind);

/* Reads a PNG through ampvk (amp_texture_load_png, converted to RGBA 8-bit) into
 * malloc'ed packed pixels. NULL on error, with amp_last_error() naming the file and
 * the reason. */
uint32_t *filter_load_png(const char *path, int *rows, int *cols);

/* Writes packed pixels as an RGBA 8-bit PNG through ampvk (atomically: the file
 * appears only when complete). */
amp_status filter_save_png(const char *path, const uint32_t *pixels, int rows, int cols);

/* Runs kernel over src (rows x cols pixels) into dst and copies dst back to the
 * host. src and dst must not overlap. */
amp_status filter_run(amp_accelerator_view *view, amp_kernel *kernel, const uint32_t *src,
                      uint32_t *dst, int rows, int cols);

#endif
