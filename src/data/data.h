/* The data layer (src/data): arrays and array_views over shared storage, textures
 * on Vulkan images, and samplers. It uses src/core and src/vulkan; what the kernel
 * layer needs to bind data to a dispatch is declared here, and, in the sections
 * marked so, what the layer's own files share. Not installed. */
#ifndef AMPVK_DATA_H
#define AMPVK_DATA_H

#include "ampvk/texture.h"
#include "core/format.h"
#include "vulkan/gpu.h"

/* ---- storage.c: storage shared by views ---- */
typedef struct amp__data amp__data;
/* Before a dispatch tracks any access: orders the view's storage after its last use
 * in another view's batch and makes its data current on v's device. Either may
 * submit batches (v's recording one too), which must not happen once accesses are
 * tracked in v's batch, so a dispatch readies every argument first. */
AMP_HIDDEN amp_status amp__view_make_ready(amp_array_view *view, amp_accelerator_view *v);
/* Makes the view's data current on the device of v for a kernel access; records an
 * upload if needed and gathers the barrier for the access. The storage is *size
 * bytes at *offset in *buf (a multiple of minStorageBufferOffsetAlignment). */
AMP_HIDDEN amp_status amp__view_prepare_device(amp_array_view *view, amp_accelerator_view *v,
                                              bool write, amp__barrier *bar, VkBuffer *buf,
                                              VkDeviceSize *offset, VkDeviceSize *size);
/* Element offset and strides (in elements) of a view inside its storage. */
AMP_HIDDEN void amp__view_geometry(const amp_array_view *view, int64_t *offset, int64_t strides[2]);

/* ---- shared by the array files (storage.c, array*.c), not for other layers ---- */
struct amp__data {
    int refs;
    size_t size;            /* bytes */
    void *host;             /* the application's memory, ours, or NULL */
    bool host_owned;        /* host was allocated by ampvk */
    bool host_valid;        /* host holds the current contents */
    bool device_valid;      /* the device buffer holds the current contents */
    uint64_t version;       /* bumped by each device write (async downloads check it) */
    amp__device *dev;       /* device of buf */
    amp__buffer buf;
    VkDeviceSize base;      /* where the storage starts in buf (a wrapped buffer's offset) */
    bool wrapped;           /* buf is the application's: never destroyed */
    bool held;              /* exported: the application's until imported */
    amp__track track;
    amp__buffer import;     /* the host memory imported for transfers, if possible */
    VkDeviceSize import_offset;
    bool import_failed;
    amp_accelerator_view *home; /* view of the last device use */
    amp_array *array;       /* the array this storage belongs to, if any */
    amp__data *next;        /* registry of host-backed storage */
    amp__data *all_next;    /* every live storage (to forget destroyed views) */
};

struct amp_array_view {
    amp__data *data;
    amp_extent extent;
    size_t offset;                 /* bytes from the start of the storage */
    int64_t stride[AMP_MAX_RANK];  /* elements between neighbours in each dimension */
    amp_type type;
    size_t elem;
    bool is_const;
    bool embedded;                 /* owned by an array (amp_array_as_view) */
};

struct amp_array {
    amp_array_view view;           /* the whole array */
    amp_accelerator_view *av;
    amp_access_type access;
};

/* storage.c: the registry of storage over the application's host memory (a view of
 * memory inside a registered storage's shares it) and its lock */
AMP_HIDDEN extern pthread_mutex_t amp__data_registry_lock;
AMP_HIDDEN extern amp__data *amp__data_registry;
/* The usage of the storage's device buffers. */
#define AMP__DATA_BUFFER_USAGE                                                                                        \
    (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)

/* A view's geometry: dense strides for its extent, its bytes, whether its elements are
 * one run. */
AMP_HIDDEN void amp__view_set_dense_strides(amp_array_view *v);
AMP_HIDDEN size_t amp__view_bytes(const amp_array_view *v);
AMP_HIDDEN bool amp__view_contiguous(const amp_array_view *v);
/* Calls fn for each contiguous run of the view: its byte offset in the storage, its
 * byte offset in the packed (row-major) order, and its length. */
typedef void (*amp__run_fn)(void *ctx, size_t storage_off, size_t packed_off, size_t len);
AMP_HIDDEN void amp__view_for_each_run(const amp_array_view *v, amp__run_fn fn, void *ctx);

/* Storage of size bytes over host memory (NULL: none yet), one reference; and its
 * freeing, for storage that never became a view's. */
AMP_HIDDEN amp__data *amp__data_new(size_t size, void *host);
AMP_HIDDEN void amp__data_free(amp__data *d);
/* Drops a reference; the last one writes host memory's data back and frees it all. */
AMP_HIDDEN void amp__data_release(amp__data *d);
/* The moves between the storage's copies (storage.c says what each does). */
AMP_HIDDEN amp_status amp__data_usable(const amp__data *d, const char *who);
AMP_HIDDEN amp_status amp__data_submit_last_use(amp__data *d);
AMP_HIDDEN amp_status amp__data_order(amp__data *d, amp_accelerator_view *v);
AMP_HIDDEN amp_status amp__data_wait_idle(amp__data *d);
AMP_HIDDEN amp_status amp__data_ensure_buffer(amp__data *d, amp_accelerator_view *v);
AMP_HIDDEN amp_status amp__data_ensure_host(amp__data *d);
AMP_HIDDEN bool amp__data_import(amp__data *d);
AMP_HIDDEN amp_status amp__data_transfer_imported(amp__data *d, amp_accelerator_view *v, bool to_device);
AMP_HIDDEN amp_status amp__data_pull_host(amp__data *d);
AMP_HIDDEN amp_status amp__data_push_device(amp__data *d, amp_accelerator_view *v);
AMP_HIDDEN amp_array_view amp__data_whole_view(amp__data *d);
AMP_HIDDEN amp_status amp__view_upload(amp_array_view *view, amp_accelerator_view *v, const void *src);
AMP_HIDDEN amp_status amp__view_download(amp_array_view *view, amp__staging **out, uint64_t *serial);

/* array.c: checks of an element type (*elem 0: its natural size) and an extent, the
 * errors naming who. */
AMP_HIDDEN amp_status amp__check_element(const char *who, amp_type type, size_t *elem);
AMP_HIDDEN amp_status amp__check_extent(const char *who, amp_extent e);

/* ---- texture.c ---- */
/* What a kernel parameter binds: a texture or a view, resolved to one image view. */
typedef struct amp__texture_use {
    amp_texture *texture;
    int base_mip, mip_count;
    amp_texture_access access; /* of a view; AMP_TEXTURE_READ_WRITE for a whole texture */
} amp__texture_use;

AMP_HIDDEN amp__texture_use amp__texture_use_of(amp_texture *t);
AMP_HIDDEN amp__texture_use amp__texture_use_of_view(amp_texture_view *v);
AMP_HIDDEN const amp__format *amp__texture_format(const amp_texture *t);
AMP_HIDDEN bool amp__texture_storage_ok(const amp_texture *t);
AMP_HIDDEN bool amp__texture_linear_ok(const amp_texture *t);
/* True when no recorded or submitted work uses the texture any more (no wait). */
AMP_HIDDEN bool amp__texture_idle(const amp_texture *t);
/* The texture's last use in another view's batch reaches the queue (see
 * amp__view_make_ready). */
AMP_HIDDEN amp_status amp__texture_make_ready(const amp__texture_use *u, amp_accelerator_view *v);
/* Prepares the texture for a kernel's access on v: gathers its barrier, returns the
 * image view for the use (one level for storage access, the range for reads). */
AMP_HIDDEN amp_status amp__texture_prepare(const amp__texture_use *u, amp_accelerator_view *v, bool storage,
                                           bool write, amp__barrier *bar, VkImageView *view);
/* Whether the texture takes views in its uint format (GPUs' storage textures, whose
 * copies run as shaders: for a unorm texture, its texels' codes as integers), or with
 * word, in its word format (amp__format's word_vk: each 4-byte texel one word). */
AMP_HIDDEN bool amp__texture_uint_ok(const amp_texture *t, bool word);
/* The sampled or storage view of levels base..base+count-1 in the texture's uint format
 * (or word format), made on first need (VK_NULL_HANDLE with the error where
 * amp__texture_uint_ok is false); the texture's barrier is amp__texture_prepare's. */
AMP_HIDDEN VkImageView amp__texture_uint_view(amp_texture *t, int base, int count, bool storage, bool word);
/* tests/: textures made while on keep optimal tiling on CPU devices too (the filters'
 * passes on buffers then copy in and out, as for the application's images). */
AMP_HIDDEN void amp__force_optimal_textures(bool on);
/* The bytes between rows of a linear image's texels (CPU devices: amp_texture_create
 * makes one-level 2-D textures of 8-bit unorm texels linear there), else 0. */
AMP_HIDDEN VkDeviceSize amp__texture_row_pitch(const amp_texture *t);
/* A storage buffer over a linear image's texels (rows amp__texture_row_pitch apart) and a
 * view of it as texels of 16 bytes (R32G32B32A32_UINT: a uniform texel buffer), each where
 * its pointer is not NULL, for a shader of v's batch to read or write, after the image's
 * barrier for that (layout GENERAL); the texture keeps both. AMP_ERROR_UNSUPPORTED for
 * other images. */
AMP_HIDDEN amp_status amp__texture_buffer(amp_texture *t, amp_accelerator_view *v, bool write, VkBuffer *buf,
                                          VkBufferView *view);
/* Records on v a copy of a 2-D texture's level 0 into the buffer at offset (to_image
 * false) or from it (true), rows row_texels texels apart, with the texture's barrier;
 * the buffer's barriers are the caller's. */
AMP_HIDDEN amp_status amp__texture_buffer_copy(amp_texture *t, amp_accelerator_view *v, VkBuffer buf,
                                               VkDeviceSize offset, uint32_t row_texels, bool to_image);

/* ---- texture.c: shared by the texture files (texture*.c), not for other layers ---- */
/* kernels' sampled and storage views and the shader copy's, of each of up to 16 levels */
#define AMP__TEXTURE_MAX_VIEWS 64

typedef struct amp__image_view_entry {
    int base, count;
    bool storage;
    VkFormat format; /* the texture's, its uint format or its word format */
    VkImageView view;
} amp__image_view_entry;

struct amp_texture {
    int refs;                   /* the texture and its views */
    amp_accelerator_view *av;
    amp__device *dev;
    amp__format fmt;
    amp_extent extent;
    int mips;
    VkImage image;
    amp__alloc mem;
    bool wrapped;               /* the application's image: not ours to destroy */
    bool held;                  /* exported: the application's until imported */
    bool storage_ok, linear_ok;
    bool shader_copy;           /* can take views in fmt.uint_vk: copies run as a shader */
    /* a linear image (CPU devices, amp__texture_buffer): a buffer over its texels, a view
       of it as 16-byte texels and their row pitch; none and 0 for other images */
    VkBuffer texels;
    VkBufferView texels_view;
    VkDeviceSize row_pitch;
    amp__track track;
    VkImageLayout layout;       /* of every level */
    amp_accelerator_view *home; /* view of the last use */
    amp__image_view_entry views[AMP__TEXTURE_MAX_VIEWS];
    int view_count;
    VkImageView all_levels;     /* for interop */
};

struct amp_texture_view {
    amp_texture *texture;
    amp_texture_access access;
    int base, count;
};

/* Vulkan's extent and offset of a texture's (x, y, z: the last dimension first). */
AMP_HIDDEN VkExtent3D amp__vk_extent(amp_extent e);
AMP_HIDDEN VkOffset3D amp__vk_offset(amp_index i);
/* The extent of mip level `level` of a texture of extent e. */
AMP_HIDDEN amp_extent amp__level_extent(amp_extent e, int level);
/* Records a copy c between t and buf (into t where to_image) on v's batch b, after t's
 * barrier for it; buf's barriers are the caller's. */
AMP_HIDDEN void amp__texture_record_buffer_image_copy(amp_accelerator_view *v, amp__batch *b, amp_texture *t,
                                                      VkBuffer buf, const VkBufferImageCopy *c, bool to_image);
/* Destroys t's views, buffer, image and memory once its work is done, and frees it. */
AMP_HIDDEN void amp__texture_free(amp_texture *t);
/* AMP_OK unless the application holds the texture (exported, not imported). */
AMP_HIDDEN amp_status amp__texture_check_not_held(const amp_texture *t, const char *who);
/* Work on t recorded in another view's batch must reach the queue before work that
 * v records on t (v's batch may be submitted first). */
AMP_HIDDEN amp_status amp__texture_submit_other_home(amp_texture *t, amp_accelerator_view *v);
/* Resolves a region (NULL: all of level 0) and checks it against the texture. */
AMP_HIDDEN amp_status amp__texture_resolve_region(const char *who, const amp_texture *t, const amp_texture_region *r,
                                                  amp_texture_region *out);
/* The view of levels base..base+count-1, storage or sampled, in the texture's format or
 * (shader_copy textures) its uint or word format; made on first need. */
AMP_HIDDEN VkImageView amp__texture_image_view(amp_texture *t, int base, int count, bool storage, VkFormat format);
/* Takes the image from the application (it must be held): the batch that first uses
 * it again waits for a->wait, then acquires it from a's family and moves it from
 * `from` (0: the layout it was exported in) to GENERAL. */
AMP_HIDDEN amp_status amp__texture_acquire(amp_texture *t, const char *who, const amp_vulkan_access *a,
                                           VkImageLayout from);
/* ---- texture_transfer.c ---- */
/* A copy between host memory and a region of t (to_device: into t), as
 * amp_texture_copy_from_host and the others make it; with future, asynchronous. */
AMP_HIDDEN amp_status amp__texture_host_copy(amp_texture *t, const amp_texture_region *region, void *host,
                                             size_t size, bool to_device, amp_future **future, const char *who);

/* A device-side transform of a texture's level 0 into a buffer whose results go to
 * the host, passed in by a layer above with its kernels (the image layer's, for one):
 * the data layer records it between the texture's barrier and the download, knowing
 * nothing of what the kernels compute. */
typedef struct amp__texture_transform {
    const char *name;                     /* the profile's span */
    size_t profile_bytes;                 /* the profile's byte count */
    VkDeviceSize buffer_bytes;            /* the device buffer the kernels work in */
    VkDeviceSize zero_offset, zero_bytes; /* a range of it zeroed before they run */
    VkBufferCopy downloads[2];            /* ranges of it staged for the host (1 or 2) */
    uint32_t download_count;
    /* makes what record needs on d (its pipelines); under the device lock, before
     * anything is recorded */
    amp_status (*prepare)(amp__device *d);
    /* records the kernels in b on image (a sampled view of level 0 in the texture's uint
     * format, GENERAL layout) and buf, ordered after the zeroing; the caller orders
     * what follows */
    amp_status (*record)(amp_accelerator_view *v, amp__batch *b, VkImageView image, VkBuffer buf,
                         const void *arg);
    const void *arg; /* record's, for the call only */
} amp__texture_transform;
/* Records x on t's level 0 (t takes uint views: amp__texture_uint_ok), submits it with
 * the download of x's ranges, and returns a future whose wait hands them to unpack
 * (with ctx_size bytes of ctx), one after another. NULL with the error, which names
 * `who`. */
AMP_HIDDEN amp_future *amp__texture_transform_download(const char *who, amp_texture *t,
                                                       const amp__texture_transform *x, amp__unpack_fn unpack,
                                                       const void *ctx, size_t ctx_size);

/* ---- sampler.c ---- */
/* The device's sampler for s, created once (NULL with an error if impossible). The
 * caller holds the device lock. */
AMP_HIDDEN VkSampler amp__sampler_get(amp__device *d, const amp_sampler *s);

#endif
