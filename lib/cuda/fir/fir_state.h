/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_STATE_H
#define INCLUDED_GPUFILTER_CUDA_FIR_STATE_H

#include "../common/resources.h"
#include "../common/rotation.h"
#include "../common/sample_types.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The stream state of a decimating FIR from In to Out, whatever computes it
 * (fir_engine, fft_fir_engine): what makes any split of the input into calls give
 * the output of one call.
 *
 * - The kept history, the last history_len() input samples, on the device, in two
 *   buffers (ping-pong): an update reads one and writes the other.
 * - The decimation phase: input samples to skip before the next kept output.
 * - The output rotation: the rotation set last and the outputs written since.
 *
 * An engine's process() reads history() and phase(), queues its filter, then calls
 * advance(); or, where its filter kernel also copied the history into next_history()
 * (history_keep_of, one launch a call fewer), advance_kept(). Host code only: the .cu
 * holds the history kernel's launches.
 */
template <class In, class Out>
class fir_state
{
public:
    //! Touches no GPU: history_len() 0 until the first resize_history().
    explicit fir_state(int decimation) : d_decimation(decimation) {}

    //! Keeps the newest new_len samples of the history, zeros before them (all zeros
    //! at first). May allocate, and then synchronizes the stream before it frees.
    void resize_history(std::size_t new_len, cudaStream_t stream);

    //! Replaces the history with history_len() host samples (oldest first), waits
    //! for the copy, and restarts the phase.
    void set_history(const In* host_samples, cudaStream_t stream);

    //! Zero history and phase. The rotation stays.
    void reset(cudaStream_t stream);

    //! Rotates outputs from the next one on; complex output only, otherwise
    //! std::logic_error.
    void set_rotation(const rotation& r);
    //! The next output's phase (wrapped) and the step; zeros when none is set.
    rotation next_rotation() const;
    bool rotating() const { return d_rotating; }

    //! How many outputs n more input samples give.
    std::size_t output_count(std::size_t n) const
    {
        // Outputs fall on input samples d_phase, d_phase + D, ... of this call.
        return n > d_phase ? (n - 1 - d_phase) / d_decimation + 1 : 0;
    }

    //! After the filter of n input samples (d_in) is queued on `stream`: queues the
    //! copy of the last history_len() samples of [history | input] into the other
    //! history buffer, and advances the phase and the rotation's output count.
    void advance(const In* d_in, std::size_t n, cudaStream_t stream);
    //! advance() for a call whose filter kernel copied the history itself
    //! (history_keep, into next_history()).
    void advance_kept(std::size_t n);
    //! The buffer the next call's history goes to: not history()'s.
    In* next_history() { return d_history[d_current ^ 1].get(); }

    const In* history() const { return d_history[d_current].get(); }
    std::size_t history_len() const { return d_history_len; }
    std::size_t phase() const { return d_phase; }
    int decimation() const { return d_decimation; }

private:
    int d_decimation;
    std::size_t d_history_len = 0;
    std::size_t d_phase = 0;
    bool d_rotating = false;
    rotation d_rotation;                 // k = 0 is the first output after set_rotation()
    std::uint64_t d_rotated_outputs = 0; // outputs written since set_rotation()
    device_buffer<In> d_history[2];
    int d_current = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
