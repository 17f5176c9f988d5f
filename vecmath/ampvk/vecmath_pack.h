/* ampvk/vecmath_pack.h: 8/16-bit normalized codes and binary16 (half) floats.
 *
 * Part of <ampvk/vecmath.h>; include that header, not this one. These are the texel
 * encodings of textures with bits_per_scalar_element 8 or 16, following Vulkan's rules.
 *
 * amp_unorm8_decode(c) = c / 255, amp_unorm16_decode(c) = c / 65535
 * amp_snorm8_decode(c) = max(c / 127, -1), amp_snorm16_decode(c) = max(c / 32767, -1)
 *     (so snorm -128 and -127 both give -1.0); each result is the correctly rounded float.
 * amp_unorm8_encode(x) ...: clamp as a unorm/norm (NaN -> 0, +inf -> max code), then
 *     round x * max_code to the nearest integer, ties away from zero (0.5 -> 128 in
 *     unorm8). Computed exactly in integers, so it is exact for every float; the kernel
 *     side uses the same algorithm and gives the same codes.
 * amp_half_from_float(f): binary16 bits of f, round to nearest even; overflow -> inf;
 *     results below the smallest subnormal round to +-0; NaN stays NaN with the top 10
 *     payload bits kept (quiet bit set only if they are all zero), so every half
 *     round-trips through float. amp_float_from_half(h): exact.
 * All functions are pure and thread-safe.
 */
#ifndef AMPVK_VECMATH_PACK_H
#define AMPVK_VECMATH_PACK_H

#include <string.h>
#include "vecmath_ops.h"

static inline uint32_t amp__float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float amp__bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* round(x * scale), ties up, for x in [0, 1] and scale < 2^16, in exact integers:
 * x = m * 2^-s, so the result is floor((floor(m * scale / 2^(s-1)) + 1) / 2). */
static inline uint32_t amp__scale_round(float x, uint32_t scale) {
    uint32_t bits = amp__float_bits(x) & 0x7fffffffu;
    uint32_t e = bits >> 23;
    if (e == 0) return 0; /* zero or subnormal: far below half a code */
    uint32_t s = 150u - e; /* x <= 1, so s >= 23 */
    if (s > 41) return 0;  /* m * scale < 2^40: rounds to 0 */
    uint64_t p = (uint64_t)((bits & 0x7fffffu) | 0x800000u) * scale;
    return (uint32_t)(((p >> (s - 1)) + 1) >> 1);
}

static inline uint8_t amp_unorm8_encode(float x) {
    return (uint8_t)amp__scale_round(amp_unorm_clamp(x), 255u);
}
static inline uint16_t amp_unorm16_encode(float x) {
    return (uint16_t)amp__scale_round(amp_unorm_clamp(x), 65535u);
}
static inline int amp__snorm_encode(float x, uint32_t scale) {
    float c = amp_norm_clamp(x);
    int m = (int)amp__scale_round(c, scale); /* sign ignored: magnitude */
    return c < 0.0f ? -m : m;
}
static inline int8_t amp_snorm8_encode(float x) { return (int8_t)amp__snorm_encode(x, 127u); }
static inline int16_t amp_snorm16_encode(float x) { return (int16_t)amp__snorm_encode(x, 32767u); }

static inline float amp_unorm8_decode(uint8_t c) { return (float)c / 255.0f; }
static inline float amp_unorm16_decode(uint16_t c) { return (float)c / 65535.0f; }
static inline float amp_snorm8_decode(int8_t c) { return c <= -127 ? -1.0f : (float)c / 127.0f; }
static inline float amp_snorm16_decode(int16_t c) {
    return c <= -32767 ? -1.0f : (float)c / 32767.0f;
}

static inline uint16_t amp_half_from_float(float f) {
    uint32_t u = amp__float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) { /* NaN */
        uint32_t p = (a >> 13) & 0x3ffu;
        return (uint16_t)(sign | 0x7c00u | (p ? p : 0x200u));
    }
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520: inf */
    if (a >= 0x38800000u) { /* normal half: rebias, round 13 bits to nearest even */
        uint32_t r = a - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    uint32_t shift = 126u - (a >> 23); /* subnormal half: m * 2^(e - 126) */
    if (shift > 24) return (uint16_t)sign;
    uint32_t m = (a & 0x7fffffu) | 0x800000u;
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return (uint16_t)(sign | q);
}

static inline float amp_float_from_half(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 31) return amp__bits_float(sign | 0x7f800000u | (m << 13));
    if (e != 0) return amp__bits_float(sign | ((e + 112u) << 23) | (m << 13));
    /* subnormal or zero: m * 2^-24, exact in float */
    return amp__bits_float(amp__float_bits((float)m * 0x1p-24f) | sign);
}

#endif /* AMPVK_VECMATH_PACK_H */
