/*
 * test_mpi.c - the MPI layer (pagani_mpi.h) from inside an MPI job;
 * tests/test_mpi.sh runs it under mpirun with 1 to 4 ranks and compares.
 *
 *   test_mpi results     integrates the cases below, single integrals,
 *                        batches of 7 (one line per integral) and a
 *                        vector integrand of 4 components (one line per
 *                        component);
 *                        rank 0 prints one line per case: method, integrand,
 *                        n, code, value and error as hex floats, status,
 *                        and "truth ok" when the true relative error is
 *                        within epsrel ("truth FAR" otherwise), then after
 *                        "=" value and error in decimal; every rank
 *                        checks that it has rank 0's bits ("ranks differ"
 *                        and exit status 1 when not)
 *   test_mpi fail WHAT R makes rank R alone fail (WHAT: memory: a budget
 *                        too small; compile: source with an error; option:
 *                        qmc_shifts 1; batch-warm: every rank asks for
 *                        batch_warm_stride, refused on an MPI context)
 *                        or puts a NaN where one rank's share of
 *                        QMC points (nan), Vegas cubes (vegas-nan) or
 *                        cubature regions (cubature-nan) meets it, or in
 *                        the last integral
 *                        of a batch (batch-nan); rank 0 prints the code
 *                        of every rank and whether their messages agree
 *   test_mpi differ WHAT R  rank R alone makes another call than the
 *                        others (WHAT: box, source, n, params, count:
 *                        another box, integrand source, dimension,
 *                        parameter block or batch count; part: another
 *                        QMC part; breaks: another break point; domain:
 *                        another centre of the map of unbounded axes): every
 *                        rank returns PAGANI_ERR_OPTION
 *                        with one message naming what differs
 *   test_mpi stop R      rank R alone asks for a stop before each method's
 *                        call (pagani_context_request_stop): every rank
 *                        ends PAGANI_STOPPED at the first pass (NaN +-
 *                        infinity), and the next call converges everywhere
 *   test_mpi stop-share R  a batch of one integral a rank (shares of
 *                        one), rank R alone asking for a stop before each
 *                        method's call: R's integral stopped, with the
 *                        stop request's message naming no integral; the
 *                        others converged
 *   test_mpi part N P    pagani_qmc_part of every part p < P of the QMC
 *                        case qmc_genz_osc 8-D at N points per shift, each
 *                        distributed over the ranks, combined: rank 0
 *                        prints value and error as hex floats
 *   test_mpi state DIR   checkpoints: each case of state_cases (cubature,
 *                        QMC and Vegas; one integral, a batch of 7, a
 *                        vector integrand) run whole, then stopped and
 *                        resumed with state_path in DIR: rank 0 prints
 *                        one line per case, whether the resumed run has
 *                        the bits of the whole one on every rank
 *   test_mpi state-ranks DIR RANKS
 *                        the files that state DIR made on RANKS ranks
 *                        resumed here: PAGANI_ERR_STATE on every rank,
 *                        one message naming both numbers
 *   test_mpi state-broken DIR R
 *                        rank R's file of a cubature checkpoint removed,
 *                        cut short, damaged or of an earlier iteration
 *                        than the others': PAGANI_ERR_STATE on every
 *                        rank, one message
 *   test_mpi region-bytes N
 *                        rank 0 prints the bytes a cubature region of an
 *                        N-dimensional scalar integrand takes of one
 *                        process's memory budget on the backend, so that
 *                        test_mpi.sh can state its budget in regions
 *
 * The backend is the CPU, or $PAGANI_TEST_BACKEND (cpu or cuda). Exit
 * status 0 when the run did what it should, 77 when the backend cannot
 * run here (no usable GPU), 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "pagani_mpi.h"
#include "internal.h"
#include "suite.h"
#include "qmc_suite.h"
#include "batch_cases.h"
#include "vector_cases.h"

static int rank, size;

/* Whether every rank holds rank 0's `bytes` bytes at data. */
static int same_on_all(const void *data, int bytes)
{
    char *root = malloc((size_t)bytes);
    int same, all = 0;

    if (!root) return 0;
    memcpy(root, data, (size_t)bytes);
    MPI_Bcast(root, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    same = memcmp(root, data, (size_t)bytes) == 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    free(root);
    return all;
}

/* One integral of the results run. */
typedef struct mpi_case {
    pagani_method method;
    const char *name;
    const pagani_integrand_def *def;
    int n;
    double epsrel;
    double truth;
    unsigned flags;          /* pagani_options.flags */
} mpi_case;

/* Integrates one case and prints its line; returns 0 when the ranks
 * differ or the code is not PAGANI_OK. */
static int run_case(pagani_context *ctx, const mpi_case *c)
{
    double lower[PAGANI_MAX_DIM] = {0}, upper[PAGANI_MAX_DIM];
    pagani_options opt = pagani_options_default(c->method);
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc, same;

    for (int i = 0; i < c->n; i++) upper[i] = 1.0;
    memset(&r, 0, sizeof r);
    opt.epsrel = c->epsrel;
    opt.vegas_calls = 2e5;
    opt.flags = c->flags;
    rc = pagani_integrand_create(ctx, &f, c->n, c->def);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, upper, &opt, &r);
    r.seconds = 0.0; /* the one field that may differ */
    same = same_on_all(&r, sizeof r) && same_on_all(&rc, sizeof rc);
    if (rank == 0)
        printf("%s %s %d-D: code %d, %a +- %a, %s, truth %s%s = %.17g "
               "%.17g\n",
               pagani_method_name(c->method), c->name, c->n, rc, r.value,
               r.error, pagani_status_name(r.status),
               fabs(r.value - c->truth) <= c->epsrel * fabs(c->truth) ? "ok"
                                                                     : "FAR",
               same ? "" : ", ranks differ", r.value, r.error);
    pagani_integrand_destroy(f);
    return same && rc == PAGANI_OK;
}

/* A batch of BATCH_K Gaussian bumps (batch_cases.h) with one method:
 * prints one line per integral like run_case's; returns 0 when the ranks
 * differ or the code is not PAGANI_OK. Spread over the ranks by integrals
 * (K >= ranks). */
#define BATCH_K 7
static int run_batch(pagani_context *ctx, pagani_method method,
                     double epsrel)
{
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    double params[BATCH_PARAMS * BATCH_K];
    pagani_options opt = pagani_options_default(method);
    pagani_integrand *f = NULL;
    pagani_result r[BATCH_K];
    int rc, same;

    memset(r, 0, sizeof r);
    batch_gaussian_draw(params, BATCH_K, 5, 0.1, 0.3);
    opt.epsrel = epsrel;
    opt.vegas_calls = 2e5;
    rc = pagani_integrand_create(ctx, &f, 3, &batch_gaussian);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, f, BATCH_K, params, BATCH_BLOCK,
                                    lower, upper, 0, &opt, r);
    for (int k = 0; k < BATCH_K; k++) r[k].seconds = 0.0;
    same = same_on_all(r, sizeof r) && same_on_all(&rc, sizeof rc);
    for (int k = 0; k < BATCH_K && rank == 0; k++) {
        double truth = batch_gaussian_truth(params + BATCH_PARAMS * k, 3,
                                            lower, upper);
        printf("%s batch %d: code %d, %a +- %a, %s, truth %s%s\n",
               pagani_method_name(method), k, rc, r[k].value, r[k].error,
               pagani_status_name(r[k].status),
               fabs(r[k].value - truth) <= epsrel * truth ? "ok" : "FAR",
               same ? "" : ", ranks differ");
    }
    pagani_integrand_destroy(f);
    return same && rc == PAGANI_OK;
}

/* The moments of vector_cases.h (4 components) in 3-D with one method:
 * prints one line per component like run_case's (named fvec-cK); returns
 * 0 when the ranks differ or the code is not PAGANI_OK. */
static int run_vector(pagani_context *ctx, pagani_method method, double epsrel)
{
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    double v[MOMENTS_NCOMP] = {0}, e[MOMENTS_NCOMP] = {0}, exact[MOMENTS_NCOMP];
    pagani_options opt = pagani_options_default(method);
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc, same;

    memset(&r, 0, sizeof r);
    moments_exact(3, exact);
    opt.epsrel = epsrel;
    opt.vegas_calls = 2e5;
    rc = pagani_integrand_create_vector(ctx, &f, 3, &moments);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_vector(ctx, f, lower, upper, &opt, &r, v, e);
    r.seconds = 0.0;
    same = same_on_all(&r, sizeof r) && same_on_all(v, sizeof v) &&
           same_on_all(e, sizeof e) && same_on_all(&rc, sizeof rc);
    for (int c = 0; c < MOMENTS_NCOMP && rank == 0; c++)
        printf("%s fvec-c%d 3-D: code %d, %a +- %a, %s, truth %s%s = %.17g "
               "%.17g\n",
               pagani_method_name(method), c, rc, v[c], e[c],
               pagani_status_name(r.status),
               fabs(v[c] - exact[c]) <= epsrel * fabs(exact[c]) ||
                       v[c] == exact[c] ? "ok" : "FAR",
               same ? "" : ", ranks differ", v[c], e[c]);
    pagani_integrand_destroy(f);
    return same && rc == PAGANI_OK;
}

/* The results run: single integrals (QMC distributed by points, Vegas by
 * passes, cubature by regions, Vegas+ replicated) and batches (spread by
 * integrals). */
static int results(pagani_context *ctx)
{
    const mpi_case cases[] = {
        {PAGANI_QMC, "qmc_cubic", &qmc_cubic, 6, 1e-6, 1.0, 0},
        {PAGANI_QMC, "qmc_genz_osc", &qmc_genz_osc, 8, 1e-4,
         qmc_genz_osc_exact(8, 0.0, 1.0), 0},
        {PAGANI_QMC, "f5", &suite_f5, 3, 1e-3, suite_truth(5, 3), 0},
        {PAGANI_CUBATURE, "f4", &suite_f4, 3, 1e-6, suite_truth(4, 3), 0},
        {PAGANI_CUBATURE, "f3", &suite_f3, 3, 1e-6, suite_truth(3, 3), 0},
        {PAGANI_VEGAS, "f4", &suite_f4, 3, 1e-3, suite_truth(4, 3), 0},
        {PAGANI_VEGAS, "f5", &suite_f5, 5, 1e-3, suite_truth(5, 5), 0},
        {PAGANI_VEGAS, "f4 m-Cubes1D", &suite_f4, 4, 1e-3, suite_truth(4, 4),
         PAGANI_FLAG_VEGAS_1D},
        {PAGANI_VEGAS, "f4 Vegas+", &suite_f4, 3, 1e-3, suite_truth(4, 3),
         PAGANI_FLAG_VEGAS_PLUS},
    };
    int ok = 1;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ok &= run_case(ctx, &cases[i]);
    ok &= run_batch(ctx, PAGANI_QMC, 1e-5);
    ok &= run_batch(ctx, PAGANI_CUBATURE, 1e-6);
    ok &= run_batch(ctx, PAGANI_VEGAS, 1e-3);
    ok &= run_vector(ctx, PAGANI_QMC, 1e-5);
    ok &= run_vector(ctx, PAGANI_CUBATURE, 1e-7);
    ok &= run_vector(ctx, PAGANI_VEGAS, 1e-3);
    return ok;
}

/* A corner of the cube where f is NaN: x[0] and x[1] above 0.97. */
PAGANI_INTEGRAND(nan_corner, {
    if (x[0] > 0.97 && x[1] > 0.97) return 0.0 / 0.0;
    return x[0] * x[1];
})

/* Prints every rank's code and whether the messages agree (rank 0);
 * returns whether all codes are `want` and the messages agree. */
static int report_codes(pagani_context *ctx, int rc, int want)
{
    int *codes = malloc(sizeof(int) * (size_t)size), all_want = 1;
    const char *msg = pagani_context_message(ctx);
    char text[512];
    int agree;

    memset(text, 0, sizeof text);
    snprintf(text, sizeof text, "%s", msg);
    agree = same_on_all(text, (int)sizeof text);
    MPI_Gather(&rc, 1, MPI_INT, codes, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("codes:");
        for (int r = 0; r < size; r++) {
            printf(" %d", codes[r]);
            all_want &= codes[r] == want;
        }
        printf("; messages %s: %s\n", agree ? "agree" : "differ", text);
    }
    MPI_Bcast(&all_want, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(codes);
    return all_want && agree;
}

/* NaN where p[0] > 0.5 (in the batch fault run, the last integral's). */
PAGANI_INTEGRAND(nan_param, {
    if (p[0] > 0.5) return 0.0 / 0.0;
    return x[0] * x[1] + p[0];
})

/* A batch of 4 on the CPU's QMC whose last integral is NaN: every rank
 * returns PAGANI_ERR_NONFINITE and the message names integral 3. */
static int batch_nan(pagani_context *ctx)
{
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    double params[4] = {0.1, 0.2, 0.3, 1.0};
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_integrand *f = NULL;
    pagani_result r[4];
    int rc = pagani_integrand_create(ctx, &f, 3, &nan_param);

    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, f, 4, params, sizeof params[0],
                                    lower, upper, 0, &opt, r);
    pagani_integrand_destroy(f);
    return report_codes(ctx, rc, PAGANI_ERR_NONFINITE) &&
           strstr(pagani_context_message(ctx), "integral 3: ") &&
           isnan(r[3].value) && !isnan(r[2].value);
}

/* The stop run: rank `who` asks for a stop before each method's call;
 * every rank must end that call stopped, and converge in the next. */
static int stop_run(pagani_context *ctx, int who)
{
    const pagani_method methods[] = {PAGANI_CUBATURE, PAGANI_VEGAS, PAGANI_QMC};
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    pagani_integrand *f = NULL;
    int good = pagani_integrand_create(ctx, &f, 3, &suite_f4) == PAGANI_OK, all;

    for (int i = 0; good && i < 3; i++) {
        pagani_options opt = pagani_options_default(methods[i]);
        pagani_result stopped, next;
        int rc;

        if (rank == who) pagani_context_request_stop(ctx);
        rc = pagani_integrate(ctx, f, lower, upper, &opt, &stopped);
        good &= report_codes(ctx, rc, PAGANI_OK);
        good &= stopped.status == PAGANI_STOPPED && isnan(stopped.value) &&
                isinf(stopped.error);
        rc = pagani_integrate(ctx, f, lower, upper, &opt, &next);
        good &= report_codes(ctx, rc, PAGANI_OK) && next.status == PAGANI_CONVERGED;
        if (rank == 0)
            printf("%s: %s, then %s\n", pagani_method_name(methods[i]),
                   pagani_status_name(stopped.status),
                   pagani_status_name(next.status));
    }
    pagani_integrand_destroy(f);
    MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* The stop run in shares of one: a batch of one integral a rank (each
 * rank's share one integral, run on its own), rank `who` alone asking
 * for a stop before each method's call: its integral ends stopped and
 * its message is the stop request's, naming no integral (a stop is
 * about the call); the others converge. */
static int stop_share_run(pagani_context *ctx, int who)
{
    const pagani_method methods[] = {PAGANI_CUBATURE, PAGANI_VEGAS, PAGANI_QMC};
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    pagani_result *r = malloc(sizeof *r * (size_t)size);
    pagani_integrand *f = NULL;
    int made = r && pagani_integrand_create(ctx, &f, 3, &suite_f4) == PAGANI_OK;
    int good = made, all;

    for (int i = 0; made && i < 3; i++) { /* every rank makes every call */
        pagani_options opt = pagani_options_default(methods[i]);
        const char *said;
        int rc;

        if (rank == who) pagani_context_request_stop(ctx);
        rc = pagani_integrate_batch(ctx, f, size, NULL, 0, lower, upper, 0,
                                    &opt, r);
        said = pagani_context_message(ctx);
        good &= rc == PAGANI_OK;
        for (int k = 0; k < size; k++)
            good &= r[k].status ==
                    (k == who ? PAGANI_STOPPED : PAGANI_CONVERGED);
        if (rank == who) {
            good &= strncmp(said, "stopped on request", 18) == 0;
            printf("%s, rank %d of %d: %s\n", pagani_method_name(methods[i]),
                   rank, size, said);
        }
    }
    pagani_integrand_destroy(f);
    free(r);
    MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* The fault run: `what` goes wrong on rank `bad` only (nan: wherever). */
static int fail(pagani_context *ctx, const char *what, int bad)
{
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc, want;

    if (!strcmp(what, "batch-nan")) return batch_nan(ctx);
    if (!strcmp(what, "compile")) {
        /* this rank's source does not compile */
        rc = pagani_integrand_from_source(ctx, &f, 3,
                                          rank == bad ? "return x[0] * ;"
                                                      : "return x[0] * x[1];",
                                          NULL, 0);
        want = rank == bad ? rc : -1;
        MPI_Bcast(&want, 1, MPI_INT, bad, MPI_COMM_WORLD);
        return report_codes(ctx, rc, want) && want != PAGANI_OK && !f;
    }
    rc = pagani_integrand_create(ctx, &f, 3,
                                 strstr(what, "nan") ? &nan_corner
                                                     : &suite_f4);
    if (rc != PAGANI_OK) {
        report_codes(ctx, rc, PAGANI_OK);
        return 0;
    }
    if (!strcmp(what, "memory")) {
        if (rank == bad) pagani_context_set_memory(ctx, 1000);
        want = PAGANI_ERR_NO_MEMORY;
    } else if (!strcmp(what, "option")) {
        opt.method = PAGANI_QMC;
        if (rank == bad) opt.qmc_shifts = 1;
        want = PAGANI_ERR_OPTION;
    } else if (!strcmp(what, "batch-warm")) {
        opt.method = PAGANI_VEGAS; /* every rank: not on an MPI context */
        opt.batch_warm_stride = 2;
        want = PAGANI_ERR_OPTION;
    } else {
        opt.method = !strcmp(what, "vegas-nan")      ? PAGANI_VEGAS
                     : !strcmp(what, "cubature-nan") ? PAGANI_CUBATURE
                                                     : PAGANI_QMC;
        want = PAGANI_ERR_NONFINITE;
    }
    rc = pagani_integrate(ctx, f, lower, upper, &opt, &r);
    pagani_integrand_destroy(f);
    return report_codes(ctx, rc, want) &&
           (strcmp(what, "batch-warm") ||
            strstr(pagani_context_message(ctx), "MPI context"));
}

/* The differ run: rank `odd` alone calls with another `what` than the
 * others; every rank must fail with PAGANI_ERR_OPTION and one message
 * that names it. */
static int differ(pagani_context *ctx, const char *what, int odd)
{
    double lower[4] = {0, 0, 0, 0}, upper[4] = {1, 1, 1, 1};
    double params[3] = {0.1, 0.2, 0.3}, breaks[1] = {0.5};
    double centers[3] = {0.0, 0.0, 0.0};
    int break_counts[3] = {1, 0, 0};
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_integrand *f = NULL;
    pagani_result r[3];
    long long record[PAGANI_QMC_PART_WORDS(16)];
    const char *names = "";
    int me = rank == odd, n = 3, rc;

    if (!strcmp(what, "box")) {
        upper[2] = me ? 2 : 1;
        names = "the boxes";
    } else if (!strcmp(what, "n")) {
        n = me ? 4 : 3;
        names = "the dimension n";
    } else if (!strcmp(what, "source")) {
        opt.method = PAGANI_VEGAS;
        names = "the integrand";
    } else if (!strcmp(what, "params")) {
        params[0] = me ? 0.5 : 0.1;
        names = "the parameter blocks";
    } else if (!strcmp(what, "count")) {
        opt.method = PAGANI_CUBATURE;
        names = "the count of integrals";
    } else if (!strcmp(what, "part")) {
        names = "the QMC part";
    } else if (!strcmp(what, "breaks")) {
        opt.method = PAGANI_CUBATURE;
        breaks[0] = me ? 0.25 : 0.5;
        opt.breaks = breaks;
        opt.break_counts = break_counts;
        names = "the options";
    } else if (!strcmp(what, "domain")) {
        opt.method = PAGANI_CUBATURE;
        centers[1] = me ? 1.0 : 0.0;
        opt.domain_centers = centers;
        names = "the options";
    }
    if (!strcmp(what, "source"))
        rc = pagani_integrand_from_source(ctx, &f, n,
                                          me ? "return x[0] + x[1];"
                                             : "return x[0] * x[1];",
                                          NULL, 0);
    else if ((rc = pagani_integrand_create(ctx, &f, n, &nan_param)) ==
             PAGANI_OK)
        rc = pagani_integrand_set_params(f, params, sizeof params[0]);
    if (rc != PAGANI_OK) {
        report_codes(ctx, rc, PAGANI_OK);
        return 0;
    }
    if (!strcmp(what, "part"))
        rc = pagani_qmc_part(ctx, f, lower, upper, &opt, 1000, me, 2, record);
    else if (!strcmp(what, "params") || !strcmp(what, "count"))
        rc = pagani_integrate_batch(ctx, f, me && *what == 'c' ? 2 : 3, params,
                                    sizeof params[0], lower, upper, 0, &opt,
                                    r);
    else
        rc = pagani_integrate(ctx, f, lower, upper, &opt, r);
    pagani_integrand_destroy(f);
    return report_codes(ctx, rc, PAGANI_ERR_OPTION) &&
           strstr(pagani_context_message(ctx), names);
}

/* The parts run: every part, each over the ranks, combined. */
static int parts(pagani_context *ctx, unsigned long long N, int P)
{
    double lower[8] = {0}, upper[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    const size_t words = PAGANI_QMC_PART_WORDS(16);
    long long *records = malloc(sizeof(long long) * words * (size_t)P);
    const long long **list = malloc(sizeof *list * (size_t)P);
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc = records && list ? PAGANI_OK : PAGANI_ERR_NO_MEMORY, same;

    memset(&r, 0, sizeof r);
    if (rc == PAGANI_OK)
        rc = pagani_integrand_create(ctx, &f, 8, &qmc_genz_osc);
    for (int p = 0; p < P && rc == PAGANI_OK; p++) {
        list[p] = records + (size_t)p * words;
        rc = pagani_qmc_part(ctx, f, lower, upper, &opt, N, p, P,
                             records + (size_t)p * words);
    }
    if (rc == PAGANI_OK)
        rc = pagani_qmc_combine_parts(ctx, f, lower, upper, &opt, P, list, &r);
    same = same_on_all(&r, sizeof r);
    if (rank == 0)
        printf("parts: code %d, %a +- %a%s\n", rc, r.value, r.error,
               same ? "" : ", ranks differ");
    pagani_integrand_destroy(f);
    free(records);
    free(list);
    return rc == PAGANI_OK && same;
}

/* The region-bytes run: a region's bytes of an n-dimensional scalar
 * integrand on the backend of a plain context (one process's). */
static int region_bytes(pagani_backend backend, int n)
{
    pagani_context *plain = NULL;
    int rc = pagani_context_create(&plain, backend);

    if (rc == PAGANI_OK && rank == 0)
        printf("%zu\n", plain->backend->cubature->bytes_per_region(
                            plain->backend_state, n, 1));
    pagani_context_destroy(plain);
    return rc == PAGANI_OK;
}

/* The flags of state_run's runs: PAGANI_FLAG_VEGAS_PLUS for the
 * state-plus checks (Vegas+ runs replicated on every rank, its per-cube
 * counts in each rank's file; the Vegas cases alone), else 0. */
static unsigned state_flags;

/* A Gaussian bump and its first moment: a vector integrand that takes
 * cubature several iterations. */
#define BUMP_NCOMP 2
PAGANI_VECTOR_INTEGRAND(bump_moment, BUMP_NCOMP, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);
    f[0] = exp(-50.0 * s);
    f[1] = x[0] * f[0];
})

/* A case of the checkpoint runs: `count` Gaussians of batch_cases.h
 * with `method` (1: one integral, spread over the ranks by points, passes
 * or regions; BATCH_K: a batch, by integrals) or, count 0, bump_moment
 * (spread by regions); stopped after `cut` iterations (max_iterations)
 * and run again. */
typedef struct state_case {
    pagani_method method;
    int count;
    int cut;
} state_case;

/* QMC and Vegas stopped mid-run; cubature after its first iteration and
 * mid-run (at epsrel 1e-9 it takes 5 to 7 on these). */
static const state_case state_cases[] = {
    {PAGANI_CUBATURE, 1, 1}, {PAGANI_CUBATURE, 1, 3},
    {PAGANI_CUBATURE, BATCH_K, 1}, {PAGANI_CUBATURE, BATCH_K, 3},
    {PAGANI_CUBATURE, 0, 1}, {PAGANI_CUBATURE, 0, 3},
    {PAGANI_QMC, 1, 2},      {PAGANI_QMC, BATCH_K, 2},
    {PAGANI_VEGAS, 1, 2},    {PAGANI_VEGAS, BATCH_K, 2},
};
#define STATE_CASES (int)(sizeof state_cases / sizeof *state_cases)

/* What a run of a state case ends with (zero where unused). */
typedef struct state_end {
    int rc;
    pagani_result r[BATCH_K];
    double values[BUMP_NCOMP], errors[BUMP_NCOMP];
} state_end;

/* Case c's checkpoint file in dir (a rank's is it with ".rank<k>"). */
static void state_file_of(char *file, size_t size, const char *dir,
                          const state_case *c)
{
    snprintf(file, size, "%s/%s-%d-%d.state", dir,
             pagani_method_name(c->method), c->count, c->cut);
}

/* Case c with state_path `file` (NULL: none), stopped after `cut`
 * iterations (0: run to the end), into *end. */
static void state_run(pagani_context *ctx, const state_case *c,
                      const char *file, int cut, state_end *end)
{
    double lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
    double params[BATCH_PARAMS * BATCH_K];
    pagani_options opt = pagani_options_default(c->method);
    pagani_integrand *f = NULL;

    memset(end, 0, sizeof *end);
    opt.epsrel = c->method == PAGANI_VEGAS      ? 1e-3
                 : c->method == PAGANI_CUBATURE ? 1e-9
                                                : 1e-5;
    opt.vegas_calls = 2e4;
    opt.state_path = file;
    opt.state_interval = 0;
    opt.max_iterations = cut;
    opt.flags |= state_flags;
    if (c->count == 0) {
        end->rc = pagani_integrand_create_vector(ctx, &f, 3, &bump_moment);
        if (end->rc == PAGANI_OK)
            end->rc = pagani_integrate_vector(ctx, f, lower, upper, &opt,
                                              end->r, end->values,
                                              end->errors);
    } else {
        batch_gaussian_draw(params, c->count, 5, 0.1, 0.3);
        end->rc = pagani_integrand_create(ctx, &f, 3, &batch_gaussian);
        if (end->rc == PAGANI_OK)
            end->rc = pagani_integrate_batch(ctx, f, c->count, params,
                                             BATCH_BLOCK, lower, upper, 0,
                                             &opt, end->r);
    }
    for (int k = 0; k < BATCH_K; k++) end->r[k].seconds = 0.0;
    pagani_integrand_destroy(f);
}

/* The checkpoint run: every state case run whole without a file, then
 * stopped with state_path DIR/METHOD-COUNT-CUT.state and run again: the
 * bits of the run never stopped (code, results, components), the same on
 * every rank, each rank's file at its own name (.rank<k>). */
static int state_resumes(const char *dir, pagani_context *ctx)
{
    int good = 1, all;

    for (int i = 0; i < STATE_CASES; i++) {
        const state_case *c = &state_cases[i];
        const int count = c->count ? c->count : 1;
        state_end whole, cut, resumed;
        char file[512], mine[600];
        int stopped = 1, same;

        if (state_flags && c->method != PAGANI_VEGAS) continue;
        state_file_of(file, sizeof file, dir, c);
        snprintf(mine, sizeof mine, "%s.rank%d", file, rank);
        state_run(ctx, c, NULL, 0, &whole);
        state_run(ctx, c, file, c->cut, &cut);
        state_run(ctx, c, file, 0, &resumed);
        for (int k = 0; k < count; k++)
            stopped &= cut.r[k].status == PAGANI_MAX_ITERATIONS;
        same = whole.rc == PAGANI_OK && cut.rc == PAGANI_OK &&
               resumed.rc == PAGANI_OK && stopped &&
               access(mine, F_OK) == 0 &&
               whole.r[0].status == PAGANI_CONVERGED &&
               !memcmp(&whole, &resumed, sizeof whole);
        same = same && same_on_all(&resumed, (int)sizeof resumed);
        MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s, %s, stopped after %d iterations (%s), resumed: "
                   "%a +- %a, %s, %s\n", pagani_method_name(c->method),
                   c->count == 0 ? "a vector integrand"
                   : c->count == 1 ? "1 integral" : "a batch",
                   c->cut, pagani_status_name(cut.r[0].status),
                   resumed.r[0].value, resumed.r[0].error,
                   pagani_status_name(resumed.r[0].status),
                   all ? "the bits of the run never stopped on every rank"
                       : "DIFFERENT (or a code, a file missing)");
        good &= all;
    }
    return good;
}

/* Files of state_resumes (one integral: Vegas's, cubature's) resumed on
 * another number of ranks: every rank returns PAGANI_ERR_STATE with one
 * message naming both numbers. */
static int state_other_ranks(const char *dir, pagani_context *ctx, int ranks)
{
    const state_case cases[2] = {{PAGANI_VEGAS, 1, 2},
                                 {PAGANI_CUBATURE, 1, 3}};
    int good = 1;

    for (int i = 0; i < 2; i++) {
        state_end end;
        char file[512], says[64];

        state_file_of(file, sizeof file, dir, &cases[i]);
        state_run(ctx, &cases[i], file, 0, &end);
        snprintf(says, sizeof says, "of %d ranks; this is rank 0 of %d",
                 ranks, size);
        good &= report_codes(ctx, end.rc, PAGANI_ERR_STATE) &&
                strstr(pagani_context_message(ctx), says) != NULL;
    }
    return good;
}

/* Files of case c stopped after its first iteration, at
 * DIR/older.state: the code. */
static int state_older(const char *dir, pagani_context *ctx,
                       const state_case *c)
{
    state_end end;
    char file[512], mine[600];

    snprintf(file, sizeof file, "%s/older.state", dir);
    snprintf(mine, sizeof mine, "%s.rank%d", file, rank);
    remove(mine); /* a file of an earlier run */
    state_run(ctx, c, file, 1, &end);
    return end.rc;
}

/* Rank `who`'s checkpoint file of one integral stopped after its second
 * iteration (cubature, QMC and Vegas) removed, cut short by a word, with
 * a byte before its checksum changed, or (older) replaced by its file of
 * the iteration before, as ranks killed while writing may leave it: the
 * resume fails with PAGANI_ERR_STATE on every rank, with one message,
 * and nothing hangs. */
static int state_broken(const char *dir, pagani_context *ctx, int who)
{
    const pagani_method methods[3] = {PAGANI_CUBATURE, PAGANI_QMC,
                                      PAGANI_VEGAS};
    const char *breaks[4] = {"missing", "truncated", "damaged", "older"};
    int good = 1;

    for (int i = 0; i < 12; i++) {
        const state_case c = {methods[i / 4], 1, 2};
        state_end end;
        char file[512], mine[600];
        int broke;

        snprintf(file, sizeof file, "%s/broken-%s-%s.state", dir,
                 pagani_method_name(c.method), breaks[i % 4]);
        snprintf(mine, sizeof mine, "%s.rank%d", file, rank);
        remove(mine); /* a file of an earlier run */
        state_run(ctx, &c, file, c.cut, &end);
        broke = end.rc == PAGANI_OK &&
                (i % 4 < 3 || state_older(dir, ctx, &c) == PAGANI_OK);
        if (rank == who) {
            FILE *fp = fopen(mine, "r+b");
            long bytes;
            if (!fp || fseek(fp, 0, SEEK_END) || (bytes = ftell(fp)) < 64) {
                broke = 0;
            } else if (i % 4 == 0) {
                broke &= remove(mine) == 0;
            } else if (i % 4 == 1) {
                broke &= truncate(mine, bytes - 8) == 0;
            } else if (i % 4 == 3) { /* its file of the first iteration */
                char older[600];
                snprintf(older, sizeof older, "%s/older.state.rank%d", dir,
                         rank);
                broke &= rename(older, mine) == 0;
            } else { /* a byte of the payload's end, before the checksum */
                int byte;
                broke &= !fseek(fp, bytes - 24, SEEK_SET) &&
                        (byte = fgetc(fp)) != EOF &&
                        !fseek(fp, bytes - 24, SEEK_SET) &&
                        fputc(byte ^ 0x10, fp) != EOF;
            }
            if (fp) fclose(fp);
        }
        state_run(ctx, &c, file, 0, &end);
        MPI_Allreduce(MPI_IN_PLACE, &broke, 1, MPI_INT, MPI_MIN,
                      MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s: rank %d's file %s: ", pagani_method_name(c.method),
                   who, breaks[i % 4]);
        good &= report_codes(ctx, end.rc, PAGANI_ERR_STATE) && broke;
    }
    return good;
}

int main(int argc, char **argv)
{
    pagani_context *ctx = NULL;
    const char *backend;
    int rc, ok = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    backend = getenv("PAGANI_TEST_BACKEND");
    rc = pagani_mpi_context_create(&ctx,
                                   backend && !strcmp(backend, "cuda")
                                       ? PAGANI_BACKEND_CUDA
                                       : PAGANI_BACKEND_CPU,
                                   MPI_COMM_WORLD);
    if (rc != PAGANI_OK) {
        if (rank == 0)
            printf("context: %s: %s\n", pagani_strerror(rc),
                   pagani_context_message(ctx));
        /* no usable GPU: the script reports the checks skipped */
        if (rc == PAGANI_ERR_BACKEND_UNAVAILABLE) ok = -1;
    } else if (argc == 2 && !strcmp(argv[1], "results")) {
        ok = results(ctx);
    } else if (argc == 4 && !strcmp(argv[1], "fail")) {
        ok = fail(ctx, argv[2], atoi(argv[3]) % size);
    } else if (argc == 4 && !strcmp(argv[1], "differ")) {
        ok = differ(ctx, argv[2], atoi(argv[3]) % size);
    } else if (argc == 3 && !strcmp(argv[1], "stop")) {
        ok = stop_run(ctx, atoi(argv[2]) % size);
    } else if (argc == 3 && !strcmp(argv[1], "stop-share")) {
        ok = stop_share_run(ctx, atoi(argv[2]) % size);
    } else if (argc == 4 && !strcmp(argv[1], "part")) {
        ok = parts(ctx, strtoull(argv[2], NULL, 10), atoi(argv[3]));
    } else if (argc == 3 && !strcmp(argv[1], "state")) {
        ok = state_resumes(argv[2], ctx);
    } else if (argc == 3 && !strcmp(argv[1], "state-plus")) {
        state_flags = PAGANI_FLAG_VEGAS_PLUS; /* Vegas alone */
        ok = state_resumes(argv[2], ctx);
    } else if (argc == 4 && !strcmp(argv[1], "state-ranks")) {
        ok = state_other_ranks(argv[2], ctx, atoi(argv[3]));
    } else if (argc == 4 && !strcmp(argv[1], "state-broken")) {
        ok = state_broken(argv[2], ctx, atoi(argv[3]) % size);
    } else if (argc == 3 && !strcmp(argv[1], "region-bytes")) {
        ok = region_bytes(ctx->kind, atoi(argv[2]));
    } else if (rank == 0) {
        fprintf(stderr, "usage: test_mpi results | fail WHAT RANK | "
                        "differ WHAT RANK | stop RANK | stop-share RANK | "
                        "part N P | state DIR | "
                        "state-plus DIR | state-ranks DIR RANKS | "
                        "state-broken DIR RANK | "
                        "region-bytes N\n");
    }
    pagani_context_destroy(ctx);
    MPI_Finalize();
    return ok < 0 ? 77 : !ok;
}
