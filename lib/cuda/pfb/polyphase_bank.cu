/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/block_fft_plan.h"
#include "../common/device.h"
#include "branch_taps.h"
#include "pfb_types.h"
#include "polyphase_bank.h"
#include "polyphase_fir_fft_kernels.cuh"
#include "polyphase_kernels.cuh"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

template <class In>
using source_t = pfb_kernels::source<device_t<In>>;

template <class In>
source_t<In>
view(const complex* history, std::size_t history_len, const In* in, std::size_t n)
{
    return { reinterpret_cast<const float2*>(history),
             static_cast<long long>(history_len),
             reinterpret_cast<const device_t<In>*>(in),
             static_cast<long long>(n) };
}

template <class S>
struct fused_args {
    int R;
    int T;
    const float* taps;
    const float2* twiddles;
    long long v_first;
    int base;
    long long nsteps;
    float2* out;
    // Launches of this many blocks or more copy the taps to shared memory (0: none;
    // pfb_fir_fft::shared_taps_fit).
    long long copy_taps_from;
    // The next call's history, copied by the kernel (n = 0: the caller keeps it).
    history_keep<float2, S, pfb_kernels::complex_sample> keep;
    cudaStream_t stream;
};

template <int N, int E, class S>
void launch_fused(pfb_kernels::source<S> src, const fused_args<S>& a)
{
    const long long rows = E / N;
    const long long blocks = (a.nsteps + rows - 1) / rows;
    if (blocks > 0x7fffffffLL)
        throw std::logic_error("polyphase_bank::filter_fft: grid too large");
    const bool copy_taps = a.copy_taps_from > 0 && blocks >= a.copy_taps_from;
    pfb_fir_fft::launch_shape<N, E>(src,
                                    a.R,
                                    a.T,
                                    a.taps,
                                    a.twiddles,
                                    a.v_first,
                                    a.base,
                                    a.nsteps,
                                    a.out,
                                    a.keep,
                                    static_cast<unsigned>(blocks),
                                    copy_taps,
                                    a.stream);
}

//! N of 512 and up: a block of E = 4096, 8192 or 16384 samples.
template <int N, class S>
void launch_large(int E, pfb_kernels::source<S> src, const fused_args<S>& a)
{
    if (E == 16384)
        return launch_fused<N, 16384>(src, a);
    if (E == 8192)
        return launch_fused<N, 8192>(src, a);
    return launch_fused<N, 4096>(src, a);
}

//! The fused kernel for N channels, E samples a block (pfb_fir_fft::has_block).
template <class S>
void launch_fused(int N, int E, pfb_kernels::source<S> src, const fused_args<S>& a)
{
    switch (N) {
    case 2:
        return launch_fused<2, 4096>(src, a);
    case 4:
        return launch_fused<4, 4096>(src, a);
    case 8:
        return launch_fused<8, 4096>(src, a);
    case 16:
        return launch_fused<16, 4096>(src, a);
    case 32:
        return launch_fused<32, 4096>(src, a);
    case 64:
        return launch_fused<64, 4096>(src, a);
    case 128:
        return launch_fused<128, 4096>(src, a);
    case 256:
        return launch_fused<256, 4096>(src, a);
    case 512:
        return launch_large<512>(E, src, a);
    case 1024:
        return launch_large<1024>(E, src, a);
    case 2048:
        return launch_large<2048>(E, src, a);
    case 4096:
        return launch_large<4096>(E, src, a);
    default:
        throw std::logic_error("polyphase_bank: no fused kernel for " +
                               std::to_string(N) + " channels");
    }
}

} // namespace

template <class In>
auto polyphase_bank<In>::next_history(const In* d_in,
                                      std::size_t n,
                                      bool keep_history) const
{
    using keep_t = history_keep<float2, device_t<In>, pfb_kernels::complex_sample>;
    if (!keep_history)
        return keep_t{};
    // The last history_len samples of [history | input], kept as complex float
    // whatever the input format.
    return history_keep_for<float2, device_t<In>, pfb_kernels::complex_sample>(
        reinterpret_cast<const float2*>(d_history[d_current].get()),
        d_history_len,
        reinterpret_cast<const device_t<In>*>(d_in),
        n,
        reinterpret_cast<float2*>(d_history[d_current ^ 1].get()));
}

template <class In>
polyphase_bank<In>::polyphase_bank(unsigned numchans,
                                   const std::vector<float>& taps,
                                   int rate_ratio,
                                   const pfb_tuning& tuning)
    : d_n(static_cast<int>(numchans)), d_rate(rate_ratio), d_tuning(tuning)
{
    check_pfb_tuning(d_tuning);
    if (numchans == 0 || numchans > max_channels)
        throw std::invalid_argument("numchans: must be in [1, " +
                                    std::to_string(max_channels) + "], got " +
                                    std::to_string(numchans));
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    if (rate_ratio < 1 || rate_ratio > d_n)
        throw std::invalid_argument(
            "oversample_rate: numchans/oversample_rate must be an integer in [1, " +
            std::to_string(d_n) + "], got " + std::to_string(rate_ratio));
    // Every shape the FIR kernel can be launched with fits the default 48 KB.
    if (pfb_shape::smem_bytes(d_n, d_rate) > 48 * 1024)
        throw std::logic_error("polyphase_bank: FIR tile exceeds 48 KB");

    const std::size_t chunk = pfb_chunk_rows(d_tuning, d_n);
    d_steps_per_chunk = chunk;
    d_rows = device_buffer<complex>(chunk * d_n);
    d_fft.emplace(d_n, chunk);

    if (d_tuning.path != pfb_path::two_pass && pfb_fused_supported(d_n)) {
        d_block_samples = pfb_fused_block(d_tuning, d_n, d_rate);
        // A block this device's shared memory cannot hold takes the next size down
        // (every device holds 4096 samples, 35 KB).
        d_shared_per_block = current_device_shared_memory_per_block();
        d_shared_per_sm = current_device_shared_memory_per_multiprocessor();
        d_shared_reserved = current_device_reserved_shared_memory_per_block();
        d_multiprocessors = current_device_multiprocessors();
        while (d_block_samples / 2 >= std::max(d_n, pfb_block_samples) &&
               pfb_fir_fft::shared_bytes(d_block_samples) > d_shared_per_block)
            d_block_samples /= 2;
        if (!pfb_fir_fft::has_block(d_n, d_block_samples))
            throw std::logic_error("polyphase_bank: no fused kernel of that block");
        d_twiddle = uploaded(block_fft_twiddles(block_fft_plan{ d_n, true }));
    }

    stream s;
    set_taps(taps, s); // zero history of the right length
    s.synchronize();
    d_phase = d_rate - 1;
}

template <class In>
void polyphase_bank<In>::set_taps(const std::vector<float>& taps, cudaStream_t stream)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    const std::size_t N = d_n;
    // Queued work may still read the taps and the history about to be replaced.
    GPUFILTER_CHECK(cudaStreamSynchronize(stream));
    const std::size_t T = upload_branch_taps(taps, N, d_branch, stream);

    // The newest N*T - 1 samples of the old history; zeros before them.
    const std::size_t old_len = d_history_len;
    const std::size_t new_len = N * T - 1;
    const std::size_t capacity = std::max<std::size_t>(new_len, 1);
    device_buffer<complex>& next = d_history[d_current ^ 1];
    if (next.size() < capacity)
        next = device_buffer<complex>(capacity);
    pfb_kernels::launch_history_window(
        view<In>(d_history[d_current].get(), old_len, nullptr, 0),
        static_cast<long long>(old_len) - static_cast<long long>(new_len),
        reinterpret_cast<float2*>(next.get()),
        static_cast<long long>(new_len),
        stream);
    // Before the old buffer may go, and `padded` with it.
    GPUFILTER_CHECK(cudaStreamSynchronize(stream));
    d_current ^= 1;
    if (d_history[d_current ^ 1].size() < capacity)
        d_history[d_current ^ 1] = device_buffer<complex>(capacity);
    d_history_len = new_len;
    d_taps_per_filter = static_cast<int>(T);
    d_taps = taps;
    d_fused = pfb_fused_for(d_tuning, d_n, d_rate, d_taps_per_filter);
    d_copy_taps = d_fused && d_block_samples &&
                  pfb_fir_fft::shared_taps_fit(d_n,
                                               d_block_samples,
                                               d_rate,
                                               d_taps_per_filter,
                                               d_shared_per_sm,
                                               d_shared_reserved,
                                               d_shared_per_block);
}

template <class In>
void polyphase_bank<In>::set_history(const In* host_samples, cudaStream_t stream)
{
    // Converted here exactly as the kernels convert (sample_load.h), so the history
    // is complex whatever the format.
    std::vector<complex> converted(d_history_len);
    const auto* raw = reinterpret_cast<const device_t<In>*>(host_samples);
    for (std::size_t i = 0; i < d_history_len; ++i) {
        const float2 c = to_complex(raw[i]);
        converted[i] = complex(c.x, c.y);
    }
    if (d_history_len)
        GPUFILTER_CHECK(cudaMemcpyAsync(d_history[d_current].get(),
                                        converted.data(),
                                        d_history_len * sizeof(complex),
                                        cudaMemcpyHostToDevice,
                                        stream));
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // `converted` goes away
    d_phase = d_rate - 1;
    d_steps = 0;
}

template <class In>
void polyphase_bank<In>::reset(cudaStream_t stream)
{
    if (d_history_len)
        GPUFILTER_CHECK(cudaMemsetAsync(
            d_history[d_current].get(), 0, d_history_len * sizeof(complex), stream));
    d_phase = d_rate - 1;
    d_steps = 0;
}

template <class In>
void polyphase_bank<In>::origin(std::size_t first, long long& v_first, int& base) const
{
    const long long N = d_n;
    const long long R = d_rate;
    // Step `first` of this call ends at v = H + phase + first*R of [history | input];
    // it is step d_steps + first of the stream, which ends at sample
    // (d_steps + first + 1)*R - 1: base makes v + base that sample modulo N.
    v_first = static_cast<long long>(d_history_len + d_phase) +
              static_cast<long long>(first) * R;
    const long long step_mod = static_cast<long long>((d_steps + first) % d_n);
    long long b = ((step_mod + 1) * R - 1 - v_first) % N;
    if (b < 0)
        b += N;
    base = static_cast<int>(b);
}

template <class In>
void polyphase_bank<In>::filter_fft_call(const In* d_in,
                                         std::size_t n,
                                         complex* dst,
                                         cudaStream_t stream)
{
    const std::size_t nsteps = output_count(n);
    filter_fft(d_in, n, 0, nsteps, dst, stream); // no steps: no launch
    advance(d_in, n, stream);
}

template <class In>
void polyphase_bank<In>::filter_fft(const In* d_in,
                                    std::size_t n,
                                    std::size_t first,
                                    std::size_t count,
                                    complex* dst,
                                    cudaStream_t stream)
{
    if (count == 0)
        return;
    if (!d_fused)
        throw std::logic_error("polyphase_bank::filter_fft: not on the fused path");
    if (first + count > output_count(n))
        throw std::logic_error("polyphase_bank::filter_fft: steps out of range");
    long long v_first = 0;
    int base = 0;
    origin(first, v_first, base);
    // The taps' copy only where a launch fills every multiprocessor with the blocks it
    // holds: alone on one, a block waits for its copy with nothing to run meanwhile
    // (the streams layout's chunks of 2^21 samples: 3 to 6% slower with it).
    const long long copy_taps_from =
        d_copy_taps ? static_cast<long long>(d_multiprocessors) *
                          pfb_fir_fft::min_blocks_for(d_block_samples)
                    : 0;
    const auto src = view<In>(d_history[d_current].get(), d_history_len, d_in, n);
    using S = device_t<In>;
    const auto keep = next_history(d_in, n, first == 0);
    const fused_args<S> a{ d_rate,
                           d_taps_per_filter,
                           d_branch.get(),
                           reinterpret_cast<const float2*>(d_twiddle.get()),
                           v_first,
                           base,
                           static_cast<long long>(count),
                           reinterpret_cast<float2*>(dst),
                           copy_taps_from,
                           keep,
                           stream };
    launch_fused(d_n, d_block_samples, src, a);
}

template <class In>
void polyphase_bank<In>::filter_chunk(const In* d_in,
                                      std::size_t n,
                                      std::size_t first,
                                      std::size_t count,
                                      cudaStream_t stream)
{
    if (count == 0)
        return;
    if (count > d_steps_per_chunk || first + count > output_count(n))
        throw std::logic_error("polyphase_bank::filter_chunk: steps out of range");
    const long long N = d_n;
    long long v_first = 0;
    int base = 0;
    origin(first, v_first, base);

    const int F = pfb_shape::tile_columns(d_n);
    const dim3 block(F, pfb_shape::block_rows(d_n));
    const long long per_block = pfb_shape::block_steps(d_n);
    const long long grid_y = (static_cast<long long>(count) + per_block - 1) / per_block;
    if (grid_y > 65535)
        throw std::logic_error("polyphase_bank::filter_chunk: grid too large");
    const dim3 grid(blocks_for(N, F), static_cast<unsigned>(grid_y));
    // One row per step (R == N): the register-blocked inner loop.
    auto* kernel = d_rate == d_n ? pfb_kernels::fir<device_t<In>, true>
                                 : pfb_kernels::fir<device_t<In>, false>;
    kernel<<<grid, block, pfb_shape::smem_bytes(d_n, d_rate), stream>>>(
        view<In>(d_history[d_current].get(), d_history_len, d_in, n),
        d_n,
        d_rate,
        d_taps_per_filter,
        d_branch.get(),
        v_first,
        static_cast<int>(base),
        static_cast<long long>(count),
        reinterpret_cast<float2*>(d_rows.get()),
        next_history(d_in, n, first == 0));
    GPUFILTER_CHECK_LAUNCH();
}

template <class In>
void polyphase_bank<In>::inverse_fft(const complex* src,
                                     complex* dst,
                                     std::size_t count,
                                     cudaStream_t stream)
{
    d_fft->inverse(src, dst, count, stream);
}

template <class In>
void polyphase_bank<In>::advance(const In* d_in, std::size_t n, cudaStream_t stream)
{
    const std::size_t nsteps = output_count(n);
    if (nsteps == 0) // else the kernel of the call's first chunk kept it
        launch_history_keep(next_history(d_in, n, true), stream);
    // The history buffers swap, the phase and the step count move on.
    if (d_history_len)
        d_current ^= 1;
    d_phase = d_phase + nsteps * d_rate - n;
    d_steps = (d_steps + nsteps) % static_cast<std::uint64_t>(d_n);
}

#define GPUFILTER_INSTANTIATE_POLYPHASE_BANK(In) template class polyphase_bank<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_POLYPHASE_BANK)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
