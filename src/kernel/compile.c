/* Compiling kernels: shaderc at run time, with the user's #includes, behind an
 * in-memory cache and a disk cache keyed by the exact source, the options and
 * the content of every user file it included. */
#include <errno.h>
#include <shaderc/shaderc.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

static uint64_t compile_count;
uint64_t amp_kernel_compile_count(void) { return __atomic_load_n(&compile_count, __ATOMIC_SEQ_CST); }

/* ---- files ---- */

/* The whole file, zero-terminated, or NULL. */
static char *read_file(const char *path, size_t *size)
{
    char *data;
    return amp__file_read(path, &data, size, NULL) == 0 ? data : NULL;
}

/* True if the file exists and its content has this hash. */
static bool file_has_hash(const char *path, uint64_t hash)
{
    size_t size;
    char *text = read_file(path, &size);
    bool same = text && amp__hash64(text, size, 0) == hash;
    free(text);
    return same;
}

/* ---- includes ---- */

typedef struct dep {
    char *path;
    uint64_t hash;
} dep;

/* True if every included file still has the content it had at compile time. */
static bool deps_unchanged(const dep *deps, int count)
{
    for (int i = 0; i < count; i++)
        if (!file_has_hash(deps[i].path, deps[i].hash)) return false;
    return true;
}

static void free_deps(dep *deps, int count)
{
    for (int i = 0; i < count; i++) free(deps[i].path);
    free(deps);
}

typedef struct include_ctx {
    const amp_kernel_desc *desc;
    const char *main_name;
    dep *deps;
    int dep_count;
    bool out_of_memory; /* an #include went unresolved or unrecorded for want of memory */
} include_ctx;

typedef struct include_result {
    shaderc_include_result r;
    char *name;
    char *content;
    bool owned_content;
} include_result;

/* What an #include resolves to when memory runs out (shaderc must never get NULL):
 * an error for shaderc, and the compile fails as out of memory. */
static shaderc_include_result no_memory = {.source_name = "", .content = "out of host memory",
                                           .content_length = sizeof "out of host memory" - 1};

static shaderc_include_result *out_of_memory(include_ctx *c)
{
    c->out_of_memory = true;
    return &no_memory;
}

/* An #include that fails with msg (shaderc reports it at the directive). */
static shaderc_include_result *include_error(include_ctx *c, const char *msg)
{
    include_result *ir = calloc(1, sizeof *ir);
    char *text = amp__strdup(msg);
    if (!ir || !text) {
        free(ir);
        free(text);
        return out_of_memory(c);
    }
    ir->content = text;
    ir->owned_content = true;
    ir->r.content = ir->content;
    ir->r.content_length = strlen(ir->content);
    ir->r.source_name = "";
    return &ir->r;
}

static const amp__glsl_file *library_file(const char *name)
{
    for (int i = 0; i < amp__glsl_library_count; i++)
        if (strcmp(amp__glsl_library[i].name, name) == 0) return &amp__glsl_library[i];
    return NULL;
}

/* An #include resolved to content (freed with the result if owned). */
static shaderc_include_result *found(include_ctx *c, const char *name, char *content, bool owned)
{
    include_result *ir = calloc(1, sizeof *ir);
    char *copy = amp__strdup(name);
    if (!ir || !copy) {
        free(ir);
        free(copy);
        if (owned) free(content);
        return out_of_memory(c);
    }
    ir->name = copy;
    ir->content = content;
    ir->owned_content = owned;
    ir->r.source_name = ir->name;
    ir->r.source_name_length = strlen(ir->name);
    ir->r.content = content;
    ir->r.content_length = strlen(content);
    return &ir->r;
}

/* Records an included user file with the hash of its content (the caches check it). */
static void add_dep(include_ctx *c, const char *path, const char *text, size_t size)
{
    dep *nd = realloc(c->deps, sizeof *nd * (size_t)(c->dep_count + 1));
    char *copy = amp__strdup(path);
    if (nd) c->deps = nd;
    if (!nd || !copy) {
        free(copy);
        c->out_of_memory = true;
        return;
    }
    c->deps[c->dep_count++] = (dep){copy, amp__hash64(text, size, 0)};
}

static shaderc_include_result *resolve(void *user, const char *requested, int type, const char *requesting,
                                       size_t depth)
{
    include_ctx *c = user;
    (void)depth;
    /* the kernel library: <ampvk/x.glsl>, or "x.glsl" from inside the library */
    const amp__glsl_file *lib = library_file(requested);
    if (!lib && type == shaderc_include_type_relative && strncmp(requesting, "ampvk/", 6) == 0) {
        char name[256];
        snprintf(name, sizeof name, "ampvk/%s", requested);
        lib = library_file(name);
    }
    if (lib) return found(c, lib->name, (char *)lib->text, false);
    /* the user's files: next to the including file, then the include directories */
    char *candidates[66];
    int n = 0;
    if (requested[0] == '/') {
        candidates[n++] = amp__strdup(requested);
    } else {
        const char *from = strcmp(requesting, c->main_name) == 0 && c->desc->file ? c->desc->file : requesting;
        const char *slash = strrchr(from, '/');
        if (type == shaderc_include_type_relative)
            candidates[n++] = slash ? amp__path_join(from, (size_t)(slash - from), requested) : amp__strdup(requested);
        for (int i = 0; i < c->desc->include_dir_count && i < 64; i++)
            candidates[n++] = amp__path_join(c->desc->include_dirs[i], strlen(c->desc->include_dirs[i]), requested);
    }
    shaderc_include_result *res = NULL;
    for (int i = 0; i < n; i++) {
        size_t size;
        char *text = NULL;
        int err = !res && candidates[i] ? amp__file_read(candidates[i], &text, &size, NULL) : 0;
        if (!res && (!candidates[i] || err == ENOMEM)) res = out_of_memory(c);
        if (text) {
            add_dep(c, candidates[i], text, size);
            res = found(c, candidates[i], text, true);
        }
        free(candidates[i]);
    }
    if (!res) {
        char msg[512];
        snprintf(msg, sizeof msg, "cannot find \"%s\" (next to %s or in %d include directories)", requested,
                 requesting, c->desc->include_dir_count);
        res = include_error(c, msg);
    }
    return res;
}

static void release(void *user, shaderc_include_result *r)
{
    (void)user;
    include_result *ir = (include_result *)r;
    if (!ir || r == &no_memory) return;
    if (ir->owned_content) free(ir->content);
    free(ir->name);
    free(ir);
}

/* ---- the disk cache ---- */

#define CACHE_MAGIC "AMPVKSPV"
#define CACHE_VERSION 1u

/* Entry layout: magic[8] version u32 pad u32 checksum u64 (of what follows)
 * source_len u64, source, dep_count u32, {path_len u32, path, hash u64}*,
 * spirv_bytes u64, spirv. */
static void cache_store(const char *path, const char *source, const dep *deps, int dep_count, const uint32_t *words,
                        size_t count)
{
    amp__bytes w = {0};
    uint32_t version = CACHE_VERSION, pad = 0;
    uint64_t checksum = 0, slen = strlen(source), sbytes = count * 4;
    amp__bytes_put(&w, CACHE_MAGIC, 8);
    amp__bytes_put(&w, &version, 4);
    amp__bytes_put(&w, &pad, 4);
    amp__bytes_put(&w, &checksum, 8);
    amp__bytes_put(&w, &slen, 8);
    amp__bytes_put(&w, source, slen);
    uint32_t nd = (uint32_t)dep_count;
    amp__bytes_put(&w, &nd, 4);
    for (int i = 0; i < dep_count; i++) {
        uint32_t pl = (uint32_t)strlen(deps[i].path);
        amp__bytes_put(&w, &pl, 4);
        amp__bytes_put(&w, deps[i].path, pl);
        amp__bytes_put(&w, &deps[i].hash, 8);
    }
    amp__bytes_put(&w, &sbytes, 8);
    amp__bytes_put(&w, words, sbytes);
    if (!w.failed) {
        checksum = amp__hash64(w.data + 24, w.n - 24, 0);
        memcpy(w.data + 16, &checksum, 8);
        amp__file_write(path, w.data, w.n, false, NULL);
    }
    free(w.data);
}

typedef struct reader {
    const char *p, *end;
    bool bad;
} reader;

static const void *take(reader *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const void *at = r->p;
    r->p += n;
    return at;
}

static uint64_t take64(reader *r)
{
    uint64_t v = 0;
    const void *p = take(r, 8);
    if (p) memcpy(&v, p, 8);
    return v;
}

static uint32_t take32(reader *r)
{
    uint32_t v = 0;
    const void *p = take(r, 4);
    if (p) memcpy(&v, p, 4);
    return v;
}

/* Loads an entry if it is intact, for exactly this source, and its included files
 * are unchanged; anything else is ignored. */
static bool cache_load(const char *path, const char *source, amp__spirv *out, dep **deps_out, int *dep_count)
{
    *deps_out = NULL;
    *dep_count = 0;
    size_t size;
    char *buf = read_file(path, &size);
    if (!buf) return false;
    reader r = {buf, buf + size, false};
    bool ok = false;
    const char *magic = take(&r, 8);
    uint32_t version = take32(&r);
    take32(&r);
    uint64_t checksum = take64(&r);
    if (r.bad || memcmp(magic, CACHE_MAGIC, 8) != 0 || version != CACHE_VERSION ||
        checksum != amp__hash64(buf + 24, size - 24, 0))
        goto done;
    uint64_t slen = take64(&r);
    const char *src = take(&r, slen);
    if (!src || slen != strlen(source) || memcmp(src, source, slen) != 0) goto done;
    uint32_t nd = take32(&r);
    for (uint32_t i = 0; i < nd && !r.bad; i++) {
        uint32_t pl = take32(&r);
        const char *p = take(&r, pl);
        uint64_t h = take64(&r);
        if (!p || pl >= 4096) goto done;
        char dep_path[4096];
        memcpy(dep_path, p, pl);
        dep_path[pl] = 0;
        if (!file_has_hash(dep_path, h)) goto done;
        dep *nd = realloc(*deps_out, sizeof *nd * (size_t)(*dep_count + 1));
        if (!nd) goto done;
        *deps_out = nd;
        if (!(nd[*dep_count].path = amp__strdup(dep_path))) goto done;
        nd[*dep_count].hash = h;
        (*dep_count)++;
    }
    uint64_t sbytes = take64(&r);
    const void *words = take(&r, sbytes);
    uint32_t magic_word = 0;
    if (words) memcpy(&magic_word, words, 4); /* entries need not be 4-byte aligned in the file */
    if (!words || sbytes < 20 || sbytes % 4 || magic_word != 0x07230203u || r.p != r.end) goto done;
    out->words = malloc(sbytes);
    if (!out->words) goto done;
    memcpy(out->words, words, sbytes);
    out->count = sbytes / 4;
    out->from_disk = true;
    ok = true;
done:
    free(buf);
    if (!ok) {
        free_deps(*deps_out, *dep_count);
        *deps_out = NULL;
        *dep_count = 0;
    }
    return ok;
}

/* ---- the in-memory cache ---- */

typedef struct kernel_entry {
    uint64_t key;
    char *source;
    uint32_t *words;
    size_t count;
    dep *deps;      /* user files included, with their content hashes */
    int dep_count;
    struct kernel_entry *next;
} kernel_entry;

/* The device's compiled kernels: a device cache. */
typedef struct kernel_cache {
    kernel_entry *entries;
} kernel_cache;

static void entry_free(kernel_entry *e)
{
    free_deps(e->deps, e->dep_count);
    free(e->source);
    free(e->words);
    free(e);
}

static void kernels_release(amp__device *d, void *state)
{
    (void)d;
    kernel_cache *c = state;
    while (c->entries) {
        kernel_entry *e = c->entries;
        c->entries = e->next;
        entry_free(e);
    }
    free(c);
}

static const amp__device_cache_type kernels = {"compiled kernels", sizeof(kernel_cache), NULL, kernels_release};

static void remember(amp__device *d, uint64_t key, const char *source, const amp__spirv *s, const dep *deps,
                     int dep_count)
{
    kernel_cache *c = amp__device_cache_get(d, &kernels);
    if (!c) return;
    /* a newer compile of the same source replaces the old entry */
    for (kernel_entry **p = &c->entries; *p; p = &(*p)->next)
        if ((*p)->key == key && strcmp((*p)->source, source) == 0) {
            kernel_entry *old = *p;
            *p = old->next;
            entry_free(old);
            break;
        }
    kernel_entry *e = calloc(1, sizeof *e);
    if (!e) return;
    /* all or nothing: an entry without its included files would outlive their edits */
    bool complete = (e->deps = calloc((size_t)dep_count + 1, sizeof *e->deps)) != NULL;
    for (int i = 0; complete && i < dep_count; i++) {
        complete = (e->deps[i].path = amp__strdup(deps[i].path)) != NULL;
        e->deps[i].hash = deps[i].hash;
        e->dep_count++;
    }
    e->key = key;
    e->source = amp__strdup(source);
    e->words = malloc(s->count * 4);
    if (!complete || !e->source || !e->words) {
        entry_free(e);
        return;
    }
    memcpy(e->words, s->words, s->count * 4);
    e->count = s->count;
    e->next = c->entries;
    c->entries = e;
}

/* ---- compile ---- */

/* The text the caches are keyed by: the options (defines and include directories
 * too) ahead of the source, so that two compiles share an entry only when all agree.
 * NULL when out of memory. */
static char *cache_key_text(const char *source, const amp_kernel_desc *desc, const char *options_key)
{
    size_t full_len = strlen(source) + strlen(options_key) + 64;
    for (int i = 0; i < desc->define_count; i++) full_len += strlen(desc->defines[i]) + 9;
    for (int i = 0; i < desc->include_dir_count; i++) full_len += strlen(desc->include_dirs[i]) + 10;
    char *full = malloc(full_len);
    if (!full) return NULL;
    size_t at = (size_t)snprintf(full, full_len, "%s\n", options_key);
    for (int i = 0; i < desc->define_count; i++)
        at += (size_t)snprintf(full + at, full_len - at, "define=%s\n", desc->defines[i]);
    for (int i = 0; i < desc->include_dir_count; i++)
        at += (size_t)snprintf(full + at, full_len - at, "include=%s\n", desc->include_dirs[i]);
    snprintf(full + at, full_len - at, "%s", source);
    return full;
}

/* The hash of the key text and the kernel library, so that a new library version
 * misses entries compiled against the old one. */
static uint64_t cache_key_hash(const char *full)
{
    uint64_t key = amp__hash64(full, strlen(full), 0);
    for (int i = 0; i < amp__glsl_library_count; i++)
        key = amp__hash64(amp__glsl_library[i].text, strlen(amp__glsl_library[i].text), key);
    return key;
}

/* The device's entry for this key text whose included files are unchanged, or NULL. */
static const kernel_entry *memory_cache_find(amp__device *d, uint64_t key, const char *full)
{
    kernel_cache *cache = amp__device_cache(d, &kernels);
    for (kernel_entry *e = cache ? cache->entries : NULL; e; e = e->next)
        if (e->key == key && strcmp(e->source, full) == 0 && deps_unchanged(e->deps, e->dep_count)) return e;
    return NULL;
}

/* A copy of an in-memory entry's SPIR-V, which the caller owns. */
static amp_status spirv_from_entry(const kernel_entry *e, amp__spirv *out)
{
    out->words = malloc(e->count * 4);
    if (!out->words) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    memcpy(out->words, e->words, e->count * 4);
    out->count = e->count;
    return AMP_OK;
}

/* The disk cache file for this key, or NULL when there is no cache directory. */
static char *disk_cache_path(uint64_t key)
{
    char fname[64];
    snprintf(fname, sizeof fname, "%016llx.spv", (unsigned long long)key);
    return amp__cache_path(fname);
}

/* Loads the SPIR-V from the disk cache if its entry is valid, remembering it in
 * memory too so the next compile on this device does not read the file again. */
static bool disk_cache_take(amp__device *d, uint64_t key, const char *full, const char *name, const char *path,
                            amp__spirv *out)
{
    dep *disk_deps;
    int disk_dep_count;
    if (!cache_load(path, full, out, &disk_deps, &disk_dep_count)) return false;
    amp__log(AMP_LOG_INFO, "kernel %s: from the disk cache", name);
    remember(d, key, full, out, disk_deps, disk_dep_count);
    free_deps(disk_deps, disk_dep_count);
    return true;
}

/* Passes the kernel's defines to shaderc: "NAME=value", or "NAME" alone. */
static void set_defines(shaderc_compile_options_t opts, const amp_kernel_desc *desc)
{
    for (int i = 0; i < desc->define_count; i++) {
        const char *def = desc->defines[i];
        const char *eq = strchr(def, '=');
        if (eq) shaderc_compile_options_add_macro_definition(opts, def, (size_t)(eq - def), eq + 1, strlen(eq + 1));
        else shaderc_compile_options_add_macro_definition(opts, def, strlen(def), NULL, 0);
    }
}

/* The device's limits, not glslang's defaults (gl_MaxComputeWorkGroupSize.z = 64). */
static void set_device_limits(shaderc_compile_options_t opts, const VkPhysicalDeviceLimits *lim)
{
    shaderc_compile_options_set_limit(opts, shaderc_limit_max_compute_work_group_size_x,
                                      (int)lim->maxComputeWorkGroupSize[0]);
    shaderc_compile_options_set_limit(opts, shaderc_limit_max_compute_work_group_size_y,
                                      (int)lim->maxComputeWorkGroupSize[1]);
    shaderc_compile_options_set_limit(opts, shaderc_limit_max_compute_work_group_size_z,
                                      (int)lim->maxComputeWorkGroupSize[2]);
    shaderc_compile_options_set_limit(opts, shaderc_limit_max_compute_work_group_count_x,
                                      (int)(lim->maxComputeWorkGroupCount[0] > INT32_MAX
                                                ? INT32_MAX
                                                : lim->maxComputeWorkGroupCount[0]));
}

/* Vulkan 1.2 GLSL at the kernel's optimization level, with its defines and the device's limits. */
static void set_compile_options(shaderc_compile_options_t opts, const amp__device *d, const amp_kernel_desc *desc)
{
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
    shaderc_compile_options_set_source_language(opts, shaderc_source_language_glsl);
    shaderc_compile_options_set_optimization_level(
        opts, desc->optimization == AMP_OPTIMIZE_NONE   ? shaderc_optimization_level_zero
              : desc->optimization == AMP_OPTIMIZE_SIZE ? shaderc_optimization_level_size
                                                        : shaderc_optimization_level_performance);
    set_defines(opts, desc);
    set_device_limits(opts, &d->props.limits);
}

/* The SPIR-V of a finished compile, or its error message as an AMP_ERROR_COMPILE. */
static amp_status spirv_from_result(shaderc_compilation_result_t res, amp__spirv *out)
{
    if (shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
        const char *msg = shaderc_result_get_error_message(res);
        return amp__fail(AMP_ERROR_COMPILE, "%s", msg && *msg ? msg : "the kernel failed to compile");
    }
    size_t bytes = shaderc_result_get_length(res);
    out->words = malloc(bytes);
    if (!out->words) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    memcpy(out->words, shaderc_result_get_bytes(res), bytes);
    out->count = bytes / 4;
    return AMP_OK;
}

/* Compiles with shaderc, resolving #includes from the library and the user's files,
 * and stores the result in both caches with the files it included. */
static amp_status compile_and_store(amp__device *d, const char *source, const char *name,
                                    const amp_kernel_desc *desc, uint64_t key, const char *full, const char *path,
                                    amp__spirv *out)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    if (!compiler || !opts) {
        if (opts) shaderc_compile_options_release(opts);
        if (compiler) shaderc_compiler_release(compiler);
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "cannot start the GLSL compiler");
    }
    set_compile_options(opts, d, desc);
    include_ctx ic = {.desc = desc, .main_name = name};
    shaderc_compile_options_set_include_callbacks(opts, resolve, release, &ic);
    shaderc_compilation_result_t res = shaderc_compile_into_spv(compiler, source, strlen(source),
                                                                shaderc_compute_shader, name, "main", opts);
    __atomic_add_fetch(&compile_count, 1, __ATOMIC_SEQ_CST);
    amp_status st = !res || ic.out_of_memory
                        ? amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory compiling %s", name)
                        : spirv_from_result(res, out);
    if (st == AMP_OK) {
        remember(d, key, full, out, ic.deps, ic.dep_count);
        if (path) cache_store(path, full, ic.deps, ic.dep_count, out->words, out->count);
    }
    shaderc_result_release(res);
    shaderc_compile_options_release(opts);
    shaderc_compiler_release(compiler);
    free_deps(ic.deps, ic.dep_count);
    return st;
}

amp_status amp__compile(amp__device *d, const char *source, const char *name, const amp_kernel_desc *desc,
                        const char *options_key, amp__spirv *out)
{
    memset(out, 0, sizeof *out);
    char *full = cache_key_text(source, desc, options_key);
    if (!full) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    uint64_t key = cache_key_hash(full);

    const kernel_entry *hit = memory_cache_find(d, key, full);
    if (hit) {
        amp_status st = spirv_from_entry(hit, out);
        free(full);
        return st;
    }

    char *path = disk_cache_path(key);
    amp_status st = AMP_OK;
    uint64_t span = amp__trace_begin();
    if (path && disk_cache_take(d, key, full, name, path, out)) {
        amp__trace_end(span, "compile", name, "\"from\":\"disk cache\"");
    } else {
        st = compile_and_store(d, source, name, desc, key, full, path, out);
        amp__trace_end(span, "compile", name, "\"from\":\"GLSL\"");
    }
    free(path);
    free(full);
    return st;
}
