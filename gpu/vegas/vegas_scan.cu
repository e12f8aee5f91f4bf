/*
 * vegas_scan.cu - Vegas+ on the GPU: the per-cube sample counts from the
 * sigma_c^beta of the last pass, and their exclusive scan into sample
 * offsets with CUB (compiled by nvcc; it does not depend on the integrand,
 * so it is not NVRTC-compiled). Integer scan: exact, deterministic.
 */
#include <cub/device/device_scan.cuh>
#include "gpu/vegas/cuda_vegas.h"

/*
 * counts[c] = clamp(floor(target * sigma[c] / beta_sum), 2, cap), or
 * `samples` when beta_sum is 0: the same arithmetic as the CPU backend
 * (src/cpu/cpu_vegas.c). One thread per cube, grid-stride.
 */
__global__ void pagani_vegas_counts(const double *sigma, long long cubes,
                                    double beta_sum, long long target,
                                    long long samples, long long cap,
                                    long long *counts)
{
    for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < cubes;
         c += (long long)gridDim.x * blockDim.x) {
        double want = beta_sum > 0.0 ? floor((double)target * sigma[c] / beta_sum)
                                     : (double)samples;
        long long nc = want >= (double)cap ? cap : (long long)want;
        counts[c] = nc < 2 ? 2 : nc;
    }
}

extern "C" cudaError_t cuda_vegas_scan_bytes(long long cubes, size_t *bytes)
{
    *bytes = 0;
    return cub::DeviceScan::ExclusiveSum(NULL, *bytes, (const long long *)NULL,
                                         (long long *)NULL, cubes + 1);
}

extern "C" cudaError_t cuda_vegas_scan(cudaStream_t stream, const long long *counts,
                                       long long cubes, long long *offsets, void *temp,
                                       size_t temp_bytes)
{
    /* counts[cubes] is 0, so offsets[cubes] is the total */
    return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, counts, offsets,
                                         cubes + 1, stream);
}

extern "C" cudaError_t cuda_vegas_stratify(cudaStream_t stream, const double *sigma,
                                           long long cubes, double beta_sum,
                                           long long target, long long samples,
                                           long long cap, long long *counts,
                                           long long *offsets, void *temp,
                                           size_t temp_bytes)
{
    long long blocks = (cubes + 255) / 256;
    cudaError_t err;

    if (blocks > 65536) blocks = 65536;
    pagani_vegas_counts<<<(unsigned)blocks, 256, 0, stream>>>(
        sigma, cubes, beta_sum, target, samples, cap, counts);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
    return cuda_vegas_scan(stream, counts, cubes, offsets, temp, temp_bytes);
}
