/*
 * test_qmc.c - PAGANI_QMC on the CPU backend: the checks of qmc_checks.h
 * (accuracy and honesty on the Hofbauer-Uhl-Zinterhof and Genz integrands,
 * convergence rate, bit-exact block and leap splits, partial runs, seeds,
 * faults and limits), and the result independent of the thread count.
 */
#include "qmc_checks.h"

/* 1 and 2 threads: the same bits. */
static void check_threads(pagani_context *ctx)
{
    double lower[10], upper[10];
    pagani_integrand *f = qmc_make(ctx, 10, &qmc_genz_osc);
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_result a, b;
    int ok;

    qmc_box(10, 0.0, 1.0, lower, upper);
    opt.max_iterations = 3;
    opt.qmc_initial_points = 5000;
    ok = f && pagani_context_set_threads(ctx, 1) == PAGANI_OK &&
         pagani_integrate(ctx, f, lower, upper, &opt, &a) == PAGANI_OK &&
         pagani_context_set_threads(ctx, 2) == PAGANI_OK &&
         pagani_integrate(ctx, f, lower, upper, &opt, &b) == PAGANI_OK;
    tap_ok(ok && a.value == b.value && a.error == b.error,
           "1 and 2 threads: identical (%.17g, %.17g)", a.value, b.value);
    pagani_context_set_threads(ctx, 0);
    pagani_integrand_destroy(f);
}

int main(void)
{
    pagani_context *ctx = NULL;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_plan(1);
        tap_ok(0, "CPU context: %s", pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    tap_plan(QMC_CHECKS + 1);
    qmc_run_checks(ctx);
    check_threads(ctx);
    pagani_context_destroy(ctx);
    return tap_exit_code();
}
