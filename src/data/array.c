/* Arrays (see include/ampvk/array.h): the checks of element types and extents,
 * arrays made on a device, their properties and host pointer, and the application's
 * buffers wrapped, exported and imported. */
#include <stdlib.h>
#include <string.h>

#include "data/data.h"

/* ---- arrays ---- */

amp_status amp__check_element(const char *who, amp_type type, size_t *elem)
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

amp_status amp__check_extent(const char *who, amp_extent e)
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
    amp__data *d = amp__data_new(bytes, NULL);
    if (!a || !d) {
        free(a);
        amp__data_free(d);
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
    amp__view_set_dense_strides(&a->view);
    a->av = v;
    a->access = access;
    return a;
}

/* Frees an array that never became one (array_new's, its buffer gone or never had). */
static void array_abandon(amp_array *a)
{
    amp__data_free(a->view.data);
    free(a);
}

amp_array *amp_array_create(amp_accelerator_view *v, const amp_array_desc *desc)
{
    if (!desc) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create: NULL desc");
        return NULL;
    }
    size_t elem = desc->element_size;
    if (amp__check_extent("amp_array_create", desc->extent) ||
        amp__check_element("amp_array_create", desc->type, &elem))
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
    amp_status s = amp__buffer_create(v->dev, bytes, AMP__DATA_BUFFER_USAGE,
                                      access == AMP_ACCESS_NONE ? AMP__MEM_DEVICE : AMP__MEM_SHARED, &d->buf);
    if (s == AMP_OK) {
        if (desc->data && bytes) {
            if (d->buf.alloc.mapped) memcpy(d->buf.alloc.mapped, desc->data, bytes);
            else s = amp__view_upload(&a->view, v, desc->data);
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
    amp__data_release(d);
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
    if (amp__data_usable(d, "amp_array_data") != AMP_OK) return NULL;
    amp__lock(a->av->dev);
    amp_status s = amp__data_wait_idle(d);
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
    if (amp__check_extent(who, desc->extent) || amp__check_element(who, desc->type, &elem)) return NULL;
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
    amp_status s = amp__data_usable(d, who);
    /* the storage's last use may be recorded on the array's own view */
    if (s == AMP_OK) s = amp__data_submit_last_use(d);
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
