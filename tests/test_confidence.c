/*
 * test_confidence.c - pagani_options.mc_sigmas, the confidence of a Monte
 * Carlo "converged" (CPU; the drivers apply it the same on every backend).
 * Over fixed seeds, for QMC and Vegas on integrands of known value:
 *  - every run converges, and a run at mc_sigmas 2 only with twice its
 *    reported error within the tolerance;
 *  - at 2 the true error is within the tolerance in at least 85% of the
 *    runs (about 95% for a normal error; at 1 about 68%, not asserted);
 *  - 2 takes more evaluations than 1 over the seeds.
 * And the option itself: the default is 1, 0 means 1 (bit for bit), NaN,
 * negative, infinite and above PAGANI_MC_SIGMAS_MAX are PAGANI_ERR_OPTION,
 * for pagani_integrate and pagani_qmc_part alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "qmc_suite.h"
#include "suite.h"
#include "tap.h"

#define SEEDS 40

typedef struct confidence_case {
    const char *name;
    pagani_method method;
    const pagani_integrand_def *def;
    int n;
    double epsrel;
} confidence_case;

static double case_truth(const confidence_case *c)
{
    return c->def == &qmc_genz_osc ? qmc_genz_osc_exact(c->n, 0.0, 1.0)
                                   : suite_truth(4, c->n);
}

static int run(pagani_context *ctx, pagani_integrand *f, const confidence_case *c,
               unsigned long long seed, double sigmas, pagani_result *r)
{
    double lo[PAGANI_MAX_DIM], hi[PAGANI_MAX_DIM];
    pagani_options o = pagani_options_default(c->method);

    for (int i = 0; i < c->n; i++) {
        lo[i] = 0.0;
        hi[i] = 1.0;
    }
    o.epsrel = c->epsrel;
    o.epsabs = 0.0;
    o.seed = seed;
    o.vegas_calls = 1e5;
    o.mc_sigmas = sigmas;
    return pagani_integrate(ctx, f, lo, hi, &o, r);
}

/* 4 checks. */
static void check_case(pagani_context *ctx, const confidence_case *c)
{
    const double truth = case_truth(c);
    pagani_integrand *f = NULL;
    int ok = 0, honest_at_2 = 0, within[2] = {0, 0};
    long long evaluations[2] = {0, 0};

    if (pagani_integrand_create(ctx, &f, c->n, c->def) != PAGANI_OK)
        tap_diag("%s: %s", c->name, pagani_context_message(ctx));
    for (int s = 1; f && s <= SEEDS; s++) {
        for (int k = 0; k < 2; k++) {
            const double sigmas = k + 1.0;
            pagani_result r;
            if (run(ctx, f, c, (unsigned long long)s, sigmas, &r) != PAGANI_OK ||
                r.status != PAGANI_CONVERGED) {
                tap_diag("%s seed %d at %g sigma: %s", c->name, s, sigmas,
                         pagani_status_name(r.status));
                continue;
            }
            ok++;
            evaluations[k] += r.evaluations;
            within[k] += fabs(r.value - truth) <= c->epsrel * fabs(truth);
            if (k == 1) honest_at_2 += sigmas * r.error <= c->epsrel * fabs(r.value);
        }
    }
    tap_diag("%s at %g: true error within the tolerance in %d/%d runs at 1 sigma "
             "(%.3g evaluations each), %d/%d at 2 (%.3g)", c->name, c->epsrel,
             within[0], SEEDS, (double)evaluations[0] / SEEDS, within[1], SEEDS,
             (double)evaluations[1] / SEEDS);
    tap_ok(ok == 2 * SEEDS, "%s: all %d runs converge (%d)", c->name, 2 * SEEDS, ok);
    tap_ok(honest_at_2 == SEEDS,
           "%s: at 2 sigma every run converged with 2 x error within the tolerance "
           "(%d/%d)", c->name, honest_at_2, SEEDS);
    tap_ok(within[1] * 100 >= 85 * SEEDS,
           "%s: at 2 sigma the true error is within the tolerance in >= 85%% "
           "of the runs (%d/%d)", c->name, within[1], SEEDS);
    tap_ok(evaluations[1] > evaluations[0],
           "%s: 2 sigma takes more evaluations than 1 (%lld > %lld)", c->name,
           evaluations[1], evaluations[0]);
    pagani_integrand_destroy(f);
}

/* 7 checks. */
static void check_option(pagani_context *ctx)
{
    const double bad[4] = {NAN, -1.0, INFINITY, PAGANI_MC_SIGMAS_MAX * 1.01};
    double lo[4] = {0, 0, 0, 0}, hi[4] = {1, 1, 1, 1};
    pagani_options o = pagani_options_default(PAGANI_QMC);
    pagani_integrand *f = NULL;
    pagani_result a, b;
    long long record[PAGANI_QMC_PART_WORDS(16)];
    int same, rc;

    tap_ok(o.mc_sigmas == 1.0, "the default mc_sigmas is 1");
    if (pagani_integrand_create(ctx, &f, 4, &qmc_genz_osc) != PAGANI_OK) {
        tap_diag("integrand: %s", pagani_context_message(ctx));
        return;
    }
    o.epsrel = 1e-6;
    rc = pagani_integrate(ctx, f, lo, hi, &o, &a);
    o.mc_sigmas = 0.0;
    rc |= pagani_integrate(ctx, f, lo, hi, &o, &b);
    same = rc == PAGANI_OK && memcmp(&a.value, &b.value, sizeof a.value) == 0 &&
           memcmp(&a.error, &b.error, sizeof a.error) == 0 &&
           a.evaluations == b.evaluations;
    tap_ok(same, "mc_sigmas 0 is the default 1, bit for bit");
    for (int i = 0; i < 4; i++) {
        o.mc_sigmas = bad[i];
        rc = pagani_integrate(ctx, f, lo, hi, &o, &a);
        tap_ok(rc == PAGANI_ERR_OPTION, "mc_sigmas %g is PAGANI_ERR_OPTION: %s",
               bad[i], pagani_context_message(ctx));
    }
    o.mc_sigmas = -1.0;
    rc = pagani_qmc_part(ctx, f, lo, hi, &o, 1 << 12, 0, 1, record);
    tap_ok(rc == PAGANI_ERR_OPTION, "pagani_qmc_part: mc_sigmas -1 is "
           "PAGANI_ERR_OPTION: %s", pagani_context_message(ctx));
    pagani_integrand_destroy(f);
}

int main(void)
{
    static const confidence_case cases[] = {
        {"QMC Genz oscillatory 6D", PAGANI_QMC, &qmc_genz_osc, 6, 1e-5},
        {"Vegas f4 5D", PAGANI_VEGAS, &suite_f4, 5, 1e-3},
    };
    pagani_context *ctx = NULL;
    const int rc = pagani_context_create(&ctx, PAGANI_BACKEND_CPU);

    tap_plan(rc == PAGANI_OK ? 1 + 2 * 4 + 7 : 1);
    if (!tap_ok(rc == PAGANI_OK, "a CPU context (%s)", pagani_strerror(rc))) {
        pagani_context_destroy(ctx);
        return tap_exit_code();
    }
    for (int i = 0; i < 2; i++) check_case(ctx, &cases[i]);
    check_option(ctx);
    pagani_context_destroy(ctx);
    return tap_exit_code();
}
