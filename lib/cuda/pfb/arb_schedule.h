/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_ARB_SCHEDULE_H
#define INCLUDED_GPUFILTER_CUDA_ARB_SCHEDULE_H

// The arbitrary resampler's output schedule: which input sample, filter arm and
// interpolation fraction each output has. gr-filter computes it with a float
// accumulator, so it is reproduced here step by step in gr-filter's float order (plain
// C++, no CUDA): the host knows every call's output count, and the GPU replays the
// same float steps from checkpoints (pfb_arb_kernels.cuh).

#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {

//! gr-filter's set_rate(): N filters, stride dec = floor(N/rate), fraction
//! flt = N/rate - dec, in its float arithmetic.
struct arb_rate {
    unsigned int_rate = 1; // N, the number of filters
    unsigned dec_rate = 0; // dec
    float flt_rate = 0.0f; // flt, in [0, 1)

    static arb_rate make(float rate, unsigned filter_size);
};

//! Where a run of outputs starts: output `index` of the call is at input `pos` (the
//! newest input sample it reads, counted from the call's first new sample), through
//! arm `filter` with fraction `acc`.
struct arb_checkpoint {
    std::int32_t pos;
    std::uint32_t filter;
    float acc;
};

//! Outputs between two checkpoints of the sequential schedule: the GPU replays at
//! most this many - 1 steps.
constexpr unsigned arb_checkpoint_stride = 8;
//! Outputs between two checkpoints of the closed form (exact()), from which a GPU
//! thread reaches any output with a few integer operations (their sums stay within
//! 64 bits, and within 32 in the periodic kernel, for strides up to 2^20). Few
//! enough that a call's upload costs little more than its latency (2^24 inputs at
//! rate 3/4: 2.3 KB).
constexpr unsigned arb_exact_stride = 65536;
//! Fraction bits of the accumulator's grid: a float in [1, 2) has 23.
constexpr unsigned arb_fraction_bits = 23;
//! Outputs a thread of the periodic kernel computes (pfb_arb_periodic_kernels.cuh).
constexpr int arb_periodic_outputs = 8;

/*!
 * \brief gr-filter's resampler state (d_last_filter, d_acc) plus the input position
 * of the next output relative to the next call's first new sample (`skip`, >= 0:
 * inputs the resampler steps over are consumed by later calls, see docs/pfb.md).
 *
 * One step after an output, in gr-filter's order: acc += flt; filter += dec +
 * floor(acc); acc = fmod(acc, 1); then filter >= N moves the input position on by
 * filter / N and wraps the filter. An output of filter j at input p with fraction a
 * is h_j(p) + a * dh_j(p), h_j and dh_j the arms of the filter and derivative banks.
 */
class arb_schedule
{
public:
    arb_schedule(float rate, unsigned filter_size, unsigned initial_filter);

    void set_rate(float rate);
    //! gr-filter's set_phase result: the next output's arm (may be >= N, then the
    //! position moves on first, as in gr-filter).
    void set_filter(unsigned filter) { d_filter = filter; }
    unsigned filter() const { return d_filter; }
    //! Forgets the position past the consumed samples (a restarted stream).
    void clear_skip() { d_skip = 0; }
    float acc() const { return d_acc; }
    std::size_t skip() const { return d_skip; }
    const arb_rate& rate() const { return d_rate; }
    /*!
     * Whether the accumulator and flt are whole multiples of 2^-23. For every rate up
     * to filter_size (N/rate >= 1, so flt = N/rate - dec keeps at most 23 fraction
     * bits) starting from acc = 0, gr-filter's float steps then never round (every
     * sum is a multiple of 2^-23 below 2, which a float holds exactly), and output k
     * has a closed form: X = filter * 2^23 + acc * 2^23 + k * (dec * 2^23 + flt *
     * 2^23); position skip + (X >> 23) / N, arm (X >> 23) % N, fraction
     * (X mod 2^23) / 2^23. Counts are then O(1) and checkpoints one per
     * arb_exact_stride outputs; otherwise the steps run one by one.
     */
    bool exact() const;

    //! Outputs n more input samples give (those at positions < n), state unchanged;
    //! `next`, when not null, gets the position of the output after them (>= n): a
    //! call of any size in [n, next] gives the same outputs.
    std::size_t count(std::size_t n, std::size_t* next = nullptr) const;
    //! The input position of output k from now (k = 0: skip()); count(position_of(k))
    //! <= k, so a call of that many samples gives at most k outputs.
    std::size_t position_of(std::size_t k) const;
    //! The most count(n) can be at this rate, in any state.
    std::size_t max_count(std::size_t n) const;
    //! Moves the state over n input samples; writes a checkpoint for every
    //! arb_checkpoint_stride-th output (arb_exact_stride-th when exact()) when
    //! `checkpoints` is not null (room for `room` of them: std::logic_error past it).
    //! Returns the outputs.
    std::size_t advance(std::size_t n, arb_checkpoint* checkpoints, std::size_t room = 0);

private:
    arb_rate d_rate;
    unsigned d_filter;
    float d_acc = 0.0f;
    std::size_t d_skip = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
