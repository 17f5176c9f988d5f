/* Bounds-checked kernels (AMPVK_DEBUG=1): every array_view, array and texture access
 * of a user's kernel is checked against its extent (generate.c writes the checks,
 * shaders/ampvk/debug.glsl holds them). The first access outside lands in the
 * device's debug record (a small host-visible buffer every checked dispatch binds):
 * which kernel (an id pushed with the dispatch), the line, the argument, the index
 * and the extent. The next wait on the device reads it and fails with
 * AMP_ERROR_OUT_OF_BOUNDS naming all of them. The access itself does no harm: reads
 * give 0 and writes are dropped (textures by the check itself; buffers by sending the
 * access past the buffer's end, which robustBufferAccess2 discards — devices are
 * opened with it in debug mode where they have it; without it the access goes to the
 * view's first element instead). */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

/* The record as debug.glsl writes it. */
typedef struct debug_record {
    uint32_t flag;     /* 0: nothing; 1: a record below */
    int32_t kernel;    /* the kernel's id */
    int32_t line;      /* the line of the access in the kernel's source */
    int32_t arg;       /* the parameter's index */
    int32_t rank;
    int32_t index[3], extent[3];
} debug_record;

/* The names of every checked kernel made so far, by id (kept for the process's life:
 * a record may name a kernel destroyed since). */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static char **names;        /* "kernel\0file\0param0\0param1\0...\0" */
static int name_count, name_cap;

/* The device's record. */
typedef struct debug_state {
    amp__buffer buf;
} debug_state;

static amp_status state_init(amp__device *d, void *p)
{
    debug_state *s = p;
    amp_status st = amp__buffer_create(d, sizeof(debug_record) + 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       AMP__MEM_UPLOAD, &s->buf);
    if (st == AMP_OK) memset(s->buf.alloc.mapped, 0, sizeof(debug_record));
    return st;
}

static void state_release(amp__device *d, void *p)
{
    debug_state *s = p;
    d->after_wait = NULL;
    amp__buffer_destroy(d, &s->buf);
    free(s);
}

static const amp__device_cache_type debug_type = {"bounds checks", sizeof(debug_state), state_init, state_release};

/* The names packed for id lookups; NULL when out of memory. */
static char *pack_names(const amp_kernel *k)
{
    size_t n = strlen(k->name) + 2;
    for (int i = 0; i < k->param_count; i++) n += strlen(k->params[i].name) + 1;
    char *s = malloc(n), *at = s;
    if (!s) return NULL;
    at += sprintf(at, "%s", k->name) + 1;
    for (int i = 0; i < k->param_count; i++) at += sprintf(at, "%s", k->params[i].name) + 1;
    *at = 0;
    return s;
}

/* The parameter name at index arg of the packed names (or "?"). */
static const char *param_name(const char *packed, int arg)
{
    const char *p = packed + strlen(packed) + 1;
    for (int i = 0; i < arg && *p; i++) p += strlen(p) + 1;
    return *p ? p : "?";
}

/* Reads and clears the device's record after a wait: the error it describes. */
static amp_status after_wait(amp__device *d)
{
    debug_state *s = amp__device_cache(d, &debug_type);
    if (!s) return AMP_OK;
    volatile debug_record *r = s->buf.alloc.mapped;
    if (!r->flag) return AMP_OK;
    debug_record c = *(debug_record *)r;
    memset((void *)r, 0, sizeof *r);
    char where[80] = "", size[80] = "";
    int rank = c.rank < 1 || c.rank > 3 ? 1 : c.rank;
    for (int i = 0, a = 0, b = 0; i < rank; i++) {
        a += snprintf(where + a, sizeof where - (size_t)a, "%s%d", i ? ", " : "", c.index[i]);
        b += snprintf(size + b, sizeof size - (size_t)b, "%s%d", i ? ", " : "", c.extent[i]);
    }
    pthread_mutex_lock(&names_lock);
    const char *packed = c.kernel >= 0 && c.kernel < name_count ? names[c.kernel] : NULL;
    amp_status st = amp__fail(AMP_ERROR_OUT_OF_BOUNDS,
                              "kernel \"%s\", line %d: argument \"%s\" accessed at (%s), outside its extent (%s); "
                              "the access was dropped (a read gives 0) and the kernel ran on",
                              packed ? packed : "?", c.line, packed ? param_name(packed, c.arg) : "?", where, size);
    pthread_mutex_unlock(&names_lock);
    return st;
}

amp_status amp__debug_attach(amp_kernel *k)
{
    char *packed = pack_names(k);
    if (!packed) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    pthread_mutex_lock(&names_lock);
    if (name_count == name_cap) {
        int cap = name_cap ? 2 * name_cap : 64;
        char **nn = realloc(names, (size_t)cap * sizeof *nn);
        if (!nn) {
            pthread_mutex_unlock(&names_lock);
            free(packed);
            return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        }
        names = nn;
        name_cap = cap;
    }
    k->debug_id = name_count;
    names[name_count++] = packed;
    pthread_mutex_unlock(&names_lock);
    amp__lock(k->dev);
    debug_state *s = amp__device_cache_get(k->dev, &debug_type);
    if (s) k->dev->after_wait = after_wait;
    amp__unlock(k->dev);
    return s ? AMP_OK : amp_last_status();
}

VkBuffer amp__debug_buffer(amp__device *d)
{
    debug_state *s = amp__device_cache(d, &debug_type);
    return s ? s->buf.buffer : VK_NULL_HANDLE;
}
