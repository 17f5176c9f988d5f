/* tool_dist (dist.h) for a run of one process: the tool built without MPI. The MPI
 * version is dist_mpi.c. */
#include <stdlib.h>
#include <string.h>

#include "dist.h"

int tool_dist_init(tool_dist *d)
{
    *d = (tool_dist){.rank = 0, .size = 1, .local_rank = 0, .local_size = 1};
    return 0;
}

void tool_dist_progress(tool_dist *d, size_t done, size_t failed, size_t *done_all, size_t *failed_all)
{
    (void)d;
    *done_all = done;
    *failed_all = failed;
}

char *tool_dist_gather_text(tool_dist *d, const char *text)
{
    (void)d;
    return strdup(text ? text : "");
}

int tool_dist_max_code(tool_dist *d, int code)
{
    (void)d;
    return code;
}

void tool_dist_finalize(tool_dist *d) { (void)d; }
