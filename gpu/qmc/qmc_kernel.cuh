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

#if PAGANI_VECTOR
#define PAGANI_QMC_TILE PAGANI_QMC_TILE_POINTS(PAGANI_N, PAGANI_NCOMP)
#else
#define PAGANI_QMC_TILE PAGANI_QMC_TILE_POINTS(PAGANI_N, 1)
#endif

/* Block x's points of its shift, j = *j_begin .. *j_end - 1 (per_block
 * of them, j < a.count); returns the index k of the thread's first one,
 * point *j_begin + threadIdx.x. */
__device__ __forceinline__ unsigned long long pagani_qmc_block(
    const pagani_qmc_args &a, unsigned long long *j_begin,
    unsigned long long *j_end)
{
    *j_begin = (unsigned long long)blockIdx.x * a.per_block;
    *j_end = a.count - *j_begin < a.per_block ? a.count
                                              : *j_begin + a.per_block;
    return a.first + (*j_begin + threadIdx.x) * a.leap;
}

/* The thread's fixed-point states of its first point: index k_first of
 * the shift, every axis. */
__device__ __forceinline__ void pagani_qmc_start(const pagani_qmc_args &a,
                                                 unsigned shift,
                                                 unsigned long long k_first,
                                                 pagani_u128 *state)
{
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++)
        state[i] = pagani_qmc_state(a.seed, shift, (unsigned)i, k_first,
                                    a.theta[i]);
}

/* Axis i of the thread's point in the unit cube into *u (*w times the
 * transform's derivative); then state[i] steps on to the thread's point
 * of the next tile. */
__device__ __forceinline__ void pagani_qmc_next_unit(const pagani_qmc_args &a,
                                                     pagani_u128 *state, int i,
                                                     double *u, double *w)
{
    pagani_u128 step;
    step.hi = a.tile_step[i][0];
    step.lo = a.tile_step[i][1];
    *u = pagani_qmc_unit(state[i], a.transform, w);
    state[i] = pagani_u128_add(state[i], step);
}

#if !PAGANI_VECTOR
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
    for (int i = 0; i < PAGANI_N; i++)
        pagani_qmc_next_unit(a, state, i, &unit[i * PAGANI_QMC_TILE +
                                                threadIdx.x], &w);
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
 * (atomicMin: the smallest is kept). Each thread keeps the largest |f w|
 * it added; the lanes of one integral take their maximum by shuffles and
 * raise peak[m][shift] by atomicMax on the bits (a double >= 0 orders as
 * its bits): exact in any order.
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_sums(const pagani_qmc_args a, const void *params,
                const double *box, const int *ids, unsigned long long *acc,
                unsigned long long *fault, unsigned long long *peak)
{
    __shared__ double unit[PAGANI_N * PAGANI_QMC_TILE]; /* [axis][point] */
    __shared__ double jac[PAGANI_QMC_TILE];
    const int group = a.group, lanes = PAGANI_QMC_THREADS / group;
    const int g = (int)threadIdx.x % group, lane = (int)threadIdx.x / group;
    const unsigned shift = (unsigned)a.first_shift + blockIdx.y;
    unsigned long long j_begin, j_end;
    const unsigned long long k_first = pagani_qmc_block(a, &j_begin, &j_end);

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
        double top = 0.0;

        pagani_xsum_zero(&s);
        pagani_qmc_start(a, shift, k_first, state);
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
                double v = __dmul_rn(pagani_integrand_device(x, p), jac[q]);
                if (!isfinite(v)) {
                    atomicMin(&fault[slot], a.first + (t0 + q) * a.leap);
                    continue;
                }
                pagani_xsum_add(&s, v);
                top = fmax(top, fabs(v));
            }
            __syncthreads();   /* the tile is remade */
        }
        for (int off = 16; off >= group; off >>= 1)
            top = fmax(top, __shfl_down_sync(0xffffffffu, top, off));
        if ((int)(threadIdx.x & 31) < group && id >= 0 && top > 0.0)
            atomicMax(&peak[slot], (unsigned long long)__double_as_longlong(top));

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

#else /* PAGANI_VECTOR */

/* A vector integrand's components go through a warp's stage in chunks of
 * at most 32: chunk k holds components 32 k .. 32 k + PAGANI_QMC_CHUNK(k)
 * - 1, and each is added by PAGANI_QMC_COPIES(k) lanes. */
#define PAGANI_QMC_CHUNKS ((PAGANI_NCOMP + 31) / 32)
#define PAGANI_QMC_CHUNK(k) \
    (PAGANI_NCOMP - 32 * (k) < 32 ? PAGANI_NCOMP - 32 * (k) : 32)
#define PAGANI_QMC_COPIES(k) (32 / PAGANI_QMC_CHUNK(k))
/* Doubles from one point's staged values to the next: odd, so that the
 * 32 lanes' stores of one component, and their loads, fall on different
 * banks of shared memory. */
#define PAGANI_QMC_STRIDE (PAGANI_QMC_CHUNK(0) | 1)

/* The thread's point of the tile mapped to the box (lower, width), and the
 * integrand's components there times the Jacobian into f[] (__dmul_rn, as
 * on the host); state[] steps on to the thread's point of the next tile.
 * Returns whether every component is finite. */
__device__ __forceinline__ bool pagani_qmc_vector_point(
    const pagani_qmc_args &a, pagani_u128 *state, const void *p,
    const double *lower, const double *width, double *f)
{
    double x[PAGANI_N], w = 1.0;
    bool finite = true;
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++) {
        double u;
        pagani_qmc_next_unit(a, state, i, &u, &w);
        x[i] = pagani_qmc_map(u, __ldg(&lower[i]), __ldg(&width[i]));
    }
    pagani_vector_eval(x, p, f);
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++) {
        f[c] = __dmul_rn(f[c], w);
        finite = finite && isfinite(f[c]);
    }
    return finite;
}

/* Adds the values f[] of the warp's points 0 .. points - 1 (lane q's
 * point; zeros where ok is false) to the lanes' accumulators s[], through
 * the warp's stage [point][component] in shared memory, chunk k at a time:
 * lane l < COPIES(k) * CHUNK(k) owns component 32 k + l % CHUNK(k) and
 * adds points l / CHUNK(k), l / CHUNK(k) + COPIES(k), ... into s[k]. */
__device__ __forceinline__ void pagani_qmc_warp_add(double *stage, int lane,
                                                    int points, bool ok,
                                                    const double *f,
                                                    pagani_xsum *s)
{
#pragma unroll
    for (int k = 0; k < PAGANI_QMC_CHUNKS; k++) {
        const int cc = PAGANI_QMC_CHUNK(k), copies = PAGANI_QMC_COPIES(k);
        __syncwarp();   /* the stage's last values are read */
#pragma unroll
        for (int c = 0; c < cc; c++)
            stage[lane * PAGANI_QMC_STRIDE + c] = ok ? f[32 * k + c] : 0.0;
        __syncwarp();
        if (lane < copies * cc)
            for (int q = lane / cc; q < points; q += copies)
                pagani_xsum_add(&s[k],
                                stage[q * PAGANI_QMC_STRIDE + lane % cc]);
    }
}

/* Normalises the lanes' accumulators s[], sums those of one component over
 * the lanes that own it (integer shuffles, a tree over the copies) and
 * adds the sum of component c to sums[c * stride + bin] by 64-bit integer
 * atomics. */
__device__ __forceinline__ void pagani_qmc_warp_merge(pagani_xsum *s,
                                                      int lane,
                                                      unsigned long long *sums,
                                                      size_t stride)
{
#pragma unroll
    for (int k = 0; k < PAGANI_QMC_CHUNKS; k++) {
        const int cc = PAGANI_QMC_CHUNK(k), copies = PAGANI_QMC_COPIES(k);
        const int copy = lane / cc;
        /* digits in [0, 2^32) (top bin signed): a sum of 32 is < 2^37 */
        pagani_xsum_normalize(&s[k]);
#pragma unroll 1
        for (int b = 0; b < PAGANI_XSUM_BINS; b++) {
            long long v = s[k].bin[b];
            if (!__any_sync(0xffffffffu, v != 0)) continue;
            for (int d = 1; d < copies; d *= 2) {
                const long long u = __shfl_down_sync(0xffffffffu, v, d * cc);
                if (copy % (2 * d) == 0 && copy + d < copies) v += u;
            }
            if (lane < cc && v != 0)
                atomicAdd(&sums[(size_t)(32 * k + lane) * stride + b],
                          (unsigned long long)v);
        }
    }
}

/*
 * The exact sums of f_c(x) * w for a vector integrand (PAGANI_NCOMP
 * components from one evaluation), a block or a leap of indices, every
 * shift and every running integral. The host launches it with group 1:
 * blockIdx.y is the shift (first_shift + blockIdx.y); block x takes the
 * consecutive points j = blockIdx.x * per_block ... (j < count) of that
 * shift, index k = first + j * leap, in tiles of PAGANI_QMC_THREADS;
 * blockIdx.z takes the running integrals m = blockIdx.z, blockIdx.z +
 * gridDim.z, ... (< a.live; integral ids[m]) one after the other.
 *
 * Per tile, thread t makes point t (its fixed-point states by
 * multiplication once, then by adding tile * leap * theta: the same bits)
 * in its integral's box, evaluates the integrand there once and
 * multiplies the components by the Jacobian. Then its warp transposes the
 * values of its 32 points through shared memory (pagani_qmc_warp_add):
 * with C = PAGANI_NCOMP <= 32, lane l < (32 / C) C owns component l % C
 * and adds its values at the points l / C, l / C + 32 / C, ... to its own
 * exact accumulator (exact_sum.h, in local memory). With C > 32 the
 * components go in two chunks, 0 .. 31 and 32 .. C - 1: lane l owns
 * component l, adding all 32 points, and the same way as above with
 * C - 32 for C, component 32 + l % (C - 32), in a second accumulator. So
 * a lane adds about C values per 32 points, as C scalar runs would, for
 * one evaluation of all C.
 *
 * At the end the lanes' accumulators are normalised, summed over the
 * lanes of one component by integer shuffles and added to
 * acc[((m * C + c) * shifts + shift) * PAGANI_XSUM_BINS + bin] by 64-bit
 * integer atomics (pagani_qmc_warp_merge): integer additions, so the
 * result is the same bits for any launch shape. A point where some
 * component is not finite is left out of every component's sums and its
 * k goes to fault[m * shifts + shift] (atomicMin: the smallest is kept).
 * The largest |f_c w| of a warp's points goes to peak[m * shifts + shift]
 * as in the scalar kernel.
 */
extern "C" __global__ void __launch_bounds__(PAGANI_QMC_THREADS)
pagani_qmc_sums(const pagani_qmc_args a, const void *params,
                const double *box, const int *ids, unsigned long long *acc,
                unsigned long long *fault, unsigned long long *peak)
{
    /* each warp's stage: [point][component], PAGANI_QMC_STRIDE apart */
    __shared__ double stage[PAGANI_QMC_THREADS * PAGANI_QMC_STRIDE];
    double *warp_stage = stage + (threadIdx.x & ~31u) * PAGANI_QMC_STRIDE;
    const int lane = (int)(threadIdx.x & 31);
    const unsigned shift = (unsigned)a.first_shift + blockIdx.y;
    unsigned long long j_begin, j_end;
    const unsigned long long k_first = pagani_qmc_block(a, &j_begin, &j_end);

#pragma unroll 1
    for (int m = blockIdx.z; m < a.live; m += gridDim.z) {
        const int id = ids[m];
        const size_t slot = (size_t)m * gridDim.y + blockIdx.y;
        const void *p = (const char *)params + (size_t)id * a.params_stride;
        const double *lower = box + (size_t)id * 2 * PAGANI_N;
        const double *width = lower + PAGANI_N;
        pagani_u128 state[PAGANI_N];
        pagani_xsum s[PAGANI_QMC_CHUNKS];
        double top = 0.0;

#pragma unroll
        for (int k = 0; k < PAGANI_QMC_CHUNKS; k++) pagani_xsum_zero(&s[k]);
        pagani_qmc_start(a, shift, k_first, state);
#pragma unroll 1
        for (unsigned long long t0 = j_begin; t0 < j_end;
             t0 += PAGANI_QMC_TILE) {
            const unsigned long long j = t0 + threadIdx.x;
            const unsigned long long warp_first = j - lane;
            double f[PAGANI_NCOMP];
            bool ok = false;
            int points;

            if (warp_first >= j_end) break;   /* the warp's points are done */
            points = j_end - warp_first < 32 ? (int)(j_end - warp_first) : 32;
            if (lane < points) {
                ok = pagani_qmc_vector_point(a, state, p, lower, width, f);
                if (!ok) atomicMin(&fault[slot], a.first + j * a.leap);
#pragma unroll
                for (int c = 0; ok && c < PAGANI_NCOMP; c++)
                    top = fmax(top, fabs(f[c]));
            }
            pagani_qmc_warp_add(warp_stage, lane, points, ok, f, s);
        }
        for (int off = 16; off >= 1; off >>= 1)
            top = fmax(top, __shfl_down_sync(0xffffffffu, top, off));
        if (lane == 0 && top > 0.0)
            atomicMax(&peak[slot], (unsigned long long)__double_as_longlong(top));
        pagani_qmc_warp_merge(s, lane,
                              acc + ((size_t)m * PAGANI_NCOMP * gridDim.y +
                                     blockIdx.y) * PAGANI_XSUM_BINS,
                              (size_t)gridDim.y * PAGANI_XSUM_BINS);
    }
}
#endif /* PAGANI_VECTOR */

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
