/* Image comparison and golden images (ampvk/image.h): textures with textures, with
 * golden PNGs and host images with host images, the picture of a difference, and
 * amp_image_check_golden, the golden-image test in one call. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ampvk/image.h"
#include "image/image_internal.h"

static amp_status check_desc(const char *who, const amp_image_compare_desc *desc)
{
    if (!desc) return AMP_OK;
    if (!(desc->tolerance >= 0))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: tolerance %g is negative or NaN", who, desc->tolerance);
    if (!(desc->max_fraction >= 0 && desc->max_fraction <= 1))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: max_fraction %g is outside 0..1", who, desc->max_fraction);
    return AMP_OK;
}

/* Compares packed texel data of `comps` components of a scalar family and size. */
static void compare_host(const void *a, const void *b, amp_extent e, amp_scalar sc, int comps, int bits,
                         const amp_image_compare_desc *desc, amp_image_compare_result *out)
{
    double tol = desc ? desc->tolerance : 0;
    double peak = sc == AMP_SCALAR_UNORM || sc == AMP_SCALAR_UINT ? ldexp(1, bits) - 1
                  : sc == AMP_SCALAR_NORM || sc == AMP_SCALAR_INT ? ldexp(1, bits - 1) - 1
                                                                  : 1.0;
    amp_image_compare_result r = {.texels = amp_extent_size(e), .first_difference = {0}};
    double sum = 0, sum2 = 0;
    for (size_t t = 0; t < r.texels; t++) {
        bool differs = false;
        for (int c = 0; c < comps; c++) {
            size_t i = t * (size_t)comps + (size_t)c;
            double x = amp__texel_component(a, sc, bits, i), y = amp__texel_component(b, sc, bits, i);
            /* equal values (infinities too, whose difference is NaN) and two NaNs: 0 */
            double d = x == y || (isnan(x) && isnan(y)) ? 0 : isnan(x) || isnan(y) ? INFINITY : fabs(x - y);
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
    size_t by_fraction = desc ? (size_t)floor(desc->max_fraction * (double)r.texels) : 0;
    r.allowed_texels = desc && desc->max_pixels > by_fraction ? desc->max_pixels : by_fraction;
    r.passed = r.differing_texels <= r.allowed_texels;
    *out = r;
}

amp_status amp_image_compare(amp_texture *a, amp_texture *b, const amp_image_compare_desc *desc,
                             amp_image_compare_result *out)
{
    const char *who = "amp_image_compare";
    if (!a || !b || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    amp_status s = check_desc(who, desc);
    if (s != AMP_OK) return s;
    amp_extent e = amp_texture_extent(a);
    amp_type type = amp_texture_type(a);
    int bits = amp_texture_bits_per_scalar_element(a);
    if (type != amp_texture_type(b) || bits != amp_texture_bits_per_scalar_element(b) ||
        !amp_extent_equal(e, amp_texture_extent(b))) {
        char da[96], db[96];
        amp__texture_describe(a, da, sizeof da);
        amp__texture_describe(b, db, sizeof db);
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: cannot compare %s with %s", who, da, db);
    }
    void *ha = NULL, *hb = NULL;
    s = amp__texture_host(who, a, &ha);
    if (s == AMP_OK) s = amp__texture_host(who, b, &hb);
    if (s == AMP_OK) compare_host(ha, hb, e, amp_type_scalar(type), amp_type_components(type), bits, desc, out);
    free(ha);
    free(hb);
    return s;
}

/* Loads a golden PNG at its own depth and channels. */
static amp_status load_golden(const char *who, const char *path, amp__host_image *out)
{
    unsigned char *data;
    size_t size;
    amp_status s = amp__image_read_file(who, path, &data, &size);
    if (s != AMP_OK) return s;
    s = amp__image_decode(who, path, data, size, AMP_IMAGE_FORMAT_PNG, NULL, NULL, NULL, out);
    free(data);
    return s;
}

static amp_image public_image(const amp__host_image *h)
{
    return (amp_image){h->width, h->height, h->channels, h->bits,
                       (size_t)h->width * (size_t)h->channels * (size_t)(h->bits / 8), h->pixels,
                       AMP_IMAGE_FORMAT_PNG};
}

/* Compares two images whose sizes and channels match, actual converted to
 * expected's depth. */
static amp_status compare_images(const char *who, const amp_image *expected, const amp_image *actual,
                                 const amp_image_compare_desc *desc, amp_image_compare_result *out)
{
    void *owned_e, *owned_a;
    const void *e = amp__image_packed(expected, expected->bits, &owned_e);
    const void *a = e ? amp__image_packed(actual, expected->bits, &owned_a) : NULL;
    if (!e || !a) {
        free(owned_e);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    amp_scalar sc = expected->bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM;
    compare_host(a, e, amp_extent2(expected->height, expected->width), sc, expected->channels, expected->bits, desc,
                 out);
    free(owned_e);
    free(owned_a);
    return AMP_OK;
}

static amp_status check_pair(const char *who, const amp_image *expected, const amp_image *actual)
{
    if (!expected || !actual) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL image", who);
    if (expected->width != actual->width || expected->height != actual->height ||
        expected->channels != actual->channels)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: cannot compare the expected image, %dx%d with %d channels, with the actual one, %dx%d "
                         "with %d channels",
                         who, expected->width, expected->height, expected->channels, actual->width, actual->height,
                         actual->channels);
    for (int i = 0; i < 2; i++) {
        const amp_image *im = i ? actual : expected;
        if (!im->pixels || im->width < 1 || im->height < 1 || im->channels < 1 || im->channels > 4 ||
            (im->bits != 8 && im->bits != 16 && im->bits != 32) ||
            im->stride < (size_t)im->width * (size_t)im->channels * (size_t)(im->bits / 8))
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "%s: the %s image (%dx%d, %d channels of %d bits, stride %zu) is not a valid image", who,
                             i ? "actual" : "expected", im->width, im->height, im->channels, im->bits, im->stride);
    }
    return AMP_OK;
}

amp_status amp_image_compare_images(const amp_image *expected, const amp_image *actual,
                                    const amp_image_compare_desc *desc, amp_image_compare_result *out)
{
    const char *who = "amp_image_compare_images";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    amp_status s = check_desc(who, desc);
    if (s == AMP_OK) s = check_pair(who, expected, actual);
    return s == AMP_OK ? compare_images(who, expected, actual, desc, out) : s;
}

/* Compares t with a golden image already loaded: t at the golden's depth. */
static amp_status compare_with(const char *who, amp_texture *t, const char *golden_path, const amp_image *golden,
                               const amp_image_compare_desc *desc, amp_image *mine, amp_image_compare_result *out)
{
    amp_extent e = amp_texture_extent(t);
    int comps = amp_type_components(amp_texture_type(t));
    if (e.rank != 2 || e.dims[0] != golden->height || e.dims[1] != golden->width || comps != golden->channels) {
        char d[96];
        amp__texture_describe(t, d, sizeof d);
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: cannot compare the texture (%s) with %s, an image of %dx%d with %d channels", who, d,
                         golden_path, golden->width, golden->height, golden->channels);
    }
    amp_status s = amp__texture_samples(who, t, golden->bits, mine);
    return s == AMP_OK ? compare_images(who, golden, mine, desc, out) : s;
}

amp_status amp_image_compare_png(amp_texture *t, const char *golden_path, const amp_image_compare_desc *desc,
                                 amp_image_compare_result *out)
{
    const char *who = "amp_image_compare_png";
    if (!t || !golden_path || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    amp_status s = check_desc(who, desc);
    amp__host_image golden = {0};
    if (s == AMP_OK) s = load_golden(who, golden_path, &golden);
    if (s != AMP_OK) return s;
    amp_image g = public_image(&golden), mine = {0};
    s = compare_with(who, t, golden_path, &g, desc, &mine, out);
    free(golden.pixels);
    amp_image_free(&mine);
    return s;
}

amp_status amp_image_diff(const amp_image *expected, const amp_image *actual, double tolerance, amp_image *out)
{
    const char *who = "amp_image_diff";
    if (!out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out", who);
    *out = (amp_image){0};
    if (!(tolerance >= 0))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: tolerance %g is negative or NaN", who, tolerance);
    amp_status s = check_pair(who, expected, actual);
    if (s != AMP_OK) return s;
    int bits = expected->bits, ch = expected->channels;
    void *owned_e, *owned_a, *owned_g;
    const void *e = amp__image_packed(expected, bits, &owned_e);
    const void *a = e ? amp__image_packed(actual, bits, &owned_a) : NULL;
    const uint8_t *g = a ? amp__image_packed(expected, 8, &owned_g) : NULL; /* expected at 8 bits, for the gray */
    if (g) s = amp_image_create(expected->width, expected->height, 3, 8, out);
    if (!g || s != AMP_OK) {
        if (g) free(owned_g);
        if (a) free(owned_a);
        if (e) free(owned_e);
        return g ? s : amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    }
    amp_scalar sc = bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM;
    size_t texels = (size_t)expected->width * (size_t)expected->height;
    uint8_t *o = out->pixels;
    for (size_t t = 0; t < texels; t++) {
        bool differs = false;
        for (int c = 0; c < ch; c++) {
            size_t i = t * (size_t)ch + (size_t)c;
            double x = amp__texel_component(e, sc, bits, i), y = amp__texel_component(a, sc, bits, i);
            if (x != y && !(fabs(x - y) <= tolerance) && !(isnan(x) && isnan(y))) differs = true;
        }
        const uint8_t *p = g + t * (size_t)ch;
        int luma = ch >= 3 ? (77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8 : p[0];
        uint8_t faded = (uint8_t)(luma / 3 + 170);
        o[3 * t] = differs ? 255 : faded;
        o[3 * t + 1] = o[3 * t + 2] = differs ? 0 : faded;
    }
    free(owned_e);
    free(owned_a);
    free(owned_g);
    return AMP_OK;
}

/* ---- golden images ---- */

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0 && strcasecmp(v, "false") != 0;
}

/* mkdir -p. 0 or an errno value. */
static int make_dirs(const char *dir)
{
    char *p = strdup(dir);
    if (!p) return ENOMEM;
    int err = 0;
    for (char *q = p + 1;; q++) {
        if (*q == '/' || *q == '\0') {
            char c = *q;
            *q = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST) {
                err = errno;
                break;
            }
            *q = c;
            if (!c) break;
        }
    }
    free(p);
    return err;
}

/* Writes NAME.actual.png, NAME.expected.png and (when the sizes match) NAME.diff.png
 * into dir. */
static amp_status write_failure(const char *who, const char *dir, const char *golden_path, const amp_image *mine,
                                const amp_image *golden, double tolerance)
{
    int err = make_dirs(dir);
    if (err) return amp__fail(AMP_ERROR_IO, "%s: cannot create the failure folder %s: %s", who, dir, strerror(err));
    const char *base = strrchr(golden_path, '/');
    base = base ? base + 1 : golden_path;
    size_t n = strlen(base);
    if (n > 4 && strcasecmp(base + n - 4, ".png") == 0) n -= 4;
    size_t cap = strlen(dir) + n + 32;
    char *path = malloc(cap);
    if (!path) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    amp_status s = AMP_OK;
    const char *kinds[3] = {"actual", "expected", "diff"};
    for (int k = 0; k < 3 && s == AMP_OK; k++) {
        snprintf(path, cap, "%s/%.*s.%s.png", dir, (int)n, base, kinds[k]);
        if (k == 0 && mine->pixels) s = amp_image_save(path, mine, NULL);
        if (k == 1) s = amp_image_save(path, golden, NULL);
        if (k == 2 && mine->pixels && mine->width == golden->width && mine->height == golden->height &&
            mine->channels == golden->channels) {
            amp_image diff;
            s = amp_image_diff(golden, mine, tolerance, &diff);
            if (s == AMP_OK) s = amp_image_save(path, &diff, NULL);
            amp_image_free(&diff);
        }
    }
    free(path);
    return s;
}

amp_status amp_image_check_golden(amp_texture *t, const char *golden_path, const amp_image_golden_desc *desc,
                                  amp_image_compare_result *out)
{
    const char *who = "amp_image_check_golden";
    if (!t || !golden_path || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL argument", who);
    const amp_image_compare_desc *cmp = desc ? &desc->compare : NULL;
    amp_status s = check_desc(who, cmp);
    if (s != AMP_OK) return s;
    *out = (amp_image_compare_result){0};
    struct stat st;
    bool missing = stat(golden_path, &st) != 0 && errno == ENOENT;
    if (missing && env_set("CI") && !env_set("AMPVK_UPDATE_GOLDEN"))
        return amp__fail(AMP_ERROR_IO,
                         "%s: the golden image %s is missing, and CI is set (run once with AMPVK_UPDATE_GOLDEN=1 "
                         "to write it)",
                         who, golden_path);
    if (missing || env_set("AMPVK_UPDATE_GOLDEN")) {
        s = amp_texture_save_png(t, golden_path, 0);
        if (s != AMP_OK) return s;
        amp_extent e = amp_texture_extent(t);
        *out = (amp_image_compare_result){.equal = true, .passed = true, .psnr = INFINITY,
                                          .texels = amp_extent_size(e), .golden_written = true};
        return AMP_OK;
    }
    amp__host_image golden = {0};
    s = load_golden(who, golden_path, &golden);
    if (s != AMP_OK) return s;
    amp_image g = public_image(&golden), mine = {0};
    s = compare_with(who, t, golden_path, &g, cmp, &mine, out);
    const char *dir = desc && desc->failure_dir ? desc->failure_dir : getenv("AMPVK_GOLDEN_FAILURES");
    if (dir && *dir && (s == AMP_OK ? !out->passed : amp_last_status() == AMP_ERROR_INVALID_ARGUMENT)) {
        char msg[512];
        amp_status cs = s;
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        if (!mine.pixels) amp__texture_samples(who, t, 0, &mine); /* a size mismatch: the actual image as is */
        amp_status ws = write_failure(who, dir, golden_path, &mine, &g, cmp ? cmp->tolerance : 0);
        if (cs != AMP_OK) amp__fail(cs, "%s", msg); /* the mismatch is the news, not the files */
        else s = ws;
    }
    free(golden.pixels);
    amp_image_free(&mine);
    return s;
}
