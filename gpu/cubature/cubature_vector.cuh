/*
 * cubature_vector.cuh - what the CUDA cubature keeps and does for an
 * integrand of several components (backend.h, "Vector integrands";
 * rules/component_norm.h): every region's V_c and E_c, the parents' V_c,
 * the integrals' group weights, the two-level error per component, and
 * the component sums of classify and filter_split. Included by
 * cuda_cubature.cu only (nvcc), after its state; the evaluation is the
 * NVRTC kernel of cubature_evaluate_vector.cuh. An integrand of one
 * component (ncomp 1) uses none of this.
 *
 * Memory (the vector arrays, carved from the slab after the scalar ones): per
 * region V_c and E_c (16 ncomp bytes), per pair of regions the parent's
 * V_c (8 ncomp), per tile of 256 regions 2 ncomp sums; per integral its
 * group weights, reference group and 2 ncomp sums. Every array of
 * components is region-major, [region * ncomp + c]: a warp reads or
 * writes a region's components in one go.
 *
 * Every sum is a fixed order over fixed tiles (no floating-point atomics)
 * and depends on the integral's own regions only. The host side is
 * cuda_cubature_vector.cuh.
 */

/* The vector arrays (device: carved from the slab after the scalar
 * lists) and the host's (cuda_cubature.vec). */
struct cubature_vector {
    int ncomp;                   /* 1: none of this is used */
    int norm, groups;            /* rules/component_norm.h */
    double *value, *error;       /* V_c, E_c: [region * ncomp + c] */
    double *parent;              /* parents' V_c: [pair * ncomp + c] */
    double *tile_sums;           /* 2 ncomp per tile */
    double *sums;                /* 2 ncomp per integral */
    double *weights;             /* groups per integral */
    int *reference;              /* per integral */
    size_t host_integrals;       /* what these hold: */
    double *host_sums;           /* 2 PAGANI_MAX_COMPONENTS per integral */
    classify_request *host_requests;
    int regions_per_block;       /* evaluate launches */
    size_t shared;               /* and their dynamic shared memory */
};

/* Integral k's classify request (as classify_kernel reads them). */
__device__ __forceinline__ classify_request
vector_request(const classify_request *requests, classify_request single, int k)
{
    return requests ? requests[k] : single;
}

/*
 * The two-level error of every component: one warp per tile of regions of
 * the integrals whose request says classify and has_parents. Lane l takes
 * the sibling pairs (2u, 2u + 1), u = l, l + 32, ..., of the tile and
 * applies to each component's errors the formula of classify_kernel with
 * the parent's V_c (parent[u * ncomp + c]); then it forms both regions'
 * (V, E) anew (pagani_region_pair with the integral's weights). A lone
 * last region has no sibling and keeps its errors.
 */
__global__ void __launch_bounds__(RED_THREADS) vector_two_level_kernel(
    tiling tl, const classify_request *__restrict__ requests,
    classify_request single, int ncomp, int norm, int groups,
    const double *__restrict__ weights, const int *__restrict__ reference,
    const double *__restrict__ comp_value, double *__restrict__ comp_error,
    const double *__restrict__ comp_parent, double *__restrict__ value,
    double *__restrict__ error)
{
    int t, k;
    long long start, end;
    if (!tile_of(tl, t, k, start, end)) return;
    const classify_request q = vector_request(requests, single, k);
    if (!q.classify || !q.has_parents) return; /* the whole warp */
    const double *w = weights + (size_t)k * groups;

    for (long long i = start + 2 * (threadIdx.x & 31); i + 1 < end; i += 64) {
        const double *v = comp_value + i * ncomp;
        double *e = comp_error + i * ncomp;
        for (int c = 0; c < ncomp; c++) {
            const double change = v[c] + v[ncomp + c] - comp_parent[(i / 2) * ncomp + c];
            const double left = e[c];
            e[c] = pagani_two_level_error(left, e[ncomp + c], change);
            e[ncomp + c] = pagani_two_level_error(e[ncomp + c], left, change);
        }
        pagani_region_pair(norm, ncomp, w, reference[k], v, e, 1, &value[i],
                           &error[i]);
        pagani_region_pair(norm, ncomp, w, reference[k], v + ncomp, e + ncomp,
                           1, &value[i + 1], &error[i + 1]);
    }
}

/* Which regions a component sum takes: all of a classified integral's, or
 * those filter_split drops (not active, or E <= the integral's
 * threshold). */
enum vector_sum_mode { VECTOR_SUM_CLASSIFY, VECTOR_SUM_DROPPED };

/* What the component sums read. */
struct vector_sum_args {
    int mode;                            /* vector_sum_mode */
    int ncomp;
    const classify_request *requests;    /* CLASSIFY: K of them, or NULL: */
    classify_request single;             /* the one integral's */
    const double *thresholds;            /* DROPPED: K of them, or NULL: */
    double single_threshold;             /* the one integral's */
    const unsigned char *active;
    const double *error;                 /* E */
    const double *comp_value, *comp_error;
};

/* Whether integral k takes part, and whether region i counts. */
__device__ __forceinline__ bool vector_sums_integral(const vector_sum_args &a,
                                                     int k)
{
    return a.mode != VECTOR_SUM_CLASSIFY ||
           vector_request(a.requests, a.single, k).classify;
}

__device__ __forceinline__ bool vector_sums_region(const vector_sum_args &a,
                                                   int k, long long i)
{
    const double t = a.thresholds ? a.thresholds[k] : a.single_threshold;
    return a.mode == VECTOR_SUM_CLASSIFY || !a.active[i] || a.error[i] <= t;
}

/*
 * Level 0 of the component sums: one warp per tile of regions; lane l
 * takes components l, l + 32 (< ncomp) and adds their V_c and E_c over
 * the tile's regions that count, in order, into tile_sums[t * 2 ncomp +
 * 2 c] and [... + 1].
 */
__global__ void __launch_bounds__(RED_THREADS)
    vector_tile_sums_kernel(tiling tl, vector_sum_args a,
                            double *__restrict__ tile_sums)
{
    int t, k;
    long long start, end;
    if (!tile_of(tl, t, k, start, end) || !vector_sums_integral(a, k)) return;
    for (int c = threadIdx.x & 31; c < a.ncomp; c += 32) {
        double sv = 0.0, se = 0.0;
        for (long long i = start; i < end; i++)
            if (vector_sums_region(a, k, i)) {
                sv += a.comp_value[i * a.ncomp + c];
                se += a.comp_error[i * a.ncomp + c];
            }
        tile_sums[(size_t)t * 2 * a.ncomp + 2 * c] = sv;
        tile_sums[(size_t)t * 2 * a.ncomp + 2 * c + 1] = se;
    }
}

/*
 * The integrals' component sums: block k takes integral k; thread j < 2
 * ncomp adds entry j of its tiles' sums in tile order into sums[k * 2
 * ncomp + j]. (tl: level 0 of the layout, as the tile kernel's.)
 */
__global__ void __launch_bounds__(RED_THREADS)
    vector_merge_kernel(tiling tl, vector_sum_args a,
                        const double *__restrict__ tile_sums,
                        double *__restrict__ sums)
{
    const int k = blockIdx.x, j = threadIdx.x, width = 2 * a.ncomp;
    if (j >= width || !vector_sums_integral(a, k)) return;
    const int first = tl.integrals == 1 ? 0 : tl.out_off[k];
    const int last = tl.integrals == 1 ? tl.tiles : tl.out_off[k + 1];
    double s = 0.0;
    for (int t = first; t < last; t++) s += tile_sums[(size_t)t * width + j];
    sums[(size_t)k * width + j] = s;
}

/* One thread per region: a kept region i (scan[i] = j) leaves its V_c as
 * the parent values of pair j, comp_parent[j * ncomp + c]. */
__global__ void __launch_bounds__(RED_THREADS)
vector_parent_kernel(long long count, int ncomp, const int *__restrict__ scan,
                     kept_flag kept, const double *__restrict__ comp_value,
                     double *__restrict__ comp_parent)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count || !kept((int)i)) return;
    const long long j = scan[i];
    for (int c = 0; c < ncomp; c++)
        comp_parent[j * ncomp + c] = comp_value[i * ncomp + c];
}


/* ---- sizes ---------------------------------------------------------- */

/* Bytes of the vector arrays per region (none for one component): V_c,
 * E_c, a parent's V_c per pair, a tile's sums per 256 regions. */
static size_t vector_bytes_per_region(int ncomp)
{
    return ncomp > 1
               ? (size_t)ncomp * (2 * sizeof(double) + sizeof(double) / 2 + 1)
               : 0;
}

/* Frees the host's arrays (the device's are the slab's); all zero
 * again. */
static void vector_free(cubature_vector *v)
{
    free(v->host_sums);
    free(v->host_requests);
    memset(v, 0, sizeof *v);
}
