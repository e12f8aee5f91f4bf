/*
 * test_gpu_qmc.c - PAGANI_QMC on the CUDA backend: the checks of
 * qmc_checks.h, then the GPU against the CPU: the same points bit for bit
 * (indices beyond 2^40, every transform, blocks and leaps) and the same
 * estimates. Skipped where no GPU is usable.
 */
#include "gpu_pair.h"
#include "qmc_checks.h"

/* The points of both backends' QMC operation for one job. */
static int same_points(pagani_context *cpu, pagani_context *gpu,
                       pagani_integrand *fc, pagani_integrand *fg, int n,
                       const pagani_options *opt, unsigned long long first,
                       unsigned long long leap, int *mismatch)
{
    enum { COUNT = 4096 };
    static double xc[COUNT * 16], xg[COUNT * 16];
    double lower[16], upper[16];
    qmc_job jc, jg;
    void *sc = NULL, *sg = NULL;
    int rc;

    for (int i = 0; i < n; i++) {
        lower[i] = -1.0 - i;
        upper[i] = 0.5 + 0.25 * i;
    }
    rc = pagani_qmc_job(cpu, fc, lower, upper, opt, &jc);
    if (rc == PAGANI_OK) rc = pagani_qmc_job(gpu, fg, lower, upper, opt, &jg);
    if (rc == PAGANI_OK) rc = cpu->backend->qmc->setup(cpu->backend_state, &jc, &sc);
    if (rc == PAGANI_OK) rc = gpu->backend->qmc->setup(gpu->backend_state, &jg, &sg);
    if (rc == PAGANI_OK) rc = cpu->backend->qmc->points(sc, 5, first, COUNT, leap, xc);
    if (rc == PAGANI_OK) rc = gpu->backend->qmc->points(sg, 5, first, COUNT, leap, xg);
    if (sc) cpu->backend->qmc->release(sc);
    if (sg) gpu->backend->qmc->release(sg);
    *mismatch = 0;
    for (int j = 0; j < COUNT * n; j++) *mismatch += xc[j] != xg[j];
    return rc == PAGANI_OK;
}

static void check_points(pagani_context *cpu, pagani_context *gpu)
{
    pagani_integrand *fc = qmc_make(cpu, 16, &qmc_cubic);
    pagani_integrand *fg = qmc_make(gpu, 16, &qmc_cubic);
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    int ok = fc && fg, bad = 0, m;

    opt.seed = 99;
    for (int t = 0; t <= 2 && ok; t++) {
        opt.qmc_transform = t;
        ok = same_points(cpu, gpu, fc, fg, 16, &opt, 1, 1, &m); bad += m;
        ok = ok && same_points(cpu, gpu, fc, fg, 16, &opt, (1ULL << 40) - 100, 1, &m); bad += m;
        ok = ok && same_points(cpu, gpu, fc, fg, 16, &opt, 3, 1000003, &m); bad += m;
    }
    tap_ok(ok && bad == 0, "CPU and GPU points identical: 3 transforms, k from 1 "
           "and from 2^40, leap 1000003, n = 16 (%d mismatches)", bad);
    pagani_integrand_destroy(fc);
    pagani_integrand_destroy(fg);
}

/* One integral on both backends: the same points, so the same estimate up
 * to the integrand's rounding (FMA contraction on the GPU). */
static void check_estimates(pagani_context *cpu, pagani_context *gpu)
{
    pagani_integrand *fc = qmc_make(cpu, 10, &qmc_genz_osc);
    pagani_integrand *fg = qmc_make(gpu, 10, &qmc_genz_osc);
    pagani_result a, b;
    int ok = fc && fg && qmc_short_run(cpu, fc, &a) && qmc_short_run(gpu, fg, &b);

    tap_ok(ok && fabs(a.value - b.value) <= 1e-12 * fabs(a.value) &&
           fabs(a.error - b.error) <= 1e-6 * a.error && b.backend == PAGANI_BACKEND_CUDA,
           "CPU and GPU estimates agree (%.17g, %.17g; errors %.3g, %.3g)",
           a.value, b.value, a.error, b.error);
    pagani_integrand_destroy(fc);
    pagani_integrand_destroy(fg);
}

/* Throughput, for the log: 16 shifts x 2^24 points of the oscillatory. */
static void report_rate(pagani_context *gpu)
{
    double lower[10], upper[10];
    pagani_integrand *f = qmc_make(gpu, 10, &qmc_genz_osc);
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_result r;

    qmc_box(10, 0.0, 1.0, lower, upper);
    opt.qmc_initial_points = 1 << 24;
    opt.max_iterations = 1;
    if (f && pagani_integrate(gpu, f, lower, upper, &opt, &r) == PAGANI_OK)
        tap_diag("throughput: %lld evaluations in %.3f s: %.3g points/s (n = 10)",
                 r.evaluations, r.seconds, r.evaluations / r.seconds);
    pagani_integrand_destroy(f);
}

int main(void)
{
    pagani_context *gpu, *cpu;
    int exit_code;

    if (!gpu_pair_open(&gpu, &cpu, &exit_code)) return exit_code;
    if (!gpu->backend->qmc) {
        tap_plan(1);
        tap_ok(0, "the CUDA backend offers the QMC operation (backend_ops.qmc)");
        return 1;
    }
    tap_plan(QMC_CHECKS + 2);
    qmc_run_checks(gpu);
    check_points(cpu, gpu);
    check_estimates(cpu, gpu);
    report_rate(gpu);
    pagani_context_destroy(cpu);
    pagani_context_destroy(gpu);
    return tap_exit_code();
}
