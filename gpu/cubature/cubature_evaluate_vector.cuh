/*
 * cubature_evaluate_vector.cuh - PAGANI's EVALUATE step on the GPU for an
 * integrand of several components (PAGANI_VECTOR, gpu/jit/vector_eval.cuh):
 * the rule and the vertex probes in one kernel. Not compiled into the
 * library: cuda_cubature.cu pastes this text after cubature_warp.cuh,
 * cubature_probe.cuh and cubature_evaluate.cuh (whose scalar probes and
 * kernel are empty here; its region box, pagani_eval_box, is shared), so
 * NVRTC compiles it per integrand with the integrand inlined.
 * backend.h ("Vector integrands") and rules/component_norm.h say what is
 * computed; cpu_cubature_eval.c computes the same on the host.
 */
#if PAGANI_VECTOR

/* Rule points staged per round: the first round holds points 0 .. 4n,
 * those of the fourth differences; the probes' last round the axial
 * test's 6n + 1 values. */
#define PAGANI_VEC_ROWS ((PAGANI_PROBE_AXIAL_ROWS(PAGANI_N) + 31) / 32 * 32)
/* Components a lane owns: c = lane + 32 j, j < PAGANI_VEC_OWN. */
#define PAGANI_VEC_OWN ((PAGANI_NCOMP + 31) / 32)

/* The shared memory of one region (doubles): the staged values
 * [component][row] (rows + 1 apart: no bank conflicts), V_c and E_c, and
 * the rows' weight tuples (ints). The host sizes launches by the same
 * count (cuda_cubature_vector.cuh). */
#define PAGANI_VEC_REGION_DOUBLES                                            \
    (PAGANI_NCOMP * (PAGANI_VEC_ROWS + 1) + 2 * PAGANI_NCOMP +               \
     PAGANI_VEC_ROWS / 2)

/* f at rule or probe point x into the stage's row `row` (component c at
 * stage[c * (PAGANI_VEC_ROWS + 1) + row]), every component 0 when one is
 * not finite (reported once per region, point q: the smallest key is
 * kept, as the scalar kernel does); returns max_c weight(c) |f_c|. */
__device__ __forceinline__ double
pagani_vec_stage(const double *x, const void *p, double *stage, int row,
                 const double *group_weights, int group_size,
                 unsigned long long *nonfinite, long long region, int q,
                 bool *reported)
{
    double f[PAGANI_NCOMP], a = 0.0;
    bool finite = true;
    pagani_vector_eval(x, p, f);
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++) finite = finite && isfinite(f[c]);
    if (!finite && !*reported) {
        *reported = true;
        atomicMin(nonfinite,
                  ((unsigned long long)region << 21) | (unsigned long long)q);
    }
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++) {
        const double v = finite ? f[c] : 0.0;
        stage[c * (PAGANI_VEC_ROWS + 1) + row] = v;
        a = fmax(a, group_weights[c / group_size] * fabs(v));
    }
    return a;
}

/*
 * One region per warp (blockDim.x / 32 regions a block). The warp finds
 * the region's integral k, its box (as the scalar kernel), and takes the
 * rule's points in rounds of PAGANI_VEC_ROWS: lane l evaluates points
 * r + l, r + l + 32, ... of round r (all components at once) into the
 * region's stage in shared memory; then lane l, for each component c it
 * owns (c = l + 32 j), adds the round's rows in order to c's five rule
 * sums and largest |f_c|, and after the first round (points 0 .. 4n)
 * finds c's split axis (the first largest fourth difference, or none).
 * Each lane then forms V_c and the raw E_c of its components
 * (pagani_gpu_estimate), into shared memory; every lane forms (V, E) with
 * k's group weights (weights[k * groups ..], reference[k]) and the
 * component c* of the largest weighted E_c (the first on ties), whose
 * axis is the region's (else the first widest axis). With `axial` (the
 * job's probes), one more round stages the axis points again and the 2n
 * axial probes; each owner raises E_c to c's axial floors
 * (pagani_probe_axial_floor) where larger, and when any did the axis is
 * that of the largest weighted floor and (V, E) are formed anew. When the
 * launch probes (`probing`: the rule has probes and some integral uses
 * them) and E <= below or E <= relative |V|, k's pair (probes[2k],
 * probes[2k + 1]; with one integral and probes NULL, single_below and
 * single_relative), the lanes evaluate the 2^n
 * probes likewise, each keeping per axis the sum of +-a (a = max_c
 * weight(c) |f_c| at its probe) and each owner
 * the largest and smallest |f_c|; a component whose probes left the range
 * its rule points saw gets E_c = max(E_c, pagani_probe_floor(...)), and
 * then the axis is that of the largest |sum| and (V, E) are formed
 * anew. Lane 0 writes V, E and the axis, the owners V_c and E_c at
 * comp_value[region * PAGANI_NCOMP + c] (coalesced). Shared memory:
 * 5 doubles a weight tuple, PAGANI_VEC_REGION_DOUBLES a region.
 */
extern "C" __global__ void __launch_bounds__(128)
pagani_cubature_evaluate_vector(const double *__restrict__ lower,
                                const short *__restrict__ level,
                                const signed char *__restrict__ parent_axis,
                                long long stride, long long count,
                                const int *__restrict__ offsets, int integrals,
                                const double *__restrict__ initial,
                                const double *__restrict__ point_rows,
                                const int *__restrict__ tuples,
                                const double *__restrict__ consts,
                                pagani_eval_shape shape, const char *params,
                                unsigned long long params_stride,
                                double *__restrict__ value,
                                double *__restrict__ error,
                                signed char *__restrict__ axis,
                                unsigned long long *nonfinite,
                                double *__restrict__ comp_value,
                                double *__restrict__ comp_error,
                                const double *__restrict__ weights,
                                const int *__restrict__ reference, int norm,
                                int axial, int probing,
                                const double *__restrict__ probes,
                                double single_below, double single_relative)
{
    extern __shared__ double pagani_smem[];
    const int nw5 = 5 * shape.nweights, lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    double *stage = pagani_smem + nw5 + warp * PAGANI_VEC_REGION_DOUBLES;
    double *valc = stage + PAGANI_NCOMP * (PAGANI_VEC_ROWS + 1);
    double *errc = valc + PAGANI_NCOMP;
    int *row_tuple = (int *)(errc + PAGANI_NCOMP);
    const long long region = (long long)blockIdx.x * (blockDim.x >> 5) + warp;
    const long long src = shape.implicit ? region >> 1 : region;
    const int side = (int)(region & 1);
    const int group_size = pagani_group_size(norm, PAGANI_NCOMP);

    for (int t = threadIdx.x; t < nw5; t += blockDim.x)
        pagani_smem[t] = consts[PAGANI_EVC_WEIGHTS + t];
    __syncthreads();
    if (region >= count) return; /* the whole warp; no barrier follows */

    const int k = pagani_gpu_warp_integral_of(offsets, integrals, region);
    const void *p = params + k * params_stride;
    const double *gw = weights + (size_t)k * (PAGANI_NCOMP / group_size);
    const double gen = consts[PAGANI_EVC_CORNER_GEN];
    const double ratio = consts[PAGANI_EVC_RATIO];
    const int ne = shape.nexplicit;
    double c[PAGANI_N], h[PAGANI_N], lo[PAGANI_N], volume = 1.0;
    double sums[PAGANI_VEC_OWN][5], rule_max[PAGANI_VEC_OWN], rule_min[PAGANI_VEC_OWN];
    double best_diff[PAGANI_VEC_OWN];
    int best_axis[PAGANI_VEC_OWN];
    int split = shape.implicit ? parent_axis[src] : -1;
    bool reported = false;

    pagani_eval_box(lower, level, stride, src, side, split, initial, k, c, h, lo);
#pragma unroll
    for (int d = 0; d < PAGANI_N; d++) volume *= h[d];
#pragma unroll
    for (int j = 0; j < PAGANI_VEC_OWN; j++) {
        for (int i = 0; i < 5; i++) sums[j][i] = 0.0;
        rule_max[j] = best_diff[j] = 0.0;
        rule_min[j] = PAGANI_PROBE_NO_MIN;
        best_axis[j] = -1;
    }

#pragma unroll 1
    for (int r = 0; r < shape.npoints; r += PAGANI_VEC_ROWS) {
        const int rows = shape.npoints - r < PAGANI_VEC_ROWS ? shape.npoints - r
                                                             : PAGANI_VEC_ROWS;
#pragma unroll 1
        for (int row = lane; row < rows; row += 32) {
            const int q = r + row;
            double xq[PAGANI_N];
            if (q < ne) {
                pagani_row_point(point_rows, q, c, h, xq);
                row_tuple[row] = __ldg(tuples + q);
            } else {
                const int bits = q - ne;
#pragma unroll
                for (int d = 0; d < PAGANI_N; d++)
                    xq[d] = pagani_corner_coordinate(bits, d, gen, c[d], h[d]);
                row_tuple[row] = shape.corner_weights;
            }
            pagani_vec_stage(xq, p, stage, row, gw, group_size, nonfinite + k,
                             region, q, &reported);
        }
        __syncwarp();
#pragma unroll
        for (int j = 0; j < PAGANI_VEC_OWN; j++) {
            const int comp = lane + 32 * j;
            const double *fc = stage + comp * (PAGANI_VEC_ROWS + 1);
            if (comp >= PAGANI_NCOMP) break;
#pragma unroll 1
            for (int row = 0; row < rows; row++) {
                const double fq = fc[row],
                             *w = pagani_smem + 5 * row_tuple[row];
                rule_max[j] = fmax(rule_max[j], fabs(fq));
                rule_min[j] = fmin(rule_min[j], fabs(fq));
#pragma unroll
                for (int i = 0; i < 5; i++)
                    sums[j][i] = fma(w[i], fq, sums[j][i]);
            }
            if (r == 0 && PAGANI_N >= 2 && ratio != 0.0)
#pragma unroll 1
                for (int d = 0; d < PAGANI_N; d++) {
                    const double diff =
                        pagani_fourth_difference(PAGANI_N, ratio, fc, d);
                    if (diff > best_diff[j]) {
                        best_diff[j] = diff;
                        best_axis[j] = d;
                    }
                }
        }
        __syncwarp();
    }

#pragma unroll
    for (int j = 0; j < PAGANI_VEC_OWN; j++) {
        const int comp = lane + 32 * j;
        if (comp < PAGANI_NCOMP)
            pagani_gpu_estimate(consts, shape.nsets, shape.error_model, sums[j],
                                volume, &valc[comp], &errc[comp]);
    }
    __syncwarp();

    /* the component of the largest weighted raw error gives the axis */
    int worst = 0, split_axis = 0;
    for (int comp = 1; comp < PAGANI_NCOMP; comp++)
        if (gw[comp / group_size] * errc[comp] >
            gw[worst / group_size] * errc[worst])
            worst = comp;
    {
        int mine = -1;
#pragma unroll
        for (int j = 0; j < PAGANI_VEC_OWN; j++)
            if (lane + 32 * j == worst) mine = best_axis[j];
        split_axis = __shfl_sync(0xffffffffu, mine, worst & 31);
    }
    if (split_axis < 0) { /* no fourth difference: the first widest axis */
        double l = 0.0, wd = -1.0;
        if (lane < PAGANI_N)
            pagani_gpu_child_box(lane, split, side,
                                 initial[k * PAGANI_N + lane],
                                 level[lane * stride + src], &l, &wd);
        const double wmax = pagani_warp_max(wd);
        split_axis = __ffs(__ballot_sync(0xffffffffu, wd == wmax)) - 1;
    }
    if (PAGANI_N < 2 || ratio == 0.0) split_axis = 0;

    double v, e;
    pagani_region_pair(norm, PAGANI_NCOMP, gw, reference[k], valc, errc, 1, &v,
                       &e);

#if PAGANI_N >= 2 && PAGANI_N <= PAGANI_PROBE_MAX_DIM
    if (axial) {
        /* The axial test, on every region, in one round: rows 0 .. 4n the
         * rule's axis points again (the first round's are gone), 4n + 1
         * .. 6n the axial probes; PAGANI_VEC_ROWS >= 6n + 1. */
        const int vertices = 1 << PAGANI_N;
        double axial_best = 0.0;
        int axial_j = -1;
        bool raised = false;
#pragma unroll 1
        for (int row = lane; row < 6 * PAGANI_N + 1; row += 32) {
            double xq[PAGANI_N];
            int q;
            if (row <= 4 * PAGANI_N) {
                q = row;
                pagani_row_point(point_rows, q, c, h, xq);
            } else {
                const int jx = row - 4 * PAGANI_N - 1;
                q = shape.npoints + vertices + jx;
#pragma unroll
                for (int d = 0; d < PAGANI_N; d++)
                    xq[d] = pagani_probe_axial_coordinate(jx, d, c[d], h[d]);
            }
            pagani_vec_stage(xq, p, stage, row, gw, group_size, nonfinite + k,
                             region, q, &reported);
        }
        __syncwarp();
        {
            const pagani_axial_fit *fit =
                (const pagani_axial_fit *)(consts + PAGANI_EVC_AXIAL_FIT);
#pragma unroll 1
            for (int jx = 0; jx < 2 * PAGANI_N; jx++)
#pragma unroll
                for (int j = 0; j < PAGANI_VEC_OWN; j++) {
                    const int comp = lane + 32 * j;
                    if (comp >= PAGANI_NCOMP) break;
                    const double *fc = stage + comp * (PAGANI_VEC_ROWS + 1);
                    const double floor = pagani_probe_axial_floor(
                        volume, fc, PAGANI_N, jx / 2, jx & 1, fit, fc[4 * PAGANI_N + 1 + jx]);
                    if (floor * gw[comp / group_size] > axial_best) {
                        axial_best = floor * gw[comp / group_size];
                        axial_j = jx;
                    }
                    if (floor > errc[comp]) {
                        errc[comp] = floor;
                        raised = true;
                    }
                }
        }
        __syncwarp();
        if (__any_sync(0xffffffffu, raised)) {
            /* the axial probe of the largest weighted floor, the lowest j
             * on ties */
            const double top = pagani_warp_max(axial_best);
            int first_j = axial_best == top ? axial_j : 1 << 30;
            for (int off = 16; off > 0; off >>= 1)
                first_j = min(first_j, __shfl_xor_sync(0xffffffffu, first_j, off));
            split_axis = first_j / 2;
            pagani_region_pair(norm, PAGANI_NCOMP, gw, reference[k], valc, errc, 1, &v,
                               &e);
        }
    }
    const double below = probes ? probes[2 * k] : single_below;
    const double relative = probes ? probes[2 * k + 1] : single_relative;
    if (probing &&
        (e <= below || e <= relative * fabs(v))) {
        const int vertices = 1 << PAGANI_N;
        double across[PAGANI_N], probe_max[PAGANI_VEC_OWN], probe_min[PAGANI_VEC_OWN];
        bool missed = false;
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++) across[d] = 0.0;
#pragma unroll
        for (int j = 0; j < PAGANI_VEC_OWN; j++) {
            probe_max[j] = 0.0;
            probe_min[j] = PAGANI_PROBE_NO_MIN;
        }
#pragma unroll 1
        for (int r = 0; r < vertices; r += PAGANI_VEC_ROWS) {
            const int rows = vertices - r < PAGANI_VEC_ROWS ? vertices - r
                                                            : PAGANI_VEC_ROWS;
#pragma unroll 1
            for (int row = lane; row < rows; row += 32) {
                const int pv = r + row;
                double xq[PAGANI_N], a;
#pragma unroll
                for (int d = 0; d < PAGANI_N; d++)
                    xq[d] = pagani_probe_coordinate(pv, d, c[d], h[d]);
                a = pagani_vec_stage(xq, p, stage, row, gw, group_size,
                                     nonfinite + k, region, shape.npoints + pv,
                                     &reported);
#pragma unroll
                for (int d = 0; d < PAGANI_N; d++)
                    across[d] += ((pv >> d) & 1) ? a : -a;
            }
            __syncwarp();
#pragma unroll
            for (int j = 0; j < PAGANI_VEC_OWN; j++) {
                const int comp = lane + 32 * j;
                if (comp >= PAGANI_NCOMP) break;
                for (int row = 0; row < rows; row++) {
                    const double a = fabs(stage[comp * (PAGANI_VEC_ROWS + 1) + row]);
                    probe_max[j] = fmax(probe_max[j], a);
                    probe_min[j] = fmin(probe_min[j], a);
                }
            }
            __syncwarp();
        }
#pragma unroll
        for (int j = 0; j < PAGANI_VEC_OWN; j++) {
            const int comp = lane + 32 * j;
            if (comp >= PAGANI_NCOMP) break;
            const double floor = pagani_probe_floor(volume, probe_max[j], probe_min[j],
                                                    rule_max[j], rule_min[j]);
            if (floor > errc[comp]) {
                errc[comp] = floor;
                missed = true;
            }
        }
        if (__any_sync(0xffffffffu, missed)) {
            double best = -1.0;
            __syncwarp();
#pragma unroll
            for (int d = 0; d < PAGANI_N; d++) {
                double sum = across[d];
                for (int off = 16; off > 0; off >>= 1)
                    sum += __shfl_xor_sync(0xffffffffu, sum, off);
                if (fabs(sum) > best) {
                    best = fabs(sum);
                    split_axis = d;
                }
            }
            pagani_region_pair(norm, PAGANI_NCOMP, gw, reference[k], valc, errc,
                               1, &v, &e);
        }
    }
#endif

#pragma unroll
    for (int j = 0; j < PAGANI_VEC_OWN; j++) {
        const int comp = lane + 32 * j;
        if (comp < PAGANI_NCOMP) {
            comp_value[region * PAGANI_NCOMP + comp] = valc[comp];
            comp_error[region * PAGANI_NCOMP + comp] = errc[comp];
        }
    }
    if (lane == 0) {
        value[region] = v;
        error[region] = e;
        axis[region] = (signed char)split_axis;
    }
}

#endif /* PAGANI_VECTOR */
