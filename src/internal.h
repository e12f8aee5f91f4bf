/*
 * internal.h - the library's private structures: what a context and an
 * integrand hold, and the helpers every module uses to report failures.
 */
#ifndef PAGANI_INTERNAL_H
#define PAGANI_INTERNAL_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include "pagani.h"
#include "backend.h"

struct pagani_batch; /* methods.h */
struct pagani_gradient; /* gradient/gradient.h */

/* What the ranks of an MPI context must agree on when a collective call
 * starts its work: a word for each field, the thing itself or its
 * fingerprint (state/identity.h). */
enum pagani_call_field {
    PAGANI_CALL_METHOD,
    PAGANI_CALL_N,
    PAGANI_CALL_NCOMP,
    PAGANI_CALL_COUNT,
    PAGANI_CALL_INTEGRAND,
    PAGANI_CALL_PARAMS,
    PAGANI_CALL_BOXES,
    PAGANI_CALL_OPTIONS,
    PAGANI_CALL_PART,      /* pagani_qmc_part's part, parts and points */
    PAGANI_CALL_FIELDS
};

typedef struct pagani_call_identity {
    unsigned long long field[PAGANI_CALL_FIELDS];
} pagani_call_identity;

/* The identity of integrating batch with f and opt, opt's method chosen
 * (call_identity.c); part: pagani_qmc_part's fingerprint of its part,
 * parts and points, else 0. */
void pagani_call_identity_of(pagani_call_identity *id,
                             const pagani_integrand *f,
                             const struct pagani_batch *batch,
                             const pagani_options *opt,
                             unsigned long long part);

/* A field's name for a message ("the boxes"). */
const char *pagani_call_field_name(int field);

/* A Vegas grid kept for a warm start (pagani.h's pagani_vegas_grid; made
 * and filled in src/vegas/vegas_warm.c, fingerprinted in checkpoints'
 * identities): rows of bins + 1 edges for an integrand of n dimensions;
 * rows 0 while empty. */
struct pagani_vegas_grid {
    int n, rows, bins;
    double *edges;
};

/* A layer over a context's backend: the MPI layer (src/mpi) on a context
 * made on a communicator. */
typedef struct pagani_layer {
    void *state;
    /* The start of a collective call's work, once this rank's own checks
     * passed: see pagani_collective_start. */
    int (*call_start)(pagani_context *ctx, const pagani_call_identity *call);
    /* The end of every collective public call: see pagani_collective_end. */
    int (*collective_end)(pagani_context *ctx, int rc);
    /* Runs a checked batch in place of pagani_run_method (methods.h), which
     * it may call for parts of it (the MPI layer spreads a batch's
     * integrals over the ranks); NULL: pagani_run_method. */
    int (*run_batch)(pagani_context *ctx, pagani_integrand *f,
                     const struct pagani_batch *batch,
                     const pagani_options *opt, pagani_result *results);
    /* Frees state, after the backend is closed. */
    void (*close)(void *state);
    /* Checkpoints (src/state/checkpoint.c): this process is rank `rank`
     * of `ranks`, each writing a file of its own. Among ranks that run
     * one driver together (not a rank's share of a batch, where both are
     * the identity), the agreement on a checkpoint step's code (the
     * lowest failing rank's, with its message), and whether any rank's
     * flag is set (a write due by its clock, a file found). */
    int rank, ranks;
    int (*checkpoint_agree)(pagani_context *ctx, int rc);
    int (*checkpoint_any)(pagani_context *ctx, int flag);
    /* And whether value is the same on all of them (the iteration their
     * files hold: ranks killed while writing may have left files of two
     * iterations). */
    int (*checkpoint_same)(pagani_context *ctx, long long value);
    /* Cubature checkpoints (src/cubature/cubature_checkpoint.c): the
     * regions of each integral in this process's part of the backend's
     * list (counts[k], k < the job's integrals) where the layer
     * partitions the list and the driver counts the whole (the MPI
     * layer); NULL: the driver's counts are the list's. */
    void (*cubature_counts)(pagani_context *ctx, long long *counts);
} pagani_layer;

struct pagani_context {
    pagani_backend kind;          /* never AUTO once created */
    const backend_ops *backend;   /* NULL when the backend could not open */
    void *backend_state;
    int threads;                  /* 0: OpenMP's default */
    size_t memory_budget;         /* 0: the backend's default */
    char *message;                /* details of the last failure */
    int node_rank;                /* the MPI layer's node-local rank: the
                                     CUDA backend takes the GPU node_rank
                                     modulo the count; -1 outside MPI */
    int node_size;                /* the ranks on this node (0 outside
                                     MPI): those that share a GPU share
                                     its default memory budget */
    pagani_layer layer;           /* all zero: none */
    volatile sig_atomic_t stop_requested; /* pagani_context_request_stop */
};

struct pagani_integrand {
    pagani_context *ctx;
    int n;
    int ncomp;                    /* components: 1 for a scalar integrand */
    int vector_form;              /* made by a vector constructor: its
                                     source writes f[0..ncomp-1] */
    pagani_function function;     /* host form (user's or compiled), or NULL;
                                     scalar integrands only */
    pagani_vector_function vector_function; /* host form of a vector
                                     integrand (ncomp >= 1), or NULL */
    pagani_block_function block_function; /* vectorized host form (any
                                     ncomp), or NULL; with its */
    void *block_data;             /* data pointer and */
    long long max_block;          /* most points per call */
    char *source;                 /* the user's source, or NULL */
    void *params;                 /* owned copy of the parameter block */
    size_t params_size;
    void *host_module;            /* dlopen handle of compiled source */
    int params_line;              /* source: first line reading p, or 0 */
    int p_line;                   /* source: the line and index of the */
    long long p_index;            /* literal p[K] needing most (or 0) */
    struct pagani_gradient *gradient; /* the layout of a gradient
                                     integrand's components (owned), or
                                     NULL */
    /* The backend's compiled forms, [mapped][method]: per method (indexed
     * by pagani_method: PAGANI_CUBATURE, PAGANI_VEGAS, PAGANI_QMC) one
     * whose entry calls f at the point with the caller's block (mapped 0)
     * and one that reads the domain map's header first (mapped 1: runs
     * with an unbounded axis or break points,
     * cuda_integrand_mapped); each made on first use and freed by
     * the backend's release_integrand. */
    void *device_module[2][4];
};

/* Whether f has a host form the CPU can call. */
static inline int pagani_has_host_form(const struct pagani_integrand *f)
{
    return f->function || f->vector_function || f->block_function;
}

/* f's ncomp values at x, with parameter block params, into out, from a
 * one-point form (not a block function: src/cpu/cpu_block.h). A vector
 * integrand gets out filled with NaN first, so that a component it leaves
 * unset reads as not finite. */
static inline void pagani_integrand_eval(const struct pagani_integrand *f,
                                         const double *x, const void *params,
                                         double *out)
{
    if (f->function) {
        out[0] = f->function(x, f->n, params);
        return;
    }
    for (int c = 0; c < f->ncomp; c++) out[c] = NAN;
    f->vector_function(x, f->n, params, out);
}

/* Checks, before an integration, that a parameter block of params_size
 * bytes fits f's source (integrand.c): PAGANI_ERR_PARAMS, with the source
 * line, when the source reads p or params and the block is missing or
 * shorter than a literal index it reads. */
int pagani_params_check(pagani_context *ctx, const pagani_integrand *f,
                        size_t params_size);

/* The gradient constructors' common part (integrand.c, for
 * src/gradient): an integrand of dimension n whose g->values (1 +
 * g->params) components are laid out as gradient.h says, from source (the
 * user's, of g->source_ncomp components; compiled with dual numbers) or,
 * when source is NULL, from a host function writing every component.
 * Takes g (freed on failure). Collective on an MPI context. */
int pagani_integrand_with_gradient(pagani_context *ctx, pagani_integrand **f,
                                   int n, const char *source,
                                   pagani_vector_function function,
                                   const void *params, size_t params_size,
                                   struct pagani_gradient *g);

/* Checks options (api.c): tolerances (PAGANI_ERR_TOLERANCE), the method,
 * limits, rule, splits, norm, strategy and mc_sigmas (PAGANI_ERR_OPTION). */
int pagani_check_options(pagani_context *ctx, const pagani_options *o);

/* Checks a box (api.c): each axis finite with lower < upper, its width
 * and the volume finite and not 0; else PAGANI_ERR_BOUNDS with the axis. */
int pagani_check_bounds(pagani_context *ctx, int n, const double *lower,
                        const double *upper);

/* Bytes of a parameter block of params_size bytes padded to whole doubles
 * (as f->params and the blocks of a batch are); params_size must have
 * passed pagani_params_fit. */
size_t pagani_params_padded(size_t params_size);

/* Whether `count` (>= 1) parameter blocks of params_size bytes, each
 * padded to whole doubles, fit in a size_t (integrand.c): PAGANI_OK, else
 * PAGANI_ERR_NO_MEMORY with the sizes in ctx's message. Every size
 * computed from a caller's params_size is checked by it first. */
int pagani_params_fit(pagani_context *ctx, size_t params_size, int count);

/* Which of the `count` integrals of a batch the context's message is
 * about: i where it reads "integral i: REST" (0 <= i < count), with
 * *rest at REST; in a batch of one any message but a stop request's
 * (PAGANI_STOP_MESSAGE: about the call) is about integral 0 and *rest
 * the whole of it; -1 when it names none (or is empty). A share of
 * a batch run as a batch of its own renumbers its message with it:
 * pagani_fail(ctx, rc, "integral %d: %s", index of i in the whole, *rest)
 * (pagani_fail formats before it replaces the message). */
int pagani_message_integral(const pagani_context *ctx, int count,
                            const char **rest);

/* Sets the context's message (printf-style) and returns `code`, so that a
 * failure reads: return pagani_fail(ctx, PAGANI_ERR_BOUNDS, "...", ...). */
int pagani_fail(pagani_context *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears the context's message. */
void pagani_clear_message(pagani_context *ctx);

/* What a backend operation returns when a stop request
 * (pagani_context_request_stop) cut its work short: not a public code;
 * the drivers end their integrals with PAGANI_STOPPED on it (the MPI
 * layer's agreement carries it to every rank first). */
#define PAGANI_STOP_REQUESTED (-1)

/* The message of a stop request: about the call, never an integral. */
#define PAGANI_STOP_MESSAGE "stopped on request (pagani_context_request_stop)"

/* A backend operation's last word: PAGANI_STOP_REQUESTED (with
 * PAGANI_STOP_MESSAGE) once a stop was requested, else PAGANI_OK.
 * Backends call it after each pass and skip what is left of a pass
 * while ctx->stop_requested is set. */
static inline int pagani_stop_point(pagani_context *ctx)
{
    if (!ctx->stop_requested) return PAGANI_OK;
    return pagani_fail(ctx, PAGANI_STOP_REQUESTED, "%s", PAGANI_STOP_MESSAGE);
}

/* ---- hooks of the MPI layer (src/mpi, libpagani_mpi) ---------------- */

/* pagani_context_create for one rank of a communicator with node_size
 * ranks on its node: the CUDA backend takes the GPU node_rank modulo the
 * GPUs present (PAGANI_CUDA_DEVICE, when set, still wins), and the ranks
 * that share a GPU share its memory. */
int pagani_context_create_ranked(pagani_context **out, pagani_backend backend,
                                 int node_rank, int node_size);

/* Puts a layer over ctx's backend (a decorator): `layer` is copied into
 * ctx, and `ops`, a table the layer keeps for the context's life, becomes
 * the backend's table with layer->state as the backend's state; the layer
 * keeps the backend's table and state and calls them. With ops NULL (the
 * backend did not open) only the layer is kept. */
void pagani_context_add_layer(pagani_context *ctx, const backend_ops *ops,
                              const pagani_layer *layer);

/* Where a collective public call (pagani_integrate, its batch and vector
 * forms, pagani_qmc_part) starts its work on ctx, after this rank's own
 * checks: PAGANI_OK on an ordinary context (nothing is computed); on an
 * MPI context the ranks agree first on the code (a rank that failed its
 * checks fails all), then on the call's identity (pagani_call_identity_of
 * with these arguments), and every rank returns PAGANI_ERR_OPTION, with a
 * message naming the fields that differ, when the ranks' calls differ. */
int pagani_collective_start(pagani_context *ctx, const pagani_integrand *f,
                            const struct pagani_batch *batch,
                            const pagani_options *opt,
                            unsigned long long part);

/* Where a public call on ctx ends that is collective on an MPI context
 * (integrand creation, pagani_integrate, pagani_integrate_batch, the QMC
 * parts): returns rc on an ordinary context; on an MPI context the code
 * every rank agrees on (the first failing rank's, with its message in
 * ctx), so that a rank that failed alone does not leave the others
 * waiting. */
int pagani_collective_end(pagani_context *ctx, int rc);

/* Monotonic wall clock in seconds. */
double pagani_now(void);

#endif /* PAGANI_INTERNAL_H */
