#version 450
// Compile test for shaders/ampvk/vec.glsl: calls every function family once.
//   glslc -fshader-stage=comp --target-env=vulkan1.2 -I shaders tests/glsl/vec_compile.comp
//   (also with -DAMP_HAS_DOUBLE)
#include "ampvk/vec.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint words[]; };

uint k = 0u;
void put(uint x) { words[k++] = x; }
void put(int x) { put(uint(x)); }
void put(float x) { put(floatBitsToUint(x)); }
void put(bool x) { put(x ? 1u : 0u); }
void put(uvec4 x) { put(x.x); put(x.y); put(x.z); put(x.w); }
void put(ivec4 x) { put(uvec4(x)); }
void put(vec4 x) { put(floatBitsToUint(x)); }
void put(norm_4 x) { put(x.v); }
void put(unorm_4 x) { put(x.v); }

void main() {
    // construction, arithmetic, compound, inc/dec, eq/ne: every family
    float_4 f = float_4_make(1.7, -1.7, 2.5, -0.5);
    float_4 g = float_4_splat(2.0);
    put(float_4_add(f, g)); put(float_4_sub(f, g)); put(float_4_mul(f, g)); put(float_4_div(f, g));
    put(float_4_adds(f, 1.0)); put(amp_muls(f, 3.0)); put(amp_add(f, g)); put(amp_neg(f)); put(float_4_neg(f));
    float_4_add_assign(f, g); float_4_divs_assign(f, 2.0);
    put(float_4_inc(f)); put(float_4_post_dec(f)); put(float_4_dec(f)); put(float_4_post_inc(f));
    put(float_4_eq(f, g)); put(amp_ne(f, g));
    put(float_3_make(1.0, 2.0, 3.0).xyzx); put(float_2_splat(1.0).xyxy);

    int_4 i = int_4_make(7, -7, -2147483647 - 1, 5);
    int_4 j = int_4_make(2, 0, -1, 33);
    put(int_4_div(i, j)); put(int_4_mod(i, j)); put(amp_div(i, j)); put(amp_mod(i, j));
    put(int_4_shl(i, j)); put(int_4_shr(i, j)); put(amp_shls(i, 40)); put(amp_shrs(i, -1));
    put(int_4_and(i, j)); put(int_4_or(i, j)); put(int_4_xor(i, j)); put(int_4_not(i)); put(amp_not(i));
    put(amp_and(i, j)); put(amp_ors(i, 1)); put(amp_xors(i, 3)); put(amp_neg(i)); put(int_4_neg(i));
    put(int_4_adds(i, 1)); put(int_4_subs(i, 1)); put(int_4_mul(i, j)); put(amp_sub(i, j)); put(amp_divs(i, 0)); put(amp_mods(i, 0));
    int_4_mod_assign(i, j); int_4_shls_assign(i, 1); int_4_xor_assign(i, j);
    put(int_4_inc(i)); put(int_4_post_inc(i)); put(int_4_eq(i, j)); put(int_4_ne(i, j));
    put(int_2_make(1, 2).xyxy); put(int_3_splat(3).xyzz);

    uint_4 u = uint_4_make(7u, 0xffffffffu, 0x80000000u, 5u);
    uint_4 v = uint_4_make(2u, 0u, 33u, 0xffffffffu);
    put(uint_4_div(u, v)); put(uint_4_mod(u, v)); put(amp_shr(u, v)); put(amp_shl(u, v)); put(uint_4_not(u));
    put(uint_4_divs(u, 0u)); put(amp_add(u, v)); put(amp_mul(u, v)); put(uint_4_dec(u)); put(uint_4_post_dec(u));
    put(amp_eq(u, v)); put(uint_4_ne(u, v)); put(amp_xor(u, v)); put(amp_or(u, v)); put(uint_4_and(u, v));
    put(uint_2_make(1u, 2u).xyxy); put(uint_3_splat(3u).xyzz);

    // norm / unorm: vectors and scalars
    norm_4 n = norm_4_make(0.8, -0.5, 1.0, -1.0);
    norm_4 m = norm_4_splat(0.4);
    put(norm_4_add(n, m)); put(norm_4_sub(n, m)); put(norm_4_mul(n, m)); put(norm_4_div(n, m));
    put(norm_4_adds(n, norm_make(0.5))); put(amp_add(n, m)); put(amp_subs(n, norm_make(0.25))); put(amp_neg(n)); put(norm_4_neg(n));
    put(amp_div(n, m)); put(amp_mul(n, m)); put(amp_divs(n, norm_make(0.0))); put(amp_sub(n, m)); put(amp_adds(n, norm_make(1.0)));
    norm_4_add_assign(n, m); norm_4_muls_assign(n, norm_make(-1.0));
    put(norm_4_inc(n)); put(norm_4_post_dec(n)); put(norm_4_dec(n)); put(norm_4_post_inc(n)); put(norm_4_eq(n, m)); put(amp_ne(n, m));
    unorm_4 un = unorm_4_make(1.0, 0.25, 0.5, 0.0);
    unorm_4 um = unorm_4_splat(0.5);
    put(unorm_4_add(un, um)); put(unorm_4_sub(un, um)); put(unorm_4_mul(un, um)); put(unorm_4_div(un, um));
    put(amp_divs(un, unorm_make(2.0))); put(amp_muls(un, unorm_make(0.5))); put(unorm_4_inc(un)); put(unorm_4_post_dec(un)); put(amp_eq(un, um));
    norm s = norm_make(0.8);
    s = norm_add(s, norm_make(0.4)); put(s.v);
    put(amp_add(norm_make(0.8), norm_make(0.4)).v); put(norm_sub(s, s).v); put(norm_mul(s, s).v); put(norm_div(s, s).v);
    put(norm_neg(s).v); put(amp_neg(s).v); put(norm_inc(s).v); put(norm_post_dec(s).v); put(norm_dec(s).v); put(norm_post_inc(s).v);
    norm_add_assign(s, norm_make(-2.0)); put(s.v); put(norm_eq(s, s)); put(amp_ne(s, s));
    unorm t = unorm_make(1.0);
    put(unorm_div(t, unorm_make(2.0)).v); put(amp_div(t, unorm_make(0.5)).v); put(unorm_from_norm(norm_make(-0.5)).v);
    put(norm_from_unorm(t).v); put(amp_to_norm(t).v); put(amp_to_unorm(s).v); put(norm_from_norm(s).v); put(unorm_from_unorm(t).v);
    put(unorm_sub(t, t).v); put(amp_mul(t, t).v); put(amp_sub(t, t).v); put(unorm_inc(t).v); put(unorm_post_dec(t).v);
    put(amp_norm_clamp(1.0 / 0.0)); put(amp_unorm_clamp(vec4(-1.0, 0.5, 2.0, 0.0))); put(amp_norm_clamp(vec2(0.5)).xyxy);

    // swizzles: read and write, both spellings, plain and norm types
    put(vec4(float_4_zyx(f), 0.0)); put(vec4(float_4_bgr(f), 0.0)); put(float_4_wzyx(f)); put(float_4_abgr(f));
    float_4_set_zyx(f, vec3(1.0, 2.0, 3.0)); float_4_set_ar(f, vec2(4.0, 5.0)); put(f);
    put(ivec4(int_3_zyx(int_3_make(1, 2, 3)), 0)); put(uvec4(uint_2_yx(uvec2(1u, 2u)), uint_2_gr(uvec2(3u, 4u))));
    put(norm_4_wzyx(n)); put(vec4(norm_4_bgr(n).v, 0.0)); put(vec4(norm_3_zx(norm_3_make(0.1, 0.2, 0.3)).v, unorm_2_yx(unorm_2_make(0.1, 0.2)).v));
    norm_4_set_zyx(n, norm_3_make(0.1, 0.2, 0.3)); norm_4_set_ag(n, norm_2_make(-0.5, 0.5)); put(n);
    unorm_4_set_bgra(un, unorm_4_make(0.1, 0.2, 0.3, 0.4)); put(un);

    // conversions
    put(int_4_from_float_4(float_4_make(1.7, -1.7, 2.5, -0.5)));
    put(amp_to_int(vec4(3e9, -3e9, 0.0 / 0.0, 1.0))); put(uint_4_from_float_4(vec4(-0.5, 5e9, 3.9, 0.0)));
    put(amp_to_uint(ivec4(-1))); put(amp_to_int(uvec4(0xffffffffu))); put(float_4_from_int_4(ivec4(16777217)));
    put(amp_to_float(uvec4(7u))); put(amp_to_float(n)); put(float_4_from_unorm_4(un));
    put(norm_4_from_float_4(vec4(2.0, -2.0, 0.5, 0.0 / 0.0))); put(unorm_4_from_norm_4(n)); put(norm_4_from_unorm_4(un));
    put(amp_to_norm(ivec4(1, -1, 0, 5))); put(amp_to_unorm(uvec4(0u, 1u, 2u, 3u))); put(int_4_from_norm_4(n)); put(uint_4_from_unorm_4(un));
    put(amp_to_norm(n)); put(amp_to_unorm(un)); put(int_2_from_float_2(vec2(1.5)).xyxy); put(norm_3_from_int_3(ivec3(2)).v.xyzx);

    // texel codes and halves
    put(amp_unorm8_encode(0.5)); put(amp_unorm16_encode(0.5)); put(amp_snorm8_encode(-0.5)); put(amp_snorm16_encode(1.0));
    put(amp_unorm8_decode(128u)); put(amp_unorm16_decode(65535u)); put(amp_snorm8_decode(-128)); put(amp_snorm16_decode(-32767));
    put(amp_half_from_float(0.1)); put(amp_float_from_half(0x3555u)); put(amp_float_from_half(1u));

#ifdef AMP_HAS_DOUBLE
    double_4 d = double_4_make(1.5lf, -2.25lf, 1e300lf, 0.1lf);
    double_4 e = double_4_splat(2.0lf);
    d = amp_add(d, e); d = double_4_sub(d, e); d = double_4_mul(d, e); d = amp_div(d, e); d = amp_neg(d); d = double_4_adds(d, 1.0lf);
    double_4_mul_assign(d, e); double_4_inc(d); double_4_post_dec(d);
    put(double_4_eq(d, e)); put(amp_ne(d, e));
    put(int_4_from_double_4(d)); put(amp_to_uint(d)); put(amp_to_float(d)); put(amp_to_norm(d)); put(unorm_4_from_double_4(d));
    put(vec4(amp_to_double(ivec4(1)) + amp_to_double(uvec4(1u)) + amp_to_double(vec4(1.0)) + amp_to_double(n) + double_4_from_unorm_4(un) + amp_to_double(d)));
    put(vec4(double_4_wzyx(d))); double_4_set_xy(d, dvec2(1.0lf)); put(vec4(d));
    put(vec2(double_2_make(1.0lf, 2.0lf)).xyxy); put(vec3(double_3_splat(3.0lf)).xyzx);
#endif
}
