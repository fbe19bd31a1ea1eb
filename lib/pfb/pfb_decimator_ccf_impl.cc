/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "pfb/pfb_decimator_ccf_impl.h"
#include <gnuradio/io_signature.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

} // namespace

pfb_decimator_ccf::sptr pfb_decimator_ccf::make(unsigned int decim,
                                                const std::vector<float>& taps,
                                                unsigned int channel,
                                                bool use_fft_rotator,
                                                bool use_fft_filters,
                                                int device,
                                                int batch_size,
                                                double max_latency)
{
    return gnuradio::make_block_sptr<pfb_decimator_ccf_impl>(decim,
                                                             taps,
                                                             channel,
                                                             use_fft_rotator,
                                                             use_fft_filters,
                                                             device,
                                                             batch_size,
                                                             max_latency);
}

pfb_decimator_ccf_impl::pfb_decimator_ccf_impl(unsigned decim,
                                               const std::vector<float>& taps,
                                               unsigned channel,
                                               bool use_fft_rotator,
                                               bool use_fft_filters,
                                               int device,
                                               int batch_size,
                                               double max_latency)
    : gr::sync_decimator(
          "gpu_pfb_decimator_ccf",
          gr::io_signature::make(
              1, static_cast<int>(checked_count("decim", decim)), sizeof(gr_complex)),
          gr::io_signature::make(1, 1, sizeof(gr_complex)),
          checked_count("decim", decim)),
      split_input_block<pfb_decimator_ccf, cuda::pfb_decimator_controls>(
          device,
          { 1, decim },
          checked_batch_size(batch_size),
          max_latency,
          pfb_decimator_computation(decim,
                                    checked_taps(taps),
                                    checked_channel(channel, decim),
                                    use_fft_rotator,
                                    use_fft_filters)),
      d_decim(decim),
      d_taps(taps),
      d_channel(channel)
{
    d_core.set_history(decim * taps_per_filter(decim, taps));
    // gr-filter's FFT branch filters take whole blocks, so its block only outputs
    // whole blocks (the stream's tail is dropped): the same output length here.
    if (use_fft_filters)
        d_core.set_output_multiple(fft_filter_output_multiple(decim, taps));
}

void pfb_decimator_ccf_impl::set_taps(const std::vector<float>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(d_setlock);
    d_taps = taps;
    this->controls().set_taps(taps);
    d_updated = true;
}

std::vector<std::vector<float>> pfb_decimator_ccf_impl::taps() const
{
    return polyphase_split(d_decim, d_taps);
}

void pfb_decimator_ccf_impl::set_channel(unsigned int channel)
{
    checked_channel(channel, d_decim);
    gr::thread::scoped_lock lock(d_setlock);
    d_channel = channel;
    this->controls().set_channel(channel);
}

bool pfb_decimator_ccf_impl::check_topology(int ninputs, int /*noutputs*/)
{
    gr::thread::scoped_lock lock(d_setlock);
    return check_input_layout(ninputs, d_decim);
}

int pfb_decimator_ccf_impl::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    if (d_updated) {
        d_core.set_history(d_decim * taps_per_filter(d_decim, d_taps));
        d_updated = false;
        d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return d_core.process(
        input_items, static_cast<std::size_t>(noutput_items) * d_decim, output_items);
}

} // namespace gpufilter
} // namespace gr
