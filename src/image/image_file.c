/* Image files and comparison (ampvk/image.h): PNG and Radiance HDR loading through
 * stb_image (image_stb.c), PNG saving through png_write.c, golden-image comparison.
 *
 * A file is read whole into memory first; a PNG's structure (signature, chunk
 * lengths, CRCs, IHDR first, IDAT, IEND) is checked here because stb_image checks
 * no CRC and reports a truncated file with odd reasons, and its IHDR gives the
 * real color type (stb reports a palette as RGB or RGBA, and does not count the
 * alpha channel that a gray or RGB tRNS chunk adds). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ampvk/image.h"
#include "image/image_internal.h"

/* ---- files ---- */

static const char *errno_text(int err, char *buf, size_t n)
{
    return strerror_r(err, buf, n); /* the GNU strerror_r (_GNU_SOURCE) */
}

/* Reads a whole file. AMP_ERROR_IO if it cannot be read, AMP_ERROR_FORMAT if it is
 * empty. */
static amp_status read_file(const char *who, const char *path, unsigned char **data, size_t *size)
{
    char eb[128], *buf;
    const char *step;
    size_t n;
    int err = amp__file_read(path, &buf, &n, &step);
    if (err == ENOMEM) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory reading %s", who, path);
    if (err) return amp__fail(AMP_ERROR_IO, "%s: cannot %s %s: %s", who, step, path, errno_text(err, eb, sizeof eb));
    if (n == 0) {
        free(buf);
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is empty", who, path);
    }
    *data = (unsigned char *)buf;
    *size = n;
    return AMP_OK;
}

/* Writes size bytes to path through a temporary file in the same directory, renamed
 * over path once complete and flushed to disk. */
static amp_status write_file(const char *who, const char *path, const void *data, size_t size)
{
    char eb[128];
    const char *step;
    int err = amp__file_write(path, data, size, true, &step);
    if (err == ENOMEM) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    return err ? amp__fail(AMP_ERROR_IO, "%s: cannot %s %s: %s", who, step, path, errno_text(err, eb, sizeof eb))
               : AMP_OK;
}

/* The device's largest 2-D image, or the failure of finding the view. */
static amp_status check_device_size(const char *who, const char *path, amp_accelerator_view **view, uint32_t w,
                                    uint32_t h)
{
    if (!*view && !(*view = amp_default_view())) return amp_last_status();
    amp__device *d = (*view)->dev;
    uint32_t max = d->props.limits.maxImageDimension2D;
    if (w > max || h > max)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is larger than the device's %ux%u (\"%s\")", who,
                         path, w, h, max, max, d->props.deviceName);
    return AMP_OK;
}

static amp_status check_load_desc(const char *who, const char *path, const amp_image_load_desc *desc, bool hdr)
{
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    if (!desc) return AMP_OK;
    if (desc->channels < 0 || desc->channels > 4)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: channels %d is outside 0..4", who, desc->channels);
    if (hdr ? desc->bits != 0 && desc->bits != 32 : desc->bits != 0 && desc->bits != 8 && desc->bits != 16)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not %s", who, desc->bits,
                         hdr ? "0 or 32" : "0, 8 or 16");
    return AMP_OK;
}

static void host_image_free(amp__host_image *im)
{
    if (im->stb)
        amp__stb_free(im->pixels);
    else
        free(im->pixels);
    im->pixels = NULL;
}

static uint16_t to8(uint16_t v) { return (uint16_t)(((uint32_t)v * 255 + 32767) / 65535); }

/* Decodes a PNG to `channels` (0: the file's) at `bits` (0: the file's). */
static amp_status png_decode(const char *who, const char *path, amp__png_reader *r, int channels, int bits,
                             amp__host_image *out)
{
    amp_status s = amp__png_read(r, channels, out);
    if (s != AMP_OK || !bits || bits == out->bits) return s;
    size_t count = (size_t)out->width * (size_t)out->height * (size_t)out->channels;
    void *conv = malloc(count * (size_t)(bits / 8));
    if (!conv) {
        host_image_free(out);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %s", who, path);
    }
    for (size_t i = 0; i < count; i++) {
        if (bits == 16)
            ((uint16_t *)conv)[i] = (uint16_t)(((const uint8_t *)out->pixels)[i] * 257u);
        else
            ((uint8_t *)conv)[i] = (uint8_t)to8(((const uint16_t *)out->pixels)[i]);
    }
    host_image_free(out);
    out->pixels = conv;
    out->bits = bits;
    return AMP_OK;
}

/* Re-raises the last error with the file named in front. */
static void name_file(const char *who, const char *path)
{
    char msg[512];
    amp_status s = amp_last_status();
    snprintf(msg, sizeof msg, "%s", amp_last_error());
    amp__fail(s, "%s: %s: %s", who, path, msg);
}

static amp_texture *make_texture(const char *who, const char *path, amp_accelerator_view *view, amp__host_image *im,
                                 amp_scalar scalar, const amp_image_load_desc *desc)
{
    int mips = desc ? desc->mip_levels : 0;
    size_t size = (size_t)im->width * (size_t)im->height * (size_t)im->channels * (size_t)(im->bits / 8);
    amp_texture *t = amp_texture_create(view, &(amp_texture_desc){
        .extent = amp_extent2(im->height, im->width), .type = (amp_type)AMP_MAKE_TYPE(scalar, im->channels),
        .bits_per_scalar_element = im->bits, .mip_levels = mips, .data = im->pixels, .data_size = size});
    host_image_free(im);
    if (t && amp_texture_mip_levels(t) > 1 && amp_texture_generate_mips(t) != AMP_OK) amp_texture_destroy(&t);
    if (!t) name_file(who, path);
    return t;
}

amp_texture *amp_texture_load_png(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    const char *who = "amp_texture_load_png";
    unsigned char *data;
    size_t size;
    amp__png_info info;
    amp__host_image im;
    if (check_load_desc(who, path, desc, false) != AMP_OK || read_file(who, path, &data, &size) != AMP_OK) return NULL;
    amp__png_reader *r = amp__png_open(who, path, data, size, &info);
    amp_status s = r ? check_device_size(who, path, &view, info.width, info.height) : amp_last_status();
    if (s == AMP_OK) s = png_decode(who, path, r, desc ? desc->channels : 0, desc ? desc->bits : 0, &im);
    amp__png_close(r);
    free(data);
    return s == AMP_OK ? make_texture(who, path, view, &im, AMP_SCALAR_UNORM, desc) : NULL;
}

amp_texture *amp_texture_load_hdr(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    const char *who = "amp_texture_load_hdr";
    unsigned char *data;
    size_t size;
    int w, h, comp, is16;
    if (check_load_desc(who, path, desc, true) != AMP_OK || read_file(who, path, &data, &size) != AMP_OK) return NULL;
    int channels = desc && desc->channels ? desc->channels : 4;
    amp_status s = AMP_OK;
    if (!amp__stb_is_hdr(data, size))
        s = amp__fail(AMP_ERROR_FORMAT, "%s: %s is not a Radiance HDR file (no #?RADIANCE or #?RGBE line)", who, path);
    else if (!amp__stb_info(data, size, &w, &h, &comp, &is16))
        s = amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its header lacks a valid FORMAT or resolution line", who,
                      path);
    if (s == AMP_OK) s = check_device_size(who, path, &view, (uint32_t)w, (uint32_t)h);
    float *px = NULL;
    if (s == AMP_OK && !(px = amp__stb_load_hdr(data, size, channels, &w, &h))) {
        const char *why = amp__stb_reason();
        s = strcmp(why, "truncated") == 0
                ? amp__fail(AMP_ERROR_FORMAT, "%s: %s is truncated: it ends before its pixels do", who, path)
                : amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %s", who, path, why);
    }
    free(data);
    if (s != AMP_OK) return NULL;
    amp__host_image im = {w, h, channels, 32, px, true};
    return make_texture(who, path, view, &im, AMP_SCALAR_FLOAT, desc);
}

/* ---- texels on the host ---- */

static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float f = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return h & 0x8000 ? -f : f;
}

/* Component i of host texel data of a scalar family and size, as a double. */
static double component(const void *p, amp_scalar s, int bits, size_t i)
{
    switch (s) {
    case AMP_SCALAR_UNORM:
    case AMP_SCALAR_UINT:
        return bits == 8 ? ((const uint8_t *)p)[i] : bits == 16 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
    case AMP_SCALAR_NORM:
    case AMP_SCALAR_INT:
        return bits == 8 ? ((const int8_t *)p)[i] : bits == 16 ? ((const int16_t *)p)[i] : ((const int32_t *)p)[i];
    case AMP_SCALAR_FLOAT:
        return bits == 16 ? half_to_float(((const uint16_t *)p)[i]) : ((const float *)p)[i];
    case AMP_SCALAR_DOUBLE:
        return ((const double *)p)[i];
    default:
        return 0;
    }
}

static void describe(const amp_texture *t, char *buf, size_t n)
{
    char e[48];
    snprintf(buf, n, "%s of %d bits, extent %s", amp_type_name(amp_texture_type(t)),
             amp_texture_bits_per_scalar_element(t), amp_extent_format(amp_texture_extent(t), e, sizeof e));
}

/* Level 0 of t on the host, malloc'ed. */
static amp_status texture_host(const char *who, amp_texture *t, void **out)
{
    size_t size = amp_extent_size(amp_texture_extent(t)) * amp_texture_texel_size(t);
    void *p = malloc(size ? size : 1);
    if (!p) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu bytes", who, size);
    amp_status s = amp_texture_copy_to_host(t, NULL, p, size);
    if (s != AMP_OK) {
        free(p);
        return s;
    }
    *out = p;
    return AMP_OK;
}

/* t as PNG samples of `bits` (0: see image.h) per channel. */
static amp_status texture_samples(const char *who, amp_texture *t, int bits, amp__host_image *out)
{
    char d[96];
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    if (bits != 0 && bits != 8 && bits != 16)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8 or 16", who, bits);
    amp_extent e = amp_texture_extent(t);
    amp_type type = amp_texture_type(t);
    amp_scalar sc = amp_type_scalar(type);
    int tbits = amp_texture_bits_per_scalar_element(t), comps = amp_type_components(type);
    describe(t, d, sizeof d);
    if (e.rank != 2)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the texture (%s) is %d-D; only 2-D textures can be saved as PNG",
                         who, d, e.rank);
    if (sc != AMP_SCALAR_UNORM && sc != AMP_SCALAR_NORM && sc != AMP_SCALAR_FLOAT)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: %s textures cannot be saved as PNG (only unorm, norm and float textures can; texture: %s)",
                         who, amp_type_name(type), d);
    if (!bits) bits = (sc == AMP_SCALAR_UNORM || sc == AMP_SCALAR_NORM) && tbits == 16 ? 16 : 8;
    void *src = NULL;
    amp_status s = texture_host(who, t, &src);
    if (s != AMP_OK) return s;
    size_t count = amp_extent_size(e) * (size_t)comps;
    void *dst = malloc(count * (size_t)(bits / 8));
    if (!dst) {
        free(src);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    double scale = bits == 16 ? 65535.0 : 255.0;
    for (size_t i = 0; i < count; i++) {
        uint32_t v;
        if (sc == AMP_SCALAR_UNORM && tbits == bits) {
            v = (uint32_t)component(src, sc, tbits, i);
        } else if (sc == AMP_SCALAR_UNORM) {
            uint32_t u = (uint32_t)component(src, sc, tbits, i);
            v = bits == 16 ? u * 257 : to8((uint16_t)u);
        } else {
            double x = component(src, sc, tbits, i);
            if (sc == AMP_SCALAR_NORM) x = x / (tbits == 8 ? 127.0 : 32767.0);
            x = x > 0 ? (x < 1 ? x : 1) : 0; /* NaN -> 0 */
            v = (uint32_t)(x * scale + 0.5);
        }
        if (bits == 16)
            ((uint16_t *)dst)[i] = (uint16_t)v;
        else
            ((uint8_t *)dst)[i] = (uint8_t)v;
    }
    free(src);
    *out = (amp__host_image){e.dims[1], e.dims[0], comps, bits, dst, false};
    return AMP_OK;
}

amp_status amp_texture_save_png(amp_texture *t, const char *path, int bits)
{
    const char *who = "amp_texture_save_png";
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    amp__host_image im;
    amp_status s = texture_samples(who, t, bits, &im);
    if (s != AMP_OK) return s;
    unsigned char *png;
    size_t size;
    s = amp__png_encode(im.pixels, im.width, im.height, im.channels, im.bits, &png, &size);
    host_image_free(&im);
    if (s != AMP_OK) return s;
    s = write_file(who, path, png, size);
    free(png);
    return s;
}

/* ---- comparison ---- */

static amp_status compare_host(const char *who, const void *a, const void *b, amp_extent e, amp_type type, int bits,
                               const amp_image_compare_desc *desc, amp_image_compare_result *out)
{
    double tol = desc ? desc->tolerance : 0;
    if (!(tol >= 0)) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: tolerance %g is negative or NaN", who, tol);
    amp_scalar sc = amp_type_scalar(type);
    int comps = amp_type_components(type);
    double peak = sc == AMP_SCALAR_UNORM || sc == AMP_SCALAR_UINT ? ldexp(1, bits) - 1
                  : sc == AMP_SCALAR_NORM || sc == AMP_SCALAR_INT ? ldexp(1, bits - 1) - 1
                                                                  : 1.0;
    amp_image_compare_result r = {.texels = amp_extent_size(e), .first_difference = {0}};
    double sum = 0, sum2 = 0;
    for (size_t t = 0; t < r.texels; t++) {
        bool differs = false;
        for (int c = 0; c < comps; c++) {
            size_t i = t * (size_t)comps + (size_t)c;
            double x = component(a, sc, bits, i), y = component(b, sc, bits, i);
            double d = isnan(x) && isnan(y) ? 0 : isnan(x) || isnan(y) ? INFINITY : fabs(x - y);
            sum += d;
            sum2 += d * d;
            if (d > r.channel_max_abs_diff[c]) r.channel_max_abs_diff[c] = d;
            if (d > r.max_abs_diff) r.max_abs_diff = d;
            if (d > tol) differs = true;
        }
        if (differs && r.differing_texels++ == 0) r.first_difference = amp_extent_unlinear(e, t);
    }
    size_t n = r.texels * (size_t)comps;
    r.mean_abs_diff = n ? sum / (double)n : 0;
    double mse = n ? sum2 / (double)n : 0;
    r.psnr = mse == 0 ? INFINITY : 10 * log10(peak * peak / mse);
    r.equal = r.differing_texels == 0;
    *out = r;
    return AMP_OK;
}

amp_status amp_image_compare(amp_texture *a, amp_texture *b, const amp_image_compare_desc *desc,
                             amp_image_compare_result *out)
{
    const char *who = "amp_image_compare";
    if (!a || !b || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    amp_extent e = amp_texture_extent(a);
    amp_type type = amp_texture_type(a);
    int bits = amp_texture_bits_per_scalar_element(a);
    if (type != amp_texture_type(b) || bits != amp_texture_bits_per_scalar_element(b) ||
        !amp_extent_equal(e, amp_texture_extent(b))) {
        char da[96], db[96];
        describe(a, da, sizeof da);
        describe(b, db, sizeof db);
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: cannot compare %s with %s", who, da, db);
    }
    void *ha = NULL, *hb = NULL;
    amp_status s = texture_host(who, a, &ha);
    if (s == AMP_OK) s = texture_host(who, b, &hb);
    if (s == AMP_OK) s = compare_host(who, ha, hb, e, type, bits, desc, out);
    free(ha);
    free(hb);
    return s;
}

amp_status amp_image_compare_png(amp_texture *t, const char *golden_path, const amp_image_compare_desc *desc,
                                 amp_image_compare_result *out)
{
    const char *who = "amp_image_compare_png";
    if (!t || !golden_path || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    unsigned char *data;
    size_t size;
    amp__png_info info;
    amp_status s = read_file(who, golden_path, &data, &size);
    if (s != AMP_OK) return s;
    amp__png_reader *reader = amp__png_open(who, golden_path, data, size, &info);
    s = reader ? AMP_OK : amp_last_status();
    amp_extent e = amp_texture_extent(t);
    int comps = amp_type_components(amp_texture_type(t));
    if (s == AMP_OK && (e.rank != 2 || (uint32_t)e.dims[0] != info.height || (uint32_t)e.dims[1] != info.width ||
                        comps != info.channels)) {
        char d[96];
        describe(t, d, sizeof d);
        s = amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                      "%s: cannot compare the texture (%s) with %s, an image of %ux%u with %d channels", who, d,
                      golden_path, info.width, info.height, info.channels);
    }
    amp__host_image golden = {0}, mine = {0};
    if (s == AMP_OK) s = png_decode(who, golden_path, reader, 0, 0, &golden);
    amp__png_close(reader);
    free(data);
    if (s == AMP_OK) s = texture_samples(who, t, golden.bits, &mine);
    if (s == AMP_OK)
        s = compare_host(who, mine.pixels, golden.pixels, e, (amp_type)AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps),
                         golden.bits, desc, out);
    host_image_free(&golden);
    host_image_free(&mine);
    return s;
}
