/*
 * pagani.h - the public interface of libpagani: multi-dimensional numerical
 * integration over a box [a1,b1] x ... x [an,bn] on GPUs (CUDA) and CPUs
 * (OpenMP).
 *
 * Plan once, integrate many times (as with FFTW): creating a context and
 * creating an integrand are the expensive calls (device set-up, run-time
 * compilation); pagani_integrate only runs.
 *
 * Every function that can fail returns a pagani_error code: PAGANI_OK (0) on
 * success. pagani_strerror() names a code; pagani_context_message() holds the
 * details of the last failure in that context (which argument, which CUDA
 * call, the compiler's log). The library never prints, exits or aborts.
 *
 * Thread safety: a context is used by one thread at a time; separate
 * contexts are independent.
 */
#ifndef PAGANI_H
#define PAGANI_H

#include <stddef.h>
#include <math.h> /* for PAGANI_INTEGRAND bodies, which use <math.h> */

#ifdef __cplusplus
extern "C" {
#endif

#define PAGANI_VERSION_MAJOR 0
#define PAGANI_VERSION_MINOR 1
#define PAGANI_VERSION_PATCH 0

/* The largest dimension any method accepts. Cubature accepts 1..20. */
#define PAGANI_MAX_DIM 64
#define PAGANI_MAX_CUBATURE_DIM 20

/* Error codes returned by every fallible function. */
typedef enum pagani_error {
    PAGANI_OK = 0,
    PAGANI_ERR_NULL_POINTER,      /* a required pointer argument was NULL */
    PAGANI_ERR_DIMENSION,         /* n < 1, or above what the method accepts */
    PAGANI_ERR_BOUNDS,            /* a bound is NaN or infinite on the wrong
                                     side, or lower >= upper */
    PAGANI_ERR_TOLERANCE,         /* epsrel/epsabs negative or NaN, or both 0 */
    PAGANI_ERR_OPTION,            /* another option is out of its range */
    PAGANI_ERR_NO_FORM,           /* the integrand has no form this backend runs */
    PAGANI_ERR_COMPILE,           /* integrand source did not compile (log kept) */
    PAGANI_ERR_NONFINITE,         /* the integrand returned NaN or infinity */
    PAGANI_ERR_NO_MEMORY,         /* host or device memory could not be had */
    PAGANI_ERR_BACKEND_UNAVAILABLE, /* e.g. CUDA asked for, no GPU or driver */
    PAGANI_ERR_CUDA,              /* a CUDA call failed (named in the message) */
    PAGANI_ERR_CONTEXT_MISMATCH,  /* integrand made by another context */
    PAGANI_ERR_SYSTEM,            /* a file or process operation failed */
    PAGANI_ERR_PARAMS,            /* the integrand's source reads p (or
                                     params) and its parameter block is
                                     missing or shorter than an index read */
    PAGANI_ERR_COMPONENTS,        /* ncomp outside 1..PAGANI_MAX_COMPONENTS,
                                     a vector integrand given to a scalar
                                     entry (pagani_integrate), or a norm
                                     that does not fit ncomp */
    PAGANI_ERR_STOPPED,           /* pagani_context_request_stop cut short
                                     a call that has no status to say so
                                     (pagani_qmc_part: the record is
                                     incomplete) */
    PAGANI_ERR_ABORTED,           /* the integrand's block function returned
                                     non-zero (the value is in the message) */
    PAGANI_ERR_STATE              /* the checkpoint file (options.state_path)
                                     belongs to another integral, method or
                                     number of ranks, is truncated, damaged,
                                     foreign or of another format (the
                                     message names which) */
} pagani_error;

/* Where the work runs. AUTO takes CUDA when a usable GPU is present. */
typedef enum pagani_backend {
    PAGANI_BACKEND_AUTO = 0,
    PAGANI_BACKEND_CPU,
    PAGANI_BACKEND_CUDA
} pagani_backend;

/* Which algorithm integrates. AUTO: cubature up to 12 dimensions, above
 * that QMC or Vegas as a pilot QMC sample shows f smooth or rough (see
 * pagani_auto_reason); the result says which ran and why. */
typedef enum pagani_method {
    PAGANI_AUTO = 0,
    PAGANI_CUBATURE,  /* PAGANI: deterministic adaptive cubature, n <= 20 */
    PAGANI_VEGAS,     /* m-Cubes: Vegas importance sampling */
    PAGANI_QMC        /* randomly shifted Zinterhof (Weyl) sequences */
} pagani_method;

/* How an integration ended (pagani_result.status). Only PAGANI_CONVERGED
 * means the requested tolerance was met; every other status still carries
 * the best estimate and its error. */
typedef enum pagani_status {
    PAGANI_CONVERGED = 0,
    PAGANI_MAX_ITERATIONS,   /* iteration limit reached first */
    PAGANI_MAX_EVALUATIONS,  /* evaluation limit reached first */
    PAGANI_OUT_OF_CAPACITY,  /* region list full: the memory budget is spent */
    PAGANI_NO_PROGRESS,      /* nothing left to refine, or the error of the
                                finished regions alone exceeds the target */
    PAGANI_CHI2_TOO_LARGE,   /* Monte Carlo iterations disagree (chi2/dof) */
    PAGANI_NO_SIGNAL,        /* f was seen to be 0 everywhere (cubature:
                                every value 0, or every |f| times the
                                volume below 1e-300; Vegas: fewer than 2
                                nonzero samples; QMC: every value 0), so
                                the error says nothing: a peak the points
                                missed, or an integrand that is 0 */
    PAGANI_STOPPED,          /* the progress callback or
                                pagani_context_request_stop asked to stop */
    PAGANI_HEAVY_TAIL        /* QMC: the shifts' spread met the
                                tolerance, but the largest |f J| kept
                                growing with N (f J unbounded: an
                                integrable singularity the transform
                                leaves), so the error is raised to the
                                tail's bound, which a limit ended the run
                                above. README, "What converged means" */
} pagani_status;

/* Cubature flags (pagani_options.flags). */
#define PAGANI_FLAG_NO_RELERR_FILTER 1u  /* never finish regions by relative
                                            error; use for sign-changing f */
#define PAGANI_FLAG_VEGAS_PLUS 2u        /* Vegas+ adaptive stratification */
#define PAGANI_FLAG_VEGAS_1D 4u          /* m-Cubes1D: one grid for all axes */
#define PAGANI_FLAG_NO_PROBES 8u         /* cubature: do not probe regions
                                            next to their vertices before
                                            finishing them (up to 28%
                                            faster on the paper's suite,
                                            slower on some rows at tight
                                            tolerances, but a peak just
                                            outside a region or a jump just
                                            past a bisection point can be
                                            missed: README, "What converged
                                            means") */

/* How the errors of a vector integrand's components are judged
 * (pagani_options.norm; README, "Vector integrands"). value_k and error_k
 * are component k's estimate and error. */
typedef enum pagani_norm {
    PAGANI_NORM_INDIVIDUAL = 0, /* every component on its own (Cuba's rule):
                                   error_k <= max(epsabs, epsrel |value_k|)
                                   for every k; the default */
    PAGANI_NORM_PAIRED,         /* components (2j, 2j+1) are the real and
                                   imaginary parts of one complex number,
                                   each pair judged by modulus: |(error_2j,
                                   error_2j+1)| <= max(epsabs, epsrel
                                   |(value_2j, value_2j+1)|); ncomp even */
    PAGANI_NORM_L2,             /* ||error||_2 <= max(epsabs, epsrel
                                   ||value||_2) over all components */
    PAGANI_NORM_L1,             /* the same with the L1 norm */
    PAGANI_NORM_MAX             /* the same with the max norm */
} pagani_norm;

/* How cubature refines its region list (pagani_options.strategy; README,
 * "Methods"). Both keep every honesty rule of the method (probes, the
 * randomized check, the two-level error): a region that is not split
 * stays in the list with its error in the total, unless it is finished
 * as breadth-first finishes regions. */
typedef enum pagani_strategy {
    PAGANI_STRATEGY_AUTO = 0,    /* worst-first where it runs (the CPU
                                    backend, a scalar integrand, no
                                    state_path), else breadth-first; the
                                    default */
    PAGANI_STRATEGY_BREADTH,     /* the paper's: every region that is not
                                    finished is split in every iteration
                                    (the GPU's width wants it) */
    PAGANI_STRATEGY_WORST_FIRST  /* split only the regions of the largest
                                    errors: as many as the tolerance needs
                                    this iteration, and at least those
                                    carrying 80% of the error and one in
                                    8; the others wait in the list without
                                    being evaluated again (hcubature and
                                    Cuhre split one worst region at a
                                    time); a region not vertex-probed or
                                    holding over 1% of the estimate always
                                    splits. The CPU backend, scalar
                                    integrands and runs without
                                    checkpoints (state_path) only, else
                                    PAGANI_ERR_OPTION */
} pagani_strategy;

/* The change of variables of an unbounded axis (pagani_options.domain_map;
 * README, "Domains and singularities"), with s the axis's scale and c its
 * centre (the whole line only):
 *   PAGANI_MAP_RATIONAL     x = a + s t/(1-t) on [a, inf), x = b - s t/(1-t)
 *                           on (-inf, b], t in [0, 1); x = c + s t/(1-t^2)
 *                           on the line, t in (-1, 1). The default: f J
 *                           stays smooth for Gaussian and exponential
 *                           decay at any s near the decay's length, and a
 *                           power-law tail r^-k becomes (1-t)^(k-2) per
 *                           axis.
 *   PAGANI_MAP_EXPONENTIAL  x = a + s log(1/t) on [a, inf), x = b - s
 *                           log(1/t) on (-inf, b], t in (0, 1]; on the
 *                           line x = c + s log(1/t) for t in (0, 1] and
 *                           x = c - s log(1/|t|) for t in [-1, 0). Made for
 *                           exponential decay of a known rate: e^(-|x-c|/s)
 *                           becomes the constant s; s must be at least the
 *                           decay's length (below it f J grows as
 *                           t^(s/L - 1) at t = 0), and a power-law tail
 *                           becomes a logarithmic singularity: not for
 *                           r^-k. */
typedef enum pagani_map {
    PAGANI_MAP_RATIONAL = 0,
    PAGANI_MAP_EXPONENTIAL = 1
} pagani_map;

/* The most components of a vector integrand. Each component costs every
 * cubature region three doubles (its estimate, its error, its parent's
 * estimate), each GPU thread of the cubature evaluation five running sums
 * and each Monte Carlo integral two sums per shift or sub-cube pass: 64
 * keeps a region of an 8-D integrand within 1.7 KB and the evaluation's
 * sums within what a GPU thread can hold in fast memory. */
#define PAGANI_MAX_COMPONENTS 64
/* The most break points of one axis (pagani_options.break_counts). */
#define PAGANI_MAX_BREAKS 64
/* The largest pagani_options.mc_sigmas. */
#define PAGANI_MC_SIGMAS_MAX 100.0

/* An integrand as a host function: x holds n coordinates, params the
 * caller's parameter block (may be NULL). */
typedef double (*pagani_function)(const double *x, int n, const void *params);

/* Both forms of one integrand, as PAGANI_INTEGRAND makes them. */
typedef struct pagani_integrand_def {
    pagani_function function; /* host form, may be NULL */
    const char *source;       /* C function body, may be NULL */
} pagani_integrand_def;

/*
 * PAGANI_INTEGRAND(name, body) defines `name`, a pagani_integrand_def whose
 * host function runs `body` and whose source is the text of `body`, so one
 * body serves every backend:
 *
 *   PAGANI_INTEGRAND(gauss, {
 *       double s = 0.0;
 *       for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);
 *       return exp(-625.0 * s);
 *   })
 *
 * Inside the body: x (const double *), n (int), params (const void *),
 * p (const double *, the parameter block read as doubles; NULL when the
 * integrand has no parameters), the <math.h>
 * functions and constants. The body must not use macros of its own file:
 * the source form sees only that environment.
 */
#define PAGANI_INTEGRAND(name, ...)                                          \
    static double name##_host(const double *x, int n, const void *params) { \
        const double *p = (const double *)params;                            \
        (void)x; (void)n; (void)p;                                           \
        __VA_ARGS__                                                          \
    }                                                                        \
    static const pagani_integrand_def name = {name##_host, #__VA_ARGS__};

/* A vector integrand as a host function: writes its ncomp values to
 * f[0..ncomp-1] (every one: the library fills f with NaN before each call,
 * so a component left unset is reported as a NaN of the integrand). */
typedef void (*pagani_vector_function)(const double *x, int n,
                                       const void *params, double *f);

/* Both forms of one vector integrand, as PAGANI_VECTOR_INTEGRAND makes
 * them. */
typedef struct pagani_vector_integrand_def {
    int ncomp;                        /* components, 1..PAGANI_MAX_COMPONENTS */
    pagani_vector_function function;  /* host form, may be NULL */
    const char *source;               /* C function body, may be NULL */
} pagani_vector_integrand_def;

/*
 * PAGANI_VECTOR_INTEGRAND(name, ncomp, body): the vector twin of
 * PAGANI_INTEGRAND. The body writes f[0] .. f[ncomp-1] (it may end early
 * with `return;`); besides x, n, params and p it sees ncomp:
 *
 *   PAGANI_VECTOR_INTEGRAND(moments, 3, {
 *       double w = exp(-x[0] * x[0] - x[1] * x[1]);
 *       f[0] = w;
 *       f[1] = x[0] * w;
 *       f[2] = x[0] * x[0] * w;
 *   })
 */
#define PAGANI_VECTOR_INTEGRAND(name, components, ...)                       \
    static void name##_host(const double *x, int n, const void *params,      \
                            double *f) {                                      \
        const double *p = (const double *)params;                            \
        const int ncomp = (components);                                      \
        (void)x; (void)n; (void)p; (void)ncomp; (void)f;                     \
        __VA_ARGS__                                                          \
    }                                                                        \
    static const pagani_vector_integrand_def name = {(components),           \
                                                     name##_host,             \
                                                     #__VA_ARGS__};

typedef struct pagani_context pagani_context;
typedef struct pagani_integrand pagani_integrand;

/* Called once per iteration when set in the options; returning non-zero
 * stops the integration after that iteration with status PAGANI_STOPPED
 * and, as the result, the estimate and error just passed (unless that
 * iteration converged; Vegas and QMC say PAGANI_NO_SIGNAL instead when the
 * samples carry none, as they do after a limit). `size` is the active
 * regions (cubature), the sub-cubes (Vegas) or the points per shift (QMC);
 * estimate and error are the running totals. */
typedef int (*pagani_progress_fn)(int iteration, long long size,
                                  double estimate, double error, void *data);

/* The evaluation budget of a run whose max_evaluations is 0, per
 * backend: seconds to a minute of a cheap integrand on either (a CPU core
 * runs 2e7 to 5e7 evaluations a second, an H100 about 1e11), a count
 * rather than a time so that results do not depend on the load. */
#define PAGANI_DEFAULT_EVALUATIONS_CPU 1000000000LL
#define PAGANI_DEFAULT_EVALUATIONS_CUDA 1000000000000LL

/* A Vegas importance grid (README, "Checkpoints and warm starts"): the
 * bin edges on every axis that a PAGANI_VEGAS run learned, relative to
 * its box, so that another run of the same dimension (another parameter
 * block of a scan, another integrand) can start from them, as Cuba's
 * gridno. Made empty by pagani_vegas_grid_create, filled by a run with
 * options.vegas_grid_out, read by a run with options.vegas_grid_in (the
 * same grid may be both). The caller owns it; a grid must not be filled
 * by one call while another reads it. */
typedef struct pagani_vegas_grid pagani_vegas_grid;

/* options.batch_warm_stride: one pilot in this many integrals. On a
 * scan of 1,000 nearby Gaussians (README, "Checkpoints and warm
 * starts") the batch made 64%, 36%, 32% and 28% of the cold batch's
 * evaluations at strides 2, 8, 16 and 64: 16 is within 4 points of the
 * least, with a pilot at most 8 points from the integrals it starts. */
#define PAGANI_BATCH_WARM_STRIDE 16

/* Options of one integration. Start from pagani_options_default(method). */
typedef struct pagani_options {
    pagani_method method;
    double epsrel;               /* default 1e-3 */
    double epsabs;               /* default 0: convergence is relative,
                                    error <= epsrel |value|, unless an
                                    absolute tolerance is asked for (then
                                    error <= max(epsabs, epsrel |value|),
                                    and pagani_result.by_epsabs says when
                                    epsabs decided). A run whose
                                    evaluations were all 0 (or every
                                    |f| times the volume below 1e-300)
                                    ends PAGANI_NO_SIGNAL, never
                                    converged, whatever epsabs is. */
    long long max_evaluations;   /* default 0: the backend's budget,
                                    PAGANI_DEFAULT_EVALUATIONS_CPU or
                                    _CUDA (status PAGANI_MAX_EVALUATIONS
                                    when reached; CPU cubature can pass
                                    it by its last iteration's graded
                                    evaluations: README, "Domains and
                                    singularities") */
    int max_iterations;          /* default 0: the method's own (cubature 1000,
                                    Vegas 100, QMC 16 blocks: the points per
                                    shift double 15 times, to 2^29 from the
                                    default start, 8.6e9 evaluations with
                                    16 shifts, past the CPU's default
                                    budget) */
    unsigned flags;              /* PAGANI_FLAG_* */
    unsigned long long seed;     /* Monte Carlo seed, default 1 */

    /* Cubature */
    int rule_degree;             /* 0: 13 for n=2, 11 for n=3, 9 otherwise
                                    (Gauss-Kronrod 7/15 for n=1); or 7, 9,
                                    11 (n=3), 13 (n=2). Degree 7 needed 3
                                    to 30 times degree 9's evaluations in
                                    6-D (1e-3 to 1e-6) and ended 8-D runs
                                    at the evaluation limit with larger
                                    errors; with worst-first refinement
                                    it needed 0.81 to 0.96 times the
                                    default's in 3-D and 4-D at 1e-3 and
                                    1e-4 (time 0.89 to 1.13), more
                                    elsewhere (README, "Tests and
                                    benchmarks") */
    int initial_splits;          /* parts per axis at the start; 0: 4 for
                                    n<5, 2 for n<=10, 1 above, and 2
                                    below 5 too where worst-first
                                    refinement runs (strategy), unless
                                    an axis of the box is unbounded or
                                    has break points */

    /* Vegas (m-Cubes). A field left at 0 takes its default, except
     * vegas_adjust_iterations, where 0 means no grid adjustment. */
    double vegas_calls;          /* calls per iteration, default 1e6 */
    int vegas_adjust_iterations; /* grid-adjusting iterations (ita), default 5 */
    int vegas_bins;              /* importance bins per axis, default 500 */
    double vegas_alpha;          /* grid damping exponent, default 1.5 */
    double vegas_beta;           /* Vegas+ stratification exponent, default 0.75 */
    double chi2_max;             /* largest chi2/dof called converged, default 5 */

    /* QMC (0 in qmc_shifts or qmc_initial_points: the default). The points
     * per shift double until the standard error over the shifts meets the
     * tolerance. */
    int qmc_shifts;              /* random shifts R, 2..4096, default 16 */
    long long qmc_initial_points;/* points per shift at the start, default 2^14 */
    int qmc_transform;           /* periodizing transform: 0 none, 1 Baker's
                                    tent (default: best on smooth f), 2 Korobov
                                    degree 2 (for endpoint singularities), 3
                                    Korobov degree 3 (stronger endpoint
                                    singularities: x^-1/2 becomes t, x^-0.9
                                    square integrable) */

    pagani_progress_fn progress; /* may be NULL */
    void *progress_data;

    /* Vector integrands: how the components' errors are judged, default
     * PAGANI_NORM_INDIVIDUAL (no effect on one component). */
    pagani_norm norm;

    /* Monte Carlo (Vegas, QMC): the confidence of "converged". A run
     * converges when mc_sigmas times its error (one standard deviation,
     * which is what pagani_result.error reports) meets the tolerance.
     * Default 1 (0: the default): the true error exceeds the tolerance in
     * about a third of converged runs; 2 brings that to about one in
     * twenty, for up to 4 times the evaluations (4 where the error falls
     * as 1/sqrt(evaluations); measured 1.0 to 2.1 times: README, "What
     * converged means"). At most 100. */
    double mc_sigmas;

    /* Unbounded axes (a lower bound -INFINITY or an upper +INFINITY; README,
     * "Domains and singularities"): the length s of the change of
     * variables that maps each onto a finite interval (pagani_map; by
     * default x = a + s t/(1-t) on [a, inf), x = b - s t/(1-t) on (-inf,
     * b], x = c + s t/(1-t^2) on the whole line), on every axis unless
     * domain_scales says otherwise. Take s at 2 to 3 widths of f's decay,
     * and c (domain_centers) at its peak: half of the t interval covers
     * |x - c| < 0.6 s. Default 1 (0: the default); finite. */
    double domain_scale;

    /* Cubature: break points, coordinates where f is not smooth (a kink,
     * a jump, a threshold; README, "Domains and singularities"), so that
     * the faces of the first split's regions fall exactly on them:
     * break_counts[i] (0..PAGANI_MAX_BREAKS) increasing finite coordinates
     * for axis i, one axis after another in `breaks` (axis 0's first).
     * break_counts NULL (the default): none. The caller owns both arrays,
     * read during the call. Points outside (lower[i], upper[i]) are
     * ignored; an axis with points inside is integrated through a map
     * linear between them that gives each segment whole cells of the
     * first split, so its segments may not outnumber the parts per axis
     * of initial_splits (4 below 5 dimensions by default); an unbounded
     * axis takes none (both PAGANI_ERR_OPTION). Vegas and QMC ignore
     * them. */
    const double *breaks;
    const int *break_counts;

    /* Unbounded axes, continued: the map (pagani_map; default
     * PAGANI_MAP_RATIONAL), and per axis (n entries each, the caller's,
     * read during the call) the centre c of an axis over the whole line
     * (domain_centers; NULL: 0 on every axis; finite; ignored on the
     * other axes) and the scale s (domain_scales; NULL: domain_scale on
     * every axis; an entry 0 takes domain_scale, else finite > 0). Put c
     * at f's peak and s at 2 to 3 widths of its decay on that axis: a
     * Gaussian of width 1e3 centred at 1e4 wants c = 1e4, s = 3e3. The
     * same for every integral of a batch. Invalid values are
     * PAGANI_ERR_OPTION. */
    pagani_map domain_map;
    const double *domain_centers;
    const double *domain_scales;
    /* Checkpoints (README, "Checkpoints and warm starts"): with state_path
     * set, the integration writes its state to that file (atomically: a
     * temporary file beside it, fsync, rename) at the end of an iteration
     * once state_interval seconds have passed since the last write, and
     * whenever it ends other than by converging (the progress callback,
     * pagani_context_request_stop, an iteration or evaluation limit). On
     * start, when the file exists, it resumes from it: the result is the
     * bits of the run that was not interrupted. A file that belongs to
     * another integral (integrand, parameter blocks, boxes, method, the
     * options that change the result; the limits max_evaluations and
     * max_iterations may differ, so a stopped run can be resumed with
     * them raised) or is damaged is refused, PAGANI_ERR_STATE, and left
     * alone. QMC, Vegas (Vegas+ included: its file holds the per-cube
     * sample counts too, 8 bytes a sub-cube and integral) and cubature
     * (CPU and CUDA). On an MPI context rank k writes state_path with
     * ".rank<k>" appended (cubature: the rank's own part of the region
     * list), and a run resumes on the same number of ranks only (else
     * PAGANI_ERR_STATE naming both). Vegas resumes bit for bit unless
     * max_evaluations changed what ran: a cap below vegas_calls x
     * (vegas_adjust_iterations + 3) lowers the calls per iteration (a
     * resume under another such cap is PAGANI_ERR_STATE), and one that
     * skipped a repeat pass of an adjusting iteration kept its grid. A
     * cubature file holds the region list: 16 n + 4 bytes a region in n
     * dimensions (a vector integrand's, 4 more a component), 132 bytes
     * in 8-D; it is written and read a chunk of 2^20 regions at a time
     * (host memory: one chunk, and on a GPU a pinned buffer of its
     * device entries, 47 MB in 8-D, kept by the context; the write
     * starts the disk's write-back every 64 MiB, so the final fsync
     * waits for little), and resumed only under a memory budget
     * that holds the list of the run that wrote it (PAGANI_ERR_STATE
     * otherwise: on a GPU, set it with pagani_context_set_memory); a
     * cubature run with state_path refines breadth-first (strategy). The
     * caller owns the string. */
    const char *state_path;      /* NULL (default): no checkpoints */
    double state_interval;       /* seconds between writes, default 600;
                                    0: only when the run ends unconverged */

    /* Cubature: which regions an iteration splits (pagani_strategy),
     * default PAGANI_STRATEGY_AUTO. */
    pagani_strategy strategy;
    /* Vegas warm starts (README, "Checkpoints and warm starts"): with
     * vegas_grid_in, every integral of the call starts from that grid
     * instead of a uniform one, and vegas_adjust_iterations still adjust
     * it (set 1 to shorten them: the first iteration is then combined
     * already, and a run of a nearby integrand can converge after 2
     * iterations, where a cold one needs 6). It must have been filled
     * by a run of the same
     * dimension, vegas_bins and PAGANI_FLAG_VEGAS_1D (else
     * PAGANI_ERR_OPTION naming both); it is part of what a checkpoint
     * belongs to. With vegas_grid_out, a call that returns PAGANI_OK
     * leaves there the final grid of its integral 0. Vegas+ takes and
     * leaves the grid alone: its per-cube sample counts start uniform.
     * The other methods ignore both. */
    const pagani_vegas_grid *vegas_grid_in;  /* NULL (default): uniform */
    pagani_vegas_grid *vegas_grid_out;       /* NULL (default): none */

    /* Vegas batches of a scan, warm (README, "Checkpoints and warm
     * starts"): with batch_warm_stride m >= 2, a PAGANI_VEGAS batch
     * (pagani_integrate_batch) whose neighbours by index are nearby
     * integrals runs in two waves, each one batch: the pilots, integrals
     * 0, m, 2m, ..., as without it; then every other integral from the
     * final grid of its nearest pilot by index (the lower one on a tie),
     * with at most 1 grid-adjusting iteration (vegas_adjust_iterations
     * 0 stays 0). Each result is the bits of a single call with
     * vegas_grid_in that pilot's grid and vegas_adjust_iterations 1; the
     * progress callback sees each wave's iterations in turn, and a stop
     * in the first ends the second's integrals unrun (PAGANI_STOPPED, 0
     * iterations, value NaN). PAGANI_BATCH_WARM_STRIDE is the measured
     * choice. With Vegas+ a warm integral's per-cube counts start
     * uniform. Not with state_path or an MPI context (PAGANI_ERR_OPTION,
     * as are 1 and negative values); the other methods ignore it. */
    int batch_warm_stride;       /* 0 (default): every integral cold */
} pagani_options;

/* Why PAGANI_AUTO chose the method that ran (pagani_result.auto_reason).
 * AUTO takes cubature up to 12 dimensions; above, it sums a pilot QMC
 * sample of f at 2^10 and 2^14 points per shift (16 shifts, 278,528
 * evaluations, counted in the result's: a batch's first, whose integral
 * 0 the pilot samples) and compares the two errors: a smooth f's error
 * falls about as 1/N (16 times; 8.5 to 13 on cos(0.3 sum x) in 30-D), a
 * rough one's as 1/sqrt(N) (4 times), a peak's not at all until the
 * points find it. */
typedef enum pagani_auto_reason {
    PAGANI_AUTO_NOT_USED = 0,  /* the method was named in the options */
    PAGANI_AUTO_LOW_DIMENSION, /* cubature: n <= 12 */
    PAGANI_AUTO_SMOOTH,        /* QMC: the pilot's error fell by at least
                                  PAGANI_AUTO_SMOOTH_RATIO, or the pilot
                                  already met the tolerance */
    PAGANI_AUTO_ROUGH,         /* Vegas: it fell by less */
    PAGANI_AUTO_NO_SIGNAL      /* Vegas: every pilot value was 0 (a peak
                                  the pilot's points missed) */
} pagani_auto_reason;
/* The fall of the pilot's error, from 2^10 to 2^14 points per shift, at
 * which AUTO takes QMC: 16^0.625, the rate N^-0.625, between a smooth
 * f's N^-1 and Monte Carlo's N^-1/2. */
#define PAGANI_AUTO_SMOOTH_RATIO 5.66

/* The outcome of one integration. */
typedef struct pagani_result {
    double value;            /* estimate of the integral */
    double error;            /* estimated absolute error */
    pagani_status status;
    long long evaluations;   /* integrand evaluations (cubature: a
                                region's probes are counted whether
                                or not it was probed, the randomized
                                check's 16 points where it ran, and
                                on the CPU a graded region's second
                                evaluation: README, "Domains and
                                singularities") */
    long long regions;       /* cubature: regions evaluated in all;
                                Vegas: sub-cubes per iteration */
    int iterations;
    double chi2_dof;         /* Monte Carlo; 0 for cubature */
    pagani_method method;    /* the method that ran */
    pagani_backend backend;  /* the backend that ran */
    int rule_degree;         /* cubature: the rule that ran */
    double seconds;          /* wall time of the call */
    int by_epsabs;           /* 1 when status is PAGANI_CONVERGED and the
                                error met epsabs but not epsrel |value|
                                (Monte Carlo: both over mc_sigmas; a
                                vector integrand: by its norm), else 0 */
    int auto_reason;         /* a pagani_auto_reason: why PAGANI_AUTO
                                chose `method` (PAGANI_AUTO_NOT_USED when
                                the options named it) */
} pagani_result;

/* ---- contexts ------------------------------------------------------- */

/* Creates a context on `backend` (expensive: device set-up). AUTO takes
 * CUDA when a GPU is usable, else the CPU. Returns
 * PAGANI_ERR_BACKEND_UNAVAILABLE when CUDA is asked for and cannot run; in
 * that case *ctx is still created, so pagani_context_message() says why,
 * and must be destroyed. */
int pagani_context_create(pagani_context **ctx, pagani_backend backend);
/* Frees the context; NULL is allowed. Destroy its integrands first. */
void pagani_context_destroy(pagani_context *ctx);

/* The backend this context runs on (never AUTO). */
pagani_backend pagani_context_backend(const pagani_context *ctx);

/* CPU threads, 0..4096 (0: OpenMP's default); PAGANI_ERR_OPTION above.
 * The environment variable PAGANI_THREADS, when set and not empty, gives
 * the count a context starts with; pagani_context_create returns
 * PAGANI_ERR_OPTION (with the context, which holds the message) unless it
 * is a whole number 0..4096. Before its first parallel work with a new,
 * larger count the CPU backend starts that many threads at once to see
 * that it can (OpenMP would end the process otherwise): when it cannot
 * (a limit on processes or memory), pagani_integrate returns
 * PAGANI_ERR_SYSTEM, naming the count and the reason, and a lower count
 * can be set. */
int pagani_context_set_threads(pagani_context *ctx, int threads);

/* Memory budget in bytes for region lists (0: default, which is 1 GiB on
 * the CPU and 80% of free device memory on the GPU). */
int pagani_context_set_memory(pagani_context *ctx, size_t bytes);

/* Details of the last failure in this context; "" when none. Valid until
 * the next call on the context. */
const char *pagani_context_message(const pagani_context *ctx);

/* Asks the integration running on ctx to stop as soon as the work in
 * flight allows: on the CPU after the evaluation of f each thread is in
 * (every thread reads the flag before each evaluation), on the GPU when
 * the kernel in flight ends. The call then ends with status PAGANI_STOPPED and the
 * estimate and error of the last iteration it completed (NaN and
 * +infinity when none had). It only sets a flag, so it may be called from
 * another thread or a signal handler (pagani stops this way on Ctrl-C). A
 * request made while nothing runs stops the next integration at its first
 * pass; the call that returns clears it. On an MPI context
 * (pagani_mpi.h) a request on one rank stops every rank (in a batch
 * shared out over the ranks, that rank's share). */
void pagani_context_request_stop(pagani_context *ctx);

/* ---- integrands ----------------------------------------------------- */

/* An integrand of dimension n from a host function. params (may be NULL)
 * is copied (params_size bytes) and passed to every call. */
int pagani_integrand_from_function(pagani_context *ctx, pagani_integrand **f,
                                   int n, pagani_function function,
                                   const void *params, size_t params_size);

/* An integrand of dimension n from C source (expensive: compiles). The
 * source is a function body with `return`, or a single expression; it sees
 * x, n, params, p, <math.h>. On the CPU it is compiled by the system C
 * compiler (PAGANI_CC, default "cc") into a shared object cached under
 * $PAGANI_CACHE_DIR, else $XDG_CACHE_HOME/pagani, else ~/.cache/pagani,
 * when that folder is this user's alone (else in a private subfolder, see
 * the README). On failure returns PAGANI_ERR_COMPILE and the compiler's
 * log, with the line numbers of `source`, is in pagani_context_message().
 * Code that would run wrong does not compile: a path without a return
 * value, `return;`, an undeclared function, a variable read before it is
 * set, an undefined symbol, and a literal index outside x[0]..x[n-1] (GCC
 * also finds constant indices past x[n-1] in loops); so are a declaration
 * or statement in a source without `return`, and a directive that reads a
 * file (#include and the like: the environment above is all there is).
 * Source that reads the environment's p or params needs a parameter block
 * (params_size > 0) covering every literal p[k] it reads, else
 * PAGANI_ERR_PARAMS; names the source declares itself (a local p, a
 * member s.p) are its own: the check follows C's scopes. Indices computed
 * at run time are not checked. The compiler's processes die with a killed
 * caller (Linux) and run under limits of memory and CPU time,
 * $PAGANI_CC_MEMORY MiB (default 2048) and $PAGANI_CC_SECONDS (default
 * 60) each, 0 for none: a compile that passes them is PAGANI_ERR_COMPILE
 * naming them; a value that is not a whole number, PAGANI_ERR_OPTION. */
int pagani_integrand_from_source(pagani_context *ctx, pagani_integrand **f,
                                 int n, const char *source,
                                 const void *params, size_t params_size);

/* An integrand from a PAGANI_INTEGRAND definition: its source when the
 * backend needs source (CUDA), its host function otherwise. The source is
 * checked as in pagani_integrand_from_source, except that its parameter
 * block comes later (pagani_integrand_set_params): pagani_integrate
 * returns PAGANI_ERR_PARAMS when the source reads p or params and the
 * block is missing or shorter than a literal p[k] it reads. */
int pagani_integrand_create(pagani_context *ctx, pagani_integrand **f, int n,
                            const pagani_integrand_def *def);

/* Replaces the parameter block (copied, and padded with zeros to whole
 * doubles). Cheap: no recompilation. pagani_integrate checks the new block
 * against the source (PAGANI_ERR_PARAMS, see above). */
int pagani_integrand_set_params(pagani_integrand *f, const void *params,
                                size_t params_size);

/* Vector integrands (README, "Vector integrands"): as the three above,
 * with ncomp components (1..PAGANI_MAX_COMPONENTS, else
 * PAGANI_ERR_COMPONENTS) written by one evaluation. Source is a function
 * body that writes f[0] .. f[ncomp-1] (no single-expression form); it
 * sees ncomp besides x, n, params and p, and a `return value;` in it does
 * not compile. */
int pagani_integrand_from_vector_function(pagani_context *ctx,
                                          pagani_integrand **f, int n,
                                          int ncomp,
                                          pagani_vector_function function,
                                          const void *params,
                                          size_t params_size);
int pagani_integrand_from_vector_source(pagani_context *ctx,
                                        pagani_integrand **f, int n, int ncomp,
                                        const char *source, const void *params,
                                        size_t params_size);
int pagani_integrand_create_vector(pagani_context *ctx, pagani_integrand **f,
                                   int n, const pagani_vector_integrand_def *def);

/* A vectorized host integrand (as Cuba's nvec): called with a block of
 * npoints points (1 <= npoints <= the integrand's max_block), coordinate j
 * of point i at x[i * n + j], it writes component k of point i to
 * f[i * ncomp + k] (every one: the library fills f with NaN before each
 * call, so a value left unset is reported as a NaN of the integrand).
 * `data` is the pointer given at creation, params the integrand's
 * parameter block (NULL when it has none). Calls never overlap: the
 * library calls it from one thread at a time, so it needs no locking (but
 * not always from the same thread). It returns 0, or non-zero to stop the
 * integration at once: the integrating call then returns
 * PAGANI_ERR_ABORTED and the context message holds the returned value.
 * It may call pagani_context_request_stop (the integration then ends with
 * PAGANI_STOPPED, as on any stop request). */
typedef int (*pagani_block_function)(const double *x, int n,
                                     long long npoints, const void *params,
                                     double *f, void *data);

/* The most points per call of a block function when max_block is 0. */
#define PAGANI_DEFAULT_BLOCK 8192

/* An integrand of dimension n and ncomp components (1: scalar, usable with
 * pagani_integrate; more: a vector integrand) from a block function (CPU
 * backend only; PAGANI_ERR_NO_FORM on CUDA). max_block: the most points per
 * call, 0 for the default PAGANI_DEFAULT_BLOCK (negative:
 * PAGANI_ERR_OPTION). Each method calls it with blocks as large as its
 * work unit allows, up to max_block (README, "Vectorized host
 * integrands"); the results are those of the same f given one point at a
 * time (pagani_integrand_from_function or _from_vector_function), bit for
 * bit. params is copied as in pagani_integrand_from_function. */
int pagani_integrand_from_block_function(pagani_context *ctx,
                                         pagani_integrand **f, int n,
                                         int ncomp,
                                         pagani_block_function function,
                                         void *data, long long max_block,
                                         const void *params,
                                         size_t params_size);

/* Components of f: 1 for a scalar integrand, 0 for NULL. */
int pagani_integrand_components(const pagani_integrand *f);

/* Frees the integrand; NULL is allowed. */
void pagani_integrand_destroy(pagani_integrand *f);

/* ---- integration ---------------------------------------------------- */

/* Defaults for `method`, as documented on each field above. */
pagani_options pagani_options_default(pagani_method method);

/* An empty Vegas grid into *grid (pagani_vegas_grid above): PAGANI_OK,
 * PAGANI_ERR_NULL_POINTER, PAGANI_ERR_NO_MEMORY. Cheap. */
int pagani_vegas_grid_create(pagani_vegas_grid **grid);

/* Frees the grid; NULL is allowed. */
void pagani_vegas_grid_destroy(pagani_vegas_grid *grid);

/* Integrates f over [lower[i], upper[i]], i < n. options may be NULL (the
 * defaults of PAGANI_AUTO). Returns PAGANI_OK when an estimate was made:
 * then read result->status to learn whether it converged.
 *
 * Each axis needs lower[i] < upper[i], neither NaN; lower[i] may be
 * -INFINITY and upper[i] +INFINITY: such an axis is integrated through
 * the change of variables of options->domain_map (domain_scale,
 * domain_scales, domain_centers), and the value is the
 * integral over the unbounded domain (f must decay: a point whose
 * Jacobian is infinite contributes 0, but a slow decay shows as an error
 * that does not converge). The finite axes' widths upper[i] - lower[i]
 * and their product must be finite and not 0 in double; else
 * PAGANI_ERR_BOUNDS. PAGANI_ERR_NONFINITE means that f itself
 * returned NaN or infinity. When every value of f is finite but a sum the
 * method forms from them overflows a double, the run ends after that
 * iteration (the progress callback has seen it) with PAGANI_OK, status
 * PAGANI_NO_PROGRESS, result->error = +infinity and result->value the
 * estimate as formed (it may be +-infinity or NaN), and
 * pagani_context_message() says so; never PAGANI_CONVERGED. Where that
 * happens: cubature when a region's rule sums or the totals overflow
 * (|f| times the volume near DBL_MAX); Vegas when f times the grid's
 * Jacobian, a sum of those or a variance overflows (a variance does once
 * the spread of f J in a sub-cube, or an iteration's error, passes about
 * 1e154); QMC only when the estimate or its error leaves the range of a
 * double, or f times the transform's Jacobian does: its sums are exact
 * and scaled. */
int pagani_integrate(pagani_context *ctx, pagani_integrand *f,
                     const double *lower, const double *upper,
                     const pagani_options *options, pagani_result *result);

/* ---- batches -------------------------------------------------------- */

/* Integrates `count` integrals of one integrand in one call, each judged
 * on its own: integral k (0 <= k < count) runs with the parameter block
 * (const char *)params + k * params_size over the box lower + k *
 * box_stride, upper + k * box_stride, and results[k] is its result.
 *
 *  - params: count blocks of params_size bytes each, one after the other;
 *    with params_size 0 (params may then be NULL) every integral uses the
 *    integrand's own block. Blocks are checked against the source as in
 *    pagani_integrand_set_params (PAGANI_ERR_PARAMS).
 *  - box_stride: 0 when every integral has the box lower/upper (n doubles
 *    each), else the distance in doubles between consecutive boxes (at
 *    least n); PAGANI_ERR_BOUNDS names the first bad box.
 *  - The caller owns params, lower, upper and results; the library reads
 *    the first three during the call only and writes results[0..count-1].
 *
 * results[k] equals what pagani_integrate returns for block k and box k
 * with the same options (cubature: up to the order of floating-point sums
 * on the GPU, see the README), with two differences: `seconds` is the
 * whole batch's wall time, and the memory budget is shared. Cubature holds
 * the regions of every integral in one list: while the list fits, nothing
 * changes; when splitting would overflow it, each integral still running
 * may keep its share of the budget (an equal share) and an integral that
 * needs more ends with PAGANI_OUT_OF_CAPACITY, which says which suffered.
 * With count > 1 the progress callback is called once per iteration of
 * the batch with `size` the number of integrals still running and the
 * estimate and error of the first of them; returning non-zero stops
 * every integral still running (PAGANI_STOPPED). A batch of one is
 * pagani_integrate in every respect, the callback's `size` included.
 *
 * Returns PAGANI_OK when every integral has a result. When the integrand
 * returns NaN or infinity in some integral, the others still run to their
 * end; that integral's result is value NaN, error +infinity, status
 * PAGANI_NO_PROGRESS, and the call returns PAGANI_ERR_NONFINITE with the
 * first such integral and point in pagani_context_message(). Any other
 * error code leaves the results undefined. */
int pagani_integrate_batch(pagani_context *ctx, pagani_integrand *f, int count,
                           const void *params, size_t params_size,
                           const double *lower, const double *upper,
                           size_t box_stride, const pagani_options *options,
                           pagani_result *results);

/* ---- vector integrands ---------------------------------------------- */

/* Integrates every component of f (any integrand: a scalar one is a
 * vector of one) over the box, from the same evaluations: values[k] and
 * errors[k], k < ncomp, are component k's estimate and error. result
 * holds what concerns the whole: status (PAGANI_CONVERGED only when the
 * options' norm is met, by every component or pair where the norm is
 * individual or paired), evaluations, regions, iterations, method,
 * backend and time; result->value and result->error repeat component 0's
 * (and chi2_dof is component 0's, the one Vegas adapts its grid to).
 * PAGANI_ERR_COMPONENTS when the norm is PAGANI_NORM_PAIRED and ncomp is
 * odd. Otherwise as pagani_integrate; a NaN or infinity in any component
 * is PAGANI_ERR_NONFINITE. */
int pagani_integrate_vector(pagani_context *ctx, pagani_integrand *f,
                            const double *lower, const double *upper,
                            const pagani_options *options,
                            pagani_result *result, double *values,
                            double *errors);

/* A batch of vector integrals: pagani_integrate_batch, with integral i's
 * components in values[i * ncomp + k] and errors[i * ncomp + k]. */
int pagani_integrate_batch_vector(pagani_context *ctx, pagani_integrand *f,
                                  int count, const void *params,
                                  size_t params_size, const double *lower,
                                  const double *upper, size_t box_stride,
                                  const pagani_options *options,
                                  pagani_result *results, double *values,
                                  double *errors);
/* ---- gradients ------------------------------------------------------ */

/*
 * A gradient integrand (README, "Gradients") carries the derivatives of
 * its values with respect to m of its parameters, as a vector integrand
 * of ncomp (1 + m) components integrated on one partition (cubature) or
 * with the same points (Vegas, QMC), each judged by the options' norm:
 * first the ncomp values f_0 .. f_ncomp-1, then for each value k its m
 * derivatives df_k/dq_0 .. df_k/dq_m-1 (component ncomp + k m + j), q_j
 * being the parameter chosen j-th. pagani_integrate_vector and the batch
 * entries take it as any vector integrand (a batch gives every
 * integral's gradient in one call); pagani_integrate_gradient splits the
 * components for one integral.
 */

/* A gradient integrand from source (expensive: compiles twice over, see
 * below). ncomp 0: a scalar source (an expression or a body with
 * `return`, as pagani_integrand_from_source); ncomp >= 1: a vector source
 * writing f[0..ncomp-1] (as pagani_integrand_from_vector_source). which
 * holds the nwhich indices k of the parameters p[k] to differentiate by
 * (each inside the block, none twice; else PAGANI_ERR_PARAMS), or is NULL
 * for all of them, p[0] .. p[params_size / 8 - 1] (nwhich ignored). ncomp
 * (1 + m) above PAGANI_MAX_COMPONENTS is PAGANI_ERR_COMPONENTS. A block
 * given later (pagani_integrand_set_params, a batch's blocks) must be at
 * least params_size bytes, else PAGANI_ERR_PARAMS: the compiled code reads
 * that many as dual numbers.
 *
 * The derivatives are the source's own, in forward mode: the library
 * compiles the source once more as C++ where `double` is a dual number
 * (a value and its m derivatives; $PAGANI_CXX, default "c++", on the CPU,
 * under the limits and cache of pagani_integrand_from_source; NVRTC on
 * CUDA), p[k] is the parameter as a dual and x plain doubles. Every
 * <math.h> function with a derivative has it (the README lists them).
 * What cannot be differentiated is PAGANI_ERR_COMPILE with a first line
 * "integrand:LINE: the gradient cannot differentiate ..." naming it:
 * floor, ceil, trunc, round, rint, nearbyint, l(l)round, l(l)rint, fmod,
 * remainder, remquo, modf, frexp, copysign, nextafter, nexttoward, logb,
 * ilogb, or a function the environment does not know, of a value that
 * may depend on the parameters (a local double); a conversion of such a
 * value to an integer type; its address (&); and the block read through
 * params (read parameters as p[k]). Comparisons compare values: a branch
 * whose condition depends on a parameter gives the derivative of the
 * branch taken, so the integrand must not jump where such a condition
 * changes (the jump's own derivative is not seen); continuous forms
 * (fmin, fmax, fabs, fdim) are exact. */
int pagani_integrand_gradient_from_source(pagani_context *ctx,
                                          pagani_integrand **f, int n,
                                          int ncomp, const char *source,
                                          const void *params,
                                          size_t params_size,
                                          const int *which, int nwhich);

/* A gradient integrand from a host function (CPU backend) that writes its
 * ncomp values and their nparams derivatives each, in the order above,
 * ncomp (1 + nparams) components in all (at most PAGANI_MAX_COMPONENTS,
 * each count at least 1; else PAGANI_ERR_COMPONENTS). params is copied
 * as in pagani_integrand_from_function. */
int pagani_integrand_gradient_from_function(pagani_context *ctx,
                                            pagani_integrand **f, int n,
                                            int ncomp, int nparams,
                                            pagani_vector_function function,
                                            const void *params,
                                            size_t params_size);

/* Integrates a gradient integrand f as pagani_integrate_vector does, and
 * splits its components: value[k] and error[k] (k < ncomp) are the
 * values' estimates and errors, gradient[k * m + j] and
 * gradient_error[k * m + j] the derivative of value k by the j-th
 * parameter chosen and its error (each judged by the options' norm, as a
 * component). PAGANI_ERR_COMPONENTS when f is not a gradient integrand.
 * The arrays are written when the call returns PAGANI_OK or
 * PAGANI_ERR_NONFINITE. */
int pagani_integrate_gradient(pagani_context *ctx, pagani_integrand *f,
                              const double *lower, const double *upper,
                              const pagani_options *options,
                              pagani_result *result, double *value,
                              double *error, double *gradient,
                              double *gradient_error);

/* The derivatives of the integral of f over the box by its limits: the
 * integrals over its 2n faces, d/dupper[i] = the integral of f over the
 * face x_i = upper[i] and d/dlower[i] = minus the integral over x_i =
 * lower[i], each an (n-1)-dimensional integral that the library runs
 * with options (all 2n as one batch, pagani_integrate_batch_vector).
 * f: source (every backend) or a one-point host function (CPU; a block
 * function is PAGANI_ERR_NO_FORM), scalar or vector, not a gradient
 * integrand (PAGANI_ERR_COMPONENTS: make a plain one of the same source).
 * Needs n >= 2 (PAGANI_ERR_DIMENSION) and finite limits, lower < upper
 * (PAGANI_ERR_BOUNDS). Component k of f's derivative by lower[i] is in
 * dlower[i * ncomp + k] with its error in dlower_error[i * ncomp + k],
 * the same for upper; results[i] is the face at lower[i], results[n + i]
 * the face at upper[i] (2n results; their status says whether each
 * converged). Expensive on a first call with source: compiles the face
 * integrand. The arrays are written when the call returns PAGANI_OK or
 * PAGANI_ERR_NONFINITE. */
int pagani_integrate_limits_gradient(pagani_context *ctx, pagani_integrand *f,
                                     const double *lower, const double *upper,
                                     const pagani_options *options,
                                     pagani_result *results, double *dlower,
                                     double *dlower_error, double *dupper,
                                     double *dupper_error);

/* ---- QMC in parts ---------------------------------------------------- */

/*
 * A PAGANI_QMC integral of N points per shift can be cut into parts run as
 * separate jobs (other processes, machines, days) and combined afterwards:
 * Hofbauer, Uhl and Zinterhof's GRID scheme. The parts cut the sequence
 * indices 1..N into P contiguous blocks, in order, of N / P or N / P + 1
 * indices (the first N mod P parts one more); part p sums its block for
 * every random shift. Its sums are exact (integers), so the combination
 * of all P parts, in any order, is bit for bit the result of
 * pagani_integrate on
 * one process with the same options whose run ends at N points per shift
 * (N = qmc_initial_points * 2^(i - 1) after its i-th block), whatever P.
 *
 * A part's result is a record of PAGANI_QMC_PART_WORDS(shifts) 64-bit
 * integers: PAGANI_QMC_PART_HEADER words that say what it is, then for
 * each shift the PAGANI_QMC_SUM_WORDS words of its exact sum. The header,
 * in order: a tag and version ("PQMC" in the high 32 bits, version 2 in
 * the low), the part, the parts, the shifts, N, n, the seed, the
 * transform; fingerprints (64-bit FNV-1a) of the integrand (its form, n,
 * ncomp and source text; a host function's code cannot be known), of its
 * parameter block and of the box (the bit patterns of its bounds); and a
 * checksum, the FNV-1a of every other word of the record. It is plain
 * data: store it as the caller likes (fwrite, a database); it reads back
 * on a machine of the same byte order. The fingerprints and the checksum
 * catch a part of another integral and a damaged record, not forgery:
 * they are no signature.
 */
#define PAGANI_QMC_PART_HEADER 12
#define PAGANI_QMC_SUM_WORDS 69
#define PAGANI_QMC_PART_WORDS(shifts) \
    (PAGANI_QMC_PART_HEADER + (size_t)(shifts) * PAGANI_QMC_SUM_WORDS)

/* Sums part `part` (0 <= part < parts) of the QMC integral of f over
 * [lower, upper] with `points` (N >= 1) points per shift into `record`,
 * PAGANI_QMC_PART_WORDS(shifts) long longs, shifts being options'
 * qmc_shifts (0: 16). options may be NULL (the defaults); its method is
 * ignored; qmc_shifts, qmc_transform and seed fix the points. Returns
 * PAGANI_OK, or an error as pagani_integrate's (PAGANI_ERR_NONFINITE
 * names the point where f was NaN or infinite); PAGANI_ERR_OPTION when
 * part, parts or points are out of range (0 <= part < parts <= N < 2^62);
 * PAGANI_ERR_COMPONENTS for a vector integrand (a record holds one
 * component's sums); PAGANI_ERR_STOPPED when a stop request cut it short
 * (pagani_context_request_stop). On a context of
 * pagani_mpi.h it is collective, its part spread over the ranks. */
int pagani_qmc_part(pagani_context *ctx, pagani_integrand *f,
                    const double *lower, const double *upper,
                    const pagani_options *options, unsigned long long points,
                    int part, int parts, long long *record);

/* Combines `count` records of one integral (made by pagani_qmc_part with
 * the same f, box, options and points) into *result: value and error from
 * the exact sums of the points present, iterations 1, evaluations the
 * points times the shifts, status PAGANI_CONVERGED when the tolerance of
 * options is met, PAGANI_NO_SIGNAL when every sum is 0, else
 * PAGANI_MAX_ITERATIONS with every part present or PAGANI_MAX_EVALUATIONS
 * with some missing (then the estimate is the paper's weighting of the
 * parts present: each shift's mean over the points present).
 * Records are untrusted input, each word checked before it is used:
 * PAGANI_ERR_OPTION, with the message naming what, when a record is of
 * another version, damaged (its checksum, or a sum no part can hold), out
 * of range (part, parts, points), not a part of this integral (made from
 * another integrand or parameter block, over another box, in another
 * dimension, with other shifts, seed or transform, or cut into other
 * parts of other points than record 0) or when a part comes twice;
 * PAGANI_ERR_NULL_POINTER for a NULL record. Needs no backend: the
 * context holds the message. */
int pagani_qmc_combine_parts(pagani_context *ctx, pagani_integrand *f,
                             const double *lower, const double *upper,
                             const pagani_options *options, int count,
                             const long long *const *records,
                             pagani_result *result);

/* ---- names ---------------------------------------------------------- */

const char *pagani_strerror(int code);
const char *pagani_status_name(pagani_status status);
const char *pagani_method_name(pagani_method method);
/* pagani_result.auto_reason in words: "low dimension", "smooth", ... */
const char *pagani_auto_reason_name(int reason);
const char *pagani_backend_name(pagani_backend backend);
const char *pagani_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_H */
