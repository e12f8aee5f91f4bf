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
#include "rules/graded.h"
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

/* f_at's graded case: f_of at the point grading g moves point p to,
 * times g's Jacobian there (rules/graded.h). */
static void f_graded(const cpu_cubature *c, cpu_values *values, long long i,
                     const void *params, long long p, const double *lo,
                     const double *w, const pagani_grading *g, double *x, double *fx,
                     int *first_bad)
{
    double jacobian;
    pagani_rule_point(c->rule, p, lo, w, x);
    jacobian = pagani_graded_point(g, c->n, lo, w, x);
    f_of(c, values, i, params, p, x, fx, first_bad);
    for (int k = 0; k < c->ncomp; k++) fx[k] *= jacobian;
}

/* f_of at point p of region i, lower corner lo, widths w (x: scratch);
 * with a grading g (else NULL), f_graded's. */
static inline void f_at(const cpu_cubature *c, cpu_values *values, long long i,
                 const void *params, long long p, const double *lo,
                 const double *w, const pagani_grading *g, double *x, double *fx,
                 int *first_bad)
{
    if (g) {
        f_graded(c, values, i, params, p, lo, w, g, x, fx, first_bad);
        return;
    }
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

/* What one evaluation of a region found (evaluate_pass): per component
 * its value and raw error (arrays of ncomp the caller owns), its sign
 * byte, split axis and first bad point, whether a probe raised the
 * error, whether the vertex probes ran, the vertex probe of the largest
 * weighted |f| (-1 when they did not run); of component 0, the vertex
 * toward which f leans (bit d set where the axial probe on the upper
 * face of axis d exceeds the lower's, in size) and whether f is steep at
 * a face (pagani_graded_steep at an axial probe). `grading` moves f
 * (rules/graded.h; NULL: f itself). */
typedef struct region_pass {
    const pagani_grading *grading;
    double *value, *error;
    unsigned char sign;
    int axis, first_bad, raised, probed, top, lean, steep;
} region_pass;

/* The axial probes of region i (probe.h), on every region: a component
 * whose f_k at the middle of a face misses what its axis points predict
 * (f_axis, axis_points values a component) gets its error raised to the
 * floor that sets, when larger; when any did, the region is to be split
 * across the axis of the largest weighted floor (the first on ties), into
 * pass->axis. Component 0's lean and steepness (region_pass) go to
 * pass->lean and pass->steep. Returns whether any did. scratch: n +
 * ncomp doubles. */
static int check_axial(const cpu_cubature *c, cpu_values *values,
                       long long i, const void *params,
                       const double *lo, const double *w, double volume,
                       const double *f_axis, int axis_points, region_pass *pass,
                       double *scratch)
{
    const pagani_rule *r = c->rule;
    const int n = c->n, C = c->ncomp, owner = c->owner[c->cur][i];
    double *x = scratch, *fx = x + n, best = 0.0, upper = 0.0;
    int axis = -1, missed = 0;

    pass->lean = 0;
    pass->steep = 0;
    for (int j = 0; j < 2 * n; j++) {
        f_at(c, values, i, params, cpu_axial_point(r, j), lo, w, pass->grading, x, fx,
             &pass->first_bad);
        pass->steep |= pagani_graded_steep(f_axis, n, j / 2, j & 1, &c->axial_fit, fx[0]);
        if (!(j & 1)) upper = fabs(fx[0]);
        else if (upper > fabs(fx[0])) pass->lean |= 1 << j / 2;
        for (int k = 0; k < C; k++) {
            double floor = pagani_probe_axial_floor(
                volume, f_axis + (size_t)k * axis_points, n, j / 2, j & 1,
                &c->axial_fit, fx[k]);
            if (floor * weight_of(c, owner, k) > best) {
                best = floor * weight_of(c, owner, k);
                axis = j / 2;
            }
            if (floor > pass->error[k]) {
                pass->error[k] = floor;
                missed = 1;
            }
        }
    }
    if (missed) pass->axis = axis;
    return missed;
}

/* The vertex probes of region i (probe.h), component by component: a
 * component whose |f_k| at the probes leaves the range its rule's points
 * saw, rule_max[k] and rule_min[k], gets its error raised to the floor
 * the probes set, when that is larger; when any did, the region is to be
 * split across the axis where the probes' weighted largest |f_k| differ
 * most (pass->axis). The probe of the largest weighted |f| goes to
 * pass->top. Returns whether any raised. scratch: 2n + 3 ncomp doubles. */
static int check_probes(const cpu_cubature *c, cpu_values *values,
                        long long i, const void *params,
                        const double *lo, const double *w, double volume,
                        const double *rule_max, const double *rule_min,
                        region_pass *pass, double *scratch)
{
    const int n = c->n, C = c->ncomp, owner = c->owner[c->cur][i];
    double *x = scratch, *side = x + n, *fx = side + n, *probe_max = fx + C;
    double *probe_min = probe_max + C, top = -1.0;
    const int vertices = c->rule->nprobes > 0 ? 1 << n : 0;
    int axis = 0, missed = 0;

    for (int d = 0; d < n; d++) side[d] = 0.0;
    for (int k = 0; k < C; k++) {
        probe_max[k] = 0.0;
        probe_min[k] = PAGANI_PROBE_NO_MIN;
    }
    for (int v = 0; v < vertices; v++) {
        double a = 0.0;
        f_at(c, values, i, params, c->rule->npoints + v, lo, w, pass->grading, x, fx,
             &pass->first_bad);
        for (int k = 0; k < C; k++) {
            double ak = fabs(fx[k]);
            probe_max[k] = fmax(probe_max[k], ak);
            probe_min[k] = fmin(probe_min[k], ak);
            ak *= weight_of(c, owner, k);
            if (ak > a) a = ak;
        }
        if (a > top) {
            top = a;
            pass->top = v;
        }
        for (int d = 0; d < n; d++) side[d] += (v >> d & 1) ? a : -a;
    }
    for (int k = 0; k < C; k++) {
        double floor = pagani_probe_floor(volume, probe_max[k], probe_min[k],
                                          rule_max[k], rule_min[k]);
        if (floor > pass->error[k]) {
            pass->error[k] = floor;
            missed = 1;
        }
    }
    if (!missed) return 0;
    for (int d = 1; d < n; d++)
        if (fabs(side[d]) > fabs(side[axis])) axis = d;
    pass->axis = axis;
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

/* One evaluation of region i (lower corner lo, widths w) into *pass: the
 * rule, the axial probes when the job has them, then the vertex probes
 * when E <= probe_below or E <= probe_relative * |V| (pass->probed), as
 * cpu_evaluate_region's; the region's V and E stored as it goes (the
 * probes' bounds read them). scratch: CPU_EVAL_SCRATCH less 2n doubles. */
static void evaluate_pass(cpu_cubature *c, long long i, cpu_values *values,
                          const double *lo, const double *w, double volume,
                          double probe_below, double probe_relative,
                          region_pass *pass, double *scratch)
{
    const pagani_rule *r = c->rule;
    const int n = c->n, C = c->ncomp, axis_points = 4 * n + 1;
    const int owner = c->owner[c->cur][i];
    const void *params = cpu_region_params(c, i);
    double *x = scratch, *fx = x + n, *f_axis = fx + C;
    double *sums = f_axis + (size_t)axis_points * C;
    double *rule_max = sums + 5 * C, *rule_min = rule_max + C;
    double *probe_scratch = rule_min + C;
    long long p;

    pass->first_bad = -1;
    pass->raised = 0;
    pass->top = -1;
    for (int k = 0; k < 5 * C; k++) sums[k] = 0.0;
    for (int k = 0; k < C; k++) {
        rule_max[k] = 0.0;
        rule_min[k] = PAGANI_PROBE_NO_MIN;
    }
    for (p = 0; p < r->npoints; p++) {
        const double *wk = p < r->nexplicit ? r->weights + 5 * p : r->corner_weights;
        f_at(c, values, i, params, p, lo, w, pass->grading, x, fx, &pass->first_bad);
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
    pass->sign = 0;
    for (int k = 0; k < C; k++) {
        double five[5];
        for (int j = 0; j < 5; j++) five[j] = sums[j * C + k];
        pagani_rule_estimate(r, five, volume, &pass->value[k], &pass->error[k],
                             &pass->sign);
    }
    if (C > 1) pass->sign = 0; /* a vector integrand's pair (V, E): unknown */
    pass->axis = pagani_rule_split_axis(
        r, f_axis + (size_t)worst_component(c, owner, pass->error) * axis_points, w);
    if (c->probes)
        pass->raised = check_axial(c, values, i, params, lo, w, volume, f_axis,
                                   axis_points, pass, probe_scratch);
    cpu_store_region(c, i, pass->value, pass->error);
    pass->probed = c->error[i] <= probe_below ||
                   c->error[i] <= probe_relative * fabs(c->value[i]);
    if (pass->probed && check_probes(c, values, i, params, lo, w, volume, rule_max,
                                     rule_min, pass, probe_scratch)) {
        cpu_store_region(c, i, pass->value, pass->error);
        pass->raised = 1;
    }
    /* a probe that raised E: its sign is unknown */
    if (pass->raised) pass->sign = 0;
}

/* The grading of region i (rules/graded.h) at vertex probe v, into *g:
 * each axis's power from |f| at the probe and PAGANI_GRADED_MID and
 * PAGANI_GRADED_FAR widths from v's face along that axis. Returns whether
 * any axis moves (none where f is not finite at those points). scratch:
 * 2n doubles. */
static int grading_of(const cpu_cubature *c, long long i, const double *lo,
                      const double *w, int v, pagani_grading *g, double *scratch)
{
    const int n = c->n;
    const void *params = cpu_region_params(c, i);
    const double inset[3] = {PAGANI_PROBE_INSET, PAGANI_GRADED_MID, PAGANI_GRADED_FAR};
    double *centre = scratch, *x = centre + n, at[3];
    int bad = -1, moved = 0;

    for (int d = 0; d < n; d++) {
        centre[d] = lo[d] + 0.5 * w[d];
        x[d] = pagani_graded_coordinate(v, d, centre[d], w[d], inset[0]);
    }
    f_of(c, NULL, i, params, 0, x, &at[0], &bad);
    at[0] = fabs(at[0]);
    g->vertex = v;
    for (int d = 0; d < n; d++) {
        for (int j = 1; j < 3; j++) {
            x[d] = pagani_graded_coordinate(v, d, centre[d], w[d], inset[j]);
            f_of(c, NULL, i, params, 0, x, &at[j], &bad);
            at[j] = fabs(at[j]);
        }
        x[d] = pagani_graded_coordinate(v, d, centre[d], w[d], inset[0]);
        g->power[d] = pagani_graded_power(at);
        moved |= g->power[d] != 1.0;
    }
    return moved && bad < 0;
}

/* The graded evaluation of region i (rules/graded.h) after its plain
 * one, where f is steep at a face: toward the vertex of the largest
 * probe when a probe raised E, else toward the vertex f leans to; taken when f was finite at its points and its error
 * is the smaller (a scalar integrand called point by point). Returns the
 * pass taken, `plain` or `graded` (whose grading g holds), the region's
 * V and E stored; f's calls beyond the plain pass into *calls. scratch:
 * as evaluate_pass's. */
static const region_pass *grade(cpu_cubature *c, long long i, const double *lo,
                                const double *w, double volume,
                                const region_pass *plain, region_pass *graded,
                                pagani_grading *g, int *calls, double *scratch)
{
    const int vertex = !plain->steep                   ? -1
                       : plain->raised && plain->top >= 0 ? plain->top
                                                          : plain->lean;
    *calls = 0;
    if (vertex < 0) return plain;
    *calls = 1 + 2 * c->n;
    if (!grading_of(c, i, lo, w, vertex, g, scratch)) return plain;
    *calls += (int)(c->rule->npoints + c->rule->nprobes);
    graded->grading = g;
    evaluate_pass(c, i, NULL, lo, w, volume, INFINITY, 0.0, graded, scratch);
    if (graded->first_bad < 0 && graded->error[0] < plain->error[0]) return graded;
    cpu_store_region(c, i, plain->value, plain->error);
    return plain;
}

void cpu_evaluate_region(cpu_cubature *c, long long i, double probe_below,
                         double probe_relative, double *scratch,
                         cpu_values *values)
{
    const int n = c->n, C = c->ncomp;
    double *lo = scratch, *w = lo + n, *value = w + n, *error = value + C;
    double *graded_value = error + C, *graded_error = graded_value + C;
    double *pass_scratch = graded_error + C, volume = 1.0;
    region_pass plain = {NULL, value, error, 0, 0, -1, 0, 0, -1, 0, 0};
    region_pass graded = {NULL, graded_value, graded_error, 0, 0, -1, 0, 0, -1, 0, 0};
    const region_pass *taken = &plain;
    pagani_grading g;
    int calls = 0;

    if (c->held[i]) return; /* evaluated in an earlier list */
    cpu_region_box(c, i, lo, w);
    for (int d = 0; d < n; d++) volume *= w[d];
    evaluate_pass(c, i, values, lo, w, volume, probe_below, probe_relative, &plain,
                  pass_scratch);
    if (C == 1 && !values)
        taken = grade(c, i, lo, w, volume, &plain, &graded, &g, &calls, pass_scratch);
    c->axis[i] = taken->axis;
    c->probed[i] = plain.probed;
    c->error_sign[i] = taken->sign;
    c->bad_point[i] = plain.first_bad;
    c->graded_calls[i] = calls;
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
