/*
 * vector_eval.cuh - how the NVRTC kernel texts of QMC and cubature call a
 * vector integrand (PAGANI_NCOMP defined by pagani_source_wrap): pasted
 * after the wrapped integrand and before a method's kernels (gpu/qmc and
 * gpu/cubature local.mk). Nothing here for a scalar integrand.
 *
 * PAGANI_VECTOR is 1 for an integrand of several components, whose
 * kernels keep sums per component. A vector integrand of one component is
 * run by the scalar kernels: pagani_integrand_device is its component 0.
 */
#if defined(PAGANI_NCOMP) && PAGANI_NCOMP > 1
#define PAGANI_VECTOR 1
#else
#define PAGANI_VECTOR 0
#endif

#ifdef PAGANI_NCOMP

/* The integrand's PAGANI_NCOMP components at x into f[], each first set
 * to NaN, so that a component the source leaves unset reads as not
 * finite (as on the CPU, pagani_integrand_eval). */
__device__ __forceinline__ void pagani_vector_eval(const double *x,
                                                   const void *params,
                                                   double *f)
{
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++)
        f[c] = __longlong_as_double(0x7ff8000000000000LL);
    pagani_integrand_device_vector(x, params, f);
}

#if PAGANI_NCOMP == 1
/* The one component, for the scalar kernels. */
__device__ __forceinline__ double pagani_integrand_device(const double *x,
                                                          const void *params)
{
    double f;
    pagani_vector_eval(x, params, &f);
    return f;
}
#endif

#endif /* PAGANI_NCOMP */
