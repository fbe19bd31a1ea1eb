/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FIR_ENGINE_H

#include "../common/resources.h"
#include "../common/rotation.h"
#include "../common/sample_types.h"
#include "fir_processor.h"
#include "fir_state.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Decimating FIR filter on device-resident samples, with its state.
 *
 * Output k of the stream is  y[k] = sum_j taps[j] * x[k*D - j]  (x[i<0] = 0), the
 * same as gr::filter::kernel::fir_filter with zero-filled history. The engine keeps
 * the last ntaps-1 input samples and the decimation phase on the device between
 * calls, so any split of the input into calls gives the same outputs as one call.
 * Only the outputs that decimation keeps are computed.
 *
 * Engines with complex output can also rotate their outputs (set_rotation): output k
 * is multiplied by exp(j*2*pi*phase(k)) in the same kernel, with the phase derived in
 * double precision from a 64-bit output count (see rotation.h), so it is continuous
 * across calls and does not drift however long the stream. A band-pass FIR followed
 * by this rotation is gr-filter's frequency-translating filter in one pass.
 *
 * All work is queued on the stream passed in; the caller orders calls on one stream.
 */
template <class In, class Tap>
class fir_engine final : public fir_processor<In, Tap>
{
public:
    using out_type = filter_output_t<In, Tap>;
    using fir_processor<In, Tap>::process;
    using fir_processor<In, Tap>::set_history;

    //! Uses the current device. `tuning`: the kernel choice and launch shapes
    //! (fir_tuning.h), by default the current device's measured rules. Throws
    //! std::invalid_argument for empty taps, decimation < 1 or a tuning it cannot use.
    fir_engine(const std::vector<Tap>& taps,
               int decimation,
               const fir_tuning& tuning = fir_tuning_for_device<In, Tap>());

    //! New taps from the next sample on. The newest sample of the next output stays
    //! where it was; the kept history is trimmed, or zero-padded at its old end.
    void set_taps(const std::vector<Tap>& taps, cudaStream_t stream) override;

    //! Replaces the history with exactly ntaps()-1 host samples (oldest first) and
    //! restarts the decimation phase: the next input sample is the newest of the next
    //! output. Used where the caller owns the history (GNU Radio's window).
    void set_history(const In* host_samples, cudaStream_t stream) override
    {
        d_state.set_history(host_samples, stream);
    }

    //! Zero history and decimation phase, as at construction. The rotation stays.
    void reset(cudaStream_t stream) override { d_state.reset(stream); }

    //! Rotates outputs from the next one on: output k (k = 0 the next) is multiplied by
    //! exp(j*2*pi*(r.start_cycles + k*r.step_cycles)). Complex output only; otherwise
    //! std::logic_error.
    void set_rotation(const rotation& r) override { d_state.set_rotation(r); }
    //! The rotation as seen from the next output: start_cycles is the phase the next
    //! output gets (wrapped to [-0.5, 0.5]). Zero phase and step when none is set.
    rotation next_rotation() const override { return d_state.next_rotation(); }

    //! How many outputs process() will write for n more input samples.
    std::size_t output_count(std::size_t n) const override
    {
        return d_state.output_count(n);
    }

    //! Filters n device samples into d_out (output_count(n) samples). Returns that count.
    std::size_t
    process(const In* d_in, std::size_t n, out_type* d_out, cudaStream_t stream) override;

    int ntaps() const override { return static_cast<int>(d_taps.size()); }
    int decimation() const override { return d_state.decimation(); }
    const std::vector<Tap>& taps() const { return d_taps; }
    fir_method algorithm() const override { return fir_method::direct; }

private:
    void upload_taps(cudaStream_t stream);

    std::vector<Tap> d_taps;
    fir_state<In, out_type> d_state; // history, decimation phase, rotation
    fir_tuning d_tuning;             // the kernel choice and launch shapes
    device_buffer<Tap> d_taps_reversed;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
