/* The trace (amp_trace_start, AMPVK_TRACE=file.json): Chrome's trace-event JSON,
 * which Perfetto's UI and chrome://tracing open. One "complete" event per span, on a
 * track per host thread and per device, all on CLOCK_MONOTONIC in microseconds. The
 * file is an array of events written as they end; amp_trace_stop (or the exit)
 * closes it. Off, each hook costs one relaxed atomic load. */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool trace_on;
static FILE *trace_file;
static char *trace_path;
static uint64_t trace_events;
static int next_thread = 1;
static _Thread_local int thread_track; /* this thread's track (0: not named yet) */
static void (*flush_hook)(void);       /* writes the device spans of completed work */

/* Device tracks: a name per track, numbered from 1000. */
enum { DEVICE_TRACKS = 16, DEVICE_TRACK0 = 1000 };
static const void *device_keys[DEVICE_TRACKS];
static int device_track_count;

uint64_t amp__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* s as a JSON string's contents (quotes, backslashes and control bytes escaped). */
static void write_escaped(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(trace_file, "\\%c", c);
        else if (c < 0x20) fprintf(trace_file, "\\u%04x", c);
        else fputc(c, trace_file);
    }
}

/* One event; the caller holds the lock and the trace is open. */
static void write_event(const char *ph, const char *cat, const char *name, int track, uint64_t start_ns,
                        uint64_t dur_ns, const char *args)
{
    fprintf(trace_file, "%s{\"ph\":\"%s\",\"pid\":1,\"tid\":%d,\"cat\":\"%s\",\"name\":\"", trace_events ? ",\n" : "",
            ph, track, cat);
    write_escaped(name);
    fprintf(trace_file, "\",\"ts\":%.3f", (double)start_ns / 1000.0);
    if (ph[0] == 'X') fprintf(trace_file, ",\"dur\":%.3f", (double)dur_ns / 1000.0);
    fprintf(trace_file, ",\"args\":{%s}}", args ? args : "");
    trace_events++;
}

/* A track's name (a metadata event). */
static void name_track(int track, const char *label)
{
    char args[160];
    size_t n = (size_t)snprintf(args, sizeof args, "\"name\":\"");
    for (const char *s = label; *s && n + 8 < sizeof args; s++)
        if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20) args[n++] = *s;
    snprintf(args + n, sizeof args - n, "\"");
    write_event("M", "__metadata", "thread_name", track, 0, 0, args);
}

static void close_locked(void)
{
    if (!trace_file) return;
    fprintf(trace_file, "\n]\n");
    fclose(trace_file);
    trace_file = NULL;
    free(trace_path);
    trace_path = NULL;
    atomic_store(&trace_on, false);
}

void amp__trace_on_flush(void (*fn)(void))
{
    pthread_mutex_lock(&trace_lock);
    flush_hook = fn;
    pthread_mutex_unlock(&trace_lock);
}

/* Runs the flush hook (outside the lock: it takes device locks, then this one). */
static void flush_device_spans(void)
{
    pthread_mutex_lock(&trace_lock);
    void (*hook)(void) = trace_file ? flush_hook : NULL;
    pthread_mutex_unlock(&trace_lock);
    if (hook) hook();
}

static void close_at_exit(void)
{
    flush_device_spans();
    pthread_mutex_lock(&trace_lock);
    close_locked();
    pthread_mutex_unlock(&trace_lock);
}

void amp__trace_exit_after_driver(void)
{
    if (amp__trace_on()) atexit(close_at_exit);
}

static amp_status open_locked(const char *path)
{
    static bool registered;
    if (trace_file)
        return amp__fail(AMP_ERROR_INVALID_STATE, "amp_trace_start: a trace is already being written to \"%s\"",
                         trace_path);
    trace_path = amp__strdup(path);
    if (!trace_path) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    trace_file = fopen(path, "w");
    if (!trace_file) {
        amp_status s = amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_trace_start: cannot create \"%s\": %s", path,
                                 strerror(errno));
        free(trace_path);
        trace_path = NULL;
        return s;
    }
    if (!registered) registered = atexit(close_at_exit) == 0;
    fprintf(trace_file, "[\n");
    trace_events = 0;
    device_track_count = 0;
    next_thread = 1;
    name_track(0, "ampvk");
    atomic_store(&trace_on, true);
    return AMP_OK;
}

/* AMPVK_TRACE=file starts a trace at the first hook (once per process). */
static void trace_from_env(void)
{
    const char *env = getenv("AMPVK_TRACE");
    if (!env || !*env) return;
    pthread_mutex_lock(&trace_lock);
    if (open_locked(env) != AMP_OK) amp__log(AMP_LOG_WARN, "AMPVK_TRACE: %s", amp_last_error());
    pthread_mutex_unlock(&trace_lock);
}

bool amp__trace_on(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, trace_from_env);
    return atomic_load_explicit(&trace_on, memory_order_relaxed);
}

uint64_t amp__trace_begin(void) { return amp__trace_on() ? amp__now_ns() : 0; }

void amp__trace_end(uint64_t start_ns, const char *cat, const char *name, const char *args)
{
    if (!start_ns || !amp__trace_on()) return;
    uint64_t end = amp__now_ns();
    pthread_mutex_lock(&trace_lock);
    if (trace_file) {
        if (!thread_track || thread_track >= next_thread) {
            char label[32];
            thread_track = next_thread++;
            snprintf(label, sizeof label, "host thread %d", thread_track);
            name_track(thread_track, label);
        }
        write_event("X", cat, name, thread_track, start_ns, end - start_ns, args);
    }
    pthread_mutex_unlock(&trace_lock);
}

void amp__trace_device(const void *device, const char *device_name, const char *name, uint64_t start_ns,
                       uint64_t dur_ns, uint64_t bytes)
{
    pthread_mutex_lock(&trace_lock);
    if (trace_file) {
        int i = 0;
        while (i < device_track_count && device_keys[i] != device) i++;
        if (i == device_track_count && i < DEVICE_TRACKS) {
            char label[300];
            snprintf(label, sizeof label, "device: %s", device_name);
            device_keys[device_track_count++] = device;
            name_track(DEVICE_TRACK0 + i, label);
        }
        char args[64] = "";
        if (bytes) snprintf(args, sizeof args, "\"bytes\":%" PRIu64, bytes);
        write_event("X", "device", name, DEVICE_TRACK0 + (i < DEVICE_TRACKS ? i : DEVICE_TRACKS - 1), start_ns,
                    dur_ns, args);
    }
    pthread_mutex_unlock(&trace_lock);
}

amp_status amp_trace_start(const char *path)
{
    if (!path || !*path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_trace_start: no file name");
    amp__trace_on(); /* AMPVK_TRACE first, so that it cannot open behind this one */
    pthread_mutex_lock(&trace_lock);
    amp_status s = open_locked(path);
    pthread_mutex_unlock(&trace_lock);
    return s;
}

amp_status amp_trace_stop(void)
{
    flush_device_spans();
    pthread_mutex_lock(&trace_lock);
    bool open = trace_file != NULL;
    close_locked();
    pthread_mutex_unlock(&trace_lock);
    return open ? AMP_OK : amp__fail(AMP_ERROR_INVALID_STATE, "amp_trace_stop: no trace is being written");
}

typedef struct copy_job {
    char *dst;
    const char *src;
} copy_job;

static void copy_piece(void *ctx, size_t begin, size_t end)
{
    copy_job *j = ctx;
    memcpy(j->dst + begin, j->src + begin, end - begin);
}

void amp__trace_memcpy(void *dst, const void *src, size_t n, const char *name)
{
    uint64_t span = amp__trace_begin();
    amp__parallel_for(n, AMP__COPY_PIECE, copy_piece, &(copy_job){dst, src});
    if (!span) return;
    char args[48];
    snprintf(args, sizeof args, "\"bytes\":%zu", n);
    amp__trace_end(span, "copy", name, args);
}
