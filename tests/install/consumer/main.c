/* A program that uses an installed ampvk: lists the accelerators and adds two
 * arrays in a kernel. Prints "sums: 7 9 11 13 15" and exits 0 when all is well. */
#include <stdio.h>

#include <ampvk/ampvk.h>

int main(void)
{
    int n = amp_accelerator_count();
    for (int i = 0; i < n; i++) {
        amp_accelerator_info info;
        if (amp_accelerator_get_info(amp_accelerator_at(i), &info) == AMP_OK)
            printf("accelerator %d: %s\n", i, info.description);
    }
    int a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10}, s[5] = {0};
    amp_array_view *va = amp_array_view_create_const(amp_extent1(5), AMP_INT, 0, a);
    amp_array_view *vb = amp_array_view_create_const(amp_extent1(5), AMP_INT, 0, b);
    amp_array_view *vs = amp_array_view_create(amp_extent1(5), AMP_INT, 0, s);
    amp_kernel *k = amp_kernel_create(NULL, &(amp_kernel_desc){
        .params = "array_view<const int, 1> a, array_view<const int, 1> b, array_view<int, 1> sum",
        .body = "sum(idx) = a(idx) + b(idx);"});
    int ok = va && vb && vs && k && amp_array_view_discard_data(vs) == AMP_OK &&
             amp_parallel_for_each(NULL, amp_extent1(5), k,
                                   AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_VIEW("sum", vs))) == AMP_OK &&
             amp_array_view_synchronize(vs) == AMP_OK;
    if (!ok) fprintf(stderr, "consumer: %s\n", amp_last_error());
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vs);
    if (!ok) return 1;
    printf("sums: %d %d %d %d %d\n", s[0], s[1], s[2], s[3], s[4]);
    if (amp_validation_message_count()) {
        fprintf(stderr, "consumer: %llu validation messages\n", (unsigned long long)amp_validation_message_count());
        return 1;
    }
    return 0;
}
