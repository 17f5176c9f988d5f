// ampvk kernel library: textures. The runtime declares each texture parameter
// and its accessors (name(idx), name_set(idx, v), name_get(idx, mip),
// name_sample(s, coord, lod), name_gather_red(s, coord), name_extent); this
// file holds what they expand to: the index order swap (host index (row, col)
// is image coordinate (x = col, y = row)) and the conversion between texels
// (4-channel GLSL vectors) and the element types.
#ifndef AMPVK_TEXTURE_GLSL
#define AMPVK_TEXTURE_GLSL

int amp_image_coord(int i) { return i; }
ivec2 amp_image_coord(ivec2 i) { return i.yx; }
ivec3 amp_image_coord(ivec3 i) { return i.zyx; }
int amp_host_extent(int s) { return s; }
ivec2 amp_host_extent(ivec2 s) { return s.yx; }
ivec3 amp_host_extent(ivec3 s) { return s.zyx; }

// Texel (vec4, ivec4, uvec4) to element type, one generator per scalar family.
#define AMP_TEXEL_READERS(T, V4, V3, V2, S)                       \
    S amp_from_texel_##T(V4 t) { return t.x; }                    \
    V2 amp_from_texel_##T##_2(V4 t) { return t.xy; }              \
    V3 amp_from_texel_##T##_3(V4 t) { return t.xyz; }             \
    V4 amp_from_texel_##T##_4(V4 t) { return t; }                 \
    V4 amp_to_texel(S v) { return V4(v, 0, 0, 0); }               \
    V4 amp_to_texel(V2 v) { return V4(v, 0, 0); }                 \
    V4 amp_to_texel(V3 v) { return V4(v, 0); }                    \
    V4 amp_to_texel(V4 v) { return v; }
AMP_TEXEL_READERS(float, vec4, vec3, vec2, float)
AMP_TEXEL_READERS(int, ivec4, ivec3, ivec2, int)
AMP_TEXEL_READERS(uint, uvec4, uvec3, uvec2, uint)
#undef AMP_TEXEL_READERS

// norm and unorm texels arrive as floats (the format decodes them); the element
// types clamp, as a kernel's arithmetic on them does.
#define AMP_NORM_TEXELS(T)                                                        \
    T amp_from_texel_##T(vec4 t) { return T##_make(t.x); }                       \
    T##_2 amp_from_texel_##T##_2(vec4 t) { return T##_2_make(t.x, t.y); }         \
    T##_3 amp_from_texel_##T##_3(vec4 t) { return T##_3_make(t.x, t.y, t.z); }    \
    T##_4 amp_from_texel_##T##_4(vec4 t) { return T##_4_make(t.x, t.y, t.z, t.w); } \
    vec4 amp_to_texel(T v) { return vec4(v.v, 0, 0, 0); }                         \
    vec4 amp_to_texel(T##_2 v) { return vec4(v.v, 0, 0); }                        \
    vec4 amp_to_texel(T##_3 v) { return vec4(v.v, 0); }                          \
    vec4 amp_to_texel(T##_4 v) { return v.v; }
#ifdef AMPVK_VEC_GLSL
AMP_NORM_TEXELS(norm)
AMP_NORM_TEXELS(unorm)
#endif
#undef AMP_NORM_TEXELS

// Rounding before a store into a normalized image (the runtime picks the one for the
// bound format): to the nearest code, ties away from zero, then a quarter step
// toward the next code, so that a device that truncates and one that rounds store
// the same code. NaN stores 0.
vec4 amp_quantize_unorm(vec4 v, float m)
{
    vec4 c = clamp(mix(v, vec4(0.0), isnan(v)), 0.0, 1.0);
    vec4 k = floor(c * m + 0.5);
    return min((k + 0.25) / m, vec4(1.0));
}
vec4 amp_quantize_snorm(vec4 v, float m)
{
    vec4 c = clamp(mix(v, vec4(0.0), isnan(v)), -1.0, 1.0);
    vec4 k = sign(c) * floor(abs(c) * m + 0.5);
    return clamp((k + 0.25 * sign(k)) / m, -1.0, 1.0);
}
vec4 amp_quantize_unorm8(vec4 v) { return amp_quantize_unorm(v, 255.0); }
vec4 amp_quantize_unorm16(vec4 v) { return amp_quantize_unorm(v, 65535.0); }
vec4 amp_quantize_snorm8(vec4 v) { return amp_quantize_snorm(v, 127.0); }
vec4 amp_quantize_snorm16(vec4 v) { return amp_quantize_snorm(v, 32767.0); }

#ifdef AMP_HAS_DOUBLE
// A double is stored as two 32-bit channels (low word first).
double amp_from_texel_double(uvec4 t) { return packDouble2x32(t.xy); }
dvec2 amp_from_texel_double_2(uvec4 t) { return dvec2(packDouble2x32(t.xy), packDouble2x32(t.zw)); }
uvec4 amp_to_texel(double v) { return uvec4(unpackDouble2x32(v), 0, 0); }
uvec4 amp_to_texel(dvec2 v) { return uvec4(unpackDouble2x32(v.x), unpackDouble2x32(v.y)); }
#endif

#endif
