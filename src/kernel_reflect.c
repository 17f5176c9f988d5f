/* Just enough SPIR-V reflection to check arguments: the member offsets of the
 * argument block (set 0, binding 0) and the element stride of each storage
 * buffer binding. */
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"

enum {
    OP_TYPE_RUNTIME_ARRAY = 29, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_VARIABLE = 59,
    OP_DECORATE = 71, OP_MEMBER_DECORATE = 72,
    DEC_ARRAY_STRIDE = 6, DEC_BINDING = 33, DEC_OFFSET = 35
};

amp_status amp__reflect(const uint32_t *w, size_t count, amp__reflection *out)
{
    memset(out, 0, sizeof *out);
    if (count < 5 || w[0] != 0x07230203u) return amp__fail(AMP_ERROR_FORMAT, "not SPIR-V");
    uint32_t bound = w[3];
    uint32_t *binding = calloc(bound, 4), *stride = calloc(bound, 4), *pointee = calloc(bound, 4),
             *first_member = calloc(bound, 4), *array_elem = calloc(bound, 4), *var_type = calloc(bound, 4);
    char *is_var = calloc(bound, 1), *has_binding = calloc(bound, 1);
    amp_status st = AMP_OK;
    if (!binding || !stride || !pointee || !first_member || !array_elem || !var_type || !is_var || !has_binding) {
        st = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        goto done;
    }
    /* first pass: types, variables, decorations */
    for (size_t i = 5; i < count;) {
        uint32_t op = w[i] & 0xffff, n = w[i] >> 16;
        if (n == 0 || i + n > count) {
            st = amp__fail(AMP_ERROR_FORMAT, "malformed SPIR-V at word %zu", i);
            goto done;
        }
        const uint32_t *a = &w[i + 1];
        if (op == OP_DECORATE && n >= 4 && a[0] < bound) {
            if (a[1] == DEC_BINDING) {
                binding[a[0]] = a[2];
                has_binding[a[0]] = 1;
            } else if (a[1] == DEC_ARRAY_STRIDE) {
                stride[a[0]] = a[2];
            }
        } else if (op == OP_TYPE_POINTER && n >= 4 && a[0] < bound) {
            pointee[a[0]] = a[2];
        } else if (op == OP_TYPE_STRUCT && n >= 3 && a[0] < bound) {
            first_member[a[0]] = a[1];
        } else if (op == OP_TYPE_RUNTIME_ARRAY && n >= 3 && a[0] < bound) {
            array_elem[a[0]] = a[1] ? a[1] : 1;
        } else if (op == OP_VARIABLE && n >= 4 && a[1] < bound) {
            is_var[a[1]] = 1;
            var_type[a[1]] = a[0];
        }
        i += n;
    }
    /* the argument block: the struct behind the variable with binding 0 */
    uint32_t block = 0, max_binding = 0;
    for (uint32_t id = 0; id < bound; id++) {
        if (!is_var[id] || !has_binding[id]) continue;
        uint32_t ptr = var_type[id] < bound ? pointee[var_type[id]] : 0;
        if (binding[id] == 0) block = ptr;
        if (binding[id] > max_binding) max_binding = binding[id];
    }
    out->binding_count = max_binding + 1;
    out->binding_strides = calloc(out->binding_count, 4);
    if (!out->binding_strides) {
        st = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        goto done;
    }
    for (uint32_t id = 0; id < bound; id++) {
        if (!is_var[id] || !has_binding[id] || binding[id] == 0) continue;
        uint32_t s = var_type[id] < bound ? pointee[var_type[id]] : 0;
        uint32_t m = s < bound ? first_member[s] : 0;
        if (m < bound && array_elem[m]) out->binding_strides[binding[id]] = stride[m];
    }
    /* second pass: member offsets of the block */
    uint32_t members = 0;
    for (size_t i = 5; i < count; i += w[i] >> 16)
        if ((w[i] & 0xffff) == OP_MEMBER_DECORATE && w[i + 1] == block && w[i + 3] == DEC_OFFSET &&
            w[i + 2] + 1 > members)
            members = w[i + 2] + 1;
    out->member_count = members;
    out->member_offsets = calloc(members ? members : 1, 4);
    if (!out->member_offsets) {
        st = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        goto done;
    }
    for (size_t i = 5; i < count; i += w[i] >> 16)
        if ((w[i] & 0xffff) == OP_MEMBER_DECORATE && w[i + 1] == block && w[i + 3] == DEC_OFFSET)
            out->member_offsets[w[i + 2]] = w[i + 4];
done:
    free(binding);
    free(stride);
    free(pointee);
    free(first_member);
    free(array_elem);
    free(var_type);
    free(is_var);
    free(has_binding);
    if (st != AMP_OK) amp__reflection_free(out);
    return st;
}

void amp__reflection_free(amp__reflection *r)
{
    free(r->member_offsets);
    free(r->binding_strides);
    memset(r, 0, sizeof *r);
}
