/*
 * cpu_vegas.c - the OpenMP backend's Vegas operations (vegas_backend.h).
 *
 * Work: the pieces of the cubes (all of them, or every stride-th piece for
 * a pilot) of every member of the pass, cut into chunks of consecutive
 * pieces of one integral whose size depends on the job alone; one parallel
 * loop hands out the chunks of all members (integral by integral)
 * dynamically, on one thread when the pass is small (cpu_team). Each chunk
 * keeps its own sums, added in chunk order afterwards for each member, so
 * a member's results depend neither on the thread count, the schedule nor
 * the other members (the chunks' values and variances are added as exact
 * sums). A pass's part (vegas_pass.parts) is a contiguous share of every
 * member's chunks. Bin contributions are integers (vegas_backend.h):
 * each thread adds into private 64-bit cells, moved by atomic adds into
 * the integral's 128-bit totals whenever the thread moves to another
 * integral, and at least every VEGAS_BLOCK_SAMPLES samples; integer sums
 * are exact, so the bins do not depend on the schedule either.
 *
 * A block integrand (cpu_block.h) runs a work item of as many chunks as
 * a block holds through the thread's point log: the chunks' pieces run
 * twice, recording their points, then on the block's values, so the
 * chunks' sums are the one-point run's.
 *
 * Memory per integral: its grid, 128-bit bin totals (rows x nb x 16
 * bytes), the chunk sums of a pass, and with Vegas+ 16 bytes a sub-cube
 * (sigma_c^beta and the count, which a checkpoint saves: counts_out,
 * counts_in).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cpu/cpu_backend.h"
#include "cpu/cpu_block.h"
#include "vegas_backend.h"
#include "sampling/vegas_piece.h"
#include "sampling/vegas_grid.h"

#define CPU_VEGAS_CHUNK_SAMPLES 4096

/* One chunk's sums. */
typedef struct chunk_sums {
    double value, variance, vmax, term_max, beta_sum, fault_value;
    long long evaluations, nonzero, fault_cube, fault_sample;
    int overflow, fault_component;
} chunk_sums;

typedef struct cpu_vegas {
    vegas_job job;
    cpu_state *cpu;
    int threads;
    int rows;                  /* grid rows */
    size_t cells;              /* rows * nb */
    size_t grid_size;          /* rows * (nb + 1) */
    double *grids;             /* K grids */
    long long chunk_units;     /* pieces (Vegas+: cubes) per chunk */
    long long max_chunks;      /* chunks of one integral's full pass */
    chunk_sums *chunks;        /* K x max_chunks */
    double *chunk_components;  /* ncomp > 1: K x max_chunks x 2 ncomp, each
                                  chunk's sums of every component */
    pagani_xsum *exact;        /* 2 ncomp: a member's exact sums, when the
                                  pass does not ask for them */
    pagani_vegas_kparams *kp;  /* a pass's, per member */
    unsigned long long *acc;   /* threads x cells, 64-bit */
    unsigned long long *total; /* K x cells x {lo, hi} */
    double *sigma;             /* Vegas+: K x cubes sigma_c^beta */
    long long *counts;         /* Vegas+: K x cubes samples per cube */
} cpu_vegas;

static void cpu_vegas_release(void *vegas_state)
{
    cpu_vegas *s = vegas_state;
    if (!s) return;
    free(s->grids);
    free(s->chunks);
    free(s->chunk_components);
    free(s->exact);
    free(s->kp);
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
    const size_t k = (size_t)job->integrals;
    cpu_vegas *s;
    long long units = job->plus ? job->cubes : job->cubes * job->pieces;
    int rc;

    *vegas_state = NULL;
    if (!pagani_has_host_form(job->integrand))
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM,
                           "the integrand has no host function for the CPU");
    if ((rc = cpu_start_threads(backend_state)) != PAGANI_OK) return rc;
    s = calloc(1, sizeof *s);
    if (!s) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas state");
    s->job = *job;
    s->cpu = backend_state;
    s->threads = cpu_threads(backend_state);
    s->rows = job->grid_axes;
    s->cells = (size_t)s->rows * job->bins;
    s->grid_size = (size_t)s->rows * (job->bins + 1);
    s->chunk_units = CPU_VEGAS_CHUNK_SAMPLES / job->samples;
    if (s->chunk_units < 1) s->chunk_units = 1;
    s->max_chunks = (units + s->chunk_units - 1) / s->chunk_units;
    s->grids = malloc(sizeof(double) * s->grid_size * k);
    s->chunks = malloc(sizeof(chunk_sums) * (size_t)s->max_chunks * k);
    s->exact = malloc(2 * (size_t)job->ncomp * sizeof *s->exact);
    if (job->ncomp > 1)
        s->chunk_components = malloc(2 * sizeof(double) * (size_t)job->ncomp *
                                     (size_t)s->max_chunks * k);
    s->kp = malloc(sizeof(pagani_vegas_kparams) * k);
    s->acc = calloc(s->cells * s->threads, sizeof(unsigned long long));
    s->total = malloc(2 * sizeof(unsigned long long) * s->cells * k);
    if (job->plus) {
        s->sigma = calloc((size_t)job->cubes * k, sizeof(double));
        s->counts = malloc(sizeof(long long) * (size_t)job->cubes * k);
    }
    if (!s->grids || !s->chunks || !s->kp || !s->acc || !s->total ||
        (job->plus && (!s->sigma || !s->counts)) ||
        (job->ncomp > 1 && !s->chunk_components) || !s->exact) {
        double bytes = (double)k * (8.0 * s->grid_size + 16.0 * s->cells +
                                    (sizeof(chunk_sums) + 16.0 * job->ncomp) *
                                        (double)s->max_chunks +
                                    (job->plus ? 16.0 * job->cubes : 0.0));
        cpu_vegas_release(s);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY,
                           "Vegas work space: %d "
                           "integrals of %lld cubes need %.4g MB",
                           job->integrals, job->cubes, bytes / 1e6);
    }
    if (job->plus)
        for (size_t c = 0; c < (size_t)job->cubes * k; c++)
            s->counts[c] = job->samples;
    for (size_t i = 0; i < k; i++)
        pagani_vegas_grid_uniform(s->grids + i * s->grid_size, s->rows,
                                  job->bins);
    *vegas_state = s;
    return PAGANI_OK;
}

static int cpu_vegas_set_grids(void *vegas_state, int first, int count,
                               const double *grids)
{
    cpu_vegas *s = vegas_state;
    const size_t at = (size_t)first * s->grid_size;
    memcpy(s->grids + at, grids + at,
           sizeof(double) * s->grid_size * (size_t)count);
    return PAGANI_OK;
}

/* Moves a thread's 64-bit cells into an integral's 128-bit totals, which
 * other threads may be adding to (atomic adds with the carry). */
static void flush(unsigned long long *acc, unsigned long long *total,
                  size_t cells)
{
    for (size_t i = 0; i < cells; i++) {
        unsigned long long a = acc[i], old;
        if (!a) continue;
        old = __atomic_fetch_add(&total[2 * i], a, __ATOMIC_RELAXED);
        if (old + a < old)
            __atomic_fetch_add(&total[2 * i + 1], 1, __ATOMIC_RELAXED);
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

/* A thread's bin accumulator: its cells, the integral they belong to and
 * the samples added since they were last flushed. */
typedef struct thread_bins {
    unsigned long long *acc;
    int integral;
    long long since;
} thread_bins;

/* Makes room in the thread's cells for `count` samples of integral k. */
static void bins_for(cpu_vegas *s, thread_bins *tb, int k, long long count)
{
    if (tb->integral >= 0 &&
        (tb->integral != k || tb->since + count > VEGAS_BLOCK_SAMPLES)) {
        flush(tb->acc, s->total + 2 * s->cells * (size_t)tb->integral,
              s->cells);
        tb->since = 0;
    }
    tb->integral = k;
    tb->since += count;
}

/* Runs the work units (pieces) of chunk `ch` of integral k into *out (and
 * with several components their sums into components, 2 ncomp of them),
 * with fn the host function kp describes; unit u is piece u * stride in
 * cube-major order. */
static void run_chunk(cpu_vegas *s, const vegas_pass *pass,
                      const pagani_vegas_kparams *kp, const void *fn, int k,
                      long long ch, long long units, thread_bins *tb,
                      chunk_sums *out, double *components)
{
    const vegas_job *job = &s->job;
    const long long per = job->plus ? 1 : job->pieces;
    const size_t base = (size_t)k * (size_t)job->cubes;
    long long u = ch * s->chunk_units, end = u + s->chunk_units;
    long long last_cube = -1;
    double x[PAGANI_MAX_DIM], piece[2 * PAGANI_MAX_COMPONENTS];

    memset(out, 0, sizeof *out);
    out->fault_cube = out->fault_sample = -1;
    for (int c = 0; components && c < 2 * job->ncomp; c++) components[c] = 0.0;
    if (end > units) end = units;
    for (; u < end; u++) {
        long long w = u * pass->stride, cube = w / per, piece_index = w % per;
        long long count;
        pagani_vegas_piece_out o;

        if (cube != last_cube) digits(cube, last_cube, job, x);
        last_cube = cube;
        count = job->plus ? s->counts[base + cube] : job->samples;
        if (kp->accumulate) bins_for(s, tb, k, count);
        o = pagani_vegas_piece(kp, fn, (pagani_u64)cube, x,
                               (pagani_u64)(piece_index * job->samples), count,
                               tb->acc, components ? piece : NULL);
        for (int c = 0; components && c < 2 * job->ncomp; c++)
            components[c] += piece[c];
        out->value += o.mean;
        out->variance += o.var;
        out->evaluations += count;
        out->nonzero += o.nonzero;
        out->overflow |= o.overflow;
        if (o.vmax > out->vmax) out->vmax = o.vmax;
        if (o.term_max > out->term_max) out->term_max = o.term_max;
        if (o.fault_sample >= 0 && out->fault_cube < 0) {
            out->fault_cube = cube;
            out->fault_sample = o.fault_sample;
            out->fault_value = o.fault_value;
            out->fault_component = o.fault_component;
        }
        if (pass->stratify) {
            double sig = pow(o.var * (double)count, 0.5 * job->beta);
            s->sigma[base + cube] = sig;
            out->beta_sum += sig;
        }
    }
}

/* The host function of a one-point integrand, as run_chunk takes it. */
static const void *host_fn(const pagani_integrand *f)
{
    return f->function ? (const void *)f->function
                       : (const void *)f->vector_function;
}

/* Chunks of a pass that make one block of a block integrand f: as many
 * whole chunks as its max_block holds (at most CPU_BLOCK_MOST points), at
 * least 1. */
static long long block_chunks(const cpu_vegas *s, const pagani_integrand *f)
{
    const long long most = f->max_block < CPU_BLOCK_MOST ? f->max_block
                                                         : CPU_BLOCK_MOST;
    const long long chunk = s->chunk_units * s->job.samples;
    return most / chunk > 1 ? most / chunk : 1;
}

/* Runs chunks [ch, ch + count) of member i (integral k) of a pass on a
 * block integrand, each as run_chunk does (so into s->chunks[w + j] and
 * its components, w being chunk ch's work index), through the thread's
 * point log: the chunks run once to record their points, the points are
 * evaluated in blocks, and the chunks run again on those values. Returns
 * 0 when the pass was halted, -1 when memory ran out, else 1. */
static int run_block_chunks(cpu_vegas *s, const vegas_pass *pass, int i,
                            long long ch, long long count, long long w,
                            long long units, thread_bins *tb,
                            double *components, cpu_point_log *log,
                            cpu_block_gate *gate)
{
    const int ncomp = s->job.ncomp;
    pagani_vegas_kparams kp = s->kp[i];
    vegas_pass quiet = *pass;
    chunk_sums ignored;
    int complete;

    kp.vector = 1;
    kp.params = log;
    kp.accumulate = 0;
    quiet.stratify = 0;
    do {
        cpu_log_start(log);
        for (long long j = 0; j < count; j++)
            run_chunk(s, &quiet, &kp, (const void *)cpu_log_record,
                      pass->members[i], ch + j, units, tb, &ignored, NULL);
    } while ((complete = cpu_log_complete(log)) == 0);
    if (complete < 0) return -1;
    if (!cpu_log_evaluate(log, gate, s->job.integrand, s->kp[i].params))
        return 0;
    kp.accumulate = s->kp[i].accumulate;
    for (long long j = 0; j < count; j++)
        run_chunk(s, pass, &kp, (const void *)cpu_log_replay,
                  pass->members[i], ch + j, units, tb, &s->chunks[w + j],
                  components ? components + 2 * ncomp * (w + j) : NULL);
    return 1;
}

/* Adds the exact sums of a value and a variance of one chunk, or, when
 * either overflowed (no exact form), both to the plain sums value[0],
 * value[1]. */
static void add_exact(double v, double var, pagani_xsum *exact, double *value)
{
    if (isfinite(v) && isfinite(var)) {
        pagani_xsum_add(&exact[0], v);
        pagani_xsum_add(&exact[1], var);
    } else {
        value[0] += v;
        value[1] += var;
    }
}

/* Adds a member's chunks in order into *sums; its value and variance, and
 * with several components (ncomp > 1: chunk_components, 2 ncomp a chunk)
 * every component's into components, as exact sums of the chunks' in
 * exact[2c], exact[2c + 1] (component 0: the value and variance), so that
 * the sums of parts of a pass merge to the whole's. */
static void reduce_chunks(const chunk_sums *chunks, long long nchunks,
                          vegas_sums *sums, int ncomp,
                          const double *chunk_components, double *components,
                          pagani_xsum *exact)
{
    double plain[2] = {0.0, 0.0};

    memset(sums, 0, sizeof *sums);
    sums->fault_cube = sums->fault_sample = -1;
    for (int j = 0; j < 2 * ncomp; j++) pagani_xsum_zero(&exact[j]);
    for (int j = 2; j < 2 * ncomp; j++) components[j] = 0.0;
    for (long long ch = 0; ch < nchunks; ch++) {
        const chunk_sums *c = &chunks[ch];
        add_exact(c->value, c->variance, exact, plain);
        for (int k = 1; k < ncomp; k++) {
            const double *v = chunk_components + 2 * ((size_t)ncomp * ch + k);
            add_exact(v[0], v[1], exact + 2 * k, components + 2 * k);
        }
        sums->evaluations += c->evaluations;
        sums->nonzero += c->nonzero;
        sums->beta_sum += c->beta_sum;
        sums->overflow |= c->overflow;
        if (c->vmax > sums->vmax) sums->vmax = c->vmax;
        if (c->term_max > sums->term_max) sums->term_max = c->term_max;
        if (c->fault_cube >= 0 && sums->fault_cube < 0) {
            sums->fault_cube = c->fault_cube;
            sums->fault_sample = c->fault_sample;
            sums->fault_value = c->fault_value;
            sums->fault_component = c->fault_component;
        }
    }
    sums->value = plain[0] + pagani_xsum_value(&exact[0]);
    sums->variance = plain[1] + pagani_xsum_value(&exact[1]);
    for (int j = 2; j < 2 * ncomp; j++)
        components[j] += pagani_xsum_value(&exact[j]);
    if (ncomp > 1) {
        components[0] = sums->value;
        components[1] = sums->variance;
    }
}

/* Integral k's 128-bit totals as doubles / scale into bins, or as they
 * are into totals (low, high word per cell) when it is not NULL. */
static void bins_out(const cpu_vegas *s, int k, double scale, double *bins,
                     unsigned long long *totals)
{
    const unsigned long long *t = s->total + 2 * s->cells * (size_t)k;
    if (totals) {
        memcpy(totals + 2 * s->cells * (size_t)k, t,
               2 * sizeof *t * s->cells);
        return;
    }
    for (size_t i = 0; i < s->cells; i++)
        bins[i] = pagani_vegas_bin_value(t[2 * i], t[2 * i + 1], scale);
}

/* What every piece of integral k shares in a pass. */
static void fill_kparams(const cpu_vegas *s, const vegas_pass *pass, int k,
                         int accumulate, double bin_scale,
                         pagani_vegas_kparams *kp)
{
    const vegas_job *job = &s->job;
    const size_t n = (size_t)job->n;

    kp->keys = pagani_vegas_keys(job->seed);
    kp->iteration = pass->iteration;
    kp->n = job->n;
    kp->nb = job->bins;
    kp->row_stride = s->rows > 1 ? job->bins + 1 : 0;
    kp->accumulate = accumulate;
    kp->nb_per_g = (double)job->bins / (double)job->g;
    kp->bin_scale = bin_scale;
    kp->grid = s->grids + s->grid_size * (size_t)k;
    kp->bins_hi = NULL;
    kp->cells = (int)s->cells;
    kp->ncomp = job->ncomp;
    kp->vector = job->integrand->function == NULL;
    pagani_vegas_weights(kp, job->samples, job->plus ? 1 : job->pieces);
    kp->lower = job->lower + n * (size_t)k;
    kp->width = job->width + n * (size_t)k;
    kp->params = pass->params ? (const char *)pass->params +
                                    pass->params_stride * (size_t)k
                              : NULL;
    kp->stop = &job->integrand->ctx->stop_requested;
}

/* The first chunk of part p of `parts` of nchunks: contiguous shares in
 * part order, the first nchunks % parts one longer. */
static long long chunk_share(long long nchunks, int parts, int p)
{
    long long extra = nchunks % parts;
    return p * (nchunks / parts) + (p < extra ? p : extra);
}

static int cpu_vegas_sample(void *vegas_state, const vegas_pass *pass,
                            vegas_sums *sums, double *bins, double *components)
{
    cpu_vegas *s = vegas_state;
    const vegas_job *job = &s->job;
    const long long stride = pass->stride > 1 ? pass->stride : 1;
    const long long all = job->plus ? job->cubes : job->cubes * job->pieces;
    const long long units = (all + stride - 1) / stride;
    const long long nchunks = (units + s->chunk_units - 1) / s->chunk_units;
    const int parts = pass->parts > 1 ? pass->parts : 1;
    /* this part's chunks: [first, first + span) */
    const long long first = chunk_share(nchunks, parts, pass->part);
    const long long span = chunk_share(nchunks, parts, pass->part + 1) - first;
    const int accumulate = pass->accumulate && stride == 1;
    const int team = cpu_team(s->cpu, (double)units / parts * job->samples *
                                          pass->count);
    const pagani_integrand *f = job->integrand;
    /* chunks per work item: a block integrand's block, else 1 */
    const long long group = cpu_is_block(f) ? block_chunks(s, f) : 1;
    const long long groups = (span + group - 1) / group; /* per member */
    const long long items = groups * pass->count;
    cpu_block_gate gate = {0};
    int no_memory = 0;
    vegas_pass p = *pass;

    p.stride = stride;
    p.stratify = pass->stratify && job->plus && stride == 1;
    for (int i = 0; i < pass->count; i++) {
        const int k = pass->members[i];
        fill_kparams(s, pass, k, accumulate, pass->bin_scale[i], &s->kp[i]);
        if (accumulate)
            memset(s->total + 2 * s->cells * (size_t)k, 0,
                   2 * sizeof(unsigned long long) * s->cells);
    }

#pragma omp parallel num_threads(team)
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num();
#else
        const int t = 0;
#endif
        thread_bins tb;
        cpu_point_log log = {job->n, job->ncomp, 0, 0, 0, NULL, NULL};

        tb.acc = s->acc + s->cells * t;
        tb.integral = -1;
        tb.since = 0;
#pragma omp for schedule(dynamic, 1)
        for (long long item = 0; item < items; item++) {
            const int i = (int)(item / groups);
            const long long c0 = item % groups * group;
            const long long w = span * i + c0; /* the first chunk's slot */
            int out_of_memory;
#pragma omp atomic read
            out_of_memory = no_memory;
            if (out_of_memory || cpu_block_halted(f->ctx, &gate))
                continue; /* skip the rest */
            if (cpu_is_block(f)) {
                if (run_block_chunks(s, &p, i, first + c0,
                                     span - c0 < group ? span - c0 : group, w,
                                     units, &tb, components ? s->chunk_components
                                                            : NULL,
                                     &log, &gate) < 0) {
#pragma omp atomic write
                    no_memory = 1;
                }
                continue;
            }
            run_chunk(s, &p, &s->kp[i], host_fn(f), pass->members[i],
                      first + c0, units, &tb, &s->chunks[w],
                      components ? s->chunk_components + 2 * job->ncomp * w
                                 : NULL);
        }
        if (tb.integral >= 0)
            flush(tb.acc, s->total + 2 * s->cells * (size_t)tb.integral,
                  s->cells);
        cpu_log_free(&log);
    }
    if (no_memory)
        return pagani_fail(f->ctx, PAGANI_ERR_NO_MEMORY, "Vegas: the points "
                           "of a block of the integrand");
    if (cpu_block_halted(f->ctx, &gate))
        return cpu_block_result(f->ctx, &gate, pagani_stop_point(f->ctx));

    for (int i = 0; i < pass->count; i++) {
        /* per member: 2 ncomp exact sums (2 for a scalar integrand) */
        const int ncomp = components ? job->ncomp : 1;
        const size_t at = 2 * (size_t)ncomp * (size_t)i;
        reduce_chunks(s->chunks + span * i, span, &sums[i], ncomp,
                      components ? s->chunk_components + at * span : NULL,
                      components ? components + at : NULL,
                      pass->exact ? pass->exact + at : s->exact);
        if (accumulate && (bins || pass->totals))
            bins_out(s, pass->members[i], pass->bin_scale[i],
                     bins ? bins + s->cells * (size_t)pass->members[i] : NULL,
                     pass->totals);
    }
    return PAGANI_OK;
}

static int cpu_vegas_stratify(void *vegas_state, const int *members, int count,
                              const double *beta_sums, long long target,
                              long long *totals)
{
    cpu_vegas *s = vegas_state;
    const vegas_job *job = &s->job;

    for (int i = 0; i < count; i++) {
        const size_t base = (size_t)members[i] * (size_t)job->cubes;
        const double beta_sum = beta_sums[i];
        long long sum = 0;

        for (long long c = 0; c < job->cubes; c++) {
            double want =
                beta_sum > 0.0
                    ? floor((double)target * s->sigma[base + c] / beta_sum)
                    : (double)job->samples;
            long long nc = want >= (double)job->max_per_cube ? job->max_per_cube
                                                             : (long long)want;
            if (nc < 2) nc = 2;
            s->counts[base + c] = nc;
            sum += nc;
        }
        totals[i] = sum;
    }
    return PAGANI_OK;
}

/* Integral k's counts of cubes first .. first + count - 1, out and in
 * (the CPU samples from counts alone: nothing else to update). */
static int cpu_vegas_counts_out(void *vegas_state, int k, long long first,
                                long long count, long long *counts)
{
    const cpu_vegas *s = vegas_state;
    memcpy(counts, s->counts + (size_t)k * (size_t)s->job.cubes + first,
           sizeof *counts * (size_t)count);
    return PAGANI_OK;
}

static int cpu_vegas_counts_in(void *vegas_state, int k, long long first,
                               long long count, const long long *counts)
{
    cpu_vegas *s = vegas_state;
    memcpy(s->counts + (size_t)k * (size_t)s->job.cubes + first, counts,
           sizeof *counts * (size_t)count);
    return PAGANI_OK;
}

const vegas_ops pagani_cpu_vegas_ops = {
    cpu_vegas_setup,      cpu_vegas_set_grids, cpu_vegas_sample,
    cpu_vegas_stratify,   cpu_vegas_release,   1, /* parts */
    cpu_vegas_counts_out, cpu_vegas_counts_in,
};
