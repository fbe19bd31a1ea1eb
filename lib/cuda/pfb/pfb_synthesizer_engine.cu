/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "../common/kernel_attributes.h"
#include "branch_taps.h"
#include "pfb_synthesizer_engine.h"
#include "pfb_synthesizer_kernels.cuh"
#include "pfb_tuning.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

static_assert(pfb_kernels::one_pass_max_fft == synth_block_max_fft,
              "pfb_tuning's rules take the one-pass kernel's limit as it is");

namespace {

constexpr std::size_t max_tables = 8;

void check_map(const std::vector<int>& map, int P);

//! numchans, once it and the rest of the arguments are known good (before the GPU).
unsigned checked_numchans(unsigned numchans,
                          const std::vector<float>& taps,
                          bool twox,
                          const std::vector<int>& map,
                          const pfb_tuning& tuning)
{
    check_pfb_tuning(tuning);
    if (numchans == 0)
        throw std::invalid_argument("numchans: must be >= 1, got 0");
    if (twox && numchans % 2 != 0)
        throw std::invalid_argument("numchans: must be even for twox, got " +
                                    std::to_string(numchans));
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    check_map(map, static_cast<int>(numchans) * (twox ? 2 : 1));
    return numchans;
}

void check_map(const std::vector<int>& map, int P)
{
    if (map.empty())
        throw std::invalid_argument("channel_map: must have one entry per input");
    for (std::size_t k = 0; k < map.size(); ++k)
        if (map[k] < 0 || map[k] >= P)
            throw std::invalid_argument("channel_map: entry " + std::to_string(k) +
                                        " is " + std::to_string(map[k]) +
                                        ", must be in [0, " + std::to_string(P) + ")");
}

} // namespace

pfb_synthesizer_engine::pfb_synthesizer_engine(unsigned numchans,
                                               const std::vector<float>& taps,
                                               bool twox,
                                               const std::vector<int>& map,
                                               const pfb_tuning& tuning)
    : d_numchans(checked_numchans(numchans, taps, twox, map, tuning)),
      d_twox(twox ? 2 : 1),
      d_fft_size(static_cast<int>(numchans) * (twox ? 2 : 1)),
      d_map(map),
      d_ports{ std::vector<std::size_t>(map.size(), sizeof(complex)),
               { sizeof(complex) } },
      d_chunk_rows(pfb_chunk_rows(tuning, d_fft_size)),
      d_fft(d_fft_size, d_chunk_rows),
      d_tuning(tuning)
{
    d_inv = device_buffer<int>(d_fft_size);
    d_fused = synth_fused_for(d_tuning, d_fft_size);
    d_one_pass_wanted = synth_one_pass_for(d_tuning, d_fft_size);
    if (d_one_pass_wanted) {
        for (auto* kernel :
             { pfb_kernels::synth_one_pass<1>, pfb_kernels::synth_one_pass<2> })
            allow_dynamic_shared_memory(
                kernel,
                // The kernel's limit for every engine (an attribute of the kernel,
                // not of this engine's launches).
                pfb_kernels::one_pass_smem_bytes(pfb_kernels::one_pass_max_regions,
                                                 pfb_kernels::one_pass_max_fft));
    }
    if (d_fused || d_one_pass_wanted) {
        while ((1 << d_log2p) < d_fft_size)
            ++d_log2p;
        std::vector<complex> tw(d_fft_size);
        for (int m = 0; m < d_fft_size; ++m) {
            const double angle = 2.0 * M_PI * m / d_fft_size;
            tw[m] = complex(static_cast<float>(std::cos(angle)),
                            static_cast<float>(std::sin(angle)));
        }
        d_twiddle = device_buffer<complex>(d_fft_size);
        GPUFILTER_CHECK(cudaMemcpy(d_twiddle.get(),
                                   tw.data(),
                                   tw.size() * sizeof(complex),
                                   cudaMemcpyHostToDevice));
    }
    stream s;
    set_channel_map(map, s);
    set_taps(taps, s);
    s.synchronize();
    wait_for_default_stream(); // the twiddles' cudaMemcpy: `s` does not wait for it
}

void pfb_synthesizer_engine::set_taps(const std::vector<float>& taps, cudaStream_t s)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // queued calls may read what goes
    const std::size_t T = upload_branch_taps(taps, d_numchans, d_branch, s);
    d_one_pass_regions =
        d_one_pass_wanted
            ? synth_one_pass_regions(d_tuning, d_fft_size, static_cast<int>(T))
            : 0;
    // The one-pass kernel keeps only the T - 1 rows of state in device memory.
    const std::size_t rows = d_one_pass_regions > 0
                                 ? std::max<std::size_t>(T - 1, 1) * d_fft_size
                                 : (T - 1 + d_chunk_rows) * d_fft_size;
    for (auto& r : d_rows)
        if (r.size() < rows)
            r = device_buffer<complex>(rows);
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // `padded` goes
    d_taps_per_filter = static_cast<int>(T);
    d_taps = taps;
    reset(s); // gr-filter's filters restart from zeros
}

void pfb_synthesizer_engine::reset(cudaStream_t s)
{
    const std::size_t history = (d_taps_per_filter - 1) * std::size_t(d_fft_size);
    if (history)
        GPUFILTER_CHECK(
            cudaMemsetAsync(d_rows[d_current].get(), 0, history * sizeof(complex), s));
}

void pfb_synthesizer_engine::set_channel_map(const std::vector<int>& map, cudaStream_t s)
{
    check_map(map, d_fft_size);
    if (map.size() != d_ports.in_item_bytes.size()) {
        // Other input ports: their pointer tables go, and the filters restart.
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        d_ports.in_item_bytes.assign(map.size(), sizeof(complex));
        d_tables.clear();
        d_next_table = 0;
        d_current = 0;
        d_parity = 0;
        reset(s);
    }
    std::vector<int> inv(d_fft_size, -1);
    for (std::size_t p = 0; p < map.size(); ++p)
        inv[map[p]] = static_cast<int>(p); // the last port wins, as gr-filter's loop
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    GPUFILTER_CHECK(cudaMemcpyAsync(
        d_inv.get(), inv.data(), inv.size() * sizeof(int), cudaMemcpyHostToDevice, s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    d_map = map;
}

const complex* const* pfb_synthesizer_engine::port_table(const void* const* in,
                                                         cudaStream_t s)
{
    const std::size_t nports = d_ports.in_item_bytes.size();
    for (const auto& t : d_tables)
        if (std::equal(t.key.begin(), t.key.end(), in))
            return t.ptrs.get();
    // A new set of port buffers: a table slot, reused once queued work is done.
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    if (d_tables.size() < max_tables) {
        d_tables.push_back({ {}, device_buffer<const complex*>(nports) });
        d_next_table = d_tables.size() - 1;
    }
    table& t = d_tables[d_next_table];
    d_next_table = (d_next_table + 1) % max_tables;
    t.key.assign(in, in + nports);
    GPUFILTER_CHECK(cudaMemcpyAsync(
        t.ptrs.get(), t.key.data(), nports * sizeof(void*), cudaMemcpyHostToDevice, s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    return t.ptrs.get();
}

std::size_t pfb_synthesizer_engine::process(const void* const* in,
                                            std::size_t n,
                                            void* const* out,
                                            cudaStream_t s)
{
    if (n == 0)
        return 0;
    const auto* const* ports = port_table(in, s);
    const int M = static_cast<int>(d_numchans);
    const int P = d_fft_size;
    const int T = d_taps_per_filter;
    const std::size_t H = static_cast<std::size_t>(T - 1) * P; // history samples
    auto* y = static_cast<float2*>(out[0]);
    if (d_one_pass_regions > 0) {
        int log2g = 0;
        while ((1 << log2g) < d_one_pass_regions)
            ++log2g;
        const long long steps_per_block =
            (pfb_kernels::fused_elems << log2g) / P - (T - 1);
        const unsigned grid = blocks_for(static_cast<long long>(n), steps_per_block);
        auto* kernel =
            d_twox == 2 ? pfb_kernels::synth_one_pass<2> : pfb_kernels::synth_one_pass<1>;
        kernel<<<grid,
                 pfb_kernels::fused_threads,
                 pfb_kernels::one_pass_smem_bytes(d_one_pass_regions, P),
                 s>>>(reinterpret_cast<const float2* const*>(ports),
                      d_inv.get(),
                      d_log2p,
                      log2g,
                      reinterpret_cast<const float2*>(d_twiddle.get()),
                      T,
                      d_branch.get(),
                      d_parity,
                      static_cast<long long>(n),
                      reinterpret_cast<const float2*>(d_rows[d_current].get()),
                      reinterpret_cast<float2*>(d_rows[d_current ^ 1].get()),
                      y);
        GPUFILTER_CHECK_LAUNCH();
        d_current ^= 1;
        d_parity = static_cast<int>((d_parity + n) & 1);
        return n * d_numchans;
    }
    for (std::size_t first = 0; first < n; first += d_chunk_rows) {
        const std::size_t count = std::min(d_chunk_rows, n - first);
        complex* rows = d_rows[d_current].get();
        complex* fresh = rows + H;
        if (d_fused) {
            const long long per_block = pfb_kernels::fused_elems / P;
            pfb_kernels::
                synth_gather_fft<<<blocks_for(static_cast<long long>(count), per_block),
                                   pfb_kernels::fused_threads,
                                   pfb_kernels::fused_smem_bytes,
                                   s>>>(reinterpret_cast<const float2* const*>(ports),
                                        d_inv.get(),
                                        d_log2p,
                                        reinterpret_cast<const float2*>(d_twiddle.get()),
                                        static_cast<long long>(first),
                                        static_cast<long long>(count),
                                        reinterpret_cast<float2*>(fresh));
            GPUFILTER_CHECK_LAUNCH();
        } else {
            const dim3 gblock(pfb_kernels::gather_tile, 8);
            const dim3 ggrid(
                blocks_for(static_cast<long long>(count), pfb_kernels::gather_tile),
                blocks_for(P, pfb_kernels::gather_tile));
            pfb_kernels::synth_gather<<<ggrid, gblock, 0, s>>>(
                reinterpret_cast<const float2* const*>(ports),
                d_inv.get(),
                P,
                static_cast<long long>(first),
                static_cast<long long>(count),
                reinterpret_cast<float2*>(fresh));
            GPUFILTER_CHECK_LAUNCH();
            d_fft.inverse(fresh, fresh, count, s);
        }

        constexpr int S = pfb_kernels::synth_steps;
        const long long groups =
            (static_cast<long long>(count) + d_twox * S - 1) / (d_twox * S) * d_twox;
        const long long threads = groups * M;
        const unsigned grid = blocks_for(threads, pfb_kernels::synth_threads);
        auto* kernel =
            d_twox == 2 ? pfb_kernels::synth_fir<2> : pfb_kernels::synth_fir<1>;
        kernel<<<grid, pfb_kernels::synth_threads, 0, s>>>(
            reinterpret_cast<const float2*>(rows),
            M,
            T,
            d_branch.get(),
            d_parity,
            static_cast<long long>(count),
            y + first * M);
        GPUFILTER_CHECK_LAUNCH();

        // The newest T - 1 rows become the next chunk's history.
        if (H)
            GPUFILTER_CHECK(cudaMemcpyAsync(d_rows[d_current ^ 1].get(),
                                            rows + count * P,
                                            H * sizeof(complex),
                                            cudaMemcpyDeviceToDevice,
                                            s));
        d_current ^= 1;
        d_parity = static_cast<int>((d_parity + count) & 1);
    }
    return n * d_numchans;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
