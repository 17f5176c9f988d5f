/* libFuzzer harness: the Radiance HDR path (src/image/image_stb.c: stb_image's HDR
 * decoder behind ampvk's reader that notices truncation) on untrusted bytes,
 * without a device. It calls what amp_texture_load_hdr calls, in its order:
 * amp__stb_is_hdr, amp__stb_info, then amp__stb_load_hdr for 1..4 channels (which
 * must refuse every file that is not HDR, whatever other format it is), and
 * checks every decode against the header and against the 4-channel decode
 * (ampvk/image.h: RGB as decoded, alpha 1, one channel the mean of R, G and B),
 * which reads every output float. */
#include <math.h>

#include "fuzz.h"
#include "image/image_internal.h"

/* amp_texture_load_hdr refuses larger images from the header alone (the device's
 * largest 2-D image; lavapipe's is 16384). */
#define MAX_SIDE 16384

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool is_hdr = amp__stb_is_hdr(data, size);
    int w = 0, h = 0, comp = 0, is16 = 0;
    int ok = amp__stb_info(data, size, &w, &h, &comp, &is16);
    if (ok) {
        FUZZ_CHECK(w >= 1 && h >= 1 && comp >= 1 && comp <= 4, "info: %dx%d with %d components", w, h, comp);
        /* the header step reads every format stb knows; the library asks it only
         * about files that sniffed as HDR (amp__stb_is_hdr) */
        FUZZ_CHECK(!is_hdr || !is16, "info says an HDR file is 16-bit");
    }
    /* the library decodes only what passed both checks and fits the device; a
     * file that failed them is still handed to the decoder, which must refuse it */
    if (ok && (w > MAX_SIDE || h > MAX_SIDE)) return 0;
    float *px[5] = {0};
    for (int channels = 1; channels <= 4; channels++) {
        int lw = -1, lh = -1;
        px[channels] = amp__stb_load_hdr(data, size, channels, &lw, &lh);
        if (!px[channels]) {
            FUZZ_CHECK(amp__stb_reason()[0], "a failed decode without a reason");
            continue;
        }
        FUZZ_CHECK(ok && is_hdr, "decoded a file whose header does not read (is_hdr %d, info %d)", is_hdr, ok);
        FUZZ_CHECK(lw == w && lh == h, "decoded %dx%d but the header says %dx%d", lw, lh, w, h);
    }
    size_t texels = (size_t)w * (size_t)h;
    float *p4 = px[4];
    for (int channels = 1; channels <= 4; channels++) {
        float *p = px[channels];
        /* 4 channels may be refused as too large where fewer are not */
        if (!p || !p4) continue;
        for (size_t t = 0; t < texels; t++) {
            const float *q = p4 + t * 4, *o = p + t * (size_t)channels;
            FUZZ_CHECK(q[3] == 1.0f, "texel %zu: alpha %g, not 1", t, q[3]);
            if (channels >= 3) {
                for (int c = 0; c < channels; c++)
                    FUZZ_CHECK(same_bits(o[c], q[c]), "%d channels: texel %zu channel %d is %g, not %g", channels, t, c,
                               o[c], q[c]);
            } else {
                float mean = (q[0] + q[1] + q[2]) / 3;
                FUZZ_CHECK(o[0] == mean || fabsf(o[0] - mean) <= 1e-6f * fabsf(mean),
                           "%d channels: texel %zu is %g, not the mean %g", channels, t, o[0], mean);
                if (channels == 2) FUZZ_CHECK(o[1] == 1.0f, "2 channels: texel %zu alpha %g, not 1", t, o[1]);
            }
        }
    }
    for (int channels = 1; channels <= 4; channels++) amp__stb_free(px[channels]);
    return 0;
}
