/* The filters' names, parameter checks and numbers (see ampvk/filter.h). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter_internal.h"

static const char *const names[AMP_IMAGE_OP_COUNT] = {
    "copy", "gaussian", "box", "median", "sobel", "sharpen", "bilateral", "erode", "dilate", "grayscale",
    "sepia", "invert", "gamma", "brightness_contrast", "threshold", "srgb_to_linear", "linear_to_srgb",
    "resize", "equalize", "tonemap"};

/* The largest radius of the filters whose cost grows with it (a pass does
 * (2 radius + 1) reads per texel and direction); median and bilateral are 2-D. */
#define MAX_RADIUS 4096
#define MAX_MEDIAN_RADIUS 7
#define MAX_BILATERAL_RADIUS 127

const char *amp_image_op_name(amp_image_op op)
{
    return (int)op >= 0 && op < AMP_IMAGE_OP_COUNT ? names[op] : NULL;
}

amp_status amp_image_op_from_name(const char *name, amp_image_op *out)
{
    if (!name || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_image_op_from_name: NULL argument");
    for (int i = 0; i < AMP_IMAGE_OP_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (amp_image_op)i;
            return AMP_OK;
        }
    return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "\"%s\" is not a filter (copy, gaussian, box, median, sobel, "
                     "sharpen, bilateral, erode, dilate, grayscale, sepia, invert, gamma, brightness_contrast, "
                     "threshold, srgb_to_linear, linear_to_srgb, resize, equalize, tonemap)", name);
}

bool amp__op_pointwise(amp_image_op op)
{
    return op == AMP_IMAGE_COPY || (op >= AMP_IMAGE_GRAYSCALE && op <= AMP_IMAGE_LINEAR_TO_SRGB) ||
           op == AMP_IMAGE_TONEMAP;
}

static amp_status bad(int index, const amp_image_filter *f, const char *what)
{
    return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter %d (%s): %s", index, amp_image_op_name(f->op), what);
}

static bool finite_all(const amp_image_filter *f)
{
    float v[] = {f->sigma, f->amount, f->sigma_color, f->sigma_space, f->gamma, f->contrast, f->brightness,
                 f->threshold, f->max_value, f->border_value[0], f->border_value[1], f->border_value[2],
                 f->border_value[3], f->exposure};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

amp_status amp__filter_check(const amp_image_filter *f, int index)
{
    char m[160];
    if ((int)f->op < 0 || f->op >= AMP_IMAGE_OP_COUNT)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter %d: op %d is not a filter (0 to %d)", index, (int)f->op,
                         AMP_IMAGE_OP_COUNT - 1);
    if (!finite_all(f)) return bad(index, f, "a parameter is NaN or infinite");
    if ((int)f->border < 0 || f->border > AMP_BORDER_CONSTANT) {
        snprintf(m, sizeof m, "border %d is not a border (0 to %d)", (int)f->border, AMP_BORDER_CONSTANT);
        return bad(index, f, m);
    }
    if (f->op == AMP_IMAGE_TONEMAP && ((int)f->curve < 0 || f->curve > AMP_TONEMAP_ACES || f->exposure < 0)) {
        snprintf(m, sizeof m, "curve %d (0 reinhard, 1 aces) and exposure %g (0 or more)", (int)f->curve,
                 f->exposure);
        return bad(index, f, m);
    }
    int max = f->op == AMP_IMAGE_MEDIAN ? MAX_MEDIAN_RADIUS : MAX_RADIUS;
    if (f->radius < 0 || f->radius > max) {
        snprintf(m, sizeof m, "radius %d is out of range (0 to %d)", f->radius, max);
        return bad(index, f, m);
    }
    /* a radius derived from sigma (at most 4 sigma) stays within MAX_RADIUS */
    if (f->sigma < 0 || f->sigma > MAX_RADIUS / 4) {
        snprintf(m, sizeof m, "sigma %g is out of range (0 to %d)", f->sigma, MAX_RADIUS / 4);
        return bad(index, f, m);
    }
    switch (f->op) {
    case AMP_IMAGE_SOBEL:
        if ((int)f->sobel < 0 || f->sobel > AMP_SOBEL_Y) {
            snprintf(m, sizeof m, "sobel output %d is not one (0 magnitude, 1 x, 2 y)", (int)f->sobel);
            return bad(index, f, m);
        }
        if (f->signed_output && f->sobel == AMP_SOBEL_MAGNITUDE)
            return bad(index, f, "signed_output is for the x or y derivative, not the magnitude");
        break;
    case AMP_IMAGE_BILATERAL: {
        int r = amp__filter_radius(f, 8);
        if (f->diameter < 0 || f->sigma_color < 0 || f->sigma_space < 0 || r > MAX_BILATERAL_RADIUS) {
            snprintf(m, sizeof m, "diameter %d, sigma_color %g, sigma_space %g: the radius %d must be 1 to %d and "
                     "no value negative", f->diameter, f->sigma_color, f->sigma_space, r, MAX_BILATERAL_RADIUS);
            return bad(index, f, m);
        }
        break;
    }
    case AMP_IMAGE_GAMMA:
        if (f->gamma < 0) {
            snprintf(m, sizeof m, "gamma %g must be positive", f->gamma);
            return bad(index, f, m);
        }
        break;
    case AMP_IMAGE_THRESHOLD:
        if ((int)f->threshold_type < 0 || f->threshold_type > AMP_THRESHOLD_TRUNC) {
            snprintf(m, sizeof m, "threshold_type %d is not one (0 binary, 1 binary_inv, 2 trunc)",
                     (int)f->threshold_type);
            return bad(index, f, m);
        }
        break;
    case AMP_IMAGE_RESIZE:
        if ((int)f->interpolation < 0 || f->interpolation > AMP_INTERP_LANCZOS4) {
            snprintf(m, sizeof m, "interpolation %d is not one (0 linear, 1 nearest, 2 area, 3 cubic, 4 lanczos4)",
                     (int)f->interpolation);
            return bad(index, f, m);
        }
        if (f->width < 0 || f->height < 0) {
            snprintf(m, sizeof m, "size %d x %d is negative", f->width, f->height);
            return bad(index, f, m);
        }
        break;
    default:
        break;
    }
    return AMP_OK;
}

int amp__filter_radius(const amp_image_filter *f, int src_bits)
{
    switch (f->op) {
    case AMP_IMAGE_GAUSSIAN:
    case AMP_IMAGE_SHARPEN: {
        double sigma = f->sigma > 0 ? f->sigma : f->op == AMP_IMAGE_SHARPEN ? 1.0 : 0.0;
        if (f->radius > 0) return f->radius;
        if (sigma <= 0) return 2;
        /* cv2.GaussianBlur: ksize = cvRound(sigma * (8-bit ? 3 : 4) * 2 + 1) | 1 */
        int k = (int)lrint(sigma * (src_bits == 8 ? 3 : 4) * 2 + 1) | 1;
        return k / 2;
    }
    case AMP_IMAGE_BILATERAL: {
        double ss = f->sigma_space > 0 ? f->sigma_space : 1.0;
        int r = f->diameter > 0 ? f->diameter / 2 : (int)lrint(ss * 1.5);
        return r < 1 ? 1 : r;
    }
    case AMP_IMAGE_SOBEL:
        return 1;
    default:
        return f->radius > 0 ? f->radius : 1;
    }
}

void amp__gaussian_weights(int radius, double sigma, float *w)
{
    int n = 2 * radius + 1;
    /* cv2.getGaussianKernel's fixed kernels for small sizes when sigma is not given */
    static const double small[4][4] = {{1}, {0.5, 0.25}, {0.375, 0.25, 0.0625}, {0.28125, 0.21875, 0.109375, 0.03125}};
    if (radius <= 3 && sigma <= 0) {
        for (int i = 0; i <= radius; i++) w[i] = (float)small[radius][i];
        return;
    }
    if (sigma <= 0) sigma = ((n - 1) * 0.5 - 1) * 0.3 + 0.8;
    double scale = -0.5 / (sigma * sigma), sum = 0;
    for (int i = -radius; i <= radius; i++) sum += exp(scale * i * i);
    for (int i = 0; i <= radius; i++) w[i] = (float)(exp(scale * i * i) / sum);
}

void amp__gaussian_fixed(int radius, double sigma, int *w)
{
    int n = 2 * radius + 1;
    /* its tables for the sizes up to 9 when sigma is not given, in 256ths */
    static const int small[5][5] = {{256}, {128, 64}, {96, 64, 16}, {72, 56, 28, 8}, {60, 51, 30, 13, 4}};
    if (radius <= 4 && sigma <= 0) {
        memcpy(w, small[radius], (size_t)(radius + 1) * sizeof *w);
        return;
    }
    /* the kernel in doubles (sigma derived as 0.15 n + 0.35), each value at offset x from
       the center exp(-x^2 / 2 sigma^2) times 1 over their sum (its order of operations),
       then to 256ths from the outside in, each rounded (to even, cvRound) with the error
       carried to the next, the center taking what is left so that they sum to 256.
       radius <= AMP__FIXED_RADIUS. */
    double sx = sigma > 0 ? sigma : n * 0.15 + 0.35, scale = -0.125 / (sx * sx), sum = 0, t[AMP__FIXED_RADIUS];
    for (int i = 0; i < radius; i++) sum += t[i] = exp((double)((2 * i + 1 - n) * (2 * i + 1 - n)) * scale);
    double inv = 1 / (sum * 2 + 1), err = 0;
    int total = 0;
    for (int i = 0; i < radius; i++) {
        double v = t[i] * inv * 256 + err;
        int k = (int)lrint(v);
        err = v - k;
        w[radius - i] = k;
        total += 2 * k;
    }
    w[0] = 256 - total;
}

amp_border amp__filter_border(const amp_image_filter *f)
{
    if (f->border != AMP_BORDER_DEFAULT) return f->border;
    return f->op == AMP_IMAGE_MEDIAN ? AMP_BORDER_REPLICATE : AMP_BORDER_REFLECT_101;
}

void amp__pointwise_add(amp__filter_spec *s, amp__filter_params *p, const amp_image_filter *f,
                        int components_after, float levels)
{
    int i = s->ops++;
    float(*a)[4] = &p->pw_arg[3 * i];
    s->op[i] = (int32_t)f->op | components_after << 8;
    memset(a, 0, 3 * sizeof *a);
    switch (f->op) {
    case AMP_IMAGE_SEPIA: {
        static const float m[3][3] = {{0.393f, 0.769f, 0.189f}, {0.349f, 0.686f, 0.168f}, {0.272f, 0.534f, 0.131f}};
        for (int r = 0; r < 3; r++) memcpy(a[r], m[r], sizeof m[r]);
        break;
    }
    case AMP_IMAGE_GAMMA:
        a[0][0] = 1.0f / (f->gamma > 0 ? f->gamma : 2.2f);
        break;
    case AMP_IMAGE_BRIGHTNESS_CONTRAST:
        a[0][0] = f->contrast != 0 ? f->contrast : 1.0f;
        a[0][1] = f->brightness;
        break;
    case AMP_IMAGE_TONEMAP:
        a[0][0] = f->exposure > 0 ? f->exposure : 1.0f;
        a[0][1] = (float)f->curve;
        break;
    case AMP_IMAGE_THRESHOLD:
        /* on codes as OpenCV: floor(threshold) in code units (k / 255.0 is code k) */
        a[0][0] = levels > 0 ? (float)floor((double)f->threshold * levels + 1e-3) : f->threshold;
        a[0][1] = f->max_value != 0 ? f->max_value : 1.0f;
        a[0][2] = (float)f->threshold_type;
        break;
    default:
        break;
    }
}

/* ---- parsing NAME:key=value,... ---- */

static int word_index(const char *v, size_t n, const char *const *words, int count)
{
    for (int i = 0; i < count; i++)
        if (strlen(words[i]) == n && strncmp(v, words[i], n) == 0) return i;
    return -1;
}

static bool parse_float(const char *v, size_t n, float *out)
{
    char buf[64], *end;
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, v, n);
    buf[n] = 0;
    double d = strtod(buf, &end);
    if (*end || !isfinite(d)) return false;
    *out = (float)d;
    return true;
}

static bool parse_int(const char *v, size_t n, int *out)
{
    float f;
    if (!parse_float(v, n, &f) || f != floorf(f) || fabsf(f) > 1e9f) return false;
    *out = (int)f;
    return true;
}

static const char *const borders[] = {"default", "reflect_101", "replicate", "reflect", "wrap", "constant", NULL};
static const char *const interps[] = {"linear", "nearest", "area", "cubic", "lanczos4", NULL};
static const char *const sobels[] = {"magnitude", "x", "y", NULL};
static const char *const thresholds[] = {"binary", "binary_inv", "trunc", NULL};
static const char *const curves[] = {"reinhard", "aces", NULL};

/* How a key's value is written. */
typedef enum key_kind { KEY_INT, KEY_FLOAT, KEY_BOOL, KEY_ENUM, KEY_VALUES } key_kind;

/* The keys of NAME:key=value: the field each sets, how its value reads and the filters
 * that use it. Parsing and amp_image_filter_describe both read this table. */
typedef struct filter_key {
    const char *name;
    key_kind kind;
    size_t offset;
    const char *const *words; /* KEY_ENUM: the values by name, in the enum's order */
    uint32_t ops;             /* a bit per amp_image_op that uses the key */
} filter_key;

#define OP(x) (1u << AMP_IMAGE_##x)
#define BLURS (OP(GAUSSIAN) | OP(BOX) | OP(MEDIAN) | OP(SHARPEN) | OP(ERODE) | OP(DILATE))
#define NEIGHBORHOOD (BLURS | OP(SOBEL) | OP(BILATERAL))
#define FIELD(f) offsetof(amp_image_filter, f)
static const filter_key keys[] = {
    {"radius", KEY_INT, FIELD(radius), NULL, BLURS},
    {"sigma", KEY_FLOAT, FIELD(sigma), NULL, OP(GAUSSIAN) | OP(SHARPEN)},
    {"amount", KEY_FLOAT, FIELD(amount), NULL, OP(SHARPEN)},
    {"diameter", KEY_INT, FIELD(diameter), NULL, OP(BILATERAL)},
    {"sigma_color", KEY_FLOAT, FIELD(sigma_color), NULL, OP(BILATERAL)},
    {"sigma_space", KEY_FLOAT, FIELD(sigma_space), NULL, OP(BILATERAL)},
    {"sobel", KEY_ENUM, FIELD(sobel), sobels, OP(SOBEL)},
    {"signed", KEY_BOOL, FIELD(signed_output), NULL, OP(SOBEL)},
    {"gamma", KEY_FLOAT, FIELD(gamma), NULL, OP(GAMMA)},
    {"contrast", KEY_FLOAT, FIELD(contrast), NULL, OP(BRIGHTNESS_CONTRAST)},
    {"brightness", KEY_FLOAT, FIELD(brightness), NULL, OP(BRIGHTNESS_CONTRAST)},
    {"type", KEY_ENUM, FIELD(threshold_type), thresholds, OP(THRESHOLD)},
    {"threshold", KEY_FLOAT, FIELD(threshold), NULL, OP(THRESHOLD)},
    {"max_value", KEY_FLOAT, FIELD(max_value), NULL, OP(THRESHOLD)},
    {"width", KEY_INT, FIELD(width), NULL, OP(RESIZE)},
    {"height", KEY_INT, FIELD(height), NULL, OP(RESIZE)},
    {"interpolation", KEY_ENUM, FIELD(interpolation), interps, OP(RESIZE)},
    {"curve", KEY_ENUM, FIELD(curve), curves, OP(TONEMAP)},
    {"exposure", KEY_FLOAT, FIELD(exposure), NULL, OP(TONEMAP)},
    {"border", KEY_ENUM, FIELD(border), borders, NEIGHBORHOOD},
    {"border_value", KEY_VALUES, FIELD(border_value), NULL, NEIGHBORHOOD},
};
#undef FIELD
#undef NEIGHBORHOOD
#undef BLURS
#undef OP
/* enum fields are written as int */
_Static_assert(sizeof(amp_border) == sizeof(int) && sizeof(amp_interpolation) == sizeof(int), "enum size");

static int word_count(const char *const *words)
{
    int n = 0;
    while (words[n]) n++;
    return n;
}

/* One key=value into f; false if the key is unknown or the value is not valid for it. */
static bool parse_pair(amp_image_filter *f, const char *k, size_t kn, const char *v, size_t vn)
{
    const filter_key *key = NULL;
    for (size_t i = 0; i < sizeof keys / sizeof *keys && !key; i++)
        if (strlen(keys[i].name) == kn && strncmp(k, keys[i].name, kn) == 0) key = &keys[i];
    if (!key) return false;
    void *field = (char *)f + key->offset;
    switch (key->kind) {
    case KEY_INT:
        return parse_int(v, vn, field);
    case KEY_FLOAT:
        return parse_float(v, vn, field);
    case KEY_BOOL: {
        int b;
        if (!parse_int(v, vn, &b) || (b != 0 && b != 1)) return false;
        *(bool *)field = b;
        return true;
    }
    case KEY_ENUM: {
        int i = word_index(v, vn, key->words, word_count(key->words));
        if (i < 0) return false;
        *(int *)field = i;
        return true;
    }
    case KEY_VALUES: {
        float c[4], *out = field;
        int n = 0;
        for (const char *p = v, *end = v + vn; p <= end && n < 4;) {
            const char *q = memchr(p, '/', (size_t)(end - p));
            if (!q) q = end;
            if (!parse_float(p, (size_t)(q - p), &c[n++])) return false;
            p = q + 1;
            if (q == end) break;
        }
        for (int i = 0; i < 4; i++) out[i] = c[n == 4 ? i : 0];
        return n == 1 || n == 4;
    }
    }
    return false;
}

amp_status amp_image_filter_parse(const char *spec, amp_image_filter *out)
{
    if (!spec || !out) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_image_filter_parse: NULL argument");
    memset(out, 0, sizeof *out);
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    char name[32];
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, spec, n);
    name[n] = 0;
    amp_status st = amp_image_op_from_name(name, &out->op);
    if (st != AMP_OK || !colon) return st;
    for (const char *p = colon + 1; *p;) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq || !parse_pair(out, p, (size_t)(eq - p), eq + 1, (size_t)(end - eq - 1)))
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: \"%.*s\" is not a valid key=value for this filter",
                             name, (int)(end - p), p);
        p = *end ? end + 1 : end;
    }
    return AMP_OK;
}

amp_status amp_image_filter_parse_chain(const char *chain, amp_image_filter *out, int max, int *count)
{
    if (!chain || !out || !count || max < 1)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_image_filter_parse_chain: NULL argument or max %d < 1",
                         max);
    /* twice: the first pass checks every filter into f, the second writes out, so that a
       chain that fails leaves out as it was */
    for (int pass = 0; pass < 2; pass++) {
        int n = 0;
        for (const char *p = chain;;) {
            while (*p == ' ' || *p == '\t' || *p == '\n') p++;
            if (!*p) break;
            size_t len = strcspn(p, " \t\n");
            char spec[256];
            amp_image_filter f;
            if (n == max)
                return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                                 "amp_image_filter_parse_chain: more than %d filters in \"%s\"", max, chain);
            if (len >= sizeof spec)
                return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter %d: \"%.*s\" is longer than %zu characters", n,
                                 (int)len, p, sizeof spec - 1);
            memcpy(spec, p, len);
            spec[len] = 0;
            amp_status st = amp_image_filter_parse(spec, pass ? &out[n] : &f);
            if (st != AMP_OK) return st;
            n++;
            p += len;
        }
        if (n == 0)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_image_filter_parse_chain: no filter in \"%s\"", chain);
        *count = n;
    }
    return AMP_OK;
}

int amp_image_filter_describe(amp_image_op op, char *buf, size_t size)
{
    const char *name = amp_image_op_name(op);
    if (!name || (!buf && size)) return -1;
    size_t len = 0;
#define PUT(...)                                                                                \
    do {                                                                                        \
        int k_ = snprintf(buf ? buf + (len < size ? len : size) : NULL,                         \
                          len < size ? size - len : 0, __VA_ARGS__);                            \
        len += k_ > 0 ? (size_t)k_ : 0;                                                         \
    } while (0)
    PUT("%s", name);
    int used = 0;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const filter_key *key = &keys[i];
        if (!(key->ops & 1u << op)) continue;
        PUT("%s%s=", used++ ? "," : ":", key->name);
        switch (key->kind) {
        case KEY_INT: PUT("INT"); break;
        case KEY_FLOAT: PUT("FLOAT"); break;
        case KEY_BOOL: PUT("0|1"); break;
        case KEY_VALUES: PUT("V[/V/V/V]"); break;
        case KEY_ENUM:
            for (int w = 0; key->words[w]; w++) PUT("%s%s", w ? "|" : "", key->words[w]);
            break;
        }
    }
#undef PUT
    return (int)len;
}
