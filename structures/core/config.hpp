// Compiler glue shared by every back-end of the team-and-memory layer.
#pragma once

#if defined(__CUDACC__)
#define WC_HD __host__ __device__
#define WC_DEVICE __device__
#else
#define WC_HD
#define WC_DEVICE
#endif

#if defined(__CUDA_ARCH__)
#define WC_FORCE_INLINE __forceinline__
#else
#define WC_FORCE_INLINE inline __attribute__((always_inline))
#endif
