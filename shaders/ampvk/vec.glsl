// ampvk/vec.glsl: C++ AMP short vectors, kernel side (GLSL 4.50, Vulkan 1.2).
//
// The twin of the host header vecmath/ampvk/vecmath.h: the same type names, the same
// function names, the same rules, so that an expression written with these functions
// gives bit-identical results on host and device for int/uint, norm/unorm, the texel
// codes and the IEEE-exact float operations (+ - * and conversions). Float division is
// not correctly rounded in Vulkan (2.5 ulp), so float / and norm / may differ in the last
// bit; denormals may be flushed and NaN/inf/-0 kept only where the device has
// shaderSignedZeroInfNanPreserveFloat32.
//
// TYPES
//   int_N uint_N float_N double_N are the GLSL vectors (#define float_4 vec4, int_2 ivec2,
//   uint_3 uvec3, double_2 dvec2); double_N only #ifdef AMP_HAS_DOUBLE (the runtime defines
//   it when the device has shaderFloat64). norm, unorm and norm_N, unorm_N are structs
//   with one member v (struct norm_4 { vec4 v; }), so that a plain + cannot skip the
//   clamp. Never build them with the struct constructor (norm_4(x) does not clamp): use
//   norm_4_make, norm_4_splat, norm_make, norm_4_from_float_4.
//
// FUNCTIONS (as on the host; T is a vector type, F its family)
//   T_make(x, y[, z[, w]]), T_splat(s)             construct (norm/unorm clamp)
//   T_op(a, b), T_ops(a, s)   op: add sub mul div; int/uint also mod and or xor shl shr
//   T_op_assign(a, b), T_ops_assign(a, s)  a is inout (the host takes &a); return new a
//   T_neg(a) (not uint, unorm), T_not(a) (int, uint), T_eq(a, b), T_ne(a, b)
//   T_inc(a), T_dec(a) (pre: new value), T_post_inc(a), T_post_dec(a) (old value)
//   T_zyx(a), T_bgr(a), T_set_zyx(a, s) ...  every swizzle of 2..N distinct components
//   D_N_from_S_N(a)                          conversions, e.g. int_4_from_float_4
//   norm_make, norm_add ..., norm_from_unorm, unorm_from_norm ...   scalars
//   amp_add amp_sub amp_mul amp_div amp_mod amp_and amp_or amp_xor amp_shl amp_shr
//   (and the ..s scalar forms), amp_neg amp_not amp_eq amp_ne amp_to_<family>:
//   overloads mirroring the host's _Generic front-ends (compound and inc/dec front-ends
//   are host-only)
//   amp_norm_clamp, amp_unorm_clamp (float, vec2..4)
//   amp_unorm8_encode/decode ... amp_half_from_float, amp_float_from_half (uint codes)
// RULES: see the host header; norm/unorm clamp after every operation (NaN -> 0, zero is
// +0); int/uint wrap; a / 0 = -1 (int) or 0xffffffff (uint), a % 0 = a, INT_MIN / -1 =
// INT_MIN; shift counts & 31; float -> int/uint truncate, saturate, NaN -> 0.
// Define AMP_NO_SWIZZLE_FUNCTIONS to leave out the swizzle functions of the plain vector
// types (their built-in .zyx swizzles remain); the norm/unorm ones are always there.

#ifndef AMPVK_VEC_GLSL
#define AMPVK_VEC_GLSL

#define int_1 int
#define int_2 ivec2
#define int_3 ivec3
#define int_4 ivec4
#define uint_1 uint
#define uint_2 uvec2
#define uint_3 uvec3
#define uint_4 uvec4
#define float_1 float
#define float_2 vec2
#define float_3 vec3
#define float_4 vec4
#ifdef AMP_HAS_DOUBLE
#define double_1 double
#define double_2 dvec2
#define double_3 dvec3
#define double_4 dvec4
#endif
struct norm { float v; };
struct norm_2 { vec2 v; };
struct norm_3 { vec3 v; };
struct norm_4 { vec4 v; };
struct unorm { float v; };
struct unorm_2 { vec2 v; };
struct unorm_3 { vec3 v; };
struct unorm_4 { vec4 v; };
#define norm_1 norm
#define unorm_1 unorm

// Traits: AMP_SHORT_VECTOR(float, 4) is float_4; AMP_VECTOR_VALUE_TYPE(norm_4) is norm;
// T_size is the component count (also .length() on plain vectors).
#define AMP_SHORT_VECTOR(S, N) S##_##N
#define AMP_VECTOR_VALUE_TYPE(T) T##_value_type
#define int_1_value_type int
#define int_2_value_type int
#define int_3_value_type int
#define int_4_value_type int
#define uint_1_value_type uint
#define uint_2_value_type uint
#define uint_3_value_type uint
#define uint_4_value_type uint
#define float_1_value_type float
#define float_2_value_type float
#define float_3_value_type float
#define float_4_value_type float
#define double_1_value_type double
#define double_2_value_type double
#define double_3_value_type double
#define double_4_value_type double
#define norm_value_type norm
#define norm_1_value_type norm
#define norm_2_value_type norm
#define norm_3_value_type norm
#define norm_4_value_type norm
#define unorm_value_type unorm
#define unorm_1_value_type unorm
#define unorm_2_value_type unorm
#define unorm_3_value_type unorm
#define unorm_4_value_type unorm

// ---- Family descriptors ------------------------------------------------------------
#define AMPI_CAT3_(a, b, c) a##b##c
#define AMPI_CAT3(a, b, c) AMPI_CAT3_(a, b, c)
// the family whose F_N is the raw vector of F_N, and the raw vector type
#define AMPI_RAWF_int int
#define AMPI_RAWF_uint uint
#define AMPI_RAWF_float float
#define AMPI_RAWF_double double
#define AMPI_RAWF_norm float
#define AMPI_RAWF_unorm float
#define AMPI_RT(F, N) AMPI_CAT3(AMPI_RAWF_##F, _, N)
#define AMPI_RAW_int(a) (a)
#define AMPI_RAW_uint(a) (a)
#define AMPI_RAW_float(a) (a)
#define AMPI_RAW_double(a) (a)
#define AMPI_RAW_norm(a) (a).v
#define AMPI_RAW_unorm(a) (a).v
#define AMPI_SCALAR_int int
#define AMPI_SCALAR_uint uint
#define AMPI_SCALAR_float float
#define AMPI_SCALAR_double double
#define AMPI_SCALAR_norm norm
#define AMPI_SCALAR_unorm unorm
#define AMPI_SLANE_int(s) (s)
#define AMPI_SLANE_uint(s) (s)
#define AMPI_SLANE_float(s) (s)
#define AMPI_SLANE_double(s) (s)
#define AMPI_SLANE_norm(s) (s).v
#define AMPI_SLANE_unorm(s) (s).v
#define AMPI_LANE_int int
#define AMPI_LANE_uint uint
#define AMPI_LANE_float float
#define AMPI_LANE_double double
#define AMPI_LANE_norm float
#define AMPI_LANE_unorm float
#define AMPI_ONE_int 1
#define AMPI_ONE_uint 1u
#define AMPI_ONE_float 1.0
#define AMPI_ONE_double 1.0lf
#define AMPI_ONE_norm 1.0
#define AMPI_ONE_unorm 1.0
#define AMPI_CL_int(x) (x)
#define AMPI_CL_uint(x) (x)
#define AMPI_CL_float(x) (x)
#define AMPI_CL_double(x) (x)
#define AMPI_CL_norm(x) amp_norm_clamp(x)
#define AMPI_CL_unorm(x) amp_unorm_clamp(x)

// ---- Clamping ------------------------------------------------------------------------
// amp_norm_clamp / amp_unorm_clamp: [-1,1] / [0,1], +inf -> 1, -inf -> -1 / 0, NaN -> 0,
// a zero result is +0. Selects only (clamp() and min/max are undefined for NaN, and the
// sign of a zero from max(-0, +0) is not fixed), plus an explicit isnan().
float amp_norm_clamp(float x) {
    float r = x > 0.0 ? min(x, 1.0) : (x < 0.0 ? max(x, -1.0) : 0.0);
    return isnan(x) ? 0.0 : r;
}
float amp_unorm_clamp(float x) {
    float r = x > 0.0 ? min(x, 1.0) : 0.0;
    return isnan(x) ? 0.0 : r;
}
#define AMPI_DEF_CLAMP(V, B) \
    V amp_norm_clamp(V x) { \
        V r = mix(mix(V(0.0), max(x, V(-1.0)), lessThan(x, V(0.0))), min(x, V(1.0)), greaterThan(x, V(0.0))); \
        return mix(r, V(0.0), isnan(x)); \
    } \
    V amp_unorm_clamp(V x) { \
        V r = mix(V(0.0), min(x, V(1.0)), greaterThan(x, V(0.0))); \
        return mix(r, V(0.0), isnan(x)); \
    }
AMPI_DEF_CLAMP(vec2, bvec2)
AMPI_DEF_CLAMP(vec3, bvec3)
AMPI_DEF_CLAMP(vec4, bvec4)

// ---- Integer lane rules (same algorithms as the host) ---------------------------------
// / and % on magnitudes (GLSL leaves negative % and division by 0 undefined);
// a / 0 = -1 (int) or 0xffffffff (uint), a % 0 = a, INT_MIN / -1 = INT_MIN.
#define AMPI_DEF_INT_RULES(N) \
    ivec##N ampi_sdiv(ivec##N a, ivec##N b) { \
        bvec##N an = lessThan(a, ivec##N(0)), bn = lessThan(b, ivec##N(0)), bz = equal(b, ivec##N(0)); \
        uvec##N ua = uvec##N(mix(a, -a, an)), ub = max(uvec##N(mix(b, -b, bn)), uvec##N(1u)); \
        ivec##N q = ivec##N(ua / ub); \
        return mix(mix(q, -q, notEqual(an, bn)), ivec##N(-1), bz); \
    } \
    ivec##N ampi_smod(ivec##N a, ivec##N b) { \
        bvec##N an = lessThan(a, ivec##N(0)), bn = lessThan(b, ivec##N(0)), bz = equal(b, ivec##N(0)); \
        uvec##N ua = uvec##N(mix(a, -a, an)), ub = max(uvec##N(mix(b, -b, bn)), uvec##N(1u)); \
        ivec##N r = ivec##N(ua % ub); \
        return mix(mix(r, -r, an), a, bz); \
    } \
    uvec##N ampi_udiv(uvec##N a, uvec##N b) { \
        return mix(a / max(b, uvec##N(1u)), uvec##N(0xffffffffu), equal(b, uvec##N(0u))); \
    } \
    uvec##N ampi_umod(uvec##N a, uvec##N b) { \
        return mix(a % max(b, uvec##N(1u)), a, equal(b, uvec##N(0u))); \
    } \
    ivec##N ampi_f2i(vec##N f) { \
        vec##N g = mix(f, vec##N(0.0), isnan(f)); \
        ivec##N r = ivec##N(clamp(g, vec##N(-2147483648.0), vec##N(2147483520.0))); \
        return mix(r, ivec##N(0x7fffffff), greaterThanEqual(g, vec##N(2147483648.0))); \
    } \
    uvec##N ampi_f2u(vec##N f) { \
        vec##N g = mix(f, vec##N(0.0), isnan(f)); \
        uvec##N r = uvec##N(clamp(g, vec##N(0.0), vec##N(4294967040.0))); \
        return mix(r, uvec##N(0xffffffffu), greaterThanEqual(g, vec##N(4294967296.0))); \
    }
AMPI_DEF_INT_RULES(2)
AMPI_DEF_INT_RULES(3)
AMPI_DEF_INT_RULES(4)
#ifdef AMP_HAS_DOUBLE
#define AMPI_DEF_DOUBLE_RULES(N) \
    ivec##N ampi_d2i(dvec##N d) { \
        dvec##N g = mix(d, dvec##N(0.0lf), isnan(d)); \
        return ivec##N(clamp(g, dvec##N(-2147483648.0lf), dvec##N(2147483647.0lf))); \
    } \
    uvec##N ampi_d2u(dvec##N d) { \
        dvec##N g = mix(d, dvec##N(0.0lf), isnan(d)); \
        return uvec##N(clamp(g, dvec##N(0.0lf), dvec##N(4294967295.0lf))); \
    }
AMPI_DEF_DOUBLE_RULES(2)
AMPI_DEF_DOUBLE_RULES(3)
AMPI_DEF_DOUBLE_RULES(4)
#endif

// Lane operators on raw vectors, per family.
#define AMPI_ADD(F, a, b) AMPI_CL_##F((a) + (b))
#define AMPI_DIV_int(a, b) ampi_sdiv(a, b)
#define AMPI_DIV_uint(a, b) ampi_udiv(a, b)
#define AMPI_DIV_float(a, b) ((a) / (b))
#define AMPI_DIV_double(a, b) ((a) / (b))
#define AMPI_DIV_norm(a, b) amp_norm_clamp((a) / (b))
#define AMPI_DIV_unorm(a, b) amp_unorm_clamp((a) / (b))
#define AMPI_MOD_int(a, b) ampi_smod(a, b)
#define AMPI_MOD_uint(a, b) ampi_umod(a, b)
#define AMPI_SH_int 31
#define AMPI_SH_uint 31u

// ---- Vectors ----------------------------------------------------------------------------
// One binary operator in all its forms: T_op, T_ops, T_op_assign, T_ops_assign, amp_op,
// amp_ops. EXPR(F, a, b) computes on raw vectors.
#define AMPI_DEF_BINOP(F, N, op, EXPR) \
    F##_##N F##_##N##_##op(F##_##N a, F##_##N b) { \
        return F##_##N(EXPR(F, AMPI_RAW_##F(a), AMPI_RAW_##F(b))); \
    } \
    F##_##N F##_##N##_##op##s(F##_##N a, AMPI_SCALAR_##F s) { \
        return F##_##N(EXPR(F, AMPI_RAW_##F(a), AMPI_RT(F, N)(AMPI_SLANE_##F(s)))); \
    } \
    F##_##N F##_##N##_##op##_assign(inout F##_##N a, F##_##N b) { a = F##_##N##_##op(a, b); return a; } \
    F##_##N F##_##N##_##op##s_assign(inout F##_##N a, AMPI_SCALAR_##F s) { a = F##_##N##_##op##s(a, s); return a; } \
    F##_##N amp_##op(F##_##N a, F##_##N b) { return F##_##N##_##op(a, b); } \
    F##_##N amp_##op##s(F##_##N a, AMPI_SCALAR_##F s) { return F##_##N##_##op##s(a, s); }
#define AMPI_E_ADD(F, a, b) AMPI_CL_##F((a) + (b))
#define AMPI_E_SUB(F, a, b) AMPI_CL_##F((a) - (b))
#define AMPI_E_MUL(F, a, b) AMPI_CL_##F((a) * (b))
#define AMPI_E_DIV(F, a, b) AMPI_DIV_##F(a, b)
#define AMPI_E_MOD(F, a, b) AMPI_MOD_##F(a, b)
#define AMPI_E_AND(F, a, b) ((a) & (b))
#define AMPI_E_OR(F, a, b) ((a) | (b))
#define AMPI_E_XOR(F, a, b) ((a) ^ (b))
#define AMPI_E_SHL(F, a, b) ((a) << ((b) & AMPI_SH_##F))
#define AMPI_E_SHR(F, a, b) ((a) >> ((b) & AMPI_SH_##F))

#define AMPI_MAKE_PARAMS_2(L) L x, L y
#define AMPI_MAKE_PARAMS_3(L) L x, L y, L z
#define AMPI_MAKE_PARAMS_4(L) L x, L y, L z, L w
#define AMPI_MAKE_ARGS_2 x, y
#define AMPI_MAKE_ARGS_3 x, y, z
#define AMPI_MAKE_ARGS_4 x, y, z, w

// Everything every vector type has: make, splat, + - * /, eq, ne, inc, dec.
#define AMPI_DEF_COMMON(F, N) \
    F##_##N F##_##N##_make(AMPI_MAKE_PARAMS_##N(AMPI_LANE_##F)) { \
        return F##_##N(AMPI_CL_##F(AMPI_RT(F, N)(AMPI_MAKE_ARGS_##N))); \
    } \
    F##_##N F##_##N##_splat(AMPI_LANE_##F s) { return F##_##N(AMPI_CL_##F(AMPI_RT(F, N)(s))); } \
    AMPI_DEF_BINOP(F, N, add, AMPI_E_ADD) \
    AMPI_DEF_BINOP(F, N, sub, AMPI_E_SUB) \
    AMPI_DEF_BINOP(F, N, mul, AMPI_E_MUL) \
    AMPI_DEF_BINOP(F, N, div, AMPI_E_DIV) \
    bool F##_##N##_eq(F##_##N a, F##_##N b) { return all(equal(AMPI_RAW_##F(a), AMPI_RAW_##F(b))); } \
    bool F##_##N##_ne(F##_##N a, F##_##N b) { return !F##_##N##_eq(a, b); } \
    bool amp_eq(F##_##N a, F##_##N b) { return F##_##N##_eq(a, b); } \
    bool amp_ne(F##_##N a, F##_##N b) { return F##_##N##_ne(a, b); } \
    F##_##N F##_##N##_inc(inout F##_##N a) { a = F##_##N##_add(a, F##_##N##_splat(AMPI_ONE_##F)); return a; } \
    F##_##N F##_##N##_dec(inout F##_##N a) { \
        a = F##_##N(AMPI_E_SUB(F, AMPI_RAW_##F(a), AMPI_RT(F, N)(AMPI_ONE_##F))); \
        return a; \
    } \
    F##_##N F##_##N##_post_inc(inout F##_##N a) { F##_##N o = a; F##_##N##_inc(a); return o; } \
    F##_##N F##_##N##_post_dec(inout F##_##N a) { F##_##N o = a; F##_##N##_dec(a); return o; }
#define AMPI_DEF_INTEGER(F, N) \
    AMPI_DEF_BINOP(F, N, mod, AMPI_E_MOD) \
    AMPI_DEF_BINOP(F, N, and, AMPI_E_AND) \
    AMPI_DEF_BINOP(F, N, or, AMPI_E_OR) \
    AMPI_DEF_BINOP(F, N, xor, AMPI_E_XOR) \
    AMPI_DEF_BINOP(F, N, shl, AMPI_E_SHL) \
    AMPI_DEF_BINOP(F, N, shr, AMPI_E_SHR) \
    F##_##N F##_##N##_not(F##_##N a) { return ~a; } \
    F##_##N amp_not(F##_##N a) { return ~a; }
#define AMPI_DEF_NEG(F, N) \
    F##_##N F##_##N##_neg(F##_##N a) { return F##_##N(AMPI_CL_##F(-AMPI_RAW_##F(a))); } \
    F##_##N amp_neg(F##_##N a) { return F##_##N##_neg(a); }

// ---- Swizzles ---------------------------------------------------------------------------
// X(F, N, length, xyzw-name, rgba-name); AMPI_SWZ_Lk_Nn: the length-k swizzles that use
// component n-1 (the same tables as the host's vecmath_swizzle.h).
#define AMPI_SWZ_L2_N2(X, F, N) \
    X(F,N,2,xy,rg) X(F,N,2,yx,gr)

#define AMPI_SWZ_L2_N3(X, F, N) \
    X(F,N,2,xz,rb) X(F,N,2,yz,gb) X(F,N,2,zx,br) X(F,N,2,zy,bg)

#define AMPI_SWZ_L2_N4(X, F, N) \
    X(F,N,2,xw,ra) X(F,N,2,yw,ga) X(F,N,2,zw,ba) X(F,N,2,wx,ar) \
    X(F,N,2,wy,ag) X(F,N,2,wz,ab)

#define AMPI_SWZ_L3_N3(X, F, N) \
    X(F,N,3,xyz,rgb) X(F,N,3,xzy,rbg) X(F,N,3,yxz,grb) X(F,N,3,yzx,gbr) \
    X(F,N,3,zxy,brg) X(F,N,3,zyx,bgr)

#define AMPI_SWZ_L3_N4(X, F, N) \
    X(F,N,3,xyw,rga) X(F,N,3,xzw,rba) X(F,N,3,xwy,rag) X(F,N,3,xwz,rab) \
    X(F,N,3,yxw,gra) X(F,N,3,yzw,gba) X(F,N,3,ywx,gar) X(F,N,3,ywz,gab) \
    X(F,N,3,zxw,bra) X(F,N,3,zyw,bga) X(F,N,3,zwx,bar) X(F,N,3,zwy,bag) \
    X(F,N,3,wxy,arg) X(F,N,3,wxz,arb) X(F,N,3,wyx,agr) X(F,N,3,wyz,agb) \
    X(F,N,3,wzx,abr) X(F,N,3,wzy,abg)

#define AMPI_SWZ_L4_N4(X, F, N) \
    X(F,N,4,xyzw,rgba) X(F,N,4,xywz,rgab) X(F,N,4,xzyw,rbga) X(F,N,4,xzwy,rbag) \
    X(F,N,4,xwyz,ragb) X(F,N,4,xwzy,rabg) X(F,N,4,yxzw,grba) X(F,N,4,yxwz,grab) \
    X(F,N,4,yzxw,gbra) X(F,N,4,yzwx,gbar) X(F,N,4,ywxz,garb) X(F,N,4,ywzx,gabr) \
    X(F,N,4,zxyw,brga) X(F,N,4,zxwy,brag) X(F,N,4,zyxw,bgra) X(F,N,4,zywx,bgar) \
    X(F,N,4,zwxy,barg) X(F,N,4,zwyx,bagr) X(F,N,4,wxyz,argb) X(F,N,4,wxzy,arbg) \
    X(F,N,4,wyxz,agrb) X(F,N,4,wyzx,agbr) X(F,N,4,wzxy,abrg) X(F,N,4,wzyx,abgr)

#define AMPI_SWIZZLES_2(X, F) AMPI_SWZ_L2_N2(X, F, 2)
#define AMPI_SWIZZLES_3(X, F) AMPI_SWZ_L2_N2(X, F, 3) AMPI_SWZ_L2_N3(X, F, 3) AMPI_SWZ_L3_N3(X, F, 3)
#define AMPI_SWIZZLES_4(X, F) \
    AMPI_SWZ_L2_N2(X, F, 4) AMPI_SWZ_L2_N3(X, F, 4) AMPI_SWZ_L2_N4(X, F, 4) \
    AMPI_SWZ_L3_N3(X, F, 4) AMPI_SWZ_L3_N4(X, F, 4) AMPI_SWZ_L4_N4(X, F, 4)
#define AMPI_DEF_SWIZZLE(F, N, L, XYZW, RGBA) \
    F##_##L F##_##N##_##XYZW(F##_##N a) { return F##_##L(AMPI_RAW_##F(a).XYZW); } \
    F##_##L F##_##N##_##RGBA(F##_##N a) { return F##_##L(AMPI_RAW_##F(a).XYZW); } \
    void F##_##N##_set_##XYZW(inout F##_##N a, F##_##L s) { AMPI_RAW_##F(a).XYZW = AMPI_RAW_##F(s); } \
    void F##_##N##_set_##RGBA(inout F##_##N a, F##_##L s) { AMPI_RAW_##F(a).XYZW = AMPI_RAW_##F(s); }
#ifdef AMP_NO_SWIZZLE_FUNCTIONS
#define AMPI_DEF_PLAIN_SWIZZLES(F, N)
#else
#define AMPI_DEF_PLAIN_SWIZZLES(F, N) AMPI_SWIZZLES_##N(AMPI_DEF_SWIZZLE, F)
#endif
#define AMPI_DEF_NORM_SWIZZLES(F, N) AMPI_SWIZZLES_##N(AMPI_DEF_SWIZZLE, F)

// ---- Per family -------------------------------------------------------------------------
#define AMPI_DEF_INT_FAMILY(F, N) AMPI_DEF_COMMON(F, N) AMPI_DEF_INTEGER(F, N) AMPI_DEF_PLAIN_SWIZZLES(F, N)
#define AMPI_DEF_FLOAT_FAMILY(F, N) AMPI_DEF_COMMON(F, N) AMPI_DEF_NEG(F, N) AMPI_DEF_PLAIN_SWIZZLES(F, N)
AMPI_DEF_INT_FAMILY(int, 2)
AMPI_DEF_INT_FAMILY(int, 3)
AMPI_DEF_INT_FAMILY(int, 4)
AMPI_DEF_NEG(int, 2)
AMPI_DEF_NEG(int, 3)
AMPI_DEF_NEG(int, 4)
AMPI_DEF_INT_FAMILY(uint, 2)
AMPI_DEF_INT_FAMILY(uint, 3)
AMPI_DEF_INT_FAMILY(uint, 4)
AMPI_DEF_FLOAT_FAMILY(float, 2)
AMPI_DEF_FLOAT_FAMILY(float, 3)
AMPI_DEF_FLOAT_FAMILY(float, 4)
#ifdef AMP_HAS_DOUBLE
AMPI_DEF_FLOAT_FAMILY(double, 2)
AMPI_DEF_FLOAT_FAMILY(double, 3)
AMPI_DEF_FLOAT_FAMILY(double, 4)
#endif
AMPI_DEF_COMMON(norm, 2) AMPI_DEF_NEG(norm, 2) AMPI_DEF_NORM_SWIZZLES(norm, 2)
AMPI_DEF_COMMON(norm, 3) AMPI_DEF_NEG(norm, 3) AMPI_DEF_NORM_SWIZZLES(norm, 3)
AMPI_DEF_COMMON(norm, 4) AMPI_DEF_NEG(norm, 4) AMPI_DEF_NORM_SWIZZLES(norm, 4)
AMPI_DEF_COMMON(unorm, 2) AMPI_DEF_NORM_SWIZZLES(unorm, 2)
AMPI_DEF_COMMON(unorm, 3) AMPI_DEF_NORM_SWIZZLES(unorm, 3)
AMPI_DEF_COMMON(unorm, 4) AMPI_DEF_NORM_SWIZZLES(unorm, 4)

// ---- Scalar norm and unorm ------------------------------------------------------------
#define AMPI_DEF_SCALAR_BINOP(F, op, EXPR) \
    F F##_##op(F a, F b) { return F(EXPR(F, a.v, b.v)); } \
    F F##_##op##_assign(inout F a, F b) { a = F##_##op(a, b); return a; } \
    F amp_##op(F a, F b) { return F##_##op(a, b); }
#define AMPI_DEF_SCALAR_NORM(F) \
    F F##_make(float x) { return F(AMPI_CL_##F(x)); } \
    AMPI_DEF_SCALAR_BINOP(F, add, AMPI_E_ADD) \
    AMPI_DEF_SCALAR_BINOP(F, sub, AMPI_E_SUB) \
    AMPI_DEF_SCALAR_BINOP(F, mul, AMPI_E_MUL) \
    AMPI_DEF_SCALAR_BINOP(F, div, AMPI_E_DIV) \
    bool F##_eq(F a, F b) { return a.v == b.v; } \
    bool F##_ne(F a, F b) { return !(a.v == b.v); } \
    bool amp_eq(F a, F b) { return F##_eq(a, b); } \
    bool amp_ne(F a, F b) { return F##_ne(a, b); } \
    F F##_inc(inout F a) { a = F##_make(a.v + 1.0); return a; } \
    F F##_dec(inout F a) { a = F##_make(a.v - 1.0); return a; } \
    F F##_post_inc(inout F a) { F o = a; F##_inc(a); return o; } \
    F F##_post_dec(inout F a) { F o = a; F##_dec(a); return o; }
AMPI_DEF_SCALAR_NORM(norm)
AMPI_DEF_SCALAR_NORM(unorm)
norm norm_neg(norm a) { return norm(amp_norm_clamp(-a.v)); }
norm amp_neg(norm a) { return norm_neg(a); }
norm norm_from_unorm(unorm a) { return norm(a.v); }
unorm unorm_from_norm(norm a) { return unorm(amp_unorm_clamp(a.v)); }
norm norm_from_norm(norm a) { return a; }
unorm unorm_from_unorm(unorm a) { return a; }
norm amp_to_norm(norm a) { return a; }
norm amp_to_norm(unorm a) { return norm_from_unorm(a); }
unorm amp_to_unorm(norm a) { return unorm_from_norm(a); }
unorm amp_to_unorm(unorm a) { return a; }

// ---- Conversions ------------------------------------------------------------------------
// AMPI_CVT_<dst>_<src>(x, N) on raw vectors; the same rules as the host's table.
#define AMPI_CVT_int_int(x, N) (x)
#define AMPI_CVT_int_uint(x, N) ivec##N(x)
#define AMPI_CVT_int_float(x, N) ampi_f2i(x)
#define AMPI_CVT_int_double(x, N) ampi_d2i(x)
#define AMPI_CVT_int_norm(x, N) ampi_f2i(x)
#define AMPI_CVT_int_unorm(x, N) ampi_f2i(x)
#define AMPI_CVT_uint_int(x, N) uvec##N(x)
#define AMPI_CVT_uint_uint(x, N) (x)
#define AMPI_CVT_uint_float(x, N) ampi_f2u(x)
#define AMPI_CVT_uint_double(x, N) ampi_d2u(x)
#define AMPI_CVT_uint_norm(x, N) ampi_f2u(x)
#define AMPI_CVT_uint_unorm(x, N) ampi_f2u(x)
#define AMPI_CVT_float_int(x, N) vec##N(x)
#define AMPI_CVT_float_uint(x, N) vec##N(x)
#define AMPI_CVT_float_float(x, N) (x)
#define AMPI_CVT_float_double(x, N) vec##N(x)
#define AMPI_CVT_float_norm(x, N) (x)
#define AMPI_CVT_float_unorm(x, N) (x)
#define AMPI_CVT_double_int(x, N) dvec##N(x)
#define AMPI_CVT_double_uint(x, N) dvec##N(x)
#define AMPI_CVT_double_float(x, N) dvec##N(x)
#define AMPI_CVT_double_double(x, N) (x)
#define AMPI_CVT_double_norm(x, N) dvec##N(x)
#define AMPI_CVT_double_unorm(x, N) dvec##N(x)
#define AMPI_CVT_norm_int(x, N) amp_norm_clamp(vec##N(x))
#define AMPI_CVT_norm_uint(x, N) amp_norm_clamp(vec##N(x))
#define AMPI_CVT_norm_float(x, N) amp_norm_clamp(x)
#define AMPI_CVT_norm_double(x, N) amp_norm_clamp(vec##N(clamp(mix(x, dvec##N(0.0lf), isnan(x)), dvec##N(-1.0lf), dvec##N(1.0lf))))
#define AMPI_CVT_norm_norm(x, N) (x)
#define AMPI_CVT_norm_unorm(x, N) (x)
#define AMPI_CVT_unorm_int(x, N) amp_unorm_clamp(vec##N(x))
#define AMPI_CVT_unorm_uint(x, N) amp_unorm_clamp(vec##N(x))
#define AMPI_CVT_unorm_float(x, N) amp_unorm_clamp(x)
#define AMPI_CVT_unorm_double(x, N) amp_unorm_clamp(vec##N(clamp(mix(x, dvec##N(0.0lf), isnan(x)), dvec##N(0.0lf), dvec##N(1.0lf))))
#define AMPI_CVT_unorm_norm(x, N) amp_unorm_clamp(x)
#define AMPI_CVT_unorm_unorm(x, N) (x)
#define AMPI_DEF_CONVERT(D, S, N) \
    D##_##N D##_##N##_from_##S##_##N(S##_##N a) { return D##_##N(AMPI_CVT_##D##_##S(AMPI_RAW_##S(a), N)); } \
    D##_##N amp_to_##D(S##_##N a) { return D##_##N##_from_##S##_##N(a); }
#define AMPI_DEF_CONVERTS(D, S) AMPI_DEF_CONVERT(D, S, 2) AMPI_DEF_CONVERT(D, S, 3) AMPI_DEF_CONVERT(D, S, 4)
#define AMPI_DEF_CONVERTS_TO(D) \
    AMPI_DEF_CONVERTS(D, int) AMPI_DEF_CONVERTS(D, uint) AMPI_DEF_CONVERTS(D, float) \
    AMPI_DEF_CONVERTS(D, norm) AMPI_DEF_CONVERTS(D, unorm)
AMPI_DEF_CONVERTS_TO(int)
AMPI_DEF_CONVERTS_TO(uint)
AMPI_DEF_CONVERTS_TO(float)
AMPI_DEF_CONVERTS_TO(norm)
AMPI_DEF_CONVERTS_TO(unorm)
#ifdef AMP_HAS_DOUBLE
AMPI_DEF_CONVERTS_TO(double)
AMPI_DEF_CONVERTS(int, double)
AMPI_DEF_CONVERTS(uint, double)
AMPI_DEF_CONVERTS(float, double)
AMPI_DEF_CONVERTS(double, double)
AMPI_DEF_CONVERTS(norm, double)
AMPI_DEF_CONVERTS(unorm, double)
#endif

// ---- 8/16-bit codes and halves (same integer algorithms as vecmath_pack.h) -------------
// round(x * scale), ties up, exact, for x in [0,1] (the sign bit is ignored).
uint ampi_scale_round(float x, uint scale) {
    uint bits = floatBitsToUint(x) & 0x7fffffffu;
    uint e = bits >> 23;
    if (e == 0u) return 0u;
    uint s = 150u - e;
    if (s > 41u) return 0u;
    uint hi, lo;
    umulExtended((bits & 0x7fffffu) | 0x800000u, scale, hi, lo);
    uint k = s - 1u; // 22..40
    uint q = k < 32u ? ((lo >> k) | (hi << (32u - k))) : (hi >> (k - 32u));
    return (q + 1u) >> 1;
}
// c / d correctly rounded, for 0 <= c <= d < 2^16 (GLSL's / is not correctly rounded).
float ampi_ratio(uint c, uint d) {
    if (c == 0u) return 0.0;
    if (c >= d) return 1.0;
    uint r = c, q = 0u, e = 0u;
    while (r < d) { r <<= 1; e++; }
    for (int i = 0; i < 24; ++i) { q <<= 1; if (r >= d) { q |= 1u; r -= d; } r <<= 1; }
    if (r >= d) q++;
    return uintBitsToFloat(((127u - e) << 23) + (q - 0x800000u));
}
uint amp_unorm8_encode(float x) { return ampi_scale_round(amp_unorm_clamp(x), 255u); }
uint amp_unorm16_encode(float x) { return ampi_scale_round(amp_unorm_clamp(x), 65535u); }
int ampi_snorm_encode(float x, uint scale) {
    float c = amp_norm_clamp(x);
    int m = int(ampi_scale_round(c, scale));
    return c < 0.0 ? -m : m;
}
int amp_snorm8_encode(float x) { return ampi_snorm_encode(x, 127u); }
int amp_snorm16_encode(float x) { return ampi_snorm_encode(x, 32767u); }
float amp_unorm8_decode(uint c) { return ampi_ratio(c & 0xffu, 255u); }
float amp_unorm16_decode(uint c) { return ampi_ratio(c & 0xffffu, 65535u); }
float ampi_snorm_decode(int c, uint d) {
    return c < 0 ? -ampi_ratio(uint(-c), d) : ampi_ratio(uint(c), d);
}
// A code is its low 8/16 bits (two's complement for snorm), as the host's uint8_t/int8_t/
// uint16_t/int16_t parameters take it: unorm masks, snorm sign-extends.
float amp_snorm8_decode(int c) { return ampi_snorm_decode(bitfieldExtract(c, 0, 8), 127u); }
float amp_snorm16_decode(int c) { return ampi_snorm_decode(bitfieldExtract(c, 0, 16), 32767u); }
uint amp_half_from_float(float f) {
    uint u = floatBitsToUint(f);
    uint sign = (u >> 16) & 0x8000u;
    uint a = u & 0x7fffffffu;
    if (a > 0x7f800000u) {
        uint p = (a >> 13) & 0x3ffu;
        return sign | 0x7c00u | (p != 0u ? p : 0x200u);
    }
    if (a >= 0x477ff000u) return sign | 0x7c00u;
    if (a >= 0x38800000u) {
        uint r = a - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1u);
        return sign | (r >> 13);
    }
    uint shift = 126u - (a >> 23);
    if (shift > 24u) return sign;
    uint m = (a & 0x7fffffu) | 0x800000u;
    uint q = m >> shift, rem = m & ((1u << shift) - 1u), half_ = 1u << (shift - 1u);
    if (rem > half_ || (rem == half_ && (q & 1u) != 0u)) q++;
    return sign | q;
}
float amp_float_from_half(uint h) {
    uint sign = (h & 0x8000u) << 16;
    uint e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 31u) return uintBitsToFloat(sign | 0x7f800000u | (m << 13));
    if (e != 0u) return uintBitsToFloat(sign | ((e + 112u) << 23) | (m << 13));
    // subnormal or zero: m * 2^-24, built from bits (exact; no float multiply to flush)
    if (m == 0u) return uintBitsToFloat(sign);
    int msb = findMSB(m); // 0..9
    uint mant = (m << (23 - msb)) & 0x7fffffu;
    return uintBitsToFloat(sign | (uint(msb + 103) << 23) | mant);
}

#endif // AMPVK_VEC_GLSL
