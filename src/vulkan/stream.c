/* accelerator_views: command streams, batches, submission, futures, and the
 * tracker that decides which barriers a command needs. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

/* Automatic mode submits after this many commands even without a flush point,
 * bounding the memory one batch pins. */
#define BATCH_LIMIT 128
#define UNIFORM_CHUNK 65536
#define SETS_PER_POOL 256
/* Semaphores one submission waits for, and signals besides the device's timeline. */
#define BATCH_SEMAPHORES 16
/* Commands one batch times when profiling (more go untimed). */
#define PROFILE_CAP 256

typedef struct profile_label {
    char name[48];
    uint64_t bytes;
} profile_label;

typedef struct uniform_chunk {
    amp__buffer buf;
    VkDeviceSize used;
    struct uniform_chunk *next;
} uniform_chunk;

typedef struct descriptor_pool {
    VkDescriptorPool pool;
    uint32_t used;
    struct descriptor_pool *next;
} descriptor_pool;

struct amp__batch {
    amp_accelerator_view *view;
    VkCommandBuffer cmd;
    uint64_t serial;
    int commands;
    VkPipeline bound;            /* the pipeline last bound in cmd */
    amp__staging *staging;
    uniform_chunk *uniforms;     /* chunks in use, current first */
    descriptor_pool *pools;      /* pools in use, current first */
    VkSemaphore waits[BATCH_SEMAPHORES];
    uint64_t wait_values[BATCH_SEMAPHORES];
    VkPipelineStageFlags wait_stages[BATCH_SEMAPHORES];
    uint32_t wait_count;
    VkSemaphore signals[BATCH_SEMAPHORES + 1];   /* the device's timeline first */
    uint64_t signal_values[BATCH_SEMAPHORES + 1];
    uint32_t signal_count;
    VkQueryPool queries;         /* timestamps (two a command) when profiling */
    profile_label *labels;       /* the timed commands, `timed` of them */
    uint32_t timed;
    bool profiled;               /* recorded with profiling (or a trace) on */
    uint64_t submit_ns;          /* when it was submitted (the trace's clock) */
    amp__batch *next;
};

/* ---- views ---- */

static void print_profile(amp_accelerator_view *v);
static void retire_all(void);

/* Views that print their profile (AMPVK_PROFILE=1): at their destruction, or at exit. */
#define MAX_PRINTED 64
static pthread_mutex_t printed_lock = PTHREAD_MUTEX_INITIALIZER;
static amp_accelerator_view *printed[MAX_PRINTED];
static int printed_count;

static void print_at_exit(void)
{
    pthread_mutex_lock(&printed_lock);
    for (int i = 0; i < printed_count; i++) {
        amp__lock(printed[i]->dev);
        amp__view_retire(printed[i]);
        print_profile(printed[i]);
        amp__unlock(printed[i]->dev);
    }
    printed_count = 0;
    pthread_mutex_unlock(&printed_lock);
}

/* Adds (or, with add false, removes) a view of AMPVK_PROFILE=1's. */
static void note_printed(amp_accelerator_view *v, bool add)
{
    static bool registered;
    pthread_mutex_lock(&printed_lock);
    if (add && !registered) registered = atexit(print_at_exit) == 0;
    if (add && printed_count < MAX_PRINTED) printed[printed_count++] = v;
    for (int i = 0; !add && i < printed_count; i++)
        if (printed[i] == v) printed[i--] = printed[--printed_count];
    pthread_mutex_unlock(&printed_lock);
}

static amp_accelerator_view *view_new(amp__device *d, amp_accelerator *acc, amp_queuing_mode mode)
{
    if (mode != AMP_QUEUING_AUTOMATIC && mode != AMP_QUEUING_IMMEDIATE) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "queuing mode %d is neither automatic (0) nor immediate (1)", (int)mode);
        return NULL;
    }
    if (amp__device_check(d) != AMP_OK) return NULL;
    amp_accelerator_view *v = calloc(1, sizeof *v);
    if (!v) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory creating a view");
        return NULL;
    }
    v->dev = d;
    v->acc = acc;
    v->mode = mode;
    amp__trace_on_flush(retire_all);
    const char *env = getenv("AMPVK_PROFILE");
    if (env && strcmp(env, "1") == 0 && d->timestamp_mask) v->profiling = v->profile_print = true;
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = d->queue_family};
    VkResult r = vkCreateCommandPool(d->device, &pci, NULL, &v->pool);
    if (r != VK_SUCCESS) {
        free(v);
        amp__vk_fail(r, "vkCreateCommandPool");
        return NULL;
    }
    if (v->profile_print) note_printed(v, true);
    amp__lock(d);
    d->views++;
    v->next_on_device = d->view_list;
    d->view_list = v;
    amp__unlock(d);
    return v;
}

amp_accelerator_view *amp_view_create(amp_accelerator *acc, amp_queuing_mode mode)
{
    if (!acc) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_create: NULL accelerator");
        return NULL;
    }
    amp__device *d = amp__accelerator_device(acc);
    return d ? view_new(d, acc, mode) : NULL;
}

amp_accelerator_view *amp_view_create_external(const amp_vulkan_device_desc *desc)
{
    amp__device *d = amp__device_wrap(desc);
    if (!d) return NULL;
    amp_accelerator_view *v = view_new(d, d->accelerator, desc->mode);
    if (!v) amp__device_close(d);
    return v;
}

/* Each accelerator's default view, made on first use and kept for the process's life. */
static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__keyed *default_views;

amp_accelerator_view *amp_accelerator_default_view(amp_accelerator *acc)
{
    if (!acc) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_default_view: NULL accelerator");
        return NULL;
    }
    pthread_mutex_lock(&default_lock);
    amp_accelerator_view *v = amp__keyed_find(default_views, acc);
    pthread_mutex_unlock(&default_lock);
    if (v) return v;
    /* made outside the lock (opening a device takes long); the first one kept wins */
    v = amp_view_create(acc, AMP_QUEUING_AUTOMATIC);
    if (!v) return NULL;
    pthread_mutex_lock(&default_lock);
    amp_accelerator_view *winner = amp__keyed_find(default_views, acc);
    if (!winner && amp__keyed_add(&default_views, acc, v) == AMP_OK) winner = v;
    if (winner == v) v->is_default = true;
    pthread_mutex_unlock(&default_lock);
    if (winner != v) amp_view_destroy(&v);
    return winner;
}

amp_accelerator_view *amp_default_view(void)
{
    amp_accelerator *a = amp_accelerator_default();
    return a ? amp_accelerator_default_view(a) : NULL;
}

/* What the layers above do when a view goes away. */
#define MAX_OBSERVERS 4
static pthread_mutex_t observers_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__view_observer observers[MAX_OBSERVERS];
static int observer_count;

amp_status amp__view_observe_destroy(amp__view_observer fn)
{
    pthread_mutex_lock(&observers_lock);
    bool known = false;
    for (int i = 0; i < observer_count; i++) known |= observers[i] == fn;
    bool room = known || observer_count < MAX_OBSERVERS;
    if (!known && room) observers[observer_count++] = fn;
    pthread_mutex_unlock(&observers_lock);
    return room ? AMP_OK : amp__fail(AMP_ERROR_INVALID_STATE, "more than %d view observers", MAX_OBSERVERS);
}

static void notify_view_destroyed(amp_accelerator_view *v, bool device_closing)
{
    pthread_mutex_lock(&observers_lock);
    int n = observer_count;
    amp__view_observer fns[MAX_OBSERVERS];
    memcpy(fns, observers, sizeof fns);
    pthread_mutex_unlock(&observers_lock);
    for (int i = 0; i < n; i++) fns[i](v, device_closing);
}

static void batch_release(amp__device *d, amp__batch *b)
{
    while (b->staging) {
        amp__staging *s = b->staging;
        b->staging = s->next;
        amp__staging_put(d, s);
    }
    for (uniform_chunk *u = b->uniforms; u; u = u->next) u->used = 0;
    for (descriptor_pool *p = b->pools; p; p = p->next) {
        vkResetDescriptorPool(d->device, p->pool, 0);
        p->used = 0;
    }
}

static void batch_destroy(amp__device *d, amp__batch *b)
{
    batch_release(d, b);
    if (b->queries) vkDestroyQueryPool(d->device, b->queries, NULL);
    free(b->labels);
    while (b->uniforms) {
        uniform_chunk *u = b->uniforms;
        b->uniforms = u->next;
        amp__buffer_destroy(d, &u->buf);
        free(u);
    }
    while (b->pools) {
        descriptor_pool *p = b->pools;
        b->pools = p->next;
        vkDestroyDescriptorPool(d->device, p->pool, NULL);
        free(p);
    }
    free(b);
}

amp_status amp_view_destroy(amp_accelerator_view **pv)
{
    if (!pv || !*pv) return AMP_OK;
    amp_accelerator_view *v = *pv;
    if (v->is_default) {
        *pv = NULL;
        return AMP_OK;
    }
    amp__device *d = v->dev;
    amp__lock(d);
    if (v->arrays > 0) {
        amp__unlock(d);
        return amp__fail(AMP_ERROR_INVALID_STATE, "amp_view_destroy: %d arrays still live on this view", v->arrays);
    }
    amp_status s = amp__view_finish(v);
    notify_view_destroyed(v, d->external && d->views == 1);
    s = s == AMP_OK ? amp__view_finish(v) : s;
    if (v->recording) {
        vkFreeCommandBuffers(d->device, v->pool, 1, &v->recording->cmd);
        batch_destroy(d, v->recording);
    }
    amp__batch *lists[2] = {v->in_flight, v->free_batches};
    for (int i = 0; i < 2; i++)
        while (lists[i]) {
            amp__batch *b = lists[i];
            lists[i] = b->next;
            batch_destroy(d, b);
        }
    vkDestroyCommandPool(d->device, v->pool, NULL);
    for (amp_accelerator_view **p = &d->view_list; *p; p = &(*p)->next_on_device)
        if (*p == v) {
            *p = v->next_on_device;
            break;
        }
    bool close = d->external && --d->views == 0;
    if (!d->external) d->views--;
    amp__unlock(d);
    if (v->profile_print) {
        note_printed(v, false);
        print_profile(v);
    }
    free(v->profile);
    free(v);
    if (close) amp__device_close(d);
    *pv = NULL;
    return s;
}

amp_accelerator *amp_view_accelerator(const amp_accelerator_view *v) { return v ? v->acc : NULL; }
amp_queuing_mode amp_view_queuing_mode(const amp_accelerator_view *v) { return v ? v->mode : AMP_QUEUING_AUTOMATIC; }

amp_status amp_view_get_stats(const amp_accelerator_view *v, amp_view_stats *stats)
{
    if (!v || !stats) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_get_stats: NULL argument");
    *stats = v->stats;
    return AMP_OK;
}

/* ---- device time ---- */

/* Adds one timed command to the view's table. */
static void add_time(amp_accelerator_view *v, const profile_label *l, double ms)
{
    int i = 0;
    while (i < v->profile_count && strcmp(v->profile[i].name, l->name) != 0) i++;
    if (i == v->profile_count) {
        if (v->profile_count == v->profile_cap) {
            int cap = v->profile_cap ? 2 * v->profile_cap : 16;
            amp_profile_entry *p = realloc(v->profile, (size_t)cap * sizeof *p);
            if (!p) return; /* out of memory: this time is not kept */
            v->profile = p;
            v->profile_cap = cap;
        }
        v->profile[i] = (amp_profile_entry){.min_ms = ms, .max_ms = ms};
        memcpy(v->profile[i].name, l->name, sizeof l->name);
        v->profile_count++;
    }
    amp_profile_entry *e = &v->profile[i];
    e->count++;
    e->total_ms += ms;
    e->bytes += l->bytes;
    if (ms < e->min_ms) e->min_ms = ms;
    if (ms > e->max_ms) e->max_ms = ms;
}

/* Where device tick t falls on the host's clock, from one pair of readings of both
 * (ticks dev0 at host0 ns); differences wrap within the timestamp's valid bits. */
static uint64_t host_time(const amp__device *d, uint64_t t, uint64_t dev0, uint64_t host0)
{
    int bits = d->timestamp_mask == UINT64_MAX ? 64 : __builtin_popcountll(d->timestamp_mask);
    int64_t delta = (int64_t)((t - dev0) << (64 - bits)) >> (64 - bits);
    return host0 + (uint64_t)((double)delta * d->props.limits.timestampPeriod);
}

/* A completed batch's timed commands on the trace's device track: placed by a
 * calibrated reading of both clocks where the device has one, else by taking the
 * first command's start as the submission's time. */
static void trace_times(amp_accelerator_view *v, amp__batch *b, const uint64_t *t)
{
    amp__device *d = v->dev;
    uint64_t dev0 = t[0], host0 = b->submit_ns;
    if (d->calibrated_timestamps) {
        VkCalibratedTimestampInfoEXT info[2] = {
            {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
            {.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
             .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
        uint64_t now[2], deviation;
        if (d->calibrated_timestamps(d->device, 2, info, now, &deviation) == VK_SUCCESS) {
            dev0 = now[0];
            host0 = now[1];
        }
    }
    for (uint32_t i = 0; i < b->timed; i++) {
        uint64_t start = host_time(d, t[2 * i], dev0, host0), end = host_time(d, t[2 * i + 1], dev0, host0);
        amp__trace_device(d, d->props.deviceName, b->labels[i].name, start, end > start ? end - start : 0,
                          b->labels[i].bytes);
    }
}

/* The times of a completed batch's timed commands, into the view's table and the
 * trace. */
static void gather_times(amp_accelerator_view *v, amp__batch *b)
{
    if (!b->profiled || !b->timed) return;
    uint64_t t[2 * PROFILE_CAP];
    amp__device *d = v->dev;
    if (vkGetQueryPoolResults(d->device, b->queries, 0, 2 * b->timed, 2 * sizeof *t * b->timed, t, sizeof *t,
                              VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
        double ns = d->props.limits.timestampPeriod;
        for (uint32_t i = 0; v->profiling && i < b->timed; i++)
            add_time(v, &b->labels[i], (double)((t[2 * i + 1] - t[2 * i]) & d->timestamp_mask) * ns * 1e-6);
        if (amp__trace_on()) trace_times(v, b, t);
    }
    b->timed = 0;
}

/* The trace's flush: every view of the device gathers its completed batches. */
static void retire_device(amp__device *d)
{
    amp__lock(d);
    for (amp_accelerator_view *w = d->view_list; w; w = w->next_on_device) amp__view_retire(w);
    amp__unlock(d);
}
static void retire_all(void) { amp__devices_each(retire_device); }

/* Makes b's query pool (first use) and resets it at the start of its commands. */
static void profile_batch(amp_accelerator_view *v, amp__batch *b)
{
    b->profiled = false;
    b->timed = 0;
    if ((!v->profiling && !amp__trace_on()) || !v->dev->timestamp_mask) return;
    if (!b->queries) {
        VkQueryPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                    .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 * PROFILE_CAP};
        b->labels = malloc(PROFILE_CAP * sizeof *b->labels);
        if (!b->labels || vkCreateQueryPool(v->dev->device, &ci, NULL, &b->queries) != VK_SUCCESS) {
            free(b->labels); /* profiling is best effort: this batch goes untimed */
            b->labels = NULL;
            b->queries = VK_NULL_HANDLE;
            return;
        }
    }
    vkCmdResetQueryPool(b->cmd, b->queries, 0, 2 * PROFILE_CAP);
    b->profiled = true;
}

uint32_t amp__profile_begin(amp__batch *b, const char *name, uint64_t bytes)
{
    if (!b->profiled || b->timed == PROFILE_CAP) return UINT32_MAX;
    uint32_t i = b->timed++;
    snprintf(b->labels[i].name, sizeof b->labels[i].name, "%s", name);
    b->labels[i].bytes = bytes;
    vkCmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, b->queries, 2 * i);
    return i;
}

void amp__profile_end(amp__batch *b, uint32_t token)
{
    if (token != UINT32_MAX) vkCmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, b->queries, 2 * token + 1);
}

/* The view's table on stderr (AMPVK_PROFILE=1). */
static void print_profile(amp_accelerator_view *v)
{
    if (!v->profile_count) return;
    fprintf(stderr, "ampvk profile: view %p on \"%s\"\n", (void *)v, v->dev->props.deviceName);
    fprintf(stderr, "  %-32s %8s %12s %10s %10s %10s %10s\n", "name", "count", "total ms", "mean ms", "min ms",
            "max ms", "GB/s");
    for (int i = 0; i < v->profile_count; i++) {
        const amp_profile_entry *e = &v->profile[i];
        double gbs = e->bytes && e->total_ms > 0 ? (double)e->bytes / (e->total_ms * 1e6) : 0;
        fprintf(stderr, "  %-32s %8llu %12.3f %10.4f %10.4f %10.4f", e->name, (unsigned long long)e->count,
                e->total_ms, e->total_ms / (double)e->count, e->min_ms, e->max_ms);
        if (gbs > 0) fprintf(stderr, " %10.2f", gbs);
        fputc('\n', stderr);
    }
}

amp_status amp_view_set_profiling(amp_accelerator_view *v, bool on)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_set_profiling: NULL view");
    if (on && !v->dev->timestamp_mask)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "amp_view_set_profiling: the queue of \"%s\" has no timestamps",
                         v->dev->props.deviceName);
    amp__lock(v->dev);
    v->profiling = on;
    amp__unlock(v->dev);
    return AMP_OK;
}

amp_status amp_view_get_profile(amp_accelerator_view *v, amp_profile_entry *out, int max, int *count)
{
    if (!v || !count || (max > 0 && !out))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_get_profile: NULL argument");
    amp__lock(v->dev);
    amp__view_retire(v);
    for (int i = 0; i < v->profile_count && i < max; i++) out[i] = v->profile[i];
    *count = v->profile_count;
    amp__unlock(v->dev);
    return AMP_OK;
}

/* ---- batches ---- */

void amp__view_retire(amp_accelerator_view *v)
{
    amp__device *d = v->dev;
    while (v->in_flight && amp__device_serial_done(d, v->in_flight->serial)) {
        amp__batch *b = v->in_flight;
        v->in_flight = b->next;
        gather_times(v, b);
        batch_release(d, b);
        b->next = v->free_batches;
        v->free_batches = b;
    }
}

amp__batch *amp__batch_current(amp_accelerator_view *v)
{
    amp__device *d = v->dev;
    if (amp__device_check(d) != AMP_OK) return NULL;
    if (v->recording) return v->recording;
    amp__note_work_started();
    amp__view_retire(v);
    amp__batch *b = v->free_batches;
    if (b) {
        v->free_batches = b->next;
        b->next = NULL;
    } else {
        b = calloc(1, sizeof *b);
        if (!b) {
            amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
            return NULL;
        }
        b->view = v;
        VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = v->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        VkResult r = vkAllocateCommandBuffers(d->device, &ai, &b->cmd);
        if (r != VK_SUCCESS) {
            free(b);
            amp__vk_fail(r, "vkAllocateCommandBuffers");
            return NULL;
        }
    }
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkResult r = vkBeginCommandBuffer(b->cmd, &bi);
    if (r != VK_SUCCESS) {
        b->next = v->free_batches;
        v->free_batches = b;
        amp__vk_fail(r, "vkBeginCommandBuffer");
        return NULL;
    }
    profile_batch(v, b);
    b->serial = ++d->next_serial;
    b->commands = 0;
    b->bound = VK_NULL_HANDLE;
    b->wait_count = 0;
    b->signals[0] = d->timeline;
    b->signal_values[0] = b->serial;
    b->signal_count = 1;
    v->recording = b;
    return b;
}

VkCommandBuffer amp__batch_cmd(amp__batch *b) { return b->cmd; }

amp__batch *amp__batch_fresh(amp_accelerator_view *v)
{
    /* a batch without commands (hand-overs' acquires at most) may wait for more */
    if (v->recording && v->recording->commands > 0 && amp__view_submit(v) != AMP_OK) return NULL;
    return amp__batch_current(v);
}

amp_status amp__batch_wait(amp__batch *b, VkSemaphore s, uint64_t value, VkPipelineStageFlags stages)
{
    for (uint32_t i = 0; i < b->wait_count; i++)
        if (b->waits[i] == s) { /* the same timeline twice: the larger value covers both */
            if (value > b->wait_values[i]) b->wait_values[i] = value;
            b->wait_stages[i] |= stages;
            return AMP_OK;
        }
    if (b->wait_count == BATCH_SEMAPHORES)
        return amp__fail(AMP_ERROR_INVALID_STATE, "one submission waits for at most %d semaphores", BATCH_SEMAPHORES);
    b->waits[b->wait_count] = s;
    b->wait_values[b->wait_count] = value;
    b->wait_stages[b->wait_count++] = stages;
    return AMP_OK;
}

amp_status amp__batch_signal(amp__batch *b, VkSemaphore s, uint64_t value)
{
    if (b->signal_count == BATCH_SEMAPHORES + 1)
        return amp__fail(AMP_ERROR_INVALID_STATE, "one submission signals at most %d semaphores", BATCH_SEMAPHORES);
    b->signals[b->signal_count] = s;
    b->signal_values[b->signal_count++] = value;
    return AMP_OK;
}

bool amp__batch_bind(amp__batch *b, VkPipeline p)
{
    if (b->bound == p) return false;
    b->bound = p;
    return true;
}
uint64_t amp__batch_serial(amp__batch *b) { return b->serial; }

void amp__batch_keep_staging(amp__batch *b, amp__staging *s)
{
    s->next = b->staging;
    b->staging = s;
}

/* Host-visible memory of the batch, bound as uniform or storage buffers, aligned for both. */
static void *batch_memory(amp__batch *b, VkDeviceSize size, VkBuffer *buf, VkDeviceSize *offset)
{
    amp__device *d = b->view->dev;
    VkDeviceSize align = d->props.limits.minUniformBufferOffsetAlignment;
    if (align < d->props.limits.minStorageBufferOffsetAlignment) align = d->props.limits.minStorageBufferOffsetAlignment;
    if (align < 16) align = 16;
    uniform_chunk *u = NULL;
    /* chunks are kept across batch reuse; find one with room */
    for (uniform_chunk *c = b->uniforms; c; c = c->next) {
        VkDeviceSize at = (c->used + align - 1) / align * align;
        if (at + size <= c->buf.size) {
            u = c;
            break;
        }
    }
    if (!u) {
        u = calloc(1, sizeof *u);
        if (!u) {
            amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
            return NULL;
        }
        VkDeviceSize sz = size > UNIFORM_CHUNK ? size : UNIFORM_CHUNK;
        VkBufferUsageFlags usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (amp__buffer_create(d, sz, usage, AMP__MEM_ARGUMENTS, &u->buf) != AMP_OK) {
            free(u);
            return NULL;
        }
        u->next = b->uniforms;
        b->uniforms = u;
    }
    VkDeviceSize at = (u->used + align - 1) / align * align;
    u->used = at + size;
    *buf = u->buf.buffer;
    *offset = at;
    return (char *)u->buf.alloc.mapped + at;
}

void *amp__batch_uniform(amp__batch *b, VkDeviceSize size, VkBuffer *buf, VkDeviceSize *offset)
{
    return batch_memory(b, size, buf, offset);
}

void *amp__batch_scratch(amp__batch *b, VkDeviceSize size, VkBuffer *buf, VkDeviceSize *offset)
{
    return batch_memory(b, size, buf, offset);
}

VkDescriptorSet amp__batch_descriptor_set(amp__batch *b, VkDescriptorSetLayout layout)
{
    amp__device *d = b->view->dev;
    descriptor_pool *p = NULL;
    for (descriptor_pool *q = b->pools; q; q = q->next)
        if (q->used < SETS_PER_POOL) {
            p = q;
            break;
        }
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p) {
            amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
            return VK_NULL_HANDLE;
        }
        /* what any set takes at most: a kernel's, a built-in kernel's, a filter pass's (two
           uniform blocks, three sampled images, a texel buffer) */
        VkDescriptorPoolSize sizes[] = {
            {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, SETS_PER_POOL * 2},
            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, SETS_PER_POOL * 16},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, SETS_PER_POOL * 4},
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, SETS_PER_POOL * 4},
            {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, SETS_PER_POOL * 4},
            {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, SETS_PER_POOL},
        };
        VkDescriptorPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                         .maxSets = SETS_PER_POOL, .poolSizeCount = 6, .pPoolSizes = sizes};
        VkResult r = vkCreateDescriptorPool(d->device, &ci, NULL, &p->pool);
        if (r != VK_SUCCESS) {
            free(p);
            amp__vk_fail(r, "vkCreateDescriptorPool");
            return VK_NULL_HANDLE;
        }
        p->next = b->pools;
        b->pools = p;
    }
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = p->pool, .descriptorSetCount = 1, .pSetLayouts = &layout};
    VkDescriptorSet set;
    VkResult r = vkAllocateDescriptorSets(d->device, &ai, &set);
    if (r != VK_SUCCESS) {
        amp__vk_fail(r, "vkAllocateDescriptorSets");
        return VK_NULL_HANDLE;
    }
    p->used++;
    return set;
}

/* Ends and submits v's recording batch, signalling its serial. */
static amp_status submit_batch(amp_accelerator_view *v)
{
    amp__batch *b = v->recording;
    amp__device *d = v->dev;
    v->recording = NULL;
    VkResult r = vkEndCommandBuffer(b->cmd);
    bool ended = r == VK_SUCCESS;
    if (ended) {
        VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                            .waitSemaphoreValueCount = b->wait_count,
                                            .pWaitSemaphoreValues = b->wait_values,
                                            .signalSemaphoreValueCount = b->signal_count,
                                            .pSignalSemaphoreValues = b->signal_values};
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ts,
                           .waitSemaphoreCount = b->wait_count, .pWaitSemaphores = b->waits,
                           .pWaitDstStageMask = b->wait_stages, .commandBufferCount = 1,
                           .pCommandBuffers = &b->cmd, .signalSemaphoreCount = b->signal_count,
                           .pSignalSemaphores = b->signals};
        uint64_t span = amp__trace_begin();
        b->submit_ns = amp__now_ns();
        amp__queue_lock(d);
        r = vkQueueSubmit(d->queue, 1, &si, VK_NULL_HANDLE);
        if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) {
            /* the driver may find the memory once the work it holds is done: once more */
            vkQueueWaitIdle(d->queue);
            r = vkQueueSubmit(d->queue, 1, &si, VK_NULL_HANDLE);
        }
        amp__queue_unlock(d);
        amp__trace_end(span, "submit", "submit", NULL);
    }
    if (r != VK_SUCCESS) {
        /* The batch's work is lost and its serial will never be signalled: the device
         * is unusable from here on. */
        amp__device_set_lost(d);
        batch_release(d, b);
        b->next = v->free_batches;
        v->free_batches = b;
        return r == VK_ERROR_DEVICE_LOST ? amp__device_check(d)
                                         : amp__vk_fail(r, ended ? "vkQueueSubmit" : "vkEndCommandBuffer");
    }
    v->last_serial = b->serial;
    d->submitted_serial = b->serial;
    v->stats.submits++;
    amp__batch **tail = &v->in_flight;
    while (*tail) tail = &(*tail)->next;
    b->next = NULL;
    *tail = b;
    return AMP_OK;
}

/* Serials are handed out when a batch begins, and views record side by side, so a
 * batch is submitted only after every batch of the device that began before it:
 * the timeline's signals then rise in submission order, and a serial is signalled
 * only once all work with smaller serials has run. */
static amp_status submit_device_through(amp__device *d, uint64_t serial)
{
    if (amp__device_check(d) != AMP_OK) return AMP_ERROR_DEVICE_LOST;
    for (;;) {
        amp_accelerator_view *oldest = NULL;
        for (amp_accelerator_view *w = d->view_list; w; w = w->next_on_device)
            if (w->recording && w->recording->serial <= serial &&
                (!oldest || w->recording->serial < oldest->recording->serial))
                oldest = w;
        if (!oldest) return AMP_OK;
        amp_status s = submit_batch(oldest);
        if (s != AMP_OK) return s;
    }
}

amp_status amp__device_idle(amp__device *d)
{
    amp_status s = submit_device_through(d, d->next_serial);
    return s == AMP_OK ? amp__device_wait_serial(d, d->submitted_serial, UINT64_MAX) : s;
}

amp_status amp__view_submit(amp_accelerator_view *v)
{
    if (amp__device_check(v->dev) != AMP_OK) return AMP_ERROR_DEVICE_LOST;
    return v->recording ? submit_device_through(v->dev, v->recording->serial) : AMP_OK;
}

amp_status amp__view_submit_through(amp_accelerator_view *v, uint64_t serial)
{
    return v && serial ? submit_device_through(v->dev, serial) : AMP_OK;
}

amp_status amp__view_wait_through(amp_accelerator_view *v, uint64_t serial)
{
    if (!serial) return AMP_OK;
    amp_status s = amp__view_submit_through(v, serial);
    return s == AMP_OK ? amp__device_wait_serial(v->dev, serial, UINT64_MAX) : s;
}

amp_status amp__view_command_done(amp_accelerator_view *v)
{
    amp__batch *b = v->recording;
    if (!b) return AMP_OK;
    if (v->mode == AMP_QUEUING_IMMEDIATE || ++b->commands >= BATCH_LIMIT) return amp__view_submit(v);
    return AMP_OK;
}

amp_status amp__view_finish(amp_accelerator_view *v)
{
    amp_status s = amp__view_submit(v);
    if (s != AMP_OK) return s;
    if (v->last_serial) s = amp__device_wait_serial(v->dev, v->last_serial, UINT64_MAX);
    amp__view_retire(v);
    return s;
}

amp_status amp_view_flush(amp_accelerator_view *v)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_flush: NULL view");
    amp__lock(v->dev);
    amp_status s = amp__view_submit(v);
    amp__unlock(v->dev);
    return s;
}

amp_status amp_view_wait(amp_accelerator_view *v)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_wait: NULL view");
    amp__lock(v->dev);
    amp_status s = amp__view_finish(v);
    amp__unlock(v->dev);
    return s;
}

/* ---- semaphores of the application ---- */

static amp_status check_semaphore(const char *who, amp_accelerator_view *v, amp_vulkan_semaphore s)
{
    if (!v) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL view", who);
    if (!s.semaphore) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: no semaphore (0)", who);
    return amp__device_check(v->dev);
}

amp_status amp_view_wait_semaphore(amp_accelerator_view *v, amp_vulkan_semaphore wait)
{
    amp_status s = check_semaphore("amp_view_wait_semaphore", v, wait);
    if (s != AMP_OK) return s;
    amp__lock(v->dev);
    amp__batch *b = amp__batch_fresh(v);
    s = b ? amp__batch_wait(b, (VkSemaphore)(uintptr_t)wait.semaphore, wait.value, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT)
          : amp_last_status();
    amp__unlock(v->dev);
    return s;
}

amp_status amp_view_signal_semaphore(amp_accelerator_view *v, amp_vulkan_semaphore signal)
{
    amp_status s = check_semaphore("amp_view_signal_semaphore", v, signal);
    if (s != AMP_OK) return s;
    amp__lock(v->dev);
    amp__batch *b = amp__batch_current(v);
    s = b ? amp__batch_signal(b, (VkSemaphore)(uintptr_t)signal.semaphore, signal.value) : amp_last_status();
    if (s == AMP_OK) s = amp__view_submit(v);
    amp__unlock(v->dev);
    return s;
}

amp_status amp_view_timeline(amp_accelerator_view *v, amp_vulkan_semaphore *out)
{
    if (!v || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_timeline: NULL argument");
    amp__lock(v->dev);
    amp_status s = amp__view_submit(v);
    if (s == AMP_OK) *out = (amp_vulkan_semaphore){(uint64_t)(uintptr_t)v->dev->timeline, v->last_serial};
    amp__unlock(v->dev);
    return s;
}

/* ---- futures ---- */

amp_future *amp__future_new(amp__device *d, uint64_t serial, amp__host_action action)
{
    amp_future *f = calloc(1, sizeof *f);
    if (!f) {
        if (action.run) action.run(action.ctx, false);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    f->dev = d;
    f->serial = serial;
    f->action = action;
    return f;
}

amp_future *amp_view_create_marker(amp_accelerator_view *v)
{
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_view_create_marker: NULL view");
        return NULL;
    }
    amp__lock(v->dev);
    amp_status s = amp__view_submit(v);
    amp_future *f = s == AMP_OK ? amp__future_new(v->dev, v->last_serial, (amp__host_action){0}) : NULL;
    amp__unlock(v->dev);
    return f;
}

static void future_complete(amp_future *f, amp_status s)
{
    f->done = true;
    f->status = s;
    if (f->action.run) f->action.run(f->action.ctx, s == AMP_OK);
    f->action.run = NULL;
}

amp_status amp_future_wait_for(amp_future *f, uint64_t timeout_ns)
{
    if (!f) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_future_wait: NULL future");
    if (f->done) return f->status;
    amp__lock(f->dev);
    amp_status s = f->serial ? amp__device_wait_serial(f->dev, f->serial, timeout_ns) : AMP_OK;
    /* the host action (a readback's copy out of its staging buffer, which is the
       future's until the action gives it back) runs outside the device lock, so
       that threads copying their downloads do not wait for each other */
    amp__host_action act = {0};
    if (s != AMP_ERROR_TIMEOUT) {
        act = f->action;
        f->action.run = NULL;
    }
    amp__unlock(f->dev);
    if (s == AMP_ERROR_TIMEOUT) return s;
    if (act.run) act.run(act.ctx, s == AMP_OK);
    f->status = s;
    f->done = true;
    return s;
}

amp_status amp_future_wait(amp_future *f) { return amp_future_wait_for(f, UINT64_MAX); }

bool amp_future_ready(amp_future *f)
{
    if (!f) return false;
    if (f->done) return true;
    amp__lock(f->dev);
    if (f->dev->lost) future_complete(f, AMP_ERROR_DEVICE_LOST);
    else if (amp__device_serial_done(f->dev, f->serial)) future_complete(f, AMP_OK);
    amp__unlock(f->dev);
    return f->done;
}

void amp_future_destroy(amp_future **pf)
{
    if (!pf || !*pf) return;
    amp_future_wait(*pf);
    free(*pf);
    *pf = NULL;
}

/* ---- readback ---- */

typedef struct readback_job {
    amp__device *dev;
    amp__staging *staging;
    amp__unpack_fn unpack;
    max_align_t ctx[]; /* the caller's context, copied */
} readback_job;

static void finish_readback(void *ctx, bool ok)
{
    readback_job *j = ctx;
    j->unpack(j->ctx, j->staging->buf.alloc.mapped, ok); /* the staging buffer is this job's until put back */
    amp__lock(j->dev);
    amp__staging_put(j->dev, j->staging);
    amp__unlock(j->dev);
    free(j);
}

amp_future *amp__readback_future(amp__device *d, uint64_t serial, amp__staging *s, amp__unpack_fn unpack,
                                 const void *ctx, size_t ctx_size)
{
    readback_job *j = malloc(sizeof *j + ctx_size);
    if (!j) {
        unpack((void *)ctx, s->buf.alloc.mapped, false);
        amp__staging_put(d, s);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    *j = (readback_job){.dev = d, .staging = s, .unpack = unpack};
    memcpy(j->ctx, ctx, ctx_size);
    return amp__future_new(d, serial, (amp__host_action){finish_readback, j});
}
