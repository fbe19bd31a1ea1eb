/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEMOD_BACKEND_H
#define INCLUDED_GPUFILTER_DEMOD_BACKEND_H

#include "core/block_core.h"

namespace gr {
namespace gpufilter {

//! The quadrature demodulator's computation: cuda::quadrature_demod_stream, or
//! gr-analog's arithmetic (volk's conjugate product, gr::fast_atan2f) on the CPU.
struct quadrature_demod_backend {
    static block_core::backends make(float gain);
    //! The gain from the next call on, on whichever the core made.
    static void set_gain(block_core& core, float gain);
};

//! complex_to_real's computation: cuda::complex_to_real_stream, or volk's
//! deinterleave as gr-blocks runs it. max_chunk is in items of vlen samples.
struct complex_to_real_backend {
    static block_core::backends make(int vlen);
};

} // namespace gpufilter
} // namespace gr

#endif
