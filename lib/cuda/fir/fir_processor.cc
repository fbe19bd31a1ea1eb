/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fft_fir_engine.h"
#include "fir_engine.h"
#include "fir_processor.h"
#include "fir_types.h"

namespace gr {
namespace gpufilter {
namespace cuda {

template <class In, class Tap>
std::unique_ptr<fir_processor<In, Tap>> make_fir_processor(const std::vector<Tap>& taps,
                                                           int decimation,
                                                           fir_method method,
                                                           const fir_tuning& tuning)
{
    if (fir_method_for(tuning, taps.size(), decimation, method) == fir_method::fft)
        return std::make_unique<fft_fir_engine<In, Tap>>(taps, decimation, 0, tuning);
    return std::make_unique<fir_engine<In, Tap>>(taps, decimation, tuning);
}

#define GPUFILTER_INSTANTIATE_PROCESSOR(In, Tap)                                  \
    template std::unique_ptr<fir_processor<In, Tap>> make_fir_processor<In, Tap>( \
        const std::vector<Tap>&, int, fir_method, const fir_tuning&);
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_PROCESSOR)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
