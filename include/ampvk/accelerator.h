/*
 * ampvk/accelerator.h: accelerators, accelerator_views and futures.
 *
 * Every Vulkan physical device is an accelerator (C++ AMP's `accelerator`).
 * The list is built on first use and lives until the process ends; the
 * amp_accelerator pointers it hands out never dangle (a first use that runs out
 * of memory fails with AMP_ERROR_OUT_OF_MEMORY, and the next one tries again).
 * Mesa's lavapipe and other CPU devices are accelerators too, with is_emulated set.
 *
 * The default accelerator is chosen once, on first need:
 *   1. AMPVK_DEFAULT_ACCELERATOR, if set: a decimal index into the list, a
 *      device_path, or a case-insensitive substring of the description;
 *   2. else the first discrete GPU, then integrated, then virtual, then CPU
 *      (ties broken by the larger device-local heap).
 * amp_accelerator_set_default() overrides it, but only before any work ran.
 *
 * An accelerator_view is a queue of work on one accelerator (C++ AMP's
 * `accelerator_view`). Each view owns a command stream: parallel_for_each and
 * copies are recorded into it and submitted at flush points. In
 * AMP_QUEUING_AUTOMATIC mode (the default) commands are batched until host
 * access to data, amp_view_flush(), amp_view_wait(), a marker, or the batch limit;
 * in AMP_QUEUING_IMMEDIATE mode every command is submitted at once.
 *
 * A view can also be made over an application's own Vulkan objects
 * (amp_view_create_external): ampvk then records into queues of that VkDevice and
 * never destroys what it was given.
 *
 * A future (C++ AMP's completion_future) completes when the work before it has;
 * amp_future_wait() also finishes any host-side part (for an asynchronous copy to
 * host memory, the final copy into the application's buffer).
 *
 * A lost device (C++ AMP's accelerator_view_removed) stays lost: from the call that
 * finds it on, every call that needs the device, on any of its views, fails with
 * AMP_ERROR_DEVICE_LOST and a message naming it, and records nothing more. Results
 * of work still pending are gone (a copy to host memory leaves its destination as
 * it was), array_views of host memory keep what was last synchronized to the host
 * (amp_array_view_refresh declares that copy current, and the view can go on on
 * another device), and everything on the device can still be destroyed (the
 * destroy calls free all and report the loss where they would have waited). Other
 * devices are not affected. A submission the driver refuses (out of memory even
 * after the queue has drained) loses the work recorded in it and counts as a lost
 * device.
 *
 * Environment:
 *   AMPVK_DEFAULT_ACCELERATOR  see above
 *   AMPVK_VALIDATION=1         enable VK_LAYER_KHRONOS_validation with
 *                              synchronization validation; each message goes to
 *                              the log callback and is counted
 *                              (amp_validation_message_count)
 *
 * Thread safety: the accelerator functions are thread-safe. An accelerator_view
 * may be used from several threads; its calls are serialized internally.
 */
#ifndef AMPVK_ACCELERATOR_H
#define AMPVK_ACCELERATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ampvk/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_accelerator amp_accelerator;
typedef struct amp_accelerator_view amp_accelerator_view;
typedef struct amp_future amp_future;

/* How the host may touch memory of arrays (C++ AMP access_type). */
typedef enum amp_access_type {
    AMP_ACCESS_AUTO = 0,   /* the accelerator's default_cpu_access_type */
    AMP_ACCESS_NONE,       /* device memory only; data moves by copies */
    AMP_ACCESS_READ,       /* host-visible, read back cached */
    AMP_ACCESS_WRITE,      /* host-visible, written by the host */
    AMP_ACCESS_READ_WRITE  /* host-visible, read and written */
} amp_access_type;

/* When recorded work is submitted. */
typedef enum amp_queuing_mode {
    AMP_QUEUING_AUTOMATIC = 0, /* batch until a flush point */
    AMP_QUEUING_IMMEDIATE      /* submit every command at once */
} amp_queuing_mode;

/* Properties of an accelerator (C++ AMP accelerator members). Strings are owned by
 * ampvk and live as long as the accelerator. */
typedef struct amp_accelerator_info {
    const char *device_path;   /* stable id: "vulkan:<deviceUUID>" */
    const char *description;   /* the Vulkan device name */
    uint32_t version;          /* Vulkan API version: major << 16 | minor */
    size_t dedicated_memory;   /* device-local memory in KB (largest device-local heap) */
    bool supports_double_precision;         /* shaderFloat64 */
    bool supports_limited_double_precision; /* shaderFloat64 (same in Vulkan) */
    bool supports_cpu_shared_memory;        /* a memory type is device-local and host-visible */
    bool is_emulated;          /* a CPU implementation (lavapipe, SwiftShader) */
    bool is_debug;             /* the validation layer is on */
    bool has_display;          /* always false: ampvk creates no display */
    int index;                 /* position in the accelerator list */
    /* Limits that kernels meet (from VkPhysicalDeviceLimits): */
    uint32_t max_tile_threads;      /* threads per tile (maxComputeWorkGroupInvocations, at most 1024) */
    uint32_t max_tile_size[3];      /* per dimension, most significant last: x, y, z */
    uint32_t max_groups[3];         /* groups per dispatch along x, y, z; larger domains are split */
    uint32_t max_tile_static_bytes; /* tile_static memory per tile (maxComputeSharedMemorySize) */
} amp_accelerator_info;

/* Number of accelerators, 0 when there is no Vulkan (then amp_last_error() says why). */
int amp_accelerator_count(void);
/* The accelerator at position i (0-based), NULL when out of range. */
amp_accelerator *amp_accelerator_at(int i);
/* The accelerator whose device_path, index or description matches key as
 * AMPVK_DEFAULT_ACCELERATOR would; NULL with AMP_ERROR_NOT_FOUND otherwise. */
amp_accelerator *amp_accelerator_find(const char *key);
/* The default accelerator (see the overview), NULL when there is none. */
amp_accelerator *amp_accelerator_default(void);
/* Makes the accelerator matching key the default. AMP_ERROR_INVALID_STATE once any
 * view has been used; AMP_ERROR_NOT_FOUND when nothing matches. */
amp_status amp_accelerator_set_default(const char *key);
/* Fills *info with the properties of acc. */
amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info);
/* The access type new arrays on acc get when they ask for AMP_ACCESS_AUTO:
 * AMP_ACCESS_NONE unless set. */
amp_access_type amp_accelerator_default_cpu_access_type(const amp_accelerator *acc);
/* Sets it; AMP_ERROR_UNSUPPORTED for a host-visible type on an accelerator without
 * CPU-shared memory. */
amp_status amp_accelerator_set_default_cpu_access_type(amp_accelerator *acc, amp_access_type t);
/* The accelerator's default view (automatic queuing), created on first call and
 * owned by the accelerator. NULL if the device cannot be opened. */
amp_accelerator_view *amp_accelerator_default_view(amp_accelerator *acc);
/* The default view of the default accelerator. */
amp_accelerator_view *amp_default_view(void);

/* Creates a new view on acc with its own command stream. */
amp_accelerator_view *amp_view_create(amp_accelerator *acc, amp_queuing_mode mode);

/* Views over an application's own VkDevice: amp_view_create_external in
 * ampvk/interop.h. */

/* Waits for the view's work and destroys it; *view becomes NULL. Arrays created on
 * it must be destroyed first (AMP_ERROR_INVALID_STATE otherwise; nothing freed).
 * Destroying a default view is a no-op. NULL and *view == NULL are no-ops. */
amp_status amp_view_destroy(amp_accelerator_view **view);
/* The accelerator a view runs on (for an external view, the list entry with the
 * same device, or NULL). */
amp_accelerator *amp_view_accelerator(const amp_accelerator_view *view);
amp_queuing_mode amp_view_queuing_mode(const amp_accelerator_view *view);
/* Submits all recorded work without waiting. */
amp_status amp_view_flush(amp_accelerator_view *view);
/* Submits and waits until all work on the view is complete. */
amp_status amp_view_wait(amp_accelerator_view *view);
/* Submits recorded work and returns a future that completes with it. */
amp_future *amp_view_create_marker(amp_accelerator_view *view);
/* Counters of what a view has done, for tests and profiling. */
typedef struct amp_view_stats {
    uint64_t submits;        /* batches submitted to the queue */
    uint64_t dispatches;     /* kernel dispatches recorded (split dispatches count each) */
    uint64_t barriers;       /* pipeline barriers recorded */
    uint64_t uploads;        /* host-to-device transfers */
    uint64_t downloads;      /* device-to-host transfers */
    uint64_t device_copies;  /* device-to-device copies */
    uint64_t upload_bytes;
    uint64_t download_bytes;
} amp_view_stats;
/* Fills *stats with the view's counters since it was created. */
amp_status amp_view_get_stats(const amp_accelerator_view *view, amp_view_stats *stats);

/* Device time of a view's work. With profiling on, every dispatch (by kernel name:
 * desc.name, the file, or "kernel"; built-in filters as "filter NAME" of their
 * shader) and every copy ("upload", "download", "device copy", with the bytes it
 * moved) is timed on the device with timestamp queries, and the times are gathered
 * per name when its batch completes. Off (the default) it costs a branch per
 * command. AMPVK_PROFILE=1 turns it on for every view and prints each view's table
 * to stderr when the view is destroyed, or at exit for views still alive. */
typedef struct amp_profile_entry {
    char name[48];
    uint64_t count;          /* commands timed */
    double total_ms, min_ms, max_ms;
    uint64_t bytes;          /* copies: bytes moved in all */
} amp_profile_entry;
/* Turns profiling on or off for work recorded from now on. AMP_ERROR_UNSUPPORTED
 * where the view's queue has no timestamps. */
amp_status amp_view_set_profiling(amp_accelerator_view *view, bool on);
/* Copies up to max entries (completed work only; nothing waits) into out and sets
 * *count to how many there are; out may be NULL with max 0 to count them. */
amp_status amp_view_get_profile(amp_accelerator_view *view, amp_profile_entry *out, int max, int *count);

/* The trace: a Chrome trace-event JSON file (open it in Perfetto's UI, ui.perfetto.dev,
 * or chrome://tracing) with the host's spans on a track per thread (record: each
 * parallel_for_each, copy and filter; submit; wait; copy: host copies into and out of
 * staging memory; compile: kernel compiles and pipeline builds; file: PNG and HDR
 * decoding and encoding; alloc: device memory allocations; init: the Vulkan instance
 * and each device made) and every dispatch and copy the devices ran on a track per
 * device, timed with timestamp queries and placed on the host's clock (calibrated
 * timestamps where the device has VK_EXT_calibrated_timestamps; else by the batch's
 * submission, so approximately). While a trace is on, every view times its work (as
 * amp_view_set_profiling). AMPVK_TRACE=file.json starts one at the first call into
 * ampvk; the exit ends it. Device spans appear once their batch is known complete
 * (a wait, or a later call that retires it), so wait before amp_trace_stop for a full
 * picture. */
/* Starts writing a trace to path (created or replaced). AMP_ERROR_INVALID_STATE when a
 * trace is already on (the message names its file); AMP_ERROR_INVALID_ARGUMENT when
 * path cannot be created (with the reason). */
amp_status amp_trace_start(const char *path);
/* Ends the trace: the file is complete JSON when this returns. AMP_ERROR_INVALID_STATE
 * when none is on. */
amp_status amp_trace_stop(void);

/* Waits for the future (and runs its host-side completion). Returns the status of
 * the work: an error raised while it ran (device lost) is reported here. */
amp_status amp_future_wait(amp_future *f);
/* Like amp_future_wait but gives up after timeout_ns: AMP_ERROR_TIMEOUT. */
amp_status amp_future_wait_for(amp_future *f, uint64_t timeout_ns);
/* True when the future has completed (polls; never blocks). */
bool amp_future_ready(amp_future *f);
/* Destroys the future; if it has not completed, waits for it first so that no
 * host-side part is lost. NULL is a no-op; *f becomes NULL. */
void amp_future_destroy(amp_future **f);

/* Validation messages seen since start (0 unless AMPVK_VALIDATION=1). */
uint64_t amp_validation_message_count(void);

#ifdef __cplusplus
}
#endif
#endif
