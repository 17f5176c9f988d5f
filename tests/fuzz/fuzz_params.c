/* libFuzzer harness: the kernel parameter parser (src/kernel/params.c) on any
 * text, and for inputs that start with 'K', amp_kernel_create on the default view
 * (lavapipe) with that text as the parameter list, so that GLSL generation,
 * declarations and the compile and cache path see it too.
 *
 * Input: the parameter list up to the first zero byte. After a leading 'K':
 * "K<params>\0<declarations>\0..." with an empty body. A parsed list must be
 * well formed (names unique, not reserved, ranks 1..3, texture rules); a list the
 * parser refuses must be refused by amp_kernel_create with
 * AMP_ERROR_INVALID_ARGUMENT too, and no call may raise a validation message. */
#include "fuzz.h"
#include "kernel/kernel_internal.h"

static bool reserved(const char *name)
{
    return !strncmp(name, "amp_", 4) || !strncmp(name, "gl_", 3) || !strcmp(name, "idx") ||
           !strcmp(name, "domain_extent") || !strcmp(name, "kernel") || !strcmp(name, "main");
}

static void check_params(const amp__param *p, int count)
{
    for (int i = 0; i < count; i++) {
        FUZZ_CHECK(p[i].name[0] && !reserved(p[i].name), "parameter %d has the name \"%s\"", i, p[i].name);
        FUZZ_CHECK(memchr(p[i].name, 0, sizeof p[i].name) && memchr(p[i].type_name, 0, sizeof p[i].type_name),
                   "parameter %d: a name without its terminator", i);
        for (int j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(p[i].name, p[j].name) != 0, "parameters %d and %d are both \"%s\"", j, i, p[i].name);
        bool templated = p[i].kind == AMP__PARAM_VIEW || amp__is_texture(&p[i]);
        FUZZ_CHECK(!templated || (p[i].rank >= 1 && p[i].rank <= 3), "parameter \"%s\" has rank %d", p[i].name,
                   p[i].rank);
        FUZZ_CHECK(p[i].is_view == (p[i].kind == AMP__PARAM_VIEW), "parameter \"%s\": is_view disagrees with its kind",
                   p[i].name);
        FUZZ_CHECK(!(p[i].kind == AMP__PARAM_WRITEONLY && p[i].is_const), "a const writeonly_texture_view \"%s\"",
                   p[i].name);
        FUZZ_CHECK(!amp__is_texture(&p[i]) || amp_type_scalar(amp_type_from_name(p[i].type_name)),
                   "texture \"%s\" of element type \"%s\"", p[i].name, p[i].type_name);
        FUZZ_CHECK(p[i].type == amp_type_from_name(p[i].type_name), "parameter \"%s\": type disagrees with \"%s\"",
                   p[i].name, p[i].type_name);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool kernel = size > 0 && data[0] == 'K';
    size_t skip = kernel ? 1 : 0;
    char *text = malloc(size - skip + 2);
    if (!text) return 0;
    memcpy(text, data + skip, size - skip);
    text[size - skip] = 0;
    text[size - skip + 1] = 0;
    const char *params = text;
    const char *declarations = text + strlen(text) + 1;

    amp__param *list = (amp__param *)(uintptr_t)1;
    int count = -1;
    amp_status s = amp__parse_params(params, &list, &count);
    FUZZ_CHECK(s == AMP_OK || s == AMP_ERROR_INVALID_ARGUMENT, "amp__parse_params returned %s", amp_status_name(s));
    if (s == AMP_OK) {
        FUZZ_CHECK(count >= 0 && (count == 0 || list), "parsed %d parameters into %p", count, (void *)list);
        check_params(list, count);
    } else {
        FUZZ_CHECK(!list, "a failed parse left a list");
    }
    free(list);

    if (kernel) {
        amp_accelerator_view *view = fuzz_view();
        amp_kernel *k = amp_kernel_create(view, &(amp_kernel_desc){
            .params = params, .declarations = declarations[0] ? declarations : NULL, .body = "", .name = "fuzz"});
        if (s != AMP_OK)
            FUZZ_CHECK(!k && amp_last_status() == AMP_ERROR_INVALID_ARGUMENT,
                       "a parameter list the parser refuses gave kernel %p, status %s", (void *)k,
                       amp_status_name(amp_last_status()));
        if (k) {
            FUZZ_CHECK(amp_kernel_glsl(k) && strstr(amp_kernel_glsl(k), "void main"), "a kernel without GLSL");
        } else {
            amp_status ks = amp_last_status();
            FUZZ_CHECK(ks == AMP_ERROR_INVALID_ARGUMENT || ks == AMP_ERROR_COMPILE || ks == AMP_ERROR_UNSUPPORTED,
                       "amp_kernel_create failed with %s", amp_status_name(ks));
        }
        amp_kernel_destroy(&k);
        fuzz_check_validation();
    }
    free(text);
    return 0;
}
