/* Image files (ampvk/image.h): host images, loading any supported format (PNG through
 * png_read.c and libspng; Radiance HDR, JPEG, BMP, TGA and PSD through stb_image in
 * image_stb.c), saving (PNG through png_write.c; JPEG, BMP, TGA and HDR through
 * stb_image_write), and textures made from and written to files. Comparison and
 * golden images are in compare.c.
 *
 * A file is read whole into memory first and its format found from its content;
 * the image size in its header is checked against the host limit (or the device's
 * largest 2-D image, for textures) before any pixel is decoded. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ampvk/image.h"
#include "data/data.h"
#include "image/image_internal.h"

/* The host limits of amp_image_load: width and height, and bytes of samples. */
#define MAX_SIDE 65535u
#define MAX_SAMPLE_BYTES ((uint64_t)1 << 30)

/* ---- files ---- */

static const char *errno_text(int err, char *buf, size_t n)
{
    return strerror_r(err, buf, n); /* the GNU strerror_r (_GNU_SOURCE) */
}

amp_status amp__image_read_file(const char *who, const char *path, unsigned char **data, size_t *size)
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
 * over path once complete: readers see the old file or the new one, never a part.
 * Not flushed to disk first (as other image tools, so a folder of images is not
 * a disk flush per file). */
amp_status amp__image_write_file(const char *who, const char *path, const void *data, size_t size)
{
    char eb[128];
    const char *step;
    int err = amp__file_write(path, data, size, false, &step);
    if (err == ENOMEM) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    return err ? amp__fail(AMP_ERROR_IO, "%s: cannot %s %s: %s", who, step, path, errno_text(err, eb, sizeof eb))
               : AMP_OK;
}

/* ---- formats ---- */

/* Every format, in the order files are sniffed (TGA, which has no signature, last). */
static const amp__codec *const codecs[] = {&amp__codec_png,  &amp__codec_jpeg, &amp__codec_exr,
                                           &amp__codec_webp, &amp__codec_tiff, &amp__codec_bmp,
                                           &amp__codec_psd,  &amp__codec_hdr,  &amp__codec_tga};
#define CODECS (sizeof codecs / sizeof codecs[0])

static const amp__codec *codec_of(amp_image_format f)
{
    for (size_t i = 0; i < CODECS; i++)
        if (codecs[i]->format == f) return codecs[i];
    return NULL;
}

const char *amp_image_format_name(amp_image_format f)
{
    const amp__codec *c = codec_of(f);
    return f == AMP_IMAGE_FORMAT_AUTO ? "auto" : c ? c->name : NULL;
}

/* Whether extension ext (without the dot) is one of the space-separated names of list. */
static bool listed(const char *list, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *p = list; p && *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && strncasecmp(p, ext, n) == 0) return true;
        p += k + (p[k] == ' ');
    }
    return false;
}

amp_image_format amp_image_format_from_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/')) return AMP_IMAGE_FORMAT_AUTO;
    for (size_t i = 0; i < CODECS; i++)
        if (listed(codecs[i]->extensions, dot + 1)) return codecs[i]->format;
    return AMP_IMAGE_FORMAT_AUTO;
}

/* "PNG, JPEG, ..." (read) or ".png, .jpg, ..." (written) into buf. */
static const char *format_list(bool written, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < CODECS && at < n; i++) {
        const amp__codec *c = codecs[i];
        if (written && !c->encode) continue;
        const char *sep = at ? ", " : "";
        if (written) {
            at += (size_t)snprintf(buf + at, n - at, "%s.%.*s", sep, (int)strcspn(c->extensions, " "), c->extensions);
        } else {
            at += (size_t)snprintf(buf + at, n - at, "%s%s", sep, c->title);
        }
    }
    return buf;
}

/* "an" before a vowel, else "a": "an OpenEXR file", "a PNG file". */
static const char *article(const char *word) { return strchr("AEIOUaeiou", word[0]) ? "an" : "a"; }

/* The codec of a file in memory, from its first bytes; NULL when none knows them. */
static const amp__codec *sniff(const unsigned char *d, size_t n)
{
    for (size_t i = 0; i < CODECS; i++)
        if (codecs[i]->sniff(d, n)) return codecs[i];
    return NULL;
}

/* ---- host images ---- */

static size_t sample_bytes(int bits) { return (size_t)bits / 8; }

static size_t packed_row(const amp_image *im) { return (size_t)im->width * (size_t)im->channels * sample_bytes(im->bits); }

static amp_status check_image(const char *who, const char *what, const amp_image *im)
{
    if (!im) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL %s", who, what);
    if (im->width < 1 || im->height < 1 || im->channels < 1 || im->channels > 4 ||
        (im->bits != 8 && im->bits != 16 && im->bits != 32))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: %s is %dx%d with %d channels of %d bits; images need width and height >= 1, 1..4 "
                         "channels and 8, 16 or 32 bits",
                         who, what, im->width, im->height, im->channels, im->bits);
    if (!im->pixels) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %s has no pixels", who, what);
    if (im->stride < packed_row(im))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %s has a stride of %zu bytes, less than its %zu-byte rows",
                         who, what, im->stride, packed_row(im));
    return AMP_OK;
}

amp_status amp_image_create(int width, int height, int channels, int bits, amp_image *out)
{
    const char *who = "amp_image_create";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    amp_image im = {width, height, channels, bits, 0, (void *)1, AMP_IMAGE_FORMAT_AUTO};
    im.stride = width > 0 && channels > 0 && bits > 0 ? packed_row(&im) : 0;
    amp_status s = check_image(who, "the image", &im);
    if (s != AMP_OK) return s;
    if ((uint64_t)im.stride * (uint64_t)height > SIZE_MAX / 2)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: a %dx%d image is too large", who, width, height);
    if (!(im.pixels = calloc((size_t)height, im.stride)))
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for a %dx%d image of %zu bytes", who, width,
                         height, im.stride * (size_t)height);
    *out = im;
    return AMP_OK;
}

void amp_image_free(amp_image *img)
{
    if (!img) return;
    free(img->pixels);
    *img = (amp_image){0};
}

/* ---- decoding ---- */

static amp_status check_load_desc(const char *who, const char *path, const amp_image_load_desc *desc)
{
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    if (!desc) return AMP_OK;
    if (desc->channels < 0 || desc->channels > 4)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: channels %d is outside 0..4", who, desc->channels);
    if (desc->bits != 0 && desc->bits != 8 && desc->bits != 16 && desc->bits != 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8, 16 or 32", who, desc->bits);
    return AMP_OK;
}

/* The size check before decoding: the device's largest 2-D image when loading a
 * texture (view not NULL; *view found if NULL), else the host limits. */
static amp_status check_size(const char *who, const char *path, amp_accelerator_view **view, uint32_t w,
                             uint32_t h, int channels, int bits)
{
    if (view) {
        if (!*view && !(*view = amp_default_view())) return amp_last_status();
        amp__device *d = (*view)->dev;
        uint32_t max = d->props.limits.maxImageDimension2D;
        if (w > max || h > max)
            return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is larger than the device's %ux%u (\"%s\")",
                             who, path, w, h, max, max, d->props.deviceName);
    }
    if (w > MAX_SIDE || h > MAX_SIDE)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is larger than ampvk's %ux%u", who, path, w, h,
                         MAX_SIDE, MAX_SIDE);
    uint64_t bytes = (uint64_t)w * h * (uint64_t)channels * (uint64_t)(bits / 8);
    if (bytes > MAX_SAMPLE_BYTES)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS,
                         "%s: %s: image %ux%u of %d channels at %d bits is %llu bytes; ampvk reads at most %llu", who,
                         path, w, h, channels, bits, (unsigned long long)bytes, (unsigned long long)MAX_SAMPLE_BYTES);
    return AMP_OK;
}

/* What a file of size bytes says in its header, checked against the limits and the
 * file's length (codec's densest encoding) before anything is decoded. */
static amp_status check_header(const amp__file *f, const amp__codec *c, amp_accelerator_view **view,
                               const amp_image *head)
{
    amp_status s = check_size(f->who, f->path, view, (uint32_t)head->width, (uint32_t)head->height, head->channels,
                              head->bits);
    uint64_t pixels = (uint64_t)(uint32_t)head->width * (uint32_t)head->height, most = (uint64_t)f->size * c->densest;
    uint64_t allowed = f->desc->max_pixels;
    if (s == AMP_OK && allowed && pixels > allowed)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: %s: image %ux%u is %llu pixels; max_pixels allows %llu",
                         f->who, f->path, (uint32_t)head->width, (uint32_t)head->height, (unsigned long long)pixels,
                         (unsigned long long)allowed);
    if (s == AMP_OK && pixels > most)
        return amp__fail(AMP_ERROR_FORMAT,
                         "%s: %s is truncated: its header claims %ux%u pixels but %s %s file of %zu bytes holds %llu "
                         "at most", f->who, f->path, (uint32_t)head->width, (uint32_t)head->height, article(c->name),
                         c->name, f->size,
                         (unsigned long long)most);
    return s;
}

/* The depth a load gives: desc's, which must be 8 or 16 for integer files and 32 for
 * float ones, else the file's. */
static amp_status load_bits(const amp__file *f, const amp__codec *c, const amp_image *head, int *bits)
{
    int want = f->desc->bits;
    *bits = head->bits;
    if (!want) return AMP_OK;
    if ((head->bits == 32) != (want == 32))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0%s for %s, %s %s file of %s samples",
                         f->who, want, head->bits == 32 ? " or 32" : ", 8 or 16", f->path, article(c->title), c->title,
                         head->bits == 32 ? "float" : "integer");
    *bits = want;
    return AMP_OK;
}

amp_status amp__image_decode(const char *who, const char *path, const unsigned char *data, size_t size,
                             amp_image_format want, const amp_image_load_desc *desc, amp_accelerator_view **view,
                             amp_image *head, amp__host_image *out)
{
    static const amp_image_load_desc none;
    char list[160];
    amp__file f = {who, path, data, size, desc ? desc : &none};
    const amp__codec *c = sniff(data, size);
    if (want != AMP_IMAGE_FORMAT_AUTO && c != codec_of(want))
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is not %s %s file%s%s", who, path,
                         article(codec_of(want)->title), codec_of(want)->title,
                         c ? "; it holds " : "", c ? c->title : "");
    if (!c)
        return amp__fail(AMP_ERROR_FORMAT, "%s: %s is not an image file ampvk reads (%s)", who, path,
                         format_list(false, list, sizeof list));
    amp_image h = {0};
    void *state = NULL;
    int bits = 0;
    amp_status s = c->open(&f, &h, &state);
    if (s == AMP_OK) s = load_bits(&f, c, &h, &bits);
    if (s == AMP_OK) {
        h.format = c->format;
        h.channels = f.desc->channels ? f.desc->channels : h.channels;
        h.bits = bits;
        s = check_header(&f, c, view, &h);
    }
    if (s == AMP_OK && out) {
        s = c->decode(&f, state, &h, h.channels, out);
        if (s == AMP_OK) s = amp__host_convert(who, path, out, h.channels, h.bits);
    }
    c->close(state);
    if (s == AMP_OK && head) *head = h;
    return s;
}

static void to_public(amp__host_image *im, amp_image_format f, amp_image *out)
{
    *out = (amp_image){im->width, im->height, im->channels, im->bits, 0, im->pixels, f};
    out->stride = packed_row(out);
}

amp_status amp_image_load_memory(const void *data, size_t size, const char *name, const amp_image_load_desc *desc,
                                 amp_image *out)
{
    const char *who = "amp_image_load";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    if (!name) name = "the image";
    if (!data) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL data", who);
    amp_status s = check_load_desc(who, name, desc);
    if (s != AMP_OK) return s;
    if (size == 0) return amp__fail(AMP_ERROR_FORMAT, "%s: %s is empty", who, name);
    amp__host_image im;
    amp_image head;
    s = amp__image_decode(who, name, data, size, AMP_IMAGE_FORMAT_AUTO, desc, NULL, &head, &im);
    if (s == AMP_OK) to_public(&im, head.format, out);
    return s;
}

amp_status amp_image_info(const char *path, amp_image *out)
{
    const char *who = "amp_image_info";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    unsigned char *data = NULL;
    size_t size = 0;
    amp_status s = check_load_desc(who, path, NULL);
    if (s == AMP_OK) s = amp__image_read_file(who, path, &data, &size);
    if (s != AMP_OK) return s;
    s = amp__image_decode(who, path, data, size, AMP_IMAGE_FORMAT_AUTO, NULL, NULL, out, NULL); /* the header only */
    free(data);
    return s;
}

amp_status amp_image_load(const char *path, const amp_image_load_desc *desc, amp_image *out)
{
    const char *who = "amp_image_load";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    unsigned char *data;
    size_t size;
    amp_status s = check_load_desc(who, path, desc);
    if (s == AMP_OK) s = amp__image_read_file(who, path, &data, &size);
    if (s != AMP_OK) return s;
    amp__host_image im;
    amp_image head;
    s = amp__image_decode(who, path, data, size, AMP_IMAGE_FORMAT_AUTO, desc, NULL, &head, &im);
    if (s == AMP_OK) to_public(&im, head.format, out);
    free(data);
    return s;
}

/* ---- encoding ---- */

/* "8 or 16" for a depth mask, into buf. */
static const char *depth_list(unsigned mask, char *buf, size_t n)
{
    static const char *const names[8] = {"", "8", "16", "8 or 16", "32", "8 or 32", "16 or 32", "8, 16 or 32"};
    snprintf(buf, n, "%s", names[mask & 7]);
    return buf;
}

/* The depth an image of `bits` is written at in a format: the one asked for (which
 * it must have), else its own where the format has it, else the nearest it has. */
static amp_status save_depth(const char *who, const amp__codec *c, int bits, int asked, int *out)
{
    static const int prefer[3][3] = {{8, 16, 32}, {16, 8, 32}, {32, 8, 16}};
    char list[16];
    if (asked) {
        if ((asked != 8 && asked != 16 && asked != 32) || !(c->save_bits & AMP__BITS(asked)))
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %s %s file has %s bits per channel, not %d", who,
                             article(c->title), c->title,
                             depth_list(c->save_bits, list, sizeof list), asked);
        *out = asked;
        return AMP_OK;
    }
    const int *p = prefer[bits == 8 ? 0 : bits == 16 ? 1 : 2];
    for (int i = 0; i < 3; i++)
        if (c->save_bits & AMP__BITS(p[i])) {
            *out = p[i];
            break;
        }
    return AMP_OK;
}

amp_status amp_image_encode(const amp_image *img, const amp_image_save_desc *desc, unsigned char **data,
                            size_t *size)
{
    const char *who = "amp_image_encode";
    char list[160];
    amp_image_save_desc d = desc ? *desc : (amp_image_save_desc){0};
    if (!data || !size) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL data or size", who);
    amp_status s = check_image(who, "the image", img);
    if (s != AMP_OK) return s;
    const amp__codec *c = codec_of(d.format);
    if (d.format == AMP_IMAGE_FORMAT_AUTO || !c || !c->encode)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: format %s cannot be written (%s)", who,
                         c ? c->name : d.format == AMP_IMAGE_FORMAT_AUTO ? "auto" : "(unknown)",
                         format_list(true, list, sizeof list));
    if (d.quality < 0 || d.quality > 100)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: quality %d is outside 1..100 (0: 90)", who, d.quality);
    if (d.png_level < 0 || d.png_level > 12)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: PNG level %d is outside 1..12 (0: the default)", who,
                         d.png_level);
    if (d.subsampling != 0 && d.subsampling != 444 && d.subsampling != 422 && d.subsampling != 420)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: chroma subsampling %d is not 444, 422 or 420 (0: 420)", who,
                         d.subsampling);
    if ((unsigned)d.compression > AMP_IMAGE_COMPRESSION_PIZ)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: compression %d is not one of amp_image_compression", who,
                         (int)d.compression);
    int bits = 8;
    if ((s = save_depth(who, c, img->bits, d.bits, &bits)) != AMP_OK) return s;
    if ((uint64_t)img->width * (uint64_t)img->height > (uint64_t)INT_MAX)
        return amp__fail(AMP_ERROR_OUT_OF_BOUNDS, "%s: image %dx%d is too large to encode", who, img->width,
                         img->height);
    unsigned char *file = NULL;
    size_t n = 0;
    s = c->encode(who, img, bits, &d, &file, &n);
    if (s == AMP_OK) {
        *data = file;
        *size = n;
    }
    return s;
}

/* The save description with the format resolved from path. */
static amp_status save_format(const char *who, const char *path, const amp_image_save_desc *desc,
                              amp_image_save_desc *out)
{
    *out = desc ? *desc : (amp_image_save_desc){0};
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    char list[160];
    if (out->format == AMP_IMAGE_FORMAT_AUTO && !(out->format = amp_image_format_from_path(path)))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %s: no image format for this name (%s)", who, path,
                         format_list(true, list, sizeof list));
    return AMP_OK;
}

static amp_status save_image(const char *who, const char *path, const amp_image *img, const amp_image_save_desc *d)
{
    unsigned char *file;
    size_t size;
    amp_status s = amp_image_encode(img, d, &file, &size);
    if (s != AMP_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        const char *m = strncmp(msg, "amp_image_encode: ", 18) == 0 ? msg + 18 : msg;
        return amp__fail(s, "%s: %s: %s", who, path, m);
    }
    s = amp__image_write_file(who, path, file, size);
    free(file);
    return s;
}

amp_status amp_image_save(const char *path, const amp_image *img, const amp_image_save_desc *desc)
{
    const char *who = "amp_image_save";
    amp_image_save_desc d;
    amp_status s = save_format(who, path, desc, &d);
    return s == AMP_OK ? save_image(who, path, img, &d) : s;
}

/* ---- textures ---- */

/* Re-raises the last error with the file named in front. */
static void name_file(const char *who, const char *path)
{
    char msg[512];
    amp_status s = amp_last_status();
    snprintf(msg, sizeof msg, "%s", amp_last_error());
    amp__fail(s, "%s: %s: %s", who, path, msg);
}

/* A texture holding the tightly packed samples of a host image. */
static amp_texture *make_texture(amp_accelerator_view *view, int width, int height, int channels, int bits,
                                 const void *pixels, int mips)
{
    amp_scalar scalar = bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM;
    size_t size = (size_t)width * (size_t)height * (size_t)channels * sample_bytes(bits);
    amp_texture *t = amp_texture_create(view, &(amp_texture_desc){
        .extent = amp_extent2(height, width), .type = (amp_type)AMP_MAKE_TYPE(scalar, channels),
        .bits_per_scalar_element = bits, .mip_levels = mips, .data = pixels, .data_size = size});
    if (t && amp_texture_mip_levels(t) > 1 && amp_texture_generate_mips(t) != AMP_OK) amp_texture_destroy(&t);
    return t;
}

amp_texture *amp_texture_from_image(amp_accelerator_view *view, const amp_image *img, int mip_levels)
{
    const char *who = "amp_texture_from_image";
    if (check_image(who, "the image", img) != AMP_OK) return NULL;
    void *owned;
    const void *samples = amp__image_packed(img, img->bits, &owned);
    if (!samples) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
        return NULL;
    }
    amp_texture *t = make_texture(view, img->width, img->height, img->channels, img->bits, samples, mip_levels);
    free(owned);
    return t;
}

/* Loads a file of format `want` (AUTO: any) into a texture. */
static amp_texture *load_texture(const char *who, amp_accelerator_view *view, const char *path,
                                 amp_image_format want, const amp_image_load_desc *desc)
{
    unsigned char *data;
    size_t size;
    amp__host_image im;
    if (check_load_desc(who, path, desc) != AMP_OK || amp__image_read_file(who, path, &data, &size) != AMP_OK)
        return NULL;
    amp_status s = amp__image_decode(who, path, data, size, want, desc, &view, NULL, &im);
    free(data);
    if (s != AMP_OK) return NULL;
    amp_texture *t = make_texture(view, im.width, im.height, im.channels, im.bits, im.pixels,
                                  desc ? desc->mip_levels : 0);
    free(im.pixels);
    if (!t) name_file(who, path);
    return t;
}

amp_texture *amp_texture_load(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    return load_texture("amp_texture_load", view, path, AMP_IMAGE_FORMAT_AUTO, desc);
}

amp_texture *amp_texture_load_png(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    return load_texture("amp_texture_load_png", view, path, AMP_IMAGE_FORMAT_PNG, desc);
}

amp_texture *amp_texture_load_hdr(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc)
{
    return load_texture("amp_texture_load_hdr", view, path, AMP_IMAGE_FORMAT_HDR, desc);
}

static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float f = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return h & 0x8000 ? -f : f;
}

double amp__texel_component(const void *p, amp_scalar s, int bits, size_t i)
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

void amp__texture_describe(const amp_texture *t, char *buf, size_t n)
{
    char e[48];
    snprintf(buf, n, "%s of %d bits, extent %s", amp_type_name(amp_texture_type(t)),
             amp_texture_bits_per_scalar_element(t), amp_extent_format(amp_texture_extent(t), e, sizeof e));
}

amp_status amp__texture_host(const char *who, amp_texture *t, void **out)
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

amp_status amp__texture_samples(const char *who, amp_texture *t, int bits, amp_image *out)
{
    char d[96];
    if (!t) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL texture", who);
    if (bits != 0 && bits != 8 && bits != 16 && bits != 32)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8, 16 or 32", who, bits);
    amp_extent e = amp_texture_extent(t);
    amp_type type = amp_texture_type(t);
    amp_scalar sc = amp_type_scalar(type);
    int tbits = amp_texture_bits_per_scalar_element(t), comps = amp_type_components(type);
    amp__texture_describe(t, d, sizeof d);
    if (e.rank != 2)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the texture (%s) is %d-D; only 2-D textures are images",
                         who, d, e.rank);
    if (sc != AMP_SCALAR_UNORM && sc != AMP_SCALAR_NORM && sc != AMP_SCALAR_FLOAT)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: %s textures cannot be saved as images (only unorm, norm and float textures can; texture: "
                         "%s)",
                         who, amp_type_name(type), d);
    if (!bits) bits = (sc == AMP_SCALAR_UNORM || sc == AMP_SCALAR_NORM) && tbits == 16 ? 16 : 8;
    void *src = NULL;
    amp_status s = amp__texture_host(who, t, &src);
    if (s != AMP_OK) return s;
    size_t count = amp_extent_size(e) * (size_t)comps;
    if (sc == AMP_SCALAR_UNORM && tbits == bits) { /* the texture's own samples */
        *out = (amp_image){e.dims[1], e.dims[0], comps, bits, 0, src, AMP_IMAGE_FORMAT_AUTO};
        out->stride = packed_row(out);
        return AMP_OK;
    }
    void *dst = malloc(count * sample_bytes(bits));
    if (!dst) {
        free(src);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    for (size_t i = 0; i < count; i++) {
        double x = amp__texel_component(src, sc, tbits, i);
        if (sc == AMP_SCALAR_UNORM) {
            uint32_t u = (uint32_t)x;
            if (bits == 32)
                ((float *)dst)[i] = (float)(x / (tbits == 8 ? 255.0 : 65535.0));
            else if (bits == 16)
                ((uint16_t *)dst)[i] = (uint16_t)(u * 257);
            else
                ((uint8_t *)dst)[i] = (uint8_t)((u * 255 + 32767) / 65535);
            continue;
        }
        if (sc == AMP_SCALAR_NORM) x = x / (tbits == 8 ? 127.0 : 32767.0);
        if (bits == 32)
            ((float *)dst)[i] = (float)x;
        else if (bits == 16)
            ((uint16_t *)dst)[i] = (uint16_t)amp__float_to_unorm(x, 16);
        else
            ((uint8_t *)dst)[i] = (uint8_t)amp__float_to_unorm(x, 8);
    }
    free(src);
    *out = (amp_image){e.dims[1], e.dims[0], comps, bits, 0, dst, AMP_IMAGE_FORMAT_AUTO};
    out->stride = packed_row(out);
    return AMP_OK;
}

amp_status amp_texture_to_image(amp_texture *t, int bits, amp_image *out)
{
    const char *who = "amp_texture_to_image";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    return amp__texture_samples(who, t, bits, out);
}

/* The deflate blocks of PNGs filtered on the device: 63 KiB, whole work groups of
 * png_rows.comp's counting kernel (1024 bytes) under deflate's stored-block limit. */
#define DEVICE_PNG_BLOCK (63 * 1024)

/* What the coding of a texture's rows filtered on the device needs. */
typedef struct device_png_job {
    const char *who, *path;
    amp__png_layout layout;
    amp_status *status;
} device_png_job;

/* The readback of amp__png_rows_download: codes the filtered rows into a PNG file
 * (the host's part, straight from the staging memory) and writes it. */
static void code_device_rows(void *ctx, const void *staged, bool ok)
{
    device_png_job *j = ctx;
    if (!ok) return; /* the future's wait returns the device's failure */
    const amp__png_layout *l = &j->layout;
    const uint8_t *stream = staged;
    unsigned char *file;
    size_t size;
    amp_status s = amp__png_encode_filtered(stream, (size_t)l->stream_bytes,
                                            (const uint32_t *)(stream + 4 * l->types_at), l->block, (int)l->width,
                                            (int)l->height, (int)l->channels, 8 * (int)l->channel_bytes, &file, &size);
    if (s != AMP_OK) {
        name_file(j->who, j->path);
    } else {
        s = amp__image_write_file(j->who, j->path, file, size);
        free(file);
    }
    *j->status = s;
}

/* Whether t goes to a PNG file of d through the device's filtering: a unorm texture of
 * 8 or 16 bits kept at its depth, the default compressor, on a device whose copies
 * run as shaders (GPUs). */
static bool png_on_device(amp_texture *t, const amp_image_save_desc *d)
{
    if (!t || d->format != AMP_IMAGE_FORMAT_PNG || d->png_level != 0) return false;
    int bits = amp_texture_bits_per_scalar_element(t);
    return amp_type_scalar(amp_texture_type(t)) == AMP_SCALAR_UNORM && (bits == 8 || bits == 16) &&
           (d->bits == 0 || d->bits == bits) && amp__png_rows_possible(t, DEVICE_PNG_BLOCK);
}

/* Saves t as a PNG at path with its rows filtered and counted on the device
 * (png_rows.comp) and coded on the host. */
static amp_status save_png_on_device(const char *who, amp_texture *t, const char *path)
{
    amp_status coded = AMP_OK;
    device_png_job j = {who, path, amp__png_rows_layout(t, DEVICE_PNG_BLOCK), &coded};
    amp_future *f = amp__png_rows_download(who, t, DEVICE_PNG_BLOCK, code_device_rows, &j, sizeof j);
    if (!f) return amp_last_status();
    amp_status s = amp_future_wait(f);
    amp_future_destroy(&f);
    return s != AMP_OK ? s : coded;
}

/* The depth of the samples a texture hands to a format's encoder: floats for float
 * textures where the format writes them, and for formats of float samples only;
 * else as asked, or 0 (amp__texture_samples' own choice). */
static int texture_bits(amp_texture *t, const amp__codec *c, const amp_image_save_desc *d)
{
    bool floats = c && !(c->save_bits & AMP__BITS(8)) && (c->half || !(c->save_bits & AMP__BITS(16)));
    if (d->bits) return c && c->half && d->bits == 16 ? 32 : d->bits;
    if (floats) return 32;
    bool float_texture = t && amp_type_scalar(amp_texture_type(t)) == AMP_SCALAR_FLOAT;
    return float_texture && c && (c->save_bits & AMP__BITS(32)) ? 32 : 0;
}

amp_status amp_texture_save(amp_texture *t, const char *path, const amp_image_save_desc *desc)
{
    const char *who = "amp_texture_save";
    amp_image_save_desc d;
    amp_status s = save_format(who, path, desc, &d);
    if (s != AMP_OK) return s;
    if (png_on_device(t, &d)) return save_png_on_device(who, t, path);
    amp_image im;
    s = amp__texture_samples(who, t, texture_bits(t, codec_of(d.format), &d), &im);
    if (s != AMP_OK) return s;
    s = save_image(who, path, &im, &d);
    amp_image_free(&im);
    return s;
}

amp_status amp_texture_save_png(amp_texture *t, const char *path, int bits)
{
    const char *who = "amp_texture_save_png";
    if (!path) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL path", who);
    if (bits != 0 && bits != 8 && bits != 16)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: bits %d is not 0, 8 or 16", who, bits);
    amp_image_save_desc d = {.format = AMP_IMAGE_FORMAT_PNG, .bits = bits};
    if (png_on_device(t, &d)) return save_png_on_device(who, t, path);
    amp_image im;
    amp_status s = amp__texture_samples(who, t, bits, &im);
    if (s != AMP_OK) return s;
    s = save_image(who, path, &im, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG});
    amp_image_free(&im);
    return s;
}
