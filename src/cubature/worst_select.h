/*
 * worst_select.h - private to the PAGANI driver: worst-first refinement's
 * choice of the regions it holds (cubature_worst.c), in one selection
 * over a copy of the kept regions' errors.
 */
#ifndef PAGANI_WORST_SELECT_H
#define PAGANI_WORST_SELECT_H

/* The limits of the held regions of one integral. */
typedef struct worst_limits {
    double allowed;      /* their errors add up to at most this */
    long long most;      /* at most this many of them */
    double floor;        /* every error at or below it is held, or none */
    double below;        /* every error at or above it splits */
} worst_limits;

/* Of the m kept errors e (reordered in place), the held set: the errors
 * at or below a t, the largest t for which they meet the limits l, and
 * never a part of a group of equal errors. Returns how many it holds and
 * sets *split_above to the largest held error (the errors above it
 * split); returns 0 (*split_above unset) when none is held, and when
 * the held set cannot take every error at or below l.floor. Expected
 * O(m): a weighted quickselect (Hoare's FIND with a running sum), one
 * partition of a shrinking stretch per step, pivot the median of three. */
long long cubature_worst_select(double *e, long long m, worst_limits l,
                                double *split_above);

#endif /* PAGANI_WORST_SELECT_H */
