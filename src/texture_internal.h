/* Internal interface of textures for the kernel dispatcher. */
#ifndef AMPVK_TEXTURE_INTERNAL_H
#define AMPVK_TEXTURE_INTERNAL_H

#include "ampvk/texture.h"
#include "format.h"

/* What a kernel parameter binds: a texture or a view, resolved to one image view. */
typedef struct amp__texture_use {
    amp_texture *texture;
    int base_mip, mip_count;
    amp_texture_access access; /* of a view; AMP_TEXTURE_READ_WRITE for a whole texture */
} amp__texture_use;

AMP_HIDDEN amp__texture_use amp__texture_use_of(amp_texture *t);
AMP_HIDDEN amp__texture_use amp__texture_use_of_view(amp_texture_view *v);
AMP_HIDDEN const amp__format *amp__texture_format(const amp_texture *t);
AMP_HIDDEN amp__device *amp__texture_device(const amp_texture *t);
AMP_HIDDEN bool amp__texture_storage_ok(const amp_texture *t);
AMP_HIDDEN bool amp__texture_linear_ok(const amp_texture *t);
/* Prepares the texture for a kernel's access on v: gathers its barrier, returns the
 * image view for the use (one level for storage access, the range for reads). */
AMP_HIDDEN amp_status amp__texture_prepare(const amp__texture_use *u, amp_accelerator_view *v, bool storage,
                                           bool write, amp__barrier *bar, VkImageView *view);
/* The device's sampler for s, created once (NULL with an error if impossible). */
AMP_HIDDEN VkSampler amp__sampler_get(amp__device *d, const amp_sampler *s);
AMP_HIDDEN void amp__samplers_release(amp__device *d);

#endif
