/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/demod/demod_controls.h"
#include "demod/cpu/quadrature_demod_cpu_kernel.h"
#include "demod/quadrature_demod_cf_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace gpufilter {

namespace {
//! The GPU's quadrature_demod_engine, or gr-analog's arithmetic on the CPU.
computation<cuda::quadrature_demod_controls> quadrature_demod_computation(float gain)
{
    return { [gain](int device, std::size_t max_chunk) {
                return cuda::make_quadrature_demod_path(device, max_chunk, gain, 1);
            },
             [gain] { return std::make_unique<quadrature_demod_cpu_kernel>(gain); } };
}
} // namespace

quadrature_demod_cf::sptr
quadrature_demod_cf::make(float gain, int device, int batch_size, double max_latency)
{
    return gnuradio::make_block_sptr<quadrature_demod_cf_impl>(
        gain, device, batch_size, max_latency);
}

quadrature_demod_cf_impl::quadrature_demod_cf_impl(float gain,
                                                   int device,
                                                   int batch_size,
                                                   double max_latency)
    : gr::sync_block("gpu_quadrature_demod_cf",
                     gr::io_signature::make(1, 1, sizeof(gr_complex)),
                     gr::io_signature::make(1, 1, sizeof(float))),
      gpu_block<quadrature_demod_cf, cuda::quadrature_demod_controls>(
          device,
          { 1, 1 },
          checked_batch_size(batch_size),
          max_latency,
          quadrature_demod_computation(checked_gain(gain))),
      d_gain(gain)
{
    set_history(2); // the previous sample, as gr-analog
    // No set_alignment(): it would replace the batch's output_multiple (batch_gate).
    // volk takes unaligned buffers.
}

void quadrature_demod_cf_impl::set_gain(float gain)
{
    checked_gain(gain);
    gr::thread::scoped_lock lock(d_setlock);
    d_gain = gain;
    controls().set_gain(gain);
}

int quadrature_demod_cf_impl::work(int noutput_items,
                                   gr_vector_const_void_star& input_items,
                                   gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    return d_core.process(input_items, noutput_items, output_items);
}

} // namespace gpufilter
} // namespace gr
