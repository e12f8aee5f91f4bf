/*
 * cpu_cubature_eval.c - the cubature rule, the probes (rules/probe.h) and
 * the randomized check (rules/random_check.h) applied to one region of
 * the OpenMP backend's list: what cpu_cubature.c's evaluate pass runs on
 * every region. One code path for scalar and vector integrands: a scalar
 * integrand is one component, and its arithmetic is that of the scalar
 * rule.
 */
#include <math.h>
#include "cpu/cpu_cubature.h"
#include "rules/probe.h"
#include "rules/random_check.h"

void cpu_region_box(const cpu_cubature *c, long long i, double *lo, double *w)
{
    for (int d = 0; d < c->n; d++) {
        lo[d] = c->lower[c->cur][(size_t)d * c->capacity + i];
        w[d] = c->width[c->cur][(size_t)d * c->capacity + i];
    }
}

/* f (with parameter block params) at x, point p of region i (rule_point's
 * numbering), its ncomp values into fx: all 0 where one is NaN or
 * infinity, whose first point is kept in *first_bad. A block integrand's
 * values come from `values` (cpu_values_take; 0 when they are not there
 * yet), a one-point form's from a call. Once a stop is requested, f is
 * not called and fx is 0, so that a stop ends the region after the
 * evaluation in flight whatever f costs (the pass is then discarded:
 * cpu_evaluate returns PAGANI_STOP_REQUESTED). */
static void f_of(const cpu_cubature *c, cpu_values *values, long long i,
                 const void *params, long long p, const double *x, double *fx,
                 int *first_bad)
{
    int finite = 1;
    if (c->f->ctx->stop_requested) {
        for (int k = 0; k < c->ncomp; k++) fx[k] = 0.0;
        return;
    }
    if (!values)
        pagani_integrand_eval(c->f, x, params, fx);
    else if (!cpu_values_take(values, i, p, x, fx))
        return;
    for (int k = 0; k < c->ncomp; k++) finite &= isfinite(fx[k]) != 0;
    if (finite) return;
    if (*first_bad < 0) *first_bad = (int)p;
    for (int k = 0; k < c->ncomp; k++) fx[k] = 0.0;
}

/* f_of at point p of region i, lower corner lo, widths w (x: scratch). */
static void f_at(const cpu_cubature *c, cpu_values *values, long long i,
                 const void *params, long long p, const double *lo,
                 const double *w, double *x, double *fx, int *first_bad)
{
    pagani_rule_point(c->rule, p, lo, w, x);
    f_of(c, values, i, params, p, x, fx, first_bad);
}

/* The weight of component k's group in region i's integral (1 for a
 * scalar integrand). */
static double weight_of(const cpu_cubature *c, int owner, int k)
{
    if (c->ncomp == 1) return 1.0;
    return c->weights[(size_t)owner * c->groups + k / c->group_size];
}

/* The axial probes of region i (probe.h), on every region: a component
 * whose f_k at the middle of a face misses what its axis points predict
 * (f_axis, axis_points values a component) gets its error raised to the
 * floor that sets, when larger; when any did, the region is split across
 * the axis of the largest weighted floor (the first on ties). Returns
 * whether any did. scratch: n + ncomp doubles. */
static int check_axial(const cpu_cubature *c, cpu_values *values,
                       long long i, const void *params,
                       const double *lo, const double *w, double volume,
                       const double *f_axis, int axis_points, double *error,
                       double *scratch, int *first_bad)
{
    const pagani_rule *r = c->rule;
    const int n = c->n, C = c->ncomp, owner = c->owner[c->cur][i];
    double *x = scratch, *fx = x + n, best = 0.0;
    int axis = -1, missed = 0;

    for (int j = 0; j < 2 * n; j++) {
        f_at(c, values, i, params, cpu_axial_point(r, j), lo, w, x, fx,
             first_bad);
        for (int k = 0; k < C; k++) {
            double floor = pagani_probe_axial_floor(
                volume, f_axis + (size_t)k * axis_points, n, j / 2, j & 1,
                &c->axial_fit, fx[k]);
            if (floor * weight_of(c, owner, k) > best) {
                best = floor * weight_of(c, owner, k);
                axis = j / 2;
            }
            if (floor > error[k]) {
                error[k] = floor;
                missed = 1;
            }
        }
    }
    if (missed) c->axis[i] = axis;
    return missed;
}

/* The vertex probes of region i (probe.h), component by component: a
 * component whose |f_k| at the probes leaves the range its rule's points
 * saw, rule_max[k] and rule_min[k], gets its error raised to the floor
 * the probes set, when that is larger; when any did, the region is split
 * across the axis where the probes' weighted largest |f_k| differ most.
 * Returns whether any did. scratch: 2n + 3 ncomp doubles. */
static int check_probes(const cpu_cubature *c, cpu_values *values,
                        long long i, const void *params,
                        const double *lo, const double *w, double volume,
                        const double *rule_max, const double *rule_min,
                        double *error, double *scratch, int *first_bad)
{
    const int n = c->n, C = c->ncomp, owner = c->owner[c->cur][i];
    double *x = scratch, *side = x + n, *fx = side + n, *probe_max = fx + C;
    double *probe_min = probe_max + C;
    const int vertices = c->rule->nprobes > 0 ? 1 << n : 0;
    int axis = 0, missed = 0;

    for (int d = 0; d < n; d++) side[d] = 0.0;
    for (int k = 0; k < C; k++) {
        probe_max[k] = 0.0;
        probe_min[k] = PAGANI_PROBE_NO_MIN;
    }
    for (int v = 0; v < vertices; v++) {
        double a = 0.0;
        f_at(c, values, i, params, c->rule->npoints + v, lo, w, x, fx,
             first_bad);
        for (int k = 0; k < C; k++) {
            double ak = fabs(fx[k]);
            probe_max[k] = fmax(probe_max[k], ak);
            probe_min[k] = fmin(probe_min[k], ak);
            ak *= weight_of(c, owner, k);
            if (ak > a) a = ak;
        }
        for (int d = 0; d < n; d++) side[d] += (v >> d & 1) ? a : -a;
    }
    for (int k = 0; k < C; k++) {
        double floor = pagani_probe_floor(volume, probe_max[k], probe_min[k],
                                          rule_max[k], rule_min[k]);
        if (floor > error[k]) {
            error[k] = floor;
            missed = 1;
        }
    }
    if (!missed) return 0;
    for (int d = 1; d < n; d++)
        if (fabs(side[d]) > fabs(side[axis])) axis = d;
    c->axis[i] = axis;
    return 1;
}

/* The component whose weighted raw error is the largest (the first on
 * ties); 0 for a scalar integrand. */
static int worst_component(const cpu_cubature *c, int owner, const double *error)
{
    int worst = 0;
    for (int k = 1; k < c->ncomp; k++)
        if (weight_of(c, owner, k) * error[k] >
            weight_of(c, owner, worst) * error[worst])
            worst = k;
    return worst;
}

void cpu_evaluate_region(cpu_cubature *c, long long i, double probe_below,
                         double probe_relative, double *scratch,
                         cpu_values *values)
{
    const pagani_rule *r = c->rule;
    const int n = c->n, C = c->ncomp, axis_points = 4 * n + 1;
    const int owner = c->owner[c->cur][i];
    const void *params = cpu_region_params(c, i);
    double *lo = scratch, *w = lo + n, *x = w + n, *fx = x + n;
    double *f_axis = fx + C, *sums = f_axis + (size_t)axis_points * C;
    double *rule_max = sums + 5 * C, *rule_min = rule_max + C;
    double *value = rule_min + C, *error = value + C;
    double *probe_scratch = error + C, volume = 1.0;
    int first_bad = -1, raised = 0;
    unsigned char sign = 0;
    long long p;

    if (c->held[i]) return; /* evaluated in an earlier list */
    cpu_region_box(c, i, lo, w);
    for (int d = 0; d < n; d++) volume *= w[d];
    for (int k = 0; k < 5 * C; k++) sums[k] = 0.0;
    for (int k = 0; k < C; k++) {
        rule_max[k] = 0.0;
        rule_min[k] = PAGANI_PROBE_NO_MIN;
    }
    for (p = 0; p < r->npoints; p++) {
        const double *wk = p < r->nexplicit ? r->weights + 5 * p : r->corner_weights;
        f_at(c, values, i, params, p, lo, w, x, fx, &first_bad);
        if (p <= 4 * n && p < r->nexplicit)
            for (int k = 0; k < C; k++) f_axis[k * axis_points + p] = fx[k];
        /* sums[j * C + k]: loops over the components vectorise */
        for (int k = 0; k < C; k++) {
            rule_max[k] = fmax(rule_max[k], fabs(fx[k]));
            rule_min[k] = fmin(rule_min[k], fabs(fx[k]));
        }
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < C; k++) sums[j * C + k] += wk[j] * fx[k];
    }
    for (int k = 0; k < C; k++) {
        double five[5];
        for (int j = 0; j < 5; j++) five[j] = sums[j * C + k];
        pagani_rule_estimate(r, five, volume, &value[k], &error[k], &sign);
    }
    if (C > 1) sign = 0; /* a vector integrand's pair (V, E): unknown */
    c->axis[i] = pagani_rule_split_axis(
        r, f_axis + (size_t)worst_component(c, owner, error) * axis_points, w);
    if (c->probes)
        raised = check_axial(c, values, i, params, lo, w, volume, f_axis,
                             axis_points, error, probe_scratch, &first_bad);
    cpu_store_region(c, i, value, error);
    c->probed[i] = c->error[i] <= probe_below ||
                   c->error[i] <= probe_relative * fabs(c->value[i]);
    if (c->probed[i] &&
        check_probes(c, values, i, params, lo, w, volume, rule_max, rule_min,
                     error, probe_scratch, &first_bad)) {
        cpu_store_region(c, i, value, error);
        raised = 1;
    }
    /* a probe that raised E: its sign is unknown */
    c->error_sign[i] = raised ? 0 : sign;
    c->bad_point[i] = first_bad;
}

void cpu_check_region(cpu_cubature *c, long long i, double check_above,
                      double *scratch, cpu_values *values)
{
    const long long first = c->rule->npoints + c->rule->nprobes;
    const void *params = cpu_region_params(c, i);
    const int n = c->n;
    double *centre = scratch, *w = centre + n, *x = w + n, *fx = x + n;
    double e = c->error[i], mean = 0.0, squared_deviations = 0.0, volume = 1.0;
    int first_bad = c->bad_point[i];
    pagani_u64 key;

    if (c->error_sign[i] != 0 || c->held[i]) return;
    if (c->has_parents) {
        const long long j = i / 2, sibling = i ^ 1;
        e = pagani_two_level_error(e, c->error[sibling],
                                   c->value[2 * j] + c->value[2 * j + 1] - c->parent_value[j]);
    }
    if (!(e > check_above)) return;
    cpu_region_box(c, i, centre, w);
    for (int d = 0; d < n; d++) {
        centre[d] += 0.5 * w[d];
        volume *= w[d];
    }
    key = pagani_check_key(centre, w, n);
    for (int j = 0; j < PAGANI_CHECK_POINTS; j++) {
        double delta;
        for (int d = 0; d < n; d += 2) pagani_check_pair(key, j, d, n, centre, w, x);
        f_of(c, values, i, params, first + j, x, fx, &first_bad);
        delta = fx[0] - mean;
        mean += delta / (j + 1);
        squared_deviations += delta * (fx[0] - mean);
    }
    if (values && cpu_values_missed(values, i)) return; /* not yet */
    pagani_check_result(volume, c->value[i], mean, squared_deviations, &c->check_diff[i],
                        &c->check_var[i]);
    c->error_sign[i] = PAGANI_SIGN_CHECKED;
    c->bad_point[i] = first_bad;
}
