/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "../common/resources.h"
#include "pfb_arb_resampler_engine.h"
#include "pfb_channelizer_engine.h"
#include "pfb_decimator_engine.h"
#include "pfb_interpolator_engine.h"
#include "pfb_stream.h"
#include "pfb_synthesizer_engine.h"
#include "pfb_types.h"
#include <memory>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
pfb_layout layout_of(bool vector_layout)
{
    return vector_layout ? pfb_layout::vector : pfb_layout::streams;
}

template <class Engine, class... Args>
std::unique_ptr<processor> make_on(int device, Args&&... args)
{
    use_device(device);
    return std::make_unique<Engine>(std::forward<Args>(args)...);
}
} // namespace

template <class In>
pfb_channelizer_stream<In>::pfb_channelizer_stream(int device,
                                                   unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   float oversample_rate,
                                                   bool vector_layout,
                                                   const std::vector<int>& channel_map,
                                                   std::size_t max_chunk)
    : host_stream(device,
                  make_on<pfb_channelizer_engine<In>>(device,
                                                      numchans,
                                                      taps,
                                                      oversample_rate,
                                                      layout_of(vector_layout),
                                                      channel_map),
                  max_chunk),
      d_numchans(numchans),
      d_oversample_rate(oversample_rate),
      d_vector(vector_layout)
{
}

template <class In>
void pfb_channelizer_stream<In>::set_taps(const std::vector<float>& taps)
{
    cudaStream_t s = compute_stream();
    static_cast<pfb_channelizer_engine<In>&>(current()).set_taps(taps, s);
}

template <class In>
void pfb_channelizer_stream<In>::set_channel_map(const std::vector<int>& map)
{
    cudaStream_t s = compute_stream();
    auto& engine = static_cast<pfb_channelizer_engine<In>&>(current());
    if (map.size() == engine.channel_map().size()) {
        engine.set_channel_map(map, s);
        return;
    }
    replace(std::make_unique<pfb_channelizer_engine<In>>(
        d_numchans, engine.taps(), d_oversample_rate, layout_of(d_vector), map));
}

template <class In>
std::size_t pfb_channelizer_stream<In>::nports() const
{
    return current().ports().out_item_bytes.size();
}

template <class In>
pfb_decimator_stream<In>::pfb_decimator_stream(int device,
                                               unsigned decim,
                                               const std::vector<float>& taps,
                                               unsigned channel,
                                               bool use_fft_rotator,
                                               bool use_fft_filters,
                                               std::size_t max_chunk)
    : host_stream(device,
                  make_on<pfb_decimator_engine<In>>(
                      device, decim, taps, channel, use_fft_rotator, use_fft_filters),
                  max_chunk)
{
}

template <class In>
void pfb_decimator_stream<In>::set_taps(const std::vector<float>& taps)
{
    cudaStream_t s = compute_stream();
    static_cast<pfb_decimator_engine<In>&>(current()).set_taps(taps, s);
}

template <class In>
void pfb_decimator_stream<In>::set_channel(unsigned channel)
{
    cudaStream_t s = compute_stream();
    static_cast<pfb_decimator_engine<In>&>(current()).set_channel(channel, s);
}

pfb_interpolator_stream::pfb_interpolator_stream(int device,
                                                 unsigned interp,
                                                 const std::vector<float>& taps,
                                                 std::size_t max_chunk)
    : host_stream(
          device, make_on<pfb_interpolator_engine>(device, interp, taps), max_chunk)
{
}

void pfb_interpolator_stream::set_taps(const std::vector<float>& taps)
{
    cudaStream_t s = compute_stream();
    static_cast<pfb_interpolator_engine&>(current()).set_taps(taps, s);
}

pfb_synthesizer_stream::pfb_synthesizer_stream(int device,
                                               unsigned numchans,
                                               const std::vector<float>& taps,
                                               bool twox,
                                               const std::vector<int>& port_map,
                                               std::size_t max_chunk)
    : host_stream(device,
                  make_on<pfb_synthesizer_engine>(device, numchans, taps, twox, port_map),
                  max_chunk),
      d_numchans(numchans),
      d_twox(twox)
{
}

void pfb_synthesizer_stream::set_taps(const std::vector<float>& taps)
{
    cudaStream_t s = compute_stream();
    static_cast<pfb_synthesizer_engine&>(current()).set_taps(taps, s);
}

void pfb_synthesizer_stream::set_channel_map(const std::vector<int>& port_map)
{
    cudaStream_t s = compute_stream();
    auto& engine = static_cast<pfb_synthesizer_engine&>(current());
    if (port_map.size() == engine.channel_map().size()) {
        engine.set_channel_map(port_map, s);
        return;
    }
    replace(std::make_unique<pfb_synthesizer_engine>(
        d_numchans, engine.taps(), d_twox, port_map));
}

#define GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_STREAM(In) \
    template class pfb_channelizer_stream<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_STREAM)
template class pfb_decimator_stream<complex>;

template <class T>
pfb_arb_resampler_stream<T>::pfb_arb_resampler_stream(int device,
                                                      float rate,
                                                      const std::vector<float>& taps,
                                                      unsigned filter_size,
                                                      std::size_t max_chunk)
    : host_stream(device,
                  make_on<pfb_arb_resampler_engine<T>>(device, rate, taps, filter_size),
                  max_chunk)
{
}

namespace {
template <class T>
pfb_arb_resampler_engine<T>& arb(processor& p)
{
    return static_cast<pfb_arb_resampler_engine<T>&>(p);
}
template <class T>
const pfb_arb_resampler_engine<T>& arb(const processor& p)
{
    return static_cast<const pfb_arb_resampler_engine<T>&>(p);
}
} // namespace

template <class T>
void pfb_arb_resampler_stream<T>::set_taps(const std::vector<float>& taps)
{
    cudaStream_t s = compute_stream();
    arb<T>(current()).set_taps(taps, s);
}

template <class T>
void pfb_arb_resampler_stream<T>::set_rate(float rate)
{
    arb<T>(current()).set_rate(rate);
    fit_outputs();
}

template <class T>
void pfb_arb_resampler_stream<T>::set_filter(unsigned filter)
{
    arb<T>(current()).set_filter(filter);
}

template <class T>
unsigned pfb_arb_resampler_stream<T>::filter() const
{
    return arb<T>(current()).schedule().filter();
}

template <class T>
float pfb_arb_resampler_stream<T>::acc() const
{
    return arb<T>(current()).schedule().acc();
}

template <class T>
std::size_t pfb_arb_resampler_stream<T>::skip() const
{
    return arb<T>(current()).schedule().skip();
}

template <class T>
std::size_t pfb_arb_resampler_stream<T>::inputs_for(std::size_t k) const
{
    return arb<T>(current()).schedule().position_of(k);
}

template <class T>
std::size_t pfb_arb_resampler_stream<T>::next_position(std::size_t n) const
{
    return arb<T>(current()).next_position(n);
}

template <class T>
void pfb_arb_resampler_stream<T>::clear_skip()
{
    arb<T>(current()).clear_skip();
}

template class pfb_arb_resampler_stream<float>;
template class pfb_arb_resampler_stream<complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
