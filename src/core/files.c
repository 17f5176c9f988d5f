/* Whole-file reads and atomic writes, and the directory of ampvk's on-disk caches.
 * These leave no message: callers know what the file was for and say so. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

int amp__file_read(const char *path, char **data, size_t *size, const char **step)
{
    if (step) *step = "open";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    if (step) *step = "read";
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return EISDIR;
    }
    size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536, n = 0;
    char *buf = malloc(cap);
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        if (n + 1 >= cap) { /* room for the terminating zero */
            char *b = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!b) {
                err = ENOMEM;
                break;
            }
            buf = b;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) err = errno;
        if (r <= 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = 0;
    *data = buf;
    if (size) *size = n;
    return 0;
}

int amp__file_write(const char *path, const void *data, size_t size, bool durable, const char **step)
{
    if (step) *step = "create";
    static atomic_uint serial;
    size_t len = strlen(path);
    char *tmp = malloc(len + 48);
    if (!tmp) return ENOMEM;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 64; tries++) {
        snprintf(tmp, len + 48, "%s.tmp-%ld-%u", path, (long)getpid(), atomic_fetch_add(&serial, 1));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int err = errno;
        free(tmp);
        return err;
    }
    if (step) *step = "write";
    const unsigned char *p = data;
    int err = 0;
    for (size_t done = 0; done < size && !err;) {
        ssize_t w = write(fd, p + done, size - done);
        if (w < 0 && errno != EINTR) err = errno;
        if (w > 0) done += (size_t)w;
    }
    if (durable && !err && fsync(fd) != 0 && errno != EINVAL && errno != EROFS) err = errno;
    if (close(fd) != 0 && !err) err = errno;
    if (!err && rename(tmp, path) != 0) err = errno;
    if (err) unlink(tmp);
    free(tmp);
    return err;
}

char *amp__path_join(const char *dir, size_t dir_len, const char *name)
{
    size_t n = strlen(name);
    char *r = malloc(dir_len + n + 2);
    if (!r) return NULL;
    memcpy(r, dir, dir_len);
    size_t at = dir_len;
    if (dir_len && dir[dir_len - 1] != '/') r[at++] = '/';
    memcpy(r + at, name, n + 1);
    return r;
}

bool amp__cache_enabled(void)
{
    const char *e = getenv("AMPVK_CACHE");
    return !(e && strcmp(e, "0") == 0);
}

bool amp__debug_mode(void)
{
    const char *e = getenv("AMPVK_DEBUG");
    return e && strcmp(e, "1") == 0;
}

char *amp__cache_path(const char *name)
{
    if (!amp__cache_enabled()) return NULL;
    char base[1024];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) snprintf(base, sizeof base, "%s", xdg);
    else if (home && *home) snprintf(base, sizeof base, "%s/.cache", home);
    else return NULL;
    mkdir(base, 0755);
    char *dir = amp__path_join(base, strlen(base), "ampvk");
    if (dir && mkdir(dir, 0755) != 0 && errno != EEXIST) {
        free(dir);
        return NULL;
    }
    char *p = dir ? amp__path_join(dir, strlen(dir), name) : NULL;
    free(dir);
    return p;
}
