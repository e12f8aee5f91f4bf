/*
 * qmc_tail.c - PAGANI_QMC's heavy-tail guard (qmc_tail.h).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "qmc/qmc_tail.h"

int qmc_tail_open(qmc_tail *t, int integrals, int shifts)
{
    const size_t K = (size_t)integrals;
    t->integrals = integrals;
    t->shifts = shifts;
    t->peak = calloc(K * (size_t)shifts, sizeof *t->peak);
    t->level = calloc(K * QMC_TAIL_BLOCKS, sizeof *t->level);
    t->growth = calloc(K, sizeof *t->growth);
    t->held = calloc(K, sizeof *t->held);
    return t->peak && t->level && t->growth && t->held;
}

void qmc_tail_free(qmc_tail *t)
{
    free(t->peak);
    free(t->level);
    free(t->growth);
    free(t->held);
}

void qmc_tail_add(qmc_tail *t, int k, int b, const double *block_peaks)
{
    const int R = t->shifts;
    double *peak = t->peak + (size_t)k * R;
    double *level = t->level + (size_t)k * QMC_TAIL_BLOCKS;
    double sum = 0.0;
    int window = b - 1 < QMC_TAIL_WINDOW ? b - 1 : QMC_TAIL_WINDOW;

    for (int r = 0; r < R; r++) {
        peak[r] = fmax(peak[r], block_peaks[r]);
        /* a shift that saw only zeros counts at the smallest normal */
        sum += log2(fmax(peak[r], DBL_MIN));
    }
    if (b < 1 || b > QMC_TAIL_BLOCKS) return;
    level[b - 1] = sum / R;
    t->growth[k] =
        window > 0 ? (level[b - 1] - level[b - 1 - window]) / window : 0.0;
}

int qmc_tail_unbounded(const qmc_tail *t, int k)
{
    return t->growth[k] >= QMC_TAIL_GROWTH;
}

double qmc_tail_error(const qmc_tail *t, int k, double volume,
                      unsigned long long N)
{
    const int R = t->shifts;
    const double *peak = t->peak + (size_t)k * R;
    double largest = 0.0;

    if (!qmc_tail_unbounded(t, k)) return 0.0;
    for (int r = 0; r < R; r++) largest = fmax(largest, peak[r]);
    return QMC_TAIL_SCALE * volume * (largest / ((double)R * (double)N));
}
