/*
 * ampvk/interop.h: ampvk inside an application's own Vulkan renderer.
 *
 * A render tool that owns a VkDevice makes a view over it
 * (amp_view_create_external): ampvk then creates its buffers, images and
 * pipelines on that device and submits to the queue it is given, which may be the
 * application's own queue or another queue of the device. When both submit from
 * different threads, the application gives lock and unlock callbacks, and ampvk
 * calls them around every use of the queue (vkQueueSubmit, and the wait when the
 * last view goes).
 *
 * Resources change hands on the GPU, never by a CPU wait, with timeline semaphores
 * (libplacebo's hold/release model):
 *
 *   - amp_texture_export hands a texture's VkImage to the application: ampvk
 *     submits the work it has recorded on the texture (a layout change to the
 *     layout the application asks for, and the release half of a queue family
 *     ownership transfer when the application's family differs from the view's),
 *     and returns the image, its view, its layout and `ready`: a timeline semaphore
 *     and value that the application waits on (pWaitSemaphores of its submit)
 *     before it touches the image. ampvk does not wait. From then on the texture is
 *     the application's: ampvk calls that would use it fail with
 *     AMP_ERROR_INVALID_STATE ("held by the application") until it comes back.
 *   - amp_texture_import takes it back: the application names its own semaphore
 *     and value, signalled when its last use of the image is done, the layout it
 *     left the image in, and its queue family (whose release barrier, if the
 *     families differ, the application recorded). ampvk's next work on the texture
 *     waits for that semaphore on the GPU, and ampvk records the acquire half of
 *     the ownership transfer and the layout change back. A texture the application
 *     did not touch goes back with wait {0} (or its export's `ready` point), layout
 *     0 and, when it was released to another family, that family (the application
 *     still records its acquire and release).
 *   - Arrays do the same with VkBuffers: amp_array_export / amp_array_import, and
 *     amp_array_wrap_vulkan_buffer makes an array over the application's VkBuffer
 *     (at an offset, of a size), as amp_texture_wrap_vulkan_image does for a VkImage.
 *     A wrapped resource starts as ampvk's, after the semaphore its wrap names.
 *   - Destroying a texture or array waits for ampvk's work on it only. Held or not,
 *     the application must be done with ampvk's own image or buffer before it is
 *     destroyed; a wrapped one is never freed by ampvk.
 *
 * Semaphores can also order whole stretches of work: amp_view_wait_semaphore makes
 * everything recorded on a view after it wait (on the GPU) for the application's
 * semaphore, and amp_view_signal_semaphore signals one when everything recorded so
 * far is done, so an ampvk filter can sit between two of the application's passes.
 * amp_view_timeline gives ampvk's own point for a view: its timeline semaphore and
 * the value reached once all work submitted on the view is done.
 *
 * A semaphore is given as an amp_vulkan_semaphore: the VkSemaphore (as uint64_t)
 * and, for a timeline semaphore, the value (a binary semaphore takes value 0). It
 * must belong to the view's VkDevice. Waits may be submitted before the signal
 * they wait for (timeline semaphores allow it); a wait that is never signalled
 * stalls the view's later work, as it would the application's.
 *
 * The older calls remain for simple cases: amp_texture_get_vulkan_image hands the
 * image out after waiting on the CPU for ampvk's work on it.
 *
 * Vulkan handles are uint64_t (non-dispatchable) or void * (dispatchable), so this
 * header needs no vulkan.h. Layouts are VkImageLayout values, families queue
 * family indices. Thread safety: as the rest of the library (a view's calls are
 * serialized); the application must not submit to the view's queue at the same
 * time as ampvk unless it gives lock callbacks.
 */
#ifndef AMPVK_INTEROP_H
#define AMPVK_INTEROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ampvk/accelerator.h"
#include "ampvk/array.h"
#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/texture.h"
#include "ampvk/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- views over the application's device ---- */

/* Called around ampvk's use of the queue (queue_family and queue_index of the
 * view's queue), so that the application can serialize its own submissions. */
typedef void (*amp_vulkan_queue_lock_fn)(void *user, uint32_t queue_family, uint32_t queue_index);

/* The application's Vulkan objects for amp_view_create_external. Vulkan handles
 * are given as void * (VkInstance, VkPhysicalDevice, VkDevice, VkQueue) so this
 * header needs no vulkan.h; `get_instance_proc_addr` may be NULL (the loader's
 * vkGetInstanceProcAddr is used). The device must have been created with Vulkan
 * 1.2 and the features ampvk needs enabled: timelineSemaphore, scalarBlockLayout
 * (and shaderFloat64 for double kernels); the call checks and names what is
 * missing. The queue must support compute; it may be any queue of the device. */
typedef struct amp_vulkan_device_desc {
    void *instance;
    void *physical_device;
    void *device;
    void *queue;
    uint32_t queue_family;
    void *get_instance_proc_addr;
    amp_queuing_mode mode;
    uint32_t queue_index;               /* the queue's index in its family (passed to the callbacks) */
    amp_vulkan_queue_lock_fn lock_queue; /* both or neither; NULL: the application never submits */
    amp_vulkan_queue_lock_fn unlock_queue; /*   to this queue while ampvk may */
    void *queue_user;                   /* passed to the callbacks */
    /* The VkPhysicalDeviceFeatures2 the device was created with (its core features
     * are read: shaderFloat64, shaderInt64, shaderStorageImageWriteWithoutFormat), or
     * NULL: ampvk then assumes every core feature the device supports is enabled. */
    const void *enabled_features;
} amp_vulkan_device_desc;
/* Creates a view over the application's device. ampvk never destroys the given
 * handles; the application must keep them alive until amp_view_destroy. Errors:
 * missing handles, a device below Vulkan 1.2, a queue family outside the device's
 * or without compute, only one of the two lock callbacks. */
amp_accelerator_view *amp_view_create_external(const amp_vulkan_device_desc *desc);

/* ---- semaphores ---- */

/* A point on a semaphore of the view's device: a VkSemaphore and, for a timeline
 * semaphore, its value (0 for a binary semaphore). */
typedef struct amp_vulkan_semaphore {
    uint64_t semaphore; /* VkSemaphore; 0: none */
    uint64_t value;
} amp_vulkan_semaphore;

/* Work recorded on the view after this call waits on the GPU until the semaphore
 * is signalled (reaches value); work recorded before it is submitted first and does
 * not wait. A semaphore 0 is an error; no CPU wait. */
amp_status amp_view_wait_semaphore(amp_accelerator_view *view, amp_vulkan_semaphore wait);
/* Submits all work recorded on the view; the semaphore is signalled (set to value)
 * when that work, and every earlier submission on the view's queue, is done. A
 * timeline value must be greater than the semaphore's current and pending values. */
amp_status amp_view_signal_semaphore(amp_accelerator_view *view, amp_vulkan_semaphore signal);
/* Submits all work recorded on the view and gives ampvk's timeline semaphore and
 * the value it reaches when that work is done (wait on it before using results of
 * ampvk's work in the application's own submissions). */
amp_status amp_view_timeline(amp_accelerator_view *view, amp_vulkan_semaphore *out);

/* ---- hand-over: what the application does with a resource ---- */

/* The application's side of a hand-over. Zero means the default for each field. */
typedef struct amp_vulkan_access {
    /* The queue family the application uses the resource on: the next one for an
     * export, the last one for an import. When it differs from the view's family
     * (and is not VK_QUEUE_FAMILY_IGNORED), the hand-over is a queue family
     * ownership transfer: ampvk records its half, the application records the other
     * with the same families, layouts and (for images) all levels. 0 is most
     * devices' graphics family. */
    uint32_t queue_family;
    /* Images: the VkImageLayout the application wants (export; 0: GENERAL) or left
     * the image in (import; 0: the layout it was exported in). Ignored for buffers. */
    uint32_t layout;
    /* Import and wrap: signalled when the application's last use is done; ampvk's
     * next work on the resource waits for it. Semaphore 0: nothing to wait for (the
     * application's use is complete, or ordered before ampvk's by other means). */
    amp_vulkan_semaphore wait;
} amp_vulkan_access;

/* ---- textures ---- */

/* The image behind a texture, from amp_texture_get_vulkan_image or
 * amp_texture_export. Its tiling is optimal, except on CPU devices (lavapipe), where a
 * one-level 2-D texture of 8-bit unorm texels of 1, 2 or 4 channels is a linear image
 * (the filters read and write its memory as a buffer there). */
typedef struct amp_vulkan_image {
    uint64_t image;          /* VkImage */
    uint64_t image_view;     /* VkImageView of all levels */
    uint32_t format;         /* VkFormat */
    uint32_t layout;         /* VkImageLayout the image is in */
    uint32_t queue_family;   /* export: the family it was released to (the view's if none) */
    int mip_levels;
    amp_extent extent;
    amp_vulkan_semaphore ready; /* export: wait for this before using the image */
} amp_vulkan_image;

/* The image, its view (all levels) and its layout (GENERAL), after ampvk's work on
 * the texture is flushed and waited for on the CPU. The texture stays ampvk's: the
 * application must not use the image while ampvk works on it. Prefer
 * amp_texture_export in a render loop. */
amp_status amp_texture_get_vulkan_image(amp_texture *t, amp_vulkan_image *out);
/* Hands the texture's image to the application (see the overview): submits ampvk's
 * work on it, moves it to access->layout, releases it to access->queue_family and
 * fills *out; out->ready is the point to wait for. access NULL: GENERAL, the view's
 * family. No CPU wait. AMP_ERROR_INVALID_STATE if already held. */
amp_status amp_texture_export(amp_texture *t, const amp_vulkan_access *access, amp_vulkan_image *out);
/* Takes an exported texture back (see the overview): ampvk's next work on it waits
 * for access->wait, acquires it from access->queue_family and moves it from
 * access->layout. No CPU wait. AMP_ERROR_INVALID_STATE if it is not held. */
amp_status amp_texture_import(amp_texture *t, const amp_vulkan_access *access);
/* True while the texture is held by the application (exported, not imported). */
bool amp_texture_is_exported(const amp_texture *t);

/* An application's VkImage to wrap: created on the view's device with usage
 * SAMPLED | STORAGE | TRANSFER_SRC | TRANSFER_DST (STORAGE only if kernels write
 * it), optimal tiling, one layer, exclusive sharing. */
typedef struct amp_texture_wrap_desc {
    uint64_t image;          /* VkImage */
    uint32_t format;         /* its VkFormat; must be one of ampvk's formats */
    uint32_t layout;         /* its current VkImageLayout (UNDEFINED: contents undefined) */
    amp_extent extent;
    int mip_levels;          /* 0: 1 */
    /* wait: the application's last use; queue_family: the family that used it last
     * (a transfer as for amp_texture_import when it differs); layout is above */
    amp_vulkan_access access;
} amp_texture_wrap_desc;
/* Wraps the image as a texture (ampvk's from then on, after desc->access.wait);
 * ampvk moves it to GENERAL and never destroys it. Export it to give it back. */
amp_texture *amp_texture_wrap_vulkan_image(amp_accelerator_view *view, const amp_texture_wrap_desc *desc);

/* ---- arrays ---- */

/* The buffer range behind an array, from amp_array_export. */
typedef struct amp_vulkan_buffer {
    uint64_t buffer;         /* VkBuffer */
    uint64_t offset;         /* bytes: where the array's elements start */
    uint64_t size;           /* bytes of the array's elements (row-major, packed) */
    uint32_t queue_family;   /* the family it was released to (the view's if none) */
    amp_vulkan_semaphore ready; /* wait for this before using the buffer */
} amp_vulkan_buffer;

/* Hands the array's buffer to the application: ampvk's pending uploads and work on
 * it are submitted, and out->ready is signalled when they are done; the array's
 * device copy is made current first (a host-visible array's host writes included).
 * ampvk calls that use the array fail with AMP_ERROR_INVALID_STATE until
 * amp_array_import. No CPU wait. */
amp_status amp_array_export(amp_array *a, const amp_vulkan_access *access, amp_vulkan_buffer *out);
/* Takes an exported array back: ampvk's next work on it waits for access->wait and
 * acquires it from access->queue_family; the application's writes are its contents. */
amp_status amp_array_import(amp_array *a, const amp_vulkan_access *access);
/* True while the array is held by the application. */
bool amp_array_is_exported(const amp_array *a);

/* An application's VkBuffer to wrap: created on the view's device with usage
 * STORAGE_BUFFER | TRANSFER_SRC | TRANSFER_DST and exclusive sharing. The array's
 * elements are the first extent x element size bytes of the range [offset, offset
 * + size), which must lie within the buffer; offset must be a multiple of the
 * device's minStorageBufferOffsetAlignment. */
typedef struct amp_array_wrap_desc {
    uint64_t buffer;         /* VkBuffer */
    uint64_t offset;         /* bytes */
    uint64_t size;           /* bytes of the range at offset; 0: exactly the array's */
    amp_extent extent;       /* rank 1..3 */
    amp_type type;           /* element type; AMP_TYPE_STRUCT needs element_size */
    size_t element_size;     /* 0: the size of type; a multiple of 4 */
    amp_vulkan_access access; /* wait and queue_family as for amp_array_import */
} amp_array_wrap_desc;
/* Wraps the range as an array (cpu_access none) whose contents are the buffer's;
 * ampvk never destroys the buffer. Export it to give it back. */
amp_array *amp_array_wrap_vulkan_buffer(amp_accelerator_view *view, const amp_array_wrap_desc *desc);

#ifdef __cplusplus
}
#endif
#endif
