/*
 * cubature_probe.cuh - the vertex probes of PAGANI on the GPU (rules/probe.h
 * says what they are for), run after the evaluate kernel on the regions
 * that this iteration could finish. Not compiled into the library:
 * cuda_cubature.cu pastes this text after cubature_evaluate.cuh, so NVRTC
 * compiles it per integrand with the integrand inlined.
 */

#if !PAGANI_VECTOR /* several components: cubature_evaluate_vector.cuh */
/*
 * One warp per region, eight regions per 256-thread block. The warp finds
 * the region's integral k (a warp search over offsets) and reads its V
 * and E; unless E <= probe_below or E <= probe_relative * |V|, k's pair
 * (probes[2k], probes[2k + 1]; with one integral and probes NULL, the
 * pair single_below, single_relative), it leaves at once. Otherwise lane
 * j takes probes j, j + 32, ... (2^n vertex probes, then 2n axial ones:
 * points npoints + p in the rule's numbering): at a vertex probe it keeps
 * the largest and smallest |f| and per axis the sum of +-|f| (+ on the
 * upper side); an axial probe's f, and f at the rule's axis points 0 ..
 * 4n evaluated again (the evaluate kernel's are gone), go to the warp's
 * row of shared memory. Butterfly shuffles combine the lanes (exact for
 * the maximum and minimum; for the sums the same order on every run),
 * and lane d < 2n runs the axial test of probe d. The error the probes
 * set -- against the rule's largest |f| and smallest over largest
 * (rule_max, rule_min_ratio, from the evaluate kernel;
 * pagani_probe_floor), and the axial floors -- replaces E when larger,
 * and lane 0 then sets the split axis to that of the largest axial floor
 * (the lowest on ties), or else to the one of the largest |sum|, as the
 * CPU backend does. A NaN or infinite f counts as 0 and is reported
 * through nonfinite[k] like the evaluate kernel's.
 */
extern "C" __global__ void __launch_bounds__(256)
pagani_cubature_probe(const double *__restrict__ lower,
                      const short *__restrict__ level,
                      const signed char *__restrict__ parent_axis,
                      long long stride, long long count,
                      const int *__restrict__ offsets, int integrals,
                      const double *__restrict__ initial,
                      const double *__restrict__ dense,
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
    __shared__ double axial_f[8][6 * PAGANI_N + 1]; /* a warp's axis values */
    const long long region = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    const int vertices = 1 << PAGANI_N, ne = shape.nexplicit;
    double *fa = axial_f[(threadIdx.x / 32) & 7];
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
    double c[PAGANI_N], h[PAGANI_N], across[PAGANI_N], volume = 1.0, probe_max = 0.0;
    double probe_min = PAGANI_PROBE_NO_MIN;
    bool reported = false;
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        double l = lower[d * stride + src], w;
        pagani_gpu_child_box(d, split, (int)(region & 1), w0[d], level[d * stride + src],
                             &l, &w);
        h[d] = w;
        c[d] = l + 0.5 * w;
        volume *= w;
        across[d] = 0.0;
    }
    for (int q = lane; q <= 4 * PAGANI_N; q += 32) {
        double xq[PAGANI_N], a;
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++) xq[d] = fma(__ldg(dense + d * ne + q), h[d], c[d]);
        a = pagani_integrand_device(xq, params_k);
        fa[q] = isfinite(a) ? a : 0.0; /* the evaluate kernel reported it */
    }
    for (int p = lane; p < shape.nprobes; p += 32) {
        double xq[PAGANI_N], a;
        if (p < vertices) {
#pragma unroll
            for (int d = 0; d < PAGANI_N; d++) xq[d] = pagani_probe_coordinate(p, d, c[d], h[d]);
        } else {
#pragma unroll
            for (int d = 0; d < PAGANI_N; d++)
                xq[d] = pagani_probe_axial_coordinate(p - vertices, d, c[d], h[d]);
        }
        a = pagani_integrand_device(xq, params_k);
        if (!isfinite(a)) {
            if (!reported) {
                reported = true;
                atomicMin(nonfinite + k, ((unsigned long long)region << 21) |
                                         (unsigned long long)(shape.npoints + p));
            }
            a = 0.0;
        }
        if (p >= vertices) {
            fa[4 * PAGANI_N + 1 + p - vertices] = a;
            continue;
        }
        a = fabs(a);
        probe_max = fmax(probe_max, a);
        probe_min = fmin(probe_min, a);
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++) across[d] += ((p >> d) & 1) ? a : -a;
    }
    __syncwarp();
    /* lane j < 2n: the axial test of probe j (a, b: points 1 and 1 + 2n) */
    const double axial = lane < 2 * PAGANI_N
        ? pagani_probe_axial_floor(volume, fa, PAGANI_N, lane / 2, lane & 1, __ldg(dense + 1),
                                   __ldg(dense + 1 + 2 * PAGANI_N), fa[4 * PAGANI_N + 1 + lane])
        : 0.0;
    const double axial_top = pagani_warp_max(axial);
    const int axial_first = __ffs(__ballot_sync(0xffffffffu, axial > 0.0 && axial == axial_top)) - 1;
    probe_max = pagani_warp_max(probe_max);
    probe_min = pagani_warp_min(probe_min);
    const double rmax = rule_max[region];
    const double floor = fmax(axial_top,
                              pagani_probe_floor(volume, probe_max, probe_min, rmax,
                                                 rmax * (double)rule_min_ratio[region]));
    if (!(floor > e)) return;
    int split_axis = 0;
    double best = -1.0;
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        double sum = across[d];
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
        if (fabs(sum) > best) {
            best = fabs(sum);
            split_axis = d;
        }
    }
    if (axial_first >= 0) split_axis = axial_first / 2;
    if (lane == 0) {
        error[region] = floor;
        axis[region] = (signed char)split_axis;
    }
#endif
}
#endif /* !PAGANI_VECTOR */
