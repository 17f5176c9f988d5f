/* The floor of the runtime (src/core): errors and the log, host helpers, files and
 * the cache directory. Every other layer includes this; it includes no other layer.
 * Not installed. */
#ifndef AMPVK_CORE_H
#define AMPVK_CORE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "ampvk/ampvk.h"

#define AMP_HIDDEN __attribute__((visibility("hidden")))

/* ---- errors.c ---- */
/* Records status and a printf-style message as the thread's last error, logs it,
 * and returns status. */
AMP_HIDDEN amp_status amp__fail(amp_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Maps a failed VkResult to a status and message naming the call. */
AMP_HIDDEN amp_status amp__vk_fail(VkResult r, const char *what);
AMP_HIDDEN void amp__log(amp_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
AMP_HIDDEN const char *amp__vk_result_name(VkResult r);

/* ---- host.c ---- */
/* A malloc'ed copy of s (NULL for NULL or when out of memory). */
AMP_HIDDEN char *amp__strdup(const char *s);
/* A 64-bit hash of n bytes (cache keys and checksums). */
AMP_HIDDEN uint64_t amp__hash64(const void *data, size_t n, uint64_t seed);
/* A growing buffer of bytes (zero-initialized: empty); once an append fails for memory,
 * `failed` stays set and later appends do nothing. The owner frees `data`. */
typedef struct amp__bytes {
    char *data;
    size_t n, cap;
    bool failed;
} amp__bytes;
/* Appends n bytes from p to b. */
AMP_HIDDEN void amp__bytes_put(amp__bytes *b, const void *p, size_t n);
/* Writes n bytes from p at offset `at` of b, zero-filling a gap between b's end and
 * `at` (file writers that seek: the image encoders' files in memory). */
AMP_HIDDEN void amp__bytes_put_at(amp__bytes *b, size_t at, const void *p, size_t n);

/* A list of values by key (an address), newest first. The owner does the locking. */
typedef struct amp__keyed {
    const void *key;
    void *value;
    struct amp__keyed *next;
} amp__keyed;
/* The value stored under key, or NULL. */
AMP_HIDDEN void *amp__keyed_find(const amp__keyed *list, const void *key);
/* Puts value under key at the front of the list; AMP_OK or out of memory. */
AMP_HIDDEN amp_status amp__keyed_add(amp__keyed **list, const void *key, void *value);
/* Takes the newest entry off the list: its value (NULL when empty) and its key. */
AMP_HIDDEN void *amp__keyed_pop(amp__keyed **list, const void **key);

/* ---- files.c ---- */
/* Reads a whole file into a malloc'ed buffer with a zero byte after its *size bytes.
 * Returns 0, or an errno value (EISDIR for a directory, ENOMEM) with the step that
 * failed ("open" or "read") in *step if step is not NULL. */
AMP_HIDDEN int amp__file_read(const char *path, char **data, size_t *size, const char **step);
/* Writes size bytes to path through a temporary file in the same directory, renamed
 * over path once complete (and flushed to disk first when durable): readers see the
 * old file or the new one, never a part. Returns 0, or an errno value with the step
 * that failed ("create" or "write") in *step if step is not NULL. */
AMP_HIDDEN int amp__file_write(const char *path, const void *data, size_t size, bool durable, const char **step);
/* dir (its first dir_len bytes) and name joined by one '/', malloc'ed. */
AMP_HIDDEN char *amp__path_join(const char *dir, size_t dir_len, const char *name);
/* True when AMPVK_DEBUG=1: kernels check every access (kernel/debug.c), and devices
 * are opened with robust buffer and image access where they have it. */
AMP_HIDDEN bool amp__debug_mode(void);
/* False when AMPVK_CACHE=0 turns the on-disk caches off. */
AMP_HIDDEN bool amp__cache_enabled(void);
/* The path of name in the cache directory ($XDG_CACHE_HOME/ampvk, else
 * ~/.cache/ampvk, created on demand), malloc'ed; NULL when caching is off or there
 * is no such directory. */
AMP_HIDDEN char *amp__cache_path(const char *name);

/* Runs fn(ctx, begin, end) over pieces of [0, count), at least `grain` items each, on
 * up to as many threads as the host has cores (8 at most), this one included; a piece
 * whose thread cannot start runs on this one. Returns when every piece is done. For
 * host copies of many megabytes, whose time is memory latency and page faults more
 * than bandwidth: one core reaches a fraction of what the memory can do. */
AMP_HIDDEN void amp__parallel_for(size_t count, size_t grain, void (*fn)(void *ctx, size_t begin, size_t end),
                                  void *ctx);
/* The bytes of one piece of a host copy split by amp__parallel_for. */
#define AMP__COPY_PIECE ((size_t)4 << 20)

/* ---- trace.c ---- */
/* CLOCK_MONOTONIC in nanoseconds: the clock of the trace. */
AMP_HIDDEN uint64_t amp__now_ns(void);
/* Whether a trace is being written (AMPVK_TRACE or amp_trace_start). */
AMP_HIDDEN bool amp__trace_on(void);
/* A host span: begin returns its start (0 when no trace is on); end writes it on the
 * calling thread's track under category cat ("record", "submit", "wait", "copy",
 * "compile", "file", "alloc", "init") with JSON members args (NULL: none). */
AMP_HIDDEN uint64_t amp__trace_begin(void);
AMP_HIDDEN void amp__trace_end(uint64_t start_ns, const char *cat, const char *name, const char *args);
/* fn writes the device spans of work that has completed; the trace calls it before it
 * closes (the vulkan layer registers it). */
AMP_HIDDEN void amp__trace_on_flush(void (*fn)(void));
/* Called once a driver is loaded (a device made): the trace's exit handler, which
 * reads the last device spans through the driver, is registered again so that it
 * runs before the driver's own exit handlers, registered when it loaded (a trace
 * opened before, at the instance's span, crashed at exit on NVIDIA's driver).
 * Running twice does no harm: the second finds the trace closed. */
AMP_HIDDEN void amp__trace_exit_after_driver(void);
/* memcpy (large ones over several cores, amp__parallel_for), as a "copy" span named
 * name with its bytes when a trace is on. */
AMP_HIDDEN void amp__trace_memcpy(void *dst, const void *src, size_t n, const char *name);
/* A device span (a dispatch or copy, already placed on the host clock) on the track of
 * device (any key; the track is named after device_name). */
AMP_HIDDEN void amp__trace_device(const void *device, const char *device_name, const char *name, uint64_t start_ns,
                                  uint64_t dur_ns, uint64_t bytes);

#ifdef AMPVK_FAULTS
#include "core/faults.h" /* AMPVK_FAULT_INJECTION builds: fallible calls through a counter */
#endif

#endif
