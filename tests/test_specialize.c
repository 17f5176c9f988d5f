/* The SPIR-V specializer (src/vulkan/specialize.c): every built-in filter module,
 * specialized for many sets of constants, passes SPIRV-Tools' validator for Vulkan 1.2,
 * has no specialization constant left and is smaller; a small module of known shape
 * loses exactly the code its constants make dead and keeps the rest; what it does not
 * handle (a 64-bit constant, a value given in 2 bytes, a malformed module) it declines.
 * That the specialized filters compute what they did is test_filters' part: every
 * filter there runs through it. Needs no device. */
#include <spirv-tools/libspirv.h>
#include <vulkan/vulkan.h>

#include "test.h"

/* specialize.c's entry (hidden in the shared library: tests/CMakeLists.txt builds this
 * test only against the static one) */
amp_status amp__spirv_specialize(const uint32_t *code, size_t bytes, const VkSpecializationInfo *spec, uint32_t **out,
                                 size_t *out_bytes, const char **why);

#define MODULES(X)                                                                                      \
    X(pointwise) X(conv) X(sobel) X(median) X(bilateral) X(resize) X(equalize) X(conv_block)             \
    X(conv_subgroup) X(conv_run) X(median_half) X(conv_mma) X(conv_subgroup_half) X(packed) X(packed_wide) \
    X(median_keys) X(conv_subgroup_int) X(conv_subgroup_half_codes)
#define DECLARE(name)                                                                                   \
    extern const uint32_t amp__filter_##name[];                                                         \
    extern const size_t amp__filter_##name##_size;
MODULES(DECLARE)
#define ENTRY(name) {#name, amp__filter_##name, &amp__filter_##name##_size},
static const struct {
    const char *name;
    const uint32_t *code;
    const size_t *size;
} modules[] = {MODULES(ENTRY)};

enum { SPEC_WORDS = 27 }; /* filter.glsl's constants 0..26 (filter_internal.h's amp__filter_spec) */

static spv_context context;

/* Whether code (words words) passes the validator; prints its complaint where not
 * (what NULL: says nothing). */
static bool valid(const uint32_t *code, size_t words, const char *what)
{
    spv_diagnostic diag = NULL;
    spv_const_binary_t binary = {code, words};
    spv_validator_options opts = spvValidatorOptionsCreate();
    spv_result_t r = spvValidateWithOptions(context, opts, &binary, &diag);
    spvValidatorOptionsDestroy(opts);
    if (r != SPV_SUCCESS && what) fprintf(stderr, "%s: %s\n", what, diag && diag->error ? diag->error : "invalid");
    spvDiagnosticDestroy(diag);
    return r == SPV_SUCCESS;
}

/* How many instructions of opcode op, and how many SpecId decorations, code has. */
static int count_op(const uint32_t *code, size_t words, uint32_t op, int *spec_ids)
{
    int n = 0;
    *spec_ids = 0;
    for (size_t at = 5; at < words && (code[at] >> 16); at += code[at] >> 16) {
        n += (code[at] & 0xffffu) == op;
        *spec_ids += (code[at] & 0xffffu) == 71 /* OpDecorate */ && code[at + 2] == 1 /* SpecId */;
    }
    return n;
}

/* Every module for many random sets of the filters' constants (mode, pass, radius, border,
 * flags, components, levels, a pointwise program of up to three ops). */
static void every_module(void)
{
    int32_t data[SPEC_WORDS];
    VkSpecializationMapEntry map[SPEC_WORDS];
    for (uint32_t i = 0; i < SPEC_WORDS; i++) map[i] = (VkSpecializationMapEntry){i, 4 * i, 4};
    VkSpecializationInfo info = {SPEC_WORDS, map, sizeof data, data};
    static const int ops[] = {9, 10, 11, 12, 13, 14, 15, 16, 19}, flags[] = {0, 1, 4, 8, 16, 32, 64, 192, 256, 264, 1024, 1288};
    static const int radii[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 31};
    static const float levels[] = {0.0f, 255.0f, 65535.0f, -1.0f};
    test_rng_state = 2026;
    for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++) {
        size_t bytes = *modules[m].size, smaller = 0;
        for (int trial = 0; trial < 24; trial++) {
            memset(data, 0, sizeof data);
            data[0] = 1 + (int)(test_rand() % 4), data[1] = 1 + (int)(test_rand() % 4);
            data[2] = (int)(test_rand() % 4);
            for (int k = 0; k < data[2]; k++) data[3 + k] = ops[test_rand() % 9] | (int)(1 + test_rand() % 4) << 8;
            data[19] = flags[test_rand() % (sizeof flags / sizeof *flags)], data[20] = (int)(test_rand() % 13),
            data[21] = (int)(test_rand() % 4);
            data[22] = (int)(test_rand() % 5), data[23] = radii[test_rand() % 13];
            for (int k = 24; k < 27; k++) memcpy(&data[k], &levels[test_rand() % (k == 25 ? 4 : 3)], 4);
            uint32_t *out = NULL;
            size_t out_bytes = 0;
            char what[96];
            snprintf(what, sizeof what, "%s, mode %d pass %d radius %d", modules[m].name, data[20], data[21], data[23]);
            REQUIRE_OK(amp__spirv_specialize(modules[m].code, bytes, &info, &out, &out_bytes, NULL));
            if (!out) continue;
            REQUIRE(valid(out, out_bytes / 4, what));
            int ids, spec_ops = count_op(out, out_bytes / 4, 50 /* OpSpecConstant */, &ids);
            REQUIRE_INT(spec_ops + count_op(out, out_bytes / 4, 48 /* OpSpecConstantTrue */, &ids) +
                            count_op(out, out_bytes / 4, 49 /* OpSpecConstantFalse */, &ids),
                        0);
            REQUIRE_INT(ids, 0);
            REQUIRE_CMP(out_bytes, <=, bytes, "%zu");
            smaller += out_bytes < bytes / 2;
            free(out);
        }
        /* every module holds code for choices of its constants that one set does not take */
        REQUIRE_CMP(smaller, >, (size_t)0, "%zu");
    }
}

/* Requires the specializer to decline code for a reason containing `reason`: no module,
 * AMP_ERROR_UNSUPPORTED, and the thread's last error as it was (a raised one kept). */
static void declines(const uint32_t *code, size_t bytes, const VkSpecializationInfo *spec, const char *reason)
{
    uint32_t *out = NULL;
    size_t out_bytes = 0;
    const char *why = NULL;
    amp_image_filter f;
    REQUIRE(amp_image_filter_parse("no-such-filter", &f) != AMP_OK); /* an error raised before */
    amp_status before = amp_last_status();
    char message[256];
    snprintf(message, sizeof message, "%s", amp_last_error());
    REQUIRE_INT(amp__spirv_specialize(code, bytes, spec, &out, &out_bytes, &why), AMP_ERROR_UNSUPPORTED);
    REQUIRE(out == NULL && out_bytes == 0);
    REQUIRE(why && strstr(why, reason));
    REQUIRE_INT(amp_last_status(), before);
    REQUIRE(strcmp(amp_last_error(), message) == 0);
    amp_clear_error();
}

/* A module of known shape: `if (MODE == 3) a[0] = RADIUS * 2 else a[0] = 7` inside a loop
 * of RADIUS rounds, with an OpPhi after the selection. */
static const char *const shape =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %var\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpName %MODE \"MODE\"\nOpName %RADIUS \"RADIUS\"\nOpName %is3 \"is3\"\nOpName %then_block \"then_block\"\n"
    "OpName %else_block \"else_block\"\nOpName %join \"join\"\nOpName %v \"v\"\nOpName %r2 \"r2\"\n"
    "OpName %head \"head\"\nOpName %body \"body\"\nOpName %exit \"exit\"\nOpName %cont \"cont\"\n"
    "OpName %i \"i\"\nOpName %next \"next\"\nOpName %entry \"entry\"\nOpName %more \"more\"\n"
    "OpName %dead \"dead\"\nOpName %twice \"twice\"\n"
    "OpDecorate %MODE SpecId 20\n"
    "OpDecorate %RADIUS SpecId 23\n"
    "OpDecorate %buf Block\n"
    "OpMemberDecorate %buf 0 Offset 0\n"
    "OpDecorate %var DescriptorSet 0\n"
    "OpDecorate %var Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%int = OpTypeInt 32 1\n"
    "%buf = OpTypeStruct %int\n"
    "%pbuf = OpTypePointer StorageBuffer %buf\n"
    "%pint = OpTypePointer StorageBuffer %int\n"
    "%var = OpVariable %pbuf StorageBuffer\n"
    "%int_0 = OpConstant %int 0\n"
    "%int_1 = OpConstant %int 1\n"
    "%int_3 = OpConstant %int 3\n"
    "%int_7 = OpConstant %int 7\n"
    "%MODE = OpSpecConstant %int 0\n"
    "%RADIUS = OpSpecConstant %int 1\n"
    "%is3 = OpSpecConstantOp %bool IEqual %MODE %int_3\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%p = OpAccessChain %pint %var %int_0\n"
    "OpBranch %head\n"
    "%head = OpLabel\n"
    "%i = OpPhi %int %int_0 %entry %next %cont\n"
    "%more = OpSLessThan %bool %i %RADIUS\n"
    "OpLoopMerge %exit %cont None\n"
    "OpBranchConditional %more %body %exit\n"
    "%body = OpLabel\n"
    "%twice = OpIMul %int %RADIUS %int_1\n"
    "%dead = OpIAdd %int %twice %int_7\n"
    "OpSelectionMerge %join None\n"
    "OpBranchConditional %is3 %then_block %else_block\n"
    "%then_block = OpLabel\n"
    "%r2 = OpIAdd %int %RADIUS %RADIUS\n"
    "OpBranch %join\n"
    "%else_block = OpLabel\n"
    "OpBranch %join\n"
    "%join = OpLabel\n"
    "%v = OpPhi %int %r2 %then_block %int_7 %else_block\n"
    "OpStore %p %v\n"
    "OpBranch %cont\n"
    "%cont = OpLabel\n"
    "%next = OpIAdd %int %i %int_1\n"
    "OpBranch %head\n"
    "%exit = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* The specialized module as text (spvBinaryToText), or NULL; the caller frees it. */
static char *as_text(const uint32_t *code, size_t words)
{
    spv_text text = NULL;
    if (spvBinaryToText(context, code, words, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES, &text, NULL) != SPV_SUCCESS)
        return NULL;
    char *s = malloc(text->length + 1);
    if (s) memcpy(s, text->str, text->length), s[text->length] = '\0';
    spvTextDestroy(text);
    return s;
}

static void known_shape(void)
{
    spv_binary binary = NULL;
    spv_diagnostic diag = NULL;
    REQUIRE(spvTextToBinary(context, shape, strlen(shape), &binary, &diag) == SPV_SUCCESS);
    if (diag) fprintf(stderr, "%s\n", diag->error);
    spvDiagnosticDestroy(diag);
    if (!binary) return;
    REQUIRE(valid(binary->code, binary->wordCount, "the hand-written module"));
    int32_t data[2];
    VkSpecializationMapEntry map[2] = {{20, 0, 4}, {23, 4, 4}};
    VkSpecializationInfo info = {2, map, sizeof data, data};
    for (int mode = 2; mode <= 3; mode++) {
        data[0] = mode, data[1] = 5;
        uint32_t *out = NULL;
        size_t out_bytes = 0;
        REQUIRE_OK(amp__spirv_specialize(binary->code, binary->wordCount * 4, &info, &out, &out_bytes, NULL));
        if (!out) continue;
        REQUIRE(valid(out, out_bytes / 4, mode == 3 ? "the module with MODE 3" : "the module with MODE 2"));
        char *text = as_text(out, out_bytes / 4);
        REQUIRE(text != NULL);
        if (text) {
            /* the constants, set: MODE and RADIUS as given, the comparison folded */
            REQUIRE(strstr(text, mode == 3 ? "%MODE = OpConstant %int 3" : "%MODE = OpConstant %int 2"));
            REQUIRE(strstr(text, "%RADIUS = OpConstant %int 5"));
            REQUIRE(strstr(text, mode == 3 ? "%is3 = OpConstantTrue %bool" : "%is3 = OpConstantFalse %bool"));
            REQUIRE(!strstr(text, "OpSpecConstant") && !strstr(text, "SpecId"));
            /* the names of removed ids gone with them */
            REQUIRE(!strstr(text, "\"dead\"") && !strstr(text, "\"twice\""));
            /* the arm not taken: a stub that ends in OpUnreachable, its OpPhi entry gone */
            const char *dead_arm = mode == 3 ? "%else_block = OpLabel\nOpUnreachable" : "%then_block = OpLabel\nOpUnreachable";
            char *squeezed = text;
            for (char *r = text, *w = text; (*w = *r) != '\0'; r++) /* drop the indentation */
                if (!(*r == ' ' && (w == text || w[-1] == '\n' || w[-1] == ' '))) w++;
            REQUIRE(strstr(squeezed, dead_arm));
            if (!strstr(squeezed, dead_arm)) fprintf(stderr, "%s", squeezed);
            REQUIRE(strstr(squeezed, mode == 3 ? "%v = OpPhi %int %r2 %then_block\n" : "%v = OpPhi %int %int_7 %else_block\n"));
            REQUIRE((mode == 3) == (strstr(squeezed, "%r2 = OpIAdd %int %RADIUS %RADIUS") != NULL));
            /* the structure kept: the loop, its varying condition, the selection's merge */
            REQUIRE(strstr(squeezed, "OpLoopMerge %exit %cont None\nOpBranchConditional %more %body %exit"));
            REQUIRE(strstr(squeezed, "OpSelectionMerge %join None\nOpBranchConditional %is3 %then_block %else_block"));
            REQUIRE(strstr(squeezed, "%i = OpPhi %int %int_0 %entry %next %cont"));
            /* an unused result removed */
            REQUIRE(!strstr(squeezed, "%dead =") && !strstr(squeezed, "%twice ="));
            free(text);
        }
        free(out);
    }
    /* what it declines: a value in 2 bytes, not SPIR-V; a truncated module it declines or
     * leaves as wrong as it was */
    uint32_t *out = NULL;
    size_t out_bytes = 0;
    VkSpecializationMapEntry narrow = {23, 0, 2};
    VkSpecializationInfo narrow_info = {1, &narrow, 4, data};
    declines(binary->code, binary->wordCount * 4, &narrow_info, "given in other than 4 bytes");
    for (size_t cut = 6; cut < binary->wordCount; cut += 7) { /* declined, or as valid as the cut module */
        if (amp__spirv_specialize(binary->code, cut * 4, &info, &out, &out_bytes, NULL) == AMP_OK)
            REQUIRE(valid(out, out_bytes / 4, NULL) == valid(binary->code, cut, NULL));
        else
            REQUIRE(out == NULL);
        free(out);
        out = NULL;
    }
    uint32_t junk[8] = {0x12345678u, 1, 2, 3, 4, 5, 6, 7};
    declines(junk, sizeof junk, &info, "not a SPIR-V module");
    spvBinaryDestroy(binary);
}

/* A 64-bit specialization constant is declined (the driver takes the module as it is). */
static void wide_constant(void)
{
    static const char *const wide = "OpCapability Shader\nOpCapability Int64\nOpMemoryModel Logical GLSL450\n"
                                    "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
                                    "OpDecorate %K SpecId 0\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                                    "%long = OpTypeInt 64 1\n%K = OpSpecConstant %long 5\n"
                                    "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n";
    spv_binary binary = NULL;
    REQUIRE(spvTextToBinary(context, wide, strlen(wide), &binary, NULL) == SPV_SUCCESS);
    if (!binary) return;
    declines(binary->code, binary->wordCount * 4, NULL, "other than 32 bits");
    spvBinaryDestroy(binary);
}

int main(void)
{
    test_begin();
    context = spvContextCreate(SPV_ENV_VULKAN_1_2);
    every_module();
    known_shape();
    wide_constant();
    spvContextDestroy(context);
    return test_end();
}
