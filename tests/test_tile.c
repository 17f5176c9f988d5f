/* Tiles, tile_static memory, barriers and atomics (C++ AMP section 1). */
#include "test.h"

/* The overview's tile-average example: 4x6 samples, 2x2 tiles. */
static void tile_average(amp_accelerator_view *v)
{
    int sample[] = {2, 2, 9, 7, 1, 4, 4, 4, 8, 8, 3, 4, 1, 5, 1, 2, 5, 2, 6, 8, 3, 2, 7, 2};
    int average[24] = {0};
    amp_array_view *vs = amp_array_view_create(amp_extent2(4, 6), AMP_INT, 0, sample);
    amp_array_view *va = amp_array_view_create(amp_extent2(4, 6), AMP_INT, 0, average);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<int, 2> sample, array_view<int, 2> average",
        .rank = 2, .tile = {2, 2},
        .source = "tile_static int nums[2][2];\n"
                  "void kernel(tiled_index_2 idx) {\n"
                  "    nums[idx.local[1]][idx.local[0]] = sample(idx.global);\n"
                  "    tile_barrier_wait();\n"
                  "    int sum = nums[0][0] + nums[0][1] + nums[1][0] + nums[1][1];\n"
                  "    average(idx.global) = sum / 4;\n"
                  "}\n"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(4, 6), k, AMP_ARGS(AMP_VIEW("sample", vs), AMP_VIEW("average", va))));
    REQUIRE_OK(amp_array_view_synchronize(va));
    int want[] = {3, 3, 8, 8, 3, 3, 3, 3, 8, 8, 3, 3, 5, 5, 2, 2, 4, 4, 5, 5, 2, 2, 4, 4};
    REQUIRE_ARRAY_INT(average, want, 24);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vs);
    amp_array_view_destroy(&va);
}

/* tiled_index facts: tile 4x8, global (5,9) -> local (1,1), tile (1,1), origin (4,8). */
static void tiled_index_facts(amp_accelerator_view *v)
{
    int out[8 * 16 * 8];
    amp_array_view *vo = amp_array_view_create(amp_extent3(8, 16, 8), AMP_INT, 0, out);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<int, 3> o", .rank = 2, .tile = {4, 8},
        .body = "ivec2 g = idx.global;\n"
                "o(ivec3(g, 0)) = idx.local.x;  o(ivec3(g, 1)) = idx.local.y;\n"
                "o(ivec3(g, 2)) = idx.tile.x;   o(ivec3(g, 3)) = idx.tile.y;\n"
                "o(ivec3(g, 4)) = idx.tile_origin.x; o(ivec3(g, 5)) = idx.tile_origin.y;\n"
                "o(ivec3(g, 6)) = tile_extent.x; o(ivec3(g, 7)) = tile_extent.y;\n"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(8, 16), k, AMP_ARGS(AMP_VIEW("o", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    int *at = &out[(5 * 16 + 9) * 8];
    REQUIRE_ARRAY_INT(at, ((int[]){1, 1, 1, 1, 4, 8, 4, 8}), 8);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vo);

    /* pad and truncate of (10,17) with tile 4x8; 1764 with tile 19 is an error */
    amp_tiled_extent te = amp_extent_tile(amp_extent2(10, 17), 4, 8, 0);
    REQUIRE(amp_extent_equal(amp_tiled_extent_pad(te).extent, amp_extent2(12, 24)));
    REQUIRE(amp_extent_equal(amp_tiled_extent_truncate(te).extent, amp_extent2(8, 16)));
    REQUIRE(amp_extent_equal(amp_tiled_extent_tiles(te), amp_extent2(3, 3)));
    REQUIRE_INT(amp_tiled_extent_tile_size(te), 32);
    REQUIRE_FAIL(amp_tiled_extent_check(te), AMP_ERROR_INVALID_ARGUMENT, "(10 % 4 = 2)");
    REQUIRE_OK(amp_tiled_extent_check(amp_tiled_extent_pad(te)));
    REQUIRE_FAIL(amp_tiled_extent_check(amp_extent_tile(amp_extent1(1764), 19, 0, 0)), AMP_ERROR_INVALID_ARGUMENT,
                 "extent (1764) is not a multiple of the tile in dimension 0 (1764 % 19 = 16)");
    REQUIRE_FAIL(amp_tiled_extent_check(amp_extent_tile(amp_extent2(64, 64), 64, 32, 0)), AMP_ERROR_INVALID_ARGUMENT,
                 "2048 threads exceeds the limit of 1024");
    REQUIRE_FAIL(amp_tiled_extent_check(amp_extent_tile(amp_extent1(65536 * 2), 1, 0, 0)), AMP_ERROR_INVALID_ARGUMENT,
                 "131072 tiles in dimension 0; at most 65535");
    REQUIRE_FAIL(amp_tiled_extent_check(amp_extent_tile(amp_extent1(8), 0, 0, 0)), AMP_ERROR_INVALID_ARGUMENT,
                 "tile dimension 0 of extent (8) is 0");
}

/* A tile-sum reduction of random data, exact against the host, for several tile sizes. */
static void reduction(amp_accelerator_view *v)
{
    const int tiles[] = {64, 256, 1024};
    for (int t = 0; t < 3; t++) {
        int tile = tiles[t], n = tile * 37;
        uint32_t *data = malloc((size_t)n * 4);
        uint64_t *host = calloc(37, sizeof *host);
        for (int i = 0; i < n; i++) {
            data[i] = test_rand() & 0xffff;
            host[i / tile] += data[i];
        }
        uint32_t sums[37] = {0};
        amp_array_view *vd = amp_array_view_create_const(amp_extent1(n), AMP_UINT, 0, data);
        amp_array_view *vs = amp_array_view_create(amp_extent1(37), AMP_UINT, 0, sums);
        char decl[128];
        snprintf(decl, sizeof decl, "tile_static uint partial[%d];", tile);
        amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
            .params = "array_view<const uint, 1> data, array_view<uint, 1> sums", .tile = {tile},
            .declarations = decl,
            .body = "int l = idx.local;\n"
                    "partial[l] = data(idx.global);\n"
                    "tile_barrier_wait_with_tile_static_memory_fence();\n"
                    "for (int s = tile_extent / 2; s > 0; s /= 2) {\n"
                    "    if (l < s) partial[l] += partial[l + s];\n"
                    "    tile_barrier_wait_with_tile_static_memory_fence();\n"
                    "}\n"
                    "if (l == 0) sums(idx.tile) = partial[0];\n"});
        REQUIRE(k);
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(n), k, AMP_ARGS(AMP_VIEW("data", vd), AMP_VIEW("sums", vs))));
        REQUIRE_OK(amp_array_view_synchronize(vs));
        REQUIRE_ARRAY_INT(sums, host, 37);
        amp_kernel_destroy(&k);
        amp_array_view_destroy(&vd);
        amp_array_view_destroy(&vs);
        free(data);
        free(host);
    }
}

/* An atomic histogram of random bytes, exact. */
static void histogram(amp_accelerator_view *v)
{
    enum { N = 100000 };
    uint32_t *data = malloc(N * 4), hist[256] = {0}, host[256] = {0};
    for (int i = 0; i < N; i++) host[data[i] = test_rand() % 256]++;
    amp_array_view *vd = amp_array_view_create_const(amp_extent1(N), AMP_UINT, 0, data);
    amp_array_view *vh = amp_array_view_create(amp_extent1(256), AMP_UINT, 0, hist);
    /* per-tile counts in tile_static memory, merged with one global atomic per bin */
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<const uint, 1> data, array_view<uint, 1> hist, int n", .tile = {256},
        .declarations = "tile_static uint local_hist[256];",
        .body = "local_hist[idx.local] = 0u;\n"
                "tile_barrier_wait();\n"
                "if (idx.global < n) atomic_fetch_inc(local_hist[data(idx.global)]);\n"
                "tile_barrier_wait();\n"
                "if (local_hist[idx.local] != 0u) atomic_fetch_add(hist(idx.local), local_hist[idx.local]);\n"});
    REQUIRE(k);
    amp_tiled_extent te = amp_tiled_extent_pad(amp_extent_tile(amp_extent1(N), 256, 0, 0));
    REQUIRE_OK(amp_parallel_for_each(v, te.extent, k,
                                     AMP_ARGS(AMP_VIEW("data", vd), AMP_VIEW("hist", vh), AMP_INT("n", N))));
    REQUIRE_OK(amp_array_view_synchronize(vh));
    REQUIRE_ARRAY_INT(hist, host, 256);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vd);
    amp_array_view_destroy(&vh);
    free(data);
}

/* Every atomic's return value, for int and uint (one thread, so the order is known). */
static void atomic_returns(amp_accelerator_view *v)
{
    int vals[16] = {10, 10, 10, 10, 10, 10, 12, 12, 12, 12, 12, 5, 5, 0, 0, 0};
    int ret[16] = {0};
    amp_array_view *vv = amp_array_view_create(amp_extent1(16), AMP_INT, 0, vals);
    amp_array_view *vr = amp_array_view_create(amp_extent1(16), AMP_INT, 0, ret);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<int, 1> d, array_view<int, 1> r",
        .body = "r(0) = atomic_fetch_add(d(0), 5);\n"
                "r(1) = atomic_fetch_sub(d(1), 3);\n"
                "r(2) = atomic_fetch_inc(d(2));\n"
                "r(3) = atomic_fetch_dec(d(3));\n"
                "r(4) = atomic_fetch_max(d(4), 42);\n"
                "r(5) = atomic_fetch_min(d(5), -7);\n"
                "r(6) = atomic_fetch_and(d(6), 6);\n"
                "r(7) = atomic_fetch_or(d(7), 3);\n"
                "r(8) = atomic_fetch_xor(d(8), 10);\n"
                "r(9) = atomic_exchange(d(9), 99);\n"
                "int e = 12;  r(10) = atomic_compare_exchange(d(10), e, 77) ? 1 : 0;  r(13) = e;\n"
                "int f = 4;   r(11) = atomic_compare_exchange(d(11), f, 88) ? 1 : 0;  r(14) = f;\n"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k, AMP_ARGS(AMP_VIEW("d", vv), AMP_VIEW("r", vr))));
    REQUIRE_OK(amp_array_view_synchronize(vv));
    REQUIRE_OK(amp_array_view_synchronize(vr));
    REQUIRE_ARRAY_INT(ret, ((int[]){10, 10, 10, 10, 10, 10, 12, 12, 12, 12, 1, 0, 0, 12, 5}), 15);
    REQUIRE_ARRAY_INT(vals, ((int[]){15, 7, 11, 9, 42, -7, 4, 15, 6, 99, 77, 5}), 12);

    uint32_t u[8] = {0xF0u, 7u, 7u, 100u, 1u, 0u, 0u, 0u}, ur[8] = {0};
    amp_array_view *vu = amp_array_view_create(amp_extent1(8), AMP_UINT, 0, u);
    amp_array_view *vur = amp_array_view_create(amp_extent1(8), AMP_UINT, 0, ur);
    amp_kernel *ku = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<uint, 1> d, array_view<uint, 1> r",
        .body = "r(0) = atomic_fetch_or(d(0), 0x0Fu);\n"
                "r(1) = atomic_fetch_sub(d(1), 10u);\n" /* wraps */
                "r(2) = atomic_fetch_max(d(2), 0xFFFFFFFFu);\n"
                "r(3) = atomic_fetch_min(d(3), 3u);\n"
                "uint e = 1u; r(4) = atomic_compare_exchange(d(4), e, 9u) ? 1u : 0u;\n"
                "r(5) = atomic_fetch_dec(d(5));\n"});
    REQUIRE(ku);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), ku, AMP_ARGS(AMP_VIEW("d", vu), AMP_VIEW("r", vur))));
    REQUIRE_OK(amp_array_view_synchronize(vu));
    REQUIRE_OK(amp_array_view_synchronize(vur));
    REQUIRE_ARRAY_INT(ur, ((uint32_t[]){0xF0u, 7u, 7u, 100u, 1u, 0u}), 6);
    REQUIRE_ARRAY_INT(u, ((uint32_t[]){0xFFu, 0xFFFFFFFDu, 0xFFFFFFFFu, 3u, 9u, 0xFFFFFFFFu}), 6);

    /* many threads: fetch_inc hands out each ticket exactly once */
    enum { T = 5000 };
    int counter = 0, *tickets = calloc(T, sizeof *tickets);
    amp_array_view *vc = amp_array_view_create(amp_extent1(1), AMP_INT, 0, &counter);
    amp_array_view *vt = amp_array_view_create(amp_extent1(T), AMP_INT, 0, tickets);
    amp_kernel *kt = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<int, 1> c, array_view<int, 1> t", .body = "t(atomic_fetch_inc(c(0))) = 1;"});
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(T), kt, AMP_ARGS(AMP_VIEW("c", vc), AMP_VIEW("t", vt))));
    REQUIRE_OK(amp_array_view_synchronize(vc));
    REQUIRE_OK(amp_array_view_synchronize(vt));
    REQUIRE_INT(counter, T);
    int missing = 0;
    for (int i = 0; i < T; i++) missing += tickets[i] != 1;
    REQUIRE_INT(missing, 0);
    free(tickets);
    amp_kernel_destroy(&kt);
    amp_array_view_destroy(&vc);
    amp_array_view_destroy(&vt);
    amp_kernel_destroy(&k);
    amp_kernel_destroy(&ku);
    amp_array_view_destroy(&vv);
    amp_array_view_destroy(&vr);
    amp_array_view_destroy(&vu);
    amp_array_view_destroy(&vur);
}

/* Float exchange where the device supports float atomics. */
static void float_exchange(amp_accelerator_view *v)
{
    float f[2] = {1.5f, 0};
    amp_array_view *vf = amp_array_view_create(amp_extent1(2), AMP_FLOAT, 0, f);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<float, 1> f",
        .body = "#ifdef AMP_HAS_FLOAT_ATOMICS\nf(1) = atomic_exchange(f(0), 2.25);\n#else\nf(1) = -1.0;\n#endif\n"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k, AMP_ARGS(AMP_VIEW("f", vf))));
    REQUIRE_OK(amp_array_view_synchronize(vf));
    if (f[1] == -1.0f) {
        printf("note: no float atomics on this device\n");
    } else {
        REQUIRE(f[0] == 2.25f && f[1] == 1.5f);
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vf);
}

/* The limits, each with its numbers. */
static void limit_errors(amp_accelerator_view *v)
{
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    const char *p = "array_view<int, 1> o";
    char decl[96], want[128];
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = p, .tile = {2048}, .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "a tile of 2048 threads exceeds the limit of 1024");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = p, .rank = 2, .tile = {64, 32}, .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "a tile of 2048 threads");
    if (info.max_tile_size[2] < 1024) {
        /* tile dimension 0 of a rank-3 kernel runs along z */
        int z = (int)info.max_tile_size[2] + 1;
        snprintf(want, sizeof want, "tile dimension 0 is %d but the device allows at most %u", z, info.max_tile_size[2]);
        REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = p, .rank = 3, .tile = {z, 1, 1}, .body = ""}),
                          AMP_ERROR_INVALID_ARGUMENT, want);
    }
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = p, .rank = 2, .tile = {0, 4}, .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "tile dimension 0 is 0");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = p, .tile = {4, 4}, .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "tile has a dimension 1 but the kernel's rank is 1");
    /* tile_static beyond maxComputeSharedMemorySize */
    unsigned floats = info.max_tile_static_bytes / 4 + 16;
    snprintf(decl, sizeof decl, "tile_static float big[%u];", floats);
    snprintf(want, sizeof want, "tile_static variables take %u bytes but the device", floats * 4);
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = p, .tile = {64}, .declarations = decl,
                                                              .body = "big[idx.local] = 1.0; o(idx.global) = int(big[0]);"}),
                      AMP_ERROR_INVALID_ARGUMENT, want);
    /* extent not divisible by the tile: the C++ AMP example, 1764 with tile 19 */
    int *o = calloc(1764, sizeof *o);
    amp_array_view *vo = amp_array_view_create(amp_extent1(1764), AMP_INT, 0, o);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = p, .tile = {19}, .body = "o(idx.global) = 1;"});
    REQUIRE(k);
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(1764), k, AMP_ARGS(AMP_VIEW("o", vo))), AMP_ERROR_INVALID_ARGUMENT,
                 "extent (1764) is not a multiple of the tile in dimension 0 (1764 % 19 = 16)");
    /* more tiles than the device allows along y */
    amp_kernel *k2 = amp_kernel_create(v, &(amp_kernel_desc){.params = p, .rank = 2, .tile = {1, 1}, .body = ""});
    REQUIRE(k2);
    char msg[128];
    snprintf(msg, sizeof msg, "%u tiles in dimension 0 exceed the device's limit of %u", info.max_groups[1] + 1,
             info.max_groups[1]);
    amp_array_view *v2 = amp_array_view_create(amp_extent1(1764), AMP_INT, 0, o);
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent2((int)info.max_groups[1] + 1, 1), k2, AMP_ARGS(AMP_VIEW("o", vo))),
                 AMP_ERROR_INVALID_ARGUMENT, msg);
    int zeros = 0;
    for (int i = 0; i < 1764; i++) zeros += o[i] == 0;
    REQUIRE_INT(zeros, 1764);
    amp_array_view_destroy(&v2);
    amp_kernel_destroy(&k);
    amp_kernel_destroy(&k2);
    amp_array_view_destroy(&vo);
    free(o);
}

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    tile_average(v);
    tiled_index_facts(v);
    reduction(v);
    histogram(v);
    atomic_returns(v);
    float_exchange(v);
    limit_errors(v);
    return test_end();
}
