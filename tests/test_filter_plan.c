/* The filter planner (src/filter/plan.c): its table of rules is the one docs/filters.md
 * shows (the lines between its "planner table" markers, byte for byte), and
 * amp_image_filter_explain names the rule and modules a pass takes on lavapipe, changing
 * nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ampvk/ampvk.h"
#include "test.h"

/* src/filter/plan.c's table as Markdown, and the pipelines made (weak: a shared-library
 * build of the tests has no hidden symbols; the checks that need them are skipped) */
__attribute__((weak)) size_t amp__filter_plan_table(char *text, size_t size);
__attribute__((weak)) int amp__filter_pipeline_count(amp_accelerator_view *v);

#define BEGIN "<!-- planner table: begin (tests/test_filter_plan.c checks it against src/filter/plan.c) -->\n"
#define END "<!-- planner table: end -->"

/* The docs' table and the code's: the same lines. */
static void table_matches_docs(void)
{
    if (!amp__filter_plan_table) return;
    size_t n = amp__filter_plan_table(NULL, 0);
    char *code = malloc(n + 1);
    REQUIRE(code != NULL);
    if (!code) return;
    REQUIRE_INT(amp__filter_plan_table(code, n + 1), n);
    size_t size = 0;
    char *docs = (char *)test_read_bytes(AMPVK_FILTERS_DOC, 1 << 20, &size);
    REQUIRE(docs != NULL);
    char *begin = docs ? strstr(docs, BEGIN) : NULL, *end = begin ? strstr(begin, END) : NULL;
    REQUIRE(begin != NULL && end != NULL);
    if (begin && end) {
        begin += strlen(BEGIN);
        size_t len = (size_t)(end - begin);
        bool same = len == n && memcmp(begin, code, n) == 0;
        if (!same) {
            /* the first line that differs, both ways */
            size_t i = 0, line = 0;
            while (i < len && i < n && begin[i] == code[i]) i++;
            while (line < i && i - line > 0 && begin[i - line - 1] != '\n') line++;
            fprintf(stderr, "docs/filters.md's planner table differs from src/filter/plan.c's at byte %zu:\n"
                            "  docs: %.*s\n  code: %.*s\n(the code's table, to paste between the markers:)\n%s",
                    i, (int)strcspn(begin + i - line, "\n"), begin + i - line, (int)strcspn(code + i - line, "\n"),
                    code + i - line, code);
        }
        REQUIRE(same);
    }
    free(docs);
    free(code);
}

/* The plan of a one-filter chain from an RGBA8 (gray8: equalize) image w x h into one of
 * the size it makes, as amp_image_filter_explain writes it into text. */
static amp_status explain(amp_accelerator_view *v, const char *spec, int w, int h, char *text, size_t size)
{
    amp_image_filter f;
    if (amp_image_filter_parse(spec, &f) != AMP_OK) return amp_last_status();
    int comps = f.op == AMP_IMAGE_EQUALIZE ? 1 : 4;
    amp_texture_desc desc = {.extent = amp_extent2(h, w), .type = AMP_MAKE_TYPE(AMP_SCALAR_UNORM, comps),
                             .bits_per_scalar_element = 8};
    amp_texture *src = amp_texture_create(v, &desc), *dst = NULL;
    if (amp_image_filter_output_extent(&f, 1, desc.extent, &desc.extent) == AMP_OK) dst = amp_texture_create(v, &desc);
    amp_status st = src && dst ? amp_image_filter_explain(&f, 1, src, dst, text, size) : amp_last_status();
    amp_texture_destroy(&src);
    amp_texture_destroy(&dst);
    return st;
}

/* Whether text has `want` in it (printing text where not). */
static bool has(const char *text, const char *want)
{
    bool found = strstr(text, want) != NULL;
    if (!found) fprintf(stderr, "no \"%s\" in:\n%s", want, text);
    return found;
}

static void explains(void)
{
    amp_accelerator_view *v = test_view();
    amp_accelerator_info info;
    REQUIRE_OK(amp_accelerator_get_info(amp_view_accelerator(v), &info));
    char text[4096];
    int before = amp__filter_pipeline_count ? amp__filter_pipeline_count(v) : 0;
    /* every device: a 3 x 3 sobel of 8 bits takes sobel.comp where its subgroups do not walk */
    REQUIRE_OK(explain(v, "sobel", 64, 64, text, sizeof text));
    REQUIRE(has(text, "pass 1: sobel (filter 0), 64 x 64 -> 64 x 64: rule \""));
    REQUIRE(has(text, ", mode SOBEL_MODE_MAGNITUDE, pass 0, "));
    if (info.is_emulated) { /* lavapipe: a CPU device */
        REQUIRE_OK(explain(v, "gaussian:radius=2", 64, 64, text, sizeof text));
        REQUIRE(has(text, "rule \"tile\"\n  conv, mode CONV_MODE_SUM, pass 0, flags 0x408, radius 2, 4 x 4 groups\n"));
        REQUIRE_OK(explain(v, "gaussian:radius=2", 1024, 1024, text, sizeof text));
        REQUIRE(has(text, "rule \"packed\"\n  packed, mode PACKED_MODE_SUM_SHIFT, pass 0, flags 0x408, radius 2, "
                          "4 x 32 groups\n  packed, mode PACKED_MODE_SUM_SHIFT, pass 1, "));
        REQUIRE_OK(explain(v, "gaussian:sigma=4", 200, 100, text, sizeof text));
        REQUIRE(has(text, "rule \"two pass\"\n  conv, mode CONV_MODE_SUM, pass 1, flags 0x410, radius 12, "));
        REQUIRE(has(text, "  conv, mode CONV_MODE_SUM, pass 2, "));
        REQUIRE_OK(explain(v, "median:radius=2", 64, 64, text, sizeof text));
        REQUIRE(has(text, "rule \"median keys\"\n  median keys, mode -, "));
        REQUIRE_OK(explain(v, "equalize", 1024, 1024, text, sizeof text));
        REQUIRE(has(text, "rule \"packed\"\n  packed, mode PACKED_MODE_EQUALIZE, pass 0, "));
        REQUIRE(has(text, "  packed, mode PACKED_MODE_EQUALIZE, pass 2, "));
        REQUIRE_OK(explain(v, "resize:width=100,height=50,interpolation=cubic", 64, 64, text, sizeof text));
        REQUIRE(has(text, "rule \"resize\"\n  resize, mode RESIZE_MODE_CUBIC, "));
    }
    /* a text too short is cut and terminated */
    char small[24];
    memset(small, 'x', sizeof small);
    REQUIRE_OK(explain(v, "sobel", 64, 64, small, sizeof small));
    REQUIRE_INT(strlen(small), sizeof small - 1);
    /* errors as amp_image_filter_chain's */
    REQUIRE_FAIL(amp_image_filter_explain(NULL, 1, NULL, NULL, text, sizeof text), AMP_ERROR_INVALID_ARGUMENT, "");
    /* and nothing made */
    if (amp__filter_pipeline_count) REQUIRE_INT(amp__filter_pipeline_count(v), before);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    test_begin();
    table_matches_docs();
    explains();
    return test_end();
}
