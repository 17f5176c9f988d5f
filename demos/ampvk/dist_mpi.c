/* tool_dist (dist.h) over Open MPI: `mpirun -np N ampvk filter IN OUT ...`.
 *
 * MPI is joined only when mpirun started the process (its environment holds
 * OMPI_COMM_WORLD_SIZE or PMIX_RANK): a plain `ampvk filter` neither calls MPI_Init
 * nor prints anything of MPI's. Only the main thread calls MPI (MPI_THREAD_FUNNELED);
 * the worker threads of filter.c never do.
 *
 * Progress: ranks other than 0 send their cumulative counts {done, failed, final} to
 * rank 0 with MPI_Isend, one request in flight at a time and at most every 100 ms;
 * rank 0 drains them with MPI_Iprobe/MPI_Recv whenever it asks for the totals. Each
 * rank sends exactly one final report (final = 1), the last message it sends on the
 * progress tag, when it gathers the failure text (or at the latest when it leaves),
 * and rank 0 receives every rank's final report before it gathers: as messages between
 * two ranks arrive in order, nothing is left unreceived at MPI_Finalize and no
 * request is left open.
 *
 * MPI errors return (MPI_ERRORS_RETURN) and are reported as a message; the run's exit
 * code becomes at least 1. Nothing here calls MPI_Abort.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "dist.h"

#define TAG_PROGRESS 1
#define SEND_INTERVAL 0.1 /* seconds between two progress messages of a rank */

typedef struct mpi_dist {
    MPI_Comm comm; /* a duplicate of MPI_COMM_WORLD: the tool's messages only */
    bool failed;   /* an MPI call failed: the exit code is at least 1 */
    /* ranks other than 0: the message in flight, and the latest counts */
    MPI_Request request;
    uint64_t message[3]; /* done, failed, final; untouched while request is open */
    uint64_t done, fails;
    double last_send;
    bool final_sent;
    /* rank 0: every rank's latest report, and who has sent its final one; the
     * lengths and offsets of the ranks' text */
    uint64_t *rank_done, *rank_failed;
    bool *rank_final;
    int finals;
    int *lens, *displs;
} mpi_dist;

/* Frees m (NULL: nothing) and its arrays; not its communicator. */
static void free_state(mpi_dist *m)
{
    if (!m) return;
    free(m->rank_done);
    free(m->rank_failed);
    free(m->rank_final);
    free(m->lens);
    free(m->displs);
    free(m);
}

/* Reports a failed MPI call as one line on stderr and marks the run failed; returns
 * whether rc is MPI_SUCCESS. */
static bool mpi_ok(mpi_dist *m, int rc, const char *what)
{
    if (rc == MPI_SUCCESS) return true;
    char msg[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) snprintf(msg, sizeof msg, "error %d", rc);
    fprintf(stderr, "ampvk filter: MPI: %s: %s\n", what, msg);
    if (m) m->failed = true;
    return false;
}

/* True when mpirun (Open MPI's, or any PMIx launcher) started this process. */
static bool started_by_mpirun(void) { return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK"); }

int tool_dist_init(tool_dist *d)
{
    *d = (tool_dist){.rank = 0, .size = 1, .local_rank = 0, .local_size = 1};
    if (!started_by_mpirun()) return 0;
    int provided = MPI_THREAD_SINGLE;
    if (!mpi_ok(NULL, MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread")) return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (provided < MPI_THREAD_FUNNELED) {
        /* every rank has the same library: all of them leave here */
        fprintf(stderr, "ampvk filter: MPI: the library does not allow threads (MPI_THREAD_FUNNELED)\n");
        MPI_Finalize();
        return 1;
    }
    mpi_dist *m = calloc(1, sizeof *m);
    if (m) m->comm = MPI_COMM_NULL;
    int rank = 0, size = 1, local_rank = 0, local_size = 1;
    MPI_Comm local = MPI_COMM_NULL;
    bool ok = m && mpi_ok(m, MPI_Comm_dup(MPI_COMM_WORLD, &m->comm), "MPI_Comm_dup");
    if (ok) {
        MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
        ok = mpi_ok(m, MPI_Comm_rank(m->comm, &rank), "MPI_Comm_rank") &&
             mpi_ok(m, MPI_Comm_size(m->comm, &size), "MPI_Comm_size") &&
             mpi_ok(m, MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local),
                    "MPI_Comm_split_type") &&
             mpi_ok(m, MPI_Comm_rank(local, &local_rank), "MPI_Comm_rank") &&
             mpi_ok(m, MPI_Comm_size(local, &local_size), "MPI_Comm_size");
    }
    if (local != MPI_COMM_NULL) MPI_Comm_free(&local);
    if (ok && rank == 0) {
        m->rank_done = calloc((size_t)size, sizeof *m->rank_done);
        m->rank_failed = calloc((size_t)size, sizeof *m->rank_failed);
        m->rank_final = calloc((size_t)size, sizeof *m->rank_final);
        m->lens = calloc((size_t)size, sizeof *m->lens);
        m->displs = calloc((size_t)size, sizeof *m->displs);
        if (!m->rank_done || !m->rank_failed || !m->rank_final || !m->lens || !m->displs) {
            fprintf(stderr, "ampvk filter: out of host memory\n");
            ok = false;
        }
    }
    /* all ranks agree whether to go on, so that none waits for one that left */
    int all_ok = ok, ok_everywhere = 0;
    if (MPI_Allreduce(&all_ok, &ok_everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
        ok_everywhere = 0;
    if (!ok_everywhere) {
        if (m && m->comm != MPI_COMM_NULL) MPI_Comm_free(&m->comm);
        free_state(m);
        MPI_Finalize();
        return 1;
    }
    m->request = MPI_REQUEST_NULL;
    m->last_send = -1;
    if (rank == 0) m->finals = 1; /* rank 0 reports to itself */
    *d = (tool_dist){.rank = rank, .size = size, .local_rank = local_rank, .local_size = local_size, .impl = m};
    return 0;
}

/* Rank 0: takes one progress message from `source` (MPI_ANY_SOURCE: any rank), with
 * blocking; records its counts. False if MPI failed. */
static bool receive_report(mpi_dist *m, int source)
{
    uint64_t msg[3];
    MPI_Status st;
    if (!mpi_ok(m, MPI_Recv(msg, 3, MPI_UINT64_T, source, TAG_PROGRESS, m->comm, &st), "MPI_Recv")) return false;
    int r = st.MPI_SOURCE;
    m->rank_done[r] = msg[0];
    m->rank_failed[r] = msg[1];
    if (msg[2] && !m->rank_final[r]) {
        m->rank_final[r] = true;
        m->finals++;
    }
    return true;
}

/* Rank 0: receives every progress message that has arrived, without waiting. */
static void drain_reports(mpi_dist *m)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (!mpi_ok(m, MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROGRESS, m->comm, &flag, &st), "MPI_Iprobe") || !flag) return;
        if (!receive_report(m, st.MPI_SOURCE)) return;
    }
}

/* Rank 0: receives until every rank's final report is in (the ranks' last messages). */
static void receive_finals(mpi_dist *m, int size)
{
    while (m->finals < size)
        if (!receive_report(m, MPI_ANY_SOURCE)) return;
}

/* Other ranks: completes the message in flight, then sends the final report with the
 * latest counts (blocking: 24 bytes, and rank 0 is receiving them). Once. */
static void send_final(mpi_dist *m)
{
    if (m->final_sent) return;
    m->final_sent = true;
    if (m->request != MPI_REQUEST_NULL) mpi_ok(m, MPI_Wait(&m->request, MPI_STATUS_IGNORE), "MPI_Wait");
    uint64_t msg[3] = {m->done, m->fails, 1};
    mpi_ok(m, MPI_Send(msg, 3, MPI_UINT64_T, 0, TAG_PROGRESS, m->comm), "MPI_Send");
}

void tool_dist_progress(tool_dist *d, size_t done, size_t failed, size_t *done_all, size_t *failed_all)
{
    mpi_dist *m = d->impl;
    *done_all = done;
    *failed_all = failed;
    if (!m) return;
    if (d->rank != 0) {
        bool changed = done != m->done || failed != m->fails;
        m->done = done;
        m->fails = failed;
        if (m->final_sent || !changed) return;
        double now = MPI_Wtime();
        if (now - m->last_send < SEND_INTERVAL) return;
        if (m->request != MPI_REQUEST_NULL) {
            int complete = 0;
            if (!mpi_ok(m, MPI_Test(&m->request, &complete, MPI_STATUS_IGNORE), "MPI_Test") || !complete) return;
        }
        m->message[0] = done;
        m->message[1] = failed;
        m->message[2] = 0;
        if (mpi_ok(m, MPI_Isend(m->message, 3, MPI_UINT64_T, 0, TAG_PROGRESS, m->comm, &m->request), "MPI_Isend"))
            m->last_send = now;
        return;
    }
    drain_reports(m);
    for (int r = 1; r < d->size; r++) {
        *done_all += (size_t)m->rank_done[r];
        *failed_all += (size_t)m->rank_failed[r];
    }
}

char *tool_dist_gather_text(tool_dist *d, const char *text)
{
    mpi_dist *m = d->impl;
    if (!text) text = "";
    if (!m) return strdup(text);
    /* the progress messages first: each rank's last one is its final report */
    if (d->rank == 0)
        receive_finals(m, d->size);
    else
        send_final(m);

    size_t n = strlen(text);
    int len = n > (size_t)(INT_MAX / d->size) ? INT_MAX / d->size : (int)n; /* the total must fit an int */
    int total = 0, have = 1;
    char *all = NULL;
    /* the lengths, and whether rank 0 has the room for the text; else no text moves */
    if (!mpi_ok(m, MPI_Gather(&len, 1, MPI_INT, m->lens, 1, MPI_INT, 0, m->comm), "MPI_Gather")) have = 0;
    if (d->rank == 0 && have) {
        for (int r = 0; r < d->size; r++) {
            m->displs[r] = total;
            total += m->lens[r];
        }
        all = malloc((size_t)total + 1);
        if (!all) have = 0;
    }
    if (!mpi_ok(m, MPI_Bcast(&have, 1, MPI_INT, 0, m->comm), "MPI_Bcast")) have = 0;
    if (have) {
        int rc = MPI_Gatherv(text, len, MPI_CHAR, all, m->lens, m->displs, MPI_CHAR, 0, m->comm);
        if (!mpi_ok(m, rc, "MPI_Gatherv")) {
            free(all);
            all = NULL;
        } else if (all) {
            all[total] = '\0';
        }
    } else if (d->rank == 0) {
        fprintf(stderr, "ampvk filter: the failures of the other ranks could not be gathered\n");
        m->failed = true;
    }
    return all;
}

int tool_dist_max_code(tool_dist *d, int code)
{
    mpi_dist *m = d->impl;
    if (!m) return code;
    if (m->failed && code < 1) code = 1;
    int max = code;
    if (!mpi_ok(m, MPI_Allreduce(&code, &max, 1, MPI_INT, MPI_MAX, m->comm), "MPI_Allreduce"))
        max = code > 1 ? code : 1;
    return max;
}

void tool_dist_finalize(tool_dist *d)
{
    mpi_dist *m = d->impl;
    if (!m) return;
    /* normally done by tool_dist_gather_text already; no message or request may outlive MPI */
    if (d->rank == 0)
        receive_finals(m, d->size);
    else
        send_final(m);
    MPI_Comm_free(&m->comm);
    MPI_Finalize();
    free_state(m);
    d->impl = NULL;
}
