/* Kernels and parallel_for_each: the overview's examples with exact outputs,
 * odd extents, huge domains, dependency chains, argument checks, compile errors,
 * GLSL's rounding of doubles at every magnitude. */
#include <math.h>

#include "test.h"

static amp_kernel *make(amp_accelerator_view *v, const char *params, const char *body, int rank)
{
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = params, .body = body, .rank = rank});
    if (!k) fprintf(stderr, "kernel failed: %s\n", amp_last_error());
    return k;
}

/* The overview's first example: sum = a + b through array_views. */
static void add_arrays(amp_accelerator_view *v)
{
    int a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10}, sum[5] = {0};
    amp_array_view *va = amp_array_view_create_const(amp_extent1(5), AMP_INT, 0, a);
    amp_array_view *vb = amp_array_view_create_const(amp_extent1(5), AMP_INT, 0, b);
    amp_array_view *vs = amp_array_view_create(amp_extent1(5), AMP_INT, 0, sum);
    REQUIRE_OK(amp_array_view_discard_data(vs));
    amp_kernel *k = make(v, "array_view<const int, 1> a, array_view<const int, 1> b, array_view<int, 1> sum",
                         "sum(idx) = a(idx) + b(idx);", 1);
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(5), k,
                                     AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_VIEW("sum", vs))));
    REQUIRE_OK(amp_array_view_synchronize(vs));
    REQUIRE_ARRAY_INT(sum, ((int[]){7, 9, 11, 13, 15}), 5);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vs);
}

/* The same through a separate kernel function (AddElements in the overview). */
static void add_with_function(amp_accelerator_view *v)
{
    int a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10}, sum[5] = {0};
    amp_array_view *va = amp_array_view_create(amp_extent1(5), AMP_INT, 0, a);
    amp_array_view *vb = amp_array_view_create(amp_extent1(5), AMP_INT, 0, b);
    amp_array_view *vs = amp_array_view_create(amp_extent1(5), AMP_INT, 0, sum);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<int, 1> sum, array_view<int, 1> a, array_view<int, 1> b",
        .source = "void add_elements(index_1 idx) {\n"
                  "    sum(idx) = a(idx) + b(idx);\n"
                  "}\n"
                  "void kernel(index_1 idx) { add_elements(idx); }\n"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(5), k,
                                     AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_VIEW("sum", vs))));
    int last = 0;
    REQUIRE_OK(amp_array_view_get(vs, amp_index1(4), &last));
    REQUIRE_INT(last, 15);
    REQUIRE_ARRAY_INT(sum, ((int[]){7, 9, 11, 13, 15}), 5);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vs);
}

/* The overview's array example: multiply by 10 and copy back. */
static void multiply_array(amp_accelerator_view *v)
{
    int data[5] = {0, 1, 2, 3, 4};
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(5), .type = AMP_INT, .data = data});
    REQUIRE(a);
    amp_kernel *k = make(v, "array<int, 1> a", "a(idx) = a(idx) * 10;", 1);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(5), k, AMP_ARGS(AMP_ARRAY("a", a))));
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), data, sizeof data));
    REQUIRE_ARRAY_INT(data, ((int[]){0, 10, 20, 30, 40}), 5);
    amp_kernel_destroy(&k);
    amp_array_destroy(&a);
}

/* The 2-D and 3-D index examples, read inside a kernel. */
static void index_examples(amp_accelerator_view *v)
{
    int a2[] = {1, 2, 3, 4, 5, 6}, out = 0;
    int a3[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    amp_array_view *v2 = amp_array_view_create_const(amp_extent2(2, 3), AMP_INT, 0, a2);
    amp_array_view *v3 = amp_array_view_create_const(amp_extent3(2, 3, 4), AMP_INT, 0, a3);
    amp_array_view *vo = amp_array_view_create(amp_extent1(1), AMP_INT, 0, &out);
    amp_kernel *k2 = make(v, "array_view<const int, 2> a, array_view<int, 1> out",
                          "out(0) = a(index_2(1, 2));", 1);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k2, AMP_ARGS(AMP_VIEW("a", v2), AMP_VIEW("out", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    REQUIRE_INT(out, 6);
    amp_kernel *k3 = make(v, "array_view<const int, 3> a, array_view<int, 1> out",
                          "out(0) = a(index_3(0, 1, 3)) * 100 + a_extent[2] * 10 + a_extent[0];", 1);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(1), k3, AMP_ARGS(AMP_VIEW("a", v3), AMP_VIEW("out", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    REQUIRE_INT(out, 842); /* element 8, 4 columns, depth 2 */
    amp_kernel_destroy(&k2);
    amp_kernel_destroy(&k3);
    amp_array_view_destroy(&v2);
    amp_array_view_destroy(&v3);
    amp_array_view_destroy(&vo);
}

/* Every element of an odd 2-D and 3-D domain gets its own index exactly once. */
static void odd_extents(amp_accelerator_view *v)
{
    amp_extent shapes[] = {amp_extent1(1000), amp_extent2(37, 53), amp_extent3(5, 19, 23)};
    for (int s = 0; s < 3; s++) {
        amp_extent e = shapes[s];
        size_t n = amp_extent_size(e);
        int *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++) out[i] = -1;
        amp_array_view *vo = amp_array_view_create(e, AMP_INT, 0, out);
        const char *body[] = {"o(idx) = idx;", "o(idx) = idx.x * 1000 + idx.y;",
                              "o(idx) = idx[0] * 1000000 + idx[1] * 1000 + idx[2];"};
        char params[64];
        snprintf(params, sizeof params, "array_view<int, %d> o", e.rank);
        amp_kernel *k = make(v, params, body[s], e.rank);
        REQUIRE_OK(amp_parallel_for_each(v, e, k, AMP_ARGS(AMP_VIEW("o", vo))));
        REQUIRE_OK(amp_array_view_synchronize(vo));
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            amp_index x = amp_extent_unlinear(e, i);
            int want = e.rank == 1 ? x.i[0] : e.rank == 2 ? x.i[0] * 1000 + x.i[1]
                                                            : x.i[0] * 1000000 + x.i[1] * 1000 + x.i[2];
            if (out[i] != want && bad++ < 3) fprintf(stderr, "rank %d: out[%zu] = %d, want %d\n", e.rank, i, out[i], want);
        }
        REQUIRE_INT(bad, 0);
        amp_kernel_destroy(&k);
        amp_array_view_destroy(&vo);
        free(out);
    }
}

/* A 1-D domain larger than one dispatch (more than 65535 groups of 256). */
static void huge_domain(amp_accelerator_view *v)
{
    const int n = 65535 * 256 + 1000;
    amp_array *a = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(n), .type = AMP_UINT});
    amp_kernel *k = make(v, "array<uint, 1> a", "a(idx) = uint(idx) * 3u;", 1);
    amp_view_stats before, after;
    amp_view_get_stats(v, &before);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(n), k, AMP_ARGS(AMP_ARRAY("a", a))));
    amp_view_get_stats(v, &after);
    amp_accelerator_info info;
    amp_accelerator_get_info(amp_view_accelerator(v), &info);
    uint32_t groups = (uint32_t)(n + 255) / 256;
    REQUIRE_INT(after.dispatches - before.dispatches, (groups + info.max_groups[0] - 1) / info.max_groups[0]);
    uint32_t *out = malloc((size_t)n * 4);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), out, (size_t)n * 4));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += out[i] != (uint32_t)i * 3u;
    REQUIRE_INT(bad, 0);
    free(out);
    amp_kernel_destroy(&k);
    amp_array_destroy(&a);
}

/* A chain: each kernel reads what the previous wrote; two kernels write disjoint
 * sections of one view; scalars of every kind. All in one batch. */
static void dependency_chain(amp_accelerator_view *v)
{
    enum { N = 4096 };
    float *x = malloc(N * sizeof *x);
    for (int i = 0; i < N; i++) x[i] = (float)i;
    amp_array_view *vx = amp_array_view_create(amp_extent1(N), AMP_FLOAT, 0, x);
    amp_array *tmp = amp_array_create(v, &(amp_array_desc){.extent = amp_extent1(N), .type = AMP_FLOAT});
    amp_kernel *scale = make(v, "array_view<const float, 1> src, array_view<float, 1> dst, float s, int add",
                             "dst(idx) = src(idx) * s + float(add);", 1);
    amp_kernel *back = make(v, "array_view<const float, 1> src, array_view<float, 1> dst, uint k",
                            "dst(idx) = src(idx) - float(k);", 1);
    amp_view_stats before, after;
    amp_view_get_stats(v, &before);
    for (int r = 0; r < 10; r++) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), scale,
                                         AMP_ARGS(AMP_VIEW("src", vx), AMP_ARRAY("dst", tmp), AMP_FLOAT("s", 2.0f),
                                                  AMP_INT("add", 3))));
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), back,
                                         AMP_ARGS(AMP_ARRAY("src", tmp), AMP_VIEW("dst", vx), AMP_UINT("k", 3))));
    }
    amp_view_get_stats(v, &after);
    REQUIRE_INT(after.submits - before.submits, 0); /* automatic mode: still batched */
    REQUIRE_INT(after.uploads - before.uploads, 1); /* x went up once */
    REQUIRE_OK(amp_array_view_synchronize(vx));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += x[i] != (float)i * 1024.0f;
    REQUIRE_INT(bad, 0);

    /* disjoint sections written by two kernels */
    amp_array_view *lo = amp_array_view_section(vx, amp_index1(0), amp_extent1(N / 2));
    amp_array_view *hi = amp_array_view_section(vx, amp_index1(N / 2), amp_extent1(N / 2));
    amp_kernel *fill = make(v, "array_view<float, 1> o, float value", "o(idx) = value + float(idx);", 1);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N / 2), fill, AMP_ARGS(AMP_VIEW("o", lo), AMP_FLOAT("value", 1.0f))));
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N / 2), fill, AMP_ARGS(AMP_VIEW("o", hi), AMP_FLOAT("value", -1.0f))));
    REQUIRE_OK(amp_array_view_synchronize(vx));
    bad = 0;
    for (int i = 0; i < N; i++) bad += x[i] != (i < N / 2 ? 1.0f + (float)i : -1.0f + (float)(i - N / 2));
    REQUIRE_INT(bad, 0);
    amp_array_view_destroy(&lo);
    amp_array_view_destroy(&hi);
    amp_kernel_destroy(&fill);
    amp_kernel_destroy(&scale);
    amp_kernel_destroy(&back);
    amp_array_destroy(&tmp);
    amp_array_view_destroy(&vx);
    free(x);
}

/* 2-D sections and strides inside kernels. */
static void sections_in_kernels(amp_accelerator_view *v)
{
    int m[6 * 8];
    for (int i = 0; i < 48; i++) m[i] = i;
    amp_array_view *vm = amp_array_view_create(amp_extent2(6, 8), AMP_INT, 0, m);
    amp_array_view *s = amp_array_view_section(vm, amp_index2(2, 3), amp_extent2(3, 4));
    amp_kernel *k = make(v, "array_view<int, 2> s", "s(idx) = -(idx.x * 10 + idx.y) - 1;", 2);
    REQUIRE_OK(amp_parallel_for_each(v, amp_array_view_extent(s), k, AMP_ARGS(AMP_VIEW("s", s))));
    REQUIRE_OK(amp_array_view_synchronize(vm));
    int bad = 0;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 8; c++) {
            bool in = r >= 2 && r < 5 && c >= 3 && c < 7;
            int want = in ? -((r - 2) * 10 + (c - 3)) - 1 : r * 8 + c;
            bad += m[r * 8 + c] != want;
        }
    REQUIRE_INT(bad, 0);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&s);
    amp_array_view_destroy(&vm);
}

/* Structs and short vectors as elements; a struct as a scalar argument. */
static void struct_elements(amp_accelerator_view *v)
{
    typedef struct { float x, y, z; int id; } particle;
    particle p[3] = {{1, 2, 3, 7}, {4, 5, 6, 8}, {7, 8, 9, 9}};
    float offset[4] = {10, 20, 30, 0};
    amp_array_view *vp = amp_array_view_create(amp_extent1(3), AMP_TYPE_STRUCT, sizeof(particle), p);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){
        .declarations = "struct particle { vec3 pos; int id; };",
        .params = "array_view<particle, 1> p, vec4 offset",
        .body = "p(idx).pos += offset.xyz; p(idx).id *= 2;"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(3), k,
                                     AMP_ARGS(AMP_VIEW("p", vp), AMP_BYTES("offset", offset, sizeof offset))));
    REQUIRE_OK(amp_array_view_synchronize(vp));
    REQUIRE(p[0].x == 11 && p[0].y == 22 && p[0].z == 33 && p[0].id == 14);
    REQUIRE(p[2].x == 17 && p[2].y == 28 && p[2].z == 39 && p[2].id == 18);
    /* an element size that does not match the kernel's struct */
    amp_array_view *wrong = amp_array_view_create(amp_extent1(2), AMP_TYPE_STRUCT, 12, p);
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(2), k,
                                       AMP_ARGS(AMP_VIEW("p", wrong), AMP_BYTES("offset", offset, sizeof offset))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "'p' has 12-byte elements but the kernel's particle is 16 bytes");
    amp_array_view_destroy(&wrong);
    /* the declared parameters, as bindings read them */
    REQUIRE(amp_kernel_param_count(k) == 2 && amp_kernel_param_count(NULL) == 0);
    amp_kernel_param_info pi;
    REQUIRE_OK(amp_kernel_param(k, 0, &pi));
    REQUIRE(strcmp(pi.name, "p") == 0 && strcmp(pi.type_name, "particle") == 0 && pi.kind == AMP_PARAM_VIEW &&
            pi.type == AMP_TYPE_STRUCT && pi.rank == 1 && !pi.is_const && pi.size == 16);
    REQUIRE_OK(amp_kernel_param(k, 1, &pi));
    REQUIRE(strcmp(pi.name, "offset") == 0 && strcmp(pi.type_name, "vec4") == 0 && pi.kind == AMP_PARAM_SCALAR &&
            pi.type == AMP_TYPE_STRUCT && pi.rank == 0 && pi.size == 16); /* a GLSL type: bytes */
    REQUIRE_FAIL(amp_kernel_param(k, 2, &pi), AMP_ERROR_OUT_OF_BOUNDS, "parameter 2 of a kernel with 2");
    REQUIRE_FAIL(amp_kernel_param(k, -1, &pi), AMP_ERROR_OUT_OF_BOUNDS, "parameter -1");
    REQUIRE_FAIL(amp_kernel_param(NULL, 0, &pi), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vp);
    amp_kernel *kt = amp_kernel_create(v, &(amp_kernel_desc){
        .params = "array_view<const int, 2> a, texture_view<const float, 2> t, sampler s, "
                  "writeonly_texture_view<unorm_4, 2> w, texture<uint_2, 2> rw",
        .body = "", .rank = 2});
    REQUIRE(kt);
    static const amp_param_kind kinds[] = {AMP_PARAM_VIEW, AMP_PARAM_SAMPLED_TEXTURE, AMP_PARAM_SAMPLER,
                                           AMP_PARAM_WRITEONLY_TEXTURE, AMP_PARAM_TEXTURE};
    static const int ranks[] = {2, 2, 0, 2, 2};
    for (int i = 0; i < 5 && kt; i++) {
        REQUIRE_OK(amp_kernel_param(kt, i, &pi));
        REQUIRE(pi.kind == kinds[i] && pi.rank == ranks[i] && pi.is_const == (i <= 1));
    }
    REQUIRE_OK(amp_kernel_param(kt, 4, &pi));
    REQUIRE(pi.type == AMP_UINT_2 && strcmp(pi.type_name, "uint_2") == 0);
    amp_kernel_destroy(&kt);
}

static void argument_errors(amp_accelerator_view *v)
{
    int a[4] = {1, 2, 3, 4}, b[4] = {0};
    float f[4] = {0};
    amp_array_view *va = amp_array_view_create_const(amp_extent1(4), AMP_INT, 0, a);
    amp_array_view *vb = amp_array_view_create(amp_extent1(4), AMP_INT, 0, b);
    amp_array_view *vf = amp_array_view_create(amp_extent1(4), AMP_FLOAT, 0, f);
    amp_array_view *v2 = amp_array_view_create(amp_extent2(2, 2), AMP_INT, 0, b);
    amp_kernel *k = make(v, "array_view<const int, 1> a, array_view<int, 1> b, int s", "b(idx) = a(idx) * s;", 1);
    amp_view_stats before, after;
    amp_view_get_stats(v, &before);
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k, AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 's' is missing");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_INT("s", 1), AMP_INT("t", 2))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 't' is not a parameter");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vf), AMP_INT("s", 1))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 'b' holds float elements but the kernel declares int");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", v2), AMP_INT("s", 1))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 'b' has rank 2 (extent (2, 2)) but the kernel declares rank 1");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", va), AMP_INT("s", 1))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 'b' is a read-only view but the kernel may write it");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_FLOAT("s", 1))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 's' is a float but the kernel declares int s");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_INT("s", 1), AMP_INT("s", 2))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 's' is given twice");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent1(4), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_INT("b", 3), AMP_INT("s", 1))),
                 AMP_ERROR_ARGUMENT_MISMATCH, "argument 'b' is an int but the kernel declares an array_view");
    REQUIRE_FAIL(amp_parallel_for_each(v, amp_extent2(2, 2), k,
                                       AMP_ARGS(AMP_VIEW("a", va), AMP_VIEW("b", vb), AMP_INT("s", 1))),
                 AMP_ERROR_INVALID_ARGUMENT, "domain (2, 2) has rank 2 but the kernel's rank is 1");
    amp_view_get_stats(v, &after);
    REQUIRE_INT(after.dispatches, before.dispatches); /* nothing was dispatched */
    REQUIRE_INT(after.uploads, before.uploads);       /* nothing was moved */
    REQUIRE_ARRAY_INT(b, ((int[]){0, 0, 0, 0}), 4);

    /* malformed parameter lists name the column */
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int> a", .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "column 15: expected ', rank>'");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 4> a", .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "the rank must be 1, 2 or 3");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = "int a, float a", .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "already declared");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = "int", .body = ""}),
                      AMP_ERROR_INVALID_ARGUMENT, "expected a parameter name");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.body = "", .source = "void kernel(int i) {}"}),
                      AMP_ERROR_INVALID_ARGUMENT, "exactly one of body, source and file");
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.file = "/nonexistent/k.glsl"}), AMP_ERROR_IO,
                      "/nonexistent/k.glsl");
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vf);
    amp_array_view_destroy(&v2);
}

static void compile_errors(amp_accelerator_view *v)
{
    /* the error names the user's kernel and the line of the body */
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.name = "blur.glsl", .params = "array_view<int, 1> o",
                                                              .body = "int x = 1;\no(idx) = x + undefined_y;\n"}),
                      AMP_ERROR_COMPILE, "blur.glsl:2: error");
    REQUIRE(strstr(amp_last_error(), "undefined_y"));
    /* a whole source from a file, with an #include next to it */
    char dir[] = "/tmp/ampvk-kernel-XXXXXX";
    REQUIRE(mkdtemp(dir));
    char path[256], inc[256];
    snprintf(path, sizeof path, "%s/main.glsl", dir);
    snprintf(inc, sizeof inc, "%s/helper.glsl", dir);
    FILE *f = fopen(inc, "w");
    fputs("int helper(int x) {\n    return x * 3;\n}\n", f);
    fclose(f);
    f = fopen(path, "w");
    fputs("#include \"helper.glsl\"\nvoid kernel(index_1 idx) {\n    o(idx) = helper(idx);\n}\n", f);
    fclose(f);
    int out[4] = {0};
    amp_array_view *vo = amp_array_view_create(amp_extent1(4), AMP_INT, 0, out);
    amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.file = path, .params = "array_view<int, 1> o"});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(4), k, AMP_ARGS(AMP_VIEW("o", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    REQUIRE_ARRAY_INT(out, ((int[]){0, 3, 6, 9}), 4);
    amp_kernel_destroy(&k);
    /* an error inside the included file names that file and line */
    f = fopen(inc, "w");
    fputs("int helper(int x) {\n    return x * three;\n}\n", f);
    fclose(f);
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.file = path, .params = "array_view<int, 1> o"}),
                      AMP_ERROR_COMPILE, "helper.glsl:2: error");
    /* a missing include */
    REQUIRE_NULL_FAIL(amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> o",
                                                              .source = "#include \"nowhere.glsl\"\n"
                                                                        "void kernel(index_1 i) {}\n"}),
                      AMP_ERROR_COMPILE, "nowhere.glsl");
    /* defines and include directories */
    f = fopen(inc, "w");
    fputs("int helper(int x) {\n    return x * FACTOR;\n}\n", f);
    fclose(f);
    const char *defs[] = {"FACTOR=5"};
    const char *dirs[] = {dir};
    k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> o",
                                                .source = "#include \"helper.glsl\"\n"
                                                          "void kernel(index_1 i) { o(i) = helper(i); }\n",
                                                .defines = defs, .define_count = 1, .include_dirs = dirs,
                                                .include_dir_count = 1});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(4), k, AMP_ARGS(AMP_VIEW("o", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    REQUIRE_ARRAY_INT(out, ((int[]){0, 5, 10, 15}), 4);
    amp_kernel_destroy(&k);
    /* the same source with another define is another kernel */
    const char *defs7[] = {"FACTOR=7"};
    k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> o",
                                                .source = "#include \"helper.glsl\"\n"
                                                          "void kernel(index_1 i) { o(i) = helper(i); }\n",
                                                .defines = defs7, .define_count = 1, .include_dirs = dirs,
                                                .include_dir_count = 1});
    REQUIRE(k);
    REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(4), k, AMP_ARGS(AMP_VIEW("o", vo))));
    REQUIRE_OK(amp_array_view_synchronize(vo));
    REQUIRE_ARRAY_INT(out, ((int[]){0, 7, 14, 21}), 4);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vo);
    remove(inc);
    remove(path);
    remove(dir);
}

/* Immediate mode submits each command. */
static void immediate_mode(void)
{
    amp_accelerator_view *iv = amp_view_create(amp_accelerator_default(), AMP_QUEUING_IMMEDIATE);
    REQUIRE(iv);
    int x[8] = {0};
    amp_array_view *vx = amp_array_view_create(amp_extent1(8), AMP_INT, 0, x);
    amp_kernel *k = make(iv, "array_view<int, 1> x", "x(idx) += idx;", 1);
    for (int i = 0; i < 3; i++) REQUIRE_OK(amp_parallel_for_each(iv, amp_extent1(8), k, AMP_ARGS(AMP_VIEW("x", vx))));
    amp_view_stats s;
    amp_view_get_stats(iv, &s);
    REQUIRE_INT(s.submits, 4); /* the upload, then each of the three dispatches */
    REQUIRE_OK(amp_array_view_synchronize(vx));
    REQUIRE_ARRAY_INT(x, ((int[]){0, 3, 6, 9, 12, 15, 18, 21}), 8);
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&vx);
    REQUIRE_OK(amp_view_destroy(&iv));
}

/* GLSL's trunc, round, roundEven, floor and ceil of doubles (scalars and a dvec3) in a
 * user's kernel, for magnitudes 2^-3 to 2^60 of both signs, ties and -0 included, exactly
 * as C's (round's ties: either way, as GLSL allows). lavapipe gets them wrong from 2^24 up
 * on some hosts; ampvk replaces them there (shaders/ampvk/rounding.glsl). */
static void double_rounding(amp_accelerator_view *v)
{
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_view_accelerator(v), &info));
    if (!info.supports_double_precision) return;
    enum { N = 64 * 4 + 4, F = 8 };
    double x[N], y[N * F];
    for (int e = -3; e <= 60; e++) /* a random mantissa, a tie (where the type has one), each sign */
        for (int j = 0; j < 4; j++) {
            double m = j < 2 ? 1.0 + (double)(test_rand() % 1000000) / 1000000 : 1.5;
            x[(e + 3) * 4 + j] = ldexp(m, e) * (j & 1 ? -1 : 1);
        }
    x[N - 4] = -0.0;
    x[N - 3] = -0.25;
    x[N - 2] = 2.5;
    x[N - 1] = 4503599627370495.5; /* 2^52 - 1/2: to even is 2^52 */
    amp_array_view *xv = amp_array_view_create(amp_extent1(N), AMP_DOUBLE, 0, x);
    amp_array_view *yv = amp_array_view_create(amp_extent1(N * F), AMP_DOUBLE, 0, y);
    amp_kernel *k = make(v, "array_view<const double, 1> x, array_view<double, 1> y",
                         "int i = 8 * idx; double a = x(idx);\n"
                         "dvec3 t = trunc(dvec3(a, -a, 0.5 * a));\n"
                         "y(i) = trunc(a); y(i + 1) = round(a); y(i + 2) = roundEven(a);\n"
                         "y(i + 3) = floor(a); y(i + 4) = ceil(a); y(i + 5) = t.x; y(i + 6) = t.y; y(i + 7) = t.z;",
                         1);
    REQUIRE(xv && yv && k);
    if (xv && yv && k) {
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(N), k, AMP_ARGS(AMP_VIEW("x", xv), AMP_VIEW("y", yv))));
        REQUIRE_OK(amp_array_view_synchronize(yv));
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double a = x[i], want[F] = {trunc(a), round(a), nearbyint(a), floor(a),
                                        ceil(a),  trunc(a), trunc(-a),    trunc(0.5 * a)};
            if (fabs(a - trunc(a)) == 0.5 && y[F * i + 1] == nearbyint(a)) want[1] = nearbyint(a);
            for (int f = 0; f < F; f++)
                if (memcmp(&y[F * i + f], &want[f], sizeof(double)) != 0 && bad++ < 5)
                    fprintf(stderr, "double rounding: %s(%a) = %a, want %a\n",
                            (const char *[]){"trunc", "round", "roundEven", "floor", "ceil", "trunc (dvec3 x)",
                                             "trunc (dvec3 y, -x)", "trunc (dvec3 z, x/2)"}[f],
                            a, y[F * i + f],
                            want[f]);
        }
        REQUIRE_CMP(bad, ==, 0, "%d");
    }
    amp_kernel_destroy(&k);
    amp_array_view_destroy(&xv);
    amp_array_view_destroy(&yv);
}

int main(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    add_arrays(v);
    add_with_function(v);
    multiply_array(v);
    index_examples(v);
    odd_extents(v);
    huge_domain(v);
    dependency_chain(v);
    sections_in_kernels(v);
    struct_elements(v);
    argument_errors(v);
    compile_errors(v);
    double_rounding(v);
    immediate_mode();
    return test_end();
}
