/*
 * cubature_warp.cuh - what the cubature kernels (cubature_probe.cuh,
 * cubature_evaluate.cuh, cubature_evaluate_vector.cuh) do across a warp,
 * and the range of |f| a thread keeps.
 * Not compiled into the library: cuda_cubature.cu pastes this text in
 * front of those kernels, which NVRTC compiles per integrand.
 */

/* log2 of a warp's 32 lanes: the points a lane takes by index lane,
 * lane + 32 m, ... (the rule's corners, the vertex probes) share the
 * index's bits below it. */
#define PAGANI_LANE_BITS 5

/* Widens a thread's range [lo, hi] of |f| to hold a (plain comparisons:
 * a NaN leaves it alone, as fmax and fmin would, in fewer instructions). */
__device__ __forceinline__ void pagani_range_add(double a, double &hi, double &lo)
{
    if (a > hi) hi = a;
    if (a < lo) lo = a;
}

/* Warp-wide maximum and minimum (exact, so the order does not matter). */
__device__ __forceinline__ double pagani_warp_max(double v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

__device__ __forceinline__ double pagani_warp_min(double v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmin(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

/* The `index` of the lane whose `v` is the warp's largest, the smallest
 * such index on ties (a lane's index: the first of its largest). */
__device__ __forceinline__ int pagani_warp_argmax(double v, int index)
{
    const double top = pagani_warp_max(v);
    int least = v == top ? index : 0x7fffffff;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) least = min(least, __shfl_xor_sync(0xffffffffu, least, off));
    return least;
}
