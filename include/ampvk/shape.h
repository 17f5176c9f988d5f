/*
 * ampvk/shape.h: extent and index, ranks 1 to 3.
 *
 * As in C++ AMP, component 0 is the most significant: for rank 3 an index is
 * (depth, row, column) and the column varies fastest in memory. An extent gives
 * the length along each dimension; an index names one element. Both are small
 * value types; the functions below never fail and never touch the device.
 *
 *     amp_extent e = amp_extent3(2, 3, 4);     // depth 2, rows 3, columns 4
 *     amp_index  i = amp_index3(0, 1, 3);      // element 7 in row-major order
 *     amp_extent_size(e) == 24; amp_extent_linear(e, i) == 7
 *
 * Printing: amp_extent_format / amp_index_format write "(2, 3, 4)" for diagnostics.
 * An extent with rank 0 or outside 1..3, or with a negative component, is invalid;
 * amp_extent_valid() says which. Functions taking an invalid value document what
 * they return; the runtime rejects invalid extents with AMP_ERROR_INVALID_ARGUMENT.
 */
#ifndef AMPVK_SHAPE_H
#define AMPVK_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ampvk/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AMP_MAX_RANK 3

/* The length of each dimension; dims[0] is the most significant. */
typedef struct amp_extent {
    int rank;
    int dims[AMP_MAX_RANK];
} amp_extent;

/* A position; i[0] is the most significant component. */
typedef struct amp_index {
    int rank;
    int i[AMP_MAX_RANK];
} amp_index;

/* Constructors. */
amp_extent amp_extent1(int d0);
amp_extent amp_extent2(int d0, int d1);
amp_extent amp_extent3(int d0, int d1, int d2);
/* An extent of the given rank from an array of rank values. */
amp_extent amp_extent_from(int rank, const int *dims);
amp_index amp_index1(int i0);
amp_index amp_index2(int i0, int i1);
amp_index amp_index3(int i0, int i1, int i2);
/* An index of the given rank from an array of rank values. */
amp_index amp_index_from(int rank, const int *i);
/* The origin (all zeros) of the given rank. */
amp_index amp_index_zero(int rank);

/* True if the rank is 1..3 and no component is negative. */
bool amp_extent_valid(amp_extent e);
/* Number of elements (product of the dims); 0 for an invalid extent. */
size_t amp_extent_size(amp_extent e);
/* True if the ranks match and 0 <= i[k] < dims[k] for every k. */
bool amp_extent_contains(amp_extent e, amp_index i);
/* True if the ranks and every component match. */
bool amp_extent_equal(amp_extent a, amp_extent b);
bool amp_index_equal(amp_index a, amp_index b);
/* Row-major linear position of i inside e (i need not be contained). */
int64_t amp_extent_linear(amp_extent e, amp_index i);
/* The index of the linear position p inside e (inverse of amp_extent_linear). */
amp_index amp_extent_unlinear(amp_extent e, size_t p);

/* Component-wise arithmetic; operands must have the same rank (the result takes
 * a's rank; components of b beyond it are ignored). */
amp_index amp_index_add(amp_index a, amp_index b);
amp_index amp_index_sub(amp_index a, amp_index b);
amp_index amp_index_scale(amp_index a, int s);
amp_extent amp_extent_add(amp_extent a, amp_extent b);
amp_extent amp_extent_sub(amp_extent a, amp_extent b);
amp_extent amp_extent_scale(amp_extent a, int s);
/* The extent that remains from origin o to the end of e: e - o. */
amp_extent amp_extent_from_origin(amp_extent e, amp_index o);

/* A compute domain divided into tiles (C++ AMP tiled_extent): tile[k] threads
 * along dimension k, most significant first. */
typedef struct amp_tiled_extent {
    amp_extent extent;
    int tile[AMP_MAX_RANK];
} amp_tiled_extent;

/* Tiles e with tile sizes t0 (and t1, t2 for ranks 2 and 3; ignored beyond the rank). */
amp_tiled_extent amp_extent_tile(amp_extent e, int t0, int t1, int t2);
/* Rounds each dimension up to a multiple of its tile: (e + t - 1) / t * t. */
amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent te);
/* Rounds each dimension down to a multiple of its tile: e / t * t. */
amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent te);
/* Threads per tile (the product of the tile sizes). */
int amp_tiled_extent_tile_size(amp_tiled_extent te);
/* The number of tiles along each dimension, as an extent (dims rounded up). */
amp_extent amp_tiled_extent_tiles(amp_tiled_extent te);
/* AMP_OK if the tiled extent can be dispatched as C++ AMP allows it: valid extent,
 * tile sizes > 0, at most 1024 threads per tile and at most 65535 tiles per
 * dimension, and each dimension a multiple of its tile; otherwise
 * AMP_ERROR_INVALID_ARGUMENT with the numbers (device limits are checked at dispatch). */
amp_status amp_tiled_extent_check(amp_tiled_extent te);

/* Writes "(d0, d1, d2)" into buf (always NUL-terminated when n > 0); returns buf. */
char *amp_extent_format(amp_extent e, char *buf, size_t n);
char *amp_index_format(amp_index i, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
