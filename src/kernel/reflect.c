/* Just enough SPIR-V reflection to check arguments: the member offsets of the
 * argument block (set 0, binding 0) and the element stride of each storage
 * buffer binding; and whether the module needs 64-bit floats or integers. */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

enum {
    OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23, OP_TYPE_MATRIX = 24,
    OP_TYPE_ARRAY = 28, OP_CONSTANT = 43, STORAGE_WORKGROUP = 4,
    OP_TYPE_RUNTIME_ARRAY = 29, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_VARIABLE = 59,
    OP_DECORATE = 71, OP_MEMBER_DECORATE = 72, OP_CAPABILITY = 17, CAP_FLOAT64 = 10, CAP_INT64 = 11,
    DEC_ARRAY_STRIDE = 6, DEC_BINDING = 33, DEC_OFFSET = 35
};

/* Byte size of a type as tile_static memory holds it (no padding counted). */
static uint64_t type_size(const uint32_t *w, size_t count, const size_t *def, uint32_t bound, uint32_t id, int depth)
{
    if (id >= bound || !def[id] || depth > 16) return 0;
    const uint32_t *a = &w[def[id] + 1];
    uint32_t op = w[def[id]] & 0xffff, n = w[def[id]] >> 16;
    (void)count;
    switch (op) {
    case OP_TYPE_BOOL: return 4;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT: return a[1] / 8;
    case OP_TYPE_VECTOR:
    case OP_TYPE_MATRIX: return a[2] * type_size(w, count, def, bound, a[1], depth + 1);
    case OP_TYPE_ARRAY: {
        uint32_t len_id = a[2];
        uint64_t len = len_id < bound && def[len_id] && (w[def[len_id]] & 0xffff) == OP_CONSTANT ? w[def[len_id] + 3] : 1;
        return len * type_size(w, count, def, bound, a[1], depth + 1);
    }
    case OP_TYPE_STRUCT: {
        uint64_t sum = 0;
        for (uint32_t m = 2; m < n; m++) sum += type_size(w, count, def, bound, a[m - 1], depth + 1);
        return sum;
    }
    default: return 0;
    }
}

/* What the first pass learns about each id, indexed by id. */
typedef struct id_tables {
    uint32_t *binding, *stride, *pointee, *first_member, *array_elem, *var_type;
    char *is_var, *has_binding;
    bool float64, int64; /* the module declares the Float64 / Int64 capability */
} id_tables;

/* Every table sized for the module's id bound; false when out of memory. */
static bool tables_alloc(id_tables *t, uint32_t bound)
{
    t->binding = calloc(bound, 4);
    t->stride = calloc(bound, 4);
    t->pointee = calloc(bound, 4);
    t->first_member = calloc(bound, 4);
    t->array_elem = calloc(bound, 4);
    t->var_type = calloc(bound, 4);
    t->is_var = calloc(bound, 1);
    t->has_binding = calloc(bound, 1);
    return t->binding && t->stride && t->pointee && t->first_member && t->array_elem && t->var_type && t->is_var &&
           t->has_binding;
}

static void tables_free(id_tables *t)
{
    free(t->binding);
    free(t->stride);
    free(t->pointee);
    free(t->first_member);
    free(t->array_elem);
    free(t->var_type);
    free(t->is_var);
    free(t->has_binding);
}

/* The first pass: walks every instruction, checking that each fits in the module,
 * and records the decorations, types and variables the later steps look up. */
static amp_status collect_ids(const uint32_t *w, size_t count, uint32_t bound, id_tables *t)
{
    for (size_t i = 5; i < count;) {
        uint32_t op = w[i] & 0xffff, n = w[i] >> 16;
        if (n == 0 || i + n > count) return amp__fail(AMP_ERROR_FORMAT, "malformed SPIR-V at word %zu", i);
        const uint32_t *a = &w[i + 1];
        if (op == OP_CAPABILITY && n >= 2) {
            t->float64 |= a[0] == CAP_FLOAT64;
            t->int64 |= a[0] == CAP_INT64;
        } else if (op == OP_DECORATE && n >= 4 && a[0] < bound) {
            if (a[1] == DEC_BINDING) {
                t->binding[a[0]] = a[2];
                t->has_binding[a[0]] = 1;
            } else if (a[1] == DEC_ARRAY_STRIDE) {
                t->stride[a[0]] = a[2];
            }
        } else if (op == OP_TYPE_POINTER && n >= 4 && a[0] < bound) {
            t->pointee[a[0]] = a[2];
        } else if (op == OP_TYPE_STRUCT && n >= 3 && a[0] < bound) {
            t->first_member[a[0]] = a[1];
        } else if (op == OP_TYPE_RUNTIME_ARRAY && n >= 3 && a[0] < bound) {
            t->array_elem[a[0]] = a[1] ? a[1] : 1;
        } else if (op == OP_VARIABLE && n >= 4 && a[1] < bound) {
            t->is_var[a[1]] = 1;
            t->var_type[a[1]] = a[0];
        }
        i += n;
    }
    return AMP_OK;
}

/* The argument block: the struct behind the variable with binding 0 (0 if none);
 * also the highest binding any variable has. */
static uint32_t argument_block(const id_tables *t, uint32_t bound, uint32_t *max_binding)
{
    uint32_t block = 0;
    *max_binding = 0;
    for (uint32_t id = 0; id < bound; id++) {
        if (!t->is_var[id] || !t->has_binding[id]) continue;
        uint32_t ptr = t->var_type[id] < bound ? t->pointee[t->var_type[id]] : 0;
        if (t->binding[id] == 0) block = ptr;
        if (t->binding[id] > *max_binding) *max_binding = t->binding[id];
    }
    return block;
}

/* The ArrayStride of the runtime array that each storage buffer binding (all but
 * binding 0) holds as its first member; 0 for bindings that are not such buffers. */
static amp_status binding_strides(const id_tables *t, uint32_t bound, uint32_t max_binding, amp__reflection *out)
{
    out->binding_count = max_binding + 1;
    out->binding_strides = calloc(out->binding_count, 4);
    if (!out->binding_strides) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    for (uint32_t id = 0; id < bound; id++) {
        if (!t->is_var[id] || !t->has_binding[id] || t->binding[id] == 0) continue;
        uint32_t s = t->var_type[id] < bound ? t->pointee[t->var_type[id]] : 0;
        uint32_t m = s < bound ? t->first_member[s] : 0;
        if (m < bound && t->array_elem[m]) out->binding_strides[t->binding[id]] = t->stride[m];
    }
    return AMP_OK;
}

/* tile_static memory: the total size of the Workgroup variables, from a table of
 * where each type and constant is defined. */
static amp_status shared_bytes(const uint32_t *w, size_t count, uint32_t bound, const uint32_t *pointee,
                               amp__reflection *out)
{
    size_t *def = calloc(bound, sizeof *def);
    if (!def) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    for (size_t i = 5; i < count; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff;
        if ((op >= OP_TYPE_BOOL && op <= OP_TYPE_MATRIX) || op == OP_TYPE_ARRAY || op == OP_TYPE_STRUCT ||
            op == OP_TYPE_POINTER)
            if (w[i + 1] < bound) def[w[i + 1]] = i;
        if (op == OP_CONSTANT && w[i + 2] < bound) def[w[i + 2]] = i;
    }
    for (size_t i = 5; i < count; i += w[i] >> 16)
        if ((w[i] & 0xffff) == OP_VARIABLE && w[i + 3] == STORAGE_WORKGROUP && w[i + 1] < bound)
            out->shared_bytes += (uint32_t)type_size(w, count, def, bound, pointee[w[i + 1]], 0);
    free(def);
    return AMP_OK;
}

/* The second pass: the Offset of each member of the argument block, by member index. */
static amp_status member_offsets(const uint32_t *w, size_t count, uint32_t block, amp__reflection *out)
{
    uint32_t members = 0;
    for (size_t i = 5; i < count; i += w[i] >> 16)
        if ((w[i] & 0xffff) == OP_MEMBER_DECORATE && w[i + 1] == block && w[i + 3] == DEC_OFFSET &&
            w[i + 2] + 1 > members)
            members = w[i + 2] + 1;
    out->member_count = members;
    out->member_offsets = calloc(members ? members : 1, 4);
    if (!out->member_offsets) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    for (size_t i = 5; i < count; i += w[i] >> 16)
        if ((w[i] & 0xffff) == OP_MEMBER_DECORATE && w[i + 1] == block && w[i + 3] == DEC_OFFSET)
            out->member_offsets[w[i + 2]] = w[i + 4];
    return AMP_OK;
}

amp_status amp__reflect(const uint32_t *w, size_t count, amp__reflection *out)
{
    memset(out, 0, sizeof *out);
    if (count < 5 || w[0] != 0x07230203u) return amp__fail(AMP_ERROR_FORMAT, "not SPIR-V");
    uint32_t bound = w[3];
    id_tables t = {0};
    amp_status st = AMP_OK;
    if (!tables_alloc(&t, bound)) st = amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    if (st == AMP_OK) st = collect_ids(w, count, bound, &t);
    uint32_t block = 0, max_binding = 0;
    if (st == AMP_OK) {
        block = argument_block(&t, bound, &max_binding);
        st = binding_strides(&t, bound, max_binding, out);
    }
    if (st == AMP_OK) st = shared_bytes(w, count, bound, t.pointee, out);
    if (st == AMP_OK) st = member_offsets(w, count, block, out);
    out->float64 = t.float64;
    out->int64 = t.int64;
    tables_free(&t);
    if (st != AMP_OK) amp__reflection_free(out);
    return st;
}

void amp__reflection_free(amp__reflection *r)
{
    free(r->member_offsets);
    free(r->binding_strides);
    memset(r, 0, sizeof *r);
}
