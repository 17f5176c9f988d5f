/*
 * ampvk diff: compares an image with its expected (golden) image.
 *
 *     ampvk diff EXPECTED ACTUAL [--max-diff N] [--max-pixels N|P%] [--diff OUT.png] [--json]
 *
 * Exit codes as ImageMagick's compare: 0 the images match within the tolerance, 1 they
 * differ (a size or channel-count mismatch included), 2 they could not be compared
 * (an unreadable or corrupt file, a usage error). The comparison runs on the host
 * (amp_image_compare_images): no accelerator is needed.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const char help[] =
    "usage: ampvk diff EXPECTED ACTUAL [--max-diff N] [--max-pixels N|P%] [--diff OUT.png] [--json]\n"
    "\n"
    "Compares the image ACTUAL with EXPECTED (PNG, JPEG, BMP, TGA, PSD or Radiance HDR),\n"
    "channel by channel in steps of EXPECTED's depth (0..255 for 8 bits, 0..65535 for\n"
    "16; values for HDR); ACTUAL is converted to that depth first.\n"
    "\n"
    "  --max-diff N      the largest difference allowed in a channel (default 0: exact)\n"
    "  --max-pixels N    how many pixels may differ by more than --max-diff (default 0);\n"
    "  --max-pixels P%   or what percentage of them\n"
    "  --diff OUT.png    write the differing pixels in red over a faded gray EXPECTED\n"
    "  --json            print the result as one JSON object\n"
    "\n"
    "Prints the largest difference per channel, how many pixels (and what share)\n"
    "exceed --max-diff, the PSNR and the first differing pixel.\n"
    "Exit codes: 0 within tolerance, 1 different (sizes or channel counts included),\n"
    "2 an error (an unreadable file, a usage error).\n";

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

/* An error that stops the comparison: exit 2, with a JSON object when asked. */
static int fail(bool json, const char *msg)
{
    if (json) {
        printf("{\"result\": \"error\", \"error\": ");
        tool_json_string(msg);
        printf("}\n");
    }
    tool_error("diff", "%s", msg);
    return 2;
}

int ampvk_diff_main(int argc, char **argv)
{
    if (tool_wants_help(argc, argv)) {
        fputs(help, stdout);
        return 0;
    }
    const char *files[2] = {NULL, NULL}, *diff_path = NULL;
    int nfiles = 0;
    bool json = false;
    amp_image_compare_desc desc = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (tool_option(argc, argv, &i, "--max-diff", &v)) {
            double d;
            if (!tool_parse_double(v, &d) || d < 0)
                return tool_usage_error("diff", "--max-diff must be a number >= 0, not '%s'", v ? v : "");
            desc.tolerance = d;
        } else if (tool_option(argc, argv, &i, "--max-pixels", &v)) {
            size_t n = v ? strlen(v) : 0;
            double d;
            char num[64];
            if (n && n < sizeof num && v[n - 1] == '%') {
                memcpy(num, v, n - 1);
                num[n - 1] = '\0';
                if (!tool_parse_double(num, &d) || d < 0 || d > 100)
                    return tool_usage_error("diff", "--max-pixels %s: the percentage must be 0..100", v);
                desc.max_fraction = d / 100;
            } else {
                long k;
                if (!tool_parse_long(v, 0, LONG_MAX, &k))
                    return tool_usage_error("diff", "--max-pixels must be a count or a percentage (2%%), not '%s'",
                                            v ? v : "");
                desc.max_pixels = (size_t)k;
            }
        } else if (tool_option(argc, argv, &i, "--diff", &v)) {
            if (!v) return tool_usage_error("diff", "--diff needs a file name (OUT.png)");
            diff_path = v;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--") == 0) {
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            return tool_usage_error("diff", "unknown option '%s'", a);
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            return tool_usage_error("diff", "unexpected argument '%s' (give EXPECTED and ACTUAL)", a);
        }
    }
    if (nfiles < 2) return tool_usage_error("diff", "missing %s", nfiles ? "ACTUAL" : "EXPECTED and ACTUAL");
    if (diff_path && amp_image_format_from_path(diff_path) == AMP_IMAGE_FORMAT_AUTO)
        return tool_usage_error("diff", "--diff %s: no image extension ampvk writes (.png, .bmp, .tga, .jpg)",
                                diff_path);

    amp_image e = {0}, a = {0};
    if (amp_image_load(files[0], NULL, &e) != AMP_OK || amp_image_load(files[1], NULL, &a) != AMP_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        amp_image_free(&e);
        return fail(json, msg);
    }
    char de[96], da[96];
    describe(&e, de, sizeof de);
    describe(&a, da, sizeof da);
    int code;
    if (e.width != a.width || e.height != a.height || e.channels != a.channels) {
        const char *what = e.width != a.width || e.height != a.height ? "size" : "channel count";
        if (json) {
            printf("{\"result\": \"different\", \"reason\": \"%s mismatch\", \"expected\": ", what);
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
        amp_image_free(&e);
        amp_image_free(&a);
        return 1;
    }
    amp_image_compare_result r;
    if (amp_image_compare_images(&e, &a, &desc, &r) != AMP_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", amp_last_error());
        amp_image_free(&e);
        amp_image_free(&a);
        return fail(json, msg);
    }
    char diff_error[1024] = "";
    if (diff_path) {
        amp_image d;
        if (amp_image_diff(&e, &a, desc.tolerance, &d) != AMP_OK || amp_image_save(diff_path, &d, NULL) != AMP_OK)
            snprintf(diff_error, sizeof diff_error, "%s", amp_last_error());
        amp_image_free(&d);
    }
    double share = r.texels ? 100.0 * (double)r.differing_texels / (double)r.texels : 0;
    int fx = r.differing_texels ? r.first_difference.i[1] : 0, fy = r.differing_texels ? r.first_difference.i[0] : 0;
    if (json) {
        printf("{\"result\": \"%s\", \"passed\": %s, \"equal\": %s, \"expected\": ", r.passed ? "match" : "different",
               r.passed ? "true" : "false", r.equal ? "true" : "false");
        tool_json_string(files[0]);
        printf(", \"actual\": ");
        tool_json_string(files[1]);
        printf(", \"width\": %d, \"height\": %d, \"channels\": %d, \"bits\": %d, \"max_diff\": {", e.width, e.height,
               e.channels, e.bits);
        for (int c = 0; c < e.channels; c++)
            printf("%s\"%s\": %.9g", c ? ", " : "", channel_names[e.channels][c], r.channel_max_abs_diff[c]);
        printf("}, \"tolerance\": %.9g, \"pixels\": %zu, \"differing_pixels\": %zu, \"differing_percent\": %.6g, "
               "\"allowed_pixels\": %zu, \"psnr\": ",
               desc.tolerance, r.texels, r.differing_texels, share, r.allowed_texels);
        if (isinf(r.psnr))
            printf("null");
        else
            printf("%.4f", r.psnr);
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
        printf("max difference:");
        for (int c = 0; c < e.channels; c++)
            printf(" %s %.9g", channel_names[e.channels][c], r.channel_max_abs_diff[c]);
        printf("\npixels over %.9g: %zu of %zu (%.4g%%), %zu allowed\n", desc.tolerance, r.differing_texels, r.texels,
               share, r.allowed_texels);
        if (isinf(r.psnr))
            printf("PSNR: inf (identical)\n");
        else
            printf("PSNR: %.2f dB\n", r.psnr);
        if (r.differing_texels) {
            printf("first difference: pixel (x %d, y %d): expected ", fx, fy);
            print_values(&e, fx, fy, e.bits, false);
            printf(", actual ");
            print_values(&a, fx, fy, e.bits, false);
            printf("\n");
        }
        if (diff_path && !*diff_error) printf("diff image: %s\n", diff_path);
        /* r.equal: no channel beyond the tolerance; a plain MATCH is for identical images */
        bool identical = true;
        for (int c = 0; c < e.channels; c++)
            if (r.channel_max_abs_diff[c] != 0) identical = false;
        printf("result: %s\n", r.passed ? (identical ? "MATCH" : "MATCH (within tolerance)") : "DIFFERENT");
    }
    code = r.passed ? 0 : 1;
    if (*diff_error) code = fail(false, diff_error);
    amp_image_free(&e);
    amp_image_free(&a);
    return code;
}
