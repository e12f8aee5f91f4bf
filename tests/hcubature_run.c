/*
 * hcubature_run.c - code_runs.h's hcubature: one run of Steven G.
 * Johnson's hcubature (libcubature), infinite bounds mapped by hand.
 */
#include <math.h>
#include <stdio.h>
#include <cubature.h>
#include "code_runs.h"

/* What the integrand wrapper needs: f, its bounds (to map infinite ones)
 * and the count of its calls. */
typedef struct hcubature_call {
    const bench_problem *pb;
    long long evaluations;
} hcubature_call;

/* x and dx/dt on an axis with bounds lo, hi (cubature's README maps):
 * finite: x = t; (-inf, inf): x = t/(1 - t^2) on (-1, 1); [lo, inf):
 * x = lo + t/(1 - t) on [0, 1); (-inf, hi]: x = hi - t/(1 - t). */
static double map_axis(double lo, double hi, double t, double *jacobian)
{
    if (isfinite(lo) && isfinite(hi)) {
        *jacobian = 1.0;
        return t;
    }
    if (!isfinite(lo) && !isfinite(hi)) {
        double q = 1.0 - t * t;
        *jacobian = (1.0 + t * t) / (q * q);
        return t / q;
    }
    *jacobian = 1.0 / ((1.0 - t) * (1.0 - t));
    return isfinite(lo) ? lo + t / (1.0 - t) : hi - t / (1.0 - t);
}

/* The t interval of an axis: itself when finite, (-1, 1) for the whole
 * line, [0, 1) for a half-line. */
static void axis_interval(double lo, double hi, double *tlo, double *thi)
{
    *tlo = isfinite(lo) && isfinite(hi) ? lo : isfinite(lo) || isfinite(hi) ? 0.0 : -1.0;
    *thi = isfinite(lo) && isfinite(hi) ? hi : 1.0;
}

static int wrapper(unsigned ndim, const double *t, void *data, unsigned fdim,
                   double *fval)
{
    hcubature_call *call = data;
    const bench_problem *pb = call->pb;
    double x[PAGANI_MAX_DIM], weight = 1.0;

    (void)fdim;
    for (unsigned i = 0; i < ndim; i++) {
        double jacobian;
        x[i] = map_axis(pb->lower[i], pb->upper[i], t[i], &jacobian);
        weight *= jacobian;
    }
    call->evaluations++;
    /* a map's end (never a rule point) contributes 0, as in libpagani */
    fval[0] = isfinite(weight) ? weight * pb->def->function(x, (int)ndim, pb->params) : 0.0;
    return 0;
}

int bench_hcubature_available(void)
{
    return 1;
}

void bench_run_hcubature(const bench_problem *pb, bench_run *out)
{
    hcubature_call call = {pb, 0};
    double tlo[PAGANI_MAX_DIM], thi[PAGANI_MAX_DIM];
    double start = bench_wall_seconds(), cpu = bench_cpu_seconds();
    int rc;

    for (int i = 0; i < pb->n; i++)
        axis_interval(pb->lower[i], pb->upper[i], &tlo[i], &thi[i]);
    rc = hcubature(1, wrapper, &call, (unsigned)pb->n, tlo, thi, (size_t)pb->cap,
                   0.0, pb->epsrel, ERROR_INDIVIDUAL, &out->value, &out->error);
    out->seconds = bench_wall_seconds() - start;
    out->cpu_seconds = bench_cpu_seconds() - cpu;
    out->failed = rc != 0;
    if (out->failed) {
        printf("  hcubature n=%d epsrel=%.0e: returned %d\n", pb->n, pb->epsrel, rc);
        return;
    }
    out->evaluations = call.evaluations;
    out->true_rel = fabs(out->value - pb->truth) / fabs(pb->truth);
    out->converged = out->error <= pb->epsrel * fabs(out->value);
}
