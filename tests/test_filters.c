/* The built-in filters (ampvk/filter.h) against OpenCV 4.6: every case of
 * tests/data/filters/cases.txt (made by make_reference.py there with python3-opencv)
 * runs on the test device and must be within the case's tolerance of OpenCV's
 * result (integer sums: equal to it); then groups of checks (groups[] at the end):
 * chains (fused = one by one, one dispatch for a pointwise run), the parser, bad
 * requests (an error naming the filter and the numbers, the destination untouched),
 * sums against the host's, packed.comp against the image paths, the GPUs' paths forced.
 * ctest runs each family of cases and each group as an entry of its own (main's
 * comment says how to run one). */
#include <math.h>

#include "test.h"

#define DIR AMPVK_TEST_DATA "/filters/"

static amp_accelerator_view *view;

/* ---- host values ---- */

static uint16_t half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e < 103) return (uint16_t)sign; /* below half's subnormals: values here are 0..1 */
    if (e < 113) { /* subnormal half */
        m |= 0x800000u;
        uint32_t shift = 126 - e, h = m >> shift, rest = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((e - 112) << 10) | (m >> 13), rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static float half_to_float(uint16_t h)
{
    uint32_t e = (h >> 10) & 31u, m = h & 1023u;
    float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 1024u), (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}

/* A texture's level 0 as normalized floats (codes / max for unorm). */
static float *read_values(amp_texture *t, size_t *count)
{
    amp_extent e = amp_texture_extent(t);
    int comps = amp_type_components(amp_texture_type(t)), bits = amp_texture_bits_per_scalar_element(t);
    bool unorm = amp_type_scalar(amp_texture_type(t)) == AMP_SCALAR_UNORM;
    size_t n = (size_t)e.dims[0] * (size_t)e.dims[1] * (size_t)comps, bytes = n * (size_t)bits / 8;
    void *raw = malloc(bytes);
    float *v = malloc(n * sizeof *v);
    if (!raw || !v || amp_texture_copy_to_host(t, NULL, raw, bytes) != AMP_OK) {
        free(raw);
        free(v);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (unorm && bits == 8) v[i] = ((uint8_t *)raw)[i] / 255.0f;
        else if (unorm) v[i] = ((uint16_t *)raw)[i] / 65535.0f;
        else if (bits == 16) v[i] = half_to_float(((uint16_t *)raw)[i]);
        else v[i] = ((float *)raw)[i];
    }
    free(raw);
    *count = n;
    return v;
}

/* A texture of type tname ("u8", "u16", "f16", "f32") with comps components. */
static amp_texture *make_texture(const char *tname, int comps, amp_extent e, const float *values)
{
    bool f = tname[0] == 'f';
    int bits = atoi(tname + 1);
    amp_texture_desc d = {.extent = e, .type = AMP_MAKE_TYPE(f ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM, comps),
                          .bits_per_scalar_element = bits};
    size_t n = (size_t)e.dims[0] * (size_t)e.dims[1] * (size_t)comps;
    void *data = NULL;
    if (values) {
        data = malloc(n * (size_t)bits / 8);
        for (size_t i = 0; i < n; i++) {
            if (f && bits == 32) ((float *)data)[i] = values[i];
            else if (f) ((uint16_t *)data)[i] = half_from_float(values[i]);
            else if (bits == 8) ((uint8_t *)data)[i] = (uint8_t)lrintf(values[i] * 255.0f);
            else ((uint16_t *)data)[i] = (uint16_t)lrintf(values[i] * 65535.0f);
        }
        d.data = data;
        d.data_size = n * (size_t)bits / 8;
    }
    amp_texture *t = amp_texture_create(view, &d);
    free(data);
    return t;
}

/* The case's input as a texture of type src (float: the codes / max, made on the host). */
static amp_texture *load_input(const char *file, const char *src)
{
    char path[512];
    snprintf(path, sizeof path, DIR "%s", file);
    amp_texture *png = amp_texture_load_png(view, path, NULL);
    if (!png || src[0] == 'u') return png;
    size_t n;
    float *v = read_values(png, &n);
    amp_texture *t = v ? make_texture(src, amp_type_components(amp_texture_type(png)), amp_texture_extent(png), v)
                       : NULL;
    free(v);
    amp_texture_destroy(&png);
    return t;
}

typedef struct expected {
    int w, h, comps;
    float *v;
} expected;

/* OpenCV's result: a PNG (normalized codes) or a .f32 file. */
static bool load_expected(const char *file, expected *x)
{
    char path[512];
    snprintf(path, sizeof path, DIR "%s", file);
    size_t len = strlen(file);
    if (len > 4 && strcmp(file + len - 4, ".f32") == 0) {
        FILE *fp = fopen(path, "rb");
        if (!fp) return false;
        bool ok = fscanf(fp, "F32 %d %d %d", &x->w, &x->h, &x->comps) == 3 && fgetc(fp) == '\n';
        size_t n = ok ? (size_t)x->w * (size_t)x->h * (size_t)x->comps : 0;
        x->v = ok ? malloc(n * sizeof(float)) : NULL;
        ok = x->v && fread(x->v, sizeof(float), n, fp) == n;
        fclose(fp);
        return ok;
    }
    amp_texture *t = amp_texture_load_png(view, path, NULL);
    if (!t) return false;
    amp_extent e = amp_texture_extent(t);
    size_t n;
    x->w = e.dims[1];
    x->h = e.dims[0];
    x->comps = amp_type_components(amp_texture_type(t));
    x->v = read_values(t, &n);
    amp_texture_destroy(&t);
    return x->v != NULL;
}

/* Whether filter f from src into dst is an integer sum (filter.h's accuracy paragraph):
 * OpenCV's bytes exactly on every device, not within its case's tolerance. Gaussians up
 * to radius 63, where a constant border is 0 (OpenCV's); boxes up to 9 x 9, where it is
 * whole codes. */
static bool integer_case(const amp_image_filter *f, const char *src, const char *dst)
{
    int r = f->radius > 0 ? f->radius : f->sigma > 0 ? ((int)lround(f->sigma * 6 + 1) | 1) / 2 : 2;
    bool sum = (f->op == AMP_IMAGE_GAUSSIAN && r <= 63) || (f->op == AMP_IMAGE_BOX && f->radius >= 1 && f->radius <= 4);
    for (int c = 0; c < 4 && f->border == AMP_BORDER_CONSTANT; c++)
        sum &= f->op == AMP_IMAGE_GAUSSIAN ? f->border_value[c] == 0
                                           : f->border_value[c] * 255.0f == floorf(f->border_value[c] * 255.0f);
    return sum && strcmp(src, "u8") == 0 && strcmp(dst, "u8") == 0;
}

/* Runs one line of cases.txt; false if it failed. */
static bool run_case(char *line)
{
    char *field[8 + 64];
    int n = 0;
    for (char *tok = strtok(line, " \n"); tok && n < 8 + 64; tok = strtok(NULL, " \n")) field[n++] = tok;
    if (n < 7) {
        fprintf(stderr, "malformed case line (%d fields)\n", n);
        return false;
    }
    const char *name = field[0], *dst_type = field[3], *tol_text = field[4];
    amp_image_filter filters[64];
    int count = n - 6;
    for (int i = 0; i < count; i++)
        if (amp_image_filter_parse(field[6 + i], &filters[i]) != AMP_OK) {
            fprintf(stderr, "%s: %s\n", name, amp_last_error());
            return false;
        }
    expected x = {0};
    amp_texture *src = load_input(field[1], field[2]), *dst = NULL;
    bool ok = src && load_expected(field[5], &x);
    if (ok) dst = make_texture(dst_type, x.comps, amp_extent2(x.h, x.w), NULL);
    ok = ok && dst && amp_image_filter_chain(filters, count, src, dst) == AMP_OK;
    size_t got_n = 0;
    float *got = ok ? read_values(dst, &got_n) : NULL;
    if (!got) {
        fprintf(stderr, "%s: %s\n", name, amp_last_error());
        ok = false;
    }
    if (ok) {
        bool codes = dst_type[0] == 'u';
        bool exact = count == 1 && integer_case(&filters[0], field[2], dst_type);
        double scale = !codes ? 1.0 : dst_type[1] == '8' ? 255.0 : 65535.0, tol = exact ? 0 : atof(tol_text), worst = 0;
        size_t at = 0;
        for (size_t i = 0; i < got_n; i++) {
            double d = fabs((double)got[i] - x.v[i]) * scale;
            if (codes) d = floor(d + 0.5);
            if (!(d <= worst)) {
                worst = d;
                at = i;
            }
        }
        if (!(worst <= tol)) {
            size_t px = at / (size_t)x.comps;
            fprintf(stderr, "%s: differs by %g (tolerance %g) at x %zu y %zu component %zu: %g, OpenCV %g\n", name,
                    worst, tol, px % (size_t)x.w, px / (size_t)x.w, at % (size_t)x.comps, got[at] * scale,
                    x.v[at] * scale);
            ok = false;
        }
    }
    free(got);
    free(x.v);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    return ok;
}

/* The cases of cases.txt whose line holds `only` (all: NULL), or, with prefix, whose
 * line begins with it. */
static void matching_cases(const char *only, bool prefix)
{
    FILE *fp = fopen(DIR "cases.txt", "r");
    REQUIRE(fp != NULL);
    if (!fp) return;
    char line[4096];
    int run = 0, failed = 0;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (only && (prefix ? strncmp(line, only, strlen(only)) != 0 : !strstr(line, only))) continue;
        run++;
        test_checks++;
        if (!run_case(line)) {
            failed++;
            test_failures++;
        }
    }
    fclose(fp);
    printf("OpenCV cases: %d run, %d failed\n", run, failed);
    REQUIRE(run > 0);
}

static void opencv_cases(const char *only) { matching_cases(only, false); }

/* The first case of each family with each pair of source and destination types: every
 * filter's host code and each type's once (the sanitizer stage's share of the cases). */
static void kinds_group(void)
{
    FILE *fp = fopen(DIR "cases.txt", "r");
    REQUIRE(fp != NULL);
    if (!fp) return;
    char line[4096], seen[256][48];
    int nseen = 0, run = 0;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char family[24] = "", src[8] = "", dst[8] = "", key[48];
        if (sscanf(line, "%23[^_]_%*s %*s %7s %7s", family, src, dst) != 3) continue;
        snprintf(key, sizeof key, "%s %s %s", family, src, dst);
        bool known = false;
        for (int i = 0; i < nseen && !known; i++) known = strcmp(seen[i], key) == 0;
        if (known || nseen == 256) continue;
        strcpy(seen[nseen++], key);
        run++;
        test_checks++;
        if (!run_case(line)) test_failures++;
    }
    fclose(fp);
    printf("OpenCV cases: the first of %d kinds (family, source and destination types)\n", run);
    REQUIRE(run > 20);
}

/* ---- chains ---- */

static amp_texture *sample_u8(int comps, int w, int h)
{
    float *v = malloc((size_t)w * h * comps * sizeof *v);
    test_rng_state = 99;
    for (int i = 0; i < w * h * comps; i++) v[i] = (float)(test_rand() % 256) / 255.0f;
    amp_texture *t = make_texture("u8", comps, amp_extent2(h, w), v);
    free(v);
    return t;
}

static bool same_texels(amp_texture *a, amp_texture *b)
{
    size_t na, nb;
    float *va = read_values(a, &na), *vb = read_values(b, &nb);
    bool same = va && vb && na == nb && memcmp(va, vb, na * sizeof *va) == 0;
    free(va);
    free(vb);
    return same;
}

static uint64_t dispatches(void)
{
    amp_view_stats s;
    amp_view_get_stats(view, &s);
    return s.dispatches;
}

/* packed.comp (CPU devices: 8-bit RGBA images of 512 x 512 pixels or more; RGB where the
 * device keeps it as RGBA, which lavapipe does not)
 * against the paths the other devices take (forced here, each itself held to OpenCV on
 * the small cases): the same bytes for the integer sums (a shift for T a power of two,
 * the float rounding otherwise), OpenCV's fixed-point gaussians, erode and dilate, and
 * within a level for the float sums and the pointwise programs (a texel decoded from a
 * buffer or an image may differ in its last bit, and a value halfway between two codes
 * round either way). Fused ops, passes that end in grayscale (gray and alpha) and a
 * 3-component image (into gray) included. */
__attribute__((weak)) void amp__filter_force_gpu_paths(bool on);
/* (the same for this switch of src/data/texture_create.c: textures made while it is on keep
 * optimal tiling, so packed.comp's passes copy them to and from a buffer) */
__attribute__((weak)) void amp__force_optimal_textures(bool on);
__attribute__((weak)) uint64_t amp__texture_row_pitch(const amp_texture *t); /* a VkDeviceSize */
/* (and this one of src/filter/plan.c: packed.comp computes each pointwise program instead
 * of looking its codes up in a table made by the same program) */
__attribute__((weak)) void amp__filter_tables_off(bool on);
/* (and this one: small images take packed.comp at once, wherever it can take them) */
__attribute__((weak)) void amp__filter_tier_now(bool on);
/* (and this one: packed.comp's window passes are two at any size) */
__attribute__((weak)) void amp__filter_split_now(bool on);
/* (and this one of src/filter/pass.c: the shaders that loop over their grid's rows take at
 * most that many rows of work groups) */
__attribute__((weak)) void amp__filter_grid_rows(int rows);
/* (and this one of src/vulkan/builtin.c: textures made while it is on take uint views on
 * CPU devices too, as GPUs' do) */
__attribute__((weak)) void amp__force_shader_image_copy(bool on);

/* The filters of a chain as `ampvk filter` takes it (separated by spaces) into f, at most
 * max of them: their count. */
static int parse_chain(const char *chain, amp_image_filter *f, int max)
{
    int n = 0;
    REQUIRE_OK(amp_image_filter_parse_chain(chain, f, max, &n));
    return n;
}

/* Whether the view's device is a CPU device (lavapipe), where packed.comp runs. */
static bool emulated(void)
{
    amp_accelerator_info info;
    return amp_accelerator_get_info(amp_view_accelerator(view), &info) == AMP_OK && info.is_emulated;
}

/* The 8-bit RGBA image src through the chain f of n filters into dst, with packed.comp
 * reading its source where it lies or from a copy, and writing its result where it lies
 * or through a copy, as the textures' tiling decides (amp__force_optimal_textures): each
 * combination gives the same bytes as both in place, made into `want` first. */
static void packed_in_place_or_copied(const char *chain, const amp_image_filter *f, int n, amp_texture *src,
                                      amp_texture *want, int comps)
{
    amp_extent e = amp_texture_extent(want), se = amp_texture_extent(src);
    int out = amp_type_components(amp_texture_type(want));
    /* on a CPU device `want` came from linear images read and written in place (else every
       run below would be copies) */
    if (amp__texture_row_pitch && emulated())
        REQUIRE(amp__texture_row_pitch(src) > 0 && amp__texture_row_pitch(want) > 0);
    amp__force_optimal_textures(true);
    amp_texture *src_copied = sample_u8(comps, se.dims[1], se.dims[0]);
    amp_texture *dst_copied = make_texture("u8", out, e, NULL);
    amp__force_optimal_textures(false);
    amp_texture *dst = make_texture("u8", out, e, NULL);
    struct { amp_texture *from, *to; const char *how; } runs[3] = {
        {src_copied, dst_copied, "copied both ways"}, {src, dst_copied, "result copied"},
        {src_copied, dst, "source copied"}};
    size_t nw;
    float *vw = read_values(want, &nw);
    for (int k = 0; k < 3; k++) {
        REQUIRE_OK(amp_image_filter_chain(f, n, runs[k].from, runs[k].to));
        size_t nv;
        float *v = read_values(runs[k].to, &nv);
        size_t differ = 0;
        for (size_t i = 0; v && vw && i < nv && nv == nw; i++) differ += v[i] != vw[i];
        if (!v || !vw || nv != nw || differ) {
            fprintf(stderr, "packed %s, %s: %zu values differ from the passes in place\n", chain, runs[k].how, differ);
            test_failures++;
        }
        test_checks++;
        free(v);
    }
    free(vw);
    amp_texture_destroy(&src_copied);
    amp_texture_destroy(&dst_copied);
    amp_texture_destroy(&dst);
}

/* What packed_against_image_paths runs: RGB images, RGBA images, and the image paths also
 * between textures with uint views (GPUs' codes paths). */
enum { PACKED_RGB = 1, PACKED_RGBA = 2, PACKED_UINT_VIEWS = 4, PACKED_ALL = 7 };

/* (See the comment above the switches.) On images of w4 x h (RGBA) and w3 x h (RGB): a megapixel,
 * whose window passes are two (the quads inside, those at the edges), and under half of
 * one, whose window passes are one (FLAG_WHOLE_ROWS); the first `first` chains (0: all), of
 * the kinds asked for (PACKED_*). */
static void packed_against_image_paths(int w4, int w3, int h, size_t first, int kinds)
{
    if (!amp__filter_force_gpu_paths) return;
    static const char *const chains[] = {
        "gaussian:radius=1", "gaussian:radius=2,border=wrap", "box:radius=2", "box:radius=4,border=reflect",
        "erode:radius=1", "dilate:radius=3,border=replicate", "gaussian:sigma=1.5", "gaussian:sigma=2,border=constant",
        "gaussian:radius=12,border=reflect", "erode:radius=16", /* packed_wide */
        "grayscale", "box:radius=1 grayscale", /* into gray and alpha */
        "median:radius=1", "median:radius=1,border=constant,border_value=1",
        /* a constant border of no code, and past 1 (the codes' walks clamp and round it) */
        "median:radius=1,border=constant,border_value=0.3", "dilate:radius=2,border=constant,border_value=1.5",
        /* OpenCV's fixed point (conv_subgroup_int's float_main between textures with uint views) */
        "gaussian:sigma=1,border=reflect",
        /* sobel: sobel.comp, and conv_subgroup_int's walk between textures with uint views */
        "sobel", "sobel:sobel=x,border=reflect", "sobel:sobel=y,border=constant,border_value=0.2",
        /* shapes (FLAG_SHAPE): a step, a truncation, the gray's step, the gray inverted */
        "threshold:threshold=0.5", "threshold:threshold=0.2,type=binary_inv,max_value=0.6",
        "grayscale threshold:threshold=0.45", "grayscale invert", "threshold:threshold=0.7,type=trunc",
        "sharpen:amount=0.7,sigma=1", "sharpen:amount=0.5,sigma=3", "sharpen:amount=1.5,sigma=0.8,border=constant,border_value=0.2", "invert", "gamma:gamma=2.2 threshold:threshold=0.4",
        "gaussian:radius=2 invert", "sepia grayscale", "gaussian:radius=2 grayscale invert",
        "brightness_contrast:contrast=1.3,brightness=0.1 srgb_to_linear", "linear_to_srgb",
        "threshold:threshold=0.3,type=trunc", "tonemap:exposure=2,curve=aces", "grayscale gamma:gamma=0.5",
        "threshold:threshold=0.6,type=binary_inv,max_value=0.8 box:radius=1 invert",
        /* MODE 12 (exp of each tap's weight in each module: within a level) */
        "bilateral:diameter=9,sigma_color=50,sigma_space=5", "bilateral:diameter=5,sigma_color=20,sigma_space=2,border=wrap invert"};
    const size_t exact_chains = 25; /* the first ones: the same bytes */
    for (int comps = 3; comps <= 4; comps++) {
        if (!(kinds & (comps == 4 ? PACKED_RGBA : PACKED_RGB))) continue;
        int w = comps == 4 ? w4 : w3;
        /* the same texels, and destinations, in textures with uint views */
        amp_texture *codes = NULL, *codes_same = NULL, *codes_gray = NULL;
        if (amp__force_shader_image_copy && (kinds & PACKED_UINT_VIEWS)) {
            amp__force_shader_image_copy(true);
            codes = sample_u8(comps, w, h);
            codes_same = make_texture("u8", comps, amp_extent2(h, w), NULL);
            codes_gray = make_texture("u8", comps - 2, amp_extent2(h, w), NULL);
            amp__force_shader_image_copy(false);
        }
        amp_texture *src = sample_u8(comps, w, h), *same[2] = {make_texture("u8", comps, amp_extent2(h, w), NULL),
                                                              make_texture("u8", comps, amp_extent2(h, w), NULL)},
                    *gray[2] = {make_texture("u8", comps - 2, amp_extent2(h, w), NULL),
                                make_texture("u8", comps - 2, amp_extent2(h, w), NULL)};
        for (size_t i = 0; i < (first ? first : sizeof chains / sizeof *chains); i++) {
            amp_texture *a = strstr(chains[i], "grayscale") ? gray[0] : same[0], *b = a == gray[0] ? gray[1] : same[1];
            amp_image_filter f[4];
            int n = parse_chain(chains[i], f, 4);
            REQUIRE_OK(amp_image_filter_chain(f, n, src, a));
            if (comps == 4 && amp__force_optimal_textures) packed_in_place_or_copied(chains[i], f, n, src, a, comps);
            if (amp__filter_tables_off) { /* a program of a table (invert, gamma, ...) is the computed one */
                amp__filter_tables_off(true);
                REQUIRE_OK(amp_image_filter_chain(f, n, src, b));
                amp__filter_tables_off(false);
                size_t na, nb;
                float *va = read_values(a, &na), *vb = read_values(b, &nb);
                size_t differ = 0;
                for (size_t k = 0; va && vb && k < na && na == nb; k++) differ += va[k] != vb[k];
                if (!va || !vb || na != nb || differ) {
                    fprintf(stderr, "packed %s (%d components): %zu values differ from the program computed\n",
                            chains[i], comps, differ);
                    test_failures++;
                }
                test_checks++;
                free(va);
                free(vb);
            }
            /* the image paths between textures as made here and between textures with uint
               views (GPUs': conv_subgroup_int and conv_subgroup_half_codes read and write the
               codes through them) */
            for (int k = 0; k < (codes ? 2 : 1); k++) {
                amp_texture *to = k == 0 ? b : a == gray[0] ? codes_gray : codes_same;
                amp__filter_force_gpu_paths(true);
                REQUIRE_OK(amp_image_filter_chain(f, n, k ? codes : src, to));
                amp__filter_force_gpu_paths(false);
                size_t na, nb;
                float *va = read_values(a, &na), *vb = read_values(to, &nb);
                bool exact = i < exact_chains;
                double worst = 0;
                size_t differ = 0;
                for (size_t m = 0; va && vb && m < na && na == nb; m++) {
                    worst = fmax(worst, fabs(va[m] - vb[m]) * 255);
                    differ += va[m] != vb[m];
                }
                /* the bilaterals' weights are the same numbers both ways, so a level apart
                   only where a result lies within the exps' rounding of a half: rarely */
                bool rare = strncmp(chains[i], "bilateral", 9) != 0 || differ <= na / 10000;
                if (!va || !vb || na != nb || worst > (exact ? 0 : 1.001) || !rare) {
                    fprintf(stderr, "packed %s (%d components%s): differs from the image paths by %g levels, on %zu values\n",
                            chains[i], comps, k ? ", source with uint views" : "", worst, differ);
                    test_failures++;
                }
                test_checks++;
                free(va);
                free(vb);
            }
        }
        amp_texture_destroy(&codes);
        amp_texture_destroy(&codes_same);
        amp_texture_destroy(&codes_gray);
        amp_texture_destroy(&src);
        for (int k = 0; k < 2; k++) {
            amp_texture_destroy(&same[k]);
            amp_texture_destroy(&gray[k]);
        }
    }
}

/* packed.comp's pointwise passes (CPU devices) store two quads an invocation, as one store:
 * rows of an odd count of quads (the last pair's second quad lands in the row's padding, or
 * in the buffer's pad quad where the result is copied; 1034 wide: its last quad of two
 * texels too) and of an even count, from RGBA (and RGB, where the device keeps it as RGBA)
 * into the same, gray and alpha, and gray, the copy, shapes,
 * tables and a program computed: the image paths' bytes (forced; within a level where a
 * program is computed in floats), and the same in place as copied. */
static void packed_pairs(void)
{
    if (!amp__filter_force_gpu_paths || !emulated()) return;
    static const char *const chains[] = {"copy", "invert", "gamma:gamma=2.2", "sepia", "grayscale",
                                         "grayscale threshold:threshold=0.4", "tonemap:curve=aces"};
    static const int widths[] = {1034, 1028, 1032}; /* 259 quads a row, 257, 258 */
    int h = 515;
    for (int wi = 0; wi < 4; wi++) {
        int w = widths[wi % 3], comps = wi < 3 ? 4 : 3;
        amp_texture *src = sample_u8(comps, w, h);
        for (size_t i = 0; i < sizeof chains / sizeof *chains; i++) {
            bool gray = strstr(chains[i], "grayscale") != NULL;
            for (int out = gray ? 1 : comps; out <= (gray ? comps - 2 : comps); out++) {
                amp_image_filter f[2];
                int n = parse_chain(chains[i], f, 2);
                amp_texture *a = make_texture("u8", out, amp_extent2(h, w), NULL),
                            *b = make_texture("u8", out, amp_extent2(h, w), NULL);
                REQUIRE_OK(amp_image_filter_chain(f, n, src, a));
                amp__filter_force_gpu_paths(true);
                REQUIRE_OK(amp_image_filter_chain(f, n, src, b));
                amp__filter_force_gpu_paths(false);
                size_t na, nb, differ = 0;
                float *va = read_values(a, &na), *vb = read_values(b, &nb);
                double worst = 0, allowed = strncmp(chains[i], "gamma", 5) == 0 || strncmp(chains[i], "sepia", 5) == 0 ||
                                                    strncmp(chains[i], "tonemap", 7) == 0 ? 1.001 : 0;
                for (size_t k = 0; va && vb && k < na && na == nb; k++) {
                    worst = fmax(worst, fabs(va[k] - vb[k]) * 255);
                    differ += va[k] != vb[k];
                }
                if (!va || !vb || na != nb || na != (size_t)w * h * out || worst > allowed) {
                    fprintf(stderr, "packed pairs %s, %d wide into %d components: differs from the image paths by %g "
                            "levels, on %zu values\n", chains[i], w, out, worst, differ);
                    test_failures++;
                }
                test_checks++;
                free(va);
                free(vb);
                if (comps == 4 && amp__force_optimal_textures) packed_in_place_or_copied(chains[i], f, n, src, a, 4);
                amp_texture_destroy(&a);
                amp_texture_destroy(&b);
            }
        }
        amp_texture_destroy(&src);
    }
}

/* cv2.equalizeHist on the host, of codes 0 .. levels (255 for 8 bits, OpenCV's; 65535 for
 * 16, its table made the same way): codes into their mapped codes (OpenCV's table, its
 * float scale rounded to even by lrintf). */
static void host_equalize(const uint16_t *code, size_t n, int levels, uint16_t *out)
{
    size_t *count = calloc((size_t)levels + 1, sizeof *count);
    uint16_t *lut = calloc((size_t)levels + 1, sizeof *lut);
    REQUIRE(count && lut);
    for (size_t k = 0; k < n; k++) count[code[k]]++;
    int i = 0;
    while (!count[i]) i++;
    float scale = count[i] == n ? 0.0f : (float)levels / (float)(n - count[i]);
    size_t sum = 0;
    for (int j = 0; j <= levels; j++) {
        if (j > i) sum += count[j];
        lut[j] = (uint16_t)(count[i] == n ? i : j <= i ? 0 : fminf(lrintf((float)sum * scale), (float)levels));
    }
    for (size_t k = 0; k < n; k++) out[k] = lut[code[k]];
    free(count);
    free(lut);
}

/* Equalize against the host's table: 16-bit gray (equalize.comp's table made in a pass of
 * its own) on noise over part of the codes and on a single code, and 8-bit gray whose
 * codes after the first number 510, so that OpenCV's scale is 1/2 and every odd cumulative
 * count a tie, rounded to even. */
static void equalize_against_host(void)
{
    int w = 301, h = 203;
    size_t n = (size_t)w * h;
    float *v = malloc(n * sizeof *v);
    uint16_t *codes = malloc(n * sizeof *codes), *want = malloc(n * sizeof *want);
    REQUIRE(v && codes && want);
    for (int content = 0; content < 3; content++) {
        int levels = content < 2 ? 65535 : 255;
        test_rng_state = 11;
        for (size_t k = 0; k < n; k++) {
            codes[k] = content == 0 ? (uint16_t)(1000 + test_rand() % 50000)
                     : content == 1 ? 31000 : (uint16_t)(k < n - 510 ? 3 : 4 + test_rand() % 250);
            v[k] = codes[k] / (float)levels;
        }
        host_equalize(codes, n, levels, want);
        const char *type = levels == 255 ? "u8" : "u16";
        amp_texture *src = make_texture(type, 1, amp_extent2(h, w), v), *dst = make_texture(type, 1, amp_extent2(h, w), NULL);
        amp_image_filter eq = {.op = AMP_IMAGE_EQUALIZE};
        REQUIRE_OK(amp_image_filter_apply(&eq, src, dst));
        size_t nd, wrong = 0;
        float *out = read_values(dst, &nd);
        REQUIRE(out && nd == n);
        for (size_t k = 0; k < n; k++) wrong += lrintf(out[k] * (float)levels) != want[k];
        REQUIRE_INT((int)wrong, 0);
        free(out);
        amp_texture_destroy(&src);
        amp_texture_destroy(&dst);
    }
    free(v);
    free(codes);
    free(want);
}

/* packed.comp's equalize (CPU devices: 8-bit gray of 512 x 512 pixels or more, and from 64 x
 * 64 once earned): the same bytes as the host's equalizeHist and as equalize.comp (the GPUs'
 * path, forced), with a fused invert, at a width that ends inside a quad of 16 codes and a
 * multiple of it, on noise over part of the codes, a gradient, and a single code; read and
 * written in place and through copies; and on small images (taking packed.comp at once),
 * of fewer rows than its counting invocations, and of one row. */
static void packed_equalize(void)
{
    if (!amp__filter_force_gpu_paths) return;
    static const int sizes[4][2] = {{1027, 1021}, {1024, 1030}, {67, 70}, {4100, 1}};
    for (int s = 0; s < (amp__filter_tier_now ? 4 : 2); s++) {
        int w = sizes[s][0], h = sizes[s][1];
        if (s >= 2) amp__filter_tier_now(true);
        size_t n = (size_t)w * h;
        float *v = malloc(n * sizeof *v);
        uint16_t *codes = malloc(n * sizeof *codes), *want = malloc(n * sizeof *want);
        REQUIRE(v && codes && want);
        for (int content = 0; content < 3; content++) {
            test_rng_state = 7;
            for (size_t k = 0; k < n; k++) {
                codes[k] = content == 0 ? (uint16_t)(40 + test_rand() % 150)
                         : content == 1 ? (uint16_t)((k % (size_t)w) * 255 / (size_t)w) : 77;
                v[k] = codes[k] / 255.0f;
            }
            host_equalize(codes, n, 255, want);
            amp_texture *src = make_texture("u8", 1, amp_extent2(h, w), v), *a = make_texture("u8", 1, amp_extent2(h, w), NULL),
                        *b = make_texture("u8", 1, amp_extent2(h, w), NULL);
            for (int invert = 0; invert < 2; invert++) {
                amp_image_filter f[2] = {{.op = AMP_IMAGE_EQUALIZE}, {.op = AMP_IMAGE_INVERT}};
                REQUIRE_OK(amp_image_filter_chain(f, 1 + invert, src, a));
                amp__filter_force_gpu_paths(true);
                REQUIRE_OK(amp_image_filter_chain(f, 1 + invert, src, b));
                amp__filter_force_gpu_paths(false);
                size_t na;
                float *va = read_values(a, &na);
                size_t host = 0;
                for (size_t k = 0; va && na == n && k < n; k++)
                    host += lrintf(va[k] * 255.0f) != (invert ? 255 - want[k] : want[k]);
                if (!va || na != n || host || !same_texels(a, b)) {
                    fprintf(stderr, "packed equalize%s (%d x %d, content %d): %zu codes differ from the host's, "
                            "%s equalize.comp's\n", invert ? " invert" : "", w, h, content, host,
                            same_texels(a, b) ? "the same as" : "not the same as");
                    test_failures++;
                }
                test_checks++;
                free(va);
            }
            if (content == 0 && amp__force_optimal_textures) { /* (on sample_u8's noise, as that takes it) */
                amp_image_filter eq = {.op = AMP_IMAGE_EQUALIZE};
                amp_texture *noise = sample_u8(1, w, h), *expect = make_texture("u8", 1, amp_extent2(h, w), NULL);
                REQUIRE_OK(amp_image_filter_apply(&eq, noise, expect));
                packed_in_place_or_copied("equalize", &eq, 1, noise, expect, 1);
                amp_texture_destroy(&noise);
                amp_texture_destroy(&expect);
            }
            amp_texture_destroy(&src);
            amp_texture_destroy(&a);
            amp_texture_destroy(&b);
        }
        if (s >= 2) amp__filter_tier_now(false);
        free(v);
        free(codes);
        free(want);
    }
}

/* packed.comp's resizes by a whole factor (CPU devices, megapixel 8-bit RGBA sources):
 * the means of k x k blocks for INTER_AREA and INTER_LINEAR's halving, and INTER_NEAREST's
 * every k-th texel of every k-th row, the same bytes as
 * resize.comp's (the GPUs' path, forced; itself held to OpenCV on the small cases), a
 * result width that ends inside a quad and a fused pointwise op included, read and
 * written in place or through copies alike. */
static void packed_resizes(void)
{
    if (!amp__filter_force_gpu_paths) return;
    static const struct { int w, h, k; const char *interpolation, *then; } cases[] = {
        {2060, 1030, 2, "linear", NULL}, {2060, 1030, 2, "area", "invert"}, {1545, 1032, 3, "area", NULL},
        {2048, 1024, 4, "area", NULL}, {2060, 1030, 2, "nearest", NULL}, {1545, 1032, 3, "nearest", "invert"},
        {2040, 1040, 8, "nearest", "threshold:threshold=0.4"}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int ow = cases[c].w / cases[c].k, oh = cases[c].h / cases[c].k;
        char spec[96];
        snprintf(spec, sizeof spec, "resize:width=%d,height=%d,interpolation=%s", ow, oh, cases[c].interpolation);
        amp_image_filter f[2];
        int n = 0;
        REQUIRE_OK(amp_image_filter_parse(spec, &f[n++]));
        if (cases[c].then) REQUIRE_OK(amp_image_filter_parse(cases[c].then, &f[n++]));
        amp_texture *src = sample_u8(4, cases[c].w, cases[c].h);
        amp_texture *a = make_texture("u8", 4, amp_extent2(oh, ow), NULL), *b = make_texture("u8", 4, amp_extent2(oh, ow), NULL);
        uint64_t before = dispatches();
        REQUIRE_OK(amp_image_filter_chain(f, n, src, a));
        /* and on a CPU device (packed.comp) the fused op's table */
        REQUIRE_INT(dispatches() - before, cases[c].then && emulated() ? 2 : 1);
        amp__filter_force_gpu_paths(true);
        REQUIRE_OK(amp_image_filter_chain(f, n, src, b));
        amp__filter_force_gpu_paths(false);
        if (!same_texels(a, b)) {
            fprintf(stderr, "packed %s: differs from resize.comp's\n", spec);
            test_failures++;
        }
        test_checks++;
        if (amp__force_optimal_textures) packed_in_place_or_copied(spec, f, n, src, a, 4);
        amp_texture_destroy(&src);
        amp_texture_destroy(&a);
        amp_texture_destroy(&b);
    }
}

/* A chain equals its filters run one by one through 8-bit textures, and a run of
 * pointwise filters after a neighborhood filter adds no dispatch. */
/* The shaders that loop over their grid's rows (conv_subgroup.comp's modules and
 * median.comp's, forced here) dispatched with one and with two rows of work groups give
 * the texels of the whole grid, so that their loops' later rounds cover the image as the
 * grid's rows do (plan.c's grids have a row for every strip: a loop runs once there); and
 * conv_mma.comp (GPUs with cooperative matrices: sigma 5, box 12) with one, two and seven
 * work groups, whose shares of the 38 row blocks (2 strips of 19) are the whole image, a
 * strip each, and 6 or 5 blocks, which start inside a strip and go on into the next. */
static void grid_strides(bool every)
{
    if (!amp__filter_grid_rows || !amp__filter_force_gpu_paths) return;
    static const struct {
        const char *spec, *type;
        int caps;  /* the grids to try: 1 and 2 rows of groups, or 1, 2 and 7 groups (conv_mma.comp) */
        bool once; /* the first case of its module: the others only in the long run */
    } cases[] = {{"gaussian:radius=2", "u8", 2, true},       {"box:radius=1", "u8", 2, false},
                 {"sharpen:amount=1,sigma=1", "u8", 2, true}, {"gaussian:sigma=1", "u8", 2, false},
                 {"erode:radius=1", "u8", 2, true},           {"dilate:radius=2", "u8", 2, false},
                 {"median:radius=1", "u8", 2, true},          {"sobel", "u8", 2, true},
                 {"gaussian:radius=2", "u16", 2, false},      {"median:radius=2", "u8", 2, false},
                 {"median:radius=2", "u16", 2, true},         {"median:radius=3", "u8", 2, false},
                 {"gaussian:sigma=5", "u8", 3, true},         {"box:radius=12", "u8", 3, false}};
    amp__filter_force_gpu_paths(true);
    if (amp__force_shader_image_copy) amp__force_shader_image_copy(true);
    /* tall: three rows of work groups or more (lavapipe's subgroups of 8: 128 rows a group) */
    amp_extent e = amp_extent2(300, 45);
    float *v = malloc(300 * 45 * 4 * sizeof *v);
    test_rng_state = 7;
    for (int i = 0; i < 300 * 45 * 4; i++) v[i] = (float)(test_rand() % 256) / 255.0f;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        if (!every && !cases[c].once) continue;
        amp_image_filter f;
        REQUIRE_OK(amp_image_filter_parse(cases[c].spec, &f));
        amp_texture *src = make_texture(cases[c].type, 4, e, v), *whole = make_texture(cases[c].type, 4, e, NULL);
        amp__filter_grid_rows(0);
        REQUIRE_OK(amp_image_filter_apply(&f, src, whole));
        static const int caps[] = {1, 2, 7};
        for (int k = 0; k < cases[c].caps; k++) {
            int rows = caps[k];
            /* (made holding the source: a strip no round writes keeps its texels) */
            amp_texture *part = make_texture(cases[c].type, 4, e, v);
            amp__filter_grid_rows(rows);
            REQUIRE_OK(amp_image_filter_apply(&f, src, part));
            if (!same_texels(whole, part)) {
                fprintf(stderr, "%s (%s): %d rows of work groups differ from the whole grid\n", cases[c].spec,
                        cases[c].type, rows);
                test_failures++;
            }
            test_checks++;
            amp_texture_destroy(&part);
        }
        amp_texture_destroy(&whole);
        amp_texture_destroy(&src);
    }
    free(v);
    amp__filter_grid_rows(0);
    amp__filter_force_gpu_paths(false);
    if (amp__force_shader_image_copy) amp__force_shader_image_copy(false);
}

static void chains(void)
{
    static const char *const chain_specs[][5] = {
        {"gaussian:radius=2", "invert", "gamma:gamma=1.7", "threshold:threshold=0.4", NULL},
        {"gaussian:radius=9", "sepia", "grayscale", "median:radius=1", NULL},
        {"grayscale", "brightness_contrast:contrast=1.3,brightness=-0.07", "resize:width=23,height=17", "sobel", NULL},
        {"srgb_to_linear", "resize:width=50,height=30,interpolation=cubic", "linear_to_srgb", "invert", NULL},
        /* the GPUs' walks of codes (forced below) with a program on their codes: a table
           after a gray, gray alone, tables into RGBA, after the sums, sobel, sharpen,
           OpenCV's fixed gaussian, erode and the 3 x 3 median */
        {"gaussian:radius=2", "grayscale", "invert", NULL},
        {"box:radius=1", "grayscale", NULL},
        {"box:radius=2", "invert", "gamma:gamma=1.7", NULL},
        {"sobel", "grayscale", "threshold:threshold=0.3", NULL},
        {"sharpen:amount=1,sigma=1", "threshold:threshold=0.4,type=binary_inv", NULL},
        {"gaussian:sigma=1", "brightness_contrast:contrast=1.3,brightness=-0.07", NULL},
        {"erode:radius=1", "invert", NULL},
        {"median:radius=1", "grayscale", "srgb_to_linear", NULL},
    };
    size_t count = sizeof chain_specs / sizeof *chain_specs;
    for (size_t c = 0; c < count + (amp__filter_force_gpu_paths ? count : 0); c++) {
        /* the GPUs' paths, between textures with uint views (which their walks of codes take) */
        if (amp__filter_force_gpu_paths) amp__filter_force_gpu_paths(c >= count);
        if (amp__force_shader_image_copy) amp__force_shader_image_copy(c >= count);
        amp_image_filter f[4];
        int n = 0;
        for (; n < 4 && chain_specs[c % count][n]; n++) REQUIRE_OK(amp_image_filter_parse(chain_specs[c % count][n], &f[n]));
        amp_texture *src = sample_u8(4, 37, 29);
        amp_extent out;
        REQUIRE_OK(amp_image_filter_output_extent(f, n, amp_texture_extent(src), &out));
        int comps = amp_image_filter_output_components(f, n, 4);
        amp_texture *fused = make_texture("u8", comps, out, NULL);
        REQUIRE_OK(amp_image_filter_chain(f, n, src, fused));
        /* one by one */
        amp_texture *cur = src;
        int cur_comps = 4;
        for (int i = 0; i < n; i++) {
            amp_extent e;
            amp_image_filter_output_extent(&f[i], 1, amp_texture_extent(cur), &e);
            cur_comps = amp_image_filter_output_components(&f[i], 1, cur_comps);
            amp_texture *next = make_texture("u8", cur_comps, e, NULL);
            REQUIRE_OK(amp_image_filter_apply(&f[i], cur, next));
            if (cur != src) amp_texture_destroy(&cur);
            cur = next;
        }
        if (!same_texels(fused, cur)) {
            fprintf(stderr, "chain %zu%s: fused and one-by-one results differ\n", c % count, c >= count ? " (GPU paths)" : "");
            test_failures++;
        }
        test_checks++;
        amp_texture_destroy(&cur);
        amp_texture_destroy(&fused);
        amp_texture_destroy(&src);
    }
    if (amp__filter_force_gpu_paths) amp__filter_force_gpu_paths(false);
    if (amp__force_shader_image_copy) amp__force_shader_image_copy(false);
    /* dispatch counts: a pointwise run is one pass; one fused into a gaussian adds none
       (40 x 30: no packed.comp, whose sums take two) */
    amp_texture *src = sample_u8(4, 40, 30), *dst = make_texture("u8", 4, amp_extent2(30, 40), NULL);
    amp_image_filter pw[3] = {{.op = AMP_IMAGE_INVERT}, {.op = AMP_IMAGE_SEPIA}, {.op = AMP_IMAGE_GAMMA}};
    uint64_t before = dispatches();
    REQUIRE_OK(amp_image_filter_chain(pw, 3, src, dst));
    REQUIRE_INT(dispatches() - before, 1);
    amp_image_filter g[3] = {{.op = AMP_IMAGE_GAUSSIAN, .radius = 2}, {.op = AMP_IMAGE_INVERT},
                             {.op = AMP_IMAGE_THRESHOLD, .threshold = 0.5f}};
    before = dispatches();
    REQUIRE_OK(amp_image_filter_chain(g, 3, src, dst));
    REQUIRE_INT(dispatches() - before, 1);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
}

/* ---- bad requests ---- */

static void errors(void)
{
    amp_image_filter f;
    REQUIRE_FAIL(amp_image_filter_parse("blur", &f), AMP_ERROR_INVALID_ARGUMENT, "\"blur\" is not a filter");
    REQUIRE_FAIL(amp_image_filter_parse("gaussian:radius=x", &f), AMP_ERROR_INVALID_ARGUMENT, "radius=x");
    REQUIRE_FAIL(amp_image_filter_parse("resize:interpolation=bogus", &f), AMP_ERROR_INVALID_ARGUMENT,
                 "interpolation=bogus");
    REQUIRE_OK(amp_image_filter_parse("resize:width=10,interpolation=lanczos4,border=wrap", &f));
    REQUIRE(f.op == AMP_IMAGE_RESIZE && f.width == 10 && f.interpolation == AMP_INTERP_LANCZOS4 &&
            f.border == AMP_BORDER_WRAP);
    amp_image_filter chain[3];
    int count = 0;
    REQUIRE_OK(amp_image_filter_parse_chain("  gaussian:sigma=2\tsharpen:amount=0.5,border=constant,"
                                            "border_value=0.25 \n sobel:sobel=x,signed=1 ", chain, 3, &count));
    REQUIRE(count == 3 && chain[0].op == AMP_IMAGE_GAUSSIAN && chain[0].sigma == 2 &&
            chain[1].op == AMP_IMAGE_SHARPEN && chain[1].amount == 0.5f && chain[1].border == AMP_BORDER_CONSTANT &&
            chain[1].border_value[3] == 0.25f && chain[2].sobel == AMP_SOBEL_X && chain[2].signed_output);
    REQUIRE_FAIL(amp_image_filter_parse_chain("invert invert invert invert", chain, 3, &count),
                 AMP_ERROR_INVALID_ARGUMENT, "more than 3 filters");
    REQUIRE_FAIL(amp_image_filter_parse_chain(" ", chain, 3, &count), AMP_ERROR_INVALID_ARGUMENT, "no filter");
    REQUIRE_FAIL(amp_image_filter_parse_chain("invert blur", chain, 3, &count), AMP_ERROR_INVALID_ARGUMENT,
                 "\"blur\" is not a filter");
    REQUIRE(count == 3 && chain[0].op == AMP_IMAGE_GAUSSIAN && chain[2].op == AMP_IMAGE_SOBEL); /* unchanged */
    char syntax[256];
    int len = amp_image_filter_describe(AMP_IMAGE_GAUSSIAN, syntax, sizeof syntax);
    REQUIRE(strcmp(syntax, "gaussian:radius=INT,sigma=FLOAT,border=default|reflect_101|replicate|reflect|wrap|"
                           "constant,border_value=V[/V/V/V]") == 0 && len == (int)strlen(syntax));
    REQUIRE(amp_image_filter_describe(AMP_IMAGE_SOBEL, NULL, 0) > 0);
    REQUIRE(amp_image_filter_describe(AMP_IMAGE_INVERT, syntax, 4) == 6 && strcmp(syntax, "inv") == 0);
    REQUIRE(amp_image_filter_describe(AMP_IMAGE_OP_COUNT, syntax, sizeof syntax) == -1);

    amp_texture *rgb = sample_u8(3, 20, 10), *dst = sample_u8(3, 20, 10), *gray = sample_u8(1, 20, 10);
    size_t n0;
    float *before = read_values(dst, &n0);
    amp_image_filter median8 = {.op = AMP_IMAGE_MEDIAN, .radius = 8};
    REQUIRE_FAIL(amp_image_filter_apply(&median8, rgb, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "filter 0 (median): radius 8 is out of range (0 to 7)");
    amp_image_filter eq = {.op = AMP_IMAGE_EQUALIZE};
    REQUIRE_FAIL(amp_image_filter_apply(&eq, rgb, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "filter 0 (equalize): its input is unorm_3 with 3 components");
    amp_image_filter copy = {.op = AMP_IMAGE_COPY};
    REQUIRE_FAIL(amp_image_filter_apply(&copy, rgb, rgb), AMP_ERROR_INVALID_ARGUMENT, "one texture");
    REQUIRE_FAIL(amp_image_filter_apply(&copy, gray, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "the source has 1 components and the destination 3");
    amp_texture *small = sample_u8(3, 19, 10);
    REQUIRE_FAIL(amp_image_filter_apply(&copy, rgb, small), AMP_ERROR_INVALID_ARGUMENT,
                 "the chain makes 20 x 10 (width x height) but the destination is 19 x 10");
    amp_image_filter resize_mid[2] = {{.op = AMP_IMAGE_RESIZE}, {.op = AMP_IMAGE_INVERT}};
    REQUIRE_FAIL(amp_image_filter_chain(resize_mid, 2, rgb, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "filter 0 (resize): a resize before the last filter needs its width or height");
    amp_image_filter huge = {.op = AMP_IMAGE_RESIZE, .width = 1 << 20, .height = 4};
    amp_image_filter huge_chain[2] = {huge, {.op = AMP_IMAGE_RESIZE, .width = 20, .height = 10}};
    REQUIRE_FAIL(amp_image_filter_chain(huge_chain, 2, rgb, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "1048576 x 4 exceeds the device's largest 2-D image");
    amp_image_filter sob = {.op = AMP_IMAGE_SOBEL, .sobel = AMP_SOBEL_X, .signed_output = true};
    REQUIRE_FAIL(amp_image_filter_apply(&sob, rgb, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "filter 0 (sobel): signed_output needs a float destination, not unorm 8-bit");
    amp_image_filter bad_op = {.op = (amp_image_op)99};
    REQUIRE_FAIL(amp_image_filter_apply(&bad_op, rgb, dst), AMP_ERROR_INVALID_ARGUMENT, "op 99 is not a filter");
    amp_image_filter nan_sigma = {.op = AMP_IMAGE_GAUSSIAN, .sigma = NAN};
    REQUIRE_FAIL(amp_image_filter_apply(&nan_sigma, rgb, dst), AMP_ERROR_INVALID_ARGUMENT, "NaN or infinite");
    amp_texture_desc id = {.extent = amp_extent2(10, 20), .type = AMP_INT_3};
    amp_texture *ints = amp_texture_create(view, &id);
    REQUIRE_FAIL(amp_image_filter_apply(&copy, ints, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "the source is int_3 of 32 bits; filters take unorm (8, 16 bits) and float (16, 32 bits)");
    amp_texture_desc d3 = {.extent = amp_extent3(2, 10, 20), .type = AMP_UNORM_3, .bits_per_scalar_element = 8};
    amp_texture *vol = amp_texture_create(view, &d3);
    REQUIRE_FAIL(amp_image_filter_apply(&copy, vol, dst), AMP_ERROR_INVALID_ARGUMENT,
                 "the source is a 3-D texture");
    REQUIRE_FAIL(amp_image_filter_chain(&copy, 0, rgb, dst), AMP_ERROR_INVALID_ARGUMENT, "a chain holds 1 to 64");
    /* nothing above touched the destination */
    size_t n1;
    float *after = read_values(dst, &n1);
    REQUIRE(before && after && n0 == n1 && memcmp(before, after, n0 * sizeof *before) == 0);
    free(before);
    free(after);
    amp_texture_destroy(&vol);
    amp_texture_destroy(&ints);
    amp_texture_destroy(&small);
    amp_texture_destroy(&rgb);
    amp_texture_destroy(&dst);
    amp_texture_destroy(&gray);
}

/* The source coordinate v of an axis of length L through a border (false: outside,
 * for the constant border). */
static bool border_coord(int b, int L, int *v)
{
    int c = *v;
    if (c >= 0 && c < L) return true;
    if (b == AMP_BORDER_REPLICATE) c = c < 0 ? 0 : L - 1;
    else if (b == AMP_BORDER_WRAP) c = ((c % L) + L) % L;
    else if (b == AMP_BORDER_REFLECT) {
        int p = 2 * L;
        c = ((c % p) + p) % p;
        c = c < L ? c : p - 1 - c;
    } else if (b == AMP_BORDER_REFLECT_101) {
        int p = 2 * L - 2;
        c = ((c % p) + p) % p;
        c = c < L ? c : p - c;
    } else return false;
    *v = c;
    return true;
}

/* The 5 x 5 median of an RGBA8 image of half a megapixel (packed.comp's MODE 11 on CPU
 * devices: the tile of 4 x 2 windows a channel at a time, its edge quads' pass, a width
 * that ends inside a quad and an odd height, the last round's second row past it) against
 * the host's, for every border (the constant one a code, 0.2): the same codes. */
static void median5_against_host(void)
{
    int w = 1030, h = 511;
    amp_texture *src = sample_u8(4, w, h), *dst = make_texture("u8", 4, amp_extent2(h, w), NULL);
    size_t n, m;
    float *in = read_values(src, &n);
    unsigned char *pad = malloc((size_t)(w + 4) * (h + 4) * 4);
    REQUIRE(in && pad && n == (size_t)w * h * 4);
    for (int b = AMP_BORDER_REFLECT_101; in && pad && b <= AMP_BORDER_CONSTANT; b++) {
        amp_image_filter f = {.op = AMP_IMAGE_MEDIAN, .radius = 2, .border = (amp_border)b,
                              .border_value = {0.2f, 0.2f, 0.2f, 0.2f}};
        REQUIRE_OK(amp_image_filter_apply(&f, src, dst));
        float *got = read_values(dst, &m);
        REQUIRE(got && m == n);
        /* the codes with a border of 2 (51: the constant 0.2), then each row's windows by
           Huang's running histogram: m the median, lt the count of codes below it */
        int pw = w + 4;
        for (int y = 0; y < h + 4; y++)
            for (int x = 0; x < pw; x++)
                for (int c = 0; c < 4; c++) {
                    int xs = x - 2, ys = y - 2;
                    bool inside = border_coord(b, w, &xs) & border_coord(b, h, &ys);
                    pad[((size_t)y * pw + x) * 4 + c] = (unsigned char)(inside ? lrintf(in[((size_t)ys * w + xs) * 4 + c] * 255.0f) : 51);
                }
        size_t wrong = 0, first = 0;
        for (int y = 0; got && y < h; y++)
            for (int c = 0; c < 4; c++) {
                int hist[256] = {0}, m = 0, lt = 0;
                for (int j = 0; j < 5; j++)
                    for (int i = 0; i < 5; i++) hist[pad[((size_t)(y + j) * pw + i) * 4 + c]]++;
                for (int x = 0; x < w; x++) {
                    if (x > 0)
                        for (int j = 0; j < 5; j++) {
                            int out = pad[((size_t)(y + j) * pw + x - 1) * 4 + c], into = pad[((size_t)(y + j) * pw + x + 4) * 4 + c];
                            hist[out]--;
                            hist[into]++;
                            lt += (into < m) - (out < m);
                        }
                    while (lt > 12) lt -= hist[--m];
                    while (lt + hist[m] <= 12) lt += hist[m++];
                    size_t at = ((size_t)y * w + x) * 4 + c;
                    if ((int)lrintf(got[at] * 255.0f) != m && !wrong++) first = at;
                }
            }
        if (wrong)
            fprintf(stderr, "median 5 x 5, border %d, %d x %d RGBA8: %zu codes differ from the host's, the first at (%zu, %zu) channel %zu\n",
                    b, w, h, wrong, first / 4 % (size_t)w, first / 4 / (size_t)w, first % 4);
        test_failures += wrong != 0;
        test_checks++;
        free(got);
    }
    free(pad);
    free(in);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
}

/* A separable filter of a w x h 8-bit image of `comps` components into a texture of
 * type dst ("f32" or "u8") against the host's loop over the same border rule (constant
 * borders read 0.5), for every border: box (uniform weights), gaussian (sigma's
 * weights), sharpen (amount 1: twice the texel less its gaussian), erode, dilate. Into
 * floats the results agree to 1e-5; into 8 bits to 0.75 of a level (the rounding's
 * half level and a quarter for 16-bit floats on the way: the GPUs' sums keep their rows
 * in them), but boxes up to radius 4, integer sums, to the code exactly (the constant
 * border's 0.5 is no code: to 0.75 there too). Any radius, even past the image's size
 * (borders are periodic): on small images, 20 (two passes, weights in the parameter block) and 70
 * (weights in the scratch buffer); an image of a megapixel or more and a radius up to 4
 * take conv_block.comp on CPU devices, edges and partial blocks included; radii 9 to 16
 * of 8 bits into 8 bits take conv_mma.comp on GPUs with cooperative matrices (strips of
 * 32 columns, walks of 512 rows: partial ones at the right and bottom edges). */
/* The host's reference for OpenCV 4.6's GaussianBlur of 8-bit images (sigma > 0, radius
 * < 70): its kernel (exp(-x^2 / 2 sigma^2) over the sum) quantized to 256ths from the
 * outermost weight in, each rounded to the nearest (even) with its error carried to the
 * next, the center what is left: k[0..radius], k[0] the center. */
static void opencv_fixed_kernel(int radius, double sigma, int *k)
{
    double e[70], sum = 0, carry = 0;
    for (int x = radius; x >= 1; x--) sum += e[x] = exp(-(double)x * x / (2 * sigma * sigma));
    int rest = 256;
    for (int x = radius; x >= 1; x--) {
        double q = e[x] * (1 / (2 * sum + 1)) * 256 + carry;
        k[x] = (int)nearbyint(q);
        carry = q - k[x];
        rest -= 2 * k[x];
    }
    k[0] = rest;
}

static void conv_check(amp_image_op op, int radius, float sigma, int w, int h, int comps, const char *dst_type)
{
    amp_texture *src = sample_u8(comps, w, h), *dst = make_texture(dst_type, comps, amp_extent2(h, w), NULL);
    bool u8 = strcmp(dst_type, "u8") == 0;
    size_t n;
    float *in = read_values(src, &n);
    double wt[2 * 70 + 1], total = 0, tolerance = u8 ? 0.75 / 255 : 1e-5;
    for (int k = -radius; k <= radius; k++)
        total += wt[k + radius] = op == AMP_IMAGE_GAUSSIAN || op == AMP_IMAGE_SHARPEN ? exp(-(double)k * k / (2.0 * sigma * sigma)) : 1;
    for (int k = 0; k <= 2 * radius; k++) wt[k] /= total;
    int rows = h + 2 * radius;
    double *hrow = malloc((size_t)rows * w * sizeof *hrow);
    long *hcodes = malloc((size_t)rows * w * sizeof *hcodes), *hfixed = malloc((size_t)rows * w * sizeof *hfixed);
    REQUIRE(hrow && hcodes && hfixed);
    for (int b = AMP_BORDER_REFLECT_101; b <= AMP_BORDER_CONSTANT; b++) {
        amp_image_filter f = {.op = op, .radius = radius, .sigma = sigma, .border = (amp_border)b,
                              .border_value = {0.5f, 0.5f, 0.5f, 0.5f}};
        REQUIRE_OK(amp_image_filter_apply(&f, src, dst));
        float *got = read_values(dst, &n);
        double worst = 0;
        int at = 0;
        /* a box of 8 bits into 8 bits but at the constant border (0.5 is no code): an
           integer sum, the nearest code to the sum of codes over T, halves up, exactly; a
           gaussian of 8 bits into 8 bits but there: OpenCV's fixed point, the codes
           weighted by its integer kernel (W_k / 256) in both directions, n, to
           (n + 2^15) >> 16, exactly */
        bool integer = op == AMP_IMAGE_BOX && integer_case(&f, "u8", dst_type);
        bool fixed = op == AMP_IMAGE_GAUSSIAN && u8 && b != AMP_BORDER_CONSTANT;
        int fw[70];
        if (fixed) opencv_fixed_kernel(radius, sigma, fw);
        long t = (2L * radius + 1) * (2L * radius + 1);
        /* the rows' sums first (rows -radius .. h + radius - 1: the border's too), then
           the columns': the same sums in the same order as the window's */
        for (int c = 0; hrow && hcodes && hfixed && c < comps; c++) {
            for (int r = 0; r < rows; r++)
                for (int x = 0; x < w; x++) {
                    double row = op == AMP_IMAGE_ERODE ? 2 : op == AMP_IMAGE_DILATE ? -1 : 0;
                    long codes_row = 0, fixed_row = 0;
                    for (int i = -radius; i <= radius; i++) {
                        int xs = x + i, ys = r - radius;
                        bool ok = border_coord(b, w, &xs) & border_coord(b, h, &ys);
                        double v = ok ? in[((size_t)ys * w + xs) * comps + c] : 0.5;
                        codes_row += lround(v * 255);
                        if (fixed) fixed_row += fw[abs(i)] * lround(v * 255);
                        row = op == AMP_IMAGE_ERODE ? fmin(row, v) : op == AMP_IMAGE_DILATE ? fmax(row, v)
                                                                                            : row + wt[i + radius] * v;
                    }
                    hrow[(size_t)r * w + x] = row;
                    hcodes[(size_t)r * w + x] = codes_row;
                    hfixed[(size_t)r * w + x] = fixed_row;
                }
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    double acc = op == AMP_IMAGE_ERODE ? 2 : op == AMP_IMAGE_DILATE ? -1 : 0;
                    long codes = 0, fixed_sum = 0;
                    for (int j = -radius; j <= radius; j++) {
                        size_t at_row = (size_t)(y + j + radius) * w + x;
                        double row = hrow[at_row];
                        codes += hcodes[at_row];
                        acc = op == AMP_IMAGE_ERODE ? fmin(acc, row) : op == AMP_IMAGE_DILATE ? fmax(acc, row)
                                                                                            : acc + wt[j + radius] * row;
                        if (fixed) fixed_sum += fw[abs(j)] * hfixed[at_row];
                    }
                    if (op == AMP_IMAGE_SHARPEN) { /* amount 1: twice the texel less its blur */
                        acc = 2 * in[((size_t)y * w + x) * comps + c] - acc;
                        if (u8) acc = fmin(fmax(acc, 0), 1);
                    }
                    double d = fabs(acc - got[((size_t)y * w + x) * comps + c]);
                    if (integer) d = fabs((double)((2 * codes + t) / (2 * t)) / 255.0 - got[((size_t)y * w + x) * comps + c]);
                    if (fixed) d = fabs((double)((fixed_sum + 32768) >> 16) / 255.0 - got[((size_t)y * w + x) * comps + c]);
                    if (d > worst) {
                        worst = d;
                        at = y * w + x;
                    }
                }
        }
        if (!(worst <= (integer || fixed ? 1e-3 / 255 : tolerance))) {
            fprintf(stderr, "%s radius %d on %d x %d (%d components, into %s), border %d: differs from the host by %g at (%d, %d)\n",
                    amp_image_op_name(op), radius, w, h, comps, dst_type, b, worst, at % w, at / w);
            test_failures++;
        }
        test_checks++;
        free(got);
    }
    free(hrow);
    free(hcodes);
    free(hfixed);
    free(in);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
}

static void conv_against_host(amp_image_op op, int radius, float sigma, int w, int h)
{
    conv_check(op, radius, sigma, w, h, 1, "f32");
}

/* Equalize of a gray + alpha image: the gray channel exactly as equalize of the gray
 * channel alone (itself checked against OpenCV above), alpha unchanged. */
static void equalize_gray_alpha(void)
{
    int w = 37, h = 23;
    amp_texture *ga = sample_u8(2, w, h), *ga_out = sample_u8(2, w, h);
    size_t n;
    float *v = read_values(ga, &n), *gray = malloc((size_t)w * h * sizeof *gray);
    REQUIRE(v && gray && n == (size_t)w * h * 2);
    for (int i = 0; i < w * h; i++) gray[i] = v[2 * i];
    amp_texture *g = make_texture("u8", 1, amp_extent2(h, w), gray), *g_out = make_texture("u8", 1, amp_extent2(h, w), gray);
    amp_image_filter eq = {.op = AMP_IMAGE_EQUALIZE};
    REQUIRE_OK(amp_image_filter_apply(&eq, ga, ga_out));
    REQUIRE_OK(amp_image_filter_apply(&eq, g, g_out));
    size_t n2, n1;
    float *r2 = read_values(ga_out, &n2), *r1 = read_values(g_out, &n1);
    REQUIRE(r2 && r1 && n2 == n && n1 == (size_t)w * h);
    int wrong = 0;
    for (int i = 0; i < w * h; i++) wrong += r2[2 * i] != r1[i] || r2[2 * i + 1] != v[2 * i + 1];
    REQUIRE_INT(wrong, 0);
    REQUIRE(!same_texels(g, g_out)); /* it did equalize something */
    free(v);
    free(gray);
    free(r1);
    free(r2);
    amp_texture_destroy(&ga);
    amp_texture_destroy(&ga_out);
    amp_texture_destroy(&g);
    amp_texture_destroy(&g_out);
}

/* tonemap on float values against its formulas (no OpenCV counterpart): Reinhard
 * and the ACES fit after the exposure, negative values as 0, alpha kept; within
 * 2^-22 relative (a device's division and fma). */
static void tonemap(void)
{
    enum { W = 8 };
    const float in[W * 4] = {0, 0.25f, 1, 0.5f,  3, 10, 100, 0.25f,  -1, 0.001f, 1e4f, 1,  0.18f, 2, 6, 0,
                             0.5f, 0.5f, 0.5f, 0.75f,  7, 0, 1, 1,  1e-6f, 1e-3f, 1e-2f, 0.1f,  4, 4, 4, 0.5f};
    for (int curve = 0; curve < 2; curve++) {
        amp_texture *src = make_texture("f32", 4, amp_extent2(1, W), in), *dst = make_texture("f32", 4, amp_extent2(1, W), NULL);
        amp_image_filter f = {.op = AMP_IMAGE_TONEMAP, .curve = (amp_tonemap_curve)curve, .exposure = 1.5f};
        REQUIRE_OK(amp_image_filter_apply(&f, src, dst));
        size_t n = 0;
        float *out = read_values(dst, &n);
        REQUIRE(out && n == W * 4);
        int bad = 0;
        for (size_t i = 0; out && i < n; i++) {
            double v = i % 4 == 3 ? in[i] : fmax(in[i] * 1.5, 0), want = v;
            if (i % 4 != 3)
                want = curve == 0 ? v / (1 + v) : fmin(fmax(v * (2.51 * v + 0.03) / (v * (2.43 * v + 0.59) + 0.14), 0), 1);
            if (fabs(out[i] - want) > fabs(want) * 0x1p-22 + 1e-30) {
                if (bad++ < 4) fprintf(stderr, "tonemap curve %d: value %zu of %g is %.9g, want %.9g\n", curve, i, in[i], out[i], want);
            }
        }
        REQUIRE_INT(bad, 0);
        free(out);
        amp_texture_destroy(&src);
        amp_texture_destroy(&dst);
    }
    amp_image_filter f;
    REQUIRE_OK(amp_image_filter_parse("tonemap:curve=aces,exposure=2.5", &f));
    REQUIRE(f.op == AMP_IMAGE_TONEMAP && f.curve == AMP_TONEMAP_ACES && f.exposure == 2.5f);
    REQUIRE_FAIL(amp_image_filter_parse("tonemap:curve=hable", &f), AMP_ERROR_INVALID_ARGUMENT, "curve=hable");
    amp_texture *a = sample_u8(4, 8, 8), *b = sample_u8(4, 8, 8);
    REQUIRE_FAIL(amp_image_filter_apply(&(amp_image_filter){.op = AMP_IMAGE_TONEMAP, .exposure = -1}, a, b),
                 AMP_ERROR_INVALID_ARGUMENT, "filter 0 (tonemap): curve 0 (0 reinhard, 1 aces) and exposure -1");
    amp_texture_destroy(&a);
    amp_texture_destroy(&b);
}

/* src/filter/pass.c's count of the filter pipelines made on a device (a test hook:
 * weak, as below) */
__attribute__((weak)) int amp__filter_pipeline_count(amp_accelerator_view *v);

/* Prepares the chain f (n filters) of 8-bit unorm images of comps components for a source
 * of extent in, then runs it from such a texture into one of extent out, and requires that
 * the run made no pipeline: the pipelines the preparation made. */
static int prepared_then_run(const amp_image_filter *f, int n, int comps, amp_extent in, amp_extent out)
{
    int before = amp__filter_pipeline_count(view);
    REQUIRE_OK(amp_image_filter_prepare_extent(view, f, n, AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps), 8, in));
    int made = amp__filter_pipeline_count(view);
    amp_texture *src = make_texture("u8", comps, in, NULL), *dst = make_texture("u8", comps, out, NULL);
    REQUIRE_OK(amp_image_filter_chain(f, n, src, dst));
    REQUIRE_INT(amp__filter_pipeline_count(view), made);
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    return made - before;
}

/* amp_image_filter_prepare_extent makes the pipelines that a chain uses at the size it
 * is given, so that the chain's first run there makes none: a small image, and a
 * megapixel one (which a CPU device filters through another pass: conv_block.comp).
 * A gaussian of radius 3 with the wrap border on gray + alpha, which no other test
 * runs, so that its pipelines are new here; a gaussian of radius 20 on a 70 x 60 image
 * (its border of one reflection); a resize by a whole factor (its own pipelines).
 * Extents that are not 2-D or empty are errors. */
static void prepare_sizes(void)
{
    amp_image_filter f[2] = {{.op = AMP_IMAGE_GAUSSIAN, .radius = 3, .border = AMP_BORDER_WRAP},
                             {.op = AMP_IMAGE_INVERT}};
    amp_type ga = AMP_MAKE_TYPE(AMP_SCALAR_UNORM, 2);
    REQUIRE_FAIL(amp_image_filter_prepare_extent(view, f, 2, ga, 8, amp_extent1(5)), AMP_ERROR_INVALID_ARGUMENT,
                 "amp_image_filter_prepare_extent: the source's extent is 1-D");
    REQUIRE_FAIL(amp_image_filter_prepare_extent(view, f, 2, ga, 8, amp_extent2(4, 0)), AMP_ERROR_INVALID_ARGUMENT,
                 "is 0 x 4 (width x height)");
    REQUIRE_FAIL(amp_image_filter_prepare_extent(view, f, 0, ga, 8, amp_extent2(4, 4)), AMP_ERROR_INVALID_ARGUMENT,
                 "0 filters");
    if (!amp__filter_pipeline_count) return;
    static const int sizes[2][2] = {{200, 300}, {1000, 1100}}; /* rows, columns */
    for (int i = 0; i < 2; i++) {
        amp_extent e = amp_extent2(sizes[i][0], sizes[i][1]);
        int made = prepared_then_run(f, 2, 2, e, e);
        REQUIRE(made > 0 || i == 1); /* the large image's pass may be the small one's */
    }
    /* a radius past the 16 x 16 stand-in's sides but inside the image's (FLAG_NEAR) */
    amp_image_filter g = {.op = AMP_IMAGE_GAUSSIAN, .radius = 20, .border = AMP_BORDER_REFLECT};
    prepared_then_run(&g, 1, 2, amp_extent2(60, 70), amp_extent2(60, 70));
    /* a resize of the source by a whole factor (its pipelines take the factor), with a
       fused op, on a small and a megapixel 8-bit RGBA image (packed.comp's on a CPU device) */
    amp_image_filter r[2] = {{.op = AMP_IMAGE_RESIZE, .interpolation = AMP_INTERP_AREA},
                             {.op = AMP_IMAGE_GAMMA, .gamma = 1.3f}};
    static const int shrink[2][2] = {{201, 300}, {999, 1500}};
    for (int i = 0; i < 2; i++) {
        amp_extent e = amp_extent2(shrink[i][0], shrink[i][1]), o = amp_extent2(shrink[i][0] / 3, shrink[i][1] / 3);
        r[0].width = o.dims[1];
        r[0].height = o.dims[0];
        prepared_then_run(r, 2, 4, e, o);
    }
}

/* Small images on a CPU device (chain.c's PACKED_SMALL_PIXELS): a pass whose bytes
 * packed.comp gives too runs on the image paths until it has run 2^19 pixels there
 * (PACKED_TIER_PIXELS), and then on packed.comp, whose pipeline that run makes: a 200 x
 * 150 integer box (30000 pixels) makes no pipeline in its runs 2 to 17 and one in its
 * 18th, then none, every run the first's bytes. A sharpen (float sums) and a box with an
 * invert fused after it (a pointwise program) keep the image paths at every run. */
static void tiered_small_images(void)
{
    if (!amp__filter_pipeline_count || !emulated()) return;
    static const char *const chains[] = {"box:radius=3,border=replicate", "sharpen:amount=0.6,sigma=1.2",
                                         "box:radius=3,border=replicate invert"};
    amp_texture *src = sample_u8(4, 200, 150), *dst = make_texture("u8", 4, amp_extent2(150, 200), NULL);
    for (int c = 0; c < 3; c++) {
        amp_image_filter f[2];
        int n = parse_chain(chains[c], f, 2);
        float *first = NULL;
        size_t count = 0;
        int made = 0;
        for (int run = 1; run <= 20; run++) {
            REQUIRE_OK(amp_image_filter_chain(f, n, src, dst));
            int now = amp__filter_pipeline_count(view);
            size_t k;
            float *got = read_values(dst, &k);
            if (run == 1) {
                first = got;
                count = k;
                made = now;
                continue;
            }
            size_t differ = 0;
            for (size_t i = 0; got && first && k == count && i < k; i++) differ += got[i] != first[i];
            if (!got || k != count || differ) {
                fprintf(stderr, "%s, run %d: %zu values differ from the first run's\n", chains[c], run, differ);
                test_failures++;
            }
            test_checks++;
            free(got);
            int want = made + (c == 0 && run >= 18);
            if (now != want) {
                fprintf(stderr, "%s, run %d: %d filter pipelines, want %d\n", chains[c], run, now, want);
                test_failures++;
            }
            test_checks++;
        }
        free(first);
    }
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
}

/* src/filter/plan.c's switch for tests (not in the installed headers; hidden in the
 * shared library, so weak: NULL where the tests link that, and the forced pass is skipped) */

/* ---- groups ---- */

/* The cases of a family of cases.txt: those whose name begins with it and "_". */
static void family_cases(const char *family)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s_", family);
    matching_cases(prefix, true);
}

/* Boxes, gaussians, erode and dilate against the host's sums: radii past the weights
 * block, a radius one less than the width (FLAG_NEAR: every border one reflection, the
 * farthest reaching the far side) and equal to it (none); 8 bits into 8 bits at the
 * radii of conv_mma.comp on GPUs with cooperative matrices (gaussian sigma 5 on 4
 * components, box 12 on one, sharpen 9 on three) and conv_run.comp's on others; integer
 * sums on the tile (small images) and conv_block.comp. */
static void conv_group(void)
{
    conv_against_host(AMP_IMAGE_BOX, 20, 0, 9, 7);
    conv_against_host(AMP_IMAGE_BOX, 70, 0, 9, 7);
    conv_against_host(AMP_IMAGE_BOX, 6, 0, 7, 9);
    conv_against_host(AMP_IMAGE_DILATE, 7, 0, 7, 9);
    conv_check(AMP_IMAGE_GAUSSIAN, 15, 5.0f, 301, 530, 4, "u8");
    conv_check(AMP_IMAGE_BOX, 12, 0, 77, 300, 1, "u8");
    conv_check(AMP_IMAGE_SHARPEN, 9, 3.0f, 65, 40, 3, "u8");
    conv_check(AMP_IMAGE_BOX, 4, 0, 61, 47, 4, "u8");
}

/* The same at a megapixel, where CPU devices take packed.comp (the float rounding: S = 7;
 * its inside quads and edges at a width of 4k + 3). */
static void conv_large_group(void)
{
    conv_against_host(AMP_IMAGE_GAUSSIAN, 2, 1.5f, 1050, 1010);
    conv_against_host(AMP_IMAGE_ERODE, 1, 0, 1050, 1010);
    conv_against_host(AMP_IMAGE_DILATE, 2, 0, 1050, 1010);
    conv_against_host(AMP_IMAGE_GAUSSIAN, 4, 2.0f, 1050, 1010);
    conv_against_host(AMP_IMAGE_ERODE, 3, 0, 1050, 1010);
    conv_check(AMP_IMAGE_BOX, 2, 0, 1050, 1010, 2, "u8");
    conv_check(AMP_IMAGE_BOX, 3, 0, 1003, 1047, 4, "u8");
}

/* packed.comp against the image paths, on images as small as take each of its kinds of
 * passes (tier_now: at once, without earning them first): one pass of every quad (100 x
 * 83, and an image of one row, every window taller than it: the first 8 chains, the sums,
 * erode and dilate, pipelines of their own whose borders reflect more than once), and two
 * (split_now: the quads inside, those at the edges; widths of 4k + 2 and 4k + 3). Every
 * chain on RGBA, RGB and uint views once; packed_large_group runs each on each. */
static void packed_one_pass_group(void)
{
    if (!amp__filter_tier_now) return;
    amp__filter_tier_now(true);
    packed_against_image_paths(100, 97, 83, 0, PACKED_RGBA | PACKED_UINT_VIEWS);
    packed_against_image_paths(4100, 4097, 1, 8, PACKED_RGBA);
    amp__filter_tier_now(false);
}

static void packed_two_pass_group(void)
{
    if (!amp__filter_tier_now || !amp__filter_split_now) return;
    amp__filter_tier_now(true);
    amp__filter_split_now(true);
    packed_against_image_paths(262, 259, 131, 0, PACKED_RGB);
    amp__filter_split_now(false);
    amp__filter_tier_now(false);
}

/* The sizes from which packed.comp takes an image at once in one pass (PACKED_MIN_PIXELS)
 * and in two (PACKED_SPLIT_PIXELS), just above each: the first chain. */
static void packed_sizes_group(void)
{
    packed_against_image_paths(522, 519, 506, 1, PACKED_ALL);
    packed_against_image_paths(730, 727, 722, 1, PACKED_ALL);
}

/* Every chain of every kind on a megapixel, on 0.3 megapixels and on the small images
 * (the long run). */
static void packed_large_group(void)
{
    packed_against_image_paths(1030, 1027, 1021, 0, PACKED_ALL);
    packed_against_image_paths(606, 603, 511, 0, PACKED_ALL);
    if (!amp__filter_tier_now || !amp__filter_split_now) return;
    amp__filter_tier_now(true);
    packed_against_image_paths(100, 97, 83, 0, PACKED_ALL);
    packed_against_image_paths(4100, 4097, 1, 8, PACKED_ALL);
    amp__filter_split_now(true);
    packed_against_image_paths(262, 259, 131, 0, PACKED_ALL);
    amp__filter_split_now(false);
    amp__filter_tier_now(false);
}

/* packed.comp's pairs of quads, resizes and equalize. */
static void packed_modes_group(void)
{
    packed_pairs();
    packed_resizes();
    packed_equalize();
}

/* grid_strides on the first case of each module, and on every case (the long run). */
static void grid_strides_once(void) { grid_strides(false); }
static void grid_strides_every(void) { grid_strides(true); }

static void equalize_group(void)
{
    equalize_gray_alpha();
    equalize_against_host();
}

/* The GPUs' paths, forced on this device (lavapipe's subgroups are 8 wide: radius up
 * to 3). The one-pass conv_subgroup.comp: every border, component count and type of
 * the 5 x 5 gaussian, sharpen (radius 3), 3 x 3 box and erode, 5 x 5 dilate (integer
 * sums for the 8-bit gaussians and boxes; erode and dilate of 8 bits in 16-bit floats,
 * conv_subgroup_half, where the device has them). */
static void gpu_separable_group(void)
{
    static const char *const separable[] = {"gaussian_r2", "gaussian_r1_s0", "sharpen_a1_s1", "box_r1_",
                                            "erode_r1", "dilate_r2"};
    for (int i = 0; i < 6; i++) opencv_cases(separable[i]);
    conv_against_host(AMP_IMAGE_GAUSSIAN, 2, 1.5f, 333, 250);
    conv_against_host(AMP_IMAGE_BOX, 3, 0, 333, 250);
    conv_check(AMP_IMAGE_BOX, 3, 0, 333, 250, 3, "u8"); /* integer sums, S = 7 */
    conv_against_host(AMP_IMAGE_ERODE, 1, 0, 70, 41);
    conv_against_host(AMP_IMAGE_DILATE, 2, 0, 9, 7);
}

/* The two-pass conv_run.comp (a few cases: each pipeline is slow to compile on
 * lavapipe): gaussian radius 12 (1, 3 and 4 components, the constant and wrap borders),
 * erode and dilate 5, sharpen at sigma 2, box radius 70 (weights in the scratch buffer). */
static void gpu_two_pass_group(void)
{
    static const char *const two_pass[] = {"gaussian_r12", "erode_r5_rgba8", "dilate_r5_gray8", "sharpen_a0.5_s2"};
    for (int i = 0; i < 4; i++) opencv_cases(two_pass[i]);
    conv_against_host(AMP_IMAGE_BOX, 70, 0, 9, 7);
}

/* The 5 x 5 median's GPU tile on 16 bits, 32-bit floats and one 8-bit case (4
 * components, a border: median_half where the device has 16-bit floats). */
static void gpu_median5_group(void)
{
    static const char *const median[] = {"median_r2_rgba8_replicate", "median_r2_rgb16", "median_r2_rgba_f32"};
    for (int i = 0; i < 3; i++) opencv_cases(median[i]);
}

/* The 3 x 3 median's walk, on 1 to 4 components of 8 bits. */
static void gpu_median3_group(void)
{
    static const char *const median[] = {"median_r1_rgba8", "median_r1_rgb8", "median_r1_ga8", "median_r1_gray8"};
    for (int i = 0; i < 4; i++) opencv_cases(median[i]);
}

typedef struct group {
    const char *name;
    void (*run)(void);
    bool gpu_paths; /* run with the GPUs' paths forced (where the library has the switch) */
} group;

/* Every group but the OpenCV cases, in the order of a whole run. tests/CMakeLists.txt
 * makes a ctest entry of each (and of each family of cases): keep the two in step. */
static const group groups[] = {
    {"kinds", kinds_group, false},
    {"chains", chains, false},
    {"grid_strides", grid_strides_once, false},
    {"grid_strides_every", grid_strides_every, false},
    {"prepare", prepare_sizes, false},
    {"tiers", tiered_small_images, false},
    {"equalize", equalize_group, false},
    {"tonemap", tonemap, false},
    {"errors", errors, false},
    {"conv", conv_group, false},
    {"conv_large", conv_large_group, false},
    {"packed_one_pass", packed_one_pass_group, false},
    {"packed_two_pass", packed_two_pass_group, false},
    {"packed_sizes", packed_sizes_group, false},
    {"packed_large", packed_large_group, false},
    {"packed_modes", packed_modes_group, false},
    {"median", median5_against_host, false},
    {"gpu_separable", gpu_separable_group, true},
    {"gpu_two_pass", gpu_two_pass_group, true},
    {"gpu_median5", gpu_median5_group, true},
    {"gpu_median3", gpu_median3_group, true},
};
#define NGROUPS (int)(sizeof groups / sizeof groups[0])

static bool listed(const char *name, size_t len, char **list, int n)
{
    for (int i = 0; i < n; i++)
        if (strlen(list[i]) == len && strncmp(list[i], name, len) == 0) return true;
    return false;
}

/* That the ctest entries (tests/CMakeLists.txt, which passes its lists here: families,
 * "--groups", groups) run every family of cases.txt and every group of groups[]. */
static void coverage(char **args, int n)
{
    int split = 0;
    while (split < n && strcmp(args[split], "--groups") != 0) split++;
    char **families = args, **names = args + split + 1;
    int nfamilies = split, nnames = split < n ? n - split - 1 : 0;
    FILE *fp = fopen(DIR "cases.txt", "r");
    REQUIRE(fp != NULL);
    char line[4096];
    while (fp && fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        size_t len = strcspn(line, "_ ");
        if (!listed(line, len, families, nfamilies)) {
            fprintf(stderr, "case %.*s: its family %.*s has no ctest entry (tests/CMakeLists.txt)\n",
                    (int)strcspn(line, " "), line, (int)len, line);
            test_failures++;
        }
        test_checks++;
    }
    if (fp) fclose(fp);
    for (int i = 0; i < NGROUPS; i++) {
        if (!listed(groups[i].name, strlen(groups[i].name), names, nnames)) {
            fprintf(stderr, "group %s has no ctest entry (tests/CMakeLists.txt)\n", groups[i].name);
            test_failures++;
        }
        test_checks++;
    }
}

static void run_group(const group *g)
{
    if (g->gpu_paths && !amp__filter_force_gpu_paths) return;
    if (g->gpu_paths) amp__filter_force_gpu_paths(true);
    g->run();
    if (g->gpu_paths) amp__filter_force_gpu_paths(false);
}

/*   test_filters                   every case and group
 *   test_filters cases [FAMILY]    the OpenCV cases (of one family: resize, gaussian, ...)
 *   test_filters GROUP             one group of groups[]
 *   test_filters TEXT              the OpenCV cases whose line holds TEXT
 *   test_filters coverage FAMILY... --groups GROUP...
 *                                  fails where a family or group is not listed */
int main(int argc, char **argv)
{
    test_begin();
    if (argc > 1 && strcmp(argv[1], "coverage") == 0) {
        coverage(argv + 2, argc - 2);
        return test_end();
    }
    view = test_view();
    if (argc <= 1) {
        opencv_cases(NULL);
        for (int i = 0; i < NGROUPS; i++) run_group(&groups[i]);
        return test_end();
    }
    if (strcmp(argv[1], "cases") == 0) {
        if (argc > 2) family_cases(argv[2]);
        else opencv_cases(NULL);
        return test_end();
    }
    for (int i = 0; i < NGROUPS; i++)
        if (strcmp(argv[1], groups[i].name) == 0) {
            run_group(&groups[i]);
            return test_end();
        }
    opencv_cases(argv[1]);
    return test_end();
}
