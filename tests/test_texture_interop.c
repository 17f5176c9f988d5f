/* Vulkan interop: the VkImage behind a texture, and a texture wrapped over an
 * existing VkImage. The image of texture A is handed out, wrapped as texture B,
 * written through B by a kernel, handed back, and read through A: both see one
 * image, and ownership stays with A (B never destroys it). */
#include <vulkan/vulkan.h>

#include "test.h"

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    enum { H = 6, W = 10 };
    float init[H * W];
    for (int i = 0; i < H * W; i++) init[i] = (float)i;
    amp_texture *a = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(H, W), .type = AMP_FLOAT,
                                                               .data = init, .data_size = sizeof init});
    REQUIRE(a);
    amp_vulkan_image vi;
    REQUIRE_OK(amp_texture_get_vulkan_image(a, &vi));
    REQUIRE(vi.image != 0 && vi.image_view != 0);
    REQUIRE_INT(vi.format, VK_FORMAT_R32_SFLOAT);
    REQUIRE_INT(vi.layout, VK_IMAGE_LAYOUT_GENERAL);

    amp_texture *b = amp_texture_wrap_vulkan_image(v, &(amp_texture_wrap_desc){
        .image = vi.image, .format = vi.format, .layout = vi.layout, .extent = amp_extent2(H, W)});
    REQUIRE(b);
    REQUIRE_INT(amp_texture_type(b), AMP_FLOAT);
    REQUIRE_INT(amp_texture_bits_per_scalar_element(b), 32);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.rank = 2, .params = "texture<float, 2> t",
                                                            .body = "t_set(idx, t(idx) * 2.0 + 1.0);"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(H, W), k, AMP_ARGS(AMP_TEXTURE("t", b))));
    /* the application takes the image back from B, then A reads it */
    amp_vulkan_image again;
    REQUIRE_OK(amp_texture_get_vulkan_image(b, &again));
    REQUIRE(again.image == vi.image);
    float out[H * W];
    REQUIRE_OK(amp_texture_copy_to_host(a, NULL, out, sizeof out));
    int bad = 0;
    for (int i = 0; i < H * W; i++) bad += out[i] != (float)i * 2 + 1;
    REQUIRE_INT(bad, 0);
    amp_kernel_destroy(&k);
    amp_texture_destroy(&b); /* does not destroy the image */
    REQUIRE_OK(amp_texture_copy_to_host(a, NULL, out, sizeof out));
    REQUIRE(out[H * W - 1] == (float)(H * W - 1) * 2 + 1);

    /* errors: no image, a format ampvk does not use, a bad extent */
    REQUIRE_NULL_FAIL(amp_texture_wrap_vulkan_image(v, &(amp_texture_wrap_desc){.format = vi.format,
                                                                                .extent = amp_extent2(H, W)}),
                      AMP_ERROR_INVALID_ARGUMENT, "a VkImage is required");
    REQUIRE_NULL_FAIL(amp_texture_wrap_vulkan_image(v, &(amp_texture_wrap_desc){
                          .image = vi.image, .format = VK_FORMAT_B8G8R8A8_SRGB, .extent = amp_extent2(H, W)}),
                      AMP_ERROR_UNSUPPORTED, "is not a format ampvk textures use");
    REQUIRE_NULL_FAIL(amp_texture_wrap_vulkan_image(v, &(amp_texture_wrap_desc){
                          .image = vi.image, .format = vi.format, .extent = amp_extent2(0, W)}),
                      AMP_ERROR_INVALID_ARGUMENT, "dimension 0 is 0");
    REQUIRE_FAIL(amp_texture_get_vulkan_image(NULL, &again), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_texture_destroy(&a);
    return test_end();
}
