/*
 * checkpoint.h - what a method driver calls to checkpoint a run (options
 * state_path and state_interval; DESIGN.md section 12): at its start, to
 * resume from the file when there is one; at the end of an iteration, to
 * ask whether a write is due and to write its payload (state_payload.h).
 * The driver knows its payload, not files: the identity of the run, the
 * clock of the interval and the file (state_file.h) are kept here.
 *
 * A checkpoint belongs to the call's method and pagani_call_identity,
 * except that its options' fingerprint leaves out max_evaluations and
 * max_iterations: they only end a run, so a run they stopped resumes with
 * them raised and ends with the bits of the run they did not stop.
 */
#ifndef PAGANI_CHECKPOINT_H
#define PAGANI_CHECKPOINT_H

#include "internal.h"
#include "state/state_payload.h"
#include "state/state_file.h"

typedef struct pagani_checkpoint {
    pagani_context *ctx;
    const char *path;          /* NULL: the run writes none */
    const char *given;         /* options.state_path (the ranks' stem) */
    char *rank_path;           /* on an MPI context: path.rank<k> (owned) */
    int unnamed;               /* rank_path could not be had */
    int rank, ranks;           /* this process among those that write */
    double interval;           /* seconds; 0: only when it ends */
    double last;               /* when it last wrote (or started) */
    pagani_method method;
    pagani_call_identity id;
} pagani_checkpoint;

/* The checkpoint of the run on ctx of batch with f and opt (opt->method
 * chosen): none when opt->state_path is NULL. On an MPI context each rank
 * k of n has its own file, state_path with ".rank<k>" appended, whose
 * header says k and n (a resume on another number of ranks is refused;
 * no memory for that name is pagani_checkpoint_resume's
 * PAGANI_ERR_NO_MEMORY). Free with pagani_checkpoint_close. */
void pagani_checkpoint_open(pagani_checkpoint *cp, pagani_context *ctx,
                            const pagani_integrand *f,
                            const struct pagani_batch *batch,
                            const pagani_options *opt);

/* Frees what pagani_checkpoint_open made. */
void pagani_checkpoint_close(pagani_checkpoint *cp);

/* Reads the file, when the run has one and it exists: PAGANI_OK with
 * in->data NULL when there is nothing to resume, else with the payload
 * in *in (free in->data with free()); PAGANI_ERR_STATE (the file is not
 * this run's, or is damaged; or, among ranks running one driver, some
 * rank has a file and another none) and the read's other errors, the
 * same on every such rank. */
int pagani_checkpoint_resume(pagani_context *ctx, const pagani_checkpoint *cp,
                             pagani_state_in *in);

/* Whether the interval has passed since the last write (never with
 * interval 0 or no file); among ranks running one driver, since any
 * one's. */
int pagani_checkpoint_due(const pagani_checkpoint *cp);

/* Writes the payload (out->failed: PAGANI_ERR_NO_MEMORY) and restarts the
 * interval; PAGANI_OK with no file. Among ranks running one driver, each
 * writes its own and all return the same code. */
int pagani_checkpoint_write(pagani_context *ctx, pagani_checkpoint *cp,
                            const pagani_state_out *out);

/* The same read streamed (state_file.h's reader), for a payload read a
 * piece at a time: *r NULL (PAGANI_OK) when the run has no file or it
 * does not exist; else read with pagani_state_next and end with
 * pagani_state_close, which checks the checksum. Its code is agreed as
 * pagani_checkpoint_resume's (*r NULL unless PAGANI_OK); what the driver
 * finds in the payload it agrees on with pagani_checkpoint_agree. */
int pagani_checkpoint_open_read(pagani_context *ctx, const pagani_checkpoint *cp,
                                pagani_state_reader **r);

/* The same write streamed (state_file.h's writer), for a payload of
 * `bytes` bytes made a piece at a time: begin (*w NULL, PAGANI_OK,
 * without a file), pagani_state_append each piece, then finish with the
 * code of making them (another than PAGANI_OK: the file stays as it
 * was); finish restarts the interval. Call finish even when begin
 * failed (w NULL: it returns rc): among ranks running one driver it
 * returns the same code on all. */
int pagani_checkpoint_begin(pagani_context *ctx, const pagani_checkpoint *cp,
                            size_t bytes, pagani_state_writer **w);
int pagani_checkpoint_finish(pagani_context *ctx, pagani_checkpoint *cp,
                             pagani_state_writer *w, int rc);

/* rc agreed among the ranks that run cp's driver together (the lowest
 * failing rank's code, with its message); rc itself on one process or
 * in a rank's share of a batch. */
int pagani_checkpoint_agree(const pagani_checkpoint *cp, int rc);

/* What a resume found, agreed: rc agreed (pagani_checkpoint_agree) and,
 * when that is PAGANI_OK, PAGANI_ERR_STATE on every rank unless every
 * rank's file holds the same `iteration` (files of different
 * iterations: ranks killed while writing them). One process, or a
 * rank's share of a batch: rc. */
int pagani_checkpoint_agree_resume(const pagani_checkpoint *cp, int rc,
                                   long long iteration);

/* The checks of options state_path and state_interval (api.c): a path
 * that is not empty, an interval >= 0 and finite; else PAGANI_ERR_OPTION. */
int pagani_checkpoint_check_options(pagani_context *ctx,
                                    const pagani_options *opt);

/* Whether a run of opt->method (chosen) on ctx can checkpoint: always
 * without state_path; QMC, Vegas (Vegas+ on a backend that exports its
 * per-cube counts), and cubature on a backend that exports its list;
 * else PAGANI_ERR_OPTION. */
int pagani_checkpoint_check_run(pagani_context *ctx, const pagani_options *opt);

#endif /* PAGANI_CHECKPOINT_H */
