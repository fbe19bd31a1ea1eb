/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_PROCESSOR_H
#define INCLUDED_GPUFILTER_CUDA_FIR_PROCESSOR_H

// What both FIR engines (direct form, FFT overlap-save) are to the host path and to
// the blocks: a processor with one input and one output port, plus the FIR's own
// controls. The engines implement it themselves; the choice between them is the
// tuning's (fir_tuning.h: fir_method_for, from the crossover in docs/kernels.md).

#include "../common/rotation.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "fir_tuning.h"
#include <cstddef>
#include <memory>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief A decimating FIR on device-resident samples with state across calls: output
 * k of the stream is sum_j taps[j] * x[k*D - j] (see fir_engine.h), whatever the
 * algorithm.
 */
template <class In, class Tap>
class fir_processor : public processor
{
public:
    using out_type = filter_output_t<In, Tap>;

    //! New taps from the next sample on (see fir_engine::set_taps).
    virtual void set_taps(const std::vector<Tap>& taps, cudaStream_t stream) = 0;
    //! Exactly ntaps()-1 host samples, oldest first; restarts the decimation phase.
    virtual void set_history(const In* host_samples, cudaStream_t stream) = 0;
    //! Zero history and decimation phase. The rotation stays.
    virtual void reset(cudaStream_t stream) = 0;
    //! Output rotation (complex output only): see fir_engine::set_rotation.
    virtual void set_rotation(const rotation& r) = 0;
    virtual rotation next_rotation() const = 0;
    //! Filters n device samples into d_out (output_count(n) samples); returns that.
    virtual std::size_t
    process(const In* d_in, std::size_t n, out_type* d_out, cudaStream_t stream) = 0;
    virtual int ntaps() const = 0;
    virtual int decimation() const = 0;
    virtual fir_method algorithm() const = 0; //!< direct or fft, never automatic

    // The processor interface, once for both engines.
    const port_layout& ports() const final { return s_ports; }
    std::size_t max_output_count(std::size_t n) const final
    {
        return n / static_cast<std::size_t>(decimation()) + 1;
    }
    std::size_t
    process(const void* const* in, std::size_t n, void* const* out, cudaStream_t s) final
    {
        return process(
            static_cast<const In*>(in[0]), n, static_cast<out_type*>(out[0]), s);
    }
    std::size_t history_items() const final { return ntaps() - 1; }
    void set_history(const void* const* host, cudaStream_t s) final
    {
        set_history(static_cast<const In*>(host[0]), s);
    }
    const char* method() const final { return fir_method_name(algorithm()); }

private:
    static inline const port_layout s_ports{ { sizeof(In) }, { sizeof(out_type) } };
};

//! The engine for `method` (automatic: the tuning's choice, fir_method_for), made
//! with `tuning` (by default the current device's). Uses the current device.
template <class In, class Tap>
std::unique_ptr<fir_processor<In, Tap>>
make_fir_processor(const std::vector<Tap>& taps,
                   int decimation,
                   fir_method method,
                   const fir_tuning& tuning = fir_tuning_for_device<In, Tap>());

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
