/*
 * qmc_kernel.cuh - PAGANI_QMC's kernels. Not compiled into the library:
 * gpu/qmc/cuda_qmc.c pastes this text, after the wrapped integrand
 * (pagani_source_wrap, PAGANI_TARGET_CUDA), src/sampling/zinterhof.h,
 * src/sampling/exact_sum.h, src/sampling/qmc_point.h and gpu/qmc/qmc_args.h
 * (their #include lines removed), into one translation unit that NVRTC
 * compiles per integrand with -DPAGANI_N=n: the integrand is inlined and the
 * loops over the axes have a compile-time trip count.
 */
#ifndef PAGANI_N
#error "PAGANI_N (the dimension) must be defined"
#endif

#define PAGANI_QMC_THREADS 128

/*
 * The exact sums of f(x) * w for a block or a leap of indices, every shift.
 * blockIdx.y is the shift (first_shift + blockIdx.y); thread t of the
 * x-grid takes the consecutive points j = t * per_thread ... (t + 1) *
 * per_thread - 1 (j < count) of that shift, index k = first + j * leap: it
 * computes its first point's fixed-point states by multiplication and the
 * rest by adding leap * theta (the same bits), and adds each value to its
 * own exact accumulator (exact_sum.h). The accumulators are then
 * normalised, summed over the warp by integer shuffles, over the block in
 * shared memory and over the grid into acc[shift][bin] by 64-bit integer
 * atomics: integer additions, so the result is the same bits for any launch
 * shape (no floating-point atomics). A value that is not finite is left out
 * and its k goes to fault[shift] (atomicMin: the smallest is kept).
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_sums(const pagani_qmc_args a, const void *params,
                unsigned long long *acc, unsigned long long *fault)
{
    __shared__ unsigned long long block_acc[PAGANI_XSUM_BINS];
    const unsigned shift = (unsigned)a.first_shift + blockIdx.y;
    const unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long j0 = t * a.per_thread;
    pagani_xsum s;

    pagani_xsum_zero(&s);
    for (int b = threadIdx.x; b < PAGANI_XSUM_BINS; b += blockDim.x) block_acc[b] = 0;
    __syncthreads();

    if (j0 < a.count) {
        const unsigned long long j1 =
            a.count - j0 < a.per_thread ? a.count : j0 + a.per_thread;
        unsigned long long k = a.first + j0 * a.leap;
        pagani_u128 state[PAGANI_N];
#pragma unroll
        for (int i = 0; i < PAGANI_N; i++)
            state[i] = pagani_qmc_state(a.seed, shift, (unsigned)i, k, a.theta[i]);
        for (unsigned long long j = j0; j < j1; j++, k += a.leap) {
            double x[PAGANI_N], w = 1.0, v;
#pragma unroll
            for (int i = 0; i < PAGANI_N; i++) {
                pagani_u128 step;
                step.hi = a.step[i][0];
                step.lo = a.step[i][1];
                x[i] = pagani_qmc_coord(state[i], a.transform, a.lower[i], a.width[i], &w);
                state[i] = pagani_u128_add(state[i], step);
            }
            v = __dmul_rn(pagani_integrand_device(x, params), w);
            if (!isfinite(v)) {
                atomicMin(&fault[blockIdx.y], k);
                continue;
            }
            pagani_xsum_add(&s, v);
        }
    }

    /* digits in [0, 2^32) (top bin signed): a block sums < 2^42 per bin */
    pagani_xsum_normalize(&s);
#pragma unroll 1
    for (int b = 0; b < PAGANI_XSUM_BINS; b++) {
        long long v = s.bin[b];
        if (!__any_sync(0xffffffffu, v != 0)) continue;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
        if ((threadIdx.x & 31) == 0 && v != 0)
            atomicAdd(&block_acc[b], (unsigned long long)v);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < PAGANI_XSUM_BINS; b += blockDim.x)
        if (block_acc[b] != 0)
            atomicAdd(&acc[(size_t)blockIdx.y * PAGANI_XSUM_BINS + b], block_acc[b]);
}

/*
 * The points of one shift (a.first_shift), for tests and fault reports:
 * one thread per point j < count writes x[j * n + i] and, when f is not
 * NULL, the integrand's raw value f[j].
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_points(const pagani_qmc_args a, const void *params, double *x,
                  double *f)
{
    const unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long k = a.first + j * a.leap;
    double xs[PAGANI_N], w = 1.0;

    if (j >= a.count) return;
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++) {
        pagani_u128 s = pagani_qmc_state(a.seed, (unsigned)a.first_shift,
                                         (unsigned)i, k, a.theta[i]);
        xs[i] = pagani_qmc_coord(s, a.transform, a.lower[i], a.width[i], &w);
        x[j * PAGANI_N + i] = xs[i];
    }
    if (f) f[j] = pagani_integrand_device(xs, params);
}
