/* The Vulkan layer (src/vulkan): the instance and accelerators, devices and their
 * memory, command streams (accelerator_views, batches, futures) with the tracker,
 * the pipeline cache and the kernels built into the library. It uses only
 * src/core; the layers above register what they keep per device (device caches)
 * and what they must hear of a view's end (view observers) instead of being called
 * by name. Not installed. */
#ifndef AMPVK_GPU_H
#define AMPVK_GPU_H

#include "core/core.h"
#include "core/format.h"

/* ---- memory.c: sub-allocation from large blocks ---- */
typedef struct amp__block amp__block;
typedef struct amp__alloc {
    VkDeviceMemory memory;
    VkDeviceSize offset, size;
    void *mapped; /* host pointer at offset, for host-visible memory */
    amp__block *block;
    uint32_t type_index;
} amp__alloc;

/* A buffer with its memory. */
typedef struct amp__buffer {
    VkBuffer buffer;
    amp__alloc alloc;
    VkDeviceSize size;
} amp__buffer;

typedef enum amp__mem_usage {
    AMP__MEM_DEVICE,   /* device-local */
    AMP__MEM_UPLOAD,   /* host-visible, coherent, written by the host */
    AMP__MEM_READBACK, /* host-visible, cached: read back by the host */
    AMP__MEM_SHARED,   /* device-local and host-visible (cpu_access arrays) */
    AMP__MEM_ARGUMENTS /* written by the host, read by each dispatch: shared where the
                          device has it and it has room (a GPU's BAR), else upload */
} amp__mem_usage;

/* ---- the tracker: who last touched a resource ---- */
typedef struct amp__track {
    VkPipelineStageFlags write_stages; /* stages of the last device write, 0 if none pending */
    VkAccessFlags write_access;
    VkPipelineStageFlags read_stages;  /* reads since that write */
    VkAccessFlags read_access;
    uint64_t last_serial;              /* batch serial of the last use (0: none) */
    uint64_t last_write_serial;        /* batch serial of the last write (0: none) */
} amp__track;

/* Barriers gathered before one command. */
typedef struct amp__barrier {
    VkPipelineStageFlags src, dst;
    VkBufferMemoryBarrier buffers[32];
    uint32_t count;
    VkImageMemoryBarrier images[16];
    uint32_t image_count;
    bool overflow; /* more than fit: one global memory barrier instead */
} amp__barrier;

/* ---- device.c: a VkDevice with one compute queue, its features and caches ---- */
typedef struct amp__staging amp__staging;
typedef struct amp__host_range amp__host_range;

typedef struct amp__device {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    bool external;
    uint32_t queue_index;     /* of the queue in its family (for the lock callbacks) */
    uint32_t family_count;    /* queue families of the physical device */
    uint64_t timestamp_mask;  /* the valid bits of the queue's timestamps (0: none) */
    /* VK_KHR_push_descriptor (0 / NULL without): a dispatch pushes its descriptors into the
     * command buffer, no set allocated and written per dispatch */
    uint32_t max_push_descriptors;
    PFN_vkCmdPushDescriptorSetKHR push_descriptor_set;
    /* VK_EXT_calibrated_timestamps (NULL without): the trace places device times with it */
    PFN_vkGetCalibratedTimestampsEXT calibrated_timestamps;
    amp_vulkan_queue_lock_fn lock_queue, unlock_queue; /* the application's, around queue use; or NULL */
    void *queue_user;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    bool float64, int64, shared_memory, host_import, float_atomics;
    bool float16; /* shaderFloat16 is on (not known for an application's device: false) */
    /* VK_NV_cooperative_matrix is on with 16 x 16 x 16 products of 16-bit floats into
     * 32-bit ones for subgroups of 32 (tensor cores: the filters' conv_mma.comp) */
    bool coop_matrix;
    /* the device's streaming multiprocessors (VK_NV_shader_sm_builtins' shaderSMCount, which
     * is read, not enabled), or 0 where it does not say: conv_mma.comp's grid */
    uint32_t sm_count;
    bool write_without_format; /* shaderStorageImageWriteWithoutFormat is on */
    uint32_t subgroup_shuffle_size; /* the subgroup size where compute shaders shuffle and vote within subgroups, else 0 */
    VkDeviceSize host_import_alignment;
    VkSemaphore timeline;
    uint64_t next_serial;     /* last serial handed out */
    uint64_t done_serial;     /* highest serial known complete */
    uint64_t submitted_serial; /* highest serial submitted (signalled once all work submitted is done) */
    amp_status lost;          /* AMP_ERROR_DEVICE_LOST once the device is lost */
    bool robust;              /* robustBufferAccess2 + robustImageAccess2 on (AMPVK_DEBUG=1) */
    /* called after every wait that saw its work complete (set by an upper layer: the
     * bounds checks of AMPVK_DEBUG=1); its error becomes the wait's */
    amp_status (*after_wait)(struct amp__device *d);
    pthread_mutex_t lock;     /* guards all of the device's state (recursive) */
    int lock_depth;           /* how many times its owner holds lock (read and written by the owner) */
    amp__block *blocks;
    amp__staging *staging;    /* free staging buffers */
    amp__host_range *host_ranges; /* the application's memory imported for good (amp_host_register) */
    VkPipelineCache pipeline_cache;
    bool pipeline_cache_dirty;
    bool custom_border;       /* VK_EXT_custom_border_color is on */
    amp__keyed *caches;       /* per-device caches of the layers, by type, newest first */
    amp_accelerator *accelerator;
    int views;                /* live views (for external devices: destroy with the last) */
    amp_accelerator_view *view_list; /* the live views, linked by next_on_device */
} amp__device;

/* A CPU device (lavapipe): fma may round twice, shared memory and texel fetches are dear,
 * and a wait need not spin. */
static inline bool amp__device_is_cpu(const amp__device *d)
{
    return d->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

/* An NVIDIA GPU: compute subgroups are always the 32 it reports, float arithmetic flushes
 * subnormals, and exp2 is exact at 0 and saturates (to 0 and inf, NaN kept). */
static inline bool amp__device_is_nvidia(const amp__device *d) { return d->props.vendorID == 0x10DE; }

AMP_HIDDEN void amp__lock(amp__device *d);
AMP_HIDDEN void amp__unlock(amp__device *d);
/* The device of an accelerator, opened on first use (ampvk's own VkDevice). NULL
 * with an error if it cannot be opened; a later call tries again. */
AMP_HIDDEN amp__device *amp__accelerator_device(amp_accelerator *acc);
/* Calls fn on every device of an accelerator opened so far (not the application's). */
AMP_HIDDEN void amp__devices_each(void (*fn)(amp__device *d));
/* A device over the application's VkDevice (amp_view_create_external). */
AMP_HIDDEN amp__device *amp__device_wrap(const amp_vulkan_device_desc *desc);
AMP_HIDDEN void amp__device_close(amp__device *d);
/* Calls the application's queue lock (unlock) callback, if any, around a use of
 * d->queue (vkQueueSubmit, vkQueueWaitIdle). */
AMP_HIDDEN void amp__queue_lock(amp__device *d);
AMP_HIDDEN void amp__queue_unlock(amp__device *d);
/* Waits until everything submitted on the device so far is done (ampvk's work only:
 * on an application's queue, not the application's). The caller holds the lock. */
AMP_HIDDEN amp_status amp__device_idle(amp__device *d);

/* What an upper layer keeps per device (compiled kernels, samplers, built-in
 * pipelines): one static amp__device_cache_type per kind of cache, whose address is
 * its key. The device releases each cache once, newest first, when it closes, so a
 * cache registered after another may still use it while it is released. */
typedef struct amp__device_cache_type {
    const char *name;
    size_t size;                                     /* bytes of state amp__device_cache_get makes, zeroed */
    amp_status (*init)(amp__device *d, void *state); /* fills new state (optional); failure releases it */
    void (*release)(amp__device *d, void *state);    /* frees what the state holds, and the state */
} amp__device_cache_type;
/* The state registered for type, or NULL. The caller holds the device lock. */
AMP_HIDDEN void *amp__device_cache(amp__device *d, const amp__device_cache_type *type);
/* The state registered for type, made (size bytes, then init) and registered on
 * first use; NULL with an error. The caller holds the device lock. */
AMP_HIDDEN void *amp__device_cache_get(amp__device *d, const amp__device_cache_type *type);
/* Registers state made by the caller for type (not yet registered); AMP_OK or out
 * of memory. The caller holds the device lock. */
AMP_HIDDEN amp_status amp__device_cache_add(amp__device *d, const amp__device_cache_type *type, void *state);

/* ---- specialize.c: a module's specialization constants folded before the driver sees it ---- */
/* The SPIR-V module code (bytes long) with the values spec gives its specialization
 * constants (their defaults where it gives none) made constants, and the code those make
 * unreachable or unused removed: a new module in *out (malloc'd, *out_bytes long) that
 * takes no specialization. AMP_ERROR_UNSUPPORTED, the reason in *why (why may be NULL)
 * and no error raised, where the module has what this does not handle (the module is
 * then to be used as it is); AMP_ERROR_OUT_OF_MEMORY, raised. */
AMP_HIDDEN amp_status amp__spirv_specialize(const uint32_t *code, size_t bytes, const VkSpecializationInfo *spec,
                                            uint32_t **out, size_t *out_bytes, const char **why);

/* ---- pipeline_cache.c: the VkPipelineCache, kept on disk per device and driver ---- */
/* Creates d->pipeline_cache from the file saved for this device, if any and valid. */
AMP_HIDDEN void amp__pipeline_cache_load(amp__device *d);
/* Marks the pipeline cache as holding a new pipeline and saves it. */
AMP_HIDDEN void amp__pipeline_cache_changed(amp__device *d);
/* Saves the pipeline cache if it changed since the last save. */
AMP_HIDDEN void amp__pipeline_cache_save(amp__device *d);
/* A compute pipeline from SPIR-V (entry "main") through the device's pipeline cache. */
AMP_HIDDEN amp_status amp__compute_pipeline(amp__device *d, const uint32_t *spirv, size_t bytes,
                                            VkPipelineLayout layout, VkPipeline *out);
/* The same with specialization constants (spec may be NULL): the module is specialized
 * here first (amp__spirv_specialize), and given to the driver as it is, with spec, only
 * where that gives up. */
AMP_HIDDEN amp_status amp__compute_pipeline_specialized(amp__device *d, const uint32_t *spirv, size_t bytes,
                                                        VkPipelineLayout layout, const VkSpecializationInfo *spec,
                                                        VkPipeline *out);
/* True once the device is lost (atomic: calls check before they take the device lock;
 * inline: the files device.c calls, memory and pipeline cache, check too). */
static inline bool amp__device_lost(amp__device *d) { return __atomic_load_n(&d->lost, __ATOMIC_ACQUIRE) != AMP_OK; }
/* AMP_OK, or AMP_ERROR_DEVICE_LOST naming the device once it is lost: nothing more is
 * created, recorded or submitted on it, and only destroying what lives on it works. */
static inline amp_status amp__device_check(amp__device *d)
{
    return amp__device_lost(d)
               ? amp__fail(AMP_ERROR_DEVICE_LOST, "the Vulkan device \"%s\" was lost", d->props.deviceName)
               : AMP_OK;
}
/* Marks the device lost (a call reported it, or a submission failed and took recorded
 * work with it) and waits for what its queue still runs, so that its objects may be
 * destroyed; on a lost device the wait returns at once. */
AMP_HIDDEN void amp__device_set_lost(amp__device *d);
/* Waits until serial completes; AMP_OK, AMP_ERROR_TIMEOUT or device lost. The device
 * lock is released while waiting. */
AMP_HIDDEN amp_status amp__device_wait_serial(amp__device *d, uint64_t serial, uint64_t timeout_ns);
AMP_HIDDEN bool amp__device_serial_done(amp__device *d, uint64_t serial);

AMP_HIDDEN amp_status amp__buffer_create(amp__device *d, VkDeviceSize size, VkBufferUsageFlags usage,
                                         amp__mem_usage mem, amp__buffer *out);
AMP_HIDDEN void amp__buffer_destroy(amp__device *d, amp__buffer *b);
/* A transfer buffer over host memory [host, host+size) (VK_EXT_external_memory_host);
 * *offset is where host lies in the buffer: a registered range's buffer where one holds
 * the memory (borrowed until amp__buffer_destroy gives it back), else with pin the pages
 * imported now. Anything but AMP_OK: not possible here (no message is left; callers fall
 * back to staging). */
AMP_HIDDEN amp_status amp__buffer_import(amp__device *d, void *host, size_t size, bool pin, amp__buffer *out,
                                         VkDeviceSize *offset);
/* Imports [host, host+size) of the application's memory until amp__host_unregister
 * (amp_host_register). Errors: overlap with a registered range, no import on the device,
 * the driver's refusal. */
AMP_HIDDEN amp_status amp__host_register(amp__device *d, void *host, size_t size);
/* The error amp__host_unregister would give now (nothing registered at host, storages
 * still borrowing it), else AMP_OK: checked before the caller waits for the device. */
AMP_HIDDEN amp_status amp__host_unregister_check(amp__device *d, void *host);
/* Ends the registration starting at host, once no storage borrows it; the caller has
 * waited for the device's work (a texture copy may use the range without borrowing). */
AMP_HIDDEN amp_status amp__host_unregister(amp__device *d, void *host);
/* Whether a registered range holds [host, host+size): its buffer and host's offset in it
 * (for a copy recorded now; unregistering waits for the device). */
AMP_HIDDEN bool amp__host_registered(amp__device *d, const void *host, size_t size, VkBuffer *buffer,
                                     VkDeviceSize *offset);
/* Frees every registered range (the device is closing and idle). */
AMP_HIDDEN void amp__host_ranges_release(amp__device *d);
AMP_HIDDEN void amp__memory_release_all(amp__device *d);
/* Allocates and binds device-local memory for an image: optimal-tiling images in
 * blocks apart from buffers, linear ones (laid out as buffers are) among them. */
AMP_HIDDEN amp_status amp__image_memory(amp__device *d, VkImage image, bool linear, amp__alloc *out);
AMP_HIDDEN void amp__alloc_free(amp__device *d, amp__alloc *a);

/* A buffer used for one transfer, returned to the pool when its batch completes:
 * host-visible (usage AMP__MEM_UPLOAD or AMP__MEM_READBACK) or the device's own
 * (AMP__MEM_DEVICE: a step of a transfer on the device). */
struct amp__staging {
    amp__buffer buf;
    amp__mem_usage usage;
    VkBufferView texels; /* amp__staging_texels' view, made on first need */
    amp__staging *next;
};
AMP_HIDDEN amp__staging *amp__staging_get(amp__device *d, VkDeviceSize size, amp__mem_usage usage);
AMP_HIDDEN void amp__staging_put(amp__device *d, amp__staging *s);
AMP_HIDDEN void amp__staging_destroy(amp__device *d, amp__staging *s);
/* A view of the size bytes of buf (made with VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT) as
 * texels of 16 bytes (R32G32B32A32_UINT), to read as a uniform texel buffer; the caller
 * destroys it. AMP_ERROR_UNSUPPORTED beyond the device's maxTexelBufferElements. */
AMP_HIDDEN amp_status amp__texel_view(amp__device *d, VkBuffer buf, VkDeviceSize size, VkBufferView *view);
/* A view of the whole buffer as texels of 16 bytes (R32G32B32A32_UINT), to read it as a
 * uniform texel buffer; made on first need, it lives as long as the buffer (so a batch
 * that keeps the buffer keeps it). The caller holds the device lock. */
AMP_HIDDEN amp_status amp__staging_texels(amp__device *d, amp__staging *s, VkBufferView *view);
/* Puts a staging buffer of at least size bytes in d's pool now, its pages touched (host-visible ones), so
 * that the transfer that takes it pays for neither. The caller holds the device lock. */
AMP_HIDDEN amp_status amp__staging_reserve(amp__device *d, VkDeviceSize size, amp__mem_usage usage);

/* ---- stream.c: accelerator_views, batches, submission, futures ---- */
typedef struct amp__batch amp__batch;
typedef struct amp__host_action {
    void (*run)(void *ctx, bool ok); /* host-side completion, called once */
    void *ctx;
} amp__host_action;

struct amp_accelerator_view {
    amp__device *dev;
    amp_accelerator *acc;
    amp_queuing_mode mode;
    bool is_default;
    VkCommandPool pool;
    amp__batch *recording;    /* batch being recorded, or NULL */
    amp__batch *in_flight;    /* submitted, oldest first */
    amp__batch *free_batches;
    uint64_t last_serial;     /* serial of the last submitted batch */
    amp_view_stats stats;
    int arrays;               /* live arrays created on this view */
    bool profiling;           /* time commands (amp_view_set_profiling) */
    bool profile_print;       /* AMPVK_PROFILE=1: print the table when the view goes */
    amp_profile_entry *profile; /* gathered times, profile_count of them */
    int profile_count, profile_cap;
    amp_accelerator_view *next_on_device;
};

/* The batch being recorded (begun on demand), or NULL with an error. */
AMP_HIDDEN amp__batch *amp__batch_current(amp_accelerator_view *v);
AMP_HIDDEN VkCommandBuffer amp__batch_cmd(amp__batch *b);
AMP_HIDDEN uint64_t amp__batch_serial(amp__batch *b);
/* True if p must be bound (it is not the pipeline bound last in this batch). */
AMP_HIDDEN bool amp__batch_bind(amp__batch *b, VkPipeline p);
/* Adds a semaphore wait to the batch's submission (stages: where later work waits;
 * value ignored for a binary semaphore). AMP_ERROR_INVALID_STATE when the batch
 * already has as many as it can take. */
AMP_HIDDEN amp_status amp__batch_wait(amp__batch *b, VkSemaphore s, uint64_t value, VkPipelineStageFlags stages);
/* Adds a semaphore signal to the batch's submission (besides the device timeline's). */
AMP_HIDDEN amp_status amp__batch_signal(amp__batch *b, VkSemaphore s, uint64_t value);
/* Submits v's recording batch, if it holds commands, and begins a new one: a wait
 * added to it holds back only the work recorded from now on (and acquires recorded
 * without a command, which may wait). NULL with an error. */
AMP_HIDDEN amp__batch *amp__batch_fresh(amp_accelerator_view *v);
/* Starts timing a command about to be recorded in b (name: the kernel's or filter's,
 * or a copy's kind; bytes: what a copy moves) and returns the token for
 * amp__profile_end; UINT32_MAX (and both cost a branch) when the batch is not
 * profiled. */
AMP_HIDDEN uint32_t amp__profile_begin(amp__batch *b, const char *name, uint64_t bytes);
AMP_HIDDEN void amp__profile_end(amp__batch *b, uint32_t token);
/* Keeps a staging buffer until the batch completes. */
AMP_HIDDEN void amp__batch_keep_staging(amp__batch *b, amp__staging *s);
/* Uniform memory for one dispatch's arguments (host pointer and buffer/offset). */
AMP_HIDDEN void *amp__batch_uniform(amp__batch *b, VkDeviceSize size, VkBuffer *buf, VkDeviceSize *offset);
/* The same memory as a storage buffer (host-visible, aligned for storage-buffer
 * descriptors): scratch that lives until the batch completes. */
AMP_HIDDEN void *amp__batch_scratch(amp__batch *b, VkDeviceSize size, VkBuffer *buf, VkDeviceSize *offset);
AMP_HIDDEN VkDescriptorSet amp__batch_descriptor_set(amp__batch *b, VkDescriptorSetLayout layout);
/* Counts a recorded command; in immediate mode or at the batch limit, submits. */
AMP_HIDDEN amp_status amp__view_command_done(amp_accelerator_view *v);
AMP_HIDDEN amp_status amp__view_submit(amp_accelerator_view *v);
/* Submits, oldest first, every batch being recorded on the views of v's device
 * whose serial is at most serial (0: none): a use with that serial, on any view,
 * reaches the queue before what depends on it. */
AMP_HIDDEN amp_status amp__view_submit_through(amp_accelerator_view *v, uint64_t serial);
/* The same, then waits until that serial completes (0: nothing to wait for). */
AMP_HIDDEN amp_status amp__view_wait_through(amp_accelerator_view *v, uint64_t serial);
/* Submits and waits for everything recorded on the view. */
AMP_HIDDEN amp_status amp__view_finish(amp_accelerator_view *v);
/* Recycles completed batches. */
AMP_HIDDEN void amp__view_retire(amp_accelerator_view *v);

/* What a layer above must do when a view goes away (the data layer: storage that
 * remembers the view forgets it). device_closing: the view is the last of an
 * application's device, which closes with it. Observers run in the order they were
 * added, under the device lock, before the view's work is finished the last time. */
typedef void (*amp__view_observer)(amp_accelerator_view *v, bool device_closing);
/* Adds an observer of every view's destruction (a few at most; idempotent). */
AMP_HIDDEN amp_status amp__view_observe_destroy(amp__view_observer fn);

/* ---- tracker.c ---- */
/* Gathers what an access needs into bar and updates the track. */
AMP_HIDDEN void amp__track_access(amp__track *t, VkBuffer buf, VkPipelineStageFlags stage,
                                  VkAccessFlags access, bool write, uint64_t serial, amp__barrier *bar);
/* The same for an image whose levels are all in *layout: moves them to want
 * (updating *layout) with the barrier when they differ. */
AMP_HIDDEN void amp__track_image_access(amp__track *t, VkImage image, VkImageLayout *layout, VkImageLayout want,
                                        VkPipelineStageFlags stage, VkAccessFlags access, bool write,
                                        uint64_t serial, amp__barrier *bar);
/* Records the gathered barriers (one vkCmdPipelineBarrier) and empties bar. */
AMP_HIDDEN void amp__barrier_record(amp_accelerator_view *v, VkCommandBuffer cmd, amp__barrier *bar);
/* Makes writes of a stage to buf visible to the host. */
AMP_HIDDEN void amp__barrier_to_host(VkCommandBuffer cmd, VkBuffer buf, VkPipelineStageFlags stage,
                                     VkAccessFlags access);

/* ---- tracker.c: hand-over to and from the application (ampvk/interop.h) ---- */
/* AMP_OK for a layout an application may ask a color image in (incoming false) or
 * leave it in (incoming: UNDEFINED and PREINITIALIZED too); else an error naming it. */
AMP_HIDDEN amp_status amp__handover_layout(const char *who, VkImageLayout layout, bool incoming);
/* Hands a resource (a buffer, or an image moving from `from` to `to`) to the
 * application on view h: records, after every access its track holds, the barrier
 * with the layout change and the release to `family` (when it is not the device's),
 * submits, and gives the point the application waits for (*ready: the timeline's
 * serial of that submission) and the family it now belongs to. The track is left
 * empty. The caller holds the device lock; on an error nothing is recorded. */
AMP_HIDDEN amp_status amp__handover_give(amp_accelerator_view *h, const char *who, uint32_t family, amp__track *t,
                                         VkBuffer buf, VkImage image, VkImageLayout from, VkImageLayout to,
                                         amp_vulkan_semaphore *ready, uint32_t *family_out);
/* Takes it back on view h: the batch that uses it next waits for a->wait (a fresh
 * batch, so that work recorded before does not wait), then acquires it from
 * a->queue_family and moves the image from `from` to `to`, visible to ampvk's
 * compute and transfer work; the track holds nothing pending. The caller holds the
 * device lock; on an error nothing is recorded. */
AMP_HIDDEN amp_status amp__handover_take(amp_accelerator_view *h, const char *who, const amp_vulkan_access *a,
                                         amp__track *t, VkBuffer buf, VkImage image, VkImageLayout from,
                                         VkImageLayout to);

/* ---- stream.c: futures and readback ---- */
/* A future: a serial on a device plus host-side completion. */
struct amp_future {
    amp__device *dev;
    uint64_t serial;
    amp_status status;
    bool done;
    amp__host_action action;
};
AMP_HIDDEN amp_future *amp__future_new(amp__device *d, uint64_t serial, amp__host_action action);

/* Readback: what to do with a staging buffer the device filled (ok false: the work
 * failed). Called once, under the device lock. */
typedef void (*amp__unpack_fn)(void *ctx, const void *staged, bool ok);
/* A future that, once serial completes, unpacks s (ctx_size bytes of ctx are copied
 * for it) and returns s to the pool. On failure s is returned at once, NULL. */
AMP_HIDDEN amp_future *amp__readback_future(amp__device *d, uint64_t serial, amp__staging *s, amp__unpack_fn unpack,
                                            const void *ctx, size_t ctx_size);

/* ---- builtin.c: kernels compiled at build time ---- */
typedef struct amp__builtin amp__builtin;
/* True if the built-in copy kernel can copy size bytes between these offsets
 * (16-byte words, aligned descriptor offsets, within maxStorageBufferRange; never
 * on a CPU device, where a queue copy is as fast). */
AMP_HIDDEN bool amp__shader_copy_possible(amp__device *d, VkDeviceSize src_offset, VkDeviceSize dst_offset,
                                          VkDeviceSize size);
/* Records the copy as a compute dispatch (the caller orders it with barriers). */
AMP_HIDDEN amp_status amp__record_shader_copy(amp_accelerator_view *v, amp__batch *b, VkBuffer src,
                                              VkDeviceSize src_offset, VkBuffer dst, VkDeviceSize dst_offset,
                                              VkDeviceSize size);

/* True if textures of format f can be copied by the built-in image copy kernel:
 * on a GPU (on a CPU device only when forced) that writes storage images without
 * a format qualifier and can sample and store f's uint format. Such textures are
 * made able to take views of that format. */
AMP_HIDDEN bool amp__shader_image_copy_possible(amp__device *d, const amp__format *f);
/* The built-in kernels on images: the copy (copy_image.comp) and the moves of
 * 3-channel texels from a packed buffer into an image (widen) and back (pack),
 * pack_image.comp. */
typedef enum amp__image_kernel {
    AMP__IMAGE_COPY,
    AMP__IMAGE_WIDEN,
    AMP__IMAGE_PACK,
    AMP__IMAGE_KERNELS
} amp__image_kernel;
/* Makes image kernel k's pipeline for rank-D images (once a device). */
AMP_HIDDEN amp_status amp__image_kernel_prepare(amp__device *d, amp__image_kernel k, int rank);
/* The image kernels' push constants: copy_image.comp's and pack_image.comp's push_t
 * (a kernel brought from above gives the words its own meanings). */
typedef struct amp__image_push {
    int32_t src_offset[4], dst_offset[4];
    uint32_t extent[4];
} amp__image_push;
/* A pipeline for a kernel that a layer above brings (its SPIR-V of size bytes) on the
 * image kernels' layout: binding 0 a sampled image (nearest, clamped), 1 a storage
 * image, 2 a storage buffer, amp__image_push's constants. The caller keeps it (a
 * device cache of its own) and destroys it. */
AMP_HIDDEN amp_status amp__image_kernel_pipeline(amp__device *d, const uint32_t *spirv, size_t size,
                                                 VkPipeline *out);
/* Binds pipe (from amp__image_kernel_pipeline) with src, dst and buf (size bytes from
 * 0), each where given, and push; the caller dispatches and orders it with barriers. */
AMP_HIDDEN amp_status amp__record_image_kernel(amp_accelerator_view *v, amp__batch *b, VkPipeline pipe,
                                               VkImageView src, VkImageView dst, VkBuffer buf, VkDeviceSize size,
                                               const amp__image_push *push);
/* Records a copy of a box of extent texels (x, y, z) of rank-D images as a compute
 * dispatch: from src (a sampled view of one level in the uint format) at src_offset
 * to dst (a storage view of one level in the same format) at dst_offset. Both are
 * in the GENERAL layout; the caller orders the dispatch with barriers. */
AMP_HIDDEN amp_status amp__record_shader_image_copy(amp_accelerator_view *v, amp__batch *b, int rank, VkImageView src,
                                                    const int32_t src_offset[3], VkImageView dst,
                                                    const int32_t dst_offset[3], const uint32_t extent[3]);
/* The bytes of the packed buffer that pack_image.comp reads or writes for texels of
 * 3 channels of channel_bytes (1, 2 or 4) each: whole groups of 12 bytes. */
AMP_HIDDEN VkDeviceSize amp__packed_texels_size(size_t texels, uint32_t channel_bytes);
/* Records a move of a box of extent texels (x, y, z) at offset of a rank-D image
 * between buf (packed 3-channel texels at offset 0, amp__packed_texels_size bytes)
 * and image, a view of one level in the uint format of 4 channels of channel_bytes:
 * a storage view to widen into (the fourth channel 0), a sampled one to pack from.
 * The image is in the GENERAL layout; the caller orders the dispatch with barriers. */
AMP_HIDDEN amp_status amp__record_shader_pack(amp_accelerator_view *v, amp__batch *b, int rank, bool widen,
                                              VkImageView image, const int32_t offset[3], const uint32_t extent[3],
                                              uint32_t channel_bytes, VkBuffer buf);
/* Tests: lets CPU devices copy textures by shader too (textures made after the call). */
AMP_HIDDEN void amp__force_shader_image_copy(bool on);

/* ---- instance.c ---- */
AMP_HIDDEN VkInstance amp__instance(void);
AMP_HIDDEN bool amp__validation_enabled(void);
/* The physical device of an accelerator. */
AMP_HIDDEN VkPhysicalDevice amp__accelerator_physical(const amp_accelerator *acc);
/* The accelerator of a physical device of ampvk's instance, or NULL. */
AMP_HIDDEN amp_accelerator *amp__accelerator_for_physical(VkPhysicalDevice pd);
/* Marks that work has started, for set_default. */
AMP_HIDDEN void amp__note_work_started(void);

#endif
