/* stb_image (its Radiance HDR decoder only: PNG goes through libspng, png_read.c)
 * and stb_image_write's zlib compressor,
 * compiled static into this one file so that none of their symbols leave the
 * library, with thin wrappers for image_file.c and png_write.c. This file is built
 * without warnings (CMakeLists.txt): stb's code is not ours to fix. */
#include <limits.h>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

#include "image/image_internal.h"

int amp__stb_info(const unsigned char *data, size_t size, int *w, int *h, int *channels, int *is16)
{
    if (size > INT_MAX) return stbi__err("too large", "file too large");
    if (!stbi_info_from_memory(data, (int)size, w, h, channels)) return 0;
    *is16 = stbi_is_16_bit_from_memory(data, (int)size);
    return 1;
}

bool amp__stb_is_hdr(const unsigned char *data, size_t size)
{
    return size <= INT_MAX && stbi_is_hdr_from_memory(data, (int)size);
}

/* stb's HDR decoder reads zeros past the end of its input without complaint; reading
 * through callbacks tells whether it ever asked for bytes that were not there. */
typedef struct reader {
    const unsigned char *data;
    size_t size, pos;
    bool overrun;
} reader;

static int reader_read(void *user, char *buf, int n)
{
    reader *r = user;
    size_t left = r->size - r->pos, k = n < 0 ? 0 : (size_t)n < left ? (size_t)n : left;
    if (n > 0 && k == 0) r->overrun = true;
    memcpy(buf, r->data + r->pos, k);
    r->pos += k;
    return (int)k;
}

static void reader_skip(void *user, int n)
{
    reader *r = user;
    if (n < 0) return;
    if ((size_t)n > r->size - r->pos) {
        r->overrun = true;
        r->pos = r->size;
    } else {
        r->pos += (size_t)n;
    }
}

static int reader_eof(void *user)
{
    reader *r = user;
    return r->pos >= r->size;
}

float *amp__stb_load_hdr(const unsigned char *data, size_t size, int channels, int *w, int *h)
{
    reader r = {data, size, 0, false};
    stbi_io_callbacks io = {reader_read, reader_skip, reader_eof};
    int n;
    float *px = stbi_loadf_from_callbacks(&io, &r, w, h, &n, channels);
    if (px && r.overrun) {
        stbi_image_free(px);
        return (float *)stbi__errpf("truncated", "file ends before its pixels");
    }
    return px;
}

void amp__stb_free(void *pixels) { stbi_image_free(pixels); }

const char *amp__stb_reason(void)
{
    const char *r = stbi_failure_reason();
    return r ? r : "unknown reason";
}

unsigned char *amp__zlib_compress(const unsigned char *data, size_t size, size_t *out_size)
{
    int n = 0;
    if (size > INT_MAX) return NULL;
    unsigned char *z = stbi_zlib_compress((unsigned char *)data, (int)size, &n, 8);
    *out_size = z ? (size_t)n : 0;
    return z;
}
