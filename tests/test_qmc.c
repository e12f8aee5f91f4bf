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
    pagani_integrand *f = qmc_make(ctx, 10, &qmc_genz_osc);
    pagani_result a, b;
    int ok = f && pagani_context_set_threads(ctx, 1) == PAGANI_OK &&
             qmc_short_run(ctx, f, &a) &&
             pagani_context_set_threads(ctx, 2) == PAGANI_OK &&
             qmc_short_run(ctx, f, &b);

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
