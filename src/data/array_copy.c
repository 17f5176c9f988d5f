/* Moving a view's elements: synchronization with the host and devices, copies
 * between views and between a view and host memory, and element access. */
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

/* ---- synchronization ---- */

typedef struct pull_job {
    amp__data *data;
    uint64_t version;
} pull_job;

/* The whole storage arrived in staging: it becomes the host copy, unless a device
 * write came after the download was recorded. */
static void unpack_pull(void *ctx, const void *staged, bool ok)
{
    pull_job *j = ctx;
    amp__data *d = j->data;
    if (ok && j->version == d->version && !d->host_valid) {
        amp__trace_memcpy(d->host, staged, d->size, "staging to host");
        d->host_valid = true;
    }
    amp__data_release(d);
}

amp_status amp_array_view_synchronize(amp_array_view *v)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_synchronize: NULL view");
    if (amp__data_usable(v->data, "amp_array_view_synchronize") != AMP_OK) return amp_last_status();
    if (v->data->array) {
        /* the data lives on the device; wait for work on it */
        amp__lock(v->data->dev);
        amp_status s = amp__data_wait_idle(v->data);
        amp__unlock(v->data->dev);
        return s;
    }
    return amp__data_pull_host(v->data);
}

static amp_future *done_future(amp_status s)
{
    if (s != AMP_OK) return NULL;
    amp_future *f = calloc(1, sizeof *f);
    if (!f) amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    else f->done = true;
    return f;
}

amp_future *amp_array_view_synchronize_async(amp_array_view *v)
{
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_synchronize_async: NULL view");
        return NULL;
    }
    amp__data *d = v->data;
    if (amp__data_usable(d, "amp_array_view_synchronize_async") != AMP_OK) return NULL;
    if (d->array || d->host_valid || !d->device_valid || !d->buf.buffer) {
        if (d->array) {
            amp_accelerator_view *h = d->array->av;
            amp__lock(h->dev);
            amp_status s = amp__data_submit_last_use(d);
            amp_future *f = s == AMP_OK ? amp__future_new(h->dev, d->track.last_serial, (amp__host_action){0}) : NULL;
            amp__unlock(h->dev);
            return f;
        }
        return done_future(amp__data_pull_host(d));
    }
    if (amp__data_ensure_host(d) != AMP_OK) return NULL;
    amp__lock(d->dev);
    amp_array_view w = amp__data_whole_view(d);
    amp__staging *st = NULL;
    uint64_t serial = 0;
    amp_future *f = NULL;
    if (amp__view_download(&w, &st, &serial) == AMP_OK) {
        d->refs++;
        f = amp__readback_future(d->dev, serial, st, unpack_pull, &(pull_job){d, d->version}, sizeof(pull_job));
    }
    amp__unlock(d->dev);
    return f;
}

amp_status amp_array_view_synchronize_to(amp_array_view *v, amp_accelerator_view *target)
{
    if (!v || !target) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_synchronize_to: NULL argument");
    if (amp__data_usable(v->data, "amp_array_view_synchronize_to") != AMP_OK) return amp_last_status();
    amp__lock(target->dev);
    amp__data *d = v->data;
    amp_status s = amp__data_ensure_buffer(d, target);
    /* an explicit upload of a large host range reads it in place and waits, so the
     * application may change its memory once this returns */
    if (s == AMP_OK && !d->device_valid && d->host && d->host_valid && amp__data_import(d)) {
        s = amp__data_transfer_imported(d, target, true);
        if (s == AMP_OK) d->device_valid = true;
    }
    if (s == AMP_OK) s = amp__data_push_device(d, target);
    if (s == AMP_OK) s = amp__view_submit(target);
    amp__unlock(target->dev);
    return s;
}

amp_future *amp_array_view_synchronize_to_async(amp_array_view *v, amp_accelerator_view *target)
{
    if (amp_array_view_synchronize_to(v, target) != AMP_OK) return NULL;
    return amp_view_create_marker(target);
}

amp_status amp_array_view_discard_data(amp_array_view *v)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_discard_data: NULL view");
    amp__data *d = v->data;
    /* Only a view of the whole storage can drop it; a section's neighbours must
     * still reach the device, so discarding a section is a no-op. */
    if (!d->array && amp__view_bytes(v) == d->size && !d->device_valid) d->device_valid = true;
    return AMP_OK;
}

amp_status amp_array_view_refresh(amp_array_view *v)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_refresh: NULL view");
    amp__data *d = v->data;
    if (d->array || !d->host) return AMP_OK;
    d->host_valid = true;
    d->device_valid = false;
    return AMP_OK;
}

/* ---- copies ---- */

typedef struct host_copy_ctx {
    char *storage;  /* storage base */
    char *packed;   /* packed buffer */
    bool to_storage;
} host_copy_ctx;

static void host_run(void *ctx, size_t storage_off, size_t packed_off, size_t len)
{
    host_copy_ctx *c = ctx;
    if (c->to_storage) memcpy(c->storage + storage_off, c->packed + packed_off, len);
    else memcpy(c->packed + packed_off, c->storage + storage_off, len);
}

typedef struct to_host_job {
    void *dst;
    size_t bytes;
} to_host_job;

static void unpack_to_host(void *ctx, const void *staged, bool ok)
{
    to_host_job *j = ctx;
    if (ok) amp__trace_memcpy(j->dst, staged, j->bytes, "staging to host");
}

static amp_status check_view(const char *who, const amp_array_view *v)
{
    return v ? amp__data_usable(v->data, who) : amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL view", who);
}

/* The device-side copy of a view's elements to host memory: returns a future, or
 * completes synchronously when the host copy is current. */
static amp_future *copy_to_host(amp_array_view *src, void *dst, size_t dst_size, bool async)
{
    const char *who = async ? "amp_copy_to_host_async" : "amp_copy_to_host";
    if (check_view(who, src)) return NULL;
    size_t bytes = amp__view_bytes(src);
    if (!dst || dst_size < bytes) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: destination holds %zu bytes but the view has %zu", who,
                  dst ? dst_size : 0, bytes);
        return NULL;
    }
    amp__data *d = src->data;
    if (!d->array && (d->host_valid || !d->device_valid || !d->buf.buffer)) {
        if (amp__data_ensure_host(d) != AMP_OK) return NULL;
        if (!d->device_valid) d->host_valid = true;
        host_copy_ctx c = {.storage = d->host, .packed = dst, .to_storage = false};
        amp__view_for_each_run(src, host_run, &c);
        return done_future(AMP_OK);
    }
    amp__lock(d->dev);
    amp__staging *st = NULL;
    uint64_t serial = 0;
    amp_future *f = NULL;
    if (amp__view_download(src, &st, &serial) == AMP_OK)
        f = amp__readback_future(d->dev, serial, st, unpack_to_host, &(to_host_job){dst, bytes}, sizeof(to_host_job));
    amp__unlock(d->dev);
    return f;
}

amp_status amp_copy_to_host(amp_array_view *src, void *dst, size_t dst_size)
{
    amp_future *f = copy_to_host(src, dst, dst_size, false);
    if (!f) return amp_last_status();
    amp_status s = amp_future_wait(f);
    amp_future_destroy(&f);
    return s;
}

amp_future *amp_copy_to_host_async(amp_array_view *src, void *dst, size_t dst_size)
{
    return copy_to_host(src, dst, dst_size, true);
}

static amp_status copy_from_host(const void *src, size_t src_size, amp_array_view *dst, const char *who)
{
    if (check_view(who, dst)) return amp_last_status();
    size_t bytes = amp__view_bytes(dst);
    if (!src || src_size != bytes)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source holds %zu bytes but the view needs exactly %zu", who,
                         src ? src_size : 0, bytes);
    if (dst->is_const) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the destination view is read-only", who);
    amp__data *d = dst->data;
    /* host-current, or without a device copy yet (a discarded view never used on a
     * device claims device data that does not exist) */
    if (!d->array && (d->host_valid || !d->device_valid || !d->buf.buffer)) {
        amp_status s = amp__data_ensure_host(d);
        if (s != AMP_OK) return s;
        /* keep the rest of the storage: the host copy must be current before a partial write */
        s = amp__data_pull_host(d);
        if (s != AMP_OK) return s;
        host_copy_ctx c = {.storage = d->host, .packed = (char *)src, .to_storage = true};
        amp__view_for_each_run(dst, host_run, &c);
        d->host_valid = true;
        d->device_valid = false;
        return AMP_OK;
    }
    amp_accelerator_view *v = d->array ? d->array->av : d->home;
    amp__lock(v->dev);
    amp_status s = amp__view_upload(dst, v, src);
    if (s == AMP_OK) d->host_valid = false;
    amp__unlock(v->dev);
    return s;
}

amp_status amp_copy_from_host(const void *src, size_t src_size, amp_array_view *dst)
{
    return copy_from_host(src, src_size, dst, "amp_copy_from_host");
}

amp_future *amp_copy_from_host_async(const void *src, size_t src_size, amp_array_view *dst)
{
    amp_status s = copy_from_host(src, src_size, dst, "amp_copy_from_host_async");
    if (s != AMP_OK) return NULL;
    amp_accelerator_view *v = dst->data->array ? dst->data->array->av : dst->data->home;
    /* the source bytes were staged, so the caller may reuse them at once */
    return v && dst->data->dev ? amp_view_create_marker(v) : done_future(AMP_OK);
}

/* The byte runs of a view in storage order (amp__view_for_each_run yields them ascending). */
typedef struct run_list {
    size_t (*r)[2]; /* offset, length */
    size_t n;
} run_list;

static void collect_run(void *ctx, size_t storage_off, size_t packed_off, size_t len)
{
    run_list *l = ctx;
    (void)packed_off;
    l->r[l->n][0] = storage_off;
    l->r[l->n][1] = len;
    l->n++;
}

/* One past the last byte a view touches. */
static size_t view_end(const amp_array_view *v)
{
    int64_t last = 0;
    for (int k = 0; k < v->extent.rank; k++) last += (int64_t)(v->extent.dims[k] - 1) * v->stride[k];
    return v->offset + (size_t)(last + 1) * v->elem;
}

static size_t run_count(const amp_array_view *v)
{
    if (amp__view_contiguous(v)) return 1;
    size_t n = 1;
    for (int k = 0; k + 1 < v->extent.rank; k++) n *= (size_t)v->extent.dims[k];
    return n;
}

/* True if the two views share a byte of the same storage. Sections are strided, so
 * their spans may interleave without sharing an element (the left and right halves
 * of a matrix): the runs are compared, not just the spans. */
static bool ranges_overlap(const amp_array_view *a, const amp_array_view *b)
{
    if (a->data != b->data || !amp__view_bytes(a) || !amp__view_bytes(b)) return false;
    if (a->offset >= view_end(b) || b->offset >= view_end(a)) return false;
    run_list la = {malloc(run_count(a) * sizeof *la.r), 0}, lb = {malloc(run_count(b) * sizeof *lb.r), 0};
    bool overlap = true; /* out of memory: refuse the copy rather than risk it */
    if (la.r && lb.r) {
        amp__view_for_each_run(a, collect_run, &la);
        amp__view_for_each_run(b, collect_run, &lb);
        overlap = false;
        for (size_t i = 0, j = 0; i < la.n && j < lb.n && !overlap;) {
            size_t a0 = la.r[i][0], a1 = a0 + la.r[i][1], b0 = lb.r[j][0], b1 = b0 + lb.r[j][1];
            if (a0 < b1 && b0 < a1) overlap = true;
            else if (a1 <= b0) i++;
            else j++;
        }
    }
    free(la.r);
    free(lb.r);
    return overlap;
}

/* A device-to-device copy of matching runs. */
typedef struct pair_ctx {
    const amp_array_view *src, *dst;
    VkBufferCopy regions[64];
    uint32_t count;
    VkCommandBuffer cmd;
    VkBuffer src_buf, dst_buf;
    VkDeviceSize src_base, dst_base; /* the storages' starts in their buffers */
    size_t dst_runs[64];
} pair_ctx;

static void src_run(void *ctx, size_t storage_off, size_t packed_off, size_t len);

typedef struct dst_lookup {
    size_t packed, found;
} dst_lookup;

static void find_dst(void *ctx, size_t storage_off, size_t packed_off, size_t len)
{
    dst_lookup *l = ctx;
    (void)len;
    if (packed_off == l->packed) l->found = storage_off;
}

static void src_run(void *ctx, size_t storage_off, size_t packed_off, size_t len)
{
    pair_ctx *c = ctx;
    /* both views have the same extent, so their runs line up one to one */
    dst_lookup l = {packed_off, 0};
    if (amp__view_contiguous(c->dst)) l.found = c->dst->offset + packed_off;
    else amp__view_for_each_run(c->dst, find_dst, &l);
    if (c->count == 64) {
        vkCmdCopyBuffer(c->cmd, c->src_buf, c->dst_buf, c->count, c->regions);
        c->count = 0;
    }
    c->regions[c->count++] = (VkBufferCopy){c->src_base + storage_off, c->dst_base + l.found, len};
}

/* The destination's runs against a contiguous source: a contiguous source is one
 * run, but a strided destination is several, so the copy follows the destination. */
static void dst_run(void *ctx, size_t storage_off, size_t packed_off, size_t len)
{
    pair_ctx *c = ctx;
    if (c->count == 64) {
        vkCmdCopyBuffer(c->cmd, c->src_buf, c->dst_buf, c->count, c->regions);
        c->count = 0;
    }
    c->regions[c->count++] = (VkBufferCopy){c->src_base + c->src->offset + packed_off, c->dst_base + storage_off, len};
}

/* Checks that src may be copied into dst: both valid, same extent and element size, dst writable, no overlap. */
static amp_status check_copy(amp_array_view *src, amp_array_view *dst, const char *who)
{
    char a[48], b[48];
    if (check_view(who, src) || check_view(who, dst)) return amp_last_status();
    if (!amp_extent_equal(src->extent, dst->extent))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source extent %s differs from destination extent %s", who,
                         amp_extent_format(src->extent, a, sizeof a), amp_extent_format(dst->extent, b, sizeof b));
    if (src->elem != dst->elem)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source elements are %zu bytes, destination elements %zu",
                         who, src->elem, dst->elem);
    if (dst->is_const) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the destination view is read-only", who);
    if (ranges_overlap(src, dst))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source and destination overlap in the same memory", who);
    return AMP_OK;
}

/* Copies between two views that are both current on the host, through a packed buffer. */
static amp_status copy_on_host(amp_array_view *src, amp_array_view *dst)
{
    amp__data *sd = src->data, *dd = dst->data;
    if (amp__data_ensure_host(sd) != AMP_OK || amp__data_ensure_host(dd) != AMP_OK) return amp_last_status();
    if (!sd->device_valid) sd->host_valid = true;
    size_t bytes = amp__view_bytes(src);
    char *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", bytes);
    host_copy_ctx c = {.storage = sd->host, .packed = tmp, .to_storage = false};
    amp__view_for_each_run(src, host_run, &c);
    c = (host_copy_ctx){.storage = dd->host, .packed = tmp, .to_storage = true};
    amp__view_for_each_run(dst, host_run, &c);
    free(tmp);
    dd->host_valid = true;
    dd->device_valid = false;
    return AMP_OK;
}

/* Packs a source that is current on the host and stages it straight into the destination. */
static amp_status stage_host_source(amp_array_view *src, amp_array_view *dst, const char *who)
{
    amp__data *sd = src->data;
    if (amp__data_ensure_host(sd) != AMP_OK) return amp_last_status();
    size_t bytes = amp__view_bytes(src);
    char *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", bytes);
    host_copy_ctx c = {.storage = sd->host, .packed = tmp, .to_storage = false};
    amp__view_for_each_run(src, host_run, &c);
    amp_status s = copy_from_host(tmp, bytes, dst, who);
    free(tmp);
    return s;
}

/* Copies between views on different devices, through the host. */
static amp_status copy_across_devices(amp_array_view *src, amp_array_view *dst, const char *who)
{
    size_t bytes = amp__view_bytes(src);
    char *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", bytes);
    amp_status s = amp_copy_to_host(src, tmp, bytes);
    if (s == AMP_OK) s = copy_from_host(tmp, bytes, dst, who);
    free(tmp);
    return s;
}

/* Orders both views' data on v and gives the destination a device buffer that is current on v. */
static amp_status prepare_device_copy(amp_array_view *src, amp_array_view *dst, amp_accelerator_view *v)
{
    amp__data *sd = src->data, *dd = dst->data;
    amp_status s = amp__data_order(sd, v);
    if (s == AMP_OK && dd->dev == v->dev) s = amp__data_order(dd, v);
    /* the destination's other elements must be current on the device before a partial
     * write; a whole one becomes current when the copy is recorded */
    if (s == AMP_OK && (!dd->device_valid || !dd->buf.buffer)) {
        if (amp__view_bytes(dst) == dd->size && !dd->array) s = amp__data_ensure_buffer(dd, v);
        else s = amp__data_push_device(dd, v);
    }
    return s;
}

/* Records the buffer-to-buffer copy of matching runs in batch bt, with its barriers, and marks dst current there. */
static amp_status record_device_copy(amp_array_view *src, amp_array_view *dst, amp_accelerator_view *v,
                                     amp__batch *bt)
{
    amp__data *sd = src->data, *dd = dst->data;
    amp__barrier bar = {0};
    uint64_t serial = amp__batch_serial(bt);
    amp__track_access(&sd->track, sd->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                      false, serial, &bar);
    amp__track_access(&dd->track, dd->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      true, serial, &bar);
    VkCommandBuffer cmd = amp__batch_cmd(bt);
    amp__barrier_record(v, cmd, &bar);
    pair_ctx c = {.src = src, .dst = dst, .cmd = cmd, .src_buf = sd->buf.buffer, .dst_buf = dd->buf.buffer,
                  .src_base = sd->base, .dst_base = dd->base};
    /* runs line up when both views are strided (rows of the same extent) or the
     * destination is contiguous; a contiguous source into a strided destination
     * must be split at the destination's rows */
    uint32_t timing = amp__profile_begin(bt, "device copy", amp__view_bytes(src));
    if (amp__view_contiguous(src) && !amp__view_contiguous(dst)) amp__view_for_each_run(dst, dst_run, &c);
    else amp__view_for_each_run(src, src_run, &c);
    if (c.count) vkCmdCopyBuffer(cmd, c.src_buf, c.dst_buf, c.count, c.regions);
    amp__profile_end(bt, timing);
    dd->host_valid = false;
    dd->device_valid = true;
    dd->version++;
    dd->home = v;
    sd->home = v;
    v->stats.device_copies++;
    return amp__view_command_done(v);
}

/* Copies on the device of view v, where the source is current, under the device's lock. */
static amp_status copy_on_device(amp_array_view *src, amp_array_view *dst, amp_accelerator_view *v)
{
    amp__lock(v->dev);
    amp_status s = prepare_device_copy(src, dst, v);
    amp__batch *bt = s == AMP_OK ? amp__batch_current(v) : NULL;
    if (bt) s = record_device_copy(src, dst, v, bt);
    else if (s == AMP_OK) s = amp_last_status();
    amp__unlock(v->dev);
    return s;
}

static amp_status copy_views(amp_array_view *src, amp_array_view *dst, const char *who)
{
    amp_status s = check_copy(src, dst, who);
    if (s != AMP_OK) return s;
    amp__data *sd = src->data, *dd = dst->data;
    bool src_host = !sd->array && (sd->host_valid || !sd->device_valid || !sd->buf.buffer);
    bool dst_host = !dd->array && (dd->host_valid || !dd->device_valid || !dd->buf.buffer);
    if (src_host && dst_host) return copy_on_host(src, dst);
    /* the source is current on the host: stage it straight into the destination */
    if (src_host) return stage_host_source(src, dst, who);
    /* the source is current on a device: copy there */
    amp_accelerator_view *v = sd->array ? sd->array->av : sd->home;
    /* different devices: through the host */
    if (dd->dev && dd->dev != v->dev) return copy_across_devices(src, dst, who);
    return copy_on_device(src, dst, v);
}

amp_status amp_copy(amp_array_view *src, amp_array_view *dst) { return copy_views(src, dst, "amp_copy"); }

amp_future *amp_copy_async(amp_array_view *src, amp_array_view *dst)
{
    if (copy_views(src, dst, "amp_copy_async") != AMP_OK) return NULL;
    amp__data *dd = dst->data;
    amp_accelerator_view *v = dd->array ? dd->array->av : dd->home;
    return v && dd->device_valid && !dd->host_valid ? amp_view_create_marker(v) : done_future(AMP_OK);
}

/* ---- element access ---- */

static amp_status element_offset(const char *who, amp_array_view *v, amp_index idx, size_t *off)
{
    char a[48], b[48];
    if (check_view(who, v)) return amp_last_status();
    if (!amp_extent_contains(v->extent, idx))
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: index %s is outside extent %s", who,
                         amp_index_format(idx, a, sizeof a), amp_extent_format(v->extent, b, sizeof b));
    size_t o = v->offset;
    for (int k = 0; k < idx.rank; k++) o += (size_t)(idx.i[k] * v->stride[k]) * v->elem;
    *off = o;
    return AMP_OK;
}

amp_status amp_array_view_get(amp_array_view *v, amp_index idx, void *out)
{
    size_t off = 0;
    amp_status s = element_offset("amp_array_view_get", v, idx, &off);
    if (s != AMP_OK) return s;
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_get: NULL output");
    if (v->data->array) {
        amp_array_view one = *v;
        one.extent = amp_extent1(1);
        one.offset = off;
        amp__view_set_dense_strides(&one);
        return amp_copy_to_host(&one, out, v->elem);
    }
    s = amp__data_pull_host(v->data);
    if (s == AMP_OK) memcpy(out, (char *)v->data->host + off, v->elem);
    return s;
}

amp_status amp_array_view_set(amp_array_view *v, amp_index idx, const void *in)
{
    size_t off = 0;
    amp_status s = element_offset("amp_array_view_set", v, idx, &off);
    if (s != AMP_OK) return s;
    if (!in) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_set: NULL input");
    amp_array_view one = *v;
    one.extent = amp_extent1(1);
    one.offset = off;
    amp__view_set_dense_strides(&one);
    return copy_from_host(in, v->elem, &one, "amp_array_view_set");
}

void *amp_array_view_data(amp_array_view *v)
{
    if (check_view("amp_array_view_data", v)) return NULL;
    if (v->data->array || v->extent.rank != 1) {
        amp__fail(AMP_ERROR_INVALID_STATE, "amp_array_view_data: only rank-1 views of host memory have data()");
        return NULL;
    }
    if (amp__data_pull_host(v->data) != AMP_OK) return NULL;
    /* the caller may write through the pointer: the device copy is stale from now */
    v->data->device_valid = false;
    return (char *)v->data->host + v->offset;
}
