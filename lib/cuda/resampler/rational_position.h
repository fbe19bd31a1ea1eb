/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RATIONAL_POSITION_H
#define INCLUDED_GPUFILTER_CUDA_RATIONAL_POSITION_H

// Where a rational resampler's outputs fall, shared by the GPU engine and the CPU
// kernel so that both count outputs alike. gr-filter's loop
//     out = fir[ctr](in);  ctr += D;  while (ctr >= I) { ctr -= I; ++in; }
// as arithmetic: output k of the stream sits at position k*D in units of 1/I input
// sample; its newest input is floor(k*D / I), its polyphase arm (k*D) mod I. No CUDA.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * Where the first output's window lies; gr-filter's blocks differ here.
 * - zero_history (interp_fir_filter, fir_filter): the block's history window, zeros
 *   at first, precedes the input; output 0's newest sample is input 0.
 * - first_window (rational_resampler): gr-filter's block keeps GNU Radio's history at
 *   1 and reads its first window from the stream itself: output 0's newest sample is
 *   input T-1 (T taps an arm), with no zeros before it. The engine then keeps the
 *   history itself, and a (re)start begins a new first window.
 */
enum class rational_start { zero_history, first_window };

struct rational_position {
    std::uint64_t interpolation = 1;
    std::uint64_t decimation = 1;
    //! The next output's position in 1/interpolation input samples, counted from the
    //! first input sample not yet given (gr-filter's ctr, plus the samples it steps
    //! over after its last output that were not given yet).
    std::uint64_t next = 0;

    //! Outputs that n more input samples give: those whose newest input is among them.
    std::size_t output_count(std::size_t n) const
    {
        const std::uint64_t end = n * interpolation;
        return end > next ? (end - next + decimation - 1) / decimation : 0;
    }
    //! The most input samples whose outputs fit in nout.
    std::size_t inputs_for(std::size_t nout) const
    {
        return (nout * decimation + next) / interpolation;
    }
    //! Input samples gr-filter consumes for n given ones: up to the next output's
    //! newest sample, which can lie past them when the decimation exceeds the
    //! interpolation.
    std::size_t next_input(std::size_t n) const
    {
        return (next + output_count(n) * decimation) / interpolation;
    }
    //! The position of a (re)started stream: zero_history keeps it (GNU Radio's
    //! window says where the next output lies); first_window begins a new first
    //! window of taps_per_arm samples, keeping the arm (gr-filter keeps its counter).
    void restart(rational_start start, std::uint64_t taps_per_arm)
    {
        if (start == rational_start::first_window)
            next = (taps_per_arm - 1) * interpolation + next % interpolation;
    }
    //! New taps of new_taps_per_arm: gr-filter's rational resampler starts the next
    //! window where it stopped consuming (first_window), so the next output's newest
    //! sample moves by the change in taps per arm; never before the next new sample
    //! here (a shorter filter mid-stream then starts at it), as the samples before it
    //! are only as many as the new filter needs. zero_history keeps the position.
    void new_taps(rational_start start,
                  std::uint64_t old_taps_per_arm,
                  std::uint64_t new_taps_per_arm)
    {
        if (start != rational_start::first_window)
            return;
        const std::uint64_t later = new_taps_per_arm * interpolation,
                            earlier = old_taps_per_arm * interpolation;
        next = next + later >= earlier ? next + later - earlier : next % interpolation;
    }
    //! After n input samples were filtered.
    void advance(std::size_t n)
    {
        next = next + output_count(n) * decimation - n * interpolation;
    }
};

//! gr-filter's taps rounded up to whole arms: zero-padded to a multiple of
//! interpolation (what its set_taps stores and its taps() returns).
template <class Tap>
std::vector<Tap> padded_to_arms(const std::vector<Tap>& taps, std::uint64_t interpolation)
{
    std::vector<Tap> padded(taps);
    padded.resize((taps.size() + interpolation - 1) / interpolation * interpolation,
                  Tap{});
    return padded;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
