/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/common/sample_load.h"
#include "cuda/pfb/pfb_stream.h"
#include "cuda/pfb/pfb_types.h"
#include "pfb/pfb_backend.h"
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

template <class In>
cuda::pfb_channelizer_stream<In>& gpu_channelizer(block_core& core)
{
    return static_cast<cuda::pfb_channelizer_stream<In>&>(*core.gpu());
}

cuda::pfb_decimator_stream<gr_complex>& gpu_decimator(block_core& core)
{
    return static_cast<cuda::pfb_decimator_stream<gr_complex>&>(*core.gpu());
}

} // namespace

std::vector<std::vector<float>> polyphase_split(unsigned nfilts,
                                                const std::vector<float>& taps)
{
    const unsigned t = taps_per_filter(nfilts, taps);
    std::vector<std::vector<float>> out(nfilts, std::vector<float>(t, 0.0f));
    for (unsigned i = 0; i < nfilts; ++i)
        for (unsigned k = 0; k < t; ++k)
            if (i + k * nfilts < taps.size())
                out[i][k] = taps[i + k * nfilts];
    return out;
}

unsigned taps_per_filter(unsigned nfilts, const std::vector<float>& taps)
{
    return static_cast<unsigned>((taps.size() + nfilts - 1) / nfilts);
}

int channelizer_output_multiple(unsigned numchans, int rate_ratio)
{
    int m = 1;
    while ((static_cast<long>(m) * rate_ratio) % numchans != 0)
        ++m;
    return m;
}

int fft_filter_output_multiple(unsigned decim, const std::vector<float>& taps)
{
    const gr::filter::kernel::fft_filter_ccf f(
        1, std::vector<float>(taps_per_filter(decim, taps), 0.0f));
    return static_cast<int>(f.filtersize() - f.ntaps() + 1);
}

// ---- CPU channelizer: gr-filter's general_work on stream_to_streams' outputs ----

template <class In>
cpu_pfb_channelizer<In>::cpu_pfb_channelizer(unsigned numchans,
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
std::size_t cpu_pfb_channelizer<In>::process(const void* const* windows,
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

cpu_pfb_decimator::cpu_pfb_decimator(unsigned decim,
                                     const std::vector<float>& taps,
                                     unsigned channel,
                                     bool use_fft_rotator)
    : polyphase_filterbank(decim, taps), d_use_fft_rotator(use_fft_rotator)
{
    set_channel(channel);
}

void cpu_pfb_decimator::set_channel(unsigned channel)
{
    d_channel = channel;
    d_rotator.resize(d_nfilts);
    for (unsigned i = 0; i < d_nfilts; i++) // gr-filter's table, as it builds it
        d_rotator[i] = gr_expj(i * d_channel * 2 * GR_M_PI / d_nfilts);
}

std::size_t
cpu_pfb_decimator::process(const void* const* windows, std::size_t nnew, void* const* out)
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

// ---- backends ----

template <class In>
block_core::backends pfb_channelizer_backend<In>::make(unsigned numchans,
                                                       const std::vector<float>& taps,
                                                       float oversample_rate,
                                                       bool vector_layout,
                                                       const std::vector<int>& map)
{
    const int rate = checked_rate_ratio(numchans, oversample_rate);
    return {
        [=](int device, std::size_t max_chunk) {
            return std::make_unique<cuda::pfb_channelizer_stream<In>>(
                device, numchans, taps, oversample_rate, vector_layout, map, max_chunk);
        },
        [=] {
            return std::make_unique<cpu_pfb_channelizer<In>>(
                numchans, taps, rate, vector_layout, map);
        }
    };
}

template <class In>
void pfb_channelizer_backend<In>::set_taps(block_core& core,
                                           const std::vector<float>& taps)
{
    if (core.gpu())
        gpu_channelizer<In>(core).set_taps(taps);
    else
        static_cast<cpu_pfb_channelizer<In>&>(*core.cpu()).set_taps(taps);
}

template <class In>
void pfb_channelizer_backend<In>::set_channel_map(block_core& core,
                                                  const std::vector<int>& map)
{
    if (core.gpu())
        gpu_channelizer<In>(core).set_channel_map(map);
    else
        static_cast<cpu_pfb_channelizer<In>&>(*core.cpu()).set_channel_map(map);
}

template <class In>
void pfb_channelizer_backend<In>::set_max_chunk(block_core& core, std::size_t samples)
{
    if (core.gpu())
        gpu_channelizer<In>(core).set_max_chunk(samples);
}

block_core::backends pfb_decimator_backend::make(unsigned decim,
                                                 const std::vector<float>& taps,
                                                 unsigned channel,
                                                 bool use_fft_rotator,
                                                 bool use_fft_filters)
{
    return { [=](int device, std::size_t max_chunk) {
                return std::make_unique<cuda::pfb_decimator_stream<gr_complex>>(
                    device,
                    decim,
                    taps,
                    channel,
                    use_fft_rotator,
                    use_fft_filters,
                    max_chunk);
            },
             [=] {
                 return std::make_unique<cpu_pfb_decimator>(
                     decim, taps, channel, use_fft_rotator);
             } };
}

void pfb_decimator_backend::set_taps(block_core& core, const std::vector<float>& taps)
{
    if (core.gpu())
        gpu_decimator(core).set_taps(taps);
    else
        static_cast<cpu_pfb_decimator&>(*core.cpu()).set_taps(taps);
}

void pfb_decimator_backend::set_channel(block_core& core, unsigned channel)
{
    if (core.gpu())
        gpu_decimator(core).set_channel(channel);
    else
        static_cast<cpu_pfb_decimator&>(*core.cpu()).set_channel(channel);
}

#define GPUFILTER_INSTANTIATE_CPU_PFB_CHANNELIZER(In) \
    template class cpu_pfb_channelizer<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_CPU_PFB_CHANNELIZER)
#define GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_BACKEND(In) \
    template struct pfb_channelizer_backend<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_BACKEND)

// ---- arbitrary resampler ----

namespace {

//! gr-filter's set_phase arithmetic: the arm of a phase in [0, 2 pi).
unsigned filter_of_phase(float ph, unsigned nfilts)
{
    const float ph_diff = 2.0 * GR_M_PI / static_cast<float>(nfilts);
    return static_cast<unsigned>(static_cast<int>(ph / ph_diff));
}

template <class T>
cuda::pfb_arb_resampler_stream<T>& gpu_arb(block_core& core)
{
    return static_cast<cuda::pfb_arb_resampler_stream<T>&>(*core.gpu());
}

template <class T>
cpu_pfb_arb_resampler<T>& cpu_arb(block_core& core)
{
    return static_cast<cpu_pfb_arb_resampler<T>&>(*core.cpu());
}

} // namespace

template <class T>
cpu_pfb_arb_resampler<T>::cpu_pfb_arb_resampler(float rate,
                                                const std::vector<float>& taps,
                                                unsigned nfilts)
    : d_kernel(rate, taps, nfilts), d_sched(rate, nfilts, (taps.size() / 2) % nfilts)
{
}

template <class T>
std::size_t cpu_pfb_arb_resampler<T>::process(const void* const* windows,
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

template <class T>
block_core::backends pfb_arb_resampler_backend<T>::make(float rate,
                                                        const std::vector<float>& taps,
                                                        unsigned filter_size)
{
    return { [=](int device, std::size_t max_chunk) {
                return std::make_unique<cuda::pfb_arb_resampler_stream<T>>(
                    device, rate, taps, filter_size, max_chunk);
            },
             [=] {
                 return std::make_unique<cpu_pfb_arb_resampler<T>>(
                     rate, taps, filter_size);
             } };
}

template <class T>
void pfb_arb_resampler_backend<T>::set_taps(block_core& core,
                                            const std::vector<float>& taps)
{
    if (core.on_gpu())
        gpu_arb<T>(core).set_taps(taps);
    else
        cpu_arb<T>(core).kernel().set_taps(taps);
}

template <class T>
void pfb_arb_resampler_backend<T>::set_rate(block_core& core, float rate)
{
    if (core.on_gpu()) {
        gpu_arb<T>(core).set_rate(rate);
    } else {
        cpu_arb<T>(core).kernel().set_rate(rate);
        cpu_arb<T>(core).schedule().set_rate(rate);
    }
}

template <class T>
void pfb_arb_resampler_backend<T>::set_phase(block_core& core, float ph, unsigned nfilts)
{
    if (core.on_gpu()) {
        gpu_arb<T>(core).set_filter(filter_of_phase(ph, nfilts));
    } else {
        auto& c = cpu_arb<T>(core);
        c.kernel().set_phase(ph);
        c.schedule().set_filter(filter_of_phase(ph, nfilts));
    }
}

template <class T>
unsigned pfb_arb_resampler_backend<T>::filter(block_core& core)
{
    return core.on_gpu() ? gpu_arb<T>(core).filter()
                         : cpu_arb<T>(core).schedule().filter();
}

template <class T>
std::size_t pfb_arb_resampler_backend<T>::skip(block_core& core)
{
    return core.on_gpu() ? gpu_arb<T>(core).skip() : cpu_arb<T>(core).schedule().skip();
}

template <class T>
std::size_t pfb_arb_resampler_backend<T>::output_count(block_core& core, std::size_t n)
{
    return core.on_gpu() ? gpu_arb<T>(core).output_count(n)
                         : cpu_arb<T>(core).schedule().count(n);
}

template <class T>
std::size_t pfb_arb_resampler_backend<T>::inputs_for(block_core& core, std::size_t k)
{
    return core.on_gpu() ? gpu_arb<T>(core).inputs_for(k)
                         : cpu_arb<T>(core).schedule().position_of(k);
}

template <class T>
std::size_t pfb_arb_resampler_backend<T>::next_position(block_core& core, std::size_t n)
{
    if (core.on_gpu())
        return gpu_arb<T>(core).next_position(n);
    std::size_t next = n;
    cpu_arb<T>(core).schedule().count(n, &next);
    return next;
}

template <class T>
void pfb_arb_resampler_backend<T>::clear_skip(block_core& core)
{
    if (core.on_gpu())
        gpu_arb<T>(core).clear_skip();
    else
        cpu_arb<T>(core).schedule().clear_skip();
}

template class cpu_pfb_arb_resampler<gr_complex>;
template class cpu_pfb_arb_resampler<float>;
template struct pfb_arb_resampler_backend<gr_complex>;
template struct pfb_arb_resampler_backend<float>;

} // namespace gpufilter
} // namespace gr
