/*
 * cubature_run.h - private to the PAGANI driver: the state of a batch of
 * integrals while it runs (cubature_driver.c starts it and iterates), and
 * the steps of one iteration (cubature_steps.c), each taken for every
 * integral of the batch with the decisions a single integral makes.
 */
#ifndef PAGANI_CUBATURE_RUN_H
#define PAGANI_CUBATURE_RUN_H

#include <float.h>
#include <math.h>
#include "methods.h"
#include "state/checkpoint.h"
#include "cubature/threshold_search.h"

/* The round-off of an estimate: a sum over many regions of rule sums with
 * weights of both signs, and f's own rounding. The reported error never
 * goes below ROUNDOFF * |value|, and a run whose truncation error is
 * below that stops (PAGANI_NO_PROGRESS): refinement cannot reduce it. */
#define ROUNDOFF (128 * DBL_EPSILON)

/* What an integral must have seen to converge: the largest sum over its
 * list of |V| + E (about the integral of |f|, and f's variation) must
 * exceed it, else it ends PAGANI_NO_SIGNAL where it would have converged
 * (every value 0, or |f| times the volume below this everywhere: a peak
 * in a box so wide that no rule point or probe came near it). An f that
 * is 0 only in sum (odd over a symmetric box) has regions of |V| > 0 and
 * converges by epsabs. */
#define NO_SIGNAL_BELOW 1e-300

/* A region whose |V| exceeds this share of the last estimate holds the
 * integrand's features: relative-error filtering never finishes it
 * (cubature_steps.c says why), and worst-first refinement never holds
 * it (cubature_worst.c). */
#define RELERR_LARGEST 0.01

/* The state of one integral carried across iterations. */
typedef struct run {
    long long count;          /* its regions in the current list */
    int iteration;            /* 0-based */
    int running;              /* 0 once it has ended (its status is set) */
    double finished_value;    /* v_f */
    double finished_error;    /* e_f, all finished regions */
    double classified_error;  /* the part of e_f finished by classify */
    double threshold_error;   /* the part of e_f finished by thresholds */
    double value, error;      /* this iteration's estimate and error, of
                                 the integrand or, for a vector one, of
                                 the pairs (V, E) the decisions take */
    double previous_value;    /* the estimate of the last iteration */
    double previous_error;    /* and its error */
    double earlier_value;     /* the estimate of the one before */
    double least;             /* the least the last estimate's integral is
                                 sure to be, in size (cubature_steps.c) */
    int unknown_signs;        /* the last list had regions whose error's
                                 sign was unknown (1 before the first) */
    double signal;            /* the largest sum of |V| + E of a list so
                                 far (NO_SIGNAL_BELOW) */
    long long share;          /* regions it may hold after this split */
    long long held;           /* of count, those held from the last list
                                 (worst-first): not evaluated again */
    long long held_checked;   /* of them, those that carry a check */
    pagani_result *result;
} run;

/* The whole batch: the integrals' states and the per-integral arrays the
 * backend operations take. */
typedef struct batch_run {
    pagani_context *ctx;
    const cubature_ops *ops;
    const pagani_options *opt;
    int integrals;            /* K */
    int n;
    int relerr_filter;
    long long points;         /* f's calls per region */
    long long check_points;   /* and per checked region (0: none are) */
    long long capacity;
    int *first_parts;         /* per integral: parts per axis of its first
                                 split (cubature_driver.c) */
    run *runs;
    double *probe_below, *probe_relative, *check_above, *thresholds;
    classify_request *requests;
    cubature_sums *sums;
    threshold_stats *finished;
    threshold_search *searches; /* per integral: its threshold search */
    int *search_integrals;    /* and a step's queries: integrals, */
    double *search_thresholds; /* thresholds */
    threshold_stats *search_stats; /* and statistics */
    long long *counts;
    int *halvings;            /* per integral, this iteration */
    /* Worst-first refinement (cubature_worst.c; breadth-first: unused). */
    int worst_first;
    double *split_above;      /* per integral: the kept regions of E above
                                 it split, the others are held */
    double *hold_largest;     /* per integral: those of |V| above it split */
    long long *splitting;     /* per integral: the regions its next split
                                 splits (worst-first: at least) */
    long long *held_checked;  /* hold_split's, per integral */
    double *kept_errors;      /* the copy of one integral's kept errors
                                 that the choice of the held selects on */
    long long kept_capacity;  /* its room, in errors */
    int nonfinite;            /* the first integral whose f was not finite,
                                 or -1 */
    /* Vector integrands (cubature_vector.c; ncomp 1: unused, NULL). */
    int ncomp;                /* C */
    int groups;               /* rules/component_norm.h */
    double *values, *errors;  /* the batch's: K x C components */
    double *components;       /* classify's sums: K x 2C */
    double *dropped;          /* filter_split's sums: K x 2C */
    double *finished_components; /* per integral, per component: the
                                 finished regions' value and error, K x 2C */
    double *weights;          /* K x groups */
    int *reference;           /* K */
    /* Checkpoints (cubature_checkpoint.c; without state_path unused). */
    pagani_checkpoint checkpoint;
    pagani_state_reader *resume; /* the file being resumed, or NULL */
    struct cubature_mark *mark; /* the state at the start of the iteration */
    int held;                 /* the file holds the state from before a
                                 limit stopped an integral: it stays */
} batch_run;

/* EVALUATE: every region of the list, each integral's probes set by its
 * own state. */
int cubature_evaluate(batch_run *b);

/* REL-ERR-CLASSIFY of every running integral, held to its share of the
 * error target. */
int cubature_classify(batch_run *b);

/* Takes each running integral's estimate into its result, or ends one
 * whose integrand was not finite (b->nonfinite, the context's message). */
int cubature_take_estimates(batch_run *b);

/* Calls the progress callback once for the iteration; its answer. */
int cubature_progress(batch_run *b, int iteration);

/* Ends the integrals that are done (converged, stopped, out of reach);
 * returns how many go on. */
int cubature_end_tests(batch_run *b, int stop);

/* After a stop request cut an evaluation short: every running integral
 * ends PAGANI_STOPPED with the estimate of the last iteration it
 * completed (NaN and +infinity, components too, when none did). */
void cubature_stop_all(batch_run *b);

/* Chooses each running integral's threshold for filter_split, ending
 * those that cannot go on, and prepares the split of the others. */
int cubature_choose_thresholds(batch_run *b);

/* Ends integral k with `status`; its regions leave the list at the next
 * split. */
static inline void end_integral(batch_run *b, int k, pagani_status status)
{
    b->runs[k].running = 0;
    b->runs[k].result->status = status;
    b->thresholds[k] = INFINITY;
}

/* Worst-first refinement (cubature_worst.c). */

/* Whether the run refines worst-first: the strategy asked, where the
 * backend has hold_split (and kept_errors) and f is scalar; PAGANI_ERR_OPTION when
 * PAGANI_STRATEGY_WORST_FIRST cannot run. */
int cubature_worst_first(batch_run *b, const pagani_integrand *f, int *worst_first);

/* How many regions each running integral splits (b->splitting) and,
 * worst-first, which (b->split_above), after choose_all's thresholds. */
int cubature_choose_splits(batch_run *b);

/* The split of worst-first refinement (hold_split), and the end of an
 * integral that it took past the evaluation limit. */
int cubature_hold_split(batch_run *b);

/* Frees the copy of the kept errors. */
void cubature_worst_free(batch_run *b);

/* Vector integrands (cubature_vector.c). */

/* Makes the arrays of a batch of f->ncomp > 1 components. */
int cubature_vector_start(batch_run *b, const pagani_batch *batch,
                          const pagani_options *opt);
void cubature_vector_free(batch_run *b);

/* Integral k's components' estimates and errors (the finished regions'
 * and this iteration's) into the batch's values and errors, component 0's
 * into its result, and the weights of its next iteration. */
void cubature_vector_estimate(batch_run *b, int k);

/* Whether integral k's components meet the tolerance by the norm. */
int cubature_vector_met(const batch_run *b, int k);

/* Adds what this iteration's split dropped, component by component, to
 * the finished sums of the integrals that split (their threshold finite). */
void cubature_vector_finish(batch_run *b);

/* Checkpoints (options state_path; cubature_checkpoint.c). The file
 * holds the state at the start of an iteration: the driver's (every
 * integral's run and result, the vector sums) and the region list with
 * its parents' values (on an MPI context, the rank's part of it). It is written at the end of an iteration when
 * due; when the run ends with integrals still running (max_iterations);
 * and when a limit (max_evaluations, the progress callback, a stop
 * request) stops an integral: then with the state from before that
 * iteration, which a resume with the limit raised runs again, and the
 * file keeps it to the end of the run. */

/* Opens the run's checkpoint and, when its file exists, reads its head
 * (b->resume reads on): b->capacity becomes the capacity it was written
 * with (PAGANI_ERR_STATE when the memory budget holds less, or the file
 * is not of this batch). After batch and vector start, before setup. */
int cubature_checkpoint_open(batch_run *b, const pagani_integrand *f,
                             const pagani_batch *batch);

/* After the load of the uniform split: the state and the list of the
 * file read by open into b, its results and the backend (the list
 * replaces the split), and the iteration to go on from into *it; -1
 * when there was no file. */
int cubature_checkpoint_resume(batch_run *b, int *it);

/* Keeps the driver's state at the start of iteration it. */
void cubature_checkpoint_mark(batch_run *b, int it);

/* After the iteration's choice of thresholds (or a stop request), before
 * its split: when an integral ended by a limit, writes the marked state
 * with the list as it still is, and holds it. */
int cubature_checkpoint_stopped(batch_run *b);

/* After a split, as iteration it starts: writes when due (not held). */
int cubature_checkpoint_due(batch_run *b, int it);

/* After the last iteration it - 1: writes when an integral still runs. */
int cubature_checkpoint_end(batch_run *b, int it);

void cubature_checkpoint_free(batch_run *b);

#endif /* PAGANI_CUBATURE_RUN_H */
