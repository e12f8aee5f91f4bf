/*
 * qmc_kernel.cuh - PAGANI_QMC's kernels. Not compiled into the library:
 * gpu/qmc/cuda_qmc.c pastes this text, after the wrapped integrand
 * (pagani_source_wrap, PAGANI_TARGET_CUDA), src/sampling/zinterhof.h,
 * src/sampling/exact_sum.h, src/sampling/qmc_point.h and gpu/qmc/qmc_args.h
 * (their #include lines removed), into one translation unit that NVRTC
 * compiles per integrand with -DPAGANI_N=n: the integrand is inlined and the
 * loops over the axes have a compile-time trip count.
 *
 * The integrals of a batch: integral id's box is box[2 id n ..] (lower
 * corner, then widths, n doubles each) and its parameter block params +
 * id * a.params_stride bytes.
 */
#ifndef PAGANI_N
#error "PAGANI_N (the dimension) must be defined"
#endif

#define PAGANI_QMC_TILE PAGANI_QMC_TILE_POINTS(PAGANI_N)

/*
 * The exact sums of f(x) * w for a block or a leap of indices, every shift
 * and every running integral, each point made once for all the integrals
 * of a block. blockIdx.y is the shift (first_shift + blockIdx.y); block x
 * takes the consecutive points j = blockIdx.x * per_block ... (j < count)
 * of that shift, index k = first + j * leap, in tiles of PAGANI_QMC_TILE;
 * blockIdx.z takes the running integrals m = base .. base + group - 1,
 * base = blockIdx.z * group, base + gridDim.z * group, ... (< a.live;
 * integral ids[m]).
 *
 * Per tile, thread t makes point t in the unit cube (its fixed-point
 * states by multiplication once, then by adding tile * leap * theta: the
 * same bits) into shared memory with its Jacobian; then thread t, the
 * integral m = base + t % group and the lane t / group of 128 / group,
 * maps the tile's points lane, lane + 128 / group, ... to its integral's
 * box and adds the values to its own exact accumulator (exact_sum.h). The
 * accumulators are then normalised, summed over the lanes of one integral
 * in a warp by integer shuffles and into acc[m][shift][bin] by 64-bit
 * integer atomics: integer additions, so the result is the same bits for
 * any launch shape and any other integrals (no floating-point atomics). A
 * value that is not finite is left out and its k goes to fault[m][shift]
 * (atomicMin: the smallest is kept).
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_sums(const pagani_qmc_args a, const void *params,
                const double *box, const int *ids, unsigned long long *acc,
                unsigned long long *fault)
{
    __shared__ double unit[PAGANI_N * PAGANI_QMC_TILE]; /* [axis][point] */
    __shared__ double jac[PAGANI_QMC_TILE];
    const int group = a.group, lanes = PAGANI_QMC_THREADS / group;
    const int g = (int)threadIdx.x % group, lane = (int)threadIdx.x / group;
    const unsigned shift = (unsigned)a.first_shift + blockIdx.y;
    const unsigned long long j_begin =
        (unsigned long long)blockIdx.x * a.per_block;
    const unsigned long long j_end =
        a.count - j_begin < a.per_block ? a.count : j_begin + a.per_block;
    const unsigned long long k_first =
        a.first + (j_begin + threadIdx.x) * a.leap;

#pragma unroll 1
    for (int base = blockIdx.z * group; base < a.live;
         base += gridDim.z * group) {
        const int m = base + g, id = m < a.live ? ids[m] : -1;
        const size_t slot = (size_t)m * gridDim.y + blockIdx.y;
        const void *p = (const char *)params +
                        (size_t)(id < 0 ? 0 : id) * a.params_stride;
        const double *lower = box + (size_t)(id < 0 ? 0 : id) * 2 * PAGANI_N;
        const double *width = lower + PAGANI_N;
        pagani_u128 state[PAGANI_N];
        pagani_xsum s;

        pagani_xsum_zero(&s);
#pragma unroll
        for (int i = 0; i < PAGANI_N; i++)
            state[i] = pagani_qmc_state(a.seed, shift, (unsigned)i, k_first,
                                        a.theta[i]);
#pragma unroll 1
        for (unsigned long long t0 = j_begin; t0 < j_end;
             t0 += PAGANI_QMC_TILE) {
            const int points = j_end - t0 < PAGANI_QMC_TILE ? (int)(j_end - t0)
                                                            : PAGANI_QMC_TILE;
            if ((int)threadIdx.x < points) {
                double w = 1.0;
#pragma unroll
                for (int i = 0; i < PAGANI_N; i++) {
                    pagani_u128 step;
                    step.hi = a.tile_step[i][0];
                    step.lo = a.tile_step[i][1];
                    unit[i * PAGANI_QMC_TILE + threadIdx.x] =
                        pagani_qmc_unit(state[i], a.transform, &w);
                    state[i] = pagani_u128_add(state[i], step);
                }
                jac[threadIdx.x] = w;
            }
            __syncthreads();
            for (int q = lane; id >= 0 && q < points; q += lanes) {
                double x[PAGANI_N], v;
#pragma unroll
                for (int i = 0; i < PAGANI_N; i++)
                    x[i] = pagani_qmc_map(unit[i * PAGANI_QMC_TILE + q],
                                          __ldg(&lower[i]), __ldg(&width[i]));
                v = __dmul_rn(pagani_integrand_device(x, p), jac[q]);
                if (!isfinite(v)) {
                    atomicMin(&fault[slot], a.first + (t0 + q) * a.leap);
                    continue;
                }
                pagani_xsum_add(&s, v);
            }
            __syncthreads();   /* the tile is remade */
        }

        /* digits in [0, 2^32) (top bin signed): a warp sums < 2^37 per bin */
        pagani_xsum_normalize(&s);
#pragma unroll 1
        for (int b = 0; b < PAGANI_XSUM_BINS; b++) {
            long long v = s.bin[b];
            if (!__any_sync(0xffffffffu, v != 0)) continue;
            for (int off = 16; off >= group; off >>= 1)
                v += __shfl_down_sync(0xffffffffu, v, off);
            if ((int)(threadIdx.x & 31) < group && id >= 0 && v != 0)
                atomicAdd(&acc[slot * PAGANI_XSUM_BINS + b],
                          (unsigned long long)v);
        }
    }
}

/*
 * The points of one shift (a.first_shift) in integral a.integral's box,
 * for tests and fault reports: one thread per point j < count writes
 * x[j * n + i] and, when f is not NULL, the integrand's raw value f[j]
 * with that integral's parameter block.
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_points(const pagani_qmc_args a, const void *params,
                  const double *box, double *x, double *f)
{
    const unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long k = a.first + j * a.leap;
    const double *lower = box + (size_t)a.integral * 2 * PAGANI_N;
    const double *width = lower + PAGANI_N;
    const void *p = (const char *)params + (size_t)a.integral * a.params_stride;
    double xs[PAGANI_N], w = 1.0;

    if (j >= a.count) return;
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++) {
        pagani_u128 s = pagani_qmc_state(a.seed, (unsigned)a.first_shift,
                                         (unsigned)i, k, a.theta[i]);
        xs[i] = pagani_qmc_coord(s, a.transform, lower[i], width[i], &w);
        x[j * PAGANI_N + i] = xs[i];
    }
    if (f) f[j] = pagani_integrand_device(xs, p);
}
