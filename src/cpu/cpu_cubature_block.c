/*
 * cpu_cubature_block.c - the evaluate pass of the OpenMP backend's
 * cubature for a block integrand (cpu_block.h): the rule, the probes and
 * the randomized check of cpu_cubature_eval.c, run on f's values
 * gathered in blocks.
 *
 * A thread takes a tile of regions at a time and walks it in runs of
 * regions whose fixed points (the rule's and the axial probes') make one
 * block: it queues those points, has them evaluated, then runs each
 * region's evaluation on the values (cpu_values_take). The vertex probes
 * are decided by those values: a region that asks for them queues them
 * and, once they are evaluated, runs again, from the start, on the same
 * values. The check, once every region is evaluated, runs the same way:
 * a region that needs it queues its 16 points and runs again. So every
 * region sees the values of the points the one-point run evaluates, in
 * the same order, and its results are the same bits; only the calls
 * differ. The regions' arithmetic runs on the threads of the team; the
 * calls are serialized (cpu_block_eval).
 */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_thread_num() 0
#endif
#include "cpu/cpu_block.h"
#include "cpu/cpu_cubature.h"
#include "rules/random_check.h"

/* A thread's values for a run of regions: slots for points
 * first_point .. first_point + points - 1 of each region of the run, and
 * the queue of points asked for and not yet evaluated. */
struct cpu_values {
    const cpu_cubature *c;
    cpu_block_gate *gate;
    const void *params;          /* the run's integral's parameter block */
    long long first_region;      /* the run: regions first_region .. */
    long long regions;           /* .. + regions - 1 */
    long long first_point, points;
    double *fx;                  /* slot s's values at fx[s * ncomp] */
    unsigned char *have;         /* whether slot s holds them */
    unsigned char *missed;       /* per region of the run */
    long long queued, room;      /* the queue: its points, its capacity */
    double *x;                   /* their coordinates, x[q * n] */
    long long *slot;             /* their slots */
    double *qfx;                 /* their values */
    int halted;                  /* a block was not evaluated */
};

static void values_free(cpu_values *v)
{
    if (!v) return;
    free(v->fx);
    free(v->have);
    free(v->missed);
    free(v->x);
    free(v->slot);
    free(v->qfx);
    free(v);
}

/* A thread's values for runs of up to `most` regions and `slots` slots
 * in all, queued `room` points at a time (NULL when out of memory); its
 * gate is set by each pass. */
static cpu_values *values_new(const cpu_cubature *c, long long most,
                              long long slots, long long room)
{
    const size_t C = (size_t)c->ncomp;
    cpu_values *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->c = c;
    v->room = room;
    v->fx = malloc((size_t)slots * C * sizeof *v->fx);
    v->have = malloc((size_t)slots);
    v->missed = malloc((size_t)most);
    v->x = malloc((size_t)room * (size_t)c->n * sizeof *v->x);
    v->slot = malloc((size_t)room * sizeof *v->slot);
    v->qfx = malloc((size_t)room * C * sizeof *v->qfx);
    if (v->fx && v->have && v->missed && v->x && v->slot && v->qfx) return v;
    values_free(v);
    return NULL;
}

/* Starts a run: regions [first, first + count) of one integral, slots for
 * points first_point .. first_point + points - 1, all empty. */
static void values_begin(cpu_values *v, long long first, long long count,
                         long long first_point, long long points)
{
    v->first_region = first;
    v->regions = count;
    v->first_point = first_point;
    v->points = points;
    v->params = cpu_region_params(v->c, first);
    v->queued = 0;
    memset(v->have, 0, (size_t)(count * points));
    memset(v->missed, 0, (size_t)count);
}

/* Evaluates the queued points and puts their values in their slots;
 * marks the run halted when the pass was. */
static void values_flush(cpu_values *v)
{
    const int C = v->c->ncomp;
    if (v->queued == 0 || v->halted) {
        v->queued = 0;
        return;
    }
    if (!cpu_block_eval(v->gate, v->c->f, v->x, v->queued, v->params,
                        v->qfx)) {
        v->halted = 1;
        v->queued = 0;
        return;
    }
    for (long long q = 0; q < v->queued; q++) {
        memcpy(v->fx + v->slot[q] * C, v->qfx + q * C, (size_t)C * sizeof *v->fx);
        v->have[v->slot[q]] = 1;
    }
    v->queued = 0;
}

/* Queues point p of region i at x (evaluating the queue when full). */
static void values_queue(cpu_values *v, long long i, long long p,
                         const double *x)
{
    const int n = v->c->n;
    if (v->queued == v->room) values_flush(v);
    memcpy(v->x + v->queued * n, x, (size_t)n * sizeof *x);
    v->slot[v->queued++] = (i - v->first_region) * v->points + p - v->first_point;
}

int cpu_values_take(cpu_values *v, long long i, long long p, const double *x,
                    double *fx)
{
    const long long s = (i - v->first_region) * v->points + p - v->first_point;
    const int C = v->c->ncomp;
    if (v->have[s]) {
        memcpy(fx, v->fx + s * C, (size_t)C * sizeof *fx);
        return 1;
    }
    values_queue(v, i, p, x);
    v->missed[i - v->first_region] = 1;
    for (int k = 0; k < C; k++) fx[k] = 0.0;
    return 0;
}

int cpu_values_missed(const cpu_values *v, long long i)
{
    return v->missed[i - v->first_region];
}

/* Queues the points every evaluation of region i takes: the rule's, and
 * the axial probes' when the job has probes. */
static void queue_fixed_points(cpu_values *v, long long i)
{
    const cpu_cubature *c = v->c;
    double lo[PAGANI_MAX_CUBATURE_DIM], w[PAGANI_MAX_CUBATURE_DIM];
    double x[PAGANI_MAX_CUBATURE_DIM];

    cpu_region_box(c, i, lo, w);
    for (long long p = 0; p < c->rule->npoints; p++) {
        pagani_rule_point(c->rule, p, lo, w, x);
        values_queue(v, i, p, x);
    }
    for (int j = 0; c->probes && j < 2 * c->n; j++) {
        long long p = cpu_axial_point(c->rule, j);
        pagani_rule_point(c->rule, p, lo, w, x);
        values_queue(v, i, p, x);
    }
}

/* Evaluates the regions of the run [first, first + count) of integral k. */
static void evaluate_run(cpu_values *v, long long first, long long count,
                         double probe_below, double probe_relative,
                         double *scratch)
{
    cpu_cubature *c = (cpu_cubature *)v->c;
    values_begin(v, first, count, 0, c->rule->npoints + c->rule->nprobes);
    for (long long i = first; i < first + count; i++)
        if (!c->held[i]) queue_fixed_points(v, i);
    values_flush(v);
    for (int round = 0; round < 2 && !v->halted; round++) {
        /* round 1 runs again the regions whose vertex probes missed */
        for (long long i = first; i < first + count; i++) {
            if (round == 1 && !cpu_values_missed(v, i)) continue;
            v->missed[i - first] = 0;
            cpu_evaluate_region(c, i, probe_below, probe_relative, scratch, v);
        }
        if (v->queued == 0) break;
        values_flush(v);
    }
}

/* The randomized check of the run [first, first + count). */
static void check_run(cpu_values *v, long long first, long long count,
                      const double *check_above, double *scratch)
{
    cpu_cubature *c = (cpu_cubature *)v->c;
    values_begin(v, first, count, c->rule->npoints + c->rule->nprobes,
                 PAGANI_CHECK_POINTS);
    for (int round = 0; round < 2 && !v->halted; round++) {
        for (long long i = first; i < first + count; i++) {
            if (round == 1 && !cpu_values_missed(v, i)) continue;
            v->missed[i - first] = 0;
            cpu_check_region(c, i, check_above[c->owner[c->cur][i]], scratch, v);
        }
        if (v->queued == 0) break;
        values_flush(v);
    }
}

/* Regions of a run whose `points` points each make about one block. */
static long long run_length(long long block, long long points)
{
    long long r = block / points;
    if (r < 1) r = 1;
    return r < CPU_TILE ? r : CPU_TILE;
}

/* The job's block size, its runs of regions for the rule and for the
 * check, and the slots a thread's values need. */
typedef struct block_plan {
    long long block, run, check_run, most, slots;
} block_plan;

static block_plan plan_of(const cpu_cubature *c)
{
    const pagani_rule *r = c->rule;
    const long long fixed = r->npoints + (c->probes ? 2 * c->n : 0);
    block_plan p;
    long long check_slots;
    p.block = c->f->max_block < CPU_BLOCK_MOST ? c->f->max_block : CPU_BLOCK_MOST;
    p.run = run_length(p.block, fixed);
    p.check_run = run_length(p.block, PAGANI_CHECK_POINTS);
    p.most = p.run > p.check_run ? p.run : p.check_run;
    p.slots = p.run * (r->npoints + r->nprobes);
    check_slots = p.check_run * PAGANI_CHECK_POINTS;
    if (check_slots > p.slots) p.slots = check_slots;
    return p;
}

void cpu_block_values_free(cpu_cubature *c)
{
    for (int t = 0; t < c->block_threads; t++) values_free(c->block_values[t]);
    free(c->block_values);
    c->block_values = NULL;
    c->block_threads = 0;
}

int cpu_block_values_make(cpu_cubature *c, int threads)
{
    const block_plan p = plan_of(c);
    cpu_block_values_free(c);
    if (!cpu_is_block(c->f)) return PAGANI_OK;
    if (!(c->block_values = calloc((size_t)threads, sizeof *c->block_values)))
        return PAGANI_ERR_NO_MEMORY;
    c->block_threads = threads;
    for (int t = 0; t < threads; t++)
        if (!(c->block_values[t] = values_new(c, p.most, p.slots, p.block)))
            return PAGANI_ERR_NO_MEMORY;
    return PAGANI_OK;
}

int cpu_evaluate_blocks(cpu_state *s, const double *probe_below,
                        const double *probe_relative,
                        const double *check_above, int checks)
{
    cpu_cubature *c = s->cubature;
    const block_plan p = plan_of(c);
    const long long run = p.run, check_run_length = p.check_run;
    const int K = c->integrals;
    const double regions = (double)(c->first_region[K - 1] + c->counts[K - 1]);
    cpu_block_gate gate = {0};

#pragma omp parallel num_threads(cpu_team(s, regions * c->rule->npoints))
    {
        double scratch[CPU_EVAL_SCRATCH];
        cpu_values *v = c->block_values[omp_get_thread_num()];
        v->gate = &gate;
        v->queued = 0;
        v->halted = 0;
#pragma omp for schedule(dynamic, 1)
        for (long long t = 0; t < c->tiles; t++) {
            long long end = cpu_tile_end(c, t, c->tile_owner[t]);
            int k = c->tile_owner[t];
            if (cpu_block_halted(s->ctx, &gate)) continue;
            for (long long i = c->tile_start[t]; i < end && !v->halted; i += run)
                evaluate_run(v, i, end - i < run ? end - i : run, probe_below[k],
                             probe_relative[k], scratch);
        }
        /* the checks read a region's sibling: after every evaluation */
        if (checks) {
#pragma omp for schedule(dynamic, 1)
            for (long long t = 0; t < c->tiles; t++) {
                long long end = cpu_tile_end(c, t, c->tile_owner[t]);
                if (cpu_block_halted(s->ctx, &gate)) continue;
                for (long long i = c->tile_start[t]; i < end && !v->halted;
                     i += check_run_length)
                    check_run(v, i, end - i < check_run_length ? end - i
                                                               : check_run_length,
                              check_above, scratch);
            }
        }
    }
    if (cpu_block_halted(s->ctx, &gate))
        return cpu_block_result(s->ctx, &gate, pagani_stop_point(s->ctx));
    return PAGANI_OK;
}
