/* The kernel cache across processes: a second process finds its kernels ready
 * without compiling; corrupt or foreign cache files are ignored. The test runs
 * itself as child processes over a fresh cache directory. */
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static const char *const bodies[] = {"o(idx) = idx * 2;", "o(idx) = idx + 7;", "o(idx) = idx * idx;"};
static const int expect[3][4] = {{0, 2, 4, 6}, {7, 8, 9, 10}, {0, 1, 4, 9}};

/* Child: builds the three kernels, checks results, prints compile count and cache hits. */
static int child(void)
{
    test_begin();
    amp_accelerator_view *v = test_view();
    int hits = 0;
    for (int i = 0; i < 3; i++) {
        int out[4] = {0};
        amp_array_view *vo = amp_array_view_create(amp_extent1(4), AMP_INT, 0, out);
        amp_kernel *k = amp_kernel_create(v, &(amp_kernel_desc){.params = "array_view<int, 1> o", .body = bodies[i]});
        REQUIRE(k);
        hits += amp_kernel_from_cache(k);
        REQUIRE_OK(amp_parallel_for_each(v, amp_extent1(4), k, AMP_ARGS(AMP_VIEW("o", vo))));
        REQUIRE_OK(amp_array_view_synchronize(vo));
        REQUIRE_ARRAY_INT(out, expect[i], 4);
        amp_kernel_destroy(&k);
        amp_array_view_destroy(&vo);
    }
    printf("compiles=%d hits=%d\n", (int)amp_kernel_compile_count(), hits);
    return test_end();
}

/* Runs this program as a child with the cache at dir; returns its compile count
 * and hits through out parameters, or -1 on failure. */
static int run_child(const char *self, const char *dir, const char *cache_flag, int *compiles, int *hits)
{
    char cmd[1024];
    /* the children's leaks are the parent's too; LeakSanitizer's exit-time scan of a
     * child (ptrace over lavapipe's threads) has crashed under load, so only the
     * parent runs it */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 XDG_CACHE_HOME='%s' AMPVK_CACHE=%s '%s' child", dir,
             cache_flag, self);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char line[256];
    *compiles = *hits = -1;
    while (fgets(line, sizeof line, p)) sscanf(line, "compiles=%d hits=%d", compiles, hits);
    int st = pclose(p);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Overwrites every cache file of the given suffix with garbage (or truncates it). */
static int damage(const char *dir, const char *suffix, bool truncate)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ampvk", dir);
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len < sl || strcmp(e->d_name + len - sl, suffix) != 0) continue;
        char file[2048];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *f = fopen(file, truncate ? "r+b" : "wb");
        if (!f) continue;
        if (truncate) {
            fseek(f, 0, SEEK_END);
            long size = ftell(f);
            fclose(f);
            if (truncate) (void)!truncate64(file, size / 2);
        } else {
            for (int i = 0; i < 300; i++) fputc((i * 37) & 0xff, f);
            fclose(f);
        }
        n++;
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) return child();
    test_begin();
    char dir[] = "/tmp/ampvk-cache-XXXXXX";
    REQUIRE(mkdtemp(dir));
    int compiles, hits;
    /* first process: everything compiles */
    REQUIRE_INT(run_child(argv[0], dir, "1", &compiles, &hits), 0);
    REQUIRE_INT(compiles, 3);
    REQUIRE_INT(hits, 0);
    /* second process: everything comes from the disk */
    REQUIRE_INT(run_child(argv[0], dir, "1", &compiles, &hits), 0);
    REQUIRE_INT(compiles, 0);
    REQUIRE_INT(hits, 3);
    /* AMPVK_CACHE=0: the cache is not used */
    REQUIRE_INT(run_child(argv[0], dir, "0", &compiles, &hits), 0);
    REQUIRE_INT(compiles, 3);
    /* corrupt SPIR-V entries and a foreign pipeline cache are ignored, then rewritten */
    REQUIRE_INT(damage(dir, ".spv", false), 3);
    REQUIRE(damage(dir, ".bin", false) >= 1);
    REQUIRE_INT(run_child(argv[0], dir, "1", &compiles, &hits), 0);
    REQUIRE_INT(compiles, 3);
    REQUIRE_INT(hits, 0);
    REQUIRE_INT(run_child(argv[0], dir, "1", &compiles, &hits), 0);
    REQUIRE_INT(compiles, 0);
    /* truncated entries too */
    REQUIRE_INT(damage(dir, ".spv", true), 3);
    REQUIRE_INT(run_child(argv[0], dir, "1", &compiles, &hits), 0);
    REQUIRE_INT(compiles, 3);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    REQUIRE_INT(system(cmd), 0);
    return test_end();
}
