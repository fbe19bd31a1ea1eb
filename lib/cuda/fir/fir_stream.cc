/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "fir_processor.h"
#include "fir_stream.h"
#include "fir_types.h"

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
template <class In, class Tap>
std::unique_ptr<processor>
make_on(int device, const std::vector<Tap>& taps, int decimation, fir_method method)
{
    use_device(device);
    return make_fir_processor<In, Tap>(taps, decimation, method);
}

template <class In, class Tap>
fir_processor<In, Tap>& fir_of(processor& p)
{
    return static_cast<fir_processor<In, Tap>&>(p); // only FIR processors are set
}
} // namespace

template <class In, class Tap>
fir_stream<In, Tap>::fir_stream(int device,
                                const std::vector<Tap>& taps,
                                int decimation,
                                std::size_t max_chunk,
                                fir_method method)
    : host_stream(device, make_on<In, Tap>(device, taps, decimation, method), max_chunk),
      d_decimation(decimation),
      d_requested(method)
{
}

template <class In, class Tap>
fir_stream<In, Tap>::fir_stream(int device,
                                const std::vector<Tap>& taps,
                                int decimation,
                                std::size_t max_chunk,
                                const std::string& method)
    : fir_stream(device, taps, decimation, max_chunk, parse_fir_method(method))
{
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_taps(const std::vector<Tap>& taps)
{
    cudaStream_t s = compute_stream();
    auto& fir = fir_of<In, Tap>(current());
    const fir_method wanted =
        choose_fir_method<In, Tap>(taps.size(), d_decimation, d_requested);
    if (wanted == fir.algorithm()) {
        fir.set_taps(taps, s);
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        return;
    }
    // Another algorithm is faster for the new length: a fresh engine (zero history),
    // which continues the rotation where the old one left it.
    const rotation r = fir.next_rotation();
    auto fresh = make_fir_processor<In, Tap>(taps, d_decimation, wanted);
    if (d_rotating)
        fresh->set_rotation(r);
    replace(std::move(fresh));
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_history(const In* samples)
{
    const void* ports[] = { samples };
    host_stream::set_history(ports);
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_rotation(const rotation& r)
{
    fir_of<In, Tap>(current()).set_rotation(r);
    d_rotating = true;
}

template <class In, class Tap>
rotation fir_stream<In, Tap>::next_rotation() const
{
    return static_cast<const fir_processor<In, Tap>&>(current()).next_rotation();
}

template <class In, class Tap>
std::size_t fir_stream<In, Tap>::process(const In* in, std::size_t n, out_type* out)
{
    const void* ins[] = { in };
    void* outs[] = { out };
    return host_stream::process(ins, n, outs);
}

template <class In, class Tap>
int fir_stream<In, Tap>::ntaps() const
{
    return static_cast<const fir_processor<In, Tap>&>(current()).ntaps();
}

#define GPUFILTER_INSTANTIATE_STREAM(In, Tap) template class fir_stream<In, Tap>;
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_STREAM)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
