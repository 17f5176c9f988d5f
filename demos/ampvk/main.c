/*
 * ampvk: the command-line tool of the ampvk library.
 *
 *     ampvk info   [--json]
 *     ampvk filter IN OUT FILTER[:key=value,...] [FILTER...]
 *     ampvk diff   EXPECTED ACTUAL [--max-diff N] [--max-pixels N|P%] [--diff OUT.png] [--json]
 *     ampvk bench  [--json] [--device SPEC] [--size-mb N] [--filters] [--only SECTIONS] [--image FILE.png]
 *
 * `ampvk --help` and `ampvk CMD --help` explain each; see tool.h for exit codes.
 */
#include <errno.h>
#include <math.h>
#include <dirent.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "tool.h"

const char *tool_program = "ampvk";

static const char help[] =
    "usage: ampvk COMMAND [ARGS...]\n"
    "\n"
    "ampvk runs image filters, golden-image diffs and benchmarks on Vulkan accelerators\n"
    "(GPUs, or lavapipe on the CPU).\n"
    "\n"
    "commands:\n"
    "  info    the accelerators, the default marked, their limits and features\n"
    "  filter  run a chain of built-in filters on an image or a folder of images\n"
    "  diff    compare an image with its expected (golden) image\n"
    "  bench   time ampvk's transfers, dispatches and every built-in filter\n"
    "\n"
    "`ampvk COMMAND --help` explains a command. The default accelerator is\n"
    "AMPVK_DEFAULT_ACCELERATOR's (an index, a device path or a name substring),\n"
    "else the first discrete GPU; --device SPEC picks another.\n";

static void vmessage(const char *cmd, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* one line: a message from the library may hold newlines (a compile log) */
    for (char *p = msg; *p; p++)
        if (*p == '\n') *p = ' ';
    fprintf(stderr, "%s%s%s: %s\n", tool_program, cmd ? " " : "", cmd ? cmd : "", msg);
}

int tool_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s%s%s: %s (see `%s%s%s --help`)\n", tool_program, cmd ? " " : "", cmd ? cmd : "", msg,
            tool_program, cmd ? " " : "", cmd ? cmd : "");
    return 2;
}

int tool_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    return 1;
}

bool tool_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    }
    return false;
}

bool tool_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return false;
    if (a[n] == '=') {
        *value = a + n + 1;
        return true;
    }
    if (a[n] != '\0') return false;
    if (*i + 1 >= argc) {
        *value = NULL;
        return true;
    }
    *value = argv[++*i];
    return true;
}

bool tool_parse_long(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool tool_parse_double(const char *s, double *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

int tool_select_device(const char *cmd, const char *spec)
{
    if (amp_accelerator_set_default(spec) != AMP_OK)
        return tool_error(cmd, "--device %s: %s", spec, amp_last_error());
    return 0;
}

/* Writes s as a JSON string: quotes, escapes, and U+FFFD for bytes that are not UTF-8. */
void tool_json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            printf("\\%c", c);
            p++;
        } else if (c < 0x20) {
            printf("\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            putchar((int)c);
            p++;
        } else {
            int n = c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
            int k = 0;
            while (n > 0 && k < n && (p[k + 1] & 0xc0) == 0x80) k++;
            if (n > 0 && k == n) {
                fwrite(p, 1, (size_t)n + 1, stdout);
                p += n + 1;
            } else {
                fputs("\\ufffd", stdout);
                p++;
            }
        }
    }
    putchar('"');
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Adds the image files under root/rel to names (relative paths), descending into
 * folders when recursive. False when out of memory or a folder cannot be read. */
static bool walk_images(const char *root, const char *rel, bool recursive, char ***names, size_t *n, size_t *cap)
{
    size_t len = strlen(root) + strlen(rel) + 2;
    char *dir = malloc(len);
    if (!dir) return false;
    snprintf(dir, len, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    bool ok = d != NULL;
    struct dirent *de;
    while (ok && (de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        size_t plen = strlen(dir) + strlen(de->d_name) + 2, rlen = strlen(rel) + strlen(de->d_name) + 2;
        char *path = malloc(plen), *name = malloc(rlen);
        struct stat st;
        if (!path || !name) ok = false;
        if (ok) {
            snprintf(path, plen, "%s/%s", dir, de->d_name);
            snprintf(name, rlen, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        }
        bool found = ok && stat(path, &st) == 0;
        if (found && S_ISDIR(st.st_mode) && recursive) {
            ok = walk_images(root, name, recursive, names, n, cap);
        } else if (found && S_ISREG(st.st_mode) && amp_image_format_from_path(de->d_name) != AMP_IMAGE_FORMAT_AUTO) {
            char **more = *n == *cap ? realloc(*names, (*cap = *cap ? 2 * *cap : 64) * sizeof *more) : *names;
            if (!more) ok = false;
            else {
                *names = more;
                (*names)[(*n)++] = name;
                name = NULL;
            }
        }
        free(path);
        free(name);
    }
    if (d) closedir(d);
    free(dir);
    return ok;
}

long tool_list_images(const char *dir, bool recursive, char ***out)
{
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool ok = walk_images(dir, "", recursive, &names, &n, &cap);
    if (n) qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    if (!ok && n == 0) {
        free(names);
        *out = NULL;
        return -1;
    }
    return (long)n;
}

double tool_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* A folder's images are allocated and freed by the thousand, megabytes each, on
       many threads: glibc would hand each back to the system and fault its pages in
       again for the next. Kept instead (NVIDIA H200 host, 200 1920x1080 PNGs through
       gaussian:sigma=2: 120-126 -> 137-140 images/s). The largest threshold glibc
       takes is 32 MiB; larger buffers (a 4K RGBA image's) are mapped as before. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {{"info", ampvk_info_main},
                    {"filter", ampvk_filter_main},
                    {"diff", ampvk_diff_main},
                    {"bench", ampvk_bench_main}};
    if (argc < 2) return tool_usage_error(NULL, "missing COMMAND (info, filter, diff or bench)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(help, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("ampvk %d.%d.%d\n", AMPVK_VERSION_MAJOR, AMPVK_VERSION_MINOR, AMPVK_VERSION_PATCH);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    return tool_usage_error(NULL, "unknown command '%s' (info, filter, diff or bench)", argv[1]);
}
