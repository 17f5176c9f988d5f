/*
 * Matrix multiply and reduction kernels shared by ampvk-matmul (demos/matmul.c)
 * and tests/test_matmul.c. All matrices are row-major: A is M x K, B is K x N,
 * C = A * B is M x N.
 *
 * matmul_tiled: the classic C++ AMP sample. Tiles of MATMUL_TS x MATMUL_TS threads,
 *   one thread per element of C; each step stages a TS x TS tile of A and of B in
 *   tile_static memory, waits at a barrier, and accumulates TS products. int or
 *   float; rank-2 views; M, N, K multiples of MATMUL_TS.
 *
 * matmul_sgemm: fp32 with 2-D register blocking. A tile of 16 x 16 threads computes
 *   a 128 x 128 block of C, 8 x 8 elements per thread, stepping through K by 8 (or a
 *   64 x 128 block, 4 x 8 a thread, for products too small to fill the GPU).
 *   A, B and C are rank-1 views of float_4 (vec4) over the row-major matrices.
 *   M and N multiples of SGEMM_BM (128), K a multiple of SGEMM_BK (8); any other
 *   size through matmul_sgemm_any (rank-2 float views, zero-padded copies).
 *
 * reduce_sum: the sum of n4 float_4 elements (4 * n4 floats): a grid-stride pass
 *   (REDUCE_TILES tiles of REDUCE_TILE threads, vec4 loads, four loads in flight per
 *   thread, then a tile_static tree) writes one partial per tile; a second pass of
 *   one tile sums the partials into out(0).
 */
#ifndef AMPVK_DEMO_MATMUL_KERNELS_H
#define AMPVK_DEMO_MATMUL_KERNELS_H

#include "ampvk/ampvk.h"

#define MATMUL_TS 16
#define SGEMM_BM 128
#define SGEMM_BN 128
#define SGEMM_BK 8
#define REDUCE_TILE 256
#define REDUCE_TILES 2048 /* tiles of the first pass at most (also the partials' size) */

/* The simple tiled kernel for AMP_INT or AMP_FLOAT elements. Parameters:
 * array_view<const T, 2> a, array_view<const T, 2> b, array_view<T, 2> c. */
amp_kernel *matmul_tiled_kernel(amp_accelerator_view *v, amp_type type);
/* c = a * b with the kernel above; the extents come from the views. */
amp_status matmul_tiled(amp_accelerator_view *v, amp_kernel *k, amp_array_view *a, amp_array_view *b,
                        amp_array_view *c);

/* The register-blocked fp32 kernel. Parameters: array_view<const vec4, 1> a,
 * array_view<const vec4, 1> b, array_view<vec4, 1> c, int M, int N, int K. */
amp_kernel *matmul_sgemm_kernel(amp_accelerator_view *v);
/* The same with a K-step of bk (8 or 16; matmul_sgemm then needs K a multiple of bk). */
amp_kernel *matmul_sgemm_kernel_bk(amp_accelerator_view *v, int bk);
/* The same for tiles of bm rows: 128 (8 x 8 outputs a thread, the kernels above) or
 * 64 (4 x 8 a thread, K-step 8): twice the tiles, for matrices whose 128-row tiles
 * would leave SMs idle. */
amp_kernel *matmul_sgemm_kernel_tile(amp_accelerator_view *v, int bm, int bk);
/* c = a * b with a kernel of tiles of bm rows (M a multiple of bm). */
amp_status matmul_sgemm_tile(amp_accelerator_view *v, amp_kernel *k, int bm, amp_array_view *a, amp_array_view *b,
                             amp_array_view *c, int M, int N, int K);
/* c = a * b (float_4 views of M*K/4, K*N/4 and M*N/4 elements). */
amp_status matmul_sgemm(amp_accelerator_view *v, amp_kernel *k, amp_array_view *a, amp_array_view *b,
                        amp_array_view *c, int M, int N, int K);

/* The tile rows for an M x N product: 64 where 128-row tiles would number fewer than
 * 256 (an H200's 132 SMs take two each: at 1024^3 the 64 tiles of 128 rows ran at
 * 20 TFLOP/s, 128 tiles of 64 at 30, cuBLAS 38; at 2048^3 128 rows 46, 64 rows 36). */
int matmul_sgemm_rows(int M, int N);

/* Any size: c (M x N) = a (M x K) * b (K x N), rank-2 float views of any extents,
 * through copies padded with zeros to the SGEMM kernel's multiples (pack and unpack:
 * matmul_pack_kernel(v, false) and (v, true)); k has tiles of 128 rows, k64 (NULL:
 * none) of 64, taken where matmul_sgemm_rows says. */
amp_kernel *matmul_pack_kernel(amp_accelerator_view *v, bool unpack);
amp_status matmul_sgemm_any(amp_accelerator_view *v, amp_kernel *k, amp_kernel *k64, amp_kernel *pack,
                            amp_kernel *unpack, amp_array_view *a, amp_array_view *b, amp_array_view *c);

/* The two passes of the reduction. */
amp_kernel *reduce_pass1_kernel(amp_accelerator_view *v);
amp_kernel *reduce_pass2_kernel(amp_accelerator_view *v);
/* out(0) = the sum of the n4 float_4 elements of x. partial is a float view of at
 * least REDUCE_TILES elements (scratch); out a float view of at least 1 element. */
amp_status reduce_sum(amp_accelerator_view *v, amp_kernel *pass1, amp_kernel *pass2, amp_array_view *x, int n4,
                      amp_array_view *partial, amp_array_view *out);

#endif
