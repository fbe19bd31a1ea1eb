/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "resampler/cpu/rational_cpu_kernel.h"
#include "resampler/rational_computation.h"
#include <gnuradio/gr_complex.h>
#include <cstdint>

namespace gr {
namespace gpufilter {

template <class In, class Out, class Tap>
computation<cuda::rational_controls<Tap>>
rational_computation(unsigned interpolation,
                     unsigned decimation,
                     const std::vector<Tap>& taps,
                     cuda::rational_start start,
                     unsigned vlen)
{
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_rational_path<In, Out, Tap>(
                    device, max_chunk, interpolation, decimation, taps, start, vlen);
            },
             [=] {
                 return std::make_unique<rational_cpu_kernel<In, Out, Tap>>(
                     interpolation, decimation, taps, start, vlen);
             } };
}

#define GPUFILTER_RATIONAL_COMPUTATION(In, Out, Tap)   \
    template computation<cuda::rational_controls<Tap>> \
    rational_computation<In, Out, Tap>(                \
        unsigned, unsigned, const std::vector<Tap>&, cuda::rational_start, unsigned);
GPUFILTER_RATIONAL_COMPUTATION(gr_complex, gr_complex, gr_complex)
GPUFILTER_RATIONAL_COMPUTATION(gr_complex, gr_complex, float)
GPUFILTER_RATIONAL_COMPUTATION(float, gr_complex, gr_complex)
GPUFILTER_RATIONAL_COMPUTATION(float, float, float)
GPUFILTER_RATIONAL_COMPUTATION(float, std::int16_t, float)
GPUFILTER_RATIONAL_COMPUTATION(std::int16_t, gr_complex, gr_complex)

} // namespace gpufilter
} // namespace gr
