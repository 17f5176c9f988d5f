// SSIM (Wang, Bovik, Sheikh and Simoncelli 2004) of two luma planes (src/image/compare.c),
// as scikit-image's structural_similarity(gaussian_weights=True, sigma=1.5,
// use_sample_covariance=False): the means, variances and covariance under an 11-tap
// Gaussian window (scipy's 'reflect' border: d c b a | a b c d), in two separable
// passes. REAL is double where the device has it, else float.
//
//   (default)     rows: x, y the planes of width x height; weights the window's 11
//                 weights; sums 5 a pixel, the row-filtered x, y, x^2, y^2 and x y
//   SSIM_COLUMNS  the columns of sums, then the index: similarity each pixel's, with
//                 c1 = (0.01 L)^2 and c2 = (0.03 L)^2 for the data range L

#define SSIM_R 5

// scipy.ndimage's 'reflect' index of i in 0..n-1 (n > SSIM_R)
int reflected(int i, int n) { return i < 0 ? -1 - i : i >= n ? 2 * n - 1 - i : i; }

#ifndef SSIM_COLUMNS
void kernel(index_2 idx)
{
    int row = idx[0], col = idx[1];
    REAL s[5] = REAL[5](REAL(0), REAL(0), REAL(0), REAL(0), REAL(0));
    for (int k = -SSIM_R; k <= SSIM_R; k++) {
        int i = row * width + reflected(col + k, width);
        REAL a = x(i), b = y(i), w = weights(k + SSIM_R);
        s[0] += w * a;
        s[1] += w * b;
        s[2] += w * (a * a);
        s[3] += w * (b * b);
        s[4] += w * (a * b);
    }
    for (int j = 0; j < 5; j++) sums((row * width + col) * 5 + j) = s[j];
}
#else
void kernel(index_2 idx)
{
    int row = idx[0], col = idx[1];
    REAL s[5] = REAL[5](REAL(0), REAL(0), REAL(0), REAL(0), REAL(0));
    for (int k = -SSIM_R; k <= SSIM_R; k++) {
        int i = (reflected(row + k, height) * width + col) * 5;
        REAL w = weights(k + SSIM_R);
        for (int j = 0; j < 5; j++) s[j] += w * sums(i + j);
    }
    REAL ux = s[0], uy = s[1], vx = s[2] - ux * ux, vy = s[3] - uy * uy, vxy = s[4] - ux * uy;
    REAL num = (REAL(2) * ux * uy + c1) * (REAL(2) * vxy + c2);
    REAL den = (ux * ux + uy * uy + c1) * (vx + vy + c2);
    similarity(row * width + col) = float(num / den);
}
#endif
