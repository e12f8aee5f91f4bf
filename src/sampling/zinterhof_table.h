/*
 * zinterhof_table.h - the generators of the Zinterhof sequence: the fractional
 * parts of theta_i = e^(1/i), i = 1..PAGANI_ZINTERHOF_MAX_DIM, as 128-bit
 * fixed-point fractions (src/sampling/zinterhof_table.c, generated once by
 * src/sampling/gen_zinterhof_table.py with 80-digit decimal arithmetic).
 */
#ifndef PAGANI_ZINTERHOF_TABLE_H
#define PAGANI_ZINTERHOF_TABLE_H

#define PAGANI_ZINTERHOF_MAX_DIM 64

/* pagani_zinterhof_theta[i-1] = {high word, low word} of frac(e^(1/i)):
 * the fraction is (high * 2^64 + low) / 2^128, rounded to nearest. */
extern const unsigned long long
    pagani_zinterhof_theta[PAGANI_ZINTERHOF_MAX_DIM][2];

#endif /* PAGANI_ZINTERHOF_TABLE_H */
