/*
 * test_gpu_vegas.c - PAGANI_VEGAS (m-Cubes) on the CUDA backend: the
 * statistical suite over 40 seeds, reproducibility, honest failure, n = 64
 * and the options (vegas_cases.h), and agreement with the CPU backend:
 * every suite case within 4 combined sigma, and the same point named for a
 * NaN (both backends draw the same points). Without a usable GPU the whole
 * program is skipped, never passed.
 */
#include <stdlib.h>
#include "gpu_pair.h"
#include "vegas_cases.h"

/* The suite's seed-1 result on the CPU and the GPU agree within errors. */
static void check_agreement(pagani_context *gpu, pagani_context *cpu)
{
    for (int i = 0; i < VEGAS_SUITE_SIZE; i++) {
        vegas_case c = vegas_suite_case(i);
        pagani_integrand *fg = vegas_make(gpu, c.def, c.n, NULL, 0);
        pagani_integrand *fc = vegas_make(cpu, c.def, c.n, NULL, 0);
        pagani_result g, h;
        int ok = fg && fc && vegas_run(gpu, fg, &c, 1, &g) == PAGANI_OK &&
                 vegas_run(cpu, fc, &c, 1, &h) == PAGANI_OK;
        double sigma = ok ? sqrt(g.error * g.error + h.error * h.error) : 0.0;
        tap_ok(ok && fabs(g.value - h.value) <= 4.0 * sigma,
               "%s: GPU %.10g +- %.3g and CPU %.10g +- %.3g agree (%.2f sigma)",
               c.name, ok ? g.value : 0.0, ok ? g.error : 0.0, ok ? h.value : 0.0,
               ok ? h.error : 0.0, sigma > 0 ? fabs(g.value - h.value) / sigma : 0.0);
        pagani_integrand_destroy(fg);
        pagani_integrand_destroy(fc);
    }
}

/* The NaN report names the same point on both backends. */
static void check_same_fault(pagani_context *gpu, pagani_context *cpu)
{
    vegas_case c = {"hole", &vegas_hole, 3, 0, 1, 0, 1e-3, 1e4, 0, 0};
    pagani_integrand *fg = vegas_make(gpu, c.def, c.n, NULL, 0);
    pagani_integrand *fc = vegas_make(cpu, c.def, c.n, NULL, 0);
    pagani_result r;
    char gm[512] = "", cm[512] = "";
    const char *gx, *cx;

    if (fg && vegas_run(gpu, fg, &c, 1, &r) == PAGANI_ERR_NONFINITE)
        snprintf(gm, sizeof gm, "%s", pagani_context_message(gpu));
    if (fc && vegas_run(cpu, fc, &c, 1, &r) == PAGANI_ERR_NONFINITE)
        snprintf(cm, sizeof cm, "%s", pagani_context_message(cpu));
    gx = strstr(gm, "x = (");
    cx = strstr(cm, "x = (");
    tap_ok(gx && cx && strcmp(gx, cx) == 0, "the same NaN point on GPU and CPU: %s",
           gx ? gx : gm);
    pagani_integrand_destroy(fg);
    pagani_integrand_destroy(fc);
}

/* The NaN of vegas_edge_nan is named at the same point, down to the
 * last bit, on both backends (n = 2, 6, 10: groups of 2 samples that
 * share Philox blocks; n = 5: one by one). */
static void check_same_fault_point(pagani_context *gpu, pagani_context *cpu)
{
    static const int dims[] = {2, 5, 6, 10};
    int runs = 0, same = 0;

    for (int k = 0; k < 4; k++)
        for (unsigned long long s = 1; s <= 6; s++) {
            double xg[PAGANI_MAX_DIM], xc[PAGANI_MAX_DIM];
            long long sg = -1, sc = -2;
            const char *mg, *mc;
            int g = vegas_fault_point(gpu, dims[k], s, xg, &sg, &mg);
            int c = vegas_fault_point(cpu, dims[k], s, xc, &sc, &mc);
            int equal = g && c && sg == sc &&
                        memcmp(xg, xc, (size_t)dims[k] * sizeof xg[0]) == 0;
            runs++;
            same += equal;
            if (!equal) tap_diag("n = %d, seed %llu: GPU %s, CPU %s", dims[k], s,
                                 g ? "named a point" : "named none",
                                 c ? "named a point" : "named none");
        }
    tap_ok(same == runs, "the same NaN point and sample on GPU and CPU in %d of %d runs",
           same, runs);
}

int main(void)
{
    pagani_context *gpu, *cpu;
    int exit_code;

    if (!gpu_pair_open(&gpu, &cpu, &exit_code)) return exit_code;
    for (int i = 0; i < VEGAS_SUITE_SIZE; i++) {
        vegas_case c = vegas_suite_case(i);
        vegas_check_case(gpu, &c);
    }
    vegas_check_reproducible(gpu);
    vegas_check_no_signal(gpu);
    vegas_check_constant(gpu);
    vegas_check_disc(gpu);
    vegas_check_heavy_tails(gpu);
    vegas_check_high_dimension(gpu);
    vegas_check_nonfinite(gpu);
    vegas_check_fault_point(gpu);
    vegas_check_options(gpu);
    check_agreement(gpu, cpu);
    check_same_fault(gpu, cpu);
    check_same_fault_point(gpu, cpu);
    pagani_context_destroy(cpu);
    pagani_context_destroy(gpu);
    tap_done();
    return tap_exit_code();
}
