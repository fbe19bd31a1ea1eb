/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_AUTO_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FIR_AUTO_ENGINE_H

// The FIR as the blocks run it: the engine (direct form or FFT overlap-save) that the
// taps call for, changed when new taps call for the other one.

#include "../stream/processor.h"
#include "fir_controls.h"
#include "fir_processor.h"
#include <memory>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief A decimating FIR on device-resident samples (fir_processor's definition)
 * that picks its algorithm (`method`, automatic: choose_fir_method) and, with method
 * automatic, picks again on set_taps(): a new algorithm starts from zero history
 * (the block sets it again, as after any new taps) and carries on the rotation.
 * Uses the current device.
 */
template <class In, class Tap>
class fir_auto_engine final : public controlled_processor<fir_controls<Tap>>
{
public:
    fir_auto_engine(const std::vector<Tap>& taps, int decimation, fir_method method);

    // fir_controls, on the stream of the host path it is attached to.
    void set_taps(const std::vector<Tap>& taps) override;
    void set_rotation(const rotation& r) override;
    rotation next_rotation() const override { return d_engine->next_rotation(); }

    // processor: the current engine's.
    const port_layout& ports() const override { return d_engine->ports(); }
    std::size_t output_count(std::size_t n) const override
    {
        return d_engine->output_count(n);
    }
    std::size_t max_output_count(std::size_t n) const override
    {
        return d_engine->max_output_count(n);
    }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override
    {
        return d_engine->process(in, n, out, s);
    }
    std::size_t history_items() const override { return d_engine->history_items(); }
    void set_history(const void* const* host, cudaStream_t s) override
    {
        d_engine->set_history(host, s);
    }
    const char* method() const override { return d_engine->method(); }

    int ntaps() const { return d_engine->ntaps(); }

private:
    std::unique_ptr<fir_processor<In, Tap>> d_engine;
    int d_decimation;
    fir_method d_requested;
    bool d_rotating = false;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
