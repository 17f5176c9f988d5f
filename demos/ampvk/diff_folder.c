/*
 * ampvk diff GOLDEN_DIR ACTUAL_DIR: every image under ACTUAL_DIR against the golden of
 * the same relative path under GOLDEN_DIR (folders included), as a render test suite
 * runs it. Goldens without an actual image are "missing", actual images without a
 * golden "new". The pairs are compared on all cores at once (each decodes, compares
 * and draws its own; the accelerator is shared), and every pair is reported, failures
 * first: as text, one JSON document (--json), JUnit XML (--junit FILE) and an HTML
 * report (--report DIR: index.html and each failing pair's expected, actual, diff and
 * heat map images). --update
 * copies the different and new actual images over the goldens.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

enum { PAIR_DIFFERENT, PAIR_ERROR, PAIR_MISSING, PAIR_NEW, PAIR_MATCH }; /* the report's order */
static const char *const kind_names[] = {"different", "error", "missing", "new", "match"};

typedef struct pair {
    char *name; /* the relative path */
    int kind;
    char reason[640];
    amp_image_compare_result r;
    bool pictures; /* the report holds its images */
    size_t number; /* its images' number in the report (its place in name order) */
} pair;

typedef struct folder_run {
    const diff_folder_options *o;
    pair *pairs;
    size_t count;
    atomic_size_t next;
} folder_run;

static char *path_of(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* mkdir -p of the folder that holds path. */
static bool make_parent(const char *path)
{
    char *p = strdup(path);
    bool ok = p != NULL;
    for (char *q = p ? p + 1 : NULL; ok && q && *q; q++)
        if (*q == '/') {
            *q = '\0';
            ok = mkdir(p, 0755) == 0 || errno == EEXIST;
            *q = '/';
        }
    free(p);
    return ok;
}

/* Copies the file src over dst, through a temporary file renamed over it: dst is the
 * old file or the new one, never a part. */
static bool copy_file(const char *src, const char *dst, char *why, size_t n)
{
    size_t len = strlen(dst) + 16;
    char *tmp = malloc(len);
    FILE *in = fopen(src, "rb"), *out = NULL;
    bool ok = tmp && in && make_parent(dst);
    if (ok) {
        snprintf(tmp, len, "%s.tmp%ld", dst, (long)getpid());
        ok = (out = fopen(tmp, "wb")) != NULL;
    }
    /* in the kernel, without passing through this process; where the file system
       cannot (nothing copied), through a buffer */
    ssize_t moved = 0, step = 0;
    while (ok && (step = copy_file_range(fileno(in), NULL, fileno(out), NULL, (size_t)1 << 30, 0)) > 0) moved += step;
    if (step < 0 && moved > 0) ok = false;
    char buf[1 << 16];
    size_t got;
    while (ok && (got = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, got, out) == got;
    if (in && ferror(in)) ok = false;
    if (out && fclose(out) != 0) ok = false;
    if (ok && rename(tmp, dst) != 0) ok = false;
    if (!ok) {
        snprintf(why, n, "cannot copy %s to %s: %s", src, dst, strerror(errno));
        if (out) remove(tmp);
    }
    if (in) fclose(in);
    free(tmp);
    return ok;
}

/* The report's image of pair i: DIR/images/I.KIND.png, a copy of the file where it is
 * a PNG (from), else im written as one. */
static bool save_picture(const char *dir, size_t i, const char *kind, const amp_image *im, const char *from)
{
    char path[4096], why[1024];
    snprintf(path, sizeof path, "%s/images/%zu.%s.png", dir, i, kind);
    if (from && amp_image_format_from_path(from) == AMP_IMAGE_FORMAT_PNG) return copy_file(from, path, why, sizeof why);
    return amp_image_save(path, im, NULL) == AMP_OK;
}

/* True when the files x and y hold the same bytes: read until the first difference,
 * and not at all when their sizes differ. */
static bool same_bytes(const char *x, const char *y)
{
    struct stat sx, sy;
    if (stat(x, &sx) != 0 || stat(y, &sy) != 0 || sx.st_size != sy.st_size) return false;
    FILE *fx = fopen(x, "rb"), *fy = fx ? fopen(y, "rb") : NULL;
    bool same = fx && fy;
    char bx[1 << 15], by[1 << 15];
    for (size_t got; same && (got = fread(bx, 1, sizeof bx, fx)) > 0;)
        same = fread(by, 1, got, fy) == got && memcmp(bx, by, got) == 0;
    if (same && (ferror(fx) || fgetc(fy) != EOF)) same = false;
    if (fx) fclose(fx);
    if (fy) fclose(fy);
    return same;
}

/* Compares pair i on view (NULL: the default view). */
static void compare_pair(folder_run *f, size_t i, amp_accelerator_view *view)
{
    pair *p = &f->pairs[i]; /* its number is i: the images are still in name order */
    const diff_folder_options *o = f->o;
    amp_image_compare_desc desc = *o->desc;
    if (view) desc.view = view;
    char *ge = path_of(o->golden, p->name), *ac = path_of(o->actual, p->name);
    amp_image e = {0}, a = {0}, pic[2] = {{0}, {0}}; /* the overlay and the heat map */
    bool have_e = ge && p->kind != PAIR_NEW && amp_image_load(ge, NULL, &e) == AMP_OK;
    if (p->kind != PAIR_NEW && !have_e) snprintf(p->reason, sizeof p->reason, "%s", amp_last_error());
    /* an actual file of the golden's bytes (most pairs of a suite that passes) is the
       golden's image: decoded once */
    bool same = have_e && ac && p->kind == PAIR_MATCH && same_bytes(ge, ac);
    const amp_image *act = same ? &e : &a;
    bool have_a = same || (ac && p->kind != PAIR_MISSING && amp_image_load(ac, NULL, &a) == AMP_OK);
    if (p->kind != PAIR_MISSING && !have_a && !p->reason[0])
        snprintf(p->reason, sizeof p->reason, "%s", amp_last_error());
    if (p->kind == PAIR_MISSING) snprintf(p->reason, sizeof p->reason, "no actual image");
    if (p->kind == PAIR_NEW) snprintf(p->reason, sizeof p->reason, "no golden image");
    if (p->kind == PAIR_MATCH) {
        if (!have_e || !have_a) {
            p->kind = PAIR_ERROR;
        } else if (e.width != act->width || e.height != act->height || e.channels != act->channels) {
            p->kind = PAIR_DIFFERENT;
            snprintf(p->reason, sizeof p->reason,
                     "size mismatch: the golden is %dx%d with %d channels, the actual image %dx%d with %d", e.width,
                     e.height, e.channels, act->width, act->height, act->channels);
        } else {
            static const amp_image_draw_style styles[2] = {AMP_IMAGE_DRAW_OVERLAY, AMP_IMAGE_DRAW_HEATMAP};
            amp_status s = o->report ? amp_image_compare_draw_styles(&e, act, &desc, styles, 2, &p->r, pic)
                                     : amp_image_compare_images(&e, act, &desc, &p->r);
            if (s != AMP_OK) {
                p->kind = PAIR_ERROR;
                snprintf(p->reason, sizeof p->reason, "%s", amp_last_error());
            } else if (!p->r.passed) {
                p->kind = PAIR_DIFFERENT;
                snprintf(p->reason, sizeof p->reason, "%zu pixels differ (%.4g%%), %zu allowed; the first at (x %d, y %d)",
                         p->r.differing_texels, 100.0 * (double)p->r.differing_texels / (double)p->r.texels,
                         p->r.allowed_texels, p->r.first_difference.i[1], p->r.first_difference.i[0]);
            }
        }
    }
    if (o->report && p->kind != PAIR_MATCH) {
        p->pictures = (!have_e || save_picture(o->report, p->number, "expected", &e, ge)) &&
                      (!have_a || save_picture(o->report, p->number, "actual", act, ac)) &&
                      (!pic[0].pixels || save_picture(o->report, p->number, "diff", &pic[0], NULL)) &&
                      (!pic[1].pixels || save_picture(o->report, p->number, "heatmap", &pic[1], NULL));
    }
    amp_image_free(&e);
    amp_image_free(&a);
    amp_image_free(&pic[0]);
    amp_image_free(&pic[1]);
    free(ge);
    free(ac);
}

/* Compares pairs until none is left. The metrics that run on the accelerator run on
 * a view of the worker's own, so that one worker's wait for its work does not wait
 * for another's as well (a view's wait is for all of its work). */
static void *worker(void *arg)
{
    folder_run *f = arg;
    const amp_image_compare_desc *d = f->o->desc;
    amp_accelerator *acc = d->metric != AMP_IMAGE_METRIC_CHANNEL && !d->view ? amp_accelerator_default() : NULL;
    amp_accelerator_view *view = acc ? amp_view_create(acc, AMP_QUEUING_AUTOMATIC) : NULL;
    for (size_t i; (i = atomic_fetch_add(&f->next, 1)) < f->count;) compare_pair(f, i, view);
    amp_view_destroy(&view);
    return NULL;
}

static int by_kind_then_name(const void *x, const void *y)
{
    const pair *a = x, *b = y;
    return a->kind != b->kind ? a->kind - b->kind : strcmp(a->name, b->name);
}

/* The pairs of the two sorted lists of names: both, golden only, actual only. */
static pair *match_names(char **g, long ng, char **a, long na, size_t *count)
{
    pair *p = calloc((size_t)(ng + na) + 1, sizeof *p);
    size_t n = 0;
    for (long i = 0, j = 0; p && (i < ng || j < na);) {
        int c = i == ng ? 1 : j == na ? -1 : strcmp(g[i], a[j]);
        p[n].kind = c == 0 ? PAIR_MATCH : c < 0 ? PAIR_MISSING : PAIR_NEW;
        p[n].number = n;
        p[n++].name = c <= 0 ? g[i] : a[j];
        if (c <= 0) i++;
        if (c >= 0) j++;
    }
    *count = n;
    return p;
}

static void xml_text(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", fp);
        else if (*s == '>') fputs("&gt;", fp);
        else if (*s == '&') fputs("&amp;", fp);
        else if (*s == '"') fputs("&quot;", fp);
        else fputc(*s, fp);
    }
}

static bool write_junit(const char *path, const pair *p, size_t n, const size_t *counts, double seconds)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "w");
    if (!fp) return false;
    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(fp, "<testsuites><testsuite name=\"ampvk diff\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
            n, counts[PAIR_DIFFERENT] + counts[PAIR_MISSING] + counts[PAIR_NEW], counts[PAIR_ERROR], seconds);
    for (size_t i = 0; i < n; i++) {
        fprintf(fp, "  <testcase classname=\"ampvk.diff\" name=\"");
        xml_text(fp, p[i].name);
        fprintf(fp, "\"");
        if (p[i].kind == PAIR_MATCH) {
            fprintf(fp, "/>\n");
            continue;
        }
        fprintf(fp, "><%s message=\"%s: ", p[i].kind == PAIR_ERROR ? "error" : "failure", kind_names[p[i].kind]);
        xml_text(fp, p[i].reason);
        fprintf(fp, "\"/></testcase>\n");
    }
    fprintf(fp, "</testsuite></testsuites>\n");
    bool ok = fclose(fp) == 0 && rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    return ok;
}

static void json_pairs(const pair *p, size_t n, const size_t *counts, const char *result)
{
    printf("{\"result\": \"%s\", \"pairs\": %zu", result, n);
    for (int k = 0; k <= PAIR_MATCH; k++) printf(", \"%s\": %zu", kind_names[k], counts[k]);
    printf(", \"results\": [");
    for (size_t i = 0; i < n; i++) {
        printf("%s{\"name\": ", i ? ", " : "");
        tool_json_string(p[i].name);
        printf(", \"result\": \"%s\"", kind_names[p[i].kind]);
        if (p[i].kind == PAIR_MATCH || (p[i].kind == PAIR_DIFFERENT && p[i].r.texels))
            printf(", \"pixels\": %zu, \"differing_pixels\": %zu, \"max_score\": %.9g, \"mean_score\": %.9g, "
                   "\"ssim\": %.9g", p[i].r.texels, p[i].r.differing_texels, p[i].r.max_score, p[i].r.mean_score,
                   p[i].r.ssim);
        if (p[i].reason[0]) {
            printf(", \"reason\": ");
            tool_json_string(p[i].reason);
        }
        printf("}");
    }
    printf("]}\n");
}

/* The report: a page that needs nothing but itself and its images (no network). */
static bool write_report(const diff_folder_options *o, const pair *p, size_t n, const size_t *counts,
                         const char *result)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/index.html", o->report);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "w");
    if (!fp) return false;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ampvk diff: ", fp);
    xml_text(fp, result);
    fputs("</title>\n<style>\n"
          "body{font:14px system-ui,sans-serif;margin:1em 2em;background:#fafafa;color:#222}\n"
          ".summary span{display:inline-block;margin-right:1em;padding:.2em .6em;border-radius:4px;background:#eee}\n"
          ".summary .bad{background:#f6d0d0}.summary .good{background:#d4f0d4}\n"
          "section{background:#fff;border:1px solid #ddd;border-radius:6px;margin:1em 0;padding:.6em 1em}\n"
          "section.match{border-left:6px solid #4a4}section.different,section.error{border-left:6px solid #c33}\n"
          "section.missing,section.new{border-left:6px solid #c93}\n"
          ".images{display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start}\n"
          ".images figure{margin:0;overflow:auto;max-width:19%;max-height:70vh}\n"
          ".stack{position:relative}.stack img.top{position:absolute;left:0;top:0}\n"
          ".images img{image-rendering:pixelated;transform-origin:0 0;display:block}\n"
          ".controls{margin:.4em 0}\n"
          "</style></head><body>\n<h1>ampvk diff</h1>\n<p class=\"paths\">golden ", fp);
    xml_text(fp, o->golden);
    fputs(", actual ", fp);
    xml_text(fp, o->actual);
    fprintf(fp, "</p>\n<p class=\"summary\" id=\"summary\" data-result=\"%s\"><span class=\"%s\">%s</span>", result,
            strcmp(result, "match") == 0 ? "good" : "bad", result);
    for (int k = 0; k <= PAIR_MATCH; k++)
        fprintf(fp, "<span class=\"%s\" data-kind=\"%s\">%zu %s</span>", k == PAIR_MATCH ? "good" : counts[k] ? "bad" : "",
                kind_names[k], counts[k], kind_names[k]);
    fputs("</p>\n<p class=\"controls\">zoom <input type=\"range\" id=\"zoom\" min=\"1\" max=\"8\" value=\"1\"> "
          "<label><input type=\"checkbox\" id=\"matches\"> show matching pairs</label></p>\n",
          fp);
    for (size_t k = 0; k < n; k++) {
        const pair *q = &p[k];
        fprintf(fp, "<section class=\"pair %s\" data-name=\"", kind_names[q->kind]);
        xml_text(fp, q->name);
        fprintf(fp, "\" data-result=\"%s\"%s>\n<h2>", kind_names[q->kind], q->kind == PAIR_MATCH ? " hidden" : "");
        xml_text(fp, q->name);
        fprintf(fp, " <small>%s</small></h2>\n", kind_names[q->kind]);
        if (q->reason[0]) {
            fputs("<p class=\"reason\">", fp);
            xml_text(fp, q->reason);
            fputs("</p>\n", fp);
        }
        if (q->r.texels && o->desc->metric == AMP_IMAGE_METRIC_CHANNEL)
            fprintf(fp, "<p class=\"metrics\">%zu of %zu pixels differ; largest difference %.9g, PSNR %.2f dB</p>\n",
                    q->r.differing_texels, q->r.texels, q->r.max_abs_diff, q->r.psnr);
        else if (q->r.texels && o->desc->metric == AMP_IMAGE_METRIC_SSIM)
            fprintf(fp, "<p class=\"metrics\">%zu of %zu pixels differ; SSIM %.6f, 1 - SSIM max %.6g</p>\n",
                    q->r.differing_texels, q->r.texels, q->r.ssim, q->r.max_score);
        else if (q->r.texels && o->desc->metric == AMP_IMAGE_METRIC_FLIP)
            fprintf(fp, "<p class=\"metrics\">%zu of %zu pixels differ; FLIP mean %.6f, weighted median %.6f, "
                    "max %.6f</p>\n", q->r.differing_texels, q->r.texels, q->r.mean_score, q->r.weighted_median,
                    q->r.max_score);
        else if (q->r.texels)
            fprintf(fp, "<p class=\"metrics\">%zu of %zu pixels differ; score max %.6g, mean %.6g</p>\n",
                    q->r.differing_texels, q->r.texels, q->r.max_score, q->r.mean_score);
        if (q->pictures) {
            size_t i = q->number;
            fprintf(fp, "<p class=\"controls\"><button class=\"blink\">blink expected / actual</button> "
                        "<input type=\"range\" class=\"slider\" min=\"0\" max=\"100\" value=\"50\"> "
                        "slide actual over expected</p>\n<div class=\"images\">");
            const char *kinds[4] = {"expected", "actual", "diff", "heatmap"};
            for (int j = 0; j < 4; j++) {
                char file[4096];
                snprintf(file, sizeof file, "%s/images/%zu.%s.png", o->report, i, kinds[j]);
                struct stat st;
                if (stat(file, &st) != 0) continue;
                fprintf(fp, "<figure class=\"%s\"><figcaption>%s</figcaption><img src=\"images/%zu.%s.png\" alt=\"%s\">"
                            "</figure>",
                        kinds[j], kinds[j], i, kinds[j], kinds[j]);
            }
            char ex[4096], ac[4096];
            snprintf(ex, sizeof ex, "%s/images/%zu.expected.png", o->report, i);
            snprintf(ac, sizeof ac, "%s/images/%zu.actual.png", o->report, i);
            struct stat st;
            if (stat(ex, &st) == 0 && stat(ac, &st) == 0)
                fprintf(fp, "<figure class=\"compare\"><figcaption>actual over expected</figcaption><div class=\"stack\">"
                            "<img src=\"images/%zu.expected.png\" alt=\"expected\"><img class=\"top\" "
                            "src=\"images/%zu.actual.png\" alt=\"actual\" style=\"clip-path:inset(0 0 0 50%%)\"></div>"
                            "</figure>",
                        i, i);
            fputs("</div>\n", fp);
        }
        fputs("</section>\n", fp);
    }
    fputs("<script>\n"
          "const zoom=document.getElementById('zoom');\n"
          "zoom.oninput=()=>document.querySelectorAll('.images img').forEach(i=>i.style.transform='scale('+zoom.value+')');\n"
          "document.getElementById('matches').onchange=e=>document.querySelectorAll('section.match')"
          ".forEach(s=>s.hidden=!e.target.checked);\n"
          "document.querySelectorAll('section.pair').forEach(s=>{\n"
          "  const ex=s.querySelector('.expected img'),ac=s.querySelector('.actual img'),top=s.querySelector('img.top');\n"
          "  const b=s.querySelector('.blink'),sl=s.querySelector('.slider');\n"
          "  if(!ex||!ac||!top)return;\n"
          "  const src=[ex.src,ac.src];let shown=0;\n"
          "  b.onclick=()=>{shown^=1;ex.src=src[shown];ex.parentNode.querySelector('figcaption').textContent="
          "shown?'actual (blink)':'expected';};\n"
          "  sl.oninput=()=>{top.style.clipPath='inset(0 0 0 '+sl.value+'%)';};\n"
          "});\n"
          "</script>\n</body></html>\n",
          fp);
    bool ok = fclose(fp) == 0 && rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    return ok;
}

int ampvk_diff_folders(const diff_folder_options *o)
{
    char **g = NULL, **a = NULL;
    long ng = tool_list_images(o->golden, true, &g), na = tool_list_images(o->actual, true, &a);
    if (ng < 0 || na < 0) {
        tool_error("diff", "cannot read the folder %s: %s", ng < 0 ? o->golden : o->actual, strerror(errno));
        return 2;
    }
    if (ng == 0 && na == 0) {
        tool_error("diff", "no images in %s or %s (PNG, JPEG, OpenEXR, WebP, TIFF, HDR, BMP, TGA or PSD, by extension)",
                   o->golden, o->actual);
        free(g);
        free(a);
        return 2;
    }
    double start = tool_now();
    folder_run f = {.o = o};
    f.pairs = match_names(g, ng, a, na, &f.count);
    char report_images[4096];
    if (o->report) snprintf(report_images, sizeof report_images, "%s/images/x", o->report);
    if (!f.pairs || (o->report && !make_parent(report_images))) {
        tool_error("diff", f.pairs ? "cannot create the report folder %s: %s" : "out of memory%s%s",
                   f.pairs ? o->report : "", f.pairs ? strerror(errno) : "");
        free(f.pairs);
        return 2;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nthreads = (size_t)(cores > 0 ? cores : 1);
    if (nthreads > f.count) nthreads = f.count;
    pthread_t *threads = calloc(nthreads, sizeof *threads);
    size_t started = 0;
    for (size_t i = 1; threads && i < nthreads; i++)
        if (pthread_create(&threads[i], NULL, worker, &f) == 0) started = i;
    worker(&f);
    for (size_t i = 1; i <= started; i++) pthread_join(threads[i], NULL);
    free(threads);
    /* the report's order: failures first, each kind by name */
    qsort(f.pairs, f.count, sizeof *f.pairs, by_kind_then_name);
    size_t counts[PAIR_MATCH + 1] = {0};
    for (size_t i = 0; i < f.count; i++) counts[f.pairs[i].kind]++;
    int code = counts[PAIR_ERROR] ? 2 : counts[PAIR_MATCH] == f.count ? 0 : 1;
    /* --update: the different and new actual images become the goldens */
    size_t updated = 0;
    for (size_t i = 0; o->update && i < f.count; i++) {
        pair *p = &f.pairs[i];
        if (p->kind != PAIR_DIFFERENT && p->kind != PAIR_NEW) continue;
        char *src = path_of(o->actual, p->name), *dst = path_of(o->golden, p->name), why[1024];
        if (src && dst && copy_file(src, dst, why, sizeof why)) {
            if (!o->json) printf("%s %s\n", p->kind == PAIR_NEW ? "added:  " : "updated:", p->name);
            updated++;
        } else {
            tool_error("diff", "--update: %s", src && dst ? why : "out of memory");
            code = 2;
        }
        free(src);
        free(dst);
    }
    if (o->update && code == 1 && updated == counts[PAIR_DIFFERENT] + counts[PAIR_NEW] && !counts[PAIR_MISSING])
        code = 0;
    const char *result = code == 0 ? "match" : code == 1 ? "different" : "error";
    if (o->json) {
        json_pairs(f.pairs, f.count, counts, result);
    } else {
        for (size_t i = 0; i < f.count; i++)
            if (f.pairs[i].kind != PAIR_MATCH)
                printf("%-9s %s: %s\n", kind_names[f.pairs[i].kind], f.pairs[i].name, f.pairs[i].reason);
        printf("%zu pairs in %.2f s: %zu match, %zu different, %zu errors, %zu missing, %zu new\n", f.count,
               tool_now() - start, counts[PAIR_MATCH], counts[PAIR_DIFFERENT], counts[PAIR_ERROR],
               counts[PAIR_MISSING], counts[PAIR_NEW]);
        if (o->update) printf("goldens updated: %zu\n", updated);
        printf("result: %s\n", code == 0 ? "MATCH" : code == 1 ? "DIFFERENT" : "ERROR");
    }
    if (o->junit && !write_junit(o->junit, f.pairs, f.count, counts, tool_now() - start)) {
        tool_error("diff", "cannot write the JUnit file %s: %s", o->junit, strerror(errno));
        code = 2;
    }
    if (o->report && !write_report(o, f.pairs, f.count, counts, result)) {
        tool_error("diff", "cannot write the report %s/index.html: %s", o->report, strerror(errno));
        code = 2;
    }
    if (o->report && !o->json) printf("report: %s/index.html\n", o->report);
    for (long i = 0; i < ng; i++) free(g[i]);
    for (long i = 0; i < na; i++) free(a[i]);
    free(g);
    free(a);
    free(f.pairs);
    return code;
}
