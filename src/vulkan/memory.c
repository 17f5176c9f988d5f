/* Device memory: buffers sub-allocated from large blocks, and staging buffers.
 *
 * Vulkan limits the number of allocations (maxMemoryAllocationCount may be 4096),
 * so buffers take ranges of 256 MiB blocks (first fit, ranges merged on free);
 * a buffer larger than half a block gets a block of its own. Blocks of host-visible
 * memory start smaller (16 MiB, doubling per block of the type). Host-visible blocks
 * are mapped once for their whole life. All calls hold the device lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan/gpu.h"

#define BLOCK_SIZE ((VkDeviceSize)256 << 20)

typedef struct range { VkDeviceSize offset, size; } range;

struct amp__block {
    VkDeviceMemory memory;
    VkDeviceSize size;
    uint32_t type_index;
    void *mapped;
    range *free;       /* free ranges, sorted by offset */
    int free_count, free_cap;
    int used;          /* live sub-allocations */
    bool dedicated;
    bool spare;        /* a dedicated block whose resource has gone, kept for the next */
    uint64_t spared;   /* when it became spare (the oldest goes first) */
    bool images;       /* holds optimal-tiling images (kept apart from buffers) */
    amp__block *next;
};

static VkMemoryPropertyFlags wanted(amp__mem_usage u, bool strict)
{
    switch (u) {
    case AMP__MEM_DEVICE: return VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    case AMP__MEM_UPLOAD:
    case AMP__MEM_ARGUMENTS: /* (alloc_memory asks for shared memory first, then upload) */
        return VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    case AMP__MEM_READBACK:
        return VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
               (strict ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0);
    case AMP__MEM_SHARED:
        return VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    }
    return 0;
}

/* The memory type for usage among allowed bits; prefers the strict flags, and for
 * upload memory, types that are not device-local (keeping BAR memory for arrays). */
static int find_type(amp__device *d, uint32_t allowed, amp__mem_usage u)
{
    for (int pass = 0; pass < 3; pass++) {
        for (uint32_t t = 0; t < d->memory.memoryTypeCount; t++) {
            if (!(allowed & (1u << t))) continue;
            VkMemoryPropertyFlags f = d->memory.memoryTypes[t].propertyFlags;
            VkMemoryPropertyFlags w = wanted(u, pass < 2);
            if ((f & w) != w) continue;
            if (pass == 0 && u == AMP__MEM_UPLOAD && (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                d->memory.memoryTypeCount > 1)
                continue;
            return (int)t;
        }
    }
    return -1;
}

static void block_free(amp__device *d, amp__block *b);

/* Frees the oldest spare dedicated blocks until those left hold at most keep bytes;
 * whether any was freed. */
static bool spares_free(amp__device *d, VkDeviceSize keep)
{
    bool freed = false;
    for (;;) {
        VkDeviceSize held = 0;
        amp__block *oldest = NULL;
        for (amp__block *k = d->blocks; k; k = k->next)
            if (k->spare) {
                held += k->size;
                if (!oldest || k->spared < oldest->spared) oldest = k;
            }
        if (held <= keep) return freed;
        block_free(d, oldest);
        freed = true;
    }
}

/* A dedicated block of device-local memory whose resource has gone stays for the next
 * allocation of about its size (a view's storage made again, a frame's buffers), as
 * PyTorch's and CuPy's memory pools keep theirs: a driver's allocation of a large block
 * can cost as much as a new view's first transfer of that size. Spares hold
 * at most an eighth of their heap (the oldest go first), and all of them go before an
 * allocation is refused. */
static void block_unused(amp__device *d, amp__block *b)
{
    static uint64_t spare_clock;
    const VkMemoryType *type = &d->memory.memoryTypes[b->type_index];
    VkDeviceSize limit = d->memory.memoryHeaps[type->heapIndex].size / 8;
    /* (host memory that the device pins, a large staging buffer's, goes at once: the
       staging pool keeps few for that reason) */
    if (b->size > limit || !(type->propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
        block_free(d, b);
        return;
    }
    spares_free(d, limit - b->size);
    b->spare = true;
    b->spared = __atomic_add_fetch(&spare_clock, 1, __ATOMIC_RELAXED);
}

/* The smallest spare block of memory type `type` that holds size bytes and wastes at
 * most a quarter of them, or NULL. */
static amp__block *spare_for(amp__device *d, uint32_t type, VkDeviceSize size)
{
    amp__block *best = NULL;
    for (amp__block *k = d->blocks; k; k = k->next)
        if (k->spare && k->type_index == type && k->size >= size && k->size - size <= size / 4 &&
            (!best || k->size < best->size))
            best = k;
    return best;
}

/* A block of size bytes of memory type `type` (mapped if host-visible), one free
 * range covering it; NULL with an error. */
static amp__block *block_new(amp__device *d, uint32_t type, VkDeviceSize size, bool dedicated)
{
    amp__block *b = calloc(1, sizeof *b);
    range *ranges = malloc(sizeof *ranges * 8);
    if (!b || !ranges) {
        free(b);
        free(ranges);
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = size,
                               .memoryTypeIndex = type};
    uint64_t span = amp__trace_begin();
    VkResult r = vkAllocateMemory(d->device, &ai, NULL, &b->memory);
    if (r != VK_SUCCESS && spares_free(d, 0)) r = vkAllocateMemory(d->device, &ai, NULL, &b->memory);
    if (r != VK_SUCCESS) {
        free(b);
        free(ranges);
        amp__vk_fail(r, "vkAllocateMemory");
        return NULL;
    }
    VkMemoryPropertyFlags flags = d->memory.memoryTypes[type].propertyFlags;
    if (span) {
        char args[96];
        snprintf(args, sizeof args, "\"bytes\":%llu,\"type\":%u,\"flags\":\"0x%x\"", (unsigned long long)size,
                 type, (unsigned)flags);
        amp__trace_end(span, "alloc", "vkAllocateMemory", args);
    }
    if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        r = vkMapMemory(d->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
        if (r != VK_SUCCESS) {
            vkFreeMemory(d->device, b->memory, NULL);
            free(b);
            free(ranges);
            amp__vk_fail(r, "vkMapMemory");
            return NULL;
        }
    }
    b->size = size;
    b->type_index = type;
    b->dedicated = dedicated;
    b->free = ranges;
    b->free_cap = 8;
    b->free[0] = (range){0, size};
    b->free_count = 1;
    b->next = d->blocks;
    d->blocks = b;
    return b;
}

static bool block_take(amp__block *b, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *offset)
{
    for (int i = 0; i < b->free_count; i++) {
        range *f = &b->free[i];
        VkDeviceSize start = (f->offset + align - 1) / align * align;
        if (start + size > f->offset + f->size) continue;
        VkDeviceSize end = f->offset + f->size;
        VkDeviceSize head = start - f->offset;
        if (head) {
            /* keep the head as its own free range, insert the tail after it */
            if (end > start + size) {
                if (b->free_count == b->free_cap) {
                    range *n = realloc(b->free, sizeof *n * (size_t)b->free_cap * 2);
                    if (!n) return false;
                    b->free = n;
                    b->free_cap *= 2;
                    f = &b->free[i];
                }
                memmove(&b->free[i + 2], &b->free[i + 1], sizeof *f * (size_t)(b->free_count - i - 1));
                b->free[i + 1] = (range){start + size, end - start - size};
                b->free_count++;
            }
            f->size = head;
        } else if (end > start + size) {
            f->offset = start + size;
            f->size = end - start - size;
        } else {
            memmove(f, f + 1, sizeof *f * (size_t)(b->free_count - i - 1));
            b->free_count--;
        }
        *offset = start;
        b->used++;
        return true;
    }
    return false;
}

static void block_give(amp__block *b, VkDeviceSize offset, VkDeviceSize size)
{
    int i = 0;
    while (i < b->free_count && b->free[i].offset < offset) i++;
    bool merge_prev = i > 0 && b->free[i - 1].offset + b->free[i - 1].size == offset;
    bool merge_next = i < b->free_count && offset + size == b->free[i].offset;
    if (merge_prev && merge_next) {
        b->free[i - 1].size += size + b->free[i].size;
        memmove(&b->free[i], &b->free[i + 1], sizeof *b->free * (size_t)(b->free_count - i - 1));
        b->free_count--;
    } else if (merge_prev) {
        b->free[i - 1].size += size;
    } else if (merge_next) {
        b->free[i].offset = offset;
        b->free[i].size += size;
    } else {
        if (b->free_count == b->free_cap) {
            range *n = realloc(b->free, sizeof *n * (size_t)b->free_cap * 2);
            if (!n) return; /* the range is lost to this block until it is freed */
            b->free = n;
            b->free_cap *= 2;
        }
        memmove(&b->free[i + 1], &b->free[i], sizeof *b->free * (size_t)(b->free_count - i));
        b->free[i] = (range){offset, size};
        b->free_count++;
    }
    b->used--;
}

static void block_free(amp__device *d, amp__block *b)
{
    for (amp__block **p = &d->blocks; *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            break;
        }
    if (b->mapped) vkUnmapMemory(d->device, b->memory);
    vkFreeMemory(d->device, b->memory, NULL);
    free(b->free);
    free(b);
}

static amp_status alloc_memory(amp__device *d, VkMemoryRequirements req, amp__mem_usage u, bool images,
                               amp__alloc *out)
{
    if (u == AMP__MEM_ARGUMENTS) {
        /* a dispatch that waits for the one before it would also wait for its arguments'
           read across the bus; in the BAR (device memory the host can write) dependent
           dispatches and the filters' scratch atomics are faster */
        if (alloc_memory(d, req, AMP__MEM_SHARED, images, out) == AMP_OK) return AMP_OK;
        u = AMP__MEM_UPLOAD;
    }
    int type = find_type(d, req.memoryTypeBits, u);
    if (type < 0)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "device \"%s\" has no memory type for usage %d",
                         d->props.deviceName, (int)u);
    VkDeviceSize heap = d->memory.memoryHeaps[d->memory.memoryTypes[type].heapIndex].size;
    if (req.size > heap)
        return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "%llu bytes requested but the memory heap holds %llu",
                         (unsigned long long)req.size, (unsigned long long)heap);
    VkDeviceSize block_size = BLOCK_SIZE < heap / 4 ? BLOCK_SIZE : heap / 4;
    if (d->memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        /* host memory costs its pinning up front (a large block's pinning can cost more
         * than the transfer of the 4K image it was for): blocks of a host type start at 16 MiB
         * and double with each one of the type, up to the usual size */
        int n = 0;
        for (const amp__block *k = d->blocks; k; k = k->next) n += k->type_index == (uint32_t)type && !k->dedicated;
        VkDeviceSize grown = (VkDeviceSize)16 << 20 << (n < 4 ? n : 4);
        if (grown < block_size) block_size = grown;
    }
    VkDeviceSize offset = 0;
    amp__block *b = NULL;
    if (req.size <= block_size / 2) {
        for (b = d->blocks; b; b = b->next)
            if (!b->dedicated && b->images == images && b->type_index == (uint32_t)type &&
                block_take(b, req.size, req.alignment, &offset))
                break;
        if (!b) {
            b = block_new(d, (uint32_t)type, block_size, false);
            if (!b) return amp_last_status();
            b->images = images;
            block_take(b, req.size, req.alignment, &offset);
        }
    } else {
        b = spare_for(d, (uint32_t)type, req.size);
        if (!b && !(b = block_new(d, (uint32_t)type, req.size, true))) return amp_last_status();
        b->spare = false;
        block_take(b, req.size, 1, &offset);
    }
    *out = (amp__alloc){.memory = b->memory, .offset = offset, .size = req.size, .block = b,
                        .type_index = (uint32_t)type,
                        .mapped = b->mapped ? (char *)b->mapped + offset : NULL};
    return AMP_OK;
}

amp_status amp__buffer_create(amp__device *d, VkDeviceSize size, VkBufferUsageFlags usage, amp__mem_usage mem,
                              amp__buffer *out)
{
    if (amp__device_check(d) != AMP_OK) return AMP_ERROR_DEVICE_LOST;
    if (size == 0) size = 4;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkBuffer buf;
    VkResult r = vkCreateBuffer(d->device, &bi, NULL, &buf);
    if (r != VK_SUCCESS) return amp__vk_fail(r, "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->device, buf, &req);
    amp__alloc a = {0};
    amp_status s = alloc_memory(d, req, mem, false, &a);
    if (s != AMP_OK) {
        vkDestroyBuffer(d->device, buf, NULL);
        return s;
    }
    r = vkBindBufferMemory(d->device, buf, a.memory, a.offset);
    if (r != VK_SUCCESS) {
        amp__alloc_free(d, &a); /* a block of its own goes with it */
        vkDestroyBuffer(d->device, buf, NULL);
        return amp__vk_fail(r, "vkBindBufferMemory");
    }
    *out = (amp__buffer){.buffer = buf, .alloc = a, .size = size};
    return AMP_OK;
}

/* The Vulkan call that refused a host import, and its result. */
typedef struct vk_refusal {
    const char *call;
    VkResult result;
} vk_refusal;

/* Imports the whole pages around [host, host + size) as a transfer buffer (the pinning
 * happens here); *offset is where host lies in it. Anything but AMP_OK: not possible,
 * *why the refusing call and its result (no message is left: the callers say what it
 * means to them). */
static amp_status import_pages(amp__device *d, void *host, size_t size, amp__buffer *out, VkDeviceSize *offset,
                               vk_refusal *why)
{
    if (!d->host_import || !d->host_import_alignment) return AMP_ERROR_UNSUPPORTED;
    PFN_vkGetMemoryHostPointerPropertiesEXT props_fn =
        (PFN_vkGetMemoryHostPointerPropertiesEXT)vkGetDeviceProcAddr(d->device, "vkGetMemoryHostPointerPropertiesEXT");
    if (!props_fn) return AMP_ERROR_UNSUPPORTED;
    /* Whole pages around the range: they are mapped since the range lies in them. */
    VkDeviceSize align = d->host_import_alignment;
    uintptr_t base = (uintptr_t)host / align * align;
    VkDeviceSize bytes = ((uintptr_t)host + size - base + align - 1) / align * align;
    VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    why->result = props_fn(d->device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, (void *)base, &hp);
    why->call = "vkGetMemoryHostPointerPropertiesEXT";
    if (why->result != VK_SUCCESS) return AMP_ERROR_UNSUPPORTED;
    VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                            .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ext, .size = bytes,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkBuffer buf;
    why->call = "vkCreateBuffer";
    if ((why->result = vkCreateBuffer(d->device, &bi, NULL, &buf)) != VK_SUCCESS) return AMP_ERROR_UNSUPPORTED;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->device, buf, &req);
    uint32_t bits = req.memoryTypeBits & hp.memoryTypeBits;
    int type = -1;
    for (uint32_t t = 0; t < d->memory.memoryTypeCount && type < 0; t++)
        if (bits & (1u << t)) type = (int)t;
    VkImportMemoryHostPointerInfoEXT imp = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
                                            .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                                            .pHostPointer = (void *)base};
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &imp,
                               .allocationSize = bytes, .memoryTypeIndex = (uint32_t)type};
    VkDeviceMemory mem;
    why->call = "vkAllocateMemory";
    /* the pinning: a view's first transfer may wait longer on it than on the copy */
    uint64_t span = amp__trace_begin();
    why->result = type < 0 ? VK_ERROR_FORMAT_NOT_SUPPORTED : vkAllocateMemory(d->device, &ai, NULL, &mem);
    if (span) {
        char args[48];
        snprintf(args, sizeof args, "\"bytes\":%llu", (unsigned long long)bytes);
        amp__trace_end(span, "alloc", "import host memory", args);
    }
    if (why->result != VK_SUCCESS) {
        vkDestroyBuffer(d->device, buf, NULL);
        return AMP_ERROR_UNSUPPORTED;
    }
    why->call = "vkBindBufferMemory";
    if ((why->result = vkBindBufferMemory(d->device, buf, mem, 0)) != VK_SUCCESS) {
        vkDestroyBuffer(d->device, buf, NULL);
        vkFreeMemory(d->device, mem, NULL);
        return AMP_ERROR_UNSUPPORTED;
    }
    *out = (amp__buffer){.buffer = buf, .alloc = {.memory = mem, .size = bytes}, .size = bytes};
    *offset = (uintptr_t)host - base;
    return AMP_OK;
}

/* A range of the application's memory imported until amp_host_unregister: the transfers of
 * storages inside it borrow its buffer (counted in users) instead of pinning their own. */
struct amp__host_range {
    uintptr_t start;
    size_t bytes;
    amp__buffer buf;
    VkDeviceSize offset; /* where start lies in buf */
    int users;           /* borrowed imports alive (amp__buffer_import) */
    amp__host_range *next;
};

static amp__host_range *range_holding(amp__device *d, uintptr_t start, size_t size)
{
    for (amp__host_range *r = d->host_ranges; r; r = r->next)
        if (start >= r->start && size <= r->bytes && start - r->start <= r->bytes - size) return r;
    return NULL;
}

amp_status amp__host_register(amp__device *d, void *host, size_t size)
{
    uintptr_t start = (uintptr_t)host;
    if (start + size < start)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                         "amp_host_register: %zu bytes at %p run past the end of the address space", size, host);
    for (amp__host_range *r = d->host_ranges; r; r = r->next)
        if (start < r->start + r->bytes && r->start < start + size)
            return amp__fail(AMP_ERROR_INVALID_ARGUMENT,
                             "amp_host_register: %zu bytes at %p overlap the %zu bytes at %p registered before; "
                             "unregister those first",
                             size, host, r->bytes, (void *)r->start);
    if (!d->host_import || !d->host_import_alignment)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "amp_host_register: device \"%s\" cannot import host memory (no "
                         "VK_EXT_external_memory_host): its transfers go through staging buffers",
                         d->props.deviceName);
    amp__host_range *r = calloc(1, sizeof *r);
    if (!r) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    vk_refusal why = {"vkGetDeviceProcAddr", VK_ERROR_EXTENSION_NOT_PRESENT};
    amp_status s = import_pages(d, host, size, &r->buf, &r->offset, &why);
    if (s != AMP_OK) {
        free(r);
        bool memory = why.result == VK_ERROR_OUT_OF_HOST_MEMORY || why.result == VK_ERROR_OUT_OF_DEVICE_MEMORY;
        return amp__fail(memory ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_UNSUPPORTED,
                         "amp_host_register: device \"%s\" could not import the %zu bytes at %p: %s gave %s (%d)",
                         d->props.deviceName, size, host, why.call, amp__vk_result_name(why.result),
                         (int)why.result);
    }
    r->start = start;
    r->bytes = size;
    r->next = d->host_ranges;
    d->host_ranges = r;
    return AMP_OK;
}

static void range_free(amp__device *d, amp__host_range *r)
{
    vkDestroyBuffer(d->device, r->buf.buffer, NULL);
    vkFreeMemory(d->device, r->buf.alloc.memory, NULL);
    free(r);
}

/* The link to the range registered at host, or NULL with the error unregistering it
 * would give (none there; storages still borrowing it). */
static amp__host_range **range_at(amp__device *d, void *host)
{
    amp__host_range **p = &d->host_ranges;
    while (*p && (*p)->start != (uintptr_t)host) p = &(*p)->next;
    amp__host_range *r = *p;
    if (!r) {
        amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_host_unregister: no memory is registered at %p", host);
        return NULL;
    }
    if (r->users) {
        amp__fail(AMP_ERROR_INVALID_STATE,
                  "amp_host_unregister: the %zu bytes at %p are still the host memory of %d array_view "
                  "storage%s: destroy those views first",
                  r->bytes, host, r->users, r->users == 1 ? "" : "s");
        return NULL;
    }
    return p;
}

amp_status amp__host_unregister_check(amp__device *d, void *host)
{
    return range_at(d, host) ? AMP_OK : amp_last_status();
}

amp_status amp__host_unregister(amp__device *d, void *host)
{
    amp__host_range **p = range_at(d, host);
    if (!p) return amp_last_status();
    amp__host_range *r = *p;
    *p = r->next;
    range_free(d, r);
    return AMP_OK;
}

bool amp__host_registered(amp__device *d, const void *host, size_t size, VkBuffer *buffer, VkDeviceSize *offset)
{
    amp__host_range *r = range_holding(d, (uintptr_t)host, size);
    if (!r) return false;
    *buffer = r->buf.buffer;
    *offset = r->offset + ((uintptr_t)host - r->start);
    return true;
}

amp_status amp__buffer_import(amp__device *d, void *host, size_t size, bool pin, amp__buffer *out,
                              VkDeviceSize *offset)
{
    amp__host_range *r = range_holding(d, (uintptr_t)host, size);
    if (r) {
        r->users++;
        *out = r->buf;
        *offset = r->offset + ((uintptr_t)host - r->start);
        return AMP_OK;
    }
    vk_refusal why;
    return pin ? import_pages(d, host, size, out, offset, &why) : AMP_ERROR_UNSUPPORTED;
}

void amp__host_ranges_release(amp__device *d)
{
    while (d->host_ranges) {
        amp__host_range *r = d->host_ranges;
        d->host_ranges = r->next;
        range_free(d, r);
    }
}

void amp__buffer_destroy(amp__device *d, amp__buffer *b)
{
    if (!b || !b->buffer) return;
    if (!b->alloc.block) { /* imported host memory: its own allocation, or a registered range's */
        for (amp__host_range *r = d->host_ranges; r; r = r->next)
            if (r->buf.buffer == b->buffer) {
                r->users--;
                memset(b, 0, sizeof *b);
                return;
            }
        vkDestroyBuffer(d->device, b->buffer, NULL);
        vkFreeMemory(d->device, b->alloc.memory, NULL);
        memset(b, 0, sizeof *b);
        return;
    }
    vkDestroyBuffer(d->device, b->buffer, NULL);
    amp__block *blk = b->alloc.block;
    block_give(blk, b->alloc.offset, b->alloc.size);
    if (blk->dedicated && blk->used == 0) block_unused(d, blk);
    memset(b, 0, sizeof *b);
}

amp_status amp__image_memory(amp__device *d, VkImage image, bool linear, amp__alloc *out)
{
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(d->device, image, &req);
    amp_status s = alloc_memory(d, req, AMP__MEM_DEVICE, !linear, out);
    if (s != AMP_OK) return s;
    VkResult r = vkBindImageMemory(d->device, image, out->memory, out->offset);
    if (r != VK_SUCCESS) {
        amp__alloc_free(d, out);
        return amp__vk_fail(r, "vkBindImageMemory");
    }
    return AMP_OK;
}

void amp__alloc_free(amp__device *d, amp__alloc *a)
{
    if (!a->block) return;
    amp__block *blk = a->block;
    block_give(blk, a->offset, a->size);
    if (blk->dedicated && blk->used == 0) block_unused(d, blk);
    memset(a, 0, sizeof *a);
}

void amp__memory_release_all(amp__device *d)
{
    while (d->blocks) block_free(d, d->blocks);
}

/* Staging buffers are kept in a free list and reused for any transfer of their usage
 * that fits; at most a few are kept so a single huge transfer does not pin its memory. */
amp__staging *amp__staging_get(amp__device *d, VkDeviceSize size, amp__mem_usage usage)
{
    amp__staging **best = NULL;
    for (amp__staging **p = &d->staging; *p; p = &(*p)->next)
        if ((*p)->usage == usage && (*p)->buf.size >= size &&
            (!best || (*p)->buf.size < (*best)->buf.size))
            best = p;
    if (best) {
        amp__staging *s = *best;
        *best = s->next;
        s->next = NULL;
        return s;
    }
    amp__staging *s = calloc(1, sizeof *s);
    if (!s) {
        amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    VkDeviceSize rounded = size < 65536 ? 65536 : (size + 65535) / 65536 * 65536;
    /* storage too: the built-in pack_image.comp reads and writes staged texels, and the
       filters' packed.comp reads its source's copy as a uniform texel buffer */
    if (amp__buffer_create(d, rounded,
                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                           usage, &s->buf) != AMP_OK) {
        free(s);
        return NULL;
    }
    s->usage = usage;
    return s;
}

static void touch_pages(void *ctx, size_t begin, size_t end)
{
    volatile char *m = ctx;
    for (size_t page = begin; page < end; page++) m[page * 4096] = 0;
}

amp_status amp__staging_reserve(amp__device *d, VkDeviceSize size, amp__mem_usage usage)
{
    amp__staging *s = amp__staging_get(d, size, usage);
    if (!s) return amp_last_status();
    /* one write per page: the first touch of freshly mapped memory faults (a fault a page,
       thousands for a 4K image's staging, slowing the first copy), the cores share them */
    if (s->buf.alloc.mapped) amp__parallel_for((size_t)((s->buf.size + 4095) / 4096), 1024, touch_pages, s->buf.alloc.mapped);
    amp__staging_put(d, s);
    return AMP_OK;
}

void amp__staging_destroy(amp__device *d, amp__staging *s)
{
    if (s->texels) vkDestroyBufferView(d->device, s->texels, NULL);
    amp__buffer_destroy(d, &s->buf);
    free(s);
}

amp_status amp__texel_view(amp__device *d, VkBuffer buf, VkDeviceSize size, VkBufferView *view)
{
    if (size / 16 > d->props.limits.maxTexelBufferElements)
        return amp__fail(AMP_ERROR_UNSUPPORTED, "a buffer of %llu bytes is more texels than \"%s\" takes (%u)",
                         (unsigned long long)size, d->props.deviceName, d->props.limits.maxTexelBufferElements);
    VkBufferViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, .buffer = buf,
                                 .format = VK_FORMAT_R32G32B32A32_UINT, .range = VK_WHOLE_SIZE};
    VkResult r = vkCreateBufferView(d->device, &vi, NULL, view);
    return r == VK_SUCCESS ? AMP_OK : amp__vk_fail(r, "vkCreateBufferView");
}

amp_status amp__staging_texels(amp__device *d, amp__staging *s, VkBufferView *view)
{
    amp_status r = s->texels ? AMP_OK : amp__texel_view(d, s->buf.buffer, s->buf.size, &s->texels);
    *view = s->texels;
    return r;
}

void amp__staging_put(amp__device *d, amp__staging *s)
{
    int kept = 0;
    VkDeviceSize kept_bytes = 0;
    for (amp__staging *p = d->staging; p; p = p->next) {
        kept++;
        kept_bytes += p->buf.size;
    }
    if (kept >= 16 || kept_bytes + s->buf.size > ((VkDeviceSize)1 << 31)) {
        amp__staging_destroy(d, s);
        return;
    }
    s->next = d->staging;
    d->staging = s;
}
