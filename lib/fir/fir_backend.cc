/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda/fir/fir_stream.h"
#include "fir/fir_backend.h"
#include "fir/xlating_design.h"
#include <gnuradio/gr_complex.h>
#include <type_traits>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {
cuda::fir_method engine_method(filter_method m)
{
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

template <class In, class Out, class Tap>
cuda::fir_stream<In, Tap>& gpu_of(block_core& core)
{
    return static_cast<cuda::fir_stream<In, Tap>&>(*core.gpu()); // made by make()
}

template <class In, class Out, class Tap>
cpu_fir_kernel<In, Out, Tap>& cpu_of(block_core& core)
{
    return static_cast<cpu_fir_kernel<In, Out, Tap>&>(*core.cpu());
}
} // namespace

template <class In, class Out, class Tap>
cpu_fir_kernel<In, Out, Tap>::cpu_fir_kernel(const std::vector<Tap>& taps, int decimation)
    : d_fir(taps), d_decimation(decimation)
{
}

template <class In, class Out, class Tap>
std::size_t cpu_fir_kernel<In, Out, Tap>::process(const void* const* windows,
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
void cpu_fir_kernel<In, Out, Tap>::set_rotation(const cuda::rotation& r)
{
    if (!std::is_same_v<Out, gr_complex>)
        throw std::logic_error("set_rotation: the output is not complex");
    d_rotation = r;
    d_rotated = 0;
    d_rotating = true;
}

template <class In, class Out, class Tap>
cuda::rotation cpu_fir_kernel<In, Out, Tap>::next_rotation() const
{
    if (!d_rotating)
        return {};
    return { cuda::phase_cycles(d_rotation, d_rotated), d_rotation.step_cycles };
}

template <class In, class Out, class Tap>
block_core::backends fir_backend<In, Out, Tap>::make(const std::vector<Tap>& taps,
                                                     int decimation,
                                                     filter_method method)
{
    return { [=](int device, std::size_t max_chunk) {
                return std::make_unique<cuda::fir_stream<In, Tap>>(
                    device, taps, decimation, max_chunk, engine_method(method));
            },
             [=] {
                 return std::make_unique<cpu_fir_kernel<In, Out, Tap>>(taps, decimation);
             } };
}

template <class In, class Out, class Tap>
void fir_backend<In, Out, Tap>::set_taps(block_core& core, const std::vector<Tap>& taps)
{
    if (core.gpu())
        gpu_of<In, Out, Tap>(core).set_taps(taps);
    else
        cpu_of<In, Out, Tap>(core).set_taps(taps);
}

template <class In, class Out, class Tap>
void fir_backend<In, Out, Tap>::set_rotation(block_core& core, const cuda::rotation& r)
{
    if (core.gpu())
        gpu_of<In, Out, Tap>(core).set_rotation(r);
    else
        cpu_of<In, Out, Tap>(core).set_rotation(r);
}

template <class In, class Out, class Tap>
cuda::rotation fir_backend<In, Out, Tap>::next_rotation(block_core& core)
{
    return core.gpu() ? gpu_of<In, Out, Tap>(core).next_rotation()
                      : cpu_of<In, Out, Tap>(core).next_rotation();
}

// The blocks' (input, output, taps) types: fir_filter's four, and the complex-tap
// FIRs of freq_xlating_fir_filter (float, complex and short input) and hilbert_fc.
template class cpu_fir_kernel<float, float, float>;
template class cpu_fir_kernel<gr_complex, gr_complex, float>;
template class cpu_fir_kernel<gr_complex, gr_complex, gr_complex>;
template class cpu_fir_kernel<float, gr_complex, gr_complex>;
template class cpu_fir_kernel<std::int16_t, gr_complex, gr_complex>;
template struct fir_backend<float, float, float>;
template struct fir_backend<gr_complex, gr_complex, float>;
template struct fir_backend<gr_complex, gr_complex, gr_complex>;
template struct fir_backend<float, gr_complex, gr_complex>;
template struct fir_backend<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
