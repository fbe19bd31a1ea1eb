/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir/cpu/fir_cpu_kernel.h"
#include "fir/xlating_design.h"
#include <gnuradio/gr_complex.h>
#include <type_traits>
#include <stdexcept>

namespace gr {
namespace gpufilter {

template <class In, class Out, class Tap>
fir_cpu_kernel<In, Out, Tap>::fir_cpu_kernel(const std::vector<Tap>& taps, int decimation)
    : d_fir(taps), d_decimation(decimation)
{
}

template <class In, class Out, class Tap>
std::size_t fir_cpu_kernel<In, Out, Tap>::process(const void* const* windows,
                                                  std::size_t nnew,
                                                  void* const* out)
{
    const auto in = static_cast<const In*>(windows[0]);
    const auto y = static_cast<Out*>(out[0]);
    const auto n = static_cast<unsigned long>(nnew / d_decimation);
    if (d_decimation == 1) // gr-filter's own calls, for identical results
        d_fir.filterN(y, in, n);
    else
        d_fir.filterNdec(y, in, n, d_decimation);
    if constexpr (std::is_same_v<Out, gr_complex>) {
        if (d_rotating) {
            rotate_outputs(y, static_cast<int>(n), d_rotation, d_rotated);
            d_rotated += n;
        }
    }
    return n;
}

template <class In, class Out, class Tap>
void fir_cpu_kernel<In, Out, Tap>::set_rotation(const cuda::rotation& r)
{
    if (!std::is_same_v<Out, gr_complex>)
        throw std::logic_error("set_rotation: the output is not complex");
    d_rotation = r;
    d_rotated = 0;
    d_rotating = true;
}

template <class In, class Out, class Tap>
cuda::rotation fir_cpu_kernel<In, Out, Tap>::next_rotation() const
{
    if (!d_rotating)
        return {};
    return { cuda::phase_cycles(d_rotation, d_rotated), d_rotation.step_cycles };
}

// The blocks' (input, output, taps) types: fir_filter's six, and the complex-tap
// FIRs of freq_xlating_fir_filter (float, complex and short input) and hilbert_fc.
template class fir_cpu_kernel<float, float, float>;
template class fir_cpu_kernel<float, std::int16_t, float>;
template class fir_cpu_kernel<gr_complex, gr_complex, float>;
template class fir_cpu_kernel<gr_complex, gr_complex, gr_complex>;
template class fir_cpu_kernel<float, gr_complex, gr_complex>;
template class fir_cpu_kernel<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
