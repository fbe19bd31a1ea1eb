/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "demod/demod_backend.h"
#include "demod/quadrature_demod_cf_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace gpufilter {

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
      gpu_block<quadrature_demod_cf>(device,
                                     { 1, 1 },
                                     checked_batch_size(batch_size),
                                     max_latency,
                                     quadrature_demod_backend::make(checked_gain(gain))),
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
    quadrature_demod_backend::set_gain(d_core, gain);
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
