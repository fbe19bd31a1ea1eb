/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "core/port_batch.h"
#include "pfb/pfb_synthesizer_ccf_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

//! Samples per input per transfer: batch_size counts the wideband (output) side, as
//! the channelizer's does, so that thousands of inputs do not multiply the memory.
int per_input_batch(int batch_size, unsigned numchans)
{
    return std::max(1, batch_size / static_cast<int>(std::max(1u, numchans)));
}

//! The computation's ports before the topology is known: one per channel.
std::vector<int> first(const std::vector<int>& map, std::size_t n)
{
    return { map.begin(), map.begin() + std::min(n, map.size()) };
}

} // namespace

pfb_synthesizer_ccf::sptr pfb_synthesizer_ccf::make(unsigned int numchans,
                                                    const std::vector<float>& taps,
                                                    bool twox,
                                                    int device,
                                                    int batch_size,
                                                    double max_latency)
{
    return gnuradio::make_block_sptr<pfb_synthesizer_ccf_impl>(
        numchans, taps, twox, device, batch_size, max_latency);
}

pfb_synthesizer_ccf_impl::pfb_synthesizer_ccf_impl(unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   bool twox,
                                                   int device,
                                                   int batch_size,
                                                   double max_latency)
    : gr::sync_interpolator(
          "gpu_pfb_synthesizer_ccf",
          gr::io_signature::make(
              1, static_cast<int>(checked_numchans(numchans, twox)), sizeof(gr_complex)),
          gr::io_signature::make(1, 1, sizeof(gr_complex)),
          numchans),
      gpu_block<pfb_synthesizer_ccf, cuda::pfb_synthesizer_controls>(
          device,
          { numchans, 1 },
          per_input_batch(checked_batch_size(batch_size), numchans),
          max_latency,
          pfb_synthesizer_computation(
              numchans, checked_taps(taps), twox, identity_map(numchans))),
      d_numchans(numchans),
      d_twox(twox),
      d_taps(taps),
      d_map(identity_map((twox ? 2 : 1) * numchans))
{
    // Whole steps per work() call, as gr-filter's set_output_multiple(numchans), also
    // while batching.
    d_core.set_output_multiple(static_cast<int>(numchans));
}

void pfb_synthesizer_ccf_impl::set_taps(const std::vector<float>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(d_setlock);
    d_taps = taps;
    this->controls().set_taps(taps);
}

std::vector<std::vector<float>> pfb_synthesizer_ccf_impl::taps() const
{
    return synthesizer_split(d_numchans, d_taps, d_twox);
}

void pfb_synthesizer_ccf_impl::set_channel_map(const std::vector<int>& map)
{
    if (map.empty())
        return; // as gr-filter
    const int bins = static_cast<int>((d_twox ? 2 : 1) * d_numchans);
    gr::thread::scoped_lock lock(d_setlock);
    const std::size_t ports =
        d_nports ? d_nports : std::min<std::size_t>(map.size(), d_numchans);
    checked_channel_map(map, bins, std::to_string(bins), ports, "inputs");
    d_map = map;
    this->controls().set_channel_map(first(map, ports));
}

std::vector<int> pfb_synthesizer_ccf_impl::channel_map() const { return d_map; }

bool pfb_synthesizer_ccf_impl::check_topology(int ninputs, int /*noutputs*/)
{
    gr::thread::scoped_lock lock(d_setlock);
    if (ninputs < 1 || static_cast<std::size_t>(ninputs) > d_map.size()) {
        d_logger->error("{} inputs connected, but the channel map has {} entries",
                        ninputs,
                        d_map.size());
        return false;
    }
    // Input k feeds bin d_map[k]: the computation gets one port per connected input,
    // before the flowgraph starts.
    d_nports = static_cast<std::size_t>(ninputs);
    this->controls().set_channel_map(first(d_map, d_nports));
    d_core.set_batch_floor(static_cast<int>(many_port_batch_steps(ninputs)));
    return true;
}

int pfb_synthesizer_ccf_impl::work(int noutput_items,
                                   gr_vector_const_void_star& input_items,
                                   gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    // No history: gr-filter's filters keep their own state, as the GPU does.
    return d_core.process(
        input_items, static_cast<std::size_t>(noutput_items) / d_numchans, output_items);
}

} // namespace gpufilter
} // namespace gr
