/*
 * ampvk/array.h: arrays, array_views and copies (C++ AMP section 2).
 *
 * amp_array is a container on one accelerator_view: its elements live in device
 * memory. Created from host data it takes a deep copy; data comes back only by an
 * explicit copy (amp_copy_to_host). With a host-visible cpu_access_type (on
 * devices with CPU-shared memory) amp_array_data() gives a host pointer.
 *
 * amp_array_view wraps host memory (or an array, or nothing). Data moves only
 * when needed: to the device when a kernel uses the view, back to the host on
 * amp_array_view_synchronize, on host element access, on a copy to host, and
 * when the last view of that memory is destroyed. Views created over the same
 * host memory (the same base pointer, or a range inside another view's range)
 * share one copy on the device, so each sees the other's writes after
 * synchronize. amp_array_view_discard_data() says the current contents are not
 * needed on the device (an output); amp_array_view_refresh() says the host
 * memory was changed behind the view's back. A view with no data source gets
 * its storage where it is first used.
 *
 * Elements: any amp_type, or AMP_TYPE_STRUCT with an element size that is a
 * multiple of 4 bytes. Host memory is row-major with component 0 most
 * significant, tightly packed.
 *
 * Views of views (each a new handle to destroy): sections, projections
 * (rank N-1), reinterpret_as (a different element type over the same bytes,
 * rank 1 only) and view_as (a different extent, rank 1 only), with C++ AMP's rules.
 *
 * Lifetime: destroy every view handle you create; the host memory a view wraps
 * must outlive its last view (the last destroy writes pending device data back
 * into it). Arrays must be destroyed before their accelerator_view.
 * Thread safety: a view or array may be used from several threads only if the
 * application serializes calls on it.
 */
#ifndef AMPVK_ARRAY_H
#define AMPVK_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

#include "ampvk/accelerator.h"
#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_array amp_array;
typedef struct amp_array_view amp_array_view;

/* Description of an array. Zero means the default for each field. */
typedef struct amp_array_desc {
    amp_extent extent;          /* required: rank 1..3 */
    amp_type type;              /* element type; AMP_TYPE_STRUCT needs element_size */
    size_t element_size;        /* bytes per element; 0: the size of type */
    amp_access_type cpu_access; /* default: the accelerator's default_cpu_access_type */
    const void *data;           /* initial contents (deep copy), or NULL */
    size_t data_size;           /* bytes at data; 0: exactly the array's size */
} amp_array_desc;

/* Creates an array on view (NULL: the default view). Errors: invalid extent or
 * element size, data_size smaller than the array, a host-visible cpu_access on
 * a device without CPU-shared memory, out of memory. */
amp_array *amp_array_create(amp_accelerator_view *view, const amp_array_desc *desc);
/* Waits for work that uses the array, frees it; *array becomes NULL. Views of the
 * array made with amp_array_view_of_array keep its storage alive until they go. */
void amp_array_destroy(amp_array **array);
amp_extent amp_array_extent(const amp_array *array);
amp_type amp_array_type(const amp_array *array);
size_t amp_array_element_size(const amp_array *array);
amp_access_type amp_array_cpu_access_type(const amp_array *array);
amp_accelerator_view *amp_array_accelerator_view(const amp_array *array);
/* The host pointer of a host-visible array, after waiting for device work that
 * writes it; NULL with AMP_ERROR_INVALID_STATE for an AMP_ACCESS_NONE array.
 * Valid until the array is destroyed; do not touch it while a kernel runs. */
void *amp_array_data(amp_array *array);
/* A view of the whole array owned by the array (do not destroy it); use it
 * wherever a view is taken: copies, sections, kernel arguments. */
amp_array_view *amp_array_as_view(amp_array *array);

/* Creates a read-write view over host memory of amp_extent_size(extent) elements.
 * data NULL: a view with no data source. element_size 0: the size of type. */
amp_array_view *amp_array_view_create(amp_extent extent, amp_type type, size_t element_size,
                                      void *data);
/* Creates a read-only view (C++ AMP array_view<const T>): kernels may not write it. */
amp_array_view *amp_array_view_create_const(amp_extent extent, amp_type type,
                                            size_t element_size, const void *data);
/* A new view of the whole array (a handle to destroy). */
amp_array_view *amp_array_view_of_array(amp_array *array);

/* Registers [ptr, ptr + bytes) of the application's memory with the device of acc
 * (NULL: the default accelerator) for transfers, as cudaHostRegister does: its pages
 * are pinned once, now. From then on an array_view over memory inside the range, of
 * any size, moves its data by DMA straight into and out of it from its first transfer
 * on (downloads, amp_array_view_synchronize_to and the last view's write-back; the
 * upload a kernel's use records without a wait still copies to staging, so that the
 * host may change its memory once the call returns), and so do texture copies from
 * and to it (amp_texture_copy_from_host / _to_host and their _async forms) where the
 * image keeps texels as the host has them: no staging buffer, no host copy.
 * Unregistered, a view of 1 MiB or more pins its memory at its first transfer, each
 * new view again, and pinning can cost more than the copy (it runs at a fraction of
 * the copy's bandwidth). Register memory that is reused: frames, batches.
 * It must stay allocated until amp_host_unregister. Errors: NULL ptr or 0 bytes, a
 * range that overlaps one registered before, AMP_ERROR_UNSUPPORTED where the device
 * cannot import host memory (VK_EXT_external_memory_host) or its driver refuses it. */
amp_status amp_host_register(amp_accelerator *acc, void *ptr, size_t bytes);
/* Ends the registration made at ptr on acc's device (NULL: the default
 * accelerator), after the device's work: the memory is unpinned and may be freed.
 * Errors: nothing registered at ptr; AMP_ERROR_INVALID_STATE while array_views over
 * it are alive (their count; destroy them first). */
amp_status amp_host_unregister(amp_accelerator *acc, void *ptr);
/* Destroys a view handle; the last view of host memory writes pending device
 * data back first. NULL and *view == NULL are no-ops. */
void amp_array_view_destroy(amp_array_view **view);

amp_extent amp_array_view_extent(const amp_array_view *view);
amp_type amp_array_view_type(const amp_array_view *view);
size_t amp_array_view_element_size(const amp_array_view *view);
bool amp_array_view_is_const(const amp_array_view *view);

/* A view of the elements from origin, of the given extent (C++ AMP section()).
 * AMP_ERROR_OUT_OF_BOUNDS when it does not fit, with both extents in the message. */
amp_array_view *amp_array_view_section(amp_array_view *view, amp_index origin, amp_extent extent);
/* The rank N-1 view at position i of dimension 0 (C++ AMP av[i]); rank >= 2. */
amp_array_view *amp_array_view_project(amp_array_view *view, int i);
/* The same bytes as elements of another type (rank 1, contiguous views only; the
 * byte size must be a multiple of the new element size). */
amp_array_view *amp_array_view_reinterpret(amp_array_view *view, amp_type type, size_t element_size);
/* The same elements under another extent of equal or smaller size (rank 1 only). */
amp_array_view *amp_array_view_view_as(amp_array_view *view, amp_extent extent);

/* Copies the device data back into the host memory the view wraps (waits). */
amp_status amp_array_view_synchronize(amp_array_view *view);
/* Starts that copy; the future finishes it (the write into host memory happens
 * at amp_future_wait/ready/destroy). NULL on error. */
amp_future *amp_array_view_synchronize_async(amp_array_view *view);
/* Makes the view's current data present on target's device (uploads if needed). */
amp_status amp_array_view_synchronize_to(amp_array_view *view, amp_accelerator_view *target);
amp_future *amp_array_view_synchronize_to_async(amp_array_view *view, amp_accelerator_view *target);
/* The view's current contents are not needed: the next device use skips the copy in. */
amp_status amp_array_view_discard_data(amp_array_view *view);
/* The host memory changed behind the view: the device copy is stale. */
amp_status amp_array_view_refresh(amp_array_view *view);
/* Reads the element at idx into out (element_size bytes), synchronizing first. */
amp_status amp_array_view_get(amp_array_view *view, amp_index idx, void *out);
/* Writes the element at idx from in (element_size bytes). */
amp_status amp_array_view_set(amp_array_view *view, amp_index idx, const void *in);
/* The host pointer of a rank-1 view over host memory after synchronizing (C++ AMP
 * data()); NULL for views of arrays or of rank > 1. */
void *amp_array_view_data(amp_array_view *view);

/* Copies between views (and arrays through amp_array_as_view): extents and element
 * sizes must match; either may be on the host or the device. A failed copy leaves
 * the destination as it was. */
amp_status amp_copy(amp_array_view *src, amp_array_view *dst);
amp_future *amp_copy_async(amp_array_view *src, amp_array_view *dst);
/* Copies the view's elements into dst (row-major, tightly packed);
 * dst_size must hold them all. */
amp_status amp_copy_to_host(amp_array_view *src, void *dst, size_t dst_size);
amp_future *amp_copy_to_host_async(amp_array_view *src, void *dst, size_t dst_size);
/* Copies src_size bytes from host memory into the view (exactly its size). */
amp_status amp_copy_from_host(const void *src, size_t src_size, amp_array_view *dst);
amp_future *amp_copy_from_host_async(const void *src, size_t src_size, amp_array_view *dst);

#ifdef __cplusplus
}
#endif
#endif
