/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/latency_budget.h"
#include <algorithm>
#include <cmath>

namespace gr {
namespace gpufilter {

namespace {
// The rate is measured over at least this long: sources deliver in chunks (a throttle
// wakes every few buffers, an SDR every USB transfer), and a shorter window would see
// a chunk or nothing.
constexpr double shortest_window = 0.05;
// ... and at most this long, so that a change of rate is followed within a fraction
// of a second.
constexpr double longest_window = 0.5;
// Until the first window closes, the arrivals since the stream started count once
// they span this long: a file source or a fast SDR fills whole batches within
// milliseconds instead of a first window of small calls. An overestimate costs at
// most the budget (the deadline ends every wait).
constexpr double first_estimate_after = 0.001;
// Windows per budget: several chunks' worth, whatever the budget.
constexpr double windows_per_budget = 5.0;
} // namespace

latency_budget::latency_budget(double max_latency) : d_max_latency(max_latency) {}

void latency_budget::restart()
{
    d_rate.store(0.0);
    d_measured = false;
    d_window_open = false;
    d_waiting = false;
}

double latency_budget::window_seconds() const
{
    const double budget = max_latency();
    if (!std::isfinite(budget))
        return longest_window;
    return std::clamp(windows_per_budget * budget, shortest_window, longest_window);
}

void latency_budget::observe(clock::time_point now, std::uint64_t arrived)
{
    if (!d_window_open || arrived < d_window_arrived) {
        d_window_open = true;
        d_window_start = now;
        d_window_arrived = arrived;
        d_last_arrived = arrived;
        return;
    }
    // Windows end where input arrived, so that one spans whole chunks of a source
    // that delivers in chunks (a throttle's, longer than a window at audio rates):
    // k chunks over k chunk periods, not one chunk over a window.
    if (arrived == d_last_arrived)
        return;
    d_last_arrived = arrived;
    const double elapsed = std::chrono::duration<double>(now - d_window_start).count();
    const double measured =
        elapsed > 0.0 ? static_cast<double>(arrived - d_window_arrived) / elapsed : 0.0;
    if (elapsed < window_seconds()) {
        if (!d_measured && elapsed >= first_estimate_after)
            d_rate.store(measured);
        return;
    }
    // Half the last window, half the history: steady under chunky arrivals, and a
    // new rate is followed within a few windows either way.
    const double before = d_rate.load();
    d_rate.store(d_measured && before > 0.0 ? 0.5 * (before + measured) : measured);
    d_measured = true;
    d_window_start = now;
    d_window_arrived = arrived;
}

std::uint64_t latency_budget::batch(std::uint64_t cap) const
{
    const double budget = max_latency();
    if (!std::isfinite(budget))
        return cap;
    const double in_budget = rate() * budget;
    if (in_budget >= static_cast<double>(cap))
        return cap;
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(in_budget));
}

latency_budget::decision
latency_budget::hold(clock::time_point now, std::uint64_t waiting, std::uint64_t wanted)
{
    constexpr auto never = clock::time_point::max();
    if (waiting == 0) { // nothing to hold: the next arrival wakes the block
        d_waiting = false;
        return { false, never };
    }
    if (!d_waiting) {
        d_waiting = true;
        d_waiting_since = now;
    }
    const double budget = max_latency();
    if (!std::isfinite(budget))
        return { false, never };
    const auto deadline = d_waiting_since + std::chrono::duration_cast<clock::duration>(
                                                std::chrono::duration<double>(budget));
    if (now >= deadline)
        return { true, now };
    // The batch would fill only after the deadline: waiting longer buys nothing.
    const double r = rate();
    if (r <= 0.0 || wanted <= waiting)
        return { true, now };
    const double to_fill = static_cast<double>(wanted - waiting) / r;
    if (now + std::chrono::duration_cast<clock::duration>(
                  std::chrono::duration<double>(to_fill)) >
        deadline)
        return { true, now };
    return { false, deadline };
}

} // namespace gpufilter
} // namespace gr
