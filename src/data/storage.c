/* The storage that arrays and array_views share (see include/ampvk/array.h): the
 * geometry of views over it, its host and device copies and the moves that make one
 * current, what a kernel needs to bind a view, and what a view's destruction changes.
 *
 * All views of the same memory share one amp__data: the host copy (if any), the
 * device buffer (if any) and which of the two is current. Validity is kept for
 * the whole storage: a kernel that writes a section makes the device copy the
 * current one, and synchronize brings the whole storage back. Host-side memory
 * is row-major and tightly packed; a view is an offset and strides into it. */
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

pthread_mutex_t amp__data_registry_lock = PTHREAD_MUTEX_INITIALIZER;
amp__data *amp__data_registry;
static pthread_mutex_t storages_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__data *storages;

/* ---- geometry ---- */

void amp__view_set_dense_strides(amp_array_view *v)
{
    int64_t s = 1;
    for (int k = v->extent.rank - 1; k >= 0; k--) {
        v->stride[k] = s;
        s *= v->extent.dims[k];
    }
}

size_t amp__view_bytes(const amp_array_view *v) { return amp_extent_size(v->extent) * v->elem; }

bool amp__view_contiguous(const amp_array_view *v)
{
    int64_t s = 1;
    for (int k = v->extent.rank - 1; k >= 0; k--) {
        if (v->extent.dims[k] > 1 && v->stride[k] != s) return false;
        s *= v->extent.dims[k];
    }
    return true;
}

void amp__view_for_each_run(const amp_array_view *v, amp__run_fn fn, void *ctx)
{
    if (amp_extent_size(v->extent) == 0) return;
    if (amp__view_contiguous(v)) {
        fn(ctx, v->offset, 0, amp__view_bytes(v));
        return;
    }
    int r = v->extent.rank;
    size_t row = (size_t)v->extent.dims[r - 1] * v->elem;
    int d0 = r == 3 ? v->extent.dims[0] : 1, d1 = r >= 2 ? v->extent.dims[r - 2] : 1;
    int64_t s0 = r == 3 ? v->stride[0] : 0, s1 = r >= 2 ? v->stride[r - 2] : 0;
    size_t packed = 0;
    for (int i = 0; i < d0; i++)
        for (int j = 0; j < d1; j++, packed += row)
            fn(ctx, v->offset + (size_t)(i * s0 + j * s1) * v->elem, packed, row);
}

void amp__view_geometry(const amp_array_view *v, int64_t *offset, int64_t strides[2])
{
    *offset = (int64_t)(v->offset / v->elem);
    strides[0] = v->extent.rank >= 2 ? v->stride[0] : 0;
    strides[1] = v->extent.rank >= 3 ? v->stride[1] : 0;
}

/* ---- storage ---- */

static void storage_forget_view(amp_accelerator_view *v, bool device_closing);
static pthread_once_t observe_once = PTHREAD_ONCE_INIT;
static amp_status observe_status;
static void observe_views(void) { observe_status = amp__view_observe_destroy(storage_forget_view); }

amp__data *amp__data_new(size_t size, void *host)
{
    pthread_once(&observe_once, observe_views);
    if (observe_status != AMP_OK) {
        amp__fail(observe_status, "cannot watch views for storage");
        return NULL;
    }
    amp__data *d = calloc(1, sizeof *d);
    if (!d) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    d->refs = 1;
    d->size = size;
    d->host = host;
    d->host_valid = host != NULL;
    pthread_mutex_lock(&storages_lock);
    d->all_next = storages;
    storages = d;
    pthread_mutex_unlock(&storages_lock);
    return d;
}

void amp__data_free(amp__data *d)
{
    pthread_mutex_lock(&storages_lock);
    for (amp__data **p = &storages; *p; p = &(*p)->all_next)
        if (*p == d) {
            *p = d->all_next;
            break;
        }
    pthread_mutex_unlock(&storages_lock);
    free(d);
}

/* Lets go of the device buffer (the application's wrapped one is only forgotten). */
static void data_drop_buffer(amp__data *d)
{
    if (d->wrapped) d->buf = (amp__buffer){0};
    else amp__buffer_destroy(d->dev, &d->buf);
    d->wrapped = false;
    d->base = 0;
}

/* AMP_OK unless the application holds the storage (an exported array). */
amp_status amp__data_usable(const amp__data *d, const char *who)
{
    return d->held ? amp__fail(AMP_ERROR_INVALID_STATE,
                               "%s: the array is held by the application (amp_array_export); "
                               "amp_array_import gives it back to ampvk first", who)
                   : AMP_OK;
}

/* Submits h's recording batch if it may hold a use of the storage. */
static amp_status submit_if_used(amp__data *d, amp_accelerator_view *h)
{
    return amp__view_submit_through(h, d->track.last_serial);
}

/* Submits the batches that may hold the storage's last use: that of the view of
 * its last device use (d->home, which for an array may be another view of the same
 * device than its own) and that of the array's view. */
amp_status amp__data_submit_last_use(amp__data *d)
{
    if (!d->dev || !d->track.last_serial) return AMP_OK;
    amp_status s = submit_if_used(d, d->home);
    if (s == AMP_OK && d->array && d->array->av != d->home) s = submit_if_used(d, d->array->av);
    return s;
}

/* Before the storage is used on view v: if its last use is still recording in
 * another view's batch, submit that batch first. All views of a device share its
 * queue, so submission order is the order the tracker's barriers in v's batch
 * assume; without this, v's command could run before the earlier use. */
amp_status amp__data_order(amp__data *d, amp_accelerator_view *v)
{
    if (!d->dev || d->home == v || !d->home || d->home->dev != v->dev) return AMP_OK;
    return submit_if_used(d, d->home);
}

/* Submits the batch holding the storage's last use if it is still recording, and
 * waits for that use to finish. */
amp_status amp__data_wait_idle(amp__data *d)
{
    if (!d->dev || !d->track.last_serial) return AMP_OK;
    amp_status s = amp__data_submit_last_use(d);
    if (s != AMP_OK) return s;
    return amp__device_wait_serial(d->dev, d->track.last_serial, UINT64_MAX);
}

void amp__data_release(amp__data *d)
{
    if (--d->refs > 0) return;
    if (d->host && !d->host_owned) {
        pthread_mutex_lock(&amp__data_registry_lock);
        for (amp__data **p = &amp__data_registry; *p; p = &(*p)->next)
            if (*p == d) {
                *p = d->next;
                break;
            }
        pthread_mutex_unlock(&amp__data_registry_lock);
    }
    if (d->dev) {
        amp__lock(d->dev);
        /* the last view of host memory writes the device data back */
        if (d->host && !d->host_owned) amp__data_pull_host(d);
        amp__data_wait_idle(d);
        data_drop_buffer(d);
        amp__buffer_destroy(d->dev, &d->import);
        amp__unlock(d->dev);
    }
    if (d->host_owned) free(d->host);
    amp__data_free(d);
}

/* Ensures the storage has a buffer on the device of v (moving it from another
 * device through the host if needed). */
amp_status amp__data_ensure_buffer(amp__data *d, amp_accelerator_view *v)
{
    if (d->dev && d->dev != v->dev) {
        if (d->array)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "the array lives on device \"%s\", not on \"%s\"",
                             d->dev->props.deviceName, v->dev->props.deviceName);
        amp__lock(d->dev);
        amp_status s = amp__data_pull_host(d);
        /* a lost device runs nothing more: leaving it needs only a current host copy */
        if (s == AMP_OK && !amp__device_lost(d->dev)) s = amp__data_wait_idle(d);
        if (s == AMP_OK) {
            data_drop_buffer(d);
            amp__buffer_destroy(d->dev, &d->import);
        }
        amp__unlock(d->dev);
        if (s != AMP_OK) return s;
        d->dev = NULL;
        d->device_valid = false;
        memset(&d->track, 0, sizeof d->track);
    }
    if (!d->buf.buffer) {
        amp_status s = amp__buffer_create(v->dev, d->size, AMP__DATA_BUFFER_USAGE, AMP__MEM_DEVICE, &d->buf);
        if (s != AMP_OK) return s;
        d->dev = v->dev;
        memset(&d->track, 0, sizeof d->track);
    }
    if (!d->home) d->home = v;
    return AMP_OK;
}

/* Records a copy of packed host bytes into runs of the storage's device buffer. */
typedef struct upload_ctx {
    VkBufferCopy regions[64];
    uint32_t count;
    VkCommandBuffer cmd;
    VkBuffer src, dst;
    bool to_device; /* staging -> device, else device -> staging */
    VkDeviceSize base; /* the storage's start in its device buffer */
} upload_ctx;

static void flush_regions(upload_ctx *c)
{
    if (!c->count) return;
    vkCmdCopyBuffer(c->cmd, c->src, c->dst, c->count, c->regions);
    c->count = 0;
}

static void add_region(void *ctx, size_t storage_off, size_t packed_off, size_t len)
{
    upload_ctx *c = ctx;
    if (c->count == 64) flush_regions(c);
    c->regions[c->count++] = c->to_device ? (VkBufferCopy){packed_off, c->base + storage_off, len}
                                          : (VkBufferCopy){c->base + storage_off, packed_off, len};
}

/* Records the copy of the view's elements to (to_device) or from the packed bytes of
 * staging, after the barrier its access needs, as one profiled span. */
static void record_view_copy(amp_array_view *view, amp_accelerator_view *v, amp__batch *b, VkBuffer staging,
                             bool to_device, size_t bytes)
{
    amp__data *d = view->data;
    amp__barrier bar = {0};
    amp__track_access(&d->track, d->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      to_device ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT, to_device,
                      amp__batch_serial(b), &bar);
    VkCommandBuffer cmd = amp__batch_cmd(b);
    amp__barrier_record(v, cmd, &bar);
    upload_ctx c = {.cmd = cmd, .src = to_device ? staging : d->buf.buffer, .dst = to_device ? d->buf.buffer : staging,
                    .to_device = to_device, .base = d->base};
    uint32_t timing = amp__profile_begin(b, to_device ? "upload" : "download", bytes);
    amp__view_for_each_run(view, add_region, &c);
    flush_regions(&c);
    amp__profile_end(b, timing);
}

/* Copies packed host bytes into the view's elements on the device (records it). */
amp_status amp__view_upload(amp_array_view *view, amp_accelerator_view *v, const void *src)
{
    amp__data *d = view->data;
    size_t bytes = amp__view_bytes(view);
    if (!bytes) return AMP_OK;
    amp_status st = amp__data_order(d, v);
    if (st != AMP_OK) return st;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    amp__staging *s = amp__staging_get(v->dev, bytes, AMP__MEM_UPLOAD);
    if (!s) return amp_last_status();
    amp__trace_memcpy(s->buf.alloc.mapped, src, bytes, "host to staging");
    amp__batch_keep_staging(b, s);
    record_view_copy(view, v, b, s->buf.buffer, true, bytes);
    d->home = v;
    d->version++;
    v->stats.uploads++;
    v->stats.upload_bytes += bytes;
    return amp__view_command_done(v);
}

/* Records a copy of the view's elements from the device into a readback staging
 * buffer (packed) and submits. The caller waits for *serial, then reads. */
amp_status amp__view_download(amp_array_view *view, amp__staging **out, uint64_t *serial)
{
    amp__data *d = view->data;
    amp_accelerator_view *v = d->array ? d->array->av : d->home;
    size_t bytes = amp__view_bytes(view);
    amp_status o = amp__data_order(d, v);
    if (o != AMP_OK) return o;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    d->home = v;
    amp__staging *s = amp__staging_get(v->dev, bytes, AMP__MEM_READBACK);
    if (!s) return amp_last_status();
    record_view_copy(view, v, b, s->buf.buffer, false, bytes);
    /* make the transfer's writes visible to the host */
    amp__barrier_to_host(amp__batch_cmd(b), s->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    v->stats.downloads++;
    v->stats.download_bytes += bytes;
    *serial = amp__batch_serial(b);
    amp_status st = amp__view_submit(v);
    if (st != AMP_OK) {
        amp__staging_put(v->dev, s);
        return st;
    }
    *out = s;
    return AMP_OK;
}

/* The whole storage as a dense rank-1 view of bytes, for whole-storage transfers. */
amp_array_view amp__data_whole_view(amp__data *d)
{
    amp_array_view w = {.data = d, .extent = amp_extent1((int)(d->size / 4)), .type = AMP_UINT, .elem = 4};
    amp__view_set_dense_strides(&w);
    return w;
}

amp_status amp__data_ensure_host(amp__data *d)
{
    if (d->host) return AMP_OK;
    d->host = calloc(1, d->size ? d->size : 1);
    if (!d->host) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", d->size);
    d->host_owned = true;
    d->host_valid = !d->device_valid;
    return AMP_OK;
}

/* Large transfers between the application's memory and the device go straight
 * from or into that memory where the device can import it: no staging copy on
 * the host, full DMA speed. Small ones are cheaper through staging, unless the memory
 * is registered (amp_host_register): pinned already, any size goes straight. */
#define IMPORT_MIN_BYTES ((size_t)1 << 20)

bool amp__data_import(amp__data *d)
{
    if (d->import.buffer) return true;
    if (d->import_failed || !d->host || d->host_owned || !d->dev) return false;
    /* registered memory at any size; elsewhere only what repays its pinning */
    bool pin = d->size >= IMPORT_MIN_BYTES;
    if (amp__buffer_import(d->dev, d->host, d->size, pin, &d->import, &d->import_offset) == AMP_OK) return true;
    d->import_failed = pin;
    return false;
}

/* Records a whole-storage copy between the imported host memory and the device
 * buffer, submits it and waits. */
amp_status amp__data_transfer_imported(amp__data *d, amp_accelerator_view *v, bool to_device)
{
    amp_status o = amp__data_order(d, v);
    if (o != AMP_OK) return o;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    d->home = v;
    /* downloads run as a copy kernel where possible: on GPUs its stores reach host
     * memory faster than a queue copy does */
    bool shader = !to_device && amp__shader_copy_possible(d->dev, d->base, d->import_offset, d->size);
    VkPipelineStageFlags stage = shader ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_TRANSFER_BIT;
    amp__barrier bar = {0};
    amp__track_access(&d->track, d->buf.buffer, stage,
                      to_device ? VK_ACCESS_TRANSFER_WRITE_BIT
                                : shader ? VK_ACCESS_SHADER_READ_BIT : VK_ACCESS_TRANSFER_READ_BIT,
                      to_device, amp__batch_serial(b), &bar);
    VkCommandBuffer cmd = amp__batch_cmd(b);
    amp__barrier_record(v, cmd, &bar);
    uint32_t timing = amp__profile_begin(b, to_device ? "upload" : "download", d->size);
    if (shader) {
        amp_status s =
            amp__record_shader_copy(v, b, d->buf.buffer, d->base, d->import.buffer, d->import_offset, d->size);
        if (s != AMP_OK) return s;
    } else {
        VkBufferCopy region = to_device ? (VkBufferCopy){d->import_offset, d->base, d->size}
                                        : (VkBufferCopy){d->base, d->import_offset, d->size};
        vkCmdCopyBuffer(cmd, to_device ? d->import.buffer : d->buf.buffer,
                        to_device ? d->buf.buffer : d->import.buffer, 1, &region);
    }
    amp__profile_end(b, timing);
    if (!to_device) {
        amp__barrier_to_host(cmd, d->import.buffer, stage,
                             shader ? VK_ACCESS_SHADER_WRITE_BIT : VK_ACCESS_TRANSFER_WRITE_BIT);
        v->stats.downloads++;
        v->stats.download_bytes += d->size;
    } else {
        v->stats.uploads++;
        v->stats.upload_bytes += d->size;
        d->version++;
    }
    uint64_t serial = amp__batch_serial(b);
    amp_status s = amp__view_submit(v);
    if (s == AMP_OK) s = amp__device_wait_serial(d->dev, serial, UINT64_MAX);
    return s;
}

/* Makes the host copy current (downloading the whole storage if needed). */
amp_status amp__data_pull_host(amp__data *d)
{
    if (d->array) return AMP_OK;
    amp_status s = amp__data_ensure_host(d);
    if (s != AMP_OK || d->host_valid) return s;
    if (!d->device_valid || !d->buf.buffer) {
        d->host_valid = true;
        return AMP_OK;
    }
    amp__lock(d->dev);
    if (amp__data_import(d)) {
        s = amp__data_transfer_imported(d, d->home, false);
        if (s == AMP_OK) d->host_valid = true;
        amp__unlock(d->dev);
        return s;
    }
    amp_array_view w = amp__data_whole_view(d);
    amp__staging *st = NULL;
    uint64_t serial = 0;
    s = amp__view_download(&w, &st, &serial);
    if (s == AMP_OK) {
        s = amp__device_wait_serial(d->dev, serial, UINT64_MAX);
        if (s == AMP_OK) {
            amp__trace_memcpy(d->host, st->buf.alloc.mapped, d->size, "staging to host");
            d->host_valid = true;
        }
        amp__staging_put(d->dev, st);
    }
    amp__unlock(d->dev);
    return s;
}

/* Makes the device copy on v current (uploading the whole storage if needed). */
amp_status amp__data_push_device(amp__data *d, amp_accelerator_view *v)
{
    amp_status s = amp__data_ensure_buffer(d, v);
    if (s != AMP_OK || d->device_valid) return s;
    if (d->host && d->host_valid) {
        amp_array_view w = amp__data_whole_view(d);
        s = amp__view_upload(&w, v, d->host);
        if (s != AMP_OK) return s;
    }
    d->device_valid = true;
    return AMP_OK;
}

amp_status amp__view_make_ready(amp_array_view *view, amp_accelerator_view *v)
{
    amp_status s = amp__data_usable(view->data, "parallel_for_each");
    if (s == AMP_OK) s = amp__data_order(view->data, v);
    return s == AMP_OK ? amp__data_push_device(view->data, v) : s;
}

amp_status amp__view_prepare_device(amp_array_view *view, amp_accelerator_view *v, bool write, amp__barrier *bar,
                                    VkBuffer *buf, VkDeviceSize *offset, VkDeviceSize *size)
{
    amp__data *d = view->data;
    amp_status s = amp__data_order(d, v);
    if (s == AMP_OK) s = amp__data_push_device(d, v);
    if (s != AMP_OK) return s;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    amp__track_access(&d->track, d->buf.buffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_SHADER_READ_BIT | (write ? VK_ACCESS_SHADER_WRITE_BIT : 0), write,
                      amp__batch_serial(b), bar);
    if (write) {
        d->host_valid = false;
        d->version++;
    }
    d->home = v;
    *buf = d->buf.buffer;
    *offset = d->base;
    *size = d->size;
    return AMP_OK;
}

/* A view is going away: storage that remembers it as the view of its last use
 * forgets it (falling back to the accelerator's default view), and when the
 * view's device closes with it (the last view of an application's device), data
 * that lives only there is brought to the host first and the device copy freed. */
static void storage_forget_view(amp_accelerator_view *v, bool device_closing)
{
    pthread_mutex_lock(&storages_lock);
    amp_accelerator_view *fallback = v->acc && !v->is_default && v->dev == amp__accelerator_device(v->acc)
                                         ? amp_accelerator_default_view(v->acc)
                                         : NULL;
    for (amp__data *d = storages; d; d = d->all_next) {
        bool orphan = d->home == v && !fallback && !d->array;
        if (((device_closing && d->dev == v->dev) || orphan) && !d->array) {
            d->home = v;
            amp__data_pull_host(d);
            amp__data_wait_idle(d);
            data_drop_buffer(d);
            amp__buffer_destroy(d->dev, &d->import);
            d->dev = NULL;
            d->device_valid = false;
            memset(&d->track, 0, sizeof d->track);
            d->home = NULL;
        } else if (d->home == v) {
            d->home = d->array ? d->array->av : fallback;
        }
    }
    pthread_mutex_unlock(&storages_lock);
}
