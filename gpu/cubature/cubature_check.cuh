/*
 * cubature_check.cuh - the randomized check (rules/random_check.h) on the
 * GPU: a kernel of its own, run after the evaluate kernel on the regions
 * whose error's sign it left unknown, so that the evaluate kernel's
 * registers stay the rule's. Not compiled into the library:
 * cuda_cubature.cu pastes this text after cubature_evaluate.cuh, and
 * NVRTC compiles it per integrand (scalar integrands only).
 */
#if !PAGANI_VECTOR

/* A half-warp per region: the check's points are its lanes. */
#define PAGANI_CHECK_LANES 16
#if PAGANI_CHECK_POINTS != PAGANI_CHECK_LANES
#error "the check kernel takes a check point a lane of a half-warp"
#endif
/* The axes a lane derives: d = lane, lane + 16 (n <= 20). */
#define PAGANI_CHECK_AXES ((PAGANI_N + PAGANI_CHECK_LANES - 1) / PAGANI_CHECK_LANES)

/* Sum, product and exclusive or over the calling lane's half-warp, the
 * same in each of its lanes: butterflies of fixed order (the same bits on
 * every run). */
__device__ __forceinline__ double pagani_half_warp_sum(double v)
{
#pragma unroll
    for (int off = PAGANI_CHECK_LANES / 2; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ double pagani_half_warp_product(double v)
{
#pragma unroll
    for (int off = PAGANI_CHECK_LANES / 2; off > 0; off >>= 1)
        v *= __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ pagani_u64 pagani_half_warp_xor(pagani_u64 v)
{
#pragma unroll
    for (int off = PAGANI_CHECK_LANES / 2; off > 0; off >>= 1)
        v ^= __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

/*
 * The check of the regions of the list whose sign byte is 0 (unknown,
 * unchecked) and whose two-level E (with the sibling's raw error and the
 * change over the parent's value, parent[region / 2], when the list
 * holds split regions' children: shape.implicit) exceeds their
 * integral's check_above[k] (with one integral and check_above NULL,
 * single_check_above): the others carry negligible error. Half-warp h of the grid takes regions h,
 * h + halves, ... (a grid-stride loop: the launch is sized to the GPU,
 * not the list). Lane d of the half derives axes d and d + 16 (below n)
 * of the region's box from the list as the evaluate kernel does (parents and split axes
 * when shape.implicit) and its share of the Philox key; butterflies give
 * the half the key and the volume, and shuffles every lane the box. Lane
 * j then takes check point j: f there (a NaN or infinity counts as 0, and
 * its (region, point) goes to nonfinite[k] by atomicMin, as the rule's
 * points do) sums over the half to the mean, then the squared deviations
 * from it to their sum; lane 0 of the half writes V - M and its variance
 * and marks the sign byte PAGANI_SIGN_CHECKED. Both halves of a warp run
 * every pass of the loop (the shuffles need all 32 lanes); a half whose
 * region is not to be checked, or past the end, adds zeros and writes
 * nothing.
 */
extern "C" __global__ void __launch_bounds__(256)
pagani_cubature_check(const double *__restrict__ lower, const short *__restrict__ level,
                      const signed char *__restrict__ parent_axis, long long stride,
                      long long count, const int *__restrict__ offsets, int integrals,
                      const double *__restrict__ initial, pagani_eval_shape shape,
                      const char *params, unsigned long long params_stride,
                      const double *__restrict__ value, const double *__restrict__ error,
                      const double *__restrict__ parent, unsigned char *__restrict__ error_sign,
                      const double *__restrict__ check_above, double single_check_above,
                      double *__restrict__ check_diff, double *__restrict__ check_var,
                      unsigned long long *nonfinite)
{
    const int j = threadIdx.x % PAGANI_CHECK_LANES;
    const long long halves = (long long)gridDim.x * blockDim.x / PAGANI_CHECK_LANES;
    const long long first = ((long long)blockIdx.x * blockDim.x + threadIdx.x) /
                            PAGANI_CHECK_LANES;
    /* every lane of a warp runs the same passes */
    const long long warp_first = first & ~1LL;

    for (long long base = warp_first; base < count; base += halves) {
        const long long region = base + (first & 1);
        const int k = region < count ? pagani_gpu_integral_of(offsets, integrals, region) : 0;
        bool mine = region < count && error_sign[region] == 0;
        if (mine) {
            double e = error[region];
            if (shape.implicit)
                e = pagani_two_level_error(e, error[region ^ 1],
                                           value[region & ~1LL] + value[region | 1] -
                                               parent[region >> 1]);
            mine = e > (check_above ? check_above[k] : single_check_above);
        }
        double c[PAGANI_CHECK_AXES], h[PAGANI_CHECK_AXES], fj = 0.0, mean, volume = 1.0;
        pagani_u64 share = 0;
        if (!__any_sync(0xffffffffu, mine)) continue;
#pragma unroll
        for (int a = 0; a < PAGANI_CHECK_AXES; a++) {
            const int d = j + PAGANI_CHECK_LANES * a;
            c[a] = 0.0;
            h[a] = 1.0;
            if (mine && d < PAGANI_N) {
                const long long src = shape.implicit ? region >> 1 : region;
                double l = lower[d * stride + src];
                pagani_gpu_child_box(d, shape.implicit ? parent_axis[src] : -1,
                                     (int)(region & 1), initial[k * PAGANI_N + d],
                                     level[d * stride + src], &l, &h[a]);
                c[a] = l + 0.5 * h[a];
                share ^= pagani_check_axis_hash(d, c[a], h[a]);
                volume *= h[a];
            }
        }
        volume = pagani_half_warp_product(volume);
        const pagani_u64 key = pagani_check_mix(pagani_half_warp_xor(share));
        double box[2 * PAGANI_N], xq[PAGANI_N];
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++) {
            box[d] = __shfl_sync(0xffffffffu, c[d / PAGANI_CHECK_LANES], d % PAGANI_CHECK_LANES,
                                 PAGANI_CHECK_LANES);
            box[PAGANI_N + d] = __shfl_sync(0xffffffffu, h[d / PAGANI_CHECK_LANES],
                                            d % PAGANI_CHECK_LANES, PAGANI_CHECK_LANES);
        }
        if (mine) {
#pragma unroll
            for (int d = 0; d < PAGANI_N; d += 2)
                pagani_check_pair(key, j, d, PAGANI_N, box, box + PAGANI_N, xq);
            fj = pagani_integrand_device(xq, params + k * params_stride);
            if (!isfinite(fj)) {
                atomicMin(nonfinite + k, ((unsigned long long)region << 21) |
                                             (unsigned long long)(shape.npoints +
                                                                  shape.nprobes + j));
                fj = 0.0;
            }
        }
        mean = pagani_half_warp_sum(fj) / PAGANI_CHECK_POINTS;
        fj = mine ? (fj - mean) * (fj - mean) : 0.0;
        fj = pagani_half_warp_sum(fj);
        if (mine && j == 0) {
            double diff, var;
            pagani_check_result(volume, value[region], mean, fj, &diff, &var);
            check_diff[region] = diff;
            check_var[region] = var;
            error_sign[region] = PAGANI_SIGN_CHECKED;
        }
    }
}

#endif /* !PAGANI_VECTOR */
