/* Mip chains: level k+1 from level k with a built-in 2x2 (2x2x2) box-filter kernel.
 * Texels past an odd edge are clamped to it, so each output averages the texels
 * it covers and no texel outside the level is read. */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

static const char *const mip_source[3] = {
    "void kernel(index_1 i) {\n"
    "    int e = src_extent - 1;\n"
    "    dst_set(i, (src(min(2 * i, e)) + src(min(2 * i + 1, e))) * 0.5);\n"
    "}\n",
    "void kernel(index_2 i) {\n"
    "    ivec2 e = src_extent - 1, b = 2 * i;\n"
    "    vec4 s = src(min(b, e)) + src(min(b + ivec2(0, 1), e)) + src(min(b + ivec2(1, 0), e)) + src(min(b + 1, e));\n"
    "    dst_set(i, s * 0.25);\n"
    "}\n",
    "void kernel(index_3 i) {\n"
    "    ivec3 e = src_extent - 1, b = 2 * i;\n"
    "    vec4 s = vec4(0.0);\n"
    "    for (int z = 0; z < 2; z++) for (int y = 0; y < 2; y++) for (int x = 0; x < 2; x++)\n"
    "        s += src(min(b + ivec3(z, y, x), e));\n"
    "    dst_set(i, s * 0.125);\n"
    "}\n"};

/* The device's mip kernels, by rank, made on first use: a device cache. */
typedef struct mip_kernels {
    amp_kernel *by_rank[3];
} mip_kernels;

static void mip_kernels_release(amp__device *d, void *state)
{
    (void)d;
    mip_kernels *m = state;
    for (int i = 0; i < 3; i++) amp_kernel_destroy(&m->by_rank[i]);
    free(m);
}

static const amp__device_cache_type mip_cache = {"mip kernels", sizeof(mip_kernels), NULL, mip_kernels_release};

static amp_kernel *mip_kernel(amp_accelerator_view *v, int rank)
{
    amp__device *d = v->dev;
    mip_kernels *m = amp__device_cache(d, &mip_cache);
    if (m && m->by_rank[rank - 1]) return m->by_rank[rank - 1];
    char params[128];
    snprintf(params, sizeof params, "texture_view<const float_4, %d> src, writeonly_texture_view<float_4, %d> dst",
             rank, rank);
    amp_kernel *k = amp__kernel_create(
        v, &(amp_kernel_desc){.params = params, .source = mip_source[rank - 1], .rank = rank, .name = "mip levels"},
        true);
    if (!k) return NULL;
    /* registered after the kernel exists: released before the caches it was made with */
    if (!m && (!(m = calloc(1, sizeof *m)) || amp__device_cache_add(d, &mip_cache, m) != AMP_OK)) {
        free(m);
        amp_kernel_destroy(&k);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    m->by_rank[rank - 1] = k;
    return k;
}

amp_status amp_texture_generate_mips(amp_texture *t)
{
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_generate_mips: NULL texture");
    const amp__format *f = amp__texture_format(t);
    amp_scalar s = amp_type_scalar(f->type);
    if (s != AMP_SCALAR_FLOAT && s != AMP_SCALAR_NORM && s != AMP_SCALAR_UNORM)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "amp_texture_generate_mips: %s textures cannot be filtered (float, norm or unorm only)",
                         amp_type_name(f->type));
    if (!amp__texture_storage_ok(t))
        return amp__fail(AMP_ERROR_UNSUPPORTED, "amp_texture_generate_mips: %s textures of %d bits (%s) cannot be "
                         "written by kernels on this device", amp_type_name(f->type), f->bits,
                         amp__vk_format_name(f->vk));
    int levels = amp_texture_mip_levels(t);
    if (levels == 1) return AMP_OK;
    amp_accelerator_view *v = amp_texture_accelerator_view(t);
    amp_extent e = amp_texture_extent(t);
    amp__lock(v->dev);
    amp_kernel *k = mip_kernel(v, e.rank);
    amp__unlock(v->dev);
    if (!k) return amp_last_status();
    amp_status st = AMP_OK;
    for (int m = 1; m < levels && st == AMP_OK; m++) {
        amp_texture_view *src = amp_texture_view_create(t, &(amp_texture_view_desc){.most_detailed_mip = m - 1,
                                                                                   .mip_levels = 1});
        amp_texture_view *dst = amp_texture_view_create(t, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE,
                                                                                   .most_detailed_mip = m});
        if (!src || !dst) st = amp_last_status();
        else
            st = amp_parallel_for_each(v, amp_texture_mip_extent(t, m), k,
                                       AMP_ARGS(AMP_TEXTURE_VIEW("src", src), AMP_TEXTURE_VIEW("dst", dst)));
        amp_texture_view_destroy(&src);
        amp_texture_view_destroy(&dst);
    }
    return st;
}
