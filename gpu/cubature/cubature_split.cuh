/*
 * cubature_split.cuh - FILTER_SPLIT's split on the GPU: which regions a
 * split keeps (kept_flag, the scan's input) and the kernel that writes
 * the kept ones as the parents of the next list. Included by
 * cuda_cubature.cu only (nvcc), after cubature_tiles.cuh.
 */

/* ---- FILTER_SPLIT's split -------------------------------------------- */

/* The kept flag of item i of the scan over count + 1 items (the last, 0,
 * makes the scan's last entry the total): active, and with a threshold
 * t >= 0 not E <= t. With several integrals mark_kept_kernel has applied
 * theirs and t is -1; a single integral's is applied here, sparing that
 * pass. */
struct kept_flag {
    const unsigned char *active;
    const double *error;
    double t;
    long long count;
    __host__ __device__ int operator()(int i) const
    {
        return i < count && active[i] && (t < 0 || !(error[i] <= t));
    }
};

typedef thrust::transform_iterator<kept_flag, thrust::counting_iterator<int>, int> kept_iter;

/* The scan of a short list in one launch instead of CUB's two (and its
 * occupancy query on the host): up to SMALL_SCAN_MAX items. */
#define SMALL_SCAN_THREADS 1024
#define SMALL_SCAN_ITEMS 16
#define SMALL_SCAN_MAX (SMALL_SCAN_THREADS * SMALL_SCAN_ITEMS)

/*
 * One block: the exclusive sum of the kept flags of items 0 .. items - 1
 * (items <= SMALL_SCAN_MAX), into scan, the same integers as
 * DeviceScan::ExclusiveSum. Thread t takes the SMALL_SCAN_ITEMS
 * consecutive items from t * SMALL_SCAN_ITEMS; cub::BlockScan adds the
 * threads' totals.
 */
__global__ void __launch_bounds__(SMALL_SCAN_THREADS)
small_scan_kernel(kept_flag kept, int items, int *__restrict__ scan)
{
    typedef cub::BlockScan<int, SMALL_SCAN_THREADS> block_scan;
    __shared__ typename block_scan::TempStorage temp;
    const int first = threadIdx.x * SMALL_SCAN_ITEMS;
    int flags[SMALL_SCAN_ITEMS];

#pragma unroll
    for (int j = 0; j < SMALL_SCAN_ITEMS; j++)
        flags[j] = first + j < items ? kept(first + j) : 0;
    block_scan(temp).ExclusiveSum(flags, flags);
#pragma unroll
    for (int j = 0; j < SMALL_SCAN_ITEMS; j++)
        if (first + j < items) scan[first + j] = flags[j];
}

/*
 * One thread per region: a kept region i (kept(i); scan[i] = j, its rank
 * among the kept) becomes parent j of the next
 * list: its box (lower corner and halving levels, read, or derived from
 * its own parent when the list is implicit, with its integral's initial
 * widths) goes to slot j of the other buffer with its split axis, and its
 * value to parent[j] for the next two-level error. Its halves, regions 2j
 * and 2j+1, are never stored.
 */
__global__ void __launch_bounds__(RED_THREADS)
split_kernel(int n, long long stride, long long count, int implicit,
             const int *__restrict__ offsets, int integrals, const double *__restrict__ initial,
             const double *__restrict__ lower, const short *__restrict__ level,
             const signed char *__restrict__ parent_axis,
             double *__restrict__ next_lower, short *__restrict__ next_level,
             signed char *__restrict__ next_parent_axis,
             const signed char *__restrict__ axis, const double *__restrict__ value,
             double *__restrict__ parent, const int *__restrict__ scan, kept_flag kept)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count || !kept((int)i)) return;
    const long long j = scan[i];
    const long long src = implicit ? i >> 1 : i;
    const int split = implicit ? parent_axis[src] : -1, side = (int)(i & 1);
    const double *w0 = initial + (long long)pagani_gpu_integral_of(offsets, integrals, i) * n;
    for (int d = 0; d < n; d++) {
        const int k = level[d * stride + src];
        double l = lower[d * stride + src], w;
        pagani_gpu_child_box(d, split, side, w0[d], k, &l, &w);
        next_lower[d * stride + j] = l;
        next_level[d * stride + j] = (short)pagani_gpu_child_level(d, split, k);
    }
    next_parent_axis[j] = axis[i];
    parent[j] = value[i];
}
