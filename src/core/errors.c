/* Thread-local error state and the log callback (see include/ampvk/errors.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static _Thread_local char last_message[1024];
static _Thread_local amp_status last_status;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static amp_log_fn log_fn;
static void *log_user;
static amp_log_level log_max = AMP_LOG_ERROR;

const char *amp_status_name(amp_status s)
{
    static const char *const names[] = {
        "AMP_OK", "AMP_ERROR_INVALID_ARGUMENT", "AMP_ERROR_OUT_OF_BOUNDS",
        "AMP_ERROR_UNSUPPORTED", "AMP_ERROR_OUT_OF_MEMORY", "AMP_ERROR_DEVICE_LOST",
        "AMP_ERROR_VULKAN", "AMP_ERROR_INVALID_STATE", "AMP_ERROR_COMPILE",
        "AMP_ERROR_ARGUMENT_MISMATCH", "AMP_ERROR_IO", "AMP_ERROR_FORMAT",
        "AMP_ERROR_NOT_FOUND", "AMP_ERROR_TIMEOUT"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "AMP_ERROR_UNKNOWN";
}

const char *amp_last_error(void) { return last_message; }
amp_status amp_last_status(void) { return last_status; }
void amp_clear_error(void) { last_message[0] = 0; last_status = AMP_OK; }

void amp_set_log_callback(amp_log_fn fn, void *user, amp_log_level max_level)
{
    pthread_mutex_lock(&log_lock);
    log_fn = fn;
    log_user = user;
    log_max = max_level;
    pthread_mutex_unlock(&log_lock);
}

static void deliver(amp_log_level level, amp_status status, const char *msg)
{
    pthread_mutex_lock(&log_lock);
    amp_log_fn fn = log_fn;
    void *user = log_user;
    bool wanted = fn && level <= log_max;
    pthread_mutex_unlock(&log_lock);
    if (wanted) fn(user, level, status, msg);
}

amp_status amp__fail(amp_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    last_status = status;
    deliver(AMP_LOG_ERROR, status, last_message);
    return status;
}

void amp__log(amp_log_level level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    deliver(level, AMP_OK, buf);
}

const char *amp__vk_result_name(VkResult r)
{
    switch (r) {
#define R(x) case x: return #x;
    R(VK_SUCCESS) R(VK_NOT_READY) R(VK_TIMEOUT) R(VK_INCOMPLETE)
    R(VK_ERROR_OUT_OF_HOST_MEMORY) R(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    R(VK_ERROR_INITIALIZATION_FAILED) R(VK_ERROR_DEVICE_LOST) R(VK_ERROR_MEMORY_MAP_FAILED)
    R(VK_ERROR_LAYER_NOT_PRESENT) R(VK_ERROR_EXTENSION_NOT_PRESENT)
    R(VK_ERROR_FEATURE_NOT_PRESENT) R(VK_ERROR_INCOMPATIBLE_DRIVER)
    R(VK_ERROR_TOO_MANY_OBJECTS) R(VK_ERROR_FORMAT_NOT_SUPPORTED)
    R(VK_ERROR_FRAGMENTED_POOL) R(VK_ERROR_OUT_OF_POOL_MEMORY) R(VK_ERROR_INVALID_EXTERNAL_HANDLE)
#undef R
    default: return "VK_ERROR_UNKNOWN";
    }
}

amp_status amp__vk_fail(VkResult r, const char *what)
{
    amp_status s = AMP_ERROR_VULKAN;
    if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) s = AMP_ERROR_OUT_OF_MEMORY;
    if (r == VK_ERROR_DEVICE_LOST) s = AMP_ERROR_DEVICE_LOST;
    return amp__fail(s, "%s failed: %s (%d)", what, amp__vk_result_name(r), (int)r);
}
