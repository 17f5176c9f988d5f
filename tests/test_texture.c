#include "test.h"
int main(void){
  test_begin();
  amp_accelerator_view *v = test_view();
  /* 2x1 float texture {0,1}: sampler facts */
  float data[2] = {0, 1};
  amp_texture *t = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(1, 2), .type = AMP_FLOAT, .data = data, .data_size = 8});
  REQUIRE(t);
  float out[8] = {0};
  amp_array_view *vo = amp_array_view_create(amp_extent1(8), AMP_FLOAT, 0, out);
  amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
     .params = "texture_view<const float, 2> t, sampler s, array_view<float, 1> o, float u",
     .body = "o(idx) = t_sample(s, vec2(u, 0.5), 0.0);"});
  REQUIRE(k);
  struct { amp_sampler s; float u; float want; } cases[] = {
     {{.filter = AMP_FILTER_POINT}, 0.25f, 0},
     {{.filter = AMP_FILTER_LINEAR}, 0.5f, 0.5f},
     {{.filter = AMP_FILTER_LINEAR, .address = AMP_ADDRESS_CLAMP}, 1.25f, 1},
     {{.filter = AMP_FILTER_POINT, .address = AMP_ADDRESS_WRAP}, 1.25f, 0},
     {{.filter = AMP_FILTER_POINT, .address = AMP_ADDRESS_BORDER, .border_color = {7,7,7,7}}, 1.5f, 7},
  };
  for (int i = 0; i < 5; i++) {
    amp_array_view *one = amp_array_view_section(vo, amp_index1(i), amp_extent1(1));
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k, AMP_ARGS(AMP_TEXTURE("t", t), AMP_SAMPLER("s", cases[i].s), AMP_VIEW("o", one), AMP_FLOAT("u", cases[i].u))));
    amp_array_view_destroy(&one);
  }
  REQUIRE_OK(amp_array_view_synchronize(vo));
  for (int i = 0; i < 5; i++) { printf("case %d: %g want %g\n", i, out[i], cases[i].want); REQUIRE(out[i] == cases[i].want); }
  /* read one texture, write another */
  unsigned char px[4*4*4]; for (int i = 0; i < 64; i++) px[i] = (unsigned char)(i * 3);
  amp_texture *a = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(4, 4), .type = AMP_UNORM_4, .bits_per_scalar_element = 8, .data = px, .data_size = 64});
  amp_texture *b = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(4, 4), .type = AMP_FLOAT_4, .bits_per_scalar_element = 32});
  amp_texture *a2 = amp_texture_create(v, &(amp_texture_desc){.extent = amp_extent2(4, 4), .type = AMP_UINT_4, .bits_per_scalar_element = 8, .data = px, .data_size = 64});
  REQUIRE(a && b && a2);
  amp_texture_view *bw = amp_texture_view_create(b, &(amp_texture_view_desc){.access = AMP_TEXTURE_WRITE});
  amp_kernel *k2 = amp_kernel_create(v, &(amp_kernel_desc){.rank = 2,
     .params = "texture<uint_4, 2> a, writeonly_texture_view<float_4, 2> b",
     .body = "b_set(idx, vec4(a(idx)) * 2.0 + vec4(float(idx.x), float(idx.y), float(a_extent.x), 0));"});
  REQUIRE(k2);
  REQUIRE_OK(amp_parallel_for_each(v, amp_extent2(4, 4), k2, AMP_ARGS(AMP_TEXTURE("a", a2), AMP_TEXTURE_VIEW("b", bw))));
  float fo[64];
  REQUIRE_OK(amp_texture_copy_to_host(b, NULL, fo, sizeof fo));
  int bad = 0;
  for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) for (int ch = 0; ch < 4; ch++) {
    float want = px[(r*4+c)*4+ch] * 2.0f + (ch == 0 ? r : ch == 1 ? c : ch == 2 ? 4 : 0);
    if (fo[(r*4+c)*4+ch] != want) { if (bad++ < 3) printf("(%d,%d,%d): %g want %g\n", r, c, ch, fo[(r*4+c)*4+ch], want); }
  }
  REQUIRE_INT(bad, 0);
  amp_texture_view_destroy(&bw);
  amp_kernel_destroy(&k); amp_kernel_destroy(&k2);
  amp_texture_destroy(&t); amp_texture_destroy(&a); amp_texture_destroy(&b); amp_texture_destroy(&a2);
  amp_array_view_destroy(&vo);
  return test_end();
}
