/*
 * cubature_evaluate.cuh - PAGANI's EVALUATE step on the GPU. Not compiled
 * into the library: cuda_cubature.cu pastes this text, after the wrapped
 * integrand (pagani_source_wrap, PAGANI_TARGET_CUDA), cubature_math.h,
 * cubature_warp.cuh and cubature_probe.cuh,
 * into one translation unit that NVRTC compiles per integrand with
 * -DPAGANI_N=n, so the integrand is inlined and every loop over the
 * dimension has a compile-time trip count (coordinates stay in registers).
 *
 * Compile-time knobs (benchmarks try them; the defaults are what ships):
 *   PAGANI_EVAL_UNROLL     unrolling of the loop over a thread's points
 *   PAGANI_EVAL_MIN_BLOCKS __launch_bounds__ minimum of 256-thread blocks
 *                          (3 caps registers at 80: ptxas 13.0 spills
 *                          nothing on the suite's f4 and f5 in 5-D for
 *                          sm_90, 60 to 102 bytes of stores in 8-D)
 */
#ifndef PAGANI_EVAL_UNROLL
#define PAGANI_EVAL_UNROLL 1
#endif
#ifndef PAGANI_EVAL_MIN_BLOCKS
#if PAGANI_N <= 8
#define PAGANI_EVAL_MIN_BLOCKS 3
#else
#define PAGANI_EVAL_MIN_BLOCKS 1
#endif
#endif
#define PAGANI_DO_PRAGMA(x) _Pragma(#x)
#define PAGANI_UNROLL(k) PAGANI_DO_PRAGMA(unroll k)

/* Coordinate d of corner b of the rule: c + gen h, or c - gen h where bit
 * d of b is set. */
__device__ __forceinline__ double pagani_corner_coordinate(int b, int d, double gen,
                                                           double c, double h)
{
    return fma(((b >> d) & 1) ? -gen : gen, h, c);
}

/* The box of list entry src (half `side` of parent src, split across
 * `split`, on an implicit list) of integral k: its centre c, widths h
 * and lower corner lo (every kernel's, the vector one's too). */
__device__ __forceinline__ void pagani_eval_box(const double *__restrict__ lower,
                                                const short *__restrict__ level,
                                                long long stride, long long src, int side,
                                                int split, const double *__restrict__ initial,
                                                int k, double *c, double *h, double *lo)
{
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) {
        double l = lower[d * stride + src], w;
        pagani_gpu_child_box(d, split, side, initial[k * PAGANI_N + d],
                             level[d * stride + src], &l, &w);
        h[d] = w;
        c[d] = l + 0.5 * w;
        lo[d] = l;
    }
}

/* The first pair of explicit point q's row (cubature_math.h); pair j is
 * PAGANI_ROW_TILE * j pairs further. */
__device__ __forceinline__ const double2 *pagani_row(const double *__restrict__ rows, int q)
{
    const unsigned u = (unsigned)q; /* q >= 0: shifts and masks */
    return (const double2 *)rows +
           ((size_t)(u / PAGANI_ROW_TILE) * PAGANI_ROW_PAIRS(PAGANI_N) * PAGANI_ROW_TILE +
            u % PAGANI_ROW_TILE);
}

/* Explicit point q of the rule in the box (centre c, widths h): its
 * offsets read a pair at a time, c + o h (every kernel's, the vector
 * one's too). */
__device__ __forceinline__ void pagani_row_point(const double *__restrict__ rows, int q,
                                                 const double *c, const double *h,
                                                 double *xq)
{
    const double2 *row = pagani_row(rows, q);
#pragma unroll
    for (int j = 0; j < PAGANI_ROW_COORDS(PAGANI_N) / 2; j++) {
        const double2 o = __ldg(row + PAGANI_ROW_TILE * j);
        xq[2 * j] = fma(o.x, h[2 * j], c[2 * j]);
        if (2 * j + 1 < PAGANI_N) xq[2 * j + 1] = fma(o.y, h[2 * j + 1], c[2 * j + 1]);
    }
}

#if !PAGANI_VECTOR /* several components: cubature_evaluate_vector.cuh */
/* f at rule point q of `region` (coordinates xq), folded into the
 * thread's range of |f|; a NaN or infinite f counts as 0, and the
 * thread's first such (region, point) goes to nonfinite[k] (atomicMin on
 * region << 21 | q: the smallest key, so the report is deterministic). */
__device__ __forceinline__ double pagani_eval_point(const double *xq, const void *p, int q,
                                                    long long region, const int *offsets,
                                                    int integrals,
                                                    unsigned long long *nonfinite,
                                                    bool &reported, double &fmax_q,
                                                    double &fmin_q)
{
    double fq = pagani_integrand_device(xq, p);
    if (!isfinite(fq)) {
        if (!reported) {
            reported = true;
            atomicMin(nonfinite + pagani_gpu_integral_of(offsets, integrals, region),
                      ((unsigned long long)region << 21) | (unsigned long long)q);
        }
        fq = 0.0;
    }
    pagani_range_add(fabs(fq), fmax_q, fmin_q);
    return fq;
}

/* pagani_eval_point, or in the graded pass (GRADED) f under the region's
 * grading g (lower corner lo, widths h; pagani_eval_graded), a NaN or
 * infinite f setting `bad` instead of the report. */
template <bool GRADED>
__device__ __forceinline__ double pagani_eval_at(const double *xq, const void *p, int q,
                                                 long long region, const int *offsets,
                                                 int integrals, unsigned long long *nonfinite,
                                                 bool &reported, double &fmax_q,
                                                 double &fmin_q, const pagani_grading *g,
                                                 const double *lo, const double *h,
                                                 bool &bad)
{
#if PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
    if (GRADED) {
        const double fq = pagani_eval_graded(xq, p, g, lo, h, &bad);
        pagani_range_add(fabs(fq), fmax_q, fmin_q);
        return fq;
    }
#endif
    return pagani_eval_point(xq, p, q, region, offsets, integrals, nonfinite, reported,
                             fmax_q, fmin_q);
}

/*
 * The evaluation of one region, in two instances: the plain one
 * (pagani_cubature_evaluate: region `index` of the list, `entries` of
 * them) and the graded one (GRADED, pagani_cubature_evaluate_graded:
 * entry `index` of the graded list, `entries` of them).
 *
 * One region per group of shape.tpr threads (a whole number of warps);
 * blockDim.x / tpr groups per block, so small rules put several regions in
 * a block. The group finds the region's integral k (each warp searches
 * offsets, 32 candidates a step); the integrand reads k's parameter
 * block, params + k * params_stride. A region's box is read from the list
 * (lower corner, and the halving levels of k's initial widths), or, when
 * the list holds parents (shape.implicit), derived from parent region / 2
 * and its split axis.
 * Thread `lane` of a group takes rule points lane, lane + tpr, ...:
 * explicit points from their rows (offsets and weights in 16-byte loads;
 * the lanes of a warp read contiguous bytes), then corners lane, lane +
 * tpr, ... generated from the bits of the corner's index (those below 5
 * are the lane's, set once), which share one weight tuple: a thread sums
 * f over its corners and weighs the sum once. Each thread keeps the five
 * weighted sums r_0..r_4; a warp-shuffle
 * tree and a fixed-order pass over the group's warps reduce them
 * (deterministic for a given tpr). f at points 0 .. 4n goes to shared
 * memory for the fourth differences. The group's first warp then finishes
 * the region in parallel: its lanes take the null-rule terms (k, s) and
 * the axes d, warp maxima combine them (maxima are exact, so the result is
 * the serial one), and lane 0 writes the value V, raw error E, split
 * axis K and the sign byte of the error (rules/error_sign.h: known where
 * the null rules decay, unless a probe below raised E). Before that, with axial set, lanes 0 .. 2n - 1 evaluate the
 * axial probes and raise E, and set K, where one misses what the axis
 * points in shared memory predict (pagani_probe_axial_floor); then, with
 * vertex set, when E <= below or E <= relative |V| (k's pair probes[2k],
 * probes[2k + 1]; with one integral and probes NULL, single_below and
 * single_relative: a region this iteration could finish), the warp takes
 * the 2^n vertex probes (pagani_vertex_probes), which raise E and set K
 * where f leaves the range of |f| the rule's points saw. A NaN or
 * infinite f counts as 0 and its (region, point) goes to nonfinite[k],
 * the smallest key kept (atomicMin on region << 21 | point), so the
 * report is deterministic.
 * The plain instance flags a region where f is steep at a face
 * (pagani_graded_steep on the axial probes' lanes): lane 0 appends
 * region << PAGANI_GRADED_VERTEX_BITS | v to graded_list (an atomicAdd on
 * *graded_count), v the vertex of the largest vertex probe when a probe
 * raised E and the vertex probes ran, else the vertex f leans to (bit d:
 * the upper axial probe of axis d the larger), as the CPU's grade picks.
 * The graded instance (rules/graded.h) takes a flagged region: the
 * group's first warp measures its grading into the group's
 * pagani_grading in shared memory (pagani_graded_measure; a barrier);
 * where an axis moves, the group evaluates the rule, the axial and
 * (always) the vertex probes on f under the grading, as above, and lane
 * 0 replaces V, E, K and the sign byte when f was finite at all those
 * points and E is below the plain pass's. f's calls (1 + 2n for the
 * measurement, the rule's points and probes when it moved) go to
 * graded_calls[k] (an atomicAdd), which classify reports (the plain
 * kernel zeroes them, pagani_cubature_evaluate).
 */
/* The evaluate kernels' parameters (both instances take the same), and
 * their names, which they pass on to pagani_evaluate_region. */
#define PAGANI_EVALUATE_PARAMS                                                       \
    const double *__restrict__ lower, const short *__restrict__ level,                \
        const signed char *__restrict__ parent_axis, long long stride, long long count, \
        const int *__restrict__ offsets, int integrals,                               \
        const double *__restrict__ initial, const double *__restrict__ rows,          \
        const double *__restrict__ consts,                                            \
        pagani_eval_shape shape, const char *params, unsigned long long params_stride, \
        double *__restrict__ value, double *__restrict__ error,                       \
        signed char *__restrict__ axis, unsigned char *__restrict__ error_sign,        \
        unsigned long long *nonfinite, int axial, int vertex,                         \
        const double *__restrict__ probes, double single_below, double single_relative, \
        unsigned long long *__restrict__ graded_list,                                 \
        unsigned int *__restrict__ graded_count,                                      \
        unsigned int *__restrict__ graded_count_next,                                 \
        unsigned long long *__restrict__ graded_calls
#define PAGANI_EVALUATE_ARGS                                                         \
    lower, level, parent_axis, stride, count, offsets, integrals, initial, rows, consts, \
        shape, params, params_stride, value, error, axis, error_sign, nonfinite,      \
        axial, vertex, probes, single_below, single_relative, graded_list, graded_count, \
        graded_count_next, graded_calls

template <bool GRADED>
__device__ __forceinline__ void
pagani_evaluate_region(long long index, long long entries, PAGANI_EVALUATE_PARAMS)
{
    extern __shared__ double pagani_smem[];
    const int tpr = shape.tpr;
    const int groups = blockDim.x / tpr;
    const int group = threadIdx.x / tpr;
    const int lane = threadIdx.x - group * tpr;
    const int nfd = 4 * PAGANI_N + 1;
    double *fd = pagani_smem + group * nfd;
    double *partial = pagani_smem + groups * nfd + group * (tpr / 32) * 7;
    /* the graded instance's: the group's slot after the partials */
    pagani_graded_slot *graded =
        (pagani_graded_slot *)(pagani_smem + groups * nfd + groups * (tpr / 32) * 7) + group;
    const pagani_grading *grading = &graded->grading;
    const bool live = index < entries;
    const unsigned long long entry = GRADED && live ? graded_list[index] : 0;
    const long long region = GRADED ? (long long)(entry >> PAGANI_GRADED_VERTEX_BITS) : index;
    const long long src = shape.implicit ? region >> 1 : region;
    const int side = (int)(region & 1);
    /* live is the same in every lane of a warp (tpr is whole warps); k is
     * found again (owner) where it is needed after the loop over the
     * points, so that only p stays in a register through it */
    const int k = live ? pagani_gpu_warp_integral_of(offsets, integrals, region) : 0;
    const void *p = params + k * params_stride;
    double c[PAGANI_N], h[PAGANI_N], lo[PAGANI_N];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, fmax_q = 0.0;
    double fmin_q = PAGANI_PROBE_NO_MIN;
    int split = -1; /* the parent's split axis (implicit lists) */
    bool bad = false; /* the graded instance's: f was not finite somewhere */

#if PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
    if (GRADED && live) {
        if (shape.implicit) split = parent_axis[src];
        pagani_eval_box(lower, level, stride, src, side, split, initial, k, c, h, lo);
        if (lane < 32)
            pagani_graded_measure(c, h, (int)(entry & ((1u << PAGANI_GRADED_VERTEX_BITS) - 1)),
                                  p, graded);
    }
#endif
    if (GRADED) __syncthreads(); /* the grading measured */
    /* the graded instance: the region's calls so far, and whether it is
     * graded at all */
    if (GRADED && live && lane == 0)
        atomicAdd(graded_calls + k,
                  (unsigned long long)(1 + 2 * PAGANI_N +
                                       (grading->vertex >= 0 ? shape.npoints + shape.nprobes
                                                             : 0)));
    const bool run = live && (!GRADED || grading->vertex >= 0);

    if (run) {
        const double gen = consts[PAGANI_EVC_CORNER_GEN];
        const int ne = shape.nexplicit;
        bool reported = false;
        if (!GRADED) {
            if (shape.implicit) split = parent_axis[src];
            pagani_eval_box(lower, level, stride, src, side, split, initial, k, c, h, lo);
        }
        PAGANI_UNROLL(PAGANI_EVAL_UNROLL)
        for (int q = lane; q < ne; q += tpr) {
            double xq[PAGANI_N];
            pagani_row_point(rows, q, c, h, xq);
            const double fq = pagani_eval_at<GRADED>(xq, p, q, region, offsets, integrals,
                                                     nonfinite, reported, fmax_q, fmin_q,
                                                     grading, lo, h, bad);
            const double2 *w =
                pagani_row(rows, q) + PAGANI_ROW_TILE * (PAGANI_ROW_COORDS(PAGANI_N) / 2);
            const double2 w01 = __ldg(w), w23 = __ldg(w + PAGANI_ROW_TILE);
            s0 = fma(w01.x, fq, s0);
            s1 = fma(w01.y, fq, s1);
            s2 = fma(w23.x, fq, s2);
            s3 = fma(w23.y, fq, s3);
            s4 = fma(__ldg(&w[2 * PAGANI_ROW_TILE].x), fq, s4);
            if (q < nfd) fd[q] = fq;
        }
        /* The 2^n corners c +- gen h, corner b (point ne + b) on the upper
         * side of axis d where bit d of b is clear. A thread's corners b =
         * lane, lane + tpr, ... share their bits below 5 (tpr is whole
         * warps), so their coordinates on those axes are set once; all
         * share one tuple of weights, by which their sum is weighed. */
        const int ncorners = shape.npoints - ne;
        if (lane < ncorners) {
            const double *w = consts + PAGANI_EVC_WEIGHTS + 5 * shape.corner_weights;
            double corner_sum = 0.0, xq[PAGANI_N];
#pragma unroll
            for (int d = 0; d < PAGANI_N; d++)
                xq[d] = pagani_corner_coordinate(lane, d, gen, c[d], h[d]);
            for (int b = lane; b < ncorners; b += tpr) {
#pragma unroll
                for (int d = PAGANI_LANE_BITS; d < PAGANI_N; d++)
                    xq[d] = pagani_corner_coordinate(b, d, gen, c[d], h[d]);
                const double fq = pagani_eval_at<GRADED>(xq, p, ne + b, region, offsets,
                                                         integrals, nonfinite, reported,
                                                         fmax_q, fmin_q, grading, lo, h,
                                                         bad);
                corner_sum += fq;
            }
            s0 = fma(w[0], corner_sum, s0);
            s1 = fma(w[1], corner_sum, s1);
            s2 = fma(w[2], corner_sum, s2);
            s3 = fma(w[3], corner_sum, s3);
            s4 = fma(w[4], corner_sum, s4);
        }
    }

    /* Every thread takes part in the reduction (whole warps per group). */
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        s0 += __shfl_down_sync(0xffffffffu, s0, off);
        s1 += __shfl_down_sync(0xffffffffu, s1, off);
        s2 += __shfl_down_sync(0xffffffffu, s2, off);
        s3 += __shfl_down_sync(0xffffffffu, s3, off);
        s4 += __shfl_down_sync(0xffffffffu, s4, off);
    }
    fmax_q = pagani_warp_max(fmax_q);
    fmin_q = pagani_warp_min(fmin_q);
    if ((lane & 31) == 0) {
        double *slot = partial + (lane >> 5) * 7;
        slot[0] = s0;
        slot[1] = s1;
        slot[2] = s2;
        slot[3] = s3;
        slot[4] = s4;
        slot[5] = fmax_q;
        slot[6] = fmin_q;
    }
    if (GRADED && bad) graded->bad = 1;
    __syncthreads();
    if (!run || lane >= 32) return;
    if (GRADED) bad = graded->bad != 0;

    /* The group's first warp: the region's integral, the five sums, the
     * same in every lane. */
    const int owner = pagani_gpu_warp_integral_of(offsets, integrals, region);
    double r0 = 0.0, r1 = 0.0, r2 = 0.0, r3 = 0.0, r4 = 0.0, volume = 1.0, e;
    int asymptotic = 1;
    fmax_q = 0.0;
    fmin_q = PAGANI_PROBE_NO_MIN;
    for (int w = 0; w < tpr / 32; w++) {
        r0 += partial[w * 7 + 0];
        r1 += partial[w * 7 + 1];
        r2 += partial[w * 7 + 2];
        r3 += partial[w * 7 + 3];
        r4 += partial[w * 7 + 4];
        fmax_q = fmax(fmax_q, partial[w * 7 + 5]);
        fmin_q = fmin(fmin_q, partial[w * 7 + 6]);
    }
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) volume *= h[d];
    if (shape.error_model == PAGANI_GPU_ERROR_KRONROD) {
        e = volume * fabs(r1);
    } else {
        /* Lane j takes terms (k, s) = (j / nsets + 1, j % nsets) and j + 32. */
        double e1 = 0.0, e2 = 0.0, e3 = 0.0;
        for (int j = lane; j < 3 * shape.nsets; j += 32) {
            const int k = j / shape.nsets + 1, s = j - (k - 1) * shape.nsets;
            const double rk = k == 1 ? r1 : k == 2 ? r2 : r3;
            const double rk1 = k == 1 ? r2 : k == 2 ? r3 : r4;
            const double v = pagani_gpu_null_term(consts, k, s, rk, rk1);
            if (k == 1) e1 = fmax(e1, v);
            else if (k == 2) e2 = fmax(e2, v);
            else e3 = fmax(e3, v);
        }
        e1 = pagani_warp_max(e1);
        e2 = pagani_warp_max(e2);
        e3 = pagani_warp_max(e3);
        asymptotic = pagani_gpu_asymptotic(consts, e1, e2, e3);
        e = pagani_gpu_combine(consts, volume, e1, e2, e3);
    }
    /* what is known of the error's sign; unknown once a probe raises E */
    unsigned char sign = pagani_error_sign(asymptotic, r1);

    /* Split axis: lane d takes axis d; the first largest difference wins,
     * else the first widest axis (as the serial loop picks them). */
    int split_axis = 0;
    if (PAGANI_N >= 2 && consts[PAGANI_EVC_RATIO] != 0.0) {
        const double diff = lane < PAGANI_N
            ? pagani_fourth_difference(PAGANI_N, consts[PAGANI_EVC_RATIO], fd, lane)
            : 0.0;
        const double dmax = pagani_warp_max(diff);
        if (dmax > 0.0) {
            split_axis = __ffs(__ballot_sync(0xffffffffu, diff == dmax)) - 1;
        } else {
            double l = 0.0, wd = -1.0;
            if (lane < PAGANI_N)
                pagani_gpu_child_box(lane, split, side, initial[owner * PAGANI_N + lane],
                                     level[lane * stride + src], &l, &wd);
            const double wmax = pagani_warp_max(wd);
            split_axis = __ffs(__ballot_sync(0xffffffffu, wd == wmax)) - 1;
        }
    }
#if PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
    /* the plain instance's: the vertex to grade the region toward, -1
     * while f is steep at none of its faces (only this and whether the
     * axial probes raised E stay live into the vertex probes) */
    int graded_vertex = -1;
    bool raised = false;
    if (axial) {
        double floor = 0.0, fq = 0.0;
        if (lane < 2 * PAGANI_N) {
            double xq[PAGANI_N];
#pragma unroll
            for (int d = 0; d < PAGANI_N; d++)
                xq[d] = pagani_probe_axial_coordinate(lane, d, c[d], h[d]);
            if (GRADED) {
                fq = pagani_eval_graded(xq, p, grading, lo, h, &bad);
            } else {
                fq = pagani_integrand_device(xq, p);
                if (!isfinite(fq)) {
                    atomicMin(nonfinite + owner,
                              ((unsigned long long)region << 21) |
                                  (unsigned long long)(shape.npoints + (1 << PAGANI_N) + lane));
                    fq = 0.0;
                }
            }
            floor = pagani_probe_axial_floor(
                volume, fd, PAGANI_N, lane / 2, lane & 1,
                (const pagani_axial_fit *)(consts + PAGANI_EVC_AXIAL_FIT), fq);
        }
        const double top = pagani_warp_max(floor);
        if (top > e) {
            e = top;
            split_axis = (__ffs(__ballot_sync(0xffffffffu, floor == top)) - 1) / 2;
            sign = 0;
            raised = true;
        }
        if (!GRADED &&
            __any_sync(0xffffffffu,
                       lane < 2 * PAGANI_N &&
                           pagani_graded_steep(
                               fd, PAGANI_N, lane / 2, lane & 1,
                               (const pagani_axial_fit *)(consts + PAGANI_EVC_AXIAL_FIT), fq))) {
            /* the vertex f leans to; lane 2d: the upper face of axis d,
             * lane 2d + 1 its lower */
            const double lower_face = __shfl_down_sync(0xffffffffu, fabs(fq), 1);
            const unsigned upper_larger = __ballot_sync(
                0xffffffffu, !(lane & 1) && lane < 2 * PAGANI_N && fabs(fq) > lower_face);
            graded_vertex = 0;
#pragma unroll
            for (int d = 0; d < PAGANI_N; d++)
                graded_vertex |= ((upper_larger >> 2 * d) & 1) << d;
        }
    }
    if (vertex) {
        const double below = probes ? probes[2 * owner] : single_below;
        const double relative = probes ? probes[2 * owner + 1] : single_relative;
        if ((GRADED || e <= below || e <= relative * fabs(volume * r0)) &&
            pagani_vertex_probes<GRADED>(c, h, volume, p, fmax_q, fmin_q, region,
                                         shape.npoints, nonfinite + owner, grading, lo, &bad,
                                         raised, &graded_vertex, &e, &split_axis))
            sign = 0;
    }
    if (GRADED) bad = __any_sync(0xffffffffu, bad);
    if (!GRADED && graded_vertex >= 0 && lane == 0)
        graded_list[atomicAdd(graded_count, 1u)] =
            (unsigned long long)region << PAGANI_GRADED_VERTEX_BITS |
            (unsigned long long)graded_vertex;
#endif
    if (lane == 0 && !(GRADED && (bad || !(e < error[region])))) {
        value[region] = volume * r0;
        error[region] = e;
        axis[region] = (signed char)split_axis;
        error_sign[region] = sign;
    }
}

/* The plain evaluation of every region of the list (pagani_evaluate_region,
 * one group of shape.tpr threads a region). Its first block also zeroes
 * what the graded pass counts into: graded_calls, which the last classify
 * read, and graded_count_next, which the next iteration's plain pass
 * appends to (this one appends to graded_count, which the last one
 * zeroed; the graded pass after it reads that count, so neither can be
 * zeroed here). */
extern "C" __global__ void __launch_bounds__(256, PAGANI_EVAL_MIN_BLOCKS)
pagani_cubature_evaluate(PAGANI_EVALUATE_PARAMS)
{
    const int groups = blockDim.x / shape.tpr;
    if (blockIdx.x == 0) {
        for (int k = threadIdx.x; k < integrals; k += blockDim.x) graded_calls[k] = 0;
        if (threadIdx.x == 0) *graded_count_next = 0;
    }
    pagani_evaluate_region<false>((long long)blockIdx.x * groups + threadIdx.x / shape.tpr,
                                  count, PAGANI_EVALUATE_ARGS);
}

/* The graded evaluation of the regions the plain one flagged: the
 * *graded_count entries of graded_list, a group each, the grid's blocks
 * striding over them (a grid sized for the list's capacity: blocks with
 * no entry return at once). Its arguments are the plain kernel's; count,
 * probes, single_below, single_relative and graded_count_next unused. */
extern "C" __global__ void __launch_bounds__(256, PAGANI_EVAL_MIN_BLOCKS)
pagani_cubature_evaluate_graded(PAGANI_EVALUATE_PARAMS)
{
    const int groups = blockDim.x / shape.tpr;
    const long long flagged = *graded_count;
    for (long long first = (long long)blockIdx.x * groups; first < flagged;
         first += (long long)gridDim.x * groups) {
        pagani_evaluate_region<true>(first + threadIdx.x / shape.tpr, flagged,
                                     PAGANI_EVALUATE_ARGS);
        __syncthreads(); /* the group's shared rows are reused */
    }
}
#endif /* !PAGANI_VECTOR */
