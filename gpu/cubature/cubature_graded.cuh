/*
 * cubature_graded.cuh - the graded evaluation of rules/graded.h on the
 * GPU: f under a region's grading, and the measurement of the grading,
 * for the graded instance of the evaluate kernel (cubature_evaluate.cuh)
 * and its vertex probes (cubature_probe.cuh). Not compiled into the
 * library: cuda_cubature.cu pastes this text in front of those kernels,
 * which NVRTC compiles per integrand.
 */
#ifndef PAGANI_N
#error "PAGANI_N (the dimension) must be defined"
#endif

#if !PAGANI_VECTOR && PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
/* f at x (left alone) moved by grading g of the region with lower corner
 * lo and widths h, times the Jacobian there (pagani_graded_point); a NaN
 * or infinite f counts as 0 and sets *bad. */
__device__ __forceinline__ double pagani_eval_graded(const double *x, const void *params,
                                                     const pagani_grading *g,
                                                     const double *lo, const double *h,
                                                     bool *bad)
{
    double xg[PAGANI_N];
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) xg[d] = x[d];
    const double jacobian = pagani_graded_point(g, PAGANI_N, lo, h, xg);
    double f = pagani_integrand_device(xg, params);
    if (!isfinite(f)) {
        *bad = true;
        f = 0.0;
    }
    return f * jacobian;
}

/* The grading toward `vertex` of a region with centre c and widths h,
 * measured by the calling warp (every lane, the same region) as the CPU's
 * grading_of does: lane 0 takes |f| at the vertex probe, lanes 1 + 2d and
 * 2 + 2d |f| PAGANI_GRADED_MID and PAGANI_GRADED_FAR widths from the
 * vertex's face along axis d alone; lane d < n fits axis d's power
 * (pagani_graded_power). Into the group's slot (in shared memory) the
 * powers and the vertex, or -1 there when no axis moves or f was not
 * finite at one of the points (the region is not graded); its bad flag
 * cleared. */
__device__ __forceinline__ void pagani_graded_measure(const double *c, const double *h,
                                                      int vertex, const void *params,
                                                      pagani_graded_slot *slot)
{
    pagani_grading *g = &slot->grading;
    const int lane = threadIdx.x & 31, axis = (lane - 1) / 2;
    const double inset = lane == 0 ? PAGANI_PROBE_INSET
                         : (lane & 1) ? PAGANI_GRADED_MID : PAGANI_GRADED_FAR;
    double at = 0.0;
    bool bad = false;
    if (lane <= 2 * PAGANI_N) {
        double x[PAGANI_N];
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++)
            x[d] = pagani_graded_coordinate(vertex, d, c[d], h[d],
                                            lane > 0 && d == axis ? inset : PAGANI_PROBE_INSET);
        at = pagani_integrand_device(x, params);
        if (!isfinite(at)) {
            bad = true;
            at = 0.0;
        }
        at = fabs(at);
    }
    const int d = lane < PAGANI_N ? lane : 0;
    const double measured[3] = {__shfl_sync(0xffffffffu, at, 0),
                                __shfl_sync(0xffffffffu, at, 1 + 2 * d),
                                __shfl_sync(0xffffffffu, at, 2 + 2 * d)};
    const double k = lane < PAGANI_N ? pagani_graded_power(measured) : 1.0;
    const bool moved = __any_sync(0xffffffffu, k != 1.0);
    const bool any_bad = __any_sync(0xffffffffu, bad);
    if (lane < PAGANI_N) g->power[lane] = k;
    if (lane == 0) {
        g->vertex = moved && !any_bad ? vertex : -1;
        slot->bad = 0;
    }
}
#endif
