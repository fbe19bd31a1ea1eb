/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda/resampler/rational_controls.h"
#include "fir/cpu/fir_cpu_kernel.h"
#include "fir/fir_computation.h"
#include <gnuradio/gr_complex.h>
#include <cstdint>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {
cuda::fir_method engine_method(filter_method m)
{
    if (m == filter_method::separable)
        throw std::invalid_argument("method: separable is a method of the 2D filters "
                                    "(fir_filter_2d_*); 1D filters take auto, direct "
                                    "or fft");
    if (m == filter_method::automatic)
        m = get_default_filter_method();
    switch (m) {
    case filter_method::direct:
        return cuda::fir_method::direct;
    case filter_method::fft:
        return cuda::fir_method::fft;
    default:
        return cuda::fir_method::automatic;
    }
}
} // namespace

template <class In, class Out, class Tap>
computation<cuda::fir_controls<Tap>>
fir_computation(const std::vector<Tap>& taps, int decimation, filter_method method)
{
    const cuda::fir_method m = engine_method(method);
    return {
        [=](int device, std::size_t max_chunk) {
            return cuda::make_fir_path<In, Tap>(device, max_chunk, taps, decimation, m);
        },
        [=] { return std::make_unique<fir_cpu_kernel<In, Out, Tap>>(taps, decimation); }
    };
}

// fsf: no FIR engine writes int16. The rational engine with interpolation 1 is the
// decimating FIR, with gr-filter's truncation to int16 (direct form, whatever method).
template <>
computation<cuda::fir_controls<float>> fir_computation<float, std::int16_t, float>(
    const std::vector<float>& taps, int decimation, filter_method)
{
    const auto D = static_cast<unsigned>(decimation);
    return { [=](int device, std::size_t max_chunk) {
                auto path = cuda::make_rational_path<float, std::int16_t, float>(
                    device, max_chunk, 1, D, taps, cuda::rational_start::zero_history);
                return cuda::gpu_path<cuda::fir_controls<float>>{ std::move(path.stream),
                                                                  path.controls };
            },
             [=] {
                 return std::make_unique<fir_cpu_kernel<float, std::int16_t, float>>(
                     taps, decimation);
             } };
}

// The blocks' (input, output, taps) types: fir_filter's six (fsf above), and the
// complex-tap FIRs of freq_xlating_fir_filter (float, complex and short input).
#define GPUFILTER_FIR_COMPUTATION(In, Out, Tap)                                  \
    template computation<cuda::fir_controls<Tap>> fir_computation<In, Out, Tap>( \
        const std::vector<Tap>&, int, filter_method);
GPUFILTER_FIR_COMPUTATION(float, float, float)
GPUFILTER_FIR_COMPUTATION(gr_complex, gr_complex, float)
GPUFILTER_FIR_COMPUTATION(gr_complex, gr_complex, gr_complex)
GPUFILTER_FIR_COMPUTATION(float, gr_complex, gr_complex)
GPUFILTER_FIR_COMPUTATION(std::int16_t, gr_complex, gr_complex)

} // namespace gpufilter
} // namespace gr
