/*
 * cubature_evaluate.cuh - PAGANI's EVALUATE step on the GPU. Not compiled
 * into the library: cuda_cubature.cu pastes this text, after the wrapped
 * integrand (pagani_source_wrap, PAGANI_TARGET_CUDA) and cubature_math.h,
 * into one translation unit that NVRTC compiles per integrand with
 * -DPAGANI_N=n, so the integrand is inlined and every loop over the
 * dimension has a compile-time trip count (coordinates stay in registers).
 */
#ifndef PAGANI_N
#error "PAGANI_N (the dimension) must be defined"
#endif

/*
 * One region per group of shape.tpr threads (a whole number of warps);
 * blockDim.x / tpr groups per block, so small rules put several regions in
 * a block. Thread `lane` of a group takes rule points lane, lane + tpr, ...
 * of its region: explicit points from the packed table (coalesced 16-byte
 * loads), then the 2^n corners generated from the bits of the point index.
 * Each thread keeps the five weighted sums r_0..r_4; a warp-shuffle tree
 * and a fixed-order pass over the group's warps reduce them (deterministic
 * for a given tpr). f at points 0 .. 4n goes to shared memory for the
 * fourth differences. Lane 0 then writes the region's value V, raw error E
 * (pagani_gpu_estimate) and split axis K. A NaN or infinite f counts as 0
 * and its (region, point) goes to *nonfinite, the smallest key kept
 * (atomicMin on region << 21 | point), so the report is deterministic.
 */
#ifndef PAGANI_EVAL_MIN_BLOCKS
#define PAGANI_EVAL_MIN_BLOCKS 1
#endif

extern "C" __global__ void __launch_bounds__(256, PAGANI_EVAL_MIN_BLOCKS)
pagani_cubature_evaluate(const double *__restrict__ lower,
                         const double *__restrict__ width,
                         long long stride, long long count,
                         const double2 *__restrict__ points,
                         const double *__restrict__ consts,
                         pagani_eval_shape shape, const void *params,
                         double *__restrict__ value,
                         double *__restrict__ error,
                         signed char *__restrict__ axis,
                         unsigned long long *nonfinite)
{
    extern __shared__ double pagani_smem[];
    const int tpr = shape.tpr;
    const int groups = blockDim.x / tpr;
    const int group = threadIdx.x / tpr;
    const int lane = threadIdx.x - group * tpr;
    const int nw5 = 5 * shape.nweights;
    const int nfd = 4 * PAGANI_N + 1;
    double *weights = pagani_smem;
    double *fd = pagani_smem + nw5 + group * nfd;
    double *partial = pagani_smem + nw5 + groups * nfd + group * (tpr / 32) * 5;
    const long long region = (long long)blockIdx.x * groups + group;
    const bool live = region < count;
    double c[PAGANI_N], h[PAGANI_N];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;

    for (int t = threadIdx.x; t < nw5; t += blockDim.x)
        weights[t] = consts[PAGANI_EVC_WEIGHTS + t];
    __syncthreads();

    if (live) {
        const double gen = consts[PAGANI_EVC_CORNER_GEN];
        bool reported = false;
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++) {
            h[d] = width[d * stride + region];
            c[d] = lower[d * stride + region] + 0.5 * h[d];
        }
#pragma unroll 1
        for (int q = lane; q < shape.npoints; q += tpr) {
            double xq[PAGANI_N];
            double fq;
            int tuple;
            if (q < shape.nexplicit) {
                const double2 a = __ldg(points + 2 * q);
                const double2 b = __ldg(points + 2 * q + 1);
                const long long meta = __double_as_longlong(b.y);
                const int a0 = pagani_pack_axis(meta, 0);
                const int a1 = pagani_pack_axis(meta, 1);
                const int a2 = pagani_pack_axis(meta, 2);
                tuple = pagani_pack_weights(meta);
#pragma unroll
                for (int d = 0; d < PAGANI_N; d++) {
                    const double o = d == a0 ? a.x : d == a1 ? a.y : d == a2 ? b.x : 0.0;
                    xq[d] = fma(o, h[d], c[d]);
                }
            } else {
                const int bits = q - shape.nexplicit;
#pragma unroll
                for (int d = 0; d < PAGANI_N; d++)
                    xq[d] = fma(((bits >> d) & 1) ? -gen : gen, h[d], c[d]);
                tuple = shape.corner_weights;
            }
            fq = pagani_integrand_device(xq, params);
            if (!isfinite(fq)) {
                if (!reported) {
                    reported = true;
                    atomicMin(nonfinite,
                              ((unsigned long long)region << 21) | (unsigned long long)q);
                }
                fq = 0.0;
            }
            {
                const double *w = weights + 5 * tuple;
                s0 = fma(w[0], fq, s0);
                s1 = fma(w[1], fq, s1);
                s2 = fma(w[2], fq, s2);
                s3 = fma(w[3], fq, s3);
                s4 = fma(w[4], fq, s4);
            }
            if (q < nfd) fd[q] = fq;
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
    if ((lane & 31) == 0) {
        double *slot = partial + (lane >> 5) * 5;
        slot[0] = s0;
        slot[1] = s1;
        slot[2] = s2;
        slot[3] = s3;
        slot[4] = s4;
    }
    __syncthreads();
    if (live && lane == 0) {
        double r[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
        double volume = 1.0, v, e;
        for (int w = 0; w < tpr / 32; w++)
            for (int k = 0; k < 5; k++) r[k] += partial[w * 5 + k];
#pragma unroll
        for (int d = 0; d < PAGANI_N; d++) volume *= h[d];
        pagani_gpu_estimate(consts, shape.nsets, shape.error_model, r, volume, &v, &e);
        value[region] = v;
        error[region] = e;
        axis[region] = (signed char)(consts[PAGANI_EVC_RATIO] != 0.0
            ? pagani_gpu_split_axis(PAGANI_N, consts[PAGANI_EVC_RATIO], fd, h)
            : 0);
    }
}
