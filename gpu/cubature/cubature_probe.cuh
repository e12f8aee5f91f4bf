/*
 * cubature_probe.cuh - the vertex probes of PAGANI on the GPU (rules/probe.h
 * says what they are for), run after the evaluate kernel on the regions
 * that this iteration could finish. Not compiled into the library:
 * cuda_cubature.cu pastes this text after cubature_evaluate.cuh, so NVRTC
 * compiles it per integrand with the integrand inlined.
 */

#if !PAGANI_VECTOR /* several components: cubature_evaluate_vector.cuh */
#define PAGANI_PROBE_PER_LANE (((1 << PAGANI_N) + 31) / 32)
/*
 * One warp per region, eight regions per 256-thread block. The warp finds
 * the region's integral k (a warp search over offsets) and reads its V
 * and E; unless E <= probe_below or E <= probe_relative * |V|, k's pair
 * (probes[2k], probes[2k + 1]; with one integral and probes NULL, the
 * pair single_below, single_relative), it leaves at once. Otherwise lane
 * j takes vertex probes j, j + 32, ... (2^n of them, points npoints + v
 * in the rule's numbering; the evaluate kernel ran the axial ones),
 * keeping the largest and smallest |f| and per axis the sum of +-|f| (+
 * on the upper side): a probe's sides of axes 0..4 are its lane's, so
 * the lane keeps one sum of |f| for them and one signed sum per higher
 * axis, and computes only the higher coordinates per probe; butterfly
 * shuffles combine the lanes
 * (exact for the maximum and minimum; for the sums the same order on
 * every run). When the error the probes set against the rule's largest
 * |f| and smallest over largest (rule_max, rule_min_ratio, from the
 * evaluate kernel; pagani_probe_floor) exceeds E, lane 0 raises E to it
 * and sets the split axis to the one of the largest |sum|, as the CPU
 * backend does. A NaN or infinite f counts as 0 and is reported
 * through nonfinite[k] like the evaluate kernel's.
 */
extern "C" __global__ void __launch_bounds__(256)
pagani_cubature_probe(const double *__restrict__ lower,
                      const short *__restrict__ level,
                      const signed char *__restrict__ parent_axis,
                      long long stride, long long count,
                      const int *__restrict__ offsets, int integrals,
                      const double *__restrict__ initial,
                      pagani_eval_shape shape,
                      const double *__restrict__ probes, double single_below,
                      double single_relative, const char *params,
                      unsigned long long params_stride,
                      const double *__restrict__ value,
                      const double *__restrict__ rule_max,
                      const float *__restrict__ rule_min_ratio,
                      double *__restrict__ error,
                      signed char *__restrict__ axis,
                      unsigned long long *nonfinite)
{
#if PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
    const long long region = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (region >= count) return;
    const int k = pagani_gpu_warp_integral_of(offsets, integrals, region);
    const double v = value[region], e = error[region];
    const double below = probes ? probes[2 * k] : single_below;
    const double relative = probes ? probes[2 * k + 1] : single_relative;
    if (!(e <= below || e <= relative * fabs(v))) return;
    const double *w0 = initial + k * PAGANI_N;
    const void *params_k = params + k * params_stride;

    const long long src = shape.implicit ? region >> 1 : region;
    const int split = shape.implicit ? parent_axis[src] : -1;
    double c[PAGANI_N], h[PAGANI_N], xq[PAGANI_N], volume = 1.0, probe_max = 0.0;
    double probe_min = PAGANI_PROBE_NO_MIN, lane_sum = 0.0;
    double high_sum[PAGANI_N > PAGANI_LANE_BITS ? PAGANI_N - PAGANI_LANE_BITS : 1];
    bool reported = false;
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        double l = lower[d * stride + src], w;
        pagani_gpu_child_box(d, split, (int)(region & 1), w0[d], level[d * stride + src],
                             &l, &w);
        h[d] = w;
        c[d] = l + 0.5 * w;
        volume *= w;
        /* axes below PAGANI_LANE_BITS: the lane's side for all its probes */
        xq[d] = pagani_probe_coordinate(lane, d, c[d], h[d]);
        if (d >= PAGANI_LANE_BITS) high_sum[d - PAGANI_LANE_BITS] = 0.0;
    }
    /* Probe p = lane + 32 i: its bits below 5 are the lane's, so are its
     * sides of those axes; the higher axes follow the bits of i (compile-
     * time constants where the loop is unrolled). */
#pragma unroll 8
    for (int i = 0; i < PAGANI_PROBE_PER_LANE; i++) {
        const int p = lane + 32 * i;
        double a;
        if (p >= 1 << PAGANI_N) break;
#pragma unroll
        for (int d = PAGANI_LANE_BITS; d < PAGANI_N; d++)
            xq[d] = pagani_probe_coordinate(p, d, c[d], h[d]);
        a = pagani_integrand_device(xq, params_k);
        if (!isfinite(a)) {
            if (!reported) {
                reported = true;
                atomicMin(nonfinite + k, ((unsigned long long)region << 21) |
                                         (unsigned long long)(shape.npoints + p));
            }
            a = 0.0;
        }
        a = fabs(a);
        probe_max = fmax(probe_max, a);
        probe_min = fmin(probe_min, a);
        lane_sum += a;
#pragma unroll
        for (int d = PAGANI_LANE_BITS; d < PAGANI_N; d++)
            high_sum[d - PAGANI_LANE_BITS] += ((p >> d) & 1) ? a : -a;
    }
    probe_max = pagani_warp_max(probe_max);
    probe_min = pagani_warp_min(probe_min);
    const double rmax = rule_max[region];
    const double floor = pagani_probe_floor(volume, probe_max, probe_min, rmax,
                                            rmax * (double)rule_min_ratio[region]);
    if (!(floor > e)) return;
    int split_axis = 0;
    double best = -1.0;
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        /* sum over the lane's probes of +-|f|, + on the upper side of d */
        double sum = d < PAGANI_LANE_BITS ? (((lane >> d) & 1) ? lane_sum : -lane_sum)
                                                : high_sum[d - PAGANI_LANE_BITS];
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
        if (fabs(sum) > best) {
            best = fabs(sum);
            split_axis = d;
        }
    }
    if (lane == 0) {
        error[region] = floor;
        axis[region] = (signed char)split_axis;
    }
#endif
}
#endif /* !PAGANI_VECTOR */
