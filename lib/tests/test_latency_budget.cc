/* SPDX-License-Identifier: GPL-3.0-or-later */
// The latency budget's rules on a made-up clock: the batch follows the measured rate,
// waiting input is computed by its deadline, and an infinite budget always waits.
#include "core/latency_budget.h"
#include <gtest/gtest.h>
#include <cmath>

namespace gr {
namespace gpufilter {
namespace {

using clock = latency_budget::clock;

clock::time_point at(double seconds)
{
    return clock::time_point{} +
           std::chrono::duration_cast<clock::duration>(
               std::chrono::duration<double>(seconds) + std::chrono::hours(1));
}

// Arrivals at `rate` items/s, observed every `step` seconds for `seconds`.
void feed(latency_budget& b, double rate, double seconds, double step = 0.002)
{
    for (double t = 0; t <= seconds; t += step)
        b.observe(at(t), static_cast<std::uint64_t>(rate * t));
}

TEST(latency_budget, unknown_rate_takes_what_has_arrived)
{
    latency_budget b(0.01);
    EXPECT_EQ(b.batch(1 << 18), 1u);
    const auto d = b.hold(at(0), 10, 1000);
    EXPECT_TRUE(d.compute_now);
}

TEST(latency_budget, batch_is_the_rate_share_of_the_budget)
{
    latency_budget b(0.01);
    feed(b, 48000, 1.0);
    EXPECT_NEAR(b.rate(), 48000, 48000 * 0.05);
    EXPECT_NEAR(static_cast<double>(b.batch(1 << 18)), 480, 30);
}

TEST(latency_budget, chunks_longer_than_a_window_give_their_mean_rate)
{
    // A throttle at 48 kS/s releasing 8192 samples every 170.7 ms, looked at every
    // 2 ms: windows of 50 ms would see a chunk or nothing.
    latency_budget b(0.01);
    const double period = 8192 / 48000.0;
    for (double t = 0; t <= 3.0; t += 0.002)
        b.observe(at(t), 8192 * static_cast<std::uint64_t>(t / period));
    EXPECT_NEAR(b.rate(), 48000, 48000 * 0.05);
}

TEST(latency_budget, a_fast_source_gets_whole_batches_within_milliseconds)
{
    latency_budget b(0.01);
    feed(b, 300e6, 0.003, 0.0005);
    EXPECT_EQ(b.batch(1 << 18), 1u << 18);
}

TEST(latency_budget, follows_a_slower_rate)
{
    latency_budget b(0.01);
    feed(b, 2.4e6, 1.0);
    EXPECT_NEAR(static_cast<double>(b.batch(1 << 18)), 24000, 2000);
    // Then 48 kS/s, continuing the same stream.
    const auto base = static_cast<std::uint64_t>(2.4e6);
    for (double t = 1.0; t <= 3.0; t += 0.002)
        b.observe(at(t), base + static_cast<std::uint64_t>(48000 * (t - 1.0)));
    EXPECT_LT(b.batch(1 << 18), 1000u);
}

TEST(latency_budget, waiting_input_is_computed_by_its_deadline)
{
    latency_budget b(0.01);
    feed(b, 48000, 1.0);
    // 100 items wait for a batch of 480: the batch fills in time, so wait...
    auto d = b.hold(at(1.0), 100, 480);
    EXPECT_FALSE(d.compute_now);
    EXPECT_EQ(d.wake, at(1.01));
    // ... until the budget is up, however little has come.
    d = b.hold(at(1.005), 300, 480);
    EXPECT_FALSE(d.compute_now);
    d = b.hold(at(1.0101), 400, 480);
    EXPECT_TRUE(d.compute_now);
    // A call computed: the next waiting input has a budget of its own.
    b.computed();
    d = b.hold(at(1.02), 100, 480);
    EXPECT_FALSE(d.compute_now);
    EXPECT_EQ(d.wake, at(1.03));
}

TEST(latency_budget, computes_at_once_when_the_batch_cannot_fill_in_time)
{
    latency_budget b(0.01);
    feed(b, 48000, 1.0);
    // 5000 more items at 48 kS/s take 0.1 s, ten budgets.
    EXPECT_TRUE(b.hold(at(1.0), 10, 5010).compute_now);
}

TEST(latency_budget, zero_and_infinite_budgets)
{
    latency_budget none(0.0);
    feed(none, 48000, 1.0);
    EXPECT_EQ(none.batch(1 << 18), 1u);
    EXPECT_TRUE(none.hold(at(1.0), 5, 6).compute_now);

    latency_budget whole(INFINITY);
    feed(whole, 48000, 1.0);
    EXPECT_EQ(whole.batch(1 << 18), 1u << 18);
    const auto d = whole.hold(at(1.0), 5, 1 << 18);
    EXPECT_FALSE(d.compute_now);
    EXPECT_EQ(d.wake, clock::time_point::max());
    EXPECT_FALSE(whole.hold(at(100.0), 5, 1 << 18).compute_now);
}

TEST(latency_budget, restart_forgets_the_rate)
{
    latency_budget b(0.01);
    feed(b, 48000, 1.0);
    b.restart();
    EXPECT_EQ(b.rate(), 0.0);
    EXPECT_EQ(b.batch(1 << 18), 1u);
}

} // namespace
} // namespace gpufilter
} // namespace gr
