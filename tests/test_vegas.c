/*
 * test_vegas.c - PAGANI_VEGAS (m-Cubes) on the CPU backend: the Philox
 * generator against its published answers, the grid adjustment, then the
 * statistical suite over 40 seeds (vegas_cases.h), bit reproducibility,
 * independence of the thread count, honest failure, n = 64 and the options.
 */
#include <stdlib.h>
#include "vegas_cases.h"
#include "sampling/philox.h"
#include "vegas_backend.h"
#include "sampling/vegas_grid.h"

/* Random123's known-answer vectors for Philox4x32-10. */
static void check_philox(void)
{
    static const pagani_u32 kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
         0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
         0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    for (int k = 0; k < 3; k++) {
        pagani_philox4 c = {{kat[k][0], kat[k][1], kat[k][2], kat[k][3]}};
        pagani_philox_keys keys;
        pagani_philox4 r = pagani_philox4x32_10(c, kat[k][4], kat[k][5]);
        tap_ok(r.v[0] == kat[k][6] && r.v[1] == kat[k][7] && r.v[2] == kat[k][8] &&
                   r.v[3] == kat[k][9],
               "Philox4x32-10 known answer %d", k + 1);
        keys = pagani_philox_schedule(kat[k][4], kat[k][5]);
        r = pagani_philox4x32_10_keyed(c, &keys);
        tap_ok(r.v[0] == kat[k][6] && r.v[1] == kat[k][7] && r.v[2] == kat[k][8] &&
                   r.v[3] == kat[k][9],
               "Philox4x32-10 known answer %d from the round keys", k + 1);
    }
    tap_ok(pagani_u01_32(0) > 0.0 && pagani_u01_32(0xffffffffu) < 1.0 &&
               pagani_u01_52(0xffffffffu, 0xffffffffu) < 1.0 &&
               pagani_u01_52(0, 0) > 0.0,
           "uniforms lie in the open interval (0,1)");
}

/* All weight in bins 200..209 of 500: the new grid crowds there, stays
 * monotone from 0 to 1, and an empty row is left as it is. */
static void check_grid(void)
{
    enum { NB = 500 };
    double grid[2 * (NB + 1)], bins[2 * NB], work[2 * NB + 1];
    int monotone = 1, inside = 0;

    pagani_vegas_grid_uniform(grid, 2, NB);
    for (int i = 0; i < 2 * NB; i++) bins[i] = 0.0;
    for (int i = 200; i < 210; i++) bins[i] = 1.0;
    for (int round = 0; round < 5; round++)
        pagani_vegas_grid_adjust(grid, bins, 2, NB, 1.5, work);
    for (int i = 0; i < NB; i++) {
        monotone &= grid[i + 1] >= grid[i];
        inside += grid[i] >= 0.39 && grid[i] <= 0.43;
    }
    tap_ok(grid[0] == 0.0 && grid[NB] == 1.0 && monotone,
           "adjusted grid runs monotonically from 0 to 1");
    tap_ok(inside > NB / 4, "adjusted grid puts %d of %d edges near the weight",
           inside, NB);
    tap_ok(grid[NB + 1 + 250] == 0.5, "a row without contributions is kept");
}

/* 1 and 2 threads give the same bits. */
static void check_threads(void)
{
    const unsigned flags[2] = {0, PAGANI_FLAG_VEGAS_PLUS};
    for (int k = 0; k < 2; k++) {
        pagani_result r[2];
        int ok = 1;
        for (int t = 0; t < 2; t++) {
            pagani_context *ctx;
            vegas_case c = vegas_suite_case(0);
            pagani_integrand *f;
            c.flags = flags[k];
            ok &= pagani_context_create(&ctx, PAGANI_BACKEND_CPU) == PAGANI_OK;
            pagani_context_set_threads(ctx, t + 1);
            f = vegas_make(ctx, c.def, c.n, NULL, 0);
            ok &= f && vegas_run(ctx, f, &c, 11, &r[t]) == PAGANI_OK;
            pagani_integrand_destroy(f);
            pagani_context_destroy(ctx);
        }
        tap_ok(ok && vegas_same(&r[0], &r[1]),
               "flags %u: 1 and 2 threads give the same bits (%.17g, %.17g)",
               flags[k], r[0].value, r[1].value);
    }
}

int main(void)
{
    pagani_context *ctx;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_ok(0, "CPU context: %s", pagani_context_message(ctx));
        tap_done();
        return 1;
    }
    check_philox();
    check_grid();
    for (int i = 0; i < VEGAS_SUITE_SIZE; i++) {
        vegas_case c = vegas_suite_case(i);
        vegas_check_case(ctx, &c);
    }
    vegas_check_reproducible(ctx);
    check_threads();
    vegas_check_no_signal(ctx);
    vegas_check_constant(ctx);
    vegas_check_disc(ctx);
    vegas_check_heavy_tails(ctx);
    vegas_check_high_dimension(ctx);
    vegas_check_nonfinite(ctx);
    vegas_check_fault_point(ctx);
    vegas_check_options(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
