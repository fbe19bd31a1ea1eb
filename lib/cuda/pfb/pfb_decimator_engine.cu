/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pfb_decimator_engine.h"
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

void check_channel(unsigned channel, unsigned decim)
{
    if (channel >= decim)
        throw std::invalid_argument(
            "channel: must be in [0, decim = " + std::to_string(decim) + "), got " +
            std::to_string(channel));
}

//! decim, once it and the channel are known good (before the GPU is touched).
unsigned checked_decim(unsigned decim, unsigned channel)
{
    if (decim == 0)
        throw std::invalid_argument("decim: must be >= 1, got 0");
    check_channel(channel, decim);
    return decim;
}

//! The decimator's bank runs the two passes whatever the tuning asks: its output
//! stage (pick_column, rotate_sum) reads the branch rows.
pfb_tuning two_pass(pfb_tuning t)
{
    t.path = pfb_path::two_pass;
    return t;
}

/*!
 * gr-filter's d_rotator (pfb_decimator_ccf_impl's constructor):
 * gr_expj(i * channel * 2 * GR_M_PI / decim), the angle formed in double and passed
 * to gr_expj as a float. Its sine and cosine are taken here in double of that float
 * angle; sincosf is within an ulp of them.
 */
std::vector<complex> gr_rotator(unsigned decim, unsigned channel)
{
    std::vector<complex> rot(decim);
    for (unsigned i = 0; i < decim; ++i) {
        const float angle = static_cast<float>(i * channel * 2 * M_PI / decim);
        rot[i] = complex(static_cast<float>(std::cos(static_cast<double>(angle))),
                         static_cast<float>(std::sin(static_cast<double>(angle))));
    }
    return rot;
}

} // namespace

template <class In>
pfb_decimator_engine<In>::pfb_decimator_engine(unsigned decim,
                                               const std::vector<float>& taps,
                                               unsigned channel,
                                               bool use_fft_rotator,
                                               bool use_fft_filters,
                                               const pfb_tuning& tuning)
    : d_bank(
          checked_decim(decim, channel), taps, static_cast<int>(decim), two_pass(tuning)),
      d_channel(channel),
      d_use_fft_rotator(use_fft_rotator),
      d_use_fft_filters(use_fft_filters),
      d_ports{ { sizeof(In) }, { sizeof(complex) } }
{
    if (!use_fft_rotator) {
        d_rotator = device_buffer<complex>(decim);
        stream s;
        set_channel(channel, s);
    }
}

template <class In>
void pfb_decimator_engine<In>::set_taps(const std::vector<float>& taps, cudaStream_t s)
{
    d_bank.set_taps(taps, s);
}

template <class In>
void pfb_decimator_engine<In>::set_channel(unsigned channel, cudaStream_t s)
{
    check_channel(channel, decimation());
    if (!d_use_fft_rotator) {
        const auto rot = gr_rotator(decimation(), channel);
        // Ordered after queued calls that read the old table; waited for, since
        // `rot` goes away.
        GPUFILTER_CHECK(cudaMemcpyAsync(d_rotator.get(),
                                        rot.data(),
                                        rot.size() * sizeof(complex),
                                        cudaMemcpyHostToDevice,
                                        s));
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
    }
    d_channel = channel;
}

template <class In>
std::size_t pfb_decimator_engine<In>::process(const void* const* in,
                                              std::size_t n,
                                              void* const* out,
                                              cudaStream_t s)
{
    const In* d_in = static_cast<const In*>(in[0]);
    auto* d_out = static_cast<float2*>(out[0]);
    const std::size_t nsteps = d_bank.output_count(n);
    const int N = d_bank.numchans();
    const auto* rows = reinterpret_cast<const float2*>(d_bank.rows());
    for (std::size_t first = 0; first < nsteps; first += d_bank.steps_per_chunk()) {
        const std::size_t count = std::min(d_bank.steps_per_chunk(), nsteps - first);
        const auto c = static_cast<long long>(count);
        d_bank.filter_chunk(d_in, n, first, count, s);
        constexpr int block = 256;
        if (d_use_fft_rotator) {
            d_bank.inverse_fft(d_bank.rows(), d_bank.rows(), count, s);
            pfb_kernels::pick_column<<<blocks_for(c, block), block, 0, s>>>(
                rows, N, c, static_cast<int>(d_channel), d_out + first);
        } else {
            // One warp per output.
            pfb_kernels::rotate_sum<<<blocks_for(c * 32, block), block, 0, s>>>(
                rows,
                N,
                c,
                reinterpret_cast<const float2*>(d_rotator.get()),
                d_out + first);
        }
        GPUFILTER_CHECK_LAUNCH();
    }
    d_bank.advance(d_in, n, s);
    return nsteps;
}

#define GPUFILTER_INSTANTIATE_PFB_DECIMATOR_ENGINE(In) \
    template class pfb_decimator_engine<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_PFB_DECIMATOR_ENGINE)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
