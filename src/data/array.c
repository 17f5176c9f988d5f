/* Arrays, array_views and copies (see include/ampvk/array.h).
 *
 * All views of the same memory share one amp__data: the host copy (if any), the
 * device buffer (if any) and which of the two is current. Validity is kept for
 * the whole storage: a kernel that writes a section makes the device copy the
 * current one, and synchronize brings the whole storage back. Host-side memory
 * is row-major and tightly packed; a view is an offset and strides into it. */
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

struct amp__data {
    int refs;
    size_t size;            /* bytes */
    void *host;             /* the application's memory, ours, or NULL */
    bool host_owned;        /* host was allocated by ampvk */
    bool host_valid;        /* host holds the current contents */
    bool device_valid;      /* the device buffer holds the current contents */
    uint64_t version;       /* bumped by each device write (async downloads check it) */
    amp__device *dev;       /* device of buf */
    amp__buffer buf;
    VkDeviceSize base;      /* where the storage starts in buf (a wrapped buffer's offset) */
    bool wrapped;           /* buf is the application's: never destroyed */
    bool held;              /* exported: the application's until imported */
    amp__track track;
    amp__buffer import;     /* the host memory imported for transfers, if possible */
    VkDeviceSize import_offset;
    bool import_failed;
    amp_accelerator_view *home; /* view of the last device use */
    amp_array *array;       /* the array this storage belongs to, if any */
    amp__data *next;        /* registry of host-backed storage */
    amp__data *all_next;    /* every live storage (to forget destroyed views) */
};

struct amp_array_view {
    amp__data *data;
    amp_extent extent;
    size_t offset;                 /* bytes from the start of the storage */
    int64_t stride[AMP_MAX_RANK];  /* elements between neighbours in each dimension */
    amp_type type;
    size_t elem;
    bool is_const;
    bool embedded;                 /* owned by an array (amp_array_as_view) */
};

struct amp_array {
    amp_array_view view;           /* the whole array */
    amp_accelerator_view *av;
    amp_access_type access;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__data *registry;
static pthread_mutex_t storages_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__data *storages;

static const VkBufferUsageFlags buffer_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/* ---- geometry ---- */

static void set_dense_strides(amp_array_view *v)
{
    int64_t s = 1;
    for (int k = v->extent.rank - 1; k >= 0; k--) {
        v->stride[k] = s;
        s *= v->extent.dims[k];
    }
}

static size_t view_bytes(const amp_array_view *v) { return amp_extent_size(v->extent) * v->elem; }

static bool view_contiguous(const amp_array_view *v)
{
    int64_t s = 1;
    for (int k = v->extent.rank - 1; k >= 0; k--) {
        if (v->extent.dims[k] > 1 && v->stride[k] != s) return false;
        s *= v->extent.dims[k];
    }
    return true;
}

/* Calls fn for each contiguous run of the view: its byte offset in the storage, its
 * byte offset in the packed (row-major) order, and its length. */
typedef void (*run_fn)(void *ctx, size_t storage_off, size_t packed_off, size_t len);
static void for_each_run(const amp_array_view *v, run_fn fn, void *ctx)
{
    if (amp_extent_size(v->extent) == 0) return;
    if (view_contiguous(v)) {
        fn(ctx, v->offset, 0, view_bytes(v));
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

static amp__data *data_new(size_t size, void *host)
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

static void data_free(amp__data *d)
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
static amp_status data_usable(const amp__data *d, const char *who)
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
static amp_status data_submit_last_use(amp__data *d)
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
static amp_status data_order(amp__data *d, amp_accelerator_view *v)
{
    if (!d->dev || d->home == v || !d->home || d->home->dev != v->dev) return AMP_OK;
    return submit_if_used(d, d->home);
}

/* Submits the batch holding the storage's last use if it is still recording, and
 * waits for that use to finish. */
static amp_status data_wait_idle(amp__data *d)
{
    if (!d->dev || !d->track.last_serial) return AMP_OK;
    amp_status s = data_submit_last_use(d);
    if (s != AMP_OK) return s;
    return amp__device_wait_serial(d->dev, d->track.last_serial, UINT64_MAX);
}

static amp_status data_pull_host(amp__data *d);

static void data_release(amp__data *d)
{
    if (--d->refs > 0) return;
    if (d->host && !d->host_owned) {
        pthread_mutex_lock(&registry_lock);
        for (amp__data **p = &registry; *p; p = &(*p)->next)
            if (*p == d) {
                *p = d->next;
                break;
            }
        pthread_mutex_unlock(&registry_lock);
    }
    if (d->dev) {
        amp__lock(d->dev);
        /* the last view of host memory writes the device data back */
        if (d->host && !d->host_owned) data_pull_host(d);
        data_wait_idle(d);
        data_drop_buffer(d);
        amp__buffer_destroy(d->dev, &d->import);
        amp__unlock(d->dev);
    }
    if (d->host_owned) free(d->host);
    data_free(d);
}

/* Ensures the storage has a buffer on the device of v (moving it from another
 * device through the host if needed). */
static amp_status data_ensure_buffer(amp__data *d, amp_accelerator_view *v)
{
    if (d->dev && d->dev != v->dev) {
        if (d->array)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "the array lives on device \"%s\", not on \"%s\"",
                             d->dev->props.deviceName, v->dev->props.deviceName);
        amp__lock(d->dev);
        amp_status s = data_pull_host(d);
        /* a lost device runs nothing more: leaving it needs only a current host copy */
        if (s == AMP_OK && !amp__device_lost(d->dev)) s = data_wait_idle(d);
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
        amp_status s = amp__buffer_create(v->dev, d->size, buffer_usage, AMP__MEM_DEVICE, &d->buf);
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

/* Copies packed host bytes into the view's elements on the device (records it). */
static amp_status upload_view(amp_array_view *view, amp_accelerator_view *v, const void *src)
{
    amp__data *d = view->data;
    size_t bytes = view_bytes(view);
    if (!bytes) return AMP_OK;
    amp_status st = data_order(d, v);
    if (st != AMP_OK) return st;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    amp__staging *s = amp__staging_get(v->dev, bytes, AMP__MEM_UPLOAD);
    if (!s) return amp_last_status();
    amp__trace_memcpy(s->buf.alloc.mapped, src, bytes, "host to staging");
    amp__batch_keep_staging(b, s);
    amp__barrier bar = {0};
    amp__track_access(&d->track, d->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, true,
                      amp__batch_serial(b), &bar);
    VkCommandBuffer cmd = amp__batch_cmd(b);
    amp__barrier_record(v, cmd, &bar);
    upload_ctx c = {.cmd = cmd, .src = s->buf.buffer, .dst = d->buf.buffer, .to_device = true, .base = d->base};
    uint32_t timing = amp__profile_begin(b, "upload", bytes);
    for_each_run(view, add_region, &c);
    flush_regions(&c);
    amp__profile_end(b, timing);
    d->home = v;
    d->version++;
    v->stats.uploads++;
    v->stats.upload_bytes += bytes;
    return amp__view_command_done(v);
}

/* Records a copy of the view's elements from the device into a readback staging
 * buffer (packed) and submits. The caller waits for *serial, then reads. */
static amp_status download_view(amp_array_view *view, amp__staging **out, uint64_t *serial)
{
    amp__data *d = view->data;
    amp_accelerator_view *v = d->array ? d->array->av : d->home;
    size_t bytes = view_bytes(view);
    amp_status o = data_order(d, v);
    if (o != AMP_OK) return o;
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    d->home = v;
    amp__staging *s = amp__staging_get(v->dev, bytes, AMP__MEM_READBACK);
    if (!s) return amp_last_status();
    amp__barrier bar = {0};
    amp__track_access(&d->track, d->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, false,
                      amp__batch_serial(b), &bar);
    VkCommandBuffer cmd = amp__batch_cmd(b);
    amp__barrier_record(v, cmd, &bar);
    upload_ctx c = {.cmd = cmd, .src = d->buf.buffer, .dst = s->buf.buffer, .to_device = false, .base = d->base};
    uint32_t timing = amp__profile_begin(b, "download", bytes);
    for_each_run(view, add_region, &c);
    flush_regions(&c);
    amp__profile_end(b, timing);
    /* make the transfer's writes visible to the host */
    amp__barrier_to_host(cmd, s->buf.buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
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
static amp_array_view whole_view(amp__data *d)
{
    amp_array_view w = {.data = d, .extent = amp_extent1((int)(d->size / 4)), .type = AMP_UINT, .elem = 4};
    set_dense_strides(&w);
    return w;
}

static amp_status ensure_host_memory(amp__data *d)
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

static bool data_import(amp__data *d)
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
static amp_status transfer_imported(amp__data *d, amp_accelerator_view *v, bool to_device)
{
    amp_status o = data_order(d, v);
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
static amp_status data_pull_host(amp__data *d)
{
    if (d->array) return AMP_OK;
    amp_status s = ensure_host_memory(d);
    if (s != AMP_OK || d->host_valid) return s;
    if (!d->device_valid || !d->buf.buffer) {
        d->host_valid = true;
        return AMP_OK;
    }
    amp__lock(d->dev);
    if (data_import(d)) {
        s = transfer_imported(d, d->home, false);
        if (s == AMP_OK) d->host_valid = true;
        amp__unlock(d->dev);
        return s;
    }
    amp_array_view w = whole_view(d);
    amp__staging *st = NULL;
    uint64_t serial = 0;
    s = download_view(&w, &st, &serial);
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
static amp_status data_push_device(amp__data *d, amp_accelerator_view *v)
{
    amp_status s = data_ensure_buffer(d, v);
    if (s != AMP_OK || d->device_valid) return s;
    if (d->host && d->host_valid) {
        amp_array_view w = whole_view(d);
        s = upload_view(&w, v, d->host);
        if (s != AMP_OK) return s;
    }
    d->device_valid = true;
    return AMP_OK;
}

amp_status amp__view_make_ready(amp_array_view *view, amp_accelerator_view *v)
{
    amp_status s = data_usable(view->data, "parallel_for_each");
    if (s == AMP_OK) s = data_order(view->data, v);
    return s == AMP_OK ? data_push_device(view->data, v) : s;
}

amp_status amp__view_prepare_device(amp_array_view *view, amp_accelerator_view *v, bool write, amp__barrier *bar,
                                    VkBuffer *buf, VkDeviceSize *offset, VkDeviceSize *size)
{
    amp__data *d = view->data;
    amp_status s = data_order(d, v);
    if (s == AMP_OK) s = data_push_device(d, v);
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

/* ---- arrays ---- */

static amp_status check_element(const char *who, amp_type type, size_t *elem)
{
    if (type != AMP_TYPE_STRUCT && !amp_type_scalar(type))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %d is not an amp_type", who, (int)type);
    size_t natural = amp_type_size(type);
    if (*elem == 0) *elem = natural;
    if (*elem == 0)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: a struct element type needs element_size", who);
    if (natural && *elem != natural)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: element_size %zu does not match %s (%zu bytes)", who, *elem,
                         amp_type_name(type), natural);
    if (*elem % 4)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: element size %zu is not a multiple of 4 bytes", who, *elem);
    return AMP_OK;
}

static amp_status check_extent(const char *who, amp_extent e)
{
    char buf[48];
    if (!amp_extent_valid(e))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: extent %s of rank %d is not valid (rank 1..3, dims >= 0)",
                         who, amp_extent_format(e, buf, sizeof buf), e.rank);
    size_t n = 1;
    for (int k = 0; k < e.rank; k++) {
        if (e.dims[k] && n > (size_t)INT32_MAX / (size_t)e.dims[k])
            return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: extent %s has more than 2^31-1 elements", who,
                             amp_extent_format(e, buf, sizeof buf));
        n *= (size_t)e.dims[k];
    }
    return AMP_OK;
}

/* An array of `extent` elements over new storage of `bytes` (its device buffer is the
 * caller's to set), owned by view v; NULL when out of memory. The caller counts it
 * in v->arrays once it is complete. */
static amp_array *array_new(amp_accelerator_view *v, amp_extent extent, amp_type type, size_t elem, size_t bytes,
                            amp_access_type access)
{
    amp_array *a = calloc(1, sizeof *a);
    amp__data *d = data_new(bytes, NULL);
    if (!a || !d) {
        free(a);
        data_free(d);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    /* the storage is on the list views' destruction walks (storage_forget_view) */
    amp__lock(v->dev);
    d->dev = v->dev;
    d->device_valid = true;
    d->array = a;
    d->home = v;
    amp__unlock(v->dev);
    a->view = (amp_array_view){.data = d, .extent = extent, .type = type, .elem = elem, .embedded = true};
    set_dense_strides(&a->view);
    a->av = v;
    a->access = access;
    return a;
}

/* Frees an array that never became one (array_new's, its buffer gone or never had). */
static void array_abandon(amp_array *a)
{
    data_free(a->view.data);
    free(a);
}

amp_array *amp_array_create(amp_accelerator_view *v, const amp_array_desc *desc)
{
    if (!desc) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create: NULL desc");
        return NULL;
    }
    size_t elem = desc->element_size;
    if (check_extent("amp_array_create", desc->extent) || check_element("amp_array_create", desc->type, &elem))
        return NULL;
    if (!v && !(v = amp_default_view())) return NULL;
    size_t bytes = amp_extent_size(desc->extent) * elem;
    if (desc->data && desc->data_size && desc->data_size < bytes) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create: data_size %zu is smaller than the array's %zu bytes",
                  desc->data_size, bytes);
        return NULL;
    }
    amp_access_type access = desc->cpu_access;
    if (access == AMP_ACCESS_AUTO) access = v->acc ? amp_accelerator_default_cpu_access_type(v->acc) : AMP_ACCESS_NONE;
    if (access < AMP_ACCESS_AUTO || access > AMP_ACCESS_READ_WRITE) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create: cpu_access %d is not an amp_access_type", (int)access);
        return NULL;
    }
    if (access != AMP_ACCESS_NONE && !v->dev->shared_memory) {
        amp_accelerator_info info = {0};
        if (v->acc) amp_accelerator_get_info(v->acc, &info);
        if (!info.supports_cpu_shared_memory) {
            amp__fail(AMP_ERROR_UNSUPPORTED,
                      "amp_array_create: cpu_access %d needs CPU-shared memory, which \"%s\" does not have",
                      (int)access, v->dev->props.deviceName);
            return NULL;
        }
    }
    amp_array *a = array_new(v, desc->extent, desc->type, elem, bytes, access);
    if (!a) return NULL;
    amp__data *d = a->view.data;
    amp__lock(v->dev);
    amp_status s = amp__buffer_create(v->dev, bytes, buffer_usage,
                                      access == AMP_ACCESS_NONE ? AMP__MEM_DEVICE : AMP__MEM_SHARED, &d->buf);
    if (s == AMP_OK) {
        if (desc->data && bytes) {
            if (d->buf.alloc.mapped) memcpy(d->buf.alloc.mapped, desc->data, bytes);
            else s = upload_view(&a->view, v, desc->data);
        }
        if (s != AMP_OK) amp__buffer_destroy(v->dev, &d->buf);
        else v->arrays++;
    }
    amp__unlock(v->dev);
    if (s != AMP_OK) {
        array_abandon(a);
        return NULL;
    }
    return a;
}

void amp_array_destroy(amp_array **pa)
{
    if (!pa || !*pa) return;
    amp_array *a = *pa;
    amp__data *d = a->view.data;
    amp__lock(a->av->dev);
    a->av->arrays--;
    amp__unlock(a->av->dev);
    if (d->refs > 1) {
        /* views of the array keep the storage; they now own it on the device */
        d->home = a->av;
        d->array = NULL;
        d->device_valid = true;
    }
    data_release(d);
    free(a);
    *pa = NULL;
}

amp_extent amp_array_extent(const amp_array *a) { return a ? a->view.extent : (amp_extent){0}; }
amp_type amp_array_type(const amp_array *a) { return a ? a->view.type : AMP_TYPE_STRUCT; }
size_t amp_array_element_size(const amp_array *a) { return a ? a->view.elem : 0; }
amp_access_type amp_array_cpu_access_type(const amp_array *a) { return a ? a->access : AMP_ACCESS_NONE; }
amp_accelerator_view *amp_array_accelerator_view(const amp_array *a) { return a ? a->av : NULL; }
amp_array_view *amp_array_as_view(amp_array *a) { return a ? &a->view : NULL; }

void *amp_array_data(amp_array *a)
{
    if (!a) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_data: NULL array");
        return NULL;
    }
    if (a->access == AMP_ACCESS_NONE || !a->view.data->buf.alloc.mapped) {
        amp__fail(AMP_ERROR_INVALID_STATE, "amp_array_data: the array has cpu_access_type none; copy it instead");
        return NULL;
    }
    amp__data *d = a->view.data;
    if (data_usable(d, "amp_array_data") != AMP_OK) return NULL;
    amp__lock(a->av->dev);
    amp_status s = data_wait_idle(d);
    amp__unlock(a->av->dev);
    return s == AMP_OK ? d->buf.alloc.mapped : NULL;
}

/* ---- interop: the application's buffers ---- */

/* Takes the storage from the application: the batch that first uses it again waits
 * for a->wait, then acquires it from a's family. */
static amp_status data_acquire(amp__data *d, amp_accelerator_view *h, const char *who, const amp_vulkan_access *a)
{
    amp__lock(h->dev);
    amp_status s = d->held ? amp__handover_take(h, who, a, &d->track, d->buf.buffer, VK_NULL_HANDLE,
                                                VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED)
                           : amp__fail(AMP_ERROR_INVALID_STATE,
                                       "%s: the array is not held by the application (export it first)", who);
    if (s == AMP_OK) {
        d->held = false;
        d->device_valid = true;
        d->version++; /* the application may have written it */
        d->home = h;
    }
    amp__unlock(h->dev);
    return s;
}

amp_array *amp_array_wrap_vulkan_buffer(amp_accelerator_view *v, const amp_array_wrap_desc *desc)
{
    const char *who = "amp_array_wrap_vulkan_buffer";
    if (!desc || !desc->buffer) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: a VkBuffer is required", who);
        return NULL;
    }
    size_t elem = desc->element_size;
    if (check_extent(who, desc->extent) || check_element(who, desc->type, &elem)) return NULL;
    if (!v && !(v = amp_default_view())) return NULL;
    uint64_t bytes = (uint64_t)amp_extent_size(desc->extent) * elem;
    uint64_t range = desc->size ? desc->size : bytes;
    VkDeviceSize align = v->dev->props.limits.minStorageBufferOffsetAlignment;
    if (align < 4) align = 4;
    if (desc->offset % align) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                  "%s: offset %llu is not a multiple of %llu (\"%s\"'s minStorageBufferOffsetAlignment, and 4)", who,
                  (unsigned long long)desc->offset, (unsigned long long)align, v->dev->props.deviceName);
        return NULL;
    }
    if (range < bytes) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: size %llu is smaller than the array's %llu bytes", who,
                  (unsigned long long)range, (unsigned long long)bytes);
        return NULL;
    }
    amp_array *a = array_new(v, desc->extent, desc->type, elem, (size_t)bytes, AMP_ACCESS_NONE);
    if (!a) return NULL;
    amp__data *d = a->view.data;
    d->buf = (amp__buffer){.buffer = (VkBuffer)(uintptr_t)desc->buffer, .size = range};
    d->base = desc->offset;
    d->wrapped = true;
    d->held = true; /* comes in as an import does */
    if (data_acquire(d, v, who, &desc->access) != AMP_OK) {
        array_abandon(a);
        return NULL;
    }
    amp__lock(v->dev);
    v->arrays++;
    amp__unlock(v->dev);
    return a;
}

amp_status amp_array_export(amp_array *a, const amp_vulkan_access *access, amp_vulkan_buffer *out)
{
    const char *who = "amp_array_export";
    if (!a || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    uint32_t family = access ? access->queue_family : VK_QUEUE_FAMILY_IGNORED;
    amp__data *d = a->view.data;
    amp_accelerator_view *h = d->home ? d->home : a->av;
    amp__lock(h->dev);
    amp_vulkan_semaphore ready;
    amp_status s = data_usable(d, who);
    /* the storage's last use may be recorded on the array's own view */
    if (s == AMP_OK) s = data_submit_last_use(d);
    if (s == AMP_OK)
        s = amp__handover_give(h, who, family, &d->track, d->buf.buffer, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_IMAGE_LAYOUT_UNDEFINED, &ready, &family);
    if (s == AMP_OK) {
        d->held = true;
        d->home = h;
        *out = (amp_vulkan_buffer){.buffer = (uint64_t)(uintptr_t)d->buf.buffer, .offset = d->base, .size = d->size,
                                   .queue_family = family, .ready = ready};
    }
    amp__unlock(h->dev);
    return s;
}

amp_status amp_array_import(amp_array *a, const amp_vulkan_access *access)
{
    const char *who = "amp_array_import";
    if (!a || !access) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    amp__data *d = a->view.data;
    return data_acquire(d, d->home ? d->home : a->av, who, access);
}

bool amp_array_is_exported(const amp_array *a) { return a && a->view.data->held; }

/* ---- views ---- */

static amp_array_view *view_alloc(const amp_array_view *from)
{
    amp_array_view *v = malloc(sizeof *v);
    if (!v) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    *v = *from;
    v->embedded = false;
    v->data->refs++;
    return v;
}

static amp_array_view *view_over_host(const char *who, amp_extent e, amp_type t, size_t elem, void *host,
                                      bool is_const)
{
    if (check_extent(who, e) || check_element(who, t, &elem)) return NULL;
    size_t bytes = amp_extent_size(e) * elem;
    amp_array_view tmpl = {.extent = e, .type = t, .elem = elem, .is_const = is_const};
    set_dense_strides(&tmpl);
    if (!host) {
        amp__data *d = data_new(bytes, NULL);
        if (!d) return NULL;
        tmpl.data = d;
        amp_array_view *v = view_alloc(&tmpl);
        d->refs--;
        if (!v) data_free(d);
        return v;
    }
    /* share storage with an existing view whose memory contains this range */
    pthread_mutex_lock(&registry_lock);
    amp__data *d = registry;
    for (; d; d = d->next) {
        char *base = d->host, *p = host;
        if (p >= base && p + bytes <= base + d->size && (size_t)(p - base) % elem == 0) break;
    }
    if (d) {
        tmpl.data = d;
        tmpl.offset = (size_t)((char *)host - (char *)d->host);
        amp_array_view *v = view_alloc(&tmpl);
        pthread_mutex_unlock(&registry_lock);
        return v;
    }
    d = data_new(bytes, host);
    if (!d) {
        pthread_mutex_unlock(&registry_lock);
        return NULL;
    }
    tmpl.data = d;
    amp_array_view *v = view_alloc(&tmpl);
    d->refs--;
    if (v) {
        d->next = registry;
        registry = d;
    } else {
        data_free(d);
    }
    pthread_mutex_unlock(&registry_lock);
    return v;
}

/* The device of acc (NULL: the default accelerator's), for the host registrations. */
static amp__device *registry_device(amp_accelerator *acc)
{
    if (!acc && !(acc = amp_accelerator_default())) return NULL;
    return amp__accelerator_device(acc);
}

amp_status amp_host_register(amp_accelerator *acc, void *ptr, size_t bytes)
{
    if (!ptr || !bytes)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_host_register: %s", ptr ? "0 bytes" : "NULL memory");
    amp__device *d = registry_device(acc);
    if (!d) return amp_last_status();
    amp__lock(d);
    amp_status s = amp__device_check(d);
    if (s == AMP_OK) s = amp__host_register(d, ptr, bytes);
    amp__unlock(d);
    return s;
}

amp_status amp_host_unregister(amp_accelerator *acc, void *ptr)
{
    if (!ptr) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_host_unregister: NULL memory");
    amp__device *d = registry_device(acc);
    if (!d) return amp_last_status();
    amp__lock(d);
    /* a texture copy recorded from or into the range may still run: waited for once the
       range may go */
    amp_status s = amp__host_unregister_check(d, ptr);
    if (s == AMP_OK) s = amp__device_idle(d);
    if (s == AMP_OK || s == AMP_ERROR_DEVICE_LOST) s = amp__host_unregister(d, ptr);
    amp__unlock(d);
    return s;
}

amp_array_view *amp_array_view_create(amp_extent e, amp_type t, size_t elem, void *data)
{
    return view_over_host("amp_array_view_create", e, t, elem, data, false);
}

amp_array_view *amp_array_view_create_const(amp_extent e, amp_type t, size_t elem, const void *data)
{
    return view_over_host("amp_array_view_create_const", e, t, elem, (void *)data, true);
}

amp_array_view *amp_array_view_of_array(amp_array *a)
{
    if (!a) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_of_array: NULL array");
        return NULL;
    }
    return view_alloc(&a->view);
}

void amp_array_view_destroy(amp_array_view **pv)
{
    if (!pv || !*pv) return;
    amp_array_view *v = *pv;
    *pv = NULL;
    if (v->embedded) return;
    data_release(v->data);
    free(v);
}

amp_extent amp_array_view_extent(const amp_array_view *v) { return v ? v->extent : (amp_extent){0}; }
amp_type amp_array_view_type(const amp_array_view *v) { return v ? v->type : AMP_TYPE_STRUCT; }
size_t amp_array_view_element_size(const amp_array_view *v) { return v ? v->elem : 0; }
bool amp_array_view_is_const(const amp_array_view *v) { return v && v->is_const; }

amp_array_view *amp_array_view_section(amp_array_view *v, amp_index origin, amp_extent e)
{
    char a[48], b[48], c[48];
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_section: NULL view");
        return NULL;
    }
    if (origin.rank != v->extent.rank || e.rank != v->extent.rank) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_section: origin rank %d and extent rank %d must be %d",
                  origin.rank, e.rank, v->extent.rank);
        return NULL;
    }
    for (int k = 0; k < e.rank; k++)
        if (origin.i[k] < 0 || e.dims[k] < 0 || (int64_t)origin.i[k] + e.dims[k] > v->extent.dims[k]) {
            amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "section at %s of extent %s does not fit in extent %s (dimension %d)",
                      amp_index_format(origin, a, sizeof a), amp_extent_format(e, b, sizeof b),
                      amp_extent_format(v->extent, c, sizeof c), k);
            return NULL;
        }
    amp_array_view t = *v;
    t.extent = e;
    for (int k = 0; k < e.rank; k++) t.offset += (size_t)(origin.i[k] * v->stride[k]) * v->elem;
    return view_alloc(&t);
}

amp_array_view *amp_array_view_project(amp_array_view *v, int i)
{
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_project: NULL view");
        return NULL;
    }
    if (v->extent.rank < 2) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_project: a rank-%d view has no projection",
                  v->extent.rank);
        return NULL;
    }
    if (i < 0 || i >= v->extent.dims[0]) {
        amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "amp_array_view_project: index %d is outside 0..%d", i,
                  v->extent.dims[0] - 1);
        return NULL;
    }
    amp_array_view t = *v;
    t.offset += (size_t)(i * v->stride[0]) * v->elem;
    t.extent.rank = v->extent.rank - 1;
    for (int k = 0; k < t.extent.rank; k++) {
        t.extent.dims[k] = v->extent.dims[k + 1];
        t.stride[k] = v->stride[k + 1];
    }
    t.extent.dims[t.extent.rank] = 0;
    return view_alloc(&t);
}

amp_array_view *amp_array_view_reinterpret(amp_array_view *v, amp_type type, size_t elem)
{
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_reinterpret: NULL view");
        return NULL;
    }
    if (check_element("amp_array_view_reinterpret", type, &elem)) return NULL;
    if (v->extent.rank != 1) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_reinterpret: only rank-1 views (this one has rank %d)",
                  v->extent.rank);
        return NULL;
    }
    size_t bytes = view_bytes(v);
    if (bytes % elem || v->offset % elem) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                  "amp_array_view_reinterpret: %zu bytes at offset %zu are not a whole number of %zu-byte elements",
                  bytes, v->offset, elem);
        return NULL;
    }
    amp_array_view t = *v;
    t.type = type;
    t.elem = elem;
    t.extent = amp_extent1((int)(bytes / elem));
    set_dense_strides(&t);
    return view_alloc(&t);
}

amp_array_view *amp_array_view_view_as(amp_array_view *v, amp_extent e)
{
    char a[48], b[48];
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_view_as: NULL view");
        return NULL;
    }
    if (check_extent("amp_array_view_view_as", e)) return NULL;
    if (v->extent.rank != 1) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_view_as: only rank-1 views (this one has rank %d)",
                  v->extent.rank);
        return NULL;
    }
    if (amp_extent_size(e) > amp_extent_size(v->extent)) {
        amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "amp_array_view_view_as: extent %s has %zu elements, the view only %zu (%s)",
                  amp_extent_format(e, a, sizeof a), amp_extent_size(e), amp_extent_size(v->extent),
                  amp_extent_format(v->extent, b, sizeof b));
        return NULL;
    }
    amp_array_view t = *v;
    t.extent = e;
    set_dense_strides(&t);
    return view_alloc(&t);
}

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
    data_release(d);
}

amp_status amp_array_view_synchronize(amp_array_view *v)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_synchronize: NULL view");
    if (data_usable(v->data, "amp_array_view_synchronize") != AMP_OK) return amp_last_status();
    if (v->data->array) {
        /* the data lives on the device; wait for work on it */
        amp__lock(v->data->dev);
        amp_status s = data_wait_idle(v->data);
        amp__unlock(v->data->dev);
        return s;
    }
    return data_pull_host(v->data);
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
    if (data_usable(d, "amp_array_view_synchronize_async") != AMP_OK) return NULL;
    if (d->array || d->host_valid || !d->device_valid || !d->buf.buffer) {
        if (d->array) {
            amp_accelerator_view *h = d->array->av;
            amp__lock(h->dev);
            amp_status s = data_submit_last_use(d);
            amp_future *f = s == AMP_OK ? amp__future_new(h->dev, d->track.last_serial, (amp__host_action){0}) : NULL;
            amp__unlock(h->dev);
            return f;
        }
        return done_future(data_pull_host(d));
    }
    if (ensure_host_memory(d) != AMP_OK) return NULL;
    amp__lock(d->dev);
    amp_array_view w = whole_view(d);
    amp__staging *st = NULL;
    uint64_t serial = 0;
    amp_future *f = NULL;
    if (download_view(&w, &st, &serial) == AMP_OK) {
        d->refs++;
        f = amp__readback_future(d->dev, serial, st, unpack_pull, &(pull_job){d, d->version}, sizeof(pull_job));
    }
    amp__unlock(d->dev);
    return f;
}

amp_status amp_array_view_synchronize_to(amp_array_view *v, amp_accelerator_view *target)
{
    if (!v || !target) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_synchronize_to: NULL argument");
    if (data_usable(v->data, "amp_array_view_synchronize_to") != AMP_OK) return amp_last_status();
    amp__lock(target->dev);
    amp__data *d = v->data;
    amp_status s = data_ensure_buffer(d, target);
    /* an explicit upload of a large host range reads it in place and waits, so the
     * application may change its memory once this returns */
    if (s == AMP_OK && !d->device_valid && d->host && d->host_valid && data_import(d)) {
        s = transfer_imported(d, target, true);
        if (s == AMP_OK) d->device_valid = true;
    }
    if (s == AMP_OK) s = data_push_device(d, target);
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
    if (!d->array && view_bytes(v) == d->size && !d->device_valid) d->device_valid = true;
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
    return v ? data_usable(v->data, who) : amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL view", who);
}

/* The device-side copy of a view's elements to host memory: returns a future, or
 * completes synchronously when the host copy is current. */
static amp_future *copy_to_host(amp_array_view *src, void *dst, size_t dst_size, bool async)
{
    const char *who = async ? "amp_copy_to_host_async" : "amp_copy_to_host";
    if (check_view(who, src)) return NULL;
    size_t bytes = view_bytes(src);
    if (!dst || dst_size < bytes) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: destination holds %zu bytes but the view has %zu", who,
                  dst ? dst_size : 0, bytes);
        return NULL;
    }
    amp__data *d = src->data;
    if (!d->array && (d->host_valid || !d->device_valid || !d->buf.buffer)) {
        if (ensure_host_memory(d) != AMP_OK) return NULL;
        if (!d->device_valid) d->host_valid = true;
        host_copy_ctx c = {.storage = d->host, .packed = dst, .to_storage = false};
        for_each_run(src, host_run, &c);
        return done_future(AMP_OK);
    }
    amp__lock(d->dev);
    amp__staging *st = NULL;
    uint64_t serial = 0;
    amp_future *f = NULL;
    if (download_view(src, &st, &serial) == AMP_OK)
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
    size_t bytes = view_bytes(dst);
    if (!src || src_size != bytes)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: source holds %zu bytes but the view needs exactly %zu", who,
                         src ? src_size : 0, bytes);
    if (dst->is_const) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the destination view is read-only", who);
    amp__data *d = dst->data;
    /* host-current, or without a device copy yet (a discarded view never used on a
     * device claims device data that does not exist) */
    if (!d->array && (d->host_valid || !d->device_valid || !d->buf.buffer)) {
        amp_status s = ensure_host_memory(d);
        if (s != AMP_OK) return s;
        /* keep the rest of the storage: the host copy must be current before a partial write */
        s = data_pull_host(d);
        if (s != AMP_OK) return s;
        host_copy_ctx c = {.storage = d->host, .packed = (char *)src, .to_storage = true};
        for_each_run(dst, host_run, &c);
        d->host_valid = true;
        d->device_valid = false;
        return AMP_OK;
    }
    amp_accelerator_view *v = d->array ? d->array->av : d->home;
    amp__lock(v->dev);
    amp_status s = upload_view(dst, v, src);
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

/* The byte runs of a view in storage order (for_each_run yields them ascending). */
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
    if (view_contiguous(v)) return 1;
    size_t n = 1;
    for (int k = 0; k + 1 < v->extent.rank; k++) n *= (size_t)v->extent.dims[k];
    return n;
}

/* True if the two views share a byte of the same storage. Sections are strided, so
 * their spans may interleave without sharing an element (the left and right halves
 * of a matrix): the runs are compared, not just the spans. */
static bool ranges_overlap(const amp_array_view *a, const amp_array_view *b)
{
    if (a->data != b->data || !view_bytes(a) || !view_bytes(b)) return false;
    if (a->offset >= view_end(b) || b->offset >= view_end(a)) return false;
    run_list la = {malloc(run_count(a) * sizeof *la.r), 0}, lb = {malloc(run_count(b) * sizeof *lb.r), 0};
    bool overlap = true; /* out of memory: refuse the copy rather than risk it */
    if (la.r && lb.r) {
        for_each_run(a, collect_run, &la);
        for_each_run(b, collect_run, &lb);
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
    if (view_contiguous(c->dst)) l.found = c->dst->offset + packed_off;
    else for_each_run(c->dst, find_dst, &l);
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
    if (ensure_host_memory(sd) != AMP_OK || ensure_host_memory(dd) != AMP_OK) return amp_last_status();
    if (!sd->device_valid) sd->host_valid = true;
    size_t bytes = view_bytes(src);
    char *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", bytes);
    host_copy_ctx c = {.storage = sd->host, .packed = tmp, .to_storage = false};
    for_each_run(src, host_run, &c);
    c = (host_copy_ctx){.storage = dd->host, .packed = tmp, .to_storage = true};
    for_each_run(dst, host_run, &c);
    free(tmp);
    dd->host_valid = true;
    dd->device_valid = false;
    return AMP_OK;
}

/* Packs a source that is current on the host and stages it straight into the destination. */
static amp_status stage_host_source(amp_array_view *src, amp_array_view *dst, const char *who)
{
    amp__data *sd = src->data;
    if (ensure_host_memory(sd) != AMP_OK) return amp_last_status();
    size_t bytes = view_bytes(src);
    char *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", bytes);
    host_copy_ctx c = {.storage = sd->host, .packed = tmp, .to_storage = false};
    for_each_run(src, host_run, &c);
    amp_status s = copy_from_host(tmp, bytes, dst, who);
    free(tmp);
    return s;
}

/* Copies between views on different devices, through the host. */
static amp_status copy_across_devices(amp_array_view *src, amp_array_view *dst, const char *who)
{
    size_t bytes = view_bytes(src);
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
    amp_status s = data_order(sd, v);
    if (s == AMP_OK && dd->dev == v->dev) s = data_order(dd, v);
    /* the destination's other elements must be current on the device before a partial
     * write; a whole one becomes current when the copy is recorded */
    if (s == AMP_OK && (!dd->device_valid || !dd->buf.buffer)) {
        if (view_bytes(dst) == dd->size && !dd->array) s = data_ensure_buffer(dd, v);
        else s = data_push_device(dd, v);
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
    uint32_t timing = amp__profile_begin(bt, "device copy", view_bytes(src));
    if (view_contiguous(src) && !view_contiguous(dst)) for_each_run(dst, dst_run, &c);
    else for_each_run(src, src_run, &c);
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
        set_dense_strides(&one);
        return amp_copy_to_host(&one, out, v->elem);
    }
    s = data_pull_host(v->data);
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
    set_dense_strides(&one);
    return copy_from_host(in, v->elem, &one, "amp_array_view_set");
}

void *amp_array_view_data(amp_array_view *v)
{
    if (check_view("amp_array_view_data", v)) return NULL;
    if (v->data->array || v->extent.rank != 1) {
        amp__fail(AMP_ERROR_INVALID_STATE, "amp_array_view_data: only rank-1 views of host memory have data()");
        return NULL;
    }
    if (data_pull_host(v->data) != AMP_OK) return NULL;
    /* the caller may write through the pointer: the device copy is stale from now */
    v->data->device_valid = false;
    return (char *)v->data->host + v->offset;
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
            data_pull_host(d);
            data_wait_idle(d);
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
