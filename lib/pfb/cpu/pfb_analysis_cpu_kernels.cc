/* SPDX-License-Identifier: GPL-3.0-or-later */
// The analysis side's CPU kernels: channelizer, decimator, arbitrary resampler.
#include "cuda/common/sample_load.h"
#include "cuda/pfb/pfb_types.h"
#include "pfb/cpu/pfb_cpu_kernels.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/expj.h>
#include <gnuradio/filter/fft_filter.h>
#include <gnuradio/math.h>
#include <type_traits>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

//! A stored sample as the complex float the GPU computes with (sample_load.h).
template <class In>
gr_complex load(const In& x)
{
    if constexpr (std::is_same_v<In, gr_complex>) {
        return x;
    } else {
        const float2 f = cuda::to_complex(x);
        return { f.x, f.y };
    }
}

/*!
 * Zeros before each stream's first sample: gr-filter's fir_filter::filter() reads from
 * its input pointer aligned down (up to volk's alignment before it, weighted by zero
 * taps), which must be finite numbers, as they are in GNU Radio's buffers.
 */
constexpr std::size_t lead = 16;

/*!
 * stream_to_streams(nfilts) of a window: streams[j][lead + t] is wideband sample
 * t*nfilts + j - skip of the window (zero before the window). Every stream gets
 * `len` samples after its `lead` zeros.
 */
template <class In>
void split_streams(const In* window,
                   long skip,
                   unsigned nfilts,
                   std::size_t len,
                   std::vector<std::vector<gr_complex>>& streams)
{
    streams.resize(nfilts);
    for (unsigned j = 0; j < nfilts; ++j) {
        auto& s = streams[j];
        if (s.size() < lead + len)
            s.resize(lead + len); // grows with the largest call only; the lead stays 0
        for (std::size_t t = 0; t < len; ++t) {
            const long pos = static_cast<long>(t * nfilts + j) - skip;
            s[lead + t] = pos < 0 ? gr_complex(0) : load(window[pos]);
        }
    }
}

} // namespace

// ---- CPU channelizer: gr-filter's general_work on stream_to_streams' outputs ----

template <class In>
pfb_channelizer_cpu_kernel<In>::pfb_channelizer_cpu_kernel(unsigned numchans,
                                                           const std::vector<float>& taps,
                                                           int rate_ratio,
                                                           bool vector_layout,
                                                           const std::vector<int>& map)
    : polyphase_filterbank(numchans, taps),
      d_rate(rate_ratio),
      d_vector(vector_layout),
      d_map(map),
      d_idxlut(numchans)
{
    for (unsigned i = 0; i < numchans; ++i)
        d_idxlut[i] = numchans - ((i + d_rate) % numchans) - 1;
}

template <class In>
std::size_t pfb_channelizer_cpu_kernel<In>::process(const void* const* windows,
                                                    std::size_t nnew,
                                                    void* const* out)
{
    const int nfilts = static_cast<int>(d_nfilts);
    const std::size_t t = d_taps_per_filter;
    // gr-filter's stream windows hold T old samples (history T+1); ours holds
    // nfilts*T - 1 old wideband samples, one short of stream 0's oldest, which
    // gr-filter never reads (stream 0 is filtered from in[n], n >= 1).
    const std::size_t per_stream = nnew / d_nfilts;
    split_streams(
        static_cast<const In*>(windows[0]), 1, d_nfilts, t + per_stream, d_streams);

    const int toconsume = static_cast<int>(per_stream);
    int n = 1, i = -1, j = 0, oo = 0, last;
    auto* inbuf = d_fft.get_inbuf();
    const auto* outbuf = d_fft.get_outbuf();
    while (n <= toconsume) {
        j = 0;
        i = (i + d_rate) % nfilts;
        last = i;
        while (i >= 0) {
            inbuf[d_idxlut[j]] = d_fir_filters[i].filter(&d_streams[j][lead + n]);
            j++;
            i--;
        }
        i = nfilts - 1;
        while (i > last) {
            inbuf[d_idxlut[j]] = d_fir_filters[i].filter(&d_streams[j][lead + n - 1]);
            j++;
            i--;
        }
        n += (i + d_rate) >= nfilts;
        d_fft.execute();
        if (d_vector) {
            std::copy(outbuf,
                      outbuf + nfilts,
                      static_cast<gr_complex*>(out[0]) +
                          static_cast<std::size_t>(oo) * nfilts);
        } else {
            for (std::size_t k = 0; k < d_map.size(); ++k)
                static_cast<gr_complex*>(out[k])[oo] = outbuf[d_map[k]];
        }
        oo++;
    }
    return static_cast<std::size_t>(oo);
}

// ---- CPU decimator: gr-filter's work_fir_fft / work_fir_exp ----

pfb_decimator_cpu_kernel::pfb_decimator_cpu_kernel(unsigned decim,
                                                   const std::vector<float>& taps,
                                                   unsigned channel,
                                                   bool use_fft_rotator)
    : polyphase_filterbank(decim, taps), d_use_fft_rotator(use_fft_rotator)
{
    set_channel(channel);
}

void pfb_decimator_cpu_kernel::set_channel(unsigned channel)
{
    d_channel = channel;
    d_rotator.resize(d_nfilts);
    for (unsigned i = 0; i < d_nfilts; i++) // gr-filter's table, as it builds it
        d_rotator[i] = gr_expj(i * d_channel * 2 * GR_M_PI / d_nfilts);
}

std::size_t pfb_decimator_cpu_kernel::process(const void* const* windows,
                                              std::size_t nnew,
                                              void* const* out)
{
    const unsigned rate = d_nfilts;
    const std::size_t t = d_taps_per_filter;
    const std::size_t nout = nnew / rate;
    // gr-filter's stream windows hold T-1 old samples (history T); ours holds
    // rate*T - 1 old wideband samples, of which the newest (T-1)*rate are those.
    const long old = static_cast<long>(rate * t - 1);
    const auto* window = static_cast<const gr_complex*>(windows[0]);
    split_streams(window + (old - static_cast<long>((t - 1) * rate)),
                  0,
                  rate,
                  t - 1 + nout,
                  d_streams);
    auto* y = static_cast<gr_complex*>(out[0]);
    for (std::size_t i = 0; i < nout; i++) {
        if (d_use_fft_rotator) {
            for (unsigned j = 0; j < rate; j++)
                d_fft.get_inbuf()[j] =
                    d_fir_filters[j].filter(&d_streams[rate - 1 - j][lead + i]);
            d_fft.execute();
            y[i] = d_fft.get_outbuf()[d_channel];
        } else {
            y[i] = 0;
            for (int j = rate - 1; j >= 0; j--)
                y[i] += d_fir_filters[j].filter(&d_streams[rate - 1 - j][lead + i]) *
                        d_rotator[j];
        }
    }
    return nout;
}

#define GPUFILTER_INSTANTIATE_CPU_PFB_CHANNELIZER(In) \
    template class pfb_channelizer_cpu_kernel<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_CPU_PFB_CHANNELIZER)

// ---- arbitrary resampler ----

template <class T, class Tap>
pfb_arb_resampler_cpu_kernel<T, Tap>::pfb_arb_resampler_cpu_kernel(
    float rate, const std::vector<Tap>& taps, unsigned nfilts)
    : d_kernel(rate, taps, nfilts),
      d_nfilts(nfilts),
      d_sched(rate, nfilts, (taps.size() / 2) % nfilts)
{
}

template <class T, class Tap>
std::size_t pfb_arb_resampler_cpu_kernel<T, Tap>::process(const void* const* windows,
                                                          std::size_t nnew,
                                                          void* const* out)
{
    const std::size_t skip = d_sched.skip();
    const std::size_t expected = d_sched.advance(nnew, nullptr);
    if (nnew <= skip)
        return 0; // the kernel would not run: no output is at these positions
    // The window's history is the kernel's taps_per_filter() - 1 samples; the next
    // output is `skip` samples into the new ones.
    auto* in = const_cast<T*>(static_cast<const T*>(windows[0])) + skip;
    int nread = 0;
    const int produced = d_kernel.filter(
        static_cast<T*>(out[0]), in, static_cast<int>(nnew - skip), nread);
    if (static_cast<std::size_t>(produced) != expected ||
        skip + static_cast<std::size_t>(nread) != nnew + d_sched.skip())
        throw std::logic_error("pfb_arb_resampler: schedule differs from gr-filter's");
    return static_cast<std::size_t>(produced);
}

template <class T, class Tap>
void pfb_arb_resampler_cpu_kernel<T, Tap>::set_complex_taps(
    const std::vector<gr_complex>& taps)
{
    if constexpr (std::is_same_v<Tap, gr_complex>)
        d_kernel.set_taps(taps);
    else
        controlled_cpu_kernel<cuda::pfb_arb_resampler_controls>::set_complex_taps(taps);
}

template <class T, class Tap>
void pfb_arb_resampler_cpu_kernel<T, Tap>::set_rate(float rate)
{
    d_kernel.set_rate(rate);
    d_sched.set_rate(rate);
}

template <class T, class Tap>
void pfb_arb_resampler_cpu_kernel<T, Tap>::set_phase(float phase)
{
    d_kernel.set_phase(phase);
    d_sched.set_filter(cuda::arb_filter_of_phase(phase, d_nfilts));
}

template <class T, class Tap>
std::size_t pfb_arb_resampler_cpu_kernel<T, Tap>::output_count(std::size_t n) const
{
    return d_sched.count(n);
}

template <class T, class Tap>
std::size_t pfb_arb_resampler_cpu_kernel<T, Tap>::inputs_for(std::size_t k) const
{
    return d_sched.position_of(k);
}

template <class T, class Tap>
std::size_t pfb_arb_resampler_cpu_kernel<T, Tap>::next_position(std::size_t n) const
{
    std::size_t next = n;
    d_sched.count(n, &next);
    return next;
}

template class pfb_arb_resampler_cpu_kernel<gr_complex>;
template class pfb_arb_resampler_cpu_kernel<float>;
template class pfb_arb_resampler_cpu_kernel<gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
