/*
 * ampvk/errors.h: how ampvk reports failure.
 *
 * Every function that can fail returns an amp_status (AMP_OK is 0) or NULL, and
 * leaves a thread-local message that names the problem with its numbers, for
 * example "amp_copy: source has 12 elements but destination has 10". The
 * message stays until the next failing call on the same thread; a successful
 * call does not clear it. amp_last_status() gives the status that went with it.
 *
 * The library never aborts, exits or prints on a user error. An application may
 * install one log callback that receives every error message as it is raised
 * (and, at AMP_LOG_DEBUG, internal notes); it is called on the thread that
 * raised the error and must be thread-safe if the application uses ampvk from
 * several threads.
 *
 * Bad input changes nothing: a call that fails leaves its outputs as they were.
 */
#ifndef AMPVK_ERRORS_H
#define AMPVK_ERRORS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes. Values are stable; new codes are added at the end. */
typedef enum amp_status {
    AMP_OK = 0,
    AMP_ERROR_INVALID_ARGUMENT,  /* a parameter is NULL, out of range or inconsistent */
    AMP_ERROR_OUT_OF_BOUNDS,     /* an index, section or extent exceeds its container */
    AMP_ERROR_UNSUPPORTED,       /* the device or build lacks a feature the call needs */
    AMP_ERROR_OUT_OF_MEMORY,     /* host or device memory exhausted */
    AMP_ERROR_DEVICE_LOST,       /* the Vulkan device was lost; results are undefined */
    AMP_ERROR_VULKAN,            /* another Vulkan call failed (message names it) */
    AMP_ERROR_INVALID_STATE,     /* the call is not allowed now (e.g. set_default after work ran) */
    AMP_ERROR_COMPILE,           /* a kernel failed to compile (message has file:line) */
    AMP_ERROR_ARGUMENT_MISMATCH, /* a kernel argument is missing, extra or of the wrong kind */
    AMP_ERROR_IO,                /* a file could not be opened, read or written */
    AMP_ERROR_FORMAT,            /* a file or buffer is corrupt, truncated or of the wrong format */
    AMP_ERROR_NOT_FOUND,         /* no accelerator/kernel/entry matches the request */
    AMP_ERROR_TIMEOUT            /* a wait ran past its time limit */
} amp_status;

/* Returns a static, human-readable name for a status ("AMP_ERROR_OUT_OF_BOUNDS"). */
const char *amp_status_name(amp_status status);

/* Returns the calling thread's last error message, or "" if none was raised.
 * The string is owned by ampvk and valid until the next ampvk call on this thread. */
const char *amp_last_error(void);

/* Returns the status that went with amp_last_error(), AMP_OK if none. */
amp_status amp_last_status(void);

/* Forgets the calling thread's last error (status AMP_OK, message ""). */
void amp_clear_error(void);

/* Severity of a log message. */
typedef enum amp_log_level {
    AMP_LOG_ERROR = 0, /* an error returned to the caller */
    AMP_LOG_WARN,      /* something worked, but not as well as it could */
    AMP_LOG_INFO,      /* device selection, cache use */
    AMP_LOG_DEBUG      /* internal notes: submits, transfers */
} amp_log_level;

/* A log callback: level, the status (AMP_OK below AMP_LOG_ERROR), the message. */
typedef void (*amp_log_fn)(void *user, amp_log_level level, amp_status status,
                           const char *message);

/* Installs (or, with fn == NULL, removes) the process-wide log callback. Messages up
 * to max_level are delivered. Thread-safe. */
void amp_set_log_callback(amp_log_fn fn, void *user, amp_log_level max_level);

#ifdef __cplusplus
}
#endif
#endif
