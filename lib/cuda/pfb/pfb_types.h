/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_TYPES_H
#define INCLUDED_GPUFILTER_CUDA_PFB_TYPES_H

// The one list of input sample formats the polyphase channelizer is built for
// (complex float and interleaved int8, uint8, int16 IQ); every explicit instantiation,
// in the engine layer and the block layer, expands it.

#include "../common/sample_types.h"

#define GPUFILTER_FOR_EACH_PFB_INPUT(X) \
    X(::gr::gpufilter::cuda::complex)   \
    X(::gr::gpufilter::cuda::iq_s8)     \
    X(::gr::gpufilter::cuda::iq_u8)     \
    X(::gr::gpufilter::cuda::iq_s16)

#endif
