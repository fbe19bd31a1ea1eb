/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/device_math.cuh"
#include "fm_demod_bank_engine.h"
#include "fm_demod_bank_kernels.cuh"
#include "quadrature_demod_engine.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

using namespace fm_bank_kernels;

unsigned grid_for(long long items)
{
    return std::max(1u, std::min(blocks_for(items, block_threads), 8192u));
}

//! Checks every parameter before any device memory is touched.
std::vector<unsigned> checked_channels(unsigned nchan,
                                       const std::vector<unsigned>& channels,
                                       unsigned decimation,
                                       const std::vector<float>& taps,
                                       float gain,
                                       const deemphasis& d,
                                       std::size_t max_items)
{
    if (nchan == 0)
        throw std::invalid_argument("nchan: must be >= 1, got 0");
    if (channels.empty())
        throw std::invalid_argument("channels: must name at least one channel");
    for (unsigned c : channels)
        if (c >= nchan)
            throw std::invalid_argument("channels: " + std::to_string(c) +
                                        " is out of range for nchan " +
                                        std::to_string(nchan));
    if (decimation == 0)
        throw std::invalid_argument("decimation: must be >= 1, got 0");
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    if (!std::isfinite(gain))
        throw std::invalid_argument("gain: must be a finite number, got " +
                                    std::to_string(gain));
    if (!std::isfinite(d.b0) || !std::isfinite(d.b1) || !std::isfinite(d.a1))
        throw std::invalid_argument("deemphasis: coefficients must be finite");
    if (max_items == 0)
        throw std::invalid_argument("max_items: must be >= 1, got 0");
    return channels;
}

} // namespace

fm_demod_bank_engine::fm_demod_bank_engine(unsigned nchan,
                                           const std::vector<unsigned>& channels,
                                           unsigned decimation,
                                           const std::vector<float>& taps,
                                           float gain,
                                           deemphasis deemph,
                                           std::size_t max_items)
    : d_nchan(nchan),
      d_channels(
          checked_channels(nchan, channels, decimation, taps, gain, deemph, max_items)),
      d_decim(decimation),
      d_ntaps(taps.size()),
      d_gain(gain),
      d_deemph(deemph),
      d_max_items(max_items),
      d_ports{ { nchan * sizeof(complex) }, { channels.size() * sizeof(float) } },
      d_channel_index(channels.size()),
      d_taps(taps.size()),
      d_table(table_size),
      d_prev(2 * channels.size()),
      d_rows{ device_buffer<float>(channels.size() * (taps.size() - 1 + max_items)),
              device_buffer<float>(channels.size() * (taps.size() - 1 + max_items)) },
      d_fir(channels.size() * (max_items / decimation + 1)),
      d_state(2 * channels.size())
{
    const auto table = fast_atan2f_table();
    GPUFILTER_CHECK(cudaMemcpy(d_channel_index.get(),
                               d_channels.data(),
                               d_channel_index.bytes(),
                               cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(
        cudaMemcpy(d_taps.get(), taps.data(), d_taps.bytes(), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(
        cudaMemcpy(d_table.get(), table.data(), d_table.bytes(), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaMemset(d_prev.get(), 0, d_prev.bytes()));
    GPUFILTER_CHECK(cudaMemset(d_rows[0].get(), 0, d_rows[0].bytes()));
    GPUFILTER_CHECK(cudaMemset(d_rows[1].get(), 0, d_rows[1].bytes()));
    GPUFILTER_CHECK(cudaMemset(d_state.get(), 0, d_state.bytes()));
    wait_for_default_stream(); // process() runs on a stream that does not wait for it
}

void fm_demod_bank_engine::set_history(const void* const* /*host*/, cudaStream_t s)
{
    const std::size_t C = d_channels.size();
    GPUFILTER_CHECK(
        cudaMemsetAsync(d_prev.get() + d_current * C, 0, C * sizeof(complex), s));
    GPUFILTER_CHECK(
        cudaMemsetAsync(d_rows[d_current].get(), 0, d_rows[d_current].bytes(), s));
    d_phase = 0;
}

std::size_t fm_demod_bank_engine::output_count(std::size_t n) const
{
    const std::size_t first = (d_decim - d_phase) % d_decim;
    return n > first ? (n - first - 1) / d_decim + 1 : 0;
}

std::size_t fm_demod_bank_engine::process(const void* const* in,
                                          std::size_t n,
                                          void* const* out,
                                          cudaStream_t s)
{
    if (n == 0)
        return 0;
    if (n > d_max_items)
        throw std::invalid_argument("fm_demod_bank_engine: " + std::to_string(n) +
                                    " items in one call, more than max_items " +
                                    std::to_string(d_max_items));
    const long long nsel = static_cast<long long>(d_channels.size());
    const long long hist = static_cast<long long>(d_ntaps) - 1;
    const long long stride = hist + static_cast<long long>(d_max_items);
    const long long first = static_cast<long long>((d_decim - d_phase) % d_decim);
    const std::size_t outputs = output_count(n);
    float* rows = d_rows[d_current].get();
    const std::size_t C = d_channels.size();

    const demod_args da{ static_cast<const float2*>(in[0]),
                         d_channel_index.get(),
                         reinterpret_cast<const float2*>(d_prev.get() + d_current * C),
                         reinterpret_cast<float2*>(d_prev.get() + (1 - d_current) * C),
                         d_table.get(),
                         rows,
                         static_cast<long long>(n),
                         static_cast<long long>(d_nchan),
                         nsel,
                         hist,
                         stride,
                         d_gain };
    demod_rows<<<grid_for(static_cast<long long>(n) * nsel), block_threads, 0, s>>>(da);
    GPUFILTER_CHECK_LAUNCH();
    if (outputs > 0) {
        const fir_args fa{ rows,        d_taps.get(),
                           d_fir.get(), static_cast<long long>(d_ntaps),
                           nsel,        stride,
                           hist,        static_cast<long long>(outputs),
                           first,       static_cast<long long>(d_decim) };
        fir_decimate<<<grid_for(static_cast<long long>(outputs) * nsel),
                       block_threads,
                       0,
                       s>>>(fa);
        GPUFILTER_CHECK_LAUNCH();
        deemphasis_rows<<<blocks_for(nsel, block_threads), block_threads, 0, s>>>(
            d_fir.get(),
            static_cast<float*>(out[0]),
            d_state.get(),
            static_cast<long long>(outputs),
            nsel,
            d_deemph.b0,
            d_deemph.b1,
            d_deemph.a1);
        GPUFILTER_CHECK_LAUNCH();
    }
    if (hist > 0) {
        carry_history<<<grid_for(nsel * hist), block_threads, 0, s>>>(
            rows,
            d_rows[1 - d_current].get(),
            static_cast<long long>(n),
            nsel,
            hist,
            stride);
        GPUFILTER_CHECK_LAUNCH();
    }
    d_current = 1 - d_current;
    d_phase = (d_phase + n) % d_decim;
    return outputs;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
