/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/pfb/pfb_types.h"
#include "pfb/cpu/pfb_cpu_kernels.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <type_traits>
#include <memory>

namespace gr {
namespace gpufilter {

template <class In>
computation<cuda::pfb_channelizer_controls>
pfb_channelizer_computation(unsigned numchans,
                            const std::vector<float>& taps,
                            float oversample_rate,
                            bool vector_layout,
                            const std::vector<int>& map)
{
    const int rate = checked_rate_ratio(numchans, oversample_rate);
    return {
        [=](int device, std::size_t max_chunk) {
            return cuda::make_pfb_channelizer_path<In>(
                device, max_chunk, numchans, taps, oversample_rate, vector_layout, map);
        },
        [=] {
            return std::make_unique<pfb_channelizer_cpu_kernel<In>>(
                numchans, taps, rate, vector_layout, map);
        }
    };
}

computation<cuda::pfb_decimator_controls>
pfb_decimator_computation(unsigned decim,
                          const std::vector<float>& taps,
                          unsigned channel,
                          bool use_fft_rotator,
                          bool use_fft_filters)
{
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_pfb_decimator_path(device,
                                                     max_chunk,
                                                     decim,
                                                     taps,
                                                     channel,
                                                     use_fft_rotator,
                                                     use_fft_filters);
            },
             [=] {
                 return std::make_unique<pfb_decimator_cpu_kernel>(
                     decim, taps, channel, use_fft_rotator);
             } };
}

computation<cuda::pfb_interpolator_controls>
pfb_interpolator_computation(unsigned interp, const std::vector<float>& taps)
{
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_pfb_interpolator_path(device, max_chunk, interp, taps);
            },
             [=] {
                 return std::make_unique<pfb_interpolator_cpu_kernel>(interp, taps);
             } };
}

computation<cuda::pfb_synthesizer_controls>
pfb_synthesizer_computation(unsigned numchans,
                            const std::vector<float>& taps,
                            bool twox,
                            const std::vector<int>& port_map)
{
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_pfb_synthesizer_path(
                    device, max_chunk, numchans, taps, twox, port_map);
            },
             [=] {
                 return std::make_unique<pfb_synthesizer_cpu_kernel>(
                     numchans, taps, twox, port_map);
             } };
}

template <class T, class Tap>
computation<cuda::pfb_arb_resampler_controls> pfb_arb_resampler_computation(
    float rate, const std::vector<Tap>& taps, unsigned filter_size)
{
    return { [=](int device, std::size_t max_chunk) {
                if constexpr (std::is_same_v<Tap, gr_complex>)
                    return cuda::make_pfb_arb_resampler_ccc_path(
                        device, max_chunk, rate, taps, filter_size);
                else
                    return cuda::make_pfb_arb_resampler_path<T>(
                        device, max_chunk, rate, taps, filter_size);
            },
             [=] {
                 return std::make_unique<pfb_arb_resampler_cpu_kernel<T, Tap>>(
                     rate, taps, filter_size);
             } };
}

#define GPUFILTER_CHANNELIZER_COMPUTATION(In)            \
    template computation<cuda::pfb_channelizer_controls> \
    pfb_channelizer_computation<In>(                     \
        unsigned, const std::vector<float>&, float, bool, const std::vector<int>&);
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_CHANNELIZER_COMPUTATION)
template computation<cuda::pfb_arb_resampler_controls>
pfb_arb_resampler_computation<gr_complex>(float, const std::vector<float>&, unsigned);
template computation<cuda::pfb_arb_resampler_controls>
pfb_arb_resampler_computation<float>(float, const std::vector<float>&, unsigned);
template computation<cuda::pfb_arb_resampler_controls>
pfb_arb_resampler_computation<gr_complex, gr_complex>(float,
                                                      const std::vector<gr_complex>&,
                                                      unsigned);

} // namespace gpufilter
} // namespace gr
