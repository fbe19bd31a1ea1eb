/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fft_fir_engine.h"
#include "fir_engine.h"
#include "fir_processor.h"
#include <cstdlib>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

//! Puts an engine with fir_engine's API behind the fir_processor interface.
template <class Engine, class In, class Tap>
class engine_processor final : public fir_processor<In, Tap>
{
public:
    using out_type = typename fir_processor<In, Tap>::out_type;

    template <class... Args>
    engine_processor(fir_method m, Args&&... args)
        : d_engine(std::forward<Args>(args)...), d_method(m)
    {
    }

    void set_taps(const std::vector<Tap>& taps, cudaStream_t s) override
    {
        d_engine.set_taps(taps, s);
    }
    void set_history(const In* host, cudaStream_t s) override
    {
        d_engine.set_history(host, s);
    }
    void reset(cudaStream_t s) override { d_engine.reset(s); }
    void set_rotation(const rotation& r) override { d_engine.set_rotation(r); }
    rotation next_rotation() const override { return d_engine.next_rotation(); }
    std::size_t output_count(std::size_t n) const override
    {
        return d_engine.output_count(n);
    }
    std::size_t
    process(const In* d_in, std::size_t n, out_type* d_out, cudaStream_t s) override
    {
        return d_engine.process(d_in, n, d_out, s);
    }
    int ntaps() const override { return d_engine.ntaps(); }
    fir_method method() const override { return d_method; }

private:
    Engine d_engine;
    fir_method d_method;
};

fir_method method_from_environment()
{
    const char* forced = std::getenv("GPUFILTER_FIR_METHOD");
    return forced && *forced ? parse_fir_method(forced) : fir_method::automatic;
}

} // namespace

fir_method parse_fir_method(const std::string& name)
{
    if (name == "auto" || name == "automatic")
        return fir_method::automatic;
    if (name == "direct")
        return fir_method::direct;
    if (name == "fft")
        return fir_method::fft;
    throw std::invalid_argument(
        "method: must be \"auto\", \"direct\" or \"fft\", got \"" + name + "\"");
}

const char* fir_method_name(fir_method m)
{
    switch (m) {
    case fir_method::direct:
        return "direct";
    case fir_method::fft:
        return "fft";
    default:
        return "auto";
    }
}

template <class In, class Tap>
fir_method choose_fir_method(std::size_t ntaps, int decimation, fir_method requested)
{
    if (requested == fir_method::automatic)
        requested = method_from_environment();
    if (requested != fir_method::automatic)
        return requested;
    // The direct form costs ntaps/D multiply-adds per input sample, overlap-save a
    // roughly constant ~40 GS/s on an H200, so the crossover is in taps per kept
    // output, and halves each time a tap costs twice the FMAs (docs/kernels.md has
    // the measurement: ccf ~270, fff ~480, ccc ~155 taps per output at D = 1 and 8).
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
        return std::make_unique<engine_processor<fft_fir_engine<In, Tap>, In, Tap>>(
            fir_method::fft, taps, decimation);
    return std::make_unique<engine_processor<fir_engine<In, Tap>, In, Tap>>(
        fir_method::direct, taps, decimation);
}

#define GPUFILTER_INSTANTIATE_PROCESSOR(In, Tap)                                  \
    template fir_method choose_fir_method<In, Tap>(std::size_t, int, fir_method); \
    template std::unique_ptr<fir_processor<In, Tap>> make_fir_processor<In, Tap>( \
        const std::vector<Tap>&, int, fir_method);

GPUFILTER_INSTANTIATE_PROCESSOR(float, float)
GPUFILTER_INSTANTIATE_PROCESSOR(complex, float)
GPUFILTER_INSTANTIATE_PROCESSOR(complex, complex)
GPUFILTER_INSTANTIATE_PROCESSOR(float, complex)
GPUFILTER_INSTANTIATE_PROCESSOR(std::int16_t, complex)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
