/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "core/port_batch.h"
#include "cuda/common/sample_types.h"
#include "cuda/pfb/pfb_types.h"
#include "pfb/pfb_channelizer_ccf_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {

// The input of a whole batch of many_port_batch_steps stays within 2^23 samples
// (64 MiB) however many channels.
constexpr long largest_batch_floor = 1L << 23;

int batch_floor(int noutputs, int rate_ratio)
{
    return static_cast<int>(
        std::min(largest_batch_floor, many_port_batch_steps(noutputs) * rate_ratio));
}

} // namespace

pfb_channelizer_ccf::sptr pfb_channelizer_ccf::make(unsigned int numchans,
                                                    const std::vector<float>& taps,
                                                    float oversample_rate,
                                                    int device,
                                                    int batch_size,
                                                    double max_latency)
{
    return gnuradio::make_block_sptr<pfb_channelizer_ccf_impl>(
        numchans, taps, oversample_rate, device, batch_size, max_latency);
}

pfb_channelizer_ccf_impl::pfb_channelizer_ccf_impl(unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   float oversample_rate,
                                                   int device,
                                                   int batch_size,
                                                   double max_latency)
    : gr::sync_decimator(
          "gpu_pfb_channelizer_ccf",
          gr::io_signature::make(
              1, static_cast<int>(checked_numchans(numchans)), sizeof(gr_complex)),
          gr::io_signature::make(1, static_cast<int>(numchans), sizeof(gr_complex)),
          channelizer_rate(numchans, oversample_rate)),
      split_input_block<pfb_channelizer_ccf, cuda::pfb_channelizer_controls>(
          device,
          { 1, channelizer_rate(numchans, oversample_rate) },
          checked_batch_size(batch_size),
          max_latency,
          pfb_channelizer_computation<gr_complex>(numchans,
                                                  checked_taps(taps),
                                                  oversample_rate,
                                                  false,
                                                  identity_map(numchans))),
      d_numchans(numchans),
      d_taps(taps),
      d_map(identity_map(numchans))
{
    d_core.set_history(numchans * taps_per_filter(numchans, taps));
    // Every call a whole number of stream_to_streams rows and steps, as gr-filter's
    // output_multiple: the GPU restarts its row on a history reload.
    d_core.set_output_multiple(channelizer_output_multiple(numchans, decimation()));
}

void pfb_channelizer_ccf_impl::set_taps(const std::vector<float>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(d_setlock);
    d_taps = taps;
    this->controls().set_taps(taps);
    d_updated = true;
}

std::vector<std::vector<float>> pfb_channelizer_ccf_impl::taps() const
{
    return polyphase_split(d_numchans, d_taps);
}

void pfb_channelizer_ccf_impl::set_channel_map(const std::vector<int>& map)
{
    if (map.empty())
        return; // as gr-filter
    gr::thread::scoped_lock lock(d_setlock);
    const std::size_t ports = d_nports ? d_nports : map.size();
    checked_channel_map(map,
                        static_cast<int>(d_numchans),
                        "numchans = " + std::to_string(d_numchans),
                        ports,
                        "outputs");
    d_map = map;
    this->controls().set_channel_map({ map.begin(), map.begin() + ports });
}

std::vector<int> pfb_channelizer_ccf_impl::channel_map() const { return d_map; }

bool pfb_channelizer_ccf_impl::check_topology(int ninputs, int noutputs)
{
    gr::thread::scoped_lock lock(d_setlock);
    if (!check_input_layout(ninputs, d_numchans))
        return false;
    // gr-filter's layout: tags of stream i go to output i, as gr-filter's block sends
    // them (stream_to_streams gives each stream a copy of every tag).
    set_tag_propagation_policy(ninputs > 1 && ninputs == noutputs ? TPP_ONE_TO_ONE
                                                                  : TPP_ALL_TO_ALL);
    if (noutputs < 1 || static_cast<std::size_t>(noutputs) > d_map.size()) {
        d_logger->error("{} outputs connected, but the channel map has {} entries",
                        noutputs,
                        d_map.size());
        return false;
    }
    // Output port k carries channel d_map[k]: the computation gets one port per
    // connected output. Before the flowgraph starts, which reloads the history.
    d_nports = static_cast<std::size_t>(noutputs);
    this->controls().set_channel_map({ d_map.begin(), d_map.begin() + noutputs });
    // Longer calls for many outputs, and transfers as long: the per-port copies of a
    // short transfer are what the longer call saves (an H100, 64 outputs: work() took
    // a third of the time with transfers of 32768 steps).
    const int floor = batch_floor(noutputs, decimation());
    d_core.set_batch_floor(floor);
    if (floor > d_core.batch_size())
        d_core.set_max_chunk(static_cast<std::size_t>(floor));
    return true;
}

int pfb_channelizer_ccf_impl::work(int noutput_items,
                                   gr_vector_const_void_star& input_items,
                                   gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    if (d_updated) {
        d_core.set_history(d_numchans * taps_per_filter(d_numchans, d_taps));
        d_updated = false;
        d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return d_core.process(input_items,
                          static_cast<std::size_t>(noutput_items) * decimation(),
                          output_items);
}

} // namespace gpufilter
} // namespace gr
