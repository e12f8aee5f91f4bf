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

/* Thread threadIdx.x's point of a tile in the unit cube: its coordinates
 * into unit[i * PAGANI_QMC_TILE + threadIdx.x] and its Jacobian into
 * jac[threadIdx.x]; state[] steps on to the thread's point of the next
 * tile. */
__device__ __forceinline__ void pagani_qmc_tile_point(const pagani_qmc_args &a,
                                                      pagani_u128 *state,
                                                      double *unit, double *jac)
{
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

/* Point q of a tile mapped to the box (lower, width) into x. */
__device__ __forceinline__ void pagani_qmc_tile_x(const double *unit, int q,
                                                  const double *lower,
                                                  const double *width,
                                                  double *x)
{
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++)
        x[i] = pagani_qmc_map(unit[i * PAGANI_QMC_TILE + q], __ldg(&lower[i]),
                              __ldg(&width[i]));
}

#if PAGANI_VECTOR
/* Adds a finite double v exactly to the accumulator bins[0 ..
 * PAGANI_XSUM_BINS) in shared memory, by 64-bit integer atomics (the
 * pieces of pagani_xsum_add). */
__device__ __forceinline__ void pagani_qmc_shared_add(unsigned long long *bins,
                                                      double v)
{
    long long d[3];
    const int j = pagani_xsum_pieces(v, d);
#pragma unroll
    for (int i = 0; i < 3; i++)
        if (d[i]) atomicAdd(&bins[j + i], (unsigned long long)d[i]);
}

/* A vector integrand's values at x times the Jacobian w, added to the
 * group's accumulators sums[c * PAGANI_XSUM_BINS ..]; when one is not
 * finite, none is added and false returned. */
__device__ __forceinline__ bool pagani_qmc_vector_add(const double *x,
                                                      const void *p, double w,
                                                      unsigned long long *sums)
{
    double f[PAGANI_NCOMP];
    bool finite = true;
    pagani_vector_eval(x, p, f);
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++) {
        f[c] = __dmul_rn(f[c], w);
        finite = finite && isfinite(f[c]);
    }
    if (!finite) return false;
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++)
        pagani_qmc_shared_add(sums + c * PAGANI_XSUM_BINS, f[c]);
    return true;
}
#endif

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
 *
 * A vector integrand (PAGANI_VECTOR: PAGANI_NCOMP > 1 components; the host
 * keeps group * PAGANI_NCOMP <= 64): the same mapping of points to
 * threads, but the block's accumulators, one per integral of the group
 * and component, are in dynamic shared memory (group * PAGANI_NCOMP * 544 bytes), and each
 * thread adds its point's components to them by 64-bit integer atomics (a
 * block adds at most 2^19 points an integral, below 2^51 a bin); at the
 * end thread s < group * PAGANI_NCOMP normalises accumulator s and adds
 * it to acc[(m * PAGANI_NCOMP + c) * shifts + shift][bin]. A point where
 * some component is not finite is left out of every component's sums.
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_sums(const pagani_qmc_args a, const void *params,
                const double *box, const int *ids, unsigned long long *acc,
                unsigned long long *fault)
{
    __shared__ double unit[PAGANI_N * PAGANI_QMC_TILE]; /* [axis][point] */
    __shared__ double jac[PAGANI_QMC_TILE];
#if PAGANI_VECTOR
    extern __shared__ unsigned long long pagani_qmc_acc[]; /* [g][c][bin] */
#endif
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
#if PAGANI_VECTOR
        unsigned long long *mine =
            pagani_qmc_acc + (size_t)g * PAGANI_NCOMP * PAGANI_XSUM_BINS;
        for (int i = threadIdx.x; i < group * PAGANI_NCOMP * PAGANI_XSUM_BINS;
             i += PAGANI_QMC_THREADS)
            pagani_qmc_acc[i] = 0;   /* used after the tile's barrier */
#else
        pagani_xsum s;

        pagani_xsum_zero(&s);
#endif
#pragma unroll
        for (int i = 0; i < PAGANI_N; i++)
            state[i] = pagani_qmc_state(a.seed, shift, (unsigned)i, k_first,
                                        a.theta[i]);
#pragma unroll 1
        for (unsigned long long t0 = j_begin; t0 < j_end;
             t0 += PAGANI_QMC_TILE) {
            const int points = j_end - t0 < PAGANI_QMC_TILE ? (int)(j_end - t0)
                                                            : PAGANI_QMC_TILE;
            if ((int)threadIdx.x < points)
                pagani_qmc_tile_point(a, state, unit, jac);
            __syncthreads();
            for (int q = lane; id >= 0 && q < points; q += lanes) {
                double x[PAGANI_N];
                pagani_qmc_tile_x(unit, q, lower, width, x);
#if PAGANI_VECTOR
                if (!pagani_qmc_vector_add(x, p, jac[q], mine))
                    atomicMin(&fault[slot], a.first + (t0 + q) * a.leap);
#else
                double v = __dmul_rn(pagani_integrand_device(x, p), jac[q]);
                if (!isfinite(v)) {
                    atomicMin(&fault[slot], a.first + (t0 + q) * a.leap);
                    continue;
                }
                pagani_xsum_add(&s, v);
#endif
            }
            __syncthreads();   /* the tile is remade */
        }

#if PAGANI_VECTOR
        __syncthreads();   /* every point added (also with no tile) */
        for (int i = threadIdx.x; i < group * PAGANI_NCOMP;
             i += PAGANI_QMC_THREADS) {
            const int mi = base + i / PAGANI_NCOMP, c = i % PAGANI_NCOMP;
            const size_t at = ((size_t)mi * PAGANI_NCOMP + c) * gridDim.y +
                              blockIdx.y;
            pagani_xsum t;
            if (mi >= a.live) continue;
#pragma unroll 1
            for (int b = 0; b < PAGANI_XSUM_BINS; b++)
                t.bin[b] = (long long)pagani_qmc_acc[i * PAGANI_XSUM_BINS + b];
            pagani_xsum_normalize(&t);   /* digits: < 2^63 over the blocks */
#pragma unroll 1
            for (int b = 0; b < PAGANI_XSUM_BINS; b++)
                if (t.bin[b])
                    atomicAdd(&acc[at * PAGANI_XSUM_BINS + b],
                              (unsigned long long)t.bin[b]);
        }
        __syncthreads();   /* the accumulators are zeroed anew */
#else
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
#endif
    }
}

/*
 * The points of one shift (a.first_shift) in integral a.integral's box,
 * for tests and fault reports: one thread per point j < count writes
 * x[j * n + i] and, when f is not NULL, the integrand's raw value f[j]
 * (a vector integrand's components f[j * ncomp + c]) with that integral's
 * parameter block.
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
#if PAGANI_VECTOR
    if (f) pagani_vector_eval(xs, p, f + j * PAGANI_NCOMP);
#else
    if (f) f[j] = pagani_integrand_device(xs, p);
#endif
}
