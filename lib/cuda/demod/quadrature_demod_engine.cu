/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/device_math.cuh"
#include "quadrature_demod_engine.h"
#include "quadrature_demod_kernels.cuh"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

float checked_gain(float gain)
{
    if (!std::isfinite(gain))
        throw std::invalid_argument("gain: must be a finite number, got " +
                                    std::to_string(gain));
    return gain;
}

unsigned checked_channels(unsigned channels, demod_layout layout)
{
    if (channels == 0)
        throw std::invalid_argument("channels: must be >= 1, got 0");
    // Channel-major launches one grid row per channel.
    if (layout == demod_layout::channel_major && channels > 65535)
        throw std::invalid_argument(
            "channels: at most 65535 in the channel-major layout, got " +
            std::to_string(channels));
    return channels;
}

//! Enough blocks to fill the GPU several times over; larger calls loop.
unsigned grid_for(long long items)
{
    return std::min(blocks_for(items, demod_kernels::block_threads), 8192u);
}

} // namespace

std::array<float, 257> fast_atan2f_table()
{
    // GNU Radio's table holds the decimal text "%e" of atan(k/255): parse the same
    // text, so that the floats are the same.
    std::array<float, 257> table{};
    for (int k = 0; k < 256; ++k) {
        char text[32];
        std::snprintf(text, sizeof(text), "%e", std::atan(k / 255.0));
        table[k] = std::strtof(text, nullptr);
    }
    table[256] = table[255];
    return table;
}

quadrature_demod_engine::quadrature_demod_engine(float gain,
                                                 unsigned channels,
                                                 demod_layout layout)
    : d_gain(checked_gain(gain)),
      d_channels(checked_channels(channels, layout)),
      d_layout(layout),
      d_ports{ { channels * sizeof(complex) }, { channels * sizeof(float) } },
      d_table(demod_kernels::table_size),
      d_prev(2 * std::size_t(channels))
{
    const auto table = fast_atan2f_table();
    GPUFILTER_CHECK(
        cudaMemcpy(d_table.get(), table.data(), d_table.bytes(), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaMemset(d_prev.get(), 0, d_prev.bytes()));
    wait_for_default_stream(); // process() runs on a stream that does not wait for it
}

void quadrature_demod_engine::set_gain(float gain) { d_gain = checked_gain(gain); }

void quadrature_demod_engine::set_history(const void* const* host, cudaStream_t s)
{
    GPUFILTER_CHECK(cudaMemcpyAsync(d_prev.get() + d_current * std::size_t(d_channels),
                                    host[0],
                                    d_channels * sizeof(complex),
                                    cudaMemcpyHostToDevice,
                                    s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
}

std::size_t quadrature_demod_engine::process(const void* const* in,
                                             std::size_t n,
                                             void* const* out,
                                             cudaStream_t s)
{
    if (n == 0)
        return 0;
    const std::size_t C = d_channels;
    const demod_kernels::demod_args a{
        static_cast<const float2*>(in[0]),
        static_cast<float*>(out[0]),
        reinterpret_cast<const float2*>(d_prev.get() + d_current * C),
        reinterpret_cast<float2*>(d_prev.get() + (1 - d_current) * C),
        d_table.get(),
        static_cast<long long>(n),
        static_cast<long long>(C),
        d_gain,
    };
    if (d_layout == demod_layout::interleaved) {
        demod_kernels::demod_interleaved<<<grid_for(static_cast<long long>(n * C)),
                                           demod_kernels::block_threads,
                                           0,
                                           s>>>(a);
    } else {
        const dim3 grid(grid_for(static_cast<long long>(n)), static_cast<unsigned>(C));
        demod_kernels::demod_channel_major<<<grid, demod_kernels::block_threads, 0, s>>>(
            a);
    }
    GPUFILTER_CHECK_LAUNCH();
    d_current = 1 - d_current; // the row just written holds the newest samples
    return n;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
