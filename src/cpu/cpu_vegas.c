/*
 * cpu_vegas.c - the OpenMP backend's Vegas operations (vegas_backend.h).
 *
 * Work: the pieces of the cubes (all of them, or every stride-th piece for
 * a pilot), cut into chunks of consecutive pieces whose size depends on the
 * job alone, handed out dynamically. Each chunk keeps its own sums, added
 * in chunk order afterwards, so the results do not depend on the thread
 * count or the schedule. Bin contributions are integers (vegas_backend.h):
 * each thread adds into private 64-bit cells, moved into 128-bit totals at
 * least every VEGAS_BLOCK_SAMPLES samples; integer sums are exact, so the
 * bins do not depend on the schedule either.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cpu/cpu_backend.h"
#include "vegas_backend.h"
#include "sampling/vegas_piece.h"
#include "sampling/vegas_grid.h"

#define CPU_VEGAS_CHUNK_SAMPLES 4096

/* One chunk's sums. */
typedef struct chunk_sums {
    double value, variance, vmax, beta_sum, fault_value;
    long long evaluations, nonzero, fault_cube, fault_sample;
    int overflow;
} chunk_sums;

typedef struct cpu_vegas {
    vegas_job job;
    int threads;
    int rows;                    /* grid rows */
    size_t cells;                /* rows * nb */
    double *grid;
    long long chunk_units;       /* pieces (Vegas+: cubes) per chunk */
    long long max_chunks;
    chunk_sums *chunks;
    unsigned long long *acc;     /* threads x cells, 64-bit */
    unsigned long long *total;   /* threads x cells x {lo, hi} */
    double *sigma;               /* Vegas+: sigma_c^beta per cube */
    long long *counts;           /* Vegas+: samples per cube */
} cpu_vegas;

static void cpu_vegas_release(void *vegas_state)
{
    cpu_vegas *s = vegas_state;
    if (!s) return;
    free(s->grid);
    free(s->chunks);
    free(s->acc);
    free(s->total);
    free(s->sigma);
    free(s->counts);
    free(s);
}

static int cpu_vegas_setup(void *backend_state, const vegas_job *job,
                           void **vegas_state)
{
    pagani_context *ctx = job->integrand->ctx;
    cpu_vegas *s;
    long long units = job->plus ? job->cubes : job->cubes * job->pieces;
    int rc;

    *vegas_state = NULL;
    if (!job->integrand->function)
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM,
                           "the integrand has no host function for the CPU");
    if ((rc = cpu_start_threads(backend_state)) != PAGANI_OK) return rc;
    s = calloc(1, sizeof *s);
    if (!s) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas state");
    s->job = *job;
    s->threads = cpu_threads(backend_state);
    s->rows = job->grid_axes;
    s->cells = (size_t)s->rows * job->bins;
    s->chunk_units = CPU_VEGAS_CHUNK_SAMPLES / job->samples;
    if (s->chunk_units < 1) s->chunk_units = 1;
    s->max_chunks = (units + s->chunk_units - 1) / s->chunk_units;
    s->grid = malloc(sizeof(double) * (size_t)s->rows * (job->bins + 1));
    s->chunks = malloc(sizeof(chunk_sums) * (size_t)s->max_chunks);
    s->acc = malloc(sizeof(unsigned long long) * s->cells * s->threads);
    s->total = malloc(2 * sizeof(unsigned long long) * s->cells * s->threads);
    if (job->plus) {
        s->sigma = calloc((size_t)job->cubes, sizeof(double));
        s->counts = malloc(sizeof(long long) * (size_t)job->cubes);
    }
    if (!s->grid || !s->chunks || !s->acc || !s->total ||
        (job->plus && (!s->sigma || !s->counts))) {
        cpu_vegas_release(s);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY,
                           "Vegas work space for %lld cubes", job->cubes);
    }
    if (job->plus)
        for (long long c = 0; c < job->cubes; c++) s->counts[c] = job->samples;
    pagani_vegas_grid_uniform(s->grid, s->rows, job->bins);
    *vegas_state = s;
    return PAGANI_OK;
}

static int cpu_vegas_set_grid(void *vegas_state, const double *grid)
{
    cpu_vegas *s = vegas_state;
    memcpy(s->grid, grid, sizeof(double) * (size_t)s->rows * (s->job.bins + 1));
    return PAGANI_OK;
}

/* Moves a thread's 64-bit cells into its 128-bit totals. */
static void flush(unsigned long long *acc, unsigned long long *total,
                  size_t cells)
{
    for (size_t i = 0; i < cells; i++) {
        unsigned long long lo = total[2 * i] + acc[i];
        total[2 * i + 1] += lo < acc[i];
        total[2 * i] = lo;
        acc[i] = 0;
    }
}

/* The digits of cube c, k_i = (c / g^i) % g, as doubles; from those of
 * cube c - 1 (last) by a carry when possible. */
static void digits(long long c, long long last, const vegas_job *job, double *k)
{
    if (c == last + 1 && last >= 0) {
        for (int i = 0; i < job->n; i++) {
            if (k[i] + 1.0 < (double)job->g) {
                k[i] += 1.0;
                return;
            }
            k[i] = 0.0;
        }
        return;
    }
    for (int i = 0; i < job->n; i++) {
        k[i] = (double)(c % job->g);
        c /= job->g;
    }
}

/* Runs the work units (pieces) of chunk `ch` into *out; unit u is piece
 * u * stride in cube-major order. */
static void run_chunk(cpu_vegas *s, const vegas_pass *pass,
                      const pagani_vegas_kparams *kp, long long ch,
                      long long units, unsigned long long *acc,
                      unsigned long long *total, long long *since,
                      chunk_sums *out)
{
    const vegas_job *job = &s->job;
    const long long per = job->plus ? 1 : job->pieces;
    long long u = ch * s->chunk_units, end = u + s->chunk_units;
    long long last_cube = -1;
    double k[PAGANI_MAX_DIM];

    memset(out, 0, sizeof *out);
    out->fault_cube = out->fault_sample = -1;
    if (end > units) end = units;
    for (; u < end; u++) {
        long long w = u * pass->stride, cube = w / per, piece = w % per, count;
        pagani_vegas_piece_out o;

        if (cube != last_cube) digits(cube, last_cube, job, k);
        last_cube = cube;
        count = job->plus ? s->counts[cube] : job->samples;
        if (*since + count > VEGAS_BLOCK_SAMPLES) {
            flush(acc, total, s->cells);
            *since = 0;
        }
        o = pagani_vegas_piece(kp, (const void *)job->integrand->function,
                               (pagani_u64)cube, k,
                               (pagani_u64)(piece * job->samples), count, acc);
        *since += count;
        out->value += o.mean;
        out->variance += o.var;
        out->evaluations += count;
        out->nonzero += o.nonzero;
        out->overflow |= o.overflow;
        if (o.vmax > out->vmax) out->vmax = o.vmax;
        if (o.fault_sample >= 0 && out->fault_cube < 0) {
            out->fault_cube = cube;
            out->fault_sample = o.fault_sample;
            out->fault_value = o.fault_value;
        }
        if (pass->stratify) {
            double sig = pow(o.var * (double)count, 0.5 * job->beta);
            s->sigma[cube] = sig;
            out->beta_sum += sig;
        }
    }
}

/* Adds the chunks in order into *sums. */
static void reduce_chunks(const cpu_vegas *s, long long nchunks,
                          vegas_sums *sums)
{
    memset(sums, 0, sizeof *sums);
    sums->fault_cube = sums->fault_sample = -1;
    for (long long ch = 0; ch < nchunks; ch++) {
        const chunk_sums *c = &s->chunks[ch];
        sums->value += c->value;
        sums->variance += c->variance;
        sums->evaluations += c->evaluations;
        sums->nonzero += c->nonzero;
        sums->beta_sum += c->beta_sum;
        sums->overflow |= c->overflow;
        if (c->vmax > sums->vmax) sums->vmax = c->vmax;
        if (c->fault_cube >= 0 && sums->fault_cube < 0) {
            sums->fault_cube = c->fault_cube;
            sums->fault_sample = c->fault_sample;
            sums->fault_value = c->fault_value;
        }
    }
}

/* The threads' 128-bit totals, summed, as doubles / scale. */
static void bins_out(const cpu_vegas *s, double scale, double *bins)
{
    for (size_t i = 0; i < s->cells; i++) {
        unsigned long long lo = 0, hi = 0;
        for (int t = 0; t < s->threads; t++) {
            const unsigned long long *p = s->total + 2 * (i + s->cells * t);
            unsigned long long sum = lo + p[0];
            hi += p[1] + (sum < lo);
            lo = sum;
        }
        bins[i] = ((double)hi * 18446744073709551616.0 + (double)lo) / scale;
    }
}

static int cpu_vegas_sample(void *vegas_state, const vegas_pass *pass,
                            vegas_sums *sums, double *bins)
{
    cpu_vegas *s = vegas_state;
    const vegas_job *job = &s->job;
    const long long stride = pass->stride > 1 ? pass->stride : 1;
    const long long all = job->plus ? job->cubes : job->cubes * job->pieces;
    const long long units = (all + stride - 1) / stride;
    const long long nchunks = (units + s->chunk_units - 1) / s->chunk_units;
    const int accumulate = pass->accumulate && stride == 1;
    pagani_vegas_kparams kp;
    vegas_pass p = *pass;

    p.stride = stride;
    p.stratify = pass->stratify && job->plus && stride == 1;
    kp.seed = job->seed;
    kp.iteration = pass->iteration;
    kp.n = job->n;
    kp.nb = job->bins;
    kp.row_stride = s->rows > 1 ? job->bins + 1 : 0;
    kp.accumulate = accumulate;
    kp.nb_per_g = (double)job->bins / (double)job->g;
    kp.bin_scale = pass->bin_scale;
    kp.grid = s->grid;
    kp.bins_hi = NULL;
    kp.cells = (int)s->cells;
    pagani_vegas_weights(&kp, job->samples, job->plus ? 1 : job->pieces);
    kp.lower = job->lower;
    kp.width = job->width;
    kp.params = job->integrand->params;
    if (accumulate) {
        memset(s->acc, 0, sizeof(unsigned long long) * s->cells * s->threads);
        memset(s->total, 0, 2 * sizeof(unsigned long long) * s->cells * s->threads);
    }

#pragma omp parallel num_threads(s->threads)
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num();
#else
        const int t = 0;
#endif
        unsigned long long *acc = s->acc + s->cells * t;
        unsigned long long *total = s->total + 2 * s->cells * t;
        long long since = 0;

#pragma omp for schedule(dynamic, 1)
        for (long long ch = 0; ch < nchunks; ch++)
            run_chunk(s, &p, &kp, ch, units, acc, total, &since, &s->chunks[ch]);
        if (accumulate) flush(acc, total, s->cells);
    }

    reduce_chunks(s, nchunks, sums);
    if (accumulate && bins) bins_out(s, pass->bin_scale, bins);
    return PAGANI_OK;
}

static int cpu_vegas_stratify(void *vegas_state, double beta_sum,
                              long long target, long long *total)
{
    cpu_vegas *s = vegas_state;
    const vegas_job *job = &s->job;
    long long sum = 0;

    for (long long c = 0; c < job->cubes; c++) {
        double want = beta_sum > 0.0
                          ? floor((double)target * s->sigma[c] / beta_sum)
                          : (double)job->samples;
        long long nc = want >= (double)job->max_per_cube ? job->max_per_cube
                                                         : (long long)want;
        if (nc < 2) nc = 2;
        s->counts[c] = nc;
        sum += nc;
    }
    *total = sum;
    return PAGANI_OK;
}

const vegas_ops pagani_cpu_vegas_ops = {
    cpu_vegas_setup,
    cpu_vegas_set_grid,
    cpu_vegas_sample,
    cpu_vegas_stratify,
    cpu_vegas_release,
};
