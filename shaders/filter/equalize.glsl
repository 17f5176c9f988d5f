// cv2.equalizeHist's table (equalize.comp and packed.comp's): for the counts EQ_COUNT(j)
// of the codes j = 0 .. L of `total` texels, the code each maps to, stored by
// EQ_STORE(j, code) (both macros the includer's), as OpenCV makes it: the codes up to
// the first that occurs map to 0 (or all to it, if it is the only one), each later one to
// its cumulative count scaled by L / (total - that first count), rounded to even.

// a / b (b > 0) rounded to the nearest float, ties to even, as the host's float division
// rounds it, in integer arithmetic (long division to 25 significant bits, the rest kept as
// the remainder): a GPU's division is within a few ulp, and its correction through fma
// is exact only where fma is fused (lavapipe computes it as a product and then a sum:
// 16-bit tables came out a code off where the product was a tie).
float quotient(uint a, uint b)
{
    if (a == 0u) return 0.0;
    uint m = a / b, rem = a % b; // a / b = (m + rem / b) 2^e
    int e = 0;
    while (m < (1u << 24)) { // (rem < b < 2^31: its double fits)
        rem <<= 1;
        uint bit = rem >= b ? 1u : 0u;
        rem -= bit * b;
        m = m << 1 | bit;
        e--;
    }
    bool up = (m & 1u) != 0u && (rem != 0u || (m & 2u) != 0u); // the 25th bit, then the rest
    return ldexp(float((m >> 1) + (up ? 1u : 0u)), e + 1);
}

// OpenCV's scale, (L + 1 - 1.f) / (total - count of the first code): the count as a float
// (rounded where it exceeds 2^24, as the host converts it), the division rounded.
float equalize_scale(uint L, uint rest) { return quotient(L, uint(float(rest))); }
// The code that cumulative count `sum` maps to: OpenCV's saturate_cast of sum * scale, the
// product a float (not contracted into anything), rounded to even.
uint equalized_code(uint sum, float scale, uint L)
{
    precise float x = float(sum) * scale;
    return uint(clamp(roundEven(x), 0.0, float(L)));
}

void equalize_table(uint L, uint total)
{
    uint i = 0u;
    while (i < L && EQ_COUNT(i) == 0u) i++; // (L: no code counted, which cannot be)
    bool one = EQ_COUNT(i) == total; // a single code: every code maps to it
    for (uint j = 0u; j <= i; j++) EQ_STORE(j, one ? i : 0u);
    if (one) {
        for (uint j = i + 1u; j <= L; j++) EQ_STORE(j, i);
        return;
    }
    float scale = equalize_scale(L, total - EQ_COUNT(i));
    uint sum = 0u;
    for (uint j = i + 1u; j <= L; j++) {
        sum += EQ_COUNT(j);
        EQ_STORE(j, equalized_code(sum, scale, L));
    }
}
