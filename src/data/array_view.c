/* Array views (see include/ampvk/array.h): views of host memory (sharing the storage
 * of a view whose memory holds theirs), of arrays, and their sections, projections,
 * reinterpretations and reshapes. */
#include <stdlib.h>

#include "data/data.h"

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
    if (amp__check_extent(who, e) || amp__check_element(who, t, &elem)) return NULL;
    size_t bytes = amp_extent_size(e) * elem;
    amp_array_view tmpl = {.extent = e, .type = t, .elem = elem, .is_const = is_const};
    amp__view_set_dense_strides(&tmpl);
    if (!host) {
        amp__data *d = amp__data_new(bytes, NULL);
        if (!d) return NULL;
        tmpl.data = d;
        amp_array_view *v = view_alloc(&tmpl);
        d->refs--;
        if (!v) amp__data_free(d);
        return v;
    }
    /* share storage with an existing view whose memory contains this range */
    pthread_mutex_lock(&amp__data_registry_lock);
    amp__data *d = amp__data_registry;
    for (; d; d = d->next) {
        char *base = d->host, *p = host;
        if (p >= base && p + bytes <= base + d->size && (size_t)(p - base) % elem == 0) break;
    }
    if (d) {
        tmpl.data = d;
        tmpl.offset = (size_t)((char *)host - (char *)d->host);
        amp_array_view *v = view_alloc(&tmpl);
        pthread_mutex_unlock(&amp__data_registry_lock);
        return v;
    }
    d = amp__data_new(bytes, host);
    if (!d) {
        pthread_mutex_unlock(&amp__data_registry_lock);
        return NULL;
    }
    tmpl.data = d;
    amp_array_view *v = view_alloc(&tmpl);
    d->refs--;
    if (v) {
        d->next = amp__data_registry;
        amp__data_registry = d;
    } else {
        amp__data_free(d);
    }
    pthread_mutex_unlock(&amp__data_registry_lock);
    return v;
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
    amp__data_release(v->data);
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
    if (amp__check_element("amp_array_view_reinterpret", type, &elem)) return NULL;
    if (v->extent.rank != 1) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_reinterpret: only rank-1 views (this one has rank %d)",
                  v->extent.rank);
        return NULL;
    }
    size_t bytes = amp__view_bytes(v);
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
    amp__view_set_dense_strides(&t);
    return view_alloc(&t);
}

amp_array_view *amp_array_view_view_as(amp_array_view *v, amp_extent e)
{
    char a[48], b[48];
    if (!v) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_view_as: NULL view");
        return NULL;
    }
    if (amp__check_extent("amp_array_view_view_as", e)) return NULL;
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
    amp__view_set_dense_strides(&t);
    return view_alloc(&t);
}
