/*
 * vegas_grid.h - the importance grid of PAGANI_VEGAS (vegas_grid.c): made
 * uniform by the backends when a run starts, adjusted by the driver after
 * each adjusting iteration.
 */
#ifndef PAGANI_VEGAS_GRID_H
#define PAGANI_VEGAS_GRID_H

/* The grid adjustment. grid: rows of nb + 1 edges from 0 to 1; bins: rows
 * of nb contributions. Each row is smoothed, damped by alpha and rebinned
 * so that every new bin holds an equal share; rows with no contribution
 * are kept. work: 2 * nb + 1 doubles. */
void pagani_vegas_grid_adjust(double *grid, const double *bins, int rows,
                              int nb, double alpha, double *work);
/* Fills rows of uniform edges. */
void pagani_vegas_grid_uniform(double *grid, int rows, int nb);

#endif /* PAGANI_VEGAS_GRID_H */
