/* Arrays, array_views and copies: the overview's index and extent examples,
 * cpu_access_type, round trips of every element kind and rank, sections,
 * projections, reinterpret, view_as, the lazy-copy rules (counted with
 * amp_view_get_stats), async forms, write-back on destroy, and every error path
 * with a check that nothing changed. */
#include "test.h"

typedef struct s12 {
    int32_t a;
    float b;
    uint32_t c;
} s12; /* a 12-byte struct element */

static amp_accelerator_view *V;

static amp_view_stats stats(amp_accelerator_view *v)
{
    amp_view_stats s;
    memset(&s, 0, sizeof s);
    REQUIRE_OK(amp_view_get_stats(v, &s));
    return s;
}

static amp_kernel *times10, *plus1, *fill_idx;

static void make_kernels(amp_accelerator_view *v)
{
    times10 = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> a",
                                                      .body = "a(idx) = a(idx) * 10;"});
    plus1 = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> a", .body = "a(idx) = a(idx) + 1;"});
    fill_idx = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> a", .body = "a(idx) = idx * 2;"});
    REQUIRE(times10 && plus1 && fill_idx);
    if (!times10 || !plus1 || !fill_idx) {
        fprintf(stderr, "kernels unavailable: %s\n", amp_last_error());
        exit(1);
    }
}

static amp_status run(amp_accelerator_view *v, amp_kernel *k, amp_array_view *a)
{
    return amp_parallel_for_each(v, amp_array_view_extent(a), k, AMP_ARGS(AMP_VIEW("a", a)));
}

/* ---- the overview's examples ---- */

static void test_overview(void)
{
    int a1[] = {1, 2, 3, 4, 5};
    amp_array_view *v1 = amp_array_view_create(amp_extent1(5), AMP_INT, 0, a1);
    int x = 0;
    REQUIRE_OK(amp_array_view_get(v1, amp_index1(2), &x));
    REQUIRE_INT(x, 3);

    int a2[] = {1, 2, 3, 4, 5, 6};
    amp_array_view *v2 = amp_array_view_create(amp_extent2(2, 3), AMP_INT, 0, a2);
    REQUIRE_OK(amp_array_view_get(v2, amp_index2(1, 2), &x));
    REQUIRE_INT(x, 6);

    int a3[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    amp_array_view *v3 = amp_array_view_create(amp_extent3(2, 3, 4), AMP_INT, 0, a3);
    REQUIRE_OK(amp_array_view_get(v3, amp_index3(0, 1, 3), &x));
    REQUIRE_INT(x, 8);
    amp_extent e = amp_array_view_extent(v3);
    REQUIRE_INT(e.rank, 3);
    REQUIRE_INT(e.dims[2], 4); /* columns */
    REQUIRE_INT(e.dims[1], 3); /* rows */
    REQUIRE_INT(e.dims[0], 2); /* depth */

    int a24[24];
    for (int i = 0; i < 24; i++) a24[i] = i + 1;
    amp_array_view *v24 = amp_array_view_create(amp_extent3(2, 3, 4), AMP_INT, 0, a24);
    e = amp_array_view_extent(v24);
    REQUIRE(amp_extent_equal(e, amp_extent3(2, 3, 4)));
    REQUIRE_INT(amp_extent_size(e), 24);
    REQUIRE_OK(amp_array_view_get(v24, amp_index3(1, 2, 3), &x));
    REQUIRE_INT(x, 24);
    REQUIRE_INT(amp_array_view_type(v24), AMP_INT);
    REQUIRE_INT(amp_array_view_element_size(v24), 4);
    REQUIRE(!amp_array_view_is_const(v24));

    /* element access out of range */
    x = -77;
    REQUIRE_FAIL(amp_array_view_get(v3, amp_index3(2, 0, 0), &x), AMP_ERROR_OUT_OF_BOUNDS, "(2, 0, 0)");
    REQUIRE(strstr(amp_last_error(), "(2, 3, 4)") != NULL);
    REQUIRE_FAIL(amp_array_view_get(v3, amp_index2(0, 0), &x), AMP_ERROR_OUT_OF_BOUNDS, "(0, 0)");
    REQUIRE_INT(x, -77);
    REQUIRE_FAIL(amp_array_view_get(v3, amp_index3(0, 0, 0), NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    int y = 99;
    REQUIRE_FAIL(amp_array_view_set(v1, amp_index1(5), &y), AMP_ERROR_OUT_OF_BOUNDS, "(5)");
    REQUIRE_FAIL(amp_array_view_set(v1, amp_index1(0), NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    int want1[] = {1, 2, 3, 4, 5};
    REQUIRE_ARRAY_INT(a1, want1, 5);
    REQUIRE_OK(amp_array_view_set(v1, amp_index1(4), &y));
    REQUIRE_INT(a1[4], 99);

    amp_array_view_destroy(&v1);
    amp_array_view_destroy(&v2);
    amp_array_view_destroy(&v3);
    amp_array_view_destroy(&v24);
    REQUIRE(v1 == NULL && v24 == NULL);
}

/* ---- cpu_access_type ---- */

static void test_cpu_access(void)
{
    amp_access_type types[] = {AMP_ACCESS_READ, AMP_ACCESS_WRITE, AMP_ACCESS_READ_WRITE};
    for (int t = 0; t < 3; t++) {
        int init[6] = {1, 2, 3, 4, 5, 6};
        amp_array *a = amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(6), .type = AMP_INT,
                                                             .cpu_access = types[t], .data = init});
        REQUIRE(a != NULL);
        if (!a) continue;
        REQUIRE_INT(amp_array_cpu_access_type(a), types[t]);
        int *p = amp_array_data(a);
        REQUIRE(p != NULL);
        if (!p) continue;
        REQUIRE_ARRAY_INT(p, init, 6);
        /* host writes through the pointer reach the device */
        for (int i = 0; i < 6; i++) p[i] = 100 * (t + 1) + i;
        REQUIRE_OK(run(V, times10, amp_array_as_view(a)));
        /* the pointer shows the kernel's result after amp_array_data waits */
        p = amp_array_data(a);
        REQUIRE(p != NULL);
        int want[6];
        for (int i = 0; i < 6; i++) want[i] = (100 * (t + 1) + i) * 10;
        if (p) REQUIRE_ARRAY_INT(p, want, 6);
        int got[6] = {0};
        REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), got, sizeof got));
        REQUIRE_ARRAY_INT(got, want, 6);
        /* a copy into the array shows through the pointer */
        REQUIRE_OK(amp_copy_from_host(init, sizeof init, amp_array_as_view(a)));
        p = amp_array_data(a);
        if (p) REQUIRE_ARRAY_INT(p, init, 6);
        amp_array_destroy(&a);
        REQUIRE(a == NULL);
    }
    amp_array *n = amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(6), .type = AMP_INT,
                                                         .cpu_access = AMP_ACCESS_NONE});
    REQUIRE(n != NULL);
    REQUIRE_INT(amp_array_cpu_access_type(n), AMP_ACCESS_NONE);
    REQUIRE_NULL_FAIL(amp_array_data(n), AMP_ERROR_INVALID_STATE, "none");
    amp_array_destroy(&n);
    REQUIRE_NULL_FAIL(amp_array_data(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(6), .type = AMP_INT,
                                                             .cpu_access = (amp_access_type)42}),
                      AMP_ERROR_INVALID_ARGUMENT, "42");
}

/* ---- round trips ---- */

typedef struct kind {
    const char *name;
    amp_type type;
    size_t elem;
} kind;

static void fill(const kind *k, void *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++) {
        int v = (int)i * 7 + seed;
        switch (k->type) {
        case AMP_INT: ((int32_t *)buf)[i] = -v; break;
        case AMP_UINT: ((uint32_t *)buf)[i] = 0xF0000000u + (uint32_t)v; break;
        case AMP_FLOAT: ((float *)buf)[i] = (float)v * 0.25f - 3.5f; break;
        case AMP_DOUBLE: ((double *)buf)[i] = (double)v / 3.0 + 1e10; break;
        default: ((s12 *)buf)[i] = (s12){-v, (float)v * 1.5f, 0xABCD0000u + (uint32_t)v}; break;
        }
    }
}

static void test_round_trips(void)
{
    kind kinds[] = {{"int", AMP_INT, 4}, {"uint", AMP_UINT, 4}, {"float", AMP_FLOAT, 4},
                    {"double", AMP_DOUBLE, 8}, {"struct12", AMP_TYPE_STRUCT, 12}};
    amp_extent extents[] = {amp_extent1(7), amp_extent2(3, 5), amp_extent3(2, 3, 4)};
    for (int ki = 0; ki < 5; ki++)
        for (int ei = 0; ei < 3; ei++) {
            const kind *k = &kinds[ki];
            amp_extent e = extents[ei];
            size_t n = amp_extent_size(e), bytes = n * k->elem;
            char *src = malloc(bytes), *dst = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
            fill(k, src, n, ki * 10 + ei);
            memcpy(want, src, bytes);
            memset(dst, 0, bytes);
            memset(out, 0, bytes);
            int fails = test_failures;
            size_t esz = k->type == AMP_TYPE_STRUCT ? 12 : 0;
            /* host view -> array -> host view */
            amp_array_view *sv = amp_array_view_create(e, k->type, esz, src);
            amp_array_view *dv = amp_array_view_create(e, k->type, esz, dst);
            amp_array *a = amp_array_create(V, &(amp_array_desc){.extent = e, .type = k->type, .element_size = esz});
            REQUIRE(sv && dv && a);
            if (sv && dv && a) {
                REQUIRE_INT(amp_array_element_size(a), k->elem);
                REQUIRE(amp_extent_equal(amp_array_extent(a), e));
                REQUIRE_INT(amp_array_type(a), k->type);
                REQUIRE_OK(amp_copy(sv, amp_array_as_view(a)));
                REQUIRE_OK(amp_copy(amp_array_as_view(a), dv));
                REQUIRE_OK(amp_array_view_synchronize(dv));
                REQUIRE(memcmp(dst, want, bytes) == 0);
                /* array -> host buffer */
                REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), out, bytes));
                REQUIRE(memcmp(out, want, bytes) == 0);
                /* array created from data, copied through another array */
                amp_array *b = amp_array_create(V, &(amp_array_desc){.extent = e, .type = k->type,
                                                                     .element_size = esz, .data = src,
                                                                     .data_size = bytes});
                amp_array *c = amp_array_create(V, &(amp_array_desc){.extent = e, .type = k->type,
                                                                     .element_size = esz});
                REQUIRE_OK(amp_copy(amp_array_as_view(b), amp_array_as_view(c)));
                memset(out, 0, bytes);
                REQUIRE_OK(amp_copy_to_host(amp_array_as_view(c), out, bytes));
                REQUIRE(memcmp(out, want, bytes) == 0);
                /* element access on the device-current host view and on the array */
                amp_index last = amp_extent_unlinear(e, n - 1);
                char elem[16];
                REQUIRE_OK(amp_array_view_get(amp_array_as_view(c), last, elem));
                REQUIRE(memcmp(elem, want + (n - 1) * k->elem, k->elem) == 0);
                amp_array_destroy(&b);
                amp_array_destroy(&c);
            }
            amp_array_view_destroy(&sv);
            amp_array_view_destroy(&dv);
            amp_array_destroy(&a);
            REQUIRE(memcmp(src, want, bytes) == 0); /* the source never changes */
            if (test_failures != fails) {
                char b[48];
                fprintf(stderr, "  (round trip of %s %s)\n", k->name, amp_extent_format(e, b, sizeof b));
            }
            free(src);
            free(dst);
            free(out);
            free(want);
        }

    /* through a kernel: a host view of each rank, changed on the device */
    int h[24];
    for (int i = 0; i < 24; i++) h[i] = i;
    amp_array_view *hv = amp_array_view_create(amp_extent1(24), AMP_INT, 0, h);
    REQUIRE_OK(run(V, times10, hv));
    amp_array_view *h2 = amp_array_view_view_as(hv, amp_extent2(4, 6));
    amp_array_view *h3 = amp_array_view_view_as(hv, amp_extent3(2, 3, 4));
    int x = 0;
    REQUIRE_OK(amp_array_view_get(h2, amp_index2(3, 5), &x));
    REQUIRE_INT(x, 230);
    REQUIRE_OK(amp_array_view_get(h3, amp_index3(1, 0, 2), &x));
    REQUIRE_INT(x, 140);
    int want[24];
    for (int i = 0; i < 24; i++) want[i] = i * 10;
    REQUIRE_ARRAY_INT(h, want, 24); /* get synchronized the whole storage */
    amp_array_view_destroy(&h2);
    amp_array_view_destroy(&h3);
    amp_array_view_destroy(&hv);

    /* a view with no data source: storage appears where it is first used */
    amp_array_view *nv = amp_array_view_create(amp_extent1(8), AMP_INT, 0, NULL);
    REQUIRE(nv != NULL);
    REQUIRE_OK(run(V, fill_idx, nv));
    int got[8], w8[8];
    for (int i = 0; i < 8; i++) w8[i] = 2 * i;
    REQUIRE_OK(amp_copy_to_host(nv, got, sizeof got));
    REQUIRE_ARRAY_INT(got, w8, 8);
    int *p = amp_array_view_data(nv);
    REQUIRE(p != NULL);
    if (p) REQUIRE_ARRAY_INT(p, w8, 8);
    amp_array_view_destroy(&nv);
}

/* ---- sections, projections, reinterpret, view_as ---- */

static void test_views_of_views(void)
{
    /* a 4x6 array holding r*10+c */
    int init[24];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 6; c++) init[r * 6 + c] = r * 10 + c;
    amp_array *a = amp_array_create(V, &(amp_array_desc){.extent = amp_extent2(4, 6), .type = AMP_INT, .data = init});
    amp_array_view *sec = amp_array_view_section(amp_array_as_view(a), amp_index2(1, 2), amp_extent2(2, 3));
    REQUIRE(sec != NULL);
    REQUIRE(amp_extent_equal(amp_array_view_extent(sec), amp_extent2(2, 3)));
    int got[24];
    REQUIRE_OK(amp_copy_to_host(sec, got, 6 * sizeof(int)));
    int want_sec[6] = {12, 13, 14, 22, 23, 24};
    REQUIRE_ARRAY_INT(got, want_sec, 6);
    int x = 0;
    REQUIRE_OK(amp_array_view_get(sec, amp_index2(1, 0), &x));
    REQUIRE_INT(x, 22);
    /* a section written from the host, then the whole array read back */
    int patch[6] = {-1, -2, -3, -4, -5, -6};
    REQUIRE_OK(amp_copy_from_host(patch, sizeof patch, sec));
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), got, sizeof got));
    int want[24];
    memcpy(want, init, sizeof want);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++) want[(r + 1) * 6 + c + 2] = patch[r * 3 + c];
    REQUIRE_ARRAY_INT(got, want, 24);
    /* a section of a section */
    amp_array_view *sec2 = amp_array_view_section(sec, amp_index2(1, 1), amp_extent2(1, 2));
    REQUIRE_OK(amp_copy_to_host(sec2, got, 2 * sizeof(int)));
    REQUIRE_INT(got[0], -5);
    REQUIRE_INT(got[1], -6);
    amp_array_view_destroy(&sec2);

    /* a section of a host view written by amp_copy_from_host */
    int h[24];
    memcpy(h, init, sizeof h);
    amp_array_view *hv = amp_array_view_create(amp_extent2(4, 6), AMP_INT, 0, h);
    amp_array_view *hs = amp_array_view_section(hv, amp_index2(2, 1), amp_extent2(2, 2));
    int p4[4] = {101, 102, 103, 104};
    REQUIRE_OK(amp_copy_from_host(p4, sizeof p4, hs));
    memcpy(want, init, sizeof want);
    want[2 * 6 + 1] = 101, want[2 * 6 + 2] = 102, want[3 * 6 + 1] = 103, want[3 * 6 + 2] = 104;
    REQUIRE_OK(amp_array_view_synchronize(hv));
    REQUIRE_ARRAY_INT(h, want, 24);
    REQUIRE_OK(amp_copy_to_host(hv, got, sizeof got));
    REQUIRE_ARRAY_INT(got, want, 24);
    /* the same on a device-current host view: a kernel, then a section write */
    amp_array_view *flat = amp_array_view_create(amp_extent1(24), AMP_INT, 0, h);
    REQUIRE_OK(run(V, times10, flat));
    for (int i = 0; i < 24; i++) want[i] *= 10;
    REQUIRE_OK(amp_copy_from_host(p4, sizeof p4, hs));
    want[2 * 6 + 1] = 101, want[2 * 6 + 2] = 102, want[3 * 6 + 1] = 103, want[3 * 6 + 2] = 104;
    REQUIRE_OK(amp_copy_to_host(hs, got, sizeof p4));
    REQUIRE_ARRAY_INT(got, p4, 4);
    REQUIRE_OK(amp_array_view_synchronize(hv));
    REQUIRE_ARRAY_INT(h, want, 24);
    amp_array_view_destroy(&flat);

    /* device copies between sections of different shapes in their arrays */
    int z[32] = {0};
    amp_array *b = amp_array_create(V, &(amp_array_desc){.extent = amp_extent2(4, 8), .type = AMP_INT, .data = z});
    amp_array_view *rows = amp_array_view_section(amp_array_as_view(a), amp_index2(0, 0), amp_extent2(2, 6));
    amp_array_view *dsec = amp_array_view_section(amp_array_as_view(b), amp_index2(1, 1), amp_extent2(2, 6));
    REQUIRE_OK(amp_copy(rows, dsec)); /* contiguous source, strided destination */
    int gb[32], wb[32] = {0};
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(b), gb, sizeof gb));
    int ga[24];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), ga, sizeof ga));
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 6; c++) wb[(r + 1) * 8 + c + 1] = ga[r * 6 + c];
    REQUIRE_ARRAY_INT(gb, wb, 32);
    /* strided source, contiguous destination */
    amp_array_view *bsec = amp_array_view_section(amp_array_as_view(b), amp_index2(1, 1), amp_extent2(1, 6));
    amp_array_view *asec = amp_array_view_section(amp_array_as_view(a), amp_index2(1, 1), amp_extent2(3, 2));
    amp_array_view *arow = amp_array_view_section(amp_array_as_view(a), amp_index2(3, 0), amp_extent2(1, 6));
    REQUIRE_OK(amp_copy(bsec, arow));
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), ga, sizeof ga));
    REQUIRE_ARRAY_INT(ga + 18, wb + 9, 6);
    (void)asec;
    amp_array_view_destroy(&asec);
    amp_array_view_destroy(&bsec);
    amp_array_view_destroy(&arow);
    amp_array_view_destroy(&rows);
    amp_array_view_destroy(&dsec);
    amp_array_destroy(&b);

    /* projections: row 1 of a 3x4 view */
    int m[12];
    for (int i = 0; i < 12; i++) m[i] = i;
    amp_array_view *mv = amp_array_view_create(amp_extent2(3, 4), AMP_INT, 0, m);
    amp_array_view *row1 = amp_array_view_project(mv, 1);
    REQUIRE(row1 != NULL);
    REQUIRE(amp_extent_equal(amp_array_view_extent(row1), amp_extent1(4)));
    REQUIRE_OK(amp_copy_to_host(row1, got, 4 * sizeof(int)));
    int wr[4] = {4, 5, 6, 7};
    REQUIRE_ARRAY_INT(got, wr, 4);
    REQUIRE_OK(amp_array_view_get(row1, amp_index1(3), &x));
    REQUIRE_INT(x, 7);
    /* a projection written through a kernel changes only its row */
    REQUIRE_OK(run(V, times10, row1));
    REQUIRE_OK(amp_array_view_synchronize(mv));
    int wm[12] = {0, 1, 2, 3, 40, 50, 60, 70, 8, 9, 10, 11};
    REQUIRE_ARRAY_INT(m, wm, 12);
    REQUIRE_NULL_FAIL(amp_array_view_project(mv, 3), AMP_ERROR_OUT_OF_BOUNDS, "outside 0..2");
    REQUIRE_NULL_FAIL(amp_array_view_project(mv, -1), AMP_ERROR_OUT_OF_BOUNDS, "-1");
    REQUIRE_NULL_FAIL(amp_array_view_project(row1, 0), AMP_ERROR_INVALID_ARGUMENT, "rank-1");
    REQUIRE_NULL_FAIL(amp_array_view_project(NULL, 0), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_array_view_destroy(&row1);
    amp_array_view_destroy(&mv);

    /* projections of a 3-D view (2x3x4 holding 0..23) */
    int c3[24];
    for (int i = 0; i < 24; i++) c3[i] = i;
    amp_array_view *v3 = amp_array_view_create(amp_extent3(2, 3, 4), AMP_INT, 0, c3);
    amp_array_view *plane = amp_array_view_project(v3, 1);
    REQUIRE(amp_extent_equal(amp_array_view_extent(plane), amp_extent2(3, 4)));
    REQUIRE_OK(amp_copy_to_host(plane, got, 12 * sizeof(int)));
    for (int i = 0; i < 12; i++) want[i] = 12 + i;
    REQUIRE_ARRAY_INT(got, want, 12);
    amp_array_view *line = amp_array_view_project(plane, 2);
    REQUIRE(amp_extent_equal(amp_array_view_extent(line), amp_extent1(4)));
    REQUIRE_OK(amp_copy_to_host(line, got, 4 * sizeof(int)));
    int wl[4] = {20, 21, 22, 23};
    REQUIRE_ARRAY_INT(got, wl, 4);
    /* a projection of a section of a 3-D view */
    amp_array_view *s3 = amp_array_view_section(v3, amp_index3(0, 1, 1), amp_extent3(2, 2, 2));
    amp_array_view *ps = amp_array_view_project(s3, 1);
    REQUIRE_OK(amp_copy_to_host(ps, got, 4 * sizeof(int)));
    int wps[4] = {17, 18, 21, 22};
    REQUIRE_ARRAY_INT(got, wps, 4);
    REQUIRE_NULL_FAIL(amp_array_view_project(v3, 2), AMP_ERROR_OUT_OF_BOUNDS, "outside 0..1");
    amp_array_view_destroy(&ps);
    amp_array_view_destroy(&s3);
    amp_array_view_destroy(&line);
    amp_array_view_destroy(&plane);
    amp_array_view_destroy(&v3);

    /* reinterpret: 8 ints as 4 int_2 */
    int r8[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    amp_array_view *iv = amp_array_view_create(amp_extent1(8), AMP_INT, 0, r8);
    amp_array_view *i2 = amp_array_view_reinterpret(iv, AMP_INT_2, 0);
    REQUIRE(i2 != NULL);
    REQUIRE(amp_extent_equal(amp_array_view_extent(i2), amp_extent1(4)));
    REQUIRE_INT(amp_array_view_element_size(i2), 8);
    REQUIRE_INT(amp_array_view_type(i2), AMP_INT_2);
    int pair[2];
    REQUIRE_OK(amp_array_view_get(i2, amp_index1(2), pair));
    REQUIRE_INT(pair[0], 5);
    REQUIRE_INT(pair[1], 6);
    amp_array_view *dbl = amp_array_view_reinterpret(iv, AMP_DOUBLE, 0);
    REQUIRE(amp_extent_equal(amp_array_view_extent(dbl), amp_extent1(4)));
    amp_array_view_destroy(&dbl);
    /* 32 bytes are not a whole number of 12-byte structs */
    REQUIRE_NULL_FAIL(amp_array_view_reinterpret(iv, AMP_TYPE_STRUCT, 12), AMP_ERROR_INVALID_ARGUMENT, "32 bytes");
    REQUIRE(strstr(amp_last_error(), "12-byte") != NULL);
    REQUIRE_NULL_FAIL(amp_array_view_reinterpret(iv, AMP_TYPE_STRUCT, 6), AMP_ERROR_INVALID_ARGUMENT,
                      "not a multiple of 4");
    REQUIRE_NULL_FAIL(amp_array_view_reinterpret(NULL, AMP_INT, 0), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_array_view *iv2 = amp_array_view_view_as(iv, amp_extent2(2, 4));
    REQUIRE_NULL_FAIL(amp_array_view_reinterpret(iv2, AMP_INT_2, 0), AMP_ERROR_INVALID_ARGUMENT, "rank 2");
    amp_array_view_destroy(&iv2);
    /* writes through the reinterpreted view land in the ints */
    int newpair[2] = {-50, -60};
    REQUIRE_OK(amp_array_view_set(i2, amp_index1(2), newpair));
    REQUIRE_INT(r8[4], -50);
    REQUIRE_INT(r8[5], -60);
    amp_array_view_destroy(&i2);

    /* view_as: rank 1 of 12 -> (3, 4) */
    int t12[12];
    for (int i = 0; i < 12; i++) t12[i] = 100 + i;
    amp_array_view *l12 = amp_array_view_create(amp_extent1(12), AMP_INT, 0, t12);
    amp_array_view *m34 = amp_array_view_view_as(l12, amp_extent2(3, 4));
    REQUIRE(m34 != NULL);
    REQUIRE(amp_extent_equal(amp_array_view_extent(m34), amp_extent2(3, 4)));
    REQUIRE_OK(amp_array_view_get(m34, amp_index2(2, 1), &x));
    REQUIRE_INT(x, 109);
    amp_array_view *small = amp_array_view_view_as(l12, amp_extent2(2, 5));
    REQUIRE_OK(amp_array_view_get(small, amp_index2(1, 4), &x));
    REQUIRE_INT(x, 109);
    amp_array_view_destroy(&small);
    REQUIRE_NULL_FAIL(amp_array_view_view_as(l12, amp_extent2(4, 4)), AMP_ERROR_OUT_OF_BOUNDS, "(4, 4)");
    REQUIRE(strstr(amp_last_error(), "16") && strstr(amp_last_error(), "12"));
    REQUIRE_NULL_FAIL(amp_array_view_view_as(m34, amp_extent1(12)), AMP_ERROR_INVALID_ARGUMENT, "rank 2");
    REQUIRE_NULL_FAIL(amp_array_view_view_as(l12, amp_extent2(-1, 4)), AMP_ERROR_INVALID_ARGUMENT, "not valid");
    REQUIRE_NULL_FAIL(amp_array_view_view_as(NULL, amp_extent1(1)), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_array_view_destroy(&m34);
    amp_array_view_destroy(&l12);
    amp_array_view_destroy(&iv);

    /* section errors: nothing is created */
    REQUIRE_NULL_FAIL(amp_array_view_section(hv, amp_index2(3, 4), amp_extent2(2, 2)), AMP_ERROR_OUT_OF_BOUNDS,
                      "(2, 2)");
    REQUIRE(strstr(amp_last_error(), "(4, 6)") && strstr(amp_last_error(), "(3, 4)"));
    REQUIRE_NULL_FAIL(amp_array_view_section(hv, amp_index2(-1, 0), amp_extent2(1, 1)), AMP_ERROR_OUT_OF_BOUNDS,
                      "(4, 6)");
    REQUIRE_NULL_FAIL(amp_array_view_section(hv, amp_index2(0, 0), amp_extent2(1, -1)), AMP_ERROR_OUT_OF_BOUNDS,
                      "(1, -1)");
    REQUIRE_NULL_FAIL(amp_array_view_section(hv, amp_index1(0), amp_extent1(1)), AMP_ERROR_INVALID_ARGUMENT,
                      "rank");
    REQUIRE_NULL_FAIL(amp_array_view_section(NULL, amp_index1(0), amp_extent1(1)), AMP_ERROR_INVALID_ARGUMENT,
                      "NULL");

    amp_array_view_destroy(&hs);
    amp_array_view_destroy(&hv);
    amp_array_view_destroy(&sec);
    amp_array_destroy(&a);
}

/* ---- the lazy-copy rules, counted ---- */

static void test_lazy(void)
{
    amp_accelerator_view *sv = amp_view_create(amp_view_accelerator(V), AMP_QUEUING_AUTOMATIC);
    REQUIRE(sv != NULL);
    if (!sv) return;
    int h[16];
    for (int i = 0; i < 16; i++) h[i] = i;
    amp_view_stats s0 = stats(sv);
    /* creating a view uploads nothing */
    amp_array_view *hv = amp_array_view_create(amp_extent1(16), AMP_INT, 0, h);
    amp_view_stats s = stats(sv);
    REQUIRE_INT(s.uploads, s0.uploads);
    /* synchronize with no device use downloads nothing */
    REQUIRE_OK(amp_array_view_synchronize(hv));
    s = stats(sv);
    REQUIRE_INT(s.downloads, 0);
    REQUIRE_INT(s.uploads, 0);
    REQUIRE_INT(s.submits, 0);
    /* copying a host view to an array uploads once */
    amp_array *a = amp_array_create(sv, &(amp_array_desc){.extent = amp_extent1(16), .type = AMP_INT,
                                                          .cpu_access = AMP_ACCESS_NONE});
    REQUIRE_OK(amp_copy(hv, amp_array_as_view(a)));
    s = stats(sv);
    REQUIRE_INT(s.uploads, 1);
    REQUIRE_INT(s.upload_bytes, sizeof h);
    REQUIRE_INT(s.downloads, 0);
    int got[16];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), got, sizeof got));
    REQUIRE_ARRAY_INT(got, h, 16);
    REQUIRE_INT(stats(sv).downloads, 1);
    REQUIRE_INT(stats(sv).uploads, 1);

    /* a kernel on a host view uploads once; a second kernel uploads nothing */
    REQUIRE_OK(run(sv, plus1, hv));
    REQUIRE_INT(stats(sv).uploads, 2);
    REQUIRE_OK(run(sv, plus1, hv));
    REQUIRE_INT(stats(sv).uploads, 2);
    REQUIRE_INT(stats(sv).dispatches, 2);
    int want[16];
    for (int i = 0; i < 16; i++) want[i] = i;
    REQUIRE_ARRAY_INT(h, want, 16); /* the host is not touched before synchronize */
    REQUIRE_OK(amp_array_view_synchronize(hv));
    for (int i = 0; i < 16; i++) want[i] = i + 2;
    REQUIRE_ARRAY_INT(h, want, 16);
    REQUIRE_INT(stats(sv).downloads, 2);
    /* synchronizing again downloads nothing; a kernel after it uploads nothing */
    REQUIRE_OK(amp_array_view_synchronize(hv));
    REQUIRE_INT(stats(sv).downloads, 2);
    REQUIRE_OK(run(sv, plus1, hv));
    REQUIRE_INT(stats(sv).uploads, 2);
    REQUIRE_OK(amp_array_view_synchronize(hv));
    for (int i = 0; i < 16; i++) want[i] = i + 3;
    REQUIRE_ARRAY_INT(h, want, 16);

    /* refresh: host memory changed behind the view's back causes a new upload */
    for (int i = 0; i < 16; i++) h[i] = 1000 + i;
    REQUIRE_OK(amp_array_view_refresh(hv));
    REQUIRE_OK(run(sv, plus1, hv));
    REQUIRE_INT(stats(sv).uploads, 3);
    REQUIRE_OK(amp_array_view_synchronize(hv));
    for (int i = 0; i < 16; i++) want[i] = 1001 + i;
    REQUIRE_ARRAY_INT(h, want, 16);

    /* discard_data skips the upload */
    int out[16];
    for (int i = 0; i < 16; i++) out[i] = -1;
    amp_array_view *ov = amp_array_view_create(amp_extent1(16), AMP_INT, 0, out);
    REQUIRE_OK(amp_array_view_discard_data(ov));
    amp_view_stats before = stats(sv);
    REQUIRE_OK(run(sv, fill_idx, ov));
    REQUIRE_INT(stats(sv).uploads, before.uploads);
    REQUIRE_OK(amp_array_view_synchronize(ov));
    for (int i = 0; i < 16; i++) want[i] = 2 * i;
    REQUIRE_ARRAY_INT(out, want, 16);
    /* without discard_data the same kernel uploads */
    int out2[16] = {0};
    amp_array_view *ov2 = amp_array_view_create(amp_extent1(16), AMP_INT, 0, out2);
    before = stats(sv);
    REQUIRE_OK(run(sv, fill_idx, ov2));
    REQUIRE_INT(stats(sv).uploads, before.uploads + 1);
    amp_array_view_destroy(&ov2); /* the last view writes back */
    REQUIRE_ARRAY_INT(out2, want, 16);

    /* two views over the same host memory share the data */
    int sh[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    amp_array_view *va = amp_array_view_create(amp_extent1(8), AMP_INT, 0, sh);
    amp_array_view *vb = amp_array_view_create(amp_extent1(8), AMP_INT, 0, sh);
    amp_array_view *vc = amp_array_view_create(amp_extent1(4), AMP_INT, 0, sh + 4); /* inside va's range */
    before = stats(sv);
    REQUIRE_OK(run(sv, times10, va));
    REQUIRE_INT(stats(sv).uploads, before.uploads + 1);
    REQUIRE_OK(run(sv, plus1, vb)); /* already on the device: no upload */
    REQUIRE_INT(stats(sv).uploads, before.uploads + 1);
    REQUIRE_OK(amp_array_view_synchronize(va));
    int wsh[8] = {11, 21, 31, 41, 51, 61, 71, 81};
    REQUIRE_ARRAY_INT(sh, wsh, 8);
    int x = 0;
    REQUIRE_OK(amp_array_view_get(vb, amp_index1(7), &x));
    REQUIRE_INT(x, 81);
    REQUIRE_OK(amp_array_view_get(vc, amp_index1(0), &x));
    REQUIRE_INT(x, 51);
    /* the other way round: modified through vc, seen through va */
    REQUIRE_OK(run(sv, times10, vc));
    REQUIRE_OK(amp_array_view_synchronize(vc));
    REQUIRE_OK(amp_array_view_get(va, amp_index1(4), &x));
    REQUIRE_INT(x, 510);
    REQUIRE_OK(amp_array_view_get(va, amp_index1(3), &x));
    REQUIRE_INT(x, 41);
    amp_array_view_destroy(&va);
    amp_array_view_destroy(&vb);
    amp_array_view_destroy(&vc);

    amp_array_view_destroy(&ov);
    amp_array_view_destroy(&hv);
    amp_array_destroy(&a);
    REQUIRE_OK(amp_view_destroy(&sv));
}

/* ---- async forms ---- */

static void test_async(void)
{
    int h[10];
    for (int i = 0; i < 10; i++) h[i] = i;
    amp_array_view *hv = amp_array_view_create(amp_extent1(10), AMP_INT, 0, h);
    REQUIRE_OK(run(V, times10, hv));
    amp_future *f = amp_array_view_synchronize_async(hv);
    REQUIRE(f != NULL);
    int want[10];
    for (int i = 0; i < 10; i++) want[i] = i;
    REQUIRE_ARRAY_INT(h, want, 10); /* not before the wait */
    REQUIRE_OK(amp_future_wait(f));
    for (int i = 0; i < 10; i++) want[i] = i * 10;
    REQUIRE_ARRAY_INT(h, want, 10);
    REQUIRE(amp_future_ready(f));
    amp_future_destroy(&f);
    /* a second synchronize_async has nothing to move */
    f = amp_array_view_synchronize_async(hv);
    REQUIRE(f != NULL);
    REQUIRE(amp_future_ready(f));
    amp_future_destroy(&f);
    /* a future destroyed without a wait still finishes the host part */
    REQUIRE_OK(run(V, plus1, hv));
    f = amp_array_view_synchronize_async(hv);
    amp_future_destroy(&f);
    for (int i = 0; i < 10; i++) want[i] = i * 10 + 1;
    REQUIRE_ARRAY_INT(h, want, 10);

    /* copy_async: host view -> array -> host view */
    amp_array *a = amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(10), .type = AMP_INT});
    f = amp_copy_async(hv, amp_array_as_view(a));
    REQUIRE(f != NULL);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_OK(run(V, times10, amp_array_as_view(a)));
    int d[10] = {0};
    amp_array_view *dv = amp_array_view_create(amp_extent1(10), AMP_INT, 0, d);
    f = amp_copy_async(amp_array_as_view(a), dv);
    REQUIRE(f != NULL);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_OK(amp_array_view_synchronize(dv));
    for (int i = 0; i < 10; i++) want[i] = (i * 10 + 1) * 10;
    REQUIRE_ARRAY_INT(d, want, 10);
    /* copy_to_host_async / copy_from_host_async */
    int e[10] = {0};
    f = amp_copy_to_host_async(amp_array_as_view(a), e, sizeof e);
    REQUIRE(f != NULL);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_ARRAY_INT(e, want, 10);
    int src[10];
    for (int i = 0; i < 10; i++) src[i] = -i;
    f = amp_copy_from_host_async(src, sizeof src, amp_array_as_view(a));
    REQUIRE(f != NULL);
    for (int i = 0; i < 10; i++) src[i] = 12345; /* staged: the caller may reuse it at once */
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a), e, sizeof e));
    for (int i = 0; i < 10; i++) want[i] = -i;
    REQUIRE_ARRAY_INT(e, want, 10);
    /* errors give no future */
    REQUIRE_NULL_FAIL(amp_copy_async(hv, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_NULL_FAIL(amp_copy_to_host_async(hv, e, 4), AMP_ERROR_INVALID_ARGUMENT, "4 bytes");
    REQUIRE_NULL_FAIL(amp_array_view_synchronize_async(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_array_view_destroy(&dv);
    amp_array_view_destroy(&hv);
    amp_array_destroy(&a);
}

/* ---- the last view writes back on destroy ---- */

static void test_write_back(void)
{
    /* device-current after synchronize_to, then written by amp_copy_from_host */
    int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    amp_array_view *v = amp_array_view_create(amp_extent1(8), AMP_INT, 0, h);
    REQUIRE_OK(amp_array_view_synchronize_to(v, V));
    int w[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    REQUIRE_OK(amp_copy_from_host(w, sizeof w, v));
    amp_array_view_destroy(&v);
    REQUIRE(v == NULL);
    REQUIRE_ARRAY_INT(h, w, 8);

    /* device-current after a kernel (the host copy is stale), then a partial write */
    int g[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    v = amp_array_view_create(amp_extent1(8), AMP_INT, 0, g);
    REQUIRE_OK(run(V, times10, v));
    amp_array_view *part = amp_array_view_section(v, amp_index1(2), amp_extent1(3));
    int p3[3] = {-3, -4, -5};
    REQUIRE_OK(amp_copy_from_host(p3, sizeof p3, part));
    int before[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    REQUIRE_ARRAY_INT(g, before, 8); /* nothing written back yet */
    amp_array_view_destroy(&part);
    REQUIRE_ARRAY_INT(g, before, 8); /* not the last view */
    amp_array_view_destroy(&v);
    int wg[8] = {10, 20, -3, -4, -5, 60, 70, 80};
    REQUIRE_ARRAY_INT(g, wg, 8);

    /* synchronize_to on an array-backed view and NULL */
    REQUIRE_FAIL(amp_array_view_synchronize_to(NULL, V), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    int q[2] = {0};
    v = amp_array_view_create(amp_extent1(2), AMP_INT, 0, q);
    REQUIRE_FAIL(amp_array_view_synchronize_to(v, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_array_view_destroy(&v);
}

/* ---- error paths: status, message, and nothing changed ---- */

static void test_errors(void)
{
    int src[12], dst[12], keep[12];
    for (int i = 0; i < 12; i++) src[i] = i + 1, dst[i] = keep[i] = -100 - i;
    amp_array_view *s34 = amp_array_view_create(amp_extent2(3, 4), AMP_INT, 0, src);
    amp_array_view *d43 = amp_array_view_create(amp_extent2(4, 3), AMP_INT, 0, dst);
    /* wrong extents */
    REQUIRE_FAIL(amp_copy(s34, d43), AMP_ERROR_INVALID_ARGUMENT, "(3, 4)");
    REQUIRE(strstr(amp_last_error(), "(4, 3)") != NULL);
    REQUIRE_OK(amp_array_view_synchronize(d43));
    REQUIRE_ARRAY_INT(dst, keep, 12);
    /* the same with the destination on the device */
    amp_array *a43 = amp_array_create(V, &(amp_array_desc){.extent = amp_extent2(4, 3), .type = AMP_INT,
                                                            .data = keep});
    REQUIRE_FAIL(amp_copy(s34, amp_array_as_view(a43)), AMP_ERROR_INVALID_ARGUMENT, "(4, 3)");
    int got[24];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a43), got, sizeof got));
    REQUIRE_ARRAY_INT(got, keep, 12);
    /* element size mismatch */
    double dd[12];
    for (int i = 0; i < 12; i++) dd[i] = 0.5 * i;
    amp_array_view *dbl = amp_array_view_create(amp_extent2(3, 4), AMP_DOUBLE, 0, dd);
    REQUIRE_FAIL(amp_copy(s34, dbl), AMP_ERROR_INVALID_ARGUMENT, "4 bytes");
    REQUIRE(strstr(amp_last_error(), "8") != NULL);
    for (int i = 0; i < 12; i++) REQUIRE(dd[i] == 0.5 * i);
    /* destination too small for amp_copy_to_host: untouched */
    unsigned char buf[48];
    memset(buf, 0xCD, sizeof buf);
    REQUIRE_FAIL(amp_copy_to_host(s34, buf, 44), AMP_ERROR_INVALID_ARGUMENT, "44 bytes");
    REQUIRE(strstr(amp_last_error(), "48") != NULL);
    for (size_t i = 0; i < sizeof buf; i++)
        if (buf[i] != 0xCD) {
            REQUIRE(buf[i] == 0xCD);
            break;
        }
    REQUIRE_FAIL(amp_copy_to_host(amp_array_as_view(a43), buf, 47), AMP_ERROR_INVALID_ARGUMENT, "47 bytes");
    for (size_t i = 0; i < sizeof buf; i++)
        if (buf[i] != 0xCD) {
            REQUIRE(buf[i] == 0xCD);
            break;
        }
    REQUIRE_FAIL(amp_copy_to_host(s34, NULL, 48), AMP_ERROR_INVALID_ARGUMENT, "");
    /* amp_copy_from_host with too few bytes: destination unchanged */
    int small[11];
    for (int i = 0; i < 11; i++) small[i] = 7;
    REQUIRE_FAIL(amp_copy_from_host(small, sizeof small, d43), AMP_ERROR_INVALID_ARGUMENT, "44 bytes");
    REQUIRE(strstr(amp_last_error(), "48") != NULL);
    REQUIRE_ARRAY_INT(dst, keep, 12);
    REQUIRE_FAIL(amp_copy_from_host(small, sizeof small, amp_array_as_view(a43)), AMP_ERROR_INVALID_ARGUMENT,
                 "44 bytes");
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a43), got, sizeof got));
    REQUIRE_ARRAY_INT(got, keep, 12);
    REQUIRE_FAIL(amp_copy_from_host(NULL, 48, d43), AMP_ERROR_INVALID_ARGUMENT, "");
    REQUIRE_ARRAY_INT(dst, keep, 12);
    /* ... and with too many: the size must be exact (13 ints into 12, 7 into a 6-int section) */
    int big[13];
    for (int i = 0; i < 13; i++) big[i] = 9;
    REQUIRE_FAIL(amp_copy_from_host(big, sizeof big, d43), AMP_ERROR_INVALID_ARGUMENT, "52 bytes");
    REQUIRE(strstr(amp_last_error(), "exactly 48") != NULL);
    REQUIRE_ARRAY_INT(dst, keep, 12);
    REQUIRE_FAIL(amp_copy_from_host(big, sizeof big, amp_array_as_view(a43)), AMP_ERROR_INVALID_ARGUMENT,
                 "52 bytes");
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a43), got, sizeof got));
    REQUIRE_ARRAY_INT(got, keep, 12);
    amp_array_view *rows12 = amp_array_view_section(d43, amp_index2(1, 0), amp_extent2(2, 3));
    REQUIRE_FAIL(amp_copy_from_host(big, 7 * sizeof(int), rows12), AMP_ERROR_INVALID_ARGUMENT, "28 bytes");
    REQUIRE(strstr(amp_last_error(), "exactly 24") != NULL);
    REQUIRE_OK(amp_copy_from_host(big, 6 * sizeof(int), rows12));
    for (int i = 3; i < 9; i++) keep[i] = 9;
    REQUIRE_OK(amp_array_view_synchronize(d43));
    REQUIRE_ARRAY_INT(dst, keep, 12);
    amp_array_view_destroy(&rows12);
    /* ... also when the destination is device-current */
    amp_array_view *dflat = amp_array_view_create(amp_extent1(12), AMP_INT, 0, dst);
    REQUIRE_OK(run(V, plus1, dflat));
    REQUIRE_FAIL(amp_copy_from_host(small, sizeof small, d43), AMP_ERROR_INVALID_ARGUMENT, "44 bytes");
    REQUIRE_OK(amp_array_view_synchronize(d43));
    for (int i = 0; i < 12; i++) keep[i] += 1;
    REQUIRE_ARRAY_INT(dst, keep, 12);

    /* element size not a multiple of 4, struct without a size, size mismatch */
    char raw[60];
    REQUIRE_NULL_FAIL(amp_array_view_create(amp_extent1(10), AMP_TYPE_STRUCT, 6, raw), AMP_ERROR_INVALID_ARGUMENT,
                      "element size 6 is not a multiple of 4");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(10), .type = AMP_TYPE_STRUCT,
                                                             .element_size = 6}),
                      AMP_ERROR_INVALID_ARGUMENT, "element size 6 is not a multiple of 4");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(10), .type = AMP_TYPE_STRUCT}),
                      AMP_ERROR_INVALID_ARGUMENT, "element_size");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(10), .type = AMP_INT,
                                                             .element_size = 8}),
                      AMP_ERROR_INVALID_ARGUMENT, "element_size 8");
    REQUIRE_NULL_FAIL(amp_array_view_create(amp_extent1(10), (amp_type)1234, 0, raw), AMP_ERROR_INVALID_ARGUMENT,
                      "1234");
    /* invalid extents */
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = {0, {0}}, .type = AMP_INT}),
                      AMP_ERROR_INVALID_ARGUMENT, "rank 0");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent2(3, -2), .type = AMP_INT}),
                      AMP_ERROR_INVALID_ARGUMENT, "(3, -2)");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = {4, {1, 1, 1}}, .type = AMP_INT}),
                      AMP_ERROR_INVALID_ARGUMENT, "rank 4");
    REQUIRE_NULL_FAIL(amp_array_view_create((amp_extent){0, {0}}, AMP_INT, 0, raw), AMP_ERROR_INVALID_ARGUMENT,
                      "rank 0");
    REQUIRE_NULL_FAIL(amp_array_view_create(amp_extent1(-5), AMP_INT, 0, raw), AMP_ERROR_INVALID_ARGUMENT, "(-5)");
    REQUIRE_NULL_FAIL(amp_array_view_create_const(amp_extent2(-1, 2), AMP_INT, 0, raw), AMP_ERROR_INVALID_ARGUMENT,
                      "(-1, 2)");
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent2(65536, 65536), .type = AMP_INT}),
                      AMP_ERROR_OUT_OF_BOUNDS, "(65536, 65536)");
    /* data_size smaller than the array */
    int six[6] = {1, 2, 3, 4, 5, 6};
    REQUIRE_NULL_FAIL(amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(6), .type = AMP_INT, .data = six,
                                                             .data_size = 8}),
                      AMP_ERROR_INVALID_ARGUMENT, "data_size 8 is smaller than the array's 24 bytes");
    REQUIRE_NULL_FAIL(amp_array_create(V, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");

    /* writing to a const view */
    int cdata[4] = {1, 2, 3, 4}, cw[4] = {1, 2, 3, 4}, four[4] = {9, 9, 9, 9};
    amp_array_view *cv = amp_array_view_create_const(amp_extent1(4), AMP_INT, 0, cdata);
    REQUIRE(amp_array_view_is_const(cv));
    REQUIRE_FAIL(amp_copy_from_host(four, sizeof four, cv), AMP_ERROR_INVALID_ARGUMENT, "read-only");
    REQUIRE_FAIL(amp_array_view_set(cv, amp_index1(0), four), AMP_ERROR_INVALID_ARGUMENT, "read-only");
    amp_array_view *fv = amp_array_view_create(amp_extent1(4), AMP_INT, 0, four);
    REQUIRE_FAIL(amp_copy(fv, cv), AMP_ERROR_INVALID_ARGUMENT, "read-only");
    amp_array_view *csec = amp_array_view_section(cv, amp_index1(1), amp_extent1(2));
    REQUIRE(amp_array_view_is_const(csec));
    REQUIRE_FAIL(amp_copy_from_host(four, 8, csec), AMP_ERROR_INVALID_ARGUMENT, "read-only");
    REQUIRE_ARRAY_INT(cdata, cw, 4);
    /* reading a const view works */
    int x = 0;
    REQUIRE_OK(amp_array_view_get(cv, amp_index1(3), &x));
    REQUIRE_INT(x, 4);
    REQUIRE_OK(amp_copy(cv, fv));
    REQUIRE_OK(amp_array_view_synchronize(fv));
    REQUIRE_ARRAY_INT(four, cw, 4);
    amp_array_view_destroy(&csec);
    amp_array_view_destroy(&fv);
    amp_array_view_destroy(&cv);

    /* an overlapping copy in the same memory */
    int ov[10], ow[10];
    for (int i = 0; i < 10; i++) ov[i] = ow[i] = i;
    amp_array_view *all = amp_array_view_create(amp_extent1(10), AMP_INT, 0, ov);
    amp_array_view *lo = amp_array_view_section(all, amp_index1(0), amp_extent1(6));
    amp_array_view *hi = amp_array_view_section(all, amp_index1(3), amp_extent1(6));
    REQUIRE_FAIL(amp_copy(lo, hi), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    REQUIRE_FAIL(amp_copy(all, all), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    amp_array_view *other = amp_array_view_create(amp_extent1(6), AMP_INT, 0, ov + 1); /* shares the storage */
    REQUIRE_FAIL(amp_copy(other, hi), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    REQUIRE_OK(amp_array_view_synchronize(all));
    REQUIRE_ARRAY_INT(ov, ow, 10);
    /* non-overlapping parts of the same memory copy fine */
    amp_array_view *first = amp_array_view_section(all, amp_index1(0), amp_extent1(4));
    amp_array_view *last = amp_array_view_section(all, amp_index1(6), amp_extent1(4));
    REQUIRE_OK(amp_copy(first, last));
    REQUIRE_OK(amp_array_view_synchronize(all));
    int wov[10] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3};
    REQUIRE_ARRAY_INT(ov, wov, 10);
    /* overlap inside one array on the device */
    amp_array *oa = amp_array_create(V, &(amp_array_desc){.extent = amp_extent1(10), .type = AMP_INT, .data = ow});
    amp_array_view *alo = amp_array_view_section(amp_array_as_view(oa), amp_index1(0), amp_extent1(5));
    amp_array_view *ahi = amp_array_view_section(amp_array_as_view(oa), amp_index1(4), amp_extent1(5));
    REQUIRE_FAIL(amp_copy(alo, ahi), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(oa), got, 10 * sizeof(int)));
    REQUIRE_ARRAY_INT(got, ow, 10);
    amp_array_view_destroy(&alo);
    amp_array_view_destroy(&ahi);
    amp_array_destroy(&oa);
    /* strided sections: spans that interleave are not an overlap (left half to
     * right half), elements that are shared are, even when the first section's
     * packed size ends before the second begins */
    int mm[24], wmm[24];
    for (int i = 0; i < 24; i++) mm[i] = wmm[i] = i;
    amp_array *ma = amp_array_create(V, &(amp_array_desc){.extent = amp_extent2(4, 6), .type = AMP_INT, .data = mm});
    amp_array_view *left = amp_array_view_section(amp_array_as_view(ma), amp_index2(0, 0), amp_extent2(4, 3));
    amp_array_view *right = amp_array_view_section(amp_array_as_view(ma), amp_index2(0, 3), amp_extent2(4, 3));
    amp_array_view *low = amp_array_view_section(amp_array_as_view(ma), amp_index2(2, 1), amp_extent2(2, 3));
    amp_array_view *top = amp_array_view_section(amp_array_as_view(ma), amp_index2(0, 0), amp_extent2(2, 3));
    amp_array_view *mid = amp_array_view_section(amp_array_as_view(ma), amp_index2(1, 0), amp_extent2(2, 3));
    REQUIRE_FAIL(amp_copy(mid, low), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    amp_array_view_destroy(&mid);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ma), got, sizeof mm));
    REQUIRE_ARRAY_INT(got, wmm, 24);
    REQUIRE_OK(amp_copy(top, low)); /* rows 0-1 and rows 2-3: disjoint */
    REQUIRE_OK(amp_copy(left, right));
    for (int r = 2; r < 4; r++)
        for (int c = 1; c < 4; c++) wmm[r * 6 + c] = (r - 2) * 6 + (c - 1);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++) wmm[r * 6 + c + 3] = wmm[r * 6 + c];
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ma), got, sizeof mm));
    REQUIRE_ARRAY_INT(got, wmm, 24);
    /* the same on a host view */
    amp_array_view *hm = amp_array_view_create(amp_extent2(4, 6), AMP_INT, 0, mm);
    amp_array_view *hl = amp_array_view_section(hm, amp_index2(0, 0), amp_extent2(4, 3));
    amp_array_view *hr = amp_array_view_section(hm, amp_index2(0, 3), amp_extent2(4, 3));
    amp_array_view *hlow = amp_array_view_section(hm, amp_index2(2, 1), amp_extent2(2, 3));
    amp_array_view *hmid = amp_array_view_section(hm, amp_index2(1, 0), amp_extent2(2, 3));
    REQUIRE_FAIL(amp_copy(hmid, hlow), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    amp_array_view_destroy(&hmid);
    REQUIRE_OK(amp_copy(hl, hr));
    REQUIRE_OK(amp_array_view_synchronize(hm));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++) REQUIRE_INT(mm[r * 6 + c + 3], r * 6 + c);
    amp_array_view_destroy(&hl);
    amp_array_view_destroy(&hr);
    amp_array_view_destroy(&hlow);
    amp_array_view_destroy(&hm);
    amp_array_view_destroy(&left);
    amp_array_view_destroy(&right);
    amp_array_view_destroy(&low);
    amp_array_view_destroy(&top);
    amp_array_destroy(&ma);
    amp_array_view_destroy(&first);
    amp_array_view_destroy(&last);
    amp_array_view_destroy(&other);
    amp_array_view_destroy(&lo);
    amp_array_view_destroy(&hi);
    amp_array_view_destroy(&all);

    /* NULL arguments never crash */
    REQUIRE_FAIL(amp_copy(NULL, s34), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_copy(s34, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_copy_to_host(NULL, got, sizeof got), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_copy_from_host(got, sizeof got, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_NULL_FAIL(amp_copy_from_host_async(got, sizeof got, NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_array_view_synchronize(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_array_view_discard_data(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_array_view_refresh(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_array_view_get(NULL, amp_index1(0), &x), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_FAIL(amp_array_view_set(NULL, amp_index1(0), &x), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_NULL_FAIL(amp_array_view_data(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE_NULL_FAIL(amp_array_view_data(s34), AMP_ERROR_INVALID_STATE, "rank-1");
    REQUIRE_NULL_FAIL(amp_array_view_data(amp_array_as_view(a43)), AMP_ERROR_INVALID_STATE, "rank-1");
    REQUIRE_NULL_FAIL(amp_array_view_of_array(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    REQUIRE(amp_array_as_view(NULL) == NULL);
    REQUIRE_INT(amp_array_view_extent(NULL).rank, 0);
    REQUIRE_INT(amp_array_view_element_size(NULL), 0);
    REQUIRE(!amp_array_view_is_const(NULL));
    REQUIRE_INT(amp_array_extent(NULL).rank, 0);
    REQUIRE_INT(amp_array_element_size(NULL), 0);
    REQUIRE(amp_array_accelerator_view(NULL) == NULL);
    amp_array_view_destroy(NULL);
    amp_array_view *nullv = NULL;
    amp_array_view_destroy(&nullv);
    amp_array_destroy(NULL);
    amp_array *nulla = NULL;
    amp_array_destroy(&nulla);
    /* destroying the array's own view handle is a no-op */
    amp_array_view *own = amp_array_as_view(a43);
    amp_array_view_destroy(&own);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(a43), got, sizeof got));

    /* a view of an array outlives the array */
    amp_array_view *of = amp_array_view_of_array(a43);
    REQUIRE(of != NULL);
    amp_array_destroy(&a43);
    REQUIRE_OK(amp_copy_to_host(of, got, sizeof got));
    for (int i = 0; i < 12; i++) keep[i] = -100 - i;
    REQUIRE_ARRAY_INT(got, keep, 12);
    amp_array_view_destroy(&of);

    amp_array_view_destroy(&dflat);
    amp_array_view_destroy(&dbl);
    amp_array_view_destroy(&s34);
    amp_array_view_destroy(&d43);
}

/* ---- two views of one device: work stays in program order ---- */

static void test_cross_view(void)
{
    amp_accelerator_view *X = amp_view_create(amp_view_accelerator(V), AMP_QUEUING_AUTOMATIC);
    REQUIRE(X != NULL);
    if (!X) return;
    /* an array of X changed by a kernel on V, then read back (through X) */
    int g[4] = {1, 2, 3, 4}, o[4] = {0}, w[4] = {10, 20, 30, 40};
    amp_array *ax = amp_array_create(X, &(amp_array_desc){.extent = amp_extent1(4), .type = AMP_INT, .data = g});
    REQUIRE_OK(run(V, times10, amp_array_as_view(ax)));
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ax), o, sizeof o));
    REQUIRE_ARRAY_INT(o, w, 4);
    REQUIRE_OK(run(V, plus1, amp_array_as_view(ax)));
    int *p = NULL;
    amp_array *sx = amp_array_create(X, &(amp_array_desc){.extent = amp_extent1(4), .type = AMP_INT, .data = g,
                                                           .cpu_access = AMP_ACCESS_READ_WRITE});
    REQUIRE_OK(run(V, times10, amp_array_as_view(sx)));
    p = amp_array_data(sx); /* waits for V's kernel */
    if (p) REQUIRE_ARRAY_INT(p, w, 4);
    amp_future *f = amp_array_view_synchronize_async(amp_array_as_view(ax));
    REQUIRE(f != NULL);
    REQUIRE_OK(amp_future_wait(f));
    amp_future_destroy(&f);
    REQUIRE_OK(amp_copy_to_host(amp_array_as_view(ax), o, sizeof o));
    int w1[4] = {11, 21, 31, 41};
    REQUIRE_ARRAY_INT(o, w1, 4);
    /* a host view changed by a kernel on V, then overwritten by a copy on X */
    int h[4] = {1, 2, 3, 4}, q[4] = {7, 7, 7, 7};
    amp_array_view *hv = amp_array_view_create(amp_extent1(4), AMP_INT, 0, h);
    REQUIRE_OK(run(V, times10, hv));
    amp_array *qx = amp_array_create(X, &(amp_array_desc){.extent = amp_extent1(4), .type = AMP_INT, .data = q});
    REQUIRE_OK(amp_copy(amp_array_as_view(qx), hv));
    REQUIRE_OK(run(X, plus1, hv)); /* and on after that, on X */
    REQUIRE_OK(amp_array_view_synchronize(hv));
    int w8[4] = {8, 8, 8, 8};
    REQUIRE_ARRAY_INT(h, w8, 4);
    REQUIRE_OK(amp_view_wait(V));
    REQUIRE_OK(amp_view_wait(X));
    REQUIRE_ARRAY_INT(h, w8, 4);
    amp_array_view_destroy(&hv);
    amp_array_destroy(&qx);
    amp_array_destroy(&ax);
    amp_array_destroy(&sx);
    REQUIRE_OK(amp_view_destroy(&X));
}

/* ---- large host ranges (transferred in place where the device imports host memory) ---- */

static void test_large(void)
{
    const int n = 1 << 19; /* 2 MiB of ints */
    int *h = malloc((size_t)n * sizeof *h);
    for (int i = 0; i < n; i++) h[i] = i;
    amp_array_view *hv = amp_array_view_create(amp_extent1(n), AMP_INT, 0, h);
    REQUIRE_OK(run(V, plus1, hv));
    REQUIRE_OK(amp_array_view_synchronize(hv));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != i + 1;
    REQUIRE_INT(bad, 0);
    /* synchronize_to uploads; the host may change its memory afterwards */
    for (int i = 0; i < n; i++) h[i] = 3 * i;
    REQUIRE_OK(amp_array_view_refresh(hv));
    REQUIRE_OK(amp_array_view_synchronize_to(hv, V));
    for (int i = 0; i < n; i++) h[i] = -1;
    REQUIRE_OK(run(V, plus1, hv));
    amp_array_view_destroy(&hv); /* writes back */
    bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 3 * i + 1;
    REQUIRE_INT(bad, 0);
    free(h);
}

/* ---- registered host memory (amp_host_register): views inside it, of any size, borrow
   its import for their downloads and explicit uploads instead of pinning their own ---- */

static void test_registered(void)
{
    amp_accelerator *acc = amp_view_accelerator(V);
    const int n = 3 << 18; /* 3 MiB of ints */
    int *h = malloc((size_t)n * sizeof *h);
    REQUIRE(h);
    if (!h) return;
    for (int i = 0; i < n; i++) h[i] = i;
    REQUIRE_FAIL(amp_host_register(acc, NULL, 64), AMP_ERROR_INVALID_ARGUMENT, "NULL memory");
    REQUIRE_FAIL(amp_host_register(acc, h, 0), AMP_ERROR_INVALID_ARGUMENT, "0 bytes");
    REQUIRE_FAIL(amp_host_unregister(acc, h), AMP_ERROR_INVALID_ARGUMENT, "no memory is registered at");
    amp_status reg = amp_host_register(acc, h, (size_t)n * sizeof *h);
    if (reg == AMP_ERROR_UNSUPPORTED) { /* a device without VK_EXT_external_memory_host */
        REQUIRE(strstr(amp_last_error(), "cannot import host memory") || strstr(amp_last_error(), "could not import"));
        free(h);
        return;
    }
    REQUIRE_OK(reg);
    REQUIRE_FAIL(amp_host_register(acc, h + 100, 400), AMP_ERROR_INVALID_ARGUMENT, "overlap the 3145728 bytes at");
    REQUIRE_FAIL(amp_host_register(acc, (char *)h - 4, 8), AMP_ERROR_INVALID_ARGUMENT, "overlap");
    /* a small view at an odd offset (below the 1 MiB that would pay for pinning) and a
       large one, apart */
    amp_array_view *small = amp_array_view_create(amp_extent1(1000), AMP_INT, 0, h + 1001);
    amp_array_view *large = amp_array_view_create(amp_extent1(n / 2), AMP_INT, 0, h + n / 2);
    REQUIRE(small && large);
    REQUIRE_OK(run(V, plus1, small));
    /* an explicit upload reads the memory in place (a kernel's own upload, recorded
       without a wait, copies it to staging: the host may change it after the call) */
    REQUIRE_OK(amp_array_view_synchronize_to(large, V));
    REQUIRE_OK(run(V, times10, large));
    REQUIRE_OK(amp_array_view_synchronize(small));
    REQUIRE_INT(h[1000], 1000);
    REQUIRE_INT(h[1001], 1002);
    REQUIRE_INT(h[2000], 2001);
    REQUIRE_INT(h[2001], 2001);
    REQUIRE_FAIL(amp_host_unregister(acc, h), AMP_ERROR_INVALID_STATE, "of 2 array_view storages: destroy");
    /* the large view's device data goes back through the registered memory */
    amp_array_view_destroy(&large);
    int bad = 0;
    for (int i = n / 2; i < n; i++) bad += h[i] != 10 * i;
    REQUIRE_INT(bad, 0);
    REQUIRE_FAIL(amp_host_unregister(acc, h), AMP_ERROR_INVALID_STATE, "of 1 array_view storage: destroy");
    /* the host changes the memory; the view uploads it again from the registered pages */
    for (int i = 1001; i < 2001; i++) h[i] = -i;
    REQUIRE_OK(amp_array_view_refresh(small));
    REQUIRE_OK(run(V, plus1, small));
    amp_array_view_destroy(&small);
    bad = 0;
    for (int i = 1001; i < 2001; i++) bad += h[i] != 1 - i;
    REQUIRE_INT(bad, 0);
    REQUIRE_OK(amp_host_unregister(acc, h));
    REQUIRE_FAIL(amp_host_unregister(acc, h), AMP_ERROR_INVALID_ARGUMENT, "no memory is registered at");
    /* unregistered again, a view pins its own */
    large = amp_array_view_create(amp_extent1(n), AMP_INT, 0, h);
    REQUIRE_OK(run(V, plus1, large));
    amp_array_view_destroy(&large);
    REQUIRE_INT(h[n - 1], 10 * (n - 1) + 1);
    free(h);
}

int main(void)
{
    test_begin();
    V = test_view();
    make_kernels(V);
    test_overview();
    test_cpu_access();
    test_round_trips();
    test_views_of_views();
    test_lazy();
    test_async();
    test_write_back();
    test_errors();
    test_cross_view();
    test_large();
    test_registered();
    amp_kernel_destroy(&times10);
    amp_kernel_destroy(&plus1);
    amp_kernel_destroy(&fill_idx);
    return test_end();
}
