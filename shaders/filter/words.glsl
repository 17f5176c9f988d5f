// ampvk built-in filters: an 8-bit texel's codes as integers (conv_subgroup.comp's integer
// sums and sobel, and its erode and dilate in 16-bit floats). Built with AMP_CODES (the modules
// conv_subgroup_int and conv_subgroup_half_codes, which plan.c takes where the source and
// the destination take uint views), a module reads the source's codes through binding 9,
// its uint view (a code a component), or with FLAG_WORDS (plan.c sets it where both take
// word views: RGBA8 as R32_UINT, a texel one word of four codes) its word view; and for a
// result of four components and no pointwise op it stores words through binding 10, the
// destination's word view, or codes through the pointwise program on codes where it has
// one (store_codes): no conversion to floats and back.
//
// The codes in two words of 16-bit lanes, "halves": r | b << 16, g | a << 16 (a word's
// codes split by one mask and one shift). The 16-bit-float modules (built with
// AMP_HALF_LANES) order the halves as 16-bit floats, 1024 + code each (0x6400 | code:
// exponent 10, the code the mantissa), two to a register: a min or max orders two codes,
// and the codes come back by a mask.
#ifdef AMP_CODES
layout(set = 0, binding = 9) uniform utexture2D src_codes;
layout(set = 0, binding = 10) writeonly uniform uimage2D dst_codes;
bool reads_words() { return (FLAGS & FLAG_WORDS) != 0; }
// The program of an RGBA source on its result's codes (codes_program.glsl): grayscale alone,
// or FLAG_TABLE's table (plan.c's codes_between sets it), which each work group makes in
// shared memory first (make_code_table): cheaper than running the program on floats for
// each texel (finished's). (Four strips a subgroup, to make a table for more outputs, were
// slower.)
shared uint program_table[256];
uint code_table(uint c) { return program_table[c]; }
#include "codes_program.glsl"
bool tabled() { return (FLAGS & FLAG_TABLE) != 0; }
bool codes_program() { return SRC_N == 4 && (tabled() || (NOPS == 1 && gray_first())); }
// The table, by the whole work group (a barrier: every invocation calls it).
void make_code_table()
{
    for (uint c = gl_LocalInvocationIndex; c < 256u; c += gl_WorkGroupSize.x)
        program_table[c] = computed_word(c * 0x01010101u);
    barrier();
}
#else
bool reads_words() { return false; }
bool codes_program() { return false; }
#endif
// Whether a result leaves as a word of codes (store_codes): with no pointwise op, four
// components into a word view; through the program on codes, into any.
bool stores_codes() { return NOPS == 0 ? reads_words() && SRC_N == 4 && DST_N == 4 : codes_program(); }

// Four 8-bit codes as halves, and back: the four channels (at most 16 bits each) r g b a.
uvec2 halves(uvec4 c) { return uvec2(c.x | (c.z << 16), c.y | (c.w << 16)); }
uvec4 unhalved(uvec2 h) { return uvec4(h.x & 0xFFFFu, h.y & 0xFFFFu, h.x >> 16, h.y >> 16); }
// A word of codes (r | g << 8 | b << 16 | a << 24) as halves, and halves of codes as one.
uvec2 word_halves(uint w) { return uvec2(w & 0x00FF00FFu, (w >> 8) & 0x00FF00FFu); }
uint halves_word(uvec2 h) { return (h.x & 0x00FF00FFu) | ((h.y & 0x00FF00FFu) << 8); }
// Four codes (each below 256) as a word.
uint codes_word(uvec4 c) { return c.x | c.y << 8 | c.z << 16 | c.w << 24; }
// Halves' lanes (r g b a, each below 2^16) as floats, and floats in [0, 255] as the nearest
// codes, both through the mantissa of 2^23 (filter.glsl's exact_float and its inverse).
vec4 lanes_float(uvec2 h) { return exact_float(unhalved(h)); }
uvec4 nearest_codes(vec4 v) { return floatBitsToUint(v + 8388608.0) & 0xFFu; }
// The halves of a texel's 8-bit codes, rounded to the nearest code through the float's
// mantissa (1.5 * 2^23 has steps of 1).
uvec2 split_codes(vec4 t) { return halves(floatBitsToUint(t * 255.0 + 12582912.0) & 0xFFu); }
// The source's texel at p (inside it) as halves: its word or its codes (AMP_CODES), else
// its value's.
uvec2 codes_at(ivec2 p)
{
#ifdef AMP_CODES
    uvec4 c = texelFetch(src_codes, p, 0);
    return reads_words() ? word_halves(c.x) : halves(c);
#else
    return split_codes(texelFetch(src, p, 0));
#endif
}
// A result's word of codes (RGBA) through the program, if any, into the destination's word
// view, or its uint view a code a component (stores_codes).
void store_codes(ivec2 p, uint word)
{
#ifdef AMP_CODES
    uint r = NOPS == 0 ? word : program_codes(word);
    if (reads_words() && DST_N == 4) imageStore(dst_codes, p, uvec4(r));
    else imageStore(dst_codes, p, (uvec4(r) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu);
#endif
}
// The source at column x and row y as border_at gives them (-1: the constant border), as halves.
// The border as codes in [0, 255]: whole codes for the sums and sobel (plan.c's
// border_codes); for erode, dilate and the median any value, whose order against the codes
// clamping and rounding keep, rounded as the result's store rounds it (halves up: 0.3 is
// 76.5 codes, which split_codes's mantissa rounds to 76, the store to 77).
uvec2 codes_at(int x, int y)
{
    return x < 0 || y < 0 ? halves(uvec4(floor(clamp(P.border_value, 0.0, 1.0) * 255.0 + 0.5))) : codes_at(ivec2(x, y));
}

#ifdef AMP_HALF_LANES
// Halves as 16-bit floats (1024 + code each, in the halves' order r b g a).
f16vec4 lanes16(uvec2 h)
{
    return f16vec4(unpackFloat2x16(h.x | 0x64006400u), unpackFloat2x16(h.y | 0x64006400u));
}
// A result in lanes as the texel store takes it (its codes' values), or as a word of codes.
vec4 lanes_value(f16vec4 v) { return (vec4(v).xzyw - 1024.0) * (1.0 / 255.0); }
uint lanes_word(f16vec4 v) { return halves_word(uvec2(packFloat2x16(v.xy), packFloat2x16(v.zw))); }
#endif
