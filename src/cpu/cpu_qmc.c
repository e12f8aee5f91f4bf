/*
 * cpu_qmc.c - the OpenMP backend's QMC operation (qmc_backend.h): shifted
 * Zinterhof sums over a block or a leap of indices, for every integral of
 * a batch.
 *
 * Work: the (shift, chunk of CPU_QMC_CHUNK indices) pairs, handed out
 * dynamically; a team only when the pass is large enough (cpu_team, work =
 * points x integrals). A thread makes each point of its chunk once, in
 * the unit cube (tiles of CPU_QMC_TILE points), then maps the tile to each
 * running integral's box and adds f's values into that integral's exact
 * accumulators (exact_sum.h; one per component), merged into the shift's sums after the chunk:
 * all integer additions, so the sums do not depend on the schedule, on the
 * thread count or on the other integrals. Within a chunk the fixed-point
 * states advance by adding leap * theta, which gives the same bits as
 * computing each point on its own. A stop request is read before every
 * evaluation (one volatile load), not only between chunks.
 *
 * A block integrand (cpu_block.h) takes a chunk of max(CPU_QMC_CHUNK,
 * max_block) indices (at most CPU_BLOCK_MOST) as one tile: its points are
 * mapped to each integral's box together and evaluated in calls of at
 * most max_block points, then added as the one-point forms' are (exact
 * sums, so the chunks' size changes no bit of the result).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu_backend.h"
#include "cpu/cpu_block.h"
#include "qmc_backend.h"
#include "sampling/qmc_point.h"
#include "sampling/zinterhof_table.h"

#define CPU_QMC_CHUNK 4096ULL
#define CPU_QMC_TILE 64

typedef struct cpu_qmc {
    qmc_job job;
    const cpu_state *backend;
    double *width;               /* width[k * n + i]: integral k's box */
    unsigned long long chunk;    /* indices of a work item */
    int tile;                    /* points of a tile: CPU_QMC_TILE, or a
                                    block integrand's chunk */
} cpu_qmc;

/* Frees a state made by cpu_qmc_setup (NULL: nothing). */
static void cpu_qmc_release(void *qmc_state)
{
    cpu_qmc *q = qmc_state;
    if (!q) return;
    free(q->width);
    free(q);
}

/* The state of a job: the job, the backend (for its thread count) and
 * each integral's box widths, upper - lower as the single call has them. */
static int cpu_qmc_setup(void *backend_state, const qmc_job *job,
                         void **qmc_state)
{
    const int n = job->n;
    cpu_qmc *q;
    int rc = cpu_start_threads(backend_state);

    if (rc != PAGANI_OK) return rc;
    q = calloc(1, sizeof *q);
    if (q) q->width = malloc((size_t)job->integrals * n * sizeof(double));
    if (!q || !q->width) {
        cpu_qmc_release(q);
        return pagani_fail(job->integrand->ctx, PAGANI_ERR_NO_MEMORY,
                           "QMC state: the boxes of %d integrals",
                           job->integrals);
    }
    q->job = *job;
    q->backend = backend_state;
    q->chunk = CPU_QMC_CHUNK;
    q->tile = CPU_QMC_TILE;
    if (cpu_is_block(job->integrand)) {
        long long most = job->integrand->max_block < CPU_BLOCK_MOST
                             ? job->integrand->max_block : CPU_BLOCK_MOST;
        if ((unsigned long long)most > q->chunk)
            q->chunk = (unsigned long long)most;
        q->tile = (int)q->chunk;
    }
    for (int k = 0; k < job->integrals; k++) {
        const double *lower = qmc_job_lower(job, k);
        const double *upper = qmc_job_upper(job, k);
        for (int i = 0; i < n; i++)
            q->width[(size_t)k * n + i] = upper[i] - lower[i];
    }
    *qmc_state = q;
    return PAGANI_OK;
}

/* Fixed-point states of point k of `shift`, and the step leap * theta. */
static void start_states(const qmc_job *job, unsigned shift,
                         unsigned long long k, unsigned long long leap,
                         pagani_u128 *state, pagani_u128 *step)
{
    for (int i = 0; i < job->n; i++) {
        pagani_u128 theta = {pagani_zinterhof_theta[i][0],
                             pagani_zinterhof_theta[i][1]};
        state[i] = pagani_qmc_state(job->seed, shift, (unsigned)i, k,
                                    pagani_zinterhof_theta[i]);
        step[i] = pagani_u128_mul(leap, theta);
    }
}

/* The point of the states in the unit cube, u[i] = phi(t_i), with its
 * Jacobian; advances the states by one step. */
static double next_unit(const qmc_job *job, pagani_u128 *state,
                        const pagani_u128 *step, double *u)
{
    double w = 1.0;
    for (int i = 0; i < job->n; i++) {
        u[i] = pagani_qmc_unit(state[i], job->transform, &w);
        state[i] = pagani_u128_add(state[i], step[i]);
    }
    return w;
}

/* Whether fault (k, r) comes before the recorded one. */
static int earlier(unsigned long long k, int r, const qmc_fault *f)
{
    return f->k == 0 || k < f->k || (k == f->k && r < f->shift);
}

/* A tile of points of one shift in the unit cube: u[p * n + i], w[p], and
 * the index of point 0 (point p has index k + p * leap); for a block
 * integrand also the points in one integral's box, x[p * n + i], and f's
 * values there, fx[p * ncomp + c]. */
typedef struct unit_tile {
    double *u, *w, *x, *fx;
    unsigned long long k;
    int points;
} unit_tile;

static void tile_free(unit_tile *t)
{
    if (!t) return;
    free(t->u);
    free(t->w);
    free(t->x);
    free(t->fx);
    free(t);
}

/* A thread's tile for q's job (NULL when out of memory). */
static unit_tile *tile_new(const cpu_qmc *q)
{
    const size_t points = (size_t)q->tile, n = (size_t)q->job.n;
    const int block = cpu_is_block(q->job.integrand);
    unit_tile *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->u = malloc(points * n * sizeof(double));
    t->w = malloc(points * sizeof(double));
    if (block) {
        t->x = malloc(points * n * sizeof(double));
        t->fx = malloc(points * (size_t)q->job.ncomp * sizeof(double));
    }
    if (t->u && t->w && (!block || (t->x && t->fx))) return t;
    tile_free(t);
    return NULL;
}

/* The first component of fx[0..ncomp-1] whose product with w is not
 * finite, or -1. */
static int first_nonfinite(const double *fx, int ncomp, double w)
{
    for (int c = 0; c < ncomp; c++)
        if (!isfinite(fx[c] * w)) return c;
    return -1;
}

/* Point p of the tile in integral `id`'s box, into x. */
static void map_point(const cpu_qmc *q, const unit_tile *t, int id, int p,
                      double *x)
{
    const int n = q->job.n;
    const double *lower = qmc_job_lower(&q->job, id);
    const double *width = q->width + (size_t)id * n;
    const double *u = t->u + (size_t)p * n;
    for (int i = 0; i < n; i++) x[i] = pagani_qmc_map(u[i], lower[i], width[i]);
}

/* Adds f_c * w at point p of the tile (fx: its ncomp values) to acc[c],
 * c < ncomp, and raises *peak to the largest |f_c * w|; records in *fault
 * the first point where a value is not finite (its point is left out of
 * every component's sum). */
static void add_point(const cpu_qmc *q, const unit_tile *t, int p,
                      const double *fx, int id, int shift,
                      unsigned long long leap, pagani_xsum *acc, double *peak,
                      qmc_fault *fault)
{
    const int ncomp = q->job.ncomp;
    const int bad = first_nonfinite(fx, ncomp, t->w[p]);
    if (bad < 0) {
        for (int c = 0; c < ncomp; c++) {
            double v = fx[c] * t->w[p];
            pagani_xsum_add(&acc[c], v);
            *peak = fmax(*peak, fabs(v));
        }
        return;
    }
    if (earlier(t->k + (unsigned long long)p * leap, shift, fault)) {
        fault->k = t->k + (unsigned long long)p * leap;
        fault->shift = shift;
        fault->integral = id;
        fault->component = bad;
        fault->value = fx[bad];
    }
}

/* Adds the tile's points in integral `id`'s box to acc and peak (add_point), f
 * evaluated one point at a time, or for a block integrand in blocks.
 * Returns 0 when the pass was halted before every value was made (a
 * block function's abort, or a stop request, which is read before every
 * one-point evaluation so that it takes effect after the evaluation in
 * flight whatever f costs; the pass is then discarded), else 1. */
static int sum_tile(const cpu_qmc *q, unit_tile *t, cpu_block_gate *gate,
                    int id, int shift, unsigned long long leap,
                    pagani_xsum *acc, double *peak, qmc_fault *fault)
{
    const qmc_job *job = &q->job;
    const pagani_integrand *f = job->integrand;
    const int n = job->n, ncomp = job->ncomp;
    const void *params = qmc_job_params(job, id);
    double x[PAGANI_MAX_DIM], fx[PAGANI_MAX_COMPONENTS];

    if (cpu_is_block(f)) {
        for (int p = 0; p < t->points; p++)
            map_point(q, t, id, p, t->x + (size_t)p * n);
        if (!cpu_block_eval(gate, f, t->x, t->points, params, t->fx)) return 0;
        for (int p = 0; p < t->points; p++)
            add_point(q, t, p, t->fx + (size_t)p * ncomp, id, shift, leap,
                      acc, peak, fault);
        return 1;
    }
    for (int p = 0; p < t->points; p++) {
        if (f->ctx->stop_requested) return 0;
        map_point(q, t, id, p, x);
        pagani_integrand_eval(f, x, params, fx);
        add_point(q, t, p, fx, id, shift, leap, acc, peak, fault);
    }
    return 1;
}

/* qmc_ops.sums: see the file's comment for how the work is shared. */
static int cpu_qmc_sums(void *qmc_state, const int *ids, int live,
                        int first_shift, int shifts, unsigned long long first,
                        unsigned long long count, unsigned long long leap,
                        pagani_xsum *out, qmc_fault *faults, double *peaks)
{
    const cpu_qmc *q = qmc_state;
    const qmc_job *job = &q->job;
    pagani_context *ctx = job->integrand->ctx;
    const int C = job->ncomp;
    const unsigned long long chunk = q->chunk;
    long long chunks = (long long)((count + chunk - 1) / chunk);
    long long items = chunks * shifts;
    double work = (double)count * shifts * live;
    int no_memory = 0, any = 0;
    cpu_block_gate gate = {0};

    memset(faults, 0, (size_t)live * sizeof *faults);
    for (size_t j = 0; j < (size_t)live * C * shifts; j++)
        pagani_xsum_zero(&out[j]);
    for (size_t j = 0; peaks && j < (size_t)live * shifts; j++) peaks[j] = 0.0;
    if (live < 1) return PAGANI_OK;

#pragma omp parallel num_threads(cpu_team(q->backend, work))
    {
        /* one chunk's sums (one per integral and component) and largest
         * |f w| (one per integral), and this thread's faults */
        pagani_xsum *acc = malloc((size_t)live * C * sizeof *acc);
        double *top = malloc((size_t)live * sizeof *top);
        qmc_fault *mine = calloc((size_t)live, sizeof *mine);
        unit_tile *tile = tile_new(q);
        pagani_u128 state[PAGANI_MAX_DIM], step[PAGANI_MAX_DIM];

#pragma omp for schedule(dynamic, 1)
        for (long long item = 0; item < items; item++) {
            int r = (int)(item / chunks), shift = first_shift + r;
            unsigned long long j0 = (unsigned long long)(item % chunks) * chunk;
            unsigned long long j1 = j0 + chunk < count ? j0 + chunk : count;
            int summed = 1;
            if (!acc || !top || !mine || !tile || cpu_block_halted(ctx, &gate))
                continue;
            for (int m = 0; m < live * C; m++) pagani_xsum_zero(&acc[m]);
            for (int m = 0; m < live; m++) top[m] = 0.0;
            start_states(job, (unsigned)shift, first + j0 * leap, leap, state,
                         step);
            for (unsigned long long j = j0;
                 summed && j < j1 && !ctx->stop_requested; j += q->tile) {
                tile->k = first + j * leap;
                tile->points = j1 - j < (unsigned long long)q->tile
                                   ? (int)(j1 - j) : q->tile;
                for (int p = 0; p < tile->points; p++)
                    tile->w[p] = next_unit(job, state, step,
                                           tile->u + (size_t)p * job->n);
                for (int m = 0; summed && m < live; m++)
                    summed = sum_tile(q, tile, &gate, ids[m], shift, leap,
                                      &acc[(size_t)m * C], &top[m], &mine[m]);
            }
            if (!summed) continue; /* halted: the pass's sums are dropped */
#pragma omp critical(pagani_cpu_qmc_merge)
            {
                for (int m = 0; m < live * C; m++)
                    pagani_xsum_merge(&out[(size_t)m * shifts + r], &acc[m]);
                for (int m = 0; peaks && m < live; m++)
                    peaks[(size_t)m * shifts + r] =
                        fmax(peaks[(size_t)m * shifts + r], top[m]);
            }
        }
#pragma omp critical(pagani_cpu_qmc_merge)
        {
            if (!acc || !top || !mine || !tile) no_memory = 1;
            else
                for (int m = 0; m < live; m++)
                    if (mine[m].k &&
                        earlier(mine[m].k, mine[m].shift, &faults[m]))
                        faults[m] = mine[m];
        }
        free(acc);
        free(top);
        free(mine);
        tile_free(tile);
    }
    if (no_memory)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY,
                           "QMC accumulators of %d integrals", live);
    if (cpu_block_halted(ctx, &gate))
        return cpu_block_result(ctx, &gate, pagani_stop_point(ctx));
    for (int m = 0; m < live; m++) any |= faults[m].k != 0;
    return any ? PAGANI_ERR_NONFINITE : PAGANI_OK;
}

/* qmc_ops.points: the points of one shift in integral 0's box. */
static int cpu_qmc_points(void *qmc_state, int shift, unsigned long long first,
                          unsigned long long count, unsigned long long leap,
                          double *x)
{
    const cpu_qmc *q = qmc_state;
    const int n = q->job.n;
    const double *lower = qmc_job_lower(&q->job, 0);
    pagani_u128 state[PAGANI_MAX_DIM], step[PAGANI_MAX_DIM];

    start_states(&q->job, (unsigned)shift, first, leap, state, step);
    for (unsigned long long j = 0; j < count; j++) {
        double *xj = x + j * (unsigned long long)n;
        next_unit(&q->job, state, step, xj);
        for (int i = 0; i < n; i++)
            xj[i] = pagani_qmc_map(xj[i], lower[i], q->width[i]);
    }
    return PAGANI_OK;
}

const qmc_ops pagani_cpu_qmc_ops = {
    cpu_qmc_setup,
    cpu_qmc_sums,
    cpu_qmc_points,
    cpu_qmc_release,
};
