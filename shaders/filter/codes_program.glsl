// ampvk built-in filters: the fused pointwise program on a texel's 8-bit codes, one word of
// them (R | G << 8 | B << 16 | A << 24), for the passes that read and write codes
// (packed.comp; conv_subgroup.comp's modules conv_subgroup_int and _half_codes through
// words.glsl). A program of grayscale alone is OpenCV's fixed point on the codes; one that
// plan.c's table_program allows (FLAG_TABLE: each channel of the result a function of that
// channel of the source, after a grayscale first if there is one) looks each channel up
// in a table of the program's results for the texels (c, c, c, c) of the 256 codes, made
// by the program itself (finished's), whose words the includer's code_table(c) returns in
// the result's layout (as_result's).

// Whether the program leaves alpha as it is: no op changes it, so where the source has it
// and no intermediate lacks it (one of 1 or 3 components) a lookup takes it from the source.
bool drops_alpha(int i, int word) { return i + 1 < NOPS && ((word >> 8) & 1) != 0; }
bool keeps_alpha()
{
    return SRC_N == 4 && !(drops_alpha(0, OP0) || drops_alpha(1, OP1) || drops_alpha(2, OP2) ||
                           drops_alpha(3, OP3) || drops_alpha(4, OP4) || drops_alpha(5, OP5) ||
                           drops_alpha(6, OP6) || drops_alpha(7, OP7) || drops_alpha(8, OP8) ||
                           drops_alpha(9, OP9) || drops_alpha(10, OP10) || drops_alpha(11, OP11) ||
                           drops_alpha(12, OP12) || drops_alpha(13, OP13) || drops_alpha(14, OP14));
}
// A result texel from its RGBA word, each channel in its byte: gray (and alpha in byte 1), RGB or RGBA.
uint as_result(uint y) { return DST_N == 1 ? y & 0xffu : DST_N == 2 ? (y & 0xffu) | (y >> 16 & 0xff00u) : DST_N == 3 ? y & 0xffffffu : y; }
bool gray_first() { return (OP0 & 255) == OP_GRAYSCALE; }
// The texel x through the program's first op where that is grayscale: cv2.COLOR_RGB2GRAY's
// fixed point, as grayscale() on codes, the gray in R, G and B (RGB's alpha is 1).
uint grayed(uint x)
{
    if (!gray_first()) return x;
    uint g = ((x & 0xffu) * 9798u + ((x >> 8) & 0xffu) * 19235u + ((x >> 16) & 0xffu) * 3735u + 16384u) >> 15;
    return g * 0x10101u | (SRC_N > 3 ? x & 0xff000000u : 0xff000000u);
}
// A grayed texel x through the table, as the result's word.
uint table_word(uint x)
{
    uint y = code_table(x & 0xffu) & 0xffu; // DST_N 1: R; 2: R and alpha; else each channel
    // alpha: byte 1 of a gray and alpha result, else byte 3
    uint a = keeps_alpha() ? x >> 24 : (code_table(x >> 24) >> (DST_N == 2 ? 8 : 24)) & 0xffu;
    if (DST_N == 2) return y | a << 8;
    if (DST_N > 2) y |= (code_table((x >> 8) & 0xffu) & 0xff00u) | (code_table((x >> 16) & 0xffu) & 0xff0000u);
    return DST_N > 3 ? y | a << 24 : y;
}
// The program on the texel x as the result's word: grayscale alone, or through the table.
uint program_codes(uint x)
{
    x = grayed(x);
    return NOPS == 1 && gray_first() ? as_result(x) : table_word(x);
}
// The program computed (finished's) on a texel's codes, as a word of the result's codes; a
// table's entry c is that of the texel (c, c, c, c).
uint computed_word(uint x) { return packUnorm4x8(finished(unpackUnorm4x8(x), false)); }
