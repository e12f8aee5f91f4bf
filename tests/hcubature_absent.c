/*
 * hcubature_absent.c - code_runs.h's hcubature where configure did not
 * find it (--without-hcubature, or no cubature.h and -lcubature): every
 * run fails, and bench_families prints libpagani's rows alone.
 */
#include "code_runs.h"

int bench_hcubature_available(void)
{
    return 0;
}

void bench_run_hcubature(const bench_problem *pb, bench_run *out)
{
    (void)pb;
    out->failed = 1;
}
