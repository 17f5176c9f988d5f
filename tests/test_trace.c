/* The trace (amp_trace_start / amp_trace_stop, AMPVK_TRACE): the file is JSON (checked
 * by a strict parser here), an array of Chrome trace events, with the host spans of a
 * kernel's compile, record, submit, wait and host copies, a filter, and the device's
 * spans of the dispatch, the filter's passes and the copies, on the same clock: each
 * device span lies inside the host window between its recording and the wait that saw
 * it complete. Misuse gives errors that name the problem. A texture's reserved transfers
 * (amp_texture_reserve_transfers) allocate their staging memory when reserved, not in
 * the copies that follow, and those copies (an emulated RGB texture, converted over
 * several cores) bring the texels back exactly. */
#include <math.h>
#include <unistd.h>

#include "test.h"

/* ---- a strict JSON parser, enough for the trace ---- */

typedef struct event {
    char ph[4], cat[32], name[64];
    double ts, dur;
    int tid;
    char args[128];
} event;

typedef struct parser {
    const char *s;
    bool bad;
    event *ev;
    int n, cap;
} parser;

static void skip_ws(parser *p)
{
    while (*p->s == ' ' || *p->s == '\n' || *p->s == '\r' || *p->s == '\t') p->s++;
}
static bool eat(parser *p, char c)
{
    skip_ws(p);
    if (*p->s != c) return false;
    p->s++;
    return true;
}

/* A string into out (n bytes, cut short if longer); escapes checked. */
static void parse_string(parser *p, char *out, size_t n)
{
    size_t k = 0;
    if (!eat(p, '"')) {
        p->bad = true;
        return;
    }
    for (; *p->s && *p->s != '"'; p->s++) {
        char c = *p->s;
        if ((unsigned char)c < 0x20) p->bad = true;
        if (c == '\\') {
            p->s++;
            if (*p->s == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p->s[i]) || !p->s[i]) p->bad = true;
                p->s += 4;
                c = '?';
            } else if (*p->s && strchr("\"\\/bfnrt", *p->s)) {
                c = *p->s;
            } else {
                p->bad = true;
                return;
            }
        }
        if (out && k + 1 < n) out[k++] = c;
    }
    if (out) out[k] = 0;
    if (*p->s != '"') p->bad = true;
    else p->s++;
}

static double parse_number(parser *p)
{
    skip_ws(p);
    char *end;
    double v = strtod(p->s, &end);
    if (end == p->s || (*p->s != '-' && (*p->s < '0' || *p->s > '9'))) p->bad = true;
    p->s = end;
    return v;
}

static void parse_value(parser *p, int depth);

/* An object; at depth 1 (an event) its members fill an event. */
static void parse_object(parser *p, int depth)
{
    event e;
    memset(&e, 0, sizeof e);
    const char *args_start = NULL;
    if (!eat(p, '{')) {
        p->bad = true;
        return;
    }
    if (!eat(p, '}')) {
        do {
            char key[32];
            parse_string(p, key, sizeof key);
            if (!eat(p, ':')) p->bad = true;
            skip_ws(p);
            if (depth == 1 && strcmp(key, "ph") == 0) parse_string(p, e.ph, sizeof e.ph);
            else if (depth == 1 && strcmp(key, "cat") == 0) parse_string(p, e.cat, sizeof e.cat);
            else if (depth == 1 && strcmp(key, "name") == 0) parse_string(p, e.name, sizeof e.name);
            else if (depth == 1 && strcmp(key, "ts") == 0) e.ts = parse_number(p);
            else if (depth == 1 && strcmp(key, "dur") == 0) e.dur = parse_number(p);
            else if (depth == 1 && strcmp(key, "tid") == 0) e.tid = (int)parse_number(p);
            else {
                if (depth == 1 && strcmp(key, "args") == 0) args_start = p->s;
                parse_value(p, depth + 1);
                if (args_start && !e.args[0]) {
                    size_t len = (size_t)(p->s - args_start);
                    snprintf(e.args, sizeof e.args, "%.*s", (int)len, args_start);
                }
            }
        } while (!p->bad && eat(p, ','));
        if (!eat(p, '}')) p->bad = true;
    }
    if (depth == 1 && !p->bad) {
        if (p->n == p->cap) {
            p->cap = p->cap ? 2 * p->cap : 64;
            event *ne = realloc(p->ev, (size_t)p->cap * sizeof *ne);
            if (!ne) {
                p->bad = true;
                return;
            }
            p->ev = ne;
        }
        p->ev[p->n++] = e;
    }
}

static void parse_value(parser *p, int depth)
{
    skip_ws(p);
    if (depth > 32) p->bad = true;
    else if (*p->s == '{') parse_object(p, depth);
    else if (*p->s == '"') parse_string(p, NULL, 0);
    else if (*p->s == '[') {
        p->s++;
        if (!eat(p, ']')) {
            do parse_value(p, depth + 1);
            while (!p->bad && eat(p, ','));
            if (!eat(p, ']')) p->bad = true;
        }
    } else if (strncmp(p->s, "true", 4) == 0 || strncmp(p->s, "null", 4) == 0) p->s += 4;
    else if (strncmp(p->s, "false", 5) == 0) p->s += 5;
    else parse_number(p);
}

/* The events of a trace file; NULL (and a failed check) if it is not a JSON array. */
static event *read_trace(const char *path, int *n)
{
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    if (!f) return NULL;
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    parser p = {.s = text};
    skip_ws(&p);
    if (*p.s != '[') p.bad = true;
    else parse_value(&p, 0);
    skip_ws(&p);
    REQUIRE(!p.bad && *p.s == 0);
    *n = p.n;
    return p.ev;
}

/* ---- the checks ---- */

/* The first event from `from` on of category cat whose name matches (NULL: any;
 * test_name_matches). */
static const event *find(const event *ev, int n, const char *cat, const char *name, int from)
{
    for (int i = from; i < n; i++)
        if (strcmp(ev[i].cat, cat) == 0 && (!name || test_name_matches(ev[i].name, name))) return &ev[i];
    return NULL;
}

static void trace_work(amp_accelerator_view *v, const char *path)
{
    REQUIRE_OK(amp_trace_start(path));
    REQUIRE_FAIL(amp_trace_start(path), AMP_ERROR_INVALID_STATE, "already being written to");
    enum { N = 1 << 16 };
    static float x[N];
    for (int i = 0; i < N; i++) x[i] = (float)i;
    amp_array_view *xv = amp_array_view_create(amp_extent1(N), AMP_FLOAT, 0, x);
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.name = "a \"quoted\" name", .body = "return;"}),
                      AMP_ERROR_INVALID_ARGUMENT, "has a quote, backslash or control character at 2");
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.name = "traced <twice>", .params = "array_view<float, 1> x",
                                                            .body = "x(idx) = x(idx) * 2.0 + 1.0;"});
    REQUIRE(xv && k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", xv))));
    REQUIRE_OK(amp_array_view_synchronize(xv));
    REQUIRE(x[3] == 7.0f);
    /* a filter, with its texture copies */
    amp_texture_desc td = {.extent = amp_extent2(64, 64), .type = AMP_UNORM_4, .bits_per_scalar_element = 8};
    amp_texture *src = amp_texture_create(v, &td), *dst = amp_texture_create(v, &td);
    REQUIRE(src && dst);
    static uint8_t px[64 * 64 * 4];
    REQUIRE_OK(amp_texture_copy_from_host(src, NULL, px, sizeof px));
    REQUIRE_OK(amp_image_filter_apply(&(amp_image_filter){.op = AMP_IMAGE_GAUSSIAN, .sigma = 1}, src, dst));
    REQUIRE_OK(amp_texture_copy_to_host(dst, NULL, px, sizeof px));
    REQUIRE_OK(amp_view_wait(v));
    REQUIRE_OK(amp_trace_stop());
    REQUIRE_FAIL(amp_trace_stop(), AMP_ERROR_INVALID_STATE, "no trace");
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
}

static void check_trace(const char *path)
{
    int n = 0;
    event *ev = read_trace(path, &n);
    if (!ev) return;
    /* host spans */
    const char *kernel = "traced <twice>";
    const event *rec = find(ev, n, "record", kernel, 0), *compile = find(ev, n, "compile", kernel, 0);
    REQUIRE(rec && compile);
    REQUIRE(find(ev, n, "compile", "pipeline", 0));
    REQUIRE(find(ev, n, "submit", "submit", 0) && find(ev, n, "wait", "wait", 0));
    REQUIRE(find(ev, n, "record", "filter", 0));
    const event *h2s = find(ev, n, "copy", "host to staging", 0), *s2h = find(ev, n, "copy", "staging to host", 0);
    REQUIRE(h2s && s2h);
    if (h2s) REQUIRE(strstr(h2s->args, "\"bytes\":262144") || find(ev, n, "copy", "host to staging", 1));
    /* device spans: the dispatch, the filter's passes, the copies with bytes */
    const event *disp = find(ev, n, "device", kernel, 0), *up = find(ev, n, "device", "upload", 0);
    REQUIRE(disp && up && find(ev, n, "device", "download", 0) && find(ev, n, "device", "filter conv*", 0));
    if (up) REQUIRE(strstr(up->args, "\"bytes\":"));
    /* every span well formed; device spans on device tracks, named */
    int named_device = 0;
    for (int i = 0; i < n; i++) {
        REQUIRE(ev[i].ph[0] == 'X' || ev[i].ph[0] == 'M');
        if (ev[i].ph[0] == 'X') REQUIRE(ev[i].ts > 0 && ev[i].dur >= 0 && isfinite(ev[i].dur));
        if (ev[i].ph[0] == 'M' && ev[i].tid >= 1000) named_device += strstr(ev[i].args, "device: ") != NULL;
        if (strcmp(ev[i].cat, "device") == 0) REQUIRE(ev[i].tid >= 1000);
    }
    REQUIRE(named_device >= 1);
    /* one clock: the dispatch ran after its recording began and before the last wait
     * ended (with a microsecond of slack for the calibration) */
    if (disp && rec) {
        double last_wait_end = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(ev[i].cat, "wait") == 0 && ev[i].ts + ev[i].dur > last_wait_end)
                last_wait_end = ev[i].ts + ev[i].dur;
        REQUIRE_CMP(disp->ts, >=, rec->ts - 1.0, "%.3f");
        REQUIRE_CMP(disp->ts + disp->dur, <=, last_wait_end + 1.0, "%.3f");
    }
    free(ev);
}

/* Reserved transfers: the large staging allocations happen before the wait that
 * follows the reservation (the copies after it find their memory ready), and the
 * texels round-trip through the RGB emulation's conversion, split over the cores. */
static void reserved_transfers(amp_accelerator_view *v, const char *path)
{
    enum { W = 4096, H = 2048 };
    /* staging holds at least the host's texels: 3 bytes each where the device packs
       them (GPUs), 4 where the host widens them */
    size_t bytes = (size_t)W * H * 3, staging = bytes;
    uint8_t *in = malloc(bytes), *out = malloc(bytes);
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UNORM_3,
                                                                .bits_per_scalar_element = 8});
    REQUIRE(in && out && t);
    if (!in || !out || !t) goto done;
    for (size_t i = 0; i < bytes; i++) in[i] = (uint8_t)(i * 2654435761u >> 13);
    memset(out, 0, bytes);
    REQUIRE_FAIL(amp_texture_reserve_transfers(NULL, true, true), AMP_ERROR_INVALID_ARGUMENT, "NULL texture");
    REQUIRE_OK(amp_trace_start(path));
    REQUIRE_OK(amp_texture_reserve_transfers(t, true, true));
    REQUIRE_OK(amp_view_wait(v));
    REQUIRE_OK(amp_texture_copy_from_host(t, NULL, in, bytes));
    REQUIRE_OK(amp_texture_copy_to_host(t, NULL, out, bytes));
    REQUIRE_OK(amp_trace_stop());
    size_t wrong = 0;
    for (size_t i = 0; i < bytes; i++) wrong += in[i] != out[i];
    REQUIRE_CMP(wrong, ==, (size_t)0, "%zu");
    int n = 0;
    event *ev = read_trace(path, &n);
    const event *wait = ev ? find(ev, n, "wait", "wait", 0) : NULL;
    REQUIRE(wait);
    int large = 0;
    for (int i = 0; wait && i < n; i++) {
        const char *b = strcmp(ev[i].cat, "alloc") == 0 ? strstr(ev[i].args, "\"bytes\":") : NULL;
        if (!b || strtoull(b + 8, NULL, 10) < staging) continue;
        large++;
        REQUIRE_CMP(ev[i].ts + ev[i].dur, <=, wait->ts, "%.3f");
    }
    REQUIRE_CMP(large, >=, 1, "%d"); /* (both staging buffers may share one block) */
    free(ev);
done:
    amp_texture_destroy(&t);
    free(in);
    free(out);
}

/* Registered memory (amp_host_register): a texture's texels go from it and into it with
 * no staging buffer and no host copy (no "host to staging" or "staging to host" span), an
 * asynchronous download included, and arrive exact; a region at an offset too. */
static void registered_transfers(amp_accelerator_view *v, const char *path)
{
    enum { W = 256, H = 128, BYTES = W * H * 4 };
    amp_accelerator *acc = amp_view_accelerator(v);
    uint8_t *mem = malloc(3 * BYTES); /* the input, the output, a region's texels */
    amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_UNORM_4,
                                                                .bits_per_scalar_element = 8});
    REQUIRE(mem && t);
    if (!mem || !t) goto done;
    uint8_t *in = mem, *out = mem + BYTES, *part = mem + 2 * BYTES;
    for (size_t i = 0; i < BYTES; i++) in[i] = (uint8_t)(i * 2654435761u >> 13);
    memset(out, 0, 2 * BYTES);
    REQUIRE_OK(amp_view_wait(v)); /* (the texture's batch began before the trace: no device spans) */
    REQUIRE_OK(amp_trace_start(path));
    amp_status reg = amp_host_register(acc, mem, 3 * BYTES);
    if (reg != AMP_OK) { /* a device without VK_EXT_external_memory_host */
        REQUIRE_INT(reg, AMP_ERROR_UNSUPPORTED);
        amp_trace_stop();
        goto done;
    }
    REQUIRE_OK(amp_texture_copy_from_host(t, NULL, in, BYTES));
    amp_future *f = amp_texture_copy_to_host_async(t, NULL, out, BYTES);
    REQUIRE(f);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    /* rows 5-14, columns 3-42, into the third part */
    amp_texture_region r = {.offset = amp_index2(5, 3), .extent = amp_extent2(10, 40)};
    REQUIRE_OK(amp_texture_copy_to_host(t, &r, part, 10 * 40 * 4));
    REQUIRE_OK(amp_view_wait(v));
    REQUIRE_OK(amp_trace_stop());
    REQUIRE_OK(amp_host_unregister(acc, mem));
    REQUIRE_INT(memcmp(in, out, BYTES), 0);
    int wrong = 0;
    for (int y = 0; y < 10; y++) wrong += memcmp(part + y * 160, in + ((5 + y) * W + 3) * 4, 160) != 0;
    REQUIRE_INT(wrong, 0);
    int n = 0;
    event *ev = read_trace(path, &n);
    if (ev) {
        REQUIRE(find(ev, n, "alloc", "import host memory", 0));
        REQUIRE(find(ev, n, "device", "upload", 0) && find(ev, n, "device", "download", 0));
        REQUIRE(!find(ev, n, "copy", "host to staging", 0) && !find(ev, n, "copy", "staging to host", 0));
    }
    free(ev);
done:
    amp_texture_destroy(&t);
    free(mem);
}

/* A large buffer's memory (a block of its own) is kept when the buffer goes, and the
 * next buffer of about its size takes it without a vkAllocateMemory; its contents are
 * the new array's. */
static void spare_blocks(amp_accelerator_view *v, const char *path)
{
    enum { N = 40 << 20 }; /* 160 MiB of floats: above half of a 256 MiB block */
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_FLOAT});
    REQUIRE(a);
    amp_array_destroy(&a);
    static float x[1 << 16];
    for (int i = 0; i < 1 << 16; i++) x[i] = (float)i;
    REQUIRE_OK(amp_trace_start(path));
    a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N - 1000), .type = AMP_FLOAT});
    REQUIRE(a);
    amp_array_view *part = a ? amp_array_view_section(amp_array_as_view(a), amp_index1(N - 1000 - (1 << 16)),
                                                      amp_extent1(1 << 16))
                             : NULL;
    REQUIRE(part);
    REQUIRE_OK(amp_copy_from_host(x, sizeof x, part));
    float y[4] = {0};
    amp_array_view *tail = part ? amp_array_view_section(part, amp_index1((1 << 16) - 4), amp_extent1(4)) : NULL;
    REQUIRE_OK(amp_copy_to_host(tail, y, sizeof y));
    REQUIRE_OK(amp_trace_stop());
    REQUIRE(y[0] == 65532.0f && y[3] == 65535.0f);
    amp_array_view_destroy(&tail);
    amp_array_view_destroy(&part);
    amp_array_destroy(&a);
    int n = 0;
    event *ev = read_trace(path, &n);
    int large = 0;
    for (int i = 0; ev && i < n; i++) {
        const char *b = strcmp(ev[i].cat, "alloc") == 0 ? strstr(ev[i].args, "\"bytes\":") : NULL;
        large += b && strtoull(b + 8, NULL, 10) >= (unsigned long long)N * 3;
    }
    REQUIRE_INT(large, 0);
    free(ev);
}

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    char path[] = "/tmp/ampvk_trace_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    if (fd >= 0) close(fd);
    trace_work(v, path);
    check_trace(path);
    reserved_transfers(v, path);
    registered_transfers(v, path);
    spare_blocks(v, path);
    if (!getenv("KEEP_TRACE")) remove(path);
    REQUIRE_FAIL(amp_trace_start("/nonexistent-dir/trace.json"), AMP_ERROR_INVALID_ARGUMENT,
                 "cannot create \"/nonexistent-dir/trace.json\"");
    REQUIRE_FAIL(amp_trace_start(NULL), AMP_ERROR_INVALID_ARGUMENT, "no file name");
    return test_end();
}
