# PAGANI_VEGAS on the CUDA backend (filled in with the GPU kernels).
