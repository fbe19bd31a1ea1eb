/* SPDX-License-Identifier: GPL-3.0-or-later */
// Host-only: arb_schedule (the arbitrary resampler's per-output input, arm and
// fraction, and its output counts) against gr-filter's filter() loop, over streams
// cut at random places, with rate and arm changes mid-stream. Needs no GPU.

#include "arb_reference.h"
#include "pfb/arb_schedule.h"
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::arb_checkpoint;
using cuda::arb_schedule;

struct traced {
    std::vector<long> pos;
    std::vector<unsigned> arm;
    std::vector<float> acc;
};

/*!
 * The schedule over `total` samples in calls of random sizes, every output's position
 * (in stream samples), arm and fraction from its checkpoints and gr-filter's steps.
 */
traced run_schedule(arb_schedule& s, std::size_t total, std::mt19937& g, int max_call)
{
    traced t;
    std::uniform_int_distribution<int> len(0, max_call);
    std::size_t consumed = 0;
    const auto r = s.rate();
    while (consumed < total) {
        const std::size_t n = std::min<std::size_t>(len(g), total - consumed);
        const std::size_t expected = s.count(n);
        EXPECT_LE(expected, s.max_count(n));
        std::vector<arb_checkpoint> cp(expected / cuda::arb_checkpoint_stride + 1);
        const bool exact = s.exact();
        const std::size_t got = s.advance(n, cp.data(), cp.size());
        EXPECT_EQ(got, expected);
        for (std::size_t k = 0; k < got; ++k) {
            long p;
            unsigned j;
            float a;
            if (exact) {
                // The GPU's closed form from the block's checkpoint, written again.
                const arb_checkpoint c = cp[k / cuda::arb_exact_stride];
                const std::uint64_t d = k % cuda::arb_exact_stride;
                const std::uint64_t F =
                    static_cast<std::uint64_t>(r.flt_rate * 8388608.0f);
                const std::uint64_t x =
                    static_cast<std::uint64_t>(c.acc * 8388608.0f) + d * F;
                const std::uint64_t J = c.filter + d * r.dec_rate + (x >> 23);
                p = c.pos + static_cast<long>(J / r.int_rate);
                j = static_cast<unsigned>(J % r.int_rate);
                a = static_cast<float>(x & ((1u << 23) - 1)) / 8388608.0f;
            } else {
                // The GPU's replay, written with the same steps.
                const arb_checkpoint c = cp[k / cuda::arb_checkpoint_stride];
                p = c.pos;
                j = c.filter;
                a = c.acc;
                for (std::size_t i = 0; i < k % cuda::arb_checkpoint_stride; ++i) {
                    a += r.flt_rate;
                    const bool carry = a >= 1.0f;
                    if (carry)
                        a -= 1.0f;
                    j += r.dec_rate % r.int_rate + (carry ? 1 : 0);
                    p += r.dec_rate / r.int_rate;
                    if (j >= r.int_rate) {
                        j -= r.int_rate;
                        ++p;
                    }
                }
            }
            t.pos.push_back(static_cast<long>(consumed) + p);
            t.arm.push_back(j);
            t.acc.push_back(a);
        }
        consumed += n;
    }
    return t;
}

//! gr-filter's loop over the same stream in one call, traced the same way.
traced run_gr(float rate, unsigned N, unsigned first_arm, std::size_t total)
{
    traced t;
    unsigned dec = (unsigned int)floor(N / rate);
    float flt = (N / rate) - dec;
    float acc = 0;
    unsigned j = first_arm;
    long i_in = 0;
    while (i_in < static_cast<long>(total)) {
        while (j < N) {
            t.pos.push_back(i_in);
            t.arm.push_back(j);
            t.acc.push_back(acc);
            acc += flt;
            j += dec + (int)floor(acc);
            acc = fmodf(acc, 1.0);
        }
        i_in += j / N;
        j = j % N;
    }
    return t;
}

TEST(arb_schedule, follows_gr_filter_bit_for_bit_over_random_calls)
{
    std::mt19937 g(77);
    for (const float rate :
         { 2.3421f, 0.75f, 1.0f / 3.7f, 1.0f, 0.01f, 40.5f, 31.99f, 1.0001f, 0.5f })
        for (const unsigned N : { 1u, 7u, 32u, 64u })
            for (const unsigned first : { 0u, N / 2, N - 1 }) {
                const std::size_t total = 20011;
                arb_schedule s(rate, N, first);
                const auto got = run_schedule(s, total, g, 3000);
                const auto want = run_gr(rate, N, first, total);
                ASSERT_EQ(got.pos.size(), want.pos.size())
                    << "rate " << rate << " N " << N << " first " << first;
                for (std::size_t k = 0; k < want.pos.size(); ++k) {
                    ASSERT_EQ(got.pos[k], want.pos[k]) << "output " << k;
                    ASSERT_EQ(got.arm[k], want.arm[k]) << "output " << k;
                    ASSERT_EQ(got.acc[k], want.acc[k]) << "output " << k; // bit for bit
                }
            }
}

TEST(arb_schedule, long_calls_follow_gr_filter)
{
    // Calls of up to 2^19 samples: thousands of checkpoints a call, each stepped from
    // the one before.
    std::mt19937 g(91);
    for (const float rate : { 2.3421f, 0.75f, 1.0f / 3.7f, 31.99f })
        for (const unsigned first : { 0u, 17u }) {
            const std::size_t total = 1200007;
            arb_schedule s(rate, 32, first);
            const auto got = run_schedule(s, total, g, 1 << 19);
            const auto want = run_gr(rate, 32, first, total);
            ASSERT_EQ(got.pos.size(), want.pos.size()) << "rate " << rate;
            for (std::size_t k = 0; k < want.pos.size(); ++k) {
                ASSERT_EQ(got.pos[k], want.pos[k]) << "rate " << rate << " output " << k;
                ASSERT_EQ(got.arm[k], want.arm[k]) << "rate " << rate << " output " << k;
                ASSERT_EQ(got.acc[k], want.acc[k]) << "rate " << rate << " output " << k;
            }
        }
}

TEST(arb_schedule, calls_as_the_block_makes_them_match_gr_filter_calls)
{
    // The block's calls (skip + floor(noutput/rate) samples, consuming them all)
    // against gr-filter's (floor(noutput/rate) from the next output, consuming
    // n_read), with a rate change and an arm change mid-stream.
    std::mt19937 g(5);
    const std::vector<float> taps(301, 0.5f);
    for (const float rate : { 2.3421f, 0.75f, 1.0f / 3.7f, 1.0f }) {
        arb_schedule s(rate, 32, (taps.size() / 2) % 32);
        arb_reference ref(rate, taps, 32);
        std::vector<cd> x(60000, cd(1.0));
        std::vector<cd> sink;
        long gr_pos = 0;
        std::size_t consumed = 0;
        std::uniform_int_distribution<int> len(0, 5000);
        for (int call = 0; call < 40; ++call) {
            if (call == 20) {
                s.set_rate(rate * 1.37f);
                ref.set_rate(rate * 1.37f);
            }
            if (call == 30) {
                s.set_filter(35); // >= N: gr-filter moves on a sample first
                ref.set_last_filter(35);
            }
            const int nread = len(g);
            const std::size_t n = s.skip() + nread;
            const std::size_t ours = s.advance(n, nullptr);
            consumed += n;
            sink.clear();
            gr_pos += ref.filter(x, gr_pos, nread, sink);
            ASSERT_EQ(ours, sink.size()) << "call " << call;
            ASSERT_EQ(consumed + s.skip(), static_cast<std::size_t>(gr_pos));
            ASSERT_EQ(s.filter(), ref.last_filter());
            ASSERT_EQ(s.acc(), ref.acc());
        }
    }
}

TEST(arb_schedule, closed_form_holds_for_every_rate_up_to_filter_size)
{
    std::mt19937 g(9);
    std::uniform_real_distribution<float> u(0.001f, 1.0f);
    for (int i = 0; i < 2000; ++i) {
        const unsigned N = 1 + g() % 128;
        const float rate = u(g) * N;
        arb_schedule s(rate, N, 0);
        EXPECT_TRUE(s.exact()) << "rate " << rate << " N " << N;
    }
    EXPECT_FALSE(arb_schedule(40.5f, 32, 0).exact() && arb_schedule(40.5f, 7, 0).exact());
}

TEST(arb_schedule, position_of_bounds_the_outputs_of_a_call)
{
    arb_schedule s(2.3421f, 32, 5);
    s.advance(1234, nullptr);
    for (std::size_t k : { 0u, 1u, 2u, 3u, 31u, 32u, 1000u }) {
        const std::size_t n = s.position_of(k);
        EXPECT_LE(s.count(n), k);
        EXPECT_GE(s.count(n + 1), k == 0 ? 0u : 1u);
    }
}

TEST(arb_schedule, bad_rates_throw)
{
    EXPECT_THROW(arb_schedule(0.0f, 32, 0), std::invalid_argument);
    EXPECT_THROW(arb_schedule(-1.0f, 32, 0), std::invalid_argument);
    EXPECT_THROW(arb_schedule(INFINITY, 32, 0), std::invalid_argument);
    EXPECT_THROW(arb_schedule(NAN, 32, 0), std::invalid_argument);
    EXPECT_THROW(arb_schedule(1.0f, 0, 0), std::invalid_argument);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
