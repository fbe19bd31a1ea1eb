/* SPDX-License-Identifier: GPL-3.0-or-later */
// pfb_channelizer_engine against the float64 reference of gr-filter 3.10's
// stream_to_streams(N) -> pfb_channelizer_ccf(N, taps, oversample_rate).

#include "channelizer_test_support.h"
#include <gtest/gtest.h>
#include <numeric>
#include <set>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

TEST(pfb_channelizer_parameters, bad_arguments_throw_before_the_gpu)
{
    const std::vector<float> taps(16, 0.5f);
    using E = pfb_channelizer_engine<complex>;
    EXPECT_THROW(E(0, taps), std::invalid_argument);
    EXPECT_THROW(E(4, {}), std::invalid_argument);
    EXPECT_THROW(E(36, taps, 1.3f), std::invalid_argument); // 36/1.3 is no integer
    EXPECT_THROW(E(4, taps, 0.5f), std::invalid_argument);  // R = 8 > N
    EXPECT_THROW(E(4, taps, 0.0f), std::invalid_argument);
    EXPECT_THROW(E(4, taps, 1.0f, pfb_layout::streams, { 0, 4 }), std::invalid_argument);
    EXPECT_THROW(E(4, taps, 1.0f, pfb_layout::streams, { -1 }), std::invalid_argument);
    EXPECT_THROW(E(4, taps, 1.0f, pfb_layout::vector, { 0, 1 }), std::invalid_argument);
    // A tuning with no rules (not from pfb_tuning_for).
    EXPECT_THROW(E(4, taps, 1.0f, pfb_layout::vector, {}, cuda::pfb_tuning{}),
                 std::invalid_argument);
    EXPECT_EQ(E::rate_ratio_for(36, 36.0f / 25), 25);
    EXPECT_EQ(E::rate_ratio_for(4, 4.0f / 3), 3);
    EXPECT_EQ(E::rate_ratio_for(8, 1.0f), 8);
    EXPECT_EQ(E::rate_ratio_for(8, 8.0f), 1);
    EXPECT_EQ(E::rate_ratio_for(36, 36.0f / 7), 7); // gr-filter: any integer N/i
    // gr-filter's absolute 1e-5 rejects this float (3071.99991); relative 1e-5 not.
    EXPECT_EQ(E::rate_ratio_for(4096, 4096.0f / 3072), 3072);
    EXPECT_EQ(E::rate_ratio_for(1024, 1024.0f / 768), 768);
    EXPECT_THROW(E::rate_ratio_for(4096, 4096.0f / 3071.5f), std::invalid_argument);
}

TEST_F(pfb_channelizer_test, matches_reference_over_channels_rates_and_taps)
{
    std::vector<chan_case> cases;
    for (const unsigned N : { 1u, 2u, 3u, 5u, 8u, 16u, 36u, 64u }) {
        // Tap counts around multiples of N (1 to 40 taps per filter), and oversample
        // rates N/R for R = N (none), N/2 and 1 where R is an integer.
        std::set<unsigned> rates = { N, 1u };
        if (N % 2 == 0)
            rates.insert(N / 2);
        for (const std::size_t ntaps : { std::size_t(N - 1 ? N - 1 : 1),
                                         std::size_t(3 * N + 1),
                                         std::size_t(8 * N),
                                         std::size_t(40 * N - 1) })
            for (const unsigned R : rates)
                cases.push_back({ N, static_cast<float>(N) / R, ntaps });
    }
    cases.push_back({ 36, 36.0f / 25, 36 * 12 + 5 });
    cases.push_back({ 36, 36.0f / 25, 7 });
    cases.push_back({ 4, 4.0f / 3, 4 * 10 + 1 });
    cases.push_back({ 36, 36.0f / 7, 36 * 3 + 1 }); // R = 7 does not divide N
    cases.push_back({ 40, 40.0f / 3, 40 * 6 + 3 });
    cases.push_back({ 64, 64.0f / 48, 64 * 9 - 5 });
    for (const auto& c : cases) {
        const auto taps = random_taps(c.ntaps, rng);
        const int R = gr_rate_ratio(c.N, c.os);
        // Several kernel blocks of steps, and an end mid-step.
        const std::size_t len =
            std::max<std::size_t>(1500, 3 * 1024 / c.N) * R + R / 2 + 3;
        const auto x = random_samples<complex>(len, rng);
        const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
        pfb_channelizer_engine<complex> e(
            c.N, taps, c.os, pfb_layout::streams, {}, test_pfb_tuning());
        EXPECT_EQ(e.rate_ratio(), R);
        EXPECT_EQ(e.history_items(), c.N * ((c.ntaps + c.N - 1) / c.N) - 1);
        const auto y = run_processor(e, x, uneven_calls);
        ASSERT_EQ(y.size(), c.N) << describe(c);
        ASSERT_EQ(y[0].size(), want[0].size()) << describe(c);
        EXPECT_LE(relative_error(y, want), tolerance(c.N)) << describe(c);
    }
}

TEST_F(pfb_channelizer_test, vector_layout_large_channel_counts)
{
    for (const chan_case c :
         std::vector<chan_case>{ { 256, 1, 256 * 8 },
                                 { 256, 2, 256 * 4 + 3 },
                                 { 1024, 1, 1024 * 6 - 1 },
                                 { 1024, 4, 1024 * 2 },
                                 { 4096, 1, 4096 * 4 },
                                 { 4096, 2, 4096 * 3 + 1 },
                                 { 4096, 4096.0f / 3072, 4096 * 2 } }) {
        const auto taps = random_taps(c.ntaps, rng);
        const int R = gr_rate_ratio(c.N, c.os);
        const std::size_t steps = c.N >= 4096 ? 24 : 48;
        const auto x = random_samples<complex>(steps * R + R / 3, rng);
        const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
        pfb_channelizer_engine<complex> e(
            c.N, taps, c.os, pfb_layout::vector, {}, test_pfb_tuning());
        ASSERT_EQ(e.ports().out_item_bytes.size(), 1u);
        EXPECT_EQ(e.ports().out_item_bytes[0], c.N * sizeof(complex));
        const auto y = run_processor(e, x, { c.N * 5 + 1, c.N / 2, 3 * c.N });
        const auto got = vectors_to_channels(y[0], c.N);
        ASSERT_EQ(got[0].size(), want[0].size()) << describe(c);
        EXPECT_LE(relative_error(got, want), tolerance(c.N)) << describe(c);
    }
}

// Each path forced (pfb_tuning.h), both layouts, against the reference: the fused
// kernel (power-of-two N up to 4096: radix-2 and radix-4 passes, the 4-step window
// at R = N up to N = 1024, the per-step loop otherwise) and the two-pass path.
TEST_F(pfb_channelizer_test, fused_and_two_pass_paths_match_reference)
{
    cuda::pfb_tuning tuning = test_pfb_tuning();
    for (const chan_case c : std::vector<chan_case>{ { 2, 1, 5 },
                                                     { 4, 2, 4 * 3 },
                                                     { 8, 1, 8 * 4 - 3 },
                                                     { 8, 8.0f / 3, 8 * 5 },
                                                     { 32, 1, 32 * 8 },
                                                     { 64, 4, 64 * 2 + 1 },
                                                     { 128, 1, 128 * 16 },
                                                     { 512, 2, 512 * 8 },
                                                     { 1024, 1, 1024 * 8 },
                                                     { 2048, 1, 2048 * 3 },
                                                     { 2048, 2048.0f / 1536, 2048 * 2 },
                                                     { 4096, 1, 4096 * 8 },
                                                     { 4096, 2, 4096 * 2 - 7 } }) {
        const auto taps = random_taps(c.ntaps, rng);
        const int R = gr_rate_ratio(c.N, c.os);
        const std::size_t steps = c.N >= 2048 ? 21 : 4096 / c.N + 37;
        const auto x = random_samples<complex>(steps * R + R / 3 + 1, rng);
        const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
        for (const auto path : { cuda::pfb_path::two_pass, cuda::pfb_path::fused }) {
            tuning.path = path;
            for (const auto layout : { pfb_layout::vector, pfb_layout::streams }) {
                pfb_channelizer_engine<complex> e(c.N, taps, c.os, layout, {}, tuning);
                const auto y =
                    run_processor(e, x, { 3 * c.N + 1, c.N / 2 + 1, x.size() });
                const auto got =
                    layout == pfb_layout::vector ? vectors_to_channels(y[0], c.N) : y;
                const std::string what =
                    describe(c) +
                    (path == cuda::pfb_path::fused ? " fused" : " two_pass") +
                    (layout == pfb_layout::vector ? " vector" : " streams");
                ASSERT_EQ(got.size(), c.N) << what;
                ASSERT_EQ(got[0].size(), want[0].size()) << what;
                EXPECT_LE(relative_error(got, want), tolerance(c.N)) << what;
            }
        }
    }
}

TEST_F(pfb_channelizer_test, more_steps_than_one_chunk)
{
    // steps_per_chunk is 2^21 / N rounded down to a power of two: 8192 at N = 256.
    const chan_case c{ 256, 2, 256 * 3 + 1 };
    const auto taps = random_taps(c.ntaps, rng);
    const int R = gr_rate_ratio(c.N, c.os);
    const auto x = random_samples<complex>(8192 * R + 300 * R + 5, rng);
    const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
    for (const auto layout : { pfb_layout::vector, pfb_layout::streams }) {
        pfb_channelizer_engine<complex> e(c.N, taps, c.os, layout, {}, test_pfb_tuning());
        const auto y = run_processor(e, x, { x.size() });
        const auto got =
            layout == pfb_layout::vector ? vectors_to_channels(y[0], c.N) : y;
        ASSERT_EQ(got[0].size(), want[0].size());
        EXPECT_LE(relative_error(got, want), tolerance(c.N));
    }
}

TEST_F(pfb_channelizer_test, vector_layout_equals_stream_layout)
{
    const chan_case c{ 36, 36.0f / 25, 36 * 9 + 2 };
    const auto taps = random_taps(c.ntaps, rng);
    const auto x = random_samples<complex>(25 * 700 + 11, rng);
    pfb_channelizer_engine<complex> streams(
        c.N, taps, c.os, pfb_layout::streams, {}, test_pfb_tuning());
    pfb_channelizer_engine<complex> vectors(
        c.N, taps, c.os, pfb_layout::vector, {}, test_pfb_tuning());
    const auto a = run_processor(streams, x, uneven_calls);
    const auto b = vectors_to_channels(run_processor(vectors, x, { 999, 25 })[0], c.N);
    ASSERT_EQ(a.size(), b.size());
    for (unsigned ch = 0; ch < c.N; ++ch) {
        ASSERT_EQ(a[ch].size(), b[ch].size());
        for (std::size_t s = 0; s < a[ch].size(); ++s)
            ASSERT_NEAR(
                std::abs(a[ch][s] - b[ch][s]), 0.0, 1e-4 * (1 + std::abs(b[ch][s])))
                << "channel " << ch << " step " << s;
    }
}

TEST_F(pfb_channelizer_test, channel_map_reorders_repeats_and_drops)
{
    struct map_case {
        chan_case c;
        std::vector<int> map;
    };
    for (const auto& m : std::vector<map_case>{
             { { 16, 1, 16 * 6 + 1 }, { 5, 0, 15, 5, 3 } },
             { { 16, 2, 16 * 4 },
               { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 } },
             { { 36, 36.0f / 25, 36 * 8 - 3 }, { 35, 1, 18 } },
             { { 5, 1, 11 }, { 4 } },
             { { 64, 4, 64 * 5 }, { 63, 0,  32, 31, 33, 1,  62, 2,  10, 20, 30, 40, 50,
                                    60, 61, 59, 58, 57, 3,  4,  5,  6,  7,  8,  9,  11,
                                    12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23 } } }) {
        const auto& c = m.c;
        const auto taps = random_taps(c.ntaps, rng);
        const int R = gr_rate_ratio(c.N, c.os);
        const auto x = random_samples<complex>(R * 900 + 7, rng);
        const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
        pfb_channelizer_engine<complex> e(
            c.N, taps, c.os, pfb_layout::streams, m.map, test_pfb_tuning());
        EXPECT_EQ(e.ports().out_item_bytes.size(), m.map.size());
        const auto y = run_processor(e, x, uneven_calls);
        ASSERT_EQ(y.size(), m.map.size());
        EXPECT_LE(relative_error(y, mapped(want, m.map)), tolerance(c.N)) << describe(c);
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
