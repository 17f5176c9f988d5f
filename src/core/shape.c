/* extent and index arithmetic (see include/ampvk/shape.h). */
#include "ampvk/shape.h"
#include "core/core.h"

#include <stdio.h>
#include <string.h>

static int clamp_rank(int rank) { return rank < 0 ? 0 : rank > AMP_MAX_RANK ? AMP_MAX_RANK : rank; }

amp_extent amp_extent_from(int rank, const int *dims)
{
    amp_extent e = {rank, {0, 0, 0}};
    for (int k = 0; k < clamp_rank(rank); k++) e.dims[k] = dims[k];
    return e;
}
amp_extent amp_extent1(int d0) { return (amp_extent){1, {d0, 0, 0}}; }
amp_extent amp_extent2(int d0, int d1) { return (amp_extent){2, {d0, d1, 0}}; }
amp_extent amp_extent3(int d0, int d1, int d2) { return (amp_extent){3, {d0, d1, d2}}; }

amp_index amp_index_from(int rank, const int *i)
{
    amp_index r = {rank, {0, 0, 0}};
    for (int k = 0; k < clamp_rank(rank); k++) r.i[k] = i[k];
    return r;
}
amp_index amp_index1(int i0) { return (amp_index){1, {i0, 0, 0}}; }
amp_index amp_index2(int i0, int i1) { return (amp_index){2, {i0, i1, 0}}; }
amp_index amp_index3(int i0, int i1, int i2) { return (amp_index){3, {i0, i1, i2}}; }
amp_index amp_index_zero(int rank) { return (amp_index){rank, {0, 0, 0}}; }

bool amp_extent_valid(amp_extent e)
{
    if (e.rank < 1 || e.rank > AMP_MAX_RANK) return false;
    for (int k = 0; k < e.rank; k++)
        if (e.dims[k] < 0) return false;
    return true;
}

size_t amp_extent_size(amp_extent e)
{
    if (!amp_extent_valid(e)) return 0;
    size_t n = 1;
    for (int k = 0; k < e.rank; k++) n *= (size_t)e.dims[k];
    return n;
}

bool amp_extent_contains(amp_extent e, amp_index i)
{
    if (e.rank != i.rank || !amp_extent_valid(e)) return false;
    for (int k = 0; k < e.rank; k++)
        if (i.i[k] < 0 || i.i[k] >= e.dims[k]) return false;
    return true;
}

bool amp_extent_equal(amp_extent a, amp_extent b)
{
    if (a.rank != b.rank) return false;
    for (int k = 0; k < clamp_rank(a.rank); k++)
        if (a.dims[k] != b.dims[k]) return false;
    return true;
}

bool amp_index_equal(amp_index a, amp_index b)
{
    if (a.rank != b.rank) return false;
    for (int k = 0; k < clamp_rank(a.rank); k++)
        if (a.i[k] != b.i[k]) return false;
    return true;
}

int64_t amp_extent_linear(amp_extent e, amp_index i)
{
    int64_t p = 0;
    for (int k = 0; k < clamp_rank(e.rank); k++) p = p * e.dims[k] + i.i[k];
    return p;
}

amp_index amp_extent_unlinear(amp_extent e, size_t p)
{
    amp_index r = {e.rank, {0, 0, 0}};
    for (int k = clamp_rank(e.rank) - 1; k >= 0; k--) {
        size_t d = e.dims[k] > 0 ? (size_t)e.dims[k] : 1;
        r.i[k] = (int)(p % d);
        p /= d;
    }
    return r;
}

#define AMP_COMPONENTWISE(T, field, name, op)                                   \
    T name(T a, T b)                                                            \
    {                                                                           \
        for (int k = 0; k < clamp_rank(a.rank); k++) a.field[k] = a.field[k] op b.field[k]; \
        return a;                                                               \
    }
AMP_COMPONENTWISE(amp_index, i, amp_index_add, +)
AMP_COMPONENTWISE(amp_index, i, amp_index_sub, -)
AMP_COMPONENTWISE(amp_extent, dims, amp_extent_add, +)
AMP_COMPONENTWISE(amp_extent, dims, amp_extent_sub, -)

amp_index amp_index_scale(amp_index a, int s)
{
    for (int k = 0; k < clamp_rank(a.rank); k++) a.i[k] *= s;
    return a;
}

amp_extent amp_extent_scale(amp_extent a, int s)
{
    for (int k = 0; k < clamp_rank(a.rank); k++) a.dims[k] *= s;
    return a;
}

amp_extent amp_extent_from_origin(amp_extent e, amp_index o)
{
    for (int k = 0; k < clamp_rank(e.rank); k++) e.dims[k] -= o.i[k];
    return e;
}

static char *format_components(int rank, const int *c, char *buf, size_t n)
{
    if (n == 0) return buf;
    size_t at = 0;
    buf[0] = 0;
    at += (size_t)snprintf(buf, n, "(");
    for (int k = 0; k < clamp_rank(rank) && at < n; k++)
        at += (size_t)snprintf(buf + at, n - at, k ? ", %d" : "%d", c[k]);
    if (at < n) snprintf(buf + at, n - at, ")");
    return buf;
}

char *amp_extent_format(amp_extent e, char *buf, size_t n) { return format_components(e.rank, e.dims, buf, n); }
char *amp_index_format(amp_index i, char *buf, size_t n) { return format_components(i.rank, i.i, buf, n); }

amp_tiled_extent amp_extent_tile(amp_extent e, int t0, int t1, int t2)
{
    amp_tiled_extent te = {e, {t0, e.rank > 1 ? t1 : 0, e.rank > 2 ? t2 : 0}};
    return te;
}

static amp_tiled_extent round_tiles(amp_tiled_extent te, bool up)
{
    for (int k = 0; k < clamp_rank(te.extent.rank); k++) {
        int t = te.tile[k];
        if (t <= 0) continue;
        te.extent.dims[k] = up ? (te.extent.dims[k] + t - 1) / t * t : te.extent.dims[k] / t * t;
    }
    return te;
}

amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent te) { return round_tiles(te, true); }
amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent te) { return round_tiles(te, false); }

int amp_tiled_extent_tile_size(amp_tiled_extent te)
{
    int n = 1;
    for (int k = 0; k < clamp_rank(te.extent.rank); k++) n *= te.tile[k];
    return n;
}

amp_extent amp_tiled_extent_tiles(amp_tiled_extent te)
{
    amp_extent r = te.extent;
    for (int k = 0; k < clamp_rank(te.extent.rank); k++)
        r.dims[k] = te.tile[k] > 0 ? (te.extent.dims[k] + te.tile[k] - 1) / te.tile[k] : 0;
    return r;
}

amp_status amp_tiled_extent_check(amp_tiled_extent te)
{
    char e[48];
    amp_extent_format(te.extent, e, sizeof e);
    if (!amp_extent_valid(te.extent))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "tiled extent %s is not a valid extent", e);
    long long threads = 1;
    for (int k = 0; k < te.extent.rank; k++) {
        if (te.tile[k] <= 0)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "tile dimension %d of extent %s is %d; it must be > 0", k, e,
                             te.tile[k]);
        threads *= te.tile[k];
    }
    if (threads > 1024)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "a tile of %lld threads exceeds the limit of 1024 threads per tile",
                         threads);
    for (int k = 0; k < te.extent.rank; k++) {
        if (te.extent.dims[k] % te.tile[k])
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "extent %s is not a multiple of the tile in dimension %d (%d %% %d = %d)", e, k,
                             te.extent.dims[k], te.tile[k], te.extent.dims[k] % te.tile[k]);
        if (te.extent.dims[k] / te.tile[k] > 65535)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "extent %s has %d tiles in dimension %d; at most 65535", e,
                             te.extent.dims[k] / te.tile[k], k);
    }
    return AMP_OK;
}
