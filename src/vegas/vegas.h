/*
 * vegas.h - private to PAGANI_VEGAS: the plan of one run (options read,
 * defaults applied, the stratification sized) and the run's state, shared
 * by the driver (vegas_driver.c), the planner (vegas_plan.c) and the
 * sampling passes (vegas_passes.c).
 */
#ifndef PAGANI_VEGAS_H
#define PAGANI_VEGAS_H

#include "methods.h"
#include "vegas_backend.h"
#include "state/checkpoint.h"

/* Vegas+ keeps per-cube arrays: at most this many cubes (2^26). */
#define VEGAS_PLUS_MAX_CUBES (1LL << 26)
/* Vegas+: the most samples one cube may get. */
#define VEGAS_PLUS_MAX_PER_CUBE 65536LL
/* Uniform mode: a cube of more samples is cut into pieces of at most this. */
#define VEGAS_MAX_PIECE 256LL
/* The pilot that sizes the first bin scale samples every 16th piece. */
#define VEGAS_PILOT_STRIDE 16
/* The bin scale puts the largest v^2 seen so far at 2^42, 2^6 below
 * VEGAS_Q_LIMIT. */
#define VEGAS_SCALE_TARGET 4398046511104.0

/* An iteration is tail-dominated when one sample's term carries more
 * than this share of its variance (vegas_sums.term_max): its error then
 * rests on one sample. Measured: at most 0.02 on smooth, peaked and
 * discontinuous f; 0.13 to 0.5 with an integrable singularity (x^-0.5,
 * x^-0.9, whose variance is infinite, but x^-0.2 too). */
#define VEGAS_TAIL_SHARE 0.1
/* A combination holding a tail-dominated iteration takes the error of
 * the plain mean from the iterations' spread, and converges only over at
 * least this many iterations (at 8, x^-0.5 e^(-bx) converged 6.3 sigma
 * off in 1 of 20 runs; at 16, 20 of 20 within 2.5 sigma). */
#define VEGAS_TAIL_ITERATIONS 16

typedef struct vegas_plan {
    vegas_job job;
    double calls;            /* samples per iteration asked for */
    long long per_iteration; /* samples per iteration in uniform mode */
    int ita;                 /* grid-adjusting iterations */
    int itmax;
    int first_combined;      /* first iteration in the weighted average */
    double alpha;
    double chi2_max;
    double epsrel, epsabs;
    int norm;                /* pagani_norm, for vector integrands */
    long long max_evaluations;
} vegas_plan;

/* One integral of the batch. */
typedef struct vegas_member {
    double *estimate, *variance; /* per component c and iteration it, at
                                    [c * itmax + it] (component 0 first:
                                    the one the grid adapts to) */
    long long *nonzero;
    int *tail;            /* per iteration: tail-dominated (VEGAS_TAIL_SHARE) */
    double volume;
    long long evaluations;
    long long plus_total; /* Vegas+: samples of the next pass */
    long long seen;       /* nonzero samples in all iterations */
    double vmax;          /* largest v^2 of the last pass */
    double value, error;  /* the combined estimate so far */
    int running;
    int fault_iteration;    /* -1, or where f was NaN or infinite */
    vegas_sums fault;       /* there: fault_cube, _sample, _value */
    int overflow_iteration; /* -1, or where the sums overflowed */
    int tail_combined;      /* tail-dominated iterations in its result */
    int resume_at;          /* once it left the run: the iteration it would
                               have run next when a limit or stop ended it
                               (a checkpoint resumes it there), -1 when it
                               ended for good (converged, failed); while it
                               runs after a resume: the iteration it starts
                               at (it waits until then) */
} vegas_member;

/* A run of PAGANI_VEGAS: its plan, its K members and their host arrays,
 * and the scratch of an iteration's passes. */
typedef struct vegas_run {
    const vegas_ops *ops;
    void *state;
    vegas_plan plan;
    const pagani_batch *batch;
    int own_params;             /* the blocks are the integrand's own */
    int count;                  /* K */
    int ncomp;                  /* C, components of f */
    size_t grid_size, bin_size; /* doubles of one grid, of one's bins */
    double *lower, *width;      /* K boxes of n */
    double *grids, *bins, *work;
    double *history;    /* K x C x itmax estimates, then variances */
    long long *nonzero; /* K x itmax */
    int *tail;          /* K x itmax */
    vegas_member *members;
    /* the passes of one iteration: K entries each */
    int *list, *again;
    double *scale; /* 2K: the pass's, then the repeat's */
    double *beta_sums;
    long long *totals;
    vegas_sums *sums, *repeat;
    double *components, *components_repeat; /* C > 1: the passes' sums of
                                               every component, 2 K C */
    int *bins_valid;
    /* checkpoints (vegas_checkpoint.c) */
    pagani_checkpoint checkpoint;
    vegas_member *saved; /* the members at the start of the iteration (K;
                            NULL without a state file) */
    int recorded;        /* iterations whose history is recorded */
} vegas_run;

/* Reads and checks the options (0 means the default for vegas_calls,
 * vegas_bins, vegas_alpha, vegas_beta, chi2_max and max_iterations) and
 * sizes the run, the same for every integral of a batch (the driver fills
 * in the job's integrals, boxes and parameter blocks). Returns PAGANI_OK or
 * PAGANI_ERR_OPTION with a message. */
int pagani_vegas_plan(pagani_context *ctx, pagani_integrand *f,
                      const pagani_options *opt, vegas_plan *plan);

/* The passes of iteration `it` for the `count` members of r->list
 * (vegas_passes.c): the pilot where a bin scale is missing, the pass of
 * all of them (sums in r->sums) and the repeat of those whose bins lack
 * their largest contributions, unless the evaluation budget forbids it.
 * r->bins_valid[i] says whether member i's bins came in to adjust its
 * grid; members whose f was NaN or infinite stop running (their fault
 * kept). Returns a backend's error, else PAGANI_OK with the members left
 * in r->list (those of a failed pilot dropped) in *left. */
int pagani_vegas_passes(vegas_run *r, int it, int count, int *left);

/* Member k's NaN or infinity into the context's message: returns
 * PAGANI_ERR_NONFINITE. */
int pagani_vegas_report_fault(pagani_context *ctx, const vegas_run *r, int k);

/* Writes the checkpoint of r (nothing without a state file) as it stands
 * at the start of iteration `it`: the grids, r->recorded iterations of
 * history, `members` (r->members, or r->saved when a stop request cut
 * iteration `it` short), each running one resuming at `it` (or later,
 * where it waits), and the results of those that ended. Returns
 * pagani_checkpoint_write's code. */
int pagani_vegas_checkpoint_write(pagani_context *ctx, vegas_run *r,
                                  const vegas_member *members, int it,
                                  const pagani_result *results);

/* Resumes r (planned, allocated, its backend set up) from its checkpoint
 * when the file exists: grids (handed to the backend), members, history
 * and the results of the members that ended; in *start the first
 * iteration to run (0 with no file). PAGANI_ERR_STATE when the file's
 * sizes do not fit the plan (max_evaluations lowers vegas_calls) or it
 * holds more iterations than max_iterations, and the read's errors. */
int pagani_vegas_checkpoint_resume(pagani_context *ctx, vegas_run *r,
                                   pagani_result *results, int *start);

/* Warm starts (vegas_warm.c; options vegas_grid_in, vegas_grid_out):
 * whether the options' grids fit the plan (PAGANI_ERR_OPTION naming the
 * difference); every member's grid from vegas_grid_in (none: left
 * uniform); integral 0's final grid into vegas_grid_out
 * (PAGANI_ERR_NO_MEMORY). */
int pagani_vegas_warm_check(pagani_context *ctx, const pagani_options *opt,
                            const vegas_plan *plan);
void pagani_vegas_warm_start(vegas_run *r, const pagani_options *opt);
int pagani_vegas_warm_keep(pagani_context *ctx, const vegas_run *r,
                           const pagani_options *opt);

/* Grids of a run's integrals that its caller hands in and takes out
 * (the waves of a batch with warm starts, vegas_batch_warm.c). */
typedef struct vegas_grids {
    const double *const *start; /* K grids (the plan's grid_axes x
                                   (vegas_bins + 1) edges each) integral k
                                   starts from, in place of vegas_grid_in
                                   or a uniform grid; NULL: those */
    double *final;              /* NULL, or room for K grids: where each
                                   integral's final grid is left when the
                                   run returns PAGANI_OK or
                                   PAGANI_ERR_NONFINITE */
} vegas_grids;

/* pagani_vegas_integrate (methods.h) without batch_warm_stride: one run
 * of the batch, every integral from the grid that grids (or NULL: the
 * options) says. */
int pagani_vegas_run(pagani_context *ctx, pagani_integrand *f,
                     const pagani_batch *batch, const pagani_options *opt,
                     pagani_result *results, const vegas_grids *grids);

/* A batch with options.batch_warm_stride m != 0 (vegas_batch_warm.c):
 * checks m (PAGANI_ERR_OPTION) and runs the batch in two waves, the
 * pilots (every m-th integral) cold, then the others each from its
 * nearest pilot's final grid. */
int pagani_vegas_batch_warm(pagani_context *ctx, pagani_integrand *f,
                            const pagani_batch *batch,
                            const pagani_options *opt, pagani_result *results);

#endif /* PAGANI_VEGAS_H */
