/* The GLSL of a kernel: the declarations generated from its C++ AMP parameter list
 * around the user's code, and the variants for the storage-image formats bound at
 * dispatch. */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

typedef struct text {
    char *s;
    size_t n, cap;
    bool failed;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = (t->cap + (size_t)k + 1) * 2;
        char *ns = realloc(t->s, cap);
        if (!ns) {
            t->failed = true;
            return;
        }
        t->s = ns;
        t->cap = cap;
    }
}

static const char *index_type(int rank) { return rank == 1 ? "int" : rank == 2 ? "ivec2" : "ivec3"; }

/* The GLSL for an x/y/z vector in host order (component 0 most significant). */
static const char *host_order(int rank, const char *v, char *buf, size_t n)
{
    if (rank == 1) snprintf(buf, n, "int(%s.x)", v);
    else if (rank == 2) snprintf(buf, n, "ivec2(%s.y, %s.x)", v, v);
    else snprintf(buf, n, "ivec3(%s.z, %s.y, %s.x)", v, v, v);
    return buf;
}

/* What names the short-vector library (shaders/ampvk/vec.glsl) in a kernel's text: a
 * type (int_2, float_4, norm, unorm ...), a function (float_4_add, amp_add,
 * amp_half_from_float ...); only then (or with AMP_WITH_VECMATH among its defines)
 * is it compiled in. */
static const char *const vecmath_words[] = {
    "norm", "int_", "float_", "double_", "half", "amp_add", "amp_sub", "amp_mul", "amp_div", "amp_mod", "amp_and",
    "amp_or", "amp_xor", "amp_shl", "amp_shr", "amp_neg", "amp_not", "amp_eq", "amp_ne", "amp_to_", "_value_type",
    "AMP_SHORT_VECTOR", "AMP_SWIZZLE"};
/* The same for fast_math (shaders/ampvk/fast_math.glsl): any fast_math_ name. */
static const char *const fast_math_words[] = {"fast_math_"};

/* precise_math (shaders/ampvk/precise_math.glsl): each function is compiled in only
 * when the kernel names it (precise_math_exp, or the float form precise_math_expf),
 * through AMP_PM_<name>; the library itself adds what a function is built on. */
static const char *const precise_math_names[] = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi",
    "erf", "erfc", "erfcinv", "erfinv", "exp", "exp10", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax",
    "fmin", "fmod", "fpclassify", "frexp", "hypot", "ilogb", "isfinite", "isinf", "isnan", "isnormal", "ldexp",
    "lgamma", "log", "log10", "log1p", "log2", "logb", "modf", "nan", "nearbyint", "nextafter", "phi", "pow",
    "probit", "rcbrt", "remainder", "remquo", "round", "rsqrt", "scalb", "scalbn", "signbit", "sin", "sincos",
    "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc"};
enum { PRECISE_MATH_COUNT = sizeof precise_math_names / sizeof *precise_math_names };

/* The index of a precise_math function named by the identifier at s (its name or the
 * name with an f), or -1. */
static int precise_math_index(const char *s)
{
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_' || (s[n] >= 'A' && s[n] <= 'Z'))
        n++;
    for (int pass = 0; pass < 2; pass++, n--) {
        if (n == 0 || (pass == 1 && s[n] != 'f')) return -1; /* pass 1: the name less its f */
        for (int i = 0; i < PRECISE_MATH_COUNT; i++)
            if (strlen(precise_math_names[i]) == n && strncmp(precise_math_names[i], s, n) == 0) return i;
    }
    return -1;
}

/* Defines AMP_WITH_PRECISE_MATH and AMP_PM_<name> for each function the kernel's text
 * names (every function when it defines AMP_WITH_PRECISE_MATH itself). */
static void add_precise_math(text *t, const amp_kernel_desc *desc, const char *user)
{
    static const char prefix[] = "precise_math_";
    bool used[PRECISE_MATH_COUNT] = {false}, any = false, all = false;
    for (int i = 0; i < desc->define_count; i++)
        all |= strncmp(desc->defines[i], "AMP_WITH_PRECISE_MATH", 21) == 0;
    const char *texts[] = {desc->params, desc->declarations, user};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        for (const char *p = texts[i]; p && (p = strstr(p, prefix)) != NULL; p += sizeof prefix - 1) {
            int f = precise_math_index(p + sizeof prefix - 1);
            if (f >= 0) used[f] = any = true;
        }
    if (!any && !all) return;
    add(t, "#ifndef AMP_WITH_PRECISE_MATH\n#define AMP_WITH_PRECISE_MATH 1\n#endif\n");
    for (int i = 0; i < PRECISE_MATH_COUNT; i++)
        if (used[i] || all) add(t, "#define AMP_PM_%s 1\n", precise_math_names[i]);
}

/* True if the kernel's own text names one of n words, or it defines `define`: a part
 * of the library that only such kernels compile. */
static bool needs_part(const amp_kernel_desc *desc, const char *user, const char *const *words, size_t n,
                       const char *define)
{
    const char *texts[] = {desc->params, desc->declarations, user};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        for (size_t w = 0; texts[i] && w < n; w++)
            if (strstr(texts[i], words[w])) return true;
    for (int i = 0; i < desc->define_count; i++)
        if (strncmp(desc->defines[i], define, strlen(define)) == 0) return true;
    return false;
}

/* The version, extensions, work-group size and the kernel library. */
static void add_prologue(text *t, const amp_kernel *k, const amp_kernel_desc *desc, const char *user,
                         const char *name)
{
    add(t, "#version 460\n#extension GL_EXT_scalar_block_layout : require\n"
           "#extension GL_GOOGLE_include_directive : require\n"
           "#extension GL_GOOGLE_cpp_style_line_directive : require\n"
           "#extension GL_EXT_samplerless_texture_functions : require\n" FORMATS_MARKER);
    if (k->dev->float64) add(t, "#define AMP_HAS_DOUBLE 1\n");
    /* Vulkan lets fma() round twice; GPUs fuse it, lavapipe (a CPU device) does not:
     * the math library takes exact products another way there. */
    if (!amp__device_is_cpu(k->dev)) add(t, "#define AMP_FMA_FUSED 1\n");
    /* where float results below the normal range flush and exp2 is exact at 0 and
     * saturates, float exp runs without a branch (shaders/ampvk/precise_exp.glsl) */
    if (amp__device_is_nvidia(k->dev)) add(t, "#define AMP_FTZ_EXP2 1\n");
    /* lavapipe's double trunc, round and roundEven are wrong from 2^24 up on some hosts
     * (shaders/ampvk/rounding.glsl): exact ones replace them on CPU devices. */
    if (amp__device_is_cpu(k->dev) && k->dev->float64) add(t, "#define AMP_DOUBLE_ROUNDING_FIX 1\n");
    if (k->dev->float_atomics)
        add(t, "#extension GL_EXT_shader_atomic_float : require\n#define AMP_HAS_FLOAT_ATOMICS 1\n");
    add(t, "layout(local_size_x = %u, local_size_y = %u, local_size_z = %u) in;\n", k->local[0], k->local[1],
        k->local[2]);
    if (needs_part(desc, user, vecmath_words, sizeof vecmath_words / sizeof *vecmath_words, "AMP_WITH_VECMATH"))
        add(t, "#define AMP_WITH_VECMATH 1\n");
    if (needs_part(desc, user, fast_math_words, 1, "AMP_WITH_FAST_MATH")) add(t, "#define AMP_WITH_FAST_MATH 1\n");
    add_precise_math(t, desc, user);
    if (k->debug_binding) {
        add(t, "#define AMP_DEBUG_BINDING %u\n", k->debug_binding);
        if (k->dev->robust) add(t, "#define AMP_DEBUG_ROBUST 1\n");
    }
    add(t, "#include <ampvk/ampvk.glsl>\n");
    if (desc->declarations) add(t, "#line 1 \"%s (declarations)\"\n%s\n", name, desc->declarations);
    add(t, "#line 1 \"%s (generated)\"\n", name);
}

/* The uniform argument block. Member order: 0 domain; per view k: 1+3k offset,
 * 2+3k strides, 3+3k extent; then the scalars; then an end marker. */
static void add_argument_block(text *t, const amp_kernel *k)
{
    add(t, "layout(scalar, set = 0, binding = 0) uniform amp_args_t {\n    ivec3 amp_domain;\n");
    for (int i = 0; i < k->param_count; i++) {
        const amp__param *p = &k->params[i];
        if (p->is_view)
            add(t, "    int amp_o_%s;\n    ivec2 amp_s_%s;\n    %s amp_e_%s;\n", p->name, p->name,
                index_type(p->rank), p->name);
    }
    for (int i = 0; i < k->param_count; i++)
        if (k->params[i].kind == AMP__PARAM_SCALAR) add(t, "    %s %s;\n", k->params[i].type_name, k->params[i].name);
    add(t, "    int amp_end;\n};\n");
    add(t, "layout(push_constant) uniform amp_push_t { ivec3 amp_group_base;%s };\n",
        k->debug_binding ? " int amp_kernel_id;" : "");
}

/* A storage buffer per array_view parameter, with its name(I) and name_extent. */
static void add_views(text *t, const amp_kernel *k)
{
    for (int i = 0; i < k->param_count; i++) {
        const amp__param *p = &k->params[i];
        if (!p->is_view) continue;
        add(t, "layout(scalar, set = 0, binding = %u) %sbuffer amp_b_%s { %s amp_d_%s[]; };\n", p->binding,
            p->is_const ? "readonly " : "", p->name, p->type_name, p->name);
        if (k->debug_binding)
            add(t, "#define %s(I) amp_d_%s[amp_dbg_linear(I, amp_o_%s, amp_s_%s, amp_e_%s, %d, __LINE__, "
                   "amp_kernel_id)]\n", p->name, p->name, p->name, p->name, p->name, i);
        else
            add(t, "#define %s(I) amp_d_%s[amp_linear(I, amp_o_%s, amp_s_%s)]\n", p->name, p->name, p->name, p->name);
        add(t, "#define %s_extent amp_e_%s\n", p->name, p->name);
    }
}

/* A read-only texture parameter: a sampled image read by texelFetch, sampled and
 * gathered through the sampler the kernel names. Checked kernels fetch through a
 * function that checks the index against the level's extent (0 outside). */
static void add_sampled_texture(text *t, const amp_kernel *k, int arg, const char *pre, const char *dim)
{
    const amp__param *p = &k->params[arg];
    add(t, "layout(set = 0, binding = %u) uniform %stexture%s amp_t_%s;\n", p->binding, pre, dim, p->name);
    if (k->debug_binding) {
        add(t, "%svec4 amp_fetch_%s(%s i, int m, int line) {\n    return amp_dbg_ok(%d, line, i, "
               "amp_host_extent(textureSize(amp_t_%s, m)), amp_kernel_id) ? texelFetch(amp_t_%s, amp_image_coord(i), m)"
               " : %svec4(0);\n}\n", pre, p->name, index_type(p->rank), arg, p->name, p->name, pre);
        add(t, "#define %s(I) amp_from_texel_%s(amp_fetch_%s(I, 0, __LINE__))\n", p->name, p->type_name, p->name);
        add(t, "#define %s_get(I, M) amp_from_texel_%s(amp_fetch_%s(I, M, __LINE__))\n", p->name, p->type_name,
            p->name);
    } else {
        add(t, "#define %s(I) amp_from_texel_%s(texelFetch(amp_t_%s, amp_image_coord(I), 0))\n", p->name,
            p->type_name, p->name);
        add(t, "#define %s_get(I, M) amp_from_texel_%s(texelFetch(amp_t_%s, amp_image_coord(I), M))\n", p->name,
            p->type_name, p->name);
    }
    add(t, "#define %s_sample(S, C, L) amp_from_texel_%s(textureLod(%ssampler%s(amp_t_%s, S), C, L))\n", p->name,
        p->type_name, pre, dim, p->name);
    if (p->rank == 2) {
        static const char *const ch[] = {"red", "green", "blue", "alpha"};
        for (int c = 0; c < 4; c++)
            add(t, "#define %s_gather_%s(S, C) textureGather(%ssampler2D(amp_t_%s, S), C, %d)\n", p->name, ch[c],
                pre, p->name, c);
    }
    add(t, "#define %s_extent amp_host_extent(textureSize(amp_t_%s, 0))\n", p->name, p->name);
}

/* A writable texture parameter: a storage image whose format a variant defines.
 * Checked kernels load and store through functions that check the index (a load
 * outside gives 0, a store outside is dropped). */
static void add_storage_texture(text *t, const amp_kernel *k, int arg, const char *pre, const char *dim)
{
    const amp__param *p = &k->params[arg];
    add(t, "layout(set = 0, binding = %u, AMP_FMT_%s) uniform %s%simage%s amp_i_%s;\n", p->binding, p->name,
        p->kind == AMP__PARAM_WRITEONLY ? "writeonly " : "", pre, dim, p->name);
    if (k->debug_binding) {
        const char *it = index_type(p->rank);
        char ok[160];
        snprintf(ok, sizeof ok, "amp_dbg_ok(%d, line, i, amp_host_extent(imageSize(amp_i_%s)), amp_kernel_id)", arg,
                 p->name);
        if (p->kind == AMP__PARAM_STORAGE) {
            add(t, "%svec4 amp_load_%s(%s i, int line) {\n    return %s ? imageLoad(amp_i_%s, amp_image_coord(i)) : "
                   "%svec4(0);\n}\n", pre, p->name, it, ok, p->name, pre);
            add(t, "#define %s(I) amp_from_texel_%s(amp_load_%s(I, __LINE__))\n", p->name, p->type_name, p->name);
        }
        add(t, "void amp_store_%s(%s i, %svec4 v, int line) {\n    if (%s) imageStore(amp_i_%s, amp_image_coord(i), v);"
               "\n}\n", p->name, it, pre, ok, p->name);
        add(t, "#define %s_set(I, V) amp_store_%s(I, AMP_QUANT_%s(amp_to_texel(V)), __LINE__)\n", p->name, p->name,
            p->name);
    } else {
        if (p->kind == AMP__PARAM_STORAGE)
            add(t, "#define %s(I) amp_from_texel_%s(imageLoad(amp_i_%s, amp_image_coord(I)))\n", p->name,
                p->type_name, p->name);
        add(t, "#define %s_set(I, V) imageStore(amp_i_%s, amp_image_coord(I), AMP_QUANT_%s(amp_to_texel(V)))\n",
            p->name, p->name, p->name);
    }
    add(t, "#define %s_extent amp_host_extent(imageSize(amp_i_%s))\n", p->name, p->name);
}

/* The samplers and textures (the internal point sampler first, if any). */
static void add_textures(text *t, const amp_kernel *k)
{
    if (k->point_binding) add(t, "layout(set = 0, binding = %u) uniform sampler amp_point;\n", k->point_binding);
    for (int i = 0; i < k->param_count; i++) {
        const amp__param *p = &k->params[i];
        if (p->kind == AMP__PARAM_SAMPLER) {
            add(t, "layout(set = 0, binding = %u) uniform sampler %s;\n", p->binding, p->name);
            continue;
        }
        if (!amp__is_texture(p)) continue;
        amp__format f;
        if (amp__format_find(p->type, 0, &f) != AMP_OK)
            amp__format_find(p->type, 8, &f); /* norm and unorm have no default bits */
        const char *pre = f.sampled == 'i' ? "i" : f.sampled == 'u' ? "u" : "";
        const char *dim = p->rank == 1 ? "1D" : p->rank == 2 ? "2D" : "3D";
        if (p->kind == AMP__PARAM_SAMPLED) add_sampled_texture(t, k, i, pre, dim);
        else add_storage_texture(t, k, i, pre, dim);
    }
}

/* The user's code (a body becomes kernel(idx)) and main, which computes the index
 * (a tiled_index for tiled kernels) and guards the last partial group. */
static void add_user_code_and_main(text *t, const amp_kernel *k, const amp_kernel_desc *desc, const char *user,
                                   const char *name)
{
    const char *dom = k->rank == 1 ? "amp_domain.x" : k->rank == 2 ? "amp_domain.xy" : "amp_domain";
    add(t, "#define domain_extent %s\n", dom);
    char tiled_type[32], buf[128];
    snprintf(tiled_type, sizeof tiled_type, "tiled_index_%d", k->rank);
    if (k->tiled)
        add(t, "const %s tile_extent = %s;\n", index_type(k->rank),
            host_order(k->rank, "gl_WorkGroupSize", buf, sizeof buf));
    if (desc->body)
        add(t, "void kernel(%s idx) {\n#line 1 \"%s\"\n%s\n}\n", k->tiled ? tiled_type : index_type(k->rank), name,
            user);
    else
        add(t, "#line 1 \"%s\"\n%s\n", name, user);
    add(t, "#line 1 \"%s (generated main)\"\n", name);
    add(t, "void main() {\n    ivec3 amp_g = (ivec3(gl_WorkGroupID) + amp_group_base) * ivec3(gl_WorkGroupSize)"
           " + ivec3(gl_LocalInvocationID);\n");
    if (k->rank == 1) add(t, "    int amp_i = amp_g.x;\n");
    if (k->rank == 2) add(t, "    ivec2 amp_i = ivec2(amp_g.y, amp_g.x);\n");
    if (k->rank == 3) add(t, "    ivec3 amp_i = ivec3(amp_g.z, amp_g.y, amp_g.x);\n");
    if (k->tiled) {
        add(t, "    uvec3 amp_tile = gl_WorkGroupID + uvec3(amp_group_base);\n");
        add(t, "    %s amp_t;\n    amp_t.global = amp_i;\n", tiled_type);
        add(t, "    amp_t.local = %s;\n", host_order(k->rank, "gl_LocalInvocationID", buf, sizeof buf));
        add(t, "    amp_t.tile = %s;\n", host_order(k->rank, "amp_tile", buf, sizeof buf));
        add(t, "    amp_t.tile_origin = amp_t.tile * tile_extent;\n    kernel(amp_t);\n}\n");
    } else {
        add(t, "    if (!extent_contains(domain_extent, amp_i)) return;\n    kernel(amp_i);\n}\n");
    }
}

/* The text, or NULL with an error if building it ran out of memory. */
static char *text_done(text *t)
{
    if (!t->failed) return t->s;
    free(t->s);
    amp__fail(AMP_ERROR_OUT_OF_MEMORY, "out of host memory");
    return NULL;
}

char *amp__generate_glsl(const amp_kernel *k, const amp_kernel_desc *desc, const char *user, const char *name)
{
    text t = {0};
    add_prologue(&t, k, desc, user, name);
    add_argument_block(&t, k);
    add_views(&t, k);
    add_textures(&t, k);
    add_user_code_and_main(&t, k, desc, user, name);
    return text_done(&t);
}

/* The function that rounds a texel before it is stored in an image of this GLSL
 * format: for normalized formats, to the nearest code (ties away from zero) as
 * C++ AMP and the host's amp_unorm8_encode do. Vulkan lets a device pick either
 * neighbour of a value between two codes (some truncate); a pre-rounded value
 * sits a quarter step above its code, where both choices agree. */
static const char *quantizer(const char *glsl)
{
    size_t n = strlen(glsl);
    bool snorm = n > 6 && strcmp(glsl + n - 6, "_snorm") == 0;
    char last = glsl[n - 1];
    if (!snorm && (last == 'f' || last == 'i')) return ""; /* float, int, uint: stored as given */
    bool sixteen = strstr(glsl, "16") != NULL;
    return snorm ? (sixteen ? "amp_quantize_snorm16" : "amp_quantize_snorm8")
                 : (sixteen ? "amp_quantize_unorm16" : "amp_quantize_unorm8");
}

/* The GLSL of the variant for the given storage-image formats (one per storage
 * parameter, in order): the generated text with their definitions at the marker. */
char *amp__variant_glsl(const amp_kernel *k, const char *const *formats)
{
    text t = {0};
    const char *at = strstr(k->glsl, FORMATS_MARKER);
    add(&t, "%.*s", (int)(at - k->glsl), k->glsl);
    for (int i = 0, f = 0; i < k->param_count; i++)
        if (amp__is_storage(&k->params[i])) {
            add(&t, "#define AMP_FMT_%s %s\n#define AMP_QUANT_%s %s\n", k->params[i].name, formats[f],
                k->params[i].name, quantizer(formats[f]));
            f++;
        }
    add(&t, "%s", at + strlen(FORMATS_MARKER));
    return text_done(&t);
}
