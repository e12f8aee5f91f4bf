/*
 * hostdevice.h - what the code shared by the host and the GPU kernels (the
 * sampling headers, gpu/cubature/cubature_math.h) needs to compile the same
 * under C, nvcc and NVRTC. No #include: NVRTC gets this text pasted in front
 * of the headers that use it (build-aux/kernel-src).
 *
 * PAGANI_HD: a static inline function for the host and the device.
 *
 * PAGANI_DMUL / PAGANI_DADD: a product and a sum that on the device are
 * never fused into FMAs (__dmul_rn/__dadd_rn), so the host (x86-64, which
 * has no FMA contraction by default) and the GPU compute the same bits.
 */
#ifndef PAGANI_HOSTDEVICE_H
#define PAGANI_HOSTDEVICE_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PAGANI_HD static __host__ __device__ __forceinline__
#else
#define PAGANI_HD static inline
#endif

#if defined(__CUDA_ARCH__)
#define PAGANI_DMUL(a, b) __dmul_rn((a), (b))
#define PAGANI_DADD(a, b) __dadd_rn((a), (b))
#else
#define PAGANI_DMUL(a, b) ((a) * (b))
#define PAGANI_DADD(a, b) ((a) + (b))
#endif

#endif /* PAGANI_HOSTDEVICE_H */
