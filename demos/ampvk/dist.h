/* The processes of one `ampvk filter` run: a single process, or the ranks of an MPI
 * job (`mpirun -np N ampvk filter IN OUT ...`) when the tool was built with Open MPI.
 * Only the calling (main) thread makes these calls. Without MPI, or when the program
 * was not started by mpirun, the run is rank 0 of 1 and every call is trivial. */
#ifndef AMPVK_TOOL_DIST_H
#define AMPVK_TOOL_DIST_H

#include <stddef.h>

typedef struct tool_dist {
    int rank, size;             /* this process's rank and the number of ranks */
    int local_rank, local_size; /* the same among the ranks on this machine */
    void *impl;                 /* the MPI implementation's state */
} tool_dist;

/* Joins the MPI job when there is one (mpirun's environment), else makes *d rank 0
 * of 1. Returns 0, or prints why and returns 1. */
int tool_dist_init(tool_dist *d);

/* Progress across ranks, cumulative counts: every rank reports its own done and
 * failed files (a non-blocking send at most every 100 ms from ranks other than 0);
 * on rank 0, *done_all and *failed_all receive the sums of the latest reports of
 * all ranks, its own included (on other ranks, their own counts). */
void tool_dist_progress(tool_dist *d, size_t done, size_t failed, size_t *done_all, size_t *failed_all);

/* Gathers text (one line per failed file, each ending in '\n') from every rank to
 * rank 0 in rank order, after each rank's last progress report; returns the
 * concatenation, malloc'ed, on rank 0 and NULL elsewhere (and when out of memory). */
char *tool_dist_gather_text(tool_dist *d, const char *text);

/* The largest exit code over all ranks (every rank gets it). */
int tool_dist_max_code(tool_dist *d, int code);

/* Leaves the MPI job. */
void tool_dist_finalize(tool_dist *d);

#endif
