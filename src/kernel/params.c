/* Parsing a kernel's parameter list: "array_view<const int, 2> a, float s". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

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

/* The rules on a texture's template arguments, once they are read: a const texture
 * is sampled, a write-only one cannot be const, and the element must be a scalar
 * or short vector type an image format can hold. */
static amp_status check_texture_args(const char *params, const char *start, amp__param *prm)
{
    if (prm->kind == AMP__PARAM_STORAGE && prm->is_const) prm->kind = AMP__PARAM_SAMPLED;
    if (prm->kind == AMP__PARAM_WRITEONLY && prm->is_const)
        return fail_at(params, start, "a writeonly_texture_view cannot be const");
    if (prm->kind >= AMP__PARAM_STORAGE && !amp_type_scalar(amp_type_from_name(prm->type_name)))
        return fail_at(params, start, "a texture's element type must be int, uint, float, double, norm, "
                                      "unorm or a short vector of them");
    return AMP_OK;
}

/* The template arguments "<[const] T, N>" of an array or texture type; *pp is at
 * the '<' and is left after the '>'. start is the declaration, for messages. */
static amp_status parse_template_args(const char *params, const char *start, const char **pp, amp__param *prm)
{
    char word[64];
    const char *p = skip_space(*pp + 1);
    const char *t = p;
    p = read_ident(p, word, sizeof word);
    if (strcmp(word, "const") == 0) {
        prm->is_const = true;
        p = skip_space(p);
        t = p;
        p = read_ident(p, word, sizeof word);
    }
    if (!word[0]) return fail_at(params, t, "expected an element type after '<'");
    snprintf(prm->type_name, sizeof prm->type_name, "%s", word);
    p = skip_space(p);
    if (*p != ',') return fail_at(params, p, "expected ', rank>' after the element type");
    p = skip_space(p + 1);
    if (*p < '1' || *p > '3') return fail_at(params, p, "the rank must be 1, 2 or 3");
    prm->rank = *p - '0';
    p = skip_space(p + 1);
    if (*p != '>') return fail_at(params, p, "expected '>'");
    *pp = skip_space(p + 1);
    return check_texture_args(params, start, prm);
}

/* A declaration's type: a plain type name (scalar, vector, struct, sampler), or
 * array, array_view or a texture type with its template arguments. */
static amp_status parse_type(const char *params, const char **pp, amp__param *prm)
{
    char word[64];
    const char *start = *pp;
    const char *p = read_ident(start, word, sizeof word);
    if (!word[0]) return fail_at(params, start, "expected a type");
    p = skip_space(p);
    bool is_array = strcmp(word, "array_view") == 0 || strcmp(word, "array") == 0;
    bool is_texture = strcmp(word, "texture") == 0 || strcmp(word, "texture_view") == 0;
    bool is_writeonly = strcmp(word, "writeonly_texture_view") == 0;
    if (strcmp(word, "sampler") == 0) prm->kind = AMP__PARAM_SAMPLER;
    if ((is_array || is_texture || is_writeonly) && *p == '<') {
        prm->kind = is_array ? AMP__PARAM_VIEW : is_writeonly ? AMP__PARAM_WRITEONLY : AMP__PARAM_STORAGE;
        prm->is_view = is_array;
        amp_status st = parse_template_args(params, start, &p, prm);
        if (st != AMP_OK) return st;
    } else {
        snprintf(prm->type_name, sizeof prm->type_name, "%s", word);
    }
    prm->type = amp_type_from_name(prm->type_name);
    *pp = p;
    return AMP_OK;
}

/* A declaration's name: an identifier, not reserved by the generated GLSL and not
 * declared by an earlier parameter. */
static amp_status parse_name(const char *params, const char **pp, const amp__param *list, int count,
                             amp__param *prm)
{
    const char *n = *pp;
    *pp = read_ident(n, prm->name, sizeof prm->name);
    if (!prm->name[0]) return fail_at(params, n, "expected a parameter name");
    if (is_reserved(prm->name))
        return fail_at(params, n, "the name is reserved (amp_*, gl_*, idx, domain_extent, kernel, main)");
    for (int i = 0; i < count; i++)
        if (strcmp(list[i].name, prm->name) == 0)
            return fail_at(params, n, "a parameter of this name is already declared");
    return AMP_OK;
}

/* One declaration, "type name", and the ',' that separates it from the next; *pp
 * is left at the next declaration or the end. */
static amp_status parse_declaration(const char *params, const char **pp, const amp__param *list, int count,
                                    amp__param *prm)
{
    const char *p = *pp;
    amp_status st = parse_type(params, &p, prm);
    if (st == AMP_OK) st = parse_name(params, &p, list, count, prm);
    if (st != AMP_OK) return st;
    p = skip_space(p);
    if (*p == ',') p = skip_space(p + 1);
    else if (*p) return fail_at(params, p, "expected ',' between parameters");
    *pp = p;
    return AMP_OK;
}

/* Adds a parameter to the list, doubling its capacity when full. */
static amp_status append_param(amp__param **list, int *cap, int *count, const amp__param *prm)
{
    if (*count == *cap) {
        int new_cap = *cap ? *cap * 2 : 8;
        amp__param *nl = realloc(*list, sizeof *nl * (size_t)new_cap);
        if (!nl) return amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
        *list = nl;
        *cap = new_cap;
    }
    (*list)[(*count)++] = *prm;
    return AMP_OK;
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
        amp_status st = parse_declaration(params, &p, list, *count, &prm);
        if (st == AMP_OK) st = append_param(&list, &cap, count, &prm);
        if (st != AMP_OK) {
            free(list);
            return st;
        }
    }
    *out = list;
    return AMP_OK;
}
