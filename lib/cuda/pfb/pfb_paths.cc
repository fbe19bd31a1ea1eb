/* SPDX-License-Identifier: GPL-3.0-or-later */
// The polyphase blocks' GPU paths: each engine behind a host_stream.
#include "../stream/gpu_path.h"
#include "pfb_arb_resampler_engine.h"
#include "pfb_channelizer_engine.h"
#include "pfb_controls.h"
#include "pfb_decimator_engine.h"
#include "pfb_interpolator_engine.h"
#include "pfb_synthesizer_engine.h"
#include "pfb_types.h"
#include <cmath>

namespace gr {
namespace gpufilter {
namespace cuda {

unsigned arb_filter_of_phase(float phase, unsigned nfilts)
{
    const float ph_diff = 2.0 * M_PI / static_cast<float>(nfilts);
    return static_cast<unsigned>(static_cast<int>(phase / ph_diff));
}

template <class In>
gpu_path<pfb_channelizer_controls>
make_pfb_channelizer_path(int device,
                          std::size_t max_chunk,
                          unsigned numchans,
                          const std::vector<float>& taps,
                          float oversample_rate,
                          bool vector_layout,
                          const std::vector<int>& map)
{
    return make_gpu_path<pfb_channelizer_controls, pfb_channelizer_engine<In>>(
        device,
        max_chunk,
        numchans,
        taps,
        oversample_rate,
        vector_layout ? pfb_layout::vector : pfb_layout::streams,
        map);
}

gpu_path<pfb_decimator_controls> make_pfb_decimator_path(int device,
                                                         std::size_t max_chunk,
                                                         unsigned decim,
                                                         const std::vector<float>& taps,
                                                         unsigned channel,
                                                         bool use_fft_rotator,
                                                         bool use_fft_filters)
{
    return make_gpu_path<pfb_decimator_controls, pfb_decimator_engine<complex>>(
        device, max_chunk, decim, taps, channel, use_fft_rotator, use_fft_filters);
}

gpu_path<pfb_interpolator_controls> make_pfb_interpolator_path(
    int device, std::size_t max_chunk, unsigned interp, const std::vector<float>& taps)
{
    return make_gpu_path<pfb_interpolator_controls, pfb_interpolator_engine>(
        device, max_chunk, interp, taps);
}

gpu_path<pfb_synthesizer_controls>
make_pfb_synthesizer_path(int device,
                          std::size_t max_chunk,
                          unsigned numchans,
                          const std::vector<float>& taps,
                          bool twox,
                          const std::vector<int>& port_map)
{
    return make_gpu_path<pfb_synthesizer_controls, pfb_synthesizer_engine>(
        device, max_chunk, numchans, taps, twox, port_map);
}

template <class T>
gpu_path<pfb_arb_resampler_controls>
make_pfb_arb_resampler_path(int device,
                            std::size_t max_chunk,
                            float rate,
                            const std::vector<float>& taps,
                            unsigned filter_size)
{
    return make_gpu_path<pfb_arb_resampler_controls, pfb_arb_resampler_engine<T>>(
        device, max_chunk, rate, taps, filter_size);
}

#define GPUFILTER_INSTANTIATE_CHANNELIZER_PATH(In)                             \
    template gpu_path<pfb_channelizer_controls> make_pfb_channelizer_path<In>( \
        int,                                                                   \
        std::size_t,                                                           \
        unsigned,                                                              \
        const std::vector<float>&,                                             \
        float,                                                                 \
        bool,                                                                  \
        const std::vector<int>&);
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_CHANNELIZER_PATH)
template gpu_path<pfb_arb_resampler_controls> make_pfb_arb_resampler_path<float>(
    int, std::size_t, float, const std::vector<float>&, unsigned);
template gpu_path<pfb_arb_resampler_controls> make_pfb_arb_resampler_path<complex>(
    int, std::size_t, float, const std::vector<float>&, unsigned);

} // namespace cuda
} // namespace gpufilter
} // namespace gr
