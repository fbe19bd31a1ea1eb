/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "pfb/pfb_interpolator_ccf_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

//! Inputs per transfer: batch_size counts output samples (interp per input), so that a
//! large interpolation does not multiply the pinned and device memory.
int per_input_batch(int batch_size, unsigned interp)
{
    return std::max(1, batch_size / static_cast<int>(std::max(1u, interp)));
}

} // namespace

pfb_interpolator_ccf::sptr pfb_interpolator_ccf::make(unsigned int interp,
                                                      const std::vector<float>& taps,
                                                      int device,
                                                      int batch_size,
                                                      double max_latency)
{
    return gnuradio::make_block_sptr<pfb_interpolator_ccf_impl>(
        interp, taps, device, batch_size, max_latency);
}

pfb_interpolator_ccf_impl::pfb_interpolator_ccf_impl(unsigned interp,
                                                     const std::vector<float>& taps,
                                                     int device,
                                                     int batch_size,
                                                     double max_latency)
    : gr::sync_interpolator("gpu_pfb_interpolator_ccf",
                            gr::io_signature::make(1, 1, sizeof(gr_complex)),
                            gr::io_signature::make(1, 1, sizeof(gr_complex)),
                            checked_count("interp", interp)),
      gpu_block<pfb_interpolator_ccf, cuda::pfb_interpolator_controls>(
          device,
          { interp, 1 },
          per_input_batch(checked_batch_size(batch_size), interp),
          max_latency,
          pfb_interpolator_computation(interp, checked_taps(taps))),
      d_interp(interp),
      d_taps(taps)
{
    set_history(taps_per_filter(interp, taps)); // gr-filter's history: T
    // Whole inputs per work() call (the output_multiple sync_interpolator sets), also
    // while batching.
    d_core.set_output_multiple(static_cast<int>(interp));
}

void pfb_interpolator_ccf_impl::set_taps(const std::vector<float>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(d_setlock);
    d_taps = taps;
    this->controls().set_taps(taps);
    d_updated = true;
}

std::vector<std::vector<float>> pfb_interpolator_ccf_impl::taps() const
{
    return polyphase_split(d_interp, d_taps);
}

int pfb_interpolator_ccf_impl::work(int noutput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    if (d_updated) {
        set_history(taps_per_filter(d_interp, d_taps));
        d_updated = false;
        d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return d_core.process(
        input_items, static_cast<std::size_t>(noutput_items) / d_interp, output_items);
}

} // namespace gpufilter
} // namespace gr
