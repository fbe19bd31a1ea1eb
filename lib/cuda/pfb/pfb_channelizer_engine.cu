/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pfb_channelizer_engine.h"
#include "pfb_output_kernels.cuh"
#include "pfb_types.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

std::vector<int>
checked_map(unsigned numchans, pfb_layout layout, const std::vector<int>& map)
{
    if (layout == pfb_layout::vector && !map.empty())
        throw std::invalid_argument(
            "channel_map: the vector layout outputs every channel in order; "
            "pass an empty map");
    if (map.empty()) {
        std::vector<int> identity(numchans);
        for (unsigned i = 0; i < numchans; ++i)
            identity[i] = static_cast<int>(i);
        return identity;
    }
    for (std::size_t k = 0; k < map.size(); ++k)
        if (map[k] < 0 || map[k] >= static_cast<int>(numchans))
            throw std::invalid_argument(
                "channel_map: entry " + std::to_string(k) + " is " +
                std::to_string(map[k]) +
                ", must be in [0, numchans = " + std::to_string(numchans) + ")");
    return map;
}

} // namespace

template <class In>
int pfb_channelizer_engine<In>::rate_ratio_for(unsigned numchans, float oversample_rate)
{
    // gr-filter's test (pfb_channelizer_ccf_impl's constructor): numchans/rate within
    // 1e-5 of an integer, and its d_rate_ratio = rintf(numchans/rate). That absolute
    // 1e-5 is finer than a float rate can be from about 1000 channels up (4096/3072
    // as a float gives 3071.99991), so a relative 1e-5 is accepted too: everything
    // gr-filter accepts, and N/i written as a float for large N.
    if (numchans == 0)
        throw std::invalid_argument("numchans: must be >= 1, got 0");
    if (!(oversample_rate > 0.0f))
        throw std::invalid_argument("oversample_rate: must be > 0, got " +
                                    std::to_string(oversample_rate));
    const double srate = numchans / static_cast<double>(oversample_rate);
    const double off = std::fabs(srate - std::round(srate));
    if (off > 0.00001 && off > 0.00001 * std::round(srate))
        throw std::invalid_argument("oversample_rate: must be numchans/i for an integer "
                                    "i in [1, numchans], got " +
                                    std::to_string(oversample_rate));
    const int r =
        static_cast<int>(std::rint(static_cast<float>(numchans) / oversample_rate));
    if (r < 1 || r > static_cast<int>(numchans))
        throw std::invalid_argument(
            "oversample_rate: must be in [1, numchans] (numchans/i, i in [1, numchans]), "
            "got " +
            std::to_string(oversample_rate));
    return r;
}

template <class In>
pfb_channelizer_engine<In>::pfb_channelizer_engine(unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   float oversample_rate,
                                                   pfb_layout layout,
                                                   const std::vector<int>& channel_map,
                                                   const pfb_tuning& tuning)
    : d_layout(layout),
      d_map(checked_map(numchans, layout, channel_map)),
      d_bank(numchans, taps, rate_ratio_for(numchans, oversample_rate), tuning)
{
    d_ports.in_item_bytes = { sizeof(In) };
    if (layout == pfb_layout::vector) {
        d_ports.out_item_bytes = { numchans * sizeof(complex) };
        return;
    }
    // On a stream and waited for: a pageable cudaMemcpy may return before its DMA
    // lands, and process() runs on other (non-blocking) streams.
    stream s;
    make_port_tables(s);
}

template <class In>
void pfb_channelizer_engine<In>::make_port_tables(cudaStream_t s)
{
    d_ports.out_item_bytes.assign(d_map.size(), sizeof(complex));
    d_map_dev = device_buffer<int>(d_map.size());
    GPUFILTER_CHECK(cudaMemcpyAsync(d_map_dev.get(),
                                    d_map.data(),
                                    d_map.size() * sizeof(int),
                                    cudaMemcpyHostToDevice,
                                    s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    d_table_host = pinned_buffer<complex*>(ring * d_map.size());
    d_table_dev = device_buffer<complex*>(ring * d_map.size());
    d_table_used = {};
    d_slot = 0;
}

template <class In>
void pfb_channelizer_engine<In>::set_taps(const std::vector<float>& taps, cudaStream_t s)
{
    d_bank.set_taps(taps, s);
}

template <class In>
void pfb_channelizer_engine<In>::set_channel_map(const std::vector<int>& map,
                                                 cudaStream_t s)
{
    if (d_layout == pfb_layout::vector)
        throw std::invalid_argument("channel_map: the vector layout has no channel map");
    auto checked = checked_map(numchans(), d_layout, map);
    if (checked.size() != d_map.size()) {
        // Other ports: new tables once queued calls are done, and fresh filters.
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        d_map = std::move(checked);
        make_port_tables(s);
        d_bank.reset(s);
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        return;
    }
    // Queued calls read the old map; the copy is ordered after them on the stream.
    // Pageable source: staged by the driver before cudaMemcpyAsync returns.
    GPUFILTER_CHECK(cudaMemcpyAsync(d_map_dev.get(),
                                    checked.data(),
                                    checked.size() * sizeof(int),
                                    cudaMemcpyHostToDevice,
                                    s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // and certainly done before it goes
    d_map = std::move(checked);
}

template <class In>
void pfb_channelizer_engine<In>::upload_ports(void* const* out, cudaStream_t s)
{
    const std::size_t nports = d_map.size();
    d_slot = (d_slot + 1) % ring;
    if (d_table_used[d_slot])
        d_table_copied[d_slot].synchronize(); // the slot's last copy has been read
    complex** host = d_table_host.get() + d_slot * nports;
    for (std::size_t k = 0; k < nports; ++k)
        host[k] = static_cast<complex*>(out[k]);
    GPUFILTER_CHECK(cudaMemcpyAsync(d_table_dev.get() + d_slot * nports,
                                    host,
                                    nports * sizeof(complex*),
                                    cudaMemcpyHostToDevice,
                                    s));
    d_table_copied[d_slot].record(s);
    d_table_used[d_slot] = true;
}

template <class In>
std::size_t pfb_channelizer_engine<In>::process(const void* const* in,
                                                std::size_t n,
                                                void* const* out,
                                                cudaStream_t s)
{
    const In* d_in = static_cast<const In*>(in[0]);
    const std::size_t nsteps = d_bank.output_count(n);
    const std::size_t N = d_bank.numchans();
    const bool streams = d_layout == pfb_layout::streams;
    if (streams && nsteps)
        upload_ports(out, s);
    if (!streams && d_bank.fused()) {
        // One kernel over the whole call, straight into the vector port.
        d_bank.filter_fft_call(d_in, n, static_cast<complex*>(out[0]), s);
        return nsteps;
    }
    for (std::size_t first = 0; first < nsteps; first += d_bank.steps_per_chunk()) {
        const std::size_t count = std::min(d_bank.steps_per_chunk(), nsteps - first);
        if (d_bank.fused())
            d_bank.filter_fft(d_in, n, first, count, d_bank.rows(), s);
        else
            d_bank.filter_chunk(d_in, n, first, count, s);
        if (!streams) {
            // The vector port's items are the FFT's output rows: transform into place.
            complex* dst = static_cast<complex*>(out[0]) + first * N;
            d_bank.inverse_fft(d_bank.rows(), dst, count, s);
            continue;
        }
        if (!d_bank.fused())
            d_bank.inverse_fft(d_bank.rows(), d_bank.rows(), count, s);
        using pfb_kernels::transpose_tile;
        const int nports = static_cast<int>(d_map.size());
        const dim3 grid(blocks_for(static_cast<long long>(count), transpose_tile),
                        blocks_for(nports, transpose_tile));
        const dim3 block(transpose_tile, pfb_kernels::transpose_rows);
        pfb_kernels::rows_to_ports<<<grid, block, 0, s>>>(
            reinterpret_cast<const float2*>(d_bank.rows()),
            static_cast<int>(N),
            static_cast<long long>(count),
            d_map_dev.get(),
            nports,
            reinterpret_cast<float2* const*>(d_table_dev.get() + d_slot * d_map.size()),
            static_cast<long long>(first));
        GPUFILTER_CHECK_LAUNCH();
    }
    d_bank.advance(d_in, n, s);
    return nsteps;
}

#define GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_ENGINE(In) \
    template class pfb_channelizer_engine<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_ENGINE)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
