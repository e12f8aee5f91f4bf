/*
 * cpu_cubature_eval.c - the cubature rule and the vertex probes
 * (rules/probe.h) applied to one region of the OpenMP backend's list: what
 * cpu_cubature.c's evaluate pass runs on every region.
 */
#include <math.h>
#include "cpu/cpu_cubature.h"
#include "rules/probe.h"

void cpu_region_box(const cpu_cubature *c, long long i, double *lo, double *w)
{
    for (int d = 0; d < c->n; d++) {
        lo[d] = c->lower[c->cur][(size_t)d * c->capacity + i];
        w[d] = c->width[c->cur][(size_t)d * c->capacity + i];
    }
}

/* f (with parameter block params) at point p of a region (rule_point's
 * numbering): 0 for NaN or infinity, whose first point is kept in
 * *first_bad. */
static double f_at(const cpu_cubature *c, const void *params, long long p,
                   const double *lo, const double *w, double *x, int *first_bad)
{
    double fx;
    pagani_rule_point(c->rule, p, lo, w, x);
    fx = c->f->function(x, c->n, params);
    if (isfinite(fx)) return fx;
    if (*first_bad < 0) *first_bad = (int)p;
    return 0.0;
}

/* The probes of region i (probe.h): when they see more than the rule's
 * largest |f|, rule_max, allows, raises the region's error to what they
 * saw and splits it across the axis where they differ most. scratch: 2n
 * doubles. */
static void check_probes(cpu_cubature *c, long long i, const void *params,
                         const double *lo, const double *w, double volume,
                         double rule_max, double *scratch, int *first_bad)
{
    const int n = c->n;
    double *x = scratch, *side = x + n, probe_max = 0.0;
    int axis = 0;

    for (int d = 0; d < n; d++) side[d] = 0.0;
    for (int v = 0; v < c->rule->nprobes; v++) {
        double a = fabs(f_at(c, params, c->rule->npoints + v, lo, w, x, first_bad));
        if (a > probe_max) probe_max = a;
        for (int d = 0; d < n; d++) side[d] += (v >> d & 1) ? a : -a;
    }
    if (!pagani_probe_missed(probe_max, rule_max)) return;
    for (int d = 1; d < n; d++)
        if (fabs(side[d]) > fabs(side[axis])) axis = d;
    c->error[i] = fmax(c->error[i], volume * probe_max);
    c->axis[i] = axis;
}

void cpu_evaluate_region(cpu_cubature *c, long long i, double probe_below,
                         double probe_relative, double *scratch)
{
    const pagani_rule *r = c->rule;
    const int n = c->n;
    const void *params = cpu_region_params(c, i);
    double *lo = scratch, *w = lo + n, *x = w + n, *f_axis = x + n;
    double sums[5] = {0, 0, 0, 0, 0}, volume = 1.0, rule_max = 0.0;
    int first_bad = -1;
    long long p;

    cpu_region_box(c, i, lo, w);
    for (int d = 0; d < n; d++) volume *= w[d];
    for (p = 0; p < r->npoints; p++) {
        const double *wk = p < r->nexplicit ? r->weights + 5 * p : r->corner_weights;
        double fx = f_at(c, params, p, lo, w, x, &first_bad);
        if (p <= 4 * n && p < r->nexplicit) f_axis[p] = fx;
        if (fabs(fx) > rule_max) rule_max = fabs(fx);
        for (int k = 0; k < 5; k++) sums[k] += wk[k] * fx;
    }
    pagani_rule_estimate(r, sums, volume, &c->value[i], &c->error[i]);
    c->axis[i] = pagani_rule_split_axis(r, f_axis, w);
    if (c->error[i] <= probe_below || c->error[i] <= probe_relative * fabs(c->value[i]))
        check_probes(c, i, params, lo, w, volume, rule_max, x, &first_bad);
    c->bad_point[i] = first_bad;
}
