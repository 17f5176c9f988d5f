/* OpenEXR files through OpenEXR 3.1's C library, OpenEXRCore (openexr.h), in memory
 * both ways: the stream is a buffer behind read_fn / write_fn, and the library's
 * messages go to a handler that keeps the first one for ampvk's error (OpenEXRCore
 * prints to stderr otherwise), so nothing is printed and every call is independent.
 *
 * Read: the first part of a file, scanline or tiled (level 0 of a mip/rip-mapped
 * one, the other levels' chunks checked to lie in the file), with half, float or uint
 * channels (uint converted to float), in every compression OpenEXRCore 3.1 decodes
 * (NONE, RLE, ZIPS, ZIP, PIZ, PXR24, B44, B44A; it has no DWAA or DWAB decoder yet, so
 * those files are refused from the header), into 32-bit float texels, chunk by chunk,
 * on a thread per core for large images. The library reads and decompresses each
 * chunk; unpack_rows (ours, not the library's: 3.1.5's half-to-float path for four
 * interleaved channels writes them in the file's A, B, G, R order) converts it into
 * the texels. The header is parsed strictly (a bad attribute is an error, not
 * skipped) and a chunk table pointing outside the file is an error, not rebuilt.
 *
 * The data window is the image (its origin need not be 0,0, as cv2.imread reads it;
 * the display window is ignored). Channels by name: R, G, B (a missing one reads 0)
 * and A give RGB or RGBA; else Y and A give Y or YA; the channels of one layer
 * ("diffuse.R") are used when the file has no such top-level channel (the first
 * layer, in the file's alphabetical order); a file with none of these names reads its
 * first channel as Y (a depth-only "Z" file loads as gray). Other channels are
 * decompressed with the chunk and dropped. Files with subsampled channels (x or y
 * sampling above 1, as luminance / chroma files have) and deep files are refused.
 *
 * Write: a scanline file of half (16 bits) or float (32 bits) channels Y, YA, RGB or
 * RGBA (the header lists them sorted: A, B, G, R), compressed with ZIP (the default),
 * NONE, RLE or PIZ; chunks compressed on a thread per core for large images and
 * written in order. ZIP chunks are deflated by libdeflate at level 4 (compress_zip),
 * about as small as the zlib level 4 of OpenEXR's C++ library and OpenCV, in half the
 * time. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>
#include <openexr.h>

#include "image/image_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "exr.c reads OpenEXR's little-endian samples in place"
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_F16C_PATH 1
#endif

/* The most bytes of unpacked pixel data one byte of a file can hold, by compression:
 * NONE 1; RLE 64 (2 bytes make a run of 128); deflate's 1032 for ZIP, ZIPS and PIZ
 * (PIZ's Huffman codes with runs do less); PXR24 4/3 of deflate's (floats stored in 3
 * bytes); B44A 32/3 (a flat 4x4 block of halves in 3 bytes); DWAA and DWAB (refused)
 * 64 x 1032 (RLE, then deflate, for channels it does not transform). */
static const uint32_t UNPACKED_PER_BYTE[EXR_COMPRESSION_LAST_TYPE] = {1, 64, 1032, 1032, 1032, 1376, 11, 11,
                                                                      66048, 66048};

/* Images of at least this many texels are decoded and encoded on several threads. */
#define THREADED_TEXELS (512 * 1024)
#define MAX_THREADS 16

/* The threads a large image is coded on: one per core this thread may run on (its
 * affinity, as taskset or a container's cpuset leave it), at most MAX_THREADS and a
 * chunk each. */
static int thread_count(int chunks)
{
    cpu_set_t set;
    int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    int n = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : cores;
    return n > chunks ? chunks : n;
}

/* Runs work(job) on this thread and, for an image of `texels` in `chunks` chunks large
 * enough, on thread_count's others beside it; returns once all are done. */
static void run_threads(void *(*work)(void *), void *job, size_t texels, int chunks)
{
    int threads = texels >= THREADED_TEXELS ? thread_count(chunks) : 1, started = 0;
    pthread_t tid[MAX_THREADS];
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&tid[started], NULL, work, job) != 0) break;
        started++;
    }
    work(job);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
}

static const char *const COMPRESSION_NAMES[EXR_COMPRESSION_LAST_TYPE] = {
    "uncompressed", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB"};

/* A stream in memory and the first message of the library about it. */
typedef struct exr_stream {
    const unsigned char *data; /* reading */
    size_t size;
    amp__bytes out; /* writing */
    bool out_of_memory;
    atomic_bool past_end; /* a read asked for bytes past the end of the file */
    atomic_flag said;     /* message holds the first message */
    char message[256];
    exr_result_t code;
} exr_stream;

typedef struct exr_state {
    exr_stream stream;
    exr_context_t ctx;
    exr_storage_t storage;
    exr_compression_t compression;
    exr_attr_box2i_t dw;
    int width, height, channels;
    const char *names[4]; /* the file's channel read as each of Y / YA / RGB / RGBA; NULL: zeros */
} exr_state;

/* Keeps the library's first message (the most particular; the ones after it say
 * which step failed). Called on any thread that decodes. */
static void on_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    void *user = NULL;
    if (exr_get_user_data(ctxt, &user) != EXR_ERR_SUCCESS || !user) return;
    exr_stream *s = user;
    if (atomic_flag_test_and_set(&s->said)) return;
    snprintf(s->message, sizeof s->message, "%s", msg ? msg : "");
    s->code = code;
}

static int64_t read_memory(exr_const_context_t ctxt, void *user, void *buffer, uint64_t sz, uint64_t offset,
                           exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt, (void)error_cb;
    exr_stream *s = user;
    if (offset >= s->size) {
        if (sz) atomic_store(&s->past_end, true);
        return 0;
    }
    uint64_t n = s->size - offset < sz ? s->size - offset : sz;
    if (n < sz) atomic_store(&s->past_end, true);
    memcpy(buffer, s->data + offset, (size_t)n);
    return (int64_t)n;
}

static int64_t size_memory(exr_const_context_t ctxt, void *user)
{
    (void)ctxt;
    return (int64_t)((exr_stream *)user)->size;
}

/* Writes sz bytes at offset (the library writes its chunk table last, back near the
 * start), growing the buffer. */
static int64_t write_memory(exr_const_context_t ctxt, void *user, const void *buffer, uint64_t sz, uint64_t offset,
                            exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt, (void)error_cb;
    exr_stream *s = user;
    if (offset <= SIZE_MAX && sz <= SIZE_MAX) amp__bytes_put_at(&s->out, (size_t)offset, buffer, (size_t)sz);
    if (offset > SIZE_MAX || sz > SIZE_MAX || s->out.failed) {
        s->out_of_memory = true;
        return -1;
    }
    return (int64_t)sz;
}

static bool exr_sniff(const unsigned char *d, size_t n)
{
    return n >= 4 && d[0] == 0x76 && d[1] == 0x2F && d[2] == 0x31 && d[3] == 0x01;
}

/* A failure of the library as ampvk's error: out of memory; truncated where the file
 * ends before what it points at (a read past the end, or an offset or size past it);
 * else corrupt, with the library's first message. */
static amp_status exr_fail(const amp__file *f, exr_stream *s, exr_result_t rv, const char *what)
{
    /* the header is read ahead in blocks, past the end of small files: no sign of a cut */
    bool header = strstr(what, "header does not read") && !strstr(what, "chunk");
    const char *oom = exr_get_default_error_message(EXR_ERR_OUT_OF_MEMORY);
    const char *msg = s->message[0] ? s->message : exr_get_default_error_message(rv);
    /* the decompressors say "out of memory" too for data that runs out: only the
       library's allocation failures (their standard message) and ours are memory */
    if ((s->message[0] && s->code == EXR_ERR_OUT_OF_MEMORY && strcmp(msg, oom) == 0) ||
        (!s->message[0] && rv == EXR_ERR_OUT_OF_MEMORY))
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    bool truncated = (!header && atomic_load(&s->past_end)) || strstr(msg, "End of file") ||
                     strstr(msg, "file size") || strstr(msg, "end of the file") ||
                     strstr(msg, "past end") || strstr(msg, "larger than file");
    const char *at = strstr(msg, "at file offset ");
    if (at && strtoull(at + 15, NULL, 10) >= (unsigned long long)f->size) truncated = true;
    return amp__fail(AMP_ERROR_FORMAT, "%s: %s is %s: %s (OpenEXR: %s)", f->who, f->path,
                     truncated ? "truncated" : "corrupt", what, msg);
}

static void exr_close(void *state)
{
    exr_state *s = state;
    if (!s) return;
    if (s->ctx) exr_finish(&s->ctx);
    free(s);
}

/* The channel of the file named prefix + name, or NULL. */
static const exr_attr_chlist_entry_t *find_channel(const exr_attr_chlist_t *list, const char *prefix, size_t n,
                                                    const char *name)
{
    for (int i = 0; i < list->num_channels; i++) {
        const char *s = list->entries[i].name.str;
        if (s && strncmp(s, prefix, n) == 0 && strcmp(s + n, name) == 0) return &list->entries[i];
    }
    return NULL;
}

/* Picks the channels read (see the overview): names[] for Y, YA, RGB or RGBA. */
static int map_channels(const exr_attr_chlist_t *list, const char *names[4])
{
    static const char *const keys[4] = {"R", "G", "B", "Y"};
    const char *prefix = "";
    size_t n = 0;
    bool top = false;
    for (int k = 0; k < 4 && !top; k++) top = find_channel(list, "", 0, keys[k]) != NULL;
    if (!top) /* the layer of the first channel named LAYER.R, .G, .B or .Y */
        for (int i = 0; i < list->num_channels && !n; i++) {
            const char *s = list->entries[i].name.str, *dot = s ? strrchr(s, '.') : NULL;
            if (!dot || dot == s) continue;
            for (int k = 0; k < 4; k++)
                if (strcmp(dot + 1, keys[k]) == 0) {
                    prefix = s;
                    n = (size_t)(dot + 1 - s);
                }
        }
    const exr_attr_chlist_entry_t *r = find_channel(list, prefix, n, "R"), *g = find_channel(list, prefix, n, "G"),
                                  *b = find_channel(list, prefix, n, "B"), *y = find_channel(list, prefix, n, "Y"),
                                  *a = find_channel(list, prefix, n, "A");
    if (r || g || b) {
        names[0] = r ? r->name.str : NULL;
        names[1] = g ? g->name.str : NULL;
        names[2] = b ? b->name.str : NULL;
        names[3] = a ? a->name.str : NULL;
        return a ? 4 : 3;
    }
    if (y) {
        names[0] = y->name.str;
        names[1] = a ? a->name.str : NULL;
        return a ? 2 : 1;
    }
    names[0] = list->entries[0].name.str;
    return 1;
}

static amp_status exr_open(const amp__file *f, amp_image *head, void **state)
{
    exr_state *s = calloc(1, sizeof *s);
    if (!s) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    s->stream.data = f->data;
    s->stream.size = f->size;
    atomic_flag_clear(&s->stream.said);
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = on_error;
    init.user_data = &s->stream;
    init.read_fn = read_memory;
    init.size_fn = size_memory;
    /* a chunk table that points outside the file is an error, not rebuilt by a scan */
    init.flags = EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION | EXR_CONTEXT_FLAG_STRICT_HEADER;
    exr_result_t rv = exr_start_read(&s->ctx, f->path, &init);
    amp_status st = AMP_OK;
    if (rv != EXR_ERR_SUCCESS) {
        st = exr_fail(f, &s->stream, rv, "its header does not read");
        goto fail;
    }
    /* what the header parse let pass (it reads ahead, past the end of small files) is
       not decoding's reason */
    s->stream.message[0] = 0;
    atomic_flag_clear(&s->stream.said);
    atomic_store(&s->stream.past_end, false);
    const exr_attr_chlist_t *list = NULL;
    if ((rv = exr_get_storage(s->ctx, 0, &s->storage)) || (rv = exr_get_compression(s->ctx, 0, &s->compression)) ||
        (rv = exr_get_data_window(s->ctx, 0, &s->dw)) || (rv = exr_get_channels(s->ctx, 0, &list))) {
        st = exr_fail(f, &s->stream, rv, "its header does not read");
        goto fail;
    }
    if (s->storage != EXR_STORAGE_SCANLINE && s->storage != EXR_STORAGE_TILED) {
        st = amp__fail(AMP_ERROR_FORMAT, "%s: %s is a deep OpenEXR file; ampvk reads flat (scanline or tiled) ones",
                       f->who, f->path);
        goto fail;
    }
    if ((unsigned)s->compression >= EXR_COMPRESSION_LAST_TYPE || !list || list->num_channels < 1) {
        st = amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: compression %d, %d channels", f->who, f->path,
                       (int)s->compression, list ? list->num_channels : 0);
        goto fail;
    }
    int64_t w = (int64_t)s->dw.max.x - s->dw.min.x + 1, h = (int64_t)s->dw.max.y - s->dw.min.y + 1;
    if (w < 1 || h < 1 || w > INT32_MAX || h > INT32_MAX) {
        st = amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: its data window (%d, %d) - (%d, %d) is empty or too large",
                       f->who, f->path, s->dw.min.x, s->dw.min.y, s->dw.max.x, s->dw.max.y);
        goto fail;
    }
    s->width = (int)w;
    s->height = (int)h;
    s->channels = map_channels(list, s->names);
    for (int i = 0; i < list->num_channels; i++) {
        const exr_attr_chlist_entry_t *e = &list->entries[i];
        if (e->x_sampling != 1 || e->y_sampling != 1) {
            st = amp__fail(AMP_ERROR_FORMAT,
                           "%s: %s: OpenEXR files with subsampled channels are not supported (channel %s is sampled "
                           "%dx%d)", f->who, f->path, e->name.str, e->x_sampling, e->y_sampling);
            goto fail;
        }
    }
    if (s->compression == EXR_COMPRESSION_DWAA || s->compression == EXR_COMPRESSION_DWAB) {
        st = amp__fail(AMP_ERROR_FORMAT,
                       "%s: %s: %s-compressed OpenEXR files are not supported (OpenEXRCore 3.1 has no decoder "
                       "for them)",
                       f->who, f->path, COMPRESSION_NAMES[s->compression]);
        goto fail;
    }
    /* What every channel unpacks to, against what the file's bytes can hold at the
     * most (above the limits, the table's check says so first) */
    if (w <= 65535 && h <= 65535) {
        uint64_t unpacked = 0;
        for (int i = 0; i < list->num_channels; i++)
            unpacked += (uint64_t)w * (uint64_t)h * (list->entries[i].pixel_type == EXR_PIXEL_HALF ? 2 : 4);
        uint64_t most = (uint64_t)f->size * UNPACKED_PER_BYTE[s->compression];
        if (unpacked > most) {
            st = amp__fail(AMP_ERROR_FORMAT,
                           "%s: %s is truncated: its header claims %dx%d pixels of %d channels (%llu bytes) but a "
                           "%s exr file of %zu bytes holds %llu at most",
                           f->who, f->path, s->width, s->height, list->num_channels, (unsigned long long)unpacked,
                           COMPRESSION_NAMES[s->compression], f->size, (unsigned long long)most);
            goto fail;
        }
    }
    *head = (amp_image){s->width, s->height, s->channels, 32, 0, NULL, AMP_IMAGE_FORMAT_EXR};
    *state = s;
    return AMP_OK;
fail:
    exr_close(s);
    return st;
}

/* An IEEE half as a float. */
static float half_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 1023, bits;
    if (e == 31) bits = sign | 0x7F800000u | m << 13; /* infinity, NaN */
    else if (e) bits = sign | (e + 112) << 23 | m << 13;
    else if (!m) bits = sign;
    else { /* subnormal: normalized */
        e = 113;
        while (!(m & 1024)) m <<= 1, e--;
        bits = sign | e << 23 | (m & 1023) << 13;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

#ifdef HAVE_F16C_PATH
__attribute__((target("avx,f16c"))) static void halves_f16c(float *out, const uint8_t *in, int n)
{
    int x = 0;
    for (; x + 8 <= n; x += 8)
        _mm256_storeu_ps(out + x, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + 2 * x))));
    for (; x < n; x++) out[x] = half_float((uint16_t)(in[2 * x] | in[2 * x + 1] << 8));
}
#endif

#ifdef HAVE_F16C_PATH
/* Whether the CPU converts halves (F16C) in AVX registers the OS saves (XGETBV). */
static bool has_f16c(void)
{
    static atomic_int known; /* 0: not asked yet; 1: no; 2: yes */
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        unsigned a, b, c, d;
        bool yes = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29)) && (c & (1u << 28)) && (c & (1u << 27));
        if (yes) {
            uint32_t lo, hi;
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            yes = (lo & 6) == 6;
        }
        k = yes ? 2 : 1;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k == 2;
}
#endif

/* n halves (little-endian, unaligned) as floats. */
static void halves(float *out, const uint8_t *in, int n)
{
#ifdef HAVE_F16C_PATH
    if (has_f16c()) {
        halves_f16c(out, in, n);
        return;
    }
#endif
    for (int x = 0; x < n; x++) out[x] = half_float((uint16_t)(in[2 * x] | in[2 * x + 1] << 8));
}

/* The pipeline's unpack step: a decompressed chunk (each row, each channel of the file
 * in turn: its samples) into the float texels that decode_to_ptr and the strides
 * place, channels without a place skipped. row: a row of floats (decoding_user_data). */
static exr_result_t unpack_rows(exr_decode_pipeline_t *d)
{
    const uint8_t *src = d->unpacked_buffer;
    float *row = d->decoding_user_data;
    uint64_t need = 0;
    for (int c = 0; c < d->channel_count; c++)
        need += (uint64_t)d->channels[c].width * (uint64_t)d->channels[c].bytes_per_element * (uint64_t)d->chunk.height;
    if (!src || d->chunk.unpacked_size < need ||
        (d->chunk.compression == EXR_COMPRESSION_NONE && d->chunk.packed_size != d->chunk.unpacked_size))
        return EXR_ERR_CORRUPT_CHUNK;
    for (int y = 0; y < d->chunk.height; y++)
        for (int c = 0; c < d->channel_count; c++) {
            const exr_coding_channel_info_t *ch = &d->channels[c];
            int n = ch->width;
            if (ch->decode_to_ptr) {
                float *out = (float *)(ch->decode_to_ptr + (size_t)y * (size_t)ch->user_line_stride);
                size_t step = (size_t)ch->user_pixel_stride / sizeof(float);
                if (ch->data_type == EXR_PIXEL_HALF) {
                    halves(row, src, n);
                    for (int x = 0; x < n; x++) out[(size_t)x * step] = row[x];
                } else if (ch->data_type == EXR_PIXEL_FLOAT) {
                    for (int x = 0; x < n; x++) memcpy(&out[(size_t)x * step], src + 4 * (size_t)x, 4);
                } else {
                    for (int x = 0; x < n; x++) {
                        uint32_t u;
                        memcpy(&u, src + 4 * (size_t)x, 4);
                        out[(size_t)x * step] = (float)u;
                    }
                }
            }
            src += (size_t)n * (size_t)ch->bytes_per_element;
        }
    return EXR_ERR_SUCCESS;
}

/* One decoding job: the image's chunks, taken in turn by every thread. */
typedef struct exr_job {
    const amp__file *f;
    exr_state *s;
    float *px;
    int channels;                 /* texels of px */
    int tiles_x, tile_w, tile_h; /* tiled files: tiles across level 0, a tile's size */
    int count;                    /* chunks */
    int lines;                    /* scanline files: rows of a chunk */
    atomic_int next;
    atomic_bool failed;
    exr_result_t rv; /* the first failure */
    const char *what;
} exr_job;

/* Decodes the chunks of a job that this thread takes: each through its own pipeline
 * (the context is shared; OpenEXRCore reads it from several threads), straight into
 * the texels, each file channel read to its place with float conversion. */
static void *decode_chunks(void *arg)
{
    exr_job *j = arg;
    exr_state *s = j->s;
    exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
    bool started = false;
    size_t stride = (size_t)s->width * (size_t)j->channels * sizeof(float);
    exr_result_t rv = EXR_ERR_SUCCESS;
    const char *what = "a chunk does not decode";
    float *row = malloc((size_t)s->width * sizeof(float));
    if (!row) rv = EXR_ERR_OUT_OF_MEMORY;
    for (int i; row && !atomic_load(&j->failed) && (i = atomic_fetch_add(&j->next, 1)) < j->count;) {
        exr_chunk_info_t ci;
        int x0 = 0, y0; /* the chunk's place in the image */
        if (s->storage == EXR_STORAGE_TILED) {
            int tx = i % j->tiles_x, ty = i / j->tiles_x;
            rv = exr_read_tile_chunk_info(s->ctx, 0, tx, ty, 0, 0, &ci);
            x0 = tx * j->tile_w;
            y0 = ty * j->tile_h;
        } else {
            rv = exr_read_scanline_chunk_info(s->ctx, 0, (int)(s->dw.min.y + (int64_t)i * j->lines), &ci);
            y0 = ci.start_y - s->dw.min.y;
        }
        if (rv != EXR_ERR_SUCCESS) {
            what = "a chunk's header does not read";
            break;
        }
        if (x0 < 0 || y0 < 0 || ci.width < 1 || ci.height < 1 || x0 + ci.width > s->width ||
            y0 + ci.height > s->height) {
            rv = EXR_ERR_CORRUPT_CHUNK;
            what = "a chunk lies outside the data window";
            break;
        }
        rv = started ? exr_decoding_update(s->ctx, 0, &ci, &dec) : exr_decoding_initialize(s->ctx, 0, &ci, &dec);
        if (rv != EXR_ERR_SUCCESS) {
            what = "a chunk does not decode";
            break;
        }
        unsigned char *at = (unsigned char *)j->px + (size_t)y0 * stride + (size_t)x0 * (size_t)j->channels * 4;
        for (int c = 0; c < dec.channel_count; c++) {
            exr_coding_channel_info_t *ch = &dec.channels[c];
            ch->decode_to_ptr = NULL;
            for (int k = 0; k < j->channels; k++)
                if (s->names[k] && strcmp(ch->channel_name, s->names[k]) == 0) {
                    ch->decode_to_ptr = at + (size_t)k * 4;
                    ch->user_pixel_stride = j->channels * 4;
                    ch->user_line_stride = (int32_t)stride;
                    ch->user_data_type = EXR_PIXEL_FLOAT;
                    ch->user_bytes_per_element = 4;
                }
        }
        if (!started) {
            started = true;
            if ((rv = exr_decoding_choose_default_routines(s->ctx, 0, &dec)) != EXR_ERR_SUCCESS) {
                what = "a chunk does not decode";
                break;
            }
            /* ours unpacks (the library reads uncompressed float rows in place itself) */
            if (dec.unpack_and_convert_fn) dec.unpack_and_convert_fn = unpack_rows;
            dec.decoding_user_data = row;
        }
        if ((rv = exr_decoding_run(s->ctx, 0, &dec)) != EXR_ERR_SUCCESS) {
            what = "a chunk does not decode";
            break;
        }
    }
    if (started) exr_decoding_destroy(s->ctx, &dec);
    free(row);
    if (rv != EXR_ERR_SUCCESS && !atomic_exchange(&j->failed, true)) {
        j->rv = rv;
        j->what = what;
    }
    return NULL;
}

/* The other levels of a mip- or rip-mapped file, not decoded: each tile's chunk must
 * lie in the file (a file cut short in its last levels is truncated). Reads each
 * tile's 20-byte leader; the chunk table, whose 8 bytes a chunk lie in the file,
 * bounds their count. */
static exr_result_t check_levels(exr_state *s)
{
    uint32_t tx, ty;
    exr_tile_level_mode_t mode;
    exr_tile_round_mode_t round;
    int32_t nx = 0, ny = 0;
    exr_result_t rv = exr_get_tile_descriptor(s->ctx, 0, &tx, &ty, &mode, &round);
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_tile_levels(s->ctx, 0, &nx, &ny);
    for (int ly = 0; ly < ny && rv == EXR_ERR_SUCCESS; ly++)
        for (int lx = 0; lx < nx && rv == EXR_ERR_SUCCESS; lx++) {
            if ((lx == 0 && ly == 0) || (mode == EXR_TILE_MIPMAP_LEVELS && lx != ly)) continue;
            int32_t tw = 0, th = 0, lw = 0, lh = 0;
            rv = exr_get_tile_sizes(s->ctx, 0, lx, ly, &tw, &th);
            if (rv == EXR_ERR_SUCCESS) rv = exr_get_level_sizes(s->ctx, 0, lx, ly, &lw, &lh);
            if (rv != EXR_ERR_SUCCESS || tw < 1 || th < 1) break;
            int64_t cols = (lw + (int64_t)tw - 1) / tw, rows = (lh + (int64_t)th - 1) / th;
            for (int64_t t = 0; t < cols * rows && rv == EXR_ERR_SUCCESS; t++) {
                exr_chunk_info_t ci;
                rv = exr_read_tile_chunk_info(s->ctx, 0, (int)(t % cols), (int)(t / cols), lx, ly, &ci);
            }
        }
    return rv;
}

/* Channels of the image that a file maps to no channel (a missing G of RGB) read 0. */
static amp_status exr_decode(const amp__file *f, void *state, const amp_image *head, int channels,
                             amp__host_image *out)
{
    (void)head, (void)channels;
    exr_state *s = state;
    size_t texels = (size_t)s->width * (size_t)s->height;
    exr_job j = {.f = f, .s = s, .channels = s->channels};
    if (s->storage == EXR_STORAGE_TILED) {
        int32_t tw = 0, th = 0, lw = 0, lh = 0;
        exr_result_t rv = exr_get_tile_sizes(s->ctx, 0, 0, 0, &tw, &th);
        if (rv == EXR_ERR_SUCCESS) rv = exr_get_level_sizes(s->ctx, 0, 0, 0, &lw, &lh);
        if (rv != EXR_ERR_SUCCESS) return exr_fail(f, &s->stream, rv, "its tiles do not read");
        if (tw < 1 || th < 1 || lw != s->width || lh != s->height)
            return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: tiles of %dx%d, level 0 of %dx%d for %dx%d", f->who,
                             f->path, tw, th, lw, lh, s->width, s->height);
        j.tile_w = tw;
        j.tile_h = th;
        j.tiles_x = (int)((s->width + (int64_t)tw - 1) / tw);
        int64_t n = (int64_t)j.tiles_x * ((s->height + (int64_t)th - 1) / th);
        if (n > INT32_MAX) return amp__fail(AMP_ERROR_FORMAT, "%s: %s is corrupt: %lld tiles", f->who, f->path,
                                            (long long)n);
        j.count = (int)n;
    } else {
        int32_t lines = 0;
        exr_result_t rv = exr_get_scanlines_per_chunk(s->ctx, 0, &lines);
        if (rv != EXR_ERR_SUCCESS || lines < 1) return exr_fail(f, &s->stream, rv, "its chunks do not read");
        j.lines = lines;
        j.count = (int)((s->height + (int64_t)lines - 1) / lines);
    }
    bool gaps = false;
    for (int c = 0; c < s->channels; c++) gaps |= !s->names[c];
    float *px = gaps ? calloc(texels * (size_t)s->channels, sizeof(float))
                     : malloc(texels * (size_t)s->channels * sizeof(float));
    if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory decoding %s", f->who, f->path);
    j.px = px;
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, false);
    /* large images on up to one thread per core, never more than a thread per chunk */
    run_threads(decode_chunks, &j, texels, j.count);
    if (!atomic_load(&j.failed) && s->storage == EXR_STORAGE_TILED) {
        exr_result_t rv = check_levels(s);
        if (rv != EXR_ERR_SUCCESS) {
            atomic_store(&j.failed, true);
            j.rv = rv;
            j.what = "a tile of a lower level does not read";
        }
    }
    if (atomic_load(&j.failed)) {
        free(px);
        return exr_fail(f, &s->stream, j.rv, j.what);
    }
    *out = (amp__host_image){s->width, s->height, s->channels, 32, px, false};
    return AMP_OK;
}

/* An encoding failure as ampvk's error. */
static amp_status exr_write_fail(const char *who, exr_stream *st, exr_result_t rv)
{
    if (st->out_of_memory || rv == EXR_ERR_OUT_OF_MEMORY)
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "%s: cannot encode an OpenEXR file: %s", who,
                     st->message[0] ? st->message : exr_get_default_error_message(rv));
}

/* The channel names written for 1..4 channels. */
static const char *const WRITTEN[5][4] = {{0}, {"Y"}, {"Y", "A"}, {"R", "G", "B"}, {"R", "G", "B", "A"}};

/* libdeflate's level for ZIP chunks: files about as small as OpenEXR's C++ library
 * and OpenCV write at zlib's level 4, in about half the time. */
#define ZIP_LEVEL 4

/* A thread's ZIP coder: libdeflate and the chunk's bytes split and differenced. */
typedef struct zip_coder {
    struct libdeflate_compressor *deflate;
    uint8_t *split, *diff;
    size_t cap;
} zip_coder;

/* The pipeline's compress step for ZIP (and ZIPS) chunks, as OpenEXR codes them: the
 * bytes split into even and odd ones, each the difference from the one before plus
 * 128, deflated in a zlib stream (libdeflate: the zlib of OpenEXRCore is most of a
 * write's time); stored as they are when that is no smaller (a chunk whose packed size
 * equals its unpacked one is read as stored). */
static exr_result_t compress_zip(exr_encode_pipeline_t *e)
{
    zip_coder *z = e->encoding_user_data;
    size_t n = (size_t)e->packed_bytes;
    const uint8_t *raw = e->packed_buffer;
    if (z->cap < n) {
        free(z->split);
        free(z->diff);
        z->split = malloc(n);
        z->diff = malloc(n);
        z->cap = z->split && z->diff ? n : 0;
        if (!z->cap) return EXR_ERR_OUT_OF_MEMORY;
    }
    size_t half = (n + 1) / 2;
    for (size_t i = 0; i < half; i++) z->split[i] = raw[2 * i];
    for (size_t i = 0; i < n / 2; i++) z->split[half + i] = raw[2 * i + 1];
    z->diff[0] = z->split[0];
    for (size_t i = 1; i < n; i++) z->diff[i] = (uint8_t)(z->split[i] - z->split[i - 1] + 128);
    size_t bound = libdeflate_zlib_compress_bound(z->deflate, n);
    if (e->compressed_alloc_size < bound) {
        /* the pipeline's buffer: the library frees it (with free, its default) */
        free(e->compressed_buffer);
        e->compressed_buffer = malloc(bound);
        e->compressed_alloc_size = e->compressed_buffer ? bound : 0;
        if (!e->compressed_buffer) return EXR_ERR_OUT_OF_MEMORY;
    }
    size_t got = libdeflate_zlib_compress(z->deflate, z->diff, n, e->compressed_buffer, e->compressed_alloc_size);
    if (got == 0 || got >= n) {
        memcpy(e->compressed_buffer, raw, n);
        got = n;
    }
    e->compressed_bytes = got;
    return EXR_ERR_SUCCESS;
}

/* One encoding job: its chunks packed and compressed by every thread in turn, each
 * kept (chunk[i], chunk_size[i]) for the calling thread to write in order. */
typedef struct exr_enc_job {
    exr_context_t ctx;
    const float *px;
    size_t stride;
    int channels, count;
    bool zip; /* ZIP chunks: compress_zip compresses */
    const exr_chunk_info_t *info;
    unsigned char **chunk;
    uint64_t *chunk_size;
    atomic_int next;
    atomic_bool failed;
    exr_result_t rv;
} exr_enc_job;

/* Compresses the chunks this thread takes, each through the thread's own pipeline
 * (the library packs under the context's lock and compresses outside it); no step
 * of the pipeline writes. */
static void *encode_chunks(void *arg)
{
    exr_enc_job *j = arg;
    exr_encode_pipeline_t enc = EXR_ENCODE_PIPELINE_INITIALIZER;
    bool started = false;
    exr_result_t rv = EXR_ERR_SUCCESS;
    const char *const *names = WRITTEN[j->channels];
    zip_coder zip = {0};
    if (j->zip && !(zip.deflate = libdeflate_alloc_compressor(ZIP_LEVEL))) rv = EXR_ERR_OUT_OF_MEMORY;
    for (int i; rv == EXR_ERR_SUCCESS && !atomic_load(&j->failed) && (i = atomic_fetch_add(&j->next, 1)) < j->count;) {
        const exr_chunk_info_t *ci = &j->info[i];
        rv = started ? exr_encoding_update(j->ctx, 0, ci, &enc) : exr_encoding_initialize(j->ctx, 0, ci, &enc);
        if (rv != EXR_ERR_SUCCESS) break;
        for (int c = 0; c < enc.channel_count; c++) {
            exr_coding_channel_info_t *ch = &enc.channels[c];
            for (int k = 0; k < j->channels; k++)
                if (strcmp(ch->channel_name, names[k]) == 0)
                    ch->encode_from_ptr = (const uint8_t *)j->px + (size_t)ci->start_y * j->stride + (size_t)k * 4;
            ch->user_pixel_stride = j->channels * (int)sizeof(float);
            ch->user_line_stride = (int32_t)j->stride;
            ch->user_data_type = EXR_PIXEL_FLOAT;
            ch->user_bytes_per_element = sizeof(float);
        }
        if (!started) {
            started = true;
            if ((rv = exr_encoding_choose_default_routines(j->ctx, 0, &enc)) != EXR_ERR_SUCCESS) break;
            enc.yield_until_ready_fn = NULL;
            enc.write_fn = NULL;
            if (j->zip) {
                enc.compress_fn = compress_zip;
                enc.encoding_user_data = &zip;
            }
        }
        if ((rv = exr_encoding_run(j->ctx, 0, &enc)) != EXR_ERR_SUCCESS) break;
        if (!(j->chunk[i] = malloc(enc.compressed_bytes ? enc.compressed_bytes : 1))) {
            rv = EXR_ERR_OUT_OF_MEMORY;
            break;
        }
        memcpy(j->chunk[i], enc.compressed_buffer, enc.compressed_bytes);
        j->chunk_size[i] = enc.compressed_bytes;
    }
    if (started) exr_encoding_destroy(j->ctx, &enc);
    if (zip.deflate) libdeflate_free_compressor(zip.deflate);
    free(zip.split);
    free(zip.diff);
    if (rv != EXR_ERR_SUCCESS && !atomic_exchange(&j->failed, true)) j->rv = rv;
    return NULL;
}

/* Makes room for n more bytes of the file at once (one copy of the header, not a
 * doubling's copies of the whole file); false when out of memory. */
static bool reserve(exr_stream *s, uint64_t n)
{
    amp__bytes *b = &s->out;
    if (n > SIZE_MAX - b->n) return false;
    if (b->n + n <= b->cap) return true;
    char *p = realloc(b->data, b->n + (size_t)n);
    if (!p) return false;
    b->data = p;
    b->cap = b->n + (size_t)n;
    return true;
}

/* The chunks of a header already written: compressed on up to a thread per core
 * (large images), written in order. */
static exr_result_t write_chunks(exr_context_t ctx, exr_stream *st, const float *px, int width, int height,
                                 int channels, bool zip)
{
    int32_t lines = 1;
    exr_result_t rv = exr_get_scanlines_per_chunk(ctx, 0, &lines);
    if (rv != EXR_ERR_SUCCESS) return rv;
    int count = (int)((height + (int64_t)lines - 1) / lines);
    exr_enc_job j = {.ctx = ctx, .px = px, .stride = (size_t)width * (size_t)channels * sizeof(float),
                     .channels = channels, .count = count, .zip = zip};
    exr_chunk_info_t *info = calloc((size_t)count, sizeof *info);
    j.chunk = calloc((size_t)count, sizeof *j.chunk);
    j.chunk_size = calloc((size_t)count, sizeof *j.chunk_size);
    j.info = info;
    if (!info || !j.chunk || !j.chunk_size) rv = EXR_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && rv == EXR_ERR_SUCCESS; i++)
        rv = exr_write_scanline_chunk_info(ctx, 0, i * lines, &info[i]);
    if (rv == EXR_ERR_SUCCESS) {
        atomic_init(&j.next, 0);
        atomic_init(&j.failed, false);
        run_threads(encode_chunks, &j, (size_t)width * (size_t)height, count);
        if (atomic_load(&j.failed)) rv = j.rv;
    }
    uint64_t total = (uint64_t)count * 16; /* each chunk's row and size; the table's offsets */
    for (int i = 0; i < count && rv == EXR_ERR_SUCCESS; i++) total += j.chunk_size[i];
    if (rv == EXR_ERR_SUCCESS && !reserve(st, total)) rv = EXR_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && rv == EXR_ERR_SUCCESS; i++)
        rv = exr_write_scanline_chunk(ctx, 0, info[i].start_y, j.chunk[i], j.chunk_size[i]);
    for (int i = 0; j.chunk && i < count; i++) free(j.chunk[i]);
    free(j.chunk);
    free(j.chunk_size);
    free(info);
    return rv;
}

static amp_status exr_encode(const char *who, const amp_image *img, int bits, const amp_image_save_desc *d,
                             unsigned char **data, size_t *size)
{
    exr_compression_t comp;
    switch (d->compression) {
    case AMP_IMAGE_COMPRESSION_DEFAULT:
    case AMP_IMAGE_COMPRESSION_DEFLATE: comp = EXR_COMPRESSION_ZIP; break;
    case AMP_IMAGE_COMPRESSION_NONE: comp = EXR_COMPRESSION_NONE; break;
    case AMP_IMAGE_COMPRESSION_RLE: comp = EXR_COMPRESSION_RLE; break;
    case AMP_IMAGE_COMPRESSION_PIZ: comp = EXR_COMPRESSION_PIZ; break;
    default:
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "%s: an OpenEXR file is not written with LZW compression (DEFAULT = DEFLATE (ZIP), NONE, RLE "
                         "or PIZ)", who);
    }
    int nch = img->channels;
    void *owned = NULL;
    const float *px = amp__image_packed(img, 32, &owned);
    if (!px) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory", who);
    exr_stream st = {0};
    atomic_flag_clear(&st.said);
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = on_error;
    init.user_data = &st;
    init.write_fn = write_memory;
    init.zip_level = 4;
    exr_context_t ctx = NULL;
    int part = 0;
    exr_pixel_type_t type = bits == 16 ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
    exr_result_t rv = exr_start_write(&ctx, "memory", EXR_WRITE_FILE_DIRECTLY, &init);
    if (rv == EXR_ERR_SUCCESS) rv = exr_add_part(ctx, NULL, EXR_STORAGE_SCANLINE, &part);
    if (rv == EXR_ERR_SUCCESS) rv = exr_initialize_required_attr_simple(ctx, part, img->width, img->height, comp);
    for (int c = 0; c < nch && rv == EXR_ERR_SUCCESS; c++)
        rv = exr_add_channel(ctx, part, WRITTEN[nch][c], type, EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1);
    if (rv == EXR_ERR_SUCCESS) rv = exr_write_header(ctx);
    if (rv == EXR_ERR_SUCCESS)
        rv = write_chunks(ctx, &st, px, img->width, img->height, nch, comp == EXR_COMPRESSION_ZIP);
    if (ctx) {
        exr_result_t done = exr_finish(&ctx);
        if (rv == EXR_ERR_SUCCESS) rv = done;
    }
    free(owned);
    if (rv != EXR_ERR_SUCCESS || st.out_of_memory) {
        free(st.out.data);
        return exr_write_fail(who, &st, rv);
    }
    *data = (unsigned char *)st.out.data;
    *size = st.out.n;
    return AMP_OK;
}

const amp__codec amp__codec_exr = {
    .format = AMP_IMAGE_FORMAT_EXR, .name = "exr", .title = "OpenEXR", .extensions = "exr",
    /* a half sample of a deflated (ZIP, ZIPS, PXR24) channel: 1032 bytes of samples a
     * byte (exr_open checks each compression's own, over every channel) */
    .densest = 516, .save_bits = AMP__BITS(16) | AMP__BITS(32), .half = true,
    .sniff = exr_sniff, .open = exr_open, .decode = exr_decode, .close = exr_close, .encode = exr_encode,
};
