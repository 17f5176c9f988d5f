/* What the runtime needs from the host beyond libc: copied strings, hashes for
 * cache keys, small lists of values by key, and work split over the cores. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

void amp__bytes_put_at(amp__bytes *b, size_t at, const void *p, size_t n)
{
    if (b->failed || n == 0) return;
    if (at > SIZE_MAX - n) {
        b->failed = true;
        return;
    }
    size_t end = at + n;
    if (end > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < end && cap <= SIZE_MAX / 2) cap *= 2;
        char *d = cap < end ? NULL : realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    if (at > b->n) memset(b->data + b->n, 0, at - b->n);
    memcpy(b->data + at, p, n);
    if (end > b->n) b->n = end;
}

void amp__bytes_put(amp__bytes *b, const void *p, size_t n) { amp__bytes_put_at(b, b->n, p, n); }

char *amp__strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r) memcpy(r, s, n);
    return r;
}

uint64_t amp__hash64(const void *data, size_t n, uint64_t seed)
{
    /* FNV-1a with a final avalanche; used for cache keys and checksums. */
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ull ^ seed;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull; h ^= h >> 33;
    return h;
}

void *amp__keyed_find(const amp__keyed *list, const void *key)
{
    for (; list; list = list->next)
        if (list->key == key) return list->value;
    return NULL;
}

amp_status amp__keyed_add(amp__keyed **list, const void *key, void *value)
{
    amp__keyed *e = malloc(sizeof *e);
    if (!e) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    *e = (amp__keyed){.key = key, .value = value, .next = *list};
    *list = e;
    return AMP_OK;
}

void *amp__keyed_pop(amp__keyed **list, const void **key)
{
    amp__keyed *e = *list;
    if (!e) return NULL;
    void *value = e->value;
    if (key) *key = e->key;
    *list = e->next;
    free(e);
    return value;
}

#define MAX_PIECES 8

typedef struct piece {
    void (*fn)(void *ctx, size_t begin, size_t end);
    void *ctx;
    size_t begin, end;
} piece;

static void *run_piece(void *arg)
{
    piece *p = arg;
    p->fn(p->ctx, p->begin, p->end);
    return NULL;
}

static int host_cores(void)
{
    static atomic_int cores;
    int n = atomic_load(&cores);
    if (n == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c < 1 ? 1 : c > MAX_PIECES ? MAX_PIECES : (int)c;
        atomic_store(&cores, n);
    }
    return n;
}

void amp__parallel_for(size_t count, size_t grain, void (*fn)(void *ctx, size_t begin, size_t end), void *ctx)
{
    size_t n = grain ? count / grain : 1, cores = (size_t)host_cores();
    if (n > cores) n = cores;
    if (n <= 1) {
        fn(ctx, 0, count);
        return;
    }
    piece p[MAX_PIECES];
    pthread_t thread[MAX_PIECES];
    bool started[MAX_PIECES] = {false};
    for (size_t i = 0; i < n; i++) p[i] = (piece){fn, ctx, count * i / n, count * (i + 1) / n};
    for (size_t i = 1; i < n; i++) started[i] = pthread_create(&thread[i], NULL, run_piece, &p[i]) == 0;
    run_piece(&p[0]);
    for (size_t i = 1; i < n; i++) {
        if (started[i]) pthread_join(thread[i], NULL);
        else run_piece(&p[i]);
    }
}
