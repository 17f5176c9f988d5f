// cv2.equalizeHist's table (equalize.comp and packed.comp's): for the counts EQ_COUNT(j)
// of the codes j = 0 .. L of `total` texels, the code each maps to, stored by
// EQ_STORE(j, code) (both macros the includer's), as OpenCV makes it: the codes up to
// the first that occurs map to 0 (or all to it, if it is the only one), each later one to
// its cumulative count scaled by L / (total - that first count), rounded to even.

// a / b rounded to nearest as the host's float division does (a GPU divides to a
// few ulp; one correction step with the exact residual fixes that).
float divide(float a, float b)
{
    float q = a / b;
    float r = fma(-q, b, a);
    return fma(r, 1.0 / b, q);
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
    float scale = divide(float(L), float(total - EQ_COUNT(i)));
    uint sum = 0u;
    for (uint j = i + 1u; j <= L; j++) {
        sum += EQ_COUNT(j);
        EQ_STORE(j, uint(clamp(roundEven(float(sum) * scale), 0.0, float(L))));
    }
}
