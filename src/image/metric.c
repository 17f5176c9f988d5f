/* What the accelerated metrics of amp_image_compare* share (compare.c's YIQ and
 * SSIM, flip.c's FLIP): where they run and their 8-bit input. */
#include <stdint.h>
#include <stdlib.h>

#include "ampvk/accelerator.h"
#include "ampvk/image.h"
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
