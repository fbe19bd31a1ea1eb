/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_TYPES_H
#define INCLUDED_GPUFILTER_CUDA_FIR_TYPES_H

// The one list of (input, tap) types the FIR engines are built for; every explicit
// instantiation in the engine layer expands it, so a new type is one line here.
// float input: fff, fcc; complex input: ccf, ccc; int16 input: the xlating scc/scf.

#include "../common/sample_types.h"
#include <cstdint>

#define GPUFILTER_FOR_EACH_FIR_TYPE(X)                                \
    X(float, float)                                                   \
    X(::gr::gpufilter::cuda::complex, float)                          \
    X(::gr::gpufilter::cuda::complex, ::gr::gpufilter::cuda::complex) \
    X(float, ::gr::gpufilter::cuda::complex)                          \
    X(std::int16_t, ::gr::gpufilter::cuda::complex)

#endif
