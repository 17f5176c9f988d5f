/* Image comparison and golden images (ampvk/image.h): textures with textures, with
 * golden PNGs and host images with host images, the picture of a difference, and
 * amp_image_check_golden, the golden-image test in one call. */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ampvk/accelerator.h"
#include "ampvk/array.h"
#include "ampvk/image.h"
#include "ampvk/kernel.h"
#include "image/image_internal.h"
#include "image/magma_table.h"

static amp_status check_desc(const char *who, const amp_image_compare_desc *desc)
{
    if (!desc) return AMP_OK;
    if (!(desc->tolerance >= 0))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: tolerance %g is negative or NaN", who, desc->tolerance);
    if (!(desc->max_fraction >= 0 && desc->max_fraction <= 1))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: max_fraction %g is outside 0..1", who, desc->max_fraction);
    if (desc->metric != AMP_IMAGE_METRIC_CHANNEL && desc->metric != AMP_IMAGE_METRIC_YIQ &&
        desc->metric != AMP_IMAGE_METRIC_SSIM && desc->metric != AMP_IMAGE_METRIC_FLIP)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: metric %d is not an amp_image_metric", who, (int)desc->metric);
    if (desc->metric == AMP_IMAGE_METRIC_YIQ && desc->tolerance > 1)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the YIQ threshold %g is outside 0..1", who, desc->tolerance);
    if (desc->ignore_count < 0 || (desc->ignore_count > 0 && !desc->ignore))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %d ignore rectangles at %p", who, desc->ignore_count,
                         (const void *)desc->ignore);
    if (desc->window < 0) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: window %d is negative", who, desc->window);
    if (!(desc->ppd >= 0 && desc->ppd <= 1000))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %g pixels per degree is outside 0..1000", who, desc->ppd);
    if ((unsigned)desc->tone_mapper > AMP_IMAGE_TONE_MAP_REINHARD)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: tone mapper %d is not an amp_image_tone_mapper", who,
                         (int)desc->tone_mapper);
    if (desc->exposures < 0 || desc->exposures > 1000 ||
        (desc->exposures > 0 && !(desc->exposure_start <= desc->exposure_stop && isfinite(desc->exposure_start) &&
                                  isfinite(desc->exposure_stop) && fabs(desc->exposure_stop) < 100 &&
                                  fabs(desc->exposure_start) < 100)))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: %d exposures from %g to %g: the count must be 0..1000 "
                         "and the range from a start to a stop no smaller, within +-100 stops", who, desc->exposures,
                         desc->exposure_start, desc->exposure_stop);
    return AMP_OK;
}

/* A texel's class in a comparison (shaders/image/yiq.glsl's YIQ_* and the ignored). */
enum { CLASS_SAME, CLASS_CLOSE, CLASS_LIGHTER, CLASS_DARKER, CLASS_AA, CLASS_IGNORED };

static bool masks_anything(const amp_image_compare_desc *desc)
{
    return desc && (desc->ignore_count > 0 || desc->mask);
}

/* The texels desc leaves out, one byte each (1: ignored), for a w x h image; NULL in
 * *out when it leaves none. Rectangles must lie inside the image, the mask be its size. */
static amp_status ignored_map(const char *who, const amp_image_compare_desc *desc, int w, int h, uint8_t **out)
{
    *out = NULL;
    if (!masks_anything(desc)) return AMP_OK;
    for (int i = 0; i < desc->ignore_count; i++) {
        amp_image_rect r = desc->ignore[i];
        if (r.width < 1 || r.height < 1 || r.x < 0 || r.y < 0 || r.x > w - r.width || r.y > h - r.height)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "%s: ignore rectangle %d (columns %d..%d, rows %d..%d) is not inside the %dx%d image", who,
                             i, r.x, r.x + r.width - 1, r.y, r.y + r.height - 1, w, h);
    }
    const amp_image *m = desc->mask;
    if (m && (m->width != w || m->height != h || !m->pixels || m->channels < 1 || m->channels > 4))
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: the mask is %dx%d with %d channels; the images are %dx%d", who,
                         m->width, m->height, m->channels, w, h);
    uint8_t *map = calloc((size_t)w * (size_t)h, 1);
    if (!map) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for a %dx%d mask", who, w, h);
    for (int i = 0; i < desc->ignore_count; i++) {
        amp_image_rect r = desc->ignore[i];
        for (int y = r.y; y < r.y + r.height; y++) memset(map + (size_t)y * w + r.x, 1, (size_t)r.width);
    }
    if (m) {
        int c = m->channels == 2 || m->channels == 4 ? m->channels - 1 : 0; /* alpha, else the first */
        for (int y = 0; y < h; y++) {
            const unsigned char *row = (const unsigned char *)m->pixels + (size_t)y * m->stride;
            for (int x = 0; x < w; x++) {
                size_t i = (size_t)x * (size_t)m->channels + (size_t)c;
                bool zero = m->bits == 8 ? row[i] == 0 : m->bits == 16 ? ((const uint16_t *)row)[i] == 0
                                                                       : !(((const float *)row)[i] != 0);
                if (zero) map[(size_t)y * w + x] = 1;
            }
        }
    }
    *out = map;
    return AMP_OK;
}

/* Compares packed texel data of `comps` components of a scalar family and size by the
 * channel metric: the channel statistics of the texels not ignored into out, and each
 * texel's class into classes. */
static void compare_host(const void *a, const void *b, amp_extent e, amp_scalar sc, int comps, int bits,
                         const amp_image_compare_desc *desc, const uint8_t *ignored, uint8_t *classes, float *score,
                         amp_image_compare_result *out)
{
    double tol = desc ? desc->tolerance : 0;
    double peak = sc == AMP_SCALAR_UNORM || sc == AMP_SCALAR_UINT ? ldexp(1, bits) - 1
                  : sc == AMP_SCALAR_NORM || sc == AMP_SCALAR_INT ? ldexp(1, bits - 1) - 1
                                                                  : 1.0;
    amp_image_compare_result r = {0};
    size_t texels = amp_extent_size(e), n = 0;
    double sum = 0, sum2 = 0;
    for (size_t t = 0; t < texels; t++) {
        if (ignored && ignored[t]) continue;
        bool differs = false, same = true;
        double largest = 0;
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
            if (d != 0) same = false;
            if (d > largest) largest = d;
        }
        classes[t] = differs ? CLASS_LIGHTER : same ? CLASS_SAME : CLASS_CLOSE;
        if (score) score[t] = (float)(largest < peak ? largest / peak : 1); /* 0..1 */
        n += (size_t)comps;
    }
    r.mean_abs_diff = n ? sum / (double)n : 0;
    double mse = n ? sum2 / (double)n : 0;
    r.psnr = mse == 0 ? INFINITY : 10 * log10(peak * peak / mse);
    *out = r;
}

/* Whether the n texels from t are CLASS_SAME, scored +0 and not ignored: what the
 * metrics that write only differing texels leave, counted as nothing. */
static bool untouched(const uint8_t *classes, const float *score, const uint8_t *ignored, size_t t, size_t n)
{
    uint32_t any = 0;
    for (size_t i = 0; i < n; i++) any |= classes[t + i];
    if (score)
        for (size_t i = 0; i < n; i++) {
            uint32_t bits;
            memcpy(&bits, &score[t + i], sizeof bits);
            any |= bits;
        }
    if (ignored)
        for (size_t i = 0; i < n; i++) any |= ignored[t + i];
    return any == 0;
}

/* The counts of a comparison from its classes (and YIQ's scores): what differs, the
 * first of it, the densest window, and whether that passes desc. */
static void tally(const uint8_t *classes, const float *score, amp_extent e, const uint8_t *ignored,
                  const amp_image_compare_desc *desc, uint32_t *window_sums, amp_image_compare_result *r)
{
    enum { RUN = 64 }; /* texels skipped at once where nothing differs */
    size_t texels = amp_extent_size(e);
    double score_sum = 0;
    bool found = false;
    for (size_t t = 0; t < texels; t++) {
        if (t % RUN == 0 && texels - t >= RUN && untouched(classes, score, ignored, t, RUN)) {
            t += RUN - 1;
            continue;
        }
        if (ignored && ignored[t]) {
            r->ignored_texels++;
            continue;
        }
        uint32_t c = classes[t];
        if (c == CLASS_AA) r->antialiased_texels++;
        if (c == CLASS_LIGHTER || c == CLASS_DARKER) {
            if (!found) r->first_difference = amp_extent_unlinear(e, t);
            found = true;
            r->differing_texels++;
        }
        if (score) {
            score_sum += score[t];
            if (score[t] > r->max_score) r->max_score = score[t];
        }
    }
    r->texels = texels - r->ignored_texels;
    r->mean_score = r->texels ? score_sum / (double)r->texels : 0;
    if (window_sums && e.rank == 2) {
        /* a summed-area table of the differing texels, (h + 1) x (w + 1) */
        int h = e.dims[0], w = e.dims[1];
        int nh = desc->window < h ? desc->window : h, nw = desc->window < w ? desc->window : w;
        size_t W = (size_t)w + 1;
        for (int y = 0; y < h; y++) {
            uint32_t run = 0;
            for (int x = 0; x < w; x++) {
                size_t t = (size_t)y * w + x;
                run += !(ignored && ignored[t]) && (classes[t] == CLASS_LIGHTER || classes[t] == CLASS_DARKER);
                window_sums[(y + 1) * W + x + 1] = window_sums[y * W + x + 1] + run;
            }
        }
        for (int y = 0; y + nh <= h; y++)
            for (int x = 0; x + nw <= w; x++) {
                size_t k = window_sums[(y + nh) * W + x + nw] - window_sums[y * W + x + nw] -
                           window_sums[(y + nh) * W + x] + window_sums[y * W + x];
                if (k > r->window_texels) {
                    r->window_texels = k;
                    r->window_origin = amp_index2(y, x);
                }
            }
    }
    r->equal = r->differing_texels == 0;
    size_t by_fraction = desc ? (size_t)floor(desc->max_fraction * (double)r->texels) : 0;
    r->allowed_texels = desc && desc->max_pixels > by_fraction ? desc->max_pixels : by_fraction;
    r->passed = r->differing_texels <= r->allowed_texels;
}

static atomic_bool force_views;

void amp__compare_force_views(bool on) { atomic_store(&force_views, on); }


/* The pixels of a block of the YIQ comparison (shaders/image/yiq.glsl's YIQ_BLOCK):
 * only the blocks whose bytes differ go to the accelerator. */
enum { YIQ_BLOCK = 64 };

/* shaders/image/yiq.glsl's kernel (aa: its anti-aliasing pass), REAL double or float. */
static amp_kernel *yiq_kernel(amp_accelerator_view *view, bool dbl, bool aa)
{
    /* pixelmatch's constants as REAL literals */
    static const struct {
        const char *name, *value;
    } constants[] = {{"Y_R", "0.29889531"}, {"Y_G", "0.58662247"}, {"Y_B", "0.11448223"}, {"I_R", "0.59597799"},
                     {"I_G", "0.27417610"}, {"I_B", "0.32180189"}, {"Q_R", "0.21147017"}, {"Q_G", "0.52261711"},
                     {"Q_B", "0.31114694"}, {"W_Y", "0.5053"},     {"W_I", "0.299"},      {"W_Q", "0.1957"},
                     {"PHI", "1.618033988749895"}, {"PHI2", "2.618033988749895"}};
    char decl[1024];
    int used = snprintf(decl, sizeof decl, "#define REAL %s\n#define YIQ_BLOCK %d\n%s", dbl ? "double" : "float",
                        YIQ_BLOCK, aa ? "#define YIQ_AA_PASS\n" : "");
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
        used += snprintf(decl + used, sizeof decl - (size_t)used, "const REAL %s = %s%s;\n", constants[i].name,
                         constants[i].value, dbl ? "LF" : "");
    char params[512];
    const char *word = aa ? "uint" : "uint_4"; /* the main pass takes four pixels at once */
    snprintf(params, sizeof params, "array_view<const %s, 1> a, array_view<const %s, 1> b, %s, int width, "
             "int height, uint options",
             word, word,
             aa ? "array_view<const uint, 1> pixels, array_view<uint, 1> aa"
             : dbl ? "array_view<const uint, 1> blocks, int quads, array_view<uint_4, 1> classes, double max_delta"
                   : "array_view<const uint, 1> blocks, int quads, array_view<uint_4, 1> classes, float max_delta");
    return amp__metric_kernel(view, &(amp_kernel_desc){.name = aa ? "yiq aa" : "yiq", .rank = 1,
                                                      .declarations = decl, .params = params,
                                                      .source = "#include \"image/yiq.glsl\"\n"});
}

/* Room for count words that the host writes and a kernel on view reads (or the kernel
 * writes and the host reads): on a CPU device a host-visible array, filled and read in
 * place (its memory is the host's; a view of host memory would go through staging),
 * else host memory, *owned (the caller frees it). *words is where the host writes. */
static amp_status kernel_room(const char *who, amp_accelerator_view *view, bool emulated, size_t count,
                              amp_array **array, uint32_t **words, uint32_t **owned)
{
    *array = NULL;
    *owned = NULL;
    if (emulated && !atomic_load(&force_views)) {
        *array = amp_array_create(view, &(amp_array_desc){.extent = amp_extent1((int)count), .type = AMP_UINT,
                                                          .cpu_access = AMP_ACCESS_READ_WRITE});
        *words = *array ? amp_array_data(*array) : NULL;
        return *words ? AMP_OK : amp_last_status();
    }
    if (!(*words = *owned = malloc(count ? count * sizeof **words : 1)))
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu words", who, count);
    return AMP_OK;
}

/* The view of kernel_room's words (read-only for the kernel unless out). */
static amp_status kernel_view(amp_array *array, const uint32_t *words, size_t count, bool out, amp_array_view **view)
{
    amp_extent e = amp_extent1((int)count);
    *view = array ? amp_array_view_of_array(array)
            : out ? amp_array_view_create(e, AMP_UINT, 0, (void *)words)
                  : amp_array_view_create_const(e, AMP_UINT, 0, words);
    return *view ? AMP_OK : amp_last_status();
}

/* count words of host data for a kernel on view: copied into a CPU device's
 * host-visible array, else a view of the data itself. The caller destroys both. */
static amp_status kernel_words(const char *who, amp_accelerator_view *view, bool emulated, const uint32_t *words,
                               size_t count, amp_array **array, amp_array_view **out)
{
    uint32_t *room, *owned = NULL;
    *array = NULL;
    *out = NULL;
    if (!emulated || atomic_load(&force_views)) return kernel_view(NULL, words, count, false, out);
    amp_status s = kernel_room(who, view, emulated, count, array, &room, &owned); /* an array: nothing owned */
    if (s == AMP_OK) memcpy(room, words, count * sizeof *words);
    return s == AMP_OK ? kernel_view(*array, room, count, false, out) : s;
}

/* The YIQ classes and scores of two images of the same size, on desc's view
 * (shaders/image/yiq.glsl; in doubles where it has them): the pixels of the blocks
 * whose bytes differ, then, where desc asks, the anti-aliasing of those beyond the
 * threshold. classes and score (NULL: no map wanted) come zeroed; only differing
 * blocks are written. The scores of the texels not ignored are summed into *sum, in
 * texel order, and their largest left in *max. */
static amp_status yiq_classes(const char *who, const amp_image *expected, const amp_image *actual,
                              const amp_image_compare_desc *desc, const uint8_t *ignored, uint8_t *classes,
                              float *score, double *sum, double *max)
{
    int w = expected->width, h = expected->height;
    size_t n = (size_t)w * (size_t)h, quads = (n + 3) / 4, np = 4 * quads; /* the last quad padded */
    amp_accelerator_info info;
    amp_accelerator_view *view = amp__metric_view(who, "YIQ", desc, w, h, 4, &info);
    if (!view) return amp_last_status();
    amp_status s = AMP_OK;
    bool dbl = info.supports_double_precision, emulated = info.is_emulated;
    uint32_t options = desc->blend_on_white ? 2u : 0u, *owned_a = NULL, *owned_b = NULL, *list = NULL, *aa = NULL;
    const uint32_t *wa = amp__rgba8_words(expected, np, &owned_a), *wb = wa ? amp__rgba8_words(actual, np, &owned_b) : NULL;
    /* the blocks that differ, packed */
    size_t nblocks = (np + YIQ_BLOCK - 1) / YIQ_BLOCK, m = 0;
    uint32_t *blocks = wb ? malloc(nblocks * sizeof *blocks) : NULL;
    for (size_t k = 0; blocks && k < nblocks; k++) {
        size_t first = k * YIQ_BLOCK, words = np - first < YIQ_BLOCK ? np - first : YIQ_BLOCK;
        if (memcmp(wa + first, wb + first, words * 4) != 0) blocks[m++] = (uint32_t)k;
    }
    size_t packed_words = m * YIQ_BLOCK;
    if (!blocks) s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for two %dx%d images", who, w, h);
    amp_kernel *k = NULL; /* classes and score come zeroed */
    amp_array *arrays[6] = {NULL};
    uint32_t *owned[3] = {NULL}, *pa = NULL, *pb = NULL, *pc = NULL; /* a, b, classes */
    amp_array_view *va = NULL, *vb = NULL, *vblocks = NULL, *vc = NULL, *va4 = NULL, *vb4 = NULL, *vc4 = NULL;
    amp_array_view *vfa = NULL, *vfb = NULL, *vl = NULL, *vaa = NULL;
    if (s == AMP_OK && m > 0) {
        /* the differing blocks of both images packed where the kernel reads them; the
           last block's words past the image zeroed */
        s = kernel_room(who, view, emulated, packed_words, &arrays[0], &pa, &owned[0]);
        if (s == AMP_OK) s = kernel_room(who, view, emulated, packed_words, &arrays[1], &pb, &owned[1]);
        for (size_t j = 0; s == AMP_OK && j < m; j++) {
            size_t first = (size_t)blocks[j] * YIQ_BLOCK, words = np - first < YIQ_BLOCK ? np - first : YIQ_BLOCK;
            uint32_t *da = pa + j * YIQ_BLOCK, *db = pb + j * YIQ_BLOCK;
            memcpy(da, wa + first, words * 4);
            memcpy(db, wb + first, words * 4);
            memset(da + words, 0, (YIQ_BLOCK - words) * 4);
            memset(db + words, 0, (YIQ_BLOCK - words) * 4);
        }
        if (s == AMP_OK) s = kernel_view(arrays[0], pa, packed_words, false, &va);
        if (s == AMP_OK) s = kernel_view(arrays[1], pb, packed_words, false, &vb);
        if (s == AMP_OK) s = kernel_words(who, view, emulated, blocks, m, &arrays[2], &vblocks);
        if (s == AMP_OK) s = kernel_room(who, view, emulated, packed_words, &arrays[5], &pc, &owned[2]);
        if (s == AMP_OK) s = kernel_view(arrays[5], pc, packed_words, true, &vc);
        if (s == AMP_OK && !(k = yiq_kernel(view, dbl, false))) s = amp_last_status();
        if (s == AMP_OK && (!(va4 = amp_array_view_reinterpret(va, AMP_UINT_4, 0)) ||
                            !(vb4 = amp_array_view_reinterpret(vb, AMP_UINT_4, 0)) ||
                            !(vc4 = amp_array_view_reinterpret(vc, AMP_UINT_4, 0))))
            s = amp_last_status();
        if (s == AMP_OK) s = amp_array_view_discard_data(vc4);
        if (s == AMP_OK) {
            double t = desc->tolerance, max_delta = 35215 * t * t; /* pixelmatch's, in its order */
            amp_arg bound = dbl ? AMP_DOUBLE("max_delta", max_delta) : AMP_FLOAT("max_delta", (float)max_delta);
            s = amp_parallel_for_each(view, amp_extent1((int)(packed_words / 4)), k,
                                      AMP_ARGS(AMP_VIEW("a", va4), AMP_VIEW("b", vb4), AMP_VIEW("blocks", vblocks),
                                               AMP_INT("quads", (int)quads), AMP_VIEW("classes", vc4),
                                               AMP_INT("width", w), AMP_INT("height", h), bound,
                                               AMP_UINT("options", options)));
        }
        if (s == AMP_OK) s = amp_array_view_synchronize(vc4);
        if (s == AMP_OK && arrays[5] && !(pc = amp_array_data(arrays[5]))) s = amp_last_status();
    }
    size_t count = 0;
    for (size_t j = 0; s == AMP_OK && j < m; j++) { /* the score above the class's 3 bits */
        size_t first = (size_t)blocks[j] * YIQ_BLOCK, end = first + YIQ_BLOCK < n ? first + YIQ_BLOCK : n;
        const uint32_t *c = pc + j * YIQ_BLOCK;
        for (size_t i = first; i < end; i++, c++) {
            uint32_t bits = *c & ~7u;
            float v;
            memcpy(&v, &bits, sizeof v);
            if (score) score[i] = v;
            if (!(ignored && ignored[i])) {
                *sum += v;
                if (v > *max) *max = v;
            }
            classes[i] = (uint8_t)(*c & 7u);
            count += classes[i] == CLASS_LIGHTER || classes[i] == CLASS_DARKER;
        }
    }
    if (!desc->ignore_antialiased) count = 0;
    if (count) {
        k = yiq_kernel(view, dbl, true);
        list = malloc(count * sizeof *list);
        aa = malloc(count * sizeof *aa);
        if (!k) s = amp_last_status();
        else if (!list || !aa) s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
        for (size_t j = 0, c = 0; s == AMP_OK && j < m; j++) {
            size_t first = (size_t)blocks[j] * YIQ_BLOCK, end = first + YIQ_BLOCK < n ? first + YIQ_BLOCK : n;
            for (size_t i = first; i < end; i++)
                if (classes[i] == CLASS_LIGHTER || classes[i] == CLASS_DARKER) list[c++] = (uint32_t)i;
        }
        /* the detector reads the neighbours: the whole images */
        if (s == AMP_OK) s = kernel_words(who, view, emulated, wa, np, &arrays[3], &vfa);
        if (s == AMP_OK) s = kernel_words(who, view, emulated, wb, np, &arrays[4], &vfb);
        if (s == AMP_OK && (!(vl = amp_array_view_create_const(amp_extent1((int)count), AMP_UINT, 0, list)) ||
                            !(vaa = amp_array_view_create(amp_extent1((int)count), AMP_UINT, 0, aa))))
            s = amp_last_status();
        if (s == AMP_OK) s = amp_array_view_discard_data(vaa);
        if (s == AMP_OK)
            s = amp_parallel_for_each(view, amp_extent1((int)count), k,
                                      AMP_ARGS(AMP_VIEW("a", vfa), AMP_VIEW("b", vfb), AMP_VIEW("pixels", vl),
                                               AMP_VIEW("aa", vaa), AMP_INT("width", w), AMP_INT("height", h),
                                               AMP_UINT("options", options)));
        if (s == AMP_OK) s = amp_array_view_synchronize(vaa);
        for (size_t j = 0; s == AMP_OK && j < count; j++)
            if (aa[j]) classes[list[j]] = CLASS_AA;
    }
    amp_array_view *views[] = {va4, vb4, vc4, va, vb, vblocks, vc, vfa, vfb, vl, vaa};
    for (size_t i = 0; i < sizeof views / sizeof *views; i++) amp_array_view_destroy(&views[i]);
    for (int i = 0; i < 6; i++) amp_array_destroy(&arrays[i]);
    for (int i = 0; i < 3; i++) free(owned[i]);
    free(owned_a);
    free(owned_b);
    free(blocks);
    free(list);
    free(aa);
    return s;
}

/* The lumas of an image (BT.601 of R, G and B; gray as it is; translucent pixels
 * blended on white), computed in doubles and kept as doubles or (dbl false) floats:
 * the kernels' REAL. */
static void *lumas(const amp_image *im, bool dbl)
{
    size_t n = (size_t)im->width * (size_t)im->height;
    void *l = malloc(n * (dbl ? sizeof(double) : sizeof(float)));
    double top = im->bits == 8 ? 255 : im->bits == 16 ? 65535 : 1;
    amp_scalar sc = im->bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM;
    int ch = im->channels;
    void *owned;
    const void *p = l ? amp__image_packed(im, im->bits, &owned) : NULL;
    if (!p) {
        free(l);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        double v[4];
        for (int c = 0; c < ch; c++) v[c] = amp__texel_component(p, sc, im->bits, i * (size_t)ch + (size_t)c);
        double y = ch >= 3 ? 0.299 * v[0] + 0.587 * v[1] + 0.114 * v[2] : v[0];
        if (ch == 2 || ch == 4) y = top + (y - top) * (v[ch - 1] / top);
        if (dbl) ((double *)l)[i] = y;
        else ((float *)l)[i] = (float)y;
    }
    free(owned);
    return l;
}

/* The SSIM of two images of the same size on desc's view (shaders/image/ssim.glsl):
 * each pixel's 1 - SSIM into score, and the
 * mean SSIM away from the edges (scikit-image's crop of (11 - 1) / 2) into *mean. */
static amp_status ssim_scores(const char *who, const amp_image *expected, const amp_image *actual,
                              const amp_image_compare_desc *desc, float *score, double *mean)
{
    int w = expected->width, h = expected->height;
    size_t n = (size_t)w * (size_t)h;
    if (w < 11 || h < 11)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: SSIM needs images of at least 11x11 pixels; these are %dx%d",
                         who, w, h);
    amp_accelerator_info info;
    amp_accelerator_view *view = amp__metric_view(who, "SSIM", desc, w, h, 5, &info);
    if (!view) return amp_last_status();
    amp_status s = AMP_OK;
    bool dbl = info.supports_double_precision;
    const char *real = dbl ? "double" : "float";
    /* the window: scipy's Gaussian of sigma 1.5 truncated at 3.5 sigma, 11 taps */
    double wd[11], total = 0;
    float wf[11];
    for (int k = -5; k <= 5; k++) total += wd[k + 5] = exp(-0.5 / (1.5 * 1.5) * k * k);
    for (int k = 0; k < 11; k++) wf[k] = (float)(wd[k] /= total);
    double range = expected->bits == 8 ? 255 : expected->bits == 16 ? 65535 : 1;
    double c1 = (0.01 * range) * (0.01 * range), c2 = (0.03 * range) * (0.03 * range);
    void *lx = lumas(expected, dbl), *ly = lx ? lumas(actual, dbl) : NULL;
    void *sums = ly ? malloc(5 * n * (dbl ? sizeof(double) : sizeof(float))) : NULL;
    float *sim = sums ? malloc(n * sizeof *sim) : NULL;
    if (!sim)
        s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for SSIM of %dx%d images", who, w, h);
    amp_kernel *rows = NULL, *cols = NULL;
    amp_array_view *vx = NULL, *vy = NULL, *vw = NULL, *vs = NULL, *vsim = NULL;
    amp_type rt = dbl ? AMP_DOUBLE : AMP_FLOAT;
    if (s == AMP_OK) {
        char decl[64], params[256];
        snprintf(decl, sizeof decl, "#define REAL %s\n", real);
        snprintf(params, sizeof params, "array_view<const %s, 1> x, array_view<const %s, 1> y, array_view<const %s, 1> "
                 "weights, array_view<%s, 1> sums, int width", real, real, real, real);
        rows = amp__metric_kernel(view, &(amp_kernel_desc){.name = "ssim rows", .rank = 2, .declarations = decl,
                                                         .params = params, .source = "#include \"image/ssim.glsl\"\n"});
        snprintf(decl, sizeof decl, "#define REAL %s\n#define SSIM_COLUMNS\n", real);
        snprintf(params, sizeof params, "array_view<const %s, 1> sums, array_view<const %s, 1> weights, "
                 "array_view<float, 1> similarity, int width, int height, %s c1, %s c2", real, real, real, real);
        cols = rows ? amp__metric_kernel(view, &(amp_kernel_desc){.name = "ssim columns", .rank = 2,
                                                                 .declarations = decl, .params = params,
                                                                 .source = "#include \"image/ssim.glsl\"\n"})
                    : NULL;
        amp_extent all = amp_extent1((int)n);
        if (cols) vx = amp_array_view_create_const(all, rt, 0, lx);
        if (vx) vy = amp_array_view_create_const(all, rt, 0, ly);
        if (vy) vw = amp_array_view_create_const(amp_extent1(11), rt, 0, dbl ? (void *)wd : (void *)wf);
        if (vw) vs = amp_array_view_create(amp_extent1((int)(5 * n)), rt, 0, sums);
        if (vs) vsim = amp_array_view_create(all, AMP_FLOAT, 0, sim);
        if (!vsim) s = amp_last_status();
    }
    if (s == AMP_OK) s = amp_array_view_discard_data(vs);
    if (s == AMP_OK) s = amp_array_view_discard_data(vsim);
    if (s == AMP_OK)
        s = amp_parallel_for_each(view, amp_extent2(h, w), rows,
                                  AMP_ARGS(AMP_VIEW("x", vx), AMP_VIEW("y", vy), AMP_VIEW("weights", vw),
                                           AMP_VIEW("sums", vs), AMP_INT("width", w)));
    amp_arg a1 = dbl ? AMP_DOUBLE("c1", c1) : AMP_FLOAT("c1", (float)c1);
    amp_arg a2 = dbl ? AMP_DOUBLE("c2", c2) : AMP_FLOAT("c2", (float)c2);
    if (s == AMP_OK)
        s = amp_parallel_for_each(view, amp_extent2(h, w), cols,
                                  AMP_ARGS(AMP_VIEW("sums", vs), AMP_VIEW("weights", vw), AMP_VIEW("similarity", vsim),
                                           AMP_INT("width", w), AMP_INT("height", h), a1, a2));
    if (s == AMP_OK) s = amp_array_view_synchronize(vsim);
    if (s == AMP_OK) {
        double interior = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                size_t i = (size_t)y * w + x;
                score[i] = 1.0f - sim[i];
                if (y >= 5 && y < h - 5 && x >= 5 && x < w - 5) interior += sim[i];
            }
        *mean = interior / ((double)(w - 10) * (double)(h - 10));
    }
    amp_array_view_destroy(&vx);
    amp_array_view_destroy(&vy);
    amp_array_view_destroy(&vw);
    amp_array_view_destroy(&vs);
    amp_array_view_destroy(&vsim);
    free(lx);
    free(ly);
    free(sums);
    free(sim);
    return s;
}

/* Whether two images of the same size and channels hold the same samples, byte for byte. */
static bool identical(const amp_image *x, const amp_image *y)
{
    if (x->bits != y->bits) return false;
    size_t row = (size_t)x->width * (size_t)x->channels * (size_t)(x->bits / 8);
    for (int j = 0; j < x->height; j++)
        if (memcmp((const char *)x->pixels + (size_t)j * (x->stride ? x->stride : row),
                   (const char *)y->pixels + (size_t)j * (y->stride ? y->stride : row), row) != 0)
            return false;
    return true;
}

/* The classes (and the scores: SSIM's and FLIP's, and with want_score any metric's; else
 * NULL) of two images whose sizes and channels match, by desc's metric, actual at
 * expected's depth, and what they add up to. The caller frees *classes and *score. */
static amp_status compare_classes(const char *who, const amp_image *expected, const amp_image *actual,
                                  const amp_image_compare_desc *desc, bool want_score, amp_image_compare_result *out,
                                  uint8_t **classes_out, float **score_out, uint8_t **ignored_out)
{
    int w = expected->width, h = expected->height;
    size_t n = (size_t)w * (size_t)h;
    bool yiq = desc && desc->metric == AMP_IMAGE_METRIC_YIQ, ssim = desc && desc->metric == AMP_IMAGE_METRIC_SSIM;
    bool flip = desc && desc->metric == AMP_IMAGE_METRIC_FLIP;
    amp_extent e = amp_extent2(h, w);
    *classes_out = NULL;
    *score_out = NULL;
    *ignored_out = NULL;
    uint8_t *ignored;
    amp_status s = ignored_map(who, desc, w, h, &ignored);
    if (s != AMP_OK) return s;
    /* zeroed (CLASS_SAME, score 0) by the system's fresh pages: the metrics write only
       the texels that differ */
    uint8_t *classes = calloc(n, sizeof *classes);
    uint32_t *sums = NULL;
    /* YIQ sums its scores as it unpacks them: a map of them only for a picture */
    want_score = want_score || ssim || flip;
    float *score = want_score ? calloc(n, sizeof *score) : NULL;
    if (desc && desc->window > 0) sums = calloc(((size_t)w + 1) * ((size_t)h + 1), sizeof *sums);
    if (!classes || (want_score && !score) || (desc && desc->window > 0 && !sums)) {
        free(classes);
        free(score);
        free(sums);
        free(ignored);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory comparing %dx%d images", who, w, h);
    }
    amp_image_compare_result r = {0};
    double yiq_sum = 0, yiq_max = 0;
    bool by_score = false; /* the classes follow from the scores and the tolerance */
    if (identical(expected, actual) && !(ssim && (w < 11 || h < 11))) {
        /* the same samples: every metric's zero (most pairs of a render suite) */
        r.psnr = INFINITY;
        r.ssim = ssim ? 1 : 0;
    } else if (yiq) {
        s = yiq_classes(who, expected, actual, desc, ignored, classes, score, &yiq_sum, &yiq_max);
    } else if (ssim) {
        s = ssim_scores(who, expected, actual, desc, score, &r.ssim);
        by_score = true;
    } else if (flip) {
        s = amp__flip(who, expected, actual, desc, score, &r);
        by_score = true;
    } else {
        void *owned_e, *owned_a;
        const void *pe = amp__image_packed(expected, expected->bits, &owned_e);
        const void *pa = pe ? amp__image_packed(actual, expected->bits, &owned_a) : NULL;
        if (!pe || !pa) {
            free(owned_e);
            s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
        } else {
            amp_scalar sc = expected->bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM;
            compare_host(pa, pe, e, sc, expected->channels, expected->bits, desc, ignored, classes, score, &r);
            free(owned_e);
            free(owned_a);
        }
    }
    for (size_t i = 0; s == AMP_OK && by_score && i < n; i++) /* the metrics of a score alone */
        classes[i] = score[i] > desc->tolerance ? CLASS_LIGHTER : score[i] != 0 ? CLASS_CLOSE : CLASS_SAME;
    if (s == AMP_OK) tally(classes, yiq || ssim || flip ? score : NULL, e, ignored, desc, sums, &r);
    if (s == AMP_OK && yiq && !score) { /* the same sums, gathered from the blocks */
        r.max_score = yiq_max;
        r.mean_score = r.texels ? yiq_sum / (double)r.texels : 0;
    }
    if (s == AMP_OK && flip) s = amp__flip_pool(who, score, ignored, n, &r);
    free(sums);
    if (s != AMP_OK) {
        free(classes);
        free(score);
        free(ignored);
        return s;
    }
    *out = r;
    *classes_out = classes;
    *score_out = score;
    *ignored_out = ignored;
    return AMP_OK;
}

static amp_status compare_images(const char *who, const amp_image *expected, const amp_image *actual,
                                 const amp_image_compare_desc *desc, amp_image_compare_result *out);

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
    if ((desc && desc->metric != AMP_IMAGE_METRIC_CHANNEL) || masks_anything(desc) || (desc && desc->window > 0)) {
        /* the images' metrics and masks: as host images at the textures' depth */
        amp_image ia = {0}, ib = {0};
        int at = amp_type_scalar(type) == AMP_SCALAR_FLOAT ? 32 : 0;
        s = amp__texture_samples(who, a, at, &ia);
        if (s == AMP_OK) s = amp__texture_samples(who, b, at, &ib);
        if (s == AMP_OK) s = compare_images(who, &ia, &ib, desc, out);
        amp_image_free(&ia);
        amp_image_free(&ib);
        return s;
    }
    void *ha = NULL, *hb = NULL;
    uint8_t *classes = malloc(amp_extent_size(e) * sizeof *classes);
    if (!classes) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    s = amp__texture_host(who, a, &ha);
    if (s == AMP_OK) s = amp__texture_host(who, b, &hb);
    if (s == AMP_OK) {
        compare_host(ha, hb, e, amp_type_scalar(type), amp_type_components(type), bits, desc, NULL, classes, NULL, out);
        tally(classes, NULL, e, NULL, desc, NULL, out);
    }
    free(classes);
    free(ha);
    free(hb);
    return s;
}

/* Loads a golden image of any format at its own depth and channels. */
static amp_status load_golden(const char *who, const char *path, amp_image *out)
{
    unsigned char *data;
    size_t size;
    amp__host_image h;
    amp_image head;
    amp_status s = amp__image_read_file(who, path, &data, &size);
    if (s != AMP_OK) return s;
    s = amp__image_decode(who, path, data, size, AMP_IMAGE_FORMAT_AUTO, NULL, NULL, &head, &h);
    free(data);
    if (s == AMP_OK)
        *out = (amp_image){h.width, h.height, h.channels, h.bits,
                           (size_t)h.width * (size_t)h.channels * (size_t)(h.bits / 8), h.pixels, head.format};
    return s;
}

/* Compares two images whose sizes and channels match, actual converted to
 * expected's depth. */
static amp_status compare_images(const char *who, const amp_image *expected, const amp_image *actual,
                                 const amp_image_compare_desc *desc, amp_image_compare_result *out)
{
    uint8_t *classes;
    float *score;
    uint8_t *ignored;
    amp_status s = compare_classes(who, expected, actual, desc, false, out, &classes, &score, &ignored);
    free(classes);
    free(score);
    free(ignored);
    return s;
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
    amp_image g = {0}, mine = {0};
    if (s == AMP_OK) s = load_golden(who, golden_path, &g);
    if (s != AMP_OK) return s;
    s = compare_with(who, t, golden_path, &g, desc, &mine, out);
    amp_image_free(&g);
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

amp_status amp_image_compare_draw_styles(const amp_image *expected, const amp_image *actual,
                                         const amp_image_compare_desc *desc, const amp_image_draw_style *styles,
                                         int count, amp_image_compare_result *out, amp_image *pictures)
{
    const char *who = "amp_image_compare_draw";
    if (!out || !pictures || !styles || count < 1)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: NULL out, pictures or styles, or %d styles", who, count);
    bool heat = false, overlay = false;
    for (int k = 0; k < count; k++) {
        pictures[k] = (amp_image){0};
        if (styles[k] != AMP_IMAGE_DRAW_OVERLAY && styles[k] != AMP_IMAGE_DRAW_MASK &&
            styles[k] != AMP_IMAGE_DRAW_HEATMAP)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: style %d is not an amp_image_draw_style", who,
                             (int)styles[k]);
        heat = heat || styles[k] == AMP_IMAGE_DRAW_HEATMAP;
        overlay = overlay || styles[k] == AMP_IMAGE_DRAW_OVERLAY;
    }
    amp_status s = check_desc(who, desc);
    if (s == AMP_OK) s = check_pair(who, expected, actual);
    uint8_t *classes = NULL;
    uint32_t *owned_gray = NULL;
    const uint32_t *gray = NULL;
    float *score = NULL;
    uint8_t *ignored = NULL;
    if (s == AMP_OK) s = compare_classes(who, expected, actual, desc, heat, out, &classes, &score, &ignored);
    size_t n = (size_t)expected->width * (size_t)expected->height;
    if (s == AMP_OK && overlay && !(gray = amp__rgba8_words(expected, n, &owned_gray)))
        s = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    for (int k = 0; s == AMP_OK && k < count; k++) {
        amp_image_draw_style style = styles[k];
        s = amp_image_create(expected->width, expected->height, 4, 8, &pictures[k]);
        uint8_t *o = s == AMP_OK ? pictures[k].pixels : NULL;
        for (size_t t = 0; o && t < n; t++, o += 4) {
            uint32_t c = ignored && ignored[t] ? CLASS_IGNORED : classes[t];
            /* red: actual the brighter (or, by the channel metric, any difference); blue: darker */
            static const uint8_t colors[6][4] = {{0}, {0}, {255, 0, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255},
                                                 {0}};
            if (style == AMP_IMAGE_DRAW_HEATMAP) { /* the score through magma; ignored texels gray */
                float v = score[t] > 0 ? (score[t] < 1 ? score[t] : 1) : 0; /* 1 - SSIM reaches 2 */
                int i = (int)lrintf(v * 255);
                o[0] = c == CLASS_IGNORED ? 128 : magma_table[i][0];
                o[1] = c == CLASS_IGNORED ? 128 : magma_table[i][1];
                o[2] = c == CLASS_IGNORED ? 128 : magma_table[i][2];
                o[3] = 255;
            } else if (c == CLASS_LIGHTER || c == CLASS_DARKER || (c == CLASS_AA && style == AMP_IMAGE_DRAW_OVERLAY)) {
                memcpy(o, colors[c], 4);
            } else if (style == AMP_IMAGE_DRAW_MASK) {
                memset(o, 0, 4);
            } else {
                /* pixelmatch's gray: the luma blended 90% toward white by the alpha */
                uint32_t p = gray[t];
                double luma = (p & 255) * 0.29889531 + (p >> 8 & 255) * 0.58662247 + (p >> 16 & 255) * 0.11448223;
                double v = 255 + (luma - 255) * 0.1 * (double)(p >> 24) / 255;
                uint8_t g = (uint8_t)(c == CLASS_IGNORED ? v * 0.6 : v);
                o[0] = o[1] = o[2] = g;
                o[3] = 255;
            }
        }
    }
    free(owned_gray);
    free(classes);
    free(score);
    free(ignored);
    for (int k = 0; s != AMP_OK && k < count; k++) amp_image_free(&pictures[k]);
    return s;
}

amp_status amp_image_compare_draw(const amp_image *expected, const amp_image *actual,
                                  const amp_image_compare_desc *desc, amp_image_draw_style style,
                                  amp_image_compare_result *out, amp_image *picture)
{
    return amp_image_compare_draw_styles(expected, actual, desc, &style, 1, out, picture);
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

/* Writes NAME.actual.EXT, NAME.expected.EXT (EXT the golden's extension, or png) and
 * (when the sizes match) NAME.diff.png into dir. */
static amp_status write_failure(const char *who, const char *dir, const char *golden_path, const amp_image *mine,
                                const amp_image *golden, const amp_image_compare_desc *desc)
{
    int err = make_dirs(dir);
    if (err) return amp__fail(AMP_ERROR_IO, "%s: cannot create the failure folder %s: %s", who, dir, strerror(err));
    const char *base = strrchr(golden_path, '/');
    base = base ? base + 1 : golden_path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.'), *ext = "png";
    amp_image_format f = amp_image_format_from_path(base);
    if (dot && f != AMP_IMAGE_FORMAT_AUTO && f != AMP_IMAGE_FORMAT_PSD) { /* PSD: read only */
        ext = dot + 1;
        n = (size_t)(dot - base);
    }
    size_t cap = strlen(dir) + n + strlen(ext) + 32;
    char *path = malloc(cap);
    if (!path) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    amp_status s = AMP_OK;
    const char *kinds[3] = {"actual", "expected", "diff"};
    for (int k = 0; k < 3 && s == AMP_OK; k++) {
        snprintf(path, cap, "%s/%.*s.%s.%s", dir, (int)n, base, kinds[k], k == 2 ? "png" : ext);
        if (k == 0 && mine->pixels) s = amp_image_save(path, mine, NULL);
        if (k == 1) s = amp_image_save(path, golden, NULL);
        if (k == 2 && mine->pixels && mine->width == golden->width && mine->height == golden->height &&
            mine->channels == golden->channels) {
            amp_image diff;
            amp_image_compare_result r;
            s = amp_image_compare_draw(golden, mine, desc, AMP_IMAGE_DRAW_OVERLAY, &r, &diff);
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
        s = amp_texture_save(t, golden_path, NULL); /* the format of its name; PNG without one */
        if (s != AMP_OK && amp_image_format_from_path(golden_path) == AMP_IMAGE_FORMAT_AUTO)
            s = amp_texture_save(t, golden_path, &(amp_image_save_desc){.format = AMP_IMAGE_FORMAT_PNG});
        if (s != AMP_OK) return s;
        amp_extent e = amp_texture_extent(t);
        *out = (amp_image_compare_result){.equal = true, .passed = true, .psnr = INFINITY,
                                          .texels = amp_extent_size(e), .golden_written = true};
        return AMP_OK;
    }
    amp_image g = {0}, mine = {0};
    s = load_golden(who, golden_path, &g);
    if (s != AMP_OK) return s;
    s = compare_with(who, t, golden_path, &g, cmp, &mine, out);
    const char *dir = desc && desc->failure_dir ? desc->failure_dir : getenv("AMPVK_GOLDEN_FAILURES");
    if (dir && *dir && (s == AMP_OK ? !out->passed : amp_last_status() == AMP_ERROR_INVALID_ARGUMENT)) {
        char msg[512];
        amp_status cs = s;
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        if (!mine.pixels) amp__texture_samples(who, t, 0, &mine); /* a size mismatch: the actual image as is */
        amp_status ws = write_failure(who, dir, golden_path, &mine, &g, cmp);
        if (cs != AMP_OK) amp__fail(cs, "%s", msg); /* the mismatch is the news, not the files */
        else s = ws;
    }
    amp_image_free(&g);
    amp_image_free(&mine);
    return s;
}
