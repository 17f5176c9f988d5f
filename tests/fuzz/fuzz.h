/* What the libFuzzer harnesses of tests/fuzz share: a check that aborts with a
 * message (a finding), a reader that turns the fuzzer's bytes into choices, PNG
 * chunk CRC repair (so that mutated files get past the CRC check and reach the
 * decoder), a reused temporary file, and the device checks (no validation
 * message may appear). Header-only; each harness is one translation unit. */
#ifndef AMPVK_FUZZ_H
#define AMPVK_FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ampvk/ampvk.h"

/* A finding: prints what was expected and aborts, which libFuzzer reports as a
 * crash and saves the input. */
static void fuzz_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\n== FUZZ FINDING at %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n== last ampvk error: %s (%s)\n", amp_last_error(), amp_status_name(amp_last_status()));
    va_end(ap);
    abort();
}
#define FUZZ_CHECK(cond, ...)                                  \
    do {                                                       \
        if (!(cond)) fuzz_fail(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)

/* A harness's own loops over every sample: left out of the coverage feedback, whose
 * comparison hooks would otherwise cost more than the decoders they check. */
#define FUZZ_UNTRACED __attribute__((no_sanitize("coverage")))

/* ---- choices from the input ---- */

typedef struct fuzz_bytes {
    const uint8_t *data;
    size_t size, pos;
} fuzz_bytes;

static inline bool fuzz_more(const fuzz_bytes *b) { return b->pos < b->size; }

/* The next byte, 0 once the input is used up. */
static inline uint8_t fuzz_u8(fuzz_bytes *b) { return b->pos < b->size ? b->data[b->pos++] : 0; }

static inline uint32_t fuzz_u32(fuzz_bytes *b)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v = v << 8 | fuzz_u8(b);
    return v;
}

/* A value in 0..n-1 (n >= 1). */
static inline int fuzz_below(fuzz_bytes *b, int n) { return n <= 1 ? 0 : (int)(fuzz_u8(b) % (unsigned)n); }

/* A value in 0..n-1, or -1 when the byte is 0xFF (an index just out of range). */
static inline int fuzz_index(fuzz_bytes *b, int n)
{
    uint8_t v = fuzz_u8(b);
    return v == 0xFF ? -1 : n <= 1 ? 0 : (int)(v % (unsigned)n);
}

/* A value in lo..hi. */
static inline int fuzz_range(fuzz_bytes *b, int lo, int hi) { return lo + fuzz_below(b, hi - lo + 1); }

/* ---- PNG chunks ---- */

static inline uint32_t fuzz_crc32(const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* Walks the complete chunks of a PNG; with fix, recomputes each chunk's CRC in
 * place. Returns how many CRCs were (or, with fix, had been) wrong. */
static inline int fuzz_png_crcs(uint8_t *data, size_t size, bool fix)
{
    int wrong = 0;
    for (size_t pos = 8; size >= 8 && size - pos >= 12;) {
        uint32_t len = (uint32_t)data[pos] << 24 | (uint32_t)data[pos + 1] << 16 | (uint32_t)data[pos + 2] << 8 |
                       data[pos + 3];
        if (len > size - pos - 12) break;
        uint8_t *stored = data + pos + 8 + len;
        uint32_t crc = fuzz_crc32(data + pos + 4, 4 + (size_t)len);
        uint32_t was = (uint32_t)stored[0] << 24 | (uint32_t)stored[1] << 16 | (uint32_t)stored[2] << 8 | stored[3];
        if (crc != was) {
            wrong++;
            if (fix) {
                stored[0] = (uint8_t)(crc >> 24);
                stored[1] = (uint8_t)(crc >> 16);
                stored[2] = (uint8_t)(crc >> 8);
                stored[3] = (uint8_t)crc;
            }
        }
        pos += 12 + (size_t)len;
    }
    return wrong;
}

/* A malloc'ed copy of a PNG with every complete chunk's CRC recomputed, or NULL when
 * no CRC was wrong (nothing new to try) or out of memory. */
static inline uint8_t *fuzz_png_fix_crcs(const uint8_t *data, size_t size)
{
    if (!fuzz_png_crcs((uint8_t *)data, size, false)) return NULL;
    uint8_t *copy = malloc(size);
    if (!copy) return NULL;
    memcpy(copy, data, size);
    fuzz_png_crcs(copy, size, true);
    return copy;
}

/* ---- files ---- */

/* A path for this process's temporary file: in /dev/shm if it exists, else
 * $TMPDIR or /tmp. The same path for the whole run (remove it after each use). */
static inline const char *fuzz_temp_path(const char *name)
{
    static char path[512];
    if (!path[0]) {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(path, sizeof path, "%s/ampvk-%s-%ld", dir, name, (long)getpid());
    }
    return path;
}

/* Writes the bytes to path (truncating); aborts if it cannot, which is the
 * harness's failure, not the library's. */
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f, "cannot create %s", path);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
}

/* ---- the device ---- */

/* Prints validation messages (the library itself never prints), so a finding shows
 * what the layer said. */
static void fuzz_print_validation(void *user, amp_log_level level, amp_status status, const char *message)
{
    (void)user, (void)level, (void)status;
    if (!strncmp(message, "validation:", 11)) fprintf(stderr, "%s\n", message);
}

/* Sends the layer's messages to stderr; call once at set-up. */
static inline void fuzz_watch_validation(void) { amp_set_log_callback(fuzz_print_validation, NULL, AMP_LOG_WARN); }

/* The default view, opened once; aborts if there is none (a harness set-up error). */
static inline amp_accelerator_view *fuzz_view(void)
{
    static amp_accelerator_view *view;
    if (!view) {
        view = amp_default_view();
        if (!view) {
            fprintf(stderr, "fuzz: no default view: %s\n", amp_last_error());
            exit(1);
        }
    }
    return view;
}

/* No validation message may appear (AMPVK_VALIDATION=1 turns the layer on). */
static inline void fuzz_check_validation(void)
{
    static uint64_t seen;
    uint64_t now = amp_validation_message_count();
    FUZZ_CHECK(now == seen, "%llu new validation message(s)", (unsigned long long)(now - seen));
}

#endif
