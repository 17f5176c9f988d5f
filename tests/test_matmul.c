/* The matrix multiply and reduction kernels of demos/matmul_kernels.c against the host. */
#include <math.h>

#include "matmul_kernels.h"
#include "test.h"

/* The simple tiled kernel on int: 64x96 * 96x32, exact. */
static void tiled_int(amp_accelerator_view *v)
{
    enum { M = 64, K = 96, N = 32 };
    static int A[M * K], B[K * N], C[M * N], want[M * N];
    for (int i = 0; i < M * K; i++) A[i] = (int)(test_rand() % 2001) - 1000;
    for (int i = 0; i < K * N; i++) B[i] = (int)(test_rand() % 2001) - 1000;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
            want[i * N + j] = s;
        }
    amp_kernel *k = matmul_tiled_kernel(v, AMP_INT);
    REQUIRE(k);
    amp_array_view *va = amp_array_view_create_const(amp_extent2(M, K), AMP_INT, 0, A);
    amp_array_view *vb = amp_array_view_create_const(amp_extent2(K, N), AMP_INT, 0, B);
    amp_array_view *vc = amp_array_view_create(amp_extent2(M, N), AMP_INT, 0, C);
    REQUIRE_OK(matmul_tiled(v, k, va, vb, vc));
    REQUIRE_OK(amp_array_view_synchronize(vc));
    REQUIRE_ARRAY_INT(C, want, M * N);
    /* the float version on the same shape, small integers: exact too */
    amp_kernel *kf = matmul_tiled_kernel(v, AMP_FLOAT);
    REQUIRE(kf);
    static float Af[M * K], Bf[K * N], Cf[M * N];
    for (int i = 0; i < M * K; i++) Af[i] = (float)(A[i] % 10);
    for (int i = 0; i < K * N; i++) Bf[i] = (float)(B[i] % 10);
    amp_array_view *vaf = amp_array_view_create_const(amp_extent2(M, K), AMP_FLOAT, 0, Af);
    amp_array_view *vbf = amp_array_view_create_const(amp_extent2(K, N), AMP_FLOAT, 0, Bf);
    amp_array_view *vcf = amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, 0, Cf);
    REQUIRE_OK(matmul_tiled(v, kf, vaf, vbf, vcf));
    REQUIRE_OK(amp_array_view_synchronize(vcf));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int q = 0; q < K; q++) s += (A[i * K + q] % 10) * (B[q * N + j] % 10);
            want[i * N + j] = s;
        }
    REQUIRE_ARRAY_INT(Cf, want, M * N);
    /* shapes the kernel cannot take */
    amp_array_view *odd = amp_array_view_create(amp_extent2(M, 24), AMP_INT, 0, C);
    REQUIRE(matmul_tiled(v, k, va, vb, odd) == AMP_ERROR_INVALID_ARGUMENT);
    amp_array_view_destroy(&odd);
    amp_kernel_destroy(&k);
    amp_kernel_destroy(&kf);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vc);
    amp_array_view_destroy(&vaf);
    amp_array_view_destroy(&vbf);
    amp_array_view_destroy(&vcf);
}

/* The pack and unpack kernels of matmul_sgemm_any (NULL: the aligned call). */
typedef struct any_kernels {
    amp_kernel *pack, *unpack;
} any_kernels;

/* The register-blocked SGEMM: M x N x K with random values in [-1, 1) within 1e-4
 * (relative to sum |a b|), then small integers, exact; with any, through
 * matmul_sgemm_any on rank-2 float views (any sizes), k given as its kernel of bm
 * rows alone (bm 64: sizes for which matmul_sgemm_rows picks 64). */
static void sgemm(amp_accelerator_view *v, amp_kernel *k, int bm, const any_kernels *any, int M, int N, int K)
{
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N), *C = malloc(sizeof(float) * M * N);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < M * K; i++)
            A[i] = pass ? (float)((int)(test_rand() % 15) - 7) : (float)(test_rand() >> 8) / 8388608.0f - 1.0f;
        for (int i = 0; i < K * N; i++)
            B[i] = pass ? (float)((int)(test_rand() % 15) - 7) : (float)(test_rand() >> 8) / 8388608.0f - 1.0f;
        for (int i = 0; i < M * N; i++) C[i] = NAN;
        amp_array_view *va, *vb, *vc;
        if (any) {
            va = amp_array_view_create_const(amp_extent2(M, K), AMP_FLOAT, 0, A);
            vb = amp_array_view_create_const(amp_extent2(K, N), AMP_FLOAT, 0, B);
            vc = amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, 0, C);
            REQUIRE_OK(matmul_sgemm_any(v, bm == 64 ? NULL : k, bm == 64 ? k : NULL, any->pack, any->unpack, va, vb, vc));
        } else {
            va = amp_array_view_create_const(amp_extent1(M * K / 4), AMP_FLOAT_4, 0, A);
            vb = amp_array_view_create_const(amp_extent1(K * N / 4), AMP_FLOAT_4, 0, B);
            vc = amp_array_view_create(amp_extent1(M * N / 4), AMP_FLOAT_4, 0, C);
            REQUIRE_OK(matmul_sgemm_tile(v, k, bm, va, vb, vc, M, N, K));
        }
        REQUIRE_OK(amp_array_view_synchronize(vc));
        double worst = 0;
        long wrong = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double ref = 0, mag = 0;
                for (int q = 0; q < K; q++) {
                    double p = (double)A[i * K + q] * B[q * N + j];
                    ref += p;
                    mag += fabs(p);
                }
                double got = C[i * N + j], e = fabs(got - ref) / (mag > 0 ? mag : 1);
                if (!(e <= worst)) worst = e;
                wrong += got != ref;
            }
        if (pass == 0) {
            test_checks++;
            if (!(worst <= 1e-4)) {
                fprintf(stderr, "sgemm %dx%dx%d: max relative error %g\n", M, N, K, worst);
                test_failures++;
            }
        } else {
            REQUIRE_INT(wrong, 0);
        }
        amp_array_view_destroy(&va);
        amp_array_view_destroy(&vb);
        amp_array_view_destroy(&vc);
    }
    free(A);
    free(B);
    free(C);
}

static void sgemm_all(amp_accelerator_view *v)
{
    amp_kernel *k = matmul_sgemm_kernel(v), *k64 = matmul_sgemm_kernel_tile(v, 64, 8);
    REQUIRE(k && k64);
    if (!k || !k64) return;
    sgemm(v, k, 128, NULL, 256, 256, 256);
    sgemm(v, k, 128, NULL, 128, 384, 24); /* a non-square grid of tiles, 3 K-steps */
    sgemm(v, k, 128, NULL, 128, 128, 8);  /* one K-step: no prefetch */
    /* tiles of 64 rows: half the threads load A */
    sgemm(v, k64, 64, NULL, 192, 256, 40); /* 5 K-steps: the loop and an odd tail */
    sgemm(v, k64, 64, NULL, 64, 128, 16);  /* two K-steps */
    sgemm(v, k64, 64, NULL, 64, 384, 8);   /* one */
    any_kernels any = {matmul_pack_kernel(v, false), matmul_pack_kernel(v, true)};
    REQUIRE(any.pack && any.unpack);
    if (any.pack && any.unpack) {
        /* matmul_sgemm_any takes 64-row tiles for these small products when given them */
        REQUIRE_INT(matmul_sgemm_rows(100, 130), 64);
        REQUIRE_INT(matmul_sgemm_rows(2048, 2048), 128);
        REQUIRE_INT(matmul_sgemm_rows(1536, 1536), 64);
        for (int bm = 128; bm >= 64; bm -= 64) {
            amp_kernel *kb = bm == 64 ? k64 : k;
            sgemm(v, kb, bm, &any, 1, 1, 1);
            sgemm(v, kb, bm, &any, 100, 130, 7);  /* every size off the kernel's multiples */
            sgemm(v, kb, bm, &any, 129, 3, 257);
            sgemm(v, kb, bm, &any, 256, 128, 16); /* aligned, through the copies */
        }
        float z[6] = {0};
        amp_array_view *v23 = amp_array_view_create(amp_extent2(2, 3), AMP_FLOAT, 0, z);
        REQUIRE(matmul_sgemm_any(v, k, k64, any.pack, any.unpack, v23, v23, v23) == AMP_ERROR_INVALID_ARGUMENT);
        amp_array_view_destroy(&v23);
    }
    amp_kernel_destroy(&any.pack);
    amp_kernel_destroy(&any.unpack);
    float x[128 * 8] = {0};
    amp_array_view *vx = amp_array_view_create(amp_extent1(128 * 8 / 4), AMP_FLOAT_4, 0, x);
    REQUIRE(matmul_sgemm(v, k, vx, vx, vx, 100, 128, 8) == AMP_ERROR_INVALID_ARGUMENT);
    REQUIRE(matmul_sgemm(v, k, vx, vx, vx, 128, 128, 12) == AMP_ERROR_INVALID_ARGUMENT);
    REQUIRE(matmul_sgemm_tile(v, k64, 64, vx, vx, vx, 96, 128, 8) == AMP_ERROR_INVALID_ARGUMENT);
    REQUIRE(matmul_sgemm_tile(v, k64, 32, vx, vx, vx, 64, 128, 8) == AMP_ERROR_INVALID_ARGUMENT);
    REQUIRE(!matmul_sgemm_kernel_tile(v, 64, 16));
    amp_array_view_destroy(&vx);
    amp_kernel_destroy(&k);
    amp_kernel_destroy(&k64);
}

/* The two-pass reduction on small integers: exact, for counts that leave partial
 * tiles, a single thread's worth, and several grid strides per thread. */
static void reduction(amp_accelerator_view *v)
{
    amp_kernel *p1 = reduce_pass1_kernel(v), *p2 = reduce_pass2_kernel(v);
    REQUIRE(p1 && p2);
    const int counts[] = {1, 3, 1000, 262144 + 17, 2 * REDUCE_TILES * REDUCE_TILE * 4 + 5};
    for (int c = 0; c < (int)(sizeof counts / sizeof *counts); c++) {
        int n4 = counts[c];
        float *x = malloc(sizeof(float) * 4 * (size_t)n4), *partial = calloc(REDUCE_TILES, sizeof(float)), out = -1;
        double host = 0;
        for (int i = 0; i < 4 * n4; i++) host += x[i] = (float)(test_rand() % 2); /* sums stay below 2^24: exact */
        amp_array_view *vx = amp_array_view_create_const(amp_extent1(n4), AMP_FLOAT_4, 0, x);
        amp_array_view *vp = amp_array_view_create(amp_extent1(REDUCE_TILES), AMP_FLOAT, 0, partial);
        amp_array_view *vo = amp_array_view_create(amp_extent1(1), AMP_FLOAT, 0, &out);
        REQUIRE_OK(reduce_sum(v, p1, p2, vx, n4, vp, vo));
        REQUIRE_OK(amp_array_view_synchronize(vo));
        REQUIRE_CMP((double)out, ==, host, "%.1f");
        amp_array_view_destroy(&vx);
        amp_array_view_destroy(&vp);
        amp_array_view_destroy(&vo);
        free(x);
        free(partial);
    }
    amp_kernel_destroy(&p1);
    amp_kernel_destroy(&p2);
}

int main(void)
{
    test_rng_state = 2463534242u; /* the data these checks were written against */
    test_begin();
    amp_accelerator_view *v = test_view();
    tiled_int(v);
    sgemm_all(v);
    reduction(v);
    return test_end();
}
