/* ampvk/vecmath_swizzle.h: swizzle readers and writers.
 *
 * Part of <ampvk/vecmath.h>; include that header, not this one. Define
 * AMP_VECMATH_NO_SWIZZLE before including <ampvk/vecmath.h> to leave these ~1800 small
 * functions out when a translation unit does not need them (faster to compile).
 *
 * For every vector type T of N components and every ordered choice of 2..N distinct
 * components, spelled either with xyzw or with rgba (never mixed):
 *   T_zyx(a)            -> F_3 {a.z, a.y, a.x}     (read; also T_bgr)
 *   T_set_zyx(&a, s)    a.z = s.x, a.y = s.y, a.x = s.z   (write; also T_set_bgr)
 * e.g. float_4_wzyx, float_4_bgra, int_3_set_yx(&v, int_2_make(1, 2)), norm_2_gr.
 * Writers of norm/unorm store lanes that are already clamped.
 */
#ifndef AMPVK_VECMATH_SWIZZLE_H
#define AMPVK_VECMATH_SWIZZLE_H

#include "vecmath_ops.h"

/* The permutation tables: X(F, N, length, xyzw-name, rgba-name, component indices...).
 * SWZ_Lk_Nn lists the length-k swizzles that use component n-1; a vector of size N
 * takes the lists with n <= N. */
#define AMP__SWZ_L2_N2(X, F, N) \
    X(F,N,2,xy,rg,0,1) X(F,N,2,yx,gr,1,0)

#define AMP__SWZ_L2_N3(X, F, N) \
    X(F,N,2,xz,rb,0,2) X(F,N,2,yz,gb,1,2) X(F,N,2,zx,br,2,0) X(F,N,2,zy,bg,2,1)

#define AMP__SWZ_L2_N4(X, F, N) \
    X(F,N,2,xw,ra,0,3) X(F,N,2,yw,ga,1,3) X(F,N,2,zw,ba,2,3) X(F,N,2,wx,ar,3,0) \
    X(F,N,2,wy,ag,3,1) X(F,N,2,wz,ab,3,2)

#define AMP__SWZ_L3_N3(X, F, N) \
    X(F,N,3,xyz,rgb,0,1,2) X(F,N,3,xzy,rbg,0,2,1) X(F,N,3,yxz,grb,1,0,2) X(F,N,3,yzx,gbr,1,2,0) \
    X(F,N,3,zxy,brg,2,0,1) X(F,N,3,zyx,bgr,2,1,0)

#define AMP__SWZ_L3_N4(X, F, N) \
    X(F,N,3,xyw,rga,0,1,3) X(F,N,3,xzw,rba,0,2,3) X(F,N,3,xwy,rag,0,3,1) X(F,N,3,xwz,rab,0,3,2) \
    X(F,N,3,yxw,gra,1,0,3) X(F,N,3,yzw,gba,1,2,3) X(F,N,3,ywx,gar,1,3,0) X(F,N,3,ywz,gab,1,3,2) \
    X(F,N,3,zxw,bra,2,0,3) X(F,N,3,zyw,bga,2,1,3) X(F,N,3,zwx,bar,2,3,0) X(F,N,3,zwy,bag,2,3,1) \
    X(F,N,3,wxy,arg,3,0,1) X(F,N,3,wxz,arb,3,0,2) X(F,N,3,wyx,agr,3,1,0) X(F,N,3,wyz,agb,3,1,2) \
    X(F,N,3,wzx,abr,3,2,0) X(F,N,3,wzy,abg,3,2,1)

#define AMP__SWZ_L4_N4(X, F, N) \
    X(F,N,4,xyzw,rgba,0,1,2,3) X(F,N,4,xywz,rgab,0,1,3,2) X(F,N,4,xzyw,rbga,0,2,1,3) X(F,N,4,xzwy,rbag,0,2,3,1) \
    X(F,N,4,xwyz,ragb,0,3,1,2) X(F,N,4,xwzy,rabg,0,3,2,1) X(F,N,4,yxzw,grba,1,0,2,3) X(F,N,4,yxwz,grab,1,0,3,2) \
    X(F,N,4,yzxw,gbra,1,2,0,3) X(F,N,4,yzwx,gbar,1,2,3,0) X(F,N,4,ywxz,garb,1,3,0,2) X(F,N,4,ywzx,gabr,1,3,2,0) \
    X(F,N,4,zxyw,brga,2,0,1,3) X(F,N,4,zxwy,brag,2,0,3,1) X(F,N,4,zyxw,bgra,2,1,0,3) X(F,N,4,zywx,bgar,2,1,3,0) \
    X(F,N,4,zwxy,barg,2,3,0,1) X(F,N,4,zwyx,bagr,2,3,1,0) X(F,N,4,wxyz,argb,3,0,1,2) X(F,N,4,wxzy,arbg,3,0,2,1) \
    X(F,N,4,wyxz,agrb,3,1,0,2) X(F,N,4,wyzx,agbr,3,1,2,0) X(F,N,4,wzxy,abrg,3,2,0,1) X(F,N,4,wzyx,abgr,3,2,1,0)

#define AMP__SWIZZLES_2(X, F) AMP__SWZ_L2_N2(X, F, 2)
#define AMP__SWIZZLES_3(X, F)                                                             \
    AMP__SWZ_L2_N2(X, F, 3) AMP__SWZ_L2_N3(X, F, 3) AMP__SWZ_L3_N3(X, F, 3)
#define AMP__SWIZZLES_4(X, F)                                                             \
    AMP__SWZ_L2_N2(X, F, 4) AMP__SWZ_L2_N3(X, F, 4) AMP__SWZ_L2_N4(X, F, 4)               \
    AMP__SWZ_L3_N3(X, F, 4) AMP__SWZ_L3_N4(X, F, 4) AMP__SWZ_L4_N4(X, F, 4)

/* The generator: one reader and one writer per spelling, straight-line code. */
#define AMP__SWZ_READ_2(a, i, j) a.v[i], a.v[j]
#define AMP__SWZ_READ_3(a, i, j, k) a.v[i], a.v[j], a.v[k]
#define AMP__SWZ_READ_4(a, i, j, k, l) a.v[i], a.v[j], a.v[k], a.v[l]
#define AMP__SWZ_WRITE_2(a, s, i, j) a->v[i] = s.v[0], a->v[j] = s.v[1]
#define AMP__SWZ_WRITE_3(a, s, i, j, k) AMP__SWZ_WRITE_2(a, s, i, j), a->v[k] = s.v[2]
#define AMP__SWZ_WRITE_4(a, s, i, j, k, l) AMP__SWZ_WRITE_3(a, s, i, j, k), a->v[l] = s.v[3]
#define AMP__DEF_SWIZZLE(F, N, L, XYZW, RGBA, ...)                                        \
    static inline F##_##L F##_##N##_##XYZW(F##_##N a) {                                   \
        F##_##L r = {.v = {AMP__SWZ_READ_##L(a, __VA_ARGS__)}};                           \
        return r;                                                                         \
    }                                                                                     \
    static inline void F##_##N##_set_##XYZW(F##_##N *a, F##_##L s) {                      \
        AMP__SWZ_WRITE_##L(a, s, __VA_ARGS__);                                            \
    }                                                                                     \
    static inline F##_##L F##_##N##_##RGBA(F##_##N a) { return F##_##N##_##XYZW(a); }     \
    static inline void F##_##N##_set_##RGBA(F##_##N *a, F##_##L s) {                      \
        F##_##N##_set_##XYZW(a, s);                                                       \
    }
#define AMP__DEF_SWIZZLES(F, N, _) AMP__SWIZZLES_##N(AMP__DEF_SWIZZLE, F)
AMP__VECTORS(AMP__DEF_SWIZZLES, _)

#endif /* AMPVK_VECMATH_SWIZZLE_H */
