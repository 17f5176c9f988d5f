/* The comparison engine (ampvk/image.h): the YIQ metric's count of differing pixels
 * against pixelmatch 7.2's on the pairs of tests/data/compare (pixelmatch.txt, made by
 * make_pairs.mjs), for every threshold, anti-aliasing and background setting; SSIM
 * against scikit-image's (ssim.txt, made by make_ssim.py); ignore
 * rectangles, masks and the densest window by both metrics; the pictures of
 * amp_image_compare_draw; textures and golden files by YIQ; and the errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ampvk/ampvk.h"
#include "test.h"

#define DIR AMPVK_TEST_DATA "/compare/"

__attribute__((weak)) void amp__compare_force_views(bool on);

static amp_image load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, DIR "%s", name);
    amp_image im = {0};
    REQUIRE_OK(amp_image_load(path, NULL, &im));
    return im;
}

static const unsigned char *pixel(const amp_image *im, int x, int y)
{
    return (const unsigned char *)im->pixels + (size_t)y * im->stride + (size_t)x * 4;
}

/* Every line of pixelmatch.txt: the same count, and the same again through the picture. */
static void against_pixelmatch(void)
{
    FILE *fp = fopen(DIR "pixelmatch.txt", "r");
    REQUIRE(fp != NULL);
    char line[256], loaded[64] = "";
    amp_image a = {0}, b = {0};
    int lines = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char pair[64];
        double threshold;
        int aa, white;
        size_t want;
        if (line[0] == '#' || sscanf(line, "%63s %lf %d %d %zu", pair, &threshold, &aa, &white, &want) != 5) continue;
        if (strcmp(pair, loaded) != 0) {
            char name[96];
            amp_image_free(&a);
            amp_image_free(&b);
            snprintf(name, sizeof name, "%s_a.png", pair);
            a = load(name);
            snprintf(name, sizeof name, "%s_b.png", pair);
            b = load(name);
            snprintf(loaded, sizeof loaded, "%s", pair);
        }
        amp_image_compare_desc d = {.metric = AMP_IMAGE_METRIC_YIQ, .tolerance = threshold,
                                    .ignore_antialiased = aa, .blend_on_white = white};
        amp_image_compare_result r = {0};
        REQUIRE_OK(amp_image_compare_images(&a, &b, &d, &r));
        if (r.differing_texels != want) {
            fprintf(stderr, "%s threshold %g aa %d white %d: %zu pixels differ, pixelmatch says %zu\n", pair,
                    threshold, aa, white, r.differing_texels, want);
            test_failures++;
        }
        test_checks++;
        REQUIRE(r.passed == (want == 0) && r.equal == (want == 0));
        REQUIRE(r.texels == (size_t)a.width * (size_t)a.height && r.ignored_texels == 0);
        REQUIRE(aa || r.antialiased_texels == 0);
        REQUIRE(r.max_score >= 0 && r.max_score <= 1 && r.mean_score <= r.max_score);
        lines++;
    }
    if (fp) fclose(fp);
    REQUIRE_INT(lines, 100);
    amp_image_free(&a);
    amp_image_free(&b);
}

/* The mean SSIM of every pair against scikit-image 0.19.3's, to 1e-7 (the per-pixel
 * similarities pass through floats); identical images: 1, no texel differs. */
static void against_scikit_image(void)
{
    FILE *fp = fopen(DIR "ssim.txt", "r");
    REQUIRE(fp != NULL);
    char line[256];
    int lines = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char pair[64], name[96];
        double want;
        if (line[0] == '#' || sscanf(line, "%63s %lf", pair, &want) != 2) continue;
        snprintf(name, sizeof name, "%s_a.png", pair);
        amp_image a = load(name);
        snprintf(name, sizeof name, "%s_b.png", pair);
        amp_image b = load(name);
        amp_image_compare_result r;
        REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_SSIM}, &r));
        if (!(fabs(r.ssim - want) <= 1e-7)) {
            fprintf(stderr, "%s: SSIM %.12f, scikit-image's %.12f\n", pair, r.ssim, want);
            test_failures++;
        }
        test_checks++;
        REQUIRE(r.max_score > 0 && r.differing_texels > 0 && !r.passed);
        REQUIRE_OK(amp_image_compare_images(&a, &a, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_SSIM}, &r));
        REQUIRE(r.ssim == 1 && r.max_score == 0 && r.differing_texels == 0 && r.passed);
        amp_image_free(&a);
        amp_image_free(&b);
        lines++;
    }
    if (fp) fclose(fp);
    REQUIRE_INT(lines, 5);
}

/* A PFM file (float RGB, rows bottom to top) as a float image. */
static amp_image load_pfm(const char *name)
{
    char path[512], magic[3] = "";
    snprintf(path, sizeof path, DIR "flip/%s", name);
    FILE *fp = fopen(path, "rb");
    int w = 0, h = 0;
    double scale = 0;
    amp_image im = {0};
    REQUIRE(fp && fscanf(fp, "%2s %d %d %lf", magic, &w, &h, &scale) == 4 && fgetc(fp) == '\n');
    REQUIRE(strcmp(magic, "PF") == 0 && scale < 0 && w > 0 && h > 0);
    if (fp && w > 0 && h > 0 && amp_image_create(w, h, 3, 32, &im) == AMP_OK)
        for (int y = h - 1; y >= 0; y--)
            REQUIRE(fread((char *)im.pixels + (size_t)y * im.stride, 12, (size_t)w, fp) == (size_t)w);
    if (fp) fclose(fp);
    return im;
}

/* How many of NVIDIA's 8-bit error map's pixels exceed level k (its levels round
 * 255 * FLIP). */
static size_t nvidia_above(const amp_image *map, int k)
{
    size_t count = 0;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            count += ((const unsigned char *)map->pixels)[(size_t)y * map->stride + (size_t)x * map->channels] > k;
    return count;
}

/* Every case of flip/flip.txt (made by make_flip.py with NVIDIA's FLIP 1.6): the mean
 * to 1e-5, the weighted median, quartiles and maximum to 2e-5 (its values are printed
 * to 6 decimals; the issue asks 1e-4 of the mean), HDR-FLIP's exposures
 * to 1e-5; against its error maps, the pixels beyond four levels within 0.2% (its
 * levels are rounded); identical images: 0. */
static void against_nvidia_flip(void)
{
    FILE *fp = fopen(DIR "flip/flip.txt", "r");
    REQUIRE(fp != NULL);
    char line[512], given[8][64] = {{0}}, maps[8][64] = {{0}};
    double given_range[8][2];
    int given_n[8], ngiven = 0, nmaps = 0, lines = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char name[64], ref[96], test[96], mode[8], tm[16], start[32], stop[32], num[16];
        double ppd, want[6];
        if (line[0] == '#') {
            char who[64], map[64];
            if (ngiven < 8 && sscanf(line, "#   %63[^:]: -cstart %lf -cstop %lf -n %d", who, &given_range[ngiven][0],
                                     &given_range[ngiven][1], &given_n[ngiven]) == 4)
                snprintf(given[ngiven++], 64, "%s", who);
            if (nmaps < 8 && sscanf(line, "#   %63[^:]: error map %63s", who, map) == 2) {
                snprintf(maps[nmaps++], 64, "%s", map);
                (void)who;
            }
            continue;
        }
        if (sscanf(line, "%63s %95s %95s %7s %lf %15s %31s %31s %15s %lf %lf %lf %lf %lf %lf", name, ref, test, mode,
                   &ppd, tm, start, stop, num, &want[0], &want[1], &want[2], &want[3], &want[4], &want[5]) != 15)
            continue;
        bool hdr = strcmp(mode, "hdr") == 0;
        char path[160];
        snprintf(path, sizeof path, "flip/%s", ref);
        amp_image a = hdr ? load_pfm(ref) : load(path);
        snprintf(path, sizeof path, "flip/%s", test);
        amp_image b = hdr ? load_pfm(test) : load(path);
        amp_image_compare_desc d = {.metric = AMP_IMAGE_METRIC_FLIP, .tolerance = 0.5,
                                    .ppd = fabs(ppd - 67.020645) < 1e-5 ? 0 : ppd,
                                    .tone_mapper = strcmp(tm, "hable") == 0      ? AMP_IMAGE_TONE_MAP_HABLE
                                                   : strcmp(tm, "reinhard") == 0 ? AMP_IMAGE_TONE_MAP_REINHARD
                                                                                 : AMP_IMAGE_TONE_MAP_ACES};
        for (int g = 0; g < ngiven; g++)
            if (strcmp(given[g], name) == 0)
                d.exposures = given_n[g], d.exposure_start = given_range[g][0], d.exposure_stop = given_range[g][1];
        amp_image_compare_result r;
        REQUIRE_OK(amp_image_compare_images(&a, &b, &d, &r));
        double got[6] = {r.mean_score, r.weighted_median, r.weighted_quartiles[0], r.weighted_quartiles[1], 0,
                         r.max_score};
        static const char *what[6] = {"mean", "weighted median", "1st weighted quartile", "3rd weighted quartile",
                                      "min", "max"};
        for (int k = 0; k < 6; k++) {
            if (k == 4) continue;
            if (!(fabs(got[k] - want[k]) <= (k == 0 ? 1e-5 : 2e-5))) {
                fprintf(stderr, "%s: FLIP %s %.6f, NVIDIA's %.6f\n", name, what[k], got[k], want[k]);
                test_failures++;
            }
            test_checks++;
        }
        size_t sum = 0, above_half = 0;
        for (int k = 0; k < AMP_IMAGE_HISTOGRAM_BUCKETS; k++) sum += r.histogram[k];
        for (int k = 50; k < AMP_IMAGE_HISTOGRAM_BUCKETS; k++) above_half += r.histogram[k];
        REQUIRE(sum == r.texels && r.texels == (size_t)a.width * (size_t)a.height);
        REQUIRE(above_half >= r.differing_texels && r.equal == (r.differing_texels == 0));
        if (hdr) {
            REQUIRE_INT(r.exposures, atoi(num));
            REQUIRE(fabs(r.exposure_start - atof(start)) < 1e-5 && fabs(r.exposure_stop - atof(stop)) < 1e-5);
        }
        for (int m = 0; m < nmaps; m++) {
            size_t len = strlen(name);
            if (strncmp(maps[m], name, len) != 0 || strcmp(maps[m] + len, "_flip.png") != 0) continue;
            snprintf(path, sizeof path, "flip/%s", maps[m]);
            amp_image map = load(path);
            static const int levels[4] = {25, 64, 128, 191};
            for (int k = 0; k < 4; k++) {
                amp_image_compare_desc at = d;
                at.tolerance = (levels[k] + 0.5) / 255;
                REQUIRE_OK(amp_image_compare_images(&a, &b, &at, &r));
                size_t theirs = nvidia_above(&map, levels[k]), slack = r.texels / 500 + 1;
                if (!(r.differing_texels + slack >= theirs && r.differing_texels <= theirs + slack)) {
                    fprintf(stderr, "%s: %zu pixels above level %d, NVIDIA's map %zu\n", name, r.differing_texels,
                            levels[k], theirs);
                    test_failures++;
                }
                test_checks++;
            }
            amp_image_free(&map);
        }
        amp_image_free(&a);
        amp_image_free(&b);
        lines++;
    }
    if (fp) fclose(fp);
    REQUIRE_INT(lines, 15);
    REQUIRE_INT(nmaps, 2);
}

/* A pair whose pixel count is no multiple of 4 (the YIQ kernel's quads end padded),
 * through arrays in place and, forced, through views of host memory as on GPUs: the
 * differing pixels of a crop are those of the whole inside it (no anti-aliasing, on
 * white: a pixel's class depends on its own pair alone). */
static void crops(void)
{
    amp_image a = load("moved_a.png"), b = load("moved_b.png"), pic;
    amp_image_compare_result whole, r;
    amp_image_compare_desc d = {.metric = AMP_IMAGE_METRIC_YIQ, .tolerance = 0.05, .blend_on_white = true};
    REQUIRE_OK(amp_image_compare_draw(&a, &b, &d, AMP_IMAGE_DRAW_MASK, &whole, &pic));
    int cw = 197, ch = 149; /* 29353 pixels */
    size_t inside = 0;
    for (int y = 0; y < ch; y++)
        for (int x = 0; x < cw; x++) inside += pixel(&pic, x, y)[3] != 0;
    amp_image ca = a, cb = b;
    ca.width = cb.width = cw;
    ca.height = cb.height = ch;
    for (int forced = 0; forced < 2; forced++) {
        if (forced && !amp__compare_force_views) break;
        if (forced) amp__compare_force_views(true);
        REQUIRE_OK(amp_image_compare_images(&ca, &cb, &d, &r));
        REQUIRE_INT(r.differing_texels, inside);
        REQUIRE_INT(r.texels, 29353);
        REQUIRE_OK(amp_image_compare_images(&a, &b, &d, &r));
        REQUIRE_INT(r.differing_texels, whole.differing_texels);
        if (forced) amp__compare_force_views(false);
    }
    REQUIRE(inside > 100);
    amp_image_free(&pic);
    amp_image_free(&a);
    amp_image_free(&b);
}

/* The counts pixelmatch.txt's numbers imply, spelled out on "moved": 973 pixels beyond
 * 0 of which 932 anti-aliased; its scores; the first difference. */
static void moved_in_detail(void)
{
    amp_image a = load("moved_a.png"), b = load("moved_b.png");
    amp_image_compare_result r;
    REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_YIQ,
                                                                           .ignore_antialiased = true},
                                        &r));
    REQUIRE_INT(r.differing_texels, 41);
    REQUIRE_INT(r.antialiased_texels, 932);
    REQUIRE(r.first_difference.rank == 2);
    /* identical images: nothing, score 0 */
    REQUIRE_OK(amp_image_compare_images(&a, &a, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_YIQ}, &r));
    REQUIRE(r.equal && r.passed && r.max_score == 0 && r.differing_texels == 0 && r.first_difference.rank == 0);
    amp_image_free(&a);
    amp_image_free(&b);
}

/* Rectangles and a mask leave texels out of the counts, by either metric; the densest
 * window finds the changed square of "changed" (16 x 16 at column 150, rows 20 and 24). */
static void masks_and_windows(void)
{
    amp_image a = load("changed_a.png"), b = load("changed_b.png");
    amp_image_compare_result r, all;
    for (int m = 0; m < 2; m++) {
        amp_image_metric metric = m ? AMP_IMAGE_METRIC_YIQ : AMP_IMAGE_METRIC_CHANNEL;
        REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = metric}, &all));
        REQUIRE_INT(all.differing_texels, 320);
        /* the square's columns, rows 20..43: every difference under the rectangle */
        amp_image_rect rect = {150, 20, 16, 24};
        REQUIRE_OK(amp_image_compare_images(
            &a, &b, &(amp_image_compare_desc){.metric = metric, .ignore = &rect, .ignore_count = 1}, &r));
        REQUIRE(r.differing_texels == 0 && r.passed && r.ignored_texels == 16 * 24);
        REQUIRE_INT(r.texels, 200 * 150 - 16 * 24);
        /* half of it: the other half's differences stay */
        rect.width = 8;
        REQUIRE_OK(amp_image_compare_images(
            &a, &b, &(amp_image_compare_desc){.metric = metric, .ignore = &rect, .ignore_count = 1}, &r));
        REQUIRE_INT(r.differing_texels, 160);
        REQUIRE(r.first_difference.i[1] == 158);
        /* the same as a mask image: alpha 0 left out */
        amp_image mask;
        REQUIRE_OK(amp_image_create(200, 150, 4, 8, &mask));
        memset(mask.pixels, 255, 200 * 150 * 4);
        for (int y = 20; y < 44; y++)
            for (int x = 150; x < 158; x++) ((unsigned char *)mask.pixels)[(y * 200 + x) * 4 + 3] = 0;
        REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = metric, .mask = &mask}, &r));
        REQUIRE(r.differing_texels == 160 && r.ignored_texels == 8 * 24);
        amp_image_free(&mask);
        /* the densest 16 x 16 window: 16 x 12 of the square's old and new places differ
           (rows 20..23 and 36..39 in one of them only) */
        REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = metric, .window = 16}, &r));
        REQUIRE(r.window_texels == 16 * 16 || r.window_texels == 16 * 12 + 16 * 4);
        REQUIRE(r.window_origin.i[1] == 150 && r.window_origin.i[0] >= 20 && r.window_origin.i[0] <= 28);
        /* a window larger than the image: all of it */
        REQUIRE_OK(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = metric, .window = 999}, &r));
        REQUIRE(r.window_texels == 320 && r.window_origin.i[0] == 0 && r.window_origin.i[1] == 0);
    }
    amp_image_free(&a);
    amp_image_free(&b);
}

/* The overlay: red where actual is the brighter, blue where darker, yellow on
 * anti-aliasing, pixelmatch's gray elsewhere; the mask: red on transparent black. */
static void pictures(void)
{
    amp_image a = load("changed_a.png"), b = load("changed_b.png"), pic;
    amp_image_compare_result r;
    amp_image_compare_desc yiq = {.metric = AMP_IMAGE_METRIC_YIQ, .tolerance = 0.1, .ignore_antialiased = true};
    REQUIRE_OK(amp_image_compare_draw(&a, &b, &yiq, AMP_IMAGE_DRAW_OVERLAY, &r, &pic));
    REQUIRE(pic.width == 200 && pic.height == 150 && pic.channels == 4 && pic.bits == 8);
    REQUIRE_INT(r.differing_texels, 320);
    /* the square was yellow (250, 200, 0) at rows 20..35 and is dark (40, 40, 40) at 24..39:
       rows 20..23 lighter in b (the background), 24..35 darker, 36..39 darker than the
       background */
    const unsigned char *p = pixel(&pic, 155, 30), *q = pixel(&pic, 155, 21), *g = pixel(&pic, 5, 5);
    REQUIRE(p[0] == 0 && p[1] == 0 && p[2] == 255 && p[3] == 255);
    REQUIRE(q[0] == 255 && q[1] == 0 && q[2] == 0);
    /* pixelmatch's gray of (200, 210, 230): 255 + (luma - 255) * 0.1 */
    double luma = 200 * 0.29889531 + 210 * 0.58662247 + 229 * 0.11448223;
    REQUIRE_INT(g[0], (int)(255 + (luma - 255) * 0.1));
    REQUIRE(g[0] == g[1] && g[1] == g[2] && g[3] == 255);
    amp_image_free(&pic);
    REQUIRE_OK(amp_image_compare_draw(&a, &b, &yiq, AMP_IMAGE_DRAW_MASK, &r, &pic));
    size_t red = 0, clear = 0;
    for (int y = 0; y < 150; y++)
        for (int x = 0; x < 200; x++) {
            const unsigned char *c = pixel(&pic, x, y);
            red += c[0] == 255 || c[2] == 255;
            clear += c[3] == 0;
        }
    REQUIRE(red == 320 && clear == 200 * 150 - 320);
    amp_image_free(&pic);
    /* the heat map by the channel metric: an equal pixel magma's 0 (0, 0, 4); (155, 30),
       (250, 200, 0) against (40, 40, 40), the largest difference 210 of 255: magma's 210
       (254, 170, 116); the ignored rectangle gray */
    amp_image_rect corner = {0, 0, 4, 4};
    REQUIRE_OK(amp_image_compare_draw(&a, &b, &(amp_image_compare_desc){.ignore = &corner, .ignore_count = 1},
                                      AMP_IMAGE_DRAW_HEATMAP, &r, &pic));
    const unsigned char *h0 = pixel(&pic, 5, 5), *h1 = pixel(&pic, 155, 30), *h2 = pixel(&pic, 1, 1);
    REQUIRE(h0[0] == 0 && h0[1] == 0 && h0[2] == 4 && h0[3] == 255);
    REQUIRE(h1[0] == 254 && h1[1] == 170 && h1[2] == 116);
    REQUIRE(h2[0] == 128 && h2[1] == 128 && h2[2] == 128);
    /* one comparison for several styles: the same pictures as one call each */
    amp_image both[2];
    static const amp_image_draw_style styles[2] = {AMP_IMAGE_DRAW_OVERLAY, AMP_IMAGE_DRAW_HEATMAP};
    REQUIRE_OK(amp_image_compare_draw_styles(&a, &b, &yiq, styles, 2, &r, both));
    amp_image one;
    for (int k = 0; k < 2; k++) {
        REQUIRE_OK(amp_image_compare_draw(&a, &b, &yiq, styles[k], &r, &one));
        REQUIRE(one.pixels && both[k].pixels && memcmp(one.pixels, both[k].pixels, 200 * 150 * 4) == 0);
        amp_image_free(&one);
        amp_image_free(&both[k]);
    }
    /* YIQ's pooled scores, part of the change ignored: summed from the differing blocks
       without a heat map, from the whole map with one; the same doubles */
    amp_image_rect part = {140, 25, 30, 8};
    amp_image_compare_desc masked = yiq;
    masked.ignore = &part;
    masked.ignore_count = 1;
    amp_image_compare_result plain, mapped;
    REQUIRE_OK(amp_image_compare_images(&a, &b, &masked, &plain));
    REQUIRE_OK(amp_image_compare_draw(&a, &b, &masked, AMP_IMAGE_DRAW_HEATMAP, &mapped, &one));
    REQUIRE(plain.ignored_texels == 240 && mapped.ignored_texels == 240);
    REQUIRE(plain.max_score > 0 && plain.mean_score > 0 && plain.differing_texels < 320);
    REQUIRE(plain.mean_score == mapped.mean_score && plain.max_score == mapped.max_score);
    REQUIRE(plain.differing_texels == mapped.differing_texels && plain.texels == mapped.texels);
    amp_image_free(&one);
    amp_image_free(&pic);
    /* anti-aliased pixels in yellow on "moved" */
    amp_image_free(&a);
    amp_image_free(&b);
    a = load("moved_a.png");
    b = load("moved_b.png");
    REQUIRE_OK(amp_image_compare_draw(&a, &b, &yiq, AMP_IMAGE_DRAW_OVERLAY, &r, &pic));
    size_t yellow = 0;
    for (int y = 0; y < 150; y++)
        for (int x = 0; x < 200; x++) {
            const unsigned char *c = pixel(&pic, x, y);
            yellow += c[0] == 255 && c[1] == 255 && c[2] == 0;
        }
    REQUIRE_INT(yellow, r.antialiased_texels);
    REQUIRE_INT(yellow, 608);
    amp_image_free(&pic);
    amp_image_free(&a);
    amp_image_free(&b);
}

/* Textures by YIQ (amp_image_compare) and golden files (amp_image_check_golden). */
static void textures_and_goldens(void)
{
    amp_accelerator_view *v = test_view();
    amp_texture *ta = amp_texture_load(v, DIR "moved_a.png", NULL), *tb = amp_texture_load(v, DIR "moved_b.png", NULL);
    REQUIRE(ta && tb);
    amp_image_compare_result r;
    amp_image_compare_desc yiq = {.metric = AMP_IMAGE_METRIC_YIQ, .tolerance = 0.1, .ignore_antialiased = true};
    if (ta && tb) {
        REQUIRE_OK(amp_image_compare(ta, tb, &yiq, &r));
        REQUIRE_INT(r.differing_texels, 19);
        REQUIRE_OK(amp_image_compare_png(tb, DIR "moved_a.png", &yiq, &r));
        REQUIRE_INT(r.differing_texels, 19);
        amp_image_golden_desc g = {.compare = yiq, .failure_dir = NULL};
        g.compare.max_pixels = 19;
        REQUIRE_OK(amp_image_check_golden(tb, DIR "moved_a.png", &g, &r));
        REQUIRE(r.passed && !r.golden_written);
        g.compare.max_pixels = 18;
        REQUIRE_OK(amp_image_check_golden(tb, DIR "moved_a.png", &g, &r));
        REQUIRE(!r.passed);
    }
    amp_texture_destroy(&ta);
    amp_texture_destroy(&tb);
}

static void errors(void)
{
    amp_image a = load("changed_a.png"), b = load("changed_b.png"), n = load("noise_a.png");
    amp_image_compare_result r;
    REQUIRE_FAIL(amp_image_compare_images(&a, &n, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_YIQ}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "200x150 with 4 channels, with the actual one, 96x64");
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = (amp_image_metric)7}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "metric 7");
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_YIQ,
                                                                             .tolerance = 1.5}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "YIQ threshold 1.5 is outside 0..1");
    amp_image_rect out = {190, 140, 20, 5};
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.ignore = &out, .ignore_count = 1}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "ignore rectangle 0 (columns 190..209, rows 140..144) is not inside the 200x150 image");
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.mask = &n}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "the mask is 96x64 with 4 channels; the images are 200x150");
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &(amp_image_compare_desc){.window = -2}, &r),
                 AMP_ERROR_INVALID_ARGUMENT, "window -2 is negative");
    amp_image small;
    REQUIRE_OK(amp_image_create(10, 30, 3, 8, &small));
    memset(small.pixels, 7, 10 * 30 * 3);
    REQUIRE_FAIL(amp_image_compare_images(&small, &small, &(amp_image_compare_desc){.metric = AMP_IMAGE_METRIC_SSIM},
                                          &r),
                 AMP_ERROR_INVALID_ARGUMENT, "SSIM needs images of at least 11x11 pixels; these are 10x30");
    amp_image_free(&small);
    /* FLIP's settings, and float images it cannot take */
    amp_image_compare_desc flip = {.metric = AMP_IMAGE_METRIC_FLIP, .ppd = -3};
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &flip, &r), AMP_ERROR_INVALID_ARGUMENT,
                 "-3 pixels per degree is outside 0..1000");
    flip.ppd = 0, flip.tone_mapper = (amp_image_tone_mapper)9;
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &flip, &r), AMP_ERROR_INVALID_ARGUMENT, "tone mapper 9");
    flip.tone_mapper = AMP_IMAGE_TONE_MAP_ACES, flip.exposures = 3, flip.exposure_start = 2, flip.exposure_stop = 1;
    REQUIRE_FAIL(amp_image_compare_images(&a, &b, &flip, &r), AMP_ERROR_INVALID_ARGUMENT, "3 exposures from 2 to 1");
    flip.exposures = 0;
    amp_image hx, hy;
    REQUIRE_OK(amp_image_create(16, 12, 3, 32, &hx));
    REQUIRE_OK(amp_image_create(16, 12, 3, 32, &hy));
    memset(hx.pixels, 0, hx.stride * 12);
    memset(hy.pixels, 0, hy.stride * 12);
    ((float *)hy.pixels)[5] = 1;
    REQUIRE_FAIL(amp_image_compare_images(&hx, &hy, &flip, &r), AMP_ERROR_INVALID_ARGUMENT,
                 "cannot work out exposures from the expected image (largest luminance 0, median 0)");
    ((float *)hx.pixels)[3 * 16 + 4] = NAN;
    REQUIRE_FAIL(amp_image_compare_images(&hx, &hy, &flip, &r), AMP_ERROR_INVALID_ARGUMENT,
                 "the expected image's sample at column 1, row 1, channel 1 is nan; FLIP needs finite values");
    amp_image_free(&hx);
    amp_image_free(&hy);
    amp_image pic;
    REQUIRE_FAIL(amp_image_compare_draw(&a, &b, NULL, (amp_image_draw_style)5, &r, &pic), AMP_ERROR_INVALID_ARGUMENT,
                 "style 5");
    REQUIRE(pic.pixels == NULL);
    amp_image_free(&a);
    amp_image_free(&b);
    amp_image_free(&n);
}

int main(void)
{
    test_begin();
    against_pixelmatch();
    if (amp__compare_force_views) { /* again through views of host memory, the GPUs' way */
        amp__compare_force_views(true);
        against_pixelmatch();
        amp__compare_force_views(false);
    }
    against_scikit_image();
    against_nvidia_flip();
    moved_in_detail();
    crops();
    masks_and_windows();
    pictures();
    textures_and_goldens();
    errors();
    return test_end();
}
