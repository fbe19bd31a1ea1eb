/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../fir/history_kernels.cuh"
#include "../stream/gpu_path.h"
#include "rational_engine.h"
#include "rational_kernels.cuh"
#include "rational_types.h"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

void check_count(const char* name, unsigned value)
{
    if (value < 1)
        throw std::invalid_argument(std::string(name) + ": must be >= 1, got " +
                                    std::to_string(value));
}

} // namespace

template <class In, class Out, class Tap>
rational_engine<In, Out, Tap>::rational_engine(unsigned interpolation,
                                               unsigned decimation,
                                               const std::vector<Tap>& taps,
                                               rational_start start,
                                               unsigned vlen)
    : d_vlen(vlen),
      d_start(start),
      d_ports{ { sizeof(In) * vlen }, { sizeof(Out) * vlen } },
      d_state(1)
{
    check_count("interpolation", interpolation);
    check_count("decimation", decimation);
    check_count("vlen", vlen);
    d_position.interpolation = interpolation;
    d_position.decimation = decimation;
    stream s;
    set_taps(taps, s); // with no old history, this zero-fills the new one
    s.synchronize();
    d_position.restart(d_start, d_taps_per_arm);
}

template <class In, class Out, class Tap>
void rational_engine<In, Out, Tap>::set_taps(const std::vector<Tap>& taps)
{
    set_taps(taps, this->control_stream());
}

template <class In, class Out, class Tap>
void rational_engine<In, Out, Tap>::set_taps(const std::vector<Tap>& taps,
                                             cudaStream_t stream)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    const std::vector<Tap> padded = padded_to_arms(taps, interpolation());
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // no queued pass reads the old taps
    upload_growing(d_taps, padded, stream);
    const unsigned old_taps_per_arm = d_taps_per_arm;
    d_taps_per_arm = static_cast<unsigned>(padded.size() / interpolation());
    if (old_taps_per_arm)
        d_position.new_taps(d_start, old_taps_per_arm, d_taps_per_arm);
    d_state.resize_history(static_cast<std::size_t>(d_taps_per_arm - 1) * d_vlen, stream);
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // before `padded` goes
}

template <class In, class Out, class Tap>
void rational_engine<In, Out, Tap>::set_rotation(const rotation&)
{
    throw std::logic_error("set_rotation: the rational resampler does not rotate");
}

template <class In, class Out, class Tap>
std::size_t rational_engine<In, Out, Tap>::process(const void* const* in,
                                                   std::size_t n,
                                                   void* const* out,
                                                   cudaStream_t s)
{
    return process(static_cast<const In*>(in[0]), n, static_cast<Out*>(out[0]), s);
}

template <class In, class Out, class Tap>
std::size_t rational_engine<In, Out, Tap>::process(const In* d_in,
                                                   std::size_t n,
                                                   Out* d_out,
                                                   cudaStream_t stream)
{
    using in_t = device_t<In>;
    using tap_t = device_t<Tap>;
    using out_t = device_t<Out>;
    const std::size_t samples = n * d_vlen;
    const std::size_t noutputs = d_position.output_count(n);
    if (!noutputs) {
        d_state.advance(d_in, samples, stream);
        d_position.advance(n);
        return 0;
    }
    // The kernel keeps the next call's history too.
    const rational_kernels::rational_pass<in_t, tap_t, out_t> pass{
        history_view(d_state, d_in, samples),
        static_cast<long long>(d_taps_per_arm - 1),
        d_position.next,
        static_cast<int>(interpolation()),
        static_cast<int>(decimation()),
        static_cast<int>(d_vlen),
        reinterpret_cast<const tap_t*>(d_taps.get()),
        static_cast<int>(d_taps_per_arm),
        static_cast<long long>(noutputs),
        reinterpret_cast<out_t*>(d_out),
        history_keep_of(d_state, d_in, samples)
    };
    constexpr int block = rational_kernels::threads;
    rational_kernels::rational_direct<in_t, tap_t, device_t<acc_type>, out_t>
        <<<blocks_for(static_cast<long long>(noutputs) * d_vlen, block),
           block,
           0,
           stream>>>(pass);
    GPUFILTER_CHECK_LAUNCH();
    d_state.advance_kept(samples);
    d_position.advance(n);
    return noutputs;
}

template <class In, class Out, class Tap>
void rational_engine<In, Out, Tap>::set_history(const void* const* host, cudaStream_t s)
{
    if (d_start == rational_start::zero_history) {
        d_state.set_history(static_cast<const In*>(host[0]), s);
        return;
    }
    d_state.reset(s);
    d_position.restart(d_start, d_taps_per_arm);
}

template <class In, class Out, class Tap>
void rational_engine<In, Out, Tap>::reset(cudaStream_t stream)
{
    d_state.reset(stream);
    d_position.next = 0;
    d_position.restart(d_start, d_taps_per_arm);
}

template <class In, class Out, class Tap>
gpu_path<rational_controls<Tap>> make_rational_path(int device,
                                                    std::size_t max_chunk,
                                                    unsigned interpolation,
                                                    unsigned decimation,
                                                    const std::vector<Tap>& taps,
                                                    rational_start start,
                                                    unsigned vlen)
{
    return make_gpu_path<rational_controls<Tap>, rational_engine<In, Out, Tap>>(
        device, max_chunk, interpolation, decimation, taps, start, vlen);
}

#define GPUFILTER_INSTANTIATE_RATIONAL(In, Out, Tap)                            \
    template class rational_engine<In, Out, Tap>;                               \
    template gpu_path<rational_controls<Tap>> make_rational_path<In, Out, Tap>( \
        int,                                                                    \
        std::size_t,                                                            \
        unsigned,                                                               \
        unsigned,                                                               \
        const std::vector<Tap>&,                                                \
        rational_start,                                                         \
        unsigned);
GPUFILTER_FOR_EACH_RATIONAL_TYPE(GPUFILTER_INSTANTIATE_RATIONAL)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
