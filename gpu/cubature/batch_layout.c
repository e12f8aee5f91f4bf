/*
 * batch_layout.c - the tile layout of a batch's region list
 * (batch_layout.h).
 */
#include <limits.h>
#include "gpu/cubature/batch_layout.h"

/* Row `row` of offsets: the exclusive sum of sizes, then the total. */
static long long scan_row(int *row, const long long *sizes, int integrals)
{
    long long total = 0;
    for (int k = 0; k < integrals; k++) {
        row[k] = (int)total;
        total += sizes[k];
        if (total > INT_MAX - 1) return -1;
    }
    row[integrals] = (int)total;
    return total;
}

int pagani_gpu_layout(const long long *counts, int integrals, int *offsets)
{
    const int width = integrals + 1;
    int levels = 0;

    for (int k = 0; k < integrals; k++)
        if (counts[k] < 0) return -1;
    if (scan_row(offsets, counts, integrals) < 0) return -1;
    for (;;) {
        const int *row = offsets + (long long)levels * width;
        int *next = offsets + (long long)(levels + 1) * width;
        int most = 0;
        long long total = 0;
        if (levels == PAGANI_GPU_MAX_LEVELS) return -1;
        for (int k = 0; k < integrals; k++) {
            long long tiles = pagani_gpu_tiles(row[k + 1] - row[k]);
            next[k] = (int)total;
            total += tiles;
            if (tiles > most) most = (int)tiles;
        }
        next[integrals] = (int)total;
        levels++;
        if (most <= 1) return levels;
    }
}
