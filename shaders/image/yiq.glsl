// The YIQ comparison of two RGBA8 images (src/image/compare.c): pixelmatch 7.2's color
// difference (Kotsarenko and Ramos) and anti-aliasing detector (Vysniauskas 2009), in
// its order of operations, so that a pixel differs exactly where pixelmatch says so.
// REAL is double where the device has it (pixelmatch computes in JavaScript's doubles),
// else float; compare.c declares pixelmatch's constants in it (Y_R ... PHI2).
//
// Two kernels, the second only where asked and only on the pixels the first found
// beyond the threshold (the detector is the costly part, and a SIMD device runs it for
// every lane of a group that has one such pixel):
//   (default)    a, b the pixels (RGBA bytes in a word, little-endian) of the blocks
//                of YIQ_BLOCK pixels of the width x height images that differ, packed,
//                four a uvec4 (the last padded with equal words); blocks the blocks'
//                indices in the images, quads the images' quads;
//                classes each packed pixel's class (YIQ_*) in bits 0-2 and
//                above them its score sqrt(|delta| / 35215), the threshold's scale (a
//                float's bits, the lowest 3 dropped); max_delta pixelmatch's
//                35215 * threshold^2; options YIQ_OPTION_WHITE
//   YIQ_AA_PASS  a, b the whole images; pixels the indices of those pixels; aa 1
//                where the pixel of a or b
//                lies on an anti-aliased edge, else 0

#define YIQ_SAME 0u      // identical bytes
#define YIQ_CLOSE 1u     // within the threshold
#define YIQ_LIGHTER 2u   // beyond it, b at least as bright as a
#define YIQ_DARKER 3u    // beyond it, b darker than a
#define YIQ_OPTION_WHITE 2u

ivec4 rgba(uint w) { return ivec4(w & 255u, (w >> 8) & 255u, (w >> 16) & 255u, w >> 24); }

// n / 255 correctly rounded, whatever the device's division (one Markstein step)
REAL div255(REAL n)
{
    precise REAL q = n / REAL(255);
    precise REAL r = fma(-q, REAL(255), n);
    return fma(r, REAL(1) / REAL(255), q);
}

// JavaScript's (k / d | 0) for 0 <= k: the quotient's floor, corrected by its exact
// remainder
int floor_div(int k, REAL d)
{
    REAL x = REAL(k);
    int q = int(x / d);
    precise REAL r = fma(-REAL(q), d, x);
    if (r < REAL(0)) q -= 1;
    else if (r >= d) q += 1;
    return q;
}

// pixelmatch's background of byte offset k under a translucent pixel
ivec3 background(int k)
{
    if ((options & YIQ_OPTION_WHITE) != 0u) return ivec3(255);
    return ivec3(48) + 159 * ivec3(k % 2, floor_div(k, PHI) % 2,
                                   floor_div(k, PHI2) % 2);
}

// the differences of the channels, blended on the background where either is translucent
void blended(ivec4 p, ivec4 q, int k, out REAL dr, out REAL dg, out REAL db)
{
    dr = REAL(p.r - q.r);
    dg = REAL(p.g - q.g);
    db = REAL(p.b - q.b);
    if (p.a < 255 || q.a < 255) {
        ivec3 bg = background(k);
        int da = p.a - q.a;
        dr = div255(REAL(p.r * p.a - q.r * q.a - bg.r * da));
        dg = div255(REAL(p.g * p.a - q.g * q.a - bg.g * da));
        db = div255(REAL(p.b * p.a - q.b * q.a - bg.b * da));
    }
}

REAL luma(REAL dr, REAL dg, REAL db)
{
    precise REAL y = dr * Y_R + dg * Y_G + db * Y_B;
    return y;
}

// the squared YIQ distance, negative where q is the darker
REAL color_delta(ivec4 p, ivec4 q, int k)
{
    REAL dr, dg, db;
    blended(p, q, k, dr, dg, db);
    precise REAL y = luma(dr, dg, db);
    precise REAL i = dr * I_R - dg * I_G - db * I_B;
    precise REAL s = dr * Q_R - dg * Q_G + db * Q_B;
    precise REAL delta = W_Y * y * y + W_I * i * i + W_Q * s * s;
    return y > REAL(0) ? -delta : delta;
}

#ifdef YIQ_AA_PASS
uint word(bool first, int i) { return first ? a(i) : b(i); }

REAL brightness_delta(ivec4 c, ivec4 q, int k)
{
    if (c == q) return REAL(0);
    REAL dr, dg, db;
    blended(c, q, k, dr, dg, db);
    return luma(dr, dg, db);
}

// 3 or more of the pixel's 8 neighbours (the image's edge counting as one) equal to it
bool many_siblings(bool first, int x1, int y1)
{
    int x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1);
    uint v = word(first, y1 * width + x1);
    int zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0;
    for (int x = x0; x <= x2; x++)
        for (int y = y0; y <= y2; y++) {
            if (x == x1 && y == y1) continue;
            if (v == word(first, y * width + x)) zeroes++;
            if (zeroes > 2) return true;
        }
    return false;
}

// the pixel of image a (first) or b lies on an anti-aliased edge: darker and brighter
// neighbours, at most 2 equal ones, and the darkest or the brightest of them flat in
// both images
bool antialiased(bool first, int x1, int y1)
{
    int x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1);
    int k = (y1 * width + x1) * 4;
    ivec4 c = rgba(word(first, y1 * width + x1));
    int zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0;
    REAL lo = REAL(0), hi = REAL(0);
    ivec2 at_lo = ivec2(0), at_hi = ivec2(0);
    for (int x = x0; x <= x2; x++)
        for (int y = y0; y <= y2; y++) {
            if (x == x1 && y == y1) continue;
            REAL delta = brightness_delta(c, rgba(word(first, y * width + x)), k);
            if (delta == REAL(0)) {
                zeroes++;
                if (zeroes > 2) return false;
            } else if (delta < lo) {
                lo = delta;
                at_lo = ivec2(x, y);
            } else if (delta > hi) {
                hi = delta;
                at_hi = ivec2(x, y);
            }
        }
    if (lo == REAL(0) || hi == REAL(0)) return false;
    return (many_siblings(true, at_lo.x, at_lo.y) && many_siblings(false, at_lo.x, at_lo.y)) ||
           (many_siblings(true, at_hi.x, at_hi.y) && many_siblings(false, at_hi.x, at_hi.y));
}

void kernel(index_1 j)
{
    int i = int(pixels(j)), y = i / width, x = i - y * width;
    aa(j) = antialiased(true, x, y) || antialiased(false, x, y) ? 1u : 0u;
}
#else
// a pixel's class, its score above the class's bits
uint classify(uint wa, uint wb, int i)
{
    if (wa == wb) return YIQ_SAME;
    REAL delta = color_delta(rgba(wa), rgba(wb), i * 4);
    uint score = floatBitsToUint(float(sqrt(abs(delta) / REAL(35215)))) & ~7u;
    return score | (!(abs(delta) > max_delta) ? YIQ_CLOSE : delta < REAL(0) ? YIQ_DARKER : YIQ_LIGHTER);
}

// four pixels at once: a CPU device loads them as one vector, and equal quads cost one
// comparison; quad q of the packed blocks is quad `at` of the images
void kernel(index_1 q)
{
    uvec4 wa = a(q), wb = b(q);
    int at = int(blocks(q / (YIQ_BLOCK / 4))) * (YIQ_BLOCK / 4) + q % (YIQ_BLOCK / 4);
    if (all(equal(wa, wb)) || at >= quads) {
        classes(q) = uvec4(YIQ_SAME);
        return;
    }
    classes(q) = uvec4(classify(wa.x, wb.x, at * 4), classify(wa.y, wb.y, at * 4 + 1),
                       classify(wa.z, wb.z, at * 4 + 2), classify(wa.w, wb.w, at * 4 + 3));
}
#endif
