/* A small test harness: REQUIRE macros that print both values, and a check at
 * exit that the Vulkan validation layer said nothing. Exit code 77 = skipped. */
#ifndef AMPVK_TEST_H
#define AMPVK_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ampvk/ampvk.h"

/* src/vulkan/builtin.c's switch for tests, hidden in the shared library (so weak: NULL
 * where a test links that, and its forced pass is skipped): textures made while it is
 * on take the GPUs' paths on CPU devices too (copies by shader, PNG rows filtered on
 * the device). */
__attribute__((weak)) void amp__force_shader_image_copy(bool on);

static int test_failures;
static int test_checks;

#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: REQUIRE(%s) failed (last error: %s)\n", __FILE__, __LINE__, #cond, \
                    amp_last_error());                                                             \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

/* Each operand is evaluated once (it may be a call with side effects). */
#define REQUIRE_CMP(a, op, b, fmt)                                                                 \
    do {                                                                                           \
        __typeof__(a) a_ = (a);                                                                    \
        __typeof__(b) b_ = (b);                                                                    \
        test_checks++;                                                                             \
        if (!(a_ op b_)) {                                                                         \
            fprintf(stderr, "%s:%d: REQUIRE %s %s %s failed: " fmt " vs " fmt "\n", __FILE__, __LINE__, \
                    #a, #op, #b, a_, b_);                                                          \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

#define REQUIRE_INT(a, b) REQUIRE_CMP((long long)(a), ==, (long long)(b), "%lld")
#define REQUIRE_OK(expr)                                                                           \
    do {                                                                                           \
        amp_status s_ = (expr);                                                                    \
        test_checks++;                                                                             \
        if (s_ != AMP_OK) {                                                                        \
            fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #expr, amp_status_name(s_), \
                    amp_last_error());                                                             \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)
/* Requires a call to fail with status st and a message containing text. */
#define REQUIRE_FAIL(expr, st, text)                                                               \
    do {                                                                                           \
        amp_status s_ = (expr);                                                                    \
        test_checks++;                                                                             \
        if (s_ != (st) || !strstr(amp_last_error(), (text))) {                                     \
            fprintf(stderr, "%s:%d: %s gave %s \"%s\"; wanted %s with \"%s\"\n", __FILE__, __LINE__, #expr, \
                    amp_status_name(s_), amp_last_error(), amp_status_name(st), (text));           \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)
/* The same for a call returning a pointer (NULL on failure). */
#define REQUIRE_NULL_FAIL(expr, st, text) REQUIRE_FAIL((expr) ? AMP_OK : amp_last_status(), st, text)
#define REQUIRE_ARRAY_INT(got, want, n)                                                            \
    do {                                                                                           \
        for (size_t i_ = 0; i_ < (size_t)(n); i_++) {                                              \
            test_checks++;                                                                         \
            if ((long long)(got)[i_] != (long long)(want)[i_]) {                                   \
                fprintf(stderr, "%s:%d: %s[%zu] = %lld, expected %lld\n", __FILE__, __LINE__, #got, i_, \
                        (long long)(got)[i_], (long long)(want)[i_]);                              \
                test_failures++;                                                                   \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* A small deterministic generator (xorshift32) for test data; a test may reseed it. */
static uint32_t test_rng_state = 12345;
static inline uint32_t test_rand(void)
{
    test_rng_state ^= test_rng_state << 13;
    test_rng_state ^= test_rng_state >> 17;
    test_rng_state ^= test_rng_state << 5;
    return test_rng_state;
}

static void test_log(void *user, amp_log_level level, amp_status s, const char *msg)
{
    (void)user;
    (void)s;
    if (strncmp(msg, "validation:", 11) == 0 || level <= AMP_LOG_WARN)
        if (strncmp(msg, "validation:", 11) == 0) fprintf(stderr, "%s\n", msg);
}

static inline void test_begin(void) { amp_set_log_callback(test_log, NULL, AMP_LOG_WARN); }

/* Ends the test: fails on any failed check or validation message. */
static inline int test_end(void)
{
    uint64_t v = amp_validation_message_count();
    if (v) {
        fprintf(stderr, "%" PRIu64 " validation messages\n", v);
        test_failures++;
    }
    if (test_failures) {
        fprintf(stderr, "FAILED: %d of %d checks\n", test_failures, test_checks);
        return 1;
    }
    printf("ok: %d checks\n", test_checks);
    return 0;
}

/* Skips the test (exit 77) when there is no accelerator. */
/* Whether name matches pattern: equal, or (a pattern ending in '*') starting with the
 * rest (profile entries and trace spans named after a shader that varies by device). */
static inline bool test_name_matches(const char *name, const char *pattern)
{
    size_t len = strlen(pattern);
    return len > 0 && pattern[len - 1] == '*' ? strncmp(name, pattern, len - 1) == 0 : strcmp(name, pattern) == 0;
}

static inline amp_accelerator_view *test_view(void)
{
    amp_accelerator_view *v = amp_default_view();
    if (!v) {
        fprintf(stderr, "skipped: no accelerator (%s)\n", amp_last_error());
        exit(77);
    }
    return v;
}

/* Whether the device flushes subnormals of type (AMP_FLOAT or AMP_DOUBLE): a subnormal
 * times 1, both read from memory (a constant 1 would be folded away), comes back as zero. */
static inline bool test_flushes_subnormals(amp_accelerator_view *v, amp_type type)
{
    bool dbl = type == AMP_DOUBLE, flushed = false;
    double d[2] = {0x1p-1070, 1};
    float f[2] = {0x1p-140f, 1};
    amp_array_view *x = amp_array_view_create(amp_extent1(2), type, 0, dbl ? (void *)d : (void *)f);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = "flush probe",
                                                             .params = dbl ? "array_view<double, 1> x"
                                                                           : "array_view<float, 1> x",
                                                             .body = "if (idx == 0) x(0) = x(0) * x(1);"});
    REQUIRE(x && k);
    if (x && k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k, AMP_ARGS(AMP_VIEW("x", x))));
        REQUIRE_OK(amp_array_view_synchronize(x));
        flushed = dbl ? d[0] == 0 : f[0] == 0;
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&x);
    return flushed;
}

/* The first `max` bytes of a file, malloc'ed, their count in *size; NULL (and a
 * failed check) when it cannot be opened. */
static inline unsigned char *test_read_bytes(const char *path, size_t max, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    if (!f) return NULL;
    unsigned char *buf = malloc(max);
    *size = buf ? fread(buf, 1, max, f) : 0;
    fclose(f);
    return buf;
}

/* Writes size bytes to a file (a failed check if it cannot). */
static inline void test_write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    if (!f) return;
    REQUIRE_INT(fwrite(data, 1, size, f), size);
    fclose(f);
}

/* Monotonic seconds, for tests that bound how long a refusal takes. */
static inline double test_now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The peak resident memory of this process so far, in KiB. */
static inline long test_peak_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* Sample c of texel (x, y) of a host image, whatever its depth and stride. */
static inline double test_image_get(const amp_image *im, int x, int y, int c)
{
    const unsigned char *row = (const unsigned char *)im->pixels + (size_t)y * im->stride;
    size_t i = (size_t)x * (size_t)im->channels + (size_t)c;
    return im->bits == 8 ? row[i] : im->bits == 16 ? ((const uint16_t *)row)[i] : ((const float *)row)[i];
}

/* Sets sample c of texel (x, y) of a host image. */
static inline void test_image_set(amp_image *im, int x, int y, int c, double v)
{
    unsigned char *row = (unsigned char *)im->pixels + (size_t)y * im->stride;
    size_t i = (size_t)x * (size_t)im->channels + (size_t)c;
    if (im->bits == 8) row[i] = (uint8_t)v;
    else if (im->bits == 16) ((uint16_t *)row)[i] = (uint16_t)v;
    else ((float *)row)[i] = (float)v;
}

#endif
