/* Textures: every format of every rank round-trips bit-exactly through the host,
 * clones and texture-to-texture copies; section copies of regions and mip
 * levels; each copy error of C++ AMP (reference section 4) with checks that a
 * failed copy changed nothing. */
#include "test.h"

/* Pseudo-random host texels of a format that survive any copy: raw bytes, with
 * float NaN/inf patterns replaced (copies are raw, but keep the data ordinary). */
static void fill_random(unsigned char *p, size_t bytes, amp_type type, int bits)
{
    for (size_t i = 0; i < bytes; i++) p[i] = (unsigned char)test_rand();
    if (amp_type_scalar(type) != AMP_SCALAR_FLOAT) return;
    if (bits == 16) {
        for (size_t i = 0; i + 1 < bytes; i += 2)
            if ((p[i + 1] & 0x7C) == 0x7C) p[i + 1] &= 0xBB; /* exponent all ones -> finite */
    } else {
        for (size_t i = 0; i + 3 < bytes; i += 4)
            if ((p[i + 3] & 0x7F) == 0x7F && (p[i + 2] & 0x80)) p[i + 3] &= 0xBF;
    }
}

static int first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return (int)i;
    return -1;
}

#define REQUIRE_BYTES(got, want, n, what)                                                              \
    do {                                                                                               \
        int d_ = first_diff((const unsigned char *)(got), (const unsigned char *)(want), (n));         \
        test_checks++;                                                                                 \
        if (d_ >= 0) {                                                                                 \
            fprintf(stderr, "%s:%d: %s: byte %d of %zu is 0x%02x, expected 0x%02x\n", __FILE__, __LINE__, \
                    (what), d_, (size_t)(n), ((const unsigned char *)(got))[d_],                       \
                    ((const unsigned char *)(want))[d_]);                                              \
            test_failures++;                                                                           \
        }                                                                                              \
    } while (0)

static const amp_scalar scalars[] = {AMP_SCALAR_INT, AMP_SCALAR_UINT, AMP_SCALAR_FLOAT, AMP_SCALAR_NORM,
                                     AMP_SCALAR_UNORM, AMP_SCALAR_DOUBLE};

static int valid_bits(amp_scalar s, int out[3])
{
    switch (s) {
    case AMP_SCALAR_INT: case AMP_SCALAR_UINT: out[0] = 8, out[1] = 16, out[2] = 32; return 3;
    case AMP_SCALAR_FLOAT: out[0] = 16, out[1] = 32; return 2;
    case AMP_SCALAR_NORM: case AMP_SCALAR_UNORM: out[0] = 8, out[1] = 16; return 2;
    default: out[0] = 64; return 1;
    }
}

static amp_extent odd_extent(int rank)
{
    return rank == 1 ? amp_extent1(7) : rank == 2 ? amp_extent2(5, 9) : amp_extent3(3, 4, 5);
}

/* Round trip of one format and rank: create with data, download; clone;
 * whole-texture copy; re-upload through copy_from_host. */
static void round_trip(amp_accelerator_view *v, amp_type type, int bits, int rank)
{
    char what[96];
    snprintf(what, sizeof what, "%s/%d rank %d", amp_type_name(type), bits, rank);
    amp_extent e = odd_extent(rank);
    int comps = amp_type_components(type);
    size_t texel = (size_t)comps * (size_t)bits / 8, n = amp_extent_size(e), bytes = n * texel;
    unsigned char *src = malloc(bytes), *got = malloc(bytes + 16), *src2 = malloc(bytes);
    fill_random(src, bytes, type, bits);
    fill_random(src2, bytes, type, bits);
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = e, .type = type, .bits_per_scalar_element = bits,
                                                                .data = src, .data_size = bytes});
    if (!t) {
        fprintf(stderr, "%s: create failed: %s\n", what, amp_last_error());
        test_failures++;
        goto out;
    }
    REQUIRE_INT(amp_texture_texel_size(t), texel);
    REQUIRE_INT(amp_texture_data_length(t), bytes);
    REQUIRE_INT(amp_texture_bits_per_scalar_element(t), bits);
    REQUIRE(amp_texture_type(t) == type);
    /* 3 components: emulated on 4 channels (the host still sees packed texels) */
    if (comps == 3) {
        REQUIRE(amp_texture_is_emulated(t));
        REQUIRE(strstr(amp_texture_format_name(t), "A") != NULL); /* R..G..B..A.. */
    } else {
        REQUIRE(!amp_texture_is_emulated(t));
    }
    memset(got, 0xCD, bytes + 16);
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, got, bytes + 16)); /* a larger buffer is fine */
    REQUIRE_BYTES(got, src, bytes, what);
    /* nothing beyond the region's bytes is written */
    static const unsigned char cd[16] = {0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD,
                                         0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD};
    REQUIRE_BYTES(got + bytes, cd, 16, what);

    amp_texture *c = amp_texture_clone(t, NULL);
    REQUIRE(c);
    if (c) {
        memset(got, 0, bytes);
        REQUIRE_OK(amp_texture_copy_to_host(c, NULL, got, bytes));
        REQUIRE_BYTES(got, src, bytes, "clone");
        /* overwrite the clone; the original keeps its data */
        REQUIRE_OK(amp_texture_copy_from_host(c, NULL, src2, bytes));
        REQUIRE_OK(amp_texture_copy_to_host(c, NULL, got, bytes));
        REQUIRE_BYTES(got, src2, bytes, "copy_from_host");
        /* texture to texture (whole): the original gets the clone's new data */
        REQUIRE_OK(amp_texture_copy(c, NULL, t, NULL));
        REQUIRE_OK(amp_texture_copy_to_host(t, NULL, got, bytes));
        REQUIRE_BYTES(got, src2, bytes, "amp_texture_copy");
        amp_texture_destroy(&c);
    }
out:
    amp_texture_destroy(&t);
    free(src);
    free(got);
    free(src2);
}

/* Every level of a full chain round-trips, also through a clone and a whole copy. */
static void mip_round_trip(amp_accelerator_view *v, amp_type type, int bits, amp_extent e)
{
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = e, .type = type, .bits_per_scalar_element = bits,
                                                                .mip_levels = AMP_MIP_FULL});
    REQUIRE(t);
    if (!t) return;
    int levels = amp_texture_mip_levels(t);
    size_t texel = amp_texture_texel_size(t), total = amp_texture_data_length(t);
    unsigned char *src = malloc(total), *got = malloc(total);
    fill_random(src, total, type, bits);
    size_t at = 0;
    for (int m = 0; m < levels; m++) {
        size_t b = amp_extent_size(amp_texture_mip_extent(t, m)) * texel;
        REQUIRE_OK(amp_texture_copy_from_host(t, &(amp_texture_region){.mip_level = m}, src + at, b));
        at += b;
    }
    REQUIRE_INT(at, total);
    amp_texture *c = amp_texture_clone(t, NULL);
    amp_texture *d = amp_texture_create(v, &(amp_texture_desc){.extent = e, .type = type, .bits_per_scalar_element = bits,
                                                                .mip_levels = AMP_MIP_FULL});
    REQUIRE(c && d);
    REQUIRE_OK(amp_texture_copy(t, NULL, d, NULL));
    amp_texture *all[3] = {t, c, d};
    for (int i = 0; i < 3; i++) {
        if (!all[i]) continue;
        REQUIRE_INT(amp_texture_mip_levels(all[i]), levels);
        memset(got, 0, total);
        at = 0;
        for (int m = 0; m < levels; m++) {
            size_t b = amp_extent_size(amp_texture_mip_extent(t, m)) * texel;
            REQUIRE_OK(amp_texture_copy_to_host(all[i], &(amp_texture_region){.mip_level = m}, got + at, b));
            at += b;
        }
        char what[64];
        snprintf(what, sizeof what, "%s mips (texture %d)", amp_type_name(type), i);
        REQUIRE_BYTES(got, src, total, what);
    }
    amp_texture_destroy(&t);
    amp_texture_destroy(&c);
    amp_texture_destroy(&d);
    free(src);
    free(got);
}

static void all_formats(amp_accelerator_view *v)
{
    int formats = 0;
    for (size_t s = 0; s < sizeof scalars / sizeof *scalars; s++) {
        int bits[3], nb = valid_bits(scalars[s], bits);
        int maxc = scalars[s] == AMP_SCALAR_DOUBLE ? 2 : 4;
        for (int c = 1; c <= maxc; c++)
            for (int b = 0; b < nb; b++) {
                amp_type type = (amp_type)AMP_MAKE_TYPE(scalars[s], c);
                for (int rank = 1; rank <= 3; rank++) round_trip(v, type, bits[b], rank);
                formats++;
            }
    }
    REQUIRE_INT(formats, 12 + 12 + 8 + 8 + 8 + 2);
    mip_round_trip(v, AMP_FLOAT_3, 16, amp_extent2(6, 11));
    mip_round_trip(v, AMP_UINT_4, 8, amp_extent3(5, 3, 4));
    mip_round_trip(v, AMP_DOUBLE, 64, amp_extent1(9));
    mip_round_trip(v, AMP_NORM_2, 16, amp_extent2(16, 16));
}

/* A pattern byte for (level, linear position, byte in texel). */
static unsigned char pat(int level, size_t pos, size_t b) { return (unsigned char)(level * 97 + pos * 7 + b * 31 + 1); }

/* Fills every level of t with pat, returns the contents on the host (levels in order). */
static unsigned char *fill_levels(amp_texture *t, int tag)
{
    size_t texel = amp_texture_texel_size(t), total = amp_texture_data_length(t), at = 0;
    unsigned char *h = malloc(total);
    for (int m = 0; m < amp_texture_mip_levels(t); m++) {
        size_t n = amp_extent_size(amp_texture_mip_extent(t, m));
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < texel; b++) h[at + i * texel + b] = pat(m + tag, i, b);
        REQUIRE_OK(amp_texture_copy_from_host(t, &(amp_texture_region){.mip_level = m}, h + at, n * texel));
        at += n * texel;
    }
    return h;
}

/* Compares every level of t with the host image h. */
static void check_levels(amp_texture *t, const unsigned char *h, const char *what)
{
    size_t total = amp_texture_data_length(t), at = 0, texel = amp_texture_texel_size(t);
    unsigned char *got = malloc(total);
    memset(got, 0xEE, total);
    for (int m = 0; m < amp_texture_mip_levels(t); m++) {
        size_t b = amp_extent_size(amp_texture_mip_extent(t, m)) * texel;
        REQUIRE_OK(amp_texture_copy_to_host(t, &(amp_texture_region){.mip_level = m}, got + at, b));
        at += b;
    }
    REQUIRE_BYTES(got, h, total, what);
    free(got);
}

/* Byte offset of level m in the host image of every level. */
static size_t level_at(amp_texture *t, int m)
{
    size_t at = 0;
    for (int k = 0; k < m; k++) at += amp_extent_size(amp_texture_mip_extent(t, k)) * amp_texture_texel_size(t);
    return at;
}

/* Writes a host block (rows x cols, rank 2) into the host image of level m at (r0, c0). */
static void host_put2(amp_texture *t, unsigned char *h, int m, int r0, int c0, int rows, int cols, const unsigned char *blk)
{
    amp_extent le = amp_texture_mip_extent(t, m);
    size_t texel = amp_texture_texel_size(t), at = level_at(t, m);
    for (int r = 0; r < rows; r++)
        memcpy(h + at + ((size_t)(r0 + r) * le.dims[1] + c0) * texel, blk + (size_t)r * cols * texel, cols * texel);
}

static void host_get2(amp_texture *t, const unsigned char *h, int m, int r0, int c0, int rows, int cols, unsigned char *blk)
{
    amp_extent le = amp_texture_mip_extent(t, m);
    size_t texel = amp_texture_texel_size(t), at = level_at(t, m);
    for (int r = 0; r < rows; r++)
        memcpy(blk + (size_t)r * cols * texel, h + at + ((size_t)(r0 + r) * le.dims[1] + c0) * texel, cols * texel);
}

static void section_copies(amp_accelerator_view *v)
{
    /* a 12x10 uint_3/16 texture (emulated) with full mips: level 1 is 6x5 */
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(12, 10), .type = AMP_UINT_3,
                                                                .bits_per_scalar_element = 16, .mip_levels = AMP_MIP_FULL});
    REQUIRE(t);
    unsigned char *h = fill_levels(t, 0);
    check_levels(t, h, "filled levels");
    unsigned char blk[4 * 3 * 6], got[4 * 3 * 6 + 8];
    for (size_t i = 0; i < sizeof blk; i++) blk[i] = (unsigned char)(200 + i);
    /* host -> region (offset (1, 2), extent (4, 3)) of level 1 */
    amp_texture_region r1 = {.offset = amp_index2(1, 2), .extent = amp_extent2(4, 3), .mip_level = 1};
    REQUIRE_OK(amp_texture_copy_from_host(t, &r1, blk, sizeof blk));
    host_put2(t, h, 1, 1, 2, 4, 3, blk);
    check_levels(t, h, "host -> region of level 1");
    /* region -> host */
    memset(got, 0, sizeof got);
    REQUIRE_OK(amp_texture_copy_to_host(t, &r1, got, sizeof got));
    REQUIRE_BYTES(got, blk, sizeof blk, "region of level 1 -> host");
    /* a region of level 0 -> host equals the host image's block */
    amp_texture_region r0 = {.offset = amp_index2(7, 3), .extent = amp_extent2(4, 3), .mip_level = 0};
    unsigned char want[sizeof blk];
    host_get2(t, h, 0, 7, 3, 4, 3, want);
    REQUIRE_OK(amp_texture_copy_to_host(t, &r0, got, sizeof blk));
    REQUIRE_BYTES(got, want, sizeof blk, "region of level 0 -> host");
    /* extent rank 0: from the offset to the end of the level (level 2 is 3x2: from (1, 1) 2x1) */
    unsigned char tail[2 * 1 * 6];
    REQUIRE_OK(amp_texture_copy_to_host(t, &(amp_texture_region){.offset = amp_index2(1, 1), .mip_level = 2}, tail,
                                        sizeof tail));
    unsigned char tail_want[sizeof tail];
    host_get2(t, h, 2, 1, 1, 2, 1, tail_want);
    REQUIRE_BYTES(tail, tail_want, sizeof tail, "rest of level 2 from (1, 1)");
    /* async forms */
    amp_future *f = amp_texture_copy_from_host_async(t, &r0, blk, sizeof blk);
    REQUIRE(f);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    host_put2(t, h, 0, 7, 3, 4, 3, blk);
    memset(got, 0, sizeof got);
    f = amp_texture_copy_to_host_async(t, &r0, got, sizeof blk);
    REQUIRE(f);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_BYTES(got, blk, sizeof blk, "async region -> host");
    check_levels(t, h, "after async copies");

    /* ---- failed copies change nothing ---- */
    unsigned char sentinel[sizeof got];
    memset(got, 0x5A, sizeof got);
    memcpy(sentinel, got, sizeof got);
    /* host buffer too small: destination region untouched, host buffer untouched */
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &r1, blk, sizeof blk - 1), AMP_ERROR_INVALID_ARGUMENT,
                 "the host buffer holds 71 bytes but the region needs 72");
    REQUIRE_FAIL(amp_texture_copy_to_host(t, &r1, got, sizeof blk - 6), AMP_ERROR_INVALID_ARGUMENT,
                 "the host buffer holds 66 bytes but the region needs 72");
    REQUIRE_BYTES(got, sentinel, sizeof got, "host buffer after a failed download");
    REQUIRE_NULL_FAIL(amp_texture_copy_to_host_async(t, &r1, got, 10), AMP_ERROR_INVALID_ARGUMENT,
                      "amp_texture_copy_to_host_async: the host buffer holds 10 bytes");
    REQUIRE_NULL_FAIL(amp_texture_copy_from_host_async(t, NULL, blk, sizeof blk), AMP_ERROR_INVALID_ARGUMENT,
                      "the host buffer holds 72 bytes but the region needs 720");
    /* out of bounds: level 1 is (6, 5) */
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &(amp_texture_region){.offset = amp_index2(3, 2), .extent = amp_extent2(4, 3),
                                                                     .mip_level = 1}, blk, sizeof blk),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (3, 2) of extent (4, 3) does not fit in mip level 1 of extent (6, 5)");
    REQUIRE_FAIL(amp_texture_copy_to_host(t, &(amp_texture_region){.offset = amp_index2(0, 3), .extent = amp_extent2(4, 3),
                                                                   .mip_level = 1}, got, sizeof got),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (0, 3) of extent (4, 3) does not fit in mip level 1 of extent (6, 5)");
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &(amp_texture_region){.offset = amp_index2(-1, 0), .extent = amp_extent2(1, 1)},
                                            blk, sizeof blk),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (-1, 0)");
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &(amp_texture_region){.offset = amp_index2(13, 0)}, blk, sizeof blk),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (13, 0)");
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &(amp_texture_region){.offset = amp_index1(0), .extent = amp_extent1(1)},
                                            blk, sizeof blk),
                 AMP_ERROR_INVALID_ARGUMENT, "offset has rank 1 but the texture has rank 2");
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &(amp_texture_region){.offset = amp_index2(0, 0), .extent = amp_extent3(1, 1, 1)},
                                            blk, sizeof blk),
                 AMP_ERROR_INVALID_ARGUMENT, "region extent has rank 3 but the texture has rank 2");
    /* mip level out of range */
    REQUIRE_FAIL(amp_texture_copy_from_host(t, &(amp_texture_region){.mip_level = 4}, blk, sizeof blk),
                 AMP_ERROR_OUT_OF_BOUNDS, "mip level 4 is outside 0..3");
    REQUIRE_FAIL(amp_texture_copy_to_host(t, &(amp_texture_region){.mip_level = -1}, got, sizeof got),
                 AMP_ERROR_OUT_OF_BOUNDS, "mip level -1 is outside 0..3");
    REQUIRE_BYTES(got, sentinel, sizeof got, "host buffer after failed downloads");
    check_levels(t, h, "after failed host copies");

    /* ---- texture -> texture regions ---- */
    amp_texture *u = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(12, 10), .type = AMP_UINT_3,
                                                                .bits_per_scalar_element = 16, .mip_levels = AMP_MIP_FULL});
    REQUIRE(u);
    unsigned char *hu = fill_levels(u, 5);
    /* t level 0 (2, 1) 3x4 -> u level 1 (3, 0) */
    amp_texture_region sr = {.offset = amp_index2(2, 1), .extent = amp_extent2(3, 4), .mip_level = 0};
    amp_texture_region dr = {.offset = amp_index2(3, 0), .extent = amp_extent2(99, 99) /* ignored */, .mip_level = 1};
    REQUIRE_OK(amp_texture_copy(t, &sr, u, &dr));
    unsigned char blk2[3 * 4 * 6];
    host_get2(t, h, 0, 2, 1, 3, 4, blk2);
    host_put2(u, hu, 1, 3, 0, 3, 4, blk2);
    check_levels(u, hu, "texture region -> other texture's level 1");
    check_levels(t, h, "source of a region copy");
    /* async, NULL destination region: offset zero at the source's level */
    f = amp_texture_copy_async(t, &(amp_texture_region){.offset = amp_index2(1, 0), .extent = amp_extent2(2, 2),
                                                         .mip_level = 2}, u, NULL);
    REQUIRE(f);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    unsigned char blk3[2 * 2 * 6];
    host_get2(t, h, 2, 1, 0, 2, 2, blk3);
    host_put2(u, hu, 2, 0, 0, 2, 2, blk3);
    check_levels(u, hu, "async region copy to a NULL destination region");
    /* within one texture: non-overlapping regions of level 0, and level 1 -> level 0 */
    REQUIRE_OK(amp_texture_copy(u, &(amp_texture_region){.offset = amp_index2(0, 0), .extent = amp_extent2(5, 4)}, u,
                                &(amp_texture_region){.offset = amp_index2(6, 5)}));
    unsigned char blk4[5 * 4 * 6];
    host_get2(u, hu, 0, 0, 0, 5, 4, blk4);
    host_put2(u, hu, 0, 6, 5, 5, 4, blk4);
    check_levels(u, hu, "copy within one texture");
    /* overlapping in index space but on different levels is fine */
    REQUIRE_OK(amp_texture_copy(u, &(amp_texture_region){.offset = amp_index2(0, 0), .extent = amp_extent2(6, 5), .mip_level = 1},
                                u, &(amp_texture_region){.offset = amp_index2(1, 1)}));
    unsigned char blk5[6 * 5 * 6];
    host_get2(u, hu, 1, 0, 0, 6, 5, blk5);
    host_put2(u, hu, 0, 1, 1, 6, 5, blk5);
    check_levels(u, hu, "level 1 -> level 0 of one texture");

    /* ---- texture copy errors, nothing changed ---- */
    REQUIRE_FAIL(amp_texture_copy(u, &(amp_texture_region){.offset = amp_index2(0, 0), .extent = amp_extent2(4, 4)}, u,
                                  &(amp_texture_region){.offset = amp_index2(3, 3)}),
                 AMP_ERROR_INVALID_ARGUMENT, "source and destination regions of one texture overlap (at (0, 0) and (3, 3), mip level 0)");
    REQUIRE_FAIL(amp_texture_copy(u, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(1, 1), .mip_level = 1},
                                  u, &(amp_texture_region){.offset = amp_index2(2, 2), .mip_level = 1}),
                 AMP_ERROR_INVALID_ARGUMENT, "overlap");
    REQUIRE_FAIL(amp_texture_copy(u, NULL, u, NULL), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    REQUIRE_FAIL(amp_texture_copy(t, &(amp_texture_region){.offset = amp_index2(0, 0), .extent = amp_extent2(7, 1)}, u,
                                  &(amp_texture_region){.offset = amp_index2(0, 0), .mip_level = 1}),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (0, 0) of extent (7, 1) does not fit in mip level 1 of extent (6, 5)");
    REQUIRE_FAIL(amp_texture_copy(t, &(amp_texture_region){.offset = amp_index2(10, 0), .extent = amp_extent2(3, 1)}, u, NULL),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (10, 0) of extent (3, 1) does not fit in mip level 0 of extent (12, 10)");
    REQUIRE_FAIL(amp_texture_copy(t, &(amp_texture_region){.mip_level = 5}, u, NULL), AMP_ERROR_OUT_OF_BOUNDS,
                 "mip level 5 is outside 0..3");
    REQUIRE_FAIL(amp_texture_copy(t, NULL, u, &(amp_texture_region){.mip_level = 4}), AMP_ERROR_OUT_OF_BOUNDS,
                 "mip level 4 is outside 0..3");
    amp_texture *other_ext = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(12, 11), .type = AMP_UINT_3,
                                                                        .bits_per_scalar_element = 16, .mip_levels = AMP_MIP_FULL});
    amp_texture *other_mips = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(12, 10), .type = AMP_UINT_3,
                                                                         .bits_per_scalar_element = 16, .mip_levels = 2});
    amp_texture *other_bits = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(12, 10), .type = AMP_UINT_3,
                                                                         .bits_per_scalar_element = 8, .mip_levels = AMP_MIP_FULL});
    amp_texture *other_type = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(12, 10), .type = AMP_INT_3,
                                                                         .bits_per_scalar_element = 16, .mip_levels = AMP_MIP_FULL});
    REQUIRE(other_ext && other_mips && other_bits && other_type);
    REQUIRE_FAIL(amp_texture_copy(t, NULL, other_ext, NULL), AMP_ERROR_INVALID_ARGUMENT,
                 "source extent (12, 10) differs from destination extent (12, 11)");
    REQUIRE_FAIL(amp_texture_copy(t, NULL, other_mips, NULL), AMP_ERROR_INVALID_ARGUMENT,
                 "source has 4 mip levels, destination 2");
    REQUIRE_FAIL(amp_texture_copy(t, NULL, other_bits, NULL), AMP_ERROR_INVALID_ARGUMENT,
                 "source is uint_3 of 16 bits, destination uint_3 of 8 bits");
    REQUIRE_FAIL(amp_texture_copy(t, &r0, other_type, &r0), AMP_ERROR_INVALID_ARGUMENT,
                 "source is uint_3 of 16 bits, destination int_3 of 16 bits");
    REQUIRE_NULL_FAIL(amp_texture_copy_async(t, NULL, other_ext, NULL), AMP_ERROR_INVALID_ARGUMENT, "differs");
    check_levels(t, h, "source after failed texture copies");
    check_levels(u, hu, "destination after failed texture copies");
    /* regions may copy between textures of different extents and mip counts */
    REQUIRE_OK(amp_texture_copy(other_mips, &(amp_texture_region){.mip_level = 1}, t, &(amp_texture_region){.mip_level = 1}));
    memset(h + level_at(t, 1), 0, 6 * 5 * 6); /* other_mips was never written: zeros */
    check_levels(t, h, "level 1 from a texture of other mip count");
    amp_texture_destroy(&other_ext);
    amp_texture_destroy(&other_mips);
    amp_texture_destroy(&other_bits);
    amp_texture_destroy(&other_type);

    /* empty regions: nothing to do, no error */
    REQUIRE_OK(amp_texture_copy_from_host(t, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(0, 3)},
                                          blk, 0));
    REQUIRE_OK(amp_texture_copy_to_host(t, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(3, 0)},
                                        got, 0));
    REQUIRE_OK(amp_texture_copy(u, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(0, 3)}, u,
                                &(amp_texture_region){.offset = amp_index2(2, 2)}));
    REQUIRE_OK(amp_texture_copy(u, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(0, 3)}, t,
                                &(amp_texture_region){.offset = amp_index2(2, 2)}));
    f = amp_texture_copy_to_host_async(t, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(3, 0)},
                                       got, 0);
    REQUIRE(f); /* an empty copy is not a failure */
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    f = amp_texture_copy_async(u, &(amp_texture_region){.offset = amp_index2(2, 2), .extent = amp_extent2(0, 3)}, t, NULL);
    REQUIRE(f);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    check_levels(u, hu, "after empty copies");
    check_levels(t, h, "after empty copies");

    free(h);
    free(hu);
    amp_texture_destroy(&t);
    amp_texture_destroy(&u);

    /* rank 1 and rank 3 regions */
    unsigned char d1[20], b1[5] = {1, 2, 3, 4, 5};
    for (int i = 0; i < 20; i++) d1[i] = (unsigned char)(100 + i);
    amp_texture *t1 = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent1(20), .type = AMP_UINT,
                                                                 .bits_per_scalar_element = 8, .data = d1, .data_size = 20});
    REQUIRE(t1);
    REQUIRE_OK(amp_texture_copy_from_host(t1, &(amp_texture_region){.offset = amp_index1(13), .extent = amp_extent1(5)}, b1, 5));
    memcpy(d1 + 13, b1, 5);
    unsigned char g1[20];
    REQUIRE_OK(amp_texture_copy_to_host(t1, NULL, g1, 20));
    REQUIRE_BYTES(g1, d1, 20, "rank 1 region");
    REQUIRE_OK(amp_texture_copy(t1, &(amp_texture_region){.offset = amp_index1(0), .extent = amp_extent1(6)}, t1,
                                &(amp_texture_region){.offset = amp_index1(6)}));
    memcpy(d1 + 6, d1, 6);
    REQUIRE_OK(amp_texture_copy_to_host(t1, NULL, g1, 20));
    REQUIRE_BYTES(g1, d1, 20, "rank 1 copy within");
    REQUIRE_FAIL(amp_texture_copy(t1, &(amp_texture_region){.offset = amp_index1(0), .extent = amp_extent1(6)}, t1,
                                  &(amp_texture_region){.offset = amp_index1(5)}),
                 AMP_ERROR_INVALID_ARGUMENT, "overlap");
    amp_texture_destroy(&t1);

    int e3[3] = {4, 5, 6};
    float d3[4 * 5 * 6], b3[2 * 2 * 3];
    for (int i = 0; i < 120; i++) d3[i] = (float)i * 0.5f;
    for (int i = 0; i < 12; i++) b3[i] = -1.0f - (float)i;
    amp_texture *t3 = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent3(4, 5, 6), .type = AMP_FLOAT,
                                                                 .data = d3, .data_size = sizeof d3});
    REQUIRE(t3);
    REQUIRE_OK(amp_texture_copy_from_host(t3, &(amp_texture_region){.offset = amp_index3(1, 2, 3), .extent = amp_extent3(2, 2, 3)},
                                          b3, sizeof b3));
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++) d3[((1 + z) * e3[1] + 2 + y) * e3[2] + 3 + x] = b3[(z * 2 + y) * 3 + x];
    float g3[120], r3[12];
    REQUIRE_OK(amp_texture_copy_to_host(t3, NULL, g3, sizeof g3));
    REQUIRE_BYTES(g3, d3, sizeof d3, "rank 3 region");
    REQUIRE_OK(amp_texture_copy_to_host(t3, &(amp_texture_region){.offset = amp_index3(1, 2, 3), .extent = amp_extent3(2, 2, 3)},
                                        r3, sizeof r3));
    REQUIRE_BYTES(r3, b3, sizeof b3, "rank 3 region -> host");
    REQUIRE_FAIL(amp_texture_copy_to_host(t3, &(amp_texture_region){.offset = amp_index3(3, 0, 0), .extent = amp_extent3(2, 1, 1)},
                                          r3, sizeof r3),
                 AMP_ERROR_OUT_OF_BOUNDS, "region at (3, 0, 0) of extent (2, 1, 1) does not fit in mip level 0 of extent (4, 5, 6)");
    amp_texture_destroy(&t3);
}

/* Copies between textures whose last uses were recorded on different views: the
 * copy is recorded on the destination's view, so the source's pending work on the
 * other view must be submitted first (it was not: wrong data and layout errors). */
static void cross_view(amp_accelerator_view *a)
{
    amp_accelerator_view *b = amp_view_create(amp_accelerator_default(), AMP_QUEUING_AUTOMATIC);
    REQUIRE(b);
    if (!b) return;
    float z[64] = {0}, got[64];
    amp_texture *s = amp_texture_create(a, &(amp_texture_desc){.extent = amp_extent2(8, 8), .type = AMP_FLOAT,
                                                                .data = z, .data_size = sizeof z});
    amp_texture *d = amp_texture_create(a, &(amp_texture_desc){.extent = amp_extent2(8, 8), .type = AMP_FLOAT});
    REQUIRE(s && d);
    REQUIRE_OK(amp_texture_copy_to_host(d, NULL, got, sizeof got)); /* d's last use: on a, done */
    amp_kernel *k = amp_kernel_create(b, &(amp_kernel_desc){.rank = 2, .params = "texture<float, 2> t, float add",
                                                            .body = "t_set(idx, float(idx.x * 8 + idx.y) + add);"});
    REQUIRE(k);
    for (int round = 0; round < 3; round++) {
        float add = (float)round * 100;
        /* s is written in b's open batch; then a copy recorded on a reads it */
        REQUIRE_OK(amp_parallel_for_each(b, amp_extent2(8, 8), k, AMP_ARGS(AMP_TEXTURE("t", s), AMP_FLOAT("add", add))));
        amp_texture *c = NULL;
        if (round == 0) REQUIRE_OK(amp_texture_copy(s, NULL, d, NULL));
        if (round == 1)
            REQUIRE_OK(amp_texture_copy(s, &(amp_texture_region){.offset = amp_index2(0, 0), .extent = amp_extent2(8, 8)}, d,
                                        &(amp_texture_region){.offset = amp_index2(0, 0)}));
        if (round == 2) REQUIRE((c = amp_texture_clone(s, a)) != NULL); /* the clone lives on a */
        memset(got, 0, sizeof got);
        REQUIRE_OK(amp_texture_copy_to_host(c ? c : d, NULL, got, sizeof got));
        int bad = 0;
        for (int i = 0; i < 64; i++) bad += got[i] != (float)i + add;
        REQUIRE_INT(bad, 0);
        amp_texture_destroy(&c);
    }
    amp_kernel_destroy(&k);
    amp_texture_destroy(&s);
    amp_texture_destroy(&d);
    REQUIRE_OK(amp_view_destroy(&b));
}

/* Bit patterns that a copy through floats would change survive amp_texture_copy:
 * NaN payloads (signaling and quiet, both signs), infinities and -0 in float 32 and
 * 16; snorm's -128 and -32768 (which read as -1 like -127 and -32767). */
static void exact_patterns(amp_accelerator_view *v)
{
    static const uint32_t f32[8] = {0x7F800001, 0x7FC12345, 0xFFBFFFFF, 0xFFFFFFFF,
                                    0x7F800000, 0xFF800000, 0x80000000, 0x00000001};
    static const uint16_t f16[8] = {0x7C01, 0x7E55, 0xFDFF, 0xFFFF, 0x7C00, 0xFC00, 0x8000, 0x0001};
    static const int8_t n8[16] = {-128, -127, 127, 0, -128, 1, -1, -128, 5, -128, -128, -128, -127, -128, 0, -128};
    static const int16_t n16[8] = {-32768, -32767, 32767, 0, -32768, 1, -1, -32768};
    const struct {
        amp_type type;
        int bits;
        const void *data;
        size_t size;
    } cases[] = {{AMP_FLOAT_2, 32, f32, sizeof f32}, {AMP_FLOAT_2, 16, f16, sizeof f16},
                 {AMP_NORM_4, 8, n8, sizeof n8}, {AMP_NORM_2, 16, n16, sizeof n16}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        amp_texture_desc d = {.extent = amp_extent2(2, 2), .type = cases[i].type,
                              .bits_per_scalar_element = cases[i].bits, .data = cases[i].data,
                              .data_size = cases[i].size};
        amp_texture *s = amp_texture_create(v, &d);
        d.data = NULL;
        amp_texture *t = amp_texture_create(v, &d);
        unsigned char got[32];
        memset(got, 0, sizeof got);
        REQUIRE(s && t);
        if (s && t) {
            REQUIRE_OK(amp_texture_copy(s, NULL, t, NULL));
            REQUIRE_OK(amp_texture_copy_to_host(t, NULL, got, cases[i].size));
            REQUIRE_BYTES(got, cases[i].data, cases[i].size, amp_type_name(cases[i].type));
        }
        amp_texture_destroy(&s);
        amp_texture_destroy(&t);
    }
}

/* 3-channel textures of 1, 2 and 4-byte channels after amp_texture_reserve_transfers,
 * which on GPUs (and here in the forced pass) also makes the packing kernels, views
 * and the download's device buffer: the texels round-trip exactly. */
static void reserved_rgb(amp_accelerator_view *v)
{
    static const struct { amp_type type; int bits; } cases[] = {
        {AMP_UNORM_3, 8}, {AMP_UNORM_3, 16}, {AMP_FLOAT_3, 32}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(37, 53),
                                                                    .type = cases[c].type,
                                                                    .bits_per_scalar_element = cases[c].bits});
        REQUIRE(t);
        if (!t) continue;
        size_t bytes = 37 * 53 * amp_texture_texel_size(t);
        unsigned char *in = malloc(bytes), *out = calloc(1, bytes);
        for (size_t i = 0; in && i < bytes; i++) in[i] = (unsigned char)(i * 2654435761u >> 11);
        if (cases[c].type == AMP_FLOAT_3)
            for (size_t i = 3; in && i < bytes; i += 4) in[i] &= 0x3f; /* finite floats */
        REQUIRE_OK(amp_texture_reserve_transfers(t, true, true));
        if (in && out) {
            REQUIRE_OK(amp_texture_copy_from_host(t, NULL, in, bytes));
            REQUIRE_OK(amp_texture_copy_to_host(t, NULL, out, bytes));
            REQUIRE_BYTES(out, in, bytes, "reserved 3-channel round trip");
        }
        free(in);
        free(out);
        amp_texture_destroy(&t);
    }
}

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    all_formats(v);
    section_copies(v);
    cross_view(v);
    exact_patterns(v);
    reserved_rgb(v);
    if (amp__force_shader_image_copy) {
        /* again with copies between textures by the built-in kernel, as on GPUs */
        amp__force_shader_image_copy(true);
        all_formats(v);
        section_copies(v);
        cross_view(v);
        exact_patterns(v);
        reserved_rgb(v);
        amp__force_shader_image_copy(false);
    }
    return test_end();
}
