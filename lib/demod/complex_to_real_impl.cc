/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/demod/demod_controls.h"
#include "demod/complex_to_real_impl.h"
#include "demod/cpu/complex_to_real_cpu_kernel.h"
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace gpufilter {

namespace {
//! batch_size counts samples, as for every block; the core batches items of vlen.
int items_per_batch(int batch_size, int vlen)
{
    return std::max(1, checked_batch_size(batch_size) / checked_vlen(vlen));
}

//! One port of items of vlen T (vlen checked first: GNU Radio's own message for a
//! zero item size names no parameter).
template <class T>
gr::io_signature::sptr port_of(int vlen)
{
    return gr::io_signature::make(1, 1, sizeof(T) * checked_vlen(vlen));
}
} // namespace

namespace {
//! The GPU's complex_to_real_engine, or volk's deinterleave as gr-blocks runs it.
computation<cuda::no_controls> complex_to_real_computation(int vlen)
{
    return { [vlen](int device, std::size_t max_chunk) {
                return cuda::make_complex_to_real_path(
                    device, max_chunk, static_cast<unsigned>(vlen));
            },
             [vlen] { return std::make_unique<complex_to_real_cpu_kernel>(vlen); } };
}
} // namespace

complex_to_real::sptr
complex_to_real::make(int vlen, int device, int batch_size, double max_latency)
{
    return gnuradio::make_block_sptr<complex_to_real_impl>(
        vlen, device, batch_size, max_latency);
}

complex_to_real_impl::complex_to_real_impl(int vlen,
                                           int device,
                                           int batch_size,
                                           double max_latency)
    : gr::sync_block(
          "gpu_complex_to_real", port_of<gr_complex>(vlen), port_of<float>(vlen)),
      gpu_block<complex_to_real>(device,
                                 { 1, 1 },
                                 items_per_batch(batch_size, vlen),
                                 max_latency,
                                 complex_to_real_computation(vlen)),
      d_vlen(vlen)
{
    // No set_alignment() as gr-blocks has: it would replace the batch's output_multiple
    // (batch_gate); volk takes unaligned buffers.
}

int complex_to_real_impl::work(int noutput_items,
                               gr_vector_const_void_star& input_items,
                               gr_vector_void_star& output_items)
{
    return d_core.process(input_items, noutput_items, output_items);
}

} // namespace gpufilter
} // namespace gr
