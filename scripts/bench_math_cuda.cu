// CUDA's math library on the loop of `ampvk bench --only math`: n elements, each 256
// evaluations of the function from its own start, the argument stepping by a small
// amount (pow: x^w with w stepping over [-4, 4]), summed. Prints G results/s for CUDA's
// float functions (expf ...), its double ones (exp ...), and the float intrinsics
// (__expf ...: what fast_math compares with). Build: nvcc -O3 -arch=sm_90 (no
// --use_fast_math: the precise functions must stay precise).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define K 256

enum { F_EXP, F_LOG, F_SIN, F_POW, F_ERF };
static const char *names[] = {"exp", "log", "sin", "pow", "erf"};
static const double lo[] = {-10, 0.1, -100, 0.5, -3}, hi[] = {10, 100, 100, 2, 3};

template <typename T, int F, bool FAST> __device__ T eval(T v, T w)
{
    if (FAST) {
        if (F == F_EXP) return __expf(v);
        if (F == F_LOG) return __logf(v);
        if (F == F_SIN) return __sinf(v);
        if (F == F_POW) return __powf(v, w);
        return erff(v);
    }
    if (F == F_EXP) return exp(v);
    if (F == F_LOG) return log(v);
    if (F == F_SIN) return sin(v);
    if (F == F_POW) return pow(v, w);
    return erf(v);
}

template <typename T, int F, bool FAST> __global__ void run(const T *x, T *y, int n, T step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T v = x[i], acc = 0, w = -4;
    for (int j = 0; j < K; j++) {
        acc += eval<T, F, FAST>(v, w);
        v += step;
        w += T(8.0 / K);
    }
    y[i] = acc;
}

template <typename T, int F, bool FAST> static double measure(int n)
{
    T *h = new T[n], *x, *y;
    for (int i = 0; i < n; i++) h[i] = T(lo[F] + (hi[F] - lo[F]) * 0.75 * i / n);
    cudaMalloc(&x, n * sizeof(T));
    cudaMalloc(&y, n * sizeof(T));
    cudaMemcpy(x, h, n * sizeof(T), cudaMemcpyHostToDevice);
    T step = T((hi[F] - lo[F]) / (4.0 * K));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float best = 1e30f;
    for (int r = 0; r < 4; r++) {
        cudaEventRecord(a);
        run<T, F, FAST><<<(n + 255) / 256, 256>>>(x, y, n, step);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (r > 0 && ms < best) best = ms;
    }
    cudaFree(x);
    cudaFree(y);
    delete[] h;
    return double(n) * K / (best * 1e-3) / 1e9;
}

template <int F> static void row(int n, double *out)
{
    out[0] = measure<float, F, false>(n);
    out[1] = measure<double, F, false>(n);
    out[2] = F == F_ERF ? NAN : measure<float, F, true>(n);
}

int main()
{
    int n = 4 << 20;
    double r[5][3];
    row<F_EXP>(n, r[0]);
    row<F_LOG>(n, r[1]);
    row<F_SIN>(n, r[2]);
    row<F_POW>(n, r[3]);
    row<F_ERF>(n, r[4]);
    printf("%-10s %16s %16s %16s   G results/s, %d x %d evaluations (CUDA)\n", "function", "cuda float",
           "cuda double", "cuda intrinsic", n, K);
    for (int f = 0; f < 5; f++) {
        printf("%-10s %16.2f %16.2f", names[f], r[f][0], r[f][1]);
        if (std::isnan(r[f][2])) printf(" %16s\n", "-");
        else printf(" %16.2f\n", r[f][2]);
    }
    return 0;
}
