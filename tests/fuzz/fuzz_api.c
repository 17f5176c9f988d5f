/* libFuzzer harness: sequences of API calls on the default accelerator (lavapipe;
 * its default view, a second batching view and an immediate one), decoded from the
 * input's bytes and checked against a plain C model of every buffer and texture.
 *
 * Arrays and array_views (int, uint and float elements, ranks 1..3, small
 * extents; over the harness's host memory, over nothing, or arrays with or
 * without host access) with sections, projections, view_as, reinterpret and
 * views of arrays; copies between views and to and from the host, synchronous
 * and asynchronous; a kernel dst(idx) = src(idx) + k per element type and rank
 * (compiled once); synchronize, synchronize_to, refresh, discard_data, element
 * get and set, data(); textures of every element type and depth, ranks 1..3, with
 * mip levels, region copies to and from the host and between textures, clones.
 *
 * The model keeps, per storage and texture, the contents the API promises and
 * which of them are known (discard_data forgets them; memory nobody wrote is
 * unknown). After every call that reads data back (synchronize, copies to the
 * host, get, data, the last destroy of a view over host memory, and a final
 * read of every view) the bytes must equal the model wherever it knows them. A
 * call the model says is invalid (wrong sizes, ranks or types, regions out of
 * range, overlapping copies, writes through read-only views) must fail and change
 * nothing; a valid one must succeed. No call may raise a validation message.
 * Any disagreement aborts: a finding. */
#include <math.h>

#include "fuzz.h"

#define MAX_STORAGES 6
#define MAX_VIEWS 16
#define MAX_TEXTURES 4
#define MAX_PENDING 4
#define MAX_OPS 48
#define MAX_DIM 12      /* array extents: 1..MAX_DIM per dimension (and sometimes 0) */
#define MAX_TEX_DIM 12  /* texture extents */
#define MAX_MIPS 4

/* ---- kernels ---- */

static const amp_type elem_types[3] = {AMP_INT, AMP_UINT, AMP_FLOAT};
static amp_kernel *kernels[3][4]; /* [type][rank]: dst(idx) = src(idx) + k */
/* The default view, a second view that batches and one that submits every command:
 * arrays, textures, dispatches and synchronize_to pick one, so work on one storage
 * crosses views of the device. */
static amp_accelerator_view *views[3];

static amp_accelerator_view *pick_view(fuzz_bytes *b) { return views[fuzz_below(b, 3)]; }

static int type_slot(amp_type t) { return t == AMP_INT ? 0 : t == AMP_UINT ? 1 : 2; }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_watch_validation();
    views[0] = fuzz_view();
    views[1] = amp_view_create(amp_view_accelerator(views[0]), AMP_QUEUING_AUTOMATIC);
    views[2] = amp_view_create(amp_view_accelerator(views[0]), AMP_QUEUING_IMMEDIATE);
    if (!views[1] || !views[2]) {
        fprintf(stderr, "fuzz_api: cannot create views: %s\n", amp_last_error());
        exit(1);
    }
    for (int t = 0; t < 3; t++)
        for (int r = 1; r <= 3; r++) {
            char params[128];
            const char *name = amp_type_name(elem_types[t]);
            snprintf(params, sizeof params, "array_view<const %s, %d> src, array_view<%s, %d> dst, %s k", name, r,
                     name, r, name);
            kernels[t][r] = amp_kernel_create(fuzz_view(), &(amp_kernel_desc){
                .params = params, .body = "dst(idx) = src(idx) + k;", .rank = r, .name = "fuzz_api_add"});
            if (!kernels[t][r]) {
                fprintf(stderr, "fuzz_api: cannot create the kernels: %s\n", amp_last_error());
                exit(1);
            }
        }
    return 0;
}

/* ---- the model ---- */

typedef enum storage_kind { ST_HOST, ST_NONE, ST_ARRAY } storage_kind;

/* The memory behind views: 4-byte elements, their promised values and which are known. */
typedef struct storage {
    bool live;
    storage_kind kind;
    size_t count;        /* elements */
    uint32_t *host;      /* ST_HOST: the application memory the views wrap */
    uint32_t *value;
    uint8_t *known;
    amp_array *array;    /* ST_ARRAY while the array lives */
    amp_access_type access;
    int views;           /* view handles of it (the array's own view included) */
} storage;

typedef struct view {
    bool live;
    amp_array_view *h;
    int storage;
    amp_type type;
    bool is_const, embedded; /* embedded: the array's own view (amp_array_as_view) */
    int rank, dims[3];
    int64_t offset, stride[3]; /* in elements */
} view;

typedef struct texture {
    bool live;
    amp_texture *h;
    amp_type type;
    int bits, rank, dims[3], mips;
    size_t texel;            /* host bytes per texel */
    uint8_t *level[MAX_MIPS];
    uint8_t *known[MAX_MIPS]; /* per texel */
} texture;

typedef enum pending_kind { PEND_PLAIN, PEND_HOST_BYTES } pending_kind;

/* An asynchronous call not yet waited for; PEND_HOST_BYTES must leave `expect`
 * (where `known`) in dst, and dst's bytes past `bytes` untouched. */
typedef struct pending {
    amp_future *f;
    pending_kind kind;
    uint8_t *dst, *expect, *known;
    size_t bytes, size; /* checked bytes, buffer size (with a guard) */
    const char *what;
} pending;

typedef struct model {
    storage st[MAX_STORAGES];
    view v[MAX_VIEWS];
    texture tx[MAX_TEXTURES];
    pending pend[MAX_PENDING];
    uint32_t rng;
} model;

#define GUARD 16
#define GUARD_BYTE 0xC3

static uint32_t next_random(model *m)
{
    uint32_t x = m->rng ? m->rng : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return m->rng = x;
}

/* Values of one of a few shapes: small integers, any bits, floats of small integers. */
static void fill_values(model *m, fuzz_bytes *b, uint32_t *out, size_t n, amp_type type)
{
    int shape = fuzz_below(b, 3);
    m->rng ^= fuzz_u32(b);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = next_random(m);
        if (shape == 0) out[i] = r & 0xFF;
        else if (shape == 1) out[i] = r;
        else {
            float f = (float)((int)(r % 2001) - 1000);
            if (type != AMP_FLOAT) f = (float)(r & 0xFFFF);
            memcpy(&out[i], &f, 4);
        }
    }
}

static size_t extent_count(int rank, const int *dims)
{
    size_t n = 1;
    for (int k = 0; k < rank; k++) n *= (size_t)dims[k];
    return n;
}

static amp_extent extent_of(int rank, const int *dims) { return amp_extent_from(rank, dims); }

/* The storage offsets of a view's elements in row-major order; returns the count. */
static size_t view_offsets(const view *v, int64_t *out)
{
    size_t n = 0;
    int d0 = v->rank >= 1 ? v->dims[0] : 1, d1 = v->rank >= 2 ? v->dims[1] : 1, d2 = v->rank >= 3 ? v->dims[2] : 1;
    for (int i = 0; i < d0; i++)
        for (int j = 0; j < d1; j++)
            for (int k = 0; k < d2; k++) {
                int64_t off = v->offset + i * v->stride[0];
                if (v->rank >= 2) off += j * v->stride[1];
                if (v->rank >= 3) off += k * v->stride[2];
                out[n++] = off;
            }
    return n;
}

static int64_t *offsets_of(const view *v, size_t *n)
{
    size_t count = extent_count(v->rank, v->dims);
    int64_t *o = malloc((count ? count : 1) * sizeof *o);
    FUZZ_CHECK(o, "out of memory in the harness");
    *n = view_offsets(v, o);
    return o;
}

static int live_view(model *m, fuzz_bytes *b)
{
    int start = fuzz_below(b, MAX_VIEWS);
    for (int i = 0; i < MAX_VIEWS; i++) {
        int k = (start + i) % MAX_VIEWS;
        if (m->v[k].live) return k;
    }
    return -1;
}

static int free_view(model *m)
{
    for (int i = 0; i < MAX_VIEWS; i++)
        if (!m->v[i].live) return i;
    return -1;
}

static int free_storage(model *m)
{
    for (int i = 0; i < MAX_STORAGES; i++)
        if (!m->st[i].live) return i;
    return -1;
}

/* FUZZ_API_TRACE=1 prints each call and its outcome (to read a reproducer). */
static int trace = -1;

/* A line of the trace. */
static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    if (trace <= 0) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_api:   ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static int view_index(amp_accelerator_view *v) { return v == views[0] ? 0 : v == views[1] ? 1 : 2; }

static void check_ok(amp_status s, const char *what)
{
    if (trace > 0) fprintf(stderr, "fuzz_api:   %s: %s\n", what, s == AMP_OK ? "ok" : amp_last_error());
    FUZZ_CHECK(s == AMP_OK, "%s failed: %s", what, amp_status_name(s));
    fuzz_check_validation();
}

static void check_refused(amp_status s, const char *what)
{
    if (trace > 0) fprintf(stderr, "fuzz_api:   %s: %s\n", what, s == AMP_OK ? "ok" : amp_last_error());
    FUZZ_CHECK(s != AMP_OK, "%s succeeded but the model says it is invalid", what);
    fuzz_check_validation();
}

/* Compares n packed elements read back from view v with the model. */
static void check_elements(model *m, const view *v, const uint32_t *got, const char *what)
{
    const storage *s = &m->st[v->storage];
    size_t n;
    int64_t *o = offsets_of(v, &n);
    for (size_t i = 0; i < n; i++)
        if (s->known[o[i]])
            FUZZ_CHECK(got[i] == s->value[o[i]], "%s: element %zu (storage %d offset %lld) is 0x%08x, expected 0x%08x",
                       what, i, v->storage, (long long)o[i], got[i], s->value[o[i]]);
    free(o);
}

/* ---- views and storages ---- */

static int add_view(model *m, amp_array_view *h, int storage_index, amp_type type, bool is_const, int rank,
                    const int *dims, int64_t offset, const int64_t *stride)
{
    int i = free_view(m);
    FUZZ_CHECK(i >= 0, "no free view slot (harness)");
    view *v = &m->v[i];
    *v = (view){.live = true, .h = h, .storage = storage_index, .type = type, .is_const = is_const, .rank = rank,
                .offset = offset};
    for (int k = 0; k < 3; k++) {
        v->dims[k] = k < rank ? dims[k] : 0;
        v->stride[k] = k < rank ? stride[k] : 0;
    }
    m->st[storage_index].views++;
    note("view %d: storage %d (kind %d), %s, rank %d (%d, %d, %d), offset %lld%s", i, storage_index,
         (int)m->st[storage_index].kind, amp_type_name(type), rank, v->dims[0], v->dims[1], v->dims[2],
         (long long)offset, is_const ? ", const" : "");
    return i;
}

static void dense_strides(int rank, const int *dims, int64_t *stride)
{
    int64_t s = 1;
    for (int k = rank - 1; k >= 0; k--) {
        stride[k] = s;
        s *= dims[k];
    }
}

static void storage_free(storage *s)
{
    free(s->host);
    free(s->value);
    free(s->known);
    *s = (storage){0};
}

/* The storage lost its last view: a view over host memory writes the promised
 * contents back into it. */
static void storage_gone(model *m, int si)
{
    storage *s = &m->st[si];
    if (s->kind == ST_HOST)
        for (size_t i = 0; i < s->count; i++)
            if (s->known[i])
                FUZZ_CHECK(s->host[i] == s->value[i],
                           "the last view of host storage %d wrote back 0x%08x at %zu, expected 0x%08x", si,
                           s->host[i], i, s->value[i]);
    storage_free(s);
}

static void read_extent(fuzz_bytes *b, int rank, int *dims)
{
    for (int k = 0; k < rank; k++) {
        uint8_t d = fuzz_u8(b);
        dims[k] = d == 0xFF ? 0 : 1 + d % MAX_DIM;
    }
}

/* A new storage with its first view: over host memory (read-write or const), over
 * nothing, or an array (with or without data and host access). */
static void op_create(model *m, fuzz_bytes *b)
{
    int si = free_storage(m), vi = free_view(m);
    if (si < 0 || vi < 0) return;
    int kind = fuzz_below(b, 4);
    amp_type type = elem_types[fuzz_below(b, 3)];
    int rank = fuzz_range(b, 1, 3), dims[3] = {0};
    read_extent(b, rank, dims);
    size_t count = extent_count(rank, dims);
    storage *s = &m->st[si];
    *s = (storage){.live = true, .count = count};
    s->value = calloc(count + 1, 4);
    s->known = calloc(count + 1, 1);
    FUZZ_CHECK(s->value && s->known, "out of memory in the harness");
    int64_t stride[3];
    dense_strides(rank, dims, stride);
    amp_extent e = extent_of(rank, dims);
    if (kind <= 1) {
        s->kind = ST_HOST;
        s->host = calloc(count + 1, 4);
        FUZZ_CHECK(s->host, "out of memory in the harness");
        fill_values(m, b, s->host, count, type);
        memcpy(s->value, s->host, count * 4);
        memset(s->known, 1, count);
        bool is_const = kind == 1;
        amp_array_view *h = is_const ? amp_array_view_create_const(e, type, 0, s->host)
                                     : amp_array_view_create(e, type, 0, s->host);
        FUZZ_CHECK(h, "amp_array_view_create%s failed", is_const ? "_const" : "");
        add_view(m, h, si, type, is_const, rank, dims, 0, stride);
    } else if (kind == 2) {
        s->kind = ST_NONE;
        amp_array_view *h = amp_array_view_create(e, type, 0, NULL);
        FUZZ_CHECK(h, "amp_array_view_create without data failed");
        add_view(m, h, si, type, false, rank, dims, 0, stride);
    } else {
        s->kind = ST_ARRAY;
        int how = fuzz_below(b, 4);
        static const amp_access_type access[] = {AMP_ACCESS_AUTO, AMP_ACCESS_NONE, AMP_ACCESS_READ, AMP_ACCESS_WRITE,
                                                 AMP_ACCESS_READ_WRITE};
        s->access = access[fuzz_below(b, 5)];
        uint32_t *data = NULL;
        size_t data_size = 0;
        if (how >= 1) {
            data = calloc(count + 1, 4);
            FUZZ_CHECK(data, "out of memory in the harness");
            fill_values(m, b, data, count, type);
            data_size = how == 1 ? 0 : how == 2 ? count * 4 + 4 : count * 4 - (count ? 4 : 0);
        }
        bool valid = how != 3 || data_size == 0; /* data_size 0: exactly the array's size */
        amp_accelerator_view *on = pick_view(b);
        note("array on view %d, access %d, data %s", view_index(on), (int)s->access,
             how == 0 ? "none" : how == 1 ? "size 0" : how == 2 ? "larger" : "short");
        amp_array *a = amp_array_create(on, &(amp_array_desc){.extent = e, .type = type, .cpu_access = s->access,
                                                              .data = data, .data_size = data_size});
        if (!valid) {
            check_refused(a ? AMP_OK : amp_last_status(), "amp_array_create with a short data_size");
            free(data);
            storage_free(s);
            return;
        }
        if (!a && amp_last_status() == AMP_ERROR_UNSUPPORTED && s->access > AMP_ACCESS_NONE) {
            /* a device without CPU-shared memory */
            fuzz_check_validation();
            free(data);
            storage_free(s);
            return;
        }
        FUZZ_CHECK(a, "amp_array_create failed");
        if (s->access == AMP_ACCESS_AUTO) s->access = amp_array_cpu_access_type(a);
        if (data) {
            memcpy(s->value, data, count * 4);
            memset(s->known, 1, count);
        }
        free(data);
        s->array = a;
        int v = add_view(m, amp_array_as_view(a), si, type, false, rank, dims, 0, stride);
        m->v[v].embedded = true;
    }
    fuzz_check_validation();
}

/* Calls the library with an invalid description; nothing may be created. */
static void op_create_invalid(model *m, fuzz_bytes *b)
{
    (void)m;
    int what = fuzz_below(b, 4);
    amp_extent e = amp_extent1(4);
    amp_type type = AMP_INT;
    if (what == 0) e.rank = fuzz_below(b, 2) ? 0 : 4;
    if (what == 1) e = amp_extent2(3, -1 - fuzz_below(b, 3));
    if (what == 2) type = (amp_type)(0x7F - fuzz_below(b, 3));
    if (what == 3) {
        amp_array_view *h = amp_array_view_create(amp_extent1(4), AMP_INT, 3, NULL);
        check_refused(h ? AMP_OK : amp_last_status(), "amp_array_view_create with a 3-byte int");
        return;
    }
    amp_array_view *h = amp_array_view_create(e, type, 0, NULL);
    check_refused(h ? AMP_OK : amp_last_status(), "amp_array_view_create with an invalid extent or type");
    amp_array *a = amp_array_create(fuzz_view(), &(amp_array_desc){.extent = e, .type = type});
    check_refused(a ? AMP_OK : amp_last_status(), "amp_array_create with an invalid extent or type");
}

/* A second view over part of a view's host memory: the library must find the
 * storage that holds it and share it. */
static void op_view_over_host(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0 || free_view(m) < 0) return;
    storage *s = &m->st[m->v[vi].storage];
    if (s->kind != ST_HOST || s->count == 0) return;
    size_t first = (size_t)fuzz_below(b, (int)(s->count < 256 ? s->count : 256));
    size_t len = 1 + (size_t)fuzz_below(b, (int)((s->count - first) < 256 ? s->count - first : 256));
    amp_type type = elem_types[fuzz_below(b, 3)];
    int dims[1] = {(int)len};
    int64_t stride[1] = {1};
    amp_array_view *h = amp_array_view_create(amp_extent1((int)len), type, 0, s->host + first);
    FUZZ_CHECK(h, "amp_array_view_create over part of another view's memory failed");
    add_view(m, h, m->v[vi].storage, type, false, 1, dims, (int64_t)first, stride);
    fuzz_check_validation();
}

static void op_section(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0 || free_view(m) < 0) return;
    view v = m->v[vi];
    int rank = fuzz_u8(b) < 16 ? fuzz_range(b, 1, 3) : v.rank;
    int origin[3] = {0}, ext[3] = {0};
    bool valid = rank == v.rank;
    for (int k = 0; k < rank; k++) {
        int d = k < v.rank ? v.dims[k] : 1;
        origin[k] = fuzz_index(b, d + 2);
        ext[k] = fuzz_below(b, d + 2 - (origin[k] > 0 ? origin[k] : 0));
        if (origin[k] < 0 || (int64_t)origin[k] + ext[k] > d) valid = false;
    }
    amp_array_view *h = amp_array_view_section(v.h, amp_index_from(rank, origin), extent_of(rank, ext));
    if (!valid) {
        check_refused(h ? AMP_OK : amp_last_status(), "amp_array_view_section out of range");
        return;
    }
    FUZZ_CHECK(h, "amp_array_view_section failed");
    int64_t offset = v.offset;
    for (int k = 0; k < rank; k++) offset += origin[k] * v.stride[k];
    add_view(m, h, v.storage, v.type, v.is_const, rank, ext, offset, v.stride);
    fuzz_check_validation();
}

static void op_project(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0 || free_view(m) < 0) return;
    view v = m->v[vi];
    int i = fuzz_below(b, v.dims[0] + 2) - 1;
    amp_array_view *h = amp_array_view_project(v.h, i);
    if (v.rank < 2 || i < 0 || i >= v.dims[0]) {
        check_refused(h ? AMP_OK : amp_last_status(), "amp_array_view_project out of range");
        return;
    }
    FUZZ_CHECK(h, "amp_array_view_project failed");
    add_view(m, h, v.storage, v.type, v.is_const, v.rank - 1, v.dims + 1, v.offset + i * v.stride[0], v.stride + 1);
    fuzz_check_validation();
}

static void op_view_as(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0 || free_view(m) < 0) return;
    view v = m->v[vi];
    int rank = fuzz_range(b, 1, 3), dims[3] = {0};
    for (int k = 0; k < rank; k++) dims[k] = fuzz_below(b, 5);
    size_t n = extent_count(rank, dims), have = extent_count(v.rank, v.dims);
    amp_array_view *h = amp_array_view_view_as(v.h, extent_of(rank, dims));
    if (v.rank != 1 || n > have) {
        check_refused(h ? AMP_OK : amp_last_status(), "amp_array_view_view_as of a bad rank or size");
        return;
    }
    FUZZ_CHECK(h, "amp_array_view_view_as failed");
    int64_t stride[3];
    dense_strides(rank, dims, stride);
    add_view(m, h, v.storage, v.type, v.is_const, rank, dims, v.offset, stride);
    fuzz_check_validation();
}

static void op_reinterpret(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0 || free_view(m) < 0) return;
    view v = m->v[vi];
    bool bad_type = fuzz_u8(b) < 24;
    amp_type type = bad_type ? (amp_type)0x7E : elem_types[fuzz_below(b, 3)];
    amp_array_view *h = amp_array_view_reinterpret(v.h, type, 0);
    if (v.rank != 1 || bad_type) {
        check_refused(h ? AMP_OK : amp_last_status(), "amp_array_view_reinterpret of a bad rank or type");
        return;
    }
    FUZZ_CHECK(h, "amp_array_view_reinterpret failed");
    add_view(m, h, v.storage, type, v.is_const, 1, v.dims, v.offset, v.stride);
    fuzz_check_validation();
}

static void op_view_of_array(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0 || free_view(m) < 0) return;
    storage *s = &m->st[m->v[vi].storage];
    if (!s->array) return;
    amp_array_view *h = amp_array_view_of_array(s->array);
    FUZZ_CHECK(h, "amp_array_view_of_array failed");
    int dims[3], rank = amp_array_extent(s->array).rank;
    for (int k = 0; k < rank; k++) dims[k] = amp_array_extent(s->array).dims[k];
    int64_t stride[3];
    dense_strides(rank, dims, stride);
    add_view(m, h, m->v[vi].storage, amp_array_type(s->array), false, rank, dims, 0, stride);
    fuzz_check_validation();
}

static void view_release(model *m, int vi)
{
    int si = m->v[vi].storage;
    m->v[vi].live = false;
    if (--m->st[si].views == 0 && !m->st[si].array) storage_gone(m, si);
}

static void op_destroy(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    storage *s = &m->st[v->storage];
    note("destroy view %d%s", vi, v->embedded ? " (the array)" : "");
    if (v->embedded) {
        /* the array's own view goes with the array; its other views keep the storage */
        amp_array_destroy(&s->array);
        FUZZ_CHECK(!s->array, "amp_array_destroy left the handle");
        view_release(m, vi);
    } else {
        amp_array_view_destroy(&v->h);
        FUZZ_CHECK(!v->h, "amp_array_view_destroy left the handle");
        view_release(m, vi);
    }
    fuzz_check_validation();
}

/* ---- data movement ---- */

/* Elements of the same storage that both views touch. */
static bool views_overlap(const view *a, const view *b)
{
    if (a->storage != b->storage) return false;
    size_t na, nb;
    int64_t *oa = offsets_of(a, &na), *ob = offsets_of(b, &nb);
    bool overlap = false;
    for (size_t i = 0; i < na && !overlap; i++)
        for (size_t j = 0; j < nb; j++)
            if (oa[i] == ob[j]) {
                overlap = true;
                break;
            }
    free(oa);
    free(ob);
    return overlap;
}

static bool same_elements(const view *a, const view *b)
{
    if (a->storage != b->storage || a->rank != b->rank) return false;
    size_t na, nb;
    int64_t *oa = offsets_of(a, &na), *ob = offsets_of(b, &nb);
    bool same = na == nb && !memcmp(oa, ob, na * sizeof *oa);
    free(oa);
    free(ob);
    return same;
}

static bool same_extent(const view *a, const view *b)
{
    if (a->rank != b->rank) return false;
    for (int k = 0; k < a->rank; k++)
        if (a->dims[k] != b->dims[k]) return false;
    return true;
}

/* dst's elements become src's, as one copy (sources read before any write). */
static void model_copy(model *m, const view *src, const view *dst)
{
    size_t n, n2;
    int64_t *os = offsets_of(src, &n), *od = offsets_of(dst, &n2);
    storage *ss = &m->st[src->storage], *sd = &m->st[dst->storage];
    uint32_t *val = malloc((n ? n : 1) * 4);
    uint8_t *kn = malloc(n ? n : 1);
    FUZZ_CHECK(val && kn && n == n2, "harness: copy of %zu elements into %zu", n, n2);
    for (size_t i = 0; i < n; i++) val[i] = ss->value[os[i]], kn[i] = ss->known[os[i]];
    for (size_t i = 0; i < n; i++) sd->value[od[i]] = val[i], sd->known[od[i]] = kn[i];
    free(val);
    free(kn);
    free(os);
    free(od);
}

static void pending_finish(model *m, int i, bool wait)
{
    pending *p = &m->pend[i];
    if (!p->f) return;
    if (wait) {
        amp_status s = amp_future_wait(p->f);
        FUZZ_CHECK(s == AMP_OK, "%s: amp_future_wait failed: %s", p->what, amp_status_name(s));
        FUZZ_CHECK(amp_future_ready(p->f), "%s: a future that was waited for is not ready", p->what);
    }
    amp_future_destroy(&p->f);
    FUZZ_CHECK(!p->f, "amp_future_destroy left the handle");
    if (p->kind == PEND_HOST_BYTES) {
        for (size_t i = 0; i < p->bytes; i++)
            if (p->known[i])
                FUZZ_CHECK(p->dst[i] == p->expect[i], "%s: byte %zu is 0x%02x, expected 0x%02x", p->what, i,
                           p->dst[i], p->expect[i]);
        for (size_t i = p->bytes; i < p->size; i++)
            FUZZ_CHECK(p->dst[i] == GUARD_BYTE, "%s: wrote byte %zu past the %zu it should", p->what, i, p->bytes);
    }
    free(p->dst);
    free(p->expect);
    free(p->known);
    *p = (pending){0};
    fuzz_check_validation();
}

static void pending_add(model *m, amp_future *f, pending_kind kind, uint8_t *dst, uint8_t *expect, uint8_t *known,
                        size_t bytes, size_t size, const char *what)
{
    int slot = 0;
    while (slot < MAX_PENDING && m->pend[slot].f) slot++;
    if (slot == MAX_PENDING) pending_finish(m, slot = 0, true); /* no room: the oldest slot is finished first */
    m->pend[slot] = (pending){f, kind, dst, expect, known, bytes, size, what};
}

static void op_wait(model *m, fuzz_bytes *b)
{
    int i = fuzz_below(b, MAX_PENDING);
    if (m->pend[i].f && fuzz_below(b, 4) == 0) {
        (void)amp_future_ready(m->pend[i].f); /* polls; never blocks */
        fuzz_check_validation();
        return;
    }
    pending_finish(m, i, fuzz_below(b, 3) != 0);
}

/* A buffer for bytes coming back: `bytes` plus a guard that must stay untouched. */
static uint8_t *host_buffer(size_t bytes, size_t *size)
{
    *size = bytes + GUARD;
    uint8_t *p = malloc(*size);
    FUZZ_CHECK(p, "out of memory in the harness");
    memset(p, GUARD_BYTE, *size);
    return p;
}

/* The model's bytes of a view (packed) and which are known, malloc'ed. */
static void expected_bytes(model *m, const view *v, uint8_t **expect, uint8_t **known, size_t *bytes)
{
    size_t n;
    int64_t *o = offsets_of(v, &n);
    const storage *s = &m->st[v->storage];
    *bytes = n * 4;
    *expect = malloc(n * 4 + 1);
    *known = malloc(n * 4 + 1);
    FUZZ_CHECK(*expect && *known, "out of memory in the harness");
    for (size_t i = 0; i < n; i++) {
        memcpy(*expect + i * 4, &s->value[o[i]], 4);
        memset(*known + i * 4, s->known[o[i]], 4);
    }
    free(o);
}

static void op_copy_to_host(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    size_t n = extent_count(v->rank, v->dims), bytes = n * 4, size;
    int how = fuzz_below(b, 8);
    bool async = fuzz_below(b, 2);
    size_t give = how == 0 ? (bytes ? bytes - 1 : 0) : how == 1 ? bytes + 4 : bytes;
    bool null = how == 2 && fuzz_below(b, 2);
    bool valid = !null && give >= bytes && !(how == 0 && bytes);
    uint8_t *buf = host_buffer(bytes + 4, &size);
    const char *what = async ? "amp_copy_to_host_async" : "amp_copy_to_host";
    if (!valid) {
        amp_status s = async ? (amp_copy_to_host_async(v->h, null ? NULL : buf, give) ? AMP_OK : amp_last_status())
                             : amp_copy_to_host(v->h, null ? NULL : buf, give);
        check_refused(s, what);
        for (size_t i = 0; i < size; i++)
            FUZZ_CHECK(buf[i] == GUARD_BYTE, "%s: a refused copy wrote byte %zu", what, i);
        free(buf);
        return;
    }
    uint8_t *expect, *known;
    size_t eb;
    expected_bytes(m, v, &expect, &known, &eb);
    if (async) {
        amp_future *f = amp_copy_to_host_async(v->h, buf, give);
        FUZZ_CHECK(f, "amp_copy_to_host_async failed");
        fuzz_check_validation();
        pending_add(m, f, PEND_HOST_BYTES, buf, expect, known, bytes, size, what);
        return;
    }
    check_ok(amp_copy_to_host(v->h, buf, give), what);
    check_elements(m, v, (const uint32_t *)buf, what);
    for (size_t i = bytes; i < size; i++) FUZZ_CHECK(buf[i] == GUARD_BYTE, "%s: wrote byte %zu of %zu", what, i, bytes);
    free(buf);
    free(expect);
    free(known);
}

static void op_copy_from_host(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    size_t n = extent_count(v->rank, v->dims), bytes = n * 4;
    int how = fuzz_below(b, 8);
    bool async = fuzz_below(b, 2);
    size_t give = how == 0 ? bytes + 4 : how == 1 && bytes ? bytes - 4 : bytes;
    bool null = how == 2 && fuzz_below(b, 2);
    bool valid = !null && give == bytes && !v->is_const;
    uint32_t *src = calloc(n + 2, 4);
    FUZZ_CHECK(src, "out of memory in the harness");
    fill_values(m, b, src, n, v->type);
    const char *what = async ? "amp_copy_from_host_async" : "amp_copy_from_host";
    amp_future *f = NULL;
    amp_status s = async ? ((f = amp_copy_from_host_async(null ? NULL : src, give, v->h)) ? AMP_OK : amp_last_status())
                         : amp_copy_from_host(null ? NULL : src, give, v->h);
    if (!valid) {
        check_refused(s, what);
        free(src);
        return;
    }
    check_ok(s, what);
    size_t count;
    int64_t *o = offsets_of(v, &count);
    storage *st = &m->st[v->storage];
    for (size_t i = 0; i < count; i++) st->value[o[i]] = src[i], st->known[o[i]] = 1;
    free(o);
    /* the source may be reused at once */
    memset(src, 0x5A, (n + 2) * 4);
    free(src);
    if (f) pending_add(m, f, PEND_PLAIN, NULL, NULL, NULL, 0, 0, what);
}

static void op_copy(model *m, fuzz_bytes *b)
{
    int si = live_view(m, b), di = live_view(m, b);
    if (si < 0 || di < 0) return;
    view *src = &m->v[si], *dst = &m->v[di];
    bool async = fuzz_below(b, 2);
    bool valid = same_extent(src, dst) && !dst->is_const && !views_overlap(src, dst);
    const char *what = async ? "amp_copy_async" : "amp_copy";
    amp_future *f = NULL;
    amp_status s = async ? ((f = amp_copy_async(src->h, dst->h)) ? AMP_OK : amp_last_status())
                         : amp_copy(src->h, dst->h);
    if (!valid) {
        check_refused(s, what);
        return;
    }
    check_ok(s, what);
    model_copy(m, src, dst);
    if (f) pending_add(m, f, PEND_PLAIN, NULL, NULL, NULL, 0, 0, what);
}

/* The storage's host memory must hold what the model knows of the view. */
static void check_host_memory(model *m, const view *v, const char *what)
{
    const storage *s = &m->st[v->storage];
    size_t n;
    int64_t *o = offsets_of(v, &n);
    for (size_t i = 0; i < n; i++)
        if (s->known[o[i]])
            FUZZ_CHECK(s->host[o[i]] == s->value[o[i]], "%s: host memory at %lld is 0x%08x, expected 0x%08x", what,
                       (long long)o[i], s->host[o[i]], s->value[o[i]]);
    free(o);
}

static void op_synchronize(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    int how = fuzz_below(b, 3);
    if (how == 0) {
        check_ok(amp_array_view_synchronize(v->h), "amp_array_view_synchronize");
    } else if (how == 1) {
        amp_future *f = amp_array_view_synchronize_async(v->h);
        FUZZ_CHECK(f, "amp_array_view_synchronize_async failed");
        check_ok(amp_future_wait(f), "amp_array_view_synchronize_async's future");
        amp_future_destroy(&f);
    } else {
        check_ok(amp_array_view_synchronize_to(v->h, pick_view(b)), "amp_array_view_synchronize_to");
        return;
    }
    if (m->st[v->storage].kind == ST_HOST) check_host_memory(m, v, "synchronize");
}

static void op_discard(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    check_ok(amp_array_view_discard_data(v->h), "amp_array_view_discard_data");
    size_t n;
    int64_t *o = offsets_of(v, &n);
    for (size_t i = 0; i < n; i++) m->st[v->storage].known[o[i]] = 0;
    free(o);
}

/* The application changes host memory behind the views: synchronize the whole
 * storage, write, refresh. The host memory then holds every element. */
static void op_host_write(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    storage *s = &m->st[v->storage];
    if (s->kind != ST_HOST || s->count == 0) return;
    amp_array_view *whole = amp_array_view_create(amp_extent1((int)s->count), AMP_UINT, 0, s->host);
    FUZZ_CHECK(whole, "amp_array_view_create over a whole storage failed");
    check_ok(amp_array_view_synchronize(whole), "amp_array_view_synchronize of a whole storage");
    view wv = {.storage = v->storage, .rank = 1, .dims = {(int)s->count}, .stride = {1}};
    check_host_memory(m, &wv, "synchronize before a host write");
    size_t first = (size_t)fuzz_below(b, (int)(s->count < 256 ? s->count : 256));
    size_t len = 1 + (size_t)fuzz_below(b, (int)(s->count - first < 64 ? s->count - first : 64));
    fill_values(m, b, s->host + first, len, v->type);
    check_ok(amp_array_view_refresh(fuzz_below(b, 2) ? v->h : whole), "amp_array_view_refresh");
    amp_array_view_destroy(&whole);
    memcpy(s->value, s->host, s->count * 4);
    memset(s->known, 1, s->count);
    fuzz_check_validation();
}

static void op_get_set(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    int idx[3] = {0};
    bool inside = true;
    for (int k = 0; k < v->rank; k++) {
        idx[k] = fuzz_index(b, v->dims[k] + 2);
        if (idx[k] < 0 || idx[k] >= v->dims[k]) inside = false;
    }
    int64_t off = v->offset;
    for (int k = 0; k < v->rank; k++) off += idx[k] * v->stride[k];
    storage *s = &m->st[v->storage];
    amp_index at = amp_index_from(v->rank, idx);
    if (fuzz_below(b, 2)) {
        uint32_t out = 0xDEADBEEF;
        amp_status st = amp_array_view_get(v->h, at, &out);
        if (!inside) {
            check_refused(st, "amp_array_view_get out of range");
            FUZZ_CHECK(out == 0xDEADBEEF, "a refused amp_array_view_get wrote its output");
            return;
        }
        check_ok(st, "amp_array_view_get");
        if (s->known[off])
            FUZZ_CHECK(out == s->value[off], "amp_array_view_get at %lld: 0x%08x, expected 0x%08x", (long long)off,
                       out, s->value[off]);
        return;
    }
    uint32_t in;
    fill_values(m, b, &in, 1, v->type);
    amp_status st = amp_array_view_set(v->h, at, &in);
    if (!inside || v->is_const) {
        check_refused(st, "amp_array_view_set out of range or read-only");
        return;
    }
    check_ok(st, "amp_array_view_set");
    s->value[off] = in;
    s->known[off] = 1;
}

/* data(): rank-1 views of host memory; arrays with host access: amp_array_data. */
static void op_data(model *m, fuzz_bytes *b)
{
    int vi = live_view(m, b);
    if (vi < 0) return;
    view *v = &m->v[vi];
    storage *s = &m->st[v->storage];
    bool write = fuzz_below(b, 2);
    if (v->embedded) {
        uint32_t *p = amp_array_data(s->array);
        if (s->access == AMP_ACCESS_NONE) {
            check_refused(p ? AMP_OK : amp_last_status(), "amp_array_data of an array without host access");
            return;
        }
        FUZZ_CHECK(p, "amp_array_data failed");
        fuzz_check_validation();
        check_elements(m, v, p, "amp_array_data");
        if (write && s->access != AMP_ACCESS_READ && s->count) {
            size_t i = (size_t)fuzz_below(b, (int)(s->count < 256 ? s->count : 256));
            fill_values(m, b, &p[i], 1, v->type);
            s->value[i] = p[i];
            s->known[i] = 1;
        }
        return;
    }
    uint32_t *p = amp_array_view_data(v->h);
    if (s->kind == ST_ARRAY && !s->array && v->rank == 1) {
        /* a view that outlived its array: whether it counts as an array's is not said */
        fuzz_check_validation();
        if (p) check_elements(m, v, p, "amp_array_view_data of a view that outlived its array");
        return;
    }
    if (v->rank != 1 || s->kind == ST_ARRAY) {
        check_refused(p ? AMP_OK : amp_last_status(), "amp_array_view_data of a rank > 1 view or an array's");
        return;
    }
    FUZZ_CHECK(p, "amp_array_view_data failed");
    fuzz_check_validation();
    if (s->kind == ST_HOST)
        FUZZ_CHECK(p == s->host + v->offset, "amp_array_view_data gave %p, not the view's memory %p", (void *)p,
                   (void *)(s->host + v->offset));
    check_elements(m, v, p, "amp_array_view_data");
    if (write && !v->is_const && v->dims[0] > 0) {
        int i = fuzz_below(b, v->dims[0]);
        fill_values(m, b, &p[i], 1, v->type);
        s->value[v->offset + i] = p[i];
        s->known[v->offset + i] = 1;
    }
}

/* dst(idx) = src(idx) + k through the kernel of (type, rank), which may not be the
 * views' (then the dispatch must be refused). */
static void op_kernel(model *m, fuzz_bytes *b)
{
    int si = live_view(m, b), di = fuzz_below(b, 3) ? live_view(m, b) : si;
    if (si < 0 || di < 0) return;
    view *src = &m->v[si], *dst = &m->v[di];
    bool matching = fuzz_u8(b) >= 24;
    int t = matching ? type_slot(dst->type) : fuzz_below(b, 3);
    int r = matching ? dst->rank : fuzz_range(b, 1, 3);
    int kv = fuzz_range(b, -8, 8);
    bool valid = dst->rank == r && src->rank == r && src->type == elem_types[t] && dst->type == elem_types[t] &&
                 !dst->is_const;
    if (valid && (!same_extent(src, dst) || (!same_elements(src, dst) && views_overlap(src, dst))))
        return; /* out-of-bounds reads or a race: not a defined call */
    amp_arg k = t == 0 ? AMP_INT("k", kv) : t == 1 ? AMP_UINT("k", (uint32_t)kv) : AMP_FLOAT("k", (float)kv);
    amp_extent domain = extent_of(dst->rank, dst->dims);
    amp_accelerator_view *on = pick_view(b);
    note("kernel %s rank %d on view %d: src view %d, dst view %d, k %d", amp_type_name(elem_types[t]), r,
         view_index(on), si, di, kv);
    amp_status s = amp_parallel_for_each(on, domain, kernels[t][r],
                                         AMP_ARGS(AMP_VIEW("src", src->h), AMP_VIEW("dst", dst->h), k));
    if (!valid) {
        check_refused(s, "amp_parallel_for_each with mismatched views");
        return;
    }
    check_ok(s, "amp_parallel_for_each");
    size_t n, n2;
    int64_t *os = offsets_of(src, &n), *od = offsets_of(dst, &n2);
    storage *ss = &m->st[src->storage], *sd = &m->st[dst->storage];
    uint32_t *val = malloc((n ? n : 1) * 4);
    uint8_t *kn = malloc(n ? n : 1);
    FUZZ_CHECK(val && kn, "out of memory in the harness");
    for (size_t i = 0; i < n; i++) {
        uint32_t x = ss->value[os[i]];
        kn[i] = ss->known[os[i]];
        if (t == 2) {
            float f;
            memcpy(&f, &x, 4);
            /* denormals may be flushed and NaN payloads differ: not checked */
            if (!(isnormal(f) || f == 0 || isinf(f))) kn[i] = 0;
            f = f + (float)kv;
            memcpy(&x, &f, 4);
        } else {
            x += (uint32_t)kv;
        }
        val[i] = x;
    }
    for (size_t i = 0; i < n; i++) sd->value[od[i]] = val[i], sd->known[od[i]] = kn[i];
    free(val);
    free(kn);
    free(os);
    free(od);
}

/* ---- textures ---- */

typedef struct tex_type {
    amp_type type;
    int bits;
} tex_type;

static bool texture_type_valid(amp_type type, int bits)
{
    amp_scalar s = amp_type_scalar(type);
    int n = amp_type_components(type);
    switch (s) {
    case AMP_SCALAR_INT:
    case AMP_SCALAR_UINT: return bits == 0 || bits == 8 || bits == 16 || bits == 32;
    case AMP_SCALAR_FLOAT: return bits == 0 || bits == 16 || bits == 32;
    case AMP_SCALAR_DOUBLE: return n <= 2 && (bits == 0 || bits == 64);
    case AMP_SCALAR_NORM:
    case AMP_SCALAR_UNORM: return bits == 8 || bits == 16;
    default: return false;
    }
}

static int texture_bits(amp_type type, int bits)
{
    if (bits) return bits;
    amp_scalar s = amp_type_scalar(type);
    return s == AMP_SCALAR_DOUBLE ? 64 : 32;
}

static void level_dims(const texture *t, int level, int *dims)
{
    for (int k = 0; k < t->rank; k++) {
        int d = t->dims[k] >> level;
        dims[k] = d < 1 ? 1 : d;
    }
}

static size_t level_texels(const texture *t, int level)
{
    int dims[3];
    level_dims(t, level, dims);
    return extent_count(t->rank, dims);
}

static int full_chain(int rank, const int *dims)
{
    int mx = 0, levels = 1;
    for (int k = 0; k < rank; k++)
        if (dims[k] > mx) mx = dims[k];
    while (mx > 1) mx >>= 1, levels++;
    return levels;
}

static void texture_free(texture *t)
{
    for (int l = 0; l < MAX_MIPS; l++) {
        free(t->level[l]);
        free(t->known[l]);
    }
    *t = (texture){0};
}

static int live_texture(model *m, fuzz_bytes *b)
{
    int start = fuzz_below(b, MAX_TEXTURES);
    for (int i = 0; i < MAX_TEXTURES; i++)
        if (m->tx[(start + i) % MAX_TEXTURES].live) return (start + i) % MAX_TEXTURES;
    return -1;
}

static int free_texture(model *m)
{
    for (int i = 0; i < MAX_TEXTURES; i++)
        if (!m->tx[i].live) return i;
    return -1;
}

static void texture_alloc_levels(texture *t)
{
    for (int l = 0; l < t->mips; l++) {
        size_t n = level_texels(t, l);
        t->level[l] = calloc(n * t->texel + 1, 1);
        t->known[l] = calloc(n + 1, 1);
        FUZZ_CHECK(t->level[l] && t->known[l], "out of memory in the harness");
    }
}

static void op_texture_create(model *m, fuzz_bytes *b)
{
    int ti = free_texture(m);
    if (ti < 0) return;
    static const amp_scalar scalars[] = {AMP_SCALAR_INT, AMP_SCALAR_UINT, AMP_SCALAR_FLOAT, AMP_SCALAR_DOUBLE,
                                         AMP_SCALAR_NORM, AMP_SCALAR_UNORM};
    static const int bit_choices[] = {0, 8, 16, 32, 64, 12};
    amp_scalar scalar = scalars[fuzz_below(b, 6)];
    amp_type type = (amp_type)AMP_MAKE_TYPE(scalar, fuzz_range(b, 1, 4));
    int bits = bit_choices[fuzz_below(b, 6)];
    int rank = fuzz_range(b, 1, 3), dims[3] = {0};
    bool dims_ok = true;
    for (int k = 0; k < rank; k++) {
        uint8_t d = fuzz_u8(b);
        dims[k] = d == 0xFF ? 0 : 1 + d % MAX_TEX_DIM;
        if (dims[k] < 1) dims_ok = false;
    }
    int chain = dims_ok ? full_chain(rank, dims) : 1;
    int mip_choice = fuzz_below(b, 6);
    int mips_asked = mip_choice == 0 ? 0 : mip_choice == 1 ? AMP_MIP_FULL : mip_choice == 5 ? chain + 1 : mip_choice;
    int mips = mips_asked == 0 ? 1 : mips_asked == AMP_MIP_FULL ? chain : mips_asked;
    bool valid = texture_type_valid(type, bits) && dims_ok && mips >= 1 && mips <= chain;
    if (valid && mips > MAX_MIPS) return; /* beyond the model's levels */
    texture *t = &m->tx[ti];
    *t = (texture){.type = type, .bits = texture_bits(type, bits), .rank = rank, .mips = mips};
    memcpy(t->dims, dims, sizeof dims);
    t->texel = (size_t)amp_type_components(type) * (size_t)t->bits / 8;
    size_t texels = dims_ok ? extent_count(rank, dims) : 0;
    int with_data = fuzz_below(b, 4); /* 0: zeros, 1: data, 2: data_size too small, 3: larger */
    uint8_t *data = NULL;
    size_t data_size = 0;
    if (with_data && valid) {
        size_t bytes = texels * t->texel;
        data = calloc(bytes + 8, 1);
        FUZZ_CHECK(data, "out of memory in the harness");
        fill_values(m, b, (uint32_t *)data, (bytes + 3) / 4, AMP_UINT);
        data_size = with_data == 2 ? bytes - 1 : with_data == 3 ? bytes + 8 : bytes;
    }
    if (with_data == 2) valid = false;
    amp_texture *h = amp_texture_create(pick_view(b), &(amp_texture_desc){
        .extent = extent_of(rank, dims), .type = type, .bits_per_scalar_element = bits, .mip_levels = mips_asked,
        .data = data, .data_size = data_size});
    if (!valid) {
        check_refused(h ? AMP_OK : amp_last_status(), "amp_texture_create with an invalid description");
        free(data);
        *t = (texture){0};
        return;
    }
    if (!h && amp_last_status() == AMP_ERROR_UNSUPPORTED) {
        fuzz_check_validation();
        free(data);
        *t = (texture){0};
        return;
    }
    FUZZ_CHECK(h, "amp_texture_create of %s, %d bits, rank %d failed", amp_type_name(type), bits, rank);
    fuzz_check_validation();
    t->live = true;
    t->h = h;
    texture_alloc_levels(t);
    FUZZ_CHECK(amp_texture_mip_levels(h) == mips && amp_texture_texel_size(h) == t->texel &&
                   amp_texture_bits_per_scalar_element(h) == t->bits,
               "texture properties: %d levels, %zu-byte texels, %d bits; expected %d, %zu, %d",
               amp_texture_mip_levels(h), amp_texture_texel_size(h), amp_texture_bits_per_scalar_element(h), mips,
               t->texel, t->bits);
    /* level 0 holds the data or zeros; other levels are unknown until written */
    if (data) memcpy(t->level[0], data, texels * t->texel);
    memset(t->known[0], 1, texels);
    free(data);
}

/* A region as the model resolves it (ampvk/texture.h); false if the library must refuse it. */
typedef struct region_choice {
    bool null;
    amp_texture_region r;
} region_choice;

static region_choice read_region(fuzz_bytes *b, const texture *t)
{
    region_choice c = {0};
    if (fuzz_below(b, 6) == 0) {
        c.null = true;
        return c;
    }
    c.r.mip_level = fuzz_index(b, t->mips + 1);
    int level = c.r.mip_level >= 0 && c.r.mip_level < t->mips ? c.r.mip_level : 0;
    int le[3];
    level_dims(t, level, le);
    int orank = fuzz_below(b, 8) == 0 ? 0 : fuzz_below(b, 16) == 0 ? fuzz_range(b, 1, 3) : t->rank;
    int erank = fuzz_below(b, 4) == 0 ? 0 : fuzz_below(b, 16) == 0 ? fuzz_range(b, 1, 3) : t->rank;
    c.r.offset.rank = orank;
    for (int k = 0; k < orank; k++) c.r.offset.i[k] = fuzz_below(b, (k < t->rank ? le[k] : 1) + 1);
    c.r.extent.rank = erank;
    for (int k = 0; k < erank; k++) {
        int room = (k < t->rank ? le[k] : 1) - (k < orank ? c.r.offset.i[k] : 0);
        c.r.extent.dims[k] = fuzz_below(b, (room > 0 ? room : 0) + 2);
    }
    return c;
}

/* Resolves a region against a texture as the library must; false if invalid. */
static bool resolve(const texture *t, const region_choice *c, amp_texture_region *out)
{
    amp_texture_region r = {.offset = amp_index_zero(t->rank)};
    if (!c->null) r = c->r;
    if (r.mip_level < 0 || r.mip_level >= t->mips) return false;
    int le[3];
    level_dims(t, r.mip_level, le);
    if (r.offset.rank == 0) r.offset = amp_index_zero(t->rank);
    if (r.offset.rank != t->rank) return false;
    if (r.extent.rank == 0) {
        r.extent.rank = t->rank;
        for (int k = 0; k < t->rank; k++) r.extent.dims[k] = le[k] - r.offset.i[k];
    }
    if (r.extent.rank != t->rank) return false;
    for (int k = 0; k < t->rank; k++)
        if (r.offset.i[k] < 0 || r.extent.dims[k] < 0 || r.offset.i[k] + r.extent.dims[k] > le[k]) return false;
    *out = r;
    return true;
}

/* The linear texel positions of a resolved region in its level, row-major. */
static size_t region_texels(const texture *t, const amp_texture_region *r, size_t *out)
{
    int le[3], d[3] = {1, 1, 1}, o[3] = {0, 0, 0}, l[3] = {1, 1, 1};
    level_dims(t, r->mip_level, le);
    for (int k = 0; k < t->rank; k++) {
        d[3 - t->rank + k] = r->extent.dims[k];
        o[3 - t->rank + k] = r->offset.i[k];
        l[3 - t->rank + k] = le[k];
    }
    size_t n = 0;
    for (int i = 0; i < d[0]; i++)
        for (int j = 0; j < d[1]; j++)
            for (int k = 0; k < d[2]; k++)
                out[n++] = ((size_t)(o[0] + i) * (size_t)l[1] + (size_t)(o[1] + j)) * (size_t)l[2] + (size_t)(o[2] + k);
    return n;
}

static size_t *region_list(const texture *t, const amp_texture_region *r, size_t *n)
{
    size_t count = extent_count(t->rank, r->extent.dims);
    size_t *p = malloc((count ? count : 1) * sizeof *p);
    FUZZ_CHECK(p, "out of memory in the harness");
    *n = region_texels(t, r, p);
    return p;
}

static void op_texture_from_host(model *m, fuzz_bytes *b)
{
    int ti = live_texture(m, b);
    if (ti < 0) return;
    texture *t = &m->tx[ti];
    region_choice c = read_region(b, t);
    amp_texture_region r;
    bool valid = resolve(t, &c, &r);
    size_t texels = valid ? extent_count(t->rank, r.extent.dims) : 0, bytes = texels * t->texel;
    int how = fuzz_below(b, 6);
    size_t give = how == 0 && bytes ? bytes - 1 : how == 1 ? bytes + 5 : bytes;
    bool null = how == 2 && fuzz_below(b, 2);
    if (null || give < bytes) valid = false;
    bool async = fuzz_below(b, 2);
    uint8_t *src = calloc(bytes + 8, 1);
    FUZZ_CHECK(src, "out of memory in the harness");
    fill_values(m, b, (uint32_t *)src, (bytes + 3) / 4, AMP_UINT);
    const char *what = async ? "amp_texture_copy_from_host_async" : "amp_texture_copy_from_host";
    const amp_texture_region *rp = c.null ? NULL : &c.r;
    amp_future *f = NULL;
    amp_status s = async ? ((f = amp_texture_copy_from_host_async(t->h, rp, null ? NULL : src, give))
                                ? AMP_OK
                                : amp_last_status())
                         : amp_texture_copy_from_host(t->h, rp, null ? NULL : src, give);
    if (!valid) {
        check_refused(s, what);
        free(src);
        return;
    }
    check_ok(s, what);
    size_t n;
    size_t *list = region_list(t, &r, &n);
    for (size_t i = 0; i < n; i++) {
        memcpy(t->level[r.mip_level] + list[i] * t->texel, src + i * t->texel, t->texel);
        t->known[r.mip_level][list[i]] = 1;
    }
    free(list);
    memset(src, 0x5A, bytes + 8); /* staged: the caller may reuse it */
    free(src);
    if (f) pending_add(m, f, PEND_PLAIN, NULL, NULL, NULL, 0, 0, what);
}

static void op_texture_to_host(model *m, fuzz_bytes *b)
{
    int ti = live_texture(m, b);
    if (ti < 0) return;
    texture *t = &m->tx[ti];
    region_choice c = read_region(b, t);
    amp_texture_region r;
    bool valid = resolve(t, &c, &r);
    size_t texels = valid ? extent_count(t->rank, r.extent.dims) : 0, bytes = texels * t->texel, size;
    int how = fuzz_below(b, 6);
    size_t give = how == 0 && bytes ? bytes - 1 : how == 1 ? bytes + 5 : bytes;
    bool null = how == 2 && fuzz_below(b, 2);
    if (null || give < bytes) valid = false;
    bool async = fuzz_below(b, 2);
    uint8_t *buf = host_buffer(bytes + 5, &size);
    const char *what = async ? "amp_texture_copy_to_host_async" : "amp_texture_copy_to_host";
    const amp_texture_region *rp = c.null ? NULL : &c.r;
    amp_future *f = NULL;
    amp_status s = async ? ((f = amp_texture_copy_to_host_async(t->h, rp, null ? NULL : buf, give))
                                ? AMP_OK
                                : amp_last_status())
                         : amp_texture_copy_to_host(t->h, rp, null ? NULL : buf, give);
    if (!valid) {
        check_refused(s, what);
        for (size_t i = 0; i < size; i++)
            FUZZ_CHECK(buf[i] == GUARD_BYTE, "%s: a refused copy wrote byte %zu", what, i);
        free(buf);
        return;
    }
    check_ok(s, what);
    uint8_t *expect = malloc(bytes + 1), *known = malloc(bytes + 1);
    FUZZ_CHECK(expect && known, "out of memory in the harness");
    size_t n;
    size_t *list = region_list(t, &r, &n);
    for (size_t i = 0; i < n; i++) {
        memcpy(expect + i * t->texel, t->level[r.mip_level] + list[i] * t->texel, t->texel);
        memset(known + i * t->texel, t->known[r.mip_level][list[i]], t->texel);
    }
    free(list);
    if (f) {
        pending_add(m, f, PEND_HOST_BYTES, buf, expect, known, bytes, size, what);
        return;
    }
    for (size_t i = 0; i < bytes; i++)
        if (known[i])
            FUZZ_CHECK(buf[i] == expect[i], "%s: byte %zu (texel %zu, %s of %d bits, level %d) is 0x%02x, expected "
                       "0x%02x", what, i, i / t->texel, amp_type_name(t->type), t->bits, r.mip_level, buf[i],
                       expect[i]);
    for (size_t i = bytes; i < size; i++) FUZZ_CHECK(buf[i] == GUARD_BYTE, "%s: wrote byte %zu of %zu", what, i, bytes);
    free(buf);
    free(expect);
    free(known);
}

static bool regions_overlap(const amp_texture_region *a, const amp_texture_region *b, int rank)
{
    if (a->mip_level != b->mip_level) return false;
    for (int k = 0; k < rank; k++)
        if (a->offset.i[k] >= b->offset.i[k] + b->extent.dims[k] ||
            b->offset.i[k] >= a->offset.i[k] + a->extent.dims[k])
            return false;
    return true;
}

static void op_texture_copy(model *m, fuzz_bytes *b)
{
    int si = live_texture(m, b), di = live_texture(m, b);
    if (si < 0 || di < 0) return;
    texture *src = &m->tx[si], *dst = &m->tx[di];
    region_choice sc = read_region(b, src), dc = read_region(b, dst);
    bool async = fuzz_below(b, 2);
    bool valid = src->type == dst->type && src->bits == dst->bits;
    bool whole = sc.null && dc.null;
    if (valid && whole) {
        valid = src->rank == dst->rank && src->mips == dst->mips;
        for (int k = 0; valid && k < src->rank; k++) valid = src->dims[k] == dst->dims[k];
    }
    amp_texture_region sr, dr;
    if (valid) valid = resolve(src, &sc, &sr);
    if (valid) {
        region_choice want = {.r = {.offset = dc.null ? amp_index_zero(dst->rank) : dc.r.offset, .extent = sr.extent,
                                    .mip_level = dc.null ? sr.mip_level : dc.r.mip_level}};
        valid = resolve(dst, &want, &dr);
    }
    /* regions of one texture must not overlap; for empty regions the library may
     * refuse or not */
    bool either = false;
    if (valid && src == dst && regions_overlap(&sr, &dr, src->rank)) {
        if (extent_count(src->rank, sr.extent.dims)) valid = false;
        else either = true;
    }
    const char *what = async ? "amp_texture_copy_async" : "amp_texture_copy";
    amp_future *f = NULL;
    amp_status s = async ? ((f = amp_texture_copy_async(src->h, sc.null ? NULL : &sc.r, dst->h, dc.null ? NULL : &dc.r))
                                ? AMP_OK
                                : amp_last_status())
                         : amp_texture_copy(src->h, sc.null ? NULL : &sc.r, dst->h, dc.null ? NULL : &dc.r);
    if (either) {
        if (f) pending_add(m, f, PEND_PLAIN, NULL, NULL, NULL, 0, 0, what);
        fuzz_check_validation();
        return;
    }
    if (!valid) {
        check_refused(s, what);
        return;
    }
    check_ok(s, what);
    if (whole) {
        for (int l = 0; l < src->mips && src != dst; l++) {
            size_t n = level_texels(src, l);
            memcpy(dst->level[l], src->level[l], n * src->texel);
            memcpy(dst->known[l], src->known[l], n);
        }
    } else {
        size_t n, n2;
        size_t *ls = region_list(src, &sr, &n), *ld = region_list(dst, &dr, &n2);
        FUZZ_CHECK(n == n2, "harness: regions of %zu and %zu texels", n, n2);
        uint8_t *tmp = malloc(n * src->texel + 1), *kn = malloc(n + 1);
        FUZZ_CHECK(tmp && kn, "out of memory in the harness");
        for (size_t i = 0; i < n; i++) {
            memcpy(tmp + i * src->texel, src->level[sr.mip_level] + ls[i] * src->texel, src->texel);
            kn[i] = src->known[sr.mip_level][ls[i]];
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(dst->level[dr.mip_level] + ld[i] * dst->texel, tmp + i * src->texel, src->texel);
            dst->known[dr.mip_level][ld[i]] = kn[i];
        }
        free(tmp);
        free(kn);
        free(ls);
        free(ld);
    }
    if (f) pending_add(m, f, PEND_PLAIN, NULL, NULL, NULL, 0, 0, what);
}

static void op_texture_clone(model *m, fuzz_bytes *b)
{
    int si = live_texture(m, b), ti = free_texture(m);
    if (si < 0 || ti < 0) return;
    texture *src = &m->tx[si], *t = &m->tx[ti];
    amp_texture *h = amp_texture_clone(src->h, NULL);
    FUZZ_CHECK(h, "amp_texture_clone failed");
    fuzz_check_validation();
    *t = *src;
    t->h = h;
    for (int l = 0; l < MAX_MIPS; l++) t->level[l] = t->known[l] = NULL;
    texture_alloc_levels(t);
    for (int l = 0; l < t->mips; l++) {
        size_t n = level_texels(t, l);
        memcpy(t->level[l], src->level[l], n * t->texel);
        memcpy(t->known[l], src->known[l], n);
    }
}

static void op_texture_destroy(model *m, fuzz_bytes *b)
{
    int ti = live_texture(m, b);
    if (ti < 0) return;
    amp_texture_destroy(&m->tx[ti].h);
    FUZZ_CHECK(!m->tx[ti].h, "amp_texture_destroy left the handle");
    texture_free(&m->tx[ti]);
    fuzz_check_validation();
}

/* ---- the run ---- */

typedef struct op_entry {
    void (*fn)(model *m, fuzz_bytes *b);
    const char *name;
} op_entry;
#define OP(f) {op_##f, #f}
/* The first byte of each call picks its entry (tests/fuzz/make_corpus.py writes the same table). */
static const op_entry ops[] = {
    OP(create), OP(create), OP(create_invalid), OP(view_over_host), OP(section), OP(section), OP(project),
    OP(view_as), OP(reinterpret), OP(view_of_array), OP(destroy), OP(copy_to_host), OP(copy_to_host),
    OP(copy_from_host), OP(copy), OP(copy), OP(synchronize), OP(discard), OP(host_write), OP(get_set), OP(data),
    OP(kernel), OP(kernel), OP(kernel), OP(wait), OP(texture_create), OP(texture_from_host), OP(texture_to_host),
    OP(texture_copy), OP(texture_clone), OP(texture_destroy),
};
#undef OP

/* Every view read back once more, then everything destroyed (views over host
 * memory write back on their last destroy). */
static void finish(model *m)
{
    for (int i = 0; i < MAX_PENDING; i++) pending_finish(m, i, true);
    for (int i = 0; i < MAX_VIEWS; i++) {
        view *v = &m->v[i];
        if (!v->live) continue;
        size_t n = extent_count(v->rank, v->dims), size;
        uint8_t *buf = host_buffer(n * 4, &size);
        check_ok(amp_copy_to_host(v->h, buf, n * 4), "the final amp_copy_to_host");
        check_elements(m, v, (const uint32_t *)buf, "the final amp_copy_to_host");
        free(buf);
    }
    for (int i = 0; i < MAX_TEXTURES; i++) {
        texture *t = &m->tx[i];
        if (!t->live) continue;
        for (int l = 0; l < t->mips; l++) {
            size_t n = level_texels(t, l), size;
            uint8_t *buf = host_buffer(n * t->texel, &size);
            check_ok(amp_texture_copy_to_host(t->h, &(amp_texture_region){.mip_level = l}, buf, n * t->texel),
                     "the final amp_texture_copy_to_host");
            for (size_t k = 0; k < n * t->texel; k++)
                if (t->known[l][k / t->texel])
                    FUZZ_CHECK(buf[k] == t->level[l][k],
                               "final texture %d level %d byte %zu is 0x%02x, expected 0x%02x", i, l, k, buf[k],
                               t->level[l][k]);
            free(buf);
        }
        amp_texture_destroy(&t->h);
        texture_free(t);
    }
    /* views first (a host storage's last one writes back), then the arrays */
    for (int i = 0; i < MAX_VIEWS; i++)
        if (m->v[i].live && !m->v[i].embedded) {
            amp_array_view_destroy(&m->v[i].h);
            view_release(m, i);
        }
    for (int i = 0; i < MAX_VIEWS; i++)
        if (m->v[i].live) {
            storage *s = &m->st[m->v[i].storage];
            amp_array_destroy(&s->array);
            view_release(m, i);
        }
    for (int i = 0; i < MAX_STORAGES; i++)
        FUZZ_CHECK(!m->st[i].live, "harness: storage %d outlived its views", i);
    fuzz_check_validation();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static model m;
    memset(&m, 0, sizeof m);
    fuzz_bytes b = {data, size, 0};
    if (trace < 0) trace = getenv("FUZZ_API_TRACE") && atoi(getenv("FUZZ_API_TRACE"));
    for (int n = 0; n < MAX_OPS && fuzz_more(&b); n++) {
        const op_entry *e = &ops[fuzz_u8(&b) % (sizeof ops / sizeof *ops)];
        if (trace) fprintf(stderr, "fuzz_api: %s\n", e->name);
        e->fn(&m, &b);
    }
    finish(&m);
    return 0;
}
