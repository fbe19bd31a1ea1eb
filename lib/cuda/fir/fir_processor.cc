/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fft_fir_engine.h"
#include "fir_engine.h"
#include "fir_processor.h"
#include "fir_types.h"

namespace gr {
namespace gpufilter {
namespace cuda {

template <class In, class Tap>
fir_method choose_fir_method(std::size_t ntaps, int decimation, fir_method requested)
{
    if (requested != fir_method::automatic)
        return requested;
    // The direct form costs ntaps/D multiply-adds per input sample, overlap-save a
    // roughly constant rate, so the crossover is in taps per kept output, and halves
    // each time a tap costs twice the FMAs (docs/kernels.md has the measurement).
    const std::size_t fmas_per_tap =
        (is_complex_v<In> ? 2 : 1) * (is_complex_v<Tap> ? 2 : 1);
    const std::size_t crossover_taps_per_output = 512 / fmas_per_tap;
    return ntaps >= crossover_taps_per_output * static_cast<std::size_t>(decimation)
               ? fir_method::fft
               : fir_method::direct;
}

template <class In, class Tap>
std::unique_ptr<fir_processor<In, Tap>>
make_fir_processor(const std::vector<Tap>& taps, int decimation, fir_method method)
{
    if (choose_fir_method<In, Tap>(taps.size(), decimation, method) == fir_method::fft)
        return std::make_unique<fft_fir_engine<In, Tap>>(taps, decimation);
    return std::make_unique<fir_engine<In, Tap>>(taps, decimation);
}

#define GPUFILTER_INSTANTIATE_PROCESSOR(In, Tap)                                  \
    template fir_method choose_fir_method<In, Tap>(std::size_t, int, fir_method); \
    template std::unique_ptr<fir_processor<In, Tap>> make_fir_processor<In, Tap>( \
        const std::vector<Tap>&, int, fir_method);
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_PROCESSOR)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
