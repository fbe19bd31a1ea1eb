/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "branch_taps.h"
#include "pfb_interpolator_engine.h"
#include "pfb_interpolator_kernels.cuh"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

unsigned checked_interp(unsigned interp)
{
    if (interp == 0)
        throw std::invalid_argument("interp: must be >= 1, got 0");
    return interp;
}

pfb_kernels::source<float2>
view(const complex* history, std::size_t history_len, const complex* in, std::size_t n)
{
    return { reinterpret_cast<const float2*>(history),
             static_cast<long long>(history_len),
             reinterpret_cast<const float2*>(in),
             static_cast<long long>(n) };
}

} // namespace

pfb_interpolator_engine::pfb_interpolator_engine(unsigned interp,
                                                 const std::vector<float>& taps)
    : d_interp(checked_interp(interp)),
      d_ports{ { sizeof(complex) }, { sizeof(complex) } }
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    stream s;
    set_taps(taps, s);
    s.synchronize();
}

void pfb_interpolator_engine::set_taps(const std::vector<float>& taps, cudaStream_t s)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // queued calls may read what goes
    const std::size_t T = upload_branch_taps(taps, d_interp, d_branch, s);
    const std::size_t old_len = d_history_len;
    const std::size_t new_len = T - 1;
    const std::size_t capacity = std::max<std::size_t>(new_len, 1);
    auto& next = d_history[d_current ^ 1];
    if (next.size() < capacity)
        next = device_buffer<complex>(capacity);
    pfb_kernels::launch_history_window(
        view(d_history[d_current].get(), old_len, nullptr, 0),
        static_cast<long long>(old_len) - static_cast<long long>(new_len),
        reinterpret_cast<float2*>(next.get()),
        static_cast<long long>(new_len),
        s);
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // before `padded` and the old buffer go
    d_current ^= 1;
    if (d_history[d_current ^ 1].size() < capacity)
        d_history[d_current ^ 1] = device_buffer<complex>(capacity);
    d_history_len = new_len;
    d_taps_per_filter = static_cast<int>(T);
    d_taps = taps;
}

void pfb_interpolator_engine::reset(cudaStream_t s)
{
    if (d_history_len)
        GPUFILTER_CHECK(cudaMemsetAsync(
            d_history[d_current].get(), 0, d_history_len * sizeof(complex), s));
}

void pfb_interpolator_engine::set_history(const void* const* host, cudaStream_t s)
{
    if (d_history_len)
        GPUFILTER_CHECK(cudaMemcpyAsync(d_history[d_current].get(),
                                        host[0],
                                        d_history_len * sizeof(complex),
                                        cudaMemcpyHostToDevice,
                                        s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
}

std::size_t pfb_interpolator_engine::process(const void* const* in,
                                             std::size_t n,
                                             void* const* out,
                                             cudaStream_t s)
{
    if (n == 0)
        return 0;
    namespace shape = pfb_kernels::interp_shape;
    const auto* d_in = static_cast<const complex*>(in[0]);
    const int L = static_cast<int>(d_interp);
    const auto src = view(d_history[d_current].get(), d_history_len, d_in, n);
    const long long per_block = shape::block_inputs(L);
    const long long grid_x = (static_cast<long long>(n) + per_block - 1) / per_block;
    const long long grid_y = (L + shape::phases(L) - 1) / shape::phases(L);
    if (grid_x > 0x7fffffffLL || grid_y > 65535)
        throw std::logic_error("pfb_interpolator_engine: grid too large");
    // The last T - 1 samples of [history | input], into the other buffer.
    const auto keep =
        history_keep_for(reinterpret_cast<const float2*>(d_history[d_current].get()),
                         d_history_len,
                         reinterpret_cast<const float2*>(d_in),
                         n,
                         reinterpret_cast<float2*>(d_history[d_current ^ 1].get()));
    pfb_kernels::
        interp_fir<<<dim3(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y)),
                     shape::threads,
                     shape::smem_bytes(L),
                     s>>>(src,
                          L,
                          d_taps_per_filter,
                          d_branch.get(),
                          static_cast<long long>(n),
                          static_cast<float2*>(out[0]),
                          keep);
    GPUFILTER_CHECK_LAUNCH();
    if (d_history_len)
        d_current ^= 1;
    return n * d_interp;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
