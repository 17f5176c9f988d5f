/*
 * ampvk-filter: applies an image filter to a PNG on an accelerator.
 *
 *     ampvk-filter [--filter invert|grayscale|gaussian|sobel] [--accelerator KEY]
 *                  input.png output.png
 *
 * The default filter is gaussian, the default accelerator ampvk's default
 * (AMPVK_DEFAULT_ACCELERATOR, else the best GPU, else lavapipe). Prints the
 * accelerator and the time taken; exits 1 with a message on any error. With
 * AMPVK_VALIDATION=1, a validation message makes the run fail too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ampvk/ampvk.h"
#include "filters.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int usage(FILE *f)
{
    fprintf(f, "usage: ampvk-filter [--filter invert|grayscale|gaussian|sobel] "
               "[--accelerator KEY] input.png output.png\n");
    return f == stdout ? 0 : 1;
}

static void print_log(void *user, amp_log_level level, amp_status s, const char *msg)
{
    (void)user;
    (void)level;
    (void)s;
    if (strncmp(msg, "validation:", 11) == 0) fprintf(stderr, "%s\n", msg);
}

int main(int argc, char **argv)
{
    const char *filter = "gaussian", *accelerator = NULL, *files[2];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout);
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--accelerator") == 0 && i + 1 < argc) accelerator = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) return usage(stderr);
        else if (nfiles < 2) files[nfiles++] = argv[i];
        else return usage(stderr);
    }
    if (nfiles != 2) return usage(stderr);
    filter_kind kind = filter_from_name(filter);
    if (kind == FILTER_COUNT) {
        fprintf(stderr, "ampvk-filter: unknown filter '%s'\n", filter);
        return usage(stderr);
    }
    /* Packed pixels are read as uint32_t with R in the low byte. */
    const uint32_t probe = 1;
    if (*(const unsigned char *)&probe != 1) {
        fprintf(stderr, "ampvk-filter: needs a little-endian host\n");
        return 1;
    }
    amp_set_log_callback(print_log, NULL, AMP_LOG_WARN);

    int rc = 1;
    amp_kernel *kernel = NULL;
    uint32_t *pixels = NULL, *result = NULL;
    if (accelerator && amp_accelerator_set_default(accelerator) != AMP_OK) goto fail;
    int cols, rows;
    if (!(pixels = filter_load_png(files[0], &rows, &cols))) goto fail;
    if (!(result = malloc((size_t)rows * cols * sizeof *result))) {
        fprintf(stderr, "ampvk-filter: out of memory for %dx%d pixels\n", cols, rows);
        goto done;
    }

    amp_accelerator_view *view = amp_default_view();
    amp_accelerator_info info;
    if (!view || amp_accelerator_get_info(amp_view_accelerator(view), &info) != AMP_OK) goto fail;
    printf("accelerator: %s%s\n", info.description, info.is_emulated ? " (emulated)" : "");

    double t0 = now_ms();
    kernel = filter_kernel_create(view, kind);
    if (!kernel) goto fail;
    double t1 = now_ms();
    if (filter_run(view, kernel, pixels, result, rows, cols) != AMP_OK) goto fail;
    double t2 = now_ms();
    printf("%s: %dx%d pixels, kernel ready in %.1f ms (%s), filtered in %.1f ms\n",
           filter_name(kind), cols, rows, t1 - t0, amp_kernel_from_cache(kernel) ? "cached" : "compiled",
           t2 - t1);

    if (filter_save_png(files[1], result, rows, cols) != AMP_OK) goto fail;
    printf("wrote %s\n", files[1]);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "ampvk-filter: %s\n", amp_last_error());
done:
    amp_kernel_destroy(&kernel);
    free(result);
    free(pixels);
    uint64_t v = amp_validation_message_count();
    if (v) {
        fprintf(stderr, "ampvk-filter: %" PRIu64 " validation messages\n", v);
        rc = 1;
    }
    return rc;
}
