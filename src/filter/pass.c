/* Recording filter passes: the shaders' pipelines (made once per device from the
 * SPIR-V compiled at build time) and a pool of intermediate textures, kept as a
 * device cache; a view's pooled textures go with the view. */
#include <pthread.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "filter/filter_internal.h"

#define SPIRV(name)                               \
    extern const uint32_t amp__filter_##name[]; \
    extern const size_t amp__filter_##name##_size;
SPIRV(pointwise)
SPIRV(conv)
SPIRV(sobel)
SPIRV(median)
SPIRV(bilateral)
SPIRV(resize)
SPIRV(equalize)
SPIRV(conv_block)
SPIRV(conv_subgroup)
SPIRV(conv_run)
SPIRV(median_half)
SPIRV(conv_mma)
SPIRV(conv_subgroup_half)
SPIRV(packed)
SPIRV(packed_wide)
SPIRV(median_keys)
SPIRV(conv_subgroup_int)
SPIRV(conv_subgroup_half_codes)
#undef SPIRV

/* The modules in amp__filter_shader's order, with the names the profile and the trace
 * give their dispatches. */
#define SHADER(name, label) {amp__filter_##name, &amp__filter_##name##_size, "filter " label}
static const struct {
    const uint32_t *code;
    const size_t *size;
    const char *name;
} shaders[] = {SHADER(pointwise, "pointwise"),         SHADER(conv, "conv"),
               SHADER(sobel, "sobel"),                 SHADER(median, "median"),
               SHADER(bilateral, "bilateral"),         SHADER(resize, "resize"),
               SHADER(equalize, "equalize"),           SHADER(conv_block, "conv block"),
               SHADER(conv_subgroup, "conv subgroup"), SHADER(conv_run, "conv run"),
               SHADER(median_half, "median half"),     SHADER(conv_mma, "conv mma"),
               SHADER(conv_subgroup_half, "conv subgroup half"), SHADER(packed, "packed"),
               SHADER(packed_wide, "packed wide"),     SHADER(median_keys, "median keys"),
               SHADER(conv_subgroup_int, "conv subgroup int"),
               SHADER(conv_subgroup_half_codes, "conv subgroup half codes")};
#undef SHADER
_Static_assert(sizeof shaders / sizeof *shaders == AMP__SHADER_COUNT, "a module per shader");

const char *amp__filter_shader_name(amp__filter_shader sh)
{
    return sh >= 0 && sh < AMP__SHADER_COUNT ? shaders[sh].name + strlen("filter ") : "?";
}

/* Pooled intermediates beyond this many per device are freed once idle. */
#define POOL_KEEP 8

typedef struct pooled {
    amp_accelerator_view *view;
    amp_texture *texture;
    bool busy; /* handed out to the chain being recorded */
    struct pooled *next;
} pooled;

/* A pipeline of a shader specialized for one pass structure; or, not made yet
 * (VK_NULL_HANDLE), the pixels that passes which could have taken it have run on other
 * pipelines meanwhile (amp__filter_tier). */
typedef struct variant {
    amp__filter_shader shader;
    amp__filter_spec spec;
    VkPipeline pipeline;
    int64_t credit;
    struct variant *next;
} variant;

/* A view's buffer for packed.comp's passes, kept (its pages touched once) and reused by
 * each pass, after a barrier on everything before it. */
typedef struct packed_buffer {
    amp_accelerator_view *view;
    amp__staging *staging;
    struct packed_buffer *next;
} packed_buffer;

typedef struct filter_state {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    variant *variants;
    pooled *pool;
    packed_buffer *buffers;
} filter_state;

/* the block, the source, the destination, the scratch, the original source (sharpen);
 * packed.comp's result, its table of codes as a uniform block, the batch memory that holds
 * it (and equalize's counts) and its source's quads; the source's and the destination's
 * codes (their uint or word views: takes_codes's shaders) */
#define BINDINGS 11
static const VkDescriptorType binding_types[BINDINGS] = {
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};

static amp_status state_init(amp__device *d, void *state)
{
    filter_state *s = state;
    VkDescriptorSetLayoutBinding b[BINDINGS];
    for (uint32_t i = 0; i < BINDINGS; i++)
        b[i] = (VkDescriptorSetLayoutBinding){i, binding_types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = BINDINGS, .pBindings = b};
    VkResult r = vkCreateDescriptorSetLayout(d->device, &dci, NULL, &s->set_layout);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &s->set_layout};
    r = vkCreatePipelineLayout(d->device, &lci, NULL, &s->layout);
    return r == VK_SUCCESS ? AMP_OK : amp__vk_fail(r, "vkCreatePipelineLayout");
}

static void state_release(amp__device *d, void *state)
{
    filter_state *s = state;
    /* every view is gone by now, and its pooled textures and buffer with it */
    while (s->pool) {
        pooled *p = s->pool;
        s->pool = p->next;
        free(p);
    }
    while (s->variants) {
        variant *v = s->variants;
        s->variants = v->next;
        if (v->pipeline) vkDestroyPipeline(d->device, v->pipeline, NULL);
        free(v);
    }
    if (s->layout) vkDestroyPipelineLayout(d->device, s->layout, NULL);
    if (s->set_layout) vkDestroyDescriptorSetLayout(d->device, s->set_layout, NULL);
    free(s);
}

static const amp__device_cache_type filter_cache = {"built-in filters", sizeof(filter_state), state_init,
                                                    state_release};

/* A view goes: its pooled textures go first (their work is still the view's). */
static void forget_view(amp_accelerator_view *v, bool device_closing)
{
    (void)device_closing;
    filter_state *s = amp__device_cache(v->dev, &filter_cache);
    if (!s) return;
    for (pooled **pp = &s->pool; *pp;) {
        pooled *p = *pp;
        if (p->view != v) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        amp_texture_destroy(&p->texture);
        free(p);
    }
    for (packed_buffer **pp = &s->buffers; *pp; pp = &(*pp)->next) {
        packed_buffer *p = *pp;
        if (p->view != v) continue;
        *pp = p->next;
        amp__staging_put(v->dev, p->staging); /* the view's work is finished before anyone takes it */
        free(p);
        break;
    }
}

static pthread_once_t observe_once = PTHREAD_ONCE_INIT;
static amp_status observe_status;
static void observe_views(void) { observe_status = amp__view_observe_destroy(forget_view); }

static filter_state *state_get(amp__device *d)
{
    pthread_once(&observe_once, observe_views);
    if (observe_status != AMP_OK) {
        amp__fail(observe_status, "cannot watch views for the filters' textures");
        return NULL;
    }
    return amp__device_cache_get(d, &filter_cache);
}

/* The entry of shader sh specialized for spec, or NULL where there is none. */
static variant *variant_find(filter_state *s, amp__filter_shader sh, const amp__filter_spec *spec)
{
    for (variant *v = s->variants; v; v = v->next)
        if (v->shader == sh && memcmp(&v->spec, spec, sizeof *spec) == 0) return v;
    return NULL;
}

/* The entry of shader sh specialized for spec: the one there is, or a new one without a
 * pipeline (NULL where out of host memory). */
static variant *variant_of(filter_state *s, amp__filter_shader sh, const amp__filter_spec *spec)
{
    variant *v = variant_find(s, sh, spec);
    if (v) return v;
    v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->shader = sh;
    v->spec = *spec;
    v->next = s->variants;
    s->variants = v;
    return v;
}

/* The pipeline of shader sh specialized for spec, made on first use (through the
 * device's pipeline cache, so a later process finds it compiled). */
static VkPipeline pipeline_get(amp__device *d, filter_state *s, amp__filter_shader sh, const amp__filter_spec *spec)
{
    variant *v = variant_of(s, sh, spec);
    if (!v) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return VK_NULL_HANDLE;
    }
    if (v->pipeline) return v->pipeline;
    enum { ENTRIES = sizeof(amp__filter_spec) / 4 };
    VkSpecializationMapEntry map[ENTRIES];
    for (uint32_t i = 0; i < ENTRIES; i++) map[i] = (VkSpecializationMapEntry){i, i * 4, 4};
    VkSpecializationInfo info = {ENTRIES, map, sizeof *spec, spec};
    if (amp__compute_pipeline_specialized(d, shaders[sh].code, *shaders[sh].size, s->layout, &info, &v->pipeline) !=
        AMP_OK)
        return v->pipeline = VK_NULL_HANDLE; /* (the entry stays, without one: a later pass tries again) */
    amp__pipeline_cache_changed(d); /* on disk now: a process that ends without closing the device keeps it */
    return v->pipeline;
}

bool amp__filter_tier(const amp_accelerator_view *v, const amp__filter_dispatch *d, int count, int64_t pixels,
                      int64_t threshold, bool credit)
{
    /* without credit: what the pass would take now, changing nothing (no entries made) */
    filter_state *s = credit ? state_get(v->dev) : amp__device_cache(v->dev, &filter_cache);
    variant *first = !s       ? NULL
                     : credit ? variant_of(s, d[0].shader, &d[0].spec)
                              : variant_find(s, d[0].shader, &d[0].spec);
    if (!first && credit) return false; /* (out of memory: the other pipelines, which need no entry here) */
    bool made = first && first->pipeline != VK_NULL_HANDLE;
    for (int i = 1; i < count && made; i++) {
        variant *e = credit ? variant_of(s, d[i].shader, &d[i].spec) : variant_find(s, d[i].shader, &d[i].spec);
        made = e && e->pipeline;
    }
    if (made) return true;
    if (!credit) return (first ? first->credit : 0) + pixels >= threshold;
    first->credit += pixels;
    return first->credit >= threshold;
}

int amp__filter_pipeline_count(amp_accelerator_view *v)
{
    amp__lock(v->dev);
    filter_state *s = amp__device_cache(v->dev, &filter_cache); /* NULL: none made yet */
    int n = 0;
    for (variant *p = s ? s->variants : NULL; p; p = p->next) n += p->pipeline != VK_NULL_HANDLE;
    amp__unlock(v->dev);
    return n;
}

amp_texture *amp__filter_intermediate(amp_accelerator_view *v, amp_extent extent, amp_type type, int bits)
{
    filter_state *s = state_get(v->dev);
    if (!s) return NULL;
    int count = 0;
    for (pooled *p = s->pool; p; p = p->next, count++) {
        amp_texture *t = p->texture;
        if (p->busy || p->view != v || amp_texture_type(t) != type || amp_texture_bits_per_scalar_element(t) != bits)
            continue;
        amp_extent e = amp_texture_extent(t);
        if (e.dims[0] != extent.dims[0] || e.dims[1] != extent.dims[1]) continue;
        p->busy = true;
        return t;
    }
    /* over the limit: free the idle ones no chain holds (no wait) */
    for (pooled **pp = &s->pool; *pp && count >= POOL_KEEP;) {
        pooled *p = *pp;
        if (p->busy || !amp__texture_idle(p->texture)) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        amp_texture_destroy(&p->texture);
        free(p);
        count--;
    }
    pooled *p = calloc(1, sizeof *p);
    if (!p) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    amp_texture_desc desc = {.extent = extent, .type = type, .bits_per_scalar_element = bits};
    p->texture = amp_texture_create(v, &desc);
    if (p->texture && !amp__texture_storage_ok(p->texture)) {
        amp__fail(AMP_ERROR_UNSUPPORTED, "filter: \"%s\" cannot store to %s images (an intermediate of %s)",
                  v->dev->props.deviceName, amp_texture_format_name(p->texture), amp_type_name(type));
        amp_texture_destroy(&p->texture);
    }
    if (!p->texture) {
        free(p);
        return NULL;
    }
    p->view = v;
    p->busy = true;
    p->next = s->pool;
    s->pool = p;
    return p->texture;
}

void amp__filter_pool_release(amp__device *d)
{
    filter_state *s = amp__device_cache(d, &filter_cache);
    for (pooled *p = s ? s->pool : NULL; p; p = p->next) p->busy = false;
}

#define MAX_DISPATCHES 4 /* of one amp__filter_record (chain.c records at most 3) */

/* Whether a shader works on the view's packed buffer (packed.comp's modules), not images. */
static bool on_buffers(int shader) { return shader == AMP__SHADER_PACKED || shader == AMP__SHADER_PACKED_WIDE; }

/* The axis of a shader's grid that any number of work groups covers the image along: 1 for a
 * grid-stride loop over the grid's rows (conv_subgroup.comp's modules, median.comp's), 0 for
 * conv_mma.comp's one row of groups that share out its strips' row blocks; -1 for the others. */
static int shared_axis(int shader)
{
    if (shader == AMP__SHADER_CONV_MMA) return 0;
    bool strides = shader == AMP__SHADER_CONV_SUBGROUP || shader == AMP__SHADER_CONV_SUBGROUP_INT ||
                   shader == AMP__SHADER_CONV_SUBGROUP_HALF || shader == AMP__SHADER_CONV_SUBGROUP_HALF_CODES ||
                   shader == AMP__SHADER_MEDIAN || shader == AMP__SHADER_MEDIAN_KEYS || shader == AMP__SHADER_MEDIAN_HALF;
    return strides ? 1 : -1;
}

/* tests/: amp__filter_grid_rows (filter_internal.h) */
static atomic_int grid_rows;
void amp__filter_grid_rows(int rows) { atomic_store(&grid_rows, rows); }

/* Whether a shader reads the source's codes and writes the destination's through their uint
 * views (or word views, FLAG_WORDS), bindings 9 and 10 (shaders/filter/words.glsl's AMP_CODES). */
static bool takes_codes(int shader)
{
    return shader == AMP__SHADER_CONV_SUBGROUP_INT || shader == AMP__SHADER_CONV_SUBGROUP_HALF_CODES;
}

/* What a dispatch binds besides its block and images: the buffers of bindings 3, 5, 6
 * and 7 and the texel buffer of binding 8 (a null one: the binding is not the shader's). */
typedef struct pass_buffers {
    VkDescriptorBufferInfo buf[4];
    VkBufferView quads;
} pass_buffers;

/* The descriptors and barriers of one dispatch: its block, its images (not packed.comp's)
 * and its buffers. */
static amp_status prepare(amp_accelerator_view *v, filter_state *s, amp__batch *b, amp__filter_dispatch *fd,
                          const pass_buffers *bufs, amp__barrier *bar, VkDescriptorSet *set)
{
    VkImageView views[5] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    amp_texture *tex[3] = {fd->src, fd->orig ? fd->orig : fd->src, fd->dst};
    bool images = !on_buffers(fd->shader), words = (fd->spec.flags & FLAG_WORDS) != 0;
    for (int i = 0; i < 3 && images; i++) {
        amp__texture_use u = amp__texture_use_of(tex[i]);
        u.mip_count = 1;
        amp_status st = amp__texture_prepare(&u, v, i == 2, i == 2, bar, &views[i]);
        if (st != AMP_OK) return st;
        /* the source's and the destination's codes, for the shaders that take them (their
           barriers: the images'): their uint views, or word views with FLAG_WORDS */
        if (takes_codes(fd->shader) && i != 1 &&
            !(views[i == 0 ? 3 : 4] = amp__texture_uint_view(tex[i], u.base_mip, 1, i == 2, words)))
            return amp_last_status();
    }
    VkDescriptorBufferInfo block;
    void *u = amp__batch_uniform(b, sizeof fd->params, &block.buffer, &block.offset);
    block.range = sizeof fd->params;
    *set = u ? amp__batch_descriptor_set(b, s->set_layout) : VK_NULL_HANDLE;
    if (!*set) return amp_last_status();
    memcpy(u, &fd->params, sizeof fd->params);
    VkDescriptorImageInfo imgs[5] = {{VK_NULL_HANDLE, views[0], VK_IMAGE_LAYOUT_GENERAL},
                                     {VK_NULL_HANDLE, views[2], VK_IMAGE_LAYOUT_GENERAL},
                                     {VK_NULL_HANDLE, views[1], VK_IMAGE_LAYOUT_GENERAL},
                                     {VK_NULL_HANDLE, views[3], VK_IMAGE_LAYOUT_GENERAL},
                                     {VK_NULL_HANDLE, views[4], VK_IMAGE_LAYOUT_GENERAL}};
    static const int buffer_of[BINDINGS] = {-1, -1, -1, 0, -1, 1, 2, 3, -1, -1, -1}; /* binding: buf's index */
    static const int image_of[BINDINGS] = {-1, 0, 1, -1, 2, -1, -1, -1, -1, 3, 4};
    VkWriteDescriptorSet w[BINDINGS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < BINDINGS; i++) {
        const VkDescriptorBufferInfo *bi = i == 0 ? &block : buffer_of[i] >= 0 ? &bufs->buf[buffer_of[i]] : NULL;
        bool texels = binding_types[i] == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        if (bi ? !bi->buffer : texels ? !bufs->quads : !images || !imgs[image_of[i]].imageView) continue;
        w[n] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = *set,
                                      .dstBinding = i, .descriptorCount = 1, .descriptorType = binding_types[i]};
        if (bi) w[n].pBufferInfo = bi;
        else if (texels) w[n].pTexelBufferView = &bufs->quads;
        else w[n].pImageInfo = &imgs[image_of[i]];
        n++;
    }
    vkUpdateDescriptorSets(v->dev->device, n, w, 0, NULL);
    return AMP_OK;
}

/* Makes the writes to buf of one stage visible to the accesses of the next. */
static void buffer_barrier(VkCommandBuffer cmd, VkBuffer buf, VkDeviceSize offset, VkDeviceSize size,
                           VkPipelineStageFlags from, VkAccessFlags written, VkPipelineStageFlags to,
                           VkAccessFlags access)
{
    VkBufferMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = written,
                                .dstAccessMask = access, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = buf, .offset = offset,
                                .size = size};
    vkCmdPipelineBarrier(cmd, from, to, 0, 0, NULL, 1, &mb, 0, NULL);
}

/* Records one dispatch of pipe with its descriptor set. */
static void dispatch(amp_accelerator_view *v, filter_state *s, amp__batch *b, VkPipeline pipe, VkDescriptorSet set,
                     const uint32_t groups[2])
{
    VkCommandBuffer cmd = amp__batch_cmd(b);
    if (amp__batch_bind(b, pipe)) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cmd, groups[0], groups[1], 1);
    v->stats.dispatches++;
}

/* v's buffer for packed.comp of at least size bytes: a larger one replaces a smaller one,
 * which goes back to the device's pool when b is done. */
static amp__staging *packed_buffer_get(amp_accelerator_view *v, filter_state *s, amp__batch *b, VkDeviceSize size)
{
    packed_buffer *p = s->buffers;
    while (p && p->view != v) p = p->next;
    if (p && p->staging->buf.size >= size) return p->staging;
    amp__staging *st = amp__staging_get(v->dev, size, AMP__MEM_DEVICE);
    if (!st) return NULL;
    if (!p && !(p = calloc(1, sizeof *p))) {
        amp__staging_put(v->dev, st);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    if (p->staging) {
        amp__batch_keep_staging(b, p->staging);
    } else {
        p->view = v;
        p->next = s->buffers;
        s->buffers = p;
    }
    p->staging = st;
    return st;
}

/* Whether t is a linear image whose rows can be read or written where they lie as rows of
 * `quads` quads of `quad` bytes (amp__texture_row_pitch): its pitch in quads, else 0. */
static int pitch_in_quads(const amp_texture *t, int quads, VkDeviceSize quad)
{
    VkDeviceSize p = amp__texture_row_pitch(t);
    return p && p % quad == 0 && p / quad >= (VkDeviceSize)quads && p / quad <= INT32_MAX ? (int)(p / quad) : 0;
}

/* Records n dispatches of packed.comp (one pass: the same textures, and memory for their
 * table and counts, binding 7), after the dispatch that makes the table where the program
 * is one. A linear image (CPU devices make 8-bit ones so) is read or written where it
 * lies, through a view of its texels (the source) or a buffer over them (the result);
 * otherwise the source image is copied into the view's buffer and the result from the
 * buffer after it (at 32 bytes) into the destination (a copy each way, which a linear
 * image saves). The pointwise passes store pairs of quads (packed.comp's emit_pair): their
 * result's rows are an even count of quads apart, and one of an odd count gets a pad
 * quad. */
static amp_status record_packed(amp_accelerator_view *v, filter_state *s, amp__batch *b, amp__filter_dispatch *fd,
                                int n, const VkPipeline *pipes, const VkDescriptorBufferInfo *memory)
{
    int per = (int)(16 / amp__texture_format(fd->src)->image_texel); /* texels a quad: 4 (RGBA), 16 (gray) */
    int quads = (fd->params.size[0] + per - 1) / per, out_quads = (fd->params.size[2] + per - 1) / per; /* a row's */
    bool pairs = fd->spec.mode == PACKED_MODE_POINTWISE;
    int out_row = pairs ? (out_quads + 1) & ~1 : out_quads; /* the result's quads a row in the view's buffer */
    /* the source's quads, then the result's from a multiple of 32 bytes (a pair) */
    VkDeviceSize source = amp__packed_source_bytes(quads, fd->params.size[1]);
    /* the source and the result in place, unless they are one image (or the result's rows
       are an odd count of quads apart where they are written in pairs) */
    int in_pitch = pitch_in_quads(fd->src, quads, 16);
    VkDeviceSize out_quad = (VkDeviceSize)per * amp__texture_format(fd->dst)->image_texel; /* 16, or 4 or 8: gray */
    int out_pitch = fd->src == fd->dst ? 0 : pitch_in_quads(fd->dst, out_row, out_quad);
    if (pairs && out_pitch % 2) out_pitch = 0;
    VkDeviceSize result = (VkDeviceSize)out_row * out_quad * (VkDeviceSize)fd->params.size[3]; /* in the buffer */
    /* the dispatch that makes the table: one work group, a pipeline of its own (PACKED_TABLE_PASS) */
    bool tabled = fd->spec.flags & FLAG_TABLE;
    amp__filter_dispatch table = *fd;
    table.groups[0] = table.groups[1] = 1;
    table.spec.pass = PACKED_TABLE_PASS;
    table.spec.flags &= ~FLAG_WHOLE_ROWS; /* the same table pipeline for one pass or two */
    VkPipeline table_pipe = tabled ? pipeline_get(v->dev, s, table.shader, &table.spec) : VK_NULL_HANDLE;
    if (tabled && !table_pipe) return amp_last_status();
    amp__staging *copies = in_pitch && out_pitch ? NULL : packed_buffer_get(v, s, b, source + result);
    if (!copies && !(in_pitch && out_pitch)) return amp_last_status();
    VkBuffer buf = copies ? copies->buf.buffer : VK_NULL_HANDLE, out = buf;
    /* the source, read as a uniform texel buffer (lavapipe gathers its texels; it loads a
       storage buffer's a lane at a time) */
    VkBufferView quads_in = VK_NULL_HANDLE;
    amp_status r = in_pitch ? amp__texture_buffer(fd->src, v, false, NULL, &quads_in)
                            : amp__staging_texels(v->dev, copies, &quads_in);
    if (r == AMP_OK && out_pitch) r = amp__texture_buffer(fd->dst, v, true, &out, NULL);
    if (r != AMP_OK) return r;
    VkCommandBuffer cmd = amp__batch_cmd(b);
    /* after every earlier use of the buffer (in this batch or one before it) */
    if (buf)
        buffer_barrier(cmd, buf, 0, VK_WHOLE_SIZE,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    uint32_t timing = amp__profile_begin(b, shaders[fd->shader].name, 0);
    if (!in_pitch) r = amp__texture_buffer_copy(fd->src, v, buf, 0, (uint32_t)(quads * per), false);
    /* the pass's memory (binding 7; its table, binding 6, at its start), the table made by a
       first dispatch (table) where the program is one (FLAG_TABLE) */
    pass_buffers bufs = {.buf = {{VK_NULL_HANDLE, 0, 0},
                                 {out, 0, VK_WHOLE_SIZE},
                                 {memory->buffer, memory->offset, PACKED_TABLE_BYTES},
                                 *memory},
                         .quads = quads_in};
    /* the dispatches bind whole buffers (which is what the validation layer sees them
       write), and they follow each other */
    VkPipelineStageFlags before = in_pitch ? 0 : VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkAccessFlags written = VK_ACCESS_TRANSFER_WRITE_BIT;
    /* every dispatch's descriptors first, so that a failure records none of them (two
       write the destination where the edges are a dispatch of their own) */
    VkDescriptorSet sets[1 + MAX_DISPATCHES];
    for (int i = tabled ? -1 : 0; i < n && r == AMP_OK; i++) {
        amp__filter_dispatch *d = i < 0 ? &table : &fd[i];
        d->params.counts[0] = in_pitch ? in_pitch : quads;
        d->params.counts[2] = out_pitch ? out_pitch : out_row;
        d->params.counts[3] = out_pitch ? 0 : (int32_t)(source / 16);
        amp__barrier bar = {0};
        r = prepare(v, s, b, d, &bufs, &bar, &sets[i + 1]);
    }
    for (int i = tabled ? -1 : 0; i < n && r == AMP_OK; i++) {
        amp__filter_dispatch *d = i < 0 ? &table : &fd[i];
        VkDescriptorSet set = sets[i + 1];
        if (d->groups[0] == 0) continue;
        if (before) {
            VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = written,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                                   VK_ACCESS_UNIFORM_READ_BIT};
            vkCmdPipelineBarrier(cmd, before, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
        }
        before = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        written = VK_ACCESS_SHADER_WRITE_BIT;
        dispatch(v, s, b, i < 0 ? table_pipe : pipes[i], set, d->groups);
    }
    if (r == AMP_OK && !out_pitch) {
        buffer_barrier(cmd, buf, source, result, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        r = amp__texture_buffer_copy(fd->dst, v, buf, source, (uint32_t)(out_row * per), true);
    }
    amp__profile_end(b, timing); /* on every path: the span's queries come in pairs */
    return r;
}

amp_status amp__filter_record(amp_accelerator_view *v, amp__filter_dispatch *d, int count, const void *scratch,
                              size_t scratch_size)
{
    amp__device *dev = v->dev;
    filter_state *s = state_get(dev);
    if (!s) return amp_last_status();
    if (count > MAX_DISPATCHES)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "filter: a pass of %d dispatches (at most %d)", count, MAX_DISPATCHES);
    VkPipeline pipes[MAX_DISPATCHES];
    for (int i = 0; i < count; i++)
        if (!(pipes[i] = pipeline_get(dev, s, d[i].shader, &d[i].spec))) return amp_last_status();
    /* every texture's earlier use reaches the queue before this batch is taken */
    for (int i = 0; i < count; i++) {
        amp_texture *tex[3] = {d[i].src, d[i].orig ? d[i].orig : d[i].src, d[i].dst};
        for (int j = 0; j < 3; j++) {
            amp__texture_use u = amp__texture_use_of(tex[j]);
            amp_status st = amp__texture_make_ready(&u, v);
            if (st != AMP_OK) return st;
        }
    }
    amp__batch *b = amp__batch_current(v);
    if (!b) return amp_last_status();
    VkDeviceSize least = 16, off;
    for (int i = 0; i < count; i++)
        if (on_buffers(d[i].shader)) least = PACKED_TABLE_BYTES;
    VkDeviceSize size = scratch_size < least ? least : scratch_size;
    VkBuffer sbuf;
    void *mem = amp__batch_scratch(b, size, &sbuf, &off);
    if (!mem) return amp_last_status();
    if (scratch) memcpy(mem, scratch, scratch_size);
    else memset(mem, 0, size);
    VkCommandBuffer cmd = amp__batch_cmd(b);
    for (int i = 0; i < count; i++) {
        if (on_buffers(d[i].shader)) {
            int n = 1;
            while (i + n < count && d[i + n].shader == d[i].shader) n++;
            VkDescriptorBufferInfo memory = {sbuf, off, size};
            amp_status st = record_packed(v, s, b, &d[i], n, &pipes[i], &memory);
            if (st != AMP_OK) return st;
            i += n - 1;
            continue;
        }
        amp__barrier bar = {0};
        VkDescriptorSet set;
        pass_buffers bufs = {.buf = {{sbuf, off, size}}};
        amp_status st = prepare(v, s, b, &d[i], &bufs, &bar, &set);
        amp__barrier_record(v, cmd, &bar);
        if (st != AMP_OK) return st;
        if (i > 0)
            buffer_barrier(cmd, sbuf, off, size, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        uint32_t groups[2] = {d[i].groups[0], d[i].groups[1]}, cap = (uint32_t)atomic_load(&grid_rows);
        int axis = shared_axis(d[i].shader);
        if (cap && axis >= 0 && groups[axis] > cap) groups[axis] = cap;
        uint32_t timing = amp__profile_begin(b, shaders[d[i].shader].name, 0);
        dispatch(v, s, b, pipes[i], set, groups);
        amp__profile_end(b, timing);
    }
    return amp__view_command_done(v);
}
