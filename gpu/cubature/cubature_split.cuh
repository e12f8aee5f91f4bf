/*
 * cubature_split.cuh - FILTER_SPLIT's split on the GPU: which regions a
 * split keeps (kept_flag, the scan's input), the kernel that writes the
 * kept ones as the parents of the next list, and for short lists one
 * kernel that scans and splits. Included by cuda_cubature.cu only
 * (nvcc), after cubature_tiles.cuh.
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

/* Where a split reads the kept regions and writes them as the parents
 * of the next list. */
struct split_args {
    int n;
    long long stride;
    int implicit;               /* the list holds parents */
    const int *offsets;         /* the layout's first row (K > 1) */
    int integrals;
    const double *initial;      /* initial widths [k * n + d] */
    const double *lower;
    const short *level;
    const signed char *parent_axis;
    double *next_lower;
    short *next_level;
    signed char *next_parent_axis;
    const signed char *axis;    /* each region's split axis */
    const double *value;
    double *parent;             /* V of the next list's parents */
};

/* Kept region i (rank j among the kept) becomes parent j of the next
 * list: its box (lower corner and halving levels, read, or derived from
 * its own parent when the list is implicit, with its integral's initial
 * widths) goes to slot j of the other buffer with its split axis, and its
 * value to parent[j] for the next two-level error. Its halves, regions
 * 2j and 2j+1, are never stored. */
__device__ __forceinline__ void split_one(const split_args &a, long long i, long long j)
{
    const long long src = a.implicit ? i >> 1 : i;
    const int split = a.implicit ? a.parent_axis[src] : -1, side = (int)(i & 1);
    const double *w0 =
        a.initial + (long long)pagani_gpu_integral_of(a.offsets, a.integrals, i) * a.n;
    for (int d = 0; d < a.n; d++) {
        const int k = a.level[d * a.stride + src];
        double l = a.lower[d * a.stride + src], w;
        pagani_gpu_child_box(d, split, side, w0[d], k, &l, &w);
        a.next_lower[d * a.stride + j] = l;
        a.next_level[d * a.stride + j] = (short)pagani_gpu_child_level(d, split, k);
    }
    a.next_parent_axis[j] = a.axis[i];
    a.parent[j] = a.value[i];
}

/* Lists of up to this many scan items (regions + 1) are scanned, and
 * split, by short_split_kernel: one launch instead of CUB's two (and its
 * occupancy query on the host) and the split's. */
#define SHORT_SPLIT_MAX 16384

/*
 * The scan of a short list's kept flags (items = count + 1 <=
 * SHORT_SPLIT_MAX; the last item, never kept, gets the total) and, with
 * `split`, the split itself: one thread per item, block b the items from
 * b * RED_THREADS. Each block first counts the kept flags before its
 * first item (every block again: on a short list cheaper than a second
 * launch), a cub::BlockReduce, then ranks its own with cub::BlockScan:
 * scan[i], the same integers as DeviceScan::ExclusiveSum. With split a
 * kept region is written as split_kernel writes it.
 */
__global__ void __launch_bounds__(RED_THREADS)
short_split_kernel(split_args a, kept_flag kept, int items, int *__restrict__ scan, int split)
{
    typedef cub::BlockReduce<int, RED_THREADS> block_reduce;
    typedef cub::BlockScan<int, RED_THREADS> block_scan;
    __shared__ union {
        typename block_reduce::TempStorage reduce;
        typename block_scan::TempStorage scan;
    } temp;
    __shared__ int before;
    const int first = blockIdx.x * RED_THREADS, i = first + threadIdx.x;
    int flag = 0, rank;

    for (int j = threadIdx.x; j < first; j += RED_THREADS) flag += kept(j);
    flag = block_reduce(temp.reduce).Sum(flag);
    if (threadIdx.x == 0) before = flag;
    __syncthreads();
    flag = i < items && kept(i);
    block_scan(temp.scan).ExclusiveSum(flag, rank);
    rank += before;
    if (i < items) scan[i] = rank;
    if (split && flag) split_one(a, i, rank);
}

/* One thread per region: kept region i becomes parent scan[i] of the
 * next list (split_one). */
__global__ void __launch_bounds__(RED_THREADS)
split_kernel(split_args a, long long count, const int *__restrict__ scan, kept_flag kept)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count || !kept((int)i)) return;
    split_one(a, i, scan[i]);
}
