/*
 * ampvk/image.h: image files, host images, image comparison and golden images.
 *
 * Host images. An amp_image is pixels in host memory as a file holds them: width x
 * height texels of 1..4 channels (gray, gray+alpha, RGB, RGBA) of 8-bit, 16-bit or
 * float samples. amp_image_load() reads any supported file into one, its format found
 * from the content, never from the name; amp_image_save() writes the format the
 * name's extension picks. Each format goes through a library made for untrusted input
 * where Debian has one, and every decoder is fuzzed (tests/fuzz):
 *
 *     format        read                                  written          through
 *     PNG           1-16-bit, palette, Adam7, tRNS        8, 16 bits       libspng, libdeflate, own coder
 *     JPEG          baseline, progressive, arithmetic;    8 bits: gray,    libjpeg-turbo (TurboJPEG)
 *                   gray, YCbCr, RGB, CMYK, YCCK          YCbCr
 *     WebP          lossy, lossless, alpha; still         8 bits: RGB(A)   libwebp
 *     OpenEXR       half, float, uint; Y, YA, RGB(A);     half, float;     OpenEXRCore (3.1)
 *                   scanline, tiled; every compression    ZIP, PIZ, RLE,
 *                   but DWAA/DWAB (first part)            none
 *     TIFF          8/16-bit and float, gray(+alpha),     8, 16, 32 bits   libtiff
 *                   RGB(A); strips, tiles, planes; any
 *                   compression libtiff has (first page)
 *     Radiance HDR  RGBE (RLE or flat)                    RGB floats       stb_image behind own checks
 *     BMP, TGA      8-bit (stb_image's kinds)             8 bits           stb_image behind own checks
 *     PSD           8/16-bit RGB(A), raw or RLE           (read only)      stb_image behind own checks
 *
 * JPEG: decodes give exactly cv2.imread's pixels (the same accurate IDCT and smooth
 * chroma upsampling); CMYK and YCCK become RGB as OpenCV converts them (Adobe's
 * inverted CMYK scaled by K); the EXIF orientation is applied as cv2.imread applies it
 * (ignore_orientation keeps the stored one, and amp_image_info reports the turned
 * size); any warning of the decoder (a truncated or corrupt stream) is an error, never
 * a partly gray image. Saving writes what cv2.imwrite writes at the same quality (0:
 * 90) and chroma subsampling (0: 4:2:0; 444, 422), byte for byte; gray images stay
 * one component, alpha is dropped.
 *
 * WebP: files decode exactly as cv2.imread decodes them, RGB or (with alpha) RGBA;
 * animated files are refused. Saving is lossy at quality (0: 90), or lossless with
 * `lossless` (quality then the effort, 0: OpenCV's 70; the colors under transparent
 * pixels kept, so RGBA round trips are exact); gray is written as RGB. The bytes are
 * cv2.imwrite's at the same settings.
 *
 * OpenEXR: channels R, G, B (a missing one 0) and A give RGB(A), else Y and A give Y or
 * YA (a layer's "diffuse.R" when there are no top-level names; else the first channel
 * as Y); the data window is the image; files decode to floats exactly as cv2.imread
 * decodes them, large ones on a thread per core. Saving writes scanlines of half
 * (bits 16; the default for 8/16-bit images) or float (bits 32; for float images),
 * compression DEFAULT or DEFLATE (ZIP, 16 rows a chunk, OpenCV's default), PIZ, RLE or
 * NONE. Subsampled channels, deep and multi-part files (beyond part 0) are refused or
 * not read; so are DWAA/DWAB files, which OpenEXRCore 3.1 does not decode.
 *
 * TIFF: 8/16-bit and float samples decode at their own depth, exactly as cv2.imread
 * decodes them (MinIsWhite inverted; an extra sample is alpha, as stored); OpenCV's
 * LogLuv floats become linear RGB; palette, bilevel, CMYK and YCbCr files come through
 * libtiff's RGBA rendering as 8 bits; the Orientation tag is applied as for JPEG's
 * EXIF one (cv2.imread applies it too). Before decoding, every strip and tile must lie in
 * the file and the image must fit in their bytes at the compression's densest ratio.
 * Saving writes strips of 64 KiB at 8, 16 or 32 (float) bits, compression DEFAULT
 * (OpenCV's: LZW with the horizontal predictor for integers, none for floats), NONE, LZW
 * or DEFLATE (with the predictor); alpha is marked unassociated.
 *
 * amp_texture_from_image() and amp_texture_to_image() move an
 * image to and from a 2-D texture, so a program can decode on one thread while the
 * device works for another (the `ampvk filter` tool's folder mode does so);
 * amp_texture_load() and amp_texture_save() do both steps at once.
 *
 * PNG writing: each row takes the best of the five PNG filters; the default
 * (png_level 0) compresses as zlib's run-length mode does, literals and runs under a
 * Huffman code made for each 64 KiB, which on photographs writes files smaller than
 * OpenCV's cv2.imwrite at its defaults in a third of its time; png_level 1..12 are
 * libdeflate's levels (much smaller files for flat artwork, slower). A texture saved
 * as a PNG from a GPU (amp_texture_save) has its rows filtered and its bytes counted
 * on the device, and the host only writes the Huffman code: a photograph in a third
 * to a half of amp_image_save's time. PNG reading checks every chunk and CRC, then
 * inflates with libdeflate (8/16-bit gray, gray + alpha, RGB, RGBA) or decodes
 * through libspng (palette, 1-4-bit, interlaced, tRNS).
 *
 * Loading. amp_texture_load_png() reads a PNG into a 2-D unorm texture that keeps
 * the file's channels and depth:
 *
 *     file                        texture              bits_per_scalar_element
 *     gray                        AMP_UNORM            8 or 16 (as the file)
 *     gray + alpha                AMP_UNORM_2          8 or 16
 *     RGB                         AMP_UNORM_3          8 or 16
 *     RGBA                        AMP_UNORM_4          8 or 16
 *     palette                     AMP_UNORM_3, or AMP_UNORM_4 if it has a tRNS chunk; 8
 *     1-, 2-, 4-bit gray          AMP_UNORM, 8 (levels scaled to 0..255)
 *     gray or RGB with tRNS       one more channel: alpha 0 on the key color, else max
 *
 * Interlaced (Adam7) files are read too. The texture's extent is (height, width):
 * component 0 counts rows, as everywhere in ampvk, and row 0 is the top of the
 * image; texels are tightly packed (an RGB 8-bit texel is 3 bytes on the host).
 * amp_image_load_desc may convert: `channels` 1..4 converts as stb_image does
 * (gray to RGB replicates, RGB to gray is the luma (77 r + 150 g + 29 b) >> 8,
 * an added alpha is opaque, a dropped one is discarded); `bits` 8 or 16 converts
 * the depth exactly upward (v * 257) and rounds to nearest downward
 * ((v * 255 + 32767) / 65535); `mip_levels` asks for a mip chain, which
 * amp_texture_generate_mips() fills from the image; `max_pixels` bounds the images
 * an untrusted file may claim (a few hundred bytes of lossless WebP or TIFF can hold
 * a gigabyte of pixels), checked from the header before anything is allocated.
 *
 * amp_texture_load_hdr() reads a Radiance .hdr (RGBE) file into a 32-bit float
 * texture, AMP_FLOAT_4 with alpha 1 by default (channels 3: AMP_FLOAT_3; 1: the
 * mean of R, G and B; 2: that mean and alpha 1). A texel is m * 2^(e - 136) per
 * channel, 0 where e is 0 (stb_image's decoding).
 *
 * Files are checked before any pixel is decoded: the PNG signature, the chunk
 * structure and every chunk's CRC, and the image size against the device's
 * largest 2-D image (from the header alone, so a corrupt header that claims a
 * huge image fails at once without allocating for it).
 *
 * Saving. amp_texture_save_png() writes a 2-D texture as a PNG of 8 or 16 bits
 * per channel (bits 0: 16 for 16-bit unorm and norm textures, 8 for every other
 * texture), with 1..4 components as gray, gray+alpha, RGB or RGBA:
 *   - unorm textures of 8 or 16 bits are written exactly; 8 -> 16 is v * 257,
 *     16 -> 8 rounds to nearest, (v * 255 + 32767) / 65535;
 *   - float (16 or 32 bits) and norm textures are clamped to [0, 1] (NaN -> 0)
 *     and scaled by 255 or 65535, rounded to nearest;
 *   - int, uint and double textures, and 1-D and 3-D textures, are rejected with
 *     AMP_ERROR_INVALID_ARGUMENT naming the type or rank.
 * Only mip level 0 is written. The file is written under a temporary name in the
 * target's directory and renamed over the target when it is complete, so a failed
 * save leaves no partial file and an existing file untouched. Images whose
 * uncompressed rows exceed 1 GiB are refused (AMP_ERROR_OUT_OF_BOUNDS).
 *
 * Comparing. amp_image_compare() copies two textures of the same extent, type and
 * bits to the host and compares mip level 0 component by component, for
 * golden-image tests. Differences are in the texture's stored units: steps of the
 * stored integer for unorm, norm, int and uint textures (an 8-bit unorm
 * difference of 1 is 1/255), values for float and double textures. The PSNR uses
 * the type's peak: 2^bits - 1 for unorm and uint, 2^(bits-1) - 1 for norm and
 * int, 1.0 for float and double. amp_image_compare_png() compares a texture with
 * a golden image (a PNG, or any format ampvk reads: an OpenEXR or float TIFF keeps a
 * float result whole): the texture is converted as amp_texture_save() would write it
 * at the golden file's depth (so a float kernel result compares with the PNG that
 * was saved from it) and the channel counts must match. A tolerance says how large
 * a channel difference may be, and how many texels (or what fraction) may exceed
 * it; the result has both "equal" (none exceed it) and "passed" (within the
 * allowance). amp_image_compare_images() compares host images (the `ampvk diff`
 * tool), amp_image_diff() draws the differing texels in red over a faded gray copy.
 *
 * Metrics and masks. The channel metric above runs on the host. The YIQ metric is
 * pixelmatch's (7.2): the perceptual YIQ distance of Kotsarenko and Ramos between the
 * pixels as 8-bit RGBA, translucent ones blended on pixelmatch's checkerboard (or
 * white), with its anti-aliasing detector (Vysniauskas 2009) where asked; it runs on
 * the default accelerator (a GPU, or lavapipe), in doubles where the device has them
 * and in pixelmatch's order of operations, so that it counts the same differing pixels
 * as pixelmatch on the same pair, threshold and setting (tests/data/compare). Either
 * metric leaves out the texels under ignore rectangles or a mask, and finds the N x N
 * window with the most differing texels (a thin edge and a blob of the same count
 * told apart). amp_image_compare_draw() draws the comparison as pixelmatch and odiff
 * do (an overlay on faded gray, or a mask). The SSIM metric is Wang et al.'s (2004) on
 * the lumas (BT.601: 0.299 R + 0.587 G + 0.114 B, translucent pixels blended on white)
 * as scikit-image computes it with gaussian_weights=True, sigma 1.5 and
 * use_sample_covariance=False (an 11-tap Gaussian window, its 'reflect' border, the
 * data range 255, 65535 or 1 by the images' depth), on the default accelerator: the
 * result's ssim is its mean away from the edges; a texel differs where 1 - SSIM
 * exceeds the tolerance. Images need at least 11 x 11 pixels. The FLIP metric is
 * NVIDIA's (Andersson et al. 2020 and, for HDR, 2021), computed as FLIP 1.6's
 * reference does it, in floats, on the default accelerator: the images filtered by
 * the eye's contrast sensitivity at the observer's pixels per degree and compared in
 * color (HyAB in Hunt-adjusted L*a*b*) and in edges and points, an error 0..1 per
 * pixel. 8- and 16-bit images are sRGB (LDR-FLIP); float images are linear radiance
 * (HDR-FLIP: tone mapped at exposures worked out from the expected image, unless
 * given, the largest error of each pixel kept). The result has FLIP's pooled values:
 * the mean (mean_score), the weighted median and quartiles, the maximum and a
 * histogram; the means agree with NVIDIA's tool to 1e-4 (tests/data/compare/flip). A
 * texel differs where its error exceeds the tolerance.
 *
 * Golden images. amp_image_check_golden() is a golden-image test in one call: it
 * compares a texture with a golden image and, on failure, writes the actual, expected
 * and diff images into a folder the caller names; AMPVK_UPDATE_GOLDEN=1 writes the
 * golden instead, and a missing golden is written too unless CI is set, when it is
 * a failure. It takes the metric, masks and allowances of amp_image_compare_desc.
 *
 * Errors (the library never prints):
 *   AMP_ERROR_IO               a file that cannot be opened, read or written: the
 *                              path and the system's reason
 *   AMP_ERROR_FORMAT           an empty, truncated, corrupt or foreign file: the path
 *                              and the reason (the decoder's where it found it)
 *   AMP_ERROR_OUT_OF_BOUNDS    an image larger than the device allows:
 *                              "image 20000x300 is larger than the device's 16384x16384"
 *                              (sizes are width x height, as image tools print them)
 *   AMP_ERROR_INVALID_ARGUMENT NULL arguments, bad descriptions, unsupported textures,
 *                              textures that cannot be compared (both described)
 *
 * Thread safety: every function here may be called from several threads at once
 * (the decoder keeps no shared state); the textures follow texture.h's rules.
 */
#ifndef AMPVK_IMAGE_H
#define AMPVK_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How to load an image file. Zero (or a NULL desc) means "as the file". */
typedef struct amp_image_load_desc {
    int channels;   /* 0: as the file; 1..4: converted to that many (see the overview) */
    int bits;       /* 0: as the file; 8 or 16 for integer files, 32 for float ones (HDR, EXR, float TIFF) */
    int mip_levels; /* textures only. 0: 1; n or AMP_MIP_FULL: that many levels, generated from level 0 */
    bool ignore_orientation; /* JPEG, TIFF: the pixels as stored, not turned as the orientation says */
    uint64_t max_pixels; /* 0: ampvk's limits only; n: a file whose header claims more than n pixels fails
                            with AMP_ERROR_OUT_OF_BOUNDS before anything is allocated (untrusted files) */
} amp_image_load_desc;

/* Image file formats: found from the content on load, from the name's extension on
 * save (.png; .jpg/.jpeg; .bmp; .tga; .hdr; .exr; .webp; .tif/.tiff; PSD is read
 * only). */
typedef enum amp_image_format {
    AMP_IMAGE_FORMAT_AUTO = 0,
    AMP_IMAGE_FORMAT_PNG,
    AMP_IMAGE_FORMAT_JPEG,
    AMP_IMAGE_FORMAT_BMP,
    AMP_IMAGE_FORMAT_TGA,
    AMP_IMAGE_FORMAT_PSD,
    AMP_IMAGE_FORMAT_HDR,
    AMP_IMAGE_FORMAT_EXR,
    AMP_IMAGE_FORMAT_WEBP,
    AMP_IMAGE_FORMAT_TIFF
} amp_image_format;

/* Returns "png", "jpeg", "bmp", "tga", "psd", "hdr", "exr", "webp", "tiff" ("auto"
 * for AUTO, NULL for others). */
const char *amp_image_format_name(amp_image_format f);

/* The format a file name asks for by its extension (case-insensitive), or AUTO when
 * the extension is none of those above. */
amp_image_format amp_image_format_from_path(const char *path);

/* An image in host memory, as a file decodes to it: width x height texels of
 * `channels` samples each (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA), row 0 at the top,
 * rows `stride` bytes apart. Samples are uint8_t (bits 8), uint16_t in host order
 * (bits 16) or float (bits 32, HDR). Images the library returns own their pixels
 * (free with amp_image_free) and are tightly packed; images the caller builds may
 * point anywhere. */
typedef struct amp_image {
    int width, height;
    int channels;
    int bits;
    size_t stride;
    void *pixels;
    amp_image_format format; /* the file's format when loaded; AUTO otherwise */
} amp_image;

/* Reads an image file of any supported format (the overview's table, told apart by
 * content) into *out, converted as desc says. PNG keeps its depth; HDR gives 32-bit
 * floats (4 channels unless desc->channels says otherwise); JPEG gives 8 bits, gray or
 * RGB; BMP, TGA give 8 bits with the file's channels; PSD gives 8 or 16 bits (as the
 * file), with 3 or 4 channels. Limits, errors and checks as amp_texture_load_png except that
 * the size limit is 65535 x 65535 and 1 GiB of samples (no device involved). On
 * failure *out is zeroed and nothing is allocated. */
amp_status amp_image_load(const char *path, const amp_image_load_desc *desc, amp_image *out);

/* The same from a file already in memory; name is used in messages (may be NULL). */
amp_status amp_image_load_memory(const void *data, size_t size, const char *name, const amp_image_load_desc *desc,
                                 amp_image *out);

/* What amp_image_load(path, NULL, ...) would give, from the file's header: width,
 * height, channels, bits and format in *out (pixels NULL, stride 0). The whole file
 * is read and, for a PNG, its chunks and CRCs checked, but no pixel is decoded.
 * Errors as amp_image_load. */
amp_status amp_image_info(const char *path, amp_image *out);

/* Allocates a zeroed, tightly packed image (bits 8, 16 or 32; channels 1..4). */
amp_status amp_image_create(int width, int height, int channels, int bits, amp_image *out);

/* Frees an image's pixels that the library allocated and zeroes *img; NULL is a no-op. */
void amp_image_free(amp_image *img);

/* The compression of a TIFF or EXR file written; each format takes those it has. */
typedef enum amp_image_compression {
    AMP_IMAGE_COMPRESSION_DEFAULT = 0,
    AMP_IMAGE_COMPRESSION_NONE,
    AMP_IMAGE_COMPRESSION_RLE,     /* EXR */
    AMP_IMAGE_COMPRESSION_DEFLATE, /* TIFF (Adobe deflate), EXR (ZIP, 16 rows a block) */
    AMP_IMAGE_COMPRESSION_LZW,     /* TIFF */
    AMP_IMAGE_COMPRESSION_PIZ      /* EXR */
} amp_image_compression;

/* How to save an image file. Zero (or a NULL desc) means the defaults. */
typedef struct amp_image_save_desc {
    amp_image_format format; /* AUTO: from path's extension (no known extension: an error) */
    int bits;                /* 0: the image's own depth where the format has it, else the nearest:
                                PNG 8 or 16; TIFF 8, 16 or 32 (float); OpenEXR 16 (half) or 32
                                (float; 8/16-bit images go to half); HDR 32; the others 8 */
    int quality;             /* JPEG, lossy WebP: 1..100, 0 means 90; lossless WebP: effort, 0 means 70 */
    int png_level;           /* PNG: 0 the fast run-length coder (see the overview); 1..12 libdeflate's
                                levels, 1 fastest, 12 smallest */
    int subsampling;         /* JPEG chroma: 444, 422 or 420; 0 means 420 (OpenCV's and libjpeg's) */
    amp_image_compression compression; /* TIFF and EXR; DEFAULT: the format's (see the overview) */
    bool lossless;           /* WebP: lossless (quality then trades time for size; false: lossy) */
} amp_image_save_desc;

/* Writes img to path in the format desc or the extension asks for. 16-bit samples
 * written at 8 bits round to nearest ((v * 255 + 32767) / 65535); float samples are
 * clamped to [0, 1] (NaN: 0) and scaled, except into HDR. JPEG stores gray or YCbCr
 * (alpha is dropped), BMP and TGA gray-as-RGB/RGB/RGBA, HDR RGB floats. As with
 * amp_texture_save_png, the file appears only when complete. */
amp_status amp_image_save(const char *path, const amp_image *img, const amp_image_save_desc *desc);

/* Encodes img into a malloc'ed file image in memory (*data, *size; free() it).
 * desc->format must not be AUTO. */
amp_status amp_image_encode(const amp_image *img, const amp_image_save_desc *desc, unsigned char **data,
                            size_t *size);

/* Makes a 2-D texture holding img: AMP_UNORM_n for 8/16-bit images, AMP_FLOAT_n for
 * float ones, n = img->channels, on view (NULL: the default view), with mip_levels
 * (0: 1; n or AMP_MIP_FULL) generated from level 0. The upload is recorded, not
 * waited for; img may be freed on return. NULL and a message on failure. */
amp_texture *amp_texture_from_image(amp_accelerator_view *view, const amp_image *img, int mip_levels);

/* Copies mip level 0 of a 2-D unorm, norm or float texture into a new image of bits
 * (0: as amp_texture_save_png picks; 8 or 16; 32 for float textures), converted as
 * amp_texture_save_png converts. Waits for the texture's pending writes. */
amp_status amp_texture_to_image(amp_texture *t, int bits, amp_image *out);

/* Loads any supported image file into a new 2-D texture (amp_image_load, then
 * amp_texture_from_image with desc->mip_levels; the size is checked against the
 * device's largest 2-D image before decoding). */
amp_texture *amp_texture_load(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc);

/* Loads a PNG into a new 2-D unorm texture on view (NULL: the default view). Returns
 * NULL with AMP_ERROR_IO, AMP_ERROR_FORMAT, AMP_ERROR_OUT_OF_BOUNDS or
 * AMP_ERROR_INVALID_ARGUMENT (see the overview). The caller destroys the texture. */
amp_texture *amp_texture_load_png(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc);

/* Loads a Radiance .hdr file into a new 2-D 32-bit float texture (AMP_FLOAT_4 unless
 * desc->channels says otherwise). Errors as amp_texture_load_png. */
amp_texture *amp_texture_load_hdr(amp_accelerator_view *view, const char *path, const amp_image_load_desc *desc);

/* Writes mip level 0 of a 2-D texture to path in the format of desc or the name's
 * extension (amp_texture_to_image, then amp_image_save). A PNG of a unorm texture at
 * its own depth (desc->bits 0 or the texture's, png_level 0) on a GPU has its rows
 * filtered on the device: each row's filter is chosen over the whole row, the
 * filtered bytes are counted there per deflate block, and the host only codes them
 * (blocks with few runs as literals). The file decodes to the same texels either
 * way, within a fraction of a percent of amp_image_save's size. */
amp_status amp_texture_save(amp_texture *t, const char *path, const amp_image_save_desc *desc);

/* Writes mip level 0 of a 2-D texture to path as a PNG of bits (0, 8 or 16) per
 * channel, replacing the file only when the whole image was written. Waits for
 * the texture's pending writes. On GPUs, as amp_texture_save. */
amp_status amp_texture_save_png(amp_texture *t, const char *path, int bits);

/* What a comparison measures at each pixel (amp_image_compare_desc.metric). */
typedef enum amp_image_metric {
    AMP_IMAGE_METRIC_CHANNEL = 0, /* the largest |a - b| of its channels, in the compared units */
    AMP_IMAGE_METRIC_YIQ,         /* pixelmatch's perceptual YIQ distance of the pixels as 8-bit
                                     RGBA, as a score 0..1 (sqrt(delta / 35215)) */
    AMP_IMAGE_METRIC_SSIM,        /* structural similarity of the lumas (Wang et al. 2004), as a
                                     score 1 - SSIM per pixel */
    AMP_IMAGE_METRIC_FLIP         /* NVIDIA's FLIP (Andersson et al. 2020), its error 0..1 per pixel
                                     as the score: LDR-FLIP of 8- and 16-bit images (sRGB, alpha
                                     ignored unless blend_on_white), HDR-FLIP of float images
                                     (linear RGB: exposed, tone mapped and compared at several
                                     exposures, the largest error kept) */
} amp_image_metric;

/* HDR-FLIP's tone mappers (amp_image_compare_desc.tone_mapper). */
typedef enum amp_image_tone_mapper {
    AMP_IMAGE_TONE_MAP_ACES = 0, /* Narkowicz's ACES fit, FLIP's default */
    AMP_IMAGE_TONE_MAP_HABLE,
    AMP_IMAGE_TONE_MAP_REINHARD
} amp_image_tone_mapper;

/* The buckets of amp_image_compare_result.histogram. */
#define AMP_IMAGE_HISTOGRAM_BUCKETS 100

/* A rectangle of pixels: columns x .. x + width - 1 and rows y .. y + height - 1. */
typedef struct amp_image_rect {
    int x, y, width, height;
} amp_image_rect;

/* How to compare. Zero means exact, by the channel metric. A texel "differs" when its
 * metric exceeds tolerance (the channel metric: any component differs by more; YIQ:
 * its score exceeds the threshold, pixelmatch's and odiff's 0.1 by default in their
 * tools); the comparison passes when at most max_pixels texels, or at most
 * max_fraction of the texels compared (the larger allowance), differ. Texels under an
 * ignore rectangle or the mask are left out of everything. */
typedef struct amp_image_compare_desc {
    double tolerance;    /* largest metric allowed per texel; 0: exact */
    size_t max_pixels;   /* texels allowed to differ; 0: none (unless max_fraction allows) */
    double max_fraction; /* fraction (0..1) of the texels allowed to differ; 0: none */
    amp_image_metric metric;
    bool ignore_antialiased; /* YIQ: a pixel beyond the threshold that lies on an anti-aliased
                                edge in either image (pixelmatch's detector) does not differ:
                                pixelmatch's default, odiff's --aa */
    bool blend_on_white;     /* YIQ: translucent pixels are blended on white, not on
                                pixelmatch 7.2's checkerboard (its checkerboard: false) */
    const amp_image_rect *ignore; /* rectangles to leave out (inside the image) */
    int ignore_count;
    const amp_image *mask;   /* an image of the same size: texels where its alpha (or, with
                                no alpha, its first channel) is 0 are left out */
    int window;              /* N > 0: also find the N x N window (clamped to the image)
                                holding the most differing texels */
    amp_accelerator_view *view; /* where the YIQ, SSIM and FLIP metrics run; NULL: the default
                                   view. A view per thread lets threads compare at once */
    double ppd;              /* FLIP: the observer's pixels per degree of visual angle; 0: 67.02
                                (0.7 m from a 0.7 m wide screen of 3840 pixels), NVIDIA's default */
    amp_image_tone_mapper tone_mapper; /* HDR-FLIP */
    int exposures;           /* HDR-FLIP: 0: the exposures worked out from the expected image,
                                as NVIDIA's tool does; n >= 1: n exposures from exposure_start
                                to exposure_stop (stops, 2^exposure) */
    double exposure_start, exposure_stop;
} amp_image_compare_desc;

/* What a comparison found. */
typedef struct amp_image_compare_result {
    bool equal;                     /* no texel's metric exceeds the tolerance */
    bool passed;                    /* differing_texels is within max_pixels / max_fraction */
    double max_abs_diff;            /* channel metric: largest |a - b| over all components */
    double channel_max_abs_diff[4]; /* the same per channel (0 beyond the component count) */
    double mean_abs_diff;           /* channel metric: mean |a - b| over all components compared */
    double psnr;                    /* channel metric: 10 log10(peak^2 / mean squared
                                       difference), dB; +INFINITY when identical */
    double max_score, mean_score;   /* YIQ, SSIM, FLIP: the largest and the mean score of the texels
                                       compared (FLIP's mean error) */
    double ssim;                    /* SSIM: the mean similarity away from the image's edges (as
                                       scikit-image's mssim); 1 for identical images */
    size_t texels;                  /* texels compared (the ignored ones not counted) */
    size_t differing_texels;        /* texels whose metric exceeds the tolerance */
    size_t allowed_texels;          /* how many may differ under the description */
    size_t antialiased_texels;      /* YIQ: beyond the threshold but anti-aliased, not counted */
    size_t ignored_texels;          /* texels under the ignore rectangles or the mask */
    size_t window_texels;           /* desc.window N: the most differing texels in an N x N window */
    amp_index window_origin;        /* its top-left texel (row, column) */
    amp_index first_difference;     /* the first differing texel in row-major order, (row, column); rank 0 if none */
    bool golden_written;            /* amp_image_check_golden wrote the golden file */
    double weighted_median;         /* FLIP: the error's median and quartiles, each pixel weighted
                                       by its error (NVIDIA's pooling) */
    double weighted_quartiles[2];
    size_t histogram[AMP_IMAGE_HISTOGRAM_BUCKETS]; /* FLIP: pixels by error, buckets of 0.01 */
    int exposures;                  /* HDR-FLIP: the exposures compared, from exposure_start to
                                       exposure_stop; 0 for identical images */
    double exposure_start, exposure_stop;
} amp_image_compare_result;

/* Compares mip level 0 of a and b (same extent, type and bits, else
 * AMP_ERROR_INVALID_ARGUMENT describing both) on the host. desc may be NULL. Returns
 * AMP_OK whether or not they are equal; out->equal and out->passed say which. */
amp_status amp_image_compare(amp_texture *a, amp_texture *b, const amp_image_compare_desc *desc,
                             amp_image_compare_result *out);

/* Compares mip level 0 of t with the golden image at golden_path (any format ampvk
 * reads), t converted as amp_texture_save would write it at the golden file's depth. The extent and
 * channel count must match (AMP_ERROR_INVALID_ARGUMENT). Differences are in steps
 * of the golden file's depth. Load errors as amp_texture_load_png. */
amp_status amp_image_compare_png(amp_texture *t, const char *golden_path, const amp_image_compare_desc *desc,
                                 amp_image_compare_result *out);

/* Compares two host images of the same width, height and channel count (else
 * AMP_ERROR_INVALID_ARGUMENT naming both), in steps of expected's depth (8 or 16
 * bits; actual is converted to it as amp_image_save converts) or, for float images,
 * in values. */
amp_status amp_image_compare_images(const amp_image *expected, const amp_image *actual,
                                    const amp_image_compare_desc *desc, amp_image_compare_result *out);

/* Makes the picture of a comparison: an 8-bit RGB image of expected's size, a faded
 * gray copy of expected (luma / 3 + 170) with every texel that differs by more than
 * tolerance in pure red. Same requirements as amp_image_compare_images. */
amp_status amp_image_diff(const amp_image *expected, const amp_image *actual, double tolerance, amp_image *out);

/* How amp_image_compare_draw draws. */
typedef enum amp_image_draw_style {
    AMP_IMAGE_DRAW_OVERLAY = 0, /* 8-bit RGBA: expected in faded gray (pixelmatch's: luma blended
                                   90% toward white), differing texels red where actual is the
                                   brighter, blue where darker, anti-aliased ones yellow,
                                   ignored ones a darker gray */
    AMP_IMAGE_DRAW_MASK,        /* the differing texels in red on transparent black */
    AMP_IMAGE_DRAW_HEATMAP      /* each texel's score 0..1 in the magma colormap (FLIP's): the
                                   YIQ score, 1 - SSIM, the FLIP error, or the largest channel
                                   difference over the type's peak; ignored texels gray */
} amp_image_draw_style;

/* Compares as amp_image_compare_images does and draws the comparison into picture
 * (an image of expected's size; amp_image_free it). */
amp_status amp_image_compare_draw(const amp_image *expected, const amp_image *actual,
                                  const amp_image_compare_desc *desc, amp_image_draw_style style,
                                  amp_image_compare_result *out, amp_image *picture);

/* The same with one comparison for several pictures: pictures[k] drawn in styles[k]
 * (count of each; amp_image_free every one). On failure none is left. */
amp_status amp_image_compare_draw_styles(const amp_image *expected, const amp_image *actual,
                                         const amp_image_compare_desc *desc, const amp_image_draw_style *styles,
                                         int count, amp_image_compare_result *out, amp_image *pictures);

/* How to check a golden image. */
typedef struct amp_image_golden_desc {
    amp_image_compare_desc compare; /* the tolerance */
    const char *failure_dir; /* on a failed check, write NAME.actual.EXT, NAME.expected.EXT and
                                NAME.diff.png here (NAME.EXT: the golden's file name; EXT png
                                where ampvk does not write the golden's format);
                                NULL: $AMPVK_GOLDEN_FAILURES, else nothing is written */
} amp_image_golden_desc;

/* Checks mip level 0 of t against the golden image at golden_path, as
 * amp_image_compare_png does, under desc's tolerance (NULL: exact). Returns AMP_OK
 * with out->passed saying whether it passed; when it did not and a failure folder is
 * named, the actual, expected and diff images are written there (the folder is
 * created). With AMPVK_UPDATE_GOLDEN=1 in the environment the golden is written from
 * t instead, in the format of its name (a PNG if the name has no image extension)
 * (out->golden_written; out->passed true). A missing golden is written the same way,
 * unless CI is set in the environment: then it is AMP_ERROR_IO naming the file. */
amp_status amp_image_check_golden(amp_texture *t, const char *golden_path, const amp_image_golden_desc *desc,
                                  amp_image_compare_result *out);

#ifdef __cplusplus
}
#endif
#endif
