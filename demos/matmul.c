/*
 * ampvk-matmul: C++ AMP's tiled matrix multiply sample, a register-blocked fp32
 * SGEMM, and a tiled sum reduction (kernels in matmul_kernels.c).
 *
 *   ampvk-matmul --check             small sizes against a host triple loop: PASS/FAIL
 *   ampvk-matmul --bench [--n 2048]  fp32 N x N x N: SGEMM and the simple tiled kernel
 *   ampvk-matmul --reduce [--mb 1024]  sum of a float array: GB/s
 *   --reps R                          timed dispatches (default 20)
 *   --bk 8|16                         the SGEMM's K-step (default SGEMM_BK)
 *   --bm 128|64                       the SGEMM's tile rows (default: matmul_sgemm_rows)
 *
 * The benchmarks warm up, record R dispatches in one batch, wait once, and report
 * the time per dispatch; each ends with a JSON line. Exit code 0 when every
 * result checked out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "matmul_kernels.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void check(amp_status s, const char *what)
{
    if (s == AMP_OK) return;
    fprintf(stderr, "ampvk-matmul: %s: %s %s\n", what, amp_status_name(s), amp_last_error());
    exit(1);
}

static void *need(void *p, const char *what)
{
    if (!p) {
        fprintf(stderr, "ampvk-matmul: %s: %s\n", what, amp_last_error());
        exit(1);
    }
    return p;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}
/* uniform in [lo, hi) */
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f); }

/* |got - ref| / sum_k |a_ik b_kj| for element (i, j): the error relative to the size
 * of the terms, meaningful whatever the signs. */
static double elem_error(const float *A, const float *B, const float *C, int N, int K, int i, int j)
{
    double ref = 0, mag = 0;
    for (int k = 0; k < K; k++) {
        double p = (double)A[(size_t)i * K + k] * (double)B[(size_t)k * N + j];
        ref += p;
        mag += fabs(p);
    }
    double e = fabs((double)C[(size_t)i * N + j] - ref);
    return mag > 0 ? e / mag : e;
}

/* ---- --check ---- */

static int check_int(amp_accelerator_view *v, amp_kernel *k, int M, int N, int K)
{
    int *A = malloc(sizeof(int) * M * K), *B = malloc(sizeof(int) * K * N), *C = calloc((size_t)M * N, sizeof(int));
    for (int i = 0; i < M * K; i++) A[i] = (int)(rnd() % 201) - 100;
    for (int i = 0; i < K * N; i++) B[i] = (int)(rnd() % 201) - 100;
    amp_array_view *va = amp_array_view_create_const(amp_extent2(M, K), AMP_INT, 0, A);
    amp_array_view *vb = amp_array_view_create_const(amp_extent2(K, N), AMP_INT, 0, B);
    amp_array_view *vc = amp_array_view_create(amp_extent2(M, N), AMP_INT, 0, C);
    check(amp_array_view_discard_data(vc), "discard");
    check(matmul_tiled(v, k, va, vb, vc), "matmul_tiled int");
    check(amp_array_view_synchronize(vc), "synchronize");
    long bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long long s = 0;
            for (int q = 0; q < K; q++) s += (long long)A[i * K + q] * B[q * N + j];
            bad += s != C[i * N + j];
        }
    printf("  tiled int   %4d x %4d x %4d: %ld wrong %s\n", M, N, K, bad, bad ? "FAIL" : "PASS");
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vc);
    free(A);
    free(B);
    free(C);
    return bad == 0;
}

/* fast: the SGEMM kernel (float_4 views) instead of the simple tiled one. */
static int check_float(amp_accelerator_view *v, amp_kernel *k, int fast, int M, int N, int K)
{
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    float *C = calloc((size_t)M * N, sizeof(float));
    for (int i = 0; i < M * K; i++) A[i] = rndf(-1, 1);
    for (int i = 0; i < K * N; i++) B[i] = rndf(-1, 1);
    amp_array_view *va, *vb, *vc;
    if (fast) {
        va = amp_array_view_create_const(amp_extent1(M * K / 4), AMP_FLOAT_4, 0, A);
        vb = amp_array_view_create_const(amp_extent1(K * N / 4), AMP_FLOAT_4, 0, B);
        vc = amp_array_view_create(amp_extent1(M * N / 4), AMP_FLOAT_4, 0, C);
    } else {
        va = amp_array_view_create_const(amp_extent2(M, K), AMP_FLOAT, 0, A);
        vb = amp_array_view_create_const(amp_extent2(K, N), AMP_FLOAT, 0, B);
        vc = amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, 0, C);
    }
    check(amp_array_view_discard_data(vc), "discard");
    check(fast ? matmul_sgemm(v, k, va, vb, vc, M, N, K) : matmul_tiled(v, k, va, vb, vc), "matmul float");
    check(amp_array_view_synchronize(vc), "synchronize");
    double worst = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double e = elem_error(A, B, C, N, K, i, j);
            if (!(e <= worst)) worst = e; /* NaN counts as worst */
        }
    int ok = worst <= 1e-4;
    printf("  %s float %4d x %4d x %4d: max rel error %.3g %s\n", fast ? "sgemm" : "tiled", M, N, K, worst,
           ok ? "PASS" : "FAIL");
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vc);
    free(A);
    free(B);
    free(C);
    return ok;
}

static int check_reduce(amp_accelerator_view *v, amp_kernel *p1, amp_kernel *p2, int n4)
{
    float *x = malloc(sizeof(float) * 4 * (size_t)n4), *partial = calloc(REDUCE_TILES, sizeof(float)), out = -1;
    double host = 0;
    for (int i = 0; i < 4 * n4; i++) host += x[i] = (float)(rnd() % 8);
    amp_array_view *vx = amp_array_view_create_const(amp_extent1(n4), AMP_FLOAT_4, 0, x);
    amp_array_view *vp = amp_array_view_create(amp_extent1(REDUCE_TILES), AMP_FLOAT, 0, partial);
    amp_array_view *vo = amp_array_view_create(amp_extent1(1), AMP_FLOAT, 0, &out);
    check(reduce_sum(v, p1, p2, vx, n4, vp, vo), "reduce");
    check(amp_array_view_synchronize(vo), "synchronize");
    int ok = (double)out == host;
    printf("  reduce %d floats: %.1f (host %.1f) %s\n", 4 * n4, (double)out, host, ok ? "PASS" : "FAIL");
    amp_array_view_destroy(&vx);
    amp_array_view_destroy(&vp);
    amp_array_view_destroy(&vo);
    free(x);
    free(partial);
    return ok;
}

static int run_check(amp_accelerator_view *v)
{
    amp_kernel *ti = need(matmul_tiled_kernel(v, AMP_INT), "tiled int kernel");
    amp_kernel *tf = need(matmul_tiled_kernel(v, AMP_FLOAT), "tiled float kernel");
    amp_kernel *sg = need(matmul_sgemm_kernel(v), "sgemm kernel");
    amp_kernel *r1 = need(reduce_pass1_kernel(v), "reduce kernel"), *r2 = need(reduce_pass2_kernel(v), "reduce kernel");
    int ok = 1;
    ok &= check_int(v, ti, 64, 32, 96);
    ok &= check_int(v, ti, 16, 16, 16);
    ok &= check_int(v, ti, 128, 80, 48);
    ok &= check_float(v, tf, 0, 64, 32, 96);
    ok &= check_float(v, tf, 0, 96, 160, 256);
    ok &= check_float(v, sg, 1, 128, 128, 8);
    ok &= check_float(v, sg, 1, 256, 384, 200);
    ok &= check_float(v, sg, 1, 384, 128, 512);
    ok &= check_reduce(v, r1, r2, 1);
    ok &= check_reduce(v, r1, r2, 1000);
    ok &= check_reduce(v, r1, r2, 300000);
    amp_kernel_destroy(&ti);
    amp_kernel_destroy(&tf);
    amp_kernel_destroy(&sg);
    amp_kernel_destroy(&r1);
    amp_kernel_destroy(&r2);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

/* ---- --bench ---- */

static int run_bench(amp_accelerator_view *v, int n, int reps, int bk, int bm)
{
    if (n <= 0 || n % SGEMM_BM || n % bk) {
        fprintf(stderr, "ampvk-matmul: --n must be a positive multiple of %d\n", SGEMM_BM);
        return 2;
    }
    size_t nn = (size_t)n * n;
    float *A = malloc(nn * sizeof(float)), *B = malloc(nn * sizeof(float)), *C = malloc(nn * sizeof(float));
    need(A && B && C ? A : NULL, "host memory");
    for (size_t i = 0; i < nn; i++) A[i] = rndf(0, 1);
    for (size_t i = 0; i < nn; i++) B[i] = rndf(0, 1);
    amp_array *a4 = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)(nn / 4)), .type = AMP_FLOAT_4, .data = A}), "array");
    amp_array *b4 = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)(nn / 4)), .type = AMP_FLOAT_4, .data = B}), "array");
    amp_array *c4 = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1((int)(nn / 4)), .type = AMP_FLOAT_4}), "array");
    amp_array *a2 = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent2(n, n), .type = AMP_FLOAT, .data = A}), "array");
    amp_array *b2 = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent2(n, n), .type = AMP_FLOAT, .data = B}), "array");
    amp_array *c2 = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent2(n, n), .type = AMP_FLOAT}), "array");
    amp_kernel *sg = need(matmul_sgemm_kernel_tile(v, bm, bk), "sgemm kernel");
    amp_kernel *tf = need(matmul_tiled_kernel(v, AMP_FLOAT), "tiled kernel");
    amp_array_view *va4 = amp_array_as_view(a4), *vb4 = amp_array_as_view(b4), *vc4 = amp_array_as_view(c4);
    amp_array_view *va2 = amp_array_as_view(a2), *vb2 = amp_array_as_view(b2), *vc2 = amp_array_as_view(c2);
    double flop = 2.0 * n * n * n;

    /* SGEMM: warm up, then reps dispatches in one batch */
    check(matmul_sgemm_tile(v, sg, bm, va4, vb4, vc4, n, n, n), "sgemm warm-up");
    check(amp_view_wait(v), "wait");
    double t0 = now();
    for (int r = 0; r < reps; r++) check(matmul_sgemm_tile(v, sg, bm, va4, vb4, vc4, n, n, n), "sgemm");
    check(amp_view_wait(v), "wait");
    double sg_ms = (now() - t0) / reps * 1e3;

    /* the simple tiled kernel */
    check(matmul_tiled(v, tf, va2, vb2, vc2), "tiled warm-up");
    check(amp_view_wait(v), "wait");
    t0 = now();
    for (int r = 0; r < reps; r++) check(matmul_tiled(v, tf, va2, vb2, vc2), "tiled");
    check(amp_view_wait(v), "wait");
    double ti_ms = (now() - t0) / reps * 1e3;

    /* verify a few hundred entries of each result in double precision */
    double sg_err = 0, ti_err = 0;
    check(amp_copy_to_host(vc4, C, nn * sizeof(float)), "copy to host");
    uint64_t seed = rng;
    for (int s = 0; s < 300; s++) {
        int i = (int)(rnd() % (uint32_t)n), j = (int)(rnd() % (uint32_t)n);
        double e = elem_error(A, B, C, n, n, i, j);
        if (!(e <= sg_err)) sg_err = e;
    }
    check(amp_copy_to_host(vc2, C, nn * sizeof(float)), "copy to host");
    rng = seed;
    for (int s = 0; s < 300; s++) {
        int i = (int)(rnd() % (uint32_t)n), j = (int)(rnd() % (uint32_t)n);
        double e = elem_error(A, B, C, n, n, i, j);
        if (!(e <= ti_err)) ti_err = e;
    }
    int ok = sg_err <= 1e-4 && ti_err <= 1e-4;

    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    double sg_tf = flop / (sg_ms * 1e-3) / 1e12, ti_tf = flop / (ti_ms * 1e-3) / 1e12;
    printf("ampvk-matmul on %s, fp32 %d x %d x %d, %d dispatches batched\n", info.description, n, n, n, reps);
    printf("%-34s %10s %10s %14s\n", "kernel", "ms", "TFLOP/s", "max rel err");
    char sg_name[48];
    snprintf(sg_name, sizeof sg_name, "sgemm %dx128x%d, %dx8 per thread", bm, bk, bm / 16);
    printf("%-34s %10.3f %10.3f %14.3g\n", sg_name, sg_ms, sg_tf, sg_err);
    printf("%-34s %10.3f %10.3f %14.3g\n", "tiled 16x16 (C++ AMP sample)", ti_ms, ti_tf, ti_err);
    printf("check (300 random entries, double, rel 1e-4): %s\n", ok ? "PASS" : "FAIL");
    printf("{\"sgemm_n\": %d, \"sgemm_ms\": %.4f, \"sgemm_TFLOPs\": %.3f, \"sgemm_max_rel_err\": %.3g, "
           "\"tiled_simple_ms\": %.4f, \"tiled_simple_TFLOPs\": %.3f, \"tiled_max_rel_err\": %.3g, "
           "\"check\": \"%s\", \"device\": \"%s\"}\n",
           n, sg_ms, sg_tf, sg_err, ti_ms, ti_tf, ti_err, ok ? "PASS" : "FAIL", info.description);
    amp_kernel_destroy(&sg);
    amp_kernel_destroy(&tf);
    amp_array_destroy(&a4);
    amp_array_destroy(&b4);
    amp_array_destroy(&c4);
    amp_array_destroy(&a2);
    amp_array_destroy(&b2);
    amp_array_destroy(&c2);
    free(A);
    free(B);
    free(C);
    return ok ? 0 : 1;
}

/* ---- --reduce ---- */

static int run_reduce(amp_accelerator_view *v, long mb, int reps)
{
    if (mb <= 0 || mb > 16384) {
        fprintf(stderr, "ampvk-matmul: --mb must be 1..16384\n");
        return 2;
    }
    size_t bytes = (size_t)mb << 20, nf = bytes / 4;
    int n4 = (int)(nf / 4);
    float *x = malloc(bytes);
    need(x, "host memory");
    /* small integers: every partial sum up to the last few levels is exact in float */
    double host = 0;
    for (size_t i = 0; i < nf; i++) {
        uint32_t h = (uint32_t)i * 2654435761u;
        x[i] = (float)(h >> 29); /* 0..7 */
        host += x[i];
    }
    amp_array *ax = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(n4), .type = AMP_FLOAT_4, .data = x}), "array");
    free(x);
    amp_array *ap = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(REDUCE_TILES), .type = AMP_FLOAT}), "array");
    amp_array *ao = need(amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(1), .type = AMP_FLOAT}), "array");
    amp_kernel *p1 = need(reduce_pass1_kernel(v), "reduce kernel"), *p2 = need(reduce_pass2_kernel(v), "reduce kernel");
    amp_array_view *vx = amp_array_as_view(ax), *vp = amp_array_as_view(ap), *vo = amp_array_as_view(ao);
    check(reduce_sum(v, p1, p2, vx, n4, vp, vo), "reduce warm-up");
    check(amp_view_wait(v), "wait");
    double t0 = now();
    for (int r = 0; r < reps; r++) check(reduce_sum(v, p1, p2, vx, n4, vp, vo), "reduce");
    check(amp_view_wait(v), "wait");
    double ms = (now() - t0) / reps * 1e3;
    float out = 0;
    check(amp_copy_to_host(vo, &out, sizeof out), "copy to host");
    double rel = fabs((double)out - host) / host;
    int ok = rel <= 1e-3;
    double gbps = (double)bytes / (ms * 1e-3) / 1e9;
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    printf("ampvk-matmul --reduce on %s: %ld MiB (%zu floats), %d reductions batched\n", info.description, mb, nf, reps);
    printf("%-34s %10.3f ms %10.1f GB/s\n", "reduce (grid-stride + tile tree)", ms, gbps);
    printf("sum %.1f, host %.1f, rel error %.3g: %s\n", (double)out, host, rel, ok ? "PASS" : "FAIL");
    printf("{\"reduce_mb\": %ld, \"reduce_ms\": %.4f, \"reduce_GBps\": %.2f, \"reduce_rel_err\": %.3g, \"check\": \"%s\", "
           "\"device\": \"%s\"}\n", mb, ms, gbps, rel, ok ? "PASS" : "FAIL", info.description);
    amp_kernel_destroy(&p1);
    amp_kernel_destroy(&p2);
    amp_array_destroy(&ax);
    amp_array_destroy(&ap);
    amp_array_destroy(&ao);
    return ok ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: ampvk-matmul --check | --bench [--n N] [--bk 8|16] [--bm 128|64] | --reduce [--mb MB]  [--reps R]\n");
    return 2;
}

int main(int argc, char **argv)
{
    int mode = 0, n = 2048, reps = 20, bk = SGEMM_BK, bm = 0;
    long mb = 1024;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) mode = 'c';
        else if (strcmp(argv[i], "--bench") == 0) mode = 'b';
        else if (strcmp(argv[i], "--reduce") == 0) mode = 'r';
        else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--mb") == 0 && i + 1 < argc) mb = atol(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bk") == 0 && i + 1 < argc) bk = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bm") == 0 && i + 1 < argc) bm = atoi(argv[++i]);
        else return usage();
    }
    if (!mode || reps <= 0) return usage();
    amp_accelerator_view *v = need(amp_default_view(), "amp_default_view");
    int rc = mode == 'c' ? run_check(v) : mode == 'b' ? run_bench(v, n, reps, bk, bm ? bm : bk == 8 ? matmul_sgemm_rows(n, n) : SGEMM_BM) : run_reduce(v, mb, reps);
    uint64_t vm = amp_validation_message_count();
    if (vm) {
        fprintf(stderr, "ampvk-matmul: %llu validation messages\n", (unsigned long long)vm);
        if (!rc) rc = 1;
    }
    return rc;
}
