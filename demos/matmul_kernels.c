/* Matrix multiply and reduction kernels; see matmul_kernels.h. */
#include "matmul_kernels.h"

#include <stdio.h>

/* ---- the classic C++ AMP tiled sample ---- */

static const char tiled_source[] =
    "void kernel(tiled_index_2 idx) {\n"
    "    int row = idx.local[0], col = idx.local[1];\n"
    "    int K = a_extent[1];\n"
    "    T sum = T(0);\n"
    "    for (int i = 0; i < K; i += TS) {\n"
    "        As[row][col] = a(ivec2(idx.global[0], col + i));\n"
    "        Bs[row][col] = b(ivec2(row + i, idx.global[1]));\n"
    "        tile_barrier_wait();\n"
    "        for (int k = 0; k < TS; k++) sum += As[row][k] * Bs[k][col];\n"
    "        tile_barrier_wait();\n"
    "    }\n"
    "    c(idx.global) = sum;\n"
    "}\n";

amp_kernel *matmul_tiled_kernel(amp_accelerator_view *v, amp_type type)
{
    const char *t = type == AMP_INT ? "int" : "float";
    char params[160], decl[160];
    snprintf(params, sizeof params, "array_view<const %s, 2> a, array_view<const %s, 2> b, array_view<%s, 2> c", t,
             t, t);
    snprintf(decl, sizeof decl, "#define T %s\n#define TS %d\ntile_static T As[TS][TS];\ntile_static T Bs[TS][TS];\n",
             t, MATMUL_TS);
    return amp_kernel_create(v, &(amp_kernel_desc){.params = params,
                                                   .rank = 2,
                                                   .tile = {MATMUL_TS, MATMUL_TS},
                                                   .declarations = decl,
                                                   .source = tiled_source,
                                                   .name = type == AMP_INT ? "matmul_tiled_int" : "matmul_tiled_float"});
}

amp_status matmul_tiled(amp_accelerator_view *v, amp_kernel *k, amp_array_view *a, amp_array_view *b,
                        amp_array_view *c)
{
    amp_extent ea = amp_array_view_extent(a), eb = amp_array_view_extent(b), ec = amp_array_view_extent(c);
    int M = ec.dims[0], N = ec.dims[1], K = ea.dims[1];
    if (ea.rank != 2 || eb.rank != 2 || ec.rank != 2 || ea.dims[0] != M || eb.dims[0] != K || eb.dims[1] != N ||
        M % MATMUL_TS || N % MATMUL_TS || K % MATMUL_TS) {
        fprintf(stderr, "matmul_tiled: (%d x %d) * (%d x %d) -> (%d x %d): need matching rank-2 extents, "
                        "multiples of %d\n", ea.dims[0], ea.dims[1], eb.dims[0], eb.dims[1], M, N, MATMUL_TS);
        return AMP_ERROR_INVALID_ARGUMENT;
    }
    return amp_parallel_for_each(v, amp_extent2(M, N), k, AMP_ARGS(AMP_VIEW("a", a), AMP_VIEW("b", b), AMP_VIEW("c", c)));
}

/* ---- register-blocked SGEMM ----
 *
 * Tile of 16 x 16 threads (tid = ty * 16 + tx, tx fastest) -> a 128 x 128 block of C.
 * Thread (ty, tx) owns rows {4ty .. 4ty+3} and {64+4ty .. 64+4ty+3} and columns
 * {4tx .. 4tx+3} and {64+4tx .. 64+4tx+3} of the block: 8 x 8 accumulators held as
 * 16 vec4. Splitting the rows and columns into two halves 64 apart makes every
 * tile_static read a vec4 that 16 (or 2) threads of a warp share or that lie side
 * by side: no bank conflicts, 128-bit shared loads.
 *
 * Per K-step of 8: the A block (128 rows x 8) is 256 vec4, one per thread
 * (row tid/2, k quad tid%2), stored transposed as As[k][m] so that the compute
 * loop reads 4 consecutive rows of one k as one vec4; the row stride is padded to
 * 33 vec4 (132 floats) so the scalar transposed stores of a warp fall on 32
 * different banks. The B block (8 x 128) is 256 vec4, one per thread (k row
 * tid/32, column quad tid%32: a warp reads 512 contiguous bytes) stored as is.
 * Two tile_static buffers: the global loads of step s+1 are issued before the
 * arithmetic of step s and stored into the other buffer after it, so one barrier
 * per step suffices. The 8-deep k loop is unrolled: 4 vec4 shared loads and 64
 * FMAs per k.
 *
 * The K loop is unrolled by two steps, one per buffer, so every tile_static address
 * is a constant offset from the thread's base: with the buffer chosen at run time
 * (cur ^= 1) the loop ran at 37-39 TFLOP/s on an H200, unrolled at 44-46. And the
 * last one or two steps are peeled off the loop (the prefetch of a step that does
 * not exist is never tested for inside it): 45.5 TFLOP/s at 2048^3 and 48.1 at
 * 4096^3, 90% and 94% of cuBLAS in the same run. 127 registers a thread, two tiles
 * an SM (a K-step of 16 takes 139: one tile an SM, 42 TFLOP/s).
 *
 * With BM 64 a tile is 64 x 128 of C (4 x 8 a thread, the threads of tid < 128
 * loading A): products with fewer than 256 tiles of 128 rows leave an H200's 132 SMs
 * (two tiles each) short of work, and twice the tiles of half the size fill them.
 * H200, TFLOP/s, 128 rows -> 64 (cuBLAS in the same run): 512^3 4.6 -> 6.9 (11.3),
 * 1024^3 19.7-20.0 -> 29.4-31.3 (37.8), 1536^3 25.7-26.0 -> 27.9-28.0 (38.5); at
 * 2048^3 64 rows lose (36.4 against 46.0). */
static const char sgemm_decl[] =
    "#extension GL_EXT_control_flow_attributes : enable\n"
    "#define AQ (BK / 4)\n" /* float_4 per row of the A block */
    "#define LD (BK / 8)\n" /* float_4 loads of A and of B per thread per K-step */
    "tile_static vec4 As[2][BK][BM / 4 + 1];\n"
    "tile_static vec4 Bs[2][BK][32];\n";

static const char sgemm_source[] =
    "#define FMA_ROW(r, av)                                 \\\n"
    "    acc[2 * (r)] = fma(vec4(av), b0, acc[2 * (r)]);     \\\n"
    "    acc[2 * (r) + 1] = fma(vec4(av), b1, acc[2 * (r) + 1]);\n"
    /* the arithmetic of one K-step from buffer CUR */
    "#define COMPUTE(CUR)                                                       \\\n"
    "    [[unroll]] for (int k = 0; k < BK; k++) {                              \\\n"
    "        vec4 b0 = Bs[CUR][k][tx], b1 = Bs[CUR][k][tx + 16];                \\\n"
    "        A_ROWS(CUR)                                                        \\\n"
    "    }\n"
    /* the A rows of one k: 8 (BM 128: two vec4) or 4 (BM 64) */
    "#if BM == 128\n"
    "#define A_ROWS(CUR)                                                        \\\n"
    "    vec4 a0 = As[CUR][k][ty], a1 = As[CUR][k][ty + 16];                    \\\n"
    "    FMA_ROW(0, a0.x) FMA_ROW(1, a0.y) FMA_ROW(2, a0.z) FMA_ROW(3, a0.w)     \\\n"
    "    FMA_ROW(4, a1.x) FMA_ROW(5, a1.y) FMA_ROW(6, a1.z) FMA_ROW(7, a1.w)\n"
    "#else\n"
    "#define A_ROWS(CUR)                                                        \\\n"
    "    vec4 a0 = As[CUR][k][ty];                                              \\\n"
    "    FMA_ROW(0, a0.x) FMA_ROW(1, a0.y) FMA_ROW(2, a0.z) FMA_ROW(3, a0.w)\n"
    "#endif\n"
    "#define STORE(buf)                                                         \\\n"
    "    [[unroll]] for (int l = 0; l < LD; l++) {                              \\\n"
    "        int r = ar + l * (256 / AQ);                                       \\\n"
    "        if (a_loader) {                                                    \\\n"
    "            As[buf][akq * 4 + 0][r >> 2][r & 3] = pa[l].x;                 \\\n"
    "            As[buf][akq * 4 + 1][r >> 2][r & 3] = pa[l].y;                 \\\n"
    "            As[buf][akq * 4 + 2][r >> 2][r & 3] = pa[l].z;                 \\\n"
    "            As[buf][akq * 4 + 3][r >> 2][r & 3] = pa[l].w;                 \\\n"
    "        }                                                                  \\\n"
    "        Bs[buf][bkr + 8 * l][bc] = pb[l];                                  \\\n"
    "    }\n"
    "#define LOAD()                                                             \\\n"
    "    [[unroll]] for (int l = 0; l < LD; l++) {                              \\\n"
    "        if (a_loader) pa[l] = a(a_at + l * (256 / AQ) * K4);               \\\n"
    "        pb[l] = b(b_at + l * 8 * N4);                                      \\\n"
    "    }\n"
    /* a step that has a next one: prefetch it, compute from CUR, stage it in NXT */
    "#define STEP(CUR, NXT)                                                     \\\n"
    "    {                                                                      \\\n"
    "        a_at += AQ;                                                        \\\n"
    "        b_at += BK * N4;                                                   \\\n"
    "        LOAD()                                                             \\\n"
    "        COMPUTE(CUR)                                                       \\\n"
    "        STORE(NXT)                                                         \\\n"
    "        tile_barrier_wait_with_tile_static_memory_fence();                 \\\n"
    "    }\n"
    "void kernel(tiled_index_2 idx) {\n"
    "    int tx = idx.local[1], ty = idx.local[0];\n"
    "    int tid = ty * 16 + tx;\n"
    "    int K4 = K >> 2, N4 = N >> 2;\n"
    "    int ar = tid / AQ, akq = tid % AQ;\n"
    "    int a_at = (idx.tile[0] * BM + ar) * K4 + akq;\n"
    "    bool a_loader = BM == 128 || tid < BM * BK / 4;\n" /* BM 64: half the threads load A */
    "    int bkr = tid >> 5, bc = tid & 31;\n"
    "    int b_at = bkr * N4 + idx.tile[1] * 32 + bc;\n"
    "    vec4 acc[BM / 8], pa[LD], pb[LD];\n"
    "    [[unroll]] for (int i = 0; i < BM / 8; i++) acc[i] = vec4(0.0);\n"
    "    LOAD()\n"
    "    STORE(0)\n"
    "    tile_barrier_wait_with_tile_static_memory_fence();\n"
    "    int k0 = 0;\n"
    "    for (; k0 + 2 * BK < K; k0 += 2 * BK) {\n" /* at least three steps left */
    "        STEP(0, 1)\n"
    "        STEP(1, 0)\n"
    "    }\n"
    "    if (k0 + BK < K) {\n" /* two steps left */
    "        STEP(0, 1)\n"
    "        COMPUTE(1)\n"
    "    } else {\n" /* one */
    "        COMPUTE(0)\n"
    "    }\n"
    "    int row = idx.tile[0] * BM + ty * 4, col4 = idx.tile[1] * 32 + tx;\n"
    "    [[unroll]] for (int i = 0; i < 4; i++) {\n"
    "        c((row + i) * N4 + col4) = acc[2 * i];\n"
    "        c((row + i) * N4 + col4 + 16) = acc[2 * i + 1];\n"
    "#if BM == 128\n"
    "        c((row + 64 + i) * N4 + col4) = acc[2 * (i + 4)];\n"
    "        c((row + 64 + i) * N4 + col4 + 16) = acc[2 * (i + 4) + 1];\n"
    "#endif\n"
    "    }\n"
    "}\n";

amp_kernel *matmul_sgemm_kernel_tile(amp_accelerator_view *v, int bm, int bk)
{
    if ((bm != 128 && bm != 64) || (bk != 8 && bk != 16) || (bm == 64 && bk != 8)) {
        fprintf(stderr, "matmul_sgemm_kernel_tile: tiles of %d rows, K-step %d: 128 rows with 8 or 16, 64 with 8\n",
                bm, bk);
        return NULL;
    }
    char def_k[16], def_m[16];
    snprintf(def_k, sizeof def_k, "BK=%d", bk);
    snprintf(def_m, sizeof def_m, "BM=%d", bm);
    const char *defs[] = {def_k, def_m};
    return amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<const vec4, 1> a, array_view<const vec4, 1> b, array_view<vec4, 1> c,"
                  " int M, int N, int K",
        .rank = 2,
        .tile = {16, 16},
        .declarations = sgemm_decl,
        .source = sgemm_source,
        .defines = defs,
        .define_count = 2,
        .name = bm == 128 ? "matmul_sgemm" : "matmul_sgemm_64"});
}

amp_kernel *matmul_sgemm_kernel_bk(amp_accelerator_view *v, int bk) { return matmul_sgemm_kernel_tile(v, SGEMM_BM, bk); }

amp_kernel *matmul_sgemm_kernel(amp_accelerator_view *v) { return matmul_sgemm_kernel_bk(v, SGEMM_BK); }

amp_status matmul_sgemm_tile(amp_accelerator_view *v, amp_kernel *k, int bm, amp_array_view *a, amp_array_view *b,
                             amp_array_view *c, int M, int N, int K)
{
    if (bm != 128 && bm != 64) {
        fprintf(stderr, "matmul_sgemm: tiles of %d rows: 128 or 64\n", bm);
        return AMP_ERROR_INVALID_ARGUMENT;
    }
    if (M <= 0 || N <= 0 || K <= 0 || M % bm || N % SGEMM_BN || K % SGEMM_BK ||
        amp_extent_size(amp_array_view_extent(a)) < (size_t)M * K / 4 ||
        amp_extent_size(amp_array_view_extent(b)) < (size_t)K * N / 4 ||
        amp_extent_size(amp_array_view_extent(c)) < (size_t)M * N / 4) {
        fprintf(stderr, "matmul_sgemm: M=%d N=%d K=%d: M must be a multiple of %d, N of %d, K of %d, and the views "
                        "must hold the matrices\n", M, N, K, bm, SGEMM_BN, SGEMM_BK);
        return AMP_ERROR_INVALID_ARGUMENT;
    }
    return amp_parallel_for_each(v, amp_extent2(M / (bm / 16), N / 8), k,
                                 AMP_ARGS(AMP_VIEW("a", a), AMP_VIEW("b", b), AMP_VIEW("c", c), AMP_INT("M", M),
                                          AMP_INT("N", N), AMP_INT("K", K)));
}

amp_status matmul_sgemm(amp_accelerator_view *v, amp_kernel *k, amp_array_view *a, amp_array_view *b,
                        amp_array_view *c, int M, int N, int K)
{
    return matmul_sgemm_tile(v, k, SGEMM_BM, a, b, c, M, N, K);
}

/* ---- SGEMM of any size: through padded copies ---- */

static const char pack_body[] =
    "dst(idx.x * cols + idx.y) = idx.x < src_extent.x && idx.y < src_extent.y ? src(idx) : 0.0;";
static const char unpack_body[] = "dst(idx) = src(idx.x * cols + idx.y);";

amp_kernel *matmul_pack_kernel(amp_accelerator_view *v, bool unpack)
{
    return amp_kernel_create(v, &(amp_kernel_desc){
        .params = unpack ? "array_view<const float, 1> src, array_view<float, 2> dst, int cols"
                         : "array_view<const float, 2> src, array_view<float, 1> dst, int cols",
        .rank = 2,
        .body = unpack ? unpack_body : pack_body,
        .name = unpack ? "matmul_unpack" : "matmul_pack"});
}

/* A zeroed-edge copy of the rows x cols float matrix m in a padded rows4 x cols4 array
 * (rank 1, float_4); NULL on failure. */
static amp_array *padded(amp_accelerator_view *v, amp_kernel *pack, amp_array_view *m, int rows4, int cols4)
{
    amp_array *p = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(rows4 * cols4 / 4),
                                                          .type = AMP_FLOAT_4});
    amp_array_view *pv = p ? amp_array_view_of_array(p) : NULL;
    amp_array_view *pf = pv ? amp_array_view_reinterpret(pv, AMP_FLOAT, 0) : NULL;
    amp_status s = pf ? amp_parallel_for_each(v, amp_extent2(rows4, cols4), pack,
                                              AMP_ARGS(AMP_VIEW("src", m), AMP_VIEW("dst", pf), AMP_INT("cols", cols4)))
                      : AMP_ERROR_OUT_OF_MEMORY;
    amp_array_view_destroy(&pf);
    amp_array_view_destroy(&pv);
    if (s != AMP_OK) amp_array_destroy(&p);
    return p;
}

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

int matmul_sgemm_rows(int M, int N)
{
    long tiles = (long)((M + 127) / 128) * ((N + 127) / 128);
    return tiles < 256 ? 64 : 128;
}

amp_status matmul_sgemm_any(amp_accelerator_view *v, amp_kernel *k, amp_kernel *k64, amp_kernel *pack,
                            amp_kernel *unpack, amp_array_view *a, amp_array_view *b, amp_array_view *c)
{
    amp_extent ea = amp_array_view_extent(a), eb = amp_array_view_extent(b), ec = amp_array_view_extent(c);
    if (ea.rank != 2 || eb.rank != 2 || ec.rank != 2 || ea.dims[1] != eb.dims[0] || ec.dims[0] != ea.dims[0] ||
        ec.dims[1] != eb.dims[1]) {
        fprintf(stderr, "matmul_sgemm_any: need rank-2 views with a (M x K), b (K x N), c (M x N)\n");
        return AMP_ERROR_INVALID_ARGUMENT;
    }
    int M = ea.dims[0], K = ea.dims[1], N = eb.dims[1];
    int bm = k64 && matmul_sgemm_rows(M, N) == 64 ? 64 : SGEMM_BM;
    int M4 = round_up(M, bm), N4 = round_up(N, SGEMM_BN), K4 = round_up(K, SGEMM_BK);
    amp_array *pa = padded(v, pack, a, M4, K4), *pb = pa ? padded(v, pack, b, K4, N4) : NULL;
    amp_array *pc = pb ? amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(M4 * N4 / 4),
                                                                .type = AMP_FLOAT_4})
                       : NULL;
    amp_array_view *va = pa ? amp_array_view_of_array(pa) : NULL, *vb = pb ? amp_array_view_of_array(pb) : NULL,
                   *vc = pc ? amp_array_view_of_array(pc) : NULL;
    amp_array_view *cf = vc ? amp_array_view_reinterpret(vc, AMP_FLOAT, 0) : NULL;
    amp_status s = cf ? matmul_sgemm_tile(v, bm == 64 ? k64 : k, bm, va, vb, vc, M4, N4, K4) : amp_last_status();
    if (s == AMP_OK)
        s = amp_parallel_for_each(v, amp_extent2(M, N), unpack,
                                  AMP_ARGS(AMP_VIEW("src", cf), AMP_VIEW("dst", c), AMP_INT("cols", N4)));
    amp_array_view_destroy(&cf);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vc);
    amp_array_destroy(&pa);
    amp_array_destroy(&pb);
    amp_array_destroy(&pc);
    return s;
}

/* ---- reduction ---- */

static const char reduce_decl[] = "tile_static float red[256];\n";

/* Tree over tile_static memory: the last 6 levels (64 -> 1) still need barriers
 * (no warp-synchronous assumptions in Vulkan). */
#define REDUCE_TREE                                                                                            \
    "red[l] = s;\n"                                                                                            \
    "tile_barrier_wait_with_tile_static_memory_fence();\n"                                                     \
    "for (int w = tile_extent / 2; w > 0; w >>= 1) {\n"                                                        \
    "    if (l < w) red[l] += red[l + w];\n"                                                                   \
    "    tile_barrier_wait_with_tile_static_memory_fence();\n"                                                 \
    "}\n"

static const char reduce1_body[] =
    "int l = idx.local, i = idx.global, st = stride;\n"
    "vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0), s3 = vec4(0.0);\n"
    "for (; i + 3 * st < n4; i += 4 * st) {\n"
    "    s0 += x(i); s1 += x(i + st); s2 += x(i + 2 * st); s3 += x(i + 3 * st);\n"
    "}\n"
    "for (; i < n4; i += st) s0 += x(i);\n"
    "vec4 t = (s0 + s1) + (s2 + s3);\n"
    "float s = (t.x + t.y) + (t.z + t.w);\n" REDUCE_TREE
    "if (l == 0) partial(idx.tile) = red[0];\n";

static const char reduce2_body[] =
    "int l = idx.local;\n"
    "float s = 0.0;\n"
    "for (int i = l; i < count; i += tile_extent) s += partial(i);\n" REDUCE_TREE
    "if (l == 0) out(0) = red[0];\n";

amp_kernel *reduce_pass1_kernel(amp_accelerator_view *v)
{
    return amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<const vec4, 1> x, array_view<float, 1> partial,"
                                                             " int n4, int stride",
                                                   .tile = {REDUCE_TILE},
                                                   .declarations = reduce_decl,
                                                   .body = reduce1_body,
                                                   .name = "reduce_pass1"});
}

amp_kernel *reduce_pass2_kernel(amp_accelerator_view *v)
{
    return amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<const float, 1> partial, array_view<float, 1> out,"
                                                             " int count",
                                                   .tile = {REDUCE_TILE},
                                                   .declarations = reduce_decl,
                                                   .body = reduce2_body,
                                                   .name = "reduce_pass2"});
}

amp_status reduce_sum(amp_accelerator_view *v, amp_kernel *pass1, amp_kernel *pass2, amp_array_view *x, int n4,
                      amp_array_view *partial, amp_array_view *out)
{
    if (n4 <= 0 || amp_extent_size(amp_array_view_extent(x)) < (size_t)n4 ||
        amp_extent_size(amp_array_view_extent(partial)) < REDUCE_TILES ||
        amp_extent_size(amp_array_view_extent(out)) < 1) {
        fprintf(stderr, "reduce_sum: n4=%d: x must hold n4 elements, partial %d, out 1\n", n4, REDUCE_TILES);
        return AMP_ERROR_INVALID_ARGUMENT;
    }
    /* enough tiles to fill the device, each thread reading at least 4 vec4 when n4 allows */
    int tiles = (n4 + REDUCE_TILE * 4 - 1) / (REDUCE_TILE * 4);
    if (tiles > REDUCE_TILES) tiles = REDUCE_TILES;
    amp_status s = amp_parallel_for_each(v, amp_extent1(tiles * REDUCE_TILE), pass1,
                                         AMP_ARGS(AMP_VIEW("x", x), AMP_VIEW("partial", partial), AMP_INT("n4", n4),
                                                  AMP_INT("stride", tiles * REDUCE_TILE)));
    if (s != AMP_OK) return s;
    return amp_parallel_for_each(v, amp_extent1(REDUCE_TILE), pass2,
                                 AMP_ARGS(AMP_VIEW("partial", partial), AMP_VIEW("out", out), AMP_INT("count", tiles)));
}
