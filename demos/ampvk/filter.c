/*
 * ampvk filter: a chain of built-in filters on an image, or on every image of a folder.
 *
 *     ampvk filter [OPTIONS] IN OUT FILTER[:key=value,...] [FILTER...]
 *
 * IN a file: it is read (PNG, JPEG, BMP, TGA, PSD or Radiance HDR), filtered on the
 * accelerator and written to OUT in the format of OUT's extension. IN a folder: every
 * image in it goes to the folder OUT under the same name (PSD files as .png). Host
 * threads, 1.5 per core, each take the next file through decode, upload, filtering,
 * download and encode, so that the stages of different files overlap and the batch
 * runs at the speed of the busiest resource. Under mpirun the files are shared out by
 * rank and each rank takes the GPU of its node-local rank; rank 0 reports.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dist.h"
#include "tool.h"

#define MAX_FILTERS 64
#define MAX_VIEWS 64

static const char help[] =
    "usage: ampvk filter [OPTIONS] IN OUT FILTER[:key=value,...] [FILTER...]\n"
    "\n"
    "Runs a chain of built-in filters on the image IN and writes OUT; with IN a folder,\n"
    "on every image in it, written to the folder OUT under the same names.\n"
    "Images: PNG, TIFF (8/16-bit, float), OpenEXR (half, float) keep their channels and\n"
    "depth; JPEG, WebP, Radiance .hdr, BMP, TGA and PSD are read too. OUT's extension\n"
    "picks the format written: .png, .jpg/.jpeg, .webp, .tif/.tiff, .exr, .bmp, .tga, .hdr.\n"
    "\n"
    "FILTER is a filter name with optional parameters (ampvk/filter.h has them all):\n"
    "  gaussian:sigma=2  gaussian:radius=2  box:radius=3  median:radius=2  sobel\n"
    "  sharpen:amount=0.5,sigma=1  bilateral:diameter=9,sigma_color=50,sigma_space=5\n"
    "  erode:radius=1  dilate:radius=1  grayscale  sepia  invert  gamma:gamma=2.2\n"
    "  brightness_contrast:brightness=0.1,contrast=1.2  threshold:threshold=0.5,type=binary\n"
    "  srgb_to_linear  linear_to_srgb  resize:width=1920[,height=1080,interpolation=area]\n"
    "  equalize  tonemap:exposure=2,curve=reinhard|aces  copy\n"
    "  and border=reflect_101|replicate|reflect|wrap|constant, border_value=V[/V/V/V].\n"
    "\n"
    "options:\n"
    "  --device SPEC   the accelerator: an index, a device path or a name substring\n"
    "                  (as AMPVK_DEFAULT_ACCELERATOR); `all`: every GPU\n"
    "  --bits 8|16     PNG output depth (default: the input's)\n"
    "  --quality N     JPEG quality, 1..100 (default 90)\n"
    "  --png-level N   PNG compression: 1 (fast) .. 12 (smallest) through libdeflate;\n"
    "                  default: a run-length coder, fastest (best for photographs)\n"
    "  --jobs N        host threads for a folder (default: one per core)\n"
    "  --quiet         no progress and no summary\n"
    "  --timings       print the time of each stage (a file: each waited for; a folder:\n"
    "                  the sums over all threads, without waits)\n"
    "  -h, --help      this help\n"
    "\n"
    "A folder run shows a progress bar on a terminal, plain lines otherwise; files that\n"
    "fail are listed with their reasons at the end, the others still complete, and the\n"
    "exit code is 1. An output file appears only when it is complete.\n"
    "Exit codes: 0 done, 1 a file or the device failed, 2 a usage error.\n";

typedef struct options {
    amp_image_filter filters[MAX_FILTERS];
    int count;
    int bits, quality, png_level, jobs;
    bool quiet, timings;
    bool folder; /* set for a folder run: --timings then sums the stages without waits */
    const char *device;
} options;

/* Turns to use the device in a folder run: a worker takes one before it uploads an image
 * and gives it back once the result is on the host. The first images of a run all reach
 * the device at once, and each needs staging memory, which the driver pins one
 * allocation at a time (an H200: 13 allocations in a row, 300 ms, with 24 workers); a
 * few turns keep those few and leave the other workers decoding. */
#define SLOTS_PER_VIEW 4 /* turns on each device (2 and 8 were as fast on an H200) */

typedef struct gpu_slots {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    int left; /* turns not taken */
} gpu_slots;

static bool slot_try(gpu_slots *g)
{
    pthread_mutex_lock(&g->lock);
    bool got = g->left > 0;
    if (got) g->left--;
    pthread_mutex_unlock(&g->lock);
    return got;
}

static void slot_wait(gpu_slots *g)
{
    pthread_mutex_lock(&g->lock);
    while (g->left == 0) pthread_cond_wait(&g->freed, &g->lock);
    g->left--;
    pthread_mutex_unlock(&g->lock);
}

static void slot_give(gpu_slots *g)
{
    pthread_mutex_lock(&g->lock);
    g->left++;
    pthread_cond_signal(&g->freed);
    pthread_mutex_unlock(&g->lock);
}

/* An image read ahead, waiting for its turn on the device. */
typedef struct held_image {
    size_t index;
    amp_image img;
    double decode_s;
} held_image;

/* One folder run: the files of this rank, the views, the counters. */
typedef struct run {
    const options *opt;
    const char *in_dir, *out_dir;
    char **names; /* this rank's files */
    size_t count;
    amp_accelerator_view *views[MAX_VIEWS];
    int nviews;
    atomic_size_t next, done, failed;
    pthread_mutex_t lock;
    pthread_cond_t views_made;
    pthread_cond_t all_done; /* signalled when the rank's last file is done */
    int views_state; /* 0 while the main thread makes the views, 1 once made, -1 if that failed */
    double stage_sum[5]; /* --timings: seconds in each stage, all threads */
    char *failures; /* "name: reason\n" lines */
    size_t failures_len;
    int next_view;
    gpu_slots slots;
    held_image *held; /* images read ahead, in the order read: held_out .. held_in - 1 wait (under lock) */
    size_t held_in, held_out, held_bytes, held_budget;
} run;

/* ---- one image ---- */

/* Whether texture t holds img as it is: its extent, components, depth and packed rows
 * (so the pixels copy in and out unchanged). */
static bool holds(amp_texture *t, const amp_image *img)
{
    amp_extent e = amp_texture_extent(t);
    amp_type type = amp_texture_type(t);
    return e.dims[0] == img->height && e.dims[1] == img->width && amp_type_components(type) == img->channels &&
           amp_texture_bits_per_scalar_element(t) == img->bits &&
           amp_type_scalar(type) == (img->bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM) &&
           img->stride == (size_t)img->width * (size_t)img->channels * (size_t)(img->bits / 8);
}

/* Reads in_path, runs the chain on view and writes out_path. 0, or 1 with the reason
 * in why. ready: NULL, or the source and destination textures made ahead from the
 * file's header (with their transfers reserved), taken over where they fit. slot: NULL,
 * or a turn on the device the caller holds, given back once the result is on the host. */
/* The depth a result is written at: floats for Radiance HDR, else --bits, else floats
 * where the format keeps them (OpenEXR and TIFF, for float results), else the texture's. */
static int out_bits(const options *o, amp_image_format f, amp_texture *t)
{
    bool floats = amp_type_scalar(amp_texture_type(t)) == AMP_SCALAR_FLOAT;
    if (f == AMP_IMAGE_FORMAT_HDR) return 32;
    if (o->bits) return o->bits;
    return floats && (f == AMP_IMAGE_FORMAT_EXR || f == AMP_IMAGE_FORMAT_TIFF) ? 32 : 0;
}

static int filter_file(const options *o, amp_accelerator_view *view, const char *in_path, const char *out_path,
                       char *why, size_t why_len, char *info, size_t info_len, double *stages, amp_image *decoded,
                       amp_texture *ready[2], gpu_slots *slot)
{
    /* stages (--timings): seconds of decode, upload, filter, download, encode + write,
       each waited for (which costs a little overlap) */
    double t = stages ? tool_now() : 0;
#define STAGE(k)                                                                                                     \
    do {                                                                                                             \
        if (stages) {                                                                                                \
            if (((k) == 1 || (k) == 2) && !o->folder) amp_view_wait(view);                                           \
            double now_ = tool_now();                                                                                \
            stages[k] = now_ - t;                                                                                    \
            t = now_;                                                                                                \
        }                                                                                                            \
    } while (0)
    amp_image img = {0}, out = {0};
    amp_texture *src = NULL, *dst = NULL;
    amp_image_format f = amp_image_format_from_path(out_path);
    /* decoded: the image already read (taken over), else read here */
    amp_status s = AMP_OK;
    if (decoded)
        img = *decoded, *decoded = (amp_image){0};
    else
        s = amp_image_load(in_path, NULL, &img);
    if (!decoded) STAGE(0);
    else if (stages) t = tool_now();
    if (s == AMP_OK && ready && ready[0] && holds(ready[0], &img)) {
        src = ready[0], ready[0] = NULL;
        s = amp_texture_copy_from_host(src, NULL, img.pixels, img.stride * (size_t)img.height);
    } else if (s == AMP_OK) {
        src = amp_texture_from_image(view, &img, 0);
    }
    STAGE(1);
    int w = img.width, h = img.height, channels = img.channels, bits = img.bits;
    if (s == AMP_OK && !src) s = amp_last_status();
    amp_extent e;
    if (s == AMP_OK) s = amp_image_filter_output_extent(o->filters, o->count, amp_texture_extent(src), &e);
    if (s == AMP_OK) {
        amp_type type = amp_texture_type(src);
        amp_type dtype = (amp_type)AMP_MAKE_TYPE(amp_type_scalar(type),
                                                 amp_image_filter_output_components(o->filters, o->count,
                                                                                    amp_type_components(type)));
        amp_extent re = ready && ready[1] ? amp_texture_extent(ready[1]) : (amp_extent){0};
        if (ready && ready[1] && amp_texture_type(ready[1]) == dtype && re.dims[0] == e.dims[0] &&
            re.dims[1] == e.dims[1] &&
            amp_texture_bits_per_scalar_element(ready[1]) == amp_texture_bits_per_scalar_element(src))
            dst = ready[1], ready[1] = NULL;
        else
            dst = amp_texture_create(view, &(amp_texture_desc){
                .extent = e, .type = dtype, .bits_per_scalar_element = amp_texture_bits_per_scalar_element(src)});
        if (!dst) s = amp_last_status();
    }
    if (s == AMP_OK) s = amp_image_filter_chain(o->filters, o->count, src, dst);
    STAGE(2);
    /* a PNG of the result's depth from a GPU: amp_texture_save filters its rows on the
       device and codes them on the host (without the turn: the device has the work) */
    amp_accelerator_info acc;
    bool png_on_device = s == AMP_OK && f == AMP_IMAGE_FORMAT_PNG && o->png_level == 0 &&
                         (o->bits == 0 || o->bits == amp_texture_bits_per_scalar_element(dst)) &&
                         amp_accelerator_get_info(amp_view_accelerator(view), &acc) == AMP_OK && !acc.is_emulated;
    if (png_on_device) {
        amp_image_free(&img);
        if (slot) slot_give(slot);
        STAGE(3);
        s = amp_texture_save(dst, out_path, &(amp_image_save_desc){.format = f});
        amp_extent de = amp_texture_extent(dst);
        out = (amp_image){.width = de.dims[1], .height = de.dims[0],
                          .channels = amp_type_components(amp_texture_type(dst)),
                          .bits = amp_texture_bits_per_scalar_element(dst)};
    } else {
        /* the result into the decoded image's memory where it has the same layout (those
           pages are already the process's: a new 33 MB buffer faults 8100 times, 19 ms) */
        if (s == AMP_OK && img.pixels && holds(dst, &img) && img.bits != 32 && (o->bits == 0 || o->bits == img.bits)) {
            s = amp_texture_copy_to_host(dst, NULL, img.pixels, img.stride * (size_t)img.height);
            out = img, img = (amp_image){0};
            out.format = AMP_IMAGE_FORMAT_AUTO;
        } else if (s == AMP_OK) {
            amp_image_free(&img);
            s = amp_texture_to_image(dst, out_bits(o, f, dst), &out);
        }
        amp_image_free(&img);
        if (slot) slot_give(slot);
        STAGE(3);
        if (s == AMP_OK)
            s = amp_image_save(out_path, &out,
                               &(amp_image_save_desc){.format = f, .quality = o->quality, .png_level = o->png_level});
    }
    STAGE(4);
#undef STAGE
    if (s == AMP_OK && info)
        snprintf(info, info_len, "%dx%d, %d channel%s of %d bits -> %dx%d, %d channel%s of %d bits", w, h, channels,
                 channels == 1 ? "" : "s", bits, out.width, out.height, out.channels, out.channels == 1 ? "" : "s",
                 out.bits);
    if (s != AMP_OK) snprintf(why, why_len, "%s", amp_last_error());
    amp_image_free(&out);
    amp_texture_destroy(&dst);
    amp_texture_destroy(&src);
    return s == AMP_OK ? 0 : 1;
}

/* ---- folders ---- */

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir/name, malloc'ed (with room for a longer extension). */
static char *join(const char *dir, const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 8);
    if (p) sprintf(p, "%s/%s", dir, name);
    return p;
}

/* The output path of an input name: the same name, except that PSD (read only)
 * becomes PNG. */
static char *output_name(const char *dir, const char *name)
{
    char *p = join(dir, name);
    if (p && amp_image_format_from_path(name) == AMP_IMAGE_FORMAT_PSD) strcpy(strrchr(p, '.'), ".png");
    return p;
}

static void add_failure(run *r, const char *name, const char *why)
{
    size_t add = strlen(name) + strlen(why) + 4;
    pthread_mutex_lock(&r->lock);
    char *p = realloc(r->failures, r->failures_len + add + 1);
    if (p) {
        r->failures = p;
        r->failures_len += (size_t)sprintf(p + r->failures_len, "%s: %s\n", name, why);
    }
    pthread_mutex_unlock(&r->lock);
}

/* Publishes the views (ok) or their failure to the workers waiting for them. */
static void views_made(run *r, bool ok)
{
    pthread_mutex_lock(&r->lock);
    r->views_state = ok ? 1 : -1;
    pthread_cond_broadcast(&r->views_made);
    pthread_mutex_unlock(&r->lock);
}

/* The views once the main thread has made them: 1, and this worker's view (taken in
 * turn); -1 if that failed; 0 while it is making them (wait: block until it is done). */
static int views_ready(run *r, bool wait, amp_accelerator_view **view)
{
    pthread_mutex_lock(&r->lock);
    while (wait && r->views_state == 0) pthread_cond_wait(&r->views_made, &r->lock);
    int state = r->views_state;
    if (state > 0 && !*view) *view = r->views[r->next_view++ % r->nviews];
    pthread_mutex_unlock(&r->lock);
    return state;
}

static size_t image_bytes(const amp_image *img) { return img->stride * (size_t)img->height; }

/* Counts a file as done (failed with why when rc != 0). */
static void file_done(run *r, size_t index, int rc, const char *why, const double st[5])
{
    if (r->opt->timings) {
        pthread_mutex_lock(&r->lock);
        for (int k = 0; k < 5; k++) r->stage_sum[k] += st[k];
        pthread_mutex_unlock(&r->lock);
    }
    if (rc) {
        add_failure(r, r->names[index], why);
        atomic_fetch_add(&r->failed, 1);
    }
    if (atomic_fetch_add(&r->done, 1) + 1 == r->count) {
        pthread_mutex_lock(&r->lock);
        pthread_cond_broadcast(&r->all_done);
        pthread_mutex_unlock(&r->lock);
    }
}

/* Whether images read ahead wait for the device. */
static bool held_waiting(run *r)
{
    pthread_mutex_lock(&r->lock);
    bool any = r->held_out < r->held_in;
    pthread_mutex_unlock(&r->lock);
    return any;
}

/* The oldest image read ahead into h: false when none is left. */
static bool held_take(run *r, held_image *h)
{
    pthread_mutex_lock(&r->lock);
    bool any = r->held_out < r->held_in;
    if (any) {
        *h = r->held[r->held_out++];
        r->held_bytes -= image_bytes(&h->img);
    }
    pthread_mutex_unlock(&r->lock);
    return any;
}

/* Reads the next file into the queue of images read ahead, if a file is left and the
 * queue is under its budget of bytes (or empty); false when it read none. */
static bool read_ahead(run *r)
{
    pthread_mutex_lock(&r->lock);
    bool room = r->held_out == r->held_in || r->held_bytes < r->held_budget;
    pthread_mutex_unlock(&r->lock);
    if (!room || atomic_load(&r->next) >= r->count) return false;
    size_t i = atomic_fetch_add(&r->next, 1);
    if (i >= r->count) return false;
    char *in = join(r->in_dir, r->names[i]);
    double t = tool_now();
    amp_image img = {0};
    amp_status s = in ? amp_image_load(in, NULL, &img) : AMP_ERROR_OUT_OF_MEMORY;
    double st[5] = {tool_now() - t};
    if (s == AMP_OK) {
        pthread_mutex_lock(&r->lock);
        r->held[r->held_in++] = (held_image){.index = i, .img = img, .decode_s = st[0]};
        r->held_bytes += image_bytes(&img);
        pthread_mutex_unlock(&r->lock);
    } else {
        file_done(r, i, 1, in ? amp_last_error() : "out of host memory", st);
    }
    free(in);
    return true;
}

/* Filters and writes an image read ahead; the caller holds a turn on the device, which
 * filter_file gives back once the result is on the host (before the encode). */
static void finish_held(run *r, amp_accelerator_view *view, held_image *h)
{
    char why[1024];
    double st[5] = {h->decode_s};
    char *in = join(r->in_dir, r->names[h->index]), *out = output_name(r->out_dir, r->names[h->index]);
    int rc = 1;
    if (in && out) {
        rc = filter_file(r->opt, view, in, out, why, sizeof why, NULL, 0, r->opt->timings ? st : NULL, &h->img, NULL,
                         &r->slots);
    } else {
        slot_give(&r->slots);
        snprintf(why, sizeof why, "out of host memory");
    }
    amp_image_free(&h->img);
    file_done(r, h->index, rc, why, st);
    free(in);
    free(out);
}

/* A folder worker. Whenever it gets a turn on the device it takes the oldest image read
 * ahead through the device and encodes the result; otherwise it reads the next file
 * into the queue (up to the run's budget of bytes). So the cores read files while the
 * main thread opens the devices (an NVIDIA H200's instance and device: 200-400 ms, in
 * which 16 cores read 120-160 1080p PNGs) and while the device's turns are taken, and
 * any worker takes any image (the last ones are not left to one thread). */
static void *worker(void *arg)
{
    run *r = arg;
    amp_accelerator_view *view = NULL;
    int state = 0;
    held_image h;
    for (;;) {
        if (state == 0) state = views_ready(r, false, &view);
        if (state < 0) break;
        if (state > 0 && held_waiting(r) && slot_try(&r->slots)) {
            if (held_take(r, &h)) finish_held(r, view, &h);
            else slot_give(&r->slots);
            continue;
        }
        if (read_ahead(r)) continue;
        if (!held_waiting(r)) {
            if (atomic_load(&r->next) >= r->count) break;
            continue; /* the queue emptied after read_ahead found it full: try again */
        }
        if (state == 0) {
            state = views_ready(r, true, &view);
            continue;
        }
        slot_wait(&r->slots);
        if (held_take(r, &h)) finish_held(r, view, &h);
        else slot_give(&r->slots);
    }
    return NULL;
}

static void format_time(double s, char *buf, size_t n)
{
    long t = s < 0 ? 0 : s > 359999 ? 359999 : (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

/* Draws the progress: a bar on a terminal, else a plain line. */
static void show_progress(bool tty, size_t done, size_t failed, size_t total, double elapsed, bool last)
{
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    char left[32], fails[32] = "";
    format_time(rate > 0 ? (double)(total - done) / rate : 0, left, sizeof left);
    if (failed) snprintf(fails, sizeof fails, ", %zu failed", failed);
    if (tty) {
        char bar[31];
        int filled = total ? (int)(30 * done / total) : 30;
        for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
        bar[30] = '\0';
        printf("\r%zu/%zu [%s] %3d%%  %.1f images/s  %s left%s\033[K%s", done, total, bar,
               total ? (int)(100 * done / total) : 100, rate, left, fails, last ? "\n" : "");
    } else {
        printf("%zu/%zu images, %.1f images/s, %s left%s\n", done, total, rate, left, fails);
    }
    fflush(stdout);
}

/* The views of a run. --device all: one per GPU (under mpirun: the GPU of this
 * rank's node-local rank); mpirun without --device or AMPVK_DEFAULT_ACCELERATOR: the
 * same; else the default accelerator's view. No GPU: the default accelerator. */
static int make_views(run *r, const options *o, const tool_dist *dist)
{
    amp_accelerator *gpus[MAX_VIEWS];
    int ngpus = 0, n = amp_accelerator_count();
    for (int i = 0; i < n && ngpus < MAX_VIEWS; i++) {
        amp_accelerator_info info;
        amp_accelerator *acc = amp_accelerator_at(i);
        if (acc && amp_accelerator_get_info(acc, &info) == AMP_OK && !info.is_emulated) gpus[ngpus++] = acc;
    }
    bool all = o->device && strcmp(o->device, "all") == 0;
    bool by_rank = dist->size > 1 && (all || (!o->device && !getenv("AMPVK_DEFAULT_ACCELERATOR")));
    if (ngpus && by_rank) {
        r->views[r->nviews++] = amp_accelerator_default_view(gpus[dist->local_rank % ngpus]);
    } else if (ngpus && all) {
        for (int i = 0; i < ngpus; i++) r->views[r->nviews++] = amp_accelerator_default_view(gpus[i]);
    } else {
        r->views[r->nviews++] = amp_default_view();
    }
    for (int i = 0; i < r->nviews; i++)
        if (!r->views[i]) return tool_error("filter", "no accelerator: %s", amp_last_error());
    return 0;
}

static int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static int filter_folder(const options *o, const char *in_dir, const char *out_dir)
{
    tool_dist dist;
    if (tool_dist_init(&dist) != 0) return 1;
    int code = 0;
    run r = {.opt = o, .in_dir = in_dir, .out_dir = out_dir};
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.views_made, NULL);
    pthread_cond_init(&r.all_done, NULL);
    pthread_mutex_init(&r.slots.lock, NULL);
    pthread_cond_init(&r.slots.freed, NULL);
    /* images read ahead: an eighth of the memory, at most 2 GiB (an H200 whose device
       took 335 ms to open: 200 1080p PNGs in 1.05-1.16 s with 1 GiB, 1.00-1.12 s with
       3 GB, all of them read ahead) */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    r.held_budget = pages > 0 && page > 0 ? (size_t)pages * (size_t)page / 8 : (size_t)256 << 20;
    if (r.held_budget > ((size_t)2 << 30)) r.held_budget = (size_t)2 << 30;
    char **all = NULL;
    long total = tool_list_images(in_dir, false, &all);
    if (total < 0) code = tool_error("filter", "cannot read the folder %s: %s", in_dir, strerror(errno));
    if (!code && mkdir(out_dir, 0755) != 0 && errno != EEXIST)
        code = tool_error("filter", "cannot create the folder %s: %s", out_dir, strerror(errno));
    char rin[PATH_MAX], rout[PATH_MAX];
    if (!code && realpath(in_dir, rin) && realpath(out_dir, rout) && strcmp(rin, rout) == 0)
        code = tool_error("filter", "IN and OUT are the same folder (%s): the inputs would be overwritten", rin);
    if (!code && !is_dir(out_dir)) code = tool_error("filter", "%s is not a folder", out_dir);
    /* this rank's share: every size-th file */
    if (!code && total > 0) {
        r.names = malloc(((size_t)total / (size_t)dist.size + 1) * sizeof *r.names);
        if (!r.names) code = tool_error("filter", "out of host memory");
        for (long i = dist.rank; !code && i < total; i += dist.size) r.names[r.count++] = all[i];
        if (!code && !(r.held = malloc((r.count ? r.count : 1) * sizeof *r.held)))
            code = tool_error("filter", "out of host memory");
    }
    bool report = dist.rank == 0 && !o->quiet, tty = isatty(STDOUT_FILENO);
    double t0 = tool_now();
    pthread_t threads[256];
    int started = 0;
    if (!code && r.count) {
        /* a thread per core: a worker that cannot have a turn on the device reads ahead,
           so none waits while there is work (200 1080p PNGs on an H200's 16 cores:
           0.74-0.79 s with 16 threads, 0.80-0.88 s with 24, 0.75-0.84 s with 32); they
           start reading files while this thread makes the views */
        int cores = cpu_count() / (dist.local_size > 0 ? dist.local_size : 1);
        int jobs = o->jobs ? o->jobs : cores;
        if (jobs < 1) jobs = 1;
        if ((size_t)jobs > r.count) jobs = (int)r.count;
        for (; started < jobs && started < 256; started++)
            if (pthread_create(&threads[started], NULL, worker, &r) != 0) break;
    }
    if (!code) code = make_views(&r, o, &dist);
    pthread_mutex_lock(&r.slots.lock);
    r.slots.left = SLOTS_PER_VIEW * r.nviews; /* (taken only once the views are published) */
    pthread_mutex_unlock(&r.slots.lock);
    views_made(&r, code == 0);
    if (!code && r.count) {
        if (started == 0) worker(&r); /* no thread could start: this one does the work */
        size_t shown = SIZE_MAX;
        double last_line = 0;
        for (;;) {
            size_t done = atomic_load(&r.done), failed = atomic_load(&r.failed), done_all, failed_all;
            tool_dist_progress(&dist, done, failed, &done_all, &failed_all);
            double now = tool_now();
            if (report && done_all != shown && done_all > 0 && (tty || now - last_line >= 1.0 || done_all == (size_t)total)) {
                show_progress(tty, done_all, failed_all, (size_t)total, now - t0, false);
                shown = done_all;
                last_line = now;
            }
            if (done == r.count) break;
            /* the progress every 50 ms, and the end at once (a sleep of 50 ms had kept
               the run 25 ms longer on average) */
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 50 * 1000 * 1000;
            if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
            pthread_mutex_lock(&r.lock);
            if (atomic_load(&r.done) < r.count) pthread_cond_timedwait(&r.all_done, &r.lock, &until);
            pthread_mutex_unlock(&r.lock);
        }
    }
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    /* this rank's last report; the failures (after every rank's last report); the totals */
    size_t done_all = 0, failed_all = 0;
    tool_dist_progress(&dist, atomic_load(&r.done), atomic_load(&r.failed), &done_all, &failed_all);
    char *failures = tool_dist_gather_text(&dist, r.failures ? r.failures : "");
    tool_dist_progress(&dist, atomic_load(&r.done), atomic_load(&r.failed), &done_all, &failed_all);
    double elapsed = tool_now() - t0;
    if (report && tty && total > 0 && !code) show_progress(true, done_all, failed_all, (size_t)total, elapsed, true);
    if (report && !code)
        printf("%zu image%s in %.2f s (%.1f images/s), %zu failed\n", done_all, done_all == 1 ? "" : "s", elapsed,
               elapsed > 0 ? (double)done_all / elapsed : 0.0, failed_all);
    if (o->timings && r.count) /* this rank's threads */
        printf("per image, summed over threads: decode %.1f ms, upload %.1f ms, filter %.1f ms, download %.1f ms, "
               "encode and write %.1f ms\n",
               1000 * r.stage_sum[0] / (double)r.count, 1000 * r.stage_sum[1] / (double)r.count,
               1000 * r.stage_sum[2] / (double)r.count, 1000 * r.stage_sum[3] / (double)r.count,
               1000 * r.stage_sum[4] / (double)r.count);
    fflush(stdout);
    if (dist.rank == 0 && failures && *failures) {
        fprintf(stderr, "ampvk filter: %zu file%s failed:\n%s", failed_all, failed_all == 1 ? "" : "s", failures);
        if (!code) code = 1;
    }
    if (!code && failed_all) code = 1;
    code = tool_dist_max_code(&dist, code);
    free(failures);
    free(r.failures);
    while (r.held_out < r.held_in) amp_image_free(&r.held[r.held_out++].img); /* left when the views failed */
    free(r.held);
    free(r.names);
    for (long i = 0; i < total; i++) free(all[i]);
    free(all);
    pthread_mutex_destroy(&r.lock);
    pthread_cond_destroy(&r.views_made);
    pthread_cond_destroy(&r.all_done);
    pthread_mutex_destroy(&r.slots.lock);
    pthread_cond_destroy(&r.slots.freed);
    tool_dist_finalize(&dist);
    return code;
}

/* ---- the command ---- */

/* An image decoded on another thread (its error message is that thread's). */
typedef struct decode_job {
    const char *path;
    amp_image img;
    amp_status s;
    char why[1024];
} decode_job;

static void *decode_thread(void *arg)
{
    decode_job *j = arg;
    j->s = amp_image_load(j->path, NULL, &j->img);
    if (j->s != AMP_OK) snprintf(j->why, sizeof j->why, "%s", amp_last_error());
    return NULL;
}

int ampvk_filter_main(int argc, char **argv)
{
    if (tool_wants_help(argc, argv)) {
        fputs(help, stdout);
        return 0;
    }
    static options o; /* 64 filters: not on the stack */
    memset(&o, 0, sizeof o);
    const char *files[2] = {NULL, NULL};
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        long n;
        if (tool_option(argc, argv, &i, "--device", &v)) {
            if (!v) return tool_usage_error("filter", "--device needs a SPEC (an index, a path, a name or all)");
            o.device = v;
        } else if (tool_option(argc, argv, &i, "--bits", &v)) {
            if (!tool_parse_long(v, 8, 16, &n) || (n != 8 && n != 16))
                return tool_usage_error("filter", "--bits must be 8 or 16, not '%s'", v ? v : "");
            o.bits = (int)n;
        } else if (tool_option(argc, argv, &i, "--quality", &v)) {
            if (!tool_parse_long(v, 1, 100, &n))
                return tool_usage_error("filter", "--quality must be 1..100, not '%s'", v ? v : "");
            o.quality = (int)n;
        } else if (tool_option(argc, argv, &i, "--png-level", &v)) {
            if (!tool_parse_long(v, 1, 12, &n))
                return tool_usage_error("filter", "--png-level must be 1..12, not '%s'", v ? v : "");
            o.png_level = (int)n;
        } else if (tool_option(argc, argv, &i, "--jobs", &v)) {
            if (!tool_parse_long(v, 1, 256, &n))
                return tool_usage_error("filter", "--jobs must be 1..256, not '%s'", v ? v : "");
            o.jobs = (int)n;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o.quiet = true;
        } else if (strcmp(a, "--timings") == 0) {
            o.timings = true;
        } else if (strcmp(a, "--") == 0) {
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            return tool_usage_error("filter", "unknown option '%s'", a);
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else if (o.count == MAX_FILTERS) {
            return tool_usage_error("filter", "more than %d filters", MAX_FILTERS);
        } else if (amp_image_filter_parse(a, &o.filters[o.count]) != AMP_OK) {
            return tool_usage_error("filter", "%s", amp_last_error());
        } else {
            o.count++;
        }
    }
    if (nfiles < 2) return tool_usage_error("filter", "missing %s", nfiles ? "OUT" : "IN and OUT");
    if (o.count == 0) return tool_usage_error("filter", "missing FILTER (e.g. gaussian:sigma=2)");
    if (o.device && strcmp(o.device, "all") != 0 && tool_select_device("filter", o.device) != 0) return 1;
    if (is_dir(files[0])) {
        o.folder = true;
        return filter_folder(&o, files[0], files[1]);
    }
    amp_image_format f = amp_image_format_from_path(files[1]);
    if (f == AMP_IMAGE_FORMAT_AUTO || f == AMP_IMAGE_FORMAT_PSD)
        return tool_usage_error("filter",
                                "OUT '%s' has no image extension ampvk writes (.png, .jpg, .webp, .tif, .exr, .bmp, "
                                ".tga, .hdr)",
                                files[1]);
    if (is_dir(files[1])) return tool_usage_error("filter", "OUT '%s' is a folder but IN is a file", files[1]);
    /* the header first: a bad file fails before a device is opened */
    amp_image head;
    if (amp_image_info(files[0], &head) != AMP_OK) return tool_error("filter", "%s", amp_last_error());
    amp_accelerator_view *view = amp_default_view();
    if (o.device && strcmp(o.device, "all") == 0) {
        run r = {0};
        tool_dist single = {.size = 1, .local_size = 1};
        if (make_views(&r, &o, &single) != 0) return 1;
        view = r.views[0];
    }
    if (!view) return tool_error("filter", "no accelerator: %s", amp_last_error());
    char why[1024], info[256];
    double t0 = tool_now(), stages[5] = {0};
    /* Decode on a thread while this one makes the chain's pipelines (on lavapipe each is
       compiled to machine code: 0.1-0.5 s), from the type the file's header gives. */
    decode_job job = {.path = files[0]};
    pthread_t decoder;
    bool threaded = pthread_create(&decoder, NULL, decode_thread, &job) == 0;
    if (!threaded) decode_thread(&job);
    amp_type type = (amp_type)AMP_MAKE_TYPE(head.bits == 32 ? AMP_SCALAR_FLOAT : AMP_SCALAR_UNORM, head.channels);
    /* Meanwhile the textures and their staging memory, from the header, and the chain's
       pipelines. On a GPU the chain runs once on the (uninitialized) textures: that
       also makes its intermediate textures at the image's size, whose first use costs
       the device 1.2 ms on an H100. On a CPU device, whose cores decode, the pipelines
       are made on a small image (amp_image_filter_prepare_extent: those of the image's
       size). A failure here shows in the
       run itself. */
    amp_texture *ready[2] = {NULL, NULL};
    amp_extent in_e = amp_extent2(head.height, head.width), out_e;
    if (amp_image_filter_output_extent(o.filters, o.count, in_e, &out_e) == AMP_OK) {
        int comps = amp_image_filter_output_components(o.filters, o.count, head.channels);
        ready[0] = amp_texture_create(view, &(amp_texture_desc){.extent = in_e, .type = type,
                                                                 .bits_per_scalar_element = head.bits});
        ready[1] = amp_texture_create(view, &(amp_texture_desc){
            .extent = out_e, .type = (amp_type)AMP_MAKE_TYPE(amp_type_scalar(type), comps),
            .bits_per_scalar_element = head.bits});
    }
    amp_accelerator_info dev_info;
    bool cpu = amp_accelerator_get_info(amp_view_accelerator(view), &dev_info) != AMP_OK || dev_info.is_emulated;
    if (!cpu && ready[0] && ready[1] && amp_image_filter_chain(o.filters, o.count, ready[0], ready[1]) == AMP_OK)
        amp_view_flush(view);
    else
        amp_image_filter_prepare_extent(view, o.filters, o.count, type, head.bits, in_e);
    if (ready[0]) amp_texture_reserve_transfers(ready[0], true, false);
    if (ready[1]) amp_texture_reserve_transfers(ready[1], false, true);
    if (threaded) pthread_join(decoder, NULL);
    if (job.s != AMP_OK) {
        amp_texture_destroy(&ready[0]);
        amp_texture_destroy(&ready[1]);
        return tool_error("filter", "%s", job.why);
    }
    if (o.timings) stages[0] = tool_now() - t0; /* decode, beside the pipelines */
    int rc = filter_file(&o, view, files[0], files[1], why, sizeof why, info, sizeof info, o.timings ? stages : NULL,
                         &job.img, ready, NULL);
    amp_image_free(&job.img);
    amp_texture_destroy(&ready[0]);
    amp_texture_destroy(&ready[1]);
    if (rc != 0) return tool_error("filter", "%s", why);
    if (o.timings)
        printf("decode %.1f ms, upload %.1f ms, filter %.1f ms, download %.1f ms, encode and write %.1f ms\n",
               1000 * stages[0], 1000 * stages[1], 1000 * stages[2], 1000 * stages[3], 1000 * stages[4]);
    if (!o.quiet) {
        amp_accelerator_info ai;
        const char *dev = amp_accelerator_get_info(amp_view_accelerator(view), &ai) == AMP_OK ? ai.description : "?";
        printf("%s -> %s (%s) in %.1f ms on %s\n", files[0], files[1], info, 1000 * (tool_now() - t0), dev);
    }
    return 0;
}
