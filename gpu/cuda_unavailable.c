/*
 * cuda_unavailable.c - stands in for the CUDA backend when libpagani was
 * configured without CUDA: there is no such backend to offer.
 */
#include "backend.h"

const backend_ops *pagani_cuda_backend(void) { return NULL; }
