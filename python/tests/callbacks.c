/* Compiled integrands for the tests: host functions with the C signature
 * of pagani_function / pagani_vector_function, and block functions
 * (pagani_block_function). */
#include <math.h>

/* prod_i x_i: the integral over [0,1]^n is 2^-n */
double product(const double *x, int n, const void *params)
{
    double v = 1.0;
    (void)params;
    for (int i = 0; i < n; i++) v *= x[i];
    return v;
}

/* exp(-a x_0): params holds a */
double decay(const double *x, int n, const void *params)
{
    (void)n;
    return exp(-((const double *)params)[0] * x[0]);
}

/* f = (1, x_0) */
void moments(const double *x, int n, const void *params, double *f)
{
    (void)n; (void)params;
    f[0] = 1.0;
    f[1] = x[0];
}

/* a block of sum_j x_j^2 for each point (the integral over [0,1]^n is
 * n/3); counts the points it was given in *data */
int block_square_sum(const double *x, int n, long long npoints,
                     const void *params, double *f, void *data)
{
    (void)params;
    for (long long i = 0; i < npoints; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += x[i * n + j] * x[i * n + j];
        f[i] = s;
    }
    *(long long *)data += npoints;
    return 0;
}

/* returns 42: stops the integration */
int block_abort(const double *x, int n, long long npoints,
                const void *params, double *f, void *data)
{
    (void)x; (void)n; (void)npoints; (void)params; (void)f; (void)data;
    return 42;
}
