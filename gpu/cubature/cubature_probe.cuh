/*
 * cubature_probe.cuh - the vertex probes of PAGANI on the GPU (rules/probe.h
 * says what they are for), run by the evaluate kernel
 * (cubature_evaluate.cuh) on the regions that this iteration could
 * finish, with the region's box and its rule's range of |f| still in
 * registers. Not compiled into the library: cuda_cubature.cu pastes this
 * text in front of cubature_evaluate.cuh, so NVRTC compiles it per
 * integrand with the integrand inlined.
 */
#ifndef PAGANI_N
#error "PAGANI_N (the dimension) must be defined"
#endif

#if !PAGANI_VECTOR && PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
#define PAGANI_PROBE_PER_LANE (((1 << PAGANI_N) + 31) / 32)
/*
 * The 2^n vertex probes of a region (centre c, widths h, volume), taken
 * by the calling warp (every lane calls, with the same region): lane j
 * takes probes j, j + 32, ... (points npoints + v in the rule's
 * numbering), keeping the largest and smallest |f| and per axis the sum
 * of +-|f| (+ on the upper side). A probe's sides of axes 0..4 are its
 * lane's, so the lane keeps one sum of |f| for them and one signed sum
 * per higher axis, and computes only the higher coordinates per probe;
 * butterfly shuffles combine the lanes (exact for the maximum and
 * minimum; for the sums the same order on every run). When the error the
 * probes set against the rule's largest and smallest |f| (rule_max,
 * rule_min; pagani_probe_floor) exceeds *error, every lane gets it in
 * *error and the axis of the largest |sum| in *split_axis, as on the CPU
 * backend, and returns true. A NaN or infinite f counts as 0 and its
 * (region, point) goes to *nonfinite (atomicMin, as the rule's points do).
 * Where *top >= 0 (a vertex is wanted: the plain pass found f steep at
 * a face) and E was raised before (raised_before) or the probes raise it,
 * *top gets the probe of the largest |f| (the first on ties, as on the
 * CPU: the vertex a graded evaluation grades toward, rules/graded.h),
 * else it is left alone.
 * GRADED (the graded pass): f under grading g of the region with lower
 * corner lo (pagani_eval_graded), a NaN or infinite f setting *bad
 * instead of the report.
 */
template <bool GRADED>
__device__ __forceinline__ bool pagani_vertex_probes(const double *c, const double *h,
                                                     double volume, const void *params,
                                                     double rule_max, double rule_min,
                                                     long long region, int npoints,
                                                     unsigned long long *nonfinite,
                                                     const pagani_grading *g,
                                                     const double *lo, bool *bad,
                                                     bool raised_before, int *top,
                                                     double *error, int *split_axis)
{
    const int lane = threadIdx.x & 31;
    double xq[PAGANI_N], probe_max = 0.0, probe_min = PAGANI_PROBE_NO_MIN, lane_sum = 0.0;
    double high_sum[PAGANI_N > PAGANI_LANE_BITS ? PAGANI_N - PAGANI_LANE_BITS : 1];
    int lane_vertex = lane; /* the lane's first probe of its largest |f| */
    bool reported = false;
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        /* axes below PAGANI_LANE_BITS: the lane's side for all its probes */
        xq[d] = pagani_probe_coordinate(lane, d, c[d], h[d]);
        if (d >= PAGANI_LANE_BITS) high_sum[d - PAGANI_LANE_BITS] = 0.0;
    }
    /* Probe v = lane + 32 i: the higher axes follow the bits of i
     * (compile-time constants where the loop is unrolled). */
#pragma unroll 8
    for (int i = 0; i < PAGANI_PROBE_PER_LANE; i++) {
        const int v = lane + 32 * i;
        double a;
        if (v >= 1 << PAGANI_N) break;
#pragma unroll
        for (int d = PAGANI_LANE_BITS; d < PAGANI_N; d++)
            xq[d] = pagani_probe_coordinate(v, d, c[d], h[d]);
        if (GRADED) {
            a = pagani_eval_graded(xq, params, g, lo, h, bad);
        } else {
            a = pagani_integrand_device(xq, params);
            if (!isfinite(a)) {
                if (!reported) {
                    reported = true;
                    atomicMin(nonfinite, ((unsigned long long)region << 21) |
                                             (unsigned long long)(npoints + v));
                }
                a = 0.0;
            }
        }
        a = fabs(a);
        if (a > probe_max) lane_vertex = v;
        pagani_range_add(a, probe_max, probe_min);
        lane_sum += a;
#pragma unroll
        for (int d = PAGANI_LANE_BITS; d < PAGANI_N; d++)
            high_sum[d - PAGANI_LANE_BITS] += ((v >> d) & 1) ? a : -a;
    }
    const double lane_max = probe_max;
    probe_max = pagani_warp_max(probe_max);
    probe_min = pagani_warp_min(probe_min);
    const double floor = pagani_probe_floor(volume, probe_max, probe_min, rule_max, rule_min);
    if (*top >= 0 && (raised_before || floor > *error))
        *top = pagani_warp_argmax(lane_max, lane_vertex);
    if (!(floor > *error)) return false;
    double best = -1.0;
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        /* sum over the lane's probes of +-|f|, + on the upper side of d */
        double sum = d < PAGANI_LANE_BITS ? (((lane >> d) & 1) ? lane_sum : -lane_sum)
                                          : high_sum[d - PAGANI_LANE_BITS];
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
        if (fabs(sum) > best) {
            best = fabs(sum);
            *split_axis = d;
        }
    }
    *error = floor;
    return true;
}
#endif
