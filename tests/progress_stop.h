/*
 * progress_stop.h - a progress callback for the tests of every method: it
 * keeps the last estimate and error it was given, counts its calls and
 * asks to stop once the iteration reaches stop_at.
 */
#ifndef PAGANI_TESTS_PROGRESS_STOP_H
#define PAGANI_TESTS_PROGRESS_STOP_H

typedef struct progress_stop {
    int stop_at, calls;
    double value, error;
} progress_stop;

static inline int progress_stop_at(int iteration, long long size, double value,
                                   double error, void *data)
{
    progress_stop *s = (progress_stop *)data;
    (void)size;
    s->calls++;
    s->value = value;
    s->error = error;
    return iteration >= s->stop_at;
}

#endif
