/*
 * vegas_kernel.cuh - PAGANI_VEGAS's sampling kernels. Not compiled into the
 * library: gpu/vegas/cuda_vegas.c pastes this text, after the wrapped
 * integrand (pagani_source_wrap, PAGANI_TARGET_CUDA), src/sampling/philox.h,
 * src/sampling/vegas_point.h, src/sampling/vegas_piece.h and
 * gpu/vegas/vegas_args.h (their #include lines removed), into one translation
 * unit that NVRTC compiles per integrand with -DPAGANI_N=n: the integrand is
 * inlined and every loop over the axes has a compile-time trip count.
 */
#ifndef PAGANI_N
#error "PAGANI_N (the dimension) must be defined"
#endif

#define PAGANI_VEGAS_THREADS 256
/* The __launch_bounds__ minimum of blocks an SM holds (a benchmark knob,
 * passed as -DPAGANI_VEGAS_MIN_BLOCKS=k through PAGANI_CUDA_VEGAS_OPTIONS;
 * the default is what ships): k caps registers at 65536 / (256 k). On an
 * H100, sin 6-D at 2e9 calls (bench_vegas sin): 1 lets NVRTC take 165
 * registers (3.8e10 calls/s); 2, 128 (5.1e10); 3, 80 with spills (4.2e10);
 * 4, 64 (3.0e10). */
#ifndef PAGANI_VEGAS_MIN_BLOCKS
#define PAGANI_VEGAS_MIN_BLOCKS 2
#endif
/* An integrand of several components: its component sums (one component
 * is run as a scalar integrand) */
#if defined(PAGANI_NCOMP) && PAGANI_NCOMP > 1
#define PAGANI_VEGAS_VECTOR 1
#else
#define PAGANI_VEGAS_VECTOR 0
#endif
#define PAGANI_VEGAS_FULL 0xffffffffu

__device__ __forceinline__ pagani_vegas_partial pagani_vegas_empty(void)
{
    pagani_vegas_partial p;
    p.value = p.variance = p.vmax = p.term_max = p.beta_sum = p.fault_value = 0.0;
    p.evaluations = p.nonzero = p.overflow = 0;
    p.fault_key = ~0ULL;
    p.fault_component = p.pad = 0;
    return p;
}

/* a := a (+) b: sums, maxima, the earlier fault. */
__device__ __forceinline__ void pagani_vegas_merge(pagani_vegas_partial *a,
                                                   const pagani_vegas_partial &b)
{
    a->value += b.value;
    a->variance += b.variance;
    a->beta_sum += b.beta_sum;
    a->evaluations += b.evaluations;
    a->nonzero += b.nonzero;
    a->overflow |= b.overflow;
    if (b.vmax > a->vmax) a->vmax = b.vmax;
    if (b.term_max > a->term_max) a->term_max = b.term_max;
    if (b.fault_key < a->fault_key) {
        a->fault_key = b.fault_key;
        a->fault_value = b.fault_value;
        a->fault_component = b.fault_component;
    }
}

/* Merges the block's partials in a fixed order (a shuffle tree in each
 * warp, then the warps in order); the result is valid in thread 0. */
__device__ pagani_vegas_partial pagani_vegas_block_merge(pagani_vegas_partial p,
                                                         pagani_vegas_partial *scratch)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        pagani_vegas_partial q;
        q.value = __shfl_down_sync(PAGANI_VEGAS_FULL, p.value, off);
        q.variance = __shfl_down_sync(PAGANI_VEGAS_FULL, p.variance, off);
        q.vmax = __shfl_down_sync(PAGANI_VEGAS_FULL, p.vmax, off);
        q.term_max = __shfl_down_sync(PAGANI_VEGAS_FULL, p.term_max, off);
        q.beta_sum = __shfl_down_sync(PAGANI_VEGAS_FULL, p.beta_sum, off);
        q.fault_value = __shfl_down_sync(PAGANI_VEGAS_FULL, p.fault_value, off);
        q.evaluations = __shfl_down_sync(PAGANI_VEGAS_FULL, p.evaluations, off);
        q.nonzero = __shfl_down_sync(PAGANI_VEGAS_FULL, p.nonzero, off);
        q.fault_key = __shfl_down_sync(PAGANI_VEGAS_FULL, p.fault_key, off);
        q.overflow = __shfl_down_sync(PAGANI_VEGAS_FULL, p.overflow, off);
#if PAGANI_VEGAS_VECTOR
        q.fault_component = __shfl_down_sync(PAGANI_VEGAS_FULL,
                                             p.fault_component, off);
#else
        q.fault_component = 0;
#endif
        if (lane + off < 32) pagani_vegas_merge(&p, q);
    }
    if (lane == 0) scratch[warp] = p;
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < (int)(blockDim.x >> 5); w++) pagani_vegas_merge(&p, scratch[w]);
    return p;
}

/* The digits of cube c (k_i = (c / g^i) % g), less PAGANI_VEGAS_K_BIAS
 * as pagani_vegas_piece takes them, and the step to cube c + 1. */
__device__ __forceinline__ void pagani_vegas_digits(long long c, long long g, double *k)
{
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++) {
        k[i] = (double)(c % g) - PAGANI_VEGAS_K_BIAS;
        c /= g;
    }
}

__device__ __forceinline__ void pagani_vegas_next(double gd, double *k)
{
    bool carry = true;
#pragma unroll
    for (int i = 0; i < PAGANI_N; i++)
        if (carry) {
            k[i] += 1.0;
            carry = k[i] >= gd - PAGANI_VEGAS_K_BIAS;
            if (carry) k[i] = -PAGANI_VEGAS_K_BIAS;
        }
}

/* The first cube c in [0, cubes] with offsets[c] >= s. */
__device__ __forceinline__ long long pagani_vegas_find(const long long *offsets,
                                                       long long cubes, long long s)
{
    long long lo = 0, hi = cubes;
    while (lo < hi) {
        long long mid = lo + ((hi - lo) >> 1);
        if (offsets[mid] < s) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Adds one piece's results to a thread's partial. */
__device__ __forceinline__ void pagani_vegas_add(pagani_vegas_partial *p,
                                                 const pagani_vegas_args &a,
                                                 const pagani_vegas_piece_out &o,
                                                 long long cube, long long count,
                                                 double *sigma)
{
    p->value += o.mean;
    p->variance += o.var;
    p->evaluations += count;
    p->nonzero += o.nonzero;
    p->overflow |= o.overflow;
    if (o.vmax > p->vmax) p->vmax = o.vmax;
    if (o.term_max > p->term_max) p->term_max = o.term_max;
    if (o.fault_sample >= 0 && p->fault_key == ~0ULL) {
        p->fault_key = (unsigned long long)(cube * a.key_stride + o.fault_sample);
        p->fault_value = o.fault_value;
        p->fault_component = o.fault_component;
    }
    if (a.stratify) {
        double s = pow(o.var * (double)count, 0.5 * a.beta);
        sigma[cube] = s;
        p->beta_sum += s;
    }
}

/*
 * A thread's sums of a vector integrand's components (PAGANI_NCOMP):
 * sum[2 c] of the pieces' means of component c and sum[2 c + 1] of their
 * variances, added piece by piece as pagani_vegas_add adds value and
 * variance, so that component 0's equal them bit for bit; piece[] is the
 * last piece's (pagani_vegas_piece's components). 2 KB a thread at 64
 * components (local memory). Empty, and every use a no-op, for a scalar
 * integrand.
 */
#if PAGANI_VEGAS_VECTOR
struct pagani_vegas_csums {
    double sum[2 * PAGANI_NCOMP];
    double piece[2 * PAGANI_NCOMP];
};

/* Zero sums; returns where pagani_vegas_piece writes a piece's
 * components. */
__device__ __forceinline__ double *pagani_vegas_cstart(pagani_vegas_csums &cs)
{
    for (int c = 0; c < 2 * PAGANI_NCOMP; c++) cs.sum[c] = 0.0;
    return cs.piece;
}

/* Adds the last piece's components to the sums. */
__device__ __forceinline__ void pagani_vegas_cadd(pagani_vegas_csums &cs)
{
    for (int c = 0; c < 2 * PAGANI_NCOMP; c++) cs.sum[c] += cs.piece[c];
}

/* Merges the block's sums in the order of pagani_vegas_block_merge (a
 * shuffle tree in each warp, then the warps in order), one component at a
 * time through scratch[] in shared memory (a double per warp); thread 0
 * writes the result to dst[0 .. 2 PAGANI_NCOMP). Every thread calls it. */
__device__ void pagani_vegas_cmerge(const pagani_vegas_csums &cs,
                                    double *scratch, double *dst)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll 1
    for (int c = 0; c < 2 * PAGANI_NCOMP; c++) {
        double v = cs.sum[c];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            const double q = __shfl_down_sync(PAGANI_VEGAS_FULL, v, off);
            if (lane + off < 32) v += q;
        }
        if (lane == 0) scratch[warp] = v;
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int w = 1; w < (int)(blockDim.x >> 5); w++) v += scratch[w];
            dst[c] = v;
        }
        __syncthreads();
    }
}

/* The last block of a member: thread j sums the block sums j, j + 256,
 * ... (2 PAGANI_NCOMP doubles each, from 0.0 in block order), as the
 * partials are read. */
__device__ __forceinline__ void pagani_vegas_cgather(pagani_vegas_csums &cs,
                                                     const double *partials,
                                                     long long begin,
                                                     long long end)
{
    for (int c = 0; c < 2 * PAGANI_NCOMP; c++) cs.sum[c] = 0.0;
    for (long long j = begin + threadIdx.x; j < end; j += blockDim.x) {
        const volatile double *v = partials + j * 2 * PAGANI_NCOMP;
        for (int c = 0; c < 2 * PAGANI_NCOMP; c++) cs.sum[c] += v[c];
    }
}
#else
struct pagani_vegas_csums {};
__device__ __forceinline__ double *pagani_vegas_cstart(pagani_vegas_csums &)
{
    return 0;
}
__device__ __forceinline__ void pagani_vegas_cadd(pagani_vegas_csums &) {}
#endif

/* The member whose blocks hold block b: the last i < count with
 * members[i].block_start <= b. */
__device__ __forceinline__ int pagani_vegas_member_of(const pagani_vegas_member *members,
                                                      int count, long long b)
{
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (members[mid].block_start <= b) lo = mid; else hi = mid - 1;
    }
    return lo;
}

/*
 * One sampling pass over the a.members integrals of members[]: member i
 * owns the launch's blocks members[i].block_start .. members[i +
 * 1].block_start - 1 (as many as its pass would launch alone) and, with b
 * its block's rank among them, thread t = b * blockDim.x + threadIdx.x of
 * the integral works as thread t of a launch of that integral alone. Work
 * mapping (a.mapping):
 *  MAP_UNITS   thread t takes units t*per_thread .. (t+1)*per_thread - 1
 *              (unit u = piece first + u*stride, cube-major; a cube's
 *              count from counts[] when given, else a.samples per piece);
 *  MAP_OFFSETS (Vegas+) thread t takes the whole cubes whose first sample
 *              (offsets[], the scan of counts[]) lies in its range of
 *              per_thread samples.
 * Each thread samples its pieces in order (vegas_piece.h) into a private
 * partial; the block merges them in a fixed order and writes its partial
 * (partials[blockIdx.x]); the integral's last block to finish (its counter
 * in done[]) merges its blocks' partials in block order into out[i]. So an
 * integral's sums depend on its own launch shape only, which depends on the
 * job only: the same with other integrals in the launch or without. With
 * A vector integrand's component sums take the same path in the same
 * order (pagani_vegas_csums): a.component_partials[block], then
 * a.component_out[i]. With
 * ACC, bin contributions are counted as integers (pagani_vegas_quantize) in
 * shared memory, three 32-bit digit counters a cell with native atomics (a
 * block adds at most 2^16 samples), or straight into global memory
 * (Vegas+, or bins too many for shared memory), and merged once per block
 * into the integral's 128-bit totals, bins[0..cells) (low words) and
 * bins[cells..2 cells) (high words): integer sums, the same whatever the
 * order.
 */
template <bool ACC>
__device__ __forceinline__ void
pagani_vegas_pass(const pagani_vegas_args &a, const pagani_vegas_member *members,
                  pagani_vegas_partial *partials, pagani_vegas_partial *out)
{
    extern __shared__ double pagani_vegas_smem[];
    __shared__ pagani_vegas_partial scratch[PAGANI_VEGAS_THREADS / 32];
#if PAGANI_VEGAS_VECTOR
    __shared__ double cscratch[PAGANI_VEGAS_THREADS / 32];
#endif
    __shared__ int last;
    const int i = pagani_vegas_member_of(members, a.members, blockIdx.x);
    const pagani_vegas_member m = members[i];
    const long long end = members[i + 1].block_start;
    const long long block = (long long)blockIdx.x - m.block_start;
    const long long t = block * blockDim.x + threadIdx.x;
    const size_t k = (size_t)m.integral;
    const double *grid = a.grids + k * (size_t)a.grid_cells;
    const long long *counts = a.counts ? a.counts + k * (size_t)(a.cubes + 1) : 0;
    const long long *offsets = a.offsets ? a.offsets + k * (size_t)(a.cubes + 1) : 0;
    double *sigma = a.sigma ? a.sigma + k * (size_t)a.cubes : 0;
    unsigned long long *bins = a.bins + 2 * k * (size_t)a.bin_cells;
    const double gd = (double)a.g;
    double *free_smem = pagani_vegas_smem;
    const double *g = grid;
    void *b = bins;
    pagani_vegas_kparams kp;
    pagani_vegas_partial p = pagani_vegas_empty();
    pagani_vegas_csums cs;
    double *const piece_components = pagani_vegas_cstart(cs);
    double x[PAGANI_N], lower[PAGANI_N], width[PAGANI_N];

    /* the box in registers: read once a thread, not once a piece */
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        lower[d] = a.lower[k * PAGANI_N + d];
        width[d] = a.width[k * PAGANI_N + d];
    }
    if (a.grid_shared) {
        for (int c = threadIdx.x; c < a.grid_cells; c += blockDim.x) free_smem[c] = grid[c];
        g = free_smem;
        free_smem += a.grid_cells;
    }
    if (ACC && a.bins_shared) {
        unsigned *digits = (unsigned *)free_smem;
        for (int c = threadIdx.x; c < 3 * a.bin_cells; c += blockDim.x) digits[c] = 0;
        b = digits;
    }
    __syncthreads();

#pragma unroll
    for (int r = 0; r < 20; r++) kp.keys.k[r] = a.keys[r];
    kp.iteration = a.iteration;
    kp.n = PAGANI_N;
    kp.nb = a.nb;
    kp.row_stride = a.row_stride;
    kp.accumulate = ACC;
    kp.cells = a.bin_cells;
    kp.fixed_count = a.samples;
    kp.inv_count = a.inv_count;
    kp.var_weight = a.var_weight;
    kp.inv_pieces = a.inv_pieces;
    kp.nb_per_g = a.nb_per_g;
    kp.bin_scale = m.bin_scale;
    kp.grid = g;
    kp.bins_hi = ACC && !a.bins_shared ? bins + a.bin_cells : 0;
    kp.lower = lower;
    kp.width = width;
    kp.params = a.params ? (const char *)a.params + k * a.params_stride : 0;

    if (a.mapping == PAGANI_VEGAS_MAP_UNITS) {
        const long long u0 = t * a.per_thread;
        if (u0 < a.units) {
            /* units left (at most VEGAS_MAX_PER_THREAD, cuda_vegas.c) */
            int left = (int)(a.units - u0 < a.per_thread ? a.units - u0 : a.per_thread);
            long long w = a.first + u0 * a.stride;
            long long cube = w / a.pieces, piece = w % a.pieces;
            pagani_vegas_digits(cube, a.g, x);
            for (; left > 0; left--) {
                const long long count = counts ? counts[cube] : a.samples;
                pagani_vegas_piece_out o = pagani_vegas_piece(
                    &kp, 0, (pagani_u64)cube, x,
                    (pagani_u64)(counts ? 0 : piece * a.samples), count, b,
                    piece_components);
                pagani_vegas_add(&p, a, o, cube, count, sigma);
                pagani_vegas_cadd(cs);
                if (a.stride == 1) {
                    if (++piece == a.pieces) {
                        piece = 0;
                        cube++;
                        pagani_vegas_next(gd, x);
                    }
                } else {
                    w += a.stride;
                    cube = w / a.pieces;
                    piece = w % a.pieces;
                    pagani_vegas_digits(cube, a.g, x);
                }
            }
        }
    } else {
        const long long s0 = t * a.per_thread;
        if (s0 < m.total) {
            const long long c0 = pagani_vegas_find(offsets, a.cubes, s0);
            const long long c1 = pagani_vegas_find(offsets, a.cubes, s0 + a.per_thread);
            pagani_vegas_digits(c0, a.g, x);
            for (long long c = c0; c < c1; c++) {
                const long long count = counts[c];
                pagani_vegas_piece_out o = pagani_vegas_piece(
                    &kp, 0, (pagani_u64)c, x, 0, count, b, piece_components);
                pagani_vegas_add(&p, a, o, c, count, sigma);
                pagani_vegas_cadd(cs);
                pagani_vegas_next(gd, x);
            }
        }
    }

    p = pagani_vegas_block_merge(p, scratch);
#if PAGANI_VEGAS_VECTOR
    pagani_vegas_cmerge(cs, cscratch,
                        a.component_partials +
                            (size_t)blockIdx.x * 2 * PAGANI_NCOMP);
#endif
    if (ACC && a.bins_shared) {   /* digits -> 128-bit totals */
        const unsigned *digits = (const unsigned *)b;
        __syncthreads();
        for (int c = threadIdx.x; c < a.bin_cells; c += blockDim.x) {
            const unsigned long long mid = ((unsigned long long)digits[a.bin_cells + c] << 16) +
                                           digits[c];
            const unsigned long long lo =
                mid + ((unsigned long long)digits[2 * a.bin_cells + c] << 32);
            unsigned long long up = lo < mid;    /* carries into the high word */
            if (lo) {
                const unsigned long long old = atomicAdd(bins + c, lo);
                up += old + lo < old;
            }
            if (up) atomicAdd(bins + a.bin_cells + c, up);
        }
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = p;
        __threadfence();
        last = atomicAdd(a.done + k, 1u) == (unsigned)(end - m.block_start - 1);
    }
    __syncthreads();
    if (!last) return;

    /* the integral's last block: its partials in block order, thread j
     * taking j, j + 256, ... */
    __threadfence();
    p = pagani_vegas_empty();
    for (long long j = m.block_start + threadIdx.x; j < end; j += blockDim.x) {
        const volatile pagani_vegas_partial *v = partials + j;
        pagani_vegas_partial q;
        q.value = v->value;
        q.variance = v->variance;
        q.vmax = v->vmax;
        q.term_max = v->term_max;
        q.beta_sum = v->beta_sum;
        q.fault_value = v->fault_value;
        q.evaluations = v->evaluations;
        q.nonzero = v->nonzero;
        q.fault_key = v->fault_key;
        q.overflow = v->overflow;
        q.fault_component = v->fault_component;
        pagani_vegas_merge(&p, q);
    }
    __syncthreads();
    p = pagani_vegas_block_merge(p, scratch);
#if PAGANI_VEGAS_VECTOR
    pagani_vegas_cgather(cs, a.component_partials, m.block_start, end);
    pagani_vegas_cmerge(cs, cscratch,
                        a.component_out + (size_t)i * 2 * PAGANI_NCOMP);
#endif
    if (threadIdx.x == 0) {
        out[i] = p;
        a.done[k] = 0;
    }
}

/* The pass with bin accumulation (grid-adjusting iterations): each block
 * and thread does what pagani_vegas_pass above says, adding every
 * sample's (f J)^2 to its bins. */
extern "C" __global__ void __launch_bounds__(PAGANI_VEGAS_THREADS, PAGANI_VEGAS_MIN_BLOCKS)
pagani_vegas_adjust(const pagani_vegas_args a, const pagani_vegas_member *members,
                    pagani_vegas_partial *partials, pagani_vegas_partial *out)
{
    pagani_vegas_pass<true>(a, members, partials, out);
}

/* The cheaper pass once the grid is frozen: the same mapping of blocks and
 * threads to integrals and pieces (pagani_vegas_pass), no bins. */
extern "C" __global__ void __launch_bounds__(PAGANI_VEGAS_THREADS, PAGANI_VEGAS_MIN_BLOCKS)
pagani_vegas_plain(const pagani_vegas_args a, const pagani_vegas_member *members,
                   pagani_vegas_partial *partials, pagani_vegas_partial *out)
{
    pagani_vegas_pass<false>(a, members, partials, out);
}
