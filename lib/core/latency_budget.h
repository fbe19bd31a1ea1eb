/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_LATENCY_BUDGET_H
#define INCLUDED_GPUFILTER_LATENCY_BUDGET_H

#include <atomic>
#include <chrono>
#include <cstdint>

namespace gr {
namespace gpufilter {

/*!
 * \brief How long a block may hold input before it computes (max_latency), and the
 * batch that budget allows at the rate input arrives. No GNU Radio in here: batch_gate
 * feeds it what the scheduler shows and acts on its answers.
 *
 * The rate is measured from arrivals (items read plus items waiting) over windows of a
 * few budgets, each ending where input arrived, so a throttled or live source gets
 * batches of rate x max_latency items and a file source or a fast SDR, whose input piles
 * up, gets whole batches. Until the first window closes, the arrivals so far give the
 * rate once they span a millisecond; before that (a new stream) every call takes what has
 * arrived, as gr-filter's blocks do. Input that does not fill a batch is computed once it
 * has waited max_latency, or at once when the rate says the batch will not fill in time.
 *
 * max_latency is read and set from any thread; the rest is the block's thread only.
 */
class latency_budget
{
public:
    using clock = std::chrono::steady_clock;

    explicit latency_budget(double max_latency);

    double max_latency() const { return d_max_latency.load(); }
    void set_max_latency(double seconds) { d_max_latency.store(seconds); }
    //! Input items per second measured so far; 0 while unknown.
    double rate() const { return d_rate.load(); }

    //! A new stream (the flowgraph starts): the rate is unknown again.
    void restart();

    //! `arrived`: items of the stream seen so far (read plus waiting), at `now`.
    void observe(clock::time_point now, std::uint64_t arrived);

    //! Items worth one call: `cap` (batch_size) when the budget holds that much input
    //! at the measured rate, else the rate's share of the budget (at least 1); 1 while
    //! the rate is unknown; `cap` for an infinite budget.
    std::uint64_t batch(std::uint64_t cap) const;

    //! What to do with `waiting` items that do not make the `wanted` call.
    struct decision {
        bool compute_now;       //!< take what is there
        clock::time_point wake; //!< else: look again by then (clock::time_point::max():
                                //!< only when input arrives)
    };
    decision hold(clock::time_point now, std::uint64_t waiting, std::uint64_t wanted);

    //! A call computed: nothing waits any more.
    void computed() { d_waiting = false; }

private:
    double window_seconds() const;

    std::atomic<double> d_max_latency;
    std::atomic<double> d_rate{ 0.0 };
    bool d_measured = false; // a whole window measured since the stream started
    bool d_window_open = false;
    clock::time_point d_window_start;
    std::uint64_t d_window_arrived = 0;
    std::uint64_t d_last_arrived = 0; // at the last observation
    bool d_waiting = false;
    clock::time_point d_waiting_since;
};

} // namespace gpufilter
} // namespace gr

#endif
