/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "../stream/gpu_path.h"
#include "fir_auto_engine.h"
#include "fir_types.h"

namespace gr {
namespace gpufilter {
namespace cuda {

template <class In, class Tap>
fir_auto_engine<In, Tap>::fir_auto_engine(const std::vector<Tap>& taps,
                                          int decimation,
                                          fir_method method)
    : d_engine(make_fir_processor<In, Tap>(taps, decimation, method)),
      d_decimation(decimation),
      d_requested(method)
{
}

template <class In, class Tap>
void fir_auto_engine<In, Tap>::set_taps(const std::vector<Tap>& taps)
{
    cudaStream_t s = this->control_stream();
    const fir_method wanted =
        choose_fir_method<In, Tap>(taps.size(), d_decimation, d_requested);
    if (wanted == d_engine->algorithm()) {
        d_engine->set_taps(taps, s);
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        return;
    }
    // Another algorithm is faster for the new length: a fresh engine (zero history)
    // that continues the rotation, once nothing queued uses the old one.
    const rotation r = d_engine->next_rotation();
    auto fresh = make_fir_processor<In, Tap>(taps, d_decimation, wanted);
    if (d_rotating)
        fresh->set_rotation(r);
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    d_engine = std::move(fresh);
}

template <class In, class Tap>
void fir_auto_engine<In, Tap>::set_rotation(const rotation& r)
{
    d_engine->set_rotation(r);
    d_rotating = true;
}

template <class In, class Tap>
gpu_path<fir_controls<Tap>> make_fir_path(int device,
                                          std::size_t max_chunk,
                                          const std::vector<Tap>& taps,
                                          int decimation,
                                          fir_method method)
{
    return make_gpu_path<fir_controls<Tap>, fir_auto_engine<In, Tap>>(
        device, max_chunk, taps, decimation, method);
}

#define GPUFILTER_INSTANTIATE_AUTO_ENGINE(In, Tap)               \
    template class fir_auto_engine<In, Tap>;                     \
    template gpu_path<fir_controls<Tap>> make_fir_path<In, Tap>( \
        int, std::size_t, const std::vector<Tap>&, int, fir_method);
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_AUTO_ENGINE)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
