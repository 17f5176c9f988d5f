/* Parsing a kernel's parameter list: "array_view<const int, 2> a, float s". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

static const char *read_ident(const char *p, char *out, size_t n)
{
    size_t k = 0;
    if (!isalpha((unsigned char)*p) && *p != '_') {
        out[0] = 0;
        return p;
    }
    while ((isalnum((unsigned char)*p) || *p == '_') && k + 1 < n) out[k++] = *p++;
    out[k] = 0;
    return p;
}

static bool is_reserved(const char *name)
{
    return strncmp(name, "amp_", 4) == 0 || strncmp(name, "gl_", 3) == 0 || strcmp(name, "idx") == 0 ||
           strcmp(name, "domain_extent") == 0 || strcmp(name, "kernel") == 0 || strcmp(name, "main") == 0;
}

static amp_status fail_at(const char *params, const char *p, const char *what)
{
    return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "kernel parameters, at column %d: %s (in \"%s\")",
                     (int)(p - params) + 1, what, params);
}

amp_status amp__parse_params(const char *params, amp__param **out, int *count)
{
    *out = NULL;
    *count = 0;
    if (!params) return AMP_OK;
    int cap = 0;
    amp__param *list = NULL;
    const char *p = skip_space(params);
    while (*p) {
        amp__param prm = {0};
        char word[64];
        const char *start = p;
        p = read_ident(p, word, sizeof word);
        if (!word[0]) {
            free(list);
            return fail_at(params, start, "expected a type");
        }
        p = skip_space(p);
        bool is_array = strcmp(word, "array_view") == 0 || strcmp(word, "array") == 0;
        bool is_texture = strcmp(word, "texture") == 0 || strcmp(word, "texture_view") == 0;
        bool is_writeonly = strcmp(word, "writeonly_texture_view") == 0;
        if (strcmp(word, "sampler") == 0) prm.kind = AMP__PARAM_SAMPLER;
        if ((is_array || is_texture || is_writeonly) && *p == '<') {
            prm.kind = is_array ? AMP__PARAM_VIEW : is_writeonly ? AMP__PARAM_WRITEONLY : AMP__PARAM_STORAGE;
            prm.is_view = is_array;
            p = skip_space(p + 1);
            const char *t = p;
            p = read_ident(p, word, sizeof word);
            if (strcmp(word, "const") == 0) {
                prm.is_const = true;
                p = skip_space(p);
                t = p;
                p = read_ident(p, word, sizeof word);
            }
            if (!word[0]) {
                free(list);
                return fail_at(params, t, "expected an element type after '<'");
            }
            snprintf(prm.type_name, sizeof prm.type_name, "%s", word);
            p = skip_space(p);
            if (*p != ',') {
                free(list);
                return fail_at(params, p, "expected ', rank>' after the element type");
            }
            p = skip_space(p + 1);
            if (*p < '1' || *p > '3') {
                free(list);
                return fail_at(params, p, "the rank must be 1, 2 or 3");
            }
            prm.rank = *p - '0';
            p = skip_space(p + 1);
            if (*p != '>') {
                free(list);
                return fail_at(params, p, "expected '>'");
            }
            p = skip_space(p + 1);
            if (prm.kind == AMP__PARAM_STORAGE && prm.is_const) prm.kind = AMP__PARAM_SAMPLED;
            if (prm.kind == AMP__PARAM_WRITEONLY && prm.is_const) {
                free(list);
                return fail_at(params, start, "a writeonly_texture_view cannot be const");
            }
            if (prm.kind >= AMP__PARAM_STORAGE && !amp_type_scalar(amp_type_from_name(prm.type_name))) {
                free(list);
                return fail_at(params, start, "a texture's element type must be int, uint, float, double, norm, "
                                              "unorm or a short vector of them");
            }
        } else {
            snprintf(prm.type_name, sizeof prm.type_name, "%s", word);
        }
        prm.type = amp_type_from_name(prm.type_name);
        const char *n = p;
        p = read_ident(p, prm.name, sizeof prm.name);
        if (!prm.name[0]) {
            free(list);
            return fail_at(params, n, "expected a parameter name");
        }
        if (is_reserved(prm.name)) {
            free(list);
            return fail_at(params, n, "the name is reserved (amp_*, gl_*, idx, domain_extent, kernel, main)");
        }
        for (int i = 0; i < *count; i++)
            if (strcmp(list[i].name, prm.name) == 0) {
                free(list);
                return fail_at(params, n, "a parameter of this name is already declared");
            }
        p = skip_space(p);
        if (*p == ',') p = skip_space(p + 1);
        else if (*p) {
            free(list);
            return fail_at(params, p, "expected ',' between parameters");
        }
        if (*count == cap) {
            cap = cap ? cap * 2 : 8;
            amp__param *nl = realloc(list, sizeof *nl * (size_t)cap);
            if (!nl) {
                free(list);
                return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
            }
            list = nl;
        }
        list[(*count)++] = prm;
    }
    *out = list;
    return AMP_OK;
}
