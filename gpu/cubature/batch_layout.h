/*
 * batch_layout.h - how the CUDA backend cuts a region list holding the
 * regions of K integrals (one after the other) into tiles for its sums.
 * Plain C, no CUDA: the backend builds the layout on the host whenever
 * the counts change and uploads it; the tests check it without a GPU.
 *
 * A tile is up to PAGANI_GPU_TILE items of ONE integral, starting at its
 * first item or a multiple of PAGANI_GPU_TILE past it; one warp sums a
 * tile. The tiles' partial sums are items of the next level, tiled the
 * same way, until every integral has at most one: its total. The order
 * of every sum over an integral's regions therefore depends on its
 * regions alone, never on the other integrals of the list.
 */
#ifndef PAGANI_GPU_BATCH_LAYOUT_H
#define PAGANI_GPU_BATCH_LAYOUT_H

#ifdef __cplusplus
extern "C" {
#endif

#define PAGANI_GPU_TILE 256      /* items of a tile: 8 per lane of a warp */
#define PAGANI_GPU_MAX_LEVELS 4  /* 256^4 = 2^32 items: any list */

/* Row L (L = 0 .. levels) of offsets holds K + 1 ints: where integral k's
 * items of level L start (row 0: its regions; row L > 0: the tiles of
 * level L - 1), the last entry being their total. Fills rows 0 .. levels
 * of offsets (PAGANI_GPU_MAX_LEVELS + 1 rows of K + 1) from the regions
 * of each integral and returns levels: the passes of a sum, each reading
 * level L and writing level L + 1, the last of them leaving every integral
 * at most one item (levels >= 1). Returns -1 when the total exceeds
 * INT_MAX - 1 or a count is negative. */
int pagani_gpu_layout(const long long *counts, int integrals, int *offsets);

/* Tiles of `items` items (the next level's items of that integral). */
static inline long long pagani_gpu_tiles(long long items)
{
    return (items + PAGANI_GPU_TILE - 1) / PAGANI_GPU_TILE;
}

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_BATCH_LAYOUT_H */
