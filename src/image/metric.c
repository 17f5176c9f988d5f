/* What the accelerated metrics of amp_image_compare* share (compare.c's YIQ and
 * SSIM, flip.c's FLIP): where they run, their kernels and their 8-bit input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ampvk/accelerator.h"
#include "ampvk/image.h"
#include "ampvk/kernel.h"
#include "image/image_internal.h"

amp_accelerator_view *amp__metric_view(const char *who, const char *metric, const amp_image_compare_desc *desc,
                                       int w, int h, size_t per_texel, amp_accelerator_info *info)
{
    if ((size_t)w * (size_t)h > INT32_MAX / per_texel) {
        amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: a %dx%d image is too large for the %s metric", who, w, h, metric);
        return NULL;
    }
    amp_accelerator_view *view = desc->view ? desc->view : amp_default_view();
    return view && amp_accelerator_get_info(amp_view_accelerator(view), info) == AMP_OK ? view : NULL;
}

const uint32_t *amp__rgba8_words(const amp_image *im, size_t words, uint32_t **owned)
{
    *owned = NULL;
    size_t n = (size_t)im->width * (size_t)im->height;
    if (im->bits == 8 && im->channels == 4 && im->stride == (size_t)im->width * 4 && words == n) return im->pixels;
    void *packed;
    const uint8_t *p = amp__image_packed(im, 8, &packed);
    uint32_t *w = p ? calloc(words, 4) : NULL;
    for (size_t i = 0; w && i < n; i++) {
        const uint8_t *q = p + i * (size_t)im->channels;
        uint32_t r = q[0], g = im->channels >= 3 ? q[1] : r, b = im->channels >= 3 ? q[2] : r;
        uint32_t a = im->channels == 4 ? q[3] : im->channels == 2 ? q[1] : 255;
        w[i] = r | g << 8 | b << 16 | a << 24;
    }
    free(packed);
    *owned = w;
    return w;
}

/* The metrics' kernels of a device, made on first use and kept until it closes: a
 * comparison neither compiles its pipelines again nor, destroying them, waits for the
 * device to idle (other threads' comparisons included). */
typedef struct metric_kernel {
    struct metric_kernel *next;
    char *key; /* the description's texts */
    amp_kernel *kernel;
} metric_kernel;

static void metric_kernels_release(amp__device *d, void *state)
{
    (void)d;
    for (metric_kernel *m = state, *next = m ? m->next : NULL; m; m = next, next = m ? m->next : NULL) {
        amp_kernel_destroy(&m->kernel);
        free(m->key);
        free(m);
    }
}

/* The cache's state is its first entry, made with the first kernel. */
static const amp__device_cache_type metric_cache = {"image metric kernels", sizeof(metric_kernel), NULL,
                                                     metric_kernels_release};

static metric_kernel *find_kernel(metric_kernel *m, const char *key)
{
    while (m && strcmp(m->key, key) != 0) m = m->next;
    return m;
}

amp_kernel *amp__metric_kernel(amp_accelerator_view *view, const amp_kernel_desc *desc)
{
    amp__device *d = amp__accelerator_device(amp_view_accelerator(view));
    if (!d) return NULL;
    size_t len = strlen(desc->name) + strlen(desc->declarations ? desc->declarations : "") + strlen(desc->params) +
                 strlen(desc->source) + 16;
    char *key = malloc(len);
    if (!key) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    snprintf(key, len, "%s\n%d\n%s\n%s\n%s", desc->name, desc->rank, desc->declarations ? desc->declarations : "",
             desc->params, desc->source);
    amp__lock(d);
    metric_kernel *first = amp__device_cache(d, &metric_cache), *hit = find_kernel(first, key);
    amp__unlock(d);
    if (hit) {
        free(key);
        return hit->kernel;
    }
    amp_kernel *k = amp_kernel_create(view, desc);
    metric_kernel *m = k ? calloc(1, sizeof *m) : NULL;
    if (!m) {
        if (k) amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        amp_kernel_destroy(&k);
        free(key);
        return NULL;
    }
    m->key = key;
    m->kernel = k;
    amp__lock(d);
    first = amp__device_cache(d, &metric_cache);
    hit = find_kernel(first, key);
    amp_status s = AMP_OK;
    if (!hit && first) {
        m->next = first->next; /* after the first: the registered state stays first */
        first->next = m;
    } else if (!hit) {
        s = amp__device_cache_add(d, &metric_cache, m); /* registered after the kernel exists */
    }
    amp__unlock(d);
    if (hit || s != AMP_OK) { /* another thread made it first, or no memory to keep it */
        amp_kernel_destroy(&m->kernel);
        free(m->key);
        free(m);
        return hit ? hit->kernel : NULL;
    }
    return k;
}
