/*
 * ampvk diff: compares an image with its expected (golden) image.
 *
 *     ampvk diff EXPECTED ACTUAL [--metric channel|yiq|ssim|flip] [--threshold T] [--aa] [--on-white]
 *                [--ppd P] [--tone-mapper aces|hable|reinhard] [--exposures START:STOP:N]
 *                [--ignore x1:y1-x2:y2,...] [--mask M.png] [--window N]
 *                [--max-diff N] [--max-pixels N|P%] [--diff | --diff-mask | --heatmap OUT.png] [--json]
 *     ampvk diff GOLDEN_DIR ACTUAL_DIR [the same options] [--report DIR] [--junit FILE] [--update]
 *
 * Exit codes as ImageMagick's compare: 0 the images match within the tolerance, 1 they
 * differ (a size or channel-count mismatch included), 2 they could not be compared
 * (an unreadable or corrupt file, a usage error). The channel metric runs on the host,
 * YIQ, SSIM and FLIP on the default accelerator (amp_image_compare_draw).
 */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"

static const char help[] =
    "usage: ampvk diff EXPECTED ACTUAL [options]\n"
    "       ampvk diff GOLDEN_DIR ACTUAL_DIR [options] [--report DIR] [--junit FILE] [--update]\n"
    "\n"
    "Compares the image ACTUAL with EXPECTED (PNG, JPEG, BMP, TGA, PSD or Radiance HDR),\n"
    "or every image under ACTUAL_DIR with the one of the same relative path under\n"
    "GOLDEN_DIR (folders included; a golden with no actual image is missing, an actual\n"
    "image with no golden new; every pair is reported, failures first).\n"
    "\n"
    "  --metric channel  (default) channel by channel in steps of EXPECTED's depth\n"
    "                    (0..255 for 8 bits, 0..65535 for 16; values for HDR); ACTUAL is\n"
    "                    converted to that depth first\n"
    "  --metric yiq      pixelmatch's perceptual YIQ difference of the pixels as 8-bit RGBA,\n"
    "                    a score 0..1 per pixel; the same count of differing pixels as\n"
    "                    pixelmatch 7.2 with the same threshold and anti-aliasing setting\n"
    "  --metric ssim     structural similarity of the lumas (Wang et al. 2004, as\n"
    "                    scikit-image computes it); a pixel's score is 1 - SSIM\n"
    "  --metric flip     NVIDIA's FLIP (as FLIP 1.6 computes it): a perceptual error 0..1\n"
    "                    per pixel; 8- and 16-bit images LDR-FLIP, float (HDR) ones HDR-FLIP;\n"
    "                    prints the mean, weighted median and quartiles, max and histogram\n"
    "  --threshold T     the largest per-pixel metric that matches: channel steps (the same\n"
    "                    as --max-diff, default 0), the YIQ score (default 0.1),\n"
    "                    1 - SSIM (default 0.05) or the FLIP error (default 0.1)\n"
    "  --ppd P           FLIP: the observer's pixels per degree (default 67.02: 0.7 m from\n"
    "                    a 0.7 m wide 4K screen)\n"
    "  --tone-mapper T   HDR-FLIP: aces (default), hable or reinhard\n"
    "  --exposures S:E:N HDR-FLIP: N exposures from S to E stops (default: from EXPECTED's\n"
    "                    luminances, as NVIDIA's tool)\n"
    "  --aa              YIQ: pixels on anti-aliased edges do not count (pixelmatch's default,\n"
    "                    odiff's --aa)\n"
    "  --on-white        YIQ: blend translucent pixels on white, not on pixelmatch 7.2's\n"
    "                    checkerboard\n"
    "  --ignore R,...    leave out rectangles x1:y1-x2:y2 (corners included, as odiff's)\n"
    "  --mask M.png      leave out the pixels where M's alpha (without alpha: its first\n"
    "                    channel) is 0; M is the images' size\n"
    "  --window N        also report the N x N window with the most differing pixels\n"
    "  --max-diff N      the largest difference allowed in a channel (default 0: exact)\n"
    "  --max-pixels N    how many pixels may differ beyond the threshold (default 0);\n"
    "  --max-pixels P%   or what percentage of them\n"
    "  --diff OUT.png    write the differing pixels in red (blue where ACTUAL is darker, by\n"
    "                    YIQ; anti-aliased ones yellow) over a faded gray EXPECTED\n"
    "  --diff-mask OUT.png  write the differing pixels alone on transparent black\n"
    "  --heatmap OUT.png write each pixel's score (the YIQ score, 1 - SSIM, or the largest\n"
    "                    channel difference over its peak) in the magma colormap\n"
    "  --json            print the result as one JSON object\n"
    "  --report DIR      folders: write DIR/index.html, each failing pair's expected, actual\n"
    "                    and diff images side by side (blink, slide, zoom), failures first\n"
    "  --junit FILE      folders: write JUnit XML, a test case a pair\n"
    "  --update          folders: copy the different and new actual images over the goldens\n"
    "  --server          read requests from stdin, one JSON object a line ({\"expected\": E,\n"
    "                    \"actual\": A} and any of \"id\", \"metric\", \"threshold\", \"aa\", \"ppd\",\n"
    "                    \"on_white\", \"ignore\", \"window\", \"max_pixels\", \"diff\",\n"
    "                    \"diff_mask\", \"heatmap\"; the options given are the defaults), and answer each\n"
    "                    with one line of JSON as --json prints it, the \"id\" first\n"
    "\n"
    "Prints how many pixels (and what share) exceed the threshold, the largest difference\n"
    "per channel and the PSNR (channel metric) or the largest and mean score (YIQ, SSIM,\n"
    "FLIP), and\n"
    "the first differing pixel.\n"
    "Exit codes: 0 within tolerance, 1 different (sizes or channel counts included; for\n"
    "folders, any pair different, missing or new), 2 an error (an unreadable file, a usage\n"
    "error).\n";

/* The metrics by name, with their default thresholds. */
static const struct {
    const char *name;
    amp_image_metric metric;
    double threshold;
} metrics[] = {{"channel", AMP_IMAGE_METRIC_CHANNEL, 0},
               {"yiq", AMP_IMAGE_METRIC_YIQ, 0.1},
               {"ssim", AMP_IMAGE_METRIC_SSIM, 0.05},
               {"flip", AMP_IMAGE_METRIC_FLIP, 0.1}};

static int metric_named(const char *name)
{
    for (int i = 0; name && i < (int)(sizeof metrics / sizeof *metrics); i++)
        if (strcmp(metrics[i].name, name) == 0) return i;
    return -1;
}

static int metric_index(amp_image_metric m)
{
    for (int i = 0; i < (int)(sizeof metrics / sizeof *metrics); i++)
        if (metrics[i].metric == m) return i;
    return 0;
}

static const char *const tone_mappers[] = {"aces", "hable", "reinhard"};

static const char *const channel_names[5][4] = {
    {0}, {"gray"}, {"gray", "alpha"}, {"R", "G", "B"}, {"R", "G", "B", "A"}};

static double sample(const amp_image *im, int x, int y, int c)
{
    const unsigned char *row = (const unsigned char *)im->pixels + (size_t)y * im->stride;
    size_t i = (size_t)x * (size_t)im->channels + (size_t)c;
    return im->bits == 8 ? ((const uint8_t *)row)[i] : im->bits == 16 ? ((const uint16_t *)row)[i]
                                                                       : (double)((const float *)row)[i];
}

/* A sample at `bits` depth as the comparison saw it (ACTUAL converted to EXPECTED's). */
static double sample_at(const amp_image *im, int x, int y, int c, int bits)
{
    double v = sample(im, x, y, c);
    if (im->bits == bits) return v;
    double x01 = im->bits == 8 ? v / 255 : im->bits == 16 ? v / 65535 : v;
    if (bits == 32) return x01;
    if (im->bits == 8) return v * 257; /* 8 -> 16 exactly */
    if (im->bits == 16) return floor((v * 255 + 32767) / 65535);
    x01 = x01 > 0 ? (x01 < 1 ? x01 : 1) : 0;
    return floor(x01 * (bits == 16 ? 65535 : 255) + 0.5);
}

static void describe(const amp_image *im, char *buf, size_t n)
{
    static const char *const kinds[5] = {"", "gray", "gray+alpha", "RGB", "RGBA"};
    snprintf(buf, n, "%dx%d %s, %s", im->width, im->height, kinds[im->channels],
             im->bits == 32 ? "float" : im->bits == 16 ? "16-bit" : "8-bit");
}

static void print_values(const amp_image *im, int x, int y, int bits, bool json)
{
    fputs(json ? "[" : "(", stdout);
    for (int c = 0; c < im->channels; c++) printf("%s%.9g", c ? (json ? ", " : ", ") : "", sample_at(im, x, y, c, bits));
    fputs(json ? "]" : ")", stdout);
}

/* --server: the request's "id", a JSON value put first in its reply; NULL otherwise. */
static const char *reply_id;

/* Opens a JSON reply: {"id": ..., or {. */
static void json_open(void)
{
    printf(reply_id ? "{\"id\": %s, " : "{", reply_id ? reply_id : "");
}

/* An error that stops the comparison: exit 2, with a JSON object when asked. */
static int fail(bool json, const char *msg)
{
    if (json) {
        json_open();
        printf("\"result\": \"error\", \"error\": ");
        tool_json_string(msg);
        printf("}\n");
    }
    tool_error("diff", "%s", msg);
    return 2;
}

/* A file loaded on a thread of its own (the images decode side by side), or, with no
 * path, the default accelerator opened there (its start-up beside the decoding). */
typedef struct load_job {
    const char *path;
    amp_image *image;
    bool ok;
    char message[1024];
    pthread_t thread;
    bool started;
} load_job;

static void *load_one(void *arg)
{
    load_job *j = arg;
    j->ok = j->path ? amp_image_load(j->path, NULL, j->image) == AMP_OK : amp_default_view() != NULL;
    if (!j->ok) snprintf(j->message, sizeof j->message, "%s", amp_last_error());
    return NULL;
}

/* Starts jobs[1..n-1] on threads, runs jobs[0] here, waits for them all. */
static void load_all(load_job *jobs, int n)
{
    for (int i = 1; i < n; i++) jobs[i].started = pthread_create(&jobs[i].thread, NULL, load_one, &jobs[i]) == 0;
    load_one(&jobs[0]);
    for (int i = 1; i < n; i++) {
        if (jobs[i].started) pthread_join(jobs[i].thread, NULL);
        else load_one(&jobs[i]);
    }
}

/* One pair of files, compared and reported as text or JSON; the exit code. */
typedef struct pair_request {
    const char *files[2], *diff_path, *mask_path;
    bool json, aa;
    amp_image_draw_style style;
    amp_image_compare_desc desc;
} pair_request;

static int compare_files(const pair_request *q)
{
    const char *const *files = q->files, *diff_path = q->diff_path, *mask_path = q->mask_path;
    bool json = q->json, aa = q->aa;
    amp_image_compare_desc desc = q->desc;
    bool yiq = desc.metric == AMP_IMAGE_METRIC_YIQ, ssim = desc.metric == AMP_IMAGE_METRIC_SSIM;
    bool flip = desc.metric == AMP_IMAGE_METRIC_FLIP;
    int code = 2;
    amp_image e = {0}, a = {0}, m = {0};
    load_job jobs[4] = {{.path = files[0], .image = &e}, {.path = files[1], .image = &a}};
    int njobs = 2;
    if (mask_path) jobs[njobs++] = (load_job){.path = mask_path, .image = &m};
    if (desc.metric != AMP_IMAGE_METRIC_CHANNEL) jobs[njobs++] = (load_job){0}; /* the accelerator */
    load_all(jobs, njobs);
    for (int i = 0; i < njobs; i++)
        if (!jobs[i].ok) {
            amp_image_free(&e);
            amp_image_free(&a);
            amp_image_free(&m);
            return fail(json, jobs[i].message);
        }
    if (mask_path) desc.mask = &m;
    char de[96], da[96];
    describe(&e, de, sizeof de);
    describe(&a, da, sizeof da);
    if (e.width != a.width || e.height != a.height || e.channels != a.channels) {
        const char *what = e.width != a.width || e.height != a.height ? "size" : "channel count";
        if (json) {
            json_open();
            printf("\"result\": \"different\", \"reason\": \"%s mismatch\", \"expected\": ", what);
            tool_json_string(files[0]);
            printf(", \"actual\": ");
            tool_json_string(files[1]);
            printf(", \"expected_image\": ");
            tool_json_string(de);
            printf(", \"actual_image\": ");
            tool_json_string(da);
            printf("}\n");
        } else {
            printf("expected: %s (%s)\nactual:   %s (%s)\nresult: DIFFERENT (%s mismatch)\n", files[0], de, files[1],
                   da, what);
        }
        code = 1;
        goto done;
    }
    amp_image_compare_result r;
    amp_image picture = {0};
    amp_status st = diff_path ? amp_image_compare_draw(&e, &a, &desc, q->style, &r, &picture)
                              : amp_image_compare_images(&e, &a, &desc, &r);
    if (st != AMP_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        code = fail(json, msg);
        goto done;
    }
    char diff_error[1024] = "";
    if (diff_path && amp_image_save(diff_path, &picture, NULL) != AMP_OK)
        snprintf(diff_error, sizeof diff_error, "%s", amp_last_error());
    amp_image_free(&picture);
    double share = r.texels ? 100.0 * (double)r.differing_texels / (double)r.texels : 0;
    int fx = r.differing_texels ? r.first_difference.i[1] : 0, fy = r.differing_texels ? r.first_difference.i[0] : 0;
    const char *metric = metrics[metric_index(desc.metric)].name;
    if (json) {
        json_open();
        printf("\"result\": \"%s\", \"passed\": %s, \"equal\": %s, \"expected\": ", r.passed ? "match" : "different",
               r.passed ? "true" : "false", r.equal ? "true" : "false");
        tool_json_string(files[0]);
        printf(", \"actual\": ");
        tool_json_string(files[1]);
        printf(", \"width\": %d, \"height\": %d, \"channels\": %d, \"bits\": %d, \"metric\": \"%s\", \"threshold\": %.9g",
               e.width, e.height, e.channels, e.bits, metric, desc.tolerance);
        if (yiq) {
            printf(", \"antialiasing_ignored\": %s, \"antialiased_pixels\": %zu, \"max_score\": %.9g, "
                   "\"mean_score\": %.9g",
                   aa ? "true" : "false", r.antialiased_texels, r.max_score, r.mean_score);
        } else if (ssim) {
            printf(", \"ssim\": %.9g, \"max_score\": %.9g, \"mean_score\": %.9g", r.ssim, r.max_score,
                   r.mean_score);
        } else if (flip) {
            printf(", \"flip\": {\"mean\": %.9g, \"weighted_median\": %.9g, \"weighted_quartiles\": [%.9g, %.9g], "
                   "\"max\": %.9g, \"ppd\": %.9g", r.mean_score, r.weighted_median, r.weighted_quartiles[0],
                   r.weighted_quartiles[1], r.max_score, desc.ppd > 0 ? desc.ppd : 67.0206451);
            if (e.bits == 32)
                printf(", \"tone_mapper\": \"%s\", \"exposures\": {\"start\": %.9g, \"stop\": %.9g, \"count\": %d}",
                       tone_mappers[desc.tone_mapper], r.exposure_start, r.exposure_stop, r.exposures);
            printf(", \"histogram\": [");
            for (int k = 0; k < AMP_IMAGE_HISTOGRAM_BUCKETS; k++) printf("%s%zu", k ? ", " : "", r.histogram[k]);
            printf("]}, \"max_score\": %.9g, \"mean_score\": %.9g", r.max_score, r.mean_score);
        } else {
            printf(", \"max_diff\": {");
            for (int c = 0; c < e.channels; c++)
                printf("%s\"%s\": %.9g", c ? ", " : "", channel_names[e.channels][c], r.channel_max_abs_diff[c]);
            printf("}, \"tolerance\": %.9g, \"psnr\": ", desc.tolerance);
            if (isinf(r.psnr))
                printf("null");
            else
                printf("%.4f", r.psnr);
        }
        printf(", \"pixels\": %zu, \"differing_pixels\": %zu, \"differing_percent\": %.6g, \"allowed_pixels\": %zu, "
               "\"ignored_pixels\": %zu",
               r.texels, r.differing_texels, share, r.allowed_texels, r.ignored_texels);
        if (desc.window)
            printf(", \"window\": {\"size\": %d, \"x\": %d, \"y\": %d, \"differing_pixels\": %zu}", desc.window,
                   r.window_origin.i[1], r.window_origin.i[0], r.window_texels);
        printf(", \"first_difference\": ");
        if (r.differing_texels) {
            printf("{\"x\": %d, \"y\": %d, \"expected\": ", fx, fy);
            print_values(&e, fx, fy, e.bits, true);
            printf(", \"actual\": ");
            print_values(&a, fx, fy, e.bits, true);
            printf("}");
        } else {
            printf("null");
        }
        printf(", \"diff_image\": ");
        if (diff_path && !*diff_error)
            tool_json_string(diff_path);
        else
            printf("null");
        printf("}\n");
    } else {
        printf("expected: %s (%s)\nactual:   %s (%s)\n", files[0], de, files[1], da);
        if (yiq) {
            printf("metric: YIQ, threshold %.9g%s\n", desc.tolerance, aa ? ", anti-aliased pixels ignored" : "");
            printf("score: max %.6g, mean %.6g\n", r.max_score, r.mean_score);
            printf("pixels over %.9g: %zu of %zu (%.4g%%), %zu allowed\n", desc.tolerance, r.differing_texels,
                   r.texels, share, r.allowed_texels);
            if (aa) printf("anti-aliased pixels: %zu\n", r.antialiased_texels);
        } else if (ssim) {
            printf("metric: SSIM, threshold %.9g (of 1 - SSIM a pixel)\n", desc.tolerance);
            printf("SSIM: %.6f (1 - SSIM a pixel: max %.6g, mean %.6g)\n", r.ssim, r.max_score, r.mean_score);
            printf("pixels over %.9g: %zu of %zu (%.4g%%), %zu allowed\n", desc.tolerance, r.differing_texels,
                   r.texels, share, r.allowed_texels);
        } else if (flip) {
            printf("metric: %s, threshold %.9g, %.4g pixels per degree\n", e.bits == 32 ? "HDR-FLIP" : "LDR-FLIP",
                   desc.tolerance, desc.ppd > 0 ? desc.ppd : 67.0206451);
            if (e.bits == 32)
                printf("exposures: %d from %.4f to %.4f, %s\n", r.exposures, r.exposure_start, r.exposure_stop,
                       tone_mappers[desc.tone_mapper]);
            printf("FLIP: mean %.6f, weighted median %.6f, weighted quartiles %.6f %.6f, max %.6f\n", r.mean_score,
                   r.weighted_median, r.weighted_quartiles[0], r.weighted_quartiles[1], r.max_score);
            printf("pixels over %.9g: %zu of %zu (%.4g%%), %zu allowed\n", desc.tolerance, r.differing_texels,
                   r.texels, share, r.allowed_texels);
        } else {
            printf("max difference:");
            for (int c = 0; c < e.channels; c++)
                printf(" %s %.9g", channel_names[e.channels][c], r.channel_max_abs_diff[c]);
            printf("\npixels over %.9g: %zu of %zu (%.4g%%), %zu allowed\n", desc.tolerance, r.differing_texels,
                   r.texels, share, r.allowed_texels);
            if (isinf(r.psnr))
                printf("PSNR: inf (identical)\n");
            else
                printf("PSNR: %.2f dB\n", r.psnr);
        }
        if (r.ignored_texels) printf("ignored pixels: %zu\n", r.ignored_texels);
        if (desc.window)
            printf("densest %dx%d window: %zu differing pixels at (x %d, y %d)\n", desc.window, desc.window,
                   r.window_texels, r.window_origin.i[1], r.window_origin.i[0]);
        if (r.differing_texels) {
            printf("first difference: pixel (x %d, y %d): expected ", fx, fy);
            print_values(&e, fx, fy, e.bits, false);
            printf(", actual ");
            print_values(&a, fx, fy, e.bits, false);
            printf("\n");
        }
        if (diff_path && !*diff_error) printf("diff image: %s\n", diff_path);
        /* identical: a plain MATCH; within the tolerance or under the masks otherwise */
        bool identical = desc.metric != AMP_IMAGE_METRIC_CHANNEL ? r.max_score == 0 : r.max_abs_diff == 0;
        printf("result: %s\n", r.passed ? (identical ? "MATCH" : "MATCH (within tolerance)") : "DIFFERENT");
    }
    code = r.passed ? 0 : 1;
    if (*diff_error) code = fail(false, diff_error);
done:
    amp_image_free(&e);
    amp_image_free(&a);
    amp_image_free(&m);
    return code;
}

/* --ignore's list x1:y1-x2:y2,... (corners included) as rectangles; false on a

 * malformed one. */
static bool parse_regions(const char *v, amp_image_rect **out, int *count)
{
    *out = NULL;
    *count = 0;
    for (const char *p = v; p && *p;) {
        int x1, y1, x2, y2, used = 0;
        if (sscanf(p, "%d:%d-%d:%d%n", &x1, &y1, &x2, &y2, &used) != 4 || x2 < x1 || y2 < y1) return false;
        amp_image_rect *more = realloc(*out, sizeof **out * (size_t)(*count + 1));
        if (!more) return false;
        *out = more;
        (*out)[(*count)++] = (amp_image_rect){x1, y1, x2 - x1 + 1, y2 - y1 + 1};
        p += used;
        if (*p == ',') p++;
        else if (*p) return false;
    }
    return *count > 0;
}

/* A JSON value at *p (a string, unescaped into out, or a number, true, false or null,
 * copied as written), *p moved past it; false when malformed. */
static bool json_value(const char **p, char *out, size_t n, bool *is_string)
{
    const char *c = *p;
    size_t k = 0;
    *is_string = *c == '"';
    if (*c == '"') {
        for (c++; *c && *c != '"'; c++) {
            char ch = *c;
            if (ch == '\\') {
                c++;
                ch = *c == 'n' ? '\n' : *c == 't' ? '\t' : *c == '"' || *c == '\\' || *c == '/' ? *c : 0;
                if (!ch) return false; /* \u and the rest: no file name needs them */
            }
            if (k + 1 < n) out[k++] = ch;
        }
        if (*c != '"') return false;
        c++;
    } else {
        while (*c && strchr("+-.0123456789eEtruefalsn", *c)) {
            if (k + 1 < n) out[k++] = *c;
            c++;
        }
        if (!k) return false;
    }
    out[k] = '\0';
    *p = c;
    return true;
}

/* --server: a JSON object a line on stdin, {"expected": E, "actual": A} and any of "id",
 * "metric", "threshold", "aa", "on_white", "ignore", "window", "max_pixels", "diff",
 * "diff_mask", "heatmap"; one JSON reply a line, as --json prints, the "id" first. The command
 * line's options are each request's defaults; the accelerator is opened once. */
static int serve(const pair_request *defaults)
{
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        pair_request q = *defaults;
        q.json = true;
        char values[12][1024], id[1040] = "", err[256] = "";
        int nv = 0;
        amp_image_rect *regions = NULL;
        bool threshold_given = false;
        const char *c = line;
        while (*c == ' ' || *c == '\t') c++;
        if (*c == '\n' || !*c) continue;
        if (*c++ != '{') snprintf(err, sizeof err, "a request is one JSON object a line");
        while (!*err) {
            while (*c == ' ' || *c == ',') c++;
            if (*c == '}') break;
            char key[64];
            bool is_string;
            if (!json_value(&c, key, sizeof key, &is_string) || !is_string) {
                snprintf(err, sizeof err, "malformed JSON near '%.20s'", c);
                break;
            }
            while (*c == ' ') c++;
            if (nv == 12) {
                snprintf(err, sizeof err, "more than 12 fields in a request");
                break;
            }
            char *v = values[nv++];
            bool colon = *c++ == ':';
            c += strspn(c, " ");
            if (!colon || !json_value(&c, v, sizeof values[0], &is_string)) {
                snprintf(err, sizeof err, "malformed JSON value of \"%s\"", key);
                break;
            }
            double d;
            if (strcmp(key, "id") == 0) {
                size_t k = 0; /* as JSON again: a string quoted, its " and \\ escaped */
                if (is_string) id[k++] = '"';
                for (const char *t = v; *t && k < sizeof id - 4; t++) {
                    if (is_string && (*t == '"' || *t == '\\')) id[k++] = '\\';
                    id[k++] = (unsigned char)*t < 32 ? ' ' : *t;
                }
                if (is_string) id[k++] = '"';
                id[k] = '\0';
            }
            else if (strcmp(key, "expected") == 0) q.files[0] = v;
            else if (strcmp(key, "actual") == 0) q.files[1] = v;
            else if (strcmp(key, "diff") == 0) q.diff_path = v, q.style = AMP_IMAGE_DRAW_OVERLAY;
            else if (strcmp(key, "diff_mask") == 0) q.diff_path = v, q.style = AMP_IMAGE_DRAW_MASK;
            else if (strcmp(key, "heatmap") == 0) q.diff_path = v, q.style = AMP_IMAGE_DRAW_HEATMAP;
            else if (strcmp(key, "aa") == 0) q.desc.ignore_antialiased = q.aa = strcmp(v, "true") == 0;
            else if (strcmp(key, "on_white") == 0) q.desc.blend_on_white = strcmp(v, "true") == 0;
            else if (strcmp(key, "metric") == 0 && metric_named(v) >= 0)
                q.desc.metric = metrics[metric_named(v)].metric;
            else if (strcmp(key, "ppd") == 0 && tool_parse_double(v, &d) && d > 0)
                q.desc.ppd = d;
            else if (strcmp(key, "threshold") == 0 && tool_parse_double(v, &d) && d >= 0)
                q.desc.tolerance = d, threshold_given = true;
            else if (strcmp(key, "max_pixels") == 0 && tool_parse_double(v, &d) && d >= 0)
                q.desc.max_pixels = (size_t)d;
            else if (strcmp(key, "window") == 0 && tool_parse_double(v, &d) && d >= 1 && d <= 65536)
                q.desc.window = (int)d;
            else if (strcmp(key, "ignore") == 0 && parse_regions(v, &regions, &q.desc.ignore_count))
                q.desc.ignore = regions;
            else snprintf(err, sizeof err, "\"%s\": \"%.100s\" is not a request field or not its kind of value", key, v);
        }
        if (!*err && (!q.files[0] || !q.files[1])) snprintf(err, sizeof err, "a request needs \"expected\" and \"actual\"");
        if (!threshold_given && q.desc.metric != defaults->desc.metric)
            q.desc.tolerance = metrics[metric_index(q.desc.metric)].threshold;
        reply_id = *id ? id : NULL;
        if (*err) {
            fail(true, err);
        } else {
            compare_files(&q);
        }
        reply_id = NULL;
        free(regions);
        fflush(stdout);
    }
    return 0;
}

int ampvk_diff_main(int argc, char **argv)
{
    if (tool_wants_help(argc, argv)) {
        fputs(help, stdout);
        return 0;
    }
    const char *files[2] = {NULL, NULL}, *diff_path = NULL, *mask_path = NULL, *report = NULL, *junit = NULL;
    int nfiles = 0;
    bool json = false, threshold_given = false, aa = false, update = false, server = false;
    amp_image_draw_style style = AMP_IMAGE_DRAW_OVERLAY;
    amp_image_compare_desc desc = {0};
    amp_image_rect *regions = NULL;
    int code = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (tool_option(argc, argv, &i, "--max-diff", &v) || tool_option(argc, argv, &i, "--threshold", &v)) {
            double d;
            if (!tool_parse_double(v, &d) || d < 0) {
                free(regions);
                return tool_usage_error("diff", "%s must be a number >= 0, not '%s'", a, v ? v : "");
            }
            desc.tolerance = d;
            threshold_given = true;
        } else if (tool_option(argc, argv, &i, "--metric", &v)) {
            if (metric_named(v) < 0) {
                free(regions);
                return tool_usage_error("diff", "--metric must be channel, yiq, ssim or flip, not '%s'", v ? v : "");
            }
            desc.metric = metrics[metric_named(v)].metric;
        } else if (tool_option(argc, argv, &i, "--ppd", &v)) {
            if (!tool_parse_double(v, &desc.ppd) || !(desc.ppd > 0 && desc.ppd < 1e6)) {
                free(regions);
                return tool_usage_error("diff", "--ppd must be pixels per degree > 0, not '%s'", v ? v : "");
            }
        } else if (tool_option(argc, argv, &i, "--tone-mapper", &v)) {
            int t = 0;
            while (t < 3 && !(v && strcmp(v, tone_mappers[t]) == 0)) t++;
            if (t == 3) {
                free(regions);
                return tool_usage_error("diff", "--tone-mapper must be aces, hable or reinhard, not '%s'", v ? v : "");
            }
            desc.tone_mapper = (amp_image_tone_mapper)t;
        } else if (tool_option(argc, argv, &i, "--exposures", &v)) {
            char tail;
            if (!v || sscanf(v, "%lf:%lf:%d%c", &desc.exposure_start, &desc.exposure_stop, &desc.exposures, &tail) != 3 ||
                desc.exposures < 1 || desc.exposures > 1000 || !(desc.exposure_start <= desc.exposure_stop)) {
                free(regions);
                return tool_usage_error("diff", "--exposures takes START:STOP:N (START <= STOP, N 1..1000), not '%s'",
                                        v ? v : "");
            }
        } else if (tool_option(argc, argv, &i, "--max-pixels", &v)) {
            size_t n = v ? strlen(v) : 0;
            double d;
            char num[64];
            if (n && n < sizeof num && v[n - 1] == '%') {
                memcpy(num, v, n - 1);
                num[n - 1] = '\0';
                if (!tool_parse_double(num, &d) || d < 0 || d > 100) {
                    free(regions);
                    return tool_usage_error("diff", "--max-pixels %s: the percentage must be 0..100", v);
                }
                desc.max_fraction = d / 100;
            } else {
                long k;
                if (!tool_parse_long(v, 0, LONG_MAX, &k)) {
                    free(regions);
                    return tool_usage_error("diff", "--max-pixels must be a count or a percentage (2%%), not '%s'",
                                            v ? v : "");
                }
                desc.max_pixels = (size_t)k;
            }
        } else if (tool_option(argc, argv, &i, "--ignore", &v)) {
            free(regions);
            regions = NULL;
            if (!v || !parse_regions(v, &regions, &desc.ignore_count)) {
                free(regions);
                return tool_usage_error("diff", "--ignore takes rectangles x1:y1-x2:y2,... (x1 <= x2, y1 <= y2), not '%s'",
                                        v ? v : "");
            }
            desc.ignore = regions;
        } else if (tool_option(argc, argv, &i, "--mask", &v)) {
            if (!v) {
                free(regions);
                return tool_usage_error("diff", "--mask needs an image file (M.png)");
            }
            mask_path = v;
        } else if (tool_option(argc, argv, &i, "--window", &v)) {
            long k;
            if (!tool_parse_long(v, 1, 65536, &k)) {
                free(regions);
                return tool_usage_error("diff", "--window must be a size 1..65536, not '%s'", v ? v : "");
            }
            desc.window = (int)k;
        } else if (tool_option(argc, argv, &i, "--diff", &v) || tool_option(argc, argv, &i, "--diff-mask", &v) ||
                   tool_option(argc, argv, &i, "--heatmap", &v)) {
            if (!v) {
                free(regions);
                return tool_usage_error("diff", "%s needs a file name (OUT.png)", a);
            }
            diff_path = v;
            style = strncmp(a, "--diff-mask", 11) == 0 ? AMP_IMAGE_DRAW_MASK
                    : strncmp(a, "--heatmap", 9) == 0  ? AMP_IMAGE_DRAW_HEATMAP
                                                       : AMP_IMAGE_DRAW_OVERLAY;
        } else if (tool_option(argc, argv, &i, "--report", &v) || tool_option(argc, argv, &i, "--junit", &v)) {
            if (!v) {
                free(regions);
                return tool_usage_error("diff", "%s needs a %s", a, strncmp(a, "--report", 8) == 0 ? "folder" : "file");
            }
            *(strncmp(a, "--report", 8) == 0 ? &report : &junit) = v;
        } else if (strcmp(a, "--update") == 0) {
            update = true;
        } else if (strcmp(a, "--server") == 0) {
            server = true;
        } else if (strcmp(a, "--aa") == 0) {
            aa = true;
        } else if (strcmp(a, "--on-white") == 0) {
            desc.blend_on_white = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--") == 0) {
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            free(regions);
            return tool_usage_error("diff", "unknown option '%s'", a);
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            free(regions);
            return tool_usage_error("diff", "unexpected argument '%s' (give EXPECTED and ACTUAL)", a);
        }
    }
    bool yiq = desc.metric == AMP_IMAGE_METRIC_YIQ, channel = desc.metric == AMP_IMAGE_METRIC_CHANNEL;
    const char *misuse = server && nfiles ? "--server reads its files from stdin"
                         : nfiles < 2 && !server ? (nfiles ? "missing ACTUAL" : "missing EXPECTED and ACTUAL")
                         : (aa || desc.blend_on_white) && !yiq ? "--aa and --on-white need --metric yiq"
                         : !channel && desc.tolerance > 1 ? "--threshold of --metric yiq, ssim or flip must be 0..1"
                                                              : NULL;
    if (misuse) {
        free(regions);
        return tool_usage_error("diff", "%s", misuse);
    }
    if (diff_path && amp_image_format_from_path(diff_path) == AMP_IMAGE_FORMAT_AUTO) {
        free(regions);
        return tool_usage_error("diff",
                                "--diff %s: no image extension ampvk writes (.png, .jpg, .webp, .tif, .exr, .bmp, .tga)",
                                diff_path);
    }
    if (!threshold_given) desc.tolerance = metrics[metric_index(desc.metric)].threshold;
    desc.ignore_antialiased = aa;
    if (server) {
        pair_request q = {.json = true, .aa = aa, .desc = desc};
        code = desc.metric != AMP_IMAGE_METRIC_CHANNEL && !amp_default_view() ? tool_error("diff", "%s", amp_last_error())
                                                                               : serve(&q);
        free(regions);
        return code;
    }
    struct stat st0, st1;
    bool dir0 = stat(files[0], &st0) == 0 && S_ISDIR(st0.st_mode), dir1 = stat(files[1], &st1) == 0 && S_ISDIR(st1.st_mode);
    const char *folder_only = report ? "--report" : junit ? "--junit" : update ? "--update" : NULL;
    if (dir0 != dir1 || (!dir0 && folder_only) || (dir0 && (diff_path || mask_path))) {
        free(regions);
        return tool_usage_error("diff", "%s", dir0 != dir1 ? "give two folders or two files"
                                             : !dir0     ? "--report, --junit and --update compare folders"
                                                         : "--diff, --diff-mask and --mask compare two files");
    }
    if (dir0) {
        if (desc.metric != AMP_IMAGE_METRIC_CHANNEL && !amp_default_view()) {
            tool_error("diff", "%s", amp_last_error());
            free(regions);
            return 2;
        }
        diff_folder_options fo = {.golden = files[0], .actual = files[1], .desc = &desc, .report = report,
                                  .junit = junit, .json = json, .update = update};
        int rc = ampvk_diff_folders(&fo);
        free(regions);
        return rc;
    }

    pair_request q = {.files = {files[0], files[1]}, .diff_path = diff_path, .mask_path = mask_path, .json = json,
                      .style = style, .aa = aa, .desc = desc};
    code = compare_files(&q);
    free(regions);
    return code;
}
