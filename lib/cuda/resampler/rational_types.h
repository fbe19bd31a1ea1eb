/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RATIONAL_TYPES_H
#define INCLUDED_GPUFILTER_CUDA_RATIONAL_TYPES_H

// The one list of (input, output, tap) types the rational engine is built for:
// gr-filter's rational_resampler and interp_fir_filter types (ccc, ccf, fcc, fff,
// fsf, scc). Every explicit instantiation expands it.

#include "../common/sample_types.h"
#include <cstdint>

#define GPUFILTER_FOR_EACH_RATIONAL_TYPE(X)                                  \
    X(::gr::gpufilter::cuda::complex,                                        \
      ::gr::gpufilter::cuda::complex,                                        \
      ::gr::gpufilter::cuda::complex)                                        \
    X(::gr::gpufilter::cuda::complex, ::gr::gpufilter::cuda::complex, float) \
    X(float, ::gr::gpufilter::cuda::complex, ::gr::gpufilter::cuda::complex) \
    X(float, float, float)                                                   \
    X(float, std::int16_t, float)                                            \
    X(std::int16_t, ::gr::gpufilter::cuda::complex, ::gr::gpufilter::cuda::complex)

#endif
